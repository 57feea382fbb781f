"""The turn sequence (3.0, 9.0, 12.0) as a machine of atomic decisions, and the step kernel.

    set-up          JP_SETUP (free set-ups) -> US_STAGING -> US_WAIT (12.6) -> landing (9.2)
    Step 1 (3.1)    REFIT_DECISION: yes -> Refit Turn: weather, recovery roll, REFIT_ALLOC ->
                    REINF_PICK/REINF_ZONE -> landing -> INDEPENDENT -> DEPOT -> hiding (9.5) ->
                    UNKNOWN_PICK/UNKNOWN_DEST -> SWAP_PICK/SWAP_PLACE -> next turn (9.7)
    Step 2 (3.2)    NIGHT_DECISION, then weather (3.3) and airpower (3.4) are rolled
    Steps 5-6       ACT_SELECT (a hex, SLOT if several units) -> ACT_ORDER (move / fire / declare
                    melee / hold) [-> RANGED_TARGET] ; AIR -> AIR_TARGET ; STRIKE ; END
    Step 7 (3.7)    MELEE_PICK alternately -> [ARNOLD] -> rounds: defensive fire, offensive fire
                    (each [MARTINEZ] -> LOSS), RETREAT_OPTION -> RETREAT ; ADVANCE
    Step 8-9        victory (3.8), hiding (3.9), next turn, Komandorski (12.1)

Hits wait in LOSS for their owner's choice of unit.  Decisions with one legal action are taken
automatically; with ``decisions="major"`` the minor ones (``is_minor``) are too.
"""

import numpy as np
from numba import njit

from wargym.attu import defaults, solitaire, yamasaki
from wargym.attu.actions import (
    AIR, END, HOLD, LZ_0, MAX_BATTALIONS, MAX_SLOTS, MELEE_0, NO, REINF_0, RESERVE, SLOT_0, STRIKE, YAMASAKI, YES,
)
from wargym.attu.board import counters_in, occupancy, side_of, zoc_of
from wargym.attu.fog import hide_units
from wargym.attu.losses import hit_unit, loss_candidates, loss_done, start_loss
from wargym.attu.melee import (
    advance_candidates, any_pickable, arnold_candidate, capture_artillery, declare_direction_ok, deliver_melee_hits,
    finish_melee, first_fire, melee_run, next_retreater, pickable, retreat_hexes, start_melee, start_step_melee,
)
from wargym.attu.movement import allowance, move_cost, move_destinations
from wargym.attu.ranged import (
    air_run, face_up_targets, finish_attack, may_fire_at, mixed_target, nearest_friends, random_face_down_unit,
    ranged_dice, resolve_ranged,
)
from wargym.attu.refit import (
    create_depot, create_independent, depot_ok, group_unit, independent_ok, lz_open, near_us, recovery_steps,
    refit_ok, resolve_landing, spare_unknown, swap_ok, swap_reach, swap_remove, unknown_spots,
)
from wargym.attu.scenario import FOG, FREE_STAGING, JAPAN, UNKNOWN, US, WILLIWAW
from wargym.attu.setup import draw_chits, placement_mask, placement_unit, skip_unplaceable_guns, start_positions
from wargym.attu.state import (
    ACT_ORDER, ACT_SELECT, ADVANCE, AIR_TARGET, ARNOLD, DEPOT, FRIENDLY_FIRE, INDEPENDENT, JP_SETUP, LOC_MAP, LOC_NONE,
    LOC_RESERVE, LOC_STAGING, LOSS, LOSS_EXCESS, LOSS_MELEE_ON_ATTACKER, LOSS_RANGED, MARTINEZ, MELEE_PICK, MEL_AMBUSH,
    MEL_RETREATED, MEL_YAMASAKI, NIGHT_DECISION, OPT_END_DATE, OPT_JP_FREE, OPT_KOMANDORSKI, OPT_MAJOR_ONLY,
    OPT_SOLITAIRE, OPT_SUBSET, OPT_US_FREE, OVER, RANGED_TARGET, REFIT_ALLOC, REFIT_DECISION, REINF_PICK, REINF_ZONE,
    RETREAT, RETREAT_OPTION, SLOT, SWAP_PICK, SWAP_PLACE, UNKNOWN_DEST, UNKNOWN_PICK, US_STAGING, US_WAIT, YAMA_MOVE,
    YAMA_SELECT,
)
from wargym.attu.supply import supply_distance
from wargym.attu.victory import end_of_turn, step8, update_zones
from wargym.attu.weather import roll_airpower, roll_weather
from wargym.kernel import bind_driver, only_action

MAX_WAIT_TURN = 13     # 12.6 interpretation: the landing may wait until May 23


# ------------------------------------------------------------------------------ unit candidates
@njit(cache=True)
def candidates(T, S, g, purpose, h, dist, out):
    """Units of hex h eligible for ``purpose`` (a phase), in index order; returns the count."""
    jzoc = zoc_of(T, S, g, JAPAN) if purpose == INDEPENDENT or purpose == DEPOT else np.zeros(1, dtype=np.bool_)
    return candidates_z(T, S, g, purpose, h, dist, jzoc, out)


@njit(cache=True)
def candidates_z(T, S, g, purpose, h, dist, jzoc, out):
    """``candidates`` with the Japanese ZOC already known."""
    n = 0
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] != LOC_MAP or S.unit_hex[g, u] != h:
            continue
        ok = False
        if purpose == ACT_SELECT:
            ok = side_of(T, S, g, u) == S.acting[g] and not S.acted[g, u]
        elif purpose == REFIT_ALLOC:
            ok = refit_ok(T, S, g, u, dist)
        elif purpose == INDEPENDENT:
            ok = independent_ok(T, S, g, u, dist, jzoc)
        elif purpose == DEPOT:
            ok = depot_ok(T, S, g, u, dist, jzoc)
        if ok:
            if n < out.shape[0]:
                out[n] = u
            n += 1
    return min(n, out.shape[0])


@njit(cache=True)
def stage_unit(T, S, g):
    """The next U.S. unit to stage (12.5: D-G and H/I choices; 12.6: every unit), or -1."""
    for u in range(T.u_side.shape[0]):
        if T.u_side[u] != US or not T.u_in_play[u] or S.unit_loc[g, u] != LOC_NONE or T.u_staging[u] == -3:
            continue
        if T.opts[OPT_US_FREE] or T.u_staging[u] >= 10:
            return u
    return -1


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
    t = S.turn[g]
    if T.opts[OPT_KOMANDORSKI]:
        if t == T.ke_turn and S.ke_revealed[g] == 0:
            S.ke_revealed[g] = 1
            if S.ke_effect[g] == 10 + t:
                S.ke_revealed[g] = 2
                S.last_turn[g] = t + S.ke_delay[g] - 1
        elif S.ke_revealed[g] == 1 and t == S.ke_effect[g] - 10:
            S.ke_revealed[g] = 2
            S.last_turn[g] = t + S.ke_delay[g] - 1
    begin_turn(T, S, g)


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
    resolve_landing(T, S, g)
    update_zones(T, S, g)
    begin_turn(T, S, g)


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


@njit(cache=True)
def end_refit_allocation(T, S, g):
    S.refit_steps[g] = 0
    S.phase[g] = REINF_PICK


# ---------------------------------------------------------------------------------------- combat
@njit(cache=True)
def after_losses(T, S, g):
    """Where play goes once the hits of an attack are placed."""
    S.loss_hits[g] = 0
    if S.terminated[g]:
        return
    if S.mel_hex[g] >= 0:
        melee_run(T, S, g)
        return
    if S.air_struck[g] and S.air_i[g] < S.air_n[g]:
        air_run(T, S, g)
        return
    finish_attack(T, S, g)


# ----------------------------------------------------------------------------------- 3.5 actions
@njit(cache=True)
def move_unit(T, S, g, u, a):
    """An ordinary move (3.5); in solitaire play with night infiltration (13.5) and ambushes
    (13.3)."""
    S.acted[g, u] = True
    S.phase[g] = ACT_SELECT
    if T.opts[OPT_SOLITAIRE] and side_of(T, S, g, u) == US:
        start = S.unit_hex[g, u]
        if S.night[g] and zoc_of(T, S, g, JAPAN)[start] and solitaire.infiltration_fails(T, S, g):
            return
        used, prev = move_cost(T, S, g, u, a)
        if used >= allowance(T, S, g, u, T.u_move[u]) and counters_in(T, S, g, a, US) == 0:
            n = solitaire.ambush_size(T, S, g)
            if n > 0 and solitaire.place_ambush(T, S, g, a, n) > 0:
                S.unit_hex[g, u] = prev
                update_zones(T, S, g)
                mover = np.zeros(T.u_side.shape[0], dtype=np.bool_)
                mover[u] = True
                start_step_melee(T, S, g, a, US, MEL_AMBUSH, mover)  # 13.3: set back, it attacks
                return
    S.unit_hex[g, u] = a
    update_zones(T, S, g)


@njit(cache=True)
def end_melee_step(T, S, g):
    """Steps 8 and 9."""
    update_zones(T, S, g)
    step8(T, S, g)
    if not S.terminated[g]:
        advance_turn(T, S, g, True)


# ------------------------------------------------------------------------------------------ masks
@njit(cache=True)
def fill_mask(T, S, g, m):
    """Write the legal actions of the decision in progress into ``m``; returns their count."""
    H = T.nbr.shape[0]
    m[:] = False
    ph = S.phase[g]
    buf = np.empty(MAX_SLOTS, dtype=np.int64)
    hexes = m[:H]
    if ph == JP_SETUP and T.opts[OPT_SOLITAIRE]:
        for h in range(H):
            hexes[h] = solitaire.place_ok(T, S, g, h)
    elif ph == JP_SETUP:
        placement_mask(T, S, g, placement_unit(T, S, g), hexes)
    elif ph == US_STAGING:
        u = stage_unit(T, S, g)
        code = T.u_staging[u]
        free = T.opts[OPT_US_FREE] or code == FREE_STAGING
        f = T.u_force[u]
        for k in range(9):
            h = T.lz_hex[k]
            if h < 0:
                continue
            if code == FREE_STAGING and f >= 0 and (T.zone[h] < 0 or not T.force_zones[f, T.zone[h]]):
                continue  # 15.3: each force lands in its own area
            if free or (code == 10 and 3 <= k <= 6) or (code == 11 and k >= 7):
                m[H + LZ_0 + k] = True
        if free or not m[H + LZ_0:H + LZ_0 + 9].any():
            m[H + RESERVE] = True
    elif ph == US_WAIT:
        m[H + YES] = True
        m[H + NO] = S.turn[g] < MAX_WAIT_TURN
    elif ph == REFIT_DECISION or ph == NIGHT_DECISION or ph == ARNOLD or ph == MARTINEZ or ph == RETREAT_OPTION:
        m[H + YES] = True
        m[H + NO] = True
    elif ph == REFIT_ALLOC or ph == INDEPENDENT or ph == DEPOT:
        dist = supply_distance(T, S, g)
        jzoc = zoc_of(T, S, g, JAPAN)
        for u in range(T.u_side.shape[0]):
            if S.unit_loc[g, u] == LOC_MAP and T.u_side[u] == US and not m[S.unit_hex[g, u]]:
                if candidates_z(T, S, g, ph, S.unit_hex[g, u], dist, jzoc, buf) > 0:
                    m[S.unit_hex[g, u]] = True
        m[H + END] = True
    elif ph == REINF_PICK:
        jzoc = zoc_of(T, S, g, JAPAN)
        open_any = False
        for k in range(9):
            if lz_open(T, S, g, k, jzoc):
                open_any = True
        if open_any:
            for k in range(MAX_BATTALIONS):
                if group_unit(T, S, g, k) >= 0:
                    m[H + REINF_0 + k] = True
        m[H + END] = True
    elif ph == REINF_ZONE:
        jzoc = zoc_of(T, S, g, JAPAN)
        for k in range(9):
            if lz_open(T, S, g, k, jzoc):
                m[H + LZ_0 + k] = True
    elif ph == UNKNOWN_PICK:
        for u in range(T.u_side.shape[0]):
            if S.unit_loc[g, u] == LOC_MAP and T.u_type[u] == UNKNOWN and not S.captured[g, u] and \
                    not S.acted[g, u] and not S.pinned[g, u]:
                m[S.unit_hex[g, u]] = True
        m[H + END] = True
    elif ph == UNKNOWN_DEST:
        u = S.selected[g]
        hexes[:] = unknown_spots(T, S, g, u, near_us(T, S, g))
        m[S.unit_hex[g, u]] = True
    elif ph == SWAP_PICK:
        u = spare_unknown(T, S, g)
        if u >= 0:
            spots = unknown_spots(T, S, g, u, near_us(T, S, g))
            reach = np.zeros(H, dtype=np.bool_)
            for v in range(T.u_side.shape[0]):
                if S.unit_loc[g, v] == LOC_MAP and T.u_side[v] == JAPAN and not m[S.unit_hex[g, v]]:
                    h = S.unit_hex[g, v]
                    if swap_ok(T, S, g, h):
                        swap_reach(T, S, g, h, reach)
                        for x in range(H):
                            if reach[x] and spots[x]:
                                m[h] = True
                                break
        m[H + END] = True
    elif ph == SWAP_PLACE:
        u = spare_unknown(T, S, g)
        if u >= 0 and S.swap_left[g] > 0:
            spots = unknown_spots(T, S, g, u, near_us(T, S, g))
            swap_reach(T, S, g, S.sel_hex[g], hexes)
            for x in range(H):
                if hexes[x] and not spots[x]:
                    hexes[x] = False
        m[H + END] = S.setup_k[g] > 0 or not hexes.any()
    elif ph == ACT_SELECT:
        side = S.acting[g]
        for u in range(T.u_side.shape[0]):
            if S.unit_loc[g, u] == LOC_MAP and side_of(T, S, g, u) == side and not S.acted[g, u]:
                m[S.unit_hex[g, u]] = True
        pending = S.air_n[g] > 0 and not S.air_struck[g]
        m[H + END] = not pending
        m[H + STRIKE] = pending
        m[H + YAMASAKI] = side == JAPAN and not pending and yamasaki.available(T, S, g)
        if S.airpower[g, side] > 0 and not S.air_struck[g] and S.air_n[g] < S.air_target.shape[1]:
            occ = occupancy(T, S, g)
            for h in range(H):
                if occ[h] == 1 - side:
                    m[H + AIR] = True
                    break
    elif ph == SLOT:
        dist = supply_distance(T, S, g) if S.slot_for[g] != ACT_SELECT else np.zeros(1, dtype=np.int32)
        n = candidates(T, S, g, S.slot_for[g], S.sel_hex[g], dist, buf)
        for k in range(n):
            m[H + SLOT_0 + k] = True
    elif ph == ACT_ORDER:
        u = S.selected[g]
        side = side_of(T, S, g, u)
        move_destinations(T, S, g, u, hexes)
        occ = occupancy(T, S, g)
        if ranged_dice(T, S, g, u) > 0 and S.weather[g] != WILLIWAW:
            for v in range(T.u_side.shape[0]):  # the hexes enemy units hold (one may hold several)
                if S.unit_loc[g, v] == LOC_MAP:
                    t = S.unit_hex[g, v]
                    if not m[t] and may_fire_at(T, S, g, u, t, occ):  # it asks whether the enemy holds t
                        m[t] = True
        for d in range(6):
            if declare_direction_ok(T, S, g, u, d, occ):
                m[H + MELEE_0 + d] = True
        m[H + HOLD] = True
    elif ph == RANGED_TARGET:
        n = face_up_targets(T, S, g, S.sel_hex[g], buf)
        for k in range(n + 1):
            m[H + SLOT_0 + k] = True
    elif ph == AIR_TARGET:
        occ = occupancy(T, S, g)
        for h in range(H):
            m[h] = occ[h] == 1 - S.acting[g]
    elif ph == LOSS:
        n = loss_candidates(T, S, g, buf)
        for k in range(n):
            m[H + SLOT_0 + k] = True
    elif ph == FRIENDLY_FIRE:
        nearest_friends(T, S, g, S.acting[g], S.ff_from[g], hexes)
    elif ph == MELEE_PICK:
        occ = occupancy(T, S, g)
        for h in range(H):
            m[h] = pickable(T, S, g, S.mel_picker[g], h, occ)
    elif ph == RETREAT:
        retreat_hexes(T, S, g, next_retreater(T, S, g), hexes)
    elif ph == ADVANCE:
        n = advance_candidates(T, S, g, buf)
        for k in range(n):
            m[H + SLOT_0 + k] = True
        m[H + END] = True
    elif ph == YAMA_SELECT:
        for u in range(T.u_side.shape[0]):
            if S.unit_loc[g, u] == LOC_MAP and yamasaki.may_activate(T, S, g, S.unit_hex[g, u]):
                m[S.unit_hex[g, u]] = True
    elif ph == YAMA_MOVE:
        yamasaki.moves(T, S, g, occupancy(T, S, g), hexes)
        m[H + END] = True
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
        return S.acting[g] if S.slot_for[g] == ACT_SELECT else US
    if ph == LOSS:
        return S.loss_side[g]
    if ph == FRIENDLY_FIRE:
        return S.ff_side[g]
    if ph == MELEE_PICK:
        return S.mel_picker[g]
    if ph == ADVANCE:
        return S.mel_side[g]
    return US


# ------------------------------------------------------------------------------------- actions
@njit(cache=True)
def select_in_hex(T, S, g, purpose, h):
    buf = np.empty(MAX_SLOTS, dtype=np.int64)
    dist = supply_distance(T, S, g) if purpose != ACT_SELECT else np.zeros(1, dtype=np.int32)
    n = candidates(T, S, g, purpose, h, dist, buf)
    if n == 1:
        do_unit(T, S, g, purpose, buf[0])
    else:
        S.sel_hex[g] = h
        S.slot_for[g] = purpose
        S.phase[g] = SLOT


@njit(cache=True)
def do_unit(T, S, g, purpose, u):
    if purpose == ACT_SELECT:
        S.selected[g] = u
        S.phase[g] = ACT_ORDER
    elif purpose == REFIT_ALLOC:
        S.unit_steps[g, u] += 1
        S.refit_steps[g] -= 1
        S.phase[g] = REFIT_ALLOC
    elif purpose == INDEPENDENT:
        create_independent(T, S, g, u)
        S.phase[g] = INDEPENDENT
    elif purpose == DEPOT:
        create_depot(T, S, g, u)
        S.phase[g] = DEPOT


@njit(cache=True)
def apply(T, S, g, a):
    H = T.nbr.shape[0]
    ph = S.phase[g]
    k = a - H
    buf = np.empty(MAX_SLOTS, dtype=np.int64)
    if ph == JP_SETUP:
        u = placement_unit(T, S, g)
        S.unit_loc[g, u] = LOC_MAP
        S.unit_hex[g, u] = a
        S.face_down[g, u] = True
        after_setup(T, S, g)
    elif ph == US_STAGING:
        u = stage_unit(T, S, g)
        if k == RESERVE:
            S.unit_loc[g, u] = LOC_RESERVE
        else:
            S.unit_loc[g, u] = LOC_STAGING
            S.unit_hex[g, u] = k - LZ_0
        after_setup(T, S, g)
    elif ph == US_WAIT:
        if k == YES:
            resolve_landing(T, S, g)
            update_zones(T, S, g)
            begin_turn(T, S, g)
        else:  # 12.6: the turn marker moves on; the weather is rolled before the scatter
            S.turn[g] += 1
            roll_weather(T, S, g)
    elif ph == REFIT_DECISION:
        if k == YES:
            S.refit[g] = True
            roll_weather(T, S, g)
            S.refit_steps[g] = recovery_steps(T, S, g)
            S.phase[g] = REFIT_ALLOC
        else:
            S.phase[g] = NIGHT_DECISION
    elif ph == NIGHT_DECISION:
        S.night[g] = k == YES
        start_actions(T, S, g)
    elif ph == REFIT_ALLOC or ph == INDEPENDENT or ph == DEPOT:
        if k == END:
            if ph == REFIT_ALLOC:
                end_refit_allocation(T, S, g)
            elif ph == INDEPENDENT:
                S.phase[g] = DEPOT
            else:
                hide_units(T, S, g, True)  # 9.5
                S.phase[g] = UNKNOWN_PICK
        else:
            select_in_hex(T, S, g, ph, a)
    elif ph == SLOT:
        dist = supply_distance(T, S, g) if S.slot_for[g] != ACT_SELECT else np.zeros(1, dtype=np.int32)
        candidates(T, S, g, S.slot_for[g], S.sel_hex[g], dist, buf)
        do_unit(T, S, g, S.slot_for[g], buf[k - SLOT_0])
    elif ph == REINF_PICK:
        if k == END:
            resolve_landing(T, S, g)
            update_zones(T, S, g)
            S.phase[g] = INDEPENDENT
        else:
            S.selected[g] = group_unit(T, S, g, k - REINF_0)
            S.phase[g] = REINF_ZONE
    elif ph == REINF_ZONE:
        u = S.selected[g]
        S.unit_loc[g, u] = LOC_STAGING
        S.unit_hex[g, u] = k - LZ_0
        S.phase[g] = REINF_PICK
    elif ph == UNKNOWN_PICK:
        if k == END:
            S.phase[g] = SWAP_PICK
        else:
            for u in range(T.u_side.shape[0]):
                if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == a and T.u_type[u] == UNKNOWN \
                        and not S.captured[g, u] and not S.acted[g, u] and not S.pinned[g, u]:
                    S.selected[g] = u
                    break
            S.phase[g] = UNKNOWN_DEST
    elif ph == UNKNOWN_DEST:
        u = S.selected[g]
        S.unit_hex[g, u] = a
        S.acted[g, u] = True
        S.face_down[g, u] = True
        S.phase[g] = UNKNOWN_PICK
    elif ph == SWAP_PICK:
        if k == END:
            advance_turn(T, S, g, False)
        else:
            S.sel_hex[g] = a
            S.swap_left[g] = swap_remove(T, S, g, a)
            S.setup_k[g] = 0
            S.phase[g] = SWAP_PLACE
    elif ph == SWAP_PLACE:
        if k == END:
            S.phase[g] = SWAP_PICK
        else:
            u = spare_unknown(T, S, g)
            S.unit_loc[g, u] = LOC_MAP
            S.unit_hex[g, u] = a
            S.face_down[g, u] = True
            S.acted[g, u] = True
            S.swap_left[g] -= 1
            S.setup_k[g] += 1
            if S.swap_left[g] <= 0 or spare_unknown(T, S, g) < 0:
                S.phase[g] = SWAP_PICK
    elif ph == ACT_SELECT:
        if k == END:
            end_actions(T, S, g)
        elif k == AIR:
            S.phase[g] = AIR_TARGET
        elif k == STRIKE:
            S.air_struck[g] = True
            S.air_i[g] = 0
            air_run(T, S, g)
        elif k == YAMASAKI:
            S.phase[g] = YAMA_SELECT
        else:
            select_in_hex(T, S, g, ACT_SELECT, a)
    elif ph == AIR_TARGET:
        S.air_target[g, S.air_n[g]] = a
        S.air_n[g] += 1
        S.airpower[g, S.acting[g]] -= 1
        S.phase[g] = ACT_SELECT
    elif ph == ACT_ORDER:
        u = S.selected[g]
        if k == HOLD:
            S.acted[g, u] = True
            S.phase[g] = ACT_SELECT
        elif k >= MELEE_0 and k < MELEE_0 + 6:
            S.melee_target[g, u] = T.nbr[S.unit_hex[g, u], k - MELEE_0]
            S.acted[g, u] = True
            S.phase[g] = ACT_SELECT
        elif occupancy(T, S, g)[a] == 1 - side_of(T, S, g, u):
            if side_of(T, S, g, u) == US and mixed_target(T, S, g, a):
                S.sel_hex[g] = a
                S.phase[g] = RANGED_TARGET
            else:
                resolve_ranged(T, S, g, u, a, -1)
        else:
            move_unit(T, S, g, u, a)
    elif ph == RANGED_TARGET:
        n = face_up_targets(T, S, g, S.sel_hex[g], buf)
        i = k - SLOT_0
        target = buf[i] if i < n else random_face_down_unit(T, S, g, S.sel_hex[g])
        if resolve_ranged(T, S, g, S.selected[g], S.sel_hex[g], target):
            after_losses(T, S, g)
    elif ph == LOSS:
        loss_candidates(T, S, g, buf)
        kind = LOSS_MELEE_ON_ATTACKER if S.loss_kind[g] == LOSS_EXCESS else S.loss_kind[g]
        hit_unit(T, S, g, buf[k - SLOT_0], kind)
        S.loss_hits[g] -= 1
    elif ph == FRIENDLY_FIRE:
        start_loss(T, S, g, S.ff_side[g], LOSS_RANGED, 1, a)
    elif ph == MELEE_PICK:
        start_melee(T, S, g, a)
    elif ph == ARNOLD:
        if k == YES:
            S.heroes_used[g, 1] = True
            S.mel_arnold[g] = arnold_candidate(T, S, g)
        melee_run(T, S, g)
    elif ph == MARTINEZ:
        if k == YES:
            S.heroes_used[g, 0] = True
            S.mel_hits[g] += 1
        deliver_melee_hits(T, S, g)
    elif ph == RETREAT_OPTION:
        if k == YES and S.mel_kind[g] == MEL_AMBUSH:  # 13.3: the unit is back where it came from
            S.mel_stage[g] = MEL_RETREATED
            melee_run(T, S, g)
        elif k == YES:
            for u in range(T.u_side.shape[0]):
                if S.unit_loc[g, u] == LOC_MAP and side_of(T, S, g, u) == US and \
                        (S.mel_att[g, u] or S.unit_hex[g, u] == S.mel_hex[g]):
                    S.ret_left[g, u] = True
            S.mel_stage[g] = MEL_RETREATED
            S.phase[g] = RETREAT
        else:
            S.mel_round[g] += 1
            S.mel_stage[g] = first_fire(S, g)
            melee_run(T, S, g)
    elif ph == RETREAT:
        u = next_retreater(T, S, g)
        S.unit_hex[g, u] = a
        S.ret_left[g, u] = False
        S.mel_att[g, u] = False
    elif ph == YAMA_SELECT:
        yamasaki.activate(T, S, g, a)
        update_zones(T, S, g)
        S.phase[g] = YAMA_MOVE
    elif ph == YAMA_MOVE:
        if k == END:
            yamasaki.finish(T, S, g)
            S.phase[g] = ACT_SELECT
        else:
            occ = occupancy(T, S, g)
            for d in range(6):
                if T.nbr[S.sel_hex[g], d] == a:
                    S.yama_mp[g] -= yamasaki.step_cost(T, S, g, d, occ)
                    break
            if occ[a] == 1 - JAPAN:
                start_step_melee(T, S, g, a, JAPAN, MEL_YAMASAKI, S.yama_unit[g])
            else:
                yamasaki.move_group(T, S, g, a)
                update_zones(T, S, g)
    elif ph == ADVANCE:
        if k == END:
            finish_melee(T, S, g)
        else:
            advance_candidates(T, S, g, buf)
            u = buf[k - SLOT_0]
            S.unit_hex[g, u] = S.mel_hex[g]
            if side_of(T, S, g, u) == JAPAN:
                capture_artillery(T, S, g, S.mel_hex[g])
            update_zones(T, S, g)


# --------------------------------------------------------------------------- automatic progress


@njit(cache=True)
def is_minor(ph):
    """The decisions ``decisions="major"`` leaves to defaults.minor_decision."""
    return ph == LOSS or ph == RETREAT or ph == MARTINEZ or ph == ARNOLD or ph == FRIENDLY_FIRE


@njit(cache=True)
def progress(T, S, g):
    """What happens between decisions without one (the driver's hook): the solitaire system's
    ad hoc placements and airpower (13.2), a Melee step with nothing left to pick, hits placed,
    retreats that cannot be made, a refit with no step left.  True when something happened."""
    ph = S.phase[g]
    if T.opts[OPT_SOLITAIRE] and S.mel_hex[g] < 0:
        solitaire.ad_hoc(T, S, g)  # 13.2.2, as soon as a U.S. unit comes near (after a Melee)
        if ph == ACT_SELECT and S.acting[g] == JAPAN and S.airpower[g, JAPAN] > 0 and S.air_n[g] == 0:
            if solitaire.announce_air(T, S, g) > 0:  # 13.2
                S.air_struck[g] = True
                S.air_i[g] = 0
                air_run(T, S, g)
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
        u = next_retreater(T, S, g)
        if u < 0:
            melee_run(T, S, g)
            return True
        tmp = np.zeros(T.nbr.shape[0], dtype=np.bool_)
        if retreat_hexes(T, S, g, u, tmp) == 0:  # README: no hex to retreat to
            S.ret_left[g, u] = False
            S.mel_att[g, u] = False
            from_steps = S.unit_steps[g, u]
            for _ in range(from_steps):
                hit_unit(T, S, g, u, LOSS_MELEE_ON_ATTACKER)
            return True
    if ph == REFIT_ALLOC and S.refit_steps[g] <= 0:
        end_refit_allocation(T, S, g)
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
