"""Artillery (8.0): barrage, range, adjacent attacks and Final Protective Fire eligibility.

8.11-8.12: range counts the target hex but not the artillery's own, which is exactly the hex
distance; artillery ignores line of sight and intervening terrain or units (8.11, 8.61).
"""

from numba import njit

from wargym.island_war.scenario import ARTILLERY
from wargym.island_war.state import ON_MAP
from wargym.island_war.zoc import has_adjacent_enemy


@njit(cache=True)
def in_range(T, u, from_hex, target_hex):
    """8.12: target within the Range Allowance (target hex counted, own hex not)."""
    return T.dist[from_hex, target_hex] <= T.u_range[u]


@njit(cache=True)
def may_barrage(T, S, g, u, occ):
    """An artillery unit that can attack from a distance this Combat Phase: it has not attacked
    (7.14) and is not adjacent to an enemy (8.31: then it must attack adjacent units)."""
    return (T.u_type[u] == ARTILLERY and T.u_barrage[u] > 0 and S.unit_status[g, u] == ON_MAP
            and not S.attacked[g, u] and not S.advanced[g, u] and not has_adjacent_enemy(T, S, g, u, occ))


@njit(cache=True)
def may_fire_fpf(T, S, g, u, occ):
    """8.41: a non-phasing artillery unit may give FPF if it has not been successfully attacked
    or displaced this Combat Phase, suffered no adverse result in the previous Combat Phase, is not
    adjacent to an enemy unit, and (interpretation) has not already given FPF this Combat Phase
    and is not itself under attack (8.5: attacked artillery uses its Defense Strength)."""
    return (T.u_type[u] == ARTILLERY and T.u_fpf[u] > 0 and S.unit_status[g, u] == ON_MAP
            and T.u_side[u] != S.phasing[g] and not S.fpf_used[g, u] and not S.cb_defender[g, u]
            and not S.cb_fpf[g, u] and S.last_adverse[g, u] < S.combat_phase[g] - 1
            and not has_adjacent_enemy(T, S, g, u, occ))


@njit(cache=True)
def fpf_reaches(T, S, g, u):
    """8.42: the defending unit receiving FPF must be in range, counted to its own hex."""
    for d in range(T.u_side.shape[0]):
        if S.cb_defender[g, d] and in_range(T, u, S.unit_hex[g, u], S.unit_hex[g, d]):
            return True
    return False


@njit(cache=True)
def fpf_allowed(T, S, g):
    """8.45: no FPF against an attack made solely by artillery (adjacent or not) and/or Ground
    Support; some attacker must be a non-artillery unit."""
    for u in range(T.u_side.shape[0]):
        if S.cb_attacker[g, u] and T.u_type[u] != ARTILLERY:
            return True
    return False
