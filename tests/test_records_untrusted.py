"""Records from outside are checked before any kernel sees them (wargym.core.BaseCore.from_dict).

10,000 mutated records (5,000 per shipped ruleset; tests/fuzz_records.py): fields out of range,
negative, huge, of the wrong type or shape, missing or unknown, headers changed, and in-range values
that may or may not fit the rest.  Each is refused with an error naming the field or the record, or
(only an in-range value) accepted as a position the rules give, and then stepped, observed, rendered
and viewed.  The first 1,000 of each also go to a running ``wargym serve``, which must answer each
request and a ping after it.  The script runs in a subprocess, so a crash fails the test instead of
ending the test run.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from wargym.registry import RULESETS

SCRIPT = Path(__file__).resolve().parent / "fuzz_records.py"
SHIPPED = sorted(name for name, r in RULESETS.items() if r.core.startswith("wargym."))


@pytest.mark.parametrize("name", SHIPPED)
def test_5000_mutated_records_are_refused_clearly_or_play_safely(name):
    proc = subprocess.run([sys.executable, str(SCRIPT), "--ruleset", name, "--records", "5000", "--serve", "1000",
                           "--seed", "0"], capture_output=True, text=True, timeout=1500)
    assert proc.returncode == 0, (proc.stdout[-2000:], proc.stderr[-4000:])
    counts = json.loads(proc.stdout.strip().splitlines()[-1])
    assert counts["failures"] == 0 and counts["served"] == 1000
    assert counts["refused"] + counts["accepted"] == 5000 and counts["refused"] > 3000
