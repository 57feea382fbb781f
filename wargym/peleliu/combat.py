"""U.S. combat: attacks (8.1-8.3), barrages (8.4-8.5) and close combat (8.6-8.7).

The attack is declared in us.py (target, participants, markers) and resolved here at once; the
close combat is a small machine (``start_cc``, ``cc_progress``) that stops for the U.S. player's
choices (the step to lose, 8.6 3b; withdrawing, 8.63) and resumes after them.
"""

import numpy as np

from wargym.events import emit
from wargym.jit import njit
from wargym.peleliu import eventlog as ev
from wargym.peleliu.bnr import cave_colour, mark_auf, reduce_fort
from wargym.peleliu.board import (
    across_blocked, depth_hidden, fort_at, disrupt_jp, disrupt_us, draw, elim_jp, give_depth, has_depth, jp_at,
    jp_communication, jp_defense, jp_requires, lose_step, regimental_command, remove_depth, reveal_jp, weapons_of,
)
from wargym.peleliu.forces import night, reveal_depth_marker
from wargym.peleliu.japanese import colour_of
from wargym.peleliu.scenario import (
    CIRCLE, DIAMOND, R_ADD_DEPTH, R_ATTRITION, R_DEFEAT, R_DEPTH_ELIM, R_JP_DISRUPT, R_REVEAL_DEPTH, R_UNREVEAL,
    R_US_DISRUPT, R_US_STEP, REG_HQ, TRIANGLE, W_CC, W_FL, W_RD, B_ART_DESTROYED, B_DEFEAT, B_DEPTH_ELIM,
    B_FORT, B_JP_DISRUPT,
)
from wargym.peleliu.state import HERO, OPT_BNR, OPT_MARKER_STRENGTH, PILE_TRACK, US_MAP

FLANK3 = 1 << 30   # jp_requires: both unit and depth list flanking (8.22)


# ------------------------------------------------------------------------------------------ attack
@njit(cache=True)
def flanked(T, S, g, h, need):
    """8.22: attacking from two hexes adjacent to the target and not to each other (three hexes
    when both the unit and its depth marker list flanking)."""
    hexes = np.full(6, -1, np.int64)
    n = 0
    for u in range(S.us_loc.shape[1]):
        if S.att_units[g, u] and S.us_loc[g, u] == US_MAP:
            x = S.us_hex[g, u]
            if T.dist[h, x] == 1 and not across_blocked(T, S, g, x, h):  # 19.2: open sides only
                dup = False
                for k in range(n):
                    if hexes[k] == x:
                        dup = True
                if not dup and n < 6:
                    hexes[n] = x
                    n += 1
    if need >= 3:
        return n >= 3
    for a in range(n):
        for b in range(a + 1, n):
            if T.dist[hexes[a], hexes[b]] > 1:
                return True
    return False


@njit(cache=True)
def attack_values(T, S, g, h, j):
    """(U.S. strength, weapons, a hero adjacent) of the declared attack on hex h."""
    strength = 0
    weapons = 0
    hero = False
    for u in range(S.us_loc.shape[1]):
        if not S.att_units[g, u] or S.us_loc[g, u] != US_MAP:
            continue
        x = S.us_hex[g, u]
        d = T.dist[h, x]
        if d == 1 and across_blocked(T, S, g, x, h):
            d = 2  # 19.2: ranged fire across an impassable hexside
        strength += T.us_strength[u, S.us_steps[g, u]]
        weapons |= weapons_of(T, S, g, u, d)
        if d == 1:
            if regimental_command(T, S, g, u):
                weapons |= W_RD  # 8.25: the regimental HQ's radio (not an infantry/HQ's, 10.3; BNR 18.32)
            if S.hero[g, u] == HERO:
                hero = True
    if S.att_marker[g] >= 0:
        strength += T.opts[OPT_MARKER_STRENGTH]
        weapons |= T.marker_weapons[S.att_marker[g]]
    return strength, weapons, hero


HERO_ASK, HERO_DEFAULT, HERO_STRENGTH, HERO_WILD = -2, -1, 0, 1
ATTACK_DONE, ATTACK_ATTRITION, ATTACK_HERO = 0, 1, 2


@njit(cache=True)
def attack_result(T, S, g, h, j):
    """attack_result_as with the hero's benefit chosen by the default (HERO_DEFAULT)."""
    return attack_result_as(T, S, g, h, j, HERO_DEFAULT)


@njit(cache=True)
def hero_choice_matters(T, S, g, h, j):
    """8.24 / 10.13: an adjacent hero could stand in for the one weapon the attack lacks (neither
    flanking nor close combat, flanking met): then the wild card and +1 strength differ."""
    strength, weapons, hero = attack_values(T, S, g, h, j)
    if not hero:
        return False
    missing, fl_ok = missing_weapons(T, S, g, h, j, weapons)
    return fl_ok and missing != 0 and (missing & (missing - 1)) == 0 and (missing & W_CC) == 0


@njit(cache=True)
def missing_weapons(T, S, g, h, j, weapons):
    """(required weapons the attack lacks, flanking FL / FL3 met) for unit j in hex h."""
    req = jp_requires(T, S, g, j, h)
    need_fl = 0
    if req & FLANK3:
        need_fl = 3
    elif req & W_FL:
        need_fl = 2
    req &= ~FLANK3
    return req & ~weapons & ~W_FL, need_fl == 0 or flanked(T, S, g, h, need_fl)


@njit(cache=True)
def attack_result_as(T, S, g, h, j, hero_mode):
    """8.3 steps 2-4: the chart's result bits (attack_reading)."""
    res, strength, defense, has_all = attack_reading(T, S, g, h, j, hero_mode)
    return res


@njit(cache=True)
def attack_reading(T, S, g, h, j, hero_mode):
    """8.3 steps 2-4: (the chart's result bits, the U.S. strength, the Japanese strength, all
    required weapons possessed).  An adjacent hero (8.24, 10.13) stands in for the one missing
    weapon (HERO_WILD) or adds 1 to the strength (HERO_STRENGTH); HERO_DEFAULT: the wild card when
    it completes the weapons, else the strength."""
    strength, weapons, hero = attack_values(T, S, g, h, j)
    missing, fl_ok = missing_weapons(T, S, g, h, j, weapons)
    has_all = missing == 0 and fl_ok
    if not has_all and hero and hero_mode != HERO_STRENGTH and fl_ok and (missing & W_CC) == 0:
        m = missing
        if m != 0 and (m & (m - 1)) == 0:
            has_all = True  # 8.24: the hero stands in for the one missing weapon
            hero = False
    if hero:
        strength += 1  # 8.24: otherwise +1 strength
    d = jp_defense(T, S, g, j, h)
    if strength < d:
        row = 0
    elif strength < 2 * d:
        row = 1
    elif strength < 3 * d:
        row = 2
    else:
        row = 3
    col = 0
    if has_depth(T, S, g, j):
        col = 1 if depth_hidden(T, S, g, j) else 2
    return T.attack_chart[1 if has_all else 0, col, row], strength, d, has_all


@njit(cache=True)
def resolve_attack(T, S, g, ask_hero):
    """8.3: resolve the declared attack on S.target.  Returns ATTACK_DONE, ATTACK_ATTRITION (the
    attrition option waits: P_ATTRITION) or, with ``ask_hero`` when the hero's benefit makes a
    difference once the unit is revealed (8.24: the choice comes after the requirements are
    revealed), ATTACK_HERO (P_HERO_BONUS; finish_attack carries on)."""
    h = S.target[g]
    j = jp_at(T, S, g, h)
    if j >= 0:
        S.jp_attacked[g, j] = True
        f = fort_at(T, S, g, h)
        if f >= 0:
            S.jp_attacked[g, f] = True  # the position is attacked once a phase (8.31)
    for u in range(S.us_loc.shape[1]):
        if S.att_units[g, u]:
            S.us_acted[g, u] = True
    mark_auf(T, S, g, S.att_units[g], -1)
    if j < 0:
        return ATTACK_DONE
    reveal_jp(T, S, g, j)  # step 1
    return finish_attack(T, S, g, HERO_ASK if ask_hero else HERO_DEFAULT)


@njit(cache=True)
def finish_attack(T, S, g, hero_mode):
    """8.3 steps 2-5 of the attack resolve_attack opened.  The hero's benefit as chosen; HERO_ASK:
    stop with ATTACK_HERO at the first reading (the unit revealed, or its depth marker too) where
    the choice makes a difference; finish_attack with the choice then re-reads from there."""
    h = S.target[g]
    j = jp_at(T, S, g, h)
    if j < 0:
        return ATTACK_DONE
    mode = HERO_DEFAULT if hero_mode == HERO_ASK else hero_mode
    res = 0
    for reading in range(4):  # the first reading and up to three after revealing depth (step 3)
        if hero_mode == HERO_ASK and hero_choice_matters(T, S, g, h, j):
            return ATTACK_HERO
        res, strength, defense, has_all = attack_reading(T, S, g, h, j, mode)
        # a unit the result turns face down again (9.1), or an elite one that may withdraw face down
        # (8.33), keeps its strength from the U.S. (eventlog.py)
        hidden = ((res & R_UNREVEAL) != 0 and not T.jp_fort[j]) or (T.jp_elite[j] and not T.jp_tank[j]
                                                                     and not T.opts[OPT_BNR])
        emit(S, g, ev.ATTACK_HIDDEN if hidden else ev.ATTACK, h, j, strength, defense,
             ev.WEAPONS_MET if has_all else ev.WEAPONS_LACKING, res)
        if not res & R_REVEAL_DEPTH or reading == 3:
            break
        reveal_depth_marker(T, S, g, j)
    if res & R_REVEAL_DEPTH:
        res = 0
    comm_ok = False
    if res & R_DEFEAT:
        p = T.hex_pos[h]
        if p >= 0:
            comm = np.empty(T.pos_hex.shape[0], np.bool_)
            jp_communication(T, S, g, night(T, S, g), comm)
            comm_ok = comm[p]
    if res & R_US_DISRUPT:
        for u in range(S.us_loc.shape[1]):
            if S.att_units[g, u] and S.us_loc[g, u] == US_MAP:
                disrupt_us(T, S, g, u, True)
    if res & R_US_STEP:
        u = adjacent_attacker(T, S, g, h)
        if u >= 0:
            lose_step(T, S, g, u, False)  # the unit's own attack: no hero sacrifice (10.15)
    if res & R_DEFEAT and not T.jp_fort[j]:
        elim_jp(T, S, g, j, True, comm_ok)  # 8.33 (19.5: the fortification marker stays)
        return ATTACK_DONE
    if res & R_DEPTH_ELIM:
        remove_depth(T, S, g, j)
    if res & R_JP_DISRUPT:
        disrupt_jp(T, S, g, j)
    if res & R_ADD_DEPTH:
        p = T.hex_pos[h]
        if not has_depth(T, S, g, j) and not T.jp_tank[j] and S.jp_ca[g, j] < 0 and p >= 0:
            comm = np.empty(T.pos_hex.shape[0], np.bool_)
            jp_communication(T, S, g, night(T, S, g), comm)
            if comm[p]:
                give_depth(T, S, g, j, False)
    if res & R_UNREVEAL and not T.jp_fort[j]:  # a revealed fortification stays face up (19.1)
        emit(S, g, ev.FACE_DOWN, j, h)
        S.jp_rev[g, j] = False
        d = S.jp_depth[g, j]
        if d >= 0:
            S.dm_rev[g, d] = False
    if res & R_ATTRITION and has_depth(T, S, g, j) and adjacent_attacker(T, S, g, h) >= 0:
        return ATTACK_ATTRITION
    return ATTACK_DONE


@njit(cache=True)
def adjacent_attacker(T, S, g, h):
    """The adjacent attacking unit to lose a step (default: the most steps, then the lowest number)."""
    best = -1
    for u in range(S.us_loc.shape[1]):
        if S.att_units[g, u] and S.us_loc[g, u] == US_MAP and T.dist[h, S.us_hex[g, u]] == 1 \
                and T.us_type[u] != REG_HQ:
            if best < 0 or S.us_steps[g, u] > S.us_steps[g, best]:
                best = u
    return best


@njit(cache=True)
def attrition(T, S, g, take):
    """8.3 (example 2): the optional attrition: the depth marker and a step of an adjacent attacker."""
    if not take:
        return
    h = S.target[g]
    emit(S, g, ev.ATTRITION, h)
    j = jp_at(T, S, g, h)
    if j >= 0:
        remove_depth(T, S, g, j)
    u = adjacent_attacker(T, S, g, h)
    if u >= 0:
        lose_step(T, S, g, u, False)  # 10.15: not close combat or Japanese fire


# ----------------------------------------------------------------------------------------- barrage
@njit(cache=True)
def barrage(T, S, g, u, marker, h):
    """8.4: a barrage by unit u (or a naval / Dauntless marker) on hex h: a fire card against the
    US Barrage Table (one column left for coral and mountain).  19.4: the results fall on the unit
    and the depth marker in the position whether revealed or not, a fortification marker is never
    defeated, and a reduction result draws a marker (True: the player turns it, P_FORT_ROTATE)."""
    j = jp_at(T, S, g, h)
    if j >= 0:
        S.jp_barraged[g, j] = True
        f = fort_at(T, S, g, h)
        if f >= 0:
            S.jp_barraged[g, f] = True  # the position, whatever is drawn into it (8.43)
    if u >= 0:
        S.us_acted[g, u] = True
        strength = T.us_strength[u, S.us_steps[g, u]]
        sym_mask = 1 << T.us_symbol[u]
    else:
        strength = T.opts[OPT_MARKER_STRENGTH]
        sym_mask = (1 << DIAMOND) if marker == 1 else ((1 << CIRCLE) | (1 << TRIANGLE))  # 8.52
    c = draw(T, S, g, PILE_TRACK)
    if c >= 0 and j < 0:
        emit_barrage(S, g, u, marker, h, strength, c, 0)
    if j < 0 or c < 0:
        return False
    p = T.hex_pos[h]
    colour = colour_of(T, S, g, j)  # a position's, else a counterattack marker's or a tank's (13.44, 13.2)
    if p < 0 and T.opts[OPT_BNR]:
        colour = cave_colour(T, S, g, h)  # Hidden Caves
    cm = T.card_colour[c, 0] == colour or T.card_colour[c, 1] == colour or T.card_colour[c, 2] == colour
    sm = ((1 << T.card_symbol[c]) & sym_mask) != 0
    row = 0 if (cm and sm) else (1 if cm else (2 if sm else 3))
    col = -1
    for k in range(T.barrage_columns.shape[0]):
        if T.barrage_columns[k] <= strength:
            col = k
    if T.t_barrage_left[T.terrain[h]]:
        col -= 1
    if col < 0:
        emit_barrage(S, g, u, marker, h, strength, c, 0)
        return False
    res = T.barrage_table[row, col]
    emit_barrage(S, g, u, marker, h, strength, c, res)
    if res & B_ART_DESTROYED and p >= 0 and T.pos_art[p] and not S.art_gone[g, p]:
        S.art_gone[g, p] = True
        emit(S, g, ev.ART_DESTROYED, h)
    if res & B_DEFEAT and not (T.jp_requires[j] & W_CC) and not T.jp_fort[j]:
        # 8.23: a CC unit falls only in close combat; 19.5: a fortification marker stays
        comm = np.empty(T.pos_hex.shape[0], np.bool_)
        jp_communication(T, S, g, night(T, S, g), comm)
        elim_jp(T, S, g, j, True, p >= 0 and comm[p])
    else:
        if res & (B_DEPTH_ELIM | B_DEFEAT):
            remove_depth(T, S, g, j)
        if res & (B_JP_DISRUPT | B_DEFEAT):
            disrupt_jp(T, S, g, j)
    if res & B_FORT and T.opts[OPT_BNR]:
        return reduce_fort(T, S, g, h)  # 19.4, after the results on what the position holds
    return False


@njit(cache=True)
def emit_barrage(S, g, u, marker, h, strength, c, res):
    """The event log: a barrage by unit u (or marker ``marker``, naval 0 / Dauntless 1) on hex h."""
    if u >= 0:
        emit(S, g, ev.BARRAGE, u, h, strength, c, res)
    else:
        emit(S, g, ev.MARKER_BARRAGE, ev.NAVAL if marker == 0 else ev.DAUNTLESS, h, strength, c, res)


