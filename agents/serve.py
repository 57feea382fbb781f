"""``wargym serve``: the bot protocol, JSON lines on stdin / stdout (or TCP), for front ends.

    wargym serve --agent rule --ruleset island_war --scenario bloody_ridge --side japan
    wargym serve --agent rule --ruleset attu --listen 127.0.0.1:7777      # sessions for two programs

One JSON object per line in, one JSON object per line out (flushed), in order.  Two modes:

* stateless, for trusted front ends: every request carries its game, as a state record
  (``core.to_dict``: everything, hidden facts and the dice key included) or as a history
  (``{"seed": s, "actions": [...]}``, replayed from ``core.init(1, s)``).  Commands: ping, act,
  legal, describe, step.  A record is checked before the rules see it (``core.from_dict``).
* sessions, for programs that must not peek: the server holds the game (``new``); each side is
  joined once (``join``, which hands out that side's secret token) and then sees only its own view
  (``view``, ``play``, ``observe``): the redacted record of ``core.view`` (wargym.hidden), its own
  legal actions, its board and summary; never the dice key, another side's hidden facts or its
  options, and no way to set the dice.  ``session_view`` builds every such payload, and the
  contract's leak test checks it.

The full reference with example sessions is docs/bot-protocol.md.  A bad request gets
``{"ok": false, "error": "..."}`` and the server goes on; only ``quit`` or the end of the input
stop it.  Anything else the program would print goes to stderr, so stdout carries only responses.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import secrets
import socketserver
import sys
import threading
from dataclasses import dataclass, field
from typing import Any, TextIO

import numpy as np

PROTOCOL_VERSION = 2
COMMANDS = ("ping", "act", "legal", "describe", "step", "new", "join", "view", "play", "observe", "close", "quit")
MAX_SESSIONS = 1000


def session_view(core, state, viewer: int) -> dict[str, Any]:
    """What player ``viewer`` of a session is sent about its game (batch of one): the redacted
    record (``core.view``), whose decision it is, its own legal actions when it decides, its
    summary and text board; the result once the game is over.  Built from the viewer's view of the
    game wherever the payload is not about the viewer's own options."""
    from wargym.cli import result_text

    over = bool(core.terminated(state)[0] or core.truncated(state)[0])
    to_move = None if over else int(core.current_player(state)[0])
    view = core.view(state, viewer)
    out: dict[str, Any] = {
        "side": core.players[viewer], "turn": int(view.turn[0]), "phase": core.phase_names[int(view.phase[0])],
        "game_over": over, "to_move": None if to_move is None else core.players[to_move],
        "your_turn": to_move == viewer, "summary": core.summary(state, 0, viewer=viewer),
        "board": core.render(state, 0, "ansi", viewer=viewer), "state": core.to_dict(view, 0),
    }
    if over:
        out["result"] = result_text(core, state)
        out["rewards"] = dict(zip(core.players, (float(r) for r in core.rewards(state)[0])))
    if to_move == viewer:
        legal = np.flatnonzero(core.legal_mask(state)[0]).tolist()
        out["legal"] = [{"action": a, "description": core.describe_action(a, state, 0)} for a in legal]
    return out


def session_observation(core, state, viewer: int) -> dict[str, Any]:
    """``core.observe`` of the viewer (float32 arrays as base64 with shape and dtype) and its
    legal mask when it decides (all false otherwise): what a policy needs."""
    obs = core.observe(state, viewer)
    mine = bool(core.current_player(state)[0] == viewer) and not bool(core.terminated(state)[0] | core.truncated(state)[0])
    mask = np.asarray(core.legal_mask(state)[0], dtype=bool) if mine else np.zeros(core.num_actions, bool)
    return {"observation": {k: {"shape": list(v.shape[1:]), "dtype": "float32",
                                "base64": base64.b64encode(np.ascontiguousarray(v[0], np.float32).tobytes()).decode()}
                            for k, v in obs.items()},
            "action_mask": np.flatnonzero(mask).tolist()}


@dataclass
class Session:
    """A game the server holds: its state, the token of each joined side, the sides the server's
    agent plays."""

    state: Any
    server_plays: tuple[int, ...]
    tokens: dict[str, int] = field(default_factory=dict)     # token -> player


class RequestError(ValueError):
    """A request the server cannot answer; its message goes back as the response's "error"."""


class BotServer:
    """Answers bot-protocol requests for one game definition (ruleset, scenario, decisions) with
    the agent ``agent_spec`` (a ``make_agent`` spec) playing ``side``, or every side when None.

    A trained policy (sb3:, onnx:) brings its settings (wargym.agents.base): ruleset, scenario,
    decisions and rule options default to its own, and it plays the side it was trained for;
    a value given that contradicts them is an error naming both."""

    def __init__(self, ruleset: str | None, agent_spec: str, scenario: str | None = None, side: str | None = None,
                 decisions: str | None = None, seed: int = 0):
        from wargym.agents.base import CLI_FLAGS, SettingsError, game_settings, make_agent
        from wargym.replay import make_core_for

        label = f"agent {agent_spec if isinstance(agent_spec, str) else repr(agent_spec)}"
        game = game_settings([(label, agent_spec)], ruleset, scenario, decisions, flags=CLI_FLAGS)
        policy = game["settings"][label] or {}
        ruleset, decisions = game["ruleset"], game["decisions"]
        self.ruleset, self.agent_spec, self.decisions = ruleset, agent_spec, decisions
        self.core = make_core_for(ruleset, game["scenario"], decisions, game["options"])
        self.scenario = self.core.scenario.name
        players = self.core.players
        if side is not None and side not in players:
            raise ValueError(f"--side {side!r}: players of {ruleset} are {', '.join(players)}")
        if policy.get("side"):
            if side is not None and side != policy["side"]:
                raise SettingsError(f"--side {side}: {label} plays side {policy['side']!r} (from {policy['source']})")
            side = policy["side"]
        self.side = side
        self.agents = {p: make_agent(agent_spec, ruleset, name, seed=seed + p)
                       for p, name in enumerate(players) if side is None or name == side}
        self.unplayable: dict[int, str] = {}  # player -> why the agent cannot play it (see warm_up)
        self.sessions: dict[str, Session] = {}
        self.tcp: socketserver.TCPServer | None = None  # set by ``listen``
        self.done = False

    # -- the games in a request --------------------------------------------------------------------
    def warm_up(self) -> None:
        """One decision of every agent on a throwaway game: numba compiles (or loads its cache) and
        an agent that cannot play this game fails now, not at the first request."""
        state = self.core.init(1, 0)
        errors: dict[int, Exception] = {}
        for p, agent in self.agents.items():
            try:
                agent.act(self.core, state, p)
            except Exception as err:  # noqa: BLE001 - reported below or at startup
                errors[p] = err
        if errors and (self.side is not None or len(errors) == len(self.agents)):
            raise next(iter(errors.values()))
        for p, err in errors.items():  # an agent for one side only (an exported policy): serve the others
            name = self.core.players[p]
            del self.agents[p]
            self.unplayable[p] = f"{type(err).__name__}: {err}"
            print(f"wargym serve: the agent cannot play {name} ({err}); 'act' for {name} will be refused",
                  file=sys.stderr)

    def _state(self, req: dict[str, Any]):
        for key in ("ruleset", "scenario"):
            want = getattr(self, key)
            if key in req and req[key] != want:
                raise RequestError(f"this server plays {key} {want!r}, the request is for {req[key]!r}")
        has_state, has_history = "state" in req, "history" in req
        if has_state == has_history:
            raise RequestError("send exactly one of 'state' (a state record) or 'history' ({'seed', 'actions'})")
        if has_state:
            record = req["state"]
            if not isinstance(record, dict):
                raise RequestError(f"'state' must be a state record (a JSON object), got {type(record).__name__}")
            try:
                return self.core.from_dict(record)
            except (ValueError, KeyError, TypeError, IndexError, AttributeError, OverflowError) as err:
                raise RequestError(f"bad state record: {err}") from None
        return self._replay(req["history"])

    def _replay(self, history: Any):
        from wargym.core import IllegalActionError

        if not isinstance(history, dict) or not isinstance(history.get("actions", []), list):
            raise RequestError("'history' must be {\"seed\": int, \"actions\": [int, ...]}")
        seed, actions = history.get("seed", 0), history.get("actions", [])
        if not _is_int(seed) or seed < 0:
            raise RequestError(f"history seed must be a non-negative integer, got {seed!r}")
        core = self.core
        state = core.init(1, int(seed))
        for i, a in enumerate(actions):
            self._checked_action(a, f"history action #{i}")
            if self._over(state):
                raise RequestError(f"history action #{i} ({a}): the game is already over")
            try:
                state = core.step(state, np.array([a], dtype=np.int64))
            except IllegalActionError as err:
                raise RequestError(f"history action #{i} ({a}) is illegal: {err.reason}") from None
        return state

    def _over(self, state) -> bool:
        return bool(self.core.terminated(state)[0] or self.core.truncated(state)[0])

    def _result(self, state) -> dict[str, Any]:
        from wargym.cli import result_text

        core = self.core
        out: dict[str, Any] = {"game_over": self._over(state)}
        if out["game_over"]:
            out["result"] = result_text(core, state)
            out["rewards"] = dict(zip(core.players, (float(r) for r in core.rewards(state)[0])))
        else:
            out["player"] = core.players[int(core.current_player(state)[0])]
        return out

    def _action(self, req: dict[str, Any]) -> int:
        if "action" not in req:
            raise RequestError(f"'action' is missing: an integer in 0..{self.core.num_actions - 1}")
        return self._checked_action(req["action"], "'action'")

    def _checked_action(self, a: Any, what: str) -> int:
        """``a`` as an action id; RequestError naming ``what`` unless an integer in 0..A-1."""
        last = self.core.num_actions - 1
        if not _is_int(a):
            raise RequestError(f"{what} must be an integer in 0..{last}, got {a!r}")
        if not 0 <= a <= last:
            raise RequestError(f"{what} {a} is out of range: actions are 0..{last}")
        return int(a)

    # -- the commands ------------------------------------------------------------------------------
    def ping(self, req: dict[str, Any]) -> dict[str, Any]:
        from wargym import __version__

        return {"pong": True, "protocol": PROTOCOL_VERSION, "wargym": __version__, "ruleset": self.ruleset,
                "scenario": self.scenario, "decisions": self.decisions, "players": list(self.core.players),
                "side": self.side, "plays": [self.core.players[p] for p in sorted(self.agents)],
                "agent": str(self.agent_spec), "num_actions": int(self.core.num_actions)}

    def act(self, req: dict[str, Any]) -> dict[str, Any]:
        core = self.core
        state = self._state(req)
        if self._over(state):
            raise RequestError(f"the game is over ({self._result(state)['result']}): nothing to decide")
        player = int(core.current_player(state)[0])
        name = core.players[player]
        if player in self.unplayable:
            raise RequestError(f"it is {name}'s decision; the agent cannot play {name}: {self.unplayable[player]}")
        if player not in self.agents:
            raise RequestError(f"it is {name}'s decision; this server plays {self.side}")
        action = int(np.asarray(self.agents[player].act(core, state, player)).reshape(-1)[0])
        if not (0 <= action < core.num_actions and core.legal_mask(state)[0, action]):
            raise RequestError(f"the agent chose action {action}, which is illegal here")
        return {"action": action, "description": core.describe_action(action, state, 0), "player": name}

    def legal(self, req: dict[str, Any]) -> dict[str, Any]:
        core = self.core
        state = self._state(req)
        out = self._result(state)
        legal = [] if out["game_over"] else np.flatnonzero(core.legal_mask(state)[0]).tolist()
        out["actions"] = [{"action": a, "description": core.describe_action(a, state, 0)} for a in legal]
        return out

    def describe(self, req: dict[str, Any]) -> dict[str, Any]:
        """Descriptions of ``action`` (an int or a list) in the context of the game if one is sent;
        with no action: the game sent (whose decision, summary, text board), or with no game the
        game definition (players, action layout, observation shapes)."""
        core = self.core
        has_game = "state" in req or "history" in req
        state = self._state(req) if has_game else None
        if "action" in req:
            actions = req["action"]
            many = isinstance(actions, list)
            for i, a in enumerate(actions if many else [actions]):
                self._checked_action(a, f"'action'[{i}]" if many else "'action'")
            described = [{"action": int(a), "description": core.describe_action(int(a), state, 0)}
                         for a in (actions if many else [actions])]
            return {"actions": described} if many else described[0]
        if state is not None:
            out = self._result(state)
            out["turn"] = int(state.turn[0])
            out["summary"] = core.summary(state, 0)
            out["board"] = core.render(state, 0, "ansi")
            return out
        from wargym.agents.export import action_layout

        return {"ruleset": self.ruleset, "scenario": self.scenario, "decisions": self.decisions,
                "players": list(core.players), "action_layout": action_layout(core),
                "observation_shapes": {k: list(v) for k, v in core.observation_shapes.items()}}

    def step(self, req: dict[str, Any]) -> dict[str, Any]:
        from wargym.core import IllegalActionError

        core = self.core
        state = self._state(req)
        action = self._action(req)
        if self._over(state):
            raise RequestError("the game is over: no action can be taken")
        description = core.describe_action(action, state, 0)
        try:
            state = core.step(state, np.array([action], dtype=np.int64))
        except IllegalActionError as err:
            raise RequestError(f"action {action} is illegal: {err.reason}") from None
        return {"description": description, **self._result(state), "state": core.to_dict(state, 0)}

    # -- sessions: the server holds the game ---------------------------------------------------------
    def new(self, req: dict[str, Any]) -> dict[str, Any]:
        """A new game held by the server: ``seed`` deals it (default: a random one the clients never
        see), ``server_plays`` lists the sides the server's agent plays; the other sides are
        joined by clients."""
        core = self.core
        if len(self.sessions) >= MAX_SESSIONS:
            raise RequestError(f"this server holds {MAX_SESSIONS} games already: close one first")
        seed = req.get("seed", secrets.randbelow(2**31))
        if not _is_int(seed) or seed < 0:
            raise RequestError(f"seed must be a non-negative integer, got {seed!r}")
        plays = req.get("server_plays", [])
        if not isinstance(plays, list) or any(p not in core.players for p in plays):
            raise RequestError(f"server_plays must be a list of players of {core.name}: {list(core.players)}")
        players = tuple(core.players.index(p) for p in plays)
        cannot = [core.players[p] for p in players if p not in self.agents]
        if cannot:
            raise RequestError(f"the server's agent does not play {cannot}; it plays "
                               f"{[core.players[p] for p in sorted(self.agents)]}")
        game = secrets.token_hex(6)
        self.sessions[game] = Session(self._server_moves(core.init(1, int(seed)), players), players)
        return {"game": game, "players": list(core.players), "server_plays": list(plays)}

    def join(self, req: dict[str, Any]) -> dict[str, Any]:
        """The token of a side of a held game: each side once, never one the server plays."""
        session = self._session(req)
        side = req.get("side")
        if side not in self.core.players:
            raise RequestError(f"side must be one of {list(self.core.players)}, got {side!r}")
        player = self.core.players.index(side)
        if player in session.server_plays:
            raise RequestError(f"the server plays {side} in this game")
        if player in session.tokens.values():
            raise RequestError(f"{side} has been joined already")
        token = secrets.token_hex(16)
        session.tokens[token] = player
        return {"game": req["game"], "side": side, "token": token}

    def view(self, req: dict[str, Any]) -> dict[str, Any]:
        session, player = self._joined(req)
        return {"game": req["game"], **session_view(self.core, session.state, player)}

    def observe(self, req: dict[str, Any]) -> dict[str, Any]:
        session, player = self._joined(req)
        return {"game": req["game"], **session_observation(self.core, session.state, player)}

    def play(self, req: dict[str, Any]) -> dict[str, Any]:
        """The joined side's action; then the server's agent plays its sides until a client must
        decide or the game ends.  Returns the side's view."""
        from wargym.core import IllegalActionError

        core = self.core
        session, player = self._joined(req)
        action = self._action(req)
        state = session.state
        if self._over(state):
            raise RequestError("the game is over: no action can be taken")
        if int(core.current_player(state)[0]) != player:
            raise RequestError(f"it is not {core.players[player]}'s decision")
        try:
            state = core.step(state, np.array([action], dtype=np.int64))
        except IllegalActionError as err:
            raise RequestError(f"action {action} is illegal: {err.reason}") from None
        session.state = self._server_moves(state, session.server_plays)
        return {"game": req["game"], **session_view(core, session.state, player)}

    def close(self, req: dict[str, Any]) -> dict[str, Any]:
        self._joined(req)
        del self.sessions[req["game"]]
        return {"game": req["game"], "closed": True}

    def _server_moves(self, state, server_plays: tuple[int, ...]):
        core = self.core
        while not self._over(state):
            player = int(core.current_player(state)[0])
            if player not in server_plays:
                break
            action = int(np.asarray(self.agents[player].act(core, state, player)).reshape(-1)[0])
            state = core.step(state, np.array([action], dtype=np.int64))
        return state

    def _session(self, req: dict[str, Any]) -> Session:
        game = req.get("game")
        if not isinstance(game, str) or game not in self.sessions:
            raise RequestError(f"no game {game!r} is held here ('new' starts one)")
        return self.sessions[game]

    def _joined(self, req: dict[str, Any]) -> tuple[Session, int]:
        session = self._session(req)
        token = req.get("token")
        if not isinstance(token, str) or token not in session.tokens:
            raise RequestError("a joined side's 'token' is needed ('join' gives it)")
        return session, session.tokens[token]

    def quit(self, req: dict[str, Any]) -> dict[str, Any]:
        self.done = True
        return {"bye": True}

    # -- one line ----------------------------------------------------------------------------------
    def handle(self, line: str) -> dict[str, Any]:
        """The response object to one request line (never raises for a bad request)."""
        try:
            req = json.loads(line)
        except json.JSONDecodeError as err:
            return {"ok": False, "error": f"not JSON: {err.msg} at column {err.colno}"}
        if not isinstance(req, dict):
            return {"ok": False, "error": f"a request is a JSON object, got {type(req).__name__}"}
        echo = {"id": req["id"]} if "id" in req else {}
        cmd = req.get("cmd")
        if cmd not in COMMANDS:
            return {"ok": False, "error": f"unknown cmd {cmd!r}; commands: {', '.join(COMMANDS)}", **echo}
        try:
            body = getattr(self, cmd)(req)
        except RequestError as err:
            return {"ok": False, "error": str(err), **echo}
        except Exception as err:  # an agent or the rules failed on this request: report, keep serving
            return {"ok": False, "error": f"{cmd} failed: {type(err).__name__}: {err}", **echo}
        return {"ok": True, **body, **echo}


def _is_int(x: Any) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


def serve(server: BotServer, inp: TextIO, out: TextIO) -> int:
    """Answer the request lines of ``inp`` on ``out`` until ``quit`` or the end of the input.
    While a request is handled, anything printed goes to stderr, never into the protocol."""
    while not server.done:
        line = inp.readline()
        if not line:
            break
        if not line.strip():
            continue  # blank lines are not requests
        with contextlib.redirect_stdout(sys.stderr):
            response = server.handle(line)
        out.write(json.dumps(response, separators=(",", ":")) + "\n")
        out.flush()
    return 0


# ------------------------------------------------------------------------------------------ CLI
def add_serve_arguments(p: argparse.ArgumentParser) -> None:
    from wargym.agents.base import Default
    from wargym.cli_types import non_negative_int
    from wargym.registry import RULESETS

    p.add_argument("--agent", default="rule", metavar="SPEC",
                   help="the agent that answers 'act': random, rule, rule:<name>, onnx:<path>, sb3:<path>, "
                        "py:<module>:<Name> (default rule); a policy brings its ruleset, scenario, decisions "
                        "and side")
    p.add_argument("--ruleset", default=None, choices=sorted(RULESETS),
                   help="ruleset of the games (default: the policy's; needed for any other agent)")
    p.add_argument("--scenario", default=None, help="scenario (default: the policy's, else the ruleset's default)")
    p.add_argument("--side", default=None,
                   help="the player the agent plays; 'act' for another player's decision is an error "
                        "(default: a policy's side, else whichever side is to decide)")
    p.add_argument("--decisions", default=Default("major"), choices=("major", "full"),
                   help="'major': minor choices by the default rules; 'full': every choice asked "
                        "(default: the policy's, else major)")
    p.add_argument("--seed", type=non_negative_int, default=0, help="seed of a random agent (default 0)")
    p.add_argument("--listen", default=None, metavar="HOST:PORT",
                   help="serve TCP clients on HOST:PORT instead of stdin/stdout (e.g. 127.0.0.1:7777); "
                        "clients share the server's sessions")


def listen(server: BotServer, host: str, port: int, ready: threading.Event | None = None) -> int:
    """Serve the protocol to TCP clients on ``host:port``, one JSON line per request, each
    connection answered in order; the clients share the server's sessions (two programs can play
    each other through them).  ``quit`` ends a connection; the server runs until interrupted or
    until ``server.done`` is set by a ``shutdown`` (tests)."""
    lock = threading.Lock()

    class Handler(socketserver.StreamRequestHandler):
        def handle(self) -> None:
            for raw in self.rfile:
                line = raw.decode("utf-8", errors="replace")
                if not line.strip():
                    continue
                with lock, contextlib.redirect_stdout(sys.stderr):
                    response = server.handle(line)
                    server.done = False  # 'quit' closes this connection, not the server
                self.wfile.write((json.dumps(response, separators=(",", ":")) + "\n").encode())
                self.wfile.flush()
                if response.get("bye"):
                    return

    class Server(socketserver.ThreadingTCPServer):
        allow_reuse_address = True
        daemon_threads = True

    with Server((host, port), Handler) as tcp:
        server.tcp = tcp
        print(f"wargym serve: listening on {host}:{tcp.server_address[1]}", file=sys.stderr, flush=True)
        if ready is not None:
            ready.set()
        tcp.serve_forever(poll_interval=0.2)
    return 0


def parse_listen(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"--listen takes HOST:PORT (e.g. 127.0.0.1:7777), got {text!r}")
    if int(port) > 65535:
        raise ValueError(f"--listen {text!r}: the port must be in 0..65535 (0: any free port), got {port}")
    return host, int(port)


def run_serve(args: argparse.Namespace, inp: TextIO | None = None, out: TextIO | None = None) -> int:
    from wargym.cli_types import check_agent_spec

    check_agent_spec(args.agent, "--agent")
    real_stdout = out or sys.stdout
    address = parse_listen(args.listen) if getattr(args, "listen", None) else None
    with contextlib.redirect_stdout(sys.stderr):  # nothing but responses on stdout
        server = BotServer(args.ruleset, args.agent, scenario=args.scenario, side=args.side,
                           decisions=args.decisions, seed=args.seed)
        server.warm_up()
    sides = server.side or ("every side" if not server.unplayable else
                            ", ".join(server.core.players[p] for p in server.agents))
    where = f"TCP {args.listen}" if address else "JSON lines on stdin, 'quit' or end of input to stop"
    print(f"wargym serve: {server.ruleset}/{server.scenario}, decisions={server.decisions}, agent {args.agent!r} "
          f"plays {sides}; {where}",
          file=sys.stderr)
    if address:
        return listen(server, *address)
    return serve(server, inp or sys.stdin, real_stdout)


def main(argv: list[str] | None = None) -> int:
    """Entry point without the ``wargym`` command table: ``python -c 'from wargym.agents.serve
    import main; main()' --ruleset ...``; returns (and, run as a script, exits with) the status."""
    parser = argparse.ArgumentParser(prog="wargym serve", description="the JSON-lines bot protocol")
    add_serve_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return run_serve(args)
    except (ValueError, NotImplementedError, FileNotFoundError, OSError) as err:
        print(f"wargym serve: error: {err}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
