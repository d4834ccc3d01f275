"""The service's shortened request cycle (``app.ServiceFlask``, ``payloads.BodyResponse``) and its SQLite tables:
each shortcut gives what Flask, werkzeug and the old tables gave, and steps aside when what it skips is in use."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from flask import Blueprint, Flask, session, signals

from robotcore_api.app import create_app
from robotcore_api.live import GC_THRESHOLD, gc_threshold
from robotcore_api.store import MatchRecord, NewActions, Store

from .conftest import GAMES
from .test_store import new_record, step


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    return create_app(f"sqlite:///{tmp_path / 'robotcore.db'}")


def _human_match(app: Flask) -> tuple[str, str]:
    client = app.test_client()
    doc = client.post("/v1/matches", json={"game": GAMES[0]}).get_json()
    return doc["match_id"], doc["seats"][0]["token"]


def test_signals_are_sent_when_listened_to(app: Flask) -> None:
    heard: list[str] = []
    names = ["request_started", "request_finished", "request_tearing_down", "appcontext_pushed",
             "appcontext_popped", "appcontext_tearing_down"]
    receivers = {n: (lambda sender, n=n, **kw: heard.append(n)) for n in names}
    for n in names:
        getattr(signals, n).connect(receivers[n], app)
    try:
        assert app.test_client().get("/v1/health").status_code == 200
    finally:
        for n in names:
            getattr(signals, n).disconnect(receivers[n], app)
    assert sorted(heard) == sorted(names)
    heard.clear()
    app.test_client().get("/v1/health")
    assert heard == []


def test_blueprint_hooks_and_teardown_are_called(app: Flask) -> None:
    called: list[str] = []
    extra = Blueprint("extra", __name__, url_prefix="/extra")

    @extra.before_request
    def _before() -> None:
        called.append("before")

    @extra.after_request
    def _after(resp: Any) -> Any:
        called.append("after")
        resp.headers["X-Extra"] = "1"
        return resp

    @extra.get("/ping")
    def ping() -> dict[str, str]:
        return {"ok": "yes"}

    app.register_blueprint(extra)
    app.teardown_request(lambda exc: called.append("teardown"))
    app.teardown_appcontext(lambda exc: called.append("appcontext"))
    resp = app.test_client().get("/extra/ping")
    assert resp.status_code == 200 and resp.headers["X-Extra"] == "1"
    assert called == ["before", "after", "teardown", "appcontext"]


def test_no_session_without_a_secret_key(app: Flask) -> None:
    @app.get("/v1/_session")
    def write() -> dict[str, str]:
        session["x"] = "1"
        return {}

    resp = app.test_client().get("/v1/_session")
    assert resp.status_code == 500                      # Flask's NullSession refuses writes, as before
    assert "Set-Cookie" not in resp.headers


def test_sessions_work_with_a_secret_key(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'robotcore.db'}")
    app.config["SECRET_KEY"] = "test"

    @app.get("/v1/_session")
    def write() -> dict[str, str]:
        session["x"] = session.get("x", "") + "1"
        return {"x": session["x"]}

    client = app.test_client()
    assert client.get("/v1/_session").get_json() == {"x": "1"}
    assert client.get("/v1/_session").get_json() == {"x": "11"}


def test_urls_matched_again_route_as_the_first_time(app: Flask) -> None:
    first, token = _human_match(app)
    second, _ = _human_match(app)
    client = app.test_client()
    for _ in range(2):
        assert client.get(f"/v1/matches/{first}").get_json()["match_id"] == first
        assert client.get(f"/v1/matches/{second}").get_json()["match_id"] == second
        assert client.delete(f"/v1/matches/{first}").status_code == 405          # never kept
        assert client.get(f"/v1/matches/{first}/nothing").status_code == 404
    assert ("GET", f"/v1/matches/{first}", "", False) in app._matched         # type: ignore[attr-defined]
    assert not any(k[0] == "DELETE" for k in app._matched)                     # type: ignore[attr-defined]
    app.MATCHED_URLS = 2                                                       # type: ignore[attr-defined]
    for _ in range(3):
        assert client.get(f"/v1/matches/{first}").status_code == 200
        assert client.get(f"/v1/matches/{second}/log").status_code == 200
        assert client.get("/v1/health").status_code == 200
    assert len(app._matched) <= 2                                              # type: ignore[attr-defined]


def test_body_answers_as_werkzeug_would(app: Flask) -> None:
    client = app.test_client()
    got = client.get("/v1/health")
    assert got.data == b'{"status":"ok"}' and got.headers["Content-Length"] == str(len(got.data))
    assert got.headers["Content-Type"] == "application/json"
    head = client.head("/v1/health")
    assert head.status_code == 200 and head.data == b"" and head.headers["Content-Length"] == str(len(got.data))
    created = client.post("/v1/matches", json={"game": GAMES[0]})
    assert created.status_code == 201 and created.headers["Location"].endswith(
        "/v1/matches/" + created.get_json()["match_id"])
    missing = client.get("/v1/matches/nope")
    assert missing.status_code == 404 and missing.headers["Content-Type"] == "application/problem+json"
    assert int(missing.headers["Content-Length"]) == len(missing.data)


def test_url_adapters_are_made_as_flask_makes_them(app: Flask) -> None:
    """The adapters made from ``ServiceFlask._bound`` equal Flask's own, for every host (a malformed one too),
    path and query; with TRUSTED_HOSTS set Flask's own code refuses the others, every time."""
    environs = []
    for host in ("127.0.0.1:8000", "Example.COM", "example.com:443", "[::1]:8000", "bad host", None):
        for path, query in (("/v1/health", ""), ("/v1/matches/x%C3%A9", "a=%C3%A9&b=\xc3\xa9"), (None, None)):
            environ = {"REQUEST_METHOD": "GET", "SERVER_NAME": "localhost", "SERVER_PORT": "8000",
                       "SERVER_PROTOCOL": "HTTP/1.1", "wsgi.url_scheme": "https" if host and "443" in host else "http"}
            if host is not None:
                environ["HTTP_HOST"] = host
            if path is not None:
                environ["PATH_INFO"], environ["QUERY_STRING"] = path, query
            environs.append(environ)
    for _ in range(2):                                   # made by Flask, then from what it made
        for environ in environs:
            request, fresh = app.request_class(environ), app.request_class(environ)
            ours, flasks = app.create_url_adapter(request), Flask.create_url_adapter(app, fresh)
            assert ours is not None and flasks is not None
            assert vars(ours) == vars(flasks) and request.host == fresh.host
    assert app._bound                                                            # type: ignore[attr-defined]
    client = app.test_client()
    app.config["TRUSTED_HOSTS"] = ["example.com"]
    for _ in range(2):
        assert client.get("/v1/health", headers={"Host": "127.0.0.1:8000"}).status_code == 400
    assert client.get("/v1/health", headers={"Host": "example.com"}).status_code == 200


def test_answers_are_made_as_werkzeug_makes_them() -> None:
    from robotcore_api.payloads import BodyResponse

    for status in (200, 201, 204, 304, 400, 404, 412, 422, 429, 500, 503, 599):
        for content_type in ("application/json", "application/problem+json"):
            body = b'{"x":' + str(status).encode() + b"}"
            ours, theirs = BodyResponse.of(body, status, content_type), BodyResponse(
                body, status=status, content_type=content_type)
            assert vars(ours).keys() == vars(theirs).keys()
            assert list(ours.headers.items()) == list(theirs.headers.items())
            assert {k: v for k, v in vars(ours).items() if k != "headers"} == {
                k: v for k, v in vars(theirs).items() if k != "headers"}
            for method in ("GET", "HEAD"):
                assert ours.get_wsgi_response({"REQUEST_METHOD": method})[1:] == theirs.get_wsgi_response(
                    {"REQUEST_METHOD": method})[1:]


def test_log_tables_are_clustered_on_sqlite(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'robotcore.db'}")
    store.create_schema()
    rec, state = new_record()
    store.insert_match(rec)
    new, _ = step(state, random.Random(1), 2)
    assert store.commit(rec.id, 0, new, "key-1", "f" * 64)
    store.dispose()
    with sqlite3.connect(tmp_path / "robotcore.db") as conn:
        ddl = dict(conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'").fetchall())
    assert "WITHOUT ROWID" in ddl["actions"] and "WITHOUT ROWID" in ddl["idempotency"]
    assert "WITHOUT ROWID" not in ddl["matches"]          # its rows hold the state bytes: a rowid table


def test_a_store_made_before_keeps_working(tmp_path: Path) -> None:
    """A SQLite store whose log tables were made with rowids (before) is served by the same statements."""
    path = tmp_path / "old.db"
    store = Store(f"sqlite:///{path}")
    store.create_schema()
    store.dispose()
    with sqlite3.connect(path) as conn:                 # the tables as they were made before
        for table in ("actions", "idempotency"):
            sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0]
            conn.execute(f"ALTER TABLE {table} RENAME TO old_{table}")
            conn.execute(sql.replace("WITHOUT ROWID", ""))
            conn.execute(f"DROP TABLE old_{table}")
    store = Store(f"sqlite:///{path}")
    store.create_schema()
    rec, state = new_record()
    store.insert_match(rec)
    rng = random.Random(2)
    version = 0
    for i in range(3):
        new, state = step(state, rng, 2)
        assert store.commit(rec.id, version, new, f"key-{i}", "f" * 64)
        assert not store.commit(rec.id, version, new, f"key-{i}b", "f" * 64)      # compare-and-set lost
        version += 2
    again: MatchRecord | None = store.get_match(rec.id, "key-0")
    assert again is not None and again.version == 6 and again.idempotent and again.idempotent[0].version == 1
    assert [r.version for r in store.actions(rec.id)] == list(range(1, 7))
    seat = next(iter(again.idempotent))
    dup = NewActions([(seat, 0, False)], state.to_bytes(), False, False)
    assert not store.commit(rec.id, 6, dup, "key-0", "f" * 64)                  # the key's row exists
    assert store.get_version(rec.id) == 6 and len(store.actions(rec.id)) == 6      # rolled back whole
    store.dispose()


def test_gunicorn_freezes_what_the_master_made_before_forking() -> None:
    """``gunicorn_conf.pre_fork`` puts the preloaded app out of the collector's reach (``gc.freeze``)."""
    import os
    import subprocess
    import sys

    code = ("import gc; from robotcore_api import gunicorn_conf; before = gc.get_freeze_count(); "
            "gunicorn_conf.pre_fork(None, None); print(before, gc.get_freeze_count(), *gc.get_threshold())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120,
                         env=dict(os.environ, ROBOTCORE_WORKER_CLASS="gthread")).stdout.split()
    assert int(out[0]) == 0 and int(out[1]) > 10_000
    assert tuple(map(int, out[2:])) == GC_THRESHOLD


def test_the_workers_collect_at_the_configured_thresholds() -> None:
    """``ROBOTCORE_GC_THRESHOLD`` sets the workers' collector thresholds (``pre_fork``, inherited by the fork);
    unset, ``live.GC_THRESHOLD``, above CPython's 700 (a worker holding a thousand watchers spent 3-8% of its
    CPU in young collections there); a malformed value stops the configuration with a clear error."""
    import os
    import subprocess
    import sys

    assert gc_threshold(None) == gc_threshold(" ") == GC_THRESHOLD and GC_THRESHOLD[0] > 700
    # young collections kept small, since each stops the worker (10-16 ms at 20,000 with a thousand watchers
    # open, 3-5 ms at 5,000), and the older generations collected as seldom as at 20000,10,10
    young, middle, old = GC_THRESHOLD
    assert young <= 5_000 and young * middle >= 200_000 and young * middle * old >= 2_000_000
    assert gc_threshold("700,10,10") == (700, 10, 10)
    assert gc_threshold("0, 10, 10") == (0, 10, 10)
    for bad in ("700", "700,10", "a,b,c", "-1,10,10", "1.5,10,10", "700,10,10,1"):
        with pytest.raises(ValueError, match="ROBOTCORE_GC_THRESHOLD"):
            gc_threshold(bad)
    code = ("import gc; from robotcore_api import gunicorn_conf; gunicorn_conf.pre_fork(None, None); "
            "print(*gc.get_threshold())")

    def configured(value: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                              env=dict(os.environ, ROBOTCORE_WORKER_CLASS="gthread", ROBOTCORE_GC_THRESHOLD=value))

    assert configured("1234,5,6").stdout.split() == ["1234", "5", "6"]
    refused = configured("lots")
    assert refused.returncode != 0 and "ROBOTCORE_GC_THRESHOLD must be three whole numbers" in refused.stderr


def test_uploaded_files_are_closed_and_no_files_cost_nothing(app: Flask) -> None:
    """The request's close (``app._ServiceRequest``) closes what werkzeug's would: the files parsed."""
    import io

    from flask import request

    upload = io.BytesIO(b"data")
    with app.test_request_context("/v1/health", method="POST", data={"f": (upload, "a.txt")}):
        assert request.files["f"].read() == b"data"
    assert upload.closed
    with app.test_request_context("/v1/health"):
        assert "files" not in request.__dict__              # (closed without parsing any)


def test_app_context_url_adapter_is_flasks(tmp_path: Path) -> None:
    """Without SERVER_NAME an app context has no URL adapter (Flask's answer, given at once); with it, Flask's."""
    plain = create_app(f"sqlite:///{tmp_path / 'a.db'}")
    with plain.app_context() as ctx:
        assert ctx.url_adapter is None
    named = create_app(f"sqlite:///{tmp_path / 'b.db'}")
    named.config["SERVER_NAME"] = "example.com"
    with named.app_context() as ctx:
        assert ctx.url_adapter is not None and ctx.url_adapter.server_name == "example.com"
        from flask import url_for

        assert url_for("meta.health") == "http://example.com/v1/health"


def test_gunicorn_workers_default_to_one_per_core_under_gevent() -> None:
    """``WEB_CONCURRENCY`` unset: one gevent worker per core on PostgreSQL and SQLite (each more process repeats
    the live updates' work for every watched match; on SQLite four workers on two cores used 12% more CPU a move
    than two), two per core with gthread workers, never above 8; the configuration itself reads the rule, and
    ``WEB_CONCURRENCY`` still wins."""
    import os
    import subprocess
    import sys

    from robotcore_api.live import default_workers

    pg = "postgresql+psycopg://me@localhost/robotcore"
    assert default_workers(pg, "gevent", 2) == 2
    assert default_workers("postgresql://me@localhost/robotcore", "gevent", 4) == 4
    assert default_workers(pg, "gthread", 2) == 4
    assert default_workers("sqlite:///robotcore.db", "gevent", 2) == 2
    assert default_workers("sqlite:///robotcore.db", "gthread", 2) == 4
    assert default_workers("sqlite:///robotcore.db", "gevent", 16) == 8
    assert default_workers("sqlite:///robotcore.db", "gthread", 16) == 8
    assert default_workers(pg, "gevent", 0) == 1
    # the hot path's connections per worker on PostgreSQL: 64 shared, 4 to 16 each (eight workers of 16, with
    # their listeners, passed the server's default limit of 100); the store's own default elsewhere
    from robotcore_api.live import default_db_connections

    assert [default_db_connections(pg, w) for w in (1, 2, 4, 8, 16, 32)] == [16, 16, 16, 8, 4, 4]
    assert default_db_connections("sqlite:///robotcore.db", 8) == 0

    def configured(**env: str) -> int:
        code = "from robotcore_api import gunicorn_conf; print(gunicorn_conf.workers)"
        base = {k: v for k, v in os.environ.items() if k not in ("WEB_CONCURRENCY", "ROBOTCORE_DATABASE_URL")}
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120,
                             env=dict(base, ROBOTCORE_WORKER_CLASS="gevent", **env)).stdout
        return int(out.split()[-1])

    cores = os.cpu_count() or 1
    assert configured(ROBOTCORE_DATABASE_URL=pg) == min(8, cores)
    assert configured() == min(8, cores)                          # the embedded SQLite default
    assert configured(ROBOTCORE_DATABASE_URL=pg, WEB_CONCURRENCY="3") == 3
