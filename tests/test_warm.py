"""A command run before the kernels are compiled (wargym/warm.py): demo, play and render play the
rules interpreted at once instead of waiting minutes for numba, and say so; `wargym compile`
marks a ruleset ready."""

from __future__ import annotations

import os
import subprocess
import sys

from wargym import _numba_cache, warm


def test_a_ruleset_is_ready_once_marked(tmp_path, monkeypatch):
    monkeypatch.setattr(_numba_cache, "FOLDER", str(tmp_path))
    assert not warm.ready("island_war")
    mark = warm._mark("island_war")
    mark.touch()
    assert warm.ready("island_war") and not warm.ready("attu")


def test_kernels_compiled_by_any_command_make_a_ruleset_ready(tmp_path, monkeypatch):
    """Whatever filled the cache (a test run, a training run), the next command finds the kernels
    and marks the ruleset ready: the step kernel and the rule agent's are what it looks for."""
    monkeypatch.setattr(_numba_cache, "FOLDER", str(tmp_path))
    indexes = warm.kernel_indexes("island_war")
    assert [i.name.split("-")[0] for i in indexes] == ["kernel.run_chunk_island_war", "island_war_rule.decide_batch"]
    for index in indexes[:1]:
        (tmp_path / index).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / index).touch()
    assert not warm.ready("island_war")  # the rule agent's kernel is still missing
    (tmp_path / indexes[1]).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / indexes[1]).touch()
    assert warm.ready("island_war") and warm._mark("island_war").exists()
    assert not warm.ready("attu")


def test_a_user_cache_dir_is_not_judged(monkeypatch):
    monkeypatch.setattr(_numba_cache, "FOLDER", None)
    assert warm.ready("attu")


def test_render_before_the_kernels_are_compiled_runs_interpreted(tmp_path):
    from wargym.cli import main

    replay = tmp_path / "game" / "replay.json"
    assert main(["demo", "--agent", "us=random", "--agent", "japan=random", "--out", str(replay.parent),
                 "--quiet"]) == 0
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cold-cache"), WARGYM_BACKGROUND_COMPILE="0")
    env.pop("NUMBA_CACHE_DIR", None)
    done = subprocess.run([sys.executable, "-m", "wargym.cli", "render", str(replay), "--step", "40",
                           "--out", str(tmp_path / "b.png")], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "not compiled on this machine yet" in done.stderr and "wargym compile" in done.stderr
    assert (tmp_path / "b.png").stat().st_size > 1000
    assert "compiling" not in done.stderr.replace("`wargym compile`", "")  # interpreted: nothing compiled
