"""What every Peleliu position holds (``PeleliuCore.check_state``); the fuzz checks these after
every decision and ``from_dict`` before any kernel sees a record:

* 4.0, 8.6   card conservation: every card in one pile (deck, discards, card track, the close
             combat piles), places 0..n-1; close combat piles only during a close combat
* 9.23       depth conservation: a marker under a unit is that unit's (and only one unit's), the
             pools hold the rest; a unit's marker is of its kind (armor depth under tanks)
* 2.21       U.S. steps within 1..printed on the map and in the boxes; a unit on the map has a hex
             on land, in a box a box number 0-4
* 9.0        at most one Japanese unit a hex, on a position hex or in a close combat (19.0: a
             fortification marker may share it)
* 15.1       the Infantry Loss Box holds exactly the infantry counters that went there: two per
             eliminated four-step regular or heavy infantry unit, one per two-step one, one per unit
             in play on its reduced counter (18.41, Bloody Nose Ridge: one per eliminated unit)
* 6.31       a tie of Japanese fire waits (P_HIT_PICK) exactly while hits of it are left, among more
             tied units in play than hits; a tied assault (P_ASSAULT_PICK) offers two hexes or
             more, the counterattack's set-up (P_CA_PICK) more tied units than places (13.41)
* 7.2, 8.5   the action being declared (``declaration``): units act together only while one is
             declared or carried out, costing no more than the actions left (7.21); a naval or
             Dauntless marker only on an attack, and only while held; a tied assault's start hex
             only while its hex is asked (12.8)
* 14.0       ``sel`` = SEL_HQ_AHEAD only in the HQ phase (its first step still to come)
* the end    (``check_end``) a game is over exactly when it has a result and stands in "game over";
             its result and reward are the ones the rules' own end conditions give the position
             (victory.py: catastrophic loss, 15.1 and 18.41; the victory checks at the end of the
             last turn, 15.2, 17.1-17.2, 18.42; the night turn check, 18.42); and a running game is
             not at catastrophic loss (15.1 ends it at once)
"""

from __future__ import annotations

import numpy as np

from wargym.cards import check_deck
from wargym.core import end_marks
from wargym.peleliu.bnr import is_night, night_check
from wargym.peleliu.japanese import Q_CA, Q_CAVE, Q_HEX
from wargym.peleliu.scenario import HEAVY, INF, REG_HQ
from wargym.peleliu.state import (
    DM_UNIT, JP_MAP, N_PILES, O_DAUNTLESS, O_NAVAL, P_ACT_ORDER, P_ATTACK_JOIN, P_ATTRITION, P_AUTO, P_BOX, P_CC_LOSS,
    P_ASSAULT_PICK, P_CA_PICK, P_CC_WITHDRAW, P_DRIFT, P_HERO_BONUS, P_HIT_PICK, P_HQ_CP, P_INFIL, P_LAND, P_MOVE_DEST,
    P_OVER, P_STACK_ELIM,
    P_STACK_JOIN, P_TARGET, PILE_CC_JP, PILE_CC_US, R_NONE, R_WIN, RESULTS, SEL_HQ_AHEAD, ST_HQ, US_BOX, US_ELIM,
    US_MAP, US_TRACK,
)
from wargym.peleliu.us import cost_of
from wargym.peleliu.victory import catastrophic_now, end_of_turn_victory, finish

# the decisions with units acting together (7.2, 8.1: a stack moving, an attack's units; a move's
# destination and a target are asked of the selected unit alone, before its partners join)
DECLARING = (P_STACK_JOIN, P_INFIL, P_ATTACK_JOIN, P_ATTRITION, P_HERO_BONUS)
UNPAID = (P_STACK_JOIN, P_ATTACK_JOIN)   # before the action is paid for (sequence.apply, us.execute_move)


def loss_counters(sc) -> np.ndarray:
    """int64[U]: the counters each U.S. unit puts in the Infantry Loss Box once eliminated (15.1:
    both counters of a four-step regular or heavy infantry unit, the one of a two-step unit; 18.41:
    one per infantry unit of Bloody Nose Ridge), 0 for the others."""
    inf = np.isin(sc.us_type, (INF, HEAVY))
    if sc.spec.kind == "bnr":
        return (inf & (sc.us_bnr >= 0)).astype(np.int64)
    return np.where(inf, np.where(sc.us_steps == 4, 2, 1), 0).astype(np.int64)


def in_loss_box(sc, state) -> np.ndarray:
    """int64[B]: the infantry counters in the Infantry Loss Box by the position (15.1, 18.41)."""
    out = ((state.us_loc == US_ELIM) * loss_counters(sc)[None, :]).sum(axis=1)
    if sc.spec.kind != "bnr":  # a four-step unit on its reduced counter: its full-strength one is there
        four = np.isin(sc.us_type, (INF, HEAVY)) & (sc.us_steps == 4)
        playing = np.isin(state.us_loc, (US_TRACK, US_BOX, US_MAP))
        out += (playing & four[None, :] & (state.us_steps >= 1) & (state.us_steps <= 2)).sum(axis=1)
    return out


def check(core, state) -> list[str]:
    sc = core.scenario
    errors: list[str] = []
    errors += [f"field card_pile: {e}" for e in check_deck(state.card_pile, state.card_pos, N_PILES)]
    in_cc = state.cc_hex >= 0
    cc_cards = ((state.card_pile == PILE_CC_US) | (state.card_pile == PILE_CC_JP)).any(axis=1)
    for g in np.nonzero(cc_cards & ~in_cc)[0][:2]:
        errors.append(f"field card_pile: game {g} holds close combat piles outside a close combat (8.6)")
    on = state.us_loc == US_MAP
    boxed = state.us_loc == US_BOX
    for name, bad, why in (
            ("us_steps", (on | boxed) & ((state.us_steps < 1) | (state.us_steps > sc.us_steps)),
             "in play with steps outside 1..printed (2.21)"),
            ("us_hex", on & (state.us_hex < 0), "on the map without a hex"),
            ("us_hex", boxed & ((state.us_hex < 0) | (state.us_hex > 4)), "in a landing box that is not 0-4 (5.0)")):
        for g, u in np.argwhere(bad)[:2]:
            errors.append(f"field {name}: game {g} unit {sc.us_names[u]} is {why}")
    if errors:
        return errors
    land = sc.land
    for g in range(state.batch_size):
        hx = state.us_hex[g][on[g]]
        if not land[hx].all():
            errors.append(f"field us_hex: game {g} has a U.S. unit off the land (2.1)")
        for which in (~sc.jp_fort, sc.jp_fort):  # a unit and a fortification marker may share a hex (19.0)
            jh = state.jp_hex[g][(state.jp_loc[g] == JP_MAP) & which]
            if (jh < 0).any() or len(set(jh.tolist())) != len(jh):
                errors.append(f"field jp_hex: game {g} has two Japanese units (or fortification markers) in one "
                              f"hex or one without a hex (9.0, 19.0)")
        # 18.31: a fortification marker holds a depth marker only while alone in its position
        for f in np.flatnonzero(sc.jp_fort & (state.jp_loc[g] == JP_MAP) & (state.jp_depth[g] >= 0)):
            shared = (state.jp_loc[g] == JP_MAP) & ~sc.jp_fort & (state.jp_hex[g] == state.jp_hex[g, f])
            if shared.any():
                errors.append(f"field jp_depth: game {g} {sc.jp_names[f]} holds a depth marker beside a unit (18.31)")
        # depth markers: each marker under exactly one unit that names it
        owners = np.concatenate([state.jp_depth[g][state.jp_depth[g] >= 0], state.jp_ca[g][state.jp_ca[g] >= 0]])
        if len(set(owners.tolist())) != len(owners):
            errors.append(f"field jp_depth: game {g} has a depth marker under two units (9.23)")
        under = np.nonzero(state.dm_loc[g] == DM_UNIT)[0]
        if set(under.tolist()) != set(owners.tolist()):
            errors.append(f"field dm_loc: game {g} markers under units {sorted(under.tolist())} but units name "
                          f"{sorted(owners.tolist())} (9.23)")
        expect = np.full(len(sc.dm_kind), -1)
        for field in (state.jp_depth[g], state.jp_ca[g]):
            has = (field >= 0) & (state.jp_loc[g] == JP_MAP)
            expect[field[has]] = state.jp_hex[g][has]
        if state.phase[g] != P_AUTO and not np.array_equal(expect, state.dm_hex[g]):  # settled positions
            errors.append(f"field dm_hex: game {g} marker hexes {state.dm_hex[g].tolist()} do not match their units")
        for j in np.nonzero(state.jp_depth[g] >= 0)[0]:
            if state.jp_loc[g, j] != JP_MAP:
                errors.append(f"field jp_depth: game {g} unit {sc.jp_names[j]} off the map holds a depth marker")
            kind = sc.dm_kind[state.jp_depth[g, j]]
            if kind == 2 or (kind == 1) != bool(sc.jp_tank[j]):
                errors.append(f"field jp_depth: game {g} unit {sc.jp_names[j]} holds a depth marker of the wrong kind")
        # the Fire Phase queue names fire groups (card slot x 1000 + group), units in counterattack
        # stance (Q_CA + unit) or position hexes (Q_HEX + position)
        F, NJ, P = len(sc.grp_members), len(sc.jp_names), len(sc.pos_id)
        for e in state.jq[g][:int(state.jq_n[g])].tolist():
            ok = (e < Q_CAVE and e // 1000 < 3 and e % 1000 < F) or (Q_CA <= e < Q_CA + NJ) \
                or (Q_HEX <= e < Q_HEX + P) or (Q_CAVE <= e < Q_CAVE + 2)
            if not ok:
                errors.append(f"field jq: game {g} queues {e}, not a fire group, a unit or a position (12.0)")
                break
        why = decision_context(sc, state, g)
        if why:
            errors.append(f"field phase: game {g} {why}")
        errors += declaration(core, state, g)
        if state.phase[g] == P_DRIFT and not (0 <= state.k[g] < len(sc.card_symbol) and 0 <= state.sel[g] < 5):
            errors.append(f"field k: game {g} drifts by card {int(state.k[g])} from box {int(state.sel[g])} (5.1)")
        if errors:
            break
    if errors:
        return errors
    counted = in_loss_box(sc, state)
    for g in np.flatnonzero(state.loss_box != counted)[:1]:
        errors.append(f"field loss_box: game {g} has {int(state.loss_box[g])} infantry counters in the Infantry Loss "
                      f"Box, its eliminated and reduced units put {int(counted[g])} there (15.1, 18.41)")
    for g in np.flatnonzero((state.sel == SEL_HQ_AHEAD) & (state.stage != ST_HQ))[:1]:
        errors.append(f"field sel: game {g} has {SEL_HQ_AHEAD} (the HQ phase still to begin) in stage "
                      f"{int(state.stage[g])}, not the HQ phase (14.0)")
    return errors or check_end(core, state)


def check_end(core, state) -> list[str]:
    """Whether each game is over agrees with its position (module docstring, "the end")."""
    sc = core.scenario
    over = state.terminated
    result = state.result.astype(np.int64)
    errors = end_marks(state, P_OVER, result=result != R_NONE)
    if errors:
        return errors
    probe, S = core.reopened(state, result=R_NONE)
    T = core.tables
    for g in range(state.batch_size):
        if over[g]:
            end_by_the_rules(T, S, g, sc.spec.kind == "bnr")
            verdict, reward = int(probe.result[g]), float(probe.rewards[g, 0])
            if verdict != result[g] or reward != state.rewards[g, 0]:
                gives = f"gives {RESULTS[verdict]!r}, reward {reward:+g}" if verdict != R_NONE else "ends no game"
                errors.append(f"field terminated: game {g} is over with result {RESULTS[result[g]]!r}, reward "
                              f"{state.rewards[g, 0]:+g}, but its position (turn {int(state.turn[g])}, "
                              f"{int(state.loss_box[g])} infantry counters lost) {gives} (15.1, 15.2, 17.0, 18.4)")
        elif not state.truncated[g] and catastrophic_now(T, S, g):
            errors.append(f"field loss_box: game {g} runs on at turn {int(state.turn[g])} with {int(state.loss_box[g])} "
                          f"infantry counters lost: catastrophic loss ends the game the moment it occurs (15.1, 18.41)")
        if errors:
            break
    return errors


def end_by_the_rules(T, S, g: int, bnr: bool) -> None:
    """End game g of ``S`` (a reopened copy: not over) as the rules' end conditions would, in the
    order play meets them: catastrophic loss at any moment, the night turn check of Bloody Nose
    Ridge (sequence's relief stage), the victory check at the end of the turn; leave it running
    when none ends it."""
    if catastrophic_now(T, S, g):
        return
    if bnr and is_night(T, S, g) and night_check(T, S, g):
        finish(T, S, g, R_WIN)  # 18.42
        return
    end_of_turn_victory(T, S, g)


def declaration(core, state, g: int) -> list[str]:
    """The U.S. action being declared (7.2, 8.1): units act together only while an action is
    declared or carried out; before it is paid for, the hexes they act from cost no more than the
    actions left (7.21); a naval or Dauntless marker is added to an attack only while it is held
    (8.5) and stays with it until the attack's follow-ups; a tied assault's start hex stands only
    while its hex waits for the player (12.8)."""
    ph = int(state.phase[g])
    if state.terminated[g] or state.truncated[g] or ph == P_AUTO:
        return []
    errors = []
    if state.att_units[g].any():
        if ph not in DECLARING:
            errors.append(f"field att_units: game {g} has units acting together in phase {ph}, where no action "
                          f"is declared (7.2)")
        elif ph in UNPAID and cost_of(core.tables, core.kernel_state(state), g, state.att_units[g]) > state.actions_left[g]:
            errors.append(f"field att_units: game {g} declares units costing more than its "
                          f"{int(state.actions_left[g])} actions left (7.21)")
    marker = int(state.att_marker[g])
    held = state.naval[g] if marker == 0 else state.dauntless[g]
    if marker >= 0 and (ph not in (P_ATTACK_JOIN, P_ATTRITION, P_HERO_BONUS) or (ph == P_ATTACK_JOIN and held < 1)):
        errors.append(f"field att_marker: game {g} adds marker {marker} to an attack in phase {ph} holding {int(held)} (8.5)")
    if state.tie_from[g] >= 0 and ph != P_ASSAULT_PICK:
        errors.append(f"field tie_from: game {g} has a tied assault from hex {int(state.tie_from[g])} waiting in "
                      f"phase {ph} (12.8)")
    return errors


def decision_context(sc, state, g) -> str:
    """The decision in progress has what it works on (the unit, hex, order or close combat it names),
    so no kernel reads past a table: '' when it does, else what is wrong."""
    ph = int(state.phase[g])
    NU, NJ, H = len(sc.us_names), len(sc.jp_names), sc.num_hexes
    sel, loc = int(state.sel[g]), state.us_loc[g]
    unit_ok = 0 <= sel < NU
    if ph == P_LAND and not (unit_ok and loc[sel] == US_BOX):
        return f"lands unit {sel}, not a unit in a landing box (5.2)"
    if ph == P_BOX and not (unit_ok and loc[sel] == US_TRACK):
        return f"boxes unit {sel}, not a unit on the turn track (5.3)"
    if ph == P_INFIL and not (state.att_units[g] & (loc == US_MAP)).any():
        return "asks about an infiltration with no infiltrating unit left (7.33)"
    if ph in (P_ACT_ORDER, P_MOVE_DEST, P_STACK_JOIN) and not (unit_ok and loc[sel] == US_MAP):
        return f"gives an order to unit {sel}, not a unit on the map (7.0)"
    if ph == P_TARGET and not (int(state.order[g]) in (O_NAVAL, O_DAUNTLESS) or (unit_ok and loc[sel] == US_MAP)):
        return f"aims order {int(state.order[g])} of unit {sel} (7.0)"
    if ph in (P_ATTACK_JOIN, P_ATTRITION, P_STACK_ELIM, P_HERO_BONUS) and not 0 <= int(state.target[g]) < H:
        return f"works on hex {int(state.target[g])}, not a hex (8.1, 7.53)"
    if ph == P_HQ_CP and not (unit_ok and loc[sel] == US_MAP and sc.us_type[sel] == REG_HQ):
        return f"asks unit {sel}, not a regimental HQ on the map, about a command post (14.1)"
    tied = state.tie_units[g] & np.isin(loc, (US_MAP, US_BOX))
    waiting = ph not in (P_AUTO, P_OVER)
    if waiting and ((ph == P_HIT_PICK) != (int(state.tie_left[g]) > 0)
                    or (ph == P_HIT_PICK and tied.sum() <= state.tie_left[g])):
        return (f"waits at phase {ph} with {int(state.tie_left[g])} hits of a tie left to {int(tied.sum())} tied "
                f"units (6.31: a tie is asked while more units than hits are tied, and only then)")
    n_hexes = int(state.tie_hexes[g].sum())
    if waiting and ph == P_ASSAULT_PICK and not (0 <= int(state.tie_from[g]) < H and n_hexes >= 2):
        return f"asks for an assault's hex from {int(state.tie_from[g])} among {n_hexes} tied hexes (12.8)"
    if waiting and ((ph == P_CA_PICK) != (int(state.ca_left[g]) > 0)
                    or (ph == P_CA_PICK and n_hexes <= state.ca_left[g])):
        return (f"waits at phase {ph} with {int(state.ca_left[g])} counterattack places left to {n_hexes} tied "
                f"units (13.41)")
    if ph == P_CC_LOSS and state.cc_hits[g] < 1:
        return "asks for a close combat step loss with no hit left to take (8.6)"
    if (ph in (P_CC_LOSS, P_CC_WITHDRAW) or state.cc_hex[g] >= 0) and not (
            0 <= int(state.cc_hex[g]) < H and 0 <= int(state.cc_jp[g]) < NJ):
        return f"resolves a close combat in hex {int(state.cc_hex[g])} with unit {int(state.cc_jp[g])} (8.6)"
    return ""
