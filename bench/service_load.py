"""Load test of the REST service: N concurrent bot clients play M full matches against gunicorn on loopback.

    python bench/service_load.py                      # 32 clients, 192 matches of the first game, SQLite file
    python bench/service_load.py --clients 8 --matches 16 --game robotrick --workers 2 --threads 8
    python bench/service_load.py --database postgresql+psycopg://user@127.0.0.1/db

It starts gunicorn with the service's own configuration (``robotcore_api.gunicorn_conf``; workers and
threads from the command line) on a fresh database, then measures, in the same run and against the same
server:

1. the floor: every client calls the bare Flask hello-world app of ``bench/flask_hello.py`` (``GET /``), on
   the same gunicorn configuration, back to back for ``--seconds``, then the service's ``GET /v1/health`` (no
   body, no database); with ``--floor-shapes`` also the hello-world's ``POST /echo``, shaped as a move (a JSON
   body and a bearer token in, an answer of a move's length out), to tell what a move's shape costs gunicorn
   and Flask from what the service does;
2. the moves: every client plays full matches, one human seat against the server's random bots, each move
   one ``POST /v1/matches/{id}/moves`` whose answer carries the next decision (the bot seats' moves are played
   and committed inside that request). At the end of each match the client reads the log and counts every
   acknowledged move that is missing (lost moves).

It prints requests per second, p50/p99 latency and error counts for both, the ratio of the move endpoint's
throughput to the floor's, and the lost-move count.

With ``--watchers N`` every round also plays its matches a second time while N watchers watch (one asyncio
process holding N connections: event streams ``GET /v1/matches/{id}/stream`` as the page, or with ``--watch
poll`` long-polls ``GET /v1/matches/{id}/events?wait=20`` pausing a second when one answers at once with
nothing new, as the page does), and prints the moves' throughput and p99 latency with watchers against
without, with the watchers' own requests, errors and the most connections held open at once. By default
(``--watch-matches live``) the streams watch the matches played in that phase: they are created first (and so
are the unwatched phase's, to keep creation out of both timed phases), the N streams spread over them (the
first of each match as its human seat, the others as spectators), and played once every stream has its first
event; each watcher counts its events and must receive them in order (each id above the last; a seat's events
carrying exactly the versions after the last one) and its match's final version and ``end`` event, else it
counts as a lost update and the run fails. Over several rounds the two match phases alternate their order (the
watched one first in odd rounds), and each round's p99 ratio is printed beside the pooled one. The watchers'
client is lean, since it shares the server's cores (its CPU is printed): an asyncio ``Protocol`` per stream
parsing the bytes as they arrive, on uvloop's event loop when it is installed (``--watch-loop asyncio``: the
standard one). ``--watch-matches idle``: 50 matches that never move (holding the
streams, not fanning moves out).

    python bench/service_load.py --clients 32 --matches 64 --watchers 1000 --rounds 1 --seconds 4 --game robotrick Clients run in several processes (threads inside each),
so the client side is not held back by one interpreter lock; they share the machine with the server, as the
numbers say. The clients are the example client (``robotcore_api.client``: http.client) with orjson for the
bodies (``--client-json stdlib``: the standard library's json, as before), sending only the headers the API
reads (``--client-headers full``: the example client's, as before); they check every answer (status, body) and
play legal moves, like any bot. Nothing leaves the loopback interface; every loop is bounded in count and time.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import math
import multiprocessing as mp
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import robotcore_api
from robotcore_api.client import ApiError, Client
from robotcore_api.live import default_workers


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


#: gunicorn configuration of ``--profile``: the service's, with every worker under cProfile (CPU time)
PROFILE_CONF = """\
from robotcore_api.gunicorn_conf import *  # noqa: F403
import cProfile, time
def post_worker_init(worker):
    worker.profile = cProfile.Profile(time.process_time)
    worker.profile.enable()
def worker_exit(server, worker):
    worker.profile.disable()
    worker.profile.dump_stats(f"{DIR}/worker-{worker.pid}.prof")
"""

#: The service's own files, wherever the package is installed from (an editable install maps it to ``api/``).
_API = os.path.dirname(robotcore_api.__file__) + os.sep

#: Where a function's CPU time is counted in ``--profile``'s breakdown: the first prefix of its file that matches.
PARTS = [
    ("gunicorn + gevent (HTTP parsing, sockets, event loop)", ("gunicorn/", "gevent/", "greenlet", "socket",
                                                              _API + "gunicorn_")),
    ("Flask + werkzeug (request and response objects, routing, hooks)", ("flask/", "werkzeug/", "flask_smorest/",
                                                                           "webargs/", "marshmallow/")),
    ("store (SQL statements, SQLite, compare-and-set)", (_API + "store.py", "sqlite3", "sqlalchemy/",
                                                         "psycopg")),
    ("answer (payloads: view, legal actions; JSON encoding)", (_API + "payloads.py", "orjson")),
    ("engine and bots (robotcore: apply, legal actions, views, bot choices)", ("robotcore/",)),
    ("service, routes, auth (robotcore_api)", (_API,)),
]


def part_of(key: tuple[str, int, str]) -> str | None:
    """The part of ``PARTS`` a profiled function (cProfile's key: file, line, name) belongs to; None for a
    built-in function that none names (it counts for its callers)."""
    filename, _line, name = key
    where = filename if filename != "~" else name
    found = next((label for label, keys in PARTS if any(k in where for k in keys)), None)
    return found if found is not None or filename != "~" else None


def profile_breakdown(paths: list[Path]) -> dict[str, float]:
    """The workers' CPU time (cProfile with process_time) by part of the stack, in seconds. A built-in
    function (len, isinstance, dict.get...) counts for the parts of its callers, in proportion."""
    import pstats

    stats = pstats.Stats(*[str(p) for p in paths]).stats  # type: ignore[attr-defined]
    totals: dict[str, float] = {}
    for key, (_cc, _nc, tottime, _ct, callers) in stats.items():
        part = part_of(key)
        if part is not None:
            totals[part] = totals.get(part, 0.0) + tottime
            continue
        for caller, entry in callers.items():                 # a built-in: its callers' parts
            owner = part_of(caller) or "other (Python itself)"
            totals[owner] = totals.get(owner, 0.0) + entry[2]
    return totals


def start_server(database_url: str, workers: int, threads: int, workdir: Path, worker_class: str,
                 hello: bool = False, profile: bool = False) -> tuple[subprocess.Popen[bytes], str]:
    """gunicorn with the service's configuration, serving the service (or, ``hello``, the bare Flask
    hello-world app of ``bench/flask_hello.py`` on that same configuration)."""
    port = free_port()
    env = dict(os.environ, ROBOTCORE_DATABASE_URL=database_url, ROBOTCORE_BIND=f"127.0.0.1:{port}",
               WEB_CONCURRENCY=str(workers), ROBOTCORE_THREADS=str(threads), ROBOTCORE_LOG_LEVEL="warning",
               ROBOTCORE_WORKER_CLASS=worker_class)
    command = [sys.executable, "-m", "gunicorn", "-c", "python:robotcore_api.gunicorn_conf"]
    if profile:
        conf = workdir / "profile_conf.py"
        conf.write_text(PROFILE_CONF.replace("{DIR}", str(workdir)))
        command[-1] = str(conf)
    if hello:
        env["PYTHONPATH"] = os.pathsep.join([str(Path(__file__).resolve().parent), env.get("PYTHONPATH", "")])
        command.append("flask_hello:app")
    log = open(workdir / ("hello.log" if hello else "gunicorn.log"), "ab")
    proc = subprocess.Popen(command, cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            Client(url, retries=0, timeout=2).request("GET", "/" if hello else "/v1/health")
            return proc, url
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError((workdir / "gunicorn.log").read_text()) from None
            time.sleep(0.1)
    raise RuntimeError("gunicorn did not start")


def server_cpu_seconds(proc: subprocess.Popen[bytes]) -> float | None:
    """CPU time (user + system) used so far by the server's processes (master and workers; Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    total = 0
    try:
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == proc.pid:          # process group of the server
                total += int(fields[11]) + int(fields[12])
    except OSError:
        return None
    return total / tick


def database_pids(database_url: str) -> list[int] | None:
    """The processes of a PostgreSQL server on this machine serving ``database_url`` (its postmaster, found by
    the port on its command line, and the postmaster's children: backends, walwriter...), so that the database's
    own CPU per move is measured too; None when it is not a local PostgreSQL (SQLite runs in the workers)."""
    if not database_url.startswith("postgresql"):
        return None
    import sqlalchemy as sa

    url = sa.engine.make_url(database_url)
    if url.host not in (None, "127.0.0.1", "localhost", "::1"):
        return None
    port = str(url.port or 5432)
    parents: dict[int, int] = {}
    master = None
    try:
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
                if "(postgres)" not in stat:
                    continue
                parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
                args = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if any(a == b"-p" and i + 1 < len(args) and args[i + 1].decode() == port for i, a in enumerate(args)):
                master = int(entry)
    except OSError:
        return None
    if master is None:
        return None
    return [master] + [pid for pid, ppid in parents.items() if ppid == master]


def pids_cpu_seconds(database_url: str) -> float | None:
    """CPU time (user + system) used so far by a local PostgreSQL server's processes (``database_pids``,
    listed again at each call: a backend lives as long as its connection). None: not one."""
    pids = database_pids(database_url)
    if pids is None:
        return None
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / tick


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(5)


# -- client side (runs in worker processes) -----------------------------------------------------------------------


def client_loads() -> Any:
    """The load clients' JSON decoder (``--client-json``): orjson's, or the standard library's. The watchers'
    process decodes every seat event with it too (with the standard library's, that was a sixth of its CPU)."""
    if os.environ.get("ROBOTCORE_BENCH_CLIENT_JSON", "orjson") == "stdlib":
        return json.loads
    import orjson

    return orjson.loads


def load_client(url: str) -> Client:
    """A load client: the example client, decoding every answer and encoding every body with orjson (the load
    generator's own JSON work, several times the standard library's speed on a move's 2-5 KB answer and a
    log's 20 KB, shares the cores with the server), or with the standard library when
    ``ROBOTCORE_BENCH_CLIENT_JSON=stdlib`` (``--client-json stdlib``: the client of earlier runs). It sends
    only the headers the API reads (``Client(lean=True)``: ``Host``, and ``Authorization``, ``Content-Type``,
    ``Content-Length`` when the request has them; a move without an ``Idempotency-Key``, safe with
    ``retries=0`` and ``expected_version``), the floor's clients and the moves' alike, unless
    ``ROBOTCORE_BENCH_CLIENT_HEADERS=full`` (``--client-headers full``: the example client's ``Accept``,
    ``Accept-Encoding`` and an ``Idempotency-Key`` on every move, as in the runs before 2026-12-02 06:00 UTC)."""
    lean = os.environ.get("ROBOTCORE_BENCH_CLIENT_HEADERS", "lean") != "full"
    if os.environ.get("ROBOTCORE_BENCH_CLIENT_JSON", "orjson") == "stdlib":
        return Client(url, retries=0, lean=lean)
    import orjson

    return Client(url, retries=0, dumps=orjson.dumps, loads=orjson.loads, lean=lean)


#: ``--floor-shapes``' request to the hello-world app: a move's body, token and size of answer (``/echo``)
MOVE_SHAPED = "POST /echo"


def floor_client(url: str, stop_at: float, start_at: float, path: str) -> dict[str, Any]:
    """Requests back to back: ``GET path``, or with ``path`` ``MOVE_SHAPED`` a POST shaped as a move (its JSON
    body, a bearer token) to the hello-world app, whose answer is as long as a move's."""
    client = load_client(url)
    method, body, token = "GET", None, None
    if path == MOVE_SHAPED:
        method, path = path.split()
        body, token = {"action": {"id": 27}, "expected_version": 9}, "t" * 22
    latencies: list[float] = []
    errors = 0
    while time.time() < start_at:
        time.sleep(0.001)
    late = time.time() - start_at
    for _ in range(10_000_000):
        if time.time() >= stop_at:
            break
        t0 = time.perf_counter()
        try:
            client.request(method, path, body, token=token)
            latencies.append(time.perf_counter() - t0)
        except (OSError, ApiError):
            errors += 1
            client.close()
    client.close()
    return {"latencies": latencies, "errors": errors, "late": late}


def _seats(client: Client, game: str) -> list[dict[str, Any]]:
    entry = client.request("GET", f"/v1/games/{game}")[1]
    return [{"type": "human"}] + [{"type": "bot", "bot": "random"}] * (entry["num_players"] - 1)


def prepare_client(url: str, game: str, matches: int) -> list[dict[str, Any]]:
    """Creates ``matches`` matches (one human seat, the others random bots) to be played later: their ids,
    the human seat's token and the first view (``match_client``'s ``prepared``)."""
    client = load_client(url)
    seats = _seats(client, game)
    out = []
    for _ in range(matches):
        created = client.create_match(game, seats=seats)
        out.append({"match_id": created["match_id"], "token": created["seats"][0]["token"],
                    "match": created["match"]})
    client.close()
    return out


def match_client(url: str, game: str, matches: int, seed: int, start_at: float, max_seconds: float,
                 prepared: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Plays ``matches`` full matches (created here, or the ``prepared`` ones of ``prepare_client``); returns
    the move latencies, errors, lost moves and each finished match's final version (``finals``)."""
    client = load_client(url)
    rng = random.Random(seed)
    latencies: list[float] = []
    errors = lost = actions = finished = 0
    error_codes: dict[str, int] = {}
    finals: dict[str, int] = {}
    while time.time() < start_at:
        time.sleep(0.001)
    deadline = time.time() + max_seconds
    seats = _seats(client, game) if prepared is None else []
    for i in range(matches):
        if time.time() >= deadline:
            break
        try:
            created = client.create_match(game, seats=seats) if prepared is None else {
                "match_id": prepared[i]["match_id"], "seats": [{"token": prepared[i]["token"]}],
                "match": prepared[i]["match"]}
        except (OSError, ApiError) as exc:
            errors += 1
            error_codes[getattr(exc, "code", type(exc).__name__)] = error_codes.get(
                getattr(exc, "code", type(exc).__name__), 0) + 1
            client.close()
            continue
        match_id = created["match_id"]
        token = created["seats"][0]["token"]
        view = created["match"]
        if view["status"] != "finished" and not view["to_act"]:
            view = client.view(match_id, token)
        acknowledged: list[tuple[int, int]] = []
        for _ in range(100_000):
            if view["status"] == "finished" or time.time() >= deadline:
                break
            choice = rng.choice(view["legal_actions"])
            t0 = time.perf_counter()
            try:
                answer = client.move(match_id, token, {"id": choice["id"]}, view["version"])
            except (OSError, ApiError) as exc:
                errors += 1
                key = getattr(exc, "code", type(exc).__name__)
                error_codes[key] = error_codes.get(key, 0) + 1
                client.close()
                view = client.view(match_id, token)
                continue
            latencies.append(time.perf_counter() - t0)
            acknowledged.append((answer["accepted"]["version"], answer["accepted"]["action"]["id"]))
            view = answer["match"]
        log = client.log(match_id, token)
        mine = {(e["version"], e["action"]["id"]) for e in log["entries"] if e["seat"] == 0 and e["action"]}
        lost += sum(1 for ack in acknowledged if ack not in mine)
        actions += len(log["entries"])
        finished += log["status"] == "finished"
        if log["status"] == "finished":
            finals[match_id] = max((e["version"] for e in log["entries"]), default=0)
    client.close()
    return {"latencies": latencies, "errors": errors, "error_codes": error_codes, "lost": lost,
            "actions": actions, "finished": finished, "finals": finals}


class _SSEProtocol(asyncio.Protocol):
    """One event stream's connection, parsed as bytes arrive (an asyncio ``Protocol``: no reader task, no
    ``StreamReader`` buffer copies, one callback per segment the socket hands over): the response head, the
    HTTP/1.1 chunk framing (when chunked), the server-sent events. Each ``match`` event's id (the match version)
    must be above the last one received (the first event after a reconnect may repeat the ``Last-Event-ID``
    given); a seat watcher's events (``check_rows``) must also carry every version in order, each event's
    action entries exactly the versions after the last one received up to its id. A violation counts in
    ``out["out_of_order"]`` and marks the watcher (``mine["order_ok"]`` False). ``done`` (a future) is set when
    the connection is closed, by either side, or the ``end`` event came."""

    def __init__(self, request: bytes, out: dict[str, Any], mine: dict[str, Any], check_rows: bool,
                 done: Any) -> None:
        self.request, self.out, self.mine, self.check_rows, self.done = request, out, mine, check_rows, done
        self.transport: Any = None
        self.head: bytes | None = None
        self.chunked = False
        self.raw = b""                 # bytes not yet parsed: the head, or chunk framing
        self.sse = b""                 # event text not yet complete
        self.left = 0                  # bytes of the current chunk's data still to come (chunked)
        self.skip = 0                  # bytes of framing (the CRLF after a chunk's data) still to drop
        self.first = True              # the next match event is the first on this connection
        self.loads = client_loads()    # (a seat's events are decoded: their versions are checked)

    # -- asyncio.Protocol --------------------------------------------------------------------------------------

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        if self.head is None:
            self.raw += data
            end = self.raw.find(b"\r\n\r\n")
            if end < 0:
                return
            head, data, self.raw = self.raw[:end], self.raw[end + 4:], b""
            self.head = head
            try:
                status = int(head.split(b" ", 2)[1])
            except (IndexError, ValueError):
                status = 0
            if status != 200:
                self.out["errors"] += 1
                self.transport.close()
                return
            self.out["polls"] += 1                          # streams opened
            self.chunked = b"transfer-encoding: chunked" in head.lower()
        try:
            self._events(self._unchunk(data) if self.chunked else data)
        except (ValueError, KeyError, TypeError):         # bad framing, id or event: the stream is not ours
            self.out["errors"] += 1
            self.transport.close()

    def itself(self) -> _SSEProtocol:
        """The protocol factory of ``create_connection``: this one."""
        return self

    def no_head(self) -> None:
        """No answer in time: given up (as the reader's ``wait_for`` did)."""
        if self.head is None and self.transport is not None:
            self.transport.abort()

    def eof_received(self) -> bool:
        return False

    def connection_lost(self, exc: BaseException | None) -> None:
        if not self.done.done():
            self.done.set_result(None)

    # -- parsing -----------------------------------------------------------------------------------------------

    def _unchunk(self, data: bytes) -> bytes:
        """The chunk data in ``data`` (with what came before), the framing dropped."""
        if not (self.raw or self.left or self.skip):     # the usual segment: one whole chunk, one event
            line_end = data.find(b"\r\n", 0, 16)
            if line_end > 0 and data.endswith(b"\r\n") and b";" not in data[:line_end]:
                length = int(data[:line_end], 16)
                if length > 0 and line_end + 4 + length == len(data):
                    return data[line_end + 2:-2]
        out = []
        pos = 0
        if self.raw:
            data, self.raw = self.raw + data, b""
        size = len(data)
        while pos < size:
            if self.skip:
                take = min(self.skip, size - pos)
                self.skip -= take
                pos += take
                continue
            if self.left:
                take = min(self.left, size - pos)
                out.append(data[pos:pos + take])
                self.left -= take
                pos += take
                if not self.left:
                    self.skip = 2                          # the CRLF after a chunk's data
                continue
            line_end = data.find(b"\r\n", pos)
            if line_end < 0:
                self.raw = data[pos:]
                break
            length = int(data[pos:line_end].split(b";", 1)[0], 16)
            pos = line_end + 2
            if length == 0:                                # the last chunk: the server ended the stream
                self.transport.close()
                break
            self.left = length
        return out[0] if len(out) == 1 else b"".join(out)

    def _events(self, text: bytes) -> None:
        if self.sse:
            text, self.sse = self.sse + text, b""
        pos = 0
        while True:
            end = text.find(b"\n\n", pos)
            if end < 0:
                self.sse = text[pos:]
                return
            block = text[pos:end]
            pos = end + 2
            if block.startswith(b"id: "):                  # the server's form: id, event, data lines
                nl = block.find(b"\n")
                version = int(block[4:nl])
                kind_end = block.find(b"\n", nl + 1)
                if block[nl + 1:kind_end if kind_end >= 0 else len(block)] == b"event: match":
                    self._match(version, block[kind_end + 7:] if kind_end >= 0 and block.startswith(
                        b"data: ", kind_end + 1) else b"")
                    continue
            elif block.startswith((b":", b"retry:")):     # a comment (keep-alive), the reconnection delay
                continue
            fields = _sse_fields(block)
            kind = fields.get(b"event")
            if kind == b"match":
                self._match(int(fields[b"id"]), fields.get(b"data", b""))
            elif kind == b"end":
                self.mine["ended"] = True
                self.transport.close()
                return

    def _match(self, version: int, data: bytes) -> None:
        mine, out = self.mine, self.out
        last = mine["last"]
        first, self.first = self.first, False
        ok = last is None or version > last or (first and version == last)
        if ok and self.check_rows and last is not None and version > last:
            entries = self.loads(data)["events"]
            ok = [e["version"] for e in entries] == list(range(last + 1, version + 1))
        if not ok:
            out["out_of_order"] += 1
            mine["order_ok"] = False
        out["events"] += 1
        mine["events"] += 1
        mine["last"] = version if last is None else max(last, version)


def _sse_fields(block: bytes) -> dict[bytes, bytes]:
    """The fields of one server-sent event (its lines ``name: value``; comments left out)."""
    fields: dict[bytes, bytes] = {}
    for line in block.split(b"\n"):
        if line and not line.startswith(b":"):
            name, _, value = line.partition(b":")
            fields[name] = value[1:] if value.startswith(b" ") else value
    return fields


async def _stream(url: str, match_id: str, out: dict[str, Any], token: str | None = None,
                  mine: dict[str, Any] | None = None) -> None:
    """One watcher: holds an event stream of its match open (as the page's EventSource does: as ``token``'s
    seat, or as a spectator), reading its events (``_SSEProtocol``), until cancelled or the match's ``end``
    event; reconnects (after half a second, with ``Last-Event-ID``) when the server closes it. ``mine`` gets its
    own counts: events received, the last event's id (the match version), whether the ``end`` event came and
    whether every event came in order (``order_ok``)."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    mine = mine if mine is not None else {}
    mine.update(events=0, last=None, ended=False, order_ok=True)
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    loop = asyncio.get_running_loop()
    transport = None
    try:
        while not mine["ended"]:
            done = loop.create_future()
            resume = f"Last-Event-ID: {mine['last']}\r\n" if mine["last"] is not None else ""
            request = (f"GET /v1/matches/{match_id}/stream HTTP/1.1\r\nHost: {parts.netloc}\r\n"
                       f"Accept: text/event-stream\r\n{auth}{resume}\r\n").encode()
            proto = _SSEProtocol(request, out, mine, token is not None, done)
            try:
                transport, _ = await loop.create_connection(proto.itself, host, port)
                out["open"] += 1
                out["max_open"] = max(out["max_open"], out["open"])
                # no head within 40 s: given up (as the reader's wait_for did)
                timer = loop.call_later(40, proto.no_head)
                try:
                    await done
                finally:
                    timer.cancel()
                if proto.head is None:
                    out["errors"] += 1
            except OSError:
                out["errors"] += 1
            if transport is not None:
                transport.close()
                out["open"] -= 1
                transport = None
            if not mine["ended"]:
                await asyncio.sleep(0.5)
    finally:
        if transport is not None:
            transport.close()


async def _watch(url: str, match_id: str, out: dict[str, int]) -> None:
    """One watcher: long-polls its match on one keep-alive connection until cancelled."""
    import asyncio
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    loads = client_loads()
    reader = writer = None
    after = 0
    try:
        while True:
            try:
                if writer is None:
                    reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
                    out["open"] += 1
                    out["max_open"] = max(out["max_open"], out["open"])
                assert reader is not None
                asked = time.time()
                writer.write(f"GET /v1/matches/{match_id}/events?after={after}&wait=20 HTTP/1.1\r\n"
                             f"Host: {parts.netloc}\r\n\r\n".encode())
                await writer.drain()
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 40)
                status = int(head.split(b" ", 2)[1])
                length = next(int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                              if line.lower().startswith(b"content-length:"))
                body = loads(await asyncio.wait_for(reader.readexactly(length), 40))
                if status != 200:
                    out["errors"] += 1
                    await asyncio.sleep(1)
                else:
                    out["polls"] += 1
                    after = body["version"]
                    if not body["events"] and time.time() - asked < 1:
                        out["answered_at_once"] += 1
                        await asyncio.sleep(1)              # as the page does
                if b"connection: close" in head.lower():
                    writer.close()
                    out["open"] -= 1
                    reader = writer = None
            except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError, StopIteration):
                out["errors"] += 1
                if writer is not None:
                    writer.close()
                    out["open"] -= 1
                reader = writer = None
                await asyncio.sleep(0.5)
    finally:
        if writer is not None:
            writer.close()


def watchers_process(url: str, match_ids: list[Any], n: int, stop: Any, results: Any, mode: str = "stream",
                     ready: Any = None, grace: float = 0.0, loop: str = "uvloop") -> None:
    """N watchers in one asyncio loop (a process of their own) until ``stop`` is set; their counts go on
    ``results``. ``mode``: "stream" (server-sent events, as the page) or "poll" (the long-poll). ``ready`` (an
    event) is set once every watcher is held open: each stream has its first event, or each poll its
    connection (a poll is parked by the server as soon as it is read). ``match_ids``: ids, or (id, token)
    pairs (a stream watching as that token's seat), watcher i on entry i mod their count. Streams end at
    their match's end event; after ``stop`` they have ``grace`` seconds more to receive it. Each stream's own
    counts go on ``results`` as ``per_watcher``: (match id, seat watcher?, events, last version, ended, every
    event in order). ``loop``: "uvloop" (its event loop, when installed: the watchers' client costs the shared
    cores less) or "asyncio" (the standard library's); the one used goes on ``results`` as ``loop``."""
    import asyncio
    import resource

    if loop == "uvloop":
        try:
            import uvloop
        except ImportError:                             # (robotcore[bench] installs it)
            loop = "asyncio"
        else:
            asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())

    gc.disable()            # as the move clients (``_uncollected``): the process lives for one phase
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < n + 64:                                  # one socket per watcher
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, n + 256), hard))
    out: dict[str, Any] = {"polls": 0, "errors": 0, "answered_at_once": 0, "open": 0, "max_open": 0, "events": 0,
                           "out_of_order": 0, "loop": loop}
    targets = [m if isinstance(m, (tuple, list)) else (m, None) for m in match_ids]
    mine: list[dict[str, Any]] = [{"events": 0} for _ in range(n)]

    async def run() -> None:
        if mode == "stream":
            tasks = [asyncio.create_task(_stream(url, targets[i % len(targets)][0], out,
                                                 targets[i % len(targets)][1], mine[i])) for i in range(n)]
        else:
            tasks = [asyncio.create_task(_watch(url, targets[i % len(targets)][0], out)) for i in range(n)]
        started = time.time()
        begun = resource.getrusage(resource.RUSAGE_SELF)
        out["cpu_start_s"] = begun.ru_utime + begun.ru_stime   # the interpreter's start, imports
        while not stop.is_set():
            if ready is not None and not ready.is_set() and (
                    all(m["events"] for m in mine) if mode == "stream" else out["open"] >= n):
                out["open_after_s"] = round(time.time() - started, 2)
                ready.set()
            await asyncio.sleep(0.05)
        until = time.time() + grace
        while time.time() < until and not all(t.done() for t in tasks):
            await asyncio.sleep(0.05)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        out["seconds"] = round(time.time() - started, 2)

    asyncio.run(run())
    usage = resource.getrusage(resource.RUSAGE_SELF)
    out["cpu_s"] = usage.ru_utime + usage.ru_stime             # the watchers' own CPU (they share the cores)
    del out["open"]
    if mode == "stream":
        out["per_watcher"] = [(targets[i % len(targets)][0], targets[i % len(targets)][1] is not None,
                               m["events"], m.get("last"), m.get("ended", False), m.get("order_ok", True))
                              for i, m in enumerate(mine)]
    results.put(out)


def _floor_batch(args: tuple[str, int, float, float, str]) -> list[dict[str, Any]]:
    url, n, stop_at, start_at, path = args
    return _uncollected(lambda: _threads([lambda: floor_client(url, stop_at, start_at, path) for _ in range(n)]))


def _match_batch(args: tuple[str, str, list[Any], float, float]) -> list[dict[str, Any]]:
    """Each job: (matches, seed) or (matches, seed, prepared matches)."""
    url, game, jobs, start_at, max_seconds = args
    return _uncollected(lambda: _threads([lambda j=j: match_client(url, game, j[0], j[1], start_at, max_seconds,
                                                                   j[2] if len(j) > 2 else None) for j in jobs]))


def _uncollected(batch: Any) -> Any:
    """``batch()`` in a client process with its garbage collected first, before the phase begins (a batch
    starts half a second ahead of it), and no collection during it. The clients are the measuring instrument:
    a full collection of a client process took 22-49 ms (``gc.callbacks`` in a run with 1,000 watchers) and
    stopped its eight threads whole, so that every move they had in flight read that much slower, in whichever
    phase it fell: it landed in the p99 of one phase and not the other's, and made their ratio swing from round
    to round. What the server does is measured the same; a phase's garbage is bounded (its clients' requests)."""
    was_on = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        return batch()
    finally:
        if was_on:
            gc.enable()


def _prepare_batch(args: tuple[str, str, list[Any]]) -> list[tuple[int, int, list[dict[str, Any]]]]:
    """The jobs (matches, seed) with their matches created: (matches, seed, prepared)."""
    url, game, jobs = args
    made = _threads([lambda j=j: {"p": prepare_client(url, game, j[0])} for j in jobs])
    return [(j[0], j[1], m["p"]) for j, m in zip(jobs, made, strict=True)]


def _threads(jobs: list[Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{} for _ in jobs]

    def run(i: int) -> None:
        out[i] = jobs[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def split(n: int, parts: int) -> list[int]:
    return [n // parts + (1 if i < n % parts else 0) for i in range(parts)]


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def round_verdict(values: list[float], goal: float, at_least: bool) -> dict[str, Any]:
    """A target's verdict over the rounds of a run: the median of the rounds' ratios against ``goal`` (``at_least``:
    the ratio must be >= goal, else <= goal), with their spread and how many rounds met it on their own. One round's
    ratio, or a pooled one over two rounds, moved from under 1.0x to over 2x between runs of the same code on this
    shared machine; the median of many alternated rounds is the figure a verdict stands on, and the rounds on both
    sides of the goal say it is a near thing."""
    finite = [v for v in values if math.isfinite(v)]
    if not finite:
        return {"median": float("nan"), "min": float("nan"), "max": float("nan"), "goal": goal,
                "at_least": at_least, "met": False, "rounds_met": 0, "rounds": len(values)}
    median = statistics.median(finite)

    def meets(v: float) -> bool:
        return v >= goal if at_least else v <= goal

    return {"median": round(median, 3), "min": round(min(finite), 3), "max": round(max(finite), 3), "goal": goal,
            "at_least": at_least, "met": meets(median), "rounds_met": sum(meets(v) for v in finite),
            "rounds": len(values)}


def verdict_line(label: str, v: dict[str, Any]) -> str:
    """One row of the targets' table: the median of the rounds (min-max), the goal, met or not."""
    met = "yes" if v["met"] else "NO"
    return (f"| {label} | {v['median']:.2f} ({v['min']:.2f}-{v['max']:.2f}) | {'>=' if v['at_least'] else '<='} "
            f"{v['goal']:g} | {met}, {v['rounds_met']} of {v['rounds']} rounds |")


def summary(name: str, results: list[dict[str, Any]], seconds: float) -> dict[str, Any]:
    latencies = [x for r in results for x in r["latencies"]]
    out = {
        "name": name,
        "requests": len(latencies),
        "seconds": round(seconds, 2),
        "per_second": round(len(latencies) / seconds, 1) if seconds > 0 else 0.0,
        "p50_ms": round(percentile(latencies, 0.50) * 1000, 2),
        "p99_ms": round(percentile(latencies, 0.99) * 1000, 2),
        "mean_ms": round(statistics.fmean(latencies) * 1000, 2) if latencies else float("nan"),
        "errors": sum(r["errors"] for r in results),
    }
    return out


def _phase_cpu(proc: subprocess.Popen[bytes], run: Any, database_url: str = "") -> tuple[Any, float, float]:
    """What ``run()`` returns, with the CPU time the server's processes used meanwhile, and the local
    PostgreSQL server's (0.0 when there is none)."""
    cpu0 = server_cpu_seconds(proc) or 0.0
    db0 = pids_cpu_seconds(database_url) if database_url else None
    got = run()
    used = (server_cpu_seconds(proc) or 0.0) - cpu0
    db1 = pids_cpu_seconds(database_url) if db0 is not None else None
    return got, used, (db1 - db0) if db0 is not None and db1 is not None else 0.0


def profile_moves(args: Any) -> int:
    """Where a move's server CPU goes: the matches played against one worker profiled by cProfile, then the
    bare Flask hello-world floor against one profiled worker of the same configuration, part by part."""
    import robotcore

    game = args.game or robotcore.list_games()[0]
    parts: dict[str, tuple[dict[str, float], int]] = {}
    for hello in (False, True):
        workdir = Path(tempfile.mkdtemp(prefix="robotcore-profile-"))
        proc, url = start_server(args.database or f"sqlite:///{workdir / 'bench.db'}", 1, args.threads, workdir,
                                 args.worker_class, hello=hello, profile=True)
        try:
            if hello:
                stop_at = time.time() + 4
                got = _threads([lambda u=url, t=stop_at: floor_client(u, t, time.time(), "/")
                                for _ in range(args.clients)])
            else:
                Client(url).create_match(game)
                jobs = [(m, i) for i, m in enumerate(split(args.matches, args.clients)) if m]
                got = _threads([lambda m=m, i=i, u=url: match_client(u, game, m, i, time.time(), args.max_seconds)
                                for m, i in jobs])
        finally:
            stop_server(proc)
        parts["hello" if hello else "move"] = (profile_breakdown(sorted(workdir.glob("worker-*.prof"))),
                                               sum(len(r["latencies"]) for r in got))
    (move, moves), (floor, floors) = parts["move"], parts["hello"]
    print(f"where a move's server CPU goes: {game}, {moves} moves (each match's creation and log counted in) "
          f"and {floors} bare Flask hello-worlds, each against one {args.worker_class} worker under cProfile "
          "(CPU time per request; profiling inflates Python calls more than C ones)")
    print(f"{'part':72s} {'move ms':>8s} {'share':>6s} {'hello ms':>9s}")
    whole = sum(move.values())
    for part in sorted(move, key=lambda k: -move[k]):
        print(f"{part:72s} {move[part] * 1000 / moves:8.3f} {move[part] / whole * 100:5.1f}% "
              f"{floor.get(part, 0.0) * 1000 / max(1, floors):9.3f}")
    print(f"{'all':72s} {whole * 1000 / moves:8.3f} {100:5.1f}% {sum(floor.values()) * 1000 / max(1, floors):9.3f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--matches", type=int, default=192, help="full matches in all")
    parser.add_argument("--game", default=None, help="default: the first registered game")
    parser.add_argument("--workers", type=int, default=None,
                        help="gunicorn workers (default: the service's, live.default_workers)")
    parser.add_argument("--worker-class", default="gevent", choices=["gevent", "gthread"],
                        help="gunicorn worker class (default: the configuration's, gevent)")
    parser.add_argument("--threads", type=int, default=8, help="threads per gunicorn worker (gthread)")
    parser.add_argument("--processes", type=int, default=None, help="client processes (default: min(4, clients))")
    parser.add_argument("--seconds", type=float, default=12.0, help="duration of each floor measurement")
    parser.add_argument("--rounds", type=int, default=3, help="floor and match phases alternate this many times")
    parser.add_argument("--max-seconds", type=float, default=300.0, help="cap on the match phase")
    parser.add_argument("--database", default=None, help="SQLAlchemy URL (default: a fresh SQLite file)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    parser.add_argument("--floor-shapes", action="store_true",
                        help="also measure the hello-world app on a request shaped as a move (POST with a JSON "
                             "body and a bearer token, an answer of a move's length): what gunicorn and Flask "
                             "cost for a move's shape alone")
    parser.add_argument("--watchers", type=int, default=0,
                        help="also play each round's matches again while this many spectators watch")
    parser.add_argument("--watch", default="stream", choices=["stream", "poll"],
                        help="how the watchers watch: event streams (as the page) or long-polls")
    parser.add_argument("--watch-loop", default="uvloop", choices=["uvloop", "asyncio"],
                        help="the watchers' client's event loop: uvloop (the default, when installed: "
                             "robotcore[bench]) or the standard library's asyncio")
    parser.add_argument("--watch-matches", default="live", choices=["live", "idle"],
                        help="what the watchers (streams) watch: the matches being played in that phase, each "
                             "watcher checked to receive its match's final version and end event (live, the "
                             "default), or idle matches that never move (idle: holding streams only)")
    parser.add_argument("--client-json", default="orjson", choices=["orjson", "stdlib"],
                        help="the load clients' JSON encoder and decoder (default orjson; stdlib: as before)")
    parser.add_argument("--client-headers", default="lean", choices=["lean", "full"],
                        help="the load clients' request headers, the floor's and the moves' alike: only those "
                             "the API reads (lean, the default: Host, Authorization, Content-Type, "
                             "Content-Length), or the example client's (full: also Accept, Accept-Encoding and "
                             "an Idempotency-Key on every move, as before)")
    parser.add_argument("--profile", action="store_true",
                        help="only: play the matches against one worker under cProfile (CPU time) and print "
                             "where a move's server CPU goes")
    args = parser.parse_args(argv)
    os.environ["ROBOTCORE_BENCH_CLIENT_JSON"] = args.client_json       # (inherited by the client processes)
    os.environ["ROBOTCORE_BENCH_CLIENT_HEADERS"] = args.client_headers
    if args.profile:
        return profile_moves(args)

    import robotcore

    game = args.game or robotcore.list_games()[0]
    processes = args.processes or min(4, args.clients)
    workdir = Path(tempfile.mkdtemp(prefix="robotcore-bench-"))
    database = args.database or f"sqlite:///{workdir / 'bench.db'}"
    # the service's own default for this database and worker class (gunicorn_conf), unless --workers says
    workers = args.workers or default_workers(database, args.worker_class, os.cpu_count() or 1)
    load_before = os.getloadavg()
    hello_proc, hello_url = start_server(database, workers, args.threads, workdir, args.worker_class, hello=True)
    proc, url = start_server(database, workers, args.threads, workdir, args.worker_class)
    results: dict[str, list[dict[str, Any]]] = {"hello": [], "hello_move": [], "health": [], "moves": [],
                                                "watched": []}
    times = dict.fromkeys(results, 0.0)
    cpu = dict.fromkeys(results, 0.0)
    #: CPU of a local PostgreSQL server's processes (it shares the cores: the database's part of a move)
    db_cpu = dict.fromkeys(results, 0.0)
    local_db = database_pids(database) is not None
    ratios: list[float] = []
    watched_rates: list[float] = []
    p99_ratios: list[float] = []
    watcher_counts: list[dict[str, Any]] = []
    try:
        # warm up every worker (imports, connections, the game's tables)
        warm = Client(url)
        for _ in range(50):
            warm.request("GET", "/v1/health")
        warm.create_match(game)
        hello = Client(hello_url)
        for _ in range(50):
            hello.request("GET", "/")
        hello.close()
        # idle mode: the watchers' matches have one human seat that never moves, so every watcher waits for news
        live = args.watch == "stream" and args.watch_matches == "live"
        watched: list[Any] = [] if live else [warm.create_match(game)["match_id"]
                                              for _ in range(min(50, args.watchers))]
        warm.close()
        late = [0.0]                 # the latest start of a floor client after its phase began, in seconds
        ctx = mp.get_context("spawn")
        with ctx.Pool(processes) as pool:
            # every client process started (interpreter, imports) before the first timed phase: the pool
            # starts them without waiting, and on a loaded machine they took longer than the first floor
            # phase's lead, so that its clients began late (or not at all) while its rate was counted over the
            # whole window: the first round's hello-world rate read low and its ratio 1.8-150 (or nan)
            pool.map(time.sleep, [0.3] * processes, chunksize=1)

            def floor(server: subprocess.Popen[bytes], at: str, path: str, name: str) -> float:
                start_at = time.time() + 0.5
                stop_at = start_at + args.seconds / args.rounds
                batches = [(at, n, stop_at, start_at, path) for n in split(args.clients, processes) if n]
                got, used, db_used = _phase_cpu(server, lambda: [x for b in pool.map(_floor_batch, batches)
                                                                 for x in b], database)
                results[name] += got
                times[name] += stop_at - start_at
                late[0] = max([late[0]] + [x["late"] for x in got])
                cpu[name] += used
                db_cpu[name] += db_used
                return sum(len(x["latencies"]) for x in got) / (stop_at - start_at)

            def match_phase(chunks: list[Any], name: str) -> float:
                start_at = time.time() + 0.5
                batches = [(url, game, chunk, start_at, args.max_seconds) for chunk in chunks if chunk]
                t0 = time.time()
                got, used, db_used = _phase_cpu(proc, lambda: [x for b in pool.map(_match_batch, batches)
                                                               for x in b], database)
                elapsed = time.time() - max(start_at, t0)
                results[name] += got
                times[name] += elapsed
                cpu[name] += used
                db_cpu[name] += db_used
                return sum(len(x["latencies"]) for x in got) / elapsed

            # rounds alternate the measurements, so a change in the machine's other load hits them alike
            for r in range(args.rounds):
                hello_rate = floor(hello_proc, hello_url, "/", "hello")
                if args.floor_shapes:
                    floor(hello_proc, hello_url, MOVE_SHAPED, "hello_move")
                floor(proc, url, "/v1/health", "health")
                per_client = split(split(args.matches, args.rounds)[r], args.clients)
                jobs = [(m, 1000 * r + i) for i, m in enumerate(per_client) if m]
                chunks: list[Any] = [jobs[i::processes] for i in range(processes)]
                chunks_watched = chunks            # (idle watchers: both phases play the same kind of matches)
                if live and args.watchers:
                    # both phases play matches created beforehand (so that the watchers can open on them
                    # first): the same work in each, creation outside the timed phase
                    chunks_watched = pool.map(_prepare_batch, [(url, game, c) for c in chunks])
                    chunks = pool.map(_prepare_batch, [(url, game, c) for c in chunks])
                    played = [(p["match_id"], p["token"]) for c in chunks_watched for j in c for p in j[2]]
                    # watcher i watches match i mod M; the first watcher of each match as its human seat
                    # (that seat's view), the others as spectators (the public view)
                    watched = [(played[i % len(played)][0], played[i % len(played)][1] if i < len(played)
                                else None) for i in range(args.watchers)]
                moves_at = len(results["moves"])
                watched_at = len(results["watched"])

                def watched_phase(watched: list[Any], chunks: list[Any], chunks_watched: list[Any]) -> float:
                    queue = ctx.Queue()
                    stop = ctx.Event()
                    ready = ctx.Event()
                    watcher = ctx.Process(target=watchers_process,
                                          args=(url, watched, args.watchers, stop, queue, args.watch, ready,
                                                30.0 if live else 0.0, args.watch_loop),
                                          daemon=True)     # (a failed phase must not leave the run waiting on it)
                    watcher.start()
                    # the matches are played while the watchers are held open, not while they connect: wait
                    # until every one is open (its time is reported), then a second for the server to settle
                    ready.wait(120)
                    time.sleep(1.0)
                    rate = match_phase(chunks_watched, "watched")
                    stop.set()
                    try:
                        watcher_counts.append(queue.get(timeout=120))
                    except Exception:                      # noqa: BLE001 - a starved watcher process
                        watcher_counts.append({"polls": 0, "errors": 0, "answered_at_once": 0, "max_open": 0,
                                               "seconds": 0.0, "events": 0, "unreported": 1})
                    watcher.join(30)
                    if watcher.is_alive():
                        watcher.terminate()
                    return rate

                # with watchers the two match phases alternate their order too (ABBA over the rounds), so that
                # whatever drifts within a round (the database growing, other tenants) hits both alike
                if args.watchers and r % 2 == 1:
                    rate = watched_phase(watched, chunks, chunks_watched)
                    move_rate = match_phase(chunks, "moves")
                else:
                    move_rate = match_phase(chunks, "moves")
                    rate = watched_phase(watched, chunks, chunks_watched) if args.watchers else 0.0
                ratios.append(move_rate / hello_rate if hello_rate else float("nan"))
                if args.watchers:
                    p99_ratios.append(
                        percentile([x for g in results["watched"][watched_at:] for x in g["latencies"]], 0.99)
                        / percentile([x for g in results["moves"][moves_at:] for x in g["latencies"]], 0.99))
                    watched_rates.append(rate / move_rate)
    finally:
        stop_server(proc)
        stop_server(hello_proc)
        if args.database is None:               # the run's own SQLite files go; the servers' logs stay
            for path in workdir.glob("bench.db*"):
                path.unlink()
    load_after = os.getloadavg()

    names = {"hello": "GET / (bare Flask hello-world)", "hello_move": "POST /echo (hello-world, move-shaped)",
             "health": "GET /v1/health (service)",
             "moves": "POST /v1/matches/{id}/moves",
             "watched": f"moves, {args.watchers} watchers ({args.watch}{', live' if live else ''})"}
    rows = {k: summary(names[k], results[k], times[k]) for k in results if results[k]}
    for k, row in rows.items():
        # the match phases also create each match and read its log: counted in, per move
        row["server_cpu_ms"] = round(cpu[k] * 1000 / max(1, row["requests"]), 3)
        if local_db:
            row["database_cpu_ms"] = round(db_cpu[k] * 1000 / max(1, row["requests"]), 3)
    match_results = results["moves"] + results["watched"]
    lost = sum(res["lost"] for res in match_results)
    actions = sum(r["actions"] for r in results["moves"])
    finished = sum(r["finished"] for r in results["moves"])
    codes: dict[str, int] = {}
    for res in match_results:
        for k, v in res["error_codes"].items():
            codes[k] = codes.get(k, 0) + v
    floor_row, moves = rows["hello"], rows["moves"]
    ratio = moves["per_second"] / floor_row["per_second"] if floor_row["per_second"] else float("nan")
    print(f"robotcore service load test: {game}, {args.clients} concurrent clients in {processes} processes, "
          f"gunicorn {workers} workers ({args.worker_class}"
          f"{f' x {args.threads} threads' if args.worker_class == 'gthread' else ''}), "
          f"{'SQLite file' if database.startswith('sqlite') else database.split(':')[0]}, "
          f"{os.cpu_count()} cores shared by server and clients (their JSON: {args.client_json}, "
          f"headers: {args.client_headers})")
    print(f"load average before {load_before[0]:.2f} {load_before[1]:.2f}, after {load_after[0]:.2f} "
          f"{load_after[1]:.2f}" + ("  (the machine was busy: figures are lower bounds)"
                                    if load_before[1] > 0.5 * (os.cpu_count() or 1) else ""))
    print(f"{'endpoint':40s} {'requests':>9s} {'req/s':>9s} {'p50 ms':>8s} {'p99 ms':>8s} {'errors':>7s} "
          f"{'server CPU ms/req':>18s}" + (f" {'database CPU ms/req':>20s}" if local_db else ""))
    for row in rows.values():
        print(f"{row['name']:40s} {row['requests']:9d} {row['per_second']:9.1f} {row['p50_ms']:8.2f} "
              f"{row['p99_ms']:8.2f} {row['errors']:7d} {row['server_cpu_ms']:18.3f}"
              + (f" {row['database_cpu_ms']:20.3f}" if local_db else ""))
    print(f"matches finished {finished}/{args.matches}; actions applied {actions} "
          f"({actions / max(1e-9, times['moves']):.1f}/s with the bot seats' moves); lost moves {lost}"
          + (f"; error codes {codes}" if codes else ""))
    print(f"move endpoint / bare Flask hello-world throughput: {ratio:.2f} (rounds: "
          f"{', '.join(f'{x:.2f}' for x in ratios)}; target >= 0.50 with 0 errors and 0 lost moves); "
          f"/ the service's /v1/health: {moves['per_second'] / rows['health']['per_second']:.2f}")
    cpu_ratio = floor_row["server_cpu_ms"] / moves["server_cpu_ms"] if moves["server_cpu_ms"] else float("nan")
    print(f"server CPU per request, hello-world / move: {cpu_ratio:.2f} (what the ratio would be if the server "
          f"alone used the cores)")
    if late[0] > 0.1 * args.seconds / args.rounds:
        print(f"note: a floor client began {late[0]:.2f} s into its {args.seconds / args.rounds:.2f} s phase (the "
              f"machine was busy): that phase's rate reads low, and the throughput ratio high")
    watching = rows.get("watched")
    if watching is not None:
        polls = sum(c["polls"] for c in watcher_counts)
        seconds = sum(c["seconds"] for c in watcher_counts)
        watching.update(
            watcher_requests=polls, watcher_requests_per_second=round(polls / seconds, 1) if seconds else 0.0,
            watcher_events=sum(c.get("events", 0) for c in watcher_counts),
            watcher_answered_at_once=sum(c["answered_at_once"] for c in watcher_counts),
            watcher_errors=sum(c["errors"] for c in watcher_counts),
            watcher_max_open=max(c["max_open"] for c in watcher_counts),
            watcher_unreported_rounds=sum(c.get("unreported", 0) for c in watcher_counts),
            watcher_open_after_s=max((c.get("open_after_s", float("nan")) for c in watcher_counts), default=0.0),
            watcher_cpu_s=round(sum(c.get("cpu_s", 0.0) for c in watcher_counts), 2),
            watcher_cpu_start_s=round(sum(c.get("cpu_start_s", 0.0) for c in watcher_counts), 2),
            watcher_out_of_order=sum(c.get("out_of_order", 0) for c in watcher_counts),
            watcher_loop=",".join(sorted({c.get("loop", "?") for c in watcher_counts})),
            throughput_ratio=round(watching["per_second"] / moves["per_second"], 3),
            p99_ratio=round(watching["p99_ms"] / moves["p99_ms"], 3))
        per_watcher = [w for c in watcher_counts for w in c.get("per_watcher", [])] if live else []
        if live:
            finals = {k: v for r in results["watched"] for k, v in r["finals"].items()}
            lost_updates = [w for w in per_watcher
                            if not w[4] or w[0] not in finals or w[3] != finals[w[0]] or not w[5]]
            got = sorted(w[2] for w in per_watcher)
            watching.update(watcher_lost_updates=len(lost_updates), watcher_streams=len(per_watcher),
                            watched_matches=len({w[0] for w in per_watcher}),
                            events_per_watcher={"min": got[0] if got else 0,
                                                "median": got[len(got) // 2] if got else 0,
                                                "max": got[-1] if got else 0,
                                                "mean": round(statistics.fmean(got), 1) if got else 0.0})
        print(f"with {args.watchers} watchers / without: throughput {watching['throughput_ratio']:.2f} (rounds: "
              f"{', '.join(f'{x:.2f}' for x in watched_rates)}), p99 {watching['p99_ratio']:.2f}x (rounds: "
              f"{', '.join(f'{x:.2f}' for x in p99_ratios)}; odd rounds play the watched phase first) (target: "
              f"throughput >= 0.67, p99 <= 1.5x); watchers: {polls} "
              f"{'streams opened' if args.watch == 'stream' else 'polls'} "
              f"({watching['watcher_requests_per_second']}/s), {watching['watcher_events']} stream events, "
              f"{watching['watcher_answered_at_once']} polls answered at once, {watching['watcher_errors']} errors, "
              f"at most {watching['watcher_max_open']} connections open, all open "
              f"{watching['watcher_open_after_s']} s after they started connecting; the watchers' process used "
              f"{watching['watcher_cpu_s']} s of CPU (on the same cores: "
              f"{watching['watcher_cpu_s'] * 1e6 / max(1, watching['watcher_events']):.0f} us per event; "
              f"{watching['watcher_cpu_start_s']} s of it before the first connection, its interpreter's start; "
              f"{(watching['watcher_cpu_s'] - watching['watcher_cpu_start_s']) * 1e6 / max(1, watching['watcher_events']):.0f}"
              f" us per event after; "
              f"{watching['watcher_loop']} event loop); events out of order (an id not above the last, or a "
              f"seat's event not carrying exactly the versions after the last): "
              f"{watching['watcher_out_of_order']} (target 0)")
        if live:
            e = watching["events_per_watcher"]
            print(f"live watching: {watching['watcher_streams']} watchers on the {watching['watched_matches']} "
                  f"matches played while watched (one per match as its human seat, the others spectators); "
                  f"events received per watcher min {e['min']} median {e['median']} mean {e['mean']} max "
                  f"{e['max']}; watchers that missed their match's final version or end event, or got an "
                  f"event out of order (lost updates): "
                  f"{watching['watcher_lost_updates']} (target 0)")
    ok = all(r["errors"] == 0 for r in rows.values()) and lost == 0 and finished == args.matches
    if watching is not None:
        ok = ok and watching["watcher_errors"] == 0 and watching["watcher_unreported_rounds"] == 0 and \
            watching["watcher_out_of_order"] == 0 and all(
            "open_after_s" in c for c in watcher_counts)
        if live:
            ok = ok and watching["watcher_lost_updates"] == 0 and watching["watcher_streams"] == args.watchers * len(
                watcher_counts)
    verdicts = {"move / hello-world throughput": round_verdict(ratios, 0.5, at_least=True)}
    if watching is not None:
        verdicts[f"throughput with {args.watchers} watchers / without"] = round_verdict(watched_rates, 0.67, True)
        verdicts[f"p99 latency with {args.watchers} watchers / without"] = round_verdict(p99_ratios, 1.5, False)
    if not ok:                          # (a fast run that dropped moves meets nothing)
        for v in verdicts.values():
            v["met"] = False
    print()
    print(f"| target (median of the {args.rounds} rounds' ratios, min-max) | measured | goal | met |")
    print("|---|---:|---:|:-:|")
    for label, v in verdicts.items():
        print(verdict_line(label, v))
    if not ok:
        print("(errors, lost moves or lost updates in this run: no target is met, whatever the ratios)")
    if args.rounds < 5:
        print(f"(only {args.rounds} rounds: a median of so few swings from run to run here; take 10 for a verdict)")
    if args.json:
        print(json.dumps({"rows": rows, "lost": lost, "actions": actions, "finished": finished,
                          "verdicts": verdicts,
                          "ratio": round(ratio, 3), "round_ratios": [round(x, 3) for x in ratios],
                          "load_before": load_before, "load_after": load_after, "clients": args.clients,
                          "workers": workers, "worker_class": args.worker_class, "threads": args.threads,
                          "game": game}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
