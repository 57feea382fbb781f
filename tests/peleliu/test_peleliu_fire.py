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

import pytest

from peleliu_board import Board, card
from wargym.data import config_path, load_yaml
from wargym.peleliu import japanese
from wargym.peleliu.state import US_BOX, US_ELIM, US_TRACK

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
