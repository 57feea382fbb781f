"""Behaviour cloning before PPO: a new policy first imitates a teacher agent ("kickstarting").

A training config may name a ``pretrain`` block::

    pretrain:
      teacher: rule          # any agent spec (wargym.agents.make_agent) playing the trained side
      samples: 100000        # teacher decisions recorded, in the training env itself
      epochs: 3
      batch_size: 256
      learning_rate: 0.001
      value_coef: 0.5        # the value head learns the discounted returns of the teacher's games

The teacher plays the trained side in the very env PPO then trains in (same opponent, same
reward, shaped or not); its decisions are recorded with the observations and masks the policy
sees.  The policy is then fitted by cross-entropy of its masked distribution on the teacher's
actions, and its value head by squared error on the games' discounted returns (so PPO's first
advantages are not noise).  PPO starts from that policy.  Observations are stored as float16
(the planes hold small exact fractions) to keep 100,000 Saipan samples near 3.7 GB.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

PRETRAIN_DEFAULTS: dict[str, Any] = {"teacher": "rule", "samples": 100_000, "epochs": 3, "batch_size": 256,
                                     "learning_rate": 1e-3, "value_coef": 0.5}


def pretrain_config(raw: Any, source: str | None = None) -> dict[str, Any]:
    """The ``pretrain`` block with its defaults filled in (errors name the file and key)."""
    where = source or "config"
    if not isinstance(raw, dict):
        raise ValueError(f"{where}: pretrain must be a mapping of {sorted(PRETRAIN_DEFAULTS)}, got {raw!r}")
    unknown = sorted(set(raw) - set(PRETRAIN_DEFAULTS))
    if unknown:
        raise ValueError(f"{where}: unknown pretrain keys {unknown}; known: {sorted(PRETRAIN_DEFAULTS)}")
    cfg = {**PRETRAIN_DEFAULTS, **raw}
    for key in ("samples", "epochs", "batch_size"):
        if not isinstance(cfg[key], int) or cfg[key] < 1:
            raise ValueError(f"{where}: pretrain.{key} must be a positive integer, got {cfg[key]!r}")
    return cfg


def collect(env, teacher_spec: str, samples: int, seed: int, gamma: float) -> dict[str, np.ndarray]:
    """Play ``samples`` decisions of the teacher in ``env`` (a WargymVectorEnv); returns the
    observations, masks, actions and discounted returns (games still running at the end count
    their rewards so far)."""
    from wargym.agents.base import make_agent, reset_agent

    core, side, n = env.core, env.side, env.num_envs
    teacher = make_agent(teacher_spec, core.name, core.players[side])
    reset_agent(teacher, seed)
    obs, _ = env.reset(seed=seed)
    steps = -(-samples // n)
    planes = obs["observation"]
    data = {"spatial": np.empty((steps, n, *planes["spatial"].shape[1:]), dtype=np.float16),
            "global": np.empty((steps, n, *planes["global"].shape[1:]), dtype=np.float32),
            "mask": np.empty((steps, n, core.num_actions), dtype=bool),
            "action": np.empty((steps, n), dtype=np.int64)}
    rewards = np.empty((steps, n), dtype=np.float64)
    dones = np.empty((steps, n), dtype=bool)
    for t in range(steps):
        actions = np.asarray(teacher.act(core, env.state, side), dtype=np.int64)
        data["spatial"][t] = obs["observation"]["spatial"]
        data["global"][t] = obs["observation"]["global"]
        data["mask"][t] = obs["action_mask"].astype(bool)
        data["action"][t] = actions
        obs, rewards[t], terminated, truncated, _ = env.step(actions)
        dones[t] = terminated | truncated
    returns = np.empty_like(rewards)
    running = np.zeros(n)
    for t in range(steps - 1, -1, -1):
        running = rewards[t] + gamma * running * ~dones[t]
        returns[t] = running
    out = {k: v.reshape(steps * n, *v.shape[2:]) for k, v in data.items()}
    out["return"] = returns.reshape(-1).astype(np.float32)
    out["games_finished"] = np.asarray(int(dones.sum()))
    return out


def fit(policy, data: dict[str, np.ndarray], epochs: int, batch_size: int, learning_rate: float,
        value_coef: float, seed: int, progress: bool = False) -> list[dict[str, float]]:
    """Cross-entropy on the teacher's actions + value regression; one record per epoch."""
    import torch

    rng = np.random.default_rng(seed)
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    n = len(data["action"])
    history = []
    policy.set_training_mode(True)
    for epoch in range(epochs):
        order = rng.permutation(n)
        totals = {"policy_loss": 0.0, "value_loss": 0.0, "accuracy": 0.0}
        for start in range(0, n, batch_size):
            idx = np.sort(order[start:start + batch_size])
            obs = {"spatial": torch.as_tensor(data["spatial"][idx], dtype=torch.float32),
                   "global": torch.as_tensor(data["global"][idx])}
            actions = torch.as_tensor(data["action"][idx])
            values, log_prob, _ = policy.evaluate_actions(obs, actions, action_masks=data["mask"][idx])
            policy_loss = -log_prob.mean()
            value_loss = torch.nn.functional.mse_loss(values.flatten(), torch.as_tensor(data["return"][idx]))
            loss = policy_loss + value_coef * value_loss
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
            optimizer.step()
            with torch.no_grad():
                chosen = policy.get_distribution(obs, action_masks=data["mask"][idx]).distribution.probs.argmax(1)
            k = len(idx)
            totals["policy_loss"] += policy_loss.item() * k
            totals["value_loss"] += value_loss.item() * k
            totals["accuracy"] += float((chosen == actions).float().sum())
        record = {"epoch": epoch + 1, **{k: v / n for k, v in totals.items()}}
        history.append(record)
        if progress:
            print(f"pretrain epoch {epoch + 1}/{epochs}: cross-entropy {record['policy_loss']:.3f}, "
                  f"value loss {record['value_loss']:.3f}, teacher's action chosen {record['accuracy']:.1%}",
                  flush=True)
    policy.set_training_mode(False)
    return history


def pretrain(model, env, cfg: dict[str, Any], seed: int = 0, progress: bool = False) -> dict[str, Any]:
    """Fit ``model.policy`` to ``cfg["teacher"]`` in ``env``; returns what happened (for run.json)."""
    start = time.perf_counter()
    data = collect(env, cfg["teacher"], cfg["samples"], seed, float(model.gamma))
    collected = time.perf_counter() - start
    history = fit(model.policy, data, cfg["epochs"], cfg["batch_size"], cfg["learning_rate"], cfg["value_coef"],
                  seed, progress)
    return {"teacher": cfg["teacher"], "samples": len(data["action"]), "games_finished": int(data["games_finished"]),
            "collect_seconds": round(collected, 1), "seconds": round(time.perf_counter() - start, 1),
            "epochs": history}
