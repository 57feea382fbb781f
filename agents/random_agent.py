"""Uniformly random legal play, vectorized over the batch and seeded."""

from __future__ import annotations

import numpy as np

from wargym.core import BaseState, Core
from wargym.jit import njit

BLOCK = 32  # mask entries summed at a time while looking for the drawn rank (_pick_ranked)


def sample_legal(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """int64[B]: one action per game drawn uniformly from ``mask`` (bool[B, A]); 0 where a game
    has no legal action (a finished game).  One uniform draw per game picks the rank of its legal
    action (0.4 ms at 1024 x 827, where numpy's cumsum took 4.9 ms at 1024 x 1231)."""
    out = np.empty(mask.shape[0], dtype=np.int64)
    _pick_ranked(np.ascontiguousarray(mask, dtype=np.bool_), rng.random(mask.shape[0]), out)
    return out


@njit(cache=True)
def _pick_ranked(mask, u, out):
    """out[g] = the legal action of rank int(u[g] * legal count) in row g (0 where none): the
    count, then a skip over whole blocks of BLOCK entries before the scan inside one (the block
    sums vectorize; an entry-by-entry scan with its early exit does not: 0.64 -> 0.40 ms at
    1024 x 827)."""
    B, A = mask.shape
    for g in range(B):
        row = mask[g].view(np.uint8)
        n = np.int64(0)  # int64 sums: interpreted (NUMBA_DISABLE_JIT), uint8 + int stays uint8 and wraps
        for a in range(A):
            n += np.int64(row[a])
        out[g] = 0
        if n == 0:
            continue
        rank = np.int64(u[g] * n)  # < n: u < 1, and u * n never rounds up to n (n < 2**53)
        a = 0
        while a + BLOCK <= A:
            s = np.int64(0)
            for k in range(BLOCK):
                s += np.int64(row[a + k])
            if rank < s:
                break
            rank -= s
            a += BLOCK
        while True:
            rank -= np.int64(row[a])
            if rank < 0:
                break
            a += 1
        out[g] = a


class RandomAgent:
    """Picks uniformly among the legal actions of every game (one random draw per game)."""

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def act(self, core: Core, state: BaseState, player: int) -> np.ndarray:
        return sample_legal(self.rng, np.asarray(core.legal_mask(state), dtype=bool))

    def __repr__(self) -> str:
        return "RandomAgent()"
