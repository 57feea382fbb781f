"""Randomness for every ruleset: dice, random picks and shuffles, keyed per game; forcing for tests.

Every game in a batch owns a key of two 64-bit words and a draw counter (fields ``rng_key``
uint64[B, 2] and ``rng_counter`` of every state).  A draw is a keyed hash of ``(key, counter)``
and bumps the counter, so a game's dice depend only on its own key and history: game i gives the
same trajectory stepped alone or inside any batch, and a saved game resumes its dice exactly.  (A
shared ``numpy.random.Generator`` cannot give that: the numbers a game sees would depend on how
many other games drew before it.)

Two kinds of key, told apart by the key's second word:

* a seeded game (``init(B, seed)``; training, evaluation, tests, the stateless bot protocol):
  ``(SeedSequence([seed, i]), 0)``, and each draw is SplitMix64 of ``key ^ counter * c``: fast, and
  the i-th game of ``init(B, seed)`` is the same game for every ``B``.  Whoever knows the seed
  knows every die; that is what a seed is for.
* a game dealt from the operating system's entropy (``entropy_keys``: the bot protocol's
  sessions, where a client must not be able to work out the other side's cards or the dice):
  128 random bits, the second word never 0, and each draw is SipHash-2-4 (Aumasson and Bernstein,
  2012), a pseudo-random function keyed by all 128 bits, of the counter: the dice already seen
  tell nothing about the key or the dice to come.

In the kernels (numba, one game ``g`` of the state ``S``)::

    roll(S, g, sides)     a die, 1..sides; a value forced by a test comes first
    uniform(S, g, n)      a random pick, 0..n-1 (which chit, which unit of a cup); a forced pick first
    shuffle(S, g, items)  Fisher-Yates in place, with uniform
    take_forced(S, g)     the next forced value (consumed), or -1

Card decks (shuffle, deal, draw, discard, reshuffle) are built on these in ``wargym.cards``.

Forcing: ``core.force(state, values, picks=...)`` queues values in the state's ``forced`` /
``forced_n`` fields; the next ``roll`` takes the next value as its die, and the next
``cards.draw_card`` takes it as the card to draw; ``picks`` go to ``forced_pick``, and the next
``uniform`` (a cup, a marker, a step of a shuffle) takes the next one as the index it picks.  That is how tests replay the book's worked examples with the book's dice
and cards.  Records from outside may not carry a forced queue (``core.from_dict`` refuses one), so
neither a bot-protocol client nor a saved file can load the dice.
"""

from __future__ import annotations

import secrets

import numpy as np

from wargym.jit import njit

FORCED_MAX = 24   # values a test may force ahead (the longest book example rolls 19 dice)


KEY_WORDS = 2     # a game's key: uint64[2] (the second word 0 for a seeded game)
ENTROPY_BITS = 128


def game_keys(seed: int, batch_size: int, first_game: int = 0) -> np.ndarray:
    """uint64[B, 2] keys for games ``first_game .. first_game + B - 1`` of a run seeded ``seed``
    (second word 0: SplitMix64 dice)."""
    if seed < 0:
        raise ValueError(f"seed must be >= 0, got {seed}")
    keys = np.zeros((batch_size, KEY_WORDS), dtype=np.uint64)
    keys[:, 0] = [np.random.SeedSequence([int(seed), first_game + i]).generate_state(1, np.uint64)[0]
                  for i in range(batch_size)]
    return keys


def entropy_keys(batch_size: int) -> np.ndarray:
    """uint64[B, 2] keys of 128 bits each from the operating system's entropy (``secrets``), the
    second word never 0 (SipHash-2-4 dice): games nobody can work out from a seed."""
    keys = np.zeros((batch_size, KEY_WORDS), dtype=np.uint64)
    for g in range(batch_size):
        while not keys[g, 1]:
            bits = secrets.randbits(ENTROPY_BITS)
            keys[g] = (bits & (2**64 - 1), bits >> 64)
    return keys


@njit(cache=True)
def splitmix64(x):
    x = (x + np.uint64(0x9E3779B97F4A7C15)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    z = x
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def _rotl(x, b):
    return (x << np.uint64(b)) | (x >> np.uint64(64 - b))


@njit(cache=True)
def _sipround(v0, v1, v2, v3):
    v0 = v0 + v1
    v1 = _rotl(v1, 13) ^ v0
    v0 = _rotl(v0, 32)
    v2 = v2 + v3
    v3 = _rotl(v3, 16) ^ v2
    v0 = v0 + v3
    v3 = _rotl(v3, 21) ^ v0
    v2 = v2 + v1
    v1 = _rotl(v1, 17) ^ v2
    v2 = _rotl(v2, 32)
    return v0, v1, v2, v3


@njit(cache=True)
def siphash24(k0, k1, m):
    """SipHash-2-4 under the key (k0, k1) of the 8-byte message whose little-endian word is ``m``."""
    v0 = k0 ^ np.uint64(0x736F6D6570736575)
    v1 = k1 ^ np.uint64(0x646F72616E646F6D)
    v2 = k0 ^ np.uint64(0x6C7967656E657261)
    v3 = k1 ^ np.uint64(0x7465646279746573) ^ m
    for _ in range(2):
        v0, v1, v2, v3 = _sipround(v0, v1, v2, v3)
    v0 ^= m
    last = np.uint64(8) << np.uint64(56)  # the final block: the message's length, 8, in its top byte
    v3 ^= last
    for _ in range(2):
        v0, v1, v2, v3 = _sipround(v0, v1, v2, v3)
    v0 ^= last
    v2 ^= np.uint64(0xFF)
    for _ in range(4):
        v0, v1, v2, v3 = _sipround(v0, v1, v2, v3)
    return v0 ^ v1 ^ v2 ^ v3


@njit(cache=True)
def keyed_word(k0, k1, c):
    """The 64 random bits of draw number ``c`` of the game keyed (k0, k1) (module docstring)."""
    if k1 == np.uint64(0):
        return splitmix64(k0 ^ (np.uint64(c) * np.uint64(0xD1B54A32D192ED03)))
    return siphash24(k0, k1, np.uint64(c))


@njit(cache=True)
def draw(rng_key, rng_counter, game, sides):
    """A uniform integer in [1, sides] for ``game``; advances that game's counter."""
    c = rng_counter[game]
    rng_counter[game] = c + np.uint32(1)
    z = keyed_word(rng_key[game, 0], rng_key[game, 1], c)
    return np.int64(z % np.uint64(sides)) + 1


@njit(cache=True)
def uniform(S, g, n):
    """A uniform pick in [0, n) for game g (which chit, which unit of a cup, a step of a shuffle);
    a pick a test forced (``core.force(..., picks=)``) comes first."""
    n_forced = S.forced_pick_n[g]
    if n_forced > 0:
        v = np.int64(S.forced_pick[g, 0])
        for i in range(1, n_forced):
            S.forced_pick[g, i - 1] = S.forced_pick[g, i]
        S.forced_pick[g, n_forced - 1] = 0
        S.forced_pick_n[g] = n_forced - 1
        if v >= n:
            raise ValueError("a forced pick is past the end of the draw that took it (core.force picks=)")
        return v
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
    """Vectorized ``draw`` for a whole batch (keys uint64[B, 2]; the same numbers as the jitted
    draw); returns the rolls and the advanced counters without touching the inputs.  For rulesets
    written in numpy."""
    keys = np.asarray(keys, dtype=np.uint64)
    counters = np.asarray(counters, dtype=np.uint32)
    z = np.array([keyed_word(k[0], k[1], c) for k, c in zip(keys, counters)], dtype=np.uint64)
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
