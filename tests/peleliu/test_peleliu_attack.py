"""U.S. attacks and barrages (8.0-8.4, 7.4), worked by hand and resolved by the engine's kernels
(combat.resolve_attack, combat.barrage, us.barrage_ok, us.enter_targets).

The US Attack Chart (charts.yaml ``attack_chart``) is reconstructed; five of its cells are fixed
by the 8.3 examples and every test reads the cells it relies on from the yaml and asserts them
first.  Rows: A < D 'less', D <= A < 2D 'more', 2D <= A < 3D 'double', A >= 3D 'triple'; sections
'no_weapons' (upper: some required weapon lacking) and 'weapons' (lower); columns 'alone',
'depth_hidden', 'depth_revealed'.

Counters used (counters.yaml): J01 elite, strength 3, FL BR; J02 elite, 4, BZ FL; J21 2, FT BR;
J16 elite 2, CC; depth markers 8 (2, FT), 9 (2, CC), 10 (2, BR), 15 (2, FL).  Rifle companies have
strength 7/5/4/2 at 4/3/2/1 steps; W/5 (heavy) 8 at 4 steps; amphibious tanks 2.  Terrain (charts):
coral and buildings double the Japanese strength.
"""

from __future__ import annotations

import numpy as np
import pytest

from peleliu_board import Board, card
from wargym.data import config_path, load_yaml
from wargym.peleliu import combat, us
from wargym.peleliu.actions import NO, RESOLVE, UNIT_0, num_actions
from wargym.peleliu.board import set_command, step_loss, weapons_of
from wargym.peleliu.scenario import COLOURS, SYMBOLS, W_FL, W_RD
from wargym.peleliu.state import DIS_NEW, DM_OUT, DM_UNIT, JP_ELIM, JP_MAP, JP_RESERVE, PILE_TRACK, US_ELIM, US_MAP

CHARTS = load_yaml(config_path("peleliu", "charts.yaml"))


def cell(section: str, column: str, row: str) -> set[str]:
    return set(CHARTS["attack_chart"][section][column][row]) - {"none"}


def attack(b: Board, target: int, *names: str) -> bool:
    """Declare an attack on hex ``target`` by the named units and resolve it (8.3)."""
    s = b.state
    for n in names:
        s.att_units[0, b.unit(n)] = True
    s.target[0] = b.hex(target)
    return combat.resolve_attack(b.T, b.S, 0, False) == combat.ATTACK_ATTRITION


def test_peleliu_8_3_terrain_doubles_coral_and_buildings():
    assert CHARTS["terrain"]["coral"]["defense"] == 2 and CHARTS["terrain"]["buildings"]["defense"] == 2
    assert CHARTS["terrain"]["clear"]["defense"] == 1


def test_peleliu_8_3_attack_example_1():
    """8.3 example 1: infantry in 0213 and 0315 and the amphibious tank in 0315 attack the unit and
    face-down depth marker in coral 0314 (A5).  0213 and 0315 are both adjacent to 0314 and not
    to each other (8.22 flanking).  Units: A/1/5 at 3 steps (5, BR MG) in 0213; B/1/5 at 2 steps (4,
    BR MG) and LVT/1 (2; adjacent: AR BZ BR MG FT) in 0315: 11 strength.  Japanese: J01 (3, FL BR)
    with depth marker 8 (2, FT).

    A. reveal the unit: 3 x 2 (coral) = 6.  B. FL met by flanking, BR by every unit.  C. lower
    section, 'more' (6 <= 11 < 12), unit + unrevealed depth -> reveal the depth marker.
    D. (3 + 2) x 2 = 10; FT from the adjacent amtank (the infantry lack it); 'more' (10 <= 11 <
    20), lower section, unit + revealed depth -> E. the depth marker is eliminated and the unit
    disrupted.  No U.S. unit is disrupted or loses a step."""
    b = Board(turn=7)
    assert b.terrain(314) == "coral" and b.pos_hexnum("A5") == 314
    assert b.dist(213, 314) == b.dist(315, 314) == 1 and b.dist(213, 315) > 1
    assert cell("weapons", "depth_hidden", "more") == {"reveal_depth"}
    assert cell("weapons", "depth_revealed", "more") == {"depth_elim", "jp_disrupt"}
    j = b.jp(314, "J01", depth=8)
    b.us("A/1/5", 213, steps=3)
    b.us("B/1/5", 315, steps=2)
    b.us("LVT/1", 315)
    assert attack(b, 314, "A/1/5", "B/1/5", "LVT/1") is False
    s = b.state
    assert s.jp_rev[0, j] and s.jp_dis[0, j] and s.jp_loc[0, j] == JP_MAP
    assert s.jp_depth[0, j] == -1 and s.dm_loc[0, 8] == DM_OUT
    assert [b.dis(n) for n in ("A/1/5", "B/1/5", "LVT/1")] == [0, 0, 0]
    assert (b.steps("A/1/5"), b.steps("B/1/5"), b.steps("LVT/1")) == (3, 2, 1)
    assert s.jp_attacked[0, j]


def test_peleliu_8_3_attack_example_1_without_the_flamethrower():
    """The same attack without the amtank (9 strength): after the depth marker is revealed FT is
    lacking and 9 < 10 -> upper section, 'less', unit + revealed depth.  (The first look: 9 vs 6 is
    'more' with FL and BR met -> reveal the depth marker.)"""
    b = Board(turn=7)
    expected = cell("no_weapons", "depth_revealed", "less")
    assert expected == {"us_step", "us_disrupt"}
    j = b.jp(314, "J01", depth=8)
    b.us("A/1/5", 213, steps=3)
    b.us("B/1/5", 315, steps=2)
    attack(b, 314, "A/1/5", "B/1/5")
    s = b.state
    assert s.dm_rev[0, 8] and s.jp_depth[0, j] == 8 and not s.jp_dis[0, j]
    assert b.dis("A/1/5") == b.dis("B/1/5") == DIS_NEW
    # us_step: one adjacent attacker loses a step (the engine's default: the one with the most steps)
    assert (b.steps("A/1/5"), b.steps("B/1/5")) == (2, 2)


def hero_attack(choice: int | None):
    """Attack example 1 without the amtank, a hero with A/1/5: resolved asking for the hero's
    benefit, then finished with ``choice`` (combat.HERO_WILD / HERO_STRENGTH)."""
    b = Board(turn=7)
    j = b.jp(314, "J01", depth=8)
    b.us("A/1/5", 213, steps=3)
    b.us("B/1/5", 315, steps=2)
    b.state.hero[0, b.unit("A/1/5")] = 1
    for n in ("A/1/5", "B/1/5"):
        b.state.att_units[0, b.unit(n)] = True
    b.state.target[0] = b.hex(314)
    outcome = combat.resolve_attack(b.T, b.S, 0, True)
    if choice is not None:
        outcome = (outcome, combat.finish_attack(b.T, b.S, 0, choice))
    return b, j, outcome


def test_peleliu_8_24_hero_choice_comes_when_the_depth_requirement_is_revealed():
    """8.24: the choice comes after all requirements are revealed.  Revealing J01 (FL BR) leaves
    nothing missing: no choice yet; the first reading reveals depth marker 8 (FT), which nobody
    has: one weapon missing, so the wild card and +1 differ and the attack waits for the choice."""
    b, j, outcome = hero_attack(None)
    assert outcome == combat.ATTACK_HERO
    assert b.state.jp_rev[0, j] and b.state.dm_rev[0, 8] and b.state.jp_depth[0, j] == 8
    assert b.dis("A/1/5") == b.dis("B/1/5") == 0  # nothing applied yet


def test_peleliu_8_24_hero_wild_card_stands_in_for_the_flamethrower():
    """Wild card: FT supplied, strength 9 against (3 + 2) x 2 = 10: 'less' in the lower (weapons)
    section, unit + revealed depth: the attackers are disrupted, nobody loses a step (without the
    hero the upper section costs A/1/5 a step as well)."""
    assert cell("weapons", "depth_revealed", "less") == {"us_disrupt"}
    b, j, (first, outcome) = hero_attack(combat.HERO_WILD)
    assert first == combat.ATTACK_HERO and outcome == combat.ATTACK_DONE
    assert b.dis("A/1/5") == b.dis("B/1/5") == DIS_NEW
    assert (b.steps("A/1/5"), b.steps("B/1/5")) == (3, 2)
    assert b.state.jp_depth[0, j] == 8 and not b.state.jp_dis[0, j]


def test_peleliu_10_13_hero_adds_one_strength_instead():
    """+1: strength 10 against 10 is 'more' in the upper (no weapons) section: disrupted, no step."""
    assert cell("no_weapons", "depth_revealed", "more") == {"us_disrupt"}
    b, j, (first, outcome) = hero_attack(combat.HERO_STRENGTH)
    assert outcome == combat.ATTACK_DONE
    assert b.dis("A/1/5") == b.dis("B/1/5") == DIS_NEW
    assert (b.steps("A/1/5"), b.steps("B/1/5")) == (3, 2)


def test_peleliu_8_24_no_hero_choice_when_no_weapon_is_missing():
    """Attack example 1 with the amtank (FT present) and a hero: the wild card cannot matter, the
    attack resolves without asking (+1 strength: 12 against 10, still 'more')."""
    b = Board(turn=7)
    j = b.jp(314, "J01", depth=8)
    b.us("A/1/5", 213, steps=3)
    b.us("B/1/5", 315, steps=2)
    b.us("LVT/1", 315)
    b.state.hero[0, b.unit("B/1/5")] = 1
    for n in ("A/1/5", "B/1/5", "LVT/1"):
        b.state.att_units[0, b.unit(n)] = True
    b.state.target[0] = b.hex(314)
    assert combat.resolve_attack(b.T, b.S, 0, True) == combat.ATTACK_DONE
    assert b.state.jp_depth[0, j] == -1 and b.state.jp_dis[0, j]


def test_peleliu_8_3_attack_example_2():
    """8.3 example 2: heavy infantry W/5 (8, adjacent: BR BZ MG FT) in 0418 and L/3/5 (7; ranged:
    BR MG) in 0518, two hexes away through clear 0418, attack J21 (2, FT BR) with depth marker 9
    (2, CC) in clear A3 (0318).  A. 2; 15 >= 3 x 2 -> 'triple'; FT and BR met -> lower section,
    unit + unrevealed depth -> reveal.  D. 2 + 2 = 4, CC added (never met, 8.23); 15 >= 12 ->
    'triple' (the book: "more than twice"), upper section, unit + revealed depth -> E. the unit
    is disrupted and optional attrition is offered; taking it removes the depth marker and a step
    from the adjacent attacker (W/5, 4 -> 3); L/3/5 (not adjacent) keeps its steps."""
    b = Board(turn=7)
    assert b.terrain(318) == b.terrain(418) == "clear" and b.dist(418, 318) == 1 and b.dist(518, 318) == 2
    assert cell("weapons", "depth_hidden", "triple") == {"reveal_depth"}
    assert cell("no_weapons", "depth_revealed", "triple") == {"jp_disrupt", "attrition"}
    j = b.jp(318, "J21", depth=9)
    b.us("W/5", 418)
    b.us("L/3/5", 518)
    assert attack(b, 318, "W/5", "L/3/5") is True      # the attrition choice waits (P_ATTRITION)
    s = b.state
    assert s.jp_rev[0, j] and s.dm_rev[0, 9] and s.jp_dis[0, j] and s.jp_depth[0, j] == 9
    combat.attrition(b.T, b.S, 0, True)
    assert s.jp_depth[0, j] == -1 and s.dm_loc[0, 9] == DM_OUT and s.jp_loc[0, j] == JP_MAP
    assert (b.steps("W/5"), b.steps("L/3/5")) == (3, 4)
    assert b.dis("W/5") == b.dis("L/3/5") == 0


def test_peleliu_8_3_attack_example_3():
    """8.3 example 3: a 4-step rifle company (B/1/5, 7, has BZ) attacks the lone J02 (4, BZ FL) in
    buildings position B19 (1016) from 0917: 4 x 2 = 8 > 7 -> 'less'; FL not met (one hex) ->
    upper section, unit alone: the attacker is disrupted and a depth marker is added, face down.
    The depth pool is left with marker 10 only, so the draw is known; B19 traces communication to
    B15 and B7 (9.2: a unit must be in communication to gain depth)."""
    b = Board(turn=7)
    assert b.terrain(1016) == "buildings" and b.pos_hexnum("B19") == 1016 and b.dist(917, 1016) == 1
    assert cell("no_weapons", "alone", "less") == {"us_disrupt", "add_depth"}
    j = b.jp(1016, "J02")
    b.jp(1115)
    b.jp(1215)
    b.us("B/1/5", 917)
    b.depth_pool(10)
    assert b.comm()["B19"]
    attack(b, 1016, "B/1/5")
    s = b.state
    assert s.jp_rev[0, j] and not s.jp_dis[0, j]
    assert s.jp_depth[0, j] == 10 and not s.dm_rev[0, 10]
    assert (b.steps("B/1/5"), b.dis("B/1/5")) == (4, DIS_NEW)


@pytest.mark.parametrize("second,flanked", [(411, False), (510, True)])
def test_peleliu_8_22_flanking(second, flanked):
    """8.22: flanking needs attacks from two hexes adjacent to the target and not to each other.
    J01 (3, FL BR) alone in clear A1 (0410); A/1/5 (2 steps, 4, BR MG) in 0311 and B/1/5 (2 steps,
    4) in 0411 (next to 0311) or 0510 (not next to it): 8 vs 3 -> 'double'.  Without flanking:
    upper section, alone, double -> the unit is disrupted.  With it: lower section -> defeated;
    J01 is elite and, with no other Japanese unit on the map, out of communication -> eliminated
    elite box (8.33)."""
    b = Board(turn=7)
    assert b.terrain(410) == "clear" and b.dist(311, 410) == b.dist(411, 410) == b.dist(510, 410) == 1
    assert b.dist(311, 411) == 1 and b.dist(311, 510) > 1
    assert cell("no_weapons", "alone", "double") == {"jp_disrupt"}
    assert cell("weapons", "alone", "double") == {"defeat"}
    j = b.jp(410, "J01")
    b.us("A/1/5", 311, steps=2)
    b.us("B/1/5", second, steps=2)
    attack(b, 410, "A/1/5", "B/1/5")
    s = b.state
    if flanked:
        assert s.jp_loc[0, j] == JP_ELIM
    else:
        assert s.jp_loc[0, j] == JP_MAP and s.jp_dis[0, j]


def test_peleliu_8_22_flanking_three_hexes_when_unit_and_depth_list_it():
    """8.22: when both the unit and its depth marker list FL, three hexes adjacent to the target
    are needed (they may be adjacent to each other).  J01 (FL BR) with depth 15 (FL), revealed, in
    A1 (0410): two non-adjacent hexes (0311, 0510) do not flank; three hexes (0311, 0411, 0409)
    do."""
    b = Board(turn=7)
    j = b.jp(410, "J01", rev=True, depth=15, depth_rev=True)
    assert b.sc.dm_requires[15] & W_FL and b.sc.jp_requires[j] & W_FL
    for n, h in (("A/1/5", 311), ("B/1/5", 510), ("C/1/5", 411)):
        b.us(n, h)
    h = b.hex(410)
    req = int(combat.jp_requires(b.T, b.S, 0, j, h))
    assert req & combat.FLANK3
    b.state.att_units[0, b.unit("A/1/5")] = True
    b.state.att_units[0, b.unit("B/1/5")] = True
    assert not combat.flanked(b.T, b.S, 0, h, 3)
    assert combat.flanked(b.T, b.S, 0, h, 2)
    b.state.att_units[0, b.unit("B/1/5")] = False
    b.us("B/1/5", 409)
    b.state.att_units[0, b.unit("B/1/5")] = True
    b.state.att_units[0, b.unit("C/1/5")] = True
    assert b.dist(409, 410) == 1 and b.dist(311, 411) == 1
    assert combat.flanked(b.T, b.S, 0, h, 3)


def test_peleliu_8_33_elite_withdraws_when_in_communication():
    """8.33: a defeated elite unit that can trace communication withdraws face down to the reserve
    box.  The flanked attack of the 8.22 test (defeat) with B21/B22 and A13 occupied: J01 in A1
    traces communication -> reserve box."""
    b = Board(turn=7)
    j = b.jp(410, "J01")
    b.jp(508)
    b.jp(408)
    b.us("A/1/5", 311, steps=2)
    b.us("B/1/5", 510, steps=2)
    assert b.comm()["A1"]
    attack(b, 410, "A/1/5", "B/1/5")
    assert b.state.jp_loc[0, j] == JP_RESERVE and not b.state.jp_rev[0, j]


def barrage_board() -> tuple[Board, int, int]:
    """8.3 example 4: the amphibious tank LVT/1 in 0415 (two hexes from 0216, not adjacent);
    C/1/5 (3 steps) and HQ/1/5 in 0215, in A8's intense field; RHQ/5 in 0315 commands all of them
    (10.21); the revealed J16 with face-down depth marker 10 in blue A8 (0216, clear)."""
    b = Board(turn=7)
    assert b.pos_hexnum("A8") == 216 and b.colour("A8") == "blue" and b.terrain(216) == "clear"
    assert b.dist(415, 216) == 2 and b.dot("A8", 215) == "intense" and not b.dot("A8", 415)
    j = b.jp(216, "J16", rev=True, depth=10)
    t = b.us("LVT/1", 415)
    b.us("C/1/5", 215, steps=3)
    b.us("HQ/1/5", 215)
    b.us("RHQ/5", 315)
    us.start_actions(b.T, b.S, 0)
    return b, t, j


def test_peleliu_8_4_barrage_example_4():
    """8.3 example 4 / 8.4: the barrage is legal (the infantry in 0215 observe: undisrupted, in the
    target's field of fire, in command).  The card drawn, 2, shows blue (the position's colour)
    and the triangle, not the barraging unit's circle -> row 'colour only'; strength 2 -> the
    2-strength column (clear: no shift) -> no effect.  The card goes to the card track."""
    assert CHARTS["barrage_columns"][1] == 2 and CHARTS["barrage_table"]["colour_only"][1] == ["none"]
    b, t, j = barrage_board()
    sc = b.sc
    assert 5 in sc.card_colour[card(2)] and sc.card_symbol[card(2)] == 2 and b.symbol("LVT/1") == "circle"
    h = b.hex(216)
    assert b.call(us.barrage_ok, u=t, h=h)
    b.force([2])
    combat.barrage(b.T, b.S, 0, t, -1, h)
    s = b.state
    assert not s.jp_dis[0, j] and s.jp_depth[0, j] == 10 and s.jp_loc[0, j] == JP_MAP
    assert s.jp_barraged[0, j] and s.us_acted[0, t] and s.card_pile[0, card(2)] == PILE_TRACK


def test_peleliu_8_41_barrage_needs_a_revealed_target_and_an_observer():
    """8.41: only a revealed position may be barraged; 8.4: a tank outside the target's field needs
    an undisrupted infantry observer in it (in command).  Face-down J16: not legal; observer
    disrupted: not legal."""
    b, t, j = barrage_board()
    h = b.hex(216)
    b.state.jp_rev[0, j] = False
    assert not b.call(us.barrage_ok, u=t, h=h)
    b.state.jp_rev[0, j] = True
    b.state.us_dis[0, b.unit("C/1/5")] = 1
    assert not b.call(us.barrage_ok, u=t, h=h)


@pytest.mark.parametrize("pid,shifted", [("A5", True), ("A16", False)])
def test_peleliu_8_4_barrage_coral_one_column_left(pid, shifted):
    """8.4: against coral use the column one to the left.  Card 44 shows orange and the circle:
    LVT/1 (circle, 2) barrages a revealed J22 with depth marker 10 in orange A5 (coral 0314) -> the
    1 column, 'colour and symbol': disrupted only; in orange A16 (clear 0521) -> the 2 column:
    disrupted and the depth marker eliminated."""
    table = CHARTS["barrage_table"]["colour_and_symbol"]
    assert CHARTS["barrage_columns"][:2] == [1, 2]
    assert table[0] == ["jp_disrupt"] and set(table[1]) == {"jp_disrupt", "depth_elim"}
    b = Board(turn=7)
    h = b.pos_hexnum(pid)
    assert b.colour(pid) == "orange" and b.terrain(h) == ("coral" if shifted else "clear")
    assert 0 in b.sc.card_colour[card(44)] and b.sc.card_symbol[card(44)] == 0
    j = b.jp(h, "J22", rev=True, depth=10)
    t = b.us("LVT/1", 415)
    b.force([44])
    combat.barrage(b.T, b.S, 0, t, -1, b.hex(h))
    s = b.state
    assert s.jp_dis[0, j]
    assert (s.jp_depth[0, j] == 10) == shifted


def test_peleliu_7_4_example_5_enter_revealed_enemy_hex():
    """8.3 example 5 / 7.4: the infantry/HQ and the infantry unit that began the phase in 0215 may
    enter the revealed enemy hex 0216, even after it was barraged; not a face-down one, not one
    attacked this phase.  Entering is one action; the close combat follows after all actions."""
    b, t, j = barrage_board()
    h = b.hex(216)
    b.state.jp_barraged[0, j] = True
    for name in ("C/1/5", "HQ/1/5"):
        m = np.zeros(b.sc.num_hexes, np.bool_)
        assert b.call(us.enter_targets, u=b.unit(name), m=m) == 1 and m[h]
    assert b.call(us.enter_targets, u=t) == 0          # a tank may not enter (7.0)
    b.state.jp_rev[0, j] = False
    assert b.call(us.enter_targets, u=b.unit("C/1/5")) == 0
    b.state.jp_rev[0, j] = True
    b.state.jp_attacked[0, j] = True
    assert b.call(us.enter_targets, u=b.unit("C/1/5")) == 0


def test_peleliu_7_1_units_in_command_act_free():
    """7.1 / 10.21 / 10.3: RHQ/5 in 0315 commands LVT/1 (0415) and the 0215 units; an infantry
    company alone out of range of any HQ is not in command and is not free."""
    b, t, j = barrage_board()
    b.us("K/3/7", 1020)
    set_command(b.T, b.S, 0, False)
    from wargym.peleliu.board import is_free
    assert all(b.state.us_cmd[0, b.unit(n)] for n in ("LVT/1", "C/1/5", "HQ/1/5"))
    assert is_free(b.T, b.S, 0, t) and not is_free(b.T, b.S, 0, b.unit("K/3/7"))


def command_board(commanders) -> tuple[Board, int]:
    """The revealed J16 in A8 (0216, nothing else on the map, so A8's is the only live field);
    B/1/5 in 0215 next to it, with HQ/1/5; the artillery Art/1/11 in 0415, two hexes from 0216 (in
    range: U), in no field of fire; ``commanders``: the regimental HQs and their hexes."""
    b = Board(turn=7)
    assert b.dist(415, 216) == 2 and b.dots_in(415) == {} and b.sc.us_range[b.unit("Art/1/11"), 1] >= 2
    j = b.jp(216, "J16", rev=True)
    b.us("B/1/5", 215)
    b.us("HQ/1/5", 215)
    b.us("Art/1/11", 415)
    for name, hexnum in commanders:
        b.us(name, hexnum)
    us.start_actions(b.T, b.S, 0)
    return b, j


@pytest.mark.parametrize("commanders,valid", [
    ((("RHQ/5", 316),), True),                  # RHQ/5 next to 0215 and 0415: commands both
    ((("RHQ/5", 516),), False),                 # RHQ/5 commands the artillery; B/1/5 only HQ/1/5's
    ((("RHQ/5", 516), ("RHQ/1", 214)), False),  # B/1/5 in RHQ/1's command, the artillery in RHQ/5's
])
def test_peleliu_8_1_artillery_joins_an_attack_of_infantry_its_own_regimental_hq_commands(commanders, valid):
    """8.1: artillery joins an attack "in command of a regimental HQ that is also commanding at least
    one infantry unit attacking the position".  B/1/5 (0215) is in command of the infantry/HQ HQ/1/5
    stacked with it (7.1, 10.3), and of a regimental HQ next to it; Art/1/11 (0415) of a regimental
    HQ next to it.  RHQ/5 in 0316 is next to both: the attack by B/1/5 and the artillery is valid.
    RHQ/5 in 0516 is next to the artillery only (three hexes from 0215): B/1/5's infantry/HQ is not
    a regimental HQ, nor is RHQ/1 in 0214 (next to 0215, two hexes from 0415) the artillery's:
    not valid.  B/1/5 alone is valid in every case."""
    b, j = command_board(commanders)
    assert b.dist(316, 215) == b.dist(316, 415) == 1 and b.dist(516, 415) == 1 and b.dist(516, 215) == 3
    assert b.dist(214, 215) == 1 and b.dist(214, 415) == 2
    s, h = b.state, b.hex(216)
    s.att_units[0, b.unit("B/1/5")] = True
    assert us.attack_valid(b.T, b.S, 0, h)
    s.att_units[0, b.unit("Art/1/11")] = True
    assert bool(us.attack_valid(b.T, b.S, 0, h)) == valid


@pytest.mark.parametrize("regimental", [True, False])
def test_peleliu_8_25_only_a_regimental_hq_lends_its_radio(regimental):
    """8.25: "US regimental HQ units possess radios ... A US unit attacking a Japanese position from
    an adjacent hex when in command of an HQ may include the HQ's radio"; 10.3 lists no radio among
    an infantry/HQ's capabilities.  B/1/5 attacks J16 (0216) from 0215, in command of HQ/1/5 stacked
    with it, and of RHQ/5 in 0316 or not: the attack has the radio (RD) only with RHQ/5."""
    b, j = command_board((("RHQ/5", 316),) if regimental else ())
    assert b.state.us_cmd[0, b.unit("B/1/5")]
    assert not weapons_of(b.T, b.S, 0, b.unit("B/1/5"), 1) & W_RD
    b.state.att_units[0, b.unit("B/1/5")] = True
    strength, weapons, hero = combat.attack_values(b.T, b.S, 0, b.hex(216), j)
    assert bool(weapons & W_RD) == regimental


def test_peleliu_8_4_barrage_off_a_position_reads_the_counterattack_marker_colour():
    """8.4: a barrage crosses the card's colours with the Japanese unit's colour; off a position a
    unit has none printed, and 13.44 / 8.64 give a unit in counterattack stance its marker's colour
    (a tank its counter's).  J21 in counterattack stance with marker 59 (purple, depth side up) in
    1019 (clear, no position); Art/1/11 (strength 4, triangle) barrages it with card 5 (purple,
    triangle): 'colour and symbol', column 4 -> disrupted and the depth eliminated (13.46: the
    marker turns to its side without depth; the unit stays in stance)."""
    assert CHARTS["barrage_columns"][3] == 4
    assert set(CHARTS["barrage_table"]["colour_and_symbol"][3]) >= {"jp_disrupt", "depth_elim"}
    b = Board(turn=7)
    purple = COLOURS.index("purple")
    assert b.sc.hex_pos[b.hex(1019)] < 0 and b.terrain(1019) == "clear" and b.sc.dm_colour[59] == purple
    assert purple in b.sc.card_colour[card(5)] and b.sc.card_symbol[card(5)] == SYMBOLS.index("triangle")
    assert b.symbol("Art/1/11") == "triangle" and b.sc.us_strength[b.unit("Art/1/11"), 1] == 4
    j = b.jp(1019, "J21", rev=True)
    s = b.state
    s.jp_ca[0, j], s.dm_loc[0, 59], s.dm_rev[0, 59] = 59, DM_UNIT, True
    u = b.us("Art/1/11", 1419)
    b.force([5])
    combat.barrage(b.T, b.S, 0, u, -1, b.hex(1019))
    assert s.jp_dis[0, j] and s.jp_ca[0, j] == 59 and not s.dm_rev[0, 59] and b.jp_where(j) == 1019


def test_peleliu_9_4_tactical_reinforcement_revealed_in_an_attack():
    """9.4: J22 (1, BR) in clear A1 (0410) with face-down depth marker 0, a Tactical Reinforcement;
    B/1/5 (7, BR) attacks from 0411: 7 vs 1 -> 'triple', lower section, unit + unrevealed depth ->
    reveal the marker.  It is a Tactical Reinforcement: the marker leaves play and a reserve unit
    goes to the empty position hex nearest to A1: A2 (0312), A6 (0209), A13 (0408), A14 (0611) are
    two hexes away; the closest to a U.S. unit (B/1/5 in 0411) is A2 (one hex).  The attack goes on
    against the unit alone: 'triple', lower section -> defeated (non-elite: out of play)."""
    b = Board(turn=7)
    assert b.sc.dm_tr[0]
    near = {pid: (b.dist(410, b.pos_hexnum(pid)), b.dist(411, b.pos_hexnum(pid))) for pid in ("A2", "A6", "A13", "A14")}
    assert near == {"A2": (2, 1), "A6": (2, 3), "A13": (2, 3), "A14": (2, 2)}
    assert all(b.dist(410, b.number(h)) >= 2 for h in b.sc.pos_hex if b.number(h) != 410)
    assert cell("weapons", "depth_hidden", "triple") == {"reveal_depth"}
    assert cell("weapons", "alone", "triple") == {"defeat"}
    j = b.jp(410, "J22", depth=0)
    b.reserve("J40")
    b.us("B/1/5", 411)
    attack(b, 410, "B/1/5")
    s = b.state
    assert s.dm_loc[0, 0] == DM_OUT
    r = b.jp_unit("J40")
    assert s.jp_loc[0, r] == JP_MAP and b.jp_where(r) == 312 and not s.jp_rev[0, r]
    assert s.jp_loc[0, j] == 0       # JP_OUT: a defeated non-elite unit leaves play


@pytest.mark.parametrize("cause", ["attrition", "japanese_fire"])
def test_peleliu_10_15_hero_sacrifice_only_against_fire_and_close_combat(cause):
    """10.15: a hero may be sacrificed instead of eliminating a one-step unit that loses a step to
    close combat or Japanese fire; the attacker's own attrition (8.3) is neither: the one-step unit
    with the hero is eliminated and the hero with it (10.11).  Against fire the hero is sacrificed
    (the default) and the unit, now inspired (10.16), stays."""
    b = Board(turn=7)
    b.jp(314, "J01", depth=8)
    u = b.us("A/1/5", 213, steps=1)
    b.state.hero[0, u] = 1
    if cause == "attrition":
        b.state.att_units[0, u] = True
        b.state.target[0] = b.hex(314)
        combat.attrition(b.T, b.S, 0, True)
        assert b.loc("A/1/5") == US_ELIM and b.state.hero[0, u] == 0
    else:
        step_loss(b.T, b.S, 0, u)
        assert b.loc("A/1/5") == US_MAP and b.steps("A/1/5") == 1 and b.state.hero[0, u] == 2


def unsupported_tank_board(second_infantry: bool) -> tuple[Board, int, int, int]:
    """8.1 tank condition: the amphibious tank LVT/1 in 0415, two hexes from J16 in A8 (0216), not
    in command (no regimental HQ on the map), with no attacking infantry next to it; C/1/5 in 0215
    attacks, not in command and without a radio.  With ``second_infantry`` B/1/5 and the
    infantry/HQ HQ/1/5 stand in 0316, next to both 0216 and the tank: HQ/1/5 commands B/1/5 (10.3),
    so both act for free."""
    b = Board(turn=7)
    assert b.dist(415, 216) == 2 and b.dist(215, 415) == 2
    assert b.dist(316, 216) == 1 and b.dist(316, 415) == 1
    j = b.jp(216, "J16", rev=True)
    t = b.us("LVT/1", 415)
    c = b.us("C/1/5", 215, steps=3)
    if second_infantry:
        b.us("B/1/5", 316)
        b.us("HQ/1/5", 316)
    us.start_actions(b.T, b.S, 0)
    assert not b.state.us_cmd[0, t] and not b.state.us_cmd[0, c]
    assert b.state.us_cmd[0].any() == second_infantry
    assert not (b.call(weapons_of, u=c, d=1) & W_RD)
    return b, t, c, j


@pytest.mark.parametrize("second_infantry", [False, True])
def test_peleliu_8_1_a_joiner_never_leaves_an_attack_that_cannot_be_resolved(second_infantry):
    """8.1: a tank attacks only when adjacent, in command, with an attacking infantry unit in
    command or with a radio, or next to an attacking infantry unit.  C/1/5 attacks 0216 (valid:
    RESOLVE legal).  Adding LVT/1 would leave an invalid attack; alone on the map nothing could
    join to mend it (one action left after the tank, and C/1/5's hex is paid for), so LVT/1 is not
    offered: the join decision can never reach a point where only a take-back is legal.  With
    B/1/5 in 0316 (next to the target and to the tank, free in HQ/1/5's command) the attack can be
    mended, and LVT/1 is offered.  For the same reason LVT/1 may open an attack on 0216 only in the second
    case (attack_targets)."""
    b, t, c, j = unsupported_tank_board(second_infantry)
    H = b.sc.num_hexes
    b.state.att_units[0, c] = True
    b.state.target[0] = b.hex(216)
    assert b.call(us.attack_valid, h=b.hex(216))
    b.state.att_units[0, t] = True
    assert not b.call(us.attack_valid, h=b.hex(216))
    b.state.att_units[0, t] = False
    assert b.call(us.may_join_attack, u=t, h=b.hex(216))
    m = np.zeros(num_actions(H), np.bool_)
    b.call(us.join_mask, m=m, H=H)
    assert m[H + RESOLVE] and m[H + NO]
    assert m[H + UNIT_0 + t] == second_infantry
    assert list(np.flatnonzero(b.state.att_units[0])) == [c]  # the trial joiners are taken back
    b.state.att_units[0, c] = False
    targets = np.zeros(H, np.bool_)
    b.call(us.attack_targets, u=t, m=targets)
    assert targets[b.hex(216)] == second_infantry
    assert not b.state.att_units[0].any()
