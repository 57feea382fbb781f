"""The World at War, COMBAT COMMANDS: forming them at the start and in play, one order for the
whole command, the slowest component's speed, the commander's ZOC, giving up the command, and the
voluntary retreat that keeps to the ZOC.

The battlefield: a US commander (piece 5) with a rifle squad (red, piece 0) in his hex 0608, a
Sherman platoon (blue, 1) at 0708 and a rifle squad (green, 2) at 0508 next to him, another rifle
squad (red, 3) at 0806 out of his ZOC; the Germans (4) far away at 0202.
"""

from __future__ import annotations

from waw_board import at, card_named, give_hand, hx, label, legal_hexes, make_core, piece, special, step
from wargym.world_at_war import actions as act
from wargym.world_at_war.state import (
    P_BATTLE_SELECT, P_CARD, P_DISCARD, P_FORM_SELECT, P_FORM_UNIT, P_MOVE_DEST, P_MOVE_SELECT, P_STAND,
)

US, DE = 0, 1
UNITS = [("us", "us_infantry", "red", "0608"), ("us", "us_medium_tank", "blue", "0708"),
         ("us", "us_infantry", "green", "0508"), ("us", "us_infantry", "red", "0806"),
         ("germany", "de_infantry", "red", "0202")]


def formed(tmp_path, members=(0, 1), units=UNITS, **kw):
    """The game after the US formed a combat command of commander 5 and ``members`` at the start."""
    core = make_core(tmp_path, units, commanders=[("us", "0608")], **kw)
    state = core.init(1, seed=1)
    assert state.phase[0] == P_FORM_SELECT and state.current_player[0] == US
    state = step(core, state, piece(core, 5), *(piece(core, u) for u in members), special(core, act.DONE))
    return core, state


def test_waw_combat_command_formed_at_the_start_of_at_least_two_designations(tmp_path):
    # "A Combat Command is composed of one commander and (max) 4 units (of at least 2 different unit
    # designations) in one or two colours ... these units must remain in the ZOC of their commander"
    core = make_core(tmp_path, UNITS, commanders=[("us", "0608")])
    state = step(core, core.init(1, seed=1), piece(core, 5))
    assert state.phase[0] == P_FORM_UNIT
    hexes = [u for u in range(5) if state.legal_action_mask[0, piece(core, u)]]
    assert hexes == [0, 1, 2]                                    # 0806 is out of his ZOC
    state = step(core, state, piece(core, 0))
    assert not state.legal_action_mask[0, special(core, act.DONE)]   # one unit: not yet a command
    two_squads = step(core, state, piece(core, 2))
    # two rifle squads are one designation, and red and green leave no colour for the tank: all
    # that is left is to give it up; given up, he forms none at the start (README interpretation:
    # else NO, form, NO... would never end), so play begins with no command
    assert two_squads.phase[0] == P_CARD and not two_squads.form_pick[0].any()
    assert (two_squads.p_cc[0] == -1).all()
    state = step(core, state, piece(core, 1))
    assert state.legal_action_mask[0, special(core, act.DONE)]
    state = step(core, state, special(core, act.DONE))
    assert state.p_cc[0, :6].tolist() == [5, 5, -1, -1, -1, 5]
    assert state.phase[0] == P_CARD                              # nobody else can form: play begins


def test_waw_combat_command_in_one_or_two_colours(tmp_path):
    core = make_core(tmp_path, UNITS, commanders=[("us", "0608")])
    state = step(core, core.init(1, seed=1), piece(core, 5), piece(core, 0), piece(core, 1))
    assert not state.legal_action_mask[0, piece(core, 2)]        # red and blue taken: no green


def ordered(core, state, card: str):
    give_hand(state, US, [card_named(core, card)])
    state = at(core, state, P_CARD)
    return step(core, state, special(core, act.CARD_0), piece(core, 1))


def test_waw_combat_command_is_one_order_and_moves_at_its_slowest(tmp_path):
    # "A Combat Command is regarded as one unit for movement purposes ... moves at the speed of its
    # slowest component": a blue card orders the command through its blue tank; the rifle squad's
    # 1 hex is the command's speed
    core, state = formed(tmp_path)
    state = ordered(core, state, "order 1 blue")
    assert state.p_ordered[0, :6].tolist() == [True, True, False, False, False, True]
    assert state.phase[0] == P_MOVE_SELECT
    assert not state.legal_action_mask[0, piece(core, 1)]        # the members move after him
    state = step(core, state, piece(core, 5))
    assert all(core.scenario.grid.distance[hx(core, "0608"), hx(core, h)] <= 1 for h in legal_hexes(core, state))
    state = step(core, state, hx(core, "0607"))
    state = step(core, state, piece(core, 1))
    reach = legal_hexes(core, state)
    assert reach and all(core.scenario.grid.distance[hx(core, "0607"), hx(core, h)] <= 1 for h in reach)
    assert "0706" not in reach or core.scenario.grid.distance[hx(core, "0708"), hx(core, "0706")] <= 1


def test_waw_the_combat_command_card_orders_one_command(tmp_path):
    core, state = formed(tmp_path)
    state = ordered(core, state, "Combat command: order 1")
    assert state.p_ordered[0, [0, 1, 5]].all() and not state.p_ordered[0, 3]


def test_waw_forming_a_combat_command_in_play_takes_the_turn(tmp_path):
    # "The inverse process is used to create a new Combat Command ... When forming a Combat Command
    # the units of the new Command cannot take any other action (except to defend themselves)"
    core = make_core(tmp_path, UNITS, commanders=[("us", "0608")])
    state = step(core, core.init(1, seed=1), special(core, act.DONE))
    state = at(core, state, P_MOVE_DEST, ordered=[5, 0, 1, 3], selected=5)
    assert state.legal_action_mask[0, special(core, act.FORM)]
    state = step(core, state, special(core, act.FORM), piece(core, 0), piece(core, 1), special(core, act.DONE))
    assert state.p_cc[0, [0, 1, 5]].tolist() == [5, 5, 5]
    assert state.p_no_battle[0, 0] and state.p_no_battle[0, 1] and state.p_moved[0, 1]


def test_waw_a_command_given_up_while_forming_is_not_offered_again(tmp_path):
    # README interpretation: a commander who gives up forming a command (NO) forms none at the start
    # and does not try again on the same turn in play; from the next turn he may (the book lets a
    # command be formed "at the start" or in play by "the inverse process" of giving one up)
    core = make_core(tmp_path, UNITS, commanders=[("us", "0608")])
    start = core.init(1, seed=1)
    state = step(core, start, piece(core, 5), piece(core, 0), special(core, act.NO))
    assert state.phase[0] == P_CARD and (state.p_cc[0] == -1).all()   # nobody else could form: play
    state = step(core, start, special(core, act.DONE))
    state = at(core, state, P_MOVE_DEST, ordered=[5, 0, 1, 3], selected=5)
    state = step(core, state, special(core, act.FORM), piece(core, 0), special(core, act.NO))
    assert state.phase[0] == P_MOVE_DEST and state.selected[0] == 5 and state.form_declined[0, 5]
    assert not state.legal_action_mask[0, special(core, act.FORM)]
    assert state.legal_action_mask[0, hx(core, "0607")]          # he may still move
    state = step(core, at(core, state, P_DISCARD), special(core, act.CARD_0))   # the turn ends
    assert state.active[0] == DE and not state.form_declined[0].any()


def test_waw_giving_up_the_command(tmp_path):
    # "A commander commanding a Combat Command may only leave his Combat Command when giving up his
    # command.  Thus the Combat Command ceases to exist ... This action is an order and takes one turn."
    core, state = formed(tmp_path)
    state = ordered(core, state, "order 1 blue")
    state = step(core, state, piece(core, 5))
    assert state.phase[0] == P_MOVE_DEST and state.legal_action_mask[0, special(core, act.DISSOLVE)]
    state = step(core, state, special(core, act.DISSOLVE))
    assert (state.p_cc[0] == -1).all()


def test_waw_voluntary_retreat_keeps_to_the_commanders_zoc(tmp_path):
    # voluntary retreat: "in doing so, the units may not leave its commander's ZOC when it is part of
    # a Combat Command"; the Germans attack the blue tank at 0708 from 0707
    units = list(UNITS[:4]) + [("germany", "de_infantry", "red", "0707")]
    core, state = formed(tmp_path, units=units)
    state = at(core, state, P_BATTLE_SELECT, active=DE, ordered=[4])
    state = step(core, state, piece(core, 4), hx(core, "0708"))
    assert state.phase[0] == P_STAND
    state = step(core, core.force(state, [6, 6, 6]), special(core, act.YES))
    # its retreat hexes toward the south are 0709, 0808 and 0608 (the rifle squad's): only 0709 is in
    # the commander's ZOC, so it goes there without a choice
    assert label(core, state.p_hex[0, 1]) == "0709"


# --------------------------------------------------------------------------- members follow (issue 48)
def test_waw_combat_command_members_follow_their_commander_at_the_commands_speed(tmp_path):
    # "A Combat Command is regarded as one unit for movement purposes ... moves at the speed of its
    # slowest component ... never allowed to voluntarily leave the ZOC of their commander".  The
    # command (commander 5 and the rifle squad at 0608, the Sherman platoon at 0708) moves at the
    # squad's 1 hex.  The commander goes NW to 0508; the tank, now 2 hexes from him, must follow
    # into his new ZOC (0508, 0507, 0509, 0607, 0608, 0407, 0408) within 1 hex of 0708: 0607 alone
    # (0608 holds the squad, which is in the ZOC already and stays).  It may not use its own 3 hexes
    # nor stay at 0708, outside the ZOC.
    core, state = formed(tmp_path)
    state = ordered(core, state, "order 1 blue")
    assert state.p_cc_move[0, [0, 1, 5]].tolist() == [1, 1, 1]
    state = step(core, state, piece(core, 5), hx(core, "0508"))
    assert label(core, state.p_hex[0, 5]) == "0508" and state.phase[0] == P_MOVE_SELECT
    # picked, the tank has one destination, so it takes it at once (the engine takes a decision that
    # has one legal action by itself): 0607, back in the commander's ZOC
    state = step(core, state, piece(core, 1))
    assert state.phase[0] == P_MOVE_SELECT and label(core, state.p_hex[0, 1]) == "0607"
    assert state.p_cc[0, 1] == 5 and core.scenario.grid.distance[state.p_hex[0, 1], state.p_hex[0, 5]] == 1


def test_waw_combat_command_commander_goes_only_where_every_member_finds_a_hex_of_his_zoc(tmp_path):
    # the command: commander 7 at 0607, a Sherman platoon (A, blue) at 0707 and a rifle squad (B, red)
    # at 0708; four other US squads (not members) at 0608, 0709, 0807 and 0808 leave B one free
    # neighbour, 0607, once the commander has left it.  Speed 1 (the squad's).
    units = [("us", "us_medium_tank", "blue", "0707"), ("us", "us_infantry", "red", "0708"),
             ("us", "us_infantry", "green", "0608"), ("us", "us_infantry", "green", "0709"),
             ("us", "us_infantry", "green", "0807"), ("us", "us_infantry", "green", "0808"),
             ("germany", "de_infantry", "red", "0202")]
    core = make_core(tmp_path, units, commanders=[("us", "0607")])
    c = 7
    state = step(core, core.init(1, seed=1), piece(core, c), piece(core, 0), piece(core, 1), special(core, act.DONE))
    assert state.p_cc[0, [0, 1, c]].tolist() == [c, c, c]
    state = ordered(core, state, "order 1 blue")
    state = step(core, state, piece(core, c))
    # his new ZOC must hold a hex for each.  At 0508 (ZOC 0508 0507 0509 0407 0408 0607 0608) the
    # tank reaches 0607 alone (0606 is not in it) and so does the squad: one hex for two, so he may
    # not go there.  At 0507 (ZOC 0507 0506 0508 0406 0407 0606 0607) the tank takes 0606 and the
    # squad 0607; at 0606, 0608, 0707 and 0708 each finds its own, and so where he stands (0607).
    assert legal_hexes(core, state) == ["0507", "0606", "0607", "0608", "0707", "0708"]
    state = step(core, state, hx(core, "0507"))
    # the tank moves first: 0606 and 0607 are in his ZOC within its reach, but 0607 is the squad's
    # only way into it, so 0606 is the tank's one destination (taken at once, as a decision with one
    # legal action is); then the squad has 0607 alone
    state = step(core, state, piece(core, 0))
    assert state.phase[0] == P_MOVE_SELECT and label(core, state.p_hex[0, 0]) == "0606"
    state = step(core, state, piece(core, 1))
    assert label(core, state.p_hex[0, 1]) == "0607"
    assert all(core.scenario.grid.distance[state.p_hex[0, u], state.p_hex[0, c]] <= 1 for u in (0, 1))
