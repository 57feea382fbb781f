"""A planner that thinks with the engine: determinized, batched playouts of a base policy.

At a decision of its side the planner scores the legal actions by playing the game on from each,
many times, in one batched call of the core, and takes the action with the best mean outcome::

    candidates   every legal action, or (more than ``top``) the base policy's choices in
                 determinized copies of the position, most frequent first, then actions drawn
                 at random, ``top`` in all
    samples      ``core.sample_hidden(state, player, rng, n, game)``: positions the player cannot
                 tell from the real one, made from its view alone, with dice of their own
    playout      a candidate played in a sample, then the base policy for every side (the
                 ruleset's rule by default; Peleliu's Japanese are the rules' cards) to the end
                 of the game, or for at most ``horizon`` decisions
    outcome      the player's reward where the game ended; elsewhere the change of its standing
                 (``core.score``: its own less the others' mean) since the sample's start.  An
                 ended game outranks any standing: its reward counts ``WIN`` times.  With
                 ``tiebreak=standing`` an ended game adds its standing's change as well, so
                 playouts that end alike (every one a loss, as the rule's in Attu's solitaire
                 game) are ranked by how they ended, the result still first.  With a fitted
                 ``value`` (wargym.agents.value), a playout cut short scores the value there
                 instead: the expected reward, on the ended games' scale
    choice       successive halving (Karnin et al. 2013): the budget split over ceil(log2(top))
                 rounds, every candidate left played in the same fresh samples in a round (common
                 random numbers: the candidates differ by their action, not by their luck), the
                 worse half dropped after each, the base's favourite never; at the end a
                 candidate replaces the favourite only where its mean gain over it, sample by
                 sample, exceeds ``z`` standard errors (a policy improvement that needs evidence:
                 with tens of playouts a candidate, the best-looking one is mostly luck)
    bank         (optional) ``budget`` is then the mean a decision: the halving spends half of it,
                 the rest goes into a reserve, and a decision still open after the halving (its
                 best alternative's gain within two standard errors of the ``z`` line) draws
                 rounds of half a budget from the reserve, up to ``bank`` budgets in all, until
                 it is settled or the reserve is empty.  Decisions whose playouts all end alike,
                 or whose alternatives are clearly worse, leave their playouts to the close ones

Why successive halving: the budget is small (hundreds of playouts) and the candidates few, and
it spends the playouts where the candidates are close without any constant to tune (UCB's
exploration constant needs a scale of outcomes the horizon's standing does not have), and each
round is one batched call; an information-set MCTS would spend a tree's worth of small calls
where one large call is what the vectorized core does fast.

The planner reads the real state only where the player may: the legal mask of its own decision,
the decision's phase, who decides; everything else comes from the samples (``sample_hidden`` is
built from the player's view), so two positions that differ only in what its side may not see give
the same choice for the same seed (tests/agents/test_planner.py).

The spec (``make_agent``)::

    plan                                 the defaults below
    plan:budget=512,horizon=80,top=6     playouts per decision, decisions per playout (default
                                         end: to the end of the game), candidates
    plan:z=2                             the evidence a candidate needs to replace the favourite
    plan:horizon=80,value=attu_campaign_us
                                         score a playout cut short by a value fitted to outcomes
                                         (a shipped value's name or a JSON file; agents/value.py)
    plan:base=rule:aggressive            the base policy for both sides (any agent spec without ",")
    plan:phases=battle: piece|move: destination
                                         plan only in these decision phases (core.phase_names);
                                         the base decides the others
    plan:tiebreak=standing               ended playouts of one result ranked by their standing
                                         (``none``: by the result alone, the default)
    plan:seconds=0.5                     stop halving when a decision has taken this long
    plan:bank=8                          the budget is a mean: close decisions may spend up to 8
                                         budgets that clear ones left unspent
    plan:turns=2                         plan only in the game's first turns (``state.turn``, which
                                         every player sees); the base decides later ones
    plan:since=14                        plan only from this turn on; the base decides earlier ones
                                         (late decisions: short playouts, and the game's end near)
"""

from __future__ import annotations

import itertools
import math
import time
from typing import Any

import numpy as np

from wargym.agents.base import joint_actions, make_agent, reset_agent
from wargym.agents.value import load_value, standing
from wargym.core import BaseState, stack_states

#: an ended game's reward counts this many times a standing's change: any win outranks any standing
WIN = 1_000.0

DEFAULTS = {"budget": 256, "horizon": None, "top": 8, "base": "rule", "phases": (), "seconds": None, "z": 1.0,
            "turns": None, "since": None, "value": None, "bank": None, "tiebreak": "none"}


class PlannerAgent:
    """Determinized playouts of a base policy (module docstring) for ``side`` of ``ruleset``."""

    def __init__(self, ruleset: str, side: str, base: str = "rule", budget: int = 256, horizon: int | None = None,
                 top: int = 8, phases: tuple[str, ...] | list[str] = (), seconds: float | None = None,
                 z: float = 1.0, turns: int | None = None, since: int | None = None, value: str | None = None,
                 bank: float | None = None, tiebreak: str = "none", seed: int | None = None):
        if budget < 2 or (horizon is not None and horizon < 0) or top < 1 or (turns is not None and turns < 1) \
                or (since is not None and since < 1):
            raise ValueError(f"planner: budget >= 2, horizon >= 0, top >= 1, turns >= 1 and since >= 1, got "
                             f"{budget}, {horizon}, {top}, {turns}, {since}")
        if bank is not None and bank < 1:
            raise ValueError(f"planner: bank must be >= 1 (budgets a decision may spend), got {bank}")
        if seconds is not None and seconds <= 0:
            raise ValueError(f"planner: seconds must be > 0, got {seconds}")
        if tiebreak not in ("none", "standing"):
            raise ValueError(f"planner: tiebreak is 'none' or 'standing', got {tiebreak!r}")
        if tiebreak == "standing" and value:
            raise ValueError("planner: tiebreak=standing and value do not go together (with a fitted value an "
                             "ended playout scores its reward on the value's scale, not WIN times it)")
        self.ruleset, self.side = ruleset, side
        self.base_spec, self.budget, self.top = base, int(budget), int(top)
        self.horizon = None if horizon is None else int(horizon)
        self.phases, self.seconds, self.z = tuple(phases), seconds, float(z)
        self.turns = None if turns is None else int(turns)
        self.since = None if since is None else int(since)
        self.value_name = value
        self.value = load_value(value) if value else None
        self.bank = None if bank is None else float(bank)
        self.tiebreak = tiebreak
        #: playouts earlier decisions left unspent, for close ones (``bank``)
        self.reserve = 0.0
        if self.value is not None and (self.value.data.ruleset, self.value.data.side) != (ruleset, side):
            raise ValueError(f"value {value!r} was fitted for {self.value.data.side} in {self.value.data.ruleset}, "
                             f"the planner plays {side} in {ruleset}")
        self.rng = np.random.default_rng(seed)
        self._bases: dict[tuple[str, ...], list[Any]] = {}
        #: what the planner did: decisions planned, those where it chose another action than the
        #: base's favourite, playouts and decisions stepped, seconds
        self.stats = {"planned": 0, "changed": 0, "playouts": 0, "steps": 0, "seconds": 0.0}

    def reset(self, seed: int | None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self.reserve = 0.0
        for agents in self._bases.values():
            for k, agent in enumerate(agents):
                reset_agent(agent, None if seed is None else seed + 1 + k)

    def __repr__(self) -> str:
        phases = f", phases={list(self.phases)}" if self.phases else ""
        seconds = f", seconds={self.seconds}" if self.seconds else ""
        turns = (f", turns={self.turns}" if self.turns else "") + (f", since={self.since}" if self.since else "")
        value = f", value={self.value_name!r}" if self.value_name else ""
        bank = f", bank={self.bank:g}" if self.bank else ""
        tiebreak = f", tiebreak={self.tiebreak!r}" if self.tiebreak != "none" else ""
        horizon = "end" if self.horizon is None else self.horizon
        return (f"PlannerAgent(base={self.base_spec!r}, budget={self.budget}, horizon={horizon}, "
                f"top={self.top}, z={self.z}{phases}{seconds}{turns}{value}{bank}{tiebreak})")

    # ------------------------------------------------------------------------------------ acting
    def bases(self, core) -> list[Any]:
        """The base policy of every player of ``core`` (one agent each, made once)."""
        players = tuple(core.players)
        if players not in self._bases:
            self._bases[players] = [make_agent(self.base_spec, self.ruleset, p) for p in players]
        return self._bases[players]

    def planned_games(self, core, state: BaseState, player: int) -> np.ndarray:
        """The games where ``player`` decides now, in a planned phase, among two or more actions."""
        names = tuple(core.phase_names)
        missing = [p for p in self.phases if p not in names]
        if missing:
            raise ValueError(f"planner: {core.name} has no phases {missing}; its phases: {list(names)}")
        mine = (np.asarray(core.current_player(state)) == player) & ~np.asarray(state.terminated | state.truncated)
        mine &= np.asarray(core.legal_mask(state)).sum(axis=1) > 1
        if self.phases:
            mine &= np.isin(np.asarray(state.phase), [names.index(p) for p in self.phases])
        if self.turns is not None:
            mine &= np.asarray(state.turn) <= self.turns
        if self.since is not None:
            mine &= np.asarray(state.turn) >= self.since
        return np.flatnonzero(mine)

    def act(self, core, state: BaseState, player: int) -> np.ndarray:
        games = self.planned_games(core, state, player)
        actions = np.asarray(self.bases(core)[player].act(core, state, player), dtype=np.int64).copy()
        if games.size:
            start = time.perf_counter()
            actions[games] = self.plan(core, state, player, games)
            self.stats["planned"] += int(games.size)
            self.stats["seconds"] += time.perf_counter() - start
        return actions

    # ---------------------------------------------------------------------------------- planning
    def plan(self, core, state: BaseState, player: int, games: np.ndarray) -> np.ndarray:
        """The chosen action of each game of ``games`` (all decided by ``player``), planned together:
        every round of every game's halving is one batched playout."""
        start = time.perf_counter()
        masks = np.asarray(core.legal_mask(state))
        alive = [self.candidates(core, state, player, int(g), masks[g]) for g in games]
        favourite = [int(c[0]) for c in alive]
        # per game and candidate: the outcome less the favourite's in the same sample, over all rounds
        gains: list[dict[int, list[np.ndarray]]] = [{int(a): [] for a in c} for c in alive]
        rounds = max(1, math.ceil(math.log2(max(len(c) for c in alive))))
        halving = self.budget // 2 if self.bank else self.budget
        per_round = max(2, halving // rounds)
        spent = np.zeros(len(alive))
        for r in range(rounds):
            if r and self.seconds is not None and time.perf_counter() - start > self.seconds:
                break
            jobs = [(i, c, max(1, per_round // len(c))) for i, c in enumerate(alive) if len(c) > 1]
            if not jobs:
                break
            self._play_round(core, state, player, games, jobs, gains, spent)
            for i, c, _ in jobs:
                means = np.array([np.concatenate(gains[i][a]).mean() for a in c.tolist()])
                means[0] = np.inf
                alive[i] = c[np.argsort(-means, kind="stable")[:max(2, (len(c) + 1) // 2)]]
        if self.bank:
            self._draw_on_reserve(core, state, player, games, alive, gains, spent, start)
        out = np.array(favourite, dtype=np.int64)
        for i, c in enumerate(alive):
            best = 0.0
            for a in c.tolist()[1:]:
                mean, spread = evidence(gains[i][a])
                if mean > best and mean > self.z * spread:
                    out[i], best = a, mean
        self.stats["changed"] += int((out != np.array(favourite)).sum())
        return out

    def _play_round(self, core, state: BaseState, player: int, games: np.ndarray,
                    jobs: list[tuple[int, np.ndarray, int]], gains: list[dict[int, list[np.ndarray]]],
                    spent: np.ndarray) -> None:
        """One round of ``jobs`` (index into ``games``, candidates, samples), played together: each
        candidate's outcome less the favourite's (``c[0]``, never dropped) in the same samples."""
        values = self.playouts(core, state, player, [(int(games[i]), c, n) for i, c, n in jobs])
        for (i, c, n), v in zip(jobs, values):
            spent[i] += n * len(c)
            for k, a in enumerate(c.tolist()):
                gains[i][a].append(v[k] - v[0])

    def _open(self, gains: dict[int, list[np.ndarray]], candidates: np.ndarray) -> bool:
        """Whether more playouts could change the choice: some alternative's mean gain lies within
        two standard errors of the ``z`` line (``bank``)."""
        for a in candidates.tolist()[1:]:
            mean, spread = evidence(gains[a])
            if spread > 0 and (self.z - 2) * spread <= mean <= (self.z + 2) * spread:
                return True
        return False

    def _draw_on_reserve(self, core, state: BaseState, player: int, games: np.ndarray, alive: list[np.ndarray],
                         gains: list[dict[int, list[np.ndarray]]], spent: np.ndarray, start: float) -> None:
        """``bank``: the halving's unspent half of each decision's budget into the reserve, then
        rounds of half a budget for the decisions still open, while the reserve pays and none has
        spent ``bank`` budgets."""
        self.reserve += self.budget * len(alive) - spent.sum()
        cap, step = self.bank * self.budget, max(2, self.budget // 2)
        while self.seconds is None or time.perf_counter() - start <= self.seconds:
            jobs = []
            for i, c in enumerate(alive):
                n = max(1, step // len(c))
                cost = n * len(c)
                if len(c) > 1 and self._open(gains[i], c) and spent[i] + cost <= cap and self.reserve >= cost:
                    jobs.append((i, c, n))
                    self.reserve -= cost
            if not jobs:
                return
            self._play_round(core, state, player, games, jobs, gains, spent)

    def candidates(self, core, state: BaseState, player: int, game: int, mask: np.ndarray) -> np.ndarray:
        """The actions to score in ``game`` (module docstring), the base policy's favourites first."""
        legal = np.flatnonzero(mask)
        probe = core.sample_hidden(state, player, self.rng, min(2 * self.top, 32), game=game)
        preferred = np.asarray(self.bases(core)[player].act(core, probe, player), dtype=np.int64)
        values, counts = np.unique(preferred[mask[preferred]], return_counts=True)
        ordered = values[np.argsort(-counts, kind="stable")].tolist()
        if len(legal) <= self.top:
            return np.array(ordered + [a for a in legal.tolist() if a not in ordered], dtype=np.int64)
        rest = np.setdiff1d(legal, ordered)
        extra = self.rng.choice(rest, size=min(len(rest), max(0, self.top - len(ordered))), replace=False)
        return np.array((ordered + extra.tolist())[:self.top], dtype=np.int64)

    def playouts(self, core, state: BaseState, player: int, jobs: list[tuple[int, np.ndarray, int]]
                 ) -> list[np.ndarray]:
        """For each job (game, candidates, n): float[len(candidates), n], the outcome of every
        candidate in the same n fresh samples of the game."""
        parts, firsts = [], []
        for game, cands, n in jobs:
            samples = core.sample_hidden(state, player, self.rng, n, game=game)
            parts.append(stack_states([samples] * len(cands)))
            firsts.append(np.repeat(cands, n))
        batch = stack_states(parts) if len(parts) > 1 else parts[0]
        total = batch.batch_size
        before = standing(core, batch, player) if self.value is None else None
        value = np.zeros(total)
        rows = np.arange(total)  # the playout each row of ``batch`` is
        core.step_in_place(batch, np.concatenate(firsts))
        bases, steps = self.bases(core), total
        for _ in (itertools.count() if self.horizon is None else range(self.horizon)):
            live = ~np.asarray(batch.terminated | batch.truncated)
            if not live.any():
                break
            if live.sum() <= batch.batch_size // 2:  # the batch shrinks as the playouts end
                self._score(core, batch, player, ~live, rows, before, value)
                keep = np.flatnonzero(live)
                batch, rows, live = batch.take(keep), rows[keep], live[keep]
            core.step_in_place(batch, joint_actions(core, batch, bases, live), active=live)
            steps += int(live.sum())
        self._score(core, batch, player, np.ones(batch.batch_size, bool), rows, before, value)
        self.stats["playouts"] += total
        self.stats["steps"] += steps
        out, at = [], 0
        for _, cands, n in jobs:
            out.append(value[at:at + len(cands) * n].reshape(len(cands), n))
            at += len(cands) * n
        return out

    def _score(self, core, batch: BaseState, player: int, which: np.ndarray, rows: np.ndarray,
               before: np.ndarray, value: np.ndarray) -> None:
        """The outcome (module docstring) of the rows ``which`` of ``batch`` into ``value`` (by
        playout, ``rows``): the reward where the game ended (``WIN`` times, plus the standing's
        change with ``tiebreak=standing``), else the standing's change (with a fitted value: the
        reward, else the value)."""
        part = batch.take(np.flatnonzero(which)) if not which.all() else batch
        at, ended = rows[which], np.asarray(part.terminated)
        reward = np.asarray(part.rewards, dtype=np.float64)[:, player]
        if self.value is not None:
            value[at] = reward if ended.all() else np.where(ended, reward, self.value.value(core, part, player))
        else:
            change = standing(core, part, player) - before[at]
            value[at] = np.where(ended, WIN * reward + (change if self.tiebreak == "standing" else 0.0), change)


def evidence(gains: list[np.ndarray]) -> tuple[float, float]:
    """The mean of a candidate's gains over the favourite, sample by sample, and its standard error
    (infinite with one sample)."""
    gain = np.concatenate(gains)
    spread = gain.std(ddof=1) / math.sqrt(len(gain)) if len(gain) > 1 else math.inf
    return float(gain.mean()), float(spread)


def parse_spec(arg: str) -> dict[str, Any]:
    """The options of a ``plan:...`` spec (module docstring) as keyword arguments."""
    out: dict[str, Any] = {}
    if not arg:
        return out
    for part in arg.split(","):
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq or key not in DEFAULTS:
            raise ValueError(f"plan spec option {part!r}: use key=value with keys {sorted(DEFAULTS)}")
        if key == "horizon" and value.strip() == "end":
            out[key] = None
        elif key in ("budget", "horizon", "top", "turns", "since"):
            try:
                out[key] = int(value)
            except ValueError:
                raise ValueError(f"plan spec option {key}={value!r}: not a whole number") from None
        elif key in ("seconds", "z", "bank"):
            try:
                out[key] = float(value)
            except ValueError:
                raise ValueError(f"plan spec option {key}={value!r}: not a number") from None
        elif key == "value":
            out[key] = value.strip() or None
        elif key == "phases":
            out[key] = tuple(p.strip() for p in value.split("|") if p.strip())
        else:
            out[key] = value.strip()
    return out
