"""What every Attu position holds (``AttuCore.check_state``).

The contract's fuzz checks these after every decision, and ``from_dict`` checks a record from
outside against them before any kernel sees it:

* 2.4      a unit on the map has a hex, at least one step and at most its printed steps; a unit in
           a staging box (9.2, 12.5) has one of the nine zones
* 5.7/15.0 units on the map stand on land in play
* 8.0      no hex holds units of both sides
* 8.2.1.4  only U.S. artillery is captured, and a captured unit stands on the map (or was
           eliminated there)
* 4.1/4.2  U.S. stacking by steps and battalion; at most three Japanese Infantry/Artillery a hex
* 8.4      the Casualty Track within 0..30, and a running game below 30 (3.8.2 ends it there)
* 3.0      the decision in progress has what it works on: the unit selected, the hex asked about,
           the Melee's hex, the airpower attacks announced, the Japanese unit to place
* 3.8      "game over" is the phase of a finished game and of no other; a finished game has a
           winner (+1) and a loser (-1), the ones the rules' own end conditions give its position
           (victory.py, in the order play meets them: 3.8.2 at any moment, 3.8.1 at Step 8, 3.8.3
           after the last turn; with the 14.0 chits, the chits' verdict); a running game is not
           ended by 3.8.2 (checked whenever units are lost, so at every decision)
* 12.1     the Komandorski chits are chits of the mix; the last turn is unknown (-1) until the
           Delay chit is revealed, then the Effect's turn plus the delay less one (or the
           scenario's end date without the chits); the chits are revealed on their turns (12.1.3)
* 2.5      what the U.S. remembers (``us_knows``): only Japanese counters in play, on the map or in
           the eliminated pile, are known to it (the cup it cannot follow), and every one it sees
           face up on the map is (README "What the U.S. remembers")
"""

from __future__ import annotations

import numpy as np

from wargym.attu.board import us_stack_ok
from wargym.attu.scenario import ARTILLERY, INFANTRY, JAPAN, LANDING_ZONES, TURN_0_DATE, UNKNOWN, US
from wargym.attu.state import (
    ACT_ORDER, ADVANCE, AIR_TARGET, ARNOLD, LOC_ELIM, LOC_MAP, LOC_STAGING, MARTINEZ, MAX_AIR, OPT_END_DATE,
    OPT_SOLITAIRE, OVER, RANGED_TARGET, RETREAT_OPTION, SLOT, SWAP_PLACE, UNKNOWN_DEST,
)
from wargym.attu.victory import check_immediate, end_of_turn, step8
from wargym.core import end_marks

END_CONDITIONS = (check_immediate, step8, end_of_turn)   # 3.8.2, 3.8.1 (Step 8), 3.8.3, in play's order


def check(core, state) -> list[str]:
    """One message per broken invariant, naming the game and the field."""
    T, sc = core.tables, core.scenario
    errors: list[str] = []
    on = state.unit_loc == LOC_MAP
    staged = state.unit_loc == LOC_STAGING
    for name, bad, why in (
            ("unit_hex", on & (state.unit_hex < 0), "on the map without a hex (2.4)"),
            ("unit_steps", on & (state.unit_steps < 1), "on the map with no step (2.4)"),
            ("unit_steps", state.unit_steps > sc.unit_steps, "more steps than printed (2.4)"),
            ("unit_hex", staged & ((state.unit_hex < 0) | (state.unit_hex >= LANDING_ZONES)),
             "in a staging box that is not a landing zone (9.2)"),
            ("captured", state.captured & ~(((sc.unit_side == US) & (sc.unit_type == ARTILLERY))[None, :]
                                            & np.isin(state.unit_loc, (LOC_MAP, LOC_ELIM))),
             "captured but not U.S. artillery on the map or eliminated after it (8.2.1.4)"),
            ("ad_hoc", state.ad_hoc & ~(on & ((sc.unit_side == JAPAN) & (sc.unit_type == INFANTRY))[None, :]
                                        & bool(T.opts[OPT_SOLITAIRE])),
             "ad hoc but not Japanese Infantry on the map in solitaire play (13.2.2)")):
        for g, u in np.argwhere(bad)[:2]:
            errors.append(f"field {name}: game {g} unit {u} is {why}")
    if errors:
        return errors
    arrays = core.kernel_state(state)
    side = np.where(state.captured, JAPAN, sc.unit_side)
    for g in range(state.batch_size):
        hexes = state.unit_hex[g][on[g]]
        if not T.land[hexes].all():
            errors.append(f"field unit_hex: game {g} has a unit off the land in play (5.7)")
            continue
        us_hexes = set(state.unit_hex[g][on[g] & (side[g] == US)].tolist())
        jp = on[g] & (side[g] == JAPAN)
        if us_hexes & set(state.unit_hex[g][jp].tolist()):
            errors.append(f"field unit_hex: game {g} has both sides in one hex (8.0)")
        counted = jp & ((sc.unit_type != UNKNOWN) | state.captured[g])
        if counted.any() and np.bincount(state.unit_hex[g][counted]).max() > 3:
            errors.append(f"field unit_hex: game {g} stacks more than three Japanese units (4.2)")
        for h in sorted(us_hexes):
            if not us_stack_ok(T, arrays, g, h, -1, 0):
                errors.append(f"field unit_hex: game {g} overstacks U.S. units in {sc.grid.number(h)} (4.1)")
        errors += _decision(core, state, g)
    live = ~(state.terminated | state.truncated)
    if (live & (state.casualties >= sc.casualty_max)).any():
        g = int(np.argmax(live & (state.casualties >= sc.casualty_max)))
        errors.append(f"field casualties: game {g} runs on with {int(state.casualties[g])} casualties (3.8.2)")
    if (state.casualties > sc.casualty_max).any():
        errors.append(f"field casualties: beyond the track's {sc.casualty_max} (8.4)")
    errors += end_marks(state, OVER)
    return errors or _memory(core, state) or _komandorski(core, state) or check_end(core, state)


def _memory(core, state) -> list[str]:
    """2.5: ``us_knows`` is set only where the U.S. can know a Japanese counter, and wherever it
    sees one face up on the map."""
    sc = core.scenario
    japanese = ((sc.unit_side == JAPAN) & sc.unit_in_play)[None, :]
    kept = np.isin(state.unit_loc, (LOC_MAP, LOC_ELIM))
    errors = []
    for g, u in np.argwhere(state.us_knows & ~(japanese & kept))[:1]:
        errors.append(f"field us_knows: game {g} unit {u} is known to the U.S. at {int(state.unit_loc[g, u])}: only a "
                      f"Japanese counter on the map or in the eliminated pile can be (2.5)")
    face_up = japanese & (state.unit_loc == LOC_MAP) & ~state.face_down & ~state.captured
    for g, u in np.argwhere(face_up & ~state.us_knows)[:1]:
        errors.append(f"field us_knows: game {g} unit {u} is face up on the map but not known to the U.S. (2.5)")
    return errors


def _komandorski(core, state) -> list[str]:
    """12.1: the chits drawn are chits of the mix, and the last turn is known exactly when the
    rules tell it."""
    sc, T = core.scenario, core.tables
    errors = []
    for name, chits in (("ke_effect", sc.effect_chits), ("ke_delay", sc.delay_chits)):
        for g in np.flatnonzero(~np.isin(getattr(state, name), chits))[:1]:
            errors.append(f"field {name}: game {g} has {int(getattr(state, name)[g])}, not a chit of {chits.tolist()} (12.1)")
    if errors:
        return errors
    if sc.spec.end == "komandorski":
        told = state.turn.astype(np.int64) - 1 + state.ke_delay  # revealed on the Effect's turn (setup.reveal_chits)
        want = np.where(state.ke_revealed == 2, state.ke_effect.astype(np.int64) - TURN_0_DATE + state.ke_delay - 1, -1)
        bad = (state.last_turn != want) | ((state.ke_revealed == 2) & (want > told))
        turn = state.turn.astype(np.int64)
        late = (((state.ke_revealed == 0) & (turn >= T.ke_turn)) |
                ((state.ke_revealed == 1) & (turn >= state.ke_effect.astype(np.int64) - TURN_0_DATE)))
    else:
        bad = state.last_turn != T.opts[OPT_END_DATE]
        late = np.zeros(state.batch_size, dtype=bool)
    for g in np.flatnonzero(bad)[:1]:
        errors.append(f"field last_turn: game {g} has {int(state.last_turn[g])} with the Komandorski chits "
                      f"{int(state.ke_effect[g])}/{int(state.ke_delay[g])} revealed {int(state.ke_revealed[g])} (12.1)")
    for g in np.flatnonzero(late)[:1]:
        errors.append(f"field ke_revealed: game {g} is at turn {int(state.turn[g])} with the chits "
                      f"{int(state.ke_effect[g])}/{int(state.ke_delay[g])} revealed {int(state.ke_revealed[g])}; "
                      f"12.1.3 reveals them at the start of their turns")
    return errors


def check_end(core, state) -> list[str]:
    """A finished game's rewards are its winner's by the rules' end conditions for its position,
    and a running game is not ended by 3.8.2 (module docstring).  The position decides: each
    condition reads only the units, the tracks, the chits and the turn."""
    errors: list[str] = []
    over = state.terminated
    won = over & ~(((state.rewards[:, 0] == 1) & (state.rewards[:, 1] == -1)) |
                   ((state.rewards[:, 0] == -1) & (state.rewards[:, 1] == 1)))
    for g in np.flatnonzero(won)[:1]:
        errors.append(f"field rewards: game {g} ended with {state.rewards[g].tolist()}: an Attu game has a winner "
                      f"and a loser (3.8)")
    if errors:
        return errors
    probe, S = core.reopened(state)
    T = core.tables
    for g in range(state.batch_size):
        if over[g]:
            verdict = None
            for condition in END_CONDITIONS:
                condition(T, S, g)
                if probe.terminated[g]:
                    verdict = probe.rewards[g]
                    break
            if verdict is None or not np.array_equal(verdict, state.rewards[g]):
                gives = "ends no game" if verdict is None else f"gives {verdict.tolist()}"
                errors.append(f"field terminated: game {g} ended with rewards {state.rewards[g].tolist()} at turn "
                              f"{int(state.turn[g])}, but its position {gives} (3.8, 14.0)")
        elif not state.truncated[g]:
            check_immediate(T, S, g)
            if probe.terminated[g]:
                errors.append(f"field terminated: game {g} runs on at turn {int(state.turn[g])}, but its position "
                              f"ends the game at once (3.8.2: {int(state.casualties[g])} casualties, or no "
                              f"Japanese Infantry and Artillery left)")
        if errors:
            break
    return errors


def _decision(core, state, g: int) -> list[str]:
    phase = int(state.phase[g])
    if state.terminated[g] or state.truncated[g]:
        return []
    u, h = int(state.selected[g]), int(state.sel_hex[g])
    if phase in (ACT_ORDER, RANGED_TARGET, UNKNOWN_DEST) and (u < 0 or state.unit_loc[g, u] != LOC_MAP):
        return [f"field selected: game {g} decides for unit {u}, which is not on the map"]
    if phase in (SLOT, RANGED_TARGET, SWAP_PLACE) and h < 0:
        return [f"field sel_hex: game {g} asks about no hex"]
    if phase == AIR_TARGET and state.air_n[g] >= MAX_AIR:
        return [f"field air_n: game {g} announces a seventh airpower attack (8.1.6)"]
    if phase in (ARNOLD, MARTINEZ, RETREAT_OPTION, ADVANCE) and state.mel_hex[g] < 0:
        return [f"field mel_hex: game {g} is in a Melee decision with no Melee hex"]
    return []
