"""What every Peleliu position holds (``PeleliuCore.check_state``); the fuzz checks these after
every decision and ``from_dict`` before any kernel sees a record:

* 4.0, 8.6   card conservation: every card in one pile (deck, discards, card track, the close
             combat piles), places 0..n-1; close combat piles only during a close combat
* 9.23       depth conservation: a marker under a unit is that unit's (and only one unit's), the
             pools hold the rest; a unit's marker is of its kind (armor depth under tanks)
* 2.21       U.S. steps within 1..printed on the map and in the boxes; a unit on the map has a hex
             on land, in a box a box number 0-4
* 9.0        at most one Japanese unit a hex, on a position hex or in a close combat
* 15.1       the Infantry Loss Box counts each infantry counter once: at most two per four-step
             infantry unit, one per two-step
"""

from __future__ import annotations

import numpy as np

from wargym.cards import check_deck
from wargym.peleliu.scenario import HEAVY, INF
from wargym.peleliu.state import DM_UNIT, JP_MAP, N_PILES, P_AUTO, PILE_CC_JP, PILE_CC_US, US_BOX, US_MAP


def check(core, state) -> list[str]:
    sc = core.scenario
    errors: list[str] = []
    errors += [f"field card_pile: {e}" for e in check_deck(state.card_pile, state.card_pos, N_PILES)]
    in_cc = state.cc_hex >= 0
    cc_cards = ((state.card_pile == PILE_CC_US) | (state.card_pile == PILE_CC_JP)).any(axis=1)
    for g in np.nonzero(cc_cards & ~in_cc)[0][:2]:
        errors.append(f"field card_pile: game {g} holds close combat piles outside a close combat (8.6)")
    on = state.us_loc == US_MAP
    boxed = state.us_loc == US_BOX
    for name, bad, why in (
            ("us_steps", (on | boxed) & ((state.us_steps < 1) | (state.us_steps > sc.us_steps)),
             "in play with steps outside 1..printed (2.21)"),
            ("us_hex", on & (state.us_hex < 0), "on the map without a hex"),
            ("us_hex", boxed & ((state.us_hex < 0) | (state.us_hex > 4)), "in a landing box that is not 0-4 (5.0)")):
        for g, u in np.argwhere(bad)[:2]:
            errors.append(f"field {name}: game {g} unit {sc.us_names[u]} is {why}")
    if errors:
        return errors
    land = sc.land
    for g in range(state.batch_size):
        hx = state.us_hex[g][on[g]]
        if not land[hx].all():
            errors.append(f"field us_hex: game {g} has a U.S. unit off the land (2.1)")
        jon = state.jp_loc[g] == JP_MAP
        jh = state.jp_hex[g][jon]
        if (jh < 0).any() or len(set(jh.tolist())) != len(jh):
            errors.append(f"field jp_hex: game {g} has two Japanese units in one hex or a unit without a hex (9.0)")
        # depth markers: each marker under exactly one unit that names it
        owners = np.concatenate([state.jp_depth[g][state.jp_depth[g] >= 0], state.jp_ca[g][state.jp_ca[g] >= 0]])
        if len(set(owners.tolist())) != len(owners):
            errors.append(f"field jp_depth: game {g} has a depth marker under two units (9.23)")
        under = np.nonzero(state.dm_loc[g] == DM_UNIT)[0]
        if set(under.tolist()) != set(owners.tolist()):
            errors.append(f"field dm_loc: game {g} markers under units {sorted(under.tolist())} but units name "
                          f"{sorted(owners.tolist())} (9.23)")
        expect = np.full(len(sc.dm_kind), -1)
        for field in (state.jp_depth[g], state.jp_ca[g]):
            has = (field >= 0) & (state.jp_loc[g] == JP_MAP)
            expect[field[has]] = state.jp_hex[g][has]
        if state.phase[g] != P_AUTO and not np.array_equal(expect, state.dm_hex[g]):  # settled positions
            errors.append(f"field dm_hex: game {g} marker hexes {state.dm_hex[g].tolist()} do not match their units")
        for j in np.nonzero(state.jp_depth[g] >= 0)[0]:
            if state.jp_loc[g, j] != JP_MAP:
                errors.append(f"field jp_depth: game {g} unit {sc.jp_names[j]} off the map holds a depth marker")
            kind = sc.dm_kind[state.jp_depth[g, j]]
            if kind == 2 or (kind == 1) != bool(sc.jp_tank[j]):
                errors.append(f"field jp_depth: game {g} unit {sc.jp_names[j]} holds a depth marker of the wrong kind")
        inf = np.isin(sc.us_type, (INF, HEAVY))
        most = int((np.where(sc.us_steps[inf] == 4, 2, 1)).sum())
        if state.loss_box[g] > most:
            errors.append(f"field loss_box: game {g} counts {int(state.loss_box[g])} infantry counters, more "
                          f"than the {most} there are (15.1)")
        if errors:
            break
    return errors
