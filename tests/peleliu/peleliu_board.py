"""Helpers for the D-Day at Peleliu rule tests (a module of its own, like tests/attu/attu_board.py):
one compiled core per option set, and a way to lay a position out by hand: every counter off the
map, every card in the draw deck, then units placed where a rule or a book example wants them, and
the kernels (wargym/peleliu/*.py) called directly on that one game.

    b = Board(turn=10)
    b.us("F/2/1", 917)                      # a U.S. unit at full strength in hex 0917
    j = b.jp(1016, "J22", depth=26)         # a Japanese unit (face down) with depth marker 26 under it
    b.fire_card(17)                         # the book's card 17 is the Fire card
    japanese.check_group(b.T, b.S, 0, b.group("B19"), 2)

Cards are named by the book's card number (``card(17)`` is index 16); ``force`` makes the next
draws those cards.  The map is RECONSTRUCTED (configs/peleliu/map.yaml, positions.yaml); each test
asserts the map facts its hand computation rests on (``assert_dots`` and friends).
"""

from __future__ import annotations

import functools
import inspect

import numpy as np

from wargym.cards import pile_size
from wargym.rng import game_keys
from wargym.peleliu.core import PeleliuCore
from wargym.peleliu.scenario import COLOURS, SYMBOLS, TERRAINS
from wargym.peleliu.state import (
    DM_CUP, DM_OUT, DM_POOL, DM_UNIT, JP_MAP, JP_OUT, JP_RESERVE, P_AUTO, PILE_DECK, ST_FIRE, US_BOX, US_MAP,
    US_OUT,
)

BOXES = {"W1": 0, "W2": 1, "O1": 2, "O2": 3, "O3": 4}


@functools.lru_cache(maxsize=None)
def make_core(scenario: str = "sept15", decisions: str = "full", **options) -> PeleliuCore:
    return PeleliuCore(scenario, decisions=decisions, **options)


def card(number: int) -> int:
    """The index of the book's card ``number`` (1-54)."""
    return number - 1


class Board:
    """A one-game Peleliu state laid out by a test; ``T`` the tables, ``S`` the kernels' view of the
    state (writes go to ``state``'s own arrays)."""

    def __init__(self, turn: int = 10, seed: int = 0, core: PeleliuCore | None = None):
        self.core = core if core is not None else make_core()
        self.sc = self.core.scenario
        self.T = self.core.tables
        self.seed = seed
        self._S = None
        self.clear(turn)

    # -- the kernels' view -----------------------------------------------------------------------
    @property
    def S(self):
        if self._S is None:
            self._S = self.core.kernel_state(self.state)
        return self._S

    def force(self, numbers) -> None:
        """The next cards drawn are the book's cards ``numbers``, in order."""
        self.state = self.core.force(self.state, [card(n) for n in numbers])
        self._S = None

    @property
    def forced_left(self) -> int:
        return int(self.state.forced_n[0])

    # -- an empty board --------------------------------------------------------------------------
    def clear(self, turn: int) -> None:
        """Every field at its declared start (core.blank: nothing on the map, nothing drawn, every
        marker off), then: U.S. units at full strength off the map, Japanese units out of play,
        depth markers in their pools (counterattack markers in the mug), the 54 cards in the draw
        deck (card 54 on top), turn ``turn``, the Fire Phase under way, two U.S. actions left."""
        sc = self.sc
        s = self.core.blank(game_keys(self.seed, 1))
        self.state = s
        self._S = None
        s.turn[0] = turn
        s.phase[0] = P_AUTO
        s.stage[0] = ST_FIRE
        s.us_loc[0] = US_OUT
        s.us_steps[0] = sc.us_steps
        s.jp_loc[0] = JP_OUT
        s.dm_loc[0] = np.where(sc.dm_kind == 2, DM_CUP, DM_POOL)
        s.card_pile[0] = PILE_DECK
        s.card_pos[0] = np.arange(s.card_pile.shape[1])
        s.actions_left[0] = 2

    # -- names -----------------------------------------------------------------------------------
    def hex(self, number: int) -> int:
        return self.sc.grid.index(number)

    def number(self, h: int) -> int:
        return self.sc.grid.number(int(h))

    def unit(self, name: str) -> int:
        return self.sc.us_names.index(name)

    def jp_unit(self, name: str) -> int:
        return self.sc.jp_names.index(name)

    def pos(self, pid: str) -> int:
        return self.sc.pos_id.index(pid)

    def group(self, pid: str) -> int:
        return int(self.sc.pos_group[self.pos(pid)])

    def pos_hexnum(self, pid: str) -> int:
        return self.number(self.sc.pos_hex[self.pos(pid)])

    def dist(self, a: int, b: int) -> int:
        return int(self.sc.grid.distance[self.hex(a), self.hex(b)])

    def terrain(self, number: int) -> str:
        return TERRAINS[int(self.sc.terrain[self.hex(number)])]

    def dot(self, pid: str, number: int) -> str:
        """'intense', 'steady' or '' : the dot position ``pid``'s field puts in hex ``number``."""
        return ("", "steady", "intense")[int(self.sc.grp_dot[self.group(pid), self.hex(number)])]

    def colour(self, pid: str) -> str:
        return COLOURS[int(self.sc.pos_colour[self.pos(pid)])]

    def symbol(self, name: str) -> str:
        return SYMBOLS[int(self.sc.us_symbol[self.unit(name)])]

    def neighbours(self, number: int) -> set[int]:
        return {self.number(x) for x in self.sc.grid.neighbours[self.hex(number)] if x >= 0}

    def dots_in(self, number: int) -> dict[str, str]:
        """Every field of fire reaching hex ``number``: {position id(s): 'intense' / 'steady'}."""
        out = {}
        h = self.hex(number)
        for f in range(self.sc.grp_dot.shape[0]):
            d = int(self.sc.grp_dot[f, h])
            if d:
                name = "/".join(self.sc.pos_id[p] or "prov" for p in self.sc.grp_members[f] if p >= 0)
                out[name] = ("", "steady", "intense")[d]
        return out

    # -- placing counters ------------------------------------------------------------------------
    def us(self, name: str, hexnum: int, steps: int | None = None, dis: int = 0) -> int:
        u = self.unit(name)
        s = self.state
        s.us_loc[0, u] = US_MAP
        s.us_hex[0, u] = self.hex(hexnum)
        s.us_steps[0, u] = self.sc.us_steps[u] if steps is None else steps
        s.us_dis[0, u] = dis
        return u

    def box(self, name: str, box: str, steps: int | None = None) -> int:
        u = self.unit(name)
        s = self.state
        s.us_loc[0, u] = US_BOX
        s.us_hex[0, u] = BOXES[box]
        s.us_steps[0, u] = self.sc.us_steps[u] if steps is None else steps
        return u

    def jp(self, hexnum: int, name: str | None = None, rev: bool = False, dis: bool = False,
           depth: int | None = None, depth_rev: bool = False) -> int:
        """A Japanese unit (by name, e.g. "J16", else the first non-tank unit still off the map) in
        hex ``hexnum``, with depth marker number ``depth`` (index into counters.yaml's depth markers:
        0-50 regular, 51-54 armor, 55-62 counterattack) under it."""
        s = self.state
        if name is None:
            free = [j for j in range(len(self.sc.jp_names)) if not self.sc.jp_tank[j] and s.jp_loc[0, j] == JP_OUT]
            j = free[0]
        else:
            j = self.jp_unit(name)
        s.jp_loc[0, j] = JP_MAP
        s.jp_hex[0, j] = self.hex(hexnum)
        s.jp_rev[0, j] = rev or bool(self.sc.jp_tank[j])
        s.jp_dis[0, j] = dis
        s.jp_depth[0, j] = -1
        if depth is not None:
            s.dm_loc[0, depth] = DM_UNIT
            s.dm_rev[0, depth] = depth_rev
            s.jp_depth[0, j] = depth
        return j

    def reserve(self, *names: str) -> None:
        for n in names:
            self.state.jp_loc[0, self.jp_unit(n)] = JP_RESERVE

    def depth_pool(self, *markers: int) -> None:
        """Only these regular depth markers are left in the pool (the others out of play), so that a
        random draw from the pool is known."""
        s = self.state
        for d in range(len(self.sc.dm_kind)):
            if self.sc.dm_kind[d] == 0 and s.dm_loc[0, d] == DM_POOL:
                s.dm_loc[0, d] = DM_OUT
        for d in markers:
            s.dm_loc[0, d] = DM_POOL

    def fire_card(self, number: int) -> None:
        self.state.fire_card[0] = card(number)

    # -- calling kernels -------------------------------------------------------------------------
    def occ(self) -> np.ndarray:
        """int16[H]: the Japanese unit in each hex, -1 (board.jp_map)."""
        from wargym.peleliu.board import jp_map
        out = np.empty(self.sc.num_hexes, np.int16)
        jp_map(self.T, self.S, 0, out)
        return out

    def live(self) -> np.ndarray:
        """int8[H]: the strongest dot of a position with a non-disrupted unit (board.fire_map)."""
        from wargym.peleliu.board import fire_map
        out = np.empty(self.sc.num_hexes, np.int8)
        fire_map(self.T, self.S, 0, self.occ(), True, out)
        return out

    def call(self, fn, **named):
        """Call kernel ``fn`` of this game by its parameter names: T, S, g, the board maps ``occ``
        and ``live``, a scratch mask ``m`` / ``out`` / ``scratch`` / ``buf`` and ``stop_at_one``
        are filled in; the rest come from ``named``."""
        H = self.sc.num_hexes
        auto = {"T": lambda: self.T, "S": lambda: self.S, "g": lambda: 0, "occ": self.occ, "live": self.live,
                "m": lambda: np.zeros(H, np.bool_), "scratch": lambda: np.zeros(H, np.bool_),
                "buf": lambda: np.zeros(H, np.int8), "stop_at_one": lambda: False}
        args = []
        for name in inspect.signature(getattr(fn, "py_func", fn)).parameters:
            if name in named:
                args.append(named[name])
            elif name in auto:
                args.append(auto[name]())
            else:
                raise TypeError(f"{fn.__name__} needs {name!r}")
        return fn(*args)

    # -- reading ---------------------------------------------------------------------------------
    def steps(self, name: str) -> int:
        return int(self.state.us_steps[0, self.unit(name)])

    def dis(self, name: str) -> int:
        return int(self.state.us_dis[0, self.unit(name)])

    def where(self, name: str) -> int:
        """The printed hex number of a U.S. unit on the map (-1 elsewhere)."""
        u = self.unit(name)
        if self.state.us_loc[0, u] != US_MAP:
            return -1
        return self.number(self.state.us_hex[0, u])

    def loc(self, name: str) -> int:
        return int(self.state.us_loc[0, self.unit(name)])

    def jp_where(self, j: int) -> int:
        s = self.state
        return self.number(s.jp_hex[0, j]) if s.jp_loc[0, j] == JP_MAP else -1

    def jp_in(self, hexnum: int) -> int:
        s = self.state
        h = self.hex(hexnum)
        for j in range(len(self.sc.jp_names)):
            if s.jp_loc[0, j] == JP_MAP and s.jp_hex[0, j] == h:
                return j
        return -1

    def pile(self, pile: int) -> int:
        return int(pile_size(self.state.card_pile, 0, pile))

    def comm(self) -> dict[str, bool]:
        """11.2 for every position id, as the engine traces it now (board.jp_communication)."""
        from wargym.peleliu.board import jp_communication
        out = np.zeros(len(self.sc.pos_id), np.bool_)
        jp_communication(self.T, self.S, 0, self.state.turn[0] == 13, out)
        return {pid: bool(out[p]) for p, pid in enumerate(self.sc.pos_id) if pid}

    def set_comm(self) -> None:
        """Fix the Fire Phase's communication status now (11.22), as start_fire_phase does."""
        from wargym.peleliu.board import jp_communication
        out = np.zeros(len(self.sc.pos_id), np.bool_)
        jp_communication(self.T, self.S, 0, self.state.turn[0] == 13, out)
        self.state.comm[0] = out
