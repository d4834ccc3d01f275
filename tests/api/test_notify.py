"""The live-update path's own mechanisms (api/live.py, the notifications of api/store.py):

- PostgreSQL's NOTIFY carries the commit (version, new action rows, state bytes): a watching process follows
  another's moves with no read of the match nor of its rows, and equals the stored match at every version;
- a payload that would pass PostgreSQL's limit leaves the state out (then the rows), and the watching process
  then advances its snapshot from the rows, or its watchers read the match;
- the notification payload's parsing refuses what is not ours;
- a spectator's subscription is woken at its match's tick (all of a match's spectators together), a seat's at
  once, also when the move was committed by another process (PostgreSQL's listener); and a spectator's stream still ends with the match's final version and the end event.
"""

from __future__ import annotations

import json
import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from robotcore_api import live
from robotcore_api.live import Change, ChangeFeed
from robotcore_api.store import NOTIFY_LIMIT, NewActions, Store

from .conftest import DATABASES, GAMES, POSTGRES_URL, acting, database_url, make_api, random_move
from .test_store import new_record, step
from .test_watch import events_of, two_apps

needs_postgres = pytest.mark.skipif(not POSTGRES_URL, reason="set ROBOTCORE_TEST_DATABASE_URL to a PostgreSQL URL "
                                                              "(CI does)")


def wait_for(check: Any, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.01)
    return bool(check())


@pytest.mark.parametrize("kind", DATABASES)
@pytest.mark.parametrize("game", GAMES)
def test_another_process_follows_the_moves_from_the_notifications_alone(
        game: str, kind: str, tmp_path: Path, openapi_schema: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A watching service (another worker, another host) brings its snapshot of the match to every version
    another service commits, from the NOTIFY payload alone on PostgreSQL, from the rows its SQLite check reads
    for all the matches that moved on SQLite: no read of the match, none of its action rows for it; at every
    version it is exactly the stored match, and the events built on it are those built on a read."""
    player, watcher = two_apps(kind, tmp_path, openapi_schema)
    svc = watcher.app.extensions["robotcore"]
    try:
        entry = player.get(f"/v1/games/{game}").get_json()
        doc, tokens = player.create(game, seats=[{"type": "human"}] * entry["num_players"])
        match_id = doc["match_id"]
        sub = svc.feed.subscribe(match_id, doc["version"])
        assert wait_for(lambda: svc.feed.listening)
        svc._latest(match_id, doc["version"])                # the snapshot a stream seeds when it opens
        time.sleep(0.3)                                      # (the listener's LISTEN on the match is in place)
        reads: list[Any] = []
        real_load, real_actions = svc.load, svc.store.actions
        monkeypatch.setattr(svc, "load", lambda *a, **k: reads.append(("match", a)) or real_load(*a, **k))
        monkeypatch.setattr(svc.store, "actions", lambda *a, **k: reads.append(("rows", a)) or real_actions(*a, **k))
        rng = random.Random(11)
        for _ in range(40):
            if random_move(player, match_id, tokens, rng) is None:
                break
            stored = player.app.extensions["robotcore"].store.get_match(match_id)
            assert stored is not None
            version = stored.version
            # (the snapshot, then the version heard: the feed's thread notes the latter just after)
            assert wait_for(lambda: svc._snapshots[match_id][0].version == version  # noqa: B023
                            and svc.feed.heard(match_id) == version), "never heard"  # noqa: B023
            rec, state = svc._latest(match_id, stored.version)
            assert (rec.version, rec.state, rec.finished, rec.bots_due) == (
                stored.version, stored.state, stored.finished, stored.bots_due)
            assert state.to_bytes() == stored.state
            rows = svc._rows_between(match_id, doc["version"], stored.version)
            assert [(r.version, r.seat, r.action) for r in rows] == [
                (r.version, r.seat, r.action) for r in real_actions(match_id, doc["version"])]
        assert reads == [], reads                          # every version followed without a read
        svc.feed.unsubscribe(sub)
    finally:
        for api in (player, watcher):
            api.app.extensions["robotcore"].store.dispose()


@needs_postgres
def test_a_seat_in_another_process_hears_a_move_at_once_and_spectators_at_the_batch_end(
        tmp_path: Path, openapi_schema: Any) -> None:
    """The PostgreSQL listener wakes a seat's subscription as soon as it reads the notification, not at the end
    of its batch of notifications; spectators' ticks are scheduled at the batch's end. With the batch made 30 s
    long, the seat of another process hears a move within seconds and the spectator does not."""
    player, watcher = two_apps("postgresql", tmp_path, openapi_schema)
    svc = watcher.app.extensions["robotcore"]
    feed = svc.feed
    feed.PG_BATCH_S = 30.0
    try:
        doc, tokens = player.create("robotrick", seats=[{"type": "human"}] * 3)
        match_id = doc["match_id"]
        seat_sub = feed.subscribe(match_id, doc["version"])
        spectator = feed.subscribe(match_id, doc["version"], spectator=True)
        assert wait_for(lambda: feed.listening)
        time.sleep(0.5)                                      # (the LISTEN on the match is in place)
        seat_sub.event.clear()
        spectator.event.clear()
        seat, view = acting(player, match_id, tokens)
        assert player.move(match_id, tokens[seat], {"id": view["legal_actions"][0]["id"]},
                           view["version"]).status_code == 200
        assert wait_for(seat_sub.event.is_set, timeout=10.0), "the seat waited for the batch's end"
        assert feed.heard(match_id) == doc["version"] + 1
        time.sleep(0.5)
        assert not spectator.event.is_set()                  # its tick comes after the batch
        feed.PG_BATCH_NOTES = 1                              # the next notification ends the batch
        seat, view = acting(player, match_id, tokens)
        assert player.move(match_id, tokens[seat], {"id": view["legal_actions"][0]["id"]},
                           view["version"]).status_code == 200
        assert wait_for(spectator.event.is_set, timeout=10.0)
        for sub in (seat_sub, spectator):
            feed.unsubscribe(sub)
    finally:
        feed.PG_BATCH_S, feed.PG_BATCH_NOTES = ChangeFeed.PG_BATCH_S, ChangeFeed.PG_BATCH_NOTES
        for api in (player, watcher):
            api.app.extensions["robotcore"].store.dispose()


@needs_postgres
def test_a_payload_too_large_leaves_the_state_out_and_the_watchers_still_follow(
        tmp_path: Path, openapi_schema: Any) -> None:
    """The trigger's payload stays under PostgreSQL's 8000 bytes: a state too large for it is left out (the
    version and the rows are sent), and rows too many for it too (the version alone). A watching process then
    advances its snapshot by applying the rows, or its watchers read the match: the stream still ends with the
    final version and the end event."""
    import psycopg
    import sqlalchemy as sa

    store = Store(POSTGRES_URL)
    player = make_api(POSTGRES_URL or "", openapi_schema)
    try:
        doc, tokens = player.create(GAMES[0], seed=4)
        match_id = doc["match_id"]
        conninfo = sa.engine.make_url(POSTGRES_URL).set(drivername="postgresql").render_as_string(
            hide_password=False)
        with psycopg.connect(conninfo, autocommit=True) as listener:
            listener.execute(f'LISTEN "{store.channel(match_id)}"')
            rec = store.get_match(match_id)
            assert rec is not None
            big = NewActions(entries=[(0, 1, False)], state=b"\x01" * (NOTIFY_LIMIT * 3 // 4), finished=False,
                             bots_due=False)
            assert store.commit(match_id, rec.version, big)
            many = NewActions(entries=[(0, 1, False)] * 400, state=b"\x02" * 10, finished=False, bots_due=False)
            assert store.commit(match_id, rec.version + 1, many)
            small = NewActions(entries=[(0, 1, False)], state=b"\x03" * 10, finished=False, bots_due=False)
            assert store.commit(match_id, rec.version + 401, small)
            notes = [n.payload for n in listener.notifies(timeout=5, stop_after=3)]
        assert len(notes) == 3 and all(len(n.encode()) <= NOTIFY_LIMIT for n in notes)
        first, second, third = (json.loads(n) for n in notes)
        assert first["v"] == rec.version + 1 and "s" not in first and len(first["a"]) == 1
        assert second == {"v": rec.version + 401}
        assert third["v"] == rec.version + 402 and len(third["a"]) == 1
        change = Change.parse(notes[2])
        assert change is not None and change.state == b"\x03" * 10 and change.rows is not None
        assert [r.version for r in change.rows] == [rec.version + 402]
        assert Change.parse(notes[1]) == Change(rec.version + 401)
        assert Change.parse(notes[0]) is not None and Change.parse(notes[0]).state is None  # type: ignore[union-attr]
    finally:
        store.dispose()
        player.app.extensions["robotcore"].store.dispose()
    # (that match's state bytes are not a game's: the service's side of a left-out state is the next test)


def test_the_service_follows_a_change_without_its_state_by_applying_its_rows(
        tmp_path: Path, openapi_schema: Any) -> None:
    """A notification that left the state out (too large), or the SQLite check's rows: the snapshot is advanced
    by the rows when they follow it, or reach back before it (only those after it applied), equal to the stored
    match; one whose rows are missing too leaves the snapshot as it is (the watchers then read the match), and
    one whose rows do not follow it is not applied."""
    import os

    player, watcher = two_apps("sqlite", tmp_path, openapi_schema)
    svc = watcher.app.extensions["robotcore"]
    svc.feed._source_pid = os.getpid()                    # no change source: only the changes handed here
    try:
        doc, tokens = player.create("nicodemus", seats=[{"type": "human"}] * 2, seed=8)
        match_id = doc["match_id"]
        sub = svc.feed.subscribe(match_id, doc["version"])
        pstore = player.app.extensions["robotcore"].store
        for i in range(4):
            seat, view = acting(player, match_id, tokens)
            assert player.move(match_id, tokens[seat], {"id": view["legal_actions"][0]["id"]},
                               view["version"]).status_code == 200
            if i == 0:
                svc._latest(match_id, view["version"] + 1)
        stored = pstore.get_match(match_id)
        assert stored is not None
        held = svc._snapshots[match_id]
        assert held[0].version == doc["version"] + 1 < stored.version
        rows = pstore.actions(match_id, held[0].version)
        svc._on_change(match_id, Change(stored.version))                  # the version alone: nothing to apply
        assert svc._snapshots[match_id] is held
        svc._on_change(match_id, Change(stored.version, rows[1:]))        # rows that do not follow it
        assert svc._snapshots[match_id] is held
        overlapping = pstore.actions(match_id, held[0].version - 1)       # one row the snapshot has already
        assert overlapping[1:] == rows
        svc._on_change(match_id, Change(stored.version, overlapping))     # rows that reach back to it: applied
        rec, state = svc._snapshots[match_id]
        assert (rec.version, rec.state, rec.finished, rec.bots_due) == (
            stored.version, stored.state, stored.finished, stored.bots_due)
        assert state.to_bytes() == stored.state
        svc._on_change(match_id, Change(stored.version + 5, rows, b"not a state"))   # corrupt bytes: not applied
        assert svc._snapshots[match_id][0].version == stored.version
        svc.feed.unsubscribe(sub)
    finally:
        for api in (player, watcher):
            api.app.extensions["robotcore"].store.dispose()


def test_a_notification_payload_not_of_ours_is_refused() -> None:
    assert Change.parse("17") == Change(17)
    full = Change.parse(json.dumps({"v": 3, "a": [[2, 0, 5, False, 1.5], [3, 1, 7, True, 1.6]], "f": False,
                                    "b": True, "u": 1.6, "s": "AAEC"}))
    assert full is not None and full.version == 3 and full.state == b"\x00\x01\x02" and full.updated_at == 1.6
    assert [(r.version, r.seat, r.action, r.by_bot) for r in full.rows or []] == [(2, 0, 5, False), (3, 1, 7, True)]
    # rows that do not end at the version announced are not trusted (nor the state that goes with them)
    odd = Change.parse(json.dumps({"v": 4, "a": [[2, 0, 5, False, 1.5]], "s": "AAEC"}))
    assert odd == Change(4)
    for payload in ("", "hello", "{", json.dumps({"a": []}), json.dumps({"v": "x"}), json.dumps([1, 2]),
                    json.dumps({"v": 2, "a": [[1, 0]]}), "\u00b2", "\uff11\uff12", "9" * 5000):
        assert Change.parse(payload) is None, payload       # (isdigit() passed '²', which int() refuses)
    # a state that is not base64: the rows are kept, the state left out
    bad = Change.parse(json.dumps({"v": 2, "a": [[2, 0, 1, False, 0]], "s": "!", "u": 3}))
    assert bad is not None and bad.state is None and bad.rows is not None and bad.version == 2


def test_spectators_wake_at_their_matchs_tick_and_a_seat_at_once(tmp_path: Path) -> None:
    """The feed wakes a seat's subscription at once and the spectators' at the match's next tick, all of them
    together, at most once per tick however many changes came; the feed does not wake a spectator that already
    has the version it heard."""
    store = Store(f"sqlite:///{tmp_path / 'feed.db'}")
    store.create_schema()
    feed = ChangeFeed(store, tick=0.3)
    try:
        seat = feed.subscribe("m", 0)
        spectators = [feed.subscribe("m", 0, spectator=True) for _ in range(3)]
        time.sleep(0.5)
        for sub in [seat, *spectators]:
            sub.event.clear()                       # (the change source, as it starts, wakes everyone once)
        woke: list[float] = []
        feed.publish("m", 1)
        start = time.monotonic()
        assert seat.event.is_set()                   # at once
        assert not any(s.event.is_set() for s in spectators)
        for version in (2, 3):
            feed.publish("m", version)               # more changes before the tick: one wake for all
        assert spectators[0].event.wait(2)
        woke.append(time.monotonic() - start)
        assert all(s.event.is_set() for s in spectators) and woke[0] <= 0.3 + 0.2
        assert feed.heard("m") in (3, None)
        for s in spectators:
            s.event.clear()
            s.version = 3                            # each sent version 3
        time.sleep(0.45)
        assert not any(s.event.is_set() for s in spectators), "woken again with nothing new"
        for sub in [seat, *spectators]:
            feed.unsubscribe(sub)
        assert feed.watched() == 0
    finally:
        store.dispose()


def test_the_sqlite_check_lets_the_process_run_between_chunks_of_matches(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A SQLite check hands out what moved in chunks of ``CHECK_CHUNK`` matches, calling ``cooperate`` (under
    gevent: the worker's ready requests run) between them, instead of holding the worker for the whole pass."""
    store = Store(f"sqlite:///{tmp_path / 'feed.db'}")
    store.create_schema()
    calls: list[float] = []
    monkeypatch.setattr(live, "cooperate", lambda: calls.append(time.monotonic()))
    feed = ChangeFeed(store, tick=0.3)
    try:
        ids, states = [], []
        for seed in range(3 * live.CHECK_CHUNK):
            rec, state = new_record(seed=seed + 1)
            store.insert_match(rec)
            ids.append(rec.id)
            states.append(state)
        subs = [feed.subscribe(match_id, 0) for match_id in ids]
        time.sleep(0.3)                     # the first checks (the subscriptions came in over one or two of them)
        calls.clear()
        new, _ = step(states[0], random.Random(2))
        assert store.commit(ids[0], 0, new)             # a move: the next check passes over all 24 matches
        deadline = time.monotonic() + 5
        while len(calls) < 3 and time.monotonic() < deadline:   # 3 chunks of 8
            time.sleep(0.01)
        assert len(calls) == 3
        for sub in subs:
            feed.unsubscribe(sub)
    finally:
        store.dispose()


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgresql", marks=needs_postgres)])
def test_a_spectator_stream_at_the_tick_gets_every_action_and_the_end(
        kind: str, tmp_path: Path, openapi_schema: Any) -> None:
    """Moves made elsewhere faster than the tick: a spectator's events (at most one a tick) carry every action
    once, in order, and the stream ends with the final version and the end event."""
    url = database_url(kind, tmp_path)
    tick = 0.3
    one, two = make_api(url, openapi_schema, spectator_tick_s=tick), make_api(url, openapi_schema)
    try:
        doc, tokens = two.create("nicodemus", seats=[{"type": "human"}, {"type": "bot", "bot": "random"}], seed=6)
        match_id = doc["match_id"]
        resp = one.client.get(f"/v1/matches/{match_id}/stream", buffered=False)
        chunks = iter(resp.response)
        [(_, first)] = events_of(chunks, 1)
        assert first["events"] == []
        got: list[tuple[float, str, dict[str, Any]]] = []

        def read() -> None:                              # the stream, read as it comes
            buffer = b""
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                buffer += next(chunks)
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    fields = dict(line.split(": ", 1) for line in block.decode().split("\n") if ": " in line
                                  and not line.startswith(":"))
                    if fields.get("event") == "end":
                        got.append((time.monotonic(), "end", {}))
                        return
                    if "data" in fields:
                        got.append((time.monotonic(), "match", json.loads(fields["data"])))

        reader = threading.Thread(target=read, daemon=True)
        t0 = time.monotonic()
        reader.start()
        view = two.view(match_id, tokens[0])
        while view["status"] != "finished":
            if view["to_act"]:
                answer = two.move(match_id, tokens[0], {"id": view["legal_actions"][0]["id"]}, view["version"])
                assert answer.status_code == 200
            view = two.view(match_id, tokens[0])
        reader.join(30)
        resp.close()
        final = two.view(match_id)["version"]
        assert got and got[-1][1] == "end" and got[-2][2]["version"] == final
        matches = [doc for _, kind_, doc in got if kind_ == "match"]
        seen = [e["version"] for d in matches for e in d["events"]]
        assert seen == list(range(first["version"] + 1, final + 1))      # every action once, in order
        assert all(d["match"]["seat"] is None for d in matches)           # a spectator's view
        elapsed = got[-1][0] - t0
        assert len(matches) < final - first["version"]                  # changes were coalesced
        assert len(matches) <= elapsed / tick + 2                         # at most one event a tick
    finally:
        for api in (one, two):
            api.app.extensions["robotcore"].store.dispose()


def _chunk(frame: bytes) -> bytes:
    return b"%X\r\n%s\r\n" % (len(frame), frame)


def park_with_sockets(subs: list[Any], pairs: list[Any]) -> None:
    """Each subscription's stream parked, with a socket of its own (the first of its pair, non-blocking) that
    the feed may write to (``live.Direct``)."""
    from robotcore_api.live import Direct

    for sub, (mine, _) in zip(subs, pairs):
        mine.setblocking(False)
        sub.direct = Direct(mine, chunked=True)
        sub.direct.parked = True


def test_a_commit_writes_a_seat_streams_event_to_its_parked_socket(tmp_path: Path, openapi_schema: Any) -> None:
    """A commit of this process writes a parked seat stream's event to its socket itself (the stream's own bytes,
    as that seat sees the match, one HTTP/1.1 chunk) and wakes it not; it wakes a seat stream not parked (nothing
    written), one whose client left (marked failed) and a long-poll (no socket); a notification of a version
    already sent writes nothing and wakes nothing; at the end of the match it wakes them all."""
    import os
    import socket

    api = make_api(database_url("sqlite", tmp_path), openapi_schema, spectator_tick_s=0.25)
    svc = api.app.extensions["robotcore"]
    feed = svc.feed
    feed._source_pid = os.getpid()                         # no change source: the commits alone wake (no race)
    feed.listening = True
    pairs = [socket.socketpair() for _ in range(3)]
    try:
        doc, tokens = api.create("nicodemus", seats=[{"type": "human"}, {"type": "human"}], seed=3)
        match_id = doc["match_id"]
        rec, state = svc.load(match_id)
        subs = [feed.subscribe(match_id, rec.version, seat=seat) for seat in (0, 1, 0)]
        poll = feed.subscribe(match_id, rec.version, seat=1)
        svc._keep_snapshot(rec, state)
        park_with_sockets(subs, pairs)
        subs[1].direct.parked = False                       # busy writing something of its own
        pairs[2][1].close()                                  # its client left
        seat, view = acting(api, match_id, tokens)
        api.move(match_id, tokens[seat], {"id": view["legal_actions"][0]["id"]}, view["version"])
        new, now = svc.load(match_id)
        assert new.version == rec.version + 1
        expected = svc._stream_event(new, now, 0, rec.version)
        assert json.loads(expected.split(b"data: ", 1)[1])["match"]["seat"] == 0        # seat 0's own view
        assert not subs[0].event.is_set() and subs[0].version == new.version
        pairs[0][1].settimeout(5)
        got = b""
        while len(got) < len(_chunk(expected)):
            got += pairs[0][1].recv(65536)
        assert got == _chunk(expected)
        assert subs[1].event.is_set() and subs[1].version == rec.version                 # not parked
        pairs[1][1].setblocking(False)
        with pytest.raises(BlockingIOError):
            pairs[1][1].recv(1)
        assert subs[2].event.is_set() and subs[2].direct.failed and subs[2].version == rec.version
        assert poll.event.is_set()
        for sub in (*subs, poll):
            sub.event.clear()
        feed._wake_seats(match_id)                           # (a notification of that same commit, heard late)
        assert not subs[0].event.is_set()
        pairs[0][1].setblocking(False)
        with pytest.raises(BlockingIOError):
            pairs[0][1].recv(1)
        subs[1].direct.parked = True
        while api.view(match_id)["status"] != "finished":
            seat, view = acting(api, match_id, tokens)
            subs[0].event.clear()
            api.move(match_id, tokens[seat], {"id": view["legal_actions"][0]["id"]}, view["version"])
        assert subs[0].event.is_set() and subs[1].event.is_set()                         # the end: woken
        for sub in (*subs, poll):
            feed.unsubscribe(sub)
    finally:
        for a, b in pairs:
            a.close()
            b.close()
        svc.store.dispose()


def test_the_tick_writes_a_spectators_event_to_its_parked_stream(tmp_path: Path, openapi_schema: Any) -> None:
    """At a match's spectator tick the service writes the event itself (one chunk of the very bytes the stream
    would have sent) to each parked spectator stream with a socket, and wakes none of those; it wakes a stream
    not parked (nothing written), one whose socket is full (the rest kept for its greenlet, in order), one whose
    client left (marked failed), and, at the end of the match, every one (the final event and the end go
    through the stream itself)."""
    import socket

    api = make_api(database_url("sqlite", tmp_path), openapi_schema, spectator_tick_s=0.25)
    svc = api.app.extensions["robotcore"]
    pairs = [socket.socketpair() for _ in range(4)]
    try:
        doc, tokens = api.create("nicodemus", seats=[{"type": "human"}, {"type": "human"}], seed=3)
        match_id = doc["match_id"]
        rec, state = svc.load(match_id)
        svc._keep_snapshot(rec, state)
        svc.feed._tick = lambda _match_id: None              # the ticks are called here, not by the feed's timers
        subs = [svc.feed.subscribe(match_id, rec.version, spectator=True) for _ in pairs]
        park_with_sockets(subs, pairs)
        subs[1].direct.parked = False                       # busy writing something of its own
        pairs[3][1].close()                                  # its client left
        full = pairs[2][0]
        full.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        while True:                                          # its socket is full
            try:
                full.send(b"x" * 65536)
            except BlockingIOError:
                break
        seat, view = acting(api, match_id, tokens)
        api.move(match_id, tokens[seat], {"id": view["legal_actions"][0]["id"]}, view["version"])
        new, now = svc.load(match_id)
        assert new.version == rec.version + 1
        expected = svc._stream_event(new, now, None, rec.version)
        assert b"id: %d\nevent: match\n" % new.version in expected
        woken = svc._spectator_tick(match_id, new.version, list(subs))
        assert subs[0] not in woken and subs[0].version == new.version
        pairs[0][1].settimeout(5)
        got = b""
        while len(got) < len(_chunk(expected)):
            got += pairs[0][1].recv(65536)
        assert got == _chunk(expected)                       # the stream's own bytes, as one HTTP/1.1 chunk
        assert subs[1] in woken and subs[1].version == rec.version          # not parked: nothing written
        pairs[1][1].setblocking(False)
        with pytest.raises(BlockingIOError):
            pairs[1][1].recv(1)
        assert subs[2] in woken                              # a full socket: its greenlet sends (the rest)
        backlog = subs[2].direct.backlog
        if backlog:                                          # part written: the rest waits, the version is sent
            assert _chunk(expected).endswith(backlog) and subs[2].version == new.version
        else:                                                # nothing written: the stream sends it all
            assert subs[2].version == rec.version
        assert subs[3] in woken and subs[3].direct.failed and subs[3].version == rec.version
        for sub in subs:
            sub.direct.parked = True
            sub.direct.backlog = b""
        subs[0].version = subs[1].version = new.version
        assert svc._spectator_tick(match_id, new.version, [subs[0]]) == []       # nothing new: no write
        # the end: every spectator woken, nothing written by the tick
        while api.view(match_id)["status"] != "finished":
            seat, view = acting(api, match_id, tokens)
            api.move(match_id, tokens[seat], {"id": view["legal_actions"][0]["id"]}, view["version"])
        last = svc.load(match_id)[0].version
        assert set(map(id, svc._spectator_tick(match_id, last, [subs[0], subs[1]]))) == {id(subs[0]), id(subs[1])}
        with pytest.raises(BlockingIOError):
            pairs[1][1].recv(1)
        for sub in subs:
            svc.feed.unsubscribe(sub)
    finally:
        for a, b in pairs:
            a.close()
            b.close()
        svc.store.dispose()
