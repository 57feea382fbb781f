"""AttuCore: B games of War in the Wind: The Battle for Attu Island stepped at once.

    core = AttuCore("campaign")              # campaign_free, hogs_back, holtz_bay_jarmin_pass, linkup
    state = core.init(batch_size=64, seed=0)
    state = core.step(state, actions)         # int[B], each legal in core.legal_mask(state)

Players are ("us", "japan").  Options: ``decisions`` ("full": every choice to the agents; "major":
the minor ones by defaults.py), ``vp_chits`` (14.0 victory point chits), ``heroes`` (11.0, where the
scenario allows them), ``solitaire`` (13.0: the book's solitaire rules; the Japanese side is then
played by the section 13 baseline in the envs).  The rules are numba functions of one game that
the shared driver (wargym.kernel) runs over the batch; with ``threads`` > 1 the batch's games are
shared among threads.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from wargym.attu import actions as act, determinize, invariants
from wargym.attu.events import KINDS as EVENT_KINDS, PURPOSES as EVENT_PURPOSES, RESULTS as EVENT_RESULTS
from wargym.attu.fog import HIDDEN
from wargym.attu.movement import goal_distances
from wargym.attu.observe import N_GLOBAL, N_PLANES, N_STATIC, observe_batch, static_planes
from wargym.attu.scenario import (
    JAPAN, LZ_LETTERS, SIDES, TURN_0_DATE, UNIT_TYPES, WEATHERS, Scenario, list_scenarios, load_scenario,
)
from wargym.attu.sequence import DRIVER
from wargym.attu.setup import MAX_WAIT_TURN
from wargym.attu.state import ACT_ORDER, LOC_MAP, LOC_NAMES, PHASE_NAMES, State, StateArg, TablesArg, make_tables
from wargym.attu.victory import standing_batch
from wargym.core import DECISION_MODES, SystemPlay
from wargym.kernel import KernelCore


class AttuCore(KernelCore):
    name = "attu"
    state_class = State
    phase_names = PHASE_NAMES
    observation_bounds = {"spatial": (0.0, 4.0), "global": (-2.0, 4.0)}
    #: 13.0: the solitaire rules play the Japanese (core option solitaire=True); what they leave
    #: to the Japanese player is decided by the section-13 baseline
    system_play = SystemPlay(("japan",), option="solitaire", agent="rule:solitaire")
    hidden = HIDDEN  # 2.5, 12.1, 14.0 (fog.py)
    driver, state_arg, tables_arg = DRIVER, StateArg, TablesArg

    def __init__(self, scenario: str | Scenario = "campaign", decisions: str = "full", vp_chits: bool = False,
                 heroes: bool = True, solitaire: bool = False, max_decisions: int = 30_000, threads: int = 1,
                 every_decision: bool = False):
        if decisions not in DECISION_MODES:
            raise ValueError(f"decisions must be one of {DECISION_MODES}, got {decisions!r}")
        self.every_decision = bool(every_decision)
        self.scenario = scenario if isinstance(scenario, Scenario) else load_scenario(str(scenario))
        self.decisions = decisions
        self.options = {"vp_chits": bool(vp_chits), "heroes": bool(heroes), "solitaire": bool(solitaire)}
        self.players = SIDES
        self.num_actions = act.num_actions(self.scenario.num_hexes)
        self.setup_kernels(make_tables(self.scenario, decisions == "major", vp_chits, heroes, solitaire,
                                       max_decisions), threads)
        self._static = static_planes(self.scenario)
        self.goals = np.stack([goal_distances(self.tables, side) for side in range(len(SIDES))])

    @classmethod
    def scenario_names(cls) -> list[str]:
        return list_scenarios()

    @classmethod
    def load_scenario(cls, name: str) -> Scenario:
        return load_scenario(name)

    # -- protocol --------------------------------------------------------------------------------
    def _dims(self) -> dict[str, int]:
        """Units, hexes, steps, and the limits of the tracks: the last turn the game can reach (the
        last turn, 12.1: the latest Komandorski effect and delay, else the scenario's end date, at
        whose end 3.8.3 ends the game; or a landing that waited to May 23, 12.6, README), the
        Airpower Table's most factors (3.4), the Casualty Track's last box (8.4) and the Japanese
        counters (2.5)."""
        sc = self.scenario
        last = (int(sc.effect_chits.max()) - TURN_0_DATE + int(sc.delay_chits.max()) - 1
                if sc.spec.end == "komandorski" else sc.spec.end_date - TURN_0_DATE)
        return {"U": sc.num_units, "H": sc.num_hexes, "STEPS": int(sc.unit_steps.max()),
                "TURNS": max(last, MAX_WAIT_TURN),
                "AIR": int(sc.airpower.max()), "CASUALTIES": int(sc.casualty_max),
                "JP": int((sc.unit_side == JAPAN).sum())}

    def _observe(self, state: State, player: int) -> dict[str, np.ndarray]:
        g = self.scenario.grid
        b = state.batch_size
        spatial = np.zeros((b, N_PLANES, g.rows, g.columns), dtype=np.float32)
        spatial[:, :N_STATIC] = self._static
        glob = np.zeros((b, N_GLOBAL), dtype=np.float32)
        self.run_chunks(observe_batch, state, player, g.plane_row, g.plane_col, self.goals, spatial, glob)
        return {"spatial": spatial, "global": glob}

    def special_hexes(self) -> np.ndarray:
        """int64[specials]: the hex a special action stands for (a landing zone's choice: the
        zone's hex), -1 for the others; for hex-pointer policies (agents/policy.py)."""
        out = np.full(act.NUM_SPECIALS, -1, dtype=np.int64)
        out[act.LZ_0:act.LZ_0 + 9] = self.scenario.lz_hex
        return out

    def score(self, state: State) -> np.ndarray:
        """float32[B, 2]: the U.S. standing (victory.standing_batch: Victory Hexes held, Japanese
        counters taken off the map, the Casualty Track) and its negative for Japan; for reward
        shaping."""
        m = np.zeros(state.batch_size, dtype=np.float64)
        standing_batch(self.tables, self.kernel_state(state), m)
        return np.stack([m, -m], axis=1).astype(np.float32)

    @property
    def observation_shapes(self) -> dict[str, tuple[int, ...]]:
        g = self.scenario.grid
        return {"spatial": (N_PLANES, g.rows, g.columns), "global": (N_GLOBAL,)}

    def check_state(self, state: State) -> list[str]:
        return invariants.check(self, state)

    # -- hidden information (fog.py) ---------------------------------------------------------------
    def _complete_sample(self, state: State, viewer: int, rng: np.random.Generator) -> State:
        """The U.S.'s determinizations: the counters it cannot tell apart dealt again by what the
        rules and its memory make certain, uniformly among the rest (determinize.py; README "What
        the U.S. remembers")."""
        return determinize.complete(self, state, viewer, rng)

    # -- readable descriptions -------------------------------------------------------------------
    codes = {"unit_loc": {name: k for k, name in enumerate(LOC_NAMES)},
             "weather": {name: k for k, name in enumerate(WEATHERS)}}

    def item_names(self) -> dict[str, list[str]]:
        return {"U": list(self.scenario.unit_names)}

    # -- the event log (wargym.events; Attu's kinds in events.py) ----------------------------------
    event_kinds = EVENT_KINDS
    event_purposes = EVENT_PURPOSES
    event_results = EVENT_RESULTS

    def event_unit(self, u: int) -> str:
        return self.unit_label(u)

    def event_value(self, typ: str, value: int) -> str:
        """Attu's own argument types: the weather (3.3), a Landing Zone's letter (9.2.2) and a die
        roll modifier (8.3, signed)."""
        if typ == "weather":
            return WEATHERS[value]
        if typ == "lz":
            return LZ_LETTERS[value]
        if typ == "modifier":
            return f"{value:+d}"
        return super().event_value(typ, value)

    def unit_label(self, u: int) -> str:
        sc = self.scenario
        return f"{SIDES[sc.unit_side[u]].upper()} {sc.unit_names[u]}"

    def units_at(self, state: State, game: int, h: int) -> list[int]:
        return [int(u) for u in np.nonzero((state.unit_loc[game] == LOC_MAP) & (state.unit_hex[game] == h))[0]]

    def _describe(self, action: int, state: State | None, game: int, viewer: int | None) -> str:
        sc = self.scenario
        H = sc.num_hexes
        action = int(action)
        if not 0 <= action < self.num_actions:
            return f"action {action} (outside [0, {self.num_actions}))"
        if action >= H:
            k = action - H
            text = act.special_name(k)
            if act.REINF_0 <= k < act.REINF_0 + act.MAX_BATTALIONS and k - act.REINF_0 < len(sc.battalion_names):
                text = f"reinforcement from {sc.battalion_names[k - act.REINF_0]}"
            return text
        where = sc.hex_label(action)
        if state is None:
            return f"hex {where}"
        phase = PHASE_NAMES[int(state.phase[game])]
        return f"{phase}: hex {where}"

    def _why_illegal(self, state: State, game: int, viewer: int | None) -> str:
        """The shared reason, led by the solitaire rule that narrows the orders of the unit being
        ordered, where one does (its flags are public, fog.py): 13.2.1's Unknown on its Victory
        Hex, which may not move, and 13.2.2's ad hoc Infantry, which only fire."""
        why = super()._why_illegal(state, game, viewer)
        u = int(state.selected[game])
        if (state.terminated[game] or state.truncated[game] or int(state.phase[game]) != ACT_ORDER or u < 0
                or viewer not in (None, int(state.current_player[game]))):
            return why
        if state.ad_hoc[game, u]:
            return (f"{self.unit_label(u)} was placed ad hoc (13.2.2): until a Melee is fought in its hex it "
                    f"only fires at the nearest U.S. units it may fire at (8.1), or holds; {why}")
        if state.pinned[game, u]:
            return f"{self.unit_label(u)} was placed on its Victory Hex (13.2.1) and may not move; {why}"
        return why

    def summary(self, state: State, game: int = 0, viewer: int | None = None) -> dict[str, Any]:
        """Plain facts of one game for logs, the CLI and the bot protocol; with ``viewer``, as that
        player may know them (2.5, 12.1, 14.0: ``view``)."""
        from wargym.attu.render import date
        state, game = self.viewed(state, game, viewer)
        sc = self.scenario
        loc = state.unit_loc[game]
        return {
            "scenario": sc.name, "turn": int(state.turn[game]), "date": date(int(state.turn[game])),
            "phase": PHASE_NAMES[int(state.phase[game])], "weather": WEATHERS[int(state.weather[game])],
            "decisions": int(state.decisions[game]), "casualty_track": int(state.casualties[game]),
            "units": {s: {LOC_NAMES[k]: int(((loc == k) & (sc.unit_side == i)).sum()) for k in range(len(LOC_NAMES))}
                      for i, s in enumerate(SIDES)},
            "victory_hexes": {sc.hex_label(int(h)): self._holder(state, game, int(h)) for h in sc.victory_hex},
            "terminated": bool(state.terminated[game]), "truncated": bool(state.truncated[game]),
            "rewards": dict(zip(SIDES, state.rewards[game].tolist())),
        }

    def _holder(self, state: State, game: int, h: int) -> str | None:
        us = self.units_at(state, game, h)
        if not us:
            return None
        u = us[0]
        side = 1 if state.captured[game, u] else int(self.scenario.unit_side[u])
        return SIDES[side]

    def unit_type_name(self, u: int) -> str:
        return UNIT_TYPES[int(self.scenario.unit_type[u])]

    # -- rendering ---------------------------------------------------------------------------------
    def _render_ansi(self, state: State, game: int, viewer: int | None) -> str:
        from wargym.attu.render import render_ansi
        return render_ansi(self, state, game, viewer)

    def _render_rgb(self, state: State, game: int, viewer: int | None) -> np.ndarray:
        from wargym.attu.render import render_rgb
        return render_rgb(self, state, game, viewer)
