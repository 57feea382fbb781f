"""Close combat (8.6-8.7, 8.61-8.65, 12.83) replayed card by card with forced cards through the
engine's close combat machine (closecombat.start_cc / cc_progress / cc_loss).

Piles: ``start_cc`` draws the U.S. pile, then the Japanese pile, each card onto the top of its
pile, and a pile is revealed from the top; so the card forced last of a pile is revealed first.
Cards (cards.yaml) used: blue and no close combat event: 4, 7, 17, 21; no blue, no event: 9, 10,
13, 14, 15, 20, 24, 28, 34; 12 = Heroism with blue; 27 = Reinforce without blue.
"""

from __future__ import annotations

import numpy as np
import pytest

from peleliu_board import Board, card
from wargym.peleliu import closecombat
from wargym.peleliu.board import us_communication
from wargym.peleliu.scenario import CC_EVENTS, COLOURS
from wargym.peleliu.state import (
    CC_CA, CC_JP_ASSAULT, CC_OVERRUN, CC_US_INIT, DIS_NEW, DM_OUT, DM_UNIT, JP_ELIM, JP_MAP, JP_OUT, P_AUTO, P_CC_LOSS,
    P_CC_RETREAT, P_CC_WITHDRAW, PILE_CC_JP, PILE_CC_US, PILE_DECK, US_ELIM,
)

BLUE, BROWN, PURPLE = COLOURS.index("blue"), COLOURS.index("brown"), COLOURS.index("purple")


def shows(b: Board, number: int, colour: int) -> bool:
    return colour in set(int(x) for x in b.sc.card_colour[card(number)])


def event(b: Board, number: int) -> str:
    return CC_EVENTS[int(b.sc.card_cc[card(number)])]


def piles(b: Board) -> tuple[int, int]:
    return b.pile(PILE_CC_US), b.pile(PILE_CC_JP)


def play_out(b: Board, losses: list[str], withdraw_at: int = -1, retreat_to=None) -> list[tuple]:
    """Run the close combat to its end: the U.S. steps lost go to ``losses`` in order; withdrawal
    (8.63) is declined except at the ``withdraw_at``-th offer; the withdrawing units go to hex
    ``retreat_to(b)`` (default: the documented default, closecombat.retreat_hex).  Returns the
    decisions met: ("loss", US pile, Japanese pile), ("withdraw?", US pile, Japanese pile) and
    ("retreat", offered hex numbers)."""
    s = b.state
    trace = []
    offers = 0
    for _ in range(40):
        if s.cc_hex[0] < 0:
            return trace
        s.phase[0] = P_AUTO
        closecombat.cc_progress(b.T, b.S, 0)
        if s.phase[0] == P_CC_LOSS:
            trace.append(("loss",) + piles(b))
            s.phase[0] = P_AUTO
            closecombat.cc_loss(b.T, b.S, 0, b.unit(losses.pop(0)))
        elif s.phase[0] == P_CC_RETREAT:
            m = np.zeros(b.sc.num_hexes, np.bool_)
            closecombat.withdrawal_hexes(b.T, b.S, 0, s.cc_hex[0], m)
            trace.append(("retreat", sorted(b.number(h) for h in np.flatnonzero(m))))
            to = retreat_to(b) if retreat_to else closecombat.retreat_hex(b.T, b.S, 0, s.cc_hex[0], True)
            assert m[to]
            s.cc_to[0] = to
        elif s.phase[0] == P_CC_WITHDRAW:
            trace.append(("withdraw?",) + piles(b))
            s.phase[0] = P_AUTO
            if offers == withdraw_at:
                s.cc_withdraw[0] = 1
            offers += 1
    raise AssertionError("the close combat did not end")


def example_board() -> tuple[Board, int]:
    """The close combat example (page 18, after 8.3 example 5): C/1/5 (3 steps, its counter prints
    BR MG FT) and HQ/1/5 (2 steps) entered blue A8 (0216, clear) from 0215; J16 (elite, strength 2,
    CC) revealed with the face-down depth marker 10 (strength 2, BR)."""
    b = Board(turn=7)
    assert b.pos_hexnum("A8") == 216 and b.colour("A8") == "blue" and b.terrain(216) == "clear"
    j = b.jp(216, "J16", rev=True, depth=10)
    for n, steps in (("C/1/5", 3), ("HQ/1/5", 2)):
        u = b.us(n, 216, steps=steps)
        b.state.us_from[0, u] = b.hex(215)
        b.state.us_acted[0, u] = True
    return b, j


# US pile, drawn first (revealed last first): US card 4, a card discarded by Japanese card 3's hit,
# US card 3 (Reinforce, no blue), US card 1 (Heroism, blue), a card discarded by Japanese card 1's
# hit; then the Japanese pile: Japanese card 2, two cards discarded by US card 1, Japanese card 1;
# then the card Heroism adds to the US pile (US card 2) and the card Reinforce adds to the Japanese
# pile (Japanese card 3).
EXAMPLE_CARDS = [4, 9, 27, 12, 10, 13, 14, 15, 7, 20, 17]


def test_peleliu_8_6_example_cards():
    b = Board()
    us_4, _, us_3, us_1, _, jp_2, _, _, jp_1, us_2, jp_3 = EXAMPLE_CARDS
    assert shows(b, jp_1, BLUE) and event(b, jp_1) == "none"
    assert shows(b, us_1, BLUE) and event(b, us_1) == "heroism"
    assert not shows(b, jp_2, BLUE) and event(b, jp_2) == "none"
    assert not shows(b, us_2, BLUE) and event(b, us_2) == "none"
    assert not shows(b, us_3, BLUE) and event(b, us_3) == "reinforce"
    assert shows(b, jp_3, BLUE) and event(b, jp_3) == "none"
    assert shows(b, us_4, BLUE) and event(b, us_4) == "none"


def test_peleliu_8_6_close_combat_example_0216():
    """The close combat example in 0216, card by card.

    Step 1: the unit and depth marker are revealed.  Step 2 (8.6): the U.S. draw one card per step,
    at most four (3 + 2 = 5 -> 4), plus one for the flamethrower (C/1/5) = 5; the Japanese one for
    the unit, one for the depth marker, one for strength 2 + 2 = 4 >= 4, one for J16's CC
    requirement = 4 (US-initiated: no attacking card; clear: no terrain card).
    Japanese card 1 blue -> a hit: a US card is discarded (US 4) and a step lost: C/1/5 (3 -> 2).
    US card 1 Heroism + blue: +1 US card, -1 Japanese card, then the blue: -1 Japanese card and
    the Japanese unit is disrupted (Japanese 3 -> 1).  Japanese card 2: nothing (Japanese 0).
    US card 2: nothing.  The Japanese have no cards: US card 3, Reinforce, no blue: +1 Japanese
    card (the unit keeps its depth marker).  Japanese card 3 blue: a US card discarded and a step
    lost: HQ/1/5 (2 -> 1) (US pile 1).  US card 4 blue: the Japanese unit is already disrupted ->
    its depth marker is removed.  Both piles are empty: exhaustion (8.62): the U.S. units go back,
    disrupted, to 0215, the hex they entered from; the disrupted J16 stays in 0216.  15.1: C/1/5
    went 3 -> 2 ("you replace the 3-step infantry unit with its 2-step replacement unit"): its
    full-strength counter enters the Infantry Loss Box (1); the infantry/HQ does not count."""
    b, j = example_board()
    b.force(EXAMPLE_CARDS)
    closecombat.start_cc(b.T, b.S, 0, b.hex(216), j, CC_US_INIT, BLUE)
    s = b.state
    assert s.jp_rev[0, j] and s.dm_rev[0, 10]
    assert piles(b) == (5, 4)
    trace = [t for t in play_out(b, ["C/1/5", "HQ/1/5"]) if t[0] == "loss"]
    assert trace == [("loss", 4, 3), ("loss", 1, 0)]
    assert b.forced_left == 0
    assert (b.steps("C/1/5"), b.steps("HQ/1/5")) == (2, 1)
    assert b.where("C/1/5") == b.where("HQ/1/5") == 215
    assert b.dis("C/1/5") == b.dis("HQ/1/5") == DIS_NEW
    assert s.jp_loc[0, j] == JP_MAP and b.jp_where(j) == 216 and s.jp_dis[0, j]
    assert s.jp_depth[0, j] == -1 and s.dm_loc[0, 10] == DM_OUT
    assert piles(b) == (0, 0) and s.cc_hex[0] == -1
    assert int(s.loss_box[0]) == 1


def test_peleliu_8_62_exhausted_attackers_go_back_toward_their_own_entry_hexes():
    """8.62: "Place US units surviving a close combat in a land hex or hexes adjacent to the CC hex
    and closest to the direction from which they entered".  The close combat example with HQ/1/5
    entering 0216 from 0316 (jungle, next to 0216) instead of 0215: the same cards, the same step
    losses and the same exhaustion; C/1/5 goes back to 0215, HQ/1/5 to 0316, both disrupted."""
    b, j = example_board()
    assert 316 in b.neighbours(216) and b.sc.land[b.hex(316)]
    b.state.us_from[0, b.unit("HQ/1/5")] = b.hex(316)
    b.force(EXAMPLE_CARDS)
    closecombat.start_cc(b.T, b.S, 0, b.hex(216), j, CC_US_INIT, BLUE)
    play_out(b, ["C/1/5", "HQ/1/5"])
    assert (b.steps("C/1/5"), b.steps("HQ/1/5")) == (2, 1) and b.state.jp_dis[0, j] and b.jp_where(j) == 216
    assert (b.where("C/1/5"), b.where("HQ/1/5")) == (215, 316)
    assert b.dis("C/1/5") == b.dis("HQ/1/5") == DIS_NEW


def test_peleliu_8_7_reinforce_drawing_a_tactical_reinforcement_brings_its_unit():
    """8.7 Reinforce: "if the participating Japanese unit has no depth marker, draw and place a depth
    marker, revealed"; 9.4: a depth marker revealed to be a Tactical Reinforcement leaves play and
    a reserve unit enters "after resolving the combat" (no card for it).  B/1/5 (1 step, no
    flamethrower) entered A8 (0216, blue, clear) from 0215 against the revealed J21 (strength 2, FT
    BR) over its face-down depth marker 0, a Tactical Reinforcement; the pool holds only marker 1,
    another.  Step 1 reveals marker 0: out of play, a reinforcement due; piles: U.S. 1 (one step),
    Japanese 1 (the unit; no depth now, strength 2 < 4, no CC, clear).  Japanese card 1 (27:
    Reinforce, no blue): a card added to the Japanese pile and marker 1 placed revealed: a Tactical
    Reinforcement too, out of play, a second reinforcement due.  Withdrawal declined; U.S. card
    (10) and Japanese card 2 (9): no blue, no event.  Exhaustion (8.62): B/1/5 back to 0215, J21
    disrupted in 0216, without depth.  Then the two reserve units enter the empty position hexes
    nearest to 0216: A3 and A17 (two hexes; equally close to B/1/5, three hexes: A3 first, the
    lower number, then A17)."""
    b = Board(turn=7)
    assert b.sc.dm_tr[0] and b.sc.dm_tr[1] and event(b, 27) == "reinforce"
    assert not any(shows(b, n, BLUE) for n in (27, 9, 10)) and event(b, 9) == event(b, 10) == "none"
    assert {pid: b.dist(216, b.pos_hexnum(pid)) for pid in ("A3", "A17")} == {"A3": 2, "A17": 2}
    assert all(b.dist(216, h) > 2 for h in map(b.number, b.sc.pos_hex) if h not in (216, b.pos_hexnum("A3"),
                                                                                     b.pos_hexnum("A17")))
    assert b.dist(215, b.pos_hexnum("A3")) == b.dist(215, b.pos_hexnum("A17")) == 3
    j = b.jp(216, "J21", rev=True, depth=0)
    b.depth_pool(1)
    b.reserve("J40", "J41")
    u = b.us("B/1/5", 216, steps=1)
    b.state.us_from[0, u] = b.hex(215)
    b.force([10, 27, 9])
    closecombat.start_cc(b.T, b.S, 0, b.hex(216), j, CC_US_INIT, BLUE)
    assert piles(b) == (1, 1)
    play_out(b, [])
    s = b.state
    assert b.forced_left == 0 and s.dm_loc[0, 0] == s.dm_loc[0, 1] == DM_OUT and s.jp_depth[0, j] == -1
    assert b.where("B/1/5") == 215 and b.jp_where(j) == 216 and s.jp_dis[0, j]
    placed = {b.jp_where(b.jp_unit(n)) for n in ("J40", "J41")}
    assert placed == {b.pos_hexnum("A3"), b.pos_hexnum("A17")}


def counterattack_unit(b: Board, hexnum: int, name: str, marker: int) -> int:
    """Japanese unit ``name`` in counterattack stance in hex ``hexnum``: revealed, counterattack
    marker ``marker`` on top, strength (depth) side up (13.41)."""
    j = b.jp(hexnum, name, rev=True)
    b.state.jp_ca[0, j] = marker
    b.state.dm_loc[0, marker] = DM_UNIT
    b.state.dm_rev[0, marker] = True
    return j


def test_peleliu_8_61_counterattack_unit_winning_off_a_position_remains_in_the_hex():
    """8.61: the close combat ends when one side is eliminated; "The survivors remain in the hex, and
    become disrupted", except an assaulting unit (12.8, 12.83) and a tank in a non-position hex
    (8.64).  J21 (strength 2, FT BR) in counterattack stance (marker 59: purple, strength 2, depth
    side up) came from B1 (0720) into 1019 (clear, no position; 13.42 priority 2) where B/1/5 (one
    step) stands; no other U.S. unit is next to 1019, so the Japanese reveal first.  Piles: U.S. 1
    (one step; no flamethrower at one step) + 1 (counterattack stance) = 2; Japanese 1 (the unit) +
    1 (the marker's depth side) + 1 (strength 2 + 2 = 4) = 3 (no attacking card in counterattack
    stance, 13.44; no CC; clear).  Japanese card 1 (9: purple, no event): a hit, B/1/5 loses its
    one step and is eliminated.  J21 stays in 1019, disrupted, still in counterattack stance (no
    position firing on a beach)."""
    b = Board(turn=7)
    assert b.sc.hex_pos[b.hex(1019)] < 0 and b.terrain(1019) == "clear" and b.sc.dm_colour[59] == PURPLE
    assert shows(b, 9, PURPLE) and event(b, 9) == "none"
    assert not any(shows(b, n, PURPLE) for n in (4, 14, 17, 25)) and {event(b, n) for n in (4, 14, 17, 25)} == {"none"}
    j = counterattack_unit(b, 1019, "J21", 59)
    b.state.jp_from[0, j] = b.hex(720)
    b.us("B/1/5", 1019, steps=1)
    b.force([4, 14, 17, 25, 9])
    closecombat.start_cc(b.T, b.S, 0, b.hex(1019), j, CC_CA, PURPLE)
    assert piles(b) == (2, 3)
    play_out(b, ["B/1/5"])
    s = b.state
    assert b.loc("B/1/5") == US_ELIM and b.forced_left == 0
    assert b.jp_where(j) == 1019 and s.jp_dis[0, j] and s.jp_ca[0, j] == 59


def test_peleliu_8_62_exhausted_tank_goes_back_to_the_position_it_came_from():
    """8.62: "Return surviving attacking Japanese units to the position from which they entered the
    close combat, disrupted"; 8.64's nearest unoccupied position is for a tank surviving in a
    non-position hex.  T1 (strength 3, armor depth marker 51: strength 1, no CC) overran from
    A7 (0513) into A1 (0410, green, clear) where B/1/5 (four steps) stands.  Piles: U.S. 4 (steps)
    + 1 (flamethrower) = 5; Japanese 1 + 1 (depth) + 1 (attacking) + 1 (3 + 1 = 4) + 1 (a tank) = 5.
    No card shows green or an event: exhaustion.  B/1/5 stays in A1, disrupted; T1 goes back to A7,
    disrupted, though A2 (0312) is nearer to A1 (two hexes; A7 three)."""
    b = Board(turn=7)
    assert b.colour("A1") == "green" and b.terrain(410) == "clear" and b.pos_hexnum("A7") == 513
    assert b.dist(410, 513) == 3 and b.dist(410, b.pos_hexnum("A2")) == 2
    quiet = [1, 4, 5, 7, 9, 17, 21, 30, 37, 38]
    assert not any(shows(b, n, COLOURS.index("green")) for n in quiet) and {event(b, n) for n in quiet} == {"none"}
    j = b.jp(410, "T1", depth=51)
    b.state.jp_from[0, j] = b.hex(513)
    b.us("B/1/5", 410)
    b.force(quiet)
    closecombat.start_cc(b.T, b.S, 0, b.hex(410), j, CC_OVERRUN, COLOURS.index("green"))
    assert piles(b) == (5, 5)
    play_out(b, [])
    s = b.state
    assert b.forced_left == 0 and b.where("B/1/5") == 410 and b.dis("B/1/5") != 0
    assert b.jp_where(j) == 513 and s.jp_dis[0, j]


def test_peleliu_13_2_surviving_tank_goes_to_the_nearest_position_closest_to_a_us_unit():
    """13.2 [R] / 8.64: a tank surviving a close combat in a non-position hex goes to the nearest
    unoccupied position; "If unoccupied positions are equidistant, move to the position closest to
    a US unit, then the lowest numbered position."  T2 (2, green counter, no depth) overran B/1/5
    (one step) in 1019 (clear, no position) from B8 (1317); K/3/5 stands in 1017.  Piles: U.S. 1;
    Japanese 1 + 1 (attacking) + 1 (a tank) = 3.  Japanese card 1 (10: green, no event): B/1/5 is
    eliminated.  The nearest unoccupied positions are B1 (0720) and B19 (1016), three hexes each;
    K/3/5 is one hex from B19 and four from B1: T2 goes to B19, disrupted, not B1 (the lower
    number)."""
    b = Board(turn=7)
    green = COLOURS.index("green")
    assert b.sc.hex_pos[b.hex(1019)] < 0 and b.terrain(1019) == "clear"
    assert sorted((b.dist(1019, b.pos_hexnum(pid)), pid) for pid in b.sc.pos_id if pid)[:3] == \
        [(3, "B1"), (3, "B19"), (4, "A15")]
    assert (b.pos_hexnum("B1"), b.pos_hexnum("B19")) == (720, 1016) and (b.dist(1017, 1016), b.dist(1017, 720)) == (1, 4)
    assert shows(b, 10, green) and not any(shows(b, n, green) for n in (1, 4, 5))
    assert {event(b, n) for n in (1, 4, 5, 10)} == {"none"}
    j = b.jp(1019, "T2")
    b.state.jp_from[0, j] = b.hex(1317)
    b.us("B/1/5", 1019, steps=1)
    b.us("K/3/5", 1017)
    b.force([1, 4, 5, 10])
    closecombat.start_cc(b.T, b.S, 0, b.hex(1019), j, CC_OVERRUN, green)
    assert piles(b) == (1, 3)
    play_out(b, ["B/1/5"])
    assert b.loc("B/1/5") == US_ELIM and b.forced_left == 0
    assert b.jp_where(j) == 1016 and b.state.jp_dis[0, j]


def test_peleliu_8_6_example_disruption_after_us_card_1():
    """The same example stopped at the second step loss (Japanese card 3): by then US card 1 has
    disrupted J16 and Heroism and the blue have emptied the Japanese pile, Reinforce added one
    card, which was just revealed: the Japanese unit is disrupted and still has its depth marker."""
    b, j = example_board()
    b.force(EXAMPLE_CARDS)
    closecombat.start_cc(b.T, b.S, 0, b.hex(216), j, CC_US_INIT, BLUE)
    s = b.state
    seen = 0
    for _ in range(40):
        s.phase[0] = P_AUTO
        closecombat.cc_progress(b.T, b.S, 0)
        if s.phase[0] == P_CC_LOSS:
            seen += 1
            if seen == 2:
                break
            closecombat.cc_loss(b.T, b.S, 0, b.unit("C/1/5"))
    assert seen == 2
    assert s.jp_dis[0, j] and s.jp_depth[0, j] == 10 and piles(b) == (1, 0)


def test_peleliu_8_6_withdrawal_offered_after_a_hit():
    """8.6 step 3: a. the event, b. the hit, c. "Finally, you may conduct US withdrawal under fire"
    (8.63: "following the reveal and implementation of a Japanese card").  In the example, right
    after the step loss of Japanese card 1, before US card 1 is revealed (US pile 4, Japanese 3),
    the withdrawal is offered."""
    b, j = example_board()
    b.force(EXAMPLE_CARDS)
    closecombat.start_cc(b.T, b.S, 0, b.hex(216), j, CC_US_INIT, BLUE)
    trace = play_out(b, ["C/1/5", "HQ/1/5"])
    assert trace[:2] == [("loss", 4, 3), ("withdraw?", 4, 3)]


def test_peleliu_8_6_withdrawal_offered_after_a_japanese_card():
    """8.6 3c without a hit: the example's Japanese card 2 (no effect) is followed by the offer,
    with the US pile at 4 and the Japanese at 0."""
    b, j = example_board()
    b.force(EXAMPLE_CARDS)
    closecombat.start_cc(b.T, b.S, 0, b.hex(216), j, CC_US_INIT, BLUE)
    trace = play_out(b, ["C/1/5", "HQ/1/5"])
    assert ("withdraw?", 4, 0) in trace


def withdrawal_board() -> tuple[Board, int]:
    """B/1/5 alone (4 steps, FT) entered 0216 from 0215 against J21 (revealed, no depth); the cards
    forced so that the close combat of 8.63's tests runs as they work it out."""
    b = Board(turn=7)
    j = b.jp(216, "J21", rev=True)
    u = b.us("B/1/5", 216)
    b.state.us_from[0, u] = b.hex(215)
    b.force([10, 13, 14, 15, 20, 9, 17])
    closecombat.start_cc(b.T, b.S, 0, b.hex(216), j, CC_US_INIT, BLUE)
    return b, j


def test_peleliu_8_63_withdrawal():
    """8.63: after a Japanese card the U.S. withdraw: one more Japanese card is drawn and carried
    out, then the survivors go to a hex next to the combat.  B/1/5 alone (4 steps, FT) in 0216
    against J21 (2, FT BR, no depth): U.S. 4 + 1 = 5 cards, Japanese 1.  Japanese card 1 (card 9,
    no blue): no hit; withdraw; the extra Japanese card (card 17, blue, drawn from the deck) hits:
    B/1/5 loses a step (4 -> 3).  B/1/5 ends next to 0216, J21 stays in 0216 and the four unrevealed
    U.S. cards go back on top of the deck."""
    b, j = withdrawal_board()
    assert piles(b) == (5, 1)
    trace = play_out(b, ["B/1/5"], withdraw_at=0)
    assert trace[:2] == [("withdraw?", 5, 0), ("loss", 4, 0)] and trace[2][0] == "retreat"
    assert b.steps("B/1/5") == 3 and b.dist(b.where("B/1/5"), 216) == 1
    assert b.jp_where(j) == 216
    s = b.state
    assert piles(b) == (0, 0)
    top4 = sorted(range(54), key=lambda c: -int(s.card_pos[0, c]) if s.card_pile[0, c] == PILE_DECK else 99)[:4]
    assert sorted(top4) == sorted(card(n) for n in (10, 13, 14, 15))


def test_peleliu_8_63_withdrawal_hex_is_the_players_choice():
    """8.63: "place the surviving US units in a hex adjacent to the close combat hex.  If more than
    one hex is available, in a hex from which US communication can be traced, then you choose."
    The withdrawal of test_peleliu_8_63_withdrawal (B/1/5 from 0215 into 0216 against J21): the
    offered hexes are the land hexes next to 0216 in U.S. communication (11.3), 0215 and 0316 among
    them, and the player takes 0316, not the default 0215 (where the unit came from): B/1/5 ends
    in 0316."""
    b, j = withdrawal_board()
    comm = np.zeros(b.sc.num_hexes, np.bool_)
    us_communication(b.T, b.S, 0, comm)
    around = {n for n in b.neighbours(216) if b.sc.land[b.hex(n)] and b.sc.in_play[b.hex(n)]}
    assert {215, 316} <= around and comm[b.hex(215)] and comm[b.hex(316)]
    assert closecombat.retreat_hex(b.T, b.S, 0, b.hex(216), True) == b.hex(215)
    trace = play_out(b, ["B/1/5"], withdraw_at=0, retreat_to=lambda b: b.hex(316))
    assert trace[2] == ("retreat", sorted(n for n in around if comm[b.hex(n)]))
    assert b.where("B/1/5") == 316 and b.jp_where(j) == 216


def test_peleliu_8_63_withdrawal_not_into_the_hex_the_attacker_returns_to():
    """8.63 with 12.83: J21 from A8 (0216) assaults B/1/5 in 0316, a hex that is no position; B/1/5
    withdraws after the first Japanese card.  The combat's end sends the surviving attacker back to
    A8 (12.83: "return ... to the position from which they entered"), so A8's hex, next to 0316
    and in U.S. communication, is not offered to the withdrawing unit; B/1/5 and J21 end apart.  The
    default pick (retreat_hex, what the rule baseline chooses) is one of the hexes offered."""
    b = Board(turn=7)
    assert b.sc.hex_pos[b.hex(316)] < 0 and 216 in b.neighbours(316)
    j = b.jp(316, "J21", rev=True)
    b.state.jp_from[0, j] = b.hex(216)
    b.us("B/1/5", 316)
    b.force([10, 13, 14, 15, 20, 9, 17, 24, 28])
    closecombat.start_cc(b.T, b.S, 0, b.hex(316), j, CC_JP_ASSAULT, BLUE)
    offered = []

    def pick(b):
        m = np.zeros(b.sc.num_hexes, np.bool_)
        closecombat.withdrawal_hexes(b.T, b.S, 0, b.hex(316), m)
        comm = np.zeros(b.sc.num_hexes, np.bool_)
        us_communication(b.T, b.S, 0, comm)
        assert comm[b.hex(216)] and b.sc.land[b.hex(216)] and b.jp_in(216) < 0  # else a candidate
        offered.extend(b.number(h) for h in np.flatnonzero(m))
        assert m[closecombat.retreat_hex(b.T, b.S, 0, b.hex(316), True)]
        return int(np.flatnonzero(m)[0])

    play_out(b, ["B/1/5"] * 4, withdraw_at=0, retreat_to=pick)
    assert offered and 216 not in offered
    if b.state.jp_loc[0, j] == JP_MAP:
        assert b.jp_where(j) == 216
    assert b.where("B/1/5") in offered


@pytest.mark.parametrize("elite,where", [(False, JP_OUT), (True, JP_ELIM)])
def test_peleliu_8_61_ending_by_elimination(elite, where):
    """8.61: B/1/5 (4 steps + FT: 5 cards) against a lone revealed unit (1 card) in 0216.
    Japanese card 1 (card 9, no blue) misses; US card 1 (card 4, blue): disrupted; US card 2
    (card 7, blue): already disrupted, no depth -> eliminated.  The combat ends at once; B/1/5
    stays in 0216, disrupted.  A non-elite unit leaves play, an elite one goes to the eliminated
    units box.  The three unrevealed U.S. cards go back to the deck."""
    b = Board(turn=7)
    j = b.jp(216, "J16" if elite else "J21", rev=True)
    assert bool(b.sc.jp_elite[j]) == elite
    u = b.us("B/1/5", 216)
    b.state.us_from[0, u] = b.hex(215)
    b.force([10, 13, 14, 7, 4, 9])
    closecombat.start_cc(b.T, b.S, 0, b.hex(216), j, CC_US_INIT, BLUE)
    n_jp = 1 + (1 if elite else 0)   # J16 lists CC: one more Japanese card
    assert piles(b) == (5, n_jp)
    play_out(b, [])
    s = b.state
    assert s.jp_loc[0, j] == where
    assert b.where("B/1/5") == 216 and b.dis("B/1/5") == DIS_NEW and b.steps("B/1/5") == 4
    assert piles(b) == (0, 0)
    assert all(s.card_pile[0, card(n)] == PILE_DECK for n in (10, 13, 14))


def test_peleliu_8_62_exhaustion_japanese_assault_goes_home():
    """8.62 / 12.83: a Japanese unit that assaulted from B19 (1016) into the non-position hex 0917
    survives by exhaustion: it returns to 1016, disrupted; the defending F/2/1 stays in 0917,
    disrupted.  Cards: U.S. 3 steps + FT (F/2/1's 3-step counter prints BR BZ FT) = 4; Japanese
    unit + depth + attacking = 3 (strength 1 + 1, airstrip); no card shows brown, none has an
    event."""
    b = Board(turn=10)
    assert b.terrain(917) == "airstrip" and b.colour("B19") == "brown"
    j = b.jp(917, "J22", rev=True, depth=26, depth_rev=True)
    b.state.jp_from[0, j] = b.hex(1016)
    b.us("F/2/1", 917, steps=3)
    cards = [9, 10, 14, 15, 28, 34, 24]
    assert not any(shows(b, n, BROWN) or event(b, n) != "none" for n in cards)
    b.force(cards)
    closecombat.start_cc(b.T, b.S, 0, b.hex(917), j, CC_JP_ASSAULT, BROWN)
    assert piles(b) == (4, 3)
    play_out(b, [])
    s = b.state
    assert b.jp_where(j) == 1016 and s.jp_dis[0, j] and s.jp_depth[0, j] == 26
    assert b.where("F/2/1") == 917 and b.dis("F/2/1") != 0 and b.steps("F/2/1") == 3


@pytest.mark.parametrize("case", ["us_initiated_coral", "assault_night"])
def test_peleliu_8_6_card_counts(case):
    """8.6 step 2.  us_initiated_coral: B/1/5 (4) + C/1/5 (4, hero) in coral A5 (0314): U.S. min(8, 4)
    + FT + hero = 6; Japanese J45 (3, CC FT) with depth 9 (2, CC): unit 1 + depth 1 + strength 5
    >= 4 -> 1 + CC on the unit 1 + CC on the depth marker 1 + coral 1 = 6.
    assault_night: turn 13, J22 (1) alone assaults RHQ/5 alone in jungle 0416: U.S. the regimental
    HQ counts as one step (10.22) = 1; Japanese unit 1 + attacking 1 + one card only for jungle
    and night together = 3."""
    if case == "us_initiated_coral":
        b = Board(turn=7)
        assert b.terrain(314) == "coral"
        j = b.jp(314, "J45", rev=True, depth=9)
        b.us("B/1/5", 314)
        c = b.us("C/1/5", 314)
        b.state.hero[0, c] = 1
        closecombat.start_cc(b.T, b.S, 0, b.hex(314), j, CC_US_INIT, 0)
        assert piles(b) == (6, 6)
    else:
        b = Board(turn=13)
        assert b.terrain(416) == "jungle"
        j = b.jp(416, "J22", rev=True)
        b.us("RHQ/5", 416)
        closecombat.start_cc(b.T, b.S, 0, b.hex(416), j, CC_JP_ASSAULT, 0)
        assert piles(b) == (1, 3)


def test_peleliu_8_65_disrupted_us_spend_a_round():
    """8.65: a disrupted U.S. unit in close combat removes its disruption instead of revealing its
    card.  A Japanese assault on the disrupted B/1/5 (4 + FT = 5 cards) in 0917; the Japanese
    J22 alone: 1 + attacking 1 = 2 cards, neither brown.  Round 1: Japanese card, then the U.S.
    round removes the disruption, revealing nothing: the U.S. pile is still 5 at the withdrawal
    offer after the second Japanese card."""
    b = Board(turn=10)
    j = b.jp(917, "J22", rev=True)
    b.state.jp_from[0, j] = b.hex(1016)
    b.us("B/1/5", 917, dis=1)
    b.force([9, 10, 14, 15, 28, 34, 24])
    closecombat.start_cc(b.T, b.S, 0, b.hex(917), j, CC_JP_ASSAULT, BROWN)
    assert piles(b) == (5, 2)
    trace = play_out(b, [])
    assert trace[:2] == [("withdraw?", 5, 1), ("withdraw?", 5, 0)]


# ------------------------------------------------------------------------------------------ 8.7
def lone_j21_board(elite: bool = False) -> tuple[Board, int]:
    """B/1/5 (4 steps, FT) entered blue A8 (0216) from 0215 against a revealed lone unit: J21
    (non-elite, 2, FT BR) or J16 (elite, 2, CC)."""
    b = Board(turn=7)
    j = b.jp(216, "J16" if elite else "J21", rev=True)
    u = b.us("B/1/5", 216)
    b.state.us_from[0, u] = b.hex(215)
    return b, j


@pytest.mark.parametrize("elite", [False, True])
def test_peleliu_8_7_conscripts_surrender(elite):
    """8.7 Conscripts surrender: revealed from the Japanese pile (card 3, no blue), a non-elite,
    non-tank unit without depth is eliminated and the combat is over (8.61: B/1/5 stays in 0216,
    disrupted); an elite unit disregards it (the combat goes on to the withdrawal offer)."""
    b, j = lone_j21_board(elite)
    assert event(b, 3) == "conscripts" and not shows(b, 3, BLUE)
    jp_pile = [14, 3] if elite else [3]                  # J16 lists CC: two Japanese cards
    b.force([10, 13, 15, 20, 24] + jp_pile)
    closecombat.start_cc(b.T, b.S, 0, b.hex(216), j, CC_US_INIT, BLUE)
    s = b.state
    s.phase[0] = P_AUTO
    closecombat.cc_progress(b.T, b.S, 0)
    if elite:
        assert s.phase[0] == P_CC_WITHDRAW and s.jp_loc[0, j] == JP_MAP
    else:
        assert s.cc_hex[0] == -1 and s.jp_loc[0, j] == JP_OUT
        assert b.where("B/1/5") == 216 and b.dis("B/1/5") == DIS_NEW


@pytest.mark.parametrize("number,disrupts", [(16, False), (4, True)])
def test_peleliu_8_7_reinforce_offsets_a_us_hit(number, disrupts):
    """8.7 Reinforce: drawn from the U.S. pile with a hit (the position's colour), the event and the
    hit offset each other: no card is added and nothing happens (card 16: Reinforce + blue).  Card 4
    (blue, no event) disrupts the Japanese unit."""
    b, j = lone_j21_board()
    assert shows(b, number, BLUE) and event(b, number) == ("reinforce" if number == 16 else "none")
    b.force([10, 13, 15, 20, number, 9])
    closecombat.start_cc(b.T, b.S, 0, b.hex(216), j, CC_US_INIT, BLUE)
    s = b.state
    s.phase[0] = P_AUTO
    closecombat.cc_progress(b.T, b.S, 0)
    assert s.phase[0] == P_CC_WITHDRAW and piles(b) == (5, 0)
    s.phase[0] = P_AUTO
    closecombat.us_card(b.T, b.S, 0)                    # U.S. card 1
    assert piles(b) == (4, 0) and bool(s.jp_dis[0, j]) == disrupts and s.jp_depth[0, j] == -1


def test_peleliu_8_7_heroism_from_the_japanese_pile():
    """8.7 Heroism drawn from the Japanese pile: a card is added to the Japanese pile and one removed
    from the U.S. pile; the unit has no depth marker, so one is placed revealed (the pool holds only
    marker 10).  Card 12 also shows blue: a hit (a U.S. card discarded, a step to lose).  U.S. pile
    5 - 1 - 1 = 3; Japanese pile 1 - 1 + 1 = 1."""
    b, j = lone_j21_board()
    assert event(b, 12) == "heroism" and shows(b, 12, BLUE)
    b.depth_pool(10)
    b.force([10, 13, 15, 20, 24, 12, 9])
    closecombat.start_cc(b.T, b.S, 0, b.hex(216), j, CC_US_INIT, BLUE)
    s = b.state
    s.phase[0] = P_AUTO
    closecombat.cc_progress(b.T, b.S, 0)
    assert s.phase[0] == P_CC_LOSS and piles(b) == (3, 1)
    assert s.jp_depth[0, j] == 10 and s.dm_rev[0, 10]
