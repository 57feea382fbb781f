"""The World at War as data for the browser client (wargym.web): the printed map and a side's position.

    board(core)                      -> dict   the map: hexes, terrain, objectives, the sides' colours
    scene(core, view, game, viewer)  -> dict   pieces, obstacles, planes, tracks, the last throw, the hand

Both are plain JSON that the page (wargym/web/static/board.js) draws as SVG; nothing here draws.
The book numbers only the steps of the GAME TURN ("1. Play a command card" ... "6. Draw a command
card"); its other sections have names, so a rule is cited by its section, as events.py cites it.

``scene`` is given a side's redacted view (``core.view(state, viewer)``) and that side, ``viewer``.
"Everything on the battlefield is in plain view" (fog.py), so every piece is drawn face up; what a
side may not know is the other side's hands (command cards, air force pool, air support cards) and
the decks' order ("The information on the cards is only revealed when they are played"): in a view
those are stand-ins, so the scene names the cards of the viewer's own hands only and counts the
other side's.  A replay watched whole (wargym.web.film with no viewer) hands ``scene`` the real
state and ``viewer=None``: a spectator who sees every hand, so the scene names both sides' cards.
The map is terrain by hex (render.py draws no hexside or road), so ``lines`` and ``areas`` are
empty; the obstacles of the terrain effects sheet change in play (sandbags overrun, bunkers
collapsed, minefields cleared: ``state.features``), so they are markers of the scene.
Coordinates are in hex radii, flat-topped hexes (wargym.hexgrid).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from wargym.world_at_war import actions as act
from wargym.world_at_war import render
from wargym.world_at_war.scenario import (
    ACTIONS, BOTH, COLOURS, DICE, FEATURES, K_AA, K_ANTI_TANK, K_ARTILLERY, K_COMMANDER, K_SNIPER, K_SP_GUN, K_TANK,
    SYMBOLS, TERRAINS, load_rulebook_data,
)
from wargym.world_at_war.state import (
    P_ADJUST, P_AIR_DEFEND, P_AIR_PLAY, P_BATTLE_TARGET, P_BREAKTHROUGH, P_CARD, P_DISCARD, P_HIT_PART, P_HIT_PIECE,
    P_PICK_AIR, P_RETREAT, P_SECOND, P_STAND, PHASE_NAMES, PILE_DECK, PILE_HAND, PL_FLYING, PL_FOUGHT,
)
from wargym.web.shapes import colour, hex_path, map_extent

#: the section of the book each decision phase is played under (state.PHASE_NAMES order; the
#: sections events.py and COVERAGE.md cite); "game over" is no decision
SECTIONS = (
    "GAME TURN",                                   # the first player: 1 D6 each, the higher chooses
    "1. Play a command card", "1. Play a command card",   # play one; none can order: discard one
    "2. Order units",
    "3. Move", "3. Move",
    "Platoons", "Platoons",                        # the commander moves with his unit; his second unit
    "4. Battle", "4. Battle",
    "Voluntary retreat",
    "Appendix 1",                                  # motorized / mechanized: the vehicle or the personnel
    "Appendix 1",                                  # a hex of 2 different types of units: who takes the hits
    "Retreat rules",
    "Forcing a breakthrough", "Forcing a breakthrough",
    None,                                          # game over
    "Direct and indirect artillery fire",          # "Subsequent salvos ... unless the fire is adjusted"
    "3. Move",                                     # "Mechanized/motorized infantry may dismount and battle"
    "Combat commands", "Combat commands",
    "Appendix 2", "Appendix 2", "Appendix 2", "Appendix 2", "Appendix 2", "Appendix 2", "Appendix 2", "Appendix 2",
    "Flairs (night games)",
)
PHASE_RULES = {name: rule for name, rule in zip(PHASE_NAMES, SECTIONS) if rule is not None}

SYMBOL_OF_KIND = {K_COMMANDER: "hq", K_SNIPER: "other", K_TANK: "armor", K_SP_GUN: "armor",
                  K_ANTI_TANK: "artillery", K_ARTILLERY: "artillery", K_AA: "artillery"}
#: phases of a battle being resolved: the selected piece attacks, the target defends (4., 5.)
BATTLE_PHASES = (P_BATTLE_TARGET, P_STAND, P_HIT_PART, P_HIT_PIECE, P_RETREAT, P_BREAKTHROUGH, P_SECOND, P_ADJUST)
CARD_TEXT = {   # cards.yaml: what each special card orders (standard cards: a colour and a count)
    "any_colour": "Order {n} unit(s) of any colour.",
    "artillery": "Order {n} artillery, anti-tank or AA gun unit(s) of any colour.",
    "armour": "Order {n} tank or SP gun unit(s) of any colour.",
    "infantry": "Order {n} infantry unit(s) or sniper(s) of any colour.",
    "combat_command": "Order one combat command: its commander and its units.",
    "air_support": "Orders no unit. At the end of your turn, play it to pick an air support card from your "
                   "deck, up to your quota (appendix 2).",
}
PLANE_NAMES = ("", "fighter", "fighter-bomber")   # state.pl_kind (air.FIGHTER, air.FIGHTER_BOMBER)


def board(core) -> dict[str, Any]:
    """The map as render.py draws it: terrain by hex, hex numbers, objectives ringed."""
    sc, grid = core.scenario, core.scenario.grid
    rows = load_rulebook_data()[0].terrains
    centers = grid.center
    names = {int(h): str(n) for h, n in zip(sc.objective_hex, sc.objective_names)}
    width, height = map_extent(centers)
    return {
        "ruleset": "world_at_war", "scenario": sc.name, "title": sc.title, "players": list(core.players),
        "hex_actions": int(grid.size), "width": width, "height": height,
        "hexes": [{"x": _round(centers[h][0]), "y": _round(centers[h][1]), "label": grid.label(h),
                   "terrain": TERRAINS[int(sc.terrain[h])], "name": names.get(h, "")} for h in range(grid.size)],
        "hex_path": hex_path(),
        # the terrain effects sheet: a river hex is entered "only at fords or bridges" (enter: none)
        "terrains": {name: {"fill": colour(render.TERRAIN_FILL[name]), "passable": rows[name].enter != "none"}
                     for name in TERRAINS},
        "lines": [], "line_styles": {}, "areas": [], "area_styles": {},
        # OBJECTIVE OF THE GAME: "reaching and holding certain objectives (1 or more victory points apiece)"
        "objectives": [{"hex": int(h), "name": str(sc.objective_names[o]), "vp": int(sc.objective_points[o])}
                       for o, h in enumerate(sc.objective_hex)],
        "sides": [{"name": side, "fill": colour(render.SIDE_FILL[s]), "ink": "#ffffff"}
                  for s, side in enumerate(sc.sides)],
        "phase_rules": PHASE_RULES,
    }


def scene(core, view, game: int, viewer: int | None) -> dict[str, Any]:
    """Game ``game`` of ``view`` as ``viewer`` sees it: the pieces on the map with their card's
    values, the eliminated ones, the obstacles, objectives and planes, the victory points, the last
    battle throw, and the viewer's own hands.  ``viewer``: the side ``view`` was made for
    (``core.view(state, viewer)``); None when ``view`` is the real state, for a spectator: then
    both sides' hands and air force pools are shown, none as the viewer's, and no card is played
    from the scene."""
    sc = core.scenario
    hexes = np.asarray(view.p_hex[game])
    # commanders and snipers first: the page draws a hex's stack in order, the unit on top
    leader = np.isin(sc.units.kind[sc.piece_card], (K_COMMANDER, K_SNIPER))
    order = np.concatenate([np.flatnonzero((hexes >= 0) & leader), np.flatnonzero((hexes >= 0) & ~leader)])
    pieces = [_piece(core, view, game, int(p)) for p in order]
    boxes = []
    for s, side in enumerate(sc.sides):
        gone = [_piece(core, view, game, int(p)) for p in np.flatnonzero((hexes < 0) & (sc.piece_side == s))]
        if gone:
            boxes.append({"title": f"{side}: eliminated", "pieces": gone})
    points = core.victory_points(view.take([game]))[0]
    hands = [int((view.card_pile[game] == PILE_HAND + s).sum()) for s in range(2)]
    return {
        "turn": int(view.turn[game]), "phase": PHASE_NAMES[int(view.phase[game])],
        "pieces": pieces, "markers": _markers(core, view, game), "boxes": boxes,
        "cards": _cards(core, view, game, viewer),
        "tracks": [{"name": "Player turn", "value": int(view.turn[game])},
                   *({"name": f"Victory points {side}", "value": int(points[s]), "max": int(sc.vp_quota[s])}
                     for s, side in enumerate(sc.sides)),
                   {"name": "Orders left", "value": int(view.order_left[game])},
                   {"name": "Command cards in the draw pile", "value": int((view.card_pile[game] == PILE_DECK).sum())}],
        # the battle dice show symbols, not pips: each die of the last throw as its symbol's number
        # (scenario.SYMBOLS: 0 blank, 1 soldier ... 8 flag), ``roll`` names them with their colours
        "dice": [int(s) for s in view.last_throw[game] if s >= 0],
        "roll": _roll(view, game),
        "status": _status(core, view, game, viewer, hands),
    }


def _piece(core, view, game: int, p: int) -> dict[str, Any]:
    """A piece with its unit card's values (unit cards; units.yaml): figures left - flag - move
    (mounted: the mounted move); a unit with vehicles shows its figures / vehicles."""
    sc, u = core.scenario, core.scenario.units
    card = int(sc.piece_card[p])
    kind = int(u.kind[card])
    figures = str(int(view.p_figures[game, p]))
    if u.vehicles[card]:
        figures += f"/{int(view.p_vehicles[game, p])}"
    move = int(u.move_mounted[card] if view.p_mounted[game, p] else u.move[card])
    c = int(sc.piece_colour[p])
    # the card's name, its parenthesis set off by a dash (the page's counter shows the first words)
    printed = load_rulebook_data()[1].cards[u.names[card]].name.replace(" (", ", ").replace(")", "")
    name = f"#{p} " + (f"{COLOURS[c]} " if c >= 0 else "") + printed + (", mounted" if view.p_mounted[game, p] else "")
    symbol = "engineer" if u.engineers[card] else SYMBOL_OF_KIND.get(kind, "infantry")
    return {"id": p, "hex": int(view.p_hex[game, p]), "side": int(sc.piece_side[p]), "name": name, "symbol": symbol,
            "values": f"{figures}-{int(u.flag[card])}-{move}", "mark": _mark(view, game, p), "face_up": True}


def _mark(view, game: int, p: int) -> str:
    """The piece moving or battling ("selected" / "attacking") and the one battled ("defending")."""
    phase = int(view.phase[game])
    if phase in BATTLE_PHASES:
        if p == view.selected[game]:
            return "attacking"
        if p == view.target[game] and phase != P_BATTLE_TARGET or p == view.rt_piece[game] and phase == P_RETREAT:
            return "defending"
        return ""
    return "selected" if p == view.selected[game] else ""


def _markers(core, view, game: int) -> list[dict[str, Any]]:
    """Objectives (owner: the side whose unit holds it now, for whom it counts; OBJECTIVE OF THE
    GAME), the obstacles of the terrain effects sheet, the planes in the air (appendix 2), the hex
    being battled and, at night, the hexes a flare lights."""
    sc = core.scenario
    unit = ~np.isin(sc.units.kind[sc.piece_card], (K_SNIPER, K_COMMANDER))   # core.victory_points
    out = []
    for o, h in enumerate(sc.objective_hex):
        there = (view.p_hex[game] == h) & unit
        owner = next((s for s in range(2) if (there & (sc.piece_side == s)).any()
                      and sc.objective_for[o] in (s, BOTH)), -1)
        out.append({"hex": int(h), "kind": "objective", "owner": int(owner),
                    "text": f"{sc.objective_names[o]} ({int(sc.objective_points[o])} VP)"})
    for h in np.flatnonzero(view.features[game]):
        bits = int(view.features[game, h])
        out.append({"hex": int(h), "kind": "obstacle", "owner": -1,
                    "text": ", ".join(FEATURES[f].replace("_", " ") for f in range(len(FEATURES)) if bits >> f & 1)})
    for k in range(view.pl_state.shape[1]):
        if view.pl_state[game, k] in (PL_FLYING, PL_FOUGHT) and view.pl_hex[game, k] >= 0:
            side = int(view.pl_side[game, k])
            out.append({"hex": int(view.pl_hex[game, k]), "kind": "plane", "owner": side,
                        "text": f"{sc.sides[side]} {PLANE_NAMES[int(view.pl_kind[game, k])]}"})
    if view.target_hex[game] >= 0:
        out.append({"hex": int(view.target_hex[game]), "kind": "target", "owner": -1, "text": "the hex battled"})
    for h in np.flatnonzero(view.lit[game]):
        out.append({"hex": int(h), "kind": "flare", "owner": -1, "text": "lit by a flare"})
    return out


def _cards(core, view, game: int, viewer: int | None) -> list[dict[str, Any]]:
    """The viewer's own hands (``_hand``): the other side's are stand-ins in a view, never named.
    A spectator (None) is shown both sides' hands, each card's name led by its side's, none to
    play."""
    if viewer is None:
        return [{**card, "name": f"{core.scenario.sides[s]}: {card['name']}"}
                for s in range(2) for card in _hand(core, view, game, s, deciding=False)]
    return _hand(core, view, game, viewer, deciding=int(view.current_player[game]) == viewer)


def _hand(core, view, game: int, side: int, deciding: bool) -> list[dict[str, Any]]:
    """``side``'s hands: its command cards in slot order, then its air support cards.  When the
    side is ``deciding``, a card's ``action`` is the one that plays it now: its hand slot (CARD_k)
    at "command card: play" / "discard" (1. Play a command card), the air support slot at the air
    support phases (appendix 2), YES for the first 'pick an air support' card at the end of the
    turn (sequence.air_pick_card)."""
    sc = core.scenario
    H = sc.num_hexes
    phase = int(view.phase[game])
    out = []
    hand = np.flatnonzero(view.card_pile[game] == PILE_HAND + side)
    picked = False
    for c in hand[np.argsort(view.card_pos[game, hand], kind="stable")]:
        c = int(c)
        action = ACTIONS[int(sc.card_action[c])]
        n = int(sc.card_order[c])
        if action == "standard":
            text = f"Order {n} {COLOURS[int(sc.card_colour[c])]} unit(s) or freestanding commander(s)."
        else:
            text = CARD_TEXT[action].format(n=n)
        card = {"name": sc.card_names[c], "text": text}
        if deciding and phase in (P_CARD, P_DISCARD):
            card["action"] = H + act.CARD_0 + int(view.card_pos[game, c])
            if phase == P_DISCARD:
                card["text"] += " None of your cards can order a unit: discard one and draw."
        elif deciding and phase == P_PICK_AIR and action == "air_support" and not picked:
            card["action"] = H + act.YES
            picked = True
        out.append(card)
    own = np.flatnonzero(view.as_pile[game] == 2 * side + 1)
    for c in own[np.argsort(view.as_pos[game, own], kind="stable")]:
        fb, f = (int(x) for x in sc.as_planes[int(c)])
        card = {"name": f"Air support card: {fb} FB + {f} F",
                "text": f"Play it after your moves (or in answer to the attacker's): up to {fb} fighter-bomber(s) "
                        f"and {f} fighter(s) from your air force pool (appendix 2)."}
        k = int(view.as_pos[game, c])
        if deciding and phase in (P_AIR_PLAY, P_AIR_DEFEND) and k < act.MAX_HAND:
            card["action"] = H + act.CARD_0 + k
        out.append(card)
    return out


def _roll(view, game: int) -> str:
    """The last battle throw in words: each die's colour and symbol (dice.yaml), then what it did
    (5. Resolve battle).  The throw casts the white dice first, then yellow, red and green
    (sequence.throw: ``bt_dice`` by colour, ``last_throw`` the symbols in that order)."""
    symbols = [int(s) for s in view.last_throw[game] if s >= 0]
    if not symbols:
        return ""
    colours = [DICE[d] for d in range(len(DICE)) for _ in range(int(view.bt_dice[game, d]))]
    words = ", ".join(f"{c} {SYMBOLS[s]}" for c, s in zip(colours, symbols))
    return (f"{words}: casualties {int(view.last_kills[game])}, flags {int(view.last_flags[game])}, "
            f"retreat {int(view.last_retreat[game])}")


def _status(core, view, game: int, viewer: int | None, hands: list[int]) -> list[str]:
    sc = core.scenario
    active = int(view.active[game])
    lines = [f"{sc.sides[active]}'s turn: {PHASE_NAMES[int(view.phase[game])]}"]
    if view.card[game] >= 0:
        lines.append(f"card played: {sc.card_names[int(view.card[game])]}")
    ordered = np.flatnonzero(view.p_ordered[game] & (view.p_hex[game] >= 0))
    if len(ordered):
        lines.append("ordered this turn: " + ", ".join(f"#{int(p)}" for p in ordered))
    for leader in np.unique(view.p_cc[game][view.p_cc[game] >= 0]):
        members = [int(p) for p in np.flatnonzero(view.p_cc[game] == leader) if p != leader]
        lines.append(f"combat command of #{int(leader)}: " + ", ".join(f"#{p}" for p in members))
    for s, side in enumerate(sc.sides):
        who = "you hold" if s == viewer else f"{side} holds"
        lines.append(f"{who} {hands[s]} command card(s)")
        if sc.air_force_pick[s] == 0:
            continue
        pool = view.af_pile[game] == 2 * s + 1
        support = int((view.as_pile[game] == 2 * s + 1).sum())
        if s == viewer or viewer is None:   # one's own pool is known, the other's only by its size
            kinds = sc.af_kind[pool]           # (fog.py); a spectator (None) knows both
            whose = "your" if s == viewer else side
            lines.append(f"{whose} air force pool: {int((kinds == 1).sum())} F, {int((kinds == 2).sum())} FB, "
                         f"{int((kinds == 0).sum())} blank; {support} air support card(s)")
        else:
            lines.append(f"{side} air: {int(pool.sum())} air force card(s), {support} air support card(s)")
    if view.winner[game] >= 0:
        lines.append(f"{sc.sides[int(view.winner[game])]} wins")
    return lines


def _round(x: float) -> float:
    return round(float(x), 3)
