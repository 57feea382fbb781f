"""Default answers to the minor decisions (``decisions="major"``), also used by the baselines.

    LOSS            U.S.: the unit with the most steps left (losses spread, strength kept);
                    Japan: a hit that does nothing (the last Infantry of a hex under Ranged fire),
                    else an Unknown (it returns later, 9.6), else the weakest unit
    RETREAT         the retreat hex nearest a Landing Zone
    MARTINEZ        yes: the first U.S. melee roll with a miss
    ARNOLD          yes
    FRIENDLY_FIRE   the first hex offered
"""

from wargym.attu.actions import MAX_SLOTS, NO, SLOT_0, YES
from wargym.attu.board import side_of
from wargym.attu.losses import japanese_infantry_in, may_take_hit
from wargym.attu.scenario import INFANTRY, LANDING_ZONES, UNKNOWN, US
from wargym.attu.state import ARNOLD, FRIENDLY_FIRE, LOSS, LOSS_RANGED, MARTINEZ, RETREAT
from wargym.jit import njit


@njit(cache=True)
def loss_choice(T, S, g):
    """The slot of the unit the default rule gives the next hit."""
    best, best_score, k = 0, -1000, 0
    for u in range(T.u_side.shape[0]):
        if not may_take_hit(T, S, g, u, S.loss_kind[g]):
            continue
        if k >= MAX_SLOTS:
            break
        if side_of(T, S, g, u) == US:
            score = S.unit_steps[g, u] * 10
        elif T.u_type[u] == INFANTRY and S.loss_kind[g] == LOSS_RANGED and \
                japanese_infantry_in(T, S, g, S.unit_hex[g, u]) <= 1:
            score = 100
        elif T.u_type[u] == UNKNOWN and not S.captured[g, u]:
            score = 50
        else:
            score = -T.u_melee[u, 0] - T.u_ranged[u, 0]
        if score > best_score:
            best, best_score = k, score
        k += 1
    return SLOT_0 + best


@njit(cache=True)
def minor_decision(T, S, g, m):
    """The default action for the minor decision in progress (``m``: its legal mask)."""
    H = T.nbr.shape[0]
    phase = S.phase[g]
    if phase == LOSS:
        return H + loss_choice(T, S, g)
    if phase == MARTINEZ or phase == ARNOLD:
        return H + YES if m[H + YES] else H + NO
    if phase == RETREAT:
        best, best_d = -1, 100000
        for h in range(H):
            if m[h]:
                d = 1000
                for k in range(LANDING_ZONES):
                    if T.lz_hex[k] >= 0:
                        d = min(d, T.dist[h, T.lz_hex[k]])
                if d < best_d:
                    best, best_d = h, d
        return best
    if phase == FRIENDLY_FIRE:
        for h in range(H):
            if m[h]:
                return h
    for a in range(m.shape[0]):
        if m[a]:
            return a
    return -1

