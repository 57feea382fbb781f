"""Mutated state records against ``core.from_dict`` and a running ``wargym serve``.

    python tests/fuzz_records.py --ruleset attu --records 5000 [--serve 500] [--seed 0]

Valid records of mid-game positions are mutated, one field element at a time: out of its range,
negative, huge, of the wrong type or shape, a field missing or unknown, a header changed, or an
in-range value that may or may not be consistent with the rest.  Every record must either be
refused with a ``RecordError`` that names a field or the record, or (only an in-range value can
be) be accepted as a position of the rules, and then step, observe, render and give its views
without trouble, keeping the invariants (``contract.invariants``) at every step.  With ``--serve N`` the first N records also go to a ``wargym serve`` process as
``legal`` and ``step`` requests, each followed by a ``ping``: the server must answer every request
and stay up.  A crash of the core or of the server ends this script with a non-zero status (the
test runs it in a subprocess for that reason).  Prints one line of counts; exits 1 on any failure.
"""

from __future__ import annotations

import argparse
import copy
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from wargym import contract, schema
from wargym.core import RecordError
from wargym.registry import make_core

KINDS = ("out_of_range", "negative", "huge", "type", "shape", "missing", "unknown", "header", "dtype",
         "in_range", "in_range", "in_range")
CLEAR = re.compile(r"field \w+|record \d+|records|from_dict")


def elements(value):
    """(container, index) of every scalar inside a nested list value; [] for a scalar."""
    out = []
    if isinstance(value, list):
        for i, v in enumerate(value):
            if isinstance(v, list):
                out += elements(v)
            else:
                out.append((value, i))
    return out


def set_one(entry: dict, rng: np.random.Generator, new) -> None:
    slots = elements(entry["value"])
    if slots:
        container, i = slots[int(rng.integers(len(slots)))]
        container[i] = new
    else:
        entry["value"] = new
    entry["mutated"] = repr(new)[:40]


def mutate(core, record: dict, rng: np.random.Generator) -> tuple[dict, str, bool]:
    """(mutated record, what was done, must be refused)."""
    rec = copy.deepcopy(record)
    fields = rec["fields"]
    name = str(rng.choice(sorted(fields)))
    entry = fields[name]
    v = schema.spec(core.state_class, name)
    low, high = schema.bounds_of(v, core.dims)
    kind = f"{rng.choice(KINDS)} {name}"
    is_bool = v.dtype == np.bool_
    is_float = np.issubdtype(v.dtype, np.floating)
    kind, what = kind.split(" ")[0], kind
    if kind in ("out_of_range", "negative", "huge"):
        if kind == "out_of_range":
            new = 2 if is_bool else (float(high) + 0.5 if is_float else int(high) + 1 + int(rng.integers(3)))
            if not is_bool and not is_float and rng.random() < 0.5:
                new = int(low) - 1 - int(rng.integers(3))
        elif kind == "negative":
            new = -1 if is_bool else int(min(low, 0)) - 1 - int(rng.integers(1000))
        else:
            new = [2**40, -(2**40), 2**70, 1e300, float("inf")][int(rng.integers(5))]
        set_one(entry, rng, new)
        fits = (isinstance(new, int) and not is_bool and low <= new <= high) or \
            (is_float and isinstance(new, float) and low <= new <= high)
        return rec, f"{what} = {entry.pop('mutated')}", not fits
    elif kind == "type":
        set_one(entry, rng, ["x", None, {"a": 1}, [1, [2]], True if not is_bool else "yes"][int(rng.integers(5))])
    elif kind == "shape":
        value = entry["value"]
        if isinstance(value, list) and value:
            entry["value"] = value[:-1] if rng.random() < 0.5 else value + value[-1:]
        else:
            entry["value"] = [value, value]
    elif kind == "missing":
        del fields[name]
    elif kind == "unknown":
        fields[name + "_x"] = copy.deepcopy(entry)
    elif kind == "header":
        key = str(rng.choice(["format", "ruleset", "scenario", "options"]))
        rec[key] = {"format": 1, "ruleset": "chess", "scenario": "nowhere", "options": {"fog": True}}[key]
    elif kind == "dtype":
        entry["dtype"] = "float64" if v.dtype != np.float64 else "int8"
    else:  # an in-range value: refused, or accepted as a position of the rules
        if is_bool:
            new = bool(rng.random() < 0.5)
        elif is_float:
            new = float(rng.uniform(low, high))
        else:
            new = int(rng.integers(max(int(low), -(2**31)), min(int(high), 2**31) + 1))
        set_one(entry, rng, new)
        return rec, f"{what} = {entry.pop('mutated')}", False
    return rec, f"{what} = {entry.pop('mutated', '')}", True


def exercise(core, state, rng: np.random.Generator) -> list[str]:
    """Use an accepted state as every client would; the broken invariants (contract.invariants)
    of the positions its play reaches."""
    for viewer in range(len(core.players)):
        core.observe(state, viewer)
        core.view(state, viewer)
        core.render(state, 0, "ansi", viewer=viewer)
    core.summary(state, 0)
    for _ in range(20):
        if core.terminated(state)[0] or core.truncated(state)[0]:
            break
        legal = np.flatnonzero(core.legal_mask(state)[0])
        before, state = state, core.step(state, np.array([rng.choice(legal)]))
        errors = contract.invariants(core, state, before)
        if errors:
            return errors
    return []


class Server:
    """A ``wargym serve`` child process speaking JSON lines."""

    def __init__(self, ruleset: str, scenario: str):
        # Run from tests/, not the repository root: ``python -c`` puts the working folder first on
        # sys.path, and the root's wargym/ folder has no ``agents`` package (setup.py maps agents/
        # to wargym.agents only in the installed package).
        self.errors = tempfile.TemporaryFile("w+")
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from wargym.agents.serve import main; raise SystemExit(main())", "--ruleset",
             ruleset, "--scenario", scenario, "--agent", "random", "--decisions", "full"],
            cwd=Path(__file__).resolve().parent, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.errors,
            text=True)

    def ask(self, request: dict) -> dict:
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            self.errors.seek(0)
            raise RuntimeError(f"the server stopped (status {self.proc.wait(timeout=60)}) after "
                               f"{str(request)[:200]}; it said: {self.errors.read()[-2000:]}")
        return json.loads(line)

    def close(self) -> int:
        self.ask({"cmd": "quit"})
        return self.proc.wait(timeout=60)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--ruleset", required=True)
    p.add_argument("--scenario", default=None)
    p.add_argument("--records", type=int, default=2000)
    p.add_argument("--serve", type=int, default=0, help="send the first N mutated records to a wargym serve too")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    core = make_core(args.ruleset, args.scenario, decisions="full")
    bases = [core.to_dict(s, 0) for s in contract.mid_game_states(core, args.seed, 40, rng=rng)]
    server = Server(args.ruleset, core.scenario.name) if args.serve else None
    counts = {"refused": 0, "accepted": 0, "served": 0}
    failures: list[str] = []
    for i in range(args.records):
        record, kind, must_fail = mutate(core, bases[i % len(bases)], rng)
        try:
            state = core.from_dict(json.loads(json.dumps(record)))
        except RecordError as err:
            counts["refused"] += 1
            if not CLEAR.search(str(err)):
                failures.append(f"#{i} {kind}: an unclear error: {err}")
        except Exception as err:  # noqa: BLE001 - anything but a RecordError is a failure
            failures.append(f"#{i} {kind}: {type(err).__name__} instead of a RecordError: {err}")
        else:
            counts["accepted"] += 1
            if must_fail:
                failures.append(f"#{i} {kind}: accepted")
            else:
                broken = exercise(core, state, rng)
                if broken:
                    failures.append(f"#{i} {kind}: accepted, and play from it breaks {broken[:2]}")
        if server is not None and i < args.serve:
            for cmd in ("legal", "step"):
                reply = server.ask({"cmd": cmd, "state": record, "action": 0, "id": i})
                if must_fail and reply.get("ok"):
                    failures.append(f"#{i} {kind}: serve {cmd} answered ok")
                if reply.get("id") != i:
                    failures.append(f"#{i}: serve answered {reply} without the request's id")
            if not server.ask({"cmd": "ping"}).get("pong"):
                failures.append(f"#{i}: serve did not answer the ping after it")
            counts["served"] += 1
        if len(failures) > 20:
            break
    if server is not None and server.close() != 0:
        failures.append("serve did not exit cleanly")
    print(json.dumps({"ruleset": args.ruleset, "records": args.records, **counts, "failures": len(failures)}))
    for f in failures[:20]:
        print(f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
