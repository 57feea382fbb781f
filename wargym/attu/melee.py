"""Melee Combat (8.2) with the surround bonus of 6.2, the heroes of 11.1-11.2, 13.4, and the
Melees fought during the Player Actions step (11.3.2 Yamasaki's assault, 13.3 ambushes).

Declaring (Step 5/6): a unit that may melee (not artillery, not a depot) names an adjacent enemy
hex it could move into (no cliff, 5.7; no zone closed to it, 10.0, 15.3); every declaring unit of
one hex names the same hex.
Resolving (Step 7): the players pick target hexes in turn (U.S. first by day, Japan at night); all
not-yet-fought units that declared against the hex attack it, every unit in it defends, and nobody
who fought takes part in another Melee this step.  Unknowns among them are revealed first (2.5).
Rounds: defensive fire, offensive fire, the U.S. retreat option, until the attackers or the
defender's hex are gone; then the attacker may advance (8.2.1).

The procedure: ``start_melee`` (Step 7) or ``start_step_melee`` (11.3.2, 13.3) sets a Melee up and
``melee_run`` carries it on until a decision is needed: each fire's hits wait in LOSS for their
owner (losses.py; Joe Martinez may first turn a U.S. miss, 11.1), units left alone in their hex
retreat or are eliminated (``orphans``, 8.2), the U.S. may retreat, and ``end_melee`` offers the
advance and captures set-aside U.S. artillery (8.2.1.4).  Its decisions: a declaration in
ACT_ORDER (``declare``), MELEE_PICK (``start_melee``), ARNOLD, MARTINEZ, RETREAT_OPTION, RETREAT and
ADVANCE.

Interpretations (README): the level and up-slope modifiers of 8.3 ("attacking ...") apply to
offensive fire only; the 6.2 bonus is counted before each offensive fire from the attackers still
in the Melee; a U.S. unit that must retreat with no hex to go to is eliminated; when neither side
has a die to roll the Melee ends as it stands.
"""

import numpy as np

from wargym.attu import yamasaki
from wargym.attu.actions import END, MAX_SLOTS, MELEE_0, SLOT_0, YES, allow_slots
from wargym.attu.board import is_infantry_like, occupancy, side_of, stack_ok, zoc_of
from wargym.attu.events import (
    ADVANCE as EV_ADVANCE, ARNOLD as EV_ARNOLD, CAPTURED, MARTINEZ as EV_MARTINEZ, MELEE, MELEE_FIRE, NO_RETREAT,
    P_DEFENSIVE, P_OFFENSIVE, R_AMBUSH, R_STEP7, R_YAMASAKI, RETREAT as EV_RETREAT, REVEALED,
)
from wargym.attu.fog import reveal_unknowns, seen
from wargym.attu.losses import hit_unit, start_loss
from wargym.attu.movement import may_enter_zone
from wargym.attu.ranged import fire_dice, weather_modifier
from wargym.attu.scenario import ARTILLERY, DEPOT, ENGINEER, IMPASSABLE, INFANTRY, JAPAN, UNKNOWN, US
from wargym.attu.state import (
    ACT_SELECT, ADVANCE, ARNOLD, HERO_ARNOLD, HERO_MARTINEZ, LOC_ASIDE, LOC_MAP, LOSS_MELEE_ON_ATTACKER,
    LOSS_MELEE_ON_DEFENDER, M_HIGHER, M_NIGHT, M_SUPPLY, M_SURROUND5, M_SURROUND6, M_UPSLOPE, MARTINEZ, MEL_AMBUSH,
    MEL_DEFENSIVE, MEL_NORMAL, MEL_OFFENSIVE, MEL_OPTION, MEL_RETREATED, MEL_ROUND_END, MEL_YAMASAKI, MELEE_PICK,
    MAX_MELEE_ROUNDS, OPT_HEROES, OPT_SOLITAIRE, RETREAT, RETREAT_OPTION, YAMA_MOVE,
)
from wargym.attu.supply import in_supply, supply_distance
from wargym.attu.victory import check_immediate, eliminate, update_zones
from wargym.events import emit
from wargym.jit import njit


@njit(cache=True)
def declare_direction_ok(T, S, g, u, d, occ):
    """8.2: unit u may Declare Melee into its neighbour in direction d, an enemy hex it could move
    into: not across a cliff (5.7), nor into a zone it may not enter (an Unknown into a cleared
    Victory Zone, 10.0; 15.3's areas)."""
    if not is_infantry_like(T, S, g, u):
        return False
    a = S.unit_hex[g, u]
    t = T.nbr[a, d]
    side = side_of(T, S, g, u)
    if t < 0 or not T.zoc_reach[a, d] or occ[t] != 1 - side or not may_enter_zone(T, S, g, u, t):
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
    """8.2.1.3: an adjacent hex the unit could legally move into (stacking, 4.1; its force's area,
    15.3), not in a Japanese ZOC (a unit rated 0 MP can move nowhere: 5.8 does not apply to it,
    README)."""
    if T.u_move[u] <= 0 or not may_enter_zone(T, S, g, u, h):
        return False
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
    if firing_side != US or S.heroes_used[g, HERO_MARTINEZ]:
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


# ------------------------------------------------------------------------------- resolution
@njit(cache=True)
def advance_candidates(T, S, g, out):
    n = 0
    for u in range(T.u_side.shape[0]):
        if advance_ok(T, S, g, u) and n < out.shape[0]:
            out[n] = u
            n += 1
    return n


@njit(cache=True)
def engage(T, S, g, t):
    """13.2.2: the units of hex t are engaged in Melee; ad hoc Infantry among them act freely from
    now on."""
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == t:
            S.ad_hoc[g, u] = False


@njit(cache=True)
def start_melee(T, S, g, t):
    side = S.mel_picker[g]
    S.mel_hex[g] = t
    S.mel_side[g] = side
    S.mel_round[g] = 0
    S.mel_stage[g] = MEL_DEFENSIVE
    S.mel_arnold[g] = -1
    for i in range(6):
        S.mel_from[g, i] = -1
    emit(S, g, MELEE, side, t, R_STEP7)
    engage(T, S, g, t)
    U = T.u_side.shape[0]
    for u in range(U):
        if S.unit_loc[g, u] == LOC_MAP and S.melee_target[g, u] == t and not S.fought[g, u] and \
                side_of(T, S, g, u) == side and T.dist[S.unit_hex[g, u], t] == 1:
            a = S.unit_hex[g, u]
            if T.u_type[u] == UNKNOWN and not S.captured[g, u]:
                reveal_unknowns(T, S, g, a, False)  # 2.5: attacking Unknowns show themselves
    reveal_unknowns(T, S, g, t, True)               # 2.5: so do defending ones
    for u in range(U):
        S.mel_att[g, u] = S.unit_loc[g, u] == LOC_MAP and S.melee_target[g, u] == t and not S.fought[g, u] and \
            side_of(T, S, g, u) == side and T.dist[S.unit_hex[g, u], t] == 1
        if S.mel_att[g, u]:
            a = S.unit_hex[g, u]
            for i in range(6):
                if S.mel_from[g, i] == a:
                    break
                if S.mel_from[g, i] < 0:
                    S.mel_from[g, i] = a
                    break
        in_target = S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == t
        if S.mel_att[g, u] or in_target:
            S.fought[g, u] = True
            S.pre_steps[g, u] = S.unit_steps[g, u]
            if side_of(T, S, g, u) == JAPAN and S.face_down[g, u]:
                S.face_down[g, u] = False  # 2.5: revealed at the moment of Melee
                seen(S, g, u)
                emit(S, g, REVEALED, u, S.unit_hex[g, u])
    if T.opts[OPT_HEROES] and not S.heroes_used[g, HERO_ARNOLD] and side == JAPAN and arnold_candidate(T, S, g) >= 0:
        S.phase[g] = ARNOLD
        return
    melee_run(T, S, g)


@njit(cache=True)
def start_step_melee(T, S, g, t, side, kind, attackers):
    """A Melee during the Player Actions step (11.3.2 Yamasaki, 13.3 ambush): ``attackers``
    (bool[U]) of ``side`` fight hex t at once; a Yamasaki assault rolls first, ambushers (the
    defenders) do otherwise."""
    S.mel_hex[g] = t
    S.mel_side[g] = side
    S.mel_round[g] = 0
    S.mel_kind[g] = kind
    S.mel_stage[g] = MEL_OFFENSIVE if kind == MEL_YAMASAKI else MEL_DEFENSIVE
    S.mel_arnold[g] = -1
    for i in range(6):
        S.mel_from[g, i] = -1
    emit(S, g, MELEE, side, t, R_YAMASAKI if kind == MEL_YAMASAKI else R_AMBUSH)
    engage(T, S, g, t)
    for u in range(T.u_side.shape[0]):
        S.mel_att[g, u] = attackers[u] and S.unit_loc[g, u] == LOC_MAP
        if S.mel_att[g, u] or (S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == t):
            S.fought[g, u] = True
            S.pre_steps[g, u] = S.unit_steps[g, u]
    if side == JAPAN and T.opts[OPT_HEROES] and not S.heroes_used[g, HERO_ARNOLD] and arnold_candidate(T, S, g) >= 0:
        S.phase[g] = ARNOLD
        return
    melee_run(T, S, g)


@njit(cache=True)
def first_fire(S, g):
    """The first fire of a round: defensive (8.2.1), offensive in a Yamasaki assault (11.3.2)."""
    return MEL_OFFENSIVE if S.mel_kind[g] == MEL_YAMASAKI else MEL_DEFENSIVE


@njit(cache=True)
def melee_fire(T, S, g, offensive):
    """One side's fire of a round; returns (hits, misses)."""
    attackers = offensive
    dist = supply_distance(T, S, g)
    surround = surround_count(T, S, g) if offensive else 0
    hits = 0
    misses = 0
    S.last_n[g] = 0
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] != LOC_MAP:
            continue
        if attackers and not S.mel_att[g, u]:
            continue
        if not attackers and (S.unit_hex[g, u] != S.mel_hex[g] or S.mel_att[g, u]):
            continue
        n = melee_dice(T, S, g, u)
        if n == 0:
            continue
        mod = melee_modifier(T, S, g, u, offensive, in_supply(T, S, g, u, dist), surround)
        purpose = P_OFFENSIVE if offensive else P_DEFENSIVE
        h, _ = fire_dice(T, S, g, n, mod, False, purpose)
        emit(S, g, MELEE_FIRE, S.mel_round[g] + 1, purpose, u, n, mod, h)
        hits += h
        misses += n - h
    return hits, misses


@njit(cache=True)
def deliver_melee_hits(T, S, g):
    """Hits of the fire just rolled (mel_hits) go to the other side's units (8.2.1.1-2)."""
    hits = S.mel_hits[g]
    S.mel_hits[g] = 0
    yama = S.mel_kind[g] == MEL_YAMASAKI
    defensive = S.mel_stage[g] == MEL_ROUND_END if yama else S.mel_stage[g] == MEL_OFFENSIVE
    if defensive:  # hits on the attackers
        start_loss(T, S, g, S.mel_side[g], LOSS_MELEE_ON_ATTACKER, hits, -1)
    else:
        start_loss(T, S, g, 1 - S.mel_side[g], LOSS_MELEE_ON_DEFENDER, hits, S.mel_hex[g])


@njit(cache=True)
def orphans(T, S, g):
    """8.2: units that did not declare, left alone in a hex whose attackers are all gone, retreat
    (U.S.) or are eliminated (Japan).  Returns True when U.S. units must now retreat."""
    must = False
    if S.mel_kind[g] != MEL_NORMAL:
        return False  # 11.3, 13.3: one moving unit or group; nothing is left behind
    for i in range(6):
        a = S.mel_from[g, i]
        if a < 0:
            continue
        attackers_here = False
        others = False
        for u in range(T.u_side.shape[0]):
            if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == a:
                if S.mel_att[g, u]:
                    attackers_here = True
                else:
                    others = True
        if attackers_here or not others:
            continue
        for u in range(T.u_side.shape[0]):
            if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == a and not S.mel_att[g, u]:
                if side_of(T, S, g, u) == JAPAN:
                    eliminate(T, S, g, u)
                else:
                    S.ret_left[g, u] = True
                    must = True
        S.mel_from[g, i] = -1
    check_immediate(T, S, g)
    return must


@njit(cache=True)
def us_in_melee(T, S, g):
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and side_of(T, S, g, u) == US and \
                (S.mel_att[g, u] or S.unit_hex[g, u] == S.mel_hex[g]):
            return True
    return False


@njit(cache=True)
def attackers_gone(T, S, g):
    """Every attacker is gone (8.2): units left alone in their hexes retreat or are eliminated
    first (``orphans``), then the Melee ends."""
    if orphans(T, S, g):
        S.mel_stage[g] = MEL_RETREATED
        S.phase[g] = RETREAT
        return
    end_melee(T, S, g)


@njit(cache=True)
def melee_run(T, S, g):
    """Advance the Melee in progress until a decision is needed (8.2.1)."""
    while not S.terminated[g]:
        st = S.mel_stage[g]
        if st == MEL_DEFENSIVE or st == MEL_OFFENSIVE:
            if not attackers_left(T, S, g):
                attackers_gone(T, S, g)
                return
            if not defenders_left(T, S, g):
                end_melee(T, S, g)
                return
            if S.mel_round[g] >= MAX_MELEE_ROUNDS or (side_dice(T, S, g, True) == 0 and side_dice(T, S, g, False) == 0):
                finish_melee(T, S, g)
                return
            offensive = st == MEL_OFFENSIVE
            firing = S.mel_side[g] if offensive else 1 - S.mel_side[g]
            hits, misses = melee_fire(T, S, g, offensive)
            if offensive == (S.mel_kind[g] == MEL_YAMASAKI):  # the round's first fire: the other side next
                S.mel_stage[g] = MEL_DEFENSIVE if offensive else MEL_OFFENSIVE
            else:
                S.mel_stage[g] = MEL_ROUND_END
            S.mel_hits[g] = hits
            S.mel_martinez[g] = misses
            if T.opts[OPT_HEROES] and misses > 0 and martinez_may(T, S, g, firing):
                S.phase[g] = MARTINEZ
                return
            deliver_melee_hits(T, S, g)
            if S.loss_hits[g] > 0:
                return
            continue
        if st == MEL_ROUND_END:
            S.mel_stage[g] = MEL_OPTION
            if orphans(T, S, g):
                S.phase[g] = RETREAT
                return
            continue
        if st == MEL_OPTION:
            if not attackers_left(T, S, g):
                attackers_gone(T, S, g)
                return
            if not defenders_left(T, S, g):
                end_melee(T, S, g)
                return
            if us_in_melee(T, S, g):
                S.phase[g] = RETREAT_OPTION
                return
            S.mel_round[g] += 1
            S.mel_stage[g] = first_fire(S, g)
            continue
        if st == MEL_RETREATED:
            end_melee(T, S, g)
            return
        return


@njit(cache=True)
def end_melee(T, S, g):
    """8.2.1.4: the attacker may advance into a vacated defender's hex."""
    out = np.empty(MAX_SLOTS, dtype=np.int64)
    if S.mel_kind[g] == MEL_YAMASAKI:
        if attackers_left(T, S, g) and not defenders_left(T, S, g):  # 11.3.2: the group goes in
            if S.mel_stage[g] == MEL_RETREATED:
                S.yama_mp[g] = 0  # README: only an elimination lets the group go on
            for u in range(T.u_side.shape[0]):
                if S.yama_unit[g, u] and S.unit_loc[g, u] == LOC_MAP:
                    emit(S, g, EV_ADVANCE, u, S.unit_hex[g, u], S.mel_hex[g])
            yamasaki.move_group(T, S, g, S.mel_hex[g])
            capture_artillery(T, S, g, S.mel_hex[g])
        finish_melee(T, S, g)
        return
    if S.mel_kind[g] == MEL_AMBUSH:
        if attackers_left(T, S, g) and not defenders_left(T, S, g):  # 13.3: the unit holds the hex
            for u in range(T.u_side.shape[0]):
                if S.mel_att[g, u] and S.unit_loc[g, u] == LOC_MAP:
                    emit(S, g, EV_ADVANCE, u, S.unit_hex[g, u], S.mel_hex[g])
                    S.unit_hex[g, u] = S.mel_hex[g]
        finish_melee(T, S, g)
        return
    if attackers_left(T, S, g) and not defenders_left(T, S, g) and advance_candidates(T, S, g, out) > 0:
        S.phase[g] = ADVANCE
        return
    finish_melee(T, S, g)


@njit(cache=True)
def finish_melee(T, S, g):
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_ASIDE:
            eliminate(T, S, g, u)
        S.mel_att[g, u] = False
        S.ret_left[g, u] = False
    S.mel_hex[g] = -1
    S.mel_arnold[g] = -1
    update_zones(T, S, g)
    check_immediate(T, S, g)
    if S.mel_kind[g] != MEL_NORMAL:  # a Step 5/6 Melee (11.3.2, 13.3) does not use up Step 7
        for u in range(T.u_side.shape[0]):
            S.fought[g, u] = False
        S.phase[g] = YAMA_MOVE if S.mel_kind[g] == MEL_YAMASAKI else ACT_SELECT
        S.mel_kind[g] = MEL_NORMAL
        return
    S.mel_picker[g] = 1 - S.mel_picker[g]
    S.phase[g] = MELEE_PICK


@njit(cache=True)
def next_retreater(T, S, g):
    for u in range(T.u_side.shape[0]):
        if S.ret_left[g, u]:
            if S.unit_loc[g, u] == LOC_MAP:
                return u
            S.ret_left[g, u] = False
    return -1


@njit(cache=True)
def capture_artillery(T, S, g, h):
    """8.2.1.4: a Japanese unit advancing where U.S. artillery was set aside captures it."""
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_ASIDE and S.unit_hex[g, u] == h:
            emit(S, g, CAPTURED, u, h)
            S.unit_loc[g, u] = LOC_MAP
            S.captured[g, u] = True
            S.unit_steps[g, u] = max(S.pre_steps[g, u], 1)
            S.fought[g, u] = True
            S.acted[g, u] = True


# ---------------------------------------------------------------------------------- decisions
@njit(cache=True)
def declare(T, S, g, u, d):
    """ACT_ORDER (8.2): unit u declares Melee against its neighbour in direction d, fought in
    Step 7 (3.7)."""
    S.melee_target[g, u] = T.nbr[S.unit_hex[g, u], d]
    S.acted[g, u] = True
    S.phase[g] = ACT_SELECT


@njit(cache=True)
def declare_mask(T, S, g, u, occ, m):
    """ACT_ORDER (8.2): the directions unit u may declare Melee in."""
    H = T.nbr.shape[0]
    for d in range(6):
        if declare_direction_ok(T, S, g, u, d, occ):
            m[H + MELEE_0 + d] = True


@njit(cache=True)
def pick_mask(T, S, g, hexes):
    """MELEE_PICK (3.7): the hexes the picking side may fight its next Melee against."""
    occ = occupancy(T, S, g)
    for h in range(T.nbr.shape[0]):
        hexes[h] = pickable(T, S, g, S.mel_picker[g], h, occ)


@njit(cache=True)
def arnold(T, S, g, a):
    """ARNOLD (11.2): yes gives the defending Engineer or Depot a combat value of 6, once a game."""
    if a - T.nbr.shape[0] == YES:
        S.heroes_used[g, HERO_ARNOLD] = True
        S.mel_arnold[g] = arnold_candidate(T, S, g)
        emit(S, g, EV_ARNOLD, S.mel_arnold[g])
    melee_run(T, S, g)


@njit(cache=True)
def martinez(T, S, g, a):
    """MARTINEZ (11.1): yes turns one U.S. melee die that missed into a '0', a hit, once a game."""
    if a - T.nbr.shape[0] == YES:
        S.heroes_used[g, HERO_MARTINEZ] = True
        S.mel_hits[g] += 1
        emit(S, g, EV_MARTINEZ, S.mel_hits[g])
    deliver_melee_hits(T, S, g)


@njit(cache=True)
def retreat_option(T, S, g, a):
    """RETREAT_OPTION (8.2.1.3): yes, every U.S. unit in the Melee retreats (13.3: an ambushed unit
    withdraws, back where it came from); no, another round."""
    if a - T.nbr.shape[0] != YES:
        S.mel_round[g] += 1
        S.mel_stage[g] = first_fire(S, g)
    elif S.mel_kind[g] == MEL_AMBUSH:
        S.mel_stage[g] = MEL_RETREATED
    else:
        for u in range(T.u_side.shape[0]):
            if S.unit_loc[g, u] == LOC_MAP and side_of(T, S, g, u) == US and \
                    (S.mel_att[g, u] or S.unit_hex[g, u] == S.mel_hex[g]):
                S.ret_left[g, u] = True
        S.mel_stage[g] = MEL_RETREATED
        S.phase[g] = RETREAT
        return
    melee_run(T, S, g)


@njit(cache=True)
def retreat(T, S, g, h):
    """RETREAT (8.2.1.3): the next retreating U.S. unit goes to hex h, out of the Melee."""
    u = next_retreater(T, S, g)
    emit(S, g, EV_RETREAT, u, S.unit_hex[g, u], h)
    S.unit_hex[g, u] = h
    S.ret_left[g, u] = False
    S.mel_att[g, u] = False


@njit(cache=True)
def retreats_settled(T, S, g):
    """RETREAT without a decision: once every unit has retreated the Melee goes on; a unit with no
    hex to retreat to is eliminated (README "Melee").  True when either happened."""
    u = next_retreater(T, S, g)
    if u < 0:
        melee_run(T, S, g)
        return True
    room = np.zeros(T.nbr.shape[0], dtype=np.bool_)
    if retreat_hexes(T, S, g, u, room) > 0:
        return False
    S.ret_left[g, u] = False
    S.mel_att[g, u] = False
    emit(S, g, NO_RETREAT, u, S.unit_hex[g, u])
    for _ in range(S.unit_steps[g, u]):
        hit_unit(T, S, g, u, LOSS_MELEE_ON_ATTACKER)
    return True


@njit(cache=True)
def advance(T, S, g, a):
    """ADVANCE (8.2.1.4): an attacker moves into the vacated hex (a Japanese unit captures the U.S.
    artillery set aside there); END: the Melee is over."""
    H = T.nbr.shape[0]
    if a - H == END:
        finish_melee(T, S, g)
        return
    buf = np.empty(MAX_SLOTS, dtype=np.int64)
    advance_candidates(T, S, g, buf)
    u = buf[a - H - SLOT_0]
    emit(S, g, EV_ADVANCE, u, S.unit_hex[g, u], S.mel_hex[g])
    S.unit_hex[g, u] = S.mel_hex[g]
    if side_of(T, S, g, u) == JAPAN:
        capture_artillery(T, S, g, S.mel_hex[g])
    update_zones(T, S, g)


@njit(cache=True)
def advance_mask(T, S, g, m):
    """ADVANCE (8.2.1.4): a slot for each attacker that may advance, and END."""
    buf = np.empty(MAX_SLOTS, dtype=np.int64)
    allow_slots(m, T.nbr.shape[0], advance_candidates(T, S, g, buf))
    m[T.nbr.shape[0] + END] = True
