"""The compiled half of every core: kernel arguments, the decision driver and threads.

A ruleset writes its rules as numba functions of one game ``(T, S, g, ...)`` (``T`` the scenario's
tables, ``S`` the batch's state, ``g`` the game) and binds them here; this module owns everything
else between ``core.step`` and those functions.

Kernel arguments (``KernelStruct``)
    The state and the tables reach the kernels as numba structrefs: one pointer per argument.  As
    namedtuples of ~70 arrays, every call between kernels unpacked and reference-counted each array,
    and the generated code made a cold compile of the Attu core take over 20 minutes (measured: a
    million LLVM extract_value instructions for its mask function alone); structrefs made it 2 and
    stepping about 5x faster.  A ruleset declares its two structs at module level, each with a
    cached constructor (numba's own is compiled anew in every process, ~5 s each)::

        StateArg, StateArgType = KernelStruct.define("StateArg", State, __name__)

        @njit(cache=True)
        def build_state_arg(*fields):
            return StateArg(*fields)

        StateArg.build = build_state_arg

The decision driver (``bind_driver``)
    Every core advances a game the same way: apply the decision, then take the decisions nobody has
    to think about until a real one comes, and leave that decision's legal mask in the state::

        step_game(T, S, g, a)   decisions += 1; apply(a); settle; the decision cap truncates
        settle(T, S, g)         loop:  game over        -> game_over hook, empty mask, stop
                                       progress(...)    -> it did something: again
                                       n = fill_mask(m) -> n == 0: a dead end, truncated, at_rest
                                       automatic(m, n)  -> an action: apply it, again
                                       else             -> current_player = decider, at_rest, stop

    The ruleset provides ``start_game``, ``apply``, ``fill_mask`` and ``decider`` and, where it has
    them, ``progress``, ``automatic``, ``at_rest`` (the game stops at a position: what only the
    position at rest needs, such as fields the observation reads, is brought up to date once
    there, not at every mask of the automatic decisions before) and ``game_over`` (the defaults
    do nothing); ``bind_driver``
    compiles the driver around them into one kernel over a range of games, ``run_chunk``, whose
    mode starts the games, steps them, settles them, or works out the masks and deciders of the
    current positions (what ``from_dict`` checks a record against) without playing on: the
    positions stay as they are, but for what ``at_rest`` derives from them.

Threads (``GameChunks``)
    The games of a batch are independent, so threads may share them.  Chosen by measurement
    (benchmarks/README.md): the batch is cut into chunks that the threads claim one at a time, the
    caller's thread among them, each running a serial ``nogil`` kernel on its own kernel arguments.
    Claiming (rather than one fixed share per thread) keeps a thread that the operating system does
    not schedule from holding the others up: it claims nothing, and the caller waits only for
    chunks already started.  Sharing still costs hand-offs and scheduling, so whether it pays is
    measured as it runs (wall time against the chunks' CPU time): with the other core busy, sharing
    was 10-20 % slower than one thread, and the core then runs alone, sharing one call in 32 to look
    again (``GameChunks.share_now``).  ``prange`` was
    measured and dropped: its workers each take a fixed share and spin, so on a busy machine a step
    waited for the slowest (Island War, two threads, other core busy: 364 decisions/s at batch 1
    against 15,400 on one thread), and threads reading one structref fought over its reference
    counts (Attu at batch 1024: 11.2 ms on two prange threads, 6.5 ms on one).
"""

from __future__ import annotations

import dataclasses
import threading
import time
import types as pytypes
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, ClassVar

import numpy as np
from numba import config as numba_config, types
from numba.experimental import structref

from wargym import events, schema
from wargym.core import BaseCore, BaseState, RecordError
from wargym.events import EVENT_FIELDS
from wargym.jit import njit

# ----------------------------------------------------------------------------------- arguments


class KernelStructType(types.StructRef):
    """Base of the kernels' struct types: fields keep their plain (non-literal) types."""

    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(t)) for name, t in fields)


class NumbaScalars(np.ndarray):
    """Under ``NUMBA_DISABLE_JIT`` (the rules run as plain Python): a view of a kernel argument's
    array whose elements read as numba reads them in a kernel, integers and booleans as Python's,
    not as numpy's small integers, which wrap where numba's int64 arithmetic does not
    (``total += T.u_table[w, i]`` summed past 127 in an ``int8``, and the game went another way).
    ``uint64`` elements (the random streams' wrapping arithmetic) and floats stay numpy's."""

    SCALARS = frozenset((np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32))

    def __getitem__(self, key):
        out = np.ndarray.__getitem__(self, key)
        return out.item() if type(out) in NumbaScalars.SCALARS else out

    @classmethod
    def view_of(cls, value):
        return value.view(cls) if isinstance(value, np.ndarray) else value


class KernelStruct(structref.StructRefProxy):
    """A structref the kernels take; Python reads its fields from the values it was built from."""

    _fields: tuple[str, ...] = ()

    def __getattr__(self, name):
        values = self.__dict__.get("_values")
        if values is None or name not in values:
            raise AttributeError(name)
        return values[name]

    @staticmethod
    def define(name: str, fields, module: str) -> tuple[type, type]:
        """The proxy class ``name`` and its numba type ``name + "Type"`` for ``fields`` (names, or
        a dataclass whose fields they are), placed in ``module`` under those names so that numba's
        cache can find them again: assign both at module level with exactly these names."""
        if dataclasses.is_dataclass(fields):
            # a state's struct carries the event log's arrays beside its fields (wargym.events)
            extra = EVENT_FIELDS if issubclass(fields, BaseState) else ()
            fields = [f.name for f in dataclasses.fields(fields)] + list(extra)
        fields = tuple(fields)
        type_cls = type(name + "Type", (KernelStructType,), {"__module__": module})
        type_cls.__qualname__ = type_cls.__name__
        structref.register(type_cls)
        proxy = type(name, (KernelStruct,), {"__module__": module, "_fields": fields})
        proxy.__qualname__ = name
        structref.define_proxy(proxy, type_cls, list(fields))
        return proxy, type_cls

    @classmethod
    def of(cls, values) -> Any:
        """The struct of ``values`` (a mapping, a namedtuple or an object with the fields as
        attributes); under ``NUMBA_DISABLE_JIT`` a plain namespace serves instead."""
        if isinstance(values, dict):
            plain = values
        elif hasattr(values, "_asdict"):
            plain = values._asdict()
        else:
            plain = {f: getattr(values, f) for f in cls._fields if f not in EVENT_FIELDS}
        if EVENT_FIELDS[0] in cls._fields and EVENT_FIELDS[0] not in plain:
            plain = {**plain, **events.OFF}   # a state struct without a log: emit writes nothing
        if numba_config.DISABLE_JIT:
            return pytypes.SimpleNamespace(**{k: NumbaScalars.view_of(v) for k, v in plain.items()})
        build = cls.__dict__.get("build")
        ref = (build or cls)(*(plain[f] for f in cls._fields))
        ref.__dict__["_values"] = plain
        return ref


# ------------------------------------------------------------------------------------ the driver


@njit(cache=True)
def no_progress(T, S, g):
    """The default ``progress`` hook: nothing happens between decisions."""
    return False


@njit(cache=True)
def only_action(m):
    """The single legal action in mask ``m``, or -1 when there are none or several."""
    found = -1
    for i in range(m.shape[0]):
        if m[i]:
            if found >= 0:
                return -1
            found = i
    return found


@njit(cache=True)
def first_legal(m):
    """The first action marked in mask ``m`` (-1 when none is): the fallback of every rule agent."""
    for i in range(m.shape[0]):
        if m[i]:
            return i
    return -1


@njit(cache=True)
def single_action(T, S, g, m, n):
    """The default ``automatic`` hook: a decision with one legal action takes itself."""
    return only_action(m) if n == 1 else -1


@njit(cache=True)
def no_game_over(T, S, g):
    """The default ``game_over`` hook."""
    return None


@njit(cache=True)
def no_at_rest(T, S, g):
    """The default ``at_rest`` hook."""
    return None


START, STEP, MASK, SETTLE = 0, 1, 2, 3   # what ``run_chunk`` does to each game of its range
EVERY = 4   # a flag on START, STEP, SETTLE: stop at every decision, one with a single legal action too


def _run_chunk(T, S, lo, hi, flags, actions, masks, players):
    mode = flags & 3
    every = (flags & EVERY) != 0
    for g in range(lo, hi):
        if mode == MASK:  # the masks and deciders of the positions as they stand
            masks[g, :] = False
            players[g] = S.current_player[g]
            if not (S.terminated[g] or S.truncated[g]) and fill_mask(T, S, g, masks[g]) > 0:  # noqa: F821
                players[g] = decider(T, S, g)  # noqa: F821 - bound by bind_driver
                at_rest(T, S, g)  # noqa: F821
            continue
        if mode == START:
            start_game(T, S, g)  # noqa: F821
        elif mode == STEP:
            if actions[g] < 0:
                continue
            S.decisions[g] += 1
            apply(T, S, g, actions[g])  # noqa: F821
        m = S.legal_action_mask[g]  # settle: the decisions nobody has to think about
        while True:
            if S.terminated[g]:
                game_over(T, S, g)  # noqa: F821
                m[:] = False
                break
            if progress(T, S, g):  # noqa: F821
                continue
            n = fill_mask(T, S, g, m)  # noqa: F821
            if n == 0:  # a dead end: stop the game rather than loop
                S.truncated[g] = True
                m[:] = False
                at_rest(T, S, g)  # noqa: F821
                break
            a = -1 if every and n == 1 else automatic(T, S, g, m, n)  # noqa: F821
            if a >= 0:
                apply(T, S, g, a)  # noqa: F821
                continue
            S.current_player[g] = decider(T, S, g)  # noqa: F821
            at_rest(T, S, g)  # noqa: F821
            break
        if mode == STEP and not S.terminated[g] and S.decisions[g] >= T.max_decisions:
            S.truncated[g] = True
            m[:] = False


HOOKS = ("start_game", "apply", "fill_mask", "decider", "progress", "automatic", "at_rest", "game_over")
NO_ACTIONS = np.zeros(0, np.int64)


class Driver:
    """A ruleset's decision driver: ``run_chunk(T, S, lo, hi, mode, actions, masks, players)`` over
    a range of games (``mode`` one of ``START``, ``STEP``, ``MASK``, ``SETTLE``), and one game at
    a time from Python (tests, tools): ``settle(T, S, g)`` and ``step_game(T, S, g, a)``."""

    def __init__(self, run_chunk):
        self.run_chunk = run_chunk

    def settle(self, T, S, g: int) -> None:
        self.run_chunk(T, S, g, g + 1, SETTLE, NO_ACTIONS, S.legal_action_mask, S.current_player)

    def step_game(self, T, S, g: int, a: int) -> None:
        actions = np.full(g + 1, -1, np.int64)
        actions[g] = a
        self.run_chunk(T, S, g, g + 1, STEP, actions, S.legal_action_mask, S.current_player)


def bind_driver(ruleset: str, *, start_game, apply, fill_mask, decider, progress=no_progress,
                automatic=single_action, at_rest=no_at_rest, game_over=no_game_over) -> Driver:
    """The driver compiled around a ruleset's hooks (njit functions of one game, see the module
    docstring) into one kernel, ``run_chunk_<ruleset>`` (cached under that name).  One kernel, not
    one per mode: each compiled function holds the machine code of everything it calls, so every
    separate layer (a settle, a step, a start and a mask kernel each) compiled the whole rules
    again; measured on a cold start, merging them saved ~11 s of Island War's ~113 s and ~38 s
    of Attu's ~344 s."""
    scope = dict(globals())
    scope.update(start_game=start_game, apply=apply, fill_mask=fill_mask, decider=decider,
                 progress=progress, automatic=automatic, at_rest=at_rest, game_over=game_over)
    name = f"run_chunk_{ruleset}"
    copy = pytypes.FunctionType(_run_chunk.__code__, scope, name)
    copy.__qualname__ = name  # numba's cache files are named after it
    copy.__module__ = __name__
    return Driver(njit(cache=True, nogil=True)(copy))


# --------------------------------------------------------------------------------------- threads
def check_threads(threads: int) -> int:
    """A ``threads=`` option of a compiled core: how many threads may share a batch's games."""
    if not 1 <= threads <= max(numba_config.NUMBA_NUM_THREADS, 1):
        raise ValueError(f"threads must be in 1..{numba_config.NUMBA_NUM_THREADS}, got {threads}")
    return threads


class GameChunks:
    """Runs a chunk kernel ``kernel(T, S, lo, hi, *args)`` over a batch's games on up to
    ``threads`` threads (module docstring).  ``tables`` is one tables struct per thread (each its
    own reference counts); the state struct is built per call and thread by ``state_arg``.

    Whether sharing pays is measured as it runs: each shared call compares its wall time with the
    CPU time its chunks took (what one thread would have needed); while the running ratio is above
    ``PAYS``, calls run on the caller's thread and every ``PROBE``-th one is shared again to
    look."""

    MIN_CHUNK = 16   # games per chunk at least: below this a hand-off costs more than it saves
    PIECES = 4       # chunks per thread (more: less waiting on a slow thread, more hand-offs)
    PAYS = 0.95      # share while wall time / CPU time of shared calls stays below this
    PROBE = 32       # while it does not, share one call in this many to measure again
    SMOOTH = 0.3     # weight of the newest shared call in the running ratio

    def __init__(self, threads: int, make_tables: Callable[[], Any]):
        self.threads = check_threads(threads)
        self.tables = [make_tables() for _ in range(self.threads)]
        self._pool = (ThreadPoolExecutor(self.threads - 1, thread_name_prefix="wargym-games")
                      if self.threads > 1 else None)
        self.ratio: float | None = None   # running wall/CPU of shared calls; None: not measured yet
        self.unshared = 0                  # calls run alone since the last shared one

    def chunk_size(self, batch: int) -> int:
        """Games per chunk; the whole batch when it is too small to share."""
        if self.threads == 1 or batch < 2 * self.MIN_CHUNK:
            return batch
        return max(self.MIN_CHUNK, -(-batch // (self.threads * self.PIECES)))

    def share_now(self) -> bool:
        """Share this call: sharing has paid so far, or it is time to look again."""
        if self.ratio is None or self.ratio < self.PAYS:
            return True
        self.unshared += 1
        if self.unshared >= self.PROBE:
            self.unshared = 0
            return True
        return False

    def judge(self, wall: float, cpu: float) -> None:
        """Fold one shared call's wall time and its chunks' CPU time into the running ratio."""
        r = wall / max(cpu, 1e-9)
        self.ratio = r if self.ratio is None else (1 - self.SMOOTH) * self.ratio + self.SMOOTH * r

    def run(self, kernel, state_arg: Callable[[], Any], batch: int, *args) -> None:
        """``kernel(tables, state_arg(), lo, hi, *args)`` for chunks [lo, hi) covering the batch."""
        size = self.chunk_size(batch)
        if size >= batch or not self.share_now():
            kernel(self.tables[0], state_arg(), 0, batch, *args)
            return
        start = time.perf_counter()
        claim = _Claims(batch, size)
        helpers = [self._pool.submit(claim.work, kernel, self.tables[t], state_arg, args)
                   for t in range(1, self.threads)]
        claim.work(kernel, self.tables[0], state_arg, args)
        claim.wait()
        for f in helpers:  # a helper that never started claims nothing; surface its errors only
            if f.done() and f.exception() is not None:
                raise f.exception()
        if claim.error is not None:
            raise claim.error
        self.judge(time.perf_counter() - start, claim.cpu)


class _Claims:
    """The chunks of one call: handed out one at a time; ``wait`` returns when every chunk handed
    out is done (a thread that starts late finds nothing left and does not hold anyone up)."""

    def __init__(self, batch: int, size: int):
        self.batch, self.size = batch, size
        self.next = 0
        self.running = 0
        self.cpu = 0.0     # CPU seconds the chunks took, all threads together
        self.error: BaseException | None = None
        self.cond = threading.Condition()

    def _claim(self) -> int:
        with self.cond:
            lo = self.next
            if lo >= self.batch or self.error is not None:
                return -1
            self.next = lo + self.size
            self.running += 1
            return lo

    def work(self, kernel, tables, state_arg, args) -> None:
        lo = self._claim()
        if lo < 0:
            return
        state = state_arg()
        while lo >= 0:
            began = time.thread_time()
            try:
                kernel(tables, state, lo, min(lo + self.size, self.batch), *args)
            except BaseException as err:  # noqa: BLE001 - re-raised by the caller
                with self.cond:
                    self.error = self.error or err
            spent = time.thread_time() - began
            with self.cond:
                self.cpu += spent
                self.running -= 1
                self.cond.notify_all()
            lo = self._claim()

    def wait(self) -> None:
        with self.cond:
            while self.running:
                self.cond.wait()


# ----------------------------------------------------------------------------------- the core
class KernelCore(BaseCore):
    """A core whose rules are numba kernels: ``_init``, ``_step`` and ``_legal`` run the ruleset's
    driver (``bind_driver``) over the batch's games on ``threads`` threads (``GameChunks``).

    A subclass sets the class attributes ``driver`` (its ``bind_driver(...)``), ``state_arg`` and
    ``tables_arg`` (its ``KernelStruct`` classes), and calls ``self.setup_kernels(tables,
    threads)`` in its constructor with the plain tables (a namedtuple) of its scenario."""

    driver: ClassVar[pytypes.SimpleNamespace]
    state_arg: ClassVar[type]
    tables_arg: ClassVar[type]

    def setup_kernels(self, tables, threads: int) -> None:
        self.plain_tables = tables
        self.max_decisions = int(tables.max_decisions)  # the decision cap (step_game truncates there)
        self.chunks = GameChunks(threads, lambda: self.tables_arg.of(tables))  # one tables struct per thread
        self.threads = self.chunks.threads
        self.tables = self.chunks.tables[0]

    @property
    def dims(self) -> dict[str, int]:
        """BaseCore's, with "DECISIONS": the cap, which bounds the ``decisions`` field."""
        return {**super().dims, "DECISIONS": self.max_decisions}

    def check_outcome(self, state: BaseState) -> list[str]:
        """BaseCore's, and the decision cap: ``step_game`` truncates a game the moment its
        ``decisions`` reach ``max_decisions``, so a running game is below it."""
        errors = super().check_outcome(state)
        at_cap = ~(state.terminated | state.truncated) & (state.decisions >= self.max_decisions)
        if at_cap.any():
            g = int(np.argmax(at_cap))
            errors.append(f"field decisions: game {g} is running at {int(state.decisions[g])} decisions, the cap "
                          f"({self.max_decisions}) truncates a game there")
        return errors

    def _cut_short(self, state: BaseState) -> np.ndarray:
        return state.decisions >= self.max_decisions

    def reopened(self, state: BaseState, **fields) -> tuple[BaseState, Any]:
        """A copy of ``state`` with every game's end undone (not terminated, rewards 0, and
        ``fields`` set as given: the ruleset's record of the result) and the kernel struct of the
        copy: for asking the rules' own end conditions (functions of one game, ``(T, S, g)``)
        whether, and how, each position ends its game."""
        probe = state.copy()
        probe.terminated[:] = False
        probe.rewards[:] = 0
        for name, value in fields.items():
            getattr(probe, name)[:] = value
        return probe, self.kernel_state(probe)

    def kernel_state(self, state: BaseState) -> Any:
        """The state as the kernels take it (writes go to the state's own arrays)."""
        return self.state_arg.of(state)

    def run_chunks(self, kernel, state: BaseState, *args) -> None:
        """``kernel(T, S, lo, hi, *args)`` over every game of ``state`` (``GameChunks.run``)."""
        self.chunks.run(kernel, lambda: self.kernel_state(state), state.batch_size, *args)

    @property
    def _every(self) -> int:
        """The driver's EVERY flag when the core stops at every decision (``every_decision``)."""
        return EVERY if self.every_decision else 0

    def _init(self, keys: np.ndarray) -> BaseState:
        state = self.blank(keys)
        self.run_chunks(self.driver.run_chunk, state, START | self._every, NO_ACTIONS, state.legal_action_mask,
                        state.current_player)
        return state

    def settle(self, state: BaseState) -> BaseState:
        """A position laid out by hand handed to the rules (a copy): the steps nobody decides run
        (and the decisions that take themselves, unless ``every_decision``) until a player must
        decide or the game ends; the mask and the player to decide are set.  Every field's type
        and range is checked before any kernel runs, and the ruleset's invariants after
        (``RecordError`` names what is wrong)."""
        errors = schema.check(self.state_class, state.arrays(), self.dims)
        if errors:
            raise RecordError("; ".join(errors))
        new = state.copy()
        self.run_chunks(self.driver.run_chunk, new, SETTLE | self._every, NO_ACTIONS, new.legal_action_mask,
                        new.current_player)
        errors = self.check_state(new) or self.check_outcome(new)
        if errors:
            raise RecordError("the position settled to one the rules never reach: " + "; ".join(errors[:5]))
        return new

    def _step_logged(self, state: BaseState, actions: np.ndarray) -> tuple[BaseState, np.ndarray, int]:
        """``_step`` on one thread with the event log on: (the new state, the log's records, how
        many were written)."""
        new = state.copy()
        log = events.buffer()
        arg = self.state_arg.of({**new.arrays(), **log})
        self.driver.run_chunk(self.tables, arg, 0, new.batch_size, STEP | self._every,
                              np.ascontiguousarray(actions, dtype=np.int64), new.legal_action_mask, new.current_player)
        return new, log["ev"], int(log["ev_n"][0])

    def _step(self, state: BaseState, actions: np.ndarray) -> BaseState:
        new = state.copy()
        self._step_in_place(new, actions)
        return new

    def _step_in_place(self, state: BaseState, actions: np.ndarray) -> None:
        """The rules kernel alone: ``state`` advanced in place by checked ``actions``."""
        self.run_chunks(self.driver.run_chunk, state, STEP | self._every, np.ascontiguousarray(actions, dtype=np.int64),
                        state.legal_action_mask, state.current_player)

    def _legal(self, state: BaseState) -> tuple[np.ndarray, np.ndarray]:
        masks = np.zeros_like(state.legal_action_mask)
        players = state.current_player.copy()
        self.run_chunks(self.driver.run_chunk, state, MASK, NO_ACTIONS, masks, players)
        return masks, players


__all__ = ["KernelStruct", "KernelCore", "GameChunks", "bind_driver", "check_threads", "only_action", "HOOKS", "EVERY"]
