"""The Bloody Nose Ridge scenario (18.0) and its fortified mountain positions (19.0).

The invasion's machinery plays the day turns (events, Japanese fire, actions, close combat); this
module holds what BNR adds or changes:

    set-up (18.1)          start_bnr; the 23 U.S. units (P_SETUP), two garrisons (P_GARRISON), two
                           heroes (P_HERO_PLACE); the game opens with the Action Phase of turn 1
    the turn (18.2)        turn_kind: the night turns 4, 8, 12, 16 (18.21) and, after the command
                           change, the morning turns 5, 9, 13, 17 (18.22) replace the day sequence
    HQ phase (18.2 IV)     Action Under Fire markers off, one hex undisrupted (P_UNDISRUPT), one
                           garrison (P_GARRISON)
    night (18.21)          markers off, one-hex moves, withdrawal and relief (18.37: P_WITHDRAW,
                           P_SETUP), Japanese reorganization, the night victory check (18.42)
    fortifications (19)    the 20 markers are "Japanese units" numbered after the real ones
                           (scenario.jp_fort): a marker alone holds its position (18.31); reduction
                           by barrage (19.4: P_FORT_ROTATE), a unit (and depth) drawn on attack or
                           close combat (19.5), removal when the U.S. takes the hex (19.2)
    events                 Rupertus' Attack Orders, the command change, the flamethrower ropes
                           (P_FLAME), Hidden Caves, the BNR limits of Japanese infiltration
    victory (18.4)         catastrophic loss at ten infantry units eliminated, the night and the
                           end-of-game checks
"""

import numpy as np

from wargym.cards import move_card, top_card
from wargym.events import emit
from wargym.jit import njit
from wargym.peleliu import eventlog as ev
from wargym.peleliu.board import (
    across_blocked, clear_jp, disrupt_jp, draw, draw_fort, draw_reserve, fire_map, fort_at, give_depth, jp_map,
    place_jp, rally_us, remove_fort, reveal_forts, row_of, shuffled_where, stack_count, unit_at, us_count,
    us_steps_in_hex,
)
from wargym.peleliu.scenario import ENG, HEAVY, INF, INF_HQ, INTENSE, JUNGLE, MOUNTAIN
from wargym.peleliu.state import (
    DM_OUT, DM_POOL, JP_MAP, JP_OUT, JP_RESERVE, MIDDAY, MORNING, NIGHT, OPT_BNR,
    OPT_BNR_CATASTROPHIC, PILE_CC_JP, PILE_DISCARD, PILE_TRACK, R_DRAW, R_WIN, US_MAP, US_OUT, US_TRACK,
)
from wargym.rng import uniform

NIGHT_TURNS = (4, 8, 12, 16)
SETUP_DONE, SETUP_UNIT, SETUP_GARRISON, SETUP_HERO = range(4)
COMMAND_CHANGE_TURN = 12   # 18.32: the command changes on turn 12 at the latest
LAST_ORDERS_TURN = 11      # the Rupertus attack event is disregarded after turn 11


# ------------------------------------------------------------------------------------- the turn
@njit(cache=True)
def turn_kind(T, S, g):
    """MORNING / MIDDAY / AFTERNOON / NIGHT of the BNR track (charts.yaml bnr_track)."""
    t = S.turn[g]
    return T.bnr_kind[t] if t < T.bnr_kind.shape[0] else MIDDAY


@njit(cache=True)
def is_night(T, S, g):
    """18.21: a BNR night turn."""
    return T.opts[OPT_BNR] and turn_kind(T, S, g) == NIGHT


@njit(cache=True)
def prep_morning(T, S, g):
    """18.22: a morning turn after the change in U.S. command (barrages and movement only)."""
    return T.opts[OPT_BNR] and turn_kind(T, S, g) == MORNING and not S.rupertus[g] and S.turn[g] > 1


@njit(cache=True)
def day_sequence(T, S, g):
    """The BNR sequence of play (18.2) this turn: neither a night nor a preparation morning."""
    return not is_night(T, S, g) and not prep_morning(T, S, g)


# ----------------------------------------------------------------------------------------- set-up
@njit(cache=True)
def start_bnr(T, S, g):
    """18.1: 16 elite units (not the four of strength 4) face down in the reserve box; 16 regular
    depth markers drawn from the 43 left once tactical reinforcements and strength 3 are out; 12
    fortification markers face down in the fortified positions, 8 in the cup; the 23 map units
    wait to be set up (P_SETUP), the 1/5 and 2/5 units on their night spaces."""
    NJ = S.jp_loc.shape[1]
    ND = S.dm_loc.shape[1]
    NU = S.us_loc.shape[1]
    for j in range(NJ):
        clear_jp(T, S, g, j)
        elite = T.jp_elite[j] and not T.jp_tank[j] and T.jp_strength[j] != 4 and not T.jp_fort[j]
        S.jp_loc[g, j] = JP_RESERVE if elite else JP_OUT
    for d in range(ND):
        S.dm_loc[g, d] = DM_OUT
        S.dm_rev[g, d] = False
    pick = shuffled_where(S, g, (T.dm_kind == 0) & ~T.dm_tr & (T.dm_strength != 3))
    for i in range(min(16, pick.shape[0])):
        S.dm_loc[g, pick[i]] = DM_POOL
    order = shuffled_where(S, g, T.jp_fort)
    nf = order.shape[0]
    k = 0
    for p in range(T.pos_hex.shape[0]):
        if T.pos_fort[p] and k < nf:
            S.jp_loc[g, order[k]] = JP_MAP
            S.jp_hex[g, order[k]] = T.pos_hex[p]
            k += 1
    for i in range(k, nf):
        S.jp_loc[g, order[i]] = JP_RESERVE
    for u in range(NU):
        S.us_steps[g, u] = T.us_steps0[u]
        S.us_hex[g, u] = -1
        S.us_loc[g, u] = US_OUT
        S.us_track[g, u] = -1
        S.pending[g, u] = T.us_bnr[u] == 0
        if T.us_bnr[u] > 0:
            S.us_loc[g, u] = US_TRACK
            S.us_track[g, u] = T.us_bnr[u]
    S.rupertus[g] = True
    for k in range(2):
        S.cave_hex[g, k] = -1
        S.cave_colour[g, k] = -1


@njit(cache=True)
def setup_step(T, S, g):
    """The next set-up decision: SETUP_UNIT (S.sel the unit), SETUP_GARRISON, SETUP_HERO, or
    SETUP_DONE (the forts next to U.S. units revealed; 18.1: the scenario begins with the Action
    Phase of turn 1)."""
    for u in range(S.us_loc.shape[1]):
        if S.pending[g, u] and S.us_loc[g, u] == US_OUT:
            S.sel[g] = u
            return SETUP_UNIT
    n = 0
    for p in range(S.garrison.shape[1]):
        if S.garrison[g, p]:
            n += 1
    if n < 2 and garrison_mask(T, S, g, np.zeros(T.land.shape[0], np.bool_), True) > 0:
        return SETUP_GARRISON
    if S.heroes_placed[g] < 2:
        return SETUP_HERO
    reveal_forts(T, S, g)
    return SETUP_DONE


@njit(cache=True)
def placement_mask(T, S, g, u, m, relief):
    """18.1: a hex within two hexes of the unit's set-up hex, in play, outside the Japanese zone;
    18.37 (``relief``): within two hexes of a hex of a withdrawn unit, in a live or empty field of
    fire only where a withdrawn unit stood.  Both: no Japanese unit, room under the stacking limit
    (7.51), terrain the unit may enter."""
    H = T.land.shape[0]
    occ = np.empty(H, np.int16)
    jp_map(T, S, g, occ)
    fm = np.empty(H, np.int8)
    fire_map(T, S, g, occ, False, fm)
    n = 0
    for x in range(H):
        if not T.in_play[x] or not T.land[x] or occ[x] >= 0 or T.t_no_entry[T.terrain[x], T.us_type[u]]:
            continue
        if stack_count(T, S, g, x) >= 2:
            continue
        if relief:
            near, held = False, False
            for w in range(S.us_loc.shape[1]):
                if (S.us_loc[g, w] == US_TRACK or S.us_loc[g, w] == US_OUT) and S.us_from[g, w] >= 0:
                    d = T.dist[x, S.us_from[g, w]]
                    if d <= 2:
                        near = True
                    if d == 0:
                        held = True
            if not near or (fm[x] > 0 and not held):
                continue
        else:
            if T.jp_zone[x] or T.dist[x, T.us_bnr_hex[u]] > 2:
                continue
        m[x] = True
        n += 1
    return n


@njit(cache=True)
def place_unit(T, S, g, u, h):
    S.us_loc[g, u] = US_MAP
    S.us_hex[g, u] = h
    S.us_track[g, u] = -1
    S.pending[g, u] = False
    reveal_forts(T, S, g)


@njit(cache=True)
def garrison_mask(T, S, g, m, setup):
    """18.1 (``setup``): a position in play outside the Japanese zone; 18.2 IV: an eligible position
    hex (14.4 as far as BNR keeps it: occupied by or next to a U.S. unit, in no field of fire of an
    occupied Japanese position; U.S. units are always in communication, 18.36).  Neither holds a
    Japanese unit or a garrison."""
    H = T.land.shape[0]
    occ = np.empty(H, np.int16)
    jp_map(T, S, g, occ)
    fm = np.empty(H, np.int8)
    usn = np.empty(H, np.int16)
    if not setup:
        fire_map(T, S, g, occ, False, fm)
        us_count(T, S, g, usn)
    n = 0
    for p in range(T.pos_hex.shape[0]):
        h = T.pos_hex[p]
        if T.pos_prov[p] or not T.in_play[h] or S.garrison[g, p] or occ[h] >= 0:
            continue
        if setup:
            if T.jp_zone[h]:
                continue
        else:
            if fm[h] > 0:
                continue
            near = usn[h] > 0
            for d in range(6):
                x = T.nbr[h, d]
                if x >= 0 and usn[x] > 0:
                    near = True
            if not near:
                continue
        m[h] = True
        n += 1
    return n


# --------------------------------------------------------------------------------------- HQ phase
@njit(cache=True)
def clear_auf(T, S, g):
    for u in range(S.us_loc.shape[1]):
        S.us_auf[g, u] = False


@njit(cache=True)
def undisrupt_mask(T, S, g, m):
    """18.2 IV: the hexes holding a disrupted U.S. unit (the whole stack is freed)."""
    n = 0
    for u in range(S.us_loc.shape[1]):
        if S.us_loc[g, u] == US_MAP and S.us_dis[g, u] != 0 and not m[S.us_hex[g, u]]:
            m[S.us_hex[g, u]] = True
            n += 1
    return n


@njit(cache=True)
def undisrupt(T, S, g, h):
    for u in range(S.us_loc.shape[1]):
        if S.us_loc[g, u] == US_MAP and S.us_hex[g, u] == h:
            rally_us(T, S, g, u)


# ------------------------------------------------------------------------------ Action Under Fire
@njit(cache=True)
def mark_auf(T, S, g, units, u0):
    """18.34: a unit that completes an action in the intense field of a non-disrupted occupied
    Japanese position, or in a Japanese-occupied hex, gains an Action Under Fire marker (not at
    night: the markers are removed then)."""
    if not T.opts[OPT_BNR] or is_night(T, S, g):
        return
    H = T.land.shape[0]
    occ = np.empty(H, np.int16)
    jp_map(T, S, g, occ)
    live = np.empty(H, np.int8)
    fire_map(T, S, g, occ, True, live)
    for u in range(S.us_loc.shape[1]):
        if (units[u] or u == u0) and S.us_loc[g, u] == US_MAP:
            h = S.us_hex[g, u]
            if live[h] == INTENSE or occ[h] >= 0:
                S.us_auf[g, u] = True


# ---------------------------------------------------------------------------------- Attack Orders
@njit(cache=True)
def attack_orders(T, S, g):
    """The Rupertus event: an Attack Orders marker on every Japanese-occupied position next to a
    non-disrupted infantry, infantry/HQ or engineer unit (not across an impassable hexside);
    disregarded when Rupertus is no longer in command or after turn 11."""
    if not S.rupertus[g] or S.turn[g] > LAST_ORDERS_TURN:
        return
    H = T.land.shape[0]
    occ = np.empty(H, np.int16)
    jp_map(T, S, g, occ)
    for p in range(T.pos_hex.shape[0]):
        h = T.pos_hex[p]
        if occ[h] < 0 or T.pos_prov[p]:
            continue
        for u in range(S.us_loc.shape[1]):
            t = T.us_type[u]
            if S.us_loc[g, u] != US_MAP or S.us_dis[g, u] != 0 or T.dist[h, S.us_hex[g, u]] != 1:
                continue
            if (t == INF or t == HEAVY or t == INF_HQ or t == ENG) and not across_blocked(T, S, g, S.us_hex[g, u], h):
                if not S.att_order[g, p]:
                    emit(S, g, ev.ATTACK_ORDERS, h)
                S.att_order[g, p] = True
                break


@njit(cache=True)
def order_open(T, S, g, p, occ):
    """An Attack Orders marker on position p not yet carried out this phase (attacked or entered)."""
    if not S.att_order[g, p]:
        return False
    h = T.pos_hex[p]
    j = occ[h]
    if j < 0 or us_steps_in_hex(T, S, g, h) > 0:
        return False
    return not S.jp_attacked[g, j]


@njit(cache=True)
def clear_orders(T, S, g):
    for p in range(S.att_order.shape[1]):
        S.att_order[g, p] = False


# ------------------------------------------------------------------------------- fortifications
@njit(cache=True)
def garrison_fort(T, S, g, h):
    """19.5 upon an attack: a fortified position without a unit gets one from the pool, revealed;
    its depth marker stays and is revealed."""
    if not T.opts[OPT_BNR]:
        return
    f = fort_at(T, S, g, h)
    if f < 0 or unit_at(T, S, g, h) >= 0:
        return
    j = draw_reserve(T, S, g)
    if j >= 0:
        place_jp(T, S, g, j, h, True)
        emit(S, g, ev.JP_ENTERS, j, h, ev.BY_FORT_ATTACKED)
        d = S.jp_depth[g, j]
        if d >= 0:
            if not S.dm_rev[g, d]:
                emit(S, g, ev.DEPTH_REVEALED, d, j, h)
            S.dm_rev[g, d] = True
    elif S.jp_depth[g, f] >= 0:
        if not S.dm_rev[g, S.jp_depth[g, f]]:
            emit(S, g, ev.DEPTH_REVEALED, S.jp_depth[g, f], f, h)
        S.dm_rev[g, S.jp_depth[g, f]] = True


@njit(cache=True)
def man_fort_for_cc(T, S, g, h):
    """19.5 upon a close combat: a unit and a depth marker, revealed, when none is present and the
    pools have one.  Returns the unit, -1 (the marker alone cannot fight: the U.S. takes the hex)."""
    garrison_fort(T, S, g, h)
    j = unit_at(T, S, g, h)
    if j < 0:
        return -1
    if S.jp_depth[g, j] < 0:
        give_depth(T, S, g, j, True)  # a random marker of the pool (9.21), none when it is empty
    d = S.jp_depth[g, j]
    if d >= 0:
        if not S.dm_rev[g, d]:
            emit(S, g, ev.DEPTH_REVEALED, d, j, h)
        S.dm_rev[g, d] = True
    return j


@njit(cache=True)
def taken(T, S, g, h):
    """19.2, 19.5: a fortified hex occupied solely by U.S. units loses its marker for good."""
    f = fort_at(T, S, g, h)
    if f >= 0 and unit_at(T, S, g, h) < 0 and us_steps_in_hex(T, S, g, h) > 0:
        emit(S, g, ev.FORT_REMOVED, f, h)
        remove_fort(T, S, g, f)


@njit(cache=True)
def n_blocked(T, f):
    n = 0
    for d in range(6):
        if T.jp_blocked[f, d]:
            n += 1
    return n


@njit(cache=True)
def fits(T, S, g, new, r, old):
    """Every side new blocks at rotation r is a side old blocks now (19.4)."""
    for d in range(6):
        if T.jp_blocked[new, d]:
            side = (d + r) % 6
            if not T.jp_blocked[old, (side - S.jp_rot[g, old]) % 6]:
                return False
    return True


@njit(cache=True)
def reduce_fort(T, S, g, h):
    """19.4: a fortification reduction result on hex h: a marker drawn from the cup replaces the
    one there when it blocks fewer sides, turned so its blocked sides fall on blocked sides with
    the arrow as close to the west as possible.  Returns True when two turnings are equally close
    (the choice is the player's: P_FORT_ROTATE, S.k holds the new marker, turned clockwise)."""
    old = fort_at(T, S, g, h)
    if old < 0:
        return False
    if not S.jp_rev[g, old]:
        emit(S, g, ev.FORT_REVEALED, old, h)
    S.jp_rev[g, old] = True  # 18.22: an unrevealed fortification reduced is revealed
    new = draw_fort(T, S, g)
    if new < 0 or n_blocked(T, new) >= n_blocked(T, old):
        return False
    best, tie = -1, False
    for r in range(6):
        if not fits(T, S, g, new, r, old):
            continue
        dist = min(r, 6 - r)
        if best < 0 or dist < min(best, 6 - best):
            best, tie = r, False
        elif dist == min(best, 6 - best) and r != best:
            tie = True
            if r < best:
                best = r
    if best < 0:
        return False
    emit(S, g, ev.FORT_REDUCED, old, new, h)
    S.jp_loc[g, new] = JP_MAP
    S.jp_hex[g, new] = h
    S.jp_rev[g, new] = True
    S.jp_rot[g, new] = best
    S.jp_dis[g, new] = S.jp_dis[g, old]
    S.jp_attacked[g, new] = S.jp_attacked[g, old]
    S.jp_barraged[g, new] = S.jp_barraged[g, old]
    S.jp_acted[g, new] = S.jp_acted[g, old]
    S.jp_depth[g, new] = S.jp_depth[g, old]
    S.jp_depth[g, old] = -1
    remove_fort(T, S, g, old)
    if tie:
        S.k[g] = new
    return tie


# -------------------------------------------------------------------------------------- night
@njit(cache=True)
def night_start(T, S, g):
    """18.21 step 1: Action Under Fire and disruption markers off every unit (both sides)."""
    emit(S, g, ev.NIGHT)
    clear_auf(T, S, g)
    for u in range(S.us_loc.shape[1]):
        S.us_dis[g, u] = 0
    for j in range(S.jp_loc.shape[1]):
        S.jp_dis[g, j] = False


@njit(cache=True)
def night_move_ok(T, S, g, u, x, occ):
    """18.21 step 2: a unit next to an occupied Japanese position moves only after the command
    change, and only into a hex next to none."""
    a = S.us_hex[g, u]
    if not next_to_position(T, S, g, a, occ):
        return True
    return not S.rupertus[g] and not next_to_position(T, S, g, x, occ)


@njit(cache=True)
def next_to_position(T, S, g, h, occ):
    for d in range(6):
        x = T.nbr[h, d]
        if x >= 0 and occ[x] >= 0 and T.hex_pos[x] >= 0:
            return True
    return False


@njit(cache=True)
def next_night_space(T, S, g):
    """18.37: the next night space of the track after this turn with no unit waiting, -1."""
    for t in NIGHT_TURNS:
        if t <= S.turn[g]:
            continue
        used = False
        for u in range(S.us_loc.shape[1]):
            if S.us_loc[g, u] == US_TRACK and S.us_track[g, u] == t:
                used = True
        if not used:
            return t
    return -1


@njit(cache=True)
def waiting(T, S, g):
    n = 0
    for u in range(S.us_loc.shape[1]):
        if S.us_loc[g, u] == US_TRACK and S.us_track[g, u] == S.turn[g]:
            n += 1
    return n


@njit(cache=True)
def battalion_on_map(T, S, g):
    for u in range(S.us_loc.shape[1]):
        if S.us_loc[g, u] == US_MAP and T.us_battalion[u] >= 0:
            return True
    return False


@njit(cache=True)
def withdraw_mask(T, S, g, m, H, unit0):
    """18.37: a unit of each battalion with units on the map (the battalion withdrawn)."""
    n = 0
    for u in range(S.us_loc.shape[1]):
        if S.us_loc[g, u] == US_MAP and T.us_battalion[u] >= 0:
            m[H + unit0 + u] = True
            n += 1
    return n


@njit(cache=True)
def withdraw(T, S, g, u):
    """18.37: the battalion of unit u leaves the map for the next empty night space (hexes kept in
    us_from for the arrivals); the units of this night's space become pending arrivals."""
    space = next_night_space(T, S, g)
    b = T.us_battalion[u]
    for v in range(S.us_loc.shape[1]):
        if S.us_loc[g, v] == US_TRACK and S.us_track[g, v] == S.turn[g]:
            S.pending[g, v] = True
    for v in range(S.us_loc.shape[1]):
        if S.us_loc[g, v] == US_MAP and T.us_battalion[v] == b:
            emit(S, g, ev.WITHDRAWN, v, space)
            S.us_from[g, v] = S.us_hex[g, v]
            S.us_hex[g, v] = -1
            S.us_dis[g, v] = 0
            S.us_auf[g, v] = False
            S.cc_units[g, v] = False
            S.us_loc[g, v] = US_TRACK if space > 0 else US_OUT  # no night space left: out for good
            S.us_track[g, v] = space


@njit(cache=True)
def postpone(T, S, g):
    """18.37: no relief: this night's units move to the next empty night space."""
    space = next_night_space(T, S, g)
    for u in range(S.us_loc.shape[1]):
        if S.us_loc[g, u] == US_TRACK and S.us_track[g, u] == S.turn[g]:
            S.us_track[g, u] = space
            if space < 0:
                S.us_loc[g, u] = US_OUT  # no night space left


@njit(cache=True)
def next_arrival(T, S, g):
    for u in range(S.us_loc.shape[1]):
        if S.pending[g, u] and S.us_loc[g, u] == US_TRACK and S.us_track[g, u] == S.turn[g]:
            return u
    return -1


@njit(cache=True)
def end_relief(T, S, g):
    for u in range(S.us_loc.shape[1]):
        S.us_from[g, u] = -1
        if S.pending[g, u] and S.us_loc[g, u] == US_TRACK and S.us_track[g, u] == S.turn[g]:
            S.us_loc[g, u] = US_OUT  # 18.37 left it no hex: it stays off the map
            S.us_track[g, u] = -1
        S.pending[g, u] = False


@njit(cache=True)
def reorganize(T, S, g):
    """18.21 step 4: a fire card; the Japanese units and depth markers of the fortified positions
    of its colours go back to their pools face down."""
    c = draw(T, S, g, PILE_TRACK)
    if c < 0:
        return
    emit(S, g, ev.CARD_DRAWN, c, ev.FOR_REORGANIZATION)
    for p in range(T.pos_hex.shape[0]):
        if not T.pos_fort[p]:
            continue
        col = T.pos_colour[p]
        if not (T.card_colour[c, 0] == col or T.card_colour[c, 1] == col or T.card_colour[c, 2] == col):
            continue
        h = T.pos_hex[p]
        for j in range(S.jp_loc.shape[1]):
            if S.jp_loc[g, j] != JP_MAP or S.jp_hex[g, j] != h:
                continue
            d = S.jp_depth[g, j]
            if d >= 0:
                S.dm_loc[g, d] = DM_POOL
                S.dm_rev[g, d] = False
                S.jp_depth[g, j] = -1
            if not T.jp_fort[j]:
                emit(S, g, ev.BACK_TO_RESERVE, j, h)
                S.jp_loc[g, j] = JP_RESERVE
                S.jp_hex[g, j] = -1
                S.jp_rev[g, j] = False
                S.jp_dis[g, j] = False
                S.jp_from[g, j] = -1


# ------------------------------------------------------------------------------------ victory
@njit(cache=True)
def japanese_left(T, S, g):
    """(units in the reserve box, units on the map): markers not counted (18.42)."""
    box, board = 0, 0
    for j in range(S.jp_loc.shape[1]):
        if T.jp_fort[j]:
            continue
        if S.jp_loc[g, j] == JP_RESERVE:
            box += 1
        elif S.jp_loc[g, j] == JP_MAP:
            board += 1
    return box, board


@njit(cache=True)
def catastrophic(T, S, g):
    """18.41: ten infantry units eliminated."""
    return S.loss_box[g] >= T.opts[OPT_BNR_CATASTROPHIC]


@njit(cache=True)
def night_check(T, S, g):
    """18.42: after the reorganization, no unit left in the reserve box wins."""
    box, board = japanese_left(T, S, g)
    return box == 0


@njit(cache=True)
def final_result(T, S, g):
    """18.42 at the end of turn 19: a win with the box empty and at most one unit on the map, else a
    draw."""
    box, board = japanese_left(T, S, g)
    return R_WIN if box == 0 and board <= 1 else R_DRAW


# ------------------------------------------------------------------------------------- events
@njit(cache=True)
def flame_spend(T, S, g):
    """The flamethrower ropes: one Japanese close combat card discarded, the Japanese unit
    disrupted."""
    S.flame[g] = False
    emit(S, g, ev.FLAMETHROWER, ev.SPENT)
    c = top_card(S.card_pile, S.card_pos, g, PILE_CC_JP)
    if c >= 0:
        move_card(S.card_pile, S.card_pos, g, c, PILE_DISCARD, True)
        emit(S, g, ev.CC_DISCARD, ev.JAPANESE, c)
    j = S.cc_jp[g]
    if j >= 0:
        disrupt_jp(T, S, g, j)


@njit(cache=True)
def hidden_caves(T, S, g):
    """Hidden Caves: a reserve unit, face down, and a cave marker in an empty non-position mountain
    hex next to an occupied Japanese position: next to the most occupied positions, then the
    highest, then next to a U.S. unit, then the southernmost (then the lowest hex: README).
    Disregarded with both caves on the map or no hex eligible."""
    k = -1
    for i in range(2):
        if S.cave_hex[g, i] < 0:
            k = i
            break
    if k < 0:
        return
    H = T.land.shape[0]
    occ = np.empty(H, np.int16)
    jp_map(T, S, g, occ)
    usn = np.empty(H, np.int16)
    us_count(T, S, g, usn)
    best, bk = -1, 0
    for x in range(H):
        if not T.in_play[x] or T.terrain[x] != MOUNTAIN or T.hex_pos[x] >= 0 or occ[x] >= 0 or usn[x] > 0:
            continue
        npos, near_us = 0, 0
        for d in range(6):
            y = T.nbr[x, d]
            if y < 0:
                continue
            if occ[y] >= 0 and T.hex_pos[y] >= 0:
                npos += 1
            if usn[y] > 0:
                near_us = 1
        if npos == 0:
            continue
        key = (6 - npos) * 100000000 + (99 - T.elevation[x]) * 1000000 + (1 - near_us) * 100000 \
            + (999 - row_of(T, x)) * 100
        if best < 0 or key < bk:
            best, bk = x, key
    if best < 0:
        return
    j = draw_reserve(T, S, g)
    if j < 0:
        return
    place_jp(T, S, g, j, best, False)
    emit(S, g, ev.CAVE, best)
    emit(S, g, ev.JP_ENTERS, j, best, ev.BY_CAVE)
    S.cave_hex[g, k] = best
    S.cave_colour[g, k] = -1


@njit(cache=True)
def infiltration_ok(T, S, g, p):
    """The BNR limits of Check for Japanese infiltration: a position in a mountain hex, or in
    jungle within two hexes of a mountain hex; none with a fortification marker."""
    h = T.pos_hex[p]
    if not T.in_play[h] or fort_at(T, S, g, h) >= 0:
        return False
    if T.terrain[h] == MOUNTAIN:
        return True
    if T.terrain[h] != JUNGLE:
        return False
    for x in range(T.land.shape[0]):
        if T.terrain[x] == MOUNTAIN and T.dist[h, x] <= 2:
            return True
    return False


@njit(cache=True)
def cave_colour(T, S, g, h):
    """Hidden Caves: the colour of the cave in hex h for a barrage or close combat: a counterattack
    marker's, drawn at random the first time (-1 when h is no cave)."""
    for k in range(2):
        if S.cave_hex[g, k] == h:
            if S.cave_colour[g, k] < 0:
                n = 0
                for d in range(S.dm_loc.shape[1]):
                    if T.dm_kind[d] == 2:
                        n += 1
                pick = uniform(S, g, n)
                for d in range(S.dm_loc.shape[1]):
                    if T.dm_kind[d] == 2:
                        if pick == 0:
                            S.cave_colour[g, k] = T.dm_colour[d]
                            break
                        pick -= 1
            return S.cave_colour[g, k]
    return -1
