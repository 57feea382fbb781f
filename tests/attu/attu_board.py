"""Helpers for the Attu tests, in a module of their own (tests/island_war has a conftest of the
same name): one compiled core per scenario, the ``core`` fixture, a way to lay out a board by
hand (every counter off the map, then units placed where a rule or book example wants them), a
way to play it through the decision machine (``Play``), and the position of the book's 8.1 and
8.2 examples (``engineer_hill``, ``play_ranged_example``; the combat tests and the event log's
replay them)."""

from __future__ import annotations

import dataclasses
import functools

import numpy as np
import pytest

from wargym.attu.actions import END, MELEE_0, NO, SLOT_0, YES
from wargym.attu.core import AttuCore
from wargym.attu.movement import allowance, move_destinations
from wargym.attu.scenario import CLOUDY, JAPAN, UNKNOWN, US
from wargym.attu.state import (
    ACT_ORDER, ACT_SELECT, LOC_MAP, LOC_NONE, LOC_RESERVE, LOSS, MELEE_PICK, PHASE_NAMES, as_arrays,
)
from wargym.attu.supply import in_supply, supply_distance


@functools.lru_cache(maxsize=None)
def make_core(scenario: str = "campaign", **kwargs) -> AttuCore:
    return AttuCore(scenario, **kwargs)


@pytest.fixture(scope="session")
def core() -> AttuCore:
    return make_core("campaign")


class ForcedDice:
    """Dice a test fixes (core.force) on ``self.state``; ``dice_used`` counts how many were rolled."""

    def force(self, values) -> None:
        """The next dice are ``values``."""
        self.state = self.core.force(self.state, values)
        self.forced = len(values)

    @property
    def dice_used(self) -> int:
        return self.forced - int(self.state.forced_n[0])


class Board(ForcedDice):
    """A one-game state laid out by a test.  ``hex(n)`` is the dense index of printed hex n."""

    def __init__(self, core: AttuCore, seed: int = 0):
        self.core = core
        self.sc = core.scenario
        state = core.init(1, seed)
        loc = np.full_like(state.unit_loc, LOC_NONE)
        jp_pool = (self.sc.unit_side == JAPAN) & (self.sc.unit_type != UNKNOWN)
        loc[0, jp_pool & (self.sc.unit_type == 0)] = LOC_RESERVE
        self.state = dataclasses.replace(
            state, unit_loc=loc, unit_hex=np.full_like(state.unit_hex, -1), face_down=np.zeros_like(state.face_down),
            us_knows=np.zeros_like(state.us_knows),
            phase=np.full_like(state.phase, ACT_SELECT), turn=np.full_like(state.turn, 3), casualties=np.zeros_like(state.casualties))
        self.set(weather=0, night=False, acting=US, first=US)
        self.forced = 0

    def hex(self, number: int) -> int:
        return self.sc.grid.index(number)

    def unit(self, name: str) -> int:
        return self.sc.unit_names.index(name)

    def japanese(self, kind: str = "infantry", skip: int = 0) -> int:
        """A Japanese unit of a kind not yet on the map."""
        kinds = {"infantry": 0, "unknown": 4, "artillery": 5}
        free = [u for u in range(self.sc.num_units) if self.sc.unit_side[u] == JAPAN
                and self.sc.unit_type[u] == kinds[kind] and self.state.unit_loc[0, u] != LOC_MAP]
        return free[skip]

    def place(self, unit: int | str, hexnum: int, steps: int | None = None, face_down: bool = False) -> int:
        u = self.unit(unit) if isinstance(unit, str) else unit
        s = self.state
        s.unit_loc[0, u] = LOC_MAP
        s.unit_hex[0, u] = self.hex(hexnum)
        s.unit_steps[0, u] = self.sc.unit_steps[u] if steps is None else steps
        s.face_down[0, u] = face_down
        # a Japanese counter laid face up is one the U.S. sees (fog.note_seen, as the rules mark it)
        s.us_knows[0, u] = self.sc.unit_side[u] == JAPAN and not face_down
        return u

    def set(self, **fields) -> None:
        for name, value in fields.items():
            getattr(self.state, name)[0] = value

    @property
    def arrays(self):
        return as_arrays(self.state)

    @property
    def tables(self):
        return self.core.tables


# --------------------------------------------------------------------- a board played through
class Play(ForcedDice):
    """A laid-out board played through ``core.step``: every action is checked against the mask.
    With ``logging`` set, each step is ``core.step_logged`` and ``log`` holds its events (raw)."""

    logging = False
    log: list = []

    def __init__(self, b: Board):
        self.b = b
        self.core = b.core
        self.t = b.core.tables
        self.H = self.t.nbr.shape[0]
        self.state = b.core.refresh(b.state)
        self.forced = 0

    # -- actions -----------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        return PHASE_NAMES[int(self.state.phase[0])]

    @property
    def player(self) -> int:
        return int(self.state.current_player[0])

    def legal(self, a: int) -> bool:
        return bool(self.state.legal_action_mask[0, a])

    def do(self, a: int) -> None:
        """Action ``a`` (it must be legal); with ``logging`` on, its events are kept in ``log``."""
        assert self.legal(a), f"{self.core.describe_action(a, self.state)} is not legal in '{self.phase}'"
        if self.logging:
            self.state, log = self.core.step_logged(self.state, np.array([a]))
            self.log = log[0]
        else:
            self.state = self.core.step(self.state, np.array([a]))

    def hex(self, n: int) -> int:
        return self.b.hex(n)

    def at(self, n: int) -> None:
        self.do(self.hex(n))

    def special(self, k: int) -> int:
        return self.H + k

    def yes(self) -> None:
        self.do(self.H + YES)

    def no(self) -> None:
        self.do(self.H + NO)

    def end(self) -> None:
        self.do(self.H + END)

    def direction(self, a: int, t: int) -> int:
        return list(self.t.nbr[self.hex(a)]).index(self.hex(t))

    def declare(self, a: int, t: int) -> None:
        """ACT_ORDER: the selected unit in hex a declares Melee against hex t (8.2)."""
        self.do(self.H + MELEE_0 + self.direction(a, t))

    def slot(self, k: int) -> int:
        return self.H + SLOT_0 + k

    def loss_slot(self, u: int) -> int:
        """The LOSS action that puts the next hit on unit u (slots in unit order, losses.py)."""
        pool = [v for v in range(self.t.u_side.shape[0])
                if self.state.loss_pool[0, v] and self.state.unit_loc[0, v] == LOC_MAP]
        return self.slot(pool.index(u))

    def hit(self, u: int) -> None:
        assert self.phase == PHASE_NAMES[LOSS]
        self.do(self.loss_slot(u))

    def hits_in_order(self) -> None:
        """Hits waiting for a choice go on the candidates in unit order."""
        while self.phase == PHASE_NAMES[LOSS]:
            self.do(self.slot(0))

    # -- reading -----------------------------------------------------------------------------
    def steps(self, u: int) -> int:
        return int(self.state.unit_steps[0, u])

    def loc(self, u: int) -> int:
        return int(self.state.unit_loc[0, u])

    def where(self, u: int) -> int:
        return self.core.scenario.grid.number(int(self.state.unit_hex[0, u]))

    def on_map(self, u: int) -> bool:
        return self.loc(u) == LOC_MAP

    def mask_hexes(self) -> list[int]:
        g = self.core.scenario.grid
        return sorted(g.number(int(h)) for h in np.flatnonzero(self.state.legal_action_mask[0, :self.H]))


def step7(b: Board, attackers: dict[int, int], picker: int, **fields) -> Play:
    """Step 7 (3.7) with the Melees of ``attackers`` (unit -> printed target hex) declared, the
    ``picker`` side to choose its next Melee."""
    for u, t in attackers.items():
        b.state.melee_target[0, u] = b.hex(t)
        b.state.acted[0, u] = True
    b.set(phase=MELEE_PICK, mel_picker=picker, **fields)
    return Play(b)


def jp(b: Board, hexnum: int, kind: str = "infantry", face_down: bool = False) -> int:
    """A Japanese unit placed in hexnum; an Infantry one is a three-dice platoon (reconstructed
    rating mix, counters.yaml; the 8.2 example gives a platoon three melee dice)."""
    u = b.place(b.japanese(kind), hexnum, face_down=face_down)
    if kind == "infantry":
        assert b.tables.u_melee[u, 0] == 3 and b.tables.u_ranged[u, 0] == 1 and b.tables.u_range[u] == 2
    return u


# ------------------------------------------------------------------- 8.1 and 8.2 book examples
def engineer_hill(core) -> tuple[Play, dict[str, int]]:
    """The position of the 8.1 and 8.2 examples, U.S. Player Actions step, Cloudy day.

    Two Japanese platoons (face up) on Engineer Hill 2717; U.S. companies in 2617 and 2618
    adjacent to it (2/17 E and F, full strength), two 2/32 companies two hexes off and lower
    (2619, 2719), the 105mm battery A on Massacre Beach (2721, Landing Zone E, 4 hexes off).
    The 8.2 example has the company in 2617 out of supply and the one in 2618 in supply.  On the
    reconstructed map both are within 7 MP of zone E up the Hogback (7 and 6 MP), so a face-down
    Japanese unit in 2520 is put where its ZOC cuts the Hogback (2620, 2621), and the 13th
    Engineers' Supply Depot A stands in 2720: 2618 is then 7 MP from a source (in supply) and
    2617 is 8 (out), the 2/32 companies 6 and 4 (in supply).  Neither extra unit is next to 2717.
    """
    b = Board(core)
    units = {
        "jp1": jp(b, 2717), "jp2": jp(b, 2717), "block": jp(b, 2520, face_down=True),
        "e": b.place("2/17 E", 2617), "f": b.place("2/17 F", 2618),
        "c1": b.place("2/32 E", 2619), "c2": b.place("2/32 F", 2719),
        "gun": b.place("105mm A", 2721), "depot": b.place("Depot 13 Eng A", 2720),
    }
    b.set(weather=CLOUDY, night=False, acting=US, first=US, act_step=0, phase=ACT_SELECT, airpower=[0, 0])
    p = Play(b)
    dist = supply_distance(b.tables, b.arrays, 0)
    supplied = {k: in_supply(b.tables, b.arrays, 0, units[k], dist) for k in ("e", "f", "c1", "c2")}
    assert supplied == {"e": False, "f": True, "c1": True, "c2": True}
    return p, units


def play_ranged_example(core) -> tuple[Play, dict[str, int]]:
    p, u = engineer_hill(core)
    p.at(2617)
    p.declare(2617, 2717)                   # the two adjacent units are marked for Melee
    p.at(2618)
    p.declare(2618, 2717)
    p.force([6, 6, 5, 2, 1])                 # the 105mm rolls five dice
    p.at(2721)
    p.at(2717)                               # called in (8.1.4): 2717 is beyond its spotting
    assert p.dice_used == 5
    p.force([10, 9])                         # the 2/32 companies, one at a time (3.5)
    p.at(2619)
    p.at(2717)
    assert p.phase == PHASE_NAMES[LOSS] and p.player == JAPAN and p.state.loss_hits[0] == 2
    p.hit(u["jp1"])                          # Japan places the first hit; the second falls on jp2
    p.force([7, 3])
    p.at(2719)
    p.at(2717)
    return p, u


# ------------------------------------------------------------------------- solitaire (13.3)
def unknowns(core) -> np.ndarray:
    """The Unknown units in play, in unit order."""
    return np.nonzero((core.scenario.unit_type == UNKNOWN) & core.scenario.unit_in_play)[0]


def full_move(b: Board, u: int) -> tuple[int, int]:
    """A destination costing unit u its whole allowance, and the hex it is entered from."""
    out = np.zeros(b.tables.nbr.shape[0], dtype=bool)
    dist = move_destinations(b.tables, b.arrays, 0, u, out)
    mp = allowance(b.tables, b.arrays, 0, u, b.tables.u_move[u])
    full = [h for h in np.nonzero(out)[0] if dist[h] == mp]
    assert full, "no destination uses the whole allowance"
    return int(full[0]), mp


def remote_hex(core) -> int:
    """A clear land hex far (13+) from every Victory Hex, so 13.2.2 stays out of the way."""
    t = core.tables
    for h in range(t.nbr.shape[0]):
        if t.land[h] and not t.near_lz[h] and min(t.dist[h, v] for v in t.victory_hex) >= 13 and \
                all(n >= 0 and t.land[n] for n in t.nbr[h]):
            return core.scenario.grid.number(h)
    raise AssertionError("no remote hex")


def ambush_board(core) -> tuple[Board, int, int]:
    """Solitaire play (13.3): a lone U.S. company (1/17 A) ordered to move far from the Victory
    Hexes; every Unknown but one face down on the map, so the container holds one known table.
    Returns (the board, the company, the Unknown in the container)."""
    b = Board(core)
    b.set(phase=ACT_ORDER, acting=US)
    u = b.place("1/17 A", remote_hex(core))
    b.set(selected=u)
    unk = unknowns(core)
    for k, w in enumerate(unk[1:]):
        b.state.unit_loc[0, w] = LOC_MAP
        b.state.unit_hex[0, w] = b.hex(3409)  # far away, any number may stack (4.2)
        b.state.face_down[0, w] = True
    b.state.unit_loc[0, unk[0]] = LOC_RESERVE
    return b, u, int(unk[0])
