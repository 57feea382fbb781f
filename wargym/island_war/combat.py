"""Combat (7.0-7.6): which units attack, multi-unit and multi-hex combat, terrain, the CRT.

An attack is declared one unit at a time (see actions.py): first a defending hex, then attackers
and further defenders, Ground Support, Banzai, then CONFIRM.  The functions here decide what may
be added and whether the declaration may be resolved; the same functions build the action mask
and check the action, so the rule exists once.

Interpretation of the mandatory-combat rules (README): 7.11/7.12 oblige every pair of adjacent
opposing units, neither yet in a combat this phase, to be resolved before the Combat Phase may end;
7.21 is enforced when an attack is confirmed: every enemy unit adjacent to one of its adjacent
attackers, and not attacked in it, must still have another phasing unit next to it that has not
attacked; and (7.12) every phasing unit adjacent to one of its defenders but left out of it must
still have an unattacked enemy next to it; so nobody's obligation becomes impossible.  A unit that advanced after combat may
neither attack nor be attacked (7.96).
"""

import numpy as np

from wargym.island_war.banzai import doubled
from wargym.island_war.scenario import ARTILLERY, JAPAN, RIVER
from wargym.island_war.state import ON_MAP
from wargym.jit import njit


@njit(cache=True)
def unit_flags(T, S, g, occ):
    """Per-unit facts every combat rule asks, computed once per decision:
    fresh[u]    on the map and not yet in a combat this Combat Phase (7.14, 7.96);
    near[u]     in an enemy controlled hex (6.23: adjacent to an enemy unit);
    barrage[u]  artillery that may attack from a distance: fresh and not next to an enemy (8.11,
                8.31: artillery next to an enemy must attack adjacent units)."""
    U = T.u_side.shape[0]
    side, nbr = T.u_side, T.nbr
    status, hexes, attacked, advanced = S.unit_status[g], S.unit_hex[g], S.attacked[g], S.advanced[g]
    fresh = np.zeros(U, dtype=np.bool_)
    near = np.zeros(U, dtype=np.bool_)
    for u in range(U):
        if status[u] != ON_MAP:
            continue
        fresh[u] = not attacked[u] and not advanced[u]
        h = hexes[u]
        for d in range(6):
            n = nbr[h, d]
            if n >= 0 and occ[n] >= 0 and side[occ[n]] != side[u]:
                near[u] = True
    barrage = fresh & ~near & (T.u_type == ARTILLERY) & (T.u_barrage > 0)
    return fresh, near, barrage


@njit(cache=True)
def fresh(S, g, u):
    """``unit_flags``' fresh for a single unit (branch-free: cheap for numba to call)."""
    return (S.unit_status[g, u] == ON_MAP) & (not S.attacked[g, u]) & (not S.advanced[g, u])


@njit(cache=True)
def open_obligation(T, S, g, fresh):
    """7.11/7.12: some phasing unit and some adjacent enemy unit are both still unresolved."""
    U = T.u_side.shape[0]
    side, dist, hexes, p = T.u_side, T.dist, S.unit_hex[g], S.phasing[g]
    for u in range(U):
        if side[u] != p or not fresh[u]:
            continue
        for e in range(U):
            if side[e] != p and fresh[e] and dist[hexes[u], hexes[e]] == 1:
                return True
    return False


@njit(cache=True)
def target_mask(T, S, g, fresh, can_barrage, out):
    """Mark the hexes of enemy units that may open an attack: unresolved, with an unresolved
    phasing unit adjacent (7.15) or an artillery unit able to barrage them (8.11)."""
    U = T.u_side.shape[0]
    side, dist, hexes, rng, p = T.u_side, T.dist, S.unit_hex[g], T.u_range, S.phasing[g]
    for e in range(U):
        if side[e] == p or not fresh[e]:
            continue
        he = hexes[e]
        for u in range(U):
            if side[u] != p or not fresh[u]:
                continue
            d = dist[hexes[u], he]
            if d == 1 or (d <= rng[u] and can_barrage[u]):
                out[he] = True
                break


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
def declare_mask(T, S, g, fresh, near, can_barrage, out):
    """Mark the hexes of units that may join the attack being declared.

    Attackers (7.15, 7.23, 8.31-8.32): a unit next to an enemy attacks only adjacent defenders and
    must be adjacent to all of them; any other unit may join only as artillery barraging a defender
    within range (8.11, 8.22).  Defenders (7.23, 8.13): adjacent to every adjacent attacker, and some
    phasing unit adjacent to it and to all current defenders is, or can still become, an attacker
    (several defending hexes only in a combined attack)."""
    U = T.u_side.shape[0]
    side, dist, hexes, rng, p = T.u_side, T.dist, S.unit_hex[g], T.u_range, S.phasing[g]
    attacker, barrage, defender = S.cb_attacker[g], S.cb_barrage[g], S.cb_defender[g]
    defs = np.empty(U, dtype=np.int64)
    n_def = 0
    for d in range(U):
        if defender[d]:
            defs[n_def] = hexes[d]
            n_def += 1
    # phasing units adjacent to every current defender (potential adjacent attackers)
    next_to_all = np.zeros(U, dtype=np.bool_)
    for u in range(U):
        if side[u] != p or not (attacker[u] or fresh[u]) or barrage[u]:
            continue
        ok = True
        for i in range(n_def):
            if dist[hexes[u], defs[i]] != 1:
                ok = False
                break
        next_to_all[u] = ok
    for u in range(U):
        if side[u] != p or not fresh[u] or attacker[u]:
            continue
        if near[u]:
            if next_to_all[u]:
                out[hexes[u]] = True
        elif can_barrage[u]:
            for i in range(n_def):
                if dist[hexes[u], defs[i]] <= rng[u]:
                    out[hexes[u]] = True
                    break
    for e in range(U):
        if side[e] == p or not fresh[e] or defender[e]:
            continue
        he = hexes[e]
        ok = True
        for a in range(U):
            if attacker[a] and not barrage[a] and dist[hexes[a], he] != 1:
                ok = False
                break
        if not ok:
            continue
        for u in range(U):
            if next_to_all[u] and dist[hexes[u], he] == 1:
                out[he] = True
                break


@njit(cache=True)
def leaves_no_one_behind(T, S, g, fresh):
    """7.21 (see module docstring): every enemy next to an adjacent attacker that is not attacked
    here keeps another unresolved phasing unit next to it; 7.12: every phasing unit next to a
    defender that does not attack here keeps another unresolved enemy next to it."""
    U = T.u_side.shape[0]
    side, dist, hexes, p = T.u_side, T.dist, S.unit_hex[g], S.phasing[g]
    attacker, barrage, defender = S.cb_attacker[g], S.cb_barrage[g], S.cb_defender[g]
    for a in range(U):
        if not attacker[a] or barrage[a]:
            continue
        for e in range(U):
            if side[e] == p or defender[e] or not fresh[e] or dist[hexes[a], hexes[e]] != 1:
                continue
            covered = False
            for v in range(U):
                if side[v] == p and not attacker[v] and fresh[v] and dist[hexes[v], hexes[e]] == 1:
                    covered = True
                    break
            if not covered:
                return False
    # 7.12: a phasing unit next to a defender of this attack but left out of it must keep an
    # unresolved enemy next to it, or it could never attack (the defender is done, 7.14)
    for v in range(U):
        if side[v] != p or attacker[v] or not fresh[v]:
            continue
        next_to_defender, other_enemy = False, False
        for e in range(U):
            if side[e] == p or dist[hexes[v], hexes[e]] != 1:
                continue
            if defender[e]:
                next_to_defender = True
            elif fresh[e]:
                other_enemy = True
        if next_to_defender and not other_enemy:
            return False
    return True


@njit(cache=True)
def has_sides(T, S, g):
    """Attackers and defenders exist, several defenders only with an adjacent attacker (8.13)."""
    n_all, n_adj = count_attackers(T, S, g)
    n_def = 0
    for d in range(T.u_side.shape[0]):
        if S.cb_defender[g, d]:
            n_def += 1
    return not (n_all == 0 or n_def == 0 or (n_def > 1 and n_adj == 0))


@njit(cache=True)
def may_resolve(T, S, g, fresh):
    """The declared attack is complete: ``has_sides``, and 7.12/7.21 hold."""
    return has_sides(T, S, g) and leaves_no_one_behind(T, S, g, fresh)


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
