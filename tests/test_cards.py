"""Dice and card decks in the kernels (wargym.rng, wargym.cards): keyed per game, forceable,
and every card always in exactly one pile."""

from __future__ import annotations

from collections import namedtuple

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from numba import njit

from wargym import cards
from wargym.rng import FORCED_MAX, game_keys, roll, shuffle, uniform

Dice = namedtuple("Dice", ["rng_key", "rng_counter", "forced", "forced_n", "forced_pick", "forced_pick_n"])
DECK, DISCARD, HAND = 0, 1, 2
N = 54  # Peleliu's deck


def dice(keys) -> Dice:
    b = len(keys)
    return Dice(np.asarray(keys, np.uint64), np.zeros(b, np.uint32), np.zeros((b, FORCED_MAX), np.int16),
                np.zeros(b, np.int8), np.zeros((b, FORCED_MAX), np.int16), np.zeros(b, np.int8))


def force(S: Dice, g: int, values) -> None:
    S.forced[g, :len(values)] = values
    S.forced_n[g] = len(values)


def deck(b: int, seed: int = 0):
    S = dice(game_keys(seed, b))
    pile, pos = np.zeros((b, N), np.int8), np.zeros((b, N), np.int16)
    for g in range(b):
        cards.new_deck(S, pile, pos, g, DECK)
    return S, pile, pos


@njit(cache=True)
def _rolls(S, g, n, sides, out):
    for i in range(n):
        out[i] = roll(S, g, sides)


def test_a_forced_die_comes_first_then_the_games_own_dice():
    S = dice(game_keys(1, 2))
    force(S, 0, [6, 1])
    out0, out1 = np.zeros(4, np.int64), np.zeros(4, np.int64)
    _rolls(S, 0, 4, 6, out0)
    _rolls(S, 1, 4, 6, out1)
    assert out0[:2].tolist() == [6, 1] and S.forced_n[0] == 0
    again = dice(game_keys(1, 2))
    _rolls(again, 0, 2, 6, out1)  # the unforced dice of game 0 are its first two: the queue used none
    assert out0[2:].tolist() == out1[:2].tolist()


def test_a_deck_starts_as_a_permutation_and_a_game_gets_its_deck_in_any_batch():
    S, pile, pos = deck(7, seed=3)
    assert (pile == DECK).all() and all(sorted(pos[g]) == list(range(N)) for g in range(7))
    alone_S, alone_pile, alone_pos = deck(1, seed=3)
    assert np.array_equal(alone_pos[0], pos[0])
    assert not np.array_equal(pos[0], pos[1])


def test_draw_deal_discard_and_reshuffle_keep_every_card_in_one_pile():
    S, pile, pos = deck(1)
    top = cards.top_card(pile, pos, 0, DECK)
    assert cards.draw_card(S, pile, pos, 0, DECK, HAND, -1) == top and pile[0, top] == HAND
    assert cards.deal(S, pile, pos, 0, DECK, HAND, 5, -1) == 5 and cards.pile_size(pile, 0, HAND) == 6
    for c in np.flatnonzero(pile[0] == HAND):
        cards.move_card(pile, pos, 0, c, DISCARD, True)
    assert cards.pile_size(pile, 0, DISCARD) == 6 and cards.check_deck(pile, pos, 3) == []
    while cards.draw_card(S, pile, pos, 0, DECK, HAND, -1) >= 0:  # the deck runs out ...
        pass
    assert cards.pile_size(pile, 0, DECK) == 0 and cards.pile_size(pile, 0, HAND) == N - 6
    c = cards.draw_card(S, pile, pos, 0, DECK, HAND, DISCARD)  # ... and is refilled from the discards
    assert c >= 0 and cards.pile_size(pile, 0, DECK) == 5 and cards.pile_size(pile, 0, DISCARD) == 0
    assert cards.check_deck(pile, pos, 3) == []


def test_a_card_returned_to_the_top_is_drawn_next_and_one_to_the_bottom_last():
    """Peleliu 8.6: undrawn close-combat cards go back on top of the deck."""
    S, pile, pos = deck(1)
    a = cards.draw_card(S, pile, pos, 0, DECK, HAND, -1)
    b = cards.draw_card(S, pile, pos, 0, DECK, HAND, -1)
    cards.move_card(pile, pos, 0, a, DECK, True)
    cards.move_card(pile, pos, 0, b, DECK, False)
    assert cards.draw_card(S, pile, pos, 0, DECK, HAND, -1) == a
    order = np.argsort(pos[0][pile[0] == DECK])
    assert np.flatnonzero(pile[0] == DECK)[order[0]] == b


def test_a_forced_card_is_drawn_from_wherever_it_lies_and_must_be_in_the_deck():
    S, pile, pos = deck(1)
    bottom = int(np.argmin(pos[0]))
    force(S, 0, [bottom])
    assert cards.draw_card(S, pile, pos, 0, DECK, HAND, -1) == bottom and cards.check_deck(pile, pos, 3) == []
    force(S, 0, [bottom])  # now in the hand
    with pytest.raises(ValueError, match="not in the pile"):
        cards.draw_card(S, pile, pos, 0, DECK, HAND, -1)


def test_shuffle_is_a_uniform_permutation():
    counts = np.zeros((4, 4))
    S = dice(game_keys(0, 4000))
    for g in range(4000):
        items = np.arange(4)
        shuffle(S, g, items)
        counts[np.arange(4), items] += 1
    assert np.all(np.abs(counts / 1000 - 1) < 0.15)  # each item in each place about a quarter of the time


@settings(max_examples=40, deadline=None)
@given(ops=st.lists(st.tuples(st.integers(0, 4), st.integers(0, N - 1)), max_size=60), seed=st.integers(0, 10**6))
def test_any_sequence_of_deck_operations_keeps_the_deck_whole(ops, seed):
    S, pile, pos = deck(1, seed)
    for op, c in ops:
        if op == 0:
            cards.draw_card(S, pile, pos, 0, DECK, HAND, DISCARD)
        elif op == 1:
            cards.move_card(pile, pos, 0, c, DISCARD, True)
        elif op == 2:
            cards.move_card(pile, pos, 0, c, DECK, bool(c % 2))
        elif op == 3:
            cards.reshuffle(S, pile, pos, 0, DISCARD, DECK)
        else:
            cards.shuffle_pile(S, pile, pos, 0, HAND)
        assert cards.check_deck(pile, pos, 3) == []
    assert uniform(S, 0, 5) in range(5)


def test_a_forced_pick_is_taken_first_by_the_next_uniform_draw_and_one_past_the_draw_is_refused():
    """core.force(..., picks=): the next random picks (a cup, a marker, a step of a shuffle) are
    the indices given, in order; then the game's own draws go on where they were."""
    S = dice(game_keys(4, 1))
    S.forced_pick[0, :2] = [2, 0]
    S.forced_pick_n[0] = 2
    assert [uniform(S, 0, 5), uniform(S, 0, 3)] == [2, 0]
    assert S.forced_pick_n[0] == 0 and S.rng_counter[0] == 0       # no draw of the game's own was used
    own = uniform(S, 0, 6)
    assert 0 <= own < 6 and S.rng_counter[0] == 1
    S.forced_pick[0, 0] = 7
    S.forced_pick_n[0] = 1
    with pytest.raises(ValueError, match="forced pick"):
        uniform(S, 0, 4)
