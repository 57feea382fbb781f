"""Fog of war (2.5, 3.9, 9.5): who sees what, Unknown units revealed into Infantry, and hiding.

Who sees what, declared once (``HIDDEN``, wargym.hidden) and read by observe, render and the rule
agents through ``hidden_from``:

* 2.5: the U.S. does not know which Japanese counter is which while it is face-down or off the
  map (the Unknowns and Infantry in the pool, the Infantry eliminated): it sees where the
  counters stand and what they do, not what they are;
* 12.1: the Komandorski Effect chit until its reveal, the Delay chit until its own;
* 14.0: the victory point chits until the end of the game.

What the U.S. remembers (``us_knows``, README "What the U.S. remembers"): a Japanese counter it
has seen face up on the map, or a gun it saw set up (12.3 lists their hexes; 12.4's and 13.2.1's
are placed in its sight), stays known to it while it stays on the map, face down again or not
(2.5, 3.9, 9.5 hide the counter, not the memory), and when it goes to the eliminated pile (8.5);
it is forgotten when the counter goes back into the cup (9.6's swap), where the U.S. cannot
follow it.  Such a counter is no longer anonymous to the U.S. (``HIDDEN``'s ``Anonymous``): its
view names it (``redact``), its event texts too, and the states it may imagine keep it
(``core.sample_hidden``); ``hidden_from``, read by the observation and the boards, still hides it
as it did (trained policies see what they saw).

* 2.5: when Unknowns fire, melee or are attacked in melee, every Unknown in the hex is removed and
  one die is rolled on one table for the lot, giving 1-3 Infantry drawn at random from the off-map
  pool, placed face-up.  The Japanese choice of table is made by the default: the table with the
  most Infantry on average (interpretation: the choice comes before the roll, so that is the best).
  Fewer units come when the pool or the stacking limit (4.2) runs short.
* 2.5 / 8.2 / 3.5: what the counters of the lot decided passes to the Infantry it becomes
  (``lot_declaration``, ``lot_acted``): a Melee one of them declared is the lot's (the units of a
  hex that declare name one hex, 8.2, and "must attack if at all possible"), unless the lot is the
  one attacked (8.2: that ends its own Melee); the lot has acted when one of them declared Melee
  or every one of them has acted, so Infantry from Unknowns still to act may act (11.3: they join
  Colonel Yamasaki).
* 13.2 (solitaire): an Unknown on a Victory Hex gives three Infantry without a roll, drawing from
  the eliminated units when the pool has fewer than three.
* 15.1/15.2: in the short scenarios a revealed Unknown is eliminated instead of going off-map.
* 2.5, 3.9 / 9.5: the Japanese flip units back to their hidden side; the flip can only help them,
  so it is always taken (interpretation: no decision is asked).  2.5's "as soon as a revealed unit
  is no longer in the Line of Sight of a U.S. unit" is checked between any two events of the game
  (``hide_unseen``, from the driver's progress hook): a U.S. unit sees a hex next to it, or one in
  its Line of Sight within the Spotting Distance of the weather (8.1.1, 8.1.2; interpretation: LOS
  beyond the Spotting Distance cannot be traced, and a neighbour is always seen, even in a
  Williwaw).  3.9 and 9.5 hide by their own wider tests (not in a U.S. ZOC; not next to a U.S.
  unit nor in or next to a Landing Zone).
"""

import numpy as np

from wargym.attu.board import roll, side_of, spots
from wargym.attu.events import (
    FACE_DOWN, INFANTRY_APPEARS, P_UNKNOWN_TABLE, R_NO_ZOC, R_REFIT_TURN, R_UNSEEN, UNKNOWNS_REVEALED,
)
from wargym.attu.scenario import INFANTRY, JAPAN, UNKNOWN, US
from wargym.attu.state import (
    LOC_ELIM, LOC_MAP, LOC_OUT, LOC_RESERVE, NO_CHIT, OPT_SOLITAIRE, OPT_UNKNOWNS_SINGLE_USE,
)
from wargym.events import emit
from wargym.hidden import Anonymous, Secret
from wargym.jit import njit
from wargym.rng import uniform


# ------------------------------------------------------------------------------- who sees what
@njit(cache=True)
def hidden_from(T, S, g, u, viewer):
    """2.5: ``viewer`` may not know which counter unit u is: a Japanese counter in play that the
    U.S. does not see face up on the map."""
    return viewer == US and T.u_side[u] == JAPAN and T.u_in_play[u] and \
        not (S.unit_loc[g, u] == LOC_MAP and not S.face_down[g, u])


@njit(cache=True)
def hidden_batch(T, S, viewer, out):
    for g in range(out.shape[0]):
        for u in range(out.shape[1]):
            out[g, u] = hidden_from(T, S, g, u, viewer)


def hidden_units(core, state, viewer: int) -> np.ndarray:
    """bool[B, U]: ``hidden_from`` for every unit of every game."""
    out = np.zeros(state.unit_loc.shape, dtype=np.bool_)
    hidden_batch(core.tables, core.kernel_state(state), viewer, out)
    return out


def anonymous_units(core, state, viewer: int) -> np.ndarray:
    """bool[B, U]: the counters ``viewer`` cannot tell apart (``HIDDEN``'s ``Anonymous``): those
    ``hidden_from`` it, less the ones the U.S. remembers (``us_knows``) and the guns left out of
    the game at the set-up (15.x, 13.2.1: by the rules' own test of their set-up hexes, which
    the U.S. can make too)."""
    return hidden_units(core, state, viewer) & ~state.us_knows & (state.unit_loc != LOC_OUT)


@njit(cache=True)
def note_seen(T, S, g):
    """``us_knows`` kept up between any two events (from the driver's progress hook, before
    ``hide_unseen``): a Japanese counter face up on the map is known to the U.S.; one that is
    neither on the map nor in the eliminated pile (the cup: 9.6's swap) is forgotten.  The rules
    that turn a counter face up or put it where it is known mark it at once too (``seen``), so a
    step that ends the game leaves the memory as the rules made it."""
    for u in range(T.u_side.shape[0]):
        if T.u_side[u] != JAPAN:
            continue
        loc = S.unit_loc[g, u]
        if loc == LOC_MAP and not S.face_down[g, u]:
            S.us_knows[g, u] = True
        elif loc != LOC_MAP and loc != LOC_ELIM:
            S.us_knows[g, u] = False


@njit(cache=True)
def seen(S, g, u):
    """The U.S. has seen Japanese counter u face up (2.5) or set up in its sight: it knows it."""
    S.us_knows[g, u] = True


def _chits(field: str):
    """14.0: the chits of ``field`` on the Victory Hexes that have one, while the game runs."""
    def when(core, state, viewer: int) -> np.ndarray:
        running = ~(state.terminated | state.truncated) & bool(core.options["vp_chits"])
        return running[:, None] & (getattr(state, field) != NO_CHIT)
    return when


HIDDEN = (
    # 13.2.1, 13.2.2: which Unknown may not move (``pinned``) and which Infantry only fire until
    # engaged (``ad_hoc``) are the U.S. player's own doing in solitaire play; what the U.S.
    # remembers (``us_knows``) is its own
    Anonymous("U", ("us",), anonymous_units,
              public=("unit_hex", "unit_loc", "face_down", "acted", "melee_target", "fought", "loss_pool",
                      "mel_att", "pre_steps", "unit_steps", "pinned", "ad_hoc", "us_knows"),
              refs=("selected", "mel_arnold", "soft_unit"),
              # 8.5: an Unknown that melts away goes back to the cup, an Infantry hit goes to the
              # eliminated pile (with no step left); the U.S. sees a counter leave the map either
              # way (README)
              seen_as=(("unit_loc", LOC_ELIM, LOC_RESERVE), ("unit_steps", 0, 1))),
    # 8.5: the flag that an Unknown of the attack already melted away says which counter was hit;
    # only the Japanese allocate Japanese losses (8.0, 8.1.6), so only they need it
    Secret("loss_unknown_done", ("us",)),
    # 12.1.1, 12.1.2: one chit of each mix drawn (setup.draw_chits); 14.0: one chit of the mix for
    # each Victory Hex, without replacement (the pool: what a determinization deals them from)
    Secret("ke_effect", ("us",), when=lambda core, state, viewer: state.ke_revealed == 0,
           values=lambda core: core.scenario.effect_chits, pool=lambda core: core.scenario.effect_chits),
    Secret("ke_delay", ("us",), when=lambda core, state, viewer: state.ke_revealed < 2,
           values=lambda core: core.scenario.delay_chits, pool=lambda core: core.scenario.delay_chits),
    Secret("vp_value", ("us",), when=_chits("vp_value"), values=lambda core: core.scenario.vp_value_chits,
           pool=lambda core: core.scenario.vp_value_chits),
    Secret("vp_cancel", ("us",), when=_chits("vp_cancel"), values=lambda core: core.scenario.vp_cancel_chits,
           pool=lambda core: core.scenario.vp_cancel_chits),
)


@njit(cache=True)
def pool_size(T, S, g, loc):
    """How many Japanese Infantry units are at ``loc`` (the off-map pool, the eliminated units)."""
    n = 0
    for u in range(T.u_side.shape[0]):
        if T.u_side[u] == JAPAN and T.u_type[u] == INFANTRY and S.unit_loc[g, u] == loc:
            n += 1
    return n


@njit(cache=True)
def pool_draw(T, S, g, loc):
    """A Japanese Infantry unit drawn at random from those at ``loc`` (the off-map pool, or the
    eliminated units for 13.2), or -1."""
    n = pool_size(T, S, g, loc)
    if n == 0:
        return -1
    k = uniform(S, g, n)
    for u in range(T.u_side.shape[0]):
        if T.u_side[u] == JAPAN and T.u_type[u] == INFANTRY and S.unit_loc[g, u] == loc:
            if k == 0:
                return u
            k -= 1
    return -1


@njit(cache=True)
def place_engaged(S, g, u, h, acted):
    """Infantry u from the cup into hex h face-up, as units that appear in a fight do (2.5, 13.3);
    ``acted``: whether it has taken its action this step (3.5)."""
    emit(S, g, INFANTRY_APPEARS, u, h)
    S.unit_loc[g, u] = LOC_MAP
    S.unit_hex[g, u] = h
    S.unit_steps[g, u] = 1
    S.face_down[g, u] = False
    S.acted[g, u] = acted
    seen(S, g, u)


@njit(cache=True)
def is_unknown_in(T, S, g, u, h):
    return S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == h and T.u_type[u] == UNKNOWN \
        and not S.captured[g, u]


@njit(cache=True)
def lot_declaration(T, S, g, h):
    """8.2 / 2.5: the hex the Unknowns of hex h have declared Melee against, or -1.  They are
    revealed as one lot, and the units of a hex that declare all name one hex (8.2), so the
    declaration of any one of them is the lot's."""
    for u in range(T.u_side.shape[0]):
        if is_unknown_in(T, S, g, u, h) and S.melee_target[g, u] >= 0:
            return S.melee_target[g, u]
    return -1


@njit(cache=True)
def lot_acted(T, S, g, h):
    """3.5 / 2.5: the lot of Unknowns in hex h has taken its action: one of them declared Melee
    (the lot is bound to it, 8.2), or every one of them has acted."""
    for u in range(T.u_side.shape[0]):
        if is_unknown_in(T, S, g, u, h) and not S.acted[g, u]:
            return lot_declaration(T, S, g, h) >= 0
    return True


@njit(cache=True)
def has_acted(T, S, g, u):
    """3.5: unit u has taken its action this step; an Unknown answers for its hex's lot, which is
    revealed into Infantry as one (``lot_acted``)."""
    if T.u_type[u] == UNKNOWN and not S.captured[g, u] and S.unit_loc[g, u] == LOC_MAP:
        return lot_acted(T, S, g, S.unit_hex[g, u])
    return S.acted[g, u]


@njit(cache=True)
def reveal_unknowns(T, S, g, h, defending):
    """2.5: replace every Unknown in hex h by Infantry; returns how many Infantry appeared.  The
    Infantry take over the lot's Melee declaration, unless the lot is ``defending`` (attacked in
    Melee, 8.2), and whether it has acted (``lot_declaration``, ``lot_acted``)."""
    found = False
    for u in range(T.u_side.shape[0]):
        if is_unknown_in(T, S, g, u, h):
            found = True
    if not found:
        return 0
    target = -1 if defending else lot_declaration(T, S, g, h)
    acted = lot_acted(T, S, g, h)
    best, best_sum, lot = 0, -1, 0
    for u in range(T.u_side.shape[0]):
        if T.u_type[u] == UNKNOWN and S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == h:
            lot += 1
            s = 0
            for i in range(10):
                s += T.u_table[u, i]
            if s > best_sum:
                best, best_sum = u, s
    emit(S, g, UNKNOWNS_REVEALED, h, lot, best)
    victory_hex = False
    for z in range(6):
        if T.victory_hex[z] == h:
            victory_hex = True
    if T.opts[OPT_SOLITAIRE] and victory_hex:
        count = 3  # 13.2
    else:
        count = T.u_table[best, roll(S, g, P_UNKNOWN_TABLE) - 1]
    for u in range(T.u_side.shape[0]):
        if T.u_type[u] == UNKNOWN and S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == h:
            S.unit_loc[g, u] = LOC_ELIM if T.opts[OPT_UNKNOWNS_SINGLE_USE] else LOC_RESERVE
            # 2.5: flipped to its table side in the U.S.'s sight; 15.x: then eliminated, known there
            # (the cup, where it goes in the campaign, it cannot follow)
            S.us_knows[g, u] = T.opts[OPT_UNKNOWNS_SINGLE_USE] != 0
            S.pinned[g, u] = False
            S.unit_hex[g, u] = -1
            S.melee_target[g, u] = -1
    room = 3
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and S.unit_hex[g, u] == h and side_of(T, S, g, u) == JAPAN:
            room -= 1
    placed = 0
    for _ in range(min(count, room)):
        v = pool_draw(T, S, g, LOC_RESERVE)
        if v < 0 and T.opts[OPT_SOLITAIRE] and victory_hex:
            v = pool_draw(T, S, g, LOC_ELIM)
        if v < 0:
            break
        place_engaged(S, g, v, h, acted)
        S.melee_target[g, v] = target
        placed += 1
    return placed


@njit(cache=True)
def hide_unseen(T, S, g):
    """2.5: a face-up Japanese unit that no U.S. unit sees (module docstring) goes face down.
    Called between any two events, so it first looks for a face-up unit at all."""
    U = T.u_side.shape[0]
    up = 0
    for u in range(U):
        if T.u_side[u] == JAPAN and S.unit_loc[g, u] == LOC_MAP and not S.face_down[g, u] and not S.captured[g, u]:
            up += 1
    if up == 0:
        return
    watchers = np.empty(U, dtype=np.int64)  # the hexes of U.S. units
    n = 0
    for v in range(U):
        if S.unit_loc[g, v] == LOC_MAP and side_of(T, S, g, v) == US:
            watchers[n] = S.unit_hex[g, v]
            n += 1
    for u in range(U):
        if T.u_side[u] != JAPAN or S.unit_loc[g, u] != LOC_MAP or S.face_down[g, u] or S.captured[g, u]:
            continue
        h = S.unit_hex[g, u]
        seen_now = False
        for i in range(n):
            a = watchers[i]
            if T.dist[a, h] <= 1 or spots(T, S, g, a, h):
                seen_now = True
                break
        if not seen_now:
            S.face_down[g, u] = True
            S.us_knows[g, u] = True  # it was face up: the U.S. remembers it (README)
            emit(S, g, FACE_DOWN, u, h, R_UNSEEN)


@njit(cache=True)
def hide_units(T, S, g, refit_turn):
    """Flip Japanese units to their hidden side: at 3.9 those not in a U.S. ZOC; in a Refit Turn
    (9.5) those not adjacent to U.S. units nor in or adjacent to a Landing Zone."""
    H = T.nbr.shape[0]
    watched = np.zeros(H, dtype=np.bool_)
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and side_of(T, S, g, u) == US:
            h = S.unit_hex[g, u]
            watched[h] = True
            for d in range(6):
                n = T.nbr[h, d]
                if n >= 0 and (refit_turn or T.zoc_reach[h, d]):
                    watched[n] = True
    for u in range(T.u_side.shape[0]):
        if S.unit_loc[g, u] == LOC_MAP and side_of(T, S, g, u) == JAPAN and not S.captured[g, u]:
            h = S.unit_hex[g, u]
            if not watched[h] and not (refit_turn and T.near_lz[h]) and not S.face_down[g, u]:
                S.face_down[g, u] = True
                S.us_knows[g, u] = True  # it was face up: the U.S. remembers it (README)
                emit(S, g, FACE_DOWN, u, h, R_REFIT_TURN if refit_turn else R_NO_ZOC)
