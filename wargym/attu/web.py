"""Attu as data for the browser client (wargym.web): the printed map and a side's position.

    board(core)                      -> dict   the map sheet: levels, coast, cliffs, slopes, dry rivers,
                                               lakes, zone boundaries, Landing Zones, Victory Hexes
    scene(core, view, game, viewer)  -> dict   counters, boxes off the map, markers, tracks, last dice

Both are plain JSON that the page (wargym/web/static/board.js) draws as SVG; nothing here draws.
The map is the one render.py draws as an image (its palette, its ``_island`` for the land outside a
short scenario's play area); coordinates are in hex radii, flat-topped hexes (wargym.hexgrid).

``scene`` is given a side's redacted view (``core.view(state, viewer)``) and that side, ``viewer``,
and reads the view the way render.py's boards do (fog.hidden_from, 2.5): the U.S. sees a Japanese
counter that is face down on the map as a counter only (``face_up: false``, no name, type or
values), and nothing of the Japanese counters off the map (the cup, the Unknowns, the eliminated
pile: it is told how many counters it took off the map, ``jp_removed``).  The view relabels those
counters in an order of what the U.S. sees (wargym.hidden.redact), so their ids tell nothing
either.  Japan sees all its counters; ``face_down`` (an Attu addition to the format) says which lie
rising-sun side up.  A counter the U.S. remembers (README "What the U.S. remembers") is drawn face
down too, as on the image board.  A replay watched whole (wargym.web.film with no viewer) hands
``scene`` the real state and ``viewer=None``: render.py's full board, every counter known.
Values are those printed on the side of the counter in play (2.2, 2.4): melee dice, ranged dice
with the range as a superscript, movement points, e.g. "6-2²-7"; a unit with no ranged dice left
shows melee-movement ("1-7"); an Unknown shows its table (2.5) as how many of the die's ten faces
give one, two and three Infantry ("5-4-1" for 1111122223).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from wargym.attu import render
from wargym.attu.scenario import (ARTILLERY, ENGINEER, INFANTRY, JAPAN, LZ_LETTERS, TURN_0_DATE, UNKNOWN, US,
                                  ZONE_NAMES)
from wargym.attu.state import (LOC_ASIDE, LOC_ELIM, LOC_MAP, LOC_NONE, LOC_RESERVE, LOC_STAGING, OPT_KOMANDORSKI,
                               PHASE_NAMES)
from wargym.hexgrid import opposite
from wargym.web.shapes import colour, hex_path, hexside_points, map_extent

SYMBOLS = {INFANTRY: "infantry", ARTILLERY: "artillery", ENGINEER: "engineer"}  # recon, depot, unknown: other
SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
#: the rule each decision phase is played under, as the code that plays it names it (sequence.py,
#: setup.py, refit.py, ranged.py, losses.py, melee.py, yamasaki.py; actions.py).  "select unit" (the
#: SLOT decision) picks a unit of a hex for whichever decision asked, so it has no rule of its own.
PHASE_RULES = {
    "set-up: Japanese placement": "12.4", "set-up: U.S. staging": "12.5, 12.6", "set-up: land or wait": "12.6",
    "refit decision": "3.1", "refit: restore a step": "9.1", "reinforcements: select battalion": "9.2.2",
    "reinforcements: staging zone": "9.2.2", "create independent units": "9.3", "create supply depots": "9.4",
    "unknowns: select": "9.6", "unknowns: destination": "9.6", "unknowns: swap infantry": "9.6",
    "unknowns: place": "9.6", "night decision": "3.2", "actions: select": "3.5", "actions: order": "3.5",
    "ranged: target unit": "8.0", "airpower: target hex": "8.1.6", "allocate losses": "8.0",
    "friendly fire: hex": "8.1.6", "melee: select target": "3.7", "General Arnold": "11.2",
    "Joe Martinez": "11.1", "retreat option": "8.2.1.3", "retreat": "8.2.1.3", "advance": "8.2.1.4",
    "Colonel Yamasaki: select hex": "11.3", "Colonel Yamasaki: move or assault": "11.3.1",
}
SEA, OUT = "sea", "outside the scenario"


def board(core) -> dict[str, Any]:
    """The map sheet as printed: the facts render.py's ``_map_sheet`` draws (levels 5.4, lakes 5.6,
    slope art 5.3, dry river beds 5.5, coast, victory zone boundaries 10.0, cliffs 5.7, Landing
    Zones 9.2.1, the Victory Hexes 3.8.1)."""
    sc, grid = core.scenario, core.scenario.grid
    land_all, zone_all = render._island(sc)   # the whole island, a short scenario's area or not (15.0)
    centers, nbr = grid.center, grid.neighbours
    terrains = {SEA: {"fill": colour(render.SEA), "passable": False},
                OUT: {"fill": colour(render.OUT_OF_PLAY), "passable": False}}
    terrains.update({f"level {k}": {"fill": colour(fill), "passable": True}      # 5.4
                     for k, fill in enumerate(render.LEVEL_FILL)})
    lines: list[dict[str, Any]] = []
    areas: list[dict[str, Any]] = []
    for h in np.flatnonzero(sc.lake):  # 5.6: a lake, as the image draws it
        cx, cy = centers[h]
        areas.append({"kind": "lake", "points": [[_round(cx + 0.62 * np.cos(a)), _round(cy + 0.42 * np.sin(a))]
                                                 for a in np.linspace(0, 2 * np.pi, 16, endpoint=False)]})
    for h, d in zip(*np.nonzero(sc.slope)):  # 5.3: three hachures inside the hex that carries the art
        (ax, ay), (bx, by) = hexside_points(centers[h], int(d))
        cx, cy = centers[h]
        for t in (0.22, 0.5, 0.78):
            px, py = ax + (bx - ax) * t, ay + (by - ay) * t
            tip = (px + (cx - px) * 0.26, py + (cy - py) * 0.26)
            lines.append({"kind": "slope", "points": [_point((px, py)), _point(tip)]})
    for h, d in zip(*np.nonzero(sc.river)):  # 5.5: dry river beds, hex centre to hex centre, each once
        n = int(nbr[h, d])
        if n > h:
            lines.append({"kind": "river", "points": [_point(centers[h]), _point(centers[n])]})
    for h in range(grid.size):  # hexsides, each once: coast, zone boundaries (10.0), cliffs (5.7)
        for d in range(6):
            n = int(nbr[h, d])
            if n < h:
                continue
            side = hexside_points(centers[h], d)
            if land_all[h] != land_all[n]:
                lines.append({"kind": "coast", "points": side})
            elif land_all[h] and zone_all[h] != zone_all[n]:
                lines.append({"kind": "zone boundary", "points": side})
            if sc.cliff[h, d] or sc.cliff[n, opposite(d)]:
                lines.append({"kind": "cliff", "points": side})
    for h in sc.lz_hex:  # 9.2.1: a Landing Zone, ringed (its letter and capacity are the hex's name)
        if h >= 0:
            cx, cy = centers[int(h)]
            ring = [[_round(cx + 0.8 * np.cos(np.pi / 3 * k)), _round(cy + 0.8 * np.sin(np.pi / 3 * k))]
                    for k in range(7)]
            lines.append({"kind": "landing zone", "points": ring})
    width, height = map_extent(centers)
    targets = set(int(h) for h in sc.target_hex)
    return {
        "ruleset": "attu", "scenario": sc.name, "title": sc.title, "players": list(core.players),
        "hex_actions": int(grid.size), "width": width, "height": height, "hex_path": hex_path(),
        "hexes": [{"x": _round(centers[h][0]), "y": _round(centers[h][1]), "label": grid.label(h),
                   "terrain": _terrain(sc, land_all, h), "name": _hex_name(sc, h)} for h in range(grid.size)],
        "terrains": terrains, "lines": lines, "areas": areas,
        "line_styles": {"coast": {"stroke": colour(render.COAST), "width": 0.07},
                        "zone boundary": {"stroke": colour(render.ZONE_LINE), "width": 0.07, "dash": "0.18 0.14"},
                        "cliff": {"stroke": colour(render.CLIFF), "width": 0.16},
                        "river": {"stroke": colour(render.RIVER), "width": 0.1},
                        "slope": {"stroke": colour(render.SLOPE_INK), "width": 0.05},
                        "landing zone": {"stroke": colour(render.LZ_INK), "width": 0.08}},
        "area_styles": {"lake": {"fill": colour(render.LAKE)}},
        # 3.8.1: the six Victory Hexes, one per victory zone (10.0); 15.x names the ones to take
        "objectives": [{"hex": int(h), "name": ZONE_NAMES[z] + (" (to take, 15.0)" if int(h) in targets and
                                                                 len(targets) < 6 else "")}
                       for z, h in enumerate(sc.victory_hex)],
        "sides": [{"name": "US", "fill": colour(render.US_FILL), "ink": colour(render.US_INK)},
                  {"name": "Japan", "fill": colour(render.JP_FILL), "ink": colour(render.JP_INK)}],
        "phase_rules": PHASE_RULES,
    }


def scene(core, view, game: int, viewer: int | None) -> dict[str, Any]:
    """What ``view`` shows of game ``game`` to ``viewer``: the counters on the map with their
    printed values and marks, the counters off the map the viewer may see, the Victory Hexes'
    holders and the zones cleared, the airpower targets and melees, the tracks and the last dice.
    ``viewer``: the side ``view`` was made for (``core.view(state, viewer)``); None when ``view``
    is the real state, for a spectator of the whole game: every counter is known, the ones lying
    face down as well (``face_down``), and the tracks and status are render.py's full board's,
    which tell what the U.S. may not see (the Komandorski chits 12.1, the victory point
    chits 14.0, the Japanese off the map 2.5)."""
    sc, g = core.scenario, game
    side = render.sides(core, view, g)           # captured U.S. artillery fights for Japan (8.2.1.4)
    known = render.seen(core, view, g, viewer)   # 2.5 (fog.hidden_from)
    loc, where = view.unit_loc[g], view.unit_hex[g]
    play = sc.unit_in_play
    pieces = [_piece(sc, view, g, int(u), int(where[u]), int(side[u]), bool(known[u]))
              for u in np.flatnonzero(play & (loc == LOC_MAP))]
    boxes = []

    def box(title: str, units) -> None:
        units = [int(u) for u in units]
        if units:
            boxes.append({"title": title, "pieces": [_piece(sc, view, g, u, -1, int(side[u]), bool(known[u]))
                                                     for u in units]})

    us = play & (side == US)
    for code in sorted(set(int(where[u]) for u in np.flatnonzero(us & (loc == LOC_STAGING)))):  # 9.2.2, 12.5
        box(f"US staging zone {render._staging_name(code)}",
            np.flatnonzero(us & (loc == LOC_STAGING) & (where == code)))
    box("US Reinforcements Box (9.2)", np.flatnonzero(us & (loc == LOC_RESERVE)))
    box("US set aside (8.2.1.4)", np.flatnonzero(us & (loc == LOC_ASIDE)))
    box("US eliminated", np.flatnonzero(us & (loc == LOC_ELIM)))
    jp = play & (side == JAPAN) & known            # 2.5: none of these for the U.S.
    box("Japanese not yet placed (12.3, 12.4)", np.flatnonzero(jp & (loc == LOC_NONE)))
    box("Japanese Infantry off the map (2.5)", np.flatnonzero(jp & (loc == LOC_RESERVE) & (sc.unit_type != UNKNOWN)))
    box("Japanese Unknowns off the map (2.5)", np.flatnonzero(jp & (loc == LOC_RESERVE) & (sc.unit_type == UNKNOWN)))
    box("Japanese eliminated", np.flatnonzero(jp & (loc == LOC_ELIM)))
    dice = [int(d) for d in view.last_dice[g, :int(view.last_n[g])]]
    return {
        "turn": int(view.turn[g]), "phase": PHASE_NAMES[int(view.phase[g])],
        "pieces": pieces, "markers": _markers(sc, view, g, pieces), "boxes": boxes, "cards": [],
        "tracks": _tracks(core, view, g, viewer), "dice": dice,
        "roll": "d10, a '0' reads as 10 (1.2)" if dice else "",
        "status": render.status_lines(core, view, g, viewer),
    }


def _piece(sc, view, g: int, u: int, h: int, side: int, known: bool) -> dict[str, Any]:
    """A counter as the viewer sees it; a face-down one it may not know is a blank counter."""
    mark = _mark(view, g, u)
    if not known:
        return {"id": u, "hex": h, "side": side, "name": "", "symbol": "other", "values": "", "mark": mark,
                "face_up": False, "face_down": True}
    return {"id": u, "hex": h, "side": side, "name": str(sc.unit_names[u]),
            "symbol": SYMBOLS.get(int(sc.unit_type[u]), "other"),
            "values": values(sc, u, int(view.unit_steps[g, u])), "mark": mark, "face_up": True,
            "face_down": bool(view.face_down[g, u])}


def values(sc, u: int, steps: int) -> str:
    """The ratings printed on the side of counter ``u`` that shows ``steps`` steps (2.2, 2.4):
    melee dice, ranged dice with the range superscript, movement points.  An Unknown's table (2.5:
    the Infantry a die from 1 to 10 gives, in rising order) is told by how many faces give one, two,
    three: "5-4-1" for 1111122223."""
    if sc.unit_type[u] == UNKNOWN:  # the table in short: how many of the die's faces give 1, 2, 3 Infantry
        table = [int(v) for v in sc.unit_table[u]]
        if table != sorted(table):
            return "".join(map(str, table))
        return "-".join(str(table.count(n)) for n in range(1, max(table) + 1))
    k = max(min(steps, int(sc.unit_steps[u])), 1)
    melee, ranged, move = int(sc.unit_melee[u, k - 1]), int(sc.unit_ranged[u, k - 1]), int(sc.unit_move[u])
    if ranged == 0:  # 2.2: "some units do not have Ranged Combat capabilities"
        return f"{melee}-{move}"
    return f"{melee}-{ranged}{str(int(sc.unit_range[u])).translate(SUPERSCRIPT)}-{move}"


def _mark(view, g: int, u: int) -> str:
    """selected (the unit of the decision), attacking (declared a Melee, 8.2, or attacks the one being
    fought), defending (in the hex of the Melee being fought, 8.2.1)."""
    if int(view.selected[g]) == u:
        return "selected"
    mel = int(view.mel_hex[g])
    if view.melee_target[g, u] >= 0 or (mel >= 0 and view.mel_att[g, u]):
        return "attacking"
    if mel >= 0 and view.unit_loc[g, u] == LOC_MAP and int(view.unit_hex[g, u]) == mel:
        return "defending"
    return ""


def _markers(sc, view, g: int, pieces: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Zone Cleared markers (10.0), the announced Airpower attacks (8.1.6), the Melees declared
    (8.2) and, last so that the page draws them on top, the Victory Hexes' holders (3.8.1: the side
    on the hex, -1 none)."""
    holder = {p["hex"]: p["side"] for p in pieces}   # the sides never share a hex (4.0)
    out = []
    for z, h in enumerate(sc.victory_hex):
        if sc.land[h] and view.zone_cleared[g, z]:
            out.append({"hex": int(h), "kind": "zone cleared", "owner": US,
                        "text": f"{ZONE_NAMES[z]}: Zone Cleared (10.0)"})
    acting = int(view.acting[g])
    for h in view.air_target[g, :int(view.air_n[g])]:
        if h >= 0:
            out.append({"hex": int(h), "kind": "airpower", "owner": acting,
                        "text": "Airpower attack announced (8.1.6)"})
    for h in render.melee_hexes(view, g):
        out.append({"hex": h, "kind": "melee", "owner": -1,
                    "text": "Melee being fought (8.2.1)" if h == int(view.mel_hex[g]) else "Melee declared (8.2)"})
    for z, h in enumerate(sc.victory_hex):
        if sc.land[h]:
            cleared = ", zone cleared" if view.zone_cleared[g, z] else ""
            out.append({"hex": int(h), "kind": "objective", "owner": int(holder.get(int(h), -1)),
                        "text": f"Victory Hex {sc.grid.label(int(h))} {ZONE_NAMES[z]}{cleared}"})
    return out


def _tracks(core, view, g: int, viewer: int) -> list[dict[str, Any]]:
    """The Turn Track (12.2; its last turn once the viewer knows it, 12.1), the Casualty Track
    (8.4), the Airpower factors left (3.4), the refit steps to place (9.1) and, for the U.S., the
    Japanese counters it has taken off the map (2.5, 8.5)."""
    sc = core.scenario
    turn, last = int(view.turn[g]), int(view.last_turn[g])
    ke = bool(core.tables.opts[OPT_KOMANDORSKI])
    known_last = last >= 0 and (not ke or viewer != US or int(view.ke_revealed[g]) == 2)
    longest = (int(sc.effect_chits.max()) - TURN_0_DATE + int(sc.delay_chits.max()) - 1 if ke
               else int(sc.spec.end_date) - TURN_0_DATE)
    tracks = [{"name": f"Turn ({render.date(turn)})", "value": turn, "max": last if known_last else max(longest, turn)},
              {"name": "Casualty Track", "value": int(view.casualties[g]), "max": int(sc.casualty_max)},
              {"name": "Airpower US", "value": int(view.airpower[g, US])},
              {"name": "Airpower Japan", "value": int(view.airpower[g, JAPAN])}]
    if view.refit[g]:
        tracks.append({"name": "Refit steps to place", "value": int(view.refit_steps[g])})
    if viewer == US:
        tracks.append({"name": "Japanese counters taken off the map", "value": int(view.jp_removed[g])})
    return tracks


def _terrain(sc, land_all, h: int) -> str:
    if not land_all[h]:
        return SEA
    return f"level {min(int(sc.level[h]), 4)}" if sc.land[h] else OUT


def _hex_name(sc, h: int) -> str:
    """The printed place name, and the Landing Zone with its capacity (9.2.1)."""
    parts = [str(sc.hex_names.get(h, ""))] if h in sc.hex_names else []
    k = int(sc.lz_of_hex[h])
    if k >= 0:
        parts.append(f"Landing Zone {LZ_LETTERS[k]} ({int(sc.lz_capacity[k])} steps)")
    return "; ".join(parts)


def _point(p) -> list[float]:
    return [_round(p[0]), _round(p[1])]


def _round(x: float) -> float:
    return round(float(x), 3)
