"""Policy iteration on the teacher's few-option decisions (agents/choices.py)."""

from __future__ import annotations

import numpy as np
import pytest

from wargym.agents.attu_rule import AttuRuleAgent
from wargym.agents.choices import EVAL_SEED, MIN_TAKEN, ChoiceAgent, fit, improve, improve_config, play
from wargym.attu.actions import NO, YES
from wargym.attu.core import AttuCore

REFIT = "refit decision"


@pytest.fixture(scope="module")
def core():
    return AttuCore("campaign", decisions="major")


def test_fit_takes_the_option_whose_fitted_result_is_higher():
    # phi = (x, 1).  Option 10 wins with probability x, option 20 with 0.6 whatever x: Q10 = x,
    # Q20 = 0.6, so 10 is the choice exactly where x > 0.6.
    x = np.linspace(0.0, 1.0, 201)
    phi = np.concatenate([np.stack([x, np.ones_like(x)], 1)] * 2)
    data = {"phase": np.full(402, 3), "phi": phi, "action": np.repeat([10, 20], 201),
            "result": np.concatenate([x, np.full(201, 0.6)])}
    data["action"][:MIN_TAKEN - 1] = 30  # taken too rarely to be fitted
    agent = ChoiceAgent(None, 0, fit(data, [3], ridge=1e-6))
    assert agent.phases[3][0].tolist() == [10, 20]
    mask = np.zeros((4, 40), dtype=bool)
    mask[:, [10, 20, 30]] = True
    mask[3, 10] = False                                              # option 10 masked: 20
    chosen = agent.choose(np.array([3, 3, 3, 3]), np.array([[0.9, 1], [0.2, 1], [0.65, 1], [0.9, 1]]),
                          mask, fallback=np.full(4, 30))
    assert chosen.tolist() == [10, 20, 10, 20]
    # a phase without fitted options keeps the base's action
    assert agent.choose(np.array([5]), np.array([[0.9, 1.0]]), mask[:1], np.array([30])).tolist() == [30]


def state_at_refit_decision(core):
    """Rule-vs-rule games stepped until some U.S. player is at a refit decision (9.0)."""
    us, japan = AttuRuleAgent("us"), AttuRuleAgent("japan")
    state = core.init(16, 3)
    refit = core.phase_names.index(REFIT)
    for _ in range(5000):
        if ((state.phase == refit) & (state.current_player == 0)).sum() >= 2:
            return state
        actions = np.where(state.current_player == 0, us.act(core, state, 0), japan.act(core, state, 1))
        core.step_in_place(state, actions)
    raise AssertionError("no refit decision reached")


def test_choice_agent_changes_only_the_learned_phase(core):
    # weights that always value NO above YES at the refit decision (the constant, last feature)
    H, refit = core.tables.nbr.shape[0], core.phase_names.index(REFIT)
    width = core.observe(core.init(1, 0), 0)["global"].shape[1] + 1
    weights = np.zeros((2, width))
    weights[1, -1] = 1.0
    state = state_at_refit_decision(core)
    rule = AttuRuleAgent("us")
    agent = ChoiceAgent(rule, 0, {refit: (np.array([H + YES, H + NO]), weights)})
    at = (state.phase == refit) & (state.current_player == 0)
    base, chosen = rule.act(core, state, 0), agent.act(core, state, 0)
    assert (chosen[at] == H + NO).all()
    assert (chosen[~at] == base[~at]).all()
    assert (agent.act(core, state, 1) == rule.act(core, state, 1)).all()  # the other side: untouched


def test_play_explores_another_legal_option_with_probability_epsilon(core):
    rule, japan = AttuRuleAgent("us"), AttuRuleAgent("japan")
    refit = core.phase_names.index(REFIT)
    _, greedy = play(core, 0, rule, japan, 4, seed=11, phase_ids=[refit])
    _, flipped = play(core, 0, rule, japan, 4, seed=11, epsilon=0.999999, rng=np.random.default_rng(0),
                      phase_ids=[refit])
    # each game reaches its first refit decision by the same moves: there the option is the other one
    H = core.tables.nbr.shape[0]
    firsts = [np.array([np.flatnonzero(r["game"] == g)[0] for g in range(4)]) for r in (greedy, flipped)]
    assert set(greedy["action"].tolist()) <= {H + YES, H + NO}
    assert (greedy["phi"][firsts[0]] == flipped["phi"][firsts[1]]).all()
    assert (greedy["action"][firsts[0]] != flipped["action"][firsts[1]]).all()
    assert set(np.unique(flipped["result"])) <= {0.0, 1.0} and len(flipped["phi"]) == len(flipped["action"])


def test_improve_keeps_the_round_with_the_most_validation_wins(core):
    rule, japan = AttuRuleAgent("us"), AttuRuleAgent("japan")
    cfg = improve_config({"phases": [REFIT], "rounds": 2, "games": 48, "eval_games": 24}, core.phase_names, "test")
    agent, record = improve(core, 0, rule, japan, cfg, seed=0)
    rates = [r["validation_win_rate"] for r in record["rounds"]]
    assert [r["round"] for r in record["rounds"]] == [0, 1, 2]
    assert record["chosen_round"] == int(np.argmax(rates))
    wins, _ = play(core, 0, agent, japan, 24, EVAL_SEED)
    assert wins / 24 == max(rates)  # the agent returned is the one chosen
    assert bool(agent.phases) == (record["chosen_round"] > 0)


def test_improve_block_errors_name_the_key_and_the_phase():
    from wargym.agents.train import load_config

    with pytest.raises(ValueError, match="no phase 'refit'; phases:"):
        load_config({"ruleset": "attu", "pretrain": {"improve": {"phases": ["refit"]}}})
    with pytest.raises(ValueError, match="unknown pretrain.improve keys \\['round'\\]"):
        load_config({"ruleset": "attu", "pretrain": {"improve": {"phases": [REFIT], "round": 2}}})
    with pytest.raises(ValueError, match="pretrain.improve.epsilon must be in \\[0, 1\\)"):
        load_config({"ruleset": "attu", "pretrain": {"improve": {"phases": [REFIT], "epsilon": 1.0}}})
    cfg, _ = load_config({"ruleset": "attu", "pretrain": {"improve": {"phases": [REFIT]}}})
    assert cfg["pretrain"]["improve"]["rounds"] == 4
