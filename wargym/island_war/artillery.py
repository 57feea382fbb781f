"""Artillery (8.0): barrage, range, adjacent attacks and Final Protective Fire eligibility.

8.11-8.12: range counts the target hex but not the artillery's own, which is exactly the hex
distance ``T.dist``; artillery ignores line of sight and intervening terrain or units (8.11, 8.61).
Which artillery may barrage is decided with the other combat facts in combat.unit_flags; the
declaration rules (8.13, 8.22, 8.31-8.32) are in combat.declare_mask.
"""

from wargym.island_war.scenario import ARTILLERY
from wargym.island_war.state import ON_MAP
from wargym.jit import njit


@njit(cache=True)
def fpf_mask(T, S, g, near, out):
    """Mark the hexes of artillery that may add FPF to the attack being resolved.

    8.41: a non-phasing artillery unit not successfully attacked nor displaced this Combat Phase,
    with no adverse result in the previous one, and not adjacent to an enemy unit; interpretation:
    it has not already given FPF this Combat Phase, and is not itself under attack (8.5: attacked
    artillery uses its Defense Strength).  8.42: a defender must be within its range, counted to
    the defender's hex."""
    U = T.u_side.shape[0]
    hexes, dist, rng = S.unit_hex[g], T.dist, T.u_range
    defender = S.cb_defender[g]
    cp, p = S.combat_phase[g], S.phasing[g]
    for u in range(U):
        if T.u_type[u] != ARTILLERY or T.u_fpf[u] <= 0 or S.unit_status[g, u] != ON_MAP or T.u_side[u] == p:
            continue
        if S.fpf_used[g, u] or defender[u] or S.cb_fpf[g, u] or S.last_adverse[g, u] >= cp - 1 or near[u]:
            continue
        for d in range(U):
            if defender[d] and dist[hexes[u], hexes[d]] <= rng[u]:
                out[hexes[u]] = True
                break


@njit(cache=True)
def fpf_allowed(T, S, g):
    """8.45: no FPF against an attack made solely by artillery (adjacent or not) and/or Ground
    Support; some attacker must be a non-artillery unit."""
    for u in range(T.u_side.shape[0]):
        if S.cb_attacker[g, u] and T.u_type[u] != ARTILLERY:
            return True
    return False
