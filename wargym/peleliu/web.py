"""D-Day at Peleliu as data for the browser page (wargym.web): the printed map and the U.S. position.

    board(core)                      -> dict   the map: hexes, terrain, coast, cliffs, roads, positions,
                                               fields of fire, landing beaches, the positions that score
    scene(core, view, game, viewer)  -> dict   counters, markers, boxes, tracks and the fire card of a game

Both are plain JSON that the page (wargym/web/static/board.js) draws as SVG; nothing here draws.
The facts and colours are render.py's (the PNG board), the format wargym/web/README.md's.
Coordinates are in hex radii, flat-topped hexes (wargym.hexgrid centres).

``scene`` reads only ``view``, the U.S. player's redacted view (``core.view(state, 0)``,
wargym.peleliu.fog, ``viewer`` 0), and the scenario's public tables.  A face-down Japanese counter is a slot the
view has put in a canonical order among the face-down counters of its type (9.1: the type is on its
back), so the scenario's name and values of that slot say nothing and are never read: the piece has
``face_up: false``, a blank name and values, and only the symbol of its type.  A face-down depth or
counterattack marker (2.24, 9.21) is only its kind.  A replay watched whole (wargym.web.film with
no viewer) hands ``scene`` the real state and ``viewer=None``: then every Japanese counter is named,
as render.py's full board names it.

Piece ids, unique over the whole scene (the map and the boxes): U.S. unit ``u`` (counters.yaml
order, the action ``UNIT_0 + u``) is ``u``; Japanese unit (or BNR fortification marker) ``j`` is
``N + j`` with ``N = len(scenario.us_names)``.  Depth and counterattack markers are markers (2.2:
"markers, placed on units"), not pieces.

What a counter prints, short enough for the page's counter: a U.S. piece's ``values`` are its
attack strength, range and steps at its present steps ('7-2 4st', 2.21), its ``name`` the
designation with the weapons a reduced counter prints ('A/1/1 (FT+BR+MG)', 8.21); a revealed
Japanese piece's ``values`` its strength, 'elite' and a tank's colour ('3 elite', 2.22), its
``name`` with the U.S. weapon requirements ('J47 (BR+BZ+FL)').

Peleliu rolls no dice: its random draws are cards (2.3), so ``dice`` is empty and the fire card
drawn this turn (6.1) is in ``cards``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from wargym.peleliu import render
from wargym.peleliu.render import COLOUR_FILL, TERRAIN_FILL
from wargym.peleliu.scenario import (
    AMTANK, ART, BOXES, COLOURS, ENG, INF_HQ, REG_HQ, SEA, TANK, TERRAINS, INTENSE, JP_TYPES,
)
from wargym.peleliu.state import (
    BNR_HEROES, HERO, INSPIRED, JP_ELIM, JP_MAP, JP_RESERVE, P_HIT_PICK, PHASE_NAMES, US_ELIM, US_MAP,
)
from wargym.peleliu.victory import secured
from wargym.web.shapes import colour, hex_path, hexside_points

#: the page's counter symbols for the U.S. unit types (2.21, scenario.US_TYPES)
US_SYMBOLS = {ENG: "engineer", TANK: "armor", AMTANK: "armor", ART: "artillery", INF_HQ: "hq", REG_HQ: "hq"}
#: and for the Japanese types (2.23; the type is printed on the back too, 9.1)
JP_SYMBOLS = {"infantry": "infantry", "engineer": "engineer", "hq": "hq", "tank": "armor",
              "fortification": "marker"}
BEACH_NAMES = {"W": "White", "O": "Orange"}  # 2.1: W2 for White 2, O1 for Orange 1
DEPTH_KINDS = ("depth marker", "armor depth marker", "counterattack marker")  # 2.24

#: the rule each decision phase is played under (README "Decisions and actions", the docstrings of
#: sequence.py, us.py, japanese.py, bnr.py); the event cards' decisions have no rule number
PHASE_RULES = {
    "amphibious: landing box": "5.3", "amphibious: land in beach hex": "5.2", "amphibious: drifting unit": "5.1",
    "actions: select unit": "7.0", "actions: order": "7.0", "move: destination": "7.3",
    "stack: second unit": "7.21", "infiltration: complete the move": "7.33", "target hex": "8.1, 8.4, 7.4",
    "attack: add unit or resolve": "8.31", "attack: optional attrition": "8.3", "close combat: step loss": "8.6",
    "close combat: withdraw": "8.63", "stacking: eliminate unit": "7.53", "HQ phase: command post": "14.1",
    "hero: unit": "10.11", "event: Japanese unit to reveal": "10.17",
    "attack: hero's wild card (yes) or +1 strength (no)": "8.24", "set-up / relief: hex for the unit": "18.1, 18.37",
    "garrison: position hex": "14.4", "HQ phase: hex whose units lose their disruption": "18.2",
    "night: battalion to withdraw": "18.37", "fortification: rotate clockwise (yes) or counterclockwise (no)": "19.4",
    "HQ phase: advance the command post's range": "14.2", "close combat: hex the withdrawing units go to": "8.63",
    "Japanese fire: tied U.S. unit to take the hit": "6.31", "Japanese assault: tied hex the unit goes to": "12.8",
    "counterattack: tied Japanese unit (its hex) to enter the stance": "13.41",
}
assert set(PHASE_RULES) <= set(PHASE_NAMES)

# widths in hex radii: render.py's pixel widths over its hex radius (render.HEX_R = 21 px)
_R = render.HEX_R
LINE_STYLES = {"coast": {"stroke": colour(render.COAST), "width": round(1.4 / _R, 3)},
               "cliff": {"stroke": colour(render.CLIFF), "width": round(3.6 / _R, 3)},
               "road": {"stroke": colour(render.ROAD), "width": round(1.6 / _R, 3)}}
for _c in COLOURS:  # 2.1: the ring of a position and the line joining a position group, in its colour
    LINE_STYLES[f"position {_c}"] = {"stroke": colour(COLOUR_FILL[_c]), "width": round(2.0 / _R, 3)}
    LINE_STYLES[f"group {_c}"] = {"stroke": colour(COLOUR_FILL[_c]), "width": round(1.8 / _R, 3)}
AREA_STYLES = {"landing beach White": {"fill": "#ffffff"}, "landing beach Orange": {"fill": "#f28c14"},
               "artillery": {"fill": "#141414"}, "mountaintop": {"fill": "#141414"}}
for _c in COLOURS:  # 6.2: fire dots, big intense and small steady
    AREA_STYLES[f"intense fire {_c}"] = {"fill": colour(COLOUR_FILL[_c])}
    AREA_STYLES[f"steady fire {_c}"] = {"fill": colour(COLOUR_FILL[_c])}


# ------------------------------------------------------------------------------------------- board
def board(core) -> dict[str, Any]:
    """The printed map as render.py draws it: terrain, the coast, cliff hexsides (7.32), roads, the
    positions (2.1: a ring and the hex's name with the id, the line of a position group, fixed
    artillery, mountaintops), the fire dots (6.2), the landing beaches (2.1, 5.0), and as objectives
    the positions whose securing scores (15.2, 17.1, 17.2)."""
    sc, grid = core.scenario, core.scenario.grid
    centers = grid.center
    nbr = grid.neighbours
    wet = sc.terrain == SEA  # render.py's coast: between the sea and the rest (the reef is shallow)
    lines: list[dict[str, Any]] = []
    areas: list[dict[str, Any]] = []
    for h in range(grid.size):  # each hexside once
        for d in range(6):
            n = int(nbr[h, d])
            if n >= 0 and n < h:
                continue
            if n >= 0 and wet[h] != wet[n]:
                lines.append({"kind": "coast", "points": hexside_points(centers[h], d)})
            if sc.cliff[h, d]:
                lines.append({"kind": "cliff", "points": hexside_points(centers[h], d)})
    for h in np.flatnonzero(sc.road):  # roads from hex centre to hex centre
        for d in range(3):
            n = int(nbr[h, d])
            if n >= 0 and sc.road[n]:
                lines.append({"kind": "road", "points": [_point(centers[h]), _point(centers[n])]})
    for a, b in sc.grp_members:  # 2.1: "lines link the two position hexes of a position group"
        if b >= 0:
            pa, pb = centers[int(sc.pos_hex[a])], centers[int(sc.pos_hex[b])]
            lines.append({"kind": f"group {COLOURS[int(sc.pos_colour[a])]}",
                          "points": [_along(pa, pb, 0.8), _along(pb, pa, 0.8)]})
    for p, h in enumerate(sc.pos_hex):
        cx, cy = centers[int(h)]
        ring = [[_round(cx + 0.72 * math.cos(math.pi * k / 12)), _round(cy + 0.72 * math.sin(math.pi * k / 12))]
                for k in range(25)]
        lines.append({"kind": f"position {COLOURS[int(sc.pos_colour[p])]}", "points": ring})
        if sc.pos_art[p]:  # fixed artillery (2.1): a black dot right of the id
            areas.append({"kind": "artillery", "points": _disc(cx + 0.45, cy - 0.45, 0.12)})
        if sc.pos_mtop[p]:  # a mountaintop position (2.1): a black triangle left of the id
            areas.append({"kind": "mountaintop", "points": [[_round(cx - 0.57), _round(cy - 0.36)],
                                                            [_round(cx - 0.33), _round(cy - 0.36)],
                                                            [_round(cx - 0.45), _round(cy - 0.58)]]})
    for h, dots in render._dots(sc).items():  # 6.2: a row of dots along the foot of the hex
        cx, cy = centers[h]
        x0 = cx - 0.2 * (len(dots) - 1) / 2
        for i, (c, dot) in enumerate(dots):
            kind = "intense" if dot == INTENSE else "steady"
            r = 0.13 if dot == INTENSE else 0.075
            areas.append({"kind": f"{kind} fire {COLOURS[c]}", "points": _disc(x0 + 0.2 * i, cy + 0.64, r)})
    for b in range(len(BOXES)):  # 5.0: a landing beach hex's strip on its seaward hexsides
        for h in sc.box_beach[b]:
            if h < 0:
                continue
            for d in range(6):
                n = int(nbr[h, d])
                if n >= 0 and not sc.land[n]:
                    a, e = hexside_points(centers[h], d)
                    areas.append({"kind": f"landing beach {BEACH_NAMES[BOXES[b][0]]}",
                                  "points": [a, e, _toward(e, centers[n], 0.22), _toward(a, centers[n], 0.22)]})
    terrains = {name: {"fill": colour(TERRAIN_FILL[name]), "passable": bool(sc.t_land[t])}
                for t, name in enumerate(TERRAINS)}
    return {
        "ruleset": "peleliu", "scenario": sc.name, "title": f"{render.TITLE}: {sc.title}",
        "players": list(core.players), "hex_actions": int(grid.size),
        # the map down to one row below the last with land, as render.py prints it: the southern
        # rows are open sea (their hexes are in ``hexes``, outside the drawing)
        "width": round(float(centers[:, 0].max()) + 1.0, 3),
        "height": round(math.sqrt(3) * render._rows_shown(sc), 3),
        "hex_path": hex_path(),
        "hexes": [{"x": _round(centers[h][0]), "y": _round(centers[h][1]), "label": grid.label(h),
                   "terrain": TERRAINS[int(sc.terrain[h])], "name": hex_name(sc, h)} for h in range(grid.size)],
        "terrains": terrains, "lines": lines, "areas": areas, "line_styles": LINE_STYLES,
        "area_styles": AREA_STYLES, "objectives": objectives(sc),
        "sides": [{"name": "U.S.", "fill": colour(render.US_FILL), "ink": colour(render.US_INK)},
                  {"name": "Japanese", "fill": colour(render.JP_FILL), "ink": colour(render.JP_INK)}],
        "phase_rules": PHASE_RULES,
    }


def hex_name(sc, h: int) -> str:
    """The printed name of hex h: its position (2.1: zone letter and priority number, colour; the
    three provisional counterattack positions have no id) and its landing beach (2.1: W1 ... O3)."""
    parts = []
    p = int(sc.hex_pos[h])
    if p >= 0:
        col = COLOURS[int(sc.pos_colour[p])]
        text = f"position {sc.pos_id[p]} ({col})" if sc.pos_id[p] else f"provisional counterattack position ({col})"
        if sc.pos_art[p]:
            text += ", artillery"
        if sc.pos_mtop[p]:
            text += ", mountaintop"
        parts.append(text)
    b = int(sc.beach_box[h])
    if b >= 0:
        parts.append(f"landing beach {BOXES[b]} ({BEACH_NAMES[BOXES[b][0]]} {BOXES[b][1]})")
    return "; ".join(parts)


def scoring(sc) -> dict[int, str]:
    """position -> why it scores: 15.2 (sept15: goal 1 the positions projecting fire onto a landing
    beach hex, goal 2 zone B, goal 3 A5 and A6), 17.1 / 17.2 (assault: every position of zones A-D;
    provisional ones never count); Bloody Nose Ridge scores eliminated units, not positions (18.4)."""
    out: dict[int, str] = {}
    kind = sc.spec.victory
    for p, pid in enumerate(sc.pos_id):
        if sc.pos_prov[p] or not pid or kind == "bnr":
            continue
        if kind == "assault":
            out[p] = f"zone {pid[0]} (17.2)" + (", fires on a landing beach (17.1)" if sc.pos_beachfire[p] else "")
            continue
        why = []
        if sc.pos_beachfire[p]:
            why.append("fires on a landing beach (15.2 goal 1)")
        if pid[0] == "B":
            why.append("zone B (15.2 goal 2)")
        if pid in ("A5", "A6"):
            why.append("15.2 goal 3")
        if why:
            out[p] = ", ".join(why)
    return out


def objectives(sc) -> list[dict[str, Any]]:
    return [{"hex": int(sc.pos_hex[p]), "name": f"{sc.pos_id[p]}: {why}"} for p, why in scoring(sc).items()]


# ------------------------------------------------------------------------------------------- scene
def scene(core, view, game: int, viewer: int | None) -> dict[str, Any]:
    """The game in ``view`` as render.py shows it to ``viewer``: the counters on the map with their
    values and marks, the markers, the landing boxes and other holding boxes, the tracks, the fire
    card and the status lines.  ``viewer``: 0, the U.S. player, the only one, when ``view`` is
    ``core.view(state, 0)``; None when ``view`` is the real state, for a spectator, who sees every
    Japanese counter (``_jp_piece``).  Face-down depth and counterattack markers stay their kind
    only, as on render.py's full board (``render.marker_text``)."""
    sc, s, g = core.scenario, view, game
    pieces = []
    for h, (us, jp) in render.hex_contents(s, g).items():  # Japanese first, as render.py stacks them
        pieces += [_jp_piece(sc, s, g, j, h, viewer) for j in jp]
        pieces += [_us_piece(sc, s, g, u, h) for u in us]
    bnr = sc.spec.kind == "bnr"
    boxes = []
    if not bnr:
        for b, name in enumerate(BOXES):  # 5.0: the five beach landing boxes, north to south
            beach = " ".join(sc.grid.label(int(h)) for h in sc.box_beach[b] if h >= 0)
            boxes.append({"title": f"Landing box {name} (beach {beach})",
                          "pieces": [_us_piece(sc, s, g, u, -1) for u in render.box_units(s, g, b)]})
    for t, units in render.track_units(s, g).items():  # 2.1: units waiting for their turn of entry
        boxes.append({"title": f"Turn track: turn {t} ({render.turn_time(sc, t)})",
                      "pieces": [_us_piece(sc, s, g, u, -1) for u in units]})
    reserve = [int(j) for j in np.flatnonzero(s.jp_loc[g] == JP_RESERVE)]
    if reserve:  # 9.3: face down; only their number and types show
        boxes.append({"title": "Japanese reserve box", "pieces": [_jp_piece(sc, s, g, j, -1, viewer) for j in reserve]})
    elim = [int(j) for j in np.flatnonzero(s.jp_loc[g] == JP_ELIM)]
    if elim:
        boxes.append({"title": "Japanese eliminated elite units", "pieces": [_jp_piece(sc, s, g, j, -1, viewer) for j in elim]})
    gone = [int(u) for u in np.flatnonzero(s.us_loc[g] == US_ELIM)]
    if gone:
        boxes.append({"title": "U.S. eliminated", "pieces": [_us_piece(sc, s, g, u, -1) for u in gone]})
    cards = []
    k = int(s.fire_card[g])
    if k >= 0:  # 6.1: the fire card drawn this turn lies face up on the card/phase track
        cards.append({"name": f"Fire card {k + 1}", "text": render.fire_card_text(core, s, g)})
    return {
        "turn": int(s.turn[g]), "phase": PHASE_NAMES[int(s.phase[g])],
        "pieces": pieces, "markers": markers(core, s, g, viewer), "boxes": boxes, "cards": cards,
        "tracks": tracks(core, s, g), "dice": [], "roll": "",
        "status": render.status_lines(core, s, g, viewer) + render.forces_lines(core, s, g, viewer),
    }


def us_values(sc, u: int, steps: int) -> str:
    """A U.S. counter's printed values at ``steps`` (2.21): attack strength, its range when it has
    one (U: unlimited), the steps: '7-2 4st', '5 3st', '4-U 1st'."""
    text = str(int(sc.us_strength[u, steps]))
    rng = int(sc.us_range[u, steps])
    if rng > 0:
        text += "-" + ("U" if rng >= 99 else str(rng))
    return f"{text} {steps}st"


def us_name(sc, u: int, steps: int) -> str:
    """A U.S. counter's designation (2.21), and in parentheses the weapons a counter prints (8.21:
    reduced infantry; the others' are on the US Weapons Chart): 'A/1/1', 'A/1/1 (FT+BR+MG)'."""
    printed = int(sc.us_printed[u, steps])
    return str(sc.us_names[u]) + (f" ({render.weapons_text(printed)})" if printed > 0 else "")


def jp_name(sc, j: int) -> str:
    """A revealed Japanese counter's name and in parentheses the U.S. weapon requirements it prints
    (2.22): 'J47 (BR+BZ+FL)'."""
    req = render.weapons_text(int(sc.jp_requires[j]))
    return str(sc.jp_names[j]) + (f" ({req})" if req else "")


def jp_values(sc, j: int, rot: int = 0) -> str:
    """A revealed Japanese counter's printed values (2.22): its strength, 'elite' (a solid unit
    symbol), a tank's position colour: '3', '4 elite', '2 red'; a BNR fortification marker's
    blocked hexsides with its arrow turned ``rot`` steps clockwise from the west (19.1)."""
    if sc.jp_fort[j]:
        return ",".join(render.SIDES[(d + rot) % 6] for d in range(6) if sc.jp_blocked[j, d]) or "none"
    text = str(int(sc.jp_strength[j]))
    if sc.jp_elite[j]:
        text += " elite"
    if int(sc.jp_colour[j]) >= 0:
        text += f" {COLOURS[int(sc.jp_colour[j])]}"
    return text


def _us_piece(sc, s, g: int, u: int, h: int) -> dict[str, Any]:
    mark = ""
    if int(s.sel[g]) == u:
        mark = "selected"
    elif s.cc_units[g, u]:
        mark = "defending"  # in the close combat being resolved (render.py's magenta)
    elif s.att_units[g, u]:
        mark = "attacking"
    steps = int(s.us_steps[g, u])
    return {"id": u, "hex": h, "side": 0, "name": us_name(sc, u, steps),
            "symbol": US_SYMBOLS.get(int(sc.us_type[u]), "infantry"), "values": us_values(sc, u, steps),
            "mark": mark, "face_up": True}


def _jp_piece(sc, s, g: int, j: int, h: int, viewer: int | None) -> dict[str, Any]:
    """Japanese unit j as ``viewer`` may see it: the U.S. sees a counter face up (revealed on the
    map, or in the eliminated elite box) with its name and values, else face down: its type's
    symbol only (9.1).  A spectator (None) sees every counter's name and values, "face down" added
    to the name of one that lies face down."""
    loc = int(s.jp_loc[g, j])
    revealed = bool(s.jp_rev[g, j]) if loc == JP_MAP else loc == JP_ELIM
    face_up = revealed or viewer is None
    name = values = ""
    if face_up:
        name = jp_name(sc, j) + ("" if revealed else ", face down")
        values = jp_values(sc, j, int(s.jp_rot[g, j]))
    mark = "defending" if int(s.cc_jp[g]) == j else ""
    return {"id": len(sc.us_names) + j, "hex": h, "side": 1, "name": name,
            "symbol": JP_SYMBOLS.get(JP_TYPES[int(sc.jp_type[j])], "other"), "values": values, "mark": mark,
            "face_up": face_up}


def markers(core, s, g: int, viewer: int | None) -> list[dict[str, Any]]:
    """The map's markers (2.26) as render.py shows them: the scoring positions and whether each is
    secured (15.2: owner 0 secured, 1 held by a Japanese counter, -1 neither), garrisons (14.4),
    fortified positions (event), Japanese artillery destroyed (6.51), BNR attack orders and caves;
    on U.S. units disruption (7.6), action taken (7.2), heroes and inspired units (10.1, 10.16),
    command posts and their range (14.0, 14.2), Action Under Fire (18.34); on Japanese counters
    disruption (6.4) and depth / counterattack markers (2.24, 13.4); the target hex of the order
    being declared and the Japanese hexes attacked or barraged this Action Phase (8.31, 8.43)."""
    sc = core.scenario
    out: list[dict[str, Any]] = []
    jp_hexes = {int(s.jp_hex[g, j]) for j in np.flatnonzero(s.jp_loc[g] == JP_MAP)}
    sec = np.zeros(len(sc.pos_id), np.bool_)
    secured(core.tables, core.kernel_state(s), g, sec)  # 15.2, from the view: public facts only
    for p, why in scoring(sc).items():
        h = int(sc.pos_hex[p])
        owner = 0 if sec[p] else 1 if h in jp_hexes else -1
        state = "secured" if sec[p] else "held by the Japanese" if owner == 1 else "not secured"
        out.append({"hex": h, "kind": "objective", "owner": owner, "text": f"{sc.pos_id[p]}: {why}: {state}"})
    for p, h in enumerate(sc.pos_hex):
        h, pid = int(h), sc.pos_id[p] or "provisional position"
        if s.garrison[g, p]:
            out.append({"hex": h, "kind": "garrison", "owner": 0, "text": f"U.S. garrison in {pid} (14.4)"})
        if s.fort[g, p]:
            out.append({"hex": h, "kind": "fortified", "owner": 1, "text": f"{pid} fortified (event)"})
        if s.art_gone[g, p]:
            out.append({"hex": h, "kind": "artillery destroyed", "owner": 1,
                        "text": f"Japanese artillery destroyed in {pid} (6.51)"})
        if s.att_order[g, p]:
            out.append({"hex": h, "kind": "attack orders", "owner": 0, "text": f"U.S. attack orders on {pid} (event)"})
    for c in range(s.cave_hex.shape[1]):
        h = int(s.cave_hex[g, c])
        if h >= 0:
            out.append({"hex": h, "kind": "cave", "owner": 1, "text": "Hidden Caves (event)"})
    for u in np.flatnonzero(s.us_loc[g] == US_MAP):
        u, h, name = int(u), int(s.us_hex[g, u]), sc.us_names[u]

        def put(kind: str, text: str) -> None:
            out.append({"hex": h, "kind": kind, "owner": 0, "text": text})

        if s.us_dis[g, u]:
            put("disrupted", f"{name} disrupted (7.6)")
        if s.us_acted[g, u]:
            put("action taken", f"{name} has taken its action (7.2)")
        if int(s.hero[g, u]) == HERO:
            put("hero", f"hero with {name} (10.1)")
        elif int(s.hero[g, u]) == INSPIRED:
            put("inspired", f"{name} inspired (10.16)")
        if int(s.cp[g, u]) >= 0:
            put("command post", f"{name} command post, range {render.command_range(core, s, g, u)} (14.0, 14.2)")
        if s.us_auf[g, u]:
            put("action under fire", f"{name} Action Under Fire (18.34)")
    for j in np.flatnonzero(s.jp_loc[g] == JP_MAP):
        j, h = int(j), int(s.jp_hex[g, j])
        who = sc.jp_names[j] if render.jp_known(s, g, j, viewer) else "a face-down unit"
        if s.jp_dis[g, j]:
            out.append({"hex": h, "kind": "disrupted", "owner": 1, "text": f"{who} disrupted (6.4)"})
        for d in (int(s.jp_depth[g, j]), int(s.jp_ca[g, j])):
            if d >= 0:
                out.append({"hex": h, "kind": DEPTH_KINDS[int(sc.dm_kind[d])], "owner": 1,
                            "text": f"{render.marker_text(core, s, g, d, DEPTH_KINDS[int(sc.dm_kind[d])])} under {who} (2.24)"})
        if s.jp_attacked[g, j] or s.jp_barraged[g, j]:
            out.append({"hex": h, "kind": "attacked", "owner": 1,
                        "text": f"{who} attacked or barraged this Action Phase (8.31, 8.43)"})
    t = int(s.target[g])
    if t >= 0:
        out.append({"hex": t, "kind": "target", "owner": 1, "text": f"target hex {sc.hex_label(t)}"})
    if int(s.phase[g]) == P_HIT_PICK:
        for u in np.flatnonzero(s.tie_units[g] & (s.us_loc[g] == US_MAP)):
            out.append({"hex": int(s.us_hex[g, u]), "kind": "tied", "owner": 0,
                        "text": f"{sc.us_names[int(u)]} tied for a Japanese hit (6.31)"})
    return out


def tracks(core, s, g: int) -> list[dict[str, Any]]:
    """The turn track (2.1; 18.0's BNR track), the Infantry Loss Box against the catastrophic level
    (15.1; 18.41: infantry units eliminated), the actions of the turn (7.0), the naval fire and
    Dauntless markers (8.5), the hero markers placed (10.17), each command post's range on the
    command track (14.2)."""
    sc = core.scenario
    turn = int(s.turn[g])
    bnr = sc.spec.kind == "bnr"
    out = [{"name": f"Turn ({render.turn_time(sc, turn)})", "value": turn, "max": int(sc.spec.last_turn)}]
    if bnr:
        out.append({"name": "Infantry units eliminated (18.41)", "value": int(s.loss_box[g]),
                    "max": int(sc.bnr_catastrophic)})
    else:
        level = int(sc.catastrophic[min(max(turn, 0), len(sc.catastrophic) - 1)])
        out.append({"name": "Infantry Loss Box (15.1)", "value": int(s.loss_box[g])})
        out.append({"name": "Catastrophic loss level (15.1; 0: none this turn)", "value": level})
    out.append({"name": "Actions left (7.0)", "value": int(s.actions_left[g]), "max": 2})
    out.append({"name": "Naval fire markers (8.5)", "value": int(s.naval[g]), "max": int(sc.naval_max)})
    out.append({"name": "Dauntless airstrike markers (8.5)", "value": int(s.dauntless[g]),
                "max": int(sc.dauntless_max)})
    heroes = BNR_HEROES if bnr else len(sc.hero_names)  # 18.1: four in BNR
    out.append({"name": "Hero markers placed (10.17)", "value": int(s.heroes_placed[g]), "max": int(heroes)})
    for u in np.flatnonzero(s.cp[g] >= 0):
        out.append({"name": f"Command post {sc.us_names[int(u)]} range (14.2)",
                    "value": render.command_range(core, s, g, int(u)), "max": int(sc.command_track.max())})
    return out


# ------------------------------------------------------------------------------------- geometry
def _point(p) -> list[float]:
    return [_round(p[0]), _round(p[1])]


def _along(a, b, dist: float) -> list[float]:
    """The point ``dist`` hex radii from a toward b."""
    ax, ay, bx, by = float(a[0]), float(a[1]), float(b[0]), float(b[1])
    k = dist / (math.hypot(bx - ax, by - ay) or 1.0)
    return [_round(ax + (bx - ax) * k), _round(ay + (by - ay) * k)]


def _toward(a, b, share: float) -> list[float]:
    """The point ``share`` of the way from a to b."""
    return [_round(a[0] * (1 - share) + b[0] * share), _round(a[1] * (1 - share) + b[1] * share)]


def _disc(cx: float, cy: float, r: float, n: int = 10) -> list[list[float]]:
    return [[_round(cx + r * math.cos(2 * math.pi * i / n)), _round(cy + r * math.sin(2 * math.pi * i / n))]
            for i in range(n)]


def _round(x: float) -> float:
    return round(float(x), 3)
