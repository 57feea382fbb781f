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
