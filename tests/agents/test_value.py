"""A value fitted to outcomes (wargym.agents.value) and the planner that scores cut playouts by it."""

from __future__ import annotations

import json

import numpy as np
import pytest

from wargym import contract, make_core
from wargym.agents.base import AgentSpecError, joint_actions, make_agent
from wargym.agents.value import FORMAT, ValueFile, ValueModel, collect, features, fit, load_value
from wargym.hidden import perturb
from wargym.rng import game_keys


@pytest.fixture(scope="module")
def waw():
    """World at War pacific (major decisions): the U.S. wins about half its rule-vs-rule games."""
    core = make_core("world_at_war", scenario="pacific", decisions="major")
    rules = [make_agent("rule", "world_at_war", side) for side in core.players]
    return core, rules


@pytest.fixture(scope="module")
def fitted(waw):
    core, rules = waw
    x, y, game = collect(core, 0, rules, 16, seed=300, every=10, batch=8)
    return x, y, game, fit(core, 0, x, y, game, held_out=4)


def test_value_positions_carry_their_games_result(waw, fitted):
    """Every position collected is labelled with the U.S. reward where its game ended: the same
    seeds played again by the same rules end the same way."""
    core, rules = waw
    x, y, game, _ = fitted
    state = core.init_from_keys(np.concatenate([game_keys(300 + i, 1) for i in range(8)]))
    for k, agent in enumerate(rules):
        agent.reset(300 + k)
    while not (state.terminated | state.truncated).all():
        live = ~(state.terminated | state.truncated)
        state = core.step(state, joint_actions(core, state, rules, live), active=live)
    first = game < 8
    assert first.any() and set(np.unique(y)) <= {-1.0, 0.0, 1.0}
    assert np.array_equal(y[first], state.rewards[game[first], 0])
    assert x.shape == (len(y), features(core, state, 0).shape[1])


def test_value_round_trips_and_reports_its_held_out_check(waw, fitted, tmp_path):
    """The saved value predicts what the fitted one does, in (-1, 1); its file names the game it
    was fitted in and the held-out check beside the standing alone and the base rate."""
    core, _ = waw
    *_, model = fitted
    path = model.save(tmp_path / "v.json")
    again = load_value(str(path))
    state = core.init(4, 9)
    assert np.allclose(model.value(core, state, 0), again.value(core, state, 0))
    assert np.all(np.abs(again.value(core, state, 0)) < 1)
    data = json.loads(path.read_text())
    assert (data["ruleset"], data["scenario"], data["side"], data["decisions"]) == ("world_at_war", "pacific", "us",
                                                                                   "major")
    check = data["fitted"]["check"]
    assert check["held_out_games"] == 4 and set(check) >= {"model", "standing_alone", "base_rate"}


@pytest.mark.parametrize("ruleset,scenario,side", [("world_at_war", "pacific", "us"), ("peleliu", None, "us"),
                                                   ("attu", None, "us")])
def test_value_features_are_the_players_view_only(ruleset, scenario, side):
    """Two positions that differ only in what the player may not see (``perturb``) give it the
    same features: a value never reads a hidden fact."""
    core = make_core(ruleset, scenario=scenario, decisions="major")
    player = core.players.index(side)
    rng = np.random.default_rng(4)
    for state in contract.mid_game_states(core, 4, 12, rng=rng):
        other = perturb(core, state, player, rng)
        assert np.array_equal(features(core, state, player), features(core, other, player))


def constant(core, side: str, z: float) -> ValueModel:
    """A value that says 2 sigmoid(z) - 1 of every position."""
    f = features(core, core.init(1, 0), core.players.index(side)).shape[1]
    return ValueModel(ValueFile(format=FORMAT, ruleset=core.name, scenario=core.scenario.name, side=side,
                                decisions=core.decisions, options=dict(core.options), features=f, mean=[0.0] * f,
                                scale=[1.0] * f, coef=[0.0] * f, intercept=z))


def test_planner_scores_a_cut_playout_by_the_value_and_an_ended_one_by_its_reward(waw, tmp_path):
    """With a value, a playout that stops at the horizon scores the value there (here a constant
    2 sigmoid(0.5) - 1 = 0.2449), one that ended its reward (+-1): one scale for both."""
    core, _ = waw
    path = constant(core, "us", 0.5).save(tmp_path / "half.json")
    planner = make_agent(f"plan:budget=8,top=2,horizon=2,value={path}", "world_at_war", "us", seed=1)
    state = core.init(1, 2)
    while int(state.current_player[0]) != 0 or state.legal_action_mask[0].sum() < 2:
        state = core.step(state, joint_actions(core, state, planner.bases(core)))
    cands = np.flatnonzero(state.legal_action_mask[0])[:2]
    values = planner.playouts(core, state, 0, [(0, cands, 3)])[0]
    assert np.allclose(values, 2 / (1 + np.exp(-0.5)) - 1, atol=1e-9)
    ended = make_agent(f"plan:budget=8,top=2,horizon=100000,value={path}", "world_at_war", "us", seed=1)
    values = ended.playouts(core, state, 0, [(0, cands, 2)])[0]
    assert set(np.unique(values)) <= {-1.0, 0.0, 1.0}


def test_value_errors_name_the_file_the_key_and_the_game(waw, tmp_path):
    core, _ = waw
    bad = tmp_path / "bad.json"
    data = constant(core, "us", 0.0).data.model_dump()
    bad.write_text(json.dumps({**data, "coef": data["coef"][:-1]}))
    with pytest.raises(ValueError, match=r"bad\.json.*coef has"):
        load_value(str(bad))
    with pytest.raises(FileNotFoundError, match="no fitted value 'nowhere'.*shipped values: .*attu_campaign_us"):
        load_value("nowhere")
    good = constant(core, "us", 0.0).save(tmp_path / "us.json")
    with pytest.raises(AgentSpecError, match="fitted for us in world_at_war, the planner plays japan"):
        make_agent(f"plan:value={good}", "world_at_war", "japan")
    other = make_core("world_at_war", scenario="pacific", decisions="full")
    planner = make_agent(f"plan:horizon=2,value={good}", "world_at_war", "us")
    with pytest.raises(ValueError, match="fitted with decisions 'major', this game has decisions 'full'"):
        planner.value.value(other, other.init(1, 0), 0)
