"""Where numba keeps wargym's compiled kernels: one folder per version of the source.

numba decides whether a function's cached machine code is current by looking at that function's
own file only, yet the code includes every rules function it calls from other files: an edit to
``melee.py`` left the step kernel in ``sequence.py`` running the old melee until someone deleted the
cache by hand.  So wargym gives numba a cache folder named after a hash of every source file that
imports numba (in the packages wargym, wargym.agents and wargym.envs): any edit of a kernel
starts a fresh folder, an edit of plain Python does not, and an unchanged install keeps loading
the folder it filled.  The folder lies under the user's cache
(``$XDG_CACHE_HOME`` or ``~/.cache``)/wargym/numba, so a read-only install can cache too.  A version
not used for a week is removed (the three most recent are always kept; several checkouts or
installs may share the folder at once).  A ``NUMBA_CACHE_DIR`` set by the user is left alone.

Inside that folder a function's machine code is filed under its package's name (``wargym.attu``),
not under the path of its source file as numba does by default, and is current while the file's
content is (a hash, not a time): so the installed package, a reinstall of it and the source tree
of a clone (imported from the clone's folder) share one compile.

Imported first by ``wargym/__init__.py``: the folder must be set before any kernel is declared.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import re
import shutil
import time
from pathlib import Path

FOLDER: str | None = None     # this source version's cache folder once configure() has set it
KEEP = 3                      # versions always kept
UNUSED = 7 * 24 * 3600        # seconds without use after which another version is removed


def _source_roots() -> list[tuple[Path, str]]:
    """The folders of wargym's packages with the dotted name each stands for: wargym/ alone in an
    install, and the clone's agents/ and envs/ beside it (wargym/_layout.py)."""
    roots = [(Path(__file__).resolve().parent, "wargym")]
    for name in ("wargym.agents", "wargym.envs"):
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            continue
        for location in (spec.submodule_search_locations or []) if spec else []:
            path = Path(location).resolve()
            if not str(path).startswith(str(roots[0][0]) + os.sep) and all(path != r for r, _ in roots):
                roots.append((path, name))
    return roots


# what marks a file holding numba code; a file whose constants the kernels compile in (an event log's
# kinds) says "njit" in a comment, or an edit of it would leave the old codes in the cached kernels
COMPILED = re.compile(rb"\bnjit\b|structref|@overload")


def source_hash() -> str:
    """A hash of every .py file of wargym that holds numba code (names within the package and
    contents): the same for an install and the clone it came from; a file that only reads numba's
    settings (threads) is not one."""
    files = {}
    for root, package in _source_roots():
        for path in root.rglob("*.py"):
            text = path.read_bytes()
            if COMPILED.search(text):
                files["/".join((*package.split("."), *path.relative_to(root).parts))] = text
    digest = hashlib.sha1()
    for name in sorted(files):
        digest.update(name.encode())
        digest.update(files[name])
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
    global FOLDER
    config.CACHE_DIR = FOLDER = str(folder)
    _PackageLocator.folder = str(folder)
    _install_locator()
    return str(folder)


@functools.lru_cache(maxsize=None)
def _content_hash(path: str, mtime_ns: int, size: int) -> str:
    """The hash of a file's content (the time and size only key this process's memo)."""
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def _install_locator() -> None:
    from numba.core import caching

    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
    if _PackageLocator not in impl._locator_classes:
        impl._locator_classes.insert(0, _PackageLocator)


def _locator_base():
    from numba.core import caching

    return caching._SourceFileBackedLocatorMixin, caching._CacheLocator


class _PackageLocator(*_locator_base()):
    """numba's cache locator for wargym's functions (module docstring): the folder of the source
    version, then the function's package; the source stamp is a hash of the file's content."""

    folder: str | None = None

    def __init__(self, py_func, py_file, package: str):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = os.path.join(self.folder, package)

    def get_cache_path(self) -> str:
        return self._cache_path

    def get_source_stamp(self) -> str:
        st = os.stat(self._py_file)
        return _content_hash(self._py_file, st.st_mtime_ns, st.st_size)

    @classmethod
    def from_function(cls, py_func, py_file):
        module = getattr(py_func, "__module__", None) or ""
        if cls.folder is None or not module.startswith("wargym.") or not os.path.exists(py_file):
            return None
        self = cls(py_func, py_file, module.rpartition(".")[0])
        try:
            self.ensure_cache_path()
        except OSError:
            return None
        return self


def _prune(root: Path) -> None:
    """Remove versions unused for ``UNUSED`` seconds beyond the ``KEEP`` most recent (a folder's
    time is touched by every process that uses it)."""
    versions = sorted((p for p in root.iterdir() if p.is_dir()), key=lambda p: p.stat().st_mtime, reverse=True)
    now = time.time()
    for old in versions[KEEP:]:
        if now - old.stat().st_mtime > UNUSED:
            shutil.rmtree(old, ignore_errors=True)
