"""Where numba keeps wargym's compiled kernels: one folder per version of the source.

numba decides whether a function's cached machine code is current by looking at that function's
own file only, yet the code includes every rules function it calls from other files: an edit to
``melee.py`` left the step kernel in ``sequence.py`` running the old melee until someone deleted the
cache by hand.  So wargym gives numba a cache folder named after a hash of all of its Python
source (the packages wargym, wargym.agents and wargym.envs): any edit starts a fresh folder, and
an unchanged install keeps loading the folder it filled.  The folder lies under the user's cache
(``$XDG_CACHE_HOME`` or ``~/.cache``)/wargym/numba, so a read-only install can cache too; the
three most recent versions are kept.  A ``NUMBA_CACHE_DIR`` set by the user is left alone.

Imported first by ``wargym/__init__.py``: the folder must be set before any kernel is declared.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
from pathlib import Path

KEEP = 3


def _source_roots() -> list[Path]:
    roots = [Path(__file__).resolve().parent]
    for name in ("wargym.agents", "wargym.envs"):
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            continue
        for location in (spec.submodule_search_locations or []) if spec else []:
            path = Path(location).resolve()
            if path not in roots and not str(path).startswith(str(roots[0]) + os.sep):
                roots.append(path)
    return roots


def source_hash() -> str:
    """A hash of every .py file of wargym (names and contents)."""
    digest = hashlib.sha1()
    for root in _source_roots():
        for path in sorted(root.rglob("*.py")):
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "wargym" / "numba"


def configure() -> str | None:
    """Point numba's cache at this source's folder (unless NUMBA_CACHE_DIR is set); its path."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return None
    from numba.core import config

    folder = cache_root() / source_hash()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        os.utime(folder)
        _prune(folder.parent)
    except OSError:
        return None  # no writable cache here: numba's default (beside the source) applies
    config.CACHE_DIR = str(folder)
    return str(folder)


def _prune(root: Path) -> None:
    versions = sorted((p for p in root.iterdir() if p.is_dir()), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in versions[KEEP:]:
        shutil.rmtree(old, ignore_errors=True)
