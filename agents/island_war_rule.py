"""Rule-based baselines for the Island War standard rules (both sides), registered as ``rule``.

    agent = wargym.agents.baselines.get("island_war", "us")      # or "japan"
    actions = agent.act(core, state, player)                      # int64[B]

One class plays either side; every decision of every game in the batch is taken by one compiled
(numba) function, ``decide_batch``, which reads the engine's state arrays and tables and calls the
engine's own kernels (movement.destinations, combat.attack_strength / defense_strength /
terrain_line / crt_column, retreat.advance_choices, ...) so the rules exist once.

Behaviour by decision phase (state.phase):

* Movement, select: the side's unmoved units one by one (units that cannot leave an enemy
  controlled hex, 5.14/5.15, and Japanese objective garrisons are skipped), then the waiting
  reinforcements (REINF_k), then END_PHASE.
* Movement, destination: every legal hex is scored:
    - progress toward the side's goals: objectives it does not control (the defender also: its own
      objectives left without a garrison), in terrain-aware distance (half Movement Points,
      precomputed once per scenario), and the objective itself when it can be entered;
    - the attack the unit commits to when it ends next to enemy units (7.11-7.12): expected value
      of the Combat Results Table with the strength already massed against that enemy, the unit's
      own, part of the barrage and Ground Support available, against its Defense Strength, the
      Final Protective Fire it may receive and its terrain line (the worst adjacent enemy counts);
    - the danger of the hex in the enemy's next Player-Turn (enemy attack strength within reach
      against the unit's Defense Strength and the hex's terrain line) and, for the defender, the
      terrain line itself;
    - artillery keeps two hexes or more from the enemy and stays within range of it.
* Combat, select: the obligatory target (7.11) whose attack with all adjacent units and all
  support has the best expected value first (so artillery and Ground Support go to the best
  attacks and what is left makes the diversionary ones, 7.5); when no obligation is left, pure
  barrages (8.15: only D2, D3, De count) where they can hurt; then END_PHASE.
* Combat, declare: every adjacent unit that may join without leaving another adjacent enemy
  unattacked (7.21), then BANZAI (Japan) when the doubled odds are worth the exchange losses
  (10.0), then barrage artillery and Ground Support Points while they move the differential to a
  better column, up to the first column whose six results all hurt the defender; CONFIRM.  When
  CONFIRM is not allowed: the enemy left unattacked is added as a defender, else any attacker,
  else CANCEL where it is offered (a cancelled target is not chosen again this Combat Phase), else
  whatever may still be added.
* FPF (defender): artillery FPF (largest first), then Ground Support, while what is left can still
  lower the column and the lower column changes the odds; CONFIRM.
* Retreat: the hex farthest from the enemy, vacant, on the best terrain line, an objective first.
* Advance: a unit whose Path of Retreat reaches an objective its side does not control, or (the
  phasing side) a hex that is a better place for it by the movement score.

Parameters are per role, not per side: the attacker is the side that starts with less than half
of the objective VP (the US on Saipan, Japan at Bloody Ridge).  Measured against uniform random
play (100 games): Saipan US 96%, Saipan Japan 100% (victory at +48), Bloody Ridge US 100%, Bloody Ridge
Japan about 20-25% (random Japan vs random US: 0%).  Japan needs a margin of +2 or less from +22
there, i.e. Henderson Field (10 VP) or all four other objectives, in 7 turns, starting 6-8 jungle
hexes (2 MP each, MA 3) south of the US line: the reconstructed threshold, not the engine, limits it.
"""

from __future__ import annotations

import numpy as np

from wargym.agents import baselines
from wargym.island_war.actions import BANZAI, CANCEL, CONFIRM, END_PHASE, GS_ADD, MAX_REINF_CHOICES, REINF_0
from wargym.island_war.artillery import fpf_allowed
from wargym.island_war.banzai import doubled
from wargym.island_war.combat import attack_strength, crt_column, defense_strength, fresh, terrain_line
from wargym.jit import njit
from wargym.kernel import first_legal
from wargym.island_war.movement import INF, may_exit_enemy_zoc, step_cost
from wargym.island_war.retreat import advance_choices, enemy_distance
from wargym.island_war.scenario import A1, A2, A3, AE, ARMOR, ARTILLERY, D1, D2, D3, DE
from wargym.island_war.state import (
    ADVANCE_DEST, ADVANCE_SELECT, COMBAT_BUILD, COMBAT_SELECT, DISPLACE, FPF, MOVE_DEST, MOVE_SELECT, ON_MAP, RETREAT,
    as_arrays,
)
from wargym.island_war.zoc import enemy_zoc, has_adjacent_enemy, occupancy

# ---------------------------------------------------------------------------------- parameters
# one row per role: the attacker (the side that starts holding less than half of the objective
# VP: the US on Saipan, Japan at Bloody Ridge) and the defender
ATTACKER, DEFENDER = 0, 1
P_GOAL, P_SAFE, P_TERRAIN, P_SUPPORT, P_OBJ, P_ATTACK, P_GARRISON, P_ADVANCE, P_VP = range(9)
N_PARAMS = 9
DEFAULT_PARAMS = np.array([
    # goal/half-MP  danger  terrain  support share  objective  attack  garrison  advance  half-MP per goal VP
    [0.25,          0.0,    0.0,     1.0,           2.0,       0.3,    0.0,      0.3,     3.0],   # attacker
    [0.06,          1.0,    0.15,    0.5,           2.0,       1.0,    1.0,      0.3,     3.0],   # defender
], dtype=np.float64)


# ------------------------------------------------------------------------------------- helpers
@njit(cache=True)
def terrain_distances(T):
    """int32[H, H]: cheapest path in half Movement Points from a to b for a non-armored unit,
    ignoring units and Zones of Control (INF when unreachable).  Static, computed once."""
    H = T.nbr.shape[0]
    out = np.full((H, H), INF, dtype=np.int32)
    done = np.zeros(H, dtype=np.bool_)
    for s in range(H):
        if T.move_cost[s] == 0:
            continue
        row = out[s]
        row[s] = 0
        done[:] = False
        while True:
            best, a = INF, -1
            for h in range(H):
                if not done[h] and row[h] < best:
                    best, a = row[h], h
            if a < 0:
                break
            done[a] = True
            for d in range(6):
                b = T.nbr[a, d]
                if b < 0 or done[b]:
                    continue
                c = step_cost(T.hexside, T.move_cost, T.armor_ok, T.river_cost, a, d, b, False)  # 5.21-5.23
                if c < INF and best + c < row[b]:
                    row[b] = best + c
    return out


@njit(cache=True)
def outcome_value(T, line, col, kill_val, loss_val, obj_bonus, pure):
    """Expected value of one combat for the attacker on CRT line/column (7.61-7.62): De is worth
    ``kill_val`` (+ the objective the defender leaves), retreats a little, Ae costs ``loss_val``.
    ``pure``: a barrage without adjacent attackers, where only D2, D3 and De count (8.15)."""
    s = 0.0
    for die in range(6):
        r = T.crt[line, col, die]
        if r == DE:
            s += kill_val + obj_bonus
        elif r == D3:
            s += 0.9 + 0.8 * obj_bonus
        elif r == D2:
            s += 0.6 + 0.8 * obj_bonus
        elif not pure:
            if r == D1:
                s += 0.3 + 0.8 * obj_bonus
            elif r == A1:
                s -= 0.3
            elif r == A2:
                s -= 0.5
            elif r == A3:
                s -= 0.7
            elif r == AE:
                s -= loss_val
    return s / 6.0


@njit(cache=True)
def unit_value(T, u):
    return T.u_vp[u] + 1.0


@njit(cache=True)
def strength_of(T, u):
    """What a unit adds to an attack: Attack Strength, or Barrage Strength for artillery (8.31)."""
    return T.u_barrage[u] if T.u_type[u] == ARTILLERY else T.u_attack[u]


@njit(cache=True)
def objective_bonus(T, S, g, h, side):
    """VP of an objective in hex h that ``side`` does not control (0 otherwise)."""
    for i in range(T.obj_hex.shape[0]):
        if T.obj_hex[i] == h and S.objective_owner[g, i] != side:
            return float(T.obj_vp[i])
    return 0.0


@njit(cache=True)
def own_objective(T, S, g, h, side):
    for i in range(T.obj_hex.shape[0]):
        if T.obj_hex[i] == h and S.objective_owner[g, i] == side:
            return True
    return False


@njit(cache=True)
def fpf_estimate(T, S, g, h, side, occ):
    """FPF and Ground Support the enemies of ``side`` can add to the defence of hex h (8.4, 9.0)."""
    total = S.gs_points[g, 1 - side]
    for v in range(T.u_side.shape[0]):
        if T.u_side[v] != side and T.u_type[v] == ARTILLERY and S.unit_status[g, v] == ON_MAP \
                and T.u_fpf[v] > 0 and not S.fpf_used[g, v] and T.dist[S.unit_hex[g, v], h] <= T.u_range[v] \
                and S.last_adverse[g, v] < S.combat_phase[g] - 1 and not has_adjacent_enemy(T, S, g, v, occ):
            total += T.u_fpf[v]
    return total


@njit(cache=True)
def barrage_available(T, S, g, h, side, occ):
    """Barrage Strength of ``side``'s artillery free to fire on hex h (8.11), as the phasing side."""
    total = 0
    for v in range(T.u_side.shape[0]):
        if T.u_side[v] == side and T.u_type[v] == ARTILLERY and S.unit_status[g, v] == ON_MAP \
                and not S.attacked[g, v] and T.dist[S.unit_hex[g, v], h] <= T.u_range[v] \
                and not has_adjacent_enemy(T, S, g, v, occ):
            total += T.u_barrage[v]
    return total


# --------------------------------------------------------------------------------------- movement
@njit(cache=True)
def goal_cost(T, S, g, h, side, occ, tdist, defending, vpw):
    """Half-MP from h to the nearest goal of ``side`` (vp-weighted); 0 when it has none.  Goals:
    the objectives it does not control, and (defender) its own objectives left ungarrisoned."""
    best = INF
    for i in range(T.obj_hex.shape[0]):
        o = T.obj_hex[i]
        own = S.objective_owner[g, i] == side
        if own and (not defending or occ[o] >= 0):
            continue
        d = tdist[h, o]
        if d >= INF:
            continue
        c = d - vpw * T.obj_vp[i]
        if c < best:
            best = c
    if best == INF:
        return 0.0
    return float(best)


@njit(cache=True)
def danger(T, S, g, u, h, side):
    """Expected loss of unit u in hex h if the enemy masses what can reach it next Player-Turn."""
    threat = 0
    for e in range(T.u_side.shape[0]):
        if T.u_side[e] == side or S.unit_status[g, e] != ON_MAP or T.u_type[e] == ARTILLERY:
            continue
        reach = 3 if T.u_type[e] == ARMOR else 2
        if T.dist[h, S.unit_hex[g, e]] <= reach:
            threat += T.u_attack[e]
    if threat == 0:
        return 0.0
    col = crt_column(T, threat - T.u_defense[u])
    v = outcome_value(T, T.hex_line[h], col, unit_value(T, u), 0.0, 0.0, False)
    return v if v > 0.0 else 0.0


@njit(cache=True)
def hex_score(T, S, g, u, h, side, occ, massed, tdist, P):
    """How good hex h is for unit u to end its move in (module docstring)."""
    H = T.nbr.shape[0]
    score = -P[P_GOAL] * goal_cost(T, S, g, h, side, occ, tdist, P[P_GARRISON] > 0, P[P_VP])
    score += P[P_OBJ] * objective_bonus(T, S, g, h, side)
    if own_objective(T, S, g, h, side):
        score += P[P_GARRISON]
    score += P[P_TERRAIN] * T.line_rank[T.hex_line[h]]
    if T.u_type[u] == ARTILLERY:
        near = 1000
        for e in range(T.u_side.shape[0]):
            if T.u_side[e] != side and S.unit_status[g, e] == ON_MAP:
                d = T.dist[h, S.unit_hex[g, e]]
                if d < near:
                    near = d
        if near == 1:
            score -= 6.0
        elif near == 2:
            score -= 2.0
        if near <= T.u_range[u]:
            score += 0.5
        return score
    # the attack it commits to (7.11-7.12): the worst adjacent enemy counts
    worst = 1e9
    n_enemy = 0
    for d in range(6):
        n = T.nbr[h, d]
        if n < 0 or n >= H:
            continue
        e = occ[n]
        if e < 0 or T.u_side[e] == side:
            continue
        n_enemy += 1
        strength = massed[e] + T.u_attack[u]
        if massed[e] > 0 and T.dist[S.unit_hex[g, u], n] == 1 and S.unit_status[g, u] == ON_MAP:
            strength -= T.u_attack[u]  # already counted where it stands
        support = P[P_SUPPORT] * (barrage_available(T, S, g, n, side, occ) + S.gs_points[g, side])
        dfn = T.u_defense[e] + fpf_estimate(T, S, g, n, side, occ)
        col = crt_column(T, int(strength + support) - dfn)
        v = outcome_value(T, T.hex_line[n], col, unit_value(T, e), 2 * unit_value(T, u),
                          objective_bonus(T, S, g, n, side), False)
        if v < worst:
            worst = v
    if n_enemy > 0:
        score += P[P_ATTACK] * worst
    score -= P[P_SAFE] * danger(T, S, g, u, h, side)
    return score


@njit(cache=True)
def massed_strength(T, S, g, u, side, occ):
    """float[U]: attack strength of ``side``'s units (other than u) adjacent to each enemy unit."""
    U = T.u_side.shape[0]
    out = np.zeros(U, dtype=np.float64)
    for e in range(U):
        if T.u_side[e] == side or S.unit_status[g, e] != ON_MAP:
            continue
        he = S.unit_hex[g, e]
        for v in range(U):
            if v != u and T.u_side[v] == side and S.unit_status[g, v] == ON_MAP and T.dist[S.unit_hex[g, v], he] == 1:
                out[e] += strength_of(T, v)
    return out


@njit(cache=True)
def choose_unit(T, S, g, side, occ, m, P):
    """Next unit to move (its hex or a REINF_k action), or END_PHASE."""
    H = T.nbr.shape[0]
    U = T.u_side.shape[0]
    ezoc = enemy_zoc(T, S, g, side)
    for u in range(U):
        if T.u_side[u] != side or S.unit_status[g, u] != ON_MAP or S.moved[g, u]:
            continue
        h = S.unit_hex[g, u]
        if not m[h]:
            continue
        if ezoc[h] and not may_exit_enemy_zoc(T, u):
            continue  # 5.14/5.15: it cannot leave
        if P[P_GARRISON] > 0 and own_objective(T, S, g, h, side):
            continue  # the defender's garrison stays
        return h
    for k in range(MAX_REINF_CHOICES):
        if m[H + REINF_0 + k]:
            return H + REINF_0 + k
    return H + END_PHASE


@njit(cache=True)
def choose_destination(T, S, g, side, occ, m, tdist, P):
    H = T.nbr.shape[0]
    u = S.selected[g]
    massed = massed_strength(T, S, g, u, side, occ)
    best, best_score = -1, -1e18
    for h in range(H):
        if m[h]:
            s = hex_score(T, S, g, u, h, side, occ, massed, tdist, P)
            if s > best_score:
                best, best_score = h, s
    return best  # the unit's own hex is always a destination


# ----------------------------------------------------------------------------------------- combat
@njit(cache=True)
def adjacent_ground(T, S, g, h, side):
    """(strength, loss value, count) of ``side``'s fresh units adjacent to hex h."""
    s, loss, n = 0, 0.0, 0
    for v in range(T.u_side.shape[0]):
        if T.u_side[v] == side and fresh(S, g, v) and T.dist[S.unit_hex[g, v], h] == 1:
            s += strength_of(T, v)
            loss += unit_value(T, v)
            n += 1
    return s, loss, n


@njit(cache=True)
def choose_target(T, S, g, side, occ, m, stamp):
    H = T.nbr.shape[0]
    cp = S.combat_phase[g] + 1
    best, best_v = -1, -1e18
    bar, bar_v = -1, -1e18
    for h in range(H):
        if not m[h] or stamp[g, h] == cp:
            continue
        e = occ[h]
        ground, loss, n = adjacent_ground(T, S, g, h, side)
        barrage = barrage_available(T, S, g, h, side, occ)
        if n > 0:
            dfn = T.u_defense[e] + fpf_estimate(T, S, g, h, side, occ)
            col = crt_column(T, ground + barrage + S.gs_points[g, side] - dfn)
            v = outcome_value(T, T.hex_line[h], col, unit_value(T, e), loss, objective_bonus(T, S, g, h, side), False)
            if v > best_v:
                best, best_v = h, v
        elif barrage > 0:
            col = crt_column(T, barrage + S.gs_points[g, side] - T.u_defense[e])
            v = outcome_value(T, T.hex_line[h], col, unit_value(T, e), 0.0, objective_bonus(T, S, g, h, side), True)
            if v > bar_v:
                bar, bar_v = h, v
    if best >= 0:
        return best
    if m[H + END_PHASE]:
        if bar >= 0 and bar_v > 0.25:
            return bar
        return H + END_PHASE
    # every target was given up on but the obligations stand: try the targets in turn, and
    # build_attack then takes whatever it may add (fallback; avoids a select/cancel loop)
    n = 0
    for h in range(H):
        if m[h]:
            n += 1
    if n == 0:
        return H + END_PHASE
    return pseudo_random_legal(S, g, m, H)
    return H + END_PHASE


@njit(cache=True)
def safe_to_add(T, S, g, a, side):
    """7.21: adding a as an adjacent attacker leaves every other fresh enemy next to it with
    another fresh, uncommitted unit next to it."""
    U = T.u_side.shape[0]
    ha = S.unit_hex[g, a]
    for e in range(U):
        if T.u_side[e] == side or S.cb_defender[g, e] or not fresh(S, g, e):
            continue
        he = S.unit_hex[g, e]
        if T.dist[ha, he] != 1:
            continue
        covered = False
        for v in range(U):
            if v != a and T.u_side[v] == side and not S.cb_attacker[g, v] and fresh(S, g, v) \
                    and T.dist[S.unit_hex[g, v], he] == 1:
                covered = True
                break
        if not covered:
            return False
    return True


@njit(cache=True)
def banzai_loss(T, S, g):
    """Value of the Japanese units a Banzai would cost (10.12): fewest infantry/engineers whose
    attack reaches the defenders' Defense Strength, approximated greedily from the strongest."""
    need = 0
    for d in range(T.u_side.shape[0]):
        if S.cb_defender[g, d]:
            need += T.u_defense[d]
    loss = 0.0
    while need > 0:
        best, best_a = -1, -1
        for u in range(T.u_side.shape[0]):
            if S.cb_attacker[g, u] and not S.cb_barrage[g, u] and doubled(T, u) and T.u_attack[u] > best_a:
                best, best_a = u, T.u_attack[u]
        if best < 0:
            return loss + 1.0 * need
        loss += unit_value(T, best)
        need -= best_a
        if best_a <= 0:
            break
    return loss


@njit(cache=True)
def build_attack(T, S, g, side, occ, m, stamp, P):
    H = T.nbr.shape[0]
    U = T.u_side.shape[0]
    cp = S.combat_phase[g] + 1
    for d in range(U):
        if S.cb_defender[g, d] and stamp[g, S.unit_hex[g, d]] == cp:  # a target given up on before
            return build_anyhow(T, S, g, m)
    # 1. every adjacent unit that may join (7.15, 7.23) without stranding another enemy (7.21)
    best, best_s = -1, -1
    for u in range(U):
        if T.u_side[u] != side or S.unit_status[g, u] != ON_MAP:
            continue
        h = S.unit_hex[g, u]
        if not m[h] or not has_adjacent_enemy(T, S, g, u, occ):
            continue
        if safe_to_add(T, S, g, u, side) and strength_of(T, u) > best_s:
            best, best_s = h, strength_of(T, u)
    if best >= 0:
        return best
    n_adj = 0
    loss = 0.0
    n_def = 0
    for u in range(U):
        if S.cb_attacker[g, u] and not S.cb_barrage[g, u]:
            n_adj += 1
            loss += unit_value(T, u)
    kill = 0.0
    obj = 0.0
    for d in range(U):
        if S.cb_defender[g, d]:
            n_def += 1
            kill += unit_value(T, d)
            obj += objective_bonus(T, S, g, S.unit_hex[g, d], side)
    pure = n_adj == 0
    att = attack_strength(T, S, g)
    dfn = defense_strength(T, S, g)
    if not pure and fpf_allowed(T, S, g):
        fp = 0
        for d in range(U):
            if S.cb_defender[g, d]:
                f = fpf_estimate(T, S, g, S.unit_hex[g, d], side, occ)
                if f > fp:
                    fp = f
        dfn += fp
    line = terrain_line(T, S, g)
    # support still available
    avail = S.gs_points[g, side] if m[H + GS_ADD] else 0
    big, big_s = -1, -1
    for u in range(U):
        if T.u_side[u] != side or S.unit_status[g, u] != ON_MAP or S.cb_attacker[g, u]:
            continue
        h = S.unit_hex[g, u]
        if m[h] and T.u_type[u] == ARTILLERY and not has_adjacent_enemy(T, S, g, u, occ):
            avail += T.u_barrage[u]
            if T.u_barrage[u] > big_s:
                big, big_s = h, T.u_barrage[u]
    # 2. Banzai (10.0) when the doubled odds pay for the exchange losses
    if m[H + BANZAI] and not S.cb_banzai[g]:
        extra = 0
        for u in range(U):
            if S.cb_attacker[g, u] and not S.cb_barrage[g, u] and doubled(T, u):
                extra += T.u_attack[u]
        v0 = outcome_value(T, line, crt_column(T, att + avail - dfn), kill, loss, obj, pure)
        vb = outcome_value(T, line, crt_column(T, att + extra + avail - dfn), kill, loss, obj, pure)
        if vb - banzai_loss(T, S, g) > v0 + 0.1:
            return H + BANZAI
    # 3. barrage and Ground Support while they reach a better column (up to the good one)
    diff = att - dfn
    col = crt_column(T, diff)
    K = T.col_min.shape[0]
    target = K - 1 if pure else good_col_of(T, line)
    if col < target and avail > 0:
        need = T.col_min[col + 1] - diff
        if need <= avail:
            cur_v = outcome_value(T, line, col, kill, loss, obj, pure)
            new_v = outcome_value(T, line, crt_column(T, att + avail - dfn), kill, loss, obj, pure)
            if new_v > cur_v + 0.02:
                if big >= 0:  # artillery first: Ground Support also serves as FPF this Game-Turn
                    return big
                return H + GS_ADD
    # 4. resolve
    if m[H + CONFIRM]:
        if pure:
            v = outcome_value(T, line, col, kill, loss, obj, pure)
            if v <= 0.0 and m[H + CANCEL]:
                stamp_targets(T, S, g, stamp)
                return H + CANCEL
        return H + CONFIRM
    # 5. fallback: add the enemy left unattacked, else any attacker, else give up on this target
    for e in range(U):
        if T.u_side[e] == side or S.unit_status[g, e] != ON_MAP:
            continue
        h = S.unit_hex[g, e]
        if m[h]:
            return h
    for u in range(U):
        if T.u_side[u] == side and S.unit_status[g, u] == ON_MAP and m[S.unit_hex[g, u]] \
                and has_adjacent_enemy(T, S, g, u, occ):
            return S.unit_hex[g, u]
    stamp_targets(T, S, g, stamp)
    return H + CANCEL if m[H + CANCEL] else build_anyhow(T, S, g, m)


@njit(cache=True)
def pseudo_random_legal(S, g, m, limit):
    """A legal action among the first ``limit`` drawn from a hash of the decision count: the way
    out of a combination of obligations the builder does not find (uniform play finds it)."""
    n = 0
    for i in range(limit):
        if m[i]:
            n += 1
    if n == 0:
        return -1
    x = (np.int64(S.decisions[g]) * 2654435761 + np.int64(g) * 40503 + 12345) % 1000003
    k = x % n
    for i in range(limit):
        if m[i]:
            if k == 0:
                return i
            k -= 1
    return -1


@njit(cache=True)
def build_anyhow(T, S, g, m):
    """Fallback for a target given up on while obligations stand: confirm when allowed, else
    add something allowed (drawn), cancel only when nothing else is."""
    H = T.nbr.shape[0]
    if m[H + CONFIRM]:
        return H + CONFIRM
    a = pseudo_random_legal(S, g, m, H)
    if a >= 0:
        return a
    if m[H + GS_ADD]:
        return H + GS_ADD
    return H + CANCEL  # offered: nothing can be added and the attack cannot be resolved


@njit(cache=True)
def good_col_of(T, line):
    K = T.crt.shape[1]
    for k in range(K):
        ok = True
        for die in range(6):
            if T.crt[line, k, die] < D1:
                ok = False
                break
        if ok:
            return k
    return K - 1


@njit(cache=True)
def stamp_targets(T, S, g, stamp):
    cp = S.combat_phase[g] + 1
    for d in range(T.u_side.shape[0]):
        if S.cb_defender[g, d]:
            stamp[g, S.unit_hex[g, d]] = cp


@njit(cache=True)
def choose_fpf(T, S, g, side, occ, m):
    H = T.nbr.shape[0]
    U = T.u_side.shape[0]
    att = attack_strength(T, S, g)
    dfn = defense_strength(T, S, g)
    diff = att - dfn
    col = crt_column(T, diff)
    if col == 0:
        return H + CONFIRM
    avail = S.gs_points[g, side] if m[H + GS_ADD] else 0
    big, big_f = -1, -1
    for u in range(U):
        if T.u_side[u] == side and S.unit_status[g, u] == ON_MAP and T.u_type[u] == ARTILLERY \
                and m[S.unit_hex[g, u]]:
            avail += T.u_fpf[u]
            if T.u_fpf[u] > big_f:
                big, big_f = S.unit_hex[g, u], T.u_fpf[u]
    need = diff - T.col_min[col] + 1
    if avail < need:
        return H + CONFIRM
    line = terrain_line(T, S, g)
    n_adj = 0
    loss = 0.0
    kill = 0.0
    for u in range(U):
        if S.cb_attacker[g, u] and not S.cb_barrage[g, u]:
            n_adj += 1
            loss += unit_value(T, u)
        if S.cb_defender[g, u]:
            kill += unit_value(T, u)
    v_now = outcome_value(T, line, col, kill, loss, 0.0, n_adj == 0)
    v_low = outcome_value(T, line, crt_column(T, diff - avail), kill, loss, 0.0, n_adj == 0)
    if v_now - v_low < 0.02:
        return H + CONFIRM
    if big >= 0:
        return big
    return H + GS_ADD


# ------------------------------------------------------------------------------- retreat, advance
@njit(cache=True)
def choose_retreat(T, S, g, side, occ, m):
    H = T.nbr.shape[0]
    best, best_s = -1, -1e18
    for h in range(H):
        if not m[h]:
            continue
        s = 1.0 * min(enemy_distance(T, S, g, side, h), 6) + 0.2 * T.line_rank[T.hex_line[h]]
        if occ[h] >= 0:
            s -= 1.0  # displacing a friend (7.8)
        s += 0.5 * objective_bonus(T, S, g, h, side)
        if own_objective(T, S, g, h, side):
            s += 0.5
        if s > best_s:
            best, best_s = h, s
    return best


@njit(cache=True)
def advance_value(T, S, g, u, h, side, occ, tdist, P):
    """Gain of advancing unit u to h: objective taken, or progress toward the goals (phasing)."""
    v = P[P_OBJ] * objective_bonus(T, S, g, h, side)
    if S.phasing[g] == side and T.u_type[u] != ARTILLERY:
        here = goal_cost(T, S, g, S.unit_hex[g, u], side, occ, tdist, P[P_GARRISON] > 0, P[P_VP])
        there = goal_cost(T, S, g, h, side, occ, tdist, P[P_GARRISON] > 0, P[P_VP])
        v += P[P_GOAL] * (here - there) - P[P_SAFE] * (danger(T, S, g, u, h, side) - danger(T, S, g, u, S.unit_hex[g, u], side))
        if P[P_GARRISON] > 0 and own_objective(T, S, g, S.unit_hex[g, u], side):
            v -= P[P_GARRISON] + 1.0
    return v


@njit(cache=True)
def choose_advance_unit(T, S, g, side, occ, m, tdist, P):
    H = T.nbr.shape[0]
    U = T.u_side.shape[0]
    out = np.zeros(H, dtype=np.bool_)
    best, best_v = -1, P[P_ADVANCE]
    for u in range(U):
        if T.u_side[u] != side or S.unit_status[g, u] != ON_MAP or not m[S.unit_hex[g, u]]:
            continue
        out[:] = False
        advance_choices(T, S, g, u, out)
        for h in range(H):
            if out[h]:
                v = advance_value(T, S, g, u, h, side, occ, tdist, P)
                if v > best_v:
                    best, best_v = S.unit_hex[g, u], v
    return best if best >= 0 else H + CONFIRM


@njit(cache=True)
def choose_advance_dest(T, S, g, side, occ, m, tdist, P):
    H = T.nbr.shape[0]
    u = S.selected[g]
    best, best_v = -1, P[P_ADVANCE]
    for h in range(H):
        if m[h]:
            v = advance_value(T, S, g, u, h, side, occ, tdist, P)
            if v > best_v:
                best, best_v = h, v
    # not reached: the unit was selected for a destination worth advancing to
    return best if best >= 0 else first_legal(m[:H])


# ------------------------------------------------------------------------------------------ batch
@njit(cache=True)
def decide(T, S, g, side, tdist, P, stamp):
    m = S.legal_action_mask[g]
    phase = S.phase[g]
    occ = occupancy(T, S, g)
    if phase == MOVE_SELECT:
        a = choose_unit(T, S, g, side, occ, m, P)
    elif phase == MOVE_DEST:
        a = choose_destination(T, S, g, side, occ, m, tdist, P)
    elif phase == COMBAT_SELECT:
        a = choose_target(T, S, g, side, occ, m, stamp)
    elif phase == COMBAT_BUILD:
        a = build_attack(T, S, g, side, occ, m, stamp, P)
    elif phase == FPF:
        a = choose_fpf(T, S, g, side, occ, m)
    elif phase == RETREAT or phase == DISPLACE:  # the friend displaced goes where a retreat would
        a = choose_retreat(T, S, g, side, occ, m)
    elif phase == ADVANCE_SELECT:
        a = choose_advance_unit(T, S, g, side, occ, m, tdist, P)
    elif phase == ADVANCE_DEST:
        a = choose_advance_dest(T, S, g, side, occ, m, tdist, P)
    else:
        a = first_legal(m)
    if a < 0 or a >= m.shape[0] or not m[a]:
        a = first_legal(m)  # defensive: never return a masked action
    return a


@njit(cache=True)
def decide_batch(T, S, side, tdist, params, stamp, out):
    """An action for every game of the batch where ``side`` is to decide (0 elsewhere);
    ``params``: the parameter row of ``side``'s role."""
    P = params
    for g in range(out.shape[0]):
        if S.terminated[g] or S.truncated[g] or S.current_player[g] != side:
            out[g] = 0
        else:
            out[g] = decide(T, S, g, side, tdist, P, stamp)


# ------------------------------------------------------------------------------------------ agent
_DISTANCES: dict[int, tuple[object, np.ndarray]] = {}  # id(tables) -> (tables, distances)


def _terrain_distances(core) -> np.ndarray:
    """Computed once per core's tables (kept with them: a freed core's id may be reused)."""
    cached = _DISTANCES.get(id(core.tables))
    if cached is None or cached[0] is not core.tables:
        cached = _DISTANCES[id(core.tables)] = (core.tables, terrain_distances(core.tables))
    return cached[1]


def role_of(scenario, side: int) -> int:
    """ATTACKER when ``side`` starts holding less than half of the objective VP, else DEFENDER."""
    vp = np.asarray(scenario.objective_vp, dtype=np.int64)
    own = int(vp[np.asarray(scenario.objective_owner) == side].sum())
    return ATTACKER if 2 * own < int(vp.sum()) else DEFENDER


class IslandWarRuleAgent:
    """Rule-based Island War player for either side (see the module docstring)."""

    def __init__(self, side: str | None = None, params: np.ndarray | None = None):
        self.side = side
        self.params = np.ascontiguousarray(DEFAULT_PARAMS if params is None else params, dtype=np.float64)
        self._stamp: np.ndarray | None = None

    def reset(self, seed: int | None = None) -> None:
        self._stamp = None

    def act(self, core, state, player: int) -> np.ndarray:
        S = as_arrays(state)
        b = state.phase.shape[0]
        h = core.tables.nbr.shape[0]
        if self._stamp is None or self._stamp.shape != (b, h):
            self._stamp = np.zeros((b, h), dtype=np.int16)
        out = np.zeros(b, dtype=np.int64)
        role = role_of(core.scenario, int(player))
        decide_batch(core.tables, S, int(player), _terrain_distances(core), self.params[role], self._stamp, out)
        return out

    def __repr__(self) -> str:
        return f"IslandWarRuleAgent(side={self.side!r})"


@baselines.register("island_war", "us")
def _us_rule(**kwargs) -> IslandWarRuleAgent:
    return IslandWarRuleAgent("us", **kwargs)


@baselines.register("island_war", "japan")
def _japan_rule(**kwargs) -> IslandWarRuleAgent:
    return IslandWarRuleAgent("japan", **kwargs)
