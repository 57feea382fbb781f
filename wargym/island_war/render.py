"""Drawing an Island War board: a text board ("ansi") and a hex map image ("rgb_array").

    render_ansi(core, state, game, viewer) -> str             the board as text, legend, status
    render_rgb(core, state, game, viewer)  -> uint8[H, W, 3]  the map sheet with counters (pillow)

Both show the full board: Island War has no hidden units (every counter is face up, 2.3), so
``viewer`` (a player index or None) only names the point of view in the title.

Text board: flat-topped hexes in an offset layout, two text lines per hex, every even column half
a hex (one text line) lower, as on the map sheet::

     01     02     03           top line:    hex number, terrain letter, '*' objective
    0101C         0301J         bottom line: counter, e.g. U6-4 (US 6-4), J4-5, artillery U6/4
    U6-4   0201R  J4-5A                      (barrage/FPF), then a mark: @ selected, A attacking,
           J4-5D                             D defending, F giving FPF
    ~~~~~~ sea

Image: terrain colours and symbols, roads (solid) and trails (dashed) from hex centre to hex
centre, river hexsides blue, prohibited hexsides (cliffs) black, landing beaches as sand strips,
objective rings with the owner's flag, counters in the sides' colours (US olive with black print,
Japan tan with red print) showing the NATO type symbol, designation and values (attack-defense-
movement; artillery barrage/FPF/range), highlighted when selected, attacking or defending, and a
side panel with the status, the combat being declared, the objectives, the forces and the key.
The image is drawn at twice its size and scaled down (smooth edges); the same state always gives
the same bytes.
"""

from __future__ import annotations

import math
import textwrap

import numpy as np

from wargym.draw import INK, Canvas, corner, edge, wrap

from wargym.island_war.scenario import ARMOR, ARTILLERY, ENGINEER, PROHIBITED, RESULTS, RIVER, ROAD, TRAIL, Scenario
from wargym.island_war.state import ELIMINATED, ON_MAP, PHASE_NAMES, WAITING, as_arrays

SIDE_NAMES = ("US", "Japan")
SIDE_LETTERS = ("U", "J")
MARK_LEGEND = "@ selected  A attacking  D defending  F FPF"


# ------------------------------------------------------------------------------ facts of a board
def unit_values(sc: Scenario, u: int) -> str:
    """The values printed on a counter: attack-defense-movement, artillery barrage/FPF/range."""
    if sc.unit_type[u] == ARTILLERY:
        return f"{sc.unit_barrage[u]}/{sc.unit_fpf[u]}/{sc.unit_range[u]}"
    return f"{sc.unit_attack[u]}-{sc.unit_defense[u]}-{sc.unit_move[u]}"


def unit_short(sc: Scenario, u: int) -> str:
    """Side letter and the two combat values: U6-4, J4-5; artillery U6/4 (barrage/FPF)."""
    if sc.unit_type[u] == ARTILLERY:
        return f"{SIDE_LETTERS[sc.unit_side[u]]}{sc.unit_barrage[u]}/{sc.unit_fpf[u]}"
    return f"{SIDE_LETTERS[sc.unit_side[u]]}{sc.unit_attack[u]}-{sc.unit_defense[u]}"


def unit_mark(state, game: int, u: int) -> str:
    if state.selected[game] == u:
        return "@"
    if state.cb_attacker[game, u]:
        return "A"
    if state.cb_defender[game, u]:
        return "D"
    if state.cb_fpf[game, u]:
        return "F"
    return ""


def _units_by_hex(sc: Scenario, state, game: int) -> dict[int, int]:
    on = np.nonzero(state.unit_status[game] == ON_MAP)[0]
    return {int(state.unit_hex[game, u]): int(u) for u in on}


def _where(sc: Scenario, state, game: int, u: int) -> str:
    h = int(state.unit_hex[game, u])
    return f"{sc.unit_names[u]} ({unit_short(sc, u)}) in {sc.grid.label(h)}" if h >= 0 else sc.unit_names[u]


def result_text(core, state, game: int) -> str:
    """'US wins', 'Japan wins', 'draw', 'stopped (decision limit)' or '' while the game runs."""
    if state.truncated[game]:
        return "stopped at the decision limit"
    if not state.terminated[game]:
        return ""
    r = state.rewards[game]
    if r[0] > r[1]:
        return "US wins"
    if r[1] > r[0]:
        return "Japan wins"
    return "draw"


def current_combat(core, state, game: int) -> list[str]:
    """Lines describing the attack being declared (empty when none)."""
    from wargym.island_war.combat import attack_strength, crt_column, defense_strength, terrain_line

    sc = core.scenario
    att = np.nonzero(state.cb_attacker[game])[0]
    dfd = np.nonzero(state.cb_defender[game])[0]
    if len(att) == 0 and len(dfd) == 0:
        return []
    S = as_arrays(state)
    a = int(attack_strength(core.tables, S, game))
    d = int(defense_strength(core.tables, S, game))
    lines = []
    for u in att:
        how = " (barrage)" if state.cb_barrage[game, u] else ""
        lines.append(f"attacker {_where(sc, state, game, int(u))}{how}")
    for u in dfd:
        lines.append(f"defender {_where(sc, state, game, int(u))}")
    for u in np.nonzero(state.cb_fpf[game])[0]:
        lines.append(f"FPF      {_where(sc, state, game, int(u))}")
    extras = []
    if state.cb_gs_attack[game]:
        extras.append(f"+{state.cb_gs_attack[game]} ground support (barrage)")
    if state.cb_gs_defense[game]:
        extras.append(f"+{state.cb_gs_defense[game]} ground support (FPF)")
    if state.cb_banzai[game]:
        extras.append("BANZAI")
    if extras:
        lines.append(", ".join(extras))
    odds = f"attack {a} vs defense {d}: differential {a - d:+d}"
    if len(dfd) and len(att):
        line = int(terrain_line(core.tables, S, game))
        col = int(crt_column(core.tables, a - d))
        odds += f", column {sc.crt_column_labels[col]}, {sc.crt_line_names[line]} line"
    lines.append(odds)
    return lines


def last_roll(core, state, game: int) -> str:
    sc = core.scenario
    res = int(state.last_result[game])
    if res < 0:
        return ""
    text = f"last combat: die {state.last_die[game]} -> {RESULTS[res]}"
    col, line = int(state.last_column[game]), int(state.last_line[game])
    parts = [f"differential {state.last_differential[game]:+d}"]
    if 0 <= col < len(sc.crt_column_labels):
        parts.append(f"column {sc.crt_column_labels[col]}")
    if 0 <= line < len(sc.crt_line_names):
        parts.append(f"{sc.crt_line_names[line]} line")
    return f"{text} ({', '.join(parts)})"


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def status_lines(core, state, game: int) -> list[str]:
    """The status block shared by the text board and the image's side panel."""
    from wargym.island_war.victory import margin

    sc = core.scenario
    phasing = int(state.phasing[game])
    which = ("first", "second")[int(state.player_turn[game]) % 2]
    lines = [f"Game-Turn {state.turn[game]} of {sc.game_turns}, {SIDE_NAMES[phasing]} {which} Player-Turn",
             f"phase: {PHASE_NAMES[int(state.phase[game])]}; to decide: {SIDE_NAMES[int(state.current_player[game])]}"
             f"; decisions so far: {state.decisions[game]}",
             f"Ground Support Points left: US {state.gs_points[game, 0]}, Japan {state.gs_points[game, 1]}"]
    m = int(margin(core.tables, as_arrays(state), game))
    lines.append(f"victory margin (US - Japan VP): {_signed(m)}; US wins at {_signed(sc.us_wins_at_margin)} or "
                 f"more, Japan at {_signed(sc.japan_wins_at_margin)} or less")
    if state.selected[game] >= 0:
        lines.append(f"selected: {_where(sc, state, game, int(state.selected[game]))}")
    lines += current_combat(core, state, game)
    roll = last_roll(core, state, game)
    if roll:
        lines.append(roll)
    result = result_text(core, state, game)
    if result:
        lines.append(f"RESULT: {result}")
    return lines


def forces_lines(core, state, game: int) -> list[str]:
    sc = core.scenario
    st = state.unit_status[game]
    out = []
    for s, name in enumerate(SIDE_NAMES):
        mine = sc.unit_side == s
        waiting = np.nonzero(mine & (st == WAITING))[0]
        text = f"{name}: {int((mine & (st == ON_MAP)).sum())} on map, {int((mine & (st == ELIMINATED)).sum())} eliminated"
        if len(waiting):
            turns = sorted({int(sc.unit_arrives[u]) for u in waiting})
            text += f", {len(waiting)} waiting to enter (from turn {', '.join(map(str, turns))})"
        out.append(text)
    return out


def objective_lines(core, state, game: int) -> list[tuple[str, int]]:
    sc = core.scenario
    out = []
    for i, name in enumerate(sc.objective_names):
        owner = int(state.objective_owner[game, i])
        who = SIDE_NAMES[owner] if owner >= 0 else "nobody"
        out.append((f"{sc.grid.label(int(sc.objective_hex[i]))} {name} ({sc.objective_vp[i]} VP): {who}", owner))
    return out


# ------------------------------------------------------------------------------------ text board
CELL = 7         # characters per hex column (6 + a space)
MAX_WIDTH = 160  # text board lines stay within this


def render_ansi(core, state, game: int = 0, viewer: int | None = None) -> str:
    sc = core.scenario
    grid = sc.grid
    units = _units_by_hex(sc, state, game)
    passable = sc.hex_move_cost > 0
    objectives = set(int(h) for h in sc.objective_hex)
    codes = _terrain_codes(sc)
    cell = CELL if grid.columns * CELL <= MAX_WIDTH else CELL - 1  # wide maps: cells touch
    rows = [[" "] * (grid.columns * cell) for _ in range(2 * grid.rows + 1)]

    def put(y: int, x: int, text: str) -> None:
        rows[y][x:x + len(text)] = list(text)

    for h in range(grid.size):
        c, r = int(grid.plane_col[h]), int(grid.plane_row[h])
        y, x = 2 * r + (c % 2), c * cell  # even columns (odd c) one text line lower
        if not passable[h]:
            put(y, x, "  ~~  ")
            continue
        put(y, x, f"{grid.label(h)}{codes[sc.hex_terrain[h]]}{'*' if h in objectives else ''}")
        u = units.get(h)
        if u is not None:
            put(y + 1, x, (unit_short(sc, u) + unit_mark(state, game, u))[:6])
    board = ["".join(r).rstrip() for r in rows]
    land = [i for i, line in enumerate(board) if line.replace("~", "").strip()]
    if land:  # trim the open sea above and below the land
        board = board[max(land[0] - 1, 0):land[-1] + 2]
    header = "".join(f"{c + 1:02d}".center(cell - 1) + " " for c in range(grid.columns)).rstrip()
    view = f" (viewed by {SIDE_NAMES[viewer]})" if viewer is not None else ""

    terrain = "  ".join(f"{codes[i]} {n}" for i, n in enumerate(sc.terrain_names) if n in _land_terrains(sc))
    notes = [f"Terrain: {terrain}  ~ sea/impassable  * objective",
             "Units: U US, J Japan, attack-defense (artillery barrage/FPF)   marks: " + MARK_LEGEND]
    columns = max(len(header), 100)
    notes += unit_legend(sc, state, game, columns) + [""]
    notes += status_lines(core, state, game)
    notes.append("objectives: " + "; ".join(t for t, _ in objective_lines(core, state, game)))
    notes += forces_lines(core, state, game)
    text = [f"{sc.title}{view}", header, *board, ""]
    for line in notes:
        text += textwrap.wrap(line, width=columns, subsequent_indent="    ") or [""]
    return "\n".join(text) + "\n"


def unit_legend(sc: Scenario, state, game: int, width: int = 100) -> list[str]:
    """Under the board, per side: each unit on the map as its hex id beside its counter
    ("0712 J4-5A"), in hex order, so no counter has to be matched to its hex by eye; lines of at
    most ``width`` characters, never breaking an entry."""
    units = _units_by_hex(sc, state, game)
    lines = []
    for s, name in enumerate(SIDE_NAMES):
        mine = [f"{sc.grid.label(h)} {unit_short(sc, u)}{unit_mark(state, game, u)}"
                for h, u in sorted(units.items(), key=lambda hu: sc.grid.label(hu[0])) if sc.unit_side[u] == s]
        line = f"{name} units by hex:"
        for i, entry in enumerate(mine):
            entry += "," if i < len(mine) - 1 else ""
            if len(line) + 1 + len(entry) > width:
                lines.append(line)
                line = "   "
            line += " " + entry
        if mine:
            lines.append(line)
    return lines


def _terrain_codes(sc: Scenario) -> list[str]:
    """The map letter of each terrain type: the codes of configs/island_war/terrain.yaml (the
    compiled Scenario keeps the names only); an unknown terrain shows its initial."""
    return [_TERRAIN_LETTER.get(n, n[:1].upper()) for n in sc.terrain_names]


def _land_terrains(sc: Scenario) -> set[str]:
    """Names of the passable terrain types that occur on the map."""
    passable = set(int(t) for t in np.unique(sc.hex_terrain[sc.hex_move_cost > 0]))
    return {n for i, n in enumerate(sc.terrain_names) if i in passable}


_TERRAIN_LETTER = {"sea": "S", "clear": "C", "town": "T", "rough": "R", "jungle": "J", "swamp": "W",
                   "mountain": "M"}


# ----------------------------------------------------------------------------------------- image
HEX_R = 34          # hex circumradius in pixels of the final image
MARGIN = 22
TITLE_H = 64
PANEL_W = 380

TERRAIN_FILL = {
    "sea": (122, 172, 210), "clear": (228, 224, 172), "town": (204, 194, 178), "rough": (200, 170, 116),
    "jungle": (118, 166, 92), "swamp": (156, 190, 164), "mountain": (166, 132, 98),
}
GRID_LINE = (110, 104, 80)
SEA_GRID = (150, 192, 224)
COAST = (52, 72, 92)
ROAD_COLOUR = (150, 36, 28)
TRAIL_COLOUR = (118, 78, 40)
RIVER_COLOUR = (36, 96, 210)
CLIFF_COLOUR = (18, 18, 18)
BEACH_COLOUR = (244, 228, 160)
OBJECTIVE_COLOUR = (214, 160, 0)
US_FILL, US_INK = (120, 134, 72), (16, 20, 8)
JP_FILL, JP_INK = (226, 200, 146), (186, 20, 24)
SELECTED, ATTACKER, DEFENDER, FPF_COLOUR = (255, 214, 0), (255, 110, 0), (214, 0, 190), (0, 200, 230)
PAPER = (244, 240, 226)


def _terrain_symbol(cv: Canvas, name: str, cx: float, cy: float, r: float, h: int) -> None:
    """Small map symbols around the hex rim (the counter covers the centre)."""
    spots = [(corner(cx, cy, 0.58 * r, k)) for k in (0, 1, 2, 3, 4, 5)]
    if name == "jungle":
        for i, (x, y) in enumerate(spots):
            s = 0.11 * r * (1.0 + 0.25 * ((h + i) % 3 == 0))
            cv.ellipse(x, y, s, s, fill=(64, 122, 56), outline=(44, 92, 40), width=0.6)
    elif name == "rough":
        for x, y in spots[::2] + spots[1::4]:
            s = 0.09 * r
            cv.line([(x - s, y + s * 0.6), (x, y - s * 0.6), (x + s, y + s * 0.6)], (128, 96, 56), 1.1)
    elif name == "mountain":
        for x, y in (spots[4], spots[5], spots[1]):
            s = 0.17 * r
            cv.polygon([(x - s, y + s * 0.7), (x, y - s * 0.8), (x + s, y + s * 0.7)], fill=(120, 88, 60),
                       outline=(84, 60, 40), width=0.8)
    elif name == "swamp":
        for x, y in spots:
            s = 0.12 * r
            cv.line([(x - s, y), (x + s, y)], (60, 110, 150), 1.0)
            cv.line([(x - s * 0.5, y - s * 0.2), (x - s * 0.5, y - s * 0.9)], (60, 110, 60), 0.8)
            cv.line([(x + s * 0.4, y - s * 0.2), (x + s * 0.6, y - s * 0.9)], (60, 110, 60), 0.8)
    elif name == "town":
        for i, (x, y) in enumerate(spots):
            if (i + h) % 2 == 0:
                s = 0.08 * r
                cv.rect(x - s, y - s, x + s, y + s, fill=(92, 84, 78))


def _unit_symbol(cv: Canvas, kind: int, x0: float, y0: float, x1: float, y1: float, ink) -> None:
    """NATO unit-type symbol in the box (x0, y0)-(x1, y1)."""
    cv.rect(x0, y0, x1, y1, outline=ink, width=1.1)
    w, h = x1 - x0, y1 - y0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if kind == ARTILLERY:
        cv.ellipse(cx, cy, h * 0.2, h * 0.2, fill=ink)
    elif kind == ARMOR:
        cv.rect(x0 + w * 0.18, y0 + h * 0.22, x1 - w * 0.18, y1 - h * 0.22, outline=ink, width=1.0, radius=h * 0.28)
    elif kind == ENGINEER:
        top = y0 + h * 0.3
        bot = y1 - h * 0.3
        cv.line([(x0 + w * 0.25, bot), (x0 + w * 0.25, top), (x1 - w * 0.25, top), (x1 - w * 0.25, bot)], ink, 1.0)
        cv.line([(cx, top), (cx, bot)], ink, 1.0)
    else:  # infantry
        cv.line([(x0, y0), (x1, y1)], ink, 1.0, joint=False)
        cv.line([(x0, y1), (x1, y0)], ink, 1.0, joint=False)


def _designation(cv: Canvas, name: str, size: int, width: float) -> str:
    """Short designation for the top of a counter, cut to ``width``: '1/6 Marines' -> '1/6',
    '9 Tank Regt (a)' -> '9 Tank (a)', '2/124 Infantry (Oka)' -> '2/124 (Oka)'."""
    words = name.replace("(arty)", "").split()
    tail = [w for w in words if w.startswith("(")][:1]
    head = words[:1] if "/" in words[0] else [w for w in words[:2] if not w.startswith("(")]
    text = " ".join(head + tail)
    while len(text) > 1 and cv.text_width(text, size) > width:
        text = text[:-2] + "."
    return text


def _counter(cv: Canvas, sc: Scenario, u: int, cx: float, cy: float, r: float, mark: str) -> None:
    side = int(sc.unit_side[u])
    fill, ink = (US_FILL, US_INK) if side == 0 else (JP_FILL, JP_INK)
    s = 0.56 * r
    x0, y0, x1, y1 = cx - s, cy - s, cx + s, cy + s
    halo = {"@": SELECTED, "A": ATTACKER, "D": DEFENDER, "F": FPF_COLOUR}.get(mark)
    if halo:
        cv.rect(x0 - 4, y0 - 4, x1 + 4, y1 + 4, fill=halo, radius=5)
    cv.rect(x0 + 1.5, y0 + 1.5, x1 + 1.5, y1 + 1.5, fill=(40, 40, 30), radius=2.5)  # shadow
    cv.rect(x0, y0, x1, y1, fill=fill, outline=(30, 30, 20), width=0.8, radius=2.5)
    size = max(6, round(0.2 * r))
    cv.text(cx, y0 + 0.17 * r, _designation(cv, sc.unit_names[u], size, 2 * s - 3), size, ink, anchor="mm")
    bw, bh = 0.56 * r, 0.34 * r
    by = y0 + 0.31 * r
    _unit_symbol(cv, int(sc.unit_type[u]), cx - bw / 2, by, cx + bw / 2, by + bh, ink)
    cv.text(cx, y1 - 0.17 * r, unit_values(sc, u), max(7, round(0.3 * r)), ink, bold=True, anchor="mm")


def _flag(cv: Canvas, owner: int, x: float, y: float, s: float) -> None:
    if owner == 1:
        cv.rect(x - s, y - s * 0.68, x + s, y + s * 0.68, fill=(255, 255, 255), outline=(60, 60, 60), width=0.6)
        cv.ellipse(x, y, s * 0.38, s * 0.38, fill=(200, 16, 30))
    elif owner == 0:
        cv.rect(x - s, y - s * 0.68, x + s, y + s * 0.68, fill=(40, 60, 140), outline=(60, 60, 60), width=0.6)
        cv.text(x, y + 0.5, "\u2605", max(6, round(s * 1.3)), (255, 255, 255), anchor="mm")
    else:
        cv.rect(x - s, y - s * 0.68, x + s, y + s * 0.68, fill=(200, 200, 200), outline=(60, 60, 60), width=0.6)


def _board_geometry(sc: Scenario) -> tuple[np.ndarray, int, int]:
    """Hex centres in board pixels, the map's width and the board's height."""
    grid, R = sc.grid, HEX_R
    centers = grid.center * R + np.array([MARGIN, TITLE_H + MARGIN / 2])
    map_w = int((1.5 * (grid.columns - 1) + 2) * R) + 2 * MARGIN
    map_h = int(math.sqrt(3) * (grid.rows + 0.5) * R) + TITLE_H + MARGIN
    return centers, map_w, max(map_h, 900)


def _static_board(core):
    """The map as printed (terrain, hexsides, roads, hex numbers, the sheet's edge), drawn once
    per core and kept on it: it was most of the time of a board (~0.5 s on Saipan), and the HTML
    viewer draws one board per decision."""
    base = getattr(core, "_static_board_image", None)
    if base is not None:
        return base
    sc = core.scenario
    grid = sc.grid
    R = HEX_R
    centers, map_w, height = _board_geometry(sc)
    cv = Canvas(map_w + PANEL_W, height, PAPER)
    names = sc.terrain_names
    passable = sc.hex_move_cost > 0
    entry = sc.entry_hexes.any(axis=0)

    # terrain; the half hexes at the map edge are filled from their neighbours, then cut square
    x0, y0 = MARGIN, TITLE_H + MARGIN / 2
    x1, y1 = map_w - MARGIN, y0 + math.sqrt(3) * (grid.rows + 0.5) * R
    rim = [h for h in range(grid.size) if (grid.neighbours[h] < 0).any()]
    for h in rim:
        cv.polygon([corner(*centers[h], 2.2 * R, k) for k in range(6)], fill=_terrain_fill(sc, h))
    for h in range(grid.size):
        cx, cy = centers[h]
        cv.polygon([corner(cx, cy, R, k) for k in range(6)], fill=_terrain_fill(sc, h))
        _terrain_symbol(cv, names[sc.hex_terrain[h]], cx, cy, R, h)
    for h in range(grid.size):  # grid lines: land over sea
        cx, cy = centers[h]
        cv.polygon([corner(cx, cy, R, k) for k in range(6)], outline=GRID_LINE if passable[h] else SEA_GRID,
                   width=0.7)
    # hexside features, landing beaches and the coast, each edge once
    nbr = grid.neighbours
    for h in range(grid.size):
        cx, cy = centers[h]
        for d in range(6):
            n = int(nbr[h, d])
            if n < 0 or n < h:
                continue
            bits = int(sc.hexside[h, d])
            a, b = edge(cx, cy, R, d)
            if passable[h] != passable[n]:
                land, sea = (h, n) if passable[h] else (n, h)
                if entry[land]:  # a sand strip on the sea side of a landing beach
                    sx, sy = centers[sea]
                    cv.polygon([a, b, (b[0] * 0.72 + sx * 0.28, b[1] * 0.72 + sy * 0.28),
                                (a[0] * 0.72 + sx * 0.28, a[1] * 0.72 + sy * 0.28)], fill=BEACH_COLOUR)
                cv.line([a, b], COAST, 2.0)
            elif passable[h] and bits & PROHIBITED:
                cv.line([a, b], CLIFF_COLOUR, 4.5)
            if passable[h] and passable[n] and bits & RIVER:
                cv.line([a, b], RIVER_COLOUR, 4.5)
    for bit, colour, width in ((TRAIL, TRAIL_COLOUR, 2.0), (ROAD, ROAD_COLOUR, 3.2)):
        for h in range(grid.size):
            for d in range(3):  # each hexside once: N, NE and SE of every hex
                n = int(nbr[h, d])
                if n >= 0 and sc.hexside[h, d] & bit:
                    if bit == ROAD:
                        cv.line([tuple(centers[h]), tuple(centers[n])], colour, width)
                        for p in (centers[h], centers[n]):
                            cv.ellipse(p[0], p[1], width / 2, width / 2, fill=colour)
                    else:
                        cv.dashed(tuple(centers[h]), tuple(centers[n]), colour, width, 5, 3)
    # hex numbers
    for h in range(grid.size):
        cx, cy = centers[h]
        cv.text(cx, cy - 0.7 * R, grid.label(h), max(6, round(0.25 * R)),
                (70, 64, 48) if passable[h] else (168, 200, 228), anchor="mm")
    # the map sheet's edge
    for box in ((0, TITLE_H, x0, height), (x1, TITLE_H, map_w + PANEL_W, height), (0, TITLE_H, map_w, y0),
                (0, y1, map_w, height)):
        cv.rect(*box, fill=PAPER)
    cv.rect(x0, y0, x1, y1, outline=(40, 40, 30), width=2)
    core._static_board_image = cv.image
    return cv.image


def render_rgb(core, state, game: int = 0, viewer: int | None = None) -> np.ndarray:
    sc = core.scenario
    R = HEX_R
    centers, map_w, height = _board_geometry(sc)
    panel_x = map_w
    cv = Canvas(map_w + PANEL_W, height, PAPER)
    cv.image.paste(_static_board(core))  # the map as printed: drawn once per core
    # objectives: a gold ring and the owner's flag
    for i, h in enumerate(sc.objective_hex):
        cx, cy = centers[int(h)]
        cv.ellipse(cx, cy, 0.8 * R, 0.8 * R, outline=OBJECTIVE_COLOUR, width=2.6)
        _flag(cv, int(state.objective_owner[game, i]), cx + 0.75 * R, cy, 0.17 * R)
    # counters
    units = _units_by_hex(sc, state, game)
    for h in sorted(units):
        u = units[h]
        _counter(cv, sc, u, *centers[h], R, unit_mark(state, game, u))
    _combat_arrows(cv, sc, state, game, centers, R)

    # title
    result = result_text(core, state, game)
    view = f"  (viewed by {SIDE_NAMES[viewer]})" if viewer is not None else ""
    cv.rect(0, 0, map_w + PANEL_W, TITLE_H, fill=(48, 52, 40))
    cv.text(MARGIN, 10, f"{sc.title}{view}", 20, (250, 244, 220), bold=True)
    phase = PHASE_NAMES[int(state.phase[game])]
    sub = (f"Game-Turn {state.turn[game]}/{sc.game_turns}   {SIDE_NAMES[int(state.phasing[game])]} Player-Turn"
           f"   phase: {phase}")
    if result:
        sub += f"   RESULT: {result}"
    cv.text(MARGIN, 38, sub, 14, (236, 226, 190))
    _panel(cv, core, state, game, panel_x, TITLE_H + 12, PANEL_W - MARGIN)
    return cv.result()


def _terrain_fill(sc: Scenario, h: int) -> tuple[int, int, int]:
    t = int(sc.hex_terrain[h])
    return TERRAIN_FILL.get(sc.terrain_names[t], _fallback_colour(t))


def _fallback_colour(i: int) -> tuple[int, int, int]:
    return ((97 * i + 120) % 200 + 40, (57 * i + 180) % 200 + 40, (31 * i + 90) % 200 + 40)


def _combat_arrows(cv: Canvas, sc: Scenario, state, game: int, centers, R: float) -> None:
    dfd = np.nonzero(state.cb_defender[game])[0]
    if len(dfd) == 0:
        return
    targets = [centers[int(state.unit_hex[game, d])] for d in dfd]
    for u in np.nonzero(state.cb_attacker[game])[0]:
        ax, ay = centers[int(state.unit_hex[game, u])]
        tx, ty = min(targets, key=lambda p: (p[0] - ax) ** 2 + (p[1] - ay) ** 2)
        length = math.hypot(tx - ax, ty - ay)
        if length < 1e-6:
            continue
        ux, uy = (tx - ax) / length, (ty - ay) / length
        sx, sy = ax + ux * 0.45 * R, ay + uy * 0.45 * R
        ex, ey = tx - ux * 0.62 * R, ty - uy * 0.62 * R
        cv.line([(sx, sy), (ex, ey)], ATTACKER, 3.0)
        s = 0.22 * R
        cv.polygon([(ex + ux * s, ey + uy * s), (ex - uy * s * 0.6, ey + ux * s * 0.6),
                    (ex + uy * s * 0.6, ey - ux * s * 0.6)], fill=ATTACKER)


def _panel(cv: Canvas, core, state, game: int, x: float, y: float, width: float) -> None:
    sc = core.scenario
    x += 8
    width -= 8

    def heading(text: str) -> None:
        nonlocal y
        y += 6
        cv.text(x, y, text, 14, (60, 60, 40), bold=True)
        y += 18
        cv.line([(x, y), (x + width, y)], (150, 140, 110), 1)
        y += 5

    def para(text: str, size: int = 12, fill=INK, bold: bool = False, indent: float = 0) -> None:
        nonlocal y
        for line in wrap(cv, text, size, width - indent, bold):
            cv.text(x + indent, y, line, size, fill, bold=bold)
            y += size + 4

    heading("Status")
    for line in status_lines(core, state, game):
        para(line, bold=line.startswith("RESULT"))
    heading("Turn record (Ground Support US/Japan)")
    per_row = 8
    box = (width - 4) / per_row
    for t in range(1, sc.game_turns + 1):
        col, row = (t - 1) % per_row, (t - 1) // per_row
        bx, by = x + col * box, y + row * (box * 0.8 + 4)
        now = t == int(state.turn[game])
        cv.rect(bx, by, bx + box - 4, by + box * 0.8, fill=SELECTED if now else (250, 248, 238),
                outline=(90, 84, 60), width=1.2 if now else 0.8, radius=3)
        cv.text(bx + (box - 4) / 2, by + box * 0.26, str(t), 13, bold=True, anchor="mm")
        cv.text(bx + (box - 4) / 2, by + box * 0.6, f"{sc.ground_support[t, 0]}/{sc.ground_support[t, 1]}", 10,
                (80, 74, 56), anchor="mm")
    y += ((sc.game_turns + per_row - 1) // per_row) * (box * 0.8 + 4) + 2
    heading("Objectives")
    for text, owner in objective_lines(core, state, game):
        _flag(cv, owner, x + 8, y + 7, 6)
        para(text, indent=20)
    heading("Forces")
    for line in forces_lines(core, state, game):
        para(line)
    heading("Terrain key")
    shown = [n for n in sc.terrain_names if n in _land_terrains(sc) or n == "sea"]
    for i, name in enumerate(shown):
        col, row = i % 2, i // 2
        sx, sy = x + col * (width / 2), y + row * 26
        cx, cy = sx + 12, sy + 10
        cv.polygon([corner(cx, cy, 11, k) for k in range(6)],
                   fill=TERRAIN_FILL.get(name, _fallback_colour(sc.terrain_names.index(name))),
                   outline=GRID_LINE, width=0.7)
        cv.text(sx + 30, sy + 3, name, 12)
    y += 26 * ((len(shown) + 1) // 2) + 2
    heading("Map symbols")
    items = [("road", lambda a, b: cv.line([a, b], ROAD_COLOUR, 3.2)),
             ("trail", lambda a, b: cv.dashed(a, b, TRAIL_COLOUR, 2.0, 5, 3)),
             ("river hexside", lambda a, b: cv.line([a, b], RIVER_COLOUR, 4.5)),
             ("prohibited hexside", lambda a, b: cv.line([a, b], CLIFF_COLOUR, 4.5)),
             ("landing beach", lambda a, b: (cv.rect(a[0], a[1] - 6, b[0], b[1] + 6, fill=TERRAIN_FILL["sea"]),
                                             cv.rect(a[0], a[1] - 6, b[0], a[1], fill=BEACH_COLOUR),
                                             cv.line([(a[0], a[1] - 6), (b[0], b[1] - 6)], COAST, 2.0))),
             ("objective (owner's flag)", lambda a, b: (cv.ellipse((a[0] + b[0]) / 2, a[1], 9, 9,
                                                                    outline=OBJECTIVE_COLOUR, width=2.6)))]
    for i, (label, draw) in enumerate(items):
        col, row = i % 2, i // 2
        sx, sy = x + col * (width / 2), y + row * 22
        draw((sx + 2, sy + 9), (sx + 28, sy + 9))
        cv.text(sx + 36, sy + 2, label, 12)
    y += 22 * ((len(items) + 1) // 2) + 4
    heading("Counters")
    demo = []
    for kind in (0, 2, 3, 1):  # infantry, armor, artillery, engineer
        for side in (0, 1):
            hits = np.nonzero((sc.unit_type == kind) & (sc.unit_side == side))[0]
            if len(hits):
                demo.append(int(hits[0]))
    r = 34.0
    for i, u in enumerate(demo[:8]):
        _counter(cv, sc, u, x + 22 + i * (width - 20) / max(len(demo[:8]), 1), y + 22, r, "")
    y += 48
    para("attack-defense-movement; artillery: barrage/FPF/range (US olive, Japan tan)", size=11)
    y += 4
    for i, (label, colour) in enumerate((("selected", SELECTED), ("attacking", ATTACKER),
                                         ("defending", DEFENDER), ("FPF", FPF_COLOUR))):
        sx = x + i * (width / 4)
        cv.rect(sx, y, sx + 14, y + 14, fill=colour, radius=3)
        cv.text(sx + 19, y + 1, label, 11)
