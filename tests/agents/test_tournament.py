"""wargym.agents.ratings (Elo by maximum likelihood, bootstrap s.e.) on synthetic results, and a
small round robin (configs/tournament/smoke.yaml: random, rule, random with another seed on Saipan)
in 2 local processes, and on a local Ray cluster when Ray is installed."""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

import pytest

from wargym.agents.ratings import elo_ratings, expected_score
from wargym.agents.tournament import (
    add_tournament_arguments,
    load_config,
    make_tasks,
    run_tournament,
    run_tournament_cli,
)
from wargym.data import DataError

SMOKE = Path(__file__).resolve().parents[2] / "configs" / "tournament" / "smoke.yaml"


# ----------------------------------------------------------------------------------------- ratings
def test_stronger_player_rated_higher():
    games = [("a", "b", 1.0)] * 30 + [("a", "b", 0.0)] * 10 + [("b", "c", 1.0)] * 25 + [("c", "b", 1.0)] * 15
    r = elo_ratings(games, seed=0)
    assert r.order == ["a", "b", "c"]
    assert r.elo["a"] > r.elo["b"] > r.elo["c"]
    assert sum(r.elo.values()) == pytest.approx(0.0, abs=1e-6)
    # 30 of 40 against b: about 190 Elo points (a little less: the prior draw pulls together)
    assert 140 < r.elo["a"] - r.elo["b"] < 191
    assert all(se > 0 for se in r.stderr.values())
    assert r.games == {"a": 40, "b": 80, "c": 40} and r.score["a"] == pytest.approx(0.75)


def test_symmetric_results_give_equal_ratings():
    games = [("x", "y", 1.0), ("y", "x", 1.0), ("x", "y", 0.5), ("y", "z", 1.0), ("z", "y", 1.0),
             ("x", "z", 0.0), ("z", "x", 0.0)]
    r = elo_ratings(games, seed=1)
    assert r.elo["x"] == pytest.approx(r.elo["y"], abs=1e-6) == pytest.approx(r.elo["z"], abs=1e-6)
    assert expected_score(r.elo["x"], r.elo["y"]) == pytest.approx(0.5)


def test_perfect_score_stays_finite_and_bootstrap_is_seeded():
    games = [("rule", "random", 1.0)] * 20
    r1, r2 = elo_ratings(games, seed=3), elo_ratings(games, seed=3)
    assert r1 == r2
    assert 300 < r1.elo["rule"] - r1.elo["random"] < 1000  # the prior draw keeps 20-0 finite
    anchored = elo_ratings(games, anchor="random", bootstrap=0)
    assert anchored.elo["random"] == 0.0 and anchored.stderr["rule"] == 0.0


def test_ratings_refuse_bad_results():
    with pytest.raises(ValueError, match="itself"):
        elo_ratings([("a", "a", 1.0)])
    with pytest.raises(ValueError, match="score"):
        elo_ratings([("a", "b", 2.0)])
    with pytest.raises(ValueError, match="not in the list"):
        elo_ratings([("a", "b", 1.0)], players=["a"])


# --------------------------------------------------------------------------------------- configs
def test_configs_load():
    smoke = load_config(SMOKE)
    assert [a.name for a in smoke.agents] == ["random", "rule", "random-1"] and smoke.decisions == "major"
    assert load_config("smoke") == smoke  # by name, from the shipped configs
    base = load_config(SMOKE.parent / "island_war_baselines.yaml")
    assert {a.spec for a in base.agents} >= {"random", "rule"} and base.games_per_pair % 2 == 0
    # every pair's games, cut into chunks that keep mirrored pairs together
    tasks = make_tasks(smoke)
    assert len(tasks) == 3 and all(t["games"] == 4 and t["first_game"] == 0 for t in tasks)


def test_bad_config_names_the_problem(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("games_per_pair: 2\nagents: [random, random]\n")
    with pytest.raises(DataError, match="unique"):
        load_config(bad)
    bad.write_text("games_per_pair: 2\nagents: [random, rule]\nplayers: 3\n")
    with pytest.raises(DataError, match="players"):
        load_config(bad)


def test_ray_missing_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # as if Ray were not installed
    with pytest.raises(ImportError, match=r"wargym\[ray\]"):
        run_tournament(SMOKE, ray_address="local")


# ------------------------------------------------------------------------------------ tournament
@pytest.fixture(scope="module")
def local_run(tmp_path_factory):
    """``wargym tournament --config smoke.yaml --workers 2``: its output folder."""
    out = tmp_path_factory.mktemp("tournament")
    parser = argparse.ArgumentParser()
    add_tournament_arguments(parser)
    args = parser.parse_args(["--config", str(SMOKE), "--out", str(out), "--workers", "2", "--quiet", "--json",
                              "--replays"])
    assert run_tournament_cli(args) == 0
    return out


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_tournament_writes_tables_and_chart(local_run):
    for name in ("results.csv", "pairs.csv", "ratings.csv", "tournament.png", "summary.json"):
        assert (local_run / name).stat().st_size > 0, name
    rows = read_csv(local_run / "results.csv")
    assert len(rows) == 3 * 4
    assert set(rows[0]) >= {"a", "b", "a_side", "seed", "result", "length"}
    assert {r["a_side"] for r in rows} == {"us", "japan"}
    assert (local_run / "tournament.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_tournament_saves_each_game_as_a_replay_of_that_game(local_run):
    """--replays: one file per game of results.csv, in a folder per pair; each replays to the
    result and length results.csv gives (load_replay plays the actions again and checks the
    final state)."""
    from wargym.replay import load_replay

    rows = read_csv(local_run / "results.csv")
    files = sorted((local_run / "replays").glob("*/game_*.json"))
    assert len(files) == len(rows) == 12
    for row in rows[:4] + rows[-2:]:
        replay = load_replay(local_run / "replays" / f"{row['a']}_vs_{row['b']}" / f"game_{int(row['game']):05d}.json")
        assert len(replay.actions) == int(row["length"])
        assert replay.record["a"] == row["a"] and replay.record["seed"] == int(row["seed"])


def test_tournament_rates_rule_above_random(local_run):
    ratings = read_csv(local_run / "ratings.csv")
    order = [r["agent"] for r in ratings]
    assert order[0] == "rule", ratings
    elo = {r["agent"]: float(r["elo"]) for r in ratings}
    assert elo["rule"] > elo["random"] and elo["rule"] > elo["random-1"]


def test_tournament_on_ray_matches_local(local_run, tmp_path, monkeypatch):
    pytest.importorskip("ray")
    # Ray workers put the driver's working directory first on sys.path: run outside the checkout,
    # whose source folders would shadow the installed package
    monkeypatch.chdir(tmp_path)
    result = run_tournament(SMOKE, workers=2, ray_address="local")
    local = read_csv(local_run / "results.csv")
    assert [{k: str(v) if not isinstance(v, bool) else str(int(v)) for k, v in r.items()} for r in result.rows] == local
    assert result.ratings.order[0] == "rule"


def test_every_shipped_tournament_config_loads_and_seats_its_agents():
    """Each configs/tournament/*.yaml validates, and every agent it names is made for both sides
    of its ruleset (a ladder's planner rungs name phases its core has)."""
    from wargym import make_core
    from wargym.agents.base import make_agent
    from wargym.agents.tournament import load_config
    from wargym.data import config_path

    for path in sorted(config_path("tournament").glob("*.yaml")):
        config = load_config(path)
        core = make_core(config.ruleset, scenario=config.scenario)
        for entry in config.agents:
            if entry.spec.startswith(("random", "rule", "plan")):
                for side in core.players:
                    agent = make_agent(entry.spec, config.ruleset, side)
                    if hasattr(agent, "planned_games"):
                        agent.planned_games(core, core.init(1, 0), core.players.index(side))


# -------------------------------------------------------------------------------------- solitaire
def test_solitaire_tournament_plays_each_agent_against_the_system_on_the_same_dice(tmp_path):
    """Peleliu has one player (the cards play the Japanese, core.system_play): each agent plays
    its games against the book's system, every agent on the same dice (game j: seed + j), and the
    ratings are anchored at the system; an agent's record equals ``evaluate`` of it alone."""
    from wargym.agents.evaluate import evaluate
    from wargym.agents.tournament import SYSTEM

    config = {"name": "solo", "ruleset": "peleliu", "games_per_pair": 4, "seed": 3, "chunk_games": 4,
              "bootstrap": 10, "agents": ["random", "rule"]}
    result = run_tournament(config, workers=1, out=tmp_path)
    assert [(r["a"], r["b"], r["game"], r["seed"]) for r in result.rows] == (
        [("random", SYSTEM, j, 3 + j) for j in range(4)] + [("rule", SYSTEM, j, 3 + j) for j in range(4)])
    alone = evaluate("peleliu", "rule", None, games=4, seed=3, batch_size=4)
    assert [r["result"] for r in result.rows[4:]] == [g.result for g in alone.games]
    assert [p["a"] for p in result.pairs()] == ["random", "rule"] and {p["b"] for p in result.pairs()} == {SYSTEM}
    assert result.ratings.elo[SYSTEM] == 0.0 and result.ratings.games[SYSTEM] == 8
    assert result.win_matrix().shape == (2, 1)
    ratings = read_csv(tmp_path / "ratings.csv")
    assert {r["agent"] for r in ratings} == {"random", "rule", SYSTEM}


def test_solitaire_tournament_refuses_an_agent_named_system():
    from wargym.agents.base import SettingsError

    from wargym.agents.tournament import TournamentConfig

    config = TournamentConfig(ruleset="peleliu", games_per_pair=2, agents=["random", {"name": "system", "spec": "rule"}])
    with pytest.raises(SettingsError, match="'system' names the book's system"):
        make_tasks(config)
