"""``OnnxAgent``: plays a policy exported by ``wargym export`` (policy.onnx + policy.json).

    agent = OnnxAgent("policy.onnx")           # the sidecar policy.json is read from beside it
    actions = agent.act(core, state, player)    # int64[B], the policy's masked argmax per game

Needs numpy and onnxruntime only: no torch, no stable-baselines3 at play time.  A policy exported
with ``phases`` (the sidecar's "phases" and "delegate") decides only in those decision phases;
the delegate (the side's rule baseline, say) makes the side's other decisions, as in training.
Before its first decision on a core the agent checks that the core is the game the policy was
exported for (ruleset, scenario, the side it plays, decision mode, rule options, observation
shapes, number of actions) and raises ``PolicyMismatchError`` saying what differs.  Its
``settings`` (ruleset, side, scenario, decisions, options, phases, delegate; also ``side`` and
``decisions`` as attributes) are what the commands build the game from (wargym.agents.base
``game_settings``), so ``wargym eval --a onnx:policy.onnx`` needs no other option.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np


class PolicyMismatchError(ValueError):
    """An exported policy asked to play a game it was not exported for."""


def read_sidecar(path: str | Path) -> tuple[Path, dict[str, Any], Path]:
    """(the ONNX file, its sidecar's record, the sidecar's path) of ``path`` (policy.onnx, or a
    folder holding one); FileNotFoundError / ValueError naming the file that is missing or wrong."""
    path = Path(path)
    if path.is_dir():
        path = path / "policy.onnx"
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such ONNX policy")
    meta_path = path.with_suffix(".json")
    if not meta_path.is_file():
        raise FileNotFoundError(f"{meta_path}: the policy's sidecar is missing (wargym export writes it "
                                f"beside {path.name})")
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise ValueError(f"{meta_path}: not a policy sidecar (invalid JSON: {err})") from None
    if not isinstance(meta, dict):
        raise ValueError(f"{meta_path}: not a policy sidecar (a JSON object is expected)")
    for key in ("ruleset", "side", "observation", "action"):
        if key not in meta:
            raise ValueError(f"{meta_path}: not a policy sidecar (no {key!r})")
    return path, meta, meta_path


class OnnxAgent:
    """An Agent around an exported policy; deterministic (the argmax of the masked logits)."""

    def __init__(self, path: str | Path, threads: int | None = None):
        import onnxruntime as ort

        from wargym.agents.base import sidecar_settings

        path, self.meta, meta_path = read_sidecar(path)
        self.path = path
        self.settings: dict[str, Any] = sidecar_settings(self.meta, meta_path)
        options = ort.SessionOptions()
        if threads is not None:
            options.intra_op_num_threads = threads
        self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        inputs = {i.name: i.type for i in self.session.get_inputs()}
        missing = {"spatial", "global", "action_mask"} - set(inputs)
        if missing:
            raise ValueError(f"{path}: the graph lacks the input(s) {sorted(missing)}")
        self._mask_dtype = np.uint8 if inputs["action_mask"] == "tensor(uint8)" else np.bool_
        self._checked: dict[tuple[int, int], Any] = {}  # (id, player) -> core (kept alive: ids stay unique)
        from wargym.agents.base import split_agent

        self._phased = split_agent(self.policy_act, self.meta)  # the sidecar's phases and delegate, if any

    @property
    def ruleset(self) -> str:
        return self.meta["ruleset"]

    @property
    def side(self) -> str:
        return self.meta["side"]

    @property
    def decisions(self) -> str | None:
        return self.meta.get("decisions")

    @property
    def scenario(self) -> str | None:
        return self.meta.get("scenario")

    def check_core(self, core, player: int) -> None:
        """PolicyMismatchError unless ``core`` / ``player`` is the game and side of the export."""
        from wargym.agents.base import settings_mismatch

        meta, where = self.meta, self.path.name
        problem = settings_mismatch(self.settings, core, player, where, made="exported")
        if problem:
            raise PolicyMismatchError(problem)
        want = {k: [int(d) for d in v] for k, v in core.observation_shapes.items()}
        have = {k: meta["observation"][k]["shape"] for k in ("spatial", "global")}
        if want != have:
            raise PolicyMismatchError(f"{where} observes {have}, this {core.name} game observes {want}")
        if int(meta["action"]["num_actions"]) != int(core.num_actions):
            raise PolicyMismatchError(f"{where} has {meta['action']['num_actions']} actions, this "
                                      f"{core.name} game has {core.num_actions}")

    def reset(self, seed: int | None) -> None:
        """The policy is deterministic; a delegate may have a seed."""
        if self._phased is not None:
            self._phased.reset(seed)

    def logits(self, core, state, player: int) -> tuple[np.ndarray, np.ndarray]:
        """(masked logits float32[B, A], actions int64[B]) of ``player`` in every game."""
        if (id(core), player) not in self._checked:
            self.check_core(core, player)
            self._checked[(id(core), player)] = core
        obs = core.observe(state, player)
        feed = {"spatial": np.ascontiguousarray(obs["spatial"], dtype=np.float32),
                "global": np.ascontiguousarray(obs["global"], dtype=np.float32),
                "action_mask": np.ascontiguousarray(core.legal_mask(state), dtype=self._mask_dtype)}
        logits, actions = self.session.run(["logits", "action"], feed)
        return logits, np.asarray(actions, dtype=np.int64)

    def policy_act(self, core, state, player: int) -> np.ndarray:
        """The network's own action in every game (whatever its phase)."""
        return self.logits(core, state, player)[1]

    def act(self, core, state, player: int) -> np.ndarray:
        if self._phased is not None:
            return self._phased.act(core, state, player)
        return self.policy_act(core, state, player)

    def __repr__(self) -> str:
        return f"OnnxAgent({str(self.path)!r}, {self.ruleset}/{self.side})"
