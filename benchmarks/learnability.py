"""Learnability: MaskablePPO policies for a ruleset's sides, each trained within a wall-clock budget
on this machine, evaluated against the other side's rule-based baseline.

    python benchmarks/learnability.py --out runs/learnability            # Island War: train both, evaluate
    python benchmarks/learnability.py --out runs/learnability --skip-train   # evaluate existing runs
    python benchmarks/learnability.py --out /tmp/l --minutes 2 --games 8 --curve-games 4   # a quick look
    python benchmarks/learnability.py --ruleset attu --sides us --out runs/attu   # Attu: the U.S. policy
    python benchmarks/learnability.py --ruleset attu --sides us --config-name attu_us_full --out runs/f

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

Prints a table, writes OUT/learnability.json and, with matplotlib, OUT/learnability.png.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from pathlib import Path

SIDES = ("us", "japan")
OTHER = {"us": "japan", "japan": "us"}
CONFIGS = Path(__file__).resolve().parents[1] / "configs" / "train"


CONFIG_NAME = "{ruleset}_{side}"  # --config-name: the side's config in configs/train/


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
    """``agent`` (a spec or an Agent) playing ``side`` against the other side's rule baseline."""
    from wargym.agents.evaluate import evaluate

    result = evaluate(ruleset, agent, "rule", games=games, seed=seed, a_side=side, **game_options(ruleset, side, name))
    record = result.all
    return {"agent": str(agent), "side": side, "games": record.games, "wins": record.wins, "draws": record.draws,
            "losses": record.losses, "win_rate": record.win_rate, "ci95": list(record.ci),
            "mean_length": record.mean_length}


def checkpoints(run: Path) -> list[tuple[int, Path]]:
    found = []
    for path in (run / "checkpoints").glob("model_*_steps.zip"):
        m = re.fullmatch(r"model_(\d+)_steps\.zip", path.name)
        if m:
            found.append((int(m.group(1)), path))
    return sorted(found)


def seconds_at(run: Path, steps: int) -> float | None:
    """Wall seconds of the run when it reached ``steps`` env steps (from its curve.csv)."""
    curve = run / "curve.csv"
    if not curve.exists():
        return None
    best = None
    for line in curve.read_text().splitlines()[1:]:
        s, sec = line.split(",")[:2]
        if int(s) <= steps:
            best = float(sec)
    return best


def evaluate_side(ruleset: str, out: Path, side: str, games: int, curve_games: int, seed: int,
                  validation_seed: int, name: str = CONFIG_NAME) -> dict:
    run = out / side
    record = json.loads((run / "run.json").read_text())
    curve = []
    for steps, path in checkpoints(run):
        point = play(ruleset, f"sb3:{path}", side, curve_games, validation_seed, name)
        curve.append({"steps": steps, "seconds": seconds_at(run, steps), "win_rate": point["win_rate"],
                      "ci95": point["ci95"], "checkpoint": str(path)})
        print(f"  {side} checkpoint {steps:>9,} steps: {point['win_rate']:.1%} of {curve_games}", flush=True)
    best = max(curve, key=lambda p: (p["win_rate"], -p["steps"]))
    final = play(ruleset, f"sb3:{best['checkpoint']}", side, games, seed, name)
    final["steps"], final["seconds"] = best["steps"], best["seconds"]
    baseline = play(ruleset, "rule", side, games, seed, name)
    return {"side": side, "opponent": f"rule ({OTHER[side]})", "final": final, "own_rule_baseline": baseline,
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


def parser() -> argparse.ArgumentParser:
    from wargym.registry import RULESETS

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--ruleset", default="island_war", choices=sorted(RULESETS),
                   help="configs/train/<ruleset>_<side>.yaml are trained")
    p.add_argument("--out", type=Path, default=Path("runs/learnability"))
    p.add_argument("--sides", nargs="+", choices=SIDES, default=list(SIDES))
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
    args = parser().parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    if not args.skip_train:
        train_sides(args.ruleset, args.out, args.sides, args.minutes, args.config_name, args.train_seed)
    results = {side: evaluate_side(args.ruleset, args.out, side, args.games, args.curve_games, args.seed,
                                   args.validation_seed, args.config_name) for side in args.sides}
    scenario = game_options(args.ruleset, args.sides[0], args.config_name)["scenario"]
    title = f"{args.ruleset} / {scenario or 'default scenario'}"
    print(f"\n{title} learnability ({args.games} games each, dice seeds {args.seed}+):")
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
