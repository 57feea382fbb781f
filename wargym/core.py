"""The Core protocol: B games of one ruleset stepped at once.

A ruleset subclasses ``BaseCore`` and writes only ``_init``, ``_step`` and ``_observe`` (and its
``describe_action``); everything every game shares lives here once:

* validating actions against ``legal_action_mask`` (``IllegalActionError`` names the game, the
  action and why it is masked; the input state is never modified),
* the no-op on finished games (their action is ignored),
* auto-reset of finished games (``reset_done``),
* ``to_dict`` / ``from_dict`` records of one game, exact round trip,
* rewards: +1 win / -1 loss / 0 draw, written by the ruleset into ``rewards`` when a game ends;
  ``score`` (optional) measures the standing in between, for shaped rewards.

State fields every game has first (``BaseState``)::

    current_player     int8[B]        index into Core.players of who decides next
    legal_action_mask  bool[B, A]     what that player may do now (kept in the state, as Pgx does)
    terminated         bool[B]        game over by the rules
    truncated          bool[B]        stopped by a step limit
    rewards            float32[B, P]  final result (+1/-1/0), 0 while running
    turn               int16[B]       game turn
    rng_key/counter    uint64/uint32  per-game dice (wargym.rng)
    next_die           int8[B]        0, or a die value the next roll must take (tests replay the
                                      book's worked examples with it)
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, runtime_checkable

import numpy as np

RECORD_FORMAT = 1


class IllegalActionError(ValueError):
    """An action that is masked out for the player to move."""

    def __init__(self, game: int, action: int, reason: str):
        self.game, self.action, self.reason = game, action, reason
        super().__init__(f"game {game}: action {action} is illegal: {reason}")


@dataclass(frozen=True)
class BaseState:
    current_player: np.ndarray
    legal_action_mask: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray
    rewards: np.ndarray
    turn: np.ndarray
    rng_key: np.ndarray
    rng_counter: np.ndarray
    next_die: np.ndarray

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


@runtime_checkable
class Core(Protocol):
    name: str
    players: tuple[str, ...]
    num_actions: int

    observation_shapes: dict[str, tuple[int, ...]]

    def init(self, batch_size: int, seed: int) -> BaseState: ...
    def legal_mask(self, state: BaseState) -> np.ndarray: ...
    def step(self, state: BaseState, actions: np.ndarray, active: np.ndarray | None = None) -> BaseState: ...
    def reset_done(self, state: BaseState, seed: int, episode: np.ndarray | None = None) -> BaseState: ...
    def render(self, state: BaseState, game: int = 0, mode: str = "ansi", viewer: int | None = None): ...
    def current_player(self, state: BaseState) -> np.ndarray: ...
    def terminated(self, state: BaseState) -> np.ndarray: ...
    def truncated(self, state: BaseState) -> np.ndarray: ...
    def rewards(self, state: BaseState) -> np.ndarray: ...
    def observe(self, state: BaseState, player: int) -> dict[str, np.ndarray]: ...
    def to_dict(self, state: BaseState, game: int) -> dict[str, Any]: ...
    def from_dict(self, records: dict | list[dict]) -> BaseState: ...
    def describe_action(self, action: int, state: BaseState | None = None, game: int = 0) -> str: ...


class BaseCore(ABC):
    """Shared machinery; a ruleset provides ``_init``, ``_step``, ``_observe``, ``describe_action``,
    ``observation_shapes`` and the class attributes below."""

    name: ClassVar[str]
    players: tuple[str, ...]
    num_actions: int
    state_class: ClassVar[type]
    #: value bounds of each observation array, {"spatial": (low, high), ...}; None = unbounded
    observation_bounds: ClassVar[dict[str, tuple[float, float]] | None] = None

    # -- what a ruleset writes -------------------------------------------------------------------
    @abstractmethod
    def _init(self, keys: np.ndarray) -> BaseState:
        """New games, one per key (uint64[B])."""

    @abstractmethod
    def _step(self, state: BaseState, actions: np.ndarray) -> BaseState:
        """Advance every game whose action is >= 0 by that (checked, legal) action; games with
        action -1 stay unchanged.  Must not modify ``state``."""

    @abstractmethod
    def _observe(self, state: BaseState, player: int) -> dict[str, np.ndarray]:
        """{"spatial": float32[B, C, rows, cols], "global": float32[B, G]} seen by ``player``."""

    @abstractmethod
    def describe_action(self, action: int, state: BaseState | None = None, game: int = 0) -> str:
        """Readable description of ``action`` (in the decision context of ``game`` if given)."""

    @property
    @abstractmethod
    def observation_shapes(self) -> dict[str, tuple[int, ...]]:
        """Per-game shapes of the arrays ``observe`` returns, e.g. {"spatial": (C, R, Q), "global": (G,)}."""

    def score(self, state: BaseState) -> np.ndarray | None:
        """float[B, P]: how well each player stands by the rules' own measure (victory points and
        the like), for the envs' optional shaped reward; None where a ruleset has no such measure."""
        return None

    def why_illegal(self, state: BaseState, game: int, action: int) -> str:
        """Reason an action is masked; rulesets override with their own decision context."""
        return "masked out in the current decision"

    # -- the protocol ----------------------------------------------------------------------------
    def init(self, batch_size: int, seed: int = 0) -> BaseState:
        from wargym.rng import game_keys

        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        return self._init(game_keys(seed, batch_size))

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
        return self._observe(state, player)

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
            raise IllegalActionError(g, a, f"{self.describe_action(a, state, g)}: {self.why_illegal(state, g, a)}")
        return np.where(live, actions, -1)

    def step(self, state: BaseState, actions, active: np.ndarray | None = None) -> BaseState:
        """One decision in every game (or every game where ``active``); finished games and
        inactive games are left exactly as they are (their action is ignored)."""
        return self._step(state, self.check_actions(state, actions, active))

    def reset_done(self, state: BaseState, seed: int, episode: np.ndarray | None = None) -> BaseState:
        """Replace finished games by new ones (auto-reset).  New game i gets key
        SeedSequence([seed, episode[i]]) so resets are reproducible."""
        from wargym.rng import game_keys

        done = state.terminated | state.truncated
        if not done.any():
            return state
        if episode is None:
            episode = np.arange(state.batch_size)
        games = np.nonzero(done)[0]
        keys = np.array([game_keys(seed, 1, first_game=int(episode[g]))[0] for g in games], dtype=np.uint64)
        return put_games(state, games, self._init(keys))  # only the new games are set up

    # -- records ---------------------------------------------------------------------------------
    def record_header(self) -> dict[str, Any]:
        return {"format": RECORD_FORMAT, "ruleset": self.name}

    def to_dict(self, state: BaseState, game: int) -> dict[str, Any]:
        """JSON-able record of game ``game``; ``from_dict`` restores it exactly."""
        if not 0 <= game < state.batch_size:
            raise IndexError(f"game {game} not in batch of {state.batch_size}")
        fields = {}
        for name, arr in state.arrays().items():
            fields[name] = {"dtype": str(arr.dtype), "value": arr[game].tolist()}
        return {**self.record_header(), "fields": fields}

    def from_dict(self, records: dict | list[dict]) -> BaseState:
        if isinstance(records, dict):
            records = [records]
        if not records:
            raise ValueError("from_dict needs at least one record")
        header = self.record_header()
        names = [f.name for f in dataclasses.fields(self.state_class)]
        arrays: dict[str, list] = {n: [] for n in names}
        for i, rec in enumerate(records):
            for key, want in header.items():
                if rec.get(key) != want:
                    raise ValueError(f"record {i}: {key} is {rec.get(key)!r}, this core needs {want!r}")
            fields = rec.get("fields", {})
            missing = set(names) - set(fields)
            if missing:
                raise ValueError(f"record {i}: missing state fields {sorted(missing)}")
            for n in names:
                arrays[n].append(np.asarray(fields[n]["value"], dtype=np.dtype(fields[n]["dtype"])))
        template = self._init(np.zeros(1, dtype=np.uint64))
        out = {}
        for n in names:
            stacked = np.stack(arrays[n])
            expect = getattr(template, n).shape[1:]
            if stacked.shape[1:] != expect:
                raise ValueError(f"field {n}: shape {stacked.shape[1:]} does not match this scenario's {expect}")
            out[n] = stacked
        return self.state_class(**out)


def phase_ids(names: tuple[str, ...] | None, phases, owner: str) -> list[int]:
    """The indices in ``names`` (a core's ``phase_names``) of ``phases``; a ValueError naming the
    first unknown phase and ``owner`` (what asked: "phases: attu") otherwise."""
    if names is None:
        raise ValueError(f"{owner} names no decision phases (core.phase_names)")
    unknown = [name for name in phases if name not in names]
    if unknown:
        raise ValueError(f"{owner} has no phase {unknown[0]!r}; its phases: {list(names)}")
    return [names.index(name) for name in phases]


def check_threads(threads: int) -> int:
    """A ``threads=`` option of a numba core: how many threads share a batch's games."""
    import numba

    if not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
        raise ValueError(f"threads must be in 1..{numba.config.NUMBA_NUM_THREADS}, got {threads}")
    return threads


class GameChunks:
    """Shares a batch's games among ``threads`` threads: contiguous chunks of games, each run by a
    serial ``nogil`` numba kernel on its own kernel arguments (the caller's thread takes the first).

    Why not ``prange`` over one argument: numba reference-counts every array it reads out of a
    structref, and threads reading the same structref fight over those counts.  Measured on the
    Attu step at batch 1024 (2 cores): one prange thread 6.5 ms, two prange threads 11.2 ms, two
    chunks with their own tables and state arguments 3.5 ms.  ``make_tables()`` builds one tables
    argument per thread (a fresh structref of the same arrays: its own counts)."""

    MIN_CHUNK = 8  # fewer games per thread than this are not worth a hand-off (~30 us)

    def __init__(self, threads: int, make_tables):
        self.threads = check_threads(threads)
        self.tables = [make_tables() for _ in range(self.threads)]
        self._pool = (ThreadPoolExecutor(self.threads - 1, thread_name_prefix="wargym-games")
                      if self.threads > 1 else None)

    def bounds(self, batch: int) -> list[tuple[int, int]]:
        n = max(1, min(self.threads, batch // self.MIN_CHUNK))
        edges = [batch * i // n for i in range(n + 1)]
        return list(zip(edges[:-1], edges[1:]))

    def run(self, kernel, views, batch: int, *args) -> None:
        """``kernel(tables, views(lo, hi), *(a[lo:hi] for a in args))`` for each chunk [lo, hi) of
        the ``batch`` games; ``views(lo, hi)`` gives the kernel's argument for those games."""
        chunks = self.bounds(batch)
        futures = [self._pool.submit(kernel, self.tables[i], views(lo, hi), *(a[lo:hi] for a in args))
                   for i, (lo, hi) in enumerate(chunks) if i > 0]
        lo, hi = chunks[0]
        kernel(self.tables[0], views(lo, hi), *(a[lo:hi] for a in args))
        for f in futures:
            f.result()


def step_kernel(kernel, tables, arrays, actions: np.ndarray, threads: int) -> None:
    """Run a numba batch kernel ``kernel(tables, arrays, actions)`` on ``threads`` threads, leaving
    numba's thread count as it was."""
    import numba

    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        kernel(tables, arrays, np.ascontiguousarray(actions, dtype=np.int64))
    finally:
        numba.set_num_threads(previous)


def render_modes() -> tuple[str, ...]:
    return ("ansi", "rgb_array")


class RenderMixin:
    """``render(state, game, mode, viewer)`` for cores whose ruleset provides ``_render_ansi`` and
    ``_render_rgb``; ``viewer`` is a player index (fog of war) or None for the full board."""

    def render(self, state: BaseState, game: int = 0, mode: str = "ansi", viewer: int | None = None):
        if mode == "ansi":
            return self._render_ansi(state, game, viewer)
        if mode == "rgb_array":
            return self._render_rgb(state, game, viewer)
        raise ValueError(f"render mode must be one of {render_modes()}, got {mode!r}")
