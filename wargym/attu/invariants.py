"""What every Attu position holds (``AttuCore.check_state``).

The contract's fuzz checks these after every decision, and ``from_dict`` checks a record from
outside against them before any kernel sees it:

* 2.4      a unit on the map has a hex, at least one step and at most its printed steps; a unit in
           a staging box (9.2, 12.5) has one of the nine zones
* 5.7/15.0 units on the map stand on land in play
* 8.0      no hex holds units of both sides
* 4.1/4.2  U.S. stacking by steps and battalion; at most three Japanese Infantry/Artillery a hex
* 8.4      the Casualty Track within 0..30, and a running game below 30 (3.8.2 ends it there)
* 3.0      the decision in progress has what it works on: the unit selected, the hex asked about,
           the Melee's hex, the airpower attacks announced, the Japanese unit to place
* 3.8      "game over" is the phase of a finished game and of no other
"""

from __future__ import annotations

import numpy as np

from wargym.attu.board import us_stack_ok
from wargym.attu.scenario import JAPAN, LANDING_ZONES, UNKNOWN, US
from wargym.attu.state import (
    ACT_ORDER, ADVANCE, AIR_TARGET, ARNOLD, LOC_MAP, LOC_STAGING, MARTINEZ, MAX_AIR, OVER, RANGED_TARGET,
    RETREAT_OPTION, SLOT, SWAP_PLACE, UNKNOWN_DEST,
)


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
             "in a staging box that is not a landing zone (9.2)")):
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
    over = state.phase == OVER
    if (over != state.terminated).any():
        g = int(np.argmax(over != state.terminated))
        errors.append(f"field phase: game {g} is {'over' if over[g] else 'running'} by its phase but "
                      f"terminated is {bool(state.terminated[g])}")
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
