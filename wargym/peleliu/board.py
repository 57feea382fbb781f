"""What the board says: who stands where, fields of fire, control, communication, command, weapons.

Functions of one game ``(T, S, g, ...)`` compiled with numba (wargym.kernel); none changes the state
except where named (``eliminate_us``, ``step_loss``, ``disrupt_us``, ``elim_jp``, ``reveal_jp``,
``disrupt_jp`` ...).  Those report what they change to the event log (eventlog.py: ``emit`` tests one
flag when the log is off).
"""

import numpy as np

from wargym.cards import draw_card
from wargym.events import emit
from wargym.jit import njit
from wargym.peleliu import eventlog as ev
from wargym.peleliu.scenario import AMTANK, CORAL, ENG, HEAVY, INF, INF_HQ, JUNGLE, MOUNTAIN, REG_HQ, STEADY, TANK, W_AR, W_FL
from wargym.peleliu.state import (
    DIS_NEW, DIS_OLD, DM_OUT, DM_POOL, DM_UNIT, HERO, INSPIRED, JP_ELIM, JP_MAP, JP_OUT, JP_RESERVE, OPT_BNR,
    PILE_DECK, PILE_DISCARD, US_BOX, US_ELIM, US_MAP,
)
from wargym.rng import shuffle, uniform


# ------------------------------------------------------------------------------------ occupancy
@njit(cache=True)
def jp_at(T, S, g, h):
    """The Japanese unit in hex h, -1 (at most one per hex: 9.0)."""
    for j in range(S.jp_loc.shape[1]):
        if S.jp_loc[g, j] == JP_MAP and S.jp_hex[g, j] == h:
            return j
    return -1


@njit(cache=True)
def jp_map(T, S, g, out):
    """out[H] = the Japanese unit in each hex, -1 (BNR: the unit before the fortification marker
    it shares its hex with, as jp_at)."""
    out[:] = -1
    loc, hexes = S.jp_loc[g], S.jp_hex[g]  # locals: the stores to out do not reload them (fire_map)
    for j in range(loc.shape[0] - 1, -1, -1):
        if loc[j] == JP_MAP:
            out[hexes[j]] = j


# ------------------------------------------------------------------- BNR fortifications (19.0)
@njit(cache=True)
def fort_at(T, S, g, h):
    """The fortification marker in hex h (BNR, 19.0), -1.  Markers are numbered after the units."""
    for j in range(S.jp_loc.shape[1] - 1, -1, -1):
        if not T.jp_fort[j]:
            return -1
        if S.jp_loc[g, j] == JP_MAP and S.jp_hex[g, j] == h:
            return j
    return -1


@njit(cache=True)
def unit_at(T, S, g, h):
    """The Japanese unit proper in hex h (not a fortification marker), -1."""
    j = jp_at(T, S, g, h)
    return j if j >= 0 and not T.jp_fort[j] else -1


@njit(cache=True)
def side_blocked(T, S, g, h, d):
    """19.2: the hexside of hex h in direction d is impassable (a revealed fortification marker in
    h, turned jp_rot sixths clockwise from the arrow pointing west, 19.1/19.4)."""
    if not T.opts[OPT_BNR]:
        return False
    f = fort_at(T, S, g, h)
    if f < 0 or not S.jp_rev[g, f]:
        return False
    return T.jp_blocked[f, (d - S.jp_rot[g, f]) % 6]


@njit(cache=True)
def across_blocked(T, S, g, a, h):
    """19.2: hexes a and h are adjacent across a side of h a fortification makes impassable."""
    if not T.opts[OPT_BNR]:
        return False
    for d in range(6):
        if T.nbr[h, d] == a:
            return side_blocked(T, S, g, h, d)
    return False


@njit(cache=True)
def reveal_forts(T, S, g):
    """19.1: a fortification marker is flipped face up, arrow to the west, when a U.S. unit is
    next to its position (checked after every U.S. move and placement)."""
    if not T.opts[OPT_BNR]:
        return
    for f in range(S.jp_loc.shape[1] - 1, -1, -1):
        if not T.jp_fort[f]:
            return
        if S.jp_loc[g, f] != JP_MAP or S.jp_rev[g, f]:
            continue
        h = S.jp_hex[g, f]
        for u in range(S.us_loc.shape[1]):
            if S.us_loc[g, u] == US_MAP and T.dist[h, S.us_hex[g, u]] == 1:
                S.jp_rev[g, f] = True
                S.jp_rot[g, f] = 0
                emit(S, g, ev.FORT_REVEALED, f, h)
                break


@njit(cache=True)
def remove_fort(T, S, g, f):
    """19.2 / 18.42: a fortification marker goes back to the cup face down (a depth marker left
    alone with it leaves play)."""
    d = S.jp_depth[g, f]
    if d >= 0:
        S.dm_loc[g, d] = DM_OUT
        S.jp_depth[g, f] = -1
    S.jp_loc[g, f] = JP_RESERVE
    S.jp_hex[g, f] = -1
    S.jp_rev[g, f] = False
    S.jp_dis[g, f] = False
    S.jp_rot[g, f] = 0


@njit(cache=True)
def draw_fort(T, S, g):
    """A random fortification marker from the cup (19.4), -1."""
    n = 0
    for j in range(S.jp_loc.shape[1]):
        if T.jp_fort[j] and S.jp_loc[g, j] == JP_RESERVE:
            n += 1
    if n == 0:
        return -1
    k = uniform(S, g, n)
    for j in range(S.jp_loc.shape[1]):
        if T.jp_fort[j] and S.jp_loc[g, j] == JP_RESERVE:
            if k == 0:
                return j
            k -= 1
    return -1


@njit(cache=True)
def us_count(T, S, g, out):
    """out[H] = U.S. units on the map in each hex (regimental HQs included)."""
    out[:] = 0
    loc, hexes = S.us_loc[g], S.us_hex[g]
    for u in range(loc.shape[0]):
        if loc[u] == US_MAP:
            out[hexes[u]] += 1


@njit(cache=True)
def us_in_hex(T, S, g, h):
    n = 0
    for u in range(S.us_loc.shape[1]):
        if S.us_loc[g, u] == US_MAP and S.us_hex[g, u] == h:
            n += 1
    return n


@njit(cache=True)
def us_steps_in_hex(T, S, g, h):
    n = 0
    for u in range(S.us_loc.shape[1]):
        if S.us_loc[g, u] == US_MAP and S.us_hex[g, u] == h:
            n += S.us_steps[g, u]
    return n


@njit(cache=True)
def stack_count(T, S, g, h):
    """7.51: units counting against stacking in hex h (not regimental HQs, heroes, garrisons)."""
    n = 0
    for u in range(S.us_loc.shape[1]):
        if S.us_loc[g, u] == US_MAP and S.us_hex[g, u] == h and T.us_type[u] != REG_HQ:
            n += 1
    return n


@njit(cache=True)
def empty_position(T, S, g, p):
    """Position p holds no Japanese unit, no U.S. unit and no garrison (9.32, 9.4, 12.4)."""
    h = T.pos_hex[p]
    return jp_at(T, S, g, h) < 0 and us_in_hex(T, S, g, h) == 0 and not S.garrison[g, p]


@njit(cache=True)
def us_occupied_pos(T, S, g, p):
    """A position hex occupied by a U.S. unit or a garrison (14.41)."""
    return S.garrison[g, p] or us_in_hex(T, S, g, T.pos_hex[p]) > 0


@njit(cache=True)
def nearest_us(T, S, g, h):
    """Hexes from h to the nearest U.S. unit on the map (a big number when none)."""
    best = 9999
    for u in range(S.us_loc.shape[1]):
        if S.us_loc[g, u] == US_MAP:
            d = T.dist[h, S.us_hex[g, u]]
            if d < best:
                best = d
    return best


@njit(cache=True)
def nearest_beach(T, h):
    """Hexes from h to the nearest landing beach hex."""
    best = 9999
    for b in range(T.box_beach.shape[0]):
        for k in range(T.box_beach.shape[1]):
            x = T.box_beach[b, k]
            if x >= 0 and T.dist[h, x] < best:
                best = T.dist[h, x]
    return best


@njit(cache=True)
def row_of(T, h):
    """The hex's row (a bigger row is further south): hexes are numbered column-major."""
    # dense index = (column - 1) * rows + (row - 1); rows = H / columns is not stored, use the S neighbour walk
    r = 0
    x = h
    while T.nbr[x, 0] >= 0:
        x = T.nbr[x, 0]
        r += 1
    return r


@njit(cache=True)
def col_of(T, h):
    """The hex's column (a bigger column is further east)."""
    c = 0
    x = h
    while T.nbr[x, 5] >= 0 or T.nbr[x, 4] >= 0:
        x = T.nbr[x, 5] if T.nbr[x, 5] >= 0 else T.nbr[x, 4]
        c += 1
    return c


# -------------------------------------------------------------------------------- fields of fire
@njit(cache=True)
def group_units(T, S, g, f, occ):
    """(occupied hexes, non-disrupted units, of them tanks) of fire group f; occ from jp_map."""
    n_occ, n_live, n_tank = 0, 0, 0
    for k in range(2):
        p = T.grp_members[f, k]
        if p < 0:
            continue
        j = occ[T.pos_hex[p]]
        if j >= 0:
            n_occ += 1
            if not S.jp_dis[g, j]:
                n_live += 1
                if T.jp_tank[j]:
                    n_tank += 1
    return n_occ, n_live, n_tank


@njit(cache=True)
def dot(T, S, g, f, h, tank):
    """The dot group f projects into hex h (13.1: a tank adds steady fire one hex beyond)."""
    d = T.grp_dot[f, h]
    if d == 0 and tank and T.grp_ext[f, h]:
        return STEADY
    return d


@njit(cache=True)
def fire_map(T, S, g, occ, live_only, out):
    """out[H] = strongest dot any field of fire puts in each hex: of positions with a non-disrupted
    unit (``live_only``: 6.4, 7.31) or with any Japanese unit (11.31)."""
    out[:] = 0
    # the tables and the state as local arrays: read through the structs, each read after a store
    # to ``out`` loads the array's pointer and strides again (numba cannot tell they do not alias)
    hexes, dots, ext, nhex, n_ext = T.grp_hexes, T.grp_dot, T.grp_ext_hexes, T.grp_nhex, T.grp_next
    for f in range(dots.shape[0]):
        n_occ, n_live, n_tank = group_units(T, S, g, f, occ)
        if (n_live if live_only else n_occ) == 0:
            continue
        for k in range(nhex[f]):
            h = hexes[f, k]
            d = dots[f, h]
            if d > out[h]:
                out[h] = d
        if n_tank > 0:
            for k in range(n_ext[f]):
                h = ext[f, k]
                if out[h] < STEADY:
                    out[h] = STEADY


@njit(cache=True)
def in_field_of(T, S, g, f, h, occ):
    n_occ, n_live, n_tank = group_units(T, S, g, f, occ)
    if n_live == 0:
        return 0
    return dot(T, S, g, f, h, n_tank > 0)


# ----------------------------------------------------------------------------------------- control
@njit(cache=True)
def us_control(T, S, g, occ, own_hex_only, out):
    """11.1: out[H] = hexes controlled by U.S. units (garrisons and CPs control their own hex; a
    unit sharing its hex with a Japanese unit controls nothing: 11.11).  ``own_hex_only``: 16.0's
    night, every unit controls just its own hex."""
    out[:] = False
    NU = S.us_loc.shape[1]
    loc, hexes, steps_of, types, nbr = S.us_loc[g], S.us_hex[g], S.us_steps[g], T.us_type, T.nbr  # fire_map's note
    for p in range(S.garrison.shape[1]):
        if S.garrison[g, p]:
            out[T.pos_hex[p]] = True
    for u in range(NU):
        if loc[u] != US_MAP:
            continue
        h = hexes[u]
        if occ[h] >= 0:
            continue
        out[h] = True
        if own_hex_only:
            continue
        t = types[u]
        wide = (t == TANK or t == AMTANK) or ((t == INF or t == HEAVY) and steps_of[u] >= 3)
        if not wide and (t == INF or t == HEAVY or t == INF_HQ or t == ENG):
            # two infantry / infantry-HQ / engineer units stacked with three or more steps
            steps, n = 0, 0
            for v in range(NU):
                if loc[v] == US_MAP and hexes[v] == h:
                    tv = types[v]
                    if tv == INF or tv == HEAVY or tv == INF_HQ or tv == ENG:
                        steps += steps_of[v]
                        n += 1
            wide = n >= 2 and steps >= 3
        if wide:
            for d in range(6):
                x = nbr[h, d]
                if x >= 0:
                    out[x] = True


# ------------------------------------------------------------------------------- communication
@njit(cache=True)
def jp_communication(T, S, g, night, out):
    """11.2 (invasion): out[P] = each position hex can trace a path to at least two other
    Japanese-occupied positions (a group counts once).  The path avoids hexes occupied or controlled
    by U.S. units (a hex with a Japanese unit next to a U.S. unit is not controlled: 11.21), water,
    swamp off the roads and landing beach hexes; the position's own hex may be U.S.-controlled.
    16.0: at night U.S. units control only their own hexes."""
    H = T.land.shape[0]
    occ = np.empty(H, np.int16)
    jp_map(T, S, g, occ)
    usn = np.empty(H, np.int16)
    us_count(T, S, g, usn)
    ctrl = np.empty(H, np.bool_)
    us_control(T, S, g, occ, night, ctrl)
    if T.opts[OPT_BNR]:
        bnr_communication(T, S, g, occ, usn, ctrl, out)
        return
    passable = np.zeros(H, np.bool_)
    for h in range(H):
        if not T.in_play[h] or T.beach_box[h] >= 0:
            continue
        if not (T.t_comm[T.terrain[h]] or T.road[h]):
            continue
        if usn[h] > 0 and occ[h] < 0:
            continue
        if ctrl[h] and occ[h] < 0:
            continue
        passable[h] = True
    # components of the passable hexes
    comp = np.full(H, -1, np.int32)
    stack = np.empty(H, np.int32)
    nc = 0
    for s in range(H):
        if not passable[s] or comp[s] >= 0:
            continue
        comp[s] = nc
        top = 0
        stack[0] = s
        top = 1
        while top > 0:
            top -= 1
            h = stack[top]
            for d in range(6):
                x = T.nbr[h, d]
                if x >= 0 and passable[x] and comp[x] < 0:
                    comp[x] = nc
                    stack[top] = x
                    top += 1
        nc += 1
    F = T.grp_members.shape[0]
    # the components that hold each group's occupied positions (-1: none, or not passable)
    held = np.full((F, 2), -1, np.int32)
    for f in range(F):
        for k in range(2):
            q = T.grp_members[f, k]
            if q >= 0 and occ[T.pos_hex[q]] >= 0:
                held[f, k] = comp[T.pos_hex[q]]
    touch = np.empty(7, np.int32)
    for p in range(T.pos_hex.shape[0]):
        out[p] = False
        if T.pos_prov[p]:
            continue
        own = T.pos_group[p]
        h0 = T.pos_hex[p]
        # the components the start hex touches (itself if passable, else its passable neighbours)
        nt = 0
        if passable[h0]:
            touch[0] = comp[h0]
            nt = 1
        else:
            for d in range(6):
                x = T.nbr[h0, d]
                if x >= 0 and passable[x]:
                    touch[nt] = comp[x]
                    nt += 1
        found = 0
        for f in range(F):
            if f == own:
                continue
            hit = False
            for k in range(2):
                if held[f, k] < 0:
                    continue
                for t in range(nt):
                    if held[f, k] == touch[t]:
                        hit = True
            if hit:
                found += 1
                if found >= 2:
                    break
        out[p] = found >= 2


@njit(cache=True)
def bnr_communication(T, S, g, occ, usn, ctrl, out):
    """11.2, 18.36: a position in the Japanese Zone is in communication; one outside when a path
    of hexes free of U.S. units and U.S. control (11.21 applies) runs from it to a Japanese-occupied
    position in the zone."""
    H = T.land.shape[0]
    seen = np.zeros(H, np.bool_)
    stack = np.empty(H, np.int32)
    top = 0
    for p in range(T.pos_hex.shape[0]):
        h = T.pos_hex[p]
        if T.jp_zone[h] and occ[h] >= 0:
            seen[h] = True
            stack[top] = h
            top += 1
    while top > 0:
        top -= 1
        h = stack[top]
        for d in range(6):
            x = T.nbr[h, d]
            if x < 0 or seen[x] or not T.in_play[x]:
                continue
            seen[x] = True
            if usn[x] > 0 or (ctrl[x] and occ[x] < 0):
                continue  # the position's own hex may be U.S.-controlled: reached, not passed
            stack[top] = x
            top += 1
    for p in range(T.pos_hex.shape[0]):
        h = T.pos_hex[p]
        out[p] = not T.pos_prov[p] and (T.jp_zone[h] or seen[h])


@njit(cache=True)
def us_communication(T, S, g, out):
    """11.3: out[H] = a path of hexes runs from the hex to a landing beach hex through no hex
    occupied by, or in the field of fire of, a Japanese unit (11.31: even a disrupted one; an empty
    position has none).  The starting hex itself is exempt (interpretation: a unit in a field of
    fire still traces out of it)."""
    H = T.land.shape[0]
    if T.opts[OPT_BNR]:
        out[:] = True  # 18.36: U.S. units are always in communication
        return
    occ = np.empty(H, np.int16)
    jp_map(T, S, g, occ)
    fm = np.empty(H, np.int8)
    fire_map(T, S, g, occ, False, fm)
    clear = np.zeros(H, np.bool_)
    for h in range(H):
        clear[h] = T.in_play[h] and occ[h] < 0 and fm[h] == 0
    out[:] = False
    stack = np.empty(H, np.int32)
    top = 0
    for h in range(H):
        if T.beach_box[h] >= 0 and clear[h]:
            out[h] = True
            stack[top] = h
            top += 1
    reach = np.zeros(H, np.bool_)
    reach[:] = out
    while top > 0:
        top -= 1
        h = stack[top]
        for d in range(6):
            x = T.nbr[h, d]
            if x >= 0 and clear[x] and not reach[x]:
                reach[x] = True
                stack[top] = x
                top += 1
    for h in range(H):
        if reach[h]:
            out[h] = True
        elif T.in_play[h]:
            for d in range(6):
                x = T.nbr[h, d]
                if x >= 0 and reach[x]:
                    out[h] = True
                    break


# ----------------------------------------------------------------------------------------- command
@njit(cache=True)
def cp_range(T, S, g, u, night):
    """14.2/14.3: the command range of regimental HQ u: 1 as a unit, the track's box as a CP; one
    for the turn under the US CP under fire event; 0 at night (16.0); -1 when a CP is in the field
    of fire of a non-disrupted Japanese unit (14.32)."""
    if night:
        return 0
    if S.cp[g, u] < 0:
        return 1
    if S.cp_fire[g] == u:
        return 1
    return T.command_track[S.cp[g, u]]


@njit(cache=True)
def command_reach(T, S, g, src, rng, occ, out):
    """out[H] |= hexes within ``rng`` of ``src`` counted through hexes without Japanese units (14.31)."""
    H = T.land.shape[0]
    dist = np.full(H, 999, np.int16)
    dist[src] = 0
    out[src] = True
    frontier = np.empty(H, np.int32)
    frontier[0] = src
    n = 1
    for step in range(1, rng + 1):
        nxt = np.empty(H, np.int32)
        m = 0
        for i in range(n):
            h = frontier[i]
            for d in range(6):
                x = T.nbr[h, d]
                if x >= 0 and dist[x] > step and T.land[x]:
                    dist[x] = step
                    out[x] = True
                    if occ[x] < 0:
                        nxt[m] = x
                        m += 1
        frontier = nxt
        n = m


@njit(cache=True)
def set_command(T, S, g, night):
    """7.1, 10.21, 10.3, 14.3: which units are in command at the start of the Action Phase
    (us_cmd) and of which HQs (us_cmd_by: a bit per HQ's unit number, every regimental HQ or CP
    in range and every undisrupted infantry/HQ in the hex; 7.34 and 8.1 ask which)."""
    H = T.land.shape[0]
    NU = S.us_loc.shape[1]
    occ = np.empty(H, np.int16)
    jp_map(T, S, g, occ)
    live = np.empty(H, np.int8)
    fire_map(T, S, g, occ, True, live)
    for u in range(NU):
        S.us_cmd[g, u] = False
        S.us_cmd_by[g, u] = 0
    if T.opts[OPT_BNR]:
        for u in range(NU):
            S.us_cmd[g, u] = S.us_loc[g, u] == US_MAP  # 18.32: always in command, no HQ on the map
        return
    reach = np.zeros(H, np.bool_)
    for q in range(NU):
        if S.us_loc[g, q] != US_MAP or T.us_type[q] != REG_HQ:
            continue
        if occ[S.us_hex[g, q]] >= 0:
            continue
        r = cp_range(T, S, g, q, night)
        if S.cp[g, q] >= 0 and live[S.us_hex[g, q]] > 0:
            continue  # 14.32
        reach[:] = False
        command_reach(T, S, g, S.us_hex[g, q], r, occ, reach)
        for u in range(NU):
            if S.us_loc[g, u] == US_MAP and reach[S.us_hex[g, u]]:
                S.us_cmd[g, u] = True
                S.us_cmd_by[g, u] |= np.int64(1) << q
    for q in range(NU):  # 10.3: an undisrupted infantry/HQ commands infantry in its hex
        if S.us_loc[g, q] != US_MAP or T.us_type[q] != INF_HQ or S.us_dis[g, q] != 0:
            continue
        for u in range(NU):
            if (S.us_loc[g, u] == US_MAP and S.us_hex[g, u] == S.us_hex[g, q]
                    and (T.us_type[u] == INF or T.us_type[u] == HEAVY)):
                S.us_cmd[g, u] = True
                S.us_cmd_by[g, u] |= np.int64(1) << q


@njit(cache=True)
def is_free(T, S, g, u):
    """7.1: unit u acts for free (hero or inspired, disrupted, an HQ, in command of an HQ that has
    not moved: 7.34)."""
    t = T.us_type[u]
    if S.hero[g, u] > 0 or S.us_dis[g, u] != 0 or t == REG_HQ or t == INF_HQ:
        return True
    if S.us_cmd[g, u]:
        return T.opts[OPT_BNR] or (S.us_cmd_by[g, u] & ~S.hq_moved[g]) != 0
    return False


@njit(cache=True)
def regimental_command(T, S, g, u):
    """Unit u is in command of a regimental HQ or a command post (10.21, 14.3; always in BNR,
    18.32), not only of an infantry/HQ, which carries no radio (8.25, 10.3)."""
    if not S.us_cmd[g, u]:
        return False
    if T.opts[OPT_BNR]:
        return True
    by = S.us_cmd_by[g, u]
    for q in range(S.us_loc.shape[1]):
        if (by >> q) & 1 and T.us_type[q] == REG_HQ:
            return True
    return False


# ------------------------------------------------------------------------------------ unit values
@njit(cache=True)
def unit_range(T, S, g, u):
    r = T.us_range[u, S.us_steps[g, u]]
    return r


@njit(cache=True)
def weapons_of(T, S, g, u, d):
    """8.2, 8.21, 8.27, 8.28: the weapons unit u brings to an attack from d hexes away."""
    t = T.us_type[u]
    s = S.us_steps[g, u]
    if t == TANK or t == AMTANK:
        for k in range(T.bands.shape[1]):
            if T.bands[t, k, 0] > 0 and d <= T.bands[t, k, 0]:
                return T.bands[t, k, 1]
        return 0
    printed = T.us_printed[u, s]
    if (t == INF and s < T.us_steps0[u]) or (t == HEAVY and s <= 1):
        return printed if (printed >= 0 and d <= 1) else 0
    if printed >= 0 and t != INF and t != HEAVY:
        return printed if d <= 1 else 0
    return T.weapons_adj[t] if d <= 1 else T.weapons_rng[t]


@njit(cache=True)
def jp_defense(T, S, g, j, h):
    """8.3 step 2: the revealed Japanese strength in hex h (unit, revealed depth marker) times the
    terrain (not for tanks, 13.3, or units in counterattack stance, 13.45)."""
    s = np.int64(T.jp_strength[j]) if S.jp_rev[g, j] else 0
    dm = S.jp_depth[g, j]
    if dm >= 0 and S.dm_rev[g, dm]:
        s += T.dm_strength[dm]
    ca = S.jp_ca[g, j]
    if ca >= 0 and S.dm_rev[g, ca]:
        s += T.dm_strength[ca]  # 13.41: the counterattack marker, strength side up, is its depth
    if T.jp_tank[j] or ca >= 0:
        return s
    return s * T.t_defense[T.terrain[h]]


@njit(cache=True)
def jp_requires(T, S, g, j, h):
    """The weapons required against the revealed Japanese unit and depth marker in hex h (2.22,
    2.24), plus artillery for a fortification marker (event)."""
    r = T.jp_requires[j] if S.jp_rev[g, j] else 0
    dm = S.jp_depth[g, j]
    if dm >= 0 and S.dm_rev[g, dm]:
        r |= T.dm_requires[dm]
        if (T.jp_requires[j] & W_FL) and (T.dm_requires[dm] & W_FL):
            r |= 1 << 30  # 8.22: both list flanking: three hexes needed
    ca = S.jp_ca[g, j]
    if ca >= 0 and S.dm_rev[g, ca]:
        r |= T.dm_requires[ca]
    p = T.hex_pos[h]
    if p >= 0 and S.fort[g, p]:
        r |= W_AR
    if T.opts[OPT_BNR] and not T.jp_fort[j]:
        f = fort_at(T, S, g, h)
        if f >= 0 and S.jp_rev[g, f]:
            r |= T.jp_requires[f]  # 19.1: the revealed fortification's requirement
    return r


# --------------------------------------------------------------------------------- losses, placement
@njit(cache=True)
def eliminate_us(T, S, g, u):
    """A U.S. unit leaves play (its hero or inspired marker with it, 10.11); a regular or heavy
    infantry unit's reduced counter goes to the Infantry Loss Box (15.1, 18.41)."""
    t = T.us_type[u]
    steps = S.us_steps[g, u]
    where = S.us_hex[g, u] if S.us_loc[g, u] == US_MAP else -1
    if S.us_loc[g, u] == US_BOX:
        where = -2 - S.us_hex[g, u]  # landing box b (eventlog.place_words)
    emit(S, g, ev.US_ELIM, u, where)
    S.us_loc[g, u] = US_ELIM
    S.us_hex[g, u] = -1
    S.us_steps[g, u] = 0
    S.us_dis[g, u] = 0
    S.hero[g, u] = 0
    S.cp[g, u] = -1
    if t == INF or t == HEAVY:
        S.loss_box[g] += 1
        if T.us_steps0[u] == 4 and steps >= 3 and not T.opts[OPT_BNR]:
            S.loss_box[g] += 1  # its full-strength counter goes too (15.1)


@njit(cache=True)
def step_loss(T, S, g, u):
    """A step lost to Japanese fire or in close combat: lose_step with the hero sacrifice (10.15)."""
    lose_step(T, S, g, u, True)


@njit(cache=True)
def lose_step(T, S, g, u, hero_saves):
    """6.32: a unit loses one step; a four-step counter's front counter goes to the Infantry Loss
    Box when it is replaced by its reduced counter (15.1; in BNR only eliminations count, 18.41).
    10.15: against close combat or Japanese fire (``hero_saves``) a hero with a one-step unit is
    sacrificed instead (the default: it saves the unit)."""
    if S.us_steps[g, u] <= 1:
        if hero_saves and S.hero[g, u] == HERO:
            S.hero[g, u] = INSPIRED
            emit(S, g, ev.HERO_SACRIFICED, u)
            return
        eliminate_us(T, S, g, u)
        return
    t = T.us_type[u]
    if (t == INF or t == HEAVY) and T.us_steps0[u] == 4 and S.us_steps[g, u] == 3 and not T.opts[OPT_BNR]:
        S.loss_box[g] += 1
    S.us_steps[g, u] -= 1
    emit(S, g, ev.STEP_LOST, u, S.us_steps[g, u])


@njit(cache=True)
def step_add_ok(T, S, g, u, one_step_only):
    """Black Angels volunteer: a regular infantry unit below full strength; Scattered platoon
    regroups (``one_step_only``): a one-step infantry unit, regular or heavy (infantry/HQs are not
    eligible)."""
    if S.us_loc[g, u] != US_MAP:
        return False
    t = T.us_type[u]
    if one_step_only:
        return (t == INF or t == HEAVY) and S.us_steps[g, u] == 1
    return t == INF and S.us_steps[g, u] < T.us_steps0[u]


@njit(cache=True)
def disrupt_us(T, S, g, u, during_actions):
    if T.us_type[u] == REG_HQ:
        return  # 6.33, 10.42
    if S.us_dis[g, u] == 0:
        S.us_dis[g, u] = DIS_NEW if during_actions else DIS_OLD
        emit(S, g, ev.DISRUPTED, u)


@njit(cache=True)
def rally_us(T, S, g, u):
    """A U.S. unit's disruption marker comes off (7.6, 8.65, 13.44)."""
    if S.us_dis[g, u] != 0:
        S.us_dis[g, u] = 0
        emit(S, g, ev.RALLIED, u)


@njit(cache=True)
def reveal_jp(T, S, g, j):
    """9.1: a Japanese unit on the map turns face up."""
    if not S.jp_rev[g, j]:
        S.jp_rev[g, j] = True
        emit(S, g, ev.REVEALED, j, S.jp_hex[g, j])


@njit(cache=True)
def disrupt_jp(T, S, g, j):
    """6.4: a disrupted marker on a Japanese unit."""
    if not S.jp_dis[g, j]:
        S.jp_dis[g, j] = True
        emit(S, g, ev.JP_DISRUPTED, j, S.jp_hex[g, j])


@njit(cache=True)
def jp_by_hex(S, g):
    """int64[NJ]: the Japanese units in the order of their hexes (the unit before a fortification
    marker sharing its hex): a loop that reports face-down units one by one (eventlog.py) in this
    order tells nothing of which counter is which."""
    return np.argsort(S.jp_hex[g], kind="mergesort")


@njit(cache=True)
def rally_jp(T, S, g, j):
    """6.42: a Japanese unit's disruption marker comes off."""
    if S.jp_dis[g, j]:
        S.jp_dis[g, j] = False
        emit(S, g, ev.JP_RALLIED, j, S.jp_hex[g, j])


@njit(cache=True)
def draw_depth(T, S, g, kind):
    """9.21: a random depth marker of ``kind`` (0 regular, 1 armor, 2 counterattack) from its pool,
    -1 when the pool is empty (9.23)."""
    n = 0
    for d in range(S.dm_loc.shape[1]):
        if S.dm_loc[g, d] == DM_POOL and T.dm_kind[d] == kind:
            n += 1
    if n == 0:
        return -1
    k = uniform(S, g, n)
    for d in range(S.dm_loc.shape[1]):
        if S.dm_loc[g, d] == DM_POOL and T.dm_kind[d] == kind:
            if k == 0:
                S.dm_loc[g, d] = DM_UNIT
                S.dm_rev[g, d] = False
                return d
            k -= 1
    return -1


@njit(cache=True)
def give_depth(T, S, g, j, revealed):
    """A depth marker from the pool under unit j; False when the pool is empty."""
    d = draw_depth(T, S, g, 0)
    if d < 0:
        return False
    S.jp_depth[g, j] = d
    S.dm_rev[g, d] = revealed
    emit(S, g, ev.DEPTH_PLACED, d, j, S.jp_hex[g, j], ev.REVEALED_PLACED if revealed else ev.FACE_DOWN_PLACED)
    return True


@njit(cache=True)
def remove_depth(T, S, g, j):
    """9.23: the unit's depth marker is eliminated (13.46: a counterattack marker flips to its
    non-depth side instead)."""
    d = S.jp_depth[g, j]
    if d >= 0:
        emit(S, g, ev.DEPTH_ELIM, d, j, S.jp_hex[g, j])
        S.dm_loc[g, d] = DM_OUT
        S.jp_depth[g, j] = -1
        return True
    ca = S.jp_ca[g, j]
    if ca >= 0 and S.dm_rev[g, ca]:
        S.dm_rev[g, ca] = False
        emit(S, g, ev.CA_FLIP, ca, j, ev.TO_PLAIN_SIDE)
        return True
    return False


@njit(cache=True)
def has_depth(T, S, g, j):
    """A depth marker under unit j, or its counterattack marker on the depth side (13.46)."""
    ca = S.jp_ca[g, j]
    return S.jp_depth[g, j] >= 0 or (ca >= 0 and S.dm_rev[g, ca])


@njit(cache=True)
def depth_hidden(T, S, g, j):
    d = S.jp_depth[g, j]
    return d >= 0 and not S.dm_rev[g, d]


@njit(cache=True)
def draw_reserve(T, S, g):
    """A random unit of the reserve box (9.3), -1 when empty (9.33)."""
    n = 0
    for j in range(S.jp_loc.shape[1]):
        if S.jp_loc[g, j] == JP_RESERVE and not T.jp_fort[j]:
            n += 1
    if n == 0:
        return -1
    k = uniform(S, g, n)
    for j in range(S.jp_loc.shape[1]):
        if S.jp_loc[g, j] == JP_RESERVE and not T.jp_fort[j]:
            if k == 0:
                return j
            k -= 1
    return -1


@njit(cache=True)
def shuffled_where(S, g, flags):
    """int64[]: the indices where ``flags`` holds, in a random order (rng.shuffle)."""
    out = np.nonzero(flags)[0].astype(np.int64)
    shuffle(S, g, out)
    return out


@njit(cache=True)
def clear_jp(T, S, g, j):
    """Japanese unit j with no marker, position or status (the set-ups: 3.0, 18.1)."""
    S.jp_depth[g, j] = -1
    S.jp_ca[g, j] = -1
    S.jp_from[g, j] = -1
    S.jp_dis[g, j] = False
    S.jp_rev[g, j] = False
    S.jp_hex[g, j] = -1
    S.jp_rot[g, j] = 0


@njit(cache=True)
def place_jp(T, S, g, j, h, revealed):
    S.jp_loc[g, j] = JP_MAP
    S.jp_hex[g, j] = h
    S.jp_rev[g, j] = revealed
    S.jp_dis[g, j] = False
    S.jp_from[g, j] = -1
    p = T.hex_pos[h]
    if p >= 0 and S.garrison[g, p]:
        S.garrison[g, p] = False  # 14.41: a Japanese unit entering removes a garrison
        emit(S, g, ev.GARRISON_GONE, h)
    join_fort(T, S, g, j, h)


@njit(cache=True)
def join_fort(T, S, g, j, h):
    """BNR: a unit placed in (or back to) a fortified position takes the depth marker held by the
    marker alone (18.31) and its disruption (19.4)."""
    if not T.opts[OPT_BNR] or T.jp_fort[j]:
        return
    f = fort_at(T, S, g, h)
    if f < 0:
        return
    if S.jp_dis[g, f]:
        S.jp_dis[g, j] = True
    d = S.jp_depth[g, f]
    if d >= 0:
        if S.jp_depth[g, j] < 0:
            S.jp_depth[g, j] = d
        else:  # a unit back from an assault with its own: one depth marker a position (README)
            S.dm_loc[g, d] = DM_POOL
            S.dm_rev[g, d] = False
        S.jp_depth[g, f] = -1


@njit(cache=True)
def leave_fort(T, S, g, j):
    """BNR: a unit leaving a fortified position (eliminated, withdrawn) leaves its disruption on
    the position (19.4)."""
    if not T.opts[OPT_BNR] or T.jp_fort[j] or S.jp_loc[g, j] != JP_MAP:
        return
    f = fort_at(T, S, g, S.jp_hex[g, j])
    if f >= 0 and S.jp_dis[g, j]:
        S.jp_dis[g, f] = True


@njit(cache=True)
def elim_jp(T, S, g, j, may_withdraw, withdraw_ok):
    """A defeated Japanese unit: its depth and counterattack markers are eliminated; a tank leaves
    play (13.3); an elite unit withdraws to the reserve box face down when it may and can trace
    communication (8.33), else goes to the eliminated elite box; other units leave play."""
    if S.ev_on[0]:
        to = ev.TO_OUT
        if T.jp_tank[j]:
            to = ev.TANK_OUT
        elif T.jp_elite[j] and not T.opts[OPT_BNR]:
            to = ev.TO_RESERVE if may_withdraw and withdraw_ok else ev.TO_ELITE_BOX
        emit(S, g, ev.JP_DEFEATED, j, S.jp_hex[g, j], to)
    leave_fort(T, S, g, j)
    if T.opts[OPT_BNR]:
        for k in range(2):
            if S.cave_hex[g, k] == S.jp_hex[g, j]:
                S.cave_hex[g, k] = -1  # Hidden Caves: the cave goes with its unit
                S.cave_colour[g, k] = -1
    remove_depth(T, S, g, j)
    ca = S.jp_ca[g, j]
    if ca >= 0:
        S.dm_loc[g, ca] = DM_OUT
        S.jp_ca[g, j] = -1
    S.jp_hex[g, j] = -1
    S.jp_rev[g, j] = False
    S.jp_dis[g, j] = False
    S.jp_from[g, j] = -1
    if T.jp_tank[j]:
        S.jp_loc[g, j] = JP_OUT
    elif T.jp_elite[j]:
        if may_withdraw and withdraw_ok and not T.opts[OPT_BNR]:
            S.jp_loc[g, j] = JP_RESERVE
        else:
            S.jp_loc[g, j] = JP_ELIM if not T.opts[OPT_BNR] else JP_OUT
    else:
        S.jp_loc[g, j] = JP_OUT


@njit(cache=True)
def leader(T, u):
    """10.4: a leader (regimental HQ or infantry/HQ; heroes are markers)."""
    return T.us_type[u] == REG_HQ or T.us_type[u] == INF_HQ


@njit(cache=True)
def symbol_is(T, S, g, u, sym, concentrated):
    """A unit has target symbol ``sym`` (6.35: every unit of a concentrated target has it)."""
    return concentrated or T.us_symbol[u] == sym


@njit(cache=True)
def is_rough(T, h):
    t = T.terrain[h]
    return t == MOUNTAIN or t == CORAL or t == JUNGLE


@njit(cache=True)
def draw(T, S, g, dest):
    """4.0: draw a card (an exhausted deck is reshuffled from the discards at once)."""
    return draw_card(S, S.card_pile, S.card_pos, g, PILE_DECK, dest, PILE_DISCARD)


@njit(cache=True)
def artillery_taken(T, S, g):
    """6.51: an artillery position occupied solely by U.S. units loses its artillery for good."""
    for p in range(T.pos_hex.shape[0]):
        if T.pos_art[p] and not S.art_gone[g, p]:
            h = T.pos_hex[p]
            if us_in_hex(T, S, g, h) > 0 and jp_at(T, S, g, h) < 0:
                S.art_gone[g, p] = True
                emit(S, g, ev.ART_DESTROYED, h)


@njit(cache=True)
def sync_depth_hexes(T, S, g):
    """dm_hex: where each depth or counterattack marker lies (the hex of its unit, -1)."""
    out, loc, hexes, depth, ca = S.dm_hex[g], S.jp_loc[g], S.jp_hex[g], S.jp_depth[g], S.jp_ca[g]  # fire_map's note
    out[:] = -1
    for j in range(loc.shape[0]):
        if loc[j] == JP_MAP:
            if depth[j] >= 0:
                out[depth[j]] = hexes[j]
            if ca[j] >= 0:
                out[ca[j]] = hexes[j]
