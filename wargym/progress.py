"""Progress of a long command, on a terminal and in a log alike.

On a terminal: a tqdm bar on stderr (when tqdm is installed).  Elsewhere (a log file, CI, a pipe):
a line on stderr when the work starts, every ``EVERY`` seconds while it runs, and when it ends, so a
log shows that a minutes-long step is alive and how far it is.  ``quiet`` shows nothing.

    with Progress("behaviour cloning: teacher decisions", total=16000, unit="decisions") as bar:
        for chunk in ...:
            bar.update(len(chunk))
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

EVERY = 10.0   # seconds between lines where stderr is not a terminal


class Progress:
    """A progress report of ``total`` units of work (module docstring); a context manager."""

    def __init__(self, desc: str, total: int | None = None, unit: str = "steps", quiet: bool = False,
                 stream: TextIO | None = None, every: float = EVERY):
        self.desc, self.total, self.unit, self.every = desc, total, unit, every
        self.stream = stream if stream is not None else sys.stderr
        self.done = 0
        self.began = self.last = time.perf_counter()
        self.bar = None
        self.quiet = quiet
        if quiet:
            return
        if getattr(self.stream, "isatty", lambda: False)():
            try:
                from tqdm import tqdm

                self.bar = tqdm(total=total, desc=desc, unit=f" {unit}", leave=False, file=self.stream)
                return
            except ImportError:
                pass
        self._line("started")

    def update(self, n: int = 1, total: int | None = None) -> None:
        """``n`` more units done (``total``: the work's size, when it changes)."""
        self.done += n
        if total is not None:
            self.total = total
        if self.quiet:
            return
        if self.bar is not None:
            if total is not None:
                self.bar.total = total
            self.bar.update(n)
        elif time.perf_counter() - self.last >= self.every:
            self._line()

    def close(self) -> None:
        if self.quiet:
            return
        if self.bar is not None:
            self.bar.close()
        else:
            self._line("done")

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _line(self, note: str | None = None) -> None:
        now = time.perf_counter()
        self.last = now
        seconds = now - self.began
        of = f"/{self.total:,}" if self.total else ""
        rate = f", {self.done / seconds:,.0f} {self.unit}/s" if seconds > 0 and self.done else ""
        tail = f" ({note})" if note else ""
        print(f"{self.desc}: {self.done:,}{of} {self.unit}, {seconds:.0f} s{rate}{tail}", file=self.stream, flush=True)
