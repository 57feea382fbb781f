"""Refit and reinforcements (9.0-9.6) and the landings of 12.5/12.6.

* 9.1: two dice, fog -1, williwaw -2 and the scenario's modifier (15.x), cross-indexed with the
  Casualty Track on the Loss Recovery Table (charts.yaml, reconstructed); never more steps than the
  track shows; the track is then reset.  Steps go to in-supply Infantry units one at a time, never
  above their set-up strength nor over the stacking limit.
* 9.2: units staged for open Landing Zones (no Japanese unit, no Japanese ZOC) roll one die each on
  the Scatter Chart (fog -1, williwaw -2, less than 1 reads 1); a unit scattered into a Japanese unit
  or ZOC is eliminated; then over-capacity zones lose the most recently landed steps first (9.2.1).
  Interpretation: only infantry steps go on the Loss Track (8.4 says only they are recorded).
* 9.3 Independent units, 9.4 Supply Depots: in supply, not in a Japanese ZOC.
* 9.6: Unknown moves and Infantry-for-Unknown swaps, away from U.S. units, Landing Zones and cleared
  Victory Zones; placed Unknowns never outnumber the Infantry the Japanese have left.
  Interpretation: a swap places at most one Unknown per Infantry unit removed, and a hex holding
  artillery cannot be swapped ("all units in a hex must be removed").

The Refit Turn's decisions, in 9.0's order: REFIT_ALLOC, INDEPENDENT and DEPOT pick a unit by its
hex (``step_mask``, ``take_step``; END: ``end_step``), REINF_PICK and REINF_ZONE stage the
reinforcements, UNKNOWN_PICK (by hex, as the others) and UNKNOWN_DEST move Unknowns, SWAP_PICK and
SWAP_PLACE swap Infantry for Unknowns.
"""

import numpy as np

from wargym.attu.actions import END, LZ_0, MAX_BATTALIONS, REINF_0
from wargym.attu.board import record_casualties, roll, side_of, us_stack_ok, zoc_of
from wargym.attu.events import (
    DELAYED as EV_DELAYED, INDEPENDENT as EV_INDEPENDENT, LANDING, LANDING_LOST, LOSS_RECOVERY, OVER_CAPACITY,
    P_RECOVERY, P_SCATTER, R_LANDS, R_SCATTERS, REFIT, STEP_LOST, SUPPLY_DEPOT,
)
from wargym.attu.fog import hide_units
from wargym.attu.movement import INF, path_cost_from, zone_entry
from wargym.attu.scenario import ARTILLERY, DELAYED, ENGINEER, INFANTRY, JAPAN, LANDED, LANDING_ZONES, UNKNOWN, US
from wargym.attu.state import (
    DEPOT, INDEPENDENT, LOC_MAP, LOC_NONE, LOC_RESERVE, LOC_STAGING, OPT_REFIT_MOD, REFIT_ALLOC, REINF_PICK,
    REINF_ZONE, SWAP_PICK, SWAP_PLACE, UNKNOWN_DEST, UNKNOWN_PICK,
)
from wargym.attu.supply import in_supply, supply_distance
from wargym.attu.victory import check_immediate, eliminate, update_zones
from wargym.attu.weather import roll_weather
from wargym.events import emit
from wargym.jit import njit

SWAP_RANGE = 7  # 9.6: Unknowns up to seven Movement Points from the swapped hex


@njit(cache=True)
def recovery_steps(T, S, g):
    """9.1: roll the Loss Recovery Table; returns the refit steps and resets the track."""
    r = roll(S, g, P_RECOVERY) + roll(S, g, P_RECOVERY) + T.rec_weather[S.weather[g]] + T.opts[OPT_REFIT_MOD]
    row = 0
    for i in range(T.rec_rows.shape[0]):
        if r >= T.rec_rows[i]:
            row = i
    col = 0
    for j in range(T.rec_cols.shape[0]):
        if S.casualties[g] >= T.rec_cols[j]:
            col = j
    steps = min(T.rec_steps[row, col], S.casualties[g])
    emit(S, g, LOSS_RECOVERY, r, S.casualties[g], steps)
    S.casualties[g] = 0
    return steps


@njit(cache=True)
def refit_ok(T, S, g, u, dist):
    """9.1: u may take one refit step (never above "that with which it started")."""
    if S.unit_loc[g, u] != LOC_MAP or side_of(T, S, g, u) != US or T.u_type[u] != INFANTRY:
        return False
    if S.unit_steps[g, u] >= T.u_start[u] or not in_supply(T, S, g, u, dist):
        return False
    return us_stack_ok(T, S, g, S.unit_hex[g, u], u, S.unit_steps[g, u] + 1)


@njit(cache=True)
def lz_open(T, S, g, k, jzoc):
    """9.2: a Landing Zone with no Japanese unit on it and not in a Japanese ZOC."""
    h = T.lz_hex[k]
    if h < 0 or jzoc[h]:
        return False
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == h and side_of(T, S, g, u) == JAPAN:
            return False
    return True


@njit(cache=True)
def group_unit(T, S, g, k):
    """The next unit of order-of-battle line k waiting in the Reinforcements Box, or -1."""
    for u in range(T.u_side.shape[0]):
        if T.u_group[u] == k and S.unit_loc[g, u] == LOC_RESERVE and T.u_side[u] == US and T.u_in_play[u]:
            return u
    return -1


@njit(cache=True)
def lose_steps(T, S, g, u, n):
    """Remove n steps of U.S. unit u outside combat (9.2), recording infantry ones (8.4)."""
    n = min(n, S.unit_steps[g, u])
    S.unit_steps[g, u] -= n
    emit(S, g, STEP_LOST, u, n, S.unit_steps[g, u])
    record_casualties(T, S, g, u, n)
    if S.unit_steps[g, u] <= 0:
        eliminate(T, S, g, u)


@njit(cache=True)
def resolve_landing(T, S, g):
    """9.2.2 and 9.2.1 for every staged unit."""
    jzoc = zoc_of(T, S, g, JAPAN)
    for k in range(LANDING_ZONES):
        for u in range(T.u_side.shape[0]):
            if S.unit_loc[g, u] != LOC_STAGING or S.unit_hex[g, u] != k:
                continue
            die = max(roll(S, g, P_SCATTER) + T.scatter_weather[S.weather[g]], 1)
            result = T.scatter[k, die]
            dest = k if result == LANDED else result
            if result == DELAYED or T.lz_hex[dest] < 0:
                emit(S, g, EV_DELAYED, u, k)
                S.unit_loc[g, u] = LOC_RESERVE
                S.unit_hex[g, u] = -1
                continue
            emit(S, g, LANDING, u, k, R_LANDS if result == LANDED else R_SCATTERS, T.lz_hex[dest])
            S.unit_loc[g, u] = LOC_MAP
            S.unit_hex[g, u] = T.lz_hex[dest]
            if not lz_open(T, S, g, dest, jzoc):
                emit(S, g, LANDING_LOST, u, T.lz_hex[dest])
                lose_steps(T, S, g, u, S.unit_steps[g, u])
                continue
            S.land_order[g, u] = S.land_count[g]
            S.land_count[g] += 1
    for k in range(LANDING_ZONES):  # 9.2.1: over capacity, the most recently landed steps go first
        h = T.lz_hex[k]
        if h < 0:
            continue
        while True:
            total = 0
            latest, latest_order = -1, -2
            for u in range(T.u_side.shape[0]):
                if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == h and side_of(T, S, g, u) == US:
                    total += S.unit_steps[g, u]
                    if S.land_order[g, u] > latest_order:
                        latest, latest_order = u, S.land_order[g, u]
            excess = total - T.lz_cap[k]
            if excess <= 0 or latest < 0:
                break
            emit(S, g, OVER_CAPACITY, h, excess)
            lose_steps(T, S, g, latest, excess)
    for u in range(T.u_side.shape[0]):
        S.land_order[g, u] = -1
    check_immediate(T, S, g)


@njit(cache=True)
def free_independent(T, S, g):
    for i in range(T.indeps.shape[0]):
        v = T.indeps[i]
        if S.unit_loc[g, v] == LOC_NONE and T.u_in_play[v]:
            return v
    return -1


@njit(cache=True)
def independent_ok(T, S, g, u, dist, jzoc):
    """9.3: an in-supply U.S. Infantry company, not in a Japanese ZOC, while counters remain."""
    return S.unit_loc[g, u] == LOC_MAP and T.u_side[u] == US and not S.captured[g, u] and \
        T.u_type[u] == INFANTRY and T.u_batt[u] >= 0 and not jzoc[S.unit_hex[g, u]] and \
        in_supply(T, S, g, u, dist) and free_independent(T, S, g) >= 0


@njit(cache=True)
def create_independent(T, S, g, u):
    v = free_independent(T, S, g)
    h = S.unit_hex[g, u]
    emit(S, g, EV_INDEPENDENT, v, u, h)
    S.unit_steps[g, u] -= 1  # 9.3: not a loss for the Casualty Track
    if S.unit_steps[g, u] <= 0:
        eliminate(T, S, g, u)
    S.unit_loc[g, v] = LOC_MAP
    S.unit_hex[g, v] = h
    S.unit_steps[g, v] = 1


@njit(cache=True)
def depot_ok(T, S, g, u, dist, jzoc):
    """9.4 / 7.3: an Engineer whose depot is unused, in supply, not in an enemy ZOC."""
    if S.unit_loc[g, u] != LOC_MAP or T.u_type[u] != ENGINEER or S.captured[g, u]:
        return False
    d = T.u_depot[u]
    return d >= 0 and S.unit_loc[g, d] == LOC_NONE and T.u_in_play[d] and not jzoc[S.unit_hex[g, u]] \
        and in_supply(T, S, g, u, dist)


@njit(cache=True)
def create_depot(T, S, g, u):
    d = T.u_depot[u]
    h = S.unit_hex[g, u]
    emit(S, g, SUPPLY_DEPOT, d, u, h)
    S.unit_steps[g, u] -= 1  # 7.3: even its last step
    if S.unit_steps[g, u] <= 0:
        eliminate(T, S, g, u)
    S.unit_loc[g, d] = LOC_MAP
    S.unit_hex[g, d] = h
    S.unit_steps[g, d] = 1


# ------------------------------------------------------------------------------------------ 9.6
@njit(cache=True)
def near_us(T, S, g):
    """bool[H]: hexes holding or adjacent to a U.S. unit."""
    out = np.zeros(T.nbr.shape[0], dtype=np.bool_)
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and side_of(T, S, g, u) == US:
            h = S.unit_hex[g, u]
            out[h] = True
            for d in range(6):
                if T.nbr[h, d] >= 0:
                    out[T.nbr[h, d]] = True
    return out


@njit(cache=True)
def unknown_spots(T, S, g, u, near):
    """bool[H], 9.6: where Unknown u may be moved or placed: land, not next to a U.S. unit
    (``near``) or a landing zone, not in a cleared zone (10.0), and in a zone it may enter (15.3).
    The zone checks are worked out once per zone."""
    entry = zone_entry(T, S, g, u)
    for z in range(-1, 6):
        entry[z + 1] = entry[z + 1] and not S.zone_cleared[g, z]
    H = T.nbr.shape[0]
    out = np.zeros(H, dtype=np.bool_)
    for h in range(H):
        out[h] = T.land[h] and not near[h] and not T.near_lz[h] and entry[T.zone[h] + 1]
    return out


@njit(cache=True)
def infantry_left(T, S, g):
    n = 0
    for u in range(T.u_side.shape[0]):
        if T.u_side[u] == JAPAN and T.u_type[u] == INFANTRY and T.u_in_play[u] and \
                (S.unit_loc[g, u] == LOC_MAP or S.unit_loc[g, u] == LOC_RESERVE):
            n += 1
    return n


@njit(cache=True)
def spare_unknown(T, S, g):
    """An off-map Unknown that may be placed now (9.6: never more on the map than Infantry left)."""
    on_map = 0
    spare = -1
    for u in range(T.u_side.shape[0]):
        if T.u_type[u] == UNKNOWN and T.u_side[u] == JAPAN and T.u_in_play[u]:
            if S.unit_loc[g, u] == LOC_MAP:
                on_map += 1
            elif S.unit_loc[g, u] == LOC_RESERVE and spare < 0:
                spare = u
    if on_map >= infantry_left(T, S, g):
        return -1
    return spare


@njit(cache=True)
def swap_ok(T, S, g, h):
    """9.6 step 2: a hex of Japanese Infantry (and Unknowns) only, with an Unknown to place."""
    inf = 0
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == h:
            if side_of(T, S, g, u) != JAPAN or T.u_type[u] == ARTILLERY or S.captured[g, u]:
                return False
            if T.u_type[u] == INFANTRY:
                inf += 1
    return inf > 0


@njit(cache=True)
def swap_remove(T, S, g, h):
    """Take every unit of hex h off the map (Infantry back to the pool); returns Infantry count."""
    n = 0
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == h:
            if T.u_type[u] == INFANTRY:
                n += 1
            S.unit_loc[g, u] = LOC_RESERVE
            S.unit_hex[g, u] = -1
            S.face_down[g, u] = True
            S.us_knows[g, u] = False  # into the cup, where the U.S. cannot follow it (README)
            S.ad_hoc[g, u] = False
    return n


@njit(cache=True)
def swap_reach(T, S, g, h, out):
    """Hexes within seven Japanese MP of h (not through U.S. units)."""
    H = T.nbr.shape[0]
    blocked = np.zeros(H, dtype=np.bool_)
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and side_of(T, S, g, u) == US:
            blocked[S.unit_hex[g, u]] = True
    src = np.empty(1, dtype=np.int32)
    src[0] = h
    dist = np.empty(H, dtype=np.int32)
    path_cost_from(T, S, g, JAPAN, src, 1, blocked, SWAP_RANGE, dist)
    for x in range(H):
        out[x] = dist[x] < INF


# ---------------------------------------------------------------------------------- decisions
@njit(cache=True)
def start_refit_turn(T, S, g):
    """9.0 (a yes to 3.1): the weather, then the Loss Recovery roll gives the steps to place (9.1)."""
    S.refit[g] = True
    roll_weather(T, S, g)
    S.refit_steps[g] = recovery_steps(T, S, g)
    S.phase[g] = REFIT_ALLOC


@njit(cache=True)
def eligible(T, S, g, purpose, u, dist, jzoc):
    """Unit u may take the Refit Turn step ``purpose``: a refit step (9.1), an Independent (9.3),
    a Supply Depot (9.4), or a move of the Japanese Unknowns (9.6)."""
    if purpose == REFIT_ALLOC:
        return refit_ok(T, S, g, u, dist)
    if purpose == INDEPENDENT:
        return independent_ok(T, S, g, u, dist, jzoc)
    if purpose == DEPOT:
        return depot_ok(T, S, g, u, dist, jzoc)
    if purpose == UNKNOWN_PICK:
        return unknown_may_move(T, S, g, u)
    return False


@njit(cache=True)
def take_step(T, S, g, purpose, u):
    """Unit u takes a refit step (9.1), becomes the parent of an Independent (9.3) or of a
    Supply Depot (9.4); the same step goes on."""
    if purpose == REFIT_ALLOC:
        S.unit_steps[g, u] += 1
        S.refit_steps[g] -= 1
        emit(S, g, REFIT, u, S.unit_steps[g, u])
    elif purpose == INDEPENDENT:
        create_independent(T, S, g, u)
    elif purpose == DEPOT:
        create_depot(T, S, g, u)
    S.phase[g] = purpose


@njit(cache=True)
def step_mask(T, S, g, m):
    """REFIT_ALLOC, INDEPENDENT, DEPOT: the hexes of the units that may take the step, and END."""
    dist = supply_distance(T, S, g)
    jzoc = zoc_of(T, S, g, JAPAN)
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and eligible(T, S, g, S.phase[g], u, dist, jzoc):
            m[S.unit_hex[g, u]] = True
    m[T.nbr.shape[0] + END] = True


@njit(cache=True)
def end_allocation(T, S, g):
    """9.1: refit steps not placed are lost; the reinforcements come next (9.2)."""
    S.refit_steps[g] = 0
    S.phase[g] = REINF_PICK


@njit(cache=True)
def end_step(T, S, g):
    """END of a Refit Turn step, in 9.0's order: refit, (landing,) Independents, Supply Depots,
    then the Japanese hide units (9.5), move Unknowns and swap Infantry for them (9.6)."""
    if S.phase[g] == REFIT_ALLOC:
        end_allocation(T, S, g)
    elif S.phase[g] == INDEPENDENT:
        S.phase[g] = DEPOT
    elif S.phase[g] == DEPOT:
        hide_units(T, S, g, True)  # 9.5
        S.phase[g] = UNKNOWN_PICK
    else:
        S.phase[g] = SWAP_PICK     # 9.6: the Unknowns have moved; on to the swaps


@njit(cache=True)
def reinforcement_pick(T, S, g, a):
    """REINF_PICK (9.2): the next unit of an order-of-battle line to stage; END: the landing."""
    k = a - T.nbr.shape[0]
    if k == END:
        resolve_landing(T, S, g)
        update_zones(T, S, g)
        S.phase[g] = INDEPENDENT
    else:
        S.selected[g] = group_unit(T, S, g, k - REINF_0)
        S.phase[g] = REINF_ZONE


@njit(cache=True)
def reinforcement_pick_mask(T, S, g, m):
    """REINF_PICK (9.2): the lines with a unit waiting, while a Landing Zone is open; and END."""
    H = T.nbr.shape[0]
    jzoc = zoc_of(T, S, g, JAPAN)
    open_any = False
    for k in range(LANDING_ZONES):
        if lz_open(T, S, g, k, jzoc):
            open_any = True
    if open_any:
        for k in range(MAX_BATTALIONS):
            if group_unit(T, S, g, k) >= 0:
                m[H + REINF_0 + k] = True
    m[H + END] = True


@njit(cache=True)
def reinforcement_zone(T, S, g, a):
    """REINF_ZONE (9.2): the selected unit is staged for a Landing Zone."""
    u = S.selected[g]
    S.unit_loc[g, u] = LOC_STAGING
    S.unit_hex[g, u] = a - T.nbr.shape[0] - LZ_0
    S.phase[g] = REINF_PICK


@njit(cache=True)
def reinforcement_zone_mask(T, S, g, m):
    """REINF_ZONE (9.2): the open Landing Zones."""
    H = T.nbr.shape[0]
    jzoc = zoc_of(T, S, g, JAPAN)
    for k in range(LANDING_ZONES):
        if lz_open(T, S, g, k, jzoc):
            m[H + LZ_0 + k] = True


@njit(cache=True)
def unknown_may_move(T, S, g, u):
    """9.6: u is an Unknown on the map not yet moved this Refit Turn (13.2.1: nor pinned)."""
    return S.unit_loc[g, u] == LOC_MAP and T.u_type[u] == UNKNOWN and not S.captured[g, u] and \
        not S.acted[g, u] and not S.pinned[g, u]


@njit(cache=True)
def unknown_pick(T, S, g, u):
    """UNKNOWN_PICK (9.6): Unknown u is the one to move (picked by its hex, and by its SLOT when
    the hex holds several: "any of his on-map Unknown units", whose tables differ)."""
    S.selected[g] = u
    S.phase[g] = UNKNOWN_DEST


@njit(cache=True)
def unknown_pick_mask(T, S, g, m):
    """UNKNOWN_PICK (9.6): the hexes of the Unknowns that may move, and END."""
    for u in range(T.u_side.shape[0]):
        if unknown_may_move(T, S, g, u):
            m[S.unit_hex[g, u]] = True
    m[T.nbr.shape[0] + END] = True


@njit(cache=True)
def unknown_dest(T, S, g, h):
    """UNKNOWN_DEST (9.6): the selected Unknown goes to hex h, face-down."""
    u = S.selected[g]
    S.unit_hex[g, u] = h
    S.acted[g, u] = True
    S.face_down[g, u] = True
    S.phase[g] = UNKNOWN_PICK


@njit(cache=True)
def unknown_dest_mask(T, S, g, hexes):
    """UNKNOWN_DEST (9.6): where the selected Unknown may go, or stay."""
    u = S.selected[g]
    hexes[:] = unknown_spots(T, S, g, u, near_us(T, S, g))
    hexes[S.unit_hex[g, u]] = True


@njit(cache=True)
def swap_pick(T, S, g, h):
    """SWAP_PICK (9.6): the units of hex h leave the map, for Unknowns to be placed."""
    S.sel_hex[g] = h
    S.swap_left[g] = swap_remove(T, S, g, h)
    S.setup_k[g] = 0
    S.phase[g] = SWAP_PLACE


@njit(cache=True)
def swap_pick_mask(T, S, g, m):
    """SWAP_PICK (9.6): the hexes that may be swapped, with a place for an Unknown in reach; END."""
    H = T.nbr.shape[0]
    u = spare_unknown(T, S, g)
    if u >= 0:
        spots = unknown_spots(T, S, g, u, near_us(T, S, g))
        reach = np.zeros(H, dtype=np.bool_)
        for v in range(T.u_side.shape[0]):
            if S.unit_loc[g, v] == LOC_MAP and T.u_side[v] == JAPAN and not m[S.unit_hex[g, v]]:
                h = S.unit_hex[g, v]
                if swap_ok(T, S, g, h):
                    swap_reach(T, S, g, h, reach)
                    for x in range(H):
                        if reach[x] and spots[x]:
                            m[h] = True
                            break
    m[H + END] = True


@njit(cache=True)
def swap_place(T, S, g, a):
    """SWAP_PLACE (9.6): an Unknown placed face-down on hex a, while Infantry removed and Unknowns
    remain; END: the next swap."""
    if a - T.nbr.shape[0] == END:
        S.phase[g] = SWAP_PICK
        return
    u = spare_unknown(T, S, g)
    S.unit_loc[g, u] = LOC_MAP
    S.unit_hex[g, u] = a
    S.face_down[g, u] = True
    S.acted[g, u] = True
    S.swap_left[g] -= 1
    S.setup_k[g] += 1
    if S.swap_left[g] <= 0 or spare_unknown(T, S, g) < 0:
        S.phase[g] = SWAP_PICK


@njit(cache=True)
def swap_place_mask(T, S, g, m):
    """SWAP_PLACE (9.6): the places for an Unknown within seven MP of the swapped hex; END once
    one is placed (or none can be)."""
    H = T.nbr.shape[0]
    hexes = m[:H]
    u = spare_unknown(T, S, g)
    if u >= 0 and S.swap_left[g] > 0:
        spots = unknown_spots(T, S, g, u, near_us(T, S, g))
        swap_reach(T, S, g, S.sel_hex[g], hexes)
        for x in range(H):
            if hexes[x] and not spots[x]:
                hexes[x] = False
    m[H + END] = S.setup_k[g] > 0 or not hexes.any()
