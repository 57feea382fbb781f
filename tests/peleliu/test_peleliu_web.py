"""D-Day at Peleliu as data for the browser page (wargym/peleliu/web.py): the printed map and the
U.S. player's scene.  The facts are the rule book's (2.1, 15.2, 17.1, 17.2, 18.4) and the counters'
of configs/peleliu/, worked out by hand; a scene is built from ``core.view(state, 0)`` only, as the
page's server builds it (tests/test_web.py plays a whole game in Chromium against it).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from peleliu_board import Board, make_core
from wargym.agents import sample_legal
from wargym.data import config_path, load_yaml
from wargym.peleliu import web
from wargym.peleliu.state import JP_MAP, US_MAP

US = 0


def hexnum(label: str) -> int:
    """The hex-action number of a printed hex: h = (column - 1) * 34 + (row - 1) on the 22 x 34 map."""
    return (int(label[:2]) - 1) * 34 + int(label[2:]) - 1


@pytest.fixture(scope="module")
def board():
    return web.board(make_core("sept15", decisions="major"))


def scene_of(b: Board) -> dict:
    """The scene the server sends the U.S. player: of its view, naming it."""
    return web.scene(b.core, b.core.view(b.state, US), 0, viewer=US)


def pieces_at(scene: dict, label: str) -> list[dict]:
    return [p for p in scene["pieces"] if p["hex"] == hexnum(label)]


# ------------------------------------------------------------------------------------------ board
def test_board_hexes_run_in_hex_action_order_and_name_the_books_positions(board):
    hexes = board["hexes"]
    assert board["hex_actions"] == len(hexes) == 22 * 34                      # 2.1: a 22 x 34 map
    assert hexes[0]["label"] == "0101" and hexes[hexnum("1016")]["label"] == "1016"
    # flat-topped hexes of radius 1: 0101 one radius in, half a hex height down; 0201 (an even
    # column) half a hex lower, one and a half radii east
    assert (hexes[0]["x"], hexes[0]["y"]) == (1.0, 0.866)
    assert (hexes[hexnum("0201")]["x"], hexes[hexnum("0201")]["y"]) == (2.5, 1.732)
    # the book's Japanese action example (12.0) and 2.1
    for label, pid, colour in (("1112", "C9", "orange"), ("0613", "B12", "blue"), ("0712", "C1", "brown"),
                               ("1016", "B19", "brown")):
        assert hexes[hexnum(label)]["name"].startswith(f"position {pid} ({colour})"), label
    for label in ("0515", "0517", "0618"):                                    # 2.1: no id letter/number
        assert hexes[hexnum(label)]["name"].startswith("provisional counterattack position"), label
    assert "landing beach" in hexes[hexnum("0214")]["name"]                   # 11.3 example
    assert hexes[hexnum("0101")]["name"] == ""
    # 15.2: "coral positions A5 and A6"
    for h in (o["hex"] for o in board["objectives"] if o["name"].split(":")[0] in ("A5", "A6")):
        assert hexes[h]["terrain"] == "coral"


def test_board_objectives_are_the_positions_whose_securing_scores(board):
    names = {o["name"].split(":")[0]: o["name"] for o in board["objectives"]}
    assert "goal 3" in names["A5"] and "goal 3" in names["A6"]               # 15.2 goal 3
    assert sum("goal 1" in n for n in names.values()) == 13                  # 17.1: all 13 beach-firing
    provisional = {hexnum(x) for x in ("0515", "0517", "0618")}
    assert not provisional & {o["hex"] for o in board["objectives"]}        # never count (17.1)
    assert "C9" not in names                          # zone C, no fire on a landing beach: no goal of 15.2
    assault = web.board(make_core("assault", decisions="major"))["objectives"]
    assert sum(o["name"][0] in "AB" for o in assault) == 40                  # 17.2: "forty positions"
    assert web.board(make_core("bnr", decisions="major"))["objectives"] == []   # 18.4: units, not positions


def test_board_is_plain_json_with_a_style_for_everything_drawn(board):
    assert json.loads(json.dumps(board)) == board
    assert board["players"] == ["us"] and len(board["sides"]) == 2           # the U.S. and the cards' Japanese
    assert {h["terrain"] for h in board["hexes"]} <= set(board["terrains"])
    assert board["terrains"]["sea"] == {"fill": "#5c94cc", "passable": False}  # render.py's (92, 148, 204)
    assert {line["kind"] for line in board["lines"]} <= set(board["line_styles"])
    assert {area["kind"] for area in board["areas"]} <= set(board["area_styles"])
    cliffs = load_yaml(config_path("peleliu", "map.yaml"))["cliffs"]
    assert sum(line["kind"] == "cliff" for line in board["lines"]) == len(cliffs)   # 7.32, each hexside once
    positions = load_yaml(config_path("peleliu", "positions.yaml"))["positions"]
    assert sum(line["kind"].startswith("position ") for line in board["lines"]) == len(positions)
    assert sum(line["kind"].startswith("group ") for line in board["lines"]) == \
        sum(p.get("group") is not None for p in positions) // 2               # 2.1: one line per group
    rules = board["phase_rules"]
    assert set(rules) <= set(make_core().phase_names)
    assert (rules["amphibious: land in beach hex"], rules["close combat: withdraw"],
            rules["garrison: position hex"]) == ("5.2", "8.63", "14.4")


# ------------------------------------------------------------------------------------------ scene
def test_scene_prints_us_counters_as_configs_peleliu_gives_them():
    b = Board(turn=7)
    b.us("A/1/1", 213)               # 4 steps: strength 7, range 2 (counters.yaml)
    b.us("B/1/5", 917, steps=3)      # 3 steps: strength 5, no range, prints BR BZ MG (8.21)
    b.us("Art/1/11", 1213)           # strength 4, range U (2.21: unlimited)
    b.box("C/1/1", "W1")
    scene = scene_of(b)
    a11, = pieces_at(scene, "0213")
    assert (a11["id"], a11["name"], a11["values"], a11["side"], a11["face_up"]) == (0, "A/1/1", "7-2 4st", 0, True)
    b15, = pieces_at(scene, "0917")
    assert (b15["name"], b15["values"], b15["symbol"]) == ("B/1/5 (BR+BZ+MG)", "5 3st", "infantry")
    art, = pieces_at(scene, "1213")
    assert (art["values"], art["symbol"]) == ("4-U 1st", "artillery")
    w1, = [box for box in scene["boxes"] if box["title"].startswith("Landing box W1")]
    assert [(p["name"], p["hex"], p["values"]) for p in w1["pieces"]] == [("C/1/1", -1, "7-2 4st")]


def test_scene_shows_a_face_down_japanese_unit_blank_and_a_revealed_one_printed():
    b = Board(turn=7)
    b.jp(1016, "J47", depth=0)       # face down in B19, a face-down depth marker under it
    b.jp(1215, "J22")                # face down in B7; both infantry (counters.yaml)
    scene = scene_of(b)
    j47, = pieces_at(scene, "1016")
    assert (j47["side"], j47["face_up"], j47["name"], j47["values"], j47["symbol"]) == (1, False, "", "", "infantry")
    depth, = [m for m in scene["markers"] if m["hex"] == hexnum("1016") and m["kind"] == "depth marker"]
    assert "face-down" in depth["text"]
    text = json.dumps(scene)
    assert "J47" not in text and "J22" not in text
    # 9.1: a face-down counter shows only its type, so the two infantry counters swapped read the same
    swapped = Board(turn=7)
    swapped.jp(1016, "J22", depth=0)
    swapped.jp(1215, "J47")
    assert scene_of(swapped) == scene
    b.state.jp_rev[0, b.jp_unit("J47")] = True                               # revealed (9.1)
    j47, = pieces_at(scene_of(b), "1016")
    assert (j47["face_up"], j47["name"], j47["values"]) == (True, "J47 (BR+BZ+FL)", "3")   # 2.22
    assert j47["id"] == len(b.sc.us_names) + b.jp_unit("J47")


def test_a_spectator_of_the_whole_game_sees_a_face_down_japanese_unit_named():
    """A replay watched whole (wargym.web.film with no viewer) draws the real state with viewer
    None: J47, face down in B19, is shown with its name and values (2.22), said to lie face down;
    its face-down depth marker stays its kind, as on render.py's full board."""
    b = Board(turn=7)
    b.jp(1016, "J47", depth=0)
    everyone = web.scene(b.core, b.state, 0, viewer=None)
    j47, = pieces_at(everyone, "1016")
    assert (j47["face_up"], j47["name"], j47["values"]) == (True, "J47 (BR+BZ+FL), face down", "3")
    depth, = [m for m in everyone["markers"] if m["hex"] == hexnum("1016") and m["kind"] == "depth marker"]
    assert depth["text"].endswith("face-down under J47 (2.24)")


def test_scene_shows_every_unit_of_the_view_once_at_its_hex():
    core = make_core("sept15", decisions="major")
    state, rng = core.init(3, 4), np.random.default_rng(2)
    for _ in range(70):
        live = ~(core.terminated(state) | core.truncated(state))
        state = core.step(state, sample_legal(rng, core.legal_mask(state)), active=live)
    N = len(core.scenario.us_names)
    for g in range(3):
        view = core.view(state.take([g]), US)
        scene = web.scene(core, view, 0, viewer=US)
        assert json.loads(json.dumps(scene)) == scene
        on_map = {p["id"]: p["hex"] for p in scene["pieces"]}
        assert len(on_map) == len(scene["pieces"])
        us = {int(u): int(view.us_hex[0, u]) for u in np.flatnonzero(view.us_loc[0] == US_MAP)}
        jp = {N + int(j): int(view.jp_hex[0, j]) for j in np.flatnonzero(view.jp_loc[0] == JP_MAP)}
        assert on_map == us | jp and us
        boxed = [p["id"] for box in scene["boxes"] for p in box["pieces"]]
        assert len(set(boxed)) == len(boxed) and not set(boxed) & set(on_map)
        assert all(p["hex"] == -1 for box in scene["boxes"] for p in box["pieces"])
        for p in scene["pieces"]:
            if p["side"] == 1 and not p["face_up"]:
                assert p["name"] == p["values"] == ""
        assert scene["tracks"][0]["value"] == int(view.turn[0]) and scene["dice"] == []
        k = int(view.fire_card[0])
        assert [c["name"] for c in scene["cards"]] == ([f"Fire card {k + 1}"] if k >= 0 else [])
