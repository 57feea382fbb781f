"""The bot protocol answers whatever it is sent: every request line gets exactly one line of valid
JSON and the server goes on (docs/bot-protocol.md, Limits).

The inputs that stopped or stalled the server (issue 47) each get a test, on stdin and over TCP,
and a fuzz test sends 10,000 random and malformed lines (hypothesis) to a running TCP server.
"""

from __future__ import annotations

import json
import re
import socket
import struct
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from wargym.agents.serve import COMMANDS, BotServer, Limits

ENTRY = "from wargym.agents.serve import main; raise SystemExit(main())"
SERVER_ARGS = ("--ruleset", "island_war", "--scenario", "bloody_ridge", "--decisions", "major", "--agent", "random")


def strict(text: str) -> dict:
    """A response line parsed as JSON proper (NaN and Infinity refused): one object with "ok"."""
    def constant(name):
        raise ValueError(f"{name} in a response")

    reply = json.loads(text, parse_constant=constant)
    assert isinstance(reply, dict) and isinstance(reply.get("ok"), bool), text[:300]
    return reply


# ----------------------------------------------------------------------------------------- stdin
@pytest.fixture(scope="module")
def stdin_server(tmp_path_factory):
    proc = subprocess.Popen([sys.executable, "-c", ENTRY, *SERVER_ARGS], cwd=tmp_path_factory.mktemp("limits"),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    yield proc
    if proc.poll() is None:
        proc.kill()
        proc.wait()


def send(proc: subprocess.Popen, line: bytes) -> dict:
    proc.stdin.write(line + b"\n")
    proc.stdin.flush()
    return strict(proc.stdout.readline().decode())


BAD_LINES = {
    "100,000 open brackets": (b"[" * 100_000, "deeper than 32"),
    "a 5,000-digit integer": (b'{"cmd":"describe","action":' + b"9" * 5000 + b"}", "5000 digits"),
    "an id that is NaN": (b'{"cmd":"ping","id":NaN}', "NaN is not a JSON value"),
    "a number too large for a float": (b'{"cmd":"ping","id":1e999}', "too large"),
    "not UTF-8": (b'{"cmd":"\xff\xfe"}', "unknown cmd"),
    "a JSON array": (b"[1, 2]", "a request is a JSON object"),
}


@pytest.mark.parametrize("name", list(BAD_LINES))
def test_a_line_that_stopped_the_server_gets_an_error_and_the_server_goes_on(stdin_server, name):
    line, error = BAD_LINES[name]
    reply = send(stdin_server, line)
    assert not reply["ok"] and error in reply["error"] and "id" not in reply
    assert send(stdin_server, b'{"cmd":"ping","id":2}')["pong"]


def test_a_refused_number_keeps_the_requests_id(stdin_server):
    reply = send(stdin_server, b'{"cmd":"act","id":"x7","history":{"seed":NaN}}')
    assert not reply["ok"] and reply["id"] == "x7" and "NaN" in reply["error"]


def test_a_line_longer_than_the_limit_is_skipped_unread_with_one_error(stdin_server):
    long = b'{"cmd":"ping","pad":"' + b"x" * (Limits.line_bytes + 10) + b'"}'
    reply = send(stdin_server, long)
    assert not reply["ok"] and f"longer than {Limits.line_bytes} bytes" in reply["error"]
    assert send(stdin_server, b'{"cmd":"ping"}')["pong"]


def test_describe_takes_at_most_one_entry_per_action_id(stdin_server):
    many = json.dumps({"cmd": "describe", "action": [0] * 1_000}).encode()
    reply = send(stdin_server, many)
    assert not reply["ok"] and "at most 265" in reply["error"]
    ok = send(stdin_server, json.dumps({"cmd": "describe", "action": list(range(265))}).encode())
    assert ok["ok"] and len(ok["actions"]) == 265


def test_a_history_longer_than_a_game_is_refused_before_it_is_played(stdin_server):
    reply = send(stdin_server, json.dumps({"cmd": "legal", "history": {"seed": 0, "actions": [0] * 20_001}}).encode())
    assert not reply["ok"] and "ends after 20000 decisions" in reply["error"]


def test_a_request_for_another_ruleset_is_refused_even_a_ping(stdin_server):
    reply = send(stdin_server, b'{"cmd":"ping","ruleset":"attu"}')
    assert not reply["ok"] and "this server plays ruleset 'island_war'" in reply["error"]
    reply = send(stdin_server, b'{"cmd":"ping","scenario":"saipan"}')
    assert not reply["ok"] and "scenario 'bloody_ridge'" in reply["error"]


def test_ping_states_the_limits(stdin_server):
    limits = send(stdin_server, b'{"cmd":"ping"}')["limits"]
    assert limits == {"line_bytes": Limits.line_bytes, "depth": Limits.depth, "digits": Limits.digits,
                      "games": Limits.games, "games_per_client": Limits.games_per_client,
                      "idle_seconds": Limits.idle_seconds, "wait_seconds": Limits.wait_seconds, "history": 20_000}


def test_an_error_quotes_at_most_200_characters_of_what_was_sent():
    server = BotServer("island_war", "random", scenario="bloody_ridge", decisions="major")
    reply = server.handle(json.dumps({"cmd": "view", "game": "g" * 100_000, "token": "t"}))
    assert not reply["ok"] and len(reply["error"]) < 400 and "100002 characters" in reply["error"]


# ------------------------------------------------------------------------------------------- TCP
@pytest.fixture(scope="module")
def tcp_server(tmp_path_factory):
    """A TCP server in its own process: (process, port, its stderr file)."""
    folder = tmp_path_factory.mktemp("tcp")
    log = folder / "stderr.txt"
    with log.open("wb") as err:
        proc = subprocess.Popen([sys.executable, "-c", ENTRY, *SERVER_ARGS, "--listen", "127.0.0.1:0"], cwd=folder,
                                stdout=subprocess.DEVNULL, stderr=err)
    port = None
    deadline = time.monotonic() + 600
    while port is None and time.monotonic() < deadline and proc.poll() is None:
        found = re.search(r"listening on 127\.0\.0\.1:(\d+)", log.read_text())
        port = int(found.group(1)) if found else time.sleep(0.2)
    assert port, f"the server did not start: {log.read_text()}"
    yield proc, port, log
    proc.kill()
    proc.wait()


class Client:
    def __init__(self, port: int):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=60)
        self.file = self.sock.makefile("rb")

    def send(self, *lines: bytes) -> list[dict]:
        self.sock.sendall(b"".join(line + b"\n" for line in lines))
        return [strict(self.file.readline().decode()) for _ in lines]

    def close(self) -> None:
        self.file.close()
        self.sock.close()


def test_a_connection_reset_mid_request_leaves_no_traceback(tcp_server):
    proc, port, log = tcp_server
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(b'{"cmd":"ping"')                              # half a request, then a reset (RST)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()
    client = Client(port)
    assert client.send(b'{"cmd":"ping"}')[0]["pong"]
    client.close()
    assert proc.poll() is None and "Traceback" not in log.read_text()


def test_a_line_past_the_limit_over_tcp_is_not_held_and_the_connection_goes_on(tcp_server):
    _, port, _ = tcp_server
    client = Client(port)
    client.sock.sendall(b"x" * (3 * Limits.line_bytes))          # 3 MiB with no newline yet
    client.sock.sendall(b"\n")
    reply = strict(client.file.readline().decode())
    assert not reply["ok"] and "longer than" in reply["error"]
    assert client.send(b'{"cmd":"ping"}')[0]["pong"]
    client.close()


def test_200_clients_connecting_at_once_are_all_answered(tcp_server):
    """The listen backlog holds 200 connections made at the same moment (socketserver's default
    of 5 reset most of them)."""
    import threading

    _, port, _ = tcp_server
    answers, start = [], threading.Barrier(200)

    def one():
        start.wait()
        client = Client(port)
        answers.append(client.send(b'{"cmd":"ping"}')[0]["pong"])
        client.close()

    threads = [threading.Thread(target=one) for _ in range(200)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert answers.count(True) == 200


# ------------------------------------------------------------------------------------------- fuzz
KEYS = ("cmd", "id", "state", "history", "action", "game", "token", "side", "seed", "server_plays", "ruleset",
        "scenario")
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=False),
                    st.text(max_size=20), st.sampled_from(["us", "japan", "island_war", "bloody_ridge", "attu"]))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner,
                                                                                             max_size=5), max_leaves=20)
REQUESTS = st.fixed_dictionaries({"cmd": st.sampled_from([c for c in COMMANDS if c != "quit"])},
                                 optional={k: VALUES for k in KEYS if k != "cmd"}).map(json.dumps)
HISTORIES = st.builds(lambda cmd, seed, actions: json.dumps({"cmd": cmd, "history": {"seed": seed, "actions": actions}}),
                      st.sampled_from(["act", "legal", "describe", "step"]), st.integers(0, 50),
                      st.lists(st.integers(-5, 300), max_size=8))
MALFORMED = st.one_of(
    st.text(alphabet=st.characters(blacklist_characters="\n\r", blacklist_categories=("Cs",)), min_size=1, max_size=80),
    REQUESTS.map(lambda s: s[: len(s) // 2]),                                      # cut short
    st.integers(33, 200).map(lambda n: "[" * n + "]" * n),                         # nested deep
    st.integers(25, 400).map(lambda n: '{"cmd":"ping","id":' + "7" * n + "}"),     # long numbers
    st.sampled_from(['{"cmd":"ping","id":NaN}', '{"cmd":"ping","id":-Infinity}', '{"cmd":1e400}', "{}", "null",
                     '{"cmd":null}', '{"cmd":["ping"]}', '{"cmd":"ping"', '"cmd"', "\ufeff{}"]),
)
LINES = st.one_of(REQUESTS, HISTORIES, MALFORMED).map(str.encode) | st.binary(min_size=1, max_size=60).filter(
    lambda b: b"\n" not in b)


def is_request(line: bytes) -> bool:
    """A line the server answers: not blank, and not a quit (which closes the connection)."""
    text = line.decode("utf-8", errors="replace")
    if not text.strip():
        return False
    try:
        return json.loads(text, parse_constant=float).get("cmd") != "quit"
    except (ValueError, AttributeError, RecursionError):
        return True


def test_fuzz_10000_lines_each_get_one_json_answer_over_tcp_and_the_server_goes_on(tcp_server):
    """400 connections of 25 random or malformed lines each, sent at once: as many answers, each
    one valid JSON object with "ok", a request's id echoed; then ping is answered, the process
    runs and its stderr holds no traceback."""
    proc, port, log = tcp_server
    sent = []

    @settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(batch=st.lists(LINES.filter(is_request), min_size=25, max_size=25))
    def connection(batch):
        client = Client(port)
        try:
            replies = client.send(*batch)
        finally:
            client.close()
        assert len(replies) == len(batch)
        for line, reply in zip(batch, replies):
            try:
                request = json.loads(line.decode(), parse_constant=float)
            except (ValueError, UnicodeDecodeError, RecursionError):
                continue
            if isinstance(request, dict) and isinstance(request.get("id"), (int, str)) and "id" in reply:
                assert reply["id"] == request["id"]
        sent.append(len(batch))

    connection()
    assert sum(sent) >= 10_000, f"the fuzz sent {sum(sent)} lines"
    client = Client(port)
    assert client.send(b'{"cmd":"ping"}')[0]["pong"]
    client.close()
    assert proc.poll() is None and "Traceback" not in log.read_text()
