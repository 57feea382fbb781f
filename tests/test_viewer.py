"""The HTML replay viewer (wargym.viewer) and the words beside each action in replay.json.

The unit tests read the page's embedded data and rebuild its boards in Python from the keyframes
and tile patches, so what the page would draw is checked against ``core.render`` without a
browser.  The browser test opens the page in a real headless Chromium (the system's, driven by
Playwright; no browser is downloaded): it loads without console errors or requests, the arrow key
and the slider step the board, and a screenshot of a mid-game step shows the counter of a unit
that moved there.  It is skipped only where no Chromium is installed and the CI variable is unset:
under CI a missing browser fails it (.ci/run installs one).
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import io
import json
import re
import time
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from wargym.agents import sample_legal
from wargym.cli import main
from wargym.replay import GameRecord, ReplayError, load_replay, make_core_for, play_game, save_replay
from wargym.viewer import DEFAULT_WIDTH, kept_steps, scale_frame, step_facts, write_html

IW_DECISIONS = 14
ATTU_DECISIONS = 10
MID = 8


def _cut_game(ruleset: str, scenario: str, decisions: int, seed: int, folder: Path):
    """A replay of the first ``decisions`` random decisions of a game (a short game that still
    moves counters), written with save_replay and read back with load_replay."""
    core = make_core_for(ruleset, scenario, "major")
    rng = np.random.default_rng(seed)
    state = initial = core.init(1, seed)
    actions, players = [], []
    for _ in range(decisions):
        players.append(int(core.current_player(state)[0]))
        actions.append(int(sample_legal(rng, state.legal_action_mask)[0]))
        state = core.step(state, np.array(actions[-1:], dtype=np.int64))
    meta = {"ruleset": ruleset, "scenario": scenario, "seed": seed, "decisions": "major",
            "agents": {p: "random" for p in core.players}}
    record = GameRecord(core, initial, actions, state, meta=meta, players=players)
    return record, load_replay(save_replay(record, folder / "replay.json"))


@pytest.fixture(scope="module")
def island_war(tmp_path_factory):
    """(record, replay, page path) of 14 random Island War decisions, the page with defaults."""
    folder = tmp_path_factory.mktemp("iw")
    record, replay = _cut_game("island_war", "bloody_ridge", IW_DECISIONS, 5, folder)
    page = write_html(replay, folder / "game.html", jobs=1)
    return record, replay, page.path


@pytest.fixture(scope="module")
def attu(tmp_path_factory):
    """(record, replay, page path) of 10 random Attu decisions, the page with the full board and
    the U.S. view (the Japanese set-up is hidden from the U.S.: 2.5)."""
    folder = tmp_path_factory.mktemp("attu")
    record, replay = _cut_game("attu", "hogs_back", ATTU_DECISIONS, 2, folder)
    page = write_html(replay, folder / "game.html", views="full,us", jobs=1)
    return record, replay, page.path


def page_data(path: Path) -> dict:
    match = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', path.read_text(), re.S)
    assert match, "the page holds no replay data"
    return json.loads(match.group(1))


def decode(uri: str) -> np.ndarray:
    head, _, body = uri.partition(",")
    assert head == "data:image/jpeg;base64"
    return np.asarray(Image.open(io.BytesIO(base64.b64decode(body))).convert("RGB"), dtype=np.int16)


def boards(data: dict, view: int) -> list[np.ndarray]:
    """Every step's board of a view as the page's script draws it: the keyframe, then for each
    patch after it the runs of blocks copied from the board before, then the new tiles (the same
    arithmetic as ``draw`` in the page, a copy clipped to the board as a canvas clips it)."""
    out, canvas, tile = [], None, data["tile"]
    for frame in data["views"][view]["frames"]:
        if "key" in frame:
            canvas = decode(data["images"][frame["key"]]).copy()
            assert canvas.shape[:2] == (frame["h"], frame["w"])
            out.append(canvas.copy())
            continue
        before, (height, width) = canvas.copy(), canvas.shape[:2]
        for x, y, count, sy in frame["runs"]:
            assert 0 <= sy and sy + count * tile <= height
            part = before[sy:sy + count * tile, x * tile:(x + 1) * tile]
            canvas[y * tile:(y + count) * tile, x * tile:(x + 1) * tile] = part[:height - y * tile]
        if frame["img"] is not None:
            atlas, across = decode(data["images"][frame["img"]]), -(-width // tile)
            for i, t in enumerate(frame["tiles"]):
                sy, sx = divmod(i, frame["per_row"])
                dy, dx = divmod(t, across)
                part = atlas[sy * tile:(sy + 1) * tile, sx * tile:(sx + 1) * tile]
                canvas[dy * tile:(dy + 1) * tile, dx * tile:(dx + 1) * tile] = \
                    part[:height - dy * tile, :width - dx * tile]
        out.append(canvas.copy())
    return out


def expected(core, state, viewer=None, width=DEFAULT_WIDTH) -> np.ndarray:
    """The board the core draws, as the page holds it (at the page's width)."""
    return scale_frame(core.render(state, 0, "rgb_array", viewer=viewer), width).astype(np.int16)


def differ(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a.astype(np.int16) - b.astype(np.int16)).mean())


def shows(shown: np.ndarray, want: np.ndarray, other: np.ndarray) -> None:
    """``shown`` is the board ``want`` and not ``other``: close to it overall (JPEG's error on a
    busy map is ~3 levels), and where the two boards differ (counters moved, status lines), close
    to ``want`` and far from ``other``; the mean alone could not tell two steps apart."""
    assert shown.shape == want.shape
    assert differ(shown, want) < 5.0
    region = np.abs(want - other).sum(axis=2) > 60
    assert region.sum() > 100, "the two boards hardly differ: nothing to tell them apart by"
    near, far = float(np.abs(shown - want)[region].mean()), float(np.abs(shown - other)[region].mean())
    assert near < 12.0 and far > 3 * near, (near, far)


# --------------------------------------------------------------------------- the words in replays
def test_a_played_game_records_each_action_in_words_beside_its_number(tmp_path):
    core = make_core_for("island_war", "bloody_ridge", "major")
    from wargym.agents import make_agent

    agents = [make_agent("random", "island_war", p, seed=i) for i, p in enumerate(core.players)]
    record = play_game(core, agents, seed=3, meta={"ruleset": "island_war", "scenario": "bloody_ridge",
                                                   "decisions": "major"})
    data = json.loads(save_replay(record, tmp_path / "replay.json").read_text())
    assert len(data["action_text"]) == len(data["actions"]) == len(record.actions) > 50
    replay = load_replay(tmp_path / "replay.json")
    states = list(replay.states())
    assert data["action_text"] == [core.describe_action(a, s, 0) for a, s in zip(replay.actions, states)]
    assert replay.action_text == data["action_text"]
    assert any(t.startswith("select ") for t in data["action_text"]) and any(
        t.startswith("move to ") for t in data["action_text"])

    mine = json.loads(save_replay(record, tmp_path / "replay_japan.json", viewer="japan").read_text())
    assert [t for t, p in zip(mine["action_text"], record.players) if p == 0] == [None] * record.players.count(0)
    assert [t for t, p in zip(mine["action_text"], record.players) if p == 1] == \
        [t for t, p in zip(data["action_text"], record.players) if p == 1]


def test_a_replay_stores_the_event_log_of_every_decision_and_the_page_shows_it(tmp_path):
    """replay.json holds, beside each action, what the rules did after it (core.step_logged), in
    words with its rule; a replay saved for a side holds the events as that side reads them; the
    HTML page lists them under each action."""
    core = make_core_for("island_war", "bloody_ridge", "major")
    from wargym.agents import make_agent

    agents = [make_agent("rule", "island_war", p, seed=i) for i, p in enumerate(core.players)]
    record = play_game(core, agents, seed=7, meta={"ruleset": "island_war", "scenario": "bloody_ridge",
                                                   "decisions": "major"})
    data = json.loads(save_replay(record, tmp_path / "replay.json").read_text())
    assert len(data["events"]) == len(data["actions"])
    combats = [e for step in data["events"] for e in step if e["kind"] == "combat"]
    assert combats and all(e["rule"] == "7.6" and e["text"].startswith("combat at ") for e in combats)
    state = core.init(1, 7)
    for a, told in zip(record.actions, data["events"]):       # the recorded log is the game's own
        state, log = core.step_logged(state, np.array([a]))
        assert told == core.events_for(log[0], state)
    mine = json.loads(save_replay(record, tmp_path / "replay_us.json", viewer="us").read_text())
    assert mine["events"] == data["events"]                   # Island War hides nothing but the dice (2.3)
    page = page_data(write_html(load_replay(tmp_path / "replay.json"), tmp_path / "game.html", every=50).path)
    assert page["views"][0]["events"] == [[e["text"] for e in step] for step in data["events"]]


def test_a_record_without_words_gets_them_from_its_actions(island_war):
    """wargym eval builds its records from arrays, without words: save_replay works them out."""
    record, replay, _ = island_war
    bare = GameRecord(record.core, record.initial, record.actions, record.final, meta=record.meta)
    assert bare.to_json()["action_text"] == replay.action_text
    assert len(replay.action_text) == IW_DECISIONS


@pytest.mark.parametrize("ruleset,scenario", [("island_war", "bloody_ridge"), ("attu", "hogs_back")])
def test_the_words_are_those_of_the_deciders_view(ruleset, scenario):
    """The words are read from the whole game for speed (wargym.replay.describe_as_decider): they
    must be the same on the decider's own view, or they could tell the decider what is hidden."""
    core = make_core_for(ruleset, scenario, "major")
    rng = np.random.default_rng(11)
    state = core.init(1, 11)
    for _ in range(150):
        if core.terminated(state)[0] or core.truncated(state)[0]:
            break
        action = int(sample_legal(rng, state.legal_action_mask)[0])
        decider = int(core.current_player(state)[0])
        assert core.describe_action(action, state, 0) == \
            core.describe_action(action, core.view(state, decider), 0)
        state = core.step(state, np.array([action], dtype=np.int64))


def test_an_old_replay_without_words_still_loads_and_is_shown(island_war, tmp_path):
    record, replay, page = island_war
    old = json.loads((page.parent / "replay.json").read_text())
    del old["action_text"]
    (tmp_path / "old.json").write_text(json.dumps(old))
    loaded = load_replay(tmp_path / "old.json")
    assert loaded.actions == replay.actions and loaded.action_text is None
    shown = write_html(loaded, tmp_path / "old.html", every=7, jobs=1)
    assert page_data(shown.path)["views"][0]["texts"] == replay.action_text  # worked out by the viewer

    for bad in (["move"], [1] * IW_DECISIONS, "select"):
        (tmp_path / "bad.json").write_text(json.dumps({**old, "action_text": bad}))
        with pytest.raises(ReplayError, match="'action_text' must be a list of strings, one per action"):
            load_replay(tmp_path / "bad.json")


# ------------------------------------------------------------------------------------------ page
def test_the_page_is_self_contained(island_war):
    text = island_war[2].read_text()
    assert "http://" not in text and "https://" not in text
    assert not re.search(r"""(?:src|href)\s*=\s*["'](?!data:)""", text), "the page refers to another file"
    assert "default-src 'none'" in text  # the browser is told to fetch nothing at all
    assert "@import" not in text and "url(" not in text


def test_the_page_holds_every_step_its_facts_and_the_boards_the_core_draws(island_war):
    record, replay, page = island_war
    data = page_data(page)
    core = replay.core
    states = list(replay.states())
    assert [s["k"] for s in data["steps"]] == list(range(IW_DECISIONS + 1)) and data["decisions"] == IW_DECISIONS
    assert [s["acts"] for s in data["steps"]] == [[k] for k in range(IW_DECISIONS)] + [[]]
    view = data["views"][0]
    assert view["name"] == "full board" and view["texts"] == replay.action_text
    assert data["deciders"] == [core.players[p] for p in record.players]
    assert view["facts"] == [step_facts(core, s, None) for s in states]
    labels = [label for label, _ in view["facts"][MID]]
    assert labels[:5] == ["Turn", "Phase", "To decide", "Last roll", "Score"]
    shown = boards(data, 0)
    assert len(shown) == IW_DECISIONS + 1
    assert sum("key" in f for f in view["frames"]) == 1  # one keyframe, patches after it
    assert any(f.get("runs") for f in view["frames"]), "no patch copied a block that moved: that path is untested"
    start, mid, end = (expected(core, states[k]) for k in (0, MID, IW_DECISIONS))
    shows(shown[0], start, mid)
    shows(shown[MID], mid, start)
    shows(shown[IW_DECISIONS], end, mid)


def test_every_nth_step_keeps_all_the_words(island_war, tmp_path):
    _, replay, _ = island_war
    assert kept_steps(14, 5) == [0, 5, 10, 14] and kept_steps(14, 1) == list(range(15))
    data = page_data(write_html(replay, tmp_path / "every.html", every=5, jobs=1).path)
    assert [s["k"] for s in data["steps"]] == [0, 5, 10, 14]
    assert [k for s in data["steps"] for k in s["acts"]] == list(range(IW_DECISIONS))
    shows(boards(data, 0)[2], expected(replay.core, replay.state_at(10)), expected(replay.core, replay.state_at(5)))


def test_runs_of_steps_drawn_in_several_processes_make_the_same_page(island_war, tmp_path):
    """Each run of steps (a keyframe and its patches) is drawn on its own: in worker processes
    (the command line's default) the page is the same as drawn here, and shows the same boards."""
    _, replay, _ = island_war
    here = page_data(write_html(replay, tmp_path / "one.html", jobs=1, keyframe_every=6).path)
    there = page_data(write_html(replay, tmp_path / "two.html", jobs=2, keyframe_every=6).path)
    assert here == there
    assert ["key" in f for f in here["views"][0]["frames"]] == [k % 6 == 0 for k in range(IW_DECISIONS + 1)]
    shows(boards(here, 0)[MID], expected(replay.core, replay.state_at(MID)), expected(replay.core, replay.state_at(0)))


def test_a_page_for_one_side_holds_only_what_that_side_may_know(attu, tmp_path):
    """Fog of war (Attu 2.5): the U.S. view is drawn for the U.S., its facts come from the U.S.
    view, and the Japanese decisions are not put in words; a page for the U.S. alone holds no
    Japanese decision in words at all."""
    record, replay, page = attu
    core = replay.core
    data = page_data(page)
    states = list(replay.states())
    full, us = data["views"]
    assert (full["name"], us["name"]) == ("full board", "us")
    assert full["texts"] == replay.action_text
    assert [t is None for t in us["texts"]] == [p == 1 for p in record.players]
    assert 1 in record.players and 0 in record.players
    assert us["facts"] == [step_facts(core, s, 0) for s in states]
    fogged, whole = boards(data, 1), boards(data, 0)
    # the U.S. sees the Japanese set-up as hidden counters: its board is not the full board
    end_us, end_full = expected(core, states[-1], viewer=0), expected(core, states[-1])
    shows(fogged[-1], end_us, end_full)
    shows(whole[-1], end_full, end_us)
    shows(fogged[0], expected(core, states[0], viewer=0), end_us)

    alone = write_html(replay, tmp_path / "us.html", viewer="us", every=5, jobs=1).path.read_text()
    japanese = {t for t, p in zip(replay.action_text, record.players) if p == 1}
    assert japanese and not any(t in alone for t in japanese)
    assert '"full board"' not in alone


def test_render_html_on_the_command_line(island_war, tmp_path, monkeypatch):
    _, replay, page = island_war
    monkeypatch.chdir(tmp_path)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["render", str(page.parent / "replay.json"), "--html", "g.html", "--every", "7",
                     "--views", "all", "--jobs", "1", "--width", "600", "--step", "7"])
    assert code == 0, err.getvalue()
    assert "wrote g.html" in out.getvalue() and "3 steps of 14 decisions" in out.getvalue()
    assert not (tmp_path / "board.png").exists()  # --html alone writes no PNG
    data = page_data(tmp_path / "g.html")
    assert [v["name"] for v in data["views"]] == ["full board", "us", "japan"]
    assert data["start"] == 1 and data["views"][0]["frames"][0]["w"] == 600
    shows(boards(data, 2)[1], expected(replay.core, replay.state_at(7), 1, width=600),
          expected(replay.core, replay.state_at(7), None, width=600))
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(["render", str(page.parent / "replay.json"), "--html", "h.html", "--views", "nobody"])
    assert code == 1 and "view 'nobody'" in err.getvalue()


# --------------------------------------------------------------------------------------- browser
def open_page(browser, path: Path):
    page = browser.new_page(viewport={"width": 2000, "height": 1700}, device_scale_factor=1)
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("request", lambda r: None if r.url.startswith(("file:", "data:")) else problems.append(f"request {r.url}"))
    page.goto(path.as_uri())
    page.wait_for_selector("body[data-step='0']")
    return page, problems


def screenshot(page) -> np.ndarray:
    """The canvas as the screen shows it: a screenshot of the element (border included, its
    position may be fractional), cut where its inside lines up best with the canvas's own pixels."""
    shot = np.asarray(Image.open(io.BytesIO(page.locator("#board").screenshot())).convert("RGB"), dtype=np.int16)
    own = np.asarray(Image.open(io.BytesIO(base64.b64decode(
        page.locator("#board").evaluate("c => c.toDataURL('image/png')").partition(",")[2]))).convert("RGB"),
        dtype=np.int16)
    h, w = own.shape[:2]
    band = slice(h // 2, h // 2 + 16)  # a band across the map and the panel: detail in both directions
    best = min(((dy, dx) for dy in range(shot.shape[0] - h + 1) for dx in range(shot.shape[1] - w + 1)),
               key=lambda d: differ(shot[d[0] + h // 2:d[0] + h // 2 + 16, d[1]:d[1] + w], own[band]))
    return shot[best[0]:best[0] + h, best[1]:best[1] + w]


def test_the_page_in_a_real_browser_steps_through_the_game(browser, island_war):
    started = time.perf_counter()
    record, replay, path = island_war
    core = replay.core
    page, problems = open_page(browser, path)
    page.uncheck("#fit")  # the board at its own size: one screen pixel per board pixel
    first, where = page.locator("#board").evaluate("c => c.toDataURL()"), page.inner_text("#where")
    assert where == f"decision 0 of {IW_DECISIONS}"

    page.keyboard.press("ArrowRight")
    page.wait_for_selector("body[data-step='1']")
    assert page.inner_text("#where") == f"decision 1 of {IW_DECISIONS}"
    assert page.locator("#board").evaluate("c => c.toDataURL()") != first
    assert replay.action_text[1] in page.inner_text("#acts")

    page.locator("#slider").fill(str(MID))
    page.wait_for_selector(f"body[data-step='{MID}']")
    assert page.inner_text("#where") == f"decision {MID} of {IW_DECISIONS}"
    shot = screenshot(page)
    state, start = replay.state_at(MID), replay.state_at(0)
    want = expected(core, state)
    shows(shot, want, expected(core, start))

    # a unit on the map at this step that stood elsewhere (or off the map) at the start: the
    # pixels its counter covers are those of this step's board, not of the start's
    moved = [u for u in range(len(state.unit_status[0])) if state.unit_status[0, u] == 1
             and (start.unit_status[0, u] != 1 or start.unit_hex[0, u] != state.unit_hex[0, u])]
    assert moved, "the game moved no unit in its first decisions"
    u = moved[0]
    status = state.unit_status.copy()
    status[0, u] = 0
    without = expected(core, dataclasses.replace(state, unit_status=status))
    counter = np.abs(want - without).sum(axis=2) > 60
    assert counter.sum() > 150, "the unit's counter covers too few pixels to check"
    assert float(np.abs(shot - want)[counter].mean()) < 12.0
    assert float(np.abs(shot - expected(core, start))[counter].mean()) > 40.0

    page.keyboard.press("End")
    page.wait_for_selector(f"body[data-step='{IW_DECISIONS}']")
    assert page.inner_text("#where") == f"end: {IW_DECISIONS} decisions"
    page.keyboard.press("Home")
    page.wait_for_selector("body[data-step='0']")
    assert page.locator("#board").evaluate("c => c.toDataURL()") == first
    assert problems == []
    page.close()
    assert time.perf_counter() - started < 60


def test_the_side_selector_shows_the_fog_of_war_in_the_browser(browser, attu):
    record, replay, path = attu
    page, problems = open_page(browser, path)
    page.uncheck("#fit")
    page.keyboard.press("End")
    page.wait_for_selector(f"body[data-step='{ATTU_DECISIONS}'][data-view='full board']")
    whole = screenshot(page)
    page.select_option("#view", label="us")
    page.wait_for_selector(f"body[data-step='{ATTU_DECISIONS}'][data-view='us']")
    fogged = screenshot(page)
    state = replay.state_at(ATTU_DECISIONS)
    shows(fogged, expected(replay.core, state, viewer=0), expected(replay.core, state))
    shows(whole, expected(replay.core, state), expected(replay.core, state, viewer=0))
    japanese = record.players.index(1)  # a Japanese decision: not put in words for the U.S.
    page.locator("#slider").fill(str(japanese))
    page.wait_for_selector(f"body[data-step='{japanese}'][data-view='us']")
    assert page.inner_text("#acts") == f"{japanese}: Japan decides (not shown in this view)"
    page.select_option("#view", label="full board")
    page.wait_for_selector(f"body[data-step='{japanese}'][data-view='full board']")
    assert page.inner_text("#acts") == f"{japanese}: Japan: {replay.action_text[japanese]}"
    assert problems == []
    page.close()
