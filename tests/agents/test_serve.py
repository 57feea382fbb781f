"""The bot protocol (wargym serve) driven as a subprocess: one flushed JSON response per request
line, bad requests answered with an error while the server keeps running."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from wargym.replay import make_core_for

ENTRY = "from wargym.agents.serve import main; raise SystemExit(main())"
SERVER_ARGS = ("--ruleset", "island_war", "--scenario", "bloody_ridge", "--decisions", "major")


def start(tmp_path, *args: str) -> subprocess.Popen:
    # cwd=tmp_path: run from outside the source tree, so the installed package is imported
    return subprocess.Popen([sys.executable, "-c", ENTRY, *SERVER_ARGS, *args], cwd=tmp_path, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def ask(proc: subprocess.Popen, request) -> dict:
    """Send one request line and read its response line (works only if the server flushes)."""
    line = request if isinstance(request, str) else json.dumps(request)
    proc.stdin.write(line + "\n")
    proc.stdin.flush()
    return json.loads(proc.stdout.readline())


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    proc = start(tmp_path_factory.mktemp("serve"), "--agent", "rule")
    yield proc
    if proc.poll() is None:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="module")
def core():
    return make_core_for("island_war", "bloody_ridge", "major")


def test_ping_names_the_game(server):
    reply = ask(server, {"cmd": "ping", "id": 1})
    assert reply["ok"] and reply["pong"] and reply["id"] == 1
    assert (reply["ruleset"], reply["scenario"], reply["decisions"]) == ("island_war", "bloody_ridge", "major")
    assert reply["players"] == reply["plays"] == ["us", "japan"] and reply["side"] is None and reply["agent"] == "rule"
    assert reply["num_actions"] == 265 and reply["protocol"] == 4


def test_act_on_a_state_record_and_on_a_history_agree(server, core):
    state = core.init(1, 4)
    by_state = ask(server, {"cmd": "act", "state": core.to_dict(state, 0)})
    by_history = ask(server, {"cmd": "act", "history": {"seed": 4, "actions": []}})
    assert by_state == by_history
    assert by_state["ok"] and by_state["player"] == "japan"  # Japan moves first at Bloody Ridge
    a = by_state["action"]
    assert core.legal_mask(state)[0, a] and by_state["description"] == core.describe_action(a, state, 0)
    # a few moves in, both ways again
    actions = []
    for _ in range(5):
        reply = ask(server, {"cmd": "act", "history": {"seed": 4, "actions": actions}})
        assert reply["ok"], reply
        actions.append(reply["action"])
        state = core.step(state, np.array([reply["action"]]))
    assert ask(server, {"cmd": "act", "state": core.to_dict(state, 0)}) == \
        ask(server, {"cmd": "act", "history": {"seed": 4, "actions": actions}})


def test_legal_describe_and_step(server, core):
    state = core.init(1, 2)
    reply = ask(server, {"cmd": "legal", "state": core.to_dict(state, 0)})
    want = np.flatnonzero(core.legal_mask(state)[0]).tolist()
    assert reply["ok"] and not reply["game_over"] and reply["player"] == "japan"
    assert [a["action"] for a in reply["actions"]] == want
    assert reply["actions"][-1]["description"] == "end phase"
    assert "select" in reply["actions"][0]["description"]

    assert ask(server, {"cmd": "describe", "action": 252}) == {"ok": True, "action": 252, "description": "end phase"}
    many = ask(server, {"cmd": "describe", "action": [want[0], 252], "history": {"seed": 2, "actions": []}})
    assert many["actions"][0]["description"] == core.describe_action(want[0], state, 0)
    game = ask(server, {"cmd": "describe", "history": {"seed": 2, "actions": []}})
    assert game["ok"] and "Bloody Ridge" in game["board"] and game["summary"]["phase"] and game["turn"] == 1
    layout = ask(server, {"cmd": "describe"})["action_layout"]
    assert layout["num_hex_pointers"] == 252 and layout["specials"][0] == {"action": 252, "name": "end phase"}

    stepped = ask(server, {"cmd": "step", "state": core.to_dict(state, 0), "action": want[0]})
    assert stepped["ok"] and stepped["description"] == core.describe_action(want[0], state, 0)
    after = core.step(state, np.array([want[0]]))
    assert stepped["state"] == core.to_dict(after, 0) and stepped["player"] == "japan"


def test_bad_requests_get_an_error_and_the_server_goes_on(server, core):
    record = core.to_dict(core.init(1, 0), 0)
    saipan = make_core_for("island_war", "saipan", "major")
    bad = [
        "this is not json",
        "[1, 2]",
        {"cmd": "fly"},
        {"cmd": "act"},
        {"cmd": "act", "state": {**record, "ruleset": "attu"}},
        {"cmd": "act", "state": saipan.to_dict(saipan.init(1, 0), 0)},
        {"cmd": "act", "state": {**record, "fields": {}}},
        {"cmd": "act", "state": "nope"},
        {"cmd": "act", "history": {"seed": 0, "actions": [252, 3]}},
        {"cmd": "act", "history": {"seed": 0, "actions": ["x"]}},
        {"cmd": "act", "history": [1, 2]},
        {"cmd": "act", "history": {"seed": 0, "actions": []}, "scenario": "saipan"},
        {"cmd": "step", "history": {"seed": 0, "actions": []}, "action": 0},
        {"cmd": "describe", "action": "x"},
    ]
    replies = [ask(server, req) for req in bad]
    for req, reply in zip(bad, replies):
        assert reply["ok"] is False and isinstance(reply["error"], str) and reply["error"], (req, reply)
    assert "not JSON" in replies[0]["error"] and "unknown cmd 'fly'" in replies[2]["error"]
    assert "'attu'" in replies[4]["error"] and "saipan" in replies[5]["error"]
    assert "missing state fields" in replies[6]["error"]
    assert "history action #1 (3) is illegal" in replies[8]["error"]
    assert ask(server, {"cmd": "ping", "id": "still here"})["id"] == "still here"


def test_a_side_server_refuses_the_other_sides_decision_and_quits(tmp_path, core):
    proc = start(tmp_path, "--agent", "random", "--side", "us")
    try:
        # the same lines sent at once: one response per line, in order, blank lines skipped
        requests = [{"cmd": "act", "history": {"seed": 0, "actions": []}}, {"cmd": "ping"}, "", {"cmd": "quit"},
                    {"cmd": "ping"}]
        out, err = proc.communicate("\n".join(r if isinstance(r, str) else json.dumps(r) for r in requests) + "\n",
                                    timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    lines = [json.loads(x) for x in out.splitlines()]
    assert proc.returncode == 0 and len(lines) == 3, (out, err)
    assert lines[0] == {"ok": False, "error": "it is japan's decision; this server plays us"}
    assert lines[1]["side"] == "us" and lines[2] == {"ok": True, "bye": True}


def test_a_bad_agent_spec_stops_the_server_at_startup(tmp_path):
    done = subprocess.run([sys.executable, "-c", ENTRY, *SERVER_ARGS, "--agent", "wizard"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, input="")
    assert done.returncode == 1 and done.stdout == ""
    assert "unknown agent spec 'wizard'" in done.stderr


def test_an_agent_for_one_side_only_serves_that_side(core):
    """Without --side, a side the agent cannot play (an exported policy's other side) is refused
    per request instead of stopping the server; in process, with an Agent object as the spec."""
    from wargym.agents.random_agent import RandomAgent
    from wargym.agents.serve import BotServer

    class UsOnly(RandomAgent):
        def act(self, core, state, player):
            if core.players[player] != "us":
                raise ValueError("plays 'us' only")
            return super().act(core, state, player)

    server = BotServer("island_war", UsOnly(0), scenario="bloody_ridge")
    server.warm_up()
    assert server.ping({})["plays"] == ["us"]
    reply = server.handle(json.dumps({"cmd": "act", "history": {"seed": 0, "actions": []}, "id": 9}))
    assert reply == {"ok": False, "error": "it is japan's decision; the agent cannot play japan: "
                                           "ValueError: plays 'us' only", "id": 9}
    state, japan = core.init(1, 0), RandomAgent(1)
    for _ in range(2000):
        if core.current_player(state)[0] == 0:
            break
        state = core.step(state, japan.act(core, state, 1))
    reply = server.handle(json.dumps({"cmd": "act", "state": core.to_dict(state, 0)}))
    assert reply["ok"] and reply["player"] == "us" and core.legal_mask(state)[0, reply["action"]]
