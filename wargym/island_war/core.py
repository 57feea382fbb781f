"""IslandWarCore: B games of the Island War standard rules stepped at once.

    core = IslandWarCore("saipan")            # or bloody_ridge, or a path to a scenario file
    state = core.init(batch_size=64, seed=0)
    state = core.step(state, actions)          # int[B], each legal in core.legal_mask(state)

Players are ("us", "japan").  ``decisions="full"`` (default) gives every choice the book gives a
player to that player's agent; ``decisions="major"`` lets the default rules of defaults.py take the
minor ones (FPF, retreat routes, advances), as the book's "system AI" does.  The rules are numba
functions of one game that the shared driver (wargym.kernel) runs over the batch; with ``threads``
> 1 the batch's games are shared among threads.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from wargym.core import DECISION_MODES
from wargym.island_war import actions as act, invariants
from wargym.island_war.observe import N_FIXED_PLANES, N_GLOBAL, encode, num_planes, static_planes
from wargym.island_war.scenario import RESULTS, SIDES, Scenario, list_scenarios, load_scenario
from wargym.island_war.sequence import DRIVER
from wargym.island_war.events import KINDS as EVENT_KINDS
from wargym.island_war.scenario import RESULTS
from wargym.island_war.state import ELIMINATED, ON_MAP, PHASE_NAMES, WAITING, State, StateArg, TablesArg, make_tables
from wargym.island_war.victory import margins
from wargym.kernel import KernelCore


class IslandWarCore(KernelCore):
    name = "island_war"
    state_class = State
    phase_names = PHASE_NAMES
    observation_bounds = {"spatial": (0.0, 2.0), "global": (-10.0, 10.0)}
    driver, state_arg, tables_arg = DRIVER, StateArg, TablesArg

    def __init__(self, scenario: str | Path | Scenario = "saipan", decisions: str = "full",
                 max_decisions: int = 20_000, threads: int = 1, every_decision: bool = False):
        if decisions not in DECISION_MODES:
            raise ValueError(f"decisions must be one of {DECISION_MODES}, got {decisions!r}")
        self.every_decision = bool(every_decision)
        self.scenario = scenario if isinstance(scenario, Scenario) else load_scenario(str(scenario))
        self.decisions = decisions
        self.options = {}
        self.players = SIDES
        self.num_actions = act.num_actions(self.scenario.num_hexes)
        self.setup_kernels(make_tables(self.scenario, decisions == "major", max_decisions), threads)
        self.num_terrains = len(self.scenario.terrain_names)
        self.static_planes = static_planes(self.scenario, self.num_terrains)
        grid = self.scenario.grid
        self._plane_rc = (grid.plane_row.astype(np.int64), grid.plane_col.astype(np.int64))

    @classmethod
    def scenario_names(cls) -> list[str]:
        return list_scenarios()

    @classmethod
    def load_scenario(cls, name: str) -> Scenario:
        return load_scenario(name)

    # -- protocol --------------------------------------------------------------------------------
    def _dims(self) -> dict[str, int]:
        """Units, hexes, objectives, and the limits of the tracks: the scenario's Game-Turns (4.0),
        two Combat Phases each (4.1), the most Ground Support Points of a Game-Turn (9.14) and the
        Combat Results Table's columns and lines (7.4)."""
        sc = self.scenario
        return {"U": sc.num_units, "H": sc.num_hexes, "O": len(sc.objective_hex), "TURNS": sc.game_turns,
                "COMBAT_PHASES": 2 * sc.game_turns, "GS": int(sc.ground_support.max()),
                "CRT_LINES": sc.crt_table.shape[0], "CRT_COLUMNS": sc.crt_table.shape[1]}

    def _observe(self, state: State, player: int) -> dict[str, np.ndarray]:
        b, grid = state.batch_size, self.scenario.grid
        spatial = np.empty((b, self.static_planes.shape[0] + N_FIXED_PLANES - 4, grid.rows, grid.columns),
                           dtype=np.float32)
        glob = np.empty((b, N_GLOBAL), dtype=np.float32)
        self.run_chunks(encode, state, player, self.static_planes, *self._plane_rc, spatial, glob)
        return {"spatial": spatial, "global": glob}

    def score(self, state: State) -> np.ndarray:
        """float32[B, 2]: the victory margin (victory.margin, US points - Japanese points) as the
        US sees it, and its negative for Japan."""
        m = margins(self.tables, self.kernel_state(state))
        return np.stack([m, -m], axis=1).astype(np.float32)

    @property
    def observation_shapes(self) -> dict[str, tuple[int, ...]]:
        g = self.scenario.grid
        return {"spatial": (num_planes(self.num_terrains), g.rows, g.columns), "global": (N_GLOBAL,)}

    def check_state(self, state: State) -> list[str]:
        return invariants.check(self, state)

    # -- readable descriptions -------------------------------------------------------------------
    def unit_at(self, state: State, game: int, hex_index: int) -> int:
        on = (state.unit_status[game] == 1) & (state.unit_hex[game] == hex_index)
        hits = np.nonzero(on)[0]
        return int(hits[0]) if len(hits) else -1

    event_kinds = EVENT_KINDS
    event_results = RESULTS

    codes = {"unit_status": {"waiting": WAITING, "on map": ON_MAP, "eliminated": ELIMINATED},
             "last_result": {"none": -1, **{r: i for i, r in enumerate(RESULTS)}}}

    def item_names(self) -> dict[str, list[str]]:
        return {"U": list(self.scenario.unit_names)}

    def event_unit(self, u: int) -> str:
        return self.unit_label(u)

    def event_value(self, typ: str, value: int) -> str:
        sc = self.scenario
        return {"crt_column": sc.crt_column_labels, "crt_line": sc.crt_line_names}[typ][value]

    def unit_label(self, u: int) -> str:
        sc = self.scenario
        return f"{SIDES[sc.unit_side[u]].upper()} {sc.unit_names[u]}"

    def _describe(self, action: int, state: State | None, game: int, viewer: int | None) -> str:
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
                u = kth_reinforcement(self.tables, self.kernel_state(state), game, k - act.REINF_0)
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

    def summary(self, state: State, game: int = 0, viewer: int | None = None) -> dict[str, Any]:
        """Plain facts of one game for logs, the CLI and the bot protocol (2.3: nothing is hidden
        but the dice, so every viewer reads the same)."""
        state, game = self.viewed(state, game, viewer)
        sc = self.scenario
        alive = state.unit_status[game] == 1
        res = int(state.last_result[game])
        return {
            "scenario": sc.name, "turn": int(state.turn[game]), "game_turns": sc.game_turns, "phase": PHASE_NAMES[int(state.phase[game])],
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
