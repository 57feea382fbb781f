"""Drawing an Attu board: a text board ("ansi") and a map image ("rgb_array").

    render_ansi(core, state, game, viewer) -> str             the board as text, legend, status
    render_rgb(core, state, game, viewer)  -> uint8[H, W, 3]  the map with counters and a side panel

``viewer`` is a player index (0 the U.S., 1 Japan) or None for the full board (a replay).  2.5 fog
of war: the U.S. sees a face-down Japanese unit only as a rising sun (no type, ratings or name, so an
Unknown looks like any unrevealed Infantry or Artillery), and never the Japanese off-map units, the
Unknown tables, the Komandorski chits before they are turned (12.1) nor the victory point chits
(14.0).  Everything the U.S. is shown goes through ``pieces``, which hands the drawing code no unit
index for a hidden counter and orders a stack so that nothing hidden decides the order; Japan and
the full board see every counter, a face-down one with a small rising-sun corner.

Text board: flat-topped hexes in an offset layout, two text lines per hex, the odd columns (0101,
0301, ...) one text line lower, as on the map (2717 borders 2617 and 2618)::

       01  02  03       top line:    level 0-4 ('~' sea, '-' land outside the scenario), then
    01     2*A              '*' Victory Hex, '=' lake or ':' dry river bed, then a Landing Zone
       1   U3x 0:           letter (0201: level 2, a Victory Hex, zone A)
    02 J2? 3   J1a@     bottom line: the stack: side (U/J), units, type (i r e d a u, x mixed,
       2=      ~~~          ? face-down), then a mark: @ selected, ! melee, % airpower, # hex asked

Image: hexes coloured by level (sea blue), lakes, dry river beds from hex centre to hex centre,
slope art as hachures inside the hex that carries it (5.3), cliffs as thick black hexsides (5.7),
victory zone boundaries dashed red (10.0), landing zone boxes with letter and capacity (9.2.1),
Victory Hexes with a yellow star (3.8.1, green ring when the zone is cleared), counters (U.S. olive,
Japanese tan, face-down: a red disc on white), the selected unit, declared melees (arrows), the melee
being fought and the airpower targets highlighted, and a side panel with the status, the turn and
casualty tracks and the key.  Drawn at twice the size and scaled down; the same
state always gives the same bytes.
"""

from __future__ import annotations

import math
import textwrap
from functools import lru_cache
from typing import NamedTuple

import numpy as np
from PIL import Image, ImageDraw

from wargym.attu.board import side_of
from wargym.attu.fog import hidden_units
from wargym.attu.scenario import (ARTILLERY, DEPOT, ENGINEER, JAPAN, LZ_LETTERS, RECON, SECURED_ZONES,
                                  STAGING_D_TO_G, STAGING_H_OR_I, TURN_0_DATE, UNKNOWN, US, WEATHERS, ZONE_LETTERS,
                                  ZONE_NAMES, Scenario, load_data)
from wargym.attu.state import (ACT_ORDER, ACT_SELECT, AIR_TARGET, HERO_ARNOLD, HERO_MARTINEZ, HERO_YAMASAKI,
                               LOC_ASIDE, LOC_ELIM, LOC_MAP, LOC_NAMES, LOC_NONE, LOC_OUT, LOC_RESERVE, LOC_STAGING,
                               LOSS, OPT_HEROES, OPT_KOMANDORSKI, OPT_VP_CHITS, PHASE_NAMES, RANGED_TARGET, SLOT)
from wargym.draw import INK, SCALE, Canvas, corner, edge, wrap

SIDE_NAMES = ("US", "Japan")
SIDE_LETTERS = ("U", "J")
TYPE_LETTERS = "iredua"           # UNIT_TYPES order: infantry recon engineer depot unknown artillery
HERO_NAMES = {HERO_MARTINEZ: "Joe Martinez", HERO_ARNOLD: "General Arnold", HERO_YAMASAKI: "Colonel Yamasaki"}  # 11.0
STAGING_NAMES = {STAGING_D_TO_G: "D-G", STAGING_H_OR_I: "H/I"}
MAX_LINE = 200


# ----------------------------------------------------------------------------- what a viewer sees
class Piece(NamedTuple):
    """One counter as a viewer sees it.  ``unit`` is -1 for a counter hidden from the viewer (2.5)."""

    unit: int
    side: int
    face_down: bool
    selected: bool = False
    melee: bool = False       # declared a Melee (8.2)
    hits: bool = False        # waiting to take hits (8.0)


def sides(core, state, game: int) -> np.ndarray:
    """int[U]: each unit's side (board.side_of: captured U.S. artillery fights for the Japanese)."""
    return np.array([side_of(core.tables, core.kernel_state(state), game, u) for u in range(len(core.scenario.unit_side))])


def seen(core, state, game: int, viewer: int | None) -> np.ndarray:
    """bool[U]: whether ``viewer`` may know which counter each unit is (fog.hidden_from, 2.5); the
    full board (None) shows everything."""
    if viewer is None:
        return np.ones(len(core.scenario.unit_side), dtype=bool)
    return ~hidden_units(core, state.take([game]), viewer)[0]


def pieces(core, state, game: int, viewer: int | None) -> dict[int, list[Piece]]:
    """hex -> its counters as ``viewer`` sees them: the known ones by unit index, then the hidden ones
    (ordered by their marks only, so swapping two hidden units changes nothing)."""
    on = np.nonzero(state.unit_loc[game] == LOC_MAP)[0]
    side, known = sides(core, state, game), seen(core, state, game, viewer)
    pool = state.loss_pool[game] & (state.phase[game] == LOSS)
    out: dict[int, list[Piece]] = {}
    hidden: dict[int, list[Piece]] = {}
    for u in on:
        u = int(u)
        h = int(state.unit_hex[game, u])
        p = Piece(u, int(side[u]), bool(state.face_down[game, u]), int(state.selected[game]) == u,
                  bool(state.melee_target[game, u] >= 0), bool(pool[u]))
        if known[u]:
            out.setdefault(h, []).append(p)
        else:
            hidden.setdefault(h, []).append(p._replace(unit=-1))
    for h, ps in hidden.items():
        out.setdefault(h, []).extend(sorted(ps))
    return {h: out[h] for h in sorted(out)}


def holder(stack: list[Piece] | None) -> int:
    """Side occupying a hex, -1 empty (the sides never share a hex)."""
    return stack[0].side if stack else -1


def unit_code(sc: Scenario, state, game: int, p: Piece) -> str:
    """A counter in words: '1/17 A 6/2r2 4st' (melee/ranged dice at the steps left, range, steps),
    'Inf 80 3/1r2', 'Unknown 126 table 1111122223', 'face-down' when hidden; then its marks."""
    if p.unit < 0:
        return "face-down"
    u = p.unit
    k = int(state.unit_steps[game, u])
    t = int(sc.unit_type[u])
    text = sc.unit_names[u]
    if t == UNKNOWN:
        text += " table " + "".join(str(int(v)) for v in sc.unit_table[u])
    elif k > 0:
        text += f" {sc.unit_melee[u, k - 1]}/{sc.unit_ranged[u, k - 1]}r{sc.unit_range[u]}"
        if sc.unit_steps[u] > 1:
            text += f" {k}st"
    if state.captured[game, u]:
        text += " captured"
    if p.face_down:
        text += " face-down"
    marks = "@" * p.selected + "m" * p.melee + "h" * p.hits + "*" * bool(state.acted[game, u])
    return text + (f" [{marks}]" if marks else "")


def stack_code(sc: Scenario, stack: list[Piece]) -> str:
    """Three characters for a stack: 'U3x' three U.S. units of mixed types, 'J2?' two face-down."""
    n = len(stack)
    letters = sorted({"?" if p.unit < 0 else TYPE_LETTERS[int(sc.unit_type[p.unit])] for p in stack})
    kind = letters[0] if len(letters) == 1 else "x"
    text = f"{SIDE_LETTERS[stack[0].side]}{n}"
    return text + kind if n < 10 else text


def hex_marks(state, game: int, stacks: dict[int, list[Piece]]) -> dict[int, str]:
    """hex -> mark of the text board: @ selected unit, ! melee, % airpower target, # hex asked."""
    marks: dict[int, str] = {}
    h = int(state.sel_hex[game])
    if h >= 0:
        marks[h] = "#"
    for i in range(int(state.air_n[game])):
        if state.air_target[game, i] >= 0:
            marks[int(state.air_target[game, i])] = "%"
    for h in melee_hexes(state, game):
        marks[h] = "!"
    for h, ps in stacks.items():
        if any(p.selected for p in ps):
            marks[h] = "@"
    return marks


def melee_hexes(state, game: int) -> list[int]:
    """Hexes under a declared Melee (8.2) and the one being fought."""
    on = state.unit_loc[game] == LOC_MAP
    hexes = set(int(h) for h in state.melee_target[game][on & (state.melee_target[game] >= 0)])
    if state.mel_hex[game] >= 0:
        hexes.add(int(state.mel_hex[game]))
    return sorted(hexes)


def melee_arrows(state, game: int) -> list[tuple[int, int]]:
    """(from hex, to hex) of each declared Melee, once per pair of hexes."""
    on = state.unit_loc[game] == LOC_MAP
    us = np.nonzero(on & (state.melee_target[game] >= 0))[0]
    return sorted({(int(state.unit_hex[game, u]), int(state.melee_target[game, u])) for u in us})


# ------------------------------------------------------------------------------------- status
def date(turn: int) -> str:
    """The Turn Track's date of ``turn`` (12.2: turn 1 is May 11; the track runs into June)."""
    return may_date(TURN_0_DATE + int(turn))


def may_date(day: int) -> str:
    """Day ``day`` counted from May 1 (a Komandorski Effect chit's date, 12.1.1), as a date."""
    return f"May {day}" if day <= 31 else f"June {day - 31}"


def result_text(state, game: int) -> str:
    if state.truncated[game]:
        return "stopped at the decision limit"
    if not state.terminated[game]:
        return ""
    r = state.rewards[game]
    return "US wins" if r[0] > r[1] else "Japan wins" if r[1] > r[0] else "draw"


def _where(core, state, game: int, u: int, viewer: int | None) -> str:
    sc = core.scenario
    if not seen(core, state, game, viewer)[u]:
        loc = int(state.unit_loc[game, u])
        return f"a face-down Japanese unit in {sc.grid.label(int(state.unit_hex[game, u]))}" if loc == LOC_MAP \
            else "a Japanese unit off the map"
    text = f"{SIDE_NAMES[int(sides(core, state, game)[u])]} {sc.unit_names[u]}"
    loc = int(state.unit_loc[game, u])
    if loc == LOC_MAP:
        return f"{text} in {sc.grid.label(int(state.unit_hex[game, u]))}"
    if loc == LOC_STAGING:
        return f"{text} in staging zone {_staging_name(int(state.unit_hex[game, u]))}"
    return f"{text} ({LOC_NAMES[loc]})"


def _staging_name(code: int) -> str:
    return LZ_LETTERS[code] if 0 <= code < len(LZ_LETTERS) else STAGING_NAMES.get(code, str(code))


def game_end_line(core, state, game: int, viewer: int | None) -> str:
    """12.1 Komandorski Effect / the scenario's last date, as far as ``viewer`` may know it."""
    sc = core.scenario
    t = core.tables
    last = int(state.last_turn[game])
    if not t.opts[OPT_KOMANDORSKI]:
        return f"game ends after {date(last)}" if last >= 0 else ""
    rev = int(state.ke_revealed[game])
    effect, delay = int(state.ke_effect[game]), int(state.ke_delay[game])
    if viewer == US:
        if rev == 0:
            return f"Komandorski Effect: chits hidden until {date(sc.komandorski_turn)}"
        if rev == 1:
            return f"Komandorski Effect: May {effect}; delay chit hidden"
        return f"Komandorski Effect: May {effect}, delay {delay} turn(s): game ends after {date(last)}"
    where = ("hidden from the US", "effect revealed", "revealed")[min(rev, 2)]
    text = f"Komandorski Effect: May {effect}, delay {delay} turn(s), game ends after {may_date(effect + delay - 1)}"
    return f"{text} ({where})"


def status_lines(core, state, game: int, viewer: int | None) -> list[str]:
    """The status block shared by the text board and the image's side panel."""
    sc = core.scenario
    g = game
    tables = core.tables
    turn = int(state.turn[g])
    kind = ["Night Turn" if state.night[g] else "Day Turn"] + ["Refit Turn"] * bool(state.refit[g])
    lines = [f"Turn {turn}: {date(turn)}, weather {WEATHERS[int(state.weather[g])]}, {', '.join(kind)}"]
    end = game_end_line(core, state, g, viewer)
    if end:
        lines[0] += f"; {end}"
    phase = int(state.phase[g])
    line = f"phase: {PHASE_NAMES[phase]}; to decide: {SIDE_NAMES[int(state.current_player[g])]}; " \
           f"decisions so far: {int(state.decisions[g])}"
    if phase in (ACT_SELECT, SLOT, ACT_ORDER, RANGED_TARGET, AIR_TARGET):
        which = ("first", "second")[int(state.act_step[g])]
        line += f"; acting: {SIDE_NAMES[int(state.acting[g])]} ({which} player, step {5 + int(state.act_step[g])})"
    lines.append(line)
    lines.append(f"Casualty Track: {int(state.casualties[g])} of {sc.casualty_max}; "
                 f"Airpower: US {int(state.airpower[g, 0])}, Japan {int(state.airpower[g, 1])}")
    air = [sc.grid.label(int(h)) for h in state.air_target[g, :int(state.air_n[g])] if h >= 0]
    if air:
        lines[-1] += f"; airpower targets: {', '.join(air)}"
    stacks = pieces(core, state, g, viewer)
    vh = []
    targets = set(int(h) for h in sc.target_hex)
    for z, h in enumerate(sc.victory_hex):
        h = int(h)
        if not sc.land[h]:
            continue
        who = holder(stacks.get(h))
        mark = " (target)" if h in targets and len(targets) < 6 else ""
        vh.append(f"{sc.grid.label(h)} {ZONE_NAMES[z]}{mark}: {SIDE_NAMES[who] if who >= 0 else 'empty'}")
    lines.append("Victory Hexes: " + "; ".join(vh))
    cleared = [ZONE_NAMES[z] for z in range(6) if state.zone_cleared[g, z]]
    lines.append(f"Zones cleared: {', '.join(cleared) if cleared else 'none'}")
    if tables.opts[OPT_HEROES]:
        used = [name for k, name in HERO_NAMES.items() if state.heroes_used[g, k]]
        lines[-1] += f"; heroes used: {', '.join(used) if used else 'none'}"
    if state.secured[g].any():
        secured = [ZONE_NAMES[z] for z, s in zip(SECURED_ZONES, state.secured[g]) if s]
        lines[-1] += "; secured (15.3): " + ", ".join(secured)
    if tables.opts[OPT_VP_CHITS] and viewer != US:  # 14.0: hidden from the U.S. until the end
        chits = []
        for z in range(6):
            v, c = int(state.vp_value[g, z]), int(state.vp_cancel[g, z])
            text = "cancelled" if c == -1 else f"{max(v, 0) + max(c, 0)} VP"
            chits.append(f"{sc.grid.label(int(sc.victory_hex[z]))} {text}")
        lines.append("Victory point chits (hidden from the US): " + ", ".join(chits))
    lines += forces_lines(core, state, g, viewer)
    sel = int(state.selected[g])
    if sel >= 0:
        lines.append(f"selected: {_where(core, state, g, sel, viewer)}")
    if state.sel_hex[g] >= 0:
        lines.append(f"hex in question: {sc.grid.label(int(state.sel_hex[g]))}")
    if state.mel_hex[g] >= 0:
        lines.append(f"melee in {sc.grid.label(int(state.mel_hex[g]))}, round {int(state.mel_round[g]) + 1}")
    if state.loss_hits[g] > 0:
        lines.append(f"hits to allocate: {int(state.loss_hits[g])} by {SIDE_NAMES[int(state.loss_side[g])]}")
    if state.refit[g] and state.refit_steps[g] > 0:
        lines.append(f"refit steps to place: {int(state.refit_steps[g])}")
    result = result_text(state, g)
    if result:
        lines.append(f"RESULT: {result}")
    return lines


def forces_lines(core, state, game: int, viewer: int | None) -> list[str]:
    """Counters off the map; the U.S. learns of the Japanese only those on the map and eliminated."""
    sc = core.scenario
    loc = state.unit_loc[game]
    side = np.where(state.captured[game], JAPAN, sc.unit_side)
    play = sc.unit_in_play
    us = (side == US) & play
    text = f"US: {int((us & (loc == LOC_MAP)).sum())} on map"
    staging = np.nonzero(us & (loc == LOC_STAGING))[0]
    if len(staging):
        codes = sorted(set(int(state.unit_hex[game, u]) for u in staging))
        per = ", ".join(f"{_staging_name(c)} {int((state.unit_hex[game, staging] == c).sum())}" for c in codes)
        text += f", {len(staging)} staging ({per})"
    for code, name in ((LOC_RESERVE, "reinforcements"), (LOC_NONE, "not yet placed"), (LOC_ELIM, "eliminated"),
                       (LOC_ASIDE, "set aside"), (LOC_OUT, "out of the game")):
        n = int((us & (loc == code)).sum())
        if n or code == LOC_ELIM:
            text += f", {n} {name}"
    jp = (side == JAPAN) & play
    # 2.5, 8.5: to the U.S., a melted Unknown and an eliminated Infantry look alike
    gone = (f"{int(state.jp_removed[game])} counters removed" if viewer == US
            else f"{int((jp & (loc == LOC_ELIM)).sum())} eliminated")
    jtext = f"Japan: {int((jp & (loc == LOC_MAP)).sum())} on map, {gone}"
    if viewer != US:  # the pool and the Unknowns off the map are Japanese secrets (2.5)
        unk = sc.unit_type == UNKNOWN
        jtext += f"; off map (hidden from the US): {int((jp & ~unk & (loc == LOC_RESERVE)).sum())} Infantry in " \
                 f"the pool, {int((jp & unk & (loc == LOC_RESERVE)).sum())} Unknowns"
        n = int((jp & (loc == LOC_NONE)).sum())
        if n:
            jtext += f", {n} not yet placed"
    return [text, jtext]


# ------------------------------------------------------------------------------------ text board
CELL = 4   # characters per hex column


@lru_cache(maxsize=16)
def _island(sc: Scenario) -> tuple[np.ndarray, np.ndarray]:
    """Land and victory zone of every hex of the whole map, the parts outside a short scenario's area
    included (the Scenario keeps only the playable ones)."""
    from wargym.data import config_path

    grid = sc.grid
    land, zone = sc.land.copy(), sc.zone.astype(np.int16)
    try:
        m = load_data(config_path("attu", "map.yaml"))
        levels, zones = m["levels"], m["zones"]
        for h in range(grid.size):
            r, c = int(grid.plane_row[h]), int(grid.plane_col[h])
            if levels[r][c] != ".":
                land[h] = True
                zone[h] = ZONE_LETTERS.find(zones[r][c])
    except (KeyError, IndexError, TypeError, OSError, ValueError):
        land |= sc.level > 0
    land.setflags(write=False)
    zone.setflags(write=False)
    return land, zone


def text_cell(sc: Scenario, h: int) -> tuple[int, int]:
    """(line, column) of hex h's top line on the text board (before the header is prepended)."""
    grid = sc.grid
    c, r = int(grid.plane_col[h]), int(grid.plane_row[h])
    shifted = (c + 1) % 2 if grid.odd_columns_down else c % 2
    return 2 * r + shifted, 3 + c * CELL


def board_lines(core, state, game: int = 0, viewer: int | None = None) -> list[str]:
    """The text map: a column header, then two lines per hex row (see the module docstring)."""
    sc = core.scenario
    grid = sc.grid
    land, _ = _island(sc)
    stacks = pieces(core, state, game, viewer)
    marks = hex_marks(state, game, stacks)
    victory = set(int(h) for h in sc.victory_hex)
    width = 3 + grid.columns * CELL
    rows = [[" "] * width for _ in range(2 * grid.rows + 1)]
    for r in range(grid.rows):
        rows[2 * r][0:2] = list(f"{r + 1:02d}")

    def put(y: int, x: int, text: str) -> None:
        rows[y][x:x + len(text)] = list(text)

    for h in range(grid.size):
        y, x = text_cell(sc, h)
        if not land[h]:
            put(y, x, "~~~")
            put(y + 1, x, "~~~")
            continue
        if not sc.land[h]:
            put(y, x, "---")
            continue
        feature = "*" if h in victory else "=" if sc.lake[h] else ":" if sc.river[h].any() else " "
        lz = int(sc.lz_of_hex[h])
        put(y, x, f"{int(sc.level[h])}{feature}{LZ_LETTERS[lz] if lz >= 0 else ' '}")
        if h in stacks:
            put(y + 1, x, stack_code(sc, stacks[h]))
        if h in marks:
            put(y + 1, x + 3, marks[h])
    header = "   " + "".join(f"{c + 1:02d}".ljust(CELL) for c in range(grid.columns))
    return [header.rstrip()] + ["".join(r).rstrip() for r in rows]


LEGEND = [
    "Map: 0-4 terrain level (5.4), ~ sea, - outside this scenario; then * Victory Hex, = lake, : dry river bed; "
    "then A-I Landing Zone",
    "Counters: U US / J Japan, how many, type (i infantry, r recon, e engineer, d depot, a artillery, u unknown, "
    "x mixed, ? face-down); then @ selected unit, ! melee, % airpower target, # hex in question",
    "Stacks below: melee/ranged dice r range, steps; [@ selected, m declared a melee, h takes hits, * has acted]",
]


def render_ansi(core, state, game: int = 0, viewer: int | None = None) -> str:
    sc = core.scenario
    board = board_lines(core, state, game, viewer)
    body = board[1:]
    land = [i for i, line in enumerate(body) if line[3:].replace("~", "").strip()]
    if land:  # trim the open sea above and below the island
        body = body[max(land[0] - 1, 0):land[-1] + 2]
    view = f" (viewed by {SIDE_NAMES[viewer]})" if viewer is not None else " (full board)"
    text = [f"War in the Wind: The Battle for Attu Island -- {sc.name}{view}", board[0], *body, ""]
    notes = LEGEND + [""] + status_lines(core, state, game, viewer)
    stacks = pieces(core, state, game, viewer)
    if stacks:
        notes.append("Stacks: " + "; ".join(
            f"{sc.grid.label(h)} {', '.join(unit_code(sc, state, game, p) for p in ps)}" for h, ps in stacks.items()))
    for line in notes:
        text += textwrap.wrap(line, width=MAX_LINE, subsequent_indent="    ") or [""]
    return "\n".join(text) + "\n"


# ----------------------------------------------------------------------------------------- image
HEX_R = 22          # hex circumradius in pixels of the final image
MARGIN = 16
TITLE_H = 50
PANEL_W = 440

LEVEL_FILL = ((196, 214, 158), (170, 196, 128), (190, 180, 122), (166, 138, 98), (226, 224, 216))
SEA, SEA_GRID, OUT_OF_PLAY = (124, 170, 206), (146, 188, 220), (196, 196, 188)
GRID_LINE, COAST = (120, 112, 88), (40, 62, 84)
LAKE, LAKE_INK = (150, 196, 232), (52, 104, 168)
RIVER = (64, 122, 206)
SLOPE_INK = (104, 66, 30)
CLIFF = (16, 16, 16)
ZONE_LINE = (208, 24, 24)
STAR, STAR_INK = (250, 206, 20), (120, 90, 0)
LZ_FILL, LZ_INK = (250, 250, 244), (24, 40, 120)
US_FILL, US_INK = (120, 134, 72), (14, 18, 6)
JP_FILL, JP_INK = (226, 200, 146), (178, 18, 22)
SUN = (200, 16, 30)
SELECTED, MELEE, MELEE_NOW, AIR, ASKED, HITS = (255, 214, 0), (255, 110, 0), (214, 0, 190), (0, 190, 230), \
    (0, 150, 90), (230, 0, 0)
PAPER = (244, 240, 226)


def _hexagon(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    return [corner(cx, cy, r, k) for k in range(6)]


def _star(cv: Canvas, cx: float, cy: float, r: float, fill, outline) -> None:
    pts = []
    for i in range(10):
        a = math.radians(-90 + 36 * i)
        rr = r if i % 2 == 0 else r * 0.42
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    cv.polygon(pts, fill=fill, outline=outline, width=0.6)


def _unit_symbol(cv: Canvas, kind: int, x0: float, y0: float, x1: float, y1: float, ink) -> None:
    """Unit-type symbol (2.1) in the box (x0, y0)-(x1, y1)."""
    w, h = x1 - x0, y1 - y0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if kind == UNKNOWN:
        cv.text(cx, cy, "?", h * 1.3, ink, bold=True, anchor="mm")
        return
    cv.rect(x0, y0, x1, y1, outline=ink, width=0.8)
    if kind == ARTILLERY:
        cv.ellipse(cx, cy, h * 0.2, h * 0.2, fill=ink)
    elif kind == ENGINEER:
        top, bot = y0 + h * 0.3, y1 - h * 0.3
        cv.line([(x0 + w * 0.25, bot), (x0 + w * 0.25, top), (x1 - w * 0.25, top), (x1 - w * 0.25, bot)], ink, 0.8)
        cv.line([(cx, top), (cx, bot)], ink, 0.8)
    elif kind == RECON:
        cv.line([(x0, y1), (x1, y0)], ink, 0.8, joint=False)
    elif kind == DEPOT:
        cv.line([(x0, y1 - h * 0.3), (x1, y1 - h * 0.3)], ink, 0.8, joint=False)
    else:  # infantry
        cv.line([(x0, y0), (x1, y1)], ink, 0.8, joint=False)
        cv.line([(x0, y1), (x1, y0)], ink, 0.8, joint=False)


def _rising_sun(cv: Canvas, cx: float, cy: float, s: float) -> None:
    for i in range(8):
        a = math.radians(22.5 + 45 * i)
        cv.line([(cx + 0.3 * s * math.cos(a), cy + 0.3 * s * math.sin(a)),
                 (cx + 0.46 * s * math.cos(a), cy + 0.46 * s * math.sin(a))], (236, 150, 150), 0.8, joint=False)
    cv.ellipse(cx, cy, 0.27 * s, 0.27 * s, fill=SUN)


def _counter(cv: Canvas, sc: Scenario, p: Piece, k: int, cx: float, cy: float, s: float) -> None:
    """A counter of side ``s`` centred on (cx, cy) with ``k`` steps left: a rising sun when hidden,
    else the type symbol, the melee-ranged dice and step pips."""
    x0, y0, x1, y1 = cx - s / 2, cy - s / 2, cx + s / 2, cy + s / 2
    cv.rect(x0 + 1, y0 + 1, x1 + 1, y1 + 1, fill=(40, 40, 30), radius=1.5)  # shadow
    if p.unit < 0:
        cv.rect(x0, y0, x1, y1, fill=(252, 252, 250), outline=(70, 70, 70), width=0.6, radius=1.5)
        _rising_sun(cv, cx, cy, s)
    else:
        u = p.unit
        fill, ink = (US_FILL, US_INK) if p.side == US else (JP_FILL, JP_INK)
        cv.rect(x0, y0, x1, y1, fill=fill, outline=(30, 30, 20), width=0.6, radius=1.5)
        kind = int(sc.unit_type[u])
        _unit_symbol(cv, kind, cx - 0.3 * s, y0 + 0.14 * s, cx + 0.3 * s, y0 + 0.5 * s, ink)
        if kind != UNKNOWN and k > 0:
            cv.text(cx, y1 - 0.22 * s, f"{sc.unit_melee[u, k - 1]}-{sc.unit_ranged[u, k - 1]}", 0.36 * s, ink,
                    bold=True, anchor="mm")
        for i in range(k if sc.unit_steps[u] > 1 else 0):  # step pips (2.4)
            cv.ellipse(x1 - 0.09 * s, y0 + (0.16 + 0.2 * i) * s, 0.055 * s, 0.055 * s, fill=ink)
        if p.face_down:  # seen by its owner or on the full board: marked, not hidden
            cv.rect(x0 + 0.02 * s, y0 + 0.02 * s, x0 + 0.3 * s, y0 + 0.24 * s, fill=(252, 252, 250))
            cv.ellipse(x0 + 0.16 * s, y0 + 0.13 * s, 0.07 * s, 0.07 * s, fill=SUN)
    if p.hits:
        cv.rect(x0 - 1, y0 - 1, x1 + 1, y1 + 1, outline=HITS, width=1.2, radius=2)


def _stack(cv: Canvas, sc: Scenario, state, game: int, stack: list[Piece], cx: float, cy: float, r: float):
    """Up to three counters of a hex, offset like a real stack, the first on top; a count badge."""
    s = 0.92 * r
    off = 0.12 * r
    order = sorted(range(len(stack)), key=lambda i: (not stack[i].selected, i))  # a known selected unit on top
    shown = order[:3]
    base_x, base_y = cx - off * (len(shown) - 1) / 2, cy + off * (len(shown) - 1) / 2 + 0.06 * r
    if any(p.selected for p in stack):
        k = len(shown) - 1
        cv.rect(base_x - s / 2 - 2.5, base_y - s / 2 - 2.5 - off * k, base_x + s / 2 + 2.5 + off * k,
                base_y + s / 2 + 2.5, fill=SELECTED, radius=3)
    for j in reversed(range(len(shown))):
        p = stack[shown[j]]
        k = int(state.unit_steps[game, p.unit]) if p.unit >= 0 else 0
        _counter(cv, sc, p, k, base_x + off * j, base_y - off * j, s)
    if len(stack) > 1:
        bx, by = base_x + s / 2 - 1, base_y + s / 2 - 1
        cv.ellipse(bx, by, 0.24 * r, 0.24 * r, fill=(30, 30, 30), outline=(250, 250, 250), width=0.6)
        cv.text(bx, by, str(len(stack)), 0.32 * r, (255, 255, 255), bold=True, anchor="mm")


def _arrow(cv: Canvas, a, b, colour, r: float) -> None:
    (ax, ay), (tx, ty) = a, b
    length = math.hypot(tx - ax, ty - ay)
    if length < 1e-6:
        return
    ux, uy = (tx - ax) / length, (ty - ay) / length
    sx, sy = ax + ux * 0.35 * r, ay + uy * 0.35 * r
    ex, ey = tx - ux * 0.45 * r, ty - uy * 0.45 * r
    cv.line([(sx, sy), (ex, ey)], colour, 2.2)
    s = 0.3 * r
    cv.polygon([(ex + ux * s, ey + uy * s), (ex - uy * s * 0.6, ey + ux * s * 0.6),
                (ex + uy * s * 0.6, ey - ux * s * 0.6)], fill=colour)


def _map_size(sc: Scenario) -> tuple[int, int]:
    g = sc.grid
    return int((1.5 * (g.columns - 1) + 2) * HEX_R) + 2 * MARGIN, \
        int(math.sqrt(3) * (g.rows + 0.5) * HEX_R) + TITLE_H + MARGIN


def _centers(sc: Scenario) -> np.ndarray:
    return sc.grid.center * HEX_R + np.array([MARGIN, TITLE_H + MARGIN / 2])


@lru_cache(maxsize=8)
def _map_sheet(sc: Scenario) -> Image.Image:
    """The printed map of a scenario (no counters), drawn once: levels, lakes, slopes, dry rivers, coast,
    zone boundaries, cliffs, hex numbers, landing zones and Victory Hexes."""
    grid = sc.grid
    R = HEX_R
    cv = Canvas(*_map_size(sc), PAPER)
    centers = _centers(sc)
    land_all, zone_all = _island(sc)
    nbr = grid.neighbours
    x0, y0 = MARGIN, TITLE_H + MARGIN / 2
    cv.rect(x0, y0, x0 + (1.5 * (grid.columns - 1) + 2) * R, y0 + math.sqrt(3) * (grid.rows + 0.5) * R, fill=SEA)
    for h in range(grid.size):  # terrain level (5.4)
        cx, cy = centers[h]
        if land_all[h]:
            fill = LEVEL_FILL[min(int(sc.level[h]), 4)] if sc.land[h] else OUT_OF_PLAY
            cv.polygon(_hexagon(cx, cy, R), fill=fill, outline=GRID_LINE, width=0.5)
        else:
            cv.polygon(_hexagon(cx, cy, R), outline=SEA_GRID, width=0.5)
    for h in np.nonzero(sc.lake)[0]:  # 5.6
        cx, cy = centers[h]
        cv.ellipse(cx, cy, 0.62 * R, 0.42 * R, fill=LAKE, outline=LAKE_INK, width=0.8)
        for dy in (-0.12, 0.12):
            cv.line([(cx - 0.3 * R, cy + dy * R), (cx + 0.3 * R, cy + dy * R)], LAKE_INK, 0.6, joint=False)
    for h, d in zip(*np.nonzero(sc.slope)):  # 5.3: hachures inside the hex carrying the art
        cx, cy = centers[h]
        a, b = edge(cx, cy, R, int(d))
        for t in (0.22, 0.5, 0.78):
            px, py = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
            cv.line([(px, py), (px + (cx - px) * 0.26, py + (cy - py) * 0.26)], SLOPE_INK, 1.1, joint=False)
    for h, d in zip(*np.nonzero(sc.river)):  # 5.5: dry river beds, centre to centre, each once
        n = int(nbr[h, d])
        if n > h:
            cv.line([tuple(centers[h]), tuple(centers[n])], RIVER, 2.2)
            for p in (centers[h], centers[n]):
                cv.ellipse(p[0], p[1], 1.1, 1.1, fill=RIVER)
    for h in range(grid.size):  # hexsides, each once: coast, zone boundaries (10.0), cliffs (5.7)
        cx, cy = centers[h]
        for d in range(6):
            n = int(nbr[h, d])
            if n < h:
                continue
            a, b = edge(cx, cy, R, d)
            if land_all[h] != land_all[n]:
                cv.line([a, b], COAST, 1.6)
            elif land_all[h] and zone_all[h] != zone_all[n]:
                cv.dashed(a, b, ZONE_LINE, 1.6, 4, 3)
            if sc.cliff[h, d]:
                cv.line([a, b], CLIFF, 3.6)
    for h in np.nonzero(land_all)[0]:
        cx, cy = centers[h]
        cv.text(cx, cy - 0.7 * R, grid.label(int(h)), 0.3 * R, (70, 64, 48), anchor="mm")
    for k, h in enumerate(sc.lz_hex):  # 9.2.1
        if h < 0:
            continue
        cx, cy = centers[int(h)]
        bx, by = cx - 0.95 * R, cy + 0.36 * R
        cv.rect(bx, by, bx + 0.9 * R, by + 0.44 * R, fill=LZ_FILL, outline=LZ_INK, width=0.8, radius=2)
        cv.text(bx + 0.45 * R, by + 0.22 * R, f"{LZ_LETTERS[k]}{int(sc.lz_capacity[k])}", 0.32 * R, LZ_INK,
                bold=True, anchor="mm")
    for h in sc.victory_hex:  # 3.8.1
        if land_all[int(h)]:
            cx, cy = centers[int(h)]
            _star(cv, cx + 0.52 * R, cy - 0.4 * R, 0.4 * R, STAR, STAR_INK)
    return cv.image


def _draw_state(cv: Canvas, core, state, game: int, viewer: int | None) -> None:
    """What changes during a game, over the map sheet: cleared zones, highlights, counters."""
    sc = core.scenario
    R = HEX_R
    centers = _centers(sc)
    for z, h in enumerate(sc.victory_hex):  # 10.0: a ring round the star of a cleared zone
        if state.zone_cleared[game, z]:
            cx, cy = centers[int(h)]
            cv.ellipse(cx + 0.52 * R, cy - 0.4 * R, 0.46 * R, 0.46 * R, outline=(0, 150, 60), width=1.6)
    for h in melee_hexes(state, game):
        cx, cy = centers[h]
        now = h == int(state.mel_hex[game])
        cv.polygon(_hexagon(cx, cy, 0.9 * R), outline=MELEE_NOW if now else MELEE, width=2.4 if now else 1.8)
    for i in range(int(state.air_n[game])):
        h = int(state.air_target[game, i])
        if h >= 0:
            cx, cy = centers[h]
            cv.ellipse(cx, cy, 0.7 * R, 0.7 * R, outline=AIR, width=1.6)
            cv.line([(cx - 0.85 * R, cy), (cx + 0.85 * R, cy)], AIR, 1.0, joint=False)
            cv.line([(cx, cy - 0.85 * R), (cx, cy + 0.85 * R)], AIR, 1.0, joint=False)
    if state.sel_hex[game] >= 0:
        cx, cy = centers[int(state.sel_hex[game])]
        cv.polygon(_hexagon(cx, cy, 0.96 * R), outline=ASKED, width=2.0)
    for h, stack in pieces(core, state, game, viewer).items():
        _stack(cv, sc, state, game, stack, *centers[h], R)
    for a, b in melee_arrows(state, game):
        _arrow(cv, centers[a], centers[b], MELEE, R)
    x0, y0 = MARGIN, TITLE_H + MARGIN / 2
    cv.rect(x0, y0, x0 + (1.5 * (sc.grid.columns - 1) + 2) * R, y0 + math.sqrt(3) * (sc.grid.rows + 0.5) * R,
            outline=(40, 40, 30), width=1.5)


def _draw_panel(cv: Canvas, core, state, game: int, viewer: int | None, x: float, y: float, width: float) -> float:
    """The side panel; returns the y below its last line."""
    sc = core.scenario

    def heading(text: str) -> None:
        nonlocal y
        y += 6
        cv.text(x, y, text, 13, (60, 60, 40), bold=True)
        y += 17
        cv.line([(x, y), (x + width, y)], (150, 140, 110), 1)
        y += 5

    def para(text: str, size: float = 11.5, fill=INK, bold: bool = False) -> None:
        nonlocal y
        for line in wrap(cv, text, size, width, bold):
            cv.text(x, y, line, size, fill, bold=bold)
            y += size + 4

    heading("Status")
    for line in status_lines(core, state, game, viewer):
        para(line, bold=line.startswith("RESULT"))
    heading("Turn track (May)")
    turn = int(state.turn[game])
    last = int(state.last_turn[game])
    ke = bool(core.tables.opts[OPT_KOMANDORSKI])
    known_last = last >= 0 and (not ke or viewer != US or state.ke_revealed[game] == 2)
    n_turns = max(int(sc.effect_chits.max()) - TURN_0_DATE + int(sc.delay_chits.max()) - 1, 1) if ke \
        else max(int(sc.spec.end_date) - TURN_0_DATE, 1)
    n_turns = max(n_turns, turn)
    per_row = 12
    box = width / per_row
    for t in range(1, n_turns + 1):
        col, row = (t - 1) % per_row, (t - 1) // per_row
        bx, by = x + col * box, y + row * (box * 0.8 + 3)
        fill = SELECTED if t == turn else (226, 226, 220) if known_last and t > last else (250, 248, 238)
        border = (200, 0, 0) if known_last and t == last else (90, 84, 60)
        cv.rect(bx, by, bx + box - 3, by + box * 0.8, fill=fill, outline=border, width=1.2 if t == turn else 0.8,
                radius=2)
        cv.text(bx + (box - 3) / 2, by + box * 0.3, may_date(TURN_0_DATE + t).split()[-1], 11, bold=True, anchor="mm")
        if ke and t == sc.komandorski_turn:
            cv.text(bx + (box - 3) / 2, by + box * 0.6, "KE", 8, (150, 0, 0), anchor="mm")
    y += ((n_turns + per_row - 1) // per_row) * (box * 0.8 + 3) + 2
    heading(f"Casualty Track (Japan wins at {sc.casualty_max})")
    per_row = 16
    box = width / per_row
    cas = int(state.casualties[game])
    for c in range(sc.casualty_max + 1):
        col, row = c % per_row, c // per_row
        bx, by = x + col * box, y + row * (box * 0.75 + 3)
        cv.rect(bx, by, bx + box - 2, by + box * 0.75, fill=(200, 30, 30) if c == cas else (250, 248, 238),
                outline=(90, 84, 60), width=0.7, radius=2)
        cv.text(bx + (box - 2) / 2, by + box * 0.38, str(c), 9, (255, 255, 255) if c == cas else INK, anchor="mm")
    y += ((sc.casualty_max + per_row) // per_row) * (box * 0.75 + 3) + 2
    heading("Key")
    items = [(f"level {i}", lambda a, b, i=i: cv.polygon(_hexagon((a[0] + b[0]) / 2, a[1], 9), fill=LEVEL_FILL[i],
                                                          outline=GRID_LINE, width=0.6)) for i in range(5)]
    items += [
        ("sea", lambda a, b: cv.polygon(_hexagon((a[0] + b[0]) / 2, a[1], 9), fill=SEA, outline=SEA_GRID)),
        ("outside the scenario", lambda a, b: cv.polygon(_hexagon((a[0] + b[0]) / 2, a[1], 9), fill=OUT_OF_PLAY,
                                                         outline=GRID_LINE, width=0.6)),
        ("lake", lambda a, b: cv.ellipse((a[0] + b[0]) / 2, a[1], 10, 7, fill=LAKE, outline=LAKE_INK, width=0.8)),
        ("dry river bed", lambda a, b: cv.line([a, b], RIVER, 2.2)),
        ("slope art (up out of the hex)", lambda a, b: (cv.line([a, b], GRID_LINE, 0.6), [cv.line(
            [(a[0] + t * (b[0] - a[0]), a[1]), (a[0] + t * (b[0] - a[0]), a[1] + 5)], SLOPE_INK, 1.1, joint=False)
            for t in (0.2, 0.5, 0.8)])),
        ("cliff hexside", lambda a, b: cv.line([a, b], CLIFF, 3.6)),
        ("victory zone boundary", lambda a, b: cv.dashed(a, b, ZONE_LINE, 1.6, 4, 3)),
        ("Victory Hex (ring: zone cleared)", lambda a, b: _star(cv, (a[0] + b[0]) / 2, a[1], 8, STAR, STAR_INK)),
        ("landing zone, capacity", lambda a, b: (cv.rect(a[0], a[1] - 6, b[0], a[1] + 6, fill=LZ_FILL,
                                                          outline=LZ_INK, width=0.8, radius=2),
                                                  cv.text((a[0] + b[0]) / 2, a[1], "F15", 8, LZ_INK, True, "mm"))),
        ("selected unit", lambda a, b: cv.rect(a[0] + 4, a[1] - 7, b[0] - 4, a[1] + 7, fill=SELECTED, radius=3)),
        ("melee declared / fought", lambda a, b: (cv.line([a, ((a[0] + b[0]) / 2, a[1])], MELEE, 2.2),
                                                  cv.line([((a[0] + b[0]) / 2, a[1]), b], MELEE_NOW, 2.2))),
        ("airpower target", lambda a, b: cv.ellipse((a[0] + b[0]) / 2, a[1], 7, 7, outline=AIR, width=1.6)),
        ("hex in question", lambda a, b: cv.polygon(_hexagon((a[0] + b[0]) / 2, a[1], 9), outline=ASKED,
                                                    width=2.0)),
    ]
    for i, (label, draw) in enumerate(items):
        col, row = i % 2, i // 2
        sx, sy = x + col * (width / 2), y + row * 20
        draw((sx + 2, sy + 8), (sx + 26, sy + 8))
        cv.text(sx + 32, sy + 2, label, 10.5)
    y += 20 * ((len(items) + 1) // 2) + 4
    demo = [Piece(int(np.nonzero(sc.unit_side == US)[0][0]), US, False),
            Piece(int(np.nonzero((sc.unit_side == JAPAN) & (sc.unit_type == ARTILLERY))[0][0]), JAPAN, False),
            Piece(-1, JAPAN, True)]
    for i, p in enumerate(demo):
        cx = x + 14 + i * width / 3
        _counter(cv, sc, p, int(sc.unit_steps[p.unit]) if p.unit >= 0 else 0, cx, y + 12, 22)
        cv.text(cx + 16, y + 6, ("US", "Japan", "face-down Japanese")[i], 10.5)
    y += 30
    para("On a counter: type (X infantry, / recon, E engineer, bar depot, dot artillery, ? unknown), melee-ranged "
         "dice at the steps left, step pips; a rising-sun corner: face-down, seen by its owner; a badge: units in "
         "the hex", size=10)
    return y


def render_rgb(core, state, game: int = 0, viewer: int | None = None) -> np.ndarray:
    sc = core.scenario
    map_w, map_h = _map_size(sc)
    board = Canvas(map_w, map_h, PAPER)
    board.image = _map_sheet(sc).copy()
    board.draw = ImageDraw.Draw(board.image)
    _draw_state(board, core, state, game, viewer)
    panel = Canvas(PANEL_W, 3000, PAPER)
    end = _draw_panel(panel, core, state, game, viewer, 8, TITLE_H + 10, PANEL_W - MARGIN - 8)
    height = max(map_h, int(math.ceil(end)) + MARGIN)
    k = SCALE
    image = Image.new("RGB", ((map_w + PANEL_W) * k, height * k), PAPER)
    image.paste(board.image, (0, 0))
    image.paste(panel.image.crop((0, 0, PANEL_W * k, height * k)), (map_w * k, 0))
    cv = Canvas(1, 1, PAPER)
    cv.image, cv.draw = image, ImageDraw.Draw(image)
    view = f"viewed by {SIDE_NAMES[viewer]}" if viewer is not None else "full board"
    cv.rect(0, 0, map_w + PANEL_W, TITLE_H, fill=(48, 52, 40))
    cv.text(MARGIN, 8, f"War in the Wind: The Battle for Attu Island -- {sc.name} ({view})", 17, (250, 244, 220),
            bold=True)
    turn = int(state.turn[game])
    sub = f"{date(turn)}   {WEATHERS[int(state.weather[game])]}{'   night' if state.night[game] else ''}" \
          f"{'   refit' if state.refit[game] else ''}   phase: {PHASE_NAMES[int(state.phase[game])]}   to decide: " \
          f"{SIDE_NAMES[int(state.current_player[game])]}"
    result = result_text(state, game)
    if result:
        sub += f"   RESULT: {result}"
    cv.text(MARGIN, 31, sub, 12.5, (236, 226, 190))
    small = image.reduce(SCALE)  # 2 x 2 box average: smooth edges
    return np.asarray(small, dtype=np.uint8).copy()
