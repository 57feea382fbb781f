"""The turn sequence (3.0-3.9, 9.5, 9.7), game length (12.1), set-up and start (12.2-12.6),
the solitaire Victory Hex defence and victory (13.2, 13.4, 13.6), the optional Victory Point chits
(14.0) and the short scenarios' standard rules (15.0), worked by hand with the dice fixed.

Most tests lay out a board (``attu_board.Board``) and drive it through ``core.step`` with actions
the legal mask offers, so the decision machine of sequence.py is checked with the rule."""

from __future__ import annotations

import numpy as np
import pytest

from attu_board import Board, core, make_core  # noqa: F401  (core: the session fixture)
from wargym.attu.actions import END, HOLD, LZ_0, MELEE_0, NO, RESERVE, SLOT_0, YES
from wargym.attu.fog import reveal_unknowns
from wargym.attu.scenario import (
    CLOUDY, FOG, INFANTRY, JAPAN, RAIN, STAGING_D_TO_G, STAGING_H_OR_I, TURN_0_DATE, UNKNOWN, US, WILLIWAW,
)
from wargym.attu.state import (
    ACT_ORDER, ACT_SELECT, ADVANCE, DEPOT, INDEPENDENT, JP_SETUP, LOC_ELIM, LOC_MAP, LOC_NONE, LOC_RESERVE,
    LOC_STAGING, MELEE_PICK, NIGHT_DECISION, NO_CHIT, PHASE_NAMES, REFIT_ALLOC, REFIT_DECISION, REINF_PICK,
    RETREAT, RETREAT_OPTION, SLOT, SWAP_PICK, UNKNOWN_PICK, US_STAGING, US_WAIT,
)
from wargym.attu.victory import check_immediate

VICTORY_HEXES = (1425, 2011, 2117, 2717, 3409, 3622)     # 3.8.1, zones t h j e v a
RIFLES = ("1/17 A", "1/17 B", "1/17 C", "1/17 D", "2/17 E", "2/17 F")
REFIT_STEPS = (REFIT_ALLOC, REINF_PICK, INDEPENDENT, DEPOT, UNKNOWN_PICK, SWAP_PICK)


# ------------------------------------------------------------------------------------ helpers
def special(core, k: int) -> int:
    return core.tables.nbr.shape[0] + k


def act(core, state, action: int):
    """One decision through ``core.step``; the action must be in the legal mask."""
    assert state.legal_action_mask[0, action], \
        f"{core.describe_action(action, state)} is not legal in {PHASE_NAMES[int(state.phase[0])]}"
    return core.step(state, np.array([action]))


def hexes_offered(core, state) -> set[int]:
    """The printed numbers of the hexes in the legal mask."""
    h = core.tables.nbr.shape[0]
    return {core.scenario.grid.number(int(x)) for x in np.flatnonzero(state.legal_action_mask[0, :h])}


def dice_used(state, forced: int) -> int:
    return forced - int(state.forced_n[0])


def board(core, phase=ACT_SELECT, acting=US, first=US, act_step=0, night=False, **fields) -> Board:
    """A hand-laid board at ``phase`` of a turn (no airpower, Cloudy unless told)."""
    b = Board(core)
    b.set(phase=phase, acting=acting, first=first, act_step=act_step, night=night, airpower=0)
    b.set(**fields)
    return b


def end_of_step_6(core, **fields) -> Board:
    """A day turn at Step 6 (Japan, the second player, acting): its END closes the actions."""
    return board(core, acting=JAPAN, first=US, act_step=1, **fields)


def pass_turn(core, state):
    """The rest of a turn with nothing done: no Refit Turn, no Night Turn (the weather die 1
    keeps Cloudy on the Cloudy line, airpower dice 1 give no factors), every step ended at once."""
    turn = state.turn[0]
    while not state.terminated[0] and state.turn[0] == turn:
        ph = int(state.phase[0])
        if ph == REFIT_DECISION:
            state = act(core, state, special(core, NO))
        elif ph == NIGHT_DECISION:
            state = act(core, core.force(state, [1, 1, 1]), special(core, NO))
        elif ph == ACT_SELECT:
            state = act(core, state, special(core, END))
        else:
            raise AssertionError(f"unexpected decision {PHASE_NAMES[ph]}")
    return state


def refit_turn(core, state, dice=(1, 1, 1)):
    """3.1 yes: a Refit Turn with weather and recovery dice ``dice``, every step ended at once."""
    state = act(core, core.force(state, list(dice)), special(core, YES))
    while not state.terminated[0] and state.phase[0] in REFIT_STEPS:
        state = act(core, state, special(core, END))
    return state


def direction(core, a: int, b: int) -> int:
    """The direction from printed hex a to its neighbour b."""
    g = core.scenario.grid
    return int(np.flatnonzero(core.tables.nbr[g.index(a)] == g.index(b))[0])


def declare(core, state, from_hex: int, target_hex: int):
    """Steps 5/6: the unit alone in ``from_hex`` declares Melee against ``target_hex`` (8.2)."""
    state = act(core, state, core.scenario.grid.index(from_hex))
    assert state.phase[0] == ACT_ORDER
    return act(core, state, special(core, MELEE_0 + direction(core, from_hex, target_hex)))


def melee_dice(core, name_or_unit, steps: int) -> int:
    u = core.scenario.unit_names.index(name_or_unit) if isinstance(name_or_unit, str) else name_or_unit
    return int(core.scenario.unit_melee[u, steps - 1])


@pytest.fixture(scope="module")
def plain():
    """The campaign without the heroes (11.0 is each player's option), so that no Joe Martinez
    decision comes between the Melee rounds these tests count."""
    return make_core("campaign", heroes=False)


# --------------------------------------------------------------------------------- 3.1 refit
def test_attu_3_1_refit_turn_replaces_the_sequence_and_may_be_repeated(core):
    """3.1: a Refit Turn replaces Steps 2-9; "There may be consecutive Refit Turns."

    Turn 3, Cloudy, Casualty Track 3, one full-strength company (nothing to refit, no
    reinforcement waiting).  Yes to 3.1 with dice 5, 5, 5: the Refit Turn's weather die 5 on the
    Cloudy line gives Rain (3.3: 4-8), then the two Loss Recovery dice (9.1), and the track is
    reset to 0.  No Night decision, no airpower dice (3.4 would roll two more), no actions: the
    next decision is the Refit decision of turn 4 (9.7).  A second yes at turn 4 (dice 1, 1, 1:
    die 1 on the Rain line is Cloudy) goes straight on to turn 5.  No to 3.1 leads to Step 2."""
    b = board(core, phase=REFIT_DECISION, casualties=3, weather=CLOUDY)
    b.place("1/17 A", 2410)
    b.place(b.japanese(), 3311)
    state = core.refresh(b.state)
    assert state.current_player[0] == US and hexes_offered(core, state) == set()
    state = core.force(state, [5, 5, 5])
    state = act(core, state, special(core, YES))
    while state.phase[0] in REFIT_STEPS:                 # each step ended (9.1-9.6)
        state = act(core, state, special(core, END))
    assert dice_used(state, 3) == 3
    assert state.phase[0] == REFIT_DECISION and state.turn[0] == 4
    assert state.weather[0] == RAIN and state.casualties[0] == 0
    assert state.airpower[0].tolist() == [0, 0]
    assert state.unit_hex[0, b.unit("1/17 A")] == b.hex(2410)
    state = refit_turn(core, state, (1, 1, 1))           # consecutive
    assert state.phase[0] == REFIT_DECISION and state.turn[0] == 5 and state.weather[0] == CLOUDY
    state = act(core, state, special(core, NO))
    assert state.phase[0] == NIGHT_DECISION and state.turn[0] == 5


# --------------------------------------------------------------------------------- 3.2 night
@pytest.mark.parametrize("night", [False, True])
def test_attu_3_2_night_turn_makes_japan_first_player(core, night):
    """3.2: "The Japanese player is the first player during a Night Turn"; 3.5: the U.S. is by
    day.  Dice 1, 1, 1: weather stays Cloudy (Cloudy line 1-3), both airpower rolls 1 give 0
    factors (3.4).  The first player's Step 5 offers only its own units; after its END the other
    side acts (Step 6).  The next turn is a day turn until declared again, and the declaration is
    offered again ("There may be consecutive Night Turns")."""
    b = board(core, phase=NIGHT_DECISION)
    b.place("1/17 A", 2410)
    b.place(b.japanese(), 3311)
    state = core.refresh(b.state)
    assert state.current_player[0] == US                  # the U.S. decides 3.2
    state = act(core, core.force(state, [1, 1, 1]), special(core, YES if night else NO))
    first, second = (JAPAN, US) if night else (US, JAPAN)
    own = {US: {2410}, JAPAN: {3311}}
    assert bool(state.night[0]) == night and state.weather[0] == CLOUDY
    assert state.phase[0] == ACT_SELECT and state.current_player[0] == first
    assert hexes_offered(core, state) == own[first]
    state = act(core, state, special(core, END))
    assert state.phase[0] == ACT_SELECT and state.current_player[0] == second
    assert hexes_offered(core, state) == own[second]
    state = act(core, state, special(core, END))
    assert state.turn[0] == 4 and state.phase[0] == REFIT_DECISION and not state.night[0]
    state = act(core, state, special(core, NO))
    assert state.phase[0] == NIGHT_DECISION and state.legal_action_mask[0, special(core, YES)]


# ------------------------------------------------------------------------------ 3.5 / 3.6 actions
def test_attu_3_5_each_unit_acts_once_and_the_second_player_acts_after_the_first(core):
    """3.5: the first player activates "his units, one by one", each performing one action;
    3.6: then the second player.  1/17 A (1514) moves to 1515; of 1/17 B and C stacked in 2410,
    B holds, then C holds (selecting the hex again offers the unit that has not acted, without a
    slot choice); a unit that acted is not offered again.  With every U.S. unit done, the U.S.
    step ends (its only choice) and the Japanese unit in 3311, never offered to the U.S., is
    offered to Japan; after Japan's END there is no Melee,
    and the turn ends (turn 3 -> 4)."""
    b = board(core)
    a = b.place("1/17 A", 1514)
    bb = b.place("1/17 B", 2410)
    c = b.place("1/17 C", 2410)
    b.place(b.japanese(), 3311)
    state = core.refresh(b.state)
    assert state.current_player[0] == US and hexes_offered(core, state) == {1514, 2410}
    state = act(core, state, b.hex(1514))
    assert state.phase[0] == ACT_ORDER and state.selected[0] == a
    state = act(core, state, b.hex(1515))
    assert state.unit_hex[0, a] == b.hex(1515) and state.acted[0, a]
    assert hexes_offered(core, state) == {2410}           # A moved: not selectable again
    state = act(core, state, b.hex(2410))
    assert state.phase[0] == SLOT                         # two units in the hex
    state = act(core, state, special(core, SLOT_0))
    assert state.phase[0] == ACT_ORDER and state.selected[0] == bb
    state = act(core, state, special(core, HOLD))
    assert hexes_offered(core, state) == {2410}
    state = act(core, state, b.hex(2410))
    assert state.phase[0] == ACT_ORDER and state.selected[0] == c   # only C is left to act
    state = act(core, state, special(core, HOLD))
    # every U.S. unit has acted: END is the U.S. player's only choice and is taken for it
    assert state.acting[0] == JAPAN and state.act_step[0] == 1 and state.current_player[0] == JAPAN
    assert hexes_offered(core, state) == {3311}
    state = act(core, state, special(core, END))
    assert state.turn[0] == 4 and state.phase[0] == REFIT_DECISION
    assert not state.acted[0].any()                       # a new turn: every unit may act again


# ---------------------------------------------------------------------------------- 3.7 melee
# Five Melees, each settled by dice [1, 1, 1, 10]: every attacker here has 1 step left or is a
# one-step Japanese Infantry, so 1 hit empties the defending hex.  A U.S. attack (1-step rifle
# company, 1 die) on Japanese Infantry (3 dice, counters.yaml, reconstructed): defensive 1, 1, 1
# (a natural 1 never reaches 7 with these modifiers), offensive 10 (a natural '0' always hits,
# 8.0).  A Japanese attack on a 1-step company: defensive 1, offensive 1, 1, 10: one hit.
ONE_HIT = [1, 1, 1, 10]
US_ATTACKS = ((1514, 1513), (2516, 2515), (3312, 3311))     # (U.S. hex, Japanese hex)
JP_ATTACKS = ((2409, 2410), (1911, 1910))                   # (Japanese hex, U.S. hex)


def melee_board(core, night: bool) -> Board:
    first = JAPAN if night else US
    b = board(core, night=night, acting=first, first=first)
    japanese = []
    for k, (us, jp) in enumerate(US_ATTACKS):
        b.place(RIFLES[k], us, steps=1)
        japanese.append(b.place(b.japanese(), jp))
    for k, (jp, us) in enumerate(JP_ATTACKS):
        japanese.append(b.place(b.japanese(), jp))
        b.place(RIFLES[3 + k], us, steps=1)
    assert melee_dice(core, RIFLES[0], 1) == 1 and all(melee_dice(core, j, 1) == 3 for j in japanese)
    return b


def declare_all(core, state, side: int):
    """``side``'s Player Actions: its Melees of US_ATTACKS / JP_ATTACKS declared, then END (unless
    every unit has acted, when END is taken for it)."""
    for a, t in (US_ATTACKS if side == US else JP_ATTACKS):
        state = declare(core, state, a, t)
    if state.phase[0] == ACT_SELECT and state.acting[0] == side:
        state = act(core, state, special(core, END))
    return state


@pytest.mark.parametrize("night", [False, True])
def test_attu_3_7_us_picks_the_first_melee_then_the_players_alternate_reversed_at_night(plain, night):
    """3.7: "The U.S. player selects the first hex activated to engage in combat, followed by the
    Japanese player, with each player sequentially initiating and completing Melee Combat. During
    Night Turns, however, this order is reversed."

    Declared: U.S. against 1513, 2515, 3311; Japan against 2410, 1910.  Each picker takes the
    lowest-numbered hex it is offered; a pick with one hex left is made for the picker.  Each
    Melee ends with the defending hex empty and the attacker offered the advance (declined).
    Day: U.S. picks 1513 (of 1513, 2515, 3311), Japan 1910 (of 1910, 2410), U.S. 2515 (of 2515,
    3311), Japan 2410, U.S. 3311: the attackers alternate U.S., Japan, U.S., Japan, U.S.
    Night: Japan 1910 (of 1910, 2410), U.S. 1513, Japan 2410, U.S. 2515 (of 2515, 3311), and the
    U.S., Japan having none left, 3311.  Then Steps 8-9: turn 3 -> 4; the two 1-step companies
    attacked are lost (Casualty Track 2)."""
    core = plain
    b = melee_board(core, night)
    state = core.refresh(b.state)
    for side in (JAPAN, US) if night else (US, JAPAN):
        state = declare_all(core, state, side)
    picks, fought = [], []
    while state.turn[0] == 3:
        ph = int(state.phase[0])
        if ph == MELEE_PICK:
            offered = hexes_offered(core, state)
            picks.append((int(state.current_player[0]), offered))
            state = act(core, core.force(state, ONE_HIT), core.scenario.grid.index(min(offered)))
        elif ph == ADVANCE:
            fought.append((int(state.current_player[0]), core.scenario.grid.number(int(state.mel_hex[0]))))
            state = act(core, core.force(state, ONE_HIT), special(core, END))
        else:
            raise AssertionError(f"unexpected decision {PHASE_NAMES[ph]}")
    if night:
        assert picks == [(JAPAN, {1910, 2410}), (US, {1513, 2515, 3311}), (US, {2515, 3311})]
        assert fought == [(JAPAN, 1910), (US, 1513), (JAPAN, 2410), (US, 2515), (US, 3311)]
    else:
        assert picks == [(US, {1513, 2515, 3311}), (JAPAN, {1910, 2410}), (US, {2515, 3311})]
        assert fought == [(US, 1513), (JAPAN, 1910), (US, 2515), (JAPAN, 2410), (US, 3311)]
    assert state.phase[0] == REFIT_DECISION and state.casualties[0] == 2
    sc = core.scenario
    assert not ((state.unit_loc[0] == LOC_MAP) & (sc.unit_side == JAPAN)
                & np.isin(state.unit_hex[0], [b.hex(j) for _, j in US_ATTACKS])).any()


def single_melee(core):
    """1/17 A (1514, 4 steps: 6 melee dice) has declared Melee on a Japanese Infantry in 1513 (3
    dice); Japan's Player Actions step is under way, and its END starts Step 7, where the only
    Melee is picked for the U.S. (one choice)."""
    b = board(core)
    a = b.place("1/17 A", 1514)
    j = b.place(b.japanese(), 1513)
    state = declare(core, core.refresh(b.state), 1514, 1513)
    assert state.acting[0] == JAPAN and state.phase[0] == ACT_SELECT
    return b, state, a, j


def test_attu_3_7_a_melee_goes_on_round_after_round_until_elimination(plain):
    """3.7: "Each Melee Combat continues until the U.S. units retreat or either side's units are
    eliminated."  Round 1: defensive 1, 1, 1 and offensive six 1s, no hit (natural 1s miss); the
    Melee is not over: the U.S. gets its retreat option (8.2.1.3) and declines.  Round 2:
    defensive 1s again, offensive six 10s: the defender is eliminated, 18 dice in all; the Melee
    ends (advance declined) and so does the turn."""
    core = plain
    b, state, a, j = single_melee(core)
    jd, ad = melee_dice(core, j, 1), melee_dice(core, a, 4)
    assert (jd, ad) == (3, 6)
    state = act(core, core.force(state, [1] * (jd + ad)), special(core, END))
    assert dice_used(state, jd + ad) == jd + ad
    assert state.phase[0] == RETREAT_OPTION and state.mel_hex[0] == b.hex(1513)
    assert state.unit_loc[0, j] == LOC_MAP and state.unit_steps[0, a] == 4
    state = act(core, core.force(state, [1] * jd + [10] * ad), special(core, NO))
    assert dice_used(state, jd + ad) == jd + ad
    assert state.unit_loc[0, j] == LOC_ELIM and state.phase[0] == ADVANCE
    state = act(core, state, special(core, END))
    assert state.turn[0] == 4 and state.phase[0] == REFIT_DECISION


def test_attu_3_7_a_melee_ends_when_the_us_retreats(plain):
    """3.7 / 8.2.1.3: the same Melee, round 1 all misses (1s); the U.S. takes its retreat option
    and retreats 1/17 A to 1515, a hex outside the Japanese ZOC (1614 and 1414 are in it).  The
    Melee is over with the Japanese unit still in 1513, and with no other Melee the turn ends."""
    core = plain
    b, state, a, j = single_melee(core)
    state = act(core, core.force(state, [1] * 9), special(core, END))
    assert state.phase[0] == RETREAT_OPTION
    state = act(core, state, special(core, YES))
    assert state.phase[0] == RETREAT and hexes_offered(core, state) == {1415, 1515, 1615}
    state = act(core, state, b.hex(1515))
    assert state.unit_hex[0, a] == b.hex(1515) and state.unit_loc[0, j] == LOC_MAP
    assert state.turn[0] == 4 and state.phase[0] == REFIT_DECISION


# -------------------------------------------------------------------------------- 3.8 Step 8
@pytest.mark.parametrize("retaken", [True, False], ids=["retaken", "held"])
def test_attu_3_8_victory_is_determined_in_step_8_after_the_melees(plain, retaken):
    """3.8: Step 8, "Players check to see if either player has won the game" (3.8.1: the U.S. wins
    if, "during this Step 8, he occupies all six Victory Hexes").  Five companies hold 1425, 2011,
    2117, 2717 and 3409; in Step 5 the 1-step 2/17 F moves from 3522 into the sixth, Alexei Point
    (3622, 2 MP), and the game goes on.  In Step 6 the Japanese platoon in 3721 declares Melee
    against it; in Step 7 (picked for Japan, its only Melee) the company's defensive die, 1,
    misses.  Retaken: the platoon rolls 0, 1, 1 and eliminates the company (one box on the
    Casualty Track); Japan declines the advance, and at Step 8 the U.S. holds five Victory Hexes:
    nobody has won, turn 4 begins.  Held: the platoon rolls 1, 1, 1; the U.S. stays (8.2.1.3), and
    in round 2 its defensive die 0 eliminates the platoon: at Step 8 the U.S. holds all six and
    wins on turn 3."""
    core = plain
    b = board(core)
    for name, h in zip(RIFLES[:5], VICTORY_HEXES[:5]):
        b.place(name, h)
    company = b.place(RIFLES[5], 3522, steps=1)
    platoon = b.place(b.japanese(), 3721)
    assert melee_dice(core, company, 1) == 1 and melee_dice(core, platoon, 1) == 3
    state = act(core, core.refresh(b.state), b.hex(3522))
    state = act(core, state, b.hex(3622))
    assert state.unit_hex[0, company] == b.hex(3622) and not state.terminated[0]
    state = act(core, state, special(core, END))
    assert state.acting[0] == JAPAN and not state.terminated[0]
    state = declare(core, core.force(state, [1] + ([10, 1, 1] if retaken else [1, 1, 1])), 3721, 3622)
    if retaken:
        assert state.unit_loc[0, company] == LOC_ELIM and state.phase[0] == ADVANCE
        state = act(core, state, special(core, END))
        assert not state.terminated[0] and state.turn[0] == 4 and state.casualties[0] == 1
    else:
        assert state.phase[0] == RETREAT_OPTION
        state = act(core, core.force(state, [10]), special(core, NO))
        assert state.unit_loc[0, platoon] == LOC_ELIM and state.unit_hex[0, company] == b.hex(3622)
        assert state.terminated[0] and state.turn[0] == 3 and state.rewards[0, US] == 1.0


# ---------------------------------------------------------------------------- 3.8.3 end of game
@pytest.mark.parametrize("us_hexes,winner", [(VICTORY_HEXES, US), (VICTORY_HEXES[:5], JAPAN)])
def test_attu_3_8_3_japan_wins_at_the_end_of_the_last_turn_unless_the_us_has_won(core, us_hexes, winner):
    """3.8.3: "The Japanese player wins if, at the end of the last game turn, the U.S. player has
    not won."  Turn 3 is the last turn (last_turn 3).  Holding all six Victory Hexes at Step 8
    the U.S. wins (3.8.1) before the turn ends; holding five of six, the game ends at the end of
    the turn with a Japanese win."""
    b = end_of_step_6(core, last_turn=3)
    for name, h in zip(RIFLES, us_hexes):
        b.place(name, h)
    state = act(core, core.refresh(b.state), special(core, END))
    assert state.terminated[0] and state.turn[0] == 3
    assert state.rewards[0, winner] == 1.0 and state.rewards[0, 1 - winner] == -1.0


def test_attu_3_8_3_the_game_goes_on_before_the_last_turn(core):
    """3.8.3: the end comes only after the last turn: at the end of turn 3 with turn 4 the last,
    the turn marker moves on (3.9) to turn 4 and play goes on."""
    b = end_of_step_6(core, last_turn=4)
    b.place("1/17 A", 2410)
    state = act(core, core.refresh(b.state), special(core, END))
    assert not state.terminated[0] and state.turn[0] == 4 and state.phase[0] == REFIT_DECISION


def test_attu_3_8_3_a_refit_turn_can_be_the_last(core):
    """3.8.3 / 9.7: a Refit Turn as the last turn ends the game as well: Japan wins."""
    b = board(core, phase=REFIT_DECISION, last_turn=3)
    b.place("1/17 A", 2410)
    state = refit_turn(core, core.refresh(b.state))
    assert state.terminated[0] and state.rewards[0, JAPAN] == 1.0


# ------------------------------------------------------------------------------- 3.9 / 9.5 hiding
def hiding_board(core, phase) -> tuple[Board, dict]:
    """U.S. 1/17 A in 2817; face-up Japanese Infantry in 2717 (adjacent, but across the 2717/2817
    cliff, so not in the U.S. ZOC: 6.0, 5.7), in 2916 (adjacent, in the ZOC), in 2720 (next to
    Landing Zone E, 2721, two hexes from 1/17 B in 2622, which sees it: 2.5 hides at once a
    revealed unit no U.S. unit sees) and in 3311 (far from everything)."""
    b = board(core, phase=phase) if phase == REFIT_DECISION else end_of_step_6(core)
    b.place("1/17 A", 2817)
    b.place("1/17 B", 2622)
    units = {h: b.place(b.japanese(skip=0), h) for h in (2717, 2916, 2720, 3311)}
    t, g = core.tables, core.scenario.grid
    assert not t.zoc_reach[g.index(2817), direction(core, 2817, 2717)]   # the cliff
    assert t.zoc_reach[g.index(2817), direction(core, 2817, 2916)]
    assert t.near_lz[g.index(2720)] and not t.near_lz[g.index(2717)] and not t.near_lz[g.index(2916)]
    assert t.dist[g.index(2622), g.index(2720)] == 2 and t.sight[g.index(2622), g.index(2720)]
    return b, units


def test_attu_3_9_japanese_units_outside_us_zocs_are_turned_face_down(core):
    """3.9: at Step 9 "flip any Japanese units that are not within an enemy zone of control ...
    over to their hidden side" (README: always taken).  Only the unit in 2916, in the U.S. ZOC,
    stays face-up: 2717 is adjacent but the cliff stops the ZOC; 2720 is by a Landing Zone, which
    matters only in a Refit Turn (9.5); 3311 is far away."""
    b, u = hiding_board(core, ACT_SELECT)
    state = act(core, core.refresh(b.state), special(core, END))
    assert state.turn[0] == 4
    assert {h: bool(state.face_down[0, v]) for h, v in u.items()} == \
        {2717: True, 2916: False, 2720: True, 3311: True}


def test_attu_9_5_refit_turn_hides_units_not_next_to_us_units_nor_by_a_landing_zone(core):
    """9.5: in a Refit Turn the Japanese may flip units "not adjacent to U.S. units, or in or
    adjacent to Landing Zones" (README: always taken).  2717 is adjacent to 1/17 A (the cliff
    does not matter here) and 2916 too: both stay face-up; 2720 is adjacent to Landing Zone E:
    stays face-up; only 3311 is hidden.  No Step 9 flip follows (9.7 has none)."""
    b, u = hiding_board(core, REFIT_DECISION)
    state = refit_turn(core, core.refresh(b.state))
    assert state.turn[0] == 4 and state.phase[0] == REFIT_DECISION
    assert {h: bool(state.face_down[0, v]) for h, v in u.items()} == \
        {2717: False, 2916: False, 2720: False, 3311: True}


# ------------------------------------------------------------------------- 12.1 game length
def komandorski_board(core, turn: int, effect: int, delay: int) -> Board:
    """Turn ``turn``'s Refit decision with the Komandorski chits still hidden (12.1.1, 12.1.2)."""
    b = board(core, phase=REFIT_DECISION, turn=turn, ke_effect=effect, ke_delay=delay, ke_revealed=0,
              last_turn=-1)
    b.place("1/17 A", 2410)
    b.place(b.japanese(), 3311)
    return b


def test_attu_12_1_3_may_24_effect_reveals_the_delay_at_once_and_the_game_ends_after_it(core):
    """12.1.3: entering May 24 (turn 14: turn 1 is May 11, 12.2) reveals the Effect chit; it
    is May 24, so the Delay is revealed too.  Delay 2 (README: the last turn is the reveal turn
    + delay - 1, the reveal turn counted): turns 14 and 15 are played, and Japan wins at the end
    of turn 15, May 25 (3.8.3)."""
    state = core.refresh(komandorski_board(core, 13, 24, 2).state)
    state = pass_turn(core, state)
    assert state.turn[0] == 14 and state.ke_revealed[0] == 2 and state.last_turn[0] == 15
    state = pass_turn(core, state)
    assert state.turn[0] == 15 and not state.terminated[0]
    state = pass_turn(core, state)
    assert state.terminated[0] and state.turn[0] == 15 and state.rewards[0, JAPAN] == 1.0


def test_attu_12_1_3_later_effect_moves_the_delay_to_its_date(core):
    """12.1.3: an Effect of May 27 is revealed on May 24 (turn 14), but the Delay chit goes to
    May 27 and stays hidden (the last turn is not known); entering May 27 (turn 17) reveals it.
    Delay 1: turn 17 is the last (17 + 1 - 1); Japan wins at its end."""
    state = core.refresh(komandorski_board(core, 13, 27, 1).state)
    state = pass_turn(core, state)
    assert state.turn[0] == 14 and state.ke_revealed[0] == 1 and state.last_turn[0] == -1
    for turn in (15, 16):
        state = pass_turn(core, state)
        assert state.turn[0] == turn and state.ke_revealed[0] == 1 and not state.terminated[0]
    state = pass_turn(core, state)
    assert state.turn[0] == 17 and state.ke_revealed[0] == 2 and state.last_turn[0] == 17
    state = pass_turn(core, state)
    assert state.terminated[0] and state.turn[0] == 17 and state.rewards[0, JAPAN] == 1.0


def test_attu_9_7_a_refit_turn_advancing_into_may_24_reveals_the_komandorski_chits(core):
    """9.7: the Refit Turn advances the turn marker too, and "if the marker is advanced into a
    'Komandorski Effect' Box ... flip the KE marker".  Turn 13 (May 23) is a Refit Turn; the
    marker enters May 24 (turn 14): Effect May 30 revealed, Delay 3 still hidden."""
    state = core.refresh(komandorski_board(core, 13, 30, 3).state)
    state = refit_turn(core, state)
    assert state.turn[0] == 14 and state.ke_revealed[0] == 1 and state.last_turn[0] == -1


def test_attu_12_1_1_effect_and_delay_chits_wait_on_may_24_at_the_start(core):
    """12.1.1/12.1.2: at the start one Effect chit (May 24, 27 or 30) and one Delay chit are
    drawn and kept face-down: nothing revealed, the last turn unknown, in each of 32 games."""
    state = core.init(32, 5)
    assert set(state.ke_effect.tolist()) <= {24, 27, 30}
    assert (state.ke_revealed == 0).all() and (state.last_turn == -1).all()


# -------------------------------------------------------------------------- 12.2 / 12.3 set-up
def test_attu_12_2_markers_start_on_may_11_loss_0_weather_fog(core):
    """12.2: "Place the Turn marker on the May 11 space ... the U.S. Loss marker on the '0' space
    ... the Weather marker on the 'Fog' spot" (turn 1 is May 11)."""
    state = core.init(4, 3)
    assert (state.turn == 1).all() and (state.casualties == 0).all() and (state.weather == FOG).all()
    assert core.summary(state, 0)["date"] == "May 11"


def test_attu_12_3_historic_japanese_set_up_on_the_books_hexes(core):
    """12.3: "Place all Japanese infantry steps into an opaque container", the sixteen Unknowns
    into 1216, 1509, 1822, 1919, 2108, 2112, 2117, 2307, 2717, 2915, 3116, 3409, 3610, 3717, 3812
    and 3915, the 20mm guns into 1812, 2314 and 3210 (x2), the 75mm into 1809, 1917 and 3409;
    every Japanese unit starts face-down (2.5).  Hexes typed from the book, not read from
    setups.yaml."""
    sc = core.scenario
    state = core.init(1, 11)
    num = lambda u: sc.grid.number(int(state.unit_hex[0, u]))             # noqa: E731
    names = sc.unit_names
    unknowns = [u for u in range(sc.num_units) if sc.unit_type[u] == UNKNOWN]
    guns20 = [u for u in range(sc.num_units) if names[u].startswith("jp_20mm")]
    guns75 = [u for u in range(sc.num_units) if names[u].startswith("jp_75mm")]
    infantry = [u for u in range(sc.num_units) if sc.unit_side[u] == JAPAN and sc.unit_type[u] == INFANTRY]
    assert len(unknowns) == 16 and len(guns20) == 4 and len(guns75) == 3 and len(infantry) == 64
    assert sorted(num(u) for u in unknowns) == [1216, 1509, 1822, 1919, 2108, 2112, 2117, 2307, 2717, 2915,
                                                3116, 3409, 3610, 3717, 3812, 3915]
    assert sorted(num(u) for u in guns20) == [1812, 2314, 3210, 3210]
    assert sorted(num(u) for u in guns75) == [1809, 1917, 3409]
    assert (state.unit_loc[0, unknowns + guns20 + guns75] == LOC_MAP).all()
    assert state.face_down[0, unknowns + guns20 + guns75].all()
    assert (state.unit_loc[0, infantry] == LOC_RESERVE).all()


# ------------------------------------------------------------------------------- 12.4 free set-up
def next_japanese_placement(core, state) -> int:
    """The unit JP_SETUP places next (Unknowns, then the guns, in counter order)."""
    sc = core.scenario
    for u in range(sc.num_units):
        if sc.unit_side[u] == JAPAN and sc.unit_in_play[u] and state.unit_loc[0, u] == LOC_NONE and \
                sc.unit_type[u] in (UNKNOWN, 5):
            return u
    raise AssertionError("nothing left to place")


def test_attu_12_4_free_japanese_set_up_constraints(core):
    """12.4 (campaign_free): Unknowns "anywhere on the map with no more than one per hex and not
    adjacent to any Landing Zones", and "at least two ... within two or three hexes of each
    Landing Zone"; the four 20mm "within five hexes of 3311"; the three 75mm "in hexes 3311 and
    2409 (at least one step per hex)".  Each Unknown is put on the first hex the mask offers (the
    most awkward order for the promise near the zones); after all sixteen every zone A-I has two
    at distance 2 or 3.  The 75mm: the first two on 3311; the third may then only go to 2409 (a
    single choice, made for Japan)."""
    free = make_core("campaign_free")
    t, g, sc = free.tables, free.scenario.grid, free.scenario
    state = free.init(1, 2)
    assert state.phase[0] == JP_SETUP and state.current_player[0] == JAPAN
    placed_75 = 0
    while state.phase[0] == JP_SETUP:
        u = next_japanese_placement(free, state)
        offered = np.flatnonzero(state.legal_action_mask[0, :t.nbr.shape[0]])
        assert len(offered) > 0 and t.land[offered].all()
        if sc.unit_type[u] == UNKNOWN:
            assert not t.near_lz[offered].any()            # not in or adjacent to a Landing Zone
            taken = state.unit_hex[0, (state.unit_loc[0] == LOC_MAP) & (sc.unit_type == UNKNOWN)]
            assert not np.isin(offered, taken).any()       # one per hex
            choice = int(offered[0])
        elif sc.unit_names[u].startswith("jp_20mm"):
            assert (t.dist[g.index(3311), offered] <= 5).all()
            choice = int(next(h for h in offered if g.number(int(h)) not in (3311, 2409)))
        else:
            numbers = {g.number(int(h)) for h in offered}
            assert numbers == {3311, 2409}
            choice = g.index(3311)
            placed_75 += 1
        state = act(free, state, choice)
    # the third 75mm had one hex left, 2409 ("at least one step per hex"), and was placed for Japan
    assert placed_75 == 2
    guns75 = [u for u in range(sc.num_units) if sc.unit_names[u].startswith("jp_75mm")]
    assert sorted(g.number(int(state.unit_hex[0, u])) for u in guns75) == [2409, 3311, 3311]
    unk = np.flatnonzero((sc.unit_type == UNKNOWN) & (state.unit_loc[0] == LOC_MAP))
    assert len(unk) == 16 and len(set(state.unit_hex[0, unk].tolist())) == 16
    for k, lz in enumerate(t.lz_hex):
        near = [u for u in unk if 2 <= t.dist[lz, state.unit_hex[0, u]] <= 3]
        assert len(near) >= 2, f"zone {'ABCDEFGHI'[k]}: {len(near)} Unknowns within 2-3 hexes"


# ------------------------------------------------------------------------ 12.5 historic U.S.
# 12.5's list.  The book gives battalions and counts ("1 Company 2nd Battalion, 32nd Regiment");
# which company letter goes where (2/32 E to C, F-H to D-G) is setups.yaml's naming.
BOOK_12_5 = {
    "A": ["7 Scout Scout", "7 Recon Troop"],
    "B": ["1/17 A", "1/17 B", "1/17 C", "1/17 D", "105mm A"],
    "C": ["2/32 E"],
}
BOOK_12_5_CHOICE_DEFG = ["2/17 E", "2/17 F", "2/17 G", "2/17 H", "3/17 I", "3/17 K", "3/17 L", "3/17 M",
                         "2/32 F", "2/32 G", "2/32 H", "105mm B", "105mm C", "105mm D"]
BOOK_12_5_REINFORCEMENTS = ["1/32 A", "1/32 B", "1/32 C", "1/32 D", "3/32 I", "3/32 K", "3/32 L", "3/32 M",
                            "1/4 A", "1/4 B", "1/4 C", "1/4 D", "13 Eng A", "13 Eng B", "13 Eng C",
                            "50 Eng A", "50 Eng B", "50 Eng C", "105mm E", "105mm F", "75mm Sec"]


def test_attu_12_5_historic_us_staging_and_the_opening_landing_in_fog(core):
    """12.5: A: 7th Scout Company and 7th Recon Troop (at 3 steps); B: four companies of 1/17 and
    one 105mm battery; C: one company of 2/32; the 2/17, 3/17, three 2/32 companies and three
    105mm batteries staged in D, E, F or G as the U.S. pleases (nothing else offered); the
    Recon Platoon in H or I; the rest (1/32, 3/32, 1/4, 13th and 50th Engineers, two 105mm, the
    75mm) in the Reinforcements Box.  Here the 2/17 go to D, the rest of the choice to G, the
    platoon to H.
    The landing is Step 2 of a Refit Turn in Fog (9.2.2: -1).  One die per unit, zone by zone:
    A 3, 3 -> 2: delayed (A: 1-2; landed on 3 in clear weather); B 10 x5, C 10, D 10 x4 -> 9:
    landed; G 4 x10 -> 3: delayed (G: 1-3; 4 would scatter to F in clear weather); H 10: landed.
    Nothing is over capacity (B 18 steps of 20, C 4 of 6, D 16 of 16: reconstructed capacities,
    map.yaml; F's 15 is the book's) and no Casualty.  Then the May 11 turn starts at Step 1, and
    its weather roll is on the Fog line (3.3, 12.2): die 8 -> Williwaw."""
    sc = core.scenario
    idx = {n: i for i, n in enumerate(sc.unit_names)}
    state = core.init(1, 4)
    assert state.phase[0] == US_STAGING and state.weather[0] == FOG and state.turn[0] == 1
    for zone, names in BOOK_12_5.items():
        for n in names:
            assert state.unit_loc[0, idx[n]] == LOC_STAGING and state.unit_hex[0, idx[n]] == "ABC".index(zone), n
    assert state.unit_steps[0, idx["7 Recon Troop"]] == 3
    reserve = {sc.unit_names[u] for u in range(sc.num_units) if sc.unit_side[u] == US and
               state.unit_loc[0, u] == LOC_RESERVE}
    assert reserve == set(BOOK_12_5_REINFORCEMENTS)
    dice = [3] * 2 + [10] * 5 + [10] + [10] * 4 + [4] * 10 + [10]
    state = core.force(state, dice)
    h = core.tables.nbr.shape[0]
    choices = []
    while state.phase[0] == US_STAGING:
        u = next(v for v in range(sc.num_units) if sc.unit_side[v] == US and state.unit_loc[0, v] == LOC_NONE
                 and sc.unit_staging[v] in (STAGING_D_TO_G, STAGING_H_OR_I))
        offered = "".join(z for k, z in enumerate("ABCDEFGHI") if state.legal_action_mask[0, h + LZ_0 + k])
        assert not state.legal_action_mask[0, h + RESERVE]
        name = sc.unit_names[u]
        if name == "Recon Plt Plt":
            assert offered == "HI"
            zone = "H"
        else:
            assert offered == "DEFG"
            zone = "D" if name.startswith("2/17") else "G"
        choices.append(name)
        state = act(core, state, h + LZ_0 + "ABCDEFGHI".index(zone))
    assert sorted(choices) == sorted(BOOK_12_5_CHOICE_DEFG + ["Recon Plt Plt"])
    assert dice_used(state, len(dice)) == len(dice) == 23
    lz = {z: int(core.tables.lz_hex["ABCDEFGHI".index(z)]) for z in "ABCDH"}
    where = lambda n: (int(state.unit_loc[0, idx[n]]), int(state.unit_hex[0, idx[n]]))  # noqa: E731
    for n in BOOK_12_5["A"] + BOOK_12_5_CHOICE_DEFG[4:]:
        assert where(n) == (LOC_RESERVE, -1), n            # delayed: back to the Reinforcements Box
    for n in BOOK_12_5["B"]:
        assert where(n) == (LOC_MAP, lz["B"]), n
    assert where("2/32 E") == (LOC_MAP, lz["C"]) and where("Recon Plt Plt") == (LOC_MAP, lz["H"])
    for n in BOOK_12_5_CHOICE_DEFG[:4]:
        assert where(n) == (LOC_MAP, lz["D"]), n
    assert state.casualties[0] == 0 and state.unit_steps[0, idx["7 Recon Troop"]] == 3
    assert state.phase[0] == REFIT_DECISION and state.turn[0] == 1 and state.weather[0] == FOG
    state = act(core, state, h + NO)
    state = act(core, core.force(state, [8, 1, 1]), h + NO)
    assert state.weather[0] == WILLIWAW                   # Fog line 8-0; the Cloudy line would give Rain


# ----------------------------------------------------------------------------- 12.6 free U.S.
def free_us_staging(free, seed: int, zone_a_first: bool = True):
    """campaign_free to its U.S. staging, the Japanese placed on the first offered hex; the first
    U.S. unit staged in zone A, every other kept in the Reinforcements Box.  Returns (state, the
    unit staged)."""
    h = free.tables.nbr.shape[0]
    state = free.init(1, seed)
    while state.phase[0] == JP_SETUP:
        state = act(free, state, int(np.flatnonzero(state.legal_action_mask[0])[0]))
    assert state.phase[0] == US_STAGING
    staged = None
    while state.phase[0] == US_STAGING:
        m = state.legal_action_mask[0]
        assert m[h + RESERVE] and all(m[h + LZ_0 + k] for k in range(9))   # any zone, or kept back
        before = state.unit_loc[0].copy()
        state = act(free, state, h + (LZ_0 if staged is None and zone_a_first else RESERVE))
        if staged is None:
            staged = int(np.flatnonzero(before != state.unit_loc[0])[0])
    return state, staged


def test_attu_12_6_free_us_set_up_may_delay_the_landing_and_rolls_weather_first():
    """12.6: the U.S. stages each unit freely or keeps it back, may move the turn marker forward
    "in hopes of better weather results", and "weather results are rolled prior to scatter
    results".  One company staged in A.  Wait once: turn 2, weather die 8 on the Fog line (the
    opening weather, 12.2) -> Williwaw.  Land: the scatter die 4 - 2 (Williwaw, 9.2.2) = 2 ->
    delayed (A: 1-2), back in the Reinforcements Box; in the opening Fog it would have been
    4 - 1 = 3, landed.  The game then starts at turn 2 (May 12), Step 1."""
    free = make_core("campaign_free")
    h = free.tables.nbr.shape[0]
    state, u = free_us_staging(free, 6)
    assert state.phase[0] == US_WAIT and state.turn[0] == 1 and state.weather[0] == FOG
    assert state.unit_loc[0, u] == LOC_STAGING and state.unit_hex[0, u] == 0
    state = act(free, free.force(state, [8]), h + NO)
    assert state.phase[0] == US_WAIT and state.turn[0] == 2 and state.weather[0] == WILLIWAW
    state = act(free, free.force(state, [4]), h + YES)
    assert dice_used(state, 1) == 1
    assert state.unit_loc[0, u] == LOC_RESERVE and state.casualties[0] == 0
    assert state.phase[0] == REFIT_DECISION and state.turn[0] == 2


def test_attu_12_6_the_landing_may_wait_until_may_23():
    """12.6: "The U.S. player can delay landing for as many turns as he deems necessary"; README
    ("Set-up and short scenarios"): until May 23 (turn 13), where waiting is no longer offered
    and the landing is made (the only choice, taken for the U.S.)."""
    free = make_core("campaign_free")
    h = free.tables.nbr.shape[0]
    state, _ = free_us_staging(free, 7)
    for turn in range(2, 13):
        state = act(free, state, h + NO)
        assert state.turn[0] == turn and state.phase[0] == US_WAIT
    assert state.legal_action_mask[0, h + NO]
    state = act(free, state, h + NO)
    # May 23: landing is the only choice left, so it is made at once and turn 13 begins
    assert state.turn[0] == 13 and state.phase[0] == REFIT_DECISION


# ----------------------------------------------------------------------- 13.2 / 13.4 / 13.6
@pytest.fixture(scope="module")
def solo():
    return make_core("campaign", solitaire=True, heroes=False)


def solo_board(core, **fields) -> Board:
    """A solitaire board with 13.2.2's ad hoc placements already made, so that no die goes to
    them."""
    b = board(core, **fields)
    b.state.adhoc_done[0, :] = True
    return b


def infantry_on(state, core, h: int) -> list[int]:
    sc = core.scenario
    return [u for u in range(sc.num_units) if state.unit_loc[0, u] == LOC_MAP and state.unit_hex[0, u] == h
            and sc.unit_side[u] == JAPAN and sc.unit_type[u] == INFANTRY]


def test_attu_13_2_unknown_on_a_victory_hex_gives_three_infantry_without_a_roll(solo, core):
    """13.2: "When determining the strength of Unknown units occupying Victory Hexes, do not roll
    on the table. Three units are automatically received if available."  An Unknown on 2717
    revealed (as in Melee, 2.5) with a 1 forced: solitaire, no die is used and three Infantry
    appear face-up; in the two-player game the die 1 is rolled and every table gives 1 Infantry
    on a 1 (counters.yaml, reconstructed tables)."""
    for c, expected, used in ((solo, 3, 0), (core, 1, 1)):
        b = solo_board(c) if c is solo else board(c)
        b.place(b.japanese("unknown"), 2717, face_down=True)
        b.force([1])
        n = reveal_unknowns(b.tables, b.arrays, 0, b.hex(2717), False)
        assert n == expected and b.dice_used == used
        here = infantry_on(b.state, c, b.hex(2717))
        assert len(here) == expected and not b.state.face_down[0, here].any()


def test_attu_13_2_short_pool_draws_from_the_eliminated(solo):
    """13.2: "if less than three units are available, draw units randomly from the eliminated
    units".  One Infantry left in the cup, 63 eliminated: the Victory Hex Unknown still gives
    three, the one from the cup and two of the eliminated."""
    sc = solo.scenario
    b = solo_board(solo)
    infantry = [u for u in range(sc.num_units) if sc.unit_side[u] == JAPAN and sc.unit_type[u] == INFANTRY]
    b.state.unit_loc[0, infantry[1:]] = LOC_ELIM
    b.state.unit_steps[0, infantry[1:]] = 0
    b.place(b.japanese("unknown"), 3409, face_down=True)
    n = reveal_unknowns(b.tables, b.arrays, 0, b.hex(3409), False)
    here = infantry_on(b.state, solo, b.hex(3409))
    assert n == 3 and len(here) == 3 and infantry[0] in here
    assert (b.state.unit_loc[0, infantry] == LOC_ELIM).sum() == 63 - 2


def test_attu_13_2_unknown_off_the_victory_hexes_still_rolls(solo):
    """13.2 is for Victory Hexes only: a solitaire Unknown in 2515 (not a Victory Hex) rolls its
    table as in 2.5: one die, and a 1 gives one Infantry on every table (reconstructed tables)."""
    b = solo_board(solo)
    b.place(b.japanese("unknown"), 2515, face_down=True)
    b.force([1])
    assert reveal_unknowns(b.tables, b.arrays, 0, b.hex(2515), False) == 1 and b.dice_used == 1


@pytest.mark.parametrize("last", [True, False])
def test_attu_13_4_infantry_defending_the_last_victory_hex_melee_double(solo, last):
    """13.4: "If defending the last Victory Hex, the remaining Japanese infantry units have their
    melee strength values doubled."  A Japanese Infantry (3 melee dice, reconstructed) holds
    2717; 1/17 A (6 dice at 4 steps) attacks from 2718.  The U.S. holds the other five Victory
    Hexes (``last``): the defensive fire is 2 x 3 = 6 dice, the offensive 6, 12 in all (all 1s,
    no hit, then the retreat option).  With Japan also on 1425 it is not the last: 3 + 6 = 9."""
    core = solo
    b = solo_board(core)
    a = b.place("1/17 A", 2718)
    j = b.place(b.japanese(), 2717)
    others = [h for h in VICTORY_HEXES if h != 2717]
    if last:
        for name, h in zip(RIFLES[1:], others):
            b.place(name, h)
    else:
        b.place(b.japanese(), 1425)
        for name, h in zip(RIFLES[1:], others[1:]):
            b.place(name, h)
    jd, ad = melee_dice(core, j, 1), melee_dice(core, a, 4)
    assert (jd, ad) == (3, 6)
    state = declare(core, core.refresh(b.state), 2718, 2717)
    state = act(core, state, special(core, END))          # U.S. step 5 over; Japan's step 6
    # Japan's END: Step 7, whose only Melee (2717) is picked at once for the U.S.
    state = act(core, core.force(state, [1] * 24), special(core, END))
    assert state.phase[0] == RETREAT_OPTION and state.mel_hex[0] == b.hex(2717)
    assert dice_used(state, 24) == (2 * jd if last else jd) + ad


def test_attu_13_6_solitaire_no_us_win_by_eliminating_the_japanese(solo, core):
    """13.6: "The U.S. can only win by taking all six Victory Hexes": every Japanese Infantry and
    Artillery eliminated (an Unknown left) ends a two-player game with a U.S. win (3.8.2) but
    not a solitaire one."""
    for c, ends in ((solo, False), (core, True)):
        b = board(c)
        sc = c.scenario
        b.state.unit_loc[0, (sc.unit_side == JAPAN) & (sc.unit_type != UNKNOWN)] = LOC_ELIM
        b.place(b.japanese("unknown"), 2515, face_down=True)
        b.place("1/17 A", 2410)
        check_immediate(b.tables, b.arrays, 0)
        assert bool(b.state.terminated[0]) == ends
        if ends:
            assert b.state.rewards[0, US] == 1.0


def test_attu_13_6_solitaire_us_wins_by_the_six_victory_hexes(solo):
    """13.6: holding the six Victory Hexes at Step 8 the U.S. wins the solitaire game."""
    b = solo_board(solo, acting=JAPAN, act_step=1)
    for name, h in zip(RIFLES, VICTORY_HEXES):
        b.place(name, h)
    state = act(solo, solo.refresh(b.state), special(solo, END))
    assert state.terminated[0] and state.rewards[0, US] == 1.0


def test_attu_13_6_solitaire_japan_still_wins_at_30_casualties(solo):
    """13.0: "Except where noted below, the standard rules of play apply": 13.6 limits the U.S.
    wins only, so a Casualty Track at 30 still wins for Japan (3.8.2)."""
    b = solo_board(solo)
    b.place("1/17 A", 2410)
    b.set(casualties=30)
    check_immediate(b.tables, b.arrays, 0)
    assert b.state.terminated[0] and b.state.rewards[0, JAPAN] == 1.0


# ------------------------------------------------------------------------------- 14.0 VP chits
ZONE = {1425: 0, 2011: 1, 2117: 2, 2717: 3, 3409: 4, 3622: 5}
CHITS = {1425: (3, 0), 2011: (2, 0), 2117: (1, -1), 2717: (3, 0), 3409: (NO_CHIT, 0), 3622: (1, 0)}


@pytest.fixture(scope="module")
def chits():
    return make_core("campaign", vp_chits=True)


def chit_board(core, date: int, held, attu_cancelled: bool = False, **fields) -> Board:
    """Step 6 of the turn of May ``date``, the last turn; chits (value, cancel; -1 "Cancelled")
    as CHITS; U.S. companies on the Victory Hexes ``held``."""
    b = end_of_step_6(core, turn=date - 10, last_turn=date - 10, **fields)
    for h, (value, cancel) in CHITS.items():
        b.state.vp_value[0, ZONE[h]] = value
        b.state.vp_cancel[0, ZONE[h]] = -1 if (h == 3409 and attu_cancelled) else cancel
    for name, h in zip(RIFLES, held):
        b.place(name, h)
    return b


@pytest.mark.parametrize("date,held,attu_cancelled,winner", [
    # Temnac 3 + Holtz 2 + Jarmin (stacked with "Cancelled": discarded) = 5; May 26: +1 -> 6
    # Japanese Marginal Victory (5-6)
    (26, (1425, 2011, 2117), False, JAPAN),
    # Temnac 3 + Holtz 2 + Alexai 1 = 6; May 26 (before May 27): +1 -> 7, U.S. Marginal (7-8)
    (26, (1425, 2011, 3622), False, US),
    # the same 6 ending on May 27: no adjustment -> 6, Japanese Marginal
    (27, (1425, 2011, 3622), False, JAPAN),
    # Attu Village 0 + 4 + Temnac 3 = 7; May 30: no adjustment -> 7, U.S. Marginal
    (30, (3409, 1425), False, US),
    # the same 7 ending on May 31 (after May 30): -1 -> 6, Japanese Marginal
    (31, (3409, 1425), False, JAPAN),
    # Attu cancelled: no 4; Attu 0 + Temnac 3 + Holtz 2 + Engineer Hill 3 = 8; May 28 -> 8, U.S.
    (28, (3409, 1425, 2011, 2717), True, US),
    # Attu cancelled, Temnac 3 + Holtz 2 = 5 + Attu 0 -> 5, Japanese Marginal (9 if counted)
    (28, (3409, 1425, 2011), True, JAPAN),
    # every hex: 3 + 2 + 0 + 3 + 4 + 1 = 13, May 29 -> 13, U.S. Major (11 or more)
    (29, VICTORY_HEXES, False, US),
    # nothing held: 0; May 24: +1 -> 1, Japanese Major (2 or less)
    (24, (), False, JAPAN),
])
def test_attu_14_0_victory_points_scored_at_the_end(chits, date, held, attu_cancelled, winner):
    """14.0: at the end reveal the chits of the Victory Hexes the U.S. holds, discard any stacked
    with "Cancelled", sum the rest, add 4 for Attu unless cancelled, +1 if the game ends before
    May 27, -1 after May 30, and read the Victory Level table.  The env's result is a U.S. win
    from a U.S. Marginal Victory (7+) up (README "Engine bounds").  The chits are set by hand (the
    drawn mix is reconstructed, charts.yaml); each case's sum is in its comment."""
    b = chit_board(chits, date, held, attu_cancelled)
    state = act(chits, chits.refresh(b.state), special(chits, END))
    assert state.terminated[0] and state.turn[0] == date - 10
    assert state.rewards[0, winner] == 1.0 and state.rewards[0, 1 - winner] == -1.0


def test_attu_14_0_chits_supersede_the_step_8_capture_win(chits):
    """14.0: "If used, these rules supersede the standard method of determining victory": the U.S.
    holding all six Victory Hexes at Step 8 of a turn before the last does not end the game;
    the chits are scored at the end."""
    b = chit_board(chits, 20, VICTORY_HEXES)
    b.set(last_turn=-1)
    state = act(chits, chits.refresh(b.state), special(chits, END))
    assert not state.terminated[0] and state.turn[0] == 11


def test_attu_14_0_a_casualty_end_is_scored_by_the_chits(chits):
    """14.0 with 3.8.2 (README "Victory and game length": 3.8.2 still ends the game at once and
    the chits are then scored).  May 15, Casualty Track at 30, the U.S. holding Attu Village
    (0 + 4), Temnac (3) and Holtz Bay (2): 9, +1 before May 27 -> 10, a U.S. Minor Victory."""
    b = chit_board(chits, 15, (3409, 1425, 2011))
    b.set(last_turn=-1, casualties=30)
    check_immediate(b.tables, b.arrays, 0)
    assert b.state.terminated[0] and b.state.rewards[0, US] == 1.0


def test_attu_3_8_the_scenario_listing_states_the_default_victory_and_14_0_as_the_option(core, chits):
    """``wargym scenarios`` tells a player how a scenario is won: the campaign by 3.8 (all six
    Victory Hexes at a Step 8, 3.8.1), which the default core plays (14.0 is the option that
    "supersede[s] the standard method"), and the chits only with ``vp_chits``; a short scenario by
    its target hex held at a Step 8 up to its date (15.1: "capture ... by the end of May 18th")."""
    assert not core.options["vp_chits"] and chits.options["vp_chits"]
    text = core.scenario.victory
    assert text.startswith("3.8: the U.S. wins holding all six Victory Hexes at a Step 8 (3.8.1)")
    assert "Casualty Track reaches 30 (3.8.2)" in text and "(3.8.3)" in text
    assert "Landing Zones D, E, F and G or with a gun on 2717 Engineer Hill that reaches them (3.8.1)" in text
    assert text.index("With the vp_chits option, 14.0's victory points") > text.index("(3.8.3)")
    assert "us marginal from 7" in text
    short = make_core("hogs_back").scenario.victory
    assert short.startswith("the U.S. wins holding 2717 Engineer Hill at a Step 8 (3.8.1) by the end of May 18")


# --------------------------------------------------------------------------- 15.0 short scenarios
def test_attu_12_7_short_scenarios_play_a_portion_of_the_campaign(core):
    """12.7: "players can opt to play only a portion of the campaign ... Refer to section 15.0".
    The three scenarios of 15.1-15.3 are offered beside the campaign, each a portion of it: on part
    of the campaign's land (15.x: "Play is limited to ..."), with part of its U.S. units and 8
    Unknowns a side of the island (15.1, 15.2: "The Japanese receive 8 Unknown units"; 15.3 both),
    to a fixed date: May 18 (turn 8) for 15.1, May 22 (turn 12) for 15.2 and 15.3.  The campaign
    runs until the Komandorski chits say (12.1): no last turn is known at the start, and the
    earliest is May 24 (turn 14), the Effect chit's first date with a Delay of one turn."""
    shorts = {"hogs_back": (8, 8), "holtz_bay_jarmin_pass": (12, 8), "linkup": (12, 16)}
    assert set(shorts) < set(core.scenario_names()) and "campaign" in core.scenario_names()
    t = core.tables
    assert (core.init(1, 0).last_turn == -1).all()
    assert t.ke_turn == 14 and t.effect_chits.min() - TURN_0_DATE == 14 and t.delay_chits.min() == 1
    sc = core.scenario
    us_units = (sc.unit_side == US) & sc.unit_in_play
    for name, (last, unknowns) in shorts.items():
        c = make_core(name)
        assert (c.tables.land <= t.land).all() and c.tables.land.sum() < t.land.sum()
        assert (c.scenario.unit_in_play <= sc.unit_in_play).all()
        assert ((c.scenario.unit_side == US) & c.scenario.unit_in_play).sum() < us_units.sum()
        assert ((c.scenario.unit_type == UNKNOWN) & c.scenario.unit_in_play).sum() == unknowns
        assert (c.init(1, 0).last_turn == last).all() and last < 14


@pytest.mark.parametrize("scenario,target,last", [("hogs_back", 2717, 8), ("holtz_bay_jarmin_pass", 2117, 12)])
def test_attu_15_0_short_scenarios_end_on_their_date_and_need_only_their_target(scenario, target, last):
    """15.1: "capture the Engineer Hill Victory Hex (2717) by the end of May 18th" (turn 8);
    15.2: Jarmin Pass (2117) by the end of May 22nd (turn 12).  At the start the last turn is
    that date's.  Holding the target hex at Step 8 wins for the U.S. (one hex, not six); at the
    end of the last turn without it Japan wins (3.8.3, a standard rule); the turn before, play
    goes on."""
    c = make_core(scenario)
    assert (c.init(2, 1).last_turn == last).all()
    company = "2/17 E" if scenario == "hogs_back" else "1/17 A"
    b = end_of_step_6(c, turn=5)
    b.place(company, target)
    state = act(c, c.refresh(b.state), special(c, END))
    assert state.terminated[0] and state.rewards[0, US] == 1.0 and state.turn[0] == 5
    for turn, ends in ((last - 1, False), (last, True)):
        b = end_of_step_6(c, turn=turn)
        b.place(b.japanese(), target)
        state = act(c, c.refresh(b.state), special(c, END))
        assert bool(state.terminated[0]) == ends
        if ends:
            assert state.rewards[0, JAPAN] == 1.0 and state.turn[0] == last
        else:
            assert state.turn[0] == last and state.phase[0] == REFIT_DECISION


def test_attu_15_0_play_is_limited_to_the_scenarios_area():
    """15.1: "Play is limited to the Engineer Hill Victory Area": Temnac Bay (1425), Holtz Bay
    (2011) and Attu Village (3409) are out of play, Engineer Hill (2717) in; a U.S. company on
    the edge of the area is offered no move beyond it."""
    c = make_core("hogs_back")
    t, g = c.tables, c.scenario.grid
    assert not t.land[[g.index(1425), g.index(2011), g.index(3409)]].any() and t.land[g.index(2717)]
    island = make_core("campaign").tables.land          # every land hex of the map
    edge = next(h for h in range(t.nbr.shape[0]) if t.land[h] and any(
        n >= 0 and island[n] and not t.land[n] for n in t.nbr[h]))
    b = board(c)
    u = b.place("2/17 E", g.number(edge))
    state = act(c, c.refresh(b.state), edge)
    assert state.phase[0] == ACT_ORDER and state.selected[0] == u
    offered = np.flatnonzero(state.legal_action_mask[0, :t.nbr.shape[0]])
    assert len(offered) > 0 and t.land[offered].all()


@pytest.mark.parametrize("scenario", ["hogs_back", "linkup"])
def test_attu_15_0_japanese_landing_zone_win_stands_where_d_to_g_are_in_play(scenario):
    """15.0: "These options use all of the standard rules except where noted", and 15.1/15.3
    note no change to Japan's 3.8.1 win: Japanese units on Landing Zones D, E, F and G at Step 8
    win the game."""
    c = make_core(scenario)
    b = end_of_step_6(c, turn=4)
    for k in (3, 4, 5, 6):
        b.place(b.japanese(), c.scenario.grid.number(int(c.tables.lz_hex[k])))
    state = act(c, c.refresh(b.state), special(c, END))
    assert state.terminated[0] and state.rewards[0, JAPAN] == 1.0 and state.turn[0] == 4


def test_attu_15_1_captured_us_gun_on_engineer_hill_wins_for_japan():
    """15.0 with 3.8.1's second Japanese win: a captured U.S. 105mm battery (8.2.1.4) on 2717
    that can fire on D, E, F and G.  Its range 8 (counters.yaml, reconstructed) reaches all four
    zones, at most 6 hexes from 2717 on the reconstructed map."""
    c = make_core("hogs_back")
    t, g = c.tables, c.scenario.grid
    assert max(t.dist[g.index(2717), t.lz_hex[k]] for k in (3, 4, 5, 6)) == 6
    b = end_of_step_6(c, turn=4)
    gun = b.place("105mm B", 2717)
    b.state.captured[0, gun] = True
    state = act(c, c.refresh(b.state), special(c, END))
    assert state.terminated[0] and state.rewards[0, JAPAN] == 1.0
