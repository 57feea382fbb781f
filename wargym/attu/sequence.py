"""The turn sequence (3.0, 9.0, 12.0) as a machine of atomic decisions, and the step kernel.

    set-up          JP_SETUP (free set-ups) -> US_STAGING -> US_WAIT (12.6) -> landing (9.2)
    Step 1 (3.1)    REFIT_DECISION: yes -> Refit Turn: weather, recovery roll, REFIT_ALLOC ->
                    REINF_PICK/REINF_ZONE -> landing -> INDEPENDENT -> DEPOT -> hiding (9.5) ->
                    UNKNOWN_PICK (SLOT if several)/UNKNOWN_DEST -> SWAP_PICK/SWAP_PLACE -> next
                    turn (9.7)
    Step 2 (3.2)    NIGHT_DECISION, then weather (3.3) and airpower (3.4) are rolled
    Steps 5-6       ACT_SELECT (a hex, SLOT if several units) -> ACT_ORDER (move / fire / declare
                    melee / hold) [-> RANGED_TARGET] ; AIR -> AIR_TARGET ; STRIKE ; END
    Step 7 (3.7)    MELEE_PICK alternately -> [ARNOLD] -> rounds: defensive fire, offensive fire
                    (each [MARTINEZ] -> LOSS), RETREAT_OPTION -> RETREAT ; ADVANCE
    Step 8-9        victory (3.8), hiding (3.9), next turn, Komandorski (12.1)

This module holds the turn structure and the driver's hooks.  ``apply`` (``carry_out``) and
``fill_mask`` hand each decision to its chapter's module:

    set-up          setup.py (12.3-12.6), solitaire.py (13.2.1)
    Refit Turn      refit.py (9.1-9.6)
    Steps 5-6       here (3.5: select, order, move), ranged.py (8.0, 8.1, 8.1.6), melee.py
                    (declaring, 8.2), yamasaki.py (11.3)
    hits            losses.py (8.0)
    Step 7          melee.py (3.7, 8.2.1, 11.1, 11.2)

Hits wait in LOSS for their owner's choice of unit (losses.py); once they are placed
``after_losses`` takes the play back to the Melee or the Airpower attacks they came from.
Decisions with one legal action are taken automatically; with ``decisions="major"`` the minor
ones (``is_minor``) are too.
"""

import numpy as np

from wargym.attu import defaults, solitaire, yamasaki
from wargym.attu.actions import AIR, END, HOLD, MAX_SLOTS, MELEE_0, NO, SLOT_0, STRIKE, YAMASAKI, YES, allow_slots
from wargym.attu.board import occupancy, side_of, zoc_of
from wargym.attu.events import NO_EFFECT, TURN
from wargym.attu.fog import hide_units, hide_unseen, note_seen
from wargym.attu.losses import loss_done, loss_mask, take_hit
from wargym.attu.melee import (
    advance, advance_mask, any_pickable, arnold, declare, declare_mask, martinez, melee_run, next_retreater,
    pick_mask, retreat, retreat_hexes, retreat_option, retreats_settled, start_melee, start_step_melee,
)
from wargym.attu.movement import move_destinations
from wargym.attu.ranged import (
    air_pending, air_run, air_target_mask, announce, finish_attack, fire, fire_mask, friendly_fire, may_announce,
    name_target, nearest_friends, strike, target_mask,
)
from wargym.attu.refit import (
    eligible, end_allocation, end_step, reinforcement_pick, reinforcement_pick_mask, reinforcement_zone,
    reinforcement_zone_mask, resolve_landing, start_refit_turn, step_mask, swap_pick, swap_pick_mask, swap_place,
    swap_place_mask, take_step, unknown_dest, unknown_dest_mask, unknown_pick, unknown_pick_mask,
)
from wargym.attu.scenario import FOG, JAPAN, TURN_0_DATE, US
from wargym.attu.setup import (
    draw_chits, place_japanese, placement_mask, placement_unit, reveal_chits, skip_unplaceable_guns, stage,
    stage_unit, staging_mask, start_positions, wait, wait_mask,
)
from wargym.attu.state import (
    ACT_ORDER, ACT_SELECT, ADVANCE, AIR_TARGET, ARNOLD, DEPOT, FRIENDLY_FIRE, INDEPENDENT, JP_SETUP, LOC_MAP, LOSS,
    MARTINEZ, MEL_YAMASAKI, MELEE_PICK, NIGHT_DECISION, OPT_END_DATE, OPT_JP_FREE, OPT_KOMANDORSKI, OPT_MAJOR_ONLY,
    OPT_SOLITAIRE, OPT_SUBSET, OPT_US_FREE, OVER, RANGED_TARGET, REFIT_ALLOC, REFIT_DECISION, REINF_PICK,
    REINF_ZONE, RETREAT, RETREAT_OPTION, SLOT, SWAP_PICK, SWAP_PLACE, UNKNOWN_DEST, UNKNOWN_PICK, US_STAGING,
    US_WAIT, YAMA_MOVE, YAMA_SELECT,
)
from wargym.attu.supply import supply_distance
from wargym.attu.victory import end_of_turn, note_victory_hexes, step8, update_zones, victory_hex_holders
from wargym.attu.weather import roll_airpower, roll_weather
from wargym.events import emit
from wargym.jit import njit
from wargym.kernel import bind_driver, only_action


# ------------------------------------------------------------------------------- turn structure
@njit(cache=True)
def begin_turn(T, S, g):
    for u in range(T.u_side.shape[0]):
        S.acted[g, u] = False
        S.melee_target[g, u] = -1
        S.fought[g, u] = False
    S.night[g] = False
    S.refit[g] = False
    S.first[g] = US
    S.air_n[g] = 0
    S.air_struck[g] = False
    S.airpower[g, 0] = 0
    S.airpower[g, 1] = 0
    S.phase[g] = REFIT_DECISION


@njit(cache=True)
def advance_turn(T, S, g, normal_turn):
    """3.9 / 9.7: end of a turn; 3.8.3 and 12.1."""
    end_of_turn(T, S, g)
    if S.terminated[g]:
        return
    if normal_turn:
        hide_units(T, S, g, False)
    S.turn[g] += 1
    emit(S, g, TURN, TURN_0_DATE + S.turn[g])
    if T.opts[OPT_KOMANDORSKI]:
        reveal_chits(T, S, g)
    begin_turn(T, S, g)


@njit(cache=True)
def refit_decision(T, S, g, a):
    """REFIT_DECISION (3.1): yes, a Refit Turn (9.0) replaces the turn; no, Step 2."""
    if a - T.nbr.shape[0] == YES:
        start_refit_turn(T, S, g)
    else:
        S.phase[g] = NIGHT_DECISION


@njit(cache=True)
def night_decision(T, S, g, a):
    """NIGHT_DECISION (3.2): yes, a Night Turn; then the weather and airpower (3.3, 3.4)."""
    S.night[g] = a - T.nbr.shape[0] == YES
    start_actions(T, S, g)


@njit(cache=True)
def start_actions(T, S, g):
    S.first[g] = JAPAN if S.night[g] else US
    roll_weather(T, S, g)
    roll_airpower(T, S, g)
    S.acting[g] = S.first[g]
    S.act_step[g] = 0
    S.phase[g] = ACT_SELECT


@njit(cache=True)
def end_actions(T, S, g):
    S.air_n[g] = 0
    S.air_struck[g] = False
    S.airpower[g, S.acting[g]] = 0  # 3.4: unused factors are lost
    if S.act_step[g] == 0:
        S.act_step[g] = 1
        S.acting[g] = 1 - S.first[g]
        S.phase[g] = ACT_SELECT
    else:
        S.mel_picker[g] = S.first[g]
        S.phase[g] = MELEE_PICK


@njit(cache=True)
def end_melee_step(T, S, g):
    """Steps 8 and 9."""
    update_zones(T, S, g)
    step8(T, S, g)
    if not S.terminated[g]:
        advance_turn(T, S, g, True)


@njit(cache=True)
def land(T, S, g):
    """12.5: the opening landing (9.2), then the first turn."""
    resolve_landing(T, S, g)
    update_zones(T, S, g)
    begin_turn(T, S, g)


@njit(cache=True)
def after_setup(T, S, g):
    """Next set-up step: Japanese placement, U.S. staging, then the opening landing (12.5)."""
    if (T.opts[OPT_JP_FREE] or T.opts[OPT_SOLITAIRE]) and skip_unplaceable_guns(T, S, g) >= 0:
        S.phase[g] = JP_SETUP
        return
    if stage_unit(T, S, g) >= 0:
        S.phase[g] = US_STAGING
        return
    if (T.opts[OPT_US_FREE] or T.opts[OPT_SUBSET]) and S.phase[g] != US_WAIT:  # 12.6 (15.x: free set-up)
        S.phase[g] = US_WAIT
        return
    land(T, S, g)


@njit(cache=True)
def start_game(T, S, g):
    draw_chits(T, S, g)
    start_positions(T, S, g)
    if T.opts[OPT_SOLITAIRE]:
        solitaire.setup(T, S, g)
    S.weather[g] = FOG  # 12.2 / 12.5: the opening landing in Fog; turn 1 rolls on the Fog line
    if not T.opts[OPT_KOMANDORSKI]:
        S.last_turn[g] = T.opts[OPT_END_DATE]
    S.phase[g] = JP_SETUP
    after_setup(T, S, g)


# ------------------------------------------------------------------------------ unit candidates
@njit(cache=True)
def candidates(T, S, g, purpose, h, out):
    """Units of hex h the decision ``purpose`` may pick (ACT_SELECT: the acting side's units that
    have not acted, 3.5; the Refit Turn steps: refit.eligible), in index order; returns the count."""
    supplied = purpose == REFIT_ALLOC or purpose == INDEPENDENT or purpose == DEPOT
    dist = supply_distance(T, S, g) if supplied else np.zeros(1, dtype=np.int32)
    jzoc = zoc_of(T, S, g, JAPAN) if purpose == INDEPENDENT or purpose == DEPOT else np.zeros(1, dtype=np.bool_)
    n = 0
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] != LOC_MAP or S.unit_hex[g, u] != h:
            continue
        if purpose == ACT_SELECT:
            ok = side_of(T, S, g, u) == S.acting[g] and not S.acted[g, u]
        else:
            ok = eligible(T, S, g, purpose, u, dist, jzoc)
        if ok:
            if n < out.shape[0]:
                out[n] = u
            n += 1
    return min(n, out.shape[0])


@njit(cache=True)
def do_unit(T, S, g, purpose, u):
    if purpose == ACT_SELECT:
        S.selected[g] = u
        S.phase[g] = ACT_ORDER
    elif purpose == UNKNOWN_PICK:
        unknown_pick(T, S, g, u)
    else:
        take_step(T, S, g, purpose, u)


@njit(cache=True)
def select_in_hex(T, S, g, purpose, h):
    """A hex picks its unit for ``purpose``, or asks which one (SLOT) when it holds several."""
    buf = np.empty(MAX_SLOTS, dtype=np.int64)
    if candidates(T, S, g, purpose, h, buf) == 1:
        do_unit(T, S, g, purpose, buf[0])
    else:
        S.sel_hex[g] = h
        S.slot_for[g] = purpose
        S.phase[g] = SLOT


@njit(cache=True)
def pick_slot(T, S, g, a):
    """SLOT: the unit of slot ``a`` among the hex's candidates."""
    buf = np.empty(MAX_SLOTS, dtype=np.int64)
    candidates(T, S, g, S.slot_for[g], S.sel_hex[g], buf)
    do_unit(T, S, g, S.slot_for[g], buf[a - T.nbr.shape[0] - SLOT_0])


@njit(cache=True)
def slot_mask(T, S, g, m):
    """SLOT: a slot for each candidate of the hex in question."""
    buf = np.empty(MAX_SLOTS, dtype=np.int64)
    allow_slots(m, T.nbr.shape[0], candidates(T, S, g, S.slot_for[g], S.sel_hex[g], buf))


@njit(cache=True)
def refit_unit(T, S, g, a):
    """REFIT_ALLOC, INDEPENDENT, DEPOT, UNKNOWN_PICK: a hex picks the unit to take the step (or the
    Unknown to move); END ends the step."""
    if a - T.nbr.shape[0] == END:
        end_step(T, S, g)
    else:
        select_in_hex(T, S, g, S.phase[g], a)


# ----------------------------------------------------------------------------------- 3.5 actions
@njit(cache=True)
def act_select(T, S, g, a):
    """ACT_SELECT (3.5, 3.6): a hex selects its unit (SLOT if several); END ends the step; AIR
    announces an Airpower attack and STRIKE makes them (8.1.6); YAMASAKI calls on him (11.3)."""
    k = a - T.nbr.shape[0]
    if k == END:
        end_actions(T, S, g)
    elif k == AIR:
        S.phase[g] = AIR_TARGET
    elif k == STRIKE:
        strike(T, S, g)
    elif k == YAMASAKI:
        S.phase[g] = YAMA_SELECT
    else:
        select_in_hex(T, S, g, ACT_SELECT, a)


@njit(cache=True)
def select_mask(T, S, g, m):
    """ACT_SELECT: the hexes of the acting side's units that have not acted; END, unless announced
    Airpower attacks wait for STRIKE; AIR (8.1.6); YAMASAKI (11.3)."""
    H = T.nbr.shape[0]
    side = S.acting[g]
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and side_of(T, S, g, u) == side and not S.acted[g, u]:
            m[S.unit_hex[g, u]] = True
    pending = air_pending(S, g)
    m[H + END] = not pending
    m[H + STRIKE] = pending
    m[H + YAMASAKI] = side == JAPAN and not pending and yamasaki.available(T, S, g)
    m[H + AIR] = may_announce(T, S, g, side)


@njit(cache=True)
def move_unit(T, S, g, u, a):
    """An ordinary move (3.5); in solitaire play night infiltration (13.5) or an ambush (13.3) may
    stop it."""
    S.acted[g, u] = True
    S.phase[g] = ACT_SELECT
    if T.opts[OPT_SOLITAIRE] and side_of(T, S, g, u) == US:
        if solitaire.infiltration_fails(T, S, g, u) or solitaire.ambush(T, S, g, u, a):
            return
    S.unit_hex[g, u] = a
    update_zones(T, S, g)


@njit(cache=True)
def order(T, S, g, a):
    """ACT_ORDER (3.5): the selected unit holds, declares Melee (8.2), fires at an enemy hex (8.1)
    or moves."""
    u = S.selected[g]
    k = a - T.nbr.shape[0]
    if k == HOLD:
        S.acted[g, u] = True
        S.phase[g] = ACT_SELECT
    elif k >= MELEE_0 and k < MELEE_0 + 6:
        declare(T, S, g, u, k - MELEE_0)
    elif occupancy(T, S, g)[a] == 1 - side_of(T, S, g, u):
        fire(T, S, g, u, a)
    else:
        move_unit(T, S, g, u, a)


@njit(cache=True)
def order_mask(T, S, g, m):
    """ACT_ORDER: the hexes the selected unit may move to (5.0) or fire at (8.1), the directions it
    may declare Melee in (8.2), and HOLD."""
    H = T.nbr.shape[0]
    u = S.selected[g]
    if S.ad_hoc[g, u]:
        solitaire.ad_hoc_orders(T, S, g, u, m)
        return
    move_destinations(T, S, g, u, m[:H])
    occ = occupancy(T, S, g)
    fire_mask(T, S, g, u, occ, m[:H])
    declare_mask(T, S, g, u, occ, m)
    m[H + HOLD] = True


# ---------------------------------------------------------------------------------------- combat
@njit(cache=True)
def after_losses(T, S, g):
    """Where play goes once the hits of an attack are placed (those nobody could take are lost, 8.0)."""
    if S.terminated[g]:
        S.loss_hits[g] = 0
        return
    for _ in range(S.loss_hits[g]):
        emit(S, g, NO_EFFECT)
    S.loss_hits[g] = 0
    if S.mel_hex[g] >= 0:
        melee_run(T, S, g)
        return
    if S.air_struck[g] and S.air_i[g] < S.air_n[g]:
        air_run(T, S, g)
        return
    finish_attack(T, S, g)


# ------------------------------------------------------------------------------------ decisions
@njit(cache=True)
def fill_mask(T, S, g, m):
    """Write the legal actions of the decision in progress into ``m``; returns their count."""
    H = T.nbr.shape[0]
    m[:] = False
    ph = S.phase[g]
    hexes = m[:H]
    if ph == JP_SETUP and T.opts[OPT_SOLITAIRE]:
        solitaire.placement_mask(T, S, g, hexes)
    elif ph == JP_SETUP:
        placement_mask(T, S, g, placement_unit(T, S, g), hexes)
    elif ph == US_STAGING:
        staging_mask(T, S, g, m)
    elif ph == US_WAIT:
        wait_mask(T, S, g, m)
    elif ph == REFIT_DECISION or ph == NIGHT_DECISION or ph == ARNOLD or ph == MARTINEZ or ph == RETREAT_OPTION:
        m[H + YES] = True
        m[H + NO] = True
    elif ph == REFIT_ALLOC or ph == INDEPENDENT or ph == DEPOT:
        step_mask(T, S, g, m)
    elif ph == REINF_PICK:
        reinforcement_pick_mask(T, S, g, m)
    elif ph == REINF_ZONE:
        reinforcement_zone_mask(T, S, g, m)
    elif ph == UNKNOWN_PICK:
        unknown_pick_mask(T, S, g, m)
    elif ph == UNKNOWN_DEST:
        unknown_dest_mask(T, S, g, hexes)
    elif ph == SWAP_PICK:
        swap_pick_mask(T, S, g, m)
    elif ph == SWAP_PLACE:
        swap_place_mask(T, S, g, m)
    elif ph == ACT_SELECT:
        select_mask(T, S, g, m)
    elif ph == SLOT:
        slot_mask(T, S, g, m)
    elif ph == ACT_ORDER:
        order_mask(T, S, g, m)
    elif ph == RANGED_TARGET:
        target_mask(T, S, g, m)
    elif ph == AIR_TARGET:
        air_target_mask(T, S, g, hexes)
    elif ph == LOSS:
        loss_mask(T, S, g, m)
    elif ph == FRIENDLY_FIRE:
        nearest_friends(T, S, g, S.acting[g], S.ff_from[g], hexes)
    elif ph == MELEE_PICK:
        pick_mask(T, S, g, hexes)
    elif ph == RETREAT:
        retreat_hexes(T, S, g, next_retreater(T, S, g), hexes)
    elif ph == ADVANCE:
        advance_mask(T, S, g, m)
    elif ph == YAMA_SELECT:
        yamasaki.select_mask(T, S, g, hexes)
    elif ph == YAMA_MOVE:
        yamasaki.move_mask(T, S, g, m)
    n = 0
    for a in range(m.shape[0]):
        if m[a]:
            n += 1
    return n


@njit(cache=True)
def decider(T, S, g):
    """Who makes the current decision (index into ("us", "japan"))."""
    ph = S.phase[g]
    if ph == JP_SETUP or ph == UNKNOWN_PICK or ph == UNKNOWN_DEST or ph == SWAP_PICK or ph == SWAP_PLACE or \
            ph == YAMA_SELECT or ph == YAMA_MOVE:
        return JAPAN
    if ph == ACT_SELECT or ph == ACT_ORDER or ph == AIR_TARGET or ph == RANGED_TARGET:
        return S.acting[g]
    if ph == SLOT:
        if S.slot_for[g] == ACT_SELECT:
            return S.acting[g]
        return JAPAN if S.slot_for[g] == UNKNOWN_PICK else US
    if ph == LOSS:
        return S.loss_side[g]
    if ph == FRIENDLY_FIRE:
        return S.ff_side[g]
    if ph == MELEE_PICK:
        return S.mel_picker[g]
    if ph == ADVANCE:
        return S.mel_side[g]
    return US


@njit(cache=True)
def apply(T, S, g, a):
    """The driver's hook: action ``a`` carried out (``carry_out``); with the event log on, the
    Victory Hexes that changed hands in it are told (3.8.1, ``victory.note_victory_hexes``)."""
    before = np.empty(6, dtype=np.int8)
    if S.ev_on[0]:
        victory_hex_holders(T, S, g, before)
    carry_out(T, S, g, a)
    if S.ev_on[0]:
        note_victory_hexes(T, S, g, before)


@njit(cache=True)
def carry_out(T, S, g, a):
    """Carry out action ``a`` in the decision in progress (the rules of each in its module)."""
    ph = S.phase[g]
    if ph == JP_SETUP:
        place_japanese(T, S, g, a)
        after_setup(T, S, g)
    elif ph == US_STAGING:
        stage(T, S, g, a)
        after_setup(T, S, g)
    elif ph == US_WAIT:
        if a - T.nbr.shape[0] == YES:
            land(T, S, g)
        else:
            wait(T, S, g)
    elif ph == REFIT_DECISION:
        refit_decision(T, S, g, a)
    elif ph == NIGHT_DECISION:
        night_decision(T, S, g, a)
    elif ph == REFIT_ALLOC or ph == INDEPENDENT or ph == DEPOT or ph == UNKNOWN_PICK:
        refit_unit(T, S, g, a)
    elif ph == SLOT:
        pick_slot(T, S, g, a)
    elif ph == REINF_PICK:
        reinforcement_pick(T, S, g, a)
    elif ph == REINF_ZONE:
        reinforcement_zone(T, S, g, a)
    elif ph == UNKNOWN_DEST:
        unknown_dest(T, S, g, a)
    elif ph == SWAP_PICK:
        if a - T.nbr.shape[0] == END:
            advance_turn(T, S, g, False)  # 9.7
        else:
            swap_pick(T, S, g, a)
    elif ph == SWAP_PLACE:
        swap_place(T, S, g, a)
    elif ph == ACT_SELECT:
        act_select(T, S, g, a)
    elif ph == AIR_TARGET:
        announce(T, S, g, a)
    elif ph == ACT_ORDER:
        order(T, S, g, a)
    elif ph == RANGED_TARGET:
        if name_target(T, S, g, a):
            after_losses(T, S, g)
    elif ph == LOSS:
        take_hit(T, S, g, a)
    elif ph == FRIENDLY_FIRE:
        friendly_fire(T, S, g, a)
    elif ph == MELEE_PICK:
        start_melee(T, S, g, a)
    elif ph == ARNOLD:
        arnold(T, S, g, a)
    elif ph == MARTINEZ:
        martinez(T, S, g, a)
    elif ph == RETREAT_OPTION:
        retreat_option(T, S, g, a)
    elif ph == RETREAT:
        retreat(T, S, g, a)
    elif ph == YAMA_SELECT:
        yamasaki.select(T, S, g, a)
    elif ph == YAMA_MOVE:
        if yamasaki.move(T, S, g, a):
            start_step_melee(T, S, g, a, JAPAN, MEL_YAMASAKI, S.yama_unit[g])  # 11.3.2: the assault
    elif ph == ADVANCE:
        advance(T, S, g, a)


# --------------------------------------------------------------------------- automatic progress
@njit(cache=True)
def is_minor(ph):
    """The decisions ``decisions="major"`` leaves to defaults.minor_decision."""
    return ph == LOSS or ph == RETREAT or ph == MARTINEZ or ph == ARNOLD or ph == FRIENDLY_FIRE


@njit(cache=True)
def progress(T, S, g):
    """The driver's hook between decisions: ``run_on``; with the event log on, the Victory Hexes
    that changed hands in it are told, as in ``apply``."""
    before = np.empty(6, dtype=np.int8)
    if S.ev_on[0]:
        victory_hex_holders(T, S, g, before)
    happened = run_on(T, S, g)
    if S.ev_on[0]:
        note_victory_hexes(T, S, g, before)
    return happened


@njit(cache=True)
def run_on(T, S, g):
    """What happens between decisions without one: the solitaire system's
    ad hoc placements and airpower (13.2), a Melee step with nothing left to pick, hits placed,
    retreats that cannot be made, a refit with no step left.  True when something happened.
    First what the U.S. has seen is noted (fog.note_seen), then revealed Japanese units out of the
    U.S. units' sight go face down (2.5, fog.py)."""
    note_seen(T, S, g)
    hide_unseen(T, S, g)
    ph = S.phase[g]
    if T.opts[OPT_SOLITAIRE] and S.mel_hex[g] < 0:
        solitaire.ad_hoc(T, S, g)  # 13.2.2, as soon as a U.S. unit comes near (after a Melee)
        if solitaire.airpower(T, S, g):  # 13.2
            return True
    if ph == MELEE_PICK:
        occ = occupancy(T, S, g)
        if not any_pickable(T, S, g, S.mel_picker[g], occ):
            if any_pickable(T, S, g, 1 - S.mel_picker[g], occ):
                S.mel_picker[g] = 1 - S.mel_picker[g]
            else:
                end_melee_step(T, S, g)
            return True
    if ph == LOSS and loss_done(T, S, g):
        after_losses(T, S, g)
        return True
    if ph == RETREAT:
        return retreats_settled(T, S, g)
    if ph == REFIT_ALLOC and S.refit_steps[g] <= 0:
        end_allocation(T, S, g)
        return True
    return False


@njit(cache=True)
def automatic(T, S, g, m, n):
    """A decision with one legal action takes itself; with ``decisions="major"`` the minor ones
    (``is_minor``) are made by defaults.minor_decision.  -1 for a real decision."""
    if n == 1:
        return only_action(m)
    if T.opts[OPT_MAJOR_ONLY] and is_minor(S.phase[g]):
        return defaults.minor_decision(T, S, g, m)
    return -1


@njit(cache=True)
def game_over(T, S, g):
    S.phase[g] = OVER


# the step, start and mask kernels over games (wargym.kernel): the rules above are their hooks
DRIVER = bind_driver("attu", start_game=start_game, apply=apply, fill_mask=fill_mask, decider=decider,
                     progress=progress, automatic=automatic, game_over=game_over)
