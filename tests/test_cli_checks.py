"""Every command checks its counts, paths and names before doing any work, and says what is wrong:
the option, the value, the file, the valid choices (wargym.cli_types, wargym.registry.check_scenario).

A bad count is a usage error (exit status 2, argparse's ``argument --games: ...``); a bad file or
name is an error of the command (exit status 1, ``wargym <command>: error: ...``)."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import zipfile
from pathlib import Path

import pytest

from wargym.cli import main
from wargym.data import config_path

ROOT = Path(__file__).resolve().parents[1]


def run_cli(*argv: str) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of ``wargym argv``; argparse's usage errors exit with 2."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as stop:
            code = stop.code
    return code, out.getvalue(), err.getvalue()


def usage_error(argv, option: str, value: str) -> str:
    code, out, err = run_cli(*argv)
    assert code == 2, (argv, code, out, err)
    assert f"argument {option}: " in err and value in err, err
    return err


@pytest.fixture
def files(tmp_path):
    """A zip that is no ONNX model, an 'ONNX' file that is no zip, a JSON file, a folder."""
    final = tmp_path / "final.zip"
    with zipfile.ZipFile(final, "w") as z:
        z.writestr("data", "{}")
    onnx = tmp_path / "policy.onnx"
    onnx.write_bytes(b"\x08\x08\x12\x07pytorch")  # the head of an ONNX ModelProto (ir_version 8)
    sidecar = tmp_path / "policy.json"
    sidecar.write_text("{}")
    return {"zip": final, "onnx": onnx, "json": sidecar, "dir": tmp_path}


# ------------------------------------------------------------------------------------------- demo
def test_demo_checks_seed_scenario_and_policy_files(tmp_path, files):
    usage_error(["demo", "--seed", "-1"], "--seed", "-1")
    out = tmp_path / "out"
    code, _, err = run_cli("demo", "--scenario", "saipn", "--out", str(out), "--quiet")
    assert code == 1 and "unknown island_war scenario 'saipn'" in err
    assert "did you mean 'saipan'?" in err and "bloody_ridge, saipan" in err and "site-packages" not in err
    assert not out.exists()
    code, _, err = run_cli("demo", "--us", f"onnx:{files['zip']}", "--out", str(out), "--quiet")
    assert code == 1 and "--us" in err and "not an ONNX file" in err and "zip archive" in err
    assert "sidecar" not in err
    code, _, err = run_cli("demo", "--agent", f"japan=sb3:{files['onnx']}", "--out", str(out), "--quiet")
    assert code == 1 and "--agent" in err and "not a MaskablePPO .zip" in err and "ONNX model" in err
    code, _, err = run_cli("demo", "--japan", f"sb3:{tmp_path / 'missing.zip'}", "--out", str(out), "--quiet")
    assert code == 1 and "--japan" in err and "missing.zip" in err and "no such file" in err
    assert not out.exists()


def test_demo_names_the_missing_map_of_a_copied_scenario(tmp_path):
    copied = tmp_path / "mine" / "bloody_ridge.yaml"
    copied.parent.mkdir()
    shutil.copy(config_path("island_war", "bloody_ridge.yaml"), copied)
    code, _, err = run_cli("demo", "--scenario", str(copied), "--out", str(tmp_path / "out"), "--quiet")
    assert code == 1
    assert f"{copied}: map = 'bloody_ridge_map.yaml'" in err          # the scenario file and its key
    assert f"file {copied.parent / 'bloody_ridge_map.yaml'} not found" in err  # the missing file
    assert str(copied.parent.resolve()) in err                        # where it looked
    assert "copy it beside the scenario" in err
    code, _, err = run_cli("demo", "--scenario", str(tmp_path / "nowhere.yaml"), "--out", str(tmp_path / "o"))
    assert code == 1 and "scenario file" in err and "nowhere.yaml" in err and "not found" in err


def test_demo_refuses_an_unknown_replay_for_side(tmp_path):
    code, _, err = run_cli("demo", "--scenario", "bloody_ridge", "--replay-for", "germany",
                           "--out", str(tmp_path / "out"), "--quiet")
    assert code == 1 and "--replay-for 'germany'" in err and "us, japan" in err
    assert not (tmp_path / "out").exists()


# ----------------------------------------------------------------------------------------- render
def test_render_checks_the_replay_file_and_step(tmp_path):
    text = tmp_path / "notes.json"
    text.write_text("this is not JSON\n")
    code, _, err = run_cli("render", str(text), "--out", str(tmp_path / "b.png"))
    assert code == 1 and "notes.json" in err and "not a replay (invalid JSON" in err
    code, _, err = run_cli("render", str(tmp_path / "missing.json"), "--out", str(tmp_path / "b.png"))
    assert code == 1 and "missing.json: no such replay file" in err
    usage_error(["render", str(text), "--step", "last"], "--step", "'last'")
    usage_error(["render", str(text), "--html", str(tmp_path / "g.html"), "--every", "0"], "--every", "0")
    err = usage_error(["render", str(text), "--html", str(tmp_path / "g.html"), "--quality", "200"], "--quality", "200")
    assert "1..95" in err
    usage_error(["render", str(text), "--html", str(tmp_path / "g.html"), "--jobs", "0"], "--jobs", "0")
    assert not (tmp_path / "b.png").exists()


# -------------------------------------------------------------------------------- scenarios, compile
@pytest.mark.parametrize("command", ["scenarios", "compile"])
def test_unknown_ruleset_lists_the_rulesets(command):
    err = usage_error([command, "--ruleset", "iwojima"], "--ruleset", "'iwojima'")
    assert "attu" in err and "island_war" in err


# ------------------------------------------------------------------------------------------ train
def test_train_checks_counts_before_any_work(tmp_path):
    out = tmp_path / "run"
    usage_error(["train", "--side", "us", "--steps", "-10", "--out", str(out)], "--steps", "-10")
    usage_error(["train", "--side", "us", "--steps", "many", "--out", str(out)], "--steps", "'many'")
    usage_error(["train", "--side", "us", "--max-minutes", "0", "--out", str(out)], "--max-minutes", "0")
    usage_error(["train", "--side", "us", "--seed", "-3", "--out", str(out)], "--seed", "-3")
    assert not out.exists()


def test_train_checks_config_file_values_scenario_and_opponent(tmp_path, files):
    out = tmp_path / "run"
    code, _, err = run_cli("train", "--config", str(tmp_path / "nope.yaml"), "--side", "us", "--out", str(out))
    assert code == 1 and "training config" in err and "nope.yaml" in err and "not found" in err
    base = {"ruleset": "island_war", "side": "us", "opponent": "random", "steps": 64, "n_envs": 2,
            "progress_bar": False}
    for key, value, says in (("n_envs", 0, "n_envs must be a whole number >= 1, got 0"),
                             ("checkpoint_every", -5, "checkpoint_every must be a whole number >= 1, got -5"),
                             ("max_minutes", -1, "max_minutes must be a number > 0, got -1"),
                             ("scenario", "saipn", "unknown island_war scenario 'saipn'"),
                             ("opponent", f"onnx:{files['zip']}", "not an ONNX file")):
        config = tmp_path / f"bad_{key}.yaml"
        config.write_text(json.dumps({**base, key: value}))  # JSON is YAML
        code, _, err = run_cli("train", "--config", str(config), "--out", str(out), "--quiet")
        assert code == 1 and str(config) in err and says in err, (key, err)
        assert not (out / "run.json").exists(), key  # nothing written: the run can be started again
    code, _, err = run_cli("train", "--config", str(tmp_path / "bad_n_envs.yaml"), "--opponent",
                           f"sb3:{tmp_path / 'gone.zip'}", "--out", str(out))
    assert code == 1 and "--opponent" in err and "gone.zip" in err and "no such file" in err


# ------------------------------------------------------------------------------------------- eval
def test_eval_checks_counts_policies_and_scenario(tmp_path, files):
    usage_error(["eval", "--games", "0"], "--games", "0")
    usage_error(["eval", "--games", "-2"], "--games", "-2")
    usage_error(["eval", "--batch-size", "0"], "--batch-size", "0")
    usage_error(["eval", "--threads", "-1"], "--threads", "-1")
    usage_error(["eval", "--seed", "-1"], "--seed", "-1")
    code, out, err = run_cli("eval", "--a", f"onnx:{files['zip']}", "--games", "2", "--quiet")
    assert code == 1 and "--a" in err and "not an ONNX file" in err and out == ""
    code, _, err = run_cli("eval", "--b", f"onnx:{files['json']}", "--games", "2", "--quiet")
    assert code == 1 and "--b" in err and "not an ONNX file" in err and "JSON" in err
    code, _, err = run_cli("eval", "--b", f"onnx:{files['dir'] / 'empty'}", "--games", "2", "--quiet")
    assert code == 1 and "no such file" in err
    # each side of a sides: spec is checked the same way, and named
    code, _, err = run_cli("eval", "--a", f"sides:us=rule;japan=onnx:{files['zip']}", "--games", "2", "--quiet")
    assert code == 1 and "--a (side japan)" in err and "not an ONNX file" in err
    code, _, err = run_cli("eval", "--a", "sides:us=rule;japan", "--games", "2", "--quiet")
    assert code == 1 and "'japan' is not <side>=<spec>" in err
    code, _, err = run_cli("eval", "--ruleset", "attu", "--scenario", "hogsback", "--games", "2", "--quiet")
    assert code == 1 and "unknown attu scenario 'hogsback'" in err and "did you mean 'hogs_back'?" in err
    assert "campaign, campaign_free, hogs_back" in err


# ------------------------------------------------------------------------------------- tournament
def test_tournament_checks_games_workers_config_and_agents(tmp_path, files):
    out = tmp_path / "t"
    usage_error(["tournament", "--config", "smoke", "--games", "-2", "--out", str(out)], "--games", "-2")
    usage_error(["tournament", "--config", "smoke", "--games", "0", "--out", str(out)], "--games", "0")
    usage_error(["tournament", "--config", "smoke", "--workers", "0", "--out", str(out)], "--workers", "0")
    code, _, err = run_cli("tournament", "--config", str(tmp_path / "mine.yaml"), "--out", str(out))
    assert code == 1 and "mine.yaml" in err and "not found" in err and "smoke" in err
    config = tmp_path / "bad.yaml"
    config.write_text(json.dumps({"ruleset": "island_war", "games_per_pair": 2,
                                  "agents": ["random", {"name": "net", "spec": f"sb3:{files['json']}"}]}))
    code, _, err = run_cli("tournament", "--config", str(config), "--out", str(out), "--quiet")
    assert code == 1 and "agents[1] (net)" in err and "not a MaskablePPO .zip" in err and "JSON" in err
    config.write_text(json.dumps({"ruleset": "island_war", "scenario": "saipn", "games_per_pair": 2,
                                  "agents": ["random", "rule"]}))
    code, _, err = run_cli("tournament", "--config", str(config), "--out", str(out), "--quiet")
    assert code == 1 and "bad.yaml: scenario: unknown island_war scenario 'saipn'" in err
    assert not out.exists()  # no CSVs, no chart


# ----------------------------------------------------------------------------------------- export
def test_export_checks_checkpoint_out_and_counts(tmp_path, files):
    args = ["export", "--ruleset", "island_war", "--side", "us"]
    code, _, err = run_cli(*args, "--checkpoint", str(files["onnx"]), "--out", str(tmp_path / "p.onnx"))
    assert code == 1 and "--checkpoint" in err and "not a MaskablePPO .zip" in err
    code, _, err = run_cli(*args, "--checkpoint", str(tmp_path / "none.zip"), "--out", str(tmp_path / "p.onnx"))
    assert code == 1 and "--checkpoint" in err and "none.zip" in err and "no such file" in err
    code, _, err = run_cli(*args, "--checkpoint", str(files["zip"]), "--out", str(tmp_path / "p.json"))
    assert code == 1 and "--out" in err and "p.json" in err and "must end in .onnx" in err
    usage_error([*args, "--checkpoint", str(files["zip"]), "--verify", "-5"], "--verify", "-5")
    assert not (tmp_path / "p.onnx").exists()


# ------------------------------------------------------------------------------------------ serve
def test_serve_checks_its_options(files):
    usage_error(["serve", "--ruleset", "island_war", "--seed", "-3"], "--seed", "-3")
    code, out, err = run_cli("serve", "--ruleset", "island_war", "--scenario", "saipn")
    assert code == 1 and out == "" and "unknown island_war scenario 'saipn'" in err
    code, out, err = run_cli("serve", "--ruleset", "island_war", "--agent", f"onnx:{files['zip']}")
    assert code == 1 and out == "" and "--agent" in err and "not an ONNX file" in err
    code, out, err = run_cli("serve", "--ruleset", "island_war", "--listen", "127.0.0.1:99999")
    assert code == 1 and "--listen" in err and "0..65535" in err


def test_serve_refuses_actions_out_of_range():
    from wargym.agents.serve import BotServer

    server = BotServer("island_war", "random", scenario="bloody_ridge", decisions="major")
    last = server.core.num_actions - 1
    game = {"history": {"seed": 0, "actions": []}}
    requests = [
        ({"cmd": "describe", "action": -5}, "'action' -5 is out of range: actions are 0..264"),
        ({"cmd": "describe", "action": last + 1}, f"'action' {last + 1} is out of range"),
        ({"cmd": "describe", "action": [0, -1]}, "'action'[1] -1 is out of range"),
        ({"cmd": "describe", "action": 1.5}, "'action' must be an integer in 0..264, got 1.5"),
        ({"cmd": "step", **game, "action": -5}, "'action' -5 is out of range"),
        ({"cmd": "step", **game}, "'action' is missing"),
        ({"cmd": "act", "history": {"seed": 0, "actions": [10**6]}}, "history action #0 1000000 is out of range"),
    ]
    for request, says in requests:
        reply = server.handle(json.dumps(request))
        assert reply["ok"] is False and says in reply["error"], (request, reply)
    game_id = server.handle(json.dumps({"cmd": "new", "server_plays": ["us"]}))["game"]
    token = server.handle(json.dumps({"cmd": "join", "game": game_id, "side": "japan"}))["token"]
    reply = server.handle(json.dumps({"cmd": "play", "game": game_id, "token": token, "action": -1}))
    assert reply["ok"] is False and "'action' -1 is out of range" in reply["error"]
    assert server.handle(json.dumps({"cmd": "describe", "action": last}))["ok"] is True


# ------------------------------------------------------------------------------------------- play
def test_play_checks_seed_opponent_and_scenario(files):
    usage_error(["play", "--seed", "-1"], "--seed", "-1")
    code, _, err = run_cli("play", "--vs", f"onnx:{files['zip']}")
    assert code == 1 and "--vs" in err and "not an ONNX file" in err
    code, _, err = run_cli("play", "--scenario", "bloody_rige")
    assert code == 1 and "unknown island_war scenario 'bloody_rige'" in err and "did you mean 'bloody_ridge'?" in err
