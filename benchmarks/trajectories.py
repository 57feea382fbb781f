"""Record the games a seed gives, and check later code against the record ("no behaviour change").

    python benchmarks/trajectories.py record --out benchmarks/results/trajectories.json
    python benchmarks/trajectories.py check benchmarks/results/trajectories.json [--games 50]

Each entry of ``CONFIGS`` plays a batch of games of one ruleset, scenario and core options from
one seed: with random masked play ("random", every decision asked) or with the rule baselines
("rule", their default decision mode).  Per game it keeps three 64-bit fingerprints:

    game          every decision: who decided, the legal mask, the action taken; then the
                  decision count, rewards, terminated and truncated at the end
    observations  ``core.observe`` of every player before every decision (random play only)
    board         the text board (``core.render(..., "ansi")``) of the final position

It uses only the Core protocol (init, step with ``active``, legal_mask, current_player,
terminated, truncated, rewards, observe, render), so a record made before a refactor checks the
code after it.  ``check`` names the first games whose fingerprints differ, per kind, and exits 1.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

FORMAT = 1
_M64 = np.uint64(0xFFFFFFFFFFFFFFFF)


@dataclass(frozen=True)
class Config:
    name: str
    ruleset: str
    scenario: str
    play: str                  # "random" or "rule"
    games: int
    options: dict[str, Any] = field(default_factory=dict)
    agents: tuple[str, ...] = ()  # rule play: the baseline name per player ("rule" by default)
    seed: int = 2026


CONFIGS = (
    Config("island_war/saipan/random", "island_war", "saipan", "random", 1000),
    Config("island_war/saipan/rule", "island_war", "saipan", "rule", 1000, {"decisions": "major"}),
    Config("island_war/bloody_ridge/random", "island_war", "bloody_ridge", "random", 200),
    Config("island_war/bloody_ridge/rule", "island_war", "bloody_ridge", "rule", 200, {"decisions": "major"}),
    Config("attu/campaign/random", "attu", "campaign", "random", 1000),
    Config("attu/campaign/rule", "attu", "campaign", "rule", 1000, {"decisions": "major"}),
    Config("attu/campaign/solitaire", "attu", "campaign", "rule", 200,
           {"decisions": "major", "solitaire": True}, ("rule", "solitaire")),
    Config("attu/hogs_back/random+vp_chits", "attu", "hogs_back", "random", 200, {"vp_chits": True}),
    Config("attu/holtz_bay_jarmin_pass/random", "attu", "holtz_bay_jarmin_pass", "random", 200),
    Config("attu/campaign_free/random", "attu", "campaign_free", "random", 200),
    Config("attu/linkup/rule", "attu", "linkup", "rule", 200, {"decisions": "major"}),
)


# ---------------------------------------------------------------------------------- fingerprints
def _mix(x: np.ndarray) -> np.ndarray:
    """SplitMix64's finaliser, elementwise on uint64."""
    with np.errstate(over="ignore"):
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return x ^ (x >> np.uint64(31))


def row_prints(a: np.ndarray) -> np.ndarray:
    """uint64[B]: a fingerprint of each row a[g] (its bytes, its shape and dtype)."""
    a = np.ascontiguousarray(a)
    b = a.shape[0]
    raw = a.reshape(b, -1).view(np.uint8).reshape(b, -1)
    pad = (-raw.shape[1]) % 8
    if pad:
        raw = np.concatenate([raw, np.zeros((b, pad), dtype=np.uint8)], axis=1)
    words = raw.view(np.uint64)
    k = np.arange(1, words.shape[1] + 1, dtype=np.uint64)
    with np.errstate(over="ignore"):
        weights = _mix(k * np.uint64(0x9E3779B97F4A7C15)) | np.uint64(1)
        out = (words * weights).sum(axis=1, dtype=np.uint64)
    tag = zlib.crc32(repr((a.shape[1:], a.dtype.str)).encode())
    return _mix(out ^ np.uint64(tag))


def fold(h: np.ndarray, prints: np.ndarray, games: np.ndarray) -> None:
    """h[games] <- mix(h[games] * K + prints[games])."""
    with np.errstate(over="ignore"):
        h[games] = _mix(h[games] * np.uint64(0x100000001B3) + prints[games])


# -------------------------------------------------------------------------------------- playing
def make(config: Config):
    from wargym.registry import make_core

    return make_core(config.ruleset, config.scenario, **config.options)


def play(config: Config, games: int | None = None, progress: bool = True) -> dict[str, list]:
    """The fingerprints of the first ``games`` games of ``config`` (all of them by default).  The
    batch is always the config's full count, so that every game is the one recorded."""
    from wargym.agents import baselines, joint_actions, sample_legal

    core = make(config)
    n = config.games
    state = core.init(n, config.seed)
    rng = np.random.default_rng(config.seed)
    players = range(len(core.players))
    agents = None
    if config.play == "rule":
        names = config.agents or ("rule",) * len(core.players)
        agents = [baselines.get(config.ruleset, core.players[p], names[p]) for p in players]
    game_h = np.zeros(n, dtype=np.uint64)
    obs_h = np.zeros(n, dtype=np.uint64)
    length = np.zeros(n, dtype=np.int64)
    t0, steps = time.perf_counter(), 0
    while True:
        live = ~np.asarray(core.terminated(state) | core.truncated(state))
        if not live.any():
            break
        games_live = np.flatnonzero(live)
        mask = np.asarray(core.legal_mask(state), dtype=bool)
        current = np.asarray(core.current_player(state)).astype(np.int64)
        if agents is None:
            for p in players:
                obs = core.observe(state, p)
                for key in sorted(obs):
                    fold(obs_h, row_prints(np.asarray(obs[key])), games_live)
            actions = sample_legal(rng, mask)
            state_next = core.step(state, actions, active=live)
        else:
            actions = joint_actions(core, state, agents, live)
            state_next = core.step(state, actions, active=live)
        fold(game_h, row_prints(current[:, None]), games_live)
        fold(game_h, row_prints(np.packbits(mask, axis=1)), games_live)
        fold(game_h, row_prints(actions[:, None]), games_live)
        length[live] += 1
        state = state_next
        steps += 1
        if progress and steps % 500 == 0:
            print(f"  {config.name}: {steps} steps, {int(live.sum())} games running, "
                  f"{time.perf_counter() - t0:.0f} s", file=sys.stderr)
    every = np.arange(n)
    end = np.concatenate([length[:, None].astype(np.float64), np.asarray(core.rewards(state), dtype=np.float64),
                          np.asarray(core.terminated(state))[:, None], np.asarray(core.truncated(state))[:, None]],
                         axis=1)
    fold(game_h, row_prints(end), every)
    keep = n if games is None else min(games, n)
    boards = [int(row_prints(np.frombuffer(core.render(state, g, "ansi").encode(), dtype=np.uint8)[None])[0])
              for g in range(keep)]
    rewards = np.asarray(core.rewards(state))
    return {
        "game": [f"{int(x):016x}" for x in game_h[:keep]],
        "observations": [f"{int(x):016x}" for x in obs_h[:keep]] if agents is None else [],
        "board": [f"{x:016x}" for x in boards],
        "length": length[:keep].tolist(),
        "result": rewards[:keep, 0].tolist(),
        "truncated": np.asarray(core.truncated(state))[:keep].astype(int).tolist(),
        "seconds": round(time.perf_counter() - t0, 1),
    }


def summary(rec: dict[str, list]) -> str:
    res = np.asarray(rec["result"])
    return (f"{len(res)} games, mean length {np.mean(rec['length']):.0f}, first player wins {np.mean(res > 0):.1%}, "
            f"truncated {int(np.sum(rec['truncated']))}, {rec['seconds']} s")


# ------------------------------------------------------------------------------------------ CLI
def record(out: Path, only: list[str] | None) -> int:
    configs = [c for c in CONFIGS if not only or c.name in only]
    data = {"format": FORMAT, "configs": {}}
    if out.exists():
        data = json.loads(out.read_text())
    for c in configs:
        rec = play(c)
        data["configs"][c.name] = {"config": {"ruleset": c.ruleset, "scenario": c.scenario, "play": c.play,
                                              "games": c.games, "options": c.options, "agents": list(c.agents),
                                              "seed": c.seed}, **rec}
        print(f"{c.name}: {summary(rec)}")
        out.write_text(json.dumps(data, indent=None, separators=(",", ":")) + "\n")
    return 0


def check(path: Path, games: int | None, only: list[str] | None) -> int:
    data = json.loads(path.read_text())
    failed = False
    for c in CONFIGS:
        if only and c.name not in only:
            continue
        want = data["configs"].get(c.name)
        if want is None:
            print(f"{c.name}: not in {path}")
            continue
        got = play(c, games)
        keep = len(got["game"])
        line = [f"{c.name}: {keep} games"]
        for kind in ("game", "observations", "board"):
            a, b = want[kind][:keep], got[kind]
            if not a and not b:
                continue
            bad = [g for g in range(keep) if a[g] != b[g]]
            if bad:
                failed = True
            line.append(f"{kind} {'same' if not bad else f'DIFFER in {len(bad)} (first {bad[:5]})'}")
        print(", ".join(line) + f"; {got['seconds']} s")
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("record", help="play every config and write the fingerprints")
    r.add_argument("--out", type=Path, required=True)
    r.add_argument("--only", nargs="*", help="config names (default: all)")
    c = sub.add_parser("check", help="play again and compare with a record")
    c.add_argument("record", type=Path)
    c.add_argument("--games", type=int, default=None, help="compare only the first N games of each config")
    c.add_argument("--only", nargs="*", help="config names (default: all)")
    args = parser.parse_args(argv)
    if args.command == "record":
        return record(args.out, args.only)
    return check(args.record, args.games, args.only)


if __name__ == "__main__":
    sys.exit(main())
