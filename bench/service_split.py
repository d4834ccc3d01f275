"""Where a move's CPU goes inside the service, without a server: moves called straight through WSGI (thread CPU
time), each followed by a ``GET /v1/health`` of the same app, so that the figure the machine's other load moves
least is the ratio of the two (a move in health calls), measured in one run.

    python bench/service_split.py --matches 20            # robotrick, one human seat against two random bots
    python bench/service_split.py --gevent --stages       # gevent patched (as in gunicorn), and the split by stage
    python bench/service_split.py --sql                   # a move's SQL alone, statement by statement

The stages are functions of the service wrapped with a thread-time counter (each includes the ones it calls);
"the app" is Flask's whole WSGI call, so the app minus "the move route" is Flask's own request machinery. The
counters cost a little themselves: compare versions without ``--stages``.

``--sql`` times a move's transaction on a fresh SQLite store with nothing else in between (``sql_split``): the
store's own ``commit``, the same statements on its connection without it, each statement alone, without the
foreign-key checks, and several moves (of different matches) in one transaction, as a group commit would make
them. Each figure is the median of interleaved blocks of thread CPU time.
"""

from __future__ import annotations

import argparse
import collections
import functools
import io
import json
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from typing import Any

if "--gevent" in sys.argv:
    from gevent import monkey

    monkey.patch_all()

import orjson  # noqa: E402

from robotcore_api import payloads, routes  # noqa: E402
from robotcore_api import service as service_module  # noqa: E402
from robotcore_api.app import create_app  # noqa: E402


def call(app: Any, method: str, path: str, body: Any = None, token: str | None = None,
         headers: dict[str, str] | None = None, full: bool = False) -> tuple[str, Any]:
    """One request through WSGI, with the headers the bench's lean load client sends (``full``: the example
    client's, with Accept and Accept-Encoding)."""
    data = b"" if body is None else json.dumps(body).encode()
    environ: dict[str, Any] = {
        "REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": "", "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000", "SERVER_PROTOCOL": "HTTP/1.1", "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(data),
        "wsgi.errors": sys.stderr, "wsgi.version": (1, 0), "wsgi.multithread": False, "wsgi.multiprocess": True,
        "wsgi.run_once": False, "REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": "127.0.0.1:8000"}
    if full:
        environ["HTTP_ACCEPT"], environ["HTTP_ACCEPT_ENCODING"] = "application/json", "identity"
    if body is not None:
        environ["CONTENT_TYPE"] = "application/json"
        environ["CONTENT_LENGTH"] = str(len(data))
    if token:
        environ["HTTP_AUTHORIZATION"] = "Bearer " + token
    for name, value in (headers or {}).items():
        environ["HTTP_" + name.upper().replace("-", "_")] = value
    status: list[str] = []
    out = b"".join(app(environ, lambda s, h, e=None: status.append(s)))
    return status[0], orjson.loads(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--game", default="robotrick")
    parser.add_argument("--gevent", action="store_true", help="monkey-patch with gevent first, as gunicorn_conf")
    parser.add_argument("--stages", action="store_true", help="also time the stages of a move")
    parser.add_argument("--client-headers", default="lean", choices=["lean", "full"],
                        help="the moves' headers: as bench/service_load's lean load clients (the default: no "
                             "Idempotency-Key), or the example client's (full: Accept, Accept-Encoding and an "
                             "Idempotency-Key on every move)")
    parser.add_argument("--sql", action="store_true", help="time a move's SQL alone instead (see above)")
    args = parser.parse_args(argv)
    if args.sql:
        return sql_split()
    app = create_app(f"sqlite:///{tempfile.mkdtemp(prefix='robotcore-split-')}/bench.db")
    svc = app.extensions["robotcore"]
    spent: collections.Counter[str] = collections.Counter()

    def timed(owner: Any, name: str, label: str) -> None:
        inner = getattr(owner, name)

        @functools.wraps(inner)
        def wrapper(*a: Any, **k: Any) -> Any:
            start = time.thread_time_ns()
            try:
                return inner(*a, **k)
            finally:
                spent[label] += time.thread_time_ns() - start

        setattr(owner, name, wrapper)

    wsgi: Any = app.wsgi_app
    order = ["the app (Flask's WSGI call)", "the move route"]
    if args.stages:
        for owner, name, label in [
                (routes.payloads, "send", "  the answer's Response (orjson inside)"), (routes, "_move_body", "  the body"),
                (svc, "move", "  the service (MatchService.move)"), (svc, "seat_for", "    the token check"),
                (service_module, "_move_fingerprint", "    the Idempotency-Key fingerprint"),
                (svc, "_apply", "    apply, commit, answer"), (svc, "_bot_moves", "      the bot moves"),
                (svc, "_commit", "      the commit (service)"), (svc.store, "commit", "        the store's transaction"),
                (payloads, "move_result", "      the answer's body (view, legal actions)")]:
            if hasattr(owner, name):                 # (an older service may lack one)
                order.append(label)
                timed(owner, name, label)
        route = app.view_functions["matches.post_move"]
        app.view_functions["matches.post_move"] = functools.wraps(route)(
            functools.partial(_timed_call, spent, "the move route", route))
        wsgi = functools.partial(_timed_call, spent, "the app (Flask's WSGI call)", app.wsgi_app)
    rng = random.Random(1)
    seats = [{"type": "human"}] + [{"type": "bot", "bot": "random"}] * (
        call(app, "GET", f"/v1/games/{args.game}")[1]["num_players"] - 1)
    matches = []
    create_ns = 0
    for i in range(args.matches):
        start = time.thread_time_ns()
        created = call(app, "POST", "/v1/matches", {"game": args.game, "params": {}, "seats": seats, "seed": i})[1]
        create_ns += time.thread_time_ns() - start
        token = created["seats"][0]["token"]
        matches.append((created["match_id"], token, call(app, "GET", f"/v1/matches/{created['match_id']}", None,
                                                         token)[1]))
    spent.clear()
    moves = move_ns = health_ns = 0
    for match_id, token, view in matches:
        while view["status"] != "finished":
            choice = rng.choice(view["legal_actions"])["id"]
            start = time.thread_time_ns()
            full = args.client_headers == "full"
            status, answer = call(wsgi, "POST", f"/v1/matches/{match_id}/moves",
                                  {"action": {"id": choice}, "expected_version": view["version"]}, token,
                                  {"Idempotency-Key": uuid.uuid4().hex} if full else None, full)
            move_ns += time.thread_time_ns() - start
            assert status.startswith("200"), answer
            view = answer["match"]
            moves += 1
            start = time.thread_time_ns()
            call(app, "GET", "/v1/health", full=full)
            health_ns += time.thread_time_ns() - start
    print(f"{args.game}, {moves} moves through WSGI{' (gevent patched)' if args.gevent else ''}, "
          f"{args.client_headers} headers, load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}: a move {move_ns / moves / 1e3:.1f} µs, a GET /v1/health "
          f"{health_ns / moves / 1e3:.1f} µs (the request built and the answer parsed included): "
          f"a move costs {move_ns / health_ns:.3f} health calls")
    # what service_load's match phases count in besides the moves: each match's creation, and its log read
    # once at the end (the answer parsed included, as for the moves)
    log_ns = 0
    for match_id, token, _view in matches:
        start = time.thread_time_ns()
        call(app, "GET", f"/v1/matches/{match_id}/log", None, token)
        log_ns += time.thread_time_ns() - start
    print(f"  and per match: its creation {create_ns / len(matches) / 1e3:.1f} µs, its log read at the end "
          f"{log_ns / len(matches) / 1e3:.1f} µs: {(create_ns + log_ns) / moves / 1e3:.1f} µs a move")
    for label in order if args.stages else []:
        print(f"  {label:48s} {spent[label] / moves / 1e3:8.1f} µs a move")
    return 0


def sql_split(matches: int = 64, moves: int = 1500, rounds: int = 5) -> int:
    """A move's SQL on a fresh SQLite store (WAL, synchronous NORMAL, as the service's): the compare-and-set
    UPDATE of a 300-byte state and the INSERT of three action rows (a human's move and two bots'), spread over
    ``matches`` matches at random, as concurrent matches are."""
    from robotcore_api.store import MatchRecord, NewActions, SeatSpec, Store

    store = Store(f"sqlite:///{tempfile.mkdtemp(prefix='robotcore-sql-')}/bench.db")
    store.create_schema()
    state = bytes(range(256)) + bytes(44)
    seats = [SeatSpec("human", token_hash="0" * 64), SeatSpec("bot", bot="random"), SeatSpec("bot", bot="random")]
    names = ["Store.commit (the service's call)", "the same statements, without Store.commit around them",
             "the UPDATE alone", "the INSERT of 3 rows alone", "BEGIN and COMMIT alone",
             "the statements without foreign-key checks", "4 moves in one transaction (group commit)",
             "16 moves in one transaction (group commit)"]
    # each probe plays matches of its own, so that every one's versions follow on from its last
    ids = {name: [f"m{k:03d}{m:012d}" for m in range(matches)] for k, name in enumerate(names)}
    for mid in (m for group in ids.values() for m in group):
        store.insert_match(MatchRecord(id=mid, game="robotrick", params={}, seed=1, seats=seats, version=0,
                                       state=state, finished=False, bots_due=False, created_at=0.0, updated_at=0.0))
    version = {m: 0 for group in ids.values() for m in group}
    entries = [(0, 5, False), (1, 6, True), (2, 7, True)]
    rng = random.Random(1)
    insert = store._insert_actions(len(entries))

    def via_store(group: list[str]) -> None:
        mid = rng.choice(group)
        assert store.commit(mid, version[mid], NewActions(entries, state, False, False))
        version[mid] += len(entries)

    def statements(conn: Any, group: list[str], update: bool = True, rows: bool = True, batch: int = 1) -> None:
        cur = conn.cursor()
        cur.execute("BEGIN")
        for _ in range(batch):
            mid = rng.choice(group)
            v, now = version[mid], time.time()
            if update:
                cur.execute(store._sql["cas_update"], (v + 3, state, False, False, now, mid, v))
                assert cur.rowcount == 1
            if rows:
                cur.execute(insert, [x for i, (seat, action, bot) in enumerate(entries)
                                     for x in (mid, v + 1 + i, seat, action, bot, now)])
            version[mid] = v + 3
        cur.execute("COMMIT")
        cur.close()

    # two of the store's own connections (its pragmas), BEGIN and COMMIT as written; the second without
    # foreign-key checks while it serves here
    with store._dbapi() as conn, store._dbapi() as fk_off:
        level = conn.isolation_level
        conn.isolation_level = fk_off.isolation_level = None
        fk_off.execute("PRAGMA foreign_keys=OFF")
        probes: list[tuple[str, Any, int]] = [          # (name, one transaction on a probe's matches, its moves)
            (names[0], via_store, 1),
            (names[1], lambda g: statements(conn, g), 1),
            (names[2], lambda g: statements(conn, g, rows=False), 1),
            (names[3], lambda g: statements(conn, g, update=False), 1),
            (names[4], lambda g: statements(conn, g, update=False, rows=False), 1),
            (names[5], lambda g: statements(fk_off, g), 1),
            (names[6], lambda g: statements(conn, g, batch=4), 4),
            (names[7], lambda g: statements(conn, g, batch=16), 16)]
        blocks: dict[str, list[float]] = {name: [] for name in names}
        for r in range(rounds):
            for name, run, per in probes[r % len(probes):] + probes[:r % len(probes)]:
                start = time.thread_time_ns()
                for _ in range(moves // per):
                    run(ids[name])
                blocks[name].append((time.thread_time_ns() - start) / (moves // per * per) / 1e3)
        fk_off.execute("PRAGMA foreign_keys=ON")        # both given back to the store as they came
        conn.isolation_level = fk_off.isolation_level = level
    print(f"a move's SQL on SQLite, {matches} matches, {rounds} interleaved blocks of {moves} moves, load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}: median µs a move (min-max)")
    for name, got in blocks.items():
        print(f"  {name:58s} {statistics.median(got):6.1f} ({min(got):.1f}-{max(got):.1f})")
    return 0


def _timed_call(spent: collections.Counter[str], label: str, fn: Any, *a: Any, **k: Any) -> Any:
    start = time.thread_time_ns()
    try:
        return fn(*a, **k)
    finally:
        spent[label] += time.thread_time_ns() - start


if __name__ == "__main__":
    sys.exit(main())
