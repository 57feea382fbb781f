"""Drawing a Peleliu board: a text board ("ansi") and a map image ("rgb_array").

    render_ansi(core, state, game, viewer) -> str             status, fire card, boxes, track, hexes
    render_rgb(core, state, game, viewer)  -> uint8[H, W, 3]  the map, the landing boxes and a side panel

``viewer`` is None (the whole truth: a replay) or 0 (the U.S. player, the only player).  For the
U.S. everything is drawn from ``core.view`` of the game (wargym.peleliu.fog), so a hidden fact is
never even read: a face-down Japanese unit is only "?" (no name, strength or weapons), a face-down
depth or counterattack marker only its kind, the Japanese reserve box only a count.  The whole
truth shows every counter, a face-down one marked as such ("face-down" in the text, a red corner
dot on the image).

Text board (lines under 120 characters)::

    D-Day at Peleliu -- sept15 (full board)
    Turn 2 (15 Sep 0900) | stage: landing | phase: amphibious: land in beach hex | actions left: 2
    Infantry Loss Box 0 (no catastrophic level yet) | naval 0 | Dauntless 0 | ... | result: in play
    Fire card: none drawn this turn          or  Fire card 45: red M*, green A [armor], blue | ...
    Landing boxes: W1 -> 0210 0211 0212: I/3/1 4st, ...
    Turn track: T3 (15 Sep 0930): A/1/1, ...
    Hexes (U.S. units: steps, D disrupted, acted, hero / inspired, CP command range):
      0213 beach: A/1/1 4st, B/1/1 4st D acted
      0816 jungle [B5 red, artillery]: J08 str 3 needs FT+BZ face-down, depth: face-down

Image: terrain colours (sea blue, reef light blue, beach sand, clear pale green, airstrip grey,
jungle dark green, swamp olive, coral white-pink, mountain brown, buildings dark grey), roads, cliff
hexsides (thick black), positions (a ring in the position colour, the id on a pill in that colour,
a line joining the two hexes of a position group, a black dot for fixed artillery, a triangle for a
mountaintop), fire dots along the foot of each hex in the group colours (big: intense, small:
steady), the landing boxes west of their beach hexes with their units, counters (U.S. olive slips:
name and steps; Japanese tan slips: '?' when hidden, name and strength when revealed, a depth marker
tag), disruption as a red corner, the selected unit, the target and the close combat hex
highlighted, garrison / fortification / artillery destroyed marks, and a side panel with the status,
the fire card, the order being declared, the turn track and the key.  The printed map is drawn once
per core and kept on it; the image has the same size whatever the state.
"""

from __future__ import annotations

import math
import textwrap

import numpy as np
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from wargym.draw import INK, SCALE, Canvas, corner, edge, font, wrap
from wargym.peleliu.observe import letters_available
from wargym.peleliu.scenario import (
    BOXES, COLOURS, INTENSE, LETTERS, SYMBOLS, TERRAINS, WEAPONS, Scenario,
)
from wargym.peleliu.state import (
    CC_CA, CC_JP_ASSAULT, CC_OVERRUN, CC_US_INIT, DIS_NEW, DM_CUP, DM_POOL, HERO, INSPIRED, JP_ELIM, JP_MAP,
    JP_RESERVE, O_ATTACK, O_BARRAGE, O_DAUNTLESS, O_ENTER, O_MOVE, O_NAVAL, PHASE_NAMES, RESULTS, STAGE_NAMES,
    US_BOX, US_ELIM, US_MAP, US_TRACK,
)

TITLE = "D-Day at Peleliu"
MAX_LINE = 118
ORDER_NAMES = {O_MOVE: "move", O_ATTACK: "attack", O_BARRAGE: "barrage", O_ENTER: "enter for close combat",
               O_NAVAL: "naval fire", O_DAUNTLESS: "Dauntless airstrike"}
CC_KINDS = {CC_US_INIT: "U.S. close combat", CC_JP_ASSAULT: "Japanese assault", CC_CA: "counterattack",
            CC_OVERRUN: "overrun"}
DM_KINDS = ("depth", "armor depth", "counterattack")
NIGHT_TURN = 13


# ------------------------------------------------------------------------------ facts of a board
def viewed(core, state, game: int, viewer: int | None):
    """(state, game) to draw from: the truth, or the U.S. player's view of the game (a batch of one)."""
    return core.viewed(state, game, viewer)


def weapons_text(bits: int) -> str:
    """'FT+BZ' for a requirements bit set (scenario.WEAPONS), '' for none."""
    return "+".join(w for i, w in enumerate(WEAPONS) if int(bits) >> i & 1)


def command_range(core, s, g: int, u: int) -> int:
    """14.2/14.3 (board.cp_range): the range of a command post, 1 under 'US CP under fire', 0 at night."""
    if int(s.turn[g]) == NIGHT_TURN:
        return 0
    if int(s.cp_fire[g]) == u:
        return 1
    return int(core.scenario.command_track[int(s.cp[g, u])])


def us_text(core, s, g: int, u: int) -> str:
    """A U.S. unit in words: 'A/1/5 4st D acted hero CP2'."""
    sc = core.scenario
    parts = [f"{sc.us_names[u]} {int(s.us_steps[g, u])}st"]
    dis = int(s.us_dis[g, u])
    if dis:
        parts.append("D" if dis != DIS_NEW else "D(new)")
    if s.us_acted[g, u]:
        parts.append("acted")
    hero = int(s.hero[g, u])
    if hero == HERO:
        parts.append("hero")
    elif hero == INSPIRED:
        parts.append("inspired")
    if int(s.cp[g, u]) >= 0:
        parts.append(f"CP{command_range(core, s, g, u)}")
    marks = ("@" if int(s.sel[g]) == u else "") + ("A" if s.att_units[g, u] else "") + \
            ("C" if s.cc_units[g, u] else "")
    if marks:
        parts.append(f"[{marks}]")
    return " ".join(parts)


def marker_text(core, s, g: int, d: int, what: str) -> str:
    """A depth / counterattack marker: its strength and requirements when revealed, else face-down."""
    sc = core.scenario
    if not s.dm_rev[g, d]:
        return f"{what}: face-down"
    text = f"{what} +{int(sc.dm_strength[d])}"
    req = weapons_text(sc.dm_requires[d])
    if req:
        text += f" needs {req}"
    if int(sc.dm_colour[d]) >= 0:
        text += f" {COLOURS[int(sc.dm_colour[d])]}"
    if sc.dm_tr[d]:
        text += " TR"
    return text


SIDES = ("N", "NE", "SE", "S", "SW", "NW")


def jp_known(s, g: int, j: int, viewer: int | None) -> bool:
    """Whether the drawing may name Japanese unit j (the whole truth, or revealed)."""
    return viewer is None or bool(s.jp_rev[g, j])


def jp_text(core, s, g: int, j: int, viewer: int | None) -> str:
    """A Japanese unit in words: 'J12 str 3 needs FT+BZ', '?' hidden from the U.S.; its markers."""
    sc = core.scenario
    if jp_known(s, g, j, viewer) and sc.jp_fort[j]:
        rot = int(s.jp_rot[g, j])
        sides = [SIDES[(d + rot) % 6] for d in range(6) if sc.jp_blocked[j, d]]
        text = f"{sc.jp_names[j]} blocks {','.join(sides) or 'nothing'}"
        req = weapons_text(sc.jp_requires[j])
        if req:
            text += f" needs {req}"
    elif jp_known(s, g, j, viewer):
        text = f"{sc.jp_names[j]} str {int(sc.jp_strength[j])}"
        req = weapons_text(sc.jp_requires[j])
        if req:
            text += f" needs {req}"
        if sc.jp_elite[j]:
            text += " elite"
        if int(sc.jp_colour[j]) >= 0:
            text += f" ({COLOURS[int(sc.jp_colour[j])]} armor)"
        if not s.jp_rev[g, j]:
            text += " face-down"
    else:
        text = "?"
    parts = [text]
    if s.jp_dis[g, j]:
        parts.append("D")
    d = int(s.jp_depth[g, j])
    if d >= 0:
        parts.append(marker_text(core, s, g, d, DM_KINDS[int(sc.dm_kind[d])]))
    c = int(s.jp_ca[g, j])
    if c >= 0:
        parts.append(marker_text(core, s, g, c, "counterattack"))
    if int(s.cc_jp[g]) == j:
        parts.append("[in close combat]")
    return ", ".join(parts)


def hex_contents(s, g: int) -> dict[int, tuple[list[int], list[int]]]:
    """hex -> (U.S. units, Japanese units) on the map, by hex number order."""
    out: dict[int, tuple[list[int], list[int]]] = {}
    for u in np.flatnonzero(s.us_loc[g] == US_MAP):
        out.setdefault(int(s.us_hex[g, u]), ([], []))[0].append(int(u))
    for j in np.flatnonzero(s.jp_loc[g] == JP_MAP):
        out.setdefault(int(s.jp_hex[g, j]), ([], []))[1].append(int(j))
    return {h: out[h] for h in sorted(out)}


def turn_time(sc: Scenario, turn: int) -> str:
    times = sc.bnr_time if sc.spec.kind == "bnr" else sc.turn_time  # 18.0: the BNR track
    return times[turn] if 0 <= turn < len(times) else ""


def is_night_turn(sc: Scenario, turn: int) -> bool:
    if sc.spec.kind == "bnr":
        return 0 <= turn < len(sc.bnr_kind) and sc.bnr_kind[turn] == 3  # 18.21
    return turn == NIGHT_TURN


def loss_text(sc: Scenario, s, g: int) -> str:
    turn = int(s.turn[g])
    if sc.spec.kind == "bnr":
        level = sc.bnr_catastrophic  # 18.41: infantry units eliminated
        return f"infantry units eliminated {int(s.loss_box[g])} of catastrophic {level}"
    level = int(sc.catastrophic[min(max(turn, 0), len(sc.catastrophic) - 1)])
    lost = int(s.loss_box[g])
    if level <= 0:
        return f"Infantry Loss Box {lost} (no catastrophic level this turn)"
    return f"Infantry Loss Box {lost} of catastrophic {level}" + (" -- CATASTROPHIC" if lost >= level else "")


def result_text(s, g: int) -> str:
    text = RESULTS[int(s.result[g])]
    if s.truncated[g]:
        text += " (stopped at the decision limit)"
    elif s.terminated[g]:
        text += " (game over)"
    return text


def fire_card_text(core, s, g: int) -> str:
    """The fire card drawn this turn (6.0): colours with letters, stars and armor, symbol, artillery."""
    sc = core.scenario
    k = int(s.fire_card[g])
    if k < 0:
        return "Fire card: none drawn this turn"
    cols = []
    for i in range(3):
        t = COLOURS[int(sc.card_colour[k, i])]
        letter = LETTERS[int(sc.card_letter[k, i])]
        if letter:
            t += f" {letter}"
        if sc.card_star[k, i]:
            t += "*"
        if sc.card_armor[k, i]:
            t += " [armor]"
        cols.append(t)
    return (f"Fire card {k + 1}: {', '.join(cols)} | symbol {SYMBOLS[int(sc.card_symbol[k])]} | "
            f"artillery {int(sc.card_artillery[k])}")


def declared_lines(core, s, g: int) -> list[str]:
    """The U.S. order being declared (7.x, 8.x) and the close combat being resolved (8.6)."""
    sc = core.scenario
    lines = []
    u = int(s.sel[g])
    if 0 <= u < len(sc.us_names):
        text = f"Selected: {sc.us_names[u]}"
        if int(s.us_loc[g, u]) == US_MAP:
            text += f" in {sc.grid.label(int(s.us_hex[g, u]))}"
        order = int(s.order[g])
        if order >= 0:
            text += f", order: {ORDER_NAMES.get(order, str(order))}"
        t = int(s.target[g])
        if t >= 0:
            text += f", target {sc.hex_label(t)}"
        att = [sc.us_names[int(v)] for v in np.flatnonzero(s.att_units[g])]
        if att:
            text += f", attacking: {' '.join(att)}"
        lines.append(text)
    elif int(s.target[g]) >= 0:
        lines.append(f"Target: {sc.hex_label(int(s.target[g]))}")
    c = int(s.cc_hex[g])
    if c >= 0:
        text = f"Close combat in {sc.hex_label(c)}: {CC_KINDS.get(int(s.cc_kind[g]), 'close combat')}"
        units = [sc.us_names[int(v)] for v in np.flatnonzero(s.cc_units[g])]
        if units:
            text += f", U.S.: {' '.join(units)}"
        if int(s.cc_hits[g]):
            text += f", hits {int(s.cc_hits[g])}"
        lines.append(text)
    return lines


def letters_in_play(core, s, g: int) -> list[str]:
    """The Japanese action letters available this turn (12.0, 20.1)."""
    one = s.take([g])
    return [LETTERS[L] for L in range(1, len(LETTERS)) if letters_available(core, one, L)[0]]


def status_lines(core, s, g: int, viewer: int | None) -> list[str]:
    """The header shared by the text board and the image's panel."""
    sc = core.scenario
    turn = int(s.turn[g])
    night = " night turn" if is_night_turn(sc, turn) else ""
    lines = [f"Turn {turn} ({turn_time(sc, turn)}){night} | stage: {STAGE_NAMES[int(s.stage[g])]} | "
             f"phase: {PHASE_NAMES[int(s.phase[g])]}",
             f"Actions left: {int(s.actions_left[g])} | decisions: {int(s.decisions[g])} | {loss_text(sc, s, g)} | "
             f"result: {result_text(s, g)}",
             f"Markers: naval fire {int(s.naval[g])}, Dauntless {int(s.dauntless[g])}, heroes placed "
             f"{int(s.heroes_placed[g])} | action letters: {' '.join(letters_in_play(core, s, g)) or 'none'}"]
    lines.append(fire_card_text(core, s, g))
    smoke = [COLOURS[c] for c in range(len(COLOURS)) if s.smoke[g, c]]
    if smoke:
        lines.append(f"Smoke: {', '.join(smoke)} dots disregarded in landing beach hexes this turn")
    lines += declared_lines(core, s, g)
    return lines


def box_units(s, g: int, b: int) -> list[int]:
    return [int(u) for u in np.flatnonzero((s.us_loc[g] == US_BOX) & (s.us_hex[g] == b))]


def track_units(s, g: int) -> dict[int, list[int]]:
    """turn -> the U.S. units waiting on that space of the turn track."""
    out: dict[int, list[int]] = {}
    for u in np.flatnonzero(s.us_loc[g] == US_TRACK):
        out.setdefault(int(s.us_track[g, u]), []).append(int(u))
    return {t: out[t] for t in sorted(out)}


def forces_lines(core, s, g: int, viewer: int | None) -> list[str]:
    sc = core.scenario
    loc = s.jp_loc[g]
    unit = ~sc.jp_fort
    on = (loc == JP_MAP) & unit
    line = (f"Japanese: {int(on.sum())} on the map ({int((on & s.jp_rev[g]).sum())} revealed), "
            f"{int(((loc == JP_RESERVE) & unit).sum())} in the reserve box")
    if sc.jp_fort.any():
        forts = (loc == JP_MAP) & sc.jp_fort
        line += (f", {int(forts.sum())} fortification markers ({int((forts & s.jp_rev[g]).sum())} revealed), "
                 f"{int(((loc == JP_RESERVE) & sc.jp_fort).sum())} in the cup")
    elim = [sc.jp_names[int(j)] for j in np.flatnonzero(loc == JP_ELIM)]
    line += f", eliminated elite box: {' '.join(elim) if elim else 'empty'}"
    line += f"; depth markers: {int((s.dm_loc[g] == DM_POOL).sum())} in the pools, " \
            f"{int((s.dm_loc[g] == DM_CUP).sum())} in the cup"
    gone = [sc.us_names[int(u)] for u in np.flatnonzero(s.us_loc[g] == US_ELIM)]
    return [line, f"U.S. eliminated: {' '.join(gone) if gone else 'none'}"]


def _wrap(line: str) -> list[str]:
    return textwrap.wrap(line, width=MAX_LINE, subsequent_indent="      ", break_on_hyphens=False) or [""]


def render_ansi(core, state, game: int = 0, viewer: int | None = None) -> str:
    s, g = viewed(core, state, game, viewer)
    sc = core.scenario
    view = " (viewed by the U.S.)" if viewer is not None else " (full board)"
    out = [f"{TITLE} -- {sc.name}{view}"]
    for line in status_lines(core, s, g, viewer):
        out += _wrap(line)
    boxes = []
    for b, name in enumerate(BOXES):
        beach = " ".join(sc.grid.label(int(h)) for h in sc.box_beach[b] if h >= 0)
        units = ", ".join(us_text(core, s, g, u) for u in box_units(s, g, b))
        boxes.append(f"  {name} -> {beach}: {units or 'empty'}")
    out.append("Landing boxes:")
    for line in boxes:
        out += _wrap(line)
    track = track_units(s, g)
    out.append("Turn track:" + ("" if track else " empty"))
    for t, units in track.items():
        out += _wrap(f"  T{t} ({turn_time(sc, t)}): {', '.join(sc.us_names[u] for u in units)}")
    for line in forces_lines(core, s, g, viewer):
        out += _wrap(line)
    out.append("Hexes (U.S.: steps, D disrupted, acted, hero/inspired, CP command range, [@ selected A attacking "
               "C close combat]):")
    contents = hex_contents(s, g)
    hexes = set(contents)
    hexes |= {int(sc.pos_hex[p]) for p in range(len(sc.pos_id))
              if s.garrison[g, p] or s.fort[g, p] or s.art_gone[g, p]}
    for h in sorted(hexes):
        us, jp = contents.get(h, ([], []))
        where = f"  {sc.grid.label(h)} {TERRAINS[int(sc.terrain[h])]}"
        p = int(sc.hex_pos[h])
        if p >= 0:
            tags = [sc.pos_id[p] or "provisional", COLOURS[int(sc.pos_colour[p])]]
            if sc.pos_art[p]:
                tags.append("artillery destroyed" if s.art_gone[g, p] else "artillery")
            if s.garrison[g, p]:
                tags.append("garrison")
            if s.fort[g, p]:
                tags.append("fortified")
            if s.comm[g, p]:
                tags.append("comm")
            where += f" [{', '.join(tags)}]"
        items = [us_text(core, s, g, u) for u in us] + [jp_text(core, s, g, j, viewer) for j in jp]
        marks = []
        if h == int(s.target[g]):
            marks.append("target")
        if h == int(s.cc_hex[g]):
            marks.append("close combat")
        text = f"{where}: {'; '.join(items) if items else '-'}"
        if marks:
            text += f" <{', '.join(marks)}>"
        out += _wrap(text)
    return "\n".join(out) + "\n"


# ----------------------------------------------------------------------------------------- image
HEX_R = 21            # hex circumradius in pixels of the final image
MARGIN = 12
TITLE_H = 46
BOX_W = 92            # the landing boxes' strip west of the map
GAP = 8
PANEL_W = 290
KEY_H = 250

PAPER = (244, 240, 226)
TERRAIN_FILL = {
    "sea": (92, 148, 204), "shallow": (164, 206, 234), "beach": (238, 216, 150), "clear": (212, 230, 168),
    "airstrip": (178, 178, 172), "jungle": (74, 128, 62), "swamp": (130, 128, 70), "coral": (244, 220, 220),
    "mountain": (152, 112, 76), "buildings": (96, 96, 96),
}
DARK_TERRAINS = ("sea", "jungle", "swamp", "mountain", "buildings")
COLOUR_FILL = {"orange": (242, 140, 20), "red": (214, 28, 28), "green": (30, 160, 56), "brown": (126, 76, 32),
               "purple": (146, 60, 178), "blue": (28, 84, 214)}
GRID_LINE, SEA_GRID, COAST, CLIFF, ROAD = (92, 92, 72), (120, 170, 216), (36, 58, 84), (14, 14, 14), (120, 84, 40)
US_FILL, US_INK, US_DONE = (118, 132, 70), (250, 250, 236), (164, 172, 130)
JP_FILL, JP_INK, JP_HIDDEN = (228, 202, 148), (150, 16, 20), (250, 248, 240)
DIS_MARK, SELECTED, TARGET, CC_MARK, ATTACKING = (226, 0, 0), (255, 214, 0), (230, 20, 20), (214, 0, 190), \
    (255, 120, 0)
BOX_FILL, BOX_INK = (214, 232, 246), (24, 48, 110)


def _hexagon(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    return [corner(cx, cy, r, k) for k in range(6)]


def _rows_shown(sc: Scenario) -> int:
    """The map's rows down to one below the last with land (the southern rows are open sea)."""
    rows = sc.grid.plane_row[sc.terrain != TERRAINS.index("sea")]
    return min(sc.grid.rows, int(rows.max()) + 2) if len(rows) else sc.grid.rows


def _geometry(sc: Scenario):
    """(hex centres, map rectangle (x0, y0, x1, y1), image width, height)."""
    grid, R = sc.grid, HEX_R
    x0, y0 = MARGIN + BOX_W + GAP, TITLE_H + MARGIN / 2
    x1 = x0 + (1.5 * (grid.columns - 1) + 2) * R
    y1 = y0 + math.sqrt(3) * _rows_shown(sc) * R
    centers = grid.center * R + np.array([x0, y0])
    width = int(math.ceil(x1)) + MARGIN + PANEL_W
    height = int(math.ceil(y1)) + MARGIN
    return centers, (x0, y0, x1, y1), width, height


def _box_rects(sc: Scenario, centers) -> list[tuple[float, float, float, float]]:
    """Each landing box's rectangle: in the strip west of the map, level with its beach hexes."""
    out = []
    for b in range(len(BOXES)):
        ys = [centers[int(h)][1] for h in sc.box_beach[b] if h >= 0]
        out.append((MARGIN, min(ys) - 0.82 * HEX_R, MARGIN + BOX_W, max(ys) + 0.82 * HEX_R))
    return out


def _terrain_fill(sc: Scenario, h: int):
    return TERRAIN_FILL[TERRAINS[int(sc.terrain[h])]]


def _symbol(cv: Canvas, kind: int, cx: float, cy: float, r: float, fill=INK) -> None:
    """A card symbol (circle, diamond, triangle, star)."""
    if kind == 0:
        cv.ellipse(cx, cy, r, r, fill=fill)
    elif kind == 1:
        cv.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=fill)
    elif kind == 2:
        cv.polygon([(cx, cy - r), (cx + r, cy + 0.8 * r), (cx - r, cy + 0.8 * r)], fill=fill)
    else:
        _star(cv, cx, cy, r, fill)


def _star(cv: Canvas, cx: float, cy: float, r: float, fill) -> None:
    pts = []
    for i in range(10):
        a = math.radians(-90 + 36 * i)
        rr = r if i % 2 == 0 else r * 0.42
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    cv.polygon(pts, fill=fill)


@lru_cache(maxsize=32)
def _narrow(size: int):
    """A condensed bold font for the counters (the shared fonts, wargym.draw.font, when missing)."""
    try:
        return ImageFont.truetype("DejaVuSansCondensed-Bold.ttf", size)
    except OSError:
        return font(size, True)


def _ntext(cv: Canvas, x: float, y: float, text: str, size: float, fill, anchor: str = "lm") -> None:
    cv.draw.text((x * cv.k, y * cv.k), text, font=_narrow(round(size * cv.k)), fill=fill, anchor=anchor)


def _nwidth(cv: Canvas, text: str, size: float) -> float:
    return cv.draw.textlength(text, font=_narrow(round(size * cv.k))) / cv.k


def _fit(cv: Canvas, text: str, size: float, width: float) -> float:
    """The font size (at most ``size``) at which ``text`` fits ``width`` in the condensed font."""
    w = _nwidth(cv, text, size)
    return size if w <= width else max(4.5, size * width / w)


def _pill(cv: Canvas, cx: float, cy: float, text: str, fill, size: float) -> float:
    """A position id on a pill of the position colour; returns its right edge."""
    w = cv.text_width(text, size, True) + 4
    cv.rect(cx - w / 2, cy - size * 0.68, cx + w / 2, cy + size * 0.68, fill=fill, outline=(250, 250, 250),
            width=0.6, radius=size * 0.6)
    cv.text(cx, cy, text, size, (255, 255, 255), bold=True, anchor="mm")
    return cx + w / 2


def _dots(sc: Scenario) -> dict[int, list[tuple[int, int]]]:
    """hex -> [(colour, dot)] of the printed fields of fire, by colour."""
    out: dict[int, list[tuple[int, int]]] = {}
    for f, h in zip(*np.nonzero(sc.grp_dot)):
        out.setdefault(int(h), []).append((int(sc.grp_colour[f]), int(sc.grp_dot[f, h])))
    return {h: sorted(v) for h, v in out.items()}


def _static_layer(core) -> Image.Image:
    """The printed map (terrain, roads, cliffs, hex numbers, positions, fields of fire, the landing
    boxes' frames, the key), drawn once per core and kept on it."""
    base = getattr(core, "_peleliu_static_image", None)
    if base is not None:
        return base
    sc = core.scenario
    grid, R = sc.grid, HEX_R
    centers, (x0, y0, x1, y1), width, height = _geometry(sc)
    cv = Canvas(width, height, PAPER)
    nbr = grid.neighbours
    land = sc.terrain != TERRAINS.index("sea")
    rim = [h for h in range(grid.size) if (nbr[h] < 0).any()]
    for h in rim:  # the half hexes at the edge take their neighbours' colour, then are cut square
        cv.polygon(_hexagon(*centers[h], 2.0 * R), fill=_terrain_fill(sc, h))
    for h in range(grid.size):
        cv.polygon(_hexagon(*centers[h], R), fill=_terrain_fill(sc, h))
    for h in range(grid.size):
        cv.polygon(_hexagon(*centers[h], R), outline=GRID_LINE if land[h] else SEA_GRID, width=0.6)
    for h in range(grid.size):  # the coast and the cliffs (7.32), each hexside once
        cx, cy = centers[h]
        for d in range(6):
            n = int(nbr[h, d])
            if n >= 0 and n < h:
                continue
            a, b = edge(cx, cy, R, d)
            if n >= 0 and land[h] != land[n]:
                cv.line([a, b], COAST, 1.4)
            if sc.cliff[h, d]:
                cv.line([a, b], CLIFF, 3.6)
    for h in np.flatnonzero(sc.road):  # roads from hex centre to hex centre
        for d in range(3):
            n = int(nbr[h, d])
            if n >= 0 and sc.road[n]:
                cv.line([tuple(centers[h]), tuple(centers[n])], ROAD, 1.6)
        cv.ellipse(*centers[h], 1.2, 1.2, fill=ROAD)
    for h in np.flatnonzero(land):  # hex numbers (a position shows its id instead)
        if sc.hex_pos[h] < 0:
            cx, cy = centers[h]
            dark = TERRAINS[int(sc.terrain[h])] in DARK_TERRAINS
            cv.text(cx, cy - 0.68 * R, grid.label(int(h)), 5.5, (225, 225, 210) if dark else (80, 74, 56),
                    anchor="mm")
    # fields of fire: a row of dots along the foot of each hex, one per colour (6.2)
    for h, dots in _dots(sc).items():
        cx, cy = centers[h]
        step = 0.2 * R
        xs = cx - step * (len(dots) - 1) / 2
        for i, (c, dot) in enumerate(dots):
            r = 0.13 * R if dot == INTENSE else 0.075 * R
            cv.ellipse(xs + i * step, cy + 0.64 * R, r, r, fill=COLOUR_FILL[COLOURS[c]], outline=(250, 250, 250),
                       width=0.5)
    # positions: group links, rings, ids (2.1)
    for a, b in sc.grp_members:
        if b >= 0:
            pa, pb = centers[int(sc.pos_hex[a])], centers[int(sc.pos_hex[b])]
            dx, dy = pb - pa
            dist = math.hypot(dx, dy) or 1
            ux, uy = dx / dist, dy / dist
            p0 = (pa[0] + ux * 0.8 * R, pa[1] + uy * 0.8 * R)
            p1 = (pb[0] - ux * 0.8 * R, pb[1] - uy * 0.8 * R)
            cv.line([p0, p1], (255, 255, 255), 3.2)
            cv.line([p0, p1], COLOUR_FILL[COLOURS[int(sc.pos_colour[a])]], 1.8)
    for p, h in enumerate(sc.pos_hex):
        cx, cy = centers[int(h)]
        fill = COLOUR_FILL[COLOURS[int(sc.pos_colour[p])]]
        cv.ellipse(cx, cy, 0.8 * R, 0.8 * R, outline=(255, 255, 255), width=3.2)
        cv.ellipse(cx, cy, 0.8 * R, 0.8 * R, outline=fill, width=2.0)
        right = _pill(cv, cx, cy - 0.66 * R, sc.pos_id[p] or "CA", fill, 6.5)
        if sc.pos_art[p]:  # fixed artillery
            cv.ellipse(right + 3.2, cy - 0.66 * R, 2.6, 2.6, fill=(20, 20, 20), outline=(255, 255, 255), width=0.6)
        if sc.pos_mtop[p]:
            left = 2 * cx - right
            cv.polygon([(left - 6, cy - 0.66 * R + 2.4), (left - 1, cy - 0.66 * R + 2.4),
                        (left - 3.5, cy - 0.66 * R - 2.6)], fill=(20, 20, 20))
    # the map's edge
    for box in ((0, TITLE_H, x0, height), (x1, TITLE_H, width, height), (0, TITLE_H, width, y0),
                (0, y1, width, height)):
        cv.rect(*box, fill=PAPER)
    cv.rect(x0, y0, x1, y1, outline=(40, 40, 30), width=1.6)
    # the landing boxes (5.0), joined to their beach hexes
    for b, (bx0, by0, bx1, by1) in enumerate(_box_rects(sc, centers)):
        for h in sc.box_beach[b]:
            if h >= 0:
                cx, cy = centers[int(h)]
                cv.dashed((bx1, cy), (cx - 0.5 * R, cy), BOX_INK, 1.0, 3, 2)
        cv.rect(bx0, by0, bx1, by1, fill=BOX_FILL, outline=BOX_INK, width=1.2, radius=3)
        cv.text(bx0 + 4, by0 + 3, BOXES[b], 11, BOX_INK, bold=True)
    cv.text(MARGIN, y0 + 2, "Landing", 11, BOX_INK, bold=True)
    cv.text(MARGIN, y0 + 16, "boxes", 11, BOX_INK, bold=True)
    _key(cv, sc, x1 + MARGIN, height - KEY_H, PANEL_W - MARGIN)
    core._peleliu_static_image = cv.image
    return cv.image


def _key(cv: Canvas, sc: Scenario, x: float, y: float, width: float) -> None:
    cv.text(x, y, "Key", 13, (60, 60, 40), bold=True)
    y += 17
    cv.line([(x, y), (x + width, y)], (150, 140, 110), 1)
    y += 6
    for i, name in enumerate(TERRAINS):
        col, row = i % 3, i // 3
        sx, sy = x + col * width / 3, y + row * 17
        cv.polygon(_hexagon(sx + 8, sy + 7, 7.5), fill=TERRAIN_FILL[name], outline=GRID_LINE, width=0.6)
        cv.text(sx + 19, sy + 1, name, 10)
    y += 17 * ((len(TERRAINS) + 2) // 3) + 2
    items = [
        ("cliff hexside", lambda a, b: cv.line([a, b], CLIFF, 3.6)),
        ("road", lambda a, b: cv.line([a, b], ROAD, 1.6)),
        ("position (colour, id)", lambda a, b: _pill(cv, (a[0] + b[0]) / 2, a[1], "B5", COLOUR_FILL["red"], 6.5)),
        ("artillery / mountaintop", lambda a, b: (
            cv.ellipse(a[0] + 6, a[1], 2.6, 2.6, fill=(20, 20, 20)),
            cv.polygon([(b[0] - 12, a[1] + 2.4), (b[0] - 4, a[1] + 2.4), (b[0] - 8, a[1] - 3)], fill=(20, 20, 20)))),
        ("intense / steady fire", lambda a, b: (
            cv.ellipse(a[0] + 6, a[1], 0.13 * HEX_R, 0.13 * HEX_R, fill=COLOUR_FILL["orange"]),
            cv.ellipse(b[0] - 8, a[1], 0.075 * HEX_R, 0.075 * HEX_R, fill=COLOUR_FILL["orange"]))),
        ("selected unit", lambda a, b: cv.rect(a[0] + 2, a[1] - 5, b[0] - 2, a[1] + 5, outline=SELECTED, width=2)),
        ("target hex", lambda a, b: cv.polygon(_hexagon((a[0] + b[0]) / 2, a[1], 8), outline=TARGET, width=2)),
        ("close combat", lambda a, b: cv.polygon(_hexagon((a[0] + b[0]) / 2, a[1], 8), outline=CC_MARK, width=2)),
    ]
    for i, (label, draw) in enumerate(items):
        col, row = i % 2, i // 2
        sx, sy = x + col * (width / 2), y + row * 18
        draw((sx + 2, sy + 7), (sx + 26, sy + 7))
        cv.text(sx + 31, sy + 1, label, 10)
    y += 18 * ((len(items) + 1) // 2) + 4
    demo = [("U.S.", US_FILL, US_INK, "A/1/5", "4"), ("Japanese", JP_FILL, JP_INK, "J12", "3"),
            ("face-down", JP_HIDDEN, JP_INK, "?", "")]
    for i, (label, fill, ink, name, steps) in enumerate(demo):
        sx = x + i * width / 3
        _slip(cv, sx + 18, y + 6, 34, 10, fill, ink, name, steps, disrupted=i == 0)
        cv.text(sx + 38, y + 1, label, 10)
    y += 18
    for line in wrap(cv, "Slips: U.S. name and steps (pale: acted; star: hero; CP n: command range); Japanese "
                         "name and strength, +n / +? a depth marker; a red corner: disrupted; G garrison, "
                         "F fortified, X artillery destroyed; CA: a provisional counterattack position.", 9.5, width):
        cv.text(x, y, line, 9.5)
        y += 12


def _slip(cv: Canvas, cx: float, cy: float, w: float, h: float, fill, ink, name: str, value: str,
          disrupted: bool = False, outline=None, tag: str = "", tag_fill=None, hero: int = 0,
          face_down: bool = False) -> None:
    """One counter as a slip: name at the left, a value (steps or strength) at the right."""
    x0, y0, x1, y1 = cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2
    cv.rect(x0 + 0.8, y0 + 0.8, x1 + 0.8, y1 + 0.8, fill=(30, 30, 24), radius=1.2)
    cv.rect(x0, y0, x1, y1, fill=fill, outline=(30, 30, 20), width=0.5, radius=1.2)
    vs = min(7.5, h * 0.8)
    vw = _nwidth(cv, value, vs) + 2.4 if value else 0
    tw = _nwidth(cv, tag, 6.5) + 3 if tag else 0
    if name == "?":  # a face-down Japanese unit, as the U.S. sees it
        _ntext(cv, (x0 + x1 - tw) / 2, cy, name, min(8.5, h * 0.95), ink, anchor="mm")
    else:
        _ntext(cv, x0 + 1.4, cy, name, _fit(cv, name, min(7.5, h * 0.8), w - vw - tw - 2.5), ink)
    if value:
        us = fill in (US_FILL, US_DONE)
        cv.rect(x1 - vw - tw, y0 + 0.6, x1 - tw - 0.6, y1 - 0.6, fill=(54, 64, 28) if us else (255, 255, 255),
                radius=1)
        _ntext(cv, x1 - tw - vw / 2 - 0.3, cy, value, vs, (255, 255, 255) if us else ink, anchor="mm")
    if tag:
        cv.rect(x1 - tw, y0 - 1, x1 + 1, y1 + 1, fill=tag_fill or (60, 60, 60), radius=1)
        _ntext(cv, x1 - tw / 2 + 0.5, cy, tag, 6.5, (255, 255, 255), anchor="mm")
    if disrupted:
        cv.polygon([(x0, y0), (x0 + 0.5 * h, y0), (x0, y0 + 0.5 * h)], fill=DIS_MARK)
    if face_down:  # the whole truth: a face-down counter named, marked with a red dot
        cv.ellipse(x1 - 1.5, y0 + 1.5, 1.6, 1.6, fill=(200, 16, 30))
    if hero:
        _star(cv, x0 - 0.5, cy + 0.5, 3.6 if hero == HERO else 2.8, (255, 200, 0))
    if outline is not None:
        cv.rect(x0 - 1.2, y0 - 1.2, x1 + 1.2, y1 + 1.2, outline=outline, width=1.4, radius=2)


def _us_slip_args(core, s, g: int, u: int):
    sc = core.scenario
    acted = bool(s.us_acted[g, u])
    name = sc.us_names[u]
    if int(s.cp[g, u]) >= 0:
        name += f" CP{command_range(core, s, g, u)}"
    outline = SELECTED if int(s.sel[g]) == u else CC_MARK if s.cc_units[g, u] else \
        ATTACKING if s.att_units[g, u] else None
    return dict(fill=US_DONE if acted else US_FILL, ink=(30, 34, 16) if acted else US_INK, name=name,
                value=str(int(s.us_steps[g, u])), disrupted=bool(s.us_dis[g, u]), outline=outline,
                hero=int(s.hero[g, u]))


def _marker_tag(core, s, g: int, d: int) -> tuple[str, tuple]:
    sc = core.scenario
    kind = int(sc.dm_kind[d])
    fill = ((90, 70, 40), (70, 70, 70), (150, 20, 20))[kind]
    if s.dm_rev[g, d]:
        return f"+{int(sc.dm_strength[d])}", fill
    return "+?", fill


def _jp_slip_args(core, s, g: int, j: int, viewer: int | None):
    sc = core.scenario
    known = jp_known(s, g, j, viewer)
    tag, tag_fill = "", None
    d = int(s.jp_depth[g, j])
    if d >= 0:
        tag, tag_fill = _marker_tag(core, s, g, d)
    c = int(s.jp_ca[g, j])
    if c >= 0:
        t, tag_fill = _marker_tag(core, s, g, c)
        tag = (tag + " " if tag else "") + "CA" + t[1:] if s.dm_rev[g, c] else (tag + " " if tag else "") + "CA"
    face_down = not bool(s.jp_rev[g, j])
    outline = CC_MARK if int(s.cc_jp[g]) == j else None
    if known:
        return dict(fill=JP_FILL, ink=JP_INK, name=sc.jp_names[j], value=str(int(sc.jp_strength[j])),
                    disrupted=bool(s.jp_dis[g, j]), tag=tag, tag_fill=tag_fill, face_down=face_down,
                    outline=outline)
    return dict(fill=JP_HIDDEN, ink=JP_INK, name="?", value="", disrupted=bool(s.jp_dis[g, j]), tag=tag,
                tag_fill=tag_fill, outline=outline)


def _draw_hex_units(cv: Canvas, core, s, g: int, viewer, cx: float, cy: float, us: list[int], jp: list[int]):
    """The counters of a hex as slips, Japanese first; at most three, the last one '+n more'."""
    R = HEX_R
    sel = int(s.sel[g])
    us = sorted(us, key=lambda u: (u != sel, u))
    slips = [_jp_slip_args(core, s, g, j, viewer) for j in jp] + [_us_slip_args(core, s, g, u) for u in us]
    if len(slips) > 3:
        more = len(slips) - 2
        slips = slips[:2] + [dict(fill=(250, 250, 246), ink=INK, name=f"+{more} more", value="")]
    h = 0.42 * R
    top = cy + 0.02 * R - (len(slips) - 1) * (h + 1) / 2
    for i, args in enumerate(slips):
        _slip(cv, cx, top + i * (h + 1), 1.62 * R, h, **args)


def _draw_state(cv: Canvas, core, s, g: int, viewer) -> None:
    sc = core.scenario
    R = HEX_R
    centers, _, _, _ = _geometry(sc)
    struck = (s.jp_attacked[g] | s.jp_barraged[g]) & (s.jp_loc[g] == JP_MAP)
    for h in s.jp_hex[g][struck]:
        cv.polygon(_hexagon(*centers[h], 0.93 * R), outline=ATTACKING, width=1.2)
    for p, h in enumerate(sc.pos_hex):  # markers on positions
        cx, cy = centers[int(h)]
        marks = [("G", (24, 84, 200)) if s.garrison[g, p] else None, ("F", (90, 90, 90)) if s.fort[g, p] else None]
        for k, m in enumerate([m for m in marks if m]):
            bx = cx + 0.52 * R - k * 8
            cv.rect(bx, cy + 0.34 * R, bx + 7, cy + 0.34 * R + 8, fill=m[1], outline=(255, 255, 255), width=0.6,
                    radius=1)
            cv.text(bx + 3.5, cy + 0.34 * R + 4, m[0], 6.5, (255, 255, 255), bold=True, anchor="mm")
        if s.art_gone[g, p]:
            x = cx + 0.66 * R
            y = cy - 0.66 * R
            for sgn in (-1, 1):
                cv.line([(x - 3.5, y - 3.5 * sgn), (x + 3.5, y + 3.5 * sgn)], (230, 0, 0), 1.6, joint=False)
    for h, (us, jp) in hex_contents(s, g).items():
        _draw_hex_units(cv, core, s, g, viewer, *centers[h], us, jp)
    u = int(s.sel[g])
    if 0 <= u < len(sc.us_names) and int(s.us_loc[g, u]) == US_MAP:
        cv.polygon(_hexagon(*centers[int(s.us_hex[g, u])], 0.97 * R), outline=SELECTED, width=2.4)
    t = int(s.target[g])
    if t >= 0:
        cv.polygon(_hexagon(*centers[t], 0.9 * R), outline=TARGET, width=2.4)
    c = int(s.cc_hex[g])
    if c >= 0:
        cv.polygon(_hexagon(*centers[c], 0.84 * R), outline=CC_MARK, width=2.4)
    # the landing boxes' units
    for b, (bx0, by0, bx1, by1) in enumerate(_box_rects(sc, centers)):
        units = box_units(s, g, b)
        cv.text(bx1 - 4, by0 + 4, f"{len(units)} unit{'s' * (len(units) != 1)}", 9, BOX_INK, anchor="ra")
        rows = int((by1 - by0 - 20) // 11)
        shown = units if len(units) <= rows else units[:max(rows - 1, 0)]
        for i, v in enumerate(shown):
            args = _us_slip_args(core, s, g, v)
            _slip(cv, (bx0 + bx1) / 2, by0 + 24 + i * 11, BOX_W - 10, 9.5, **args)
        if len(shown) < len(units):
            cv.text(bx0 + 6, by0 + 19 + len(shown) * 11, f"+{len(units) - len(shown)} more", 9, BOX_INK)


def _draw_panel(cv: Canvas, core, s, g: int, viewer, x: float, y: float, width: float, bottom: float) -> None:
    sc = core.scenario

    def heading(text: str) -> bool:
        nonlocal y
        if y + 30 > bottom:
            return False
        y += 5
        cv.text(x, y, text, 13, (60, 60, 40), bold=True)
        y += 17
        cv.line([(x, y), (x + width, y)], (150, 140, 110), 1)
        y += 5
        return True

    def para(text: str, size: float = 11, fill=INK, bold: bool = False) -> None:
        nonlocal y
        for line in wrap(cv, text, size, width, bold):
            if y + size + 4 > bottom:
                return
            cv.text(x, y, line, size, fill, bold=bold)
            y += size + 4

    turn = int(s.turn[g])
    heading("Status")
    para(f"Turn {turn}: {turn_time(sc, turn)}" + (" (night)" if is_night_turn(sc, turn) else ""), bold=True)
    para(f"Stage: {STAGE_NAMES[int(s.stage[g])]}")
    para(f"Phase: {PHASE_NAMES[int(s.phase[g])]}; actions left {int(s.actions_left[g])}; "
         f"decisions {int(s.decisions[g])}")
    para(loss_text(sc, s, g), fill=(170, 0, 0) if "CATASTROPHIC" in loss_text(sc, s, g) else INK)
    letters = letters_in_play(core, s, g)
    para(f"Naval fire {int(s.naval[g])}, Dauntless {int(s.dauntless[g])}, heroes placed "
         f"{int(s.heroes_placed[g])}; action letters: {' '.join(letters) or 'none'}")
    para(f"Result: {result_text(s, g)}", bold=int(s.result[g]) != 0)
    if heading("Fire card"):
        k = int(s.fire_card[g])
        if k < 0:
            para("none drawn this turn")
        else:
            cw = (width - 70) / 3
            for i in range(3):
                col = COLOURS[int(sc.card_colour[k, i])]
                bx = x + i * (cw + 4)
                cv.rect(bx, y, bx + cw, y + 24, fill=COLOUR_FILL[col], outline=(30, 30, 30), width=0.8, radius=3)
                letter = LETTERS[int(sc.card_letter[k, i])] or ""
                label = letter + ("*" if sc.card_star[k, i] else "")
                cv.text(bx + cw / 2, y + 9, label or col, 12 if label else 9, (255, 255, 255), bold=True,
                        anchor="mm")
                if sc.card_armor[k, i]:
                    cv.text(bx + cw / 2, y + 20, "armor", 7.5, (255, 255, 255), bold=True, anchor="mm")
            sx = x + 3 * (cw + 4) + 4
            _symbol(cv, int(sc.card_symbol[k]), sx + 10, y + 12, 8)
            cv.text(sx + 24, y + 2, f"art {int(sc.card_artillery[k])}", 10.5, bold=True)
            cv.text(sx + 24, y + 14, f"card {k + 1}", 9)
            y += 30
        smoke = [COLOURS[c] for c in range(len(COLOURS)) if s.smoke[g, c]]
        if smoke:
            para(f"Smoke: {', '.join(smoke)}", size=10)
    lines = declared_lines(core, s, g)
    if lines and heading("Order"):
        for line in lines:
            para(line, size=10.5)
    if heading("Turn track"):
        track = track_units(s, g)
        if not track:
            para("empty", size=10.5)
        for t, units in track.items():
            para(f"T{t} ({turn_time(sc, t)}): {' '.join(sc.us_names[u] for u in units)}", size=10)
    if heading("Forces"):
        for line in forces_lines(core, s, g, viewer):
            para(line, size=10)


def render_rgb(core, state, game: int = 0, viewer: int | None = None) -> np.ndarray:
    s, g = viewed(core, state, game, viewer)
    sc = core.scenario
    _, (x0, y0, x1, y1), width, height = _geometry(sc)
    cv = Canvas(1, 1, PAPER)
    cv.image = _static_layer(core).copy()
    cv.draw = ImageDraw.Draw(cv.image)
    _draw_state(cv, core, s, g, viewer)
    _draw_panel(cv, core, s, g, viewer, x1 + MARGIN, TITLE_H + 4, PANEL_W - MARGIN, height - KEY_H - 6)
    view = "viewed by the U.S." if viewer is not None else "full board"
    cv.rect(0, 0, width, TITLE_H, fill=(48, 52, 40))
    cv.text(MARGIN, 7, f"{TITLE} -- {sc.name} ({view})", 17, (250, 244, 220), bold=True)
    turn = int(s.turn[g])
    sub = f"Turn {turn}: {turn_time(sc, turn)}   phase: {PHASE_NAMES[int(s.phase[g])]}   " \
          f"losses {int(s.loss_box[g])}"
    if int(s.result[g]) != 0 or s.terminated[g] or s.truncated[g]:
        sub += f"   RESULT: {result_text(s, g)}"
    cv.text(MARGIN, 29, sub, 11.5, (236, 226, 190))
    small = cv.image.reduce(SCALE)  # 2 x 2 box average: smooth edges
    return np.asarray(small, dtype=np.uint8).copy()
