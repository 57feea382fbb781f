"""The sequence of play (4.0, 16.0) as a machine of stages and U.S. decisions, and the driver.

    I    amphibious operations   landing checks (5.1, a drifting unit: P_DRIFT), landing (5.2,
                                 P_LAND), units into the boxes (5.3, P_BOX); turn 1 only the last
    II   first event (turn 2+)   events.do_event (P_HERO_PLACE, P_STEP_ADD, P_REVEAL_PICK)
    III  Japanese fire           japanese.py, one queued position at a time; close combats (combat.py:
                                 P_CC_LOSS, P_CC_WITHDRAW); a tied hit's unit (P_HIT_PICK), a tied
                                 assault's hex (P_ASSAULT_PICK); artillery; disruption removed
    IV   second event (turn 5+)
    V    HQ phase (turn 8+)      garrisons (14.4, P_GARRISON), command ranges (14.2, P_CP_RANGE),
                                 command posts (14.1, P_HQ_CP)
    VI   U.S. actions            P_ACT_SELECT -> P_ACT_ORDER -> P_MOVE_DEST / P_TARGET -> P_STACK_JOIN /
                                 P_ATTACK_JOIN -> ... (us.py); END -> close combats, stacking (P_STACK_ELIM)
    VII  end of turn             cards to the discards (reshuffled when they outnumber the deck), the
                                 victory checks (15.0, 17.0), turn 13's reorganization (16.0)

``progress`` does the next piece of automatic work; a stage that needs the player sets ``phase``
and waits for ``apply``.  Decisions with one legal action take themselves; with
``decisions="major"`` the minor ones (``is_minor``) are made by the documented defaults.

The event log (eventlog.py): the Phase marker's moves along the Card/Phase track (4.0), a new turn,
the reshuffle at the end of a turn, and what the player's decisions carry out are reported here; the
rules functions report their own.
"""

import numpy as np

from wargym.cards import move_card, new_deck, pile_size, reshuffle
from wargym.events import emit
from wargym.jit import njit
from wargym.kernel import bind_driver, first_legal, only_action
from wargym.peleliu.actions import ATTACK, BARRAGE, BOX_0, DAUNTLESS, END, MOVE, NAVAL, NO, RESOLVE, UNIT_0, YES
from wargym.peleliu import bnr, eventlog as ev
from wargym.peleliu.board import (
    artillery_taken, clear_jp, draw, shuffled_where, eliminate_us, give_depth, jp_at, stack_count, sync_depth_hexes,
    us_steps_in_hex,
)
from wargym.peleliu.closecombat import (
    cc_loss, cc_loss_default, cc_progress, start_cc, withdrawal_hexes,
)
from wargym.peleliu.combat import (
    ATTACK_ATTRITION, ATTACK_HERO, HERO_STRENGTH, HERO_WILD, attrition, finish_attack, resolve_attack,
)
from wargym.peleliu.events import (
    PICK_ADJACENT, PICK_PATROL, closest_hidden, do_event, reveal_closest_in, reveal_pickable, reveal_unit,
)
from wargym.peleliu.forces import night
from wargym.peleliu.japanese import (
    assault_pick, ca_pick, colour_of, counterattack_setup, finish_fire_phase, fire_step, start_fire_phase,
)
from wargym.peleliu.scenario import AMTANK, REG_HQ
from wargym.peleliu.state import (
    CC_US_INIT, DM_CUP, DM_POOL, DM_UNIT, JP_ELIM, JP_MAP, JP_RESERVE, MAX_CANCELS, OPT_ALT_ARMOR, OPT_MAJOR,
    OPT_VARIABLE_LETTERS, O_ATTACK, O_BARRAGE, O_DAUNTLESS, O_ENTER, O_MOVE, O_NAVAL, PILE_DECK, PILE_DISCARD,
    PILE_TRACK, P_ACT_ORDER, P_ACT_SELECT, P_ATTACK_JOIN, P_ATTRITION, P_AUTO, P_BOX, P_CC_LOSS, P_CC_WITHDRAW,
    P_ASSAULT_PICK, P_CA_PICK, P_DRIFT, P_HERO_BONUS, P_HERO_PLACE, P_HIT_PICK, P_HQ_CP, P_INFIL, P_LAND, P_MOVE_DEST,
    P_OVER, P_REVEAL_PICK, P_STACK_ELIM, P_STACK_JOIN, P_STEP_ADD, P_TARGET, R_WIN, ST_ACTIONS, ST_AOP_BOXES,
    ST_AOP_CHECK, ST_AOP_LAND,
    ST_CC, ST_END_TURN, ST_EVENT1, ST_EVENT2, ST_FIRE, ST_FIRE_START, ST_HQ, ST_STACKING, US_BOX, US_MAP,
    US_OUT, US_TRACK, OPT_BNR, P_CC_RETREAT, P_CP_RANGE, P_FLAME, P_FORT_ROTATE, P_GARRISON, P_SETUP, P_UNDISRUPT,
    P_WITHDRAW, SEL_HQ_AHEAD, ST_BNR_SETUP, ST_RELIEF,
)
from wargym.peleliu.us import (
    box_mask, target_mask, clear_order, cost_of, cp_eligible, dest_mask, drift, drift_mask, end_disruption,
    execute_barrage, execute_enter, execute_move, finish_move, garrison_hexes, cp_may_advance, join_mask, land,
    land_mask, landing_check, may_wait, new_disruption_ages, order_mask, partner_mask, select_mask, start_actions,
    step_add_mask, box_units,
)
from wargym.peleliu.ties import tie_hit
from wargym.peleliu.victory import catastrophic_now, end_of_turn_victory, finish
from wargym.rng import shuffle

HQ_GARRISONS, HQ_RANGES, HQ_NEW_CPS = range(3)  # the invasion's HQ phase (14.0), in S.k


# ------------------------------------------------------------------------------------------ set-up
@njit(cache=True)
def start_game(T, S, g):
    """3.0: cards, Japanese units and depth markers, pre-invasion bombardment, U.S. units (18.1 for
    Bloody Nose Ridge: bnr.start_bnr)."""
    new_deck(S, S.card_pile, S.card_pos, g, PILE_DECK)
    if T.opts[OPT_BNR]:
        bnr.start_bnr(T, S, g)
        S.turn[g] = 1
        S.stage[g] = ST_BNR_SETUP
        S.phase[g] = P_AUTO
        S.sel[g] = -1
        S.k[g] = -1
        return
    NJ = S.jp_loc.shape[1]
    ND = S.dm_loc.shape[1]
    NU = S.us_loc.shape[1]
    for d in range(ND):
        S.dm_loc[g, d] = DM_CUP if T.dm_kind[d] == 2 else DM_POOL
        S.dm_rev[g, d] = False
    alt = T.opts[OPT_ALT_ARMOR]
    # the 51 non-armor units face down, one in each set-up position, the rest in reserve
    for j in range(NJ):
        clear_jp(T, S, g, j)
    order = shuffled_where(S, g, ~T.jp_tank)
    n = order.shape[0]
    k = 0
    for p in range(T.pos_hex.shape[0]):
        setup = T.setup_alt[p] if alt else T.setup_std[p]
        if setup and k < n:
            j = order[k]
            k += 1
            S.jp_loc[g, j] = JP_MAP
            S.jp_hex[g, j] = T.pos_hex[p]
    for i in range(k, n):
        S.jp_loc[g, order[i]] = JP_RESERVE
    # the four armor units, revealed and disrupted, an armor depth marker face down under each
    tk = shuffled_where(S, g, T.jp_tank)
    nt = tk.shape[0]
    k = 0
    for p in range(T.pos_hex.shape[0]):
        if T.pos_armor[p] == (2 if alt else 1) and k < nt:
            j = tk[k]
            k += 1
            S.jp_loc[g, j] = JP_MAP
            S.jp_hex[g, j] = T.pos_hex[p]
            S.jp_rev[g, j] = True
            S.jp_dis[g, j] = True
            for d in range(ND):
                if T.dm_kind[d] == 1 and S.dm_loc[g, d] == DM_POOL:
                    S.dm_loc[g, d] = DM_UNIT
                    S.jp_depth[g, j] = d
                    break
    for i in range(k, nt):
        S.jp_loc[g, tk[i]] = JP_RESERVE
    # B1, B4, B5 start with a depth marker
    for p in range(T.pos_hex.shape[0]):
        if T.depth_start[p]:
            j = jp_at(T, S, g, T.pos_hex[p])
            if j >= 0:
                give_depth(T, S, g, j, False)
    # 20.1: the action letters' order
    if T.opts[OPT_VARIABLE_LETTERS]:
        letters = np.arange(1, 6)
        shuffle(S, g, letters)
        for i in range(5):
            S.letter_order[g, i] = letters[i]
    # pre-invasion bombardment
    c = draw(T, S, g, PILE_DISCARD)
    for j in range(NJ):
        if S.jp_loc[g, j] == JP_MAP:
            p = T.hex_pos[S.jp_hex[g, j]]
            if p >= 0 and (T.pos_colour[p] == T.card_colour[c, 0] or T.pos_colour[p] == T.card_colour[c, 1]
                           or T.pos_colour[p] == T.card_colour[c, 2]):
                S.jp_dis[g, j] = True
    # U.S. units: the three amphibious tanks on their beach hexes, the rest on the turn track
    for u in range(NU):
        S.us_steps[g, u] = T.us_steps0[u]
        S.us_hex[g, u] = -1
        S.us_loc[g, u] = US_OUT
        S.us_track[g, u] = -1
        if T.us_arrival[u] == 1 and T.us_type[u] == AMTANK and T.us_beach[u] < 5 and T.box_amtank[T.us_beach[u]] >= 0:
            S.us_loc[g, u] = US_MAP
            S.us_hex[g, u] = T.box_amtank[T.us_beach[u]]
        elif T.us_arrival[u] >= 1:
            S.us_loc[g, u] = US_TRACK
            S.us_track[g, u] = T.us_arrival[u]
    S.turn[g] = 1
    S.stage[g] = ST_AOP_BOXES
    S.phase[g] = P_AUTO
    S.sel[g] = -1
    S.k[g] = -1


# ---------------------------------------------------------------------------------------- progress
@njit(cache=True)
def progress(T, S, g):
    """The next piece of automatic play; False when a decision waits (or the game is over)."""
    if catastrophic_now(T, S, g):  # 15.1: the moment it occurs, whatever decision was to come
        return True
    if S.phase[g] != P_AUTO:
        return False
    if S.tie_left[g] > 0:  # a tie of the last Japanese fire or event waits for the player (ties.py)
        S.phase[g] = P_HIT_PICK
        return True
    if S.tie_from[g] >= 0:  # a tied assault waits for the player (japanese.defer_assault)
        S.phase[g] = P_ASSAULT_PICK
        return True
    if S.ca_left[g] > 0:  # a tie of the counterattack's set-up waits for the player (13.41)
        S.phase[g] = P_CA_PICK
        return True
    if S.cc_hex[g] >= 0:
        cc_progress(T, S, g)
        return True
    st = S.stage[g]
    turn = S.turn[g]
    if T.opts[OPT_BNR] and st != ST_FIRE_START and st != ST_FIRE and st != ST_STACKING and st != ST_END_TURN:
        return bnr_progress(T, S, g)
    if st == ST_AOP_CHECK:
        if turn == 13:
            S.stage[g] = ST_EVENT1
            return True
        b = S.sel[g] + 1
        while b < 5 and box_units(T, S, g, b) == 0:
            b += 1
        if b >= 5:
            for u in range(S.us_loc.shape[1]):
                S.pending[g, u] = False
            S.stage[g] = ST_AOP_LAND
            S.sel[g] = -1
            return True
        S.sel[g] = b
        u = landing_check(T, S, g, b)
        if u >= 0:
            drift(T, S, g, u, b, S.k[g])
        elif u == -2:
            S.phase[g] = P_DRIFT
        return True
    if st == ST_AOP_LAND:
        H = T.land.shape[0]
        m = np.zeros(H, np.bool_)
        for u in range(S.us_loc.shape[1]):
            if S.us_loc[g, u] == US_BOX and not S.pending[g, u]:
                S.pending[g, u] = True
                m[:] = False
                n = land_mask(T, S, g, u, m)
                if n == 0:
                    emit(S, g, ev.WAITS, u, S.us_hex[g, u])
                    continue  # 5.2: no room, waits in the box
                S.sel[g] = u
                if n == 1 and not may_wait(T, S, g, u):
                    land(T, S, g, u, only_action(m))
                else:
                    S.phase[g] = P_LAND  # a hex, or (5.2) NO: the unit waits in its box
                return True
        for u in range(S.us_loc.shape[1]):
            S.pending[g, u] = False
        S.stage[g] = ST_AOP_BOXES
        return True
    if st == ST_AOP_BOXES:
        for u in range(S.us_loc.shape[1]):
            if S.us_loc[g, u] == US_TRACK and S.us_track[g, u] <= turn + 1:
                S.sel[g] = u
                code = T.us_beach[u]
                if code < 5:
                    S.us_loc[g, u] = US_BOX
                    S.us_hex[g, u] = code
                    emit(S, g, ev.INTO_BOX, u, code)
                else:
                    S.phase[g] = P_BOX
                return True
        S.stage[g] = ST_EVENT1
        S.sel[g] = -1
        return True
    if st == ST_EVENT1:
        S.stage[g] = ST_FIRE_START
        S.k[g] = 0
        if turn == 13:
            emit(S, g, ev.PHASE, ev.PH_EVENT1)
            if not S.ca_done[g]:
                counterattack_setup(T, S, g)  # 16.0 II
        elif turn >= 2:
            emit(S, g, ev.PHASE, ev.PH_EVENT1)
            event_phase(T, S, g, turn)
        return True
    if st == ST_FIRE_START:
        S.stage[g] = ST_FIRE
        emit(S, g, ev.PHASE, ev.PH_FIRE)
        start_fire_phase(T, S, g)
        return True
    if st == ST_FIRE:
        S.tie_ok[g] = not T.opts[OPT_MAJOR]  # "you choose" ties are asked (P_HIT_PICK) after the entry
        more = fire_step(T, S, g)
        if more:
            S.tie_ok[g] = False
            return True
        # the night's first Fire Phase is followed at once by the second (16.0): its artillery's tie
        # is settled by the default before the second one resets 6.34
        S.tie_ok[g] = S.tie_ok[g] and not (night(T, S, g) and S.jq_pass[g] == 0)
        finish_fire_phase(T, S, g)
        S.tie_ok[g] = False
        if night(T, S, g) and S.jq_pass[g] == 0:
            S.jq_pass[g] = 1  # 16.0: two Fire Phases in a row
            emit(S, g, ev.PHASE, ev.PH_FIRE)
            start_fire_phase(T, S, g)
            return True
        S.jq_pass[g] = 0
        S.stage[g] = ST_EVENT2
        return True
    if st == ST_EVENT2:
        S.stage[g] = ST_HQ
        S.sel[g] = SEL_HQ_AHEAD  # the event's decisions use S.k
        if turn >= 5 and turn != 13:
            emit(S, g, ev.PHASE, ev.PH_EVENT2)
            event_phase(T, S, g, turn)
        return True
    if st == ST_HQ:  # V (14.0), from turn 8: garrisons, then the command ranges, then new CPs
        if S.sel[g] == SEL_HQ_AHEAD:
            S.sel[g] = -1
            S.k[g] = HQ_GARRISONS if turn >= 8 and turn != 13 else HQ_NEW_CPS
            if turn >= 8 and turn != 13:
                emit(S, g, ev.PHASE, ev.PH_HQ)
            return True
        if S.k[g] == HQ_GARRISONS:  # V.1 (14.4): one garrison a decision until none or NO
            if garrison_hexes(T, S, g, np.zeros(T.land.shape[0], np.bool_)) > 0:
                S.phase[g] = P_GARRISON
            else:
                S.k[g] = HQ_RANGES
            return True
        if S.k[g] == HQ_RANGES:  # V.2 (14.2): each established CP's range
            for u in range(S.sel[g] + 1, S.us_loc.shape[1]):
                if cp_may_advance(T, S, g, u):
                    S.sel[g] = u
                    S.phase[g] = P_CP_RANGE
                    return True
            S.sel[g] = -1
            S.k[g] = HQ_NEW_CPS
            return True
        if turn >= 8 and turn != 13:
            for u in range(S.sel[g] + 1, S.us_loc.shape[1]):
                if T.us_type[u] == REG_HQ and cp_eligible(T, S, g, u):
                    S.sel[g] = u
                    S.phase[g] = P_HQ_CP
                    return True
        begin_actions(T, S, g)
        return True
    if st == ST_CC:
        h, j = next_contested(T, S, g, S.k[g])
        if h >= 0:
            S.k[g] = h
            p = T.hex_pos[h]
            colour = T.pos_colour[p] if (p >= 0 and not T.pos_prov[p]) else colour_of(T, S, g, j)
            start_cc(T, S, g, h, j, CC_US_INIT, colour)
            return True
        S.stage[g] = ST_STACKING
        return True
    if st == ST_STACKING:
        artillery_taken(T, S, g)
        h = first_overstacked(T, S, g)
        if h >= 0:
            S.target[g] = h
            S.phase[g] = P_STACK_ELIM
            return True
        new_disruption_ages(T, S, g)
        S.stage[g] = ST_RELIEF if bnr.is_night(T, S, g) else ST_END_TURN  # 18.21 steps 3-4
        S.k[g] = -1
        return True
    if st == ST_END_TURN:
        end_turn(T, S, g)
        return True
    return False


@njit(cache=True)
def begin_actions(T, S, g):
    emit(S, g, ev.PHASE, ev.PH_ACTIONS)
    S.stage[g] = ST_ACTIONS
    start_actions(T, S, g)
    S.phase[g] = P_ACT_SELECT


@njit(cache=True)
def bnr_progress(T, S, g):
    """18.2: the BNR sequence of play (the night turns of 18.21, the morning turns of 18.22)."""
    st = S.stage[g]
    turn = S.turn[g]
    if st == ST_BNR_SETUP:
        code = bnr.setup_step(T, S, g)
        if code == bnr.SETUP_UNIT:
            S.phase[g] = P_SETUP
        elif code == bnr.SETUP_GARRISON:
            S.phase[g] = P_GARRISON
        elif code == bnr.SETUP_HERO:
            S.phase[g] = P_HERO_PLACE
        else:
            S.sel[g] = -1
            begin_actions(T, S, g)
        return True
    if st == ST_EVENT1:
        if turn >= bnr.COMMAND_CHANGE_TURN and S.rupertus[g]:
            S.rupertus[g] = False  # 18.32: the command changes on turn 12 at the latest
            emit(S, g, ev.COMMAND_CHANGE)
        if bnr.is_night(T, S, g):
            bnr.night_start(T, S, g)  # 18.21 step 1, then the one-hex moves
            begin_actions(T, S, g)
        elif bnr.prep_morning(T, S, g):
            S.bonus[g] = 0  # 18.22
            begin_actions(T, S, g)
        else:
            S.stage[g] = ST_FIRE_START
            emit(S, g, ev.PHASE, ev.PH_EVENT1)
            event_phase(T, S, g, 0)
        return True
    if st == ST_EVENT2:
        S.stage[g] = ST_HQ
        S.sel[g] = SEL_HQ_AHEAD  # the event's decisions use S.k
        emit(S, g, ev.PHASE, ev.PH_EVENT2)
        event_phase(T, S, g, 0)
        return True
    if st == ST_HQ:  # 18.2 IV
        if S.sel[g] == SEL_HQ_AHEAD:
            S.sel[g] = -1
            S.k[g] = 0
            emit(S, g, ev.PHASE, ev.PH_HQ)
            return True
        if S.k[g] == 0:
            bnr.clear_auf(T, S, g)
            S.k[g] = 1
            if bnr.undisrupt_mask(T, S, g, np.zeros(T.land.shape[0], np.bool_)) > 0:
                S.phase[g] = P_UNDISRUPT
            return True
        if S.k[g] == 1:
            S.k[g] = 2
            if bnr.garrison_mask(T, S, g, np.zeros(T.land.shape[0], np.bool_), False) > 0:
                S.phase[g] = P_GARRISON
            return True
        S.k[g] = -1
        begin_actions(T, S, g)
        return True
    if st == ST_CC:
        h, j = next_contested(T, S, g, S.k[g])
        if h >= 0:
            S.k[g] = h
            if T.jp_fort[j]:
                j = bnr.man_fort_for_cc(T, S, g, h)  # 19.5
                if j < 0:
                    bnr.taken(T, S, g, h)
                    return True
            p = T.hex_pos[h]
            colour = T.pos_colour[p] if p >= 0 else bnr.cave_colour(T, S, g, h)
            if colour < 0:
                colour = colour_of(T, S, g, j)
            start_cc(T, S, g, h, j, CC_US_INIT, colour)
            if S.flame[g]:
                S.phase[g] = P_FLAME
            return True
        S.stage[g] = ST_STACKING
        return True
    if st == ST_RELIEF:  # 18.21 steps 3-4
        if S.k[g] == -1:
            S.k[g] = 0
            if bnr.waiting(T, S, g) > 0:
                if bnr.battalion_on_map(T, S, g):
                    S.phase[g] = P_WITHDRAW
                else:
                    bnr.postpone(T, S, g)
            return True
        u = bnr.next_arrival(T, S, g)
        if u >= 0:
            S.sel[g] = u
            if bnr.placement_mask(T, S, g, u, np.zeros(T.land.shape[0], np.bool_), True) > 0:
                S.phase[g] = P_SETUP
            else:
                S.pending[g, u] = False
                S.us_loc[g, u] = US_OUT  # no hex left for it (README)
                S.us_track[g, u] = -1
            return True
        S.sel[g] = -1
        bnr.end_relief(T, S, g)
        bnr.reorganize(T, S, g)
        if S.ev_on[0]:
            box, board = bnr.japanese_left(T, S, g)
            emit(S, g, ev.JAPANESE_LEFT, box, board)
        if bnr.night_check(T, S, g):
            finish(T, S, g, R_WIN)  # 18.42
            return True
        S.stage[g] = ST_END_TURN
        return True
    return False


@njit(cache=True)
def next_contested(T, S, g, after):
    """8.6: the next hex after ``after`` (hex order) holding a Japanese unit and U.S. steps: (hex,
    unit), (-1, -1) when none."""
    best, unit = T.land.shape[0], -1
    for j in range(S.jp_loc.shape[1]):
        if S.jp_loc[g, j] == JP_MAP:
            h = S.jp_hex[g, j]
            if after < h < best:  # the lowest unit of a hex comes first (jp_at)
                if us_steps_in_hex(T, S, g, h) > 0:
                    best, unit = h, j
    return (best, unit) if unit >= 0 else (-1, -1)


@njit(cache=True)
def first_overstacked(T, S, g):
    """7.51: the first hex (hex order) with more than two units counting against stacking, -1."""
    best = -1
    for u in range(S.us_loc.shape[1]):
        if S.us_loc[g, u] == US_MAP and T.us_type[u] != REG_HQ:
            h = S.us_hex[g, u]
            if (best < 0 or h < best) and stack_count(T, S, g, h) > 2:
                best = h
    return best


@njit(cache=True)
def event_phase(T, S, g, turn):
    """II / IV: draw an event card and carry out the turn's event; a decision it leaves waits."""
    c = draw(T, S, g, PILE_TRACK)
    if c >= 0:
        emit(S, g, ev.EVENT_CARD, c, turn)
        ph = do_event(T, S, g, c, turn)
        if ph >= 0:
            S.phase[g] = ph


@njit(cache=True)
def end_turn(T, S, g):
    """VII: cards to the discards (all shuffled back when the discards clearly outnumber the deck),
    turn 13's reorganization and loss of contact, the victory checks, the next turn."""
    emit(S, g, ev.PHASE, ev.PH_END)
    for c in range(S.card_pile.shape[1]):
        if S.card_pile[g, c] == PILE_TRACK:
            move_card(S.card_pile, S.card_pos, g, c, PILE_DISCARD, True)
    discards = pile_size(S.card_pile, g, PILE_DISCARD)
    if discards > pile_size(S.card_pile, g, PILE_DECK):
        emit(S, g, ev.RESHUFFLE, discards)
        reshuffle(S, S.card_pile, S.card_pos, g, PILE_DISCARD, PILE_DECK)
    turn = S.turn[g]
    if turn == 13 and not T.opts[OPT_BNR]:
        reorganize(T, S, g)
    for k in range(6):
        S.smoke[g, k] = False
    S.cp_fire[g] = -1
    S.fire_card[g] = -1
    if end_of_turn_victory(T, S, g):
        return
    S.turn[g] = turn + 1
    S.stage[g] = ST_EVENT1 if T.opts[OPT_BNR] else ST_AOP_CHECK  # 18.2: no amphibious phase
    S.sel[g] = -1
    S.k[g] = -1
    emit(S, g, ev.TURN, turn + 1)
    if not T.opts[OPT_BNR] and turn + 1 != 13:
        emit(S, g, ev.PHASE, ev.PH_AOP)  # 16.0: the overnight turn has no amphibious operations


@njit(cache=True)
def reorganize(T, S, g):
    """16.0 VII: half the eliminated elite units (rounded down) back to the reserve box at random;
    every Japanese unit and depth marker on the map turns face down."""
    NJ = S.jp_loc.shape[1]
    elim = np.empty(NJ, np.int64)
    n = 0
    for j in range(NJ):
        if S.jp_loc[g, j] == JP_ELIM:
            elim[n] = j
            n += 1
    pick = elim[:n].copy()
    shuffle(S, g, pick)
    emit(S, g, ev.REORGANIZATION, n // 2)
    for i in range(n // 2):
        S.jp_loc[g, pick[i]] = JP_RESERVE
    for j in range(NJ):
        if S.jp_loc[g, j] == JP_MAP:
            S.jp_rev[g, j] = False
            d = S.jp_depth[g, j]
            if d >= 0:
                S.dm_rev[g, d] = False


# ---------------------------------------------------------------------------------------- decisions
@njit(cache=True)
def fill_mask(T, S, g, m):
    m[:] = False
    H = T.land.shape[0]
    ph = S.phase[g]
    if ph == P_AUTO or ph == P_OVER:
        return 0
    if ph == P_BOX:
        box_mask(T, S, g, S.sel[g], m, H)
    elif ph == P_LAND:
        land_mask(T, S, g, S.sel[g], m)
        m[H + NO] = may_wait(T, S, g, S.sel[g])  # 5.2: "excess units of your choice remain"
    elif ph == P_DRIFT:
        drift_mask(T, S, g, S.sel[g], S.k[g], m, H)
    elif ph == P_ACT_SELECT:
        select_mask(T, S, g, m, H)
    elif ph == P_ACT_ORDER:
        order_mask(T, S, g, S.sel[g], m, H)
    elif ph == P_MOVE_DEST:
        dest_mask(T, S, g, S.sel[g], m, H)
        m[H + NO] = True
    elif ph == P_STACK_JOIN:
        partner_mask(T, S, g, S.sel[g], m, H)
    elif ph == P_INFIL:
        m[H + YES] = True
        m[H + NO] = True
    elif ph == P_TARGET:
        target_mask(T, S, g, m, H)
    elif ph == P_ATTACK_JOIN:
        join_mask(T, S, g, m, H)
    elif ph == P_ATTRITION or ph == P_CC_WITHDRAW or ph == P_HQ_CP or ph == P_HERO_BONUS:
        m[H + YES] = True
        m[H + NO] = True
    elif ph == P_CC_RETREAT:
        withdrawal_hexes(T, S, g, S.cc_hex[g], m)
    elif ph == P_CC_LOSS:
        for u in range(S.us_loc.shape[1]):
            if S.cc_units[g, u] and S.us_loc[g, u] == US_MAP and S.us_hex[g, u] == S.cc_hex[g]:
                m[H + UNIT_0 + u] = True
    elif ph == P_HIT_PICK:
        for u in range(S.us_loc.shape[1]):
            if S.tie_units[g, u]:
                m[H + UNIT_0 + u] = True
    elif ph == P_ASSAULT_PICK or ph == P_CA_PICK:
        for x in range(H):
            m[x] = S.tie_hexes[g, x]
    elif ph == P_STACK_ELIM:
        for u in range(S.us_loc.shape[1]):
            if S.us_loc[g, u] == US_MAP and S.us_hex[g, u] == S.target[g] and T.us_type[u] != REG_HQ:
                m[H + UNIT_0 + u] = True
    elif ph == P_HERO_PLACE:
        for u in range(S.us_loc.shape[1]):
            if S.us_loc[g, u] == US_MAP and S.hero[g, u] == 0:
                m[H + UNIT_0 + u] = True
    elif ph == P_STEP_ADD:
        step_add_mask(T, S, g, m, H, S.k[g] == 1)
    elif ph == P_REVEAL_PICK:
        if S.k[g] == PICK_ADJACENT:  # 10.17: "you may instead reveal a Japanese unit of your choice"
            for h in range(H):
                if reveal_pickable(T, S, g, h):
                    m[h] = True
            m[H + NO] = True
        else:  # the event's closest units tie: "you choose one"
            closest_hidden(T, S, g, S.k[g] == PICK_PATROL, m)
    elif ph == P_SETUP:
        bnr.placement_mask(T, S, g, S.sel[g], m, S.stage[g] == ST_RELIEF)
    elif ph == P_GARRISON:
        if T.opts[OPT_BNR]:
            bnr.garrison_mask(T, S, g, m, S.stage[g] == ST_BNR_SETUP)
        else:
            garrison_hexes(T, S, g, m)  # 14.4: "you may place"
            m[H + NO] = True
    elif ph == P_UNDISRUPT:
        bnr.undisrupt_mask(T, S, g, m)
        m[H + NO] = True
    elif ph == P_WITHDRAW:
        bnr.withdraw_mask(T, S, g, m, H, UNIT_0)
        m[H + NO] = True
    elif ph == P_FORT_ROTATE or ph == P_FLAME or ph == P_CP_RANGE:
        m[H + YES] = True
        m[H + NO] = True
    if S.cancels[g] >= MAX_CANCELS and (ph == P_ACT_ORDER or ph == P_MOVE_DEST or ph == P_TARGET
                                        or ph == P_ATTACK_JOIN):
        m[H + NO] = False  # README: no more take-backs this phase while the declaration can go on
        if first_legal(m) < 0:
            m[H + NO] = True
    n = 0
    for i in range(m.shape[0]):
        if m[i]:
            n += 1
    return n


@njit(cache=True)
def apply(T, S, g, a):
    H = T.land.shape[0]
    ph = S.phase[g]
    k = a - H
    S.phase[g] = P_AUTO
    if ph == P_BOX:
        u = S.sel[g]
        S.us_loc[g, u] = US_BOX
        S.us_hex[g, u] = k - BOX_0
        emit(S, g, ev.INTO_BOX, u, k - BOX_0)
    elif ph == P_LAND:
        if k != NO:  # NO: the unit stays in its box for next turn (5.2)
            land(T, S, g, S.sel[g], a)
        else:
            emit(S, g, ev.WAITS, S.sel[g], S.us_hex[g, S.sel[g]])
    elif ph == P_DRIFT:
        drift(T, S, g, k - UNIT_0, S.sel[g], S.k[g])
    elif ph == P_ACT_SELECT:
        if k == END:
            end_disruption(T, S, g)
            bnr.clear_orders(T, S, g)  # the Attack Orders markers come off
            emit(S, g, ev.PHASE, ev.PH_CC)
            S.stage[g] = ST_CC
            S.k[g] = -1
        elif k == NAVAL or k == DAUNTLESS:
            S.order[g] = O_NAVAL if k == NAVAL else O_DAUNTLESS
            S.phase[g] = P_TARGET
        else:
            S.sel[g] = k - UNIT_0
            S.phase[g] = P_ACT_ORDER
    elif ph == P_ACT_ORDER:
        if k == NO:
            take_back(T, S, g)
        else:
            S.order[g] = (O_MOVE if k == MOVE else O_ATTACK if k == ATTACK else O_BARRAGE if k == BARRAGE
                          else O_ENTER)
            S.phase[g] = P_MOVE_DEST if k == MOVE else P_TARGET
    elif ph == P_MOVE_DEST:
        if k == NO:
            take_back(T, S, g)
        else:
            S.target[g] = a
            S.att_units[g, S.sel[g]] = True
            S.phase[g] = P_STACK_JOIN
    elif ph == P_STACK_JOIN:
        if k != NO:
            S.att_units[g, k - UNIT_0] = True
        if S.order[g] == O_MOVE:
            if execute_move(T, S, g):
                S.phase[g] = P_INFIL
            else:
                S.phase[g] = P_ACT_SELECT
        else:
            execute_enter(T, S, g)
            S.phase[g] = P_ACT_SELECT
    elif ph == P_INFIL:
        if k == YES:
            finish_move(T, S, g, False)
        else:
            for u in range(S.us_loc.shape[1]):
                if S.att_units[g, u] and S.us_loc[g, u] == US_MAP:
                    emit(S, g, ev.STAYS, u, S.us_hex[g, u])
            clear_order(T, S, g)
        S.phase[g] = P_ACT_SELECT
    elif ph == P_TARGET:
        if k == NO:
            take_back(T, S, g)
            return
        S.target[g] = a
        o = S.order[g]
        if o == O_ATTACK:
            bnr.garrison_fort(T, S, g, a)  # 19.5: upon initiating the attack
            S.att_units[g, S.sel[g]] = True
            S.phase[g] = P_ATTACK_JOIN
        elif o == O_ENTER:
            S.att_units[g, S.sel[g]] = True
            S.phase[g] = P_STACK_JOIN
        else:
            S.phase[g] = P_FORT_ROTATE if execute_barrage(T, S, g) else P_ACT_SELECT
    elif ph == P_ATTACK_JOIN:
        if k == NO:
            take_back(T, S, g)
        elif k == NAVAL or k == DAUNTLESS:
            S.att_marker[g] = 0 if k == NAVAL else 1
            S.phase[g] = P_ATTACK_JOIN
        elif k == RESOLVE:
            S.actions_left[g] -= cost_of(T, S, g, S.att_units[g])
            if S.att_marker[g] == 0:
                S.naval[g] -= 1
            elif S.att_marker[g] == 1:
                S.dauntless[g] -= 1
            after_attack(T, S, g, resolve_attack(T, S, g, True))
        else:
            S.att_units[g, k - UNIT_0] = True
            S.phase[g] = P_ATTACK_JOIN
    elif ph == P_HERO_BONUS:
        after_attack(T, S, g, finish_attack(T, S, g, HERO_WILD if k == YES else HERO_STRENGTH))
    elif ph == P_ATTRITION:
        attrition(T, S, g, k == YES)
        clear_order(T, S, g)
        S.phase[g] = P_ACT_SELECT
    elif ph == P_CC_LOSS:
        cc_loss(T, S, g, k - UNIT_0)
    elif ph == P_HIT_PICK:
        tie_hit(T, S, g, k - UNIT_0)
    elif ph == P_ASSAULT_PICK:
        assault_pick(T, S, g, a)
    elif ph == P_CA_PICK:
        ca_pick(T, S, g, a)
    elif ph == P_CC_RETREAT:
        S.cc_to[g] = a  # 8.63: the close combat ends next (closecombat.end_cc)
    elif ph == P_CC_WITHDRAW:
        if k == YES:
            S.cc_withdraw[g] = 1
            emit(S, g, ev.CC_WITHDRAW, S.cc_hex[g])
    elif ph == P_STACK_ELIM:
        emit(S, g, ev.OVERSTACKED, k - UNIT_0, S.target[g])
        eliminate_us(T, S, g, k - UNIT_0)
    elif ph == P_HQ_CP:
        u = S.sel[g]
        if k == YES:
            S.cp[g, u] = -1 if S.cp[g, u] >= 0 else 0
            emit(S, g, ev.COMMAND_POST, u, ev.CP_ESTABLISHED if S.cp[g, u] >= 0 else ev.CP_REVERTS)
    elif ph == P_HERO_PLACE:
        S.hero[g, k - UNIT_0] = 1
        S.heroes_placed[g] += 1
        emit(S, g, ev.HERO, k - UNIT_0)
    elif ph == P_STEP_ADD:
        u = k - UNIT_0
        S.us_steps[g, u] += 1
        emit(S, g, ev.STEP_GAINED, u, S.us_steps[g, u])
        if T.us_steps0[u] == 4 and S.us_steps[g, u] == 3 and S.loss_box[g] > 0 and not T.opts[OPT_BNR]:
            S.loss_box[g] -= 1  # the full-strength counter comes back (15.1; 18.41 counts only eliminations)
    elif ph == P_REVEAL_PICK:
        if S.k[g] != PICK_ADJACENT:
            reveal_closest_in(T, S, g, a, S.k[g] == PICK_PATROL)
        elif k != NO:
            j = jp_at(T, S, g, a)
            if j >= 0:
                reveal_unit(T, S, g, j)
    elif ph == P_SETUP:
        bnr.place_unit(T, S, g, S.sel[g], a)
    elif ph == P_GARRISON:
        if k == NO:
            S.k[g] = HQ_RANGES  # no more garrisons this HQ phase (14.4)
        else:
            S.garrison[g, T.hex_pos[a]] = True
            emit(S, g, ev.GARRISON, a)
    elif ph == P_CP_RANGE:
        if k == YES:
            S.cp[g, S.sel[g]] += 1  # 14.2
            emit(S, g, ev.COMMAND_RANGE, S.sel[g], T.command_track[S.cp[g, S.sel[g]]])
    elif ph == P_UNDISRUPT:
        if k != NO:
            bnr.undisrupt(T, S, g, a)
    elif ph == P_WITHDRAW:
        if k == NO:
            bnr.postpone(T, S, g)
        else:
            bnr.withdraw(T, S, g, k - UNIT_0)
    elif ph == P_FORT_ROTATE:
        f = S.k[g]
        if k == NO:
            S.jp_rot[g, f] = (6 - S.jp_rot[g, f]) % 6  # the counterclockwise turning (19.4)
        S.k[g] = -1
        S.phase[g] = P_ACT_SELECT
    elif ph == P_FLAME:
        if k == YES:
            bnr.flame_spend(T, S, g)


@njit(cache=True)
def take_back(T, S, g):
    """NO while declaring: the order is dropped and counts against MAX_CANCELS."""
    clear_order(T, S, g)
    if S.cancels[g] < MAX_CANCELS:
        S.cancels[g] += 1
    S.phase[g] = P_ACT_SELECT


@njit(cache=True)
def after_attack(T, S, g, outcome):
    """The decision after resolve_attack / finish_attack: the hero's benefit, the attrition
    option, or the next unit."""
    if outcome == ATTACK_HERO:
        S.phase[g] = P_HERO_BONUS
    elif outcome == ATTACK_ATTRITION:
        S.phase[g] = P_ATTRITION
    else:
        clear_order(T, S, g)
        S.phase[g] = P_ACT_SELECT


@njit(cache=True)
def decider(T, S, g):
    return 0


@njit(cache=True)
def is_minor(T, ph):
    """The decisions ``decisions="major"`` leaves to the defaults (README): which unit drifts, an
    infiltrating unit completing its move, the step lost in close combat, the unit eliminated for
    stacking, the optional attrition, the hero's wild card or +1 strength, a fortification's
    turning, the flamethrower, the invasion's garrisons (14.4) and command ranges (14.2), the tied
    unit a Japanese hit lands on, the tied hex of an assault, the tied units entering counterattack
    stance (P_HIT_PICK, P_ASSAULT_PICK, P_CA_PICK: never asked under "major": ties.defer_tie,
    japanese.defer_assault, japanese.counterattack_setup).  (The
    withdrawal hex, P_CC_RETREAT, is not asked at all under "major": closecombat.end_cc.)"""
    return ph == P_DRIFT or ph == P_INFIL or ph == P_CC_LOSS or ph == P_STACK_ELIM or ph == P_ATTRITION \
        or ph == P_HIT_PICK or ph == P_ASSAULT_PICK or ph == P_CA_PICK or ph == P_HERO_BONUS or ph == P_FORT_ROTATE \
        or ph == P_FLAME or ph == P_CP_RANGE \
        or (ph == P_GARRISON and not T.opts[OPT_BNR])


@njit(cache=True)
def minor_default(T, S, g, m):
    H = T.land.shape[0]
    ph = S.phase[g]
    if ph == P_INFIL or ph == P_ATTRITION or ph == P_HERO_BONUS or ph == P_FORT_ROTATE or ph == P_FLAME \
            or ph == P_CP_RANGE:
        # the hero: the wild card completes the weapons; a fortification turned clockwise; the
        # flamethrower spent at once; a command range advanced whenever it may be (14.2)
        return H + NO if ph == P_ATTRITION else H + YES
    if ph == P_CC_LOSS:
        return H + UNIT_0 + cc_loss_default(T, S, g)
    if ph == P_STACK_ELIM:
        best = -1
        for u in range(S.us_loc.shape[1]):  # the fewest steps, then the highest number
            if m[H + UNIT_0 + u] and (best < 0 or S.us_steps[g, u] <= S.us_steps[g, best]):
                best = u
        return H + UNIT_0 + best
    return first_legal(m)


@njit(cache=True)
def automatic(T, S, g, m, n):
    if n == 1:
        return only_action(m)
    if T.opts[OPT_MAJOR] and is_minor(T, S.phase[g]):
        return minor_default(T, S, g, m)
    return -1


@njit(cache=True)
def game_over(T, S, g):
    sync_depth_hexes(T, S, g)
    S.phase[g] = P_OVER


DRIVER = bind_driver("peleliu", start_game=start_game, apply=apply, fill_mask=fill_mask, decider=decider,
                     progress=progress, automatic=automatic, game_over=game_over,
                     at_rest=sync_depth_hexes)  # a decision waits: fog.py reads dm_hex
