"""Determinization (wargym.hidden.sample, ``core.sample_hidden``) on small hand-laid positions: the
hidden facts are dealt uniformly among the assignments consistent with what the viewer has seen
(chi-square, fixed seeds), made from the viewer's view alone, with dice of their own.  The contract
(tests/envs/test_contract.py, ``samples_look_real``) checks every ruleset's samples in mid-game
positions; Attu's hand-laid cases are in tests/attu."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, permutations

import numpy as np
import pytest
from scipy.stats import chisquare

from wargym import contract, make_core, registry
from wargym.hidden import perturb
from wargym.position import Position

SAMPLES = 3_000


def uniform_p(counts: Counter, cells: list) -> float:
    """The chi-square test's p that ``counts`` over ``cells`` (every consistent assignment) come
    from the uniform distribution; a cell never seen counts 0, a count outside ``cells`` fails."""
    assert set(counts) <= set(cells), f"assignments outside the consistent ones: {set(counts) - set(cells)}"
    return float(chisquare([counts.get(c, 0) for c in cells]).pvalue)


def lay_cards(core, state, piles: dict[str, list[int]]):
    """Every card of ``state`` in the discard pile but those named in ``piles`` ({pile: cards in
    order, the first on top}); positions numbered from 0 in each pile."""
    codes = core.codes["card_pile"]
    pile = np.full(state.card_pile.shape[1], codes["discard"], dtype=state.card_pile.dtype)
    pos = np.zeros_like(state.card_pos[0])
    for name, cards in piles.items():
        pile[cards] = codes[name]
        pos[cards] = np.arange(len(cards))
    discards = np.flatnonzero(pile == codes["discard"])
    pos[discards] = np.arange(len(discards))
    state.card_pile[0] = pile
    state.card_pos[0] = pos
    return state


def test_world_at_war_hand_is_dealt_uniformly_from_the_known_remainder():
    """World at War (fog: "the information on the cards is only revealed when they are played"):
    the U.S. holds 5 cards and has seen 33 played or discarded; of the 6 it has not seen, Japan
    holds 4 (its hand) and the deck the other 2.  Every one of the C(6, 4) = 15 Japanese hands is
    as likely (3,000 samples: 200 each expected), each of the 6 cards is on top of the deck as
    often (500 each), and the discards and the U.S. hand never move."""
    core = make_core("world_at_war", scenario="pacific")
    state = core.init(1, seed=0)
    us_hand, unseen = list(range(5)), list(range(5, 11))
    state = core.settle(lay_cards(core, Position(core, state).state,
                                  {"hand us": us_hand, "hand japan": unseen[:4], "deck": unseen[4:]}))
    us = core.players.index("us")
    samples = core.sample_hidden(state, us, seed=1, n=SAMPLES)
    codes = core.codes["card_pile"]
    hands = Counter(tuple(np.flatnonzero(s == codes["hand japan"]).tolist()) for s in samples.card_pile)
    assert uniform_p(hands, list(combinations(unseen, 4))) > 0.01
    deck = samples.card_pile == codes["deck"]
    tops = Counter(int(np.flatnonzero(deck[k] & (samples.card_pos[k] == 0))[0]) for k in range(SAMPLES))
    assert uniform_p(tops, unseen) > 0.01
    assert (samples.card_pile[:, 11:] == codes["discard"]).all()
    assert (samples.card_pile[:, us_hand] == codes["hand us"]).all()


def test_peleliu_4_0_deck_after_known_draws_is_reshuffled_uniformly():
    """Peleliu 4.0 / 8.6: the U.S. player does not know the order of the draw deck.  After the
    draws it has seen (every card but 4 discarded), the 4 left in the deck come in each of their
    4! = 24 orders equally often (3,000 samples: 125 each expected); the discards stay put."""
    core = make_core("peleliu")
    state = core.init(1, seed=0)
    left = [3, 11, 20, 40]
    state = core.settle(lay_cards(core, Position(core, state).state, {"deck": left}))
    samples = core.sample_hidden(state, 0, seed=2, n=SAMPLES)
    deck = samples.card_pile == core.codes["card_pile"]["deck"]
    assert (deck.sum(axis=1) == 4).all()
    orders = Counter(tuple(np.flatnonzero(deck[k])[np.argsort(samples.card_pos[k][deck[k]])].tolist())
                     for k in range(SAMPLES))
    assert uniform_p(orders, [tuple(p) for p in permutations(left)]) > 0.01
    others = np.setdiff1d(np.arange(state.card_pile.shape[1]), left)
    assert (samples.card_pile[:, others] == state.card_pile[0, others]).all()


def test_peleliu_20_1_unrevealed_letters_are_the_letters_not_yet_flipped():
    """Peleliu 20.1 (variable letters): on turn 6 the letters of turns 3 and 5 are face up; those
    of turns 7, 9 and 11 are the other three letters in one of 3! = 6 orders, equally likely."""
    core = make_core("peleliu", variable_letters=True)
    pos = Position(core, seed=0)
    pos.state.letter_order[0] = [2, 5, 1, 4, 3]
    pos.set("turn", 6)
    state = pos.state
    samples = core.sample_hidden(state, 0, seed=3, n=SAMPLES)
    assert (samples.letter_order[:, :2] == [2, 5]).all()
    orders = Counter(tuple(r) for r in samples.letter_order[:, 2:].tolist())
    assert uniform_p(orders, [(1, 3, 4), (1, 4, 3), (3, 1, 4), (3, 4, 1), (4, 1, 3), (4, 3, 1)]) > 0.01


@pytest.mark.parametrize("name", registry.shipped())
def test_samples_come_from_the_view_alone(name):
    """Two positions that differ only in what the viewer may not see give the same samples for the
    same seed (so a planner fed them cannot read a hidden fact), and no sample keeps the game's dice
    key or its forced dice."""
    core = make_core(name)
    rng = np.random.default_rng(4)
    for state in contract.mid_game_states(core, 4, 12, rng=rng):
        for viewer in range(len(core.players)):
            other = perturb(core, state, viewer, rng)
            a, b = core.sample_hidden(state, viewer, 9, 8), core.sample_hidden(other, viewer, 9, 8)
            for field in a.arrays():
                assert np.array_equal(getattr(a, field), getattr(b, field)), field
            assert not (a.rng_key == state.rng_key[0]).all(axis=1).any()
            assert (a.forced_n == 0).all() and (a.forced_pick_n == 0).all()


def test_island_war_hides_only_the_dice():
    """Island War hides nothing on the board (its book has no hidden units): a sample is the
    position itself with dice of its own."""
    core = make_core("island_war")
    state = contract.mid_game_states(core, 5, 1)[0]
    samples = core.sample_hidden(state, 0, seed=5, n=4)
    for field, value in state.arrays().items():
        if field not in ("rng_key", "rng_counter"):
            assert np.array_equal(np.repeat(value, 4, axis=0), getattr(samples, field)), field
    assert len({tuple(k) for k in samples.rng_key.tolist()}) == 4
