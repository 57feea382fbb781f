"""wargym.progress: a long command shows it is alive in a log as on a terminal (issue 49.4)."""

from __future__ import annotations

import io

from wargym.progress import Progress


def test_progress_in_a_log_prints_a_line_at_the_start_every_interval_and_at_the_end():
    out = io.StringIO()
    with Progress("drawing", total=30, unit="steps", stream=out, every=0.0) as bar:
        for _ in range(3):
            bar.update(10)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("drawing: 0/30 steps") and lines[0].endswith("(started)")
    assert [line.split(":")[1].split()[0] for line in lines[1:4]] == ["10/30", "20/30", "30/30"]
    assert lines[-1].startswith("drawing: 30/30 steps") and lines[-1].endswith("(done)")


def test_progress_waits_its_interval_and_quiet_says_nothing():
    out = io.StringIO()
    with Progress("fitting", total=5, stream=out, every=3600.0) as bar:
        bar.update(5)
    assert len(out.getvalue().splitlines()) == 2  # started, done: nothing in between within the hour
    quiet = io.StringIO()
    with Progress("fitting", stream=quiet, quiet=True) as bar:
        bar.update(1)
    assert quiet.getvalue() == ""
