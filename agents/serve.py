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
  (``view``, ``play``, ``observe``, ``describe``): the redacted record of ``core.view``
  (wargym.hidden), its own legal actions, its board and summary, and every text (descriptions, why
  an action is refused) written from its view; never the dice key, another side's hidden facts
  or its options, and no way to set the dice.  The game is dealt when every client side has joined,
  from 128 bits of the operating system's entropy (``wargym.rng.entropy_keys``), or from a seed
  only when every side agreed to it.  ``session_view``, ``session_observation``,
  ``described`` and ``session_refusals`` build every payload a side receives, and the
  contract's leak test checks them.

Whatever a client sends, the server answers each request line with exactly one JSON line and goes
on (``Limits``: line length, nesting, numbers, list lengths, games per client, idle games expire);
only ``quit`` or the end of the input stop it.  The full reference is docs/bot-protocol.md.
Anything else the program would print goes to stderr, so stdout carries only responses.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import itertools
import json
import math
import secrets
import socketserver
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, TextIO

import numpy as np

PROTOCOL_VERSION = 4
COMMANDS = ("ping", "act", "legal", "describe", "step", "new", "join", "view", "play", "wait", "observe", "close",
            "quit")


@dataclass(frozen=True)
class Limits:
    """What one client may send and hold (docs/bot-protocol.md, Limits).  A request past a limit
    gets an ``ok: false`` answer naming it; the server goes on."""

    line_bytes: int = 1 << 20          # one request line (a Saipan state record is ~40 KB)
    depth: int = 32                    # nesting of arrays and objects in a request
    digits: int = 30                   # digits of an integer (seeds and action ids need 20 at most)
    text: int = 200                    # characters of a client's value quoted back in an error
    games: int = 1000                  # games the server holds
    games_per_client: int = 16         # games one client (a connection; stdin is one) created and are held
    idle_seconds: float = 1800.0       # a game nobody asked about for this long is dropped
    wait_seconds: float = 300.0        # the longest ``wait`` (a client asks again after it)


class RequestError(ValueError):
    """A request the server cannot answer; its message goes back as the response's "error"."""


def _cut(text: str, limit: int = Limits.text) -> str:
    """``text`` cut to ``limit`` characters, saying how long it was."""
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"


def _show(value: Any, limit: int = Limits.text) -> str:
    """A client's value quoted in an error, cut to ``limit`` characters."""
    return _cut(repr(value), limit)


# ---------------------------------------------------------------------------------- what a side gets
def session_view(core, state, viewer: int, omit: frozenset[str] = frozenset()) -> dict[str, Any]:
    """What player ``viewer`` of a session is sent about its game (batch of one): the redacted
    record (``core.view``), whose decision it is, its own legal actions when it decides, its
    summary and text board; the result once the game is over.  Built from the viewer's view of the
    game wherever the payload is not about the viewer's own options.  ``omit``: keys not built
    (the web page draws its own board: no "board" text, no "state" record)."""
    from wargym.cli import result_text

    over = bool(core.terminated(state)[0] or core.truncated(state)[0])
    to_move = None if over else int(core.current_player(state)[0])
    view = core.view(state, viewer)
    out: dict[str, Any] = {
        "side": core.players[viewer], "turn": int(view.turn[0]), "phase": core.phase_names[int(view.phase[0])],
        "game_over": over, "to_move": None if to_move is None else core.players[to_move],
        "your_turn": to_move == viewer, "summary": core.summary(state, 0, viewer=viewer),
    }
    if "board" not in omit:
        out["board"] = core.render(state, 0, "ansi", viewer=viewer)
    if "state" not in omit:
        out["state"] = core.to_dict(view, 0)
    if over:
        out["result"] = result_text(core, state)
        out["rewards"] = dict(zip(core.players, (float(r) for r in core.rewards(state)[0])))
    if to_move == viewer:
        legal = np.flatnonzero(core.legal_mask(state)[0]).tolist()
        out["legal"] = described(core, state, legal, viewer)
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


def hex_map(core) -> dict[str, int] | None:
    """The map's size and the hex-pointer actions (docs/bot-protocol.md, "Actions and hexes"): action
    ``h < hex_actions`` names hex XXYY with XX = h // rows + 1 and YY = h % rows + 1."""
    grid = getattr(core, "grid", None)
    if grid is None:
        return None
    return {"columns": int(grid.columns), "rows": int(grid.rows), "hex_actions": int(grid.size)}


def described(core, state, actions: list[int], viewer: int | None = None) -> list[dict[str, Any]]:
    """``[{"action", "description"}]`` of ``actions`` (``describe``, ``legal``, a view's legal
    list): in a session, as player ``viewer`` may read them."""
    return [{"action": a, "description": text} for a, text in zip(actions, core.describe_actions(actions, state, 0, viewer))]


def session_refusals(core, state, viewer: int, actions: list[int]) -> list[str | None]:
    """The error ``play`` answers player ``viewer`` for each of ``actions`` (None: it would be
    played), written from the viewer's view: another side's options, cards or counters are never
    named in it."""
    if bool(core.terminated(state)[0] or core.truncated(state)[0]):
        return ["the game is over: no action can be taken"] * len(actions)
    decider = int(core.current_player(state)[0])
    if decider != viewer:
        return [f"it is not {core.players[viewer]}'s decision"] * len(actions)
    mask = np.asarray(core.legal_mask(state)[0])
    illegal = [a for a in actions if not mask[a]]
    texts = dict(zip(illegal, core.illegal_texts(state, 0, illegal, viewer)))
    return [None if mask[a] else f"action {a} is illegal: {texts[a]}" for a in actions]


# ------------------------------------------------------------------------------------------ sessions
@dataclass
class Session:
    """A game the server holds.  It is dealt (``state``) once every client side has joined;
    ``seed`` is the seed its creator proposed, used only if every side agreed to it."""

    server_plays: tuple[int, ...]
    client_sides: tuple[int, ...]
    creator: int                                              # the client that asked for it
    seed: int | None = None
    state: Any = None
    seeded: bool = False                                      # dealt from ``seed`` (else from entropy)
    tokens: dict[str, int] = field(default_factory=dict)     # token -> player
    agreed: set[int] = field(default_factory=set)            # client sides that named the seed in join
    left: set[int] = field(default_factory=set)              # client sides that closed the game
    touched: float = 0.0                                      # the clock when a request last named it
    news: list[dict[int, dict[str, Any]]] = field(default_factory=list)  # per decision: {client side: its account}
    news_base: int = 0                                        # the number of the first decision in ``news``
    read: dict[int, int] = field(default_factory=dict)       # client side -> decisions it has been told of

    def waiting_for(self) -> list[int]:
        joined = set(self.tokens.values())
        return [p for p in self.client_sides if p not in joined]

    def unread(self, player: int) -> list[dict[str, Any]]:
        """The accounts of the decisions taken since ``player`` was last told (its own among them),
        marked read; the accounts every client side has read are let go."""
        start = self.read.get(player, self.news_base)
        out = [entry[player] for entry in self.news[start - self.news_base:]]
        self.read[player] = self.news_base + len(self.news)
        done = min(self.read.get(p, self.news_base) for p in self.client_sides) - self.news_base
        if done > 0:
            del self.news[:done]
            self.news_base += done
        return out


class BotServer:
    """Answers bot-protocol requests for one game definition (ruleset, scenario, decisions) with
    the agent ``agent_spec`` (a ``make_agent`` spec) playing ``side``, or every side when None.

    A trained policy (sb3:, onnx:) brings its settings (wargym.agents.base): ruleset, scenario,
    decisions and rule options default to its own, and it plays the side it was trained for;
    a value given that contradicts them is an error naming both.  ``trust_seeds``: the server's
    agent agrees to a seed a session's clients agree on (its own sides have no secret to keep from
    them, e.g. a research harness); by default a session in which the server plays a side is dealt
    from entropy whatever the clients say."""

    def __init__(self, ruleset: str | None, agent_spec: str, scenario: str | None = None, side: str | None = None,
                 decisions: str | None = None, seed: int = 0, limits: Limits = Limits(),
                 trust_seeds: bool = False, clock: Callable[[], float] = time.monotonic):
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
        self.limits, self.trust_seeds, self.clock = limits, trust_seeds, clock
        self.max_history = int(getattr(getattr(self.core, "tables", None), "max_decisions", 100_000))
        self.sessions: dict[str, Session] = {}
        self.swept = clock()
        self.lock = threading.Lock()   # one request at a time touches the games, agents and rules
        self.moved = threading.Condition(self.lock)  # notified when a session game moves (``wait``)
        self.tcp: socketserver.TCPServer | None = None  # set by ``listen``
        #: more of a side's view (wargym.web adds the board's scene): ``(core, state, player) -> dict``,
        #: given the real state and the viewing player; it must build from ``core.view`` alone
        self.view_extras: Callable[[Any, Any, int], dict[str, Any]] | None = None
        self.view_omit: frozenset[str] = frozenset()  # keys of a side's view not sent (``session_view``)

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
                raise RequestError(f"bad state record: {_cut(str(err), 1000)}") from None
        return self._replay(req["history"])

    def _replay(self, history: Any):
        from wargym.core import IllegalActionError

        if not isinstance(history, dict) or not isinstance(history.get("actions", []), list):
            raise RequestError("'history' must be {\"seed\": int, \"actions\": [int, ...]}")
        seed, actions = history.get("seed", 0), history.get("actions", [])
        if not _is_int(seed) or seed < 0:
            raise RequestError(f"history seed must be a non-negative integer, got {_show(seed)}")
        if len(actions) > self.max_history:
            raise RequestError(f"a history of {len(actions)} actions: a game of this server ends after "
                               f"{self.max_history} decisions")
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

    def _actions(self, req: dict[str, Any]) -> tuple[list[int], bool]:
        """The action or list of actions of ``describe`` (at most one per action id), and whether
        a list was sent."""
        actions = req["action"]
        many = isinstance(actions, list)
        if many and len(actions) > self.core.num_actions:
            raise RequestError(f"'action' lists {len(actions)} actions: at most {self.core.num_actions} "
                               f"(one per action id) in one request")
        checked = [self._checked_action(a, f"'action'[{i}]" if many else "'action'")
                   for i, a in enumerate(actions if many else [actions])]
        return checked, many

    def _checked_action(self, a: Any, what: str) -> int:
        """``a`` as an action id; RequestError naming ``what`` unless an integer in 0..A-1."""
        last = self.core.num_actions - 1
        if not _is_int(a):
            raise RequestError(f"{what} must be an integer in 0..{last}, got {_show(a)}")
        if not 0 <= a <= last:
            raise RequestError(f"{what} {a} is out of range: actions are 0..{last}")
        return int(a)

    # -- the stateless commands --------------------------------------------------------------------
    def ping(self, req: dict[str, Any]) -> dict[str, Any]:
        from wargym import __version__

        lim = self.limits
        return {"pong": True, "protocol": PROTOCOL_VERSION, "wargym": __version__, "ruleset": self.ruleset,
                "scenario": self.scenario, "decisions": self.decisions, "players": list(self.core.players),
                "side": self.side, "plays": [self.core.players[p] for p in sorted(self.agents)],
                "agent": str(self.agent_spec), "num_actions": int(self.core.num_actions),
                "map": hex_map(self.core),
                "limits": {"line_bytes": lim.line_bytes, "depth": lim.depth, "digits": lim.digits,
                           "games": lim.games, "games_per_client": lim.games_per_client,
                           "idle_seconds": lim.idle_seconds, "wait_seconds": lim.wait_seconds,
                           "history": self.max_history},
                "trust_seeds": self.trust_seeds}

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
        out["actions"] = described(core, state, legal)
        return out

    def describe(self, req: dict[str, Any]) -> dict[str, Any]:
        """Descriptions of ``action`` (an int or a list) in the context of the game if one is sent
        (a record or history; in a session, ``game`` and ``token``: as that side may read them);
        with no action: the game (whose decision, summary, text board), or with no game the game
        definition (players, action layout, observation shapes)."""
        core = self.core
        viewer = None
        if "game" in req:
            session, viewer = self._joined(req, started=True)
            state = session.state
        else:
            state = self._state(req) if ("state" in req or "history" in req) else None
        if "action" in req:
            actions, many = self._actions(req)
            told = described(core, state, actions, viewer)
            return {"actions": told} if many else told[0]
        if state is not None:
            out = self._result(state)
            out["turn"] = int(state.turn[0])
            out["summary"] = core.summary(state, 0, viewer=viewer)
            out["board"] = core.render(state, 0, "ansi", viewer=viewer)
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
    def new(self, req: dict[str, Any], client: int = 0) -> dict[str, Any]:
        """A new game held by the server: ``server_plays`` lists the sides the server's agent
        plays, the others are joined by clients; ``seed`` proposes a seed to deal it from, used
        only if every side agrees (``join``).  The game is dealt once every client side has joined."""
        core, lim = self.core, self.limits
        if len(self.sessions) >= lim.games:
            raise RequestError(f"this server holds {lim.games} games, the most it holds: close one, or wait for "
                               f"idle games to expire ({lim.idle_seconds:g} s without a request)")
        mine = sum(1 for s in self.sessions.values() if s.creator == client)
        if mine >= lim.games_per_client:
            raise RequestError(f"this client created {mine} games that are still held, the most one client may: "
                               f"close one, or wait for idle games to expire ({lim.idle_seconds:g} s)")
        seed = req.get("seed")
        if seed is not None and (not _is_int(seed) or seed < 0):
            raise RequestError(f"seed must be a non-negative integer, got {_show(seed)}")
        plays = req.get("server_plays", [])
        if not isinstance(plays, list) or any(not isinstance(p, str) or p not in core.players for p in plays):
            raise RequestError(f"server_plays must be a list of players of {core.name}: {list(core.players)}, "
                               f"got {_show(plays)}")
        players = tuple(sorted({core.players.index(p) for p in plays}))
        cannot = [core.players[p] for p in players if p not in self.agents]
        if cannot:
            raise RequestError(f"the server's agent does not play {cannot}; it plays "
                               f"{[core.players[p] for p in sorted(self.agents)]}")
        clients = tuple(p for p in range(len(core.players)) if p not in players)
        if not clients:
            raise RequestError("a session needs a side for a client to join: server_plays names every player")
        game = secrets.token_hex(8)
        self.sessions[game] = Session(players, clients, client, None if seed is None else int(seed),
                                      touched=self.clock())
        return {"game": game, "players": list(core.players), "server_plays": [core.players[p] for p in players],
                "seed": seed, "started": False}

    def join(self, req: dict[str, Any], client: int = 0) -> dict[str, Any]:
        """The token of a side of a held game: each side once, never one the server plays.
        ``seed``: this side agrees to the seed the game's creator proposed (it must be that seed).
        The last side to join deals the game."""
        session = self._session(req)
        core = self.core
        side = req.get("side")
        if not isinstance(side, str) or side not in core.players:
            raise RequestError(f"side must be one of {list(core.players)}, got {_show(side)}")
        player = core.players.index(side)
        if player in session.server_plays:
            raise RequestError(f"the server plays {side} in this game")
        if player in session.tokens.values() or player in session.left:
            raise RequestError(f"{side} has been joined already")
        if "seed" in req:
            if session.seed is None:
                raise RequestError("no seed was proposed for this game: it is dealt from the operating system's entropy")
            if not _is_int(req["seed"]) or req["seed"] != session.seed:
                raise RequestError(f"this game's proposed seed is {session.seed}, not {_show(req['seed'])}: "
                                   f"to agree, name it; to refuse it, join without 'seed'")
            session.agreed.add(player)
        token = secrets.token_hex(16)
        session.tokens[token] = player
        if not session.waiting_for():
            self._deal(session)
            self.moved.notify_all()  # a side waiting for the game to start (``wait``) is told at once
        return {"game": req["game"], "side": side, "token": token, **self._seeding(session)}

    def _deal(self, session: Session) -> None:
        """Deal the game: from its proposed seed if every side agreed (the server's own sides only
        with ``trust_seeds``), else from 128 bits of the operating system's entropy."""
        from wargym.rng import entropy_keys, game_keys

        agreed = (session.seed is not None and session.agreed == set(session.client_sides)
                  and (self.trust_seeds or not session.server_plays))
        session.seeded = agreed
        keys = game_keys(session.seed, 1) if agreed else entropy_keys(1)
        session.state = self._server_moves(session, self.core.init_from_keys(keys))

    def _seeding(self, session: Session) -> dict[str, Any]:
        """How a game is (or will be) dealt, as every side is told: the proposed seed, who agreed,
        whether the game started, and from what it was dealt."""
        out: dict[str, Any] = {"seed": session.seed, "agreed": [self.core.players[p] for p in sorted(session.agreed)],
                               "started": session.state is not None,
                               "waiting_for": [self.core.players[p] for p in session.waiting_for()]}
        if session.state is not None:
            out["dealt_from"] = "seed" if session.seeded else "entropy"
        return out

    def view(self, req: dict[str, Any], client: int = 0) -> dict[str, Any]:
        session, player = self._joined(req)
        return self._side_view(req["game"], session, player)

    def _side_view(self, game: str, session: Session, player: int) -> dict[str, Any]:
        """What ``view`` and ``play`` answer: how the game was dealt, who left, and the side's view
        (``session_view``) once the game is dealt."""
        out = {"game": game, **self._seeding(session), "left": [self.core.players[p] for p in sorted(session.left)]}
        if session.state is None:
            return {**out, "side": self.core.players[player]}
        extras = self.view_extras(self.core, session.state, player) if self.view_extras else {}
        return {**out, **session_view(self.core, session.state, player, self.view_omit), **extras,
                "since": session.unread(player)}

    def observe(self, req: dict[str, Any], client: int = 0) -> dict[str, Any]:
        session, player = self._joined(req, started=True)
        return {"game": req["game"], **session_observation(self.core, session.state, player)}

    def play(self, req: dict[str, Any], client: int = 0) -> dict[str, Any]:
        """The joined side's action; then the server's agent plays its sides until a client must
        decide or the game ends.  Returns the side's view."""
        core = self.core
        session, player = self._joined(req, started=True)
        action = self._action(req)
        refusal = session_refusals(core, session.state, player, [action])[0]
        if refusal is not None:
            raise RequestError(refusal)
        state = self._logged_step(session, session.state, player, action)
        session.state = self._server_moves(session, state)
        self.moved.notify_all()
        return self._side_view(req["game"], session, player)

    def wait(self, req: dict[str, Any], client: int = 0) -> dict[str, Any]:
        """Block until it is the joined side's decision, the game is over, or ``timeout`` seconds
        (default 30, at most ``limits.wait_seconds``) have passed; then the side's view (with
        ``waited``: the seconds waited, ``timed_out``).  Other clients' requests run meanwhile."""
        session, player = self._joined(req)
        timeout = req.get("timeout", 30)
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 <= timeout <= self.limits.wait_seconds:
            raise RequestError(f"'timeout' {_show(timeout)}: seconds to wait, 0..{self.limits.wait_seconds:g}")
        game, began = req["game"], time.monotonic()

        def gone() -> bool:  # dropped (expired, closed) or left by this side meanwhile
            return self.sessions.get(game) is not session or player in session.left

        def ready() -> bool:
            state = session.state
            return gone() or (state is not None and (self._over(state) or int(self.core.current_player(state)[0]) == player))

        done = self.moved.wait_for(ready, timeout=timeout)
        if gone():
            raise RequestError(f"game {_show(game)} was dropped or left while waiting")
        session.touched = self.clock()
        return {**self._side_view(game, session, player), "waited": round(time.monotonic() - began, 3),
                "timed_out": not done}

    def close(self, req: dict[str, Any], client: int = 0) -> dict[str, Any]:
        """The side leaves the game (its token no longer works); the game is dropped when no
        joined side is left in it."""
        session, player = self._joined(req)
        del session.tokens[req["token"]]
        session.left.add(player)
        dropped = not session.tokens
        if dropped:
            del self.sessions[req["game"]]
        return {"game": req["game"], "closed": True, "left": self.core.players[player], "dropped": dropped}

    def _server_moves(self, session: Session, state):
        """The server's agent plays its sides of ``session`` from ``state`` until a client side
        decides or the game ends."""
        core = self.core
        while not self._over(state):
            player = int(core.current_player(state)[0])
            if player not in session.server_plays:
                break
            action = int(np.asarray(self.agents[player].act(core, state, player)).reshape(-1)[0])
            state = self._logged_step(session, state, player, action)
        return state

    def _logged_step(self, session: Session, state, player: int, action: int):
        """``player``'s ``action`` in ``state``, and its account for each client side (``since`` in
        ``view``, ``play``, ``wait``): who decided, the action and the events the rules produced
        (wargym.events), each written from that side's view (the contract's leak test covers the
        texts and the event log)."""
        core = self.core
        after, log = core.step_logged(state, np.array([action], dtype=np.int64))
        session.news.append({side: {"by": core.players[player], "action": action,
                                    "description": core.describe_actions([action], state, 0, side)[0],
                                    "events": [e["text"] for e in core.events_for(log[0], after, 0, viewer=side)]}
                             for side in session.client_sides})
        return after

    def _session(self, req: dict[str, Any]) -> Session:
        game = req.get("game")
        if not isinstance(game, str) or game not in self.sessions:
            raise RequestError(f"no game {_show(game)} is held here ('new' starts one; a game "
                               f"nobody asked about for {self.limits.idle_seconds:g} s is dropped)")
        session = self.sessions[game]
        session.touched = self.clock()
        return session

    def _joined(self, req: dict[str, Any], started: bool = False) -> tuple[Session, int]:
        session = self._session(req)
        token = req.get("token")
        if not isinstance(token, str) or token not in session.tokens:
            raise RequestError("a joined side's 'token' is needed ('join' gives it)")
        if started and session.state is None:
            waiting = ", ".join(self.core.players[p] for p in session.waiting_for())
            raise RequestError(f"the game starts when every side has joined: waiting for {waiting}")
        return session, session.tokens[token]

    def expire(self) -> list[str]:
        """Drop the games nobody asked about for ``limits.idle_seconds``; returns their ids."""
        now = self.clock()
        old = [g for g, s in self.sessions.items() if now - s.touched > self.limits.idle_seconds]
        for g in old:
            del self.sessions[g]
        self.swept = now
        return old

    def quit(self, req: dict[str, Any]) -> dict[str, Any]:
        """The end of this client's input (stdin: the server stops; TCP: the connection closes)."""
        return {"bye": True}

    # -- one line ----------------------------------------------------------------------------------
    def handle(self, line: str | bytes, client: int = 0) -> dict[str, Any]:
        """The response object to one request line from ``client`` (a connection; never raises)."""
        try:
            req = parse_request(line, self.limits)
        except RequestError as err:
            return {"ok": False, "error": str(err), **getattr(err, "echo", {})}
        echo = {"id": req["id"]} if "id" in req else {}
        cmd = req.get("cmd")
        if not isinstance(cmd, str) or cmd not in COMMANDS:
            return {"ok": False, "error": f"unknown cmd {_show(cmd)}; commands: {', '.join(COMMANDS)}", **echo}
        try:
            for key in ("ruleset", "scenario"):
                want = getattr(self, key)
                if key in req and req[key] != want:
                    raise RequestError(f"this server plays {key} {want!r}, the request is for {_show(req[key])}")
            if cmd == "ping":  # reads only what never changes: it never waits for another client
                body = self.ping(req)
            else:
                with self.lock:
                    if self.clock() - self.swept >= 1.0:
                        self.expire()
                    method = getattr(self, cmd)
                    body = method(req, client) if cmd in SESSION_COMMANDS else method(req)
        except RequestError as err:
            return {"ok": False, "error": str(err), **echo}
        except Exception as err:  # an agent or the rules failed on this request: report, keep serving
            return {"ok": False, "error": f"{cmd} failed: {type(err).__name__}: {_cut(str(err), 1000)}", **echo}
        return {"ok": True, **body, **echo}


SESSION_COMMANDS = ("new", "join", "view", "play", "wait", "observe", "close")


def _is_int(x: Any) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


# ------------------------------------------------------------------------------------------ framing
class _Refused:
    """A value the parser met that the protocol refuses (NaN, an infinite or overlong number),
    kept in place so that the request's ``id`` can still be echoed with the error."""

    def __init__(self, why: str):
        self.why = why


def parse_request(line: str | bytes, limits: Limits = Limits()) -> dict[str, Any]:
    """One request line as a JSON object, or RequestError saying why not: not JSON, not an object,
    nested deeper than ``limits.depth``, an integer of more than ``limits.digits`` digits, NaN or
    an infinite number (not JSON, and no answer could echo them).  The error's ``echo`` holds the
    request's id when one could be read."""
    if isinstance(line, bytes):
        line = line.decode("utf-8", errors="replace")

    def integer(text: str) -> int | _Refused:
        digits = len(text.lstrip("-"))
        if digits > limits.digits:
            return _Refused(f"a number of {digits} digits: integers have at most {limits.digits}")
        return int(text)

    def number(text: str) -> float | _Refused:
        value = float(text)
        return value if math.isfinite(value) else _Refused(f"the number {_cut(text, 40)} is too large")

    def constant(text: str) -> _Refused:
        return _Refused(f"{text} is not a JSON value")

    too_deep = f"the request nests arrays and objects deeper than {limits.depth} levels"
    try:
        req = json.loads(line, parse_int=integer, parse_float=number, parse_constant=constant)
    except json.JSONDecodeError as err:
        raise RequestError(f"not JSON: {err.msg} at column {err.colno}") from None
    except RecursionError:  # the parser's own guard (Python's recursion limit), far past ours
        raise RequestError(too_deep) from None
    if not isinstance(req, dict):
        raise RequestError(f"a request is a JSON object, got {type(req).__name__}")
    depth, refused = _walk(req)
    problem = too_deep if depth > limits.depth else refused.why if refused else None
    if problem:
        err = RequestError(problem)
        if "id" in req and _walk(req["id"])[1] is None:
            err.echo = {"id": req["id"]}
        raise err
    return req


def _walk(value: Any) -> tuple[int, _Refused | None]:
    """How deep lists and dicts nest in a parsed value, and the first refused value in it (a walk
    with a stack, no recursion)."""
    deepest, refused, stack = 0, None, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, depth)
            stack.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict) else item))
        elif isinstance(item, _Refused) and refused is None:
            refused = item
    return deepest, refused


class LineTooLong(str):
    """Stands for a request line longer than the limit (its length in characters or bytes): the
    line itself is read and dropped, never held."""


def request_lines(readline: Callable[[int], str | bytes], limit: int) -> Iterator[str | bytes]:
    """The lines of a stream (``readline(size)`` of a text or binary file), each at most ``limit``
    long without its newline; a longer one is skipped to its end in pieces and stands as a
    ``LineTooLong``.  A last line without a newline counts too."""
    while True:
        chunk = readline(limit + 1)
        if not chunk:
            return
        newline = b"\n" if isinstance(chunk, bytes) else "\n"
        if len(chunk) > limit and not chunk.endswith(newline):
            skipped = len(chunk)
            while True:
                more = readline(1 << 16)
                skipped += len(more)
                if not more or more.endswith(newline):
                    break
            yield LineTooLong(skipped)
            continue
        yield chunk


def answer(server: BotServer, line: str | bytes, client: int = 0) -> tuple[str | None, bool]:
    """(the response line without its newline, None for a blank line; whether the client said
    ``quit``): always one line of valid JSON whatever the request line was."""
    if isinstance(line, LineTooLong):
        response: dict[str, Any] = {"ok": False, "error": f"the request line is longer than {server.limits.line_bytes} "
                                                          f"bytes (the limit; ping shows it): not read"}
    else:
        if not line.strip():
            return None, False
        response = server.handle(line, client)
    try:
        text = json.dumps(response, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as err:  # a value JSON cannot carry: say so rather than send it
        echo = {"id": response["id"]} if "id" in response else {}
        text = json.dumps({"ok": False, "error": f"the answer could not be written as JSON: {err}", **echo},
                          separators=(",", ":"))
    return text, bool(response.get("bye"))


def serve(server: BotServer, inp: TextIO, out: TextIO) -> int:
    """Answer the request lines of ``inp`` on ``out`` until ``quit`` or the end of the input.
    While it runs, anything else printed goes to stderr, never into the protocol."""
    with contextlib.redirect_stdout(sys.stderr):
        for line in request_lines(getattr(inp, "buffer", inp).readline, server.limits.line_bytes):
            response, bye = answer(server, line)
            if response is None:
                continue  # blank lines are not requests
            out.write(response + "\n")
            out.flush()
            if bye:
                break
    return 0


# ------------------------------------------------------------------------------------------ CLI
def add_serve_arguments(p: argparse.ArgumentParser) -> None:
    from wargym.agents.base import Default
    from wargym.agents.ladder import RUNGS
    from wargym.cli_types import non_negative_int, positive_float, positive_int
    from wargym.registry import RULESETS

    p.add_argument("--agent", default=Default("rule"), metavar="SPEC",
                   help="the agent that answers 'act': random, rule, rule:<name>, plan[:k=v,...], onnx:<path>, "
                        "sb3:<path>, py:<module>:<Name> (default rule); a policy brings its ruleset, scenario, "
                        "decisions and side")
    p.add_argument("--strength", default=None, choices=list(RUNGS),
                   help="the agent by its rung on the strength ladder, weakest first (wargym.agents.ladder; "
                        "instead of --agent)")
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
    p.add_argument("--trust-seeds", action="store_true",
                   help="sessions: the server's agent agrees to a seed its game's clients all agree to (by "
                        "default a session in which the server plays a side is dealt from the operating "
                        "system's entropy, whatever seed is proposed)")
    p.add_argument("--idle-minutes", type=positive_float, default=Limits.idle_seconds / 60,
                   help=f"sessions: a game nobody asked about for this long is dropped "
                        f"(default {Limits.idle_seconds / 60:g})")
    p.add_argument("--games-per-client", type=positive_int, default=Limits.games_per_client,
                   help=f"sessions: games one client (a connection) may have created and still held "
                        f"(default {Limits.games_per_client})")


def listen(server: BotServer, host: str, port: int, ready: threading.Event | None = None) -> int:
    """Serve the protocol to TCP clients on ``host:port``, one JSON line per request, each
    connection answered in order and a client of its own (``Limits.games_per_client``); the
    clients share the server's sessions (two programs can play each other through them).  ``quit``
    ends a connection; the server runs until interrupted or ``server.tcp.shutdown()`` (tests).  A
    connection that breaks off ends quietly; any other failure of one is one line on stderr."""
    clients = itertools.count(1)

    class Handler(socketserver.StreamRequestHandler):
        def handle(self) -> None:
            client = next(clients)
            try:
                for line in request_lines(self.rfile.readline, server.limits.line_bytes):
                    response, bye = answer(server, line, client)
                    if response is None:
                        continue
                    self.wfile.write((response + "\n").encode())
                    self.wfile.flush()
                    if bye:
                        return
            except (ConnectionError, TimeoutError):
                return  # the client went away mid-request: nothing to answer

    class Server(socketserver.ThreadingTCPServer):
        allow_reuse_address = True
        daemon_threads = True
        request_queue_size = 256  # the listen backlog: socketserver's 5 reset most of 200 clients connecting at once

        def handle_error(self, request, client_address) -> None:
            err = sys.exc_info()[1]
            print(f"wargym serve: the connection from {client_address[0]}:{client_address[1]} failed: "
                  f"{type(err).__name__}: {err}", file=sys.stderr, flush=True)

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
    from wargym.agents.ladder import with_strength
    from wargym.cli_types import check_agent_spec

    args.agent = with_strength(args.agent, getattr(args, "strength", None), "--agent", args.ruleset)
    check_agent_spec(args.agent, "--agent")
    real_stdout = out or sys.stdout
    address = parse_listen(args.listen) if getattr(args, "listen", None) else None
    with contextlib.redirect_stdout(sys.stderr):  # nothing but responses on stdout
        limits = Limits(idle_seconds=60 * args.idle_minutes, games_per_client=args.games_per_client)
        server = BotServer(args.ruleset, args.agent, scenario=args.scenario, side=args.side,
                           decisions=args.decisions, seed=args.seed, limits=limits,
                           trust_seeds=args.trust_seeds)
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
