"""COMBAT COMMANDS: forming, ordering, moving and giving up a combat command.

The book: "At the start of the game the players are allowed to form one or more 'combat Commands'
(each commanded by a commander) ... A Combat Command is composed of one commander and (max) 4 units
(of at least 2 different unit designations) in one or two colours.  To be able to act as a Combat
Command, these units must remain in the ZOC of their commander (his hex and the 6 adjacent).  A
Combat Command is regarded as one unit for movement purposes (but NOT for battling!).  The Combat
Command moves at the speed of its slowest component.  The units ... are never allowed to
voluntarily leave the ZOC of their commander, except under the breakthrough rule ... When one or
more units end up outside the ZOC (due to a forced retreat) ... they are treated as separate units.
A commander commanding a Combat Command may only leave his Combat Command when giving up his
command ... This action is an order and takes one turn.  The inverse process is used to create a
new Combat Command ... When forming a Combat Command the units of the new Command cannot take any
other action (except to defend themselves)."

Interpretations (README): "regarded as one unit for movement" is read as one order moving the
commander and every member in his ZOC (standard cards of a member's colour, "any colour" cards and
the combat command cards order it); each member still battles on its own.  The commander moves
first; a member ends its move in his ZOC (or stays where it is when no hex there is within its
reach), and the commander goes only where every member in his ZOC can follow.  An attached sniper
may be one of the members (one at most: "only count one (attached) sniper").  Giving up the
command, like forming one, spends the commander's order and his members'.
"""

from __future__ import annotations

import numpy as np

from wargym.jit import njit
from wargym.world_at_war.board import UNLIMITED, cc_commander, is_commander, maps, moving_command, reach
from wargym.world_at_war.scenario import K_COMMANDER, K_SNIPER

MAX_MEMBERS = 4


@njit(cache=True)
def picked(T, S, g):
    """(units picked for the command being formed, snipers among them)."""
    n = 0
    snipers = 0
    for u in range(T.p_side.shape[0]):
        if S.form_pick[g, u]:
            n += 1
            if T.c_kind[T.p_card[u]] == K_SNIPER:
                snipers += 1
    return n, snipers


@njit(cache=True)
def may_pick(T, S, g, c, u):
    """Unit u may join commander c's new combat command: his side, in his ZOC, in no other command,
    four at most, one sniper at most, two colours at most."""
    kind = T.c_kind[T.p_card[u]]
    if (u == c or kind == K_COMMANDER or S.p_hex[g, u] < 0 or T.p_side[u] != T.p_side[c] or S.p_cc[g, u] >= 0
            or S.form_pick[g, u] or T.dist[S.p_hex[g, u], S.p_hex[g, c]] > 1):
        return False
    n, snipers = picked(T, S, g)
    if n >= MAX_MEMBERS or (kind == K_SNIPER and snipers > 0):
        return False
    colour = T.p_colour[u]
    if colour < 0:
        return True
    seen0, seen1 = -1, -1
    for v in range(T.p_side.shape[0]):
        if S.form_pick[g, v] and T.p_colour[v] >= 0:
            if seen0 < 0:
                seen0 = T.p_colour[v]
            elif T.p_colour[v] != seen0:
                seen1 = T.p_colour[v]
    return seen1 < 0 or colour == seen0 or colour == seen1


@njit(cache=True)
def may_finish(T, S, g):
    """The picked units make a combat command: at least two, of at least 2 unit designations."""
    first = -1
    for u in range(T.p_side.shape[0]):
        if S.form_pick[g, u]:
            if first < 0:
                first = T.p_card[u]
            elif T.p_card[u] != first:
                return True
    return False


@njit(cache=True)
def may_form(T, S, g, c):
    """Commander c (commanding none, and not one who gave up forming one at the start or this turn)
    has two units of different designations in his ZOC that no other command holds."""
    if not is_commander(T, c) or S.p_hex[g, c] < 0 or S.p_cc[g, c] >= 0 or S.form_declined[g, c]:
        return False
    first = -1
    for u in range(T.p_side.shape[0]):
        if u != c and S.p_hex[g, u] >= 0 and T.p_side[u] == T.p_side[c] and S.p_cc[g, u] < 0 and \
                T.c_kind[T.p_card[u]] != K_COMMANDER and T.dist[S.p_hex[g, u], S.p_hex[g, c]] <= 1:
            if first < 0:
                first = T.p_card[u]
            elif T.p_card[u] != first:
                return True
    return False


@njit(cache=True)
def form(T, S, g, c, in_play):
    """The picked units and commander c become a combat command; formed during play it spends
    their order ("cannot take any other action (except to defend themselves)")."""
    S.p_cc[g, c] = c
    for u in range(T.p_side.shape[0]):
        if S.form_pick[g, u]:
            S.p_cc[g, u] = c
            S.form_pick[g, u] = False
            if in_play:
                S.p_moved[g, u] = True
                S.p_no_battle[g, u] = True
    if in_play:
        S.p_moved[g, c] = True


@njit(cache=True)
def dissolve(T, S, g, c, in_play):
    """The commander gives up his command: its members become separate units (an order: he and his
    members in his ZOC spend it)."""
    for u in range(T.p_side.shape[0]):
        if S.p_cc[g, u] == c:
            if in_play and u != c and cc_commander(T, S, g, u) == c:
                S.p_moved[g, u] = True
                S.p_no_battle[g, u] = True
            S.p_cc[g, u] = -1
            S.p_cc_move[g, u] = -1
    if in_play:
        S.p_moved[g, c] = True


@njit(cache=True)
def orders_command(T, S, g, p, action_orders_command):
    """The piece an order names stands for its whole combat command: its commander or a member in
    his ZOC, named by a card that orders combat commands.  Returns the commander, -1."""
    if not action_orders_command:
        return -1
    return cc_commander(T, S, g, p)


@njit(cache=True)
def waits_for_commander(T, S, g, p):
    """A member ordered with its combat command moves after its commander."""
    c = moving_command(T, S, g, p)
    return c >= 0 and c != p and not S.p_moved[g, c]


@njit(cache=True)
def _following(T, S, g, c, skip, unit_at, leader_at, costs):
    """The members still to follow commander c this turn (ordered with the command, not yet moved,
    not ``skip``): each one's ``reach`` into ``costs[k]``.  Returns how many."""
    k = 0
    for u in range(T.p_side.shape[0]):
        if u != c and u != skip and S.p_cc[g, u] == c and moving_command(T, S, g, u) == c and \
                S.p_hex[g, u] >= 0 and not S.p_moved[g, u] and k < MAX_MEMBERS:
            reach(T, S, g, u, unit_at, leader_at, costs[k])
            k += 1
    return k


@njit(cache=True)
def _all_fit(T, hc, costs, members, taken):
    """Whether each of ``members`` members can end its move on a hex of its own in the ZOC of hex
    ``hc`` (``hc`` and its neighbours; ``costs[k]``: member k's reach), none on ``taken`` (-1: none):
    a matching of at most four members to seven hexes, by trying each in turn."""
    zoc = np.full(7, -1, np.int64)
    zoc[0] = hc
    for d in range(6):
        zoc[d + 1] = T.nbr[hc, d]
    choice = np.full(MAX_MEMBERS, -1, np.int64)
    k = 0
    while 0 <= k < members:
        j = choice[k] + 1
        while j < 7:
            x = zoc[j]
            free = x >= 0 and x != taken and costs[k, x] < UNLIMITED
            for i in range(k):
                if choice[i] == j:
                    free = False
            if free:
                break
            j += 1
        if j < 7:
            choice[k] = j
            k += 1
        else:
            choice[k] = -1
            k -= 1
    return k == members


@njit(cache=True)
def keep_in_zoc(T, S, g, p, m, H):
    """Member p's destinations ``m[:H]``: only hexes in its commander's ZOC ("never allowed to
    voluntarily leave the ZOC of their commander"): his ZOC where he now stands when p moves with
    the command after him, and of those only hexes that leave the members still to follow each a
    hex of his ZOC.  Its own hex when none is left.  Returns how many hexes are left."""
    c = moving_command(T, S, g, p)
    if c < 0:
        c = cc_commander(T, S, g, p)
    n = 0
    if c < 0 or c == p:
        for h in range(H):
            if m[h]:
                n += 1
        return n
    hc = S.p_hex[g, c]
    costs = np.full((MAX_MEMBERS, H), UNLIMITED, np.int64)
    members = 0
    if moving_command(T, S, g, p) == c:
        unit_at, leader_at = maps(T, S, g)
        members = _following(T, S, g, c, p, unit_at, leader_at, costs)
    for h in range(H):
        if m[h] and (T.dist[h, hc] > 1 or not _all_fit(T, hc, costs, members, h)):
            m[h] = False
        if m[h]:
            n += 1
    if n == 0:
        m[S.p_hex[g, p]] = True
        n = 1
    return n


@njit(cache=True)
def commander_destinations(T, S, g, c, m, H, unit_at, leader_at):
    """The ordered commander of a combat command goes only where each member ordered with him
    can follow into a hex of his new ZOC, a hex each (``m[:H]`` filtered): the members' reach is
    worked out with him standing there.  Returns how many hexes are left."""
    start = S.p_hex[g, c]
    costs = np.full((MAX_MEMBERS, H), UNLIMITED, np.int64)
    n = 0
    for h in range(H):
        if not m[h]:
            continue
        S.p_hex[g, c] = h
        here_units, here_leaders = maps(T, S, g)
        members = _following(T, S, g, c, -1, here_units, here_leaders, costs)
        S.p_hex[g, c] = start
        if _all_fit(T, h, costs, members, -1):
            n += 1
        else:
            m[h] = False
    if n == 0:
        m[start] = True
        n = 1
    return n


@njit(cache=True)
def keep_in_zoc_strict(T, S, g, p, free, H):
    """Retreat hexes ``free[:H]`` of a member in its commander's ZOC that keep it there ("the units
    may not leave its commander's ZOC" on a voluntary retreat).  Returns how many are left."""
    c = cc_commander(T, S, g, p)
    n = 0
    for h in range(H):
        if free[h] and c >= 0 and c != p and T.dist[h, S.p_hex[g, c]] > 1:
            free[h] = False
        if free[h]:
            n += 1
    return n
