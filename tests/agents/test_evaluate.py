"""wargym.agents.evaluate: the rule-based player against random play on Saipan (8 games, the minor
choices by the default rules), swapped sides, Wilson intervals, replays that play back exactly,
and ``wargym eval``'s pieces."""

from __future__ import annotations

import argparse
import json

import numpy as np
import pytest

from wargym.agents.evaluate import add_eval_arguments, evaluate, game_plan, run_eval, wilson_interval
from wargym.replay import load_replay

GAMES = 8


@pytest.fixture(scope="module")
def replay_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("replays")


@pytest.fixture(scope="module")
def rule_vs_random(replay_dir):
    return evaluate("island_war", "rule", "random", games=GAMES, seed=0, scenario="saipan",
                    decisions="major", replay_dir=replay_dir, batch_size=GAMES)


@pytest.fixture(scope="module")
def random_vs_rule():
    return evaluate("island_war", "random", "rule", games=GAMES, seed=0, scenario="saipan",
                    decisions="major", batch_size=GAMES)


def test_rule_wins_most_games_against_random(rule_vs_random):
    r = rule_vs_random
    assert (r.agent_a, r.agent_b, len(r.games)) == ("rule", "random", GAMES)
    assert r.wins >= GAMES - 1, "\n".join(r.table())
    assert r.wins + r.draws + r.losses == GAMES
    assert r.mean_length > 100 and r.std_length >= 0
    assert r.seconds > 0


def test_sides_swap_in_mirrored_pairs(rule_vs_random):
    sides = [g.a_side for g in rule_vs_random.games]
    assert sides == ["us", "japan"] * (GAMES // 2)
    assert [g.seed for g in rule_vs_random.games] == [j // 2 for j in range(GAMES)]
    by_side = rule_vs_random.by_side
    assert set(by_side) == {"us", "japan"} and all(rec.games == GAMES // 2 for rec in by_side.values())


def test_swapping_a_and_b_mirrors_the_result(rule_vs_random, random_vs_rule):
    a, b = rule_vs_random.all, random_vs_rule.all
    assert b.losses >= GAMES - 1, "\n".join(random_vs_rule.table())
    assert abs(a.score - (1.0 - b.score)) <= 1.5 / GAMES
    assert [(g.seed, g.a_side) for g in rule_vs_random.games] == [(g.seed, g.a_side) for g in random_vs_rule.games]


def test_wilson_interval_bounds(rule_vs_random):
    for rec in [rule_vs_random.all, *rule_vs_random.by_side.values()]:
        lo, hi = rec.ci
        assert 0.0 <= lo <= rec.win_rate <= hi <= 1.0
    lo, hi = wilson_interval(8, 8)
    assert hi == 1.0 and lo == pytest.approx(0.6756, abs=1e-3)  # 8/8: [67.6%, 100%]
    lo, hi = wilson_interval(5, 10)
    assert lo + hi == pytest.approx(1.0) and lo == pytest.approx(0.2366, abs=1e-3)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(50, 100)[1] - wilson_interval(50, 100)[0] < hi - lo  # more games, narrower


def test_replays_written_and_play_back(rule_vs_random, replay_dir):
    files = sorted(replay_dir.glob("*.json"))
    assert len(files) == GAMES == len(rule_vs_random.replays)
    for k in (0, 1):  # one of each side (each load re-plays ~1,700 decisions)
        game = rule_vs_random.games[k]
        replay = load_replay(files[k])
        rec = replay.record
        assert len(replay.actions) == game.length
        assert rec["seed"] == game.seed and rec["decisions"] == "major" and rec["scenario"] == "saipan"
        assert rec["agents"][game.a_side] == "rule"
        side = replay.core.players.index(game.a_side)
        reward = float(replay.core.rewards(replay.final)[0, side])
        assert {"win": reward > 0, "loss": reward < 0, "draw": reward == 0}[game.result]
        # the replay starts from exactly the game the seed deals
        assert replay.core.to_dict(replay.initial, 0) == replay.core.to_dict(replay.core.init(1, game.seed), 0)


def test_same_seed_same_games():
    runs = [evaluate("island_war", "random", "random", games=2, seed=5, decisions="major", batch_size=2)
            for _ in range(2)]
    assert runs[0].games == runs[1].games


def test_game_plan():
    assert game_plan(4, 10, 2) == [(0, 10, 0), (1, 10, 1), (2, 11, 0), (3, 11, 1)]
    assert game_plan(2, 10, 2, first_game=6) == [(6, 13, 0), (7, 13, 1)]
    assert game_plan(3, 10, 2, swap_sides=False) == [(0, 10, 0), (1, 11, 0), (2, 12, 0)]
    assert game_plan(2, 0, 1) == [(0, 0, 0), (1, 1, 0)]  # one player: A alone
    assert game_plan(3, 10, 2, a_side=1) == [(0, 10, 1), (1, 11, 1), (2, 12, 1)]  # A always japan
    with pytest.raises(ValueError, match="seed"):
        game_plan(2, -1, 2)


def test_a_side_fixes_the_side_a_plays():
    result = evaluate("island_war", "rule", "random", games=2, seed=3, decisions="major", a_side="japan")
    assert [g.a_side for g in result.games] == ["japan", "japan"]
    assert [g.seed for g in result.games] == [3, 4]
    with pytest.raises(ValueError, match="a_side 'red' is not a player"):
        evaluate("island_war", "rule", "random", games=2, a_side="red")


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="games"):
        evaluate("island_war", "rule", "random", games=0)
    with pytest.raises(ValueError, match="ruleset"):
        evaluate("chess", "rule", "random", games=2)
    with pytest.raises(ValueError, match="agent_b"):
        evaluate("island_war", "rule", None, games=2)


def test_cli_json(capsys):
    parser = argparse.ArgumentParser()
    add_eval_arguments(parser)
    args = parser.parse_args(["--a", "random", "--b", "random", "--games", "2", "--seed", "3",
                              "--decisions", "major", "--json"])
    assert run_eval(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["a"] == "random" and out["all"]["games"] == 2 and len(out["games"]) == 2
    args = parser.parse_args(["--games", "2", "--decisions", "major", "--quiet"])
    assert run_eval(args) == 0
    text = capsys.readouterr().out
    assert "rule (A) vs random (B)" in text and "95% CI" in text and "A as japan" in text
    assert np.isfinite(out["all"]["ci_low"])
