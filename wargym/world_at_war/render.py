"""Drawing one World at War game: a text board ("ansi") and a hex map image ("rgb_array").

The battlefield is in plain view, so a viewer changes only the hands shown: the other side's hand
is drawn as a count (fog.py).  Text board: one line per map row, each hex as two characters: the
terrain letter (scenario map letters) and, where a piece stands, its side and kind::

    side 0: upper case, side 1: lower case;  I infantry  S sniper  C commander  T tank  G SP gun
    A anti-tank  R artillery  F AA;  a piece with a commander in its hex is marked with '*'
"""

from __future__ import annotations

import math

import numpy as np

from wargym.draw import INK, Canvas, corner, wrap
from wargym.world_at_war.scenario import SYMBOLS, TERRAINS
from wargym.world_at_war.state import PHASE_NAMES, PILE_HAND

KIND_LETTERS = "ISCTGARF"   # scenario.KINDS order
TERRAIN_LETTERS = {"clear": ".", "wood": "W", "bocage": "B", "hill": "H", "town": "T", "river": "R", "ford": "F",
                   "bridge": "=", "sea": "S", "beach": "b", "marsh": "M", "depression": "D"}


def _piece_letter(sc, p: int) -> str:
    letter = KIND_LETTERS[sc.units.kind[sc.piece_card[p]]]
    return letter if sc.piece_side[p] == 0 else letter.lower()


def render_ansi(core, state, game: int, viewer: int | None) -> str:
    sc = core.scenario
    grid = sc.grid
    rows = [[TERRAIN_LETTERS[TERRAINS[sc.terrain[grid.index(int(f"{c + 1:02d}{r + 1:02d}"))]]] + " "
             for c in range(grid.columns)] for r in range(grid.rows)]
    for p in np.flatnonzero(state.p_hex[game] >= 0):
        h = int(state.p_hex[game, p])
        r, c = int(grid.plane_row[h]), int(grid.plane_col[h])
        cell = rows[r][c]
        kind = sc.units.kind[sc.piece_card[p]]
        if kind == 2 and cell[1] != " ":      # a commander with a unit
            rows[r][c] = cell[0] + "*"
        elif cell[1] == "*":
            rows[r][c] = cell
        else:
            rows[r][c] = cell[0] + _piece_letter(sc, int(p))
    lines = [f"{sc.title}  turn {int(state.turn[game])}  {sc.sides[int(state.active[game])]} to play  "
             f"[{PHASE_NAMES[int(state.phase[game])]}]"]
    points = core.victory_points(state.take([game]))[0]
    lines.append("victory points: " + ", ".join(f"{s} {int(points[i])}/{int(sc.vp_quota[i])}"
                                                for i, s in enumerate(sc.sides)))
    lines.append("     " + " ".join(f"{c + 1:02d}" for c in range(grid.columns)))
    for r, row in enumerate(rows):
        lines.append(f"{r + 1:02d}   " + " ".join(row))
    for s, side in enumerate(sc.sides):
        cards = np.flatnonzero(state.card_pile[game] == PILE_HAND + s)
        if viewer is not None and viewer != s:
            lines.append(f"{side} holds {len(cards)} cards")
        else:
            order = cards[np.argsort(state.card_pos[game, cards])]
            lines.append(f"{side} holds: " + "; ".join(sc.card_names[int(c)] for c in order))
    for s, side in enumerate(sc.sides):
        if sc.air_force_pick[s] == 0:
            continue
        pool = state.af_pile[game] == 2 * s + 1
        supports = np.flatnonzero(state.as_pile[game] == 2 * s + 1)
        if viewer is not None and viewer != s:
            lines.append(f"{side} air: {int(pool.sum())} air force cards, {len(supports)} air support cards")
        else:
            kinds = sc.af_kind[pool]
            cards = ", ".join(f"{int(sc.as_planes[c, 0])} FB + {int(sc.as_planes[c, 1])} F" for c in supports)
            lines.append(f"{side} air: {int((kinds == 1).sum())} F, {int((kinds == 2).sum())} FB, "
                         f"{int((kinds == 0).sum())} blank; air support: {cards or 'none'}")
    planes = [f"{sc.sides[int(state.pl_side[game, p])]} {'FB' if state.pl_kind[game, p] == 2 else 'F'} at "
              f"{sc.grid.label(int(state.pl_hex[game, p]))}"
              for p in range(state.pl_state.shape[1]) if state.pl_state[game, p] in (2, 3) and state.pl_hex[game, p] >= 0]
    if planes:
        lines.append("planes: " + "; ".join(planes))
    if state.card[game] >= 0:
        lines.append(f"played: {sc.card_names[int(state.card[game])]}")
    throw = [SYMBOLS[int(s)] for s in state.last_throw[game] if s >= 0]
    if throw:
        lines.append(f"last throw: {' '.join(throw)}; casualties {int(state.last_kills[game])}, "
                     f"flags {int(state.last_flags[game])}, retreat {int(state.last_retreat[game])}")
    if state.terminated[game] and state.winner[game] >= 0:
        lines.append(f"{sc.sides[int(state.winner[game])]} wins")
    return "\n".join(lines)


# ------------------------------------------------------------------------------------ the image
HEX_R = 34
MARGIN, TITLE_H, PANEL_W = 24, 64, 430
PAPER = (244, 240, 226)
TERRAIN_FILL = {"clear": (222, 226, 178), "wood": (96, 140, 78), "bocage": (120, 150, 80), "hill": (196, 170, 120),
                "town": (190, 180, 170), "river": (96, 150, 206), "ford": (150, 190, 220), "bridge": (170, 160, 140),
                "sea": (70, 120, 190), "beach": (236, 218, 160), "marsh": (150, 180, 150), "depression": (176, 160, 130)}
FEATURE_MARK = ("deb", "BNK", "AT", "sb", "wire", "mine")
SIDE_FILL = ((70, 110, 60), (90, 90, 100))          # side 0 olive, side 1 grey
ORDER_COLOURS = ((200, 40, 40), (40, 80, 200), (40, 150, 60))


def _geometry(sc):
    grid = sc.grid
    centers = grid.center * HEX_R + np.array([MARGIN + HEX_R, TITLE_H + MARGIN / 2 + HEX_R])
    map_w = int((1.5 * (grid.columns - 1) + 2) * HEX_R) + 2 * MARGIN
    map_h = int(math.sqrt(3) * (grid.rows + 0.5) * HEX_R) + TITLE_H + MARGIN
    return centers, map_w, max(map_h, 560)


def _static_board(core):
    """The map (terrain, hex numbers), drawn once per core: the obstacles and pieces change."""
    base = getattr(core, "_static_board_image", None)
    if base is not None:
        return base
    sc = core.scenario
    centers, map_w, height = _geometry(sc)
    cv = Canvas(map_w + PANEL_W, height, PAPER)
    for h in range(sc.grid.size):
        cx, cy = centers[h]
        cv.polygon([corner(cx, cy, HEX_R, k) for k in range(6)], fill=TERRAIN_FILL[TERRAINS[sc.terrain[h]]],
                   outline=(120, 110, 90), width=1)
        cv.text(cx, cy - 0.72 * HEX_R, sc.grid.label(h), 8, (60, 60, 50), anchor="mm")
    core._static_board_image = cv.image.copy()
    return core._static_board_image


def render_rgb(core, state, game: int, viewer: int | None) -> np.ndarray:
    sc = core.scenario
    centers, map_w, height = _geometry(sc)
    cv = Canvas(map_w + PANEL_W, height, PAPER)
    cv.image.paste(_static_board(core))
    R = HEX_R
    for h in range(sc.grid.size):
        marks = [FEATURE_MARK[f] for f in range(len(FEATURE_MARK)) if state.features[game, h] >> f & 1]
        if marks:
            cx, cy = centers[h]
            cv.text(cx, cy + 0.7 * R, " ".join(marks), 8, (90, 30, 20), bold=True, anchor="mm")
    for o, h in enumerate(sc.objective_hex):
        cx, cy = centers[int(h)]
        cv.ellipse(cx, cy, 0.86 * R, 0.86 * R, outline=(212, 170, 40), width=2.5)
    for p in np.flatnonzero(state.p_hex[game] >= 0):
        _piece(cv, sc, state, game, int(p), centers[int(state.p_hex[game, p])], R)
    for p in range(state.pl_state.shape[1]):
        if state.pl_state[game, p] in (2, 3) and state.pl_hex[game, p] >= 0:
            cx, cy = centers[int(state.pl_hex[game, p])]
            w = 0.42 * R if state.pl_kind[game, p] == 2 else 0.3 * R
            cv.polygon([(cx, cy - 0.75 * R), (cx - w, cy - 0.35 * R), (cx + w, cy - 0.35 * R)],
                       fill=SIDE_FILL[int(state.pl_side[game, p])], outline=(250, 250, 250), width=1.5)
    for h, colour in ((state.target_hex[game], (220, 40, 40)),):
        if h >= 0:
            cv.ellipse(*centers[int(h)], 0.95 * R, 0.95 * R, outline=colour, width=3)
    view = f"  (seen by {sc.sides[viewer]})" if viewer is not None else ""
    cv.rect(0, 0, map_w + PANEL_W, TITLE_H, fill=(48, 52, 40))
    cv.text(MARGIN, 10, sc.title + view, 20, (250, 244, 220), bold=True)
    cv.text(MARGIN, 38, f"turn {int(state.turn[game])}   {sc.sides[int(state.active[game])]} to play   "
                        f"{PHASE_NAMES[int(state.phase[game])]}", 14, (236, 226, 190))
    y = TITLE_H + 14
    text = render_ansi(core, state, game, viewer).splitlines()
    # the victory points line and everything below the map rows (render_ansi's layout)
    for line in text[1:2] + text[3 + sc.grid.rows:]:
        for part in wrap(cv, line, 13, PANEL_W - 2 * MARGIN):
            cv.text(map_w, y, part, 13)
            y += 19
    return cv.result()


def _piece(cv, sc, state, game, p, centre, R):
    cx, cy = centre
    kind = sc.units.kind[sc.piece_card[p]]
    side = sc.piece_side[p]
    if kind == 2:   # a commander: a small disc at the hex's upper left
        cv.ellipse(cx - 0.45 * R, cy - 0.35 * R, 0.2 * R, 0.2 * R, fill=SIDE_FILL[side], outline=(250, 230, 80), width=2)
        return
    if kind == 1:   # a sniper: a small square at the upper right
        cv.rect(cx + 0.25 * R, cy - 0.55 * R, cx + 0.65 * R, cy - 0.15 * R, fill=SIDE_FILL[side], outline=INK)
        cv.text(cx + 0.45 * R, cy - 0.35 * R, "S", 9, (255, 255, 255), bold=True, anchor="mm")
        return
    cv.rect(cx - 0.5 * R, cy - 0.32 * R, cx + 0.5 * R, cy + 0.42 * R, fill=SIDE_FILL[side], outline=INK, radius=3)
    colour = sc.piece_colour[p]
    if colour >= 0:
        cv.rect(cx - 0.5 * R, cy - 0.32 * R, cx + 0.5 * R, cy - 0.18 * R, fill=ORDER_COLOURS[colour])
    label = KIND_LETTERS[kind] + str(int(state.p_figures[game, p]))
    if state.p_mounted[game, p]:
        label += "m"
    cv.text(cx, cy + 0.1 * R, label, 12, (255, 255, 255), bold=True, anchor="mm")
    if state.p_ordered[game, p]:
        cv.ellipse(cx + 0.5 * R, cy + 0.42 * R, 0.1 * R, 0.1 * R, fill=(250, 230, 80))
