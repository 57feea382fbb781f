"""The bot protocol's session mode: the server holds the game, each side sees only its view.

What a side receives is checked for leaks by the contract (wargym.contract.hidden_stays_hidden, for
every ruleset: every payload and every text); here: the commands, their refusals, two clients
playing each other over TCP, that no payload carries the dice key or a hidden fact in plain sight,
how a game is dealt (a seed only when every side agrees, else 128 bits of entropy), leaving a
game, and the games a client may hold and how long.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
from typing import Iterator

import numpy as np
import pytest

from wargym.agents.serve import BotServer, listen


def ask(server: BotServer, **request) -> dict:
    return server.handle(json.dumps(request))


@contextlib.contextmanager
def serving(server: BotServer) -> Iterator[int]:
    """``server`` listening on a free TCP port (its number), shut down after."""
    server.warm_up()
    ready = threading.Event()
    thread = threading.Thread(target=listen, args=(server, "127.0.0.1", 0, ready), daemon=True)
    thread.start()
    assert ready.wait(30)
    try:
        yield server.tcp.server_address[1]
    finally:
        server.tcp.shutdown()
        thread.join(10)


def connect(port: int):
    """A client connection's file (read and write, one JSON line a request); closed with the test."""
    return socket.create_connection(("127.0.0.1", port), timeout=60).makefile("rw")


def request(f, **req) -> dict:
    f.write(json.dumps(req) + "\n")
    f.flush()
    return json.loads(f.readline())


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
    with serving(BotServer("island_war", "rule", scenario="bloody_ridge", decisions="major")) as port:
        fa, fb = connect(port), connect(port)
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


# --------------------------------------------------------------------------------- how a game is dealt
def hidden_facts(core, state) -> dict[str, np.ndarray]:
    """What Japan hides from the U.S. and the dice: equal between two games only if one is the other."""
    return {name: getattr(state, name)[0] for name in ("rng_key", "unit_hex", "ke_effect")}


def same_game(a: dict, b: dict) -> bool:
    return all(np.array_equal(a[k], b[k]) for k in a)


def test_a_seed_named_by_one_client_alone_does_not_deal_the_game(attu):
    """A client that starts a session against the server's agent and names a seed must not know
    the Japanese set-up or the dice: the game is dealt from entropy, and both the join and the
    view say so."""
    core = attu.core
    seeded = hidden_facts(core, core.init(1, 11))
    game = ask(attu, cmd="new", seed=11, server_plays=["japan"])
    assert game["seed"] == 11 and not game["started"]
    joined = ask(attu, cmd="join", game=game["game"], side="us", seed=11)
    assert joined["seed"] == 11 and joined["agreed"] == ["us"] and joined["dealt_from"] == "entropy"
    state = attu.sessions[game["game"]].state
    assert not same_game(hidden_facts(core, state), seeded)
    assert state.rng_key[0, 1] != 0                                   # a 128-bit key: SipHash dice
    view = ask(attu, cmd="view", game=game["game"], token=joined["token"])
    assert view["dealt_from"] == "entropy" and view["seed"] == 11


def test_a_seed_both_sides_agree_to_deals_the_game_and_both_are_shown_it(attu):
    core = attu.core
    game = ask(attu, cmd="new", seed=12)["game"]
    us = ask(attu, cmd="join", game=game, side="us", seed=12)
    assert us["seed"] == 12 and not us["started"] and us["waiting_for"] == ["japan"]
    waiting = ask(attu, cmd="view", game=game, token=us["token"])
    assert waiting["ok"] and not waiting["started"] and "state" not in waiting
    refused = ask(attu, cmd="play", game=game, token=us["token"], action=0)
    assert not refused["ok"] and "waiting for japan" in refused["error"]
    japan = ask(attu, cmd="join", game=game, side="japan", seed=12)
    assert japan["seed"] == 12 and japan["started"] and japan["dealt_from"] == "seed"
    assert japan["agreed"] == ["japan", "us"] or japan["agreed"] == ["us", "japan"]
    assert same_game(hidden_facts(core, attu.sessions[game].state), hidden_facts(core, core.init(1, 12)))


def test_one_side_refusing_the_seed_deals_the_game_from_entropy(attu):
    core = attu.core
    game = ask(attu, cmd="new", seed=13)["game"]
    ask(attu, cmd="join", game=game, side="us", seed=13)
    japan = ask(attu, cmd="join", game=game, side="japan")          # joins without agreeing
    assert japan["seed"] == 13 and japan["agreed"] == ["us"] and japan["dealt_from"] == "entropy"
    assert not same_game(hidden_facts(core, attu.sessions[game].state), hidden_facts(core, core.init(1, 13)))
    wrong = ask(attu, cmd="new", seed=14)["game"]
    refused = ask(attu, cmd="join", game=wrong, side="us", seed=15)
    assert not refused["ok"] and "proposed seed is 14" in refused["error"]
    unseeded = ask(attu, cmd="new")["game"]
    refused = ask(attu, cmd="join", game=unseeded, side="us", seed=1)
    assert not refused["ok"] and "no seed was proposed" in refused["error"]


def test_a_server_that_trusts_seeds_deals_its_clients_agreed_seed():
    server = BotServer("island_war", "rule", scenario="bloody_ridge", decisions="major", trust_seeds=True)
    core = server.core
    game = ask(server, cmd="new", seed=21, server_plays=["us"])["game"]
    joined = ask(server, cmd="join", game=game, side="japan", seed=21)
    assert joined["dealt_from"] == "seed" and ask(server, cmd="ping")["trust_seeds"]
    from wargym.agents.serve import Session

    want = server._server_moves(Session(server_plays=(0,), client_sides=(1,), creator=0), core.init(1, 21))
    assert np.array_equal(server.sessions[game].state.rng_counter, want.rng_counter)


def test_session_games_never_share_a_key():
    """Two sessions of the same server are two different games with 128-bit keys of their own."""
    server = BotServer("island_war", "random", scenario="bloody_ridge", decisions="major")
    keys = []
    for _ in range(20):
        game = ask(server, cmd="new", server_plays=["us"])["game"]
        ask(server, cmd="join", game=game, side="japan")
        keys.append(tuple(server.sessions[game].state.rng_key[0].tolist()))
        ask(server, cmd="close", game=game, token=next(iter(server.sessions[game].tokens)))
    assert len(set(keys)) == 20 and all(k[1] != 0 for k in keys)


# ------------------------------------------------------------------------------------ leaving, limits
def test_closing_is_leaving_the_other_side_keeps_the_game(attu):
    game = ask(attu, cmd="new")["game"]
    us = ask(attu, cmd="join", game=game, side="us")["token"]
    japan = ask(attu, cmd="join", game=game, side="japan")["token"]
    left = ask(attu, cmd="close", game=game, token=us)
    assert left["closed"] and left["left"] == "us" and not left["dropped"]
    view = ask(attu, cmd="view", game=game, token=japan)
    assert view["ok"] and view["left"] == ["us"]
    assert not ask(attu, cmd="view", game=game, token=us)["ok"]              # the token is spent
    assert not ask(attu, cmd="join", game=game, side="us")["ok"]             # and the side is not free
    assert ask(attu, cmd="close", game=game, token=japan)["dropped"]
    assert game not in attu.sessions


def test_a_client_holds_at_most_its_share_of_games_and_idle_games_expire():
    from wargym.agents.serve import Limits

    now = [0.0]
    server = BotServer("island_war", "random", scenario="bloody_ridge", decisions="major",
                       limits=Limits(games_per_client=3, games=5, idle_seconds=60), clock=lambda: now[0])
    mine = [server.handle(json.dumps({"cmd": "new"}), client=1)["game"] for _ in range(3)]
    refused = server.handle(json.dumps({"cmd": "new"}), client=1)
    assert not refused["ok"] and "this client created 3 games" in refused["error"]
    others = [server.handle(json.dumps({"cmd": "new"}), client=c)["game"] for c in (2, 3)]
    full = server.handle(json.dumps({"cmd": "new"}), client=4)
    assert not full["ok"] and "holds 5 games" in full["error"]
    now[0] = 30.0
    token = server.handle(json.dumps({"cmd": "join", "game": mine[0], "side": "us"}), client=1)["token"]
    now[0] = 75.0                                  # the others were last named at 0 s: past 60 s idle
    assert server.handle(json.dumps({"cmd": "ping"}), client=5)["ok"]
    fresh = server.handle(json.dumps({"cmd": "new"}), client=4)                # the sweep freed room
    assert fresh["ok"] and set(server.sessions) == {mine[0], fresh["game"]}
    assert server.handle(json.dumps({"cmd": "view", "game": mine[0], "token": token}), client=1)["ok"]
    gone = server.handle(json.dumps({"cmd": "view", "game": others[0], "token": "x"}), client=2)
    assert not gone["ok"] and "60 s" in gone["error"]
    assert server.handle(json.dumps({"cmd": "new"}), client=1)["ok"]          # its expired games count no more


def test_a_session_needs_a_side_for_a_client(attu):
    refused = ask(attu, cmd="new", server_plays=["us", "japan"])
    assert not refused["ok"] and "server_plays names every player" in refused["error"]


def test_describe_in_a_session_speaks_from_the_sides_view(attu):
    game = ask(attu, cmd="new", server_plays=["japan"])["game"]
    token = ask(attu, cmd="join", game=game, side="us")["token"]
    view = ask(attu, cmd="view", game=game, token=token)
    legal = [a["action"] for a in view["legal"][:3]]
    told = ask(attu, cmd="describe", game=game, token=token, action=legal)
    assert [t["description"] for t in told["actions"]] == [a["description"] for a in view["legal"][:3]]
    board = ask(attu, cmd="describe", game=game, token=token)
    assert board["ok"] and board["board"] == view["board"] and board["summary"] == view["summary"]
    assert not ask(attu, cmd="describe", game=game, token="guess", action=0)["ok"]


# --------------------------------------------------------------- news since the last request, wait
def test_two_clients_wait_for_their_turn_and_are_told_every_decision_once():
    """Each client blocks in `wait` until its side decides (no polling), and the `since` of its
    replies tells it every decision of the game exactly once, in order: who decided, the action in
    words and the events of the rules from its side's view."""
    sides = ("us", "japan")
    told: dict[str, list[dict]] = {side: [] for side in sides}
    timed_out: list[bool] = []
    played = {side: 0 for side in sides}
    with serving(BotServer("island_war", "rule", scenario="bloody_ridge", decisions="major")) as port:
        files = {side: connect(port) for side in sides}
        game = request(files["us"], cmd="new")["game"]
        tokens = {side: request(files[side], cmd="join", game=game, side=side)["token"] for side in sides}

        def play_side(side: str) -> None:
            f, token = files[side], tokens[side]
            while played[side] < 400:
                view = request(f, cmd="wait", game=game, token=token, timeout=60)
                timed_out.append(view["timed_out"])
                told[side] += view["since"]
                if view["game_over"]:
                    return
                view = request(f, cmd="play", game=game, token=token, action=view["legal"][-1]["action"])
                told[side] += view["since"]
                played[side] += 1

        threads = [threading.Thread(target=play_side, args=(side,)) for side in sides]
        for t in threads:
            t.start()
        for t in threads:
            t.join(600)
        told["us"] += request(files["us"], cmd="view", game=game, token=tokens["us"])["since"]
    assert timed_out and not any(timed_out)                    # every wait ended on a turn or the end
    for side in sides:
        assert [entry["by"] for entry in told[side]].count(side) == played[side]
        events = [text for entry in told[side] for text in entry["events"]]   # the rules' events, with their case
        assert any(text.startswith("the game ends") and text.endswith("(4.0)") for text in events)
    # both sides were told of the same decisions, in the same order, each once
    assert [(e["by"], e["action"]) for e in told["us"]] == [(e["by"], e["action"]) for e in told["japan"]]
    assert len(told["us"]) == played["us"] + played["japan"] > 20
    assert all(isinstance(e["description"], str) and e["description"] for e in told["us"])


def test_wait_refuses_a_bad_timeout_and_returns_at_once_on_the_sides_turn(attu):
    game = ask(attu, cmd="new")["game"]
    us = ask(attu, cmd="join", game=game, side="us")["token"]
    japan = ask(attu, cmd="join", game=game, side="japan")["token"]
    for bad in (-1, "ten", True, 10_000):
        reply = ask(attu, cmd="wait", game=game, token=us, timeout=bad)
        assert not reply["ok"] and "'timeout'" in reply["error"]
    view = ask(attu, cmd="view", game=game, token=us)
    mover, waiter = (us, japan) if view["to_move"] == "us" else (japan, us)
    now = ask(attu, cmd="wait", game=game, token=mover, timeout=5)
    assert now["ok"] and now["your_turn"] and not now["timed_out"] and now["waited"] < 1
    later = ask(attu, cmd="wait", game=game, token=waiter, timeout=0.2)
    assert later["ok"] and later["timed_out"] and not later["your_turn"]
