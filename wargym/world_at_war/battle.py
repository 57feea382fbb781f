"""4. Battle and 5. Resolve battle for one game: who may battle whom, the dice, and what a throw
does (casualties, defence, flags).  The dice rules themselves are in dice.py.

A battle: the attacker (an ordered unit) names a target hex in range; the defender may make a
voluntary retreat or stand; the attacker throws its dice (unit card by range, less for the target's
terrain, one more for a supporting commander); the defender chooses which of two pieces in the hex,
or whether a mechanized unit's vehicle or personnel, takes the hits where the book gives him that
choice (the attacker where it gives it to him); hits are saved or not, casualties removed; a
defender that stood throws its defence die; then the flags make it retreat.

Interpretations (README): battling needs at least one die after terrain; the target must be in
sight, except that artillery with the indirect fire ability fires at a hex it cannot see (blind,
or guided when a friendly commander sees it) and may scatter; a commander alone is battled only by
infantry and vehicles; units engaged in close combat on this card are not fired on from a distance.
"""

from __future__ import annotations

from wargym.jit import njit
from wargym.world_at_war import dice
from wargym.world_at_war.board import (
    hex_attacker_less, hex_defender_less, hex_sees, is_commander, is_gun, is_leader, sees,
)
from wargym.world_at_war.scenario import C_ARTILLERY, C_INFANTRY, C_VEHICLE, K_ARTILLERY, K_SNIPER, SEA_TERRAIN


@njit(cache=True)
def terrain_class(T, p):
    return T.c_class[T.p_card[p]]


@njit(cache=True)
def battle_dice(T, S, g, a, target_hex, counts):
    """``counts[die]``: the dice attacker ``a`` casts at ``target_hex``: its card at that range,
    less the target hex's "Attacker" dice for its kind (none with a flamethrower at 1 hex), less its
    own hex's "Defender" dice.  Returns the total (0: it cannot battle there)."""
    ha = S.p_hex[g, a]
    d = T.dist[ha, target_hex]
    total = dice.dice_at(T.c_dice, T.p_card[a], d, counts)
    if total == 0:
        return 0
    cls = terrain_class(T, a)
    less = hex_defender_less(T, S, g, ha, cls)
    card = T.p_card[a]
    if T.c_armed[card] < T.c_figures[card]:
        less += 1   # "only part of a unit is equipped with firearms ... 1 die less"
    if not (T.c_flamethrower[T.p_card[a]] and d == 1):   # "No dice are deducted for cover"
        less += hex_attacker_less(T, S, g, target_hex, cls)
    return dice.deduct(counts, less)


@njit(cache=True)
def supporting_commander(T, S, g, a):
    """The commander who adds a die to unit a's battle: the one controlling it, once a turn, never
    for artillery ("Commanders in battle")."""
    if T.c_class[T.p_card[a]] == C_ARTILLERY or T.c_kind[T.p_card[a]] == K_ARTILLERY:
        return -1
    c = S.p_leader[g, a]
    if c < 0 or S.p_hex[g, c] < 0 or S.p_battled[g, c]:
        return -1
    return c


@njit(cache=True)
def attached(T, S, g, a):
    """The piece a sniper is attached to, or the sniper attached to unit a (a friendly sniper in
    its hex, appendix 1), -1."""
    h = S.p_hex[g, a]
    if h < 0 or is_commander(T, a):
        return -1
    sniper = T.c_kind[T.p_card[a]] == K_SNIPER
    for p in range(T.p_side.shape[0]):
        if p != a and S.p_hex[g, p] == h and T.p_side[p] == T.p_side[a] and not is_commander(T, p) \
                and (T.c_kind[T.p_card[p]] == K_SNIPER) != sniper:
            return p
    return -1


@njit(cache=True)
def may_battle(T, S, g, a):
    """Unit a may battle now: ordered, not yet battled, not a commander, not barred by the terrain
    it entered ("Stop & do not battle"), not in a sea hex, not in its vehicles; a unit and the
    sniper attached to it battle "either with one or the other" (appendix 1): not both in a turn."""
    if S.p_hex[g, a] < 0 or not S.p_ordered[g, a] or S.p_battled[g, a] or is_commander(T, a):
        return False
    if S.p_no_battle[g, a] or S.p_mounted[g, a] or T.terrain[S.p_hex[g, a]] == SEA_TERRAIN:
        return False
    other = attached(T, S, g, a)
    return other < 0 or not S.p_battled[g, other]


@njit(cache=True)
def defender_in(T, S, g, h, side, unit_at, leader_at):
    """The enemy piece a battle at hex h hits first: the unit there, else a lone commander or
    sniper; -1 when no enemy stands there."""
    u = unit_at[h]
    if u >= 0:
        return u if T.p_side[u] != side else -1
    ld = leader_at[h]
    if ld >= 0 and T.p_side[ld] != side:
        return ld
    return -1


@njit(cache=True)
def spotter(T, S, g, a, h, unit_at):
    """The friendly commander who guides artillery a's fire at hex h, -1: he sees h ("Spotting can
    only be done by commanders") and spots for no other artillery unit this turn ("Spotters may only
    interact with one artillery unit at a time")."""
    side = T.p_side[a]
    for c in range(T.p_side.shape[0]):
        if T.p_side[c] == side and is_commander(T, c) and S.p_hex[g, c] >= 0:
            if (S.p_spots[g, c] < 0 or S.p_spots[g, c] == a) and hex_sees(T, S, g, S.p_hex[g, c], h, unit_at):
                return c
    return -1


@njit(cache=True)
def may_target(T, S, g, a, h, unit_at, leader_at, counts):
    """Attacker a may battle the enemy in hex h: in range with at least one die, in sight (or
    artillery firing indirectly), the hex's restrictions kept."""
    side = T.p_side[a]
    e = defender_in(T, S, g, h, side, unit_at, leader_at)
    if e < 0:
        return False
    ha = S.p_hex[g, a]
    d = T.dist[ha, h]
    if d == 0:
        return False
    if is_leader(T, e) and is_commander(T, e):
        # "A commander can only be attacked by infantry or vehicles"
        cls = terrain_class(T, a)
        if cls != C_INFANTRY and cls != C_VEHICLE:
            return False
    if d > 1 and S.p_close[g, e]:
        return False   # engaged in close combat on this card: not fired on from a distance
    if T.adjacent_only[h] and d > 1 and not is_gun(T, a):
        return False   # depressions: infantry and tanks attack from adjacent hexes only
    if battle_dice(T, S, g, a, h, counts) == 0:
        return False
    if sees(T, S, g, a, h, unit_at):
        return True
    return T.c_indirect[T.p_card[a]]


@njit(cache=True)
def any_target(T, S, g, a, unit_at, leader_at, counts):
    for h in range(T.nbr.shape[0]):
        if may_target(T, S, g, a, h, unit_at, leader_at, counts):
            return True
    return False


@njit(cache=True)
def hit_target_kind(T, S, g, e, vehicle):
    """The kind of target the hits are scored against: the piece's card, or its vehicle's."""
    c = T.p_card[e]
    if vehicle and T.c_vehicle_target[c] >= 0:
        return T.c_vehicle_target[c]
    return T.c_target[c]


__all__ = ["battle_dice", "supporting_commander", "attached", "may_battle", "defender_in", "may_target", "any_target",
           "hit_target_kind", "spotter"]
