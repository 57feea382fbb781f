"""Movement (5.0) and its interaction with Zones of Control (6.1).

Costs are counted in half Movement Points so the road rate (5.22) stays an integer:

    entering hex b across hexside (a, d)          half-MP
    ------------------------------------------    -----------------------------------------
    road hexside (road hex to road hex)    5.22   1, whatever the hex and hexside
    trail hexside (trail hex to trail hex) 5.23   2, whatever the hex and hexside
    otherwise                              5.21   2 * (Terrain Key cost of b + river cost)
    prohibited hexside                     7.72   may not be crossed
    enemy-occupied hex                     5.12   may not be entered
    armor into a hex other than clear/town 5.25   only across a road or trail hexside

Interpretation (README): a road crossing a river hexside is a bridge, so the road rate replaces
the river cost too ("regardless of other terrain").

``destinations`` is the reach of one unit: a Dial (bucket) shortest-path search bounded by its
Movement Allowance (5.13, 5.24), stopping in enemy controlled hexes (6.0), passing through friendly
units (5.31-5.33) but ending only in a vacant hex (5.31; interpretation: a unit may not end its move
on a friend, since 5.16 forbids moving that friend away afterwards).  Units starting in an enemy
controlled hex follow 5.14/5.15/6.13/6.14.
"""

import numpy as np

from wargym.island_war.scenario import ARMOR, ARTILLERY, JAPAN, PROHIBITED, RIVER, ROAD, TRAIL
from wargym.island_war.state import ON_MAP
from wargym.jit import njit

INF = 30000


@njit(cache=True)
def step_cost(hexside, move_cost, armor_ok, river_cost, a, d, b, is_armor):
    """Half-MP to move from hex a into neighbour b through direction d; INF when not allowed.
    (Takes the few tables it needs rather than all of them: it runs once per edge searched.)"""
    side = hexside[a, d]
    if side & PROHIBITED or move_cost[b] == 0:
        return INF
    if side & ROAD:
        return 1
    if side & TRAIL:
        return 2
    if is_armor and not armor_ok[b]:
        return INF
    cost = move_cost[b]
    if side & RIVER:
        cost += river_cost
    return 2 * cost


@njit(cache=True)
def entry_cost(T, h, is_armor):
    """Half-MP for a reinforcement to enter the map at hex h (interpretation: it pays h's
    terrain cost; armor needs clear/town or a road/trail in h)."""
    if T.move_cost[h] == 0:
        return INF
    if is_armor and not T.armor_ok[h]:
        roadish = False
        for d in range(6):
            if T.hexside[h, d] & (ROAD | TRAIL):
                roadish = True
        if not roadish:
            return INF
    return 2 * T.move_cost[h]


@njit(cache=True)
def may_exit_enemy_zoc(T, u):
    """6.14: only Japanese infantry and engineers may leave an American controlled hex in a
    Movement Phase (5.14: Americans never; 5.15: Japanese armor and artillery never)."""
    return T.u_side[u] == JAPAN and T.u_type[u] != ARMOR and T.u_type[u] != ARTILLERY


@njit(cache=True)
def destinations(T, S, g, u, occ, ezoc, out):
    """Mark in bool ``out[H]`` every hex unit u may end its move in this Movement Phase.
    A unit on the map may always stay put (its own hex is marked)."""
    H = T.nbr.shape[0]
    nbr, hexside, move_cost, armor_ok, river_cost = T.nbr, T.hexside, T.move_cost, T.armor_ok, T.river_cost
    u_side, occ_side = T.u_side, np.full(H, -1, dtype=np.int8)
    side = u_side[u]
    for h in range(H):
        if occ[h] >= 0:
            occ_side[h] = u_side[occ[h]]
    is_armor = T.u_type[u] == ARMOR
    budget = 2 * T.u_move[u]
    dist = np.full(H, INF, dtype=np.int32)
    start_hex = S.unit_hex[g, u] if S.unit_status[g, u] == ON_MAP else -1
    touched = np.empty(H, dtype=np.int32)
    n_touched = 0
    if start_hex >= 0:
        out[start_hex] = True
        if ezoc[start_hex]:
            if may_exit_enemy_zoc(T, u):  # 6.14: one hex, even into another controlled hex
                for d in range(6):
                    n = T.nbr[start_hex, d]
                    if n < 0 or occ[n] >= 0:
                        continue
                    if step_cost(hexside, move_cost, armor_ok, river_cost, start_hex, d, n, is_armor) <= budget:
                        out[n] = True
            return
        dist[start_hex] = 0
        touched[0] = start_hex
        n_touched = 1
    else:  # a reinforcement entering through its entry area (4.1)
        area = T.u_entry[u]
        for h in range(H):
            if T.entry_hexes[area, h] and not (occ[h] >= 0 and T.u_side[occ[h]] != side):
                c = entry_cost(T, h, is_armor)
                if c <= budget and c < dist[h]:
                    dist[h] = c
                    touched[n_touched] = h
                    n_touched += 1
    # Dial's algorithm over integer half-MP levels
    for level in range(budget + 1):
        i = 0
        while i < n_touched:
            a = touched[i]
            i += 1
            if dist[a] != level:
                continue
            if ezoc[a] and a != start_hex:
                continue  # 6.0: units must stop on entering an enemy controlled hex
            for d in range(6):
                b = nbr[a, d]
                if b < 0 or (occ_side[b] >= 0 and occ_side[b] != side):
                    continue  # 5.12
                c = step_cost(hexside, move_cost, armor_ok, river_cost, a, d, b, is_armor)
                if c >= INF:
                    continue
                nd = level + c
                if nd <= budget and nd < dist[b]:
                    if dist[b] == INF:
                        touched[n_touched] = b
                        n_touched += 1
                    dist[b] = nd
    for i in range(n_touched):
        h = touched[i]
        if occ[h] < 0:
            out[h] = True


@njit(cache=True)
def can_enter(T, S, g, u, occ, ezoc):
    """A waiting reinforcement has at least one hex it can enter this phase."""
    out = np.zeros(T.nbr.shape[0], dtype=np.bool_)
    destinations(T, S, g, u, occ, ezoc, out)
    return out.any()
