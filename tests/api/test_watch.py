"""Live updates without a thread per watcher, and bot thinking off the requests (api/live.py):

- the change feed learns of a move committed by another process through the database alone (PostgreSQL
  LISTEN/NOTIFY, SQLite's data_version), tested with two apps (two services, two feeds) on one database;
- the event stream (``GET /v1/matches/{id}/stream``): a first event with the current view, one per change, an
  end event, Last-Event-ID, the per-seat choke point, refusals before the stream starts;
- under gunicorn's gevent worker: hundreds of open streams on one worker while moves and health answer, the
  watcher bound (503 too-many-watchers), and a disconnected watcher frees its slot;
- bots think on the pool's threads, a full pool refuses a move (503 bots-busy) and changes nothing.
"""

from __future__ import annotations

import json
import socket
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import robotcore
from robotcore_api import service as service_module

from .conftest import DATABASES, GAMES, ApiClient, acting, database_url, make_api, random_move


def two_apps(kind: str, tmp_path: Path, schema: Any) -> tuple[ApiClient, ApiClient]:
    """Two services on one database, sharing nothing else: two gunicorn workers, or two hosts."""
    url = database_url(kind, tmp_path)
    return make_api(url, schema), make_api(url, schema)


def events_of(chunks: Iterator[bytes], count: int, timeout: float = 20) -> list[tuple[str, dict[str, Any]]]:
    """Read ``count`` events (name, data) from an event stream's chunks."""
    out: list[tuple[str, dict[str, Any]]] = []
    buffer = b""
    deadline = time.monotonic() + timeout
    while len(out) < count and time.monotonic() < deadline:
        buffer += next(chunks)
        while b"\n\n" in buffer and len(out) < count:
            block, buffer = buffer.split(b"\n\n", 1)
            fields = dict(line.split(": ", 1) for line in block.decode().split("\n") if ": " in line
                          and not line.startswith(":"))
            if "data" in fields:
                out.append((fields.get("event", "message"), json.loads(fields["data"])))
    return out


@pytest.mark.parametrize("kind", DATABASES)
def test_the_feed_learns_of_another_process_move_through_the_database(
        kind: str, tmp_path: Path, openapi_schema: Any) -> None:
    one, two = two_apps(kind, tmp_path, openapi_schema)
    try:
        doc, tokens = one.create(GAMES[0], seed=3)
        match_id = doc["match_id"]
        feed = one.app.extensions["robotcore"].feed
        sub = feed.subscribe(match_id, doc["version"])
        deadline = time.monotonic() + 10
        while not feed.listening and time.monotonic() < deadline:
            time.sleep(0.02)
        assert feed.listening
        time.sleep(0.2)
        sub.event.clear()                  # (a listener that starts wakes everyone once: they look again)
        seat, view = acting(two, match_id, tokens)
        time.sleep(0.2)
        assert not sub.event.is_set()
        resp = two.move(match_id, tokens[seat], {"id": view["legal_actions"][0]["id"]}, view["version"])
        assert resp.status_code == 200
        assert sub.event.wait(10), "the other service's commit never reached this feed"
        feed.unsubscribe(sub)
        assert feed.watched() == 0
    finally:
        for api in (one, two):
            api.app.extensions["robotcore"].store.dispose()


@pytest.mark.parametrize("kind", DATABASES)
def test_a_stream_follows_moves_made_elsewhere(kind: str, tmp_path: Path, openapi_schema: Any) -> None:
    """A spectator's stream on one service sees every move made through the other: first the current view,
    then one event per change with what changed, the seat's hidden actions hidden, and an end event."""
    one, two = two_apps(kind, tmp_path, openapi_schema)
    try:
        name = "nicodemus"
        doc, tokens = one.create(name, seats=[{"type": "human"}, {"type": "human"}], seed=5)
        match_id = doc["match_id"]
        resp = one.client.get(f"/v1/matches/{match_id}/stream", buffered=False)
        assert resp.status_code == 200 and resp.mimetype == "text/event-stream"
        assert resp.headers["Cache-Control"] == "no-store"
        chunks = iter(resp.response)
        [(kind0, first)] = events_of(chunks, 1)
        assert kind0 == "match" and first["version"] == doc["version"] and first["events"] == []
        assert first["match"]["seat"] is None and first["match"]["legal_actions"] == []
        game = robotcore.load_game(name)
        for _ in range(6):
            seat, view = acting(two, match_id, tokens)
            chosen = view["legal_actions"][-1]["id"]
            assert two.move(match_id, tokens[seat], {"id": chosen}, view["version"]).status_code == 200
            [(kind1, event)] = events_of(chunks, 1)
            assert kind1 == "match" and event["version"] == view["version"] + 1
            assert [e["version"] for e in event["events"]] == [view["version"] + 1]
            assert event["events"][0]["hidden"] == (not game.is_public_action(chosen))
            assert event["match"] == one.get(f"/v1/matches/{match_id}").get_json()   # a spectator's view
        resp.close()
    finally:
        for api in (one, two):
            api.app.extensions["robotcore"].store.dispose()


def test_a_stream_waits_out_an_unreachable_store(tmp_path: Path, openapi_schema: Any, monkeypatch: Any,
                                                 caplog: Any) -> None:
    """The store's reads failing for a while (a database restart, its connections cut: requests answer 503
    meanwhile) leave an event stream open: it tries again, later each time, and delivers the move made
    meanwhile; it used to end with the error, and every stream of the server with it."""
    from sqlalchemy.exc import OperationalError

    one, two = two_apps("sqlite", tmp_path, openapi_schema)
    try:
        doc, tokens = one.create("nicodemus", seats=[{"type": "human"}, {"type": "human"}], seed=5)
        match_id = doc["match_id"]
        resp = one.client.get(f"/v1/matches/{match_id}/stream", buffered=False)
        chunks = iter(resp.response)
        [(_, first)] = events_of(chunks, 1)
        store = one.app.extensions["robotcore"].store
        outage = {"left": 4}

        def failing(real: Any) -> Any:
            def read(*args: Any, **kwargs: Any) -> Any:
                if outage["left"] > 0:
                    outage["left"] -= 1
                    raise OperationalError("SELECT", {}, Exception("server closed the connection unexpectedly"))
                return real(*args, **kwargs)
            return read

        for name in ("get_version", "get_match", "actions", "versions", "actions_after"):   # the feed's too
            monkeypatch.setattr(store, name, failing(getattr(store, name)))
        seat, view = acting(two, match_id, tokens)
        assert two.move(match_id, tokens[seat], {"id": view["legal_actions"][0]["id"]}, view["version"]).status_code == 200
        [(kind, event)] = events_of(chunks, 1)
        assert kind == "match" and event["version"] == first["version"] + 1
        assert outage["left"] == 0 and "the store is unreachable" in caplog.text
        resp.close()
    finally:
        for api in (one, two):
            api.app.extensions["robotcore"].store.dispose()


def test_a_seat_stream_shows_that_seat_and_the_end(api: ApiClient) -> None:
    doc, tokens = api.create("nicodemus", seats=[{"type": "human"}, {"type": "bot", "bot": "random"}], seed=2)
    match_id = doc["match_id"]
    resp = api.client.get(f"/v1/matches/{match_id}/stream?after=0", buffered=False,
                          headers={"Authorization": f"Bearer {tokens[0]}"})
    chunks = iter(resp.response)
    [(_, first)] = events_of(chunks, 1)
    assert first["match"] == api.view(match_id, tokens[0]) and first["match"]["seat"] == 0
    assert [e["version"] for e in first["events"]] == list(range(1, doc["version"] + 1))
    view = first["match"]
    while view["status"] != "finished":
        answer = api.move(match_id, tokens[0], {"id": view["legal_actions"][0]["id"]}, view["version"])
        view = answer.get_json()["match"]
        seen = events_of(chunks, 1)[0][1]
        while seen["version"] < view["version"]:
            seen = events_of(chunks, 1)[0][1]
        assert seen["match"] == api.view(match_id, tokens[0])
    assert events_of(chunks, 1)[0][0] == "end"
    resp.close()
    assert api.app.extensions["robotcore"].watchers.taken == 0


def test_stream_refusals_come_before_the_stream(api: ApiClient) -> None:
    doc, _ = api.create(GAMES[0], seed=1)
    match_id = doc["match_id"]
    for path, headers, want in [
        ("/v1/matches/nope/stream", {}, (404, "not-found")),
        (f"/v1/matches/{match_id}/stream", {"Authorization": "Bearer not-a-seat-token-of-it"}, (401, "invalid-token")),
        (f"/v1/matches/{match_id}/stream?after=999", {}, (422, "validation")),
        (f"/v1/matches/{match_id}/stream?after=x", {}, (422, "validation")),
        (f"/v1/matches/{match_id}/stream", {"Last-Event-ID": "abc"}, (422, "validation")),
        (f"/v1/matches/{match_id}/stream", {"Last-Event-ID": "\u00b2"}, (422, "validation")),   # isdigit(), not int
        (f"/v1/matches/{match_id}/stream?after=0", {"Last-Event-ID": "abc"}, (422, "validation")),  # (was ignored)
        (f"/v1/matches/{match_id}/stream?after=%EF%BC%90", {}, (422, "validation")),
    ]:
        resp = api.get(path, headers=headers)
        assert (resp.status_code, resp.get_json()["code"]) == want, path
    assert api.app.extensions["robotcore"].watchers.taken == 0


def test_last_event_id_resumes_where_the_client_was(api: ApiClient) -> None:
    doc, tokens = api.create("nicodemus", seats=[{"type": "human"}, {"type": "human"}], seed=4)
    match_id = doc["match_id"]
    for _ in range(3):
        seat, view = acting(api, match_id, tokens)
        api.move(match_id, tokens[seat], {"id": view["legal_actions"][0]["id"]}, view["version"])
    resp = api.client.get(f"/v1/matches/{match_id}/stream", buffered=False, headers={"Last-Event-ID": "1"})
    [(_, first)] = events_of(iter(resp.response), 1)
    assert [e["version"] for e in first["events"]] == [2, 3]
    resp.close()
    # an EventSource reconnects to its URL, after= included: its Last-Event-ID, the later, is where it was
    resp = api.client.get(f"/v1/matches/{match_id}/stream?after=0", buffered=False, headers={"Last-Event-ID": "2"})
    [(_, first)] = events_of(iter(resp.response), 1)
    assert [e["version"] for e in first["events"]] == [3]
    resp.close()


def test_watchers_beyond_the_bound_are_refused_and_a_closed_stream_frees_its_slot(
        tmp_path: Path, openapi_schema: Any) -> None:
    api = make_api(database_url("sqlite", tmp_path), openapi_schema, max_watchers=2)
    doc, _ = api.create(GAMES[0], seed=1)
    path = f"/v1/matches/{doc['match_id']}/stream"
    held = [api.client.get(path, buffered=False) for _ in range(2)]
    refused = api.get(path)
    assert refused.status_code == 503 and refused.get_json()["code"] == "too-many-watchers"
    assert int(refused.headers["Retry-After"]) >= 1
    # a poll beyond the bound answers at once (the current view) instead of waiting
    start = time.monotonic()
    assert api.get(f"/v1/matches/{doc['match_id']}/events?after={doc['version']}&wait=20").status_code == 200
    assert time.monotonic() - start < 10
    held[0].close()
    again = api.client.get(path, buffered=False)
    assert again.status_code == 200
    for resp in [held[1], again]:
        resp.close()
    assert api.app.extensions["robotcore"].watchers.taken == 0


# -- bots on the pool ---------------------------------------------------------------------------------------------


def test_slow_bot_seats_think_on_the_pool_not_on_the_request(api: ApiClient, monkeypatch: Any) -> None:
    threads: list[str] = []
    think = service_module._think

    def recording(*args: Any) -> int:
        threads.append(threading.current_thread().name)
        return think(*args)

    monkeypatch.setattr(service_module, "_think", recording)
    seats = [{"type": "human"}, {"type": "bot", "bot": "montecarlo", "budget_ms": 60}]
    doc, tokens = api.create("nicodemus", seats=seats, seed=6)
    view = api.view(doc["match_id"], tokens[0])
    for _ in range(3):
        if view["status"] == "finished":
            break
        if not view["to_act"]:
            view = api.get(f"/v1/matches/{doc['match_id']}/events?after={view['version']}&wait=10",
                           token=tokens[0]).get_json()["match"]
            continue
        answer = api.move(doc["match_id"], tokens[0], {"id": view["legal_actions"][0]["id"]}, view["version"])
        assert answer.status_code == 200
        view = answer.get_json()["match"]
    proposal = api.post(f"/v1/matches/{doc['match_id']}/bot-move", json={"bot": "montecarlo", "budget_ms": 30},
                        token=tokens[0]) if view["to_act"] else None
    assert proposal is None or proposal.status_code == 200
    assert threads and all(name.startswith("robotcore-bot") for name in threads), threads
    assert threading.current_thread().name not in threads


def test_a_full_bot_pool_refuses_the_move_and_changes_nothing(tmp_path: Path, openapi_schema: Any) -> None:
    api = make_api(database_url("sqlite", tmp_path), openapi_schema, bot_think_slots=1, bot_queue=0)
    seats = [{"type": "human"}, {"type": "bot", "bot": "montecarlo", "budget_ms": 50}]
    doc, tokens = api.create("nicodemus", seats=seats, seed=8)
    match_id = doc["match_id"]
    view = api.view(match_id, tokens[0])
    while not view["to_act"]:
        view = api.get(f"/v1/matches/{match_id}/events?after={view['version']}&wait=10",
                       token=tokens[0]).get_json()["match"]
    pool = api.app.extensions["robotcore"].pool
    assert pool.reserve()                                   # every place taken (by another match's bot)
    try:
        for path, body in [("moves", {"action": {"id": view["legal_actions"][0]["id"]},
                                      "expected_version": view["version"]}),
                           ("bot-move", {"bot": "montecarlo", "budget_ms": 30})]:
            resp = api.post(f"/v1/matches/{match_id}/{path}", json=body, token=tokens[0])
            assert resp.status_code == 503 and resp.get_json()["code"] == "bots-busy", resp.get_json()
            assert resp.headers["Retry-After"] == "1"
        created = api.post("/v1/matches", json={"game": "nicodemus", "seats": [
            {"type": "bot", "bot": "montecarlo", "budget_ms": 50}, {"type": "human"}], "seed": 8})
        assert created.status_code in (201, 503)
    finally:
        pool.release()
    assert api.view(match_id, tokens[0]) == view            # nothing changed
    resp = api.post(f"/v1/matches/{match_id}/moves", json={"action": {"id": view["legal_actions"][0]["id"]},
                                                          "expected_version": view["version"]}, token=tokens[0])
    assert resp.status_code == 200


# -- under gunicorn's gevent worker -------------------------------------------------------------------------------

PARK_PROBE = """
from gevent import monkey
monkey.patch_all()
import socket, threading, gevent
from robotcore_api.live import park
event = threading.Event()
a, b = socket.socketpair()
gevent.spawn_later(0.2, b.close)                       # the client leaves
print(park(event, 30.0, a.fileno()))
c, d = socket.socketpair()
gevent.spawn_later(0.2, event.set)                     # news
print(park(event, 30.0, c.fileno()))
event.clear()
print(park(event, 0.2, c.fileno()))                    # nothing happens
print(park(event, 0.2, None))
"""


def test_a_parked_watcher_wakes_when_its_client_leaves_not_on_a_timer(tmp_path: Path) -> None:
    """Under gevent, ``live.park`` wakes a watcher when its client's socket closes (long before its timeout, so
    no watcher needs a timer to look at its client), when its event is set, or at its timeout; in a process of
    its own, so that this one is not monkey-patched."""
    import os
    import subprocess

    done = subprocess.run([sys.executable, "-c", PARK_PROBE], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["client", "news", "timeout", "timeout"]


def test_without_gevent_park_waits_for_the_event_alone() -> None:
    from robotcore_api.live import park

    event = threading.Event()
    a, b = socket.socketpair()
    b.close()
    assert park(event, 0.05, a.fileno()) == "timeout"     # threads: the caller looks at its client on a timer
    event.set()
    assert park(event, 5.0, a.fileno()) == "news"
    a.close()


if sys.platform != "win32":
    from .test_live import LiveServer

    @pytest.fixture(scope="module")
    def evented(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
        """One gevent worker that holds at most 300 watchers."""
        workdir = tmp_path_factory.mktemp("evented")
        srv = LiveServer(f"sqlite:///{workdir / 'watch.db'}", workdir, workers=1,
                         ROBOTCORE_MAX_WATCHERS="300").start()
        yield srv
        srv.stop()

    def open_stream(port: int, match_id: str, token: str | None = None) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", port), timeout=20)
        auth = f"Authorization: Bearer {token}\r\n" if token else ""
        sock.sendall(f"GET /v1/matches/{match_id}/stream HTTP/1.1\r\nHost: x\r\n{auth}\r\n".encode())
        return sock

    def read_until(sock: socket.socket, marker: bytes) -> bytes:
        data = b""
        while marker not in data:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
        return data

    def test_one_evented_worker_holds_hundreds_of_streams_and_still_answers(evented: LiveServer) -> None:
        """300 streams open on one worker (with gthread's 4 threads, 4 would take it all): a move still answers,
        every stream gets its event, the 301st is refused, and closed streams free their slots."""
        from robotcore_api.client import Client

        client = Client(evented.url)
        created = client.create_match("nicodemus", seats=[{"type": "human"}, {"type": "human"}], seed=1)
        match_id = created["match_id"]
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        streams = [open_stream(evented.port, match_id) for _ in range(300)]
        for sock in streams:
            assert b"200 OK" in read_until(sock, b"event: match")
        assert client.request("GET", "/v1/health")[0] == 200
        over = open_stream(evented.port, match_id)
        assert b"503" in read_until(over, b"}")
        over.close()
        latest = client.view(match_id)
        seat = latest["actors"][0]
        view = client.view(match_id, tokens[seat])
        client.move(match_id, tokens[seat], {"id": view["legal_actions"][0]["id"]}, view["version"])
        want = f"id: {view['version'] + 1}".encode()
        for sock in streams:
            assert want in read_until(sock, want)
        for sock in streams[:150]:
            sock.close()                                   # watchers go away without a word
        time.sleep(2.5)                                    # their slots are free within a watch tick or two
        more = [open_stream(evented.port, match_id) for _ in range(150)]
        for sock in more:
            assert b"200 OK" in read_until(sock, b"event: match")
        for sock in streams[150:] + more:
            sock.close()
        client.close()

    @pytest.fixture(params=DATABASES)
    def two_workers(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[LiveServer]:
        from .test_live import live_database_url

        srv = LiveServer(live_database_url(request.param, tmp_path), tmp_path, workers=2).start()
        yield srv
        srv.stop()

    def test_streams_on_every_worker_see_a_move_made_on_any(two_workers: LiveServer) -> None:
        """Two gevent workers: streams held by both (the kernel hands connections to either) all get each move,
        whichever worker committed it, through the database (LISTEN/NOTIFY on PostgreSQL, data_version on
        SQLite), never through process memory."""
        from robotcore_api.client import Client

        client = Client(two_workers.url)
        created = client.create_match("nicodemus", seats=[{"type": "human"}, {"type": "human"}], seed=2)
        match_id = created["match_id"]
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        streams = [open_stream(two_workers.port, match_id) for _ in range(12)]
        for sock in streams:
            assert b"200 OK" in read_until(sock, b"event: match")
        for _ in range(3):
            movers = [Client(two_workers.url) for _ in range(2)]      # new connections: either worker
            seat = client.view(match_id)["actors"][0]
            view = movers[0].view(match_id, tokens[seat])
            movers[1].move(match_id, tokens[seat], {"id": view["legal_actions"][0]["id"]}, view["version"])
            want = f"id: {view['version'] + 1}".encode()
            for sock in streams:
                assert want in read_until(sock, want)
            for c in movers:
                c.close()
        for sock in streams:
            sock.close()
        client.close()

    def read_chunked_stream(sock: socket.socket, timeout: float = 60) -> tuple[bytes, list[bytes], bool]:
        """An event stream's HTTP/1.1 response read to its end, its chunk framing checked strictly: (the head,
        the chunks' data, whether the terminating chunk came)."""
        sock.settimeout(timeout)
        raw = b""
        while b"\r\n\r\n" not in raw:
            raw += sock.recv(65536)
        head, raw = raw.split(b"\r\n\r\n", 1)
        assert b"transfer-encoding: chunked" in head.lower()
        chunks: list[bytes] = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            while b"\r\n" in raw:
                size_line, rest = raw.split(b"\r\n", 1)
                size = int(size_line, 16)                      # anything else than a chunk size fails here
                if len(rest) < size + 2:
                    break
                assert rest[size:size + 2] == b"\r\n", "a chunk not followed by CRLF"
                if size == 0:
                    return head, chunks, True
                chunks.append(rest[:size])
                raw = rest[size + 2:]
            data = sock.recv(65536)
            if not data:
                break
            raw += data
        return head, chunks, False

    @pytest.mark.parametrize("as_seat", [False, True], ids=["spectators", "seats"])
    def test_streams_written_by_the_feed_stay_well_framed_and_complete(two_workers: LiveServer,
                                                                        as_seat: bool) -> None:
        """Streams on two gevent workers, whose events the change feed writes to their sockets itself
        (live.Direct: a spectator's at its match's tick, a seat's as the commit is heard, by this worker's
        commit or by the other's notification) between gunicorn's own writes (the headers, the first event,
        the final event and the end): every response is well-formed HTTP/1.1 chunks to the terminating one,
        every event one whole server-sent event as the stream's seat sees the match, every action once and in
        order, then the end."""
        from robotcore_api.client import Client

        client = Client(two_workers.url)
        created = client.create_match("nicodemus", seats=[{"type": "human"}, {"type": "bot", "bot": "random"}],
                                      seed=5)
        match_id, token = created["match_id"], created["seats"][0]["token"]
        first = client.view(match_id)["version"]
        streams = [open_stream(two_workers.port, match_id, token if as_seat else None) for _ in range(6)]
        results: list[Any] = [None] * len(streams)

        def read(i: int) -> None:
            results[i] = read_chunked_stream(streams[i])

        readers = [threading.Thread(target=read, args=(i,), daemon=True) for i in range(len(streams))]
        for t in readers:
            t.start()
        time.sleep(1.0)                                        # every stream open and parked
        moves = 0
        while True:
            view = client.view(match_id, token)
            if view["status"] == "finished":
                break
            if view["to_act"]:
                client.move(match_id, token, {"id": view["legal_actions"][0]["id"]}, view["version"])
                moves += 1
                if moves <= 12:
                    time.sleep(0.3)                            # past the tick: events written by the tick
            else:
                client.events(match_id, view["version"], 5, token=token)
        final = client.view(match_id)["version"]
        for t in readers:
            t.join(60)
        for sock in streams:
            sock.close()
        client.close()
        for head, chunks, terminated in results:
            assert b"200 OK" in head and terminated
            text = b"".join(chunks)
            blocks = [b for b in text.split(b"\n\n") if b]
            events = []
            for block in blocks:
                fields = dict(line.split(b": ", 1) for line in block.split(b"\n") if b": " in line)
                if fields.get(b"event") == b"match":
                    data = json.loads(fields[b"data"])
                    assert int(fields[b"id"]) == data["version"]
                    events.append(data)
            assert blocks[-1] == b"event: end\ndata: {}"
            seen = [e["version"] for d in events for e in d["events"]]
            assert events[0]["version"] == first and events[0]["events"] == []     # at once, before any move
            assert seen == list(range(first + 1, final + 1))                      # every action once, in order
            assert events[-1]["version"] == final and len(events) > 2
            assert all(d["match"]["seat"] == (0 if as_seat else None) for d in events)

    def test_slow_bots_think_on_gevents_thread_pool(evented: LiveServer) -> None:
        """Under the gevent worker the bot pool is gevent's pool of native threads: a bot seat with a budget
        and a bot-move both play there."""
        from robotcore_api.client import Client

        client = Client(evented.url)
        created = client.create_match("nicodemus", seats=[
            {"type": "human"}, {"type": "bot", "bot": "montecarlo", "budget_ms": 300}], seed=3)
        match_id, token = created["match_id"], created["seats"][0]["token"]
        played = 0
        deadline = time.monotonic() + 60
        while played < 3 and time.monotonic() < deadline:
            view = client.view(match_id, token)
            if view["status"] == "finished":
                break
            if not view["to_act"]:
                client.events(match_id, view["version"], 5, token=token)
                continue
            if played == 1:
                answer = client.bot_move(match_id, token, bot="montecarlo", budget_ms=300, play=True)
                assert answer["played"]
            else:
                answer = client.move(match_id, token, {"id": view["legal_actions"][0]["id"]}, view["version"])
                assert answer["match"]["version"] > view["version"]
            played += 1
        assert played == 3
        log = client.log(match_id, token)
        assert any(e["by"] == "bot" for e in log["entries"])
        client.close()


@pytest.mark.parametrize("game", GAMES)
def test_a_watchers_snapshot_advanced_by_the_new_rows_is_the_stored_match(
        game: str, tmp_path: Path, openapi_schema: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The watchers' shared snapshot of a match (``_latest``) follows another process's commits by applying
    the new action rows to the state it holds: at every version it is exactly what the database holds (state
    bytes, version, finished, bots due), and a spectator's event built on it shows what one built on a fresh
    read shows."""
    player, watcher = two_apps("sqlite", tmp_path, openapi_schema)
    svc = watcher.app.extensions["robotcore"]
    entry = player.get(f"/v1/games/{game}").get_json()
    doc, tokens = player.create(game, seats=[{"type": "human"}] * entry["num_players"])
    match_id = doc["match_id"]
    sub = svc.feed.subscribe(match_id, 0)                  # a watcher here: the snapshot is kept
    try:
        svc._latest(match_id, 0)
        real_load, loads = svc.load, []
        monkeypatch.setattr(svc, "load", lambda *a, **k: loads.append(a) or real_load(*a, **k))
        rng = __import__("random").Random(7)
        advanced = 0
        for _ in range(60):
            if random_move(player, match_id, tokens, rng) is None:   # (a random deal may end before 60 moves)
                break
            stored = svc.store.get_match(match_id)
            held = svc._snapshots[match_id]
            rec, state = svc._latest(match_id, stored.version)
            advanced += svc._snapshots[match_id] is not held
            assert (rec.version, rec.state, rec.finished, rec.bots_due) == (
                stored.version, stored.state, stored.finished, stored.bots_due)
            assert state.to_bytes() == stored.state
            fresh_rec, fresh_state = real_load(match_id)
            assert svc._stream_event(rec, state, None, 0) == (
                b"id: %d\nevent: match\ndata: %s\n\n" % (fresh_rec.version, service_module.payloads.encode(
                    service_module.payloads.events(fresh_rec, fresh_state, svc.store.actions(match_id), None))))
        assert advanced > 0 and loads == []               # every version followed without reading the match
    finally:
        svc.feed.unsubscribe(sub)
        for api in (player, watcher):
            api.app.extensions["robotcore"].store.dispose()


@pytest.mark.parametrize("game", GAMES)
def test_a_watched_match_s_own_commits_need_no_read_of_their_rows(
        game: str, api: ApiClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A process that commits a move of a match it watches holds the rows it wrote for its watchers (as it
    holds a notification's): the seat's stream, woken at once, builds its event without reading the rows
    back, and that event is the one a fresh read of the match and its log gives."""
    svc = api.app.extensions["robotcore"]
    entry = api.get(f"/v1/games/{game}").get_json()
    doc, tokens = api.create(game, seats=[{"type": "human"}] * entry["num_players"])
    match_id = doc["match_id"]
    sub = svc.feed.subscribe(match_id, doc["version"])        # a watcher here
    real_actions, reads = svc.store.actions, []
    monkeypatch.setattr(svc.store, "actions", lambda *a: reads.append(a) or real_actions(*a))
    try:
        rng = __import__("random").Random(3)
        for _ in range(12):
            moved = random_move(api, match_id, tokens, rng)
            if moved is None:
                break
            seat, view = moved
            rec, state = svc._latest(match_id, view["version"] + 1)
            event = svc._stream_event(rec, state, seat, view["version"])
            assert reads == []
            fresh_rec, fresh_state = svc.load(match_id)
            rows = [r for r in real_actions(match_id) if r.version > view["version"]]
            assert event == b"id: %d\nevent: match\ndata: %s\n\n" % (fresh_rec.version, service_module.payloads.encode(
                service_module.payloads.events(fresh_rec, fresh_state, rows, seat)))
    finally:
        svc.feed.unsubscribe(sub)
