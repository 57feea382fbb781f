"""The player's "you choose" among tied U.S. units inside the card system's procedures (P_HIT_PICK).

When the book's priorities leave more U.S. units tied than hits to give ("... then you choose":
6.31, 6.5, 12.6, 12.7, 12.11, 12.91, 18.35 [A]; the events US CP under fire, Naval artillery blast and
Unexpected US naval fire hits position),
``defer_tie`` holds those hits in the state (``tie_*``) instead of giving them to the lowest
unit numbers; the sequence then asks the player (sequence.progress, P_HIT_PICK: one unit a
decision) before the procedure's next step.  ``tie_ok`` says where that may happen: set by the
sequence around a queued position's check (japanese.fire_step) and for the three events
(``event_tie``), only with ``decisions="full"``; elsewhere, and with "major", the lowest unit
numbers take them at once.
"""

import numpy as np

from wargym.events import emit
from wargym.jit import njit
from wargym.peleliu import eventlog as ev
from wargym.peleliu.board import disrupt_us, lose_step, step_loss
from wargym.peleliu.scenario import REG_HQ
from wargym.peleliu.state import OPT_MAJOR, US_BOX, US_MAP, US_TRACK

NO_KEY = 1 << 30  # a unit that cannot be hit
# the effect of a hit held for a tie (S.tie_eff): the fire chart's bits (1 disrupt, 2 step, both
# marking the unit stepped this Fire Phase, 6.34), or
TIE_LEADER = 4     # a leader hit (10.4)
TIE_ARTILLERY = 8  # 6.5 / 12.7: a step, in a landing box too
TIE_CC_STEP = 16   # a close combat event's step (Naval artillery blast): the step alone
TIE_CP = 32        # US CP under fire: the command post whose range is one this turn
TIE_NAVAL = 64     # Unexpected US naval fire hits position: a step without the hero's sacrifice (10.15)


@njit(cache=True)
def defer_tie(T, S, g, key, b, left, eff, no_disrupt):
    """The player's "you choose" (P_HIT_PICK): unit b is first to be hit (``key``: each unit's
    priority, smallest first, + the unit's number u, so key - u is the priority alone); when more
    units share its priority than the ``left`` hits still to land, those hits wait for the
    player's choice among them (S.tie_*; each unit's own effect ``eff``) and True is returned.
    Only where S.tie_ok allows it (module docstring); one tie at a time."""
    if not S.tie_ok[g]:
        return False
    cls = key[b] - b
    n = 0
    for u in range(key.shape[0]):
        if key[u] < NO_KEY and key[u] - u == cls:
            n += 1
    if n <= left:
        return False
    settle_ties(T, S, g)
    emit(S, g, ev.TIE, left, n)
    for u in range(key.shape[0]):
        if key[u] < NO_KEY and key[u] - u == cls:
            S.tie_units[g, u] = True
            S.tie_eff[g, u] = eff[u]
    S.tie_left[g] = left
    S.tie_nodis[g] = no_disrupt
    return True


@njit(cache=True)
def event_tie(T, S, g, key, b, eff):
    """An event's one hit, first on unit b (``key`` as for defer_tie), every tied unit taking the
    effect ``eff``: True when it waits for the player's choice (an event may always leave its tie
    to the player, decisions="full"); False: the caller lands it on b now."""
    S.tie_ok[g] = not T.opts[OPT_MAJOR]
    waits = defer_tie(T, S, g, key, b, 1, np.full(key.shape[0], eff, np.int8), False)
    S.tie_ok[g] = False
    return waits


@njit(cache=True)
def tie_hit(T, S, g, u):
    """Tied unit u takes one of the waiting hits (P_HIT_PICK); when the hits left reach the units
    left, those take them all."""
    land_tie_hit(T, S, g, u)
    n = 0
    for v in range(S.tie_units.shape[1]):
        if S.tie_units[g, v]:
            n += 1
    if S.tie_left[g] == 0 or S.tie_left[g] >= n:
        settle_ties(T, S, g)


@njit(cache=True)
def settle_ties(T, S, g):
    """The waiting hits to the lowest-numbered tied units (the default of ``decisions="major"``)."""
    for u in range(S.tie_units.shape[1]):
        if S.tie_left[g] > 0 and S.tie_units[g, u]:
            land_tie_hit(T, S, g, u)
    for u in range(S.tie_units.shape[1]):
        S.tie_units[g, u] = False
        S.tie_eff[g, u] = 0
    S.tie_left[g] = 0


@njit(cache=True)
def land_tie_hit(T, S, g, u):
    """One waiting hit on tied unit u, with its effect."""
    e = S.tie_eff[g, u]
    emit(S, g, ev.TIED_HIT, u)
    if e == TIE_ARTILLERY:
        S.us_fired[g, u] = True
        step_loss_any(T, S, g, u)
    elif e == TIE_LEADER:
        leader_hit(T, S, g, u)
    elif e == TIE_CC_STEP:
        step_loss(T, S, g, u)
    elif e == TIE_CP:
        S.cp_fire[g] = u
        emit(S, g, ev.CP_FIRE, u)
    elif e == TIE_NAVAL:
        lose_step(T, S, g, u, False)
    else:
        if e & 2:
            S.us_fired[g, u] = True
            step_loss(T, S, g, u)
        if (e & 1) and S.us_loc[g, u] == US_MAP and not S.tie_nodis[g]:
            disrupt_us(T, S, g, u, False)
    S.tie_units[g, u] = False
    S.tie_eff[g, u] = 0
    S.tie_left[g] -= 1


@njit(cache=True)
def leader_hit(T, S, g, u):
    """10.4: a regimental HQ goes two turns ahead on the track (a CP reverts instead, 14.33); an
    infantry/HQ loses a step."""
    if T.us_type[u] == REG_HQ:
        if S.cp[g, u] >= 0:
            S.cp[g, u] = -1
            emit(S, g, ev.COMMAND_POST, u, ev.CP_REVERTS)
            return
        emit(S, g, ev.HQ_AWAY, u, S.turn[g] + 2)
        S.us_loc[g, u] = US_TRACK
        S.us_hex[g, u] = -1
        S.us_track[g, u] = S.turn[g] + 2
        S.us_dis[g, u] = 0
        return
    S.us_fired[g, u] = True
    step_loss(T, S, g, u)


@njit(cache=True)
def step_loss_any(T, S, g, u):
    """A step loss for a unit on the map or in a landing box (5.1, 6.5)."""
    loc = S.us_loc[g, u]
    h = S.us_hex[g, u]
    step_loss(T, S, g, u)
    if loc == US_BOX and S.us_steps[g, u] > 0:
        S.us_loc[g, u] = US_BOX
        S.us_hex[g, u] = h
