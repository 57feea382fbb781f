"""The planner against its own base, side by side: does thinking with the engine beat the rule?

    python benchmarks/planner_vs_rule.py [--rows ROW,...] [--games 300] [--seed 50000] [--batch 100]
                                         [--spec plan:...] [--record FILE] [--json]

A row is ``ruleset:scenario:side[:option]``, the option a core flag set true (Attu's ``solitaire``);
``ROWS`` lists issue 50's table with the planner settings of each, ``OTHER_ROWS`` the other
scenarios' rows (``--rows other``), which the issue asks reported, not required. For every row the
same games (seeds ``seed .. seed + games - 1``, unseen by anything tuned here) are played twice: the
side's rule against the other side's rule (Peleliu: the cards), and the planner (its side's rule as
base) against the same rule. Game i of one run is paired with game i of the other. Printed per row:
both win rates with Wilson 95 % intervals, mean reward, the discordant pairs (planner won where the
rule did not, and the reverse), the one-sided exact McNemar p (a binomial test on the discordant
pairs), the side's standing at the end (``core.score``: its own less the other's), with the pairs it
ended higher and lower in and the same one-sided sign test on them (for a row neither wins, such as
Attu's solitaire game, the standing is what tells them apart), the planner's seconds per planned
decision (the wall time of its planning over the decisions it planned, all games of a batch planned
together) and the phases it planned in.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from wargym import atomic, make_core
from wargym.agents.base import joint_actions, make_agent
from wargym.agents.evaluate import mcnemar_one_sided, wilson_interval
from wargym.rng import game_keys

PLAN = "plan:budget=64,top=4"
#: the first turn's move destinations: where Island War's rule leaves room (benchmarks/README.md)
FIRST_MOVES = PLAN + ",phases=move: destination,turns=1"
#: the U.S. refit decisions (3.1, 9.0), played out to the end; close ones draw on a reserve (bank).
#: Its row: ``--rows attu:campaign:us --seed 85000 --games 600 --batch 75`` (the batch sets which
#: games are planned together and the planner's seeds)
ATTU_REFIT = "plan:budget=88,top=2,bank=8,phases=refit decision"


def attu_late(since: int) -> str:
    """Japan's late decisions (Attu), from turn ``since`` on, played out to the end."""
    return (f"plan:budget=128,top=4,bank=8,since={since},phases=actions: order|actions: select|"
            "unknowns: swap infantry|unknowns: destination|airpower: target hex|advance")


#: Japan's late decisions in the campaign, from turn 14: where a U.S. win is near and playouts are
#: short.  Its row: ``--rows attu:campaign:japan --batch 50``
ATTU_LATE = attu_late(14)
#: the U.S. questions of Attu's solitaire game (13.0) that are not orders: every playout of the
#: rule there is a loss, so they are ranked by the standing they end with (``tiebreak``).  Its row:
#: ``--rows attu:campaign:us:solitaire --batch 25``
ATTU_SOLITAIRE = ("plan:budget=16,top=2,tiebreak=standing,"
                  "phases=refit decision|night decision|advance|retreat option")
#: the U.S. withdrawals of Peleliu's close combats, to the end, the budget a mean
PELELIU_WITHDRAW = "plan:budget=128,top=2,bank=8,phases=close combat: withdraw"
#: the card to play (World at War), 256 playouts to the end
CARD = "plan:budget=256,top=6,phases=command card: play"
#: row -> (core options, planner spec): issue 50's table, every spec measured (benchmarks/README.md,
#: "The planner against the rule").  Island War's and World at War's gain; Attu's U.S. refits
#: 7.7 -> 13.0 %, p = 5.1e-5 on 600 fresh seeds (at budget 96 on the 300 test seeds: 10.3 -> 13.0 %,
#: p = 0.12; its melee targets at an 80-decision horizon: 9.7 %); Japan's late decisions 89.7 ->
#: 95.3 %, p = 3.8e-5 (its fighting questions, the ladder's rung: 90.3 %); the solitaire U.S.: 0 wins
#: for the rule and every planner (its melee targets at an 80-decision horizon, 0 -> 0); Peleliu's
#: withdrawals to the end 31.4 -> 35.0 %, p = 3.1e-4 on 2,600 fresh seeds (its row: ``--rows
#: peleliu:sept15:us --seed 86000 --games 2600``; on the 300 test seeds 31.3 -> 35.3 %, p = 0.109;
#: 31.1 -> 32.7 %, p = 0.18 on 1,000 fresh seeds; at a 60-decision horizon: 34.7 %, p = 0.137, and
#: 30.0 -> 30.4 % on 1,000 fresh seeds)
ROWS = {
    "island_war:saipan:us": ({}, FIRST_MOVES),
    "island_war:saipan:japan": ({}, FIRST_MOVES),
    "attu:campaign:us": ({}, ATTU_REFIT),
    "attu:campaign:japan": ({}, ATTU_LATE),
    "attu:campaign:us:solitaire": ({"solitaire": True}, ATTU_SOLITAIRE),
    "peleliu:sept15:us": ({}, PELELIU_WITHDRAW),
    "world_at_war:pacific:us": ({}, CARD),
    "world_at_war:pacific:japan": ({}, CARD),
}
#: the other scenarios (issue 50: reported, not required; ``--rows other``), each side with its
#: table row's spec.  Attu's short scenarios (15.x) end on turn 8 (15.1) or 12 (15.2, 15.3), before
#: the campaign Japan's turn 14, so Japan plans there from four turns before the end, as in an
#: average campaign (its last turn 14-23)
OTHER_ROWS = {
    "island_war:bloody_ridge:us": ({}, FIRST_MOVES),
    "island_war:bloody_ridge:japan": ({}, FIRST_MOVES),
    "attu:campaign_free:us": ({}, ATTU_REFIT),
    "attu:campaign_free:japan": ({}, ATTU_LATE),
    "attu:hogs_back:us": ({}, ATTU_REFIT),
    "attu:hogs_back:japan": ({}, attu_late(5)),
    "attu:holtz_bay_jarmin_pass:us": ({}, ATTU_REFIT),
    "attu:holtz_bay_jarmin_pass:japan": ({}, attu_late(9)),
    "attu:linkup:us": ({}, ATTU_REFIT),
    "attu:linkup:japan": ({}, attu_late(9)),
    "peleliu:assault:us": ({}, PELELIU_WITHDRAW),
    "peleliu:bnr:us": ({}, PELELIU_WITHDRAW),
    "world_at_war:bocage:us": ({}, CARD),
    "world_at_war:bocage:germany": ({}, CARD),
    "world_at_war:ussr_town:ussr": ({}, CARD),
    "world_at_war:ussr_town:germany": ({}, CARD),
}


def play(core, agents, seed: int, n: int) -> tuple[np.ndarray, np.ndarray | None]:
    """float[n, P]: the rewards of games ``seed .. seed + n - 1`` played together by ``agents``
    (one per player), and float[n, P] their standings at the end (``core.score``; None where the
    ruleset has none)."""
    state = core.init_from_keys(np.concatenate([game_keys(seed + i, 1) for i in range(n)]))
    for agent in agents:
        if hasattr(agent, "reset"):
            agent.reset(seed)
    while True:
        live = ~np.asarray(state.terminated | state.truncated)
        if not live.any():
            score = core.score(state)
            return np.asarray(state.rewards), None if score is None else np.asarray(score, dtype=float)
        state = core.step(state, joint_actions(core, state, agents, live), active=live)


def batches(row: str, spec: str, who: str, games: int, seed: int, batch: int, run, record: str | None) -> list[dict]:
    """Every batch of ``games`` (``batch`` at a time) played by ``run(first, n)`` (which returns the
    side's rewards, its standings at the end and the planner's statistics), read from ``record``
    (JSON lines) where a line for the same row, spec, player and games is there, else played and
    appended to it at once: a killed run loses at most the batch in progress (a line it cut short is
    dropped, wargym.atomic)."""
    done, log = {}, None
    if record:
        whole, _ = atomic.complete_text(record)
        for item in map(json.loads, filter(str.strip, whole.splitlines())):
            done[(item["row"], item["spec"], item["who"], item["first"], item["n"])] = item
        log, _ = atomic.open_lines(record, "")
    out = []
    try:
        for first in range(seed, seed + games, batch):
            n = min(batch, seed + games - first)
            key = (row, spec if who == "planner" else "rule", who, first, n)
            if key not in done:
                start = time.perf_counter()
                rewards, standing, stats = run(first, n)
                done[key] = {"row": row, "spec": key[1], "who": who, "first": first, "n": n,
                             "rewards": [float(r) for r in rewards],
                             "standing": None if standing is None else [float(x) for x in standing], "stats": stats,
                             "seconds": time.perf_counter() - start}
                if log is not None:
                    log.write(json.dumps(done[key]) + "\n")
                    atomic.sync(log)
            out.append(done[key])
    finally:
        if log is not None:
            log.close()
    return out


def standings(ruled: list[dict], planned: list[dict]) -> dict | None:
    """The side's standing at the end, rule and planner, paired game by game: the means, the games
    the planner ended higher and lower in, and the one-sided sign test on them (None where a
    batch has no standing: a ruleset without ``score``, or a record written before it was kept)."""
    if any(b.get("standing") is None for b in ruled + planned):
        return None
    base = np.concatenate([b["standing"] for b in ruled])
    mine = np.concatenate([b["standing"] for b in planned])
    higher, lower = int((mine > base).sum()), int((mine < base).sum())
    return {"rule": float(base.mean()), "planner": float(mine.mean()), "higher": higher, "lower": lower,
            "p_one_sided": mcnemar_one_sided(higher, lower)}


def compare(row: str, games: int, seed: int, batch: int, spec: str | None = None, record: str | None = None) -> dict:
    ruleset, scenario, side, *rest = row.split(":")
    options, default_spec = {**ROWS, **OTHER_ROWS}.get(row, ({flag: True for flag in rest}, PLAN))
    core = make_core(ruleset, scenario=None if scenario == "campaign" else scenario, decisions="major", **options)
    p = core.players.index(side)
    spec = spec or default_spec
    rules = [make_agent("rule", ruleset, q) for q in core.players]
    phases = list(make_agent(spec, ruleset, side).phases)

    def side_of(played):
        rewards, standing = played
        return rewards[:, p], None if standing is None else standing[:, p]

    def rule_games(first: int, n: int):
        return *side_of(play(core, rules, first, n)), {}

    def planner_games(first: int, n: int):
        planner = make_agent(spec, ruleset, side, seed=first)
        played = play(core, [planner if q == p else rules[q] for q in range(len(core.players))], first, n)
        return *side_of(played), dict(planner.stats)

    ruled = batches(row, spec, "rule", games, seed, batch, rule_games, record)
    planned = batches(row, spec, "planner", games, seed, batch, planner_games, record)
    base = np.concatenate([b["rewards"] for b in ruled])
    mine = np.concatenate([b["rewards"] for b in planned])
    stats = {k: sum(b["stats"][k] for b in planned) for k in ("planned", "changed", "playouts", "seconds")}
    won_rule, won_plan = base > 0, mine > 0
    better, worse = int((won_plan & ~won_rule).sum()), int((won_rule & ~won_plan).sum())
    return {"row": row, "games": games, "seed": seed, "spec": spec,
            "rule": {"wins": int(won_rule.sum()), "rate": float(won_rule.mean()),
                     "wilson": wilson_interval(int(won_rule.sum()), games), "mean_reward": float(base.mean()),
                     "seconds": round(sum(b["seconds"] for b in ruled), 1)},
            "planner": {"wins": int(won_plan.sum()), "rate": float(won_plan.mean()),
                        "wilson": wilson_interval(int(won_plan.sum()), games), "mean_reward": float(mine.mean()),
                        "seconds": round(sum(b["seconds"] for b in planned), 1)},
            "discordant": {"planner_only": better, "rule_only": worse}, "p_one_sided": mcnemar_one_sided(better, worse),
            "standing": standings(ruled, planned),
            "planned_decisions": stats["planned"], "changed": stats["changed"], "playouts": stats["playouts"],
            "seconds_per_decision": stats["seconds"] / max(stats["planned"], 1), "phases": phases}


def standing_text(standing: dict | None) -> str:
    if standing is None:
        return ""
    return (f"standing at the end {standing['rule']:+.3f} -> {standing['planner']:+.3f}, "
            f"higher/lower {standing['higher']}/{standing['lower']}, p = {standing['p_one_sided']:.4f}; ")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default=",".join(ROWS),
                        help="rows ruleset:scenario:side[:option], comma-separated; 'other': the other scenarios' rows")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=50_000, help="first game seed (unseen: nothing was tuned on it)")
    parser.add_argument("--batch", type=int, default=100, help="games played (and planned) together")
    parser.add_argument("--spec", default=None, help="planner spec for every row (default: the row's own)")
    parser.add_argument("--record", default=None,
                        help="JSON-lines file of finished batches: read where there, appended to as they end "
                             "(a rerun after a kill goes on where it stopped)")
    parser.add_argument("--json", action="store_true", help="one JSON object per row")
    args = parser.parse_args()
    rows = args.rows.split(",")
    if "other" in rows:
        at = rows.index("other")
        rows[at:at + 1] = list(OTHER_ROWS)
    for row in rows:
        r = compare(row, args.games, args.seed, args.batch, args.spec, args.record)
        if args.json:
            print(json.dumps(r), flush=True)
            continue
        rule, plan = r["rule"], r["planner"]
        print(f"{row}: rule {rule['rate']:.1%} [{rule['wilson'][0]:.1%}, {rule['wilson'][1]:.1%}] "
              f"-> planner {plan['rate']:.1%} [{plan['wilson'][0]:.1%}, {plan['wilson'][1]:.1%}] "
              f"over {r['games']} paired games; mean reward {rule['mean_reward']:+.3f} -> {plan['mean_reward']:+.3f}; "
              f"discordant {r['discordant']['planner_only']}/{r['discordant']['rule_only']}, "
              f"p = {r['p_one_sided']:.4f}; {standing_text(r['standing'])}"
              f"{r['seconds_per_decision']:.3f} s per planned decision "
              f"({r['planned_decisions']} planned, {r['changed']} changed); phases {r['phases']}", flush=True)


if __name__ == "__main__":
    main()
