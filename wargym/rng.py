"""Randomness for every ruleset: dice, random picks and shuffles, keyed per game; forcing for tests.

Every game in a batch owns a 64-bit key and a draw counter (fields ``rng_key`` and
``rng_counter`` of every state).  A draw hashes ``(key, counter)`` with SplitMix64 and bumps the
counter, so a game's dice depend only on its own key and history: game i gives the same
trajectory stepped alone or inside any batch, and a saved game resumes its dice exactly.  (A
shared ``numpy.random.Generator`` cannot give that: the numbers a game sees would depend on how
many other games drew before it.)  Keys come from ``numpy.random.SeedSequence([seed, i])``: the
i-th game of ``init(B, seed)`` is the same game for every ``B``.

In the kernels (numba, one game ``g`` of the state ``S``)::

    roll(S, g, sides)     a die, 1..sides; a value forced by a test comes first
    uniform(S, g, n)      a random pick, 0..n-1 (which chit, which unit of a cup); never forced
    shuffle(S, g, items)  Fisher-Yates in place, with uniform
    take_forced(S, g)     the next forced value (consumed), or -1

Card decks (shuffle, deal, draw, discard, reshuffle) are built on these in ``wargym.cards``.

Forcing: ``core.force(state, values)`` queues values in the state's ``forced`` / ``forced_n``
fields; the next ``roll`` takes the next value as its die, and the next ``cards.draw_card`` takes
it as the card to draw.  That is how tests replay the book's worked examples with the book's dice
and cards.  Records from outside may not carry a forced queue (``core.from_dict`` refuses one), so
neither a bot-protocol client nor a saved file can load the dice.
"""

from __future__ import annotations

import numpy as np

from wargym.jit import njit

FORCED_MAX = 24   # values a test may force ahead (the longest book example rolls 19 dice)


def game_keys(seed: int, batch_size: int, first_game: int = 0) -> np.ndarray:
    """uint64[B] keys for games ``first_game .. first_game + B - 1`` of a run seeded ``seed``."""
    if seed < 0:
        raise ValueError(f"seed must be >= 0, got {seed}")
    return np.array(
        [np.random.SeedSequence([int(seed), first_game + i]).generate_state(1, np.uint64)[0]
         for i in range(batch_size)],
        dtype=np.uint64,
    )


@njit(cache=True)
def splitmix64(x):
    x = (x + np.uint64(0x9E3779B97F4A7C15)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    z = x
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def draw(rng_key, rng_counter, game, sides):
    """A uniform integer in [1, sides] for ``game``; advances that game's counter."""
    c = rng_counter[game]
    rng_counter[game] = c + np.uint32(1)
    z = splitmix64(rng_key[game] ^ (np.uint64(c) * np.uint64(0xD1B54A32D192ED03)))
    return np.int64(z % np.uint64(sides)) + 1


@njit(cache=True)
def uniform(S, g, n):
    """A uniform pick in [0, n) for game g (never forced: which chit, which unit of a cup)."""
    return draw(S.rng_key, S.rng_counter, g, n) - 1


@njit(cache=True)
def take_forced(S, g):
    """The next value a test forced for game g, taken off the queue; -1 when none is queued."""
    n = S.forced_n[g]
    if n <= 0:
        return -1
    v = np.int64(S.forced[g, 0])
    for i in range(1, n):
        S.forced[g, i - 1] = S.forced[g, i]
    S.forced[g, n - 1] = 0
    S.forced_n[g] = n - 1
    return v


@njit(cache=True)
def roll(S, g, sides):
    """One die of ``sides`` faces, 1..sides, for game g; a value forced by a test comes first."""
    v = take_forced(S, g)
    if v >= 0:
        return v
    return draw(S.rng_key, S.rng_counter, g, sides)


@njit(cache=True)
def shuffle(S, g, items):
    """Shuffle ``items`` in place (Fisher-Yates) with game g's draws."""
    for i in range(items.shape[0] - 1, 0, -1):
        j = uniform(S, g, i + 1)
        items[i], items[j] = items[j], items[i]


# ------------------------------------------------------------------------------ numpy helpers
def roll_numpy(keys: np.ndarray, counters: np.ndarray, sides: int) -> tuple[np.ndarray, np.ndarray]:
    """Vectorized ``draw`` for a whole batch (same numbers as the jitted draw); returns the
    rolls and the advanced counters without touching the inputs.  For rulesets written in numpy."""
    keys = np.asarray(keys, dtype=np.uint64)
    counters = np.asarray(counters, dtype=np.uint32)
    with np.errstate(over="ignore"):
        x = keys ^ (counters.astype(np.uint64) * np.uint64(0xD1B54A32D192ED03))
        x = x + np.uint64(0x9E3779B97F4A7C15)
        z = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return (z % np.uint64(sides)).astype(np.int64) + 1, counters + np.uint32(1)


def roll_batch(state, sides: int, rolled: np.ndarray) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """numpy ``roll`` for every game where ``rolled`` (bool[B]): (dice int64[B], the state fields
    after the roll: ``rng_counter``, ``forced``, ``forced_n``), a forced value first."""
    dice, counters = roll_numpy(state.rng_key, state.rng_counter, sides)
    queued = rolled & (state.forced_n > 0)
    dice = np.where(queued, state.forced[:, 0], dice)
    forced = np.where(queued[:, None], np.roll(state.forced, -1, axis=1), state.forced)
    forced[queued, -1] = 0
    return dice, {"rng_counter": np.where(rolled & ~queued, counters, state.rng_counter),
                  "forced": forced.astype(state.forced.dtype),
                  "forced_n": np.where(queued, state.forced_n - 1, state.forced_n).astype(state.forced_n.dtype)}
