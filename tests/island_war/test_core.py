"""The Core contract for Island War: determinism, records, errors, masks."""

from __future__ import annotations

import json

import numpy as np
import pytest

from wargym import IllegalActionError
from wargym.data import DataError
from wargym.island_war.core import IslandWarCore
from wargym.island_war.scenario import list_scenarios, load_scenario


def random_play(core, state, steps, seed):
    """Random masked play for ``steps`` batch steps; returns the states and actions."""
    rng = np.random.default_rng(seed)
    states, actions = [state], []
    for _ in range(steps):
        a = (rng.random(state.legal_action_mask.shape) * state.legal_action_mask).argmax(1)
        state = core.step(state, a)
        states.append(state)
        actions.append(a)
    return states, actions


def assert_same(a, b):
    for name, arr in a.arrays().items():
        assert np.array_equal(arr, getattr(b, name)), name


@pytest.fixture(scope="module")
def core():
    return IslandWarCore("saipan")


def test_shipped_scenarios_listed():
    assert {"saipan", "bloody_ridge"} <= set(list_scenarios())


def test_init_same_game_for_any_batch_size(core):
    one = core.init(1, seed=7)
    many = core.init(64, seed=7)
    assert_same(one, many.take(slice(0, 1)))


def test_determinism_game_alone_and_inside_batch(core):
    """Same seed and actions give the same game at batch 1 and as game 5 of a batch of 64."""
    batch = core.init(64, seed=11)
    states, actions = random_play(core, batch, 300, seed=3)
    alone = batch.take(slice(5, 6))
    for t, a in enumerate(actions):
        if alone.terminated[0] or alone.truncated[0]:
            break
        alone = core.step(alone, a[5:6])
        assert_same(alone, states[t + 1].take(slice(5, 6)))


def test_threads_do_not_change_results():
    """Games are independent: sharing a batch among two threads gives the same states."""
    import numba
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("one CPU")
    one = IslandWarCore("saipan", threads=1)
    two = IslandWarCore("saipan", threads=2)
    s1, _ = random_play(one, one.init(32, seed=8), 150, seed=4)
    s2, _ = random_play(two, two.init(32, seed=8), 150, seed=4)
    assert_same(s1[-1], s2[-1])


def test_same_seed_same_actions_same_trajectory(core):
    s1, _ = random_play(core, core.init(8, seed=2), 200, seed=9)
    s2, _ = random_play(core, core.init(8, seed=2), 200, seed=9)
    assert_same(s1[-1], s2[-1])


def test_save_load_round_trip_exact(core):
    states, _ = random_play(core, core.init(4, seed=5), 250, seed=1)
    state = states[-1]
    records = [json.loads(json.dumps(core.to_dict(state, g))) for g in range(4)]
    assert_same(core.from_dict(records), state)
    one = core.from_dict(records[2])
    assert_same(one, state.take(slice(2, 3)))


def test_loaded_game_continues_identically(core):
    states, actions = random_play(core, core.init(2, seed=4), 120, seed=6)
    restored = core.from_dict([core.to_dict(states[60], g) for g in range(2)])
    for a in actions[60:]:
        restored = core.step(restored, a)
    assert_same(restored, states[-1])


def test_record_of_other_scenario_rejected(core):
    other = IslandWarCore("bloody_ridge")
    rec = other.to_dict(other.init(1, 0), 0)
    with pytest.raises(ValueError, match="scenario"):
        core.from_dict(rec)


def test_illegal_action_names_game_action_reason_and_keeps_state(core):
    state = core.init(3, seed=0)
    before = state.copy()
    illegal = int(np.nonzero(~state.legal_action_mask[1])[0][0])
    actions = np.array([int(np.nonzero(state.legal_action_mask[g])[0][0]) for g in range(3)])
    actions[1] = illegal
    with pytest.raises(IllegalActionError) as err:
        core.step(state, actions)
    assert err.value.game == 1 and err.value.action == illegal
    assert "illegal" in str(err.value) and "legal:" in str(err.value)
    assert_same(state, before)


def test_out_of_range_and_wrong_shape_actions(core):
    state = core.init(2, seed=0)
    with pytest.raises(IllegalActionError, match="outside the action space"):
        core.step(state, np.array([core.num_actions, 0]))
    with pytest.raises(ValueError, match="shape"):
        core.step(state, np.array([0, 0, 0]))


def test_finished_games_ignore_actions(core):
    states, _ = random_play(core, core.init(2, seed=3), 10, seed=0)
    s = states[-1]
    import dataclasses
    done = dataclasses.replace(s, terminated=np.array([True, False]))
    a = np.array([10**6, int(np.nonzero(s.legal_action_mask[1])[0][0])])
    after = core.step(done, a)
    assert_same(after.take(slice(0, 1)), done.take(slice(0, 1)))


def test_step_does_not_modify_input(core):
    state = core.init(4, seed=1)
    before = state.copy()
    random_play(core, state, 20, seed=2)
    assert_same(state, before)


def test_inactive_games_are_not_stepped(core):
    state = core.init(2, seed=1)
    a = np.array([int(np.nonzero(state.legal_action_mask[g])[0][0]) for g in range(2)])
    after = core.step(state, a, active=np.array([False, True]))
    assert_same(after.take(slice(0, 1)), state.take(slice(0, 1)))
    assert after.decisions[1] == 1


def test_observation_shapes_and_bounds(core):
    state = core.init(3, seed=0)
    for p in range(2):
        obs = core.observe(state, p)
        assert obs["spatial"].shape == (3, *core.observation_shapes["spatial"])
        assert obs["global"].shape == (3, *core.observation_shapes["global"])
        assert obs["spatial"].dtype == np.float32
        assert obs["spatial"].min() >= 0 and obs["spatial"].max() <= 2


def test_describe_action_readable(core):
    state = core.init(1, seed=0)
    legal = np.nonzero(state.legal_action_mask[0])[0]
    texts = [core.describe_action(a, state, 0) for a in legal]
    assert any("end phase" in t for t in texts)
    assert all(isinstance(t, str) and t for t in texts)


def test_bad_scenario_file_names_file_key_value_rule(tmp_path):
    src = load_scenario.__wrapped__  # uncached, so each broken file is read
    import shutil
    from wargym.data import config_path
    folder = config_path("island_war")
    for name in ("terrain.yaml", "crt.yaml", "saipan_map.yaml"):
        shutil.copy(folder / name, tmp_path / name)
    text = (folder / "saipan.yaml").read_text()
    bad = tmp_path / "saipan.yaml"
    bad.write_text(text.replace("first_player: us", "first_player: germany"))
    with pytest.raises(DataError) as err:
        src(str(bad))
    msg = str(err.value)
    assert "saipan.yaml" in msg and "first_player" in msg and "germany" in msg and "rule 3.0" in msg


def test_unknown_decisions_mode_rejected():
    with pytest.raises(ValueError, match="decisions"):
        IslandWarCore("saipan", decisions="some")
