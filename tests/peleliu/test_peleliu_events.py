"""The D-Day at Peleliu event log (wargym.events, wargym/peleliu/eventlog.py): what a step did, in
order, with the book's case, as the U.S. player may read it and as the whole truth; replayed
through the core (``core.step_logged``) on positions laid out by hand (peleliu_board.Board) with
forced cards and picks.

A position waits at a decision whose step runs the rules under test: the hero event's choice of a
unit (10.11) at the start of the Japanese Fire Phase (the first event phase sets the stage there
before its event), or a U.S. Action Phase decision.  Cards (cards.yaml, reconstructed around the
book's): 34 = orange, red, green [P] star / diamond / artillery 6 (6.3 example 1); 17 = orange
[R], blue [P], brown [A] / circle (the turn-10 action example); 2 = purple [M] star, blue [I] armor
bonus, brown / triangle (8.3 example 4); the close combat example's cards as in
test_peleliu_close_combat.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from peleliu_board import Board, card, make_core
from wargym import events as event_log
from wargym.events import read
from wargym.peleliu import eventlog as ev
from wargym.peleliu.actions import ATTACK, BARRAGE, END, ENTER, NO, RESOLVE, UNIT_0
from wargym.peleliu.scenario import COLOURS, SYMBOLS
from wargym.peleliu.state import (
    DIS_NEW, DM_OUT, JP_MAP, P_ACT_SELECT, P_CC_LOSS, P_CC_WITHDRAW, P_HERO_PLACE, PILE_DECK, PILE_DISCARD,
    PILE_TRACK, ST_ACTIONS, ST_FIRE_START,
)
from wargym.peleliu.us import start_actions

US, TRUTH = 0, None
BLUE = COLOURS.index("blue")


def decision(b: Board, stage: int, phase: int):
    """The laid-out position waiting at decision ``phase`` of stage ``stage`` (core.settle: the mask
    and the player to decide worked out, the invariants checked)."""
    b.state.stage[0] = stage
    b.state.phase[0] = phase
    return b.core.settle(b.state)


def step(core, state, action: int, forced=(), picks=None):
    """One logged step (the cards ``forced`` and the random ``picks`` first; none given, the ones
    still queued stay): the state after and the events of game 0, raw."""
    if forced or picks is not None:
        state = core.force(state, list(forced), picks=picks)
    assert state.legal_action_mask[0, action], core.describe_action(action, state)
    after, log = core.step_logged(state, np.array([action]))
    return after, log[0]


def texts(core, log, after, viewer) -> list[str]:
    return [e["text"] for e in core.events_for(log, after, 0, viewer)]


def special(b: Board, k: int) -> int:
    return b.sc.num_hexes + k


def unit(b: Board, name: str) -> int:
    return special(b, UNIT_0 + b.unit(name))


def until(lines: list[str], end: str) -> list[str]:
    """The lines up to and including the first that starts with ``end``."""
    return lines[:next(i for i, t in enumerate(lines) if t.startswith(end)) + 1]


# ------------------------------------------------------------------------------------ Japanese fire
def test_peleliu_6_3_japanese_fire_is_logged_hit_by_hit():
    """6.3 example 1 (turn 3, card 34: orange, red, green [P] star / diamond / artillery 6), laid out
    as in test_peleliu_fire.py's test of the example (the book's geometry on the reconstructed
    map: orange group A15/A16, red A11, green A12 disrupted).  The step is the hero event's choice
    (10.11: G/2/1, in no live field), then the Fire Phase by hand:

    12.0: orange, red, green, each colour west to east.  Orange A15/A16: no letter -> fire (6.3);
    two units and a depth marker, one unrevealed -> hit limit 3 (6.31) on the unrevealed column.
    Priority 1, intense: B/1/5 (0421) step + disrupt (the leader HQ/1/5 is not hit: no star, 10.4).
    Priority 2, steady: the card's diamond; I/3/5 + C/1/5 hold 8 steps in 0422 -> concentrated
    (6.35): both hit, step + disrupt (the most steps, then the closer, then the lower number: C/1/5
    first).  Red A11: revealed unit and depth -> limit 2, revealed column; F/2/1 (0424, intense)
    loses a step, no disruption; C/1/5 and I/3/5 already lost one (6.34); the circles in its steady
    field lack the diamond.  Green A12: disrupted -> no fire (6.4).  6.5: the card's artillery
    value 6 against one occupied artillery position (purple D3): no artillery hit.  6.42: green is on the
    card -> J24 loses its disruption.  Then the Action Phase (turn 3: no second event, no HQ phase).
    The U.S. reads every event but the name of J24, face down."""
    b = Board(turn=3)
    sc = b.sc
    assert [COLOURS[c] for c in sc.card_colour[card(34)]] == ["orange", "red", "green"]
    assert SYMBOLS[sc.card_symbol[card(34)]] == "diamond" and sc.card_artillery[card(34)] == 6
    art = [sc.pos_id[p] for p in np.flatnonzero(sc.pos_art)]
    assert "D3" in art and not {"A15", "A16", "A11", "A12", "B2"} & set(art)
    b.jp(620, "J22", depth=26)
    b.jp(521, "J23", rev=True)
    b.jp(423, "J30", rev=True, depth=27, depth_rev=True)
    b.jp(326, "J24", dis=True)
    b.jp(525, "J25", dis=True)
    b.jp(526, "J26")
    for name, h in [("B/1/5", 421), ("HQ/1/5", 421), ("I/3/5", 422), ("C/1/5", 422), ("A/1/5", 320),
                    ("K/3/5", 721), ("F/2/1", 424), ("I/3/1", 222), ("L/3/7", 524), ("G/2/1", 425)]:
        b.us(name, h)
    core = b.core
    state = decision(b, ST_FIRE_START, P_HERO_PLACE)
    after, log = step(core, state, unit(b, "G/2/1"), forced=[card(34)])
    orange, red = "A15/A16 (orange)", "A11 (red)"
    truth = [
        "a hero marker is placed on G/2/1 (10.11)",
        "III. Japanese Fire Phase (4.0)",
        "fire card: card #34 (orange, red, green [P] star; target diamond; artillery 6) (6.1)",
        f"{orange} acts: fire (6.3) (12.0)",
        f"{orange} fires on the column of a position with an unrevealed unit, hit limit 3 (6.31) (6.3)",
        f"B/1/5 is hit by {orange}, intense fire: a step lost and disrupted (6.3)",
        "B/1/5 loses a step (3 left) (6.32)",
        "B/1/5 is disrupted (7.6)",
        f"C/1/5 is hit by {orange}, steady fire: a step lost and disrupted (6.3)",
        "C/1/5 loses a step (3 left) (6.32)",
        "C/1/5 is disrupted (7.6)",
        f"I/3/5 is hit by {orange}, steady fire: a step lost and disrupted (6.3)",
        "I/3/5 loses a step (3 left) (6.32)",
        "I/3/5 is disrupted (7.6)",
        f"{red} acts: fire (6.3) (12.0)",
        f"{red} fires on the column of a position with all units revealed, hit limit 2 (6.31) (6.3)",
        f"F/2/1 is hit by {red}, intense fire: a step lost (6.3)",
        "F/2/1 loses a step (3 left) (6.32)",
        "Japanese artillery: 1 occupied artillery position(s), 6 needed (6.5)",
        "J24 (1 FT) at 0326 (A12) loses its disruption (6.42)",
        "VI. U.S. Action Phase (4.0)",
    ]
    assert texts(core, log, after, TRUTH) == truth
    us_view = texts(core, log, after, US)
    assert us_view[:-2] == truth[:-2] and us_view[-2:] == [
        "an unseen counter at 0326 (A12) loses its disruption (6.42)", "VI. U.S. Action Phase (4.0)"]
    hit = log[5]
    assert hit["kind"] == "hit" and hit["rule"] == "6.3" and hit["args"] == {
        "unit": b.unit("B/1/5"), "group": b.group("A15"), "dot": ev.DOT_INTENSE, "effect": ev.EFF_BOTH}
    assert after.phase[0] == P_ACT_SELECT


def test_peleliu_12_5_reinforce_action_brings_a_face_down_unit_the_us_cannot_name():
    """12.0 example (turn 10, card 17: orange [R], blue [P], brown [A] / circle), laid out as in
    test_peleliu_actions.py.  Orange: B13/B14 cannot trace communication -> Re-Supply (12.3) places
    no depth marker, and the lone unit fires; then the empty orange positions in communication
    within three hexes of a U.S. unit take the Reinforce action (12.5): on this map A5 (0314), A14
    (0611) and C9 (1112), west to east, each a reserve unit and a depth marker from the pool, face
    down (9.3, 9.21: drawn at random).  The picks take the last of each (J42 of J40-J42 and marker
    30 of 10, 20, 30), then the last of those left (J41, 20), then the one left (J40, 10).  The U.S.
    reads where each counter enters and why, never which counter it is; the whole truth names
    them."""
    b = Board(turn=10)
    assert (b.pos_hexnum("A5"), b.pos_hexnum("A14"), b.pos_hexnum("C9")) == (314, 611, 1112)
    assert all(b.colour(p) == "orange" for p in ("A5", "A14", "C9", "B13"))
    b.jp(716, "J30")
    b.jp(613, "J31")
    b.jp(712, "J33")
    b.jp(1016, "J22", depth=26)
    b.jp(1110, "J35")
    b.jp(1210, "J36")
    b.reserve("J40", "J41", "J42")
    b.depth_pool(10, 20, 30)
    for n, h, s in [("G/2/1", 717, 4), ("L/3/1", 715, 3), ("A/1/5", 614, 4), ("HQ/1/5", 614, 2), ("C/1/5", 412, 3),
                    ("I/3/5", 412, 3), ("E/2/1", 916, 4), ("F/2/1", 917, 4), ("K/3/1", 1013, 4)]:
        b.us(n, h, steps=s)
    core = b.core
    state = decision(b, ST_FIRE_START, P_HERO_PLACE)
    # picks: the reserve unit, then the depth marker, for each of the three positions in turn
    after, log = step(core, state, unit(b, "K/3/1"), forced=[card(17)], picks=[2, 2, 1, 1, 0, 0])
    truth = texts(core, log, after, TRUTH)
    us_view = texts(core, log, after, US)
    marker = lambda d: ev.marker_words(b.sc, d)   # noqa: E731 - "depth marker #30 (2 BZ)": counters.yaml
    entered = [i for i, e in enumerate(log) if e["kind"] in ("enters", "depth placed")]
    assert [truth[i] for i in entered] == [
        "J42 (2 NA) enters from the reserve box at 0314 (A5), by the Reinforce action (12.5) (9.0)",
        f"{marker(30)} is placed face down under J42 (2 NA) at 0314 (A5) (9.21)",
        "J41 (2 BR FL) enters from the reserve box at 0611 (A14), by the Reinforce action (12.5) (9.0)",
        f"{marker(20)} is placed face down under J41 (2 BR FL) at 0611 (A14) (9.21)",
        "J40 (2 FT) enters from the reserve box at 1112 (C9), by the Reinforce action (12.5) (9.0)",
        f"{marker(10)} is placed face down under J40 (2 FT) at 1112 (C9) (9.21)",
    ]
    assert [us_view[i] for i in entered] == [
        "an unseen counter enters from the reserve box at 0314 (A5), by the Reinforce action (12.5) (9.0)",
        "an unseen counter is placed face down under an unseen counter at 0314 (A5) (9.21)",
        "an unseen counter enters from the reserve box at 0611 (A14), by the Reinforce action (12.5) (9.0)",
        "an unseen counter is placed face down under an unseen counter at 0611 (A14) (9.21)",
        "an unseen counter enters from the reserve box at 1112 (C9), by the Reinforce action (12.5) (9.0)",
        "an unseen counter is placed face down under an unseen counter at 1112 (C9) (9.21)",
    ]
    # the raw records are the truth; what the U.S. reads differs only where a counter is face down
    views = core.events_for(log, after, 0, US)
    assert [e["args"]["jp"] for e in views if e["kind"] == "enters"] == [None, None, None]
    assert [e["args"]["jp"] for e in log if e["kind"] == "enters"] == [b.jp_unit(n) for n in ("J42", "J41", "J40")]
    assert [e["kind"] for e in log].count("acts") >= 4
    assert "B13/B14 (orange) acts: Re-Supply [R] (12.3) (12.0)" in truth
    assert "B12 (blue) acts: Patrol [P] (12.6) (12.0)" in truth
    assert "F/2/1 is hit by Japanese artillery: an Artillery Fire action [A] (12.7) (6.5)" in truth
    assert "J22 (1 BR) assaults from 1016 (B19) into the U.S. units at 0917 (12.8)" in truth


# -------------------------------------------------------------------------------------- attacks
def test_peleliu_8_3_attack_example_3_keeps_the_depth_marker_drawn_and_an_elite_strength_from_the_us():
    """8.3 example 3: B/1/5 (4 steps, strength 7, BZ) attacks the lone J02 (elite, 4, BZ FL) in
    buildings B19 (1016) from 0917: 8.3 step 1 reveals it; 4 x 2 = 8 > 7, FL unmet -> the upper
    section, unit alone, 'less': the attacker is disrupted and a depth marker is drawn from the pool
    and placed face down (9.21).  The pick chooses the pool's third marker (the pool holds 10, 15,
    26).  The U.S. reads the attack, not the marker; and since an elite unit may withdraw face
    down (8.33), the attack's numbers keep its strength from the U.S. (the counter, face up, shows
    it)."""
    b = Board(turn=7)
    assert b.terrain(1016) == "buildings" and b.pos_hexnum("B19") == 1016 and b.dist(917, 1016) == 1
    j = b.jp(1016, "J02")
    b.jp(1115)
    b.jp(1215)
    b.us("B/1/5", 917)
    b.us("A/1/1", 916)              # another unit able to act: the Action Phase waits after the attack
    b.depth_pool(10, 15, 26)
    start_actions(b.T, b.S, 0)
    core = b.core
    state = decision(b, ST_ACTIONS, P_ACT_SELECT)
    for a in (unit(b, "B/1/5"), special(b, ATTACK), b.hex(1016)):   # select, the order, the target
        state, log = step(core, state, a)
        assert log == []
    after, log = step(core, state, special(b, RESOLVE), picks=[2])
    assert after.jp_depth[0, j] == 26 and not after.dm_rev[0, 26] and after.us_dis[0, b.unit("B/1/5")] == DIS_NEW
    attack = "attack on J02 (elite 4 BZ FL) at 1016 (B19): U.S. strength 7 against {}, lacking a required weapon: " \
             "a depth marker added, the attackers disrupted (8.3)"
    assert texts(core, log, after, TRUTH) == [
        "J02 (elite 4 BZ FL) at 1016 (B19) is revealed (9.1)",
        attack.format(8),
        "B/1/5 is disrupted (7.6)",
        f"{ev.marker_words(b.sc, 26)} is placed face down under J02 (elite 4 BZ FL) at 1016 (B19) (9.21)",
    ]
    assert texts(core, log, after, US) == [
        "J02 (elite 4 BZ FL) at 1016 (B19) is revealed (9.1)",
        attack.format("?"),
        "B/1/5 is disrupted (7.6)",
        "an unseen counter is placed face down under J02 (elite 4 BZ FL) at 1016 (B19) (9.21)",
    ]
    assert log[1]["kind"] == "attack, unit may turn face down" and log[1]["args"]["jp_strength"] == 8


def test_peleliu_8_4_and_8_6_the_barrage_entry_and_close_combat_examples_are_logged_card_by_card():
    """8.3 examples 4 and 5 and the close combat example, played as the book plays them, in turn 7.

    8.4: LVT/1 (strength 2, circle) in 0415 barrages the revealed J16 in blue A8 (0216): card 2
    shows blue and the triangle -> 'colour only', the 2-strength column -> no effect.  7.4: C/1/5
    (3 steps) and HQ/1/5 (2), in command of RHQ/5, enter 0216 together (7.21).  END: the close
    combat (8.6), the cards forced as in test_peleliu_close_combat.py: step 1 reveals depth marker
    10; step 2 draws 4 U.S. cards for 5 steps + 1 for the flamethrower, 4 Japanese for the unit,
    the depth marker, a strength of 4 and J16's CC.  Japanese card 1 (7) blue: a hit, the top U.S.
    card discarded, the step the player removes from C/1/5.  U.S. card 1 (12) Heroism and blue
    (8.7): a card added to the U.S. pile, the top Japanese card discarded, then the hit: another
    discarded and J16 disrupted.  Japanese card 2 (13): nothing.  U.S. card 2 (20): nothing; the
    Japanese pile is empty: U.S. card 3 (27), Reinforce without blue: a card added to the Japanese
    pile (the unit keeps its depth marker).  Japanese card 3 (17) blue: the top U.S. card
    discarded, a step lost: the player flips HQ/1/5.  U.S. card 4 (4) blue: J16 is disrupted, so
    its depth marker is eliminated.  Both piles exhausted (8.62): the U.S. units go back to 0215,
    disrupted; J16 stays.  Withdrawal (8.63) is offered after each Japanese card and declined."""
    b = Board(turn=7)
    assert b.pos_hexnum("A8") == 216 and b.colour("A8") == "blue" and b.terrain(216) == "clear"
    assert BLUE in b.sc.card_colour[card(2)] and SYMBOLS[b.sc.card_symbol[card(2)]] == "triangle"
    b.jp(216, "J16", rev=True, depth=10)
    b.us("LVT/1", 415)
    b.us("C/1/5", 215, steps=3)
    b.us("HQ/1/5", 215)
    b.us("RHQ/5", 315)
    start_actions(b.T, b.S, 0)
    core = b.core
    state = decision(b, ST_ACTIONS, P_ACT_SELECT)
    state, _ = step(core, state, unit(b, "LVT/1"))
    state, _ = step(core, state, special(b, BARRAGE))
    state, log = step(core, state, b.hex(216), forced=[card(2)])
    assert texts(core, log, state, US) == texts(core, log, state, TRUTH) == [
        "LVT/1 barrages 0216 (A8) with strength 2: card #2 (purple, blue, brown; target triangle): no effect (8.4)"]
    assert state.card_pile[0, card(2)] == PILE_TRACK
    entered = []
    for a in (unit(b, "C/1/5"), special(b, ENTER), b.hex(216), unit(b, "HQ/1/5")):
        state, log = step(core, state, a)
        entered += texts(core, log, state, US)
    assert entered == ["C/1/5 enters the Japanese-occupied hex 0216 (A8) from 0215 (7.4)",
                       "HQ/1/5 enters the Japanese-occupied hex 0216 (A8) from 0215 (7.4)"]
    cards = [4, 9, 27, 12, 10, 13, 14, 15, 7, 20, 17]
    said = []
    state, log = step(core, state, special(b, END), forced=[card(n) for n in cards])
    said += texts(core, log, state, US)
    assert state.phase[0] == P_CC_LOSS
    for a in (unit(b, "C/1/5"), special(b, NO), special(b, NO), unit(b, "HQ/1/5"), special(b, NO)):
        assert state.phase[0] in (P_CC_LOSS, P_CC_WITHDRAW)
        state, log = step(core, state, a)
        said += texts(core, log, state, US)
    us_card = "U.S. card: card #{} ({}): {}, close combat event {} (8.6)"
    jp_card = "Japanese card: card #{} ({}): {}, close combat event {} (8.6)"
    sc = b.sc

    def colours(n):
        event = int(sc.card_cc[card(n)])
        return ", ".join(COLOURS[c] for c in sc.card_colour[card(n)]) + (
            f"; close combat event {ev.CC_WORDS[event]}" if event else "; no close combat event")

    assert until(said, "VII.") == [
        "VI.2 close combat (4.0)",
        "depth marker #10 (2 BR) under J16 (elite 2 CC) at 0216 (A8) is revealed (9.1)",
        "close combat at 0216 (A8) against J16 (elite 2 CC), U.S. units entered it (7.4), in blue: 5 U.S. and "
        "4 Japanese card(s) (8.6)",
        jp_card.format(7, colours(7), "a hit", "none"),
        "the top card of the U.S. pile, card #10, is discarded (8.6)",
        "C/1/5 loses a step (2 left) (6.32)",
        us_card.format(12, colours(12), "a hit", "Heroism"),
        "a card is added to the U.S. pile (8.7)",
        "the top card of the Japanese pile, card #15, is discarded (8.6)",
        "the top card of the Japanese pile, card #14, is discarded (8.6)",
        "J16 (elite 2 CC) at 0216 (A8) is disrupted (6.4)",
        jp_card.format(13, colours(13), "no effect", "none"),
        us_card.format(20, colours(20), "no effect", "none"),
        us_card.format(27, colours(27), "no effect", "Reinforce"),
        "a card is added to the Japanese pile (8.7)",
        jp_card.format(17, colours(17), "a hit", "none"),
        "the top card of the U.S. pile, card #9, is discarded (8.6)",
        "HQ/1/5 loses a step (1 left) (6.32)",
        us_card.format(4, colours(4), "a hit", "none"),
        "depth marker #10 (2 BR) under J16 (elite 2 CC) at 0216 (A8) is eliminated (9.23)",
        "the close combat at 0216 (A8) ends: both sides' cards are exhausted (8.62) (8.6)",
        "C/1/5 leaves the close combat at 0216 (A8) for 0215 (8.62)",
        "C/1/5 is disrupted (7.6)",
        "HQ/1/5 leaves the close combat at 0216 (A8) for 0215 (8.62)",
        "HQ/1/5 is disrupted (7.6)",
        "VII. End of Turn (4.0)",
    ]
    assert (b.steps("C/1/5"), b.steps("HQ/1/5")) == (3, 2)      # the board's own copy is untouched
    assert [int(state.us_steps[0, b.unit(n)]) for n in ("C/1/5", "HQ/1/5")] == [2, 1]
    assert state.dm_loc[0, 10] == DM_OUT


def test_peleliu_8_6_a_close_combat_whose_cards_are_shuffled_back_is_told_to_the_us_by_its_end():
    """The close combat example again (C/1/5 and HQ/1/5 in 0216 against J16 with depth marker 10,
    the same forced cards), with 40 of the other cards in the discard pile: the step that declines
    the last withdrawal reveals U.S. card 4 (blue: J16's depth marker eliminated), exhausts both
    piles (8.62), and ends the turn, whose discards (51) outnumber the deck (3) and are shuffled
    back into it (4.0 VII) with card 4.  The U.S. may not tell which card that was, nor, from the
    position after, what it decided: its log tells the combat's course in one line, then its end
    and where the survivors went (not which disruptions the end adds to those of the course: the
    position shows them all); the whole truth tells it card by card."""
    cards = [4, 9, 27, 12, 10, 13, 14, 15, 7, 20, 17]
    b = Board(turn=7)
    b.jp(216, "J16", rev=True, depth=10)
    for n, steps in (("C/1/5", 3), ("HQ/1/5", 2)):
        u = b.us(n, 216, steps=steps)
        b.state.us_from[0, u] = b.hex(215)
        b.state.us_acted[0, u] = True
    b.us("RHQ/5", 315)                          # may still act: the Action Phase waits for END
    s = b.state
    others = [c for c in range(54) if c not in {card(n) for n in cards}]
    s.card_pile[0, others[:40]] = PILE_DISCARD
    s.card_pos[0, others[:40]] = np.arange(40)
    deck = others[40:] + [card(n) for n in cards]
    s.card_pos[0, deck] = np.arange(len(deck))
    start_actions(b.T, b.S, 0)
    core = b.core
    state = decision(b, ST_ACTIONS, P_ACT_SELECT)
    state, _ = step(core, state, special(b, END), forced=[card(n) for n in cards])
    for a in (unit(b, "C/1/5"), special(b, NO), special(b, NO), unit(b, "HQ/1/5")):
        state, _ = step(core, state, a)
    assert state.phase[0] == P_CC_WITHDRAW
    after, log = step(core, state, special(b, NO))
    assert after.turn[0] == 8 and after.card_pile[0, card(4)] == PILE_DECK
    ends = ["the close combat at 0216 (A8) ends: both sides' cards are exhausted (8.62) (8.6)",
            "C/1/5 leaves the close combat at 0216 (A8) for 0215 (8.62)",
            "C/1/5 is disrupted (7.6)",
            "HQ/1/5 leaves the close combat at 0216 (A8) for 0215 (8.62)",
            "HQ/1/5 is disrupted (7.6)",
            "VII. End of Turn (4.0)"]
    truth = until(texts(core, log, after, TRUTH), "VII.")
    assert truth[-7:] == ["depth marker #10 (2 BR) under J16 (elite 2 CC) at 0216 (A8) is eliminated (9.23)"] + ends
    assert truth[0].startswith("U.S. card: card #4 (") and len(truth) == 8
    assert until(texts(core, log, after, US), "VII.") == [
        "the close combat at 0216 (A8) runs its course with cards since shuffled into the deck (8.6)"] + [
        t for t in ends if not t.endswith("is disrupted (7.6)")]
    assert all(after.us_dis[0, b.unit(n)] != 0 for n in ("C/1/5", "HQ/1/5"))   # the position shows them


def test_peleliu_4_0_a_card_shuffled_back_into_the_deck_is_not_named_to_the_us():
    """4.0 VII: at the end of the turn the discards, when they clearly outnumber the deck, are
    shuffled back into it.  LVT/1 is the only U.S. unit able to act: once it has barraged 0216
    (8.4, card 2: no effect) only END is left, which the engine takes by itself; the turn ends in
    the same step and card 2, on the card track, goes back into the shuffled deck with the
    discards.  The U.S. can no longer tell which card it was, so its log reads neither the card
    nor what it decided; the whole truth does."""
    b = Board(turn=7)
    b.jp(216, "J16", rev=True, depth=10)
    b.us("LVT/1", 415)
    b.us("C/1/5", 215, steps=3)                 # observes for the tank (8.4)
    b.us("RHQ/5", 315)
    s = b.state
    s.card_pile[0, :40] = PILE_DISCARD          # 40 discards against a deck of 14
    s.card_pos[0, :40] = np.arange(40)
    s.card_pos[0, 40:] = np.arange(14)
    start_actions(b.T, b.S, 0)
    for name in ("C/1/5", "RHQ/5"):
        s.us_acted[0, b.unit(name)] = True       # they have acted this phase (7.2): only LVT/1 may
    core = b.core
    state = decision(b, ST_ACTIONS, P_ACT_SELECT)
    state, _ = step(core, state, unit(b, "LVT/1"))
    state, _ = step(core, state, special(b, BARRAGE))
    after, log = step(core, state, b.hex(216), forced=[card(41)])
    assert after.turn[0] == 8 and after.card_pile[0, card(41)] == PILE_DECK
    truth, us_view = texts(core, log, after, TRUTH), texts(core, log, after, US)
    assert truth[0] == "LVT/1 barrages 0216 (A8) with strength 2: card #41 ({}): {} (8.4)".format(
        ev.card_words(b.sc, card(41), "draw"), read(core, "barrage", log[0]["args"]["result"]))
    assert us_view[0] == "LVT/1 barrages 0216 (A8) with strength 2: a card since shuffled into the deck (8.4)"
    assert core.events_for(log, after, 0, US)[0]["args"] == {
        "unit": b.unit("LVT/1"), "hex": b.hex(216), "strength": 2, "card": None, "result": None}
    # the 40 discards and card 41 from the card track (4.0 VII) against the deck's 13; how many
    # there were, the U.S. can no longer count once they are shuffled in
    reshuffle = "the discard pile holds more cards than the deck: its {} cards are shuffled back into the deck (4.0)"
    assert reshuffle.format(41) in truth and reshuffle.format("?") in us_view


# ---------------------------------------------------------------------------------- the log itself
def test_peleliu_the_log_is_off_unless_asked_and_a_logged_step_leaves_the_same_state():
    b = Board(turn=3)
    b.jp(620, "J22", depth=26)
    b.us("B/1/5", 421)
    b.us("G/2/1", 425)
    core = b.core
    state = core.force(decision(b, ST_FIRE_START, P_HERO_PLACE), [card(34)])
    plain = core.step(state, np.array([unit(b, "G/2/1")]))
    assert not event_log.OFF["ev_on"][0] and event_log.OFF["ev_n"][0] == 0   # every emit wrote nothing
    logged, log = core.step_logged(state, np.array([unit(b, "G/2/1")]))
    assert len(log[0]) > 5
    assert plain.arrays().keys() == logged.arrays().keys()
    assert all(np.array_equal(a, b) for a, b in zip(plain.arrays().values(), logged.arrays().values()))


@pytest.mark.parametrize("scenario", ["sept15", "bnr"])
def test_peleliu_every_event_kind_is_declared_once_and_reads_in_words(scenario):
    """Each kind's template takes exactly its arguments, and every argument type reads in words
    for the core (Peleliu's own types: eventlog.value_words) and hides as a unit, card or counter."""
    core = make_core(scenario)
    assert core.event_kinds is ev.KINDS and len({k.name for k in ev.KINDS}) == len(ev.KINDS)
    sample = {"int": 1, "hex": 0, "place": int(core.scenario.pos_hex[0]), "unit": 0, "card": 0, "purpose": 0,
              "result": 0, "group": 0, "box": 0, "colour": 0, "action": 1, "attack": 1, "barrage": 1, "cc_event": 2,
              "outcome": 1, "item:J": 0, "item:D": 0}
    for kind in ev.KINDS:
        assert len(kind.args) <= event_log.ARGS
        words = {a: read(core, t, sample[t]) for a, t in kind.args}
        text = kind.text.format(**words)
        assert "{" not in text and "?" not in text, kind.name
        hidden = {a: read(core, t, None) for a, t in kind.args}
        kind.text.format(**hidden)
    assert event_log.axis_of("item:J") == "J" and read(core, "item:J", None) == "an unseen counter"
    sc = core.scenario
    for c in range(len(sc.card_symbol)):      # every section of every card, every turn's event (2.3)
        for section in ("landing", "fire", "draw", "close combat"):
            assert ev.card_words(sc, c, section)
        assert all(ev.card_words(sc, c, "event", t).startswith(("BNR:", f"turn {t}:")) for t in range(25))
    assert ev.PURPOSES[ev.DOT_INTENSE] == "intense fire" and ev.RESULTS[ev.EFF_BOTH] == "a step lost and disrupted"
