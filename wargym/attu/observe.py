"""What each player may see (2.5 fog of war), as planes over the hex map plus a global vector.

Spatial planes, float32[C, rows, columns] (hex h at plane_row[h], plane_col[h]), named by the
module's constants::

    0      P_LAND              land in play
    1      P_LEVEL             level /4
    2      P_LAKE              lake
    3      P_RIVER             dry river
    4      P_SLOPE             slope art /6
    5      P_CLIFF             cliffs /6
    6      P_LZ_CAPACITY       landing zone capacity /20
    7      P_NEAR_LZ           in or next to a landing zone
    8      P_VICTORY_HEX       victory hex
    9      P_CLEARED           zone cleared (10.0)
    10-15  P_OWN_STEPS + type  own steps by type /12, in UNIT_TYPES order: infantry, recon,
                               engineer, depot, unknown (1/6 a counter), artillery
    16     P_OWN_ACTED         own units that have acted this step
    17     P_OWN_DECLARED      own units that declared melee
    18     P_OWN_FACE_DOWN     own face-down units /6 (Japan)
    19     P_OWN_ZOC           own ZOC
    20-24  P_ENEMY_STEPS + type  enemy steps by type /12 as seen: infantry, recon, engineer, depot,
                               artillery (the U.S. sees Japanese types only of face-up units)
    25     P_ENEMY_FACE_DOWN   enemy face-down units /6 (any type: the U.S. cannot tell Unknowns
                               from Infantry)
    26     P_ENEMY_MELEE       enemy melee dice as seen /20
    27     P_ENEMY_ZOC         enemy ZOC
    28     P_SELECTED          selected unit's hex
    29     P_ASKED             hex in question (slot, ranged target, swap)
    30     P_MELEE_HEX         melee target hex
    31     P_AIR_TARGETS       announced airpower targets
    32     P_LOSS_POOL         units taking the hits
    33     P_GOAL              the viewer's Movement Point cost to the nearest Victory Hex (15.x:
                               target hex) it does not hold /40, capped at 1
                               (movement.goal_distances: the map's costs, no units)
    34     P_STAGING           U.S. steps in each landing zone's staging box /20, on the zone's
                               hex (9.2, 12.5)

Global vector, float32[G]: turn/25, weather one-hot (4), night, refit turn, phase one-hot, whether
the viewer decides now, airpower own/enemy, casualty track/30, refit steps, hits waiting, heroes
used (3), zones cleared (6), Komandorski effect and turns left once revealed, U.S. reinforcements
waiting, Japanese units eliminated (for the U.S.: Japanese counters taken off the map, eliminated
or melted away alike, 8.5); and for Japan only: the off-map Infantry pool, Unknowns off
map, the Komandorski chits, the victory point chits.

Hidden from the U.S. (never read when viewer is the U.S.): face-down unit types and ratings, the
Unknown tables, the Japanese pool, the Komandorski chits before their reveal, the victory chits.
"""

import numpy as np

from wargym.attu.board import hex_side, side_of, zoc_of
from wargym.attu.fog import hidden_from
from wargym.attu.scenario import JAPAN, UNKNOWN, US
from wargym.attu.state import (
    HEROES, LOC_ELIM, LOC_MAP, LOC_RESERVE, LOC_STAGING, LOSS, OPT_KOMANDORSKI, PHASE_NAMES,
)
from wargym.jit import njit

# the spatial planes (the table above)
P_LAND, P_LEVEL, P_LAKE, P_RIVER, P_SLOPE, P_CLIFF, P_LZ_CAPACITY, P_NEAR_LZ, P_VICTORY_HEX, P_CLEARED = range(10)
P_OWN_STEPS = 10     # + the unit type: 10-15
P_OWN_ACTED, P_OWN_DECLARED, P_OWN_FACE_DOWN, P_OWN_ZOC = range(16, 20)
P_ENEMY_STEPS = 20   # + the unit type, artillery in the Unknown's place: 20-24
(P_ENEMY_FACE_DOWN, P_ENEMY_MELEE, P_ENEMY_ZOC, P_SELECTED, P_ASKED, P_MELEE_HEX, P_AIR_TARGETS, P_LOSS_POOL,
 P_GOAL, P_STAGING) = range(25, 35)
N_PLANES = P_STAGING + 1
N_STATIC = P_CLEARED + 1  # the planes core.py copies from static_planes (P_CLEARED is filled per game)
GOAL_SCALE = 40.0
N_PHASES = len(PHASE_NAMES)
N_GLOBAL = 1 + 4 + 2 + N_PHASES + 1 + 2 + 3 + HEROES + 6 + 2 + 1 + 1 + 2 + 14


def static_planes(sc) -> np.ndarray:
    grid = sc.grid
    planes = np.zeros((N_STATIC, grid.rows, grid.columns), dtype=np.float32)
    r, c = grid.plane_row, grid.plane_col
    planes[P_LAND, r, c] = sc.land
    planes[P_LEVEL, r, c] = sc.level / 4.0
    planes[P_LAKE, r, c] = sc.lake
    planes[P_RIVER, r, c] = sc.river.any(axis=1)
    planes[P_SLOPE, r, c] = sc.slope.sum(axis=1) / 6.0
    planes[P_CLIFF, r, c] = sc.cliff.sum(axis=1) / 6.0
    for k, h in enumerate(sc.lz_hex):
        if h >= 0:
            planes[P_LZ_CAPACITY, r[h], c[h]] = sc.lz_capacity[k] / 20.0
    planes[P_NEAR_LZ, r, c] = sc.near_lz
    for h in sc.victory_hex:
        if sc.land[h]:
            planes[P_VICTORY_HEX, r[h], c[h]] = 1.0
    return planes


@njit(cache=True)
def observe_game(T, S, g, viewer, prow, pcol, goals, spatial, glob):
    """``goals``: int32[2, K, H], ``movement.goal_distances`` of each side."""
    U = T.u_side.shape[0]
    enemy = 1 - viewer
    for z in range(6):
        if S.zone_cleared[g, z]:
            for h in range(T.nbr.shape[0]):
                if T.zone[h] == z:
                    spatial[P_CLEARED, prow[h], pcol[h]] = 1.0
    for u in range(U):
        if S.unit_loc[g, u] == LOC_STAGING and S.unit_hex[g, u] >= 0 and T.lz_hex[S.unit_hex[g, u]] >= 0:
            h = T.lz_hex[S.unit_hex[g, u]]
            spatial[P_STAGING, prow[h], pcol[h]] += S.unit_steps[g, u] / 20.0
        if S.unit_loc[g, u] != LOC_MAP:
            continue
        h = S.unit_hex[g, u]
        r, c = prow[h], pcol[h]
        side = side_of(T, S, g, u)
        t = T.u_type[u]
        k = S.unit_steps[g, u]
        if side == viewer:
            spatial[P_OWN_STEPS + t, r, c] += k / 12.0 if t != UNKNOWN else 1.0 / 6.0
            if S.acted[g, u]:
                spatial[P_OWN_ACTED, r, c] = 1.0
            if S.melee_target[g, u] >= 0:
                spatial[P_OWN_DECLARED, r, c] = 1.0
            if S.face_down[g, u]:
                spatial[P_OWN_FACE_DOWN, r, c] += 1.0 / 6.0
        else:
            if hidden_from(T, S, g, u, viewer):
                spatial[P_ENEMY_FACE_DOWN, r, c] += 1.0 / 6.0
            else:
                if t != UNKNOWN:
                    spatial[P_ENEMY_STEPS + min(t, UNKNOWN), r, c] += k / 12.0  # artillery in the Unknown's place
                if k > 0:
                    spatial[P_ENEMY_MELEE, r, c] += T.u_melee[u, k - 1] / 20.0
        if S.loss_pool[g, u] and S.phase[g] == LOSS:
            spatial[P_LOSS_POOL, r, c] = 1.0
    own_z = zoc_of(T, S, g, viewer)
    en_z = zoc_of(T, S, g, enemy)
    for h in range(T.nbr.shape[0]):
        if own_z[h]:
            spatial[P_OWN_ZOC, prow[h], pcol[h]] = 1.0
        if en_z[h]:
            spatial[P_ENEMY_ZOC, prow[h], pcol[h]] = 1.0
    sel = S.selected[g]
    if sel >= 0 and S.unit_loc[g, sel] == LOC_MAP:
        spatial[P_SELECTED, prow[S.unit_hex[g, sel]], pcol[S.unit_hex[g, sel]]] = 1.0
    if S.sel_hex[g] >= 0:
        spatial[P_ASKED, prow[S.sel_hex[g]], pcol[S.sel_hex[g]]] = 1.0
    if S.mel_hex[g] >= 0:
        spatial[P_MELEE_HEX, prow[S.mel_hex[g]], pcol[S.mel_hex[g]]] = 1.0
    for i in range(S.air_n[g]):
        h = S.air_target[g, i]
        if h >= 0:
            spatial[P_AIR_TARGETS, prow[h], pcol[h]] = 1.0
    for h in range(T.nbr.shape[0]):
        spatial[P_GOAL, prow[h], pcol[h]] = 1.0
    for k in range(T.target_hex.shape[0]):
        if hex_side(T, S, g, T.target_hex[k]) == viewer:
            continue
        for h in range(T.nbr.shape[0]):
            d = min(goals[viewer, k, h] / GOAL_SCALE, 1.0)
            if d < spatial[P_GOAL, prow[h], pcol[h]]:
                spatial[P_GOAL, prow[h], pcol[h]] = d
    # global
    i = 0
    glob[i] = S.turn[g] / 25.0
    i += 1
    glob[i + S.weather[g]] = 1.0
    i += 4
    glob[i] = S.night[g]
    glob[i + 1] = S.refit[g]
    i += 2
    glob[i + S.phase[g]] = 1.0
    i += N_PHASES
    glob[i] = S.current_player[g] == viewer
    i += 1
    glob[i] = S.airpower[g, viewer] / 5.0
    glob[i + 1] = S.airpower[g, enemy] / 5.0
    i += 2
    glob[i] = S.casualties[g] / 30.0
    glob[i + 1] = S.refit_steps[g] / 10.0
    glob[i + 2] = S.loss_hits[g] / 10.0
    i += 3
    for k in range(HEROES):
        glob[i + k] = S.heroes_used[g, k]
    i += HEROES
    for z in range(6):
        glob[i + z] = S.zone_cleared[g, z]
    i += 6
    if S.ke_revealed[g] >= 1 or viewer == JAPAN:
        glob[i] = (S.ke_effect[g] - 24) / 6.0
    if S.last_turn[g] >= 0 and (S.ke_revealed[g] == 2 or viewer == JAPAN or T.opts[OPT_KOMANDORSKI] == 0):
        glob[i + 1] = (S.last_turn[g] - S.turn[g]) / 10.0
    elif viewer == JAPAN:
        glob[i + 1] = S.ke_delay[g] / 10.0
    i += 2
    waiting = 0
    jp_elim = 0
    pool = 0
    unknown_off = 0
    for u in range(U):
        if T.u_side[u] == US and S.unit_loc[g, u] == LOC_RESERVE:
            waiting += 1
        if T.u_side[u] == JAPAN and S.unit_loc[g, u] == LOC_ELIM:
            jp_elim += 1
        if T.u_side[u] == JAPAN and S.unit_loc[g, u] == LOC_RESERVE:
            if T.u_type[u] == UNKNOWN:
                unknown_off += 1
            else:
                pool += 1
    glob[i] = waiting / 30.0
    i += 1
    glob[i] = (jp_elim if viewer == JAPAN else S.jp_removed[g]) / 64.0  # 2.5: melted Unknowns look alike
    i += 1
    glob[i] = S.mel_round[g] / 10.0
    glob[i + 1] = S.act_step[g]
    i += 2
    if viewer == JAPAN:
        glob[i] = pool / 64.0
        glob[i + 1] = unknown_off / 16.0
        for z in range(6):
            glob[i + 2 + z] = max(S.vp_value[g, z], 0) / 3.0
            glob[i + 8 + z] = S.vp_cancel[g, z] == -1
    return i + 14


@njit(cache=True, nogil=True)
def observe_batch(T, S, lo, hi, viewer, prow, pcol, goals, spatial, glob):
    """The observations of games [lo, hi) for ``viewer`` (a chunk kernel: wargym.kernel)."""
    for g in range(lo, hi):
        observe_game(T, S, g, viewer, prow, pcol, goals, spatial[g], glob[g])
