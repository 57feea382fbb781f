"""Load on the page's server: many games at once, each move answered how fast?

    python benchmarks/web_load.py [--games 50] [--moves 60] [--think 0] [--ruleset island_war]
                                  [--opponent rule] [--misbehave] [--json]

Starts ``wargym web --port 0`` in a process of its own and plays ``--games`` games at once over as
many WebSockets (asyncio, one client each, alternately the first and the second player), each
client answering its decisions with a random legal action ``--think`` seconds (at random up to
twice that: a person's pace; 0: at once, the server's capacity) after its view arrives, for
``--moves`` of its own decisions.  Printed: the latency of ``play`` (the client's move, the rule
agent's answer moves and the side's new view with its scene, one round trip) at the 50th, 95th
and 99th percentile, and of ``new``/``join``/``view``; moves a second over all games.
``--misbehave`` adds three clients that do what a page should not: one sends malformed and
oversized frames without pause, one holds a ``wait`` of 300 s on a game whose other side never
moves, one opens games until refused.  Their answers are not counted; the others' are.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import subprocess
import sys
import time

import numpy as np


def start_server() -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-c", "from wargym.cli import main; raise SystemExit(main())", "web",
                             "--port", "0"], stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    if "http://" not in line:
        proc.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return proc, line.split("open ", 1)[1].split(" ", 1)[0]


async def player(url: str, ruleset: str, opponent: str, side_index: int, moves: int, seed: int,
                 times: dict[str, list[float]], think: float = 0.0) -> int:
    import aiohttp

    rng = random.Random(seed)
    async with aiohttp.ClientSession() as http, http.ws_connect(url + "ws", max_msg_size=1 << 24) as ws:
        async def ask(kind: str, **req) -> dict:
            start = time.perf_counter()
            await ws.send_str(json.dumps(req))
            reply = json.loads((await ws.receive()).data)
            times.setdefault(kind, []).append(time.perf_counter() - start)
            if not reply.get("ok"):
                raise RuntimeError(f"{kind}: {reply.get('error')}")
            return reply

        catalog_players = {"island_war": ["us", "japan"], "attu": ["us", "japan"], "world_at_war": ["us", "japan"],
                           "peleliu": ["us"]}[ruleset]
        side = catalog_players[side_index % len(catalog_players)]
        made = await ask("new", cmd="new", ruleset=ruleset, opponent=opponent, sides=[side])
        token = (await ask("join", cmd="join", game=made["game"], side=side))["token"]
        view = await ask("view", cmd="view", game=made["game"], token=token)
        played = 0
        while played < moves and not view.get("game_over"):
            if not view.get("your_turn"):
                view = await ask("wait", cmd="wait", game=made["game"], token=token, timeout=30)
                continue
            action = rng.choice(view["legal"])["action"]
            if think > 0:
                await asyncio.sleep(rng.uniform(0, 2 * think))
            view = await ask("play", cmd="play", game=made["game"], token=token, action=action)
            played += 1
        await ask("close", cmd="close", game=made["game"], token=token)
        return played


async def misbehave(url: str, stop: asyncio.Event) -> None:
    import aiohttp

    async def garbage():
        async with aiohttp.ClientSession() as http, http.ws_connect(url + "ws") as ws:
            while not stop.is_set():
                await ws.send_str("{" * 5000)
                await ws.receive()
                await ws.send_str(json.dumps({"cmd": "play", "game": "x" * 10_000, "token": 1, "action": -1}))
                await ws.receive()

    async def hold_wait():
        async with aiohttp.ClientSession() as http, http.ws_connect(url + "ws") as ws:
            await ws.send_str(json.dumps({"cmd": "new", "opponent": "people", "sides": ["us", "japan"]}))
            game = json.loads((await ws.receive()).data)["game"]
            await ws.send_str(json.dumps({"cmd": "join", "game": game, "side": "japan"}))
            token = json.loads((await ws.receive()).data)["token"]
            await ws.send_str(json.dumps({"cmd": "wait", "game": game, "token": token, "timeout": 300}))
            await asyncio.wait([asyncio.ensure_future(ws.receive()), asyncio.ensure_future(stop.wait())],
                               return_when=asyncio.FIRST_COMPLETED)

    async def hoard():
        async with aiohttp.ClientSession() as http, http.ws_connect(url + "ws") as ws:
            while not stop.is_set():
                await ws.send_str(json.dumps({"cmd": "new", "opponent": "rule"}))
                if not json.loads((await ws.receive()).data).get("ok"):
                    await asyncio.sleep(0.05)

    tasks = [asyncio.ensure_future(f()) for f in (garbage, hold_wait, hoard)]
    await stop.wait()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def run(url: str, args) -> dict:
    times: dict[str, list[float]] = {}
    stop = asyncio.Event()
    bad = asyncio.ensure_future(misbehave(url, stop)) if args.misbehave else None
    start = time.perf_counter()
    played = await asyncio.gather(*(player(url, args.ruleset, args.opponent, i, args.moves, 1000 + i, times, args.think)
                                    for i in range(args.games)))
    wall = time.perf_counter() - start
    stop.set()
    if bad is not None:
        await bad
    out = {"games": args.games, "moves": int(sum(played)), "seconds": round(wall, 2),
           "moves_per_second": round(sum(played) / wall, 1), "misbehaving_clients": 3 if args.misbehave else 0}
    for kind, values in sorted(times.items()):
        ms = np.array(values) * 1000
        out[kind] = {"n": len(ms), "p50_ms": round(float(np.percentile(ms, 50)), 1),
                     "p95_ms": round(float(np.percentile(ms, 95)), 1), "p99_ms": round(float(np.percentile(ms, 99)), 1)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=60, help="decisions each client makes")
    parser.add_argument("--ruleset", default="island_war")
    parser.add_argument("--opponent", default="rule")
    parser.add_argument("--think", type=float, default=0.0, help="a client's mean seconds between its view and its move")
    parser.add_argument("--misbehave", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    proc, url = start_server()
    try:
        result = asyncio.run(run(url, args))
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    if args.json:
        print(json.dumps(result))
        return
    print(f"{result['games']} games at once on {args.ruleset} against {args.opponent}, think {args.think} s"
          f"{' with 3 misbehaving clients' if args.misbehave else ''}: {result['moves']} moves in {result['seconds']} s "
          f"({result['moves_per_second']} moves/s)")
    for kind in ("play", "new", "join", "view", "wait"):
        if kind in result:
            r = result[kind]
            print(f"  {kind:5s} n={r['n']:5d}  p50 {r['p50_ms']:7.1f} ms  p95 {r['p95_ms']:7.1f} ms  p99 {r['p99_ms']:7.1f} ms")


if __name__ == "__main__":
    main()
