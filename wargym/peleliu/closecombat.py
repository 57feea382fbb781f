"""Close combat (8.6, 8.7, 8.61-8.66, 12.83, 13.44): a small machine (``start_cc``, ``cc_progress``)
that stops for the U.S. player's choices (the step to lose, 8.6 3b; withdrawing, 8.63) and resumes
after them."""

import numpy as np

from wargym.cards import draw_card, move_card, pile_size, top_card
from wargym.events import emit
from wargym.jit import njit
from wargym.peleliu import eventlog as ev
from wargym.peleliu.bnr import taken
from wargym.peleliu.board import (
    disrupt_jp, disrupt_us, draw, elim_jp, give_depth, has_depth, is_rough, join_fort, jp_at, nearest_us,
    rally_us, remove_depth, reveal_jp, step_loss, us_communication, weapons_of,
)
from wargym.peleliu.forces import night, leave_ca, reveal_depth_marker, tactical_reinforcement
from wargym.peleliu.scenario import (
    CC_CONSCRIPTS, CC_HEROISM, CC_NAVAL_BLAST, CC_REINFORCE, CC_US_FIRE_CA, CC_WITHDRAWAL_HIT, REG_HQ, W_CC, W_FT,
)
from wargym.peleliu.state import (
    CC_CA, CC_JP_ASSAULT, CC_US_INIT, DIS_NEW, HERO, JP_MAP, OPT_MAJOR, P_CC_LOSS, P_CC_RETREAT, P_CC_WITHDRAW,
    PILE_CC_JP, PILE_CC_US, PILE_DECK, PILE_DISCARD, US_MAP,
)
from wargym.peleliu.ties import NO_KEY, TIE_CC_STEP, event_tie


# ------------------------------------------------------------------------------------ close combat
@njit(cache=True)
def start_cc(T, S, g, h, j, kind, colour):
    """8.6 steps 1-2: reveal the Japanese, draw both piles."""
    S.cc_hex[g] = h
    S.cc_jp[g] = j
    S.cc_kind[g] = kind
    S.cc_colour[g] = colour
    S.cc_withdraw[g] = 0
    S.cc_to[g] = -1
    S.cc_tr[g] = 0
    S.cc_hits[g] = 0
    NU = S.us_loc.shape[1]
    reveal_jp(T, S, g, j)
    if S.jp_depth[g, j] >= 0 and not S.dm_rev[g, S.jp_depth[g, j]]:
        reveal_depth_marker(T, S, g, j)
    steps = 0
    ft = False
    hero = False
    for u in range(NU):
        S.cc_units[g, u] = S.us_loc[g, u] == US_MAP and S.us_hex[g, u] == h
        if S.cc_units[g, u]:
            steps += S.us_steps[g, u] if T.us_type[u] != REG_HQ else 1  # 10.22
            if weapons_of(T, S, g, u, 1) & W_FT:
                ft = True
            if S.hero[g, u] == HERO:
                hero = True
            if kind == CC_CA:
                rally_us(T, S, g, u)  # 13.44
    ca = S.jp_ca[g, j] >= 0
    n_us = min(steps, 4) + (1 if ft else 0) + (1 if hero else 0) + (1 if ca else 0)
    n_jp = 1 + (1 if has_depth(T, S, g, j) else 0)
    if kind != CC_US_INIT and not ca:
        n_jp += 1
    st = T.jp_strength[j]
    d = S.jp_depth[g, j]
    if d >= 0:
        st += T.dm_strength[d]
        if T.dm_requires[d] & W_CC:
            n_jp += 1
    elif ca and S.dm_rev[g, S.jp_ca[g, j]]:
        st += T.dm_strength[S.jp_ca[g, j]]
    if st >= 4:
        n_jp += 1
    if T.jp_requires[j] & W_CC:
        n_jp += 1
    if ca and S.dm_rev[g, S.jp_ca[g, j]] and (T.dm_requires[S.jp_ca[g, j]] & W_CC):
        n_jp += 1  # the counterattack marker's depth side lists CC
    if is_rough(T, h) or T.jp_tank[j] or night(T, S, g):
        n_jp += 1
    emit(S, g, ev.CC_BEGINS, h, j, colour, n_us, n_jp, ev.CC_BY_US + kind)  # CC_US_INIT .. CC_OVERRUN
    for _ in range(n_us):
        draw_card(S, S.card_pile, S.card_pos, g, PILE_DECK, PILE_CC_US, PILE_DISCARD)
    for _ in range(n_jp):
        draw_card(S, S.card_pile, S.card_pos, g, PILE_DECK, PILE_CC_JP, PILE_DISCARD)
    S.cc_next[g] = 0
    if ca and us_adjacent(T, S, g, h):
        S.cc_next[g] = 1  # 8.6 counterattack adjustment, 13.44


@njit(cache=True)
def us_adjacent(T, S, g, h):
    for u in range(S.us_loc.shape[1]):
        if S.us_loc[g, u] == US_MAP and T.dist[h, S.us_hex[g, u]] == 1:
            return True
    return False


@njit(cache=True)
def cc_us_left(T, S, g):
    n = 0
    for u in range(S.us_loc.shape[1]):
        if S.cc_units[g, u] and S.us_loc[g, u] == US_MAP and S.us_hex[g, u] == S.cc_hex[g]:
            n += 1
    return n


@njit(cache=True)
def cc_jp_left(T, S, g):
    j = S.cc_jp[g]
    return j >= 0 and S.jp_loc[g, j] == JP_MAP and S.jp_hex[g, j] == S.cc_hex[g]


@njit(cache=True)
def pile_discard_top(T, S, g, pile):
    c = top_card(S.card_pile, S.card_pos, g, pile)
    if c >= 0:
        move_card(S.card_pile, S.card_pos, g, c, PILE_DISCARD, True)
        emit(S, g, ev.CC_DISCARD, ev.JAPANESE if pile == PILE_CC_JP else ev.AMERICAN, c)


@njit(cache=True)
def cc_progress(T, S, g):
    """8.6 steps 3-4 until a U.S. choice is needed (phase set) or the combat ends."""
    for _ in range(64):
        if S.cc_hex[g] < 0 or S.tie_left[g] > 0:
            return  # a tie of a close combat event waits for the player (sequence.progress)
        if S.cc_hits[g] > 0:
            if cc_us_left(T, S, g) == 0:
                S.cc_hits[g] = 0  # nobody left to take them
                continue
            S.phase[g] = P_CC_LOSS  # 8.6 3b: the player removes the step
            return
        if S.cc_withdraw[g] == 3:  # 8.6 3c: after the Japanese card and its losses
            S.cc_withdraw[g] = 0
            if cc_us_left(T, S, g) and cc_jp_left(T, S, g):
                S.phase[g] = P_CC_WITHDRAW
                return
        if not cc_us_left(T, S, g) or not cc_jp_left(T, S, g):
            end_cc(T, S, g)
            return
        n_jp = pile_size(S.card_pile, g, PILE_CC_JP)
        n_us = pile_size(S.card_pile, g, PILE_CC_US)
        if S.cc_withdraw[g] == 2:
            if S.cc_to[g] < 0 and not T.opts[OPT_MAJOR] \
                    and withdrawal_hexes(T, S, g, S.cc_hex[g], np.zeros(T.land.shape[0], np.bool_)) > 0:
                S.phase[g] = P_CC_RETREAT  # 8.63: "then you choose" ("major": end_cc's retreat_hex)
                return
            end_cc(T, S, g)
            return
        side = S.cc_next[g]
        if S.cc_withdraw[g] == 1:
            side = 0
        elif n_jp == 0 and n_us == 0:
            end_cc(T, S, g)
            return
        elif side == 0 and n_jp == 0:
            side = 1
        elif side == 1 and n_us == 0 and not us_disrupted(T, S, g):
            side = 0
        if side == 0:
            jp_card(T, S, g)
            S.cc_next[g] = 1
            if S.cc_withdraw[g] == 1:
                S.cc_withdraw[g] = 2
            else:
                S.cc_withdraw[g] = 3  # the withdrawal option comes after any step lost
        else:
            us_card(T, S, g)
            S.cc_next[g] = 0


@njit(cache=True)
def us_disrupted(T, S, g):
    for u in range(S.us_loc.shape[1]):
        if S.cc_units[g, u] and S.us_loc[g, u] == US_MAP and S.us_dis[g, u] != 0:
            return True
    return False


@njit(cache=True)
def shows(T, c, colour):
    return T.card_colour[c, 0] == colour or T.card_colour[c, 1] == colour or T.card_colour[c, 2] == colour


@njit(cache=True)
def jp_card(T, S, g):
    """8.6 step 3 (and 8.63's extra card for a withdrawal)."""
    c = top_card(S.card_pile, S.card_pos, g, PILE_CC_JP)
    if c < 0:
        c = draw(T, S, g, PILE_DISCARD)
        if c < 0:
            return
    else:
        move_card(S.card_pile, S.card_pos, g, c, PILE_DISCARD, True)
    hit = shows(T, c, S.cc_colour[g])
    event = T.card_cc[c]
    ca = S.jp_ca[g, S.cc_jp[g]] >= 0
    emit(S, g, ev.CC_CARD, ev.JAPANESE, c, (ev.NO_HIT_CA if event == CC_US_FIRE_CA and ca else
                                              (ev.A_HIT if hit else ev.NO_EFFECT)), event)
    if event == CC_US_FIRE_CA and ca:
        hit = False
    elif event != 0:
        cc_event(T, S, g, event, 0)
    if event == CC_WITHDRAWAL_HIT and S.cc_withdraw[g] > 0:
        S.cc_hits[g] += 1
    if hit and cc_jp_left(T, S, g):
        pile_discard_top(T, S, g, PILE_CC_US)
        S.cc_hits[g] += 1


@njit(cache=True)
def us_card(T, S, g):
    """8.6 step 4."""
    if us_disrupted(T, S, g):
        emit(S, g, ev.CC_ROUND, S.cc_hex[g])
        for u in range(S.us_loc.shape[1]):
            if S.cc_units[g, u] and S.us_loc[g, u] == US_MAP:
                rally_us(T, S, g, u)  # 8.65: a round spent removing the disruption
        return
    c = top_card(S.card_pile, S.card_pos, g, PILE_CC_US)
    if c < 0:
        return
    move_card(S.card_pile, S.card_pos, g, c, PILE_DISCARD, True)
    hit = shows(T, c, S.cc_colour[g])
    event = T.card_cc[c]
    j = S.cc_jp[g]
    ca = S.jp_ca[g, j] >= 0
    if S.ev_on[0]:
        outcome = ev.A_HIT if hit else ev.NO_EFFECT
        if event == CC_REINFORCE and hit:
            outcome = ev.OFFSET
        elif event == CC_US_FIRE_CA and ca:
            outcome = ev.HIT_CA
        emit(S, g, ev.CC_CARD, ev.AMERICAN, c, outcome, event)
    if event == CC_REINFORCE and hit:
        return  # 8.7 Reinforce: the hit and the event offset each other
    if event == CC_US_FIRE_CA:
        if ca:
            hit = True
    elif event != 0:
        cc_event(T, S, g, event, 1)
    if hit and cc_jp_left(T, S, g):
        pile_discard_top(T, S, g, PILE_CC_JP)
        if not S.jp_dis[g, j]:
            disrupt_jp(T, S, g, j)
        elif has_depth(T, S, g, j):
            remove_depth(T, S, g, j)
        else:
            elim_jp(T, S, g, j, False, False)


@njit(cache=True)
def cc_event(T, S, g, event, side):
    """8.7: a close combat event from the Japanese (side 0) or the U.S. (side 1) pile."""
    j = S.cc_jp[g]
    if event == CC_CONSCRIPTS:
        if not T.jp_elite[j] and not T.jp_tank[j] and not has_depth(T, S, g, j):
            elim_jp(T, S, g, j, False, False)
    elif event == CC_HEROISM:
        mine = PILE_CC_JP if side == 0 else PILE_CC_US
        other = PILE_CC_US if side == 0 else PILE_CC_JP
        emit(S, g, ev.CC_ADD, ev.JAPANESE if side == 0 else ev.AMERICAN)
        draw_card(S, S.card_pile, S.card_pos, g, PILE_DECK, mine, PILE_DISCARD)
        pile_discard_top(T, S, g, other)
        if side == 0 and not has_depth(T, S, g, j):
            add_cc_depth(T, S, g, j)
    elif event == CC_NAVAL_BLAST:
        c = draw(T, S, g, PILE_DISCARD)
        emit(S, g, ev.CARD_DRAWN, c, ev.FOR_NAVAL_BLAST)
        if c < 0 or not shows(T, c, S.cc_colour[g]):
            return
        NU = S.us_loc.shape[1]
        key = np.full(NU, NO_KEY, np.int64)
        best = -1
        for u in range(NU):
            if S.cc_units[g, u] and S.us_loc[g, u] == US_MAP and T.us_symbol[u] == T.card_symbol[c]:
                key[u] = (10 - S.us_steps[g, u]) * 64 + u  # "the unit with the most steps, then your choice"
                if best < 0 or key[u] < key[best]:
                    best = u
        if best >= 0:
            if not event_tie(T, S, g, key, best, TIE_CC_STEP):
                step_loss(T, S, g, best)
        elif not remove_depth(T, S, g, j):
            elim_jp(T, S, g, j, False, False)
    elif event == CC_REINFORCE:
        emit(S, g, ev.CC_ADD, ev.JAPANESE)
        draw_card(S, S.card_pile, S.card_pos, g, PILE_DECK, PILE_CC_JP, PILE_DISCARD)
        if not has_depth(T, S, g, j):
            add_cc_depth(T, S, g, j)


@njit(cache=True)
def add_cc_depth(T, S, g, j):
    """8.7: a depth marker placed revealed (a counterattack marker flips to its depth side); one
    that reads Tactical Reinforcement leaves play and brings its reserve unit after the combat (9.4,
    reveal_depth_marker)."""
    ca = S.jp_ca[g, j]
    if ca >= 0:
        S.dm_rev[g, ca] = True
        emit(S, g, ev.CA_FLIP, ca, j, ev.TO_DEPTH_SIDE)
    elif not T.jp_tank[j] and give_depth(T, S, g, j, False):
        reveal_depth_marker(T, S, g, j)


@njit(cache=True)
def cc_loss(T, S, g, u):
    """8.6 3b: the chosen participant loses a step (10.15: a hero with a one-step unit dies instead)."""
    step_loss(T, S, g, u)
    S.cc_hits[g] -= 1


@njit(cache=True)
def cc_loss_default(T, S, g):
    """The default choice of the unit losing the step: the most steps, then the lowest number."""
    best = -1
    for u in range(S.us_loc.shape[1]):
        if S.cc_units[g, u] and S.us_loc[g, u] == US_MAP and S.us_hex[g, u] == S.cc_hex[g]:
            if best < 0 or S.us_steps[g, u] > S.us_steps[g, best]:
                best = u
    return best


@njit(cache=True)
def end_cc(T, S, g):
    """8.61-8.63, 8.64, 12.83: the close combat ends; piles back on top of the deck."""
    h = S.cc_hex[g]
    j = S.cc_jp[g]
    us_left = cc_us_left(T, S, g) > 0
    jp_left = cc_jp_left(T, S, g)
    if S.ev_on[0]:
        how = ev.END_BOTH_GONE
        if S.cc_withdraw[g] == 2 and us_left:
            how = ev.END_WITHDRAWN
        elif us_left and jp_left:
            how = ev.END_EXHAUSTED
        elif us_left:
            how = ev.END_JP_GONE
        elif jp_left:
            how = ev.END_US_GONE
        emit(S, g, ev.CC_ENDS, h, how)
        back = pile_size(S.card_pile, g, PILE_CC_JP) + pile_size(S.card_pile, g, PILE_CC_US)
        if back > 0:
            emit(S, g, ev.CC_PILES_BACK, back)
    for c in range(S.card_pile.shape[1]):
        if S.card_pile[g, c] == PILE_CC_JP or S.card_pile[g, c] == PILE_CC_US:
            move_card(S.card_pile, S.card_pos, g, c, PILE_DECK, True)
    kind = S.cc_kind[g]
    NU = S.us_loc.shape[1]
    if S.cc_withdraw[g] == 2 and us_left:
        if jp_left and kind != CC_US_INIT and leaves_the_hex(T, S, g, j, h, kind):
            jp_home(T, S, g, j)  # 12.83, 8.64: back to a position, disrupted
        x = S.cc_to[g] if S.cc_to[g] >= 0 else retreat_hex(T, S, g, h, True)
        for u in range(NU):
            if S.cc_units[g, u] and S.us_loc[g, u] == US_MAP and S.us_hex[g, u] == h:
                if x >= 0:
                    emit(S, g, ev.CC_US_BACK, u, h, x)
                    S.us_hex[g, u] = x
                else:
                    if S.us_dis[g, u] == 0:
                        emit(S, g, ev.DISRUPTED, u)
                    S.us_dis[g, u] = DIS_NEW
    elif us_left and jp_left:
        # 8.62 exhaustion: defenders stay, disrupted; attackers go back, disrupted
        if kind == CC_US_INIT:
            disrupt_jp(T, S, g, j)
            for u in range(NU):  # each toward the hex it entered from ("a land hex or hexes")
                if S.cc_units[g, u] and S.us_loc[g, u] == US_MAP and S.us_hex[g, u] == h:
                    x = nearest_beside(T, S, g, h, S.us_from[g, u], False)
                    if x >= 0:
                        emit(S, g, ev.CC_US_BACK, u, h, x)
                        S.us_hex[g, u] = x
                    disrupt_us(T, S, g, u, True)
        else:
            for u in range(NU):
                if S.cc_units[g, u] and S.us_loc[g, u] == US_MAP:
                    disrupt_us(T, S, g, u, False)
            jp_home(T, S, g, j)
    elif us_left:
        for u in range(NU):  # 8.61: survivors stay, disrupted
            if S.cc_units[g, u] and S.us_loc[g, u] == US_MAP:
                disrupt_us(T, S, g, u, kind == CC_US_INIT)
    elif jp_left:
        disrupt_jp(T, S, g, j)
        if leaves_the_hex(T, S, g, j, h, kind):
            jp_home(T, S, g, j)  # 8.61 exception, 12.83, 8.64
        else:
            S.jp_from[g, j] = -1  # 8.61: the survivors remain in the hex
    if jp_left and S.jp_ca[g, j] >= 0:
        p = T.hex_pos[S.jp_hex[g, j]]
        if p >= 0 and not T.pos_prov[p] and T.pos_beachfire[p]:
            leave_ca(T, S, g, j)
    for _ in range(S.cc_tr[g]):
        tactical_reinforcement(T, S, g, h, False)  # 9.4: after the combat
    taken(T, S, g, h)  # 19.2, 19.5: a fortified hex held solely by U.S. units loses its marker
    for u in range(NU):
        S.cc_units[g, u] = False
    S.cc_hex[g] = -1
    S.cc_jp[g] = -1
    S.cc_withdraw[g] = 0
    S.cc_to[g] = -1
    S.cc_tr[g] = 0
    S.cc_hits[g] = 0


@njit(cache=True)
def leaves_the_hex(T, S, g, j, h, kind):
    """8.61: the Japanese survivors of a close combat remain in its hex h, except, in a hex that is
    no position (nor a provisional one), an assaulting unit (12.83) and a tank (8.64)."""
    p = T.hex_pos[h]
    if p >= 0 and not T.pos_prov[p]:
        return False
    return kind == CC_JP_ASSAULT or T.jp_tank[j]


@njit(cache=True)
def jp_home_hex(T, S, g, j):
    """Where jp_home sends Japanese attacker j: the position it came from (8.62, 12.83); a tank in a
    hex that is no position, or a unit whose position is taken, to the nearest unoccupied position
    (8.64), equidistant ones: the closest to a U.S. unit, then the lowest number (13.2 [R]); -1 for
    none."""
    src = S.jp_from[g, j]
    h = S.jp_hex[g, j]
    p = T.hex_pos[h]
    tank_off = T.jp_tank[j] and (p < 0 or T.pos_prov[p])
    if src >= 0 and jp_at_other(T, S, g, src, j) < 0 and not any_us(T, S, g, src) and not tank_off:
        return src
    best, bk = -1, 0
    for q in range(T.pos_hex.shape[0]):
        x = T.pos_hex[q]
        if T.pos_prov[q] or jp_at_other(T, S, g, x, j) >= 0 or any_us(T, S, g, x):
            continue
        key = T.dist[h, x] * 1000000000 + nearest_us(T, S, g, x) * 10000 + T.pos_num[q] * 10 + T.pos_zone[q]
        if best < 0 or key < bk:
            best, bk = q, key
    return T.pos_hex[best] if best >= 0 else -1


@njit(cache=True)
def jp_home(T, S, g, j):
    """A Japanese attacker goes back, disrupted, to jp_home_hex (BNR: into its fortified position,
    18.35 [A])."""
    disrupt_jp(T, S, g, j)
    x = jp_home_hex(T, S, g, j)
    S.jp_from[g, j] = -1
    if x < 0:
        return
    emit(S, g, ev.CC_JP_BACK, j, S.jp_hex[g, j], x)
    S.jp_hex[g, j] = x
    p = T.hex_pos[x]
    if p >= 0 and S.garrison[g, p]:
        S.garrison[g, p] = False
        emit(S, g, ev.GARRISON_GONE, x)
    join_fort(T, S, g, j, x)


@njit(cache=True)
def attacker_home(T, S, g):
    """The hex a withdrawal's end sends the Japanese attacker back to (end_cc), or -1."""
    j = S.cc_jp[g]
    if not cc_jp_left(T, S, g) or S.cc_kind[g] == CC_US_INIT \
            or not leaves_the_hex(T, S, g, j, S.cc_hex[g], S.cc_kind[g]):
        return -1
    return jp_home_hex(T, S, g, j)


@njit(cache=True)
def jp_at_other(T, S, g, h, j):
    for k in range(S.jp_loc.shape[1]):
        if k != j and S.jp_loc[g, k] == JP_MAP and S.jp_hex[g, k] == h and not T.jp_fort[k]:
            return k  # (a fortification marker is the unit's own position: 18.35 [A])
    return -1


@njit(cache=True)
def any_us(T, S, g, h):
    for u in range(S.us_loc.shape[1]):
        if S.us_loc[g, u] == US_MAP and S.us_hex[g, u] == h:
            return True
    return False


@njit(cache=True)
def open_beside(T, S, g, x, home):
    """8.62, 8.63: U.S. units leaving a close combat may be placed in hex x (a neighbour of the
    combat, -1 off the map): land in play with no Japanese unit, not ``home`` (-1: none)."""
    return x >= 0 and T.in_play[x] and T.land[x] and jp_at(T, S, g, x) < 0 and x != home


@njit(cache=True)
def withdrawal_hexes(T, S, g, h, m):
    """8.63: m[H] = the hexes next to the close combat hex h the withdrawing U.S. units may be placed
    in: open_beside, those from which U.S. communication can be traced when there are any.  Returns
    their count."""
    comm = np.zeros(T.land.shape[0], np.bool_)
    us_communication(T, S, g, comm)
    home = attacker_home(T, S, g)  # the attacker leaves the hex first (end_cc): not that hex
    n, n_comm = 0, 0
    for d in range(6):
        x = T.nbr[h, d]
        if open_beside(T, S, g, x, home):
            n += 1
            if comm[x]:
                n_comm += 1
    for d in range(6):
        x = T.nbr[h, d]
        if open_beside(T, S, g, x, home) and (n_comm == 0 or comm[x]):
            m[x] = True
    return n_comm if n_comm > 0 else n


@njit(cache=True)
def retreat_hex(T, S, g, h, withdrawal):
    """The default hex of 8.63's withdrawal ("then you choose"): nearest_beside the hex the first
    U.S. unit entered the combat from (none when the Japanese attacked: the U.S. defended)."""
    src = -1
    for u in range(S.us_loc.shape[1]):
        if S.cc_units[g, u] and S.us_from[g, u] >= 0 and S.cc_kind[g] == CC_US_INIT:
            src = S.us_from[g, u]
            break
    return nearest_beside(T, S, g, h, src, withdrawal)


@njit(cache=True)
def nearest_beside(T, S, g, h, src, withdrawal):
    """8.62: the land hex next to the combat hex h closest to ``src``, the hex a unit entered from
    (-1: none, the first open direction); 8.63 (``withdrawal``): among the withdrawal hexes
    (withdrawal_hexes: those with U.S. communication when any).  -1 when there is none."""
    allowed = np.zeros(T.land.shape[0], np.bool_)
    if withdrawal:
        withdrawal_hexes(T, S, g, h, allowed)
    best, bk = -1, 0
    for d in range(6):
        x = T.nbr[h, d]
        if not (allowed[x] if withdrawal and x >= 0 else open_beside(T, S, g, x, -1)):
            continue
        key = (T.dist[src, x] if src >= 0 else 0) * 100 + d
        if best < 0 or key < bk:
            best, bk = x, key
    return best
