"""Live updates and bot thinking without a request thread each: the change feed, the watcher slots, the think pool.

- ``ChangeFeed``: watchers (long-polls and server-sent event streams) learn that a match changed through the
  database, so that a move committed by any worker process (or any host) reaches them: on PostgreSQL a listener
  connection per process (``LISTEN``; every commit sends ``NOTIFY`` with the match id in its transaction), on
  SQLite a check of ``PRAGMA data_version`` every ``SQLITE_CHECK_S`` (a counter read without touching a table,
  which moves when any other connection commits), followed, only when it moved, by one query of the versions of
  the watched matches. Commits of this process wake its watchers at once. One source per process, started on
  the first watcher, stopped when none is left for a while.
- ``park``: a watcher waits for news, for its client to leave, or for its timeout; under gevent the client's
  socket is watched by the event loop, so a thousand parked watchers cost no timer each.
- ``Slots``: a bounded count (watchers held open at once per process; their request answers 503 beyond).
- ``ThinkPool``: bot thinking on a bounded pool of native threads (never on a request's thread or greenlet),
  with a bounded queue; a job beyond it is refused (``bots-busy``) before anything changes.

Under gunicorn's ``gevent`` worker (``gunicorn_conf``) the standard library is monkey-patched: ``threading``'s
locks, events and threads are gevent's, so a waiting watcher is a parked greenlet, not a thread. The think pool
then uses gevent's pool of real threads (``gevent.threadpool``), so a bot's search runs beside the event loop.
Without gevent (Flask's development server, the tests' in-process client) everything is plain threads.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from .store import ActionRow

log = logging.getLogger("robotcore_api")

T = TypeVar("T")

#: How often a SQLite store's change source looks at ``PRAGMA data_version``.
SQLITE_CHECK_S = 0.05
#: A change source with no watcher for this long stops (a new watcher starts it again).
IDLE_STOP_S = 5.0


def gevent_patched() -> bool:
    """Is the standard library monkey-patched by gevent (gunicorn's gevent worker)?"""
    monkey = sys.modules.get("gevent.monkey")
    return bool(monkey is not None and monkey.is_module_patched("threading"))


def spawn(target: Callable[..., Any], *args: Any) -> None:
    """Run ``target`` in the background: a greenlet under gevent, a daemon thread otherwise."""
    threading.Thread(target=target, args=args, daemon=True).start()


def park(event: Any, timeout: float, client_fd: int | None = None) -> str:
    """Wait for ``event`` ("news"), the client's socket ``client_fd`` turning readable ("client": it closed
    the connection, or sent more), or ``timeout`` ("timeout"), whichever comes first.

    Under gevent the socket is watched by the event loop itself (a libev io watcher), so a parked watcher
    wakes only when something happened: none of the thousand watchers of a busy server needs a timer each
    second to look at its client. Elsewhere (threads), or with no socket, only the event is waited for; the
    caller then looks at its client on a short timer."""
    if client_fd is None or not gevent_patched():
        return "news" if event.wait(timeout) else "timeout"
    import gevent
    from gevent.event import Event

    readable = Event()
    watcher = gevent.get_hub().loop.io(client_fd, 1)
    watcher.start(readable.set)
    try:
        gevent.wait([event, readable], timeout=timeout, count=1)
    finally:
        watcher.stop()
        watcher.close()
    if event.is_set():
        return "news"
    return "client" if readable.is_set() else "timeout"


class Subscription:
    """A watcher's registration on one match: ``event`` is set when the match may have moved past ``version``
    (the version the watcher last sent; it updates it)."""

    __slots__ = ("match_id", "version", "event")

    def __init__(self, match_id: str, version: int) -> None:
        self.match_id = match_id
        self.version = version
        self.event = threading.Event()


@dataclass(frozen=True)
class Change:
    """What a PostgreSQL notification says of a commit (the trigger ``actions_notify``'s payload): the version
    it made, its action rows (``store.ActionRow``s, in order; None when the payload left them out) and the
    state bytes after them (None when left out: larger than a NOTIFY holds, or not known to the trigger)."""

    version: int
    rows: list[Any] | None = None
    state: bytes | None = None
    updated_at: float | None = None

    @classmethod
    def parse(cls, payload: str) -> Change | None:
        """The change a payload announces; None when it is not one of ours (the watchers then ask the
        database). A bare number is the version alone (the trigger of a server not yet upgraded)."""
        if payload.isdigit():
            return cls(int(payload))
        try:
            doc = json.loads(payload)
            version = int(doc["v"])
            rows = None
            if "a" in doc:
                rows = [ActionRow(int(v), int(seat), int(action), bool(by_bot), float(at))
                        for v, seat, action, by_bot, at in doc["a"]]
                if not rows or rows[-1].version != version:
                    rows = None
            state = base64.b64decode(doc["s"]) if rows is not None and isinstance(doc.get("s"), str) else None
            updated = float(doc["u"]) if state is not None and doc.get("u") is not None else None
        except (ValueError, TypeError, KeyError, binascii.Error):
            return None
        return cls(version, rows, state, updated)


class ChangeFeed:
    """Wakes this process's watchers of a match when it changes, whichever process or host committed it."""

    def __init__(self, store: Any, on_change: Callable[[str, Change], None] | None = None) -> None:
        self.store = store
        #: called (in the listener, before the match's watchers are woken) with each change a notification
        #: announced: the service brings its snapshot of the match up to date from it, without a query
        self.on_change = on_change
        self._lock = threading.Lock()
        self._subs: dict[str, set[Subscription]] = {}
        self._source_pid = -1
        self._wakeup = threading.Event()
        #: False while the PostgreSQL listener is not listening: watchers then read versions themselves
        self.listening = False
        #: the newest version heard of each match watched here (a notification's payload, the SQLite check's
        #: query, a commit of this process): a woken watcher reads it instead of asking the database
        self._heard: dict[str, int] = {}

    # -- watchers --------------------------------------------------------------------------------------------

    def subscribe(self, match_id: str, version: int) -> Subscription:
        sub = Subscription(match_id, version)
        with self._lock:
            self._subs.setdefault(match_id, set()).add(sub)
            if self._source_pid != os.getpid():
                self._source_pid = os.getpid()
                self.listening = False
                spawn(self._run)
        self._wakeup.set()
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            subs = self._subs.get(sub.match_id)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._subs[sub.match_id]
                    self._heard.pop(sub.match_id, None)

    def publish(self, match_id: str, version: int | None = None) -> None:
        """A commit of this process (that made ``version``): its watchers of that match wake at once."""
        if version is not None:
            self._note(match_id, version)
        for sub in list(self._subs.get(match_id, ())):
            sub.event.set()

    def watching(self, match_id: str) -> bool:
        """Has this process a watcher of the match?"""
        return match_id in self._subs

    def heard(self, match_id: str) -> int | None:
        """The newest version of the match this feed heard of, while it listens (None: ask the database).
        Noted before any watcher is woken for it, so a woken watcher that reads it misses nothing."""
        return self._heard.get(match_id) if self.listening else None

    def _note(self, match_id: str, version: int) -> None:
        if match_id in self._subs and version > self._heard.get(match_id, -1):
            self._heard[match_id] = version

    def hear(self, match_id: str, change: Change | None) -> None:
        """A notification of ``change`` (None: one not of ours): noted, and handed to ``on_change``, before
        the match's watchers are woken (the caller wakes them)."""
        if change is None:                           # the watchers ask the database
            self._heard.pop(match_id, None)
            return
        if self.on_change is not None and match_id in self._subs and (change.rows or change.state):
            try:
                self.on_change(match_id, change)
            except Exception:                       # noqa: BLE001 - a watcher then reads the match itself
                log.exception("change feed: applying a notification of %s", match_id)
        self._note(match_id, change.version)

    def watched(self) -> int:
        return sum(len(s) for s in list(self._subs.values()))

    def _wake_behind(self, versions: dict[str, int]) -> None:
        for match_id, version in versions.items():
            self._note(match_id, version)
            for sub in list(self._subs.get(match_id, ())):
                if sub.version != version:
                    sub.event.set()

    def _wake_all(self) -> None:
        for subs in list(self._subs.values()):
            for sub in list(subs):
                sub.event.set()

    # -- the source: one per process ---------------------------------------------------------------------------

    def _run(self) -> None:
        try:
            if self.store.dialect == "postgresql":
                self._listen_postgres()
            else:
                self._check_sqlite()
        except Exception:                                   # noqa: BLE001 - never kill the worker
            log.exception("change feed stopped")
            time.sleep(1.0)
        finally:
            self.listening = False
            self._wake_all()             # parked watchers look for themselves (on a timer) until it listens again
            with self._lock:
                self._source_pid = -1
                if self._subs:                               # a watcher came in as it stopped: go on
                    self._source_pid = os.getpid()
                    spawn(self._run)

    def _idle_for(self, since: float) -> bool:
        return not self._subs and time.monotonic() - since > IDLE_STOP_S

    def _check_sqlite(self) -> None:
        import sqlite3

        path = self.store.engine.url.database
        conn = sqlite3.connect(path, timeout=30, check_same_thread=False)
        try:
            last = None
            seen: dict[str, int] = {}
            idle_since = time.monotonic()
            while True:
                if not self._subs:
                    if self._idle_for(idle_since):
                        return
                    self._wakeup.wait(1.0)
                    self._wakeup.clear()
                    continue
                idle_since = time.monotonic()
                self.listening = True
                (version,) = conn.execute("PRAGMA data_version").fetchone()
                fresh = [m for m in list(self._subs) if m not in seen]
                if version != last or fresh:
                    last = version
                    ids = list(self._subs)
                    versions = self.store.versions(ids)
                    seen = versions
                    self._wake_behind(versions)
                time.sleep(SQLITE_CHECK_S)
        finally:
            conn.close()

    def _listen_postgres(self) -> None:
        """One connection that LISTENs on the channel of each match watched here (``store.channel``: the
        database's trigger NOTIFYs it when the match's version changes), so that a process hears only of the
        matches it serves. After each new LISTEN the versions of those matches are read once: a commit made
        before it took effect wakes its watchers too."""
        import psycopg
        import sqlalchemy as sa

        url = sa.engine.make_url(self.store.url).set(drivername="postgresql")
        conninfo = url.render_as_string(hide_password=False)
        idle_since = time.monotonic()
        failures = 0
        while True:
            try:
                with psycopg.connect(conninfo, autocommit=True) as conn:
                    listened: dict[str, float] = {}           # match id -> when it last had a watcher here
                    prefix = self.store.channel("")
                    self.listening = True
                    failures = 0
                    while True:
                        now = time.monotonic()
                        watched = list(self._subs)
                        fresh = [m for m in watched if m not in listened]
                        for match_id in fresh:
                            conn.execute(f'LISTEN "{self.store.channel(match_id)}"')
                        for match_id in watched:
                            listened[match_id] = now
                        for match_id in [m for m, t in listened.items() if now - t > 10.0]:
                            conn.execute(f'UNLISTEN "{self.store.channel(match_id)}"')
                            del listened[match_id]
                        if fresh:
                            self._wake_behind(self.store.versions(fresh))
                        # a batch of notifications, then each match's watchers woken once for all of it
                        woken: set[str] = set()
                        for note in conn.notifies(timeout=0.25, stop_after=64):
                            match_id = note.channel[len(prefix):]
                            self.hear(match_id, Change.parse(note.payload))
                            woken.add(match_id)
                        for match_id in woken:
                            for sub in list(self._subs.get(match_id, ())):
                                sub.event.set()
                        if watched:
                            idle_since = now
                        elif self._idle_for(idle_since):
                            return
            except psycopg.Error as exc:
                self.listening = False
                self._wake_all()
                failures += 1
                log.warning("change feed: PostgreSQL listener lost (%s); reconnecting", exc)
                time.sleep(min(5.0, 0.2 * 2 ** failures))
                if self._idle_for(idle_since):
                    return


class Slots:
    """At most ``size`` holders at once (watchers held open by one process)."""

    def __init__(self, size: int) -> None:
        self.size = max(1, size)
        self.taken = 0
        self._lock = threading.Lock()

    def take(self) -> bool:
        with self._lock:
            if self.taken >= self.size:
                return False
            self.taken += 1
            return True

    def give(self) -> None:
        with self._lock:
            self.taken -= 1


class ThinkPool:
    """Bot thinking on ``threads`` native threads of this process, with room for ``queue`` more jobs waiting.

    ``reserve()`` takes a place (False: the pool and its queue are full, refuse before changing anything);
    ``run(fn, ...)`` runs a job on a pool thread under a place already held and returns its result, the caller
    (a greenlet under gevent: no thread held) waiting for it; ``release()`` gives the place back."""

    def __init__(self, threads: int, queue: int) -> None:
        self.threads = max(1, threads)
        self.places = self.threads + max(0, queue)
        self._held = 0
        self._lock = threading.Lock()
        self._pool: Any = None
        self._pid = -1

    @property
    def held(self) -> int:
        return self._held

    def reserve(self) -> bool:
        with self._lock:
            if self._held >= self.places:
                return False
            self._held += 1
            return True

    def release(self) -> None:
        with self._lock:
            self._held -= 1

    def _executor(self) -> Any:
        if self._pool is None or self._pid != os.getpid():
            with self._lock:
                if self._pool is None or self._pid != os.getpid():
                    if gevent_patched():
                        from gevent.threadpool import ThreadPool

                        self._pool = ThreadPool(self.threads)
                    else:
                        from concurrent.futures import ThreadPoolExecutor

                        self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="robotcore-bot")
                    self._pid = os.getpid()
        return self._pool

    def run(self, fn: Callable[..., T], *args: Any) -> T:
        pool = self._executor()
        if hasattr(pool, "apply"):                   # gevent's: the calling greenlet waits, the hub runs on
            result: T = pool.apply(fn, args)
            return result
        return pool.submit(fn, *args).result()  # type: ignore[no-any-return]
