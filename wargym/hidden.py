"""Hidden information: declared once per ruleset; views and the leak test derived from it.

A core lists what a player may not see in ``hidden`` (a tuple of the two kinds below); the
shared core adds what no player sees in any ruleset: the dice to come (``rng_key``,
``rng_counter``, the test queue ``forced``) and another player's legal actions.

``Secret(field, hidden_from, when, values)``
    The values of a field are hidden from the players named (``EVERYONE`` for all): a chit drawn
    face-down, the key of the dice.  ``when(core, state, viewer) -> bool`` (broadcast to the field)
    says which games or elements are hidden now (a chit once revealed is not); ``values(core)`` the
    values the field can take, for the leak test (default: its declared range).

``Anonymous(axis, hidden_from, who, public, refs)``
    Which item is which is hidden: among the items ``who(core, state, viewer) -> bool[B, N]``
    selects, the viewer sees the ``public`` per-item fields (where a counter stands, whether it
    acted) but not which item (unit, card) is where: face-down counters, a hand of cards, a
    shuffled deck.  The items are indexed by the dimension ``axis`` ("U", a deck's card axis); the
    per-item fields are the state fields whose first per-game dimension is ``axis`` (the schema);
    ``refs`` names the fields whose values are item numbers (the unit selected), relabelled with
    the items.  ``seen_as`` lists ``(field, value, shown)``: a public value the viewer cannot tell
    from another (Attu: a face-down counter eliminated or melted back into the cup is, to the
    U.S., a counter gone off the map), shown as ``shown`` for the selected items.

Derived:

``redact(core, state, viewer) -> state``
    What ``viewer`` may know, as a state of the same type: every hidden value replaced by a fixed
    stand-in (the field's starting value) and the anonymous items relabelled in a canonical order
    of their public fields (their other fields at the stand-in).  Two states that differ only in
    what the viewer may not see have equal redactions.  The bot protocol's session mode and the
    replays saved for a player send redacted records (``core.view``), never the real ones.

``perturb(core, state, viewer, rng) -> state``
    A state that differs from ``state`` only in what ``viewer`` may not see: hidden values redrawn
    at random, anonymous items permuted at random (items that look alike under ``seen_as`` also
    swap their real values of those fields), and the legal mask and the player to decide worked
    out again.  The contract's leak test (wargym.contract) checks that ``observe``, the legal
    mask, ``render`` (text and image), the env's info and the session payloads are the same for
    both: hidden information is checked everywhere a client receives anything, not only in what
    is drawn.

``sample(core, state, viewer, seed, n, game)`` (``core.sample_hidden``)
    Determinization: ``n`` states that ``viewer`` cannot tell from game ``game`` of ``state``,
    made from its view alone (``redact``), so that they cannot depend on a fact it may not see:
    the anonymous items of each declaration dealt back to their places by a uniform random
    permutation (a reshuffled deck, a hand redrawn from the cards unaccounted for, the face-down
    counters of one back among themselves), each ``pool`` Secret dealt from what its visible
    elements left, any other Secret drawn from its values, and fresh dice (a new random key,
    counter 0, no forced values).  Which elements and items are hidden (``when``, ``who``) is
    itself public, so it is read from ``state``.  A ruleset whose view leaves more to fill in
    than this (Attu's look-alike counters off the map) completes the samples in
    ``core._complete_sample``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from wargym import schema

EVERYONE = "*"

When = Callable[[Any, Any, int], np.ndarray]


@dataclass(frozen=True)
class Secret:
    field: str
    hidden_from: tuple[str, ...] | str = EVERYONE
    when: When | None = None
    values: Callable[[Any], np.ndarray] | None = None
    pool: Callable[[Any], np.ndarray] | None = None


@dataclass(frozen=True)
class Anonymous:
    axis: str
    hidden_from: tuple[str, ...] | str
    who: When
    public: tuple[str, ...]
    refs: tuple[str, ...] = ()
    seen_as: tuple[tuple[str, int, int], ...] = ()


Declaration = Secret | Anonymous


def _not_to_move(core, state, viewer: int) -> np.ndarray:
    return np.asarray(state.current_player) != viewer


#: hidden in every ruleset: the dice to come, and the options of a player who is not the viewer
BASE = (
    Secret("rng_key"),
    Secret("rng_counter"),
    Secret("forced"),
    Secret("forced_n"),
    Secret("forced_pick"),
    Secret("forced_pick_n"),
    Secret("legal_action_mask", when=_not_to_move),
)


def applies(decl: Declaration, core, viewer: int) -> bool:
    """Whether ``decl`` hides anything from player ``viewer``."""
    if decl.hidden_from == EVERYONE:
        return True
    unknown = [p for p in decl.hidden_from if p not in core.players]
    if unknown:
        raise ValueError(f"{core.name}: hidden information names players {unknown}; players: {core.players}")
    return core.players[viewer] in decl.hidden_from


def declarations(core, viewer: int) -> list[Declaration]:
    """What player ``viewer`` may not see in ``core``'s ruleset."""
    if not 0 <= viewer < len(core.players):
        raise ValueError(f"viewer must be a player index 0..{len(core.players) - 1}, got {viewer}")
    return [d for d in (*BASE, *core.hidden) if applies(d, core, viewer)]


def _hidden_elements(decl: Secret, core, state, viewer: int) -> np.ndarray:
    arr = getattr(state, decl.field)
    if decl.when is None:
        return np.ones(arr.shape, dtype=bool)
    mask = np.asarray(decl.when(core, state, viewer), dtype=bool)
    return np.broadcast_to(mask.reshape(mask.shape + (1,) * (arr.ndim - mask.ndim)), arr.shape)


def item_fields(core, axis: str) -> list[str]:
    """The state fields indexed by items of ``axis`` (their first per-game dimension)."""
    return [name for name, v in schema.specs(core.state_class).items() if v.shape and v.shape[0] == axis]


def _stand_in(core, name: str, shape: tuple[int, ...]) -> np.ndarray:
    v = schema.spec(core.state_class, name)
    value = v.init(core) if callable(v.init) else v.init
    return np.broadcast_to(np.asarray(value, dtype=v.dtype), shape)


def _relabel(out: dict[str, np.ndarray], refs: tuple[str, ...], g: int, old: np.ndarray, new: np.ndarray) -> None:
    """Item ``old[k]`` is now item ``new[k]``: rewrite the item numbers held in ``refs``."""
    for name in refs:
        values = out[name][g:g + 1]
        before = values.copy()
        for o, n in zip(old.tolist(), new.tolist()):
            values[before == o] = n


# ------------------------------------------------------------------------------------- redaction
def redact(core, state, viewer: int):
    """``viewer``'s view of ``state`` (module docstring): a state of the same type."""
    out = {f.name: getattr(state, f.name).copy() for f in dataclasses.fields(state)}
    b = state.batch_size
    for decl in declarations(core, viewer):
        if isinstance(decl, Secret):
            hidden = _hidden_elements(decl, core, state, viewer)
            stand = np.broadcast_to(_stand_in(core, decl.field, out[decl.field].shape[1:]), out[decl.field].shape)
            out[decl.field] = np.where(hidden, stand, out[decl.field])
            continue
        fields = item_fields(core, decl.axis)
        who = np.asarray(decl.who(core, state, viewer), dtype=bool)
        for field, value, shown in decl.seen_as:
            column = out[field]
            column[who & (column == value)] = shown
        for g in range(b):
            items = np.flatnonzero(who[g])
            if len(items) == 0:
                continue
            # the public fields, then which of the item numbers in ``refs`` name it (the unit selected
            # is a public fact): two items alike in both are indistinguishable, in either order
            keys = [tuple(np.asarray(out[f][g, u]).ravel().tolist() for f in decl.public) +
                    tuple(bool(np.any(out[r][g] == u)) for r in decl.refs) for u in items]
            order = np.array(sorted(range(len(items)), key=lambda i: keys[i]), dtype=np.int64)
            for name in fields:
                column = out[name][g]
                if name in decl.public:
                    column[items] = column[items[order]].copy()
                else:
                    column[items] = _stand_in(core, name, column.shape[1:])
            _relabel(out, decl.refs, g, items[order], items)
    return dataclasses.replace(state, **out)


# ------------------------------------------------------------------------------------ perturbation
def _random_values(decl: Secret, core, arr: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    if decl.values is not None:
        choices = np.asarray(decl.values(core)).astype(arr.dtype)
        return choices[rng.integers(len(choices), size=arr.shape)]
    v = schema.spec(core.state_class, decl.field)
    if v.dtype == np.bool_:
        return rng.random(arr.shape) < 0.5
    low, high = schema.bounds_of(v, core.dims)
    if np.issubdtype(v.dtype, np.floating):
        return rng.uniform(max(low, -1e6), min(high, 1e6), arr.shape).astype(v.dtype)
    info = np.iinfo(v.dtype)
    if v.dtype == np.uint64:
        return rng.integers(0, 2**63, arr.shape, dtype=np.uint64) * np.uint64(2) + rng.integers(0, 2, arr.shape,
                                                                                             dtype=np.uint64)
    return rng.integers(max(int(low), info.min), min(int(high), info.max), arr.shape, endpoint=True).astype(v.dtype)


DICE = ("rng_key", "rng_counter", "forced", "forced_n", "forced_pick", "forced_pick_n")


def perturb(core, state, viewer: int, rng: np.random.Generator, keep_dice: bool = False):
    """A state that differs from ``state`` only in what ``viewer`` may not see (module docstring);
    ``keep_dice``: the dice to come stay as they are (``DICE``), so that both play on with the same
    dice (the event log's leak test)."""
    out = {f.name: getattr(state, f.name).copy() for f in dataclasses.fields(state)}
    for decl in declarations(core, viewer):
        if isinstance(decl, Secret):
            if decl.field == "legal_action_mask" or (keep_dice and decl.field in DICE):
                continue  # the mask is worked out again below
            hidden = _hidden_elements(decl, core, state, viewer)
            out[decl.field] = np.where(hidden, _random_values(decl, core, out[decl.field], rng), out[decl.field])
            continue
        fields = item_fields(core, decl.axis)
        who = np.asarray(decl.who(core, state, viewer), dtype=bool)
        for g in range(state.batch_size):
            items = np.flatnonzero(who[g])
            if len(items) < 2:
                continue
            _swap_seen_as(decl, out, g, items, rng)
            moved = items[rng.permutation(len(items))]
            for name in fields:
                out[name][g, items] = out[name][g, moved].copy()
            _relabel(out, decl.refs, g, moved, items)
    return core.refresh(dataclasses.replace(state, **out))


def _swap_seen_as(decl: Anonymous, out: dict[str, np.ndarray], g: int, items: np.ndarray,
                  rng: np.random.Generator) -> None:
    """``seen_as``: items whose fields look the same to the viewer (after the mapping) may hold
    each other's real values of those fields (Attu: which counter off the map is in the cup and
    which in the eliminated pile); shuffle them within each look-alike group."""
    if not decl.seen_as:
        return
    names = list(dict.fromkeys(field for field, _, _ in decl.seen_as))
    real = np.stack([out[name][g, items] for name in names], axis=1)
    shown = real.copy()
    for field, value, seen in decl.seen_as:
        k = names.index(field)
        shown[shown[:, k] == value, k] = seen
    _, group = np.unique(shown, axis=0, return_inverse=True)
    for k in np.unique(group):
        members = np.flatnonzero(group == k)
        real[members] = real[members[rng.permutation(len(members))]]
    for k, name in enumerate(names):
        out[name][g, items] = real[:, k]


# --------------------------------------------------------------------------------- determinization
def sample(core, state, viewer: int, seed, n: int, game: int = 0):
    """``n`` states ``viewer`` cannot tell from game ``game`` of ``state`` (module docstring), as
    one batch; ``seed``: an int or a numpy Generator."""
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    if not 0 <= game < state.batch_size:
        raise ValueError(f"game must be 0..{state.batch_size - 1}, got {game}")
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    real = state.take([game])
    view = redact(core, real, viewer)
    out = {f.name: np.repeat(getattr(view, f.name), n, axis=0) for f in dataclasses.fields(view)}
    for decl in declarations(core, viewer):
        if isinstance(decl, Secret):
            if decl.field in DICE or decl.field == "legal_action_mask":
                continue  # fresh dice below; the mask is worked out again
            hidden = _hidden_elements(decl, core, real, viewer)[0]
            if not hidden.any():
                continue
            if decl.pool is not None:
                _deal(out[decl.field], hidden, getattr(real, decl.field)[0], decl, core, rng)
            else:
                column = out[decl.field]
                column[:, hidden] = _random_values(decl, core, column[:, hidden], rng)
            continue
        items = np.flatnonzero(np.asarray(decl.who(core, real, viewer), dtype=bool)[0])
        if len(items) >= 2:
            _shuffle_items(out, item_fields(core, decl.axis), decl.refs, items, rng)
    keys = np.zeros_like(out["rng_key"])
    keys[:, 0] = (rng.integers(1, 2**63, size=n, dtype=np.uint64) * np.uint64(2)
                  + rng.integers(0, 2, size=n, dtype=np.uint64))
    out["rng_key"] = keys  # SplitMix64 dice (second word 0) from a key drawn here, never the game's
    sampled = core._complete_sample(dataclasses.replace(view, **out), viewer, rng)
    return core.refresh(sampled)


def _deal(column: np.ndarray, hidden: np.ndarray, real: np.ndarray, decl: Secret, core,
          rng: np.random.Generator) -> None:
    """Deal the ``hidden`` elements of every row of ``column`` without replacement from the pool
    less the values its visible elements hold (those that come from the pool)."""
    left = list(np.asarray(decl.pool(core)).tolist())
    for value in real[~hidden].tolist():
        if value in left:
            left.remove(value)
    k = int(hidden.sum())
    if len(left) < k:
        raise ValueError(f"{core.name}: {decl.field} hides {k} elements but its pool has {len(left)} values left")
    left = np.asarray(left, dtype=column.dtype)
    order = np.argsort(rng.random((column.shape[0], len(left))), axis=1)[:, :k]
    column[:, hidden] = left[order]


def _shuffle_items(out: dict[str, np.ndarray], fields: list[str], refs: tuple[str, ...], items: np.ndarray,
                   rng: np.random.Generator) -> None:
    """Every row: item ``items[j]`` becomes the item that stood at ``items[perm[j]]`` (a uniform
    random permutation per row), all its fields with it, and the item numbers held in ``refs``
    follow."""
    n = next(iter(out.values())).shape[0]
    moved = items[np.argsort(rng.random((n, len(items))), axis=1)]
    move_items(out, fields, refs, np.arange(n), moved, np.broadcast_to(items, moved.shape))


def move_items(out: dict[str, np.ndarray], fields: list[str], refs: tuple[str, ...], rows: np.ndarray,
               src: np.ndarray, dst: np.ndarray) -> None:
    """In game ``rows[i]`` of the state arrays ``out``, item ``dst[i, j]`` takes every field of
    ``fields`` that item ``src[i, j]`` held, and the item numbers held in ``refs`` that named
    ``src[i, j]`` name ``dst[i, j]`` (``src`` and ``dst``: int[len(rows), k], each row a
    permutation of the same items)."""
    at = np.asarray(rows)[:, None]
    for name in fields:
        out[name][at, dst] = out[name][at, src]
    if not refs:
        return
    size = out[fields[0]].shape[1]
    relabel = np.tile(np.arange(size), (len(at), 1))
    relabel[np.arange(len(at))[:, None], src] = dst
    for name in refs:
        block = out[name][at[:, 0]]
        flat = block.reshape(len(at), -1)
        valid = (flat >= 0) & (flat < size)
        flat[valid] = np.take_along_axis(relabel, np.where(valid, flat, 0).astype(np.int64), axis=1)[valid]
        out[name][at[:, 0]] = flat.reshape(block.shape)
