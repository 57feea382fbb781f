"""The random masked play every ruleset's fuzz test shares.

``play_masked`` plays a batch of games at random among the legal actions until ``decisions``
decisions have been taken, replacing finished games with new ones.  After every step it checks
what every ruleset owes: a live game offers a legal action and a finished one none; now and then
a masked-out action raises IllegalActionError and leaves the state unchanged; a game that stopped
before the decision cap (a dead end) fails with its phase.  The ruleset's own invariants come in
as ``check(before, after)`` (the state before and after each step, before finished games are
replaced) and ``ended(state, game)`` (each game that terminated)."""

from __future__ import annotations

import collections
import dataclasses
from typing import Any, Callable

import numpy as np
import pytest

from wargym import IllegalActionError


def play_masked(core: Any, state: Any, rng: np.random.Generator, *, decisions: int, cap: int, seed: int,
                refuse_every: int, phase_names: tuple[str, ...] | list[str],
                check: Callable[[Any, Any], None], ended: Callable[[Any, int], None],
                choose: Callable[[Any, np.ndarray], np.ndarray] | None = None) -> collections.Counter:
    """Endings counted as "terminated" or "cap".  ``choose(state, actions)`` may replace the
    random actions (e.g. a rule agent for one side); ``seed`` seeds the replacement games."""
    endings: collections.Counter = collections.Counter()
    batch = state.batch_size
    played = 0
    episode = np.arange(batch)
    next_episode = batch
    while played < decisions:
        mask = state.legal_action_mask
        done = state.terminated | state.truncated
        assert (mask.any(axis=1) | done).all(), "a live game without a legal action"
        assert not mask[done].any(), "a finished game with a legal action"
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else -1 for m in mask])
        if choose is not None:
            actions = choose(state, actions)
        if played % refuse_every < batch:   # now and then: a masked-out action is refused, the state unchanged
            g = int(np.flatnonzero(~done)[0])
            wrong = actions.copy()
            wrong[g] = int(np.flatnonzero(~mask[g])[0])
            before = state.copy()
            with pytest.raises(IllegalActionError):
                core.step(state, wrong)
            for f in dataclasses.fields(state):
                assert np.array_equal(getattr(before, f.name), getattr(state, f.name)), f.name
        before = state.copy()
        state = core.step(state, actions)
        played += int((~done).sum())
        check(before, state)
        finished = state.terminated | state.truncated
        for g in np.flatnonzero(finished):
            if state.truncated[g] and state.decisions[g] < cap:
                pytest.fail(f"dead end in phase {phase_names[int(state.phase[g])]!r}")
            if state.terminated[g]:
                ended(state, int(g))
            endings["terminated" if state.terminated[g] else "cap"] += 1
        if finished.any():
            episode[finished] = np.arange(next_episode, next_episode + int(finished.sum()))
            next_episode += int(finished.sum())
            state = core.reset_done(state, seed, episode)
    assert played >= decisions
    return endings
