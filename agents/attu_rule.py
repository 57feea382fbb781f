"""Rule-based Attu players: a U.S. rule player and the Japanese section-13 player.

U.S. (the issue's brief): stages and lands toward the nearest Victory Hex, refits when its losses
are high or reinforcements wait, advances on the Victory Hexes it does not hold, masses before
declaring Melee, fires when it cannot usefully close.  What it does with the rest of the book:

* 9.3 Independents, for 3.8.1 ("occupies all six Victory Hexes"): in a Refit Turn, a Victory Hex
  the U.S. holds with one Infantry company of two steps or more, and nothing else, gets an
  Independent made from that company.  The Independent stays as the garrison (a lone unit on a
  Victory Hex holds), and the company is free to go on.
* 7.3/9.4 Supply Depots, for 7.2: in a Refit Turn, an eligible Engineer (in supply, not in a
  Japanese ZOC) builds its depot where the depot would put in supply U.S. Infantry that are out of
  supply now, because they stand beyond a standard move of every source.  It builds where the most
  such units would gain.
* 3.2/6.1 Night Turns: the U.S. declares a Night Turn when at least NIGHT_STUCK of its Infantry
  units stand in Japanese ZOCs and would rather leave them (down to one step, or out of supply),
  and the front is stalled: no Japanese hex the U.S. could mass a Melee on with its odds, so that
  halved moves (5.2) and the night modifier (8.3) cost little.  The 6.1 night exception lets those
  units spend their whole allowance to step out, toward the nearest supply.  At night Japan acts
  first (3.5), so the U.S. sees the Japanese Melee declarations before it moves.  A unit does not
  step out if it has a Melee with the odds or holds a Victory Hex alone.  (3.2 gives the Night
  Turn decision to the U.S. alone, so the Japanese rule is never asked.)
* 9.2.1 Landing Zone capacity, in ``rule:margin`` only (``lz_over``): the steps already on a
  zone's hex count with those staged for it, a fifth of the capacity is kept free, and no
  reinforcements land while no open zone has that room.  ``rule`` counts the staged steps alone
  (its figures are the baselines measured in benchmarks/README.md).

Japan (13.0 "move the Japanese units in their own best interest", with the section-13 system as
its standing orders):

* 13.2.1: Unknowns on Victory Hexes never move; free set-ups put units between the landing
  zones and the Victory Hexes ("in the way of the U.S. advance");
* 13.2: airpower goes to the defence of the Victory Hexes, against the strongest U.S. stack near
  one;
* 13.2.2: a unit that does not declare Melee fires on the nearest U.S. unit it may; the ad hoc
  Infantry have no other order until engaged in Melee (the engine's mask: solitaire.ad_hoc_orders);
* best interest: units otherwise hold (face-down units stay hidden, 2.5), move to man a threatened
  empty Victory Hex, and declare Melee only with the odds (or at night, or on a landing zone of
  3.8.1).  An Unknown counts, for the odds, the Infantry its own table gives on average times the
  mean melee dice of the Infantry in the cup (2.5; Japan knows both; in solitaire play the mean of
  all the tables, since 13.1 keeps them unseen).  A hex's Unknowns count once, because they reveal
  together and give at most three Infantry.
* the Victory Hex of greatest need: a Victory Hex the U.S. does not hold is threatened when U.S.
  units stand within NEAR_VICTORY hexes of it.  Its need is the U.S. steps there less
  JP_PER_COUNTER for every Japanese counter within IN_THE_WAY hexes of it.  The place an Unknown
  or a marching unit defends it best is on it, or else within two hexes of it on the U.S. side
  (13.2.2's "between the Victory Hex and the U.S. units"), in a hex without other Japanese units
  (2.5: a hex's counters reveal together, three Infantry at most).
* reserves march: a unit that is not artillery, not on a Victory Hex, has no U.S. unit within
  three hexes and stands within REINFORCE_RANGE hexes of the Victory Hex of greatest need moves
  toward it in the action phases, to the free hex nearer it that best defends it.
* 9.6 step 1, in every Refit Turn: Unknowns far from the fighting move to the Victory Hex of
  greatest need.  Far means no U.S. unit within THREAT_RANGE, and not the garrison of a Victory
  Hex the U.S. does not hold (within IN_THE_WAY + 1 of it).
* 9.6 step 2, committing the reserves in the cup: a hex of Japanese Infantry is swapped for
  Unknowns when it is not adjacent to a U.S. unit, not in or next to a Landing Zone, not a Victory
  Hex held by two Infantry or more, and not the last Japanese units other than Unknowns in a
  threatened Victory Zone.  Without those units the U.S. would clear the zone by taking its Victory
  Hex, and every Unknown in the zone would go (10.0).  The first Unknown goes back to the swapped
  hex when that hex is a Victory Hex or near a threatened one; the others go to the best places by
  the Victory Hex of greatest need.  An Infantry swapped goes back to the cup, not eliminated.
  The Unknown that replaces it brings one to three Infantry out of the cup when it fights (2.5).
* 11.3 Colonel Yamasaki, when desperate: once the book offers him (four steps of Infantry or
  fewer), Japan uses him if a hex's group can reach and assault a U.S. hex worth it: a Victory
  Hex, or a hex next to a Victory Hex the U.S. does not hold.  The group must reach it within its
  doubled Movement Points, ignoring U.S. ZOCs, and bring at least as many melee dice as the U.S.
  steps there.  He goes to the hex with the best odds.  The group moves toward that target,
  assaults it, and goes on to the next such target while its Movement Points last.

Both read only what their side may know: U.S. decisions use positions, counts, face-up values and
its own units, never a face-down unit's type or an Unknown's table.  Every decision of every game
of a batch is taken by one compiled kernel (``decide_chunk``), whose games the core's threads share
as they share its steps (KernelCore.run_chunks).
"""

from __future__ import annotations

import numpy as np

from wargym.agents import baselines
from wargym.attu.actions import (
    AIR, END, HOLD, LZ_0, MAX_BATTALIONS, MELEE_0, NO, REINF_0, RESERVE, SLOT_0, STRIKE, YAMASAKI, YES,
)
from wargym.attu.board import counters_in, hex_side, is_infantry_like, occupancy, side_of, zoc_of
from wargym.attu.defaults import minor_decision
from wargym.attu.fog import has_acted
from wargym.attu.movement import FAR, INF, allowance, path_cost_from
from wargym.attu.scenario import (
    ARTILLERY, IMPASSABLE, INFANTRY, JAPAN, LANDING_ZONES, UNKNOWN, US,
)
from wargym.attu.refit import lz_open
from wargym.attu.setup import placement_unit
from wargym.attu.state import (
    ACT_ORDER, ACT_SELECT, ADVANCE, AIR_TARGET, DEPOT, INDEPENDENT, JP_SETUP, LOC_MAP, LOC_RESERVE,
    LOC_STAGING, MELEE_PICK, NIGHT_DECISION, OPT_SOLITAIRE, REFIT_ALLOC, REFIT_DECISION, REINF_PICK, REINF_ZONE,
    RETREAT_OPTION, SLOT, SWAP_PICK, SWAP_PLACE, UNKNOWN_DEST, UNKNOWN_PICK, US_STAGING, US_WAIT, YAMA_MOVE,
    YAMA_SELECT,
)
from wargym.attu.supply import MAX_SUPPLY_MP, in_supply, supply_blocked, supply_distance, within
from wargym.attu.yamasaki import may_activate
from wargym.jit import njit
from wargym.kernel import first_legal

REFIT_CASUALTIES = 8      # U.S.: refit once the Casualty Track reaches this
THREAT_RANGE = 4          # 13.2.2: a U.S. unit this close to a Victory Hex threatens it
FIRE_RANGE_INFANTRY = 2   # U.S. infantry fires (rather than moving) at Japanese this close
NIGHT_STUCK = 2           # 3.2/6.1: U.S. units caught in Japanese ZOCs that make a Night Turn worth it
NEAR_VICTORY = 6          # 9.6: U.S. units this close to a Victory Hex make the Japanese reinforce it
IN_THE_WAY = 2            # 9.6, 13.2.2: Unknowns go within two hexes of the Victory Hex they defend
JP_PER_COUNTER = 4        # 9.6: U.S. steps one Japanese counter near a Victory Hex is set against
REINFORCE_RANGE = 8       # Japanese units this close to the Victory Hex of greatest need march to it


# ----------------------------------------------------------------------------------- shared help
@njit(cache=True)
def steps_in(T, S, g, h, side):
    n = 0
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == h and side_of(T, S, g, u) == side:
            n += S.unit_steps[g, u]
    return n


@njit(cache=True)
def cup_melee_x10(T, S, g):
    """Ten times the mean melee dice of the Japanese Infantry in the cup (30 when it is empty)."""
    n, total = 0, 0
    for u in range(T.u_side.shape[0]):
        if T.u_side[u] == JAPAN and T.u_type[u] == INFANTRY and S.unit_loc[g, u] == LOC_RESERVE:
            n += 1
            total += T.u_melee[u, 0]
    return 10 * total // n if n > 0 else 30


@njit(cache=True)
def first_unknown_of_hex(T, S, g, u):
    """u is the first Unknown of its hex (2.5: a hex's Unknowns reveal together)."""
    for v in range(u):
        if S.unit_loc[g, v] == LOC_MAP and S.unit_hex[g, v] == S.unit_hex[g, u] and T.u_type[v] == UNKNOWN \
                and not S.captured[g, v]:
            return False
    return True


@njit(cache=True)
def table_x10(T, v):
    """Ten times the mean Infantry Unknown v's table gives (2.5: three at most).  In solitaire play
    the tables are not examined before the Melee (13.1), so the mean over every Unknown's table."""
    total, n = 0, 0
    for w in range(T.u_side.shape[0]):
        if w == v or (T.opts[OPT_SOLITAIRE] and T.u_type[w] == UNKNOWN and T.u_side[w] == JAPAN):
            n += 1
            for i in range(10):
                total += min(T.u_table[w, i], 3)
    return total // n


@njit(cache=True)
def unknown_power(T, S, g, u):
    """Japan's estimate of the melee dice an Unknown's hex brings (2.5): the mean Infantry of the
    best table among the hex's Unknowns (room for three Infantry at most) times the cup's mean
    melee dice.  Only Japan asks this: it reads the tables (13.1 aside)."""
    h = S.unit_hex[g, u]
    best, others = 0, 0
    for v in range(T.u_side.shape[0]):
        if S.unit_loc[g, v] != LOC_MAP or S.unit_hex[g, v] != h:
            continue
        if T.u_type[v] == UNKNOWN and not S.captured[g, v]:
            best = max(best, table_x10(T, v))
        elif side_of(T, S, g, v) == JAPAN:
            others += 1
    room = max(3 - others, 0)
    return min(best, 10 * room) * cup_melee_x10(T, S, g) // 100


@njit(cache=True)
def melee_power(T, S, g, u):
    if T.u_type[u] == UNKNOWN and not S.captured[g, u]:  # Japanese decisions only
        return unknown_power(T, S, g, u) if first_unknown_of_hex(T, S, g, u) else 0
    k = S.unit_steps[g, u]
    return T.u_melee[u, k - 1] if k > 0 else 0


@njit(cache=True)
def power_against(T, S, g, t, side, u):
    """Melee dice ``side`` can bring against hex t: unit u plus every unit adjacent to t that has
    not acted or already declared against t."""
    n = 0
    for v in range(T.u_side.shape[0]):
        if S.unit_loc[g, v] != LOC_MAP or side_of(T, S, g, v) != side or T.dist[S.unit_hex[g, v], t] != 1:
            continue
        if v == u or not S.acted[g, v] or S.melee_target[g, v] == t:
            n += melee_power(T, S, g, v)
    return n


@njit(cache=True)
def melee_choice(T, S, g, m, u):
    """The Declare Melee direction for unit u with the best odds, or -1 when none is good enough.
    U.S.: three melee dice massed for every Japanese counter in the hex (it cannot see what they
    are).  Japan: its dice against twice the U.S. steps, readier at night and against a landing
    zone it must hold to win (3.8.1)."""
    H = T.nbr.shape[0]
    side = side_of(T, S, g, u)
    a = S.unit_hex[g, u]
    best, best_score = -1, 0
    for d in range(6):
        if not m[H + MELEE_0 + d]:
            continue
        t = T.nbr[a, d]
        power = power_against(T, S, g, t, side, u)
        if side == US:
            score = power - 3 * counters_in(T, S, g, t, JAPAN)
        else:
            score = power - 2 * steps_in(T, S, g, t, US) + (2 if S.night[g] else 0)
            if 3 <= T.lz_of_hex[t] <= 6:
                score += 2
        if score >= best_score:
            best, best_score = H + MELEE_0 + d, score + 1
    return best


@njit(cache=True)
def open_goal(T, S, g, gd, h):
    """Cost from hex h to the nearest target hex the U.S. does not hold (0 when all are held)."""
    best = FAR
    any_open = False
    for k in range(T.target_hex.shape[0]):
        if hex_side(T, S, g, T.target_hex[k]) != US:
            any_open = True
            best = min(best, gd[k, h])
    return best if any_open else 0


@njit(cache=True)
def enemy_near(T, occ, h, side, radius):
    """Distance to the nearest enemy-held hex within ``radius`` of h, or radius + 1."""
    best = radius + 1
    for i in range(T.near3.shape[1] if radius <= 3 else 0):
        x = T.near3[h, i]
        if x < 0:
            break
        if occ[x] == 1 - side:
            best = min(best, T.dist[h, x])
    if radius > 3:
        for x in range(occ.shape[0]):
            if occ[x] == 1 - side and T.dist[h, x] <= radius:
                best = min(best, T.dist[h, x])
    return best


# ------------------------------------------------------------------------------------------- U.S.
@njit(cache=True)
def us_refit(T, S, g):
    """Refit (9.0) when the Casualty Track is high (its steps come back), or every third turn
    while reinforcements wait in the box."""
    waiting = 0
    for u in range(T.u_side.shape[0]):
        if T.u_side[u] == US and T.u_in_play[u] and S.unit_loc[g, u] == LOC_RESERVE:
            waiting += 1
    return S.casualties[g] >= REFIT_CASUALTIES or (waiting > 0 and S.turn[g] >= 2 and S.turn[g] % 3 == 2)


@njit(cache=True)
def staged_for(T, S, g, k):
    """U.S. steps staged for Landing Zone k (9.2.2)."""
    n = 0
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_STAGING and S.unit_hex[g, u] == k:
            n += S.unit_steps[g, u]
    return n


@njit(cache=True)
def lz_over(T, S, g, k, margin):
    """How far a company's four more steps overfill Landing Zone k (9.2.1), <= 0 when they fit.
    ``margin`` 0: the rule's count, the steps staged for it against its capacity; else the steps
    on its hex counted too, against ``margin`` per cent of the capacity (in hundredths of a step)."""
    if margin == 0:
        return staged_for(T, S, g, k) + 4 - T.lz_cap[k]
    return 100 * (staged_for(T, S, g, k) + steps_in(T, S, g, T.lz_hex[k], US) + 4) - margin * T.lz_cap[k]


@njit(cache=True)
def lz_room(T, S, g, margin):
    """Some Landing Zone open to a landing (9.2) has room for a company within ``margin``."""
    jzoc = zoc_of(T, S, g, JAPAN)
    for k in range(LANDING_ZONES):
        if lz_open(T, S, g, k, jzoc) and lz_over(T, S, g, k, margin) <= 0:
            return True
    return False


@njit(cache=True)
def us_zone(T, S, g, m, gd, margin):
    """The landing zone offered nearest the open targets with room left (9.2.1 capacity, counted
    as ``lz_over`` says); with a margin, the least overfilled when none has room."""
    H = T.nbr.shape[0]
    best, best_score = -1, FAR
    for k in range(LANDING_ZONES):
        if not m[H + LZ_0 + k]:
            continue
        over = max(lz_over(T, S, g, k, margin), 0)
        # 9.2.2: no scatter; the rule only avoids a zone over, a margin ranks them by how far
        score = open_goal(T, S, g, gd, T.lz_hex[k]) + 1000 * (min(over, 1) if margin == 0 else over)
        if score < best_score:
            best, best_score = H + LZ_0 + k, score
    return best if best >= 0 else first_legal(m)


@njit(cache=True)
def us_select(T, S, g, m, occ, gd):
    """Airpower first; then units next to the enemy, then artillery, then the rest, front first."""
    H = T.nbr.shape[0]
    if m[H + STRIKE]:
        return H + STRIKE
    if m[H + AIR]:
        return H + AIR
    best, best_score = -1, -FAR
    for h in range(H):
        if not m[h]:
            continue
        score = -open_goal(T, S, g, gd, h)
        if enemy_near(T, occ, h, US, 1) == 1:
            score += 20000
        for u in range(T.u_side.shape[0]):
            if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == h and T.u_type[u] == ARTILLERY \
                    and T.u_side[u] == US and not S.acted[g, u]:
                score += 10000
                break
        if score > best_score:
            best, best_score = h, score
    return best if best >= 0 else H + END


@njit(cache=True)
def us_stuck(T, S, g, u, jzoc, sdist):
    """6.1: U.S. unit u stands in a Japanese ZOC (``jzoc``) and would rather leave it: an Infantry
    unit down to one step or out of supply (``sdist``: supply_distance)."""
    if S.unit_loc[g, u] != LOC_MAP or T.u_side[u] != US or S.captured[g, u] or T.u_type[u] != INFANTRY:
        return False
    if not jzoc[S.unit_hex[g, u]]:
        return False
    return S.unit_steps[g, u] <= 1 or not in_supply(T, S, g, u, sdist)


@njit(cache=True)
def us_can_strike(T, S, g, occ):
    """Some Japanese hex the U.S. units next to it could Declare Melee on with the odds of
    ``melee_choice`` (three melee dice massed for every Japanese counter)."""
    for t in range(T.nbr.shape[0]):
        if occ[t] != JAPAN:
            continue
        power = 0
        for u in range(T.u_side.shape[0]):
            if S.unit_loc[g, u] == LOC_MAP and side_of(T, S, g, u) == US and T.dist[S.unit_hex[g, u], t] == 1:
                power += melee_power(T, S, g, u)
        if power >= 3 * counters_in(T, S, g, t, JAPAN):
            return True
    return False


@njit(cache=True)
def us_night(T, S, g):
    """3.2: a Night Turn when NIGHT_STUCK U.S. units or more are stuck in Japanese ZOCs (6.1) and
    the front is stalled: no Japanese hex the U.S. could mass a Melee on with the odds, so halved
    moves (5.2) and the night modifier (8.3) cost the U.S. little."""
    jzoc = zoc_of(T, S, g, JAPAN)
    sdist = supply_distance(T, S, g)
    n = 0
    for u in range(T.u_side.shape[0]):
        if us_stuck(T, S, g, u, jzoc, sdist):
            n += 1
    return n >= NIGHT_STUCK and not us_can_strike(T, S, g, occupancy(T, S, g))


@njit(cache=True)
def holds_target_alone(T, S, g, a):
    """Hex a is a target hex and this is the only U.S. counter in it."""
    for k in range(T.target_hex.shape[0]):
        if T.target_hex[k] == a and counters_in(T, S, g, a, US) <= 1:
            return True
    return False


@njit(cache=True)
def us_order(T, S, g, m, occ, gd):
    H = T.nbr.shape[0]
    u = S.selected[g]
    a = S.unit_hex[g, u]
    best = melee_choice(T, S, g, m, u)
    if best >= 0:
        return best
    alone = holds_target_alone(T, S, g, a)
    # 6.1 at night: a stuck unit steps out of the Japanese ZOC, toward supply
    if S.night[g] and not alone:
        jzoc = zoc_of(T, S, g, JAPAN)
        sdist = supply_distance(T, S, g)
        if us_stuck(T, S, g, u, jzoc, sdist):
            out, out_d = -1, INF + 1
            for h in range(H):
                if m[h] and occ[h] != JAPAN and not jzoc[h] and sdist[h] < out_d:
                    out, out_d = h, sdist[h]
            if out >= 0:
                return out
    # Ranged: artillery at the Japanese hex nearest the open targets; infantry only at close range
    fire, fire_score = -1, FAR
    for t in range(H):
        if m[t] and occ[t] == JAPAN:
            if T.u_type[u] != ARTILLERY and T.dist[a, t] > FIRE_RANGE_INFANTRY:
                continue
            score = open_goal(T, S, g, gd, t) * 4 + T.dist[a, t] - counters_in(T, S, g, t, JAPAN)
            if score < fire_score:
                fire, fire_score = t, score
    if fire >= 0:
        return fire
    if alone:  # a lone unit holding a target hex stays
        return H + HOLD
    # Move toward the nearest open target; artillery keeps a hex between itself and the enemy
    here = open_goal(T, S, g, gd, a)
    dest, dest_score = -1, here * 4
    for h in range(H):
        if not m[h] or occ[h] == JAPAN:
            continue
        if T.u_type[u] == ARTILLERY and enemy_near(T, occ, h, US, 1) <= 1:
            continue
        score = open_goal(T, S, g, gd, h) * 4 + (1 if counters_in(T, S, g, h, US) == 0 else 0)
        if score < dest_score:
            dest, dest_score = h, score
    return dest if dest >= 0 else H + HOLD


@njit(cache=True)
def us_independent(T, S, g, m):
    """9.3 for 3.8.1: the hex of a target hex held by one Infantry company of two steps or more and
    nothing else (its Independent will garrison it), or END."""
    H = T.nbr.shape[0]
    for k in range(T.target_hex.shape[0]):
        v = T.target_hex[k]
        if not m[v] or counters_in(T, S, g, v, US) != 1:
            continue
        for u in range(T.u_side.shape[0]):
            if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == v and T.u_side[u] == US and \
                    T.u_type[u] == INFANTRY and T.u_batt[u] >= 0 and S.unit_steps[g, u] >= 2:
                return v
    return H + END


@njit(cache=True)
def depot_gain(T, S, g, h, sdist):
    """7.2/7.3: the U.S. Infantry units out of supply now (``sdist``: supply_distance) that a
    Supply Depot in hex h would supply."""
    H = T.nbr.shape[0]
    blocked = supply_blocked(T, S, g)
    src = np.empty(1, dtype=np.int32)
    src[0] = h
    dist = np.empty(H, dtype=np.int32)
    path_cost_from(T, S, g, US, src, 1, blocked, MAX_SUPPLY_MP, dist)
    n = 0
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] != LOC_MAP or T.u_side[u] != US or S.captured[g, u] or T.u_type[u] != INFANTRY:
            continue
        mp = allowance(T, S, g, u, T.u_move[u])
        x = S.unit_hex[g, u]
        if not within(T, sdist, x, mp) and within(T, dist, x, mp):
            n += 1
    return n


@njit(cache=True)
def us_depot(T, S, g, m):
    """9.4: the hex of the eligible Engineer whose depot would supply the most U.S. Infantry now
    out of supply (at least one), or END."""
    H = T.nbr.shape[0]
    sdist = supply_distance(T, S, g)
    best, best_n = H + END, 0
    for h in range(H):
        if m[h]:
            n = depot_gain(T, S, g, h, sdist)
            if n > best_n:
                best, best_n = h, n
    return best


@njit(cache=True)
def us_retreat_option(T, S, g):
    """Retreat (8.2.1.3) when the U.S. steps in the Melee are no more than the Japanese ones."""
    us, jp = 0, 0
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] != LOC_MAP:
            continue
        in_it = S.mel_att[g, u] or S.unit_hex[g, u] == S.mel_hex[g]
        if not in_it:
            continue
        if side_of(T, S, g, u) == US:
            us += S.unit_steps[g, u]
        else:
            jp += S.unit_steps[g, u]
    return us <= jp


@njit(cache=True)
def strongest_stack_target(T, S, g, m, occ, side, near_victory):
    """Airpower (8.1.6): the enemy hex with the most steps (13.2: near a Victory Hex first)."""
    H = T.nbr.shape[0]
    best, best_score = -1, -FAR
    for h in range(H):
        if not m[h]:
            continue
        score = steps_in(T, S, g, h, 1 - side) if side == JAPAN else counters_in(T, S, g, h, 1 - side)
        if near_victory:
            for k in range(6):
                if T.dist[h, T.victory_hex[k]] <= 2:
                    score += 100
                    break
        if enemy_near(T, occ, h, 1 - side, 1) == 1:
            score += 10  # enemy next to our units
        if score > best_score:
            best, best_score = h, score
    return best if best >= 0 else first_legal(m)


@njit(cache=True)
def decide_us(T, S, g, m, gd, margin):
    H = T.nbr.shape[0]
    ph = S.phase[g]
    if ph == US_STAGING:
        if not m[H + LZ_0:H + LZ_0 + LANDING_ZONES].any():
            return H + RESERVE
        return us_zone(T, S, g, m, gd, margin)
    if ph == US_WAIT:
        return H + YES
    if ph == REFIT_DECISION:
        return H + YES if us_refit(T, S, g) else H + NO
    if ph == NIGHT_DECISION:
        return H + YES if us_night(T, S, g) else H + NO
    if ph == REINF_PICK:
        if margin != 0 and not lz_room(T, S, g, margin):
            return H + END  # no zone has room: the companies wait in the box (9.2: "all, some, or none")
        for k in range(MAX_BATTALIONS):
            if m[H + REINF_0 + k]:
                return H + REINF_0 + k
        return H + END
    if ph == REINF_ZONE:
        return us_zone(T, S, g, m, gd, margin)
    if ph == INDEPENDENT:
        return us_independent(T, S, g, m)
    if ph == DEPOT:
        return us_depot(T, S, g, m)
    occ = occupancy(T, S, g)
    if ph == ACT_SELECT:
        return us_select(T, S, g, m, occ, gd)
    if ph == ACT_ORDER:
        return us_order(T, S, g, m, occ, gd)
    if ph == AIR_TARGET:
        return strongest_stack_target(T, S, g, m, occ, US, False)
    if ph == RETREAT_OPTION:
        return H + YES if us_retreat_option(T, S, g) else H + NO
    if ph == ADVANCE:
        return H + SLOT_0 if m[H + SLOT_0] else H + END
    if ph == REFIT_ALLOC or ph == SLOT or ph == MELEE_PICK:
        return first_legal(m)
    return minor_decision(T, S, g, m)


# ------------------------------------------------------------------------------------------ Japan
@njit(cache=True)
def threatened_victory(T, occ, h):
    """The Victory Hex within 3 of h that a U.S. unit is within THREAT_RANGE of (13.2.2), or -1."""
    for k in range(6):
        v = T.victory_hex[k]
        if v >= 0 and T.dist[h, v] <= 3 and enemy_near(T, occ, v, JAPAN, THREAT_RANGE) <= THREAT_RANGE:
            return v
    return -1


@njit(cache=True)
def jp_busy(T, S, g, u, occ):
    """A Japanese unit with something to do this step: next to or in range of the U.S., or near a
    threatened Victory Hex."""
    h = S.unit_hex[g, u]
    if enemy_near(T, occ, h, JAPAN, 3) <= 3:
        return True
    return T.u_type[u] != UNKNOWN and threatened_victory(T, occ, h) >= 0


@njit(cache=True)
def jp_select(T, S, g, m, occ):
    H = T.nbr.shape[0]
    if m[H + STRIKE]:
        return H + STRIKE
    if m[H + AIR]:
        return H + AIR
    if m[H + YAMASAKI] and yama_plan(T, S, g, m, occ, False) >= 0:
        return H + YAMASAKI
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and m[S.unit_hex[g, u]] and side_of(T, S, g, u) == JAPAN \
                and not S.acted[g, u] and jp_busy(T, S, g, u, occ):
            return S.unit_hex[g, u]
    v = needed_victory(T, S, g)
    if v >= 0:
        for u in range(T.u_side.shape[0]):
            if S.unit_loc[g, u] == LOC_MAP and m[S.unit_hex[g, u]] and side_of(T, S, g, u) == JAPAN \
                    and not S.acted[g, u] and jp_reinforces(T, S, g, u, v):
                return S.unit_hex[g, u]
    return H + END


@njit(cache=True)
def jp_reinforces(T, S, g, u, v):
    """Japanese unit u marches on Victory Hex v (the one of greatest need, 9.6's ``needed_victory``):
    it is not artillery, not on a Victory Hex, away from the fighting (no U.S. unit within three
    hexes) and within REINFORCE_RANGE hexes of v but not next to it."""
    a = S.unit_hex[g, u]
    return T.u_type[u] != ARTILLERY and not S.captured[g, u] and not on_victory_hex(T, a) and \
        1 < T.dist[a, v] <= REINFORCE_RANGE and us_distance(T, S, g, a) > 3


@njit(cache=True)
def on_victory_hex(T, h):
    for k in range(6):
        if T.victory_hex[k] == h:
            return True
    return False


@njit(cache=True)
def jp_order(T, S, g, m, occ):
    H = T.nbr.shape[0]
    u = S.selected[g]
    a = S.unit_hex[g, u]
    best = melee_choice(T, S, g, m, u)
    if best >= 0:
        return best
    # 13.2.2: Ranged Combat against the nearest U.S. unit
    fire, fire_d = -1, FAR
    for t in range(H):
        if m[t] and occ[t] == US and T.dist[a, t] < fire_d:
            fire, fire_d = t, T.dist[a, t]
    if fire >= 0:
        return fire
    # 13.2.1: Unknowns on Victory Hexes do not move; the last defender of a Victory Hex stays
    if on_victory_hex(T, a) and (T.u_type[u] == UNKNOWN or counters_in(T, S, g, a, JAPAN) <= 1):
        return H + HOLD
    # man the nearest threatened Victory Hex that no Japanese unit holds
    v = threatened_victory(T, occ, a)
    if v >= 0 and occ[v] != JAPAN:
        dest, dest_d = -1, T.dist[a, v]
        for h in range(H):
            if m[h] and occ[h] != US and T.dist[h, v] < dest_d:
                dest, dest_d = h, T.dist[h, v]
        if dest >= 0:
            return dest
    # march on the Victory Hex of greatest need: the free hex nearer it that best defends it
    w = needed_victory(T, S, g)
    if w >= 0 and jp_reinforces(T, S, g, u, w):
        dest, dest_score = -1, FAR
        for h in range(H):
            if m[h] and occ[h] != US and T.dist[h, w] < T.dist[a, w]:
                score = spot_score(T, S, g, h, w, u)
                if score < dest_score:
                    dest, dest_score = h, score
        if dest >= 0:
            return dest
    return H + HOLD


# ------------------------------------------------------------------- Japan: the Refit Turn (9.6)
@njit(cache=True)
def us_distance(T, S, g, h):
    """Hexes from h to the nearest U.S. counter (FAR when none is on the map)."""
    best = FAR
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and side_of(T, S, g, u) == US:
            best = min(best, T.dist[h, S.unit_hex[g, u]])
    return best


@njit(cache=True)
def victory_need(T, S, g, k):
    """9.6: how much Victory Hex k needs defenders: the U.S. steps within NEAR_VICTORY hexes of it
    less JP_PER_COUNTER for every Japanese counter within IN_THE_WAY hexes; -FAR when no U.S.
    unit is that near or its zone is cleared (no Unknown may go there, 10.0)."""
    v = T.victory_hex[k]
    if v < 0 or S.zone_cleared[g, k]:
        return -FAR
    us, jp = 0, 0
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] != LOC_MAP:
            continue
        d = T.dist[S.unit_hex[g, u], v]
        if side_of(T, S, g, u) == US:
            if d <= NEAR_VICTORY:
                us += S.unit_steps[g, u]
        elif d <= IN_THE_WAY:
            jp += 1
    return us - JP_PER_COUNTER * jp if us > 0 else -FAR


@njit(cache=True)
def needed_victory(T, S, g):
    """The threatened Victory Hex with the greatest need (9.6), or -1 when none needs more."""
    best, best_need = -1, 0
    for k in range(6):
        v = T.victory_hex[k]
        if v < 0 or hex_side(T, S, g, v) == US:
            continue
        n = victory_need(T, S, g, k)
        if n > best_need:
            best, best_need = v, n
    return best


@njit(cache=True)
def garrison_of(T, S, g, h):
    """Hex h is within IN_THE_WAY + 1 of a Victory Hex the U.S. does not hold: an Unknown there
    is its garrison and stays (9.6)."""
    for k in range(6):
        v = T.victory_hex[k]
        if v >= 0 and T.dist[h, v] <= IN_THE_WAY + 1 and hex_side(T, S, g, v) != US:
            return True
    return False


@njit(cache=True)
def zone_keeps_others(T, S, g, h):
    """10.0: a swap of hex h leaves its Victory Zone uncleared: the zone's Victory Hex has no U.S.
    unit near (NEAR_VICTORY), or other Japanese units that are not Unknowns stand in the zone."""
    z = T.zone[h]
    if z < 0 or victory_need(T, S, g, z) == -FAR:
        return True
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] != h and side_of(T, S, g, u) == JAPAN and \
                (T.u_type[u] != UNKNOWN or S.captured[g, u]) and T.zone[S.unit_hex[g, u]] == z:
            return True
    return False


@njit(cache=True)
def near_threatened_victory(T, S, g, h):
    """Hex h is a Victory Hex, or within IN_THE_WAY of one with U.S. units near it."""
    for k in range(6):
        v = T.victory_hex[k]
        if v == h or (v >= 0 and T.dist[h, v] <= IN_THE_WAY and victory_need(T, S, g, k) > -FAR):
            return True
    return False


@njit(cache=True)
def spot_score(T, S, g, h, v, skip):
    """Where an Unknown best defends Victory Hex v (lower is better): on it or near it, on the
    U.S. side of it, in a hex of its own (2.5: a hex's counters reveal together and hold three
    Infantry at most).  Unit ``skip`` (the Unknown being moved) is not counted."""
    jp, unk = 0, 0
    for u in range(T.u_side.shape[0]):
        if u != skip and S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == h and side_of(T, S, g, u) == JAPAN:
            if T.u_type[u] == UNKNOWN and not S.captured[g, u]:
                unk += 1
            else:
                jp += 1
    score = 10 * T.dist[h, v] + us_distance(T, S, g, h) + 20 * jp + 50 * unk
    if h == v and jp + unk == 0:
        score -= 10
    return score


@njit(cache=True)
def jp_unknown_pick(T, S, g, m):
    """9.6 step 1: an Unknown far from the fighting (no garrison of a Victory Hex, no U.S. unit
    within THREAT_RANGE, not near the Victory Hex of greatest need), or END."""
    H = T.nbr.shape[0]
    v = needed_victory(T, S, g)
    if v < 0:
        return H + END
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] != LOC_MAP or T.u_type[u] != UNKNOWN or S.captured[g, u] or S.acted[g, u]:
            continue
        a = S.unit_hex[g, u]
        if m[a] and not garrison_of(T, S, g, a) and us_distance(T, S, g, a) > THREAT_RANGE and \
                T.dist[a, v] > IN_THE_WAY:
            return a
    return H + END


@njit(cache=True)
def jp_unknown_dest(T, S, g, m):
    """9.6 step 1: the selected Unknown goes to the best spot by the Victory Hex of greatest need
    (``spot_score``), or stays."""
    u = S.selected[g]
    a = S.unit_hex[g, u]
    v = needed_victory(T, S, g)
    if v < 0:
        return a
    best, best_score = a, spot_score(T, S, g, a, v, u)
    for h in range(T.nbr.shape[0]):
        if m[h]:
            score = spot_score(T, S, g, h, v, u)
            if score < best_score:
                best, best_score = h, score
    return best


@njit(cache=True)
def jp_swap_pick(T, S, g, m, occ):
    """9.6 step 2: a hex of Infantry to swap for Unknowns: not adjacent to a U.S. unit, not in or
    next to a Landing Zone, not a Victory Hex that two Infantry or more hold, and not the last
    Japanese units other than Unknowns in a threatened Victory Zone (10.0); or END."""
    H = T.nbr.shape[0]
    for h in range(H):
        if not m[h] or T.near_lz[h]:
            continue
        contact = False
        for d in range(6):
            n = T.nbr[h, d]
            if n >= 0 and occ[n] == US:
                contact = True
        if contact or (on_victory_hex(T, h) and counters_in(T, S, g, h, JAPAN) >= 2):
            continue
        if zone_keeps_others(T, S, g, h):
            return h
    return H + END


@njit(cache=True)
def jp_swap_place(T, S, g, m):
    """9.6 step 2: the next Unknown of a swap goes back to the swapped hex when that hex is a
    Victory Hex or near a threatened one, else to the best spot by the Victory Hex of greatest
    need (``spot_score``); with no threatened Victory Hex, to the hex nearest the swapped one."""
    H = T.nbr.shape[0]
    home = S.sel_hex[g]
    v = needed_victory(T, S, g)
    if m[home] and counters_in(T, S, g, home, JAPAN) == 0 and (v < 0 or near_threatened_victory(T, S, g, home)):
        return home
    best, best_score = -1, FAR
    for h in range(H):
        if m[h]:
            score = spot_score(T, S, g, h, v, -1) if v >= 0 else T.dist[h, home]
            if score < best_score:
                best, best_score = h, score
    return best if best >= 0 else H + END


# --------------------------------------------------------------------- Japan: Yamasaki (11.3)
@njit(cache=True)
def assault_cost(T, dist, t):
    """11.3.2: Movement Points to assault hex t, from the Japanese costs ``dist`` to its
    neighbours: the hexside's cost and one more; not across a cliff."""
    best = INF
    for d in range(6):
        n = T.nbr[t, d]
        if n < 0 or dist[n] >= INF:
            continue
        e = (d + 3) % 6  # from n into t
        c = T.cost[JAPAN][n, e]
        if c >= IMPASSABLE or not T.zoc_reach[n, e]:
            continue
        best = min(best, dist[n] + c + 1)
    return best


@njit(cache=True)
def yama_worth(T, occ, t):
    """A U.S. hex worth a Banzai assault: a Victory Hex, or next to a Victory Hex the U.S. does
    not hold."""
    if occ[t] != US:
        return False
    for k in range(6):
        v = T.victory_hex[k]
        if v == t or (v >= 0 and T.dist[t, v] == 1 and occ[v] != US):
            return True
    return False


@njit(cache=True)
def yama_target(T, S, g, h, dice, mp, occ):
    """(target, margin): the hex worth an assault (``yama_worth``) that a group of ``dice`` melee
    dice in hex h reaches with ``mp`` Movement Points, ignoring U.S. ZOCs (11.3.1), with the most
    dice over the U.S. steps in it (at least as many); (-1, -1) when none."""
    H = T.nbr.shape[0]
    blocked = np.zeros(H, dtype=np.bool_)
    for x in range(H):
        blocked[x] = occ[x] == US
    src = np.empty(1, dtype=np.int32)
    src[0] = h
    dist = np.empty(H, dtype=np.int32)
    path_cost_from(T, S, g, JAPAN, src, 1, blocked, mp, dist)
    best, best_margin = -1, -1
    for t in range(H):
        if yama_worth(T, occ, t) and assault_cost(T, dist, t) <= mp:
            margin = dice - steps_in(T, S, g, t, US)
            if margin > best_margin:
                best, best_margin = t, margin
    return best, best_margin


@njit(cache=True)
def yama_group(T, S, g, h):
    """(melee dice, Movement Points) of the group Yamasaki would activate in hex h (11.3.1:
    doubled, the smallest allowance of the group)."""
    dice, mp = 0, 1000
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == h and side_of(T, S, g, u) == JAPAN \
                and is_infantry_like(T, S, g, u) and not has_acted(T, S, g, u):
            dice += melee_power(T, S, g, u)
            mp = min(mp, 2 * allowance(T, S, g, u, T.u_move[u]))
    return dice, (mp if mp < 1000 else 0)


@njit(cache=True)
def yama_plan(T, S, g, m, occ, masked):
    """11.3: the hex whose group has the best assault (``yama_target``), among the hexes of
    ``m`` (``masked``) or every hex with a unit that may join; -1 when none."""
    best, best_margin = -1, -1
    for h in range(T.nbr.shape[0]):
        if (masked and not m[h]) or (not masked and (occ[h] != JAPAN or not may_activate(T, S, g, h))):
            continue
        dice, mp = yama_group(T, S, g, h)
        t, margin = yama_target(T, S, g, h, dice, mp, occ)
        if t >= 0 and margin > best_margin:
            best, best_margin = h, margin
    return best


@njit(cache=True)
def yama_move(T, S, g, m, occ):
    """YAMA_MOVE (11.3.1-11.3.2): assault the target when it is next, else the step toward it
    that leaves the assault cheapest; END when no target is left in reach."""
    H = T.nbr.shape[0]
    a = S.sel_hex[g]
    mp = S.yama_mp[g]
    dice = 0
    for u in range(T.u_side.shape[0]):
        if S.yama_unit[g, u] and S.unit_loc[g, u] == LOC_MAP:
            dice += melee_power(T, S, g, u)
    t, _ = yama_target(T, S, g, a, dice, mp, occ)
    if t < 0:
        return H + END
    if m[t]:
        return t
    blocked = np.zeros(H, dtype=np.bool_)
    for x in range(H):
        blocked[x] = occ[x] == US
    src = np.empty(1, dtype=np.int32)
    dist = np.empty(H, dtype=np.int32)
    best, best_c = H + END, INF
    for d in range(6):
        n = T.nbr[a, d]
        if n < 0 or not m[n] or occ[n] == US:
            continue
        c = T.cost[JAPAN][a, d]
        src[0] = n
        path_cost_from(T, S, g, JAPAN, src, 1, blocked, max(mp - c, 0), dist)
        rest = assault_cost(T, dist, t)
        if c + rest < best_c:
            best, best_c = n, c + rest
    return best


@njit(cache=True)
def jp_setup(T, S, g, m):
    """Free and solitaire set-ups (12.4, 13.2.1): each unit on the legal hex that best lies
    between a landing zone and its Victory Hex (the Victory Hexes taken in turn) -- "in the way of
    the U.S. advance"."""
    H = T.nbr.shape[0]
    v = T.victory_hex[placement_unit(T, S, g) % 6]
    best, best_score = -1, FAR
    for h in range(H):
        if not m[h]:
            continue
        lz = FAR
        for k in range(LANDING_ZONES):
            if T.lz_hex[k] >= 0:
                lz = min(lz, T.dist[h, T.lz_hex[k]])
        score = 2 * T.dist[h, v] + lz
        if score < best_score:
            best, best_score = h, score
    return best if best >= 0 else first_legal(m)


@njit(cache=True)
def jp_advance(T, S, g, m):
    """Advance one unit into the vacated hex (8.2.1.4): it may capture artillery there."""
    H = T.nbr.shape[0]
    if counters_in(T, S, g, S.mel_hex[g], JAPAN) == 0 and m[H + SLOT_0]:
        return H + SLOT_0
    return H + END


@njit(cache=True)
def decide_japan(T, S, g, m):
    H = T.nbr.shape[0]
    ph = S.phase[g]
    if ph == JP_SETUP:
        return jp_setup(T, S, g, m)
    if ph == UNKNOWN_PICK:
        return jp_unknown_pick(T, S, g, m)
    if ph == UNKNOWN_DEST:
        return jp_unknown_dest(T, S, g, m)
    if ph == SWAP_PLACE:
        return jp_swap_place(T, S, g, m)
    occ = occupancy(T, S, g)
    if ph == SWAP_PICK:
        return jp_swap_pick(T, S, g, m, occ)
    if ph == YAMA_SELECT:
        h = yama_plan(T, S, g, m, occ, True)
        return h if h >= 0 else first_legal(m)
    if ph == YAMA_MOVE:
        return yama_move(T, S, g, m, occ)
    if ph == ACT_SELECT:
        return jp_select(T, S, g, m, occ)
    if ph == ACT_ORDER:
        return jp_order(T, S, g, m, occ)
    if ph == AIR_TARGET:
        return strongest_stack_target(T, S, g, m, occ, JAPAN, True)
    if ph == ADVANCE:
        return jp_advance(T, S, g, m)
    if ph == SLOT or ph == MELEE_PICK:
        return first_legal(m)
    return minor_decision(T, S, g, m)


# ------------------------------------------------------------------------------------------ batch
@njit(cache=True, nogil=True)
def decide_chunk(T, S, lo, hi, side, gd, margin, out):
    """An action for every game of [lo, hi) where ``side`` is to decide (0 elsewhere): a chunk
    kernel of the core's threads (KernelCore.run_chunks); the games are independent.  ``margin``:
    the U.S. Landing Zone margin in per cent (``lz_over``), 0 for the rule's own count."""
    for g in range(lo, hi):
        m = S.legal_action_mask[g]
        if S.terminated[g] or S.truncated[g] or S.current_player[g] != side:
            out[g] = 0
            continue
        a = decide_us(T, S, g, m, gd, margin) if side == US else decide_japan(T, S, g, m)
        out[g] = a if 0 <= a < m.shape[0] and m[a] else first_legal(m)  # never a masked action


# ------------------------------------------------------------------------------------------ agent
class AttuRuleAgent:
    """Rule-based Attu player for either side (see the module docstring).  ``lz_margin`` (U.S.,
    per cent; 0 for the rule's own count): stage and land only where the steps on a Landing
    Zone's hex, those staged for it and a company's four fit in that share of its capacity, or
    else where it is least overfilled, and land no reinforcements while no zone has that room."""

    def __init__(self, side: str | None = None, lz_margin: int = 0):
        if not 0 <= lz_margin <= 100:
            raise ValueError(f"lz_margin is a share of a Landing Zone's capacity in per cent (9.2.1), "
                             f"0 to 100; got {lz_margin}")
        self.side = side
        self.lz_margin = int(lz_margin)

    def act(self, core, state, player: int) -> np.ndarray:
        out = np.zeros(state.phase.shape[0], dtype=np.int64)
        core.run_chunks(decide_chunk, state, int(player), core.goals[US], self.lz_margin, out)  # on the core's threads
        return out

    def __repr__(self) -> str:
        margin = f", lz_margin={self.lz_margin}" if self.lz_margin else ""
        return f"AttuRuleAgent(side={self.side!r}{margin})"


LZ_MARGIN = 80  # rule:margin (benchmarks/README.md: 70 % and 90 % won fewer two-player games)


@baselines.register("attu", "us")
def _us_rule(**kwargs) -> AttuRuleAgent:
    return AttuRuleAgent("us", **kwargs)


@baselines.register("attu", "us", "margin")
def _us_rule_margin(**kwargs) -> AttuRuleAgent:
    return AttuRuleAgent("us", lz_margin=LZ_MARGIN, **kwargs)


@baselines.register("attu", "japan")
@baselines.register("attu", "japan", "solitaire")  # opponent="solitaire": with the 13.0 core
def _japan_rule(**kwargs) -> AttuRuleAgent:
    return AttuRuleAgent("japan", **kwargs)
