"""Solitaire play (13.0): the mechanics that run the Japanese when ``solitaire=True``.

* 13.1: Unknowns are drawn at random from their own container (the off-map Unknowns).
* 13.2.1 (``setup``): one Unknown on each Victory Hex, pinned there for the game; a die + 1 more
  drawn and placed by the Japanese player (JP_SETUP: any hex a 12.4 Unknown may take, Victory
  Hexes aside).  Interpretation: the rest of the Unknowns stay in the container (13.3 draws from
  it), the Infantry in the cup, and the guns go on their 12.3 hexes, which 13.0 does not change.
* 13.2 (``airpower``, ``announce_air``): the Japanese airpower is spent automatically in the Japanese Player
  Actions step, one factor at a time round the Victory Hexes under attack (a Japanese-held Victory
  Hex with U.S. units adjacent; interpretation of "attacking"), each against the strongest U.S.
  stack (most steps) next to it; with no Victory Hex under attack the factors are not used.
* 13.2.2 (``ad_hoc``): the first time a U.S. unit comes within four hexes of a Victory Hex, a
  die + 1 Infantry come from the cup, placed one by one within two hexes of it: between the
  Victory Hex and the nearest U.S. unit and higher than that unit's hex if possible (room for
  4.2 stacking; ties to the hex nearer the Victory Hex, then the lower index).
* 13.3 (``ambush``, ``ambush_roll``): a U.S. unit whose move uses its whole allowance draws an Unknown from
  the container and rolls on its table less two; that many Infantry appear in the hex it entered.
  Interpretation of the melee: the U.S. unit is set back in the hex it came from and attacks the
  ambushers, so the Japanese fire first as defenders do; its retreat option (8.2.1.3) is the
  withdrawal, leaving the Japanese in the hex; if the ambushers die the unit is in the hex again.
  No ambush in a hex other U.S. units hold (the Japanese cannot appear among them).
* 13.2.2 (``ad_hoc_orders``): until engaged in Melee (melee.engage) those Infantry fire at the
  nearest U.S. unit they may fire at, or hold; they neither move nor declare Melee.
* 13.4: melee.melee_dice doubles the last Victory Hex's Infantry; 13.6: victory.py.
* 13.5 (``infiltration_fails``): at night a U.S. unit leaving an enemy ZOC rolls; a modified 0-4
  stops it (the die's "0" read as 0, as the rule's range names it; +1 Fog, +2 Williwaw).
"""

import numpy as np

from wargym.attu.actions import HOLD
from wargym.attu.board import DIE_SIDES, counters_in, occupancy, roll, side_of, zoc_of
from wargym.attu.events import (
    AD_HOC, AMBUSH, INFANTRY_APPEARS, INFILTRATION, NOT_LOGGED, P_AD_HOC, P_AMBUSH, P_INFILTRATION, P_SOLITAIRE_SETUP,
    R_GOES, R_STAYS, SECRET_DIE,
)
from wargym.attu.fog import place_engaged, pool_draw, pool_size, seen
from wargym.attu.melee import start_step_melee
from wargym.attu.movement import allowance, move_cost
from wargym.attu.ranged import fire_mask, strike
from wargym.attu.scenario import ARTILLERY, JAPAN, UNKNOWN, US
from wargym.attu.setup import unknown_hex_ok
from wargym.attu.state import ACT_SELECT, LOC_MAP, LOC_NONE, LOC_OUT, LOC_RESERVE, MEL_AMBUSH
from wargym.attu.victory import update_zones
from wargym.events import emit
from wargym.jit import njit
from wargym.rng import shuffle, uniform

THREAT_RANGE = 4      # 13.2.2
PLACE_RANGE = 2       # 13.2.2
AMBUSH_LESS = 2       # 13.3


@njit(cache=True)
def setup(T, S, g):
    """13.2.1, at the start (the guns as 12.3; the Unknowns to place are left LOC_NONE)."""
    order = np.empty(T.u_side.shape[0], dtype=np.int64)
    n = 0
    for u in range(T.u_side.shape[0]):
        if T.u_type[u] == UNKNOWN and T.u_in_play[u]:
            order[n] = u
            n += 1
            S.unit_loc[g, u] = LOC_RESERVE
            S.unit_hex[g, u] = -1
            S.face_down[g, u] = True
        elif T.u_side[u] == JAPAN and T.u_type[u] == ARTILLERY and T.jp_art_hex[u] >= 0 \
                and not T.land[T.jp_art_hex[u]]:
            S.unit_loc[g, u] = LOC_OUT  # 15.x: its 12.3 hex is outside the play area (README)
        elif T.u_side[u] == JAPAN and T.u_type[u] == ARTILLERY and T.jp_art_hex[u] >= 0:
            S.unit_loc[g, u] = LOC_MAP
            S.unit_hex[g, u] = T.jp_art_hex[u]
            S.face_down[g, u] = True
            seen(S, g, u)  # on its 12.3 hex, which the book names (README)
    order = order[:n].copy()
    shuffle(S, g, order)  # 13.1: drawn at random
    k = 0
    for z in range(6):
        if k < n and T.victory_hex[z] >= 0 and T.land[T.victory_hex[z]]:
            u = order[k]
            S.unit_loc[g, u] = LOC_MAP
            S.unit_hex[g, u] = T.victory_hex[z]
            S.pinned[g, u] = True
            k += 1
    extra = roll(S, g, P_SOLITAIRE_SETUP) + 1
    for i in range(extra):
        if k < n:
            S.unit_loc[g, order[k]] = LOC_NONE  # JP_SETUP places it
            k += 1


@njit(cache=True)
def place_ok(T, S, g, h):
    """13.2.1: where a drawn Unknown may go (a 12.4 Unknown hex that is not a Victory Hex)."""
    for z in range(6):
        if T.victory_hex[z] == h:
            return False
    return unknown_hex_ok(T, S, g, h)


@njit(cache=True)
def placement_mask(T, S, g, hexes):
    """JP_SETUP (13.2.1): the hexes the drawn Unknown may go to."""
    for h in range(T.nbr.shape[0]):
        hexes[h] = place_ok(T, S, g, h)


@njit(cache=True)
def hex_room(T, S, g, h):
    """4.2: Japanese Infantry/Artillery that may still join hex h (-1 if the U.S. holds it)."""
    n = 3
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == h:
            if side_of(T, S, g, u) == US:
                return -1
            if T.u_type[u] != UNKNOWN or S.captured[g, u]:
                n -= 1
    return n


@njit(cache=True)
def ad_hoc(T, S, g):
    """13.2.2 for every Victory Hex a U.S. unit has just come within four hexes of."""
    for z in range(6):
        v = T.victory_hex[z]
        if S.adhoc_done[g, z] or v < 0 or not T.land[v]:
            continue
        ref, ref_d = -1, 1000
        for u in range(T.u_side.shape[0]):
            if S.unit_loc[g, u] == LOC_MAP and side_of(T, S, g, u) == US:
                d = T.dist[S.unit_hex[g, u], v]
                if d < ref_d:
                    ref, ref_d = S.unit_hex[g, u], d
        if ref < 0 or ref_d > THREAT_RANGE:
            continue
        S.adhoc_done[g, z] = True
        drawn = roll(S, g, P_AD_HOC) + 1
        emit(S, g, AD_HOC, v, drawn)
        for _ in range(drawn):
            best, best_score = -1, -1000
            for h in range(T.nbr.shape[0]):
                if T.dist[h, v] > PLACE_RANGE or not T.land[h] or hex_room(T, S, g, h) <= 0:
                    continue
                score = -T.dist[h, v]
                if T.dist[h, ref] < ref_d:
                    score += 10  # between the Victory Hex and the U.S.
                if T.level[h] > T.level[ref]:
                    score += 5   # higher than the U.S. units
                if score > best_score:
                    best, best_score = h, score
            u = pool_draw(T, S, g, LOC_RESERVE)
            if best < 0 or u < 0:
                break
            emit(S, g, INFANTRY_APPEARS, u, best)
            S.unit_loc[g, u] = LOC_MAP
            S.unit_hex[g, u] = best
            S.unit_steps[g, u] = 1
            S.face_down[g, u] = True
            S.ad_hoc[g, u] = True  # fires on the nearest U.S. unit until engaged in Melee
            seen(S, g, u)  # the U.S. player draws it himself and places it (README)


@njit(cache=True)
def ad_hoc_orders(T, S, g, u, m):
    """ACT_ORDER for ad hoc Infantry u not yet engaged in Melee (13.2.2: "will use Ranged Combat
    against the nearest U.S. unit"): the nearest U.S. hexes it may fire at (README), else HOLD.
    It neither moves nor declares Melee."""
    H = T.nbr.shape[0]
    m[:] = False
    fire_mask(T, S, g, u, occupancy(T, S, g), m[:H])
    a = S.unit_hex[g, u]
    near = H
    for t in range(H):
        if m[t]:
            near = min(near, T.dist[a, t])
    for t in range(H):
        m[t] = m[t] and T.dist[a, t] == near
    m[H + HOLD] = near == H


@njit(cache=True)
def under_attack(T, S, g, v):
    """A Japanese-held Victory Hex with U.S. units adjacent (13.2 "attacking"): the hex of the
    strongest adjacent U.S. stack, or -1."""
    jp = False
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == v:
            if side_of(T, S, g, u) != JAPAN:
                return -1
            jp = True
    if not jp:
        return -1
    best, best_steps = -1, 0
    for d in range(6):
        n = T.nbr[v, d]
        if n < 0:
            continue
        steps = 0
        for u in range(T.u_side.shape[0]):
            if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == n and side_of(T, S, g, u) == US:
                steps += S.unit_steps[g, u]
        if steps > best_steps:
            best, best_steps = n, steps
    return best


@njit(cache=True)
def announce_air(T, S, g):
    """13.2: the Japanese factors against the strongest stacks attacking Victory Hexes, divided
    evenly among them; returns how many attacks were announced."""
    targets = np.full(6, -1, dtype=np.int64)
    n = 0
    for z in range(6):
        if T.victory_hex[z] >= 0:
            t = under_attack(T, S, g, T.victory_hex[z])
            if t >= 0:
                targets[n] = t
                n += 1
    k = 0
    while n > 0 and S.airpower[g, JAPAN] > 0 and S.air_n[g] < S.air_target.shape[1]:
        S.air_target[g, S.air_n[g]] = targets[k % n]
        S.air_n[g] += 1
        S.airpower[g, JAPAN] -= 1
        k += 1
    S.airpower[g, JAPAN] = 0  # 3.4: unused factors are lost
    return k


@njit(cache=True)
def airpower(T, S, g):
    """13.2: at the start of the Japanese Player Actions step their factors are announced and
    struck at once (``announce_air``).  True when that was due."""
    if S.phase[g] != ACT_SELECT or S.acting[g] != JAPAN or S.airpower[g, JAPAN] <= 0 or S.air_n[g] != 0:
        return False
    if announce_air(T, S, g) > 0:
        strike(T, S, g)
    return True


@njit(cache=True)
def ambush_roll(T, S, g):
    """13.3: an Unknown drawn from the container and its table rolled: (the Infantry it gives
    less two, 0: no ambush; the die, 0 with no Unknown to draw).  The die is not logged here:
    whether one is thrown at all depends on the container, which the U.S. may not see (fog.py),
    so ``ambush`` logs it only when an ambush comes of it."""
    n = 0
    for u in range(T.u_side.shape[0]):
        if T.u_type[u] == UNKNOWN and T.u_in_play[u] and S.unit_loc[g, u] == LOC_RESERVE:
            n += 1
    if n == 0:
        return 0, 0
    k = uniform(S, g, n)
    for u in range(T.u_side.shape[0]):
        if T.u_type[u] == UNKNOWN and T.u_in_play[u] and S.unit_loc[g, u] == LOC_RESERVE:
            if k == 0:
                d = roll(S, g, NOT_LOGGED)
                return max(T.u_table[u, d - 1] - AMBUSH_LESS, 0), d
            k -= 1
    return 0, 0


@njit(cache=True)
def place_ambush(T, S, g, h, count):
    """13.3: ``count`` Infantry from the cup into hex h, face-up (they are engaging); returns how
    many came."""
    placed = 0
    for _ in range(min(count, 3)):
        u = pool_draw(T, S, g, LOC_RESERVE)
        if u < 0:
            break
        place_engaged(S, g, u, h, False)  # 3.6: they have their own Player Actions step to come
        placed += 1
    return placed


@njit(cache=True)
def ambush(T, S, g, u, h):
    """13.3: U.S. unit u moving into hex h with its whole allowance, where no U.S. unit stands,
    may draw an ambush: it is set back where it came from and attacks the ambushers at once.
    True when it did."""
    used, prev = move_cost(T, S, g, u, h)
    if used < allowance(T, S, g, u, T.u_move[u]) or counters_in(T, S, g, h, US) > 0:
        return False
    n, d = ambush_roll(T, S, g)
    if n <= 0 or pool_size(T, S, g, LOC_RESERVE) == 0:
        return False
    emit(S, g, SECRET_DIE, P_AMBUSH, d)
    emit(S, g, AMBUSH, u, h)
    place_ambush(T, S, g, h, n)
    S.unit_hex[g, u] = prev
    update_zones(T, S, g)
    mover = np.zeros(T.u_side.shape[0], dtype=np.bool_)
    mover[u] = True
    start_step_melee(T, S, g, h, US, MEL_AMBUSH, mover)
    return True


@njit(cache=True)
def infiltration_fails(T, S, g, u):
    """13.5: U.S. unit u leaving an enemy ZOC at night rolls; True when it must stay."""
    if not S.night[g] or not zoc_of(T, S, g, JAPAN)[S.unit_hex[g, u]]:
        return False
    d = roll(S, g, P_INFILTRATION)
    if d == DIE_SIDES:
        d = 0  # the '0' counts as 0 for this roll (README "Solitaire")
    stays = d + T.infiltration_weather[S.weather[g]] <= T.infiltration_fail  # charts.yaml night_infiltration
    emit(S, g, INFILTRATION, u, R_STAYS if stays else R_GOES)
    return stays
