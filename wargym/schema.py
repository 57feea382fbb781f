"""State fields declared once: dtype, per-game shape, starting value and legal range.

A ruleset's ``State`` is a frozen dataclass of numpy arrays with a leading batch axis; each field
says what it holds with ``var``::

    @dataclass(frozen=True)
    class State(BaseState):
        phase: np.ndarray = var("int8", high=len(PHASE_NAMES) - 1)
        unit_hex: np.ndarray = var("int16", ("U",), init=lambda core: core.scenario.unit_setup,
                                   low=-1, high="H-1")

Shapes and bounds may name the core's dimensions (``core.dims``: "U" units, "H" hexes, "A"
actions, "P" players, ...), with an offset ("H-1").  From the declaration the shared core builds
new games (``blank``) and checks a record from outside before any kernel sees it (``check``:
dtype, shape and range of every field, naming field, game and value); a ruleset adds the
invariants no single field can state (``BaseCore.check_state``).

A field the rules only ever add to (the turn, the decisions taken, a casualty track, victory points
scored) says so with ``grows=True``: the contract's fuzz checks after every decision that no game
in play saw it decrease (``growing``).
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass
from typing import Any, Mapping, Union

import numpy as np

Bound = Union[int, float, str, None]
_DIM = re.compile(r"^\s*([A-Za-z_]\w*)\s*(?:([+-])\s*(\d+))?\s*$")


@dataclass(frozen=True)
class Var:
    dtype: np.dtype
    shape: tuple[int | str, ...]
    init: Any                      # a value, or a callable(core) -> array of the per-game shape
    low: Bound
    high: Bound
    grows: bool = False            # the rules never decrease it while a game is played


def var(dtype: str | type, shape: tuple[int | str, ...] = (), *, init: Any = 0, low: Bound = None,
        high: Bound = None, grows: bool = False) -> Any:
    """A state field: numpy ``dtype``, per-game ``shape`` (ints or dimension names), its value in
    a new game (``init``: a value or ``callable(core)``), its legal range [low, high] (None:
    the dtype's; bools need none) and whether play only ever adds to it (``grows``: a counter or
    a track; for an array field, each element)."""
    return dataclasses.field(metadata={"var": Var(np.dtype(dtype), tuple(shape), init, low, high, grows)})


def spec(state_class: type, name: str) -> Var:
    """The declaration of field ``name``."""
    for f in dataclasses.fields(state_class):
        if f.name == name:
            return f.metadata["var"]
    raise KeyError(name)


def specs(state_class: type) -> dict[str, Var]:
    out = {}
    for f in dataclasses.fields(state_class):
        if "var" not in f.metadata:
            raise TypeError(f"{state_class.__name__}.{f.name} is not declared with wargym.schema.var")
        out[f.name] = f.metadata["var"]
    return out


def growing(state_class: type) -> tuple[str, ...]:
    """The fields declared ``grows=True``."""
    return tuple(name for name, v in specs(state_class).items() if v.grows)


def resolve(value: int | str, dims: Mapping[str, int]) -> int:
    """An int, or a dimension name with an optional offset ("H-1") read from ``dims``."""
    if not isinstance(value, str):
        return value
    m = _DIM.match(value)
    if not m or m.group(1) not in dims:
        raise KeyError(f"dimension {value!r} is not one of {sorted(dims)}")
    n = int(dims[m.group(1)])
    if m.group(2):
        n = n + int(m.group(3)) if m.group(2) == "+" else n - int(m.group(3))
    return n


def shape_of(v: Var, dims: Mapping[str, int]) -> tuple[int, ...]:
    return tuple(resolve(d, dims) for d in v.shape)


def bounds_of(v: Var, dims: Mapping[str, int]) -> tuple[Any, Any]:
    """The field's [low, high] as numbers (the dtype's limits where it declares none)."""
    if v.dtype == np.bool_:
        return False, True
    info = np.iinfo(v.dtype) if np.issubdtype(v.dtype, np.integer) else np.finfo(v.dtype)
    low = info.min if v.low is None else resolve(v.low, dims)
    high = info.max if v.high is None else resolve(v.high, dims)
    return low, high


def blank(state_class: type, core: Any, batch: int, dims: Mapping[str, int], **given: np.ndarray) -> Any:
    """``batch`` new games: every field at its ``init`` (``given`` arrays override).  Every array is
    C-ordered: numba compiles a kernel anew for each array layout it is given, and one Fortran-ordered
    field in a new game (a transposed set-up) once made a cold start compile Attu's rules twice."""
    out = {}
    for name, v in specs(state_class).items():
        if name in given:
            out[name] = np.ascontiguousarray(given[name], dtype=v.dtype)
            continue
        value = v.init(core) if callable(v.init) else v.init
        shape = (batch, *shape_of(v, dims))
        out[name] = np.array(np.broadcast_to(np.asarray(value, dtype=v.dtype), shape), order="C")
    return state_class(**out)


def check(state_class: type, arrays: Mapping[str, np.ndarray], dims: Mapping[str, int]) -> list[str]:
    """Every field present with its dtype, shape and range: one message per broken field,
    naming the field, the first game and the value that break it."""
    errors = []
    for name, v in specs(state_class).items():
        if name not in arrays:
            errors.append(f"field {name}: missing")
            continue
        a = arrays[name]
        if a.dtype != v.dtype:
            errors.append(f"field {name}: dtype {a.dtype}, needs {v.dtype}")
            continue
        want = shape_of(v, dims)
        if a.shape[1:] != want:
            errors.append(f"field {name}: shape {list(a.shape[1:])} per game, needs {list(want)}")
            continue
        if v.dtype == np.bool_:
            continue
        low, high = bounds_of(v, dims)
        bad = (a < low) | (a > high)
        if np.issubdtype(v.dtype, np.floating):
            bad |= ~np.isfinite(a)
        if bad.any():
            where = np.argwhere(bad)[0]
            g, at = int(where[0]), tuple(int(i) for i in where[1:])
            value = a[(g, *at)].item()
            place = f"[{', '.join(map(str, at))}]" if at else ""
            errors.append(f"field {name}{place}: game {g} has {value!r}, outside [{low}, {high}]")
    return errors


def _whole_within(value: Any, info: np.iinfo) -> bool:
    """Whether every number of ``value`` (nested lists) is a whole number (not a bool) in ``info``'s range."""
    return all(isinstance(x, int) and not isinstance(x, bool) and info.min <= x <= info.max for x in _leaves(value))


def _leaves(value):
    """The scalars of a nested list (a JSON value)."""
    if isinstance(value, (list, tuple)):
        for v in value:
            yield from _leaves(v)
    else:
        yield value


def _kinds(value) -> set[type]:
    """The types of the scalars of a nested list (a JSON value), a set: one pass in C per list
    (the fuzz sends every position through its record; a generator over each scalar cost half of
    from_dict)."""
    if not isinstance(value, (list, tuple)):
        return {type(value)}
    kinds = set(map(type, value))
    if list in kinds or tuple in kinds:
        kinds -= {list, tuple}
        for v in value:
            if isinstance(v, (list, tuple)):
                kinds |= _kinds(v)
    return kinds


BOOLS = {bool, np.bool_}
WHOLE = {int}


def from_values(state_class: type, values: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """Arrays of the declared dtypes from JSON values (nested lists of one game each), without the
    range check: a ValueError naming the field when a value is not of its kind (a whole number for
    an integer field, true/false for a bool, a finite-or-not number for a float)."""
    out = {}
    for name, v in specs(state_class).items():
        if name not in values:
            continue
        kinds, want = _kinds(values[name]), v.dtype.kind
        if kinds <= (BOOLS if want == "b" else WHOLE if want in "iu" else set()):
            try:  # the common case, JSON's own kind: numpy converts and range-checks in one pass
                out[name] = np.asarray(values[name], dtype=v.dtype)
                continue
            except OverflowError:
                pass  # named below
            except ValueError as err:  # ragged lists
                raise ValueError(f"field {name}: not an array of numbers ({err})") from None
        try:
            if v.dtype == np.uint64 and _whole_within(values[name], np.iinfo(v.dtype)):
                arr = np.asarray(values[name], dtype=v.dtype)  # numpy reads [2**63, 0] as floats: exactly, instead
            else:
                arr = np.asarray(values[name])
        except (TypeError, ValueError) as err:  # ragged lists
            raise ValueError(f"field {name}: not an array of numbers ({err})") from None
        kind = arr.dtype.kind
        if want == "b":
            ok = kinds <= BOOLS
        elif want in "iu":
            ok = (kind in "iu" or arr.size == 0) and not kinds & BOOLS
        else:
            ok = (kind in "iuf" or arr.size == 0) and not kinds & BOOLS
        if not ok:
            need = "true/false" if want == "b" else "whole numbers" if want in "iu" else "numbers"
            raise ValueError(f"field {name}: needs {need}, got {str(values[name])[:60]}")
        if want == "f":
            with np.errstate(over="ignore"):  # a float beyond float32 becomes inf: refused by the range check
                out[name] = arr.astype(v.dtype)
            continue
        if kind in "iu" and arr.size:
            info = _iinfo(v.dtype)
            low, high = int(arr.min()), int(arr.max())
            if low < info.min or high > info.max:
                raise ValueError(f"field {name}: {low if low < info.min else high} is outside the range of {v.dtype}")
        out[name] = arr.astype(v.dtype)
    return out


@functools.lru_cache(maxsize=None)
def _iinfo(dtype: np.dtype) -> np.iinfo:
    return np.iinfo(dtype)

