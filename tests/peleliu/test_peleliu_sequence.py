"""The U.S. Action Phase (7.0-7.35), the HQ phase (14.0-14.4), catastrophic loss (15.1) and the
game as a whole: the same seed gives the same game, and a game saved with ``core.to_dict`` and
loaded with ``core.from_dict`` goes on exactly as the original.

Movement is checked on us.move_targets (the destinations a unit may choose: 1 a move, 2 an
infiltration, 3 a cliff crossing) and us.execute_move; the map facts each test rests on
(terrain, neighbours, cliffs, fields of fire of the reconstructed map) are asserted first.
"""

from __future__ import annotations

import numpy as np
import pytest

from peleliu_board import Board, card, make_core
from wargym.agents import sample_legal
from wargym.data import config_path, load_yaml
from wargym.peleliu import events, us
from wargym.peleliu.board import step_loss
from wargym.peleliu.actions import END, MOVE, NO, UNIT_0, YES
from wargym.peleliu.sequence import apply, fill_mask, is_minor, minor_default, progress
from wargym.peleliu.state import (
    DIS_NEW, DM_OUT, JP_MAP, O_MOVE, P_ACT_ORDER, P_ACT_SELECT, P_AUTO, P_CP_RANGE, P_GARRISON, P_HIT_PICK, P_HQ_CP,
    P_OVER, P_REVEAL_PICK, P_STACK_JOIN, R_DECISIVE, R_LOSS, R_NONE, ST_ACTIONS, ST_FIRE, ST_HQ, US_ELIM,
)
from wargym.peleliu.victory import catastrophic_now


def targets(b: Board, name: str, free_only: bool = False) -> dict[int, int]:
    out = np.zeros(b.sc.num_hexes, np.int8)
    us.move_targets(b.T, b.S, 0, b.unit(name), out, free_only)
    return {b.number(h): int(out[h]) for h in np.nonzero(out)[0] if out[h] != 4}  # 4: only as a partner


def move(b: Board, to: int, *names: str) -> bool:
    """Declare and carry out a move of the named units (a stack, 7.21) to hex ``to``; True when
    the infiltration choice (7.33) waits."""
    s = b.state
    s.sel[0] = b.unit(names[0])
    s.order[0] = O_MOVE
    s.target[0] = b.hex(to)
    for n in names:
        s.att_units[0, b.unit(n)] = True
    return us.execute_move(b.T, b.S, 0)


# ------------------------------------------------------------------------------------------ 7.3
def test_peleliu_7_3_move_up_to_three_hexes():
    """7.3: a unit moves one, two or three hexes.  B/1/5 in 1019 with no Japanese unit anywhere:
    every land hex within two hexes is clear or airstrip (no 7.31 stop), so its destinations are
    exactly the land hexes one to three hexes away."""
    b = Board()
    ring2 = [h for h in range(b.sc.num_hexes) if 1 <= b.sc.grid.distance[b.hex(1019), h] <= 2]
    assert all(b.terrain(b.number(h)) in ("clear", "airstrip") for h in ring2)
    b.us("B/1/5", 1019)
    expected = {b.number(h) for h in range(b.sc.num_hexes)
                if b.sc.land[h] and 1 <= b.sc.grid.distance[b.hex(1019), h] <= 3}
    assert set(targets(b, "B/1/5")) == expected


def test_peleliu_7_31_intense_field_ends_the_move():
    """7.31: a move ends on entering an intense dot of a non-disrupted occupied position.  B/1/5 in
    0821; only B4 (0824) of the group B3/B4 is occupied.  0724 is three hexes away and every way
    there runs through 0723 or 0822, intense hexes of B3/B4 that are not next to B4's hex: with
    B4 live the move stops there (0723 and 0822 are destinations, 0724 is not); with B4 empty or
    disrupted 0724 is a destination again."""
    b = Board()
    assert b.dot("B3", 723) == b.dot("B3", 822) == "intense"
    assert 824 not in b.neighbours(723) | b.neighbours(822) and b.dist(821, 724) == 3
    b.us("B/1/5", 821)
    assert 724 in targets(b, "B/1/5")
    j = b.jp(824)
    t = targets(b, "B/1/5")
    assert 724 not in t and 723 in t and 822 in t
    b.state.jp_dis[0, j] = True
    assert 724 in targets(b, "B/1/5")


@pytest.mark.parametrize("dis", [False, True])
def test_peleliu_7_31_adjacent_enemy_ends_the_move(dis):
    """7.31: a move ends on entering a hex next to an enemy unit, even a disrupted one.  B/1/5 in
    1018, a Japanese unit in B19 (1016): 1116 is three hexes away and can only be reached through
    1017 or 1117, both next to 1016 -> not a destination (1017 and 1117 are)."""
    b = Board()
    assert {1017, 1117} <= b.neighbours(1016) and b.neighbours(1116) & {1017, 1117}
    b.us("B/1/5", 1018)
    assert 1116 in targets(b, "B/1/5")
    b.jp(1016, dis=dis)
    t = targets(b, "B/1/5")
    assert 1116 not in t and 1017 in t and 1117 in t


def test_peleliu_7_31_jungle_ends_the_move():
    """7.31: a move ends on entering mountain, coral or jungle.  B/1/5 in 0415: A17's hex 0417 is
    two hexes away, 0416 (jungle) the only hex between; the other neighbours of 0417 are not within
    two steps of 0415 through clear ground -> 0416 is a destination, 0417 is not."""
    b = Board()
    assert b.terrain(416) == "jungle" and b.dist(415, 417) == 2
    assert {h for h in b.neighbours(415) if h in b.neighbours(417)} == {416}
    b.us("B/1/5", 415)
    t = targets(b, "B/1/5")
    assert 416 in t and 417 not in t


def test_peleliu_7_32_cliff_crossing():
    """7.32: an infantry unit starting next to a cliff hexside (0610 / 0711) may cross it, one hex
    only, and is disrupted on crossing."""
    b = Board()
    h, x = b.hex(610), b.hex(711)
    assert any(b.sc.cliff[h, d] and b.sc.grid.neighbours[h, d] == x for d in range(6))
    b.us("B/1/5", 610)
    assert targets(b, "B/1/5")[711] == 3
    us.start_actions(b.T, b.S, 0)
    assert move(b, 711, "B/1/5") is False
    assert b.where("B/1/5") == 711 and b.dis("B/1/5") == DIS_NEW


def infiltration_board() -> Board:
    """B5 (0616, blue) occupied and undisrupted; B/1/5 (circle) in 0615, next to 0616 and in its
    intense field; 0516 is next to both and in B5's field: the move 0615 -> 0516 infiltrates."""
    b = Board(turn=6)
    assert 616 in b.neighbours(615) and 616 in b.neighbours(516) and 516 in b.neighbours(615)
    assert b.dot("B5", 615) and b.dot("B5", 516) and b.colour("B5") == "blue"
    b.jp(616)
    b.us("B/1/5", 615)
    us.start_actions(b.T, b.S, 0)
    return b


@pytest.mark.parametrize("number,loses", [(17, True), (7, False), (24, False)])
def test_peleliu_7_33_infiltration_check(number, loses):
    """7.33: the infiltration draws a Fire card; showing both the position's colour (blue) and the
    unit's symbol (circle) costs a step.  Card 17 (blue, circle): B/1/5 4 -> 3 and the choice to
    complete the move or stay waits; card 7 (blue, triangle) and card 24 (no blue, circle): no
    loss, the move is made."""
    sc = Board().sc
    assert (5 in sc.card_colour[card(number)], int(sc.card_symbol[card(number)]) == 0) == \
        {17: (True, True), 7: (True, False), 24: (False, True)}[number]
    b = infiltration_board()
    assert targets(b, "B/1/5")[516] == 2
    b.force([number])
    assert move(b, 516, "B/1/5") is loses
    assert b.forced_left == 0
    if loses:
        assert b.steps("B/1/5") == 3 and b.where("B/1/5") == 615
        us.finish_move(b.T, b.S, 0, False)            # the player completes the move
    assert b.where("B/1/5") == 516 and b.steps("B/1/5") == (3 if loses else 4)
    assert b.state.us_acted[0, b.unit("B/1/5")]


def test_peleliu_7_33_infiltrating_unit_may_stay():
    """7.33: after the step loss the unit may stay where it started; it has still acted."""
    b = infiltration_board()
    b.force([17])
    assert move(b, 516, "B/1/5")
    us.clear_order(b.T, b.S, 0)                        # the player keeps the unit in 0615
    assert b.where("B/1/5") == 615 and b.steps("B/1/5") == 3 and b.state.us_acted[0, b.unit("B/1/5")]


def test_peleliu_7_33_hq_may_not_infiltrate_alone():
    """7.33: infantry HQs may not attempt an infiltration move on their own."""
    b = infiltration_board()
    b.state.us_loc[0, b.unit("B/1/5")] = 0
    b.us("HQ/1/5", 615)
    assert 516 not in targets(b, "HQ/1/5")


def test_peleliu_7_33_hq_moves_with_a_regular_unit_attempting_infiltration():
    """7.33: "Regimental HQs and infantry HQs may not attempt an infiltration move on their own, but
    may move with a regular unit attempting infiltration."  HQ/1/5 stacked with B/1/5 in 0615: alone
    it is not offered 0516; B/1/5 moving there is offered HQ/1/5 as its stack partner (7.21).  The
    card drawn, 17, shows blue (B5's colour) and the circle: B/1/5 (circle) loses a step, HQ/1/5
    (the HQ star, no target symbol) does not; the move is completed: both stand in 0516."""
    b = infiltration_board()
    b.us("HQ/1/5", 615)
    action_phase(b)
    assert b.symbol("B/1/5") == "circle" and b.symbol("HQ/1/5") == "star"
    assert 516 not in targets(b, "HQ/1/5") and targets(b, "B/1/5")[516] == 2
    step(b, "HQ/1/5")
    if b.state.phase[0] == P_ACT_ORDER:
        step(b, MOVE)
    assert ("hex", 516) not in offered(b)
    step(b, NO)
    step(b, "B/1/5")
    if b.state.phase[0] == P_ACT_ORDER:
        step(b, MOVE)
    step(b, 516)
    assert offered(b) == {"HQ/1/5", NO}
    b.force([17])
    step(b, "HQ/1/5")
    assert b.forced_left == 0 and b.steps("B/1/5") == 3 and b.steps("HQ/1/5") == 2
    step(b, YES)                                       # complete the move
    assert b.where("B/1/5") == b.where("HQ/1/5") == 516


def test_peleliu_7_35_preservation_move_free():
    """7.35: an infantry unit beginning in a landing beach hex (0214, W2) may move one hex into a
    hex other than a landing beach hex for free.  B/1/5, not in command: 0214 -> 0315 costs no
    action; 0214 -> 0213 (a landing beach hex) costs one; with A5 (0314) occupied, 0214 -> 0315 is an
    infiltration past A5 (both hexes next to it, in its field) and costs one (and a Fire card)."""
    b = Board(turn=6)
    assert b.sc.beach_box[b.hex(214)] >= 0 and b.sc.beach_box[b.hex(213)] >= 0 and b.sc.beach_box[b.hex(315)] < 0
    for to, cost in ((315, 0), (213, 1)):
        b.us("B/1/5", 214)
        us.start_actions(b.T, b.S, 0)
        assert not b.state.us_cmd[0, b.unit("B/1/5")]
        free = targets(b, "B/1/5", free_only=True)
        assert 315 in free and 213 not in free and 215 not in free
        move(b, to, "B/1/5")
        assert int(b.state.actions_left[0]) == 2 - cost and b.where("B/1/5") == to
    b = Board(turn=6)
    b.jp(314)
    b.us("B/1/5", 214)
    us.start_actions(b.T, b.S, 0)
    assert 315 not in targets(b, "B/1/5", free_only=True)
    b.force([24])                       # the infiltration card: no orange (A5's colour) -> no step lost
    assert 0 not in b.sc.card_colour[card(24)]
    move(b, 315, "B/1/5")
    assert int(b.state.actions_left[0]) == 1


def test_peleliu_7_21_stack_acts_for_one_action():
    """7.21: two units of one stack doing the same action cost one action; units in two hexes cost
    two; a free unit (an infantry/HQ, or an infantry unit stacked with one, 7.1) costs none.
    B/1/5 and C/1/5 in 1019, A/1/5 in 0919, K/3/5 with HQ/3/5 in 1119, no regimental HQ."""
    b = Board(turn=6)
    for n, h in (("B/1/5", 1019), ("C/1/5", 1019), ("A/1/5", 919), ("K/3/5", 1119), ("HQ/3/5", 1119)):
        b.us(n, h)
    us.start_actions(b.T, b.S, 0)
    units = np.zeros(len(b.sc.us_names), np.bool_)

    def cost(*names):
        units[:] = False
        for n in names:
            units[b.unit(n)] = True
        return int(us.cost_of(b.T, b.S, 0, units))
    assert cost("B/1/5", "C/1/5") == 1
    assert cost("B/1/5", "A/1/5") == 2
    assert cost("HQ/3/5") == 0
    # K/3/5 is an infantry unit stacked with an infantry/HQ: in command, free (7.1)
    assert cost("K/3/5") == 0
    assert move(b, 1020, "B/1/5", "C/1/5") is False
    assert int(b.state.actions_left[0]) == 1 and b.where("B/1/5") == b.where("C/1/5") == 1020


# ------------------------------------------------------------------------------------------ 14
@pytest.mark.parametrize("a8,eligible", [("empty", True), ("occupied", False), ("in_comm", False)])
def test_peleliu_14_1_command_post_eligibility(a8, eligible):
    """14.1: a regimental HQ may become a command post in a hex no Japanese-occupied position, and
    no empty position in Japanese communication, projects fire dots into.  RHQ/5 in 0316: only A8
    (0216) has a dot there.  A8 empty and out of communication: eligible; A8 occupied: not; A8
    empty but in communication (units in A3, A17 and A9 around it): not."""
    b = Board(turn=8)
    assert list(b.dots_in(316)) == ["A8"]
    if a8 == "occupied":
        b.jp(216)
    if a8 == "in_comm":
        for pid in ("A3", "A17", "A9"):
            b.jp(b.pos_hexnum(pid))
    q = b.us("RHQ/5", 316)
    b.set_comm()
    if a8 == "in_comm":
        assert b.state.comm[0, b.pos("A8")]
    assert bool(us.cp_eligible(b.T, b.S, 0, q)) == eligible


def place_garrisons(b: Board) -> None:
    """14.4 as decisions="major" plays it: a garrison in every eligible hex."""
    m = np.zeros(b.sc.num_hexes, np.bool_)
    us.garrison_hexes(b.T, b.S, 0, m)
    for h in np.nonzero(m)[0]:
        b.state.garrison[0, b.sc.hex_pos[h]] = True


def test_peleliu_14_4_garrisons():
    """14.4: garrisons go to position hexes in a command post's range, occupied by or next to a U.S.
    unit, in U.S. communication and in no Japanese field of fire (even of a disrupted unit).  CP
    RHQ/5 in 0415 with range 3 (command track box 4); B/1/5 in 0315 (next to A5, 0314) and K/3/5 in
    0316 (next to A8, 0216); a disrupted Japanese unit in A17 (0417), whose field holds 0216.
    A5: garrison.  A8: in A17's field, none.  A17: a Japanese unit, none.  B5 (0616, two hexes
    from the CP): no U.S. unit next to it, none."""
    b = Board(turn=9)
    assert b.sc.command_track[4] == 3
    assert (b.dist(415, 314), b.dist(415, 216), b.dist(415, 616)) == (2, 2, 2)
    assert 314 in b.neighbours(315) and 216 in b.neighbours(316)
    assert b.dot("A17", 216) and not any(pid != "A7" for pid in b.dots_in(314))
    q = b.us("RHQ/5", 415)
    b.state.cp[0, q] = 4
    b.us("B/1/5", 315)
    b.us("K/3/5", 316)
    b.jp(417, dis=True)
    place_garrisons(b)
    g = b.state.garrison[0]
    assert {pid: bool(g[b.pos(pid)]) for pid in ("A5", "A8", "A17", "B5")} == \
        {"A5": True, "A8": False, "A17": False, "B5": False}
    assert int(g.sum()) == 1


@pytest.mark.parametrize("case", ["cp_under_fire_event", "cp_in_live_field", "cp_next_to_disrupted_unit"])
def test_peleliu_14_4_garrisons_use_the_cps_range_of_the_turn(case):
    """14.4 takes the CP's command range as it stands this turn.  US CP under fire: range one, so A5
    (0314, two hexes from the CP in 0415) gets no garrison.  14.32: a CP in the field of a
    non-disrupted Japanese unit commands nobody: the CP in 0515 lies in B5's (0616) steady field,
    so no garrison; with B5's unit disrupted the CP commands again and A5 (in no field: A7 is empty)
    gets its garrison."""
    b = Board(turn=9)
    cp_hex = 415 if case == "cp_under_fire_event" else 515
    assert b.dist(cp_hex, 314) == 2 and b.pos_hexnum("B5") == 616 and b.dot("B5", 515)
    q = b.us("RHQ/5", cp_hex)
    b.state.cp[0, q] = 4                    # range 3
    b.us("B/1/5", 315)                      # next to A5
    if case == "cp_under_fire_event":
        b.state.cp_fire[0] = q
    else:
        b.jp(616, dis=case == "cp_next_to_disrupted_unit")
    place_garrisons(b)
    assert bool(b.state.garrison[0, b.pos("A5")]) == (case == "cp_next_to_disrupted_unit")


def hq_phase_decision(b: Board) -> int:
    """Run the HQ phase's automatic steps (sequence.progress) to its next decision."""
    for _ in range(60):
        if b.state.phase[0] != P_AUTO:
            return int(b.state.phase[0])
        progress(b.T, b.S, 0)
    raise AssertionError("no decision")


def legal(b: Board) -> set:
    m = np.zeros(b.core.num_actions, np.bool_)
    fill_mask(b.T, b.S, 0, m)
    H = b.sc.num_hexes
    return {("hex", b.number(a)) if a < H else a - H for a in np.nonzero(m)[0]}


def test_peleliu_14_4_and_14_2_are_the_players_choices():
    """14.4 "you may place garrison markers", 14.2 "you may advance the marker": under
    decisions="full" each is a decision.  Turn 9, CP RHQ/5 in 0415 with range 3 (box 4), B/1/5 in
    0315 next to A5 (0314), K/3/5 in 0316 next to A8 (0216), no Japanese unit anywhere: A5 and A8
    are eligible.  The player garrisons A8 and then declines (NO): A5 stays without a garrison.
    The CP's range may advance (in no occupied field); the player declines: box 4 stays.  Then the
    CP may be abandoned (14.11, P_HQ_CP).  Under decisions="major" both are minor: every eligible
    hex garrisoned, the range advanced."""
    b = Board(turn=9)
    q = b.us("RHQ/5", 415)
    b.state.cp[0, q] = 4
    b.us("B/1/5", 315)
    b.us("K/3/5", 316)
    s = b.state
    # the HQ phase as the second event leaves it (sel -2); an event decision (Scattered platoon's
    # P_STEP_ADD) left S.k at 1, which must not skip the garrisons
    s.stage[0], s.k[0], s.sel[0], s.phase[0] = ST_HQ, 1, -2, P_AUTO
    assert hq_phase_decision(b) == P_GARRISON
    assert legal(b) == {("hex", 314), ("hex", 216), NO}
    apply(b.T, b.S, 0, b.hex(216))
    assert hq_phase_decision(b) == P_GARRISON and legal(b) == {("hex", 314), NO}
    apply(b.T, b.S, 0, b.sc.num_hexes + NO)
    assert hq_phase_decision(b) == P_CP_RANGE and int(s.sel[0]) == q and legal(b) == {YES, NO}
    apply(b.T, b.S, 0, b.sc.num_hexes + NO)
    assert hq_phase_decision(b) == P_HQ_CP and int(s.sel[0]) == q
    assert {pid: bool(s.garrison[0, b.pos(pid)]) for pid in ("A5", "A8")} == {"A5": False, "A8": True}
    assert int(s.cp[0, q]) == 4
    assert is_minor(b.T, P_GARRISON) and is_minor(b.T, P_CP_RANGE)
    assert not is_minor(make_core("bnr").tables, P_GARRISON)  # 18.1 / 18.2 IV: BNR's garrisons stay major
    s.phase[0] = P_CP_RANGE
    m = np.zeros(b.core.num_actions, np.bool_)
    fill_mask(b.T, b.S, 0, m)
    assert minor_default(b.T, b.S, 0, m) == b.sc.num_hexes + YES


# ------------------------------------------------------------------------------------------ 15.1
def test_peleliu_15_1_catastrophic_loss_counting():
    """15.1: a four-step company puts its full-strength counter in the Infantry Loss Box when it is
    replaced by the reduced counter (3 -> 2 steps) and the reduced counter when eliminated (1 -> 0):
    two counters for the whole unit; 4 -> 3 and 2 -> 1 are flips.  A heavy infantry unit alike; an
    infantry/HQ and an amtank add nothing."""
    b = Board(turn=6)
    for n in ("B/1/5", "W/5", "HQ/1/5", "LVT/1"):
        b.us(n, 1019)
    boxes = []
    for _ in range(4):
        step_loss(b.T, b.S, 0, b.unit("B/1/5"))
        boxes.append(int(b.state.loss_box[0]))
    assert boxes == [0, 1, 1, 2] and b.loc("B/1/5") == US_ELIM
    for _ in range(4):
        step_loss(b.T, b.S, 0, b.unit("W/5"))
    assert int(b.state.loss_box[0]) == 4
    for _ in range(2):
        step_loss(b.T, b.S, 0, b.unit("HQ/1/5"))
    step_loss(b.T, b.S, 0, b.unit("LVT/1"))
    assert int(b.state.loss_box[0]) == 4 and b.loc("HQ/1/5") == b.loc("LVT/1") == US_ELIM


LEVELS = {e["turn"]: e["catastrophic"] for e in load_yaml(config_path("peleliu", "charts.yaml"))["turn_track"]}


@pytest.mark.parametrize("scenario,turn,short,ends", [
    ("sept15", 5, 0, True), ("sept15", 5, 1, False), ("sept15", 12, 0, True), ("sept15", 12, 1, False),
    ("assault", 5, 0, True), ("sept15", 4, None, False),
])
def test_peleliu_15_1_catastrophic_loss_level(scenario, turn, short, ends):
    """15.1: the game ends the moment the Infantry Loss Box reaches the catastrophic loss level of
    the current turn (the turn track, charts.yaml): a defeat, a decisive defeat in the Peleliu
    Assault (17.0); one counter short it goes on; "Catastrophic loss cannot occur before Turn 5"
    (turn 4: no level, even with 30 counters in the box)."""
    assert LEVELS[4] is None and LEVELS[5] is not None
    b = Board(turn=turn, core=make_core(scenario))
    b.state.loss_box[0] = 30 if short is None else LEVELS[turn] - short
    assert bool(catastrophic_now(b.T, b.S, 0)) == ends
    expected = (R_DECISIVE if scenario == "assault" else R_LOSS) if ends else R_NONE
    assert int(b.state.result[0]) == expected and bool(b.state.terminated[0]) == ends


@pytest.mark.parametrize("phase,stage,tie", [(P_ACT_SELECT, ST_ACTIONS, 0), (P_HIT_PICK, ST_FIRE, 1)])
def test_peleliu_15_1_catastrophic_loss_ends_the_game_whatever_decision_waits(phase, stage, tie):
    """15.1: catastrophic loss ends the game "the moment" the box reaches the level, so no decision
    is asked after it: not the next unit's action (a step lost in the Action Phase once let play go
    on to the end of the phase) nor a tie of Japanese fire still to give (6.31)."""
    b = Board(turn=7)
    s = b.state
    s.loss_box[0] = LEVELS[7]
    s.phase[0], s.stage[0], s.tie_left[0] = phase, stage, tie
    assert progress(b.T, b.S, 0)
    assert int(s.result[0]) == R_LOSS and bool(s.terminated[0])
    b.core.driver.settle(b.T, b.S, 0)
    assert int(s.phase[0]) == P_OVER and not s.legal_action_mask[0].any()


# --------------------------------------------------------------------------------- whole games
def play(core, state, rng, steps):
    for _ in range(steps):
        if state.terminated.all():
            break
        state = core.step(state, sample_legal(rng, state.legal_action_mask))
    return state


def same(a, b) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a.arrays().values(), b.arrays().values()))


def test_peleliu_determinism_same_seed_same_game():
    """The same seed and the same decisions give the same game, field for field; another seed a
    different one."""
    core = make_core("sept15", "major")
    a = play(core, core.init(2, seed=11), np.random.default_rng(5), 150)
    b = play(core, core.init(2, seed=11), np.random.default_rng(5), 150)
    c = play(core, core.init(2, seed=12), np.random.default_rng(5), 150)
    assert same(a, b)
    assert not same(a, c)
    assert int(a.turn.min()) >= 2


def test_peleliu_save_load_round_trip():
    """core.to_dict / core.from_dict: a game saved mid-play and loaded goes on exactly like the
    original under the same decisions."""
    core = make_core("sept15", "major")
    state = play(core, core.init(1, seed=3), np.random.default_rng(1), 60)
    loaded = core.from_dict(core.to_dict(state, 0))
    assert same(state, loaded)
    a = play(core, state, np.random.default_rng(2), 120)
    b = play(core, loaded, np.random.default_rng(2), 120)
    assert same(a, b)


# ------------------------------------------------------------------------------------- 7.34, 16.0
def test_peleliu_7_34_moved_hq_no_longer_gives_free_actions():
    """7.1 / 7.34: B/1/5 next to RHQ/5 at the start of the Action Phase is in command and acts for
    free; once RHQ/5 has moved, it no longer is."""
    b = Board(turn=6)
    b.us("RHQ/5", 1019)
    b.us("B/1/5", 1020)
    us.start_actions(b.T, b.S, 0)
    from wargym.peleliu.board import is_free
    assert is_free(b.T, b.S, 0, b.unit("B/1/5"))
    assert move(b, 1119, "RHQ/5") is False
    assert int(b.state.actions_left[0]) == 2                  # an HQ moves for free
    assert not is_free(b.T, b.S, 0, b.unit("B/1/5"))


# ------------------------------------------------------------------------ 7.1, 7.34: free actions
def action_phase(b: Board) -> None:
    """The Action Phase begins: command fixed as the units stand now (us.start_actions, 7.1), two
    actions."""
    s = b.state
    s.stage[0], s.phase[0] = ST_ACTIONS, P_ACT_SELECT
    us.start_actions(b.T, b.S, 0)


def offered(b: Board) -> set:
    """The legal actions now, as in ``legal``: ("hex", number), a unit's name, or a special."""
    H = b.sc.num_hexes
    m = b.core.refresh(b.state).legal_action_mask[0]
    return {("hex", b.number(a)) if a < H else b.sc.us_names[a - H - UNIT_0] if a - H < END else a - H
            for a in np.flatnonzero(m)}


def step(b: Board, *choices) -> None:
    """Take the decisions ``choices`` through the core (a unit's name, a hex number, a special),
    each legal, the engine's automatic decisions between them."""
    H = b.sc.num_hexes
    for c in choices:
        a = H + UNIT_0 + b.unit(c) if isinstance(c, str) else b.hex(c) if c >= 100 else H + c
        state = b.core.refresh(b.state)
        assert state.legal_action_mask[0, a], (c, offered(b))
        b.state = b.core.step(state, np.array([a]))
        b._S = None


def move_order(b: Board, name: str, to: int) -> None:
    """Select unit ``name``, order it to move (when more than one order is offered), to ``to``, alone."""
    step(b, name)
    if b.state.phase[0] == P_ACT_ORDER:
        step(b, MOVE)
    step(b, to)
    if b.state.phase[0] == P_STACK_JOIN:
        step(b, NO)


@pytest.mark.parametrize("commander", ["RHQ/5", "HQ/1/5"])
def test_peleliu_7_1_unit_in_command_keeps_its_free_action_after_the_paid_actions_are_spent(commander):
    """7.1: "A unit that is stacked with or adjacent to a regimental HQ unit at the start of the
    Action Phase is in command, and may conduct a free action" (and so an infantry unit stacked
    with an infantry/HQ); the two paid actions are the others'.  B/1/5 in 1020 starts next to RHQ/1
    (1021) and either next to RHQ/5 (1019) or stacked with HQ/1/5; A/1/5 (1419) and C/1/5 (1519)
    are three or more hexes from every HQ.  RHQ/1 moves away (free: an HQ): 7.34, it gives no more
    free actions, but B/1/5 is still in command of RHQ/5 / HQ/1/5, which have not moved.  A/1/5
    and C/1/5 move and spend the two actions (0 left).  B/1/5 is still offered, with MOVE and
    every hex of its three-hex move (7.3: no Japanese unit; clear and airstrip hexes but jungle
    1022 and 1322, where a move ends, 7.31, so 1023 behind 1022 is out of reach), and moves for
    free."""
    b = Board(turn=6)
    assert {1019, 1021} <= b.neighbours(1020) and b.dist(1021, 1223) == 3
    assert b.terrain(1022) == b.terrain(1322) == "jungle"
    assert b.dist(1020, 1023) == 3 and {x for x in b.neighbours(1023) if b.dist(1020, x) == 2} == {1022}
    assert min(b.dist(x, y) for x in (1419, 1519) for y in (1019, 1020, 1021)) >= 3
    b.us("RHQ/1", 1021)
    b.us(commander, 1019 if commander == "RHQ/5" else 1020)
    b.us("B/1/5", 1020)
    b.us("A/1/5", 1419)
    b.us("C/1/5", 1519)
    action_phase(b)
    move_order(b, "RHQ/1", 1223)
    move_order(b, "A/1/5", 1418)
    move_order(b, "C/1/5", 1518)
    assert int(b.state.actions_left[0]) == 0
    assert offered(b) == {"B/1/5", END} | ({"RHQ/5"} if commander == "RHQ/5" else {"HQ/1/5"})
    step(b, "B/1/5")
    assert offered(b) >= {MOVE, NO}
    step(b, MOVE)
    three = {b.number(h) for h in range(b.sc.num_hexes)
             if b.sc.land[h] and 1 <= b.sc.grid.distance[b.hex(1020), h] <= 3}
    assert all(b.terrain(x) in ("clear", "airstrip") for x in three - {1022, 1322})
    assert {x[1] for x in offered(b) if isinstance(x, tuple)} == three - {1023}
    step(b, 920)
    if b.state.phase[0] == P_STACK_JOIN:
        step(b, NO)
    assert b.where("B/1/5") == 920 and int(b.state.actions_left[0]) == 0


def test_peleliu_7_1_command_is_fixed_at_the_start_of_the_action_phase():
    """7.1: in command is "stacked with or adjacent to a regimental HQ unit at the start of the
    Action Phase"; 7.34: "Once you move an HQ unit, it no longer provides free actions to units in
    its command".  RHQ/5 in 1019; B/1/5 in 1020 next to it; K/3/5 in 1022, three hexes away, not in
    command; C/1/5 in 1519.  K/3/5 moves next to RHQ/5 (1120): it was not in command at the start,
    so the move costs an action (1 left).  RHQ/5 moves next to B/1/5 and K/3/5 both (1121): free (an
    HQ).  B/1/5 was in command of RHQ/5 only, which has moved: its move costs the last action
    (7.34).  Nothing is left to pay for C/1/5's action, and no free one is left: END is the only
    legal action and the engine takes it (turn 7 begins)."""
    b = Board(turn=6)
    assert b.dist(1019, 1022) == 3 and 1019 in b.neighbours(1120) and {1020, 1120} <= b.neighbours(1121)
    b.us("RHQ/5", 1019)
    b.us("B/1/5", 1020)
    b.us("K/3/5", 1022)
    b.us("C/1/5", 1519)
    action_phase(b)
    move_order(b, "K/3/5", 1120)
    assert int(b.state.actions_left[0]) == 1
    move_order(b, "RHQ/5", 1121)
    assert int(b.state.actions_left[0]) == 1 and offered(b) == {"B/1/5", "C/1/5", END}
    move_order(b, "B/1/5", 920)
    assert b.where("B/1/5") == 920 and b.where("C/1/5") == 1519 and int(b.state.turn[0]) == 7


def test_peleliu_7_34_moved_infantry_hq_no_longer_gives_free_actions():
    """7.34 "Once you move an HQ unit" (an HQ unit: a regimental HQ or an infantry/HQ, 2.21's HQ
    target symbol): K/3/5 stacked with HQ/3/5 in 1119 is in command (7.1) and acts for free until
    HQ/3/5 moves away (free, 1219); then K/3/5's move costs an action (C/1/5 in 1519 keeps the
    phase open)."""
    b = Board(turn=6)
    b.us("K/3/5", 1119)
    b.us("HQ/3/5", 1119)
    b.us("C/1/5", 1519)
    action_phase(b)
    from wargym.peleliu.board import is_free
    assert is_free(b.T, b.S, 0, b.unit("K/3/5"))
    move_order(b, "HQ/3/5", 1219)
    assert int(b.state.actions_left[0]) == 2 and not is_free(b.T, b.S, 0, b.unit("K/3/5"))
    move_order(b, "K/3/5", 1019)
    assert int(b.state.actions_left[0]) == 1


@pytest.mark.parametrize("cp", [True, False])
def test_peleliu_14_0_a_command_post_may_not_move(cp):
    """14.0: "A CP may not move but gains a command range".  RHQ/5 in 1019 on turn 9, a command post
    (range box 0) or not: as a CP it is not offered in the Action Phase and has no destination;
    as an HQ it moves (7.3)."""
    b = Board(turn=9)
    q = b.us("RHQ/5", 1019)
    b.state.cp[0, q] = 0 if cp else -1
    action_phase(b)
    assert ("RHQ/5" in offered(b)) == (not cp)
    assert (len(targets(b, "RHQ/5")) > 0) == (not cp)


def test_peleliu_16_0_night_moves_one_hex():
    """16.0 VI: at night U.S. units move only one hex: B/1/5 in 1019 on turn 13 reaches exactly
    its six neighbours (all open ground)."""
    b = Board(turn=13)
    b.us("B/1/5", 1019)
    assert set(targets(b, "B/1/5")) == b.neighbours(1019)


def test_peleliu_16_0_no_infiltration_check_at_night():
    """16.0 VI: units conducting infiltration do not make an infiltration check at night: the move
    0615 -> 0516 past B5 draws no card (card 17, which would cost the step by day, stays queued)."""
    b = infiltration_board()
    b.state.turn[0] = 13
    b.force([17])
    assert move(b, 516, "B/1/5") is False
    assert b.forced_left == 1 and b.steps("B/1/5") == 4 and b.where("B/1/5") == 516


def test_peleliu_16_0_reorganization_and_loss_of_contact():
    """16.0 VII: half the eliminated elite units, rounded down, go back to the reserve box (5 -> 2);
    every revealed Japanese unit and depth marker on the map turns face down."""
    from wargym.peleliu.sequence import reorganize
    from wargym.peleliu.state import JP_ELIM, JP_RESERVE
    b = Board(turn=13)
    for name in ("J01", "J02", "J03", "J04", "J05"):
        b.state.jp_loc[0, b.jp_unit(name)] = JP_ELIM
    j = b.jp(216, "J21", rev=True, depth=10, depth_rev=True)
    reorganize(b.T, b.S, 0)
    s = b.state
    assert int((s.jp_loc[0] == JP_RESERVE).sum()) == 2 and int((s.jp_loc[0] == JP_ELIM).sum()) == 3
    assert not s.jp_rev[0, j] and not s.dm_rev[0, 10]


# ------------------------------------------------------------------------------------------ 15.2
def garrison_with_projectors(b: Board, pids) -> None:
    """Garrison markers (14.41: they hold a position) in the positions ``pids`` and in every position
    hex projecting intense fire into one of them (15.2's second requirement)."""
    sc = b.sc
    held = set(pids)
    for pid in pids:
        h = sc.pos_hex[b.pos(pid)]
        for q, qid in enumerate(sc.pos_id):
            if qid and sc.grp_dot[sc.pos_group[q], h] == 2:
                held.add(qid)
    for pid in held:
        b.state.garrison[0, b.pos(pid)] = True


def test_peleliu_17_1_thirteen_positions_fire_onto_landing_beach_hexes():
    """17.1: "all 13 position hexes that project fire onto US landing beach hexes" (15.2 goal 1
    asks 10 of them).  The map is reconstructed (configs/peleliu/positions.yaml names the 13); the
    count is the book's.  Zones A and B hold 40 positions (17.2), 22 of them in zone B (15.2 goal
    2 asks 14)."""
    b = Board()
    firing = sorted(pid for p, pid in enumerate(b.sc.pos_id) if b.sc.pos_beachfire[p])
    assert len(firing) == 13
    assert firing == sorted(["A1", "A2", "A3", "A4", "A5", "A6", "A8", "A9", "A10", "A11", "A12", "A17", "B2"])
    zones = [pid[0] for pid in b.sc.pos_id if pid]
    assert zones.count("A") + zones.count("B") == 40 and zones.count("B") == 22


@pytest.mark.parametrize("case,result", [("a5_a6", R_LOSS), ("a5_a6_zone_b", None), ("everything", None)])
def test_peleliu_15_2_victory_two_of_three_goals(case, result):
    """15.2: at the end of turn 12 the U.S. win with two of three goals: 10 secured positions that
    fire onto landing beach hexes, 14 secured zone B positions, A5 and A6 secured.  No Japanese
    unit on the map (U.S. communication everywhere); positions held by garrisons together with
    every position projecting intense fire into them.  A5 and A6 alone: one goal (A5 and A6 are 2
    of the beach-firing positions; nothing in zone B) -> defeat.  A5, A6 and all 22 zone B
    positions: two goals -> victory.  Everything: three goals -> victory."""
    from wargym.peleliu.state import R_WIN
    from wargym.peleliu.victory import end_of_turn_victory
    b = Board(turn=12)
    zone_b = [pid for p, pid in enumerate(b.sc.pos_id) if pid and pid[0] == "B"]
    assert len(zone_b) == 22
    if case == "everything":
        b.state.garrison[0] = ~b.sc.pos_prov
    else:
        garrison_with_projectors(b, ["A5", "A6"] + (zone_b if case == "a5_a6_zone_b" else []))
    if case == "a5_a6":
        assert int(b.state.garrison[0].sum()) == 2          # nothing projects intense fire into 0314, 0209
    assert end_of_turn_victory(b.T, b.S, 0)
    assert int(b.state.result[0]) == (R_WIN if result is None else result)


@pytest.mark.parametrize("turn,commanded", [(12, True), (13, False)])
def test_peleliu_16_0_night_command_range_zero(turn, commanded):
    """16.0 VI: at night HQs and CPs command only units in their own hex: B/1/5 next to RHQ/5 is in
    command on turn 12, not on turn 13; C/1/5 stacked with RHQ/5 is in command on both."""
    from wargym.peleliu.board import set_command
    b = Board(turn=turn)
    b.us("RHQ/5", 1019)
    b.us("B/1/5", 1020)
    b.us("C/1/5", 1019)
    set_command(b.T, b.S, 0, turn == 13)
    assert bool(b.state.us_cmd[0, b.unit("B/1/5")]) == commanded and b.state.us_cmd[0, b.unit("C/1/5")]


@pytest.mark.parametrize("event", ["patrol_report", "war_dogs"])
def test_peleliu_events_patrol_report_brings_the_reinforcement_face_up(event):
    """US Patrol Report: "If a revealed depth marker calls for a Tactical Reinforcement, place the
    reinforcement per 9.4, but face up."  J05 (face down) in A5 (0314) next to B/1/5 holds depth
    marker 0, a Tactical Reinforcement; J30 waits in the reserve box.  Revealing J05 takes the
    marker out of play and brings J30 to the nearest empty position (9.4): face up for the Patrol
    Report, face down for the war dogs (no such sentence)."""
    b = Board(turn=9)
    assert b.sc.dm_tr[0]
    j = b.jp(314, "J05", depth=0)
    b.us("B/1/5", 315)
    r = b.jp_unit("J30")
    b.reserve("J30")
    m = np.zeros(b.sc.num_hexes, np.bool_)
    assert events.closest_hidden(b.T, b.S, 0, event == "patrol_report", m) == 1 and m[b.hex(314)]
    events.reveal_closest_in(b.T, b.S, 0, b.hex(314), event == "patrol_report")
    s = b.state
    assert s.jp_rev[0, j] and s.jp_depth[0, j] == -1 and s.dm_loc[0, 0] == DM_OUT
    assert s.jp_loc[0, r] == JP_MAP and bool(s.jp_rev[0, r]) == (event == "patrol_report")


@pytest.mark.parametrize("event", ["war_dogs", "patrol_report"])
def test_peleliu_events_closest_unit_tie_is_the_players_choice(event):
    """Marine war dogs: "reveal Japanese unit and depth marker closest to a US unit. Your choice if
    more than one"; US Patrol Report: "If two or more unrevealed units are the same distance from
    US units, you choose one."  B/1/5 in 0315; face-down J05 in 0314 and J06 in 0316 next to it,
    J07 in 0317 two hexes away: the choice (P_REVEAL_PICK) offers 0314 and 0316 only, no NO; the
    player picks 0316: J06 is revealed, J05 and J07 stay face down."""
    b = Board(turn=9)
    b.us("B/1/5", 315)
    j5, j6, j7 = b.jp(314, "J05"), b.jp(316, "J06"), b.jp(317, "J07")
    assert b.dist(315, 314) == b.dist(315, 316) == 1 and b.dist(315, 317) == 2
    patrol = event == "patrol_report"
    m = np.zeros(b.sc.num_hexes, np.bool_)
    assert events.closest_hidden(b.T, b.S, 0, patrol, m) == 2
    s = b.state
    s.phase[0] = P_REVEAL_PICK
    s.k[0] = events.PICK_PATROL if patrol else events.PICK_CLOSEST
    assert legal(b) == {("hex", 314), ("hex", 316)}
    apply(b.T, b.S, 0, b.hex(316))
    assert s.jp_rev[0, j6] and not s.jp_rev[0, j5] and not s.jp_rev[0, j7]


def test_peleliu_events_scattered_platoon_takes_heavy_infantry_too():
    """Scattered platoon regroups: "a 1-step infantry unit ... Infantry/HQ units are not eligible":
    a one-step heavy weapons company (W/5) qualifies, an infantry/HQ does not; Black Angels
    volunteer adds a step to a regular infantry unit only."""
    b = Board(turn=9)
    b.us("W/5", 315, steps=1)
    b.us("HQ/1/5", 316, steps=1)
    b.us("A/1/5", 317, steps=2)
    m = np.zeros(b.core.num_actions, np.bool_)
    H = b.sc.num_hexes
    us.step_add_mask(b.T, b.S, 0, m, H, True)
    assert {b.sc.us_names[a - H] for a in np.flatnonzero(m)} == {"W/5"}
    m[:] = False
    us.step_add_mask(b.T, b.S, 0, m, H, False)
    assert {b.sc.us_names[a - H] for a in np.flatnonzero(m)} == {"A/1/5"}


def test_peleliu_take_backs_are_limited_per_action_phase():
    """NO takes back a declaration (the engine's, not the book's); after MAX_CANCELS of them in one
    Action Phase the order of a selected unit must be given (README), so a policy cannot stall."""
    from wargym.peleliu.actions import NO, UNIT_0
    from wargym.peleliu.state import MAX_CANCELS, P_ACT_ORDER, P_ACT_SELECT
    core = make_core("sept15", "full")
    H = core.scenario.num_hexes
    s = core.init(1, 4)
    rng = np.random.default_rng(0)
    while int(s.phase[0]) != P_ACT_SELECT:
        s = core.step(s, sample_legal(rng, s.legal_action_mask))
    taken_back = 0
    while True:
        if int(s.phase[0]) == P_ACT_SELECT:
            units = np.flatnonzero(s.legal_action_mask[0, H + UNIT_0:H + UNIT_0 + len(core.scenario.us_names)])
            s = core.step(s, np.array([H + UNIT_0 + units[0]]))
        assert int(s.phase[0]) == P_ACT_ORDER
        if not s.legal_action_mask[0, H + NO]:
            break
        s = core.step(s, np.array([H + NO]))
        taken_back += 1
    assert taken_back == MAX_CANCELS and int(s.cancels[0]) == MAX_CANCELS
    assert s.legal_action_mask[0].sum() >= 1
