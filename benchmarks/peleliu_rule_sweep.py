"""How far the Peleliu U.S. rule baseline is from its neighbours: the rule with one of its constants
changed, on the learnability report's 200 test games of ``sept15``, paired against the rule as it
is.

    python benchmarks/peleliu_rule_sweep.py [--games 200] [--seed 10000] [--variants BEACH_PULL=5 HOLD=3]

Game j is dealt by ``core.init(1, seed + j)`` (``evaluate``: learnability.py's test games), ``decisions="full"``
(the rule makes every U.S. decision, as the policy of item 7 must).  Each variant is
agents/peleliu_rule.py with one module constant (``OPEN_MIN``, ``BEACH_PULL``, ...: the numbers the
rule's scores are made of) set to another value: the constants are read when numba compiles, so each
variant is the module's text with that one line changed, compiled on its own (~20 s).  Printed
per variant: games won, the mean standing at the end (``core.score``), and against the rule the
games only the variant won, only the rule won, and the one-sided exact McNemar p of the variant
winning more.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

RULE = Path(__file__).resolve().parents[1] / "agents" / "peleliu_rule.py"
DEFAULT_VARIANTS = ("BEACH_PULL=1", "BEACH_PULL=5", "KEY_PULL=3", "KEY_PULL=9", "HOLD=3.0", "HOLD=10.0",
                    "OPEN_MIN=0.5", "OPEN_MIN=2.0", "CONCENTRATED=0.0", "CONCENTRATED=5.0", "ESTIMATE=2",
                    "ESTIMATE=4")


def variant_source(text: str, change: str) -> str:
    """The rule module's text with ``NAME=value`` in place of its own ``NAME = ...`` line, and not
    registered as a baseline (it is loaded beside the real one)."""
    name, _, value = change.partition("=")
    if not re.fullmatch(r"[A-Z_]+", name) or not re.fullmatch(r"-?[0-9.]+", value):
        raise ValueError(f"a variant is NAME=number (a module constant of {RULE.name}), got {change!r}")
    text, n = re.subn(rf"^{name} = [-0-9.]+", f"{name} = {value}", text, flags=re.M)
    if n != 1:
        raise ValueError(f"{RULE.name} has no numeric module constant {name!r}")
    return text.replace('@baselines.register("peleliu", "us")\n', "")


def load_variant(change: str | None, folder: Path):
    """The rule agent (``change`` None) or the variant's: the module's own ``PeleliuRuleAgent``,
    whose ``act`` calls that module's ``decide_batch``."""
    if change is None:
        from wargym.agents.peleliu_rule import PeleliuRuleAgent
        return PeleliuRuleAgent()
    tag = "rule_" + re.sub(r"[^A-Za-z0-9]", "_", change)
    path = folder / f"{tag}.py"
    path.write_text(variant_source(RULE.read_text(), change))
    spec = importlib.util.spec_from_file_location(tag, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[tag] = module
    spec.loader.exec_module(module)
    return module.PeleliuRuleAgent()


def play(agent, games: int, seed: int) -> tuple[np.ndarray, float, np.ndarray]:
    """(won[games], mean standing, decisions[games]) of the rule ``agent`` on games seed .. seed +
    games - 1, played by ``wargym eval``'s ``evaluate``."""
    from wargym.agents.evaluate import evaluate

    standing: list[float] = []
    result = evaluate("peleliu", agent, None, games=games, seed=seed, scenario="sept15", decisions="full",
                      a_side="us", on_batch=lambda core, final, _: standing.extend(core.score(final)[:, 0]))
    won = np.array([game.result == "win" for game in result.games])
    return won, float(np.mean(standing)), np.array([game.length for game in result.games])


def main(argv: list[str] | None = None) -> int:
    from wargym.agents.evaluate import mcnemar_one_sided

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=10_000)
    p.add_argument("--variants", nargs="+", default=list(DEFAULT_VARIANTS), metavar="NAME=VALUE")
    args = p.parse_args(argv)
    for change in args.variants:  # every variant checked before the first game
        variant_source(RULE.read_text(), change)
    print(f"Peleliu sept15, {args.games} games (seeds {args.seed}+), decisions full")
    with tempfile.TemporaryDirectory(prefix="peleliu_rule_sweep_") as folder:
        base = None
        for change in [None, *args.variants]:
            began = time.perf_counter()
            won, standing, _ = play(load_variant(change, Path(folder)), args.games, args.seed)
            line = (f"  {change or 'the rule':18s} won {int(won.sum()):4d}  standing {standing:6.2f}"
                    f"  ({time.perf_counter() - began:.0f} s)")
            if base is None:
                base = won
            else:
                only_v, only_r = int((won & ~base).sum()), int((~won & base).sum())
                line += (f"  only the variant {only_v}, only the rule {only_r},"
                         f" one-sided p {mcnemar_one_sided(only_v, only_r):.3f}")
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
