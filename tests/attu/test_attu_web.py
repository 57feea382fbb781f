"""Attu as data for the browser page (wargym/attu/web.py): the printed map and a side's scene.

The facts are worked out by hand from the rule book and configs/attu, not from the functions'
output.  The position is the README's ("Set up a position"): the campaign's start (seed 0), Japan's
historic set-up (12.3) with Unknown 136 face down on Engineer Hill (2717), and the U.S. company
2/17 E set down below it in 2618, the U.S. to act.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from attu_board import Board, Play, jp
from wargym import make_core
from wargym.attu import web
from wargym.attu.scenario import JAPAN, US
from wargym.attu.state import LOC_MAP
from wargym.position import Position
from wargym.web.shapes import hexside_points


@pytest.fixture(scope="module")
def game():
    """(core, state): the README's position, the U.S. to decide."""
    core = make_core("attu", every_decision=True)
    company = "2/17 E"
    pos = Position(core, seed=0)
    pos.set("unit_loc", "map", item=company).set("unit_hex", "2618", item=company)
    pos.set("turn", 5).set("weather", "cloudy").set("night", False)
    pos.set("acting", 0).set("first", 0).set("phase", "actions: select")
    return core, pos.settle()


@pytest.fixture(scope="module")
def board(game):
    return web.board(game[0])


def hex_of(core, number: int) -> int:
    return core.scenario.grid.index(number)


def scene_of(core, state, viewer: int) -> dict:
    """The scene the server sends ``viewer``: of its view, naming the viewer."""
    return web.scene(core, core.view(state, viewer), 0, viewer=viewer)


def named(scene: dict, name: str) -> dict:
    found = [p for p in scene["pieces"] + [q for b in scene["boxes"] for q in b["pieces"]] if p["name"] == name]
    assert len(found) == 1, name
    return found[0]


# ----------------------------------------------------------------------------------------- board
def test_victory_hex_2717_engineer_hill_is_an_objective_with_its_label(game, board):
    core, _ = game
    h = hex_of(core, 2717)
    assert {"hex": h, "name": "Engineer Hill"} in board["objectives"]
    assert board["hexes"][h]["label"] == "2717" and board["hexes"][h]["name"] == "Engineer Hill"


def test_the_six_victory_hexes_of_3_8_1_are_the_objectives(game, board):
    labels = {board["hexes"][o["hex"]]["label"]: o["name"] for o in board["objectives"]}
    # 3.8.1: 1425 Temnac Bay, 2011 Holtz Bay, 2117 Jarmin Pass, 2717 Engineer Hill, 3409 Attu Village,
    # 3622 Alexai Point (the book's "Alexei" is the map's Alexai)
    assert labels == {"1425": "Temnac Bay", "2011": "Holtz Bay", "2117": "Jarmin Pass", "2717": "Engineer Hill",
                      "3409": "Attu Village", "3622": "Alexai Point"}


def test_hexes_are_in_hex_action_order_on_the_42_by_28_map(game, board):
    core, _ = game
    assert board["hex_actions"] == 42 * 28 == len(board["hexes"])
    assert board["hexes"][0]["label"] == "0101" and board["hexes"][hex_of(core, 4228)]["label"] == "4228"
    # flat-topped hexes: a column is 1.5 radii from the next, a row sqrt(3) below the one above
    a, b, c = board["hexes"][hex_of(core, 2717)], board["hexes"][hex_of(core, 2817)], board["hexes"][hex_of(core, 2718)]
    assert b["x"] - a["x"] == pytest.approx(1.5, abs=0.01) and c["y"] - a["y"] == pytest.approx(3 ** 0.5, abs=0.01)
    assert c["x"] == a["x"]


def test_the_cliff_between_2717_and_2817_is_a_cliff_line(game, board):
    core, _ = game
    a, b = hex_of(core, 2717), hex_of(core, 2817)
    side = hexside_points(core.scenario.grid.center[a], core.scenario.grid.direction(a, b))
    cliffs = [sorted(map(tuple, line["points"])) for line in board["lines"] if line["kind"] == "cliff"]
    assert sorted(map(tuple, side)) in cliffs
    assert board["line_styles"]["cliff"]["stroke"] == "#101010"   # render.py's CLIFF (16, 16, 16)


def test_every_line_and_area_kind_has_a_style_and_sea_is_impassable(board):
    assert {line["kind"] for line in board["lines"]} == {"coast", "zone boundary", "cliff", "river", "slope",
                                                         "landing zone"}
    assert {line["kind"] for line in board["lines"]} <= set(board["line_styles"])
    assert {area["kind"] for area in board["areas"]} == {"lake"} <= set(board["area_styles"])
    assert {h["terrain"] for h in board["hexes"]} <= set(board["terrains"])
    assert not board["terrains"]["sea"]["passable"] and board["terrains"]["level 2"]["passable"]
    # configs/attu/map.yaml: 6 lakes, 58 cliff hexsides, 9 Landing Zones A-I
    assert sum(a["kind"] == "lake" for a in board["areas"]) == 6
    assert sum(line["kind"] == "cliff" for line in board["lines"]) == 58
    assert sum(line["kind"] == "landing zone" for line in board["lines"]) == 9


def test_landing_zone_f_holds_15_steps(game, board):
    # 9.2 example: zone F "can only support 15 steps total"; map.yaml puts F on 2922
    assert "Landing Zone F (15 steps)" in board["hexes"][hex_of(game[0], 2922)]["name"]


def test_phase_rules_name_decision_phases_with_the_books_rules(game, board):
    core, _ = game
    assert set(board["phase_rules"]) <= set(core.phase_names)
    assert board["phase_rules"]["refit decision"] == "3.1"      # 3.1 Step 1: Refit Decision
    assert board["phase_rules"]["night decision"] == "3.2"      # 3.2 Step 2: Night Turn Decision
    assert board["phase_rules"]["melee: select target"] == "3.7"
    assert board["phase_rules"]["retreat option"] == "8.2.1.3"
    assert board["phase_rules"]["Joe Martinez"] == "11.1" and board["phase_rules"]["General Arnold"] == "11.2"
    assert "game over" not in board["phase_rules"]


def test_sides_are_us_and_japan_with_the_counter_colours(board):
    assert [s["name"] for s in board["sides"]] == ["US", "Japan"]
    assert board["sides"][US]["fill"] == "#788648" and board["sides"][JAPAN]["fill"] == "#e2c892"  # render.py


# ----------------------------------------------------------------------------------------- scene
def test_a_named_units_printed_values_are_its_counter_values(game):
    core, state = game
    us = scene_of(core, state, US)
    # counters.yaml: a rifle company (2/17 E) at 4 steps rolls melee 6, ranged 2, range 2, moves 7
    company = named(us, "2/17 E")
    assert company["hex"] == hex_of(core, 2618) and company["values"] == "6-2²-7"
    assert company["symbol"] == "infantry" and company["face_up"] and company["side"] == US
    # 12.5: the 7th Recon Troop starts at 3 steps; recon_troop at 3 steps: melee 3, ranged 2, range 2, move 10
    assert named(us, "7 Recon Troop")["values"] == "3-2²-10"


def test_a_reduced_company_without_ranged_dice_shows_melee_and_movement(game):
    core, _ = game
    sc = core.scenario
    u = sc.unit_names.index("2/17 E")
    # counters.yaml rifle_company: melee [1, 3, 4, 6], ranged [0, 1, 1, 2]; 2.2: no ranged rating left at 1 step
    assert [web.values(sc, u, k) for k in (4, 3, 2, 1)] == ["6-2²-7", "4-1²-7", "3-1²-7", "1-7"]
    # howitzer_105: 2 steps, ranged [3, 5] at range 8, melee [1, 1], fixed (move 0)
    assert web.values(sc, sc.unit_names.index("105mm A"), 2) == "1-5⁸-0"


def test_a_face_down_japanese_counter_is_blank_to_the_us_and_face_up_to_japan(game):
    core, state = game
    eh = hex_of(core, 2717)
    seen_by_us = [p for p in scene_of(core, state, US)["pieces"] if p["hex"] == eh]
    assert len(seen_by_us) == 1
    assert seen_by_us[0] == {"id": seen_by_us[0]["id"], "hex": eh, "side": JAPAN, "name": "", "symbol": "other",
                             "values": "", "mark": "", "face_up": False, "face_down": True}
    seen_by_japan = [p for p in scene_of(core, state, JAPAN)["pieces"] if p["hex"] == eh]
    # counters.yaml: six Unknowns of the first table (126-131), then six of the second, 1112222233
    # (die 1-10): 136 gives one Infantry on three faces, two on five, three on two
    assert [(p["name"], p["values"], p["face_up"], p["face_down"]) for p in seen_by_japan] == \
        [("Unknown 136", "3-5-2", True, True)]


def test_the_us_scene_names_no_japanese_counter_it_cannot_see(game):
    core, state = game
    text = json.dumps(scene_of(core, state, US)["pieces"] + scene_of(core, state, US)["boxes"])
    assert "Unknown" not in text and "Inf " not in text and "jp_" not in text
    japan = scene_of(core, state, JAPAN)
    # 2.5: the 64 Japanese Infantry begin the game off the map, which only Japan sees
    assert [len(b["pieces"]) for b in japan["boxes"] if b["title"].startswith("Japanese Infantry")] == [64]
    assert not any(b["title"].startswith("Japanese") for b in scene_of(core, state, US)["boxes"])


def test_every_on_map_unit_of_the_view_appears_once_at_its_hex(game):
    core, state = game
    for viewer in (US, JAPAN):
        view = core.view(state, viewer)
        scene = web.scene(core, view, 0, viewer=viewer)
        on_map = np.flatnonzero((view.unit_loc[0] == LOC_MAP) & core.scenario.unit_in_play)
        assert sorted(p["id"] for p in scene["pieces"]) == on_map.tolist()
        assert all(p["hex"] == int(view.unit_hex[0, p["id"]]) for p in scene["pieces"])
        ids = [p["id"] for p in scene["pieces"]] + [q["id"] for b in scene["boxes"] for q in b["pieces"]]
        assert len(ids) == len(set(ids))
        assert all(q["hex"] == -1 for b in scene["boxes"] for q in b["pieces"])


@pytest.fixture(scope="module")
def finished():
    """(core, state, Unknown 126): a game Japan has just won, worked as test_attu_events's 3.8.2
    test: the Casualty Track at 29, a face-up platoon in 2621 fires its one die at 1/17 A in 2422,
    a 0, a hit, the 30th box.  Unknown 126 lies face down on Engineer Hill (2717) and the other 63
    Japanese Infantry platoons wait off the map (attu_board.Board)."""
    core = make_core("attu")
    b = Board(core)
    b.place("1/17 A", 2422)
    jp(b, 2621)
    unknown = jp(b, 2717, kind="unknown", face_down=True)
    b.set(casualties=29, acting=JAPAN, act_step=1)
    p = Play(b)
    p.at(2621)
    p.force([10])
    p.at(2422)
    assert p.state.terminated[0] and p.state.rewards[0, JAPAN] == 1.0
    assert core.scenario.unit_names[unknown] == "Unknown 126"
    return core, p.state, unknown


def test_at_game_over_japan_sees_its_face_down_unknown_and_its_counters_off_the_map(finished):
    """The game over, the server still sends each side the scene of its own view (2.5 holds to the
    end): Japan knows Unknown 126 face down on 2717 (counters.yaml's first table, 1111122223:
    "5-4-1") and its 63 platoons off the map; the U.S. sees a blank counter there, no Japanese box,
    and counts the Japanese counters it took off the map (none)."""
    from wargym.web.server import WebGames

    core, state, unknown = finished
    us, japan = (WebGames._scene(core, state, side)["scene"] for side in (US, JAPAN))
    eh = hex_of(core, 2717)
    assert [(p["id"], p["name"], p["values"], p["face_up"], p["face_down"]) for p in japan["pieces"]
            if p["hex"] == eh] == [(unknown, "Unknown 126", "5-4-1", True, True)]
    assert [(p["name"], p["values"], p["face_up"]) for p in us["pieces"] if p["hex"] == eh] == [("", "", False)]
    assert [len(b["pieces"]) for b in japan["boxes"] if b["title"].startswith("Japanese Infantry")] == [63]
    assert not any(b["title"].startswith("Japanese") for b in us["boxes"])
    assert {"name": "Japanese counters taken off the map", "value": 0} in us["tracks"]
    assert not any(t["name"].startswith("Japanese") for t in japan["tracks"])
    assert any("63 Infantry in the pool" in line for line in japan["status"])
    assert not any("hidden from the US" in line for line in us["status"])


def test_a_spectator_of_the_whole_game_sees_every_counter(finished):
    """A replay watched whole (wargym.web.film with no viewer) draws the real state with viewer None:
    every counter known, Japan's face-down Unknown too, and the Japanese off the map."""
    core, state, unknown = finished
    everyone = web.scene(core, state, 0, viewer=None)
    assert [(p["id"], p["name"], p["face_up"], p["face_down"]) for p in everyone["pieces"]
            if p["hex"] == hex_of(core, 2717)] == [(unknown, "Unknown 126", True, True)]
    assert all(p["face_up"] for p in everyone["pieces"] + [q for b in everyone["boxes"] for q in b["pieces"]])
    assert [len(b["pieces"]) for b in everyone["boxes"] if b["title"].startswith("Japanese Infantry")] == [63]


def test_markers_tracks_and_status(game):
    core, state = game
    scene = scene_of(core, state, US)
    objectives = {m["hex"]: m["owner"] for m in scene["markers"] if m["kind"] == "objective"}
    assert objectives[hex_of(core, 2717)] == JAPAN            # Unknown 136 holds Engineer Hill
    assert len(objectives) == 6
    tracks = {t["name"]: t for t in scene["tracks"]}
    assert tracks["Turn (May 15)"]["value"] == 5               # 12.2: turn 1 is May 11
    assert tracks["Casualty Track"] == {"name": "Casualty Track", "value": 0, "max": 30}   # 3.8.2: 30 boxes
    assert scene["turn"] == 5 and scene["phase"] == "actions: select"
    assert scene["status"][0].startswith("Turn 5: May 15")


def test_board_and_scenes_are_json_serialisable(game, board):
    core, state = game
    assert json.loads(json.dumps(board)) == board
    for viewer in (US, JAPAN):
        scene = scene_of(core, state, viewer)
        assert json.loads(json.dumps(scene)) == scene


def test_a_short_scenario_draws_the_land_outside_its_area():
    core = make_core("attu", scenario="hogs_back")
    board = web.board(core)
    # 15.1 is fought round Engineer Hill: Holtz Bay (2011) is land outside the scenario's area
    assert board["hexes"][core.scenario.grid.index(2011)]["terrain"] == "outside the scenario"
    assert board["hexes"][core.scenario.grid.index(2717)]["terrain"].startswith("level")
    scene = scene_of(core, core.init(1, 0), US)
    assert {m["hex"] for m in scene["markers"] if m["kind"] == "objective"} <= {
        int(h) for h in core.scenario.victory_hex if core.scenario.land[h]}
    json.dumps(scene)
