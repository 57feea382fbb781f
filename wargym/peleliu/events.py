"""The events (2.3, the event descriptions; 9.2, 9.3, 13.4): ``do_event`` carries out the event a
card lists for the turn and returns the decision it leaves to the U.S. player (a phase) or -1.

Ties the descriptions leave to "your choice" are settled by the default: the lowest unit number.
"""

import numpy as np

from wargym.events import emit
from wargym.jit import njit
from wargym.peleliu import eventlog as ev
from wargym.peleliu.bnr import attack_orders, hidden_caves, infiltration_ok
from wargym.peleliu.board import (
    disrupt_jp, disrupt_us, draw, draw_reserve, empty_position, has_depth, jp_at, jp_by_hex, jp_communication, leader,
    nearest_beach, lose_step, nearest_us, place_jp, rally_jp, remove_depth, reveal_jp, step_add_ok, step_loss,
    us_steps_in_hex,
)
from wargym.peleliu.forces import depth_event, reinforcement, reveal_depth_marker_as
from wargym.peleliu.japanese import advance, counterattack_setup, group_fire, us_in_field
from wargym.peleliu.ties import NO_KEY, TIE_CP, TIE_NAVAL, event_tie
from wargym.peleliu.scenario import (
    A_FIRE_ADVANCE, CORAL, E_BLACK_ANGELS, E_COUNTERATTACK, E_CP_FIRE, E_DAUNTLESS, E_DEPTH, E_FORTIFY_CORAL, E_HEAT,
    E_HERO,
    E_JP_INFILTRATION, E_JP_RALLY, E_LOST, E_MINEFIELD, E_NAVAL, E_NAVAL_HITS, E_OBS_PLANE, E_PATROL_REPORT,
    E_REINFORCE, E_SCATTERED, E_SMOKE, E_SUICIDE, E_TANK_ACTION, E_WAR_DOGS, INF, JUNGLE, E_COMMAND_CHANGE,
    E_FLAMETHROWER, E_HIDDEN_CAVES, E_RUPERTUS_ATTACK,
)
from wargym.peleliu.state import (
    JP_MAP, OPT_BNR, OPT_DAUNTLESS_MAX, OPT_HEROES_MAX, OPT_NAVAL_MAX, P_HERO_PLACE, P_REVEAL_PICK,
    P_STEP_ADD, PILE_TRACK, US_MAP,
)

PICK_ADJACENT, PICK_CLOSEST, PICK_PATROL = range(3)  # what P_REVEAL_PICK asks (S.k): 10.17, the ties of
                                                    # Marine war dogs / Observation plane, US Patrol Report


@njit(cache=True)
def do_event(T, S, g, c, t):
    """The event of card c for turn t (0: the BNR event)."""
    event = T.card_event[c, t]
    a0 = T.card_param[c, t, 0]
    sym = T.card_symbol[c]
    if event == E_DEPTH:
        depth_event(T, S, g, max(1, a0))
    elif event == E_REINFORCE:
        reinforcement(T, S, g, max(1, a0))
    elif event == E_NAVAL:
        if S.naval[g] < T.opts[OPT_NAVAL_MAX]:
            S.naval[g] += 1  # 8.54: disregarded when all are held
            emit(S, g, ev.MARKER, ev.NAVAL, S.naval[g])
    elif event == E_DAUNTLESS:
        if S.dauntless[g] < T.opts[OPT_DAUNTLESS_MAX]:
            S.dauntless[g] += 1
            emit(S, g, ev.MARKER, ev.DAUNTLESS, S.dauntless[g])
    elif event == E_JP_RALLY:
        for j in jp_by_hex(S, g):
            if S.jp_loc[g, j] == JP_MAP and S.jp_dis[g, j]:
                p = T.hex_pos[S.jp_hex[g, j]]
                col = T.pos_colour[p] if p >= 0 else T.jp_colour[j]
                for k in range(3):
                    if T.card_param[c, t, k] >= 0 and T.card_param[c, t, k] == col:
                        rally_jp(T, S, g, j)
    elif event == E_TANK_ACTION:
        tank_event(T, S, g, c)
    elif event == E_COUNTERATTACK:
        counterattack_setup(T, S, g)
    elif event == E_HERO:
        if a0 == 1:
            depth_event(T, S, g, 1)
        if S.heroes_placed[g] < T.opts[OPT_HEROES_MAX]:
            for u in range(S.us_loc.shape[1]):
                if S.us_loc[g, u] == US_MAP and S.hero[g, u] == 0:
                    return P_HERO_PLACE
        else:
            for h in range(T.land.shape[0]):
                if reveal_pickable(T, S, g, h):
                    S.k[g] = PICK_ADJACENT
                    return P_REVEAL_PICK
    elif event == E_BLACK_ANGELS or event == E_SCATTERED:
        for u in range(S.us_loc.shape[1]):
            if step_add_ok(T, S, g, u, event == E_SCATTERED):
                S.k[g] = 1 if event == E_SCATTERED else 0
                return P_STEP_ADD
    elif event == E_JP_INFILTRATION:
        infiltration_event(T, S, g)
    elif event == E_HEAT or event == E_LOST or event == E_MINEFIELD:
        disrupt_event(T, S, g, event, sym)
    elif event == E_WAR_DOGS or event == E_OBS_PLANE or event == E_PATROL_REPORT:
        patrol = event == E_PATROL_REPORT
        m = np.zeros(T.land.shape[0], np.bool_)
        n = closest_hidden(T, S, g, patrol, m)
        if n == 1:
            reveal_closest_in(T, S, g, np.argmax(m), patrol)
        elif n > 1:  # "you choose one"
            S.k[g] = PICK_PATROL if patrol else PICK_CLOSEST
            return P_REVEAL_PICK
    elif event == E_FORTIFY_CORAL:
        fortify(T, S, g)
    elif event == E_SUICIDE:
        suicide(T, S, g)
    elif event == E_CP_FIRE:  # "If CPs are equally close to a Japanese unit, you choose" (ties.py)
        NU = S.us_loc.shape[1]
        key = np.full(NU, NO_KEY, np.int64)
        best = -1
        for u in range(NU):
            if S.us_loc[g, u] == US_MAP and S.cp[g, u] >= 0:
                d = 9999
                for j in range(S.jp_loc.shape[1]):
                    if S.jp_loc[g, j] == JP_MAP:
                        d = min(d, T.dist[S.us_hex[g, u], S.jp_hex[g, j]])
                key[u] = d * 64 + u
                if best < 0 or key[u] < key[best]:
                    best = u
        if best < 0 or not event_tie(T, S, g, key, best, TIE_CP):
            S.cp_fire[g] = best
            if best >= 0:
                emit(S, g, ev.CP_FIRE, best)
    elif event == E_SMOKE:
        for k in range(3):
            if T.card_param[c, t, k] >= 0:
                S.smoke[g, T.card_param[c, t, k]] = True
                emit(S, g, ev.SMOKE, T.card_param[c, t, k])
    elif event == E_NAVAL_HITS:
        naval_hits(T, S, g, c, t)
    elif event == E_RUPERTUS_ATTACK:
        attack_orders(T, S, g)
    elif event == E_COMMAND_CHANGE:
        if S.rupertus[g]:
            S.rupertus[g] = False  # 18.32
            emit(S, g, ev.COMMAND_CHANGE)
    elif event == E_FLAMETHROWER:
        if not S.flame[g]:
            S.flame[g] = True  # disregarded when already held
            emit(S, g, ev.FLAMETHROWER, ev.GAINED)
    elif event == E_HIDDEN_CAVES:
        hidden_caves(T, S, g)
    return -1


@njit(cache=True)
def tank_event(T, S, g, c):
    """13.2: every tank performs its default action (fire or advance); the event card's fire
    section gives the target symbol (interpretation)."""
    keep = S.fire_card[g]
    S.fire_card[g] = c
    for j in range(S.jp_loc.shape[1]):
        if S.jp_loc[g, j] != JP_MAP or not T.jp_tank[j] or S.jp_dis[g, j] or S.jp_ca[g, j] >= 0:
            continue
        p = T.hex_pos[S.jp_hex[g, j]]
        if p < 0 or T.pos_prov[p]:
            continue
        f = T.pos_group[p]
        emit(S, g, ev.ACTS, f, A_FIRE_ADVANCE)
        if us_in_field(T, S, g, f, True, False):
            group_fire(T, S, g, f, False, False, False)
        else:
            advance(T, S, g, j)
    S.fire_card[g] = keep


@njit(cache=True)
def infiltration_event(T, S, g):
    """Check for Japanese infiltration: a reserve unit face down in an empty position not in
    Japanese communication, closest to a U.S. unit, then the highest number."""
    comm = np.empty(T.pos_hex.shape[0], np.bool_)
    jp_communication(T, S, g, False, comm)
    best, bk = -1, 0
    for p in range(T.pos_hex.shape[0]):
        if T.pos_prov[p] or comm[p]:
            continue
        x = T.pos_hex[p]
        if not empty_position(T, S, g, p):
            continue
        if T.opts[OPT_BNR] and not infiltration_ok(T, S, g, p):
            continue  # the event's BNR limits
        key = nearest_us(T, S, g, x) * 1000 + (99 - T.pos_num[p])
        if best < 0 or key < bk:
            best, bk = p, key
    if best < 0:
        return
    j = draw_reserve(T, S, g)
    if j >= 0:
        place_jp(T, S, g, j, T.pos_hex[best], False)
        emit(S, g, ev.JP_ENTERS, j, T.pos_hex[best], ev.BY_INFILTRATION_EVENT)


@njit(cache=True)
def disrupt_event(T, S, g, event, sym):
    """Heat exhaustion (the regular infantry unit with the fewest steps), Lost! (an infantry unit in
    jungle, the fewest steps), Minefield (the undisrupted unit with the most steps): then the card's
    symbol, then the farthest from a landing beach hex."""
    best, bk = -1, 0
    for u in range(S.us_loc.shape[1]):
        if S.us_loc[g, u] != US_MAP or T.us_type[u] != INF:
            continue
        h = S.us_hex[g, u]
        s = S.us_steps[g, u]
        if event == E_LOST and T.terrain[h] != JUNGLE:
            continue
        if event == E_MINEFIELD:
            if S.us_dis[g, u] != 0:
                continue
            s = 10 - s
        key = s * 100000 + (0 if T.us_symbol[u] == sym else 1) * 10000 + (999 - nearest_beach(T, h)) * 10
        if best < 0 or key < bk:
            best, bk = u, key
    if best >= 0:
        disrupt_us(T, S, g, best, False)


@njit(cache=True)
def reveal_pickable(T, S, g, h):
    j = jp_at(T, S, g, h)
    if j < 0 or S.jp_rev[g, j]:
        return False
    for d in range(6):
        x = T.nbr[h, d]
        if x >= 0 and us_steps_in_hex(T, S, g, x) > 0:
            return True
    return False


@njit(cache=True)
def reveal_unit(T, S, g, j):
    reveal_unit_as(T, S, g, j, False)


@njit(cache=True)
def reveal_unit_as(T, S, g, j, reinforcement_face_up):
    """Reveal unit j and its depth marker (a Tactical Reinforcement it calls for enters face up
    when ``reinforcement_face_up``: US Patrol Report)."""
    reveal_jp(T, S, g, j)
    d = S.jp_depth[g, j]
    if d >= 0 and not S.dm_rev[g, d]:
        reveal_depth_marker_as(T, S, g, j, reinforcement_face_up)


@njit(cache=True)
def hidden_candidate(T, S, g, j, unrevealed_only):
    """Marine war dogs / Observation plane: a Japanese unit on the map with its unit or depth marker
    face down; US Patrol Report (``unrevealed_only``): a face-down unit, in BNR a face-down
    fortification marker too."""
    if S.jp_loc[g, j] != JP_MAP or (T.jp_fort[j] and not unrevealed_only):
        return False
    if unrevealed_only:
        return not S.jp_rev[g, j]
    d = S.jp_depth[g, j]
    return not S.jp_rev[g, j] or (d >= 0 and not S.dm_rev[g, d])


@njit(cache=True)
def closest_hidden(T, S, g, unrevealed_only, m):
    """m[H] = the hexes of the candidates (hidden_candidate) closest to a U.S. unit: more than one is
    the player's choice (P_REVEAL_PICK).  Returns their count."""
    J = S.jp_loc.shape[1]
    away = np.full(J, -1, np.int64)  # each candidate's distance to the nearest U.S. unit, -1 others
    best = 9999
    for j in range(J):
        if hidden_candidate(T, S, g, j, unrevealed_only):
            away[j] = nearest_us(T, S, g, S.jp_hex[g, j])
            best = min(best, away[j])
    n = 0
    for j in range(J):
        h = S.jp_hex[g, j]
        if away[j] == best and not m[h]:
            m[h] = True
            n += 1
    return n


@njit(cache=True)
def reveal_closest_in(T, S, g, h, unrevealed_only):
    """Reveal the candidate in hex h (a unit before a fortification marker sharing its hex) and its
    depth marker; a Tactical Reinforcement revealed comes in (9.4), face up for the Patrol Report."""
    j = jp_at(T, S, g, h)
    if not hidden_candidate(T, S, g, j, unrevealed_only):
        for i in range(S.jp_loc.shape[1]):
            if S.jp_hex[g, i] == h and hidden_candidate(T, S, g, i, unrevealed_only):
                j = i
                break
    reveal_unit_as(T, S, g, j, unrevealed_only)


@njit(cache=True)
def fortify(T, S, g):
    """Place fortification in Japanese-occupied coral position: closest to a U.S. unit, then the
    lowest number (artillery becomes a requirement: board.jp_requires)."""
    best, bk = -1, 0
    for p in range(T.pos_hex.shape[0]):
        x = T.pos_hex[p]
        if T.terrain[x] != CORAL or S.fort[g, p] or jp_at(T, S, g, x) < 0:
            continue
        key = nearest_us(T, S, g, x) * 1000 + T.pos_num[p] * 4 + T.pos_zone[p]
        if best < 0 or key < bk:
            best, bk = p, key
    if best >= 0:
        S.fort[g, best] = True
        emit(S, g, ev.FORTIFY, T.pos_hex[best])


@njit(cache=True)
def suicide(T, S, g):
    """Suicide Attack: a Japanese unit with depth next to a U.S. unit (closest to a landing beach,
    then next to the most U.S. steps) loses its depth; a fire card showing the U.S. unit's symbol
    costs it a step; the unit is disrupted anyway."""
    best, bk, bh = -1, 0, -1
    for j in range(S.jp_loc.shape[1]):
        if S.jp_loc[g, j] != JP_MAP or not has_depth(T, S, g, j) or T.jp_fort[j]:
            continue
        h = S.jp_hex[g, j]
        most, mh = 0, -1
        for d in range(6):
            x = T.nbr[h, d]
            if x >= 0:
                st = us_steps_in_hex(T, S, g, x)
                if st > most:
                    most, mh = st, x
        if mh < 0:
            continue
        key = nearest_beach(T, h) * 1000 + (99 - most)
        if best < 0 or key < bk:
            best, bk, bh = j, key, mh
    if best < 0:
        return
    u = -1
    for v in range(S.us_loc.shape[1]):
        if S.us_loc[g, v] == US_MAP and S.us_hex[g, v] == bh and not leader(T, v):
            if u < 0 or S.us_steps[g, v] > S.us_steps[g, u]:
                u = v
    if u >= 0:
        emit(S, g, ev.SUICIDE, best, S.jp_hex[g, best], u, bh)
    remove_depth(T, S, g, best)
    if u < 0:
        return
    c = draw(T, S, g, PILE_TRACK)
    emit(S, g, ev.CARD_DRAWN, c, ev.FOR_SUICIDE)
    if c >= 0 and T.card_symbol[c] == T.us_symbol[u]:
        step_loss(T, S, g, u)
    if S.us_loc[g, u] == US_MAP:
        disrupt_us(T, S, g, u, False)


@njit(cache=True)
def naval_hits(T, S, g, c, t):
    """Unexpected US naval fire hits position: a fire card picks one of the three positions by its
    symbol; a Japanese unit there is disrupted and loses its depth; U.S. units there risk a step on
    a second card's symbol (leaders unaffected)."""
    k = draw(T, S, g, PILE_TRACK)
    if k < 0:
        return
    emit(S, g, ev.CARD_DRAWN, k, ev.FOR_NAVAL_POSITION)
    p = T.card_param[c, t, T.card_symbol[k]]
    if p < 0:
        return
    h = T.pos_hex[p]
    emit(S, g, ev.NAVAL_HITS, h)
    j = jp_at(T, S, g, h)
    if j >= 0:
        disrupt_jp(T, S, g, j)
        remove_depth(T, S, g, j)
        return
    if us_steps_in_hex(T, S, g, h) == 0:
        return
    k2 = draw(T, S, g, PILE_TRACK)
    if k2 < 0:
        return
    emit(S, g, ev.CARD_DRAWN, k2, ev.FOR_NAVAL_STEP)
    NU = S.us_loc.shape[1]
    key = np.full(NU, NO_KEY, np.int64)  # "one US unit ... must lose a step": any of them, the player's choice
    best = -1
    for u in range(NU):
        if S.us_loc[g, u] == US_MAP and S.us_hex[g, u] == h and not leader(T, u) \
                and T.us_symbol[u] == T.card_symbol[k2]:
            key[u] = u
            if best < 0:
                best = u
    if best >= 0:
        if not event_tie(T, S, g, key, best, TIE_NAVAL):
            lose_step(T, S, g, best, False)  # U.S. naval fire: no hero sacrifice (10.15)
