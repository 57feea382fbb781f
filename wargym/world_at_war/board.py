"""The battlefield of one game: who stands where, where a piece may move, what it can see, where
a unit may retreat to.

Sections: "Moving units", "Moving commanders or snipers", "Platoons", "Line of sight", "Retreat
rules", the terrain effects sheet (move column).

Pieces are units (infantry, tanks, guns ...), commanders and snipers.  A hex holds at most one unit;
a commander or a sniper may stand in a friendly unit's hex (one of them a hex).  A lone commander or
sniper blocks no line of sight; an enemy commander blocks movement like a unit.

Interpretations (README): "Maximum 1 hex" (sea, beach) lets a piece that starts in such a hex move
one hex, and a piece enter one only as the first hex of its move (it stops there).  "Stop" hexes
end the move of a piece that enters them.  Infantry-only hexes (depressions, bunkers, anti-tank
obstacles) admit foot infantry, engineers, snipers and commanders (the infantry terrain class, not
mounted).  Retreats go to a neighbour toward the unit's own edge (side 0: S, SE, SW; side 1: N,
NE, NW); a unit with no such neighbour on the map is off the battlefield.
"""

from __future__ import annotations

import numpy as np

from wargym.jit import njit
from wargym.world_at_war.scenario import (
    C_INFANTRY, C_VEHICLE, COLLAPSE_BUNKER, ENTER_INFANTRY, ENTER_NONE, FEATURES, K_AA, K_ANTI_TANK, K_ARTILLERY,
    K_COMMANDER, K_SNIPER,
)

F_BUNKER_BIT = FEATURES.index("bunker")

UNLIMITED = 99
N_FEATURES = 6


# --------------------------------------------------------------- the terrain sheet for one hex
# A hex's row of the sheet is its terrain's row plus the rows of the obstacles on it this game
# (``S.features``: sandbags overrun, bunkers collapsed, minefields cleared leave the hex).
@njit(cache=True)
def has_feature(S, g, h, f):
    return ((S.features[g, h] >> f) & 1) == 1


@njit(cache=True)
def _any_feature(flags, S, g, h):
    """An obstacle in hex h whose row has ``flags[f]`` set."""
    for f in range(N_FEATURES):
        if flags[f] and has_feature(S, g, h, f):
            return True
    return False


@njit(cache=True)
def hex_blocks(T, S, g, h):
    return T.blocks[h] or _any_feature(T.f_blocks, S, g, h)


@njit(cache=True)
def hex_stop(T, S, g, h):
    return T.stop[h] or _any_feature(T.f_stop, S, g, h)


@njit(cache=True)
def hex_enter(T, S, g, h):
    e = T.enter[h]
    for f in range(N_FEATURES):
        if has_feature(S, g, h, f):
            e = max(e, T.f_enter[f])
    return e


@njit(cache=True)
def _dice_less(terrain, features, S, g, h, cls):
    """The sheet's dice less in hex h for a unit of kind ``cls``: its terrain's and its obstacles'."""
    n = terrain[h, cls]
    for f in range(N_FEATURES):
        if has_feature(S, g, h, f):
            n += features[f, cls]
    return n


@njit(cache=True)
def hex_attacker_less(T, S, g, h, cls):
    """"Attacker": dice less for a unit of kind ``cls`` battling a target in hex h."""
    return _dice_less(T.attacker_less, T.f_attacker, S, g, h, cls)


@njit(cache=True)
def hex_defender_less(T, S, g, h, cls):
    """"Defender": dice less for a unit of kind ``cls`` in hex h when it battles."""
    return _dice_less(T.defender_less, T.f_defender, S, g, h, cls)


@njit(cache=True)
def hex_ignore_flags(T, S, g, h):
    n = 0
    for f in range(N_FEATURES):
        if has_feature(S, g, h, f):
            n = max(n, T.f_ignore_flags[f])
    return n


@njit(cache=True)
def hex_no_artillery_retreat(T, S, g, h):
    return _any_feature(T.f_no_art_retreat, S, g, h)


@njit(cache=True)
def hex_collapse(T, S, g, h):
    """NO_COLLAPSE, COLLAPSE_BUILDING (a town) or COLLAPSE_BUNKER."""
    if has_feature(S, g, h, F_BUNKER_BIT):
        return COLLAPSE_BUNKER
    return T.collapse[h]


@njit(cache=True)
def is_leader(T, p):
    """A commander or a sniper: may share a friendly unit's hex."""
    k = T.c_kind[T.p_card[p]]
    return k == K_COMMANDER or k == K_SNIPER


@njit(cache=True)
def is_commander(T, p):
    return T.c_kind[T.p_card[p]] == K_COMMANDER


@njit(cache=True)
def is_gun(T, p):
    """Artillery, anti-tank and AA guns: "artillery" of the rules (no breakthrough)."""
    k = T.c_kind[T.p_card[p]]
    return k == K_ARTILLERY or k == K_ANTI_TANK or k == K_AA


@njit(cache=True)
def occupancy(T, S, g, unit_at, leader_at):
    """``unit_at[h]``: the unit in hex h (-1); ``leader_at[h]``: the commander or sniper there (-1)."""
    unit_at[:] = -1
    leader_at[:] = -1
    for p in range(T.p_side.shape[0]):
        h = S.p_hex[g, p]
        if h < 0:
            continue
        if is_leader(T, p):
            leader_at[h] = p
        else:
            unit_at[h] = p


@njit(cache=True)
def maps(T, S, g):
    """(unit_at, leader_at) of game g as ``occupancy`` fills them."""
    H = T.nbr.shape[0]
    unit_at, leader_at = np.full(H, -1, np.int64), np.full(H, -1, np.int64)
    occupancy(T, S, g, unit_at, leader_at)
    return unit_at, leader_at


@njit(cache=True)
def infantry_class(T, S, g, p):
    """Foot infantry for the terrain's "infantry only": the infantry class, not in its vehicles."""
    return T.c_class[T.p_card[p]] == C_INFANTRY and not S.p_mounted[g, p]


@njit(cache=True)
def may_enter(T, S, g, p, h):
    """The terrain admits piece p (rivers nobody but at fords and bridges; infantry-only hexes)."""
    e = hex_enter(T, S, g, h)
    if e == ENTER_NONE:
        return False
    if e == ENTER_INFANTRY:
        return infantry_class(T, S, g, p)
    return True


@njit(cache=True)
def base_allowance(T, S, g, p):
    """Hexes piece p may move this turn on its own: its card's move (mounted: the vehicles'), one
    hex from a sea or beach hex."""
    c = T.p_card[p]
    m = T.c_move_mounted[c] if S.p_mounted[g, p] else T.c_move[c]
    h = S.p_hex[g, p]
    if T.max_move[h] > 0:
        m = min(m, T.max_move[h])
    return m


@njit(cache=True)
def cc_commander(T, S, g, p):
    """The commander of the combat command piece p moves with: p itself when it commands one, its
    commander when it is a member in his ZOC (outside it a member moves as a separate unit); -1."""
    c = S.p_cc[g, p]
    if c < 0 or S.p_hex[g, p] < 0:
        return -1
    if c == p:
        return p
    if S.p_hex[g, c] < 0 or T.dist[S.p_hex[g, p], S.p_hex[g, c]] > 1:
        return -1
    return c


@njit(cache=True)
def moving_command(T, S, g, p):
    """The commander of the combat command piece p was ordered with this turn (``p_cc_move``: the
    commander and the members then in his ZOC), -1.  It holds after the commander has moved away:
    his members follow him ("regarded as one unit for movement purposes")."""
    return S.p_cc[g, p] if S.p_cc_move[g, p] >= 0 else -1


@njit(cache=True)
def cc_speed(T, S, g, c):
    """Combat commands: "The Combat Command moves at the speed of its slowest component" (the
    commander and the members in his ZOC, where they stand when it is ordered)."""
    m = base_allowance(T, S, g, c)
    for u in range(T.p_side.shape[0]):
        if u != c and S.p_cc[g, u] == c and cc_commander(T, S, g, u) == c:
            m = min(m, base_allowance(T, S, g, u))
    return m


@njit(cache=True)
def allowance(T, S, g, p):
    """Hexes piece p may move this turn: ``base_allowance``, and no more than its combat command's
    speed when it was ordered with the command (the command moves)."""
    m = base_allowance(T, S, g, p)
    if S.p_cc_move[g, p] >= 0:
        m = min(m, S.p_cc_move[g, p])
    return m


@njit(cache=True)
def enter_cost(T, S, g, p, h):
    """Hexes it costs piece p to enter h: 1, and for a vehicle 1 more per debris ("-1 hex to cross")."""
    vehicle = T.c_class[T.p_card[p]] == C_VEHICLE or S.p_mounted[g, p]
    if not vehicle:
        return 1
    n = 1
    for f in range(N_FEATURES):
        if has_feature(S, g, h, f):
            n += T.f_vehicle_cost[f]
    return n


@njit(cache=True)
def reach(T, S, g, p, unit_at, leader_at, cost):
    """``cost[h]``: the hexes piece p spends to move to h this turn, UNLIMITED where it cannot;
    its own hex costs 0.  Returns how many hexes other than its own it can reach.

    Units never enter a hex with another unit or an enemy commander or sniper; entering a friendly
    commander's or sniper's hex ends the move.  Commanders and snipers enter a friendly unit's hex
    (not one with another friendly commander or sniper) and stop there; never an enemy's hex."""
    H = T.nbr.shape[0]
    cost[:] = UNLIMITED
    start = S.p_hex[g, p]
    cost[start] = 0
    m = allowance(T, S, g, p)
    side = T.p_side[p]
    leader = is_leader(T, p)
    changed = True
    while changed:
        changed = False
        for h in range(H):
            c0 = cost[h]
            if c0 >= m:
                continue
            if h != start:
                # a piece stops in a hex it may not move on from
                if hex_stop(T, S, g, h) or T.max_move[h] > 0 or leader_at[h] >= 0 or (leader and unit_at[h] >= 0):
                    continue
            for d in range(6):
                n = T.nbr[h, d]
                if n < 0 or n == start:
                    continue
                if not may_enter(T, S, g, p, n):
                    continue
                u, ld = unit_at[n], leader_at[n]
                if leader:
                    if u >= 0 and T.p_side[u] != side:
                        continue
                    if ld >= 0:
                        continue
                else:
                    if u >= 0:
                        continue
                    if ld >= 0 and T.p_side[ld] != side:
                        continue
                if T.max_move[n] > 0 and c0 > 0:
                    continue   # "Maximum 1 hex": only as the first hex of a move
                c1 = c0 + enter_cost(T, S, g, p, n)
                if c1 <= m and c1 < cost[n]:
                    cost[n] = c1
                    changed = True
    n = 0
    for h in range(H):
        if h != start and cost[h] < UNLIMITED:
            n += 1
    return n


@njit(cache=True)
def _line_blocked(T, S, g, line, src, side, artillery, unit_at):
    """Whether an obstruction stands on the hexes of ``line`` (-1 ends it): blocking terrain or a
    unit (a lone commander or sniper is none).  Artillery fires over a friendly unit in an adjacent
    hex on lower ground."""
    for i in range(line.shape[0]):
        h = line[i]
        if h < 0:
            break
        if hex_blocks(T, S, g, h):
            return True
        u = unit_at[h]
        if u >= 0:
            if artillery and T.p_side[u] == side and T.dist[src, h] == 1 and T.elevation[h] < T.elevation[src]:
                continue
            return True
    return False


@njit(cache=True)
def _sight(T, S, g, a, b, side, artillery, unit_at):
    """Line of sight from hex a to hex b: blocked only where obstructions stand on the line; a line
    along hexsides is blocked only with obstructions on both sides of it (the two nudged lines of
    the sight tables).  The target hex itself never blocks; at night only lit hexes are seen
    beyond the adjacent ones."""
    if T.dist[a, b] <= 1:
        return True
    if T.night and not S.lit[g, b]:
        return False   # night games: beyond the adjacent hexes only what a flare lights
    return not (_line_blocked(T, S, g, T.sight_a[a, b], a, side, artillery, unit_at)
                and _line_blocked(T, S, g, T.sight_b[a, b], a, side, artillery, unit_at))


@njit(cache=True)
def sees(T, S, g, shooter, target_hex, unit_at):
    """Line of sight from the shooter's hex to ``target_hex`` (``_sight``, with the artillery
    exception for artillery)."""
    return _sight(T, S, g, S.p_hex[g, shooter], target_hex, T.p_side[shooter], is_gun(T, shooter), unit_at)


@njit(cache=True)
def hex_sees(T, S, g, a, b, unit_at):
    """Line of sight between two hexes for a commander spotting (no artillery exception)."""
    return _sight(T, S, g, a, b, -1, False, unit_at)


@njit(cache=True)
def retreat_hexes(T, S, g, p, unit_at, leader_at, out):
    """Where unit p may retreat one hex: ``out[h]`` for each free neighbour toward its own edge
    (no unit there, not an enemy commander's or sniper's hex, not a river).  Returns (free hexes,
    whether a step toward its edge leads off the map)."""
    out[:] = False
    h0 = S.p_hex[g, p]
    side = T.p_side[p]
    carried = leader_at[h0] >= 0 and not is_leader(T, p)   # the commander or sniper that goes with it
    n = 0
    off = False
    for d in range(6):
        if not T.toward_home[side, d]:
            continue
        h = T.nbr[h0, d]
        if h < 0:
            off = True
            continue
        if unit_at[h] >= 0 or T.enter[h] == ENTER_NONE:   # "Terrain has no effect on retreat moves"
            continue
        if leader_at[h] >= 0 and (T.p_side[leader_at[h]] != side or is_leader(T, p) or carried):
            continue   # an enemy's hex; or two commanders / snipers would share it
        out[h] = True
        n += 1
    return n, off


@njit(cache=True)
def controlled_count(T, S, g, c):
    n = 0
    for u in range(T.p_side.shape[0]):
        if S.p_leader[g, u] == c and S.p_hex[g, u] >= 0:
            n += 1
    return n


@njit(cache=True)
def update_control(T, S, g, unit_at):
    """Platoons after pieces moved or retreated: a commander controls the friendly unit in his hex
    and at most one more next to it; a unit stays controlled while it stands in or next to its
    commander's hex and he shares a hex with a unit of his; otherwise control ends."""
    P = T.p_side.shape[0]
    for u in range(P):
        c = S.p_leader[g, u]
        if c < 0:
            continue
        if S.p_hex[g, u] < 0 or S.p_hex[g, c] < 0 or T.dist[S.p_hex[g, u], S.p_hex[g, c]] > 1:
            S.p_leader[g, u] = -1
    for c in range(P):
        if not is_commander(T, c):
            continue
        own = -1
        if S.p_hex[g, c] >= 0:
            u = unit_at[S.p_hex[g, c]]
            if u >= 0 and T.p_side[u] == T.p_side[c]:
                own = u
        if own >= 0:
            S.p_leader[g, own] = c   # the unit in his hex is his, whoever controlled it before
        extra = 0
        for v in range(P):
            if S.p_leader[g, v] == c and v != own:
                extra += 1
                if own < 0 or extra > 1:
                    S.p_leader[g, v] = -1
