"""How the kernels compile: once per function (wargym.jit), reported as they compile
(wargym.compiling), filed so that any copy of the same source finds them (wargym._numba_cache),
and a clone's folder imports the whole package (wargym._layout)."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import numpy as np
from numba import types
from numba.core import event

from wargym import _numba_cache, compiling
from wargym.jit import njit, widen

ROOT = Path(__file__).resolve().parents[1]


def test_widen_makes_literals_and_small_integers_int64():
    assert widen(types.literal(3)) == types.int64
    assert widen(types.int16) == types.int64 and widen(types.uint8) == types.int64
    assert widen(types.literal(True)) == types.boolean
    assert widen(types.uint64) == types.uint64          # the random streams' wrapping arithmetic
    assert widen(types.float32) == types.float32


@njit
def _twice(x):
    return 2 * x


@njit
def _callers(a):
    return _twice(a[0]) + _twice(3) + _twice(np.int8(1))


def test_a_function_called_with_several_integer_types_compiles_once():
    assert _callers(np.array([5], dtype=np.int16)) == 10 + 6 + 2
    assert len(_twice.signatures) == 1 and _twice.signatures[0] == (types.int64,)


def test_compile_progress_names_the_function_and_the_time(monkeypatch):
    stream = io.StringIO()
    progress = compiling.CompileProgress(stream)
    monkeypatch.setattr(compiling, "QUIET", 0.0)
    event.register("numba:compile", progress)
    try:
        @njit
        def _fresh_kernel(n):
            return sum(range(n))

        assert _fresh_kernel(4) == 6
    finally:
        event.unregister("numba:compile", progress)
    text = stream.getvalue()
    assert "_fresh_kernel" in text and " s" in text
    assert text.strip().splitlines()[-1].startswith("wargym: compiled ")


def test_cache_files_are_filed_by_package_and_content_not_by_path(tmp_path):
    from wargym.attu import board

    fn = board.side_of.py_func
    locator = _numba_cache._PackageLocator.from_function(fn, board.__file__)
    assert locator is not None
    assert Path(locator.get_cache_path()) == Path(_numba_cache.FOLDER) / "wargym.attu"
    copy = tmp_path / "board.py"
    copy.write_bytes(Path(board.__file__).read_bytes())      # the same file elsewhere (a reinstall)
    elsewhere = _numba_cache._PackageLocator.from_function(fn, str(copy))
    assert elsewhere.get_cache_path() == locator.get_cache_path()
    assert elsewhere.get_source_stamp() == locator.get_source_stamp()
    copy.write_text(copy.read_text() + "\n# changed\n")
    assert _numba_cache._PackageLocator.from_function(fn, str(copy)).get_source_stamp() != locator.get_source_stamp()


def test_the_clone_folder_imports_envs_agents_and_configs():
    """Where the README's set-up commands leave a user: wargym/ is the source folder there."""
    code = ("import wargym, wargym.envs, wargym.agents, wargym.configs; "
            "print(wargym.__file__); print(wargym.envs.__file__); print(wargym.configs.__file__)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    wargym_file, envs_file, configs_file = done.stdout.split()
    assert Path(wargym_file).parent == ROOT / "wargym"
    assert Path(envs_file).parent == ROOT / "envs" and Path(configs_file).parent == ROOT / "configs"
