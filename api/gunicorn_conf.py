"""gunicorn configuration of the service: ``gunicorn -c python:robotcore_api.gunicorn_conf``.

Environment overrides: ``ROBOTCORE_BIND`` (default 127.0.0.1:8000), ``WEB_CONCURRENCY`` (worker processes, up
to 8; by default one per core for ``gevent`` workers, two per core for ``gthread`` ones:
``live.default_workers``), ``ROBOTCORE_WORKER_CLASS`` (``gevent``, the default, or ``gthread``),
``ROBOTCORE_WORKER_CONNECTIONS`` (gevent: connections per worker, default 4096), ``ROBOTCORE_THREADS`` (gthread:
threads per worker, default 8), ``ROBOTCORE_DATABASE_URL``, ``ROBOTCORE_ACCESS_LOG`` (a path, or ``-`` for stdout;
default none), ``ROBOTCORE_MAX_WATCHERS``, ``ROBOTCORE_SPECTATOR_TICK_S``, ``ROBOTCORE_MAX_BUDGET_MS``, ``ROBOTCORE_BOT_THINK_SLOTS``,
``ROBOTCORE_BOT_QUEUE``, ``ROBOTCORE_RATE_LIMIT_ADDRESS``, ``ROBOTCORE_RATE_LIMIT_TOKEN``,
``ROBOTCORE_RATE_LIMIT_STORAGE``, ``ROBOTCORE_PROXY_HOPS``, ``ROBOTCORE_DB_CONNECTIONS`` (per worker; on PostgreSQL by default 64 shared by
the workers, 4 to 16 each: ``live.default_db_connections``), ``ROBOTCORE_GC_THRESHOLD`` (the workers' garbage
collector thresholds, default 5000,40,10: ``live.GC_THRESHOLD``) (README).

- ``gevent`` workers (the default): each worker serves its connections on one event loop, a request per
  greenlet. A watcher (a long-poll waiting, an event stream held open) is a parked greenlet and a socket, not
  a thread: a worker holds up to ``ROBOTCORE_MAX_WATCHERS`` (default 2000) of them while it goes on answering
  moves. Bots think on a small pool of native threads (``live.ThinkPool``), never on the loop. The standard
  library is monkey-patched here, first, so that the app preloaded below (its locks, events, threads, sockets)
  is made of gevent's cooperative pieces; psycopg 3 cooperates with gevent by itself.
- ``gthread`` workers: a thread pool per process; each watcher then holds a thread, so at most half of a
  worker's threads watch at once (``ROBOTCORE_MAX_WATCHERS`` defaults to that).
- gunicorn's own refusals (request line or headers over its limits, malformed requests) are answered as
  problem+json too (``gunicorn_errors``); an answer's headers and whole body go out in one send
  (``gunicorn_response``).
- Workers share nothing but the database: watchers learn of moves through it (``live.ChangeFeed``).
- ``post_request`` (gevent): each connection's requests take turns with the other connections of its worker.
- ``preload_app``: the app (and the database schema) is made once in the master; each worker opens its own
  database connections after the fork.
- ``timeout`` 60 s: above the longest request the service makes on purpose (a 25 s long-poll; event streams
  write a keep-alive line every 15 s).
- The objects the master made before forking a worker (the preloaded app: its modules, schemas, OpenAPI
  document, the games' tables: about 90,000 of them) are moved out of the garbage collector's sight first
  (``gc.freeze()``, ``pre_fork``): they live as long as the process, and each full collection of a worker would
  walk them all (45 ms on the 2-core CI machine, about once every 1,700 moves: ~30 us a move) and write to each
  one's header, so that the pages the fork shared are copied. Objects made afterwards are collected, at
  higher thresholds than CPython's (``ROBOTCORE_GC_THRESHOLD``, default ``live.GC_THRESHOLD``): a worker holding
  a thousand watchers spent 3-8% of its CPU in young-generation collections at CPython's 700.
"""

from __future__ import annotations

import gc
import os
from typing import Any

worker_class = os.environ.get("ROBOTCORE_WORKER_CLASS", "gevent")
if worker_class == "gevent":
    from gevent import monkey

    monkey.patch_all()

from . import gunicorn_errors, gunicorn_response  # noqa: E402 - after the monkey-patching
from .live import default_db_connections, default_workers, gc_threshold  # noqa: E402
from .store import default_database_url  # noqa: E402

# gunicorn's own refusals (414, 431, 400 before the app is reached) answered as problem+json
gunicorn_errors.install()
# an answer's headers and its body in one send (``gunicorn_response``)
gunicorn_response.install()

wsgi_app = "robotcore_api.wsgi:app"
bind = [os.environ.get("ROBOTCORE_BIND", "127.0.0.1:8000")]
workers = int(os.environ.get("WEB_CONCURRENCY") or default_workers(default_database_url(), worker_class,
                                                                    os.cpu_count() or 1))
threads = int(os.environ.get("ROBOTCORE_THREADS", "8"))
os.environ.setdefault("ROBOTCORE_DB_CONNECTIONS", str(default_db_connections(default_database_url(), workers)))
worker_connections = int(os.environ.get("ROBOTCORE_WORKER_CONNECTIONS", "4096"))
if worker_class == "gevent":
    os.environ.setdefault("ROBOTCORE_MAX_WATCHERS", "2000")
else:
    # at most half of a worker's threads wait for news; the others answer moves and everything else
    os.environ.setdefault("ROBOTCORE_MAX_WATCHERS", str(max(1, threads // 2)))
timeout = 60
graceful_timeout = 10
keepalive = 5
preload_app = True
accesslog = os.environ.get("ROBOTCORE_ACCESS_LOG") or None
errorlog = "-"
loglevel = os.environ.get("ROBOTCORE_LOG_LEVEL", "info")
# gunicorn >= 24 opens a control socket at one fixed path per user; several servers (tests, bench) would fight
# over it, and nothing here uses it.
control_socket_disable = True
# the workers' collector thresholds (read now: a wrong value stops the server before it starts)
_gc_threshold = gc_threshold(os.environ.get("ROBOTCORE_GC_THRESHOLD"))


def pre_fork(server: Any, worker: Any) -> None:
    """In the master, before each worker is forked: what exists now (the preloaded app) is never collected, and
    the worker collects at the thresholds of ``ROBOTCORE_GC_THRESHOLD`` (``live.GC_THRESHOLD``)."""
    gc.freeze()
    gc.set_threshold(*_gc_threshold)


if worker_class == "gevent":
    import gevent

    def post_request(worker: Any, req: Any) -> None:
        """After each answer, the worker's other greenlets run before this connection's next request is read.

        gunicorn's async worker reads a keep-alive connection's next request at once, and gevent's socket reads
        without switching when the bytes are already there: a client that asks again as soon as it has its
        answer kept the loop to itself, and the other connections of that worker waited (32 clients on
        /v1/health: p50 1.3 ms, p99 350 ms). One switch through the hub per request serves them in turn (p50
        8-9 ms, p99 20-28 ms, at the same throughput)."""
        gevent.sleep(0)
