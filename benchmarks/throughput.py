"""Throughput of a wargym ruleset core under random masked play.

    python benchmarks/throughput.py --ruleset island_war [--scenario saipan] [--seconds 5]
                                    [--batches 1,64,1024] [--threads N] [--busy N] [--json] [--profile]

For each batch size B the loop is

    actions = sample_legal(rng, legal_mask)          # uniform choice among each game's legal actions
    state   = core.step(state, actions)
    state   = core.reset_done(state, seed, episode)   # finished games replaced: the batch stays full

run for about ``--seconds`` seconds after a warm-up (numba compile / cache load).  The policy is part
of the timed loop (it is cheap next to the step).  Decisions/s counts only games that took a
decision in a call (games that were live), summed over the batch.  The ratio is
dps(largest batch) / dps(smallest batch), i.e. dps(1024) / dps(1) with the default batches.

As an outside reference the same run measures random-play steps/s of PettingZoo's classic
``chess_v6`` (AEC API, a uniformly random legal move from the action mask, reset when a game ends).

``--in-place`` runs the loop as the native vector env does (envs/vector.py): ``core.step_in_place``
and ``core.reset_done_in_place`` advance the one state without the two whole-batch copies of the
functional API.

``--busy N`` runs N other processes in a tight loop while measuring, as a training run or a second
benchmark beside it would: the threads figures of benchmarks/README.md are taken idle and with
``--busy 1``.

``--profile`` adds where the time goes at the largest batch (policy, core.step split into
validation + state copy + the ruleset's batch kernel, reset_done, and observe for one player as
observations/s), the kernel's time by the decision each game took (``kernel_by_phase``), and a
cProfile top-15 by cumulative time at batch 64.

With ``--json`` the last line of stdout is one JSON object with the keys ruleset, scenario, batch,
ratio, reference and machine (plus details, and profile when asked).
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import io
import json
import os
import platform
import pstats
import subprocess
import sys
import time
from datetime import datetime, timezone

import numba
import numpy as np

from wargym.agents.random_agent import sample_legal
from wargym.registry import RULESETS, make_core


# ------------------------------------------------------------------------------------- policy
def random_masked_actions(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """A uniformly random legal action per game (the random baseline's draw: one uniform number
    per game picks the rank of its legal action).  Games with an empty mask (finished) get 0; the
    core ignores their action."""
    return sample_legal(rng, mask)


# ------------------------------------------------------------------------------------- one run
@dataclasses.dataclass
class RunResult:
    batch: int
    seconds: float
    calls: int
    decisions: int
    games_completed: int
    decisions_in_completed: int

    @property
    def dps(self) -> float:
        return self.decisions / self.seconds if self.seconds > 0 else 0.0

    @property
    def decisions_per_game(self) -> float | None:
        if self.games_completed == 0:
            return None
        return self.decisions_in_completed / self.games_completed


def rule_policy(core, seed: int = 0):
    """``policy(state) -> actions`` of the ruleset's rule baselines on every side, each asked for
    the games where its player decides (what a playout with the rule as base policy costs)."""
    from wargym.agents import joint_actions, make_agent

    agents = [make_agent("rule", core.name, player, seed=seed + p) for p, player in enumerate(core.players)]
    return lambda state: joint_actions(core, state, agents)


def run_batch(core, batch: int, seconds: float, seed: int = 0, in_place: bool = False, policy=None) -> RunResult:
    """Random masked play of ``batch`` games for about ``seconds`` seconds (at least one call);
    ``in_place``: ``step_in_place`` and ``reset_done_in_place`` (envs.vector's path: the state is
    advanced without copies) instead of ``step`` and ``reset_done``.  ``policy(state) -> actions``
    plays instead of the random draw (``rule_policy``: rule against rule)."""
    state = core.init(batch, seed)
    rng = np.random.default_rng(seed)
    episode = np.arange(batch)
    next_episode = batch
    calls = decisions = completed = completed_decisions = 0
    has_decisions = hasattr(state, "decisions")
    clock = time.perf_counter
    start = clock()
    end = start + seconds
    while True:
        live = ~(state.terminated | state.truncated)
        actions = random_masked_actions(rng, state.legal_action_mask) if policy is None else policy(state)
        if in_place:
            core.step_in_place(state, actions)
        else:
            state = core.step(state, actions)
        decisions += int(live.sum())
        calls += 1
        done = state.terminated | state.truncated
        if done.any():
            idx = np.nonzero(done)[0]
            completed += len(idx)
            if has_decisions:
                completed_decisions += int(state.decisions[idx].sum())
            episode = episode.copy()
            episode[idx] = next_episode + np.arange(len(idx))
            next_episode += len(idx)
            if in_place:
                core.reset_done_in_place(state, seed, episode)
            else:
                state = core.reset_done(state, seed, episode)
        if clock() >= end:
            break
    elapsed = clock() - start
    return RunResult(batch, elapsed, calls, decisions, completed, completed_decisions)


# ----------------------------------------------------------------------------------- profiling
def playout_rate(core, n: int, seed: int = 0, positions: int = 3) -> dict:
    """Determinized playouts as the planner plays them (wargym.agents.planner): from each of
    ``positions`` mid-game positions, ``n`` samples of the deciding player's view, its first legal
    action, then the rule baselines on every side to the end of the game, one batched call."""
    from wargym.agents.planner import PlannerAgent
    from wargym.contract import mid_game_states

    count = steps = 0
    seconds = 0.0
    for state in mid_game_states(core, seed, positions):
        player = int(state.current_player[0])
        planner = PlannerAgent(core.name, core.players[player], budget=n, seed=seed)
        first = np.flatnonzero(state.legal_action_mask[0])[:1]
        began = time.perf_counter()
        planner.playouts(core, state, player, [(0, first, n)])
        seconds += time.perf_counter() - began
        count += n
        steps += planner.stats["steps"]
    return {"positions": positions, "n": n, "playouts_per_s": count / seconds, "decisions_per_s": steps / seconds}


def ruleset_kernel(core):
    """(name, copy+kernel step function): the rules alone (``core._step_in_place``: in place, on
    checked actions); the function takes (state, checked_actions) and returns the stepped copy,
    timing the two parts."""

    def copy_and_kernel(state, checked):
        t0 = time.perf_counter()
        new = state.copy()
        t1 = time.perf_counter()
        core._step_in_place(new, checked)
        t2 = time.perf_counter()
        return new, t1 - t0, t2 - t1

    return f"{type(core).__name__}._step_in_place", copy_and_kernel


def profile_split(core, batch: int, seconds: float, seed: int = 0) -> dict:
    """Time each part of the random-play loop at ``batch`` with perf_counter.

    The loop total is policy + core.step + reset_done.  core.step is then re-run on the same input
    as its parts: check_actions (validation), state copy and the ruleset kernel called directly;
    observe(state, current player of game 0) is timed on its own (not in the loop total), in the
    first calls until it has taken a quarter of ``seconds``."""
    kernel_name, copy_and_kernel = ruleset_kernel(core)
    state = core.init(batch, seed)
    rng = np.random.default_rng(seed)
    episode = np.arange(batch)
    next_episode = batch
    t = {"policy": 0.0, "step": 0.0, "reset_done": 0.0, "check_actions": 0.0, "copy": 0.0, "kernel": 0.0,
         "observe": 0.0}
    calls = decisions = observed = 0
    n_phases = len(core.phase_names)
    phase_counts, kernel_calls = [], []  # per call: live games at each phase before it; its kernel time
    clock = time.perf_counter
    end = clock() + seconds
    while True:
        live = ~(state.terminated | state.truncated)
        phase_counts.append(np.bincount(state.phase[live].astype(np.int64), minlength=n_phases))
        t0 = clock()
        actions = random_masked_actions(rng, state.legal_action_mask) if policy is None else policy(state)
        t1 = clock()
        new = core.step(state, actions)
        t2 = clock()
        t["policy"] += t1 - t0
        t["step"] += t2 - t1
        # the parts of core.step, on the same data (outside the loop total)
        t3 = clock()
        checked = core.check_actions(state, actions)
        t["check_actions"] += clock() - t3
        if copy_and_kernel is not None:
            _, dt_copy, dt_kernel = copy_and_kernel(state, checked)
            t["copy"] += dt_copy
            t["kernel"] += dt_kernel
            kernel_calls.append(dt_kernel)
        decisions += int(live.sum())
        calls += 1
        state = new
        t4 = clock()
        done = state.terminated | state.truncated
        if done.any():
            idx = np.nonzero(done)[0]
            episode = episode.copy()
            episode[idx] = next_episode + np.arange(len(idx))
            next_episode += len(idx)
            state = core.reset_done(state, seed, episode)
        t["reset_done"] += clock() - t4
        if t["observe"] < seconds / 4:  # observe is slow next to a step: a quarter of the time at most
            t5 = clock()
            core.observe(state, int(state.current_player[0]))
            t["observe"] += clock() - t5
            observed += 1
        if clock() >= end:
            break
    loop = t["policy"] + t["step"] + t["reset_done"]
    return {
        "batch": batch, "calls": calls, "decisions": decisions,
        "loop_seconds": loop, "dps": decisions / loop if loop > 0 else 0.0,
        "seconds": {k: v for k, v in t.items()},
        "share_of_loop": {k: t[k] / loop for k in ("policy", "step", "reset_done")} if loop > 0 else {},
        "step_parts_share_of_step": ({k: t[k] / t["step"] for k in ("check_actions", "copy", "kernel")}
                                     if t["step"] > 0 else {}),
        "kernel": kernel_name,
        "kernel_us_per_decision": 1e6 * t["kernel"] / decisions if decisions and kernel_name else None,
        "observations_per_s": batch * observed / t["observe"] if t["observe"] > 0 else None,
        "kernel_by_phase": kernel_by_phase(core, np.array(phase_counts[:len(kernel_calls)], dtype=float),
                                           np.array(kernel_calls)),
    }


def kernel_by_phase(core, counts: np.ndarray, kernel: np.ndarray) -> list[dict]:
    """The kernel's time by the decision a game took, most first: each call's kernel time fitted by
    least squares as a sum over the games it stepped of one cost per phase (``counts[call,
    phase]``).  A phase's cost is the whole step after that decision: its own effect, the
    automatic play it sets off (a Japanese turn after the last landing box, say) and the next
    decision's mask.  A phase seen in few calls gets an unsteady, even negative, estimate."""
    if len(kernel) == 0:
        return []
    seen = np.flatnonzero(counts.sum(axis=0) > 0)
    cost, *_ = np.linalg.lstsq(counts[:, seen], kernel, rcond=None)
    total = kernel.sum()
    rows = [{"phase": core.phase_names[p], "per_call": float(counts[:, p].sum() / len(kernel)),
             "us_each": float(1e6 * c), "share": float(c * counts[:, p].sum() / total)}
            for p, c in zip(seen, cost)]
    return sorted(rows, key=lambda r: -r["share"])


def cprofile_top(core, batch: int, seconds: float, top: int = 15) -> str:
    prof = cProfile.Profile()
    prof.enable()
    run_batch(core, batch, seconds)
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(top)
    return out.getvalue()


# ------------------------------------------------------------------------------ chess reference
def pettingzoo_chess_steps_per_s(seconds: float, seed: int = 0) -> dict:
    """Random legal play of PettingZoo's classic chess_v6 (AEC), reset when a game ends."""
    from pettingzoo.classic import chess_v6

    env = chess_v6.env()
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    # warm-up: a few moves
    for _ in range(4):
        obs, _, term, trunc, _ = env.last()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    env.reset(seed=seed)
    steps = games = 0
    clock = time.perf_counter
    start = clock()
    end = start + seconds
    while True:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            games += 1
            env.reset()
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        if clock() >= end:
            break
    elapsed = clock() - start
    env.close()
    return {"steps_per_s": steps / elapsed, "steps": steps, "games_completed": games, "seconds": elapsed}


# ---------------------------------------------------------------------------------------- main
def machine_info() -> dict:
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        usable = os.cpu_count()
    info = {
        "cpu_count": os.cpu_count(), "cpus_usable": usable, "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(), "python": platform.python_version(),
        "numpy": np.__version__, "numba": numba.__version__,
    }
    try:
        import pettingzoo
        info["pettingzoo"] = pettingzoo.__version__
    except ImportError:
        pass
    try:
        info["loadavg_1m_at_start"] = round(os.getloadavg()[0], 2)  # other work on the machine skews timings
    except (AttributeError, OSError):
        pass
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    info["cpu_model"] = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return info


def warm_up(core, seed: int = 0) -> float:
    """Compile (or load from numba's cache) every kernel the loop and the profile use."""
    t0 = time.perf_counter()
    run_batch(core, 2, 0.0, seed)
    state = core.init(2, seed)
    rng = np.random.default_rng(seed)
    for _ in range(3):
        state = core.step(state, random_masked_actions(rng, state.legal_action_mask))
    core.observe(state, 0)
    _, copy_and_kernel = ruleset_kernel(core)
    if copy_and_kernel is not None:
        copy_and_kernel(state, core.check_actions(state, random_masked_actions(rng, state.legal_action_mask)))
    # reset_done's fresh-game path
    forced = dataclasses.replace(state, terminated=np.ones_like(state.terminated))
    core.reset_done(forced, seed)
    return time.perf_counter() - t0


def parse_batches(text: str) -> list[int]:
    batches = sorted({int(x) for x in text.split(",") if x.strip()})
    if not batches or batches[0] < 1:
        raise argparse.ArgumentTypeError(f"batches must be positive integers, got {text!r}")
    return batches


def measure(core, args, policy=None) -> dict[int, RunResult]:
    """decisions/s and finished games (playouts)/s at each batch size of ``args.batches``, printed
    as a table; ``policy``: who plays (None: random masked play)."""
    results: dict[int, RunResult] = {}
    print(f"{'batch':>6} {'decisions/s':>12} {'games/s':>9} {'calls':>8} {'decisions':>10} {'games done':>10} "
          f"{'decisions/game':>14}", flush=True)
    for b in args.batches:
        r = run_batch(core, b, args.seconds, args.seed, args.in_place, policy)
        results[b] = r
        dpg = f"{r.decisions_per_game:.1f}" if r.decisions_per_game is not None else "n/a"
        print(f"{b:>6} {r.dps:>12,.0f} {r.games_completed / r.seconds:>9,.1f} {r.calls:>8} {r.decisions:>10} "
              f"{r.games_completed:>10} {dpg:>14}", flush=True)
    return results


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ruleset", default="island_war", choices=sorted(RULESETS))
    ap.add_argument("--scenario", default=None, help="scenario (the ruleset's default when omitted)")
    ap.add_argument("--seconds", type=float, default=5.0, help="seconds of play per batch size (and for chess)")
    ap.add_argument("--batches", type=parse_batches, default=parse_batches("1,64,1024"))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true", help="last stdout line: one JSON object of the results")
    ap.add_argument("--in-place", action="store_true",
                    help="step_in_place + reset_done_in_place (envs.vector's path) instead of step + reset_done")
    ap.add_argument("--profile", action="store_true", help="time split at the largest batch; cProfile at 64")
    ap.add_argument("--no-reference", action="store_true", help="skip the PettingZoo chess reference")
    ap.add_argument("--rule", action="store_true",
                    help="also the rule baselines against each other: decisions/s and games (playouts)/s "
                         "beside random play, and their ratio at the largest batch")
    ap.add_argument("--busy", type=int, default=0, metavar="N",
                    help="run N other processes in a tight loop while measuring (a busy machine)")
    ap.add_argument("--threads", type=int, default=None,
                    help="threads the core shares a batch among (default: every usable CPU, at most "
                         "numba's thread count)")
    return ap


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)

    scenario = args.scenario or RULESETS[args.ruleset].default_scenario
    machine = machine_info()
    threads = args.threads or min(machine["cpus_usable"], numba.config.NUMBA_NUM_THREADS)
    core = make_core(args.ruleset, scenario, threads=threads)
    print(f"wargym throughput: ruleset={args.ruleset} scenario={scenario} actions={core.num_actions} "
          f"batches={args.batches} seconds={args.seconds:g} threads={threads} "
          f"loop={'in place' if args.in_place else 'step + reset_done'} "
          f"({datetime.now(timezone.utc).strftime('%Y-%m-%d %H:%M UTC')})", flush=True)
    print(f"machine: {machine.get('cpu_model', machine['processor'])}, {machine['cpus_usable']} usable CPUs, "
          f"python {machine['python']}, numpy {machine['numpy']}, numba {machine['numba']}, "
          f"load average {machine.get('loadavg_1m_at_start', 'n/a')}", flush=True)
    print(f"warm-up (compile / numba cache load): {warm_up(core, args.seed):.1f} s", flush=True)
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)]
    if busy:
        print(f"{len(busy)} busy process(es) running beside the benchmark", flush=True)
        time.sleep(0.5)
    try:
        results = measure(core, args)
        rule_results = playouts = None
        if args.rule:
            policy = rule_policy(core, args.seed)
            began = time.perf_counter()
            policy(core.init(args.batches[-1], args.seed))  # compile or load the agents' kernels first
            print(f"rule against rule (the rule baselines on every side; warm-up "
                  f"{time.perf_counter() - began:.1f} s):", flush=True)
            rule_results = measure(core, args, policy)
            playouts = playout_rate(core, args.batches[-1], args.seed)
    finally:
        for p in busy:
            p.kill()
            p.wait()

    lo, hi = args.batches[0], args.batches[-1]
    ratio = results[hi].dps / results[lo].dps if results[lo].dps > 0 else None
    print(f"ratio dps({hi}) / dps({lo}) = {ratio:.2f}" if ratio is not None else "ratio: n/a")
    total_games = sum(r.games_completed for r in results.values())
    total_dec = sum(r.decisions_in_completed for r in results.values())
    print(f"games completed (all batches): {total_games}; average decisions per completed game: "
          + (f"{total_dec / total_games:.1f}" if total_games else "n/a (no game finished; raise --seconds)"))

    if rule_results is not None:
        print(f"rule against rule at batch {hi}: {rule_results[hi].dps:,.0f} decisions/s, "
              f"{rule_results[hi].games_completed / rule_results[hi].seconds:,.1f} games/s, "
              f"{rule_results[hi].dps / results[hi].dps:.1%} of random play's decisions/s", flush=True)
        print(f"determinized playouts (the planner's: core.sample_hidden, then the rule on every side to the "
              f"end) from {playouts['positions']} mid-game positions, {playouts['n']} a call: "
              f"{playouts['playouts_per_s']:,.1f} playouts/s, {playouts['decisions_per_s']:,.0f} decisions/s", flush=True)

    reference = {}
    if not args.no_reference:
        chess = pettingzoo_chess_steps_per_s(args.seconds, args.seed)
        reference = {"pettingzoo_chess_v6_steps_per_s": chess["steps_per_s"]}
        print(f"reference: PettingZoo classic chess_v6 (AEC, random legal moves): {chess['steps_per_s']:,.0f} steps/s "
              f"({chess['games_completed']} games completed, {chess['steps']} steps); "
              f"{args.ruleset} batch {lo}: {results[lo].dps / chess['steps_per_s']:.2f}x, "
              f"batch {hi}: {results[hi].dps / chess['steps_per_s']:.2f}x", flush=True)

    profile = None
    if args.profile:
        pb = hi
        prof = profile_split(core, pb, args.seconds, args.seed)
        s = prof["seconds"]
        loop = prof["loop_seconds"]
        print(f"\nprofile at batch {pb} ({prof['calls']} calls, {prof['decisions']} decisions, "
              f"{prof['dps']:,.0f} decisions/s inside the timed parts):")
        for k in ("policy", "step", "reset_done"):
            print(f"  {k:<12} {s[k]:8.3f} s  {100 * s[k] / loop:5.1f} % of loop  "
                  f"{1e3 * s[k] / prof['calls']:8.3f} ms/call")
        print("  core.step re-run on the same data, by part:")
        for k in ("check_actions", "copy", "kernel"):
            name = prof["kernel"] if k == "kernel" else k
            if k != "check_actions" and not prof["kernel"]:
                continue
            print(f"    {str(name):<40} {s[k]:8.3f} s  {100 * s[k] / s['step']:5.1f} % of core.step  "
                  f"{1e3 * s[k] / prof['calls']:8.3f} ms/call")
        if prof["kernel_us_per_decision"] is not None:
            print(f"    kernel per decision: {prof['kernel_us_per_decision']:.1f} us")
        print(f"  observe (one player, separate): {s['observe']:.3f} s, "
              f"{prof['observations_per_s']:,.0f} observations/s")
        print("  kernel by the decision each game took (least squares over the calls):")
        for row in prof["kernel_by_phase"][:12]:
            print(f"    {row['phase'][:48]:48s} {row['per_call']:7.1f} a call {row['us_each']:8.2f} us each "
                  f"{100 * row['share']:6.1f} %")
        pbatch = 64
        print(f"\ncProfile at batch {pbatch}, top 15 by cumulative time:")
        print(cprofile_top(core, pbatch, min(args.seconds, 3.0)))
        profile = prof

    out = {
        "ruleset": args.ruleset,
        "scenario": scenario,
        "threads": threads,
        "busy": args.busy,
        "batch": {str(b): r.dps for b, r in results.items()},
        "ratio": ratio, "in_place": bool(args.in_place),
        "reference": reference,
        "rule": None if rule_results is None else {
            "batch": {str(b): r.dps for b, r in rule_results.items()},
            "games_per_s": {str(b): r.games_completed / r.seconds for b, r in rule_results.items()},
            "share_of_random": {str(b): r.dps / results[b].dps for b, r in rule_results.items() if results[b].dps},
            "playouts": playouts},
        "machine": machine,
        "details": {
            "ratio_of": f"{hi}/{lo}",
            "seconds": args.seconds,
            "per_batch": {str(b): {"calls": r.calls, "decisions": r.decisions, "seconds": r.seconds,
                                   "games_completed": r.games_completed,
                                   "decisions_per_game": r.decisions_per_game} for b, r in results.items()},
            "games_completed": total_games,
            "decisions_per_game": total_dec / total_games if total_games else None,
        },
    }
    if profile is not None:
        out["profile"] = profile
    if args.json:
        sys.stdout.flush()
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
