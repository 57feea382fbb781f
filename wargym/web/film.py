"""A recorded game as the page plays it back (Watch): the board once, then each step's changes.

    film(replay, viewer=None) -> dict       replay: a wargym.replay.Replay (verified)
    write_page(replay, path, viewer=None)    one HTML file: the page's scripts and the film inside

The film::

    {"format": 1, "ruleset", "scenario", "players", "viewer": name or None, "steps": n,
     "board": board(core),                       the printed map (wargym/web/README.md)
     "scenes": [scene_0, delta_1, ..., delta_n], scene_0 whole; delta_k: the keys of scene k that
                                                 differ from scene k-1, with "pieces" as
                                                 {"set": [pieces new or changed], "del": [ids gone]}
     "acts": [{"by", "text", "events"}, ...]}    act k-1 led to scene k: who decided, what, and what
                                                 the rules did (wargym.events), in words

A step's scene is the ruleset's ``web.scene`` of the game: of the side's ``core.view`` for that
side when ``viewer`` is given (the other side's actions then read "<side> decides" and the events
are written for the viewer, as in a replay saved for a player), else of the state itself for no
side (``viewer=None``: all of it, as a spectator of the whole game sees it).  Sending the changes
only keeps a 1,640-decision Island War game near a megabyte: a counter moves, a status line
changes, the rest stays.
"""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path
from typing import Any

from wargym.atomic import write_text
from wargym.web import web_module

FILM_FORMAT = 1


def film(replay, viewer: str | None = None) -> dict[str, Any]:
    core = replay.core
    module = web_module(core.name)
    players = list(core.players)
    if viewer is not None and viewer not in players:
        raise ValueError(f"viewer {viewer!r}: the players of {core.name} are {', '.join(players)}")
    v = None if viewer is None else players.index(viewer)
    texts = replay.action_text or [core.describe_action(a) for a in replay.actions]
    scenes: list[dict[str, Any]] = []
    acts: list[dict[str, Any]] = []
    before = None
    previous: dict[str, Any] | None = None
    for k, (state, log) in enumerate(replay.logged_states()):
        shown = state if v is None else core.view(state, v)
        scene = module.scene(core, shown, 0, viewer=v)
        scenes.append(scene if previous is None else delta(previous, scene))
        previous = scene
        if k:
            by = int(core.current_player(before)[0])
            text = texts[k - 1] if v is None or by == v else f"{players[by]} decides"
            events = [e["text"] for e in core.events_for(log, state, 0, viewer=v)]
            acts.append({"by": players[by], "text": text, "events": events})
        before = state
    return {"format": FILM_FORMAT, "ruleset": core.name, "scenario": core.scenario.name, "players": players,
            "viewer": viewer, "steps": len(replay.actions), "board": module.board(core), "scenes": scenes,
            "acts": acts}


def delta(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The keys of scene ``new`` that differ from ``old``; pieces by id (module docstring)."""
    out: dict[str, Any] = {k: v for k, v in new.items() if k != "pieces" and old.get(k) != v}
    was = {p["id"]: p for p in old.get("pieces", [])}
    now = {p["id"]: p for p in new.get("pieces", [])}
    changed = [p for i, p in now.items() if was.get(i) != p]
    gone = [i for i in was if i not in now]
    if changed or gone:
        out["pieces"] = {"set": changed, "del": gone}
    return out


def undelta(old: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
    """Scene k from scene k-1 and its delta (what the page does; here for the tests)."""
    out = {**old, **{k: v for k, v in change.items() if k != "pieces"}}
    if "pieces" in change:
        pieces = {p["id"]: p for p in old.get("pieces", [])}
        for i in change["pieces"]["del"]:
            pieces.pop(i, None)
        for p in change["pieces"]["set"]:
            pieces[p["id"]] = p
        out["pieces"] = list(pieces.values())
    return out


# ---------------------------------------------------------------------------------- one HTML file
STATIC = Path(__file__).resolve().parent / "static"


def page_script() -> str:
    """board.js and watch.js as one inline module script (a file opened from disk cannot import)."""
    parts = []
    for name in ("board.js", "watch.js"):
        text = (STATIC / name).read_text()
        lines = [ln for ln in text.splitlines() if not ln.startswith("import ")]
        parts.append("\n".join(ln.replace("export function", "function", 1) if ln.startswith("export function") else ln
                               for ln in lines))
    parts.append("startWatch(JSON.parse(document.getElementById('film').textContent), document);")
    return "\n".join(parts)


def write_page(replay, path: str | Path, viewer: str | None = None) -> dict[str, Any]:
    """The Watch page of ``replay`` with its film inside, written to ``path`` (atomically):
    nothing else is needed to open it, and its Content-Security-Policy lets it load nothing from
    anywhere.  Returns {"path", "bytes", "steps"}."""
    data = film(replay, viewer)
    script = page_script()
    style = (STATIC / "style.css").read_text()
    csp = (f"default-src 'none'; script-src '{_hash(script)}'; style-src '{_hash(style)}'; img-src data:; "
           "base-uri 'none'; form-action 'none'")
    html = watch_html(csp, f"<style>{style}</style>", f'<script type="module">{script}</script>', "", data)
    write_text(Path(path), html)
    return {"path": str(path), "bytes": len(html.encode()), "steps": data["steps"]}


def watch_html(csp: str, style: str, scripts: str, picker: str, data: dict[str, Any] | None) -> str:
    """static/watch.html filled in: the one-file page (``write_page``) or the server's /watch."""
    film_json = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    title = f"{data['board']['title']}: a replay" if data else "wargym: watch a game"
    html = (STATIC / "watch.html").read_text()
    for key, value in (("CSP", csp), ("TITLE", title), ("STYLE", style), ("PICKER", picker), ("SCRIPTS", scripts),
                       ("FILM", film_json)):
        html = html.replace("{{" + key + "}}", value)
    return html


def _hash(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
