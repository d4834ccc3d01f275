"""Where a move's CPU goes inside the service, without a server: moves called straight through WSGI (thread CPU
time), each followed by a ``GET /v1/health`` of the same app, so that the figure the machine's other load moves
least is the ratio of the two (a move in health calls), measured in one run.

    python bench/service_split.py --matches 20            # robotrick, one human seat against two random bots
    python bench/service_split.py --gevent --stages       # gevent patched (as in gunicorn), and the split by stage

The stages are functions of the service wrapped with a thread-time counter (each includes the ones it calls);
"the app" is Flask's whole WSGI call, so the app minus "the move route" is Flask's own request machinery. The
counters cost a little themselves: compare versions without ``--stages``.
"""

from __future__ import annotations

import argparse
import collections
import functools
import io
import json
import os
import random
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
    args = parser.parse_args(argv)
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
    for i in range(args.matches):
        created = call(app, "POST", "/v1/matches", {"game": args.game, "params": {}, "seats": seats, "seed": i})[1]
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
    for label in order if args.stages else []:
        print(f"  {label:48s} {spent[label] / moves / 1e3:8.1f} µs a move")
    return 0


def _timed_call(spent: collections.Counter[str], label: str, fn: Any, *a: Any, **k: Any) -> Any:
    start = time.thread_time_ns()
    try:
        return fn(*a, **k)
    finally:
        spent[label] += time.thread_time_ns() - start


if __name__ == "__main__":
    sys.exit(main())
