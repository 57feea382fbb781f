"""``wargym train`` end to end on configs/train/smoke.yaml (a few hundred decisions in seconds):
the run folder (final.zip, run.json, TensorBoard events, checkpoints), --resume, and the trained
policy as an SB3Agent playing whole batches of games on a core without a masked action."""

from __future__ import annotations

import argparse
import json

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
pytest.importorskip("tensorboard")

from wargym.agents.random_agent import RandomAgent  # noqa: E402
from wargym.agents.sb3_agent import SB3Agent  # noqa: E402
from wargym.agents.train import add_train_arguments, latest_checkpoint, run_train, train  # noqa: E402
from wargym.island_war.core import IslandWarCore  # noqa: E402

STEPS = 1024  # smoke.yaml: 4 games x 32 decisions per rollout, 64-decision games


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("smoke")
    final = train("smoke", side="us", opponent="random", steps=STEPS, out_dir=out, seed=3)
    assert final == out / "final.zip"
    return out


def scalar_tags(run_dir) -> set[str]:
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    tags: set[str] = set()
    for events in (run_dir / "tb").glob("*/events.out.tfevents.*"):
        acc = EventAccumulator(str(events))
        acc.Reload()
        tags |= set(acc.Tags()["scalars"])
    return tags


def test_run_folder_holds_model_record_checkpoints_and_tensorboard(run_dir):
    assert (run_dir / "final.zip").is_file()
    record = json.loads((run_dir / "run.json").read_text())
    assert record["status"] == "finished" and record["num_timesteps"] >= STEPS
    assert record["seed"] == 3 and record["config"]["seed"] == 3
    assert record["config"]["n_envs"] == 4 and record["config"]["extractor"]["cnn_channels"] == [8]
    assert {"wargym", "torch", "stable_baselines3", "sb3_contrib", "numpy"} <= set(record["versions"])
    assert record["run_name"].startswith("island_war__us_vs_random__3__")
    assert list((run_dir / "tb" / record["run_name"]).glob("events.out.tfevents.*"))
    assert latest_checkpoint(run_dir).name == f"model_{record['num_timesteps']}_steps.zip"
    assert len(list((run_dir / "checkpoints").glob("model_*_steps.zip"))) >= 4  # every 256 steps
    tags = scalar_tags(run_dir)
    assert {"charts/win_rate", "charts/episodic_return", "charts/SPS", "losses/value_loss",
            "losses/policy_gradient_loss"} <= tags


def test_resume_continues_from_the_latest_checkpoint(run_dir):
    from sb3_contrib import MaskablePPO

    parser = argparse.ArgumentParser()
    add_train_arguments(parser)
    args = parser.parse_args(["--config", "smoke", "--side", "us", "--opponent", "random", "--seed", "3",
                              "--steps", str(STEPS + 256), "--out", str(run_dir), "--resume", "--quiet"])
    assert run_train(args) == 0
    record = json.loads((run_dir / "run.json").read_text())
    assert record["num_timesteps"] >= STEPS + 256
    assert MaskablePPO.load(run_dir / "final.zip").num_timesteps == record["num_timesteps"]
    assert [r["num_timesteps"] for r in record["resumes"]] == [STEPS]
    assert latest_checkpoint(run_dir).name == f"model_{record['num_timesteps']}_steps.zip"


def test_a_new_run_does_not_overwrite_a_run(run_dir):
    with pytest.raises(FileExistsError, match="--resume"):
        train("smoke", out_dir=run_dir)


def test_resume_refuses_another_config(run_dir):
    with pytest.raises(ValueError, match="gamma"):
        train({**_smoke_config(), "gamma": 0.5}, side="us", opponent="random", seed=3, out_dir=run_dir, resume=True)


def test_sb3_agent_plays_a_core_batch_without_masked_actions(run_dir):
    core = IslandWarCore("saipan", decisions="major", max_decisions=300)
    agent, other = SB3Agent(run_dir / "final.zip"), RandomAgent(seed=0)
    side = core.players.index("us")
    state = core.init(4, seed=7)
    own_decisions = 0
    while not (state.terminated | state.truncated).all():
        live = ~(state.terminated | state.truncated)
        mine = live & (state.current_player == side)
        actions = other.act(core, state, 1 - side)
        if mine.any():
            chosen = agent.act(core, state, side)
            assert chosen.dtype == np.int64 and chosen.shape == (4,)
            assert state.legal_action_mask[np.flatnonzero(mine), chosen[mine]].all()
            actions = np.where(mine, chosen, actions)
            own_decisions += int(mine.sum())
        state = core.step(state, actions)  # raises IllegalActionError on a masked action
    assert own_decisions > 100


def _smoke_config() -> dict:
    from wargym.agents.train import load_config

    return load_config("smoke")[0]


# ------------------------------------------------- the hex pointer policy, cloning, shaping, curve
POINTER = {"policy": "hex_pointer", "net_arch": {"pi": [], "vf": [16]}, "reward_shaping": 0.02,
           "extractor": {"channels": [4, 4], "dilations": [1, 2], "global_embed": 2, "summary_dim": 8},
           "pretrain": {"teacher": "rule", "samples": 256, "epochs": 2, "batch_size": 64}}


@pytest.fixture(scope="module")
def pointer_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("pointer")
    train({**_smoke_config(), **POINTER}, side="us", opponent="rule", steps=256, out_dir=out, seed=5)
    return out


def test_pointer_policy_scores_each_hex_from_its_own_neighbourhood(pointer_run):
    import torch
    from sb3_contrib import MaskablePPO

    from wargym.agents.policy import HexPointerPolicy, PointerHead, sb3_observation

    model = MaskablePPO.load(pointer_run / "final.zip", device="cpu")
    policy = model.policy
    assert isinstance(policy, HexPointerPolicy) and isinstance(policy.action_net, PointerHead)
    core = IslandWarCore("saipan", decisions="major")
    assert policy.hex_planes[:3] == [0, 17, 34]      # hexes 0101, 0102, 0103: one row of 17 columns apart
    assert len(policy.hex_planes) == core.scenario.num_hexes

    def logits(obs):
        with torch.no_grad():
            tensors = {k: torch.as_tensor(v) for k, v in obs.items()}
            return policy.action_net(policy.mlp_extractor.forward_actor(policy.extract_features(tensors)))[0]

    obs = sb3_observation(core, core.init(1, 0), 0)
    before = logits(obs)
    assert before.shape == (core.num_actions,)
    # the trunk (1x1, then 3x3 dilations 1 and 2) sees 3 rows/columns around a hex: a change in
    # plane row 0, column 0 (hex 0101) moves hex 0101's logit but not hex 0505's (4 away)
    obs["spatial"][0, :, 0, 0] += 1.0
    after = logits(obs)
    h0101, h0505 = core.scenario.grid.index(101), core.scenario.grid.index(505)
    assert after[h0505] == before[h0505]
    assert after[h0101] != before[h0101]


def test_pretraining_is_recorded_and_the_curve_is_written(pointer_run):
    record = json.loads((pointer_run / "run.json").read_text())
    pre = record["pretrain"]
    assert pre["teacher"] == "rule" and pre["samples"] == 256 and len(pre["epochs"]) == 2
    assert 0.0 <= pre["epochs"][-1]["accuracy"] <= 1.0
    assert record["config"]["reward_shaping"] == 0.02 and record["wall_seconds"] > 0
    lines = (pointer_run / "curve.csv").read_text().splitlines()
    assert lines[0] == "steps,seconds,games,win_rate,loss_rate" and len(lines) >= 2
    steps = [int(line.split(",")[0]) for line in lines[1:]]
    assert steps == sorted(steps) and steps[-1] >= 256


def test_cloning_fits_the_teacher_better_than_chance():
    # 2 epochs over a few hundred teacher decisions: the cross-entropy falls
    from wargym.agents.policy import HexPointerExtractor, HexPointerPolicy, hex_planes
    from wargym.agents.pretrain import buffers, collect, fit
    from wargym.envs.sb3 import SB3VecEnv
    from wargym.envs.vector import WargymVectorEnv
    from sb3_contrib import MaskablePPO

    venv = WargymVectorEnv(4, ruleset="island_war", side="us", opponent="rule", decisions="major")
    model = MaskablePPO(HexPointerPolicy, SB3VecEnv(venv), n_steps=8, batch_size=8, seed=0,
                        policy_kwargs={"features_extractor_class": HexPointerExtractor, "net_arch": {"pi": [], "vf": [8]},
                                       "hex_planes": hex_planes(venv.core),
                                       "features_extractor_kwargs": {"channels": [4], "dilations": [1],
                                                                     "global_embed": 2, "summary_dim": 8}})
    data = buffers(venv, 256)
    stats, obs = collect(venv, "rule", 64, seed=1, gamma=0.99, data=data, start=0)
    assert stats["games_finished"] == 0
    assert data["spatial"].dtype == np.float16 and len(data["action"]) == 256
    assert data["mask"][np.arange(256), data["action"]].all()          # the teacher's actions are legal
    history = fit(model.policy, data, epochs=3, batch_size=64, learning_rate=3e-3, value_coef=0.5, seed=0)
    assert history[-1]["policy_loss"] < history[0]["policy_loss"]

    # DAgger: the policy drives, the teacher labels; rows after ``start`` only
    data = buffers(venv, 128)
    data["action"][:] = -1
    decisions = venv.state.decisions.copy()
    played, _ = collect(venv, "rule", 16, seed=2, gamma=0.99, data=data, start=64, student=model.policy, obs=obs)
    assert (data["action"][:64] == -1).all() and data["mask"][np.arange(64, 128), data["action"][64:]].all()
    assert 0.0 <= played["teacher_agreed"] <= 1.0
    assert (venv.state.decisions > decisions).all()  # the round went on with the games, no reset


def test_pretrain_block_errors_name_the_key():
    from wargym.agents.train import load_config

    with pytest.raises(ValueError, match="unknown pretrain keys \\['sample'\\]"):
        load_config({"pretrain": {"sample": 10}})
    with pytest.raises(ValueError, match="pretrain.epochs must be a positive integer"):
        load_config({"pretrain": {"epochs": 0}})
    with pytest.raises(ValueError, match="pretrain.dagger_rounds must be an integer >= 0"):
        load_config({"pretrain": {"dagger_rounds": -1}})
    with pytest.raises(ValueError, match="policy 'lstm' is not one of"):
        load_config({"policy": "lstm"})


def test_max_minutes_stops_the_run(tmp_path):
    final = train({**_smoke_config(), "max_minutes": 1e-4}, side="us", opponent="random", steps=100_000,
                  out_dir=tmp_path, seed=1)
    record = json.loads((final.parent / "run.json").read_text())
    assert record["num_timesteps"] < 100_000 and record["status"] == "finished"


def test_linear_lr_schedule_falls_from_the_config_rate_to_zero_at_steps(tmp_path):
    from wargym.agents.train import check_config, learning_rate, load_config

    cfg, _ = load_config({"learning_rate": 4e-4, "lr_schedule": "linear"})
    rate = learning_rate(cfg)
    assert (rate(1.0), rate(0.25), rate(0.0)) == (4e-4, pytest.approx(1e-4), 0.0)  # of progress remaining
    assert learning_rate(load_config({"learning_rate": 4e-4})[0]) == 4e-4  # "constant", the default
    with pytest.raises(ValueError, match="lr_schedule 'cosine' is not one of"):
        check_config(load_config({"lr_schedule": "cosine"})[0])
    # a run of 8 rollouts of 128 steps (smoke.yaml, lr 3e-4): the update after the k-th rollout has
    # (8 - k)/8 of the steps left; the log shows the first seven (the last is not dumped)
    train({**_smoke_config(), "lr_schedule": "linear"}, side="us", opponent="random", steps=1024,
          out_dir=tmp_path, seed=1)
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    (events,) = (tmp_path / "tb").glob("*/events.out.tfevents.*")
    acc = EventAccumulator(str(events))
    acc.Reload()
    rates = [event.value for event in acc.Scalars("charts/learning_rate")]
    assert rates == pytest.approx([3e-4 * k / 8 for k in range(7, 0, -1)])


def test_max_minutes_also_bounds_the_cloning(tmp_path):
    # a budget spent before the cloning ends: one batch of the first fit, no DAgger round, no PPO
    pretrain = {**POINTER["pretrain"], "dagger_rounds": 3, "dagger_samples": 64}
    final = train({**_smoke_config(), **POINTER, "pretrain": pretrain, "max_minutes": 1e-4}, side="us",
                  opponent="rule", steps=100_000, out_dir=tmp_path, seed=1)
    record = json.loads((final.parent / "run.json").read_text())
    pre = record["pretrain"]
    assert pre["stopped_by_budget"] and pre["dagger"] == []
    assert len(pre["epochs"]) == 1 and pre["epochs"][0]["samples"] == 64  # one batch of 64 of the 256
    assert record["num_timesteps"] < 100_000 and (final.parent / "checkpoints" / "model_0_steps.zip").exists()


def test_cloning_within_its_budget_is_not_cut(tmp_path):
    import time

    from sb3_contrib import MaskablePPO

    from wargym.agents.policy import HexPointerExtractor, HexPointerPolicy, hex_planes
    from wargym.agents.pretrain import buffers, collect, fit
    from wargym.envs.sb3 import SB3VecEnv
    from wargym.envs.vector import WargymVectorEnv

    venv = WargymVectorEnv(4, ruleset="island_war", side="us", opponent="rule", decisions="major")
    extractor = {"channels": [4], "dilations": [1], "global_embed": 2, "summary_dim": 8}
    model = MaskablePPO(HexPointerPolicy, SB3VecEnv(venv), n_steps=8, batch_size=8, seed=0,
                        policy_kwargs={"features_extractor_class": HexPointerExtractor, "net_arch": {"pi": [], "vf": [8]},
                                       "hex_planes": hex_planes(venv.core), "features_extractor_kwargs": extractor})
    data = buffers(venv, 128)
    collect(venv, "rule", 32, seed=1, gamma=0.99, data=data, start=0)
    history = fit(model.policy, data, epochs=2, batch_size=64, learning_rate=3e-3, value_coef=0.5, seed=0,
                  deadline=time.perf_counter() + 3600)
    assert len(history) == 2 and all("samples" not in h for h in history)


def test_pointer_head_scores_a_special_that_names_a_hex_by_that_hex():
    # special 1 stands for the hex at plane 4 (Attu: a landing zone), special 0 for none
    from types import SimpleNamespace

    import torch

    from wargym.agents.policy import PointerHead

    extractor = SimpleNamespace(map_channels=2, rows=2, cols=3, summary_dim=4)
    head = PointerHead(extractor, hex_planes=[0, 1, 2, 3, 4, 5], num_actions=8, special_planes=[-1, 4])
    torch.nn.init.zeros_(head.specials.weight)
    torch.nn.init.zeros_(head.specials.bias)
    with torch.no_grad():
        logits = head(torch.randn(3, 2 * 2 * 3 + 4))
    assert torch.equal(logits[:, 6], torch.zeros(3))
    assert torch.equal(logits[:, 7], logits[:, 4])
    assert not torch.equal(logits[:, 7], logits[:, 3])


def test_pointer_head_scores_a_unit_action_at_the_hex_the_observation_puts_it():
    # special_inputs: specials 0 and 2 stand for hexes that move with the game (Peleliu: a unit's
    # action, where the unit stands); the features end with their entries, (plane + 1) / planes
    from types import SimpleNamespace

    import torch

    from wargym.agents.policy import PointerHead

    extractor = SimpleNamespace(map_channels=2, rows=2, cols=3, summary_dim=4, n_pointers=2)
    head = PointerHead(extractor, hex_planes=[0, 1, 2, 3, 4, 5], num_actions=9, special_inputs=[7, -1, 9])
    torch.nn.init.zeros_(head.specials.weight)
    torch.nn.init.zeros_(head.specials.bias)
    features = torch.randn(2, 2 * 2 * 3 + 4 + 2)
    features[0, -2:] = torch.tensor([5 / 6, 0.0])    # special 0 at plane 4; special 2 off the map
    features[1, -2:] = torch.tensor([1 / 6, 6 / 6])  # special 0 at plane 0; special 2 at plane 5
    with torch.no_grad():
        logits = head(features)
    hexes = logits[:, :6]  # hex_planes is the identity here: hex h's logit is plane h's
    assert torch.equal(logits[0, 6], hexes[0, 4]) and logits[0, 8] == 0.0
    assert torch.equal(logits[1, 6], hexes[1, 0]) and torch.equal(logits[1, 8], hexes[1, 5])
    assert logits[0, 7] == 0.0 and logits[1, 7] == 0.0   # no input: the summary's linear layer alone
    with pytest.raises(ValueError, match="pointer_inputs"):
        PointerHead(SimpleNamespace(map_channels=2, rows=2, cols=3, summary_dim=4), hex_planes=[0, 1, 2, 3, 4, 5],
                    num_actions=9, special_inputs=[7, -1, 9])


def test_pointer_head_tells_two_units_in_one_hex_apart_by_their_own_blocks():
    # pointer_block: the features end with each pointed action's block of the global vector (Peleliu:
    # the unit's type, steps, acted ...); two units in one hex get the same hex logit, and their
    # blocks decide between them
    from types import SimpleNamespace

    import torch

    from wargym.agents.policy import PointerHead

    extractor = SimpleNamespace(map_channels=2, rows=2, cols=3, summary_dim=4, n_pointers=2, pointer_block=3)
    head = PointerHead(extractor, hex_planes=[0, 1, 2, 3, 4, 5], num_actions=8, special_inputs=[7, 9])
    torch.nn.init.zeros_(head.specials.weight)
    torch.nn.init.zeros_(head.specials.bias)
    features = torch.randn(1, 2 * 2 * 3 + 4 + 2 + 2 * 3)
    features[0, 16:18] = torch.tensor([3 / 6, 3 / 6])          # both units at plane 2
    features[0, 18:24] = torch.tensor([1.0, 0.0, 0.5, 1.0, 0.0, 0.5])
    with torch.no_grad():
        same = head(features)
        features[0, 21:24] = torch.tensor([0.0, 1.0, 0.25])    # the second unit's block differs
        differ = head(features)
    assert torch.equal(same[0, 6], same[0, 7])
    assert torch.equal(differ[0, 6], same[0, 6]) and not torch.equal(differ[0, 7], differ[0, 6])


def small_extractors(**options):
    """(space, a small HexPointerExtractor, the same with ``options``): the same seed, so the same
    weights wherever the options change nothing; 3 planes of 2 x 3 hexes, 5 global entries."""
    import torch
    from gymnasium import spaces

    from wargym.agents.policy import HexPointerExtractor

    space = spaces.Dict({"spatial": spaces.Box(0, 1, (3, 2, 3)), "global": spaces.Box(0, 1, (5,))})
    made = []
    for extra in ({}, options):
        torch.manual_seed(0)
        made.append(HexPointerExtractor(space, channels=(4, 4), dilations=(1, 2), global_embed=2, summary_dim=6,
                                        **extra))
    return space, made[0], made[1]


def test_extractor_focus_is_the_trunk_at_the_marked_hex_and_residual_adds_the_entry_layer():
    import torch

    from wargym.agents.policy import HexPointerExtractor

    space, plain, both = small_extractors(focus_planes=[2], residual=True)
    assert both.summary_dim == plain.summary_dim + 4 and both.features_dim == plain.features_dim + 4
    obs = {"spatial": torch.rand(2, 3, 2, 3), "global": torch.rand(2, 5)}
    obs["spatial"][:, 2] = 0.0
    obs["spatial"][0, 2, 1, 2] = 1.0          # game 0 marks the hex at row 1, column 2; game 1 none
    with torch.no_grad():
        f, g = plain(obs), both(obs)
        x = torch.cat([obs["spatial"], both.embed(obs["global"])[:, :, None, None].expand(-1, -1, 2, 3)], dim=1)
        entry = both.trunk[1](both.trunk[0](x))
        hexes = both.trunk[2:](entry) + entry
    assert torch.allclose(g[:, :24], hexes.flatten(1))                      # residual
    assert not torch.allclose(f[:, :24], g[:, :24])
    focus = g[:, 24 + 8:24 + 12]                                            # after summary and embedding
    assert torch.allclose(focus[0], hexes[0, :, 1, 2]) and torch.equal(focus[1], torch.zeros(4))
    with pytest.raises(ValueError, match="residual"):
        HexPointerExtractor(space, channels=(4, 8), dilations=(1, 2), residual=True)


def test_extractor_summary_inputs_are_global_entries_as_they_are_at_the_summarys_end():
    import torch

    from wargym.agents.policy import HexPointerExtractor, PointerHead

    space, plain, fed = small_extractors(summary_inputs=[4, 1])
    assert fed.summary_dim == plain.summary_dim + 2 and fed.features_dim == plain.features_dim + 2
    obs = {"spatial": torch.rand(2, 3, 2, 3), "global": torch.rand(2, 5)}
    with torch.no_grad():
        f, g = plain(obs), fed(obs)
    assert torch.equal(g[:, :f.shape[1]], f)                                # the same weights, the same rest
    assert torch.equal(g[:, f.shape[1]:], obs["global"][:, [4, 1]])
    head = PointerHead(fed, hex_planes=[0, 1, 2, 3, 4, 5], num_actions=8)   # the specials read them
    assert head.specials.in_features == fed.summary_dim
    with pytest.raises(ValueError, match="summary_inputs \\[5\\]: the global vector has 5 entries"):
        HexPointerExtractor(space, summary_inputs=[5])


def test_special_planes_of_attu_landing_zones_and_none_for_island_war():
    from wargym.agents.policy import hex_planes, special_planes
    from wargym.attu.actions import LZ_0
    from wargym.attu.core import AttuCore

    core = AttuCore("campaign")
    planes = special_planes(core)
    assert planes[LZ_0 + 5] == hex_planes(core)[core.scenario.lz_hex[5]]
    assert sum(p >= 0 for p in planes) == 9
    assert special_planes(IslandWarCore("saipan")) == []


def test_phases_config_errors_name_the_phase():
    from wargym.agents.train import load_config

    with pytest.raises(ValueError, match="attu has no phase 'refit'; its phases: \\[.*'refit decision'"):
        load_config({"ruleset": "attu", "phases": ["refit"]})
    with pytest.raises(ValueError, match="phases must be a list of phase names"):
        load_config({"ruleset": "attu", "phases": "refit decision"})


def test_attu_command_policy_trains_in_its_phases_and_plays_whole_games(tmp_path):
    # configs/train/attu_us.yaml's game: the policy decides refit (9.0), night (3.2) and retreat
    # (8.2.1.3); the U.S. rule plays the units, in training and (SB3Agent reads the run's phases)
    # in evaluation
    import importlib.util
    from pathlib import Path

    import yaml

    from wargym.agents.base import PhaseAgent
    from wargym.agents.evaluate import evaluate

    shipped = yaml.safe_load((Path(__file__).resolve().parents[2] / "configs/train/attu_us.yaml").read_text())
    small = {"n_envs": 4, "n_steps": 16, "batch_size": 32, "n_epochs": 1, "checkpoint_every": 64,
             "pretrain": None, "progress_bar": False, "torch_threads": 1}
    final = train({**shipped, **small}, steps=64, out_dir=tmp_path, seed=2)
    agent = SB3Agent(final)  # reads the run's phases and delegate from its run.json
    assert isinstance(agent.phased, PhaseAgent) and list(agent.phased.phases) == shipped["phases"]
    assert SB3Agent(final, run_phases=False).phased is None
    games = evaluate("attu", agent, "rule", games=2, seed=1, a_side="us", decisions="major").games
    assert len(games) == 2 and all(g.result in ("win", "draw", "loss") and g.length > 100 for g in games)
    # benchmarks/attu_command.py: the policy's answers against the rule's, in the same states
    spec = importlib.util.spec_from_file_location(
        "attu_command", Path(__file__).resolve().parents[2] / "benchmarks" / "attu_command.py")
    command = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(command)
    result = command.compare(str(final), games=2, seed=1)
    refit = result["phases"]["refit decision"]
    assert refit["decisions"] > 0 and 0 <= refit["policy_yes"] <= refit["decisions"]
    assert sum(result["refit_casualties"]["policy"]) == refit["policy_yes"]
    assert sum(result["refit_casualties"]["rule"]) == refit["rule_yes"]


def test_peleliu_advice_option_travels_from_the_config_to_the_agent_and_the_export(tmp_path):
    # configs/train/peleliu_us.yaml sets core_options {advice: true} (the rule baseline's choice in
    # the observation, wargym/peleliu/observe.py): the run records it, the trained agent and the
    # exported policy build their games with it, since their observation has the advice in it
    import argparse

    from wargym.agents.base import make_agent
    from wargym.agents.export import export_settings
    from wargym.agents.train import check_config, load_config
    from wargym.replay import make_core_for

    tiny = {"ruleset": "peleliu", "side": "us", "core_options": {"advice": True}, "max_decisions": 200,
            "n_envs": 2, "n_steps": 16, "batch_size": 32, "n_epochs": 1, "checkpoint_every": 64,
            "progress_bar": False, "torch_threads": 1}
    final = train(tiny, steps=32, out_dir=tmp_path, seed=1)
    agent = SB3Agent(final)
    assert agent.settings["options"] == {"advice": True}
    exported = export_settings(argparse.Namespace(checkpoint=str(final), ruleset=None, side=None, scenario=None,
                                                  decisions=None, phases=None, delegate=None))
    assert exported["options"] == {"advice": True}
    core = make_core_for("peleliu", exported["scenario"], exported["decisions"], exported["options"])
    assert core.options["advice"]
    state = core.init(batch_size=2, seed=4)
    assert make_agent(f"sb3:{final}", "peleliu", "us").act(core, state, 0).shape == (2,)
    cfg, _ = load_config({"ruleset": "peleliu", "core_options": {"advise": True}})
    with pytest.raises(ValueError, match=r"core_options \{'advise': True\}: a mapping of the peleliu core's options "
                                         r"\(advice, alt_armor, every_decision, variable_letters\)"):
        check_config(cfg)


def test_cloning_loss_with_label_smoothing_spreads_e_over_the_legal_actions():
    # logits (0, ln 3, 5) with the third action illegal: p = (1/4, 3/4, 0); teacher's action 1.
    # Plain: -ln(3/4).  Smoothing 0.2: 0.8 x -ln(3/4) + 0.2 x (-ln(1/4) - ln(3/4)) / 2
    import math

    import torch
    from sb3_contrib.common.maskable.distributions import MaskableCategoricalDistribution

    from wargym.agents.pretrain import cloning_loss, pretrain_config

    mask = np.array([[True, True, False]])
    dist = MaskableCategoricalDistribution(3).proba_distribution(torch.tensor([[0.0, math.log(3.0), 5.0]]))
    dist.apply_masking(mask)  # as the policy's value_and_distribution gives it
    actions, weight = torch.tensor([1]), torch.ones(1)
    assert cloning_loss(dist, actions, mask, weight).item() == pytest.approx(-math.log(0.75), rel=1e-6)
    expected = 0.8 * -math.log(0.75) + 0.2 * (-math.log(0.25) - math.log(0.75)) / 2
    assert cloning_loss(dist, actions, mask, weight, 0.2).item() == pytest.approx(expected, rel=1e-6)
    with pytest.raises(ValueError, match="pretrain.label_smoothing must be a number in \\[0, 1\\), got 1.5"):
        pretrain_config({"label_smoothing": 1.5})


def test_value_summary_reads_the_board_summary_through_a_layer_norm(tmp_path):
    # agents/policy.py HexPointerPolicy(value_summary=True): the value net's first layer reads the
    # extractor's summary (summary_dim numbers after the map), not the whole feature vector; a saved
    # model loads with it; the config refuses it for a policy without that summary
    import torch
    from sb3_contrib import MaskablePPO

    from wargym.agents.policy import Columns, HexPointerExtractor, HexPointerPolicy, hex_planes
    from wargym.agents.train import check_config, load_config
    from wargym.envs.sb3 import SB3VecEnv
    from wargym.envs.vector import WargymVectorEnv

    venv = WargymVectorEnv(2, ruleset="island_war", side="us", opponent="rule", decisions="major")
    extractor = {"channels": [4], "dilations": [1], "global_embed": 2, "summary_dim": 8}
    model = MaskablePPO(HexPointerPolicy, SB3VecEnv(venv), n_steps=8, batch_size=8, seed=0,
                        policy_kwargs={"features_extractor_class": HexPointerExtractor, "net_arch": {"pi": [], "vf": [6]},
                                       "hex_planes": hex_planes(venv.core), "features_extractor_kwargs": extractor,
                                       "value_summary": True})
    trunk = model.policy.features_extractor
    columns, norm, first = list(model.policy.mlp_extractor.value_net)[:3]
    start = trunk.map_channels * trunk.rows * trunk.cols
    assert isinstance(columns, Columns) and (columns.start, columns.stop) == (start, start + trunk.summary_dim)
    assert isinstance(norm, torch.nn.LayerNorm) and (first.in_features, first.out_features) == (trunk.summary_dim, 6)
    features = torch.randn(3, trunk.features_dim)
    moved = features.clone()
    moved[:, :start] += 5.0  # the map's features: the value does not read them
    values = model.policy.value_net(model.policy.mlp_extractor.forward_critic(features))
    assert torch.equal(values, model.policy.value_net(model.policy.mlp_extractor.forward_critic(moved)))
    model.save(tmp_path / "m.zip")
    loaded = MaskablePPO.load(tmp_path / "m.zip", device="cpu")
    assert loaded.policy.value_summary
    assert torch.equal(loaded.policy.value_net(loaded.policy.mlp_extractor.forward_critic(features)), values)
    cfg, _ = load_config({"policy": "hex_map", "value_summary": True})
    with pytest.raises(ValueError, match="value_summary needs policy hex_pointer, got policy 'hex_map'"):
        check_config(cfg)


# ------------------------------------------ every ruleset trains from the command line (issue 49)
@pytest.mark.parametrize("ruleset", ["attu", "island_war", "peleliu", "world_at_war"])
def test_every_ruleset_trains_from_the_command_line_on_the_smoke_config(ruleset, tmp_path):
    from wargym.agents.train import add_train_arguments, run_train
    from wargym.registry import get

    parser = argparse.ArgumentParser()
    add_train_arguments(parser)
    args = parser.parse_args(["--ruleset", ruleset, "--config", "smoke", "--steps", "256", "--out", str(tmp_path),
                              "--quiet"])
    assert run_train(args) == 0
    config = json.loads((tmp_path / "run.json").read_text())["config"]
    assert (config["ruleset"], config["side"], config["scenario"]) == (ruleset, "us", get(ruleset).default_scenario)


def test_every_side_of_every_ruleset_has_a_default_config():
    from wargym.agents.train import check_config, default_config, load_config
    from wargym.registry import make_core, shipped

    for ruleset in shipped():
        assert default_config(ruleset, None) == f"{ruleset}_us.yaml"
        for side in make_core(ruleset).players:
            cfg, source = load_config(default_config(ruleset, side))
            assert (cfg["ruleset"], cfg["side"]) == (ruleset, side)
            check_config(cfg, source)
    with pytest.raises(ValueError, match="no default training config for side 'japan' of peleliu"):
        default_config("peleliu", "japan")


def test_train_scenario_flag_overrides_the_config(tmp_path):
    from wargym.agents.train import add_train_arguments, run_train

    parser = argparse.ArgumentParser()
    add_train_arguments(parser)
    args = parser.parse_args(["--ruleset", "island_war", "--scenario", "bloody_ridge", "--side", "japan", "--config",
                              "smoke", "--steps", "128", "--out", str(tmp_path), "--quiet"])
    assert run_train(args) == 0
    config = json.loads((tmp_path / "run.json").read_text())["config"]
    assert (config["scenario"], config["side"]) == ("bloody_ridge", "japan")
