"""Policy iteration on a teacher's few-option decisions, before the policy imitates it.

A rule baseline takes its few-option decisions (Attu: refit or not, 9.0) by a fixed threshold,
and those few decisions decide much of a game: a dozen refit decisions a game against a thousand
unit orders.  PPO cannot tell their effect from the dice in the few hundred games it plays in an
hour; plain simulation can, because the rule players need no network and play ~60 games a second.
``improve`` learns those decisions by Monte Carlo approximate policy iteration (Lagoudakis & Parr
2003, "Reinforcement learning as classification"; Bertsekas' rollout policies)::

    policy 0 = the teacher's own choices
    round r = 1..rounds:
        play ``games`` games: the teacher against the training opponent, except at the named
        phases, where policy r-1 chooses, and with probability ``epsilon`` another legal option
        is taken instead (exploration);
        record each such decision: the side's global observation vector phi, the option a, and the
        game's result z (1 a win, else 0);
        fit, for each phase and option, Q_a(phi) = w_a . phi by ridge regression of z on phi over
        the decisions of all rounds so far where a was taken;
        policy r = the legal option of largest Q_a(phi);
        play ``eval_games`` validation games with policy r (no exploration)
    keep the policy (0..rounds) with the most validation wins.

phi is what the side itself observes (its observation's "global" vector and a constant), so the
learned choices need no hidden information and a policy network that sees the same vector can
represent them.  The result is a ``ChoiceAgent``: the teacher with the learned choices, which
DAgger then imitates (agents/pretrain.py).  Config (the ``pretrain.improve`` block)::

    improve:
      phases: ["refit decision"]   # the ruleset's PHASE_NAMES where the side's options are learned
      rounds: 4
      games: 12288                 # games per round
      epsilon: 0.1
      eval_games: 1024             # validation games of each round's policy
      ridge: 1.0
      weight: 20.0                 # the cloning loss counts each decision in these phases 20 times

The games are dealt by seeds of their own (``ROUND_SEED``, ``EVAL_SEED``), so they are none of the
evaluation's or the learnability benchmark's games.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from wargym.agents.base import reset_agent

IMPROVE_DEFAULTS: dict[str, Any] = {"phases": [], "rounds": 4, "games": 12_288, "epsilon": 0.1,
                                    "eval_games": 1024, "ridge": 1.0, "weight": 1.0}
ROUND_SEED = 7_100_000   # round r plays core.init(games, ROUND_SEED + r)
EVAL_SEED = 7_000_000    # every round's validation games: core.init(eval_games, EVAL_SEED)
MIN_TAKEN = 50           # an option's Q is fitted only once it was taken this often
MAX_STEPS = 1_000_000    # a round that has not ended after this many steps is an error


def improve_config(raw: Any, phase_names: tuple[str, ...] | None, where: str) -> dict[str, Any]:
    """The ``improve`` block with its defaults filled in (errors name the key and the value)."""
    from wargym.agents.pretrain import positive_integers, with_defaults

    cfg = with_defaults(raw, IMPROVE_DEFAULTS, "pretrain.improve", where)
    positive_integers(cfg, ("rounds", "games", "eval_games"), "pretrain.improve", where)
    if not 0.0 <= float(cfg["epsilon"]) < 1.0:
        raise ValueError(f"{where}: pretrain.improve.epsilon must be in [0, 1), got {cfg['epsilon']!r}")
    if float(cfg["weight"]) <= 0.0:
        raise ValueError(f"{where}: pretrain.improve.weight must be > 0, got {cfg['weight']!r}")
    if float(cfg["ridge"]) <= 0.0:
        raise ValueError(f"{where}: pretrain.improve.ridge must be > 0, got {cfg['ridge']!r}")
    if not isinstance(cfg["phases"], list) or not cfg["phases"]:
        raise ValueError(f"{where}: pretrain.improve.phases must name at least one phase, got {cfg['phases']!r}")
    if phase_names is not None:
        for name in cfg["phases"]:
            if name not in phase_names:
                raise ValueError(f"{where}: pretrain.improve.phases: no phase {name!r}; phases: {list(phase_names)}")
    return cfg


def features(core, state, games: np.ndarray, side: int) -> np.ndarray:
    """phi: the side's global observation vector of each game in ``games``, and a constant 1."""
    glob = core.observe(state.take(games), side)["global"]
    return np.concatenate([glob, np.ones((len(games), 1), dtype=glob.dtype)], axis=1).astype(np.float64)


class ChoiceAgent:
    """``base`` playing ``side``, except at the learned phases, where it takes the legal option of
    largest fitted Q_a(phi) (options never fitted are left to ``base``)."""

    def __init__(self, base, side: int, phases: dict[int, tuple[np.ndarray, np.ndarray]], weight: float = 1.0):
        self.base, self.side, self.weight = base, side, weight  # weight: of its learned decisions in cloning
        self.phases = phases  # phase id -> (option actions int64[k], weights float64[k, F])

    def reset(self, seed: int | None) -> None:
        reset_agent(self.base, seed)

    def act(self, core, state, player: int) -> np.ndarray:
        actions = np.asarray(self.base.act(core, state, player), dtype=np.int64).copy()
        if player != self.side or not self.phases:
            return actions
        here = learned_here(state, player, list(self.phases))
        if here.size:
            actions[here] = self.choose(state.phase[here], features(core, state, here, player),
                                        core.legal_mask(state)[here], actions[here])
        return actions

    def choose(self, phase: np.ndarray, phi: np.ndarray, mask: np.ndarray, fallback: np.ndarray) -> np.ndarray:
        out = fallback.copy()
        for p, (options, weights) in self.phases.items():
            rows = np.flatnonzero(phase == p)
            if not rows.size:
                continue
            q = phi[rows] @ weights.T
            q[~mask[rows][:, options]] = -np.inf
            best = q.argmax(axis=1)
            fitted = np.isfinite(q[np.arange(rows.size), best])
            out[rows[fitted]] = options[best[fitted]]
        return out

    def to_dict(self) -> dict[str, Any]:
        return {str(p): {"options": o.tolist(), "weights": np.round(w, 6).tolist()} for p, (o, w) in self.phases.items()}

    def __repr__(self) -> str:
        return f"ChoiceAgent({self.base!r}, phases={sorted(self.phases)})"


def learned_here(state, side: int, phase_ids: list[int]) -> np.ndarray:
    """The games where ``side`` is to decide in one of ``phase_ids``."""
    live = ~(np.asarray(state.terminated) | np.asarray(state.truncated))
    return np.flatnonzero(live & (state.current_player == side) & np.isin(state.phase, phase_ids))


def play(core, side: int, agent, opponent, games: int, seed: int, epsilon: float = 0.0,
         rng: np.random.Generator | None = None, phase_ids: list[int] | None = None):
    """``games`` games of ``agent`` (side) against ``opponent``.  With ``phase_ids``, every decision
    of the side there is recorded, and with probability ``epsilon`` another legal option than the
    agent's is taken.  Returns (the side's wins, records: phase, phi, action, game and its result per
    decision, in the order taken)."""
    state = core.init(games, seed)
    records: dict[str, list] = {"phase": [], "phi": [], "action": [], "game": []}
    for _ in range(MAX_STEPS):
        done = np.asarray(core.terminated(state)) | np.asarray(core.truncated(state))
        if done.all():
            break
        player = state.current_player
        actions = np.where(player == side, agent.act(core, state, side), opponent.act(core, state, 1 - side))
        here = learned_here(state, side, phase_ids) if phase_ids else np.empty(0, dtype=np.int64)
        if here.size:
            mask = core.legal_mask(state)[here]
            explore = np.flatnonzero(rng.random(here.size) < epsilon) if epsilon > 0 else ()
            for i in explore:
                others = np.flatnonzero(mask[i])
                others = others[others != actions[here[i]]]
                if others.size:
                    actions[here[i]] = rng.choice(others)
            records["phase"].append(state.phase[here].copy())
            records["phi"].append(features(core, state, here, side))
            records["action"].append(actions[here].copy())
            records["game"].append(here)
        core.step_in_place(state, actions, active=~done)
    else:
        raise RuntimeError(f"{games} games seeded {seed} did not end within {MAX_STEPS} steps")
    won = np.asarray(core.rewards(state))[:, side] > 0
    if not records["phase"]:
        return int(won.sum()), None
    out = {k: np.concatenate(v) for k, v in records.items()}
    out["result"] = won[out["game"]].astype(np.float64)
    return int(won.sum()), out


def fit(data: dict[str, np.ndarray], phase_ids: list[int], ridge: float) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """Ridge regression of the result on phi, per phase and option taken (MIN_TAKEN times at least)."""
    fitted = {}
    for p in phase_ids:
        in_phase = data["phase"] == p
        options, weights = [], []
        for a in np.unique(data["action"][in_phase]):
            rows = in_phase & (data["action"] == a)
            if rows.sum() < MIN_TAKEN:
                continue
            x, z = data["phi"][rows], data["result"][rows]
            weights.append(np.linalg.solve(x.T @ x + ridge * np.eye(x.shape[1]), x.T @ z))
            options.append(a)
        if options:
            fitted[p] = (np.asarray(options, dtype=np.int64), np.stack(weights))
    return fitted


def improve(core, side: int, teacher, opponent, cfg: dict[str, Any], seed: int = 0,
            progress: bool = False) -> tuple[ChoiceAgent, dict[str, Any]]:
    """The teacher with its ``cfg["phases"]`` decisions learned (see the module docstring); and
    what happened, for run.json."""
    started = time.perf_counter()
    names = tuple(core.phase_names)
    improve_config(cfg, names, f"{core.name} core")  # the config may have named another ruleset's phases
    phase_ids = [names.index(name) for name in cfg["phases"]]
    rng = np.random.default_rng(seed)
    for agent in (teacher, opponent):
        reset_agent(agent, seed)
    best, best_round = ChoiceAgent(teacher, side, {}), 0
    best_wins, _ = play(core, side, best, opponent, cfg["eval_games"], EVAL_SEED)
    rounds = [{"round": 0, "validation_win_rate": best_wins / cfg["eval_games"]}]
    if progress:
        print(f"choices: the teacher wins {best_wins / cfg['eval_games']:.1%} of {cfg['eval_games']} validation games",
              flush=True)
    policy, data = best, None
    for r in range(1, cfg["rounds"] + 1):
        began = time.perf_counter()
        wins, new = play(core, side, policy, opponent, cfg["games"], ROUND_SEED + seed + r, cfg["epsilon"], rng,
                         phase_ids)
        if new is None:
            raise ValueError(f"pretrain.improve: the side never decided in phases {cfg['phases']} in {cfg['games']} games")
        data = new if data is None else {k: np.concatenate([data[k], new[k]]) for k in data}
        policy = ChoiceAgent(teacher, side, fit(data, phase_ids, float(cfg["ridge"])), float(cfg["weight"]))
        val_wins, _ = play(core, side, policy, opponent, cfg["eval_games"], EVAL_SEED)
        rounds.append({"round": r, "games": cfg["games"], "behaviour_win_rate": wins / cfg["games"],
                       "decisions": int(len(new["action"])), "validation_win_rate": val_wins / cfg["eval_games"],
                       "seconds": round(time.perf_counter() - began, 1)})
        if progress:
            print(f"choices round {r}: {len(new['action'])} decisions in {cfg['games']} games (won {wins / cfg['games']:.1%} "
                  f"exploring); the learned choices win {val_wins / cfg['eval_games']:.1%} of the validation games",
                  flush=True)
        if val_wins > best_wins:
            best, best_wins, best_round = policy, val_wins, r
    return best, {"phases": cfg["phases"], "rounds": rounds, "chosen_round": best_round, "choices": best.to_dict(),
                  "seconds": round(time.perf_counter() - started, 1)}
