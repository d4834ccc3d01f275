"""Live updates and bot thinking without a request thread each: the change feed, the watcher slots, the think pool.

- ``ChangeFeed``: watchers (long-polls and server-sent event streams) learn that a match changed through the
  database, so that a move committed by any worker process (or any host) reaches them: on PostgreSQL a listener
  connection per process (``LISTEN`` on each watched match's channel; every commit of actions sends ``NOTIFY``
  in its transaction, by the trigger ``actions_notify``, with the new version, the new action rows and the state
  bytes when they fit: ``Change``), handed to the service (``on_change``) so that no process reads the match
  back for its watchers; on SQLite a check of ``PRAGMA data_version`` every ``SQLITE_CHECK_S`` (a counter read
  without touching a table, which moves when any other connection commits), followed, only when it moved, by
  one query of the new action rows of the watched matches (handed to the service as a notification's, so that
  no watcher reads them itself; the versions of matches new to the check are read first). Commits of this
  process wake its watchers at once; the PostgreSQL listener wakes a seat's stream or a long-poll as soon as a
  notification is read, and schedules the spectators' tick once per batch of notifications (0.25 s, or 64 of
  them). Under gevent a parked stream's event is written to its socket by what heard the change (``Direct``:
  the commit, the listener or the check for a seat, the match's tick for a spectator). A spectator's
  subscription is woken at its match's next spectator tick (one timer per match and process). One source per
  process, started on the first watcher, stopped when none is left for a while.
- ``Waiter`` (streams) and ``park`` (long-polls): a watcher waits for news, for its client to leave, or for its
  timeout; under gevent the client's socket is watched by the event loop, so a thousand parked watchers cost no
  timer each (a stream's waiter keeps one socket watcher and one repeating timer for its whole life).
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
import logging
import os
import sys
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

import orjson

from robotcore.core.game import is_decimal

from .store import ActionRow

log = logging.getLogger("robotcore_api")

T = TypeVar("T")

#: How often a SQLite store's change source looks at ``PRAGMA data_version``.
SQLITE_CHECK_S = 0.05
#: The matches a SQLite check handles between two ``cooperate`` calls
CHECK_CHUNK = 8
#: A change source with no watcher for this long stops (a new watcher starts it again).
IDLE_STOP_S = 5.0
#: The phases of the spectator tick: each match ticks at one of these phases of the tick (taken from its id),
#: and the matches due at the same phase and period share one timer (a greenlet under gevent), instead of a
#: timer each; the phases still spread the matches' spectator events over the tick.
TICK_PHASES = 16


def default_workers(database_url: str, worker_class: str, cores: int) -> int:
    """The service's worker processes when ``WEB_CONCURRENCY`` does not say (``gunicorn_conf``): up to 8.

    Under ``gevent``, one per core: one event loop keeps a core busy, and each more process repeats the change
    feed's work for every match it watches (on PostgreSQL each notification parsed and applied, on SQLite each
    check's reads; the spectators' event encoded at each tick), which a thousand watchers spread over all the
    workers multiply (bench/README.md, issue 13: on PostgreSQL 1.3-1.8 ms of server CPU per move with four
    workers on two cores, 0.56-0.58 ms with two). On SQLite too, although its calls block the loop (a commit, a
    wait for another process's write lock), two workers on two cores used 12% less server CPU per move than
    four, with a p99 a third lower, at the same throughput or more (issue 14, 2026-12-07). ``gthread`` workers:
    two per core, since their threads are held by their requests, so a second process per core keeps the core
    busy while one waits. (``database_url`` is kept for a rule by database.)"""
    per_core = 1 if worker_class == "gevent" else 2
    return max(1, min(8, per_core * max(1, cores)))


#: The garbage collector's thresholds in the service's worker processes when ``ROBOTCORE_GC_THRESHOLD`` does not
#: say (``gunicorn_conf``). CPython's own young-generation threshold (700 net allocations of containers) made a
#: gevent worker holding a thousand watchers collect about 30 times a second, at about 1 ms each (the young
#: objects' references reach into the watchers' long-lived ones), 3-8% of its CPU, with pauses up to 37-103 ms
#: (its older generations collected every 7,000 and 70,000 allocations). At 20,000 a young collection stopped
#: the worker 10-16 ms, 3-4 times a run with a thousand watchers; at 5,000, 2.8-4.6 ms, 16-19 times a run, for
#: less CPU in all (27-34 ms a worker a run against 34-41). 40 young collections to a middle one keep the older
#: generations collected as seldom as at 20,000: every 200,000 and 2,000,000 net allocations (``gc.callbacks``
#: in the workers, bench/README.md).
GC_THRESHOLD = (5_000, 40, 10)


def gc_threshold(value: str | None) -> tuple[int, int, int]:
    """The collector's thresholds that ``ROBOTCORE_GC_THRESHOLD`` names: three whole numbers, comma-separated (as
    ``gc.set_threshold`` takes them; "700,10,10" is CPython's default, a first number 0 turns automatic
    collection off); unset or empty: ``GC_THRESHOLD``."""
    if value is None or not value.strip():
        return GC_THRESHOLD
    parts = value.split(",")
    if len(parts) != 3 or not all(p.strip().isdigit() for p in parts):
        raise ValueError(f"ROBOTCORE_GC_THRESHOLD must be three whole numbers such as 5000,40,10, got {value!r}")
    first, second, third = (int(p) for p in parts)
    return first, second, third


def default_db_connections(database_url: str, workers: int) -> int:
    """Hot-path database connections per process when ``ROBOTCORE_DB_CONNECTIONS`` does not say
    (``gunicorn_conf``): on PostgreSQL 64 shared by the workers, at least 4 each and at most 16 (so that the
    workers' connections, their listeners and SQLAlchemy's few stay under the server's default limit of 100:
    eight workers of 16 would not); 0 (the store's default) elsewhere."""
    return max(4, min(16, 64 // max(1, workers))) if _backend(database_url) == "postgresql" else 0


def _backend(database_url: str) -> str:
    """The database a URL names: "postgresql" for ``postgresql+psycopg://...`` (read without SQLAlchemy: the
    gunicorn configuration asks before anything else is imported)."""
    return database_url.split(":", 1)[0].split("+", 1)[0].lower()


_PATCHED = [False]


def gevent_patched() -> bool:
    """Is the standard library monkey-patched by gevent (gunicorn's gevent worker)? (Once it is, it stays:
    gevent never undoes a patch, so the answer is then kept: this is asked at every tick and watcher.)"""
    if _PATCHED[0]:
        return True
    monkey = sys.modules.get("gevent.monkey")
    _PATCHED[0] = bool(monkey is not None and monkey.is_module_patched("threading"))
    return _PATCHED[0]


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


def cooperate() -> None:
    """Under gevent, let the greenlets that are ready run before going on (a thread is preempted anyway). The
    SQLite check applies and hands out in one pass what the other workers committed in ``SQLITE_CHECK_S``:
    several milliseconds of a worker at a time (p50 3 ms, up to 13 ms with a thousand watchers), during which
    none of its requests moved, the longest wait of its moves' tail latency. In chunks of ``CHECK_CHUNK``
    matches, the requests go on in between."""
    if gevent_patched():
        import gevent

        gevent.sleep(0)


def in_chunks(items: Iterable[T]) -> Iterator[T]:
    """``items``, with a ``cooperate`` call after every ``CHECK_CHUNK`` of them."""
    for i, item in enumerate(items):
        if i % CHECK_CHUNK == CHECK_CHUNK - 1:
            cooperate()
        yield item


def later(delay: float, fn: Callable[[], None]) -> None:
    """Call ``fn`` once after ``delay`` seconds: a greenlet under gevent, a timer thread otherwise."""
    if gevent_patched():
        import gevent

        gevent.spawn_later(delay, fn)
    else:
        timer = threading.Timer(delay, fn)
        timer.daemon = True
        timer.start()


def _dispose(*watchers: Any) -> None:
    """Stop and close gevent loop watchers (io or timers), passing over None."""
    for watcher in watchers:
        if watcher is not None:
            watcher.stop()
            watcher.close()


class Waiter:
    """The waits of one watcher: for news (``event``), for its client's socket ``client_fd`` turning readable
    (it closed the connection, or sent more), or for a timeout. Like ``park``, but one event-loop watcher of
    the socket serves all the waits of the watcher's life (none made and closed at each wait), and a single
    event is waited for: the socket's watcher sets it too (``readable`` then says so, and it stops)."""

    __slots__ = ("event", "readable", "_told", "_io", "_every", "_beat")

    def __init__(self, event: Any, client_fd: int | None, every: float = 15.0) -> None:
        self.event = event
        self.readable = False
        self._told = False
        self._io: Any = None
        #: a wait without a timeout (``wait(None)``) still ends this often: one repeating timer of the event
        #: loop for the watcher's life, not one timer made at each wait
        self._every = max(0.05, every)
        self._beat: Any = None
        if client_fd is not None and gevent_patched():
            import gevent

            self._io = gevent.get_hub().loop.io(client_fd, 1)
            self._io.start(self._ready)

    def _ready(self) -> None:
        self.readable = True
        self._io.stop()
        self.event.set()

    @property
    def watching(self) -> bool:
        """Is the client's socket watched (a closed connection then wakes the wait: no need to look)?"""
        return self._io is not None and not self.readable

    def wait(self, timeout: float | None) -> str:
        """"client" (the socket turned readable, said once: there may be news too), "news" or "timeout".
        ``timeout`` None, while the socket is watched: until news, the client, or the next beat of the
        waiter's repeating timer (``every``; it returns "news" then: the caller looks at the clock)."""
        if timeout is None and self.watching:
            if self._beat is None:
                self._beat = self._io.loop.timer(self._every, self._every)
                self._beat.start(self.event.set)
            got = self.event.wait()
        else:
            got = self.event.wait(self._every if timeout is None else timeout)
        if self.readable and not self._told:
            self._told = True
            return "client"
        return "news" if got else "timeout"

    def close(self) -> None:
        _dispose(self._io, self._beat)
        self._io = self._beat = None


class Direct:
    """A stream's socket, written by the change feed itself while the stream's greenlet is parked (``parked``):
    a spectator's by its match's spectator tick (``ChangeFeed.on_tick``; the event encoded once for the match's
    spectators), a seat's as the commit is heard (``ChangeFeed.on_seats``). The event goes to the socket in one
    non-blocking send, in the HTTP/1.1 chunk the server would have framed it in, without waking the stream's
    greenlet to go through the WSGI iterator and the server's write path. What a full
    socket does not take waits in ``backlog``, written by the stream's greenlet (woken for it) before anything
    else; a socket that failed (the client left) is ``failed`` and its greenlet is woken to end the stream.
    Only under gevent (one thread: the tick and the greenlet never run at once) on a gunicorn HTTP/1.1
    response, after the stream's first write (the headers are out)."""

    __slots__ = ("sock", "chunked", "parked", "backlog", "failed")

    def __init__(self, sock: Any, chunked: bool) -> None:
        self.sock = sock                     # the native socket beneath gevent's (non-blocking)
        self.chunked = chunked
        self.parked = False
        self.backlog = b""
        self.failed = False

    def write(self, frame: bytes) -> str:
        """Send ``frame`` without waiting: "sent", "partial" (the rest in ``backlog``: wake the greenlet) or
        "no" (nothing written: the greenlet sends it itself; "failed" is set when the socket is broken)."""
        if not self.parked or self.backlog or self.failed:
            return "no"
        data = b"%X\r\n%s\r\n" % (len(frame), frame) if self.chunked else frame
        try:
            n = self.sock.send(data)
        except (BlockingIOError, InterruptedError):
            return "no"
        except OSError:
            self.failed = True
            return "no"
        if n < len(data):
            self.backlog = data[n:]
            return "partial"
        return "sent"


class Subscription:
    """A watcher's registration on one match, as ``seat`` (None: the public view): ``event`` is set when the
    match may have moved past ``version`` (the version the watcher last sent; it updates it). A
    ``spectator``'s is set at the match's next spectator tick (``ChangeFeed.tick``) rather than at once. A
    stream's ``direct`` (``Direct``), when it has one, lets the feed write its event to its socket instead of
    waking it: the spectator tick for a spectator, the wake itself for a seat (``ChangeFeed.on_seats``)."""

    __slots__ = ("match_id", "version", "event", "spectator", "seat", "direct")

    def __init__(self, match_id: str, version: int, spectator: bool = False, seat: int | None = None) -> None:
        self.match_id = match_id
        self.version = version
        self.event = threading.Event()
        self.spectator = spectator
        self.seat = seat
        self.direct: Direct | None = None


@dataclass(frozen=True)
class Change:
    """What a PostgreSQL notification says of a commit (the trigger ``actions_notify``'s payload), or the SQLite
    check of the commits since its last look: the version made, the action rows (``store.ActionRow``s, in
    order; None when the payload left them out) and the state bytes after them (None when left out: larger
    than a NOTIFY holds, or not known: the SQLite check reads the rows only)."""

    version: int
    rows: list[Any] | None = None
    state: bytes | None = None
    updated_at: float | None = None

    @classmethod
    def parse(cls, payload: str) -> Change | None:
        """The change a payload announces; None when it is not one of ours (the watchers then ask the
        database). A bare number is the version alone (the trigger of a server not yet upgraded)."""
        if is_decimal(payload) and len(payload) <= 18:
            return cls(int(payload))
        try:                        # (orjson: a fifth of the standard library's time, in every worker)
            doc = orjson.loads(payload)
            version = int(doc["v"])
            rows = None
            if "a" in doc:
                rows = [ActionRow(int(v), int(seat), int(action), bool(by_bot), float(at))
                        for v, seat, action, by_bot, at in doc["a"]]
                if not rows or rows[-1].version != version:
                    rows = None
        except (ValueError, TypeError, KeyError):   # (orjson.JSONDecodeError is a ValueError)
            return None
        state = updated = None
        if rows is not None and isinstance(doc.get("s"), str):
            try:                                    # (the trigger sends it without line breaks)
                state = base64.b64decode(doc["s"], validate=True) or None
                updated = float(doc["u"]) if state is not None and doc.get("u") is not None else None
            except (ValueError, TypeError, binascii.Error):
                state = updated = None              # the rows are still good: applied to the state held
        return cls(version, rows, state, updated)


class ChangeFeed:
    """Wakes this process's watchers of a match when it changes, whichever process or host committed it."""

    def __init__(self, store: Any, on_change: Callable[[str, Change], None] | None = None,
                 tick: float = 0.0) -> None:
        self.store = store
        #: spectators' subscriptions are woken at most once per tick of this many seconds, all those of a match
        #: at once (they then share the snapshot and the event's encoding), each match at its own phase of the
        #: tick (all the matches' spectators do not wake in one burst); one timer per match, not per watcher
        self.tick = tick
        self._due: set[str] = set()
        #: the matches whose spectators are due at each (phase, period of the tick): one timer per key
        self._due_at: dict[tuple[int, int], list[str]] = {}
        #: called (in the listener, before the match's watchers are woken) with each change a notification
        #: announced: the service brings its snapshot of the match up to date from it, without a query
        self.on_change = on_change
        #: called at a match's spectator tick with the version heard and the spectators behind it; returns
        #: those to wake: the service brings its snapshot there (one read, in the timer), so that the spectators
        #: woken together find it, and writes the event itself to the streams it can (``Direct``)
        self.on_tick: Callable[[str, int, list[Subscription]], list[Subscription]] | None = None
        #: called with a match's seat streams parked with a socket (``Subscription.direct``) when they must
        #: wake, the match's snapshot already brought to what was heard (a commit here, a notification): the
        #: service writes their event to their sockets itself, and returns those to wake still
        self.on_seats: Callable[[str, list[Subscription]], list[Subscription]] | None = None
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

    #: The PostgreSQL listener's batch: spectators' ticks are scheduled once per batch of notifications (seats
    #: and polls wake as each is read)
    PG_BATCH_S = 0.25
    PG_BATCH_NOTES = 64

    def subscribe(self, match_id: str, version: int, spectator: bool = False,
                  seat: int | None = None) -> Subscription:
        sub = Subscription(match_id, version, spectator and self.tick > 0, seat)
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
        self._wake(match_id)

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

    def _wake(self, match_id: str, version: int | None = None, seats: bool = True) -> None:
        """Wake the match's watchers (those not at ``version`` already): the seats' and polls' at once (not
        ``seats``: they were already), the spectators' at the match's next tick."""
        subs = self._subs.get(match_id)
        if not subs:
            return
        deferred = False
        now = []
        for sub in list(subs):
            if version is not None and sub.version == version:
                continue
            if sub.spectator:
                deferred = True
            elif seats:
                now.append(sub)
        if now:
            self._wake_now(match_id, now)
        if deferred and match_id not in self._due:
            self._due.add(match_id)
            tick = self.tick
            slot = zlib.crc32(match_id.encode()) % TICK_PHASES
            phase = slot / TICK_PHASES * tick
            period = int((time.monotonic() - phase) // tick) + 1         # the next tick at that phase
            key = (slot, period)
            with self._lock:                          # (threads: the timer may be taking the list)
                due = self._due_at.get(key)
                if due is not None:
                    due.append(match_id)              # its timer is set already
                else:
                    self._due_at[key] = [match_id]
            if due is None:
                later(max(0.0, phase + period * tick - time.monotonic()), lambda: self._tick_due(key))

    def _wake_seats(self, match_id: str) -> None:
        """Wake the match's seats and polls (not its spectators, whose wake waits for the batch's end: waking
        them sooner would schedule their tick sooner, and coalesce fewer commits into each event)."""
        now = [sub for sub in list(self._subs.get(match_id, ())) if not sub.spectator]
        if now:
            self._wake_now(match_id, now)

    def _wake_now(self, match_id: str, subs: list[Subscription]) -> None:
        """Wake these seats and polls of the match: each seat stream parked with a socket gets its event from
        ``on_seats`` (no greenlet woken), the others, and those it could not write to, are woken."""
        direct: list[Subscription] = []
        for sub in subs:
            if sub.direct is not None and sub.direct.parked and self.on_seats is not None:
                direct.append(sub)
            else:
                sub.event.set()
        if direct:
            try:
                direct = self.on_seats(match_id, direct)            # type: ignore[misc]
            except Exception:                       # noqa: BLE001 - the streams then send it themselves
                log.exception("change feed: writing the seats' events of %s", match_id)
            for sub in direct:
                sub.event.set()

    def _tick_due(self, key: tuple[int, int]) -> None:
        """The spectator ticks of the matches due at this phase and period, one after the other."""
        with self._lock:
            due = self._due_at.pop(key, [])
        for match_id in due:
            try:
                self._tick(match_id)
            except Exception:                       # noqa: BLE001 - the other matches still tick
                log.exception("change feed: the spectator tick of %s", match_id)

    def _tick(self, match_id: str) -> None:
        self._due.discard(match_id)
        heard = self._heard.get(match_id)
        behind = [sub for sub in list(self._subs.get(match_id, ()))
                  if sub.spectator and (heard is None or sub.version != heard)]
        if self.on_tick is not None and heard is not None and behind:
            try:                    # the match at that version made ready once, before its spectators wake
                behind = self.on_tick(match_id, heard, behind)
            except Exception:                       # noqa: BLE001 - the spectators then read it themselves
                log.exception("change feed: preparing %s for its spectators", match_id)
        for sub in behind:
            sub.event.set()

    def _wake_behind(self, versions: dict[str, int], cooperative: bool = False) -> None:
        """Wake the watchers of these matches not at these versions (``cooperative``: letting the process's other
        work run every ``CHECK_CHUNK`` matches, see ``cooperate``)."""
        for match_id, version in in_chunks(versions.items()) if cooperative else versions.items():
            self._note(match_id, version)
            self._wake(match_id, version)

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
                    # the versions of the matches new here; for the others, one query of their new action rows
                    # (a version moves only with its log), which says their versions too and is handed to the
                    # service as a notification's rows are (``hear``): its snapshots follow without a read per
                    # watcher
                    versions = self.store.versions(fresh) if fresh else {}
                    known = {m: seen[m] for m in list(self._subs) if m in seen}
                    if known:
                        for match_id, rows in in_chunks(self.store.actions_after(known).items()):
                            versions[match_id] = rows[-1].version
                            self.hear(match_id, Change(rows[-1].version, rows))
                        for match_id, at in known.items():
                            versions.setdefault(match_id, at)
                    seen = versions
                    self._wake_behind(versions, cooperative=True)
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
        prefix = self.store.channel("")
        woken: dict[str, None] = {}                  # the matches heard of in this batch
        notes = [0]                                  # the notifications of this batch
        burst: set[str] = set()                      # the matches heard of since the last read of the socket

        def heard(channel: str, payload: str) -> None:      # each notification, in order
            match_id = channel[len(prefix):]
            self.hear(match_id, Change.parse(payload))
            woken[match_id] = None
            burst.add(match_id)
            notes[0] += 1

        def handled(note: Any) -> None:              # psycopg's notify handler (a LISTEN's own notifications)
            heard(note.channel, note.payload)

        while True:
            try:
                with psycopg.connect(conninfo, autocommit=True) as conn:
                    # every notification goes to the handler: those that come while a LISTEN is executed, and
                    # those this loop reads (``_ReadySocket``: one event-loop watcher of the connection's socket
                    # for its life under gevent, where psycopg's ``notifies()`` made and closed a poll object,
                    # its watchers and a timer at each wait)
                    conn.add_notify_handler(handled)
                    pgconn = conn.pgconn
                    encoding = conn.info.encoding     # (what psycopg's handler decodes with, asked once)
                    ready = _ReadySocket(pgconn.socket)
                    listened: dict[str, float] = {}           # match id -> when it last had a watcher here
                    self.listening = True
                    failures = 0
                    try:
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
                            # a batch of notifications (0.25 s, or 64 of them), then each match's watchers
                            # woken once for all of it, as with psycopg's notifies(timeout=0.25, stop_after=64)
                            deadline = now + self.PG_BATCH_S
                            notes[0] = 0
                            while notes[0] < self.PG_BATCH_NOTES and (left := deadline - time.monotonic()) > 0:
                                ready.wait(left)
                                pgconn.consume_input()            # (raises when the connection is lost)
                                while (note := pgconn.notifies()) is not None:
                                    # decoded as psycopg's handler would, without its Notify object
                                    heard(note.relname.decode(encoding), note.extra.decode(encoding))
                                while burst:                    # seats and polls hear at once
                                    self._wake_seats(burst.pop())
                            ready.end()                         # (the batch's timer)
                            while woken:
                                match_id = next(iter(woken))
                                del woken[match_id]
                                # (the seats and polls were woken as each notification was read: waking them
                                # again here would only make each look and find nothing new)
                                self._wake(match_id, seats=False)
                            if watched:
                                idle_since = now
                            elif self._idle_for(idle_since):
                                return
                    finally:
                        ready.close()
            except (psycopg.Error, sa.exc.OperationalError) as exc:   # (the versions' read is the store's)
                self.listening = False
                self._wake_all()
                failures += 1
                log.warning("change feed: PostgreSQL listener lost (%s); reconnecting", exc)
                time.sleep(min(5.0, 0.2 * 2 ** failures))
                if self._idle_for(idle_since):
                    return


class _ReadySocket:
    """Waits for a socket to turn readable, up to a timeout: under gevent one event-loop watcher of the socket
    for its whole life (it sets an event; a wait is one event wait) and one timer per batch of waits (the first
    wait's timeout starts it, ``end`` stops it: not a gevent ``Timeout`` made at each wait), else ``select``."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._io: Any = None
        self._event: Any = None
        self._timer: Any = None
        self._spent: Any = None
        if gevent_patched():
            import gevent

            self._event = threading.Event()
            self._io = gevent.get_hub().loop.io(fd, 1)
            self._io.start(self._event.set)

    def wait(self, timeout: float) -> None:
        """Until the socket is readable or ``timeout`` is over; under gevent, the timeout of the batch's first
        wait holds for the next ones until it rings or ``end`` (a later wait's own is not looked at)."""
        if self._io is not None:
            if self._timer is None:
                if self._spent is not None:
                    self._spent.close()
                    self._spent = None
                self._timer = self._io.loop.timer(max(0.0, timeout))
                self._timer.start(self._ring)
            self._event.wait()
            self._event.clear()
        else:
            import select

            select.select([self.fd], [], [], timeout)

    def _ring(self) -> None:
        # the next wait starts another timer; this one is closed then, outside its own callback
        self._spent, self._timer = self._timer, None
        self._event.set()

    def end(self) -> None:
        """The batch is over: its timer is not needed."""
        _dispose(self._timer, self._spent)
        self._timer = self._spent = None

    def close(self) -> None:
        self.end()
        _dispose(self._io)
        self._io = None


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
