"""Combat (7.0-7.6): which units attack, multi-unit and multi-hex combat, terrain, the CRT.

An attack is declared one unit at a time (see actions.py): first a defending hex, then attackers
and further defenders, Ground Support, Banzai, then CONFIRM.  The functions here decide what may
be added and whether the declaration may be resolved; the same functions build the action mask
and check the action, so the rule exists once.

Interpretation of the mandatory-combat rules (README): 7.11/7.12 oblige every pair of adjacent
opposing units, neither yet in a combat this phase, to be resolved before the Combat Phase may end;
7.21 is enforced when an attack is confirmed: every enemy unit adjacent to one of its adjacent
attackers, and not attacked in it, must still have another phasing unit next to it that has not
attacked, so nobody's obligation becomes impossible.  A unit that advanced after combat may
neither attack nor be attacked (7.96).
"""

from numba import njit

from wargym.island_war.artillery import in_range, may_barrage
from wargym.island_war.banzai import doubled
from wargym.island_war.scenario import ARTILLERY, JAPAN, RIVER
from wargym.island_war.state import ON_MAP
from wargym.island_war.zoc import adjacent, has_adjacent_enemy


@njit(cache=True)
def fresh(S, g, u):
    """On the map and not yet in a combat this Combat Phase (7.14, 7.96)."""
    return S.unit_status[g, u] == ON_MAP and not S.attacked[g, u] and not S.advanced[g, u]


@njit(cache=True)
def open_obligation(T, S, g):
    """7.11/7.12: some phasing unit and some adjacent enemy unit are both still unresolved."""
    U = T.u_side.shape[0]
    p = S.phasing[g]
    for u in range(U):
        if T.u_side[u] != p or not fresh(S, g, u):
            continue
        for e in range(U):
            if T.u_side[e] != p and fresh(S, g, e) and adjacent(T, S.unit_hex[g, u], S.unit_hex[g, e]):
                return True
    return False


@njit(cache=True)
def may_target(T, S, g, e, occ):
    """The enemy unit e may open an attack: it is unresolved and some unresolved phasing unit is
    adjacent to it (7.15), or some artillery could barrage it (8.11)."""
    p = S.phasing[g]
    if T.u_side[e] == p or not fresh(S, g, e):
        return False
    for u in range(T.u_side.shape[0]):
        if T.u_side[u] != p or not fresh(S, g, u):
            continue
        if adjacent(T, S.unit_hex[g, u], S.unit_hex[g, e]):
            return True
        if may_barrage(T, S, g, u, occ) and in_range(T, u, S.unit_hex[g, u], S.unit_hex[g, e]):
            return True
    return False


@njit(cache=True)
def count_attackers(T, S, g):
    """(all attackers, adjacent attackers) of the attack being declared."""
    n_all, n_adj = 0, 0
    for u in range(T.u_side.shape[0]):
        if S.cb_attacker[g, u]:
            n_all += 1
            if not S.cb_barrage[g, u]:
                n_adj += 1
    return n_all, n_adj


@njit(cache=True)
def adjacent_to_all_defenders(T, S, g, u):
    for d in range(T.u_side.shape[0]):
        if S.cb_defender[g, d] and not adjacent(T, S.unit_hex[g, u], S.unit_hex[g, d]):
            return False
    return True


@njit(cache=True)
def may_add_defender(T, S, g, e, occ):
    """7.23: every adjacent attacker must be adjacent to every defender; 8.13: several defending
    hexes only in a combined attack, so an adjacent attacker must exist or still be possible."""
    p = S.phasing[g]
    if T.u_side[e] == p or not fresh(S, g, e) or S.cb_defender[g, e]:
        return False
    h = S.unit_hex[g, e]
    for u in range(T.u_side.shape[0]):
        if S.cb_attacker[g, u] and not S.cb_barrage[g, u] and not adjacent(T, S.unit_hex[g, u], h):
            return False
    # some phasing unit adjacent to this and all current defenders is (or can become) an attacker
    for u in range(T.u_side.shape[0]):
        if T.u_side[u] != p or S.unit_status[g, u] != ON_MAP or S.cb_barrage[g, u]:
            continue
        if not (S.cb_attacker[g, u] or fresh(S, g, u)):
            continue
        if adjacent(T, S.unit_hex[g, u], h) and adjacent_to_all_defenders(T, S, g, u):
            return True
    return False


@njit(cache=True)
def may_add_attacker(T, S, g, u, occ):
    """7.15/7.23: a unit next to an enemy attacks only adjacent defenders, and must be adjacent to
    all of them (8.31-8.32 for artillery); otherwise only artillery may join, barraging a defender
    within range (8.11, 8.22)."""
    if T.u_side[u] != S.phasing[g] or not fresh(S, g, u) or S.cb_attacker[g, u]:
        return False
    if has_adjacent_enemy(T, S, g, u, occ):
        return adjacent_to_all_defenders(T, S, g, u)
    if not may_barrage(T, S, g, u, occ):
        return False
    for d in range(T.u_side.shape[0]):
        if S.cb_defender[g, d] and in_range(T, u, S.unit_hex[g, u], S.unit_hex[g, d]):
            return True
    return False


@njit(cache=True)
def leaves_no_one_behind(T, S, g):
    """7.21 (see module docstring): every enemy next to an adjacent attacker that is not attacked
    here keeps another unresolved phasing unit next to it."""
    U = T.u_side.shape[0]
    p = S.phasing[g]
    for a in range(U):
        if not S.cb_attacker[g, a] or S.cb_barrage[g, a]:
            continue
        for e in range(U):
            if T.u_side[e] == p or S.cb_defender[g, e] or not fresh(S, g, e):
                continue
            if not adjacent(T, S.unit_hex[g, a], S.unit_hex[g, e]):
                continue
            covered = False
            for v in range(U):
                if T.u_side[v] == p and not S.cb_attacker[g, v] and fresh(S, g, v) and \
                        adjacent(T, S.unit_hex[g, v], S.unit_hex[g, e]):
                    covered = True
                    break
            if not covered:
                return False
    return True


@njit(cache=True)
def may_resolve(T, S, g):
    """The declared attack is complete: attackers and defenders exist, several defenders only
    with an adjacent attacker (8.13), and 7.21 holds."""
    n_all, n_adj = count_attackers(T, S, g)
    n_def = 0
    for d in range(T.u_side.shape[0]):
        if S.cb_defender[g, d]:
            n_def += 1
    if n_all == 0 or n_def == 0 or (n_def > 1 and n_adj == 0):
        return False
    return leaves_no_one_behind(T, S, g)


@njit(cache=True)
def may_banzai(T, S, g):
    """10.0: the Japanese player may convert a combat involving adjacent infantry/engineers."""
    if S.phasing[g] != JAPAN or S.cb_banzai[g]:
        return False
    for u in range(T.u_side.shape[0]):
        if S.cb_attacker[g, u] and not S.cb_barrage[g, u] and doubled(T, u):
            return True
    return False


@njit(cache=True)
def attack_strength(T, S, g):
    """Attack, Barrage and Ground Support strength of the attack (7.0, 8.21, 9.11), with the Banzai
    doubling of infantry and engineers (10.11)."""
    total = S.cb_gs_attack[g]
    for u in range(T.u_side.shape[0]):
        if S.cb_attacker[g, u]:
            if T.u_type[u] == ARTILLERY:
                total += T.u_barrage[u]  # 8.31: adjacent artillery attacks with its Barrage Strength
            elif S.cb_banzai[g] and doubled(T, u):
                total += 2 * T.u_attack[u]
            else:
                total += T.u_attack[u]
    return total


@njit(cache=True)
def defense_strength(T, S, g):
    """Defense Strength of the defenders plus FPF (8.43) and Ground Support FPF (9.11)."""
    total = S.cb_gs_defense[g]
    for u in range(T.u_side.shape[0]):
        if S.cb_defender[g, u]:
            total += T.u_defense[u]  # 8.5: attacked artillery uses its Defense Strength
        if S.cb_fpf[g, u]:
            total += T.u_fpf[u]
    return total


@njit(cache=True)
def terrain_line(T, S, g):
    """CRT line for the attack: each defender benefits from its hex, and from a river hexside only
    when every adjacent non-artillery attacker attacks across a river hexside (7.42, 8.62); the most
    favourable single line counts (7.44), and the best among several defenders (7.45)."""
    U = T.u_side.shape[0]
    best = -1
    for d in range(U):
        if not S.cb_defender[g, d]:
            continue
        h = S.unit_hex[g, d]
        line = T.hex_line[h]
        n_ground, n_river = 0, 0
        for a in range(U):
            if not S.cb_attacker[g, a] or S.cb_barrage[g, a] or T.u_type[a] == ARTILLERY:
                continue
            n_ground += 1
            ah = S.unit_hex[g, a]
            for k in range(6):
                if T.nbr[h, k] == ah and (T.hexside[h, k] & RIVER):
                    n_river += 1
        if n_ground > 0 and n_river == n_ground and T.line_rank[T.river_line] > T.line_rank[line]:
            line = T.river_line
        if best < 0 or T.line_rank[line] > T.line_rank[best]:
            best = line
    return best


@njit(cache=True)
def crt_column(T, differential):
    """Index of the differential column containing ``differential`` (7.61)."""
    k = 0
    for i in range(T.col_min.shape[0]):
        if differential >= T.col_min[i]:
            k = i
    return k
