"""A trained policy carries its settings (issue: item 3): ``wargym export`` reads them from the
run.json (ruleset, side, scenario, decisions) with nothing but --checkpoint and --out, the sidecar
records them, and eval, tournament, serve and play build the game from the sidecar (or the
run.json of an sb3: checkpoint) and seat the policy on its side; a value that contradicts the
policy is an error naming both values.

One tiny run (smoke.yaml on Bloody Ridge, U.S. side, 128 decisions) is trained for the module.
Untrained policies may go round in circles, so the games here stop at a short decision limit."""

from __future__ import annotations

import argparse
import io
import json
import shutil

import pytest

pytest.importorskip("sb3_contrib")

from wargym.agents.base import SettingsError, agent_settings  # noqa: E402
from wargym.agents.evaluate import evaluate  # noqa: E402
from wargym.agents.export import ExportError, main as export_main  # noqa: E402
from wargym.agents.onnx_agent import OnnxAgent, PolicyMismatchError  # noqa: E402

LIMIT = {"max_decisions": 150}  # an untrained deterministic policy may select and cancel forever


def train_smoke(out, side: str, seed: int):
    """final.zip of smoke.yaml for ``side`` at Bloody Ridge, decisions major, 64 steps, in ``out``."""
    from wargym.agents.train import load_config, train

    config, _ = load_config("smoke")
    return train({**config, "scenario": "bloody_ridge", "n_envs": 2, "n_steps": 32, "batch_size": 64,
                  "n_epochs": 1, "checkpoint_every": 1024}, side=side, steps=64, out_dir=out, seed=seed)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """(run folder, final.zip) of smoke.yaml for the U.S. at Bloody Ridge, decisions major."""
    out = tmp_path_factory.mktemp("settings") / "run"
    return out, train_smoke(out, "us", seed=2)


@pytest.fixture(scope="module")
def policy(run, tmp_path_factory):
    """policy.onnx exported with only --checkpoint and --out."""
    out = tmp_path_factory.mktemp("exported") / "policy.onnx"
    assert export_main(["--checkpoint", str(run[1]), "--out", str(out)]) == 0
    return out


def test_export_with_only_checkpoint_and_out_records_the_runs_settings(run, policy):
    config = json.loads((run[0] / "run.json").read_text())["config"]
    meta = json.loads(policy.with_suffix(".json").read_text())
    assert (config["ruleset"], config["side"], config["scenario"], config["decisions"]) == \
        ("island_war", "us", "bloody_ridge", "major")
    # "major", although the core's own default is "full" (the bug: the sidecar said "full")
    assert (meta["ruleset"], meta["side"], meta["scenario"], meta["decisions"]) == \
        ("island_war", "us", "bloody_ridge", "major")
    assert meta["phases"] is None and meta["delegate"] is None and meta["options"] == {}
    assert meta["opponent"] == "random"


def test_export_refuses_an_override_that_contradicts_the_run_naming_both_values(run, tmp_path):
    record = run[0] / "run.json"
    with pytest.raises(ExportError, match=rf"--side japan: the run at {record} trained side 'us'"):
        export_main(["--checkpoint", str(run[1]), "--out", str(tmp_path / "p.onnx"), "--side", "japan"])
    with pytest.raises(ExportError, match=r"--decisions full: the run at .*run.json trained decisions 'major'"):
        export_main(["--checkpoint", str(run[1]), "--out", str(tmp_path / "p.onnx"), "--decisions", "full"])
    # an override that agrees is fine (and nothing was written by the refused ones)
    assert not (tmp_path / "p.onnx").exists()
    assert export_main(["--checkpoint", str(run[1]), "--out", str(tmp_path / "p.onnx"), "--side", "us",
                        "--decisions", "major"]) == 0


def test_export_of_a_checkpoint_without_run_json_asks_for_ruleset_and_side(run, tmp_path):
    bare = tmp_path / "bare" / "model.zip"
    bare.parent.mkdir()
    shutil.copy(run[1], bare)
    with pytest.raises(ExportError, match=r"no run.json beside it .*give --ruleset and --side"):
        export_main(["--checkpoint", str(bare), "--out", str(tmp_path / "p.onnx")])


def test_sb3_and_onnx_agents_expose_the_settings(run, policy):
    from wargym.agents.sb3_agent import SB3Agent

    for agent in (SB3Agent(run[1]), OnnxAgent(policy)):
        assert (agent.side, agent.decisions) == ("us", "major")
        assert {k: agent.settings[k] for k in ("ruleset", "side", "scenario", "decisions")} == \
            {"ruleset": "island_war", "side": "us", "scenario": "bloody_ridge", "decisions": "major"}
    assert agent_settings(f"onnx:{policy}")["source"] == str(policy.with_suffix(".json"))
    assert agent_settings(f"sb3:{run[1]}")["source"] == str(run[0] / "run.json")
    assert agent_settings("rule") is None and agent_settings("random") is None


def test_onnx_agent_refuses_a_game_of_other_decisions(policy):
    from wargym.replay import make_core_for

    full = make_core_for("island_war", "bloody_ridge", "full")
    with pytest.raises(PolicyMismatchError, match="exported with decisions 'major', this game has decisions 'full'"):
        OnnxAgent(policy).act(full, full.init(1, 0), 0)


@pytest.mark.parametrize("kind", ["onnx", "sb3"])
def test_eval_plays_the_policys_side_and_decisions_without_options(kind, run, policy):
    spec = f"onnx:{policy}" if kind == "onnx" else f"sb3:{run[1]}"
    result = evaluate(None, spec, "random", games=2, seed=5, core_options=LIMIT)
    assert (result.ruleset, result.scenario, result.decisions) == ("island_war", "bloody_ridge", "major")
    assert [g.a_side for g in result.games] == ["us", "us"] and [g.seed for g in result.games] == [5, 6]
    # as B, the policy keeps its side: A plays the other one
    result = evaluate("island_war", "random", spec, games=2, seed=5, core_options=LIMIT)
    assert [g.a_side for g in result.games] == ["japan", "japan"]


def test_eval_command_line_uses_the_sidecar_and_refuses_contradictions(policy, monkeypatch, capsys):
    import wargym.agents.evaluate as evaluate_module

    real = evaluate_module.evaluate
    monkeypatch.setattr(evaluate_module, "evaluate", lambda *a, **k: real(*a, core_options=LIMIT, **k))
    parser = argparse.ArgumentParser()
    evaluate_module.add_eval_arguments(parser)
    args = parser.parse_args(["--a", f"onnx:{policy}", "--b", "rule", "--games", "2", "--json"])
    assert evaluate_module.run_eval(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["scenario"], out["decisions"]) == ("bloody_ridge", "major")
    assert [g["a_side"] for g in out["games"]] == ["us", "us"]
    args = parser.parse_args(["--a", f"onnx:{policy}", "--decisions", "full"])
    with pytest.raises(SettingsError,
                       match=r"--decisions full: A \(onnx:.*\) plays decisions 'major' \(from .*\.json\)"):
        evaluate_module.run_eval(args)
    args = parser.parse_args(["--a", f"onnx:{policy}", "--a-side", "japan"])
    with pytest.raises(SettingsError, match=r"--a-side japan: A \(onnx:.*\) plays side 'us'"):
        evaluate_module.run_eval(args)
    args = parser.parse_args(["--a", f"onnx:{policy}", "--ruleset", "attu"])
    with pytest.raises(SettingsError, match=r"--ruleset attu: A \(onnx:.*\) plays ruleset 'island_war'"):
        evaluate_module.run_eval(args)


def test_two_policies_that_want_different_games_or_one_side_are_refused(policy, tmp_path):
    def variant(name, **changes):
        out = tmp_path / f"{name}.onnx"
        shutil.copy(policy, out)
        meta = json.loads(policy.with_suffix(".json").read_text())
        out.with_suffix(".json").write_text(json.dumps({**meta, **changes}))
        return f"onnx:{out}"

    full = variant("full", decisions="full", side="japan")
    with pytest.raises(SettingsError, match=r"plays decisions 'major' .* but B \(onnx:.*full.onnx\) plays decisions "
                                            r"'full' .*cannot play one game"):
        evaluate("island_war", f"onnx:{policy}", full, games=2)
    with pytest.raises(SettingsError, match=r"A \(onnx:.*\) and B \(onnx:.*\) both play side 'us'"):
        evaluate("island_war", f"onnx:{policy}", variant("twin"), games=2)


def test_tournament_builds_its_games_from_the_sidecar(policy):
    from wargym.agents.tournament import run_tournament

    result = run_tournament({"name": "settings", "games_per_pair": 2, "seed": 3, "bootstrap": 0,
                             "max_decisions": LIMIT["max_decisions"],
                             "agents": [{"name": "ppo", "spec": f"onnx:{policy}"}, "random"]}, workers=1)
    config = result.config
    assert (config.ruleset, config.scenario, config.decisions) == ("island_war", "bloody_ridge", "major")
    assert [(r["a"], r["a_side"]) for r in result.rows] == [("ppo", "us"), ("ppo", "us")]
    with pytest.raises(SettingsError, match=r"decisions: full: ppo \(onnx:.*\) plays decisions 'major'"):
        run_tournament({"games_per_pair": 2, "decisions": "full",
                        "agents": [{"name": "ppo", "spec": f"onnx:{policy}"}, "random"]}, workers=1)
    with pytest.raises(SettingsError, match=r"ppo \(onnx:.*\) and ppo2 \(onnx:.*\) both play side 'us'"):
        run_tournament({"games_per_pair": 2, "agents": [{"name": "ppo", "spec": f"onnx:{policy}"},
                                                        {"name": "ppo2", "spec": f"onnx:{policy}"}]}, workers=1)


def test_serve_takes_game_and_side_from_the_sidecar(policy):
    from wargym.agents.serve import BotServer
    from wargym.replay import make_core_for

    server = BotServer(None, f"onnx:{policy}")
    server.warm_up()
    ping = server.ping({})
    assert (ping["ruleset"], ping["scenario"], ping["decisions"]) == ("island_war", "bloody_ridge", "major")
    assert ping["side"] == "us" and ping["plays"] == ["us"]
    core = make_core_for("island_war", "bloody_ridge", "major")
    reply = server.handle(json.dumps({"cmd": "act", "state": core.to_dict(core.init(1, 0), 0)}))
    assert not reply["ok"] and "this server plays us" in reply["error"]  # Japan moves first at Bloody Ridge
    with pytest.raises(SettingsError, match=r"--side japan: agent onnx:.* plays side 'us'"):
        BotServer(None, f"onnx:{policy}", side="japan")
    with pytest.raises(SettingsError, match=r"--scenario saipan: agent onnx:.* plays scenario 'bloody_ridge'"):
        BotServer("island_war", f"onnx:{policy}", scenario="saipan")


def test_play_seats_you_opposite_the_policy_in_its_game(policy):
    from wargym.agents.play import play

    out = io.StringIO()
    assert play(vs=f"onnx:{policy}", input_fn=lambda prompt: "q", out=out) == 0
    text = out.getvalue()
    assert text.startswith("island_war / bloody_ridge") and "decisions=major" in text
    assert "You play Japan; US played by 'onnx:" in text and "You quit at" in text
    with pytest.raises(SettingsError, match=r"--side us: the opponent onnx:.* plays side 'us' .*you play 'japan'"):
        play(side="us", vs=f"onnx:{policy}", out=io.StringIO())


# ------------------------------------------------------------- one agent, a trained policy a side
@pytest.fixture(scope="module")
def japan_policy(tmp_path_factory):
    """A Japanese policy for Bloody Ridge (smoke.yaml, 64 steps), exported: the other half of a
    ``sides:`` agent."""
    out = tmp_path_factory.mktemp("japan")
    final = train_smoke(out / "run", "japan", seed=3)
    assert export_main(["--checkpoint", str(final), "--out", str(out / "policy.onnx")]) == 0
    return out / "policy.onnx"


def test_sides_spec_plays_each_side_with_its_own_policy_in_the_policies_game(policy, japan_policy):
    from wargym.agents.base import make_agent

    spec = f"sides:us=onnx:{policy};japan=onnx:{japan_policy}"
    settings = agent_settings(spec)
    assert (settings["ruleset"], settings["scenario"], settings["decisions"], settings["side"]) == \
        ("island_war", "bloody_ridge", "major", None)
    us, japan = (make_agent(spec, "island_war", side) for side in ("us", "japan"))
    assert (type(us).__name__, us.side, type(japan).__name__, japan.side) == ("OnnxAgent", "us", "OnnxAgent", "japan")
    # it plays both sides (the games of a pair swap them), in the game its policies were trained for
    result = evaluate(None, spec, "rule", games=2, seed=5, core_options=LIMIT)
    assert (result.scenario, result.decisions) == ("bloody_ridge", "major")
    assert [g.a_side for g in result.games] == ["us", "japan"]


def test_sides_spec_as_a_tournament_entry_plays_both_sides(policy, japan_policy):
    from wargym.agents.tournament import run_tournament

    entry = {"name": "ppo", "spec": f"sides:us=onnx:{policy};japan=onnx:{japan_policy}"}
    result = run_tournament({"name": "sides", "games_per_pair": 2, "seed": 3, "bootstrap": 0,
                             "max_decisions": LIMIT["max_decisions"], "agents": [entry, "random"]}, workers=1)
    assert (result.config.ruleset, result.config.scenario) == ("island_war", "bloody_ridge")
    assert [(r["a"], r["a_side"]) for r in result.rows] == [("ppo", "us"), ("ppo", "japan")]


def test_sides_spec_refuses_a_policy_on_the_wrong_side_and_malformed_parts(policy, japan_policy):
    from wargym.agents.base import AgentSpecError, make_agent

    with pytest.raises(SettingsError, match=r"'s japan: the policy plays side 'us' \(from .*policy.json\), not 'japan'"):
        agent_settings(f"sides:japan=onnx:{policy};us=onnx:{japan_policy}")
    with pytest.raises(AgentSpecError, match=r"'us' is not <side>=<spec>"):
        agent_settings(f"sides:us;japan=onnx:{japan_policy}")
    with pytest.raises(AgentSpecError, match=r"side 'us' is given twice"):
        agent_settings("sides:us=rule;us=random")
    with pytest.raises(AgentSpecError, match=r"names no agent for side 'japan'; it names us"):
        make_agent(f"sides:us=onnx:{policy}", "island_war", "japan")
    # specs without settings (rule, random) make an agent that plays any game
    assert agent_settings("sides:us=rule;japan=random") is None
    assert type(make_agent("sides:us=rule;japan=random", "island_war", "japan")).__name__ == "RandomAgent"
