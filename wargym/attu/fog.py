"""Fog of war (2.5, 3.9, 9.5): Unknown units revealed into Infantry, and hiding.

* 2.5: when Unknowns fire, melee or are attacked in melee, every Unknown in the hex is removed and
  one die is rolled on one table for the lot, giving 1-3 Infantry drawn at random from the off-map
  pool, placed face-up.  The Japanese choice of table is made by the default: the table with the
  most Infantry on average (interpretation: the choice comes before the roll, so that is the best).
  Fewer units come when the pool or the stacking limit (4.2) runs short.
* 13.2 (solitaire): an Unknown on a Victory Hex gives three Infantry without a roll, drawing from
  the eliminated units when the pool has fewer than three.
* 15.1/15.2: in the short scenarios a revealed Unknown is eliminated instead of going off-map.
* 3.9 / 9.5: the Japanese flip units back to their hidden side; the flip can only help them, so
  it is always taken (interpretation: no decision is asked).
"""

import numpy as np
from numba import njit

from wargym.attu.board import roll, side_of
from wargym.attu.scenario import INFANTRY, JAPAN, UNKNOWN, US
from wargym.attu.state import LOC_ELIM, LOC_MAP, LOC_RESERVE, OPT_SOLITAIRE, OPT_UNKNOWNS_SINGLE_USE
from wargym.rng import draw


@njit(cache=True)
def pool_draw(T, S, g, loc):
    """A Japanese Infantry unit drawn at random from those at ``loc`` (the off-map pool, or the
    eliminated units for 13.2), or -1."""
    n = 0
    for u in range(T.u_side.shape[0]):
        if T.u_side[u] == JAPAN and T.u_type[u] == INFANTRY and S.unit_loc[g, u] == loc:
            n += 1
    if n == 0:
        return -1
    k = draw(S.rng_key, S.rng_counter, g, n) - 1
    for u in range(T.u_side.shape[0]):
        if T.u_side[u] == JAPAN and T.u_type[u] == INFANTRY and S.unit_loc[g, u] == loc:
            if k == 0:
                return u
            k -= 1
    return -1


@njit(cache=True)
def place_engaged(S, g, u, h):
    """Infantry u from the cup into hex h face-up, as units that appear in a fight do (2.5, 13.3)."""
    S.unit_loc[g, u] = LOC_MAP
    S.unit_hex[g, u] = h
    S.unit_steps[g, u] = 1
    S.face_down[g, u] = False
    S.acted[g, u] = True


@njit(cache=True)
def reveal_unknowns(T, S, g, h, attacker_marks):
    """2.5: replace every Unknown in hex h by Infantry; returns how many Infantry appeared.  When
    ``attacker_marks`` is set the new units take over the Unknowns' melee declaration."""
    target = -1
    found = False
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == h and T.u_type[u] == UNKNOWN \
                and not S.captured[g, u]:
            found = True
            target = S.melee_target[g, u]
    if not found:
        return 0
    best, best_sum = 0, -1
    for u in range(T.u_side.shape[0]):
        if T.u_type[u] == UNKNOWN and S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == h:
            s = 0
            for i in range(10):
                s += T.u_table[u, i]
            if s > best_sum:
                best, best_sum = u, s
    victory_hex = False
    for z in range(6):
        if T.victory_hex[z] == h:
            victory_hex = True
    if T.opts[OPT_SOLITAIRE] and victory_hex:
        count = 3  # 13.2
    else:
        count = T.u_table[best, roll(S, g) - 1]
    for u in range(T.u_side.shape[0]):
        if T.u_type[u] == UNKNOWN and S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == h:
            S.unit_loc[g, u] = LOC_ELIM if T.opts[OPT_UNKNOWNS_SINGLE_USE] else LOC_RESERVE
            S.pinned[g, u] = False
            S.unit_hex[g, u] = -1
            S.melee_target[g, u] = -1
    room = 3
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == h and side_of(T, S, g, u) == JAPAN:
            room -= 1
    placed = 0
    for _ in range(min(count, room)):
        v = pool_draw(T, S, g, LOC_RESERVE)
        if v < 0 and T.opts[OPT_SOLITAIRE] and victory_hex:
            v = pool_draw(T, S, g, LOC_ELIM)
        if v < 0:
            break
        place_engaged(S, g, v, h)
        S.melee_target[g, v] = target if attacker_marks else -1
        placed += 1
    return placed


@njit(cache=True)
def hide_units(T, S, g, refit_turn):
    """Flip Japanese units to their hidden side: at 3.9 those not in a U.S. ZOC; in a Refit Turn
    (9.5) those not adjacent to U.S. units nor in or adjacent to a Landing Zone."""
    H = T.nbr.shape[0]
    watched = np.zeros(H, dtype=np.bool_)
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and side_of(T, S, g, u) == US:
            h = S.unit_hex[g, u]
            watched[h] = True
            for d in range(6):
                n = T.nbr[h, d]
                if n >= 0 and (refit_turn or T.zoc_reach[h, d]):
                    watched[n] = True
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and side_of(T, S, g, u) == JAPAN and not S.captured[g, u]:
            h = S.unit_hex[g, u]
            if not watched[h] and not (refit_turn and T.near_lz[h]):
                S.face_down[g, u] = True
