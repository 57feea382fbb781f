"""Japanese massed infantry ("Banzai") attacks (10.0).

The Japanese player declares the attack a Banzai attack before the die is rolled; the Attack
Strength of the Japanese infantry and engineer units in it is doubled (10.11).  After the result,
Japanese units whose total printed Attack Strength equals (at least) the printed Defense Strength of
the American unit(s) attacked are removed: infantry and engineers first, then armor, then adjacent
artillery (10.12); never barraging artillery (10.13).  Within a class the fewest units that reach
the requirement are removed (10.12), ties broken by the smallest total, then by unit order.

Interpretation (README): removal happens as the result is applied, before any retreat, so removed
units never retreat; units eliminated by the result itself count toward nothing.  An artillery
unit's "printed attack strength" is its Barrage Strength.
"""

import numpy as np

from wargym.island_war.scenario import ARMOR, ARTILLERY, ENGINEER, INFANTRY
from wargym.island_war.state import ON_MAP
from wargym.jit import njit


@njit(cache=True)
def doubled(T, u):
    """10.11: only infantry and engineer attack strengths are doubled."""
    return T.u_type[u] == INFANTRY or T.u_type[u] == ENGINEER


@njit(cache=True)
def printed_attack(T, u):
    return T.u_barrage[u] if T.u_type[u] == ARTILLERY else T.u_attack[u]


@njit(cache=True)
def fewest_reaching(strengths, need):
    """Indices (into ``strengths``) of the fewest items whose sum >= need, smallest sum among
    those, earliest items on ties; all items when even their total falls short."""
    n = strengths.shape[0]
    total = 0
    for i in range(n):
        total += strengths[i]
    if total < need:
        return np.arange(n)
    best_mask, best_count, best_sum = -1, n + 1, 1 << 30
    for mask in range(1, 1 << n):
        count, s = 0, 0
        for i in range(n):
            if mask & (1 << i):
                count += 1
                s += strengths[i]
        if s >= need and (count < best_count or (count == best_count and s < best_sum)):
            best_mask, best_count, best_sum = mask, count, s
    out = np.empty(best_count, dtype=np.int64)
    k = 0
    for i in range(n):
        if best_mask & (1 << i):
            out[k] = i
            k += 1
    return out


@njit(cache=True)
def exchange_losses(T, S, g):
    """Units (indices) the Japanese player must remove after the Banzai attack in progress."""
    U = T.u_side.shape[0]
    need = 0
    for u in range(U):
        if S.cb_defender[g, u]:
            need += T.u_defense[u]
    removed = np.zeros(U, dtype=np.bool_)
    for cls in range(3):  # infantry+engineers, then armor, then adjacent artillery (10.12)
        if need <= 0:
            break
        cand = np.empty(U, dtype=np.int64)
        strength = np.empty(U, dtype=np.int64)
        n = 0
        for u in range(U):
            if not S.cb_attacker[g, u] or S.cb_barrage[g, u] or S.unit_status[g, u] != ON_MAP:
                continue  # 10.13: never barraging artillery
            t = T.u_type[u]
            member = (cls == 0 and (t == INFANTRY or t == ENGINEER)) or (cls == 1 and t == ARMOR) or \
                     (cls == 2 and t == ARTILLERY)
            if member:
                cand[n] = u
                strength[n] = printed_attack(T, u)
                n += 1
        if n == 0:
            continue
        pick = fewest_reaching(strength[:n], need)
        for i in pick:
            removed[cand[i]] = True
            need -= strength[i]
    return removed
