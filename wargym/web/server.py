"""``wargym web``: play in the browser.  A local aiohttp server serves one page (wargym/web/static)
and speaks the bot protocol's sessions (docs/bot-protocol.md) over a WebSocket.

    wargym web                                   http://127.0.0.1:8765/, Island War against the rule
    wargym web --port 0 --policy japan.onnx      any free port; an exported policy as an opponent

Routes:

    GET /                  the page (index.html); every response carries a Content-Security-Policy
                           that allows this server only: no outside script, style, image or request
    GET /static/NAME       the page's plain JavaScript modules and style sheet (shipped in the wheel)
    GET /api/catalog       the rulesets the page can draw, their scenarios and sides, the opponents
    GET /api/board?ruleset=R&scenario=S
                           the printed map of a scenario (public: nothing of a game in it)
    GET /ws                the WebSocket: one session request per text frame, one answer per frame
    GET /watch             Watch: open a replay.json or a tournament's replays folder, play it back
    POST /api/film?viewer=SIDE
                           a replay file's text -> its film (wargym.web.film), the page plays it

The WebSocket speaks the session commands (``new``, ``join``, ``view``, ``play``, ``wait``,
``close``) of a ``BotServer`` (wargym.agents.serve), one server per game definition (ruleset,
scenario, decisions, opponent), made when a page first asks for it.  ``new`` names the game's
definition and ``opponent``: an agent spec or a strength rung (the server plays the sides the page
does not join), or ``people`` (every side is joined by a page: hot-seat, or another browser that
joins with the game's id).  A view carries ``scene``: the board as the side may see it (the
ruleset's ``web.scene`` of ``core.view`` for that side, never of the real state), in place of the
text board and the state record of the bot protocol's views.  Each request runs in a worker thread,
so an agent thinking, or a client waiting, never holds up another client's answer; a
connection has one request in flight at a time, and frames past ``Limits.line_bytes`` are refused.

A ruleset is drawable when its package has a ``web`` module (``board(core)``, ``scene(core,
view, game, viewer)``); the catalog lists the others as not drawable yet.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from importlib.resources import files
from typing import Any

from aiohttp import WSMsgType, web

from wargym.agents.serve import BotServer, Limits, RequestError, _show, answer, parse_request
from wargym.web import web_module

#: every response's Content-Security-Policy: this server only, nothing from outside
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
#: the largest replay file /api/film reads (a 1,640-decision Island War game is about 3 MB)
FILM_BYTES = 64 << 20
#: opponents that are not agents: every side is a person's page
PEOPLE = "people"
STATIC = files("wargym.web") / "static"


@dataclass
class WebGames:
    """The page's games: a ``BotServer`` per game definition, and which server holds each game."""

    policies: dict[str, str] = field(default_factory=dict)   # label -> agent spec (``--policy``)
    limits: Limits = field(default_factory=Limits)
    servers: dict[tuple, BotServer] = field(default_factory=dict)
    games: dict[str, BotServer] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    boards: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    _catalog: dict[str, Any] | None = None
    building: dict[tuple, threading.Lock] = field(default_factory=dict)  # definition -> held while its server is made

    # -- what the page may choose -------------------------------------------------------------------
    def catalog(self) -> dict[str, Any]:
        """The rulesets, scenarios, sides and opponents the page offers (worked out once)."""
        if self._catalog is None:
            self._catalog = self._make_catalog()
        return self._catalog

    def _make_catalog(self) -> dict[str, Any]:
        from wargym import make_core
        from wargym.agents.ladder import RUNGS
        from wargym.registry import RULESETS

        rulesets = []
        for name, rs in sorted(RULESETS.items()):
            if name.startswith("_"):
                continue
            core = make_core(name)
            rulesets.append({"name": name, "title": rs.title, "default_scenario": rs.default_scenario,
                             "scenarios": list(core.scenario_names()), "players": list(core.players),
                             "drawable": web_module(name) is not None})
        opponents = [{"spec": name, "title": f"{name} ({spec})" if spec != name else name} for name, spec in RUNGS.items()]
        opponents += [{"spec": spec, "title": label} for label, spec in self.policies.items()]
        opponents.append({"spec": PEOPLE, "title": "people: hot-seat, or another browser joining"})
        return {"rulesets": rulesets, "default": {"ruleset": "island_war", "opponent": "rule"},
                "decisions": ["major", "full"], "opponents": opponents}

    def film(self, text: str, viewer: str | None) -> dict[str, Any]:
        """The film (wargym.web.film) of a replay file's text; ReplayError names what is wrong."""
        import tempfile
        from pathlib import Path

        from wargym.replay import load_replay
        from wargym.web.film import film

        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "replay.json"
            path.write_text(text)
            replay = load_replay(path)
        if web_module(replay.core.name) is None:
            raise ValueError(f"the page cannot draw {replay.core.name} yet: wargym render --html --images draws it")
        return film(replay, viewer)

    def board(self, ruleset: str, scenario: str | None) -> dict[str, Any]:
        from wargym import make_core

        module = web_module(ruleset)
        if module is None:
            raise RequestError(f"the page cannot draw {_show(ruleset)} yet (no wargym.{ruleset}.web module)")
        core = make_core(ruleset, scenario=scenario or None)
        key = (ruleset, core.scenario.name)
        if key not in self.boards:
            self.boards[key] = module.board(core)
        return self.boards[key]

    # -- one request -----------------------------------------------------------------------------------
    def handle(self, line: str, client: int) -> str:
        """The answer frame (JSON text) to one request frame from ``client``."""
        try:
            req = parse_request(line, self.limits)
        except RequestError as err:
            return json.dumps({"ok": False, "error": str(err), **getattr(err, "echo", {})})
        echo = {"id": req["id"]} if "id" in req else {}
        try:
            server = self._server_for(req)
        except RequestError as err:
            return json.dumps({"ok": False, "error": str(err), **echo})
        except Exception as err:  # noqa: BLE001 - a definition the rules refuse: say so, keep serving
            return json.dumps({"ok": False, "error": f"{type(err).__name__}: {err}", **echo})
        if req.get("cmd") == "new":  # the definition chose the server; the page's sides choose the server's
            sides = req.get("sides", list(server.core.players[:1]))
            if not isinstance(sides, list) or not sides or any(s not in server.core.players for s in sides):
                return json.dumps({"ok": False, "error": f"sides {_show(sides)}: the sides this page plays, "
                                                         f"some of {list(server.core.players)}", **echo})
            req = {k: v for k, v in req.items() if k not in ("opponent", "decisions", "ruleset", "scenario", "sides")}
            req["server_plays"] = [] if server.agent_spec is None else [p for p in server.core.players if p not in sides]
        text, _ = answer(server, json.dumps(req), client)
        if req.get("cmd") == "new":
            reply = json.loads(text)
            if reply.get("ok"):
                with self.lock:
                    self.games[reply["game"]] = server
        return text

    def _server_for(self, req: dict[str, Any]) -> BotServer:
        cmd = req.get("cmd")
        if cmd != "new":
            game = req.get("game")
            with self.lock:
                server = self.games.get(game) if isinstance(game, str) else None
            if server is None:
                raise RequestError(f"no game {_show(game)} is held here ('new' starts one; a game nobody asked "
                                   f"about for {self.limits.idle_seconds:g} s is dropped)")
            return server
        ruleset, opponent = req.get("ruleset", "island_war"), req.get("opponent", "rule")
        scenario, decisions = req.get("scenario"), req.get("decisions", "major")
        if not isinstance(ruleset, str) or web_module(ruleset) is None:
            raise RequestError(f"ruleset {_show(ruleset)}: the page draws {[r['name'] for r in self.catalog()['rulesets'] if r['drawable']]}")
        if decisions not in ("major", "full"):
            raise RequestError(f"decisions {_show(decisions)}: 'major' or 'full'")
        if not isinstance(opponent, str):
            raise RequestError(f"opponent {_show(opponent)}: an agent spec, a strength or {PEOPLE!r}")
        spec = self._spec(opponent, ruleset)
        key = (ruleset, scenario, decisions, spec)
        with self.lock:
            self._forget_dropped()
            building = self.building.setdefault(key, threading.Lock())
        # one server made per definition, and outside the games' lock: warming an agent up (numba,
        # a policy file) holds up only the requests for the same definition, which wait for it
        with building:
            server = self.servers.get(key)
            if server is None:
                server = BotServer(ruleset, spec or "rule", scenario=scenario, decisions=decisions, limits=self.limits)
                if spec is not None:
                    server.warm_up()
                else:
                    server.agents = {}
                server.agent_spec = spec
                server.view_extras = self._scene
                server.view_omit = frozenset({"board", "state"})  # the page draws the scene instead
                self.servers[key] = server
        return server

    def _forget_dropped(self) -> None:
        """Let go of the ids of games their server has dropped (closed, or idle too long)."""
        for game in [g for g, server in self.games.items() if g not in server.sessions]:
            del self.games[game]

    def _spec(self, opponent: str, ruleset: str) -> str | None:
        """The agent spec the opponent names (None: people on every side)."""
        from wargym.agents.ladder import RUNGS, rung_spec

        if opponent == PEOPLE:
            return None
        if opponent in RUNGS:
            return rung_spec(opponent, ruleset)
        allowed = set(self.policies.values())
        if opponent not in allowed:
            raise RequestError(f"opponent {_show(opponent)}: one of {list(RUNGS) + sorted(allowed) + [PEOPLE]}")
        return opponent

    @staticmethod
    def _scene(core, state, player: int) -> dict[str, Any]:
        return {"scene": web_module(core.name).scene(core, core.view(state, player), 0, viewer=player),
                "ruleset": core.name, "scenario": core.scenario.name}


# ------------------------------------------------------------------------------------------- the app
@web.middleware
async def _headers(request: web.Request, handler):
    try:
        response = await handler(request)
    except web.HTTPException as exc:
        response = exc
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    if isinstance(response, web.HTTPException):
        raise response
    return response


def make_app(games: WebGames | None = None, workers: int = 64) -> web.Application:
    """The aiohttp application: the page, its modules, the catalog, the boards and the WebSocket."""
    games = games or WebGames()
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="wargym-web")
    clients = itertools.count(1)
    app = web.Application(middlewares=[_headers], client_max_size=FILM_BYTES)

    async def run(fn, *args):
        return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)

    moved: dict[str, asyncio.Event] = {}  # game -> set when a request may have moved it (wakes ``wait``)

    async def answer_frame(data: str, client: int) -> str:
        try:
            req = json.loads(data)
        except ValueError:
            req = None
        cmd = req.get("cmd") if isinstance(req, dict) else None
        game = req.get("game") if isinstance(req, dict) else None
        if cmd == "wait" and isinstance(game, str):
            return await wait(req, game, client)
        text = await run(games.handle, data, client)
        if cmd in ("play", "join", "close") and isinstance(game, str) and game in moved:
            moved.pop(game).set()
        return text

    async def wait(req: dict[str, Any], game: str, client: int) -> str:
        """``wait`` without holding a worker thread: the game is looked at (``wait`` with timeout 0)
        now and each time a request moves it, until the side decides, the game ends or ``timeout``
        passes.  So clients waiting, however many, never use up the workers others need."""
        timeout = req.get("timeout", 30)
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 <= timeout <= games.limits.wait_seconds:
            return await run(games.handle, json.dumps(req), client)  # the server's own error
        loop = asyncio.get_running_loop()
        began = loop.time()
        while True:
            event = moved.setdefault(game, asyncio.Event())  # taken before looking: no move is missed
            reply = json.loads(await run(games.handle, json.dumps({**req, "timeout": 0}), client))
            left = began + timeout - loop.time()
            if not reply.get("ok") or not reply.get("timed_out") or left <= 0:
                if reply.get("ok"):
                    reply["waited"] = round(loop.time() - began, 3)
                return json.dumps(reply, separators=(",", ":"))
            try:
                await asyncio.wait_for(event.wait(), left)
            except asyncio.TimeoutError:
                pass

    async def index(request: web.Request) -> web.Response:
        return web.Response(text=(STATIC / "index.html").read_text(), content_type="text/html")

    async def static(request: web.Request) -> web.Response:
        name = request.match_info["name"]
        kinds = {".js": "text/javascript", ".css": "text/css", ".html": "text/html"}
        kind = next((v for k, v in kinds.items() if name.endswith(k)), None)
        path = STATIC / name
        if kind is None or "/" in name or name.startswith(".") or not path.is_file():
            raise web.HTTPNotFound(text=f"no file {name!r} here")
        return web.Response(text=path.read_text(), content_type=kind)

    async def watch(request: web.Request) -> web.Response:
        from wargym.web.film import watch_html

        picker = ('<label>replay <input type="file" id="watch-file" accept=".json"></label> '
                  '<label>or a folder of replays <input type="file" id="watch-folder" webkitdirectory multiple></label> '
                  '<select id="watch-list" hidden></select> '
                  '<label>as seen by <select id="watch-viewer"><option value="">everyone (full board)</option>'
                  '<option>us</option><option>japan</option></select></label> <a href="/">play</a>')
        meta = CSP.replace("; frame-ancestors 'none'", "")  # the header carries it: a <meta> may not
        html = watch_html(meta, '<link rel="stylesheet" href="/static/style.css">',
                          '<script type="module" src="/static/watch_app.js"></script>', picker, None)
        return web.Response(text=html, content_type="text/html")

    async def film(request: web.Request) -> web.Response:
        text = await request.text()
        viewer = request.query.get("viewer") or None
        try:
            data = await run(games.film, text, viewer)
        except ValueError as err:  # ReplayError and a bad viewer: the file's problem, said plainly
            return web.json_response({"ok": False, "error": str(err)}, status=400)
        return web.json_response(data)

    async def catalog(request: web.Request) -> web.Response:
        return web.json_response(await run(games.catalog))

    async def board(request: web.Request) -> web.Response:
        try:
            data = await run(games.board, request.query.get("ruleset", "island_war"), request.query.get("scenario"))
        except (RequestError, ValueError, KeyError, FileNotFoundError) as err:
            return web.json_response({"ok": False, "error": str(err)}, status=400)
        return web.json_response(data)

    async def socket(request: web.Request) -> web.WebSocketResponse:
        origin = request.headers.get("Origin")
        if origin is not None and origin.split("://", 1)[-1] != request.host:
            raise web.HTTPForbidden(text=f"a WebSocket from another site ({origin}) is refused")
        ws = web.WebSocketResponse(max_msg_size=games.limits.line_bytes, heartbeat=30, compress=False)
        await ws.prepare(request)
        client = next(clients)
        try:
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await ws.send_str(await answer_frame(msg.data, client))
                elif msg.type == WSMsgType.BINARY:
                    await ws.send_str(json.dumps({"ok": False, "error": "send text frames: one JSON request each"}))
        except ConnectionResetError:
            pass  # the page went away (a reload, a closed tab) before its answer: nobody to tell
        return ws

    app.router.add_get("/", index)
    app.router.add_get("/static/{name}", static)
    app.router.add_get("/watch", watch)
    app.router.add_post("/api/film", film)
    app.router.add_get("/api/catalog", catalog)
    app.router.add_get("/api/board", board)
    app.router.add_get("/ws", socket)
    app.on_cleanup.append(lambda _app: asyncio.get_running_loop().run_in_executor(None, pool.shutdown))
    return app


# --------------------------------------------------------------------------------------- running
def serve_app(app: web.Application, host: str, port: int, ready=None) -> None:
    """Run ``app`` on ``host:port`` until interrupted, printing the page's URL (``ready(url)``,
    when given, is called with it once the server listens: tests)."""

    async def main() -> None:
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        await site.start()
        bound = site._server.sockets[0].getsockname()[1]
        url = f"http://{host}:{bound}/"
        print(f"wargym web: open {url} in a browser (Ctrl-C stops)", flush=True)
        if ready is not None:
            ready(url)
        try:
            await asyncio.Event().wait()
        finally:
            await runner.cleanup()

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
