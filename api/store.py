"""Persistence: one row per match (state snapshot, version), an append-only action log, idempotency records.

SQLAlchemy Core over any database it speaks: a SQLite file by default, PostgreSQL by URL, the same statements
on both. What the service relies on:

- **Compare-and-set.** A move is committed by ``UPDATE matches SET version = v + 1, state = ... WHERE id = ?
  AND version = v``; the action row and the idempotency record go in the same transaction. When another
  request got there first the update touches no row, the transaction is rolled back and the caller learns it
  lost (``commit`` returns False). On PostgreSQL (READ COMMITTED) a concurrent update of the same row waits
  for the first to commit and then re-checks the condition, so exactly one wins there too.
- **Append-only log.** ``actions`` has the primary key (match_id, version): one action per version, never two.
  Triggers refuse every UPDATE and DELETE on it. Replaying the seed and the log gives the stored state bytes
  (``verify_replay``).
- **The log's tables are clustered by their keys** on SQLite (``WITHOUT ROWID``): an action or an
  Idempotency-Key row is one B-tree entry, not a row plus an index entry, so a commit writes two pages fewer.
  (Stores created before keep their tables: the statements are the same on both.)
- **Workers share nothing but the database.** The engine is created lazily per process (after gunicorn's
  fork); SQLite runs in WAL mode with a busy timeout so several processes can read while one writes, its
  writers take turns on a lock file and its checkpoints run in a thread (``_SQLiteWriters``).
"""

from __future__ import annotations

import contextlib
import gc
import json
import logging
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

try:
    import fcntl
except ImportError:                              # (Windows)
    fcntl = None  # type: ignore[assignment]

__all__ = ["Store", "MatchRecord", "SeatSpec", "ActionRow", "IdempotencyRecord", "NewActions", "default_database_url"]

log = logging.getLogger("robotcore_api")

metadata = sa.MetaData()

matches = sa.Table(
    "matches",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("params", sa.Text, nullable=False),          # JSON object of plain game parameters
    sa.Column("seed", sa.BigInteger, nullable=False),      # secret until the end (it decides every deal)
    sa.Column("seats", sa.Text, nullable=False),           # JSON list of SeatSpec (token digests, bots)
    sa.Column("version", sa.Integer, nullable=False),      # number of actions applied
    sa.Column("state", sa.LargeBinary, nullable=False),    # State.to_bytes() after `version` actions
    sa.Column("finished", sa.Boolean, nullable=False),
    sa.Column("bots_due", sa.Boolean, nullable=False),     # a bot seat must act now
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
)

actions = sa.Table(
    "actions",
    metadata,
    sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True),    # the match version this action produced (1, 2...)
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action", sa.Integer, nullable=False),
    sa.Column("by_bot", sa.Boolean, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sqlite_with_rowid=False,
)

idempotency = sa.Table(
    "idempotency",
    metadata,
    sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("key", sa.String(255), primary_key=True),
    sa.Column("fingerprint", sa.String(64), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),      # the version the move produced
    sa.Column("end_version", sa.Integer, nullable=False),  # the version its answer showed (after bot moves)
    sa.Column("created_at", sa.Float, nullable=False),
    sqlite_with_rowid=False,
)

#: Matches listed in the lobby (created with ``listed: true``): a table of its own, so that a store made before
#: it existed gains it from ``create_schema`` without a migration of ``matches``.
listed = sa.Table(
    "listed",
    metadata,
    sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
    sa.Column("created_at", sa.Float, nullable=False, index=True),
)

# The hot path (read a match, read its version, look up an Idempotency-Key, commit a move, and once per match
# create it and read its log) runs plain standard SQL on DB-API connections (see Store._dbapi): the same
# statements on SQLite and PostgreSQL, only the placeholder differs. SQLAlchemy Core's per-statement machinery
# costs about 0.1 ms, as much as SQLite itself, and its rows more per row. Everything else goes through Core.
_MATCH_COLUMNS = "id, game, params, seed, seats, version, state, finished, bots_due, created_at, updated_at"
_SQL = {
    "select_match": f"SELECT {_MATCH_COLUMNS} FROM matches WHERE id = ?",
    "insert_match": f"INSERT INTO matches ({_MATCH_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "select_actions": "SELECT version, seat, action, by_bot, created_at FROM actions "
                      "WHERE match_id = ? AND version > ? ORDER BY version",
    "select_version": "SELECT version FROM matches WHERE id = ?",
    "cas_update": "UPDATE matches SET version = ?, state = ?, finished = ?, bots_due = ?, updated_at = ? "
                  "WHERE id = ? AND version = ?",
    "insert_action": "INSERT INTO actions (match_id, version, seat, action, by_bot, created_at) "
                     "VALUES (?, ?, ?, ?, ?, ?)",
    "insert_idempotency": "INSERT INTO idempotency (match_id, seat, key, fingerprint, version, end_version, "
                          "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    "select_idempotency_any_seat": "SELECT seat, fingerprint, version, end_version FROM idempotency "
                                   "WHERE match_id = ? AND key = ?",
}
#: SQLite connections inherited through a fork (see ``Store._dbapi``): referenced so that they are never closed
_INHERITED: list[tuple[int, Any, Any]] = []

_UPDATE_IDEMPOTENCY_END = (
    idempotency.update()
    .where(idempotency.c.match_id == sa.bindparam("b_id"), idempotency.c.seat == sa.bindparam("b_seat"),
           idempotency.c.key == sa.bindparam("b_key"))
    .values(end_version=sa.bindparam("end"))
)

#: How long a SQLite writer waits for the others (``_SQLiteWriters``, then SQLite's busy handler), in seconds.
SQLITE_BUSY_S = 30.0

#: The size a SQLite log's file is cut back to when it is written again from its start, in bytes (it grows past
#: it while a reader holds an old snapshot: ``_SQLiteWriters``). Two workers write about 7 MB between checkpoints.
SQLITE_LOG_LIMIT = 32 << 20

#: Largest NOTIFY payload sent (PostgreSQL refuses one of 8000 bytes or more): beyond it the state is left out.
NOTIFY_LIMIT = 7900

#: The trigger function of ``actions_notify``: one NOTIFY per statement that appends actions, per match, with
#: the JSON payload ``{"v": version, "a": [[version, seat, action, by_bot, created_at], ...], "f": finished,
#: "b": bots_due, "u": updated_at, "s": base64 state bytes}``: the new rows, and the match as the transaction
#: leaves it when its row already holds the last of them (the move's compare-and-set comes first); "s" and the
#: rest are left out when the match row is not at that version or the payload would pass ``NOTIFY_LIMIT`` (the
#: listeners then apply the rows to the state they hold, or read the match).
NOTIFY_SQL = (
    "CREATE OR REPLACE FUNCTION robotcore_notify_actions() RETURNS trigger AS $$ "
    "DECLARE mid text; rows_json json; top integer; m record; payload text; "
    "BEGIN "
    "FOR mid IN SELECT DISTINCT match_id FROM new_rows LOOP "
    "SELECT json_agg(json_build_array(version, seat, action, by_bot, created_at) ORDER BY version), max(version) "
    "INTO rows_json, top FROM new_rows WHERE match_id = mid; "
    "SELECT version, state, finished, bots_due, updated_at INTO m FROM matches WHERE id = mid; "
    "payload := NULL; "
    "IF FOUND AND m.version = top THEN "
    "payload := json_build_object('v', top, 'a', rows_json, 'f', m.finished, 'b', m.bots_due, "
    "'u', m.updated_at, 's', translate(encode(m.state, 'base64'), E'\\n', ''))::text; "
    "END IF; "
    f"IF payload IS NULL OR octet_length(payload) > {NOTIFY_LIMIT} THEN "
    "payload := json_build_object('v', top, 'a', rows_json)::text; "
    f"IF octet_length(payload) > {NOTIFY_LIMIT} THEN payload := json_build_object('v', top)::text; END IF; "
    "END IF; "
    "PERFORM pg_notify('robotcore_' || mid, payload); "
    "END LOOP; "
    "RETURN NULL; END; $$ LANGUAGE plpgsql"
)

# The log is append-only, enforced by the database itself.
_SQLITE_TRIGGERS = [
    "CREATE TRIGGER IF NOT EXISTS actions_no_update BEFORE UPDATE ON actions "
    "BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END",
    "CREATE TRIGGER IF NOT EXISTS actions_no_delete BEFORE DELETE ON actions "
    "BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END",
]
_POSTGRES_TRIGGERS = [
    "CREATE OR REPLACE FUNCTION robotcore_append_only() RETURNS trigger AS $$ "
    "BEGIN RAISE EXCEPTION 'the action log is append-only'; END; $$ LANGUAGE plpgsql",
    "DROP TRIGGER IF EXISTS actions_append_only ON actions",
    "CREATE TRIGGER actions_append_only BEFORE UPDATE OR DELETE ON actions "
    "FOR EACH ROW EXECUTE FUNCTION robotcore_append_only()",
    # every commit of actions is announced on its match's channel (live.ChangeFeed LISTENs to the matches it
    # watches), by the database itself, in the transaction that makes it: delivered if and when it commits.
    # The payload (``NOTIFY_SQL``) carries what the watchers need, so that no listening process reads it back.
    "DROP TRIGGER IF EXISTS matches_notify ON matches",             # (the version alone, before)
    "DROP FUNCTION IF EXISTS robotcore_notify()",
    NOTIFY_SQL,
    "DROP TRIGGER IF EXISTS actions_notify ON actions",
    "CREATE TRIGGER actions_notify AFTER INSERT ON actions REFERENCING NEW TABLE AS new_rows "
    "FOR EACH STATEMENT EXECUTE FUNCTION robotcore_notify_actions()",
]


def _close_quietly(conn: Any) -> None:
    try:
        conn.close()
    except Exception:                                  # noqa: BLE001 - closing a connection already broken
        pass


def _rows_of_six(rows: int, placeholder: str) -> str:
    """The VALUES rows of an action INSERT: ``rows`` times six placeholders."""
    return ", ".join(["(" + ", ".join([placeholder] * 6) + ")"] * rows)


def _action_params(match_id: str, expected_version: int, new: NewActions, now: float) -> list[Any]:
    """The action rows' values of a commit (versions expected+1, expected+2...), in ``_rows_of_six``'s order."""
    return [x for i, (seat, action, by_bot) in enumerate(new.entries)
            for x in (match_id, expected_version + 1 + i, seat, action, by_bot, now)]


def _idempotency_params(match_id: str, expected_version: int, new: NewActions, key: str,
                        fingerprint: str | None, now: float) -> list[Any]:
    """The Idempotency-Key row's values of a commit (the seat of its first action; the version it made and the
    version its answer shows, before bot moves played later)."""
    return [match_id, new.entries[0][0], key, fingerprint or "", expected_version + 1,
            expected_version + len(new.entries), now]


#: The most matches one statement of ``Store.versions`` or ``Store.actions_after`` names.
_MANY_MAX = 256


def _padded(items: list[Any]) -> list[Any]:
    """``items`` (not empty) lengthened to the next of 8, 16, 32... ``_MANY_MAX`` by repeating its last: a
    statement naming that many matches then has one of six texts, which each connection compiles once and keeps
    in its statement cache. The feed's queries name every watched match, whose number changes with every match
    that ends or gains its first watcher, and compiling a statement of a hundred terms anew at each check cost
    ten times its run (a repeated term changes no answer: an IN list or an OR names the same rows twice)."""
    size = 8
    while size < len(items):
        size *= 2
    return items + [items[-1]] * (size - len(items))


def default_database_url() -> str:
    """``ROBOTCORE_DATABASE_URL`` if set, else the SQLite file ``robotcore.db`` in the working directory."""
    return os.environ.get("ROBOTCORE_DATABASE_URL") or "sqlite:///robotcore.db"


@dataclass(frozen=True)
class SeatSpec:
    """Who plays a seat: a human (token digest) or a built-in bot (name, time budget)."""

    type: str                          # "human" | "bot"
    token_hash: str | None = None
    bot: str | None = None
    budget_ms: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "token_hash": self.token_hash, "bot": self.bot, "budget_ms": self.budget_ms}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SeatSpec:
        return cls(data["type"], data.get("token_hash"), data.get("bot"), data.get("budget_ms"))


@dataclass(frozen=True)
class IdempotencyRecord:
    fingerprint: str
    version: int                       # the version the move produced
    end_version: int                   # the version its answer showed


@dataclass
class MatchRecord:
    id: str
    game: str
    params: dict[str, Any]
    seed: int
    seats: list[SeatSpec]
    version: int
    state: bytes
    finished: bool
    bots_due: bool
    created_at: float = field(default_factory=time.time)
    updated_at: float = field(default_factory=time.time)
    #: the moves made with the Idempotency-Key asked for when the record was read, by seat (None: not asked)
    idempotent: dict[int, IdempotencyRecord] | None = None

    def copy(self) -> MatchRecord:
        """A shallow copy (``copy.copy`` goes through ``__reduce_ex__``: several times the cost, on every move)."""
        new = MatchRecord.__new__(MatchRecord)
        new.__dict__.update(self.__dict__)
        return new


class ActionRow(NamedTuple):
    """One row of the action log. (A named tuple, immutable like the frozen dataclass it was, made in a tenth
    of its time: the log of a finished Robotrick match is 126 of them, read on every ``GET .../log``.)"""

    version: int
    seat: int
    action: int
    by_bot: bool
    created_at: float


class NewActions(NamedTuple):
    """Actions to commit together with compare-and-set (a seat's move and the bot moves it made due). (A named
    tuple, as ``ActionRow``: one is made for every commit.)"""

    entries: list[tuple[int, int, bool]]    # (seat, action, by_bot), in order
    state: bytes                            # the state after the last one
    finished: bool
    bots_due: bool
    #: the rows' commit time (``time.time()``); 0: the store's clock at the commit
    created_at: float = 0.0


class _Use:
    """``with store._dbapi() as conn``: one of the store's DB-API connections for the block (``Store._dbapi``)."""

    __slots__ = ("_store", "_entry")

    def __init__(self, store: Store) -> None:
        self._store = store
        self._entry: tuple[int, Any, Any] | None = None

    def __enter__(self) -> Any:
        self._entry = entry = self._store._take()
        return entry[1]

    def __exit__(self, exc_type: Any, exc: BaseException | None, tb: Any) -> None:
        entry, self._entry = self._entry, None
        assert entry is not None
        self._store._done(entry, exc)


def _thread_sleep(seconds: float) -> None:
    """``time.sleep`` of the thread itself, gevent's patch or not (``_SQLiteWriters``)."""
    sleep = time.sleep
    if "gevent" in sys.modules:
        from gevent import monkey

        sleep = monkey.get_original("time", "sleep")
    sleep(seconds)


def _in_os_thread(fn: Callable[[], None]) -> None:
    """Run ``fn`` in a thread of the operating system, a gevent worker's too (its thread pool), so that a long
    call in C that lets go of the GIL leaves the process's event loop running. ``fn`` must use nothing gevent
    patches (locks, sockets, logging)."""
    if "gevent" in sys.modules:
        from gevent import monkey

        if monkey.is_module_patched("threading"):
            import gevent

            gevent.get_hub().threadpool.spawn(fn)
            return
    threading.Thread(target=fn, daemon=True).start()


def _unlock(fd: int) -> None:
    """Release the ``flock`` of ``fd``'s open file description (held or not)."""
    try:
        fcntl.flock(fd, fcntl.LOCK_UN)
    except OSError:
        pass


class _SQLiteWriters:
    """The SQLite writers of a store: ``with store._write_lock`` around each transaction of the hot path, one
    writer at a time, and the WAL's checkpoints out of their way.

    **One at a time.** SQLite lets one connection write at a time, and a connection that finds another process
    writing waits in SQLite's busy handler, which sleeps in C for 1, 2, 5, 10... ms: in a gevent worker that
    sleep stops every request of the process, although the other writer's transaction takes about 60 µs. Here
    this process's writers queue on a thread lock (a gevent lock in a patched worker), and the processes on an
    advisory ``flock`` of the file ``<database>-writer``, waited for in steps of 50 µs: the worker still
    waits, but for as long as the other writer holds the lock, not for SQLite's next step of sleep; past
    ``WAIT_ALONE_S`` (the holder is checkpointing, or the system has stopped it) it waits in gevent's sleep,
    and the worker's other requests go on meanwhile. The holder never collects garbage (a collection there
    held every worker's writers). SQLite's own locking is unchanged beneath it (another program writing the
    file is still waited for by the busy handler), and after ``SQLITE_BUSY_S`` without the lock a writer goes
    on to SQLite's wait. Where ``fcntl`` is missing (Windows), the thread lock alone. With both parts
    (``bench/service_load.py`` with 1,000 watchers on SQLite, two workers, commits timed in the workers), the
    commits that held their worker over 1 ms went from 350-440 to 46-56 per worker in a run (630-795 ms of it
    to 67-80 ms), the longest from 9-27 ms to 4-6 ms, and a commit's p99 from 3.3 to 1.0 ms.

    **Checkpoints in a thread.** A WAL database copies its log back into the database file now and then (a
    checkpoint, with a sync of both files). SQLite does it in the commit that takes the log past 1,000 pages,
    which then took 2-7 ms, the whole worker stopped and (with the lock above) the other workers' writers
    waiting too: one commit in about 300. Here connections do not checkpoint by themselves
    (``wal_autocheckpoint=0``, set in ``Store._make_engine``); after every ``CHECKPOINT_WRITES`` writes a
    process runs a passive checkpoint on a connection of its own in a thread of the operating system
    (``_in_os_thread``): SQLite lets go of the GIL for it, the event loop and the writers go on, and a passive
    checkpoint waits for no one. Then the frames written meanwhile are copied with the writers held off (the
    lock file, ``_checkpoint_tail``): SQLite writes its log again from the start only after a checkpoint that
    left nothing, which a checkpoint with writers going on almost never does (the log grew by every page
    written). A reader still on an older snapshot, or another process's checkpoint running at that moment,
    can still leave frames behind: then a later checkpoint restarts the log.
    (Writes are counted, not the log's file size: a log written again from its start keeps its file's size,
    up to ``journal_size_limit``.)"""

    __slots__ = ("_path", "_threads", "_fd", "_pid", "_writes", "_checkpointing", "_failed", "_collecting")

    #: how long a writer waits for the lock in the thread's own steps of 50 µs (the worker stopped whole, for a
    #: lock that is held about 60 µs); past it, in steps of 0.5 ms of ``time.sleep``, gevent's in a worker
    WAIT_ALONE_S = 0.001

    #: a process's writes between two of its checkpoints (a move's commit writes 2-4 pages: about SQLite's own
    #: 1,000 pages between checkpoints with one worker, half that with two)
    CHECKPOINT_WRITES = 256

    def __init__(self, database: str) -> None:
        self._path = database
        self._threads = threading.Lock()
        self._fd = -1
        self._pid = -1
        self._writes = 0
        self._checkpointing = False
        self._failed: BaseException | None = None
        self._collecting = False                # (whether the collector was on when the holder took the lock)

    def _file(self) -> int:
        """This process's descriptor of the lock file (a descriptor inherited through a fork shares its lock
        with the parent's: each process opens its own)."""
        pid = os.getpid()
        if self._pid != pid:
            self._fd = self._open_file()
            self._pid = pid
            self._checkpointing = False          # (a checkpoint of the parent's is not this process's)
        return self._fd

    def _open_file(self) -> int:
        """A new descriptor, and open file description, of the lock file ``<database>-writer`` (the lock
        belongs to the description: two of them exclude each other, even in one process)."""
        return os.open(self._path + "-writer", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)

    def __enter__(self) -> None:
        self._threads.acquire()
        try:
            self._take_file()
        except BaseException:                    # (a greenlet killed or timed out in gevent's sleep there)
            self._threads.release()
            raise
        # no collection while the lock is held: a young collection takes milliseconds in a busy worker, and
        # every writer of every worker would wait for it (about one in 45 began here: bench/service_split.py)
        self._collecting = gc.isenabled()
        gc.disable()

    def _take_file(self) -> None:
        """This process's turn on the lock file (or none where there is no ``fcntl`` or no file)."""
        if fcntl is None:
            return
        try:
            fd = self._file()
        except OSError:                          # (a read-only directory: SQLite's own wait alone)
            return
        deadline = None
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                now = time.monotonic()
                if deadline is None:
                    deadline = now + SQLITE_BUSY_S
                    alone_until = now + self.WAIT_ALONE_S
                elif now > deadline:             # held that long: SQLite's busy handler decides
                    return
                if now < alone_until:
                    _thread_sleep(0.00005)
                else:                            # (gevent's sleep in a worker: its other requests go on)
                    time.sleep(0.0005)
            except OSError:
                return

    def __exit__(self, exc_type: Any, exc: BaseException | None, tb: Any) -> None:
        try:
            if fcntl is not None and self._pid == os.getpid():
                _unlock(self._fd)
        finally:
            if self._collecting:
                gc.enable()
            self._threads.release()
        self._writes += 1
        if self._writes >= self.CHECKPOINT_WRITES and not self._checkpointing:
            self._writes = 0
            try:
                self.start_checkpoint()
            except Exception:                    # noqa: BLE001 - the write is done; the next ones try again
                self._checkpointing = False
                log.exception("SQLite checkpoint of %s: not started", self._path)

    def start_checkpoint(self) -> None:
        """A passive checkpoint in a thread of the operating system (``_checkpointing`` while it runs). A
        failure of the last one is logged here, in the process's own thread."""
        failed, self._failed = self._failed, None
        if failed is not None:
            log.warning("SQLite checkpoint of %s failed: %s", self._path, failed)
        self._checkpointing = True
        _in_os_thread(self._checkpoint)

    def _checkpoint(self) -> None:
        """A passive checkpoint on a connection of its own (in a thread of the operating system)."""
        try:
            conn = sqlite3.connect(self._path, timeout=SQLITE_BUSY_S, check_same_thread=False)
            try:
                conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()     # the bulk, the writers going on
                self._checkpoint_tail(conn)
            finally:
                conn.close()
        except BaseException as exc:             # noqa: BLE001 - told in the process's thread (no logging here)
            self._failed = exc
        finally:
            self._checkpointing = False

    def _checkpoint_tail(self, conn: sqlite3.Connection) -> None:
        """The frames written while the bulk was copied, copied with this store's writers held off (the lock
        file on a description of its own, which excludes this process's writers too): the log is then whole in
        the database (unless a reader holds an older snapshot, or another process's checkpoint runs now), and
        the next writer starts it again from its beginning. Otherwise, with writes going on, checkpoints
        ended with frames left over, SQLite did not go back to the log's start, and the log grew by every page
        written (up to 136 MB in one run of ``bench/service_load.py``, against 6-8 MB now). The writers wait
        for this one's copy and syncs, 1-5 ms once every ``CHECKPOINT_WRITES`` writes."""
        fd = -1
        if fcntl is not None:
            try:
                fd = self._open_file()
                # waits in the kernel (an OS thread: no event loop stops), woken at the lock's release. Polling
                # instead let the writers take it again and again: the tail began later, with more frames to
                # copy, and the longest commit waiting for it went from 4-6 to 8-10 ms. (No time limit: a holder
                # that never lets go has stopped every writer, which go on to SQLite's wait after SQLITE_BUSY_S.)
                fcntl.flock(fd, fcntl.LOCK_EX)
            except OSError:
                pass
        try:
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        finally:
            if fd >= 0:
                _unlock(fd)         # (first: a child forked meanwhile shares it, and closing alone would leave it)
                os.close(fd)


class Store:
    """All database access of the service. Thread-safe; safe across processes."""

    def __init__(self, url: str | None = None, *, sqlite_synchronous: str = "NORMAL", echo: bool = False,
                 max_connections: int | None = None) -> None:
        self.url = url or default_database_url()
        self._sync = sqlite_synchronous.upper()
        if self._sync not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"sqlite_synchronous must be OFF, NORMAL, FULL or EXTRA, got {sqlite_synchronous!r}")
        self._echo = echo
        self._engine: Engine | None = None
        self._pid = -1
        self._lock = threading.Lock()
        # SQLite has one writer at a time; its busy handler waits by sleeping (1, 2, 5, 10... ms), holding a
        # gevent worker whole: writers queue on a lock of this process and then on a file lock between the
        # processes instead, and the checkpoints run in a thread (``_SQLiteWriters``).
        database = sa.engine.make_url(self.url).database if self.dialect == "sqlite" else None
        self._write_lock: _SQLiteWriters | None = (
            _SQLiteWriters(database) if database and database != ":memory:" else None)
        #: idle DB-API connections of this process for the hot statements (see ``_dbapi``), as
        #: (pid, connection, pool entry); a plain list (append and pop are atomic), so that it serves OS threads
        #: and gevent's greenlets alike (a thread-local would open a connection per greenlet, i.e. per request)
        self._idle: list[tuple[int, Any, Any]] = []
        self._sqlite = self.dialect == "sqlite"
        self._postgres = self.dialect == "postgresql"
        #: the driver's parameter mark (``dialect`` parses the URL at each call: the feed's queries run often)
        self._ph = "?" if self._sqlite else "%s"
        #: ``_commit_in_one``'s statements, by (rows, with an Idempotency-Key)
        self._one_commits: dict[tuple[int, bool], str] = {}
        #: connections of the hot path open at once in this process, in use or idle (a server has a connection
        #: limit: ``max_connections``, by default 16, which gunicorn_conf lowers as the workers grow so that all
        #: of them stay under PostgreSQL's default 100); when all are in use, a request waits
        #: for one to come back (a parked greenlet under gevent). Counted on opening and closing only, so that
        #: taking an idle connection and giving it back costs no lock (a semaphore's acquire and release are
        #: several Python calls, on gevent's lock, on every statement).
        if max_connections is not None and max_connections < 1:
            raise ValueError(f"max_connections must be at least 1, got {max_connections}")
        self._max_open = max_connections or (64 if self._sqlite else 16)
        self._open = 0
        self._pid_open = os.getpid()
        self._waiters = 0
        self._returned = threading.Condition(threading.Lock())
        #: decoded parameters and seats of matches (they never change), by their stored JSON
        self._decoded: dict[tuple[str, str], tuple[dict[str, Any], tuple[SeatSpec, ...]]] = {}
        placeholder = "?" if self.dialect == "sqlite" else "%s"
        self._inserts: dict[int, str] = {}
        self._sql = {k: v.replace("?", placeholder) for k, v in _SQL.items()}

    # -- engine ----------------------------------------------------------------------------------------------

    @property
    def dialect(self) -> str:
        return sa.engine.make_url(self.url).get_backend_name()

    @property
    def engine(self) -> Engine:
        """This process's engine (a forked worker never reuses its parent's connections)."""
        pid = os.getpid()
        if self._engine is None or self._pid != pid:
            with self._lock:
                if self._engine is None or self._pid != pid:
                    if self._engine is not None:
                        self._engine.dispose(close=False)   # the parent's connections belong to the parent
                    self._engine = self._make_engine()
                    self._pid = pid
        return self._engine

    def _make_engine(self) -> Engine:
        url = sa.engine.make_url(self.url)
        if url.get_backend_name() == "sqlite":
            if url.database in (None, "", ":memory:"):
                raise ValueError("use a SQLite file (sqlite:///path.db): an in-memory database is not shared")
            engine = sa.create_engine(url, echo=self._echo, pool_size=16, max_overflow=16,
                                      connect_args={"timeout": SQLITE_BUSY_S, "check_same_thread": False})
            sync = self._sync

            @sa.event.listens_for(engine, "connect")
            def _pragmas(dbapi_conn: Any, _record: Any) -> None:
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute(f"PRAGMA synchronous={sync}")
                cur.execute(f"PRAGMA busy_timeout={int(SQLITE_BUSY_S * 1000)}")
                cur.execute("PRAGMA foreign_keys=ON")
                cur.execute("PRAGMA wal_autocheckpoint=0")      # (the store's own, in a thread: _SQLiteWriters)
                cur.execute(f"PRAGMA journal_size_limit={SQLITE_LOG_LIMIT}")
                cur.close()

            return engine
        return sa.create_engine(url, echo=self._echo, pool_size=16, max_overflow=16, pool_pre_ping=True)

    def create_schema(self) -> None:
        """Create the tables and the append-only triggers if missing (safe to run from several processes)."""
        for attempt in range(5):
            try:
                with self.engine.begin() as conn:
                    if self.dialect == "postgresql":
                        # serialise concurrent creators (gunicorn workers booting together)
                        conn.exec_driver_sql("SELECT pg_advisory_xact_lock(4242)")
                    metadata.create_all(conn, checkfirst=True)
                    triggers = _SQLITE_TRIGGERS if self.dialect == "sqlite" else (
                        _POSTGRES_TRIGGERS if self.dialect == "postgresql" else [])
                    for ddl in triggers:
                        conn.exec_driver_sql(ddl)
                return
            except (IntegrityError, sa.exc.ProgrammingError, sa.exc.OperationalError):
                if attempt == 4:
                    raise
                time.sleep(0.1 * (attempt + 1))

    def drop_schema(self) -> None:
        """Drop everything (tests only)."""
        with self.engine.begin() as conn:
            metadata.drop_all(conn)

    def dispose(self) -> None:
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None
        idle, self._idle = self._idle, []
        for pid, conn, _fairy in idle:
            if pid == os.getpid():
                self._closed(conn)

    # -- matches ---------------------------------------------------------------------------------------------

    def insert_match(self, rec: MatchRecord) -> None:
        with self._dbapi() as conn, self._writing():
            cur = conn.cursor()
            try:
                cur.execute(self._sql["insert_match"], (
                    rec.id, rec.game, json.dumps(rec.params, sort_keys=True), rec.seed,
                    json.dumps([s.to_json() for s in rec.seats]), rec.version, rec.state, rec.finished,
                    rec.bots_due, rec.created_at, rec.updated_at))
                conn.commit()
            finally:
                cur.close()

    def list_match(self, match_id: str, created_at: float) -> None:
        """Show the match in the lobby's recent public matches."""
        with self.engine.connect() as conn, self._writing(), conn.begin():
            conn.execute(listed.insert().values(match_id=match_id, created_at=created_at))

    def listed_matches(self, limit: int) -> list[MatchRecord]:
        """The most recently created listed matches, newest first (without their state bytes' meaning:
        callers read only the public header)."""
        query = (sa.select(matches).join(listed, listed.c.match_id == matches.c.id)
                 .order_by(listed.c.created_at.desc(), matches.c.id).limit(limit))
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [MatchRecord(
            id=r.id, game=r.game, params=json.loads(r.params), seed=int(r.seed),
            seats=[SeatSpec.from_json(x) for x in json.loads(r.seats)], version=int(r.version),
            state=bytes(r.state), finished=bool(r.finished), bots_due=bool(r.bots_due),
            created_at=float(r.created_at), updated_at=float(r.updated_at)) for r in rows]

    def _writing(self) -> Any:
        """``with store._writing():`` around a write transaction, inside its connection's block: SQLite's
        writers one at a time (``_SQLiteWriters``); nothing on a server."""
        return self._write_lock or contextlib.nullcontext()

    def _dbapi(self) -> _Use:
        """A DB-API connection for the hot statements; driver errors become SQLAlchemy's (as Core would raise
        them). An idle connection of this process, taken from the engine's pool once and kept: a pool checkout
        and return cost as much as a statement on SQLite, and on a server the pool's pre-ping is one more round
        trip on every request. A transaction left open is rolled back, as the pool would on return. A
        connection the server broke (it restarted, it went away) is dropped with every other idle one, so the
        request that meets it fails (503 unavailable, Retry-After) and the next ones connect anew. At most
        ``_max_open`` are open at once (in use or idle); beyond, a request waits for one to come back.
        (A context manager of its own class, ``_Use``: a generator's costs several microseconds more per use.)"""
        return _Use(self)

    def _done(self, entry: tuple[int, Any, Any], exc: BaseException | None) -> None:
        """The end of a ``_dbapi`` block (``exc``: what it raised, if anything): the connection rolled back if a
        transaction is left open and given back, or dropped with every idle one if the server broke it; a driver
        error is raised again as SQLAlchemy's."""
        conn: Any = entry[1]
        keep = True
        error: Any = None
        if exc is not None:
            error = sqlite3.Error if self._sqlite else self.engine.dialect.loaded_dbapi.Error
            if isinstance(exc, error):
                try:
                    conn.rollback()
                except error:
                    keep = False
            else:
                error = None
        if self._sqlite:
            if conn.in_transaction:
                conn.rollback()
        elif keep and not (conn.closed or conn.broken):
            server_error = self.engine.dialect.loaded_dbapi.Error
            try:
                conn.rollback()                  # (psycopg: nothing sent when no transaction is open)
            except server_error:
                keep = False
        keep = keep and not (not self._sqlite and (conn.closed or conn.broken))
        if keep:
            self._give(entry)
        else:                                    # the server went away: the other idle ones are stale too
            idle = self._idle
            stale = [idle.pop() for _ in range(len(idle))]
            for _pid, other, _fairy in stale:
                self._closed(other)
            self._closed(conn)
        if error is not None and exc is not None:
            raise sa.exc.DBAPIError.instance(None, None, exc, error) from exc

    def _take(self) -> tuple[int, Any, Any]:
        """An idle connection of this process, else a new one while fewer than ``_max_open`` are open, else
        the next one given back (waiting for it)."""
        idle = self._idle
        pid = os.getpid()
        while True:
            try:
                entry = idle.pop()
            except IndexError:                   # none idle (or another thread took the last one)
                entry = None
            if entry is not None:
                if entry[0] == pid:
                    return entry
                # a connection from before a fork is the parent's: closing it here (as dropping it would) can
                # corrupt a SQLite database, SQLite warns; kept, never used nor closed
                _INHERITED.append(entry)
                continue
            with self._returned:
                if idle:
                    continue
                if self._open < self._max_open or self._pid_open != pid:
                    if self._pid_open != pid:    # a forked process counts its own connections
                        self._pid_open, self._open = pid, 0
                    self._open += 1
                    break
                self._waiters += 1
                try:
                    self._returned.wait(1.0)
                finally:
                    self._waiters -= 1
        try:
            fairy = self.engine.raw_connection()
            fairy.detach()                       # its own from now on
            if not self._sqlite:
                # a server's reads in autocommit: one round trip a statement, where psycopg would send BEGIN
                # before it and the return here a ROLLBACK after it (three round trips for one SELECT); the
                # same snapshots as before under READ COMMITTED (one per statement). A move's commit is one
                # statement there too (``_commit_in_one``).
                raw: Any = fairy.dbapi_connection
                raw.rollback()
                raw.autocommit = True
        except BaseException:                    # not opened after all: its place is free again
            with self._returned:
                self._open -= 1
                self._returned.notify()
            raise
        return (pid, fairy.dbapi_connection, fairy)

    def _give(self, entry: tuple[int, Any, Any]) -> None:
        """A connection back to the idle ones (and to a request waiting for one)."""
        self._idle.append(entry)
        if self._waiters:
            with self._returned:
                self._returned.notify()

    def _closed(self, conn: Any) -> None:
        _close_quietly(conn)
        with self._returned:
            self._open = max(0, self._open - 1)
            self._returned.notify()

    def get_match(self, match_id: str, idempotency_key: str | None = None) -> MatchRecord | None:
        """The match, and (on the same connection) the moves already made with ``idempotency_key``."""
        with self._dbapi() as conn:
            cur = conn.cursor()
            cur.execute(self._sql["select_match"], (match_id,))
            row = cur.fetchone()
            idempotent = None
            if row is not None and idempotency_key is not None:
                cur.execute(self._sql["select_idempotency_any_seat"], (match_id, idempotency_key))
                idempotent = {int(r[0]): IdempotencyRecord(r[1], int(r[2]), int(r[3])) for r in cur.fetchall()}
            cur.close()
        if row is None:
            return None
        (id_, game, params, seed, seats, version, state, finished, bots_due, created_at, updated_at) = row
        fixed = self._decoded.get((params, seats))
        if fixed is None:
            if len(self._decoded) >= 4096:
                self._decoded.clear()
            fixed = self._decoded[(params, seats)] = (
                json.loads(params), tuple(SeatSpec.from_json(s) for s in json.loads(seats)))
        return MatchRecord(
            id=id_, game=game, params=dict(fixed[0]), seed=int(seed), seats=list(fixed[1]), version=int(version),
            state=bytes(state), finished=bool(finished), bots_due=bool(bots_due),
            created_at=float(created_at), updated_at=float(updated_at), idempotent=idempotent,
        )

    def get_version(self, match_id: str) -> int | None:
        """The match's version alone (what a long-poll watches)."""
        with self._dbapi() as conn:
            cur = conn.cursor()
            cur.execute(self._sql["select_version"], (match_id,))
            row = cur.fetchone()
            cur.close()
        return None if row is None else int(row[0])

    def _insert_actions(self, rows: int) -> str:
        """SQLite's INSERT of ``rows`` action rows in one statement (cached per row count)."""
        sql = self._inserts.get(rows)
        if sql is None:
            sql = self._inserts[rows] = (
                "INSERT INTO actions (match_id, version, seat, action, by_bot, created_at) VALUES "
                + _rows_of_six(rows, "?"))
        return sql

    @staticmethod
    def channel(match_id: str) -> str:
        """The PostgreSQL channel a match's changes are announced on (by the trigger ``matches_notify``)."""
        return "robotcore_" + match_id

    def versions(self, match_ids: list[str]) -> dict[str, int]:
        """The versions of these matches (what the change feed compares with its watchers' versions)."""
        out: dict[str, int] = {}
        ph = self._ph
        with self._dbapi() as conn:
            cur = conn.cursor()
            for i in range(0, len(match_ids), _MANY_MAX):
                chunk = _padded(match_ids[i:i + _MANY_MAX])
                cur.execute(f"SELECT id, version FROM matches WHERE id IN ({', '.join([ph] * len(chunk))})", chunk)
                out.update((str(r[0]), int(r[1])) for r in cur.fetchall())
            cur.close()
        return out

    def commit(self, match_id: str, expected_version: int, new: NewActions,
               idempotency_key: str | None = None, fingerprint: str | None = None) -> bool:
        """Append ``new.entries`` (versions expected+1, expected+2...) and store the state after them, with
        compare-and-set on the version, in one transaction (one statement on PostgreSQL: ``_commit_in_one``).
        False (and nothing written) if the version moved on, or if one of the rows already exists (an action
        version, an Idempotency-Key)."""
        now = new.created_at or time.time()
        end = expected_version + len(new.entries)
        dbapi = self.engine.dialect.loaded_dbapi
        if self._postgres:
            return self._commit_in_one(match_id, expected_version, end, new, idempotency_key, fingerprint, now,
                                       dbapi)
        with self._dbapi() as conn, self._writing():
            cur = conn.cursor()
            try:                                 # (SQLite's module opens the transaction at the first change)
                cur.execute(self._sql["cas_update"], (end, new.state, new.finished, new.bots_due, now, match_id,
                                                      expected_version))
                if cur.rowcount != 1:
                    conn.rollback()
                    return False
                # one statement for all the rows
                cur.execute(self._insert_actions(len(new.entries)),
                            _action_params(match_id, expected_version, new, now))
                if idempotency_key is not None:
                    cur.execute(self._sql["insert_idempotency"],
                                _idempotency_params(match_id, expected_version, new, idempotency_key, fingerprint,
                                                    now))
                conn.commit()
            except dbapi.IntegrityError:
                # the same version written by someone else (cannot happen past the CAS, but never apply
                # twice), or an Idempotency-Key reused concurrently: rolled back, nothing changed
                conn.rollback()
                return False
            finally:
                cur.close()
        return True

    def _commit_in_one(self, match_id: str, expected_version: int, end: int, new: NewActions,
                       idempotency_key: str | None, fingerprint: str | None, now: float, dbapi: Any) -> bool:
        """``commit`` on PostgreSQL as one statement, in autocommit: one round trip instead of four (BEGIN, the
        compare-and-set, the rows, COMMIT). The compare-and-set is a data-modifying WITH whose row the inserts
        select from, so that they write nothing when it lost; a statement is atomic by itself, and the
        notification of its rows (``actions_notify``, after the statement) sees the match row it updated."""
        rows = len(new.entries)
        key = idempotency_key is not None
        sql = self._one_commits.get((rows, key))
        if sql is None:
            values = _rows_of_six(rows, "%s")
            sql = ("WITH cas AS (UPDATE matches SET version = %s, state = %s, finished = %s, bots_due = %s, "
                   "updated_at = %s WHERE id = %s AND version = %s RETURNING id)"
                   + (", kept AS (INSERT INTO idempotency (match_id, seat, key, fingerprint, version, end_version, "
                      "created_at) SELECT %s, %s, %s, %s, %s, %s, %s FROM cas)" if key else "")
                   + " INSERT INTO actions (match_id, version, seat, action, by_bot, created_at) "
                   f"SELECT v.* FROM (VALUES {values}) AS v CROSS JOIN cas")
            self._one_commits[(rows, key)] = sql
        params: list[Any] = [end, new.state, new.finished, new.bots_due, now, match_id, expected_version]
        if idempotency_key is not None:
            params += _idempotency_params(match_id, expected_version, new, idempotency_key, fingerprint, now)
        params += _action_params(match_id, expected_version, new, now)
        with self._dbapi() as conn:
            cur = conn.cursor()
            try:
                cur.execute(sql, params)
                return bool(cur.rowcount == rows)
            except dbapi.IntegrityError:
                # an Idempotency-Key reused concurrently (or a version written twice, which the compare-and-set
                # rules out): the statement wrote nothing
                return False
            finally:
                cur.close()

    # -- log -------------------------------------------------------------------------------------------------

    def actions(self, match_id: str, after: int = 0) -> list[ActionRow]:
        with self._dbapi() as conn:
            cur = conn.cursor()
            cur.execute(self._sql["select_actions"], (match_id, after))
            rows = cur.fetchall()
            cur.close()
        return [ActionRow(int(version), int(seat), int(action), bool(by_bot), float(created_at))
                for version, seat, action, by_bot, created_at in rows]

    def actions_after(self, after: Mapping[str, int]) -> dict[str, list[ActionRow]]:
        """The action rows of several matches, each after its own version (``after``: match id -> version), in
        one query per 256 matches: what the SQLite change feed reads for all the matches that moved, instead of
        each watcher reading its own. Matches with no such row are left out."""
        out: dict[str, list[ActionRow]] = {}
        ph = self._ph
        items = list(after.items())
        with self._dbapi() as conn:
            cur = conn.cursor()
            for i in range(0, len(items), _MANY_MAX):
                chunk = _padded(items[i:i + _MANY_MAX])
                where = " OR ".join([f"(match_id = {ph} AND version > {ph})"] * len(chunk))
                cur.execute("SELECT match_id, version, seat, action, by_bot, created_at FROM actions "
                            f"WHERE {where} ORDER BY match_id, version", [x for pair in chunk for x in pair])
                for match_id, version, seat, action, by_bot, created_at in cur.fetchall():
                    out.setdefault(str(match_id), []).append(
                        ActionRow(int(version), int(seat), int(action), bool(by_bot), float(created_at)))
            cur.close()
        return out

    # -- idempotency -----------------------------------------------------------------------------------------

    def set_idempotent_end(self, match_id: str, seat: int, key: str, end_version: int) -> None:
        """The answer of that move showed the match at ``end_version`` (bot moves were played after it)."""
        with self.engine.connect() as conn, self._writing(), conn.begin():
            conn.execute(_UPDATE_IDEMPOTENCY_END, {"b_id": match_id, "b_seat": seat, "b_key": key, "end": end_version})


