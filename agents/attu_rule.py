"""Rule-based Attu players: a U.S. rule player and the Japanese section-13 player.

U.S. (the issue's brief): stages and lands toward the nearest Victory Hex, refits when its losses
are high or reinforcements wait, advances on the Victory Hexes it does not hold while staying in
supply, masses before declaring Melee, fires when it cannot usefully close, never declares night.

Japan (13.0 "move the Japanese units in their own best interest", with the section-13 system as
its standing orders):

* 13.2.1: Unknowns on Victory Hexes never move; free set-ups put units between the landing
  zones and the Victory Hexes ("in the way of the U.S. advance");
* 13.2: airpower goes to the defence of the Victory Hexes, against the strongest U.S. stack near
  one;
* 13.2.2: units near a threatened Victory Hex fire on the nearest U.S. unit until engaged;
* best interest: units otherwise hold (face-down units stay hidden, 2.5), move to man a threatened
  empty Victory Hex, and declare Melee only with the odds (or at night, or on a landing zone of
  3.8.1).

Both read only what their side may know: U.S. decisions use positions, counts and face-up values,
never a face-down unit's type or an Unknown's table.  Every decision of every game of a batch is
taken by one compiled kernel (``decide_batch``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from wargym.agents import baselines
from wargym.attu.actions import (
    AIR, END, HOLD, LZ_0, MAX_BATTALIONS, MELEE_0, NO, REINF_0, RESERVE, SLOT_0, STRIKE, YES,
)
from wargym.attu.board import counters_in, hex_side, occupancy, side_of
from wargym.attu.defaults import minor_decision
from wargym.attu.movement import FAR
from wargym.attu.scenario import ARTILLERY, JAPAN, LANDING_ZONES, UNKNOWN, US
from wargym.attu.setup import placement_unit
from wargym.attu.state import (
    ACT_ORDER, ACT_SELECT, ADVANCE, AIR_TARGET, DEPOT, INDEPENDENT, JP_SETUP, LOC_MAP, LOC_RESERVE,
    LOC_STAGING, MELEE_PICK, NIGHT_DECISION, REFIT_ALLOC, REFIT_DECISION, REINF_PICK, REINF_ZONE,
    RETREAT_OPTION, SLOT, SWAP_PICK, SWAP_PLACE, UNKNOWN_DEST, UNKNOWN_PICK, US_STAGING, US_WAIT,
    as_arrays,
)
from wargym.kernel import first_legal

REFIT_CASUALTIES = 8      # U.S.: refit once the Casualty Track reaches this
THREAT_RANGE = 4          # 13.2.2: a U.S. unit this close to a Victory Hex threatens it
FIRE_RANGE_INFANTRY = 2   # U.S. infantry fires (rather than moving) at Japanese this close


# ----------------------------------------------------------------------------------- shared help
@njit(cache=True)
def steps_in(T, S, g, h, side):
    n = 0
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == h and side_of(T, S, g, u) == side:
            n += S.unit_steps[g, u]
    return n


@njit(cache=True)
def melee_power(T, S, g, u):
    k = S.unit_steps[g, u]
    return T.u_melee[u, k - 1] if k > 0 else 0


@njit(cache=True)
def power_against(T, S, g, t, side, u):
    """Melee dice ``side`` can bring against hex t: unit u plus every unit adjacent to t that has
    not acted or already declared against t."""
    n = 0
    for v in range(T.u_side.shape[0]):
        if S.unit_loc[g, v] != LOC_MAP or side_of(T, S, g, v) != side or T.dist[S.unit_hex[g, v], t] != 1:
            continue
        if v == u or not S.acted[g, v] or S.melee_target[g, v] == t:
            n += melee_power(T, S, g, v)
    return n


@njit(cache=True)
def melee_choice(T, S, g, m, u):
    """The Declare Melee direction for unit u with the best odds, or -1 when none is good enough.
    U.S.: three melee dice massed for every Japanese counter in the hex (it cannot see what they
    are).  Japan: its dice against twice the U.S. steps, readier at night and against a landing
    zone it must hold to win (3.8.1)."""
    H = T.nbr.shape[0]
    side = side_of(T, S, g, u)
    a = S.unit_hex[g, u]
    best, best_score = -1, 0
    for d in range(6):
        if not m[H + MELEE_0 + d]:
            continue
        t = T.nbr[a, d]
        power = power_against(T, S, g, t, side, u)
        if side == US:
            score = power - 3 * counters_in(T, S, g, t, JAPAN)
        else:
            score = power - 2 * steps_in(T, S, g, t, US) + (2 if S.night[g] else 0)
            if 3 <= T.lz_of_hex[t] <= 6:
                score += 2
        if score >= best_score:
            best, best_score = H + MELEE_0 + d, score + 1
    return best


@njit(cache=True)
def open_goal(T, S, g, gd, h):
    """Cost from hex h to the nearest target hex the U.S. does not hold (0 when all are held)."""
    best = FAR
    any_open = False
    for k in range(T.target_hex.shape[0]):
        if hex_side(T, S, g, T.target_hex[k]) != US:
            any_open = True
            best = min(best, gd[k, h])
    return best if any_open else 0


@njit(cache=True)
def enemy_near(T, occ, h, side, radius):
    """Distance to the nearest enemy-held hex within ``radius`` of h, or radius + 1."""
    best = radius + 1
    for i in range(T.near3.shape[1] if radius <= 3 else 0):
        x = T.near3[h, i]
        if x < 0:
            break
        if occ[x] == 1 - side:
            best = min(best, T.dist[h, x])
    if radius > 3:
        for x in range(occ.shape[0]):
            if occ[x] == 1 - side and T.dist[h, x] <= radius:
                best = min(best, T.dist[h, x])
    return best


# ------------------------------------------------------------------------------------------- U.S.
@njit(cache=True)
def us_refit(T, S, g):
    """Refit (9.0) when the Casualty Track is high (its steps come back), or every third turn
    while reinforcements wait in the box."""
    waiting = 0
    for u in range(T.u_side.shape[0]):
        if T.u_side[u] == US and T.u_in_play[u] and S.unit_loc[g, u] == LOC_RESERVE:
            waiting += 1
    return S.casualties[g] >= REFIT_CASUALTIES or (waiting > 0 and S.turn[g] >= 2 and S.turn[g] % 3 == 2)


@njit(cache=True)
def us_zone(T, S, g, m, gd):
    """The landing zone offered nearest the open targets with room left (9.2.2 capacity)."""
    H = T.nbr.shape[0]
    best, best_score = -1, FAR
    for k in range(LANDING_ZONES):
        if not m[H + LZ_0 + k]:
            continue
        staged = 0
        for u in range(T.u_side.shape[0]):
            if S.unit_loc[g, u] == LOC_STAGING and S.unit_hex[g, u] == k:
                staged += S.unit_steps[g, u]
        score = open_goal(T, S, g, gd, T.lz_hex[k]) + (1000 if staged + 4 > T.lz_cap[k] else 0)  # 9.2.2: no scatter
        if score < best_score:
            best, best_score = H + LZ_0 + k, score
    return best if best >= 0 else first_legal(m)


@njit(cache=True)
def us_select(T, S, g, m, occ, gd):
    """Airpower first; then units next to the enemy, then artillery, then the rest, front first."""
    H = T.nbr.shape[0]
    if m[H + STRIKE]:
        return H + STRIKE
    if m[H + AIR]:
        return H + AIR
    best, best_score = -1, -FAR
    for h in range(H):
        if not m[h]:
            continue
        score = -open_goal(T, S, g, gd, h)
        if enemy_near(T, occ, h, US, 1) == 1:
            score += 20000
        for u in range(T.u_side.shape[0]):
            if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == h and T.u_type[u] == ARTILLERY \
                    and T.u_side[u] == US and not S.acted[g, u]:
                score += 10000
                break
        if score > best_score:
            best, best_score = h, score
    return best if best >= 0 else H + END


@njit(cache=True)
def us_order(T, S, g, m, occ, gd):
    H = T.nbr.shape[0]
    u = S.selected[g]
    a = S.unit_hex[g, u]
    best = melee_choice(T, S, g, m, u)
    if best >= 0:
        return best
    # Ranged: artillery at the Japanese hex nearest the open targets; infantry only at close range
    fire, fire_score = -1, FAR
    for t in range(H):
        if m[t] and occ[t] == JAPAN:
            if T.u_type[u] != ARTILLERY and T.dist[a, t] > FIRE_RANGE_INFANTRY:
                continue
            score = open_goal(T, S, g, gd, t) * 4 + T.dist[a, t] - counters_in(T, S, g, t, JAPAN)
            if score < fire_score:
                fire, fire_score = t, score
    if fire >= 0:
        return fire
    # a lone unit holding a target hex stays
    for k in range(T.target_hex.shape[0]):
        if T.target_hex[k] == a and counters_in(T, S, g, a, US) <= 1:
            return H + HOLD
    # Move toward the nearest open target; artillery keeps a hex between itself and the enemy
    here = open_goal(T, S, g, gd, a)
    dest, dest_score = -1, here * 4
    for h in range(H):
        if not m[h] or occ[h] == JAPAN:
            continue
        if T.u_type[u] == ARTILLERY and enemy_near(T, occ, h, US, 1) <= 1:
            continue
        score = open_goal(T, S, g, gd, h) * 4 + (1 if counters_in(T, S, g, h, US) == 0 else 0)
        if score < dest_score:
            dest, dest_score = h, score
    return dest if dest >= 0 else H + HOLD


@njit(cache=True)
def us_retreat_option(T, S, g):
    """Retreat (8.2.1.3) when the U.S. steps in the Melee are no more than the Japanese ones."""
    us, jp = 0, 0
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] != LOC_MAP:
            continue
        in_it = S.mel_att[g, u] or S.unit_hex[g, u] == S.mel_hex[g]
        if not in_it:
            continue
        if side_of(T, S, g, u) == US:
            us += S.unit_steps[g, u]
        else:
            jp += S.unit_steps[g, u]
    return us <= jp


@njit(cache=True)
def strongest_stack_target(T, S, g, m, occ, side, near_victory):
    """Airpower (8.1.6): the enemy hex with the most steps (13.2: near a Victory Hex first)."""
    H = T.nbr.shape[0]
    best, best_score = -1, -FAR
    for h in range(H):
        if not m[h]:
            continue
        score = steps_in(T, S, g, h, 1 - side) if side == JAPAN else counters_in(T, S, g, h, 1 - side)
        if near_victory:
            for k in range(6):
                if T.dist[h, T.victory_hex[k]] <= 2:
                    score += 100
                    break
        if enemy_near(T, occ, h, 1 - side, 1) == 1:
            score += 10  # enemy next to our units
        if score > best_score:
            best, best_score = h, score
    return best if best >= 0 else first_legal(m)


@njit(cache=True)
def decide_us(T, S, g, m, gd):
    H = T.nbr.shape[0]
    ph = S.phase[g]
    if ph == US_STAGING:
        if not m[H + LZ_0:H + LZ_0 + LANDING_ZONES].any():
            return H + RESERVE
        return us_zone(T, S, g, m, gd)
    if ph == US_WAIT:
        return H + YES
    if ph == REFIT_DECISION:
        return H + YES if us_refit(T, S, g) else H + NO
    if ph == NIGHT_DECISION:
        return H + NO
    if ph == REINF_PICK:
        for k in range(MAX_BATTALIONS):
            if m[H + REINF_0 + k]:
                return H + REINF_0 + k
        return H + END
    if ph == REINF_ZONE:
        return us_zone(T, S, g, m, gd)
    if ph == INDEPENDENT or ph == DEPOT:
        return H + END
    occ = occupancy(T, S, g)
    if ph == ACT_SELECT:
        return us_select(T, S, g, m, occ, gd)
    if ph == ACT_ORDER:
        return us_order(T, S, g, m, occ, gd)
    if ph == AIR_TARGET:
        return strongest_stack_target(T, S, g, m, occ, US, False)
    if ph == RETREAT_OPTION:
        return H + YES if us_retreat_option(T, S, g) else H + NO
    if ph == ADVANCE:
        return H + SLOT_0 if m[H + SLOT_0] else H + END
    if ph == REFIT_ALLOC or ph == SLOT or ph == MELEE_PICK:
        return first_legal(m)
    return minor_decision(T, S, g, m)


# ------------------------------------------------------------------------------------------ Japan
@njit(cache=True)
def threatened_victory(T, occ, h):
    """The Victory Hex within 3 of h that a U.S. unit is within THREAT_RANGE of (13.2.2), or -1."""
    for k in range(6):
        v = T.victory_hex[k]
        if v >= 0 and T.dist[h, v] <= 3 and enemy_near(T, occ, v, JAPAN, THREAT_RANGE) <= THREAT_RANGE:
            return v
    return -1


@njit(cache=True)
def jp_busy(T, S, g, u, occ):
    """A Japanese unit with something to do this step: next to or in range of the U.S., or near a
    threatened Victory Hex."""
    h = S.unit_hex[g, u]
    if enemy_near(T, occ, h, JAPAN, 3) <= 3:
        return True
    return T.u_type[u] != UNKNOWN and threatened_victory(T, occ, h) >= 0


@njit(cache=True)
def jp_select(T, S, g, m, occ):
    H = T.nbr.shape[0]
    if m[H + STRIKE]:
        return H + STRIKE
    if m[H + AIR]:
        return H + AIR
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and m[S.unit_hex[g, u]] and side_of(T, S, g, u) == JAPAN \
                and not S.acted[g, u] and jp_busy(T, S, g, u, occ):
            return S.unit_hex[g, u]
    return H + END


@njit(cache=True)
def on_victory_hex(T, h):
    for k in range(6):
        if T.victory_hex[k] == h:
            return True
    return False


@njit(cache=True)
def jp_order(T, S, g, m, occ):
    H = T.nbr.shape[0]
    u = S.selected[g]
    a = S.unit_hex[g, u]
    best = melee_choice(T, S, g, m, u)
    if best >= 0:
        return best
    # 13.2.2: Ranged Combat against the nearest U.S. unit
    fire, fire_d = -1, FAR
    for t in range(H):
        if m[t] and occ[t] == US and T.dist[a, t] < fire_d:
            fire, fire_d = t, T.dist[a, t]
    if fire >= 0:
        return fire
    # 13.2.1: Unknowns on Victory Hexes do not move; the last defender of a Victory Hex stays
    if on_victory_hex(T, a) and (T.u_type[u] == UNKNOWN or counters_in(T, S, g, a, JAPAN) <= 1):
        return H + HOLD
    # man the nearest threatened Victory Hex that no Japanese unit holds
    v = threatened_victory(T, occ, a)
    if v >= 0 and occ[v] != JAPAN:
        dest, dest_d = -1, T.dist[a, v]
        for h in range(H):
            if m[h] and occ[h] != US and T.dist[h, v] < dest_d:
                dest, dest_d = h, T.dist[h, v]
        if dest >= 0:
            return dest
    return H + HOLD


@njit(cache=True)
def jp_setup(T, S, g, m):
    """Free and solitaire set-ups (12.4, 13.2.1): each unit on the legal hex that best lies
    between a landing zone and its Victory Hex (the Victory Hexes taken in turn) -- "in the way of
    the U.S. advance"."""
    H = T.nbr.shape[0]
    v = T.victory_hex[placement_unit(T, S, g) % 6]
    best, best_score = -1, FAR
    for h in range(H):
        if not m[h]:
            continue
        lz = FAR
        for k in range(LANDING_ZONES):
            if T.lz_hex[k] >= 0:
                lz = min(lz, T.dist[h, T.lz_hex[k]])
        score = 2 * T.dist[h, v] + lz
        if score < best_score:
            best, best_score = h, score
    return best if best >= 0 else first_legal(m)


@njit(cache=True)
def jp_advance(T, S, g, m):
    """Advance one unit into the vacated hex (8.2.1.4): it may capture artillery there."""
    H = T.nbr.shape[0]
    if counters_in(T, S, g, S.mel_hex[g], JAPAN) == 0 and m[H + SLOT_0]:
        return H + SLOT_0
    return H + END


@njit(cache=True)
def decide_japan(T, S, g, m):
    H = T.nbr.shape[0]
    ph = S.phase[g]
    if ph == JP_SETUP:
        return jp_setup(T, S, g, m)
    if ph == UNKNOWN_PICK or ph == SWAP_PICK:
        return H + END if m[H + END] else first_legal(m)
    if ph == UNKNOWN_DEST:
        return S.unit_hex[g, S.selected[g]]  # always offered: stay put
    if ph == SWAP_PLACE:
        return H + END if m[H + END] else first_legal(m)
    occ = occupancy(T, S, g)
    if ph == ACT_SELECT:
        return jp_select(T, S, g, m, occ)
    if ph == ACT_ORDER:
        return jp_order(T, S, g, m, occ)
    if ph == AIR_TARGET:
        return strongest_stack_target(T, S, g, m, occ, JAPAN, True)
    if ph == ADVANCE:
        return jp_advance(T, S, g, m)
    if ph == SLOT or ph == MELEE_PICK:
        return first_legal(m)
    return minor_decision(T, S, g, m)


# ------------------------------------------------------------------------------------------ batch
@njit(cache=True)
def decide_batch(T, S, side, gd, out):
    """An action for every game of the batch where ``side`` is to decide (0 elsewhere)."""
    for g in range(out.shape[0]):
        m = S.legal_action_mask[g]
        if S.terminated[g] or S.truncated[g] or S.current_player[g] != side:
            out[g] = 0
            continue
        a = decide_us(T, S, g, m, gd) if side == US else decide_japan(T, S, g, m)
        out[g] = a if 0 <= a < m.shape[0] and m[a] else first_legal(m)  # never a masked action


# ------------------------------------------------------------------------------------------ agent
class AttuRuleAgent:
    """Rule-based Attu player for either side (see the module docstring)."""

    def __init__(self, side: str | None = None):
        self.side = side

    def act(self, core, state, player: int) -> np.ndarray:
        out = np.zeros(state.phase.shape[0], dtype=np.int64)
        decide_batch(core.tables, as_arrays(state), int(player), core.goals[US], out)
        return out

    def __repr__(self) -> str:
        return f"AttuRuleAgent(side={self.side!r})"


@baselines.register("attu", "us")
def _us_rule(**kwargs) -> AttuRuleAgent:
    return AttuRuleAgent("us", **kwargs)


@baselines.register("attu", "japan")
@baselines.register("attu", "japan", "solitaire")  # opponent="solitaire": with the 13.0 core
def _japan_rule(**kwargs) -> AttuRuleAgent:
    return AttuRuleAgent("japan", **kwargs)
