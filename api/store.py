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
- **Workers share nothing but the database.** The engine is created lazily per process (after gunicorn's
  fork); SQLite runs in WAL mode with a busy timeout so several processes can read while one writes.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

__all__ = ["Store", "MatchRecord", "SeatSpec", "ActionRow", "IdempotencyRecord", "default_database_url"]

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
)

idempotency = sa.Table(
    "idempotency",
    metadata,
    sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("key", sa.String(255), primary_key=True),
    sa.Column("fingerprint", sa.String(64), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),      # the version the move produced
    sa.Column("response", sa.Text, nullable=True),         # the JSON answer sent (NULL until it was built)
    sa.Column("created_at", sa.Float, nullable=False),
)

sa.Index("matches_bots_due", matches.c.bots_due)

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
]


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


@dataclass(frozen=True)
class ActionRow:
    version: int
    seat: int
    action: int
    by_bot: bool
    created_at: float


@dataclass(frozen=True)
class IdempotencyRecord:
    fingerprint: str
    version: int
    response: str | None


@dataclass(frozen=True)
class NewAction:
    """One action to commit with compare-and-set."""

    seat: int
    action: int
    by_bot: bool
    state: bytes                       # the state after it
    finished: bool
    bots_due: bool


class Store:
    """All database access of the service. Thread-safe; safe across processes."""

    def __init__(self, url: str | None = None, *, sqlite_synchronous: str = "NORMAL", echo: bool = False) -> None:
        self.url = url or default_database_url()
        self._sync = sqlite_synchronous.upper()
        if self._sync not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"sqlite_synchronous must be OFF, NORMAL, FULL or EXTRA, got {sqlite_synchronous!r}")
        self._echo = echo
        self._engine: Engine | None = None
        self._pid = -1
        self._lock = threading.Lock()

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
                                      connect_args={"timeout": 30, "check_same_thread": False})
            sync = self._sync

            @sa.event.listens_for(engine, "connect")
            def _pragmas(dbapi_conn: Any, _record: Any) -> None:
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute(f"PRAGMA synchronous={sync}")
                cur.execute("PRAGMA busy_timeout=30000")
                cur.execute("PRAGMA foreign_keys=ON")
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

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        with self.engine.connect() as conn:
            yield conn

    # -- matches ---------------------------------------------------------------------------------------------

    def insert_match(self, rec: MatchRecord) -> None:
        with self.engine.begin() as conn:
            conn.execute(matches.insert().values(
                id=rec.id, game=rec.game, params=json.dumps(rec.params, sort_keys=True), seed=rec.seed,
                seats=json.dumps([s.to_json() for s in rec.seats]), version=rec.version, state=rec.state,
                finished=rec.finished, bots_due=rec.bots_due, created_at=rec.created_at,
                updated_at=rec.updated_at,
            ))

    def get_match(self, match_id: str) -> MatchRecord | None:
        with self._read() as conn:
            row = conn.execute(sa.select(matches).where(matches.c.id == match_id)).first()
        if row is None:
            return None
        return MatchRecord(
            id=row.id, game=row.game, params=json.loads(row.params), seed=int(row.seed),
            seats=[SeatSpec.from_json(s) for s in json.loads(row.seats)], version=int(row.version),
            state=bytes(row.state), finished=bool(row.finished), bots_due=bool(row.bots_due),
            created_at=float(row.created_at), updated_at=float(row.updated_at),
        )

    def get_version(self, match_id: str) -> int | None:
        """The match's version alone (what a long-poll watches)."""
        with self._read() as conn:
            v = conn.execute(sa.select(matches.c.version).where(matches.c.id == match_id)).scalar()
        return None if v is None else int(v)

    def matches_with_bots_due(self, limit: int = 100) -> list[str]:
        with self._read() as conn:
            rows = conn.execute(sa.select(matches.c.id).where(matches.c.bots_due.is_(True)).limit(limit))
            return [r.id for r in rows]

    def commit(self, match_id: str, expected_version: int, new: NewAction,
               idempotency_key: str | None = None, fingerprint: str | None = None) -> bool:
        """Apply one action with compare-and-set. False (and nothing written) if the version moved on."""
        now = time.time()
        version = expected_version + 1
        try:
            with self.engine.begin() as conn:
                res = conn.execute(
                    matches.update()
                    .where(matches.c.id == match_id, matches.c.version == expected_version)
                    .values(version=version, state=new.state, finished=new.finished, bots_due=new.bots_due,
                            updated_at=now)
                )
                if res.rowcount != 1:
                    raise _Lost()
                conn.execute(actions.insert().values(
                    match_id=match_id, version=version, seat=new.seat, action=new.action, by_bot=new.by_bot,
                    created_at=now,
                ))
                if idempotency_key is not None:
                    conn.execute(idempotency.insert().values(
                        match_id=match_id, seat=new.seat, key=idempotency_key, fingerprint=fingerprint or "",
                        version=version, response=None, created_at=now,
                    ))
        except _Lost:
            return False
        except IntegrityError:
            # the same version written by someone else (cannot happen past the CAS, but never apply twice),
            # or an Idempotency-Key reused concurrently: the transaction is rolled back, nothing changed
            return False
        return True

    # -- log -------------------------------------------------------------------------------------------------

    def actions(self, match_id: str, after: int = 0) -> list[ActionRow]:
        with self._read() as conn:
            rows = conn.execute(
                sa.select(actions.c.version, actions.c.seat, actions.c.action, actions.c.by_bot,
                          actions.c.created_at)
                .where(actions.c.match_id == match_id, actions.c.version > after)
                .order_by(actions.c.version)
            )
            return [ActionRow(int(r.version), int(r.seat), int(r.action), bool(r.by_bot), float(r.created_at))
                    for r in rows]

    # -- idempotency -----------------------------------------------------------------------------------------

    def get_idempotent(self, match_id: str, seat: int, key: str) -> IdempotencyRecord | None:
        with self._read() as conn:
            row = conn.execute(
                sa.select(idempotency.c.fingerprint, idempotency.c.version, idempotency.c.response).where(
                    idempotency.c.match_id == match_id, idempotency.c.seat == seat, idempotency.c.key == key)
            ).first()
        return None if row is None else IdempotencyRecord(row.fingerprint, int(row.version), row.response)

    def set_idempotent_response(self, match_id: str, seat: int, key: str, response: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                idempotency.update()
                .where(idempotency.c.match_id == match_id, idempotency.c.seat == seat,
                       idempotency.c.key == key, idempotency.c.response.is_(None))
                .values(response=response)
            )


class _Lost(Exception):
    """The compare-and-set found another version: roll the transaction back."""
