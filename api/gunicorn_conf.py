"""gunicorn configuration of the service: ``gunicorn -c python:robotcore_api.gunicorn_conf``.

Environment overrides: ``ROBOTCORE_BIND`` (default 127.0.0.1:8000), ``WEB_CONCURRENCY`` (worker processes,
default 2 per core up to 8), ``ROBOTCORE_THREADS`` (threads per worker, default 8), ``ROBOTCORE_DATABASE_URL``,
``ROBOTCORE_ACCESS_LOG`` (a path, or ``-`` for stdout; default none), ``ROBOTCORE_MAX_WAITING_POLLS``,
``ROBOTCORE_MAX_BUDGET_MS``, ``ROBOTCORE_BOT_THINK_SLOTS``, ``ROBOTCORE_RATE_LIMIT_ADDRESS``, ``ROBOTCORE_RATE_LIMIT_TOKEN``, ``ROBOTCORE_RATE_LIMIT_STORAGE`` (README).

- gunicorn's own refusals (request line or headers over its limits, malformed requests) are answered as
  problem+json too (``gunicorn_errors``).

- ``gthread`` workers: a thread pool per process, keep-alive connections, and long-polls that hold a thread
  while they wait (each waits at most 25 s, and stops waiting when its client disconnects). At most half the
  threads of a worker wait at once (``ROBOTCORE_MAX_WAITING_POLLS``); a poll beyond that answers at once.
- Workers share nothing but the database. A worker remembers the state it committed last for each match only
  to play the next move on it without reading; the compare-and-set on the version decides, so a worker whose
  memory is behind simply reads the match (see ``MatchService._move_known``).
- ``preload_app``: the app (and the database schema) is made once in the master; each worker opens its own
  database connections after the fork.
- ``timeout`` 60 s: above the longest request the service makes on purpose (a 25 s long-poll, a 10 s bot
  budget, 5 s of inline bot play).
"""

from __future__ import annotations

import os

from . import gunicorn_errors

# gunicorn's own refusals (414, 431, 400 before the app is reached) answered as problem+json
gunicorn_errors.install()

wsgi_app = "robotcore_api.wsgi:app"
bind = [os.environ.get("ROBOTCORE_BIND", "127.0.0.1:8000")]
workers = int(os.environ.get("WEB_CONCURRENCY", str(min(8, 2 * (os.cpu_count() or 1)))))
worker_class = "gthread"
threads = int(os.environ.get("ROBOTCORE_THREADS", "8"))
# at most half of a worker's threads wait in long-polls; the others answer moves and everything else
os.environ.setdefault("ROBOTCORE_MAX_WAITING_POLLS", str(max(1, threads // 2)))
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
