"""Winning and losing: catastrophic loss (15.1), secured positions and the victory checks of the
15 September (15.2) and Peleliu Assault (17.1, 17.2) scenarios.

``result`` holds the outcome (state.RESULTS); the reward is +1 for a U.S. victory, -1 for a defeat
or a decisive defeat, 0 for a draw.
"""

import numpy as np

from wargym.events import emit
from wargym.jit import njit
from wargym.peleliu import eventlog as ev
from wargym.peleliu.board import us_communication
from wargym.peleliu.scenario import CORAL, INTENSE, REG_HQ
from wargym.peleliu.bnr import catastrophic, final_result, japanese_left
from wargym.peleliu.state import (
    OPT_ASSAULT, OPT_BNR, OPT_BNR_CATASTROPHIC, OPT_LAST_TURN, R_DECISIVE, R_LOSS, R_WIN, US_MAP,
)

ZONE_A, ZONE_B = 0, 1


@njit(cache=True)
def held(T, S, g, p):
    """A position hex occupied by a U.S. unit or a garrison (14.41)."""
    if S.garrison[g, p]:
        return True
    h = T.pos_hex[p]
    for u in range(S.us_loc.shape[1]):
        if S.us_loc[g, u] == US_MAP and S.us_hex[g, u] == h:
            return True
    return False


@njit(cache=True)
def secured(T, S, g, out):
    """15.2: out[P] = the position hex is held, every position hex projecting intense fire into it
    is held, and U.S. communication can be traced from it (provisional positions never count)."""
    P = T.pos_hex.shape[0]
    hold = np.zeros(P, np.bool_)
    for p in range(P):
        hold[p] = held(T, S, g, p)
    comm = np.empty(T.land.shape[0], np.bool_)
    us_communication(T, S, g, comm)
    for p in range(P):
        out[p] = False
        if T.pos_prov[p] or not hold[p]:
            continue
        h = T.pos_hex[p]
        if not comm[h]:
            continue
        ok = True
        for f in range(T.grp_dot.shape[0]):
            if T.grp_dot[f, h] == INTENSE:
                for k in range(2):
                    q = T.grp_members[f, k]
                    if q >= 0 and not hold[q]:
                        ok = False
        out[p] = ok


@njit(cache=True)
def tallies(T, S, g):
    """(beach-firing secured, zone B secured, A5 and A6 secured, all coral secured, zones A+B
    secured, zones C+D secured, all secured, counts of beach-firing / zone B / coral positions)."""
    P = T.pos_hex.shape[0]
    sec = np.empty(P, np.bool_)
    secured(T, S, g, sec)
    beach, zb, ab, cd, total = 0, 0, 0, 0, 0
    n_beach, n_b, n_coral, coral = 0, 0, 0, 0
    a56 = 0
    for p in range(P):
        if T.pos_prov[p]:
            continue
        z = T.pos_zone[p]
        if T.pos_beachfire[p]:
            n_beach += 1
        if z == ZONE_B:
            n_b += 1
        if T.terrain[T.pos_hex[p]] == CORAL:
            n_coral += 1
        if not sec[p]:
            continue
        total += 1
        if T.pos_beachfire[p]:
            beach += 1
        if z == ZONE_B:
            zb += 1
        if z <= ZONE_B:
            ab += 1
        else:
            cd += 1
        if T.terrain[T.pos_hex[p]] == CORAL:
            coral += 1
        if z == ZONE_A and (T.pos_num[p] == 5 or T.pos_num[p] == 6):
            a56 += 1
    return beach, zb, a56, coral, ab, cd, total, n_beach, n_b, n_coral


@njit(cache=True)
def finish(T, S, g, result):
    emit(S, g, ev.GAME_OVER, result)
    S.result[g] = result
    S.terminated[g] = True
    S.rewards[g, 0] = 1.0 if result == R_WIN else (-1.0 if result == R_LOSS or result == R_DECISIVE else 0.0)


@njit(cache=True)
def catastrophic_now(T, S, g):
    """15.1: the moment the Infantry Loss Box reaches the turn's level (never before turn 5) the
    game ends: a defeat (15.1), a decisive defeat in the Peleliu Assault (17.0)."""
    t = S.turn[g]
    if T.opts[OPT_BNR]:
        if not S.terminated[g] and catastrophic(T, S, g):
            emit(S, g, ev.CATASTROPHIC, S.loss_box[g], T.opts[OPT_BNR_CATASTROPHIC])
            finish(T, S, g, R_LOSS)  # 18.41
            return True
        return False
    if S.terminated[g] or t < 5 or t >= T.catastrophic.shape[0]:
        return False
    level = T.catastrophic[t]
    if level > 0 and S.loss_box[g] >= level:
        emit(S, g, ev.CATASTROPHIC, S.loss_box[g], level)
        finish(T, S, g, R_DECISIVE if T.opts[OPT_ASSAULT] else R_LOSS)
        return True
    return False


@njit(cache=True)
def end_of_turn_victory(T, S, g):
    """15.2 at the end of turn 12; 17.1 at turn 12 and 17.2 at turn 24 of the Peleliu Assault.
    True when the game ended."""
    t = S.turn[g]
    if T.opts[OPT_BNR]:
        if t >= T.opts[OPT_LAST_TURN]:
            if S.ev_on[0]:
                box, board = japanese_left(T, S, g)
                emit(S, g, ev.JAPANESE_LEFT, box, board)
            finish(T, S, g, final_result(T, S, g))  # 18.42
            return True
        return False
    if T.opts[OPT_ASSAULT]:
        if t == 12:
            beach, zb, a56, coral, ab, cd, total, n_beach, n_b, n_coral = tallies(T, S, g)
            emit(S, g, ev.SECURED, total, beach, zb, a56)
            if beach >= n_beach and (zb >= n_b or coral >= n_coral):
                finish(T, S, g, R_WIN)
                return True
            if total < 10:
                finish(T, S, g, R_DECISIVE)
                return True
            return False
        if t >= T.opts[OPT_LAST_TURN]:
            beach, zb, a56, coral, ab, cd, total, n_beach, n_b, n_coral = tallies(T, S, g)
            emit(S, g, ev.SECURED, total, beach, zb, a56)
            need = n_ab(T) - 2 * cd
            finish(T, S, g, R_WIN if ab >= need else R_LOSS)
            return True
        return False
    if t >= T.opts[OPT_LAST_TURN]:
        beach, zb, a56, coral, ab, cd, total, n_beach, n_b, n_coral = tallies(T, S, g)
        emit(S, g, ev.SECURED, total, beach, zb, a56)
        goals = (1 if beach >= 10 else 0) + (1 if zb >= 14 else 0) + (1 if a56 >= 2 else 0)
        finish(T, S, g, R_WIN if goals >= 2 else R_LOSS)
        return True
    return False


@njit(cache=True)
def n_ab(T):
    n = 0
    for p in range(T.pos_hex.shape[0]):
        if not T.pos_prov[p] and T.pos_zone[p] <= ZONE_B and T.pos_zone[p] >= 0:
            n += 1
    return n


@njit(cache=True)
def standing(T, S, g):
    """A number for shaped rewards (not a rule of the book; envs/single.py uses it as a potential):
    positions secured (15.2: one each, one more for a beach-firing or a zone B position, two more
    for A5 and for A6) minus a loss term of s, the Infantry Loss Box (plus the units over the
    stacking limit, over_limit) as a share of the catastrophic level it is measured against (15.1:
    the current turn's, turn 5's before turn 5), capped at 1: LOSS_WEIGHT x s + CATASTROPHE x s^3.

    At s = 1 on or after turn 5, 15.1 has ended the game; before turn 5 the game is doomed (the box
    never shrinks and turn 5 measures it against the same level).  The cube makes the approach to
    catastrophic loss cost more with every counter: a counter costs (5 + 60 s^2) / level, about
    9 / level at a quarter of the level and 39 / level at three quarters, i.e. 2.8 at turn 5's level
    of 14, more than a secured beach-firing position (2) (the measured failure it answers: a policy trading steps for positions early, all of
    its games ended by 15.1 at turn 5, benchmarks/README.md).  The share falls as turns pass
    without losses (the level rises), so surviving raises the standing, and a game ended early by
    catastrophic loss scores below any game still going with the same positions secured.  A pure
    function of the state."""
    LOSS_WEIGHT = 5.0   # the linear part of the loss term
    CATASTROPHE = 20.0  # the cubic part: the loss term reaches LOSS_WEIGHT + CATASTROPHE at the level
    beach, zb, a56, coral, ab, cd, total, n_beach, n_b, n_coral = tallies(T, S, g)
    score = float(total + beach + zb + 2 * a56)
    t = min(max(S.turn[g], 5), T.catastrophic.shape[0] - 1)
    level = T.catastrophic[t]
    while level <= 0 and t > 0:  # past the track's last level (or a scenario without one)
        t -= 1
        level = T.catastrophic[t]
    if level <= 0:
        return score
    share = min(float(S.loss_box[g] + over_limit(T, S, g)) / float(level), 1.0)
    return score - LOSS_WEIGHT * share - CATASTROPHE * share ** 3


@njit(cache=True)
def over_limit(T, S, g):
    """Units beyond the stacking limit on the map (7.5: two a hex, regimental HQs not counted, 7.51):
    7.53 eliminates them at the end of the Action Phase unless they move, so the standing counts
    each as a counter already in the Infantry Loss Box.  The move that overstacks a hex is priced
    when it is made, not hundreds of decisions later at the elimination (which then changes
    nothing: the box gains what the forecast loses)."""
    H = T.land.shape[0]
    count = np.zeros(H, np.int16)
    n = 0
    for u in range(S.us_loc.shape[1]):
        if S.us_loc[g, u] == US_MAP and T.us_type[u] != REG_HQ:
            h = S.us_hex[g, u]
            count[h] += 1
            if count[h] > 2:
                n += 1
    return n


def standing_batch(T, S, out):
    for g in range(out.shape[0]):
        out[g] = standing(T, S, g)
