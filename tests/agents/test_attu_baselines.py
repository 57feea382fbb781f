"""The Attu rule-based baselines: registered for both sides (and as the solitaire opponent), legal
everywhere, and clearly better than uniformly random play: >= 90% wins over 100 seeded campaign
games on each side; the solitaire env (13.0) runs the Japanese by the book."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import wargym.envs  # noqa: F401  (registers the gymnasium ids)
from wargym.agents import baselines
from wargym.agents.evaluate import evaluate
from wargym.attu.core import AttuCore

SIDES = ("us", "japan")


def test_attu_baselines_registered_for_both_sides_and_solitaire():
    keys = baselines.registered("attu")
    for key in [("attu", "us", "rule"), ("attu", "japan", "rule"), ("attu", "japan", "solitaire")]:
        assert key in keys


def test_attu_rule_vs_rule_is_legal_and_finishes():
    result = evaluate("attu", "rule", "rule", games=4, seed=7)  # core.step checks every action
    assert result.all.games == 4 and result.all.truncated == 0
    core = AttuCore()
    out = baselines.get("attu", "us").act(core, core.init(3, 0), 1)  # games where it is not to decide
    assert out.shape == (3,) and ((0 <= out) & (out < core.num_actions)).all()


def test_attu_rule_margin_plays_the_us_side_it_has_and_no_other():
    """A baseline of one side (rule:margin, the U.S.) is built only for the side it plays: with
    a_side="us" the games run; swapping sides asks it for Japan, which the error names."""
    result = evaluate("attu", "rule:margin", "rule", games=2, seed=7, a_side="us")
    assert result.all.games == 2 and result.all.truncated == 0 and {g.a_side for g in result.games} == {"us"}
    with pytest.raises(ValueError, match="no baseline 'margin' for side 'japan'.*us:margin"):
        evaluate("attu", "rule:margin", "rule", games=2, seed=7)


@pytest.mark.parametrize("rule_side", SIDES)
def test_attu_rule_beats_random(rule_side):
    result = evaluate("attu", "rule", "random", games=100, seed=2024, a_side=rule_side, batch_size=100)
    assert result.all.truncated == 0
    rate = result.all.win_rate
    assert rate >= 0.9, f"rule {rule_side} won {rate:.0%} of 100 games against random"


def test_attu_13_solitaire_env_runs_the_japanese_by_the_book():
    env = gymnasium.make("wargym/Attu-v0", side="us", opponent="solitaire", max_decisions=400)
    core = env.unwrapped.core
    assert core.options["solitaire"]
    obs, info = env.reset(seed=3)
    assert env.unwrapped.state.pinned[0].sum() == 6  # 13.2.1: one Unknown on each Victory Hex
    rng = np.random.default_rng(3)
    steps, done = 0, False
    while not done:
        legal = np.nonzero(info["action_mask"])[0]
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        done = terminated or truncated
        steps += 1
    assert steps > 10
    with pytest.raises(ValueError, match="solitaire"):
        gymnasium.make("wargym/IslandWar-v0", side="us", opponent="solitaire")
