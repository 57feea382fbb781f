"""Victory (3.8), Victory Zones (10.0), game length (12.1) and victory point chits (14.0).

* 3.8.1, Step 8: the U.S. wins holding all six Victory Hexes (15.x: the scenario's target hexes);
  Japan wins holding Landing Zones D, E, F and G, or with a Japanese (or captured) gun on 2717
  whose range reaches all four.
* 3.8.2, at any moment: the U.S. wins when every Japanese Infantry and Artillery unit is
  eliminated (Unknowns do not count; 13.6: not in solitaire play); Japan wins when the Casualty
  Track reaches 30.
* 3.8.3: Japan wins if the U.S. has not won by the end of the last turn.
* 14.0 (option): the chits decide instead, at the end of the game.  Interpretation: 3.8.2 still
  ends the game at once, and the chits are then scored as at any other end.
"""

import numpy as np

from wargym.attu.board import hex_side, side_of
from wargym.attu.events import (
    ELIMINATED, GAME_OVER, OFF_MAP, R_ALL_ELIMINATED, R_ALL_VICTORY_HEXES, R_BEACHES, R_CASUALTIES, R_ELIMINATED,
    R_LAST_TURN, R_VICTORY_POINTS, VICTORY_HEX, VICTORY_POINTS, ZONE_CLEARED, ZONE_MARKER_REMOVED,
)
from wargym.attu.scenario import (
    ARTILLERY, ATTU_VILLAGE_ZONE, D_TO_G, ENGINEER_HILL_ZONE, INFANTRY, JAPAN, SECURED_ZONES, TURN_0_DATE, UNKNOWN,
    US,
)
from wargym.attu.state import (
    LOC_ELIM, LOC_MAP, LOC_RESERVE, OPT_SOLITAIRE, OPT_VP_CHITS, OVER,
)
from wargym.events import emit
from wargym.jit import njit


@njit(cache=True)
def finish(S, g, winner, how):
    """The game is over: ``winner`` has won, ``how`` (an R_* of events.py: the way of 3.8 or 14.0)."""
    emit(S, g, GAME_OVER, winner, how)
    S.terminated[g] = True
    S.phase[g] = OVER
    S.rewards[g, winner] = 1.0
    S.rewards[g, 1 - winner] = -1.0
    S.legal_action_mask[g, :] = False


@njit(cache=True)
def japanese_fighting_units_left(T, S, g):
    """3.8.2: Japanese Infantry and Artillery not eliminated, on the map or off it."""
    n = 0
    for u in range(T.u_side.shape[0]):
        if T.u_side[u] == JAPAN and T.u_type[u] != UNKNOWN and T.u_in_play[u]:
            if S.unit_loc[g, u] == LOC_MAP or S.unit_loc[g, u] == LOC_RESERVE:
                n += 1
        elif S.captured[g, u] and S.unit_loc[g, u] == LOC_MAP:
            n += 1
    return n


@njit(cache=True)
def vp_total(T, S, g):
    """14.0: U.S. victory points for the Victory Hexes it holds now."""
    total = 0
    for z in range(6):
        if hex_side(T, S, g, T.victory_hex[z]) != US:
            continue
        if S.vp_cancel[g, z] == -1:
            continue
        total += max(S.vp_cancel[g, z], 0) + max(S.vp_value[g, z], 0)
        if z == ATTU_VILLAGE_ZONE:
            total += 4
    return total


@njit(cache=True)
def end_by_chits(T, S, g):
    """14.0: the game is over; score the chits."""
    vp = vp_total(T, S, g)
    date = TURN_0_DATE + S.turn[g]
    if date < 27:
        vp += 1
    elif date > 30:
        vp -= 1
    emit(S, g, VICTORY_POINTS, vp)
    finish(S, g, US if vp >= 7 else JAPAN, R_VICTORY_POINTS)


@njit(cache=True)
def check_immediate(T, S, g):
    """3.8.2, checked whenever units are lost."""
    if S.terminated[g]:
        return
    if S.casualties[g] >= T.casualty_max:
        if T.opts[OPT_VP_CHITS]:
            end_by_chits(T, S, g)
        else:
            finish(S, g, JAPAN, R_CASUALTIES)
        return
    if japanese_fighting_units_left(T, S, g) == 0 and not T.opts[OPT_SOLITAIRE]:
        if T.opts[OPT_VP_CHITS]:
            end_by_chits(T, S, g)
        else:
            finish(S, g, US, R_ALL_ELIMINATED)


@njit(cache=True)
def japanese_hold_beaches(T, S, g):
    """3.8.1 for Japan: D, E, F, G all occupied, or a gun on 2717 reaching them all."""
    all_held = True
    any_zone = False
    for k in D_TO_G:
        h = T.lz_hex[k]
        if h < 0:
            continue
        any_zone = True
        if hex_side(T, S, g, h) != JAPAN:
            all_held = False
    if any_zone and all_held:
        return True
    eh = T.victory_hex[ENGINEER_HILL_ZONE]
    if T.zone[eh] < 0 or not any_zone:
        return False
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == eh and side_of(T, S, g, u) == JAPAN \
                and T.u_type[u] == ARTILLERY:
            ok = True
            for k in D_TO_G:
                h = T.lz_hex[k]
                if h >= 0 and T.dist[eh, h] > T.u_range[u]:
                    ok = False
            if ok:
                return True
    return False


@njit(cache=True)
def targets_held(T, S, g):
    """How many Victory Hexes (15.x: target hexes) the U.S. holds."""
    n = 0
    for i in range(T.target_hex.shape[0]):
        if hex_side(T, S, g, T.target_hex[i]) == US:
            n += 1
    return n


@njit(cache=True)
def step8(T, S, g):
    """3.8.1 at Step 8 (the chit option scores only at the end of the game)."""
    if S.terminated[g] or T.opts[OPT_VP_CHITS]:
        return
    if targets_held(T, S, g) == T.target_hex.shape[0]:
        finish(S, g, US, R_ALL_VICTORY_HEXES)
        return
    if japanese_hold_beaches(T, S, g):  # 15.0 "all of the standard rules": where D-G are in play too
        finish(S, g, JAPAN, R_BEACHES)


@njit(cache=True)
def end_of_turn(T, S, g):
    """3.8.3: after the last turn the Japanese win unless the U.S. has won (14.0: chits)."""
    if S.terminated[g]:
        return
    if S.last_turn[g] >= 0 and S.turn[g] >= S.last_turn[g]:
        if T.opts[OPT_VP_CHITS]:
            end_by_chits(T, S, g)
        else:
            finish(S, g, JAPAN, R_LAST_TURN)


@njit(cache=True)
def standing_batch(T, S, out):
    """The U.S. standing for shaped rewards (not a rule of the book; 3.8's paths in numbers):
    Victory Hexes (15.x: target hexes) the U.S. holds, plus a tenth per Japanese counter taken off
    the map (3.8.2's path; the count the U.S. sees, ``jp_removed``: which counters were Infantry is
    hidden, 2.5/8.5), minus a tenth per box of the Casualty Track (8.4)."""
    for g in range(S.phase.shape[0]):
        out[g] = targets_held(T, S, g) + 0.1 * S.jp_removed[g] - 0.1 * S.casualties[g]


@njit(cache=True)
def victory_hex_holders(T, S, g, held):
    """``held[z]``: the side occupying Victory Hex z (3.8.1), -1 nobody (a hex outside the
    scenario's play area, 15.x, is nobody's)."""
    held[:] = -1
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP:
            h = S.unit_hex[g, u]
            z = T.zone[h]
            if z >= 0 and h == T.victory_hex[z]:
                held[z] = side_of(T, S, g, u)


@njit(cache=True)
def note_victory_hexes(T, S, g, before):
    """The event log's 3.8.1: each Victory Hex whose occupier is not the one of ``before`` (its
    ``victory_hex_holders`` when the decision began) has changed hands.  Not once the game is
    over: its last event is the result."""
    if S.terminated[g]:
        return
    held = np.empty(6, dtype=np.int8)
    victory_hex_holders(T, S, g, held)
    for z in range(6):
        if held[z] != before[z]:
            emit(S, g, VICTORY_HEX, T.victory_hex[z], held[z])


@njit(cache=True)
def update_zones(T, S, g):
    """10.0: a zone is cleared the moment a U.S. unit holds its Victory Hex and no non-Unknown
    Japanese unit is in the zone (its Unknowns go off-map); the marker goes when a Japanese
    non-Unknown Infantry unit enters the Victory Hex.  Attu Village is never cleared.  15.3: the
    force areas are secured when their target hex is held."""
    jp_in_zone = np.zeros(6, dtype=np.bool_)
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and side_of(T, S, g, u) == JAPAN and \
                (T.u_type[u] != UNKNOWN or S.captured[g, u]):
            z = T.zone[S.unit_hex[g, u]]
            if z >= 0:
                jp_in_zone[z] = True
                if S.unit_hex[g, u] == T.victory_hex[z] and T.u_type[u] == INFANTRY and S.zone_cleared[g, z]:
                    S.zone_cleared[g, z] = False
                    emit(S, g, ZONE_MARKER_REMOVED, T.victory_hex[z])
    for z in range(6):
        if z == ATTU_VILLAGE_ZONE or not T.zone_area[z] or S.zone_cleared[g, z]:
            continue
        if hex_side(T, S, g, T.victory_hex[z]) == US and not jp_in_zone[z]:
            S.zone_cleared[g, z] = True
            gone = 0
            for u in range(T.u_side.shape[0]):
                if S.unit_loc[g, u] == LOC_MAP and T.u_type[u] == UNKNOWN and not S.captured[g, u] \
                        and T.zone[S.unit_hex[g, u]] == z:
                    S.unit_loc[g, u] = LOC_RESERVE
                    S.unit_hex[g, u] = -1
                    gone += 1
            emit(S, g, ZONE_CLEARED, T.victory_hex[z], gone)
    for f in range(len(SECURED_ZONES)):
        if hex_side(T, S, g, T.victory_hex[SECURED_ZONES[f]]) == US:
            S.secured[g, f] = True


@njit(cache=True)
def eliminate(T, S, g, u):
    """Unit u is eliminated (a Japanese counter on the map: one more the U.S. sees taken off it,
    2.5)."""
    if T.u_side[u] == JAPAN:
        if S.unit_loc[g, u] == LOC_MAP:
            S.jp_removed[g] += 1
            emit(S, g, OFF_MAP, u, S.unit_hex[g, u], R_ELIMINATED)
    else:
        emit(S, g, ELIMINATED, u, S.unit_hex[g, u])
    S.unit_loc[g, u] = LOC_ELIM
    S.unit_hex[g, u] = -1
    S.unit_steps[g, u] = 0
    S.melee_target[g, u] = -1
    S.ad_hoc[g, u] = False
