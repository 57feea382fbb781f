"""Taking hits (8.0, 8.4, 8.5, 8.2.1.1, 8.2.1.2).

The hits of an attack wait in the ``LOSS`` decision (``start_loss``) for their owner, who places
them one at a time among the units of the target hex (8.0; a Melee's defensive hits go to its
attackers, then to the other units of their hexes, 8.2.1.1); hits nobody can take are lost.  Each
hit removes one step of the unit its owner picks (or the default of defaults.py).  U.S. infantry
steps go on the Casualty Track (8.4).  A Japanese Infantry or Artillery unit hit is eliminated,
except that Ranged Combat (airpower included, 8.1.6) never eliminates the last Japanese Infantry
unit in a hex (8.5); an Unknown hit by Ranged Combat goes off-map unrevealed, at most one per
attack (2.5), and an Unknown never takes a Melee hit (8.5).  U.S. artillery eliminated as a Melee
defender is set aside until the Melee ends, for capture (8.2.1.2, 8.2.1.4).
"""

import numpy as np

from wargym.attu.actions import MAX_SLOTS, SLOT_0, allow_slots
from wargym.attu.board import record_casualties, side_of
from wargym.attu.events import NO_EFFECT, OFF_MAP, R_MELTED, SET_ASIDE, STEP_LOST
from wargym.attu.scenario import ARTILLERY, INFANTRY, JAPAN, UNKNOWN, US
from wargym.attu.state import (
    LOC_ASIDE, LOC_MAP, LOC_RESERVE, LOSS, LOSS_EXCESS, LOSS_MELEE_ON_ATTACKER, LOSS_MELEE_ON_DEFENDER, LOSS_RANGED,
)
from wargym.attu.victory import check_immediate, eliminate
from wargym.events import emit
from wargym.jit import njit


@njit(cache=True)
def japanese_infantry_in(T, S, g, h):
    n = 0
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == h and T.u_side[u] == JAPAN \
                and T.u_type[u] == INFANTRY:
            n += 1
    return n


@njit(cache=True)
def hit_unit(T, S, g, u, kind):
    """One hit on unit u (``kind``: a LOSS_* of state.py)."""
    if side_of(T, S, g, u) == US:
        S.unit_steps[g, u] -= 1
        emit(S, g, STEP_LOST, u, 1, S.unit_steps[g, u])
        record_casualties(T, S, g, u, 1)
        if S.unit_steps[g, u] <= 0:
            if kind == LOSS_MELEE_ON_DEFENDER and T.u_type[u] == ARTILLERY:
                S.unit_loc[g, u] = LOC_ASIDE  # 8.2.1.2; unit_steps restored on capture
                S.unit_steps[g, u] = 0
                emit(S, g, SET_ASIDE, u, S.unit_hex[g, u])
            else:
                eliminate(T, S, g, u)
    elif S.captured[g, u]:
        S.unit_steps[g, u] -= 1
        emit(S, g, STEP_LOST, u, 1, S.unit_steps[g, u])
        if S.unit_steps[g, u] <= 0:
            eliminate(T, S, g, u)
    elif T.u_type[u] == UNKNOWN:
        emit(S, g, OFF_MAP, u, S.unit_hex[g, u], R_MELTED)
        S.unit_loc[g, u] = LOC_RESERVE  # 2.5 / 8.5: melts away, eligible to return (9.6)
        S.jp_removed[g] += 1            # to the U.S., one more counter gone, as an Infantry loss
        S.pinned[g, u] = False
        S.unit_hex[g, u] = -1
        S.loss_unknown_done[g] = True
    elif T.u_type[u] == INFANTRY and kind == LOSS_RANGED and japanese_infantry_in(T, S, g, S.unit_hex[g, u]) <= 1:
        emit(S, g, NO_EFFECT)  # 8.5: Ranged Combat never eliminates the last Japanese Infantry unit in a hex
    else:
        eliminate(T, S, g, u)
    check_immediate(T, S, g)


@njit(cache=True)
def may_take_hit(T, S, g, u, kind):
    """u may be picked for a hit: in the loss pool; an Unknown only by Ranged Combat, one of an
    attack at most (2.5), never in a Melee (8.5: "Unknown units can never take a hit from Melee
    Combat"; one that did not declare, beside its hex's attackers, takes none of their excess)."""
    if not S.loss_pool[g, u]:
        return False
    if S.unit_loc[g, u] != LOC_MAP:
        return False
    if T.u_type[u] == UNKNOWN and not S.captured[g, u] and (S.loss_unknown_done[g] or kind != LOSS_RANGED):
        return False
    return True


@njit(cache=True)
def start_loss(T, S, g, owner, kind, hits, h):
    """Hits on hex h (or, for Melee attackers, on the attacking units) wait for ``owner``."""
    S.loss_hits[g] = hits
    S.loss_side[g] = owner
    S.loss_kind[g] = kind
    S.loss_unknown_done[g] = False
    for u in range(T.u_side.shape[0]):
        if kind == LOSS_MELEE_ON_ATTACKER:
            S.loss_pool[g, u] = S.mel_att[g, u] and S.unit_loc[g, u] == LOC_MAP
        else:
            S.loss_pool[g, u] = S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == h
    S.phase[g] = LOSS


@njit(cache=True)
def loss_candidates(T, S, g, out):
    """The units that may take the next hit, in index order (their SLOT order); returns the count."""
    n = 0
    for u in range(T.u_side.shape[0]):
        if may_take_hit(T, S, g, u, S.loss_kind[g]) and n < out.shape[0]:
            out[n] = u
            n += 1
    return n


@njit(cache=True)
def loss_done(T, S, g):
    """The hits waiting are all placed (or nobody is left to take them)."""
    buf = np.empty(MAX_SLOTS, dtype=np.int64)
    if S.loss_hits[g] > 0 and loss_candidates(T, S, g, buf) > 0:
        return False
    if S.loss_hits[g] > 0 and S.loss_kind[g] == LOSS_MELEE_ON_ATTACKER:
        # 8.2.1.1: past the attackers, hits fall on the other units of their hexes
        for u in range(T.u_side.shape[0]):
            S.loss_pool[g, u] = False
            if S.unit_loc[g, u] == LOC_MAP and not S.mel_att[g, u]:
                for i in range(6):
                    if S.mel_from[g, i] >= 0 and S.unit_hex[g, u] == S.mel_from[g, i]:
                        S.loss_pool[g, u] = True
        S.loss_kind[g] = LOSS_EXCESS
        if loss_candidates(T, S, g, buf) > 0:
            return False
    return True


@njit(cache=True)
def take_hit(T, S, g, a):
    """LOSS (8.0): the owner puts the next hit on the unit of slot ``a``; the other units of the
    attackers' hexes take the excess as attackers would (8.2.1.1)."""
    buf = np.empty(MAX_SLOTS, dtype=np.int64)
    loss_candidates(T, S, g, buf)
    kind = LOSS_MELEE_ON_ATTACKER if S.loss_kind[g] == LOSS_EXCESS else S.loss_kind[g]
    hit_unit(T, S, g, buf[a - T.nbr.shape[0] - SLOT_0], kind)
    S.loss_hits[g] -= 1


@njit(cache=True)
def loss_mask(T, S, g, m):
    """LOSS (8.0): a slot for each unit that may take the next hit."""
    buf = np.empty(MAX_SLOTS, dtype=np.int64)
    allow_slots(m, T.nbr.shape[0], loss_candidates(T, S, g, buf))
