"""The Core protocol: B games of one ruleset stepped at once, and the base every ruleset builds on.

A ruleset subclasses ``BaseCore`` (or ``wargym.kernel.KernelCore`` for numba rules) and writes its
rules and data; everything every game shares lives here once:

* the state's fields, declared with ``wargym.schema.var`` (dtype, shape, start, range), and new
  games built from the declaration;
* validating actions against the legal mask (``IllegalActionError`` names the game, the action
  and why it is masked; the input state is never modified), the no-op on finished games,
  auto-reset of finished games (``reset_done``);
* records of one game (``to_dict`` / ``from_dict``, exact round trip), with a record from outside
  checked field by field, against the ruleset's invariants and against the legal mask the rules
  give its position before any kernel steps it;
* hidden information (``hidden``, ``view``; wargym.hidden) and forced dice and cards for tests
  (``force``; wargym.rng);
* rewards +1 win / -1 loss / 0 draw, written by the ruleset when a game ends; ``score`` measures
  the standing in between, for shaped rewards.

State fields every game has first (``BaseState``)::

    current_player     int8[B]        index into Core.players of who decides next
    legal_action_mask  bool[B, A]     what that player may do now (kept in the state, as Pgx does)
    terminated         bool[B]        game over by the rules
    truncated          bool[B]        stopped by a decision limit
    rewards            float32[B, P]  final result (+1/-1/0), 0 while running
    turn               int16[B]       game turn
    phase              int8[B]        the decision in progress, an index into Core.phase_names
    rng_key/counter    uint64[B, 2]/uint32  per-game dice (wargym.rng)
    forced, forced_n   int16[B, Q]    values a test forced for the next dice and cards (wargym.rng)
    forced_pick(_n)    int16[B, Q]    ... and for the next random picks (a cup, a shuffle: rng.uniform)
"""

from __future__ import annotations

import dataclasses
import functools
import json
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar, Mapping, Protocol, runtime_checkable

import numpy as np

from wargym import events as events_mod
from wargym import hidden as hidden_info
from wargym import schema
from wargym.rng import FORCED_MAX, KEY_WORDS, game_keys
from wargym.schema import var

RECORD_FORMAT = 3   # 3: rng_key is two words (wargym.rng); a format-2 record is read as (key, 0)
RENDER_MODES = ("ansi", "rgb_array")


class IllegalActionError(ValueError):
    """An action that is masked out for the player to move."""

    def __init__(self, game: int, action: int, reason: str):
        self.game, self.action, self.reason = game, action, reason
        super().__init__(f"game {game}: action {action} is illegal: {reason}")


class RecordError(ValueError):
    """A state record that this core cannot take: the message names the field, game and value."""


@dataclass(frozen=True)
class BaseState:
    current_player: np.ndarray = var("int8", low=0, high="P-1")
    legal_action_mask: np.ndarray = var("bool", ("A",))
    terminated: np.ndarray = var("bool")
    truncated: np.ndarray = var("bool")
    rewards: np.ndarray = var("float32", ("P",), low=-1, high=1)
    turn: np.ndarray = var("int16", init=1, low=0, high="TURNS", grows=True)
    phase: np.ndarray = var("int8", low=0, high="PHASES-1")
    rng_key: np.ndarray = var("uint64", (KEY_WORDS,))
    rng_counter: np.ndarray = var("uint32", grows=True)
    forced: np.ndarray = var("int16", ("Q",), low=0)
    forced_n: np.ndarray = var("int8", low=0, high="Q")
    forced_pick: np.ndarray = var("int16", ("Q",), low=0)
    forced_pick_n: np.ndarray = var("int8", low=0, high="Q")

    @property
    def batch_size(self) -> int:
        return int(self.current_player.shape[0])

    def copy(self) -> "BaseState":
        return dataclasses.replace(self, **{f.name: getattr(self, f.name).copy() for f in dataclasses.fields(self)})

    def take(self, games) -> "BaseState":
        """The sub-batch of games ``games`` (an index array or slice)."""
        return dataclasses.replace(self, **{f.name: getattr(self, f.name)[games].copy()
                                            for f in dataclasses.fields(self)})

    def arrays(self) -> dict[str, np.ndarray]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}


def stack_states(states: list[BaseState]) -> BaseState:
    """Concatenate states of the same ruleset along the batch axis."""
    first = states[0]
    return dataclasses.replace(first, **{f.name: np.concatenate([getattr(s, f.name) for s in states])
                                         for f in dataclasses.fields(first)})


def put_games(old: BaseState, games: np.ndarray, fresh: BaseState) -> BaseState:
    """A copy of ``old`` whose games ``games`` (indices) are the games of ``fresh``, in order."""
    out = {}
    for f in dataclasses.fields(old):
        a = getattr(old, f.name).copy()
        a[games] = getattr(fresh, f.name)
        out[f.name] = a
    return dataclasses.replace(old, **out)


@dataclass(frozen=True)
class SystemPlay:
    """The book's own system plays ``sides`` (Attu's solitaire rules, 13.0; Peleliu's cards).

    ``option``: the core option that turns it on (None: always on, the side is then not one of the
    core's players).  ``agent``: the agent spec that makes the decisions the system leaves to the
    side (Attu: "rule:solitaire", the section-13 player), None when the core makes them all."""

    sides: tuple[str, ...]
    option: str | None = None
    agent: str | None = None


class Scenario(Protocol):
    """What every ruleset's loaded scenario tells (the rest is the ruleset's own)."""

    name: str
    title: str
    facts: str        # one line: turns, map size, units
    grid: Any         # the wargym.hexgrid.HexGrid whose hexes the actions [0, grid.size) point at


@runtime_checkable
class Core(Protocol):
    """Everything the envs, agents, CLI and bot protocol use of a core (BaseCore implements it)."""

    name: str
    players: tuple[str, ...]
    num_actions: int
    phase_names: tuple[str, ...]
    scenario: Scenario
    options: dict[str, Any]                # rule options (recorded with every state)
    decisions: str                         # "full" or "major" (wargym.core DECISION_MODES)
    hidden: tuple[hidden_info.Declaration, ...]
    system_play: SystemPlay | None
    observation_shapes: dict[str, tuple[int, ...]]
    observation_bounds: dict[str, tuple[float, float]]
    state_class: type

    @classmethod
    def scenario_names(cls) -> list[str]: ...
    @classmethod
    def load_scenario(cls, name: str) -> Scenario: ...
    @property
    def grid(self) -> Any: ...
    def init(self, batch_size: int, seed: int = 0) -> BaseState: ...
    def legal_mask(self, state: BaseState) -> np.ndarray: ...
    def step(self, state: BaseState, actions: np.ndarray, active: np.ndarray | None = None) -> BaseState: ...
    def step_in_place(self, state: BaseState, actions: np.ndarray, active: np.ndarray | None = None) -> None: ...
    def reset_done(self, state: BaseState, seed: int, episode: np.ndarray | None = None) -> BaseState: ...
    def reset_done_in_place(self, state: BaseState, seed: int, episode: np.ndarray | None = None) -> None: ...
    def current_player(self, state: BaseState) -> np.ndarray: ...
    def terminated(self, state: BaseState) -> np.ndarray: ...
    def truncated(self, state: BaseState) -> np.ndarray: ...
    def rewards(self, state: BaseState) -> np.ndarray: ...
    def observe(self, state: BaseState, player: int) -> dict[str, np.ndarray]: ...
    def score(self, state: BaseState) -> np.ndarray | None: ...
    def summary(self, state: BaseState, game: int = 0, viewer: int | None = None) -> dict[str, Any]: ...
    def describe_action(self, action: int, state: BaseState | None = None, game: int = 0,
                        viewer: int | None = None) -> str: ...
    def describe_actions(self, actions, state: BaseState | None = None, game: int = 0,
                         viewer: int | None = None) -> list[str]: ...
    def why_illegal(self, state: BaseState, game: int, action: int, viewer: int | None = None) -> str: ...
    def illegal_texts(self, state: BaseState, game: int, actions, viewer: int | None = None) -> list[str]: ...
    def render(self, state: BaseState, game: int = 0, mode: str = "ansi", viewer: int | None = None) -> Any: ...
    def to_dict(self, state: BaseState, game: int) -> dict[str, Any]: ...
    def from_dict(self, records: dict | list[dict], *, allow_forced: bool = False) -> BaseState: ...
    def view(self, state: BaseState, viewer: int) -> BaseState: ...
    def sample_hidden(self, state: BaseState, viewer: int, seed, n: int, game: int = 0) -> BaseState: ...
    def refresh(self, state: BaseState) -> BaseState: ...
    def item_names(self) -> dict[str, list[str]]: ...
    def event_unit(self, u: int) -> str: ...
    def event_card(self, c: int) -> str: ...
    def event_value(self, typ: str, value: int) -> str: ...
    def force(self, state: BaseState, values=(), games=None, picks=None) -> BaseState: ...
    def settle(self, state: BaseState) -> BaseState: ...
    def step_logged(self, state: BaseState, actions, active: np.ndarray | None = None
                    ) -> tuple[BaseState, list[list[dict[str, Any]]]]: ...
    def events_for(self, logged: list[dict[str, Any]], state: BaseState, game: int = 0,
                   viewer: int | None = None) -> list[dict[str, Any]]: ...
    def special_hexes(self) -> np.ndarray | None: ...
    def special_hex_inputs(self) -> np.ndarray | None: ...


DECISION_MODES = ("full", "major")


class BaseCore(ABC):
    """Shared machinery; a ruleset provides ``_init``, ``_step``, ``_observe``, ``_legal`` (or uses
    ``wargym.kernel.KernelCore``, which provides them from its kernels), ``describe_action``,
    ``observation_shapes``, ``_dims`` and the class attributes below."""

    name: ClassVar[str]
    state_class: ClassVar[type]
    phase_names: ClassVar[tuple[str, ...]]
    #: what each player may not see (wargym.hidden); the dice and other players' options are added
    hidden: ClassVar[tuple[hidden_info.Declaration, ...]] = ()
    system_play: ClassVar[SystemPlay | None] = None
    #: value bounds of each observation array, {"spatial": (low, high), ...}
    observation_bounds: ClassVar[dict[str, tuple[float, float]]] = {}

    players: tuple[str, ...]
    num_actions: int
    scenario: Any
    options: dict[str, Any] = {}
    decisions: str = "full"
    #: stop at every decision, one with a single legal action too (a core option of every ruleset:
    #: a position laid out by hand then waits where the rules ask, instead of playing on)
    every_decision: bool = False
    #: the event log (wargym.events): the ruleset's kinds in the order of their codes, and the
    #: words of its "purpose" and "result" arguments
    event_kinds: ClassVar[tuple] = ()
    event_purposes: ClassVar[tuple[str, ...]] = ()
    event_results: ClassVar[tuple[str, ...]] = ()
    #: named constants of the coded values of the state's fields {field: {name: value}} (the
    #: position API: wargym.position)
    codes: ClassVar[dict[str, dict[str, int]]] = {}

    @classmethod
    @abstractmethod
    def scenario_names(cls) -> list[str]:
        """The scenarios the ruleset ships (configs/<ruleset>/)."""

    @classmethod
    @abstractmethod
    def load_scenario(cls, name: str) -> Any:
        """A shipped scenario by name, or a scenario file of one's own by path."""

    @property
    def grid(self) -> Any:
        """The hex grid of the map: actions [0, grid.size) point at its hexes."""
        return self.scenario.grid

    # -- what a ruleset writes -------------------------------------------------------------------
    @abstractmethod
    def _init(self, keys: np.ndarray) -> BaseState:
        """New games, one per key (uint64[B, 2], wargym.rng), each at its first decision."""

    @abstractmethod
    def _step(self, state: BaseState, actions: np.ndarray) -> BaseState:
        """Advance every game whose action is >= 0 by that (checked, legal) action; games with
        action -1 stay unchanged.  Must not modify ``state``."""

    @abstractmethod
    def _observe(self, state: BaseState, player: int) -> dict[str, np.ndarray]:
        """{"spatial": float32[B, C, rows, cols], "global": float32[B, G]} seen by ``player``."""

    @abstractmethod
    def _legal(self, state: BaseState) -> tuple[np.ndarray, np.ndarray]:
        """(legal masks bool[B, A], players to decide int8[B]) of the positions as they stand, by
        the rules: what ``from_dict`` checks a record against and ``refresh`` writes."""

    @abstractmethod
    def _describe(self, action: int, state: BaseState | None, game: int, viewer: int | None) -> str:
        """Readable description of ``action`` (in the decision context of ``game`` if given).
        ``viewer`` None: the words of the decider, from the whole game.  Otherwise ``state`` is
        already ``viewer``'s view (``describe_actions`` takes it), where what the player may not
        know is a stand-in: the words must not name a stand-in as if it were a fact (World at
        War: a card in a hand the viewer cannot see)."""

    @property
    @abstractmethod
    def observation_shapes(self) -> dict[str, tuple[int, ...]]:
        """Per-game shapes of the arrays ``observe`` returns, e.g. {"spatial": (C, R, Q), "global": (G,)}."""

    def _dims(self) -> dict[str, int]:
        """The ruleset's dimensions named in its state declaration ("U" units, "H" hexes, ...)."""
        return {}

    def check_state(self, state: BaseState) -> list[str]:
        """The ruleset's invariants no single field states (a unit's hex and its location agree,
        a queue's entries are units ..., and whether the game is over agrees with its position):
        one message per broken one, naming game and field."""
        return []

    def check_outcome(self, state: BaseState) -> list[str]:
        """What every ruleset's games hold of their end (from_dict and the contract's fuzz check
        it; the ruleset's ``check_state`` adds whether its position agrees): a game is never both
        terminated and truncated; a running game has legal actions, a finished one none; rewards
        are 0 while a game runs and in a game cut short (which has no result), and in a finished
        game -1, 0 or +1, zero-sum between two players; a game is truncated only where the rules
        allow it (``_cut_short``: the decision cap reached, or a dead end: a position where the
        rules give no legal action).  One message per broken rule, naming field, game and value."""
        errors: list[str] = []
        over, cut = state.terminated, state.truncated
        live = ~(over | cut)
        mask = state.legal_action_mask

        def first(bad: np.ndarray, message) -> None:
            if bad.any():
                errors.append(message(int(np.argmax(bad))))

        first(over & cut, lambda g: f"field truncated: game {g} is both terminated and truncated")
        first(live & ~mask.any(axis=1), lambda g: f"field legal_action_mask: game {g} is running but has no legal action")
        first(~live & mask.any(axis=1), lambda g: f"field legal_action_mask: game {g} is over but has legal actions")
        rewards = state.rewards
        first(~over & (rewards != 0).any(axis=1),
              lambda g: f"field rewards: game {g} has {rewards[g].tolist()} but is "
                        f"{'cut short' if cut[g] else 'running'}: rewards come only with a result")
        first(over & ~np.isin(rewards, (-1.0, 0.0, 1.0)).all(axis=1),
              lambda g: f"field rewards: game {g} ended with {rewards[g].tolist()}, not -1, 0 or +1 each")
        if rewards.shape[1] == 2:
            first(over & (rewards.sum(axis=1) != 0),
                  lambda g: f"field rewards: game {g} ended with {rewards[g].tolist()}, not zero-sum")
        suspect = cut & ~over & ~self._cut_short(state)
        if suspect.any():  # truncated below the cap: only a dead end allows it
            games = np.flatnonzero(suspect)
            probe = state.take(games)
            probe.truncated[:] = False
            masks, _ = self._legal(probe)
            first(np.isin(np.arange(state.batch_size), games[masks.any(axis=1)]),
                  lambda g: f"field truncated: game {g} is truncated, but it is below the decision cap and "
                            f"the rules give its position legal actions")
        return errors

    def _cut_short(self, state: BaseState) -> np.ndarray:
        """bool[B]: games the rules may truncate whatever their position (a decision cap reached);
        elsewhere only a dead end truncates."""
        return np.zeros(state.batch_size, dtype=bool)

    def score(self, state: BaseState) -> np.ndarray | None:
        """float[B, P]: how well each player stands by the rules' own measure (victory points and
        the like), for the envs' optional shaped reward; None where a ruleset has no such measure."""
        return None

    def summary(self, state: BaseState, game: int = 0, viewer: int | None = None) -> dict[str, Any]:
        """Plain facts of one game for logs, the CLI and the bot protocol; with ``viewer``, only
        what that player may know (a ruleset reads its facts from ``self.viewed``)."""
        s, g = self.viewed(state, game, viewer)
        return {"turn": int(s.turn[g]), "phase": self.phase_names[int(s.phase[g])],
                "terminated": bool(s.terminated[g]), "truncated": bool(s.truncated[g]),
                "rewards": dict(zip(self.players, s.rewards[g].tolist()))}

    def viewed(self, state: BaseState, game: int, viewer: int | None) -> tuple[BaseState, int]:
        """(state, game) to read one game's facts from: the whole truth for ``viewer`` None, else
        that player's view of it (``view``) as a batch of one."""
        if viewer is None:
            return state, game
        return self.view(state.take([game]), viewer), 0

    def special_hexes(self) -> np.ndarray | None:
        """int64[specials]: the hex a special action stands for (-1 none), for hex-pointer
        policies; None for a ruleset whose specials stand for no hex."""
        return None

    def special_hex_inputs(self) -> np.ndarray | None:
        """int64[specials]: for a special action whose hex changes with the game (Peleliu: a unit's
        action, the unit's hex), the entry of the ``global`` observation that holds that hex as
        (plane position + 1) / planes, 0 for none; -1 for the other specials.  None for a ruleset
        without such actions.  For hex-pointer policies (agents/policy.py)."""
        return None

    # -- words for a player -----------------------------------------------------------------------
    # Every text a player receives (descriptions, why an action is refused) is written from what
    # that player may know: with ``viewer`` the words come from its view (``view``), so two games
    # that differ only in what it may not see give it the same words (the contract's leak test).
    def describe_action(self, action: int, state: BaseState | None = None, game: int = 0,
                        viewer: int | None = None) -> str:
        """``action`` in words, in the decision context of ``game`` when a state is given; with
        ``viewer``, as that player may read it."""
        return self.describe_actions([action], state, game, viewer)[0]

    def describe_actions(self, actions, state: BaseState | None = None, game: int = 0,
                         viewer: int | None = None) -> list[str]:
        """``describe_action`` of each of ``actions``, the viewer's view taken once."""
        if state is None:
            return [self._describe(int(a), None, game, None) for a in actions]
        state, game = self.viewed(state, game, viewer)
        return [self._describe(int(a), state, game, viewer) for a in actions]

    def why_illegal(self, state: BaseState, game: int, action: int, viewer: int | None = None) -> str:
        """Why an action is masked: the decision in progress and a sample of what is legal; with
        ``viewer``, as that player may know it (another player's options are not its to see)."""
        state, game = self.viewed(state, game, viewer)
        return self._why_illegal(state, game, viewer)

    def illegal_texts(self, state: BaseState, game: int, actions, viewer: int | None = None) -> list[str]:
        """"<the action in words>: <why it is masked>" for each of ``actions`` (the reason of an
        ``IllegalActionError``), as ``viewer`` may read it when given; the view taken once."""
        state, game = self.viewed(state, game, viewer)
        why = self._why_illegal(state, game, viewer)
        return [f"{self._describe(int(a), state, game, viewer)}: {why}" for a in actions]

    def _why_illegal(self, state: BaseState, game: int, viewer: int | None) -> str:
        if state.terminated[game] or state.truncated[game]:
            return "the game is over"
        phase = self.phase_names[int(state.phase[game])]
        decider = int(state.current_player[game])
        if viewer is not None and viewer != decider:
            return f"it is {self.players[decider]}'s decision ({phase}), not {self.players[viewer]}'s"
        legal = np.nonzero(state.legal_action_mask[game])[0]
        sample = ", ".join(self._describe(int(a), state, game, viewer) for a in legal[:6])
        more = f" (+{len(legal) - 6} more)" if len(legal) > 6 else ""
        return f"not allowed in phase '{phase}' for {self.players[decider]}; legal: {sample}{more}"

    # -- dimensions and new games ----------------------------------------------------------------
    @property
    def dims(self) -> dict[str, int]:
        """The sizes and limits the state declaration names: "P" players, "A" actions, "Q" the
        forced queue, "PHASES", "TURNS" (the last turn a game can reach: the int16 limit unless the
        ruleset knows a lower one) and the ruleset's own (``_dims``)."""
        return {"P": len(self.players), "A": self.num_actions, "Q": FORCED_MAX,
                "PHASES": len(self.phase_names), "TURNS": int(np.iinfo(np.int16).max), **self._dims()}

    def blank(self, keys: np.ndarray, **given: np.ndarray) -> BaseState:
        """Games with every field at its declared start (``given`` arrays override), keyed ``keys``:
        copies of one blank game made once per core (auto-resets ask for a few games at almost every
        step; building each field from its declaration every time cost ~2.4 ms a call for Peleliu)."""
        keys = np.asarray(keys, dtype=np.uint64)
        one = self.__dict__.get("_one_blank_game")
        if one is None:
            one = self._one_blank_game = schema.blank(self.state_class, self, 1, self.dims).arrays()
        n = len(keys)
        # the array method: np.repeat's function wrapper doubled the cost of this line (99 fields)
        fresh = {name: a.repeat(n, axis=0) for name, a in one.items() if name not in given}
        if "rng_key" not in given:
            fresh["rng_key"] = keys.copy()
        return schema.blank(self.state_class, self, n, self.dims, **fresh, **given)

    # -- the protocol ----------------------------------------------------------------------------
    def init(self, batch_size: int, seed: int = 0) -> BaseState:
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        return self._init(game_keys(seed, batch_size))

    def init_from_keys(self, keys: np.ndarray) -> BaseState:
        """New games dealt from explicit keys (uint64[B, 2]: ``wargym.rng.game_keys`` or
        ``wargym.rng.entropy_keys``, which the bot protocol's sessions use)."""
        keys = np.asarray(keys)
        if keys.ndim != 2 or keys.shape[1] != KEY_WORDS or keys.dtype != np.uint64 or not len(keys):
            raise ValueError(f"keys must be uint64[B, {KEY_WORDS}] with B >= 1, got {keys.dtype}{list(keys.shape)}")
        return self._init(keys)

    def legal_mask(self, state: BaseState) -> np.ndarray:
        return state.legal_action_mask

    def current_player(self, state: BaseState) -> np.ndarray:
        return state.current_player

    def terminated(self, state: BaseState) -> np.ndarray:
        return state.terminated

    def truncated(self, state: BaseState) -> np.ndarray:
        return state.truncated

    def rewards(self, state: BaseState) -> np.ndarray:
        return state.rewards

    def observe(self, state: BaseState, player: int) -> dict[str, np.ndarray]:
        if not 0 <= player < len(self.players):
            raise ValueError(f"player must be in 0..{len(self.players) - 1}, got {player}")
        obs = self._observe(state, player)
        for key, (low, high) in self.observation_bounds.items():
            np.clip(obs[key], low, high, out=obs[key])
        return obs

    def check_actions(self, state: BaseState, actions, active: np.ndarray | None = None) -> np.ndarray:
        """The actions as int64[B], -1 where a game is not stepped (finished, or not ``active``);
        IllegalActionError for the first masked action of a stepped game."""
        actions = np.asarray(actions)
        if actions.shape != (state.batch_size,):
            raise ValueError(f"actions must have shape ({state.batch_size},), got {actions.shape}")
        if not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(f"actions must be integers, got dtype {actions.dtype}")
        actions = actions.astype(np.int64)
        live = ~(state.terminated | state.truncated)
        if active is not None:
            live &= np.asarray(active, dtype=bool)
        out_of_range = live & ((actions < 0) | (actions >= self.num_actions))
        if out_of_range.any():
            g = int(np.argmax(out_of_range))
            raise IllegalActionError(g, int(actions[g]), f"outside the action space [0, {self.num_actions})")
        safe = np.clip(actions, 0, self.num_actions - 1)
        masked = live & ~state.legal_action_mask[np.arange(state.batch_size), safe]
        if masked.any():
            g = int(np.argmax(masked))
            a = int(actions[g])
            raise IllegalActionError(g, a, self.illegal_texts(state, g, [a])[0])
        return np.where(live, actions, -1)

    def step(self, state: BaseState, actions, active: np.ndarray | None = None) -> BaseState:
        """One decision in every game (or every game where ``active``); finished games and
        inactive games are left exactly as they are (their action is ignored)."""
        return self._step(state, self.check_actions(state, actions, active))

    def step_in_place(self, state: BaseState, actions, active: np.ndarray | None = None) -> None:
        """``step`` without the copy: ``state`` itself advances (loops that keep no history).  On
        an IllegalActionError ``state`` is unchanged."""
        self._step_in_place(state, self.check_actions(state, actions, active))

    def _step_in_place(self, state: BaseState, actions: np.ndarray) -> None:
        """The rules alone on checked ``actions``, in place (a ruleset may do it without a copy)."""
        new = self._step(state, actions)
        for f in dataclasses.fields(state):
            getattr(state, f.name)[...] = getattr(new, f.name)

    def reset_done(self, state: BaseState, seed: int, episode: np.ndarray | None = None) -> BaseState:
        """Replace finished games by new ones (auto-reset).  New game i gets key
        SeedSequence([seed, episode[i]]) so resets are reproducible."""
        done = state.terminated | state.truncated
        if not done.any():
            return state
        games = np.nonzero(done)[0]
        return put_games(state, games, self._new_games(games, seed, episode))  # only the new games are set up

    def reset_done_in_place(self, state: BaseState, seed: int, episode: np.ndarray | None = None) -> None:
        """``reset_done`` without the copy: the finished games of ``state`` itself are replaced
        (loops that keep no history, with ``step_in_place``)."""
        done = state.terminated | state.truncated
        if not done.any():
            return
        games = np.nonzero(done)[0]
        fresh = self._new_games(games, seed, episode)
        for f in dataclasses.fields(state):
            getattr(state, f.name)[games] = getattr(fresh, f.name)

    def _new_games(self, games: np.ndarray, seed: int, episode: np.ndarray | None) -> BaseState:
        """New games for the slots ``games``: game i keyed SeedSequence([seed, episode[i]])."""
        if episode is None:
            episode = np.arange(int(games.max()) + 1)
        keys = np.concatenate([game_keys(seed, 1, first_game=int(episode[g])) for g in games])
        return self._init(keys)

    def refresh(self, state: BaseState) -> BaseState:
        """``state`` with the legal masks and the players to decide worked out by the rules."""
        masks, players = self._legal(state)
        return dataclasses.replace(state, legal_action_mask=masks, current_player=players)

    def settle(self, state: BaseState) -> BaseState:
        """A position laid out by hand handed to the rules: the legal mask and the player to decide
        worked out, checked like a record (a kernel core also runs the steps nobody decides)."""
        return self.checked(self.refresh(state), allow_forced=True)

    # -- the event log (wargym.events) ---------------------------------------------------------------
    def step_logged(self, state: BaseState, actions, active: np.ndarray | None = None
                    ) -> tuple[BaseState, list[list[dict[str, Any]]]]:
        """``step``, and what the rules did in each game, in order: the whole truth, raw
        ({"kind", "rule", "args"}); ``events_for`` writes them as a player may read them."""
        new, records, count = self._step_logged(state, self.check_actions(state, actions, active))
        return new, events_mod.decode(self, records, count, state.batch_size)

    def _step_logged(self, state: BaseState, actions: np.ndarray) -> tuple[BaseState, np.ndarray, int]:
        """(the new state, the log's records, how many): a ruleset without an event log logs none."""
        return self._step(state, actions), np.zeros((0, events_mod.WIDTH), np.int32), 0

    def events_for(self, logged: list[dict[str, Any]], state: BaseState, game: int = 0,
                   viewer: int | None = None) -> list[dict[str, Any]]:
        """The events ``logged`` of game ``game`` (one game's list of ``step_logged``) with their
        text, as ``viewer`` may read them in ``state``, the position after the step (None: all)."""
        return events_mod.for_viewer(self, logged, state, game, viewer)

    def item_names(self) -> dict[str, list[str]]:
        """The names of the items of the state's axes ({"U": unit names, ...}): how the position
        API (wargym.position) and the event log name them."""
        return {}

    def event_unit(self, u: int) -> str:
        """A unit (piece) in an event's text."""
        return f"unit {u}"

    def event_card(self, c: int) -> str:
        """A card in an event's text."""
        return f"card {c}"

    def event_value(self, typ: str, value: int) -> str:
        """An event argument of the ruleset's own type ``typ`` in words (wargym.events)."""
        return str(value)

    def force(self, state: BaseState, values=(), games=None, picks=None) -> BaseState:
        """A copy of ``state`` whose next dice (``rng.roll``) and cards (``cards.draw_card``) are
        ``values``, in order, in ``games`` (all by default): how tests replay the book's examples.
        ``picks``: the next random picks (``rng.uniform``: which of n counters a cup gives, which
        marker, the steps of a shuffle), each the index 0..n-1 of the one taken; None leaves the
        queue of picks as it is."""
        out = {}
        for name, given in (("forced", values), ("forced_pick", picks)):
            if given is None:
                continue
            given = [int(v) for v in given]
            if len(given) > FORCED_MAX or any(not 0 <= v <= np.iinfo(np.int16).max for v in given):
                raise ValueError(f"force takes at most {FORCED_MAX} values in 0..32767, got {given}")
            queue, count = getattr(state, name).copy(), getattr(state, name + "_n").copy()
            sel = slice(None) if games is None else games
            queue[sel] = 0
            queue[sel, :len(given)] = given
            count[sel] = len(given)
            out.update({name: queue, name + "_n": count})
        return dataclasses.replace(state, **out)

    def view(self, state: BaseState, viewer: int) -> BaseState:
        """What player ``viewer`` may know of ``state`` (wargym.hidden.redact): a state of the same
        type with every hidden fact replaced by a stand-in."""
        return hidden_info.redact(self, state, viewer)

    def sample_hidden(self, state: BaseState, viewer: int, seed, n: int, game: int = 0) -> BaseState:
        """Determinization (wargym.hidden.sample): ``n`` states, one batch, that player ``viewer``
        cannot tell from game ``game`` of ``state``, made from its view alone; hidden facts dealt
        uniformly among those consistent with what it has seen, and fresh dice.  ``seed``: an int
        or a numpy Generator."""
        return hidden_info.sample(self, state, viewer, seed, n, game)

    def _complete_sample(self, state: BaseState, viewer: int, rng: np.random.Generator) -> BaseState:
        """What a ruleset's view leaves to fill in beyond ``hidden.sample``'s dealing (a hook: by
        default nothing)."""
        return state

    # -- rendering ----------------------------------------------------------------------------------
    def render(self, state: BaseState, game: int = 0, mode: str = "ansi", viewer: int | None = None):
        """The board of one game: "ansi" text or an "rgb_array" image, drawn for ``viewer`` (a
        player index: that player's fog of war) or the whole board (None)."""
        if mode == "ansi":
            return self._render_ansi(state, game, viewer)
        if mode == "rgb_array":
            return self._render_rgb(state, game, viewer)
        raise ValueError(f"render mode must be one of {RENDER_MODES}, got {mode!r}")

    def _render_ansi(self, state: BaseState, game: int, viewer: int | None) -> str:
        raise NotImplementedError(f"{self.name} draws no text board")

    def _render_rgb(self, state: BaseState, game: int, viewer: int | None) -> np.ndarray:
        raise NotImplementedError(f"{self.name} draws no image")

    # -- records ---------------------------------------------------------------------------------
    def record_header(self) -> dict[str, Any]:
        return {"format": RECORD_FORMAT, "ruleset": self.name, "scenario": getattr(self.scenario, "name", self.scenario),
                "options": dict(self.options)}

    def to_dict(self, state: BaseState, game: int) -> dict[str, Any]:
        """JSON-able record of game ``game``; ``from_dict`` restores it exactly."""
        if not 0 <= game < state.batch_size:
            raise IndexError(f"game {game} not in batch of {state.batch_size}")
        dtypes = _dtype_names(self.state_class)
        fields = {name: {"dtype": dtypes[name], "value": arr[game].tolist()} for name, arr in state.arrays().items()}
        return {**self.record_header(), "fields": fields}

    def from_dict(self, records: dict | list[dict], *, allow_forced: bool = False) -> BaseState:
        """The games of ``records`` (one record or a list), checked before any kernel sees them:
        the header, every field's dtype, shape and range, the ruleset's invariants (``check_state``,
        whether the game is over by its position among them), the end of the game
        (``check_outcome``: rewards, terminated, truncated, the decision cap) and the legal mask
        and player to decide against the rules' own for the position.  A queue of forced dice
        (tests only) is refused unless ``allow_forced``.  ``RecordError`` names what is wrong:
        record, field, game and value."""
        if isinstance(records, dict):
            records = [records]
        if not isinstance(records, list) or not records:
            raise RecordError("from_dict needs a record (a dict) or a non-empty list of them")
        header = self.record_header()
        dtypes = _dtype_names(self.state_class)
        names = list(dtypes)
        columns: dict[str, list[np.ndarray]] = {n: [] for n in names}
        for i, rec in enumerate(records):
            if not isinstance(rec, dict):
                raise RecordError(f"record {i}: a record is a JSON object, got {type(rec).__name__}")
            rec = _from_format_2(rec)
            if rec.get("format") == 1:
                raise RecordError(f"record {i}: format 1 was written by wargym 0.1 before the engine layer; "
                                  f"this wargym reads format {RECORD_FORMAT} (save the game again)")
            for key, want in header.items():
                if key not in rec:
                    raise RecordError(f"record {i}: the key {key!r} is missing (this core needs {want!r})")
                if rec[key] != want:
                    raise RecordError(f"record {i}: {key} is {rec.get(key)!r}, this core needs {want!r}")
            fields = rec.get("fields")
            if not isinstance(fields, dict):
                raise RecordError(f"record {i}: 'fields' must be an object of state fields")
            missing = sorted(set(names) - set(fields))
            extra = sorted(set(fields) - set(names))
            if missing or extra:
                raise RecordError(f"record {i}: " + "; ".join(
                    ([f"missing state fields {missing}"] if missing else []) +
                    ([f"unknown state fields {extra}"] if extra else [])))
            values = {}
            for n in names:
                entry = fields[n]
                if not isinstance(entry, dict) or "value" not in entry:
                    raise RecordError(f"record {i}: field {n} must be {{'dtype': ..., 'value': ...}}")
                want = dtypes[n]
                if entry.get("dtype") != want:
                    raise RecordError(f"record {i}: field {n} has dtype {entry.get('dtype')!r}, needs {want!r}")
                values[n] = entry["value"]
            try:
                arrays = schema.from_values(self.state_class, values)
            except ValueError as err:
                raise RecordError(f"record {i}: {err}") from None
            for n in names:
                columns[n].append(arrays[n])
        stacked = {}
        for n in names:
            try:
                stacked[n] = np.stack(columns[n])
            except ValueError:
                shapes = sorted({tuple(a.shape) for a in columns[n]})
                raise RecordError(f"field {n}: shapes {shapes} differ between records") from None
        return self.checked(self.state_class(**stacked), allow_forced=allow_forced)

    def checked(self, state: BaseState, *, allow_forced: bool = False) -> BaseState:
        """``state`` if it is a position of this core's rules (see ``from_dict``), else RecordError."""
        errors = schema.check(self.state_class, state.arrays(), self.dims)
        if errors:
            raise RecordError("; ".join(errors))
        if not allow_forced and state.forced_pick_n.any():
            g = int(np.argmax(state.forced_pick_n > 0))
            raise RecordError(f"field forced_pick_n: game {g} has {int(state.forced_pick_n[g])} forced picks; "
                              "only tests may force them (force), a record may not")
        if not allow_forced and state.forced_n.any():
            g = int(np.argmax(state.forced_n > 0))
            raise RecordError(f"field forced_n: game {g} has {int(state.forced_n[g])} forced dice or cards; "
                              "only tests may force them (force), a record may not")
        errors = self.check_state(state) or self.check_outcome(state)  # kernels probe positions checked first
        if errors:
            raise RecordError("; ".join(errors[:5]) + (f" (+{len(errors) - 5} more)" if len(errors) > 5 else ""))
        masks, players = self._legal(state)
        live = ~(state.terminated | state.truncated)
        for g in np.flatnonzero(live):
            if players[g] != state.current_player[g]:
                raise RecordError(f"field current_player: game {g} has {int(state.current_player[g])}, "
                                  f"the rules give player {int(players[g])} this decision")
            if not np.array_equal(masks[g], state.legal_action_mask[g]):
                diff = np.flatnonzero(masks[g] != state.legal_action_mask[g])
                raise RecordError(f"field legal_action_mask: game {g} differs from the rules' mask for "
                                  f"this position at actions {diff[:8].tolist()}")
        return state


def _from_format_2(rec: dict) -> dict:
    """A record of format 2 (a one-word ``rng_key``: a seeded game's key) as format 3 reads it:
    the key's second word 0, the dice unchanged (wargym.rng), no picks forced; any other record as
    it is."""
    fields = rec.get("fields")
    if rec.get("format") != 2 or not isinstance(fields, dict) or not isinstance(fields.get("rng_key"), dict):
        return rec
    key = fields["rng_key"]
    return {**rec, "format": RECORD_FORMAT,
            "fields": {**fields, "rng_key": {**key, "value": [key.get("value"), 0]},
                       "forced_pick": {"dtype": "int16", "value": [0] * FORCED_MAX},
                       "forced_pick_n": {"dtype": "int8", "value": 0}}}


def end_marks(state: BaseState, phase_over: int, **marks: np.ndarray) -> list[str]:
    """Whether each game is over, by ``terminated``, agrees with its phase ("game over" is
    ``phase_over``) and with each of ``marks`` (a field's name -> bool[B]: where that field says the
    game is over, a result or a winner recorded): one message per field that disagrees, naming its
    first game and value (a ruleset's ``check_state``)."""
    errors = []
    for name, says in {"phase": state.phase == phase_over, **marks}.items():
        for g in np.flatnonzero(says != state.terminated)[:1]:
            errors.append(f"field {name}: game {g} has {getattr(state, name)[g].tolist()}, so it is "
                          f"{'over' if says[g] else 'running'}, but terminated is {bool(state.terminated[g])}")
    return errors


@functools.lru_cache(maxsize=None)
def _dtype_names(state_class: type) -> dict[str, str]:
    """{field: its dtype's name} as records write it (numpy works the name out anew at each ask:
    a fifth of the time of a record, when the fuzz sends every position through one)."""
    return {name: str(v.dtype) for name, v in schema.specs(state_class).items()}


def phase_ids(names: tuple[str, ...], phases, owner: str) -> list[int]:
    """The indices in ``names`` (a core's ``phase_names``) of ``phases``; a ValueError naming the
    first unknown phase and ``owner`` (what asked: "phases: attu") otherwise."""
    unknown = [name for name in phases if name not in names]
    if unknown:
        raise ValueError(f"{owner} has no phase {unknown[0]!r}; its phases: {list(names)}")
    return [names.index(name) for name in phases]


def dumps_record(record: Mapping[str, Any]) -> str:
    """A record as one line of JSON (what files and the bot protocol carry)."""
    return json.dumps(record, separators=(",", ":"))
