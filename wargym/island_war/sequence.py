"""Sequence of Play (4.0-4.1) as a machine of atomic decisions, and the hooks of the step kernel.

    Game-Turn:  First Player-Turn  [Movement Phase -> Combat Phase]
                Second Player-Turn [Movement Phase -> Combat Phase]
                Game-Turn record interphase (turn + 1, Ground Support reset, 9.14)

Decisions within the phases (PHASE_NAMES), who decides, and what follows:

    phase            decides        next
    ---------------  -------------  ---------------------------------------------------------
    move: select     phasing        move: destination | combat: select (END_PHASE)
    move: dest.      phasing        move: select
    combat: select   phasing        combat: declare | next Player-Turn (END_PHASE, when 7.1 allows)
    combat: declare  phasing        FPF (CONFIRM) -> resolution | combat: select (CANCEL: up to
                                    MAX_CANCELS per Combat Phase; after that a declaration that can
                                    neither grow nor meet 7.12/7.21 is resolved as it stands)
    FPF              non-phasing    resolution: CRT, results, retreats, advance
    retreat          unit's owner   displacement (into a friend's hex) | next hex | next unit |
                                    advance | combat: select
    displacement     unit's owner   retreat continues into the vacated hex (7.81)
    advance: select  victor         advance: destination | combat: select (CONFIRM)
    advance: dest.   victor         advance: select

A phase with nothing to decide is passed automatically: a Combat Phase with no possible attack,
a Movement Phase with no unit left to move, FPF with no artillery or points able to fire, a retreat
with a single route or displacement hex, an advance nobody can make.  With ``decisions="major"``
(``T.major_only``) the minor decisions (FPF, retreat routes, displacements, advances) are made by
the default rules in defaults.py and retreat.py.
"""

from wargym.island_war import defaults
from wargym.island_war.actions import BANZAI, CANCEL, CONFIRM, END_PHASE, GS_ADD, MAX_REINF_CHOICES, REINF_0
from wargym.island_war.artillery import fpf_allowed, fpf_mask
from wargym.island_war.banzai import exchange_losses
from wargym.island_war.combat import (
    attack_strength, count_attackers, crt_column, declare_mask, defense_strength, has_sides, may_banzai,
    may_resolve, open_obligation, target_mask, terrain_line, unit_flags,
)
from wargym.island_war.ground_support import may_add_barrage, may_add_fpf, start_of_game_turn
from wargym.island_war.movement import can_enter, destinations
from wargym.island_war.retreat import (
    advance_choices, advance_to, begin_unit, current_displacement, displace_current, may_advance, retreat_choices,
    retreat_into,
)
from wargym.island_war.scenario import A1, ARMOR, AE, D1, D2, D3, DE
from wargym.island_war.state import (
    ADVANCE_DEST, ADVANCE_SELECT, COMBAT_BUILD, COMBAT_SELECT, DISPLACE, FPF, MAX_CANCELS, MOVE_DEST, MOVE_SELECT,
    ON_MAP, OVER, RETREAT, WAITING,
)
from wargym.island_war.victory import eliminate, final_result, finish, margin, occupy, side_wiped_out
from wargym.events import emit
from wargym.island_war.events import BANZAI_LOSS as EV_BANZAI_LOSS, COMBAT as EV_COMBAT, GAME_OVER as EV_GAME_OVER
from wargym.island_war.zoc import enemy_zoc, has_adjacent_enemy, occupancy
from wargym.jit import njit
from wargym.kernel import bind_driver, first_legal, only_action
from wargym.rng import roll


# ------------------------------------------------------------------------- phase transitions
@njit(cache=True)
def kth_reinforcement(T, S, g, k):
    """The k-th unit of the phasing side waiting to enter this Game-Turn (4.1), or -1."""
    n = 0
    for u in range(T.u_side.shape[0]):
        if T.u_side[u] == S.phasing[g] and S.unit_status[g, u] == WAITING and T.u_arrives[u] <= S.turn[g]:
            if n == k:
                return u
            n += 1
    return -1


@njit(cache=True)
def reinforcement_mask(T, S, g, occ, out):
    """Mark ``out[k]`` when the k-th waiting reinforcement (``kth_reinforcement``) can enter the
    map this phase (4.1).  Units alike in entry area, Movement Allowance and armor share a reach."""
    ezoc = enemy_zoc(T, S, g, S.phasing[g])
    k = 0
    last_area, last_move, last_armor, last_ok = -1, -1, False, False
    for u in range(T.u_side.shape[0]):
        if k >= out.shape[0]:
            break
        if T.u_side[u] != S.phasing[g] or S.unit_status[g, u] != WAITING or T.u_arrives[u] > S.turn[g]:
            continue
        armor = T.u_type[u] == ARMOR
        if not (T.u_entry[u] == last_area and T.u_move[u] == last_move and armor == last_armor):
            last_area, last_move, last_armor = T.u_entry[u], T.u_move[u], armor
            last_ok = can_enter(T, S, g, u, occ, ezoc)
        out[k] = last_ok
        k += 1


@njit(cache=True)
def end_combat_phase(T, S, g):
    """Close the Combat Phase; next Player-Turn or the Game-Turn record interphase (4.1)."""
    S.attacked[g, :] = False
    S.advanced[g, :] = False
    S.fpf_used[g, :] = False
    S.moved[g, :] = False
    S.combat_phase[g] += 1
    S.cancels[g] = 0
    S.selected[g] = -1
    if S.player_turn[g] == 0:
        S.player_turn[g] = 1
        S.phasing[g] = 1 - S.phasing[g]
    elif S.turn[g] >= T.game_turns:
        winner = final_result(T, S, g)
        emit(S, g, EV_GAME_OVER, winner, margin(T, S, g))
        finish(S, g, winner)  # 4.0: Victory Conditions after the last Game-Turn
        return
    else:
        S.turn[g] += 1
        S.player_turn[g] = 0
        S.phasing[g] = T.first_player
        start_of_game_turn(T, S, g)
    S.phase[g] = MOVE_SELECT


@njit(cache=True)
def finish_combat(T, S, g):
    """Clear the resolved combat and return to target selection (7.0: next attack)."""
    S.cb_attacker[g, :] = False
    S.cb_barrage[g, :] = False
    S.cb_defender[g, :] = False
    S.cb_fpf[g, :] = False
    S.cb_gs_attack[g] = 0
    S.cb_gs_defense[g] = 0
    S.cb_banzai[g] = False
    S.rt_queue[g, :] = -1
    S.rt_head[g] = 0
    S.rt_len[g] = 0
    S.rt_done[g] = 0
    S.rt_origin[g] = -1
    S.path_hex[g, :, :] = -1
    S.path_count[g] = 0
    S.adv_side[g] = -1
    S.selected[g] = -1
    S.phase[g] = COMBAT_SELECT
    loser = side_wiped_out(T, S, g)
    if loser >= 0:
        emit(S, g, EV_GAME_OVER, 1 - loser, margin(T, S, g))
        finish(S, g, 1 - loser)


@njit(cache=True)
def next_retreat(T, S, g):
    """Start the next retreat in the queue, or go on to the advance (7.9)."""
    while S.rt_head[g] < S.rt_len[g]:
        u = S.rt_queue[g, S.rt_head[g]]
        if S.unit_status[g, u] != ON_MAP:
            S.rt_head[g] += 1
            continue
        if begin_unit(T, S, g):
            S.phase[g] = RETREAT
            return
    for u in range(T.u_side.shape[0]):
        if may_advance(T, S, g, u):
            S.phase[g] = ADVANCE_SELECT
            return
    finish_combat(T, S, g)


@njit(cache=True)
def record_elimination_path(T, S, g, u):
    """7.91: an eliminated unit leaves its combat position as a Path of Retreat."""
    p = S.path_count[g]
    S.path_hex[g, p, 0] = S.unit_hex[g, u]
    S.path_count[g] = p + 1
    eliminate(T, S, g, u)


@njit(cache=True)
def resolve(T, S, g):
    """7.0 d: differential, terrain line, die, result applied at once (7.62, 8.14-8.15, 10.0)."""
    U = T.u_side.shape[0]
    differential = attack_strength(T, S, g) - defense_strength(T, S, g)
    line = terrain_line(T, S, g)
    column = crt_column(T, differential)
    die = roll(S, g, 6)
    result = T.crt[line, column, die - 1]
    S.last_die[g] = die
    S.last_result[g] = result
    S.last_column[g] = column
    S.last_line[g] = line
    S.last_differential[g] = differential
    target = -1
    for u in range(U):
        if S.cb_defender[g, u] and target < 0:
            target = S.unit_hex[g, u]
    emit(S, g, EV_COMBAT, target, differential, line, column, die, result)
    for u in range(U):  # 7.14
        if S.cb_attacker[g, u] or S.cb_defender[g, u]:
            S.attacked[g, u] = True
        if S.cb_fpf[g, u]:
            S.fpf_used[g, u] = True
    _, n_adjacent = count_attackers(T, S, g)
    if n_adjacent == 0 and not (result == D2 or result == D3 or result == DE):
        finish_combat(T, S, g)  # 8.15: a pure barrage only counts D2, D3, De
        return
    phasing = S.phasing[g]
    S.rt_len[g] = 0
    S.rt_head[g] = 0
    if result == DE or result == AE:
        S.adv_side[g] = phasing if result == DE else 1 - phasing
        for u in range(U):
            if (result == DE and S.cb_defender[g, u]) or \
                    (result == AE and S.cb_attacker[g, u] and not S.cb_barrage[g, u]):  # 8.14
                record_elimination_path(T, S, g, u)
    else:
        defender_loses = D1 <= result <= D3
        S.adv_side[g] = phasing if defender_loses else 1 - phasing
        S.rt_hexes[g] = (result - D1 + 1) if defender_loses else (result - A1 + 1)
        for u in range(U):
            if (defender_loses and S.cb_defender[g, u]) or \
                    (not defender_loses and S.cb_attacker[g, u] and not S.cb_barrage[g, u]):
                S.rt_queue[g, S.rt_len[g]] = u
                S.rt_len[g] += 1
    if S.cb_banzai[g]:
        removed = exchange_losses(T, S, g)  # 10.12-10.13
        for u in range(U):
            if removed[u]:
                emit(S, g, EV_BANZAI_LOSS, u, S.unit_hex[g, u])
                eliminate(T, S, g, u)
    next_retreat(T, S, g)


# ------------------------------------------------------------------------------- apply action
@njit(cache=True)
def apply(T, S, g, a):
    H = T.nbr.shape[0]
    phase = S.phase[g]
    occ = occupancy(T, S, g)
    x = occ[a] if a < H else -1
    k = a - H
    if phase == MOVE_SELECT:
        if a < H:
            S.selected[g] = x
            S.phase[g] = MOVE_DEST
        elif k == END_PHASE:
            S.phase[g] = COMBAT_SELECT
        else:
            S.selected[g] = kth_reinforcement(T, S, g, k - REINF_0)
            S.phase[g] = MOVE_DEST
    elif phase == MOVE_DEST:
        u = S.selected[g]
        occupy(T, S, g, u, a)
        S.moved[g, u] = True  # 5.16
        S.selected[g] = -1
        S.phase[g] = MOVE_SELECT
    elif phase == COMBAT_SELECT:
        if a < H:
            S.cb_defender[g, x] = True
            S.phase[g] = COMBAT_BUILD
        else:
            end_combat_phase(T, S, g)
    elif phase == COMBAT_BUILD:
        if a < H:
            if T.u_side[x] == S.phasing[g]:
                S.cb_attacker[g, x] = True
                S.cb_barrage[g, x] = not has_adjacent_enemy(T, S, g, x, occ)
            else:
                S.cb_defender[g, x] = True
        elif k == GS_ADD:
            S.cb_gs_attack[g] += 1
            S.gs_points[g, S.phasing[g]] -= 1
        elif k == BANZAI:
            S.cb_banzai[g] = True
        elif k == CANCEL:
            S.gs_points[g, S.phasing[g]] += S.cb_gs_attack[g]
            S.cancels[g] += 1
            finish_combat(T, S, g)
        else:  # CONFIRM
            S.phase[g] = FPF
    elif phase == FPF:
        if a < H:
            S.cb_fpf[g, x] = True
        elif k == GS_ADD:
            S.cb_gs_defense[g] += 1
            S.gs_points[g, 1 - S.phasing[g]] -= 1
        else:
            resolve(T, S, g)
    elif phase == RETREAT:
        if x >= 0 and not T.major_only:  # 7.81: the owner moves the friend out first
            S.displace_into[g] = a
            S.phase[g] = DISPLACE
        elif retreat_into(T, S, g, a):
            next_retreat(T, S, g)
    elif phase == DISPLACE:
        displace_current(T, S, g, a)
        into = S.displace_into[g]
        S.displace_into[g] = -1
        S.phase[g] = RETREAT
        if retreat_into(T, S, g, into):
            next_retreat(T, S, g)
    elif phase == ADVANCE_SELECT:
        if a < H:
            S.selected[g] = x
            S.phase[g] = ADVANCE_DEST
        else:
            finish_combat(T, S, g)
    elif phase == ADVANCE_DEST:
        advance_to(T, S, g, S.selected[g], a)
        S.selected[g] = -1
        S.phase[g] = ADVANCE_SELECT


# -------------------------------------------------------------------------------------- masks
@njit(cache=True)
def fill_mask(T, S, g, m):
    """Write the legal actions of game g into bool ``m[A]``; returns how many there are."""
    H = T.nbr.shape[0]
    U = T.u_side.shape[0]
    m[:] = False
    phase = S.phase[g]
    p = S.phasing[g]
    if phase == OVER:
        return 0
    occ = occupancy(T, S, g)
    if phase == MOVE_SELECT:
        for u in range(U):
            if T.u_side[u] == p and S.unit_status[g, u] == ON_MAP and not S.moved[g, u]:
                m[S.unit_hex[g, u]] = True
        reinforcement_mask(T, S, g, occ, m[H + REINF_0:H + REINF_0 + MAX_REINF_CHOICES])
        m[H + END_PHASE] = True
    elif phase == MOVE_DEST:
        # no CANCEL: its own hex is "stay" (5.16); any order of moves is had by the order of selection
        destinations(T, S, g, S.selected[g], occ, enemy_zoc(T, S, g, p), m[:H])
    elif phase == COMBAT_SELECT:
        fresh, near, can_barrage = unit_flags(T, S, g, occ)
        target_mask(T, S, g, fresh, can_barrage, m)
        if not open_obligation(T, S, g, fresh):
            m[H + END_PHASE] = True
    elif phase == COMBAT_BUILD:
        fresh, near, can_barrage = unit_flags(T, S, g, occ)
        declare_mask(T, S, g, fresh, near, can_barrage, m)
        if may_add_barrage(T, S, g):
            m[H + GS_ADD] = True
        if may_banzai(T, S, g):
            m[H + BANZAI] = True
        grows = first_legal(m[:H]) >= 0
        if may_resolve(T, S, g, fresh):
            m[H + CONFIRM] = True
        elif S.cancels[g] >= MAX_CANCELS and not grows and has_sides(T, S, g):
            m[H + CONFIRM] = True  # README: a dead end after MAX_CANCELS is resolved as it stands
        m[H + CANCEL] = S.cancels[g] < MAX_CANCELS or not (m[H + CONFIRM] or grows)
    elif phase == FPF:
        if fpf_allowed(T, S, g):  # 8.45
            fresh, near, can_barrage = unit_flags(T, S, g, occ)
            fpf_mask(T, S, g, near, m)
            if may_add_fpf(T, S, g):
                m[H + GS_ADD] = True
        m[H + CONFIRM] = True
    elif phase == RETREAT:
        retreat_choices(T, S, g, m[:H])
    elif phase == DISPLACE:
        current_displacement(T, S, g, m[:H])
    elif phase == ADVANCE_SELECT:
        for u in range(U):
            if may_advance(T, S, g, u):
                m[S.unit_hex[g, u]] = True
        m[H + CONFIRM] = True
    elif phase == ADVANCE_DEST:
        advance_choices(T, S, g, S.selected[g], m[:H])  # no CANCEL: an advance once chosen is made (7.91)
    n = 0
    for i in range(m.shape[0]):
        if m[i]:
            n += 1
    return n


@njit(cache=True)
def decider(T, S, g):
    """Who makes the current decision (index into ("us", "japan"))."""
    phase = S.phase[g]
    if phase == FPF:
        return 1 - S.phasing[g]
    if phase == RETREAT or phase == DISPLACE:
        return T.u_side[S.rt_queue[g, S.rt_head[g]]]
    if phase == ADVANCE_SELECT or phase == ADVANCE_DEST:
        return S.adv_side[g]
    return S.phasing[g]


@njit(cache=True)
def automatic(T, S, g, m, n):
    """The decisions nobody has to think about (module docstring), or -1 for a real one."""
    H = T.nbr.shape[0]
    phase = S.phase[g]
    if phase == MOVE_SELECT and n == 1:  # nothing left to move: only END_PHASE
        return H + END_PHASE
    if phase == COMBAT_SELECT and n == 1 and m[H + END_PHASE]:  # no attack possible
        return H + END_PHASE
    if phase == FPF and n == 1:
        return H + CONFIRM
    if (phase == RETREAT or phase == DISPLACE) and n == 1:
        return only_action(m)
    if phase == ADVANCE_SELECT and n == 1:
        return H + CONFIRM
    if T.major_only and (phase == FPF or phase == RETREAT or phase == ADVANCE_SELECT or phase == ADVANCE_DEST):
        return defaults.minor_decision(T, S, g, m)
    return -1


# the step, start and mask kernels over games (wargym.kernel): the rules above are their hooks
DRIVER = bind_driver("island_war", start_game=start_of_game_turn, apply=apply, fill_mask=fill_mask,
                     decider=decider, automatic=automatic)
