"""Batched, seeded dice, decks and cups, reproducible per game.

Every game in a batch owns a 64-bit key and a draw counter (fields ``rng_key`` and
``rng_counter`` of every State).  A draw hashes ``(key, counter)`` with SplitMix64 and bumps the
counter, so a game's dice depend only on its own key and history: game i gives the same
trajectory stepped alone or inside any batch, and a saved game resumes its dice exactly.  (A
shared ``numpy.random.Generator`` cannot give that: the numbers a game sees would depend on how
many other games drew before it.)

Keys come from ``numpy.random.SeedSequence([seed, i])``: the i-th game of ``init(B, seed)`` is the
same game for every ``B``.  Numpy-side helpers (``shuffled``, ``draw_from_cup``) take an explicit
``numpy.random.Generator`` for set-up work outside the step.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_MASK64 = (1 << 64) - 1


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


def roll_numpy(keys: np.ndarray, counters: np.ndarray, sides: int) -> np.ndarray:
    """Vectorized ``draw`` for a whole batch (same numbers as the jitted draw); returns the
    rolls and the advanced counters without touching the inputs."""
    keys = np.asarray(keys, dtype=np.uint64)
    counters = np.asarray(counters, dtype=np.uint32)
    with np.errstate(over="ignore"):
        x = keys ^ (counters.astype(np.uint64) * np.uint64(0xD1B54A32D192ED03))
        x = x + np.uint64(0x9E3779B97F4A7C15)
        z = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return (z % np.uint64(sides)).astype(np.int64) + 1, counters + np.uint32(1)


def shuffled(rng: np.random.Generator, items: np.ndarray) -> np.ndarray:
    """A shuffled copy of a deck."""
    out = np.array(items, copy=True)
    rng.shuffle(out)
    return out


def draw_from_cup(rng: np.random.Generator, cup: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Draw ``count`` chits without replacement; returns (drawn, remaining)."""
    if count > len(cup):
        raise ValueError(f"cannot draw {count} chits from a cup of {len(cup)}")
    order = rng.permutation(len(cup))
    return np.asarray(cup)[order[:count]], np.asarray(cup)[order[count:]]
