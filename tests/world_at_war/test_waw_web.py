"""The World at War in the browser page (wargym/world_at_war/web.py): the printed map and a side's
scene, checked against the scenario file (configs/world_at_war/scenarios/pacific.yaml), the unit
cards (units.yaml), the command cards (cards.yaml) and the book; the whole game clicked in a browser
and the leak test over perturbed hidden facts are tests/test_web.py's."""

from __future__ import annotations

import json

import numpy as np
import pytest

from waw_board import at, card_named, give_hand
from wargym import make_core
from wargym.agents import sample_legal
from wargym.position import Position
from wargym.world_at_war import actions as act
from wargym.world_at_war.state import P_AIR_DEFEND, P_AIR_PLAY, P_CARD, P_DISCARD, P_PICK_AIR, PILE_HAND
from wargym.world_at_war.web import board, scene

US, JAPAN = 0, 1


@pytest.fixture(scope="module")
def core():
    return make_core("world_at_war", scenario="pacific")


def played(core, steps: int, batch: int = 8, seed: int = 4):
    """A batch of pacific games after ``steps`` random legal decisions each."""
    state, rng = core.init(batch, seed), np.random.default_rng(seed)
    for _ in range(steps):
        live = ~(core.terminated(state) | core.truncated(state))
        state = core.step(state, sample_legal(rng, core.legal_mask(state)), active=live)
    return state


def at_hex(sc, s: dict, label: str) -> list[dict]:
    return [p for p in s["pieces"] if p["hex"] == sc.grid.index(int(label))]


# ------------------------------------------------------------------------------------- the board
def test_waw_web_board_names_the_airstrip_objective_at_0702(core):
    b = board(core)
    h = core.scenario.grid.index(702)
    # pacific.yaml: objectives 0702 "Airstrip" (1 point, for the US); map row 2, column 7 is "." (clear)
    assert {"hex": h, "name": "Airstrip", "vp": 1} in b["objectives"]
    assert b["hexes"][h] == {**b["hexes"][h], "label": "0702", "name": "Airstrip", "terrain": "clear"}
    ridge = core.scenario.grid.index(304)   # "West ridge" on row 4's "H" of column 3
    assert b["hexes"][ridge]["name"] == "West ridge" and b["hexes"][ridge]["terrain"] == "hill"
    assert [o["name"] for o in b["objectives"]] == ["Airstrip", "West ridge", "East ridge"]
    # 13 columns x 9 rows, in hex-action order: action h points at hex h
    assert b["hex_actions"] == 117 and len(b["hexes"]) == 117
    assert [x["label"] for x in b["hexes"]] == [core.scenario.grid.label(i) for i in range(117)]
    assert b["hexes"][core.scenario.grid.index(108)]["terrain"] == "beach"    # row 8: landing beach
    assert b["hexes"][core.scenario.grid.index(109)]["terrain"] == "sea"      # row 9: sea


def test_waw_web_board_terrain_sheet_passable_and_json(core):
    b = board(core)
    # terrain effects sheet: a river is entered "only at fords or bridges" (enter: none); the sea
    # ("Maximum 1 hex") and the depression (infantry only) may be entered
    assert not b["terrains"]["river"]["passable"]
    assert b["terrains"]["sea"]["passable"] and b["terrains"]["depression"]["passable"]
    assert all(t["fill"].startswith("#") and len(t["fill"]) == 7 for t in b["terrains"].values())
    assert json.loads(json.dumps(b)) == b
    assert b["players"] == ["us", "japan"] and [s["name"] for s in b["sides"]] == ["us", "japan"]


def test_waw_web_phase_rules_cite_the_game_turn_steps(core):
    rules = board(core)["phase_rules"]
    assert set(rules) == set(core.phase_names) - {"game over"}
    # GAME TURN: "1. Play a command card", "2. Order units", "3. Move", "4. Battle"
    assert rules["command card: play"] == "1. Play a command card"
    assert rules["command card: discard (none orders)"] == "1. Play a command card"
    assert rules["order: piece"] == "2. Order units"
    assert rules["move: destination"] == "3. Move" and rules["battle: target hex"] == "4. Battle"
    assert rules["retreat: hex"] == "Retreat rules"


# ------------------------------------------------------------------------------------- the scene
def test_waw_web_us_rifle_squad_at_0808_has_six_figures_flag_six_move_one(core):
    sc = core.scenario
    state = core.init(1, 0)
    s = scene(core, core.view(state, US), 0, viewer=US)
    # pacific.yaml: us_infantry, red, 0808, figures 6 ("losses on the run-in"); units.yaml:
    # "US rifle squad", flag 6, move 1
    squad, = at_hex(sc, s, "0808")
    assert squad["side"] == US and squad["symbol"] == "infantry" and squad["values"] == "6-6-1"
    assert "red" in squad["name"] and "US rifle squad" in squad["name"] and squad["face_up"]
    # 0308: the green M4 Sherman medium tanks, 3 models, flag 3, move 3
    tank, = at_hex(sc, s, "0308")
    assert tank["symbol"] == "armor" and tank["values"] == "3-3-3" and "green" in tank["name"]
    # 0608: a red rifle squad (8 figures) and a commander (1 figure, flag 2, move 3) share the hex
    stack = sorted(at_hex(sc, s, "0608"), key=lambda p: p["symbol"])
    assert [(p["symbol"], p["values"]) for p in stack] == [("hq", "1-2-3"), ("infantry", "8-6-1")]
    # 1005: the Japanese sniper alone in the jungle (1 figure, flag 2, move 2)
    sniper, = at_hex(sc, s, "1005")
    assert sniper["side"] == JAPAN and sniper["values"] == "1-2-2" and "Sniper" in sniper["name"]
    assert s["boxes"] == [] and s["dice"] == []
    tracks = {t["name"]: t for t in s["tracks"]}
    # the quotas of pacific.yaml: US 9, Japan 5
    assert tracks["Victory points us"]["max"] == 9 and tracks["Victory points japan"]["max"] == 5


def test_waw_web_every_piece_on_the_map_appears_once(core):
    state = played(core, 300)
    for viewer in (US, JAPAN):
        view = core.view(state, viewer)
        for g in range(state.batch_size):
            s = scene(core, view, g, viewer=viewer)
            on_map = np.flatnonzero(view.p_hex[g] >= 0).tolist()
            assert sorted(p["id"] for p in s["pieces"]) == on_map
            assert all(p["hex"] == int(view.p_hex[g, p["id"]]) for p in s["pieces"])
            gone = [p["id"] for box in s["boxes"] for p in box["pieces"]]
            assert sorted(gone) == np.flatnonzero(view.p_hex[g] < 0).tolist()
            assert all(p["hex"] == -1 for box in s["boxes"] for p in box["pieces"])
            assert json.loads(json.dumps(s)) == s


def hand_names(core, state, side: int, g: int) -> list[str]:
    cards = np.flatnonzero(state.card_pile[g] == PILE_HAND + side)
    return [core.scenario.card_names[int(c)] for c in cards[np.argsort(state.card_pos[g, cards])]]


def test_waw_web_other_sides_cards_never_appear(core):
    # "The information on the cards is only revealed when they are played"
    state = played(core, 200)
    seen_other = 0
    for viewer in (US, JAPAN):
        view = core.view(state, viewer)
        for g in range(state.batch_size):
            s = scene(core, view, g, viewer=viewer)
            mine, theirs = hand_names(core, state, viewer, g), hand_names(core, state, 1 - viewer, g)
            assert [c["name"] for c in s["cards"] if not c["name"].startswith("Air support card")] == mine
            played_card = core.scenario.card_names[int(state.card[g])] if state.card[g] >= 0 else None
            hidden = set(theirs) - set(mine) - {played_card}
            text = json.dumps(s)
            assert not [name for name in hidden if name in text]
            seen_other += len(hidden)
            other = core.players[1 - viewer]
            assert f"{other} holds {len(theirs)} command card(s)" in s["status"]
            if viewer == JAPAN:   # the US air support cards: counted, never shown to Japan
                assert not [c for c in s["cards"] if c["name"].startswith("Air support card")]
    assert seen_other > 0   # the check had cards to hide


def test_waw_web_card_action_plays_the_card_in_its_hand_slot(core):
    sc, H = core.scenario, core.scenario.num_hexes
    state = core.init(1, 0)
    hand = [card_named(core, "Pick an air support"), card_named(core, "Armour assault: order 3"),
            card_named(core, "order 1 red")]
    give_hand(state, US, hand)
    state = at(core, state, P_CARD, active=US)
    s = scene(core, core.view(state, US), 0, viewer=US)
    assert [c["name"] for c in s["cards"][:3]] == ["Pick an air support", "Armour assault: order 3", "order 1 red"]
    actions = [c["action"] for c in s["cards"][:3]]
    assert actions == [H + act.CARD_0 + k for k in range(3)]
    # cards.yaml: 'pick an air support' orders no unit (order 0): it is no card to play at 1.;
    # the US has tanks (armour assault) and red units
    assert state.legal_action_mask[0, actions].tolist() == [False, True, True]
    # Japan is not deciding: its cards play nothing now
    assert all("action" not in c for c in scene(core, core.view(state, JAPAN), 0, viewer=JAPAN)["cards"])
    # the end of the turn: YES plays the first 'pick an air support' card (appendix 2)
    give_hand(state, US, [card_named(core, "order 1 red"), hand[0], card_named(core, "Pick an air support") + 1])
    state = at(core, state, P_PICK_AIR, active=US)
    cards = scene(core, core.view(state, US), 0, viewer=US)["cards"]
    assert [c.get("action") for c in cards[:3]] == [None, H + act.YES, None]
    assert sc.card_names[card_named(core, "Pick an air support") + 1] == "Pick an air support"


def test_waw_web_card_action_is_legal_exactly_when_the_mask_lets_the_card_be_played(core):
    H = core.scenario.num_hexes
    card_range = set(range(H + act.CARD_0, H + act.PIECE_0))
    state, rng = core.init(8, 9), np.random.default_rng(9)
    checked = 0
    for _ in range(400):
        live = ~(core.terminated(state) | core.truncated(state))
        state = core.step(state, sample_legal(rng, core.legal_mask(state)), active=live)
        for viewer in (US, JAPAN):
            view = core.view(state, viewer)
            for g in range(state.batch_size):
                cards = scene(core, view, g, viewer=viewer)["cards"]
                actions = [c["action"] for c in cards if "action" in c]
                if state.current_player[g] != viewer or not live[g]:
                    assert actions == []
                    continue
                mask = state.legal_action_mask[g]
                phase = int(state.phase[g])
                if phase in (P_CARD, P_DISCARD, P_AIR_PLAY, P_AIR_DEFEND):
                    assert {a for a in actions if mask[a]} == {a for a in card_range if mask[a]}
                    assert len(set(actions)) == len(actions)
                    checked += 1
                elif phase == P_PICK_AIR:
                    assert actions == [H + act.YES] and mask[H + act.YES]
                else:
                    assert actions == []
    assert checked > 50


def test_waw_web_last_throw_shows_symbols_and_marks_the_battle():
    # README, "Set up a position": the squad at 0808 throws 3 white dice at the Japanese at 0807,
    # forced to soldier, soldier, flag: 2 hits (the first automatic), 2 figures lost, 1 flag, a
    # retreat of 1 hex
    core = make_core("world_at_war", scenario="pacific", every_decision=True)
    squad, japanese = "us red us_infantry #6", "japan red jp_infantry #13"
    pos = Position(core, seed=0)
    pos.set("form_side", -1)
    pos.set("p_hex", "0807", item=japanese).set("p_figures", 5, item=japanese)
    pos.set("p_ordered", True, item=squad)
    pos.set("active", "us").set("phase", "battle: piece")
    state = pos.settle()

    def act_(state, words):
        for a in np.flatnonzero(state.legal_action_mask[0]):
            if core.describe_action(int(a), state).startswith(words):
                return np.array([a])
        raise ValueError(words)

    state = core.step(state, act_(state, squad))
    state = core.step(state, act_(state, "hex 0807"))
    state = core.force(state, [1, 2, 5, 6, 6, 1])
    state = core.step(state, act_(state, "no"))
    for viewer in (US, JAPAN):
        s = scene(core, core.view(state, viewer), 0, viewer=viewer)
        assert s["dice"] == [1, 1, 8]   # scenario.SYMBOLS: soldier 1, flag 8
        assert s["roll"] == "white soldier, white soldier, white flag: casualties 2, flags 1, retreat 1"
        marks = {p["id"]: p["mark"] for p in s["pieces"] if p["mark"]}
        assert marks == {6: "attacking", 13: "defending"}
        assert s["phase"] == "retreat: hex"
        japanese_squad, = [p for p in s["pieces"] if p["id"] == 13]
        assert japanese_squad["values"] == "3-4-1"   # 5 less 2 figures; jp_infantry flag 4, move 1
        assert {"hex": core.scenario.grid.index(807), "kind": "target", "owner": -1,
                "text": "the hex battled"} in s["markers"]


def test_waw_web_scene_at_game_over_shows_each_side_its_own_hands(core):
    """The game over, no side decides, so a view no longer tells whose it is: the server names the
    viewer (WebGames._scene), and each side is still shown its own command cards and the other's
    only counted ("The information on the cards is only revealed when they are played").  A
    spectator of the whole game (the real state, viewer None) is shown both hands."""
    from wargym.agents.world_at_war_rule import WorldAtWarRuleAgent
    from wargym.web.server import WebGames

    state = core.init(1, 0)
    agents = [WorldAtWarRuleAgent(seed=1), WorldAtWarRuleAgent(seed=2)]
    for _ in range(3000):
        if core.terminated(state)[0] or core.truncated(state)[0]:
            break
        p = int(state.current_player[0])
        state = core.step(state, agents[p].act(core, state, p))
    assert core.terminated(state)[0]
    hands = [hand_names(core, state, side, 0) for side in (US, JAPAN)]
    assert hands[US] and hands[JAPAN] and hands[US] != hands[JAPAN]   # a scene of the wrong side would show
    for viewer in (US, JAPAN):
        s = WebGames._scene(core, state, viewer)["scene"]
        assert [c["name"] for c in s["cards"] if not c["name"].startswith("Air support card")] == hands[viewer]
        assert f"you hold {len(hands[viewer])} command card(s)" in s["status"]
        assert f"{core.players[1 - viewer]} holds {len(hands[1 - viewer])} command card(s)" in s["status"]
    everyone = scene(core, state, 0, viewer=None)
    assert [c["name"] for c in everyone["cards"] if "Air support card" not in c["name"]] == \
        [f"{side}: {name}" for side, hand in zip(core.players, hands) for name in hand]
    assert not any("action" in c for c in everyone["cards"])
    assert not any(line.startswith(("you hold", "your")) for line in everyone["status"])
