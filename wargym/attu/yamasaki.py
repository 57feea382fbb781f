"""Colonel Yamasaki (11.3): once per game, with four or fewer steps of Japanese Infantry left, the
Japanese player activates every unit of one hex: doubled Movement Points, U.S. ZOCs ignored, and an
enemy-occupied hex may be entered at one extra MP to start a Melee at once, the attackers rolling
before the defensive fire; a win lets the group move on and attack again.

The hex is chosen in YAMA_SELECT (``select``) and the group moves one hex per decision (YAMA_MOVE,
``move``; an assault is a Melee of melee.py), so a researcher's agent chooses the whole path.
Interpretations (README): the steps counted are those of every Japanese Infantry unit not
eliminated, on the map (face-down ones included) or still in the cup, since "reduced to" means
losses (the historical set-up puts all 64 in the cup, so counting the map alone offered
Yamasaki from the first turn); Unknowns of the hex are revealed when it
is activated and join as the Infantry they become; Artillery cannot assault and stays behind; the
group's allowance is twice the smallest allowance among its units (night and rain applied first);
the reversed order holds for every round of the Yamasaki Melee; a U.S. retreat (8.2.1.3) lets the
group into the hex but ends its move, since only an elimination lets it continue.  In solitaire play
13.4 ("Colonel Yamasaki") takes the place of the activation: the Japanese have no player to choose
it (11.0).
"""

from wargym.attu.actions import END
from wargym.attu.board import is_infantry_like, occupancy, side_of
from wargym.attu.events import REVEALED, YAMASAKI
from wargym.attu.fog import has_acted, reveal_unknowns, seen
from wargym.attu.movement import allowance, may_enter_zone
from wargym.attu.scenario import IMPASSABLE, INFANTRY, JAPAN, UNKNOWN, US
from wargym.attu.state import (
    ACT_SELECT, HERO_YAMASAKI, LOC_ELIM, LOC_MAP, LOC_OUT, OPT_HEROES, OPT_SOLITAIRE, YAMA_MOVE,
)
from wargym.attu.victory import update_zones
from wargym.events import emit
from wargym.jit import njit


@njit(cache=True)
def infantry_steps(T, S, g):
    """11.3: steps of Japanese Infantry units left in the game: on the map or still in the cup
    (an Unknown's roll may yet bring them on), not eliminated."""
    n = 0
    for u in range(T.u_side.shape[0]):
        if T.u_side[u] == JAPAN and T.u_type[u] == INFANTRY and S.unit_loc[g, u] != LOC_ELIM \
                and S.unit_loc[g, u] != LOC_OUT:
            n += S.unit_steps[g, u]
    return n


@njit(cache=True)
def may_activate(T, S, g, h):
    """Hex h holds a Japanese unit that may join the assault and has not acted (its Unknowns as
    the lot they are revealed in, fog.has_acted)."""
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == h and side_of(T, S, g, u) == JAPAN \
                and is_infantry_like(T, S, g, u) and not has_acted(T, S, g, u):
            return True
    return False


@njit(cache=True)
def available(T, S, g):
    """The YAMASAKI action is offered: heroes in play, unused, Japan acting, four steps or fewer;
    never in solitaire play, where 13.4 is Colonel Yamasaki's rule (melee.melee_dice)."""
    if not T.opts[OPT_HEROES] or T.opts[OPT_SOLITAIRE] or S.heroes_used[g, HERO_YAMASAKI]:
        return False
    if S.acting[g] != JAPAN:
        return False
    if infantry_steps(T, S, g) > 4:
        return False
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and may_activate(T, S, g, S.unit_hex[g, u]):
            return True
    return False


@njit(cache=True)
def activate(T, S, g, h):
    """Hex h's group: its Unknowns revealed (as Infantry that have acted only if the lot had,
    fog.lot_acted), every unit that may melee and has not acted."""
    S.heroes_used[g, HERO_YAMASAKI] = True
    emit(S, g, YAMASAKI, h)
    reveal_unknowns(T, S, g, h, False)
    mp = 1000
    for u in range(T.u_side.shape[0]):
        S.yama_unit[g, u] = S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == h and \
            side_of(T, S, g, u) == JAPAN and is_infantry_like(T, S, g, u) and not S.acted[g, u]
        if S.yama_unit[g, u]:
            if S.face_down[g, u]:
                emit(S, g, REVEALED, u, h)
            S.face_down[g, u] = False
            seen(S, g, u)
            mp = min(mp, 2 * allowance(T, S, g, u, T.u_move[u]))
    S.yama_mp[g] = mp if mp < 1000 else 0  # the Unknowns may have revealed nobody
    S.sel_hex[g] = h


@njit(cache=True)
def group_size(T, S, g):
    n = 0
    for u in range(T.u_side.shape[0]):
        if S.yama_unit[g, u] and S.unit_loc[g, u] == LOC_MAP:
            n += 1
    return n


@njit(cache=True)
def group_may_enter(T, S, g, b):
    """4.2 and 10.0/15.3 for the whole group entering hex b."""
    others = 0
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] != LOC_MAP:
            continue
        if S.yama_unit[g, u]:
            if not may_enter_zone(T, S, g, u, b):
                return False
        elif S.unit_hex[g, u] == b and side_of(T, S, g, u) == JAPAN and \
                (T.u_type[u] != UNKNOWN or S.captured[g, u]):
            others += 1
    return others + group_size(T, S, g) <= 3


@njit(cache=True)
def step_cost(T, S, g, d, occ):
    """MP to move the group one hex in direction d (11.3.2: +1 into an enemy hex), or -1."""
    a = S.sel_hex[g]
    b = T.nbr[a, d]
    if b < 0 or group_size(T, S, g) == 0:
        return -1
    c = T.cost[JAPAN][a, d]
    if c >= IMPASSABLE:
        return -1
    if occ[b] == US:
        c += 1
        if not T.zoc_reach[a, d]:
            return -1
    elif not group_may_enter(T, S, g, b):
        return -1
    return c if c <= S.yama_mp[g] else -1


@njit(cache=True)
def moves(T, S, g, occ, out):
    """Mark in ``out`` the hexes the group may move or assault into."""
    for d in range(6):
        if step_cost(T, S, g, d, occ) >= 0:
            out[T.nbr[S.sel_hex[g], d]] = True


@njit(cache=True)
def move_group(T, S, g, b):
    for u in range(T.u_side.shape[0]):
        if S.yama_unit[g, u] and S.unit_loc[g, u] == LOC_MAP:
            S.unit_hex[g, u] = b
    S.sel_hex[g] = b


@njit(cache=True)
def finish(T, S, g):
    """The activation ends: the group has acted."""
    for u in range(T.u_side.shape[0]):
        if S.yama_unit[g, u]:
            S.acted[g, u] = True
        S.yama_unit[g, u] = False
    S.yama_mp[g] = 0


# ---------------------------------------------------------------------------------- decisions
@njit(cache=True)
def select(T, S, g, h):
    """YAMA_SELECT (11.3): the Colonel activates the units of hex h."""
    activate(T, S, g, h)
    update_zones(T, S, g)
    S.phase[g] = YAMA_MOVE


@njit(cache=True)
def select_mask(T, S, g, hexes):
    """YAMA_SELECT (11.3): the hexes holding a unit that may join the group."""
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and may_activate(T, S, g, S.unit_hex[g, u]):
            hexes[S.unit_hex[g, u]] = True


@njit(cache=True)
def move(T, S, g, a):
    """YAMA_MOVE (11.3.1): the group moves one hex, paying its MP; END: the activation is over.
    True when the hex holds U.S. units: the group assaults it (11.3.2, ``melee.start_step_melee``)."""
    if a - T.nbr.shape[0] == END:
        finish(T, S, g)
        S.phase[g] = ACT_SELECT
        return False
    occ = occupancy(T, S, g)
    for d in range(6):
        if T.nbr[S.sel_hex[g], d] == a:
            S.yama_mp[g] -= step_cost(T, S, g, d, occ)
            break
    if occ[a] == US:
        return True
    move_group(T, S, g, a)
    update_zones(T, S, g)
    return False


@njit(cache=True)
def move_mask(T, S, g, m):
    """YAMA_MOVE (11.3.1, 11.3.2): the hexes the group may move or assault into, and END."""
    H = T.nbr.shape[0]
    moves(T, S, g, occupancy(T, S, g), m[:H])
    m[H + END] = True
