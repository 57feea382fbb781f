"""Who is where: sides, occupancy, stacking (4.0) and Zones of Control (6.0).

Captured U.S. artillery (8.2.1.4) fights for the Japanese, so a unit's side is read through
``side_of``.  Stacking is checked for a hex plus a unit about to enter it; in a Landing Zone the
zone's capacity replaces the normal limits (9.2.1).
"""

import numpy as np

from wargym.attu.events import CASUALTY_TRACK, DIE, NOT_LOGGED, SECRET_DIE, SECRET_PURPOSES
from wargym.attu.scenario import ARTILLERY, DEPOT, INFANTRY, JAPAN, UNKNOWN, US
from wargym.attu.state import LOC_MAP
from wargym.events import emit
from wargym.jit import njit
from wargym.rng import roll as roll_die


DIE_SIDES = 10  # the d10; its '0' reads as 10 (1.2)


@njit(cache=True)
def roll(S, g, purpose):
    """One d10, 1-10 (1.2: a '0' reads as 10; a die forced by a test comes first), kept in
    ``last_dice`` for the record and logged with what it is thrown for (``purpose``, a P_* of
    events.py; a roll on an Unknown's table is kept from the U.S. (2.5): not in the log it reads,
    and not in ``last_dice``, which every side sees; ``NOT_LOGGED``: its caller logs it when it
    should)."""
    d = roll_die(S, g, DIE_SIDES)
    if purpose < SECRET_PURPOSES and S.last_n[g] < S.last_dice.shape[1]:
        S.last_dice[g, S.last_n[g]] = d
        S.last_n[g] += 1
    if purpose != NOT_LOGGED:
        emit(S, g, SECRET_DIE if purpose >= SECRET_PURPOSES else DIE, purpose, d)
    return d


@njit(cache=True)
def spots(T, S, g, a, t):
    """A unit in hex a may see to fire at (or call artillery on) hex t (8.1.1, 8.1.2)."""
    return T.dist[a, t] <= T.spotting[S.weather[g]] and T.sight[a, t]


@njit(cache=True)
def side_of(T, S, g, u):
    return JAPAN if S.captured[g, u] else T.u_side[u]


@njit(cache=True)
def hex_side(T, S, g, h):
    """Side of the units in hex h (-1 empty); the two sides never share a hex."""
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == h:
            return side_of(T, S, g, u)
    return -1


@njit(cache=True)
def counters_in(T, S, g, h, side):
    """How many of ``side``'s counters stand in hex h (what either player sees of a stack)."""
    n = 0
    for v in range(T.u_side.shape[0]):
        if S.unit_loc[g, v] == LOC_MAP and S.unit_hex[g, v] == h and side_of(T, S, g, v) == side:
            n += 1
    return n


@njit(cache=True)
def occupancy(T, S, g):
    """int8[H]: side occupying each hex, -1 empty."""
    occ = np.full(T.nbr.shape[0], -1, dtype=np.int8)
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP:
            occ[S.unit_hex[g, u]] = side_of(T, S, g, u)
    return occ


@njit(cache=True)
def zoc_of(T, S, g, side):
    """bool[H]: hexes in the ZOC of ``side``'s units (6.0: every unit, Unknowns included, into
    each neighbour it could move into; not across cliffs)."""
    z = np.zeros(T.nbr.shape[0], dtype=np.bool_)
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and side_of(T, S, g, u) == side:
            h = S.unit_hex[g, u]
            for d in range(6):
                if T.zoc_reach[h, d]:
                    z[T.nbr[h, d]] = True
    return z


@njit(cache=True)
def us_stack_ok(T, S, g, h, add_unit, add_steps):
    """4.1 / 9.2.1: may hex h hold its U.S. units plus ``add_steps`` steps of ``add_unit``?"""
    total = add_steps
    batt = T.u_batt[add_unit] if add_unit >= 0 else -1
    single = True
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == h and u != add_unit and side_of(T, S, g, u) == US:
            total += S.unit_steps[g, u]
            b = T.u_batt[u]
            if b >= 0:  # Independent units belong to every battalion (4.1)
                if batt < 0:
                    batt = b
                elif b != batt:
                    single = False
    lz = T.lz_of_hex[h]
    if lz >= 0:
        return total <= T.lz_cap[lz]
    return total <= (12 if single else 8)


@njit(cache=True)
def jp_stack_ok(T, S, g, h, add_unit):
    """4.2: up to three Infantry or Artillery units (any number of Unknowns)."""
    if T.u_type[add_unit] == UNKNOWN and not S.captured[g, add_unit]:
        return True
    n = 1
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == h and u != add_unit and side_of(T, S, g, u) == JAPAN:
            if T.u_type[u] != UNKNOWN or S.captured[g, u]:
                n += 1
    return n <= 3


@njit(cache=True)
def stack_ok(T, S, g, h, u):
    if side_of(T, S, g, u) == US:
        return us_stack_ok(T, S, g, h, u, S.unit_steps[g, u])
    return jp_stack_ok(T, S, g, h, u)


@njit(cache=True)
def is_infantry_like(T, S, g, u):
    """Units that may Declare Melee (8.2): not Artillery, not Supply Depots."""
    t = T.u_type[u]
    return not S.captured[g, u] and t != ARTILLERY and t != DEPOT


@njit(cache=True)
def counts_on_casualty_track(T, u):
    """8.4: only U.S. infantry steps (Independent Infantry too: 9.3) go on the Casualty Track."""
    return T.u_side[u] == US and T.u_type[u] == INFANTRY


@njit(cache=True)
def record_casualties(T, S, g, u, n):
    """8.4: n steps lost by unit u go on the Casualty Track if they count there; the marker stops
    at the track's last box (30: 3.8.2 ends the game there), even when one event loses more."""
    if counts_on_casualty_track(T, u):
        S.casualties[g] = min(S.casualties[g] + n, T.casualty_max)
        emit(S, g, CASUALTY_TRACK, n, S.casualties[g])


@njit(cache=True)
def hex_stats(T, S, g, occ, us_steps, us_batt, jp_n):
    """Per-hex aggregates for O(1) stacking checks: side, U.S. steps, U.S. battalion (-1 none or
    independents only, -2 mixed), Japanese Infantry/Artillery count (4.0)."""
    occ[:] = -1
    us_steps[:] = 0
    us_batt[:] = -1
    jp_n[:] = 0
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] != LOC_MAP:
            continue
        h = S.unit_hex[g, u]
        side = side_of(T, S, g, u)
        occ[h] = side
        if side == US:
            us_steps[h] += S.unit_steps[g, u]
            b = T.u_batt[u]
            if b >= 0:
                if us_batt[h] == -1:
                    us_batt[h] = b
                elif us_batt[h] != b:
                    us_batt[h] = -2
        elif T.u_type[u] != UNKNOWN or S.captured[g, u]:
            jp_n[h] += 1


@njit(cache=True)
def stack_ok_fast(T, S, g, h, u, us_steps, us_batt, jp_n):
    """``stack_ok`` for a unit u not in hex h, from ``hex_stats``."""
    if side_of(T, S, g, u) == US:
        total = us_steps[h] + S.unit_steps[g, u]
        lz = T.lz_of_hex[h]
        if lz >= 0:
            return total <= T.lz_cap[lz]
        b = T.u_batt[u]
        single = us_batt[h] != -2 and (b < 0 or us_batt[h] < 0 or us_batt[h] == b)
        return total <= (12 if single else 8)
    if T.u_type[u] == UNKNOWN and not S.captured[g, u]:
        return True
    return jp_n[h] + 1 <= 3
