"""The Japanese forces' bookkeeping shared by the fire phase, the events and combat: depth markers
(9.2), reserves (9.3), tactical reinforcements (9.4), leaving counterattack stance (13.47)."""

import numpy as np

from wargym.events import emit
from wargym.jit import njit
from wargym.peleliu import eventlog as ev
from wargym.peleliu.board import (
    draw_reserve, empty_position, give_depth, jp_communication, nearest_beach, nearest_us, place_jp, unit_at,
)
from wargym.peleliu.state import DM_OUT, JP_MAP, OPT_BNR


@njit(cache=True)
def night(T, S, g):
    """The overnight turn 13 of the invasion (16.0); BNR's night turns are 18.21's."""
    return S.turn[g] == 13 and not T.opts[OPT_BNR]


@njit(cache=True)
def fires_on_beach(T, S, g, h):
    p = T.hex_pos[h]
    return p >= 0 and not T.pos_prov[p] and T.pos_beachfire[p]


@njit(cache=True)
def leave_ca(T, S, g, j):
    """13.47: the counterattack marker leaves play; a non-tank unit whose marker still showed its
    depth side gets a normal depth marker face down."""
    ca = S.jp_ca[g, j]
    if ca < 0:
        return
    emit(S, g, ev.CA_LEAVES, j, S.jp_hex[g, j])
    had_depth = S.dm_rev[g, ca]
    S.dm_loc[g, ca] = DM_OUT
    S.jp_ca[g, j] = -1
    if had_depth and not T.jp_tank[j]:
        give_depth(T, S, g, j, False)


@njit(cache=True)
def depth_event(T, S, g, count):
    """9.2: depth markers to units without one (not tanks, not counterattack units, in
    communication): closest to a U.S. unit, then next to a landing beach hex, then the lowest
    position number, then letter."""
    comm = np.empty(T.pos_hex.shape[0], np.bool_)
    jp_communication(T, S, g, night(T, S, g), comm)
    for _ in range(count):
        best, bk = -1, 0
        for j in range(S.jp_loc.shape[1]):
            if S.jp_loc[g, j] != JP_MAP or S.jp_depth[g, j] >= 0 or T.jp_tank[j] or S.jp_ca[g, j] >= 0:
                continue
            h = S.jp_hex[g, j]
            if T.jp_fort[j] and unit_at(T, S, g, h) >= 0:
                continue  # BNR: the position's unit holds its depth marker (18.31)
            p = T.hex_pos[h]
            if p < 0 or not comm[p]:
                continue
            near_beach = nearest_beach(T, h) <= 1
            key = nearest_us(T, S, g, h) * 1000000 + (0 if near_beach else 1) * 100000 + T.pos_num[p] * 10 + T.pos_zone[p]
            if best < 0 or key < bk:
                best, bk = j, key
        if best < 0:
            return
        if not give_depth(T, S, g, best, False):
            return


@njit(cache=True)
def reinforcement(T, S, g, count):
    """9.3: reserve units with a depth marker into empty positions in communication: adjacent to a
    U.S. unit, then within two hexes, then the lowest number, then letter."""
    comm = np.empty(T.pos_hex.shape[0], np.bool_)
    jp_communication(T, S, g, night(T, S, g), comm)
    for _ in range(count):
        best, bk = -1, 0
        for p in range(T.pos_hex.shape[0]):
            if T.pos_prov[p] or not comm[p]:
                continue
            x = T.pos_hex[p]
            if not empty_position(T, S, g, p):
                continue
            d = nearest_us(T, S, g, x)
            cls = 0 if d <= 1 else (1 if d <= 2 else 2)
            key = cls * 100000 + T.pos_num[p] * 10 + T.pos_zone[p]
            if best < 0 or key < bk:
                best, bk = p, key
        if best < 0:
            return
        j = draw_reserve(T, S, g)
        if j < 0:
            return
        place_jp(T, S, g, j, T.pos_hex[best], False)
        emit(S, g, ev.JP_ENTERS, j, T.pos_hex[best], ev.BY_EVENT)
        give_depth(T, S, g, j, False)


@njit(cache=True)
def tactical_reinforcement(T, S, g, h, revealed):
    """9.4: a reserve unit into the empty position hex nearest to h (then closest to a U.S. unit,
    then the lowest number, then letter)."""
    best, bk = -1, 0
    for p in range(T.pos_hex.shape[0]):
        if T.pos_prov[p]:
            continue
        x = T.pos_hex[p]
        if not empty_position(T, S, g, p):
            continue
        key = T.dist[h, x] * 10000000 + nearest_us(T, S, g, x) * 1000 + T.pos_num[p] * 10 + T.pos_zone[p]
        if best < 0 or key < bk:
            best, bk = p, key
    if best < 0:
        return
    j = draw_reserve(T, S, g)
    if j < 0:
        return
    place_jp(T, S, g, j, T.pos_hex[best], revealed)
    emit(S, g, ev.JP_ENTERS, j, T.pos_hex[best], ev.BY_TACTICAL)


@njit(cache=True)
def reveal_depth_marker(T, S, g, j):
    """reveal_depth_marker_as with the reinforcement face down (9.4)."""
    reveal_depth_marker_as(T, S, g, j, False)


@njit(cache=True)
def reveal_depth_marker_as(T, S, g, j, face_up):
    """9.1: reveal unit j's depth marker; a Tactical Reinforcement (9.4) leaves play and brings a
    reserve unit (placed at once, face up when ``face_up``: US Patrol Report; or after a close
    combat: cc_tr)."""
    d = S.jp_depth[g, j]
    if d < 0:
        return
    if not S.dm_rev[g, d]:
        emit(S, g, ev.DEPTH_REVEALED, d, j, S.jp_hex[g, j])
    S.dm_rev[g, d] = True
    if T.dm_tr[d]:
        S.dm_loc[g, d] = DM_OUT
        S.jp_depth[g, j] = -1
        if S.cc_hex[g] >= 0:
            S.cc_tr[g] += 1  # each one placed after the combat (9.4)
        else:
            tactical_reinforcement(T, S, g, S.jp_hex[g, j], face_up)
