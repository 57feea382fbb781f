"""Session set-up shared by every test folder.

Under pytest-xdist the controller has every ruleset's numba kernels compiled before the workers
start, so the workers load them from numba's cache instead of compiling the same code side by side
(on two cores that doubled the cold-cache test time).  The rulesets not compiled yet compile in as
many processes at once as there are workers (``wargym compile --jobs``): on two cores the four
compiles took 12 minutes one after the other, about half of the cold test command."""

from __future__ import annotations

import os


def pytest_configure(config):
    workers = getattr(config.option, "numprocesses", None)
    if hasattr(config, "workerinput") or not workers:
        return  # a worker, or a run without xdist
    from wargym import warm
    from wargym.registry import shipped

    todo = [ruleset for ruleset in shipped() if not warm.ready(ruleset)]
    if todo:
        jobs = workers if isinstance(workers, int) else os.cpu_count() or 1
        warm.compile_in_parallel(todo, max(1, min(jobs, len(todo))))
