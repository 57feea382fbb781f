"""The Agent protocol and how agents are named.

An agent picks one action for every game of a batch::

    agent.act(core, state, player) -> int64[B]

The envs only use the actions of games whose current player is ``player``; the others may be
anything in ``[0, num_actions)``.  An agent may also define ``reset(seed)``; the envs call it when
they are reset with a seed, so seeded episodes are reproducible.

Agent specs (``make_agent``)::

    "random"          uniform over the legal actions (RandomAgent)
    "rule"            the ruleset's registered rule-based baseline for that side
    "rule:<name>"     another registered baseline (wargym.agents.baselines)
    "sb3:<path>"      a saved MaskablePPO policy (SB3Agent; needs the [train] extra)
    "onnx:<path>"     an exported ONNX policy (OnnxAgent: numpy + onnxruntime, no torch)
    an Agent object   used as is
    a callable        (core, state, player) -> int64[B], wrapped as an Agent
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Protocol, runtime_checkable

import numpy as np

from wargym.core import BaseState, Core

Policy = Callable[[Core, BaseState, int], np.ndarray]


@runtime_checkable
class Agent(Protocol):
    def act(self, core: Core, state: BaseState, player: int) -> np.ndarray:
        """int64[B]: an action for every game (used where ``player`` is to decide)."""
        ...


class FunctionAgent:
    """An Agent around a plain function ``(core, state, player) -> int64[B]``."""

    def __init__(self, policy: Policy):
        self.policy = policy

    def act(self, core: Core, state: BaseState, player: int) -> np.ndarray:
        return np.asarray(self.policy(core, state, player), dtype=np.int64)

    def __repr__(self) -> str:
        return f"FunctionAgent({getattr(self.policy, '__name__', self.policy)!r})"


class PhaseAgent:
    """``agent`` deciding in the named decision phases (``core.phase_names``), ``delegate`` in all
    the others: how a policy trained with the env's ``phases`` option (wargym.envs.single) plays
    a whole game."""

    def __init__(self, agent: Agent, delegate: Agent, phases: tuple[str, ...] | list[str]):
        self.agent, self.delegate, self.phases = agent, delegate, tuple(phases)

    def reset(self, seed: int | None) -> None:
        reset_agent(self.agent, seed)
        reset_agent(self.delegate, seed)

    def act(self, core: Core, state: BaseState, player: int) -> np.ndarray:
        names = tuple(core.phase_names)
        missing = [name for name in self.phases if name not in names]
        if missing:
            raise ValueError(f"PhaseAgent: {core.name} has no phases {missing}; its phases: {list(names)}")
        mine = np.flatnonzero(np.isin(np.asarray(state.phase), [names.index(name) for name in self.phases]))
        actions = np.asarray(self.delegate.act(core, state, player), dtype=np.int64).copy()
        if mine.size:  # the agent sees only the games in its phases
            actions[mine] = np.asarray(self.agent.act(core, state.take(mine), player), dtype=np.int64)
        return actions

    def __repr__(self) -> str:
        return f"PhaseAgent({self.agent!r} in {list(self.phases)}, else {self.delegate!r})"


def split_agent(policy: Policy, record: dict[str, Any] | None) -> PhaseAgent | None:
    """``policy`` deciding only in the phases ``record`` names (a training run's config or an
    export's sidecar: its "phases", "delegate", "ruleset" and "side"), its delegate in the others;
    None when the record names no phases (the policy makes every decision)."""
    if not record or not record.get("phases"):
        return None
    delegate = make_agent(record.get("delegate") or "rule", record["ruleset"], record["side"])
    return PhaseAgent(FunctionAgent(policy), delegate, record["phases"])


def training_run(checkpoint: str | Path) -> dict[str, Any] | None:
    """The config of the ``wargym train`` run a checkpoint belongs to (its run.json sits beside
    final.zip and one folder above checkpoints/model_*.zip), or None without one."""
    checkpoint = Path(checkpoint)
    for folder in (checkpoint.parent, checkpoint.parent.parent):
        record = folder / "run.json"
        if record.is_file():
            return json.loads(record.read_text()).get("config") or {}
    return None


def reset_agent(agent: Any, seed: int | None) -> None:
    """Call the agent's optional ``reset(seed)`` hook."""
    reset = getattr(agent, "reset", None)
    if callable(reset):
        reset(seed)


def make_agent(spec: str | Agent | Policy, ruleset: str, side: str, seed: int | None = None) -> Agent:
    """The agent named by ``spec`` playing ``side`` (a player name) of ``ruleset``."""
    if isinstance(spec, Agent):
        return spec
    if callable(spec):
        return FunctionAgent(spec)
    if not isinstance(spec, str):
        raise TypeError(f"agent spec must be a string, an Agent or a callable, got {type(spec).__name__}")
    kind, _, arg = spec.partition(":")
    if kind == "random" and not arg:
        from wargym.agents.random_agent import RandomAgent

        return RandomAgent(seed)
    if kind == "rule":
        from wargym.agents import baselines

        return baselines.get(ruleset, side, arg or "rule")
    if kind == "sb3" and arg:
        from wargym.agents.sb3_agent import SB3Agent

        return SB3Agent(arg)
    if kind == "onnx" and arg:
        from wargym.agents.onnx_agent import OnnxAgent

        return OnnxAgent(arg)
    raise ValueError(f"unknown agent spec {spec!r}; use 'random', 'rule', 'rule:<name>', "
                     "'sb3:<path>', 'onnx:<path>', an Agent or a callable")
