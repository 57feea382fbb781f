"""U.S. supply (7.0).

Supply lines are traced from the Landing Zones (7.1) to the unit with U.S. movement costs and
the unit's own "standard move" at that moment, night and rain included (7.2); Supply Depots extend
the sources when they are themselves within a standard Engineer move (6 MP, 7.3) of a Landing Zone
or a connected depot.  A line may not pass a Japanese unit, nor a hex in a Japanese ZOC unless a
U.S. unit occupies it (7.2).  Interpretation: the minimum move (5.8) counts, so a unit next to a
source is in supply when the hexside between them is passable.  Checked immediately before a unit
fights or is refit (7.4); out of supply units suffer -2 (8.3) and may not refit (9.1).
"""

import numpy as np

from wargym.attu.board import occupancy, zoc_of
from wargym.attu.movement import INF, allowance, path_cost_from
from wargym.attu.scenario import DEPOT, IMPASSABLE, JAPAN, US
from wargym.attu.state import LOC_MAP
from wargym.jit import njit

ENGINEER_MOVE = 6  # 7.3
MAX_SUPPLY_MP = 24


@njit(cache=True)
def supply_blocked(T, S, g):
    """bool[H]: 7.2, the hexes no supply line may be traced through: Japanese units, and Japanese
    ZOCs no U.S. unit occupies."""
    H = T.nbr.shape[0]
    occ = occupancy(T, S, g)
    jzoc = zoc_of(T, S, g, JAPAN)
    blocked = np.zeros(H, dtype=np.bool_)
    for h in range(H):
        blocked[h] = occ[h] == JAPAN or (jzoc[h] and occ[h] != US)
    return blocked


@njit(cache=True)
def supply_distance(T, S, g):
    """int32[H]: U.S. MP from the nearest connected source (Landing Zone or Supply Depot)."""
    H = T.nbr.shape[0]
    blocked = supply_blocked(T, S, g)
    sources = np.empty(H, dtype=np.int32)
    n = 0
    for k in range(T.lz_hex.shape[0]):
        h = T.lz_hex[k]
        if h >= 0 and not blocked[h]:
            sources[n] = h
            n += 1
    dist = np.full(H, INF, dtype=np.int32)
    connected = np.zeros(T.u_side.shape[0], dtype=np.bool_)
    eng = allowance(T, S, g, -1, ENGINEER_MOVE)
    while True:
        path_cost_from(T, S, g, US, sources, n, blocked, MAX_SUPPLY_MP, dist)
        grew = False
        for u in range(T.u_side.shape[0]):
            if T.u_type[u] == DEPOT and S.unit_loc[g, u] == LOC_MAP and not connected[u]:
                h = S.unit_hex[g, u]
                if within(T, dist, h, eng):
                    connected[u] = True
                    sources[n] = h
                    n += 1
                    grew = True
        if not grew:
            return dist


@njit(cache=True)
def within(T, dist, h, mp):
    """h is within a standard move of ``mp`` from a source (5.8: or one passable hex from it)."""
    if dist[h] <= mp:
        return True
    if mp <= 0:
        return False
    for d in range(6):
        n = T.nbr[h, d]
        if n >= 0 and dist[n] == 0 and T.cost[US, n, (d + 3) % 6] < IMPASSABLE:
            return True
    return False


@njit(cache=True)
def in_supply(T, S, g, u, dist):
    """7.2 for U.S. unit u on the map (Japanese units are never out of supply)."""
    if T.u_side[u] != US or S.captured[g, u]:
        return True
    return within(T, dist, S.unit_hex[g, u], allowance(T, S, g, u, T.u_move[u]))
