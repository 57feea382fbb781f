"""Uniformly random legal play, vectorized over the batch and seeded."""

from __future__ import annotations

import numpy as np

from wargym.core import BaseState, Core
from wargym.jit import njit


def sample_legal(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """int64[B]: one action per game drawn uniformly from ``mask`` (bool[B, A]); 0 where a game
    has no legal action (a finished game).  One uniform draw per game picks the rank of its legal
    action (one pass over the mask: 0.3 ms at 1024 x 1231, where numpy's cumsum took 4.9 ms)."""
    out = np.empty(mask.shape[0], dtype=np.int64)
    _pick_ranked(np.ascontiguousarray(mask, dtype=np.bool_), rng.random(mask.shape[0]), out)
    return out


@njit(cache=True)
def _pick_ranked(mask, u, out):
    for g in range(mask.shape[0]):
        row = mask[g]
        rank = np.int64(u[g] * row.sum())
        out[g] = 0
        for a in range(row.shape[0]):
            if row[a]:
                if rank == 0:
                    out[g] = a
                    break
                rank -= 1


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
