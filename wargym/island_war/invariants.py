"""What every Island War position holds (``IslandWarCore.check_state``).

The contract's fuzz checks these after every decision, and ``from_dict`` checks a record from
outside against them before any kernel sees it, so every position a kernel meets is one the rules
could reach in these respects:

* 2.1 / 5.31  a unit on the map stands on a passable hex, alone; a unit off it has no hex
* 4.1         the decision in progress has what it works on: the unit being moved or advanced, the
              retreat queue's current unit, the hex a displacement waits on, the side advancing
* 7.91        Paths of Retreat only after a combat's result, each from a combat position, and room
              left for every unit still to retreat
* 4.0         "game over" is the phase of a finished game and of no other
"""

from __future__ import annotations

import numpy as np

from wargym.island_war.state import (
    ADVANCE_DEST, ADVANCE_SELECT, DISPLACE, MOVE_DEST, ON_MAP, OVER, RETREAT, WAITING,
)


def check(core, state) -> list[str]:
    """One message per broken invariant, naming the game and the field."""
    sc = core.scenario
    errors: list[str] = []
    on = state.unit_status == ON_MAP
    bad = on != (state.unit_hex >= 0)
    for g, u in np.argwhere(bad)[:3]:
        errors.append(f"field unit_hex: game {g} unit {u} has hex {int(state.unit_hex[g, u])} with status "
                      f"{int(state.unit_status[g, u])} (on the map exactly when it has a hex, 2.1)")
    phase = state.phase
    for g in range(state.batch_size):
        hexes = state.unit_hex[g][on[g]]
        if len(np.unique(hexes)) != len(hexes):
            errors.append(f"field unit_hex: game {g} has two units in one hex (5.31)")
        if not (sc.hex_move_cost[hexes[hexes >= 0]] > 0).all():
            errors.append(f"field unit_hex: game {g} has a unit on an impassable hex (2.1)")
        errors += _decision(state, g, int(phase[g]))
    over = phase == OVER
    if (over != state.terminated).any():
        g = int(np.argmax(over != state.terminated))
        errors.append(f"field phase: game {g} is {'over' if over[g] else 'running'} by its phase but "
                      f"terminated is {bool(state.terminated[g])}")
    return errors


def _decision(state, g: int, phase: int) -> list[str]:
    u = int(state.selected[g])
    if phase == MOVE_DEST and (u < 0 or state.unit_status[g, u] not in (ON_MAP, WAITING)):
        return [f"field selected: game {g} moves unit {u}, which is neither on the map nor waiting"]
    if phase == ADVANCE_DEST and (u < 0 or state.unit_status[g, u] != ON_MAP):
        return [f"field selected: game {g} advances unit {u}, which is not on the map"]
    if phase in (ADVANCE_SELECT, ADVANCE_DEST) and state.adv_side[g] < 0:
        return [f"field adv_side: game {g} is advancing but no side advances"]
    if phase in (RETREAT, DISPLACE):
        head, length = int(state.rt_head[g]), int(state.rt_len[g])
        if not 0 <= head < length or state.rt_queue[g, head] < 0:
            return [f"field rt_head: game {g} retreats entry {head} of a queue of {length}"]
    if phase == DISPLACE and state.displace_into[g] < 0:
        return [f"field displace_into: game {g} displaces a friend for no hex"]
    if (state.rt_queue[g, :state.rt_len[g]] < 0).any():
        return [f"field rt_queue: game {g} has an empty entry among its first {int(state.rt_len[g])}"]
    count = int(state.path_count[g])
    after_result = phase in (RETREAT, DISPLACE, ADVANCE_SELECT, ADVANCE_DEST)
    to_come = int(state.rt_len[g] - state.rt_head[g]) if phase in (RETREAT, DISPLACE) else 0
    if (count and not after_result) or count + to_come > state.path_hex.shape[1] or \
            (state.path_hex[g, :count, 0] < 0).any():
        return [f"field path_count: game {g} has {count} Paths of Retreat in phase {phase} (7.91)"]
    return []
