"""The event log of Island War (wargym.events): what a step did, in order, with the rule, and the
position API around it (settle, every decision, forcing)."""

import numpy as np

from conftest import action, column_label, crt_cell, hexidx, jp, make_core, phase, play, us
from wargym.island_war.scenario import RESULTS


def combat_start(core):
    s = play(core, core.init(1, 0), ["END_PHASE"])
    assert phase(s) == "combat: select target"
    return s


def test_7_6_a_combat_is_logged_with_its_differential_column_die_and_result(tmp_path):
    # the book's example: 13 attacking 4 in a jungle hex, differential +9, column "8,9"; die 1 gives
    # the fixture CRT's D1: the Japanese unit retreats one hex (7.7), its only route, to 0906, taken
    # by itself; then the US may advance (7.9)
    core = make_core(tmp_path, [us("A", "0807", attack=13), jp("X", "0907", defense=4)])
    s = core.force(play(core, combat_start(core), ["0907", "0807"]), [1])
    after, log = core.step_logged(s, np.array([action(core, "CONFIRM")]))
    assert crt_cell("jungle", 8, 1) == "D1" and column_label(core, after) == "8,9"
    assert [e["kind"] for e in log[0]] == ["combat", "retreat"] and phase(after) == "advance: select unit"
    assert log[0][0]["rule"] == "7.6" and log[0][0]["args"] == {
        "hex": hexidx(core, "0907"), "differential": 9, "line": int(after.last_line[0]),
        "column": int(after.last_column[0]), "die": 1, "result": RESULTS.index("D1")}
    assert log[0][1]["args"] == {"unit": 1, "from": hexidx(core, "0907"), "to": hexidx(core, "0906")}
    texts = [e["text"] for e in core.events_for(log[0], after, 0, viewer=1)]
    assert texts == ["combat at 0907: differential 9, column 8,9 on the jungle line, die 1: D1 (7.6)",
                     "JAPAN X retreats from 0907 to 0906 (7.7)"]
    assert core.events_for(log[0], after, 0, viewer=0) == core.events_for(log[0], after, 0, viewer=1)   # 2.3


def test_the_log_is_off_unless_asked_and_the_state_is_the_same_either_way(tmp_path):
    core = make_core(tmp_path, [us("A", "0807", attack=13), jp("X", "0907", defense=4)])
    s = core.force(play(core, combat_start(core), ["0907", "0807"]), [1])
    plain = core.step(s, np.array([action(core, "CONFIRM")]))
    logged, _ = core.step_logged(s, np.array([action(core, "CONFIRM")]))
    assert all(np.array_equal(a, b) for a, b in zip(plain.arrays().values(), logged.arrays().values()))


def test_every_decision_stops_where_one_action_is_legal(tmp_path):
    # the same combat on a core made with every_decision=True: the Japanese player has no Final
    # Protective Fire to give (8.4), so the step that has one legal action ("done") waits for him
    # instead of resolving the combat by itself
    plain = make_core(tmp_path, [us("A", "0807", attack=13), jp("X", "0907", defense=4)])
    core = type(plain)(scenario=plain.scenario, decisions=plain.decisions, every_decision=True)
    s = core.force(play(core, combat_start(core), ["0907", "0807"]), [1])
    after, log = core.step_logged(s, np.array([action(core, "CONFIRM")]))
    assert phase(after) == "final protective fire" and int(after.legal_action_mask[0].sum()) == 1
    assert after.current_player[0] == 1 and log[0] == []
    after, log = core.step_logged(after, np.flatnonzero(after.legal_action_mask[0]))
    assert [e["kind"] for e in log[0]] == ["combat"] and phase(after) == "retreat"   # one route, still asked


def test_a_position_laid_out_by_name_is_settled_by_the_rules(tmp_path):
    from wargym.position import Position

    core = make_core(tmp_path, [us("A", "0807", attack=13), jp("X", "0907", defense=4)])
    pos = Position(core, seed=0).set("unit_hex", "0806", item="A")
    assert core.grid.label(int(pos.get("unit_hex", item="A"))) == "0806"
    settled = pos.settle()
    assert phase(settled) == "move: select unit" and settled.current_player[0] == 0
    assert settled.legal_action_mask[0, hexidx(core, "0806")]     # A may be selected where it now stands
