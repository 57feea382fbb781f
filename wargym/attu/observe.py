"""What each player may see (2.5 fog of war), as planes over the hex map plus a global vector.

Spatial planes, float32[C, rows, columns] (hex h at plane_row[h], plane_col[h])::

    0-9    static: land, level/4, lake, dry river, slope art/6, cliffs/6, landing zone capacity/20,
           in or next to a landing zone, victory hex, zone cleared
    10-15  own steps by type /12: infantry, recon, engineer, depot, artillery, unknown
    16     own units that have acted this step        17  own units that declared melee
    18     own face-down units (Japan)                 19  own ZOC
    20-24  enemy steps by type /12 as seen: infantry, recon, engineer, depot, artillery
           (the U.S. sees Japanese types only of face-up units)
    25     enemy face-down units /6 (any type: the U.S. cannot tell Unknowns from Infantry)
    26     enemy melee dice as seen /20               27  enemy ZOC
    28     selected unit's hex   29  hex in question (slot, ranged target, swap)
    30     melee target hex      31  announced airpower targets   32  units taking the hits
    33     the viewer's Movement Point cost to the nearest Victory Hex (15.x: target hex) it does
           not hold /40, capped at 1 (movement.goal_distances: the map's costs, no units)
    34     U.S. steps in each landing zone's staging box /20, on the zone's hex (9.2, 12.5)

Global vector, float32[G]: turn/25, weather one-hot (4), night, refit turn, phase one-hot, whether
the viewer decides now, airpower own/enemy, casualty track/30, refit steps, hits waiting, heroes
used (3), zones cleared (6), Komandorski effect and turns left once revealed, U.S. reinforcements
waiting, Japanese units eliminated; and for Japan only: the off-map Infantry pool, Unknowns off
map, the Komandorski chits, the victory point chits.

Hidden from the U.S. (never read when viewer is the U.S.): face-down unit types and ratings, the
Unknown tables, the Japanese pool, the Komandorski chits before their reveal, the victory chits.
"""

import numpy as np
from numba import njit

from wargym.attu.board import hex_side, side_of, zoc_of
from wargym.attu.fog import hidden_from
from wargym.attu.scenario import JAPAN, UNKNOWN, US
from wargym.attu.state import LOC_ELIM, LOC_MAP, LOC_RESERVE, LOC_STAGING, LOSS, OPT_KOMANDORSKI, PHASE_NAMES

N_STATIC = 10
N_PLANES = 35
GOAL_SCALE = 40.0
N_PHASES = len(PHASE_NAMES)
N_GLOBAL = 1 + 4 + 2 + N_PHASES + 1 + 2 + 3 + 3 + 6 + 2 + 1 + 1 + 2 + 14


def static_planes(sc) -> np.ndarray:
    grid = sc.grid
    planes = np.zeros((N_STATIC, grid.rows, grid.columns), dtype=np.float32)
    r, c = grid.plane_row, grid.plane_col
    planes[0, r, c] = sc.land
    planes[1, r, c] = sc.level / 4.0
    planes[2, r, c] = sc.lake
    planes[3, r, c] = sc.river.any(axis=1)
    planes[4, r, c] = sc.slope.sum(axis=1) / 6.0
    planes[5, r, c] = sc.cliff.sum(axis=1) / 6.0
    for k, h in enumerate(sc.lz_hex):
        if h >= 0:
            planes[6, r[h], c[h]] = sc.lz_capacity[k] / 20.0
    planes[7, r, c] = sc.near_lz
    for h in sc.victory_hex:
        if sc.land[h]:
            planes[8, r[h], c[h]] = 1.0
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
                    spatial[9, prow[h], pcol[h]] = 1.0
    for u in range(U):
        if S.unit_loc[g, u] == LOC_STAGING and S.unit_hex[g, u] >= 0 and T.lz_hex[S.unit_hex[g, u]] >= 0:
            h = T.lz_hex[S.unit_hex[g, u]]
            spatial[34, prow[h], pcol[h]] += S.unit_steps[g, u] / 20.0
        if S.unit_loc[g, u] != LOC_MAP:
            continue
        h = S.unit_hex[g, u]
        r, c = prow[h], pcol[h]
        side = side_of(T, S, g, u)
        t = T.u_type[u]
        k = S.unit_steps[g, u]
        if side == viewer:
            spatial[10 + min(t, 5), r, c] += k / 12.0 if t != UNKNOWN else 1.0 / 6.0
            if S.acted[g, u]:
                spatial[16, r, c] = 1.0
            if S.melee_target[g, u] >= 0:
                spatial[17, r, c] = 1.0
            if S.face_down[g, u]:
                spatial[18, r, c] += 1.0 / 6.0
        else:
            if hidden_from(T, S, g, u, viewer):
                spatial[25, r, c] += 1.0 / 6.0
            else:
                if t != UNKNOWN:
                    spatial[20 + min(t, 4), r, c] += k / 12.0
                if k > 0:
                    spatial[26, r, c] += T.u_melee[u, k - 1] / 20.0
        if S.loss_pool[g, u] and S.phase[g] == LOSS:
            spatial[32, r, c] = 1.0
    own_z = zoc_of(T, S, g, viewer)
    en_z = zoc_of(T, S, g, enemy)
    for h in range(T.nbr.shape[0]):
        if own_z[h]:
            spatial[19, prow[h], pcol[h]] = 1.0
        if en_z[h]:
            spatial[27, prow[h], pcol[h]] = 1.0
    sel = S.selected[g]
    if sel >= 0 and S.unit_loc[g, sel] == LOC_MAP:
        spatial[28, prow[S.unit_hex[g, sel]], pcol[S.unit_hex[g, sel]]] = 1.0
    if S.sel_hex[g] >= 0:
        spatial[29, prow[S.sel_hex[g]], pcol[S.sel_hex[g]]] = 1.0
    if S.mel_hex[g] >= 0:
        spatial[30, prow[S.mel_hex[g]], pcol[S.mel_hex[g]]] = 1.0
    for i in range(S.air_n[g]):
        h = S.air_target[g, i]
        if h >= 0:
            spatial[31, prow[h], pcol[h]] = 1.0
    for h in range(T.nbr.shape[0]):
        spatial[33, prow[h], pcol[h]] = 1.0
    for k in range(T.target_hex.shape[0]):
        if hex_side(T, S, g, T.target_hex[k]) == viewer:
            continue
        for h in range(T.nbr.shape[0]):
            d = min(goals[viewer, k, h] / GOAL_SCALE, 1.0)
            if d < spatial[33, prow[h], pcol[h]]:
                spatial[33, prow[h], pcol[h]] = d
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
    for k in range(3):
        glob[i + k] = S.heroes_used[g, k]
    i += 3
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
    glob[i] = jp_elim / 64.0
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
