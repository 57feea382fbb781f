"""Setting up a position by name: one game's state edited through its named fields, handed to the
rules.

    from wargym import make_core
    from wargym.position import Position

    core = make_core("island_war", scenario="bloody_ridge", every_decision=True)
    pos = Position(core, seed=0)                         # game 0 of core.init(1, 0), a copy
    pos.set("unit_hex", "0712", item="2/124 Infantry")   # a unit by its name, a hex by its label
    pos.set("phase", "combat: select target")            # a decision by its name (core.phase_names)
    state = pos.settle()                                 # core.settle: the rules take it from there
    state = core.force(state, [6, 1])                    # the next dice (and picks=[...] for cups)

What a value may be named by, for a field (its declaration, wargym.schema):

* an item of the field's first axis ("U" units, "C" cards ...): its name in ``core.item_names()``
  or its number (``item=``); a field of one value per game takes no item;
* a hex field (declared up to "H-1"): a hex label ("0712") or its number (-1: none);
* ``phase``: a name of ``core.phase_names``;
* a coded field: a name of ``core.codes[field]`` (a pile, a location, a result ...);
* anything else: the number itself (a bool for a flag).

A name that is not one gets a ValueError listing the names there are.  ``settle`` checks every
field's type and range before any kernel runs and the ruleset's invariants after (``RecordError``).
A core made with ``every_decision=True`` stops at every decision, one with a single legal action
too, so a hand-laid position waits at the first decision instead of playing on by itself.
"""

from __future__ import annotations

import difflib
from typing import Any

import numpy as np

from wargym import schema


class Position:
    """One game of ``state`` (game ``game``; default: a new game of seed ``seed``) to edit by name;
    ``state`` is the edited copy (a batch of one)."""

    def __init__(self, core, state=None, game: int = 0, seed: int = 0):
        self.core = core
        self.state = (core.init(1, seed) if state is None else state).take([game])

    def set(self, field: str, value: Any, item: Any = None) -> "Position":
        """Field ``field`` (of item ``item`` where the field has one value per item) set to ``value``,
        each given by name or number (module docstring).  Returns the position, for chaining."""
        spec = self._spec(field)
        array = getattr(self.state, field)[0, ...]   # a view, a 0-d one for a field of one value a game
        index = self._index(field, spec, item)
        array[index] = self._value(field, spec, value)
        return self

    def get(self, field: str, item: Any = None) -> Any:
        """The value of ``field`` (of item ``item``) as a number or array."""
        spec = self._spec(field)
        value = getattr(self.state, field)[0][self._index(field, spec, item)]
        return value.item() if np.ndim(value) == 0 else value.copy()

    def settle(self):
        """``core.settle`` of the position: the state the rules give it, waiting for a decision."""
        return self.core.settle(self.state)

    # -- names --------------------------------------------------------------------------------------
    def _spec(self, field: str) -> schema.Var:
        specs = schema.specs(self.core.state_class)
        if field not in specs:
            raise ValueError(f"{self.core.name} has no state field {field!r}{_close(field, specs)}")
        return specs[field]

    def _index(self, field: str, spec: schema.Var, item: Any):
        if not spec.shape:
            if item is not None:
                raise ValueError(f"field {field} holds one value per game: no item ({item!r}) to name")
            return ()
        if item is None:
            return slice(None)
        axis = spec.shape[0]
        if isinstance(item, str):
            names = self.core.item_names().get(axis) if isinstance(axis, str) else None
            if not names:
                raise ValueError(f"field {field}: the items of its axis {axis!r} have no names; give a number")
            if item not in names:
                raise ValueError(f"field {field}: no item named {item!r} on axis {axis!r}{_close(item, names)}")
            return names.index(item)
        return int(item)

    def _value(self, field: str, spec: schema.Var, value: Any):
        if not isinstance(value, str):
            return value
        if field == "phase":
            names = self.core.phase_names
            if value not in names:
                raise ValueError(f"field phase: no decision named {value!r}{_close(value, names)}")
            return names.index(value)
        codes = self.core.codes.get(field)
        if codes is not None:
            if value not in codes:
                raise ValueError(f"field {field}: no value named {value!r}; its names: {sorted(codes)}")
            return codes[value]
        if spec.high == "H-1":
            try:
                return self.core.grid.index(int(value))
            except (ValueError, KeyError):
                raise ValueError(f"field {field}: {value!r} is not a hex of the map (a label such as "
                                 f"{self.core.grid.label(0)!r})") from None
        raise ValueError(f"field {field} takes a number, not the name {value!r}")


def _close(name: str, names) -> str:
    close = difflib.get_close_matches(name, list(names), n=3)
    return f"; did you mean {', '.join(map(repr, close))}?" if close else ""


__all__ = ["Position"]
