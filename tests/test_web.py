"""``wargym web``: the page's server (aiohttp, WebSocket sessions) and the page in a real browser.

The server runs in a thread of the test process, so the tests can compare what the browser shows
and receives with the game the server holds (``WebGames.games``)."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time

import aiohttp  # the test extra: a missing one fails, never skips
import numpy as np
import pytest

from wargym.island_war.state import ON_MAP
from wargym.web.server import CSP, WebGames, make_app, serve_app


@pytest.fixture(scope="module")
def server():
    """(url, games): a page server on a free port of 127.0.0.1."""
    games = WebGames()
    urls: list[str] = []
    threading.Thread(target=serve_app, args=(make_app(games), "127.0.0.1", 0, urls.append), daemon=True).start()
    deadline = time.monotonic() + 60
    while not urls and time.monotonic() < deadline:
        time.sleep(0.02)
    assert urls, "the page server did not start"
    return urls[0], games


def session(games: WebGames, game: str):
    server = games.games[game]
    return server.core, server.sessions[game]


async def _talk(url: str, requests: list[dict]) -> list[dict]:
    async with aiohttp.ClientSession() as http, http.ws_connect(url + "ws") as ws:
        out = []
        for req in requests:
            await ws.send_str(json.dumps(req))
            out.append(json.loads((await ws.receive()).data))
        return out


def talk(url: str, *requests: dict) -> list[dict]:
    return asyncio.run(_talk(url, list(requests)))


# ------------------------------------------------------------------------------------ the server
def test_web_server_speaks_the_session_protocol_over_a_websocket(server):
    url, games = server
    new, = talk(url, {"cmd": "new", "ruleset": "island_war", "opponent": "rule", "sides": ["japan"], "id": 1})
    assert new["ok"] and new["server_plays"] == ["us"] and new["id"] == 1
    joined, view = talk(url, {"cmd": "join", "game": new["game"], "side": "japan"},
                        {"cmd": "view", "game": new["game"], "token": "not a token"})
    assert joined["ok"] and joined["dealt_from"] == "entropy"
    assert not view["ok"] and "token" in view["error"]
    view, = talk(url, {"cmd": "view", "game": new["game"], "token": joined["token"]})
    # the U.S. moves first (Saipan): the rule played its whole first Player-Turn before Japan's view
    assert view["your_turn"] and view["side"] == "japan" and view["since"] and view["since"][0]["by"] == "us"
    core, held = session(games, new["game"])
    scene = view["scene"]
    on_map = np.flatnonzero(held.state.unit_status[0] == ON_MAP)
    assert sorted(p["id"] for p in scene["pieces"]) == sorted(on_map.tolist())
    assert all(p["hex"] == int(held.state.unit_hex[0, p["id"]]) for p in scene["pieces"])
    legal = np.flatnonzero(core.legal_mask(held.state)[0]).tolist()
    assert [a["action"] for a in view["legal"]] == legal


def test_web_server_refuses_bad_requests_and_keeps_serving(server):
    url, _ = server
    answers = talk(url, {"cmd": "new", "ruleset": "chess"}, {"cmd": "new", "opponent": "sb3:/etc/passwd"},
                   {"cmd": "new", "sides": ["nobody"]}, {"cmd": "play", "game": "nope", "token": "x", "action": 1},
                   {"cmd": "view"}, {"cmd": "ping", "game": 5})
    assert [a["ok"] for a in answers] == [False] * 6
    assert "ruleset 'chess'" in answers[0]["error"] and "opponent" in answers[1]["error"]
    assert "sides" in answers[2]["error"] and "no game 'nope'" in answers[3]["error"]

    async def garbage():
        async with aiohttp.ClientSession() as http, http.ws_connect(url + "ws") as ws:
            await ws.send_str("{not json")
            first = json.loads((await ws.receive()).data)
            await ws.send_bytes(b"\x00\x01")
            second = json.loads((await ws.receive()).data)
            await ws.send_str(json.dumps({"cmd": "new", "id": "after"}))
            third = json.loads((await ws.receive()).data)
            return first, second, third

    first, second, third = asyncio.run(garbage())
    assert not first["ok"] and not second["ok"] and "text frames" in second["error"]
    assert third["ok"] and third["id"] == "after"


def test_web_server_pages_carry_a_csp_and_refuse_other_sites_websockets(server):
    url, _ = server

    async def fetch():
        async with aiohttp.ClientSession() as http:
            page = await http.get(url)
            module = await http.get(url + "static/app.js")
            missing = await http.get(url + "static/..%2Fserver.py")
            board = await http.get(url + "api/board?ruleset=chess")
            try:
                await http.ws_connect(url + "ws", headers={"Origin": "http://evil.example"})
                foreign = "connected"
            except aiohttp.WSServerHandshakeError as err:
                foreign = err.status
            return (page.status, page.headers.get("Content-Security-Policy"), module.status,
                    module.headers["Content-Type"], missing.status, board.status, foreign)

    status, csp, module, kind, missing, board, foreign = asyncio.run(fetch())
    assert status == 200 and csp == CSP and module == 200 and kind.startswith("text/javascript")
    assert missing == 404 and board == 400 and foreign == 403


# ----------------------------------------------------------------------------------- the browser
def open_page(browser, url: str):
    """A page of its own browser context (its own localStorage: another person's browser)."""
    page = browser.new_context(viewport={"width": 1800, "height": 1300}).new_page()
    problems: list[str] = []
    frames: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("request", lambda r: None if r.url.startswith(url) else problems.append(f"request {r.url}"))
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(f if isinstance(f, str) else f.decode())))
    page.goto(url + "?pace=0&auto=0")
    page.wait_for_selector("body[data-status='idle'], body[data-status='your-turn'], body[data-status='over']")
    return page, problems, frames


def click_any(page, rng: random.Random) -> None:
    """One legal action, clicked as a person would: an outlined hex, or a button of the panel
    (ending a phase sometimes, confirmed when the page asks)."""
    hexes = page.locator("#targets .hex-legal")
    buttons = page.locator("#specials button")
    n_hex, n_button = hexes.count(), buttons.count()
    assert n_hex + n_button > 0, "the page asks for a decision and offers nothing to click"
    if n_button and (not n_hex or rng.random() < 0.3):
        buttons.nth(rng.randrange(n_button)).click()
        if page.locator("#confirm").is_visible():
            page.click("#confirm-yes")
    else:
        hexes.nth(rng.randrange(n_hex)).click()


def wait_turn(page) -> str:
    page.wait_for_selector("body[data-status='your-turn'], body[data-status='over']", timeout=120_000)
    return page.evaluate("document.body.dataset.status")


def game_id(page) -> str:
    return page.evaluate("JSON.parse(localStorage.getItem('wargym-game')).game")


def drawable() -> list[str]:
    from wargym.registry import shipped
    from wargym.web import web_module

    return [name for name in shipped() if web_module(name) is not None]


@pytest.mark.parametrize("ruleset", drawable())
def test_web_page_plays_a_whole_game_by_clicking_against_the_rule(browser, server, ruleset):
    """Every drawable ruleset, its default scenario, the first player against the rule: clicked
    to the end; mid-game the counters stand where the core's state says (the scene of the side's
    view, tests/<ruleset>/ check the scene against the state by hand), and a reload resumes."""
    url, games = server
    page, problems, frames = open_page(browser, url)
    page.select_option("#ruleset", ruleset)
    side = page.locator("#side option").first.get_attribute("value")
    page.select_option("#side", side)
    page.click("#start")
    rng, clicks, checked = random.Random(7), 0, False
    while wait_turn(page) == "your-turn":
        if clicks == 40 and not checked:
            core, held = session(games, game_id(page))
            player = core.players.index(side)
            want = WebGames._scene(core, held.state, player)["scene"]["pieces"]
            shown = sorted((int(g.get_attribute("data-unit")), int(g.get_attribute("data-hex")))
                           for g in page.locator("#pieces .piece").all())
            assert shown == sorted((p["id"], p["hex"]) for p in want if p["hex"] >= 0)
            assert shown, "no counter on the map at decision 40"
            u, h = shown[0]
            box = page.locator(f"#pieces .piece[data-unit='{u}']").first.bounding_box()
            cell = page.locator(f"#terrain g[data-hex='{h}']").bounding_box()
            centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            assert cell["x"] < centre[0] < cell["x"] + cell["width"] and cell["y"] < centre[1] < cell["y"] + cell["height"]
            assert len(page.screenshot()) > 10_000
            page.reload()  # the game is kept on the server: a reload resumes it
            assert wait_turn(page) == "your-turn" and game_id(page) == held_id(games, held)
            checked = True
        click_any(page, rng)
        clicks += 1
        assert clicks < 5000, "the game did not end"
    core, held = session(games, game_id(page))
    assert core.terminated(held.state)[0] or core.truncated(held.state)[0]
    assert "Game over" in page.inner_text("#result") and checked
    # the frames never carried the game's dice key
    key = [str(int(w)) for w in held.state.rng_key[0]]
    assert not any(k in f for f in frames for k in key if len(k) > 6)
    assert problems == []
    page.context.close()


@pytest.mark.parametrize("ruleset", drawable())
def test_web_scene_holds_nothing_the_side_may_not_see(ruleset):
    """The leak test's perturbations (wargym.hidden.perturb: every fact a side may not see
    redrawn) leave the scene a side is sent unchanged, at 40 positions of random play."""
    from wargym import make_core
    from wargym.agents import sample_legal
    from wargym.hidden import perturb

    core = make_core(ruleset)
    state, rng = core.init(8, 11), np.random.default_rng(5)
    for step in range(5):
        for _ in range(60):
            live = ~(core.terminated(state) | core.truncated(state))
            state = core.step(state, sample_legal(rng, core.legal_mask(state)), active=live)
        for viewer in range(len(core.players)):
            for g in range(state.batch_size):
                one = state.take([g])
                other = perturb(core, one, viewer, rng)
                assert WebGames._scene(core, one, viewer) == WebGames._scene(core, other, viewer), (step, viewer, g)


def held_id(games: WebGames, held) -> str:
    return next(g for g, server in games.games.items() if server.sessions.get(g) is held)


def test_web_two_browsers_play_each_other_through_one_server(browser, server):
    url, games = server
    a, problems_a, _ = open_page(browser, url)
    b, problems_b, _ = open_page(browser, url)
    a.select_option("#opponent", "people")
    a.select_option("#side", "us")
    a.click("#start")
    a.wait_for_selector("body[data-status='waiting-for-players']")
    game = game_id(a)
    b.select_option("#ruleset", "world_at_war")  # the form's ruleset is not the game's: the game's board is drawn
    b.select_option("#side", "japan")
    b.fill("#join-id", game)
    b.click("#join")
    rng, sides = random.Random(3), []
    deadline = time.monotonic() + 240
    while sides.count("japan") < 5 and time.monotonic() < deadline:  # the U.S. moves first, Japan after
        for page, side in ((a, "us"), (b, "japan")):
            if page.evaluate("document.body.dataset.status") == "your-turn":
                click_any(page, rng)
                sides.append(side)
        time.sleep(0.05)
    core, held = session(games, game)
    assert sides.count("japan") >= 5 and sides[0] == "us"
    assert b.locator("#terrain g").count() == a.locator("#terrain g").count() == len(core.grid.center)
    assert len(held.tokens) == 2 and not held.server_plays
    assert problems_a == [] and problems_b == []
    a.context.close()
    b.context.close()


# ------------------------------------------------------------------------------------------- watch
@pytest.fixture(scope="module")
def demo_replay(tmp_path_factory):
    """The README's demo game: Island War's default scenario, the rule against the rule, seed 0."""
    from wargym.agents.base import make_agent
    from wargym.replay import load_replay, make_core_for, play_game, save_replay

    core = make_core_for("island_war", None, "major")
    agents = [make_agent("rule", "island_war", p) for p in core.players]
    record = play_game(core, agents, seed=0, meta={"ruleset": "island_war", "scenario": core.scenario.name,
                                                   "decisions": "major", "seed": 0})
    path = save_replay(record, tmp_path_factory.mktemp("demo") / "replay.json")
    return load_replay(path), path


def test_web_film_rebuilds_every_step_and_hides_the_other_sides_choices(demo_replay):
    from wargym.web.film import film, undelta

    replay, _ = demo_replay
    core = replay.core
    full, japan = film(replay), film(replay, viewer="japan")
    assert full["steps"] == len(replay.actions) == len(full["acts"]) == len(full["scenes"]) - 1
    scene = full["scenes"][0]
    for k, state in enumerate(replay.states()):
        if k:
            scene = undelta(scene, full["scenes"][k])
        if k % 97 == 0 or k == full["steps"]:  # every step is rebuilt; some are compared in full
            assert _by_id(scene) == _by_id(_scene(core, state)), k
    us_acts = [i for i, a in enumerate(full["acts"]) if a["by"] == "us"]
    assert us_acts and all(japan["acts"][i]["text"] == "us decides" for i in us_acts)
    assert all(japan["acts"][i]["text"] == full["acts"][i]["text"] for i in range(full["steps"]) if i not in us_acts)


def _by_id(scene):
    return {**scene, "pieces": sorted(scene["pieces"], key=lambda p: p["id"])}


def _scene(core, state):
    """Island War's scene of the real state, for no side (a film with no viewer)."""
    from wargym.island_war import web as iw_web

    return iw_web.scene(core, state, 0, viewer=None)


def test_web_film_names_its_viewer_to_the_scene_attus_face_down_counters_blank_to_the_us():
    """``film`` tells the ruleset's scene whose it is: an Attu film for the U.S. ends on the U.S.
    scene of its view (Japan's face-down counters blank, 2.5), a film for no viewer on the scene
    of the real state, every counter known (after 30 random decisions from the start, where
    Japan's set-up lies on the map, 12.3)."""
    from wargym import make_core
    from wargym.agents import sample_legal
    from wargym.attu import web as attu_web
    from wargym.replay import Replay
    from wargym.web.film import film, undelta

    core = make_core("attu")
    state, rng, actions = core.init(1, 0), np.random.default_rng(3), []
    initial = state
    for _ in range(30):
        action = sample_legal(rng, core.legal_mask(state))
        actions.append(int(action[0]))
        state = core.step(state, action)
    replay = Replay(core, initial, actions, state, {})
    us = attu_web.scene(core, core.view(state, 0), 0, viewer=0)
    everyone = attu_web.scene(core, state, 0, viewer=None)
    assert any(not p["face_up"] for p in us["pieces"]) and all(p["face_up"] for p in everyone["pieces"])
    for viewer, want in (("us", us), (None, everyone)):
        scenes = film(replay, viewer)["scenes"]
        last = scenes[0]
        for change in scenes[1:]:
            last = undelta(last, change)
        assert _by_id(last) == _by_id(want), viewer


def test_web_render_html_writes_one_drawn_page_of_the_demo_game_under_3_mb(browser, demo_replay, tmp_path):
    from wargym.cli import main

    replay, path = demo_replay
    out = tmp_path / "game.html"
    assert main(["render", str(path), "--html", str(out)]) == 0
    assert out.stat().st_size < 3_000_000
    page = browser.new_context(viewport={"width": 1500, "height": 1000}).new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("request", lambda r: None if r.url.startswith(("file:", "data:")) else problems.append(r.url))
    page.goto(out.as_uri())
    page.wait_for_selector("body[data-step='0']")
    n = len(replay.actions)
    page.keyboard.press("End")
    page.wait_for_selector(f"body[data-step='{n}']")
    final = _scene(replay.core, replay.final)
    shown = sorted((int(g.get_attribute("data-unit")), int(g.get_attribute("data-hex")))
                   for g in page.locator("#pieces .piece").all())
    assert shown == sorted((p["id"], p["hex"]) for p in final["pieces"])
    page.locator("#slider").fill("800")
    page.wait_for_selector("body[data-step='800']")
    assert page.inner_text("#where") == f"decision 800 of {n}"
    assert problems == []
    page.context.close()


def test_web_watch_page_opens_a_replay_file_through_the_server(browser, server, demo_replay):
    url, _ = server
    replay, path = demo_replay
    page = browser.new_context(viewport={"width": 1500, "height": 1000}).new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("request", lambda r: None if r.url.startswith(url) else problems.append(r.url))
    page.goto(url + "watch")
    page.wait_for_selector("body[data-status='idle']")
    page.select_option("#watch-viewer", "japan")
    page.set_input_files("#watch-file", str(path))
    page.wait_for_selector("body[data-step='0']")
    page.keyboard.press("End")
    page.wait_for_selector(f"body[data-step='{len(replay.actions)}']")
    assert "us decides" in page.inner_text("#acts") or "japan:" in page.inner_text("#acts")
    assert problems == []
    page.context.close()


def test_web_watch_page_lists_a_tournaments_replays_folder(browser, server, demo_replay, tmp_path):
    """A tournament's replays folder (OUT/replays/<a>_vs_<b>/game_NNNNN.json): every game listed,
    the first opened, another picked from the list."""
    import shutil

    url, _ = server
    replay, path = demo_replay
    for pair, game in (("rule_vs_rule", 0), ("rule_vs_rule", 1), ("random_vs_rule", 0)):
        (tmp_path / "replays" / pair).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, tmp_path / "replays" / pair / f"game_{game:05d}.json")
    page = browser.new_context(viewport={"width": 1500, "height": 1000}).new_page()
    page.goto(url + "watch")
    page.wait_for_selector("body[data-status='idle']")
    page.set_input_files("#watch-folder", str(tmp_path / "replays"))
    page.wait_for_selector("body[data-step='0']")
    names = page.locator("#watch-list option").all_inner_texts()
    assert len(names) == 3 and all(n.endswith(".json") for n in names)
    page.select_option("#watch-list", "2")
    page.keyboard.press("End")
    page.wait_for_selector(f"body[data-step='{len(replay.actions)}']")
    page.context.close()


@pytest.mark.parametrize("ruleset", drawable())
def test_web_frames_a_side_receives_hold_nothing_it_may_not_see(ruleset):
    """The leak test's perturbations applied to what the page receives: two games held by the
    server that differ only in what a side may not see (wargym.hidden.perturb, dice to come
    included) send that side the same view frame, at 20 positions of random play."""
    from wargym.agents import sample_legal
    from wargym.hidden import perturb

    games = WebGames()
    made = json.loads(games.handle(json.dumps({"cmd": "new", "ruleset": ruleset, "opponent": "people",
                                               "sides": ["us"]}), 1))
    server = games.games[made["game"]]
    core = server.core
    tokens = {p: json.loads(games.handle(json.dumps({"cmd": "join", "game": made["game"], "side": p}), 1))["token"]
              for p in core.players}
    held = server.sessions[made["game"]]
    state, rng = core.init(4, 23), np.random.default_rng(9)
    for step in range(5):
        for _ in range(50):
            live = ~(core.terminated(state) | core.truncated(state))
            state = core.step(state, sample_legal(rng, core.legal_mask(state)), active=live)
        for g in range(state.batch_size):
            for viewer, side in enumerate(core.players):
                frames = []
                for position in (state.take([g]), perturb(core, state.take([g]), viewer, rng)):
                    held.state = position
                    frames.append(games.handle(json.dumps({"cmd": "view", "game": made["game"],
                                                           "token": tokens[side]}), 1))
                assert frames[0] == frames[1], (ruleset, step, g, side)


def test_web_command_refuses_a_port_out_of_range(capsys):
    from wargym.cli import main

    assert main(["web", "--port", "70000"]) == 1
    assert "--port 70000: 0..65535" in capsys.readouterr().err


def test_web_games_let_go_of_the_ids_of_games_closed():
    games = WebGames()
    made = json.loads(games.handle(json.dumps({"cmd": "new", "opponent": "rule", "sides": ["us"]}), 1))
    token = json.loads(games.handle(json.dumps({"cmd": "join", "game": made["game"], "side": "us"}), 1))["token"]
    closed = json.loads(games.handle(json.dumps({"cmd": "close", "game": made["game"], "token": token}), 1))
    assert closed["dropped"] and made["game"] in games.games
    again = json.loads(games.handle(json.dumps({"cmd": "new", "opponent": "rule", "sides": ["us"]}), 1))
    assert made["game"] not in games.games and again["game"] in games.games


def test_web_hot_seat_one_page_plays_both_sides(browser, server):
    url, games = server
    page, problems, _ = open_page(browser, url)
    page.select_option("#opponent", "people")
    page.check("#hotseat")
    page.click("#start")
    rng, acted = random.Random(5), set()
    for _ in range(400):
        if wait_turn(page) != "your-turn" or len(acted) == 2:
            break
        acted.add(page.inner_text("#prompt").split(":", 1)[0])
        click_any(page, rng)
    core, held = session(games, game_id(page))
    assert acted == {"us", "japan"} and len(held.tokens) == 2 and not held.server_plays
    assert problems == []
    page.context.close()
