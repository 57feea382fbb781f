"""What the Attu rule baselines do with the book, and how the battle they play runs against history.

    python benchmarks/attu_baselines.py --games 200 --seed 0

Plays, in one batch each, ``--games`` campaign games (historic set-ups, the default scenario,
``decisions="major"``): the U.S. rule against the Japanese rule, the U.S. rule against uniformly
random Japanese play, and the Japanese rule against a random U.S.  Game j is dealt by
``core.init(1, seed + j)``, as ``wargym eval --a-side`` deals it, in every match-up.

Per game it counts, from each decision taken and the state around it:

    refit turns            3.1/9.0   the U.S. answered yes to the Refit Decision
    night turns            3.2       the U.S. answered yes to the Night Turn Decision.  3.2 gives
                                     that choice to the U.S. alone, so Japan is never asked.
    independents           9.3       Independent units created
    depots                 7.3/9.4   Supply Depots created
    unknowns rearranged    9.6 (1)   on-map Unknowns moved to another hex in a Refit Turn
    hexes swapped          9.6 (2)   Infantry hexes swapped for Unknowns
    infantry from the cup  2.5       Japanese Infantry that came onto the map from the cup (Unknowns
                                     revealed); those put back by swaps; those left at the end
    Yamasaki               11.3      Colonel Yamasaki's assault used

It also records the turn each Victory Hex of 3.8.1 is first occupied by a U.S. unit (May 10 +
turn, 12.2) and whether its Victory Zone was cleared then (10.0: the zone's Unknowns go off the
map).  These dates are set against the ones the book gives: 15.1, Engineer Hill (2717) by the end
of May 18th; 15.2/15.3, Jarmin Pass (2117) by May 22nd.  The same two rules then play those two
short scenarios (their free set-ups, 12.4/12.6), where those dates are the U.S. victory condition.
Last, ``--ablations`` replays rule vs rule with one decision at a time answered the old way (no
Night Turn, no Independent, no depot, no Unknown moved, no swap), to show what each is worth.

Prints markdown tables and writes them (.md) with the JSON (``--out``, default
benchmarks/results/attu_baselines.json).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

VICTORY_NAMES = ("Temnac Bay", "Holtz Bay", "Jarmin Pass", "Engineer Hill", "Attu Village", "Alexai Point")
# the book's dates for the course of the battle (May, end of day)
HISTORY = {
    "Engineer Hill": (18, "15.1 Up the Hog's Back: capture 2717 by the end of May 18th"),
    "Jarmin Pass": (22, "15.2 Holtz Bay to Jarmin Pass: capture 2117 by May 22nd (15.3: the linkup by the end "
                        "of May 22nd, after which 'the rest of the battle was mostly mopping up')"),
}
END_NOTES = ("12.1: the campaign ends after May 24 + 1-4 turns, May 27 + 1-4 or May 30 + 1-4 (Komandorski chits); "
             "14.0 scores a U.S. victory ending before May 27th +1 VP, after May 30th -1 VP")
SHORT = (("hogs_back", "15.1 Up the Hog's Back"), ("holtz_bay_jarmin_pass", "15.2 Holtz Bay to Jarmin Pass"))


def play(core, agents, seeds) -> dict[str, np.ndarray]:
    """Play the games dealt by ``seeds`` with ``agents`` (one per side) in one batch; per game,
    the counts of the module docstring, the first turn each Victory Hex held a U.S. unit (-1:
    never) and whether its zone was cleared then, the winner (0 U.S., 1 Japan, -1 none), how the
    game was won (3.8) and the final turn."""
    from wargym.attu.actions import YES
    from wargym.attu.scenario import DEPOT, INFANTRY, JAPAN, UNKNOWN, US
    from wargym.attu.state import (
        HERO_YAMASAKI, LOC_ELIM, LOC_MAP, LOC_NONE, LOC_RESERVE, NIGHT_DECISION, REFIT_DECISION, SWAP_PICK,
        UNKNOWN_DEST,
    )
    from wargym.core import stack_states

    sc, T = core.scenario, core.tables
    H = sc.num_hexes
    state = stack_states([core.init(1, int(s)) for s in seeds])
    B = len(seeds)
    rows = np.arange(B)
    jp_inf = (sc.unit_side == JAPAN) & (sc.unit_type == INFANTRY)
    us_unit = sc.unit_side == US
    indeps = np.zeros(sc.num_units, dtype=bool)
    indeps[np.asarray(T.indeps)] = True
    depots = sc.unit_type == DEPOT
    vh = np.asarray(sc.victory_hex)
    count = {k: np.zeros(B, dtype=np.int64) for k in ("refit", "night", "rearranged", "swapped", "drawn", "returned")}
    fall = np.full((B, len(vh)), -1, dtype=np.int64)
    cleared = np.zeros((B, len(vh)), dtype=bool)
    done = np.asarray(core.terminated(state) | core.truncated(state))
    while not done.all():
        player = np.asarray(state.current_player)
        actions = np.zeros(B, dtype=np.int64)
        for side, agent in enumerate(agents):
            mine = ~done & (player == side)
            if mine.any():
                actions[mine] = np.asarray(agent.act(core, state, side), dtype=np.int64)[mine]
        ph, live = state.phase, ~done
        count["refit"] += live & (ph == REFIT_DECISION) & (actions == H + YES)
        count["night"] += live & (ph == NIGHT_DECISION) & (actions == H + YES)
        sel = np.maximum(state.selected, 0)
        count["rearranged"] += live & (ph == UNKNOWN_DEST) & (actions != state.unit_hex[rows, sel])
        count["swapped"] += live & (ph == SWAP_PICK) & (actions < H)
        before = state.unit_loc[:, jp_inf].copy()
        turn = state.turn.copy()
        state = core.step(state, actions, active=live)
        after = state.unit_loc[:, jp_inf]
        count["drawn"] += ((before == LOC_RESERVE) & (after == LOC_MAP)).sum(1)
        count["returned"] += ((before == LOC_MAP) & (after == LOC_RESERVE)).sum(1)
        held = (state.unit_loc == LOC_MAP) & us_unit & ~state.captured
        for k, h in enumerate(vh):
            now = (held & (state.unit_hex == h)).any(1) & live & (fall[:, k] < 0)
            fall[now, k] = turn[now]
            cleared[now, k] = state.zone_cleared[now, k]
        done = np.asarray(core.terminated(state) | core.truncated(state))
    rewards = np.asarray(core.rewards(state))
    winner = np.where(rewards[:, 0] > 0, 0, np.where(rewards[:, 1] > 0, 1, -1))
    fighting = (sc.unit_side == JAPAN) & (sc.unit_type != UNKNOWN) & np.asarray(T.u_in_play, dtype=bool)
    left = ((state.unit_loc == LOC_MAP) | (state.unit_loc == LOC_RESERVE)) & fighting
    over = (state.last_turn >= 0) & (state.turn >= state.last_turn)
    how = np.full(B, "none", dtype=object)  # 3.8: how the game was won
    how[winner == 0] = np.where(left.any(1), "all Victory Hexes (3.8.1)", "Japanese eliminated (3.8.2)")[winner == 0]
    how[winner == 1] = np.where(state.casualties >= T.casualty_max, "Casualty Track 30 (3.8.2)",
                                np.where(over, "last turn (3.8.3)", "beaches or gun (3.8.1)"))[winner == 1]
    held_end = np.stack([((state.unit_loc == LOC_MAP) & us_unit & ~state.captured & (state.unit_hex == h)).any(1)
                         for h in vh], axis=1)
    return {**count,
            "independents": ((state.unit_loc != LOC_NONE) & indeps).sum(1),
            "depots": ((state.unit_loc != LOC_NONE) & depots).sum(1),
            "cup_end": ((state.unit_loc == LOC_RESERVE) & jp_inf).sum(1),
            "jp_eliminated": ((state.unit_loc == LOC_ELIM) & jp_inf).sum(1),
            "yamasaki": state.heroes_used[:, HERO_YAMASAKI].astype(np.int64),
            "fall": fall, "cleared": cleared, "held_end": held_end, "winner": winner, "how": how,
            "turn": state.turn.astype(np.int64), "truncated": np.asarray(core.truncated(state)).astype(np.int64)}


class Without:
    """An agent answering some decision phases the way the rules did before they used them
    (``answers``: {phase: special action}), for the ablations."""

    def __init__(self, agent, answers: dict[int, int]):
        self.agent, self.answers = agent, answers

    def act(self, core, state, player):
        out = np.asarray(self.agent.act(core, state, player), dtype=np.int64).copy()
        for phase, special in self.answers.items():
            out[state.phase == phase] = core.scenario.num_hexes + special
        return out


BEHAVIOURS = (  # (key, label, book case)
    ("refit", "Refit Turns declared (U.S.)", "3.1, 9.0"),
    ("night", "Night Turns declared (U.S.; 3.2 gives Japan no such choice)", "3.2, 6.1"),
    ("independents", "Independents created (U.S.)", "9.3"),
    ("depots", "Supply Depots created (U.S.)", "7.3, 9.4"),
    ("rearranged", "Unknowns rearranged (Japan)", "9.6 step 1"),
    ("swapped", "Infantry hexes swapped for Unknowns (Japan)", "9.6 step 2"),
    ("drawn", "Infantry drawn from the cup (Japan)", "2.5"),
    ("returned", "Infantry put back in the cup by swaps (Japan)", "9.6 step 2"),
    ("cup_end", "Infantry still in the cup at the end (of 64)", "2.5, 12.3"),
    ("jp_eliminated", "Japanese Infantry eliminated", "8.5"),
    ("yamasaki", "Colonel Yamasaki used (Japan)", "11.3"),
)


def behaviour_summary(r: dict[str, np.ndarray]) -> dict[str, dict[str, float]]:
    out = {}
    for key, _, _ in BEHAVIOURS:
        x = r[key]
        out[key] = {"mean": float(x.mean()), "median": float(np.median(x)), "share_of_games": float((x > 0).mean()),
                    "total": int(x.sum())}
    return out


def fall_summary(r: dict[str, np.ndarray], sc) -> list[dict]:
    from wargym.attu.scenario import TURN_0_DATE

    out = []
    for k, name in enumerate(VICTORY_NAMES):
        if sc.zone[sc.victory_hex[k]] < 0:  # outside a short scenario's play area
            continue
        t = r["fall"][:, k]
        fell = t[t >= 0] + TURN_0_DATE
        row = {"hex": sc.hex_label(int(sc.victory_hex[k])), "name": name, "share_fallen": float((t >= 0).mean()),
               "median_may": float(np.median(fell)) if fell.size else None,
               "q1_may": float(np.percentile(fell, 25)) if fell.size else None,
               "q3_may": float(np.percentile(fell, 75)) if fell.size else None,
               "min_may": int(fell.min()) if fell.size else None, "max_may": int(fell.max()) if fell.size else None,
               "zone_cleared_at_fall": float(r["cleared"][t >= 0, k].mean()) if fell.size else None,
               "held_at_end": float(r["held_end"][:, k].mean())}
        if name in HISTORY:
            day, note = HISTORY[name]
            row["book_may"], row["book_note"] = day, note
            row["share_by_book_date"] = float(((t >= 0) & (t + TURN_0_DATE <= day)).mean())
        out.append(row)
    return out


def record(r: dict[str, np.ndarray]) -> dict:
    """Wins of each side (Wilson 95 % interval) and how they were won."""
    from wargym.agents.evaluate import wilson_interval

    n = len(r["winner"])
    out = {"games": n, "truncated": int(r["truncated"].sum()), "mean_last_turn_may": float(r["turn"].mean() + 10)}
    hows, counts = np.unique(r["how"][r["winner"] >= 0].astype(str), return_counts=True)
    out["how"] = {h: int(c) for h, c in zip(hows, counts)}
    for s in (0, 1):
        wins = int((r["winner"] == s).sum())
        lo, hi = wilson_interval(wins, n)
        out[("us" if s == 0 else "japan") + "_wins"] = {"wins": wins, "rate": wins / n, "ci95": [lo, hi]}
    return out


def rate(w: dict) -> str:
    return f"{w['wins']} ({w['rate']:.1%}, [{w['ci95'][0]:.1%}, {w['ci95'][1]:.1%}])"


def markdown(report: dict) -> list[str]:
    rr = report["rule_vs_rule"]
    lines = [f"Attu campaign, {report['games']} games per match-up (game j dealt by seed {report['seed']} + j), "
             f"decisions=major; wall time {report['seconds']:.0f} s", "",
             "| match-up | U.S. wins | Japan wins | how (3.8) |", "|---|---|---|---|"]
    for key, label in (("rule_vs_rule", "U.S. rule vs Japanese rule"), ("us_rule_vs_random", "U.S. rule vs random"),
                       ("japan_rule_vs_random", "random vs Japanese rule")):
        rec = report[key]["record"]
        how = ", ".join(f"{h}: {c}" for h, c in rec["how"].items())
        lines.append(f"| {label} | {rate(rec['us_wins'])} | {rate(rec['japan_wins'])} | {how} |")
    lines += ["", "| behaviour (rule vs rule) | case | mean per game | median | share of games |",
              "|---|---|---|---|---|"]
    for key, label, case in BEHAVIOURS:
        b = rr["behaviours"][key]
        lines.append(f"| {label} | {case} | {b['mean']:.2f} | {b['median']:.0f} | {b['share_of_games']:.0%} |")
    lines += ["", "| Victory Hex (rule vs rule) | fallen in | first U.S. occupation, May: median | quartiles | range "
              "| zone cleared then (10.0) | held at the end | the book |", "|---|---|---|---|---|---|---|---|"]
    for f in rr["victory_hexes"]:
        lines.append(fall_row(f))
    for name, short in report.get("short_scenarios", {}).items():
        rec = short["record"]
        lines += ["", f"{short['title']} (its free set-ups, rule vs rule, {rec['games']} games): U.S. wins "
                  f"{rate(rec['us_wins'])}", "", "| Victory Hex | fallen in | May: median | quartiles | range "
                  "| zone cleared then | held at the end | the book |", "|---|---|---|---|---|---|---|---|"]
        lines += [fall_row(f) for f in short["victory_hexes"]]
    if report.get("ablations"):
        lines += ["", "| rule vs rule, with one behaviour answered the old way | U.S. wins "
                  "| Infantry drawn from the cup | Engineer Hill, May (median) |", "|---|---|---|---|"]
        for name, a in report["ablations"].items():
            lines.append(f"| {name} | {rate(a['us_wins'])} | {a['drawn']:.1f} | {a['engineer_hill_may']} |")
    lines += ["", f"Game length: {END_NOTES}."]
    return lines


def fall_row(f: dict) -> str:
    if f["median_may"] is None:
        dates, cleared = ("-", "-", "-"), "-"
    else:
        dates = (f"{f['median_may']:.1f}", f"{f['q1_may']:.1f}-{f['q3_may']:.1f}", f"{f['min_may']}-{f['max_may']}")
        cleared = f"{f['zone_cleared_at_fall']:.0%}"
    book = f"by May {f['book_may']} ({f['share_by_book_date']:.0%} of games)" if "book_may" in f else "-"
    return (f"| {f['hex']} | {f['share_fallen']:.0%} | {dates[0]} | {dates[1]} | {dates[2]} | {cleared} "
            f"| {f['held_at_end']:.0%} | {book} |")


def main(argv: list[str] | None = None) -> int:
    from wargym.agents.base import make_agent
    from wargym.attu.actions import END, NO
    from wargym.attu.state import DEPOT, INDEPENDENT, NIGHT_DECISION, SWAP_PICK, UNKNOWN_PICK
    from wargym.registry import make_core

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=200, help="games per match-up (default 200)")
    p.add_argument("--seed", type=int, default=0, help="game j is dealt by core.init(1, seed + j) (default 0)")
    p.add_argument("--no-short", action="store_true", help="skip the short scenarios 15.1 and 15.2")
    p.add_argument("--no-ablations", action="store_true", help="skip the ablations")
    p.add_argument("--out", default=str(Path(__file__).parent / "results" / "attu_baselines.json"))
    args = p.parse_args(argv)
    began = time.perf_counter()
    core = make_core("attu", "campaign", decisions="major")
    seeds = np.arange(args.seed, args.seed + args.games)
    rule = [make_agent("rule", "attu", "us"), make_agent("rule", "attu", "japan")]
    rand = [make_agent("random", "attu", s, seed=args.seed + 7 + i) for i, s in enumerate(("us", "japan"))]
    report = {"games": args.games, "seed": args.seed, "scenario": core.scenario.name, "decisions": "major"}
    for key, agents in (("rule_vs_rule", rule), ("us_rule_vs_random", [rule[0], rand[1]]),
                        ("japan_rule_vs_random", [rand[0], rule[1]])):
        t0 = time.perf_counter()
        r = play(core, agents, seeds)
        report[key] = {"record": record(r), "behaviours": behaviour_summary(r),
                       "victory_hexes": fall_summary(r, core.scenario), "seconds": time.perf_counter() - t0}
        print(f"{key}: {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    if not args.no_short:
        report["short_scenarios"] = {}
        for name, title in SHORT:
            t0 = time.perf_counter()
            short = make_core("attu", name, decisions="major")
            r = play(short, [make_agent("rule", "attu", "us"), make_agent("rule", "attu", "japan")], seeds)
            report["short_scenarios"][name] = {"title": title, "record": record(r),
                                               "victory_hexes": fall_summary(r, short.scenario)}
            print(f"{name}: {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    if not args.no_ablations:
        report["ablations"] = {}
        us, japan = rule
        for name, agents in (
                ("no Night Turn (3.2)", [Without(us, {NIGHT_DECISION: NO}), japan]),
                ("no Independent (9.3)", [Without(us, {INDEPENDENT: END}), japan]),
                ("no Supply Depot (9.4)", [Without(us, {DEPOT: END}), japan]),
                ("no Unknown moved (9.6 step 1)", [us, Without(japan, {UNKNOWN_PICK: END})]),
                ("no swap (9.6 step 2)", [us, Without(japan, {SWAP_PICK: END})]),
                ("neither side uses these", [Without(us, {NIGHT_DECISION: NO, INDEPENDENT: END, DEPOT: END}),
                                             Without(japan, {UNKNOWN_PICK: END, SWAP_PICK: END})])):
            r = play(core, agents, seeds)
            eh = r["fall"][:, 3]
            eh_may = float(np.median(eh[eh >= 0]) + 10) if (eh >= 0).any() else None
            report["ablations"][name] = {"us_wins": record(r)["us_wins"], "drawn": float(r["drawn"].mean()),
                                         "engineer_hill_may": eh_may}
        print("ablations: done", file=sys.stderr, flush=True)
    report["seconds"] = time.perf_counter() - began
    report["history_notes"] = {"dates": {k: v[1] for k, v in HISTORY.items()}, "end": END_NOTES}
    table = "\n".join(markdown(report))
    print(table)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1) + "\n")
    out.with_suffix(".md").write_text(table + "\n")
    print(f"\nwritten: {out} and {out.with_suffix('.md')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
