"""The service as it runs in production: gunicorn with several worker processes on loopback, real HTTP.

- The example bot client (``python -m robotcore_api.client``) plays full matches of every game using only the
  documented endpoints, and replays each through the stateless engine.
- Two clients racing on one match, through different worker processes: exactly one wins.
- kill -9 of the whole server during a match: after a restart every acknowledged move is there, and the
  match goes on to the end and replays exactly.
"""

from __future__ import annotations

import http.client
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

if sys.platform == "win32":
    pytest.skip("gunicorn, and the kill -9 these tests send, exist on POSIX only", allow_module_level=True)

import robotcore  # noqa: E402
from robotcore_api.client import ApiError, Client, play_match  # noqa: E402
from robotcore_api.service import MatchService, Settings  # noqa: E402
from robotcore_api.store import Store  # noqa: E402

from .conftest import DATABASES, GAMES, POSTGRES_URL


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """gunicorn with the service's own configuration, in its own process group (so kill -9 takes it all)."""

    def __init__(self, database_url: str, workdir: Path, workers: int = 2, **env: str) -> None:
        self.env = env
        self.database_url = database_url
        self.workdir = workdir
        self.workers = workers
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> LiveServer:
        env = dict(os.environ, ROBOTCORE_DATABASE_URL=self.database_url, ROBOTCORE_BIND=f"127.0.0.1:{self.port}",
                   WEB_CONCURRENCY=str(self.workers), ROBOTCORE_THREADS="4", **self.env)
        log = open(self.workdir / f"gunicorn-{self.port}.log", "ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "python:robotcore_api.gunicorn_conf"],
            cwd=self.workdir, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if Client(self.url, retries=0, timeout=2).request("GET", "/v1/health")[0] == 200:
                    return self
            except OSError:
                pass
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited: {(self.workdir / f'gunicorn-{self.port}.log').read_text()}")
            time.sleep(0.1)
        raise RuntimeError("gunicorn did not start in 30 s")

    def kill9(self) -> None:
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)


def live_database_url(kind: str, tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'live.db'}" if kind == "sqlite" else str(POSTGRES_URL)


@pytest.fixture(params=DATABASES)
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[LiveServer]:
    srv = LiveServer(live_database_url(request.param, tmp_path), tmp_path).start()
    yield srv
    srv.stop()


def run_client(*args: str) -> list[str]:
    proc = subprocess.run([sys.executable, "-m", "robotcore_api.client", *args], capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert lines and all("lost 0" in line for line in lines), proc.stdout
    return lines


def test_example_client_plays_every_game(server: LiveServer) -> None:
    """The example client, as a user would run it: every game served, all seats its own, each match replayed
    through the stateless engine; then one human seat against the server's bots."""
    lines = run_client("--url", server.url, "--matches", "2", "--verify", "--seed", "1")
    assert len(lines) == 2 * len(GAMES) and all("replay ok" in line for line in lines)
    for name in GAMES:
        n = robotcore.load_game(name).num_players
        seats = ",".join(["human"] + ["bot:random"] * (n - 1))
        lines = run_client("--url", server.url, "--game", name, "--seats", seats, "--verify", "--seed", "2")
        assert len(lines) == 1 and "replay ok" in lines[0]


@pytest.mark.parametrize("name", GAMES)
def test_client_against_bot_seats_of_every_game(server: LiveServer, name: str) -> None:
    game = robotcore.load_game(name)
    client = Client(server.url)
    seats = [{"type": "bot", "bot": "random"}] * (game.num_players - 1) + [{"type": "human"}]
    result = play_match(client, name, seats=seats, rng=random.Random(3), verify=True)
    assert result.lost == 0 and result.replay_ok and result.moves > 0
    assert result.actions > result.moves                      # the bots played their part
    client.close()


def test_racing_clients_through_several_workers(server: LiveServer) -> None:
    setup = Client(server.url)
    created = setup.create_match(GAMES[0], seed=5)
    match_id = created["match_id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"] if s["token"]}
    rng = random.Random(5)
    races = 0
    clients = [Client(server.url), Client(server.url)]
    while races < 20:
        latest = setup.view(match_id)
        if latest["status"] == "finished":
            break
        seat = rng.choice(latest["actors"])
        view = setup.view(match_id, tokens[seat])
        if len(view["legal_actions"]) < 2:
            setup.move(match_id, tokens[seat], {"id": view["legal_actions"][0]["id"]}, view["version"])
            continue
        choices = rng.sample(view["legal_actions"], 2)
        barrier = threading.Barrier(2)
        outcome: dict[int, Any] = {}

        def send(i: int, view: dict[str, Any] = view, seat: int = seat, choices: list[Any] = choices,
                 barrier: threading.Barrier = barrier, outcome: dict[int, Any] = outcome) -> None:
            barrier.wait()
            try:
                outcome[i] = clients[i].move(match_id, tokens[seat], {"id": choices[i]["id"]}, view["version"])
            except ApiError as exc:
                outcome[i] = exc

        threads = [threading.Thread(target=send, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wins = [o for o in outcome.values() if isinstance(o, dict)]
        losses = [o for o in outcome.values() if isinstance(o, ApiError)]
        assert len(wins) == 1 and len(losses) == 1 and losses[0].code == "stale-version", outcome
        races += 1
    log = setup.log(match_id)
    assert [e["version"] for e in log["entries"]] == list(range(1, len(log["entries"]) + 1))
    assert races >= 10
    for c in [setup, *clients]:
        c.close()
    service = MatchService(Store(server.database_url), Settings(database_url=server.database_url))
    assert service.verify_replay(match_id)


def test_connections_of_a_worker_take_turns(tmp_path: Path) -> None:
    """A connection whose requests are all there already (pipelined) does not keep its gevent worker to itself:
    another connection's request is answered before that burst is through (gunicorn_conf.post_request). Without
    the switch after each request the worker answered all 1,000 of the burst first, since nothing in it waits;
    with it, 1 here."""
    srv = LiveServer(f"sqlite:///{tmp_path / 'turns.db'}", tmp_path, workers=1).start()
    request = b"GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n"
    burst = 1000
    try:
        a = socket.socket()
        a.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 21)   # the whole burst's answers fit: no send waits
        a.connect(("127.0.0.1", srv.port))
        b = socket.create_connection(("127.0.0.1", srv.port))
        with a, b:
            for sock in (a, b):                 # both connections accepted and read by the worker first
                sock.sendall(request)
                assert sock.recv(4096).startswith(b"HTTP/1.1 200")
            a.sendall(request * burst)
            seen = a.recv(1 << 20)              # the burst is under way...
            assert seen.startswith(b"HTTP/1.1 200")
            b.sendall(request)                  # ...when the other connection asks
            b.settimeout(30)
            assert b.recv(4096).startswith(b"HTTP/1.1 200")
            a.setblocking(False)
            try:
                while chunk := a.recv(1 << 20):
                    seen += chunk
            except BlockingIOError:
                pass
            answered = seen.count(b"HTTP/1.1 200")
            assert answered < burst // 2, f"the other connection waited for {answered} of the burst's answers"
            a.settimeout(30)
            while seen.count(b"HTTP/1.1 200") < burst:   # and the burst is answered in full
                chunk = a.recv(1 << 20)
                assert chunk
                seen += chunk
    finally:
        srv.stop()


def test_kill_9_mid_match_loses_no_acknowledged_move(tmp_path: Path) -> None:
    """A client plays as fast as it can; the server is killed with SIGKILL (master and workers) at a random
    moment, then restarted on the same database file. Every move the client had been told was accepted is
    in the log; the move in flight is either there or not, never twice (its Idempotency-Key is retried);
    the match then goes on to the end and replays exactly."""
    url = f"sqlite:///{tmp_path / 'crash.db'}"
    server = LiveServer(url, tmp_path).start()
    client = Client(server.url, retries=0, timeout=5)
    created = client.create_match(GAMES[0], seed=9)
    match_id = created["match_id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"] if s["token"]}
    rng = random.Random(9)
    acknowledged: list[tuple[int, int, int]] = []
    in_flight: dict[str, Any] = {}
    stop = threading.Event()

    def play() -> None:
        while not stop.is_set():
            try:
                latest = client.view(match_id)
                if latest["status"] == "finished":
                    return
                seat = rng.choice(latest["actors"])
                view = client.view(match_id, tokens[seat])
                key = uuid.uuid4().hex
                action = {"id": rng.choice(view["legal_actions"])["id"]}
                in_flight.update(key=key, seat=seat, action=action, version=view["version"])
                answer = client.move(match_id, tokens[seat], action, view["version"], key=key)
                in_flight.clear()
                a = answer["accepted"]
                acknowledged.append((a["version"], a["seat"], a["action"]["id"]))
            except (OSError, http.client.HTTPException, ApiError):
                return                      # the server was killed under this request

    player = threading.Thread(target=play)
    player.start()
    deadline = time.monotonic() + 10
    while len(acknowledged) < 20 and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(random.Random().uniform(0, 0.05))
    server.kill9()
    stop.set()
    player.join(10)
    assert len(acknowledged) >= 20

    restarted = LiveServer(url, tmp_path)
    restarted.port, restarted.url = server.port, server.url
    restarted.start()
    try:
        again = Client(restarted.url)
        if in_flight:                       # retry the move whose answer was lost: applied once at most
            try:
                answer = again.move(match_id, tokens[in_flight["seat"]], in_flight["action"], in_flight["version"],
                                    key=in_flight["key"])
                a = answer["accepted"]
                acknowledged.append((a["version"], a["seat"], a["action"]["id"]))
            except ApiError as exc:
                assert exc.code == "stale-version"    # another move got there first: ours was never applied
        # each seat sees its own actions in the log (others' private ones stay hidden until the end)
        logged = set()
        for token in tokens.values():
            log = again.log(match_id, token)
            assert [e["version"] for e in log["entries"]] == list(range(1, len(log["entries"]) + 1))
            logged |= {(e["version"], e["seat"], e["action"]["id"]) for e in log["entries"] if e["action"]}
        assert set(acknowledged) <= logged
        # the match goes on to the end
        while True:
            latest = again.view(match_id)
            if latest["status"] == "finished":
                break
            seat = rng.choice(latest["actors"])
            view = again.view(match_id, tokens[seat])
            again.move(match_id, tokens[seat], {"id": rng.choice(view["legal_actions"])["id"]}, view["version"])
        final = again.log(match_id)
        assert final["outcome"] is not None
        assert set(acknowledged) <= {(e["version"], e["seat"], e["action"]["id"]) for e in final["entries"]}
        service = MatchService(Store(url), Settings(database_url=url))
        assert service.verify_replay(match_id)
        again.close()
    finally:
        restarted.stop()
