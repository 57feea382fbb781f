"""Files that survive a kill: written whole or not at all, or appended a whole line at a time.

A run someone relies on (a training run's checkpoints, final.zip and run.json; a tournament's
results and tables; replays) may be killed at any moment (kill -9, the out-of-memory killer, a
power cut).  Two ways of writing keep what it wrote usable:

* ``atomic_open(path)`` / ``write_text`` / ``write_bytes``: the new content goes to a temporary
  file in the target's folder (``.NAME.XXXXXXXX.tmp``), which is flushed, fsynced and renamed over
  the target (``os.replace``, atomic on POSIX and Windows); then the folder is fsynced where the
  system allows it, so the rename itself is on disk.  A reader sees the old file or the new one,
  never a part; a kill leaves at most a temporary file, which ``remove_leftovers`` deletes.
* ``open_lines(path, header)`` / ``sync``: a log appended line by line (results.csv, curve.csv),
  each line flushed and fsynced as it is written.  A kill during a write can leave the last line
  cut short (no newline); ``complete_text`` reads a file without it and ``open_lines`` cuts it off
  before appending, so a reader or a resumed run never mistakes it for a whole line.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
from pathlib import Path
from typing import IO, Iterator

# .<the target's name>.<8 hex digits>.tmp: hidden, and matched by no glob of the files themselves
_LEFTOVER = re.compile(r"\..+\.[0-9a-f]{8}\.tmp")


def sync(f: IO) -> None:
    """Flush ``f`` and fsync its file: what was written is on disk when this returns."""
    f.flush()
    os.fsync(f.fileno())


def sync_folder(folder: str | Path) -> None:
    """fsync a folder, so a rename or a new file in it is on disk (a no-op where the system or
    the file system cannot: Windows, some network file systems)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextlib.contextmanager
def atomic_open(path: str | Path, mode: str = "w", **kwargs) -> Iterator[IO]:
    """Open ``path`` for writing whole or not at all (``mode`` "w" or "wb", ``kwargs`` as for
    ``open``): the file object writes a temporary file that replaces ``path`` when the block ends,
    and is deleted if the block raises.  The file gets the usual permissions (the umask's)."""
    if mode not in ("w", "wb"):
        raise ValueError(f"atomic_open writes a whole file: mode 'w' or 'wb', got {mode!r}")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    while True:
        tmp = path.parent / f".{path.name}.{secrets.token_hex(4)}.tmp"
        try:
            f = open(tmp, mode.replace("w", "x"), **kwargs)
            break
        except FileExistsError:  # another writer's temporary file of the same name: draw again
            continue
    try:
        with f:
            yield f
            sync(f)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    sync_folder(path.parent)


def write_text(path: str | Path, text: str, encoding: str = "utf-8") -> Path:
    """Write ``text`` to ``path`` whole or not at all (``atomic_open``)."""
    with atomic_open(path, "w", encoding=encoding, newline="") as f:
        f.write(text)
    return Path(path)


def write_bytes(path: str | Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` whole or not at all (``atomic_open``)."""
    with atomic_open(path, "wb") as f:
        f.write(data)
    return Path(path)


def remove_leftovers(folder: str | Path) -> list[Path]:
    """Delete the temporary files an interrupted ``atomic_open`` left in ``folder``; returns them."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    found = [p for p in folder.iterdir() if _LEFTOVER.fullmatch(p.name) and p.is_file()]
    for p in found:
        with contextlib.suppress(FileNotFoundError):
            p.unlink()
    return found


def complete_text(path: str | Path, encoding: str = "utf-8") -> tuple[str, str]:
    """(the text of a line log up to its last newline, the rest: a last line cut short by a kill,
    usually ''); ("", "") when the file does not exist."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        return "", ""
    cut = data.rfind(b"\n") + 1
    return data[:cut].decode(encoding), data[cut:].decode(encoding, errors="replace")


def open_lines(path: str | Path, header: str, encoding: str = "utf-8") -> tuple[IO, str]:
    """(``path`` opened for appending lines, the cut-short last line it cut off: '' if none).  A
    file that ends in a line cut short by a kill is truncated after its last whole line; a new or
    empty file gets ``header`` (one line, with its newline) first.  Write whole lines to it and
    ``sync`` after each."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    whole, torn = complete_text(path, encoding)
    if torn:
        with open(path, "r+b") as f:
            f.truncate(len(whole.encode(encoding)))
            sync(f)
    f = open(path, "a", encoding=encoding, newline="")
    if not whole:
        f.write(header)
        sync(f)
        sync_folder(path.parent)
    return f, torn
