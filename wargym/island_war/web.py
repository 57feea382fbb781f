"""Island War as data for the browser client (wargym.web): the printed map and a side's position.

    board(core)                      -> dict   the map sheet: hexes, terrain, hexsides, roads, objectives
    scene(core, view, game, viewer)  -> dict   counters, markers, tracks and the last roll of one game

Both are plain JSON that the page (wargym/web/static/board.js) draws as SVG; nothing here draws.
``scene`` is given the side's redacted view (``core.view``), never the real state: Island War has
no hidden counters (2.3), so a view is the whole board, but the page's leak test holds for every
ruleset the same way.  Coordinates are in hex radii, flat-topped hexes (wargym.hexgrid).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from wargym.island_war import render
from wargym.island_war.scenario import ARMOR, ARTILLERY, ENGINEER, PROHIBITED, RIVER, ROAD, TRAIL
from wargym.island_war.state import ON_MAP, PHASE_NAMES, WAITING
from wargym.web.shapes import colour, hexside_points, hex_path, map_extent

SYMBOLS = {ARTILLERY: "artillery", ARMOR: "armor", ENGINEER: "engineer"}
#: the rule each decision phase is played under (the action table of wargym/island_war/actions.py)
PHASE_RULES = {"move: select unit": "5.16", "move: destination": "5.1", "combat: select target": "7.1",
               "combat: declare attack": "7.2", "final protective fire": "8.4", "retreat": "7.7",
               "advance: select unit": "7.9", "advance: destination": "7.91", "displacement": "7.81"}


def board(core) -> dict[str, Any]:
    """The map sheet as printed: the same facts render.py draws (terrain, rivers, cliffs, coast,
    landing beaches, roads and trails, objectives, hex numbers)."""
    sc, grid = core.scenario, core.scenario.grid
    passable = sc.hex_move_cost > 0
    entry = sc.entry_hexes.any(axis=0)
    centers = grid.center
    terrains = {name: {"fill": colour(render.TERRAIN_FILL.get(name, render._fallback_colour(t))),
                       "passable": bool((passable & (sc.hex_terrain == t)).any())}
                for t, name in enumerate(sc.terrain_names)}
    lines: list[dict[str, Any]] = []
    areas: list[dict[str, Any]] = []
    nbr = grid.neighbours
    for h in range(grid.size):
        for d in range(6):
            n = int(nbr[h, d])
            if n < 0 or n < h:
                continue
            bits = int(sc.hexside[h, d])
            a, b = hexside_points(centers[h], d)
            if passable[h] != passable[n]:
                land, sea = (h, n) if passable[h] else (n, h)
                if entry[land]:
                    s = centers[sea]
                    areas.append({"kind": "beach", "points": [a, b, _toward(b, s), _toward(a, s)]})
                lines.append({"kind": "coast", "points": [a, b]})
            elif passable[h] and bits & PROHIBITED:
                lines.append({"kind": "cliff", "points": [a, b]})
            if passable[h] and passable[n] and bits & RIVER:
                lines.append({"kind": "river", "points": [a, b]})
    for bit, kind in ((TRAIL, "trail"), (ROAD, "road")):
        for h in range(grid.size):
            for d in range(3):
                n = int(nbr[h, d])
                if n >= 0 and sc.hexside[h, d] & bit:
                    lines.append({"kind": kind, "points": [_point(centers[h]), _point(centers[n])]})
    width, height = map_extent(centers)
    return {
        "ruleset": "island_war", "scenario": sc.name, "title": sc.title, "players": list(core.players),
        "hex_actions": int(grid.size), "width": width, "height": height,
        "hexes": [{"x": _round(centers[h][0]), "y": _round(centers[h][1]), "label": grid.label(h),
                   "terrain": sc.terrain_names[int(sc.hex_terrain[h])], "name": str(sc.hex_names.get(h, ""))}
                  for h in range(grid.size)],
        "hex_path": hex_path(),
        "terrains": terrains, "lines": lines, "areas": areas,
        "line_styles": {"coast": {"stroke": "#34485c", "width": 0.06}, "cliff": {"stroke": "#121212", "width": 0.13},
                        "river": {"stroke": "#2460d2", "width": 0.13},
                        "trail": {"stroke": "#764e28", "width": 0.06, "dash": "0.15 0.09"},
                        "road": {"stroke": "#96241c", "width": 0.09}},
        "area_styles": {"beach": {"fill": "#f4e4a0"}},
        "objectives": [{"hex": int(h), "name": str(sc.objective_names[i]), "vp": int(sc.objective_vp[i])}
                       for i, h in enumerate(sc.objective_hex)],
        "sides": [{"name": "US", "fill": colour(render.US_FILL), "ink": colour(render.US_INK)},
                  {"name": "Japan", "fill": colour(render.JP_FILL), "ink": colour(render.JP_INK)}],
        "phase_rules": PHASE_RULES,
    }


def scene(core, view, game: int, viewer: int | None) -> dict[str, Any]:
    """What stands on the board in ``view`` (``core.view(state, viewer)``, or the real state for a
    spectator, ``viewer`` None): the counters with their printed values and marks, the objectives'
    owners, the reinforcements waiting, the turn track and the last combat roll.  Island War hides
    nothing from either side (2.3), so every side sees the same scene and ``viewer`` changes
    nothing; it is taken as every ruleset's ``scene`` takes it (wargym/web/README.md)."""
    sc = core.scenario
    status = np.asarray(view.unit_status[game])
    pieces = []
    for u in np.flatnonzero(status == ON_MAP):
        pieces.append(_piece(sc, view, game, int(u), int(view.unit_hex[game, u])))
    waiting = [_piece(sc, view, game, int(u), -1) for u in np.flatnonzero(status == WAITING)]
    markers = [{"hex": int(h), "kind": "objective", "owner": int(view.objective_owner[game, i]),
                "text": f"{sc.objective_names[i]} ({sc.objective_vp[i]} VP)"} for i, h in enumerate(sc.objective_hex)]
    roll = render.last_roll(core, view, game)
    return {
        "turn": int(view.turn[game]), "phase": PHASE_NAMES[int(view.phase[game])],
        "pieces": pieces, "markers": markers,
        "boxes": [{"title": "Reinforcements waiting", "pieces": waiting}] if waiting else [],
        "tracks": [{"name": "Game-Turn", "value": int(view.turn[game]), "max": int(sc.game_turns)},
                   {"name": "Ground Support US", "value": int(view.gs_points[game, 0])},
                   {"name": "Ground Support Japan", "value": int(view.gs_points[game, 1])}],
        "dice": [int(view.last_die[game])] if int(view.last_result[game]) >= 0 else [],
        "roll": roll, "status": render.status_lines(core, view, game), "cards": [],
    }


def _piece(sc, view, game: int, u: int, h: int) -> dict[str, Any]:
    mark = {"@": "selected", "A": "attacking", "D": "defending", "F": "fpf"}.get(render.unit_mark(view, game, u), "")
    return {"id": u, "hex": h, "side": int(sc.unit_side[u]), "name": str(sc.unit_names[u]),
            "symbol": SYMBOLS.get(int(sc.unit_type[u]), "infantry"), "values": render.unit_values(sc, u),
            "mark": mark, "face_up": True}


def _point(p) -> list[float]:
    return [_round(p[0]), _round(p[1])]


def _toward(a, b, share: float = 0.28) -> list[float]:
    return [_round(a[0] * (1 - share) + b[0] * share), _round(a[1] * (1 - share) + b[1] * share)]


def _round(x: float) -> float:
    return round(float(x), 3)
