"""How to retreat (7.7), displacement (7.8) and advance after combat (7.9).

Retreat: the owner moves each retreating unit one hex at a time (one decision per hex); each hex
must be one farther from its combat position (7.74: it must end exactly the indicated number of
hexes away), may not be enemy occupied (5.12) nor enemy controlled (7.71: only the first hex left
may be), nor across a prohibited hexside (7.72).  Where a route through vacant hexes exists, only
such routes are offered (7.73); otherwise routes through friendly units, each displaced (7.8).  A
unit with no route at all is eliminated in the last hex it can reach (7.74).

Displacement (7.81-7.82): the displaced unit moves one hex as if retreating, to a vacant hex if it
can, otherwise displacing one further unit (a chain of two; interpretation: longer chains are not
followed).  The owning player chooses its hex (7.81: "by the Owning Player"; the DISPLACE decision);
the second unit of a chain, and every displacement under ``decisions="major"``, goes by the default
rule (the vacant hex farthest from enemy units).  A displacement that would eliminate the displaced
unit is not offered, which is how 7.82 ("the retreating unit is eliminated instead") plays out: a
route that needs it does not exist.  Displaced units lose FPF this phase (8.41) and displaced phasing
artillery that has not fought may not fire (7.82).

Interpretation: armor obeys 5.25 when retreating or advancing (it may enter a hex other than clear
or town only across a road or trail hexside).
"""

import numpy as np

from wargym.island_war.scenario import ARMOR, ARTILLERY, PROHIBITED, ROAD, TRAIL
from wargym.island_war.state import ON_MAP, PATH_LEN
from wargym.events import emit
from wargym.island_war.events import ADVANCE, DISPLACED, RETREAT
from wargym.island_war.victory import eliminate, occupy
from wargym.island_war.zoc import enemy_zoc, occupancy
from wargym.jit import njit

BLOCKED, VACANT, DISPLACE = 0, 1, 2


@njit(cache=True)
def may_cross(T, u, a, d, b):
    """Hexside (a, d) into b may be crossed by unit u outside normal movement (7.72, 5.25)."""
    if b < 0 or T.move_cost[b] == 0:
        return False
    side = T.hexside[a, d]
    if side & PROHIBITED:
        return False
    if T.u_type[u] == ARMOR and not T.armor_ok[b] and not (side & (ROAD | TRAIL)):
        return False
    return True


@njit(cache=True)
def enemy_distance(T, S, g, side, h):
    """Hexes from h to the nearest enemy unit of ``side`` (the default rules' safety score)."""
    best = 1000
    for e in range(T.u_side.shape[0]):
        if S.unit_status[g, e] == ON_MAP and T.u_side[e] != side:
            d = T.dist[h, S.unit_hex[g, e]]
            if d < best:
                best = d
    return best


@njit(cache=True)
def vacant_step(T, S, g, x, avoid, occ, ezoc):
    """Best vacant hex unit x can be displaced into (not ``avoid``), or -1."""
    h = S.unit_hex[g, x]
    best, best_score = -1, -1
    for d in range(6):
        n = T.nbr[h, d]
        if n == avoid or not may_cross(T, x, h, d, n) or occ[n] >= 0 or ezoc[n]:
            continue
        score = enemy_distance(T, S, g, T.u_side[x], n)
        if score > best_score:
            best, best_score = n, score
    return best


@njit(cache=True)
def friend_makes_room(T, S, g, x, h, d, forbidden, occ, ezoc):
    """Unit x (in hex h) may be displaced across direction d into a friend's hex, that friend
    itself moving on to a vacant hex (7.82's chain)."""
    n = T.nbr[h, d]
    if n == forbidden or not may_cross(T, x, h, d, n) or ezoc[n] or occ[n] < 0:
        return False
    y = occ[n]
    return T.u_side[y] == T.u_side[x] and vacant_step(T, S, g, y, h, occ, ezoc) >= 0


@njit(cache=True)
def displacement_plan(T, S, g, x, forbidden, occ, ezoc):
    """Where the default rule displaces unit x (7.81): a vacant hex, else the hex of a friend that
    can itself move to a vacant hex (the chain of 7.82, carried out by ``displace_to``).  -1 when x
    cannot be displaced without being eliminated (7.82)."""
    dest = vacant_step(T, S, g, x, forbidden, occ, ezoc)
    if dest >= 0:
        return dest
    h = S.unit_hex[g, x]
    for d in range(6):
        if friend_makes_room(T, S, g, x, h, d, forbidden, occ, ezoc):
            return T.nbr[h, d]
    return -1


@njit(cache=True)
def displacement_choices(T, S, g, x, forbidden, occ, ezoc, out):
    """Mark in ``out[H]`` the hexes the owner may displace unit x into (7.81): vacant ones where
    any exist, else friendly-occupied ones whose unit can itself move to a vacant hex (7.82).
    Returns how many."""
    h = S.unit_hex[g, x]
    n = 0
    for d in range(6):
        t = T.nbr[h, d]
        if t != forbidden and may_cross(T, x, h, d, t) and occ[t] < 0 and not ezoc[t]:
            out[t] = True
            n += 1
    if n > 0:
        return n
    for d in range(6):
        if friend_makes_room(T, S, g, x, h, d, forbidden, occ, ezoc):
            out[T.nbr[h, d]] = True
            n += 1
    return n


@njit(cache=True)
def displace_to(T, S, g, x, dest, occ, ezoc):
    """Move displaced unit x into ``dest`` (one of ``displacement_choices``), first moving a
    friend there one hex by the default rule (the chain of 7.82)."""
    y = occ[dest]
    if y >= 0:
        dest_y = vacant_step(T, S, g, y, S.unit_hex[g, x], occ, ezoc)
        occ[S.unit_hex[g, y]] = -1
        emit(S, g, DISPLACED, y, S.unit_hex[g, y], dest_y)
        occupy(T, S, g, y, dest_y)
        occ[dest_y] = y
        displaced(T, S, g, y)
    occ[S.unit_hex[g, x]] = -1
    emit(S, g, DISPLACED, x, S.unit_hex[g, x], dest)
    occupy(T, S, g, x, dest)
    occ[dest] = x
    displaced(T, S, g, x)


@njit(cache=True)
def displaced(T, S, g, x):
    """Marks of a displaced unit (8.41, 7.82)."""
    S.last_adverse[g, x] = S.combat_phase[g]
    if T.u_side[x] == S.phasing[g] and T.u_type[x] == ARTILLERY and not S.attacked[g, x]:
        S.attacked[g, x] = True


@njit(cache=True)
def displace(T, S, g, x, forbidden, occ, ezoc):
    """Carry out the displacement of x by the default rule; returns False (nothing moved) when
    impossible."""
    dest = displacement_plan(T, S, g, x, forbidden, occ, ezoc)
    if dest < 0:
        return False
    displace_to(T, S, g, x, dest, occ, ezoc)
    return True


@njit(cache=True)
def hex_status(T, S, g, u, n, prev, occ, ezoc):
    """What entering n (from prev) during u's retreat needs: VACANT, DISPLACE or BLOCKED."""
    x = occ[n]
    if x < 0:
        return VACANT
    if T.u_side[x] != T.u_side[u] or x == u:
        return BLOCKED
    dest = displacement_plan(T, S, g, x, prev, occ, ezoc)
    return DISPLACE if dest >= 0 else BLOCKED


@njit(cache=True)
def routes(T, S, g, u, origin, cur, k, occ, ezoc, first_clean, first_any, partial):
    """Enumerate retreat routes of k more hexes from cur (7.71-7.74).  Marks, per first hex,
    whether a route through vacant hexes (``first_clean``) or any route (``first_any``) starts
    there; ``partial`` receives the longest vacant prefix (for 7.74).  Returns its length."""
    path = np.empty(PATH_LEN, dtype=np.int64)
    vac = np.zeros(PATH_LEN, dtype=np.bool_)
    dirs = np.full(PATH_LEN, -1, dtype=np.int64)
    path[0] = cur
    vac[0] = True
    best_len = 0
    base = T.dist[origin, cur]
    depth = 0
    while depth >= 0:
        dirs[depth] += 1
        if dirs[depth] >= 6:
            depth -= 1
            continue
        a = path[depth]
        n = T.nbr[a, dirs[depth]]
        if not may_cross(T, u, a, dirs[depth], n):
            continue
        if T.dist[origin, n] != base + depth + 1 or ezoc[n]:
            continue
        st = hex_status(T, S, g, u, n, a, occ, ezoc)
        if st == BLOCKED:
            continue
        path[depth + 1] = n
        vac[depth + 1] = vac[depth] and st == VACANT
        if vac[depth + 1] and depth + 1 > best_len:
            best_len = depth + 1
            for i in range(best_len):
                partial[i] = path[i + 1]
        if depth + 1 == k:
            first = path[1]
            first_any[first] = True
            if vac[depth + 1]:
                first_clean[first] = True
            continue
        depth += 1
        dirs[depth] = -1
    return best_len


@njit(cache=True)
def unit_routes(T, S, g, u, k):
    """``routes`` of k more hexes for unit u from where it stands, away from ``rt_origin``:
    (first_clean, first_any, partial, len(partial))."""
    H = T.nbr.shape[0]
    first_clean = np.zeros(H, dtype=np.bool_)
    first_any = np.zeros(H, dtype=np.bool_)
    partial = np.empty(PATH_LEN, dtype=np.int64)
    n = routes(T, S, g, u, S.rt_origin[g], S.unit_hex[g, u], k, occupancy(T, S, g),
               enemy_zoc(T, S, g, T.u_side[u]), first_clean, first_any, partial)
    return first_clean, first_any, partial, n


@njit(cache=True)
def current_displacement(T, S, g, out):
    """The DISPLACE decision: mark where the friend in ``displace_into`` may go; returns how many."""
    u = S.rt_queue[g, S.rt_head[g]]
    occ = occupancy(T, S, g)
    ezoc = enemy_zoc(T, S, g, T.u_side[u])
    return displacement_choices(T, S, g, occ[S.displace_into[g]], S.unit_hex[g, u], occ, ezoc, out)


@njit(cache=True)
def displace_current(T, S, g, dest):
    """Carry out the DISPLACE decision: the friend goes to ``dest``."""
    u = S.rt_queue[g, S.rt_head[g]]
    occ = occupancy(T, S, g)
    ezoc = enemy_zoc(T, S, g, T.u_side[u])
    displace_to(T, S, g, occ[S.displace_into[g]], dest, occ, ezoc)


@njit(cache=True)
def retreat_choices(T, S, g, out):
    """Mark in ``out[H]`` the hexes the current retreating unit may enter next; returns how many."""
    u = S.rt_queue[g, S.rt_head[g]]
    first_clean, first_any, _, _ = unit_routes(T, S, g, u, S.rt_hexes[g] - S.rt_done[g])
    use = first_clean if first_clean.any() else first_any  # 7.73
    n = 0
    for h in range(T.nbr.shape[0]):
        if use[h]:
            out[h] = True
            n += 1
    return n


@njit(cache=True)
def current_path(S, g):
    return S.path_count[g] - 1


@njit(cache=True)
def record_path_hex(S, g, h):
    p = current_path(S, g)
    for i in range(PATH_LEN):
        if S.path_hex[g, p, i] < 0:
            S.path_hex[g, p, i] = h
            return


@njit(cache=True)
def begin_unit(T, S, g):
    """Start the retreat of the unit at the head of the queue; eliminate it at once where it has
    no route (7.74).  Returns True when the owner has a decision to make."""
    u = S.rt_queue[g, S.rt_head[g]]
    S.rt_done[g] = 0
    S.rt_origin[g] = S.unit_hex[g, u]
    p = S.path_count[g]
    S.path_hex[g, p, 0] = S.unit_hex[g, u]
    S.path_count[g] = p + 1
    first_clean, first_any, partial, n = unit_routes(T, S, g, u, S.rt_hexes[g])
    if first_any.any():
        return True
    for i in range(n):  # 7.74: moves as far as it can, then is eliminated there
        emit(S, g, RETREAT, u, S.unit_hex[g, u], partial[i])
        occupy(T, S, g, u, partial[i])
        record_path_hex(S, g, partial[i])
    eliminate(T, S, g, u)
    S.rt_head[g] += 1
    return False


@njit(cache=True)
def retreat_into(T, S, g, h):
    """The current unit retreats one hex into h (legal per ``retreat_choices``), displacing a
    friendly unit there (7.81).  Returns True when this unit's retreat is over."""
    u = S.rt_queue[g, S.rt_head[g]]
    occ = occupancy(T, S, g)
    if occ[h] >= 0:
        ezoc = enemy_zoc(T, S, g, T.u_side[u])
        if not displace(T, S, g, occ[h], S.unit_hex[g, u], occ, ezoc):
            eliminate(T, S, g, u)  # 7.82 (defensive: routes() only offers feasible displacements)
            S.rt_head[g] += 1
            return True
    emit(S, g, RETREAT, u, S.unit_hex[g, u], h)
    occupy(T, S, g, u, h)
    record_path_hex(S, g, h)
    S.rt_done[g] += 1
    if S.rt_done[g] >= S.rt_hexes[g]:
        S.last_adverse[g, u] = S.combat_phase[g]
        S.rt_head[g] += 1
        return True
    # a displacement may have closed the remaining routes: then it ends here (7.74)
    out = np.zeros(T.nbr.shape[0], dtype=np.bool_)
    if retreat_choices(T, S, g, out) == 0:
        eliminate(T, S, g, u)
        S.rt_head[g] += 1
        return True
    return False


# ------------------------------------------------------------------------------ advance (7.9)
@njit(cache=True)
def may_advance(T, S, g, u):
    """7.91/7.94: a victorious unit that took part in the combat adjacent to the enemy (not a
    barraging artillery unit), has not advanced yet, and stands next to a Path of Retreat."""
    if S.adv_side[g] < 0 or T.u_side[u] != S.adv_side[g] or S.unit_status[g, u] != ON_MAP or S.advanced[g, u]:
        return False
    took_part = (S.cb_attacker[g, u] and not S.cb_barrage[g, u]) or S.cb_defender[g, u]
    if not took_part:
        return False
    out = np.zeros(T.nbr.shape[0], dtype=np.bool_)
    return advance_choices(T, S, g, u, out) > 0


@njit(cache=True)
def advance_choices(T, S, g, u, out):
    """Hexes of a Path of Retreat unit u may advance to (7.91-7.95): along the path from the
    enemy's combat position, ignoring enemy ZOC (7.93), through friends but not enemies, ending in a
    vacant hex.  Returns how many."""
    occ = occupancy(T, S, g)
    h0 = S.unit_hex[g, u]
    n = 0
    for p in range(S.path_count[g]):
        origin = S.path_hex[g, p, 0]
        if origin < 0 or T.dist[h0, origin] != 1:
            continue
        prev = h0
        for i in range(PATH_LEN):
            h = S.path_hex[g, p, i]
            if h < 0:
                break
            ok = False
            for d in range(6):
                if T.nbr[prev, d] == h and may_cross(T, u, prev, d, h):
                    ok = True
            if not ok:
                break
            x = occ[h]
            if x >= 0 and T.u_side[x] != T.u_side[u]:
                break
            if x < 0 and not out[h]:
                out[h] = True
                n += 1
            prev = h
    return n


@njit(cache=True)
def advance_to(T, S, g, u, h):
    """7.96: the advanced unit may neither attack nor be attacked again this phase."""
    emit(S, g, ADVANCE, u, S.unit_hex[g, u], h)
    occupy(T, S, g, u, h)
    S.advanced[g, u] = True
    S.attacked[g, u] = True
