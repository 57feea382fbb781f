"""The bot protocol's session mode: the server holds the game, each side sees only its view.

What a side receives is checked for leaks by the contract (wargym.contract.hidden_stays_hidden, for
every ruleset); here: the commands, their refusals, two clients playing each other over TCP, and
that no payload carries the dice key or a hidden fact in plain sight.
"""

from __future__ import annotations

import json
import socket
import threading

import numpy as np
import pytest

from wargym.agents.serve import BotServer, listen


def ask(server: BotServer, **request) -> dict:
    return server.handle(json.dumps(request))


@pytest.fixture(scope="module")
def attu() -> BotServer:
    server = BotServer("attu", "rule", decisions="major")
    server.warm_up()
    return server


def test_a_session_hides_the_dice_and_the_japanese_secrets_from_the_us(attu):
    game = ask(attu, cmd="new", seed=3, server_plays=["japan"])
    assert game["ok"] and game["server_plays"] == ["japan"]
    token = ask(attu, cmd="join", game=game["game"], side="us")["token"]
    view = ask(attu, cmd="view", game=game["game"], token=token)
    assert view["ok"] and view["side"] == "us" and view["your_turn"] and view["legal"]
    fields = view["state"]["fields"]
    assert fields["rng_key"]["value"] == [0, 0] and fields["rng_counter"]["value"] == 0  # 1.2: no dice to read
    real = attu.sessions[game["game"]].state
    assert real.rng_key[0].all()  # dealt from 128 bits of entropy (the proposed seed needs every side's yes)
    core = attu.core
    assert fields["ke_effect"]["value"] == 0 != int(real.ke_effect[0])               # 12.1: the chit
    japanese = (core.scenario.unit_side == 1) & core.scenario.unit_in_play
    hexes = np.array(fields["unit_hex"]["value"])
    # 2.5: the face-down counters are where they are, but not which unit is where
    assert sorted(hexes[japanese].tolist()) == sorted(real.unit_hex[0][japanese].tolist())
    assert not np.array_equal(hexes[japanese], real.unit_hex[0][japanese])


def test_play_takes_only_the_sides_legal_actions_and_the_server_answers_its_own(attu):
    game = ask(attu, cmd="new", seed=5, server_plays=["japan"])["game"]
    token = ask(attu, cmd="join", game=game, side="us")["token"]
    view = ask(attu, cmd="view", game=game, token=token)
    legal = {a["action"] for a in view["legal"]}
    illegal = next(a for a in range(attu.core.num_actions) if a not in legal)
    refused = ask(attu, cmd="play", game=game, token=token, action=illegal)
    assert not refused["ok"] and f"action {illegal} is illegal" in refused["error"]
    for _ in range(40):  # the server's agent answers for Japan after each U.S. decision
        assert view["your_turn"] or view["game_over"]
        if view["game_over"]:
            break
        view = ask(attu, cmd="play", game=game, token=token, action=view["legal"][0]["action"])
        assert view["ok"], view
    obs = ask(attu, cmd="observe", game=game, token=token)
    assert obs["ok"] and set(obs["observation"]) == {"spatial", "global"}
    assert ask(attu, cmd="close", game=game, token=token)["closed"]
    assert not ask(attu, cmd="view", game=game, token=token)["ok"]


def test_sessions_refuse_what_a_side_may_not_do(attu):
    game = ask(attu, cmd="new", seed=1)["game"]
    us = ask(attu, cmd="join", game=game, side="us")["token"]
    japan = ask(attu, cmd="join", game=game, side="japan")["token"]
    errors = [ask(attu, cmd="join", game=game, side="us"),                    # joined already
              ask(attu, cmd="join", game=game, side="soviets"),
              ask(attu, cmd="view", game=game, token="guess"),
              ask(attu, cmd="view", game="nope", token=us),
              ask(attu, cmd="new", server_plays=["mars"]),
              ask(attu, cmd="new", seed=-1)]
    assert all(not e["ok"] and e["error"] for e in errors), errors
    view = ask(attu, cmd="view", game=game, token=japan)
    mover = us if view["to_move"] == "us" else japan
    waiter = japan if mover == us else us
    assert "legal" not in ask(attu, cmd="view", game=game, token=waiter)
    refused = ask(attu, cmd="play", game=game, token=waiter, action=0)
    assert not refused["ok"] and "not" in refused["error"] and "decision" in refused["error"]
    assert ask(attu, cmd="observe", game=game, token=waiter)["action_mask"] == []


def test_two_programs_play_each_other_over_tcp():
    server = BotServer("island_war", "rule", scenario="bloody_ridge", decisions="major")
    server.warm_up()
    ready = threading.Event()
    thread = threading.Thread(target=listen, args=(server, "127.0.0.1", 0, ready), daemon=True)
    thread.start()
    assert ready.wait(30)
    port = server.tcp.server_address[1]

    def client() -> tuple[socket.socket, object]:
        sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        return sock, sock.makefile("rw")

    def request(f, **req) -> dict:
        f.write(json.dumps(req) + "\n")
        f.flush()
        return json.loads(f.readline())

    (a, fa), (b, fb) = client(), client()
    try:
        game = request(fa, cmd="new", seed=9)["game"]
        tokens = {"us": request(fa, cmd="join", game=game, side="us")["token"],
                  "japan": request(fb, cmd="join", game=game, side="japan")["token"]}
        files = {"us": fa, "japan": fb}
        view = request(fa, cmd="view", game=game, token=tokens["us"])
        moves = 0
        while not view["game_over"] and moves < 5000:
            side = view["to_move"]
            mine = request(files[side], cmd="view", game=game, token=tokens[side])
            view = request(files[side], cmd="play", game=game, token=tokens[side], action=mine["legal"][0]["action"])
            assert view["ok"], view
            moves += 1
        assert view["game_over"] and set(view["rewards"]) == {"us", "japan"}
        assert request(fb, cmd="quit")["bye"] and request(fa, cmd="ping")["pong"]  # quit closes one connection
    finally:
        a.close()
        b.close()
        server.tcp.shutdown()
        thread.join(10)
