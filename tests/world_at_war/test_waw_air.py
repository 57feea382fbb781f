"""The World at War, APPENDIX 2: AIR SUPPORT & AA played through the core with forced dice.

Card numbers: each side has 18 air force cards (its fighters first, then fighter-bombers, then 2
blanks: the US 0-7 F, 8-15 FB, 16-17 blank; Germany 18-25 F, 26-33 FB, 34-35 blank) and 18 air
support cards (its country's table row by row, 2 of each: the US card 8 is "2 FB", card 6 is
"1 FB + 2 F"; Germany's card 18 is "1 FB + 2 F").  The air support & AA die: 1 hit on F & FB,
2 hit on FB, 3 kill on infantry & artillery, 4 flag, 5 kill on any ground target, 6 miss.
"""

from __future__ import annotations

import numpy as np

from waw_board import (
    AIR_UNITS, air_game, at, card_named, give_hand, hx, label, legal_hexes, make_core, piece, special, step,
)
from wargym.world_at_war import actions as act
from wargym.world_at_war.state import (
    AFP_LOST, ASP_OUT, ASP_PLAYED, ASP_USED, P_AA_TARGET, P_AIR_DEFEND, P_AIR_PLACE, P_AIR_PLAY, P_AIR_TARGET,
    P_BATTLE_SELECT, P_DOG_PLANE, P_DOG_TARGET, P_PICK_AIR, P_RETREAT,
)

US, DE = 0, 1


def test_waw_appendix2_each_side_picks_its_air_cards_blind_and_japan_has_none(tmp_path):
    # "each side picks (blind) 5 air force cards"; "Each player picks 3 cards at the start of the game
    # or according to scenario"; appendix 2 has no Japanese deck
    core = make_core(tmp_path, AIR_UNITS, air=((5, 3), (5, 2)))
    state = core.init(1, seed=0)
    assert (state.af_pile[0] == 1).sum() == 5 and (state.af_pile[0] == 3).sum() == 5
    assert (state.as_pile[0] == 1).sum() == 3 and (state.as_pile[0] == 3).sum() == 2
    from wargym.world_at_war.core import WorldAtWarCore
    pacific = WorldAtWarCore("pacific")
    state = pacific.init(1, seed=0)
    assert (state.as_pile[0, 18:] == ASP_OUT).all() and (state.as_pile[0, :18] == 1).sum() == 3


def test_waw_air_support_after_the_moves_a_fighter_bomber_attacks_a_threatening_unit(tmp_path):
    # "Prior to playing an air support card, the attacker must ... have played a ... command card and
    # ordered and moved all units"; "only enemy units possibly threatening the attacking units ... may
    # be targeted"; "If he has insufficient air force cards at hand, he may only battle with the
    # number of planes he has available": card 8 is 2 FB, the pool holds one FB
    core, state = air_game(tmp_path, us_pool=[0, 8, 16], us_hand=[8])
    state = step(core, state, special(core, act.DONE))
    assert state.phase[0] == P_AIR_PLAY and state.current_player[0] == US
    state = step(core, state, special(core, act.CARD_0))
    assert state.phase[0] == P_AIR_PLACE and int((state.pl_state[0] > 0).sum()) == 1
    state = step(core, state, hx(core, "0605"))
    assert state.phase[0] == P_AIR_TARGET and legal_hexes(core, state) == ["0604"]
    # 3 dice for a fighter-bomber: kill on infantry, kill on any, flag: 2 kills, a retreat without save
    state = step(core, core.force(state, [3, 5, 4]), hx(core, "0604"))
    assert state.p_figures[0, 1] == 3 and state.phase[0] == P_RETREAT and state.current_player[0] == DE
    state = step(core, state, hx(core, "0603"))
    assert state.phase[0] in (P_BATTLE_SELECT,) or state.active[0] == DE
    assert state.as_pile[0, 8] == ASP_USED


def test_waw_aa_fires_first_and_a_plane_lost_costs_an_air_force_card(tmp_path):
    # "If the attacking aircraft are within range of defending AA units, these units open fire first"
    # (2 hexes); "hit on F & FB, with saving throw" (the save: a flag); "For each aircraft destroyed,
    # the player gives up an air force card".  One plane in range: the AA fires at it at once
    more = [("germany", "de_aa", "blue", "0704")]
    core, state = air_game(tmp_path, us_pool=[0, 8, 16], us_hand=[8], more=more)
    state = step(core, state, special(core, act.DONE), special(core, act.CARD_0))
    state = step(core, core.force(state, [1, 6]), hx(core, "0605"))
    assert state.af_pile[0, 8] == AFP_LOST and (state.pl_state[0] == 0).all()
    assert state.p_figures[0, 1] == 5                       # no ground attack
    saved = step(core, core.force(step(core, air_game(tmp_path, us_pool=[0, 8, 16], us_hand=[8], more=more)[1],
                                       special(core, act.DONE), special(core, act.CARD_0)), [1, 4, 6, 6, 6]),
                 hx(core, "0605"))
    assert saved.af_pile[0, 8] != AFP_LOST                  # the flag saved it


def dogfight(tmp_path, forced):
    """The US card 6 (1 FB + 2 F) against Germany's card 18 (1 FB + 2 F, one F in its pool); the US
    fighters at 0705 and 0505, the German fighter at 0704 next to the first."""
    core, state = air_game(tmp_path, us_pool=[0, 1, 8], us_hand=[6], de_pool=[18, 26], de_hand=[18])
    state = step(core, state, special(core, act.DONE), special(core, act.CARD_0))
    assert state.phase[0] == P_AIR_DEFEND and state.current_player[0] == DE
    state = step(core, state, special(core, act.CARD_0))
    # placing in turn: US FB, German FB, US F, German F, US F
    for h in ("0605", "0703", "0705", "0704"):
        assert state.phase[0] == P_AIR_PLACE
        state = step(core, state, hx(core, h))
    # the US has more fighters and starts; only its fighter at 0705 has an enemy plane next to it,
    # and only the German fighter: the dogfight follows at once
    return core, step(core, core.force(state, forced), hx(core, "0505"))


def test_waw_dogfight_the_side_with_more_fighters_starts(tmp_path):
    # "The player having deployed the highest number of fighters on the table starts the first
    # dogfight with a plane his choice (range = 1 hex)": hit on F & FB, the German's save a miss
    core, state = dogfight(tmp_path, [1, 6, 6, 6, 6, 6, 6])
    assert state.af_pile[0, 18] == AFP_LOST and (state.af_pile[0, :18] != AFP_LOST).all()


def test_waw_dogfight_a_target_that_survives_returns_fire(tmp_path):
    # "Combat is resolved and in case the target plane survives, it must return fire": the US
    # fighter misses, the German's return fire hits and the US save is a miss
    core, state = dogfight(tmp_path, [6, 1, 6, 6, 6, 6, 6])
    assert state.af_pile[0, 0] == AFP_LOST and state.af_pile[0, 18] != AFP_LOST


def test_waw_an_air_attack_nobody_can_counter_scores_a_point(tmp_path):
    # "as soon as a player faces an air attack he cannot counter because of 0 aircraft in his pool,
    # he has to inform his opponent, who then scores 1 victory point": Germany's pool holds blanks only
    core, state = air_game(tmp_path, us_pool=[0, 8], us_hand=[8], de_pool=[34, 35])
    state = step(core, state, special(core, act.DONE), special(core, act.CARD_0))
    assert state.vp[0].tolist() == [1, 0] and state.air_vp[0, US]


def test_waw_pick_an_air_support_card_at_the_end_of_the_turn(tmp_path):
    # "Additional air support cards may be obtained by playing a 'pick an air support' card at the end
    # of one's turn ... the number of air support cards in the player's possession may never be above
    # his initial quota"; then "the player picks another card from the command card deck"
    core, state = air_game(tmp_path, us_pool=[0, 8], us_hand=[])
    pick = [c for c, n in enumerate(core.scenario.card_names) if n == "Pick an air support"][0]
    give_hand(state, US, [card_named(core, "order 1 red"), pick])
    state = at(core, state, 1)
    state = step(core, state, special(core, act.CARD_0), piece(core, 0), piece(core, 0), hx(core, "0606"))
    state = step(core, state, special(core, act.DONE))       # no battle this turn
    assert state.phase[0] == P_PICK_AIR
    state = step(core, state, special(core, act.YES))
    assert (state.as_pile[0, :18] == 1).sum() == 1 and state.active[0] == DE
    assert state.card_pile[0, pick] == 1                      # discarded
