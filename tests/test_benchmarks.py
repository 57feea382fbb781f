"""benchmarks/throughput.py runs and its --json line has the documented keys (no timing checks)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "throughput.py"


@pytest.mark.parametrize("ruleset", ["island_war"])
def test_throughput_json(ruleset):
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--ruleset", ruleset, "--seconds", "0.2", "--batches", "1,4", "--json"],
        capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    lines = proc.stdout.strip().splitlines()
    assert lines, "no output"
    out = json.loads(lines[-1])
    assert isinstance(out, dict)
    for key in ("ruleset", "scenario", "batch", "ratio", "reference", "machine"):
        assert key in out, f"missing key {key!r} in {sorted(out)}"
    assert out["ruleset"] == ruleset
    assert isinstance(out["scenario"], str) and out["scenario"]
    assert set(out["batch"]) == {"1", "4"}
    assert all(isinstance(v, (int, float)) and v >= 0 for v in out["batch"].values())
    assert out["ratio"] is None or isinstance(out["ratio"], (int, float))
    assert "pettingzoo_chess_v6_steps_per_s" in out["reference"]
    for key in ("cpu_count", "python", "numpy", "numba"):
        assert key in out["machine"]
