"""Helpers for the Attu tests, in a module of their own (tests/island_war has a conftest of the
same name): one compiled core per scenario, the ``core`` fixture, and a way to lay out a board by
hand (every counter off the map, then units placed where a rule or book example wants them)."""

from __future__ import annotations

import dataclasses
import functools

import numpy as np
import pytest

from wargym.attu.core import AttuCore
from wargym.attu.scenario import JAPAN, UNKNOWN, US
from wargym.attu.state import ACT_SELECT, LOC_MAP, LOC_NONE, LOC_RESERVE, as_arrays


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
