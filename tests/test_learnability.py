"""benchmarks/learnability.py for a solitaire ruleset (Peleliu: one player, the cards play the
Japanese): the victory-level report (counts, rates, Wilson intervals, win or draw, means), the
checkpoint selection, the sides each ruleset trains, and the whole evaluation of a tiny run."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest
import yaml

from wargym.agents.evaluate import wilson_interval

ROOT = Path(__file__).resolve().parents[1]
LEVELS = ("in play", "U.S. victory", "U.S. defeat", "decisive U.S. defeat", "draw")  # peleliu/state.py


@pytest.fixture(scope="module")
def learnability():
    spec = importlib.util.spec_from_file_location("script_learnability", ROOT / "benchmarks" / "learnability.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def end(level: str, result: str, score: float | None = 1.0, turn: int | None = 6) -> dict:
    return {"level": level, "result": result, "truncated": level == "in play", "length": 250, "score": score,
            "turn": turn}


def test_solitaire_report_counts_each_victory_level_with_wilson_intervals(learnability):
    ends = ([end("U.S. victory", "win", 10.0, 12)] * 3 + [end("draw", "draw", 4.0, 12)] * 2
            + [end("U.S. defeat", "loss", -2.0, 6)] * 10 + [end("decisive U.S. defeat", "loss", -4.0, 12)] * 5)
    report = learnability.outcomes(ends, LEVELS, "in play")
    assert list(report["levels"]) == list(LEVELS[1:])  # no game stopped in play: not listed
    for level, count in (("U.S. victory", 3), ("U.S. defeat", 10), ("decisive U.S. defeat", 5), ("draw", 2)):
        share = report["levels"][level]
        assert share["count"] == count and share["rate"] == pytest.approx(count / 20)
        assert share["ci95"] == pytest.approx(list(wilson_interval(count, 20)))
    assert report["win_or_draw"]["count"] == 5
    assert report["win_or_draw"]["ci95"] == pytest.approx(list(wilson_interval(5, 20)))
    assert report["mean_result"] == pytest.approx((3 - 15) / 20)
    assert report["mean_score"] == pytest.approx((30 + 8 - 20 - 20) / 20)
    assert report["mean_turn"] == pytest.approx((3 * 12 + 2 * 12 + 10 * 6 + 5 * 12) / 20)


def test_a_game_stopped_in_play_is_listed_neither_won_nor_drawn_and_counts_as_lost(learnability):
    # evaluate calls a game stopped by the decision limit a draw (reward 0); a stalling policy
    # must not look better than one that plays its games out
    ends = [end("in play", "draw"), end("draw", "draw"), end("U.S. defeat", "loss")]
    report = learnability.outcomes(ends, LEVELS, "in play")
    assert report["levels"]["in play"]["count"] == 1 and report["win_or_draw"]["count"] == 1
    assert report["mean_result"] == pytest.approx(-2 / 3)


def test_an_unknown_level_is_refused_and_a_missing_score_is_none(learnability):
    assert learnability.outcomes([end("win", "win", None, None)], ("win", "draw", "loss"))["mean_score"] is None
    with pytest.raises(ValueError, match="none of the core's"):
        learnability.outcomes([end("victoire", "win")], LEVELS, "in play")


def test_solitaire_checkpoint_selection_takes_the_result_then_the_score_then_the_fewest_steps(learnability):
    curve = [{"steps": 0, "win_rate": 0.0, "mean_result": -1.0, "mean_score": -5.0},
             {"steps": 100, "win_rate": 0.0, "mean_result": -1.0, "mean_score": -3.0},
             {"steps": 200, "win_rate": 0.0, "mean_result": -1.0, "mean_score": -3.0}]
    assert max(curve, key=learnability.selection_key)["steps"] == 100
    curve.append({"steps": 300, "win_rate": 0.25, "mean_result": -0.5, "mean_score": -9.0})
    assert max(curve, key=learnability.selection_key)["steps"] == 300
    two_player = [{"steps": 0, "win_rate": 0.5}, {"steps": 100, "win_rate": 0.5}]
    assert max(two_player, key=learnability.selection_key)["steps"] == 0


def test_peleliu_trains_its_one_side_and_the_two_player_rulesets_both(learnability):
    assert learnability.players("peleliu") == ("us",) and learnability.solitaire("peleliu")
    assert learnability.players("island_war") == learnability.players("attu") == ("us", "japan")
    assert learnability.result_levels("peleliu") == (LEVELS, "in play")
    assert learnability.opponent_name("attu", "us") == "rule (japan)"
    assert "japan" in learnability.opponent_name("peleliu", "us")
    options = learnability.game_options("peleliu", "us")
    assert options == {"scenario": "sept15", "decisions": "full"}
    with pytest.raises(SystemExit):
        learnability.main(["--ruleset", "peleliu", "--sides", "japan", "--skip-train", "--out", "/nonexistent"])


def test_a_tiny_peleliu_run_is_evaluated_against_the_cards_with_its_rule_baseline(learnability, tmp_path, capsys,
                                                                                  monkeypatch):
    pytest.importorskip("sb3_contrib")
    from wargym.agents.train import train

    # an untrained policy selects a unit and takes it back until the core's limit (5,000
    # decisions): 300 keep the test short, and such games are reported "in play"
    options = learnability.game_options
    monkeypatch.setattr(learnability, "game_options",
                        lambda *a: {**options(*a), "core_options": {"max_decisions": 300}})
    shipped = yaml.safe_load((ROOT / "configs" / "train" / "peleliu_us.yaml").read_text())
    small = {"n_envs": 2, "n_steps": 16, "batch_size": 32, "n_epochs": 1, "checkpoint_every": 32,
             "pretrain": None, "progress_bar": False, "torch_threads": 1,
             "extractor": {"channels": [4], "dilations": [1], "global_embed": 4, "summary_dim": 16}}
    train({**shipped, **small}, steps=32, out_dir=tmp_path / "us", seed=1)
    assert learnability.main(["--ruleset", "peleliu", "--out", str(tmp_path), "--skip-train", "--games", "2",
                              "--curve-games", "1"]) == 0
    results = json.loads((tmp_path / "learnability.json").read_text())
    assert list(results) == ["us"]
    res = results["us"]
    assert "japan" in res["opponent"] and [p["steps"] for p in res["curve"]] == [32]
    for played in (res["final"], res["own_rule_baseline"]):
        assert played["games"] == 2 and sum(s["count"] for s in played["levels"].values()) == 2
        assert set(played["levels"]) >= {"U.S. victory", "U.S. defeat", "decisive U.S. defeat", "draw"}
        stalled = played["levels"].get("in play", {"count": 0})["count"]
        assert played["win_or_draw"]["count"] == played["wins"] + played["draws"] - stalled
        assert played["mean_score"] is not None and played["mean_turn"] >= 1
    assert res["own_rule_baseline"]["agent"] == "rule" and res["final"]["agent"].startswith("sb3:")
    out = capsys.readouterr().out
    assert "U.S. defeat" in out and "win or draw" in out and "rule baseline" in out
