"""Session set-up shared by every test folder.

Under pytest-xdist the controller has every ruleset's numba kernels compiled before the workers
start, so the workers load them from numba's cache instead of compiling the same code side by side
(on two cores that doubled the cold-cache test time).  The rulesets not compiled yet compile in as
many processes at once as there are workers (``wargym compile --jobs``): on two cores the four
compiles took 12 minutes one after the other, about half of the cold test command."""

from __future__ import annotations

import os
import shutil

import pytest


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


# --------------------------------------------------------------------------- a real browser
def chromium() -> str | None:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


@pytest.fixture(scope="module")
def browser():
    """The system's Chromium driven by Playwright (the page tests: tests/test_viewer.py, tests/test_web.py)."""
    exe = chromium()
    if exe is None:
        if in_ci():
            pytest.fail("CI is set but no chromium is installed: .ci/run installs it (apt-get install chromium)")
        pytest.skip("no chromium installed (apt-get install chromium); CI runs this test")
    from playwright.sync_api import sync_playwright  # the test extra; a missing one fails, never skips

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=["--no-sandbox", "--disable-dev-shm-usage"])
        yield b
        b.close()
