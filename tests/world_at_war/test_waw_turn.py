"""The World at War, GAME TURN: playing a command card, ordering units (colours, special cards,
platoons counted as one), moving ("Moving units", "Moving commanders or snipers", the terrain
sheet's move column), commanders joining units, mounting, the draw at the end of the turn, the
discard when no card can order, objectives, the first player's D6, and the deck that refills.
"""

from __future__ import annotations

import numpy as np

from waw_board import at, card_named, give_hand, hx, label, legal_hexes, make_core, piece, special, step
from wargym.world_at_war import actions as act
from wargym.world_at_war.state import (
    P_BATTLE_SELECT, P_CARD, P_CONTROL, P_DISCARD, P_FIRST, P_FOLLOW, P_MOVE_DEST, P_MOVE_SELECT, P_ORDER,
    PILE_DISCARD, PILE_HAND,
)

US, DE = 0, 1


def moving(core, p: int):
    """State at "move: destination" for piece p, ordered."""
    return at(core, core.init(1, seed=1), P_MOVE_DEST, ordered=[p], selected=p)


# ------------------------------------------------------------------------------- cards and orders
def test_waw_standard_card_orders_its_colour_only(tmp_path):
    # "The card will tell you what colour of units (and how many) you may issue what orders to"
    units = [("us", "us_infantry", "red", "0608"), ("us", "us_infantry", "blue", "0808"),
             ("germany", "de_infantry", "red", "0602")]
    core = make_core(tmp_path, units)
    state = core.init(1, seed=1)
    give_hand(state, US, [card_named(core, "order 2 red"), card_named(core, "order 1 blue")])
    state = at(core, state, P_CARD)
    state = step(core, state, special(core, act.CARD_0))        # order 2 red
    assert state.phase[0] == P_ORDER and state.order_left[0] == 2
    assert state.legal_action_mask[0, piece(core, 0)] and not state.legal_action_mask[0, piece(core, 1)]
    assert not state.legal_action_mask[0, piece(core, 2)]       # never the enemy's


def test_waw_two_units_under_a_commander_count_as_one_order(tmp_path):
    # "As long as a commander controls two units (of whatever colour), these units are counted as
    # ONE in relation to command cards ... (of which at least one red)"
    units = [("us", "us_infantry", "red", "0608"), ("us", "us_infantry", "blue", "0708"),
             ("us", "us_infantry", "red", "0408"), ("germany", "de_infantry", "red", "0602")]
    core = make_core(tmp_path, units, commanders=[("us", "0608")])
    state = core.init(1, seed=1)
    state.p_leader[0, 1] = 4                                    # the blue unit next to him: his second
    give_hand(state, US, [card_named(core, "order 2 red")])
    state = at(core, state, P_CARD)
    state = step(core, state, special(core, act.CARD_0))
    assert state.legal_action_mask[0, piece(core, 1)]           # blue, but paired with a red unit
    state = step(core, state, piece(core, 0))
    assert state.p_ordered[0, :3].tolist() == [True, True, False] and state.order_left[0] == 1
    state = step(core, state, piece(core, 2))                   # "as well as another red unit"
    assert state.p_ordered[0, :3].all()


def test_waw_observation_tells_what_each_hand_card_could_order_now(tmp_path):
    # 2. Order units: a standard card orders up to its count of units of its colour; "Infantry
    # assault" (a special card, configs/world_at_war/cards.yaml) up to 4 infantry of any colour.
    # Three red and one blue US infantry: order 2 red -> 2, order 4 red -> 3 (only three red),
    # order 1 blue -> 1, order 3 green -> 0, Infantry assault -> 4 (observe.py 194 .. 203, / 4).
    from wargym.world_at_war.observe import G_ORDERS

    units = [("us", "us_infantry", "red", "0608"), ("us", "us_infantry", "red", "0808"),
             ("us", "us_infantry", "red", "0408"), ("us", "us_infantry", "blue", "1008"),
             ("germany", "de_infantry", "red", "0602")]
    core = make_core(tmp_path, units, hand=(5, 4))
    state = core.init(1, seed=1)
    give_hand(state, US, [card_named(core, name) for name in
                          ("order 2 red", "order 4 red", "order 1 blue", "order 3 green", "Infantry assault: order 4")])
    state = at(core, state, P_CARD)
    seen = core.observe(state, US)["global"][0, G_ORDERS:G_ORDERS + 10] * 4
    assert seen.tolist() == [2, 3, 1, 0, 4, 0, 0, 0, 0, 0]
    assert not core.observe(state, DE)["global"][0, G_ORDERS:G_ORDERS + 10].any()   # not Germany's turn
    state = step(core, state, special(core, act.CARD_0), piece(core, 0), special(core, act.DONE))
    seen = core.observe(state, US)["global"][0, G_ORDERS:G_ORDERS + 10] * 4
    # the played card has left the hand (the others move down a slot) and the red unit ordered this
    # turn is no more to order: order 4 red -> 2, order 1 blue -> 1, green -> 0, Infantry assault -> 3
    assert seen.tolist() == [2, 1, 0, 3, 0, 0, 0, 0, 0, 0]


def test_waw_observation_names_every_phase_and_nothing_else_moves_with_it():
    # the phase one-hot has a place for each of the 30 decision phases (state.PHASE_NAMES); it
    # once had 17, and the later phases' bits fell on the viewer's side entries and hand slot 0
    from wargym.world_at_war.core import WorldAtWarCore
    from wargym.world_at_war.observe import N_PHASES
    from wargym.world_at_war.state import PHASE_NAMES

    core = WorldAtWarCore("pacific")
    state = core.init(1, seed=3)
    rest = core.observe(state, US)["global"][0, N_PHASES:]
    assert N_PHASES == len(PHASE_NAMES) == 30
    for phase in range(len(PHASE_NAMES)):
        state.phase[0] = phase
        seen = core.observe(state, US)["global"][0]
        assert np.flatnonzero(seen[:N_PHASES]).tolist() == [phase], PHASE_NAMES[phase]
        assert np.array_equal(seen[N_PHASES:], rest), PHASE_NAMES[phase]


def test_waw_training_configs_pass_the_hand_orders_to_the_card_logits():
    # configs/train/world_at_war_*.yaml name the global entries by number: they must be the block
    from wargym.agents.train import load_config
    from wargym.world_at_war.observe import G_ORDERS

    for side in ("us", "japan"):
        cfg, path = load_config(f"world_at_war_{side}.yaml")
        assert cfg["extractor"]["summary_inputs"] == list(range(G_ORDERS, G_ORDERS + 10)), path


def test_waw_no_card_can_order_discard_one_and_draw_ends_the_turn(tmp_path):
    # "If none of the command cards you hold allow you to order any of your units, discard 1 card and
    # draw a replacement ... This ends your turn."
    units = [("us", "us_infantry", "red", "0608"), ("germany", "de_infantry", "red", "0602")]
    core = make_core(tmp_path, units)
    state = core.init(1, seed=1)
    air = [c for c, n in enumerate(core.scenario.card_names) if n == "Pick an air support"]
    blue = card_named(core, "order 1 blue")
    give_hand(state, US, [blue, air[0], air[1], air[2]])
    state = at(core, state, P_DISCARD)
    assert state.legal_action_mask[0].sum() == 4                # any card of the hand
    turn = int(state.turn[0])
    state = step(core, state, special(core, act.CARD_0))
    assert state.card_pile[0, blue] == PILE_DISCARD
    assert (state.card_pile[0] == PILE_HAND + US).sum() == 4
    assert state.active[0] == DE and state.turn[0] == turn + 1


def test_waw_played_card_is_discarded_and_one_drawn_at_the_end_of_the_turn(tmp_path):
    # "6. Draw a command card.  ... discard the command card played and draw another card"
    units = [("us", "us_infantry", "red", "0608"), ("germany", "de_infantry", "red", "0602")]
    core = make_core(tmp_path, units)
    state = core.init(1, seed=1)
    red = card_named(core, "order 1 red")
    give_hand(state, US, [red, card_named(core, "order 1 blue")])
    state = at(core, state, P_CARD)
    state = step(core, state, special(core, act.CARD_0), piece(core, 0))   # the order: the card's one
    state = step(core, state, piece(core, 0), hx(core, "0608"))            # it stays; nobody to battle
    assert state.card_pile[0, red] == PILE_DISCARD
    assert (state.card_pile[0] == PILE_HAND + US).sum() == 2 and state.active[0] == DE


# ------------------------------------------------------------------------------------- moving
def test_waw_units_never_move_through_units_or_enemy_commanders(tmp_path):
    # "Units cannot move onto or through a hexagon that already contains a friendly or enemy unit.
    # A friendly commander does not count as a unit, an enemy commander does."
    units = [("us", "us_medium_tank", "red", "0608"), ("us", "us_infantry", "red", "0607"),
             ("germany", "de_infantry", "red", "0202")]
    core = make_core(tmp_path, units, commanders=[("germany", "0707")])
    state = moving(core, 0)
    reach = legal_hexes(core, state)
    assert "0607" not in reach and "0707" not in reach
    assert "0606" in reach                  # around the friendly unit: 0508, 0507, 0606


def test_waw_entering_a_friendly_commanders_hex_ends_the_move(tmp_path):
    # "When a unit enters a hexagon already occupied by a friendly unit or commander, movement ends
    # there."
    units = [("us", "us_medium_tank", "red", "0609"), ("germany", "de_infantry", "red", "0202")]
    core = make_core(tmp_path, units, commanders=[("us", "0608")])
    state = moving(core, 0)
    assert "0608" in legal_hexes(core, state) and "0607" in legal_hexes(core, state)
    state = step(core, state, hx(core, "0608"))
    assert label(core, state.p_hex[0, 0]) == "0608" and state.p_leader[0, 0] == 2   # he takes control


def test_waw_commander_joins_a_friendly_unit_and_stops(tmp_path):
    # "You may move a commander or sniper onto a hex occupied by a friendly unit, as long as there is
    # no other friendly commander or sniper in the same hex ... they must end their movement"
    units = [("us", "us_infantry", "red", "0607"), ("us", "us_infantry", "red", "0707"),
             ("germany", "de_infantry", "red", "0605")]
    core = make_core(tmp_path, units, commanders=[("us", "0609")])
    state = moving(core, 3)
    reach = legal_hexes(core, state)
    assert "0607" in reach and "0606" not in reach and "0605" not in reach   # 0606: only past 0607
    state = step(core, state, hx(core, "0607"))
    # "the commander takes control of this unit (and up to one more other friendly unit in an
    # adjacent hex)"
    assert state.phase[0] == P_CONTROL and state.legal_action_mask[0, piece(core, 1)]
    state = step(core, state, piece(core, 1))
    assert state.p_leader[0, :2].tolist() == [3, 3]


def test_waw_commander_may_move_with_his_unit(tmp_path):
    # "If a unit controlled by a commander is given an order, the commander may move with the unit,
    # or he may stay in place."
    units = [("us", "us_medium_tank", "red", "0609"), ("germany", "de_infantry", "red", "0202")]
    core = make_core(tmp_path, units, commanders=[("us", "0609")])
    state = moving(core, 0)
    state = step(core, state, hx(core, "0607"))
    assert state.phase[0] == P_FOLLOW
    went = step(core, state, special(core, act.YES))
    assert label(core, went.p_hex[0, 2]) == "0607" and went.p_leader[0, 0] == 2
    stayed = step(core, state, special(core, act.NO))
    assert label(core, stayed.p_hex[0, 2]) == "0609" and stayed.p_leader[0, 0] == -1


def test_waw_wood_stops_and_forbids_battle(tmp_path):
    # wood: "Stop & do not battle."
    units = [("us", "us_medium_tank", "red", "0609"), ("us", "us_infantry", "red", "0209"),
             ("germany", "de_infantry", "red", "0605")]
    core = make_core(tmp_path, units, terrain={"0608": "W"})
    state = at(core, core.init(1, seed=1), P_MOVE_DEST, ordered=[0, 1], selected=0)
    assert "0608" in legal_hexes(core, state)
    state = step(core, state, hx(core, "0608"))
    assert state.p_no_battle[0, 0]
    state = at(core, state, P_BATTLE_SELECT, ordered=[0])
    assert not state.legal_action_mask[0, piece(core, 0)]


def test_waw_wood_ends_the_move_of_a_unit_entering_it(tmp_path):
    units = [("us", "us_medium_tank", "red", "0609"), ("germany", "de_infantry", "red", "0202")]
    core = make_core(tmp_path, units, terrain={"0608": "W", "0709": "W", "0509": "W"})
    reach = legal_hexes(core, moving(core, 0))
    assert reach == ["0509", "0608", "0609", "0709"]           # its three neighbours: each wood ends the move


def test_waw_beach_and_sea_allow_one_hex(tmp_path):
    # sea, beach: "Maximum 1 hex."
    units = [("us", "us_medium_tank", "red", "0609"), ("germany", "de_infantry", "red", "0202")]
    core = make_core(tmp_path, units, terrain={"0609": "b"})
    reach = legal_hexes(core, moving(core, 0))
    assert reach == ["0509", "0608", "0609", "0709"]


def test_waw_river_only_at_fords_and_bridges_and_a_ford_stops(tmp_path):
    # river: "Can only be crossed at fords or bridges ... Crossing by fords takes 1 turn."
    row = {f"{c:02d}07": "R" for c in range(1, 14)}
    row["0607"] = "F"
    row["0907"] = "="
    units = [("us", "us_medium_tank", "red", "0608"), ("us", "us_medium_tank", "blue", "0908"),
             ("germany", "de_infantry", "red", "0202")]
    core = make_core(tmp_path, units, terrain=row)
    reach = legal_hexes(core, moving(core, 0))
    assert "0607" in reach and "0606" not in reach and "0707" not in reach
    reach = legal_hexes(core, moving(core, 1))
    assert "0907" in reach and "0906" in reach                 # over the bridge


def test_waw_depressions_and_bunkers_admit_infantry_only(tmp_path):
    units = [("us", "us_medium_tank", "red", "0609"), ("us", "us_infantry", "blue", "0809"),
             ("germany", "de_infantry", "red", "0202")]
    core = make_core(tmp_path, units, terrain={"0608": "D", "0709": "D"}, features=[("0808", "bunker")])
    reach = legal_hexes(core, moving(core, 0))
    assert "0608" not in reach and "0709" not in reach
    reach = legal_hexes(core, moving(core, 1))
    assert "0709" in reach and "0808" in reach


def test_waw_debris_costs_vehicles_one_hex_more(tmp_path):
    # debris & low walls: "Stop.  Vehicles -1 hex to cross."  A tank (3 hexes) reaches debris 2 hexes
    # away (1 + 2), not 3 hexes away
    units = [("us", "us_medium_tank", "red", "0609"), ("germany", "de_infantry", "red", "0202")]
    core = make_core(tmp_path, units, features=[("0607", "debris"), ("0606", "debris")])
    reach = legal_hexes(core, moving(core, 0))
    assert "0607" in reach and "0606" not in reach


def test_waw_motorized_infantry_mounts_and_moves_or_dismounts(tmp_path):
    # "Mechanized/motorized infantry may dismount and battle or mount and move.  This ends their turn."
    units = [("us", "us_motorized_infantry", "red", "0609"), ("germany", "de_infantry", "red", "0605")]
    core = make_core(tmp_path, units)
    state = moving(core, 0)
    assert "0607" not in legal_hexes(core, state)              # on foot: 1 hex
    state = step(core, state, special(core, act.MOUNT))
    assert state.p_mounted[0, 0] and "0606" in legal_hexes(core, state)   # mounted: 3 hexes
    assert not state.legal_action_mask[0, special(core, act.MOUNT)]
    state = step(core, state, hx(core, "0606"))
    state = at(core, state, P_BATTLE_SELECT, ordered=[0])
    assert not state.legal_action_mask[0, piece(core, 0)]      # mounted: no battle


# ---------------------------------------------------------------------------- game and victory
def test_waw_first_player_by_d6_the_higher_chooses(tmp_path):
    # "If no mention is made of this, 1 D6 is thrown; highest score chooses who goes first."
    units = [("us", "us_infantry", "red", "0608"), ("germany", "de_infantry", "red", "0602")]
    core = make_core(tmp_path, units, first="roll")
    state = core.init(1, seed=0)
    assert state.phase[0] == P_FIRST
    d = state.current_player[0]
    state = step(core, state, special(core, act.NO))            # the winner lets the other go first
    assert state.active[0] == 1 - d


def test_waw_objectives_count_at_the_end_of_the_turn(tmp_path):
    # "reaching and holding certain objectives (1 or more victory points apiece)": the US unit holds
    # an objective worth 2 against a quota of 2 when its turn ends
    units = [("us", "us_infantry", "red", "0608"), ("germany", "de_infantry", "red", "0202")]
    core = make_core(tmp_path, units, objectives=[("0607", 2, "us")], vp=(2, 6))
    state = core.init(1, seed=1)
    give_hand(state, US, [card_named(core, "order 1 red")])
    state = at(core, state, P_CARD)
    state = step(core, state, special(core, act.CARD_0), piece(core, 0), piece(core, 0), hx(core, "0607"))
    assert state.terminated[0] and state.winner[0] == US


def test_waw_deck_is_reshuffled_from_the_discards_when_it_runs_out(tmp_path):
    units = [("us", "us_infantry", "red", "0608"), ("germany", "de_infantry", "red", "0202")]
    core = make_core(tmp_path, units)
    state = core.init(1, seed=3)
    rng = np.random.default_rng(0)
    for _ in range(400):
        m = state.legal_action_mask[0]
        state = core.step(state, np.array([rng.choice(np.flatnonzero(m))]))
        assert core.check_state(state) == []
        if state.terminated[0] or state.truncated[0]:
            break
    assert state.turn[0] > 44       # more turns than cards: the discards came back


def test_waw_vehicle_entering_a_minefield_rolls_for_casualties(tmp_path):
    # mine fields: "Vehicles entering minefields cast 1 basic battle die (with saving throws) for
    # casualties": HIT! scores on a tank in the ZOC; the saving die a blank
    units = [("us", "us_medium_tank", "red", "0609"), ("germany", "de_infantry", "red", "0202")]
    core = make_core(tmp_path, units, features=[("0608", "minefield")])
    state = core.force(moving(core, 0), [4, 6])
    state = step(core, state, hx(core, "0608"))
    assert state.p_figures[0, 0] == 2
    state = core.force(moving(core, 0), [1])                  # a soldier does not score on a tank
    state = step(core, state, hx(core, "0608"))
    assert state.p_figures[0, 0] == 3


def test_waw_infantry_clears_barbed_wire_in_one_turn(tmp_path):
    # barbed wire: "May be cleared by infantry (takes one turn)."
    units = [("us", "us_infantry", "red", "0608"), ("germany", "de_infantry", "red", "0202")]
    core = make_core(tmp_path, units, features=[("0608", "barbed_wire")])
    state = moving(core, 0)
    assert state.legal_action_mask[0, special(core, act.CLEAR)]
    state = step(core, state, special(core, act.CLEAR))
    assert state.features[0, hx(core, "0608")] == 0 and state.active[0] == DE   # its order spent


def test_waw_minefield_cleared_by_infantry_in_two_turns_by_engineers_in_one(tmp_path):
    # mine fields: "May be cleared by an infantry unit remaining stationary in the hex for 2 turns
    # (cast 2 basic battle dice with saving throws) for casualties each turn, by engineers (1 turn,
    # cast 1 basic battle die with saving throws)"
    units = [("us", "us_infantry", "red", "0608"), ("us", "us_engineers", "red", "0808"),
             ("germany", "de_infantry", "red", "0202")]
    core = make_core(tmp_path, units, features=[("0608", "minefield"), ("0808", "minefield")])
    mines = 1 << 5
    state = core.force(moving(core, 0), [1, 6, 6])       # soldier + blank: 1 hit, its save blank
    state = step(core, state, special(core, act.CLEAR))
    assert state.p_figures[0, 0] == 7 and state.features[0, hx(core, "0608")] == mines
    assert state.clearing[0, hx(core, "0608")] == 1
    state = core.force(at(core, state, P_MOVE_DEST, ordered=[0], selected=0), [6, 6])
    state = step(core, state, special(core, act.CLEAR))
    assert state.features[0, hx(core, "0608")] == 0
    state = core.force(moving(core, 1), [6])
    state = step(core, state, special(core, act.CLEAR))
    assert state.features[0, hx(core, "0808")] == 0 and state.p_figures[0, 1] == 6


def test_waw_advanced_vehicle_rules_the_attacker_hits_the_vehicles_below_6_figures(tmp_path):
    # appendix 1, advanced rules: two of the 8 figures are vehicles; "the attacker has the option
    # during battle to hit the vehicles ... once the unit strength falls below 6"
    units = [("us", "us_motorized_infantry", "red", "0605"), ("germany", "de_infantry", "red", "0604")]
    core = make_core(tmp_path, units, advanced_vehicles=True)
    state = at(core, core.init(1, seed=1), P_BATTLE_SELECT, active=DE, ordered=[1])
    assert state.p_vehicles[0, 0] == 2 and state.p_figures[0, 0] == 8
    full = step(core, state, piece(core, 1))
    full = step(core, core.force(full, [3, 6, 6, 6, 6]), hx(core, "0605"), special(core, act.NO))
    assert full.p_figures[0, 0] == 7 and full.p_vehicles[0, 0] == 2      # 8 figures: no choice
    state.p_figures[0, 0] = 5
    state = core.refresh(state)
    state = step(core, state, piece(core, 1))
    state = step(core, core.force(state, [3, 6, 6, 6, 6]), hx(core, "0605"), special(core, act.NO))
    assert state.current_player[0] == DE                                   # below 6: the attacker chooses
    state = step(core, state, special(core, act.YES))                      # the vehicles: a jeep scores
    assert state.p_vehicles[0, 0] == 1 and state.p_figures[0, 0] == 4


def test_waw_barbed_wire_is_destroyed_when_a_tracked_vehicle_enters(tmp_path):
    # barbed wire: "Destroyed when overrun by tracked vehicles."  ("Stop.": the tank stops there)
    units = [("us", "us_medium_tank", "red", "0609"), ("us", "us_infantry", "blue", "0209"),
             ("germany", "de_infantry", "red", "0202")]
    core = make_core(tmp_path, units, features=[("0608", "barbed_wire")])
    state = at(core, core.init(1, seed=1), P_MOVE_DEST, ordered=[0, 1], selected=0)
    state = step(core, state, hx(core, "0608"))
    assert state.features[0, hx(core, "0608")] == 0


# ------------------------------------------------------------------------------- what a side is told
def test_waw_the_defender_deciding_in_the_attackers_turn_is_told_only_of_its_own_hand():
    """"The information on the cards is only revealed when they are played": when the defender
    decides in the attacker's turn (a voluntary retreat, a stand, a retreat hex), a card slot of the
    action space is its own hand's.  The words it is sent for that slot (the refusal of ``play``,
    ``describe``) name its own card there, or none, never the attacker's card in that slot; the
    attacker, waiting, is told of no card at all."""
    from wargym.agents.serve import described, session_refusals
    from wargym.replay import make_core_for
    from wargym.world_at_war.state import P_AIR_DEFEND, P_AIR_PLAY

    core = make_core_for("world_at_war", "bocage", "full", {"night": True})
    H, names = core.scenario.num_hexes, core.scenario.card_names
    slots = list(range(H + act.CARD_0, H + act.PIECE_0))
    rng = np.random.default_rng(3)
    state, seen, seed = core.init(1, 3), 0, 3
    while seen < 3:
        if state.terminated[0] or state.truncated[0]:
            seed += 1
            state = core.init(1, seed)
        decider, active = int(state.current_player[0]), int(state.active[0])
        if decider != active and state.phase[0] not in (P_AIR_PLAY, P_AIR_DEFEND):
            seen += 1
            refusals = session_refusals(core, state, decider, slots)
            told = described(core, state, slots, decider)
            for k, (a, refusal, text) in enumerate(zip(slots, refusals, told)):
                own = np.flatnonzero((state.card_pile[0] == PILE_HAND + decider) & (state.card_pos[0] == k))
                theirs = np.flatnonzero((state.card_pile[0] == PILE_HAND + active) & (state.card_pos[0] == k))
                want = f"card #{k + 1}: {names[int(own[0])]}" if len(own) else f"card #{k + 1} of the hand"
                assert text["description"] == want
                assert refusal.startswith(f"action {a} is illegal: {want}: ")
                if len(theirs) and not (len(own) and names[int(own[0])] == names[int(theirs[0])]):
                    assert names[int(theirs[0])] not in refusal
            waiting = described(core, state, slots, active)
            assert [t["description"] for t in waiting] == [f"card #{k + 1} of the hand" for k in range(len(slots))]
        mask = state.legal_action_mask[0]
        state = core.step(state, np.array([rng.choice(np.flatnonzero(mask))]))


def test_waw_a_standard_card_orders_a_commander_who_commands_a_unit_and_he_is_relieved(tmp_path):
    # README interpretation (Ordering commanders): "activate 2 red units or individual (=
    # freestanding) commanders" beside "A commander commanding one or two units may (when ordered
    # through a command card) be relieved of his command, move away and take command over another
    # unit": a blue card orders the commander (2) of the red Sherman platoon in his hex; he moves
    # away and the platoon is no longer his.
    units = [("us", "us_medium_tank", "red", "0609"), ("germany", "de_infantry", "red", "0202")]
    core = make_core(tmp_path, units, commanders=[("us", "0609")])
    state = core.init(1, seed=1)
    assert state.p_leader[0, 0] == 2
    give_hand(state, US, [card_named(core, "order 1 blue")])
    state = at(core, state, P_CARD)
    state = step(core, state, special(core, act.CARD_0))
    assert state.legal_action_mask[0, piece(core, 2)] and not state.legal_action_mask[0, piece(core, 0)]
    state = step(core, state, piece(core, 2), piece(core, 2), hx(core, "0608"))
    assert label(core, state.p_hex[0, 2]) == "0608" and state.p_leader[0, 0] == -1
