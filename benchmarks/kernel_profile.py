"""Where a ruleset's compiled kernel spends its time: Linux ``perf`` sampling random masked play,
with numba's functions named through a perf map.

    python benchmarks/kernel_profile.py --ruleset peleliu [--scenario sept15] [--batch 1024]
                                        [--seconds 15] [--top 30] [--threads 1]

numba's machine code lives in memory, where ``perf`` sees only addresses.  This script compiles
the ruleset afresh in a temporary numba cache (code loaded from a cache file carries no function
list to read: expect the compile's minutes first), collects the address of every compiled
function, writes ``/tmp/perf-<pid>.map`` (perf's format for code made at run time), records
``perf record -e cpu-clock`` on itself while it plays random masked moves as throughput.py does
(``step_in_place`` and ``reset_done_in_place``), and prints each function's share of the
samples.  Needs ``perf`` (Debian: linux-perf); ``cpu-clock`` works where hardware counters are
not available, as in this machine's VM.

Read the shares with two cautions: a function the compiler inlined counts as its caller's; and a
function's size is taken to the next known address, so the last function of a code region may
take samples of unnamed code after it (sizes are capped at ``MAX_SIZE``).
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MAX_SIZE = 1 << 16  # bytes at most given to one function in the map


def demangle(name: str) -> str:
    """numba's mangled ``_ZN6wargym7peleliu2us10can_act_onB2v1B38...`` -> ``wargym.peleliu.us.can_act_on``
    (the length-prefixed parts up to the first ``B`` abi tag); other names unchanged."""
    if not name.startswith("_ZN"):
        return name
    parts, i = [], 3
    while i < len(name) and name[i].isdigit():
        m = re.match(r"\d+", name[i:])
        length = int(m.group(0))
        start = i + len(m.group(0))
        parts.append(name[start:start + length])
        i = start + length
        if name[i:i + 1] == "B":
            break
    return ".".join(parts) if parts else name


def map_lines(addresses: dict[int, str]) -> list[str]:
    """perf map lines ``START SIZE NAME`` (hex, hex, text), each function sized to the next address."""
    items = sorted(addresses.items())
    lines = []
    for k, (start, name) in enumerate(items):
        end = items[k + 1][0] if k + 1 < len(items) else start + MAX_SIZE
        lines.append(f"{start:x} {min(end - start, MAX_SIZE):x} {name}")
    return lines


def compiled_functions() -> dict[int, str]:
    """The address and name of every function numba compiled in this process (from each
    dispatcher's libraries; a name's first address wins)."""
    from numba.core.dispatcher import Dispatcher

    out: dict[int, str] = {}
    for obj in gc.get_objects():
        if not isinstance(obj, Dispatcher):
            continue
        for cres in obj.overloads.values():
            lib = cres.library
            module = getattr(lib, "_final_module", None)
            if module is None:
                continue
            for f in module.functions:
                if f.is_declaration:
                    continue
                try:
                    address = lib.get_pointer_to_function(f.name)
                except Exception:  # noqa: BLE001 - a symbol the engine does not export
                    continue
                if address:
                    out.setdefault(address, demangle(f.name))
    return out


def shares(report: str) -> list[tuple[float, str]]:
    """(percent, symbol) rows of ``perf report --stdio --sort symbol`` output, largest first."""
    rows = []
    for line in report.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+\[[^\]]*\]\s+(\S+)", line)
        if m:
            rows.append((float(m.group(1)), m.group(2)))
    return sorted(rows, reverse=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ruleset", required=True)
    ap.add_argument("--scenario", default=None)
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--seconds", type=float, default=15.0)
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)
    perf = shutil.which("perf")
    if perf is None:
        print("kernel_profile: needs Linux perf on the PATH (Debian: apt-get install linux-perf)", file=sys.stderr)
        return 2
    cache = tempfile.mkdtemp(prefix="wargym-profile-")
    os.environ["NUMBA_CACHE_DIR"] = cache  # before wargym is imported: a fresh compile, never the cache
    import numpy as np

    from wargym.agents.random_agent import sample_legal
    from wargym.registry import make_core

    print(f"compiling {args.ruleset} afresh (a few minutes) ...", file=sys.stderr, flush=True)
    core = make_core(args.ruleset, args.scenario, threads=args.threads)
    state = core.init(args.batch, 0)
    rng = np.random.default_rng(0)

    def play(seconds: float) -> int:
        calls, end = 0, time.perf_counter() + seconds
        while time.perf_counter() < end:
            core.step_in_place(state, sample_legal(rng, state.legal_action_mask))
            core.reset_done_in_place(state, 0, None)
            calls += 1
        return calls

    play(1.0)  # every kernel compiled before the map is written
    functions = compiled_functions()
    perf_map = Path(f"/tmp/perf-{os.getpid()}.map")
    perf_map.write_text("\n".join(map_lines(functions)) + "\n")
    data = Path(cache) / "perf.data"
    rec = subprocess.Popen([perf, "record", "-e", "cpu-clock", "-F", "4000", "-o", str(data), "-p", str(os.getpid())],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    calls = play(args.seconds)
    rec.send_signal(2)
    rec.wait()
    report = subprocess.run([perf, "report", "-i", str(data), "--sort", "symbol", "--stdio"],
                            capture_output=True, text=True).stdout
    perf_map.unlink(missing_ok=True)
    shutil.rmtree(cache, ignore_errors=True)
    rows = shares(report)
    print(f"{args.ruleset}: {calls} calls at batch {args.batch}, {args.threads} thread(s), {len(functions)} "
          f"compiled functions mapped; share of cpu-clock samples:")
    for pct, name in rows[:args.top]:
        print(f"  {pct:6.2f} %  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
