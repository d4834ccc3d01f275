"""The store on SQLite and on PostgreSQL (when ROBOTCORE_TEST_DATABASE_URL names one; CI starts a real
server): compare-and-set, an append-only log, replays that give exactly the stored state, races with exactly
one winner."""

from __future__ import annotations

import fcntl
import gc
import os
import random
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

import robotcore
from robotcore_api import store as store_module
from robotcore_api.service import MatchService
from robotcore_api.store import (
    _MANY_MAX,
    SQLITE_LOG_LIMIT,
    MatchRecord,
    NewActions,
    SeatSpec,
    Store,
    _padded,
    _SQLiteWriters,
    actions,
    default_database_url,
)

from .conftest import DATABASES, GAMES, POSTGRES_URL, ApiClient, database_url, make_api, new_key


@pytest.fixture(params=DATABASES)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    s = Store(database_url(request.param, tmp_path))
    s.create_schema()
    yield s
    s.dispose()


def new_record(name: str = GAMES[0], seed: int = 1) -> tuple[MatchRecord, robotcore.State]:
    state = robotcore.make(name, seed=seed)
    now = time.time()
    rec = MatchRecord(id=new_key()[:24], game=name, params=state.game.plain_params(), seed=seed,
                      seats=[SeatSpec("human", "0" * 64)] * state.num_players, version=0, state=state.to_bytes(),
                      finished=False, bots_due=False, created_at=now, updated_at=now)
    return rec, state


def step(state: robotcore.State, rng: random.Random, n: int = 1) -> tuple[NewActions, robotcore.State]:
    after = state.clone()
    entries = []
    for _ in range(n):
        seat = rng.choice(after.actors)
        action = rng.choice(after.legal_actions(seat))
        after.apply(action, seat)
        entries.append((seat, action, False))
    return NewActions(entries, after.to_bytes(), after.is_terminal, False), after


def test_schema_creation_is_idempotent(store: Store) -> None:
    store.create_schema()
    store.create_schema()


def test_compare_and_set(store: Store) -> None:
    rec, state = new_record()
    store.insert_match(rec)
    new, after = step(state, random.Random(1))
    assert store.commit(rec.id, 0, new)
    assert not store.commit(rec.id, 0, new)             # the version moved on: nothing written
    assert not store.commit(rec.id, 5, new)
    got = store.get_match(rec.id)
    assert got is not None and got.version == 1 and got.state == after.to_bytes()
    assert [(r.version, r.seat, r.action) for r in store.actions(rec.id)] == [(1, *new.entries[0][:2])]
    assert store.get_version(rec.id) == 1 and store.get_version("nope") is None
    several, after = step(after, random.Random(2), n=3)       # a move and the bot moves it made due
    assert store.commit(rec.id, 1, several)
    assert [r.version for r in store.actions(rec.id)] == [1, 2, 3, 4]
    assert [(r.seat, r.action) for r in store.actions(rec.id, after=1)] == [e[:2] for e in several.entries]
    got = store.get_match(rec.id)
    assert got is not None and got.version == 4 and got.state == after.to_bytes()


def test_the_rows_of_several_matches_each_after_its_own_version(store: Store) -> None:
    """``actions_after`` (the SQLite change feed's one read for every match that moved): each match's rows after
    its own version, in order, exactly those ``actions`` gives one at a time; a match with none, or unknown, is
    left out; more matches than one query's chunk are all read, and a match its statement names twice (padded to
    one of a few lengths) is read once."""
    rng = random.Random(4)
    ids = []
    for i in range(259):
        rec, state = new_record(seed=i + 1)
        store.insert_match(rec)
        if i < 3:
            new, _ = step(state, rng, n=2 + i)
            assert store.commit(rec.id, 0, new)
        ids.append(rec.id)
    after = {ids[1]: 2, ids[2]: 4, ids[3]: 0, "nope": 0, ids[0]: 0}     # (the last fills the statement's terms)
    got = store.actions_after(after)
    assert set(got) == {ids[0], ids[1]}                        # ids[2]: nothing after 4; ids[3]: no action
    for match_id, rows in got.items():
        assert rows == store.actions(match_id, after[match_id])
    assert [r.version for r in got[ids[1]]] == [3]
    many = store.actions_after({match_id: 0 for match_id in reversed(ids)})         # two chunks: 256 and 3
    assert set(many) == set(ids[:3]) and [len(many[m]) for m in ids[:3]] == [2, 3, 4]
    assert store.actions_after({}) == {}


def test_the_feeds_statements_have_a_few_lengths_only() -> None:
    """The feed's queries name every watched match: their lists are padded to 8, 16, 32... 256 items by repeating
    the last, so that a statement has one of six texts (each connection compiles it once) whatever the number of
    matches watched."""
    assert _padded(["a"]) == ["a"] * 8
    assert _padded(list(range(8))) == list(range(8))
    assert _padded(list(range(9))) == list(range(9)) + [8] * 7
    assert {len(_padded(list(range(n)))) for n in range(1, _MANY_MAX + 1)} == {8, 16, 32, 64, 128, 256}


def test_racing_commits_have_exactly_one_winner(store: Store) -> None:
    rec, state = new_record()
    store.insert_match(rec)
    rng = random.Random(2)
    candidates = [step(state, rng)[0] for _ in range(8)]
    barrier = threading.Barrier(len(candidates))
    results: list[bool] = []

    def race(new: NewActions) -> None:
        barrier.wait()
        results.append(store.commit(rec.id, 0, new))

    threads = [threading.Thread(target=race, args=(c,)) for c in candidates]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [False] * 7 + [True]
    assert len(store.actions(rec.id)) == 1
    got = store.get_match(rec.id)
    assert got is not None and got.version == 1


def sqlite_store(tmp_path: Path) -> Store:
    s = Store(f"sqlite:///{tmp_path / 'w.db'}")
    s.create_schema()
    return s


def a_match_and_its_move(store: Store) -> tuple[MatchRecord, NewActions]:
    """A new match in ``store`` and a legal first move of it, not committed."""
    rec, state = new_record()
    store.insert_match(rec)
    return rec, step(state, random.Random(1))[0]


def writers_lock_held_elsewhere(tmp_path: Path) -> int:
    """The writers' lock of ``sqlite_store(tmp_path)`` taken on an open file description of its own, as another
    process would take it; unlock or close the returned descriptor to release it."""
    other = os.open(str(tmp_path / "w.db-writer"), os.O_RDWR | os.O_CREAT)
    fcntl.flock(other, fcntl.LOCK_EX)
    return other


@pytest.mark.parametrize("write", ["commit", "insert_match", "list_match", "set_idempotent_end"])
def test_a_sqlite_writer_waits_for_another_process_holding_the_writers_lock(tmp_path: Path, write: str) -> None:
    """Every write transaction of a SQLite store takes the advisory lock ``<database>-writer`` (``_SQLiteWriters``):
    it waits while another open file description (another process) holds it, and goes on once it is released,
    in far less than SQLite's first step of sleep."""
    store = sqlite_store(tmp_path)
    try:
        rec, new = a_match_and_its_move(store)
        writes = {
            "commit": lambda: store.commit(rec.id, 0, new),
            "insert_match": lambda: store.insert_match(new_record(seed=2)[0]),
            "list_match": lambda: store.list_match(rec.id, 1.0),
            "set_idempotent_end": lambda: store.set_idempotent_end(rec.id, 0, "key", 3),
        }
        other = writers_lock_held_elsewhere(tmp_path)
        done = threading.Event()
        writer = threading.Thread(target=lambda: (writes[write](), done.set()))
        writer.start()
        assert not done.wait(0.3)                     # held elsewhere: the write waits
        fcntl.flock(other, fcntl.LOCK_UN)
        os.close(other)
        assert done.wait(5)
        writer.join()
        assert store.get_version(rec.id) == (1 if write == "commit" else 0)
    finally:
        store.dispose()


def test_a_sqlite_writer_waiting_long_for_the_lock_waits_in_time_sleep(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A writer waits for the writers' lock in its thread's own short sleeps for ``WAIT_ALONE_S`` only (a
    holder keeps it about 60 µs); past that (a checkpoint's tail, a holder the system stopped) it waits in
    ``time.sleep``, which gevent patches in a worker, so that the worker's other requests go on."""
    store = sqlite_store(tmp_path)
    waits: list[float] = []
    real_sleep = time.sleep
    writer_thread: list[int] = []

    def recording_sleep(seconds: float) -> None:
        if threading.get_ident() in writer_thread:
            waits.append(seconds)
        real_sleep(seconds)

    try:
        rec, new = a_match_and_its_move(store)
        other = writers_lock_held_elsewhere(tmp_path)
        monkeypatch.setattr(time, "sleep", recording_sleep)
        done = threading.Event()

        def write() -> None:
            writer_thread.append(threading.get_ident())
            store.commit(rec.id, 0, new)
            done.set()

        writer = threading.Thread(target=write)
        writer.start()
        assert not done.wait(0.2)
        fcntl.flock(other, fcntl.LOCK_UN)
        os.close(other)
        assert done.wait(5)
        writer.join()
        assert store.get_version(rec.id) == 1
        assert waits.count(0.0005) >= 10                # 0.2 s held: past the first ms, steps of 0.5 ms
        assert len(waits) - waits.count(0.0005) <= _SQLiteWriters.WAIT_ALONE_S / 0.00005 + 1
    finally:
        store.dispose()


def test_a_sqlite_writer_interrupted_while_waiting_for_the_lock_leaves_it_free(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A writer whose wait ends in an exception (a gevent timeout or kill raised in gevent's sleep) gives the
    process's lock back: the next writer is not blocked for ever."""
    monkeypatch.setattr(store_module, "SQLITE_BUSY_S", 2.0)    # (the old code's wait for the lock, shorter)
    store = sqlite_store(tmp_path)

    class Interrupted(Exception):
        pass

    real_sleep = time.sleep

    def interrupting_sleep(seconds: float) -> None:
        if seconds == 0.0005:                       # (past WAIT_ALONE_S: gevent's sleep in a worker)
            raise Interrupted
        real_sleep(seconds)

    try:
        rec, new = a_match_and_its_move(store)
        other = writers_lock_held_elsewhere(tmp_path)
        monkeypatch.setattr(time, "sleep", interrupting_sleep)
        with pytest.raises(Interrupted):
            store.commit(rec.id, 0, new)
        monkeypatch.setattr(time, "sleep", real_sleep)
        fcntl.flock(other, fcntl.LOCK_UN)
        os.close(other)
        done = threading.Event()
        writer = threading.Thread(target=lambda: (store.commit(rec.id, 0, new), done.set()), daemon=True)
        writer.start()
        assert done.wait(5)                         # (blocked for ever on the process's lock before)
        assert store.get_version(rec.id) == 1
    finally:
        store.dispose()


def test_a_checkpoint_tail_leaves_the_writers_lock_free_even_if_its_descriptor_was_shared(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tail unlocks before it closes: a child forked while it held the lock shares the descriptor (here a
    ``dup``, which shares it the same way), and closing alone would leave the lock held for as long as the
    child lives."""
    store = sqlite_store(tmp_path)
    writers = store._write_lock
    assert isinstance(writers, _SQLiteWriters)
    opened: list[int] = []
    shared: list[int] = []
    real_open = os.open

    def recording_open(path: str, *args: Any) -> int:
        fd = real_open(path, *args)
        opened.append(fd)
        return fd

    class Conn:                                     # the tail's checkpoint, during which the "fork" happens
        def execute(self, sql: str) -> Any:
            shared.append(os.dup(opened[-1]))
            return self

        def fetchall(self) -> list[tuple[int, int, int]]:
            return [(0, 0, 0)]

    monkeypatch.setattr(os, "open", recording_open)
    try:
        writers._checkpoint_tail(Conn())  # type: ignore[arg-type]
        monkeypatch.setattr(os, "open", real_open)
        other = os.open(str(tmp_path / "w.db-writer"), os.O_RDWR | os.O_CREAT)
        try:
            fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)      # free (BlockingIOError otherwise)
        finally:
            os.close(other)
    finally:
        for fd in shared:
            os.close(fd)
        store.dispose()


def test_no_garbage_collection_while_a_sqlite_writer_holds_the_lock(tmp_path: Path) -> None:
    """The collector is off while a writer holds the writers' lock (a collection there would hold every
    worker's writers), and back as it was after: on again, or still off where the program had turned it off."""
    store = sqlite_store(tmp_path)
    writers = store._write_lock
    assert isinstance(writers, _SQLiteWriters)
    was = gc.isenabled()
    try:
        gc.enable()
        with writers:
            assert not gc.isenabled()
        assert gc.isenabled()
        gc.disable()
        with writers:
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()
        store.dispose()


def test_sqlite_checkpoints_run_in_a_thread_of_their_own_not_in_a_commit(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The store's connections never checkpoint in a commit (``wal_autocheckpoint=0``); after every
    ``CHECKPOINT_WRITES`` writes a process copies the log into the database file in a thread (the file then
    holds the commits without the log)."""
    monkeypatch.setattr(_SQLiteWriters, "CHECKPOINT_WRITES", 10**6)
    store = sqlite_store(tmp_path)
    path = tmp_path / "w.db"

    def in_the_file_alone() -> int:                     # the database file read without its log
        conn = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
        try:
            return int(conn.execute("SELECT count(*) FROM matches").fetchone()[0])
        finally:
            conn.close()

    try:
        with store._dbapi() as conn:
            assert conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
            assert conn.execute("PRAGMA journal_size_limit").fetchone()[0] == SQLITE_LOG_LIMIT
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")     # the schema into the file: it starts there
        assert in_the_file_alone() == 0
        writers = store._write_lock
        assert isinstance(writers, _SQLiteWriters)
        for seed in range(1, 5):
            store.insert_match(new_record(seed=seed)[0])
        assert in_the_file_alone() == 0                 # no checkpoint yet: all in the log still
        monkeypatch.setattr(_SQLiteWriters, "CHECKPOINT_WRITES", 6)
        store.insert_match(new_record(seed=5)[0])
        assert in_the_file_alone() == 0
        store.insert_match(new_record(seed=6)[0])       # the 6th write starts a checkpoint
        deadline = time.monotonic() + 10
        while writers._checkpointing and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not writers._checkpointing and writers._failed is None
        assert in_the_file_alone() == 6
    finally:
        store.dispose()


def wal_restarts(path: Path) -> int:
    """How many times SQLite has written the log ``<path>-wal`` again from its start (its header's checkpoint
    sequence number, which each restart advances)."""
    with open(f"{path}-wal", "rb") as f:
        return int.from_bytes(f.read(16)[12:16], "big")


def test_sqlite_log_is_written_again_from_its_start_after_a_checkpoint_that_met_writes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A checkpoint of the store (``_SQLiteWriters._checkpoint``) while another thread commits without pause:
    the next write starts the log again from its beginning (SQLite does so only after a checkpoint that left
    no frame behind). A passive checkpoint alone always met new frames, and the log grew by every page
    written (160 MB after 12,000 moves)."""
    monkeypatch.setattr(_SQLiteWriters, "CHECKPOINT_WRITES", 10**6)     # (this test's checkpoint only)
    store = sqlite_store(tmp_path)
    path = tmp_path / "w.db"
    try:
        rec, _ = new_record()
        store.insert_match(rec)
        writers = store._write_lock
        assert isinstance(writers, _SQLiteWriters)
        version = 0

        def move() -> None:                         # (the store checks no rule: one entry and the same state)
            nonlocal version
            assert store.commit(rec.id, version, NewActions([(0, 0, False)], rec.state, False, False))
            version += 1

        for _ in range(1500):                       # a log long enough that copying it takes a while
            move()
        before = wal_restarts(path)
        checkpointing = threading.Event()
        during = 0
        failed: list[BaseException] = []

        def writer() -> None:
            nonlocal during
            checkpointing.wait()
            try:
                while checkpointing.is_set():
                    move()
                    during += 1
                    time.sleep(0.0001)
            except BaseException as exc:            # (told in the test's thread)
                failed.append(exc)

        thread = threading.Thread(target=writer)
        thread.start()
        checkpointing.set()
        writers._checkpoint()
        checkpointing.clear()
        thread.join()
        assert not failed and writers._failed is None and during > 0
        move()
        assert wal_restarts(path) > before
    finally:
        store.dispose()


def test_the_log_is_append_only(store: Store) -> None:
    rec, state = new_record()
    store.insert_match(rec)
    new, _ = step(state, random.Random(3))
    assert store.commit(rec.id, 0, new)
    for statement in (actions.update().values(action=0), actions.delete()):
        with pytest.raises(sa.exc.DatabaseError):
            with store.engine.begin() as conn:
                conn.execute(statement.where(actions.c.match_id == rec.id))
    with pytest.raises(sa.exc.IntegrityError):                # one action per version, never two
        with store.engine.begin() as conn:
            conn.execute(actions.insert().values(match_id=rec.id, version=1, seat=0, action=0, by_bot=False,
                                                 created_at=0.0))
    assert len(store.actions(rec.id)) == 1


def test_idempotency_records(store: Store) -> None:
    rec, state = new_record()
    store.insert_match(rec)
    new, _ = step(state, random.Random(4), n=2)
    seat = new.entries[0][0]
    assert store.commit(rec.id, 0, new, "key-1", "f" * 64)
    def get_idempotent(key: str) -> Any:         # read with the match, as the service reads it
        got = store.get_match(rec.id, key)
        assert got is not None and got.idempotent is not None
        return got.idempotent.get(seat)

    got = get_idempotent("key-1")
    assert got is not None and (got.version, got.end_version, got.fingerprint) == (1, 2, "f" * 64)
    store.set_idempotent_end(rec.id, seat, "key-1", 7)
    got = get_idempotent("key-1")
    assert got is not None and got.end_version == 7
    assert get_idempotent("other") is None


def test_a_commit_that_fails_writes_nothing(store: Store) -> None:
    """A lost compare-and-set records no Idempotency-Key, and a key already used by the seat fails the whole commit:
    the match row and the log stay as they were (on PostgreSQL a commit is one statement: ``_commit_in_one``)."""
    rec, state = new_record()
    store.insert_match(rec)
    new, after = step(state, random.Random(5))
    seat = new.entries[0][0]
    assert store.commit(rec.id, 0, new, "key-1", "f" * 64)
    assert not store.commit(rec.id, 0, new, "key-2", "e" * 64)            # stale: nothing, not even the key
    got = store.get_match(rec.id, "key-2")
    assert got is not None and got.idempotent == {}
    later, _ = step(after, random.Random(6), n=2)
    later = NewActions([(seat, a, b) for _, a, b in later.entries], later.state, later.finished, later.bots_due)
    assert not store.commit(rec.id, 1, later, "key-1", "d" * 64)          # the seat's key again: refused whole
    got = store.get_match(rec.id)
    assert got is not None and got.version == 1 and got.state == after.to_bytes()
    assert [r.version for r in store.actions(rec.id)] == [1]
    assert store.commit(rec.id, 1, later, "key-3", "d" * 64)              # the same rows under a new key
    assert [r.version for r in store.actions(rec.id)] == [1, 2, 3]


def test_default_database_is_a_sqlite_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ROBOTCORE_DATABASE_URL", raising=False)
    assert default_database_url() == "sqlite:///robotcore.db"
    monkeypatch.setenv("ROBOTCORE_DATABASE_URL", "postgresql+psycopg://x@y/z")
    assert default_database_url() == "postgresql+psycopg://x@y/z"
    with pytest.raises(ValueError):
        _ = Store("sqlite://").engine


# -- through the service, on both databases ---------------------------------------------------------------------


def play_to_the_end(api: ApiClient, match_id: str, tokens: dict[int, str], rng: random.Random) -> int:
    moves = 0
    while True:
        spectator = api.view(match_id)
        if spectator["status"] == "finished":
            return moves
        seat = rng.choice([s for s in spectator["actors"] if s in tokens])
        view = api.view(match_id, tokens[seat])
        resp = api.move(match_id, tokens[seat], {"id": rng.choice(view["legal_actions"])["id"]}, view["version"],
                        headers={"Idempotency-Key": new_key()})
        assert resp.status_code == 200, resp.get_json()
        moves += 1


@pytest.mark.parametrize("name", GAMES)
def test_every_match_replays_exactly(any_db_api: ApiClient, name: str) -> None:
    svc: MatchService = any_db_api.app.extensions["robotcore"]
    game = robotcore.load_game(name)
    rng = random.Random(7)
    ids = []
    for i, seats in enumerate([None, [{"type": "human"}] + [{"type": "bot", "bot": "random"}] * (game.num_players - 1)]):
        doc, tokens = any_db_api.create(name, seed=1000 + i, **({"seats": seats} if seats else {}))
        play_to_the_end(any_db_api, doc["match_id"], tokens, rng)
        ids.append(doc["match_id"])
    for match_id in ids:
        assert svc.verify_replay(match_id)
        rec = svc.store.get_match(match_id)
        assert rec is not None and rec.finished and not rec.bots_due
    # a tampered snapshot no longer replays
    with svc.store.engine.begin() as conn:
        from robotcore_api.store import matches

        rec = svc.store.get_match(ids[0])
        assert rec is not None
        conn.execute(matches.update().where(matches.c.id == ids[0]).values(state=robotcore.make(name, seed=1).to_bytes()))
    assert not svc.verify_replay(ids[0])


def race(api: ApiClient, match_id: str, token: str, version: int, choices: list[dict[str, Any]]) -> dict[int, Any]:
    """Send one move per choice at the same instant, each from its own client; the answers by client."""
    barrier = threading.Barrier(len(choices))
    answers: dict[int, Any] = {}

    def client(action: dict[str, Any], name: int) -> None:
        c = api.app.test_client()
        barrier.wait()
        answers[name] = c.post(f"/v1/matches/{match_id}/moves",
                               json={"action": {"id": action["id"]}, "expected_version": version},
                               headers={"Authorization": f"Bearer {token}"})

    threads = [threading.Thread(target=client, args=(x, i)) for i, x in enumerate(choices)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers


def test_two_clients_racing_exactly_one_wins(any_db_api: ApiClient) -> None:
    """Two clients of the same seat send different moves chosen at the same version: one is applied, the other
    gets stale-version; nothing is lost or applied twice. Repeated over many turns."""
    api = any_db_api
    svc: MatchService = api.app.extensions["robotcore"]
    doc, tokens = api.create(GAMES[0], seed=31)
    match_id = doc["match_id"]
    rng = random.Random(31)
    races = 0
    while races < 25:
        spectator = api.view(match_id)
        if spectator["status"] == "finished":
            break
        seat = rng.choice([s for s in spectator["actors"] if s in tokens])
        view = api.view(match_id, tokens[seat])
        if len(view["legal_actions"]) < 2:
            api.move(match_id, tokens[seat], {"id": view["legal_actions"][0]["id"]}, view["version"])
            continue
        a, b = rng.sample(view["legal_actions"], 2)
        answers = race(api, match_id, tokens[seat], view["version"], [a, b])
        statuses = sorted(r.status_code for r in answers.values())
        assert statuses == [200, 409], [r.get_json() for r in answers.values()]
        loser = next(r for r in answers.values() if r.status_code == 409)
        assert loser.get_json()["code"] == "stale-version"
        winner = next(r for r in answers.values() if r.status_code == 200).get_json()["accepted"]
        logged = [r for r in svc.store.actions(match_id) if r.version == view["version"] + 1]
        assert [(r.seat, r.action) for r in logged] == [(seat, winner["action"]["id"])]
        races += 1
    assert races >= 10
    assert svc.verify_replay(match_id)


@pytest.fixture(params=DATABASES)
def two_processes(request: pytest.FixtureRequest, tmp_path: Path,
                  openapi_schema: Any) -> Iterator[tuple[ApiClient, ApiClient]]:
    """Two apps on the same database: what two gunicorn workers are (they share nothing else)."""
    url = database_url(request.param, tmp_path)
    pair = (make_api(url, openapi_schema), make_api(url, openapi_schema))
    yield pair
    for api in pair:
        api.app.extensions["robotcore"].store.dispose()


def bot_match(api: ApiClient, seed: int) -> tuple[str, str, dict[str, Any]]:
    """A match of one human seat against random bots, and the human's view (the bots have moved)."""
    game = robotcore.load_game(GAMES[0])
    seats = [{"type": "human"}] + [{"type": "bot", "bot": "random"}] * (game.num_players - 1)
    doc, tokens = api.create(GAMES[0], seed=seed, seats=seats)
    return doc["match_id"], tokens[0], api.view(doc["match_id"], tokens[0])


def test_a_process_moves_on_the_state_it_committed_without_reading_it(two_processes: tuple[ApiClient, ApiClient],
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    api = two_processes[0]
    svc: MatchService = api.app.extensions["robotcore"]
    match_id, token, view = bot_match(api, seed=41)
    reads: list[str] = []
    get_match = svc.store.get_match
    monkeypatch.setattr(svc.store, "get_match", lambda *a, **kw: reads.append(a[0]) or get_match(*a, **kw))
    for _ in range(5):
        resp = api.move(match_id, token, {"id": view["legal_actions"][0]["id"]}, view["version"],
                        headers={"Idempotency-Key": new_key()})
        assert resp.status_code == 200, resp.get_json()
        view = resp.get_json()["match"]
        if view["status"] == "finished":
            break
    assert reads == []
    assert svc.verify_replay(match_id)


def test_what_a_process_remembers_is_never_trusted_over_the_database(
        two_processes: tuple[ApiClient, ApiClient]) -> None:
    """A process remembers the state it committed last and plays a move chosen at that version on it without
    reading the match; another process's move since must make that memory useless, never wrong."""
    one, two = two_processes
    svc: MatchService = one.app.extensions["robotcore"]
    match_id, token, view = bot_match(one, seed=43)
    first = one.move(match_id, token, {"id": view["legal_actions"][0]["id"]}, view["version"])
    assert first.status_code == 200
    remembered = first.get_json()["match"]                 # process one remembers this version
    if remembered["status"] == "finished":
        pytest.skip("the match ended at once")
    # process two plays the next move
    later = two.move(match_id, token, {"id": remembered["legal_actions"][0]["id"]}, remembered["version"])
    assert later.status_code == 200
    log = svc.store.actions(match_id)
    # process one is sent the same move, chosen at the version it remembers: it is stale now
    again = one.move(match_id, token, {"id": remembered["legal_actions"][0]["id"]}, remembered["version"])
    assert (again.status_code, again.get_json()["code"]) == (409, "stale-version")
    assert again.get_json()["current_version"] == later.get_json()["match"]["version"]
    assert svc.store.actions(match_id) == log
    # and the move chosen at the current version is played there, on the state in the database
    now = later.get_json()["match"]
    if now["status"] != "finished":
        moved = one.move(match_id, token, {"id": now["legal_actions"][-1]["id"]}, now["version"])
        assert moved.status_code == 200
        assert moved.get_json()["accepted"]["version"] == now["version"] + 1
    assert svc.verify_replay(match_id)


def test_an_idempotency_key_is_never_played_twice_on_a_remembered_state(
        two_processes: tuple[ApiClient, ApiClient]) -> None:
    one, _ = two_processes
    svc: MatchService = one.app.extensions["robotcore"]
    match_id, token, view = bot_match(one, seed=47)
    key = new_key()
    first = one.move(match_id, token, {"id": view["legal_actions"][0]["id"]}, view["version"],
                     headers={"Idempotency-Key": key})
    assert first.status_code == 200
    remembered = first.get_json()["match"]
    if remembered["status"] == "finished":
        pytest.skip("the match ended at once")
    log = svc.store.actions(match_id)
    # the same key for another move, chosen at the version the process remembers: refused, nothing written
    reused = one.move(match_id, token, {"id": remembered["legal_actions"][0]["id"]}, remembered["version"],
                      headers={"Idempotency-Key": key})
    assert (reused.status_code, reused.get_json()["code"]) == (409, "idempotency-key-reuse")
    assert svc.store.actions(match_id) == log
    # the retry of the original request gets the original answer
    retry = one.move(match_id, token, {"id": view["legal_actions"][0]["id"]}, view["version"],
                     headers={"Idempotency-Key": key})
    assert retry.status_code == 200 and retry.headers["Idempotent-Replayed"] == "true"
    assert retry.get_json() == first.get_json()
    assert svc.store.actions(match_id) == log


@pytest.mark.skipif(not POSTGRES_URL, reason="set ROBOTCORE_TEST_DATABASE_URL to a PostgreSQL URL (CI does)")
def test_connections_the_server_dropped_are_replaced(tmp_path: Path, openapi_schema: Any) -> None:
    """The service keeps its own idle connections (no pre-ping per request): when the server drops them (a
    restart, an administrator), a request meets at most one broken connection (503 unavailable, Retry-After,
    nothing changed), every other idle one is dropped with it, and the next requests connect anew."""
    api = make_api(str(POSTGRES_URL), openapi_schema)
    doc, _ = api.create(GAMES[0], seed=1)
    match_id = doc["match_id"]
    assert api.get(f"/v1/matches/{match_id}").status_code == 200
    killer = sa.create_engine(sa.engine.make_url(str(POSTGRES_URL)))
    with killer.connect() as conn:
        conn.execute(sa.text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                             "WHERE datname = current_database() AND pid <> pg_backend_pid() "
                             "AND backend_type = 'client backend'"))
    killer.dispose()
    statuses = [api.get(f"/v1/matches/{match_id}", check=False).status_code for _ in range(3)]
    assert statuses == [503, 200, 200], statuses
    api.app.extensions["robotcore"].store.dispose()


def test_connections_in_use_at_once_are_bounded(store: Store) -> None:
    """At most ``_max_open`` hot-path connections are open at once in a process: a request that finds them all in
    use waits for one to come back (and is served on it) instead of opening another."""
    rec, _ = new_record()
    store.insert_match(rec)
    store.dispose()
    store._max_open = 1
    held, release, served = threading.Event(), threading.Event(), []

    def holder() -> None:
        with store._dbapi():
            held.set()
            release.wait(10)

    first = threading.Thread(target=holder)
    first.start()
    assert held.wait(10)
    second = threading.Thread(target=lambda: served.append(store.get_version(rec.id)))
    second.start()
    second.join(0.3)
    assert second.is_alive() and served == [] and store._open == 1     # waiting: no second connection
    release.set()
    first.join(10)
    second.join(10)
    assert served == [0] and store._open == 1 and len(store._idle) == 1
    store.dispose()
    assert store._open == 0 and store._idle == []


def test_connection_blocks_translate_errors_and_give_connections_back(store: Store) -> None:
    """``Store._dbapi``: a driver error is raised as SQLAlchemy's (rolled back, the connection kept), an open
    transaction is rolled back at the block's end, any other exception passes through unchanged; every time the
    connection goes back to the idle ones."""
    rec, _ = new_record()
    store.insert_match(rec)
    with pytest.raises(sa.exc.DBAPIError) as raised:
        with store._dbapi() as conn:
            conn.cursor().execute("SELECT * FROM no_such_table")
    assert raised.value.orig is not None and len(store._idle) == 1
    with store._dbapi() as conn:
        cur = conn.cursor()
        if store.dialect != "sqlite":        # (a server's connections are in autocommit: open one by hand)
            cur.execute("BEGIN")
        cur.execute(store._sql["select_version"], (rec.id,))
        cur.execute("UPDATE matches SET version = 99 WHERE id = " + ("?" if store.dialect == "sqlite" else "%s"),
                    (rec.id,))
    assert store.get_version(rec.id) == rec.version and len(store._idle) == 1    # rolled back, given back
    with pytest.raises(KeyError):
        with store._dbapi():
            raise KeyError("not the driver's")
    assert len(store._idle) == 1


def test_the_connection_bound_is_a_setting(tmp_path: Path) -> None:
    """``ROBOTCORE_DB_CONNECTIONS`` (``Settings.db_connections``) bounds the hot path's connections per process;
    0 leaves the store's default, and a bound under 1 is refused."""
    from robotcore_api.app import create_app
    from robotcore_api.service import Settings

    url = f"sqlite:///{tmp_path / 'bound.db'}"
    for given, bound in ((3, 3), (0, 64)):
        app = create_app(settings=Settings(database_url=url, db_connections=given))
        store = app.extensions["robotcore"].store
        assert store._max_open == bound
        store.dispose()
    with pytest.raises(ValueError, match="at least 1"):
        Store(url, max_connections=-2)
