"""What a user sees while numba compiles the rules kernels.

The first use of a ruleset on a machine compiles its kernels (a minute or a few on two cores;
numba's cache keeps them for later runs, wargym/_numba_cache.py).  Without a word that looks like
a hang, so ``wargym`` reports it on stderr as it happens: which function is compiling, how many
have, and the seconds since it began; on a terminal one line rewritten in place, elsewhere (logs,
CI) a line every ``EVERY`` seconds.  Nothing is shown for a compile shorter than ``QUIET``
seconds or when the cache has the kernels.  ``WARGYM_COMPILE_PROGRESS=0`` turns it off.

``install()`` is called when wargym is imported; it listens to numba's ``numba:compile`` events,
which numba sends only when it compiles (not when it loads from its cache).
"""

from __future__ import annotations

import os
import shutil
import sys
import threading
import time

from numba.core import event

QUIET = 2.0    # seconds a compile runs before anything is shown
EVERY = 15.0   # seconds between lines where stderr is not a terminal


def _name(ev) -> str:
    func = ev.data["dispatcher"].py_func
    return f"{func.__module__}.{func.__qualname__}"


class CompileProgress(event.Listener):
    """Reports numba's compiles on ``stream`` (module docstring)."""

    def __init__(self, stream=None):
        self.stream = stream if stream is not None else sys.stderr
        self.depth = 0
        self.began = 0.0
        self.top = ""
        self.count = 0
        self.shown = False
        self.last_line = 0.0
        self.current = ""
        self._ticker: threading.Thread | None = None

    def _tty(self) -> bool:
        return getattr(self.stream, "isatty", lambda: False)()

    def on_start(self, ev) -> None:
        name = _name(ev)
        if self.depth == 0:
            self.began, self.top, self.count, self.shown = time.perf_counter(), name, 0, False
        self.depth += 1
        self.count += 1
        self.current = name
        self._show(name)
        if self._ticker is None:  # LLVM's longest steps send no events: a clock keeps the line alive
            self._ticker = threading.Thread(target=self._tick, name="wargym-compile-progress", daemon=True)
            self._ticker.start()

    def _tick(self) -> None:
        while True:
            time.sleep(1.0)
            if self.depth > 0:
                self._show(self.current)

    def on_end(self, ev) -> None:
        self.depth -= 1
        if self.depth == 0 and self.shown:
            spent = time.perf_counter() - self.began
            self._write(f"wargym: compiled {self.top} and {self.count - 1} functions it calls in {spent:.0f} s "
                        f"(numba; cached for later runs)", end=True)

    def _show(self, name: str) -> None:
        now = time.perf_counter()
        spent = now - self.began
        if spent < QUIET:
            return
        if not self._tty() and self.shown and now - self.last_line < EVERY:
            return
        self.shown, self.last_line = True, now
        self._write(f"wargym: compiling {self.top} (numba, first use on this machine): {spent:.0f} s, "
                    f"{self.count} functions so far, now {name}")

    def _write(self, text: str, end: bool = False) -> None:
        try:
            if self._tty():
                width = shutil.get_terminal_size((100, 20)).columns - 1
                self.stream.write("\r" + text[:width].ljust(width) + ("\n" if end else ""))
            else:
                self.stream.write(text + "\n")
            self.stream.flush()
        except (OSError, ValueError):  # a closed or broken stream: compiling goes on regardless
            pass


_installed: CompileProgress | None = None


def install() -> CompileProgress | None:
    """Listen to numba's compiles for the rest of the process (once); None when turned off."""
    global _installed
    if _installed is None and os.environ.get("WARGYM_COMPILE_PROGRESS", "1") != "0":
        _installed = CompileProgress()
        event.register("numba:compile", _installed)
    return _installed
