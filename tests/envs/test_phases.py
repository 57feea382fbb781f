"""The env's ``phases`` option (the agent decides only in named decision phases, a delegate makes
its side's other decisions) and PhaseAgent, which plays such a policy in a whole game."""

from __future__ import annotations

import numpy as np
import pytest

import toy_core
from wargym.agents import FunctionAgent, PhaseAgent, make_agent
from wargym.agents.evaluate import evaluate
from wargym.envs import WargymEnv, WargymVectorEnv
from wargym.registry import make_core

COMMAND = ["refit decision", "night decision", "retreat option"]  # configs/train/attu_us.yaml


def recording(calls: list, core):
    """The toy rule, recording the phase of every game it is asked to decide."""
    rule = make_agent("rule", "toy", "red")

    def act(core_, state, player):
        mine = np.asarray(core_.current_player(state)) == player
        calls.extend(core.phase_names[p] for p in np.asarray(state.phase)[mine])
        return rule.act(core_, state, player)

    return FunctionAgent(act)


def test_agent_sees_only_its_phases_and_the_delegate_makes_the_rest():
    core = toy_core.ToyCore()
    delegated: list[str] = []
    env = WargymEnv(core=core, side="red", opponent="rule", phases=["move"], delegate=recording(delegated, core))
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    seen = []
    for _ in range(60):
        seen.append(core.phase_names[int(env.state.phase[0])])
        _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if terminated or truncated:
            _, info = env.reset()
    assert set(seen) == {"move"}
    assert delegated and "move" not in delegated and "select" in delegated


def test_vector_env_names_an_unknown_phase():
    with pytest.raises(ValueError, match="toy has no phase 'fly'; its phases: \\['select', 'move', 'defend'\\]"):
        WargymVectorEnv(2, core=toy_core.ToyCore(), side="red", phases=["move", "fly"])
    with pytest.raises(ValueError, match="non-empty list"):
        WargymVectorEnv(2, core=toy_core.ToyCore(), side="red", phases=[])


def rule_games(core, games: int, seed: int, phases: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """The U.S. rule against the Japanese rule in core.init(games, seed): the U.S. results and
    how many U.S. decisions of each game fell in ``phases``."""
    us, japan = make_agent("rule", "attu", "us"), make_agent("rule", "attu", "japan")
    ids = [core.phase_names.index(p) for p in phases]
    state = core.init(games, seed)
    counts = np.zeros(games, dtype=np.int64)
    while True:
        done = np.asarray(core.terminated(state) | core.truncated(state))
        if done.all():
            return np.asarray(core.rewards(state))[:, 0], counts
        player = np.asarray(state.current_player)
        counts += ~done & (player == 0) & np.isin(state.phase, ids)
        state = core.step(state, np.where(player == 0, us.act(core, state, 0), japan.act(core, state, 1)),
                          active=~done)


def test_attu_command_env_answered_as_the_rule_replays_the_rules_games():
    # 3.1/9.0 refit, 3.2 night, 8.2.1.3 retreat: the policy's phases; the U.S. rule (the delegate)
    # plays the units.  Answering as the rule does, every game must be the rule-vs-rule game of the
    # same seed, with one env step per U.S. decision in those phases.
    games, seed = 4, 11
    env = WargymVectorEnv(games, "attu", "campaign", side="us", opponent="rule", decisions="major", phases=COMMAND)
    rule = make_agent("rule", "attu", "us")
    env.reset(seed=seed)
    results, steps = np.full(games, np.nan), np.zeros(games, dtype=np.int64)
    while np.isnan(results).any():
        assert np.isin(env.state.phase, [env.core.phase_names.index(p) for p in COMMAND]).all()
        _, _, terminated, truncated, info = env.step(rule.act(env.core, env.state, 0))
        first = np.isnan(results)
        steps += first
        ended = first & (terminated | truncated)
        if ended.any():
            results[ended] = info["final_info"]["result"][ended]
    expected, counts = rule_games(make_core("attu", "campaign", decisions="major"), games, seed, COMMAND)
    np.testing.assert_array_equal(results, expected)
    np.testing.assert_array_equal(steps, counts)


def test_attu_phase_agent_asks_its_policy_only_in_its_phases():
    core = make_core("attu", "campaign", decisions="major")
    asked: list[str] = []
    rule = make_agent("rule", "attu", "us")

    def policy(core_, state, player):  # the rule's answers, recording what it is shown
        asked.extend(core.phase_names[p] for p in np.asarray(state.phase))
        return rule.act(core_, state, player)

    agent = PhaseAgent(FunctionAgent(policy), make_agent("rule", "attu", "us"), COMMAND)
    with_agent = evaluate("attu", agent, "rule", games=3, seed=5, a_side="us", decisions="major").games
    plain = evaluate("attu", "rule", "rule", games=3, seed=5, a_side="us", decisions="major").games
    assert [(g.result, g.length) for g in with_agent] == [(g.result, g.length) for g in plain]
    assert asked and set(asked) <= set(COMMAND) and "refit decision" in asked
    with pytest.raises(ValueError, match="has no phases \\['fly'\\]"):
        PhaseAgent(rule, rule, ["fly"]).act(core, core.init(1, 0), 0)
