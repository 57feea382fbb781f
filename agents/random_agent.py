"""Uniformly random legal play, vectorized over the batch and seeded."""

from __future__ import annotations

import numpy as np

from wargym.core import BaseState, Core


def sample_legal(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """int64[B]: one action per game drawn uniformly from ``mask`` (bool[B, A]); 0 where a game
    has no legal action (a finished game)."""
    counts = mask.sum(axis=1)
    pick = (rng.random(mask.shape[0]) * counts).astype(np.int64)  # rank of the chosen legal action
    return np.argmax(np.cumsum(mask, axis=1) > pick[:, None], axis=1).astype(np.int64)


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
