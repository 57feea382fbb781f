"""Set-up and start (12.0): Komandorski and victory point chits, the Japanese and U.S. set-ups.

* 12.1: one Komandorski Effect chit (May 24/27/30) and one Delay chit (1-4), hidden from the U.S.
* 14.0: victory point chits drawn at random for the Victory Hexes (interpretation: the face-to-face
  option of placing them by choice is not offered; the draw is random in every game).
* 12.3 historic Japanese set-up: the Unknowns shuffled onto the sixteen listed hexes (the counters
  differ only in their hidden tables), the guns on theirs, everything face-down, the Infantry in the
  cup.  12.4 free set-up (and 15.x): the Japanese place each Unknown, then the guns, hex by hex.
  The mask keeps the 12.4 promise "at least two Unknowns within two or three hexes of each Landing
  Zone" reachable: a hex is offered only if a greedy cover can still meet every zone's need with the
  Unknowns left (``cover_need``).
* 12.5 historic U.S. set-up: the units for D-G (and H or I) are staged by the U.S. player, the rest
  by the book's list; 12.6 free set-up: every unit is staged or kept back, and the landing may wait a
  turn at a time for better weather (rolled before the scatter).

The decisions: JP_SETUP (``place_japanese``, ``placement_mask``), US_STAGING (``stage``,
``staging_mask``) and US_WAIT (``wait``, ``wait_mask``); the 12.1.3 reveals (``reveal_chits``).
"""

import numpy as np

from wargym.attu.actions import LZ_0, NO, RESERVE, YES
from wargym.attu.events import KOMANDORSKI_DELAY, KOMANDORSKI_EFFECT, TURN
from wargym.attu.fog import seen
from wargym.attu.scenario import (
    ARTILLERY, D_TO_G, FREE_STAGING, H_OR_I, JAPAN, LANDING_ZONES, STAGING_D_TO_G, STAGING_H_OR_I, STAGING_NONE,
    STAGING_RESERVE, TURN_0_DATE, UNKNOWN, US,
)
from wargym.attu.state import LOC_MAP, LOC_NONE, LOC_OUT, LOC_RESERVE, LOC_STAGING, OPT_JP_FREE, OPT_US_FREE
from wargym.attu.weather import roll_weather
from wargym.events import emit
from wargym.jit import njit
from wargym.rng import shuffle, uniform

NEAR_MIN, NEAR_MAX, NEAR_NEED = 2, 3, 2   # 12.4
GUN_20MM_RANGE = 5                          # 12.4: within five hexes of 3311
MAX_WAIT_TURN = 13                          # 12.6 interpretation: the landing may wait until May 23


@njit(cache=True)
def draw_chits(T, S, g):
    """12.1 and 14.0."""
    S.ke_effect[g] = T.effect_chits[uniform(S, g, T.effect_chits.shape[0])]
    S.ke_delay[g] = T.delay_chits[uniform(S, g, T.delay_chits.shape[0])]
    values = T.vp_values.copy()
    shuffle(S, g, values)
    cancels = T.vp_cancels.copy()
    shuffle(S, g, cancels)
    k = 0
    for z in range(6):
        if z != 4:  # Attu Village has no value chit
            S.vp_value[g, z] = values[k]
            k += 1
        S.vp_cancel[g, z] = cancels[z]


@njit(cache=True)
def reveal_chits(T, S, g):
    """12.1.3, at the start of a turn: the Effect chit is revealed on May 24, the Delay chit on the
    Effect's date; the last turn is then known (12.1 interpretation: the reveal turn + delay - 1)."""
    t = S.turn[g]
    if t == T.ke_turn and S.ke_revealed[g] == 0:
        S.ke_revealed[g] = 1
        emit(S, g, KOMANDORSKI_EFFECT, S.ke_effect[g])
    if S.ke_revealed[g] == 1 and t == S.ke_effect[g] - TURN_0_DATE:
        S.ke_revealed[g] = 2
        S.last_turn[g] = t + S.ke_delay[g] - 1
        emit(S, g, KOMANDORSKI_DELAY, S.ke_delay[g], TURN_0_DATE + S.last_turn[g])


@njit(cache=True)
def japanese_historic(T, S, g):
    """12.3."""
    unknowns = np.empty(16, dtype=np.int64)
    n = 0
    for u in range(T.u_side.shape[0]):
        if T.u_type[u] == UNKNOWN and T.u_in_play[u]:
            unknowns[n] = u
            n += 1
    order = unknowns[:n].copy()
    shuffle(S, g, order)
    for i in range(n):
        u = order[i]
        S.unit_loc[g, u] = LOC_MAP
        S.unit_hex[g, u] = T.jp_unknown_hexes[i]
        S.face_down[g, u] = True
    for u in range(T.u_side.shape[0]):
        if T.u_side[u] == JAPAN and T.u_type[u] == ARTILLERY and T.jp_art_hex[u] >= 0:
            S.unit_loc[g, u] = LOC_MAP
            S.unit_hex[g, u] = T.jp_art_hex[u]
            S.face_down[g, u] = True
            seen(S, g, u)  # 12.3 names each gun's hex: the U.S. knows it (README)


@njit(cache=True)
def placement_unit(T, S, g):
    """The next Japanese unit of the free set-up (Unknowns, then guns), or -1."""
    for u in range(T.u_side.shape[0]):
        if T.u_side[u] == JAPAN and T.u_in_play[u] and S.unit_loc[g, u] == LOC_NONE and \
                (T.u_type[u] == UNKNOWN or T.u_type[u] == ARTILLERY):
            return u
    return -1


@njit(cache=True)
def near_lz_need(T, S, g, need):
    """12.4: Unknowns still missing within 2-3 hexes of each Landing Zone."""
    for k in range(LANDING_ZONES):
        need[k] = 0
        h = T.lz_hex[k]
        if h < 0:
            continue
        have = 0
        for u in range(T.u_side.shape[0]):
            if S.unit_loc[g, u] == LOC_MAP and T.u_type[u] == UNKNOWN:
                d = T.dist[h, S.unit_hex[g, u]]
                if NEAR_MIN <= d <= NEAR_MAX:
                    have += 1
        need[k] = max(NEAR_NEED - have, 0)


@njit(cache=True)
def unknown_hex_ok(T, S, g, h):
    """12.4: land in play, no other Unknown there, not in or adjacent to a Landing Zone."""
    if not T.land[h] or T.near_lz[h]:
        return False
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == h and T.u_type[u] == UNKNOWN:
            return False
    return True


@njit(cache=True)
def cover_need(T, S, g, need, taken):
    """Placements a greedy cover needs to meet ``need`` (taken: hexes already holding one);
    10000 when it cannot."""
    H = T.nbr.shape[0]
    need = need.copy()
    taken = taken.copy()
    count = 0
    while need.sum() > 0:
        best, best_n = -1, 0
        for h in range(H):
            if taken[h] or not T.land[h] or T.near_lz[h]:
                continue
            n = 0
            for k in range(LANDING_ZONES):
                if need[k] > 0 and NEAR_MIN <= T.dist[T.lz_hex[k], h] <= NEAR_MAX:
                    n += 1
            if n > best_n:
                best, best_n = h, n
        if best < 0:
            return 10000
        taken[best] = True
        count += 1
        for k in range(LANDING_ZONES):
            if need[k] > 0 and NEAR_MIN <= T.dist[T.lz_hex[k], best] <= NEAR_MAX:
                need[k] -= 1
    return count


@njit(cache=True)
def placement_mask(T, S, g, u, out):
    """Legal hexes for Japanese unit u in the free set-up (12.4); returns their count."""
    H = T.nbr.shape[0]
    n = 0
    if T.u_type[u] == UNKNOWN:
        left = 0
        for v in range(T.u_side.shape[0]):
            if T.u_type[v] == UNKNOWN and T.u_in_play[v] and S.unit_loc[g, v] == LOC_NONE:
                left += 1
        need = np.zeros(LANDING_ZONES, dtype=np.int64)
        near_lz_need(T, S, g, need)
        taken = np.zeros(H, dtype=np.bool_)
        for v in range(T.u_side.shape[0]):
            if S.unit_loc[g, v] == LOC_MAP and T.u_type[v] == UNKNOWN:
                taken[S.unit_hex[g, v]] = True
        tight = need.sum() > 0 and cover_need(T, S, g, need, taken) >= left - 1
        for h in range(H):
            if not unknown_hex_ok(T, S, g, h):
                continue
            if tight:
                after = need.copy()
                for k in range(LANDING_ZONES):
                    if after[k] > 0 and NEAR_MIN <= T.dist[T.lz_hex[k], h] <= NEAR_MAX:
                        after[k] -= 1
                taken[h] = True
                ok = cover_need(T, S, g, after, taken) <= left - 1
                taken[h] = False
                if not ok:
                    continue
            out[h] = True
            n += 1
        return n
    # guns: 20mm within five hexes of 3311, 75mm on 3311 or 2409 with one on each (12.4)
    is_75 = T.u_gun[u] == 2
    centre = T.gun_hexes[0]
    if centre < 0 and not is_75:
        return 0
    for h in range(H):
        if not T.land[h] or gun_count(T, S, g, h) >= 3:
            continue
        if is_75:
            if h != T.gun_hexes[0] and h != T.gun_hexes[1]:
                continue
            other = T.gun_hexes[1] if h == T.gun_hexes[0] else T.gun_hexes[0]
            if last_75(T, S, g, u) and other >= 0 and gun_count_75(T, S, g, other) == 0 and \
                    gun_count_75(T, S, g, h) > 0:
                continue
        elif T.dist[centre, h] > GUN_20MM_RANGE:
            continue
        out[h] = True
        n += 1
    return n


@njit(cache=True)
def gun_count(T, S, g, h):
    n = 0
    for v in range(T.u_side.shape[0]):
        if S.unit_loc[g, v] == LOC_MAP and S.unit_hex[g, v] == h and T.u_side[v] == JAPAN and \
                T.u_type[v] != UNKNOWN:
            n += 1
    return n


@njit(cache=True)
def gun_count_75(T, S, g, h):
    n = 0
    for v in range(T.u_side.shape[0]):
        if S.unit_loc[g, v] == LOC_MAP and S.unit_hex[g, v] == h and T.u_type[v] == ARTILLERY and \
                T.u_gun[v] == 2:
            n += 1
    return n


@njit(cache=True)
def last_75(T, S, g, u):
    for v in range(u + 1, T.u_side.shape[0]):
        if T.u_gun[v] == 2 and T.u_in_play[v] and S.unit_loc[g, v] == LOC_NONE:
            return False
    return True


@njit(cache=True)
def skip_unplaceable_guns(T, S, g):
    """15.x: a gun with no legal hex inside the play area is left out of the scenario."""
    H = T.nbr.shape[0]
    while True:
        u = placement_unit(T, S, g)
        if u < 0 or T.u_type[u] != ARTILLERY:
            return u
        out = np.zeros(H, dtype=np.bool_)
        if placement_mask(T, S, g, u, out) > 0:
            return u
        S.unit_loc[g, u] = LOC_OUT  # out of this game


@njit(cache=True)
def start_positions(T, S, g):
    """Counters off the map at the start: the Japanese pool and the U.S. staging of 12.5."""
    for u in range(T.u_side.shape[0]):
        if not T.u_in_play[u]:
            continue
        if T.u_side[u] == JAPAN:
            if T.u_type[u] != UNKNOWN and T.u_type[u] != ARTILLERY:
                S.unit_loc[g, u] = LOC_RESERVE
                S.face_down[g, u] = True
        elif T.u_staging[u] == STAGING_RESERVE:
            S.unit_loc[g, u] = LOC_RESERVE
        elif 0 <= T.u_staging[u] < LANDING_ZONES:
            S.unit_loc[g, u] = LOC_STAGING
            S.unit_hex[g, u] = T.u_staging[u]
    if not T.opts[OPT_JP_FREE]:
        japanese_historic(T, S, g)


# ---------------------------------------------------------------------------------- decisions
@njit(cache=True)
def place_japanese(T, S, g, h):
    """JP_SETUP (12.4, 13.2.1): the next Japanese unit goes face-down on hex h."""
    u = placement_unit(T, S, g)
    S.unit_loc[g, u] = LOC_MAP
    S.unit_hex[g, u] = h
    S.face_down[g, u] = True
    if T.u_type[u] == ARTILLERY:
        seen(S, g, u)  # the guns are placed after the Unknowns, one by one, in the U.S.'s sight (README)


@njit(cache=True)
def stage_unit(T, S, g):
    """The next U.S. unit to stage (12.5: D-G and H/I choices; 12.6: every unit), or -1."""
    for u in range(T.u_side.shape[0]):
        if T.u_side[u] != US or not T.u_in_play[u] or S.unit_loc[g, u] != LOC_NONE or \
                T.u_staging[u] == STAGING_NONE:
            continue
        if T.opts[OPT_US_FREE] or T.u_staging[u] >= STAGING_D_TO_G:  # a choice (12.5) or free (15.x)
            return u
    return -1


@njit(cache=True)
def stage(T, S, g, a):
    """US_STAGING (12.5, 12.6): the next unit is staged for a Landing Zone, or kept back."""
    u = stage_unit(T, S, g)
    k = a - T.nbr.shape[0]
    if k == RESERVE:
        S.unit_loc[g, u] = LOC_RESERVE
    else:
        S.unit_loc[g, u] = LOC_STAGING
        S.unit_hex[g, u] = k - LZ_0


@njit(cache=True)
def staging_mask(T, S, g, m):
    """US_STAGING: 12.5's choice of D-G or of H/I; in a free set-up (12.6, 15.x) any zone of the
    unit's force's area, or the Reinforcements Box."""
    H = T.nbr.shape[0]
    u = stage_unit(T, S, g)
    code = T.u_staging[u]
    free = T.opts[OPT_US_FREE] or code == FREE_STAGING
    f = T.u_force[u]
    for k in range(LANDING_ZONES):
        h = T.lz_hex[k]
        if h < 0:
            continue
        if code == FREE_STAGING and f >= 0 and (T.zone[h] < 0 or not T.force_zones[f, T.zone[h]]):
            continue  # 15.3: each force lands in its own area
        if free or (code == STAGING_D_TO_G and k in D_TO_G) or (code == STAGING_H_OR_I and k in H_OR_I):
            m[H + LZ_0 + k] = True
    if free or not m[H + LZ_0:H + LZ_0 + LANDING_ZONES].any():
        m[H + RESERVE] = True


@njit(cache=True)
def wait(T, S, g):
    """US_WAIT, no (12.6): the turn marker moves on; the weather is rolled before the scatter."""
    S.turn[g] += 1
    emit(S, g, TURN, TURN_0_DATE + S.turn[g])
    roll_weather(T, S, g)


@njit(cache=True)
def wait_mask(T, S, g, m):
    """US_WAIT (12.6): land now, or wait another turn (until May 23: README)."""
    H = T.nbr.shape[0]
    m[H + YES] = True
    m[H + NO] = S.turn[g] < MAX_WAIT_TURN
