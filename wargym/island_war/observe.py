"""What a player sees: spatial planes over the hex map plus a global vector.

Island War has no hidden information (all units are face up, 2.3), so both players see the same
facts; the encoding is from the viewer's side ("own" / "enemy").  Planes are C x rows x columns,
hex XXYY at [YY-1, XX-1]:

    plane                       value
    -------------------------   -------------------------------------------------------------
    0 .. T-1                    terrain one-hot (Terrain Key order)
    T+0 .. T+3                  hex has a road / trail / river / prohibited hexside
    T+4, T+5, T+6               objective: VP/10; controlled by me; by the enemy
    T+7 .. T+16                 own unit: attack, defense, move, barrage, FPF, range (/20),
                                artillery, armor, moved, attacked
    T+17 .. T+26                enemy unit: the same ten
    T+27, T+28                  enemy controlled hex; own controlled hex
    T+29 .. T+32                in the combat: attacker, defender, FPF, Path of Retreat hex
    T+33                        selected unit
    T+34                        legal hex actions of the viewer (0 when it is not its decision)
    T+35                        entry hexes of the viewer's reinforcements available now

Global vector::

    0        turn / game turns           1..10   phase one-hot (PHASE_NAMES order)
    11       viewer is phasing           12      viewer decides now
    13, 14   viewer is US / Japan        15      second Player-Turn
    16, 17   own / enemy GS points /20   18, 19  attack / defense strength of the combat /50
    20       differential /20            21      banzai declared
    22       retreat hexes /3            23      reinforcements waiting for the viewer /10
    24, 25   own / enemy units on map /U 26      VP margin for the viewer /20
    27       last die /6                 28..35  last CRT result one-hot
"""

import numpy as np

from wargym.island_war.combat import attack_strength, defense_strength
from wargym.island_war.scenario import ARMOR, ARTILLERY, PROHIBITED, RIVER, ROAD, TRAIL
from wargym.island_war.sequence import decider
from wargym.island_war.state import MOVE_SELECT, ON_MAP, OVER, WAITING
from wargym.island_war.victory import margin
from wargym.jit import njit

N_FIXED_PLANES = 36
N_GLOBAL = 36


def num_planes(num_terrains: int) -> int:
    return num_terrains + N_FIXED_PLANES


@njit(cache=True)
def _unit_planes(T, S, g, u, out, base, r, c):
    out[base + 0, r, c] = T.u_attack[u] / 20.0
    out[base + 1, r, c] = T.u_defense[u] / 20.0
    out[base + 2, r, c] = T.u_move[u] / 20.0
    out[base + 3, r, c] = T.u_barrage[u] / 20.0
    out[base + 4, r, c] = T.u_fpf[u] / 20.0
    out[base + 5, r, c] = T.u_range[u] / 20.0
    out[base + 6, r, c] = 1.0 if T.u_type[u] == ARTILLERY else 0.0
    out[base + 7, r, c] = 1.0 if T.u_type[u] == ARMOR else 0.0
    out[base + 8, r, c] = 1.0 if S.moved[g, u] else 0.0
    out[base + 9, r, c] = 1.0 if S.attacked[g, u] else 0.0


def static_planes(scenario, n_terrain: int) -> np.ndarray:
    """The planes that never change in a scenario (terrain one-hot, hexside features), built once."""
    g = scenario.grid
    planes = np.zeros((n_terrain + 4, g.rows, g.columns), dtype=np.float32)
    r, c = g.plane_row, g.plane_col
    planes[scenario.hex_terrain, r, c] = 1.0
    sides = scenario.hexside
    passable = scenario.hex_move_cost > 0
    for i, bit in enumerate((ROAD, TRAIL, RIVER, PROHIBITED)):
        has = (sides & bit).any(axis=1)
        if bit == PROHIBITED:
            has &= passable
        planes[n_terrain + i, r, c] = has
    return planes


@njit(cache=True, nogil=True)
def encode(T, S, lo, hi, viewer, static, plane_row, plane_col, spatial, glob):
    """The observations of games [lo, hi) for ``viewer`` (a chunk kernel: wargym.kernel)."""
    H = T.nbr.shape[0]
    U = T.u_side.shape[0]
    n_static = static.shape[0]
    tb = n_static - 4
    for g in range(lo, hi):
        out = spatial[g]
        out[:n_static] = static
        out[n_static:] = 0.0
        gv = glob[g]
        gv[:] = 0.0
        for i in range(T.obj_hex.shape[0]):
            h = T.obj_hex[i]
            r, c = plane_row[h], plane_col[h]
            out[tb + 4, r, c] = T.obj_vp[i] / 10.0
            if S.objective_owner[g, i] == viewer:
                out[tb + 5, r, c] = 1.0
            elif S.objective_owner[g, i] >= 0:
                out[tb + 6, r, c] = 1.0
        n_own, n_enemy = 0, 0
        for u in range(U):
            if S.unit_status[g, u] != ON_MAP:
                continue
            h = S.unit_hex[g, u]
            r, c = plane_row[h], plane_col[h]
            own = T.u_side[u] == viewer
            _unit_planes(T, S, g, u, out, tb + (7 if own else 17), r, c)
            if own:
                n_own += 1
            else:
                n_enemy += 1
            for d in range(6):
                n = T.nbr[h, d]
                if n >= 0:
                    out[tb + (28 if own else 27), plane_row[n], plane_col[n]] = 1.0
            if S.cb_attacker[g, u]:
                out[tb + 29, r, c] = 1.0
            if S.cb_defender[g, u]:
                out[tb + 30, r, c] = 1.0
            if S.cb_fpf[g, u]:
                out[tb + 31, r, c] = 1.0
            if S.selected[g] == u:
                out[tb + 33, r, c] = 1.0
        for p in range(S.path_count[g]):
            for i in range(S.path_hex.shape[2]):
                h = S.path_hex[g, p, i]
                if h >= 0:
                    out[tb + 32, plane_row[h], plane_col[h]] = 1.0
        my_turn = S.phase[g] != OVER and decider(T, S, g) == viewer
        if my_turn:
            for h in range(H):
                if S.legal_action_mask[g, h]:
                    out[tb + 34, plane_row[h], plane_col[h]] = 1.0
        waiting = 0
        for u in range(U):
            if T.u_side[u] == viewer and S.unit_status[g, u] == WAITING and T.u_arrives[u] <= S.turn[g]:
                waiting += 1
                if S.phase[g] == MOVE_SELECT and S.phasing[g] == viewer:
                    for h in range(H):
                        if T.entry_hexes[T.u_entry[u], h]:
                            out[tb + 35, plane_row[h], plane_col[h]] = 1.0
        # global vector
        gv[0] = S.turn[g] / T.game_turns
        gv[1 + S.phase[g]] = 1.0
        gv[11] = 1.0 if S.phasing[g] == viewer else 0.0
        gv[12] = 1.0 if my_turn else 0.0
        gv[13 + viewer] = 1.0
        gv[15] = S.player_turn[g]
        gv[16] = S.gs_points[g, viewer] / 20.0
        gv[17] = S.gs_points[g, 1 - viewer] / 20.0
        att = attack_strength(T, S, g)
        dfn = defense_strength(T, S, g)
        gv[18] = att / 50.0
        gv[19] = dfn / 50.0
        gv[20] = (att - dfn) / 20.0
        gv[21] = 1.0 if S.cb_banzai[g] else 0.0
        gv[22] = S.rt_hexes[g] / 3.0
        gv[23] = waiting / 10.0
        gv[24] = n_own / U
        gv[25] = n_enemy / U
        mg = margin(T, S, g)
        gv[26] = (mg if viewer == 0 else -mg) / 20.0
        gv[27] = S.last_die[g] / 6.0
        if S.last_result[g] >= 0:
            gv[28 + S.last_result[g]] = 1.0

