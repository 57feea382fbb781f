"""Evaluation: agent A against agent B over many seeded games, played B games at a time.

    result = evaluate("island_war", "rule", "random", games=100, seed=0, decisions="major")
    print("\\n".join(result.table()))
    result.win_rate, result.ci            # A's wins / games, Wilson 95% interval

Which games are played (so that any two evaluations with the same seed deal the same dice)::

    game j of a run seeded S     dice: core.init(1, S + j // 2)     (= ``wargym demo --seed S + j // 2``)
                                 A plays side j % 2 (us, japan, us, ...), B the other

With two players the games come in mirrored pairs: both games of a pair are dealt by the same seed
and A plays one side in the first and the other side in the second, which cancels much of the
luck of the dice and any first-player advantage (``swap_sides=False``: A always plays the first
side, game j dealt by S + j; ``a_side="japan"``: A always plays that side, game j dealt by S + j,
as for a policy trained for one side).  A one-player ruleset is played by A alone.

Every step of a batch, each agent is asked for actions (``agent.act(core, state, side)``) for the
side it plays and its actions are used in the games where that side is to decide; ``core.step``
checks every one against the mask.  Results are from A's point of view: a win is a final reward
> 0, a loss < 0, and a draw is 0 (a game stopped by the decision limit is a draw and is also
counted as ``truncated``).

Agents are named as in ``make_agent`` ("random", "rule", "rule:<name>", "sb3:<path>",
"onnx:<path>", "py:<module>:<Name>"), or given as Agent objects, or as mappings ``{"spec": ...,
"seed": ..., "name": ...}`` (a tournament's agents: ``seed`` tells apart two agents of the same
spec).  A trained policy (sb3:, onnx:) carries its settings (wargym.agents.base): the games are
built with its ruleset, scenario, decisions and rule options, and it plays only its side (A's
side follows from the policies: no ``a_side`` needed); a value given that contradicts a policy,
or two policies that want different games or the same side, is an error naming both.  A named agent is
built once per side it plays, seeded from the run's seed, the first game of the batch, its role
and side and its own ``seed``, so a run is reproducible.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from wargym.core import stack_states

Z95 = 1.959963984540054  # two-sided 95% normal quantile
RESULTS = ("win", "draw", "loss")


# ---------------------------------------------------------------------------------------- results
def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion; (0, 1) when ``n`` is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def mcnemar_one_sided(only_a: int, only_b: int) -> float:
    """The one-sided exact McNemar p of paired games: P(at least ``only_a`` of the ``only_a +
    only_b`` discordant pairs go to A) when each is a fair coin (1 without a discordant pair)."""
    m = only_a + only_b
    return sum(math.comb(m, k) for k in range(only_a, m + 1)) / 2 ** m if m else 1.0


@dataclass(frozen=True)
class GameResult:
    """One game of an evaluation, from A's point of view."""

    game: int          # index j of the game in the run
    seed: int          # its dice: core.init(1, seed)
    a_side: str        # the side A played
    result: str        # "win", "draw" or "loss" for A
    length: int        # decisions taken in the game (both sides)
    truncated: bool    # stopped by the decision limit (counted as a draw)

    @property
    def score(self) -> float:
        """1 for a win, 0.5 for a draw, 0 for a loss."""
        return {"win": 1.0, "draw": 0.5, "loss": 0.0}[self.result]


@dataclass(frozen=True)
class Record:
    """Wins, draws and losses of A over some games, with the Wilson interval of the win rate."""

    games: int
    wins: int
    draws: int
    losses: int
    truncated: int
    mean_length: float
    std_length: float

    @classmethod
    def of(cls, games: Sequence[GameResult]) -> "Record":
        lengths = np.array([g.length for g in games], dtype=float)
        count = {r: sum(g.result == r for g in games) for r in RESULTS}
        return cls(len(games), count["win"], count["draw"], count["loss"], sum(g.truncated for g in games),
                   float(lengths.mean()) if len(games) else 0.0, float(lengths.std()) if len(games) else 0.0)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def ci(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def score(self) -> float:
        """Mean score, a draw counting half."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0

    def to_dict(self) -> dict[str, Any]:
        lo, hi = self.ci
        return {**asdict(self), "win_rate": self.win_rate, "ci_low": lo, "ci_high": hi, "score": self.score}


@dataclass
class EvalResult:
    """The games of one evaluation and their summary (``all``, ``by_side``)."""

    ruleset: str
    scenario: str
    decisions: str | None
    agent_a: str
    agent_b: str | None
    seed: int
    players: tuple[str, ...]
    games: list[GameResult]
    seconds: float
    replays: list[str] = field(default_factory=list)

    @property
    def all(self) -> Record:
        return Record.of(self.games)

    @property
    def by_side(self) -> dict[str, Record]:
        """A's record on each side it played."""
        return {p: Record.of([g for g in self.games if g.a_side == p]) for p in self.players
                if any(g.a_side == p for g in self.games)}

    # the headline numbers, straight from ``all``
    wins = property(lambda self: self.all.wins)
    draws = property(lambda self: self.all.draws)
    losses = property(lambda self: self.all.losses)
    win_rate = property(lambda self: self.all.win_rate)
    ci = property(lambda self: self.all.ci)
    mean_length = property(lambda self: self.all.mean_length)
    std_length = property(lambda self: self.all.std_length)

    def to_dict(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "scenario": self.scenario, "decisions": self.decisions,
                "a": self.agent_a, "b": self.agent_b, "seed": self.seed, "seconds": self.seconds,
                "all": self.all.to_dict(), "by_side": {s: r.to_dict() for s, r in self.by_side.items()},
                "games": [asdict(g) for g in self.games], "replays": self.replays}

    def table(self) -> list[str]:
        """A readable report: one row per side A played and one for all games."""
        vs = f"{self.agent_a} (A) vs {self.agent_b} (B)" if self.agent_b is not None else f"{self.agent_a} alone"
        mode = f", decisions={self.decisions}" if self.decisions else ""
        lines = [f"{self.ruleset} / {self.scenario}{mode}: {vs}, {len(self.games)} games, seed {self.seed}",
                 f"  {'':<14}{'games':>6}{'wins':>6}{'draws':>7}{'losses':>8}{'win rate':>10}  95% CI"]
        rows = [(f"A as {s}", r) for s, r in self.by_side.items()] if len(self.players) > 1 else []
        for label, r in rows + [("all", self.all)]:
            lo, hi = r.ci
            lines.append(f"  {label:<14}{r.games:>6}{r.wins:>6}{r.draws:>7}{r.losses:>8}"
                         f"{r.win_rate:>10.1%}  [{lo:.1%}, {hi:.1%}]")
        a = self.all
        lines.append(f"  game length: {a.mean_length:.1f} decisions on average (std {a.std_length:.1f})"
                     + (f"; {a.truncated} stopped at the decision limit (draws)" if a.truncated else ""))
        total = sum(g.length for g in self.games)
        rate = total / self.seconds if self.seconds > 0 else float("inf")
        lines.append(f"  wall time:   {self.seconds:.1f} s ({rate:,.0f} decisions/s)")
        if self.replays:
            lines.append(f"  replays:     {len(self.replays)} in {Path(self.replays[0]).parent}")
        return lines


# ----------------------------------------------------------------------------------------- agents
def agent_name(spec: Any) -> str:
    """How an agent is called in tables: its name, its spec string, or its repr."""
    if isinstance(spec, Mapping):
        return str(spec.get("name") or spec["spec"])
    if isinstance(spec, str):
        return spec
    return getattr(spec, "name", None) or repr(spec)


def _derived_seed(*parts: int) -> int:
    return int(np.random.SeedSequence([int(p) for p in parts]).generate_state(1, np.uint32)[0])


def _side_agents(spec: Any, ruleset: str, players: tuple[str, ...], seed: int, first_game: int,
                 role: int, sides: set[int]) -> list[Any]:
    """One agent per side for ``spec`` (a named agent is built per side: baselines are per side),
    seeded for the batch starting at ``first_game``; ``role`` 0 for A, 1 for B.  Only the
    ``sides`` it plays in the batch are built (None elsewhere), so that a baseline one side alone
    has (Attu's ``rule:margin``) plays that side."""
    from wargym.agents.base import make_agent, reset_agent

    own_seed = 0
    if isinstance(spec, Mapping):
        if "spec" not in spec:
            raise ValueError(f"agent {dict(spec)!r}: needs a 'spec' (e.g. 'random', 'rule')")
        own_seed = int(spec.get("seed") or 0)
        spec = spec["spec"]
    agents = []
    for i, side in enumerate(players):
        if i not in sides:
            agents.append(None)
            continue
        s = _derived_seed(seed, first_game, role, i, own_seed)
        agent = make_agent(spec, ruleset, side, seed=s)
        if not isinstance(spec, str):  # an object given by the caller: reseed it for this run
            reset_agent(agent, s)
        agents.append(agent)
    return agents


# --------------------------------------------------------------------------------------- playing
def game_plan(games: int, seed: int, players: int, swap_sides: bool = True,
              first_game: int = 0, a_side: int | None = None) -> list[tuple[int, int, int]]:
    """(game index j, dice seed, A's side index) of games ``first_game .. first_game + games - 1``."""
    if seed < 0:
        raise ValueError(f"seed must be >= 0, got {seed}")
    paired = swap_sides and players == 2 and a_side is None
    return [(j, seed + j // 2, j % 2) if paired else (j, seed + j, a_side or 0)
            for j in range(first_game, first_game + games)]


def _play_batch(core, plan, agents_a, agents_b, record_actions: bool, ended):
    """Play the games of ``plan`` at once; ``ended(games, state, lengths)`` is called with the
    indices of the games that have just ended (those finished from the start first).  Returns
    (initial, final, actions per game)."""
    initial = stack_states([core.init(1, s) for _, s, _ in plan])
    a_side = np.array([side for _, _, side in plan])
    n_players = len(core.players)
    b_side = (1 - a_side) if n_players == 2 else np.full_like(a_side, -1)
    state = initial
    lengths = np.zeros(len(plan), dtype=np.int64)
    taken: list[np.ndarray] = []
    done = core.terminated(state) | core.truncated(state)
    if done.any():
        ended(np.flatnonzero(done), state, lengths)
    while not done.all():
        cur = np.asarray(core.current_player(state))
        actions = np.zeros(len(plan), dtype=np.int64)
        for side in range(n_players):
            for agents, plays in ((agents_a, a_side), (agents_b, b_side)):
                mine = ~done & (cur == side) & (plays == side)
                if mine.any():
                    actions[mine] = np.asarray(agents[side].act(core, state, side), dtype=np.int64)[mine]
        state = core.step(state, actions)
        lengths += ~done
        if record_actions:
            taken.append(np.where(done, -1, actions))
        now = core.terminated(state) | core.truncated(state)
        if (now & ~done).any():
            ended(np.flatnonzero(now & ~done), state, lengths)
        done = now
    per_game: list[list[int]] = [[] for _ in plan]
    if record_actions and taken:
        table = np.stack(taken)
        per_game = [table[:, g][table[:, g] >= 0].tolist() for g in range(len(plan))]
    return initial, state, per_game


def evaluate(ruleset: str | None, agent_a: Any, agent_b: Any = None, games: int = 100, seed: int = 0,
             scenario: str | None = None, decisions: str | None = None, swap_sides: bool = True,
             replay_dir: str | Path | None = None, batch_size: int = 64, first_game: int = 0,
             core_options: Mapping[str, Any] | None = None, a_side: str | None = None,
             progress: Callable[[int], None] | None = None, flags: Mapping[str, str] | None = None,
             on_batch: Callable[[Any, Any, list[GameResult]], None] | None = None,
             on_game: Callable[[GameResult], None] | None = None) -> EvalResult:
    """Play ``games`` seeded games of ``ruleset`` between ``agent_a`` and ``agent_b`` (see the
    module docstring for which games); ``replay_dir``: write one replay JSON per game there.

    ``ruleset``, ``scenario`` and ``decisions`` (None: the policies', else the ruleset's default
    scenario and ``DEFAULT_DECISIONS``, "major") are passed to the core, as are ``core_options``
    (e.g. ``{"max_decisions": 2000}``, added to the policies' rule options); ``first_game`` starts
    the run at game j (a tournament splits a pair's games into chunks); ``a_side``: the side A plays
    in every game (None: a one-side policy's side, else both, see the module docstring);
    ``progress(n)`` is called as n games end, and ``on_game(result)`` as each game ends, with its
    GameResult (a tournament writes it to results.csv then); ``on_batch(core, final, games)``
    after each batch of games, with the batch's final core state (its game g is ``games[g]``), for
    what the results alone do not say (a victory level, a score: benchmarks/learnability.py).
    ``SettingsError`` (a ValueError) when a value given contradicts a policy's settings;
    ``flags``: how its message writes the options (the command line's: wargym.agents.base.CLI_FLAGS)."""
    from wargym.agents.base import game_settings, policy_sides
    from wargym.registry import RULESETS
    from wargym.replay import GameRecord, save_replay

    if games < 1:
        raise ValueError(f"games must be >= 1, got {games}")
    if batch_size < 1:
        raise ValueError(f"batch_size must be >= 1, got {batch_size}")
    if ruleset is not None and ruleset not in RULESETS:
        raise ValueError(f"unknown ruleset {ruleset!r}; known: {sorted(RULESETS)}")
    labels = (f"A ({agent_name(agent_a)})", f"B ({agent_name(agent_b)})")
    game = game_settings([(labels[0], agent_a), (labels[1], agent_b)], ruleset, scenario, decisions, core_options,
                         flags)
    ruleset, decisions, core_options = game["ruleset"], game["decisions"], game["options"]
    scenario = game["scenario"] or RULESETS[ruleset].default_scenario
    core = _make_core(ruleset, scenario, decisions, core_options or {})
    players = tuple(core.players)
    if len(players) > 2:
        raise ValueError(f"evaluate plays one or two sides; {ruleset} has {len(players)} players")
    if len(players) == 2 and agent_b is None:
        raise ValueError(f"{ruleset} has two players: give agent_b")
    scen_name = core.scenario.name

    start = time.perf_counter()
    if a_side is not None and a_side not in players:
        raise ValueError(f"a_side {a_side!r} is not a player of {ruleset}; players: {players}")
    a_side = policy_sides(players, (labels[0], game["settings"][labels[0]]),
                          (labels[1], game["settings"][labels[1]]), a_side, (flags or {}).get("a_side", "a_side={!r}"))
    plan = game_plan(games, seed, len(players), swap_sides, first_game,
                     None if a_side is None else players.index(a_side))
    out = Path(replay_dir) if replay_dir is not None else None
    names = {"a": agent_name(agent_a), "b": agent_name(agent_b) if agent_b is not None else None}
    results: list[GameResult] = []
    replays: list[str] = []
    for k in range(0, len(plan), batch_size):
        chunk = plan[k:k + batch_size]
        a_sides = {side for _, _, side in chunk}
        agents_a = _side_agents(agent_a, ruleset, players, seed, chunk[0][0], 0, a_sides)
        agents_b = _side_agents(agent_b, ruleset, players, seed, chunk[0][0], 1,
                                {1 - side for side in a_sides}) if len(players) == 2 else []
        ended_as: dict[int, GameResult] = {}

        def ended(games: np.ndarray, state, lengths: np.ndarray) -> None:
            rewards, truncated = np.asarray(core.rewards(state)), np.asarray(core.truncated(state))
            for g in games:
                j, game_seed, side = chunk[g]
                r = float(rewards[g, side])
                result = "win" if r > 0 else "loss" if r < 0 else "draw"
                ended_as[g] = GameResult(j, game_seed, players[side], result, int(lengths[g]), bool(truncated[g]))
                if on_game is not None:
                    on_game(ended_as[g])
            if progress is not None:
                progress(len(games))

        initial, final, actions = _play_batch(core, chunk, agents_a, agents_b, out is not None, ended)
        first = len(results)
        for g, (j, game_seed, side) in enumerate(chunk):
            results.append(ended_as[g])
            if out is not None:
                who = {players[side]: names["a"]}
                if len(players) == 2:
                    who[players[1 - side]] = names["b"]
                meta = {"ruleset": ruleset, "scenario": scenario, "seed": game_seed, "decisions": decisions,
                        "agents": {p: who[p] for p in players}, "game": j, "a": names["a"], "b": names["b"],
                        **({"core_options": dict(core_options)} if core_options else {})}
                record = GameRecord(core, initial.take([g]), actions[g], final.take([g]), meta=meta)
                replays.append(str(save_replay(record, replay_file(out, j))))
        if on_batch is not None:
            on_batch(core, final, results[first:])
    return EvalResult(ruleset, scen_name, decisions, names["a"], names["b"], seed, players, results,
                      time.perf_counter() - start, replays)


def replay_file(folder: str | Path, game: int) -> Path:
    """Where ``evaluate(replay_dir=folder)`` saves game ``game``: ``folder/game_NNNNN.json``."""
    return Path(folder) / f"game_{game:05d}.json"


def _make_core(ruleset: str, scenario: str, decisions: str | None, options: Mapping[str, Any]):
    from wargym.registry import make_core

    kwargs = dict(options)
    if decisions is not None:
        kwargs["decisions"] = decisions
    return make_core(ruleset, scenario, **kwargs)


# -------------------------------------------------------------------------------------------- CLI
def add_eval_arguments(p: argparse.ArgumentParser) -> None:
    """Arguments of ``wargym eval``."""
    from wargym.agents.base import Default
    from wargym.cli_types import non_negative_int, positive_int
    from wargym.registry import RULESETS

    p.add_argument("--ruleset", default=Default("island_war"), choices=sorted(RULESETS),
                   help="ruleset (default: a policy's, else island_war)")
    p.add_argument("--a", default="rule", metavar="SPEC",
                   help="agent A: random, rule, rule:<name>, sb3:<path>, onnx:<path>, py:<module>:<Name> (default "
                        "rule); a policy brings its own ruleset, scenario, decisions and side")
    p.add_argument("--b", default="random", metavar="SPEC", help="agent B, the opponent, a spec as for --a "
                                                                 "(default random)")
    p.add_argument("--games", type=positive_int, default=100,
                   help="number of games (default 100; A plays each side in half)")
    p.add_argument("--seed", type=non_negative_int, default=0,
                   help="seed of the games' dice and of the agents (default 0)")
    p.add_argument("--scenario", default=None,
                   help="scenario name or file (default: a policy's, else the ruleset's default)")
    p.add_argument("--decisions", default=Default("major"), choices=("full", "major"),
                   help="'full': every choice by the agents; 'major': minor choices by the default rules "
                        "(default: a policy's, else major)")
    p.add_argument("--replays", default=None, metavar="DIR", help="write one replay JSON per game into DIR")
    p.add_argument("--batch-size", type=positive_int, default=64, help="games played at once (default 64)")
    p.add_argument("--no-swap", action="store_true", help="A always plays the first side")
    p.add_argument("--a-side", default=None, metavar="SIDE",
                   help="A always plays this side, B the other (default: a policy plays the side it was "
                        "trained for; otherwise sides alternate)")
    p.add_argument("--threads", type=positive_int, default=None,
                   help="numba threads for the rules kernels (default: all cores; 1 is faster on a busy machine)")
    p.add_argument("--json", action="store_true", help="print the result as JSON (every game included)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def progress_bar(total: int, enabled: bool, desc: str = "games"):
    """(update(n), close()) of a tqdm bar on stderr when it is a terminal; no-ops otherwise."""
    if not enabled or not sys.stderr.isatty():
        return None, lambda: None
    try:
        from tqdm import tqdm
    except ImportError:
        return None, lambda: None
    bar = tqdm(total=total, unit=" games", desc=desc, leave=False, file=sys.stderr)
    return bar.update, bar.close


def run_eval(args: argparse.Namespace) -> int:
    """``wargym eval``: play the games, print the table (or JSON)."""
    from wargym.agents.base import CLI_FLAGS
    from wargym.cli_types import check_agent_spec

    check_agent_spec(args.a, "--a")
    check_agent_spec(args.b, "--b")
    if args.threads is not None:
        import numba

        if not 1 <= args.threads <= numba.config.NUMBA_NUM_THREADS:
            raise ValueError(f"--threads must be in 1..{numba.config.NUMBA_NUM_THREADS}, got {args.threads}")
        numba.set_num_threads(args.threads)
    update, close = progress_bar(args.games, not (args.quiet or args.json), desc="evaluating")
    try:
        result = evaluate(args.ruleset, args.a, args.b, games=args.games, seed=args.seed, scenario=args.scenario,
                          decisions=args.decisions, swap_sides=not args.no_swap, replay_dir=args.replays,
                          batch_size=args.batch_size, a_side=args.a_side, progress=update, flags=CLI_FLAGS)
    finally:
        close()
    if args.json:
        print(json.dumps(result.to_dict(), indent=1))
    else:
        print("\n".join(result.table()))
    return 0
