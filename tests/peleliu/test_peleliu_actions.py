"""Japanese lettered actions (12.0-12.10), depth and reserves (9.2, 9.3), tanks and the
counterattack (13.1-13.42), worked by hand and run on the engine's kernels (japanese.py,
forces.py) with forced Fire cards.

The Japanese Action Chart (charts.yaml ``action_chart``) is fixed by sections 12 and 13.2; each
test asserts the cells it relies on.  Letters become available on turns 3 (M), 5 (R), 7 (P), 9 (A)
and 11 (I) (12.0, charts.yaml turn_track).  Cards (cards.yaml): 17 = orange[R], blue[P], brown[A] /
circle (the turn-10 example); 8 = green[M], purple, blue / circle; 1 = purple[I]*, blue[I], orange /
diamond; 48 = red, blue[R], brown / triangle.
"""

from __future__ import annotations

import pytest

from peleliu_board import Board, card
from wargym.data import config_path, load_yaml
from wargym.peleliu import forces, japanese
from wargym.peleliu.scenario import LETTERS
from wargym.peleliu.state import CC_JP_ASSAULT, DM_OUT, DM_POOL, DM_UNIT, JP_RESERVE

CHARTS = load_yaml(config_path("peleliu", "charts.yaml"))
ACTIONS = CHARTS["action_chart"]["invasion"]


def fire_phase_until_close_combat(b: Board, number: int) -> None:
    """III: draw the forced card, check the queued positions until one starts a close combat."""
    b.force([number])
    japanese.start_fire_phase(b.T, b.S, 0)
    assert int(b.state.fire_card[0]) == card(number)
    while b.state.cc_hex[0] < 0 and japanese.fire_step(b.T, b.S, 0):
        pass


def test_peleliu_12_0_card_17_and_the_action_chart():
    b = Board()
    sc = b.sc
    assert [int(x) for x in sc.card_colour[card(17)]] == [0, 5, 3]            # orange, blue, brown
    assert [LETTERS[int(x)] for x in sc.card_letter[card(17)]] == ["R", "P", "A"]
    assert int(sc.card_symbol[card(17)]) == 0                                  # circle
    assert ACTIONS["occupied_us"]["R"] == "resupply" and ACTIONS["occupied_us"]["P"] == "patrol"
    assert ACTIONS["unoccupied_comm_us"]["R"] == "reinforce" and ACTIONS["unoccupied_comm_no_us"]["R"] == "reinforce"
    assert ACTIONS["artillery_no_us"]["A"] == "artillery_fire" and ACTIONS["occupied_us"]["A"] == "assault"


def turn_10_board() -> tuple[Board, dict]:
    """The Japanese action example of turn 10 on the reconstructed map (which puts B13/B14 with
    0716, C9 in 1112, B12 in 0613, C1 (artillery) in 0712, B19 in 1016 and 0916/0917 next to B19, as
    the book says).  Japanese: B13 (0716) a lone unit; B12, C1 a unit each; B19 J22 with depth
    marker 26 (strength 1); C10 and C11 (red and green, not on the card) occupied so that C9 traces
    communication; three units in the reserve box.  U.S.: G/2/1 (4) in 0717 and L/3/1 (3) in 0715,
    whose control zones close every hex around 0716 (B13 cannot trace communication); A/1/5 and
    HQ/1/5 in 0614, C/1/5 and I/3/5 (3 steps each) in 0412 - the only hexes of B12's field outside
    C1's field; E/2/1 (4) in 0916 and F/2/1 (4, circle) in airstrip 0917; K/3/1 (triangle) in 1013,
    in C9's steady field.  No circle unit but F/2/1 stands in clear or airstrip ground."""
    b = Board(turn=10)
    assert b.pos_hexnum("B13") == 716 and b.pos_hexnum("B14") == 816 and b.pos_hexnum("C9") == 1112
    assert b.pos_hexnum("B12") == 613 and b.pos_hexnum("C1") == 712 and b.pos_hexnum("B19") == 1016
    assert b.sc.pos_art[b.pos("C1")] and not b.sc.pos_art[b.pos("B19")]
    assert b.terrain(917) == "airstrip" and b.terrain(916) == "clear"
    assert b.dot("B19", 916) == b.dot("B19", 917) == "intense" and b.dot("C9", 1013) == "steady"
    assert b.dot("B12", 614) and b.dot("B12", 412) and not b.dot("C1", 614) and not b.dot("C1", 412)
    assert b.neighbours(716) <= {715, 717} | b.neighbours(715) | b.neighbours(717)
    js = {"B13": b.jp(716, "J30"), "B12": b.jp(613, "J31"), "C1": b.jp(712, "J33"),
          "B19": b.jp(1016, "J22", depth=26)}
    b.jp(1110, "J35")
    b.jp(1210, "J36")
    b.reserve("J40", "J41", "J42")
    for n, h, s in [("G/2/1", 717, 4), ("L/3/1", 715, 3), ("A/1/5", 614, 4), ("HQ/1/5", 614, 2), ("C/1/5", 412, 3),
                    ("I/3/5", 412, 3), ("E/2/1", 916, 4), ("F/2/1", 917, 4), ("K/3/1", 1013, 4)]:
        b.us(n, h, steps=s)
    return b, js


def test_peleliu_12_0_turn_10_checking_order():
    """12.0: the card's colours left to right, each colour's positions west to east: orange (B13/B14
    before C9), then blue (B12 ...), then brown (C1 before B19).  Checked: every occupied position
    and every empty one within three hexes of a U.S. unit in communication."""
    b, js = turn_10_board()
    b.force([17])
    japanese.start_fire_phase(b.T, b.S, 0)
    s = b.state
    order = []
    for e in s.jq[0, :s.jq_n[0]]:
        f = int(e) % 1000
        order.append((int(e) // 1000, "/".join(b.sc.pos_id[p] for p in b.sc.grp_members[f] if p >= 0)))
    names = [n for _, n in order]
    assert [slot for slot, _ in order] == sorted(slot for slot, _ in order)
    assert names.index("B13/B14") < names.index("C9") < names.index("B12") < names.index("C1") < names.index("B19")
    assert not s.comm[0, b.pos("B13")] and s.comm[0, b.pos("C9")]


def test_peleliu_12_turn_10_example():
    """The turn-10 Japanese action example, card 17 (orange[R], blue[P], brown[A], circle).

    Orange B13/B14: occupied (0716) with U.S. units in its field -> Re-Supply (12.3); B13 cannot
    trace communication -> no depth marker; it fires as a lone unit (limit 1), unrevealed: G/2/1 in
    intense 0717 (4 steps, before L/3/1 with 3) -> step + disrupt.  Orange C9: empty, within three
    hexes of K/3/1 and in communication -> Reinforce (12.5): a reserve unit and a depth marker, both
    face down; then it fires: K/3/1 in its steady field lacks the circle -> no hit.  (On this map
    A5 and A14, orange, empty, in communication and within three hexes of the 0412 stack, are
    checked before and reinforce too; so three reserve units are used.)  Blue B12: Patrol (12.6):
    A/1/5, C/1/5 and I/3/5 are disrupted, the leader HQ/1/5 is not, and nobody loses a step.
    Brown C1: artillery position, no U.S. unit in its field -> Artillery Fire (12.7): the circle
    unit in clear or airstrip ground with the most steps, F/2/1 (0917), loses a step (4 -> 3).
    Brown B19: Assault (12.8): 0916 and 0917 are equally near; 0917 has the fewest U.S. steps (3,
    after the artillery) -> the unit and its depth marker enter 0917 and a close combat starts there
    in brown (12.83)."""
    b, js = turn_10_board()
    fire_phase_until_close_combat(b, 17)
    s = b.state
    # orange: B13 resupply without communication, then fire
    assert s.jp_depth[0, js["B13"]] == -1
    assert (b.steps("G/2/1"), b.dis("G/2/1") != 0) == (3, True)
    assert (b.steps("L/3/1"), b.dis("L/3/1")) == (3, 0)
    # orange: C9 reinforced, face down with a face-down depth marker; K/3/1 not hit
    j9 = b.jp_in(1112)
    assert j9 >= 0 and not s.jp_rev[0, j9] and s.jp_depth[0, j9] >= 0 and not s.dm_rev[0, s.jp_depth[0, j9]]
    assert (b.steps("K/3/1"), b.dis("K/3/1")) == (4, 0)
    assert int((s.jp_loc[0] == JP_RESERVE).sum()) == 0 and b.jp_in(611) >= 0 and b.jp_in(314) >= 0
    # blue: B12 patrol
    assert [b.dis(n) != 0 for n in ("A/1/5", "C/1/5", "I/3/5", "HQ/1/5")] == [True, True, True, False]
    assert [b.steps(n) for n in ("A/1/5", "C/1/5", "I/3/5", "HQ/1/5")] == [4, 3, 3, 2]
    # brown: C1 artillery, B19 assault
    assert b.steps("F/2/1") == 3 and b.steps("E/2/1") == 4
    j = js["B19"]
    assert b.jp_where(j) == 917 and s.jp_from[0, j] == b.hex(1016) and s.jp_depth[0, j] == 26
    brown = 3
    assert (b.number(s.cc_hex[0]), int(s.cc_jp[0]), int(s.cc_kind[0]), int(s.cc_colour[0])) == \
        (917, j, CC_JP_ASSAULT, brown)


def test_peleliu_12_3_resupply_in_communication():
    """12.3: a unit without depth that can trace communication gets a depth marker, then the
    position fires with the new limit.  B13 (0716) alone with K/3/5 (circle, 4) in intense 0717 and
    G/2/1 (4) in intense 0615; B5 and B19 occupied (communication); card 17 turn 10: B13 gets a
    depth marker (the pool holds only marker 10), so it hits two units: both lose a step."""
    b = Board(turn=10)
    j = b.jp(716, "J30")
    b.jp(616)
    b.jp(1016)
    b.us("K/3/5", 717, steps=1)   # one step: controls only its hex (11.1)
    b.us("G/2/1", 615, steps=1)
    b.depth_pool(10)
    b.set_comm()
    assert b.state.comm[0, b.pos("B13")]
    b.fire_card(17)
    japanese.check_group(b.T, b.S, 0, b.group("B13"), 0)
    assert b.state.jp_depth[0, j] == 10 and not b.state.dm_rev[0, 10]
    assert (b.loc("K/3/5"), b.loc("G/2/1")) == (4, 4)      # both eliminated (one step each)


@pytest.mark.parametrize("turn", [3, 13])
def test_peleliu_12_1_mortar(turn):
    """12.1 / 12.11: green A1 (0410) occupied by a unit and depth marker, no U.S. unit in its field,
    card 8 (green[M], circle), turn 3 -> Mortar: up to two circle units within four hexes, the most
    steps first, lose a step without disruption.  B/1/5 (4, 0414, 4 hexes) and K/3/5 (3, 0313, 3
    hexes) are hit; I/3/1 (2, 0512) is not (limit two); L/3/7 (4, 0415) is five hexes away and
    A/1/5 (4, 0514) is a triangle.  At night (turn 13) M counts as no letter (16.0 III): an occupied
    position without U.S. units in its field then does nothing."""
    b = Board(turn=turn)
    assert ACTIONS["occupied_no_us"]["M"] == "mortar"
    assert (b.dist(410, 414), b.dist(410, 313), b.dist(410, 512), b.dist(410, 415), b.dist(410, 514)) == (4, 3, 2, 5, 4)
    for h in (414, 313, 512, 415, 514):
        assert not b.dot("A1", h)
    b.jp(410, depth=26)
    for n, h, s in [("B/1/5", 414, 4), ("K/3/5", 313, 3), ("I/3/1", 512, 2), ("L/3/7", 415, 4), ("A/1/5", 514, 4)]:
        b.us(n, h, steps=s)
    b.fire_card(8)
    japanese.check_group(b.T, b.S, 0, b.group("A1"), 0)
    expected = {"B/1/5": (3, 0), "K/3/5": (2, 0), "I/3/1": (2, 0), "L/3/7": (4, 0), "A/1/5": (4, 0)}
    if turn == 13:
        expected.update({"B/1/5": (4, 0), "K/3/5": (3, 0)})
    assert {n: (b.steps(n), b.dis(n)) for n in ("B/1/5", "K/3/5", "I/3/1", "L/3/7", "A/1/5")} == expected


def test_peleliu_12_4_redeploy_then_fire():
    """12.4: orange B17 (1416) occupied, no U.S. unit in its field, card 17 orange[R] turn 10 ->
    Redeploy to an empty position within three hexes and closer to the nearest U.S. unit (F/2/1
    in 1218, three hexes from B17): B8 (1317, red, two hexes from 1218) is the only one (B7 and
    B15 are not closer).  The unit moves; F/2/1 is in B8's steady field with the card's circle ->
    B8 fires "regardless of the color": step + disrupt (face down)."""
    b = Board(turn=10)
    assert (b.dist(1416, 1218), b.dist(1317, 1218), b.dist(1215, 1218), b.dist(1115, 1218)) == (3, 2, 3, 4)
    assert not b.dot("B17", 1218) and b.dot("B8", 1218) == "steady"
    j = b.jp(1416)
    b.us("F/2/1", 1218)
    b.fire_card(17)
    japanese.check_group(b.T, b.S, 0, b.group("B17"), 0)
    assert b.jp_where(j) == 1317
    assert (b.steps("F/2/1"), b.dis("F/2/1") != 0) == (3, True)


@pytest.mark.parametrize("intense", [True, False])
def test_peleliu_12_9_ambush(intense):
    """12.9: empty brown B19 in communication with U.S. units in its field, card 17 brown[A] (circle)
    turn 10 -> Ambush: one circle unit in the intense field loses a step (F/2/1 in 0917; E/2/1 in
    0916 lacks the circle); with no circle unit in the intense field, one in the steady field is
    disrupted (F/2/1 in 0918)."""
    b = Board(turn=10)
    assert ACTIONS["unoccupied_comm_us"]["A"] == "ambush"
    assert b.dot("B19", 917) == "intense" and b.dot("B19", 918) == "steady"
    b.jp(1115)
    b.jp(1215)
    b.us("E/2/1", 916, steps=1)
    b.us("F/2/1", 917 if intense else 918, steps=2)
    b.set_comm()
    assert b.state.comm[0, b.pos("B19")]
    b.fire_card(17)
    japanese.check_group(b.T, b.S, 0, b.group("B19"), 2)
    assert (b.steps("F/2/1"), b.dis("F/2/1") != 0) == ((1, False) if intense else (2, True))
    assert (b.steps("E/2/1"), b.dis("E/2/1")) == (1, 0)


def infiltration_board() -> Board:
    """Turn 11, no Japanese unit on the map (so no position traces communication), six units in
    reserve, B/1/5 (circle) in 0724: blue B3/B4 (0823, 0824) one hex away, purple B18 (0923) two,
    purple D3 (0526) three and its group partner D4 (0528) five."""
    b = Board(turn=11)
    assert (b.dist(724, 823), b.dist(724, 824), b.dist(724, 923), b.dist(724, 526), b.dist(724, 528)) == (1, 1, 2, 3, 5)
    assert b.group("D3") == b.group("D4") and b.group("B3") == b.group("B4")
    b.reserve("J40", "J41", "J42", "J43", "J44", "J45")
    b.us("B/1/5", 724)
    return b


def test_peleliu_12_10_infiltrate():
    """12.10 / 12.101: card 1 (purple[I], blue[I], orange), turn 11: empty positions not in
    communication within three hexes of a U.S. unit get a reserve unit without a depth marker:
    purple B18, blue B3 and B4 (both hexes of the group are eligible); the new units do not fire
    in this phase (B/1/5 sits in B3/B4's intense field and keeps its steps)."""
    b = infiltration_board()
    assert ACTIONS["unoccupied_no_comm"]["I"] == "infiltrate"
    assert b.dot("B3", 724) == "intense"
    fire_phase_until_close_combat(b, 1)
    for h in (923, 823, 824):
        j = b.jp_in(h)
        assert j >= 0 and b.state.jp_depth[0, j] == -1 and not b.state.jp_rev[0, j]
    assert b.steps("B/1/5") == 4


def test_peleliu_12_101_only_eligible_hexes_of_a_group():
    """12.101 / 12.10: D3 (0526) is three hexes from B/1/5, D4 (0528) five: only D3 is eligible
    (within three hexes), so D3 gets an infiltrating unit and D4 stays empty; with B18, B3, B4 and
    D3 filled, two of the six reserve units are left."""
    b = infiltration_board()
    fire_phase_until_close_combat(b, 1)
    assert b.jp_in(526) >= 0 and b.jp_in(528) < 0
    assert int((b.state.jp_loc[0] == JP_RESERVE).sum()) == 2


def test_peleliu_12_51_reinforce_the_eligible_hex_of_a_group():
    """12.5 / 12.51: blue group B9 (1322) / B10 (1423); F/2/1 in 1225 is three hexes from B10 and
    four from B9: only B10 is eligible for the Reinforce action of card 48 (blue[R]) on turn 10, so
    the reserve unit and a depth marker go to B10 (1423)."""
    b = Board(turn=10)
    assert (b.dist(1225, 1423), b.dist(1225, 1322)) == (3, 4)
    assert b.sc.card_colour[card(48), 1] == 5 and LETTERS[int(b.sc.card_letter[card(48), 1])] == "R"
    b.jp(1317)            # red B8
    b.jp(1724)            # purple D2
    b.reserve("J40")
    b.us("F/2/1", 1225, steps=1)
    assert b.comm()["B10"]
    fire_phase_until_close_combat(b, 48)
    j = b.jp_in(1423)
    assert j >= 0 and b.state.jp_depth[0, j] >= 0 and b.jp_in(1322) < 0


def test_peleliu_16_0_no_artillery_action_at_night():
    """16.0 III: "A unit instructed to perform the Artillery action conducts no action."  C1 with no
    U.S. unit in its field, card 17 brown[A], turn 13: F/2/1 (circle, airstrip 0917) keeps its
    steps; on turn 12 it loses one (12.7)."""
    for turn, expected in ((13, 4), (12, 3)):
        b = Board(turn=turn)
        b.jp(712)
        b.us("F/2/1", 917)
        b.fire_card(17)
        japanese.check_group(b.T, b.S, 0, b.group("C1"), 2)
        assert b.steps("F/2/1") == expected


# ------------------------------------------------------------------------------------ 9.2, 9.3
def test_peleliu_9_2_depth_placement_priority():
    """9.2: a depth marker goes to the unit without one closest to a U.S. unit; then one in a
    position next to a landing beach hex; then the lowest position number, then letter.  U.S.:
    B/1/5 (1 step: it controls only its hex) in 0416.  Japanese in A17 (0417, one hex away), A8
    (0216, two hexes, next to beach 0215), A5 (0314, three hexes, next to beach 0214) and B5
    (0616, two hexes, no beach next to it); all trace communication.  Three depth markers (event):
    A17 first (closest), then A8 (two hexes, next to a beach, before B5), then B5 (two hexes)
    before A5 (three)."""
    b = Board(turn=6)
    assert (b.dist(416, 417), b.dist(416, 216), b.dist(416, 314), b.dist(416, 616)) == (1, 2, 3, 2)
    beach = {210, 211, 212, 213, 214, 215, 217, 218, 219, 220, 221, 222, 323, 324, 325}
    assert b.neighbours(216) & beach and b.neighbours(314) & beach and not b.neighbours(616) & beach
    js = {pid: b.jp(b.pos_hexnum(pid)) for pid in ("A17", "A8", "A5", "B5")}
    b.us("B/1/5", 416, steps=1)
    comm = b.comm()
    assert all(comm[pid] for pid in js)
    for count, expected in ((1, {"A17"}), (2, {"A17", "A8"}), (3, {"A17", "A8", "B5"})):
        for j in js.values():
            if b.state.jp_depth[0, j] >= 0:
                b.state.dm_loc[0, b.state.jp_depth[0, j]] = DM_POOL
            b.state.jp_depth[0, j] = -1
        forces.depth_event(b.T, b.S, 0, count)
        assert {pid for pid, j in js.items() if b.state.jp_depth[0, j] >= 0} == expected


def test_peleliu_9_2_lowest_number_then_letter():
    """9.2 priority 3: B5 (0616) and D5 (0810), two hexes from the nearest U.S. units (1-step units
    in 0416 and 0812), neither next to a landing beach: the same number 5 -> the lower letter, B5."""
    b = Board(turn=6)
    assert b.dist(416, 616) == 2 and b.dist(812, 810) == 2
    assert min(b.dist(812, 616), b.dist(416, 810)) > 2
    jb = b.jp(616)
    jd = b.jp(810)
    b.jp(716)
    b.us("B/1/5", 416, steps=1)
    b.us("K/3/5", 812, steps=1)
    comm = b.comm()
    assert comm["B5"] and comm["D5"]
    forces.depth_event(b.T, b.S, 0, 1)
    assert b.state.jp_depth[0, jb] >= 0 and b.state.jp_depth[0, jd] == -1


def test_peleliu_9_2_no_depth_without_communication():
    """9.2: "A Japanese unit must be in communication in order to receive a depth marker": a lone
    Japanese unit (no other position occupied) gets none."""
    b = Board(turn=6)
    j = b.jp(616)
    b.us("B/1/5", 416, steps=1)
    forces.depth_event(b.T, b.S, 0, 1)
    assert b.state.jp_depth[0, j] == -1


def test_peleliu_9_3_reinforcement_priority():
    """9.3: each reinforcement goes, with a face-down depth marker, to an empty position hex in
    communication: adjacent to a U.S. unit (lowest number first), then within two hexes (lowest
    number), then the lowest number.  B/1/5 (1 step) in 0416: A17 (0417) is adjacent; B5 (0616) and
    A8 (0216) are two hexes away -> B5 (5) before A8 (8).  Japanese units in A3 (0318), A9 (0419)
    and B13 (0716) give communication.  Three reinforcements: A17, B5, A8."""
    b = Board(turn=6)
    for pid in ("A3", "A9", "B13"):
        b.jp(b.pos_hexnum(pid))
    b.reserve("J40", "J41", "J42")
    b.us("B/1/5", 416, steps=1)
    comm = b.comm()
    assert comm["A17"] and comm["B5"] and comm["A8"]
    placed = []
    for _ in range(3):
        forces.reinforcement(b.T, b.S, 0, 1)
        for pid in ("A17", "B5", "A8"):
            j = b.jp_in(b.pos_hexnum(pid))
            if j >= 0 and pid not in placed:
                placed.append(pid)
                assert b.state.jp_depth[0, j] >= 0 and not b.state.jp_rev[0, j]
    assert placed == ["A17", "B5", "A8"]


# ------------------------------------------------------------------------------------ 13 tanks
@pytest.mark.parametrize("occupied,expected", [((), "B15"), (("B15",), "B7"), (("B7", "B15"), "B15")])
def test_peleliu_13_2_tank_advance(occupied, expected):
    """13.2 Advance: the tank (T1 in C3, 1213) moves to a position within three hexes, empty or held
    by a non-armor unit in communication, closer to the nearest U.S. unit (B/1/5, 1 step, in 1116:
    three hexes from C3).  B7 (1215) and B15 (1115) are one hex from 1116 and two from C3; every
    other position within three hexes of C3 is farther from 1116.  Ties: an empty position first,
    then the one closest to the tank, then the highest number: both empty -> B15; B15 held -> B7;
    both held -> B15, and its unit swaps into C3.  C11 and D7 are held to give communication."""
    b = Board(turn=10)
    assert b.dist(1213, 1116) == 3
    assert (b.dist(1215, 1116), b.dist(1115, 1116), b.dist(1213, 1215), b.dist(1213, 1115)) == (1, 1, 2, 2)
    t = b.jp(1213, "T1")
    b.jp(1210)
    b.jp(1011)
    held = {pid: b.jp(b.pos_hexnum(pid)) for pid in occupied}
    b.us("B/1/5", 1116, steps=1)
    b.set_comm()
    for pid in occupied:
        assert b.state.comm[0, b.pos(pid)]
    assert japanese.advance(b.T, b.S, 0, t)
    assert b.jp_where(t) == b.pos_hexnum(expected)
    if expected in held:
        assert b.jp_where(held[expected]) == 1213


def test_peleliu_13_41_counterattack_setup():
    """13.41: the tank T1 in C3 (1213), disrupted, with armor depth marker 51: revealed, its depth
    marker removed for good, undisrupted, a counterattack marker on top, face up.  Non-tank units
    within three hexes of it: B7 (1215), B15 (1115), C9 (1112) two hexes; C11 (1210), D7 (1011) three;
    B6 (0914, three) is an artillery position and is not eligible.  At most four: the three at two
    hexes, then of C11 and D7 the one farther from a landing beach hex, C11 (ten hexes; D7 eight).
    The chosen are revealed, lose their depth marker to the pool face down (B7's marker 10),
    become undisrupted and get a counterattack marker; D7 and B6 do not."""
    b = Board(turn=9)
    dists = {pid: b.dist(1213, b.pos_hexnum(pid)) for pid in ("B7", "B15", "C9", "C11", "D7", "B6")}
    assert dists == {"B7": 2, "B15": 2, "C9": 2, "C11": 3, "D7": 3, "B6": 3}
    assert b.sc.pos_art[b.pos("B6")] and not any(b.sc.pos_art[b.pos(p)] for p in ("B7", "B15", "C9", "C11", "D7"))
    beach = (210, 211, 212, 213, 214, 215, 217, 218, 219, 220, 221, 222, 323, 324, 325)
    assert min(b.dist(1210, x) for x in beach) == 10 and min(b.dist(1011, x) for x in beach) == 8
    t = b.jp(1213, "T1", dis=True, depth=51)
    js = {pid: b.jp(b.pos_hexnum(pid), dis=True) for pid in ("B7", "B15", "C9", "C11", "D7", "B6")}
    b.state.jp_depth[0, js["B7"]] = 10
    b.state.dm_loc[0, 10] = DM_UNIT
    japanese.counterattack_event(b.T, b.S, 0)
    s = b.state
    assert s.jp_rev[0, t] and not s.jp_dis[0, t] and s.jp_depth[0, t] == -1 and s.dm_loc[0, 51] == DM_OUT
    chosen = {pid for pid, j in js.items() if s.jp_ca[0, j] >= 0}
    assert chosen == {"B7", "B15", "C9", "C11"}
    for pid in chosen:
        j = js[pid]
        ca = s.jp_ca[0, j]
        assert s.jp_rev[0, j] and not s.jp_dis[0, j] and b.sc.dm_kind[ca] == 2 and s.dm_rev[0, ca]
    assert s.jp_depth[0, js["B7"]] == -1 and s.dm_loc[0, 10] == DM_POOL and not s.dm_rev[0, 10]
    ca_t = s.jp_ca[0, t]
    assert ca_t >= 0 and b.sc.dm_kind[ca_t] == 2 and s.dm_rev[0, ca_t]
    assert s.jp_dis[0, js["D7"]] and s.jp_ca[0, js["D7"]] == -1 and s.jp_ca[0, js["B6"]] == -1
    assert s.ca_done[0]


def test_peleliu_12_0_a_unit_acts_once_per_fire_phase():
    """12.0 / 12.4: card 17 (orange[R], blue[P], brown[A]), turn 10.  Orange B17 (1416), no U.S.
    unit in its field, redeploys (12.4): K/3/5 (4) in 1116 and L/3/7 (3) in 1115 are three hexes
    from B17; B8 (1317, one hex from B17) is held by a Japanese unit, so the empty position closer
    to them is B7 (1215, blue, one hex from both).  After the move B7's field holds both: the unit
    fires as a lone unit (limit 1): K/3/5 (most steps) step + disrupt.  The empty B7 was queued for
    the blue [P] (within three hexes of U.S. units, in communication: C3 and B8 held), but the unit
    in it has already acted: no Patrol - L/3/7 stays undisrupted."""
    b = Board(turn=10)
    assert (b.dist(1416, 1116), b.dist(1416, 1115), b.dist(1215, 1116), b.dist(1215, 1115)) == (3, 3, 1, 1)
    assert b.dist(1416, 1317) == 1 and b.dist(1416, 1215) == 2
    assert b.dot("B7", 1116) == b.dot("B7", 1115) == "intense"
    assert not b.dot("B17", 1116) and not b.dot("B17", 1115)
    j = b.jp(1416)
    b.jp(1317)
    b.jp(1213)
    b.us("K/3/5", 1116)
    b.us("L/3/7", 1115, steps=3)
    assert b.comm()["B7"]
    fire_phase_until_close_combat(b, 17)
    assert b.jp_where(j) == 1215
    assert (b.steps("K/3/5"), b.dis("K/3/5") != 0) == (3, True)
    assert (b.steps("L/3/7"), b.dis("L/3/7")) == (3, 0)


def test_peleliu_13_47_leaving_counterattack_stance():
    """13.42 / 13.47: a unit in counterattack stance (J22, revealed, counterattack marker 55 on its
    depth side) in the provisional position 0517 moves first to an empty position projecting fire
    into a landing beach hex within three hexes, the closest: A17 (0417, one hex) before A3 (0318,
    two) and A8 (0216, three).  It ends there, so it leaves the stance: the marker leaves play and,
    having shown its depth side, is replaced by a normal depth marker face down (the pool holds
    only marker 10); the unit stays revealed."""
    b = Board(turn=9)
    assert b.sc.pos_prov[b.sc.hex_pos[b.hex(517)]]
    assert (b.dist(517, 417), b.dist(517, 318), b.dist(517, 216)) == (1, 2, 3)
    assert all(b.sc.pos_beachfire[b.pos(pid)] for pid in ("A17", "A3", "A8"))
    assert b.sc.dm_kind[55] == 2
    j = b.jp(517, "J22", rev=True)
    b.state.jp_ca[0, j] = 55
    b.state.dm_loc[0, 55] = DM_UNIT
    b.state.dm_rev[0, 55] = True
    b.depth_pool(10)
    japanese.counterattack(b.T, b.S, 0, j)
    s = b.state
    assert b.jp_where(j) == 417
    assert s.jp_ca[0, j] == -1 and s.dm_loc[0, 55] == DM_OUT
    assert s.jp_depth[0, j] == 10 and not s.dm_rev[0, 10] and s.jp_rev[0, j]


def test_peleliu_12_6_patrol_without_us_units_in_the_field():
    """12.6: with no U.S. unit in its field, the patrolling position disrupts one U.S. unit within
    four hexes, the closest.  B12 (0613), card 17 blue[P], turn 10: K/3/5 in 0615 (two hexes) and
    B/1/5 in 0416 (four hexes), neither in B12's field -> K/3/5 is disrupted, B/1/5 is not."""
    b = Board(turn=10)
    assert not b.dot("B12", 416) and not b.dot("B12", 615)
    assert b.dist(613, 615) == 2 and b.dist(613, 416) == 4
    b.jp(613)
    b.us("B/1/5", 416)
    b.us("K/3/5", 615)
    b.fire_card(17)
    japanese.check_group(b.T, b.S, 0, b.group("B12"), 1)
    assert (b.dis("K/3/5") != 0, b.dis("B/1/5")) == (True, 0)


def test_peleliu_12_6_patrol_tie_is_the_players_choice():
    """12.6: with no U.S. unit in the field, "disrupt the closest unit, then the unit with the target
    symbol shown on the fire card, then with the greater attack strength.  Your choice if strengths
    are equal."  B12 (0613), card 17 blue[P] (circle), turn 10: K/3/5 in 0615 and B/1/5 in 0515,
    both two hexes away, out of B12's field, both circle, both strength 7 (four steps): a tie, the
    player's (P_HIT_PICK with decisions="full", tie_ok); the player picks K/3/5, not the default
    (the lower unit number, B/1/5): K/3/5 is disrupted, B/1/5 is not."""
    from wargym.peleliu import ties
    b = Board(turn=10)
    assert not b.dot("B12", 515) and not b.dot("B12", 615) and b.dist(613, 515) == b.dist(613, 615) == 2
    assert b.sc.card_symbol[card(17)] == 0 and b.symbol("K/3/5") == b.symbol("B/1/5") == "circle"
    assert b.sc.us_strength[b.unit("K/3/5"), 4] == b.sc.us_strength[b.unit("B/1/5"), 4] == 7
    b.jp(613)
    b.us("B/1/5", 515)
    b.us("K/3/5", 615)
    b.fire_card(17)
    b.state.tie_ok[0] = True
    japanese.check_group(b.T, b.S, 0, b.group("B12"), 1)
    s = b.state
    assert {b.sc.us_names[u] for u in range(len(b.sc.us_names)) if s.tie_units[0, u]} == {"B/1/5", "K/3/5"}
    assert int(s.tie_left[0]) == 1 and b.dis("K/3/5") == b.dis("B/1/5") == 0
    ties.tie_hit(b.T, b.S, 0, b.unit("K/3/5"))
    assert (b.dis("K/3/5") != 0, b.dis("B/1/5")) == (True, 0) and not s.tie_units[0].any()


def test_peleliu_12_52_reinforcement_priority_closest_to_us_units():
    """12.52: card 17 orange[R], turn 10, one unit in the reserve box.  Two empty orange positions
    in communication are eligible: A14 (0611), three hexes from A/1/5 (1 step, 0409), and C9
    (1112), one hex from K/3/1 (1 step, 1113); no other orange position is within three hexes of a
    U.S. unit.  The one reserve unit goes to C9, the hex closest to U.S. units; A14 stays empty.
    (Red, green and purple units in B22, C10, C11, D6 and C4, not on the card, give communication.)"""
    b = Board(turn=10)
    assert (b.dist(409, 611), b.dist(1113, 1112)) == (3, 1)
    oranges = [pid for p, pid in enumerate(b.sc.pos_id) if pid and b.colour(pid) == "orange"]
    assert [pid for pid in oranges if min(b.dist(409, b.pos_hexnum(pid)), b.dist(1113, b.pos_hexnum(pid))) <= 3] \
        == ["A14", "C9"]
    for h in (709, 1110, 1210, 911, 1009):
        b.jp(h)
    b.reserve("J40")
    b.us("A/1/5", 409, steps=1)
    b.us("K/3/1", 1113, steps=1)
    comm = b.comm()
    assert comm["A14"] and comm["C9"]
    fire_phase_until_close_combat(b, 17)
    assert b.jp_in(1112) >= 0 and b.jp_in(611) < 0


def test_peleliu_13_42_counterattack_tie_westernmost_then_southernmost():
    """13.42: a unit in counterattack stance in the provisional position 0618 (no U.S. unit on the
    map) moves to an empty position firing on a landing beach hex within three hexes: A17 (0417)
    and A9 (0419) two hexes away, A3 (0318) and A4 (0320) three -> the closest, A17 and A9, in the
    same column -> "the westernmost hex, then southernmost": A9."""
    b = Board(turn=9)
    cands = [pid for p, pid in enumerate(b.sc.pos_id)
             if pid and b.sc.pos_beachfire[p] and b.dist(618, b.pos_hexnum(pid)) <= 3]
    assert sorted(cands) == ["A17", "A3", "A4", "A9"]
    assert b.dist(618, 417) == b.dist(618, 419) == 2 and b.dist(618, 318) == b.dist(618, 320) == 3
    j = b.jp(618, "J22", rev=True)
    b.state.jp_ca[0, j] = 55
    b.state.dm_loc[0, 55] = DM_UNIT
    b.state.dm_rev[0, 55] = True
    japanese.counterattack(b.T, b.S, 0, j)
    assert b.jp_where(j) == 419
