"""Checks of the command line's arguments, shared by every ``wargym`` command.

Counts are checked as argparse parses them (``type=``): a bad one is a usage error (exit status
2) whose message names the option and the value, e.g.::

    wargym tournament: error: argument --games: must be a whole number >= 1, got -2

Files are checked when the command starts, before any work (exit status 1,
``wargym <command>: error: ...``): ``check_agent_spec`` (an ``sb3:`` spec names an existing zip
archive, an ``onnx:`` spec an existing ONNX model and not a zip), ``check_sb3_file`` and
``check_onnx_file`` (the same for a path option), ``check_numbers`` (the counts of a config file).
The content checks are cheap: the first bytes of the file, never a full load.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Any, Mapping

ZIP_MAGIC = b"PK\x03\x04"
ONNX_FIRST_BYTE = 0x08   # an ONNX ModelProto starts with its ir_version (field 1, a varint)


# ----------------------------------------------------------------------------------- argparse types
def _whole(text: str, low: int, high: int | None = None) -> int:
    want = f"a whole number >= {low}" if high is None else f"a whole number in {low}..{high}"
    try:
        value = int(str(text).strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be {want}, got {text!r}") from None
    if value < low or (high is not None and value > high):
        raise argparse.ArgumentTypeError(f"must be {want}, got {value}")
    return value


def positive_int(text: str) -> int:
    """argparse type: a whole number >= 1 (games, steps, batch sizes, workers, threads)."""
    return _whole(text, 1)


def non_negative_int(text: str) -> int:
    """argparse type: a whole number >= 0 (seeds, optional counts where 0 means none)."""
    return _whole(text, 0)


def int_range(low: int, high: int):
    """argparse type: a whole number in ``low..high`` (a JPEG quality, a port)."""
    def whole_in_range(text: str) -> int:
        return _whole(text, low, high)

    whole_in_range.__name__ = f"int_range({low}, {high})"
    return whole_in_range


def positive_float(text: str) -> float:
    """argparse type: a finite number > 0 (minutes)."""
    try:
        value = float(str(text).strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number > 0, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a number > 0, got {text}")
    return value


# --------------------------------------------------------------------------------------- files
def _head(path: Path, n: int = 8) -> bytes:
    with open(path, "rb") as f:
        return f.read(n)


def _describe_bytes(head: bytes) -> str:
    """What a file that is not the expected kind looks like, from its first bytes."""
    if head.startswith(ZIP_MAGIC):
        return "a zip archive"
    if head.startswith(b"\x89PNG"):
        return "a PNG image"
    if head.lstrip()[:1] in (b"{", b"["):
        return "JSON text"
    if not head:
        return "empty"
    if all(32 <= c < 127 or c in b"\t\r\n" for c in head):
        return f"text beginning {head.decode('ascii')!r}"
    return f"binary data beginning {head!r}"


def check_sb3_file(path: str | Path, option: str) -> Path:
    """The path of a saved MaskablePPO policy (a zip archive, as ``wargym train`` writes them);
    ``path`` without its ``.zip`` is accepted where ``path.zip`` exists, as SB3 loads it.
    ValueError / FileNotFoundError naming ``option`` and the file otherwise."""
    from wargym.agents.base import checkpoint_path

    p = checkpoint_path(path)  # SB3 adds the .zip itself: runs/us/final stands for runs/us/final.zip
    if not p.exists():
        raise FileNotFoundError(f"{option} {str(path)!r}: no such file (a MaskablePPO .zip saved by wargym train)")
    if p.is_dir():
        raise ValueError(f"{option} {str(path)!r}: is a folder, not a policy .zip "
                         f"(wargym train writes DIR/final.zip and DIR/checkpoints/model_*_steps.zip)")
    head = _head(p)
    if not head.startswith(ZIP_MAGIC):
        what = "an ONNX model (play it with onnx:PATH)" if p.suffix == ".onnx" else _describe_bytes(head)
        raise ValueError(f"{option} {str(path)!r}: not a MaskablePPO .zip (a zip archive); the file is {what}")
    return p


def check_onnx_file(path: str | Path, option: str) -> Path:
    """The path of an exported ONNX policy (a folder stands for its policy.onnx, as OnnxAgent reads
    it); ValueError / FileNotFoundError naming ``option`` and the file when it is missing or
    plainly another kind of file (a zip: an SB3 checkpoint; JSON: the sidecar ...)."""
    p = Path(path)
    if p.is_dir():
        p = p / "policy.onnx"
    if not p.exists():
        raise FileNotFoundError(f"{option} {str(path)!r}: no such file (an ONNX policy written by wargym export)")
    head = _head(p)
    if head.startswith(ZIP_MAGIC):
        raise ValueError(f"{option} {str(path)!r}: not an ONNX file: it is a zip archive (a MaskablePPO "
                         f"checkpoint? play it with sb3:{path}, or convert it with wargym export)")
    if head[:1] != bytes([ONNX_FIRST_BYTE]):
        raise ValueError(f"{option} {str(path)!r}: not an ONNX file (an ONNX model starts with its ir_version "
                         f"field); the file is {_describe_bytes(head)}")
    return p


def check_agent_spec(spec: Any, option: str) -> Any:
    """``spec`` unchanged after checking the file an ``sb3:`` or ``onnx:`` spec names (see
    ``check_sb3_file``, ``check_onnx_file``); other specs are left to ``make_agent``."""
    if not isinstance(spec, str):
        return spec
    kind, sep, arg = spec.partition(":")
    if sep and kind == "sides":
        from wargym.agents.base import parse_sides

        for side, sub in parse_sides(spec).items():
            check_agent_spec(sub, f"{option} (side {side})")
    elif sep and kind == "sb3":
        if not arg:
            raise ValueError(f"{option} {spec!r}: sb3: needs the path of a saved policy, e.g. sb3:runs/us/final.zip")
        check_sb3_file(arg, option)
    elif sep and kind == "onnx":
        if not arg:
            raise ValueError(f"{option} {spec!r}: onnx: needs the path of an exported policy, e.g. onnx:policy.onnx")
        check_onnx_file(arg, option)
    return spec


# ------------------------------------------------------------------------------- config numbers
def check_numbers(values: Mapping[str, Any], rules: Mapping[str, str], where: str) -> None:
    """ValueError naming ``where``, the key and the value for the first of ``values`` that breaks
    its rule: "positive_int", "non_negative_int", "positive_float" (None passes: the default)."""
    for key, rule in rules.items():
        value = values.get(key)
        if value is None:
            continue
        if rule == "positive_float":
            ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value > 0
            want = "a number > 0"
        else:
            at_least = 1 if rule == "positive_int" else 0
            ok = isinstance(value, int) and not isinstance(value, bool) and value >= at_least
            want = f"a whole number >= {at_least}"
        if not ok:
            raise ValueError(f"{where}: {key} must be {want}, got {value!r}")
