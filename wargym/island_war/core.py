"""IslandWarCore: B games of the Island War standard rules stepped at once.

    core = IslandWarCore("saipan")            # or bloody_ridge, or a path to a scenario file
    state = core.init(batch_size=64, seed=0)
    state = core.step(state, actions)          # int[B], each legal in core.legal_mask(state)

Players are ("us", "japan").  ``decisions="full"`` (default) gives every choice the book gives a
player to that player's agent; ``decisions="major"`` lets the default rules of defaults.py take the
minor ones (FPF, retreat routes, advances), as the book's "system AI" does.  The rule kernels are
numba-compiled per-game functions looped over the batch in compiled code (sequence.step_batch).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np

from wargym.core import BaseCore, RenderMixin, check_threads, step_kernel
from wargym.island_war import actions as act
from wargym.island_war.observe import N_GLOBAL, num_planes, observe, static_planes
from wargym.island_war.scenario import RESULTS, SIDES, Scenario, load_scenario
from wargym.island_war.sequence import start_batch, step_batch
from wargym.island_war.state import PHASE_NAMES, State, as_arrays, blank_state, make_tables
from wargym.island_war.victory import margins

DECISION_MODES = ("full", "major")


class IslandWarCore(RenderMixin, BaseCore):
    name = "island_war"
    state_class = State
    phase_names = PHASE_NAMES  # state.phase indexes these
    observation_bounds = {"spatial": (0.0, 2.0), "global": (-10.0, 10.0)}

    def __init__(self, scenario: str | Path | Scenario = "saipan", decisions: str = "full",
                 max_decisions: int = 20_000, threads: int = 1):
        if decisions not in DECISION_MODES:
            raise ValueError(f"decisions must be one of {DECISION_MODES}, got {decisions!r}")
        # games of a batch are shared among this many threads; 1 by default because extra threads
        # only pay on an otherwise idle machine (measured: 2 threads 158k vs 1 thread 100k decisions/s
        # idle, but several times slower than 1 thread when the cores are busy, e.g. training)
        self.threads = check_threads(threads)
        self.scenario = scenario if isinstance(scenario, Scenario) else load_scenario(str(scenario))
        self.decisions = decisions
        self.players = SIDES
        self.num_actions = act.num_actions(self.scenario.num_hexes)
        self.tables = make_tables(self.scenario, decisions == "major", max_decisions)
        self.num_terrains = len(self.scenario.terrain_names)
        self.static_planes = static_planes(self.scenario, self.num_terrains)

    # -- protocol --------------------------------------------------------------------------------
    def record_header(self) -> dict[str, Any]:
        return {**super().record_header(), "scenario": self.scenario.name}

    def _init(self, keys: np.ndarray) -> State:
        state = blank_state(self.scenario, keys, self.num_actions)
        start_batch(self.tables, as_arrays(state))
        return state

    def _step(self, state: State, actions: np.ndarray) -> State:
        new = state.copy()
        self.step_in_place(new, actions)
        return new

    def step_in_place(self, state: State, actions: np.ndarray) -> None:
        """The rules kernel alone: ``state`` advanced in place by checked ``actions``."""
        step_kernel(step_batch, self.tables, as_arrays(state), actions, self.threads)

    def _observe(self, state: State, player: int) -> dict[str, np.ndarray]:
        obs = observe(self.tables, as_arrays(state), player, self.scenario, self.static_planes)
        for key, (low, high) in self.observation_bounds.items():
            np.clip(obs[key], low, high, out=obs[key])
        return obs

    def score(self, state: State) -> np.ndarray:
        """float32[B, 2]: the victory margin (victory.margin, US points - Japanese points) as the
        US sees it, and its negative for Japan."""
        m = margins(self.tables, as_arrays(state))
        return np.stack([m, -m], axis=1).astype(np.float32)

    @property
    def observation_shapes(self) -> dict[str, tuple[int, ...]]:
        g = self.scenario.grid
        return {"spatial": (num_planes(self.num_terrains), g.rows, g.columns), "global": (N_GLOBAL,)}

    # -- readable descriptions -------------------------------------------------------------------
    def unit_at(self, state: State, game: int, hex_index: int) -> int:
        on = (state.unit_status[game] == 1) & (state.unit_hex[game] == hex_index)
        hits = np.nonzero(on)[0]
        return int(hits[0]) if len(hits) else -1

    def unit_label(self, u: int) -> str:
        sc = self.scenario
        return f"{SIDES[sc.unit_side[u]].upper()} {sc.unit_names[u]}"

    def describe_action(self, action: int, state: State | None = None, game: int = 0) -> str:
        sc = self.scenario
        h = sc.num_hexes
        action = int(action)
        if not 0 <= action < self.num_actions:
            return f"action {action} (outside [0, {self.num_actions}))"
        if action >= h:
            k = action - h
            text = act.special_name(k)
            if state is not None and k >= act.REINF_0:
                from wargym.island_war.sequence import kth_reinforcement
                u = kth_reinforcement(self.tables, as_arrays(state), game, k - act.REINF_0)
                if u >= 0:
                    text += f" ({self.unit_label(u)})"
            return text
        where = sc.grid.label(action)
        if sc.hex_names.get(action):
            where += f" {sc.hex_names[action]}"
        if state is None:
            return f"hex {where}"
        phase = int(state.phase[game])
        u = self.unit_at(state, game, action)
        unit = f" ({self.unit_label(u)})" if u >= 0 else ""
        verbs = {0: "select", 1: "move to", 2: "attack", 3: "add to attack", 4: "FPF from", 5: "retreat to",
                 6: "advance with", 7: "advance to", 9: "displace the friend to"}
        return f"{verbs.get(phase, 'hex')} {where}{unit}"

    def why_illegal(self, state: State, game: int, action: int) -> str:
        if state.terminated[game] or state.truncated[game]:
            return "the game is over"
        phase = PHASE_NAMES[int(state.phase[game])]
        legal = np.nonzero(state.legal_action_mask[game])[0]
        sample = ", ".join(self.describe_action(a, state, game) for a in legal[:6])
        more = f" (+{len(legal) - 6} more)" if len(legal) > 6 else ""
        return f"not allowed in phase '{phase}' for {SIDES[int(state.current_player[game])]}; legal: {sample}{more}"

    def summary(self, state: State, game: int = 0) -> dict[str, Any]:
        """Plain facts of one game for logs and the CLI."""
        sc = self.scenario
        alive = state.unit_status[game] == 1
        res = int(state.last_result[game])
        return {
            "scenario": sc.name, "turn": int(state.turn[game]), "phase": PHASE_NAMES[int(state.phase[game])],
            "phasing": SIDES[int(state.phasing[game])], "decisions": int(state.decisions[game]),
            "units_on_map": {s: int((alive & (sc.unit_side == i)).sum()) for i, s in enumerate(SIDES)},
            "eliminated": {s: int(((state.unit_status[game] == 2) & (sc.unit_side == i)).sum())
                           for i, s in enumerate(SIDES)},
            "objectives": {n: (SIDES[o] if o >= 0 else None)
                           for n, o in zip(sc.objective_names, state.objective_owner[game].tolist())},
            "margin": int(self.score(state.take([game]))[0, 0]),
            "last_result": RESULTS[res] if res >= 0 else None,
            "terminated": bool(state.terminated[game]), "truncated": bool(state.truncated[game]),
            "rewards": dict(zip(SIDES, state.rewards[game].tolist())),
        }

    # -- rendering (wargym.island_war.render) ------------------------------------------------------
    def _render_ansi(self, state: State, game: int, viewer: int | None) -> str:
        from wargym.island_war.render import render_ansi
        return render_ansi(self, state, game, viewer)

    def _render_rgb(self, state: State, game: int, viewer: int | None) -> np.ndarray:
        from wargym.island_war.render import render_rgb
        return render_rgb(self, state, game, viewer)

    def with_die(self, state: State, die: int, games=None) -> State:
        """A copy of ``state`` whose next combat die roll is ``die`` (tests replay worked examples)."""
        nd = state.next_die.copy()
        nd[slice(None) if games is None else games] = die
        return dataclasses.replace(state, next_die=nd)
