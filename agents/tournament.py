"""Round-robin tournaments: every pair of agents plays seeded games with sides swapped; win rates
with Wilson 95% intervals, and Elo ratings with bootstrap standard errors.

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
interval), ratings.csv (Elo, s.e.), tournament.png (Elo with error bars and the win-rate heatmap).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Literal, Mapping

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from wargym.agents.base import DEFAULT_DECISIONS, Default
from wargym.agents.evaluate import GameResult, Record, evaluate, progress_bar
from wargym.agents.ratings import Ratings, elo_ratings

RESULT_COLUMNS = ("a", "b", "a_side", "game", "seed", "result", "length", "truncated")


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

    @property
    def names(self) -> list[str]:
        return [a.name for a in self.config.agents]

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
        """float[n, n]: win rate of row against column (NaN on the diagonal)."""
        names = self.names
        out = np.full((len(names), len(names)), np.nan)
        for i, x in enumerate(names):
            for j, y in enumerate(names):
                if i != j:
                    out[i, j] = self.record(x, y).win_rate
        return out

    def pairs(self) -> list[dict[str, Any]]:
        names = self.names
        return [{"a": x, "b": y, **self.record(x, y).to_dict()}
                for i, x in enumerate(names) for y in names[i + 1:]]

    def table(self) -> list[str]:
        c = self.config
        names = self.names
        width = max(len(n) for n in names + ["agent"]) + 2
        mode = f", decisions={c.decisions}" if c.decisions else ""
        lines = [f"tournament {c.name}: {c.ruleset} / {c.scenario or 'default scenario'}{mode}, "
                 f"{len(names)} agents, {c.games_per_pair} games per pair, seed {c.seed}",
                 "", "win rate of row against column (a draw is not a win):",
                 " " * width + "".join(f"{n:>{width}}" for n in names)]
        matrix = self.win_matrix()
        for i, x in enumerate(names):
            cells = "".join(f"{'-':>{width}}" if i == j else f"{matrix[i, j]:>{width}.1%}" for j in range(len(names)))
            lines.append(f"{x:<{width}}" + cells)
        lines += ["", "pairs (W-D-L of the first; 95% Wilson interval of its win rate):"]
        for p in self.pairs():
            lines.append(f"  {p['a']} vs {p['b']}: {p['wins']}-{p['draws']}-{p['losses']}, "
                         f"win rate {p['win_rate']:.1%} [{p['ci_low']:.1%}, {p['ci_high']:.1%}], {p['mean_length']:.0f} decisions a game"
                         + (f", {p['truncated']} at the limit" if p["truncated"] else ""))
        lines += ["", f"ratings (Elo, mean 0; +- bootstrap s.e. over {c.bootstrap} resamples of the games):"]
        lines += self.ratings.table()
        total = sum(r["length"] for r in self.rows)
        lines += ["", f"{len(self.rows)} games, {total:,} decisions in {self.seconds:.1f} s"]
        return lines

    def write(self, out: str | Path) -> dict[str, Path]:
        """results.csv, pairs.csv, ratings.csv and tournament.png in ``out``; returns their paths."""
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        paths = {"results": out / "results.csv", "pairs": out / "pairs.csv", "ratings": out / "ratings.csv",
                 "chart": out / "tournament.png"}
        with paths["results"].open("w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, fieldnames=RESULT_COLUMNS)
            w.writeheader()
            w.writerows({**r, "truncated": int(r["truncated"])} for r in self.rows)
        pairs = self.pairs()
        with paths["pairs"].open("w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, fieldnames=list(pairs[0]))
            w.writeheader()
            w.writerows(pairs)
        with paths["ratings"].open("w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(["rank", "agent", "spec", "seed", "elo", "stderr", "games", "score"])
            entries = {a.name: a for a in self.config.agents}
            for rank, p in enumerate(self.ratings.order, 1):
                r = self.ratings
                w.writerow([rank, p, entries[p].spec, entries[p].seed, f"{r.elo[p]:.1f}", f"{r.stderr[p]:.1f}",
                            r.games[p], f"{r.score[p]:.4f}"])
        plot(self, paths["chart"])
        return paths


def plot(result: TournamentResult, path: str | Path) -> Path:
    """Elo with s.e. error bars (left) and the win-rate heatmap (right), as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = result.names
    r = result.ratings
    order = r.order[::-1]  # best at the top
    n = len(names)
    fig, (left, right) = plt.subplots(1, 2, figsize=(5 + 1.6 * n, 1.5 + 0.7 * n), squeeze=True,
                                      gridspec_kw={"width_ratios": [1, 1.2]})
    y = np.arange(len(order))
    left.errorbar([r.elo[p] for p in order], y, xerr=[r.stderr[p] for p in order], fmt="o", capsize=4)
    left.set_yticks(y, order)
    left.axvline(0, color="0.8", lw=1, zorder=0)
    left.set_xlabel("Elo (mean 0) ± s.e.")
    left.set_title("ratings")
    matrix = result.win_matrix()
    im = right.imshow(np.nan_to_num(matrix, nan=0.5), cmap="RdYlGn", vmin=0, vmax=1)
    right.set_xticks(range(n), names, rotation=30, ha="right")
    right.set_yticks(range(n), names)
    for i in range(n):
        for j in range(n):
            right.text(j, i, "-" if i == j else f"{matrix[i, j]:.0%}", ha="center", va="center", fontsize=9)
    right.set_title("win rate of row vs column")
    fig.colorbar(im, ax=right, fraction=0.046, pad=0.04)
    c = result.config
    fig.suptitle(f"{c.name}: {c.ruleset} / {c.scenario or 'default'}, {c.games_per_pair} games per pair")
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path, dpi=100)
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
    return resolved, game["options"]


def pair_folder(a: str, b: str) -> str:
    """The folder name of a pair's replays (``<a>_vs_<b>``, agent names made safe for a path)."""
    return "_vs_".join(re.sub(r"[^A-Za-z0-9._-]+", "-", name) for name in (a, b))


def make_tasks(config: TournamentConfig, replay_dir: str | Path | None = None) -> list[dict[str, Any]]:
    """One task per chunk of a pair's games: plain dicts, so they travel to processes and Ray.
    With ``replay_dir`` every game is saved there as a replay, one folder per pair."""
    config, core_options = resolve_game(config)
    chunk = config.chunk_games + (config.chunk_games % 2)  # keep mirrored pairs of games together
    agents = [a.model_dump() for a in config.agents]
    tasks = []
    for i, a in enumerate(agents):
        for b in agents[i + 1:]:
            for first in range(0, config.games_per_pair, chunk):
                tasks.append({"ruleset": config.ruleset, "scenario": config.scenario, "decisions": config.decisions,
                              "core_options": core_options, "a": a, "b": b, "seed": config.seed,
                              "first_game": first, "games": min(chunk, config.games_per_pair - first),
                              "replay_dir": (str(Path(replay_dir) / pair_folder(a["name"], b["name"]))
                                             if replay_dir is not None else None)})
    return tasks


def play_task(task: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Play one task (in a worker); the rows of its games.  ``task["threads"]``, when given,
    limits numba's threads in this process (a Ray worker is given one core)."""
    if task.get("threads"):
        _limit_threads(task["threads"])
    result = evaluate(task["ruleset"], task["a"], task["b"], games=task["games"], seed=task["seed"],
                      scenario=task["scenario"], decisions=task["decisions"], batch_size=task["games"],
                      first_game=task["first_game"], core_options=task["core_options"],
                      replay_dir=task.get("replay_dir"))
    return [{"a": result.agent_a, "b": result.agent_b, **asdict(g)} for g in result.games]


def _limit_threads(threads: int) -> None:
    """Worker initializer: this process's share of the cores for numba's parallel kernels."""
    try:
        import numba

        numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))
    except Exception:  # numba missing or threads already launched: run with what there is
        pass


def _run_local(tasks, workers: int, update) -> list[list[dict[str, Any]]]:
    if workers <= 1:
        out = []
        for t in tasks:
            out.append(play_task(t))
            if update:
                update(t["games"])
        return out
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    threads = max(1, (os.cpu_count() or 1) // workers)
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                             initializer=_limit_threads, initargs=(threads,)) as pool:
        futures = {pool.submit(play_task, t): k for k, t in enumerate(tasks)}
        out: list[Any] = [None] * len(tasks)
        for fut in as_completed(futures):
            k = futures[fut]
            out[k] = fut.result()
            if update:
                update(tasks[k]["games"])
    return out


def _run_ray(tasks, address: str, workers: int | None, update) -> list[list[dict[str, Any]]]:
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
        refs = [remote.remote({**t, "threads": 1}) for t in tasks]
        index = {ref: k for k, ref in enumerate(refs)}
        out: list[Any] = [None] * len(tasks)
        pending = list(refs)
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                k = index[ref]
                out[k] = ray.get(ref)
                if update:
                    update(tasks[k]["games"])
        return out
    finally:
        if started:
            ray.shutdown()


def run_tournament(config: TournamentConfig | Mapping[str, Any] | str | Path, workers: int | None = None,
                   ray_address: str | None = None,
                   progress: Callable[[int], None] | None = None,
                   replay_dir: str | Path | None = None) -> TournamentResult:
    """Play the round robin of ``config`` (a TournamentConfig, a dict of one, or a YAML path).

    ``workers``: local processes (default the config's, else all cores; 1 plays in this process);
    ``ray_address``: run the tasks on Ray instead ("local" for a local cluster);
    ``progress(n)``: called as n more games are done; ``replay_dir``: save every game there as a
    replay (``<a>_vs_<b>/game_NNNNN.json``, the game numbers of results.csv), for ``wargym render``."""
    if isinstance(config, (str, Path)):
        config = load_config(config)
    elif not isinstance(config, TournamentConfig):
        from wargym.data import validate

        config = validate(TournamentConfig, dict(config), "<tournament config>")
    config, _ = resolve_game(config)  # the result reports the game played
    workers = workers or config.workers or os.cpu_count() or 1
    tasks = make_tasks(config, replay_dir)
    start = time.perf_counter()
    if ray_address:
        chunks = _run_ray(tasks, ray_address, workers, progress)
    else:
        chunks = _run_local(tasks, min(workers, len(tasks)), progress)
    rows = [row for chunk in chunks for row in chunk]
    seconds = time.perf_counter() - start
    score = {"win": 1.0, "draw": 0.5, "loss": 0.0}
    ratings = elo_ratings([(r["a"], r["b"], score[r["result"]]) for r in rows], players=[a.name for a in config.agents],
                          bootstrap=config.bootstrap, seed=config.seed)
    return TournamentResult(config, rows, ratings, seconds)


# -------------------------------------------------------------------------------------------- CLI
def add_tournament_arguments(p: argparse.ArgumentParser) -> None:
    """Arguments of ``wargym tournament``."""
    from wargym.cli_types import positive_int

    p.add_argument("--config", required=True,
                   help="tournament config: a YAML file, or the name of one in configs/tournament/ (e.g. smoke); "
                        "its agents are specs: random, rule, rule:<name>, sb3:<path>, onnx:<path>, "
                        "py:<module>:<Name>")
    p.add_argument("--out", default=None, metavar="DIR",
                   help="output folder for results.csv, pairs.csv, ratings.csv, tournament.png "
                        "(default runs/tournament/<name>)")
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
    pairs = len(config.agents) * (len(config.agents) - 1) // 2
    out = Path(args.out or Path("runs") / "tournament" / config.name)
    update, close = progress_bar(pairs * config.games_per_pair, not args.quiet, desc="tournament")
    try:
        result = run_tournament(config, workers=args.workers, ray_address=args.ray_address, progress=update,
                                replay_dir=(out / "replays").resolve() if args.replays else None)
    finally:
        close()
    paths = result.write(out)
    if args.json:
        summary = {"config": result.config.model_dump(), "pairs": result.pairs(), "seconds": result.seconds,
                   "ratings": {p: {"elo": result.ratings.elo[p], "stderr": result.ratings.stderr[p]}
                               for p in result.ratings.order}}
        paths["summary"] = out / "summary.json"
        paths["summary"].write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    print("\n".join(result.table()))
    print(f"wrote {', '.join(str(p) for p in paths.values())}")
    return 0


__all__ = ["AgentEntry", "TournamentConfig", "TournamentResult", "add_tournament_arguments", "load_config",
           "make_tasks", "play_task", "plot", "run_tournament", "run_tournament_cli"]
