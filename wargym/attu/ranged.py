"""Ranged Combat (8.1) and Airpower (8.1.6); the die roll modifiers of 8.3.

A firer needs the target hex within its range and Spotting Distance (3 hexes; Fog 1; Williwaw none,
8.1.1) and a line of sight (precomputed, ``Tables.sight``), unless it is artillery called in by any
friendly unit that has both (8.1.4).  Unknowns fire as the Infantry they reveal (2.5; interpretation:
every Infantry unit the roll gives fires, with the Infantry range of 2).  A U.S. attack on a hex
mixing face-up and face-down units names its target unit first (8.0; interpretation: "a face-down
unit" is one of them at random, since the U.S. cannot tell them apart).  Airpower attacks are
announced hex by hex and then rolled one die each; a modified 2 or less hits the attacker's nearest
own unit, ties chosen by the U.S. by day and by Japan at night (8.1.6).

An attack (``resolve_ranged``, ``air_run``) leaves its hits to their owner (losses.py); once they are
placed, ``finish_attack`` applies a 105mm battery's Soft Ground losses (8.1.5) and checks the zones
and victory.  The decisions: a fire order in ACT_ORDER (``fire``), RANGED_TARGET (``name_target``),
AIR_TARGET (``announce``), STRIKE (``strike``) and FRIENDLY_FIRE.
"""

import numpy as np

from wargym.attu.actions import MAX_SLOTS, SLOT_0, allow_slots
from wargym.attu.board import occupancy, roll, side_of, spots
from wargym.attu.events import (
    AIR_ATTACK, AIR_WASTED, NO_EFFECT, P_AIR_ATTACK, P_RANGED, R_FRIENDLY, R_FRIENDLY_LOST, R_HIT, R_MISS, RANGED_FIRE,
    REVEALED, SOFT_GROUND,
)
from wargym.attu.fog import reveal_unknowns, seen
from wargym.attu.losses import hit_unit, start_loss
from wargym.attu.scenario import ARTILLERY, FOG, JAPAN, RAIN, UNKNOWN, US, WILLIWAW
from wargym.attu.state import (
    ACT_SELECT, FRIENDLY_FIRE, LOC_MAP, LOSS_RANGED, LOSS_SOFT_GROUND, M_FACE_DOWN, M_FOG, M_HIGHER, M_NIGHT, M_RAIN,
    M_SUPPLY, M_WILLIWAW, RANGED_TARGET,
)
from wargym.attu.supply import in_supply, supply_distance
from wargym.attu.victory import check_immediate, update_zones
from wargym.events import emit
from wargym.jit import njit
from wargym.rng import uniform

UNKNOWN_RANGE = 2  # the Infantry an Unknown reveals fire at range 2 (counters.yaml)


@njit(cache=True)
def weather_modifier(T, S, g, table):
    w = S.weather[g]
    if w == WILLIWAW:
        return table[M_WILLIWAW]
    if w == FOG:
        return table[M_FOG]
    if w == RAIN:
        return table[M_RAIN]
    return 0


@njit(cache=True)
def is_hit(T, d, modified):
    """8.0: natural roll d, ``modified`` by 8.3, is a hit (charts.yaml ``combat``: a modified 7 or
    more, or a natural '0' whatever the modifiers)."""
    return d == T.natural_hit or modified >= T.hit_on


@njit(cache=True)
def fire_dice(T, S, g, n, modifier, fixed_low, purpose):
    """Roll n dice at ``modifier`` (8.0) for ``purpose`` (the fire, events.py); returns (hits, the
    natural 1s and 2s that cost a fixed 105mm battery a step, 8.1.5)."""
    hits = 0
    low = 0
    for _ in range(n):
        d = roll(S, g, purpose)
        if is_hit(T, d, d + modifier):
            hits += 1
        if fixed_low and d <= T.soft_ground_at:
            low += 1
    return hits, low


@njit(cache=True)
def ranged_dice(T, S, g, u):
    if T.u_type[u] == UNKNOWN and not S.captured[g, u]:
        return 1  # fires as the Infantry it reveals
    k = S.unit_steps[g, u]
    return T.u_ranged[u, k - 1] if k > 0 else 0


@njit(cache=True)
def unit_range(T, S, g, u):
    if T.u_type[u] == UNKNOWN and not S.captured[g, u]:
        return UNKNOWN_RANGE
    return T.u_range[u]


@njit(cache=True)
def called_in(T, S, g, side, t):
    """8.1.4: some unit of ``side`` sees hex t within Spotting Distance (artillery may be called
    in on it)."""
    for v in range(T.u_side.shape[0]):
        if S.unit_loc[g, v] == LOC_MAP and side_of(T, S, g, v) == side and spots(T, S, g, S.unit_hex[g, v], t):
            return True
    return False


@njit(cache=True)
def may_fire_at(T, S, g, u, t, occ):
    """8.1: unit u may make a Ranged attack on hex t."""
    side = side_of(T, S, g, u)
    if occ[t] != 1 - side or S.weather[g] == WILLIWAW:
        return False
    a = S.unit_hex[g, u]
    if T.dist[a, t] > unit_range(T, S, g, u):
        return False
    if spots(T, S, g, a, t):
        return True
    return T.u_type[u] == ARTILLERY and called_in(T, S, g, side, t)


@njit(cache=True)
def ranged_modifier(T, S, g, u, t, supplied, face_down_target):
    """8.3, Ranged column."""
    m = weather_modifier(T, S, g, T.mod_ranged)
    if T.u_type[u] != ARTILLERY and T.level[t] > T.level[S.unit_hex[g, u]]:
        m += T.mod_ranged[M_HIGHER]
    if not supplied:
        m += T.mod_ranged[M_SUPPLY]
    if face_down_target:
        m += T.mod_ranged[M_FACE_DOWN]
    return m


@njit(cache=True)
def air_modifier(T, S, g, t):
    """8.3, Airpower column."""
    m = weather_modifier(T, S, g, T.mod_air)
    if S.night[g]:
        m += T.mod_air[M_NIGHT]
    if all_face_down(T, S, g, t):
        m += T.mod_air[M_FACE_DOWN]
    return m


@njit(cache=True)
def all_face_down(T, S, g, t):
    any_unit = False
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == t:
            any_unit = True
            if not S.face_down[g, u]:
                return False
    return any_unit


@njit(cache=True)
def mixed_target(T, S, g, t):
    """8.0: a hex with face-up and face-down Japanese units."""
    up = False
    down = False
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == t and side_of(T, S, g, u) == JAPAN:
            if S.face_down[g, u]:
                down = True
            else:
                up = True
    return up and down


@njit(cache=True)
def nearest_friends(T, S, g, side, t, out):
    """Mark the hexes of ``side``'s units nearest to hex t (8.1.6 friendly fire); returns count."""
    best = 10000
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and side_of(T, S, g, u) == side:
            best = min(best, T.dist[S.unit_hex[g, u], t])
    n = 0
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and side_of(T, S, g, u) == side and T.dist[S.unit_hex[g, u], t] == best:
            h = S.unit_hex[g, u]
            if not out[h]:
                out[h] = True
                n += 1
    return n


@njit(cache=True)
def random_face_down_unit(T, S, g, t):
    n = 0
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == t and S.face_down[g, u]:
            n += 1
    k = uniform(S, g, n)
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == t and S.face_down[g, u]:
            if k == 0:
                return u
            k -= 1
    return -1


# ------------------------------------------------------------------------------- resolution
@njit(cache=True)
def face_up_targets(T, S, g, t, out):
    """8.0: the face-up units of hex t the U.S. may name (the last slot is "a face-down unit")."""
    n = 0
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == t and not S.face_down[g, u] and n < out.shape[0] - 1:
            out[n] = u
            n += 1
    return n


@njit(cache=True)
def resolve_ranged(T, S, g, u, t, target):
    """8.1: unit u (an Unknown: the Infantry it reveals) fires at hex t; ``target``: the unit the
    U.S. named in a mixed hex (8.0), -1 otherwise.  The hits wait in LOSS for their owner, or go
    at once to the named unit: then True, and the caller goes on as after any hits placed."""
    side = side_of(T, S, g, u)
    a = S.unit_hex[g, u]
    firers = np.zeros(T.u_side.shape[0], dtype=np.bool_)
    if T.u_type[u] == UNKNOWN and not S.captured[g, u]:
        before = np.zeros(T.u_side.shape[0], dtype=np.bool_)
        for v in range(T.u_side.shape[0]):
            before[v] = S.unit_loc[g, v] == LOC_MAP and S.unit_hex[g, v] == a
        reveal_unknowns(T, S, g, a, False)
        for v in range(T.u_side.shape[0]):
            if S.unit_loc[g, v] == LOC_MAP and S.unit_hex[g, v] == a and not before[v]:
                firers[v] = True
    else:
        firers[u] = True
        if side == JAPAN and T.u_type[u] == ARTILLERY and not S.captured[g, u] and called_in(T, S, g, US, a) \
                and S.face_down[g, u]:
            S.face_down[g, u] = False  # 2.5: only a gun out of the U.S. units' sight stays face down
            seen(S, g, u)
            emit(S, g, REVEALED, u, a)
    S.acted[g, u] = True
    dist = supply_distance(T, S, g) if side == US else np.zeros(1, dtype=np.int32)
    face_down = False
    if target >= 0:
        face_down = S.face_down[g, target]
    else:
        face_down = side == US and all_face_down(T, S, g, t)
    hits = 0
    S.last_n[g] = 0
    S.soft_unit[g] = -1
    S.soft_hits[g] = 0
    for v in range(T.u_side.shape[0]):
        if not firers[v]:
            continue
        S.acted[g, v] = True
        supplied = side != US or in_supply(T, S, g, v, dist)
        mod = ranged_modifier(T, S, g, v, t, supplied, face_down)
        fixed = T.u_fixed[v] and not S.captured[g, v]
        n = ranged_dice(T, S, g, v)
        h, low = fire_dice(T, S, g, n, mod, fixed, P_RANGED)
        emit(S, g, RANGED_FIRE, v, a, t, n, mod, h)
        hits += h
        if low > 0:
            S.soft_unit[g] = v
            S.soft_hits[g] = low
    if target >= 0:
        placed = min(hits, max(S.unit_steps[g, target], 1))
        for i in range(hits):
            if S.terminated[g]:
                break
            if i < placed and S.unit_loc[g, target] == LOC_MAP:
                S.loss_kind[g] = LOSS_RANGED
                hit_unit(T, S, g, target, LOSS_RANGED)
            else:
                emit(S, g, NO_EFFECT)  # 8.0: excess hits are lost
        return True
    start_loss(T, S, g, 1 - side, LOSS_RANGED, hits, t)
    return False


@njit(cache=True)
def air_run(T, S, g):
    """8.1.6: the announced Airpower attacks, one die each, in the order announced."""
    side = S.acting[g]
    while S.air_i[g] < S.air_n[g]:
        t = S.air_target[g, S.air_i[g]]
        S.air_i[g] += 1
        enemy = False
        for u in range(T.u_side.shape[0]):
            if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == t and side_of(T, S, g, u) != side:
                enemy = True
        if not enemy:
            emit(S, g, AIR_WASTED, side, t)
            continue  # wasted
        S.last_n[g] = 0
        d = roll(S, g, P_AIR_ATTACK)
        mod = air_modifier(T, S, g, t)
        m = d + mod
        if is_hit(T, d, m):
            emit(S, g, AIR_ATTACK, side, t, mod, R_HIT)
            start_loss(T, S, g, 1 - side, LOSS_RANGED, 1, t)
            return
        if m <= T.friendly_fire_at and has_units_on_map(T, S, g, side):
            # 8.1.6: the hit falls on the nearest friendly unit; with none on the map it is lost
            # (README, "Airpower": the book names no other target)
            emit(S, g, AIR_ATTACK, side, t, mod, R_FRIENDLY)
            S.ff_side[g] = JAPAN if S.night[g] else US
            S.ff_from[g] = t
            S.phase[g] = FRIENDLY_FIRE
            return
        emit(S, g, AIR_ATTACK, side, t, mod, R_FRIENDLY_LOST if m <= T.friendly_fire_at else R_MISS)
    finish_attack(T, S, g)


@njit(cache=True)
def finish_attack(T, S, g):
    """A Ranged or Airpower attack is over: Soft Ground losses (8.1.5), zones, victory."""
    if S.soft_unit[g] >= 0:  # 8.1.5: after the hits are applied
        u = S.soft_unit[g]
        if S.unit_loc[g, u] == LOC_MAP:
            emit(S, g, SOFT_GROUND, u, S.soft_hits[g])
        for _ in range(S.soft_hits[g]):
            if S.unit_loc[g, u] == LOC_MAP:
                hit_unit(T, S, g, u, LOSS_SOFT_GROUND)
        S.soft_unit[g] = -1
        S.soft_hits[g] = 0
    update_zones(T, S, g)
    check_immediate(T, S, g)
    if not S.terminated[g]:
        S.phase[g] = ACT_SELECT


# ---------------------------------------------------------------------------------- decisions
@njit(cache=True)
def fire(T, S, g, u, t):
    """ACT_ORDER (8.1): unit u fires at enemy hex t; a U.S. unit first names its target in a hex
    of face-up and face-down units (8.0, RANGED_TARGET)."""
    if side_of(T, S, g, u) == US and mixed_target(T, S, g, t):
        S.sel_hex[g] = t
        S.phase[g] = RANGED_TARGET
    else:
        resolve_ranged(T, S, g, u, t, -1)


@njit(cache=True)
def fire_mask(T, S, g, u, occ, hexes):
    """ACT_ORDER (8.1, 8.1.3): mark the hexes unit u may fire at; none in a Williwaw."""
    if ranged_dice(T, S, g, u) <= 0 or S.weather[g] == WILLIWAW:
        return
    for v in range(T.u_side.shape[0]):  # the hexes enemy units hold (one may hold several)
        if S.unit_loc[g, v] == LOC_MAP:
            t = S.unit_hex[g, v]
            if not hexes[t] and may_fire_at(T, S, g, u, t, occ):  # it asks whether the enemy holds t
                hexes[t] = True


@njit(cache=True)
def name_target(T, S, g, a):
    """RANGED_TARGET (8.0): the U.S. names a face-up unit of the hex, or in the last slot "a
    face-down unit" (one of them at random: README), and the selected unit fires.  True when
    the hits are placed (``resolve_ranged``)."""
    buf = np.empty(MAX_SLOTS, dtype=np.int64)
    n = face_up_targets(T, S, g, S.sel_hex[g], buf)
    i = a - T.nbr.shape[0] - SLOT_0
    target = buf[i] if i < n else random_face_down_unit(T, S, g, S.sel_hex[g])
    return resolve_ranged(T, S, g, S.selected[g], S.sel_hex[g], target)


@njit(cache=True)
def target_mask(T, S, g, m):
    """RANGED_TARGET (8.0): a slot for each face-up unit of the hex and one for "a face-down unit"."""
    buf = np.empty(MAX_SLOTS, dtype=np.int64)
    allow_slots(m, T.nbr.shape[0], face_up_targets(T, S, g, S.sel_hex[g], buf) + 1)


@njit(cache=True)
def air_pending(S, g):
    """8.1.6: Airpower attacks announced and not yet made (they are made before the step ends)."""
    return S.air_n[g] > 0 and not S.air_struck[g]


@njit(cache=True)
def may_announce(T, S, g, side):
    """8.1.6: ``side`` may announce another Airpower attack: a factor left (3.4), its attacks not
    yet made, and a hex the enemy holds."""
    if S.airpower[g, side] <= 0 or S.air_struck[g] or S.air_n[g] >= S.air_target.shape[1]:
        return False
    occ = occupancy(T, S, g)
    for h in range(T.nbr.shape[0]):
        if occ[h] == 1 - side:
            return True
    return False


@njit(cache=True)
def announce(T, S, g, t):
    """AIR_TARGET (8.1.6): an Airpower attack announced against hex t, for one factor."""
    S.air_target[g, S.air_n[g]] = t
    S.air_n[g] += 1
    S.airpower[g, S.acting[g]] -= 1
    S.phase[g] = ACT_SELECT


@njit(cache=True)
def air_target_mask(T, S, g, hexes):
    """AIR_TARGET (8.1.6): the hexes (not units) the enemy holds; no LOS needed."""
    occ = occupancy(T, S, g)
    for h in range(T.nbr.shape[0]):
        hexes[h] = occ[h] == 1 - S.acting[g]


@njit(cache=True)
def strike(T, S, g):
    """STRIKE (8.1.6): the announced Airpower attacks are made."""
    S.air_struck[g] = True
    S.air_i[g] = 0
    air_run(T, S, g)


@njit(cache=True)
def has_units_on_map(T, S, g, side):
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and side_of(T, S, g, u) == side:
            return True
    return False


@njit(cache=True)
def friendly_fire(T, S, g, h):
    """FRIENDLY_FIRE (8.1.6): the player the book names (the U.S. by day, Japan at night) chose
    hex h among the hexes of the attacker's units nearest the target; the attacker, who owns the
    units there, allocates the hit among them (README, "Airpower": so the U.S. never chooses
    among face-down counters it cannot tell apart, 2.5)."""
    start_loss(T, S, g, S.acting[g], LOSS_RANGED, 1, h)
