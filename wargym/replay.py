"""Replays: one recorded game as JSON, and playing it back exactly.

A replay record (``replay.json``)::

    {
      "format": 1, "wargym": "0.1.0",
      "ruleset": "island_war", "scenario": "saipan", "seed": 0, "decisions": "major",
      "agents": {"us": "rule", "japan": "rule"},
      "initial": core.to_dict(state0, 0),       the game before the first decision
      "actions": [17, 402, ...],                one int per decision, in order
      "action_text": ["select 0512 ...", ...],  each action in words, beside its number
      "events": [[{"kind", "rule", "args", "text"}, ...], ...],   what the rules did after each
                                                action (wargym.events), in order
      "final":   core.to_dict(final, 0),        the game after the last action
      "summary": core.summary(final, 0)         plain facts for people (not checked)
    }

``load_replay(path)`` rebuilds the core, restores ``initial`` with ``from_dict``, steps the
actions and checks that the result equals ``final`` field by field; any difference (or an action
the rules refuse) raises ``ReplayError`` naming the file, the step and the field.  The ``seed`` is
informational: the game is replayed from ``initial``, never re-dealt.  The core's rule
``options`` are recorded with the game.

``action_text[i]`` is ``core.describe_action(actions[i], state, 0)`` of the game before decision i
(``describe_as_decider``: the words its decider chose it by), so a reader (the HTML viewer,
wargym.viewer) need not replay the game to say what happened.  It is for people and is not
checked against the actions; a replay without it (older files) loads as before.

``events[i]`` is the event log of decision i (``core.step_logged``, written by ``core.events_for``):
the dice thrown and for what, the results, losses, retreats, with their rules, each with its text.

A replay saved for a player (``save_replay(record, path, viewer="us")``) holds only what that
player may know (wargym.hidden): ``initial`` and ``final`` are that player's views
(``core.view``: no dice key, no hidden chit, face-down counters relabelled), ``players`` says who
made each decision and ``actions`` keeps the player's own, null for the others' (and so does
``action_text``: the other side's choice in words would tell what its number hides); ``events``
are the events as that player reads them (``core.events_for``).  It is a record to show a player,
not to play back: ``load_replay`` refuses it.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

import numpy as np

from wargym import atomic
from wargym.core import BaseState, IllegalActionError

REPLAY_FORMAT = 1
REQUIRED_KEYS = ("ruleset", "scenario", "initial", "actions", "final")


class ReplayError(ValueError):
    """A replay file that cannot be read or does not play back to its recorded end."""


def make_core_for(ruleset: str, scenario: str | None, decisions: str | None = None,
                  options: Mapping[str, Any] | None = None):
    """The core of a recorded game: its ruleset, scenario, decision mode and rule options."""
    from wargym.registry import make_core

    kwargs = dict(options or {})
    if decisions is not None:
        kwargs["decisions"] = decisions
    return make_core(ruleset, scenario, **kwargs)


@dataclass
class GameRecord:
    """One finished game: what ``play_game`` returns and ``Replay.record`` holds."""

    core: Any
    initial: BaseState
    actions: list[int]
    final: BaseState
    seconds: float = 0.0
    meta: dict[str, Any] = field(default_factory=dict)
    players: list[int] = field(default_factory=list)  # who made each decision
    #: each action in words (``describe_as_decider``), beside its number; worked out from the
    #: actions when a record was made without it (``wargym eval`` builds its records from arrays)
    action_text: list[str] = field(default_factory=list)
    #: the event log of each decision, raw (``core.step_logged``); worked out like ``action_text``
    events: list[list[dict[str, Any]]] = field(default_factory=list)

    def texts(self) -> list[str]:
        """``action_text``, worked out by replaying the actions when it was not recorded."""
        if len(self.action_text) != len(self.actions):
            self.action_text = action_texts(self.core, self.initial, self.actions)
        return self.action_text

    def events_for(self, viewer: int | None = None) -> list[list[dict[str, Any]]]:
        """The events of every decision as player ``viewer`` reads them (None: all of them),
        replaying the game for the positions after each (and for the raw log when not recorded)."""
        core, state = self.core, self.initial
        record = len(self.events) != len(self.actions)
        raw = [] if record else self.events
        out = []
        for i, a in enumerate(self.actions):
            if record:
                state, log = core.step_logged(state, np.array([a], dtype=np.int64))
                raw.append(log[0])
            else:
                state = core.step(state, np.array([a], dtype=np.int64))
            out.append(core.events_for(raw[i], state, 0, viewer))
        self.events = raw
        return out

    def to_json(self, viewer: str | None = None) -> dict[str, Any]:
        """The replay record; with ``viewer`` (a player), only what that player may know."""
        from wargym import __version__

        core = self.core
        head = {"format": REPLAY_FORMAT, "wargym": __version__, **self.meta, "options": dict(core.options)}
        if viewer is None:
            return {**head, "initial": core.to_dict(self.initial, 0), "actions": [int(a) for a in self.actions],
                    "action_text": list(self.texts()), "events": self.events_for(None),
                    "final": core.to_dict(self.final, 0), "summary": core.summary(self.final, 0)}
        if viewer not in core.players:
            raise ValueError(f"viewer {viewer!r} is not a player of {core.name}: {core.players}")
        p = core.players.index(viewer)
        return {**head, "viewer": viewer, "initial": core.to_dict(core.view(self.initial, p), 0),
                "players": [core.players[q] for q in self.players],
                "actions": [int(a) if q == p else None for a, q in zip(self.actions, self.players)],
                "action_text": [t if q == p else None for t, q in zip(self.texts(), self.players)],
                "events": self.events_for(p),
                "final": core.to_dict(core.view(self.final, p), 0), "summary": core.summary(self.final, 0, viewer=p)}


def describe_as_decider(core, state: BaseState, action: int) -> str:
    """``action`` in words, in the decision context of ``state`` (batch of 1, the game before the
    action): the words its decider chose it by.  A ruleset's ``describe_action`` reads only that
    context (the phase, the hex, a counter the decider can see), so the words are the same on the
    decider's view (``core.view``), which tests/test_viewer.py checks; the view itself is not taken
    here, as it costs more than the rules (Attu: 4.5 ms a decision, five times a whole game)."""
    return core.describe_action(int(action), state, 0)


def action_texts(core, initial: BaseState, actions: Sequence[int]) -> list[str]:
    """Every action of a game in words (``describe_as_decider``), replaying it from ``initial``."""
    texts, state = [], initial
    for a in actions:
        texts.append(describe_as_decider(core, state, a))
        state = core.step(state, np.array([a], dtype=np.int64))
    return texts


def play_game(core, agents: Sequence[Any], seed: int = 0, meta: Mapping[str, Any] | None = None,
              on_step: Callable[[BaseState], None] | None = None) -> GameRecord:
    """Play one game (batch of 1) to its end, ``agents[i]`` deciding for player i; the state is
    ``core.init(1, seed)``.  ``on_step(state)`` is called after every decision (progress bars)."""
    if len(agents) != len(core.players):
        raise ValueError(f"need one agent per player {core.players}, got {len(agents)}")
    start = time.perf_counter()
    state = core.init(1, seed)
    initial = state
    actions: list[int] = []
    players: list[int] = []
    texts: list[str] = []
    events: list[list[dict[str, Any]]] = []
    while not (core.terminated(state)[0] or core.truncated(state)[0]):
        player = int(core.current_player(state)[0])
        action = int(np.asarray(agents[player].act(core, state, player))[0])
        texts.append(describe_as_decider(core, state, action))
        state, log = core.step_logged(state, np.array([action], dtype=np.int64))
        events.append(log[0])
        actions.append(action)
        players.append(player)
        if on_step is not None:
            on_step(state)
    return GameRecord(core, initial, actions, state, time.perf_counter() - start, dict(meta or {}), players, texts,
                      events)


def save_replay(record: GameRecord | Mapping[str, Any], path: str | Path, viewer: str | None = None) -> Path:
    """Write a replay (a GameRecord or a replay record); with ``viewer``, the replay saved for that
    player (module docstring).  The file is written whole or not at all (wargym.atomic)."""
    data = record.to_json(viewer) if isinstance(record, GameRecord) else dict(record)
    return atomic.write_text(path, json.dumps(data, separators=(",", ":")) + "\n")


@dataclass
class Replay:
    """A loaded, verified replay: ``core``, the ``initial`` and ``final`` states (batch of 1), the
    ``actions`` and the raw ``record``.  ``states()`` yields the game after 0, 1, ... decisions."""

    core: Any
    initial: BaseState
    actions: list[int]
    final: BaseState
    record: dict[str, Any]

    @property
    def action_text(self) -> list[str] | None:
        """The recorded actions in words (module docstring); None for a replay written without."""
        return self.record.get("action_text")

    def logged_states(self) -> Iterator[tuple[BaseState, list[dict[str, Any]]]]:
        """(the game after 0, 1, ... decisions, the raw events of the decision that led to it;
        none for the first)."""
        state = self.initial
        yield state, []
        for a in self.actions:
            state, log = self.core.step_logged(state, np.array([a], dtype=np.int64))
            yield state, log[0]

    def states(self) -> Iterator[BaseState]:
        state = self.initial
        yield state
        for a in self.actions:
            state = self.core.step(state, np.array([a], dtype=np.int64))
            yield state

    def state_at(self, step: int) -> BaseState:
        """The game after ``step`` decisions (negative counts from the end, -1 = final)."""
        n = len(self.actions)
        if step < 0:
            step += n + 1
        if not 0 <= step <= n:
            raise ReplayError(f"step must be in [0, {n}] (or -{n + 1}..-1), got {step}")
        if step == n:
            return self.final
        for i, state in enumerate(self.states()):
            if i == step:
                return state
        raise AssertionError("unreachable")


def _read(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ReplayError(f"{path}: no such replay file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise ReplayError(f"{path}: cannot read: {err}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ReplayError(f"{path}: not a replay (invalid JSON at line {err.lineno}: {err.msg})") from None
    if not isinstance(data, dict):
        raise ReplayError(f"{path}: not a replay (expected a JSON object, got {type(data).__name__})")
    missing = [k for k in REQUIRED_KEYS if k not in data]
    if missing:
        raise ReplayError(f"{path}: not a replay: missing {', '.join(missing)}")
    if data.get("viewer"):
        raise ReplayError(f"{path}: a replay saved for {data['viewer']}: it holds that player's view only "
                          "and cannot be played back")
    if data.get("format", REPLAY_FORMAT) != REPLAY_FORMAT:
        raise ReplayError(f"{path}: replay format {data.get('format')!r}, this wargym reads {REPLAY_FORMAT}")
    if not isinstance(data["actions"], list) or not all(isinstance(a, int) for a in data["actions"]):
        raise ReplayError(f"{path}: 'actions' must be a list of integers")
    text = data.get("action_text")
    if text is not None and not (isinstance(text, list) and len(text) == len(data["actions"])
                                 and all(isinstance(t, str) for t in text)):
        raise ReplayError(f"{path}: 'action_text' must be a list of strings, one per action")
    return data


def _first_difference(got: dict, want: dict) -> str:
    gf, wf = got.get("fields", {}), want.get("fields", {})
    for name in sorted(set(gf) | set(wf)):
        if gf.get(name) != wf.get(name):
            g, w = gf.get(name, {}).get("value"), wf.get(name, {}).get("value")
            return f"field {name!r}: replayed {g!r}, recorded {w!r}"
    for key in sorted(set(got) | set(want)):
        if key != "fields" and got.get(key) != want.get(key):
            return f"{key!r}: replayed {got.get(key)!r}, recorded {want.get(key)!r}"
    return "records differ"


def load_replay(path: str | Path) -> Replay:
    """Read ``path``, re-play its actions from its initial state and check the final state matches
    the recorded one exactly; ``ReplayError`` otherwise."""
    path = Path(path)
    data = _read(path)
    try:
        core = make_core_for(data["ruleset"], data["scenario"], data.get("decisions"), data.get("options"))
    except Exception as err:  # unknown ruleset / scenario / option: say which file asked for it
        raise ReplayError(f"{path}: cannot build the game it records: {err}") from err
    try:
        initial = core.from_dict(data["initial"])
        recorded_final = core.from_dict(data["final"])
    except (ValueError, KeyError, TypeError) as err:
        raise ReplayError(f"{path}: bad state record: {err}") from err
    state = initial
    for i, a in enumerate(data["actions"]):
        if core.terminated(state)[0] or core.truncated(state)[0]:
            raise ReplayError(f"{path}: step {i}: the game is already over, yet "
                              f"{len(data['actions']) - i} more action(s) are recorded")
        try:
            state = core.step(state, np.array([a], dtype=np.int64))
        except IllegalActionError as err:
            raise ReplayError(f"{path}: step {i}: the recorded action is refused: {err.reason} "
                              f"({core.describe_action(a, state, 0)})") from err
    got, want = core.to_dict(state, 0), core.to_dict(recorded_final, 0)
    if got != want:
        raise ReplayError(f"{path}: replaying {len(data['actions'])} actions does not reach the recorded final "
                          f"state: {_first_difference(got, want)}")
    return Replay(core, initial, list(data["actions"]), state, data)
