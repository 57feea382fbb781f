"""Colonel Yamasaki (11.3): when he is offered, the doubled move through U.S. ZOCs, and the assault
in which the attackers roll first (11.3.2), with dice fixed by hand."""

from __future__ import annotations

import numpy as np

from attu_board import Board, core, make_core  # noqa: F401  (core: the session fixture)
from wargym.attu.actions import END, YAMASAKI
from wargym.attu.scenario import IMPASSABLE, INFANTRY, JAPAN, UNKNOWN
from wargym.attu.sequence import DRIVER, fill_mask

step_game = DRIVER.step_game
from wargym.attu.state import ACT_SELECT, HERO_YAMASAKI, LOC_ELIM, LOC_MAP, YAMA_MOVE, YAMA_SELECT

X = 2515


def japanese_turn(core, infantry: int) -> tuple[Board, list[int]]:
    """``infantry`` one-step Japanese Infantry, all but one in hex X, the Japanese Player Actions step;
    every other Japanese Infantry eliminated (11.3 counts the cup too)."""
    b = Board(core)
    units = [b.place(b.japanese(skip=0), X) for _ in range(infantry - 1)]
    b.place(b.japanese(), 3409)  # a second hex to choose from
    sc = core.scenario
    rest = (sc.unit_side == JAPAN) & (sc.unit_type == INFANTRY) & (b.state.unit_loc[0] != LOC_MAP)
    b.state.unit_loc[0, rest] = LOC_ELIM
    b.state.unit_steps[0, rest] = 0
    b.set(acting=JAPAN, first=JAPAN, phase=ACT_SELECT, current_player=JAPAN)
    return b, units


def mask(b: Board) -> np.ndarray:
    m = np.zeros(b.state.legal_action_mask.shape[1], dtype=bool)
    fill_mask(b.tables, b.arrays, 0, m)
    return m


def neighbour(b: Board, h: int) -> tuple[int, int]:
    """A land neighbour of hex h that the Japanese can enter (and melee into): (direction, hex)."""
    for d in range(6):
        n = b.tables.nbr[h, d]
        if n >= 0 and b.tables.cost[JAPAN, h, d] < IMPASSABLE and b.tables.zoc_reach[h, d]:
            return d, int(n)
    raise AssertionError("no enterable neighbour")


def test_attu_11_3_yamasaki_offered_at_four_infantry_steps_or_fewer(core):
    h = core.tables.nbr.shape[0]
    five, _ = japanese_turn(core, 5)
    assert not mask(five)[h + YAMASAKI]
    four, _ = japanese_turn(core, 4)
    assert mask(four)[h + YAMASAKI]
    four.state.heroes_used[0, HERO_YAMASAKI] = True  # 11.0: once per game
    assert not mask(four)[h + YAMASAKI]


def test_attu_13_4_solitaire_play_offers_no_yamasaki_activation(core):
    """13.0: "Except where noted below, the standard rules of play apply", and 13.4 notes Colonel
    Yamasaki: in solitaire play his effect is that the Infantry defending the last Victory Hex melee
    at double strength.  11.3's activation is a player's choice (11.0: "at the discretion of each
    player"), and the Japanese have no player there.  With four Japanese Infantry steps left and
    Japan acting, the campaign offers him (the test above); the solitaire campaign does not."""
    h = core.tables.nbr.shape[0]
    two_player, _ = japanese_turn(core, 4)
    assert mask(two_player)[h + YAMASAKI]
    solo, _ = japanese_turn(make_core("campaign", solitaire=True), 4)
    assert not mask(solo)[h + YAMASAKI]


def test_attu_11_3_1_doubled_movement_points(core):
    b, units = japanese_turn(core, 3)
    h = core.tables.nbr.shape[0]
    step_game(b.tables, b.arrays, 0, h + YAMASAKI)
    assert b.state.phase[0] == YAMA_SELECT
    step_game(b.tables, b.arrays, 0, b.hex(X))
    assert b.state.phase[0] == YAMA_MOVE
    assert b.state.yama_mp[0] == 2 * 5  # Japanese Infantry move 5, Cloudy day
    d, y = neighbour(b, b.hex(X))
    step_game(b.tables, b.arrays, 0, y)
    assert all(b.state.unit_hex[0, u] == y for u in units)
    assert b.state.yama_mp[0] == 10 - core.tables.cost[JAPAN, b.hex(X), d]


def test_attu_11_3_1_group_ignores_us_zoc(core):
    b, units = japanese_turn(core, 3)
    h = core.tables.nbr.shape[0]
    d, y = neighbour(b, b.hex(X))
    us = b.place("1/17 A", core.scenario.grid.number(y))  # its ZOC covers X and the hexes around
    step_game(b.tables, b.arrays, 0, h + YAMASAKI)
    step_game(b.tables, b.arrays, 0, b.hex(X))
    m = mask(b)
    free = [int(n) for e, n in enumerate(core.tables.nbr[b.hex(X)])
            if n >= 0 and n != y and core.tables.cost[JAPAN, b.hex(X), e] < IMPASSABLE]
    assert any(m[n] for n in free)  # leaving an enemy ZOC, which 6.1 forbids by day
    assert b.state.unit_loc[0, us] == LOC_MAP


def test_attu_11_3_2_assault_attackers_roll_first_and_move_on(core):
    b, units = japanese_turn(core, 3)
    h = core.tables.nbr.shape[0]
    d, y = neighbour(b, b.hex(X))
    eng = b.place("1/17 A", core.scenario.grid.number(y), steps=1)  # one hit eliminates it
    step_game(b.tables, b.arrays, 0, h + YAMASAKI)
    step_game(b.tables, b.arrays, 0, b.hex(X))
    attack_dice = sum(int(core.scenario.unit_melee[u, 0]) for u in units)
    assert attack_dice >= 1
    b.force([10] * attack_dice)                           # a natural 0 always hits (8.0)
    step_game(b.tables, b.arrays, 0, y)                   # +1 MP into the enemy hex, Melee at once
    assert b.state.unit_loc[0, eng] == LOC_ELIM
    assert b.dice_used == attack_dice                      # the defender never rolled
    assert all(b.state.unit_hex[0, u] == y for u in units)  # the group went in ...
    assert b.state.phase[0] == YAMA_MOVE                   # ... and may move on
    assert b.state.yama_mp[0] == 10 - core.tables.cost[JAPAN, b.hex(X), d] - 1
    step_game(b.tables, b.arrays, 0, h + END)
    assert b.state.phase[0] == ACT_SELECT and b.state.acted[0, units].all()


def test_attu_11_3_unknowns_of_the_activated_hex_join_as_infantry(core):
    """11.3 with 2.5: Yamasaki activates "all units in any single hex".  An Unknown that has not
    acted stands alone in 2515; two Japanese Infantry steps are left, both in the cup (every other
    Infantry eliminated), so he is offered.  2515 is the only hex he may activate (picked for
    Japan), and its Unknown is revealed (README): die 6 on its table (1, 1, 1, 1, 1, 2, ...;
    counters.yaml, reconstructed) brings the two platoons of the cup, which have not acted either
    and join the group: 2 x 5 = 10 Movement Points (Japanese Infantry move 5, Cloudy, day), and
    one step moves both."""
    b = Board(core)
    unknown = b.place(b.japanese("unknown"), X, face_down=True)
    sc = core.scenario
    assert sc.unit_type[unknown] == UNKNOWN and list(sc.unit_table[unknown][:6]) == [1, 1, 1, 1, 1, 2]
    infantry = np.flatnonzero((sc.unit_side == JAPAN) & (sc.unit_type == INFANTRY))
    cup, rest = [int(v) for v in infantry[:2]], infantry[2:]
    b.state.unit_loc[0, rest] = LOC_ELIM
    b.state.unit_steps[0, rest] = 0
    b.set(acting=JAPAN, first=JAPAN, phase=ACT_SELECT, current_player=JAPAN)
    h = core.tables.nbr.shape[0]
    assert mask(b)[h + YAMASAKI]
    b.force([6])
    step_game(b.tables, b.arrays, 0, h + YAMASAKI)
    assert b.dice_used == 1 and b.state.phase[0] == YAMA_MOVE
    assert all(b.state.unit_hex[0, v] == b.hex(X) for v in cup)
    assert b.state.yama_unit[0, cup].all() and b.state.yama_mp[0] == 10
    _, y = neighbour(b, b.hex(X))
    step_game(b.tables, b.arrays, 0, y)
    assert all(b.state.unit_hex[0, v] == y for v in cup)
