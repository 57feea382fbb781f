"""GAME TURN as a machine of atomic decisions, and the hooks of the step kernel.

    turn of the active side:
      1. play a command card            command card: play (or discard one when none can order:
                                        "This ends your turn")
      2. order units                    order: piece ... DONE (the card's count; a commander's
                                        two units count as one)
      3. move the ordered units         move: piece -> move: destination (-> the commander goes
                                        with his unit?) (-> commander: second unit to control)
      4. battle                         battle: piece -> battle: target hex -> defender: voluntary
                                        retreat or stand -> the throw -> (who takes the hits) ->
                                        casualties, defence die, flags -> retreat: hex ... ->
                                        breakthrough (-> a tank's second battle)
      5. draw a new command card        the played card discarded, one drawn; the other side's turn

Who decides: the active side, but for the defender's choices (voluntary retreat, which piece or
part takes the hits where the book gives it to him, retreat hexes); the D6 winner chooses who goes
first where the scenario says "roll".  With ``decisions="major"`` (``T.major_only``) the minor
choices are made by documented defaults (``minor_default``): stand, hits on the unit (not an
attached sniper), the personnel of a motorized unit and the vehicle of a mechanized one, the first
retreat hex, the commander goes with his unit, no second unit taken under control.

Victory ("Objective of the game"): 1 point for each enemy unit or commander destroyed, counted as
it happens, plus the points of the objectives a side's units hold at the end of its turn; the
first side to reach its quota wins (checked after each battle and at the end of each turn).

The event log (events.py): each rule reports what it does as it does it (``emit``: one test of a
flag when the log is off), the dice one by one, with the book's section.
"""

from __future__ import annotations

import numpy as np

from wargym.cards import deal, draw_card, move_card, new_deck, pile_size
from wargym.events import emit
from wargym.jit import njit
from wargym.kernel import bind_driver, only_action
from wargym.rng import roll
from wargym.world_at_war import actions as act, dice
from wargym.world_at_war import air, commands
from wargym.world_at_war import events as ev
from wargym.world_at_war.battle import (
    any_target, battle_dice, hit_target_kind, may_battle, may_target, spotter, supporting_commander,
)
from wargym.world_at_war.board import (
    UNLIMITED, cc_commander, cc_speed, controlled_count, has_feature, hex_collapse, hex_ignore_flags, hex_no_artillery_retreat, is_commander,
    is_gun, is_leader, maps, may_enter, occupancy, reach, retreat_hexes, sees, update_control,
)
from wargym.world_at_war.scenario import (
    ACTIONS, BOTH, C_ARTILLERY, C_VEHICLE, COLLAPSE_BUNKER, FEATURES, K_INFANTRY, K_SNIPER, K_SP_GUN, K_TANK,
    MECHANIZED, MOTORIZED, NO_COLLAPSE, ROLL, TRACKED, WHITE_DIE, K_AA, K_ANTI_TANK, K_ARTILLERY,
)

# appendix 1, advanced rules: the unit strength below which the attacker may hit the vehicle
# figures, with two of them left and with one (motorized, mechanized)
ADVANCED_FIRST = (6, 5)
ADVANCED_SECOND = (4, 3)
from wargym.world_at_war.state import (
    P_BATTLE_SELECT, P_BATTLE_TARGET, P_BREAKTHROUGH, P_CARD, P_CONTROL, P_DISCARD, P_FIRST, P_FOLLOW, P_HIT_PART,
    P_HIT_PIECE, P_MOVE_DEST, P_MOVE_SELECT, P_ORDER, P_OVER, P_RETREAT, P_SECOND, P_STAND, P_ADJUST, P_DISMOUNT,
    P_FORM_SELECT, P_FORM_UNIT, P_AIR_PLAY, P_AIR_DEFEND, P_AIR_PLACE, P_AA_TARGET, P_DOG_PLANE, P_DOG_TARGET,
    P_AIR_TARGET, P_PICK_AIR, P_FLARE, AIR_NONE, AIR_PLACE, AIR_AA, AIR_DOGFIGHT, AIR_GROUND, PL_FLYING, PL_FOUGHT, PL_DONE,
    PILE_DECK, PILE_DISCARD,
    PILE_HAND, PILE_PLAYED, THROW_MAX,
)

A_STANDARD = ACTIONS.index("standard")
A_AIR = ACTIONS.index("air_support")
A_ANY, A_ARTILLERY, A_ARMOUR, A_INFANTRY, A_COMMAND = (ACTIONS.index(n) for n in ("any_colour", "artillery", "armour",
                                                                                   "infantry", "combat_command"))
F_SANDBAGS, F_WIRE, F_MINES, F_BUNKER = (FEATURES.index(n) for n in ("sandbags", "barbed_wire", "minefield", "bunker"))
SAVES_MAX = 16


# ----------------------------------------------------------------------------------- cards
@njit(cache=True)
def hand_card(S, g, side, k):
    """The k-th card (from the bottom) of ``side``'s hand, -1."""
    for c in range(S.card_pile.shape[1]):
        if S.card_pile[g, c] == PILE_HAND + side and S.card_pos[g, c] == k:
            return c
    return -1


@njit(cache=True)
def orderable(T, S, g, p, c):
    """Card c may order piece p of the active side (2. Order units; the special cards by kind)."""
    if S.p_hex[g, p] < 0 or T.p_side[p] != S.active[g] or S.p_ordered[g, p]:
        return False
    action = T.card_action[c]
    kind = T.c_kind[T.p_card[p]]
    cc = cc_commander(T, S, g, p)
    if action == A_COMMAND:
        return cc >= 0                   # one combat command: its commander or a member in his ZOC
    if cc >= 0 and (action == A_STANDARD or action == A_ANY):
        if action == A_ANY:
            return True
        for v in range(T.p_side.shape[0]):   # a standard card of a member's colour orders the command
            if S.p_cc[g, v] == cc and cc_commander(T, S, g, v) == cc and T.p_colour[v] == T.card_colour[c]:
                return True
        if is_commander(T, p):
            return False
    if is_commander(T, p):
        # "activate N <colour> units or individual (= freestanding) commanders"
        return action == A_STANDARD or action == A_ANY
    if action == A_ANY:
        return True
    if action == A_ARTILLERY:
        return kind == K_ARTILLERY or kind == K_ANTI_TANK or kind == K_AA
    if action == A_ARMOUR:
        return kind == K_TANK or kind == K_SP_GUN
    if action == A_INFANTRY:
        return kind == K_INFANTRY or kind == K_SNIPER
    if action != A_STANDARD:
        return False
    colour = T.card_colour[c]
    if T.p_colour[p] < 0 or T.p_colour[p] == colour:   # snipers carry no colour: any standard card
        return True
    # a commander's two units count as one: ordered together when one of them has the colour
    leader = S.p_leader[g, p]
    if leader >= 0 and controlled_count(T, S, g, leader) == 2:
        for v in range(T.p_side.shape[0]):
            if v != p and S.p_leader[g, v] == leader and S.p_hex[g, v] >= 0 and T.p_colour[v] == colour:
                return True
    return False


@njit(cache=True)
def card_playable(T, S, g, c):
    if T.card_order[c] == 0:
        return False
    for p in range(T.p_side.shape[0]):
        if orderable(T, S, g, p, c):
            return True
    return False


@njit(cache=True)
def hand_orders(T, S, side, out):
    """out[g, k]: how many of ``side``'s pieces the k-th card of its hand could order now
    (``orderable``: 2. Order units), at most the card's count; 0 for an empty slot and in the games
    where ``side`` is not the active side (it orders nothing then)."""
    for g in range(out.shape[0]):
        for k in range(out.shape[1]):
            out[g, k] = 0
        if S.active[g] != side or S.terminated[g] or S.truncated[g]:
            continue
        for c in range(S.card_pile.shape[1]):
            k = S.card_pos[g, c]
            if S.card_pile[g, c] != PILE_HAND + side or k >= out.shape[1]:
                continue
            n = 0
            for p in range(T.p_side.shape[0]):
                if orderable(T, S, g, p, c):
                    n += 1
            out[g, k] = min(n, T.card_order[c])


@njit(cache=True)
def hand_size(S, g, side):
    n = 0
    for c in range(S.card_pile.shape[1]):
        if S.card_pile[g, c] == PILE_HAND + side:
            n += 1
    return n


@njit(cache=True)
def any_playable(T, S, g):
    side = S.active[g]
    for k in range(hand_size(S, g, side)):
        if card_playable(T, S, g, hand_card(S, g, side, k)):
            return True
    return False


# ---------------------------------------------------------------------------- turn and victory
@njit(cache=True)
def scores(T, S, g, out):
    """Victory points of each side: units and commanders destroyed, and the objectives its units
    hold now."""
    out[0] = S.vp[g, 0]
    out[1] = S.vp[g, 1]
    for o in range(T.obj_hex.shape[0]):
        h = T.obj_hex[o]
        for p in range(T.p_side.shape[0]):
            if S.p_hex[g, p] == h and not is_leader(T, p):
                s = T.p_side[p]
                if T.obj_for[o] == s or T.obj_for[o] == BOTH:
                    out[s] += T.obj_points[o]


@njit(cache=True)
def finish(S, g, winner):
    S.winner[g] = winner
    S.terminated[g] = True
    S.rewards[g, winner] = 1.0
    S.rewards[g, 1 - winner] = -1.0
    S.phase[g] = P_OVER


@njit(cache=True)
def check_victory(T, S, g, with_objectives):
    """The first side to reach its quota wins (the active side first when both do)."""
    out = np.zeros(2, np.int64)
    if with_objectives:
        scores(T, S, g, out)
    else:
        out[0], out[1] = S.vp[g, 0], S.vp[g, 1]
    a = np.int64(S.active[g])
    for k in range(2):
        s = a if k == 0 else 1 - a
        if out[s] >= T.vp_quota[s]:
            emit(S, g, ev.GAME_OVER, s, out[s], T.vp_quota[s])
            finish(S, g, s)
            return True
    return False


@njit(cache=True)
def start_turn(T, S, g):
    """1. Play a command card: clear last turn's marks; a hand that can order nobody discards."""
    S.p_ordered[g, :] = False
    S.p_cc_move[g, :] = -1
    S.p_moved[g, :] = False
    S.p_battled[g, :] = False
    S.p_no_battle[g, :] = False
    S.p_defended[g, :] = False
    S.p_close[g, :] = False
    S.p_spots[g, :] = -1
    S.form_declined[g, :] = False
    S.lit[g, :] = False
    S.card[g] = -1
    S.order_left[g] = 0
    S.selected[g] = -1
    S.phase[g] = P_CARD if any_playable(T, S, g) else P_DISCARD


@njit(cache=True)
def air_pick_card(T, S, g, side):
    """A "pick an air support" command card in side's hand, -1."""
    for k in range(hand_size(S, g, side)):
        c = hand_card(S, g, side, k)
        if T.card_action[c] == A_AIR:
            return c
    return -1


@njit(cache=True)
def end_turn(T, S, g):
    """The end of one's turn: "Additional air support cards may be obtained by playing a 'pick an
    air support' card at the end of one's turn, should the player have one at hand" (up to the
    quota); then 6. Draw a command card."""
    side = S.active[g]
    if air_pick_card(T, S, g, side) >= 0 and air.may_pick_support(T, S, g, side):
        S.phase[g] = P_PICK_AIR
        return
    finish_turn(T, S, g)


@njit(cache=True)
def draw_command_card(S, g, side, why):
    """A command card from the draw pile into ``side``'s hand (``why``: events.PURPOSES); an empty
    pile is first refilled from the discards, reshuffled (wargym.cards.draw_card)."""
    if S.ev_on[0] and pile_size(S.card_pile, g, PILE_DECK) == 0:
        emit(S, g, ev.RESHUFFLE, pile_size(S.card_pile, g, PILE_DISCARD))
    c = draw_card(S, S.card_pile, S.card_pos, g, PILE_DECK, PILE_HAND + side, PILE_DISCARD)
    if c >= 0:
        emit(S, g, ev.CARD_DRAWN, side, c, why)


@njit(cache=True)
def log_objectives(T, S, g):
    """The event log: the objectives a side's units hold at the end of a turn (``scores``)."""
    for o in range(T.obj_hex.shape[0]):
        h = T.obj_hex[o]
        for p in range(T.p_side.shape[0]):
            if S.p_hex[g, p] == h and not is_leader(T, p) and (T.obj_for[o] == T.p_side[p] or T.obj_for[o] == BOTH):
                emit(S, g, ev.OBJECTIVE, h, T.p_side[p], T.obj_points[o])


@njit(cache=True)
def finish_turn(T, S, g):
    """6. Draw a command card: the played card to the discards, one drawn; then the other side."""
    side = S.active[g]
    if S.card[g] >= 0:
        emit(S, g, ev.CARD_DISCARDED, side, S.card[g])
        move_card(S.card_pile, S.card_pos, g, S.card[g], PILE_DISCARD, True)
        draw_command_card(S, g, side, ev.AFTER_TURN)
        S.card[g] = -1
    if S.ev_on[0]:
        log_objectives(T, S, g)
    if check_victory(T, S, g, True):
        return
    S.active[g] = 1 - side
    S.turn[g] += 1
    start_turn(T, S, g)


@njit(cache=True)
def start_game(T, S, g):
    new_deck(S, S.card_pile, S.card_pos, g, PILE_DECK)
    for side in range(2):
        deal(S, S.card_pile, S.card_pos, g, PILE_DECK, PILE_HAND + side, T.hand[side], PILE_DISCARD)
    unit_at, leader_at = maps(T, S, g)
    update_control(T, S, g, unit_at)
    air.start_air(T, S, g)
    S.form_side[g] = 0   # "At the start of the game the players are allowed to form ... combat Commands"
    S.phase[g] = P_FORM_SELECT


@njit(cache=True)
def begin_play(T, S, g):
    """After the combat commands are formed: who goes first, and the first turn."""
    S.form_side[g] = -1
    if T.first_player == ROLL:
        # "1 D6 is thrown; highest score chooses who goes first"
        while True:
            a, b = roll(S, g, 6), roll(S, g, 6)
            emit(S, g, ev.FIRST_PLAYER, a, b, -1 if a == b else (0 if a > b else 1))
            if a != b:
                break
        S.active[g] = 0 if a > b else 1
        S.phase[g] = P_FIRST
        return
    S.active[g] = T.first_player
    start_turn(T, S, g)


# ----------------------------------------------------------------------------------- moves
@njit(cache=True)
def may_toggle_mount(T, S, g, p):
    """Motorized and mechanized infantry mount (and move) or dismount (and battle) instead of a
    plain move; a unit whose vehicles are gone moves on foot."""
    tr = T.c_transport[T.p_card[p]]
    if tr != MOTORIZED and tr != MECHANIZED:
        return False
    if S.p_mounted[g, p]:
        return not S.p_no_battle[g, p]   # mounted this order: it moves now, it does not dismount again
    return S.p_vehicles[g, p] > 0


@njit(cache=True)
def mine_casualties(T, S, g, p, n):
    """Minefields: ``n`` basic battle dice with saving throws for casualties on piece p (a vehicle
    entering: 1; infantry clearing: 2 a turn; engineers: 1); returns the figures lost."""
    emit(S, g, ev.MINEFIELD, p, S.p_hex[g, p], n)
    symbols = np.empty(n, np.int64)
    for i in range(n):
        symbols[i] = T.faces[WHITE_DIE, roll(S, g, 6) - 1]
        emit(S, g, ev.BATTLE_DIE, WHITE_DIE, symbols[i])
    hits = np.zeros(9, np.int64)
    total, _ = dice.score_throw(T.scores, T.special_range, symbols, n, T.c_target[T.p_card[p]], 1, hits)
    auto = dice.automatic_kills(hits)
    emit(S, g, ev.HITS, p, total, auto, 0)
    saves = np.empty(SAVES_MAX, np.int64)
    for i in range(total):
        saves[i] = T.faces[T.saving_die, roll(S, g, 6) - 1]
    if not T.fastplay:
        log_saves(S, g, ev.SAVING_THROW, ev.FOR_HIT, T.saving_die, saves, total - auto, True)
    dead, _ = dice.kills(total, auto, saves, True, T.fastplay)
    return dead


@njit(cache=True)
def enter_hex(T, S, g, p, h, overrun):
    """Piece p enters hex h: the terrain's effects on it (the sheet's move column) and on the hex's
    obstacles (tracked vehicles destroy wire; sandbags are destroyed when overrun; vehicles roll for
    mines).  Leaving a hex ends the clearing of its minefield and an artillery unit's salvos there."""
    S.clearing[g, S.p_hex[g, p]] = 0
    S.p_aim[g, p] = -1
    S.p_land[g, p] = -1
    S.p_hex[g, p] = h
    if T.no_battle[h]:
        S.p_no_battle[g, p] = True
    vehicle = T.c_class[T.p_card[p]] == C_VEHICLE or S.p_mounted[g, p]
    if has_feature(S, g, h, F_WIRE) and T.c_transport[T.p_card[p]] == TRACKED:
        S.features[g, h] &= ~np.uint8(1 << F_WIRE)
        emit(S, g, ev.OBSTACLE_GONE, h, F_WIRE, ev.TRACKED_OVERRUN)
    if overrun and has_feature(S, g, h, F_SANDBAGS):
        S.features[g, h] &= ~np.uint8(1 << F_SANDBAGS)
        emit(S, g, ev.OBSTACLE_GONE, h, F_SANDBAGS, ev.OVERRUN)
    if vehicle and has_feature(S, g, h, F_MINES):
        dead = mine_casualties(T, S, g, p, 1)
        if dead > 0:
            lose_figures(T, S, g, p, dead, 1 - T.p_side[p])


@njit(cache=True)
def eliminate(T, S, g, p, scorer):
    """The last figure of p is gone: off the map, a victory point for ``scorer``."""
    emit(S, g, ev.DESTROYED, p, S.p_hex[g, p])
    S.p_hex[g, p] = -1
    S.p_figures[g, p] = 0
    S.p_leader[g, p] = -1
    S.p_cc[g, p] = -1
    for u in range(T.p_side.shape[0]):
        if S.p_leader[g, u] == p:
            S.p_leader[g, u] = -1
        if S.p_cc[g, u] == p:
            S.p_cc[g, u] = -1   # a combat command ends with its commander
    if scorer >= 0:
        S.vp[g, scorer] += 1
        emit(S, g, ev.VICTORY_POINT, scorer, S.vp[g, scorer])


@njit(cache=True)
def lose_figures(T, S, g, p, n, scorer):
    left = S.p_figures[g, p] - n
    emit(S, g, ev.LOSS, p, min(n, S.p_figures[g, p]), max(left, 0))
    if left <= 0:
        eliminate(T, S, g, p, scorer)
        S.p_vehicles[g, p] = 0
        S.p_mounted[g, p] = False
    else:
        S.p_figures[g, p] = left
        if T.advanced and S.p_vehicles[g, p] > left:
            S.p_vehicles[g, p] = left   # advanced rules: the vehicles are figures of the unit


# ------------------------------------------------------------------------------------ battle
@njit(cache=True)
def toward(T, h, target):
    """The direction from hex h whose neighbour is nearest ``target`` (the side of h facing it)."""
    best, best_d = 0, 1 << 30
    for d in range(6):
        n = T.nbr[h, d]
        if n >= 0 and T.dist[n, target] < best_d:
            best, best_d = d, T.dist[n, target]
    return best


@njit(cache=True)
def scatter(T, S, g, a, h, guided):
    """The first round of indirect fire at h: blind 1 D8 (7-8 on target), guided 2 D6 (7-12); else
    the neighbour of h on that side (1-6, side 4 facing the gun); -1 off the map."""
    throw = roll(S, g, 6) + roll(S, g, 6) if guided else roll(S, g, 8)
    side = dice.scatter_side(not guided, throw)
    land = h if side == 0 else T.nbr[h, dice.side_direction(toward(T, h, S.p_hex[g, a]), side)]
    emit(S, g, ev.SCATTER, a, h, ev.GUIDED if guided else ev.BLIND, throw, land)
    return land


@njit(cache=True)
def remember_salvo(S, g, a, h, land, guided):
    S.p_aim[g, a] = h
    S.p_land[g, a] = land
    S.p_guided[g, a] = guided


@njit(cache=True)
def may_retreat_voluntarily(T, S, g, e, unit_at, leader_at):
    if is_commander(T, e):
        return False
    if is_gun(T, e) and hex_no_artillery_retreat(T, S, g, S.p_hex[g, e]):
        return False
    free = np.zeros(T.nbr.shape[0], np.bool_)
    retreat_hexes(T, S, g, e, unit_at, leader_at, free)
    return commands.keep_in_zoc_strict(T, S, g, e, free, T.nbr.shape[0]) > 0


@njit(cache=True)
def declare(T, S, g, h):
    """The attacker names hex h.  In sight: it battles h.  Indirect artillery fire: a guided salvo
    after a guided one at the same hex lands on it while the spotter sees it; a blind salvo after
    one at the same hex hits where that one did unless the fire is adjusted (the attacker's
    choice); any other salvo is a first round (``scatter``)."""
    a = S.selected[g]
    unit_at, leader_at = maps(T, S, g)
    S.target_hex[g] = h
    if sees(T, S, g, a, h, unit_at):
        land_on(T, S, g, h, h)
        return
    c = spotter(T, S, g, a, h, unit_at)
    if c >= 0:
        S.p_spots[g, c] = a
        if S.p_aim[g, a] == h and S.p_guided[g, a]:
            land = h
            emit(S, g, ev.SALVO, a, h, land)
        else:
            land = scatter(T, S, g, a, h, True)
        remember_salvo(S, g, a, h, land, True)
        land_on(T, S, g, h, land)
        return
    if S.p_aim[g, a] == h and not S.p_guided[g, a]:
        S.phase[g] = P_ADJUST   # "Subsequent salvos will hit the same hex, unless the fire is adjusted"
        return
    land = scatter(T, S, g, a, h, False)
    remember_salvo(S, g, a, h, land, False)
    land_on(T, S, g, h, land)


@njit(cache=True)
def land_on(T, S, g, h, land):
    """The salvo aimed at h hits hex ``land``: the piece there is the defender, who may make a
    voluntary retreat before the throw when it is the hex aimed at."""
    a = S.selected[g]
    unit_at, leader_at = maps(T, S, g)
    S.target_hex[g] = land
    e = -1
    if land >= 0:
        e = unit_at[land] if unit_at[land] >= 0 else leader_at[land]   # a stray shell hits whoever is there
    if e == a:
        e = -1
    S.target[g] = e
    S.rt_voluntary[g] = False
    if e < 0 or land != h:
        if e < 0:
            finish_battle(T, S, g)
        else:
            throw(T, S, g)
        return
    if T.p_side[e] != T.p_side[a] and may_retreat_voluntarily(T, S, g, e, unit_at, leader_at):
        S.phase[g] = P_STAND
        return
    throw(T, S, g)


@njit(cache=True)
def throw(T, S, g):
    """Roll the battle dice (recorded in ``last_throw``); then who takes the hits, and resolve."""
    a = S.selected[g]
    counts = np.zeros(4, np.int64)
    total = battle_dice(T, S, g, a, S.target_hex[g], counts)
    c = supporting_commander(T, S, g, a)
    if c >= 0 and total > 0:
        dice.add_commander_die(counts)
        S.p_battled[g, c] = True   # his support this turn
        emit(S, g, ev.COMMANDER_DIE, c, a)
    emit(S, g, ev.BATTLE, a, S.target_hex[g], counts[0], counts[1], counts[2], counts[3])
    S.last_throw[g, :] = -1
    k = 0
    for die in range(4):
        S.bt_dice[g, die] = counts[die]
        for _ in range(counts[die]):
            s = T.faces[die, roll(S, g, 6) - 1]
            emit(S, g, ev.BATTLE_DIE, die, s)
            if k < THROW_MAX:
                S.last_throw[g, k] = s
            k += 1
    S.bt_vehicle[g] = False
    after_throw(T, S, g)


@njit(cache=True)
def second_piece(T, S, g, e):
    """The other piece of the defender's side in e's hex (an attached sniper, or the unit a sniper is
    attached to), -1; commanders are never chosen to take the hits."""
    h = S.p_hex[g, e]
    for p in range(T.p_side.shape[0]):
        if p != e and S.p_hex[g, p] == h and T.p_side[p] == T.p_side[e] and not is_commander(T, p):
            return p
    return -1


@njit(cache=True)
def after_throw(T, S, g):
    e = S.target[g]
    if not is_commander(T, e) and second_piece(T, S, g, e) >= 0:
        S.phase[g] = P_HIT_PIECE
        return
    hit_part_or_resolve(T, S, g)


@njit(cache=True)
def part_chooser(T, S, g):
    """Who chooses between a unit's vehicle and personnel (appendix 1, basic rules): the attacker
    for motorized units; the defender for mechanized units deployed; nobody for mechanized
    infantry inside its vehicle (the vehicle only) or a unit without vehicles (-1)."""
    e = S.target[g]
    tr = T.c_transport[T.p_card[e]]
    if S.p_vehicles[g, e] == 0 or (tr != MOTORIZED and tr != MECHANIZED):
        return -1
    if T.advanced:
        # "the attacker has the option ... to hit the vehicles (should he cast the appropriate
        # symbol) once the unit strength falls below 6" (mechanized 5), "once below 4 (3) ... again";
        # infantry inside: a motorized unit's attacker always chooses, a mechanized one's never
        k = 0 if tr == MOTORIZED else 1
        if S.p_mounted[g, e]:
            return T.p_side[S.selected[g]] if k == 0 else -1
        need = ADVANCED_FIRST[k] if S.p_vehicles[g, e] == 2 else ADVANCED_SECOND[k]
        return T.p_side[S.selected[g]] if S.p_figures[g, e] < need else -1
    if tr == MOTORIZED:
        return T.p_side[S.selected[g]]
    if S.p_mounted[g, e]:
        return -1
    return T.p_side[e]


@njit(cache=True)
def throw_hits(T, S, g, e, vehicle):
    """The hits the throw just made scores on piece e's vehicle (``vehicle``) or its personnel."""
    symbols = np.empty(THROW_MAX, np.int64)
    n = 0
    for i in range(THROW_MAX):
        if S.last_throw[g, i] >= 0:
            symbols[n] = S.last_throw[g, i]
            n += 1
    hits = np.zeros(9, np.int64)
    total, _ = dice.score_throw(T.scores, T.special_range, symbols, n, hit_target_kind(T, S, g, e, vehicle),
                                T.dist[S.p_hex[g, S.selected[g]], S.target_hex[g]], hits)
    return total


@njit(cache=True)
def hit_part_or_resolve(T, S, g):
    """Appendix 1: the hits go on a unit's vehicle or its personnel, chosen "should the attacker
    cast the appropriate symbol": a choice only when the throw scores on both; a throw that scores
    on one of them alone (a soldier symbol never hits an armoured carrier) hits that one."""
    e = S.target[g]
    tr = T.c_transport[T.p_card[e]]
    if S.p_vehicles[g, e] > 0 and tr == MECHANIZED and S.p_mounted[g, e]:
        S.bt_vehicle[g] = True   # infantry inside: only the vehicle can be hit
    elif part_chooser(T, S, g) >= 0:
        on_vehicle, on_personnel = throw_hits(T, S, g, e, True), throw_hits(T, S, g, e, False)
        if on_vehicle > 0 and on_personnel > 0:
            S.phase[g] = P_HIT_PART
            return
        S.bt_vehicle[g] = on_vehicle > 0
    resolve(T, S, g)


@njit(cache=True)
def roll_saves(T, S, g, n, out):
    for i in range(min(n, out.shape[0])):
        out[i] = T.faces[T.saving_die, roll(S, g, 6) - 1]


@njit(cache=True)
def log_saves(S, g, kind, why, die, saves, n, close):
    """The event log: the saving throws ``saves[:n]`` (die ``die``, for ``why``), each saved or not."""
    if not S.ev_on[0]:
        return
    for i in range(min(n, saves.shape[0])):
        emit(S, g, kind, why, die, saves[i], ev.SAVED if dice.saves(saves[i], close) else ev.NOT_SAVED)


@njit(cache=True)
def resolve(T, S, g):
    """5. Resolve battle: hits and saving throws, casualties, the defence die, the flags."""
    a, e = S.selected[g], S.target[g]
    sa, se = T.p_side[a], T.p_side[e]
    ha, he = S.p_hex[g, a], S.target_hex[g]
    d = T.dist[ha, he]
    close = d == 1
    n = 0
    for i in range(THROW_MAX):
        if S.last_throw[g, i] >= 0:
            n += 1
    symbols = np.empty(THROW_MAX, np.int64)
    for i in range(n):
        symbols[i] = S.last_throw[g, i]
    saves = np.empty(SAVES_MAX, np.int64)
    flags = 0
    dead = 0
    if is_commander(T, e):
        roll_saves(T, S, g, 1, saves)
        hit = dice.special_hit(T.special_range, symbols, n, d)
        emit(S, g, ev.HITS, e, 1 if hit else 0, 0, 0)
        if hit and not T.fastplay:
            log_saves(S, g, ev.SAVING_THROW, ev.FOR_COMMANDER, T.saving_die, saves, 1, close)
        dead = dice.commander_hit(T.special_range, symbols, n, d, saves[0], close, T.fastplay)
    else:
        hits = np.zeros(9, np.int64)
        target_kind = hit_target_kind(T, S, g, e, S.bt_vehicle[g])
        total, flags = dice.score_throw(T.scores, T.special_range, symbols, n, target_kind, d, hits)
        auto = dice.automatic_kills(hits)
        if S.bt_vehicle[g]:
            emit(S, g, ev.VEHICLE_HIT, e)
        emit(S, g, ev.HITS, e, total, auto, flags)
        if not T.fastplay:
            roll_saves(T, S, g, total - auto, saves)
            log_saves(S, g, ev.SAVING_THROW, ev.FOR_HIT, T.saving_die, saves, total - auto, close)
        dead, _ = dice.kills(total, auto, saves, close, T.fastplay)
        room = S.p_vehicles[g, e] if S.bt_vehicle[g] else S.p_figures[g, e]
        armed = min(S.p_figures[g, a], T.c_armed[T.p_card[a]])
        dead = dice.casualty_cap(dead, S.p_figures[g, a], armed, room)
    S.last_kills[g] = dead
    S.last_flags[g] = flags
    if S.bt_vehicle[g]:
        if dead > 0:
            emit(S, g, ev.VEHICLE_LOSS, e, dead, S.p_vehicles[g, e] - dead)
        S.p_vehicles[g, e] -= dead
        if S.p_vehicles[g, e] == 0:
            S.p_mounted[g, e] = False
        if T.advanced and dead > 0:   # the vehicles are two of the unit's figures
            lose_figures(T, S, g, e, dead, sa if se != sa else -1)
    elif dead > 0:
        lose_figures(T, S, g, e, dead, sa if se != sa else -1)
    # firing at buildings: artillery or tanks
    kind = T.c_kind[T.p_card[a]]
    if (kind == K_ARTILLERY or kind == K_TANK) and he >= 0:
        what = hex_collapse(T, S, g, he)
        if what != NO_COLLAPSE:
            d1, d2 = roll(S, g, 6), roll(S, g, 6)
            down = dice.collapses(d1 + d2, T.collapse_totals[what])
            emit(S, g, ev.BUILDING, he, d1, d2, ev.COLLAPSES if down else ev.STANDS)
            if down:
                if what == COLLAPSE_BUNKER:
                    S.features[g, he] &= ~np.uint8(1 << F_BUNKER)
                if S.p_hex[g, e] == he and not S.bt_vehicle[g]:
                    lose_figures(T, S, g, e, 1, sa if se != sa else -1)   # "an automatic kill"
    # defence: a defender that stood throws one die back, if in range
    if (S.p_hex[g, e] >= 0 and not S.rt_voluntary[g] and not T.fastplay and not S.p_defended[g, e]
            and se != sa and not is_commander(T, e) and S.p_hex[g, a] >= 0):
        defence_throw(T, S, g, e, a)
    # flags: the retreat
    S.rt_left[g] = 0
    if S.p_hex[g, e] >= 0 and not is_commander(T, e):
        if S.rt_voluntary[g]:
            S.rt_left[g] = 1
        elif flags > 0:
            unit_at, leader_at = maps(T, S, g)
            commander_here = leader_at[he] >= 0 and is_commander(T, leader_at[he]) and T.p_side[leader_at[he]] == se
            artillery = T.c_class[T.p_card[e]] == C_ARTILLERY
            ignored = flags
            if not dice.ignores_flags(S.p_figures[g, e], T.c_flag[T.p_card[e]], commander_here, artillery):
                ignore = hex_ignore_flags(T, S, g, he)
                ignored = min(flags, ignore)
                left = max(0, flags - ignore) - (1 if flags >= 2 and flags > ignore else 0)
                if not T.fastplay:
                    roll_saves(T, S, g, left, saves)
                    log_saves(S, g, ev.FLAG_SAVE, ev.FOR_FLAG, T.saving_die, saves, left, close)
                hexes, _ = dice.retreats(flags, ignore, saves, close, T.fastplay)
                S.rt_left[g] = hexes
            emit(S, g, ev.FLAGS, e, flags, ignored, S.rt_left[g])
    S.last_retreat[g] = S.rt_left[g]
    S.rt_piece[g] = e
    continue_retreat(T, S, g)


@njit(cache=True)
def defence_throw(T, S, g, e, a):
    """Defence: one die of the defender's main colour at the range, if its card and terrain give it
    one and it can see the attacker; a hit kills a figure."""
    counts = np.zeros(4, np.int64)
    ha = S.p_hex[g, a]
    if battle_dice(T, S, g, e, ha, counts) == 0 or S.p_no_battle[g, e] or S.p_mounted[g, e]:
        return
    unit_at, leader_at = maps(T, S, g)
    if not sees(T, S, g, e, ha, unit_at):
        return
    best = 0
    for die in range(1, 4):
        if counts[die] > counts[best]:
            best = die
    S.p_defended[g, e] = True
    symbol = T.faces[best, roll(S, g, 6) - 1]
    kill = dice.defence_kill(T.scores, T.special_range, symbol, T.c_target[T.p_card[a]], T.dist[ha, S.p_hex[g, e]])
    emit(S, g, ev.DEFENCE, e, best, symbol, ev.KILL if kill else ev.MISS)
    if kill:
        lose_figures(T, S, g, a, 1, T.p_side[e])


@njit(cache=True)
def move_with_commander(T, S, g, p, h, leader_at):
    """A retreating unit takes the commander in its hex with it ("A unit controlled by a commander
    forced to retreat must take the commander with it"; an attached sniper goes with it too)."""
    h0 = S.p_hex[g, p]
    ld = leader_at[h0]
    emit(S, g, ev.RETREAT, p, h0, h)
    S.p_hex[g, p] = h
    if ld >= 0 and ld != p and T.p_side[ld] == T.p_side[p] and not is_leader(T, p):
        emit(S, g, ev.RETREAT, ld, h0, h)
        S.p_hex[g, ld] = h


@njit(cache=True)
def continue_retreat(T, S, g):
    """Retreat the unit hex by hex: a choice of hexes is the defender's decision; no hex free
    costs a figure; no hex on the map eliminates it."""
    p = S.rt_piece[g]
    H = T.nbr.shape[0]
    unit_at, leader_at = np.full(H, -1, np.int64), np.full(H, -1, np.int64)
    free = np.zeros(H, np.bool_)
    scorer = 1 - T.p_side[p]
    while S.rt_left[g] > 0 and S.p_hex[g, p] >= 0:
        occupancy(T, S, g, unit_at, leader_at)
        n, off = retreat_hexes(T, S, g, p, unit_at, leader_at, free)
        if is_gun(T, p) and hex_no_artillery_retreat(T, S, g, S.p_hex[g, p]):
            n, off = 0, False   # "Artillery may not retreat from bunkers"
        if n > 0:
            S.phase[g] = P_RETREAT
            return
        if off:
            emit(S, g, ev.OFF_MAP, p, S.p_hex[g, p])
            eliminate(T, S, g, p, scorer)   # retreated off the battlefield
        else:
            h0 = S.p_hex[g, p]
            emit(S, g, ev.BLOCKED, p, h0)
            lose_figures(T, S, g, p, 1, scorer)   # the retreat move that cannot be completed
            if S.p_hex[g, p] < 0 and S.rt_left[g] > 1:
                # "Such losses may include the commander if this is the last remaining figure in
                # the given hex"
                ld = leader_at[h0]
                if ld >= 0 and is_commander(T, ld) and T.p_side[ld] == T.p_side[p]:
                    eliminate(T, S, g, ld, scorer)
        S.rt_left[g] -= 1
    occupancy(T, S, g, unit_at, leader_at)
    update_control(T, S, g, unit_at)
    if S.air_stage[g] != AIR_NONE:   # the retreat after a ground attack: the next plane
        S.rt_piece[g] = -1
        next_ground_attack(T, S, g)
        return
    after_retreat(T, S, g)


@njit(cache=True)
def after_retreat(T, S, g):
    """Forcing a breakthrough: close combat that emptied the hex lets the unit (not artillery)
    enter it; never after a tank's second battle ("once more (but not follow up again)")."""
    a, he = S.selected[g], S.target_hex[g]
    if check_victory(T, S, g, False):
        return
    if (not S.second[g] and S.p_hex[g, a] >= 0 and he >= 0 and T.dist[S.p_hex[g, a], he] == 1 and not is_gun(T, a)
            and not is_leader(T, a) and T.p_side[S.target[g]] != T.p_side[a]):
        empty = True
        for p in range(T.p_side.shape[0]):
            if S.p_hex[g, p] == he:
                empty = False
        if empty and may_enter(T, S, g, a, he):
            S.phase[g] = P_BREAKTHROUGH
            return
    finish_battle(T, S, g)


@njit(cache=True)
def may_battle_again(T, S, g):
    """A tank or SP gun that forced a breakthrough may battle the retreating unit once more."""
    a, e = S.selected[g], S.target[g]
    kind = T.c_kind[T.p_card[a]]
    if S.second[g] or not (kind == K_TANK or kind == K_SP_GUN) or S.p_hex[g, e] < 0:
        return False
    unit_at, leader_at = maps(T, S, g)
    counts = np.zeros(4, np.int64)
    return may_target(T, S, g, a, S.p_hex[g, e], unit_at, leader_at, counts)


@njit(cache=True)
def finish_battle(T, S, g):
    a, e = S.selected[g], S.target[g]
    S.p_battled[g, a] = True
    if e >= 0 and S.p_hex[g, a] >= 0 and S.p_hex[g, e] >= 0 and T.dist[S.p_hex[g, a], S.p_hex[g, e]] <= 1:
        S.p_close[g, a] = True
        S.p_close[g, e] = True
    elif e >= 0 and S.rt_piece[g] == e and S.target_hex[g] >= 0 and S.p_hex[g, a] >= 0 and \
            T.dist[S.p_hex[g, a], S.target_hex[g]] <= 1:
        S.p_close[g, a] = True
        if S.p_hex[g, e] >= 0:
            S.p_close[g, e] = True
    S.selected[g] = -1
    S.target[g] = -1
    S.target_hex[g] = -1
    S.rt_piece[g] = -1
    S.rt_left[g] = 0
    S.rt_voluntary[g] = False
    S.second[g] = False
    if S.terminated[g]:
        return
    if check_victory(T, S, g, False):
        return
    S.phase[g] = P_BATTLE_SELECT


# ------------------------------------------------------------------------------ air support
@njit(cache=True)
def begin_air(T, S, g):
    """After all moves: the attacker may play an air support card (appendix 2), then battle."""
    if air.may_play(T, S, g, S.active[g]):
        S.phase[g] = P_AIR_PLAY
    else:
        S.phase[g] = P_BATTLE_SELECT


@njit(cache=True)
def next_plane_to_place(T, S, g):
    S.air_stage[g] = AIR_PLACE
    p = air.next_to_place(S, g, S.active[g])
    if p >= 0:
        S.air_sel[g] = p
        S.phase[g] = P_AIR_PLACE
        return
    S.air_sel[g] = -1
    S.air_aa[g] = -1
    next_aa_fire(T, S, g)


@njit(cache=True)
def next_aa_fire(T, S, g):
    """Air combat 1: "If the attacking aircraft are within range of defending AA units, these units
    open fire first"."""
    S.air_stage[g] = AIR_AA
    a = air.next_aa(T, S, g, S.air_aa[g])
    if a >= 0:
        S.air_aa[g] = a
        S.phase[g] = P_AA_TARGET
        return
    S.air_aa[g] = -1
    # 2: "The player having deployed the highest number of fighters ... starts the first dogfight
    # ... In case the number of fighters is equal, the attacker goes first."
    attacker = S.active[g]
    S.air_turn[g] = attacker if air.fighters(S, g, attacker) >= air.fighters(S, g, 1 - attacker) else 1 - attacker
    S.air_free[g] = False
    next_dogfight(T, S, g)


@njit(cache=True)
def next_dogfight(T, S, g):
    """Dogfights side by side while planes can pair up; then the free shots; then the ground."""
    S.air_stage[g] = AIR_DOGFIGHT
    H = T.nbr.shape[0]
    out = np.zeros(H, np.bool_)
    for k in range(2):
        s = S.air_turn[g] if k == 0 else 1 - S.air_turn[g]
        out[:] = False
        if air.dogfight_planes(T, S, g, s, S.air_free[g], out) > 0:
            S.air_turn[g] = s
            S.phase[g] = P_DOG_PLANE
            return
    if not S.air_free[g]:
        S.air_free[g] = True   # "all remaining planes get a 'free shot', provided they have an enemy plane in range"
        S.air_turn[g] = S.active[g]
        next_dogfight(T, S, g)
        return
    next_ground_attack(T, S, g)


@njit(cache=True)
def next_ground_attack(T, S, g):
    """Air combat 3: each attacking plane left attacks its target (or none is in reach)."""
    S.air_stage[g] = AIR_GROUND
    if S.terminated[g]:
        air.end_air(S, g)
        return
    H = T.nbr.shape[0]
    unit_at, leader_at = maps(T, S, g)
    out = np.zeros(H, np.bool_)
    while True:
        p = air.next_bomber(S, g, S.active[g])
        if p < 0:
            break
        out[:] = False
        if air.ground_targets(T, S, g, p, unit_at, out) > 0:
            S.air_sel[g] = p
            S.phase[g] = P_AIR_TARGET
            return
        S.pl_state[g, p] = PL_DONE
    air.end_air(S, g)
    if not check_victory(T, S, g, False):
        S.phase[g] = P_BATTLE_SELECT


@njit(cache=True)
def play_air_card(T, S, g, side, k):
    c = air.air_hand(S, g, side, k)
    air.play_card(T, S, g, side, c)


# ------------------------------------------------------------------------------ flares
@njit(cache=True)
def may_flare(T, p):
    """Flairs (night games): artillery firing indirectly may fire a flare instead of battling."""
    return T.night and T.c_indirect[T.p_card[p]]


@njit(cache=True)
def fire_flare(T, S, g, h):
    """"Are fired as normal rounds and illuminate the target hex and its ZOC.  No need to cast the
    battle dice here, but the indirect artillery fire rules are applicable": the flare lands as a
    first round would (in sight: on h; else guided or blind scatter) and lights that hex and its
    six neighbours for the rest of the turn; it is the unit's battle."""
    a = S.selected[g]
    unit_at, leader_at = maps(T, S, g)
    land = h
    if not sees(T, S, g, a, h, unit_at):
        c = spotter(T, S, g, a, h, unit_at)
        if c >= 0:
            S.p_spots[g, c] = a
        land = scatter(T, S, g, a, h, c >= 0)
    if land >= 0:
        emit(S, g, ev.FLARE, a, land)
        S.lit[g, land] = True
        for d in range(6):
            if T.nbr[land, d] >= 0:
                S.lit[g, T.nbr[land, d]] = True
    S.p_battled[g, a] = True
    S.selected[g] = -1
    S.phase[g] = P_BATTLE_SELECT


# ------------------------------------------------------------------------------ obstacles
@njit(cache=True)
def may_clear(T, S, g, p):
    """Barbed wire "may be cleared by infantry (takes one turn)"; a minefield by an infantry unit
    staying in the hex two turns, or engineers in one: an ordered infantry unit on foot in such a
    hex, instead of moving."""
    if T.c_kind[T.p_card[p]] != K_INFANTRY or S.p_mounted[g, p] or S.p_moved[g, p]:
        return False
    h = S.p_hex[g, p]
    return has_feature(S, g, h, F_WIRE) or has_feature(S, g, h, F_MINES)


@njit(cache=True)
def clear_obstacle(T, S, g, p):
    """The unit spends its order clearing (no move, no battle): the wire first; a minefield costs
    casualties: "cast 2 basic battle dice with saving throws" a turn for infantry (cleared after
    the second turn), 1 die for engineers (cleared at once)."""
    h = S.p_hex[g, p]
    S.p_moved[g, p] = True
    S.p_no_battle[g, p] = True
    if has_feature(S, g, h, F_WIRE):
        S.features[g, h] &= ~np.uint8(1 << F_WIRE)
        emit(S, g, ev.OBSTACLE_GONE, h, F_WIRE, ev.CLEARED)
        return
    engineers = T.c_engineers[T.p_card[p]]
    dead = mine_casualties(T, S, g, p, 1 if engineers else 2)
    if dead > 0:
        lose_figures(T, S, g, p, dead, 1 - T.p_side[p])
    S.clearing[g, h] += 1
    if engineers or S.clearing[g, h] >= 2:
        S.features[g, h] &= ~np.uint8(1 << F_MINES)
        emit(S, g, ev.OBSTACLE_GONE, h, F_MINES, ev.CLEARED)
        S.clearing[g, h] = 0


# ------------------------------------------------------------------------------ the hooks
@njit(cache=True)
def fill_mask(T, S, g, m):
    m[:] = False
    ph = S.phase[g]
    H = T.nbr.shape[0]
    P0 = H + act.PIECE_0
    n = 0
    if ph == P_OVER:
        return 0
    if ph == P_FIRST or ph == P_STAND or ph == P_FOLLOW or ph == P_BREAKTHROUGH or ph == P_SECOND or \
            ph == P_HIT_PART or ph == P_ADJUST or ph == P_DISMOUNT or ph == P_PICK_AIR:
        m[H + act.YES] = True
        m[H + act.NO] = True
        return 2
    side = S.active[g]
    if ph == P_CARD or ph == P_DISCARD:
        for k in range(hand_size(S, g, side)):
            c = hand_card(S, g, side, k)
            if ph == P_DISCARD or card_playable(T, S, g, c):
                m[H + act.CARD_0 + k] = True
                n += 1
        return n
    if ph == P_AIR_PLAY or ph == P_AIR_DEFEND:
        s = S.active[g] if ph == P_AIR_PLAY else 1 - S.active[g]
        m[H + act.NO] = True
        n = 1
        for k in range(min(air.air_hand_size(S, g, s), act.MAX_HAND)):
            m[H + act.CARD_0 + k] = True
            n += 1
        return n
    if ph == P_AIR_PLACE:
        for h in range(H):
            if air.plane_at(S, g, h) < 0:
                m[h] = True
                n += 1
        return n
    if ph == P_AA_TARGET:
        return air.aa_targets(T, S, g, S.air_aa[g], m)
    if ph == P_DOG_PLANE:
        return air.dogfight_planes(T, S, g, S.air_turn[g], S.air_free[g], m)
    if ph == P_DOG_TARGET:
        return air.dogfight_targets(T, S, g, S.air_sel[g], S.air_free[g], m)
    if ph == P_AIR_TARGET:
        unit_at, leader_at = maps(T, S, g)
        m[H + act.NO] = True
        return 1 + air.ground_targets(T, S, g, S.air_sel[g], unit_at, m)
    if ph == P_FORM_SELECT:
        m[H + act.DONE] = True
        n = 1
        for c in range(T.p_side.shape[0]):
            if T.p_side[c] == S.form_side[g] and commands.may_form(T, S, g, c):
                m[P0 + c] = True
                n += 1
        return n
    if ph == P_FORM_UNIT:
        m[H + act.NO] = True
        n = 1
        if commands.may_finish(T, S, g):
            m[H + act.DONE] = True
            n += 1
        for u in range(T.p_side.shape[0]):
            if commands.may_pick(T, S, g, S.selected[g], u):
                m[P0 + u] = True
                n += 1
        return n
    if ph == P_ORDER:
        m[H + act.DONE] = True
        n = 1
        if S.order_left[g] > 0:
            for p in range(T.p_side.shape[0]):
                if orderable(T, S, g, p, S.card[g]):
                    m[P0 + p] = True
                    n += 1
        return n
    unit_at, leader_at = maps(T, S, g)
    if ph == P_MOVE_SELECT:
        m[H + act.DONE] = True
        n = 1
        for p in range(T.p_side.shape[0]):
            if S.p_hex[g, p] >= 0 and S.p_ordered[g, p] and not S.p_moved[g, p] and \
                    not commands.waits_for_commander(T, S, g, p):
                m[P0 + p] = True
                n += 1
        return n
    if ph == P_MOVE_DEST:
        p = S.selected[g]
        cost = np.empty(H, np.int64)
        reach(T, S, g, p, unit_at, leader_at, cost)
        for h in range(H):
            if cost[h] < UNLIMITED:
                m[h] = True
        cc = cc_commander(T, S, g, p)
        if cc == p:
            n = commands.commander_destinations(T, S, g, p, m, H, unit_at, leader_at)
            m[H + act.DISSOLVE] = True
            n += 1
        else:
            n = commands.keep_in_zoc(T, S, g, p, m, H)
            if commands.may_form(T, S, g, p):
                m[H + act.FORM] = True
                n += 1
        if may_toggle_mount(T, S, g, p):
            m[H + act.MOUNT] = True
            n += 1
        if may_clear(T, S, g, p):
            m[H + act.CLEAR] = True
            n += 1
        return n
    if ph == P_CONTROL:
        m[H + act.NO] = True
        n = 1
        c = S.selected[g]
        for u in range(T.p_side.shape[0]):
            if second_control_candidate(T, S, g, c, u):
                m[P0 + u] = True
                n += 1
        return n
    counts = np.zeros(4, np.int64)
    if ph == P_BATTLE_SELECT:
        m[H + act.DONE] = True
        n = 1
        for p in range(T.p_side.shape[0]):
            if T.p_side[p] == side and may_battle(T, S, g, p) and (
                    any_target(T, S, g, p, unit_at, leader_at, counts) or may_flare(T, p)):
                m[P0 + p] = True
                n += 1
        return n
    if ph == P_BATTLE_TARGET:
        m[H + act.NO] = True
        n = 1
        a = S.selected[g]
        for h in range(H):
            if may_target(T, S, g, a, h, unit_at, leader_at, counts):
                m[h] = True
                n += 1
        if may_flare(T, a):
            m[H + act.FLARE] = True
            n += 1
        return n
    if ph == P_FLARE:
        a = S.selected[g]
        for h in range(H):
            d = T.dist[S.p_hex[g, a], h]
            if 1 <= d <= T.c_dice.shape[1] and dice.dice_at(T.c_dice, T.p_card[a], d, counts) > 0:
                m[h] = True
                n += 1
        return n
    if ph == P_HIT_PIECE:
        e = S.target[g]
        m[P0 + e] = True
        m[P0 + second_piece(T, S, g, e)] = True
        return 2
    if ph == P_RETREAT:
        free = np.zeros(H, np.bool_)
        k, _ = retreat_hexes(T, S, g, S.rt_piece[g], unit_at, leader_at, free)
        if S.rt_voluntary[g]:   # a voluntary retreat may not leave the commander's ZOC
            k = commands.keep_in_zoc_strict(T, S, g, S.rt_piece[g], free, H)
        for h in range(H):
            if free[h]:
                m[h] = True
        return k
    return 0


@njit(cache=True)
def second_control_candidate(T, S, g, c, u):
    """Platoons: a commander who entered a friendly unit's hex may take one more friendly unit in
    an adjacent hex under his control (one nobody controls)."""
    if is_leader(T, u) or S.p_hex[g, u] < 0 or T.p_side[u] != T.p_side[c] or S.p_leader[g, u] >= 0:
        return False
    return T.dist[S.p_hex[g, u], S.p_hex[g, c]] == 1


@njit(cache=True)
def decider(T, S, g):
    ph = S.phase[g]
    if (ph == P_FORM_SELECT or ph == P_FORM_UNIT) and S.form_side[g] >= 0:
        return S.form_side[g]
    if ph == P_AIR_DEFEND or ph == P_AA_TARGET:
        return 1 - S.active[g]
    if ph == P_AIR_PLACE:
        return S.pl_side[g, S.air_sel[g]]
    if ph == P_DOG_PLANE or ph == P_DOG_TARGET:
        return S.air_turn[g]
    if ph == P_STAND or ph == P_HIT_PIECE:
        return T.p_side[S.target[g]]
    if ph == P_RETREAT:
        return T.p_side[S.rt_piece[g]]
    if ph == P_HIT_PART:
        return part_chooser(T, S, g)
    return S.active[g]


@njit(cache=True)
def minor_default(T, S, g, m):
    """``decisions="major"``: the documented default of a minor choice, -1 for a major one."""
    ph = S.phase[g]
    H = T.nbr.shape[0]
    if ph == P_STAND:
        return H + act.NO                      # make a stand
    if ph == P_FOLLOW:
        return H + act.YES                     # the commander goes with his unit
    if ph == P_CONTROL:
        return H + act.NO
    if ph == P_HIT_PIECE:
        return H + act.PIECE_0 + S.target[g]   # the unit, not the attached sniper
    if ph == P_HIT_PART:
        # the attacker hits the personnel of a motorized unit, the defender gives the vehicle
        mech = T.c_transport[T.p_card[S.target[g]]] == MECHANIZED
        return H + (act.YES if mech else act.NO)
    if ph == P_RETREAT:
        for h in range(H):
            if m[h]:
                return h
    return -1


@njit(cache=True)
def automatic(T, S, g, m, n):
    if n == 1:
        return only_action(m)
    if T.major_only:
        return minor_default(T, S, g, m)
    return -1


@njit(cache=True)
def order_piece(T, S, g, p):
    action = T.card_action[S.card[g]]
    cc = commands.orders_command(T, S, g, p, action == A_STANDARD or action == A_ANY or action == A_COMMAND)
    if cc >= 0:   # the combat command moves as one unit: its commander and the members in his ZOC
        speed = cc_speed(T, S, g, cc)
        for v in range(T.p_side.shape[0]):
            if S.p_cc[g, v] == cc and cc_commander(T, S, g, v) == cc:
                S.p_ordered[g, v] = True
                S.p_cc_move[g, v] = speed
        return
    S.p_ordered[g, p] = True
    leader = S.p_leader[g, p]
    if leader >= 0 and controlled_count(T, S, g, leader) == 2:   # the pair counts as one order
        for v in range(T.p_side.shape[0]):
            if S.p_leader[g, v] == leader and S.p_hex[g, v] >= 0:
                S.p_ordered[g, v] = True


@njit(cache=True)
def after_move(T, S, g, p, old):
    """What follows a move: the commander may go with his unit; a commander who joined a unit may
    take a second one under control."""
    unit_at, leader_at = maps(T, S, g)
    new = S.p_hex[g, p]
    if not is_leader(T, p) and new >= 0 and new != old:
        c = S.p_leader[g, p]
        if c >= 0 and S.p_hex[g, c] == old and not S.p_moved[g, c] and leader_at[new] < 0:
            S.target[g] = c   # the commander who may go with the unit (control waits on his choice)
            update_control(T, S, g, unit_at)
            S.phase[g] = P_FOLLOW
            return
    update_control(T, S, g, unit_at)
    if is_commander(T, p) and new >= 0 and new != old and unit_at[new] >= 0 and controlled_count(T, S, g, p) == 1:
        for u in range(T.p_side.shape[0]):
            if second_control_candidate(T, S, g, p, u):
                S.selected[g] = p
                S.phase[g] = P_CONTROL
                return
    S.selected[g] = -1
    S.phase[g] = P_MOVE_SELECT


@njit(cache=True)
def apply(T, S, g, a):
    ph = S.phase[g]
    H = T.nbr.shape[0]
    P0 = H + act.PIECE_0
    side = S.active[g]
    if ph == P_FORM_SELECT:
        if a == H + act.DONE:
            if S.form_side[g] == 0:
                S.form_side[g] = 1
            else:
                begin_play(T, S, g)
        else:
            S.selected[g] = a - P0
            S.form_pick[g, :] = False
            S.phase[g] = P_FORM_UNIT
    elif ph == P_FORM_UNIT:
        c = S.selected[g]
        in_play = S.form_side[g] < 0
        if a == H + act.DONE:
            commands.form(T, S, g, c, in_play)
            S.selected[g] = -1
            S.phase[g] = P_MOVE_SELECT if in_play else P_FORM_SELECT
        elif a == H + act.NO:
            S.form_pick[g, :] = False
            S.form_declined[g, c] = True   # given up: not offered again (else NO, FORM, NO... never ends)
            S.phase[g] = P_MOVE_DEST if in_play else P_FORM_SELECT
            if not in_play:
                S.selected[g] = -1
        else:
            S.form_pick[g, a - P0] = True
    elif ph == P_AIR_PLAY:
        if a == H + act.NO:
            S.phase[g] = P_BATTLE_SELECT
        else:
            play_air_card(T, S, g, side, a - H - act.CARD_0)
            defender = 1 - side
            if air.aircraft(T, S, g, defender) == 0 and not S.air_vp[g, side]:
                # "as soon as a player faces an air attack he cannot counter because of 0 aircraft in
                # his pool ... his opponent ... scores 1 victory point"
                S.air_vp[g, side] = True
                S.vp[g, side] += 1
                emit(S, g, ev.AIR_POINT, side, S.vp[g, side])
                if check_victory(T, S, g, False):
                    air.end_air(S, g)
                    return
            if air.may_play(T, S, g, defender):
                S.phase[g] = P_AIR_DEFEND
            else:
                next_plane_to_place(T, S, g)
    elif ph == P_AIR_DEFEND:
        if a != H + act.NO:
            play_air_card(T, S, g, 1 - side, a - H - act.CARD_0)
        next_plane_to_place(T, S, g)
    elif ph == P_AIR_PLACE:
        p = S.air_sel[g]
        S.pl_hex[g, p] = a
        S.pl_state[g, p] = PL_FLYING
        emit(S, g, ev.PLANE_PLACED, S.pl_side[g, p], S.pl_kind[g, p], a)
        next_plane_to_place(T, S, g)
    elif ph == P_AA_TARGET:
        q = air.plane_at(S, g, a)
        for _ in range(T.c_air_dice[T.p_card[S.air_aa[g]]]):
            if air.alive(S, g, q):
                air.shoot(T, S, g, q, ev.AA_FIRE, S.p_hex[g, S.air_aa[g]])
        next_aa_fire(T, S, g)
    elif ph == P_DOG_PLANE:
        S.air_sel[g] = air.plane_at(S, g, a)
        S.phase[g] = P_DOG_TARGET
    elif ph == P_DOG_TARGET:
        p = S.air_sel[g]
        q = air.plane_at(S, g, a)
        down = air.shoot(T, S, g, q, ev.FREE_SHOT if S.air_free[g] else ev.DOGFIGHT, S.pl_hex[g, p])
        if not S.air_free[g]:
            if not down:   # "in case the target plane survives, it must return fire"
                air.shoot(T, S, g, p, ev.RETURN_FIRE, S.pl_hex[g, q])
            if air.alive(S, g, q):
                S.pl_state[g, q] = PL_FOUGHT
            S.air_turn[g] = 1 - S.air_turn[g]   # "the opponent now starts the next dogfight"
        if air.alive(S, g, p):
            S.pl_state[g, p] = PL_FOUGHT
        S.air_sel[g] = -1
        next_dogfight(T, S, g)
    elif ph == P_AIR_TARGET:
        p = S.air_sel[g]
        S.pl_state[g, p] = PL_DONE
        S.air_sel[g] = -1
        if a == H + act.NO:
            next_ground_attack(T, S, g)
            return
        unit_at, leader_at = maps(T, S, g)
        e = unit_at[a]
        dead, flags = air.ground_attack(T, S, g, p, e)
        if dead > 0:
            lose_figures(T, S, g, e, dead, side)
        if check_victory(T, S, g, False):
            air.end_air(S, g)
            return
        if S.p_hex[g, e] >= 0 and flags > 0:
            emit(S, g, ev.AIR_RETREAT, e, flags)
            S.rt_piece[g] = e   # "No saving throws for targets of ground attack (must retreat)"
            S.rt_left[g] = flags
            S.rt_voluntary[g] = False
            continue_retreat(T, S, g)
            return
        next_ground_attack(T, S, g)
    elif ph == P_PICK_AIR:
        if a == H + act.YES:
            c = air_pick_card(T, S, g, side)
            emit(S, g, ev.PICK_AIR, side, c)
            move_card(S.card_pile, S.card_pos, g, c, PILE_DISCARD, True)
            air.pick_support(S, g, side)
            draw_command_card(S, g, side, ev.AFTER_PICK)
        finish_turn(T, S, g)
    elif ph == P_FIRST:
        if a == H + act.NO:
            S.active[g] = 1 - side
        start_turn(T, S, g)
    elif ph == P_CARD:
        c = hand_card(S, g, side, a - H - act.CARD_0)
        emit(S, g, ev.CARD_PLAYED, side, c)
        move_card(S.card_pile, S.card_pos, g, c, PILE_PLAYED, True)
        S.card[g] = c
        S.order_left[g] = T.card_order[c]
        S.phase[g] = P_ORDER
    elif ph == P_DISCARD:
        c = hand_card(S, g, side, a - H - act.CARD_0)
        emit(S, g, ev.NO_ORDER, side, c)
        move_card(S.card_pile, S.card_pos, g, c, PILE_DISCARD, True)
        draw_command_card(S, g, side, ev.AFTER_DISCARD)
        end_turn(T, S, g)
    elif ph == P_ORDER:
        if a == H + act.DONE:
            S.phase[g] = P_MOVE_SELECT
        else:
            order_piece(T, S, g, a - P0)
            S.order_left[g] -= 1
    elif ph == P_MOVE_SELECT:
        if a == H + act.DONE:
            begin_air(T, S, g)
        else:
            S.selected[g] = a - P0
            S.phase[g] = P_MOVE_DEST
    elif ph == P_MOVE_DEST:
        p = S.selected[g]
        old = S.p_hex[g, p]
        if a == H + act.CLEAR:
            clear_obstacle(T, S, g, p)
            after_move(T, S, g, p, old)
        elif a == H + act.FORM:
            S.form_pick[g, :] = False
            S.phase[g] = P_FORM_UNIT
        elif a == H + act.DISSOLVE:
            commands.dissolve(T, S, g, p, True)
            after_move(T, S, g, p, old)
        elif a == H + act.MOUNT:
            if S.p_mounted[g, p]:
                S.p_mounted[g, p] = False   # dismount and battle: no move
                S.p_moved[g, p] = True
                after_move(T, S, g, p, old)
            else:
                S.p_mounted[g, p] = True    # mount and move: no battle this turn
                S.p_no_battle[g, p] = True
        else:
            rode = S.p_mounted[g, p] and not S.p_no_battle[g, p]   # mounted before this order
            S.p_moved[g, p] = True
            if a != old:
                enter_hex(T, S, g, p, a, False)
            if T.advanced and rode and S.p_mounted[g, p] and a != old and S.p_hex[g, p] >= 0:
                S.target_hex[g] = old   # where it came from, for the commander's follow
                S.phase[g] = P_DISMOUNT
                return
            after_move(T, S, g, p, old)
    elif ph == P_FOLLOW:
        p = S.selected[g]
        c = S.target[g]
        S.target[g] = -1
        if a == H + act.YES:
            S.p_hex[g, c] = S.p_hex[g, p]
            S.p_moved[g, c] = True
        unit_at, leader_at = maps(T, S, g)
        update_control(T, S, g, unit_at)
        S.selected[g] = -1
        S.phase[g] = P_MOVE_SELECT
    elif ph == P_CONTROL:
        if a != H + act.NO:
            S.p_leader[g, a - P0] = S.selected[g]
        S.selected[g] = -1
        S.phase[g] = P_MOVE_SELECT
    elif ph == P_BATTLE_SELECT:
        if a == H + act.DONE:
            end_turn(T, S, g)
        else:
            S.selected[g] = a - P0
            S.phase[g] = P_BATTLE_TARGET
    elif ph == P_BATTLE_TARGET:
        if a == H + act.NO:
            S.p_battled[g, S.selected[g]] = True   # it forgoes its battle (else select, NO... never ends)
            S.selected[g] = -1
            S.phase[g] = P_BATTLE_SELECT
        elif a == H + act.FLARE:
            S.phase[g] = P_FLARE
        else:
            declare(T, S, g, a)
    elif ph == P_FLARE:
        fire_flare(T, S, g, a)
    elif ph == P_STAND:
        S.rt_voluntary[g] = a == H + act.YES
        if a == H + act.YES:
            emit(S, g, ev.VOLUNTARY, S.target[g])
        throw(T, S, g)
    elif ph == P_HIT_PIECE:
        S.target[g] = a - P0
        hit_part_or_resolve(T, S, g)
    elif ph == P_HIT_PART:
        S.bt_vehicle[g] = a == H + act.YES
        resolve(T, S, g)
    elif ph == P_RETREAT:
        p = S.rt_piece[g]
        unit_at, leader_at = maps(T, S, g)
        rally = leader_at[a] >= 0 and is_commander(T, leader_at[a]) and T.p_side[leader_at[a]] == T.p_side[p]
        move_with_commander(T, S, g, p, a, leader_at)
        occupancy(T, S, g, unit_at, leader_at)
        update_control(T, S, g, unit_at)
        S.rt_left[g] -= 1
        if rally:
            emit(S, g, ev.RALLY, p, leader_at[a], a)
            S.rt_left[g] = 0   # rallied on a friendly commander: the flags left are ignored
        continue_retreat(T, S, g)
    elif ph == P_BREAKTHROUGH:
        if a == H + act.YES:
            p = S.selected[g]
            emit(S, g, ev.BREAKTHROUGH, p, S.p_hex[g, p], S.target_hex[g])
            enter_hex(T, S, g, p, S.target_hex[g], True)
            unit_at, leader_at = maps(T, S, g)
            update_control(T, S, g, unit_at)
            if S.p_hex[g, p] >= 0 and may_battle_again(T, S, g):
                S.phase[g] = P_SECOND
                return
        finish_battle(T, S, g)
    elif ph == P_ADJUST:
        p = S.selected[g]
        h = S.p_aim[g, p]
        if a == H + act.YES:
            land = scatter(T, S, g, p, h, False)
        else:
            land = S.p_land[g, p]
            emit(S, g, ev.SALVO, p, h, land)
        remember_salvo(S, g, p, h, land, False)
        land_on(T, S, g, h, land)
    elif ph == P_DISMOUNT:
        p = S.selected[g]
        old = S.target_hex[g]
        S.target_hex[g] = -1
        if a == H + act.YES:
            S.p_mounted[g, p] = False   # advanced rules: "may move, dismount and battle"
        after_move(T, S, g, p, old)
    elif ph == P_SECOND:
        if a == H + act.YES:
            S.second[g] = True
            emit(S, g, ev.SECOND_BATTLE, S.selected[g], S.target[g])
            declare(T, S, g, S.p_hex[g, S.target[g]])
        else:
            finish_battle(T, S, g)


DRIVER = bind_driver("world_at_war", start_game=start_game, apply=apply, fill_mask=fill_mask, decider=decider,
                     automatic=automatic)
