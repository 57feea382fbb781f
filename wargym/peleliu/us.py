"""The U.S. player's phases: amphibious operations (5.0), the HQ phase (14.0) and the Action
Phase (7.0, 8.0): which orders, targets and partners are legal, and carrying them out.

Masks and actions are functions of one game; the action numbers are in actions.py.
"""

import numpy as np

from wargym.events import emit
from wargym.jit import njit
from wargym.peleliu import eventlog as ev
from wargym.peleliu.actions import ATTACK, BARRAGE, BOX_0, DAUNTLESS, END, ENTER, MOVE, NAVAL, NO, RESOLVE, UNIT_0
from wargym.peleliu.bnr import is_night, mark_auf, night_move_ok, order_open, prep_morning
from wargym.peleliu.board import (
    across_blocked, command_reach, cp_range, draw, fire_map, fort_at, group_units, is_free, jp_at, jp_map,
    rally_us, reveal_forts, set_command, stack_count, step_add_ok, step_loss, us_communication, us_count,
    us_steps_in_hex, weapons_of,
)
from wargym.peleliu.combat import barrage
from wargym.peleliu.forces import night
from wargym.peleliu.scenario import (
    AMTANK, ART, ENG, HEAVY, INF, INF_HQ, INTENSE, JUNGLE, MOUNTAIN, REG_HQ, STAR, TANK, W_RD,
)
from wargym.peleliu.state import (
    DIS_NEW, JP_MAP, O_ATTACK, O_BARRAGE, O_DAUNTLESS, O_ENTER, O_MOVE, O_NAVAL, OPT_BNR, PILE_TRACK, US_BOX, US_MAP,
)


# ------------------------------------------------------------------------------ amphibious (5.0)
@njit(cache=True)
def box_units(T, S, g, b):
    n = 0
    for u in range(S.us_loc.shape[1]):
        if S.us_loc[g, u] == US_BOX and S.us_hex[g, u] == b:
            n += 1
    return n


@njit(cache=True)
def landing_check(T, S, g, b):
    """5.1: a landing card for box b: units with its symbol lose a step when a live position of its
    colour projects a dot into the box; one of them drifts (returns the unit to drift, the
    player's choice when several: -2, none: -1)."""
    c = draw(T, S, g, PILE_TRACK)
    if c < 0:
        return -1
    emit(S, g, ev.LANDING_CARD, b, c)
    H = T.land.shape[0]
    occ = np.empty(H, np.int16)
    jp_map(T, S, g, occ)
    colour = T.card_land_colour[c]
    sym = T.card_land_symbol[c]
    live = False
    for f in range(T.grp_box.shape[0]):
        if T.grp_box[f, b] and T.grp_colour[f] == colour:
            n_occ, n_live, n_tank = group_units(T, S, g, f, occ)
            if n_live > 0:
                live = True
    NU = S.us_loc.shape[1]
    for u in range(NU):
        if S.us_loc[g, u] == US_BOX and S.us_hex[g, u] == b and not S.pending[g, u] and T.us_symbol[u] == sym:
            if live:
                emit(S, g, ev.LANDING_HIT, u, b)
                loss_in_box(T, S, g, u)
    S.k[g] = c
    if T.card_drift[c] == 0:
        return -1
    n, first = 0, -1
    for u in range(NU):
        if S.us_loc[g, u] == US_BOX and S.us_hex[g, u] == b and not S.pending[g, u] and T.us_symbol[u] == sym:
            n += 1
            if first < 0:
                first = u
    if n == 0:
        return -1
    return first if n == 1 else -2


@njit(cache=True)
def loss_in_box(T, S, g, u):
    b = S.us_hex[g, u]
    step_loss(T, S, g, u)
    if S.us_steps[g, u] > 0:
        S.us_loc[g, u] = US_BOX
        S.us_hex[g, u] = b


@njit(cache=True)
def drift(T, S, g, u, b, c):
    """5.1: the unit drifts to the next box in the card's direction (the other way at an end)."""
    d = T.card_drift[c]
    nb = b + d
    if nb < 0 or nb >= 5:
        nb = b - d
    emit(S, g, ev.DRIFT, u, b, nb)
    S.us_hex[g, u] = nb
    S.pending[g, u] = True  # not checked again in the box it drifts into


@njit(cache=True)
def drift_mask(T, S, g, b, c, m, H):
    for u in range(S.us_loc.shape[1]):
        if S.us_loc[g, u] == US_BOX and S.us_hex[g, u] == b and not S.pending[g, u] \
                and T.us_symbol[u] == T.card_land_symbol[c]:
            m[H + UNIT_0 + u] = True


@njit(cache=True)
def land_mask(T, S, g, u, m):
    """5.2: a beach hex of the unit's box with room (two units, regimental HQs aside) and no Japanese
    unit (a counterattack unit that won a close combat there stays, 8.61)."""
    b = S.us_hex[g, u]
    n = 0
    for k in range(T.box_beach.shape[1]):
        h = T.box_beach[b, k]
        if h < 0 or not T.in_play[h] or jp_at(T, S, g, h) >= 0:
            continue
        if T.us_type[u] == REG_HQ or stack_count(T, S, g, h) < 2:
            m[h] = True
            n += 1
    return n


@njit(cache=True)
def may_wait(T, S, g, u):
    """5.2 "excess units of your choice remain in the Beach Landing Box": unit u (not a regimental
    HQ, which never counts against the limit) may stay while more units of its box are still to
    land (u and those not yet placed this step, S.pending) than its beach hexes have room for."""
    if T.us_type[u] == REG_HQ:
        return False
    b = S.us_hex[g, u]
    room = 0
    for k in range(T.box_beach.shape[1]):
        h = T.box_beach[b, k]
        if h >= 0 and T.in_play[h] and jp_at(T, S, g, h) < 0:
            room += max(0, 2 - stack_count(T, S, g, h))
    left = 0
    for v in range(S.us_loc.shape[1]):
        if S.us_loc[g, v] == US_BOX and S.us_hex[g, v] == b and T.us_type[v] != REG_HQ \
                and (v == u or not S.pending[g, v]):
            left += 1
    return left > room


@njit(cache=True)
def land(T, S, g, u, h):
    S.us_loc[g, u] = US_MAP
    S.us_hex[g, u] = h
    emit(S, g, ev.LANDS, u, h)


@njit(cache=True)
def box_mask(T, S, g, u, m, H):
    """5.3: the box listed on the unit, any box of its colour code, or any box."""
    code = T.us_beach[u]
    n = 0
    for b in range(5):
        ok = code == 12 or code == b or (code == 10 and b < 2) or (code == 11 and b >= 2)
        if ok:
            m[H + BOX_0 + b] = True
            n += 1
    return n


# ------------------------------------------------------------------------------------ HQ phase (14)
@njit(cache=True)
def potential_fire(T, S, g, h):
    """14.1: a Japanese-occupied position, or an empty one in Japanese communication, projects a
    dot into hex h."""
    H = T.land.shape[0]
    for f in range(T.grp_dot.shape[0]):
        if T.grp_dot[f, h] == 0:
            continue
        for k in range(2):
            p = T.grp_members[f, k]
            if p < 0:
                continue
            if jp_at(T, S, g, T.pos_hex[p]) >= 0 or S.comm[g, p]:
                return True
    return H < 0


@njit(cache=True)
def occupied_fire(T, S, g, h, live_only):
    """A Japanese-occupied position (with a non-disrupted unit when ``live_only``) fires into h."""
    H = T.land.shape[0]
    occ = np.empty(H, np.int16)
    jp_map(T, S, g, occ)
    for f in range(T.grp_dot.shape[0]):
        if T.grp_dot[f, h] == 0 and not T.grp_ext[f, h]:
            continue
        n_occ, n_live, n_tank = group_units(T, S, g, f, occ)
        if (n_live if live_only else n_occ) > 0:
            if T.grp_dot[f, h] > 0 or n_tank > 0:
                return True
    return False


@njit(cache=True)
def garrison_hexes(T, S, g, m):
    """14.4: m[H] = the position hexes where the U.S. player may place a garrison marker (one a
    decision, P_GARRISON; "major": in every one): within a CP's command range (board.cp_range: one
    under the US CP under fire event; none from a CP in a live field, 14.32), occupied by or next to
    a U.S. unit, in U.S. communication, in no field of fire of a Japanese unit, no garrison yet.
    Returns their count."""
    H = T.land.shape[0]
    NU = S.us_loc.shape[1]
    occ = np.empty(H, np.int16)
    jp_map(T, S, g, occ)
    reach = np.zeros(H, np.bool_)
    live = np.empty(H, np.int8)
    fire_map(T, S, g, occ, True, live)
    anycp = False
    for q in range(NU):
        if S.us_loc[g, q] == US_MAP and S.cp[g, q] >= 0 and live[S.us_hex[g, q]] == 0:  # 14.32
            command_reach(T, S, g, S.us_hex[g, q], cp_range(T, S, g, q, False), occ, reach)
            anycp = True
    if not anycp:
        return 0
    comm = np.empty(H, np.bool_)
    us_communication(T, S, g, comm)
    fm = np.empty(H, np.int8)
    fire_map(T, S, g, occ, False, fm)
    usn = np.empty(H, np.int16)
    us_count(T, S, g, usn)
    n = 0
    for p in range(T.pos_hex.shape[0]):
        h = T.pos_hex[p]
        if S.garrison[g, p] or T.pos_prov[p] or not reach[h] or not comm[h] or fm[h] > 0 or occ[h] >= 0:
            continue
        near = usn[h] > 0
        for d in range(6):
            x = T.nbr[h, d]
            if x >= 0 and usn[x] > 0:
                near = True
        if near:
            m[h] = True
            n += 1
    return n


@njit(cache=True)
def cp_eligible(T, S, g, u):
    """14.1 / 14.11: an HQ may become a CP where no potential field of fire reaches; a CP may
    revert."""
    if S.us_loc[g, u] != US_MAP or T.us_type[u] != REG_HQ:
        return False
    if S.cp[g, u] >= 0:
        return True
    h = S.us_hex[g, u]
    return jp_at(T, S, g, h) < 0 and not potential_fire(T, S, g, h)


@njit(cache=True)
def cp_may_advance(T, S, g, u):
    """14.2: unit u is an established CP whose range marker may move one box along the track (a
    decision, P_CP_RANGE; "major": always): not at the track's end, its hex in no field of fire of an
    occupied Japanese position (14.32)."""
    return S.us_loc[g, u] == US_MAP and S.cp[g, u] >= 0 and S.cp[g, u] < T.command_track.shape[0] - 1 \
        and not occupied_fire(T, S, g, S.us_hex[g, u], False)


# ------------------------------------------------------------------------------- Action Phase (7)


@njit(cache=True)
def start_actions(T, S, g):
    set_command(T, S, g, night(T, S, g))
    S.actions_left[g] = 2
    S.cancels[g] = 0
    S.hq_moved[g] = 0
    for u in range(S.us_loc.shape[1]):
        S.us_acted[g, u] = False
        S.us_from[g, u] = -1
        S.att_units[g, u] = False
        S.us_start[g, u] = S.us_hex[g, u] if S.us_loc[g, u] == US_MAP else -1
    for j in range(S.jp_attacked.shape[1]):
        S.jp_attacked[g, j] = False
        S.jp_barraged[g, j] = False
    S.sel[g] = -1
    S.order[g] = -1
    S.target[g] = -1
    S.att_marker[g] = -1


@njit(cache=True)
def can_act_on(T, S, g, u, occ):
    """7.2: unit u may still act (on the map, not acted, not disrupted, not in a close combat hex);
    occ from jp_map."""
    return S.us_loc[g, u] == US_MAP and not S.us_acted[g, u] and S.us_dis[g, u] == 0 and occ[S.us_hex[g, u]] < 0


@njit(cache=True)
def cost_of(T, S, g, units):
    """7.21: each hex's units acting together cost one action (none when all are free)."""
    H = T.land.shape[0]
    charged = np.zeros(H, np.bool_)
    n = 0
    for u in range(S.us_loc.shape[1]):
        if units[u] and not is_free(T, S, g, u):
            h = S.us_hex[g, u]
            if not charged[h]:
                charged[h] = True
                n += 1
    return n


@njit(cache=True)
def cost_if_joined(T, S, g, units, v, base):
    """cost_of(units + v) from base = cost_of(units)."""
    if is_free(T, S, g, v):
        return base
    h = S.us_hex[g, v]
    for u in range(S.us_loc.shape[1]):
        if units[u] and S.us_hex[g, u] == h and not is_free(T, S, g, u):
            return base
    return base + 1


@njit(cache=True)
def infantryish(T, u):
    t = T.us_type[u]
    return t == INF or t == HEAVY or t == INF_HQ or t == ENG


@njit(cache=True)
def stop_hex(T, S, g, h, live, occ):
    """7.31: a move ends on entering an intense dot of a live position, a hex next to a Japanese
    unit, or mountain, coral or jungle."""
    if live[h] == INTENSE:
        return True
    if T.t_stop[T.terrain[h]] and not T.opts[OPT_BNR]:
        return True
    for d in range(6):
        x = T.nbr[h, d]
        if x >= 0 and occ[x] >= 0:
            return True
    return False


@njit(cache=True)
def enterable(T, S, g, u, a, d, occ):
    x = T.nbr[a, d]
    if x < 0 or not T.in_play[x] or not T.land[x] or occ[x] >= 0:
        return -1
    if T.t_no_entry[T.terrain[x], T.us_type[u]]:
        return -1
    return x


@njit(cache=True)
def move_targets(T, S, g, u, out, free_only):
    """move_targets_on with the board's maps worked out here."""
    H = T.land.shape[0]
    occ = np.empty(H, np.int16)
    live = np.empty(H, np.int8)
    board_maps(T, S, g, occ, live)
    return move_targets_on(T, S, g, u, out, free_only, occ, live)


@njit(cache=True)
def move_targets_on(T, S, g, u, out, free_only, occ, live):
    """7.3: hexes unit u may move to (1-3 hexes, stopping per 7.31, cliffs per 7.32; one hex at
    night, 16.0); ``free_only``: only the free preservation move (7.35).  out[h] = 1 a move, 2 a
    move that is an infiltration (7.33), 3 a cliff crossing, 4 (an HQ) an infiltration it may make
    only with a regular unit (7.33, as the partner of its move: partner_mask; not counted in the
    number returned, the unit's own destinations)."""
    return move_targets_with(T, S, g, u, out, free_only, occ, live, move_scratch(T))


@njit(cache=True)
def move_scratch(T):
    """int32[4, H], move_targets_with's working rows: each hex's distance (99 while not reached),
    two fronts, the hexes reached."""
    scratch = np.empty((4, T.land.shape[0]), np.int32)
    scratch[0, :] = 99
    return scratch


@njit(cache=True)
def move_targets_with(T, S, g, u, out, free_only, occ, live, scratch):
    """move_targets_on with its working rows given (move_scratch: a caller asking for the moves of
    many units allocates them once); they are as they were on return."""
    out[:] = 0
    a = S.us_hex[g, u]
    t = T.us_type[u]
    n = 0
    preservation = infantryish(T, u) and t != INF_HQ and T.beach_box[a] >= 0
    if (free_only and not preservation) or S.cp[g, u] >= 0:
        return 0  # 14.0: a command post may not move
    bnr_night = is_night(T, S, g)
    maxd = 1 if night(T, S, g) or free_only or bnr_night else 3  # 16.0, 18.21
    dist, front, nxt, reached = scratch[0], scratch[1], scratch[2], scratch[3]
    dist[a] = 0
    reached[0] = a
    n_reached = 1
    front[0] = a
    nf = 1
    for step in range(1, maxd + 1):
        m = 0
        for i in range(nf):
            h = front[i]
            for d in range(6):
                if T.cliff[h, d]:
                    continue
                x = enterable(T, S, g, u, h, d, occ)
                if x < 0 or dist[x] <= step:
                    continue
                dist[x] = step
                reached[n_reached] = x
                n_reached += 1
                kind = 1
                if step == 1 and infiltration(T, S, g, a, x, occ, live) >= 0:
                    if t == ART:
                        continue  # 7.33: artillery never
                    kind = 4 if t == REG_HQ or t == INF_HQ else 2  # 7.33: HQs not on their own
                if free_only and (T.beach_box[x] >= 0 or kind == 2 or kind == 4):
                    continue
                if bnr_night and not night_move_ok(T, S, g, u, x, occ):
                    continue
                if out[x] == 0:
                    out[x] = kind
                    if kind != 4:
                        n += 1
                if not stop_hex(T, S, g, x, live, occ):
                    nxt[m] = x
                    m += 1
        front, nxt = nxt, front
        nf = m
    for i in range(n_reached):
        dist[reached[i]] = 99
    if not free_only and not bnr_night:
        for d in range(6):
            if T.cliff[a, d]:
                x = enterable(T, S, g, u, a, d, occ)
                if x >= 0 and infantryish(T, u) and out[x] == 0:
                    out[x] = 3
                    n += 1
    return n


@njit(cache=True)
def infiltration(T, S, g, a, x, occ, live):
    """7.33: the fire group a move from a to x infiltrates past (both hexes next to and in the
    field of an occupied non-disrupted position), -1."""
    for d in range(6):
        y = T.nbr[a, d]
        if y < 0 or occ[y] < 0 or S.jp_dis[g, occ[y]]:
            continue
        p = T.hex_pos[y]
        if p < 0:
            continue
        f = T.pos_group[p]
        if T.dist[x, y] == 1 and T.grp_dot[f, a] > 0 and T.grp_dot[f, x] > 0:
            return f
    return -1


@njit(cache=True)
def unit_cost(T, S, g, u):
    return 0 if is_free(T, S, g, u) else 1


@njit(cache=True)
def board_maps(T, S, g, occ, live):
    """The Japanese unit in each hex and the live fields of fire, worked out once per decision."""
    jp_map(T, S, g, occ)
    fire_map(T, S, g, occ, True, live)


@njit(cache=True)
def may_move(T, S, g, u, occ, live):
    """move_targets(...) > 0 from the first steps alone: any destination starts with a legal first
    hex (a paid move when the actions allow, else the free preservation move, 7.35)."""
    a = S.us_hex[g, u]
    t = T.us_type[u]
    if S.cp[g, u] >= 0:
        return False  # 14.0: a command post may not move
    if is_night(T, S, g):
        buf = np.zeros(T.land.shape[0], np.int8)
        return move_targets_on(T, S, g, u, buf, False, occ, live) > 0  # 18.21
    paid = unit_cost(T, S, g, u) <= S.actions_left[g]
    preservation = infantryish(T, u) and t != INF_HQ and T.beach_box[a] >= 0
    if not paid and not preservation:
        return False
    # an infiltration (7.33) starts next to an occupied, non-disrupted position
    watched = False
    for d in range(6):
        y = T.nbr[a, d]
        if y >= 0 and occ[y] >= 0 and not S.jp_dis[g, occ[y]] and T.hex_pos[y] >= 0:
            watched = True
    for d in range(6):
        x = enterable(T, S, g, u, a, d, occ)
        if x < 0:
            continue
        if T.cliff[a, d]:
            if paid and infantryish(T, u):
                return True
            continue
        inf = watched and infiltration(T, S, g, a, x, occ, live) >= 0
        if inf and (t == ART or t == REG_HQ or t == INF_HQ):
            continue
        if paid:
            return True
        if preservation and not inf and T.beach_box[x] < 0:
            return True
    return False


@njit(cache=True)
def in_range(T, S, g, u, h):
    """8.11: within the unit's range (8.1: infantry range fire not through jungle or mountain)."""
    a = S.us_hex[g, u]
    d = T.dist[a, h]
    r = T.us_range[u, S.us_steps[g, u]]
    if d <= 1:
        return True
    if r <= 1 or d > r:
        return False
    if night(T, S, g):
        return False  # 16.0: no ranged fire
    t = T.us_type[u]
    if t == INF or t == HEAVY:
        open_line = False
        for k in range(6):
            y = T.nbr[a, k]
            if y >= 0 and T.dist[y, h] == 1 and T.terrain[y] != JUNGLE and T.terrain[y] != MOUNTAIN:
                open_line = True
        return open_line
    return True


@njit(cache=True)
def attackable(T, S, g, h, occ):
    """8.0, 8.31, 8.43: a Japanese-occupied hex with no U.S. unit, not yet attacked or barraged."""
    return occ[h] >= 0 and not S.jp_attacked[g, occ[h]] and not S.jp_barraged[g, occ[h]] \
        and us_steps_in_hex(T, S, g, h) == 0


@njit(cache=True)
def may_join_attack(T, S, g, u, h, occ, live):
    """8.1: unit u may take part in an attack on h (its own conditions; the attack's are at RESOLVE)."""
    if not can_act_on(T, S, g, u, occ) or S.att_units[g, u]:
        return False
    t = T.us_type[u]
    if t == REG_HQ:
        return False  # 8.13
    d = T.dist[S.us_hex[g, u], h]
    if d == 1 and across_blocked(T, S, g, S.us_hex[g, u], h):
        # 19.2: across an impassable hexside only an infantry unit capable of ranged fire (enabled
        # by another attacker across an open side: attack_valid)
        return (t == INF or t == HEAVY) and T.us_range[u, S.us_steps[g, u]] >= 2
    if t == INF_HQ or t == ENG:
        return d == 1
    if t == INF or t == HEAVY:
        return in_range(T, S, g, u, h)
    if t == TANK or t == AMTANK:
        return T.us_range[u, S.us_steps[g, u]] >= d and (d == 1 or not night(T, S, g))
    if t == ART:
        if d > T.us_range[u, S.us_steps[g, u]] or night(T, S, g) or not S.us_cmd[g, u]:
            return False
        return live[S.us_hex[g, u]] == 0
    return False


@njit(cache=True)
def attacking_infantry(T, S, g, u):
    """Unit u is an infantry, heavy weapons or infantry/HQ unit of the attack being declared."""
    t = T.us_type[u]
    return S.att_units[g, u] and (t == INF or t == HEAVY or t == INF_HQ)


@njit(cache=True)
def attack_valid(T, S, g, h):
    """8.1: at least one adjacent infantry / infantry-HQ / engineer attacker; tanks and artillery
    meet their conditions; a marker needs an attacking infantry unit with a radio or in command."""
    NU = S.us_loc.shape[1]
    core = False
    for u in range(NU):
        if S.att_units[g, u]:
            a = S.us_hex[g, u]
            if infantryish(T, u) and T.dist[a, h] == 1 and not across_blocked(T, S, g, a, h):
                core = True  # 19.2: across an open hexside
    if not core:
        return False
    inf_cmd = radio_in_attack(T, S, g, h)
    for u in range(NU):
        if not S.att_units[g, u]:
            continue
        t = T.us_type[u]
        a = S.us_hex[g, u]
        if t == TANK or t == AMTANK:
            ok = T.dist[a, h] == 1 or S.us_cmd[g, u] or inf_cmd
            for v in range(NU):  # an attacking infantry unit in its hex or next to it
                if not ok and attacking_infantry(T, S, g, v) and T.dist[S.us_hex[g, v], a] <= 1:
                    ok = True
            if not ok:
                return False
        elif t == ART:
            ok = False
            for v in range(NU):  # a regimental HQ (or CP) commanding the artillery and an attacking infantry unit
                if S.att_units[g, v] and (T.us_type[v] == INF or T.us_type[v] == HEAVY) and S.us_cmd[g, v] \
                        and (T.opts[OPT_BNR] or (S.us_cmd_by[g, v] & S.us_cmd_by[g, u]) != 0):
                    ok = True
            if not ok:
                return False
    if S.att_marker[g] >= 0 and not inf_cmd:
        return False
    return True


@njit(cache=True)
def attack_targets(T, S, g, u, m, occ, live, stop_at_one):
    """Hexes unit u can open an attack on: in its reach, and an attack by u alone is valid or can be
    made valid by units able to join (completable; 8.1: an adjacent infantry-type attacker...)."""
    n = 0
    if not may_open_attack(T, S, g, u):
        return 0
    reach = max(1, T.us_range[u, S.us_steps[g, u]])
    a = S.us_hex[g, u]
    for j in range(S.jp_loc.shape[1]):
        if S.jp_loc[g, j] != JP_MAP or T.dist[a, S.jp_hex[g, j]] > reach:
            continue
        h = S.jp_hex[g, j]
        if attack_target_ok(T, S, g, u, h, occ, live):
            m[h] = True
            n += 1
            if stop_at_one:
                return n
    return n


@njit(cache=True)
def may_open_attack(T, S, g, u):
    """Unit u may open an attack this decision (the checks of attack_targets before its targets)."""
    if unit_cost(T, S, g, u) > S.actions_left[g]:
        return False  # u must act to take part (8.12)
    return not (is_night(T, S, g) or prep_morning(T, S, g))  # 18.21, 18.22: no attacks


@njit(cache=True)
def attack_target_ok(T, S, g, u, h, occ, live):
    """Unit u can open an attack on Japanese-occupied hex h in its reach (attack_targets, once
    may_open_attack): h attackable, u may take part, and the attack is valid with u or can be made
    valid by joiners (completable); att_units is as it was on return."""
    if not attackable(T, S, g, h, occ) or not may_join_attack(T, S, g, u, h, occ, live):
        return False
    NU = S.us_loc.shape[1]
    keep = np.empty(NU, np.bool_)
    for v in range(NU):
        keep[v] = S.att_units[g, v]
        S.att_units[g, v] = v == u
    ok = completable(T, S, g, h, occ, live)  # 8.1: valid with u, or made valid by joiners
    for v in range(NU):
        S.att_units[g, v] = keep[v]
    return ok


@njit(cache=True)
def barrage_ok(T, S, g, u, h, occ, live):
    """8.4: a tank or artillery unit in range of but not adjacent to a revealed Japanese-occupied
    hex with no U.S. unit; a tank in the target's field of fire or with an observer; artillery out
    of every live field of fire and in a regimental HQ's command.  None at night (16.0)."""
    j = occ[h]
    if j < 0 or S.jp_attacked[g, j]:
        return False
    a = S.us_hex[g, u]
    d = T.dist[a, h]
    t = T.us_type[u]
    if d <= 1 or d > T.us_range[u, S.us_steps[g, u]]:
        return False  # (checked first: most targets are out of range)
    if night(T, S, g) or is_night(T, S, g):
        return False
    morning = prep_morning(T, S, g)
    if us_steps_in_hex(T, S, g, h) > 0:
        return False
    if not morning and not target_revealed(T, S, g, j, h):
        return False
    if t == ART:
        return S.us_cmd[g, u] and live[a] == 0
    if t != TANK and t != AMTANK:
        return False
    p = T.hex_pos[h]
    if p < 0:
        return False
    if morning:
        return True  # 18.22: no U.S. unit in the field needed
    f = T.pos_group[p]
    if T.grp_dot[f, a] > 0:
        return True
    for v in range(S.us_loc.shape[1]):  # an observer (not an action)
        if S.us_loc[g, v] == US_MAP and S.us_dis[g, v] == 0 and infantryish(T, v) and T.us_type[v] != INF_HQ \
                and T.grp_dot[f, S.us_hex[g, v]] > 0 and (S.us_cmd[g, v] or S.us_cmd[g, u]):
            return True
    return False


@njit(cache=True)
def target_revealed(T, S, g, j, h):
    """8.4 / 18.31: the Japanese unit in h is revealed, or (BNR) its fortification marker."""
    if S.jp_rev[g, j]:
        return True
    if T.opts[OPT_BNR]:
        f = fort_at(T, S, g, h)
        return f >= 0 and S.jp_rev[g, f]
    return False


@njit(cache=True)
def barrage_targets(T, S, g, u, m, occ, live, stop_at_one):
    n = 0
    t = T.us_type[u]
    if (t != TANK and t != AMTANK and t != ART) or unit_cost(T, S, g, u) > S.actions_left[g]:
        return 0
    for j in range(S.jp_loc.shape[1]):
        if S.jp_loc[g, j] != JP_MAP:
            continue
        h = S.jp_hex[g, j]
        if barrage_ok(T, S, g, u, h, occ, live):
            m[h] = True
            n += 1
            if stop_at_one:
                return n
    return n


@njit(cache=True)
def marker_targets(T, S, g, m, occ):
    """8.52: a revealed target with an undisrupted U.S. infantry unit with a radio or in command
    in its field of fire.  None at night (16.0)."""
    if night(T, S, g) or is_night(T, S, g):
        return 0
    H = T.land.shape[0]
    if prep_morning(T, S, g):
        return morning_targets(T, S, g, m, occ)
    usn = np.zeros(H, np.int16)
    spotter = np.zeros(H, np.bool_)
    for v in range(S.us_loc.shape[1]):
        if S.us_loc[g, v] != US_MAP:
            continue
        x = S.us_hex[g, v]
        usn[x] += 1
        t = T.us_type[v]
        if S.us_dis[g, v] == 0 and (t == INF or t == HEAVY or t == INF_HQ) \
                and (S.us_cmd[g, v] or (weapons_of(T, S, g, v, 1) & W_RD)):
            spotter[x] = True
    n = 0
    for j in range(S.jp_loc.shape[1]):
        if S.jp_loc[g, j] != JP_MAP:
            continue
        h = S.jp_hex[g, j]
        if not target_revealed(T, S, g, occ[h], h) or S.jp_attacked[g, occ[h]] or usn[h] > 0:
            continue
        p = T.hex_pos[h]
        if p < 0:
            continue
        f = T.pos_group[p]
        for k in range(T.grp_nhex[f]):
            if spotter[T.grp_hexes[f, k]]:
                m[h] = True
                n += 1
                break
    return n


@njit(cache=True)
def morning_targets(T, S, g, m, occ):
    """18.22: any Japanese-occupied position without U.S. units, revealed or not."""
    n = 0
    for p in range(T.pos_hex.shape[0]):
        h = T.pos_hex[p]
        if occ[h] >= 0 and not S.jp_attacked[g, occ[h]] and us_steps_in_hex(T, S, g, h) == 0:
            m[h] = True
            n += 1
    return n


@njit(cache=True)
def bonus_left(T, S, g, marker):
    """18.22: the free naval barrage (0) / Dauntless airstrike (1) of a preparation morning."""
    return prep_morning(T, S, g) and (S.bonus[g] & (1 << marker)) == 0


@njit(cache=True)
def enter_targets(T, S, g, u, m, occ):
    """7.4: a revealed enemy hex next to where an infantry, infantry/HQ or engineer unit began the
    phase, not attacked this phase."""
    if not infantryish(T, u) or unit_cost(T, S, g, u) > S.actions_left[g]:
        return 0
    if is_night(T, S, g) or prep_morning(T, S, g):
        return 0  # 18.21, 18.22
    a = S.us_hex[g, u]
    if S.us_start[g, u] != a:
        return 0
    n = 0
    for d in range(6):
        h = T.nbr[a, d]
        if h < 0:
            continue
        j = occ[h]
        if j < 0 or not target_revealed(T, S, g, j, h) or S.jp_attacked[g, j] or across_blocked(T, S, g, a, h):
            continue  # 7.4; 18.31: a revealed fortification; 19.2: not across an impassable side
        m[h] = True
        n += 1
    return n


@njit(cache=True)
def order_ok(T, S, g, u, o, occ, live, scratch):
    if o != O_MOVE and is_night(T, S, g):
        return False  # 18.21: the movement action only
    if o == O_MOVE:
        return may_move(T, S, g, u, occ, live)
    if o == O_ATTACK:
        return attack_targets(T, S, g, u, scratch, occ, live, True) > 0
    if o == O_BARRAGE:
        return barrage_targets(T, S, g, u, scratch, occ, live, True) > 0
    if o == O_ENTER:
        return enter_targets(T, S, g, u, scratch, occ) > 0
    return False


@njit(cache=True)
def select_mask(T, S, g, m, H):
    NU = S.us_loc.shape[1]
    occ = np.empty(H, np.int16)
    live = np.empty(H, np.int8)
    board_maps(T, S, g, occ, live)
    scratch = np.zeros(H, np.bool_)
    for u in range(NU):
        if S.us_loc[g, u] != US_MAP or S.us_acted[g, u] or S.us_dis[g, u] != 0 or occ[S.us_hex[g, u]] >= 0:
            continue  # can_act_on
        for o in range(4):
            if order_ok(T, S, g, u, o, occ, live, scratch):
                m[H + UNIT_0 + u] = True
                break
    naval = S.naval[g] > 0 or bonus_left(T, S, g, 0)
    dauntless = S.dauntless[g] > 0 or bonus_left(T, S, g, 1)
    if (naval or dauntless) and marker_targets(T, S, g, scratch, occ) > 0:
        if naval:
            m[H + NAVAL] = True
        if dauntless:
            m[H + DAUNTLESS] = True
    m[H + END] = not orders_pending(T, S, g, occ, live)


@njit(cache=True)
def orders_pending(T, S, g, occ, live):
    """The Rupertus event: an Attack Orders position some unit can still attack or enter (END
    waits until each is carried out or none can be)."""
    if not T.opts[OPT_BNR]:
        return False
    H = T.land.shape[0]
    scratch = np.zeros(H, np.bool_)
    for p in range(T.pos_hex.shape[0]):
        if not order_open(T, S, g, p, occ):
            continue
        h = T.pos_hex[p]
        for u in range(S.us_loc.shape[1]):
            if S.us_loc[g, u] != US_MAP or S.us_acted[g, u] or S.us_dis[g, u] != 0 or occ[S.us_hex[g, u]] >= 0:
                continue
            if T.dist[S.us_hex[g, u], h] > max(1, T.us_range[u, S.us_steps[g, u]]):
                continue
            scratch[:] = False
            attack_targets(T, S, g, u, scratch, occ, live, False)
            enter_targets(T, S, g, u, scratch, occ)
            if scratch[h]:
                return True
    return False


@njit(cache=True)
def order_mask(T, S, g, u, m, H):
    occ = np.empty(H, np.int16)
    live = np.empty(H, np.int8)
    board_maps(T, S, g, occ, live)
    scratch = np.zeros(H, np.bool_)
    codes = (MOVE, ATTACK, BARRAGE, ENTER)
    for o in range(4):
        if order_ok(T, S, g, u, o, occ, live, scratch):
            m[H + codes[o]] = True
    m[H + NO] = True


@njit(cache=True)
def target_mask(T, S, g, m, H):
    """P_TARGET: the hexes the declared order may aim at; NO cancels."""
    occ = np.empty(H, np.int16)
    live = np.empty(H, np.int8)
    board_maps(T, S, g, occ, live)
    o = S.order[g]
    u = S.sel[g]
    if o == O_ATTACK:
        attack_targets(T, S, g, u, m, occ, live, False)
    elif o == O_BARRAGE:
        barrage_targets(T, S, g, u, m, occ, live, False)
    elif o == O_ENTER:
        enter_targets(T, S, g, u, m, occ)
    else:
        marker_targets(T, S, g, m, occ)
    m[H + NO] = True


@njit(cache=True)
def dest_mask(T, S, g, u, m, H):
    occ = np.empty(H, np.int16)
    live = np.empty(H, np.int8)
    board_maps(T, S, g, occ, live)
    kinds = np.empty(H, np.int8)
    destinations(T, S, g, u, kinds, occ, live, move_scratch(T))
    n = 0
    for h in range(H):
        if is_destination(kinds[h]):
            m[h] = True
            n += 1
    return n


@njit(cache=True)
def destinations(T, S, g, u, kinds, occ, live, scratch):
    """move_targets_with for the move unit u may make now: any move when it can pay for one (those
    hold every free move too, 7.35), else only the free preservation move; its destinations are
    the hexes h with is_destination(kinds[h]) (their number is returned)."""
    return move_targets_with(T, S, g, u, kinds, unit_cost(T, S, g, u) > S.actions_left[g], occ, live, scratch)


@njit(cache=True)
def is_destination(kind):
    """A move_targets_on entry that is a destination of the unit's own (4: an HQ's infiltration,
    only as a partner, 7.33; the free move has none)."""
    return kind > 0 and kind != 4


@njit(cache=True)
def partner_mask(T, S, g, u, m, H):
    """7.21: a second unit of the hex doing the same action (same destination / same hex to enter)."""
    buf = np.zeros(H, np.int8)
    occ = np.empty(H, np.int16)
    live = np.empty(H, np.int8)
    board_maps(T, S, g, occ, live)
    n = 0
    for v in range(S.us_loc.shape[1]):
        if v == u or not can_act_on(T, S, g, v, occ) or S.us_hex[g, v] != S.us_hex[g, u]:
            continue
        if cost_if_joined(T, S, g, S.att_units[g], v, cost_of(T, S, g, S.att_units[g])) > S.actions_left[g]:
            continue
        if S.order[g] == O_MOVE:
            move_targets_on(T, S, g, v, buf, False, occ, live)
            if buf[S.target[g]] == 0:
                continue  # (an HQ may join the infiltration of a regular unit, 4: 7.33)
        elif S.order[g] == O_ENTER:
            if not infantryish(T, v) or S.us_start[g, v] != S.us_hex[g, v]:
                continue
        m[H + UNIT_0 + v] = True
        n += 1
    m[H + NO] = True
    return n


@njit(cache=True)
def core_possible(T, S, g, h, occ, live):
    """8.1's first condition can still be met: an infantry-type unit adjacent to h across an open
    side (19.2) attacks or may join.  No other joiner can meet it, so completable is False without
    one (checked before completable's scan of every joiner)."""
    for v in range(S.us_loc.shape[1]):
        if S.us_loc[g, v] != US_MAP or not infantryish(T, v):
            continue
        a = S.us_hex[g, v]
        if T.dist[a, h] != 1 or across_blocked(T, S, g, a, h):
            continue
        if S.att_units[g, v] or may_join_attack(T, S, g, v, h, occ, live):
            return True
    return False


@njit(cache=True)
def in_hexes(hexes, n, h):
    """Hex h is among the first n entries of ``hexes``."""
    for i in range(n):
        if hexes[i] == h:
            return True
    return False


@njit(cache=True)
def add_hex(hexes, n, h):
    """Hex h added to the first n entries of ``hexes`` unless there: the new count."""
    if in_hexes(hexes, n, h):
        return n
    hexes[n] = h
    return n + 1


@njit(cache=True)
def completable(T, S, g, h, occ, live):
    """8.1 across the join decisions: the attack on h by the units in att_units is valid, or can be
    made valid by units that may still join within the actions left (README, "Decisions and
    actions": no declaration may reach a point where neither RESOLVE nor a joiner is legal).
    Only infantry-type joiners can meet a condition of 8.1 (the adjacent attacker, a tank's or an
    artillery unit's supporting infantry, a marker's radio or command); tanks and artillery only
    add conditions.  So every free infantry-type joiner is added (and those in a hex already paid
    for, 7.21), then the others hex by hex, as many hexes as actions are left; att_units is as it
    was on return."""
    if attack_valid(T, S, g, h):
        return True
    NU = S.us_loc.shape[1]
    if not core_possible(T, S, g, h, occ, live):
        return False
    charged = np.empty(NU, np.int64)  # the hexes already paid for (7.21), n_charged of them
    n_charged = 0
    for u in range(NU):
        if S.att_units[g, u] and not is_free(T, S, g, u):
            n_charged = add_hex(charged, n_charged, S.us_hex[g, u])
    budget = S.actions_left[g] - cost_of(T, S, g, S.att_units[g])
    added = np.zeros(NU, np.bool_)
    paid_unit = np.zeros(NU, np.bool_)  # infantry-type joiners that cost an action
    hexes = np.empty(NU, np.int64)      # their hexes, n of them
    n = 0
    for v in range(NU):
        if infantryish(T, v) and may_join_attack(T, S, g, v, h, occ, live):
            if is_free(T, S, g, v) or in_hexes(charged, n_charged, S.us_hex[g, v]):
                added[v] = True
                S.att_units[g, v] = True
            else:
                paid_unit[v] = True
                n = add_hex(hexes, n, S.us_hex[g, v])
    ok = attack_valid(T, S, g, h)
    k = min(budget, n, 2)  # more infantry never breaks a condition: sets of k paid hexes suffice
    trial = np.zeros(NU, np.bool_)
    for i in range(n if not ok and k > 0 else 0):
        for i2 in (range(i + 1, n) if k == 2 else range(i, i + 1)):
            for v in range(NU):
                trial[v] = paid_unit[v] and (S.us_hex[g, v] == hexes[i] or S.us_hex[g, v] == hexes[i2])
                if trial[v]:
                    S.att_units[g, v] = True
            ok = attack_valid(T, S, g, h)
            for v in range(NU):
                if trial[v]:
                    S.att_units[g, v] = False
            if ok:
                break
        if ok:
            break
    for v in range(NU):
        if added[v]:
            S.att_units[g, v] = False
    return ok


@njit(cache=True)
def radio_in_attack(T, S, g, h):
    """8.51: an attacking infantry unit has a radio or is in command of an HQ."""
    for u in range(S.us_loc.shape[1]):
        if attacking_infantry(T, S, g, u) \
                and (S.us_cmd[g, u] or (weapons_of(T, S, g, u, T.dist[S.us_hex[g, u], h]) & W_RD)):
            return True
    return False


@njit(cache=True)
def join_mask(T, S, g, m, H):
    """8.1: units that can still join the attack within the two actions and leave it completable;
    markers; RESOLVE when the attack is valid; NO cancels."""
    h = S.target[g]
    occ = np.empty(H, np.int16)
    live = np.empty(H, np.int8)
    board_maps(T, S, g, occ, live)
    base = cost_of(T, S, g, S.att_units[g])
    for v in range(S.us_loc.shape[1]):
        if may_join_attack(T, S, g, v, h, occ, live) \
                and cost_if_joined(T, S, g, S.att_units[g], v, base) <= S.actions_left[g]:
            S.att_units[g, v] = True
            m[H + UNIT_0 + v] = completable(T, S, g, h, occ, live)  # never a dead end (completable)
            S.att_units[g, v] = False
    if S.att_marker[g] < 0 and not night(T, S, g) and radio_in_attack(T, S, g, h):
        if S.naval[g] > 0:
            m[H + NAVAL] = True
        if S.dauntless[g] > 0:
            m[H + DAUNTLESS] = True
    if attack_valid(T, S, g, h):
        m[H + RESOLVE] = True
    m[H + NO] = True


@njit(cache=True)
def execute_move(T, S, g):
    """Carry out the declared move of the units in att_units to S.target: an infiltration draws a
    fire card (7.33: the colour of the position and the unit's symbol cost a step); crossing a
    cliff disrupts (7.32).  Returns True when the infiltration choice (complete or stay) is due."""
    H = T.land.shape[0]
    NU = S.us_loc.shape[1]
    x = S.target[g]
    u0 = S.sel[g]
    a = S.us_hex[g, u0]
    occ = np.empty(H, np.int16)
    live = np.empty(H, np.int8)
    board_maps(T, S, g, occ, live)
    S.actions_left[g] -= cost_of_move(T, S, g, a, x, occ, live)
    kinds = np.zeros(H, np.int8)
    move_targets_on(T, S, g, u0, kinds, False, occ, live)
    cliff = kinds[x] == 3  # only a move across the cliff itself (7.32)
    f = infiltration(T, S, g, a, x, occ, live) if T.dist[a, x] == 1 else -1
    for u in range(NU):
        if S.att_units[g, u]:
            S.us_acted[g, u] = True
    lost = False
    if f >= 0:
        for u in range(NU):
            if S.att_units[g, u]:
                emit(S, g, ev.INFILTRATES, u, a, x, f)
    if f >= 0 and not night(T, S, g) and not infiltration_shielded(T, S, g, a, x, f):
        any_check = False
        for u in range(NU):
            if S.att_units[g, u] and T.us_type[u] != TANK and T.us_type[u] != AMTANK:
                any_check = True
        if any_check:
            c = draw(T, S, g, PILE_TRACK)
            emit(S, g, ev.CARD_DRAWN, c, ev.FOR_INFILTRATION)
            if c >= 0 and (T.card_colour[c, 0] == T.grp_colour[f] or T.card_colour[c, 1] == T.grp_colour[f]
                           or T.card_colour[c, 2] == T.grp_colour[f]):
                for u in range(NU):
                    if S.att_units[g, u] and T.us_type[u] != TANK and T.us_type[u] != AMTANK \
                            and T.us_symbol[u] == T.card_symbol[c] and T.us_symbol[u] != STAR:
                        step_loss(T, S, g, u)
                        lost = True
    if lost:
        for u in range(NU):
            if S.att_units[g, u] and S.us_loc[g, u] == US_MAP:
                return True  # 7.33: complete the move or stay
        clear_order(T, S, g)  # the infiltrating units are gone
        return False
    finish_move(T, S, g, cliff)
    return False


@njit(cache=True)
def infiltration_shielded(T, S, g, a, x, f):
    """19.2: no step loss for an infiltration from or into a hex separated from the adjacent
    fortified position by a side its marker makes impassable."""
    if not T.opts[OPT_BNR]:
        return False
    for k in range(2):
        p = T.grp_members[f, k]
        if p < 0:
            continue
        y = T.pos_hex[p]
        if (T.dist[a, y] == 1 and across_blocked(T, S, g, a, y)) or (T.dist[x, y] == 1 and across_blocked(T, S, g, x, y)):
            return True
    return False


@njit(cache=True)
def cost_of_move(T, S, g, a, x, occ, live):
    """The actions a move costs: none for a preservation move (7.35) or free units; occ and live
    from board_maps."""
    NU = S.us_loc.shape[1]
    c = cost_of(T, S, g, S.att_units[g])
    if c == 0:
        return 0
    if T.beach_box[a] < 0 or T.beach_box[x] >= 0 or T.dist[a, x] != 1:
        return c
    for u in range(NU):
        if S.att_units[g, u] and not is_free(T, S, g, u):
            t = T.us_type[u]
            if not (t == INF or t == HEAVY or t == ENG):
                return c
    if infiltration(T, S, g, a, x, occ, live) >= 0:
        return c
    return 0


@njit(cache=True)
def finish_move(T, S, g, cliff):
    x = S.target[g]
    for u in range(S.us_loc.shape[1]):
        if S.att_units[g, u] and S.us_loc[g, u] == US_MAP:
            emit(S, g, ev.MOVE, u, S.us_hex[g, u], x)
            S.us_hex[g, u] = x
            if cliff:
                S.us_dis[g, u] = DIS_NEW  # 7.32
                emit(S, g, ev.DISRUPTED, u)
    p = T.hex_pos[x]
    if p >= 0 and T.pos_art[p] and not S.art_gone[g, p]:
        S.art_gone[g, p] = True  # 6.51: moved into, so occupied solely by U.S. units
        emit(S, g, ev.ART_DESTROYED, x)
    hqs_moved(T, S, g)
    mark_auf(T, S, g, S.att_units[g], -1)
    reveal_forts(T, S, g)
    clear_order(T, S, g)


@njit(cache=True)
def hqs_moved(T, S, g):
    """7.34: the HQs among the units moving (a move, or an infantry/HQ entering an enemy hex, 7.4)
    give no more free actions this phase."""
    for u in range(S.us_loc.shape[1]):
        if S.att_units[g, u] and (T.us_type[u] == REG_HQ or T.us_type[u] == INF_HQ):
            S.hq_moved[g] |= np.int64(1) << u


@njit(cache=True)
def clear_order(T, S, g):
    for u in range(S.us_loc.shape[1]):
        S.att_units[g, u] = False
    S.sel[g] = -1
    S.order[g] = -1
    S.target[g] = -1
    S.att_marker[g] = -1


@njit(cache=True)
def execute_enter(T, S, g):
    """7.4: the units move into the enemy hex; the close combat comes after all actions."""
    x = S.target[g]
    S.actions_left[g] -= cost_of(T, S, g, S.att_units[g])
    for u in range(S.us_loc.shape[1]):
        if S.att_units[g, u]:
            S.us_acted[g, u] = True
            S.us_from[g, u] = S.us_hex[g, u]
            emit(S, g, ev.ENTERS, u, S.us_hex[g, u], x)
            S.us_hex[g, u] = x
    hqs_moved(T, S, g)
    mark_auf(T, S, g, S.att_units[g], -1)
    clear_order(T, S, g)


@njit(cache=True)
def execute_barrage(T, S, g):
    """8.4, 8.5 (18.22: the morning's bonus naval barrage and Dauntless airstrike cost no marker).
    Returns True when a fortification reduction leaves the turning to the player (19.4)."""
    u = S.sel[g]
    if S.order[g] == O_NAVAL or S.order[g] == O_DAUNTLESS:
        marker = 0 if S.order[g] == O_NAVAL else 1
        if bonus_left(T, S, g, marker):
            S.bonus[g] |= 1 << marker
        elif marker == 0:
            S.naval[g] -= 1
        else:
            S.dauntless[g] -= 1
        tie = barrage(T, S, g, -1, marker, S.target[g])
    else:
        S.actions_left[g] -= 0 if is_free(T, S, g, u) else 1
        tie = barrage(T, S, g, u, -1, S.target[g])
        mark_auf(T, S, g, S.att_units[g], u)
    clear_order(T, S, g)
    return tie


@njit(cache=True)
def end_disruption(T, S, g):
    """7.6: units disrupted before the phase that took no action remove their markers."""
    for u in range(S.us_loc.shape[1]):
        if S.us_loc[g, u] == US_MAP and S.us_dis[g, u] != 0 and S.us_dis[g, u] != DIS_NEW \
                and not S.us_acted[g, u]:
            rally_us(T, S, g, u)


@njit(cache=True)
def new_disruption_ages(T, S, g):
    """At the end of the Action Phase every disruption counts as older (7.6's two shades)."""
    for u in range(S.us_loc.shape[1]):
        if S.us_dis[g, u] == DIS_NEW:
            S.us_dis[g, u] = 1


@njit(cache=True)
def step_add_mask(T, S, g, m, H, one_step_only):
    """Black Angels volunteer / Scattered platoon regroups: the eligible units (board.step_add_ok)."""
    n = 0
    for u in range(S.us_loc.shape[1]):
        if step_add_ok(T, S, g, u, one_step_only):
            m[H + UNIT_0 + u] = True
            n += 1
    return n
