"""The event log: what the rules did in a step, in order, as structured records a side may read.

A ruleset's kernels report what happens as it happens (``emit``): a die thrown and for what, a card
drawn or revealed, hits, losses, retreats, reveals, a hex changing hands, victory points, each with
the rule that does it.  Nothing is recorded unless asked for (``core.step_logged``): every ``emit``
costs one test of a flag when the log is off, and the log's buffer is not part of the state (it
is handed to the kernels beside it, ``EVENT_FIELDS`` of the state struct).

A ruleset declares its kinds once (``EventKind``), in the order of their codes::

    KINDS = (
        EventKind("die", "6.31", (("value", "int"), ("for", "purpose")), "{for}: a die, {value}"),
        EventKind("loss", "7.4", (("unit", "unit"), ("steps", "int")), "{unit} loses {steps} step(s)"),
    )
    DIE, LOSS = 0, 1                          # the codes the kernels emit

    emit(S, g, LOSS, u, 1)                    # in a rules function of game g

An argument's type says how it reads and what a player may not see of it:

    int      a number                           hex      a hex (its label; -1: none)
    side     a player (its name)                unit     a piece on the "U" axis
    card     a card on the "C" axis             purpose  a code into the ruleset's ``event_purposes``
    result   a code into the ruleset's ``event_results``   (what a die was thrown for; a result)
    item:X   an item of the state's axis X (Peleliu's Japanese units "item:J", its markers "item:D"),
             hidden like a unit or a card; the ruleset reads it (``core.event_value``)
    other    any other name: the ruleset reads it (``core.event_value``: a CRT column, a track box)

An item (``unit``, ``card``) that the viewer may not identify in the position after the step (the
ruleset's ``Anonymous`` declarations, wargym.hidden) is written for that viewer as ``None`` and
read as "a unit it cannot see" / "a card"; an argument whose type is named in the kind's ``secret``
(a chit's value the rules keep from a side) is ``None`` for the players it names.  So what a side
reads of an event is a function of the event's public arguments and of what the side may see after
the step: the contract's leak test checks it (wargym.contract ``events_stay_hidden``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from wargym.jit import njit

EVENT_FIELDS = ("ev_on", "ev_n", "ev")     # the log's arrays in the kernels' state struct
ARGS = 6                                   # arguments an event carries
WIDTH = ARGS + 2                           # a record: game, kind, arguments
CAPACITY = 1 << 14                         # records one logged step holds (all games together)
TYPES = ("int", "hex", "side", "unit", "card", "purpose", "result")   # and the ruleset's own (event_value)


def off() -> dict[str, np.ndarray]:
    """The arrays of a log that is off: ``emit`` writes nothing."""
    return {"ev_on": np.zeros(1, np.bool_), "ev_n": np.zeros(1, np.int64), "ev": np.zeros((1, WIDTH), np.int32)}


OFF = off()


def buffer(capacity: int = CAPACITY) -> dict[str, np.ndarray]:
    """The arrays of a log that records (``capacity`` events, all games of a step together)."""
    return {"ev_on": np.ones(1, np.bool_), "ev_n": np.zeros(1, np.int64), "ev": np.zeros((capacity, WIDTH), np.int32)}


@njit(cache=True)
def emit(S, g, kind, a0=0, a1=0, a2=0, a3=0, a4=0, a5=0):
    """Record event ``kind`` of game g with its arguments, when the log is on; past the buffer's
    end only the count grows (the caller reports the overflow)."""
    if not S.ev_on[0]:
        return
    n = S.ev_n[0]
    S.ev_n[0] = n + 1
    if n >= S.ev.shape[0]:
        return
    S.ev[n, 0] = g
    S.ev[n, 1] = kind
    S.ev[n, 2] = a0
    S.ev[n, 3] = a1
    S.ev[n, 4] = a2
    S.ev[n, 5] = a3
    S.ev[n, 6] = a4
    S.ev[n, 7] = a5


@dataclass(frozen=True)
class EventKind:
    """One kind of event: its name, the rule that produces it, its arguments ((name, type), ...),
    the template its text is written from, and ``secret``: {argument name: the players who may not
    see its value} beyond what the hidden-information declaration hides."""

    name: str
    rule: str
    args: tuple[tuple[str, str], ...]
    text: str
    secret: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def __post_init__(self):
        if len(self.args) > ARGS:
            raise ValueError(f"event {self.name!r}: at most {ARGS} arguments, got {len(self.args)}")


def decode(core, ev: np.ndarray, count: int, batch: int) -> list[list[dict[str, Any]]]:
    """The raw records of a logged step, per game, in order: {"kind", "rule", "args"} with every
    argument's value as the kernels gave it (items as their numbers)."""
    if count > len(ev):
        raise RuntimeError(f"{core.name}: a step logged {count} events, more than the log holds ({len(ev)}): "
                           f"step fewer games at once with events on")
    kinds = core.event_kinds
    out: list[list[dict[str, Any]]] = [[] for _ in range(batch)]
    for g, k, *args in ev[:count].tolist():
        kind = kinds[k]
        out[g].append({"kind": kind.name, "rule": kind.rule,
                       "args": {name: value for (name, _), value in zip(kind.args, args)}})
    return out


def hidden_items(core, state, game: int, viewer: int | None, axis: str) -> np.ndarray | None:
    """bool[N]: the items of ``axis`` that ``viewer`` may not identify in game ``game`` of
    ``state`` (None: every item is known, the whole truth or nothing hidden on that axis)."""
    from wargym.hidden import Anonymous, declarations

    if viewer is None:
        return None
    unseen = None
    for decl in declarations(core, viewer):
        if isinstance(decl, Anonymous) and decl.axis == axis:
            who = np.asarray(decl.who(core, state, viewer), dtype=bool)[game]
            unseen = who if unseen is None else unseen | who
    return unseen


AXES = {"unit": "U", "card": "C"}


def axis_of(typ: str) -> str | None:
    """The state axis whose items an argument of type ``typ`` names (None: not an item)."""
    return typ[5:] if typ.startswith("item:") else AXES.get(typ)


def for_viewer(core, events: list[dict[str, Any]], state, game: int, viewer: int | None) -> list[dict[str, Any]]:
    """The events of game ``game`` as ``viewer`` may read them after the step (``state``: the
    position after it), each with its ``text``: an item the viewer may not identify is None, and
    so is a ``secret`` argument; ``viewer`` None: the whole truth."""
    kinds = {k.name: k for k in core.event_kinds}
    unseen: dict[str, np.ndarray | None] = {}
    name = None if viewer is None else core.players[viewer]
    out = []
    for event in events:
        kind = kinds[event["kind"]]
        args = dict(event["args"])
        for arg, typ in kind.args:
            axis = axis_of(typ)
            if axis is not None and axis not in unseen:
                unseen[axis] = hidden_items(core, state, game, viewer, axis)
            hidden = unseen.get(axis) if axis is not None else None
            value = args[arg]
            if hidden is not None and value is not None and 0 <= value < len(hidden) and hidden[value]:
                args[arg] = None
            if name is not None and name in kind.secret.get(arg, ()):
                args[arg] = None
        out.append({"kind": kind.name, "rule": kind.rule, "args": args,
                    "text": f"{kind.text.format(**{a: read(core, t, args[a]) for a, t in kind.args})} ({kind.rule})"})
    return out


def read(core, typ: str, value) -> str:
    """An argument in words."""
    if value is None:
        return {"unit": "a unit it cannot see", "card": "a card"}.get(typ, "an unseen counter" if typ.startswith("item:")
                                                                       else "?")
    if typ == "hex":
        return "off the map" if value < 0 else core.grid.label(int(value))
    if typ == "side":
        return core.players[int(value)] if 0 <= value < len(core.players) else "nobody"
    if typ == "unit":
        return core.event_unit(int(value))
    if typ == "card":
        return core.event_card(int(value))
    if typ == "purpose":
        return core.event_purposes[int(value)]
    if typ == "result":
        return core.event_results[int(value)]
    if typ == "int":
        return str(value)
    return core.event_value(typ, int(value))


__all__ = ["EVENT_FIELDS", "EventKind", "emit", "decode", "for_viewer", "off", "buffer", "read", "hidden_items", "axis_of"]
