"""The ``wargym`` command line (console script ``wargym = wargym.cli:main``).

    wargym demo        one AI-vs-AI game: prints a summary, writes DIR/replay.json and DIR/final.png
    wargym render      draws a saved game (replay.json), final position or after --step N decisions
    wargym scenarios   lists the shipped scenarios of every ruleset

Every subcommand is one row of ``COMMANDS``: (name, one-line help, add_arguments, run); commands
living in wargym.agents are imported only when used (training pulls in torch).  ``main(argv)`` returns the exit status:
0 done, 1 a clear error (printed as ``wargym <command>: error: ...``), 2 bad usage.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, Callable

from wargym.registry import RULESETS


# ------------------------------------------------------------------------------------------- demo
def _add_demo(p: argparse.ArgumentParser) -> None:
    p.add_argument("--ruleset", default="island_war", choices=sorted(RULESETS), help="ruleset (default island_war)")
    p.add_argument("--scenario", default=None, help="scenario name or file (default: the ruleset's default)")
    p.add_argument("--seed", type=int, default=0, help="game seed (dice); agents are seeded from it too")
    p.add_argument("--us", default=None, metavar="SPEC", help="agent for the US side (default 'rule')")
    p.add_argument("--japan", default=None, metavar="SPEC", help="agent for the Japanese side (default 'rule')")
    p.add_argument("--agent", action="append", default=[], metavar="SIDE=SPEC",
                   help="agent for any side by player name, e.g. --agent us=random (repeatable)")
    p.add_argument("--decisions", default="major", choices=("major", "full"),
                   help="'major': minor choices (FPF, retreat routes, advances) by the default rules; "
                        "'full': every choice by the agents (default major)")
    p.add_argument("--out", default="wargym-demo", help="output folder (default ./wargym-demo)")
    p.add_argument("--replay-for", action="append", default=[], metavar="SIDE",
                   help="also write replay_SIDE.json: the game as that player may know it (repeatable)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def _agent_specs(args: argparse.Namespace, players: tuple[str, ...]) -> dict[str, str]:
    specs = {p: "rule" for p in players}
    for name in ("us", "japan"):
        value = getattr(args, name)
        if value is not None:
            if name not in players:
                raise ValueError(f"--{name}: this game's players are {', '.join(players)}")
            specs[name] = value
    for item in args.agent:
        side, sep, spec = item.partition("=")
        if not sep or side not in players or not spec:
            raise ValueError(f"--agent {item!r}: use SIDE=SPEC with SIDE one of {', '.join(players)}")
        specs[side] = spec
    return specs


def _progress(enabled: bool) -> tuple[Callable[[Any], None] | None, Callable[[], None]]:
    """A tqdm progress bar over decisions (when tqdm is installed and stderr is a terminal)."""
    if not enabled or not sys.stderr.isatty():
        return None, lambda: None
    try:
        from tqdm import tqdm
    except ImportError:
        return None, lambda: None
    bar = tqdm(unit=" decisions", desc="playing", leave=False, file=sys.stderr)

    def tick(state) -> None:
        bar.update(1)
        if bar.n % 50 == 0:
            bar.set_postfix_str(f"turn {int(state.turn[0])}")

    return tick, bar.close


def result_text(core, state) -> str:
    """'US wins' / 'draw' / 'stopped at the decision limit' from the final rewards."""
    if core.truncated(state)[0]:
        return "stopped at the decision limit (no result)"
    if not core.terminated(state)[0]:
        return "not finished"
    rewards = [float(r) for r in core.rewards(state)[0]]
    best = max(rewards)
    if best <= 0 or rewards.count(best) > 1:
        return "draw"
    return f"{_side(core.players[rewards.index(best)])} wins"


def _side(name: str) -> str:
    return name.upper() if len(name) <= 3 else name.capitalize()


def summary_lines(record) -> list[str]:
    """The demo's report of one game (a wargym.replay.GameRecord)."""
    core, final = record.core, record.final
    facts = core.summary(final, 0)
    result = result_text(core, final)
    if "margin" in facts:
        result += f" (victory margin {facts['margin']:+d})"
    meta = record.meta
    agents = ", ".join(f"{_side(s)}: {a}" for s, a in meta.get("agents", {}).items())
    title = core.scenario.title
    lines = [f"{meta.get('ruleset')} / {meta.get('scenario')}: {title}",
             f"  seed {meta.get('seed')}, decisions={meta.get('decisions')}; {agents}",
             f"  result:      {result}"]
    turns = facts.get("game_turns")
    lines.append(f"  game-turns:  {int(final.turn[0])}" + (f" of {turns}" if turns else ""))
    if "eliminated" in facts:
        lines.append("  losses:      " + ", ".join(
            f"{_side(s)} {n} unit{'s' if n != 1 else ''} eliminated ({facts['units_on_map'][s]} left on the map)"
            for s, n in facts["eliminated"].items()))
    if "objectives" in facts:
        held: dict[str, list[str]] = {}
        for name, owner in facts["objectives"].items():
            held.setdefault(_side(owner) if owner else "nobody", []).append(name)
        lines.append("  objectives:  " + "; ".join(f"{s} {len(n)} ({', '.join(n)})" for s, n in held.items()))
    rate = len(record.actions) / record.seconds if record.seconds > 0 else float("inf")
    lines.append(f"  decisions:   {len(record.actions)} in {record.seconds:.2f} s wall time ({rate:,.0f}/s)")
    return lines


def warm_up(core, agents) -> float:
    """Take one decision of every agent on a throwaway game so numba compiles (or loads from its
    cache) before the game is timed; returns the seconds it took."""
    import numpy as np

    start = time.perf_counter()
    state = core.init(1, 0)
    for player, agent in enumerate(agents):
        action = np.asarray(agent.act(core, state, player), dtype=np.int64)
        if int(core.current_player(state)[0]) == player:
            core.step(state, action)
    core.observe(state, 0)
    return time.perf_counter() - start


def run_demo(args: argparse.Namespace) -> int:
    from PIL import Image

    from wargym.agents import make_agent
    from wargym.replay import make_core_for, play_game, save_replay

    scenario = args.scenario or RULESETS[args.ruleset].default_scenario
    core = make_core_for(args.ruleset, scenario, args.decisions)
    specs = _agent_specs(args, core.players)
    agents = [make_agent(specs[p], args.ruleset, p, seed=args.seed + i) for i, p in enumerate(core.players)]
    meta = {"ruleset": args.ruleset, "scenario": scenario, "seed": args.seed, "decisions": args.decisions,
            "agents": specs}
    ready = warm_up(core, agents)
    if not args.quiet and ready > 5:
        print(f"(compiled the rules kernels in {ready:.0f} s; cached for later runs)")
    tick, close = _progress(not args.quiet)
    start = time.perf_counter()
    try:
        record = play_game(core, agents, seed=args.seed, meta=meta, on_step=tick)
    finally:
        close()
    out = Path(args.out)
    replay_path = save_replay(record, out / "replay.json")
    for side in args.replay_for:
        save_replay(record, out / f"replay_{side}.json", viewer=side)
    png_path = out / "final.png"
    Image.fromarray(core.render(record.final, 0, "rgb_array")).save(png_path)
    for line in summary_lines(record):
        print(line)
    print(f"  wrote:       {replay_path}, {png_path} ({time.perf_counter() - start:.1f} s in all)")
    return 0


# ----------------------------------------------------------------------------------------- render
def _add_render(p: argparse.ArgumentParser) -> None:
    p.add_argument("replay", help="a replay file written by 'wargym demo' (replay.json)")
    p.add_argument("--out", default="board.png", help="PNG to write (default board.png)")
    p.add_argument("--step", type=int, default=None,
                   help="draw the game after N decisions (0 = the start, -1 = the end; default the end)")
    p.add_argument("--viewer", default=None, help="draw as seen by this player (fog of war, where a game has it)")
    p.add_argument("--text", action="store_true", help="also print the text (ansi) board")


def run_render(args: argparse.Namespace) -> int:
    from PIL import Image

    from wargym.replay import load_replay

    replay = load_replay(args.replay)
    core = replay.core
    step = -1 if args.step is None else args.step
    state = replay.state_at(step)
    viewer = None
    if args.viewer is not None:
        if args.viewer not in core.players:
            raise ValueError(f"--viewer {args.viewer!r}: players are {', '.join(core.players)}")
        viewer = core.players.index(args.viewer)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(core.render(state, 0, "rgb_array", viewer=viewer)).save(out)
    if args.text:
        print(core.render(state, 0, "ansi", viewer=viewer), end="")
    n = len(replay.actions)
    print(f"wrote {out} (after {step if step >= 0 else step + n + 1} of {n} decisions)")
    return 0


# -------------------------------------------------------------------------------------- scenarios
def _add_scenarios(p: argparse.ArgumentParser) -> None:
    p.add_argument("--ruleset", default=None, choices=sorted(RULESETS), help="only this ruleset")


def run_scenarios(args: argparse.Namespace) -> int:
    from wargym.registry import core_class

    for ruleset, record in sorted(RULESETS.items()):
        if args.ruleset and ruleset != args.ruleset:
            continue
        cls = core_class(ruleset)
        print(f"{ruleset}:")
        for name in cls.scenario_names():
            sc = cls.load_scenario(name)
            mark = " (default)" if name == record.default_scenario else ""
            print(f"  {name:<14} {sc.title}{mark}")
            print(f"  {'':<14} {sc.facts}")
    return 0


# ---------------------------------------------------------------------------------------- the table
def _lazy(module: str, name: str) -> Callable:
    """A command function imported only when called (training pulls in torch)."""
    def call(*args, **kwargs):
        from importlib import import_module
        return getattr(import_module(module), name)(*args, **kwargs)
    call.__name__ = name
    return call


COMMANDS: list[tuple[str, str, Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]] = [
    ("demo", "play one AI-vs-AI game; print a summary, write replay.json and final.png", _add_demo, run_demo),
    ("render", "draw a saved game (replay.json) as a PNG", _add_render, run_render),
    ("scenarios", "list the shipped scenarios", _add_scenarios, run_scenarios),
    ("train", "train a MaskablePPO policy for one side (TensorBoard, checkpoints, --resume)",
     _lazy("wargym.agents.train", "add_train_arguments"), _lazy("wargym.agents.train", "run_train")),
    ("eval", "agent A vs agent B over many seeded games: win rate with a 95 percent confidence interval",
     _lazy("wargym.agents.evaluate", "add_eval_arguments"), _lazy("wargym.agents.evaluate", "run_eval")),
    ("tournament", "round robin of agents: win rates, Elo; CSVs and a chart",
     _lazy("wargym.agents.tournament", "add_tournament_arguments"),
     _lazy("wargym.agents.tournament", "run_tournament_cli")),
    ("export", "export a MaskablePPO policy to ONNX with a JSON sidecar",
     _lazy("wargym.agents.export", "add_export_arguments"), _lazy("wargym.agents.export", "run_export")),
    ("serve", "JSON-lines bot protocol on stdin/stdout (docs/bot-protocol.md)",
     _lazy("wargym.agents.serve", "add_serve_arguments"), _lazy("wargym.agents.serve", "run_serve")),
    ("play", "play a game at the terminal against any agent",
     _lazy("wargym.agents.play", "add_play_arguments"), _lazy("wargym.agents.play", "run_play")),
    # bench: see benchmarks/throughput.py (a command row when it is packaged)
]


def build_parser() -> argparse.ArgumentParser:
    from wargym import __version__

    parser = argparse.ArgumentParser(prog="wargym", description="RL environments for WWII Pacific board wargames.")
    parser.add_argument("--version", action="version", version=f"wargym {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, help_text, add_arguments, run in COMMANDS:
        p = sub.add_parser(name, help=help_text, description=help_text)
        add_arguments(p)
        p.set_defaults(run=run)
    return parser


def main(argv: list[str] | None = None) -> int:
    from wargym.data import DataError
    from wargym.replay import ReplayError

    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "run", None) is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.run(args) or 0)
    except (ReplayError, DataError, ValueError, NotImplementedError, FileNotFoundError, OSError) as err:
        print(f"wargym {args.command}: error: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"wargym {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
