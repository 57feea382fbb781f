"""The compiled half shared by every numba core (wargym.kernel): threads and the driver."""

from __future__ import annotations

import dataclasses
import threading

import numba
import numpy as np
import pytest

from wargym.agents.base import joint_actions, make_agent
from wargym.kernel import GameChunks, KernelCore
from wargym.registry import core_class, make_core, shipped

COMPILED = [name for name in shipped() if issubclass(core_class(name), KernelCore)]


def test_chunks_cover_the_batch_and_a_small_batch_stays_on_one_thread():
    chunks = GameChunks(1, lambda: None)
    assert chunks.chunk_size(1000) == 1000  # one thread: one chunk
    two = GameChunks(2, lambda: None)
    assert two.chunk_size(31) == 31 and two.chunk_size(40) == 16 and two.chunk_size(1024) == 128
    seen = np.zeros(1000, dtype=int)

    def kernel(tables, state, lo, hi, out):
        out[lo:hi] += 1

    two.run(kernel, lambda: None, 1000, seen)
    assert (seen == 1).all()


def test_a_thread_that_never_starts_holds_nobody_up():
    """The caller claims every chunk itself when the other thread is busy elsewhere (a busy
    machine): the call returns without waiting for it."""
    two = GameChunks(2, lambda: None)
    gate = threading.Event()
    two._pool.submit(gate.wait)  # the pool's only thread is stuck until the gate opens
    who = []

    def kernel(tables, state, lo, hi):
        who.append(threading.get_ident())

    two.run(kernel, lambda: None, 256)
    assert set(who) == {threading.get_ident()} and len(who) == 8
    gate.set()


def test_sharing_that_does_not_pay_stops_and_is_measured_again():
    """A shared call slower than its chunks' CPU time (the other core busy) turns sharing off;
    one call in PROBE shares again, and once that pays the calls are shared again."""
    two = GameChunks(2, lambda: None)
    assert two.share_now()                      # nothing measured yet: share
    two.judge(wall=1.0, cpu=2.0)                # two threads did 2 s of work in 1 s: it pays
    assert two.ratio == 0.5 and two.share_now()
    two.judge(wall=3.0, cpu=1.0)                # a busy machine: 3 s for 1 s of work
    assert two.ratio == pytest.approx(0.7 * 0.5 + 0.3 * 3.0) and two.ratio > two.PAYS
    decisions = [two.share_now() for _ in range(2 * two.PROBE)]
    assert decisions.count(True) == 2 and decisions[two.PROBE - 1] and decisions[2 * two.PROBE - 1]
    for _ in range(3):
        two.judge(wall=0.5, cpu=1.0)           # the other core is free again
    assert two.ratio < two.PAYS and two.share_now()
    seen = np.zeros(256, dtype=int)

    def kernel(tables, state, lo, hi, out):
        out[lo:hi] += 1

    two.ratio = 10.0                            # while it does not pay, calls run alone and whole
    two.run(kernel, lambda: None, 256, seen)
    assert (seen == 1).all()


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="one CPU")
@pytest.mark.parametrize("name", COMPILED)
def test_two_threads_give_the_same_games_steps_resets_and_observations(name):
    """Games are independent: a batch shared among two threads steps, resets and observes exactly
    as one thread does."""
    one, two = make_core(name), make_core(name, threads=2)
    two.chunks.PAYS = float("inf")  # share every call, however the machine is loaded
    rng = np.random.default_rng(12)
    s1, s2 = one.init(40, seed=12), two.init(40, seed=12)
    for step in range(300):
        a = (rng.random(s1.legal_action_mask.shape) * s1.legal_action_mask).argmax(1)
        s1, s2 = one.step(s1, a), two.step(s2, a)
        if step % 50 == 0:
            done = rng.random(40) < 0.2  # end some games by hand to exercise reset_done
            s1 = one.reset_done(dataclasses.replace(s1, terminated=s1.terminated | done), 3, np.arange(40) + step)
            s2 = two.reset_done(dataclasses.replace(s2, terminated=s2.terminated | done), 3, np.arange(40) + step)
    for field, arr in s1.arrays().items():
        assert np.array_equal(arr, getattr(s2, field)), field
    for player in range(len(one.players)):
        o1, o2 = one.observe(s1, player), two.observe(s2, player)
        assert all(np.array_equal(o1[k], o2[k]) for k in o1)


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="one CPU")
@pytest.mark.parametrize("name", COMPILED)
def test_two_threads_give_the_rule_baselines_the_same_games(name):
    """A rule that decides on the core's threads (Attu's, Peleliu's: run_chunks) takes the same
    action in every game as on one thread, so rule-vs-rule games are the same games."""
    one, two = make_core(name), make_core(name, threads=2)
    two.chunks.PAYS = float("inf")  # share every call, however the machine is loaded
    rules = [make_agent("rule", name, p) for p in one.players]
    s1, s2 = one.init(40, seed=5), two.init(40, seed=5)
    for _ in range(300):
        a1, a2 = joint_actions(one, s1, rules), joint_actions(two, s2, rules)
        assert np.array_equal(a1, a2)
        s1, s2 = one.step(s1, a1), two.step(s2, a2)
    for field, arr in s1.arrays().items():
        assert np.array_equal(arr, getattr(s2, field)), field


@pytest.mark.parametrize("name", COMPILED)
def test_the_mask_kernel_gives_the_masks_the_step_left(name):
    """``refresh`` (the driver's mask kernel) works out, for positions as they stand, the same
    masks and players the step kernel left in them: what from_dict checks records against."""
    core = make_core(name)
    rng = np.random.default_rng(1)
    state = core.init(16, seed=1)
    for _ in range(200):
        state = core.step(state, (rng.random(state.legal_action_mask.shape) * state.legal_action_mask).argmax(1))
        again = core.refresh(state)
        live = ~(state.terminated | state.truncated)
        assert np.array_equal(again.legal_action_mask[live], state.legal_action_mask[live])
        assert np.array_equal(again.current_player[live], state.current_player[live])
