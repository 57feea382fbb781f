"""WorldAtWarCore: B games of The World at War stepped at once.

    core = WorldAtWarCore("pacific")          # or bocage, ussr_town, or a path to a scenario file
    state = core.init(batch_size=64, seed=0)
    state = core.step(state, actions)          # int[B], each legal in core.legal_mask(state)
    state, log = core.step_logged(state, actions)   # the same, and what the rules did (events.py)

Players are the scenario's two sides (pacific: ("us", "japan")).  Options: ``fastplay`` (the
book's FASTPLAY VARIANT: no saving or defence throws), ``advanced_vehicles`` (appendix 1's advanced
rules for motorized and mechanized infantry), ``night`` (a night game: sight reaches only the
adjacent hexes and those a flare lights), ``decisions`` ("full": every choice the book
gives a player; "major": the minor ones by the defaults of sequence.minor_default),
``every_decision`` (stop at a decision with one legal action too: a position laid out by hand
waits there).  The rules are numba functions of one game that the shared driver (wargym.kernel)
runs over the batch.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from wargym.core import DECISION_MODES
from wargym.kernel import KernelCore
from wargym.world_at_war import actions as act, events
from wargym.world_at_war.fog import hidden_for
from wargym.world_at_war.observe import N_PLANES, G_PIECES, n_global, observe_batch, static_planes
from wargym.world_at_war.scenario import SYMBOLS, Scenario, list_scenarios, load_scenario
from wargym.world_at_war.sequence import DRIVER
from wargym.world_at_war.state import (
    P_AIR_DEFEND, P_AIR_PLAY, PHASE_NAMES, PILE_DECK, PILE_DISCARD, PILE_HAND, PILE_PLAYED, State, StateArg, TablesArg,
    make_tables,
)


class WorldAtWarCore(KernelCore):
    name = "world_at_war"
    state_class = State
    phase_names = PHASE_NAMES
    observation_bounds = {"spatial": (0.0, 1.0), "global": (0.0, 4.0)}
    driver, state_arg, tables_arg = DRIVER, StateArg, TablesArg

    def __init__(self, scenario: str | Path | Scenario = "pacific", decisions: str = "full", fastplay: bool = False,
                 advanced_vehicles: bool = False, night: bool = False, max_decisions: int = 5_000,
                 threads: int = 1, every_decision: bool = False):
        if decisions not in DECISION_MODES:
            raise ValueError(f"decisions must be one of {DECISION_MODES}, got {decisions!r}")
        self.every_decision = bool(every_decision)
        self.scenario = scenario if isinstance(scenario, Scenario) else load_scenario(str(scenario))
        self.decisions = decisions
        self.options = {"fastplay": bool(fastplay), "advanced_vehicles": bool(advanced_vehicles), "night": bool(night)}
        self.players = self.scenario.sides
        self.hidden = hidden_for(self.players)
        self.num_actions = act.num_actions(self.scenario.num_hexes, len(self.scenario.piece_side))
        self.setup_kernels(make_tables(self.scenario, fastplay, advanced_vehicles, decisions == "major", max_decisions,
                                       night), threads)
        self.static = static_planes(self.scenario)

    def start_vehicles(self) -> np.ndarray:
        """int8[U]: vehicle figures at the start: the card's model (basic rules), or two of its eight
        figures with ``advanced_vehicles`` (appendix 1, advanced rules)."""
        sc = self.scenario
        carries = sc.units.vehicles[sc.piece_card] > 0
        return np.where(carries, 2 if self.options["advanced_vehicles"] else 1, 0).astype(np.int8)

    @classmethod
    def scenario_names(cls) -> list[str]:
        return list_scenarios()

    @classmethod
    def load_scenario(cls, name: str) -> Scenario:
        return load_scenario(name)

    # -- protocol --------------------------------------------------------------------------------
    def _dims(self) -> dict[str, int]:
        """Pieces, cards, hexes, objectives, air cards, and "TURNS": the book sets no last turn (a
        side wins at its quota); every player turn begins with a command card played or discarded
        by its side, a decision, so the decision cap bounds the turns."""
        sc = self.scenario
        return {"U": len(sc.piece_side), "C": len(sc.card_action), "H": sc.num_hexes, "O": len(sc.objective_hex),
                "AF": len(sc.af_kind), "AS": len(sc.as_planes), "TURNS": self.max_decisions + 1}

    def _observe(self, state: State, player: int) -> dict[str, np.ndarray]:
        return observe_batch(self, state, player)

    @property
    def observation_shapes(self) -> dict[str, tuple[int, ...]]:
        g = self.scenario.grid
        return {"spatial": (N_PLANES, g.rows, g.columns), "global": (n_global(len(self.scenario.piece_side)),)}

    def victory_points(self, state: State) -> np.ndarray:
        """int64[B, 2]: each side's victory points now: units and commanders destroyed, and the
        objectives its units hold."""
        sc = self.scenario
        out = state.vp.astype(np.int64).copy()
        unit = ~np.isin(sc.units.kind[sc.piece_card], (1, 2))   # not a sniper or commander
        for o, h in enumerate(sc.objective_hex):
            there = (state.p_hex == h) & unit[None, :]
            for s in range(2):
                if sc.objective_for[o] in (s, 2):
                    out[:, s] += np.where((there & (sc.piece_side == s)[None, :]).any(1), sc.objective_points[o], 0)
        return out

    def score(self, state: State) -> np.ndarray:
        """float32[B, 2]: each side's victory points less the other's."""
        v = self.victory_points(state)
        return np.stack([v[:, 0] - v[:, 1], v[:, 1] - v[:, 0]], axis=1).astype(np.float32)

    def check_state(self, state: State) -> list[str]:
        from wargym.world_at_war.invariants import check
        return check(self, state)

    def special_hex_inputs(self) -> np.ndarray:
        """int64[specials]: for piece p's action (PIECE_0 + p) the global entry holding its hex."""
        out = np.full(act.PIECE_0 + len(self.scenario.piece_side), -1, dtype=np.int64)
        pieces = np.arange(len(self.scenario.piece_side))
        out[act.PIECE_0 + pieces] = G_PIECES + 3 * pieces
        return out

    def special_hexes(self) -> np.ndarray:
        return np.full(act.PIECE_0 + len(self.scenario.piece_side), -1, dtype=np.int64)

    # -- readable --------------------------------------------------------------------------------
    @property
    def codes(self) -> dict[str, dict[str, int]]:
        sides = self.scenario.sides
        return {"card_pile": {"deck": PILE_DECK, "discard": PILE_DISCARD, "played": PILE_PLAYED,
                              **{f"hand {side}": PILE_HAND + s for s, side in enumerate(sides)}},
                "winner": {"none": -1, **{side: s for s, side in enumerate(sides)}},
                "active": {side: s for s, side in enumerate(sides)}}

    def item_names(self) -> dict[str, list[str]]:
        sc = self.scenario
        return {"U": [self.piece_label(p) for p in range(len(sc.piece_side))],
                "C": [f"{name} #{c}" for c, name in enumerate(sc.card_names)]}

    # the event log (wargym.events; the kinds and their arguments: events.py)
    event_kinds = events.KINDS
    event_purposes = events.PURPOSES
    event_results = events.RESULTS

    def event_unit(self, u: int) -> str:
        return self.piece_label(u)

    def event_value(self, typ: str, value: int) -> str:
        return events.value_words(typ, value)

    def event_card(self, c: int) -> str:
        return self.scenario.card_names[c]

    def piece_label(self, p: int) -> str:
        sc = self.scenario
        card = sc.units.names[sc.piece_card[p]]
        colour = ("red", "blue", "green")[sc.piece_colour[p]] + " " if sc.piece_colour[p] >= 0 else ""
        return f"{sc.sides[sc.piece_side[p]]} {colour}{card} #{p}"

    def _describe(self, action: int, state: State | None, game: int, viewer: int | None) -> str:
        sc = self.scenario
        H = sc.num_hexes
        action = int(action)
        if not 0 <= action < self.num_actions:
            return f"action {action} (outside [0, {self.num_actions}))"
        if action < H:
            text = f"hex {sc.grid.label(action)}"
            if state is not None:
                on = np.flatnonzero(state.p_hex[game] == action)
                if len(on):
                    text += " (" + ", ".join(self.piece_label(int(p)) for p in on) + ")"
            return text
        k = action - H
        if k >= act.PIECE_0:
            p = k - act.PIECE_0
            where = ""
            if state is not None and state.p_hex[game, p] >= 0:
                where = f" at {sc.grid.label(int(state.p_hex[game, p]))}"
            return self.piece_label(p) + where
        if act.CARD_0 <= k < act.PIECE_0 and state is not None:
            slot = k - act.CARD_0
            if state.phase[game] in (P_AIR_PLAY, P_AIR_DEFEND):   # the decider's air support hand, not
                return f"air support card #{slot + 1}"              # the attacker's hidden command hand
            holder = int(state.current_player[game])  # the decider's own hand, whoever's turn it is
            if viewer is None or viewer == holder:  # a hand the viewer cannot see is stand-ins in its view
                cards = np.flatnonzero((state.card_pile[game] == PILE_HAND + holder) & (state.card_pos[game] == slot))
                if len(cards):
                    return f"card #{slot + 1}: {sc.card_names[int(cards[0])]}"
        return act.special_name(k)

    def summary(self, state: State, game: int = 0, viewer: int | None = None) -> dict[str, Any]:
        state, game = self.viewed(state, game, viewer)
        sc = self.scenario
        points = self.victory_points(state.take([game]))[0]
        alive = state.p_hex[game] >= 0
        hand = {}
        for s, side in enumerate(sc.sides):
            cards = np.flatnonzero(state.card_pile[game] == PILE_HAND + s)
            hand[side] = (len(cards) if viewer is not None and viewer != s
                          else [sc.card_names[int(c)] for c in cards[np.argsort(state.card_pos[game, cards])]])
        return {
            "scenario": sc.name, "turn": int(state.turn[game]), "active": sc.sides[int(state.active[game])],
            "phase": PHASE_NAMES[int(state.phase[game])], "decisions": int(state.decisions[game]),
            "victory_points": {s: int(points[i]) for i, s in enumerate(sc.sides)},
            "quota": {s: int(sc.vp_quota[i]) for i, s in enumerate(sc.sides)},
            "pieces": {s: int((alive & (sc.piece_side == i)).sum()) for i, s in enumerate(sc.sides)},
            "hands": hand,
            "card": sc.card_names[int(state.card[game])] if state.card[game] >= 0 else None,
            "last_throw": [SYMBOLS[int(s)] for s in state.last_throw[game] if s >= 0],
            "winner": sc.sides[int(state.winner[game])] if state.winner[game] >= 0 else None,
            "terminated": bool(state.terminated[game]), "truncated": bool(state.truncated[game]),
            "rewards": dict(zip(sc.sides, state.rewards[game].tolist())),
        }

    # -- rendering -------------------------------------------------------------------------------
    def _render_ansi(self, state: State, game: int, viewer: int | None) -> str:
        from wargym.world_at_war.render import render_ansi
        return render_ansi(self, state, game, viewer)

    def _render_rgb(self, state: State, game: int, viewer: int | None) -> np.ndarray:
        from wargym.world_at_war.render import render_rgb
        return render_rgb(self, state, game, viewer)
