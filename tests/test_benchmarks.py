"""benchmarks/throughput.py runs and its --json line has the documented keys (no timing checks);
benchmarks/attu_refit.py re-states the U.S. rule exactly at its own threshold; benchmarks/peleliu_cloning.py
reads each decision's phase from the observation as the state holds it; benchmarks/kernel_profile.py names
numba's functions and reads perf's report."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "throughput.py"


def benchmark(name: str, module_name: str | None = None):
    """benchmarks/<name>.py loaded as a module (the folder is not a package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(module_name or name, SCRIPT.parent / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("ruleset", ["island_war"])
def test_throughput_json(ruleset):
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--ruleset", ruleset, "--seconds", "0.2", "--batches", "1,4", "--json", "--rule"],
        capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    lines = proc.stdout.strip().splitlines()
    assert lines, "no output"
    out = json.loads(lines[-1])
    assert isinstance(out, dict)
    for key in ("ruleset", "scenario", "batch", "ratio", "reference", "machine"):
        assert key in out, f"missing key {key!r} in {sorted(out)}"
    assert out["ruleset"] == ruleset
    assert isinstance(out["scenario"], str) and out["scenario"]
    assert set(out["batch"]) == {"1", "4"}
    assert all(isinstance(v, (int, float)) and v >= 0 for v in out["batch"].values())
    assert out["ratio"] is None or isinstance(out["ratio"], (int, float))
    assert "pettingzoo_chess_v6_steps_per_s" in out["reference"]
    assert set(out["rule"]["batch"]) == {"1", "4"} and set(out["rule"]["share_of_random"]) <= {"1", "4"}
    assert out["rule"]["playouts"]["n"] == 4 and out["rule"]["playouts"]["playouts_per_s"] > 0
    for key in ("cpu_count", "python", "numpy", "numba"):
        assert key in out["machine"]


def test_attu_refit_sweep_at_the_rules_own_threshold_plays_the_rules_games():
    # benchmarks/attu_refit.py re-states the rule's 9.0 refit clause with another threshold: at the
    # rule's own (8) every game must be the rule's game, decision for decision
    from wargym.agents.evaluate import evaluate

    module = benchmark("attu_refit")
    runs = [evaluate("attu", a, "rule", games=6, seed=3, a_side="us", decisions="major").games
            for a in (module.refit_at(8), "rule", module.refit_at(31))]
    assert [(g.result, g.length) for g in runs[0]] == [(g.result, g.length) for g in runs[1]]
    assert [g.length for g in runs[2]] != [g.length for g in runs[1]]


def test_peleliu_cloning_reads_the_phase_of_each_decision_from_the_observation():
    # the held-out decisions are counted by phase from the recorded observations alone (observe.py:
    # the phase's one-hot after the stage's); it must be the phase the state was in
    import numpy as np

    from wargym.agents.random_agent import RandomAgent
    from wargym.peleliu.core import PeleliuCore

    module = benchmark("peleliu_cloning")
    core = PeleliuCore("sept15", decisions="full")
    state, agent, seen = core.init(batch_size=8, seed=4), RandomAgent(seed=4), set()
    for _ in range(300):
        glob = core.observe(state, 0)["global"]
        assert np.array_equal(module.phase_of(glob), state.phase)
        seen.update(state.phase.tolist())
        core._step_in_place(state, agent.act(core, state, 0))
    assert len(seen) >= 5


def test_kernel_profile_names_numbas_functions_and_reads_perfs_report():
    """benchmarks/kernel_profile.py's pure parts (the profile itself needs Linux perf and a fresh
    compile): numba's mangled names, the perf map's sizes, the report's rows."""
    kp = benchmark("kernel_profile")
    assert kp.demangle("_ZN6wargym7peleliu2us10can_act_onB2v1B38c8tJTIeFIjxE") == "wargym.peleliu.us.can_act_on"
    assert kp.demangle("_ZN6wargym6kernel17run_chunk_peleliu") == "wargym.kernel.run_chunk_peleliu"
    assert kp.demangle("NRT_decref") == "NRT_decref"
    assert kp.map_lines({0x1000: "a", 0x1400: "b"}) == ["1000 400 a", f"1400 {kp.MAX_SIZE:x} b"]
    report = ("# Overhead  Symbol\n"
              "    12.94%  [.] wargym.peleliu.board.fire_map      -      -\n"
              "     6.33%  [.] wargym.peleliu.board.sync_depth_hexes\n"
              "    20.00%  [k] clear_page_erms\n")
    assert kp.shares(report) == [(20.0, "clear_page_erms"), (12.94, "wargym.peleliu.board.fire_map"),
                                 (6.33, "wargym.peleliu.board.sync_depth_hexes")]


def test_throughput_kernel_by_phase_recovers_each_phase_cost(monkeypatch):
    """--profile's split of the kernel's time: calls whose time is exactly 2 us per game at phase 0
    and 5 us per game at phase 2 (phase 1 never seen) give back those costs and their shares."""
    import importlib.util
    from types import SimpleNamespace

    import numpy as np

    spec = importlib.util.spec_from_file_location("throughput", SCRIPT)
    tp = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "throughput", tp)  # its dataclasses look their module up
    spec.loader.exec_module(tp)
    counts = np.array([[10, 0, 0], [0, 0, 4], [3, 0, 7], [5, 0, 5]], dtype=float)
    kernel = 1e-6 * (2 * counts[:, 0] + 5 * counts[:, 2])  # 20, 20, 41, 35 us
    rows = tp.kernel_by_phase(SimpleNamespace(phase_names=("a", "b", "c")), counts, kernel)
    assert [r["phase"] for r in rows] == ["c", "a"]  # c: 5 x 16 = 80 us of 116; a: 2 x 18 = 36
    assert rows[0]["us_each"] == pytest.approx(5.0) and rows[1]["us_each"] == pytest.approx(2.0)
    assert rows[0]["share"] == pytest.approx(80 / 116) and rows[1]["per_call"] == pytest.approx(18 / 4)


def test_peleliu_rule_sweep_at_the_rules_own_value_plays_the_rules_games():
    # benchmarks/peleliu_rule_sweep.py compiles the rule with one constant changed: at the rule's
    # own value (HOLD = 6.0) every game must be the rule's game, decision for decision
    import numpy as np

    sweep = benchmark("peleliu_rule_sweep")
    with pytest.raises(ValueError, match="no numeric module constant 'NO_SUCH'"):
        sweep.variant_source(sweep.RULE.read_text(), "NO_SUCH=3")
    with pytest.raises(ValueError, match="NAME=number"):
        sweep.variant_source(sweep.RULE.read_text(), "HOLD")
    assert "\nHOLD = 2.5  " in sweep.variant_source(sweep.RULE.read_text(), "HOLD=2.5")
    with tempfile.TemporaryDirectory() as folder:
        try:
            same = sweep.play(sweep.load_variant("HOLD=6.0", Path(folder)), 2, 10_000)
        finally:
            sys.modules.pop("rule_HOLD_6_0", None)  # the variant's module leaves with the test
    rule = sweep.play(sweep.load_variant(None, Path(".")), 2, 10_000)
    assert np.array_equal(same[0], rule[0]) and same[1] == rule[1] and np.array_equal(same[2], rule[2])


def test_world_at_war_balance_reads_who_reaches_the_quota_first():
    # "Objective of the game": the first side to its quota of victory points wins.  Three games'
    # points after each of 4 decisions, read at quotas (2, 2): game 0 the first side gets there at
    # decision 1, the second at 3 (a win); game 1 the second side first (a loss); game 2 nobody (a
    # draw, its length the last decision)
    import numpy as np

    module = benchmark("world_at_war_balance", "waw_balance")
    points = np.zeros((4, 3, 2), dtype=np.int16)
    points[1:, 0, 0] = 2
    points[3:, 0, 1] = 2
    points[2:, 1, 1] = 3
    points[:, 2] = 1
    win, draw, length = module.outcomes(points, (2, 2))
    assert (win, draw, length) == (1 / 3, 1 / 3, (1 + 2 + 3) / 3)
    # at quotas (1, 1) game 2 has both there at decision 0: half a game to each side
    assert module.outcomes(points, (1, 1))[0] == (1 + 0 + 0.5) / 3


def test_agreement_counts_each_phase_and_the_rule_agrees_with_itself_everywhere():
    # benchmarks/agreement.py asks the side's rule in every state where the agent decides: the rule
    # shadowed by itself chose alike in each phase it met; a random agent does not
    module = benchmark("agreement")
    same = module.agreement("world_at_war", "japan", "rule", games=2, seed=5000)
    assert same["decisions"] > 100 and same["agreed"] == 1.0
    assert all(row["agreed"] == 1.0 and row["decisions"] > 0 for row in same["phases"])
    assert sum(row["decisions"] for row in same["phases"]) == same["decisions"]
    assert "command card: play" in {row["phase"] for row in same["phases"]}
    other = module.agreement("world_at_war", "japan", "random", games=2, seed=5000)
    assert other["decisions"] > 100 and other["agreed"] < 0.5


def test_agreement_rule_decides_lets_the_rule_choose_in_the_named_phases():
    # --rule-decides: a random agent with the rule choosing in every phase plays the rule's games
    # (agreed everywhere, the same win rate); one phase handed over agrees there and only there
    import pytest

    from wargym.world_at_war.state import PHASE_NAMES

    module = benchmark("agreement")
    rule = module.agreement("world_at_war", "japan", "rule", games=2, seed=5000)
    every = module.agreement("world_at_war", "japan", "random", games=2, seed=5000, rule_decides=list(PHASE_NAMES))
    assert every["agreed"] == 1.0 and every["win_rate"] == rule["win_rate"]
    assert every["decisions"] == rule["decisions"] and every["rule_decides"] == list(PHASE_NAMES)
    card = module.agreement("world_at_war", "japan", "random", games=2, seed=5000,
                            rule_decides=["command card: play"])
    agreed = {row["phase"]: row["agreed"] for row in card["phases"]}
    assert agreed["command card: play"] == 1.0 and agreed["order: piece"] < 1.0
    with pytest.raises(ValueError, match="--rule-decides: world_at_war has no phase 'card: play'"):
        module.agreement("world_at_war", "japan", "random", games=2, rule_decides=["card: play"], seed=5000)


def test_world_at_war_always_retreat_is_the_rule_except_at_the_voluntary_retreat_question():
    # rule 'Voluntary retreat': the defender may retreat one hex before the throw; the variant
    # always does (YES) and takes the rule's action at every other decision
    import numpy as np

    from wargym.agents.base import make_agent
    from wargym.world_at_war import actions as act
    from wargym.world_at_war.core import WorldAtWarCore
    from wargym.world_at_war.state import P_STAND

    module = benchmark("world_at_war_variants", "waw_variants")
    core = WorldAtWarCore("pacific", decisions="full")
    state = core.init(batch_size=16, seed=5)
    japan = core.players.index("japan")
    variant, rule, other = module.AlwaysRetreat("japan", seed=1), make_agent("rule", "world_at_war", "japan", 1), \
        make_agent("rule", "world_at_war", "us", 2)
    asked = 0
    for _ in range(400):
        mine, theirs = variant.act(core, state, japan), rule.act(core, state, japan)
        deciding = state.current_player == japan
        here = deciding & (state.phase == P_STAND)
        asked += int(here.sum())
        assert np.all(mine[here] == core.scenario.num_hexes + act.YES)
        assert np.array_equal(mine[deciding & ~here], theirs[deciding & ~here])
        actions = np.where(deciding, mine, other.act(core, state, 1 - japan))
        core.step_in_place(state, actions, active=~(state.terminated | state.truncated))
    assert asked > 0


def test_planner_vs_rule_pairs_the_same_games_and_counts_the_discordant_ones():
    """benchmarks/planner_vs_rule.py: the rule's and the planner's games on the same seeds, paired;
    with the planner at top=1 (the base's favourite only) it plays the rule's games exactly, so
    no pair is discordant and p is 1."""
    bench = benchmark("planner_vs_rule")
    row = bench.compare("world_at_war:pacific:us", games=2, seed=3, batch=2,
                        spec="plan:budget=4,top=1,phases=command card: play")
    assert row["rule"]["wins"] == row["planner"]["wins"] and row["rule"]["mean_reward"] == row["planner"]["mean_reward"]
    assert row["discordant"] == {"planner_only": 0, "rule_only": 0} and row["p_one_sided"] == 1.0
    standing = row["standing"]
    assert standing["rule"] == standing["planner"] and standing["higher"] == standing["lower"] == 0
    assert row["planned_decisions"] > 0 and row["phases"] == ["command card: play"]
    low, high = row["planner"]["wilson"]
    assert 0 <= low <= row["planner"]["rate"] <= high <= 1


def test_planner_vs_rule_reports_every_scenario_and_side_the_table_leaves_out():
    """Issue 50, item 4: the other scenarios are reported. The table's rows and the other rows are
    every shipped scenario's every side, once each (Attu's solitaire row aside, a rule option of
    the campaign), and every row's spec is an agent the planner accepts for that side."""
    from wargym import make_core, registry
    from wargym.agents.base import make_agent
    from wargym.registry import core_class

    bench = benchmark("planner_vs_rule")
    wanted = {f"{ruleset}:{scenario}:{side}" for ruleset in registry.shipped()
              for scenario in core_class(ruleset).scenario_names()
              for side in make_core(ruleset, scenario=scenario).players}
    rows = [row for row in [*bench.ROWS, *bench.OTHER_ROWS] if not row.endswith(":solitaire")]
    assert sorted(rows) == sorted(wanted)
    for row, (_, spec) in {**bench.ROWS, **bench.OTHER_ROWS}.items():
        ruleset, _, side, *_ = row.split(":")
        assert make_agent(spec, ruleset, side).phases, row


def test_planner_vs_rule_pairs_the_standings_at_the_end_game_by_game():
    """The standing column: the means over the games, the pairs the planner ended higher and lower
    in, and the one-sided sign test on them (one of two: P(X >= 1) = 3/4); a batch without a
    standing (a record written before it was kept) leaves the column out."""
    bench = benchmark("planner_vs_rule")
    ruled = [{"standing": [0.0, 1.0]}, {"standing": [2.0]}]
    planned = [{"standing": [1.0, 1.0]}, {"standing": [0.5]}]
    assert bench.standings(ruled, planned) == {"rule": 1.0, "planner": 2.5 / 3, "higher": 1, "lower": 1,
                                               "p_one_sided": 0.75}
    assert bench.standings(ruled, planned[:1] + [{"rewards": [0.0]}]) is None


def test_planner_vs_rule_keeps_every_finished_batch_and_goes_on_from_its_record(tmp_path, monkeypatch):
    """With ``record``, each finished batch is a JSON line at once; a rerun reads them back and plays
    only what is missing (a killed run loses at most the batch in progress), with the same result."""
    bench = benchmark("planner_vs_rule")
    record = tmp_path / "rows.jsonl"
    spec = "plan:budget=4,top=2,phases=command card: play"
    first = bench.compare("world_at_war:pacific:us", games=3, seed=3, batch=2, spec=spec, record=str(record))
    lines = record.read_text().splitlines()
    assert len(lines) == 4  # rule and planner, batches of 2 and 1
    # the last planner batch was lost, its line cut short by the kill
    record.write_text("\n".join(lines[:3]) + "\n" + lines[3][:40])

    played = []
    real_play = bench.play
    monkeypatch.setattr(bench, "play", lambda core, agents, seed, n: played.append((seed, n)) or
                        real_play(core, agents, seed, n))
    again = bench.compare("world_at_war:pacific:us", games=3, seed=3, batch=2, spec=spec, record=str(record))
    assert played == [(5, 1)]
    kept = record.read_text().splitlines()  # the cut line dropped, the batch's whole line after
    assert kept[:3] == lines[:3] and len(kept) == 4 and json.loads(kept[3])["first"] == 5
    for key in ("rule", "planner", "discordant", "p_one_sided", "standing", "planned_decisions"):
        if isinstance(first[key], dict):
            first[key].pop("seconds", None), again[key].pop("seconds", None)
        assert first[key] == again[key], key


def test_web_load_plays_every_client_its_moves_and_times_each_request_kind():
    """benchmarks/web_load.py against its own server: every client made its moves (the misbehaving
    clients did not stop one), and each request kind has its count and percentiles."""
    proc = subprocess.run([sys.executable, str(SCRIPT.parent / "web_load.py"), "--games", "3", "--moves", "4",
                           "--misbehave", "--json"], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-4000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["games"] == 3 and out["moves"] == 12 and out["misbehaving_clients"] == 3
    assert out["play"]["n"] == 12 and out["new"]["n"] == 3 and out["join"]["n"] == 3
    assert out["play"]["p50_ms"] <= out["play"]["p95_ms"] <= out["play"]["p99_ms"]
