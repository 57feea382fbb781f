"""The Attu rule baselines use the book (agents/attu_rule.py): for each behaviour, a hand-laid
position where its trigger holds and the rule takes the action, and one where it does not.

Each position is driven through ``core.refresh``/``core.step`` with the legal action mask, and the
rule (``baselines.get``) is asked as any agent is.  Map distances and Movement Point costs come from
the reconstructed map (configs/attu/map.yaml); unit ratings and Unknown tables that the book does
not print come from configs/attu/counters.yaml (reconstructed); each docstring names the values it
relies on.
"""

from __future__ import annotations

import numpy as np
import pytest

from attu_board import Board, core  # noqa: F401  (core: the session fixture)
from wargym.agents.attu_rule import AttuRuleAgent
from wargym.agents.baselines import get, registered
from wargym.attu.actions import END, HOLD, LZ_0, MAX_BATTALIONS, MELEE_0, NO, REINF_0, YAMASAKI, YES
from wargym.attu.board import zoc_of
from wargym.attu.scenario import INFANTRY, JAPAN, US
from wargym.attu.state import (
    ACT_ORDER, ACT_SELECT, DEPOT, INDEPENDENT, LOC_ELIM, LOC_MAP, LOC_RESERVE, NIGHT_DECISION, REINF_PICK, REINF_ZONE,
    SWAP_PICK, SWAP_PLACE,
    UNKNOWN_DEST, UNKNOWN_PICK, YAMA_MOVE, YAMA_SELECT, as_arrays,
)
from wargym.attu.supply import in_supply, supply_distance


def at(board: Board, phase: int, **fields):
    """The board's state in decision ``phase`` with its legal actions worked out."""
    board.set(phase=phase, **fields)
    return board.core.refresh(board.state)


def rule(core, state, side: int, name: str = "rule") -> int:
    """The rule baseline ``name``'s action for game 0 (it must be legal there)."""
    a = int(get("attu", "us" if side == US else "japan", name).act(core, state, side)[0])
    assert state.legal_action_mask[0, a]
    return a


def step(core, state, action: int):
    return core.step(state, np.array([action]))


def dist(core, a: int, b: int) -> int:
    """Hexes between printed hexes a and b (reconstructed map)."""
    g = core.scenario.grid
    return int(core.tables.dist[g.index(a), g.index(b)])


# ------------------------------------------------------------------------ Japan, 9.6 step 1
def test_attu_9_6_japan_moves_a_far_unknown_onto_the_threatened_victory_hex(core):
    """9.6 step 1: Unknowns may go to any hex not next to a U.S. unit or a Landing Zone.  2/17 E (4
    steps) on Landing Zone E (2721) stands 4 hexes from Engineer Hill (2717), within NEAR_VICTORY
    (6), and no Japanese counter is within 2 of 2717, so 2717's need is 4 - 4 x 0 = 4.  No other
    Victory Hex has a U.S. unit within 6 (2117 is 7 hexes from 2721).  The Unknown in 1216 is 9 or
    more hexes from every Victory Hex (no garrison), 15 from 2721 (beyond THREAT_RANGE 4) and 15 from
    2717: far from the fighting, so Japan picks it.  Its destination is the empty Victory Hex
    itself: 2717 scores 10 x 0 + 4 (hexes to the U.S.) - 10 (empty Victory Hex) = -6, any
    neighbour at least 10 x 1 + 3."""
    b = Board(core)
    b.place("2/17 E", 2721)
    unknown = b.place(b.japanese("unknown"), 1216, face_down=True)
    assert dist(core, 2721, 2717) == 4 and dist(core, 2721, 2117) == 7 and dist(core, 1216, 2717) == 15
    state = at(b, UNKNOWN_PICK)
    a = rule(core, state, JAPAN)
    assert a == b.hex(1216)
    state = step(core, state, a)
    assert state.phase[0] == UNKNOWN_DEST
    a = rule(core, state, JAPAN)
    assert a == b.hex(2717)
    state = step(core, state, a)
    assert state.unit_hex[0, unknown] == b.hex(2717) and state.face_down[0, unknown]


def test_attu_9_6_japan_leaves_its_unknowns_when_no_victory_hex_is_threatened(core):
    """9.6 step 1, no trigger: the only U.S. unit stands on Landing Zone A (1004), 12 or more hexes
    from every Victory Hex (beyond NEAR_VICTORY 6), so no Victory Hex needs defenders and Japan
    ends the step without moving the Unknown in 1216."""
    b = Board(core)
    b.place("2/17 E", 1004)
    b.place(b.japanese("unknown"), 1216, face_down=True)
    assert min(dist(core, 1004, v) for v in (1425, 2011, 2117, 2717, 3409, 3622)) == 12
    state = at(b, UNKNOWN_PICK)
    assert state.legal_action_mask[0, b.hex(1216)]  # it could move
    assert rule(core, state, JAPAN) == core.scenario.num_hexes + END


# ------------------------------------------------------------------------ Japan, 9.6 step 2
def swap_board(core, infantry_hex: int, us_extra: int | None = None, artillery_hex: int | None = None) -> tuple:
    """2/17 E on Landing Zone E threatens Engineer Hill; one Japanese Infantry in ``infantry_hex``;
    one Unknown off the map (it was revealed earlier) to be placed by a swap."""
    b = Board(core)
    b.place("2/17 E", 2721)
    if us_extra is not None:
        b.place("2/17 F", us_extra)
    infantry = b.place(b.japanese(), infantry_hex, face_down=True)
    if artillery_hex is not None:
        b.place(b.japanese("artillery"), artillery_hex, face_down=True)
    unknown = b.japanese("unknown")
    b.state.unit_loc[0, unknown] = LOC_RESERVE
    return b, infantry, unknown


def test_attu_9_6_japan_swaps_rear_infantry_for_an_unknown_sent_toward_the_threatened_hill(core):
    """9.6 step 2: the Infantry in 1216 is not next to a U.S. unit nor a Landing Zone, and its zone
    (Temnac Bay, 1425) has no U.S. unit within 6 of its Victory Hex (2721 is 13 from 1425), so
    the swap cannot leave a threatened zone to be cleared (10.0).  Japan swaps it: the Infantry goes
    back to the cup (not eliminated), and the Unknown, placed within 7 MP of 1216, goes toward the
    Victory Hex of greatest need, 2717 (15 hexes from 1216).  1216 is not near a threatened
    Victory Hex, so the Unknown does not go back there."""
    b, infantry, unknown = swap_board(core, 1216)
    assert dist(core, 2721, 1425) == 13
    state = at(b, SWAP_PICK)
    a = rule(core, state, JAPAN)
    assert a == b.hex(1216)
    state = step(core, state, a)
    assert state.phase[0] == SWAP_PLACE and state.unit_loc[0, infantry] == LOC_RESERVE
    a = rule(core, state, JAPAN)
    assert a < core.scenario.num_hexes
    assert core.tables.dist[a, b.hex(2717)] < dist(core, 1216, 2717)
    state = step(core, state, a)
    assert state.unit_loc[0, unknown] == LOC_MAP and state.unit_hex[0, unknown] == a
    assert state.unit_loc[0, infantry] == LOC_RESERVE


@pytest.mark.parametrize("case", ["next to a U.S. unit", "the last defender of a threatened zone",
                                  "another Japanese unit holds the zone"])
def test_attu_9_6_japan_keeps_infantry_in_contact_and_the_last_defenders_of_a_zone(core, case):
    """9.6 step 2, the triggers that keep Infantry on the map.  Next to a U.S. unit: 2/17 F in
    1217, adjacent to 1216, so the Infantry stays in contact (an Unknown could not come back to that
    hex).  The last defender: the Infantry in 2516 is the only Japanese unit other than an
    Unknown in Engineer Hill's zone, and 2717 is threatened (2/17 E 4 hexes from it).  Swapped
    away, the U.S. would clear the zone by taking 2717 and every Unknown in it would go (10.0), so
    Japan ends the step.  With a Japanese gun in 2614, in the same zone, the swap is made."""
    if case == "next to a U.S. unit":
        b, _, _ = swap_board(core, 1216, us_extra=1217)
        assert dist(core, 1216, 1217) == 1 and dist(core, 1217, 1425) > 6
        expected = core.scenario.num_hexes + END
    else:
        gun = 2614 if case == "another Japanese unit holds the zone" else None
        b, _, _ = swap_board(core, 2516, artillery_hex=gun)
        assert core.tables.zone[b.hex(2516)] == core.tables.zone[b.hex(2717)] == core.tables.zone[b.hex(2614)]
        assert dist(core, 2516, 2721) > 1
        expected = b.hex(2516) if gun else core.scenario.num_hexes + END
    state = at(b, SWAP_PICK)
    assert state.legal_action_mask[0, b.hex(2516 if case != "next to a U.S. unit" else 1216)]  # it could be
    assert rule(core, state, JAPAN) == expected


# -------------------------------------------------------------------- Japan, 2.5 Unknown odds
@pytest.mark.parametrize("us_steps, melee", [(2, True), (4, False)])
def test_attu_2_5_japan_counts_an_unknowns_table_for_the_melee_odds(core, us_steps, melee):
    """2.5: an Unknown fights as the one to three Infantry it reveals, so Japan (which knows its
    tables and its cup) counts its table's mean times the cup's mean melee dice.  The Unknown's table
    (counters.yaml, reconstructed) gives 1,1,1,1,1,2,2,2,2,3 Infantry: 16 in ten rolls.  The full cup
    of 64 Infantry (reconstructed mix: 24 + 16 of 3 dice, 12 + 8 of 4, 4 of 5) has 220 dice, 34
    tenths a unit.  So its melee power is 16 x 34 // 100 = 5 dice.  Japan declares Melee when that is
    at least twice the U.S. steps: 2/17 E at 2 steps (4) yes, at 4 steps (8) no.  Before, an
    Unknown counted its printed 0 dice and never declared alone."""
    b = Board(core)
    b.place("2/17 E", 2518, steps=us_steps)
    unknown = b.place(b.japanese("unknown"), 2418, face_down=True)
    assert list(core.scenario.unit_table[unknown]) == [1, 1, 1, 1, 1, 2, 2, 2, 2, 3]
    state = at(b, ACT_ORDER, acting=JAPAN, selected=unknown)
    a = rule(core, state, JAPAN)
    H = core.scenario.num_hexes
    direction = [d for d in range(6) if core.tables.nbr[b.hex(2418), d] == b.hex(2518)][0]
    if melee:
        assert a == H + MELEE_0 + direction
    else:
        assert not H + MELEE_0 <= a < H + MELEE_0 + 6


def test_attu_13_1_in_solitaire_play_japan_does_not_read_the_unknowns_table(core):
    """13.1: in solitaire play the tables on the Unknowns are not examined before the Melee, so the
    rule counts the mean of all sixteen tables instead of this Unknown's own (counters.yaml,
    reconstructed: six tables giving 16 Infantry in ten rolls, six giving 19, four giving 22, so
    (96 + 114 + 88) // 16 = 18).  Against 2/17 E at 3 steps (twice that is 6): in the campaign the
    Unknown's own table gives 16 x 34 // 100 = 5 dice, too few, and it fires instead; in solitaire
    play 18 x 34 // 100 = 6 dice, enough, and it declares Melee."""
    from attu_board import make_core

    H = core.scenario.num_hexes
    answers = []
    for game in (core, make_core("campaign", solitaire=True)):
        b = Board(game)
        b.place("2/17 E", 2518, steps=3)
        unknown = b.place(b.japanese("unknown"), 2418, face_down=True)
        state = at(b, ACT_ORDER, acting=JAPAN, selected=unknown)
        answers.append(rule(game, state, JAPAN))
    direction = [d for d in range(6) if core.tables.nbr[core.scenario.grid.index(2418), d] ==
                 core.scenario.grid.index(2518)][0]
    assert answers == [core.scenario.grid.index(2518), H + MELEE_0 + direction]


# -------------------------------------------------------------------- Japan, reserves march
@pytest.mark.parametrize("us_hex, marches", [(2721, True), (1004, False)])
def test_attu_13_0_japan_marches_reserves_on_the_threatened_victory_hex(core, us_hex, marches):
    """13.0 "in their own best interest": a Japanese unit away from the fighting (no U.S. unit
    within 3) and within REINFORCE_RANGE (8) of the Victory Hex of greatest need moves toward it.
    The Unknown in 2613 is 5 hexes from 2717 and 9 from 2721: with 2/17 E on zone E (2717's need
    is 4) Japan selects it and moves it nearer 2717.  With 2/17 E on zone A (1004) no Victory Hex
    is threatened, and Japan ends its actions."""
    b = Board(core)
    b.place("2/17 E", us_hex)
    b.place(b.japanese("unknown"), 2613, face_down=True)
    assert dist(core, 2613, 2717) == 5 and dist(core, 2613, 2721) == 9
    state = at(b, ACT_SELECT, acting=JAPAN)
    a = rule(core, state, JAPAN)
    if not marches:
        assert state.legal_action_mask[0, b.hex(2613)] and a == core.scenario.num_hexes + END
        return
    assert a == b.hex(2613)
    state = step(core, state, a)
    assert state.phase[0] == ACT_ORDER
    a = rule(core, state, JAPAN)
    assert a < core.scenario.num_hexes and core.tables.dist[a, b.hex(2717)] < 5


# ------------------------------------------------------------------------ Japan, 11.3 Yamasaki
def yamasaki_board(core, us_hex: int) -> Board:
    """Two Japanese Infantry in 2219 and one in 3610 are all the Japanese Infantry left (the rest
    eliminated), so 11.3's "four or less steps" holds; a one-step U.S. company in ``us_hex``; Japan
    acting."""
    b = Board(core)
    first = b.place(b.japanese(), 2219, face_down=True)
    second = b.place(b.japanese(skip=1), 2219, face_down=True)
    third = b.place(b.japanese(skip=2), 3610, face_down=True)
    sc = core.scenario
    others = (sc.unit_side == JAPAN) & (sc.unit_type == INFANTRY)
    others[[first, second, third]] = False
    b.state.unit_loc[0, others] = LOC_ELIM
    b.state.unit_steps[0, others] = 0
    b.place("2/17 E", us_hex, steps=1)
    b.set(acting=JAPAN, act_step=1)
    return b


def test_attu_11_3_japan_sends_yamasaki_at_a_us_held_victory_hex(core):
    """11.3: with three steps of Infantry left (not more than four) Japan is desperate.  2/17 E holds
    Jarmin Pass (2117) with one step, 2 hexes from the group in 2219 (the lone platoon in 3610 is
    15 hexes away, beyond any group's reach).  The group (two platoons of 3
    melee dice, counters.yaml reconstructed: 6 dice against 1 step) has 2 x 5 = 10 MP, ignores U.S.
    ZOCs and pays one more MP to assault.  Japan calls on Yamasaki, activates 2219, steps next to
    2117 and assaults it."""
    b = yamasaki_board(core, 2117)
    H = core.scenario.num_hexes
    state = at(b, ACT_SELECT)
    assert state.legal_action_mask[0, H + YAMASAKI]
    a = rule(core, state, JAPAN)
    assert a == H + YAMASAKI
    state = step(core, state, a)
    assert state.phase[0] == YAMA_SELECT
    a = rule(core, state, JAPAN)
    assert state.legal_action_mask[0, b.hex(3610)] and a == b.hex(2219)
    state = step(core, state, a)
    assert state.phase[0] == YAMA_MOVE and state.yama_mp[0] == 10
    a = rule(core, state, JAPAN)
    assert core.tables.dist[a, b.hex(2117)] == 1
    state = step(core, state, a)
    assert state.phase[0] == YAMA_MOVE
    assert rule(core, state, JAPAN) == b.hex(2117)  # the assault (11.3.2)
    assert dist(core, 3610, 2117) == 15


def test_attu_11_3_japan_keeps_yamasaki_when_no_victory_hex_is_at_stake(core):
    """11.3, no trigger: the same desperate group, but the one-step U.S. company stands in 2420,
    2 hexes away and not on or next to any Victory Hex (2 or more from each).  Yamasaki is offered
    and Japan does not use him; it orders its units as usual (the hex of the group)."""
    b = yamasaki_board(core, 2420)
    assert min(dist(core, 2420, v) for v in (1425, 2011, 2117, 2717, 3409, 3622)) >= 2
    H = core.scenario.num_hexes
    state = at(b, ACT_SELECT)
    assert state.legal_action_mask[0, H + YAMASAKI]
    assert rule(core, state, JAPAN) == b.hex(2219)


# ------------------------------------------------------------------------------ U.S., 3.2 night
def stuck_board(core, second: bool, kind: str = "infantry") -> Board:
    """2/17 E, down to one step in 2518, next to a face-down Japanese counter in 2418 (its ZOC);
    with ``second``, 2/17 F likewise in 2315 next to one in 2215."""
    b = Board(core)
    b.place("2/17 E", 2518, steps=1)
    b.place(b.japanese(kind), 2418, face_down=True)
    if second:
        b.place("2/17 F", 2315, steps=1)
        b.place(b.japanese(skip=1), 2215, face_down=True)
    return b


@pytest.mark.parametrize("second, night", [(True, True), (False, False)])
def test_attu_3_2_us_declares_night_when_units_are_stuck_in_japanese_zocs(core, second, night):
    """3.2 and 6.1: two U.S. Infantry units down to one step each stand in Japanese ZOCs (2518 next
    to 2418, 2315 next to 2215).  Neither can mass a Melee with the odds: a one-step company rolls
    1 melee die (counters.yaml, reconstructed), less than the 3 dice per Japanese counter the rule
    wants.  So the U.S. declares a Night Turn (NIGHT_STUCK = 2): at night they may spend their
    whole allowance to step out of the ZOC.  With only one stuck unit it does not."""
    b = stuck_board(core, second)
    state = at(b, NIGHT_DECISION)
    H = core.scenario.num_hexes
    assert rule(core, state, US) == H + (YES if night else NO)


@pytest.mark.parametrize("night", [True, False])
def test_attu_6_1_a_stuck_us_unit_steps_out_of_the_zoc_at_night(core, night):
    """6.1: at night a unit in an enemy ZOC may spend all its Movement Points to enter an adjacent
    hex free of enemy ZOCs.  The one-step 2/17 E in 2518 has no Melee with the odds (1 die against
    3 per counter) and no ranged dice (counters.yaml: 0 at one step), so at night it steps out
    to a neighbour outside the ZOC of 2418.  By day it may not leave the ZOC, and it holds."""
    b = stuck_board(core, False)
    unit = b.unit("2/17 E")
    state = at(b, ACT_ORDER, night=night, selected=unit)
    a = rule(core, state, US)
    if not night:
        assert a == core.scenario.num_hexes + HOLD
        return
    zoc = zoc_of(core.tables, b.arrays, 0, JAPAN)
    assert a < core.scenario.num_hexes and core.tables.dist[a, b.hex(2518)] == 1 and not zoc[a]


# ---------------------------------------------------------------------- U.S., 9.3 and 9.4
def hogback_board(core, engineer: bool, company_hex: int, extra: str | None = None,
                  japanese: str | None = None) -> Board:
    """The Hogback above Landing Zone E.  U.S. Movement Points from zone E (2721) on the reconstructed
    map: 2620 2, 2619 5, 2618 6, 2718 7, 2717 9 (2618 to 2717: clear 2 + up a level 1).  The
    13th Engineers' company A (move 6, 7.3) is on 2618, or its Supply Depot is already there.
    2/17 E (move 7) is in ``company_hex``."""
    b = Board(core)
    b.place("13 Eng A" if engineer else "Depot 13 Eng A", 2618)
    b.place("2/17 E", company_hex)
    if extra:
        b.place(extra, company_hex)
    if japanese:
        b.place(b.japanese(japanese), 2516, face_down=True)
    if engineer and not japanese:
        d = supply_distance(core.tables, b.arrays, 0)
        assert [int(d[b.hex(h)]) for h in (2618, 2718, 2717)] == [6, 7, 9]
    return b


@pytest.mark.parametrize("company_hex, builds", [(2717, True), (2718, False)])
def test_attu_9_4_us_engineer_builds_a_depot_that_supplies_the_front(core, company_hex, builds):
    """7.2, 7.3, 9.4: 13 Eng A on 2618 is in supply (6 MP from zone E, its standard move 6) and not
    in a Japanese ZOC.  2/17 E on 2717 is 9 MP from zone E, beyond its move of 7, so out of supply.
    A depot on 2618 would supply it (2717 is 3 MP from 2618), so the U.S. builds it, and 2/17 E is
    then in supply.  With 2/17 E on 2718 (7 MP from E, in supply) no unit would gain, and the U.S.
    ends the step."""
    b = hogback_board(core, True, company_hex)
    company = b.unit("2/17 E")
    state = at(b, DEPOT)
    a = rule(core, state, US)
    if not builds:
        assert a == core.scenario.num_hexes + END
        return
    assert a == b.hex(2618)
    state = step(core, state, a)
    depot = b.unit("Depot 13 Eng A")
    assert state.unit_loc[0, depot] == LOC_MAP and state.unit_hex[0, depot] == b.hex(2618)
    assert state.unit_steps[0, b.unit("13 Eng A")] == 1
    S = as_arrays(state)
    assert in_supply(core.tables, S, 0, company, supply_distance(core.tables, S, 0))


@pytest.mark.parametrize("extra, creates", [(None, True), ("2/17 F", False)])
def test_attu_9_3_us_garrisons_a_victory_hex_with_an_independent(core, extra, creates):
    """9.3 for 3.8.1: 2/17 E (4 steps) holds Engineer Hill (2717) alone.  It is in supply through
    the depot on 2618, which is 6 MP from zone E and so connected (7.3); 2717 is 3 MP from the depot.
    It is not in a Japanese ZOC.  The U.S. makes an Independent of one of its steps: the
    Independent stays as the garrison and the company, now 3 steps, may go on.  With 2/17 F on the
    hill too, the hex has a garrison and the U.S. ends the step."""
    b = hogback_board(core, False, 2717, extra=extra)
    company = b.unit("2/17 E")
    state = at(b, INDEPENDENT)
    a = rule(core, state, US)
    if not creates:
        assert a == core.scenario.num_hexes + END
        return
    assert a == b.hex(2717)
    state = step(core, state, a)
    assert state.unit_steps[0, company] == 3
    indeps = [u for u in core.tables.indeps if state.unit_loc[0, u] == LOC_MAP]
    assert len(indeps) == 1 and state.unit_hex[0, indeps[0]] == b.hex(2717)
    assert rule(core, state, US) == core.scenario.num_hexes + END  # two counters now


# ----------------------------------------------------------------- U.S., hidden information
@pytest.mark.parametrize("decision", ["night", "independent", "depot"])
def test_attu_2_5_the_us_rule_does_not_depend_on_hidden_types(core, decision):
    """2.5: two positions differing only in what a face-down Japanese counter is (Infantry or an
    Unknown) give the U.S. the same choices and its rule the same answer, in each decision added
    here: the Night Turn (the counter's ZOC holds a stuck unit), the Independent and the Supply
    Depot (its ZOC lies next to the Hogback, 2516)."""
    answers, masks = [], []
    for kind in ("infantry", "unknown"):
        if decision == "night":
            b = stuck_board(core, True, kind)
            state = at(b, NIGHT_DECISION)
        elif decision == "independent":
            b = hogback_board(core, False, 2717, japanese=kind)
            state = at(b, INDEPENDENT)
        else:
            b = hogback_board(core, True, 2717, japanese=kind)
            state = at(b, DEPOT)
        masks.append(state.legal_action_mask[0].copy())
        answers.append(rule(core, state, US))
    assert np.array_equal(masks[0], masks[1]) and answers[0] == answers[1]


# ------------------------------------------------------------------- U.S., rule:margin (9.2.1)
def test_attu_9_2_1_rule_margin_stages_where_the_zone_hex_leaves_room(core):
    """9.2.1: steps over a Landing Zone's capacity are eliminated, and the steps already on its hex
    count (9.2's example: Zone F, capacity 15, "already stacked with 14 steps", takes one of a
    company's four).  1/32 A (4 steps) is to be staged (REINF_ZONE).  By goal distance (the reconstructed
    map's Movement Points to the nearest open Victory Hex) Landing Zone H (3820, capacity 8) is
    nearest, 7, then E (2721, capacity 18), 9.  With 1/17 A's four steps on 3820, the rule counts
    the steps staged for H (none): 0 + 4 <= 8, so H.  ``rule:margin`` counts the hex too:
    4 + 4 = 8 > 80 % of 8 = 6.4, so not H; E holds nothing: 4 <= 80 % of 18 = 14.4, so E."""
    H = core.tables.nbr.shape[0]
    b = Board(core)
    company = b.unit("1/32 A")
    b.state.unit_loc[0, company] = LOC_RESERVE
    b.place("1/17 A", 3820)
    state = at(b, REINF_ZONE, selected=company)
    lz = list(core.tables.lz_hex)
    assert rule(core, state, US) == H + LZ_0 + lz.index(b.hex(3820))
    assert rule(core, state, US, "margin") == H + LZ_0 + lz.index(b.hex(2721))


def test_attu_9_2_rule_margin_lands_nothing_while_no_zone_has_room(core):
    """9.2: the U.S. "may attempt to land all, some, or none" of its reinforcements.  A Japanese
    Infantry unit stands on every Landing Zone but H (3820), so only H is open (9.2), and 1/17 A's
    four steps are on it: 4 + 4 = 8 > 80 % of its capacity 8.  ``rule:margin`` ends the landing
    (END) with 1/32 waiting in the box; the rule picks 1/32's line, to stage a company for H."""
    H = core.tables.nbr.shape[0]
    b = Board(core)
    for name in ("1/32 A", "1/32 B"):
        b.state.unit_loc[0, b.unit(name)] = LOC_RESERVE
    b.place("1/17 A", 3820)
    for h in core.tables.lz_hex:
        if h != b.hex(3820):
            b.place(b.japanese(), core.scenario.grid.number(int(h)))
    state = at(b, REINF_PICK)
    picks = np.flatnonzero(state.legal_action_mask[0, H + REINF_0:H + REINF_0 + MAX_BATTALIONS])
    assert len(picks) == 1                                   # 1/32's line, H being open
    assert rule(core, state, US) == H + REINF_0 + picks[0]
    assert rule(core, state, US, "margin") == H + END


def test_attu_rule_margin_is_registered_and_refuses_a_margin_beyond_the_capacity():
    assert ("attu", "us", "margin") in registered("attu")
    assert get("attu", "us", "margin").lz_margin == 80 and get("attu", "us").lz_margin == 0
    with pytest.raises(ValueError, match=r"lz_margin .*9\.2\.1.*got 120"):
        AttuRuleAgent("us", lz_margin=120)
