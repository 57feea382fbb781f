"""The World at War event log (wargym.events, wargym/world_at_war/events.py): what a step did, in
order, with the book's section, as each side may read it; played through the core with forced dice.

Dice (configs/world_at_war/dice.yaml; a forced value v shows face v - 1): white 1 soldier, 2 soldier,
3 jeep, 4 HIT!, 5 flag, 6 blank; yellow 1 soldier, 2 jeep, 3 Sherman, 4 STRIKE, 5 flag, 6 blank;
the air support & AA die 1 hit on F & FB, 2 hit on FB, 3 kill on infantry & artillery, 4 flag,
5 kill on any ground target, 6 miss.  Saving throws are thrown with the white die.
"""

from __future__ import annotations

import numpy as np
import pytest

from waw_board import air_game, at, attack, card_named, duel, give_hand, hx, make_core, piece, special, step
from wargym import events as event_log
from wargym.world_at_war import actions as act, events as ev
from wargym.world_at_war.scenario import AIR_FACES, FEATURES, SYMBOLS
from wargym.world_at_war.state import (
    P_BATTLE_SELECT, P_BREAKTHROUGH, P_CARD, P_DISCARD, P_FIRST, P_MOVE_DEST, P_PICK_AIR, P_RETREAT, P_SECOND, P_STAND,
    PILE_DECK, PILE_HAND,
)

US, DE = 0, 1
WHITE, YELLOW, RED, GREEN = range(4)
BLANK, SOLDIER, JEEP, SHERMAN, TIGER, HIT, STRIKE, BLOW, FLAG = (SYMBOLS.index(s) for s in SYMBOLS)
HIT_ANY, HIT_FB, KILL_INFANTRY, AIR_FLAG, KILL_ANY, AIR_MISS = (AIR_FACES.index(f) for f in AIR_FACES)
FIGHTER, FIGHTER_BOMBER = 1, 2


def logged(core, state, action, forced=None):
    """One step with the log on (the dice or cards ``forced`` first): (the state after, its events)."""
    if forced is not None:
        state = core.force(state, forced)
    after, log = core.step_logged(state, np.array([action]))
    return after, log[0]


def germany_waits(core, state):
    """Germany holds two cards that can order its red squad, so that its turn waits at its choice of
    card when the US turn ends (a hand with one such card plays it by itself)."""
    red = [c for c, n in enumerate(core.scenario.card_names)
           if n.startswith("order ") and n.endswith(" red") and state.card_pile[0, c] != PILE_HAND + US]
    give_hand(state, DE, red[:2])
    return state


def a_card_in_the_deck(core, state, name):
    return next(c for c, n in enumerate(core.scenario.card_names) if n == name and state.card_pile[0, c] == PILE_DECK)


def records(log):
    return [(e["kind"], e["args"]) for e in log]


def texts(core, log, after, viewer):
    return [e["text"] for e in core.events_for(log, after, 0, viewer)]


# ------------------------------------------------------------------------------------- a battle
def test_waw_5_resolve_battle_the_log_gives_the_throw_hits_saves_kill_defence_and_flag_retreat(tmp_path):
    # The US squad (3 white dice at 1 hex) battles a German squad of 5, below the flag of its card
    # (6), so the flags count.  The Germans may retreat first and stand: nothing thrown yet.  The
    # throw: soldier, soldier, flag: 2 hits "with an identical symbol": the first an automatic kill,
    # the second saved only by HIT!/STRIKE/BLOW in close combat (a blank: not saved) -> 2 figures
    # lost, 3 left; the defence die (white: 2 white and 1 green at 1 hex) a blank; one flag, not
    # automatic ("If the attacker throws 2 flags, the first is an automatic retreat"), its saving
    # throw a soldier: not saved -> 1 hex back
    core, state = duel(tmp_path, de_figures=5)
    state = step(core, state, piece(core, 0))
    state, log = logged(core, state, hx(core, "0604"), forced=[1, 2, 5, 6, 6, 1])
    assert log == [] and state.phase[0] == P_STAND and state.current_player[0] == DE
    state, log = logged(core, state, special(core, act.NO))
    assert records(log) == [
        ("battle", {"unit": 0, "hex": hx(core, "0604"), "white": 3, "yellow": 0, "red": 0, "green": 0}),
        ("battle die", {"die": WHITE, "symbol": SOLDIER}),
        ("battle die", {"die": WHITE, "symbol": SOLDIER}),
        ("battle die", {"die": WHITE, "symbol": FLAG}),
        ("hits", {"unit": 1, "hits": 2, "automatic": 1, "flags": 1}),
        ("saving throw", {"for": ev.FOR_HIT, "die": WHITE, "symbol": BLANK, "result": ev.NOT_SAVED}),
        ("loss", {"unit": 1, "lost": 2, "left": 3}),
        ("defence die", {"unit": 1, "die": WHITE, "symbol": BLANK, "result": ev.MISS}),
        ("flag save", {"for": ev.FOR_FLAG, "die": WHITE, "symbol": SOLDIER, "result": ev.NOT_SAVED}),
        ("flags", {"unit": 1, "flags": 1, "ignored": 0, "hexes": 1}),
    ]
    assert [e["rule"] for e in log] == ["4. Battle"] + ["5. Resolve battle"] * 4 + [
        "Saving throw", "5. Resolve battle", "Defence", "Retreat", "Retreat"]
    us, de = "us red us_infantry #0", "germany red de_infantry #1"
    assert texts(core, log, state, DE) == [
        f"{us} battles 0604: 3 white, 0 yellow, 0 red and 0 green dice (4. Battle)",
        "a white die: soldier (5. Resolve battle)",
        "a white die: soldier (5. Resolve battle)",
        "a white die: flag (5. Resolve battle)",
        f"the throw scores 2 hit(s) on {de}, 1 of them an automatic kill, and 1 flag(s) (5. Resolve battle)",
        "saving throw for a hit: a white die, blank: not saved (Saving throw)",
        f"{de} loses 2 figure(s), 3 left (5. Resolve battle)",
        f"{de} throws its defence die: a white die, blank: a miss (Defence)",
        "saving throw for a flag: a white die, soldier: not saved (Retreat)",
        f"{de}: 1 flag(s), 0 ignored: it must retreat 1 hex(es) (Retreat)",
    ]
    assert texts(core, log, state, US) == texts(core, log, state, DE)      # a battle is in plain view
    assert state.phase[0] == P_RETREAT and state.current_player[0] == DE
    state, log = logged(core, state, hx(core, "0603"))
    assert records(log) == [("retreat", {"unit": 1, "from": hx(core, "0604"), "to": hx(core, "0603")})]
    assert state.phase[0] == P_BREAKTHROUGH
    state, log = logged(core, germany_waits(core, state), special(core, act.YES))
    assert texts(core, log, state, US) == [f"{us} forces a breakthrough from 0605 into 0604 (Forcing a breakthrough)"]
    assert state.phase[0] == P_CARD and state.active[0] == DE      # nobody else battles: the US turn is over


def test_waw_the_log_is_off_unless_asked_and_a_logged_step_leaves_the_same_state(tmp_path):
    core, state = duel(tmp_path, de_figures=5)
    state = core.force(step(core, state, piece(core, 0), hx(core, "0604")), [1, 2, 5, 6, 6, 1])
    plain = core.step(state, np.array([special(core, act.NO)]))
    # a plain step hands the kernels the log's "off" arrays: every emit tested the flag and wrote nothing
    assert not event_log.OFF["ev_on"][0] and event_log.OFF["ev_n"][0] == 0
    after, log = logged(core, state, special(core, act.NO))
    assert len(log) == 10
    assert plain.arrays().keys() == after.arrays().keys()
    assert all(np.array_equal(a, b) for a, b in zip(plain.arrays().values(), after.arrays().values()))


def test_waw_objective_of_the_game_the_last_figure_scores_a_victory_point_and_the_quota_ends_the_game(tmp_path):
    # a German squad of 1 against a quota of 1: soldier, blank, blank: 1 hit, its save a blank; "When
    # the last remaining figure/vehicle of a unit is eliminated, the attacker scores a victory point";
    # "The first player to gain his quota is the victor"
    core, state = duel(tmp_path, de_figures=1, vp=(1, 6))
    state, log = logged(core, step(core, state, piece(core, 0), hx(core, "0604")), special(core, act.NO),
                        forced=[1, 6, 6, 6])
    assert records(log)[4:] == [
        ("hits", {"unit": 1, "hits": 1, "automatic": 0, "flags": 0}),
        ("saving throw", {"for": ev.FOR_HIT, "die": WHITE, "symbol": BLANK, "result": ev.NOT_SAVED}),
        ("loss", {"unit": 1, "lost": 1, "left": 0}),
        ("destroyed", {"unit": 1, "hex": hx(core, "0604")}),
        ("victory point", {"side": US, "points": 1}),
        ("game over", {"winner": US, "points": 1, "quota": 1}),
    ]
    assert texts(core, log, state, DE)[-3:] == [
        "germany red de_infantry #1 is destroyed at 0604 (OBJECTIVE OF THE GAME)",
        "us scores a victory point (1 for pieces destroyed and air attacks) (OBJECTIVE OF THE GAME)",
        "us reaches its quota (1 of 1 victory points): the game is over, us wins (OBJECTIVE OF THE GAME)",
    ]
    assert state.terminated[0] and state.winner[0] == US


def test_waw_hitting_a_commander_needs_a_special_symbol_and_his_saving_throw(tmp_path):
    # "The attacking player must then roll a HIT!, STRIKE or BLOW to hit.  Unless the defender makes a
    # successful saving throw, the commander is eliminated and the attacker gains a victory point."
    core = make_core(tmp_path, [("us", "us_infantry", "red", "0605")], commanders=[("germany", "0604")])
    state = step(core, at(core, core.init(1, seed=1), P_BATTLE_SELECT, ordered=[0]), piece(core, 0))
    after, log = logged(core, state, hx(core, "0604"), forced=[1, 2, 3, 6])     # soldier, soldier, jeep
    assert records(log)[4:] == [("hits", {"unit": 1, "hits": 0, "automatic": 0, "flags": 0})]
    after, log = logged(core, state, hx(core, "0604"), forced=[4, 1, 1, 6])     # HIT!, then a blank save
    assert records(log)[1:] == [
        ("battle die", {"die": WHITE, "symbol": HIT}),
        ("battle die", {"die": WHITE, "symbol": SOLDIER}),
        ("battle die", {"die": WHITE, "symbol": SOLDIER}),
        ("hits", {"unit": 1, "hits": 1, "automatic": 0, "flags": 0}),
        ("saving throw", {"for": ev.FOR_COMMANDER, "die": WHITE, "symbol": BLANK, "result": ev.NOT_SAVED}),
        ("loss", {"unit": 1, "lost": 1, "left": 0}),
        ("destroyed", {"unit": 1, "hex": hx(core, "0604")}),
        ("victory point", {"side": US, "points": 1}),
    ]
    assert texts(core, log, after, US)[1] == "a white die: HIT! (5. Resolve battle)"
    assert texts(core, log, after, US)[5] == "saving throw for the commander: a white die, blank: not saved (Saving throw)"


def test_waw_commanders_in_battle_firing_at_buildings_the_die_and_the_collapse(tmp_path):
    # "A commander controlling units may always support one of these units by adding one die"; a
    # Sherman platoon (1 white, 2 yellow at 1 hex, the town takes 2 from vehicles, white first) with
    # its commander: 2 yellow; soldier, blank: 1 hit, its save a blank; "Cast 2 D6: a total of 5 or
    # 6 makes the structure collapse with the occupying unit suffering an automatic kill": 2 + 3
    core, state = duel(tmp_path, us=("us_medium_tank", "0605"), terrain={"0604": "T"}, commanders=[("us", "0605")])
    state = step(core, germany_waits(core, state), piece(core, 0), hx(core, "0604"))
    state, log = logged(core, state, special(core, act.NO), forced=[1, 6, 6, 2, 3, 6])
    assert records(log) == [
        ("commander's die", {"commander": 2, "unit": 0}),
        ("battle", {"unit": 0, "hex": hx(core, "0604"), "white": 0, "yellow": 2, "red": 0, "green": 0}),
        ("battle die", {"die": YELLOW, "symbol": SOLDIER}),
        ("battle die", {"die": YELLOW, "symbol": BLANK}),
        ("hits", {"unit": 1, "hits": 1, "automatic": 0, "flags": 0}),
        ("saving throw", {"for": ev.FOR_HIT, "die": WHITE, "symbol": BLANK, "result": ev.NOT_SAVED}),
        ("loss", {"unit": 1, "lost": 1, "left": 7}),
        ("building", {"hex": hx(core, "0604"), "die1": 2, "die2": 3, "result": ev.COLLAPSES}),
        ("loss", {"unit": 1, "lost": 1, "left": 6}),
        ("defence die", {"unit": 1, "die": WHITE, "symbol": BLANK, "result": ev.MISS}),
    ]
    assert texts(core, log, state, DE)[:1] + texts(core, log, state, DE)[7:8] == [
        "us commander #2 adds a die to the battle of us red us_medium_tank #0 (Commanders in battle)",
        "2 D6 for the building at 0604: 2 and 3: it collapses (Firing at buildings)",
    ]


# ------------------------------------------------------------------------------------- retreats
def test_waw_retreat_rules_a_unit_retreating_onto_its_commander_rallies(tmp_path):
    # "If a unit retreats in a hex occupied by a friendly commander, it is rallied and all remaining
    # flags are ignored": flag, flag, blank; the first flag automatic, the second's save a blank: 2
    # hexes; the first onto the commander at 0603
    core, state = duel(tmp_path, de_figures=5, commanders=[("germany", "0603")])
    state = attack(core, state, "0604", 5, 5, 6, 6, 6)
    state, log = logged(core, state, special(core, act.NO))
    assert records(log)[-1] == ("flags", {"unit": 1, "flags": 2, "ignored": 0, "hexes": 2})
    state, log = logged(core, state, hx(core, "0603"))
    assert records(log) == [("retreat", {"unit": 1, "from": hx(core, "0604"), "to": hx(core, "0603")}),
                            ("rally", {"unit": 1, "commander": 2, "hex": hx(core, "0603")})]
    assert texts(core, log, state, US)[1] == ("germany red de_infantry #1 rallies on germany commander #2 at 0603: "
                                              "the flags left are ignored (Retreat rules)")


def test_waw_retreat_rules_a_blocked_retreat_costs_the_last_figure_and_the_commander(tmp_path):
    # "If a unit cannot retreat, 1 figure/vehicle ... must be eliminated for each retreat move that
    # cannot be completed.  Such losses may include the commander if this is the last remaining
    # figure/model in the given hex": a squad of 1 and its commander, 2 flags, every hex north taken
    more = [("germany", "de_infantry", "blue", h) for h in ("0603", "0704", "0504")]
    core, state = duel(tmp_path, de_figures=1, more=more, commanders=[("germany", "0604")])
    state = step(core, state, piece(core, 0))
    state, log = logged(core, state, hx(core, "0604"), forced=[5, 5, 6, 6, 6])
    assert records(log)[4:] == [
        ("hits", {"unit": 1, "hits": 0, "automatic": 0, "flags": 2}),
        ("defence die", {"unit": 1, "die": WHITE, "symbol": BLANK, "result": ev.MISS}),
        ("flag save", {"for": ev.FOR_FLAG, "die": WHITE, "symbol": BLANK, "result": ev.NOT_SAVED}),
        ("flags", {"unit": 1, "flags": 2, "ignored": 0, "hexes": 2}),
        ("retreat blocked", {"unit": 1, "hex": hx(core, "0604")}),
        ("loss", {"unit": 1, "lost": 1, "left": 0}),
        ("destroyed", {"unit": 1, "hex": hx(core, "0604")}),
        ("victory point", {"side": US, "points": 1}),
        ("destroyed", {"unit": 5, "hex": hx(core, "0604")}),
        ("victory point", {"side": US, "points": 2}),
    ]


def test_waw_retreat_rules_a_retreat_off_the_battlefield_eliminates(tmp_path):
    # 0501 is on the north edge: "If a unit ... is forced to retreat off the battlefield, the unit ...
    # is eliminated".  A flag, its save a blank
    core, state = duel(tmp_path, us=("us_infantry", "0502"), de=("de_infantry", "0501"), de_figures=5)
    state = step(core, state, piece(core, 0))
    state, log = logged(core, state, hx(core, "0501"), forced=[5, 6, 6, 6, 6])
    assert state.phase[0] != P_STAND                 # no hex to retreat to: no voluntary retreat to offer
    assert records(log)[-4:] == [
        ("flags", {"unit": 1, "flags": 1, "ignored": 0, "hexes": 1}),
        ("off the battlefield", {"unit": 1, "hex": hx(core, "0501")}),
        ("destroyed", {"unit": 1, "hex": hx(core, "0501")}),
        ("victory point", {"side": US, "points": 1}),
    ]


def test_waw_voluntary_retreat_is_announced_before_the_throw(tmp_path):
    # "prior to being attacked, the defender has the option to make an (orderly) voluntary retreat
    # (1 hex) and ignore all flags ... allowed to saving throws, but not a defence throw": blanks
    core, state = duel(tmp_path)
    state = attack(core, state, "0604", 6, 6, 6)
    state, log = logged(core, state, special(core, act.YES))
    assert [k for k, _ in records(log)] == ["voluntary retreat", "battle"] + ["battle die"] * 3 + ["hits"]
    assert texts(core, log, state, US)[0] == ("germany red de_infantry #1 makes a voluntary retreat: 1 hex after "
                                              "the battle, no defence die (Voluntary retreat)")


def test_waw_forcing_a_breakthrough_a_tank_battles_the_retreating_unit_once_more(tmp_path):
    # "When a tank or SP unit forces a breakthrough, it can engage the retreating unit in battle once
    # more": flag, flag, blank from the Sherman platoon, the defence die and the flag save blank
    core, state = duel(tmp_path, us=("us_medium_tank", "0605"), de_figures=5)
    state = attack(core, state, "0604", 5, 5, 6, 6, 6)
    state = step(core, state, special(core, act.NO), hx(core, "0603"), hx(core, "0602"), special(core, act.YES))
    assert state.phase[0] == P_SECOND
    state, log = logged(core, state, special(core, act.YES))
    assert records(log) == [("second battle", {"unit": 0, "target": 1})]
    assert texts(core, log, state, DE) == [
        "us red us_medium_tank #0 engages germany red de_infantry #1 in battle once more (Forcing a breakthrough)"]


# ---------------------------------------------------------------------------- artillery, flares
def test_waw_indirect_artillery_fire_logs_where_it_was_aimed_and_the_hex_it_hit(tmp_path):
    # a wood at 0606 hides 0603 from the howitzer at 0609: blind fire, 1 D8 = 3: side 3 of the
    # target hex (side 4 faces the gun): 0704, where another German squad stands; band 6 of the
    # howitzer: 1 yellow + 1 green: soldier, soldier: an automatic kill and a hit, its save a blank
    more = [("germany", "de_infantry", "blue", "0704")]
    core, state = duel(tmp_path, us=("us_medium_artillery", "0609"), de=("de_infantry", "0603"),
                       terrain={"0606": "W"}, more=more)
    state = step(core, state, piece(core, 0))
    after, log = logged(core, state, hx(core, "0603"), forced=[3, 1, 1, 6])
    assert records(log)[:2] == [
        ("scatter", {"unit": 0, "aimed": hx(core, "0603"), "how": ev.BLIND, "throw": 3, "hit": hx(core, "0704")}),
        ("battle", {"unit": 0, "hex": hx(core, "0704"), "white": 0, "yellow": 1, "red": 0, "green": 1}),
    ]
    assert records(log)[-1] == ("loss", {"unit": 2, "lost": 2, "left": 6})
    assert texts(core, log, after, DE)[0] == ("us red us_medium_artillery #0 fires at 0603, blind (1 D8): 3, the "
                                              "round hits 0704 (Direct and indirect artillery fire)")
    # "Subsequent salvos will hit the same hex, unless the fire is adjusted": not adjusted
    again = at(core, after, P_BATTLE_SELECT, ordered=[0])
    again.p_battled[0, 0] = False
    again = step(core, core.refresh(again), piece(core, 0), hx(core, "0603"))
    _, log = logged(core, again, special(core, act.NO), forced=[6, 6])
    assert records(log)[0] == ("salvo", {"unit": 0, "aimed": hx(core, "0603"), "hit": hx(core, "0704")})


def test_waw_flairs_the_flare_lands_as_a_round_and_lights_the_hex(tmp_path):
    # "Flairs (night games).  Are fired as normal rounds en illuminate the target hex and its ZOC":
    # blind, D8 = 7: on target
    more = [("us", "us_medium_artillery", "blue", "0609")]
    core, state = duel(tmp_path, us=("us_infantry", "0606"), more=more, night=True)
    state = step(core, at(core, state, P_BATTLE_SELECT, ordered=[0, 2]), piece(core, 2), special(core, act.FLARE))
    state, log = logged(core, state, hx(core, "0604"), forced=[7])
    assert records(log) == [
        ("scatter", {"unit": 2, "aimed": hx(core, "0604"), "how": ev.BLIND, "throw": 7, "hit": hx(core, "0604")}),
        ("flare", {"unit": 2, "hex": hx(core, "0604")}),
    ]
    assert texts(core, log, state, DE)[1] == "us blue us_medium_artillery #2's flare illuminates 0604 and its ZOC (Flairs (night games))"


# ------------------------------------------------------------------------------------ terrain sheet
def test_waw_terrain_sheet_a_vehicle_in_a_minefield_and_a_tank_overrunning_wire(tmp_path):
    # mine fields: "Vehicles entering minefields cast 1 basic battle die (with saving throws)": HIT!,
    # its save a blank; barbed wire: "Destroyed when overrun by tracked vehicles"
    units = [("us", "us_medium_tank", "red", "0609"), ("germany", "de_infantry", "red", "0202")]
    core = make_core(tmp_path, units, features=[("0608", "minefield"), ("0709", "barbed_wire")])
    moving = at(core, germany_waits(core, core.init(1, seed=1)), P_MOVE_DEST, ordered=[0], selected=0)
    _, log = logged(core, moving, hx(core, "0608"), forced=[4, 6])
    assert records(log) == [
        ("minefield", {"unit": 0, "hex": hx(core, "0608"), "dice": 1}),
        ("battle die", {"die": WHITE, "symbol": HIT}),
        ("hits", {"unit": 0, "hits": 1, "automatic": 0, "flags": 0}),
        ("saving throw", {"for": ev.FOR_HIT, "die": WHITE, "symbol": BLANK, "result": ev.NOT_SAVED}),
        ("loss", {"unit": 0, "lost": 1, "left": 2}),
    ]
    wire = FEATURES.index("barbed_wire")
    after, log = logged(core, moving, hx(core, "0709"))
    assert records(log) == [("obstacle gone", {"hex": hx(core, "0709"), "obstacle": wire, "how": ev.TRACKED_OVERRUN})]
    assert texts(core, log, after, DE) == ["the barbed wire at 0709 is overrun by a tracked vehicle (Terrain effects sheet)"]


# ------------------------------------------------------------------------------------------ cards
def card_game(tmp_path, **kw):
    """The US holds "order 1 red" and "order 1 blue"; its squad at 0608 and the Germans' at 0602 are
    out of each other's range."""
    core = make_core(tmp_path, [("us", "us_infantry", "red", "0608"), ("germany", "de_infantry", "red", "0602")], **kw)
    state = core.init(1, seed=1)
    red, blue = card_named(core, "order 1 red"), card_named(core, "order 1 blue")
    give_hand(state, US, [red, blue])
    return core, germany_waits(core, state), red, blue


def test_waw_6_draw_a_command_card_the_card_drawn_is_named_to_its_holder_only(tmp_path):
    # "The information on the cards is only revealed when they are played": the card played and the
    # card discarded are named to both sides, the card drawn only to the side that draws it
    core, state, red, blue = card_game(tmp_path)
    drawn = a_card_in_the_deck(core, state, "order 2 green")
    state, log = logged(core, at(core, state, P_CARD), special(core, act.CARD_0))
    assert records(log) == [("card played", {"side": US, "card": red})]
    assert texts(core, log, state, DE) == texts(core, log, state, US) == ["us plays order 1 red (1. Play a command card)"]
    state = step(core, state, piece(core, 0), piece(core, 0))           # the order; the squad to move
    state, log = logged(core, state, hx(core, "0608"), forced=[drawn])  # it stays; nobody to battle: the end
    assert records(log) == [("card discarded", {"side": US, "card": red}),
                            ("card drawn", {"side": US, "card": drawn, "for": ev.AFTER_TURN})]
    assert texts(core, log, state, US) == [
        "us discards order 1 red, the card it played (6. Draw a command card)",
        "us draws order 2 green at the end of its turn (6. Draw a command card)"]
    assert texts(core, log, state, DE) == [
        "us discards order 1 red, the card it played (6. Draw a command card)",
        "us draws a card at the end of its turn (6. Draw a command card)"]
    assert core.events_for(log, state, 0, DE)[1]["args"] == {"side": US, "card": None, "for": ev.AFTER_TURN}
    assert texts(core, log, state, None) == texts(core, log, state, US)    # the whole truth


def test_waw_1_play_a_command_card_none_orders_discard_one_and_draw(tmp_path):
    # "If none of the command cards you hold allow you to order any of your units, discard 1 card and
    # draw a replacement from the command card draw pile.  This ends your turn."
    core, state, red, blue = card_game(tmp_path)
    give_hand(state, US, [blue])
    drawn = a_card_in_the_deck(core, state, "order 3 red")
    state, log = logged(core, at(core, state, P_DISCARD), special(core, act.CARD_0), forced=[drawn])
    assert records(log) == [("no order", {"side": US, "card": blue}),
                            ("card drawn", {"side": US, "card": drawn, "for": ev.AFTER_DISCARD})]
    assert texts(core, log, state, DE) == [
        "us can order none of its units: it discards order 1 blue, which ends its turn (1. Play a command card)",
        "us draws a card for the card it discarded (6. Draw a command card)"]
    assert texts(core, log, state, US)[1] == "us draws order 3 red for the card it discarded (6. Draw a command card)"


def test_waw_objectives_held_at_the_end_of_the_turn_and_the_quota(tmp_path):
    # "reaching and holding certain objectives (1 or more victory points apiece)": the US squad takes
    # the objective at 0607, worth 2 against a quota of 2, and holds it when its turn ends
    core, state, red, blue = card_game(tmp_path, objectives=[("0607", 2, "us")], vp=(2, 6))
    drawn = a_card_in_the_deck(core, state, "order 2 green")
    state = step(core, at(core, state, P_CARD), special(core, act.CARD_0), piece(core, 0), piece(core, 0))
    state, log = logged(core, state, hx(core, "0607"), forced=[drawn])
    assert records(log)[2:] == [("objective held", {"hex": hx(core, "0607"), "side": US, "points": 2}),
                                ("game over", {"winner": US, "points": 2, "quota": 2})]
    assert texts(core, log, state, DE)[2] == ("us holds the objective at 0607 at the end of the turn: 2 victory "
                                              "point(s) (OBJECTIVE OF THE GAME)")


def test_waw_game_turn_the_first_player_by_1_d6_each_rolled_again_on_a_tie(tmp_path):
    # "1 D6 is thrown; highest score chooses who goes first".  A core that stops at every decision
    # waits at the combat commands' "done" of each side (the only action: nobody has a commander)
    core = make_core(tmp_path, [("us", "us_infantry", "red", "0608"), ("germany", "de_infantry", "red", "0602")],
                     first="roll", every_decision=True)
    state = core.init(1, seed=0)
    assert int(state.legal_action_mask[0].sum()) == 1 and state.current_player[0] == US
    state, log = logged(core, state, special(core, act.DONE))
    assert log == [] and state.current_player[0] == DE
    state, log = logged(core, state, special(core, act.DONE), forced=[3, 3, 2, 5])
    assert records(log) == [("first player", {"die0": 3, "die1": 3, "chooser": -1}),
                            ("first player", {"die0": 2, "die1": 5, "chooser": DE})]
    assert state.phase[0] == P_FIRST and state.current_player[0] == DE
    assert texts(core, log, state, US)[1] == ("1 D6 each for the first turn: 2 and 5; the higher chooses who goes "
                                              "first: germany (GAME TURN)")


# ------------------------------------------------------------------------------------- appendix 2
def test_waw_appendix2_the_air_support_card_shown_the_plane_placed_and_aa_fire(tmp_path):
    # card 8 is "2 FB" and the US pool holds one fighter-bomber: "he may only battle with the number
    # of planes he has available"; the AA at 0704 "open fire first": hit on F & FB, the save a miss;
    # "For each aircraft destroyed, the player gives up an air force card"
    core, state = air_game(tmp_path, us_pool=[0, 8, 16], us_hand=[8], more=[("germany", "de_aa", "blue", "0704")])
    state = step(core, state, special(core, act.DONE))
    state, log = logged(core, state, special(core, act.CARD_0))
    assert records(log) == [("air support card", {"side": US, "card_fb": 2, "card_f": 0, "fb": 1, "f": 0}),
                            ("air victory point", {"side": US, "points": 1})]     # Germany has no planes
    state, log = logged(core, state, hx(core, "0605"), forced=[1, 6])
    assert records(log) == [
        ("plane placed", {"side": US, "plane": FIGHTER_BOMBER, "hex": hx(core, "0605")}),
        ("air fire", {"for": ev.AA_FIRE, "from": hx(core, "0704"), "at": hx(core, "0605"), "plane": FIGHTER_BOMBER,
                      "die": HIT_ANY, "save": AIR_MISS}),
        ("plane lost", {"side": US, "plane": FIGHTER_BOMBER, "hex": hx(core, "0605")}),
    ]
    assert texts(core, log, state, DE) == [
        "us places a fighter-bomber at 0605 (Appendix 2)",
        "AA fire from 0704 at the fighter-bomber at 0605: hit on F & FB; its saving throw: miss (Appendix 2)",
        "the fighter-bomber of us at 0605 is destroyed: us gives up an air force card (Appendix 2)"]


def test_waw_appendix2_a_ground_attack_kills_and_the_target_must_retreat(tmp_path):
    # 3 dice for a fighter-bomber: kill on infantry, kill on any, flag: 2 kills, "No saving throws
    # for targets of ground attack (must retreat)"
    core, state = air_game(tmp_path, us_pool=[0, 8, 16], us_hand=[8])
    state = step(core, state, special(core, act.DONE), special(core, act.CARD_0), hx(core, "0605"))
    state, log = logged(core, state, hx(core, "0604"), forced=[3, 5, 4])
    assert records(log) == [
        ("ground attack", {"plane": FIGHTER_BOMBER, "from": hx(core, "0605"), "unit": 1, "dice": 3}),
        ("air die", {"face": KILL_INFANTRY}), ("air die", {"face": KILL_ANY}), ("air die", {"face": AIR_FLAG}),
        ("loss", {"unit": 1, "lost": 2, "left": 3}),
        ("air retreat", {"unit": 1, "hexes": 1}),
    ]
    assert texts(core, log, state, US)[:2] == [
        "the fighter-bomber at 0605 attacks germany red de_infantry #1 with 3 air support & AA dice (Appendix 2)",
        "an air support & AA die: kill on infantry & artillery (Appendix 2)"]
    assert state.phase[0] == P_RETREAT


def test_waw_appendix2_a_dogfight_and_the_return_fire(tmp_path):
    # The US card 6 (1 FB + 2 F) against Germany's card 18 (1 FB + 2 F, one F in its pool); the US
    # has more fighters and starts the dogfight with its fighter at 0705 against the German one at
    # 0704: a miss; "in case the target plane survives, it must return fire": hit, the save a miss
    core, state = air_game(tmp_path, us_pool=[0, 1, 8], us_hand=[6], de_pool=[18, 26], de_hand=[18])
    state = step(core, state, special(core, act.DONE), special(core, act.CARD_0))
    state, log = logged(core, state, special(core, act.CARD_0))
    assert records(log) == [("air support card", {"side": DE, "card_fb": 1, "card_f": 2, "fb": 1, "f": 1})]
    state = step(core, state, *(hx(core, h) for h in ("0605", "0703", "0705", "0704")))
    state, log = logged(core, state, hx(core, "0505"), forced=[6, 1, 6] + [6] * 6)
    assert records(log)[:4] == [
        ("plane placed", {"side": US, "plane": FIGHTER, "hex": hx(core, "0505")}),
        ("air fire", {"for": ev.DOGFIGHT, "from": hx(core, "0705"), "at": hx(core, "0704"), "plane": FIGHTER,
                      "die": AIR_MISS, "save": -1}),
        ("air fire", {"for": ev.RETURN_FIRE, "from": hx(core, "0704"), "at": hx(core, "0705"), "plane": FIGHTER,
                      "die": HIT_ANY, "save": AIR_MISS}),
        ("plane lost", {"side": US, "plane": FIGHTER, "hex": hx(core, "0705")}),
    ]
    assert texts(core, log, state, US)[1] == "a dogfight from 0705 at the fighter at 0704: miss; no saving throw (Appendix 2)"


def test_waw_appendix2_an_air_attack_nobody_can_counter_scores_a_victory_point(tmp_path):
    # "as soon as a player faces an air attack he cannot counter because of 0 aircraft in his pool,
    # he has to inform his opponent, who then scores 1 victory point": Germany's pool holds blanks
    core, state = air_game(tmp_path, us_pool=[0, 8], us_hand=[8], de_pool=[34, 35])
    state, log = logged(core, step(core, state, special(core, act.DONE)), special(core, act.CARD_0))
    assert records(log) == [("air support card", {"side": US, "card_fb": 2, "card_f": 0, "fb": 1, "f": 0}),
                            ("air victory point", {"side": US, "points": 1})]


def test_waw_appendix2_pick_an_air_support_at_the_end_of_the_turn(tmp_path):
    # "Additional air support cards may be obtained by playing a 'pick an air support' card at the end
    # of one's turn"; "the player picks another card from the command card deck".  Forced: the air
    # support card picked (the US deck's card 5), then the command cards drawn
    core, state = air_game(tmp_path, us_pool=[0, 8], us_hand=[])
    pick = core.scenario.card_names.index("Pick an air support")
    give_hand(state, US, [card_named(core, "order 1 red"), pick])
    germany_waits(core, state)
    state = step(core, at(core, state, P_CARD), special(core, act.CARD_0), piece(core, 0), piece(core, 0),
                 hx(core, "0606"), special(core, act.DONE))
    assert state.phase[0] == P_PICK_AIR
    first, second = (a_card_in_the_deck(core, state, n) for n in ("order 2 green", "order 3 green"))
    state, log = logged(core, state, special(core, act.YES), forced=[5, first, second])
    assert [k for k, _ in records(log)] == ["pick an air support", "card drawn", "card discarded", "card drawn"]
    assert texts(core, log, state, DE)[:2] == [
        "us plays Pick an air support: an air support card picked from its deck (Appendix 2)",
        "us draws a card after playing 'pick an air support' (6. Draw a command card)"]
    assert records(log)[1] == ("card drawn", {"side": US, "card": first, "for": ev.AFTER_PICK})


# ------------------------------------------------------------------------------------ every event
@pytest.mark.parametrize("scenario,options", [("pacific", {}), ("bocage", {"night": True}),
                                              ("ussr_town", {"advanced_vehicles": True})])
def test_waw_events_agree_with_the_state_in_random_games(scenario, options):
    """Random masked play with the log on: the pieces "destroyed" are the ones that left the board,
    the victory point events end at the state's points, "game over" comes with the end, a card drawn
    is None to the other side, and every event is written in words for every reader."""
    from wargym.world_at_war.core import WorldAtWarCore

    core = WorldAtWarCore(scenario, **options)
    rng = np.random.default_rng(7)
    state = core.init(8, seed=3)
    kinds = set()
    for _ in range(1500):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in state.legal_action_mask])
        after, logs = core.step_logged(state, actions)
        for g, log in enumerate(logs):
            kinds.update(e["kind"] for e in log)
            gone = np.flatnonzero((state.p_hex[g] >= 0) & (after.p_hex[g] < 0))
            assert sorted(e["args"]["unit"] for e in log if e["kind"] == "destroyed") == gone.tolist()
            for side in range(2):
                points = [e["args"]["points"] for e in log if e["kind"] in ("victory point", "air victory point")
                          and e["args"]["side"] == side]
                assert points == list(range(state.vp[g, side] + 1, after.vp[g, side] + 1))
            ended = after.terminated[g] and not state.terminated[g]
            assert [e["args"]["winner"] for e in log if e["kind"] == "game over"] == ([after.winner[g]] if ended else [])
            for viewer in (None, 0, 1):
                read = core.events_for(log, after, g, viewer)
                assert all(isinstance(e["text"], str) and "?" not in e["text"] for e in read)
                for e in read:
                    if e["kind"] == "card drawn":
                        assert (e["args"]["card"] is None) == (viewer is not None and viewer != e["args"]["side"])
        state = core.reset_done(after, seed=11)
    assert {"battle", "battle die", "hits", "saving throw", "loss", "destroyed", "victory point", "retreat",
            "card played", "card drawn", "air support card", "plane placed"} <= kinds
