"""Compiling a ruleset's kernels ahead of use, and what a command does while they are not compiled.

``wargym compile [--ruleset R]`` (``python -m wargym.warm``) plays a few decisions of the
ruleset's default scenario with its rule agents: numba compiles the core (start, step, masks),
the observation and the rule agents, and keeps them in its cache (wargym/_numba_cache.py), with
the progress of wargym/compiling.py on stderr.  It then marks the ruleset ready in the cache
folder of this source version; so does the first command that finds the ruleset's kernels in the
cache, compiled by anything else (a test run, a training run: ``compiled``).

A cold compile takes minutes on two cores (Island War about 1.5, Attu about 4), and a first
``wargym demo`` or ``wargym play`` should not wait for it: with no ready mark, those commands run
the same rules as plain Python (``NUMBA_DISABLE_JIT``; the kernels' arrays read as numba reads
them, ``wargym.kernel.NumbaScalars``, so the game is the same game) while ``wargym compile`` runs
in the background, low priority, logging to the cache folder.  Later runs find the mark and use
the compiled kernels.  ``WARGYM_INTERPRET=0`` turns this off (the command compiles first, with
progress); ``WARGYM_BACKGROUND_COMPILE=0`` runs interpreted without starting the compile.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path


def _folder() -> Path | None:
    from wargym import _numba_cache

    return Path(_numba_cache.FOLDER) if _numba_cache.FOLDER else None


def _mark(ruleset: str) -> Path | None:
    import numba

    folder = _folder()
    return folder / f"ready-{ruleset}-numba{numba.__version__}" if folder else None


def ready(ruleset: str) -> bool:
    """The ruleset's kernels are in this source version's cache, whatever compiled them (``wargym
    compile``, a test run, a training run: ``compiled``), or the cache is not wargym's to judge (a
    ``NUMBA_CACHE_DIR`` set by the user)."""
    mark = _mark(ruleset)
    if mark is None or mark.exists():
        return True
    if compiled(ruleset):
        mark.touch()
        return True
    return False


def compiled(ruleset: str) -> bool:
    """numba's cache holds the two kernels a game of ``ruleset`` spends its compile on: the rules'
    step kernel (``run_chunk_<ruleset>``, which holds every rules function) and its rule agent's
    (``decide_batch`` of the agent's module, where it has one).  What else a command uses is small
    and compiles in seconds."""
    return all((folder / index).exists() for index in kernel_indexes(ruleset)) if (folder := _folder()) else True


def kernel_indexes(ruleset: str) -> list[Path]:
    """Where in the cache folder numba files the index of each kernel ``compiled`` looks for."""
    import importlib

    from wargym.agents import make_agent
    from wargym.registry import make_core

    core = make_core(ruleset)
    kernels = [core.driver.run_chunk]
    agent_module = importlib.import_module(type(make_agent("rule", ruleset, core.players[0])).__module__)
    if hasattr(agent_module, "decide_batch"):
        kernels.append(agent_module.decide_batch)
    # numba's cache locator (wargym/_numba_cache.py) files each kernel as <package>/<file> in the folder
    return [Path(*Path(kernel._cache._cache_file._index_path).parts[-2:]) for kernel in kernels]


def warm_up(core, agents) -> float:
    """Take one decision of every agent (``agents[i]`` plays player i) on a throwaway game and
    observe it from every side, so numba compiles (or loads from its cache) what a game of
    ``core`` uses before it is played or timed; the seconds it took."""
    import numpy as np

    start = time.perf_counter()
    state = core.init(1, 0)
    for player, agent in enumerate(agents):
        action = np.asarray(agent.act(core, state, player), dtype=np.int64)
        if int(core.current_player(state)[0]) == player:
            state = core.step(state, action)
    for player in range(len(core.players)):
        core.observe(state, player)
    return time.perf_counter() - start


def warm(ruleset: str) -> float:
    """Compile (or load) the kernels a game of ``ruleset`` uses, with its rule agents on both
    sides (``warm_up``); mark it ready; the seconds taken."""
    from wargym.agents import make_agent
    from wargym.registry import make_core

    start = time.perf_counter()
    core = make_core(ruleset)
    warm_up(core, [make_agent("rule", ruleset, p) for p in core.players])
    mark = _mark(ruleset)
    if mark is not None:
        mark.touch()
    return time.perf_counter() - start


def _child_env(**extra: str) -> dict[str, str]:
    """The environment of a child ``python -m wargym...``: it imports this process's wargym (the
    installed package, or the clone's source folder), not whatever the working directory holds."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}
    home = str(Path(__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join([home, *filter(None, [env.get("PYTHONPATH")])])
    env["PYTHONSAFEPATH"] = "1"
    env.update(extra)
    return env


def _running(ruleset: str) -> bool:
    folder = _folder()
    lock = folder / f"compiling-{ruleset}.pid" if folder else None
    if lock is None or not lock.exists():
        return False
    try:
        os.kill(int(lock.read_text()), 0)
        return True
    except (ValueError, OSError):
        return False


def compile_in_background(ruleset: str) -> tuple[int, Path] | None:
    """Start ``python -m wargym.warm --ruleset R`` detached (unless one runs): its pid and log."""
    folder = _folder()
    if folder is None or _running(ruleset) or os.environ.get("WARGYM_BACKGROUND_COMPILE", "1") == "0":
        return None
    log = folder / f"compiling-{ruleset}.log"
    with open(log, "w") as out:
        proc = subprocess.Popen([sys.executable, "-m", "wargym.warm", "--ruleset", ruleset, "--nice"],
                                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, env=_child_env(),
                                cwd=folder, start_new_session=True)
    (folder / f"compiling-{ruleset}.pid").write_text(str(proc.pid))
    return proc.pid, log


def run_interpreted(argv: list[str], ruleset: str) -> int | None:
    """Run ``wargym argv`` on the interpreted rules when ``ruleset``'s kernels are not compiled
    yet (module docstring); None when they are (or this is turned off): compile as usual."""
    if os.environ.get("WARGYM_INTERPRET", "1") == "0" or os.environ.get("NUMBA_DISABLE_JIT") or ready(ruleset):
        return None
    started = compile_in_background(ruleset)
    how = (f"while they compile in the background (pid {started[0]}, a few minutes; log {started[1]})"
           if started else "(`wargym compile` compiles them)")
    print(f"wargym: the {ruleset} rules kernels are not compiled on this machine yet; this run plays the "
          f"same rules interpreted, slower per decision, {how}.", file=sys.stderr, flush=True)
    # the random streams' uint64 arithmetic wraps on purpose; numpy warns of it where numba does not
    quiet = "ignore:overflow encountered in scalar:RuntimeWarning"
    env = _child_env(NUMBA_DISABLE_JIT="1", PYTHONWARNINGS=",".join(filter(None, [os.environ.get("PYTHONWARNINGS"), quiet])))
    return subprocess.call([sys.executable, "-m", "wargym.cli", *argv], env=env)


#: the rulesets by the time their cold compile takes (the longest first, so that ``jobs`` processes
#: finish together): Attu and Peleliu about 4 minutes on two cores, the others about 1.5
BY_COST = ("attu", "peleliu", "world_at_war", "island_war")


def compile_in_parallel(rulesets: list[str], jobs: int) -> None:
    """Compile ``rulesets`` in up to ``jobs`` processes at once (``python -m wargym.warm``, each
    reporting its progress on stderr), the costliest first; a failed one raises."""
    from concurrent.futures import ThreadPoolExecutor

    order = sorted(rulesets, key=lambda r: BY_COST.index(r) if r in BY_COST else -1)

    def compile_one(ruleset: str) -> int:
        return subprocess.call([sys.executable, "-m", "wargym.warm", "--ruleset", ruleset, "--jobs", "1"],
                               env=_child_env())

    with ThreadPoolExecutor(max_workers=jobs) as pool:  # the next ruleset goes to whichever process ends first
        codes = list(pool.map(compile_one, order))
    failed = [f"{ruleset} (exit {code})" for ruleset, code in zip(order, codes) if code != 0]
    if failed:
        raise RuntimeError(f"compiling the kernels of {', '.join(failed)} failed; see above")


def add_compile_arguments(p: argparse.ArgumentParser) -> None:
    from wargym.registry import RULESETS

    p.add_argument("--ruleset", action="append", choices=sorted(RULESETS), default=None,
                   help="ruleset to compile (repeatable; default every ruleset)")
    p.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1),
                   help="rulesets compiled at once, each in its own process (default: 2, or 1 on one core)")
    p.add_argument("--nice", action="store_true", help=argparse.SUPPRESS)


def run_compile(args: argparse.Namespace) -> int:
    from wargym.registry import RULESETS

    if args.nice and hasattr(os, "nice"):
        os.nice(10)
    folder = _folder()
    rulesets = args.ruleset or sorted(RULESETS)
    if args.jobs > 1 and len(rulesets) > 1:
        compile_in_parallel(rulesets, args.jobs)
        return 0
    for ruleset in rulesets:
        seconds = warm(ruleset)
        print(f"{ruleset}: kernels ready in {seconds:.1f} s" + (f" (cache {folder})" if folder else ""), flush=True)
    if args.nice and folder is not None:
        for ruleset in args.ruleset or ():
            (folder / f"compiling-{ruleset}.pid").unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m wargym.warm", description=__doc__.splitlines()[0])
    add_compile_arguments(parser)
    sys.exit(run_compile(parser.parse_args()))
