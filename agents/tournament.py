"""Round-robin tournaments: every pair of agents plays seeded games with sides swapped; win rates
with Wilson 95% intervals, and Elo ratings with bootstrap standard errors.

A solitaire ruleset (one player: Peleliu, whose cards play the Japanese) has no pairs: each agent
plays ``games_per_pair`` games against the book's own system (``core.system_play``), which the
tables name ``system``; every agent is dealt the same dice (game j by seed + j), and the ratings
are anchored at the system's (Elo 0: the system's strength; an agent that wins half its games
rates 0).

    wargym tournament --config configs/tournament/island_war_baselines.yaml --out runs/baselines

A config (YAML; configs/tournament/*.yaml)::

    name: island_war_baselines
    ruleset: island_war         # default: the policies', else island_war
    scenario: saipan            # default: the policies', else the ruleset's default
    decisions: major            # full | major (default: the policies', else major)
    max_decisions: 20000        # optional: the core's decision limit (a game past it is a draw)
    games_per_pair: 100         # even: the games come in mirrored pairs (see wargym.agents.evaluate)
    seed: 0
    chunk_games: 16             # games per task, played as one batch
    workers: 2                  # optional: local processes (default: all cores)
    agents:                     # a spec string, or {name, spec, seed}
      - random
      - {name: rule, spec: rule}
      - {name: random-7, spec: random, seed: 7}
      - {name: ppo-us, spec: "onnx:policies/us.onnx"}   # a policy: plays only the side it was trained for
      - {name: ppo, spec: "sides:us=onnx:policies/us.onnx;japan=onnx:policies/japan.onnx"}  # one a side
      - {name: mine, spec: "py:my_agents:Greedy"}       # your own agent class (docs/agents.md)

A trained policy (sb3:, onnx:) carries its settings (wargym.agents.base): ruleset, scenario and
decisions default to the policies' own, the games of its pairs have it on its own side, and a
config value that contradicts a policy, or two policies that want different games or the same
side, is an error naming both before any game is played.

How it runs: the games of each pair (A = the earlier agent of the list) are cut into tasks of
``chunk_games`` games; each task is one ``evaluate`` call starting at its first game, so a game's
dice and the agents' seeds depend only on the config, never on how many workers play it.  Every
pair is dealt the same dice (game j by seed + j // 2).  The tasks run in local processes
(concurrent.futures, spawned; numba's cache makes a worker ready in seconds, and each worker's
numba threads are limited to its share of the cores), or on a Ray cluster with ``--ray-address``
(``local`` starts a local Ray cluster; Ray is the optional extra ``wargym[ray]``, and every node
needs wargym installed).

Outputs in ``--out`` DIR: results.csv (one row per game), pairs.csv (one row per pair: record and
interval), ratings.csv (Elo, s.e.), tournament.png (Elo with error bars and the win-rate heatmap),
tournament.json (the config as played, and whether the tournament finished).

What survives an interruption: results.csv gets each game's row as the game ends, flushed and
fsynced (a worker process sends it to the main process at once; on Ray, a task's rows come when
the task ends), so a kill -9 leaves the row of every game that had ended; the other files are
written whole or not at all (wargym.atomic), replays included.  SIGTERM and Ctrl-C stop the
workers and say how many games are in results.csv.  ``wargym tournament ... --resume`` (the same
config and ``--games``; ``workers`` may change) then drops a last line cut short by the kill,
plays again only the tasks with a game missing, with the same seeds, and writes the same final
files as an uninterrupted run: results.csv in the order of the tasks (byte for byte), pairs.csv,
ratings.csv and the chart.  A task, not a game, is what is played again: ``run_tournament`` says
why.  A folder with an unfinished tournament is not started over without ``--resume``.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import re
import signal
import sys
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any, Callable, Literal, Mapping

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from wargym import atomic
from wargym.agents.base import DEFAULT_DECISIONS, Default
from wargym.agents.evaluate import RESULTS, GameResult, Record, evaluate, progress_bar, replay_file
from wargym.agents.ratings import Ratings, elo_ratings

RESULT_COLUMNS = ("a", "b", "a_side", "game", "seed", "result", "length", "truncated")
#: the opponent of every agent in a solitaire ruleset's tournament: the book's own system
SYSTEM = "system"
# Config keys a resumed tournament may change: how the games are spread, not which games.
RESUMABLE = ("workers",)


class MissingExtraError(ImportError, ValueError):
    """An optional dependency is not installed (a ValueError too, so the CLI reports it plainly)."""


# ------------------------------------------------------------------------------------------ config
class AgentEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = ""
    spec: str = Field(min_length=1)
    seed: int = 0

    @model_validator(mode="before")
    @classmethod
    def _from_string(cls, value: Any) -> Any:
        return {"spec": value} if isinstance(value, str) else value

    @model_validator(mode="after")
    def _default_name(self) -> "AgentEntry":
        if not self.name:
            self.name = self.spec if not self.seed else f"{self.spec}@{self.seed}"
        return self


class TournamentConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = "tournament"
    ruleset: str = Default("island_war")  # a Default: the policies' ruleset wins over it
    scenario: str | None = None
    decisions: Literal["full", "major"] | None = Default(DEFAULT_DECISIONS)
    max_decisions: int | None = Field(default=None, ge=1)
    games_per_pair: int = Field(ge=1)
    seed: int = Field(default=0, ge=0)
    chunk_games: int = Field(default=16, ge=1)
    workers: int | None = Field(default=None, ge=1)
    bootstrap: int = Field(default=200, ge=0)
    agents: list[AgentEntry] = Field(min_length=2)

    @field_validator("agents")
    @classmethod
    def _unique_names(cls, agents: list[AgentEntry]) -> list[AgentEntry]:
        names = [a.name for a in agents]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"agent names must be unique; repeated: {', '.join(twice)} "
                             "(give a 'name', or a different 'seed')")
        return agents

    @field_validator("ruleset")
    @classmethod
    def _known_ruleset(cls, ruleset: str) -> str:
        from wargym.registry import RULESETS

        if ruleset not in RULESETS:
            raise ValueError(f"unknown ruleset; known: {', '.join(sorted(RULESETS))}")
        return ruleset


def load_config(path: str | Path) -> TournamentConfig:
    """A tournament config from a YAML file, or by name from the shipped configs/tournament/."""
    from wargym.data import config_path, load_yaml, validate

    path = Path(path)
    if not path.exists() and path.suffix == "" and not path.parent.name:
        path = config_path("tournament", f"{path}.yaml")
    if not path.is_file():
        shipped = sorted(p.stem for p in config_path("tournament").glob("*.yaml"))
        what = "is a folder, not a YAML file" if path.is_dir() else "not found"
        raise FileNotFoundError(f"tournament config {str(path)!r} {what}; give a YAML file, or the name of a "
                                f"shipped one: {', '.join(shipped)}")
    return validate(TournamentConfig, load_yaml(path), path)


# ----------------------------------------------------------------------------------------- results
@dataclass
class TournamentResult:
    config: TournamentConfig
    rows: list[dict[str, Any]]  # one per game, RESULT_COLUMNS
    ratings: Ratings
    seconds: float
    files: dict[str, Path] = field(default_factory=dict)  # what run_tournament(out=...) wrote

    @property
    def names(self) -> list[str]:
        return rated(self.config)

    @property
    def opponents(self) -> list[str]:
        """The columns of ``win_matrix``: every agent, or the system alone in a solitaire ruleset."""
        return [SYSTEM] if solitaire(self.config.ruleset) else self.names

    def record(self, x: str, y: str) -> Record:
        """``x``'s record against ``y`` (over the games of their pair, either way round)."""
        flip = {"win": "loss", "loss": "win", "draw": "draw"}
        games = []
        for r in self.rows:
            if (r["a"], r["b"]) == (x, y):
                games.append(GameResult(r["game"], r["seed"], r["a_side"], r["result"], r["length"], r["truncated"]))
            elif (r["a"], r["b"]) == (y, x):
                games.append(GameResult(r["game"], r["seed"], r["a_side"], flip[r["result"]], r["length"],
                                        r["truncated"]))
        return Record.of(games)

    def win_matrix(self) -> np.ndarray:
        """float[agents, opponents]: win rate of row against column (NaN where none played)."""
        agents = [a.name for a in self.config.agents]
        out = np.full((len(agents), len(self.opponents)), np.nan)
        for i, x in enumerate(agents):
            for j, y in enumerate(self.opponents):
                if x != y:
                    out[i, j] = self.record(x, y).win_rate
        return out

    def pairs(self) -> list[dict[str, Any]]:
        return [{"a": a.name, "b": SYSTEM if b is None else b.name,
                 **self.record(a.name, SYSTEM if b is None else b.name).to_dict()}
                for a, b in matches(self.config)]

    def table(self) -> list[str]:
        c = self.config
        agents, columns = [a.name for a in c.agents], self.opponents
        width = max(len(n) for n in self.names + ["agent"]) + 2
        mode = f", decisions={c.decisions}" if c.decisions else ""
        games = (f"{c.games_per_pair} games each against the book's system ({SYSTEM})" if columns == [SYSTEM]
                 else f"{c.games_per_pair} games per pair")
        lines = [f"tournament {c.name}: {c.ruleset} / {c.scenario or 'default scenario'}{mode}, "
                 f"{len(agents)} agents, {games}, seed {c.seed}",
                 "", "win rate of row against column (a draw is not a win):",
                 " " * width + "".join(f"{n:>{width}}" for n in columns)]
        matrix = self.win_matrix()
        for i, x in enumerate(agents):
            cells = "".join(f"{'-':>{width}}" if np.isnan(v) else f"{v:>{width}.1%}" for v in matrix[i])
            lines.append(f"{x:<{width}}" + cells)
        lines += ["", "pairs (W-D-L of the first; 95% Wilson interval of its win rate):"]
        for p in self.pairs():
            lines.append(f"  {p['a']} vs {p['b']}: {p['wins']}-{p['draws']}-{p['losses']}, "
                         f"win rate {p['win_rate']:.1%} [{p['ci_low']:.1%}, {p['ci_high']:.1%}], {p['mean_length']:.0f} decisions a game"
                         + (f", {p['truncated']} at the limit" if p["truncated"] else ""))
        zero = f"the {SYSTEM} 0" if columns == [SYSTEM] else "mean 0"
        lines += ["", f"ratings (Elo, {zero}; +- bootstrap s.e. over {c.bootstrap} resamples of the games):"]
        lines += self.ratings.table()
        total = sum(r["length"] for r in self.rows)
        lines += ["", f"{len(self.rows)} games, {total:,} decisions in {self.seconds:.1f} s"]
        return lines

    def write(self, out: str | Path) -> dict[str, Path]:
        """results.csv (the games in the order of the tasks), pairs.csv, ratings.csv and
        tournament.png in ``out``, each written whole or not at all; returns their paths."""
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        paths = {"results": out / "results.csv", "pairs": out / "pairs.csv", "ratings": out / "ratings.csv",
                 "chart": out / "tournament.png"}
        atomic.write_text(paths["results"], _csv_text([RESULT_COLUMNS] + [_csv_values(r) for r in self.rows]))
        pairs = self.pairs()
        atomic.write_text(paths["pairs"], _csv_text([list(pairs[0])] + [list(p.values()) for p in pairs]))
        entries = {a.name: a for a in self.config.agents}
        r = self.ratings
        atomic.write_text(paths["ratings"], _csv_text(
            [["rank", "agent", "spec", "seed", "elo", "stderr", "games", "score"]]
            + [[rank, p, entries[p].spec if p in entries else "the book's system", entries[p].seed if p in entries else "",
                f"{r.elo[p]:.1f}", f"{r.stderr[p]:.1f}", r.games[p],
                f"{r.score[p]:.4f}"] for rank, p in enumerate(r.order, 1)]))
        plot(self, paths["chart"])
        return paths


def plot(result: TournamentResult, path: str | Path) -> Path:
    """Elo with s.e. error bars (left) and the win-rate heatmap (right), as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    agents, columns = [a.name for a in result.config.agents], result.opponents
    r = result.ratings
    order = r.order[::-1]  # best at the top
    n = len(result.names)
    fig, (left, right) = plt.subplots(1, 2, figsize=(5 + 1.6 * n, 1.5 + 0.7 * n), squeeze=True,
                                      gridspec_kw={"width_ratios": [1, 1.2 * len(columns) / len(agents)]})
    y = np.arange(len(order))
    left.errorbar([r.elo[p] for p in order], y, xerr=[r.stderr[p] for p in order], fmt="o", capsize=4)
    left.set_yticks(y, order)
    left.axvline(0, color="0.8", lw=1, zorder=0)
    left.set_xlabel(f"Elo ({SYSTEM} 0) ± s.e." if columns == [SYSTEM] else "Elo (mean 0) ± s.e.")
    left.set_title("ratings")
    matrix = result.win_matrix()
    im = right.imshow(np.nan_to_num(matrix, nan=0.5), cmap="RdYlGn", vmin=0, vmax=1)
    right.set_xticks(range(len(columns)), columns, rotation=30, ha="right")
    right.set_yticks(range(len(agents)), agents)
    for i in range(len(agents)):
        for j in range(len(columns)):
            v = matrix[i, j]
            right.text(j, i, "-" if np.isnan(v) else f"{v:.0%}", ha="center", va="center", fontsize=9)
    right.set_title("win rate of row vs column")
    fig.colorbar(im, ax=right, fraction=0.046, pad=0.04)
    c = result.config
    each = "each against the system" if columns == [SYSTEM] else "per pair"
    fig.suptitle(f"{c.name}: {c.ruleset} / {c.scenario or 'default'}, {c.games_per_pair} games {each}")
    fig.tight_layout()
    path = Path(path)
    with atomic.atomic_open(path, "wb") as f:
        fig.savefig(f, format="png", dpi=100)
    plt.close(fig)
    return path


# ------------------------------------------------------------------------------------------ tasks
#: how a settings error names the config's keys
CONFIG_FLAGS = {"ruleset": "ruleset: {}", "scenario": "scenario: {}", "decisions": "decisions: {}", "options": "{}"}


def resolve_game(config: TournamentConfig) -> tuple[TournamentConfig, dict[str, Any]]:
    """(the config with the game its policies were trained for filled in, the core options of
    every game: max_decisions and the policies' rule options).  ``SettingsError`` naming both
    values when the config contradicts a policy, two policies want different games, or two
    policies of the same side would have to play each other: before any game is played."""
    from wargym.agents.base import SettingsError, game_settings

    labels = [a.spec if a.name == a.spec else f"{a.name} ({a.spec})" for a in config.agents]
    options = {"max_decisions": config.max_decisions} if config.max_decisions else {}
    game = game_settings(zip(labels, [a.spec for a in config.agents]), config.ruleset, config.scenario,
                         config.decisions, options, CONFIG_FLAGS)
    sided = [(label, s) for label in labels if (s := game["settings"][label]) and s.get("side")]
    for i, (x, sx) in enumerate(sided):
        for y, sy in sided[i + 1:]:
            if sx["side"] == sy["side"]:
                raise SettingsError(f"{x} and {y} both play side {sx['side']!r} (from {sx['source']}; from "
                                    f"{sy['source']}): they cannot play each other")
    resolved = config.model_copy(update={"ruleset": game["ruleset"], "scenario": game["scenario"],
                                         "decisions": game["decisions"]})
    if solitaire(resolved.ruleset) and SYSTEM in [a.name for a in config.agents]:
        raise SettingsError(f"agents: {resolved.ruleset} has one player, and {SYSTEM!r} names the book's system "
                            "every agent plays against: give the agent another name")
    return resolved, game["options"]


def solitaire(ruleset: str) -> bool:
    """Whether ``ruleset`` has one player: the book's system always plays the other side
    (``core.system_play`` with no option turning it on)."""
    from wargym.registry import core_class

    system = core_class(ruleset).system_play
    return system is not None and system.option is None


def matches(config: TournamentConfig) -> list[tuple[AgentEntry, AgentEntry | None]]:
    """Who plays whom: every pair of agents (A the earlier of the list), or in a solitaire ruleset
    every agent against the system (None)."""
    agents = config.agents
    if solitaire(config.ruleset):
        return [(a, None) for a in agents]
    return [(a, b) for i, a in enumerate(agents) for b in agents[i + 1:]]


def rated(config: TournamentConfig) -> list[str]:
    """Who the ratings rate: the agents, and in a solitaire ruleset the system last."""
    return [a.name for a in config.agents] + ([SYSTEM] if solitaire(config.ruleset) else [])


def pair_folder(a: str, b: str) -> str:
    """The folder name of a pair's replays (``<a>_vs_<b>``, agent names made safe for a path)."""
    return "_vs_".join(re.sub(r"[^A-Za-z0-9._-]+", "-", name) for name in (a, b))


def make_tasks(config: TournamentConfig, replay_dir: str | Path | None = None) -> list[dict[str, Any]]:
    """One task per chunk of a pair's games: plain dicts, so they travel to processes and Ray.
    With ``replay_dir`` every game is saved there as a replay, one folder per pair."""
    config, core_options = resolve_game(config)
    chunk = config.chunk_games + (config.chunk_games % 2)  # keep mirrored pairs of games together
    tasks = []
    for entry_a, entry_b in matches(config):
        a, b = entry_a.model_dump(), None if entry_b is None else entry_b.model_dump()
        for first in range(0, config.games_per_pair, chunk):
            tasks.append({"ruleset": config.ruleset, "scenario": config.scenario, "decisions": config.decisions,
                          "core_options": core_options, "a": a, "b": b, "seed": config.seed,
                          "first_game": first, "games": min(chunk, config.games_per_pair - first),
                          "replay_dir": (str(Path(replay_dir) / pair_folder(a["name"], _name(b)))
                                         if replay_dir is not None else None)})
    return tasks


def _name(entry: Mapping[str, Any] | None) -> str:
    """A task's agent's name (None: the system of a solitaire ruleset)."""
    return SYSTEM if entry is None else entry["name"]


def task_games(task: Mapping[str, Any]) -> list[tuple[str, str, int]]:
    """The games of a task, each named as in results.csv: (a, b, game)."""
    return [(task["a"]["name"], _name(task["b"]), j) for j in range(task["first_game"],
                                                                    task["first_game"] + task["games"])]


def play_task(task: Mapping[str, Any], on_game: Callable[[dict[str, Any]], None] | None = None) -> list[dict[str, Any]]:
    """Play one task (in a worker); the rows of its games.  ``on_game(row)`` as each game ends;
    ``task["threads"]``, when given, limits numba's threads in this process (a Ray worker is
    given one core)."""
    if task.get("threads"):
        _limit_threads(task["threads"])
    a, b = task["a"]["name"], _name(task["b"])
    result = evaluate(task["ruleset"], task["a"], task["b"], games=task["games"], seed=task["seed"],
                      scenario=task["scenario"], decisions=task["decisions"], batch_size=task["games"],
                      first_game=task["first_game"], core_options=task["core_options"],
                      replay_dir=task.get("replay_dir"),
                      on_game=None if on_game is None else lambda g: on_game({"a": a, "b": b, **asdict(g)}))
    return [{"a": a, "b": b, **asdict(g)} for g in result.games]


def _limit_threads(threads: int) -> None:
    """Worker initializer: this process's share of the cores for numba's parallel kernels."""
    try:
        import numba

        numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))
    except Exception:  # numba missing or threads already launched: run with what there is
        pass


# A local worker process sends each game's row here as the game ends (_start_worker).
_ROWS: Any = None


def _start_worker(threads: int, rows, parent: int) -> None:
    """Local worker initializer: its share of the cores; the queue for rows; Ctrl-C is left to
    the parent (which stops the workers); and the worker ends itself within a second of the
    parent's death (a kill -9 of ``wargym tournament``), instead of playing on for nobody."""
    global _ROWS
    _limit_threads(threads)
    _ROWS = rows
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="wargym-parent-watch").start()


def _play_streamed(task: Mapping[str, Any]) -> list[dict[str, Any]]:
    return play_task(task, on_game=_ROWS.put)


def _run_local(tasks, workers: int, record: Callable[[dict[str, Any]], None]) -> None:
    """Play ``tasks`` in this process (``workers`` 1) or in spawned processes; ``record(row)``
    as each game ends (a row may come twice: as its game ends and with its task's rows)."""
    if workers <= 1:
        for t in tasks:
            for row in play_task(t, on_game=record):
                record(row)
        return
    import multiprocessing
    import queue as queues
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    context = multiprocessing.get_context("spawn")
    rows = context.Queue()
    threads = max(1, (os.cpu_count() or 1) // workers)
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_start_worker,
                               initargs=(threads, rows, os.getpid()))
    try:
        pending = {pool.submit(_play_streamed, t) for t in tasks}
        while pending:
            done, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            while True:
                try:
                    record(rows.get_nowait())
                except queues.Empty:
                    break
            for fut in done:
                for row in fut.result():
                    record(row)
    except BaseException:
        _stop_workers(pool)
        raise
    pool.shutdown()


def _stop_workers(pool) -> None:
    """Stop a process pool's workers now, their tasks unfinished (on an error or an interrupt)."""
    pool.shutdown(wait=False, cancel_futures=True)
    if hasattr(pool, "terminate_workers"):  # Python 3.14
        pool.terminate_workers()
        return
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()


def _run_ray(tasks, address: str, workers: int | None, record: Callable[[dict[str, Any]], None]) -> None:
    """Play ``tasks`` on Ray; ``record(row)`` for each game of a task as the task ends."""
    try:
        import ray
    except ImportError:
        raise MissingExtraError("--ray-address needs Ray, an optional extra: pip install 'wargym[ray]' "
                           "(or pip install ray)") from None
    started = False
    if not ray.is_initialized():
        if address == "local":
            ray.init(num_cpus=workers or os.cpu_count(), include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
        started = True
    try:
        remote = ray.remote(num_cpus=1)(play_task)
        pending = [remote.remote({**t, "threads": 1}) for t in tasks]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                for row in ray.get(ref):
                    record(row)
    finally:
        if started:
            ray.shutdown()


# ------------------------------------------------------------------------------ results as they end
def _csv_text(rows) -> str:
    """Rows as CSV text, as the csv module writes them (quoted where needed, lines end in \\r\\n)."""
    buf = io.StringIO()
    csv.writer(buf).writerows(rows)
    return buf.getvalue()


def _csv_values(row: Mapping[str, Any]) -> list[Any]:
    return [int(row[c]) if c == "truncated" else row[c] for c in RESULT_COLUMNS]


def _parse_row(raw: Mapping[str, str], where: str) -> dict[str, Any]:
    """A results.csv row as run_tournament's rows are (numbers as int, truncated as bool)."""
    try:
        row = {"a": raw["a"], "b": raw["b"], "a_side": raw["a_side"], "game": int(raw["game"]),
               "seed": int(raw["seed"]), "result": raw["result"], "length": int(raw["length"]),
               "truncated": bool(int(raw["truncated"]))}
    except (KeyError, TypeError, ValueError) as err:
        raise ValueError(f"{where}: not a result row ({type(err).__name__}: {err}): {dict(raw)}") from None
    if row["result"] not in RESULTS:
        raise ValueError(f"{where}: result {row['result']!r} is not one of {', '.join(RESULTS)}")
    return row


def read_results(path: str | Path) -> list[dict[str, Any]]:
    """The rows of a results.csv, in file order, without a last line cut short by a kill (a
    finished tournament's file holds the games in the order of its tasks; an interrupted one's in
    the order they ended).  ValueError naming the file and line of a row that does not parse."""
    path = Path(path)
    text, _ = atomic.complete_text(path)
    reader = csv.DictReader(io.StringIO(text, newline=""))
    if text and tuple(reader.fieldnames or ()) != RESULT_COLUMNS:
        raise ValueError(f"{path}: the header is {','.join(reader.fieldnames or [])!r}, not "
                         f"{','.join(RESULT_COLUMNS)!r}: not a tournament's results.csv")
    return [_parse_row(raw, f"{path} line {reader.line_num}") for raw in reader]


class ResultsLog:
    """The rows of a tournament's games as they end (``rows``, keyed by (a, b, game)); with a
    file, each new row is appended to it at once, flushed and fsynced, so a kill leaves every
    finished game's row.  ``add`` ignores a row it holds already (a game's row comes as the game
    ends and again with its task's rows) and keeps the games that came out otherwise in
    ``differ`` (a resumed run that played a game again)."""

    def __init__(self, rows: Mapping[tuple[str, str, int], dict[str, Any]] | None = None,
                 file: IO | None = None, progress: Callable[[int], None] | None = None):
        self.rows = dict(rows or {})
        self.file, self.progress = file, progress
        self.differ: list[tuple[str, str, int]] = []

    def add(self, row: dict[str, Any]) -> None:
        key = (row["a"], row["b"], row["game"])
        if key in self.rows:
            if self.rows[key] != row and key not in self.differ:
                self.differ.append(key)
            return
        self.rows[key] = row
        if self.file is not None:
            self.file.write(_csv_text([_csv_values(row)]))
            atomic.sync(self.file)
        if self.progress is not None:
            self.progress(1)

    def close(self) -> None:
        if self.file is not None:
            self.file.close()


def _tournament_record(config: TournamentConfig) -> dict[str, Any]:
    """The config as tournament.json holds it (JSON's types)."""
    return json.loads(json.dumps(config.model_dump()))


def open_results(out: Path, config: TournamentConfig, tasks: list[dict[str, Any]], resume: bool,
                 progress: Callable[[int], None] | None = None) -> ResultsLog:
    """Start (or with ``resume``, continue) the tournament of ``config`` in ``out``: its record
    (tournament.json: the config, status running) and results.csv opened for the rows to come.

    A resumed tournament must have the same config (but ``workers``): a ValueError names the
    keys that differ.  Its results.csv keeps every whole row; a last line cut short by a kill is
    dropped (its game is played again).  Without ``resume``, a folder whose tournament did not
    finish and has games in results.csv is refused (FileExistsError), as its games would be
    lost; a finished one is started over."""
    out.mkdir(parents=True, exist_ok=True)
    record_path, results = out / "tournament.json", out / "results.csv"
    record = json.loads(record_path.read_text(encoding="utf-8")) if record_path.exists() else None
    now = _tournament_record(config)
    kept: dict[tuple[str, str, int], dict[str, Any]] = {}
    if resume:
        if record is None:
            raise FileNotFoundError(f"nothing to resume in {out}: no tournament.json (a tournament started "
                                    "without --resume writes it first)")
        changed = sorted(k for k in set(now) | set(record["config"])
                         if k not in RESUMABLE and now.get(k) != record["config"].get(k))
        if changed:
            raise ValueError(f"--resume: the tournament in {out} was started with "
                             + ", ".join(f"{k}={record['config'].get(k)!r}" for k in changed) + "; this one has "
                             + ", ".join(f"{k}={now.get(k)!r}" for k in changed)
                             + " (give the same config and --games)")
        games = {key for t in tasks for key in task_games(t)}
        for row in read_results(results):
            key = (row["a"], row["b"], row["game"])
            if key not in games:
                raise ValueError(f"{results}: game {key} is not a game of this tournament")
            kept.setdefault(key, row)
        record["resumed"] = [*record.get("resumed", []), time.strftime("%Y-%m-%dT%H:%M:%S")]
    else:
        done = read_results(results) if record is not None and record.get("status") != "finished" else []
        if done:
            raise FileExistsError(f"{out} holds an unfinished tournament ({len(done)} of {record.get('games', '?')} "
                                  "games in results.csv): continue it with --resume, or give another --out")
        results.unlink(missing_ok=True)
        record = {"started": time.strftime("%Y-%m-%dT%H:%M:%S")}
    record.update(config=now, games=sum(t["games"] for t in tasks), status="running")
    atomic.write_text(record_path, json.dumps(record, indent=1) + "\n")
    for folder in [out, *(p for p in (out / "replays").glob("*") if p.is_dir())]:
        atomic.remove_leftovers(folder)
    file, torn = atomic.open_lines(results, _csv_text([RESULT_COLUMNS]))
    if torn:
        print(f"{results}: dropped its last line, cut short by the interruption ({torn!r}); "
              "that game is played again", file=sys.stderr)
    return ResultsLog(kept, file, progress)


def task_done(task: Mapping[str, Any], rows: Mapping[tuple[str, str, int], Any]) -> bool:
    """Whether every game of ``task`` has its row (and, when the task saves replays, its replay)."""
    games = task_games(task)
    if not all(key in rows for key in games):
        return False
    return task.get("replay_dir") is None or all(replay_file(task["replay_dir"], j).exists() for _, _, j in games)


def run_tournament(config: TournamentConfig | Mapping[str, Any] | str | Path, workers: int | None = None,
                   ray_address: str | None = None,
                   progress: Callable[[int], None] | None = None,
                   replay_dir: str | Path | None = None, out: str | Path | None = None,
                   resume: bool = False) -> TournamentResult:
    """Play the round robin of ``config`` (a TournamentConfig, a dict of one, or a YAML path).

    ``workers``: local processes (default the config's, else all cores; 1 plays in this process);
    ``ray_address``: run the tasks on Ray instead ("local" for a local cluster);
    ``progress(n)``: called as n more games are done; ``replay_dir``: save every game there as a
    replay (``<a>_vs_<b>/game_NNNNN.json``, the game numbers of results.csv), for ``wargym render``.

    ``out``: a folder for the tournament's files: results.csv gets each game's row as the game
    ends (``open_results``), and at the end every table is written (``TournamentResult.write``;
    the result's ``files``) and tournament.json says finished.  ``resume``: continue the
    tournament in ``out``, playing only the tasks with a game missing from its results.csv (or
    a replay missing, with ``replay_dir``); the final files equal an uninterrupted run's.

    A task is the unit played again, not a game: the agents of a task are seeded once for the
    whole batch (wargym.agents.evaluate) and draw their random numbers for all its games at once
    (a random agent one number per game in the batch, every decision), so a game's moves depend
    on which games share its batch.  Played again whole, with its seeds, a task deals every game
    as the first time; of a task played again only the missing games' rows are added (the rows
    there stay, and a game that came out otherwise is reported: an agent that is not
    reproducible)."""
    if isinstance(config, (str, Path)):
        config = load_config(config)
    elif not isinstance(config, TournamentConfig):
        from wargym.data import validate

        config = validate(TournamentConfig, dict(config), "<tournament config>")
    if resume and out is None:
        raise ValueError("resume needs out: the folder of the tournament to continue")
    config, _ = resolve_game(config)  # the result reports the game played
    workers = workers or config.workers or os.cpu_count() or 1
    tasks = make_tasks(config, replay_dir)
    out = Path(out) if out is not None else None
    log = open_results(out, config, tasks, resume, progress) if out is not None else ResultsLog(progress=progress)
    start = time.perf_counter()
    try:
        todo = [t for t in tasks if not task_done(t, log.rows)]
        if resume:
            print(f"resuming {out}: {len(log.rows)} of {sum(t['games'] for t in tasks)} games in results.csv; "
                  f"playing {len(todo)} of {len(tasks)} tasks ({sum(t['games'] for t in todo)} games)")
            if progress is not None and log.rows:
                progress(len(log.rows))
        if todo and ray_address:
            _run_ray(todo, ray_address, workers, log.add)
        elif todo:
            _run_local(todo, min(workers, len(todo)), log.add)
    finally:
        log.close()
    if log.differ:
        print(f"warning: {len(log.differ)} games played again came out otherwise than in results.csv, which "
              f"keeps them as they were: {', '.join(f'{a} vs {b} game {j}' for a, b, j in log.differ[:5])}"
              f"{' ...' if len(log.differ) > 5 else ''} (an agent that is not reproducible?)", file=sys.stderr)
    rows = [log.rows[key] for t in tasks for key in task_games(t)]
    seconds = time.perf_counter() - start
    score = {"win": 1.0, "draw": 0.5, "loss": 0.0}
    ratings = elo_ratings([(r["a"], r["b"], score[r["result"]]) for r in rows], players=rated(config),
                          bootstrap=config.bootstrap, seed=config.seed,
                          anchor=SYSTEM if solitaire(config.ruleset) else None)
    result = TournamentResult(config, rows, ratings, seconds)
    if out is not None:
        result.files = result.write(out)
        record = json.loads((out / "tournament.json").read_text(encoding="utf-8"))
        record.update(status="finished", finished=time.strftime("%Y-%m-%dT%H:%M:%S"))
        atomic.write_text(out / "tournament.json", json.dumps(record, indent=1) + "\n")
    return result


# -------------------------------------------------------------------------------------------- CLI
def add_tournament_arguments(p: argparse.ArgumentParser) -> None:
    """Arguments of ``wargym tournament``."""
    from wargym.cli_types import positive_int

    p.add_argument("--config", required=True,
                   help="tournament config: a YAML file, or the name of one in configs/tournament/ (e.g. smoke); "
                        "its agents are specs: random, rule, rule:<name>, sb3:<path>, onnx:<path>, "
                        "py:<module>:<Name>, plan:<options>, sides:<side>=<spec>;<side>=<spec>")
    p.add_argument("--out", default=None, metavar="DIR",
                   help="output folder for results.csv (a row as each game ends), pairs.csv, ratings.csv, "
                        "tournament.png, tournament.json (default runs/tournament/<name>)")
    p.add_argument("--resume", action="store_true",
                   help="continue the interrupted tournament in --out (the same config and --games): play only "
                        "the games missing from its results.csv, to the same final tables")
    p.add_argument("--workers", type=positive_int, default=None, help="local worker processes (default: the config's, "
                                                              "else all cores)")
    p.add_argument("--ray-address", default=None, metavar="ADDR",
                   help="run on Ray: a cluster address (e.g. ray://host:10001, auto) or 'local' for a "
                        "local Ray cluster (needs the extra wargym[ray])")
    p.add_argument("--games", type=positive_int, default=None, help="override games_per_pair")
    p.add_argument("--json", action="store_true", help="also write summary.json (pairs and ratings)")
    p.add_argument("--replays", action="store_true",
                   help="also save every game as a replay: OUT/replays/<a>_vs_<b>/game_NNNNN.json (the game "
                        "numbers of results.csv); watch one with wargym render FILE --html game.html")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def run_tournament_cli(args: argparse.Namespace) -> int:
    """``wargym tournament``: play, print the tables, write the files."""
    from wargym.cli_types import check_agent_spec

    config = load_config(args.config)
    for i, agent in enumerate(config.agents):  # a policy file that is missing or of the wrong kind: before any game
        check_agent_spec(agent.spec, f"{args.config}: agents[{i}] ({agent.name})")
    if config.scenario:
        from wargym.registry import check_scenario

        try:
            check_scenario(config.ruleset, config.scenario)
        except ValueError as err:
            raise ValueError(f"{args.config}: scenario: {err}") from None
    if args.games is not None:
        config = config.model_copy(update={"games_per_pair": args.games})
    if args.workers is not None and args.workers < 1:
        raise ValueError(f"--workers must be >= 1, got {args.workers}")
    pairs = len(matches(config))
    out = Path(args.out or Path("runs") / "tournament" / config.name)
    update, close = progress_bar(pairs * config.games_per_pair, not args.quiet, desc="tournament")
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _interrupt) if main_thread else None  # as Ctrl-C: rows stay
    try:
        result = run_tournament(config, workers=args.workers, ray_address=args.ray_address, progress=update,
                                replay_dir=(out / "replays").resolve() if args.replays else None, out=out,
                                resume=args.resume)
    except KeyboardInterrupt as err:
        close()
        done = len(read_results(out / "results.csv"))
        again = " ".join(["wargym tournament --config", str(args.config), "--out", str(out)]
                         + (["--games", str(args.games)] if args.games is not None else [])
                         + (["--replays"] if args.replays else []) + ["--resume"])
        what = "SIGTERM" if isinstance(err, Interrupted) else "interrupted"
        print(f"wargym tournament: {what}: {done} of {pairs * config.games_per_pair} games are in "
              f"{out / 'results.csv'}; {again} plays the rest", file=sys.stderr)
        return 128 + (signal.SIGTERM if isinstance(err, Interrupted) else signal.SIGINT)
    finally:
        close()
        if main_thread:
            signal.signal(signal.SIGTERM, previous)
    paths = result.files
    if args.json:
        summary = {"config": result.config.model_dump(), "pairs": result.pairs(), "seconds": result.seconds,
                   "ratings": {p: {"elo": result.ratings.elo[p], "stderr": result.ratings.stderr[p]}
                               for p in result.ratings.order}}
        paths["summary"] = atomic.write_text(out / "summary.json", json.dumps(summary, indent=1) + "\n")
    print("\n".join(result.table()))
    print(f"wrote {', '.join(str(p) for p in paths.values())}")
    return 0


class Interrupted(KeyboardInterrupt):
    """SIGTERM during ``wargym tournament``: raised like Ctrl-C's KeyboardInterrupt."""


def _interrupt(signum, frame) -> None:
    raise Interrupted(signum)


__all__ = ["AgentEntry", "ResultsLog", "TournamentConfig", "TournamentResult", "add_tournament_arguments",
           "load_config", "make_tasks", "open_results", "play_task", "plot", "read_results", "run_tournament",
           "run_tournament_cli", "task_done", "task_games"]
