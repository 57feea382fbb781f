"""Elo ratings from pairwise game results, with bootstrap standard errors.

The model is Bradley-Terry on the Elo scale: player i beats player j with probability

    P(i beats j) = 1 / (1 + 10 ** ((elo_j - elo_i) / 400))

and a draw counts as half a win for each.  The ratings are its maximum-likelihood estimate over
all games at once (not a sequential Elo update, so the order of the games does not matter), found
by Hunter's minorization-maximization iteration (Hunter 2004, "MM algorithms for generalized
Bradley-Terry models").  A perfect score would put a rating at infinity, so every pair of players
that met is also credited with ``prior_draws`` drawn games (default 1), a weak prior that pulls
the ratings together.  The ratings are centred on a mean of 0 (``anchor``: that player at 0).

Standard errors come from the bootstrap over games: the games are resampled with replacement
``bootstrap`` times (seeded) and the ratings refitted; the s.e. is the standard deviation of each
player's rating over the refits.

    ratings = elo_ratings([("rule", "random", 1.0), ("random", "rule", 0.5), ...], seed=0)
    ratings.elo["rule"], ratings.stderr["rule"]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

ELO_SCALE = 400.0 / np.log(10.0)  # Elo points per unit of natural-log strength


@dataclass(frozen=True)
class Ratings:
    """Elo and bootstrap s.e. per player, best first in ``order``."""

    players: tuple[str, ...]
    elo: dict[str, float]
    stderr: dict[str, float]
    games: dict[str, int]
    score: dict[str, float]  # mean score (a draw counting half) over the player's games

    @property
    def order(self) -> list[str]:
        return sorted(self.players, key=lambda p: -self.elo[p])

    def table(self) -> list[str]:
        width = max([len(p) for p in self.players] + [6])
        lines = [f"  {'#':>2}  {'agent':<{width}}  {'Elo':>6}  {'s.e.':>5}  {'games':>5}  {'score':>6}"]
        for rank, p in enumerate(self.order, 1):
            lines.append(f"  {rank:>2}  {p:<{width}}  {self.elo[p]:>+6.0f}  {self.stderr[p]:>5.0f}  "
                         f"{self.games[p]:>5}  {self.score[p]:>6.1%}")
        return lines


def expected_score(elo_a: float, elo_b: float) -> float:
    """Expected score of a player rated ``elo_a`` against one rated ``elo_b``."""
    return 1.0 / (1.0 + 10.0 ** ((elo_b - elo_a) / 400.0))


def fit_strengths(wins: np.ndarray, games: np.ndarray, iterations: int = 10_000, tol: float = 1e-10) -> np.ndarray:
    """Log-strengths (natural log, mean 0) maximizing the Bradley-Terry likelihood of ``wins``
    (wins[i, j]: points i scored against j) in ``games`` (games[i, j] = games[j, i])."""
    n = wins.shape[0]
    total = wins.sum(axis=1)
    gamma = np.ones(n)
    played = games.sum(axis=1) > 0
    for _ in range(iterations):
        denom = (games / (gamma[:, None] + gamma[None, :])).sum(axis=1)
        new = np.where(played, total / np.where(denom > 0, denom, 1.0), 1.0)
        new = np.maximum(new, 1e-300)
        new /= np.exp(np.log(new).mean())  # fix the scale: geometric mean 1
        if np.max(np.abs(np.log(new) - np.log(gamma))) < tol:
            gamma = new
            break
        gamma = new
    return np.log(gamma)


def _tables(idx_a: np.ndarray, idx_b: np.ndarray, score_a: np.ndarray, n: int,
            prior_draws: float) -> tuple[np.ndarray, np.ndarray]:
    wins = np.zeros((n, n))
    games = np.zeros((n, n))
    np.add.at(wins, (idx_a, idx_b), score_a)
    np.add.at(wins, (idx_b, idx_a), 1.0 - score_a)
    np.add.at(games, (idx_a, idx_b), 1.0)
    np.add.at(games, (idx_b, idx_a), 1.0)
    met = games > 0
    wins += 0.5 * prior_draws * met
    games += prior_draws * met
    return wins, games


def elo_ratings(results: Iterable[tuple[str, str, float]], players: Sequence[str] | None = None,
                bootstrap: int = 200, seed: int = 0, prior_draws: float = 1.0,
                anchor: str | None = None) -> Ratings:
    """Ratings from ``results``: (player a, player b, score of a: 1 win, 0.5 draw, 0 loss) per game.

    ``players`` fixes the order (and may list players without games: they get 0 +- 0)."""
    rows = [(str(a), str(b), float(s)) for a, b, s in results]
    for a, b, s in rows:
        if a == b:
            raise ValueError(f"a game of {a!r} against itself cannot be rated")
        if not 0.0 <= s <= 1.0:
            raise ValueError(f"score of {a!r} vs {b!r} must be in [0, 1] (1 win, 0.5 draw, 0 loss), got {s}")
    names = list(players) if players is not None else sorted({p for a, b, _ in rows for p in (a, b)})
    index = {p: i for i, p in enumerate(names)}
    unknown = {p for a, b, _ in rows for p in (a, b)} - set(index)
    if unknown:
        raise ValueError(f"results name players not in the list: {sorted(unknown)}")
    if anchor is not None and anchor not in index:
        raise ValueError(f"anchor {anchor!r} is not a player ({', '.join(names)})")
    n = len(names)
    idx_a = np.array([index[a] for a, _, _ in rows], dtype=np.int64)
    idx_b = np.array([index[b] for _, b, _ in rows], dtype=np.int64)
    score_a = np.array([s for _, _, s in rows], dtype=float)

    def fit(sample: np.ndarray) -> np.ndarray:
        wins, games = _tables(idx_a[sample], idx_b[sample], score_a[sample], n, prior_draws)
        elo = fit_strengths(wins, games) * ELO_SCALE
        return elo - (elo[index[anchor]] if anchor is not None else elo.mean())

    everything = np.arange(len(rows))
    elo = fit(everything)
    rng = np.random.default_rng(seed)
    if bootstrap > 0 and rows:
        refits = np.stack([fit(rng.integers(0, len(rows), len(rows))) for _ in range(bootstrap)])
        stderr = refits.std(axis=0, ddof=1) if bootstrap > 1 else np.zeros(n)
    else:
        stderr = np.zeros(n)

    count = np.zeros(n, dtype=np.int64)
    points = np.zeros(n)
    np.add.at(count, idx_a, 1)
    np.add.at(count, idx_b, 1)
    np.add.at(points, idx_a, score_a)
    np.add.at(points, idx_b, 1.0 - score_a)
    return Ratings(tuple(names), {p: float(elo[i]) for p, i in index.items()},
                   {p: float(stderr[i]) for p, i in index.items()}, {p: int(count[i]) for p, i in index.items()},
                   {p: float(points[i] / count[i]) if count[i] else 0.0 for p, i in index.items()})
