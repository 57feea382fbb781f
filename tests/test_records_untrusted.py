"""Records from outside are checked before any kernel sees them (wargym.core.BaseCore.from_dict).

20,000 mutated records (5,000 per shipped ruleset; tests/fuzz_records.py): fields out of range,
negative, huge, of the wrong type or shape, missing or unknown, headers changed, and in-range values
that may or may not fit the rest.  Each is refused with an error naming the field or the record, or
(only an in-range value) accepted as a position the rules give, and then stepped (keeping the
invariants, contract.invariants), observed, rendered and viewed.  The first 1,000 of each also go
to a running ``wargym serve``, which must answer each request and a ping after it.  The script runs in a subprocess, so a crash fails the test instead of
ending the test run.

Then the records of issue 47, by hand on every ruleset where they apply: a freshly dealt game marked
finished, a running game with a reward, the decision count at the int32 limit or at the cap, a game
truncated with legal actions left, Peleliu's Infantry Loss Box at 60 or at the catastrophic level
of a running game, and the Peleliu position with ``sel = SEL_HQ_AHEAD`` through its record.  And a
property test (hypothesis): one value of a real mid-game record changed to anything its dtype holds
is refused clearly, or every legal action of the accepted position steps and keeps the invariants.
"""

from __future__ import annotations

import copy
import functools
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings, strategies as st

import fuzz_records
from wargym import contract, schema
from wargym.agents import sample_legal
from wargym.attu import state as attu_state
from wargym.core import RecordError
from wargym.island_war import state as island_war_state
from wargym.peleliu import state as peleliu_state
from wargym.peleliu.scenario import HEAVY, INF
from wargym.peleliu.state import SEL_HQ_AHEAD, US_ELIM, US_MAP
from wargym.registry import make_core, shipped
from wargym.world_at_war import state as world_at_war_state

SCRIPT = Path(__file__).resolve().parent / "fuzz_records.py"
SHIPPED = shipped()


@pytest.mark.parametrize("name", SHIPPED)
def test_5000_mutated_records_are_refused_clearly_or_play_safely(name):
    proc = subprocess.run([sys.executable, str(SCRIPT), "--ruleset", name, "--records", "5000", "--serve", "1000",
                           "--seed", "0"], capture_output=True, text=True, timeout=1500)
    assert proc.returncode == 0, (proc.stdout[-2000:], proc.stderr[-4000:])
    counts = json.loads(proc.stdout.strip().splitlines()[-1])
    assert counts["failures"] == 0 and counts["served"] == 1000
    assert counts["refused"] + counts["accepted"] == 5000 and counts["refused"] > 3000


# ------------------------------------------------------------------ hand-made records (issue 47)
# Each test takes a record the engine wrote, changes what the issue names and expects from_dict to
# refuse it with a RecordError that names the field and the game.

@functools.lru_cache(maxsize=None)
def core_of(name: str, decisions: str = "full"):
    return make_core(name, None, decisions=decisions)


@functools.lru_cache(maxsize=None)
def mid_game(name: str) -> dict:
    """A record of game 0 of the seed-3 batch, 60 decisions of keyed random play in."""
    core = core_of(name)
    state = contract.play(core, core.init(4, 3), 60)
    return json.loads(json.dumps(core.to_dict(state, 0)))


def changed(record: dict, **values) -> dict:
    """A copy of ``record`` with the value of each field named given anew."""
    out = copy.deepcopy(record)
    for name, value in values.items():
        out["fields"][name]["value"] = value
    return out


def refused(name: str, record: dict, match: str) -> str:
    with pytest.raises(RecordError, match=match) as err:
        core_of(name).from_dict(record)
    return str(err.value)


#: the fields a finished game of each ruleset shows besides ``terminated`` (its phase "game over",
#: its result or winner and the rewards that go with them): a record that looks finished in every
#: flag, so that only its position can tell it is not
FINISHED_LOOKS = {
    "attu": {"phase": attu_state.OVER, "rewards": [1.0, -1.0]},
    "island_war": {"phase": island_war_state.OVER, "rewards": [1.0, -1.0]},
    "peleliu": {"phase": peleliu_state.P_OVER, "result": peleliu_state.R_WIN, "rewards": [1.0]},
    "world_at_war": {"phase": world_at_war_state.P_OVER, "winner": 0, "rewards": [1.0, -1.0]},
}


@pytest.mark.parametrize("name", SHIPPED)
def test_a_freshly_dealt_game_marked_finished_is_refused(name):
    core = core_of(name)
    fresh = core.to_dict(core.init(1, 5), 0)
    actions = len(fresh["fields"]["legal_action_mask"]["value"])
    record = changed(fresh, terminated=True, legal_action_mask=[False] * actions, **FINISHED_LOOKS[name])
    message = refused(name, record, r"field (terminated|winner): game 0")
    assert "ends no game" in message or "below its quota" in message


@pytest.mark.parametrize("name", SHIPPED)
@pytest.mark.parametrize("reward", [0.5, 1.0])
def test_a_running_game_with_a_reward_is_refused(name, reward):
    record = mid_game(name)
    rewards = record["fields"]["rewards"]["value"]
    message = refused(name, changed(record, rewards=[reward] + rewards[1:]), r"field rewards: game 0")
    assert "running" in message


@pytest.mark.parametrize("name", SHIPPED)
def test_decisions_at_the_int32_limit_are_refused(name):
    """2**31 - 1 decisions: one step would wrap the count negative and the cap would never fire."""
    cap = core_of(name).max_decisions
    refused(name, changed(mid_game(name), decisions=2**31 - 1), rf"field decisions: game 0 has 2147483647, outside \[0, {cap}\]")


@pytest.mark.parametrize("name", SHIPPED)
def test_a_running_game_at_the_decision_cap_is_refused(name):
    """The driver truncates a game the moment its decisions reach the cap."""
    refused(name, changed(mid_game(name), decisions=core_of(name).max_decisions), r"field decisions: game 0 is running")


@pytest.mark.parametrize("name", SHIPPED)
def test_a_game_truncated_below_the_cap_with_legal_actions_is_refused(name):
    record = mid_game(name)
    actions = len(record["fields"]["legal_action_mask"]["value"])
    refused(name, changed(record, truncated=True, legal_action_mask=[False] * actions),
            r"field truncated: game 0 is truncated, but it is below the decision cap")


def test_peleliu_15_1_a_loss_box_of_60_is_refused():
    """60 counters in the Infantry Loss Box are all the infantry counters of the 15 September
    scenario (the declared limit), but the position's eliminated and reduced units put far fewer
    there; play would push the box past 60 with the next loss."""
    record = mid_game("peleliu")
    assert core_of("peleliu").dims["LOSSES"] == 60
    message = refused("peleliu", changed(record, loss_box=60), r"field loss_box: game 0 has 60 infantry counters")
    assert "(15.1, 18.41)" in message
    refused("peleliu", changed(record, loss_box=61), r"field loss_box: game 0 has 61, outside \[0, 60\]")


def test_peleliu_15_1_a_running_game_at_catastrophic_loss_is_refused():
    """A record of a running game at turn 5 or later whose eliminated units put the turn's level of
    counters in the box (charts.yaml: 14 at turn 5, 18 at turn 6 ...) describes a game 15.1 has
    already ended."""
    core = core_of("peleliu")
    state, keys = core.init(8, 11), None
    for t in range(600):  # keyed random play until a game runs at turn 5
        live = np.flatnonzero(~(state.terminated | state.truncated) & (state.turn >= 5))
        if len(live):
            break
        keys = state.rng_key.copy() if keys is None else keys
        state = contract.play(core, state, 1, keys, t)
    g = int(live[0])
    record = core.to_dict(state, g)
    level = int(core.scenario.catastrophic[int(state.turn[g])])
    # eliminate four-step infantry units at full strength that nothing in play refers to (two
    # counters each) until the box reaches the level
    fields = record["fields"]
    free = ~(state.att_units[g] | state.cc_units[g] | state.tie_units[g] | state.pending[g] | state.fire_hit[g])
    if state.sel[g] >= 0:
        free[state.sel[g]] = False
    four = np.isin(core.scenario.us_type, (INF, HEAVY)) & (core.scenario.us_steps == 4)
    box = int(state.loss_box[g])
    for u in np.flatnonzero(four & free & (state.us_loc[g] == US_MAP) & (state.us_steps[g] >= 3)):
        if box >= level:
            break
        for key, value in (("us_loc", US_ELIM), ("us_hex", -1), ("us_steps", 0), ("us_dis", 0), ("hero", 0), ("cp", -1)):
            fields[key]["value"][u] = value  # as board.eliminate_us leaves a unit
        box += 2
    assert box >= level, "not enough full-strength infantry on the map"
    fields["loss_box"]["value"] = box
    refused("peleliu", record, r"field loss_box: game 0 runs on .* catastrophic loss ends the game")


def sel_hq_ahead_game():
    """Seed 1002 with the major decisions, random play (numpy seed 0): at decision 127 the second
    event's hero placement waits while the HQ phase is still to begin, sel = SEL_HQ_AHEAD (-2),
    which the schema once refused (issue 47 found it at step 133 of another game)."""
    core = core_of("peleliu", "major")
    state = core.init(1, 1002)
    rng = np.random.default_rng(0)
    states = [state]
    while int(state.sel[0]) != SEL_HQ_AHEAD:
        assert not (state.terminated[0] or state.truncated[0]) and len(states) < 400
        state = core.step(state, sample_legal(rng, state.legal_action_mask))
        states.append(state)
    return core, states


def test_peleliu_14_0_sel_hq_ahead_round_trips_at_every_step():
    core, states = sel_hq_ahead_game()
    assert len(states) - 1 == 127 and core.phase_names[int(states[-1].phase[0])] == "hero: unit"
    for state in states:  # every position of the game up to it, each through JSON
        contract.records_round_trip(core, state)
    restored = core.from_dict(json.loads(json.dumps(core.to_dict(states[-1], 0))))
    a, b = states[-1], restored
    keys = a.rng_key.copy()
    for t in range(30):  # and the restored game goes on as the original
        a, b = contract.play(core, a, 1, keys, t), contract.play(core, b, 1, keys, t)
        assert not contract._differ(a, b)


# ------------------------------------------------------------------------- the property test
@functools.lru_cache(maxsize=None)
def mid_game_records(name: str) -> list[dict]:
    core = core_of(name)
    return [core.to_dict(s, 0) for s in contract.mid_game_states(core, 21, 12)]


def within_dtype(dtype: np.dtype) -> st.SearchStrategy:
    """Any value a field of ``dtype`` can hold (its declared range aside)."""
    if dtype == np.bool_:
        return st.booleans()
    if np.issubdtype(dtype, np.floating):
        return st.floats(width=32)
    info = np.iinfo(dtype)
    return st.integers(int(info.min), int(info.max))


@pytest.mark.parametrize("name", SHIPPED)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_one_field_changed_within_its_dtype_is_refused_or_plays_on(name, data):
    """A real mid-game record with one value changed to anything its dtype holds: from_dict
    refuses it clearly (RecordError naming the field or the record), or every legal action of the
    position it accepts steps and leaves the invariants (contract.invariants) intact."""
    core = core_of(name)
    record = copy.deepcopy(data.draw(st.sampled_from(mid_game_records(name)), label="record"))
    field = data.draw(st.sampled_from(sorted(record["fields"])), label="field")
    entry = record["fields"][field]
    value = data.draw(within_dtype(schema.spec(core.state_class, field).dtype), label="value")
    slots = fuzz_records.elements(entry["value"])
    if slots:
        container, i = data.draw(st.sampled_from(slots), label="element")
        container[i] = value
    else:
        entry["value"] = value
    try:
        state = core.from_dict(json.loads(json.dumps(record)))
    except RecordError as err:
        assert fuzz_records.CLEAR.search(str(err)), str(err)
        event("refused")
        return
    event("accepted")
    legal = np.flatnonzero(state.legal_action_mask[0])
    if not len(legal):
        return
    each = state.take(np.zeros(len(legal), dtype=np.int64))  # the position once per legal action
    after = core.step(each, legal)
    errors = contract.invariants(core, after, each)
    assert not errors, errors[:3]
