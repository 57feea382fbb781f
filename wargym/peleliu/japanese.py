"""The Japanese Fire Phase: the card system's fire (6.0), lettered actions (12.0), tanks and the
counterattack (13.0), depth markers and reserves (9.0).

``start_fire_phase`` draws the fire card and queues the positions to check (13.42: units in
counterattack stance first; 12.0: then the card's colours left to right, each colour's positions
west to east).  ``fire_step`` checks one entry; an action that starts a close combat leaves it to
combat.py and the phase resumes after it.

"You choose" ties after all the book's priorities are the player's decisions with
``decisions="full"``:

* P_HIT_PICK: which of the tied U.S. units takes the hits of a fire group (6.31), of the artillery
  value and the artillery action (6.5, 12.7), of a mortar (12.11), of a patrol's one disruption
  (12.6), of an ambush (12.91) and of
  Bloody Nose Ridge's mountaintop artillery (18.35 [A]) (ties.defer_tie: the hits outside the tie
  land at once, the tied ones wait for the player before the next queued position is checked);
* P_ASSAULT_PICK: the hex an assault (12.8, 18.35 [A]) or a tank's overrun (13.2 [R]) goes to
  (``defer_assault``, asked before the unit moves);
* P_CA_PICK: the tied units entering counterattack stance (13.41, ``counterattack_event``).

With ``decisions="major"``, and where the same Japanese action goes on after a fire (the first
unit of a two-unit redeployment, a tank's first of two fires, an overrun's fire) or an event
fires, the lowest unit / hex number is taken (``last_fire``: the fires that end their action).
"""

import numpy as np

from wargym.events import emit
from wargym.jit import njit
from wargym.rng import uniform
from wargym.peleliu import eventlog as ev
from wargym.peleliu.board import (
    artillery_taken, col_of, disrupt_us, dot, draw, draw_reserve, empty_position, fire_map, fort_at, give_depth,
    group_units, jp_at, jp_by_hex, jp_communication, jp_map, leader, nearest_beach, nearest_us, place_jp, rally_jp,
    remove_depth, reveal_jp, row_of, step_loss, us_count, us_steps_in_hex,
)
from wargym.peleliu.closecombat import start_cc
from wargym.peleliu.forces import fires_on_beach, leave_ca, night, reinforcement
from wargym.peleliu.scenario import (
    A_AMBUSH, A_ARTILLERY, A_ASSAULT, A_FIRE, A_FIRE_ADVANCE, A_INFILTRATE, A_MG, A_MORTAR, A_MULTI_FIRE, A_MUSTER,
    A_NONE, A_OVERRUN, A_PATROL, A_REDEPLOY, A_REINFORCE, A_RESUPPLY, A_ADVANCE_FIRE, A_DOUBLE_ADVANCE, AIRSTRIP,
    A_BNR_ARTILLERY, A_BNR_ASSAULT, A_BNR_RESUPPLY,
    CLEAR, INTENSE, L_I, L_M, REG_HQ, S_ART_NO, S_ART_US, S_OCC_NO, S_OCC_US, S_TANK, S_UN_COMM_NO, S_UN_COMM_US,
    S_UN_NOCOMM, STEADY,
)
from wargym.peleliu.state import (
    CC_CA, CC_JP_ASSAULT, CC_OVERRUN, DM_CUP, DM_POOL, DM_UNIT, HERO, INSPIRED, JP_MAP, OPT_BNR, OPT_MAJOR,
    OPT_VARIABLE_LETTERS, JP_RESERVE, PILE_TRACK, QMAX, US_BOX, US_MAP,
)
from wargym.peleliu.ties import NO_KEY, TIE_ARTILLERY, TIE_LEADER, defer_tie, leader_hit, step_loss_any

INTO_FIELD, TOWARD_US, OVERRUN = range(3)  # where an assault goes (assault_to)
Q_CA = 3000       # queue entry: a unit in counterattack stance (13.42)
Q_HEX = 4000      # queue entry: the second hex of a position group assaulting (12.81)
Q_CAVE = 2900     # queue entry: a unit in a cave (BNR Hidden Caves event)
LETTER_TURNS = (3, 5, 7, 9, 11)


@njit(cache=True)
def letter_available(T, S, g, L):
    """12.0: lettered actions become available on turns 3, 5, 7, 9, 11 (20.1: in a random order)."""
    if L == 0 or T.opts[OPT_BNR]:
        return True  # 18.35: every letter from turn 1 in BNR
    turn = S.turn[g]
    if T.opts[OPT_VARIABLE_LETTERS]:
        for k in range(5):
            if S.letter_order[g, k] == L:
                return turn >= LETTER_TURNS[k]
        return False
    return turn >= T.letter_turn[L]


# ------------------------------------------------------------------------------------ the phase
@njit(cache=True)
def start_fire_phase(T, S, g):
    """III: draw the fire card; fix communication for the phase (11.22); queue the positions."""
    H = T.land.shape[0]
    c = draw(T, S, g, PILE_TRACK)
    S.fire_card[g] = c
    emit(S, g, ev.FIRE_CARD, c)
    jp_communication(T, S, g, night(T, S, g), S.comm[g])
    for u in range(S.us_loc.shape[1]):
        S.us_fired[g, u] = False
    for j in range(S.jp_loc.shape[1]):
        S.jp_acted[g, j] = False  # 12.0: each position or unit is checked once per Fire Phase
    occ = np.empty(H, np.int16)
    jp_map(T, S, g, occ)
    usn = np.empty(H, np.int16)
    us_count(T, S, g, usn)
    n = 0
    # 13.42: counterattack units first, the one closest to a landing beach first, then southernmost
    NJ = S.jp_loc.shape[1]
    done = np.zeros(NJ, np.bool_)
    while True:
        best, bk = -1, 0
        for j in range(NJ):
            if done[j] or S.jp_loc[g, j] != JP_MAP or S.jp_ca[g, j] < 0 or S.jp_dis[g, j]:
                continue
            h = S.jp_hex[g, j]
            key = nearest_beach(T, h) * 1000 - row_of(T, h)
            if best < 0 or key < bk:
                best, bk = j, key
        if best < 0 or n >= QMAX:
            break
        done[best] = True
        S.jq[g, n] = Q_CA + best
        n += 1
    F = T.grp_members.shape[0]
    seen = np.zeros(F, np.bool_)
    for slot in range(3):
        col = T.card_colour[c, slot]
        L = T.card_letter[c, slot]
        letter = L if letter_available(T, S, g, L) else 0
        for i in range(T.west_order.shape[0]):
            p = T.west_order[i]
            f = T.pos_group[p]
            if T.pos_prov[p] or T.grp_colour[f] != col or seen[f]:
                continue
            n_occ, n_live, n_tank = group_units(T, S, g, f, occ)
            ok = n_occ > 0
            if not ok and not T.opts[OPT_BNR]:  # 18.35: unoccupied positions do not act in BNR
                near = nearest_us(T, S, g, T.pos_hex[p]) <= 3
                if near and S.comm[g, p]:
                    ok = True
                elif near and letter == L_I:
                    ok = True
            if ok and n < QMAX:
                seen[f] = True
                S.jq[g, n] = slot * 1000 + f
                n += 1
    for k in range(2):  # Hidden Caves: checked after the card's colours, whatever they are
        if S.cave_hex[g, k] >= 0 and n < QMAX:
            S.jq[g, n] = Q_CAVE + k
            n += 1
    S.jq_n[g] = n
    S.jq_i[g] = 0


@njit(cache=True)
def fire_step(T, S, g):
    """Check the next queued entry; False when the queue is done."""
    i = S.jq_i[g]
    if i >= S.jq_n[g]:
        return False
    S.jq_i[g] = i + 1
    e = S.jq[g, i]
    if e >= Q_HEX:
        p = e - Q_HEX
        j = jp_at(T, S, g, T.pos_hex[p])
        if j >= 0 and not S.jp_dis[g, j]:
            assault_unit(T, S, g, j, T.grp_colour[T.pos_group[p]])
        return True
    if e >= Q_CA:
        j = e - Q_CA
        if S.jp_loc[g, j] == JP_MAP and S.jp_ca[g, j] >= 0 and not S.jp_dis[g, j]:
            S.jp_acted[g, j] = True
            counterattack(T, S, g, j)
        return True
    if e >= Q_CAVE:
        cave_fire(T, S, g, e - Q_CAVE)
        return True
    slot = e // 1000
    f = e % 1000
    check_group(T, S, g, f, slot)
    return True


@njit(cache=True)
def finish_fire_phase(T, S, g):
    """6.5 then 6.42: artillery fire (from turn 2), then disruption removed from the colours drawn."""
    artillery_taken(T, S, g)
    c = S.fire_card[g]
    if c < 0:
        return
    if T.card_artillery[c] > 0 and S.turn[g] >= 2 and not T.opts[OPT_BNR]:  # 18.35: disregarded in BNR
        n = 0
        for p in range(T.pos_hex.shape[0]):
            if T.pos_art[p] and not S.art_gone[g, p]:
                j = jp_at(T, S, g, T.pos_hex[p])
                if j >= 0 and not S.jp_dis[g, j]:
                    n += 1
        emit(S, g, ev.ARTILLERY, n, T.card_artillery[c])
        if n >= T.card_artillery[c]:
            artillery_hit(T, S, g, T.card_symbol[c], False)
    for j in jp_by_hex(S, g):
        if S.jp_loc[g, j] != JP_MAP or not S.jp_dis[g, j]:
            continue
        col = colour_of(T, S, g, j)
        for k in range(3):
            if T.card_colour[c, k] == col:
                rally_jp(T, S, g, j)


@njit(cache=True)
def colour_of(T, S, g, j):
    """The colour a Japanese unit acts in: its position's, else the tank's own (13.2), else its
    counterattack marker's (13.44)."""
    p = T.hex_pos[S.jp_hex[g, j]]
    if p >= 0 and not T.pos_prov[p]:
        return T.pos_colour[p]
    ca = S.jp_ca[g, j]
    if ca >= 0:
        return T.dm_colour[ca]
    if T.jp_colour[j] >= 0:
        return T.jp_colour[j]
    if p >= 0:
        return T.pos_colour[p]
    return 0


# --------------------------------------------------------------------------------- one position
@njit(cache=True)
def us_in_field(T, S, g, f, tank, include_garrison):
    """Any U.S. unit in group f's field of fire (with the tank extension, 13.1)."""
    for u in range(S.us_loc.shape[1]):
        if S.us_loc[g, u] == US_MAP and dot(T, S, g, f, S.us_hex[g, u], tank) > 0:
            return True
    if include_garrison:
        for p in range(S.garrison.shape[1]):
            if S.garrison[g, p] and dot(T, S, g, f, T.pos_hex[p], tank) > 0:
                return True
    return False


@njit(cache=True)
def check_group(T, S, g, f, slot):
    """12.0: the action of fire group f for the card's colour ``slot``."""
    H = T.land.shape[0]
    c = S.fire_card[g]
    L = T.card_letter[c, slot]
    letter = L if letter_available(T, S, g, L) else 0
    if night(T, S, g) and letter == L_M:
        letter = 0  # 16.0
    occ = np.empty(H, np.int16)
    jp_map(T, S, g, occ)
    n_occ, n_live, n_tank = group_units(T, S, g, f, occ)
    star = T.card_star[c, slot]
    armor = T.card_armor[c, slot]
    if n_occ > 0:
        if n_live == 0:
            return  # 6.4: disrupted units do not fire or act
        fresh = False
        for k in range(2):
            p = T.grp_members[f, k]
            if p >= 0:
                j = occ[T.pos_hex[p]]
                if j >= 0 and not S.jp_dis[g, j]:
                    if not S.jp_acted[g, j] and S.jp_ca[g, j] < 0:
                        fresh = True
                    S.jp_acted[g, j] = True
        if not fresh:
            return  # 12.0, 13.42: a unit that has acted (or counterattacks) is not checked again
        us_fof = us_in_field(T, S, g, f, n_tank > 0, False)
        if n_tank > 0:
            allowed = S.tie_ok[g]
            S.tie_ok[g] = False  # a second fire or an overrun reads the hits (module docstring)
            tank_action(T, S, g, f, T.action_chart[0, S_TANK, letter], star, armor, occ, allowed)
            return
        art = False
        for k in range(2):
            p = T.grp_members[f, k]
            if p >= 0 and occ[T.pos_hex[p]] >= 0 and T.pos_art[p] and not S.art_gone[g, p]:
                art = True
        if T.opts[OPT_BNR]:
            do_action(T, S, g, f, T.action_chart[1, S_OCC_US if us_fof else S_OCC_NO, letter], star, armor, occ)
            return  # 18.35: the BNR section of the chart
        sit = (S_ART_US if us_fof else S_ART_NO) if art else (S_OCC_US if us_fof else S_OCC_NO)
        act = T.action_chart[0, sit, letter]
        if act == A_ARTILLERY and night(T, S, g):
            return  # 16.0
        do_action(T, S, g, f, act, star, armor, occ)
        return
    # unoccupied: a group is unoccupied if no hex holds a Japanese unit and one hex is not U.S.-held
    free_hex = False
    in_comm = False
    for k in range(2):
        p = T.grp_members[f, k]
        if p >= 0:
            if us_steps_in_hex(T, S, g, T.pos_hex[p]) == 0 and not S.garrison[g, p]:
                free_hex = True
            if S.comm[g, p]:
                in_comm = True
    if not free_hex:
        return
    if in_comm:
        sit = S_UN_COMM_US if us_in_field(T, S, g, f, False, False) else S_UN_COMM_NO
    else:
        sit = S_UN_NOCOMM
    do_action(T, S, g, f, T.action_chart[0, sit, letter], star, armor, occ)


@njit(cache=True)
def do_action(T, S, g, f, act, star, armor, occ):
    if act == A_NONE:
        return
    emit(S, g, ev.ACTS, f, act)
    if act == A_FIRE:
        group_fire(T, S, g, f, False, star, armor)
    elif act == A_MG:
        group_fire(T, S, g, f, True, star, armor)
    elif act == A_RESUPPLY:
        resupply(T, S, g, f)
        group_fire(T, S, g, f, False, star, armor)
    elif act == A_REDEPLOY:
        allowed = S.tie_ok[g]
        S.tie_ok[g] = False  # the second unit's move reads the first one's hits (module docstring)
        redeploy(T, S, g, f, star, armor, allowed)
    elif act == A_PATROL:
        patrol(T, S, g, f)
    elif act == A_ASSAULT:
        assault(T, S, g, f)
    elif act == A_MORTAR:
        mortar(T, S, g, f)
    elif act == A_ARTILLERY:
        artillery_hit(T, S, g, T.card_symbol[S.fire_card[g]], True)
    elif act == A_MUSTER or act == A_REINFORCE:
        p = muster_hex(T, S, g, f, True)
        if p >= 0 and placement_turn(T, S, g, T.pos_hex[p], False):
            j = draw_reserve(T, S, g)
            if j >= 0:
                place_jp(T, S, g, j, T.pos_hex[p], False)
                emit(S, g, ev.JP_ENTERS, j, T.pos_hex[p], ev.BY_MUSTER if act == A_MUSTER else ev.BY_REINFORCE)
                S.jp_acted[g, j] = True
                give_depth(T, S, g, j, False)  # 12.52: no depth marker left, the unit alone
                if act == A_REINFORCE and us_in_field(T, S, g, f, False, False):
                    group_fire(T, S, g, f, False, star, armor)
    elif act == A_AMBUSH:
        ambush(T, S, g, f)
    elif act == A_BNR_RESUPPLY:
        if bnr_resupply(T, S, g, f, occ) and us_in_field(T, S, g, f, False, False):
            group_fire(T, S, g, f, False, star, armor)
    elif act == A_BNR_ASSAULT:
        assault(T, S, g, f)
    elif act == A_BNR_ARTILLERY:
        bnr_artillery(T, S, g, f, occ)
    elif act == A_INFILTRATE:
        for k in range(2):  # 12.101: both hexes of a group when both are eligible
            p = T.grp_members[f, k]
            if p >= 0 and placeable(T, S, g, p, False) and placement_turn(T, S, g, T.pos_hex[p], True):
                j = draw_reserve(T, S, g)
                if j >= 0:
                    place_jp(T, S, g, j, T.pos_hex[p], False)
                    emit(S, g, ev.JP_ENTERS, j, T.pos_hex[p], ev.BY_INFILTRATE)
                    S.jp_acted[g, j] = True  # 12.10: it does not fire in the phase it is placed


@njit(cache=True)
def placeable(T, S, g, p, comm):
    """12.2 / 12.5 (comm) and 12.10 (not comm): an empty position hex within three hexes of a U.S.
    unit, in Japanese communication or not."""
    h = T.pos_hex[p]
    if not empty_position(T, S, g, p):
        return False
    return S.comm[g, p] == comm and nearest_us(T, S, g, h) <= 3


@njit(cache=True)
def muster_hex(T, S, g, f, comm):
    """12.21 / 12.51: the lowest-numbered eligible hex of the group."""
    best = -1
    for k in range(2):
        p = T.grp_members[f, k]
        if p < 0 or not placeable(T, S, g, p, comm):
            continue
        if best < 0 or T.pos_num[p] < T.pos_num[best]:
            best = p
    return best


@njit(cache=True)
def placement_action(T, S, g, e):
    """The reserve placement (A_MUSTER / A_REINFORCE / A_INFILTRATE) queue entry e would make, else
    A_NONE."""
    if e >= Q_CAVE:
        return A_NONE
    slot = e // 1000
    f = e % 1000
    c = S.fire_card[g]
    L = T.card_letter[c, slot]
    letter = L if letter_available(T, S, g, L) else 0
    if night(T, S, g) and letter == L_M:
        letter = 0
    for k in range(2):
        p = T.grp_members[f, k]
        if p >= 0 and jp_at(T, S, g, T.pos_hex[p]) >= 0:
            return A_NONE
    for k in range(2):
        p = T.grp_members[f, k]
        if p < 0:
            continue
        if S.comm[g, p]:
            sit = S_UN_COMM_US if us_in_field(T, S, g, f, False, False) else S_UN_COMM_NO
            act = T.action_chart[0, sit, letter]
            if (act == A_MUSTER or act == A_REINFORCE) and muster_hex(T, S, g, f, True) >= 0:
                return act
            return A_NONE
    act = T.action_chart[0, S_UN_NOCOMM, letter]
    if act == A_INFILTRATE and muster_hex(T, S, g, f, False) >= 0:
        return act
    return A_NONE


@njit(cache=True)
def placement_turn(T, S, g, h, infiltrate):
    """12.22, 12.52, 12.102: with more eligible positions than reserve units, the units go to the
    hexes closest to U.S. units: does hex h (checked now) get one?  The other candidates are the
    positions still to be checked this phase that would place a unit the same way."""
    n = 0
    for j in range(S.jp_loc.shape[1]):
        if S.jp_loc[g, j] == JP_RESERVE:
            n += 1
    mine = nearest_us(T, S, g, h)
    closer = 0
    for i in range(S.jq_i[g], S.jq_n[g]):
        act = placement_action(T, S, g, S.jq[g, i])
        if act == A_NONE or (act == A_INFILTRATE) != infiltrate:
            continue
        f = S.jq[g, i] % 1000
        p = muster_hex(T, S, g, f, not infiltrate)
        if p >= 0 and nearest_us(T, S, g, T.pos_hex[p]) < mine:
            closer += 1
    return closer < n


# ------------------------------------------------------------------------------------------- fire
@njit(cache=True)
def hit_limit(T, S, g, f, occ):
    """6.31: non-disrupted units and their depth markers in the group."""
    n = 0
    for k in range(2):
        p = T.grp_members[f, k]
        if p < 0:
            continue
        j = occ[T.pos_hex[p]]
        if j >= 0 and not S.jp_dis[g, j]:
            n += 1
            if S.jp_depth[g, j] >= 0:
                n += 1
            ca = S.jp_ca[g, j]
            if ca >= 0 and S.dm_rev[g, ca] and S.jp_depth[g, j] < 0:
                n += 1  # a counterattack marker on its depth side is the unit's depth (13.41)
            if T.opts[OPT_BNR] and not T.jp_fort[j] and fort_at(T, S, g, T.pos_hex[p]) >= 0:
                n += 1  # 19.3: the fortification marker is a counter of the position too
    return n


@njit(cache=True)
def auf_bonus(T, S, g, f):
    """18.34 / 19.3: one more hit when a U.S. unit with an Action Under Fire marker is in the
    group's intense field of fire."""
    if not T.opts[OPT_BNR]:
        return 0
    for u in range(S.us_loc.shape[1]):
        if S.us_auf[g, u] and S.us_loc[g, u] == US_MAP and T.grp_dot[f, S.us_hex[g, u]] == INTENSE:
            return 1
    return 0


@njit(cache=True)
def revealed_fort_fires(T, S, g, f):
    """19.31: the group holds a fortified position with a revealed marker."""
    if not T.opts[OPT_BNR]:
        return False
    for k in range(2):
        p = T.grp_members[f, k]
        if p >= 0:
            x = fort_at(T, S, g, T.pos_hex[p])
            if x >= 0 and S.jp_rev[g, x]:
                return True
    return False


@njit(cache=True)
def group_distance(T, f, h):
    """Hexes from h to the nearer position hex of fire group f."""
    dist = 99
    for k in range(2):
        p = T.grp_members[f, k]
        if p >= 0 and T.dist[h, T.pos_hex[p]] < dist:
            dist = T.dist[h, T.pos_hex[p]]
    return dist


@njit(cache=True)
def group_fire(T, S, g, f, mg, star, armor):
    """6.3: group f fires at U.S. units in its field of fire; returns the units hit (as -1
    terminated int array of hit units' hexes is not needed: returns the number hit and leaves the
    nearest hit hex in S.target for an overrun)."""
    H = T.land.shape[0]
    NU = S.us_loc.shape[1]
    occ = np.empty(H, np.int16)
    jp_map(T, S, g, occ)
    n_occ, n_live, n_tank = group_units(T, S, g, f, occ)
    if n_live == 0:
        return 0
    tank = n_tank > 0
    c = S.fire_card[g]
    sym = T.card_symbol[c]
    limit = hit_limit(T, S, g, f, occ) + auf_bonus(T, S, g, f)
    no_disrupt = revealed_fort_fires(T, S, g, f)
    unrevealed = 0
    for k in range(2):
        p = T.grp_members[f, k]
        if p >= 0:
            j = occ[T.pos_hex[p]]
            if j >= 0 and not S.jp_dis[g, j] and not S.jp_rev[g, j]:
                unrevealed = 1
    is_night = night(T, S, g)
    emit(S, g, ev.FIRE, f, limit, ev.COL_UNREVEALED if unrevealed else ev.COL_REVEALED)
    # 14.41: lone garrisons in the field are removed (not counted against the limit); at night only
    # next to the group (16.0: fire into non-adjacent hexes is disregarded)
    for p in range(S.garrison.shape[1]):
        x = T.pos_hex[p]
        if S.garrison[g, p] and dot(T, S, g, f, x, tank) > 0 and us_steps_in_hex(T, S, g, x) == 0 \
                and (not is_night or group_distance(T, f, x) <= 1):
            S.garrison[g, p] = False
            emit(S, g, ev.GARRISON_GONE, x)
    # candidates: (class, -steps, distance, unit) and effect
    key = np.full(NU, NO_KEY, np.int64)
    eff = np.zeros(NU, np.int8)
    rows = np.zeros(NU, np.int8)   # the fire chart's row each unit is hit on (the event log's dot)
    nearest_dist = np.full(NU, 99, np.int64)
    for u in range(NU):
        if S.us_loc[g, u] != US_MAP:
            continue
        h = S.us_hex[g, u]
        d = dot(T, S, g, f, h, tank)
        row = -1
        if d == INTENSE:
            row = 1
        elif d == STEADY:
            row = 0
        elif mg:
            for e in range(6):
                x = T.nbr[h, e]
                if x >= 0 and dot(T, S, g, f, x, tank) == INTENSE:
                    row = 2
        if row < 0:
            continue
        if T.beach_box[h] >= 0 and S.smoke[g, T.grp_colour[f]]:
            continue  # event Smoke
        dist = group_distance(T, f, h)
        if is_night and dist > 1:
            continue  # 16.0: at night fire hits adjacent hexes only
        nearest_dist[u] = dist
        rows[u] = row
        if leader(T, u):
            if not star or S.us_fired[g, u]:
                continue
            eff[u] = TIE_LEADER
            key[u] = (3 << 20) + (10 - S.us_steps[g, u]) * 1000 + dist * 64 + u
            continue
        conc = us_steps_in_hex(T, S, g, h) >= 7  # 6.35
        armored = T.us_armored[u] and not armor  # 6.36
        match = conc or T.us_symbol[u] == sym
        cls = (2 if armored else 0) + (1 if match else 0)
        e = T.fire_chart[row if row < 2 else 2, unrevealed, cls]
        if e == 0:
            continue
        if (e & 2) and S.us_fired[g, u]:
            continue  # 6.34: one step per unit per Fire Phase
        eff[u] = e
        prio = 0 if row == 1 else (1 if row == 0 else 2)
        # 6.34: hit the most units possible: a unit a position still to fire can hit comes last
        later = 1 if (e & 2) and hit_later(T, S, g, f, h, occ) else 0
        key[u] = (later << 24) + (prio << 20) + (10 - S.us_steps[g, u]) * 1000 + dist * 64 + u
    # heroes (10.4): hit last, with the leaders, killed (flipped to inspired)
    for u in range(NU):
        S.fire_hit[g, u] = False
    hits = 0
    S.target[g] = -1
    best_d = 99
    for _ in range(limit):
        b = -1
        for u in range(NU):
            if key[u] < NO_KEY and (b < 0 or key[u] < key[b]):
                b = u
        if b < 0:
            break
        if nearest_dist[b] < best_d:
            best_d = nearest_dist[b]
            S.target[g] = S.us_hex[g, b]
        if defer_tie(T, S, g, key, b, limit - hits, eff, no_disrupt):
            hits = limit  # 6.31 "you choose": the rest land on the tied units the player picks
            break
        key[b] = NO_KEY
        hits += 1
        S.fire_hit[g, b] = True
        if leader(T, b):
            emit(S, g, ev.LEADER_HIT, b, f)
            leader_hit(T, S, g, b)
        else:
            e = eff[b]
            emit(S, g, ev.HIT, b, f, ev.DOT_INTENSE if rows[b] == 1 else (ev.DOT_STEADY if rows[b] == 0 else ev.DOT_MG),
                 ev.effect_of(e & 2 if no_disrupt else e))
            if e & 2:
                S.us_fired[g, b] = True
                step_loss(T, S, g, b)
            if (e & 1) and S.us_loc[g, b] == US_MAP and not no_disrupt:
                disrupt_us(T, S, g, b, False)
    if hits < limit and star:
        for u in range(NU):
            if hits >= limit:
                break
            if S.us_loc[g, u] == US_MAP and S.hero[g, u] == HERO and nearest_dist[u] < 99:
                S.hero[g, u] = INSPIRED  # 10.4: a hero hit is killed, 10.16
                emit(S, g, ev.HERO_KILLED, u, f)
                hits += 1
    return hits


@njit(cache=True)
def hit_later(T, S, g, f, h, occ):
    """Some other position still queued this Fire Phase, with a non-disrupted unit, projects a
    dot into hex h (6.34's "assume position B hits that unit")."""
    for i in range(S.jq_i[g], S.jq_n[g]):
        e = S.jq[g, i]
        if e >= Q_CAVE:
            continue
        f2 = e % 1000
        if f2 == f or T.grp_dot[f2, h] == 0:
            continue
        n_occ, n_live, n_tank = group_units(T, S, g, f2, occ)
        if n_live > 0:
            return True
    return False


@njit(cache=True)
def artillery_hit(T, S, g, sym, action):
    """6.5 / 12.7: one non-leader U.S. unit with the card's symbol loses a step: first in a landing
    box, then a landing beach hex, then (6.5) closest to a landing beach / (12.7) in a clear or
    airstrip hex, then in a live field of fire; then the most steps."""
    H = T.land.shape[0]
    NU = S.us_loc.shape[1]
    occ = np.empty(H, np.int16)
    live = np.empty(H, np.int8)
    if action:
        jp_map(T, S, g, occ)
        from_fire_map(T, S, g, occ, live)
    key = np.full(NU, NO_KEY, np.int64)
    best = -1
    for u in range(NU):
        if T.us_symbol[u] != sym or leader(T, u):
            continue
        if S.us_loc[g, u] == US_BOX:
            cls = 0
        elif S.us_loc[g, u] == US_MAP:
            h = S.us_hex[g, u]
            if T.beach_box[h] >= 0:
                cls = 1
            elif action:
                t = T.terrain[h]
                if t == CLEAR or t == AIRSTRIP:
                    cls = 2
                elif live[h] > 0:
                    cls = 3
                else:
                    cls = 4
            else:
                cls = 2 + nearest_beach(T, h)
        else:
            continue
        if S.us_fired[g, u]:
            continue
        key[u] = cls * 10000 + (10 - S.us_steps[g, u]) * 100 + u
        if best < 0 or key[u] < key[best]:
            best = u
    if best < 0:
        return False
    if not defer_tie(T, S, g, key, best, 1, np.full(NU, TIE_ARTILLERY, np.int8), False):
        emit(S, g, ev.ARTILLERY_HIT, best, ev.ART_ACTION if action else ev.ART_VALUE)
        S.us_fired[g, best] = True
        step_loss_any(T, S, g, best)
    return True


@njit(cache=True)
def from_fire_map(T, S, g, occ, out):
    fire_map(T, S, g, occ, True, out)


@njit(cache=True)
def mortar(T, S, g, f):
    """12.1: up to two U.S. units with the card's symbol within mortar range lose a step (no
    disruption); one unit for a lone unit without depth (12.11); the most steps first."""
    H = T.land.shape[0]
    NU = S.us_loc.shape[1]
    occ = np.empty(H, np.int16)
    jp_map(T, S, g, occ)
    sym = T.card_symbol[S.fire_card[g]]
    limit = 1 if hit_limit(T, S, g, f, occ) <= 1 else 2
    mtop = False
    src = np.full(2, -1, np.int64)
    for k in range(2):
        p = T.grp_members[f, k]
        if p >= 0 and occ[T.pos_hex[p]] >= 0:
            src[k] = T.pos_hex[p]
            if T.pos_mtop[p]:
                mtop = True
    done = 0
    key = np.full(NU, NO_KEY, np.int64)
    for _ in range(limit):
        best = -1
        key[:] = NO_KEY
        for u in range(NU):
            if S.us_loc[g, u] != US_MAP or T.us_symbol[u] != sym or S.us_fired[g, u]:
                continue
            h = S.us_hex[g, u]
            ok = False
            if mtop:
                ok = T.mortar_zone[h]
            else:
                for k in range(2):
                    if src[k] >= 0 and T.dist[src[k], h] <= 4:
                        ok = True
            if not ok:
                continue
            key[u] = (10 - S.us_steps[g, u]) * 100 + u
            if best < 0 or key[u] < key[best]:
                best = u
        if best < 0:
            break
        if defer_tie(T, S, g, key, best, limit - done, np.full(NU, 2, np.int8), False):
            return limit  # 12.11 "you choose"
        emit(S, g, ev.MORTAR_HIT, best, f)
        S.us_fired[g, best] = True
        step_loss(T, S, g, best)
        done += 1
    return done


@njit(cache=True)
def resupply(T, S, g, f):
    """12.3: units without depth in communication get one."""
    for k in range(2):
        p = T.grp_members[f, k]
        if p < 0:
            continue
        j = jp_at(T, S, g, T.pos_hex[p])
        if j >= 0 and S.jp_depth[g, j] < 0 and not T.jp_tank[j] and S.jp_ca[g, j] < 0 and S.comm[g, p]:
            give_depth(T, S, g, j, False)


@njit(cache=True)
def redeploy(T, S, g, f, star, armor, allowed):
    """12.4: each unit moves to an empty position hex within three hexes and closer to the nearest
    U.S. unit: of another colour first, then nearest, then the lower number; then fires there."""
    movers = np.full(2, -1, np.int64)  # the units of the group as the action begins (12.41)
    for k in range(2):
        p = T.grp_members[f, k]
        if p >= 0:
            movers[k] = jp_at(T, S, g, T.pos_hex[p])
    for k in range(2):
        p = T.grp_members[f, k]
        j = movers[k]
        if p < 0 or j < 0 or S.jp_dis[g, j]:
            continue
        h = T.pos_hex[p]
        here = nearest_us(T, S, g, h)
        best, bk = -1, 0
        for q in range(T.pos_hex.shape[0]):
            x = T.pos_hex[q]
            if T.pos_prov[q] or q == p or T.dist[h, x] > 3:
                continue
            if not empty_position(T, S, g, q):
                continue
            if nearest_us(T, S, g, x) >= here:
                continue
            key = (0 if T.pos_colour[q] != T.pos_colour[p] else 1) * 100000 + T.dist[h, x] * 1000 + T.pos_num[q] * 4 + T.pos_zone[q]
            if best < 0 or key < bk:
                best, bk = q, key
        if best < 0:
            continue
        emit(S, g, ev.REDEPLOY, j, h, T.pos_hex[best])
        S.jp_hex[g, j] = T.pos_hex[best]
        nf = T.pos_group[best]
        if us_in_field(T, S, g, nf, T.jp_tank[j], False):
            # a tie may wait for the player when no second unit moves after this one
            last = k == 1 or movers[1] < 0 or S.jp_dis[g, movers[1]]
            last_fire(T, S, g, nf, star, armor, allowed and last)


@njit(cache=True)
def patrol(T, S, g, f):
    """12.6: every non-leader U.S. unit in the field is disrupted; with none there, the closest
    undisrupted unit within four hexes (then the card's symbol, then the greater strength, then
    the player's choice)."""
    H = T.land.shape[0]
    NU = S.us_loc.shape[1]
    occ = np.empty(H, np.int16)
    jp_map(T, S, g, occ)
    n_occ, n_live, n_tank = group_units(T, S, g, f, occ)
    tank = n_tank > 0
    any_in = False
    for u in range(NU):
        if S.us_loc[g, u] == US_MAP and dot(T, S, g, f, S.us_hex[g, u], tank) > 0:
            any_in = True
            if not leader(T, u):
                disrupt_us(T, S, g, u, False)
    if any_in:
        return
    sym = T.card_symbol[S.fire_card[g]]
    key = np.full(NU, NO_KEY, np.int64)
    best = -1
    for u in range(NU):
        if S.us_loc[g, u] != US_MAP or leader(T, u) or S.us_dis[g, u] != 0:
            continue
        d = 99
        for k in range(2):
            p = T.grp_members[f, k]
            if p >= 0 and occ[T.pos_hex[p]] >= 0:
                d = min(d, T.dist[T.pos_hex[p], S.us_hex[g, u]])
        if d > 4:
            continue
        key[u] = d * 1000000 + (0 if T.us_symbol[u] == sym else 1) * 100000 \
            + (99 - T.us_strength[u, S.us_steps[g, u]]) * 100 + u
        if best < 0 or key[u] < key[best]:
            best = u
    # "Your choice if strengths are equal" (P_HIT_PICK: a disruption, the fire chart's bit 1)
    if best >= 0 and not defer_tie(T, S, g, key, best, 1, np.full(NU, 1, np.int8), False):
        disrupt_us(T, S, g, best, False)


@njit(cache=True)
def ambush(T, S, g, f):
    """12.9: one U.S. unit with the card's symbol in the intense field loses a step; else one in
    the steady field is disrupted; the closest, then more steps."""
    NU = S.us_loc.shape[1]
    sym = T.card_symbol[S.fire_card[g]]
    key = np.full(NU, NO_KEY, np.int64)
    for want in (INTENSE, STEADY):
        best = -1
        key[:] = NO_KEY
        for u in range(NU):
            if S.us_loc[g, u] != US_MAP or T.us_symbol[u] != sym:
                continue
            h = S.us_hex[g, u]
            if T.grp_dot[f, h] != want:
                continue
            if want == INTENSE and S.us_fired[g, u]:
                continue
            if T.beach_box[h] >= 0 and S.smoke[g, T.grp_colour[f]]:
                continue  # event Smoke
            d = 99
            for k in range(2):
                p = T.grp_members[f, k]
                if p >= 0:
                    d = min(d, T.dist[T.pos_hex[p], h])
            if night(T, S, g) and d > 1:
                continue  # 16.0
            key[u] = d * 1000 + (10 - S.us_steps[g, u]) * 64 + u
            if best < 0 or key[u] < key[best]:
                best = u
        if best >= 0:
            if defer_tie(T, S, g, key, best, 1, np.full(NU, 2 if want == INTENSE else 1, np.int8), False):
                return  # 12.91 "you choose"
            emit(S, g, ev.AMBUSH, best, f, ev.EFF_STEP if want == INTENSE else ev.EFF_DISRUPT)
            if want == INTENSE:
                S.us_fired[g, best] = True
                step_loss(T, S, g, best)
            else:
                disrupt_us(T, S, g, best, False)
            return


# --------------------------------------------------------------------------------------- assault
@njit(cache=True)
def assault(T, S, g, f):
    """12.8 / 12.81: each occupied hex of the group assaults; the second waits in the queue."""
    first = True
    for k in range(2):
        p = T.grp_members[f, k]
        if p < 0:
            continue
        j = jp_at(T, S, g, T.pos_hex[p])
        if j < 0 or S.jp_dis[g, j]:
            continue
        if first:
            first = False
            assault_unit(T, S, g, j, T.grp_colour[f])
        else:
            n = S.jq_n[g]
            if n < QMAX:  # checked right after this one (12.81)
                for i in range(n, S.jq_i[g], -1):
                    S.jq[g, i] = S.jq[g, i - 1]
                S.jq[g, S.jq_i[g]] = Q_HEX + p
                S.jq_n[g] = n + 1


@njit(cache=True)
def assault_unit(T, S, g, j, colour):
    """12.8: into the closest U.S.-occupied hex of the field (fewest U.S. steps on a tie); with none
    in the field, to a position hex within three hexes closer to the nearest U.S. unit (the
    closest to the unit's own hex on a tie).  A tie left after those is the player's (defer_assault),
    else the lowest hex / position number."""
    h = S.jp_hex[g, j]
    p = T.hex_pos[h]
    f = T.pos_group[p] if p >= 0 else -1
    if T.opts[OPT_BNR]:
        bnr_assault_unit(T, S, g, j, colour)
        return
    H = T.land.shape[0]
    tied = np.zeros(H, np.bool_)
    best = assault_target(T, S, g, f, h, tied) if f >= 0 else -1
    if best >= 0:
        if not defer_assault(T, S, g, h, tied, colour, INTO_FIELD):
            assault_to(T, S, g, j, best, colour, INTO_FIELD)
        return
    here = nearest_us(T, S, g, h)
    bq, bk = -1, 0
    for q in range(T.pos_hex.shape[0]):
        x = T.pos_hex[q]
        if T.pos_prov[q] or x == h or T.dist[h, x] > 3 or jp_at(T, S, g, x) >= 0:
            continue
        nx = nearest_us(T, S, g, x)
        if nx >= here:
            continue
        key = nx * 100000 + T.dist[h, x] * 1000 + q
        if bq < 0 or key < bk:
            bq, bk = q, key
        tied[x] = True
    if bq < 0:
        return
    for q in range(T.pos_hex.shape[0]):  # the positions of bq's distances alone stay tied
        x = T.pos_hex[q]
        if tied[x] and nearest_us(T, S, g, x) * 100000 + T.dist[h, x] * 1000 != bk - bq:
            tied[x] = False
    if not defer_assault(T, S, g, h, tied, colour, TOWARD_US):
        assault_to(T, S, g, j, T.pos_hex[bq], colour, TOWARD_US)


@njit(cache=True)
def defer_assault(T, S, g, h, tied, colour, kind):
    """12.8, 13.2 [R] "then you choose": with more than one hex ``tied`` after the book's
    priorities and the Fire Phase allowing it (S.tie_ok), the assault (``kind``: assault_to) from
    hex h waits for the player's choice (P_ASSAULT_PICK) and True is returned."""
    if not S.tie_ok[g]:
        return False
    n = 0
    for x in range(tied.shape[0]):
        if tied[x]:
            n += 1
    if n < 2:
        return False
    S.tie_from[g] = h
    S.tie_colour[g] = colour
    S.tie_kind[g] = kind
    for x in range(tied.shape[0]):
        S.tie_hexes[g, x] = tied[x]
    return True


@njit(cache=True)
def assault_to(T, S, g, j, x, colour, kind):
    """Unit j goes to hex x: 12.8 INTO_FIELD, a close combat there; TOWARD_US, the position hex x
    closer to the U.S., its garrison removed, a close combat when U.S. units hold it; 13.2 [R]
    OVERRUN, the tank's close combat in the colour of x's position, else its own."""
    if kind == OVERRUN:
        emit(S, g, ev.OVERRUN, j, S.jp_hex[g, j], x)
        move_into_cc(T, S, g, j, x, CC_OVERRUN, colour)
        start_cc(T, S, g, x, j, CC_OVERRUN, colour_at(T, S, g, j, x))
        return
    emit(S, g, ev.ASSAULT, j, S.jp_hex[g, j], x,
         ev.TOWARD_US if kind == TOWARD_US and us_steps_in_hex(T, S, g, x) == 0 else ev.INTO_US)
    if kind == TOWARD_US:
        if S.garrison[g, T.hex_pos[x]]:
            S.garrison[g, T.hex_pos[x]] = False
            emit(S, g, ev.GARRISON_GONE, x)
        if us_steps_in_hex(T, S, g, x) == 0:
            S.jp_hex[g, j] = x
            return
    move_into_cc(T, S, g, j, x, CC_JP_ASSAULT, colour)
    start_cc(T, S, g, x, j, CC_JP_ASSAULT, position_colour_or(T, x, colour))  # 12.83


@njit(cache=True)
def assault_pick(T, S, g, x):
    """P_ASSAULT_PICK: the player chose hex x for the waiting assault (defer_assault)."""
    j = jp_at(T, S, g, S.tie_from[g])
    kind = S.tie_kind[g]
    S.tie_from[g] = -1
    S.tie_kind[g] = 0
    for y in range(S.tie_hexes.shape[1]):
        S.tie_hexes[g, y] = False
    if j >= 0:
        assault_to(T, S, g, j, x, S.tie_colour[g], kind)


@njit(cache=True)
def assault_target(T, S, g, f, h, tied):
    """12.8, 18.35 [A]: the U.S.-occupied hex of group f's field closest to h, the fewest U.S. steps
    on a tie, then the lowest hex, -1; ``tied`` marks the hexes equal to it on the book's two."""
    best, bk = -1, 0
    for u in range(S.us_loc.shape[1]):
        if S.us_loc[g, u] != US_MAP:
            continue
        x = S.us_hex[g, u]
        if T.grp_dot[f, x] == 0:
            continue
        key = T.dist[h, x] * 100000 + us_steps_in_hex(T, S, g, x) * 1000 + x
        if best < 0 or key < bk:
            best, bk = x, key
    if best >= 0:
        for u in range(S.us_loc.shape[1]):
            if S.us_loc[g, u] == US_MAP:
                x = S.us_hex[g, u]
                if T.grp_dot[f, x] != 0 and T.dist[h, x] * 100000 + us_steps_in_hex(T, S, g, x) * 1000 == bk - best:
                    tied[x] = True
    return best


@njit(cache=True)
def overrun_hex(T, S, g, j, tied):
    """13.2 [R]: "the hex occupied by the nearest hit unit (to tank j); if hit US units are
    equidistant, the hex occupied by the fewest US steps, then you choose" (S.fire_hit: the units
    its fire hit, still on the map); -1 when none; ``tied`` marks the hexes equal to it."""
    best, bk = -1, 0
    for u in range(S.us_loc.shape[1]):
        if S.fire_hit[g, u] and S.us_loc[g, u] == US_MAP:
            x = S.us_hex[g, u]
            key = T.dist[S.jp_hex[g, j], x] * 100000 + us_steps_in_hex(T, S, g, x) * 1000 + x
            if best < 0 or key < bk:
                best, bk = x, key
    if best >= 0:
        for u in range(S.us_loc.shape[1]):
            if S.fire_hit[g, u] and S.us_loc[g, u] == US_MAP:
                x = S.us_hex[g, u]
                if T.dist[S.jp_hex[g, j], x] * 100000 + us_steps_in_hex(T, S, g, x) * 1000 == bk - best:
                    tied[x] = True
    return best


@njit(cache=True)
def position_colour_or(T, h, colour):
    """The colour of the position in hex h, else ``colour`` (12.83, 8.64)."""
    p = T.hex_pos[h]
    if p >= 0 and not T.pos_prov[p]:
        return T.pos_colour[p]
    return colour


@njit(cache=True)
def move_into_cc(T, S, g, j, x, kind, colour):
    S.jp_from[g, j] = S.jp_hex[g, j]
    S.jp_hex[g, j] = x


# ------------------------------------------------------------------------------------------ tanks
@njit(cache=True)
def tank_of(T, S, g, f, occ):
    for k in range(2):
        p = T.grp_members[f, k]
        if p >= 0:
            j = occ[T.pos_hex[p]]
            if j >= 0 and T.jp_tank[j] and not S.jp_dis[g, j]:
                return j
    return -1


@njit(cache=True)
def last_fire(T, S, g, f, star, armor, allowed):
    """Group f fires as the last thing its action does, so a tie of its hits may wait for the player
    when ``allowed`` (the Fire Phase's S.tie_ok as the action began)."""
    S.tie_ok[g] = allowed
    group_fire(T, S, g, f, False, star, armor)
    S.tie_ok[g] = False


@njit(cache=True)
def tank_action(T, S, g, f, act, star, armor, occ, allowed):
    """13.2: the tank actions (``allowed``: a tie of the overrun's hex may wait for the player)."""
    j = tank_of(T, S, g, f, occ)
    if j < 0:
        return
    emit(S, g, ev.ACTS, f, act)
    tank_f = f
    if act == A_FIRE_ADVANCE:
        if us_in_field(T, S, g, f, True, False):
            last_fire(T, S, g, f, star, armor, allowed)
        else:
            advance(T, S, g, j)
    elif act == A_MULTI_FIRE:
        if us_in_field(T, S, g, f, True, False):
            group_fire(T, S, g, f, False, star, armor)
            if us_in_field(T, S, g, f, True, False):
                keep = S.us_fired[g].copy()
                for u in range(S.us_loc.shape[1]):
                    S.us_fired[g, u] = False  # 13.2M: a completely separate fire (6.34's exception)
                last_fire(T, S, g, f, star, armor, allowed)
                for u in range(S.us_loc.shape[1]):
                    S.us_fired[g, u] = S.us_fired[g, u] or keep[u]
    elif act == A_OVERRUN:
        if us_in_field(T, S, g, f, True, False):
            if group_fire(T, S, g, f, False, star, armor) > 0:
                tied = np.zeros(T.land.shape[0], np.bool_)
                x = overrun_hex(T, S, g, j, tied)
                S.tie_ok[g] = allowed  # the tank's action ends with the overrun
                if x >= 0 and not defer_assault(T, S, g, S.jp_hex[g, j], tied, T.jp_colour[j], OVERRUN):
                    assault_to(T, S, g, j, x, T.jp_colour[j], OVERRUN)
                S.tie_ok[g] = False
    elif act == A_ADVANCE_FIRE:
        advance(T, S, g, j)
        p = T.hex_pos[S.jp_hex[g, j]]
        if p >= 0:
            tank_f = T.pos_group[p]
            if us_in_field(T, S, g, tank_f, True, False):
                last_fire(T, S, g, tank_f, star, armor, allowed)
    elif act == A_DOUBLE_ADVANCE:
        if advance(T, S, g, j):
            advance(T, S, g, j)
        elif us_in_field(T, S, g, f, True, False):
            last_fire(T, S, g, f, star, armor, allowed)


@njit(cache=True)
def colour_at(T, S, g, j, x):
    p = T.hex_pos[x]
    if p >= 0 and not T.pos_prov[p]:
        return T.pos_colour[p]
    return colour_of(T, S, g, j)


@njit(cache=True)
def advance(T, S, g, j):
    """13.2: to a position hex empty or held by a non-armor unit in communication, within three
    hexes and closer to the nearest U.S. unit; ties: an empty one, then the closest to the tank,
    then the highest number.  A held position's unit swaps with the tank."""
    h = S.jp_hex[g, j]
    here = nearest_us(T, S, g, h)
    best, bk = -1, 0
    for q in range(T.pos_hex.shape[0]):
        x = T.pos_hex[q]
        if T.pos_prov[q] or x == h or T.dist[h, x] > 3:
            continue
        if us_steps_in_hex(T, S, g, x) > 0 or S.garrison[g, q]:
            continue
        o = jp_at(T, S, g, x)
        if o >= 0 and (T.jp_tank[o] or not S.comm[g, q]):
            continue
        nx = nearest_us(T, S, g, x)
        if nx >= here:
            continue
        key = nx * 10000000 + (1 if o >= 0 else 0) * 1000000 + T.dist[h, x] * 10000 + (99 - T.pos_num[q]) * 10 + (3 - T.pos_zone[q])
        if best < 0 or key < bk:
            best, bk = q, key
    if best < 0:
        return False
    x = T.pos_hex[best]
    o = jp_at(T, S, g, x)
    emit(S, g, ev.TANK_ADVANCE, j, h, x)
    if o >= 0:
        S.jp_hex[g, o] = h
        emit(S, g, ev.TANK_SWAP, o, h)
    S.jp_hex[g, j] = x
    return True


# ------------------------------------------------------------------------------------ counterattack
@njit(cache=True)
def counterattack_setup(T, S, g):
    """13.41 as the sequence (turn 13, 16.0 II) and the Counterattack event run it: a tie for the
    places may wait for the player (P_CA_PICK, decisions="full")."""
    S.tie_ok[g] = not T.opts[OPT_MAJOR]
    counterattack_event(T, S, g)
    S.tie_ok[g] = False


@njit(cache=True)
def counterattack_event(T, S, g):
    """13.41 (13.48: a repeat is one reinforcement)."""
    if S.ca_done[g]:
        reinforcement(T, S, g, 1)
        return
    S.ca_done[g] = True
    NJ = S.jp_loc.shape[1]
    for j in range(NJ):
        if S.jp_loc[g, j] != JP_MAP or not T.jp_tank[j]:
            continue
        if fires_on_beach(T, S, g, S.jp_hex[g, j]):
            continue  # 13.4: a unit in such a position is not eligible
        reveal_jp(T, S, g, j)
        remove_depth(T, S, g, j)
        rally_jp(T, S, g, j)
        enter_ca(T, S, g, j)
    # up to four non-tank units within three hexes of a tank, not in artillery positions: the
    # closest to a tank, then farthest from a landing beach, then the player's choice
    key = np.full(NJ, NO_KEY, np.int64)
    for j in range(NJ):
        if S.jp_loc[g, j] != JP_MAP or T.jp_tank[j] or S.jp_ca[g, j] >= 0:
            continue
        h = S.jp_hex[g, j]
        p = T.hex_pos[h]
        if p >= 0 and T.pos_art[p]:
            continue
        if fires_on_beach(T, S, g, h):
            continue
        dt = 99
        for t in range(NJ):
            if S.jp_loc[g, t] == JP_MAP and T.jp_tank[t]:
                dt = min(dt, T.dist[h, S.jp_hex[g, t]])
        if dt <= 3:
            key[j] = dt * 100000 + (999 - nearest_beach(T, h)) * 100 + j
    for left in range(4, 0, -1):
        best = -1
        for j in range(NJ):
            if key[j] < NO_KEY and (best < 0 or key[j] < key[best]):
                best = j
        if best < 0:
            break
        if S.tie_ok[g]:  # "select the four units": a tie past the book's two priorities is the player's
            n = 0
            for j in range(NJ):
                if key[j] < NO_KEY and key[j] - j == key[best] - best:
                    n += 1
            if n > left:
                for j in range(NJ):
                    if key[j] < NO_KEY and key[j] - j == key[best] - best:
                        S.tie_hexes[g, S.jp_hex[g, j]] = True
                S.ca_left[g] = left
                return
        key[best] = NO_KEY
        join_ca(T, S, g, best)


@njit(cache=True)
def join_ca(T, S, g, j):
    """13.41: a non-tank unit enters counterattack stance: revealed, its depth marker back to the
    pool face down, undisrupted, a counterattack marker on top."""
    reveal_jp(T, S, g, j)
    d = S.jp_depth[g, j]
    if d >= 0:
        emit(S, g, ev.DEPTH_BACK, d, j, S.jp_hex[g, j])
        S.dm_loc[g, d] = DM_POOL  # returned to the pool face down
        S.dm_rev[g, d] = False
        S.jp_depth[g, j] = -1
    rally_jp(T, S, g, j)
    enter_ca(T, S, g, j)


@njit(cache=True)
def ca_pick(T, S, g, x):
    """P_CA_PICK: the unit in hex x of the tied ones enters counterattack stance; when the places
    left reach the tied units left, those enter too."""
    H = S.tie_hexes.shape[1]
    S.tie_hexes[g, x] = False
    join_ca(T, S, g, jp_at(T, S, g, x))
    S.ca_left[g] -= 1
    n = 0
    for y in range(H):
        if S.tie_hexes[g, y]:
            n += 1
    if S.ca_left[g] >= n:
        for y in range(H):
            if S.tie_hexes[g, y]:
                join_ca(T, S, g, jp_at(T, S, g, y))
    if S.ca_left[g] == 0 or S.ca_left[g] >= n:
        S.ca_left[g] = 0
        for y in range(H):
            S.tie_hexes[g, y] = False


@njit(cache=True)
def enter_ca(T, S, g, j):
    """13.41: a counterattack depth marker from the mug on top of the unit, strength side up."""
    n = 0
    for d in range(S.dm_loc.shape[1]):
        if S.dm_loc[g, d] == DM_CUP:
            n += 1
    if n == 0:
        return
    k = uniform(S, g, n)
    for d in range(S.dm_loc.shape[1]):
        if S.dm_loc[g, d] == DM_CUP:
            if k == 0:
                S.dm_loc[g, d] = DM_UNIT
                S.dm_rev[g, d] = True
                S.jp_ca[g, j] = d
                emit(S, g, ev.CA_ENTERS, j, S.jp_hex[g, j], d)
                return
            k -= 1


@njit(cache=True)
def counterattack(T, S, g, j):
    """13.42: move within three hexes: (1) an empty position firing on a landing beach hex, (2) a
    U.S.-occupied hex (closest to a landing beach, then southernmost) and close combat, (3) an empty
    position closer to a landing beach; ties: closest, then westernmost, then southernmost."""
    h = S.jp_hex[g, j]
    H = T.land.shape[0]
    here = nearest_beach(T, h)
    best, bk = -1, 0
    for x in range(H):
        if x == h or not T.land[x] or T.dist[h, x] > 3:
            continue
        p = T.hex_pos[x]
        usx = us_steps_in_hex(T, S, g, x) > 0
        empty_pos = p >= 0 and jp_at(T, S, g, x) < 0 and not usx and not S.garrison[g, p]
        if empty_pos and not T.pos_prov[p] and T.pos_beachfire[p]:
            prio = 0
        elif usx and jp_at(T, S, g, x) < 0:
            prio = 1
        elif empty_pos and nearest_beach(T, x) < here:
            prio = 2
        else:
            continue
        sub = nearest_beach(T, x) * 100 - row_of(T, x) if prio == 1 else 0
        west_south = col_of(T, x) * 100 + (99 - row_of(T, x))
        key = prio * 10000000000 + (sub + 5000) * 1000000 + T.dist[h, x] * 10000 + west_south
        if best < 0 or key < bk:
            best, bk = x, key
    if best < 0:
        return
    p = T.hex_pos[best]
    emit(S, g, ev.CA_MOVES, j, h, best)
    if us_steps_in_hex(T, S, g, best) > 0:
        move_into_cc(T, S, g, j, best, CC_CA, 0)
        start_cc(T, S, g, best, j, CC_CA, colour_at(T, S, g, j, best))
        return
    S.jp_hex[g, j] = best
    if p >= 0 and not T.pos_prov[p] and T.pos_beachfire[p]:
        leave_ca(T, S, g, j)


# ---------------------------------------------------------------------------- depth and reserves


# ------------------------------------------------------------------------------ Bloody Nose Ridge
@njit(cache=True)
def bnr_resupply(T, S, g, f, occ):
    """18.35 [R]: an occupied position of the group without a depth marker gets one, face down (a
    fortification marker alone holds it); True when every occupied position already had one (with
    U.S. units in the field the group then fires; README: a group of two positions fires only when
    neither received a marker)."""
    had = True
    for k in range(2):
        p = T.grp_members[f, k]
        if p < 0:
            continue
        j = occ[T.pos_hex[p]]
        if j >= 0 and S.jp_depth[g, j] < 0:
            had = False
            give_depth(T, S, g, j, False)
    return had


@njit(cache=True)
def bnr_assault_unit(T, S, g, j, colour):
    """18.35 [A]: a fortification marker alone first gets a unit of the reserve, face up; the unit
    (with its depth marker) moves into the closest U.S.-occupied hex of the position's field, the
    fewest U.S. steps on a tie, then the player's choice (defer_assault), and a close combat
    follows in the colour of that hex's position, else of the position it came from."""
    h = S.jp_hex[g, j]
    p = T.hex_pos[h]
    if p < 0:
        return
    if T.jp_fort[j]:
        r = draw_reserve(T, S, g)
        if r < 0:
            return
        place_jp(T, S, g, r, h, True)
        emit(S, g, ev.JP_ENTERS, r, h, ev.BY_FORT_ASSAULT)
        j = r
    tied = np.zeros(T.land.shape[0], np.bool_)
    best = assault_target(T, S, g, T.pos_group[p], h, tied)
    if best >= 0 and not defer_assault(T, S, g, h, tied, T.pos_colour[p], INTO_FIELD):
        assault_to(T, S, g, j, best, T.pos_colour[p], INTO_FIELD)


@njit(cache=True)
def bnr_artillery(T, S, g, f, occ):
    """18.35 [A] with no U.S. unit in the field: a mountaintop position hits one U.S. unit anywhere
    in play with the card's target symbol, the most steps, then the player's choice (defer_tie)."""
    mtop = False
    for k in range(2):
        p = T.grp_members[f, k]
        if p >= 0 and occ[T.pos_hex[p]] >= 0 and T.pos_mtop[p]:
            mtop = True
    if not mtop:
        return
    sym = T.card_symbol[S.fire_card[g]]
    NU = S.us_loc.shape[1]
    key = np.full(NU, NO_KEY, np.int64)
    best = -1
    for u in range(NU):
        if S.us_loc[g, u] != US_MAP or T.us_symbol[u] != sym or S.us_fired[g, u]:
            continue
        key[u] = (10 - S.us_steps[g, u]) * 100 + u
        if best < 0 or key[u] < key[best]:
            best = u
    if best >= 0 and not defer_tie(T, S, g, key, best, 1, np.full(NU, 2, np.int8), False):
        emit(S, g, ev.ARTILLERY_HIT, best, ev.ART_MOUNTAINTOP)
        S.us_fired[g, best] = True
        step_loss(T, S, g, best)


@njit(cache=True)
def cave_unit(T, S, g, k):
    h = S.cave_hex[g, k]
    if h < 0:
        return -1
    return jp_at(T, S, g, h)


@njit(cache=True)
def cave_fire(T, S, g, k):
    """Hidden Caves: a unit in a cave fires only when a U.S. unit with an Action Under Fire marker
    is in its steady field (the six adjacent hexes); the hit limit is the unit and its depth
    marker (6.31), targets by 6.3's priorities on the steady row."""
    j = cave_unit(T, S, g, k)
    if j < 0 or S.jp_dis[g, j]:
        return
    h = S.cave_hex[g, k]
    NU = S.us_loc.shape[1]
    spotted = False
    for u in range(NU):
        if S.us_loc[g, u] == US_MAP and S.us_auf[g, u] and T.dist[h, S.us_hex[g, u]] == 1:
            spotted = True
    if not spotted:
        return
    S.jp_acted[g, j] = True
    sym = T.card_symbol[S.fire_card[g]]
    limit = 1 + (1 if S.jp_depth[g, j] >= 0 else 0)
    unrevealed = 0 if S.jp_rev[g, j] else 1
    hit = np.zeros(NU, np.bool_)
    for _ in range(limit):
        best, bk, be = -1, 0, 0
        for u in range(NU):
            if S.us_loc[g, u] != US_MAP or T.dist[h, S.us_hex[g, u]] != 1 or leader(T, u) or hit[u]:
                continue
            x = S.us_hex[g, u]
            conc = us_steps_in_hex(T, S, g, x) >= 7
            armored = T.us_armored[u]
            cls = (2 if armored else 0) + (1 if (conc or T.us_symbol[u] == sym) else 0)
            e = T.fire_chart[0, unrevealed, cls]
            if e == 0 or ((e & 2) and S.us_fired[g, u]):
                continue
            key = (10 - S.us_steps[g, u]) * 100 + u
            if best < 0 or key < bk:
                best, bk, be = u, key, e
        if best < 0:
            return
        hit[best] = True
        if be & 2:
            S.us_fired[g, best] = True
            step_loss(T, S, g, best)
        if (be & 1) and S.us_loc[g, best] == US_MAP:
            disrupt_us(T, S, g, best, False)
