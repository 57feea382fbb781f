"""Behaviour cloning before PPO: a new policy first imitates a teacher agent ("kickstarting").

A training config may name a ``pretrain`` block::

    pretrain:
      teacher: rule          # any agent spec (wargym.agents.make_agent) playing the trained side
      samples: 100000        # teacher decisions recorded, in the training env itself
      epochs: 3
      batch_size: 256
      learning_rate: 0.001
      value_coef: 0.5        # the value head learns the discounted returns of the teacher's games
      dagger_rounds: 0       # then: the policy plays, the teacher labels what it would do (DAgger)
      dagger_samples: 30000  # decisions recorded per round
      dagger_epochs: 2       # epochs over all the decisions so far after each round
      label_smoothing: 0.0   # the target: the teacher's action 1 - e, every legal action e / legal
      improve: null          # or a mapping: first learn the teacher's few-option decisions by
                             # policy iteration in simulation (agents/choices.py), then imitate that

The teacher plays the trained side in the very env PPO then trains in (same opponent, same
reward, shaped or not); its decisions are recorded with the observations and masks the policy
sees.  The policy is then fitted by cross-entropy of its masked distribution on the teacher's
actions, and its value head by squared error on the games' discounted returns (so PPO's first
advantages are not noise).  PPO starts from that policy.

``label_smoothing`` e > 0 fits the policy to (1 - e) x the teacher's action + e spread evenly over
the legal actions (Szegedy et al. 2016): a clone of a teacher it can copy exactly (Peleliu's rule
with its advice in the observation) then keeps about e of its probability off the teacher's action,
so that PPO's sampled games try the other actions and learn where they pay, where an exact clone
(entropy ~0) gives PPO nothing to compare.

``dagger_rounds`` (Ross et al. 2011, DAgger): a clone's small mistakes take it to states the
teacher never visits, where it has nothing to copy.  Each round the policy itself plays (its most
probable legal action, as it is evaluated), the teacher names its action in every state the policy
reaches, those decisions join the data, and the policy is fitted again on all of it.  The value head
then learns the returns of the policy's own games.  A round plays on in the games the last one
left (no reset): a round's decisions may be fewer than a game has, and the late turns would
otherwise never be labelled.  Observations are stored as float16
(the planes hold small exact fractions) to keep 100,000 Saipan samples near 3.7 GB.

A run's wall-clock budget (``max_minutes``, cloning included) also bounds the cloning: past it, the
fit stops after the batch it is on and no further DAgger round starts (``stopped_by_budget`` in the
record); PPO then stops at once.  A budget the cloning fits in changes nothing.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from wargym.progress import Progress

PRETRAIN_DEFAULTS: dict[str, Any] = {"teacher": "rule", "samples": 100_000, "epochs": 3, "batch_size": 256,
                                     "learning_rate": 1e-3, "value_coef": 0.5, "dagger_rounds": 0,
                                     "dagger_samples": 30_000, "dagger_epochs": 2, "label_smoothing": 0.0,
                                     "improve": None}


def with_defaults(raw: Any, defaults: dict[str, Any], block: str, where: str) -> dict[str, Any]:
    """A config block (a mapping of known keys) with its defaults filled in."""
    if not isinstance(raw, dict):
        raise ValueError(f"{where}: {block} must be a mapping of {sorted(defaults)}, got {raw!r}")
    unknown = sorted(set(raw) - set(defaults))
    if unknown:
        raise ValueError(f"{where}: unknown {block} keys {unknown}; known: {sorted(defaults)}")
    return {**defaults, **raw}


def positive_integers(cfg: dict[str, Any], keys: tuple[str, ...], block: str, where: str) -> None:
    for key in keys:
        if not isinstance(cfg[key], int) or cfg[key] < 1:
            raise ValueError(f"{where}: {block}.{key} must be a positive integer, got {cfg[key]!r}")


def pretrain_config(raw: Any, source: str | None = None, phase_names: tuple[str, ...] | None = None) -> dict[str, Any]:
    """The ``pretrain`` block with its defaults filled in (errors name the file and key);
    ``phase_names``: the ruleset's, to check ``improve.phases`` against."""
    where = source or "config"
    cfg = with_defaults(raw, PRETRAIN_DEFAULTS, "pretrain", where)
    positive_integers(cfg, ("samples", "epochs", "batch_size", "dagger_samples", "dagger_epochs"), "pretrain", where)
    if not isinstance(cfg["dagger_rounds"], int) or cfg["dagger_rounds"] < 0:
        raise ValueError(f"{where}: pretrain.dagger_rounds must be an integer >= 0, got {cfg['dagger_rounds']!r}")
    e = cfg["label_smoothing"]
    if isinstance(e, bool) or not isinstance(e, (int, float)) or not 0.0 <= e < 1.0:
        raise ValueError(f"{where}: pretrain.label_smoothing must be a number in [0, 1), got {e!r}")
    if cfg["improve"] is not None:
        from wargym.agents.choices import improve_config

        cfg["improve"] = improve_config(cfg["improve"], phase_names, where)
    return cfg


def buffers(env, rows: int) -> dict[str, np.ndarray]:
    """Empty arrays for ``rows`` recorded decisions of ``env`` (a WargymVectorEnv)."""
    shapes = env.single_observation_space
    return {"spatial": np.empty((rows, *shapes["spatial"].shape), dtype=np.float16),
            "global": np.empty((rows, *shapes["global"].shape), dtype=np.float32),
            "mask": np.empty((rows, env.core.num_actions), dtype=bool),
            "action": np.empty(rows, dtype=np.int64),
            "return": np.empty(rows, dtype=np.float32),
            "weight": np.ones(rows, dtype=np.float32)}


def collect(env, teacher_spec, steps: int, seed: int, gamma: float, data: dict[str, np.ndarray], start: int,
            student=None, obs=None, progress: bool = False) -> tuple[dict[str, float], dict]:
    """Play ``steps`` decisions in each game of ``env`` (a WargymVectorEnv): the teacher's (an agent
    spec or an Agent), or with
    ``student`` (an SB3 policy) the student's most probable legal actions.  Rows ``start`` on of
    ``data`` (``buffers``) get the observations, masks, the teacher's actions and the discounted
    returns of the games played (games still running at the end count their rewards so far).
    ``obs``: the env's current observation, to go on with the games it is playing (a DAgger round
    takes up the games where the last one stopped, so the later turns get labels too); None resets
    the env with ``seed``.  Returns (the games finished and, with a student, how often it chose
    the teacher's action; the env's observation at the end)."""
    from wargym.agents.base import make_agent, reset_agent

    core, side, n = env.core, env.side, env.num_envs
    teacher = make_agent(teacher_spec, core.name, core.players[side])
    reset_agent(teacher, seed)
    if obs is None:
        obs, _ = env.reset(seed=seed)
    rewards = np.empty((steps, n), dtype=np.float64)
    dones = np.empty((steps, n), dtype=bool)
    agreed = 0
    learned = list(getattr(teacher, "phases", ()))  # a ChoiceAgent's learned phases (agents/choices.py)
    learned_agreed = learned_seen = 0
    what = "the student's games, the teacher labelling" if student is not None else "the teacher's games"
    bar = Progress(f"behaviour cloning: {what}", total=steps * n, unit="decisions", quiet=not progress)
    for t in range(steps):
        rows = slice(start + t * n, start + (t + 1) * n)
        actions = np.asarray(teacher.act(core, env.state, side), dtype=np.int64)
        data["spatial"][rows] = obs["spatial"]
        data["global"][rows] = obs["global"]
        data["mask"][rows] = env.action_masks()
        data["action"][rows] = actions
        if learned:  # the cloning loss counts these decisions ``teacher.weight`` times
            at = np.isin(env.state.phase, learned)  # the env stops only where ``side`` decides
            data["weight"][rows] = np.where(at, teacher.weight, 1.0)
        if student is not None:
            actions, _ = student.predict({k: v.astype(np.float32) for k, v in obs.items()},
                                         deterministic=True, action_masks=data["mask"][rows])
            agreed += int(np.sum(actions == data["action"][rows]))
            if learned:
                learned_seen += int(at.sum())
                learned_agreed += int(np.sum(actions[at] == data["action"][rows][at]))
        obs, rewards[t], terminated, truncated, _ = env.step(actions)
        dones[t] = terminated | truncated
        bar.update(n)
    bar.close()
    running = np.zeros(n)
    for t in range(steps - 1, -1, -1):
        running = rewards[t] + gamma * running * ~dones[t]
        data["return"][start + t * n:start + (t + 1) * n] = running
    stats = {"games_finished": int(dones.sum())}
    if student is not None:
        stats["teacher_agreed"] = round(agreed / (steps * n), 4)
        if learned_seen:
            stats["teacher_agreed_learned_phases"] = round(learned_agreed / learned_seen, 4)
    return stats, obs


def value_and_distribution(policy, obs, masks):
    """The policy's values and masked action distribution for a batch in one pass of the network
    (sb3-contrib's ``evaluate_actions`` without taking the log-probabilities, so the fit reads both the
    teacher's action's log-probability and the policy's own choice from it)."""
    features = policy.extract_features(obs)
    if policy.share_features_extractor:
        latent_pi, latent_vf = policy.mlp_extractor(features)
    else:
        latent_pi = policy.mlp_extractor.forward_actor(features[0])
        latent_vf = policy.mlp_extractor.forward_critic(features[1])
    dist = policy._get_action_dist_from_latent(latent_pi)
    dist.apply_masking(masks)
    return policy.value_net(latent_vf), dist


def cloning_loss(dist, actions, mask: np.ndarray, weight, smoothing: float = 0.0):
    """The weighted mean cross-entropy of the masked distribution ``dist`` on the teacher's
    ``actions``; with ``smoothing`` e, on the target (1 - e) x the action + e spread evenly over the
    legal actions (``mask``)."""
    import torch

    nll = -dist.log_prob(actions)
    if smoothing:
        legal = torch.as_tensor(mask)
        log_probs = dist.distribution.logits  # normalized; an illegal action's is ~-1e8, left out
        spread = -torch.where(legal, log_probs, torch.zeros_like(log_probs)).sum(1) / legal.sum(1)
        nll = (1.0 - smoothing) * nll + smoothing * spread
    return (weight * nll).sum() / weight.sum()


def fit(policy, data: dict[str, np.ndarray], epochs: int, batch_size: int, learning_rate: float,
        value_coef: float, seed: int, progress: bool = False, deadline: float | None = None,
        smoothing: float = 0.0) -> list[dict[str, float]]:
    """Cross-entropy on the teacher's actions (``cloning_loss``, ``smoothing`` its label smoothing)
    + value regression; one record per epoch (its
    ``accuracy``: how often the policy's most probable action was the teacher's, read in the same
    pass of the network as the loss, i.e. before that batch's update).  Past
    ``deadline`` (``time.perf_counter()``) the fit stops after its current batch; the last record
    then averages over the samples it saw (``samples``)."""
    import torch

    rng = np.random.default_rng(seed)
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    n = len(data["action"])
    history = []
    policy.set_training_mode(True)
    bar = Progress("behaviour cloning: fitting", total=epochs * n, unit="samples", quiet=not progress)
    for epoch in range(epochs):
        order = rng.permutation(n)
        totals = {"policy_loss": 0.0, "value_loss": 0.0, "accuracy": 0.0}
        seen = 0
        for start in range(0, n, batch_size):
            if deadline is not None and seen and time.perf_counter() >= deadline:
                break
            idx = np.sort(order[start:start + batch_size])
            obs = {"spatial": torch.as_tensor(data["spatial"][idx], dtype=torch.float32),
                   "global": torch.as_tensor(data["global"][idx])}
            actions = torch.as_tensor(data["action"][idx])
            values, dist = value_and_distribution(policy, obs, data["mask"][idx])
            policy_loss = cloning_loss(dist, actions, data["mask"][idx], torch.as_tensor(data["weight"][idx]),
                                       smoothing)
            value_loss = torch.nn.functional.mse_loss(values.flatten(), torch.as_tensor(data["return"][idx]))
            loss = policy_loss + value_coef * value_loss
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
            optimizer.step()
            chosen = dist.distribution.probs.detach().argmax(1)
            k = len(idx)
            totals["policy_loss"] += policy_loss.item() * k
            totals["value_loss"] += value_loss.item() * k
            totals["accuracy"] += float((chosen == actions).float().sum())
            seen += k
            bar.update(k)
        record = {"epoch": epoch + 1, **{k: v / seen for k, v in totals.items()}}
        if seen < n:
            record["samples"] = seen
        history.append(record)
        if progress:
            print(f"pretrain epoch {epoch + 1}/{epochs}: cross-entropy {record['policy_loss']:.3f}, "
                  f"value loss {record['value_loss']:.3f}, teacher's action chosen {record['accuracy']:.1%}",
                  flush=True)
        if seen < n:
            break
    bar.close()
    policy.set_training_mode(False)
    return history


def pretrain(model, env, cfg: dict[str, Any], seed: int = 0, progress: bool = False,
             deadline: float | None = None) -> dict[str, Any]:
    """Fit ``model.policy`` to ``cfg["teacher"]`` in ``env``; returns what happened (for run.json).
    ``deadline`` (``time.perf_counter()``, the run's budget): no fitting or DAgger round past it."""
    start = time.perf_counter()
    gamma, n = float(model.gamma), env.num_envs
    teacher, improved = cfg["teacher"], None
    if cfg["improve"] is not None:
        from wargym.agents.base import make_agent
        from wargym.agents.choices import improve

        core, side = env.core, env.side
        teacher, improved = improve(core, side, make_agent(teacher, core.name, core.players[side]),
                                    env.opponents[1 - side], cfg["improve"], seed, progress)
    steps, more_steps = -(-cfg["samples"] // n), -(-cfg["dagger_samples"] // n)
    data = buffers(env, (steps + cfg["dagger_rounds"] * more_steps) * n)  # the rounds' rows after the teacher's
    stats, obs = collect(env, teacher, steps, seed, gamma, data, 0, progress=progress)
    collected, rows = time.perf_counter() - start, steps * n
    history = fit(model.policy, {k: v[:rows] for k, v in data.items()}, cfg["epochs"], cfg["batch_size"],
                  cfg["learning_rate"], cfg["value_coef"], seed, progress, deadline, cfg["label_smoothing"])
    rounds = []
    late = lambda: deadline is not None and time.perf_counter() >= deadline  # noqa: E731
    for r in range(cfg["dagger_rounds"]):
        if late():
            break
        began = time.perf_counter()
        played, obs = collect(env, teacher, more_steps, seed + r + 1, gamma, data, rows,
                              student=model.policy, obs=obs, progress=progress)
        rows += more_steps * n
        history += fit(model.policy, {k: v[:rows] for k, v in data.items()}, cfg["dagger_epochs"],
                       cfg["batch_size"], cfg["learning_rate"], cfg["value_coef"], seed + r + 1, progress, deadline,
                       cfg["label_smoothing"])
        rounds.append({"round": r + 1, "samples": more_steps * n, **played,
                       "seconds": round(time.perf_counter() - began, 1)})
        if progress:
            learned = played.get("teacher_agreed_learned_phases")
            print(f"DAgger round {r + 1}: the policy chose the teacher's action {played['teacher_agreed']:.1%} "
                  f"of {more_steps * n} decisions in its own games"
                  + (f" ({learned:.1%} in the learned phases)" if learned is not None else ""), flush=True)
    out = {"teacher": cfg["teacher"], "samples": rows, "games_finished": stats["games_finished"],
           "collect_seconds": round(collected, 1), "seconds": round(time.perf_counter() - start, 1),
           "epochs": history, "dagger": rounds, "improve": improved}
    if late():
        out["stopped_by_budget"] = True
    return out
