"""Japanese fire (6.0-6.5, 10.4, 16.0), worked by hand from the rule book and replayed on the
engine's kernels (wargym/peleliu/japanese.py) with forced Fire cards.

Charts (configs/peleliu/charts.yaml, reconstructed around the book's facts): the Japanese Fire
Chart's columns are [non-armored without the card's symbol, non-armored with it, armored without,
armored with]; intense fire from a position with an unrevealed unit is step + disrupt for every
column, from a revealed one a step; steady fire hits only non-armored units with the card's
symbol (step + disrupt unrevealed, step revealed); machine-gun fire into hexes next to intense dots
is a step for non-armored units with the symbol (6.3 examples 1 and 2).  Each test reads the
cells it relies on from the yaml and asserts the map facts (reconstructed map.yaml /
positions.yaml) its hand computation rests on.

Cards used (cards.yaml): 34 = orange, red, green[P]* / diamond / artillery 6 (6.3 example 1);
2 = purple[M]*, blue[I] armor, brown / triangle (6.3 example 2); 19 = orange*, green[M] armor, brown
/ triangle; 24 = red, purple armor, green[R] / circle / artillery 4; 48 = red, blue[R], brown /
triangle / artillery 4.
"""

from __future__ import annotations

import numpy as np
import pytest

from peleliu_board import Board, card, make_core
from wargym.data import config_path, load_yaml
from wargym.peleliu import events, japanese, sequence, ties
from wargym.peleliu.actions import UNIT_0
from wargym.peleliu.state import (
    P_ACT_SELECT, P_ASSAULT_PICK, P_CA_PICK, P_HIT_PICK, ST_FIRE, ST_FIRE_START, US_BOX, US_ELIM, US_TRACK,
)

CHARTS = load_yaml(config_path("peleliu", "charts.yaml"))
FIRE = CHARTS["fire_chart"]


def run_fire_phase(b: Board, number: int) -> None:
    """III: draw the forced Fire card, check every queued position, then artillery and 6.42."""
    b.force([number])
    japanese.start_fire_phase(b.T, b.S, 0)
    assert int(b.state.fire_card[0]) == card(number)
    while japanese.fire_step(b.T, b.S, 0):
        pass
    japanese.finish_fire_phase(b.T, b.S, 0)


def test_peleliu_6_3_fire_chart_cells_the_examples_fix():
    """The chart cells the hand computations below use (6.3 examples 1 and 2)."""
    assert FIRE["intense"]["unrevealed"] == ["step_disrupt"] * 4
    assert FIRE["intense"]["revealed"] == ["step"] * 4
    assert FIRE["steady"]["unrevealed"][:2] == ["none", "step_disrupt"]
    assert FIRE["steady"]["revealed"][:2] == ["none", "step"]
    assert FIRE["steady"]["unrevealed"][2:] == ["none", "none"]
    assert FIRE["mg_adjacent"]["unrevealed"] == ["none", "step", "none", "none"]


def test_peleliu_6_3_example_1_orange_red_green():
    """6.3 example 1 (turn 3, card 34: orange, red, green / diamond).

    RECONSTRUCTED map: the book's red position is in 0318 and one orange steady hex lies in its
    intense field; our 0318 (A3) touches no orange field, so the same geometry is built with the
    orange group A15/A16 (0620, 0521) and the red position A11 (0423), whose fields meet in 0422
    (orange steady, red intense).  Units: B/1/5 + HQ/1/5 in orange intense 0421; I/3/5 (diamond) +
    C/1/5 in orange steady 0422 (8 steps); A/1/5 (triangle) in orange steady 0320 (a red steady
    hex of the empty red A3) and K/3/5 (circle) in orange steady 0721: "two in intense, four in
    steady"; F/2/1 in red intense 0424; I/3/1 and L/3/7 (circles) in red steady 0222 / 0524; a
    disrupted green unit in A12 (0326) whose intense field holds G/2/1 (0425); brown B2 and purple
    D3 occupied (not on the card).

    Hand computation.  Orange: two non-disrupted units and one depth marker -> hit limit 3 (6.31);
    one unit unrevealed -> unrevealed column.  Priority 1 (intense): B/1/5 step + disrupt (4 -> 3);
    HQ/1/5 is a leader and orange has no star -> not hit (10.4).  Priority 2 (steady): I/3/5 has
    the card's diamond; the stack I/3/5 + C/1/5 holds 8 steps -> concentrated (6.35), so both are
    hit: step + disrupt each.  Three hits = the limit, so A/1/5 and K/3/5 (no diamond, alone)
    are untouched anyway.  Red A11: unit + depth -> limit 2, all revealed -> steps, no disruption.
    Intense: C/1/5 and I/3/5 already lost a step this phase (6.34: the book's text has I/3/5 lose a
    second one, which 6.34 forbids; the rule wins), F/2/1 loses a step, not disrupted.  Steady:
    I/3/1 and L/3/7 are circles -> no hit.  Green: disrupted -> no fire (6.4) so G/2/1 keeps its
    steps; brown and purple are not on the card.  6.42: the green unit's disruption is removed.
    15.1: every loss is a 4 -> 3 flip of the front counter -> the Infantry Loss Box stays empty.
    """
    b = Board(turn=3)
    assert b.dot("A15", 421) == "intense" and b.dot("A15", 422) == "steady" and b.dot("A11", 422) == "intense"
    assert b.dot("A15", 320) == b.dot("A15", 721) == "steady" and b.dot("A3", 320) == "steady"
    assert b.dot("A11", 424) == "intense" and b.dot("A11", 222) == b.dot("A11", 524) == "steady"
    assert b.dot("A12", 425) == "intense" and b.dot("B2", 424) == "intense" and b.dot("B2", 524) == "intense"
    assert set(b.dots_in(421)) == {"A15/A16"}
    assert (b.symbol("I/3/5"), b.symbol("A/1/5"), b.symbol("K/3/5")) == ("diamond", "triangle", "circle")
    assert (b.symbol("I/3/1"), b.symbol("L/3/7"), b.symbol("F/2/1")) == ("circle", "circle", "circle")
    b.jp(620, "J22", depth=26)                          # A15: unrevealed, depth
    b.jp(521, "J23", rev=True)                          # A16: revealed
    b.jp(423, "J30", rev=True, depth=27, depth_rev=True)  # A11 red: revealed unit and depth
    green = b.jp(326, "J24", dis=True)                  # A12 green, disrupted
    brown = b.jp(525, "J25", dis=True)                  # B2 brown, disrupted (stays: brown not drawn)
    b.jp(526, "J26")                                    # D3 purple
    for name, h in [("B/1/5", 421), ("HQ/1/5", 421), ("I/3/5", 422), ("C/1/5", 422), ("A/1/5", 320),
                    ("K/3/5", 721), ("F/2/1", 424), ("I/3/1", 222), ("L/3/7", 524), ("G/2/1", 425)]:
        b.us(name, h)
    run_fire_phase(b, 34)
    got = {n: (b.steps(n), b.dis(n) != 0) for n in ["B/1/5", "HQ/1/5", "I/3/5", "C/1/5", "A/1/5", "K/3/5", "F/2/1",
                                                   "I/3/1", "L/3/7", "G/2/1"]}
    assert got == {"B/1/5": (3, True), "HQ/1/5": (2, False), "I/3/5": (3, True), "C/1/5": (3, True),
                   "A/1/5": (4, False), "K/3/5": (4, False), "F/2/1": (3, False), "I/3/1": (4, False),
                   "L/3/7": (4, False), "G/2/1": (4, False)}
    assert not b.state.jp_dis[0, green]     # 6.42: green was on the card
    assert b.state.jp_dis[0, brown]         # brown was not
    assert int(b.state.loss_box[0]) == 0


def test_peleliu_6_31_hit_limit_units_and_depth():
    """6.31: the orange group A15/A16 with two units and one depth marker hits at most three U.S.
    units; priority 1 (intense) before priority 2 (steady), then the most steps.

    Units (each alone): 4-step B/1/5 in 0421, 4-step K/3/5 in 0522, 3-step L/3/7 in 0619, 2-step
    I/3/1 in 0621 (all orange intense, all adjacent to the group), 4-step I/3/5 (diamond, the card's
    symbol) in steady 0721.  Limit 3 -> B/1/5, K/3/5 (4 steps) then L/3/7 (3 steps); I/3/1 (2 steps)
    and the steady I/3/5 (priority 2, though it has 4 steps) are not hit.  Card 34, orange
    unrevealed -> step + disrupt."""
    b = Board(turn=3)
    for h in (421, 522, 619, 621):
        assert b.dot("A15", h) == "intense" and min(b.dist(h, 521), b.dist(h, 620)) == 1
    assert b.dot("A15", 721) == "steady"
    b.jp(620, "J22", depth=26)
    b.jp(521, "J23")
    for name, h, s in [("B/1/5", 421, 4), ("K/3/5", 522, 4), ("L/3/7", 619, 3), ("I/3/1", 621, 2),
                       ("I/3/5", 721, 4)]:
        b.us(name, h, steps=s)
    b.fire_card(34)
    hits = japanese.group_fire(b.T, b.S, 0, b.group("A15"), False, False, False)
    assert hits == 3
    assert {n: b.steps(n) for n in ["B/1/5", "K/3/5", "L/3/7", "I/3/1", "I/3/5"]} == \
        {"B/1/5": 3, "K/3/5": 3, "L/3/7": 2, "I/3/1": 2, "I/3/5": 4}


def test_peleliu_6_41_disrupted_unit_of_a_group_adds_no_hits():
    """6.41: with the A16 unit disrupted, the orange group still fires with A15's unit and its
    depth marker: limit 2 (not 3).  Same board as the 6.31 test: B/1/5 and K/3/5 are hit, L/3/7 not."""
    b = Board(turn=3)
    b.jp(620, "J22", depth=26)
    b.jp(521, "J23", dis=True)
    for name, h, s in [("B/1/5", 421, 4), ("K/3/5", 522, 4), ("L/3/7", 619, 3)]:
        b.us(name, h, steps=s)
    b.fire_card(34)
    assert japanese.group_fire(b.T, b.S, 0, b.group("A15"), False, False, False) == 2
    assert (b.steps("B/1/5"), b.steps("K/3/5"), b.steps("L/3/7")) == (3, 3, 3)


def test_peleliu_6_31_lone_unit_hits_one():
    """6.31: "a lone unit in a position may hit just one US unit": A5 (0314) with one unit and no
    depth, two 4-step units in its intense hexes 0313 and 0315 -> one hit (the lower-numbered unit
    is the engine's choice of "you choose"; only the count is the rule)."""
    b = Board(turn=3)
    assert b.dot("A5", 313) == b.dot("A5", 315) == "intense"
    b.jp(314, "J22")
    b.us("B/1/5", 313)
    b.us("K/3/5", 315)
    b.fire_card(34)
    assert japanese.group_fire(b.T, b.S, 0, b.group("A5"), False, False, False) == 1
    assert sorted([b.steps("B/1/5"), b.steps("K/3/5")]) == [3, 4]


def test_peleliu_6_34_most_units_hit_across_positions():
    """6.34's own example: position A (orange A5, unit + depth: limit 2) has three eligible units,
    one of which (X) position B (red A2, lone unit: limit 1) can also hit; "assume that position
    B hits that unit, and position A hits the other two".  X = B/1/5 (4 steps) in 0313 (A5 and A2
    intense), Y = K/3/5 (3 steps) in 0315 and Z = L/3/7 (3 steps) in 0214 (A5 intense only).  Card
    34 puts orange before red.  By the rule all three lose a step (4 -> 3, 3 -> 2, 3 -> 2)."""
    b = Board(turn=3)
    assert b.dot("A5", 313) == b.dot("A2", 313) == "intense"
    assert b.dot("A5", 315) == b.dot("A5", 214) == "intense" and not b.dot("A2", 315) and not b.dot("A2", 214)
    b.jp(314, "J22", rev=True, depth=26)
    b.jp(312, "J23", rev=True)
    b.us("B/1/5", 313)
    b.us("K/3/5", 315, steps=3)
    b.us("L/3/7", 214, steps=3)
    run_fire_phase(b, 34)
    assert (b.steps("B/1/5"), b.steps("K/3/5"), b.steps("L/3/7")) == (3, 2, 2)


def test_peleliu_6_34_one_step_per_phase():
    """6.34: a unit loses at most one step from fire in a Fire Phase: B/1/5 in 0313 is in the
    intense fields of both A5 (orange) and A2 (red); card 34 fires both; B/1/5 loses one step."""
    b = Board(turn=3)
    b.jp(314, "J22", rev=True)
    b.jp(312, "J23", rev=True)
    b.us("B/1/5", 313)
    run_fire_phase(b, 34)
    assert b.steps("B/1/5") == 3


def test_peleliu_6_35_concentrated_target():
    """6.35: seven or more steps in a hex make every unit there carry the card's symbol.  Orange
    A15/A16 (unit + depth, unrevealed) fires with card 34 (diamond) into steady 0422: K/3/5 (circle,
    4) + L/3/7 (circle, 3) = 7 steps -> both hit (step + disrupt).  With L/3/7 at 2 steps (6 in the
    hex) neither has the diamond -> no hit."""
    for l_steps, expected in ((3, (3, 2, True, True)), (2, (4, 2, False, False))):
        b = Board(turn=3)
        b.jp(620, "J22", depth=26)
        b.us("K/3/5", 422)
        b.us("L/3/7", 422, steps=l_steps)
        b.fire_card(34)
        japanese.group_fire(b.T, b.S, 0, b.group("A15"), False, False, False)
        assert (b.steps("K/3/5"), b.steps("L/3/7"), b.dis("K/3/5") != 0, b.dis("L/3/7") != 0) == expected


def test_peleliu_6_3_example_2_purple_mg_brown_lone():
    """6.3 example 2 (turn 3, card 2: purple[M]*, blue[I] armor, brown / triangle).

    Map (reconstructed to the example): D3/D4 purple projects intense fire into 0425, none into
    0424; brown B2 (0525) projects intense fire into 0424, 0425 and 0524; 0424 borders 0425.
    L/3/5 in 0425; K/3/7 (triangle) and the amphibious tank LVT/1 in 0424.

    Purple: M is available on turn 3 and the position has U.S. units in its field -> machine-gun
    fire (Action Chart); unit + depth -> limit 2.  Priority 1: L/3/5 in intense 0425 -> step +
    disrupt (unrevealed).  Priority 3 (machine guns): K/3/7 has the card's triangle in 0424, no
    purple dot but next to intense 0425 -> a step, no disruption (mg_adjacent).  The amtank is
    armored -> mg_adjacent 'none'.  Blue: no blue position here.  Brown: lone unit -> limit 1;
    L/3/5 and K/3/7 already lost a step (6.34) -> the amtank in intense 0424 is hit (armored units
    are hit by intense fire even without the armor bonus, 6.36) and, at one step, is removed.
    15.1: the amtank does not go to the Infantry Loss Box; the companies only flipped (4 -> 3)."""
    b = Board(turn=3)
    assert b.dot("D3", 425) == "intense" and not b.dot("D3", 424) and b.dist(424, 425) == 1
    assert b.dot("B2", 424) == b.dot("B2", 425) == "intense"
    assert b.colour("D3") == "purple" and b.colour("B2") == "brown"
    assert b.symbol("K/3/7") == "triangle" and b.symbol("L/3/5") == "triangle"
    b.jp(526, "J22", depth=26)     # D3 (the group D3/D4): unit and depth, face down
    b.jp(525, "J23")               # B2: a lone unit
    b.us("L/3/5", 425)
    b.us("K/3/7", 424)
    b.us("LVT/1", 424)
    run_fire_phase(b, 2)
    assert (b.steps("L/3/5"), b.dis("L/3/5") != 0) == (3, True)
    assert (b.steps("K/3/7"), b.dis("K/3/7") != 0) == (3, False)
    assert b.loc("LVT/1") == US_ELIM
    assert int(b.state.loss_box[0]) == 0


def test_peleliu_6_36_armor_hit_bonus():
    """6.36: an armored unit with the card's symbol in a steady hex is hit only when the firing
    colour has the armor bonus (then it counts as non-armored).  Blue B5 (0616) unit, face down;
    Tk/A (triangle, armored) in blue steady 0416.  Card 2: blue with the armor bonus, triangle ->
    steady, unrevealed, non-armored with the symbol: step + disrupt (2 -> 1).  Card 48: blue, no
    bonus, triangle -> armored with the symbol in steady: none."""
    for number, bonus, expected in ((2, True, 1), (48, False, 2)):
        b = Board(turn=3)
        assert b.dot("B5", 416) == "steady" and b.symbol("Tk/A") == "triangle"
        b.jp(616, "J22")
        b.us("Tk/A", 416)
        b.fire_card(number)
        assert bool(b.sc.card_armor[card(number), 1]) == bonus
        japanese.group_fire(b.T, b.S, 0, b.group("B5"), False, False, bonus)
        assert b.steps("Tk/A") == expected


def test_peleliu_6_4_disrupted_position_does_not_fire():
    """6.4: a disrupted unit does not fire: A5 disrupted, B/1/5 in its intense hex 0315 is untouched
    by card 34; the same board with A5 undisrupted costs B/1/5 a step."""
    for dis, expected in ((True, 4), (False, 3)):
        b = Board(turn=3)
        b.jp(314, "J22", dis=dis)
        b.us("B/1/5", 315)
        run_fire_phase(b, 34)
        assert b.steps("B/1/5") == expected


def test_peleliu_6_42_disruption_removed_for_the_cards_colours():
    """6.42: after all fire, disruption is removed from every disrupted Japanese unit in a position
    of a colour on the Fire card.  Card 34 (orange, red, green): disrupted units in A5 (orange),
    A2 (red), A1 (green) recover; those in B2 (brown) and A8 (blue) stay disrupted."""
    b = Board(turn=3)
    js = {pid: b.jp(b.pos_hexnum(pid), dis=True) for pid in ("A5", "A2", "A1", "B2", "A8")}
    b.fire_card(34)
    japanese.finish_fire_phase(b.T, b.S, 0)
    assert {pid: bool(b.state.jp_dis[0, j]) for pid, j in js.items()} == \
        {"A5": False, "A2": False, "A1": False, "B2": True, "A8": True}


ARTILLERY = ("A14", "B6", "B16", "B20", "C1", "C12", "D1", "D3")


def test_peleliu_6_5_artillery_positions_on_the_map():
    """3.0 / 6.5: eight artillery positions (eight Artillery Destroyed markers)."""
    b = Board()
    assert sorted(pid for p, pid in enumerate(b.sc.pos_id) if b.sc.pos_art[p]) == sorted(ARTILLERY)


def test_peleliu_6_5_artillery_value_hits_a_unit_in_a_landing_box_first():
    """6.5: card 24 (circle, artillery 4) with four occupied undisrupted artillery positions (A14,
    B6, B16, C1): 4 >= 4, one non-HQ circle unit loses a step: priority 1, the landing box: I/3/1 (2
    steps in box W1) before F/2/1 (4 steps in landing beach hex 0210) -> I/3/1 1 step, still in
    its box; F/2/1 untouched."""
    b = Board(turn=4)
    for pid in ("A14", "B6", "B16", "C1"):
        b.jp(b.pos_hexnum(pid))
    b.box("I/3/1", "W1", steps=2)
    b.us("F/2/1", 210)
    b.fire_card(24)
    assert b.sc.card_artillery[card(24)] == 4 and b.symbol("F/2/1") == b.symbol("I/3/1") == "circle"
    japanese.finish_fire_phase(b.T, b.S, 0)
    assert (b.loc("I/3/1"), b.steps("I/3/1"), b.steps("F/2/1")) == (US_BOX, 1, 4)


def test_peleliu_6_5_artillery_closest_to_a_landing_beach():
    """6.5 priority 3: no circle unit in a box or a landing beach hex; L/3/7 (3 steps, 0315, one hex
    from beach 0214) is hit before K/3/5 (4 steps, 0416, two hexes away) - the most-steps rule
    only breaks ties within a priority.  E/2/1 (diamond) in beach 0215 and HQ/1/5 are not
    eligible."""
    b = Board(turn=4)
    for pid in ("A14", "B6", "B16", "C1"):
        b.jp(b.pos_hexnum(pid))
    b.us("L/3/7", 315, steps=3)
    b.us("K/3/5", 416)
    b.us("E/2/1", 215)
    b.us("HQ/1/5", 215)
    b.fire_card(24)
    assert b.dist(315, 214) == 1 and min(b.dist(416, x) for x in (213, 214, 215)) == 2
    japanese.finish_fire_phase(b.T, b.S, 0)
    assert (b.steps("L/3/7"), b.steps("K/3/5"), b.steps("E/2/1"), b.steps("HQ/1/5")) == (2, 4, 4, 2)


@pytest.mark.parametrize("case", ["disrupted", "destroyed", "turn_1"])
def test_peleliu_6_5_no_artillery_fire(case):
    """6.5 / 6.51: card 24 needs four artillery positions with undisrupted Japanese units.  Four
    are occupied but one is disrupted (3 < 4), or one has an Artillery Destroyed marker (6.51), or
    it is turn 1 ("Japanese artillery fire does not occur on Turn 1") -> F/2/1 keeps its steps."""
    b = Board(turn=1 if case == "turn_1" else 4)
    js = [b.jp(b.pos_hexnum(pid)) for pid in ("A14", "B6", "B16", "C1")]
    if case == "disrupted":
        b.state.jp_dis[0, js[0]] = True
    if case == "destroyed":
        b.state.art_gone[0, b.pos("A14")] = True
    b.us("F/2/1", 210)
    b.fire_card(24)
    japanese.finish_fire_phase(b.T, b.S, 0)
    assert b.steps("F/2/1") == 4


def test_peleliu_10_41_leader_hit_last():
    """10.4 / 10.41: card 19 gives orange a star.  A5 (revealed unit + depth: limit 2) has B/1/5 in
    intense 0214 and HQ/1/5 (infantry/HQ, 2 steps) in intense 0315: B/1/5 takes the first hit, the
    leader the second (a two-step infantry/HQ loses a step).  With a second non-leader (K/3/5 in
    0313) eligible, the two hits go to the non-leaders and the leader is not hit."""
    for extra, expected_hq in ((False, 1), (True, 2)):
        b = Board(turn=3)
        assert bool(b.sc.card_star[card(19), 0]) and b.sc.card_colour[card(19), 0] == 0  # orange*
        b.jp(314, "J22", rev=True, depth=26)
        b.us("B/1/5", 214)
        b.us("HQ/1/5", 315)
        if extra:
            b.us("K/3/5", 313)
        run_fire_phase(b, 19)
        assert b.steps("B/1/5") == 3 and b.steps("HQ/1/5") == expected_hq
        if extra:
            assert b.steps("K/3/5") == 3


def test_peleliu_10_4_regimental_hq_hit_goes_two_turns_ahead():
    """10.4: a regimental HQ hit (a star colour, no other unit eligible) leaves the map for the turn
    track two turns ahead (hit on turn 6 -> space 8); 6.33: it is never disrupted."""
    b = Board(turn=6)
    b.jp(314, "J22", rev=True)
    b.us("RHQ/5", 315)
    run_fire_phase(b, 19)
    u = b.unit("RHQ/5")
    assert (b.loc("RHQ/5"), int(b.state.us_track[0, u]), b.dis("RHQ/5")) == (US_TRACK, 8, 0)


@pytest.mark.parametrize("turn,expected", [(13, (3, 4)), (12, (3, 3))])
def test_peleliu_16_0_night_fire_only_adjacent(turn, expected):
    """16.0 III: at night Japanese fire hits U.S. units only in hexes adjacent to the firing
    position.  Orange A15/A16 (unit + depth, limit 2), card 34 (diamond): B/1/5 in intense 0421
    (adjacent to A16) and I/3/5 (diamond) in steady 0422 (two hexes from both hexes of the group).
    Turn 13: only B/1/5 loses a step; turn 12: both."""
    b = Board(turn=turn)
    assert b.dist(421, 521) == 1 and min(b.dist(422, 521), b.dist(422, 620)) == 2
    b.jp(620, "J22", depth=26)
    b.us("B/1/5", 421)
    b.us("I/3/5", 422)
    b.fire_card(34)
    japanese.group_fire(b.T, b.S, 0, b.group("A15"), False, False, False)
    assert (b.steps("B/1/5"), b.steps("I/3/5")) == expected


@pytest.mark.parametrize("turn, kept", [(3, False), (13, True)])
def test_peleliu_14_41_lone_garrison_removed_by_fire_but_not_from_afar_at_night(turn, kept):
    """14.41: a garrison alone in a position hex in the field of a firing position is removed.  A
    unit in A1 (0410) fires; the garrison in A2 (0312) lies in A1's steady field two hexes away.
    On turn 13, the night turn, fire into non-adjacent hexes is disregarded (16.0): it stays."""
    b = Board(turn=turn)
    assert b.pos_hexnum("A1") == 410 and b.pos_hexnum("A2") == 312
    assert b.dot("A1", 312) == "steady" and b.dist(410, 312) == 2
    b.jp(410, "J22")
    b.state.garrison[0, b.pos("A2")] = True
    b.fire_card(34)
    japanese.group_fire(b.T, b.S, 0, b.group("A1"), False, False, False)
    assert bool(b.state.garrison[0, b.pos("A2")]) == kept


# -- "you choose": the tied units' hits are the player's decision (P_HIT_PICK) -----------------------
def settle(b: Board) -> None:
    """The sequence's automatic play until a decision waits (sequence.progress)."""
    while sequence.progress(b.T, b.S, 0):
        pass


def tie_choices(b: Board) -> set[str]:
    m = np.zeros(b.core.num_actions, np.bool_)
    sequence.fill_mask(b.T, b.S, 0, m)
    return {b.sc.us_names[a - b.sc.num_hexes - UNIT_0] for a in np.flatnonzero(m)}


def lone_a5_board(decisions: str) -> Board:
    """6.31's lone unit: A5 (0314) holds face-down J22 without depth; 4-step B/1/5 in 0313 and K/3/5
    in 0315, both in A5's intense field one hex away; turn 3, the Fire Phase about to draw card 34
    (orange first, no letter for orange: A5 fires)."""
    b = Board(turn=3, core=make_core(decisions=decisions))
    assert b.dot("A5", 313) == b.dot("A5", 315) == "intense" and b.dist(313, 314) == b.dist(315, 314) == 1
    assert b.colour("A5") == "orange"
    b.jp(314, "J22")
    b.us("B/1/5", 313)
    b.us("K/3/5", 315)
    b.state.stage[0] = ST_FIRE_START
    b.force([34])
    return b


def test_peleliu_6_31_tied_units_are_the_players_choice():
    """6.31 "... most steps, then closer; you choose": the lone unit may hit one unit, and B/1/5 and
    K/3/5 tie on every priority (intense, 4 steps, one hex).  The Fire Phase waits (P_HIT_PICK)
    with the two as the only choices; the player picks K/3/5, the higher number (the default's
    other unit): it loses a step and is disrupted (intense fire of a face-down unit: step +
    disrupt), B/1/5 keeps its 4 steps; then the turn goes on to the U.S. actions."""
    b = lone_a5_board("full")
    assert b.unit("B/1/5") < b.unit("K/3/5")
    settle(b)
    assert int(b.state.phase[0]) == P_HIT_PICK and int(b.state.tie_left[0]) == 1
    assert tie_choices(b) == {"B/1/5", "K/3/5"}
    sequence.apply(b.T, b.S, 0, b.sc.num_hexes + UNIT_0 + b.unit("K/3/5"))
    assert (b.steps("K/3/5"), b.dis("K/3/5") != 0, b.steps("B/1/5"), b.dis("B/1/5")) == (3, True, 4, 0)
    assert not b.state.tie_units[0].any() and int(b.state.tie_left[0]) == 0
    settle(b)
    assert int(b.state.phase[0]) == P_ACT_SELECT


def test_peleliu_6_31_tie_default_with_major_decisions():
    """decisions="major": the same tie is not asked; the lower-numbered B/1/5 takes the hit."""
    b = lone_a5_board("major")
    settle(b)
    assert int(b.state.phase[0]) == P_ACT_SELECT
    assert (b.steps("B/1/5"), b.steps("K/3/5")) == (3, 4)


def test_peleliu_6_5_tied_artillery_hit_is_the_players_choice():
    """6.5: card 24 (circle, artillery 4) with four occupied artillery positions; two circle units
    in landing box W1 with 2 steps each (I/3/1, F/2/1) tie on every priority (the box, the steps):
    after the queue is done the Fire Phase waits for the player's choice between them; F/2/1 is
    picked and loses a step in its box; I/3/1 keeps 2."""
    b = Board(turn=4)
    for pid in ("A14", "B6", "B16", "C1"):
        b.jp(b.pos_hexnum(pid))
    b.box("I/3/1", "W1", steps=2)
    b.box("F/2/1", "W1", steps=2)
    b.fire_card(24)
    assert int(b.state.jq_n[0]) == 0 and b.symbol("F/2/1") == b.symbol("I/3/1") == "circle"
    settle(b)
    assert int(b.state.phase[0]) == P_HIT_PICK and tie_choices(b) == {"I/3/1", "F/2/1"}
    sequence.apply(b.T, b.S, 0, b.sc.num_hexes + UNIT_0 + b.unit("F/2/1"))
    assert (b.loc("F/2/1"), b.steps("F/2/1"), b.steps("I/3/1")) == (US_BOX, 1, 2)
    assert bool(b.state.us_fired[0, b.unit("F/2/1")]) and not b.state.us_fired[0, b.unit("I/3/1")]


def test_peleliu_12_11_mortar_second_hit_tie_waits_for_the_player():
    """12.1 / 12.11: green A1 (0410) with a unit and its depth marker (two hits), card 8 (circle):
    4-step B/1/5 (0414) is hit first; the second hit ties between the 3-step K/3/5 (0313) and
    I/3/1 (0512), so it waits (ties.defer_tie, as the Fire Phase allows it); I/3/1 is picked and loses a
    step without disruption."""
    b = Board(turn=3)
    b.jp(410, depth=26)
    for n, h, s in [("B/1/5", 414, 4), ("K/3/5", 313, 3), ("I/3/1", 512, 3)]:
        b.us(n, h, steps=s)
    b.fire_card(8)
    b.state.tie_ok[0] = True
    japanese.check_group(b.T, b.S, 0, b.group("A1"), 0)
    assert b.steps("B/1/5") == 3 and int(b.state.tie_left[0]) == 1
    assert {b.sc.us_names[u] for u in np.flatnonzero(b.state.tie_units[0])} == {"K/3/5", "I/3/1"}
    ties.tie_hit(b.T, b.S, 0, b.unit("I/3/1"))
    assert {n: (b.steps(n), b.dis(n)) for n in ("B/1/5", "K/3/5", "I/3/1")} == \
        {"B/1/5": (3, 0), "K/3/5": (3, 0), "I/3/1": (2, 0)}
    assert int(b.state.tie_left[0]) == 0 and not b.state.tie_units[0].any()


def test_peleliu_12_91_ambush_tie_waits_for_the_player():
    """12.9 / 12.91 "closest, more steps, you choose": empty brown B19 (1016) in communication, card
    17 brown[A] (circle), turn 10: circle units F/2/1 (0917) and I/3/1 (1017), both 2 steps in B19's
    intense field one hex away, tie; the hit waits, the player picks I/3/1: it loses a step (no
    disruption: the intense row of the ambush), F/2/1 keeps both."""
    b = Board(turn=10)
    assert b.dot("B19", 917) == b.dot("B19", 1017) == "intense" and b.dist(917, 1016) == b.dist(1017, 1016) == 1
    b.jp(1115)
    b.jp(1215)
    b.us("F/2/1", 917, steps=2)
    b.us("I/3/1", 1017, steps=2)
    b.set_comm()
    b.fire_card(17)
    b.state.tie_ok[0] = True
    japanese.check_group(b.T, b.S, 0, b.group("B19"), 2)
    assert {b.sc.us_names[u] for u in np.flatnonzero(b.state.tie_units[0])} == {"F/2/1", "I/3/1"}
    assert int(b.state.tie_left[0]) == 1 and b.steps("F/2/1") == b.steps("I/3/1") == 2
    ties.tie_hit(b.T, b.S, 0, b.unit("I/3/1"))
    assert {n: (b.steps(n), b.dis(n)) for n in ("F/2/1", "I/3/1")} == {"F/2/1": (2, 0), "I/3/1": (1, 0)}


def test_peleliu_12_8_assault_tied_hexes_are_the_players_choice():
    """12.8 "into the closest US occupied hex in the position's field of fire ... the fewest US
    steps, then you choose": A5 (0314) holds J22; 4-step B/1/5 in 0313 and K/3/5 in 0315, both in
    its field one hex away, tie.  The assault waits (P_ASSAULT_PICK) with the two hexes as the only
    choices; the player picks 0315: J22 moves there and the close combat starts in 0315; with
    the default (the Fire Phase not allowing a tie: the lowest hex) it goes to the lower hex."""
    b = lone_a5_board("full")
    b.state.stage[0] = ST_FIRE
    j = b.jp_in(314)
    low = min(b.hex(313), b.hex(315))
    b.state.tie_ok[0] = True
    japanese.assault_unit(b.T, b.S, 0, j, 0)
    assert b.jp_where(j) == 314 and int(b.state.cc_hex[0]) == -1 and int(b.state.tie_from[0]) == b.hex(314)
    b.state.tie_ok[0] = False
    sequence.progress(b.T, b.S, 0)
    assert int(b.state.phase[0]) == P_ASSAULT_PICK
    m = np.zeros(b.core.num_actions, np.bool_)
    sequence.fill_mask(b.T, b.S, 0, m)
    assert set(np.flatnonzero(m).tolist()) == {b.hex(313), b.hex(315)}
    sequence.apply(b.T, b.S, 0, b.hex(315))
    assert b.jp_where(j) == 315 and int(b.state.cc_hex[0]) == b.hex(315) and int(b.state.tie_from[0]) == -1
    assert not b.state.tie_hexes[0].any()
    d = lone_a5_board("full")
    j = d.jp_in(314)
    japanese.assault_unit(d.T, d.S, 0, j, 0)
    assert int(d.state.cc_hex[0]) == low and d.jp_where(j) == d.number(low)


def event_card(b: Board, name: str) -> tuple[int, int]:
    """(card index, turn) of the first card whose event for some invasion turn is ``name``."""
    from wargym.peleliu.scenario import EVENTS
    c, t = np.argwhere(b.sc.card_event[:, 1:] == EVENTS.index(name))[0]
    return int(c), int(t) + 1


def test_peleliu_events_cp_under_fire_tie_is_the_players_choice():
    """US CP under fire: "The CP closest to a Japanese unit has a command range of one ... If CPs are
    equally close to a Japanese unit, you choose."  RHQ/5 (0415) and RHQ/1 (0212) are CPs, each two
    hexes from the Japanese unit in 0314 (A5): the event waits (P_HIT_PICK) with the two CPs; the
    player picks RHQ/1, whose range is one this turn."""
    b = Board(turn=9)
    assert b.dist(415, 314) == b.dist(212, 314) == 2
    b.jp(314)
    q5, q1 = b.us("RHQ/5", 415), b.us("RHQ/1", 212)
    b.state.cp[0, q5] = b.state.cp[0, q1] = 4
    c, t = event_card(b, "cp_under_fire")
    assert events.do_event(b.T, b.S, 0, c, t) < 0
    assert int(b.state.cp_fire[0]) == -1 and int(b.state.tie_left[0]) == 1
    assert {b.sc.us_names[u] for u in np.flatnonzero(b.state.tie_units[0])} == {"RHQ/5", "RHQ/1"}
    ties.tie_hit(b.T, b.S, 0, q1)
    assert int(b.state.cp_fire[0]) == q1 and not b.state.tie_units[0].any()


def test_peleliu_8_7_naval_artillery_blast_tie_is_the_players_choice():
    """8.7 Naval artillery blast: a card showing the close combat's colour and a participant's target
    symbol removes one step "from the unit with the most steps, then your choice": F/2/1 and I/3/1
    (circle, 3 steps each) in an orange close combat in 0315; the card drawn is forced to the first
    card showing orange and the circle; the step waits for the player, who picks I/3/1."""
    from wargym.peleliu import closecombat
    from wargym.peleliu.scenario import CC_NAVAL_BLAST, COLOURS, SYMBOLS
    b = Board(turn=9)
    orange, circle = COLOURS.index("orange"), SYMBOLS.index("circle")
    c = next(int(k) for k in range(len(b.sc.card_symbol))
             if b.sc.card_symbol[k] == circle and orange in b.sc.card_colour[k].tolist())
    j = b.jp(314)
    f, i = b.us("F/2/1", 315, steps=3), b.us("I/3/1", 315, steps=3)
    s = b.state
    s.cc_hex[0], s.cc_jp[0], s.cc_colour[0] = b.hex(315), j, orange
    s.cc_units[0, f] = s.cc_units[0, i] = True
    b.force([c + 1])
    closecombat.cc_event(b.T, b.S, 0, CC_NAVAL_BLAST, 0)
    assert {b.sc.us_names[u] for u in np.flatnonzero(s.tie_units[0])} == {"F/2/1", "I/3/1"}
    assert b.steps("F/2/1") == b.steps("I/3/1") == 3
    ties.tie_hit(b.T, b.S, 0, i)
    assert (b.steps("F/2/1"), b.steps("I/3/1")) == (3, 2)


def test_peleliu_events_unexpected_naval_fire_unit_is_the_players_choice():
    """Unexpected US naval fire hits position: the first fire card's symbol picks the position listed
    on the event card; with U.S. units there, "One US unit in the position with the target symbol
    on the second card must lose a step": the book names none, so the player chooses (P_HIT_PICK)
    between F/2/1 and I/3/1 (both circle) there; I/3/1 is picked and loses a step."""
    from wargym.peleliu.scenario import SYMBOLS
    b = Board(turn=9)
    c, t = event_card(b, "naval_hits_position")
    params = b.sc.card_param[c, t]
    first = next(k for k in range(len(b.sc.card_symbol)) if k != c and params[b.sc.card_symbol[k]] >= 0)
    hexnum = b.number(b.sc.pos_hex[params[b.sc.card_symbol[first]]])
    circle = SYMBOLS.index("circle")
    second = next(k for k in range(len(b.sc.card_symbol)) if k not in (c, first) and b.sc.card_symbol[k] == circle)
    f, i = b.us("F/2/1", hexnum, steps=3), b.us("I/3/1", hexnum, steps=3)
    b.force([first + 1, second + 1])
    events.naval_hits(b.T, b.S, 0, c, t)
    assert {b.sc.us_names[u] for u in np.flatnonzero(b.state.tie_units[0])} == {"F/2/1", "I/3/1"}
    ties.tie_hit(b.T, b.S, 0, i)
    assert (b.steps("F/2/1"), b.steps("I/3/1")) == (3, 2) and not b.state.tie_units[0].any()


@pytest.mark.parametrize("allowed", [True, False])
def test_peleliu_13_2_overrun_tied_hexes_are_the_players_choice(allowed):
    """13.2 [R] Overrun: "If the tank fires and hits one or more US units, then move into the hex
    occupied by the nearest hit unit.  If hit US units are equidistant, move to the hex occupied by
    the fewest US steps, then you choose."  Tank T1 in A5 (0314) with armor depth marker 51 (hit
    limit 2) fires on 4-step B/1/5 (0313) and K/3/5 (0315), both intense and one hex from the tank:
    each loses a step (intense fire of a revealed unit: a step), so both hexes hold 3 steps and
    tie.  Allowed, the overrun waits (P_ASSAULT_PICK) for the player, who picks 0315: T1 moves
    there and an overrun close combat starts; not allowed, it goes to the lower hex."""
    from wargym.peleliu.scenario import A_OVERRUN
    from wargym.peleliu.state import CC_OVERRUN
    b = Board(turn=10)
    t = b.jp(314, "T1", depth=51)
    b.us("B/1/5", 313)
    b.us("K/3/5", 315)
    b.fire_card(34)
    japanese.tank_action(b.T, b.S, 0, b.group("A5"), A_OVERRUN, False, False, b.occ(), allowed)
    assert b.steps("B/1/5") == b.steps("K/3/5") == 3
    if not allowed:
        low = min(313, 315, key=b.hex)
        assert b.jp_where(t) == low and int(b.state.cc_hex[0]) == b.hex(low)
        return
    assert b.jp_where(t) == 314 and int(b.state.tie_from[0]) == b.hex(314)
    assert set(np.flatnonzero(b.state.tie_hexes[0]).tolist()) == {b.hex(313), b.hex(315)}
    japanese.assault_pick(b.T, b.S, 0, b.hex(315))
    assert b.jp_where(t) == 315 and int(b.state.cc_hex[0]) == b.hex(315) and int(b.state.cc_kind[0]) == CC_OVERRUN


def test_peleliu_13_41_counterattack_tie_is_the_players_choice():
    """13.41 "select the four units closest to a tank unit.  If equally close, then select units
    farthest from a US landing beach": tank T1 in B22 (0709); non-tank units in C2 (0908), D5 (0810)
    and B21 (0508), two hexes from it, enter the stance; C4 (1009) and C6 (1007), both three hexes
    from the tank and eight from a landing beach, tie for the fourth place: the set-up waits
    (P_CA_PICK) with their two hexes; the player picks C6, which enters the stance; C4 does not."""
    from wargym.peleliu.board import nearest_beach
    b = Board(turn=9)
    units = {pid: b.pos_hexnum(pid) for pid in ("C2", "D5", "B21", "C4", "C6")}
    assert {pid: b.dist(709, h) for pid, h in units.items()} == {"C2": 2, "D5": 2, "B21": 2, "C4": 3, "C6": 3}
    assert nearest_beach(b.T, b.hex(1009)) == nearest_beach(b.T, b.hex(1007)) == 8
    b.jp(709, "T1")
    js = {pid: b.jp(h) for pid, h in units.items()}
    b.state.tie_ok[0] = True
    japanese.counterattack_event(b.T, b.S, 0)
    b.state.tie_ok[0] = False
    s = b.state
    assert {pid for pid, j in js.items() if s.jp_ca[0, j] >= 0} == {"C2", "D5", "B21"} and int(s.ca_left[0]) == 1
    sequence.progress(b.T, b.S, 0)
    assert int(s.phase[0]) == P_CA_PICK
    m = np.zeros(b.core.num_actions, np.bool_)
    sequence.fill_mask(b.T, b.S, 0, m)
    assert set(np.flatnonzero(m).tolist()) == {b.hex(1009), b.hex(1007)}
    sequence.apply(b.T, b.S, 0, b.hex(1007))
    assert {pid for pid, j in js.items() if s.jp_ca[0, j] >= 0} == {"C2", "D5", "B21", "C6"}
    assert s.jp_rev[0, js["C6"]] and not s.jp_rev[0, js["C4"]] and int(s.ca_left[0]) == 0 and not s.tie_hexes[0].any()


def test_peleliu_13_2_multi_fire_second_fire_tie_is_the_players_choice():
    """13.2 [M]: the tank fires twice, the second fire "a completely separate fire".  T1 in A5
    (0314), no depth marker (one hit a fire); 4-step B/1/5 (0313), K/3/5 (0315) and L/3/7 (0213),
    all in its intense field one hex away, tie.  The first fire goes on into the second, so its tie
    takes the default (the lowest number, B/1/5); the second fire ends the action: its tie (K/3/5,
    L/3/7) waits for the player, who picks L/3/7."""
    from wargym.peleliu.scenario import A_MULTI_FIRE
    b = Board(turn=10)
    assert all(b.dot("A5", h) == "intense" and b.dist(h, 314) == 1 for h in (313, 315, 213))
    b.jp(314, "T1")
    for name, h in (("B/1/5", 313), ("K/3/5", 315), ("L/3/7", 213)):
        b.us(name, h)
    assert b.unit("B/1/5") < b.unit("K/3/5") < b.unit("L/3/7")
    b.fire_card(34)
    japanese.tank_action(b.T, b.S, 0, b.group("A5"), A_MULTI_FIRE, False, False, b.occ(), True)
    assert (b.steps("B/1/5"), b.steps("K/3/5"), b.steps("L/3/7")) == (3, 4, 4)
    assert {b.sc.us_names[u] for u in np.flatnonzero(b.state.tie_units[0])} == {"K/3/5", "L/3/7"}
    ties.tie_hit(b.T, b.S, 0, b.unit("L/3/7"))
    assert (b.steps("B/1/5"), b.steps("K/3/5"), b.steps("L/3/7")) == (3, 4, 3) and not b.state.tie_ok[0]
