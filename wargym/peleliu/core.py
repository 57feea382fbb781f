"""PeleliuCore: B games of D-Day at Peleliu stepped at once; the book's cards play the Japanese.

    core = PeleliuCore("sept15")              # assault, bnr
    state = core.init(batch_size=64, seed=0)
    state = core.step(state, actions)          # int[B], each legal in core.legal_mask(state)
    state, log = core.step_logged(state, actions)   # the same, and what the rules did (eventlog.py)

The only player is the U.S. ("us"); the Japanese are the card system inside the core (SystemPlay
with no option: always on).  Options: ``decisions`` ("full": every choice the book leaves to the
player; "major": the minor ones by the defaults of sequence.is_minor), ``variable_letters`` (20.1),
``alt_armor`` (20.2), ``every_decision`` (stop at a decision with one legal action too: a position
laid out by hand waits there), and one option that is not a rule: ``advice`` puts the U.S. rule
baseline's choice at each decision into the observation (observe.py: plane 67, each unit's advice
entry, the advised special), for a policy that learns where to depart from it.  The rules are numba
functions of one game run by the shared driver.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from wargym import events
from wargym.core import DECISION_MODES, SystemPlay
from wargym.kernel import KernelCore
from wargym.peleliu import actions as act, eventlog
from wargym.peleliu.fog import HIDDEN
from wargym.peleliu.japanese import Q_HEX
from wargym.peleliu.observe import N_PLANES, N_SCALARS, N_UNIT, UNIT_PLANE, n_global, observe_batch, static_planes
from wargym.peleliu.scenario import BOXES, PLAYERS, Scenario, list_scenarios, load_scenario
from wargym.peleliu.sequence import DRIVER
from wargym.peleliu.invariants import loss_counters
from wargym.peleliu.state import (
    BNR_HEROES, DM_CUP, DM_OUT, DM_POOL, DM_UNIT, JP_LOC_NAMES, JP_MAP, JP_RESERVE, PHASE_NAMES, PILE_CC_JP,
    PILE_CC_US, PILE_DECK, PILE_DISCARD, PILE_TRACK, RESULTS, STAGE_NAMES, US_LOC_NAMES, State, StateArg, TablesArg,
    make_tables,
)
from wargym.peleliu.victory import standing_batch

SIDES = PLAYERS  # the player names (wargym scenarios)


class PeleliuCore(KernelCore):
    name = "peleliu"
    state_class = State
    phase_names = PHASE_NAMES
    observation_bounds = {"spatial": (0.0, 4.0), "global": (-4.0, 4.0)}
    #: 2.0 / 4.0: the cards play the Japanese; nothing is left for a Japanese player to decide
    system_play = SystemPlay(("japan",), option=None, agent=None)
    hidden = HIDDEN
    driver, state_arg, tables_arg = DRIVER, StateArg, TablesArg

    def __init__(self, scenario: str | Scenario = "sept15", decisions: str = "full", variable_letters: bool = False,
                 alt_armor: bool = False, advice: bool = False, max_decisions: int = 5_000, threads: int = 1,
                 every_decision: bool = False):
        if decisions not in DECISION_MODES:
            raise ValueError(f"decisions must be one of {DECISION_MODES}, got {decisions!r}")
        self.every_decision = bool(every_decision)
        self.scenario = scenario if isinstance(scenario, Scenario) else load_scenario(str(scenario))
        self.decisions = decisions
        self.options = {"variable_letters": bool(variable_letters), "alt_armor": bool(alt_armor),
                        "advice": bool(advice)}
        self.players = PLAYERS
        self.num_actions = act.num_actions(self.scenario.num_hexes)
        self.setup_kernels(make_tables(self.scenario, decisions == "major", variable_letters, alt_armor,
                                       max_decisions), threads)
        self.static = static_planes(self.scenario)

    def special_hex_inputs(self) -> np.ndarray:
        """int64[specials]: for unit u's action (UNIT_0 + u) the entry of the global observation that
        says where the unit is on the map (observe.UNIT_PLANE), -1 for the other special actions."""
        out = np.full(act.NUM_SPECIALS, -1, dtype=np.int64)
        units = np.arange(len(self.scenario.us_names))
        out[act.UNIT_0 + units] = N_SCALARS + units * N_UNIT + UNIT_PLANE
        return out

    @classmethod
    def scenario_names(cls) -> list[str]:
        return list_scenarios()

    @classmethod
    def load_scenario(cls, name: str) -> Scenario:
        return load_scenario(name)

    # -- protocol ------------------------------------------------------------------------------
    def _dims(self) -> dict[str, int]:
        """Units, markers, positions, hexes, cards, and the limits of the tracks: the scenario's last
        turn (15.0, 17.0, 18.4), the infantry counters that can reach the Infantry Loss Box (15.1: two
        per four-step regular or heavy infantry unit, one per two-step; 18.41: one per unit), the
        naval and Dauntless markers (8.5), the hero markers (10.17; 18.1: four) and a set of HQs
        (HQ_SET: a bit per U.S. unit, us_cmd_by and hq_moved, 7.1 and 7.34)."""
        sc = self.scenario
        return {"U": len(sc.us_names), "HQ_SET": (1 << len(sc.us_names)) - 1, "J": len(sc.jp_names),
                "D": len(sc.dm_kind), "POS": len(sc.pos_id),
                "H": sc.num_hexes, "C": len(sc.card_symbol), "CMD": len(sc.command_track),
                "JQ": Q_HEX + len(sc.pos_id),  # the Fire Phase queue's entries (japanese.py)
                "TURNS": sc.spec.last_turn, "LOSSES": int(loss_counters(sc).sum()), "NAVAL": sc.naval_max,
                "DAUNTLESS": sc.dauntless_max, "HEROES": BNR_HEROES if sc.spec.kind == "bnr" else len(sc.hero_names)}

    def _observe(self, state: State, player: int) -> dict[str, np.ndarray]:
        return observe_batch(self, state)

    @property
    def observation_shapes(self) -> dict[str, tuple[int, ...]]:
        g = self.scenario.grid
        return {"spatial": (N_PLANES, g.rows, g.columns), "global": (n_global(len(self.scenario.us_names)),)}

    def score(self, state: State) -> np.ndarray:
        """float32[B, 1]: the U.S. standing: positions secured and losses (victory.standing); in
        Bloody Nose Ridge the Japanese units eliminated (of the 16 set up, 18.1) less the infantry units
        lost over the catastrophic level, times 16 (18.4)."""
        if self.scenario.spec.kind == "bnr":
            sc = self.scenario
            units = ~sc.jp_fort
            alive = ((state.jp_loc == JP_MAP) | (state.jp_loc == JP_RESERVE)) & units[None, :]
            start = int((sc.jp_elite & ~sc.jp_tank & ~sc.jp_fort & (sc.jp_strength != 4)).sum())  # 18.1
            out = (start - alive.sum(1)) - start * state.loss_box / sc.bnr_catastrophic
            return out[:, None].astype(np.float32)
        out = np.zeros(state.batch_size, np.float64)
        standing_batch(self.tables, self.kernel_state(state), out)
        return out[:, None].astype(np.float32)

    def check_state(self, state: State) -> list[str]:
        from wargym.peleliu.invariants import check
        return check(self, state)

    def special_hexes(self) -> np.ndarray:
        return np.full(act.NUM_SPECIALS, -1, dtype=np.int64)

    # -- readable ------------------------------------------------------------------------------
    def _describe(self, action: int, state: State | None, game: int, viewer: int | None) -> str:
        sc = self.scenario
        H = sc.num_hexes
        action = int(action)
        if not 0 <= action < self.num_actions:
            return f"action {action} (outside [0, {self.num_actions}))"
        if action >= H:
            return act.special_name(action - H, sc.us_names, BOXES)
        where = f"hex {sc.hex_label(action)}"
        if state is None:
            return where
        return f"{PHASE_NAMES[int(state.phase[game])]}: {where}"

    codes = {"us_loc": {name: k for k, name in enumerate(US_LOC_NAMES)},
             "jp_loc": {name: k for k, name in enumerate(JP_LOC_NAMES)},
             "dm_loc": {"out of play": DM_OUT, "pool": DM_POOL, "under a unit": DM_UNIT, "cup": DM_CUP},
             "card_pile": {"deck": PILE_DECK, "discard": PILE_DISCARD, "track": PILE_TRACK,
                           "close combat U.S.": PILE_CC_US, "close combat Japanese": PILE_CC_JP},
             "result": {name: k for k, name in enumerate(RESULTS)},
             "stage": {name: k for k, name in enumerate(STAGE_NAMES)}}

    def item_names(self) -> dict[str, list[str]]:
        sc = self.scenario
        return {"U": list(sc.us_names), "J": list(sc.jp_names), "C": [f"card {c + 1}" for c in range(len(sc.card_symbol))]}

    # the event log (wargym.events; the kinds and their arguments: eventlog.py)
    event_kinds = eventlog.KINDS
    event_purposes = eventlog.PURPOSES
    event_results = eventlog.RESULTS

    def event_unit(self, u: int) -> str:
        return self.scenario.us_names[u]

    def event_card(self, c: int) -> str:
        return f"card #{c + 1}"

    def event_value(self, typ: str, value: int) -> str:
        return eventlog.value_words(self.scenario, typ, value)

    def events_for(self, logged: list[dict[str, Any]], state: State, game: int = 0,
                   viewer: int | None = None) -> list[dict[str, Any]]:
        """wargym.events.for_viewer, a card drawn read with the section its draw reads (2.3) where
        the viewer may identify the card, a close combat told by its end when its cards were
        shuffled back into the deck in the same step (eventlog.told)."""
        return eventlog.told(self, events.for_viewer(self, logged, state, game, viewer), viewer)

    def result(self, state: State, game: int = 0) -> str:
        return RESULTS[int(state.result[game])]

    def summary(self, state: State, game: int = 0, viewer: int | None = None) -> dict[str, Any]:
        s, g = self.viewed(state, game, viewer)
        sc = self.scenario
        from wargym.peleliu.victory import tallies
        beach = zb = a56 = total = 0
        if self.tables is not None:
            beach, zb, a56, _, _, _, total, _, _, _ = tallies(self.tables, self.kernel_state(s), g)
        turn = int(s.turn[g])
        bnr = sc.spec.kind == "bnr"
        times = sc.bnr_time if bnr else sc.turn_time
        extra = {}
        if bnr:
            units = ~sc.jp_fort
            extra = {"rupertus_in_command": bool(s.rupertus[g]), "flamethrower": bool(s.flame[g]),
                     "japanese_in_reserve": int(((s.jp_loc[g] == JP_RESERVE) & units).sum()),
                     "japanese_on_map": int(((s.jp_loc[g] == JP_MAP) & units).sum()),
                     "fortifications": int(((s.jp_loc[g] == JP_MAP) & sc.jp_fort).sum()),
                     "action_under_fire": int(s.us_auf[g].sum()), "attack_orders": int(s.att_order[g].sum())}
        return extra | {
            "scenario": sc.name, "turn": turn, "time": times[turn] if turn < len(times) else "",
            "stage": STAGE_NAMES[int(s.stage[g])], "phase": PHASE_NAMES[int(s.phase[g])],
            "decisions": int(s.decisions[g]), "actions_left": int(s.actions_left[g]),
            "us_units": {US_LOC_NAMES[k]: int((s.us_loc[g] == k).sum()) for k in range(len(US_LOC_NAMES))},
            "japanese_units": {JP_LOC_NAMES[k]: int((s.jp_loc[g] == k).sum()) for k in range(len(JP_LOC_NAMES))},
            "infantry_loss_box": int(s.loss_box[g]),
            "catastrophic_level": int(sc.bnr_catastrophic if bnr else sc.catastrophic[min(turn, 24)]),
            "secured": {"total": int(total), "beach_firing": int(beach), "zone_b": int(zb), "A5_A6": int(a56)},
            "naval_markers": int(s.naval[g]), "dauntless_markers": int(s.dauntless[g]),
            "result": RESULTS[int(s.result[g])],
            "terminated": bool(s.terminated[g]), "truncated": bool(s.truncated[g]),
            "rewards": dict(zip(self.players, s.rewards[g].tolist())),
        }

    def _render_ansi(self, state: State, game: int, viewer: int | None) -> str:
        from wargym.peleliu.render import render_ansi
        return render_ansi(self, state, game, viewer)

    def _render_rgb(self, state: State, game: int, viewer: int | None) -> np.ndarray:
        from wargym.peleliu.render import render_rgb
        return render_rgb(self, state, game, viewer)
