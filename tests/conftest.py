"""Session set-up shared by every test folder.

Under pytest-xdist the controller compiles each ruleset's numba kernels once, before the workers
start, so the workers load them from numba's cache instead of compiling the same code side by side
(on two cores that doubled the cold-cache test time: 30 min instead of about 15)."""

from __future__ import annotations


def pytest_configure(config):
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return  # a worker, or a run without xdist
    import numpy as np

    from wargym.agents import sample_legal
    from wargym.registry import RULESETS, make_core

    rng = np.random.default_rng(0)
    for ruleset in sorted(RULESETS):
        core = make_core(ruleset)
        state = core.init(2, 0)
        for _ in range(3):
            state = core.step(state, sample_legal(rng, state.legal_action_mask))
        for player in range(len(core.players)):
            core.observe(state, player)
