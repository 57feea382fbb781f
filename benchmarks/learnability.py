"""Learnability: MaskablePPO policies for a ruleset's sides, each trained within a wall-clock budget
on this machine, evaluated against the other side's rule-based baseline (a solitaire ruleset: against
the rules' own system).

    python benchmarks/learnability.py --out runs/learnability            # Island War: train both, evaluate
    python benchmarks/learnability.py --out runs/learnability --skip-train   # evaluate existing runs
    python benchmarks/learnability.py --out /tmp/l --minutes 2 --games 8 --curve-games 4   # a quick look
    python benchmarks/learnability.py --ruleset attu --sides us --out runs/attu   # Attu: the U.S. policy
    python benchmarks/learnability.py --ruleset attu --sides us --config-name attu_us_full --out runs/f
    python benchmarks/learnability.py --ruleset peleliu --out runs/peleliu   # solitaire: the U.S. policy

1. Train: ``wargym train --config configs/train/<ruleset>_<side>.yaml --out OUT/<side>`` for each
   side (``--config-name`` names another config there; ``--train-seed`` overrides its seed), the
   sides side by side in two processes (one core each: torch and numba use one thread);
   ``--minutes`` sets each run's wall-clock budget (``max_minutes``; behaviour cloning included).
   A config with ``phases`` trains a policy that decides only there; it is evaluated as it was
   trained, the run's ``delegate`` making the side's other decisions (``SB3Agent`` reads them
   from the run.json).
2. The curve and model selection: every checkpoint (deterministic: the most probable legal
   action) plays ``--curve-games`` validation games against the other side's rule baseline, dealt
   by seeds ``--validation-seed``+ (win rate against env steps and wall time; the training games'
   own, sampled, win rate is in OUT/<side>/curve.csv).  The best checkpoint is the side's policy
   (early stopping: PPO may drift after its best point).
3. Test: that policy plays ``--games`` fresh games dealt by seeds ``--seed``+ (never used for the
   selection); the side's own rule baseline plays the same games, as the reference.  Wilson 95%
   intervals.

A solitaire ruleset (one player, Peleliu: the cards play the Japanese; ``--sides`` defaults to the
ruleset's players, so ``us``) has no other side: the validation and test games are played against
the rules' own system, and the report gives, for the policy and for the rule baseline on the same
games, the count of each victory level the core names (its ``RESULTS``, Peleliu's state.RESULTS:
U.S. victory, defeat, decisive defeat, draw), the win-or-draw rate (Wilson 95% intervals), the
mean result (+1 win, -1 loss, 0 draw: the reward), the mean of ``core.score`` at the game's end (Peleliu's
standing, victory.standing: positions secured, losses) and the mean last turn.  The best checkpoint
is then the one with the highest mean result, ties (every game lost) broken by the mean score.

Prints a table, writes OUT/learnability.json and, with matplotlib, OUT/learnability.png.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
from importlib import import_module
from pathlib import Path
from typing import Any, Sequence

SIDES = ("us", "japan")
OTHER = {"us": "japan", "japan": "us"}
CONFIGS = Path(__file__).resolve().parents[1] / "configs" / "train"


CONFIG_NAME = "{ruleset}_{side}"  # --config-name: the side's config in configs/train/


def players(ruleset: str) -> tuple[str, ...]:
    """The ruleset's players (its core module's SIDES, as ``wargym scenarios`` reads them)."""
    from wargym.registry import core_class

    return tuple(getattr(import_module(core_class(ruleset).__module__), "SIDES", SIDES))


def solitaire(ruleset: str) -> bool:
    """One player: the rules' own system plays the other side (Peleliu)."""
    return len(players(ruleset)) == 1


def result_levels(ruleset: str) -> tuple[tuple[str, ...], str | None]:
    """(the outcomes the core names, the one of a game not over): its module's RESULTS, whose first
    is the game still in play (a game stopped at the decision limit); else the reward's win, draw
    and loss."""
    from wargym.registry import core_class

    named = getattr(import_module(core_class(ruleset).__module__), "RESULTS", None)
    return (tuple(named), named[0]) if named else (("win", "draw", "loss"), None)


def opponent_name(ruleset: str, side: str) -> str:
    if not solitaire(ruleset):
        return f"rule ({OTHER[side]})"
    from wargym.registry import core_class

    play = core_class(ruleset).system_play
    return f"the rules' own system ({', '.join(play.sides)})" if play else "the rules' own system"


def config(ruleset: str, side: str, name: str = CONFIG_NAME) -> Path:
    return CONFIGS / f"{name.format(ruleset=ruleset, side=side)}.yaml"


def game_options(ruleset: str, side: str, name: str = CONFIG_NAME) -> dict:
    """The scenario and decision mode the side's policy is trained on (its config)."""
    import yaml

    cfg = yaml.safe_load(config(ruleset, side, name).read_text())
    return {"scenario": cfg.get("scenario"), "decisions": cfg.get("decisions")}


def train_sides(ruleset: str, out: Path, sides: list[str], minutes: float, name: str = CONFIG_NAME,
                seed: int | None = None) -> dict[str, float]:
    """Both runs at once, each in its own process; returns their wall seconds."""
    procs, started = {}, time.perf_counter()
    for side in sides:
        run = out / side
        if (run / "run.json").exists():
            raise FileExistsError(f"{run} already holds a run: give another --out, or --skip-train")
        cmd = [sys.executable, "-m", "wargym.cli", "train", "--config", str(config(ruleset, side, name)),
               "--out", str(run), "--max-minutes", str(minutes)] + ([] if seed is None else ["--seed", str(seed)])
        log = (out / f"{side}.log").open("w")
        procs[side] = (subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT), log)
        print(f"training {side}: {' '.join(cmd)}", flush=True)
    seconds = {}
    for side, (proc, log) in procs.items():
        if proc.wait() != 0:
            raise RuntimeError(f"training {side} failed (exit {proc.returncode}); see {out / f'{side}.log'}")
        log.close()
        seconds[side] = time.perf_counter() - started
    return seconds


def play(ruleset: str, agent, side: str, games: int, seed: int, name: str = CONFIG_NAME) -> dict:
    """``agent`` (a spec or an Agent) playing ``side`` against the other side's rule baseline (a
    solitaire ruleset: alone, against the rules' own system; with its victory levels, ``outcomes``)."""
    from wargym.agents.evaluate import evaluate

    solo = solitaire(ruleset)
    ends: list[dict] = []
    result = evaluate(ruleset, agent, None if solo else "rule", games=games, seed=seed, a_side=side,
                      on_batch=(lambda core, final, done: ends.extend(game_ends(core, final, done))) if solo else None,
                      **game_options(ruleset, side, name))
    record = result.all
    out = {"agent": str(agent), "side": side, "games": record.games, "wins": record.wins, "draws": record.draws,
           "losses": record.losses, "win_rate": record.win_rate, "ci95": list(record.ci),
           "mean_length": record.mean_length}
    if solo:
        out.update(outcomes(ends, *result_levels(ruleset)))
    return out


def game_ends(core, final, games) -> list[dict]:
    """How each game of a batch ended: its victory level (``core.result``), its result for the
    agent (win, draw, loss), whether the decision limit stopped it, ``core.score`` of the agent's
    side and the turn it ended on (None where the core has none), its length in decisions."""
    import numpy as np

    score = core.score(final)
    score = None if score is None else np.asarray(score, dtype=float)
    turn = getattr(final, "turn", None)
    out = []
    for g, game in enumerate(games):
        side = core.players.index(game.a_side)
        out.append({"level": core.result(final, g), "result": game.result, "truncated": game.truncated,
                    "length": game.length,
                    "score": None if score is None else float(score[g, side]),
                    "turn": None if turn is None else int(np.asarray(turn)[g])})
    return out


def _share(count: int, games: int) -> dict:
    from wargym.agents.evaluate import wilson_interval

    return {"count": count, "rate": count / games if games else 0.0, "ci95": list(wilson_interval(count, games))}


def _mean(values: Sequence[float | None]) -> tuple[float | None, float | None]:
    known = [v for v in values if v is not None]
    if not known or len(known) < len(values):
        return None, None
    mean = sum(known) / len(known)
    return mean, math.sqrt(sum((v - mean) ** 2 for v in known) / len(known))


def outcomes(ends: Sequence[dict], levels: Sequence[str], unfinished: str | None = None) -> dict[str, Any]:
    """The report of a solitaire ruleset's games (``game_ends``): each victory level of ``levels``
    (``result_levels``; ``unfinished``, a game still in play, only where a game stopped there)
    with its count, rate and Wilson 95% interval; the same for a win or a draw; the mean result
    (+1 win, 0 draw, -1 loss), score (with its standard deviation) and last turn (None where a
    game has none).  A game stopped by the decision limit (``truncated``: a policy that stalls,
    e.g. selecting a unit and taking it back forever) is neither won nor drawn and counts -1 in
    the mean result, so that stalling never looks better than losing."""
    n = len(ends)
    counts = {level: sum(e["level"] == level for e in ends) for level in levels}
    unknown = sorted({e["level"] for e in ends} - set(levels))
    if unknown:
        raise ValueError(f"game results {unknown} are none of the core's {list(levels)}")
    shown = [level for level in levels if level != unfinished or counts[level]]
    played = [e for e in ends if not e.get("truncated")]
    wins, draws = sum(e["result"] == "win" for e in played), sum(e["result"] == "draw" for e in played)
    score, score_sd = _mean([e["score"] for e in ends])
    turn, _ = _mean([e["turn"] for e in ends])
    return {"levels": {level: _share(counts[level], n) for level in shown},
            "win_or_draw": _share(wins + draws, n),
            "mean_result": (wins - (n - len(played)) - sum(e["result"] == "loss" for e in played)) / n if n else 0.0,
            "mean_score": score, "std_score": score_sd, "mean_turn": turn}


def selection_key(point: dict) -> tuple:
    """The best checkpoint: the highest win rate (a solitaire ruleset: mean result, then mean
    score), then the fewest steps."""
    if "mean_result" in point:
        score = point.get("mean_score")
        return (point["mean_result"], -math.inf if score is None else score, -point["steps"])
    return (point["win_rate"], -point["steps"])


def seconds_at(run: Path, steps: int) -> float | None:
    """Wall seconds of the run when it reached ``steps`` env steps (from its curve.csv)."""
    from wargym.agents.train import read_curve

    best = None
    for row in read_curve(run / "curve.csv"):
        if row["steps"] <= steps:
            best = row["seconds"]
    return best


def checkpoint_seconds(run: Path, record: dict, steps: int) -> float | None:
    """``seconds_at``, else (a rollout cut short by the budget wrote no curve row) the clone's
    cloning seconds for step 0 and the run's wall seconds for its last checkpoint."""
    seconds = seconds_at(run, steps)
    if seconds is None and steps == 0 and record.get("pretrain"):
        seconds = record["pretrain"].get("seconds")
    if seconds is None and steps == record.get("num_timesteps"):
        seconds = record.get("wall_seconds")
    return seconds


def evaluate_side(ruleset: str, out: Path, side: str, games: int, curve_games: int, seed: int,
                  validation_seed: int, name: str = CONFIG_NAME) -> dict:
    from wargym.agents.train import checkpoints

    run = out / side
    record = json.loads((run / "run.json").read_text())
    curve = []
    solo = solitaire(ruleset)
    for steps, path in checkpoints(run):
        point = play(ruleset, f"sb3:{path}", side, curve_games, validation_seed, name)
        seconds = checkpoint_seconds(run, record, steps) if solo else seconds_at(run, steps)
        curve.append({"steps": steps, "seconds": seconds, "win_rate": point["win_rate"],
                      "ci95": point["ci95"], "checkpoint": str(path)})
        if solo:
            curve[-1].update({k: point[k] for k in ("win_or_draw", "mean_result", "mean_score", "mean_turn")})
            print(f"  {side} checkpoint {steps:>9,} steps: {point['win_or_draw']['rate']:.1%} won or drawn of "
                  f"{curve_games}, mean result {point['mean_result']:+.2f}"
                  + ("" if point["mean_score"] is None else f", mean score {point['mean_score']:.2f}"), flush=True)
        else:
            print(f"  {side} checkpoint {steps:>9,} steps: {point['win_rate']:.1%} of {curve_games}", flush=True)
    best = max(curve, key=selection_key)
    final = play(ruleset, f"sb3:{best['checkpoint']}", side, games, seed, name)
    final["steps"], final["seconds"] = best["steps"], best["seconds"]
    baseline = play(ruleset, "rule", side, games, seed, name)
    return {"side": side, "opponent": opponent_name(ruleset, side), "final": final, "own_rule_baseline": baseline,
            "train": {k: record.get(k) for k in ("num_timesteps", "seconds", "wall_seconds", "steps_per_second")},
            "pretrain": record.get("pretrain", {}).get("epochs", [])[-1:] if record.get("pretrain") else None,
            "curve": curve}


def chart(results: dict, path: Path, title: str) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for side, res in results.items():
        xs = [p["steps"] for p in res["curve"]]
        ts = [(p["seconds"] or 0) / 60 for p in res["curve"]]
        ys = [p["win_rate"] for p in res["curve"]]
        axes[0].plot(xs, ys, marker="o", label=f"{side} policy vs rule {OTHER[side]}")
        axes[1].plot(ts, ys, marker="o", label=f"{side} policy vs rule {OTHER[side]}")
        for ax in axes:
            ax.axhline(res["own_rule_baseline"]["win_rate"], linestyle=":", color=ax.lines[-1].get_color())
    for ax, label in zip(axes, ("env steps (agent decisions)", "wall-clock minutes (pretraining included)")):
        ax.axhline(0.6, color="grey", linewidth=0.8)
        ax.set_xlabel(label)
        ax.set_ylabel("win rate")
        ax.set_ylim(0, 1)
        ax.legend(fontsize=8)
    fig.suptitle(f"{title}: MaskablePPO vs the other side's rule baseline (dotted: own rule baseline)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return True


def solo_chart(results: dict, path: Path, title: str) -> bool:
    """A solitaire ruleset's curve: won or drawn (and, where the core has a score, the mean score)
    against env steps and wall time; dotted: the rule baseline on the test games."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    scored = any(p.get("mean_score") is not None for res in results.values() for p in res["curve"])
    rows = [("won or drawn", lambda p: p["win_or_draw"]["rate"], (0, 1))]
    if scored:
        rows.append(("mean score at the end", lambda p: p["mean_score"], None))
    fig, axes = plt.subplots(len(rows), 2, figsize=(11, 4 * len(rows)), squeeze=False)
    for r, (label, value, limits) in enumerate(rows):
        for side, res in results.items():
            xs = [p["steps"] for p in res["curve"]]
            ts = [(p["seconds"] or 0) / 60 for p in res["curve"]]
            ys = [value(p) for p in res["curve"]]
            for ax, x in zip(axes[r], (xs, ts)):
                ax.plot(x, ys, marker="o", label=f"{side} policy vs {res['opponent']}")
                ax.axhline(value(res["own_rule_baseline"]), linestyle=":", color=ax.lines[-1].get_color())
        for ax, xlabel in zip(axes[r], ("env steps (agent decisions)", "wall-clock minutes (pretraining included)")):
            ax.set_xlabel(xlabel)
            ax.set_ylabel(label)
            if limits:
                ax.set_ylim(*limits)
            ax.legend(fontsize=8)
    fig.suptitle(f"{title}: MaskablePPO against the rules' own system (dotted: the rule baseline)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return True


def solo_table(results: dict) -> list[str]:
    """The report of a solitaire ruleset: per side, the victory levels of the policy and of the rule
    baseline on the same games, then the win-or-draw rate and the means."""
    pct = lambda s: f"{s['count']:>4} {s['rate']:6.1%} [{s['ci95'][0]:.1%}, {s['ci95'][1]:.1%}]"  # noqa: E731
    num = lambda v, f: "-" if v is None else format(v, f)  # noqa: E731
    lines = []
    for side, res in results.items():
        f, b = res["final"], res["own_rule_baseline"]
        clone = " (the clone, before any PPO step)" if f["steps"] == 0 else ""
        lines.append(f"  {side} policy: {f['steps']:,} env steps{clone}, {(f['seconds'] or 0) / 60:.1f} minutes; "
                     f"against {res['opponent']}")
        lines.append(f"    {'result':24} {'policy':>28} {'rule baseline':>28}")
        for level in dict.fromkeys([*f["levels"], *b["levels"]]):
            none = {"count": 0, "rate": 0.0, "ci95": [0.0, 1.0]}
            lines.append(f"    {level:24} {pct(f['levels'].get(level, none)):>28} "
                         f"{pct(b['levels'].get(level, none)):>28}")
        lines.append(f"    {'win or draw':24} {pct(f['win_or_draw']):>28} {pct(b['win_or_draw']):>28}")
        lines.append(f"    {'mean result (+1/0/-1)':24} {f['mean_result']:>28.3f} {b['mean_result']:>28.3f}")
        for key, label, fmt in (("mean_score", "mean score at the end", ".2f"), ("mean_turn", "mean last turn", ".2f"),
                                ("mean_length", "mean decisions a game", ".1f")):
            lines.append(f"    {label:24} {num(f[key], fmt):>28} {num(b[key], fmt):>28}")
    return lines


def parser() -> argparse.ArgumentParser:
    from wargym.registry import RULESETS

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--ruleset", default="island_war", choices=sorted(RULESETS),
                   help="configs/train/<ruleset>_<side>.yaml are trained")
    p.add_argument("--out", type=Path, default=Path("runs/learnability"))
    p.add_argument("--sides", nargs="+", default=None,
                   help="the sides to train (default: the ruleset's players: us japan; Peleliu's us)")
    p.add_argument("--minutes", type=float, default=50.0, help="wall-clock budget of each training run")
    p.add_argument("--games", type=int, default=200, help="evaluation games of each final policy")
    p.add_argument("--curve-games", type=int, default=32, help="validation games of each checkpoint")
    p.add_argument("--seed", type=int, default=10_000, help="first dice seed of the test games")
    p.add_argument("--validation-seed", type=int, default=5_000, help="first dice seed of the validation games")
    p.add_argument("--skip-train", action="store_true", help="evaluate the runs already in --out")
    p.add_argument("--train-seed", type=int, default=None, help="seed of the training runs (default: the config's)")
    p.add_argument("--config-name", default=CONFIG_NAME,
                   help="the config of each side in configs/train/ (default: {ruleset}_{side})")
    return p


def main(argv: list[str] | None = None) -> int:
    p = parser()
    args = p.parse_args(argv)
    sides = players(args.ruleset)
    if args.sides is None:
        args.sides = list(sides)
    wrong = [side for side in args.sides if side not in sides]
    if wrong:
        p.error(f"--sides {' '.join(wrong)}: {args.ruleset}'s players are {', '.join(sides)}")
    args.out.mkdir(parents=True, exist_ok=True)
    if not args.skip_train:
        train_sides(args.ruleset, args.out, args.sides, args.minutes, args.config_name, args.train_seed)
    results = {side: evaluate_side(args.ruleset, args.out, side, args.games, args.curve_games, args.seed,
                                   args.validation_seed, args.config_name) for side in args.sides}
    scenario = game_options(args.ruleset, args.sides[0], args.config_name)["scenario"]
    title = f"{args.ruleset} / {scenario or 'default scenario'}"
    print(f"\n{title} learnability ({args.games} games each, dice seeds {args.seed}+):")
    if solitaire(args.ruleset):
        print("\n".join(solo_table(results)))
        (args.out / "learnability.json").write_text(json.dumps(results, indent=1))
        if solo_chart(results, args.out / "learnability.png", title):
            print(f"chart: {args.out / 'learnability.png'}")
        return 0
    print(f"  {'side':6} {'steps':>10} {'minutes':>8} {'policy win rate':>26} {'own rule baseline':>26}")
    for side, res in results.items():
        f, b = res["final"], res["own_rule_baseline"]
        fmt = lambda r: f"{r['win_rate']:6.1%} [{r['ci95'][0]:.1%}, {r['ci95'][1]:.1%}]"  # noqa: E731
        print(f"  {side:6} {f['steps']:>10,} {(f['seconds'] or 0) / 60:>8.1f} {fmt(f):>26} {fmt(b):>26}")
    (args.out / "learnability.json").write_text(json.dumps(results, indent=1))
    if chart(results, args.out / "learnability.png", title):
        print(f"chart: {args.out / 'learnability.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
