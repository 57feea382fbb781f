"""Movement (5.0) with Zones of Control (6.1), stacking (4.0) and the 15.3 force areas.

Costs per hexside and nationality are precomputed in ``Tables.cost`` (scenario.py: clear, river,
lake, slope up/down, up a level; cliffs impassable).  ``reach`` is a bucketed shortest-path search
bounded by the unit's Movement Allowance:

* 5.1/5.2: rain -1; night halves (round up) before the rain deduction;
* 5.8: a unit may always move one hex (interpretation: not a unit whose rating is 0 -- the 105mm
  fixed positions and Supply Depots never move);
* 4.0: a hex that could not hold the unit may not be entered, not even in passing;
* 6.1: entering an enemy ZOC ends the move; a unit that starts in one may not leave it, except at
  night by spending its whole allowance to enter an adjacent hex free of enemy ZOCs;
* 10.0: Unknowns never enter a cleared Victory Zone; 15.0: hexes outside the play area are not land;
* 15.3: U.S. forces keep to their areas until their own target is held; hidden Japanese units
  keep to theirs until it is secured.
"""

import numpy as np

from wargym.attu.board import hex_stats, side_of, stack_ok_fast, zoc_of
from wargym.attu.scenario import IMPASSABLE, JAPAN, RAIN, UNKNOWN
from wargym.attu.state import LOC_MAP, OPT_SUBSET
from wargym.jit import njit

INF = 10000
FAR = 1_000_000  # goal_distances: no path


@njit(cache=True)
def allowance(T, S, g, u, rating):
    """5.1, 5.2: Movement Points of a unit of movement rating ``rating`` this turn."""
    m = rating
    if S.night[g]:
        m = (m + 1) // 2
    if S.weather[g] == RAIN:
        m -= 1
    return max(m, 0)


@njit(cache=True)
def may_enter_zone(T, S, g, u, h):
    """10.0 (Unknowns and cleared zones) and 15.3 (a force stays in its area until secured)."""
    return may_enter_zone_z(T, S, g, u, T.zone[h])


@njit(cache=True)
def may_enter_zone_z(T, S, g, u, z):
    """``may_enter_zone`` for any hex of zone z (it depends on the hex only through its zone)."""
    if T.u_type[u] == UNKNOWN and not S.captured[g, u] and S.zone_cleared[g, z]:
        return False
    f = T.u_force[u]
    if f >= 0 and not T.force_zones[f, z] and not S.secured[g, f]:
        return False
    if T.opts[OPT_SUBSET] and T.zone_area[2] and T.zone_area[3] and T.u_side[u] == JAPAN and \
            S.face_down[g, u] and S.unit_loc[g, u] == LOC_MAP:
        # 15.3: hidden units leave their area (north or south) only once it is secured
        here = area_of(T, T.zone[S.unit_hex[g, u]])
        there = area_of(T, z)
        if here >= 0 and there >= 0 and here != there and not S.secured[g, here]:
            return False
    return True


@njit(cache=True)
def zone_entry(T, S, g, u):
    """bool[7]: ``may_enter_zone`` of unit u for a hex of zone z at [z + 1] (z = -1: no zone),
    worked out once for a search over many hexes."""
    out = np.empty(7, dtype=np.bool_)
    for z in range(-1, 6):
        out[z + 1] = may_enter_zone_z(T, S, g, u, z)
    return out


@njit(cache=True)
def area_of(T, z):
    """15.3: the force area of victory zone z (0 north, 1 south), -1 for neither."""
    if z < 0:
        return -1
    if T.force_zones[0, z]:
        return 0
    if T.force_zones[1, z]:
        return 1
    return -1


@njit(cache=True)
def reach(T, S, g, u, occ, us_steps, us_batt, jp_n, ezoc, mp, ignore_zoc, out, dist):
    """Mark in bool ``out[H]`` every hex unit u may move to this action with ``mp`` Movement
    Points (its own hex excluded), and in ``dist`` (int32[H], INF beyond) the Movement Points
    spent to get there.  ``occ`` and the stacking aggregates come from ``hex_stats``; ``ezoc``:
    enemy ZOC hexes."""
    side = side_of(T, S, g, u)
    start = S.unit_hex[g, u]
    cost = T.cost[side]
    if (T.u_move[u] == 0 and not S.captured[g, u]) or S.pinned[g, u]:  # 13.2.1: pinned Unknowns
        return
    if ezoc[start] and not ignore_zoc:
        if S.night[g]:  # 6.1: the whole allowance into an adjacent hex free of enemy ZOCs
            for d in range(6):
                n = T.nbr[start, d]
                if n >= 0 and cost[start, d] < IMPASSABLE and not ezoc[n] and occ[n] != 1 - side \
                        and may_enter_zone(T, S, g, u, n) and stack_ok_fast(T, S, g, n, u, us_steps, us_batt, jp_n):
                    out[n] = True
                    dist[n] = mp
        return
    entry = zone_entry(T, S, g, u)
    frontier = np.empty(T.nbr.shape[0], dtype=np.int32)
    dist[start] = 0
    frontier[0] = start
    n_front = 1
    for level in range(mp + 1):
        i = 0
        while i < n_front:
            a = frontier[i]
            i += 1
            if dist[a] != level:
                continue
            if a != start and ezoc[a] and not ignore_zoc:
                continue  # 6.1: stop on entering an enemy ZOC
            for d in range(6):
                b = T.nbr[a, d]
                if b < 0:
                    continue
                c = cost[a, d]
                if c >= IMPASSABLE or occ[b] == 1 - side:
                    continue
                nd = level + c
                if nd > mp and not (a == start):
                    continue
                if nd > mp:  # 5.8: one hex whatever its cost
                    nd = mp
                if nd < dist[b] and entry[T.zone[b] + 1] and stack_ok_fast(T, S, g, b, u, us_steps, us_batt, jp_n):
                    if dist[b] == INF:
                        frontier[n_front] = b
                        n_front += 1
                    dist[b] = nd
    for i in range(n_front):
        h = frontier[i]
        if h != start:
            out[h] = True


@njit(cache=True)
def move_destinations(T, S, g, u, out):
    """``reach`` for an ordinary Move action of unit u (3.5); returns the Movement Points each
    destination costs (int32[H], INF where it cannot go)."""
    H = T.nbr.shape[0]
    side = side_of(T, S, g, u)
    occ = np.empty(H, dtype=np.int8)
    us_steps = np.empty(H, dtype=np.int16)
    us_batt = np.empty(H, dtype=np.int16)
    jp_n = np.empty(H, dtype=np.int8)
    hex_stats(T, S, g, occ, us_steps, us_batt, jp_n)
    ezoc = zoc_of(T, S, g, 1 - side)
    dist = np.full(H, INF, dtype=np.int32)
    reach(T, S, g, u, occ, us_steps, us_batt, jp_n, ezoc, allowance(T, S, g, u, T.u_move[u]), False, out, dist)
    return dist


@njit(cache=True)
def move_cost(T, S, g, u, dest):
    """(Movement Points unit u spends moving to ``dest`` this action, the hex it enters ``dest``
    from); 13.3 asks whether a move used the whole allowance and where the unit came from."""
    H = T.nbr.shape[0]
    out = np.zeros(H, dtype=np.bool_)
    dist = move_destinations(T, S, g, u, out)
    start = S.unit_hex[g, u]
    ezoc = zoc_of(T, S, g, 1 - side_of(T, S, g, u))
    prev, prev_d = start, INF
    for d in range(6):
        p = T.nbr[dest, d]
        if p < 0 or (p != start and (not out[p] or ezoc[p])) or T.cost[side_of(T, S, g, u)][p, (d + 3) % 6] >= IMPASSABLE:
            continue
        pd = 0 if p == start else dist[p]
        if pd < prev_d:
            prev, prev_d = p, pd
    return dist[dest], prev


@njit(cache=True)
def path_cost_from(T, S, g, side, sources, n_sources, blocked, limit, dist):
    """Shortest costs (``side``'s Movement Points) from the source hexes to every hex, not
    entering ``blocked`` hexes, up to ``limit``; fills ``dist`` (INF beyond).  Used by supply
    (7.2) and the Unknown placement distance (9.6)."""
    H = T.nbr.shape[0]
    cost = T.cost[side]
    dist[:] = INF
    frontier = np.empty(H, dtype=np.int32)
    n_front = 0
    for i in range(n_sources):
        s = sources[i]
        if dist[s] == INF:
            frontier[n_front] = s
            n_front += 1
        dist[s] = 0
    for level in range(limit + 1):
        i = 0
        while i < n_front:
            a = frontier[i]
            i += 1
            if dist[a] != level:
                continue
            for d in range(6):
                b = T.nbr[a, d]
                if b < 0 or blocked[b]:
                    continue
                c = cost[a, d]
                if c >= IMPASSABLE:
                    continue
                nd = level + c
                if nd <= limit and nd < dist[b]:
                    if dist[b] == INF:
                        frontier[n_front] = b
                        n_front += 1
                    dist[b] = nd


@njit(cache=True)
def goal_distances(T, side):
    """int32[K, H]: ``side``'s Movement Point cost from every hex to target hex k (reverse
    shortest paths over Tables.cost; cliffs impassable)."""
    H = T.nbr.shape[0]
    K = T.target_hex.shape[0]
    cost = T.cost[side]
    out = np.full((K, H), FAR, dtype=np.int32)
    for k in range(K):
        d = out[k]
        d[T.target_hex[k]] = 0
        changed = True
        while changed:  # Bellman-Ford sweeps: the map is small and this runs once per core
            changed = False
            for a in range(H):
                if d[a] == FAR:
                    continue
                for e in range(6):
                    b = T.nbr[a, e]
                    if b < 0 or not T.land[b]:
                        continue
                    c = cost[b, (e + 3) % 6]  # the step b -> a
                    if c < IMPASSABLE and d[a] + c < d[b]:
                        d[b] = d[a] + c
                        changed = True
    return out
