"""The ``wargym web`` command: its options, and the server started (wargym.web.server, which needs
the ``web`` extra: ``pip install wargym[web]``)."""

from __future__ import annotations


def add_web_arguments(p) -> None:
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8765, help="port (default 8765; 0: any free port)")
    p.add_argument("--policy", action="append", default=[], metavar="FILE",
                   help="an exported policy (ONNX, wargym export) offered as an opponent (repeatable)")
    p.add_argument("--idle-minutes", type=float, default=30.0,
                   help="a game nobody asked about for this long is dropped (default 30)")


def run_web(args) -> int:
    from wargym.cli_types import check_agent_spec

    try:
        from wargym.web.server import Limits, WebGames, make_app, serve_app
    except ModuleNotFoundError as err:
        raise ValueError(f"wargym web needs the web extra ({err.name} is not installed): pip install 'wargym[web]'") from None

    policies = {}
    for path in args.policy:
        spec = f"onnx:{path}"
        check_agent_spec(spec, "--policy")
        policies[f"policy {path}"] = spec
    if not 0 <= args.port <= 65535:
        raise ValueError(f"--port {args.port}: 0..65535 (0: any free port)")
    games = WebGames(policies=policies, limits=Limits(idle_seconds=60 * args.idle_minutes))
    serve_app(make_app(games), args.host, args.port)
    return 0
