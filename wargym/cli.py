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
import textwrap
import time
from pathlib import Path
from typing import Any, Callable

from wargym.cli_types import check_agent_spec, int_range, non_negative_int, positive_int
from wargym.registry import RULESETS


# ------------------------------------------------------------------------------------------- demo
def _add_demo(p: argparse.ArgumentParser) -> None:
    from wargym.agents.base import Default

    p.add_argument("--ruleset", default=Default("island_war"), choices=sorted(RULESETS),
                   help="ruleset (default: a policy's, else island_war)")
    p.add_argument("--scenario", default=None, help="scenario name or file (default: a policy's, else the ruleset's "
                                                    "default)")
    p.add_argument("--seed", type=non_negative_int, default=0, help="game seed (dice); agents are seeded from it too")
    p.add_argument("--us", default=None, metavar="SPEC", help="agent for the US side (default 'rule')")
    p.add_argument("--japan", default=None, metavar="SPEC", help="agent for the Japanese side (default 'rule')")
    p.add_argument("--agent", action="append", default=[], metavar="SIDE=SPEC",
                   help="agent for any side by player name, e.g. --agent us=random (repeatable)")
    p.add_argument("--decisions", default=Default("major"), choices=("major", "full"),
                   help="'major': minor choices (FPF, retreat routes, advances) by the default rules; "
                        "'full': every choice by the agents (default: a policy's, else major)")
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
    if len(rewards) == 1:  # a solitaire game against the book's own system (Peleliu)
        side = _side(core.players[0])
        return f"{side} wins" if rewards[0] > 0 else (f"{side} loses" if rewards[0] < 0 else "draw")
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
    from numba import config as numba_config

    how = ", the rules interpreted: not compiled yet" if numba_config.DISABLE_JIT else ""
    lines.append(f"  decisions:   {len(record.actions)} in {record.seconds:.2f} s wall time ({rate:,.0f}/s{how})")
    return lines


def run_demo(args: argparse.Namespace) -> int:
    from PIL import Image

    from wargym.agents import make_agent
    from wargym.replay import make_core_for, play_game, save_replay
    from wargym.warm import warm_up

    for option, spec in [("--us", args.us), ("--japan", args.japan),
                         *(("--agent", item.partition("=")[2]) for item in args.agent)]:
        check_agent_spec(spec, option)  # a policy file that is missing or of the wrong kind: before any work
    from wargym.agents.base import CLI_FLAGS, game_settings

    given = [(f"{option} {spec}", spec) for option, spec in [("--us", args.us), ("--japan", args.japan),
                                                             *(("--agent", i) for i in args.agent)] if spec]
    game = game_settings([(label, spec.partition("=")[2] if label.startswith("--agent") else spec)
                          for label, spec in given], args.ruleset, args.scenario, args.decisions, flags=CLI_FLAGS)
    args.ruleset, args.decisions = game["ruleset"], game["decisions"]  # a policy's own game (wargym.agents.base)
    scenario = game["scenario"] or RULESETS[args.ruleset].default_scenario
    core = make_core_for(args.ruleset, scenario, args.decisions, game["options"])
    specs = _agent_specs(args, core.players)
    unknown = [side for side in args.replay_for if side not in core.players]
    if unknown:
        raise ValueError(f"--replay-for {unknown[0]!r}: this game's players are {', '.join(core.players)}")
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
    p.add_argument("--out", default=None, help="PNG to write (default board.png, none when --html is given)")
    p.add_argument("--step", type=int, default=None,
                   help="draw the game after N decisions (0 = the start, -1 = the end; default the end)")
    p.add_argument("--viewer", default=None, help="draw as seen by this player (fog of war, where a game has it)")
    p.add_argument("--text", action="store_true", help="also print the text (ansi) board")
    page = p.add_argument_group("HTML page (wargym.web.film; the page of board images: wargym.viewer)")
    page.add_argument("--html", default=None, metavar="PATH",
                      help="write a self-contained page that steps through the game: the board drawn in the "
                           "browser (SVG) where the ruleset has it, else board images")
    page.add_argument("--images", action="store_true",
                      help="the page of board images (opens at --step); implied by --views, --every, --width, "
                           "--quality and --jobs")
    page.add_argument("--views", default=None, metavar="VIEWS",
                      help="views to switch between: 'all' (full board and every side) or e.g. 'full,us' "
                           "(default: --viewer's view, else the full board)")
    page.add_argument("--every", type=positive_int, default=None, metavar="N",
                      help="keep every N-th step for a smaller page (default 1: every decision)")
    page.add_argument("--width", type=non_negative_int, default=None, metavar="PX",
                      help="scale the boards down to this width (default: as drawn; the page fits them to the window)")
    page.add_argument("--quality", type=int_range(1, 95), default=None, metavar="Q",
                      help="JPEG quality 1-95 (default 80)")
    page.add_argument("--jobs", type=positive_int, default=None, metavar="N",
                      help="processes drawing the boards (default: one per CPU, up to 8)")


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
    images = args.images or any(getattr(args, k) is not None for k in ("views", "every", "width", "quality", "jobs"))
    from wargym.web import web_module

    if args.html is not None and not images and web_module(core.name) is not None:
        from wargym.web.film import write_page

        began = time.perf_counter()
        page = write_page(replay, args.html, viewer=args.viewer)
        print(f"wrote {page['path']} ({page['bytes'] / 1e6:.1f} MB: {page['steps']} decisions, "
              f"{'as ' + args.viewer + ' saw it' if args.viewer else 'the full board'}; "
              f"{time.perf_counter() - began:.1f} s)")
        if args.out is None:
            return 0
    elif args.html is not None:
        from wargym import viewer as html_viewer
        from wargym.progress import Progress

        with Progress(f"drawing {args.html}", unit="steps") as bar:
            page = html_viewer.write_html(
                replay, args.html, viewer=args.viewer, views=args.views, every=args.every or 1,
                width=html_viewer.DEFAULT_WIDTH if args.width is None else args.width,
                quality=html_viewer.DEFAULT_QUALITY if args.quality is None else args.quality,
                jobs=args.jobs, start=args.step, progress=lambda done, total: bar.update(done - bar.done, total))
        print(f"wrote {page.path} ({page.bytes / 1e6:.1f} MB: {page.steps} steps of {page.decisions} decisions, "
              f"views: {', '.join(page.views)}; {page.seconds:.0f} s)")
        if args.out is None:
            return 0
    out = Path(args.out or "board.png")
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
    from importlib import import_module

    from wargym.registry import core_class

    for ruleset, record in sorted(RULESETS.items()):
        if args.ruleset and ruleset != args.ruleset:
            continue
        cls = core_class(ruleset)
        print(f"{ruleset}:")
        players = tuple(getattr(import_module(cls.__module__), "SIDES", ()))  # the core module's player names
        for name in cls.scenario_names():
            sc = cls.load_scenario(name)
            mark = " (default)" if name == record.default_scenario else ""
            print(f"  {name}{mark}: {sc.title}")
            sides = tuple(getattr(sc, "sides", ())) or players   # a scenario's own sides (World at War)
            first = getattr(sc, "first_player", None)
            if sides and isinstance(first, int) and 0 <= first < len(sides):
                sides = tuple(f"{p} (moves first)" if i == first else p for i, p in enumerate(sides))
            lines = [f"sides: {', '.join(sides)}; {sc.facts}" if sides else sc.facts, f"victory: {sc.victory}"]
            for line in lines:
                print(textwrap.fill(line, width=100, initial_indent="    ", subsequent_indent="      "))
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
    ("compile", "compile the rules kernels now (numba; cached), rather than at their first use",
     _lazy("wargym.warm", "add_compile_arguments"), _lazy("wargym.warm", "run_compile")),
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
    ("web", "play in the browser: a local server for the page (pip install wargym[web])",
     _lazy("wargym.web.command", "add_web_arguments"), _lazy("wargym.web.command", "run_web")),
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


INTERPRETED = ("demo", "play", "render")   # one game at a human's pace: interpreted until compiled


def _ruleset_of(args: argparse.Namespace) -> str | None:
    """The ruleset a command will play (a replay's from its file); None when unknown, or when a
    policy or a user's agent plays (those run on the compiled kernels)."""
    if args.command == "render":
        import json

        try:
            with open(args.replay) as f:
                name = json.load(f).get("ruleset")
        except (OSError, ValueError, AttributeError):
            return None  # the command itself reports the file
        return name if name in RULESETS else None
    specs = [getattr(args, name, None) for name in ("us", "japan", "vs")] + list(getattr(args, "agent", None) or [])
    if any(isinstance(spec, str) and spec.split("=", 1)[-1].startswith(("sb3:", "onnx:", "py:")) for spec in specs):
        return None  # a policy or a user's agent names its own ruleset and is timed with the kernels compiled
    return getattr(args, "ruleset", None)


def main(argv: list[str] | None = None) -> int:
    from wargym.data import DataError
    from wargym.replay import ReplayError

    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "run", None) is None:
        parser.print_help(sys.stderr)
        return 2
    if argv is None and args.command in INTERPRETED:  # a program run: wargym/warm.py
        from wargym.warm import run_interpreted

        ruleset = _ruleset_of(args)
        status = run_interpreted(sys.argv[1:], ruleset) if ruleset else None
        if status is not None:
            return status
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
