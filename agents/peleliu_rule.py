"""Rule-based U.S. baseline for D-Day at Peleliu, registered as ``rule``.

    agent = wargym.agents.baselines.get("peleliu", "us")
    actions = agent.act(core, state, 0)

One compiled function, ``decide_chunk``, takes every decision of a chunk of the batch's games; it
reads only what the U.S. player sees (a Japanese unit's strength and requirements once revealed,
an estimate before) and calls the engine's own rules (us.py: legal orders, targets, attack
validity; combat.attack_result on the revealed values), so the rules exist once.  What a decision
reads of the board is worked out once per decision for every unit's plan (board_facts: the U.S.
units per hex, the exposure to live fire, the objectives; per hex, as they are asked for, the
terms of a move's value all units share and potential fire), the scenario's part once per core
(rule_tables: the positions nearest first from each hex, each hex's neighbours, the hexes a move
can reach), one set of scratch arrays serving a thread's games; the games are shared among the
core's threads as its steps are (KernelCore.run_chunks).

Behaviour by decision:

* Landing: the beach hex with the least live Japanese fire and the fewest units; boxes as listed.
* Action Phase, select: every unit on the map is scored for its best order; the best one above
  zero acts (free units first: a unit in command, an HQ, a hero; the two paid actions go to the
  best remaining plans; regimental HQs last, since a moved HQ gives no more free actions, 7.34);
  END when nothing scores.
    - attack: an adjacent infantry-type unit opens an attack when the chart gives the defender a
      loss: on the revealed values, or for a face-down unit (whose strength and requirements the
      U.S. player does not see, 9.1) on strength 3 times the terrain, the mean of the chart's two
      sections, the visible depth marker's presence; every other unit able to join for free
      joins, paid ones while actions last, none that would leave the attack invalid (8.1); a
      naval / Dauntless marker is added when the weapons are short or the odds poor; RESOLVE
      when valid, else NO;
    - enter for close combat (three or more U.S. steps in the hex): a revealed Japanese unit
      without depth (disrupted first), or a disrupted one with depth; the survivors of a won
      close combat hold the position (8.61); no more than two units end up in the hex (the
      stack partner joins only an empty one), since the survivors past two are eliminated
      after the close combats (7.53) and counted as losses (15.1);
    - barrage: tanks and artillery on revealed targets;
    - move: toward the nearest Japanese-occupied or unheld position, the beach-firing positions
      counted BEACH_PULL hexes nearer (A1, A5, A6 KEY_PULL: goals 1 and 3 of 15.2; A1's field
      covers the beach hex A6 traces communication through) and the positions projecting intense
      fire into them one less; into an empty position nobody holds (worth HOLD x its value);
      away from the live dots (every live position's dot counts: 3 intense, 1 steady), full
      hexes and seven steps in a live field (a concentrated target, 6.35); infantry ending next
      to the enemy; beach units use their free preservation move.  The last unit on a position
      without a garrison stays there, and its stack partner does not leave with another unit.
      Regimental HQs look for a hex outside every potential field of fire from turn 7 (a command
      post from turn 8, 14.1, whose range places the garrisons, 14.4) and next to many units.
* HQ phase: every regimental HQ becomes a command post where it can.
* Bloody Nose Ridge: set-up and relief hexes with the least live fire and room; the HQ phase frees
  the hex with the most disrupted steps; at night the battalion with the fewest steps left is
  relieved; garrisons at the first eligible position.
* Heroes and added steps go to the strongest infantry unit near the enemy / the weakest unit.
* Close combat: withdraw when one step is left against a Japanese unit with depth; steps are
  lost by the unit with the most.
* A tie of Japanese fire or of an event (P_HIT_PICK): the tied unit the hit costs least (a
  disruption before a step, an already disrupted unit first), then the lowest number; a tied
  assault's or overrun's hex (P_ASSAULT_PICK) and the tied units entering counterattack stance
  (P_CA_PICK): the lowest hex.
"""

from __future__ import annotations

import dataclasses
from collections import namedtuple

import numpy as np

from wargym.agents import baselines
from wargym.jit import njit
from wargym.kernel import first_legal
from wargym.peleliu.actions import ATTACK, BARRAGE, DAUNTLESS, END, ENTER, MOVE, NAVAL, NO, RESOLVE, UNIT_0, YES
from wargym.peleliu.board import fire_map, group_units, has_depth, jp_at, jp_map, stack_count
from wargym.peleliu.closecombat import retreat_hex
from wargym.peleliu.combat import attack_result, attack_values
from wargym.peleliu.scenario import (
    INTENSE, R_ADD_DEPTH, R_DEFEAT, R_DEPTH_ELIM, R_JP_DISRUPT, R_REVEAL_DEPTH, R_UNREVEAL, R_US_DISRUPT, R_US_STEP,
    REG_HQ,
)
from wargym.peleliu.state import (
    P_ACT_ORDER, P_ACT_SELECT, P_ATTACK_JOIN, P_ATTRITION, P_CC_RETREAT, P_CC_WITHDRAW, P_CP_RANGE, P_HERO_PLACE,
    P_HIT_PICK, P_HQ_CP, P_INFIL, P_LAND, P_MOVE_DEST, P_SETUP, P_STACK_JOIN, P_STEP_ADD, P_TARGET, P_UNDISRUPT,
    P_WITHDRAW,
    O_ATTACK, O_BARRAGE, O_ENTER, O_MOVE, US_MAP,
)
from wargym.peleliu.ties import TIE_ARTILLERY, TIE_CC_STEP, TIE_LEADER, TIE_NAVAL
from wargym.peleliu.us import (
    attack_target_ok, attack_valid, barrage_targets, destinations, enter_targets, infantryish, is_free,
    is_destination, may_join_attack, may_open_attack, move_scratch, potential_fire,
)

OPEN_MIN = 1.0      # an attack is opened when its expected value reaches this
ESTIMATE = 3        # the strength assumed for a face-down Japanese unit
CONCENTRATED = 2.5      # penalty for making a concentrated target (6.35) in a live field of fire
ENTER_ALONE_DIS = 6.0   # value of entering for close combat: a disrupted unit without depth
ENTER_ALONE = 4.0       # a unit without depth
ENTER_DEPTH_DIS = 2.5   # a disrupted unit with its depth marker
BEACH_PULL = 3          # a beach-firing position draws units as if this many hexes nearer
KEY_PULL = 6            # A1, A5, A6 (pull_of)
CP_TURN = 8             # 14.0: command posts from turn 8
CP_SITE = 6.0           # a regimental HQ's pull to a hex where it may become a command post
HOLD = 6.0              # per position value: the last unit on a position held without a garrison stays

MOVE_REACH = 3          # 7.3: a move's destination is at most three hexes away (rule_tables)

#: the scenario's tables of the rule, made once per core (rule_tables): objective_table's, each
#: hex's neighbours and the hexes within MOVE_REACH of it, in increasing hex number (-1 after them:
#: a scan of these finds what a scan of every hex finds, in the same order)
RuleTables = namedtuple("RuleTables", ["obj_pos", "obj_near", "nbr", "reach"])
#: one decision's arrays, reused by every game of a thread's chunk (make_scratch): occ (jp_map),
#: live (fire_map, live only), buf (a hex mask, all False between uses), kinds and moves (a unit's
#: moves, destinations' working rows), per hex the U.S. units, steps, units counting against
#: stacking and exposure (board_facts), per position whether it is an objective, and the per-hex
#: memos of hex_terms (base, hold) and fire_free (pfire)
Scratch = namedtuple("Scratch", ["occ", "live", "buf", "kinds", "moves", "units", "steps", "stack", "expo", "active",
                                 "base", "hold", "pfire"])


@njit(cache=True)
def result_value(res):
    v = 0.0
    if res & R_DEFEAT:
        v += 10.0
    if res & R_DEPTH_ELIM:
        v += 4.0
    if res & R_JP_DISRUPT:
        v += 2.0
    if res & R_REVEAL_DEPTH:
        v += 2.5
    if res & R_US_DISRUPT:
        v -= 1.5
    if res & R_US_STEP:
        v -= 3.0
    if res & R_ADD_DEPTH:
        v -= 2.0
    if res & R_UNREVEAL:
        v -= 1.0
    return v


@njit(cache=True)
def unrevealed_value(T, S, g, h, j):
    """Expected chart value against a face-down unit from what the U.S. player sees: the attack's
    own strength (attack_values), the terrain and whether a depth marker lies under the unit."""
    strength, weapons, hero = attack_values(T, S, g, h, j)
    if hero:
        strength += 1
    d = ESTIMATE * T.t_defense[T.terrain[h]]
    if T.jp_tank[j]:
        d = ESTIMATE
    row = 0 if strength < d else (1 if strength < 2 * d else (2 if strength < 3 * d else 3))
    col = 1 if has_depth(T, S, g, j) else 0
    return 0.5 * (result_value(T.attack_chart[0, col, row]) + result_value(T.attack_chart[1, col, row]))


@njit(cache=True)
def plan_attack(T, S, g, u, h, commit, live, occ):
    """Value of an attack from u on h with every unit able to join (free ones, then paid ones
    while actions last); with ``commit`` the joiners stay marked in att_units.  occ from jp_map."""
    NU = S.us_loc.shape[1]
    keep = np.zeros(NU, np.bool_)
    for v in range(NU):
        keep[v] = S.att_units[g, v]
    S.att_units[g, u] = True
    spent = 0 if is_free(T, S, g, u) else 1
    for v in range(NU):
        if v != u and may_join_attack(T, S, g, v, h, occ, live):
            c = 0 if is_free(T, S, g, v) else 1
            if c + spent <= S.actions_left[g]:
                S.att_units[g, v] = True
                spent += c
    valid = attack_valid(T, S, g, h)
    value = -99.0
    if valid:
        j = jp_at(T, S, g, h)
        if S.jp_rev[g, j]:
            value = result_value(attack_result(T, S, g, h, j))
        else:
            # face down (9.1): strength and requirements unknown to the U.S. player; estimate
            # strength 3 (times terrain) and take the mean of the chart's two sections
            value = unrevealed_value(T, S, g, h, j) + 1.5  # the revealing itself is worth something
        value -= 0.7 * spent
    if not commit:
        for v in range(NU):
            S.att_units[g, v] = keep[v]
    return value


@njit(cache=True)
def position_value(T, p):
    """What taking position p is worth toward 15.2: the beach-firing positions (goal 1), A5 and A6
    (goal 3) most, then zone B (goal 2), then the rest."""
    v = 1.0
    if T.pos_beachfire[p]:
        v = 4.0
        if T.pos_zone[p] == 0 and (T.pos_num[p] == 5 or T.pos_num[p] == 6):
            v = 5.0
    elif T.pos_zone[p] == 1:
        v = 2.0
    return v


@njit(cache=True)
def pull_of(T, p):
    """How many hexes nearer position p counts when choosing where to go: the beach-firing
    positions (15.2 goal 1), A5 and A6 (goal 3) and A1, whose field covers the beach hexes A6
    traces its communication to (11.31), then the positions projecting intense fire into a
    beach-firing position hex (15.2: they must be held too)."""
    if T.pos_beachfire[p]:
        if T.pos_zone[p] == 0 and (T.pos_num[p] == 1 or T.pos_num[p] == 5 or T.pos_num[p] == 6):
            return KEY_PULL
        return BEACH_PULL
    for q in range(T.pos_hex.shape[0]):
        if T.pos_beachfire[q] and T.grp_dot[T.pos_group[p], T.pos_hex[q]] == INTENSE:
            return BEACH_PULL - 1
    return 0


@njit(cache=True)
def objective_table(T, pos, near):
    """The scenario's half of objective distances, worked out once per core (rule_tables): for
    each hex x the positions that can be objectives (not provisional) nearest first, counting
    pull_of, pos[x, k], and that count, near[x, k] = hexes - pull (a stable order: ties by
    position number)."""
    H = T.land.shape[0]
    P = T.pos_hex.shape[0]
    pull = np.zeros(P, np.int64)
    for p in range(P):
        pull[p] = pull_of(T, p)
    cand = np.empty(pos.shape[1], np.int64)
    n = 0
    for p in range(P):
        if not T.pos_prov[p]:
            cand[n] = p
            n += 1
    d = np.empty(n, np.int64)
    for x in range(H):
        for k in range(n):
            d[k] = T.dist[x, T.pos_hex[cand[k]]] - pull[cand[k]]
        order = np.argsort(d, kind="mergesort")  # stable
        for k in range(n):
            pos[x, k] = cand[order[k]]
            near[x, k] = d[order[k]]


@njit(cache=True)
def board_facts(T, S, g, W):
    """What every unit's plan at this decision reads, worked out once from occ (jp_map): U.S.
    units, steps and stacking units per hex, each hex's exposure (the live dots in it, summed
    over the positions, each can hit, 6.3: intense 3, steady 1), which positions are objectives
    (Japanese-occupied, or empty and not held: 15.2); the per-hex memos (hex_terms, fire_free)
    unset."""
    units, steps, stack, expo, occ = W.units, W.steps, W.stack, W.expo, W.occ
    units[:] = 0
    steps[:] = 0
    stack[:] = 0
    for u in range(S.us_loc.shape[1]):
        if S.us_loc[g, u] == US_MAP:
            h = S.us_hex[g, u]
            units[h] += 1
            steps[h] += S.us_steps[g, u]
            if T.us_type[u] != REG_HQ:  # 7.51: not regimental HQs (stack_count)
                stack[h] += 1
    expo[:] = 0
    hexes, dots, nhex = T.grp_hexes, T.grp_dot, T.grp_nhex
    for f in range(dots.shape[0]):
        n_occ, n_live, n_tank = group_units(T, S, g, f, occ)
        if n_live > 0:
            for k in range(nhex[f]):
                h = hexes[f, k]
                expo[h] += 3 if dots[f, h] == INTENSE else 1
    for p in range(T.pos_hex.shape[0]):
        h = T.pos_hex[p]
        held = S.garrison[g, p] or units[h] > 0
        W.active[p] = not T.pos_prov[p] and (occ[h] >= 0 or not held)
    W.base[:] = np.nan
    W.pfire[:] = -1


@njit(cache=True)
def objective(R, x, W):
    """Hexes from x to the nearest Japanese-occupied position or empty position not held, the
    beach-firing ones counted as BEACH_PULL hexes nearer (15.2 goals 1 and 3 first); 99 at most.
    The first objective in x's order (objective_table) is the nearest."""
    for k in range(R.obj_pos.shape[1]):
        if W.active[R.obj_pos[x, k]]:
            return min(R.obj_near[x, k], 99)
    return 99


@njit(cache=True)
def fire_free(T, S, g, x, W):
    """Hex x is outside every potential field of fire (potential_fire, 14.1), once per hex."""
    if W.pfire[x] < 0:
        W.pfire[x] = 0 if potential_fire(T, S, g, x) else 1
    return W.pfire[x] == 1


@njit(cache=True)
def hex_terms(T, R, S, g, x, W):
    """The terms of move_value that are the same for every unit, once per hex and decision:
    W.base[x] the objective distance's, the exposure's (board_facts) and the beach's, W.hold[x]
    what taking an empty position nobody holds is worth (0 elsewhere; a unit's own steps decide
    whether it is empty).  The terms are multiples of 0.5 far below 2**52: sums of them are exact
    in any order, so move_value adds them in its own."""
    if np.isnan(W.base[x]):
        v = -1.5 * objective(R, x, W) - W.expo[x]  # away from the live dots
        if T.beach_box[x] >= 0:
            v -= 2.0
        W.base[x] = v
        p = T.hex_pos[x]
        W.hold[x] = 0.0
        if p >= 0 and not T.pos_prov[p] and not S.garrison[g, p] and W.occ[x] < 0:
            W.hold[x] = 4.0 + HOLD * position_value(T, p)


@njit(cache=True)
def move_value(T, R, S, g, u, x, W):
    hex_terms(T, R, S, g, x, W)
    score = W.base[x]
    here = x == S.us_hex[g, u]
    if W.hold[x] > 0.0 and T.us_type[u] != REG_HQ:
        others = W.steps[x] - (S.us_steps[g, u] if here else 0)
        if others == 0:
            # an empty position nobody else holds: taking it (or staying on it) counts for victory
            # (15.2) and denies the Japanese a place to muster or reinforce (12.2, 12.5)
            score += W.hold[x]
    if W.stack[x] >= 2 and T.us_type[u] != REG_HQ and not here:
        score -= 50.0
    if W.live[x] > 0 and not here and W.steps[x] + S.us_steps[g, u] >= 7:
        score -= CONCENTRATED  # 6.35: seven steps in a field of fire take every card's symbol
    if T.us_type[u] == REG_HQ:
        score -= 2.0 * W.live[x]
        if S.turn[g] >= CP_TURN - 1 and fire_free(T, S, g, x, W):
            score += CP_SITE  # 14.1: a command post can be set up here from turn 8 (garrisons, 14.4)
        for v in range(S.us_loc.shape[1]):  # units it will command (7.1)
            if v != u and S.us_loc[g, v] == US_MAP and T.dist[S.us_hex[g, v], x] <= 1 and T.us_type[v] != REG_HQ:
                score += 0.5
    return score


@njit(cache=True)
def best_move(T, R, S, g, u, W):
    n = destinations(T, S, g, u, W.kinds, W.occ, W.live, W.moves)  # dest_mask's, on this decision's maps
    if n == 0:
        return -1, 0.0
    a = S.us_hex[g, u]
    here = move_value(T, R, S, g, u, a, W) + 1.0
    best, bv = -1, here
    for k in range(R.reach.shape[1]):
        x = R.reach[a, k]
        if x < 0:
            break
        if is_destination(W.kinds[x]):
            v = move_value(T, R, S, g, u, x, W)
            if v > bv:
                best, bv = x, v
    return best, bv - here


@njit(cache=True)
def unit_plan(T, R, S, g, u, W):
    """(value, order, target) of the best order for unit u."""
    H = T.land.shape[0]
    occ, live, buf = W.occ, W.live, W.buf
    best_v, best_o, best_t = 0.0, -1, -1
    a = S.us_hex[g, u]
    if infantryish(T, u) and may_open_attack(T, S, g, u):
        # attack_targets' hexes next to u (its reach is at least one hex)
        for k in range(6):
            h = R.nbr[a, k]
            if h < 0:
                break
            if occ[h] >= 0 and attack_target_ok(T, S, g, u, h, occ, live):
                v = plan_attack(T, S, g, u, h, False, live, occ)
                p = T.hex_pos[h]
                if p >= 0 and T.pos_beachfire[p]:
                    v += 1.0  # the positions firing on the beaches first (15.2)
                if v >= OPEN_MIN and v > best_v:
                    best_v, best_o, best_t = v, O_ATTACK, h
    if barrage_targets(T, S, g, u, buf, occ, live, False) > 0:
        for h in range(H):
            if buf[h]:
                buf[h] = False
                j = occ[h]  # jp_at
                v = 1.5 + (1.0 if has_depth(T, S, g, j) else 0.0)
                if v > best_v:
                    best_v, best_o, best_t = v, O_BARRAGE, h
    if enter_targets(T, S, g, u, buf, occ) > 0:
        for k in range(6):  # enter_targets' hexes are next to u
            h = R.nbr[a, k]
            if h < 0:
                break
            if not buf[h]:
                continue
            buf[h] = False
            if W.stack[h] < 2:  # 7.53: survivors past two units are eliminated
                j = occ[h]  # jp_at
                steps = W.steps[a]
                v = 0.0
                if steps >= 3:
                    # 8.6: a U.S. hit disrupts, then takes the depth marker, then eliminates; the
                    # survivors of a won close combat hold the position (8.61)
                    if not has_depth(T, S, g, j):
                        v = ENTER_ALONE_DIS if S.jp_dis[g, j] else ENTER_ALONE
                    elif S.jp_dis[g, j]:
                        v = ENTER_DEPTH_DIS
                if v > 0.0:
                    if v > best_v:
                        best_v, best_o, best_t = v, O_ENTER, h
    x, mv = best_move(T, R, S, g, u, W)
    if x >= 0 and mv > 0.5 and mv > best_v:
        best_v, best_o, best_t = mv, O_MOVE, x
    if not is_free(T, S, g, u):
        best_v -= 1.0
    return best_v, best_o, best_t


@njit(cache=True)
def decide(T, R, S, g, m, W):
    H = T.land.shape[0]
    NU = S.us_loc.shape[1]
    ph = S.phase[g]
    occ, live = W.occ, W.live
    planning = ph == P_ACT_SELECT or ph == P_ACT_ORDER or ph == P_MOVE_DEST or ph == P_TARGET
    if planning or ph == P_LAND or ph == P_SETUP:  # the decisions that read the board's maps
        jp_map(T, S, g, occ)
        fire_map(T, S, g, occ, True, live)
    if planning:
        board_facts(T, S, g, W)
    if ph == P_LAND or ph == P_SETUP:  # a landing / BNR set-up or relief hex: least fire, room
        best, bv = -1, 0.0
        for x in range(H):
            if m[x]:
                v = -3.0 * live[x] - stack_count(T, S, g, x)
                if best < 0 or v > bv:
                    best, bv = x, v
        return best
    if ph == P_ACT_SELECT:
        # regimental HQs act last: a moved HQ gives no more free actions (7.34)
        for hq_pass in range(2):
            best, bv = -1, 0.0
            for u in range(NU):
                if not m[H + UNIT_0 + u] or (T.us_type[u] == REG_HQ) != (hq_pass == 1):
                    continue
                v, o, t = unit_plan(T, R, S, g, u, W)
                if o >= 0 and v > bv:
                    best, bv = u, v
            if best >= 0:
                return H + UNIT_0 + best
        return H + END
    if ph == P_ACT_ORDER:
        v, o, t = unit_plan(T, R, S, g, S.sel[g], W)
        codes = (MOVE, ATTACK, BARRAGE, ENTER)
        if o >= 0 and m[H + codes[o]]:
            return H + codes[o]
        return H + NO
    if ph == P_MOVE_DEST:
        x, mv = best_move(T, R, S, g, S.sel[g], W)
        if x >= 0 and m[x]:
            return x
        return H + NO
    if ph == P_TARGET:
        u = S.sel[g]
        if u < 0:  # a marker barrage: the revealed target with a depth marker, else the first
            for h in range(H):
                if m[h] and has_depth(T, S, g, jp_at(T, S, g, h)):
                    return h
            return first_legal(m)
        v, o, t = unit_plan(T, R, S, g, u, W)
        if t >= 0 and t < H and m[t]:
            return t
        return H + NO
    if ph == P_ATTACK_JOIN:
        h = S.target[g]
        for v in range(NU):
            if m[H + UNIT_0 + v] and (is_free(T, S, g, v) or S.actions_left[g] > 1):
                # a joiner that would leave the attack invalid (a tank or artillery unit without
                # its conditions, 8.1) stays out
                S.att_units[g, v] = True
                ok = attack_valid(T, S, g, h)
                S.att_units[g, v] = False
                if ok:
                    return H + UNIT_0 + v
        if S.att_marker[g] < 0 and (m[H + NAVAL] or m[H + DAUNTLESS]):
            j = jp_at(T, S, g, h)
            if j >= 0 and S.jp_rev[g, j]:
                res = attack_result(T, S, g, h, j)
                if not (res & R_DEFEAT):
                    return H + (NAVAL if m[H + NAVAL] else DAUNTLESS)
        if m[H + RESOLVE]:
            return H + RESOLVE
        return H + NO
    if ph == P_STACK_JOIN:
        if S.order[g] == O_ENTER:
            if stack_count(T, S, g, S.target[g]) == 0:  # 7.53: at most two units end in the hex
                for v in range(NU):
                    if m[H + UNIT_0 + v]:
                        return H + UNIT_0 + v
            return H + NO
        x = S.target[g]
        p = T.hex_pos[S.us_hex[g, S.sel[g]]]
        if p >= 0 and not T.pos_prov[p] and not S.garrison[g, p]:
            return H + NO  # the partner stays to hold the position (15.2)
        if stack_count(T, S, g, x) == 0:
            for v in range(NU):
                if m[H + UNIT_0 + v] and T.us_type[v] != REG_HQ:
                    return H + UNIT_0 + v
        return H + NO
    if ph == P_HQ_CP:
        return H + (YES if S.cp[g, S.sel[g]] < 0 else NO)
    if ph == P_CC_RETREAT:
        return retreat_hex(T, S, g, S.cc_hex[g], True)  # 8.63: toward where the units came from
    if ph == P_CP_RANGE:
        return H + YES  # 14.2: the wider the range, the more units in command
    if ph == P_CC_WITHDRAW:
        steps = 0
        for u in range(NU):
            if S.cc_units[g, u] and S.us_loc[g, u] == US_MAP:
                steps += S.us_steps[g, u]
        j = S.cc_jp[g]
        return H + (YES if steps <= 1 and j >= 0 and has_depth(T, S, g, j) else NO)
    if ph == P_ATTRITION:
        return H + YES
    if ph == P_INFIL:
        return H + YES
    if ph == P_HIT_PICK:  # the tied unit the hit costs least: a disruption before a step, a disrupted unit first
        best, bv = -1, 0
        for u in range(NU):
            if m[H + UNIT_0 + u]:
                e = S.tie_eff[g, u]
                step = (e & 2) or e == TIE_LEADER or e == TIE_ARTILLERY or e == TIE_CC_STEP or e == TIE_NAVAL
                v = (2 if step else 0) + (1 if (e & 1) and S.us_dis[g, u] == 0 else 0)
                if best < 0 or v < bv:
                    best, bv = u, v
        return H + UNIT_0 + best
    if ph == P_HERO_PLACE or ph == P_STEP_ADD:
        best, bv = -1, 0
        for u in range(NU):
            if m[H + UNIT_0 + u]:
                v = S.us_steps[g, u] if ph == P_HERO_PLACE else 10 - S.us_steps[g, u]
                if best < 0 or v > bv:
                    best, bv = u, v
        return H + UNIT_0 + best
    if ph == P_UNDISRUPT:  # BNR HQ phase: the hex with the most disrupted steps
        steps = np.zeros(H, np.int64)
        for u in range(NU):
            if S.us_loc[g, u] == US_MAP and S.us_dis[g, u] != 0:
                steps[S.us_hex[g, u]] += S.us_steps[g, u]
        best = int(np.argmax(steps))
        return best if m[best] else first_legal(m)
    if ph == P_WITHDRAW:  # BNR night: relieve the battalion with the fewest steps left on the map
        steps = np.zeros(NU, np.int64)
        for u in range(NU):
            if S.us_loc[g, u] == US_MAP and T.us_battalion[u] >= 0:
                steps[T.us_battalion[u]] += S.us_steps[g, u]
        best, bv = -1, 0
        for u in range(NU):
            if m[H + UNIT_0 + u] and (best < 0 or steps[T.us_battalion[u]] < bv):
                best, bv = u, steps[T.us_battalion[u]]
        return H + UNIT_0 + best if best >= 0 else first_legal(m)
    return first_legal(m)  # the rest: the lowest legal action (P_CC_LOSS, P_STACK_ELIM, P_GARRISON ...)


@njit(cache=True)
def make_scratch(T):
    """A Scratch for one thread's games (all False, zero or unset as board_facts expects)."""
    H = T.land.shape[0]
    return Scratch(np.empty(H, np.int16), np.empty(H, np.int8), np.zeros(H, np.bool_), np.zeros(H, np.int8),
                   move_scratch(T), np.zeros(H, np.int16), np.zeros(H, np.int16), np.zeros(H, np.int16),
                   np.zeros(H, np.int16), np.zeros(T.pos_hex.shape[0], np.bool_), np.empty(H, np.float64),
                   np.empty(H, np.float64), np.empty(H, np.int8))


@njit(cache=True, nogil=True)
def decide_chunk(T, S, lo, hi, R, out):
    """out[g] = the rule's action in each running game g of [lo, hi) (-1 in a finished one); R from
    rule_tables.  A chunk kernel of the core's threads (KernelCore.run_chunks): the games are
    independent, and each call has its own scratch arrays."""
    W = make_scratch(T)
    for g in range(lo, hi):
        out[g] = -1
        if S.terminated[g] or S.truncated[g]:
            continue
        m = S.legal_action_mask[g]
        a = decide(T, R, S, g, m, W)
        if a < 0 or not m[a]:
            a = first_legal(m)
        out[g] = a


@njit(cache=True)
def decide_batch(T, R, S, out):
    """decide_chunk over every game, on the caller's thread."""
    decide_chunk(T, S, 0, out.shape[0], R, out)


_TABLES: dict[int, tuple] = {}


def within(dist: np.ndarray, lo: int, hi: int) -> np.ndarray:
    """int16[H, k]: the hexes lo..hi hexes from each hex in increasing number, padded with -1."""
    near = (dist >= lo) & (dist <= hi)
    out = np.full((dist.shape[0], int(near.sum(1).max())), -1, np.int16)
    for x in range(dist.shape[0]):
        hexes = np.nonzero(near[x])[0]
        out[x, :len(hexes)] = hexes
    return out


def rule_tables(core) -> RuleTables:
    """The rule's tables of a core's scenario (objective_table), made on the core's first call."""
    key = id(core.tables)
    hit = _TABLES.get(key)
    if hit is None or hit[0] is not core.tables:
        plain = core.plain_tables
        P = int(np.count_nonzero(~np.asarray(plain.pos_prov)))
        H = int(core.scenario.num_hexes)
        R = RuleTables(np.zeros((H, P), np.int16), np.zeros((H, P), np.int16),
                       within(plain.dist, 1, 1), within(plain.dist, 0, MOVE_REACH))
        objective_table(core.tables, R.obj_pos, R.obj_near)
        if len(_TABLES) >= 16:
            _TABLES.clear()
        hit = _TABLES[key] = (core.tables, R)  # the tables held: their id is not reused meanwhile
    return hit[1]


class PeleliuRuleAgent:
    """The rule-based U.S. player (module docstring)."""

    def reset(self, seed: int | None = None) -> None:
        pass

    def act(self, core, state, player: int) -> np.ndarray:
        # the planner marks trial attackers (and unmarks them) in its own copy of att_units
        work = dataclasses.replace(state, att_units=state.att_units.copy())
        out = np.zeros(state.batch_size, dtype=np.int64)
        core.run_chunks(decide_chunk, work, rule_tables(core), out)  # on the core's threads
        return out

    def __repr__(self) -> str:
        return "PeleliuRuleAgent()"


@baselines.register("peleliu", "us")
def _us_rule(**kwargs) -> PeleliuRuleAgent:
    return PeleliuRuleAgent(**kwargs)


