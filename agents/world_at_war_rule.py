"""A rule-based player for either side of The World at War: greedy, one decision at a time.

    set-up        no combat commands
    air support   plays an air support card whenever it can (attacking and defending), puts its planes
                  nearest the enemy (the defender's: nearest the attacking planes), takes "pick an
                  air support" whenever it may; AA, dogfights and ground targets: the first offered
    card          the card that orders the most pieces able to act (a battle in reach, or a move
                  toward the enemy), more orders first; a hand that can order nobody discards a
                  card that orders nothing ("pick an air support", combat command) first
    order         the pieces that can battle now, then those nearest the enemy
    move          each piece to the hex that scores best: the expected hits of its best battle
                  from there, the objectives its side scores, cover, and closing on the enemy (a
                  side with no objective to take values cover more and closing in less);
                  motorized infantry mounts while the enemy is far and dismounts near it
    battle        the target with the most expected hits (a kill that finishes a unit counts more)
    defender      stands; hits on the unit rather than an attached sniper; a mechanized unit's
                  vehicle takes them; retreats onto a commander when it can
    breakthrough  always, and a tank battles again

Expected hits of a die against a target kind at a range: the faces whose symbol scores on that
kind, plus the special face within its range, over six (configs/world_at_war/dice.yaml).

Speed (issue 50: rule against rule at B = 1,024 plays at a share of random play's decisions/s).
The choices are those of a scan of every hex for every piece, ties broken alike (the same actions
in recorded games and positions), worked out from less:
  per core        ``RuleTables``: the face counts above by die, target kind and distance; each
                  card's reach (the farthest range at which it casts a die: no target beyond it);
                  each hex's objective points for each side; whether a side scores any objective
  per decision    the hexes holding an enemy piece, the only ones a battle can target and those
                  the distance to the enemy is measured to (a best target: the first in board
                  order among equals, as the scan found it)
  per position    each piece's best battle where it stands (``Battles``), kept while the fields it
                  reads stay as they are: the orders after a card and the target after the piece
                  battling reuse it, and a hand's cards score each piece's worth once
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from wargym.agents import baselines
from wargym.jit import njit
from wargym.world_at_war import actions as act
from wargym.world_at_war.battle import may_target
from wargym.world_at_war.board import hex_attacker_less, is_commander, is_leader, occupancy
from wargym.world_at_war.scenario import BOTH, C_INFANTRY, MECHANIZED, MOTORIZED
from wargym.world_at_war.sequence import hand_card, hand_size, orderable, second_piece
from wargym.world_at_war.state import (
    P_BATTLE_SELECT, P_BATTLE_TARGET, P_BREAKTHROUGH, P_CARD, P_CONTROL, P_DISCARD, P_FIRST, P_FOLLOW, P_HIT_PART,
    P_ADJUST, P_AIR_DEFEND, P_AIR_PLACE, P_AIR_PLAY, P_DISMOUNT, P_FORM_SELECT, P_HIT_PIECE, P_PICK_AIR, P_MOVE_DEST, P_MOVE_SELECT, P_ORDER, P_RETREAT, P_SECOND,
    P_STAND, StateArg,
)

FAR = 1 << 20

# the rule's own tables of a core (``rule_tables``):
#   hits       int64[4, kinds, D]  faces of a die that score on a target kind at a distance (0 .. D-1)
#   reach      int64[cards]        the farthest distance at which a unit card casts a die, 0: none
#   attacks    bool[2]             the side scores some objective (an attacker)
#   objective  float64[2, H]       the objective points a side scores in each hex
RuleTables = namedtuple("RuleTables", ["hits", "reach", "attacks", "objective"])

# each game's best battles of its pieces as they stand (``known_battle``), kept between decisions:
#   p_hex, p_figures, p_close, features, lit   the position they were worked out on: every field of
#                                              the state that a battle's worth reads
#   value, target, known                       float64, int64, bool [B, U]: ``best_battle`` of a piece
Battles = namedtuple("Battles", ["p_hex", "p_figures", "p_close", "features", "lit", "value", "target", "known"])


def make_battles(batch: int, pieces: int, hexes: int) -> Battles:
    """No battle known: the position -2 in every hex field (no piece stands there)."""
    return Battles(np.full((batch, pieces), -2, np.int16), np.zeros((batch, pieces), np.int8),
                   np.zeros((batch, pieces), np.bool_), np.zeros((batch, hexes), np.uint8),
                   np.zeros((batch, hexes), np.bool_), np.zeros((batch, pieces), np.float64),
                   np.full((batch, pieces), -1, np.int64), np.zeros((batch, pieces), np.bool_))


@njit(cache=True)
def scoring_faces(T, die, target_kind, distance):
    """The faces of ``die`` that score on a target of ``target_kind`` at ``distance``."""
    p = 0
    for f in range(6):
        s = T.faces[die, f]
        if T.special_range[s] > 0:
            if distance <= T.special_range[s]:
                p += 1
        elif T.scores[target_kind, s]:
            p += 1
    return p


@njit(cache=True)
def face_table(T, D):
    """``hits[die, kind, distance]``: ``scoring_faces`` for distances 0 .. D-1."""
    out = np.zeros((4, T.scores.shape[0], D), np.int64)
    for die in range(4):
        for k in range(T.scores.shape[0]):
            for d in range(D):
                out[die, k, d] = scoring_faces(T, die, k, d)
    return out


@njit(cache=True)
def table_hits(R, counts, target_kind, distance):
    """Hits a throw of ``counts`` dice is expected to score on a target of ``target_kind`` at
    ``distance`` (module docstring), from the face table."""
    total = 0.0
    for die in range(4):
        if counts[die] == 0:
            continue
        total += counts[die] * R.hits[die, target_kind, distance] / 6.0
    return total


@njit(cache=True)
def objective_value(T, side, h):
    v = 0.0
    for o in range(T.obj_hex.shape[0]):
        if T.obj_hex[o] == h and (T.obj_for[o] == side or T.obj_for[o] == BOTH):
            v += T.obj_points[o]
    return v


@njit(cache=True)
def has_objectives(T, side):
    """The side scores some objective (an attacker); a side that scores none defends."""
    for o in range(T.obj_hex.shape[0]):
        if T.obj_for[o] == side or T.obj_for[o] == BOTH:
            return True
    return False


@njit(cache=True)
def _fill_tables(T, reach, attacks, objective):
    """``RuleTables``' reach, attacks and objective, filled in place."""
    for c in range(T.c_dice.shape[0]):
        for d in range(1, T.c_dice.shape[1] + 1):
            n = 0
            for die in range(4):
                n += T.c_dice[c, d - 1, die]
            if n > 0:
                reach[c] = d
    for side in range(2):
        attacks[side] = has_objectives(T, side)
        for h in range(T.nbr.shape[0]):
            objective[side, h] = objective_value(T, side, h)


def make_rule_tables(T) -> RuleTables:
    """The rule's tables of a core's tables ``T`` (see ``RuleTables``)."""
    H = T.nbr.shape[0]
    reach = np.zeros(T.c_dice.shape[0], np.int64)
    attacks = np.zeros(2, np.bool_)
    objective = np.zeros((2, H), np.float64)
    _fill_tables(T, reach, attacks, objective)
    return RuleTables(face_table(T, int(np.max(T.dist)) + 1), reach, attacks, objective)


_TABLES: dict[int, tuple[object, RuleTables]] = {}  # id(tables) -> (tables, rule tables)


def rule_tables(core) -> RuleTables:
    """Computed once per core's tables (kept with them: a freed core's id may be reused)."""
    cached = _TABLES.get(id(core.tables))
    if cached is None or cached[0] is not core.tables:
        cached = _TABLES[id(core.tables)] = (core.tables, make_rule_tables(core.tables))
    return cached[1]


@njit(cache=True)
def enemy_hexes(T, S, g, unit_at, targets, nt):
    """``targets[s, :nt[s]]``: the hexes holding a piece of side s's enemy (a commander or sniper
    with a unit of his side in his hex not listed again), in no order.  Only these hold a target for
    s (``battle.defender_in``), and its nearest enemy stands in one."""
    nt[0] = 0
    nt[1] = 0
    for p in range(T.p_side.shape[0]):
        h = S.p_hex[g, p]
        if h < 0:
            continue
        s = T.p_side[p]
        if is_leader(T, p) and unit_at[h] >= 0 and T.p_side[unit_at[h]] == s:
            continue
        e = 1 - s
        targets[e, nt[e]] = h
        nt[e] += 1


@njit(cache=True)
def battle_value(T, R, S, g, a, h, unit_at, leader_at, counts):
    """How good a battle by piece a at hex h is: the expected hits on the piece there, a kill that
    destroys it counting double; -1 where a cannot battle it."""
    if not may_target(T, S, g, a, h, unit_at, leader_at, counts):
        return -1.0
    # may_target's last test but sight was battle.battle_dice(T, S, g, a, h, counts): its dice
    e = unit_at[h] if unit_at[h] >= 0 else leader_at[h]
    hits = table_hits(R, counts, T.c_target[T.p_card[e]], T.dist[S.p_hex[g, a], h])
    if hits >= S.p_figures[g, e]:
        hits *= 2.0
    return hits


@njit(cache=True)
def best_battle(T, R, S, g, a, unit_at, leader_at, counts, targets, nt):
    """(value, hex) of piece a's best battle, the first hex in board order among equals (a scan of
    the board's hexes); (-1, -1) where it has none.  Only the enemy's hexes within its card's reach
    can be targets."""
    best, best_h = -1.0, -1
    side = T.p_side[a]
    ha = S.p_hex[g, a]
    reach = R.reach[T.p_card[a]]
    for i in range(nt[side]):
        h = targets[side, i]
        if T.dist[ha, h] > reach:
            continue
        v = battle_value(T, R, S, g, a, h, unit_at, leader_at, counts)
        if v > best or (v == best and h < best_h):
            best, best_h = v, h
    return best, best_h


@njit(cache=True)
def same_position(T, S, g, M):
    """Game g stands as it stood when M's battles were worked out: the pieces' hexes, figures and
    close combats, the obstacles and (night games) the lit hexes, which are all that
    ``best_battle`` reads of the state.  Where not, M takes this position and forgets them."""
    same = True
    for p in range(T.p_side.shape[0]):
        if S.p_hex[g, p] != M.p_hex[g, p] or S.p_figures[g, p] != M.p_figures[g, p] \
                or S.p_close[g, p] != M.p_close[g, p]:
            same = False
            break
    if same:
        for h in range(T.nbr.shape[0]):
            if S.features[g, h] != M.features[g, h] or (T.night and S.lit[g, h] != M.lit[g, h]):
                same = False
                break
    if not same:
        for p in range(T.p_side.shape[0]):
            M.p_hex[g, p] = S.p_hex[g, p]
            M.p_figures[g, p] = S.p_figures[g, p]
            M.p_close[g, p] = S.p_close[g, p]
            M.known[g, p] = False
        for h in range(T.nbr.shape[0]):
            M.features[g, h] = S.features[g, h]
            M.lit[g, h] = S.lit[g, h]
    return same


@njit(cache=True)
def known_battle(T, R, S, g, a, unit_at, leader_at, counts, targets, nt, M):
    """``best_battle`` of piece a where it stands, worked out once a position (``same_position``)."""
    if not M.known[g, a]:
        v, h = best_battle(T, R, S, g, a, unit_at, leader_at, counts, targets, nt)
        M.value[g, a] = v
        M.target[g, a] = h
        M.known[g, a] = True
    return M.value[g, a], M.target[g, a]


@njit(cache=True)
def nearest_enemy(T, side, h, targets, nt):
    best = FAR
    for i in range(nt[side]):
        best = min(best, T.dist[h, targets[side, i]])
    return best


@njit(cache=True)
def hex_score(T, R, S, g, p, h, unit_at, leader_at, counts, targets, nt):
    """The worth of piece p standing at h this turn."""
    old = S.p_hex[g, p]
    side = T.p_side[p]
    S.p_hex[g, p] = h
    unit_at[old] = -1
    if not is_leader(T, p):
        unit_at[h] = p
    score = 0.0
    defender = not R.attacks[side]
    if not is_leader(T, p):
        # a battle it may not fight from h (it entered a "stop & do not battle" hex) is no worth
        if not (T.no_battle[h] and h != old):
            fire, _ = best_battle(T, R, S, g, p, unit_at, leader_at, counts, targets, nt)
            if fire > 0:
                score += 2.0 * fire
        # cover: what an enemy infantry unit would lose for attacking here; a side with no
        # objective of its own to take holds its cover rather than closing in
        score += (1.5 if defender else 0.3) * hex_attacker_less(T, S, g, h, C_INFANTRY)
    score += 3.0 * R.objective[side, h]
    score -= (0.05 if defender else 0.25) * nearest_enemy(T, side, h, targets, nt)
    S.p_hex[g, p] = old
    if not is_leader(T, p):
        unit_at[h] = -1
        unit_at[old] = p
    return score


@njit(cache=True)
def piece_worth(T, R, S, g, p, unit_at, leader_at, counts, targets, nt, M):
    """How much ordering piece p is worth: a battle in reach, else closing on the enemy."""
    if is_commander(T, p):
        return 0.1
    fire, _ = known_battle(T, R, S, g, p, unit_at, leader_at, counts, targets, nt, M)
    if fire > 0:
        return 10.0 + fire
    return 5.0 - 0.1 * nearest_enemy(T, T.p_side[p], S.p_hex[g, p], targets, nt)


@njit(cache=True)
def decide(T, R, S, g, player, hold, M, unit_at, leader_at, counts, targets, nt, worth, known):
    """Game g's decision for ``player``; M: the battles known (``Battles``); the arrays after it are
    scratch of the batch's call."""
    m = S.legal_action_mask[g]
    H = T.nbr.shape[0]
    P0 = H + act.PIECE_0
    ph = S.phase[g]
    side = player
    if ph == P_BREAKTHROUGH and hold:
        return H + act.NO                      # "hold": it keeps its hex ("Forcing a breakthrough")
    if ph == P_FIRST or ph == P_FOLLOW or ph == P_BREAKTHROUGH or ph == P_SECOND:
        return H + act.YES
    if ph == P_FORM_SELECT:
        return H + act.DONE                    # it forms no combat command
    if ph == P_AIR_PLAY or ph == P_AIR_DEFEND:
        return H + act.CARD_0 if m[H + act.CARD_0] else H + act.NO   # air support whenever it can
    if ph == P_PICK_AIR:
        return H + act.YES
    if ph == P_ADJUST or ph == P_DISMOUNT:
        return H + act.YES                     # adjust the fire; dismount to battle
    if ph == P_STAND:
        return H + act.NO
    if ph == P_HIT_PART:
        # the attacker hits the personnel; the defender gives the vehicle
        return H + (act.YES if T.p_side[S.target[g]] == side else act.NO)
    if ph == P_HIT_PIECE:
        e = S.target[g]
        o = second_piece(T, S, g, e)
        return P0 + (e if is_leader(T, o) else o)
    if ph == P_CONTROL:
        for u in range(T.p_side.shape[0]):
            if m[P0 + u]:
                return P0 + u
        return H + act.NO
    if ph == P_MOVE_SELECT:
        for p in range(T.p_side.shape[0]):
            if m[P0 + p]:
                return P0 + p
        return H + act.DONE
    occupancy(T, S, g, unit_at, leader_at)
    enemy_hexes(T, S, g, unit_at, targets, nt)
    if ph == P_CARD or ph == P_ORDER or ph == P_BATTLE_SELECT or ph == P_BATTLE_TARGET:
        same_position(T, S, g, M)              # the battles worked out before, while they hold
    if ph == P_AIR_PLACE:
        # its own planes near the enemy units, the defender's near the attacking planes
        best, best_h = FAR + 1, -1
        mine = S.pl_side[g, S.air_sel[g]]
        for h in range(H):
            if not m[h]:
                continue
            d = FAR
            if mine == S.active[g]:
                d = nearest_enemy(T, mine, h, targets, nt)
            else:
                for q in range(S.pl_state.shape[1]):
                    if S.pl_side[g, q] != mine and S.pl_hex[g, q] >= 0:
                        d = min(d, T.dist[h, S.pl_hex[g, q]])
            if d < best:
                best, best_h = d, h
        return best_h
    if ph == P_CARD or ph == P_DISCARD:
        known[:] = False                       # each piece's worth, once for the whole hand
        best, best_a = -1.0e9, -1
        for k in range(hand_size(S, g, side)):
            a = H + act.CARD_0 + k
            if not m[a]:
                continue
            c = hand_card(S, g, side, k)
            v = 0.0
            if ph == P_CARD:
                n = 0
                total = 0.0
                for p in range(T.p_side.shape[0]):
                    if orderable(T, S, g, p, c):
                        n += 1
                        if not known[p]:
                            worth[p] = piece_worth(T, R, S, g, p, unit_at, leader_at, counts, targets, nt, M)
                            known[p] = True
                        total += max(0.0, worth[p])
                v = min(n, T.card_order[c]) * 10.0 + total / max(n, 1)
            else:
                v = 100.0 if T.card_order[c] == 0 else -T.card_order[c]
            if v > best:
                best, best_a = v, a
        return best_a
    if ph == P_ORDER:
        best, best_a = -1.0e9, H + act.DONE
        for p in range(T.p_side.shape[0]):
            if m[P0 + p]:
                v = piece_worth(T, R, S, g, p, unit_at, leader_at, counts, targets, nt, M)
                if v > best:
                    best, best_a = v, P0 + p
        return best_a
    if ph == P_MOVE_DEST:
        p = S.selected[g]
        here = S.p_hex[g, p]
        tr = T.c_transport[T.p_card[p]]
        if m[H + act.MOUNT] and (tr == MOTORIZED or tr == MECHANIZED):
            far = nearest_enemy(T, side, here, targets, nt) > 3
            if far != S.p_mounted[g, p]:
                return H + act.MOUNT
        best, best_h = -1.0e9, here
        for h in range(H):
            if m[h]:
                v = hex_score(T, R, S, g, p, h, unit_at, leader_at, counts, targets, nt)
                if v > best + 1e-9:
                    best, best_h = v, h
        return best_h
    if ph == P_BATTLE_SELECT:
        best, best_a = 0.0, H + act.DONE
        for p in range(T.p_side.shape[0]):
            if m[P0 + p]:
                v, _ = known_battle(T, R, S, g, p, unit_at, leader_at, counts, targets, nt, M)
                if v > best:
                    best, best_a = v, P0 + p
        return best_a
    if ph == P_BATTLE_TARGET:
        a = S.selected[g]
        v, h = known_battle(T, R, S, g, a, unit_at, leader_at, counts, targets, nt, M)
        return h if h >= 0 and m[h] else H + act.NO
    if ph == P_RETREAT:
        p = S.rt_piece[g]
        first = -1
        for h in range(H):
            if m[h]:
                ld = leader_at[h]
                if ld >= 0 and is_commander(T, ld) and T.p_side[ld] == T.p_side[p]:
                    return h
                if first < 0:
                    first = h
        return first
    for a in range(m.shape[0]):
        if m[a]:
            return a
    return 0


@njit(cache=True)
def decide_batch(T, R, S, player, out, hold, M):
    """``out[g]``: the decision of every game g where ``player`` decides, 0 elsewhere; M: the
    battles known (``Battles``), brought up to date.  The scoring moves the piece being placed
    about in ``S.p_hex`` and puts it back."""
    H, U = T.nbr.shape[0], T.p_side.shape[0]
    unit_at, leader_at = np.full(H, -1, np.int64), np.full(H, -1, np.int64)
    counts = np.zeros(4, np.int64)
    targets, nt = np.zeros((2, U), np.int64), np.zeros(2, np.int64)
    worth, known = np.zeros(U, np.float64), np.zeros(U, np.bool_)
    for g in range(S.phase.shape[0]):
        if S.terminated[g] or S.truncated[g] or S.current_player[g] != player:
            out[g] = 0
            continue
        out[g] = decide(T, R, S, g, player, hold, M, unit_at, leader_at, counts, targets, nt, worth, known)


class WorldAtWarRuleAgent:
    """The greedy player above, for whichever side it is seated on.  With ``hold`` (the baseline
    "hold") a unit that emptied the hex it battled never forces the breakthrough into it: the
    default "rule" always does.  Japan in pacific holds to advantage (benchmarks/README.md, "World
    at War learnability": 58.9 and 58.4 % of 2 x 2,048 games against the US rule, where the rule
    wins 49.2 and 49.7 %), the attacking US does not (41.5 % of 200, the rule 54.5 %), so the
    default stays "rule" and "hold" is the Japanese policy's teacher (configs/train/world_at_war_japan.yaml)."""

    def __init__(self, side: str = "", seed: int | None = None, hold: bool = False):
        self.side, self.hold = side, hold
        self._battles: tuple[object, Battles] | None = None   # (the core's tables, the battles known)

    def reset(self, seed: int | None = None) -> None:
        return None

    def battles(self, core, batch: int) -> Battles:
        """The battles known of this core's games (``Battles``: each game's are kept with the position
        they were worked out on, so any state may come next); new ones for a new core or batch size."""
        kept = self._battles
        if kept is None or kept[0] is not core.tables or kept[1].value.shape[0] != batch:
            kept = self._battles = (core.tables, make_battles(batch, core.tables.p_side.shape[0],
                                                              core.tables.nbr.shape[0]))
        return kept[1]

    def act(self, core, state, player: int) -> np.ndarray:
        # the scoring moves pieces about and puts them back: on a copy of the hexes, never the caller's
        work = dict(vars(state))
        work["p_hex"] = state.p_hex.copy()
        out = np.zeros(state.batch_size, dtype=np.int64)
        decide_batch(core.tables, rule_tables(core), StateArg.of(work), int(player), out, self.hold,
                     self.battles(core, state.batch_size))
        return out

    def __repr__(self) -> str:
        return f"WorldAtWarRuleAgent(side={self.side!r}, hold={self.hold})"


def _factory(side: str, hold: bool):
    def make(**kwargs) -> WorldAtWarRuleAgent:
        return WorldAtWarRuleAgent(side, **{k: v for k, v in kwargs.items() if k == "seed"}, hold=hold)
    return make


# the scenarios' sides (configs/world_at_war/scenarios): one player plays any of them
for _side in ("us", "japan", "germany", "ussr", "uk"):
    baselines.register("world_at_war", _side)(_factory(_side, hold=False))
    baselines.register("world_at_war", _side, "hold")(_factory(_side, hold=True))

__all__ = ["WorldAtWarRuleAgent", "RuleTables", "decide_batch", "rule_tables"]
