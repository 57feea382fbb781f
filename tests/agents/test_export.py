"""Policy export: an untrained MaskablePPO on the Island War vector env, exported to ONNX, gives
exactly the torch policy's masked deterministic actions; the sidecar describes the game; the
OnnxAgent plays legal games without torch."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import numpy as np
import onnx
import onnxruntime as ort
import pytest

pytest.importorskip("sb3_contrib")

from wargym.agents.export import (ExportError, add_export_arguments, collect_observations, export_policy,  # noqa: E402
                                  main as export_main, verify_export)
from wargym.agents.onnx_agent import OnnxAgent, PolicyMismatchError  # noqa: E402
from wargym.agents.random_agent import RandomAgent  # noqa: E402
from wargym.replay import make_core_for  # noqa: E402

SCENARIO = "saipan"  # the env's default scenario


def save_untrained(folder, **policy_kwargs):
    """A freshly built MaskablePPO on the Island War vector env, saved as folder/model.zip."""
    import gymnasium
    from sb3_contrib import MaskablePPO

    import wargym.envs  # noqa: F401  (registers the gymnasium ids)
    from wargym.envs.sb3 import SB3VecEnv

    venv = SB3VecEnv(gymnasium.make_vec("wargym/IslandWar-v0", num_envs=2, vectorization_mode="vector_entry_point",
                                        decisions="major"))
    model = MaskablePPO("MultiInputPolicy", venv, n_steps=8, batch_size=16, seed=0, device="cpu",
                        policy_kwargs={"net_arch": [32, 32], **policy_kwargs})
    checkpoint = folder / "model.zip"
    model.save(checkpoint)
    venv.close()
    return checkpoint


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    folder = tmp_path_factory.mktemp("export")
    checkpoint = save_untrained(folder)
    onnx_path, json_path = export_policy(checkpoint, folder / "policy.onnx", "island_war", "us", decisions="major")
    return checkpoint, onnx_path, json_path


@pytest.fixture(scope="module")
def core():
    return make_core_for("island_war", SCENARIO, "major")


def test_export_writes_onnx_and_sidecar_beside_it(exported):
    checkpoint, onnx_path, json_path = exported
    assert onnx_path.is_file() and json_path == onnx_path.with_suffix(".json") and json_path.is_file()
    model = onnx.load(str(onnx_path))
    onnx.checker.check_model(model)
    assert max(o.version for o in model.opset_import if o.domain in ("", "ai.onnx")) >= 17
    session = ort.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
    inputs = {i.name: (i.shape, i.type) for i in session.get_inputs()}
    assert inputs["spatial"][0][1:] == [43, 25, 17] and inputs["global"][0][1:] == [36]
    assert inputs["action_mask"] == (["batch", 438], "tensor(bool)")
    assert [o.name for o in session.get_outputs()] == ["logits", "action"]


def test_onnx_masked_actions_equal_torch_on_1000_random_play_observations(exported, core):
    checkpoint, onnx_path, _ = exported
    obs = collect_observations(core, side=0, n=1000, batch=16, seed=1)
    assert obs["spatial"].shape == (1000, 43, 25, 17) and obs["action_mask"].shape == (1000, 438)
    assert obs["action_mask"].any(axis=1).all()
    report = verify_export(checkpoint, onnx_path, obs)
    assert report.ok and report.agree == 1000 and not report.ties, str(report)
    assert report.max_logit_diff < 1e-4
    # masked logits are -1e9 and the action is always legal; any batch size runs
    session = ort.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
    for n in (1, 7):
        logits, actions = session.run(None, {"spatial": obs["spatial"][:n], "global": obs["global"][:n],
                                             "action_mask": obs["action_mask"][:n]})
        assert logits.shape == (n, 438) and actions.shape == (n,) and actions.dtype == np.int64
        assert (logits[~obs["action_mask"][:n]] == np.float32(-1e9)).all()
        assert obs["action_mask"][np.arange(n), actions].all()


def test_sidecar_describes_game_observation_and_actions(exported, core):
    checkpoint, _, json_path = exported
    meta = json.loads(json_path.read_text())
    game = (meta["ruleset"], meta["side"], meta["scenario"], meta["decisions"])
    assert game == ("island_war", "us", SCENARIO, "major")
    assert meta["observation"]["spatial"] == {"shape": [43, 25, 17], "dtype": "float32", "low": 0.0, "high": 2.0}
    assert meta["observation"]["global"]["shape"] == [36] and meta["observation"]["planes"] == 43
    action = meta["action"]
    assert action["num_actions"] == 438 and action["num_hex_pointers"] == core.scenario.num_hexes == 425
    names = [s["name"] for s in action["specials"]]
    assert names[:5] == ["end phase", "confirm", "cancel", "add ground support point", "declare banzai"]
    assert [s["action"] for s in action["specials"]] == list(range(425, 438))
    assert meta["onnx_opset"] >= 17 and meta["wargym"] and meta["created"]
    assert meta["checkpoint"] == str(checkpoint.resolve()) and len(meta["checkpoint_sha256"]) == 64


def test_onnx_agent_plays_legal_games_to_their_end(exported):
    """Untrained and deterministic, the policy may go round in circles (select, cancel, ...), so the
    games run to a short decision limit; core.step checks every action against the mask."""
    from wargym.island_war.core import IslandWarCore

    core = IslandWarCore(SCENARIO, decisions="major", max_decisions=400)
    agent, opponent = OnnxAgent(exported[1]), RandomAgent(0)
    state = core.init(4, seed=5)
    ours_played = 0
    while not (state.terminated | state.truncated).all():
        player = core.current_player(state)
        ours, theirs = agent.act(core, state, 0), opponent.act(core, state, 1)
        assert ours.dtype == np.int64 and ours.shape == (4,)
        ours_played += int((player == 0).sum())
        state = core.step(state, np.where(player == 0, ours, theirs))
    assert ours_played > 100 and (state.terminated | state.truncated).all()


def test_onnx_agent_refuses_another_game(exported):
    agent = OnnxAgent(exported[1])
    saipan = make_core_for("island_war", SCENARIO, "major")
    agent.act(saipan, saipan.init(1, 0), 0)  # fine for 'us' on this core, and still checked for 'japan'
    with pytest.raises(PolicyMismatchError, match="plays 'us'; it was asked to play 'japan'"):
        agent.act(saipan, saipan.init(1, 0), 1)
    ridge = make_core_for("island_war", "bloody_ridge", "major")
    with pytest.raises(PolicyMismatchError, match="scenario 'saipan'"):
        agent.act(ridge, ridge.init(1, 0), 0)


def test_export_refuses_a_checkpoint_of_another_game(exported, tmp_path):
    checkpoint = exported[0]
    with pytest.raises(ExportError, match="observes"):
        export_policy(checkpoint, tmp_path / "p.onnx", "island_war", "us", scenario="bloody_ridge")
    with pytest.raises(ExportError, match="not a player"):
        export_policy(checkpoint, tmp_path / "p.onnx", "island_war", "germany")
    with pytest.raises(FileNotFoundError):
        export_policy(tmp_path / "missing.zip", tmp_path / "p.onnx", "island_war", "us")


def test_export_command_line_with_verify(exported, tmp_path, capsys):
    import argparse

    parser = argparse.ArgumentParser()
    add_export_arguments(parser)
    args = parser.parse_args(["--checkpoint", "m.zip", "--ruleset", "island_war", "--side", "japan"])
    assert args.out == "policy.onnx" and args.verify == 0 and args.opset >= 17
    out = tmp_path / "cli" / "policy.onnx"
    code = export_main(["--checkpoint", str(exported[0]), "--out", str(out), "--ruleset", "island_war",
                        "--side", "us", "--decisions", "major", "--verify", "50"])
    text = capsys.readouterr().out
    assert code == 0 and out.is_file() and out.with_suffix(".json").is_file()
    assert "ONNX == torch on 50 of 50" in text


def test_onnx_agent_imports_and_plays_without_torch(exported, tmp_path):
    script = textwrap.dedent(f"""
        import sys
        for name in ("torch", "stable_baselines3", "sb3_contrib"):
            sys.modules[name] = None          # any import of them now fails
        import numpy as np
        from wargym.agents.onnx_agent import OnnxAgent
        from wargym.agents import make_agent
        from wargym.replay import make_core_for
        core = make_core_for("island_war", "{SCENARIO}", "major")
        agent, other = OnnxAgent({str(exported[1])!r}), make_agent("random", "island_war", "japan", seed=0)
        state = core.init(2, 3)
        for _ in range(60):
            who = core.current_player(state)
            state = core.step(state, np.where(who == 0, agent.act(core, state, 0), other.act(core, state, 1)))
        loaded = [m for m in ("torch", "stable_baselines3", "sb3_contrib") if sys.modules.get(m) is not None]
        print("OK", int(state.decisions.sum()), loaded)
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("OK ") and done.stdout.strip().endswith("[]")


def _tiny_cnn():
    import torch
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

    class TinyHexCNN(BaseFeaturesExtractor):
        """A custom extractor: a conv over the planes + the global vector."""

        def __init__(self, observation_space, features_dim: int = 32):
            super().__init__(observation_space, features_dim)
            c = observation_space["spatial"].shape[0]
            g = observation_space["global"].shape[0]
            self.conv = torch.nn.Sequential(torch.nn.Conv2d(c, 8, 3, padding=1), torch.nn.ReLU(),
                                            torch.nn.MaxPool2d(2), torch.nn.Flatten())
            rows, cols = observation_space["spatial"].shape[1:]
            self.head = torch.nn.Sequential(torch.nn.Linear(8 * (rows // 2) * (cols // 2) + g, features_dim),
                                            torch.nn.ReLU())

        def forward(self, obs):
            return self.head(torch.cat([self.conv(obs["spatial"]), obs["global"]], dim=1))

    return TinyHexCNN


@pytest.mark.parametrize("variant", ["custom_cnn_extractor", "separate_actor_critic_extractors"])
def test_export_works_for_other_policy_architectures(variant, tmp_path, core):
    kwargs = ({"features_extractor_class": _tiny_cnn()} if variant == "custom_cnn_extractor"
              else {"share_features_extractor": False})
    checkpoint = save_untrained(tmp_path, **kwargs)
    onnx_path, json_path = export_policy(checkpoint, tmp_path / "policy.onnx", "island_war", "us", decisions="major")
    report = verify_export(checkpoint, onnx_path, collect_observations(core, side=0, n=200, seed=2))
    assert report.ok and report.agree == 200, str(report)
    extractor = json.loads(json_path.read_text())["policy"]["features_extractor"]
    assert extractor == ("TinyHexCNN" if variant == "custom_cnn_extractor" else "CombinedExtractor")


def test_the_bot_server_serves_an_onnx_agent_for_its_side(exported, core):
    from wargym.agents.serve import BotServer

    server = BotServer("island_war", OnnxAgent(exported[1]), scenario=SCENARIO)
    server.warm_up()  # the policy plays 'us' only: Japan's decisions are refused, the server runs
    assert server.ping({})["plays"] == ["us"]
    state = core.init(1, 0)
    assert core.players[int(core.current_player(state)[0])] == "us"
    reply = server.handle(json.dumps({"cmd": "act", "state": core.to_dict(state, 0)}))
    assert reply["ok"] and reply["player"] == "us" and core.legal_mask(state)[0, reply["action"]]
    assert reply["action"] == int(OnnxAgent(exported[1]).act(core, state, 0)[0])


def test_a_policy_trained_in_phases_exports_them_and_the_onnx_agent_plays_so(tmp_path, capsys):
    # configs/train/attu_us.yaml trains the U.S. command decisions only (refit 9.0, night 3.2,
    # retreat 8.2.1.3); the export reads them from the run, and OnnxAgent plays whole games as
    # PhaseAgent(the network, the U.S. rule) does
    from pathlib import Path

    import yaml

    from wargym.agents.base import PhaseAgent, make_agent
    from wargym.agents.evaluate import evaluate
    from wargym.agents.sb3_agent import SB3Agent
    from wargym.agents.train import train

    shipped = yaml.safe_load((Path(__file__).resolve().parents[2] / "configs/train/attu_us.yaml").read_text())
    small = {"n_envs": 2, "n_steps": 16, "batch_size": 32, "n_epochs": 1, "checkpoint_every": 32,
             "pretrain": None, "progress_bar": False, "torch_threads": 1}
    final = train({**shipped, **small}, steps=32, out_dir=tmp_path / "run", seed=4)
    out = tmp_path / "policy.onnx"
    assert export_main(["--checkpoint", str(final), "--out", str(out), "--ruleset", "attu", "--side", "us",
                        "--decisions", "major"]) == 0
    assert "the policy decides in ['refit decision', 'night decision', 'retreat option']; rule makes" \
        in capsys.readouterr().out
    meta = json.loads(out.with_suffix(".json").read_text())
    assert meta["phases"] == shipped["phases"] and meta["delegate"] == "rule"
    onnx_games = evaluate("attu", OnnxAgent(out), "rule", games=2, seed=6, a_side="us", decisions="major").games
    torch_agent = PhaseAgent(SB3Agent(final, run_phases=False), make_agent("rule", "attu", "us"), shipped["phases"])
    torch_games = evaluate("attu", torch_agent, "rule", games=2, seed=6, a_side="us", decisions="major").games
    assert [(g.result, g.length) for g in onnx_games] == [(g.result, g.length) for g in torch_games]
    run_games = evaluate("attu", f"sb3:{final}", "rule", games=2, seed=6, a_side="us", decisions="major").games
    assert [(g.result, g.length) for g in run_games] == [(g.result, g.length) for g in torch_games]
    with pytest.raises(ExportError, match="attu has no phase 'fly'"):
        export_policy(final, tmp_path / "bad.onnx", "attu", "us", decisions="major", phases=["fly"])


def test_a_peleliu_pointer_policy_exports_with_its_unit_pointers(tmp_path):
    # Peleliu's unit actions are scored at the unit's hex, read from the global observation
    # (core.special_hex_inputs), with each unit's own block (pointer_block), the trunk at the
    # selected unit's and the target's hexes (focus_planes) and the residual trunk: the ONNX graph
    # must compute the same as torch
    import gymnasium
    from sb3_contrib import MaskablePPO

    import wargym.envs  # noqa: F401  (registers the gymnasium ids)
    from wargym.agents.policy import HexPointerExtractor, HexPointerPolicy, hex_planes, special_inputs
    from wargym.envs.sb3 import SB3VecEnv
    from wargym.peleliu.observe import N_UNIT

    vector_env = gymnasium.make_vec("wargym/Peleliu-v0", num_envs=2, vectorization_mode="vector_entry_point")
    core = vector_env.unwrapped.core
    venv = SB3VecEnv(vector_env)
    kwargs = {"features_extractor_class": HexPointerExtractor, "net_arch": {"pi": [], "vf": [8]},
              "features_extractor_kwargs": {"channels": [4, 4], "dilations": [1, 2], "summary_dim": 8,
                                            "residual": True, "focus_planes": [48, 49], "pointer_block": N_UNIT},
              "hex_planes": hex_planes(core), "special_inputs": special_inputs(core)}
    model = MaskablePPO(HexPointerPolicy, venv, n_steps=8, batch_size=16, seed=0, device="cpu", policy_kwargs=kwargs)
    assert model.policy.action_net.n_pointers == len(core.scenario.us_names)
    checkpoint = tmp_path / "model.zip"
    model.save(checkpoint)
    venv.close()
    onnx_path, _ = export_policy(checkpoint, tmp_path / "policy.onnx", "peleliu", "us")
    observations = collect_observations(make_core_for("peleliu", "sept15", "full"), side=0, n=200, seed=3)
    report = verify_export(checkpoint, onnx_path, observations)
    assert report.ok and report.agree == 200, str(report)
