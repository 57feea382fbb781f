"""Solitaire play (13.0): the set-up of 13.2.1, ad hoc placement (13.2.2), airpower in defence of
the Victory Hexes (13.2), ambushes (13.3), night infiltration (13.5), with dice fixed by hand."""

from __future__ import annotations

import numpy as np
import pytest

from attu_board import Board, ambush_board, full_move, jp, make_core, step7, unknowns
from wargym.attu.actions import HOLD, MELEE_0, NO, SLOT_0, YES
from wargym.attu.movement import INF, move_destinations
from wargym.attu.scenario import FOG, JAPAN, UNKNOWN, US
from wargym.attu.sequence import DRIVER, fill_mask

step_game = DRIVER.step_game
from wargym.attu.solitaire import ad_hoc, announce_air, setup
from wargym.attu.state import (
    ACT_ORDER, ACT_SELECT, LOC_MAP, LOC_NONE, LOC_RESERVE, LOSS, MARTINEZ, RETREAT_OPTION,
)

RIFLE = "1/17 A"


@pytest.fixture(scope="module")
def core():
    return make_core("campaign", solitaire=True)


def board(core, **fields) -> Board:
    b = Board(core)
    b.set(**fields)
    return b


def dice(b: Board, values) -> None:
    b.force(values)


def test_attu_13_2_1_one_pinned_unknown_per_victory_hex_and_a_die_plus_one_to_place(core):
    b = board(core)
    dice(b, [7])
    setup(b.tables, b.arrays, 0)
    s = b.state
    unk = unknowns(core)
    for v in core.tables.victory_hex:
        here = [u for u in unk if s.unit_loc[0, u] == LOC_MAP and s.unit_hex[0, u] == v]
        assert len(here) == 1 and s.pinned[0, here[0]] and s.face_down[0, here[0]]
    assert (s.unit_loc[0, unk] == LOC_NONE).sum() == 7 + 1          # the Japanese place these
    assert (s.unit_loc[0, unk] == LOC_RESERVE).sum() == len(unk) - 6 - 8  # the container (13.1)


def test_attu_13_2_1_pinned_unknowns_cannot_move(core):
    b = board(core)
    u = b.place(unknowns(core)[0], 2717, face_down=True)
    out = np.zeros(core.tables.nbr.shape[0], dtype=bool)
    move_destinations(b.tables, b.arrays, 0, u, out)
    assert out.any()
    b.state.pinned[0, u] = True
    out[:] = False
    move_destinations(b.tables, b.arrays, 0, u, out)
    assert not out.any()


def test_attu_13_2_1_a_masked_move_of_a_pinned_unknown_names_the_rule(core):
    """13.2.1 in the reason an illegal action gets: the Unknown on 2717, ordered in the Japanese
    Player Actions step, is asked to move to 2716 next to it.  Pinned there, the reason names the
    unit and 13.2.1; not pinned, the move is legal."""
    b = board(core)
    u = b.place(unknowns(core)[0], 2717, face_down=True)
    b.state.pinned[0, u] = True
    to = b.hex(2716)
    why = refused(core, b, u, to)
    assert f"{core.unit_label(u)} was placed on its Victory Hex (13.2.1) and may not move" in why
    b.state.pinned[0, u] = False
    assert order_mask_of(b, u)[to]


def hex_at(core, v: int, distance: int) -> int:
    """A land hex at ``distance`` from hex index v and more than four from the other Victory Hexes."""
    others = [w for w in core.tables.victory_hex if w != v]
    for h in np.nonzero(core.tables.dist[v] == distance)[0]:
        if core.tables.land[h] and not core.tables.near_lz[h] and all(core.tables.dist[h, w] > 4 for w in others):
            return int(h)
    raise AssertionError("no such hex")


def test_attu_13_2_2_us_unit_within_four_hexes_brings_die_plus_one_infantry(core):
    b = board(core)
    v = b.hex(2717)
    us_hex = hex_at(core, v, 4)
    b.place(RIFLE, core.scenario.grid.number(us_hex))
    dice(b, [3])
    ad_hoc(b.tables, b.arrays, 0)
    s = b.state
    new = np.nonzero((s.unit_loc[0] == LOC_MAP) & (core.scenario.unit_side == JAPAN))[0]
    assert len(new) == 3 + 1
    assert all(core.tables.dist[s.unit_hex[0, u], v] <= 2 for u in new)
    assert all(core.scenario.unit_type[u] != UNKNOWN for u in new)      # infantry steps, not Unknowns
    for h in set(s.unit_hex[0, new]):
        assert (s.unit_hex[0, new] == h).sum() <= 3                       # 4.2
    between = [u for u in new if core.tables.dist[s.unit_hex[0, u], us_hex] < 4]
    assert between                                                       # toward the U.S. unit
    ad_hoc(b.tables, b.arrays, 0)                                        # once per Victory Hex
    assert ((s.unit_loc[0] == LOC_MAP) & (core.scenario.unit_side == JAPAN)).sum() == 4


def test_attu_13_2_2_ad_hoc_infantry_are_placed_face_down_and_known_to_the_us(core):
    """13.2.2 with 2.5 (README, "Solitaire"): the Infantry placed ad hoc have not been in a Melee,
    the moment 2.5 reveals Japanese units, so they go on the map face down; the U.S. player drew
    and placed them himself, so he knows them; each is flagged to fire until engaged."""
    b = board(core)
    b.place(RIFLE, core.scenario.grid.number(hex_at(core, b.hex(2717), 3)))
    dice(b, [2])
    ad_hoc(b.tables, b.arrays, 0)
    s = b.state
    new = np.nonzero((s.unit_loc[0] == LOC_MAP) & (core.scenario.unit_side == JAPAN))[0]
    assert len(new) == 2 + 1
    assert s.face_down[0, new].all() and s.us_knows[0, new].all() and s.ad_hoc[0, new].all()


def test_attu_13_2_2_no_placement_beyond_four_hexes(core):
    b = board(core)
    b.place(RIFLE, core.scenario.grid.number(hex_at(core, b.hex(2717), 5)))
    ad_hoc(b.tables, b.arrays, 0)
    assert not ((b.state.unit_loc[0] == LOC_MAP) & (core.scenario.unit_side == JAPAN)).any()


def test_attu_13_2_airpower_goes_to_the_strongest_stack_attacking_a_victory_hex(core):
    b = board(core)
    v = b.hex(2717)
    b.place(b.japanese(), 2717)
    n1, n2 = [int(n) for n in core.tables.nbr[v] if n >= 0 and core.tables.land[n]][:2]
    b.place(RIFLE, core.scenario.grid.number(n1), steps=2)
    b.place("1/17 B", core.scenario.grid.number(n2), steps=4)
    b.state.airpower[0, JAPAN] = 2
    assert announce_air(b.tables, b.arrays, 0) == 2
    assert list(b.state.air_target[0, :2]) == [n2, n2]
    assert b.state.airpower[0, JAPAN] == 0


def ambushers(b: Board, container: int) -> tuple[int, int, int]:
    """(die, number of ambushers, their melee dice): the container's best roll, and a cup cut
    down to exactly the Infantry that will come."""
    table = b.core.scenario.unit_table[container]
    die = int(np.argmax(table)) + 1
    n = int(table[die - 1]) - 2
    cup = np.nonzero(b.state.unit_loc[0] == LOC_RESERVE)[0]
    cup = [v for v in cup if b.core.scenario.unit_type[v] != UNKNOWN]
    for v in cup[n:]:
        b.state.unit_loc[0, v] = LOC_NONE
    return die, n, sum(int(b.core.scenario.unit_melee[v, 0]) for v in cup[:n])


def test_attu_13_3_full_allowance_draws_an_ambush_and_the_japanese_fire_first(core):
    b, u, container = ambush_board(core)
    dest, mp = full_move(b, u)
    start = b.state.unit_hex[0, u]
    die, n, jp_dice = ambushers(b, container)
    assert n >= 1
    us_dice = int(core.scenario.unit_melee[u, 3])
    dice(b, [die] + [1] * jp_dice + [10] * us_dice)  # the ambushers miss, the company hits with all
    step_game(b.tables, b.arrays, 0, dest)
    while b.state.phase[0] == LOSS:            # the Japanese choose which of them goes
        m = np.zeros(b.state.legal_action_mask.shape[1], dtype=bool)
        fill_mask(b.tables, b.arrays, 0, m)
        step_game(b.tables, b.arrays, 0, int(np.argmax(m)))
    s = b.state
    assert b.dice_used == 1 + jp_dice + us_dice  # ambush roll, Japanese fire, then U.S. fire
    assert s.unit_hex[0, u] == dest and s.phase[0] == ACT_SELECT
    assert not ((s.unit_loc[0] == LOC_MAP) & (s.unit_hex[0] == dest) & (core.scenario.unit_side == JAPAN)).any()
    assert s.casualties[0] == 0 and start != dest


def withdrawn_from_ambush(core) -> tuple[Board, int, int, int, int]:
    """13.3: an ambush in which everybody misses and the company withdraws: (board, company, the
    hex it came from, the ambush hex, the number of ambushers)."""
    b, u, container = ambush_board(core)
    dest, mp = full_move(b, u)
    die, n, jp_dice = ambushers(b, container)
    us_dice = int(core.scenario.unit_melee[u, 3])
    dice(b, [die] + [1] * jp_dice + [1] * us_dice)  # everybody misses
    step_game(b.tables, b.arrays, 0, dest)
    assert b.state.phase[0] == MARTINEZ                # 11.1 is offered the misses; not taken
    step_game(b.tables, b.arrays, 0, core.tables.nbr.shape[0] + NO)
    assert b.state.phase[0] == RETREAT_OPTION
    came_from = b.state.unit_hex[0, u]
    step_game(b.tables, b.arrays, 0, core.tables.nbr.shape[0] + YES)
    return b, u, int(came_from), dest, n


def test_attu_13_3_ambushed_unit_may_withdraw_leaving_the_japanese(core):
    b, u, came_from, dest, n = withdrawn_from_ambush(core)
    assert came_from != dest and core.tables.dist[came_from, dest] == 1
    s = b.state
    assert s.unit_hex[0, u] == came_from and s.phase[0] == ACT_SELECT
    assert ((s.unit_loc[0] == LOC_MAP) & (s.unit_hex[0] == dest) & (core.scenario.unit_side == JAPAN)).sum() == n


def test_attu_13_3_ambushers_left_in_the_hex_act_in_the_japanese_step(core):
    """13.3 with 3.6: after the withdrawal "the Japanese units remain in the hex".  They appeared
    in the U.S. Player Actions step and struck "as if defending", which is no action of theirs
    (3.5 names Move, Declare Melee and Ranged Combat): when the U.S. ends its step, Japan's Step 6
    offers them, and they may declare Melee against the company next to them (8.2).  The company
    was the U.S. player's only unit, so with the withdrawal its step is over."""
    b, u, came_from, dest, n = withdrawn_from_ambush(core)
    s = b.state
    assert s.acting[0] == JAPAN and s.phase[0] == ACT_SELECT
    ambush = (s.unit_loc[0] == LOC_MAP) & (s.unit_hex[0] == dest) & (core.scenario.unit_side == JAPAN)
    assert not s.acted[0, ambush].any()
    m = np.zeros(s.legal_action_mask.shape[1], dtype=bool)
    fill_mask(b.tables, b.arrays, 0, m)
    assert m[dest]
    step_game(b.tables, b.arrays, 0, dest)
    if n > 1:                                          # several in the hex: the first of them
        step_game(b.tables, b.arrays, 0, core.tables.nbr.shape[0] + SLOT_0)
    assert b.state.phase[0] == ACT_ORDER
    fill_mask(b.tables, b.arrays, 0, m)
    toward = list(core.tables.nbr[dest]).index(came_from)
    assert m[core.tables.nbr.shape[0] + MELEE_0 + toward]


def test_attu_13_3_no_ambush_short_of_the_full_allowance(core):
    b, u, _ = ambush_board(core)
    out = np.zeros(core.tables.nbr.shape[0], dtype=bool)
    dist = move_destinations(b.tables, b.arrays, 0, u, out)
    near = int(np.nonzero(out & (dist < 3))[0][0])
    step_game(b.tables, b.arrays, 0, near)
    assert b.state.unit_hex[0, u] == near and b.dice_used == 0


@pytest.mark.parametrize("weather,die,stays", [(0, 4, True), (0, 5, False), (0, 10, True), (FOG, 4, False)])
def test_attu_13_5_night_infiltration_roll(core, weather, die, stays):
    b = board(core, phase=ACT_ORDER, acting=US, night=True, weather=weather)
    u = b.place(RIFLE, 2515)
    b.set(selected=u)
    enemy = [int(n) for d, n in enumerate(core.tables.nbr[b.hex(2515)]) if n >= 0 and core.tables.land[n]
             and core.tables.zoc_reach[n, (d + 3) % 6]][0]
    b.place(b.japanese(), core.scenario.grid.number(enemy))
    out = np.zeros(core.tables.nbr.shape[0], dtype=bool)
    dist = move_destinations(b.tables, b.arrays, 0, u, out)
    dest = int(np.nonzero(out)[0][0])
    assert dist[dest] < INF
    dice(b, [die])
    step_game(b.tables, b.arrays, 0, dest)
    assert (b.state.unit_hex[0, u] == b.hex(2515)) == stays
    assert b.state.acted[0, u]


def order_mask_of(b: Board, u: int) -> np.ndarray:
    """The ACT_ORDER mask (3.5) of Japanese unit u, laid out directly."""
    b.set(phase=ACT_ORDER, selected=u, acting=JAPAN)
    m = np.zeros(b.state.legal_action_mask.shape[1], dtype=bool)
    fill_mask(b.tables, b.arrays, 0, m)
    return m


def refused(core, b: Board, u: int, action: int) -> str:
    """The reason Japan is given for ``action`` while ordering its unit u, an action its ACT_ORDER
    mask leaves out."""
    b.state.legal_action_mask[0] = order_mask_of(b, u)
    b.state.current_player[0] = JAPAN
    assert not b.state.legal_action_mask[0, action]
    return core.illegal_texts(b.state, 0, [action], viewer=JAPAN)[0]


def platoon_facing_two_companies(core, placed_ad_hoc: bool) -> tuple[Board, int]:
    """A Japanese platoon at 2621 (range 2), a U.S. company next to it at 2521 and another two
    hexes off at 2422, both in sight; the platoon placed ad hoc (13.2.2) or not."""
    b = board(core)
    u = jp(b, 2621)
    b.place(RIFLE, 2521)
    b.place("1/17 B", 2422)
    b.state.ad_hoc[0, u] = placed_ad_hoc
    return b, u


def test_attu_13_2_2_ad_hoc_infantry_fire_on_the_nearest_us_unit_and_do_not_declare_melee(core):
    """13.2.2: the Infantry placed ad hoc "will use Ranged Combat against the nearest U.S. unit
    until engaged in Melee".  A platoon at 2621 (range 2) has a U.S. company next to it at 2521
    and another two hexes off at 2422, both in sight.  Unflagged it may fire at either or declare
    Melee on 2521 (8.1, 8.2); placed ad hoc it may only fire at 2521, the nearer, and not hold."""
    H = core.tables.nbr.shape[0]
    masks = []
    for placed_ad_hoc in (False, True):
        b, u = platoon_facing_two_companies(core, placed_ad_hoc)
        masks.append(order_mask_of(b, u))
    free, ad_hoc_mask = masks
    assert free[b.hex(2521)] and free[b.hex(2422)] and free[H + MELEE_0:H + MELEE_0 + 6].any() and free[H + HOLD]
    assert list(np.flatnonzero(ad_hoc_mask)) == [b.hex(2521)]


def test_attu_13_2_2_a_masked_order_of_ad_hoc_infantry_names_the_rule(core):
    """13.2.2 in the reason an illegal action gets: the platoon at 2621 (the test above), placed
    ad hoc, is asked to declare a Melee.  The reason names the unit and 13.2.2, then the
    legal order (fire at 2521); unflagged, the same platoon's masked answer YES (no question is
    asked in this phase) gets the shared reason alone."""
    H = core.tables.nbr.shape[0]
    reasons = []
    for placed_ad_hoc, action in ((True, H + MELEE_0), (False, H + YES)):
        b, u = platoon_facing_two_companies(core, placed_ad_hoc)
        reasons.append(refused(core, b, u, action))
    flagged, free = reasons
    assert f"{core.unit_label(u)} was placed ad hoc (13.2.2)" in flagged
    assert "hex 2521" in flagged.split("legal:")[1]
    assert "13.2.2" not in free and "legal:" in free


def test_attu_13_2_2_ad_hoc_infantry_with_no_us_unit_to_fire_at_hold_and_do_not_move(core):
    """13.2.2: with no U.S. unit in range (the company 5 hexes off) the ad hoc platoon has
    nothing to fire at; it does not move either (it only fires until engaged), so it holds."""
    H = core.tables.nbr.shape[0]
    b = board(core)
    u = jp(b, 2621)
    far = [int(h) for h in np.flatnonzero(core.tables.dist[b.hex(2621)] == 5) if core.tables.land[h]][0]
    b.place(RIFLE, core.scenario.grid.number(far))
    free = order_mask_of(b, u)
    b.state.ad_hoc[0, u] = True
    held = order_mask_of(b, u)
    assert free[:H].any()                                  # it could move
    assert list(np.flatnonzero(held)) == [H + HOLD]


def test_attu_13_2_2_placed_infantry_are_ad_hoc_and_a_us_melee_frees_them(core):
    """13.2.2 with 8.2: ad_hoc places its Infantry flagged; once the U.S. declares Melee on one
    of their hexes and Step 7 (3.7) starts that Melee, the units in it are engaged and act
    freely from then on, while the others keep firing only."""
    b = board(core)
    v = b.hex(2717)
    b.place(RIFLE, core.scenario.grid.number(hex_at(core, v, 4)))
    dice(b, [3])
    ad_hoc(b.tables, b.arrays, 0)
    s = b.state
    placed = np.flatnonzero((s.unit_loc[0] == LOC_MAP) & (core.scenario.unit_side == JAPAN))
    assert len(placed) == 4 and s.ad_hoc[0, placed].all()
    t = int(s.unit_hex[0, placed[0]])
    beside = [int(n) for n in core.tables.nbr[t] if n >= 0 and core.tables.land[n]
              and not ((s.unit_loc[0] == LOC_MAP) & (s.unit_hex[0] == n)).any()][0]
    attacker = b.place("1/17 B", core.scenario.grid.number(beside))
    p = step7(b, {attacker: core.scenario.grid.number(t)}, US)
    p.force([1] * 20)                                      # whatever the Melee rolls
    p.do(t)                                                # the U.S. picks its Melee (3.7)
    engaged = (p.state.unit_loc[0] == LOC_MAP) & (p.state.unit_hex[0] == t)
    others = np.setdiff1d(placed, np.flatnonzero(engaged))
    assert not p.state.ad_hoc[0, engaged].any()
    assert p.state.ad_hoc[0, others].all() and len(others) >= 1
