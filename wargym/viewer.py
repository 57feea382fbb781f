"""The HTML replay viewer: one self-contained page that steps through a recorded game.

    wargym render replay.json --html game.html                 the full board
    wargym render replay.json --html game.html --viewer japan  Japan's fog of war
    wargym render replay.json --html game.html --views all     the full board and every side's view

``write_html(replay, path)`` draws the board (``core.render``) at every kept step of the game and
writes one HTML file that needs nothing else: no server, no network (a Content-Security-Policy
forbids every outside request), no script or font from elsewhere.  Opened in a browser it shows,
per step, the board image, the decision number, who decides and the action taken in words (the
replay's ``action_text``, wargym.replay) with what the rules did after it (the event log,
``core.events_for``: dice, results, losses, retreats, with their rules), the turn, the phase, the
last dice rolled, each side's
score (``core.score``) and the other plain facts of ``core.summary``; Left/Right arrow keys (Shift:
ten steps), PageUp/PageDown, Home/End, buttons, a slider and a play button step through it; a side
selector switches between the views the page was built with.

Fog of war: a view for a side is drawn with ``core.render(..., viewer=side)`` and its facts are
read from ``core.view`` (what that side may know), its events written for it (``events_for``);
the other side's actions are shown only as
"<side> decides", as in a replay saved for a player (wargym.replay).  A page holds only the views
asked for, so a page built for one side holds nothing hidden from it.

Size: a board image is ~100-300 KB as JPEG and a game has 1000-2000 decisions, so whole images
per step would make a page of hundreds of MB.  Consecutive boards differ in a few places (a
counter moved, the status lines), so each view is stored like a video: a whole image (a keyframe)
every ``KEYFRAME_EVERY`` steps and, for each step between, a patch: the TILE x TILE blocks that
equal a block of the board before, a whole number of rows up or down (the side panel moves by a
line when a line of it comes or goes), are copied from it, and only the blocks that are new are
stored, packed into one small JPEG.  The page rebuilds a step on a canvas from its keyframe and
the patches after it.  Copies are exact and the new blocks are cut from the true boards, so
errors never add up: every block shown is the JPEG of that block of the true board.  Boards are
kept as drawn by default (the page fits them to the window; ``width`` scales them down, which
makes the moved panel lines inexact copies and the page larger, not smaller); JPEG quality 80;
every decision (``every`` keeps every N-th step only; the actions between are still listed in
words).  Drawing the boards takes most of the time (0.3-0.6 s a board on one core), so ``jobs``
draws runs of ``KEYFRAME_EVERY`` steps in that many processes.
"""

from __future__ import annotations

import base64
import html
import io
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np

DEFAULT_WIDTH = None     # px: boards kept as drawn (the page scales them to the window); a width scales them down
DEFAULT_QUALITY = 80     # JPEG quality of the keyframes and patches
TILE = 16                # px: the patch grid (JPEG's 16 px blocks: no bleeding between tiles)
KEYFRAME_EVERY = 100     # steps per run: a keyframe, then patches; a jump redraws at most this many patches
KEYFRAME_SHARE = 0.5     # a patch drawing more than this share of the board anew is stored as a keyframe


@dataclass
class Page:
    """What ``write_html`` wrote: the file, its size, the steps and views it holds, how long it took."""

    path: Path
    bytes: int
    steps: int
    decisions: int
    views: list[str]
    seconds: float


# --------------------------------------------------------------------------------------- the views
def parse_views(spec: str | Sequence[str | None] | None, players: Sequence[str],
                viewer: str | None = None) -> list[int | None]:
    """The views a page holds, as player indices (None: the full board).  ``spec``: None (just
    ``viewer``'s view, or the full board), "all" (the full board and every side's view), or a
    comma-separated list / sequence of "full" and player names."""
    if spec is None:
        spec = [viewer or "full"]
    elif isinstance(spec, str):
        spec = ["full", *players] if spec.strip() == "all" else [s.strip() for s in spec.split(",") if s.strip()]
    out: list[int | None] = []
    for name in spec:
        if name is None or name == "full":
            index = None
        elif name in players:
            index = list(players).index(name)
        else:
            raise ValueError(f"view {name!r}: use 'full', 'all' or a player of this game: {', '.join(players)}")
        if index not in out:
            out.append(index)
    if not out:
        raise ValueError("no view to show: give 'full', 'all' or a player")
    return out


def view_name(players: Sequence[str], viewer: int | None) -> str:
    return "full board" if viewer is None else players[viewer]


def _side(name: str) -> str:
    return name.upper() if len(name) <= 3 else name.capitalize()


def dice_of(state) -> list[int] | None:
    """The dice of the last roll as a state records them (Attu ``last_dice``/``last_n``, Island War
    ``last_die``, 0 before the first roll); None for a ruleset that keeps no record of them."""
    if hasattr(state, "last_dice") and hasattr(state, "last_n"):
        return [int(d) for d in state.last_dice[0, :int(state.last_n[0])]]
    if hasattr(state, "last_die"):
        die = int(state.last_die[0])
        return [die] if die > 0 else []
    return None


#: summary entries shown in their own rows (or not at all: Island War's "margin" is its score): the
#: other scalar entries are listed as they come
_SHOWN = {"scenario", "turn", "game_turns", "date", "phase", "decisions", "terminated", "truncated", "margin"}


def step_facts(core, state, viewer: int | None) -> list[list[str]]:
    """[label, value] rows of one game (batch of 1) as ``viewer`` may know it (None: all of it):
    the turn, the phase, who decides, the last dice, each side's score and the other plain
    scalar facts of ``core.summary``."""
    from wargym.cli import result_text

    seen = state if viewer is None else core.view(state, viewer)
    facts = core.summary(seen, 0)
    turn = str(facts.get("turn", int(seen.turn[0])))
    if facts.get("game_turns"):
        turn += f" of {facts['game_turns']}"
    if facts.get("date"):
        turn += f" ({facts['date']})"
    rows = [["Turn", turn], ["Phase", str(facts.get("phase", ""))]]
    over = bool(core.terminated(state)[0] or core.truncated(state)[0])
    rows.append(["Result" if over else "To decide",
                 result_text(core, state) if over else _side(core.players[int(core.current_player(state)[0])])])
    dice = dice_of(seen)
    if dice is not None:
        rows.append(["Last roll", " ".join(str(d) for d in dice) if dice else "none"])
    score = core.score(seen)
    if score is not None:
        rows.append(["Score", ", ".join(f"{_side(p)} {float(v) + 0.0:+g}" for p, v in zip(core.players, score[0]))])
    for key, value in facts.items():
        if key not in _SHOWN and (value is None or isinstance(value, (str, int, float))) \
                and not isinstance(value, bool):
            label = key.replace("_", " ").capitalize()
            rows.append([label, "none" if value is None else _side(value) if value in core.players else str(value)])
    return rows


# ---------------------------------------------------------------------------------------- drawing
def scale_frame(image: np.ndarray, width: int | None) -> np.ndarray:
    """A board image (uint8[H, W, 3]) scaled down to ``width`` px (kept as it is when narrower, or
    for width None/0): the picture a page holds for it, before JPEG."""
    if not width or image.shape[1] <= width:
        return np.ascontiguousarray(image)
    from PIL import Image

    height = max(1, round(image.shape[0] * width / image.shape[1]))
    return np.asarray(Image.fromarray(image).resize((width, height), Image.LANCZOS), dtype=np.uint8)


# --------------------------------------------------------------------------------------- encoding
def _jpeg(pixels: np.ndarray, quality: int) -> str:
    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(pixels).save(buf, "JPEG", quality=quality, optimize=True)
    return "data:image/jpeg;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


_HASH = np.random.default_rng(20261126)
_ROW_WEIGHTS = _HASH.integers(1, 2 ** 63, size=TILE * 3, dtype=np.uint64)
_WINDOW_WEIGHTS = _HASH.integers(1, 2 ** 63, size=TILE, dtype=np.uint64)


def _window_hashes(padded: np.ndarray) -> np.ndarray:
    """uint64[H - TILE + 1, columns]: a hash of the TILE x TILE block at every row y of every tile
    column: equal blocks hash alike, so a block of the last board that a changed tile equals
    (the side panel moved down a line) is found by looking its hash up (then checked pixel by
    pixel: a hash can collide)."""
    h, w = padded.shape[:2]
    rows = padded.reshape(h, w // TILE, TILE * 3).astype(np.uint64) @ _ROW_WEIGHTS
    return (np.lib.stride_tricks.sliding_window_view(rows, TILE, axis=0) * _WINDOW_WEIGHTS).sum(axis=2)


class _Film:
    """One view's boards of a run of steps as a keyframe and patches (module docstring): each
    patch names the runs of tiles copied from the last board a whole number of rows up or down
    (``runs``: [column, first row, tiles, source y in px]), then the tiles drawn anew, packed into
    one JPEG (``img``, ``tiles``, ``per_row``)."""

    def __init__(self, quality: int):
        self.quality = quality
        self.images: list[str] = []
        self.frames: list[dict[str, Any]] = []
        self.last: np.ndarray | None = None      # the previous board, padded to whole tiles
        self.last_hashes: np.ndarray | None = None
        self.height = 0                          # its height before padding

    def _image(self, pixels: np.ndarray) -> int:
        self.images.append(_jpeg(pixels, self.quality))
        return len(self.images) - 1

    def add(self, board: np.ndarray) -> None:
        h, w = board.shape[:2]
        padded = np.pad(board, ((0, -h % TILE), (0, -w % TILE), (0, 0)), mode="edge")
        hashes = _window_hashes(padded)
        frame = None
        if self.last is not None and self.last.shape == padded.shape and self.height == h:
            frame = self._patch(padded, hashes)
        if frame is None:
            frame = {"key": self._image(board), "w": w, "h": h}
        self.frames.append(frame)
        self.last, self.last_hashes, self.height = padded, hashes, h

    def _patch(self, padded: np.ndarray, hashes: np.ndarray) -> dict[str, Any] | None:
        """The patch from the last board to ``padded``; None when it would cover more than
        KEYFRAME_SHARE of the board (a keyframe is smaller then)."""
        last, ty, tx = self.last, padded.shape[0] // TILE, padded.shape[1] // TILE
        changed = (padded != last).any(axis=2).reshape(ty, TILE, tx, TILE).any(axis=(1, 3))
        highest = self.height - TILE                 # copy only from inside the real board
        copies: dict[tuple[int, int], int] = {}      # (row, column) -> source y
        fresh: list[int] = []
        for x in range(tx):                          # column by column: runs of one shift
            shift = None
            for y in np.flatnonzero(changed[:, x]):
                y = int(y)
                block = padded[y * TILE:(y + 1) * TILE, x * TILE:(x + 1) * TILE]
                found = None
                tries = [y * TILE + shift] if shift is not None else []
                candidates = np.flatnonzero(self.last_hashes[:highest + 1, x] == hashes[y * TILE, x])
                tries += candidates[np.argsort(np.abs(candidates - y * TILE), kind="stable")][:4].tolist()
                for src in tries:
                    if 0 <= src <= highest and np.array_equal(last[src:src + TILE, x * TILE:(x + 1) * TILE], block):
                        found = int(src)
                        break
                if found is None:
                    fresh.append(y * tx + x)
                    shift = None
                else:
                    copies[(y, x)] = found
                    shift = found - y * TILE
        if len(fresh) > KEYFRAME_SHARE * ty * tx:
            return None
        runs: list[list[int]] = []
        for (y, x), src in sorted(copies.items(), key=lambda item: (item[0][1], item[0][0])):
            run = runs[-1] if runs else None
            if run and run[0] == x and run[1] + run[2] == y and run[3] + run[2] * TILE == src:
                run[2] += 1
            else:
                runs.append([x, y, 1, src])
        fresh.sort()
        patch: dict[str, Any] = {"img": None, "tiles": fresh, "per_row": 1, "runs": runs}
        if fresh:
            per_row = int(np.ceil(np.sqrt(len(fresh))))
            atlas = np.zeros((-(-len(fresh) // per_row) * TILE, per_row * TILE, 3), dtype=np.uint8)
            for i, t in enumerate(fresh):
                (y, x), (r, c) = divmod(t, tx), divmod(i, per_row)
                atlas[r * TILE:(r + 1) * TILE, c * TILE:(c + 1) * TILE] = \
                    padded[y * TILE:(y + 1) * TILE, x * TILE:(x + 1) * TILE]
            patch.update(img=self._image(atlas), per_row=per_row)
        return patch


def _film_steps(core, state, actions: Sequence[int], wanted: Sequence[int], views: Sequence[int | None],
                width: int | None, quality: int) -> list[dict[str, Any]]:
    """One run of steps (a keyframe and the patches after it) of every view: the boards of the
    steps ``wanted`` (counted from ``state``, stepping ``actions``): [{"frames", "images"}] per view."""
    films = [_Film(quality) for _ in views]
    for i in range(wanted[-1] + 1):
        if i in wanted:
            for film, v in zip(films, views):
                film.add(scale_frame(core.render(state, 0, "rgb_array", viewer=v), width))
        if i < wanted[-1]:
            state = core.step(state, np.array([actions[i]], dtype=np.int64))
    return [{"frames": f.frames, "images": f.images} for f in films]


_CORES: dict[str, Any] = {}


def _film_task(task: Mapping[str, Any]) -> list[dict[str, Any]]:
    """``_film_steps`` in a worker process: the core rebuilt from the replay's header (once per
    process), the first state from its record."""
    from wargym.replay import make_core_for

    key = json.dumps([task["ruleset"], task["scenario"], task["decisions"], task["options"]], sort_keys=True)
    core = _CORES.get(key)
    if core is None:
        core = _CORES[key] = make_core_for(task["ruleset"], task["scenario"], task["decisions"], task["options"])
    state = core.from_dict(task["state"], allow_forced=True)
    return _film_steps(core, state, task["actions"], task["wanted"], task["views"], task["width"], task["quality"])


# ------------------------------------------------------------------------------------------- page
def kept_steps(decisions: int, every: int) -> list[int]:
    """The steps a page shows: 0, every, 2*every, ... and always the end (``decisions``)."""
    if every < 1:
        raise ValueError(f"every must be >= 1, got {every}")
    steps = list(range(0, decisions + 1, every))
    if steps[-1] != decisions:
        steps.append(decisions)
    return steps


def write_html(replay, path: str | Path, viewer: str | None = None, views: str | Sequence[str] | None = None,
               every: int = 1, width: int | None = DEFAULT_WIDTH, quality: int = DEFAULT_QUALITY,
               jobs: int | None = 1, start: int | None = None, keyframe_every: int = KEYFRAME_EVERY,
               progress: Callable[[int, int], None] | None = None) -> Page:
    """Write the viewer page of ``replay`` (a wargym.replay.Replay, or a replay file's path) to
    ``path``; returns what was written (``Page``).

    ``viewer``: the side whose fog of war the page shows (default the full board); ``views``:
    "all" or several views ("full", side names) to switch between, instead; ``every``: keep every
    N-th step (and the last); ``width``: boards scaled down to at most this many pixels (None or
    0: as drawn); ``quality``: JPEG quality; ``jobs``: processes drawing the boards (None: one per
    CPU, up to 8); ``start``: the step the page opens at (default 0; negative counts from the
    end); ``keyframe_every``: steps per run (a keyframe and its patches: fewer, a larger page and
    quicker jumps); ``progress(done, total)``: called as runs of steps are drawn."""
    from wargym.replay import Replay, describe_as_decider, load_replay

    began = time.perf_counter()
    if not isinstance(replay, Replay):
        replay = load_replay(replay)
    if not 1 <= quality <= 95:
        raise ValueError(f"quality must be in 1..95, got {quality}")
    if width is not None and width < 0:
        raise ValueError(f"width must be >= 0, got {width}")
    if keyframe_every < 1:
        raise ValueError(f"keyframe_every must be >= 1, got {keyframe_every}")
    core, record, actions = replay.core, replay.record, replay.actions
    players = list(core.players)
    shown = parse_views(views, players, viewer)
    n = len(actions)
    steps = kept_steps(n, every)
    first = 0 if start is None else start + (n + 1 if start < 0 else 0)
    start_index = max([i for i, k in enumerate(steps) if k <= first] or [0])

    # one pass over the game: the facts of every kept step, the words of every action, and the
    # states the runs of steps start from (each run is drawn on its own, maybe in another process)
    recorded = replay.action_text
    texts: list[str] = []
    deciders: list[int] = []
    facts: list[list[list[list[str]]]] = [[] for _ in shown]
    told: list[list[list[str]]] = [[] for _ in shown]   # per view, the events of each action in words
    index = {k: i for i, k in enumerate(steps)}
    tasks: list[dict[str, Any]] = []
    header = {"ruleset": record["ruleset"], "scenario": record["scenario"], "decisions": record.get("decisions"),
              "options": record.get("options") or {}, "views": shown, "width": width or None, "quality": quality}
    for k, (state, logged) in enumerate(replay.logged_states()):
        if k > 0:
            for i, v in enumerate(shown):
                told[i].append([e["text"] for e in core.events_for(logged, state, 0, v)])
        if k in index:
            for i, v in enumerate(shown):
                facts[i].append(step_facts(core, state, v))
            if index[k] % keyframe_every == 0:
                run = steps[index[k]:index[k] + keyframe_every]
                tasks.append({**header, "state": core.to_dict(state, 0), "_state": state,
                              "actions": [int(a) for a in actions[k:run[-1]]], "wanted": [s - k for s in run]})
        if k < n:
            deciders.append(int(core.current_player(state)[0]))
            texts.append(recorded[k] if recorded is not None else describe_as_decider(core, state, actions[k]))

    images: list[str] = []
    frames: list[list[dict[str, Any]]] = [[] for _ in shown]

    def take(films: list[dict[str, Any]], task: Mapping[str, Any]) -> None:
        """Append one run of steps to each view, its images numbered after those before it."""
        for view_frames, film in zip(frames, films):
            base = len(images)
            images.extend(film["images"])
            for frame in film["frames"]:
                for key in ("key", "img"):
                    if frame.get(key) is not None:
                        frame[key] += base
                view_frames.append(frame)
        if progress is not None:
            progress(sum(len(t["wanted"]) for t in tasks[:tasks.index(task) + 1]), len(steps))

    if jobs is None:
        jobs = min(os.cpu_count() or 1, 8)
    if jobs > 1 and len(tasks) > 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        plain = [{key: value for key, value in t.items() if key != "_state"} for t in tasks]
        with ProcessPoolExecutor(max_workers=min(jobs, len(tasks)),
                                 mp_context=multiprocessing.get_context("spawn")) as pool:
            for task, films in zip(tasks, pool.map(_film_task, plain)):
                take(films, task)
    else:
        for task in tasks:
            take(_film_steps(core, task["_state"], task["actions"], task["wanted"], shown, width or None, quality),
                 task)

    data = {
        "title": str(getattr(core.scenario, "title", record["scenario"])),
        "meta": _meta_line(record, core, replay.final),
        "decisions": n, "tile": TILE, "start": start_index, "images": images,
        "steps": [{"k": k, "acts": list(range(k, steps[i + 1] if i + 1 < len(steps) else n))}
                  for i, k in enumerate(steps)],
        "deciders": [players[p] for p in deciders],
        "views": [{"name": view_name(players, v),
                   "texts": [t if v is None or p == v else None for t, p in zip(texts, deciders)],
                   "events": told[i], "facts": facts[i], "frames": frames[i]} for i, v in enumerate(shown)],
    }
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(_page(data), encoding="utf-8")
    return Page(path, path.stat().st_size, len(steps), n, [view_name(players, v) for v in shown],
                time.perf_counter() - began)


def _meta_line(record: Mapping[str, Any], core, final) -> str:
    from wargym.cli import result_text

    agents = record.get("agents") or {}
    who = ", ".join(f"{_side(side)}: {agent}" for side, agent in agents.items())
    parts = [f"{record['ruleset']} / {record['scenario']}", f"seed {record.get('seed', '?')}"]
    if record.get("decisions"):
        parts.append(f"decisions={record['decisions']}")
    if who:
        parts.append(who)
    parts.append(result_text(core, final))
    return "; ".join(parts)


def _script_json(data: Any) -> str:
    """JSON safe inside a <script> element: no '<', '>' or '&' can end it or open a tag."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _page(data: dict[str, Any]) -> str:
    before, after = _TEMPLATE.split("%DATA%")
    return before.replace("%TITLE%", html.escape(data["title"])) + _script_json(data) + after


_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy"
      content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>%TITLE% - wargym replay</title>
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 0; background: #f4f1e6; color: #222; }
  header { padding: 8px 14px; background: #30342a; color: #f6efd6; }
  header h1 { font-size: 18px; margin: 0; }
  header p { margin: 2px 0 0; font-size: 13px; color: #e0d8b8; }
  #controls { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; padding: 8px 14px;
              background: #e6e0cc; position: sticky; top: 0; z-index: 1; }
  #controls button { font-size: 14px; min-width: 36px; }
  #slider { flex: 1 1 300px; }
  #where { font-weight: bold; min-width: 190px; }
  main { display: flex; flex-wrap: wrap; gap: 14px; padding: 10px 14px; align-items: flex-start; }
  #board { background: #fff; border: 1px solid #999; display: block; }
  body.fit #board { max-width: calc(100vw - 420px); max-height: calc(100vh - 120px); width: auto; height: auto; }
  #side { flex: 0 0 360px; }
  #facts { border-collapse: collapse; width: 100%; margin-bottom: 10px; }
  #facts td { border-bottom: 1px solid #d4ccb4; padding: 2px 6px; vertical-align: top; }
  #facts td:first-child { color: #555; white-space: nowrap; }
  #acts { margin: 0; padding-left: 0; list-style: none; }
  #acts li { padding: 3px 6px; border-left: 4px solid #aaa; margin-bottom: 3px; background: #fffdf5; }
  #acts li.hidden { color: #777; font-style: italic; }
  #acts li.event { color: #555; font-size: 90%; list-style: circle; }
  #help { color: #555; font-size: 12px; }
</style>
</head>
<body class="fit">
<header><h1 id="title"></h1><p id="meta"></p></header>
<div id="controls">
  <button id="first" title="first step (Home)">|&#x25C0;</button>
  <button id="prev" title="previous step (Left arrow; Shift: 10)">&#x25C0;</button>
  <button id="play" title="play / pause (Space)">&#x25B6; play</button>
  <button id="next" title="next step (Right arrow; Shift: 10)">&#x25B6;</button>
  <button id="last" title="last step (End)">&#x25B6;|</button>
  <input id="slider" type="range" min="0" value="0" step="1" aria-label="step">
  <span id="where"></span>
  <label id="viewbox">view <select id="view"></select></label>
  <label><input id="fit" type="checkbox" checked> fit to window</label>
</div>
<main>
  <canvas id="board" width="10" height="10"></canvas>
  <div id="side">
    <table id="facts"></table>
    <h3 id="actshead">Action</h3>
    <ol id="acts"></ol>
    <p id="help">Keys: Left/Right step (Shift: 10), PageUp/PageDown 10, Home/End, Space play; a click
      on the board shows it at its own size or fitted to the window.
      The board is shown after the decisions before it; the action listed is the one taken here.</p>
  </div>
</main>
<script type="application/json" id="replay-data">%DATA%</script>
<script>
"use strict";
const D = JSON.parse(document.getElementById("replay-data").textContent);
const $ = (id) => document.getElementById(id);
const canvas = $("board"), ctx = canvas.getContext("2d");
const snap = document.createElement("canvas"), snapCtx = snap.getContext("2d");
const slider = $("slider"), select = $("view");
let step = 0, view = 0, token = 0, timer = null;
const decoded = new Map();

function image(i) {            // a decoded image by index, decoded once
  let p = decoded.get(i);
  if (!p) {
    const img = new Image();
    img.src = D.images[i];
    p = img.decode().then(() => img);
    decoded.set(i, p);
  }
  return p;
}

function side(name) { return name.length <= 3 ? name.toUpperCase() : name[0].toUpperCase() + name.slice(1); }

async function draw(v, s) {     // the board of step s in view v: its keyframe, then the patches after it
  const mine = ++token;
  const frames = D.views[v].frames;
  let k = s;
  while (frames[k].key === undefined) k--;
  const need = [frames[k].key];
  for (let j = k + 1; j <= s; j++) if (frames[j].img !== null) need.push(frames[j].img);
  const imgs = await Promise.all(need.map(image));
  if (mine !== token) return;   // a later step was asked for meanwhile
  const key = frames[k], T = D.tile, across = Math.ceil(key.w / T);
  if (canvas.width !== key.w || canvas.height !== key.h) { canvas.width = key.w; canvas.height = key.h; }
  ctx.drawImage(imgs[0], 0, 0);
  let n = 1;
  for (let j = k + 1; j <= s; j++) {
    const f = frames[j];
    if (f.runs.length) {        // blocks of the last board moved up or down: copied from a snapshot of it
      if (snap.width !== canvas.width || snap.height !== canvas.height) {
        snap.width = canvas.width; snap.height = canvas.height;
      }
      snapCtx.drawImage(canvas, 0, 0);
      for (const [x, y, count, sy] of f.runs) {
        ctx.drawImage(snap, x * T, sy, T, count * T, x * T, y * T, T, count * T);
      }
    }
    if (f.img === null) continue;
    const img = imgs[n++];
    f.tiles.forEach((t, i) => ctx.drawImage(img, (i % f.per_row) * T, Math.floor(i / f.per_row) * T, T, T,
                                            (t % across) * T, Math.floor(t / across) * T, T, T));
  }
  document.body.dataset.view = D.views[v].name;   // what is on the canvas now (tests wait for it)
  document.body.dataset.step = String(s);
}

function show(s) {
  step = Math.max(0, Math.min(D.steps.length - 1, s));
  slider.value = String(step);
  const here = D.steps[step], V = D.views[view];
  $("where").textContent = here.k < D.decisions ? `decision ${here.k} of ${D.decisions}`
                                                : `end: ${D.decisions} decisions`;
  const facts = $("facts");
  facts.replaceChildren();
  for (const [label, value] of V.facts[step]) {
    const tr = facts.insertRow();
    tr.insertCell().textContent = label;
    tr.insertCell().textContent = value;
  }
  const acts = $("acts");
  acts.replaceChildren();
  $("actshead").textContent = here.acts.length > 1 ? `Actions ${here.acts[0]}-${here.acts[here.acts.length - 1]}`
                                                   : here.acts.length ? "Action" : "Game over";
  for (const i of here.acts) {
    const li = document.createElement("li"), who = side(D.deciders[i]), text = V.texts[i];
    li.textContent = text === null ? `${i}: ${who} decides (not shown in this view)` : `${i}: ${who}: ${text}`;
    if (text === null) li.className = "hidden";
    if (V.events[i].length) {
      const ul = document.createElement("ul");
      for (const e of V.events[i]) {
        const ev = document.createElement("li");
        ev.textContent = e;
        ev.className = "event";
        ul.appendChild(ev);
      }
      li.appendChild(ul);
    }
    acts.appendChild(li);
  }
  draw(view, step);
}

function play() {
  if (timer !== null) { clearInterval(timer); timer = null; $("play").textContent = "\\u25B6 play"; return; }
  $("play").textContent = "\\u25A0 pause";
  timer = setInterval(() => { if (step >= D.steps.length - 1) play(); else show(step + 1); }, 350);
}

$("title").textContent = D.title;
$("meta").textContent = D.meta;
slider.max = String(D.steps.length - 1);
D.views.forEach((v, i) => select.add(new Option(v.name, String(i))));
if (D.views.length < 2) $("viewbox").hidden = true;
select.addEventListener("change", () => { view = Number(select.value); show(step); });
slider.addEventListener("input", () => show(Number(slider.value)));
$("first").addEventListener("click", () => show(0));
$("prev").addEventListener("click", () => show(step - 1));
$("next").addEventListener("click", () => show(step + 1));
$("last").addEventListener("click", () => show(D.steps.length - 1));
$("play").addEventListener("click", play);
$("fit").addEventListener("change", (e) => document.body.classList.toggle("fit", e.target.checked));
canvas.addEventListener("click", () => $("fit").click());   // a click on the board: its own size / fitted
document.addEventListener("keydown", (e) => {
  if (e.target === select || e.altKey || e.ctrlKey || e.metaKey) return;
  const jump = e.shiftKey ? 10 : 1;
  const moves = {ArrowRight: step + jump, ArrowLeft: step - jump, PageDown: step + 10, PageUp: step - 10,
                 Home: 0, End: D.steps.length - 1};
  if (e.key in moves) { e.preventDefault(); show(moves[e.key]); }
  else if (e.key === " ") { e.preventDefault(); play(); }
});
show(D.start);
</script>
</body>
</html>
"""
