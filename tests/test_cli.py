"""The wargym command line: demo, render, scenarios, and replays that play back exactly."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys

import numpy as np
import pytest
from PIL import Image

from wargym.cli import main
from wargym.replay import ReplayError, load_replay


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """One quick demo game (random agents, major decisions, the short scenario) shared by the tests."""
    folder = tmp_path_factory.mktemp("demo")
    code, out, err = run_cli("demo", "--us", "random", "--japan", "random", "--decisions", "major",
                             "--scenario", "bloody_ridge", "--seed", "3", "--out", str(folder), "--quiet")
    assert code == 0, err
    return folder, out


def test_demo_on_the_default_scenario(tmp_path):
    code, out, err = run_cli("demo", "--us", "random", "--japan", "random", "--out", str(tmp_path), "--quiet")
    assert code == 0, err
    for word in ("island_war / saipan", "result:", "game-turns:", "losses:", "objectives:", "decisions:",
                 "wall time", "replay.json", "final.png"):
        assert word in out
    img = Image.open(tmp_path / "final.png")
    assert img.mode == "RGB" and img.size[0] > 600
    replay = load_replay(tmp_path / "replay.json")
    assert replay.record["scenario"] == "saipan" and replay.record["agents"] == {"us": "random", "japan": "random"}
    assert np.array_equal(replay.core.render(replay.final, 0, "rgb_array"), np.asarray(img))


def test_demo_prints_a_summary_and_writes_replay_and_png(demo):
    folder, out = demo
    assert (folder / "replay.json").is_file() and (folder / "final.png").is_file()
    for word in ("bloody_ridge", "result:", "game-turns:", "losses:", "objectives:", "decisions:"):
        assert word in out


def test_replay_record_has_the_documented_fields(demo):
    record = json.loads((demo[0] / "replay.json").read_text())
    assert record["ruleset"] == "island_war" and record["scenario"] == "bloody_ridge"
    assert record["seed"] == 3 and record["decisions"] == "major"
    assert record["agents"] == {"us": "random", "japan": "random"}
    assert record["summary"]["decisions"] == len(record["actions"]) > 0
    assert all(isinstance(a, int) for a in record["actions"])


def test_replay_reloads_and_matches(demo):
    replay = load_replay(demo[0] / "replay.json")
    record = json.loads((demo[0] / "replay.json").read_text())
    core = replay.core
    assert core.decisions == "major"
    assert core.to_dict(replay.final, 0) == record["final"]
    assert core.to_dict(replay.initial, 0) == core.to_dict(core.init(1, seed=3), 0)
    assert bool(replay.final.terminated[0] or replay.final.truncated[0])
    states = list(replay.states())
    assert len(states) == len(record["actions"]) + 1
    assert core.to_dict(states[-1], 0) == record["final"]
    assert core.to_dict(replay.state_at(5), 0) == core.to_dict(states[5], 0)
    with pytest.raises(ReplayError, match="step must be in"):
        replay.state_at(len(states) + 3)


def test_render_draws_a_saved_game(demo, tmp_path):
    final_png = tmp_path / "board.png"
    code, out, err = run_cli("render", str(demo[0] / "replay.json"), "--out", str(final_png))
    assert code == 0, err
    assert np.array_equal(np.asarray(Image.open(final_png)), np.asarray(Image.open(demo[0] / "final.png")))
    early = tmp_path / "start.png"
    code, out, err = run_cli("render", str(demo[0] / "replay.json"), "--out", str(early), "--step", "0", "--text")
    assert code == 0, err
    assert "after 0 of" in out and "Game-Turn 1 of 7" in out and "decisions so far: 0" in out
    assert not np.array_equal(np.asarray(Image.open(early)), np.asarray(Image.open(final_png)))


def test_bad_replay_files_give_clear_errors(demo, tmp_path):
    garbage = tmp_path / "garbage.json"
    garbage.write_text("this is not json")
    code, _, err = run_cli("render", str(garbage), "--out", str(tmp_path / "x.png"))
    assert code == 1 and "not a replay" in err and "garbage.json" in err

    code, _, err = run_cli("render", str(tmp_path / "missing.json"))
    assert code == 1 and "no such replay file" in err

    record = json.loads((demo[0] / "replay.json").read_text())
    die = record["final"]["fields"]["last_die"]["value"]
    record["final"]["fields"]["last_die"]["value"] = die % 6 + 1   # a position of its own, not the game's
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(record))
    with pytest.raises(ReplayError, match="does not reach the recorded final state: field 'last_die'"):
        load_replay(tampered)
    record["final"]["fields"]["turn"]["value"] = 8   # Bloody Ridge has 7 Game-Turns
    tampered.write_text(json.dumps(record))
    with pytest.raises(ReplayError, match="bad state record: field turn: game 0 has 8, outside"):
        load_replay(tampered)

    record = json.loads((demo[0] / "replay.json").read_text())
    record["actions"].append(record["actions"][-1])
    record["action_text"].append(record["action_text"][-1])   # a well-formed record of one action too many
    extra = tmp_path / "extra.json"
    extra.write_text(json.dumps(record))
    with pytest.raises(ReplayError, match="already over"):
        load_replay(extra)

    record = json.loads((demo[0] / "replay.json").read_text())
    del record["initial"]
    partial = tmp_path / "partial.json"
    partial.write_text(json.dumps(record))
    code, _, err = run_cli("render", str(partial))
    assert code == 1 and "missing initial" in err


def test_bad_agent_spec_is_a_clear_error(tmp_path):
    code, _, err = run_cli("demo", "--us", "nonsense", "--out", str(tmp_path), "--quiet")
    assert code == 1 and "unknown agent spec 'nonsense'" in err


def test_scenarios_lists_the_shipped_games(tmp_path):
    # run outside the checkout: `python -m` puts the working directory first on sys.path
    proc = subprocess.run([sys.executable, "-m", "wargym.cli", "scenarios"], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "saipan" in proc.stdout and "bloody_ridge" in proc.stdout and "(default)" in proc.stdout


def test_no_command_prints_usage():
    code, _, err = run_cli()
    assert code == 2 and "demo" in err and "render" in err


def test_a_replay_saved_for_a_player_holds_only_that_players_view(tmp_path):
    """wargym.replay: initial and final are the player's views (core.view: no dice key, the
    Japanese counters relabelled), the other side's actions are left out, and it is not played back."""
    import json

    from wargym.agents import make_agent
    from wargym.replay import ReplayError, load_replay, make_core_for, play_game, save_replay

    core = make_core_for("attu", "hogs_back", "major")
    agents = [make_agent("rule", "attu", side) for side in core.players]
    record = play_game(core, agents, seed=2, meta={"ruleset": "attu", "scenario": "hogs_back", "decisions": "major"})
    path = save_replay(record, tmp_path / "replay_us.json", viewer="us")
    data = json.loads(path.read_text())
    assert data["viewer"] == "us" and data["players"] == [core.players[p] for p in record.players]
    assert [a for a, p in zip(data["actions"], record.players) if p == 1] == [None] * record.players.count(1)
    assert [a for a, p in zip(data["actions"], record.players) if p == 0] == \
        [a for a, p in zip(record.actions, record.players) if p == 0]
    assert data["final"] == core.to_dict(core.view(record.final, 0), 0)
    assert data["initial"]["fields"]["rng_key"]["value"] == [0, 0]
    with pytest.raises(ReplayError, match="saved for us"):
        load_replay(path)
    whole = save_replay(record, tmp_path / "replay.json")
    assert load_replay(whole).actions == record.actions  # the full replay plays back, options and all
