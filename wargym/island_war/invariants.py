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
* 4.1, 8.41   two Combat Phases a Game-Turn: the count of those played is the Game-Turn's and
              Player-Turn's (one more in a game ended after its last Game-Turn); a unit's last
              adverse result comes from one of them
* 9.14        Ground Support Points left and those added to the combat being declared are at most
              the Game-Turn's
* the end     (``check_end``) a finished game's rewards are the ones the rules give its position
              (victory.py: after the last Game-Turn the Victory Conditions, 4.0, a draw inside the
              margins; before it, a side with no unit left on the map and none to arrive loses at
              once, README); a running game between two combats still has both sides
"""

from __future__ import annotations

import numpy as np

from wargym.core import end_marks
from wargym.island_war.state import (
    ADVANCE_DEST, ADVANCE_SELECT, DISPLACE, MOVE_DEST, ON_MAP, OVER, RETREAT, WAITING,
)
from wargym.island_war.victory import final_result, finish, side_wiped_out

AFTER_A_RESULT = (RETREAT, DISPLACE, ADVANCE_SELECT, ADVANCE_DEST)   # before the combat's end (finish_combat)


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
    errors += end_marks(state, OVER)
    return errors or _combat_phases(state) or _ground_support(core, state) or check_end(core, state)


def _ground_support(core, state) -> list[str]:
    """9.14: each side has its Game-Turn's Ground Support Points; those it adds to the combat being
    declared (as barrage by the phasing side, as FPF by the other) come out of them."""
    track = core.scenario.ground_support[state.turn.astype(np.int64)]                 # [B, 2]
    phasing = state.phasing.astype(np.int64)
    added = np.where(np.arange(2)[None, :] == phasing[:, None], state.cb_gs_attack[:, None], state.cb_gs_defense[:, None])
    errors = []
    for g, s in np.argwhere(state.gs_points + added > track)[:1]:
        errors.append(f"field gs_points: game {g} side {s} has {int(state.gs_points[g, s])} Ground Support Points left "
                      f"and {int(added[g, s])} in the combat, of the {int(track[g, s])} of Game-Turn "
                      f"{int(state.turn[g])} (9.14)")
    return errors


def _combat_phases(state) -> list[str]:
    """4.1: the Combat Phases played so far are two per Game-Turn before this one and one for its
    First Player-Turn when the Second is playing; end_combat_phase counts the last one before it
    ends the game (8.41 counts adverse results by them)."""
    played = 2 * (state.turn.astype(np.int64) - 1) + state.player_turn
    ended_after_it = state.terminated & (state.combat_phase == played + 1) & (state.player_turn == 1)
    errors = []
    for g in np.flatnonzero((state.combat_phase != played) & ~ended_after_it)[:1]:
        errors.append(f"field combat_phase: game {g} counts {int(state.combat_phase[g])} Combat Phases at Game-Turn "
                      f"{int(state.turn[g])}, Player-Turn {int(state.player_turn[g]) + 1} (4.1: {int(played[g])})")
    for g, u in np.argwhere(state.last_adverse > state.combat_phase[:, None])[:1]:
        errors.append(f"field last_adverse: game {g} unit {u} had an adverse result in Combat Phase "
                      f"{int(state.last_adverse[g, u])}, of {int(state.combat_phase[g])} played (8.41)")
    return errors


def check_end(core, state) -> list[str]:
    """The rewards of a finished game agree with the end the rules give its position: a game that
    counted its last Combat Phase ended after the last Game-Turn (4.0: the Victory Conditions), any
    other ended when a side lost its last unit (README); and no running game between two combats
    has a side without units."""
    errors: list[str] = []
    probe, S = core.reopened(state)
    T = core.tables
    for g in range(state.batch_size):
        if state.truncated[g]:
            continue
        loser = side_wiped_out(T, S, g)
        if state.terminated[g]:
            after_last = state.combat_phase[g] == 2 * state.turn[g]
            if after_last:
                finish(S, g, final_result(T, S, g))
            elif loser >= 0:
                finish(S, g, 1 - loser)
            want = probe.rewards[g].tolist()
            if not probe.terminated[g] or want != state.rewards[g].tolist():
                how = ("after the last Game-Turn" if after_last else "before its last Game-Turn")
                gives = f"gives rewards {want}" if probe.terminated[g] else "ends no game"
                errors.append(f"field terminated: game {g} ended {how} with rewards {state.rewards[g].tolist()}, but its "
                              f"position {gives} (4.0)")
        elif loser >= 0 and state.phase[g] not in AFTER_A_RESULT:
            errors.append(f"field terminated: game {g} runs on, but side {loser} has no unit left on the map and "
                          f"none to arrive: the game ends at once (README)")
        if errors:
            break
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
