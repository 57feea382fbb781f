"""No interrupted run loses work (wargym.atomic, agents/train.py, agents/tournament.py): a file is
written whole or not at all; `wargym tournament` and `wargym train`, started as programs and killed
(kill -9, SIGTERM) at moments drawn from fixed seeds, are resumed with --resume: the tournament to
the same final files as an uninterrupted run, the training run to its end from the newest
checkpoint that loads, naming those it skips."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import struct
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from wargym import atomic
from wargym.agents.tournament import read_results, run_tournament

# A small round robin: 3 agents, 8 games a pair in tasks of 2 games (12 tasks, 24 games), short games.
TOURNAMENT = {"name": "resume", "ruleset": "island_war", "scenario": "saipan", "decisions": "major",
              "max_decisions": 600, "games_per_pair": 8, "seed": 5, "chunk_games": 2, "bootstrap": 20,
              "agents": [{"name": "random", "spec": "random"}, {"name": "rule", "spec": "rule"},
                         {"name": "random-1", "spec": "random", "seed": 1}]}
GAMES = 24
TABLES = ("results.csv", "pairs.csv", "ratings.csv", "tournament.png")
TIMEOUT = 300  # seconds a program may take on a slow, busy machine


def wargym(tmp_path: Path, *args: str) -> subprocess.Popen:
    """``wargym ARGS`` as a program (cwd outside the source tree: the installed package runs),
    its output in files (a pipe nobody reads could fill and stall it): ``proc.logs``."""
    n = len(list(tmp_path.glob("*.stdout")))
    logs = (tmp_path / f"{n}.stdout", tmp_path / f"{n}.stderr")
    with logs[0].open("w") as out, logs[1].open("w") as err:
        proc = subprocess.Popen([sys.executable, "-m", "wargym.cli", *args], cwd=tmp_path, stdout=out, stderr=err)
    proc.logs = logs
    return proc


def finish(proc: subprocess.Popen) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of a program started by ``wargym``, once it ends."""
    proc.wait(timeout=TIMEOUT)
    return proc.returncode, proc.logs[0].read_text(), proc.logs[1].read_text()


def wait_for(proc: subprocess.Popen, ready, what: str) -> None:
    """Poll until ``ready()`` (or the program has ended: the caller's kill then comes too late,
    which the test allows)."""
    deadline = time.monotonic() + TIMEOUT
    while not ready() and proc.poll() is None:
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"no {what} after {TIMEOUT} s")
        time.sleep(0.05)


# ------------------------------------------------------------------------------------ atomic files
def test_a_kill_while_writing_leaves_the_old_file_and_a_leftover_that_is_removed(tmp_path):
    target = tmp_path / "model.zip"
    target.write_bytes(b"old")
    script = ("import os, signal, sys\nfrom wargym import atomic\n"
              "with atomic.atomic_open(sys.argv[1], 'wb') as f:\n"
              "    f.write(b'half of the new'); f.flush(); os.kill(os.getpid(), signal.SIGKILL)\n")
    proc = subprocess.run([sys.executable, "-c", script, str(target)], cwd=tmp_path, timeout=TIMEOUT)
    assert proc.returncode == -signal.SIGKILL
    assert target.read_bytes() == b"old"
    leftovers = [p for p in tmp_path.iterdir() if p != target]
    assert len(leftovers) == 1 and leftovers[0].name.startswith(".model.zip.")
    assert atomic.remove_leftovers(tmp_path) == leftovers and sorted(tmp_path.iterdir()) == [target]
    with pytest.raises(RuntimeError), atomic.atomic_open(target, "wb") as f:  # an error: nothing changes
        f.write(b"new")
        raise RuntimeError("while writing")
    assert target.read_bytes() == b"old" and sorted(tmp_path.iterdir()) == [target]
    atomic.write_bytes(target, b"new")
    assert target.read_bytes() == b"new" and sorted(tmp_path.iterdir()) == [target]


def test_a_line_cut_short_is_not_read_and_is_cut_off_before_appending(tmp_path):
    log = tmp_path / "log.csv"
    log.write_text("x,y\n1,2\n3,")
    assert atomic.complete_text(log) == ("x,y\n1,2\n", "3,")
    f, torn = atomic.open_lines(log, "x,y\n")
    f.write("3,4\n")
    atomic.sync(f)
    f.close()
    assert torn == "3," and log.read_text() == "x,y\n1,2\n3,4\n"


# -------------------------------------------------------------------------------------- tournament
@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory) -> Path:
    """The tournament played through in this process, with replays: the folder of its files."""
    out = tmp_path_factory.mktemp("uninterrupted")
    run_tournament(TOURNAMENT, workers=1, out=out, replay_dir=out / "replays")
    return out


@pytest.fixture
def config(tmp_path) -> Path:
    path = tmp_path / "resume.yaml"
    path.write_text(json.dumps(TOURNAMENT))  # JSON is YAML
    return path


def same_files(a: Path, b: Path, replays: bool = False) -> None:
    for name in TABLES:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    if replays:
        mine = sorted(p.relative_to(a) for p in (a / "replays").rglob("*"))
        assert mine == sorted(p.relative_to(b) for p in (b / "replays").rglob("*"))
        for p in mine:
            assert (a / p).is_dir() or (a / p).read_bytes() == (b / p).read_bytes(), p


def test_tournament_killed_twice_at_random_moments_resumes_to_the_same_files(uninterrupted, config, tmp_path):
    """kill -9 of `wargym tournament --workers 2 --replays` after a seeded number of rows, twice
    (the second time a resumed run), then --resume to the end: every file, replays included,
    equals the uninterrupted run's byte for byte."""
    rng = random.Random(47)
    out = tmp_path / "out"
    args = ["tournament", "--config", str(config), "--out", str(out), "--workers", "2", "--replays", "--quiet"]
    seen = 0
    for kill in range(2):
        proc = wargym(tmp_path, *args, *(["--resume"] if kill else []))
        rows = rng.randint(seen + 1, seen + 8)
        wait_for(proc, lambda: len(read_results(out / "results.csv")) >= rows, f"{rows} rows")
        proc.kill()
        proc.wait(timeout=TIMEOUT)
        seen = len(read_results(out / "results.csv"))
        assert seen >= min(rows, GAMES)  # every game that ended has its row
        assert kill or seen < GAMES  # the first kill came mid-run (the second may come too late)
    code, stdout, stderr = finish(wargym(tmp_path, *args, "--resume"))
    assert code == 0, stderr
    assert f"resuming {out}: {seen} of {GAMES} games in results.csv" in stdout
    same_files(out, uninterrupted, replays=True)
    assert json.loads((out / "tournament.json").read_text())["status"] == "finished"
    assert not [p for p in out.rglob(".*.tmp")]


def test_sigterm_keeps_the_finished_games_and_says_how_to_resume(uninterrupted, config, tmp_path):
    out = tmp_path / "out"
    proc = wargym(tmp_path, "tournament", "--config", str(config), "--out", str(out), "--workers", "2", "--quiet")
    wait_for(proc, lambda: len(read_results(out / "results.csv")) >= 3, "3 rows")
    proc.send_signal(signal.SIGTERM)
    code, _, stderr = finish(proc)
    kept = len(read_results(out / "results.csv"))
    if code != 128 + signal.SIGTERM:  # the tournament ended before the signal came: nothing to resume
        assert kept == GAMES, stderr
    else:
        assert f"SIGTERM: {kept} of {GAMES} games are in {out / 'results.csv'}" in stderr
        assert "--resume plays the rest" in stderr and "Traceback" not in stderr
        with pytest.raises(FileExistsError, match="unfinished tournament .* --resume"):
            run_tournament(config, workers=1, out=out)  # without --resume: refused, the games kept
    run_tournament(config, workers=1, out=out, resume=True)
    same_files(out, uninterrupted)


def test_a_results_line_cut_short_is_dropped_and_its_game_played_again(uninterrupted, tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    text = (uninterrupted / "results.csv").read_text()
    lines = text.splitlines(keepends=True)
    (out / "results.csv").write_text("".join(lines[:10]) + lines[10][:9])  # 9 games, the 10th cut short
    record = json.loads((uninterrupted / "tournament.json").read_text())
    (out / "tournament.json").write_text(json.dumps({**record, "status": "running"}))
    result = run_tournament(TOURNAMENT, workers=1, out=out, resume=True)
    captured = capsys.readouterr()
    assert f"dropped its last line, cut short by the interruption ({lines[10][:9]!r})" in captured.err
    assert "resuming" in captured.out and f"9 of {GAMES} games" in captured.out
    assert len(result.rows) == GAMES
    same_files(out, uninterrupted)


def test_resume_refuses_another_config_naming_the_key(uninterrupted, tmp_path):
    out = tmp_path / "out"
    shutil.copytree(uninterrupted, out)
    with pytest.raises(ValueError, match=r"games_per_pair=8; this one has games_per_pair=6"):
        run_tournament({**TOURNAMENT, "games_per_pair": 6}, workers=1, out=out, resume=True)
    with pytest.raises(FileNotFoundError, match="no tournament.json"):
        run_tournament(TOURNAMENT, workers=1, out=tmp_path / "empty", resume=True)
    run_tournament({**TOURNAMENT, "workers": 2}, workers=1, out=out, resume=True)  # workers may change
    same_files(out, uninterrupted)


# ---------------------------------------------------------------------------------------- training
def test_training_killed_at_a_random_moment_resumes_to_its_end(tmp_path):
    """kill -9 of `wargym train` after a seeded number of rollouts, then --resume: the run ends
    at its steps from a whole checkpoint; every checkpoint is whole, curve.csv reads."""
    pytest.importorskip("sb3_contrib")
    from wargym.agents.train import checkpoint_problem, checkpoints, read_curve

    out = tmp_path / "run"
    args = ["train", "--config", "smoke", "--steps", "2048", "--seed", "2", "--out", str(out), "--quiet"]
    rollouts = random.Random(47).randint(2, 12)  # of 16 (128 env steps each)
    proc = wargym(tmp_path, *args)
    wait_for(proc, lambda: len(read_curve(out / "curve.csv")) >= rollouts, f"{rollouts} rollouts")
    proc.kill()
    proc.wait(timeout=TIMEOUT)
    assert json.loads((out / "run.json").read_text())["status"] == "running"  # killed mid-run
    code, stdout, stderr = finish(wargym(tmp_path, *args, "--resume"))
    assert code == 0, stderr
    assert "resuming" in stdout or "holds no checkpoint yet" in stdout
    record = json.loads((out / "run.json").read_text())
    assert record["status"] == "finished" and record["num_timesteps"] >= 2048
    assert all(checkpoint_problem(path) is None for _, path in checkpoints(out))
    steps = [row["steps"] for row in read_curve(out / "curve.csv")]
    assert steps == sorted(set(steps)) and steps[-1] >= 2048
    assert not list(out.rglob(".*.tmp"))


def test_resume_skips_a_0_byte_and_a_cut_checkpoint_naming_them(tmp_path, capsys):
    """The newest checkpoints empty (a save cut short before issue 47, "wasn't a zip-file") and
    cut at 40,000 bytes: --resume names both and goes on from the newest whole one; a damaged
    member is named too, and with no checkpoint that loads the error names them all."""
    MaskablePPO = pytest.importorskip("sb3_contrib").MaskablePPO
    from wargym.agents.train import read_curve, train

    out = tmp_path / "run"
    train("smoke", steps=512, out_dir=out, seed=1)
    folder = out / "checkpoints"
    whole = folder / "model_512_steps.zip"
    (folder / "model_5632_steps.zip").write_bytes(b"")
    (folder / "model_5760_steps.zip").write_bytes(whole.read_bytes()[:40_000])
    with (out / "curve.csv").open("a") as f:
        f.write("5888,9.9,")  # a curve row cut short
    capsys.readouterr()
    train("smoke", steps=768, out_dir=out, seed=1, resume=True)
    err = capsys.readouterr().err
    assert f"skipping {folder / 'model_5760_steps.zip'}: not a zip file (40,000 bytes" in err
    assert f"skipping {folder / 'model_5632_steps.zip'}: 0 bytes" in err
    record = json.loads((out / "run.json").read_text())
    assert record["resumes"][-1]["checkpoint"] == str(whole) and record["num_timesteps"] == 768
    assert MaskablePPO.load(out / "final.zip").num_timesteps == 768
    assert [row["steps"] for row in read_curve(out / "curve.csv")][-3:] == [512, 640, 768]

    for steps in (256, 512):
        (folder / f"model_{steps}_steps.zip").unlink()
    damage(folder / "model_768_steps.zip", "data")
    with pytest.raises(FileNotFoundError, match=r"no checkpoint loads \(model_5760_steps.zip: not a zip file .*; "
                                                r"model_5632_steps.zip: 0 bytes .*; model_768_steps.zip: data in it "
                                                r"fails its CRC check\)"):
        train("smoke", steps=1024, out_dir=out, seed=1, resume=True)


def damage(path: Path, member: str) -> None:
    """Flip a byte of ``member``'s stored data in the zip file ``path`` (its CRC no longer holds)."""
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo(member)
    data = bytearray(path.read_bytes())
    name, extra = struct.unpack("<HH", data[info.header_offset + 26:info.header_offset + 30])
    data[info.header_offset + 30 + name + extra + 2] ^= 0xFF
    path.write_bytes(bytes(data))


def test_a_run_killed_before_its_first_checkpoint_starts_again(tmp_path, capsys):
    pytest.importorskip("sb3_contrib")
    from wargym.agents.train import train

    out = tmp_path / "run"
    train("smoke", steps=256, out_dir=out, seed=1)
    shutil.rmtree(out / "checkpoints")
    os.remove(out / "final.zip")
    train("smoke", steps=256, out_dir=out, seed=1, resume=True)
    assert "holds no checkpoint yet" in capsys.readouterr().out
    record = json.loads((out / "run.json").read_text())
    assert record["status"] == "finished" and record["resumes"][-1]["checkpoint"] is None
    assert (out / "checkpoints" / "model_256_steps.zip").is_file()
