"""Card decks in the kernels: shuffle, deal, draw, discard, reshuffle; keyed per game, forceable.

A deck of N physical cards lives in two per-game arrays of the ruleset's state::

    card_pile  int8[B, N]    the pile each card is in: the ruleset numbers its piles (draw deck,
                             discard pile, each hand, a card track, close-combat piles ...)
    card_pos   int16[B, N]   its place in that pile, 0 at the bottom, the top card highest

so every card is always in exactly one pile, in one place (the contract's card-conservation
invariant, ``check_deck``).  What a card *is* (its colour, event, values) is scenario data indexed
by the card number.  Which card lies where in the draw deck is hidden from every player, and a
hand from the other players: a ruleset declares both once (``wargym.hidden.Anonymous`` over the
card axis, with ``card_pile`` and ``card_pos`` public), which is what lets the leak test shuffle
a hidden deck and a hidden hand and check that nobody's view changed.

The functions take the state ``S`` (for its dice and forced values), the game ``g`` and the two
arrays (``S.card_pile``, ``S.card_pos`` or a ruleset's second deck), so one state may hold several
decks.  All are O(N) per call.  ``draw_card`` takes a card forced by a test (``core.force``) when
one is queued: the card is taken out of the pile wherever it lies.
"""

from __future__ import annotations

import numpy as np

from wargym.jit import njit
from wargym.rng import take_forced, uniform


@njit(cache=True)
def pile_size(pile, g, p):
    """Cards in pile p of game g."""
    n = 0
    for c in range(pile.shape[1]):
        if pile[g, c] == p:
            n += 1
    return n


@njit(cache=True)
def top_card(pile, pos, g, p):
    """The top card of pile p (-1 when the pile is empty)."""
    best, best_pos = -1, -1
    for c in range(pile.shape[1]):
        if pile[g, c] == p and pos[g, c] > best_pos:
            best, best_pos = c, pos[g, c]
    return best


@njit(cache=True)
def _lift(pile, pos, g, c):
    """Take card c out of its pile, closing the gap."""
    p, k = pile[g, c], pos[g, c]
    for d in range(pile.shape[1]):
        if pile[g, d] == p and pos[g, d] > k:
            pos[g, d] -= 1


@njit(cache=True)
def move_card(pile, pos, g, c, dest, on_top):
    """Card c onto pile ``dest``: on top (``on_top``) or at the bottom."""
    _lift(pile, pos, g, c)
    pile[g, c] = -1
    if on_top:
        pos[g, c] = pile_size(pile, g, dest)
    else:
        for d in range(pile.shape[1]):
            if pile[g, d] == dest:
                pos[g, d] += 1
        pos[g, c] = 0
    pile[g, c] = dest


@njit(cache=True)
def shuffle_pile(S, pile, pos, g, p):
    """Put the cards of pile p in a random order (Fisher-Yates over their places)."""
    n = 0
    order = np.empty(pile.shape[1], dtype=np.int64)
    for c in range(pile.shape[1]):
        if pile[g, c] == p:
            order[n] = c
            n += 1
    for i in range(n - 1, 0, -1):
        j = uniform(S, g, i + 1)
        order[i], order[j] = order[j], order[i]
    for i in range(n):
        pos[g, order[i]] = i


@njit(cache=True)
def reshuffle(S, pile, pos, g, source, deck):
    """Every card of pile ``source`` (the discards) into pile ``deck``, then shuffle the deck."""
    for c in range(pile.shape[1]):
        if pile[g, c] == source:
            move_card(pile, pos, g, c, deck, True)
    shuffle_pile(S, pile, pos, g, deck)


@njit(cache=True)
def draw_card(S, pile, pos, g, deck, dest, refill):
    """The top card of pile ``deck`` onto pile ``dest`` (on top); returns it.  An empty deck is
    first refilled from pile ``refill`` (reshuffled) when ``refill >= 0``; -1 when no card is
    left.  A card forced by a test is drawn instead of the top one (it must be in ``deck``)."""
    forced = take_forced(S, g)
    if forced >= 0:
        if forced >= pile.shape[1] or pile[g, forced] != deck:
            raise ValueError("a forced card is not in the pile drawn from")
        move_card(pile, pos, g, forced, dest, True)
        return forced
    if refill >= 0 and pile_size(pile, g, deck) == 0:
        reshuffle(S, pile, pos, g, refill, deck)
    c = top_card(pile, pos, g, deck)
    if c >= 0:
        move_card(pile, pos, g, c, dest, True)
    return c


@njit(cache=True)
def deal(S, pile, pos, g, deck, dest, count, refill):
    """``count`` cards from the top of ``deck`` onto ``dest``; returns how many were dealt."""
    n = 0
    for _ in range(count):
        if draw_card(S, pile, pos, g, deck, dest, refill) < 0:
            break
        n += 1
    return n


@njit(cache=True)
def new_deck(S, pile, pos, g, deck):
    """Every card into pile ``deck``, shuffled: a deck at the start of a game."""
    for c in range(pile.shape[1]):
        pile[g, c] = deck
        pos[g, c] = c
    shuffle_pile(S, pile, pos, g, deck)


def check_deck(pile: np.ndarray, pos: np.ndarray, piles: int) -> list[str]:
    """The deck invariant for a batch (numpy): every card in a pile 0..piles-1, and the places in
    each pile exactly 0..size-1.  Returns one message per game that breaks it."""
    errors = []
    for g in range(pile.shape[0]):
        if ((pile[g] < 0) | (pile[g] >= piles)).any():
            c = int(np.flatnonzero((pile[g] < 0) | (pile[g] >= piles))[0])
            errors.append(f"game {g}: card {c} is in pile {int(pile[g, c])}, not one of 0..{piles - 1}")
            continue
        for p in range(piles):
            places = np.sort(pos[g][pile[g] == p])
            if not np.array_equal(places, np.arange(len(places))):
                errors.append(f"game {g}: pile {p} holds places {places.tolist()}, not 0..{len(places) - 1}")
                break
    return errors
