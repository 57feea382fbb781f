"""APPENDIX 2: AIR SUPPORT & AA: the air force and air support decks, playing an air support card,
deploying the planes, AA fire, dogfights, free shots, the ground attack, the cards given up for
planes lost, the victory point for an air attack nobody can counter, and "pick an air support".

The book's sequence, after the attacker "played a standard/special command card and ordered and
moved all units for this turn":

    1. the attacker may play an air support card (face down), announcing its planes
    2. the defender may play one
    3. the attacker places his first plane, the defender his, and so on
    air combat: 1. the defender's AA fires first at attacking planes within 2 hexes
                2. the side with more fighters (the attacker on a tie) starts a dogfight with a
                   plane of its choice (1 hex); a target that survives returns fire; then the other
                   side starts the next; each plane fights once; left-over planes get a free shot
                3. each attacking plane left attacks a ground target: 3 dice (FB), 1 (F)
    every plane destroyed costs its owner an air force card

Interpretations (README): a side deploys as many of the card's planes as its air force cards of
that type allow (the book's "or less if he wishes" is not offered); planes are placed one a hex,
each side's fighter-bombers first; the ground target is an enemy unit within the plane's 1 hex
that could battle one of the attacker's ordered units where they stand ("possibly threatening the
attacking units ... within range"); the defender's planes only fight planes; the victory point for
"an air attack he cannot counter because of 0 aircraft in his pool" is scored once a game.
"""

from __future__ import annotations

import numpy as np

from wargym.cards import deal, draw_card, move_card, pile_size, shuffle_pile
from wargym.events import emit
from wargym.jit import njit
from wargym.rng import roll
from wargym.world_at_war import dice
from wargym.world_at_war import events as ev
from wargym.world_at_war.board import is_leader
from wargym.world_at_war.scenario import AF_FIGHTER, AF_FIGHTER_BOMBER, AIR_CARDS, T_INFANTRY
from wargym.world_at_war.state import (
    AFP_LOST, AFP_OUT, AIR_NONE, ASP_OUT, ASP_PLAYED, ASP_USED, PL_DOWN, PL_FLYING, PL_FOUGHT, PL_NONE, PL_WAITING,
)

FIGHTER, FIGHTER_BOMBER = 1, 2   # plane kinds (pl_kind)


# ------------------------------------------------------------------------------------ the decks
@njit(cache=True)
def start_air(T, S, g):
    """Before the first turn each side picks (blind) its air force cards and air support cards; a
    side without an air force (Japan: appendix 2 has no deck for it) has its cards out of play."""
    for c in range(2 * AIR_CARDS):
        s = c // AIR_CARDS
        S.af_pile[g, c] = 2 * s if T.af_pick[s] > 0 else AFP_OUT
        S.as_pile[g, c] = 2 * s if T.as_quota[s] > 0 else ASP_OUT
    _renumber(S.af_pile, S.af_pos, g)
    _renumber(S.as_pile, S.as_pos, g)
    for s in range(2):
        if T.af_pick[s] > 0:
            shuffle_pile(S, S.af_pile, S.af_pos, g, 2 * s)
            deal(S, S.af_pile, S.af_pos, g, 2 * s, 2 * s + 1, T.af_pick[s], -1)
        if T.as_quota[s] > 0:
            shuffle_pile(S, S.as_pile, S.as_pos, g, 2 * s)
            deal(S, S.as_pile, S.as_pos, g, 2 * s, 2 * s + 1, T.as_quota[s], -1)


@njit(cache=True)
def _renumber(pile, pos, g):
    """Places 0..n-1 in every pile, in card order."""
    for p in range(8):
        k = 0
        for c in range(pile.shape[1]):
            if pile[g, c] == p:
                pos[g, c] = k
                k += 1


@njit(cache=True)
def pool(T, S, g, s, kind):
    """Air force cards of ``kind`` in side s's pool (its planes)."""
    n = 0
    for i in range(AIR_CARDS):
        c = s * AIR_CARDS + i
        if S.af_pile[g, c] == 2 * s + 1 and T.af_kind[c] == kind:
            n += 1
    return n


@njit(cache=True)
def aircraft(T, S, g, s):
    return pool(T, S, g, s, AF_FIGHTER) + pool(T, S, g, s, AF_FIGHTER_BOMBER)


@njit(cache=True)
def air_hand(S, g, s, k):
    """The k-th air support card (from the bottom) of side s's hand, -1."""
    for i in range(AIR_CARDS):
        c = s * AIR_CARDS + i
        if S.as_pile[g, c] == 2 * s + 1 and S.as_pos[g, c] == k:
            return c
    return -1


@njit(cache=True)
def air_hand_size(S, g, s):
    return pile_size(S.as_pile, g, 2 * s + 1)


@njit(cache=True)
def may_play(T, S, g, s):
    """Side s has an air support card and a plane to send."""
    return air_hand_size(S, g, s) > 0 and aircraft(T, S, g, s) > 0


@njit(cache=True)
def may_pick_support(T, S, g, s):
    """"Pick an air support": another card from the side's deck while its hand is below the quota."""
    return T.as_quota[s] > 0 and air_hand_size(S, g, s) < T.as_quota[s] and pile_size(S.as_pile, g, 2 * s) > 0


@njit(cache=True)
def pick_support(S, g, s):
    draw_card(S, S.as_pile, S.as_pos, g, 2 * s, 2 * s + 1, -1)


@njit(cache=True)
def lose_plane(T, S, g, p):
    """A plane destroyed: "For each aircraft destroyed, the player gives up an air force card"."""
    S.pl_state[g, p] = PL_DOWN
    s = S.pl_side[g, p]
    emit(S, g, ev.PLANE_LOST, s, S.pl_kind[g, p], S.pl_hex[g, p])
    want = AF_FIGHTER if S.pl_kind[g, p] == FIGHTER else AF_FIGHTER_BOMBER
    for i in range(AIR_CARDS):
        c = s * AIR_CARDS + i
        if S.af_pile[g, c] == 2 * s + 1 and T.af_kind[c] == want:
            move_card(S.af_pile, S.af_pos, g, c, AFP_LOST, True)
            return


# ------------------------------------------------------------------------------------ deployment
@njit(cache=True)
def play_card(T, S, g, s, c):
    """Side s plays air support card c: its planes, as many of each kind as its pool allows."""
    move_card(S.as_pile, S.as_pos, g, c, ASP_PLAYED, True)
    fb = min(T.as_planes[c, 0], pool(T, S, g, s, AF_FIGHTER_BOMBER))
    f = min(T.as_planes[c, 1], pool(T, S, g, s, AF_FIGHTER))
    emit(S, g, ev.AIR_CARD, s, T.as_planes[c, 0], T.as_planes[c, 1], fb, f)
    for kind in range(2):
        n = fb if kind == 0 else f
        for _ in range(n):
            for p in range(S.pl_state.shape[1]):
                if S.pl_state[g, p] == PL_NONE:
                    S.pl_state[g, p] = PL_WAITING
                    S.pl_side[g, p] = s
                    S.pl_kind[g, p] = FIGHTER_BOMBER if kind == 0 else FIGHTER
                    S.pl_hex[g, p] = -1
                    break


@njit(cache=True)
def next_to_place(S, g, attacker):
    """The plane placed next: the attacker's and the defender's in turn, each side in order."""
    placed = np.zeros(2, np.int64)
    waiting = np.zeros(2, np.int64)
    for p in range(S.pl_state.shape[1]):
        if S.pl_state[g, p] == PL_FLYING:
            placed[S.pl_side[g, p]] += 1
        elif S.pl_state[g, p] == PL_WAITING:
            waiting[S.pl_side[g, p]] += 1
    s = attacker
    if waiting[attacker] == 0 or (waiting[1 - attacker] > 0 and placed[attacker] > placed[1 - attacker]):
        s = 1 - attacker
    for p in range(S.pl_state.shape[1]):
        if S.pl_state[g, p] == PL_WAITING and S.pl_side[g, p] == s:
            return p
    return -1


@njit(cache=True)
def plane_at(S, g, h):
    for p in range(S.pl_state.shape[1]):
        if S.pl_hex[g, p] == h and (S.pl_state[g, p] == PL_FLYING or S.pl_state[g, p] == PL_FOUGHT):
            return p
    return -1


@njit(cache=True)
def alive(S, g, p):
    return S.pl_state[g, p] == PL_FLYING or S.pl_state[g, p] == PL_FOUGHT


# ------------------------------------------------------------------------------------- combat
@njit(cache=True)
def shoot(T, S, g, target, why, origin):
    """One air support & AA die at a plane, from hex ``origin`` (``why``: AA fire, a dogfight, return
    fire or a free shot, events.PURPOSES): "hit on F & FB" or "hit on FB" (a fighter-bomber) hits;
    the plane's saving throw is a flag.  Returns whether it is destroyed."""
    face = T.air_faces[roll(S, g, 6) - 1]
    hit = face == dice.AIR_HIT_ANY or (face == dice.AIR_HIT_FB and S.pl_kind[g, target] == FIGHTER_BOMBER)
    if not hit:
        emit(S, g, ev.AIR_FIRE, why, origin, S.pl_hex[g, target], S.pl_kind[g, target], face, -1)
        return False
    save = T.air_faces[roll(S, g, 6) - 1]
    emit(S, g, ev.AIR_FIRE, why, origin, S.pl_hex[g, target], S.pl_kind[g, target], face, save)
    if save == dice.AIR_FLAG:
        return False
    lose_plane(T, S, g, target)
    return True


@njit(cache=True)
def aa_targets(T, S, g, a, out):
    """Attacking planes within AA unit a's range (2 hexes): ``out[h]``; returns how many."""
    n = 0
    attacker = 1 - T.p_side[a]
    for p in range(S.pl_state.shape[1]):
        if alive(S, g, p) and S.pl_side[g, p] == attacker and T.dist[S.p_hex[g, a], S.pl_hex[g, p]] <= T.aa_range:
            out[S.pl_hex[g, p]] = True
            n += 1
    return n


@njit(cache=True)
def next_aa(T, S, g, after):
    """The defender's next AA unit (piece number above ``after``) with an attacking plane in range."""
    H = T.nbr.shape[0]
    out = np.zeros(H, np.bool_)
    defender = 1 - S.active[g]
    for a in range(after + 1, T.p_side.shape[0]):
        if T.p_side[a] == defender and S.p_hex[g, a] >= 0 and T.c_air_dice[T.p_card[a]] > 0:
            out[:] = False
            if aa_targets(T, S, g, a, out) > 0:
                return a
    return -1


@njit(cache=True)
def dogfight_planes(T, S, g, s, free, out):
    """Side s's planes that may start a dogfight (``out[h]``): in the air, not yet in combat, with an
    enemy plane within 1 hex that has not fought either (a free shot: any enemy plane)."""
    n = 0
    for p in range(S.pl_state.shape[1]):
        if S.pl_state[g, p] != PL_FLYING or S.pl_side[g, p] != s:
            continue
        for q in range(S.pl_state.shape[1]):
            ok = S.pl_state[g, q] == PL_FLYING or (free and S.pl_state[g, q] == PL_FOUGHT)
            if ok and S.pl_side[g, q] != s and T.dist[S.pl_hex[g, p], S.pl_hex[g, q]] <= T.aircraft_range:
                out[S.pl_hex[g, p]] = True
                n += 1
                break
    return n


@njit(cache=True)
def dogfight_targets(T, S, g, p, free, out):
    n = 0
    for q in range(S.pl_state.shape[1]):
        ok = S.pl_state[g, q] == PL_FLYING or (free and S.pl_state[g, q] == PL_FOUGHT)
        if ok and S.pl_side[g, q] != S.pl_side[g, p] and T.dist[S.pl_hex[g, p], S.pl_hex[g, q]] <= T.aircraft_range:
            out[S.pl_hex[g, q]] = True
            n += 1
    return n


@njit(cache=True)
def fighters(S, g, s):
    n = 0
    for p in range(S.pl_state.shape[1]):
        if alive(S, g, p) and S.pl_side[g, p] == s and S.pl_kind[g, p] == FIGHTER:
            n += 1
    return n


@njit(cache=True)
def threatens(T, S, g, e, unit_at):
    """Enemy unit e could battle one of the attacker's ordered units where they stand."""
    he = S.p_hex[g, e]
    for a in range(T.p_side.shape[0]):
        if T.p_side[a] == T.p_side[e] or S.p_hex[g, a] < 0 or not S.p_ordered[g, a]:
            continue
        d = T.dist[he, S.p_hex[g, a]]
        if 1 <= d <= T.c_dice.shape[1]:
            for die in range(4):
                if T.c_dice[T.p_card[e], d - 1, die] > 0:
                    return True
    return False


@njit(cache=True)
def ground_targets(T, S, g, p, unit_at, out):
    """Hexes of the enemy units attacking plane p may attack: within its 1 hex, threatening the
    attacker's ordered units."""
    n = 0
    hp = S.pl_hex[g, p]
    for e in range(T.p_side.shape[0]):
        if T.p_side[e] == S.pl_side[g, p] or S.p_hex[g, e] < 0 or is_leader(T, e):
            continue
        if T.dist[hp, S.p_hex[g, e]] <= T.aircraft_range and threatens(T, S, g, e, unit_at):
            out[S.p_hex[g, e]] = True
            n += 1
    return n


@njit(cache=True)
def next_bomber(S, g, attacker):
    """The attacker's next plane to attack the ground (in the air, its ground attack not made)."""
    for p in range(S.pl_state.shape[1]):
        if alive(S, g, p) and S.pl_side[g, p] == attacker:
            return p
    return -1


@njit(cache=True)
def ground_attack(T, S, g, p, e):
    """Plane p's dice on unit e (3 for a fighter-bomber, 1 for a fighter): returns (kills, flags)."""
    n = 3 if S.pl_kind[g, p] == FIGHTER_BOMBER else 1
    emit(S, g, ev.GROUND_ATTACK, S.pl_kind[g, p], S.pl_hex[g, p], e, n)
    faces = np.empty(3, np.int64)
    for i in range(n):
        faces[i] = T.air_faces[roll(S, g, 6) - 1]
        emit(S, g, ev.AIR_DIE, faces[i])
    infantry = T.c_target[T.p_card[e]] == T_INFANTRY
    return dice.ground_attack(faces, n, infantry)


@njit(cache=True)
def end_air(S, g):
    """The planes fly home; the air support cards played are used up."""
    for c in range(S.as_pile.shape[1]):
        if S.as_pile[g, c] == ASP_PLAYED:
            move_card(S.as_pile, S.as_pos, g, c, ASP_USED, True)
    for p in range(S.pl_state.shape[1]):
        S.pl_state[g, p] = PL_NONE
        S.pl_hex[g, p] = -1
        S.pl_kind[g, p] = 0
        S.pl_side[g, p] = 0
    S.air_stage[g] = AIR_NONE
    S.air_sel[g] = -1
    S.air_aa[g] = -1
    S.air_free[g] = False


__all__ = ["start_air", "may_play", "play_card", "next_to_place", "plane_at", "shoot", "aa_targets", "next_aa",
           "dogfight_planes", "dogfight_targets", "fighters", "ground_targets", "next_bomber", "ground_attack",
           "end_air", "lose_plane", "may_pick_support", "pick_support", "aircraft", "air_hand", "air_hand_size"]
