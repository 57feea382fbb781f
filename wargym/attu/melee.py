"""Melee Combat (8.2) with the surround bonus of 6.2 and the heroes of 11.1-11.2.

Declaring (Step 5/6): a unit that may melee (not artillery, not a depot) names an adjacent enemy
hex it could move into (no cliff, 5.7); every declaring unit of one hex names the same hex.
Resolving (Step 7): the players pick target hexes in turn (U.S. first by day, Japan at night); all
not-yet-fought units that declared against the hex attack it, every unit in it defends, and nobody
who fought takes part in another Melee this step.  Unknowns among them are revealed first (2.5).
Rounds: defensive fire, offensive fire, the U.S. retreat option, until the attackers or the
defender's hex are gone; then the attacker may advance (8.2.1).

Interpretations (README): the level and up-slope modifiers of 8.3 ("attacking ...") apply to
offensive fire only; the 6.2 bonus is counted before each offensive fire from the attackers still
in the Melee; a U.S. unit that must retreat with no hex to go to is eliminated; when neither side
has a die to roll the Melee ends as it stands.
"""

from numba import njit

from wargym.attu.board import is_infantry_like, side_of, stack_ok, zoc_of
from wargym.attu.ranged import weather_modifier
from wargym.attu.scenario import ARTILLERY, DEPOT, ENGINEER, IMPASSABLE, INFANTRY, JAPAN, US
from wargym.attu.state import (
    LOC_MAP, M_HIGHER, M_NIGHT, M_SUPPLY, M_SURROUND5, M_SURROUND6, M_UPSLOPE, OPT_SOLITAIRE,
)

MAX_ROUNDS = 60


@njit(cache=True)
def declare_direction_ok(T, S, g, u, d, occ):
    """8.2: unit u may Declare Melee into its neighbour in direction d."""
    if not is_infantry_like(T, S, g, u):
        return False
    a = S.unit_hex[g, u]
    t = T.nbr[a, d]
    side = side_of(T, S, g, u)
    if t < 0 or not T.zoc_reach[a, d] or occ[t] != 1 - side:
        return False
    for v in range(T.u_side.shape[0]):  # one target per hex
        if S.unit_loc[g, v] == LOC_MAP and S.unit_hex[g, v] == a and v != u and S.melee_target[g, v] >= 0 \
                and S.melee_target[g, v] != t and side_of(T, S, g, v) == side:
            return False
    return True


@njit(cache=True)
def pickable(T, S, g, side, t, occ):
    """Hex t may be picked by ``side`` for its next Melee (3.7, 8.2)."""
    if occ[t] != 1 - side:
        return False
    for v in range(T.u_side.shape[0]):
        if S.unit_loc[g, v] == LOC_MAP and S.unit_hex[g, v] == t and S.fought[g, v]:
            return False
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and S.melee_target[g, u] == t and not S.fought[g, u] \
                and side_of(T, S, g, u) == side and T.dist[S.unit_hex[g, u], t] == 1:
            return True
    return False


@njit(cache=True)
def any_pickable(T, S, g, side, occ):
    for u in range(T.u_side.shape[0]):
        t = S.melee_target[g, u]
        if t >= 0 and S.unit_loc[g, u] == LOC_MAP and side_of(T, S, g, u) == side and not S.fought[g, u]:
            if pickable(T, S, g, side, t, occ):
                return True
    return False


@njit(cache=True)
def surround_count(T, S, g):
    """6.2: neighbours of the target counting for the attackers: their hexes, their ZOCs (not
    into a hex holding defending-side units) and impassable hexsides."""
    t = S.mel_hex[g]
    side = S.mel_side[g]
    n = 0
    for d in range(6):
        h = T.nbr[t, d]
        if h < 0 or not T.land[h] or T.cliff[t, d]:
            n += 1  # impassable: counts as occupied or controlled (6.2)
            continue
        occupied_by_attacker = False
        enemy_here = False
        for u in range(T.u_side.shape[0]):
            if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == h:
                if S.mel_att[g, u]:
                    occupied_by_attacker = True
                elif side_of(T, S, g, u) != side:
                    enemy_here = True
        if occupied_by_attacker:
            n += 1
        elif not enemy_here and attacker_zoc_in(T, S, g, h):
            n += 1
    return n


@njit(cache=True)
def attacker_zoc_in(T, S, g, h):
    for u in range(T.u_side.shape[0]):
        if S.mel_att[g, u] and S.unit_loc[g, u] == LOC_MAP:
            a = S.unit_hex[g, u]
            for e in range(6):
                if T.nbr[a, e] == h and T.zoc_reach[a, e]:
                    return True
    return False


@njit(cache=True)
def melee_dice(T, S, g, u):
    k = S.unit_steps[g, u]
    if k <= 0:
        return 0
    if S.mel_arnold[g] == u:
        return 6  # 11.2
    n = T.u_melee[u, k - 1]
    if T.opts[OPT_SOLITAIRE] and side_of(T, S, g, u) == JAPAN and T.u_type[u] == INFANTRY \
            and defending_last_victory_hex(T, S, g, u):
        n *= 2  # 13.4
    return n


@njit(cache=True)
def defending_last_victory_hex(T, S, g, u):
    h = S.unit_hex[g, u]
    if S.mel_hex[g] != h or S.mel_att[g, u]:
        return False
    held_by_japan = 0
    here = False
    for z in range(6):
        v = T.victory_hex[z]
        if T.zone[v] < 0:
            continue
        jp = False
        for w in range(T.u_side.shape[0]):
            if S.unit_loc[g, w] == LOC_MAP and S.unit_hex[g, w] == v and side_of(T, S, g, w) == JAPAN:
                jp = True
        if jp:
            held_by_japan += 1
            if v == h:
                here = True
    return here and held_by_japan == 1


@njit(cache=True)
def melee_modifier(T, S, g, u, offensive, supplied, surround):
    """8.3, Melee column, for unit u firing (offensively at S.mel_hex, or defensively)."""
    m = weather_modifier(T, S, g, T.mod_melee)
    if S.night[g] and T.u_type[u] != ARTILLERY:
        m += T.mod_melee[M_NIGHT]
    if not supplied:
        m += T.mod_melee[M_SUPPLY]
    if offensive:
        a = S.unit_hex[g, u]
        t = S.mel_hex[g]
        if T.level[t] > T.level[a]:
            m += T.mod_melee[M_HIGHER]
        for d in range(6):
            if T.nbr[a, d] == t and T.slope[a, d]:
                m += T.mod_melee[M_UPSLOPE]
        if surround >= 6:
            m += T.mod_melee[M_SURROUND6]
        elif surround == 5:
            m += T.mod_melee[M_SURROUND5]
    return m


@njit(cache=True)
def retreat_ok(T, S, g, u, h, jzoc):
    """8.2.1.3: an adjacent hex the unit could legally move into, not in a Japanese ZOC."""
    a = S.unit_hex[g, u]
    for d in range(6):
        if T.nbr[a, d] == h:
            if T.cost[US, a, d] >= IMPASSABLE or jzoc[h]:
                return False
            for v in range(T.u_side.shape[0]):
                if S.unit_loc[g, v] == LOC_MAP and S.unit_hex[g, v] == h and side_of(T, S, g, v) == JAPAN:
                    return False
            return stack_ok(T, S, g, h, u)
    return False


@njit(cache=True)
def retreat_hexes(T, S, g, u, out):
    jzoc = zoc_of(T, S, g, JAPAN)
    n = 0
    a = S.unit_hex[g, u]
    for d in range(6):
        h = T.nbr[a, d]
        if h >= 0 and retreat_ok(T, S, g, u, h, jzoc):
            out[h] = True
            n += 1
    return n


@njit(cache=True)
def arnold_candidate(T, S, g):
    """11.2: the first U.S. Engineer or Supply Depot defending in this Melee, or -1."""
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == S.mel_hex[g] and side_of(T, S, g, u) == US \
                and (T.u_type[u] == ENGINEER or T.u_type[u] == DEPOT):
            return u
    return -1


@njit(cache=True)
def martinez_may(T, S, g, firing_side):
    """11.1: U.S. melee dice just rolled with a U.S. Infantry unit in the Melee and a miss to turn."""
    if firing_side != US or S.heroes_used[g, 0]:
        return False
    infantry = False
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and side_of(T, S, g, u) == US and T.u_type[u] == INFANTRY and \
                (S.mel_att[g, u] or S.unit_hex[g, u] == S.mel_hex[g]):
            infantry = True
    return infantry and S.mel_martinez[g] > 0


@njit(cache=True)
def side_dice(T, S, g, attackers):
    total = 0
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] != LOC_MAP:
            continue
        if attackers and S.mel_att[g, u] or not attackers and S.unit_hex[g, u] == S.mel_hex[g] \
                and not S.mel_att[g, u]:
            total += melee_dice(T, S, g, u)
    return total


@njit(cache=True)
def attackers_left(T, S, g):
    for u in range(T.u_side.shape[0]):
        if S.mel_att[g, u] and S.unit_loc[g, u] == LOC_MAP:
            return True
    return False


@njit(cache=True)
def defenders_left(T, S, g):
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == S.mel_hex[g]:
            return True
    return False


@njit(cache=True)
def advance_ok(T, S, g, u):
    """8.2.1.4: an attacker may advance into the vacated hex whatever the MP cost (stacking holds)."""
    return S.mel_att[g, u] and S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] != S.mel_hex[g] \
        and stack_ok(T, S, g, S.mel_hex[g], u)

