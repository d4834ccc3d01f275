"""Fixtures of the service tests: an app on a fresh SQLite file (and on PostgreSQL when
ROBOTCORE_TEST_DATABASE_URL names one: CI starts a real server), and a test client that checks every answer
against the committed OpenAPI document."""

from __future__ import annotations

import functools
import importlib.util
import os
import random
import re
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("flask")
pytest.importorskip("schemathesis")

import schemathesis  # noqa: E402
from flask import Flask  # noqa: E402
from werkzeug.test import TestResponse  # noqa: E402

import robotcore  # noqa: E402
from robotcore_api.app import create_app  # noqa: E402
from robotcore_api.openapi import PACKAGED  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
#: the committed document (the repository's copy when the tests run from a checkout)
OPENAPI_PATH = ROOT / "api" / "openapi.json" if (ROOT / "api" / "openapi.json").exists() else PACKAGED
POSTGRES_URL = os.environ.get("ROBOTCORE_TEST_DATABASE_URL")

GAMES = robotcore.list_games()

DATABASES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.skipif(
    not POSTGRES_URL, reason="set ROBOTCORE_TEST_DATABASE_URL to a PostgreSQL URL (CI does)"))]


def database_url(kind: str, tmp_path: Path) -> str:
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'robotcore.db'}"
    assert POSTGRES_URL
    return POSTGRES_URL


@pytest.fixture(scope="session", autouse=True)
def fresh_postgres_schema() -> None:
    """The PostgreSQL test database starts each session with the current tables (match ids are random, so
    the tests of a session do not need more isolation than that)."""
    if POSTGRES_URL:
        from robotcore_api.store import Store

        store = Store(POSTGRES_URL)
        store.drop_schema()
        store.create_schema()
        store.dispose()


@pytest.fixture(scope="session")
def openapi_schema() -> Any:
    return schemathesis.openapi.from_path(OPENAPI_PATH)


class ApiClient:
    """Flask's test client, checking each answer against the document (status, content type, body)."""

    def __init__(self, app: Flask, schema: Any) -> None:
        self.app = app
        self.client = app.test_client()
        self.schema = schema
        self._routes = [
            (re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", path) + "$"), path)
            for path in schema.raw_schema["paths"]
        ]

    def call(self, method: str, path: str, *, json: Any = None, token: str | None = None,
             headers: dict[str, str] | None = None, data: Any = None, content_type: str | None = None,
             check: bool = True) -> TestResponse:
        hdrs = dict(headers or {})
        if token is not None:
            hdrs["Authorization"] = f"Bearer {token}"
        kw: dict[str, Any] = {"headers": hdrs}
        if json is not None:
            kw["json"] = json
        if data is not None:
            kw["data"] = data
        if content_type is not None:
            kw["content_type"] = content_type
        resp = self.client.open(path, method=method, **kw)
        if check:
            self.check(method, path, resp)
        return resp

    def check(self, method: str, path: str, resp: TestResponse) -> None:
        bare = path.split("?")[0]
        template = next((t for rx, t in self._routes if rx.match(bare)), None)
        if resp.status_code >= 400:
            assert resp.mimetype == "application/problem+json", (resp.status_code, resp.data[:300])
            body = resp.get_json()
            assert body["status"] == resp.status_code and body["code"], body
        elif resp.mimetype == "application/json":
            assert resp.get_json() is not None
        if template is not None and method.lower() in self.schema.raw_schema["paths"][template]:
            self.schema[template][method.upper()].validate_response(resp)

    def get(self, path: str, **kw: Any) -> TestResponse:
        return self.call("GET", path, **kw)

    def post(self, path: str, **kw: Any) -> TestResponse:
        return self.call("POST", path, **kw)

    # -- helpers ---------------------------------------------------------------------------------------------

    def create(self, game: str, **body: Any) -> tuple[dict[str, Any], dict[int, str]]:
        resp = self.post("/v1/matches", json={"game": game, **body})
        assert resp.status_code == 201, resp.get_json()
        doc = resp.get_json()
        return doc, {s["seat"]: s["token"] for s in doc["seats"] if s["token"]}

    def view(self, match_id: str, token: str | None = None) -> dict[str, Any]:
        resp = self.get(f"/v1/matches/{match_id}", token=token)
        assert resp.status_code == 200, resp.get_json()
        doc: dict[str, Any] = resp.get_json()
        return doc

    def move(self, match_id: str, token: str, action: dict[str, Any], version: int | None,
             **kw: Any) -> TestResponse:
        body: dict[str, Any] = {"action": action}
        if version is not None:
            body["expected_version"] = version
        return self.post(f"/v1/matches/{match_id}/moves", json=body, token=token, **kw)


@functools.cache
def load_bench(name: str) -> Any:
    """A module of ``bench/`` (not a package), loaded from its file once; its sibling modules importable."""
    bench = Path(__file__).resolve().parents[2] / "bench"
    spec = importlib.util.spec_from_file_location(f"{name}_under_test", bench / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(bench))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(bench))
    return module


def make_api(url: str, schema: Any, **settings: Any) -> ApiClient:
    if settings:
        from robotcore_api.service import Settings

        app = create_app(settings=Settings(database_url=url, **settings))
    else:
        app = create_app(url)
    return ApiClient(app, schema)


@pytest.fixture
def api(tmp_path: Path, openapi_schema: Any) -> Iterator[ApiClient]:
    client = make_api(database_url("sqlite", tmp_path), openapi_schema)
    yield client
    client.app.extensions["robotcore"].store.dispose()


@pytest.fixture(params=DATABASES)
def any_db_api(request: pytest.FixtureRequest, tmp_path: Path, openapi_schema: Any) -> Iterator[ApiClient]:
    """The same tests on SQLite and on PostgreSQL."""
    client = make_api(database_url(request.param, tmp_path), openapi_schema)
    yield client
    client.app.extensions["robotcore"].store.dispose()


def new_key() -> str:
    return uuid.uuid4().hex


def typical_stride(game: robotcore.Game, seed: int, rng: random.Random, checks: int) -> int:
    """Every how many steps a match's checks run, for ``checks`` spread over a typical game (max_game_length can
    be far above what games really last): the length of one random game from ``seed``, played with ``rng``."""
    typical = game.new_initial_state(seed)
    while not typical.is_terminal:
        s = rng.choice(typical.actors)
        typical.apply(rng.choice(typical.legal_actions(s)), s)
    return max(1, len(typical.history) // checks)


def acting(api: ApiClient, match_id: str, tokens: dict[int, str]) -> tuple[int, dict[str, Any]]:
    """A human seat that must act now, and its view."""
    spectator = api.view(match_id)
    seat = next(s for s in spectator["actors"] if s in tokens)
    return seat, api.view(match_id, tokens[seat])


def random_move(api: ApiClient, match_id: str, tokens: dict[int, str],
                rng: random.Random) -> tuple[int, dict[str, Any]] | None:
    """One random legal move of a human seat that must act (checked to be accepted): that seat and its view
    before the move; None once the match is finished."""
    if api.view(match_id)["status"] == "finished":
        return None
    seat, view = acting(api, match_id, tokens)
    choice = rng.choice(view["legal_actions"])
    assert api.move(match_id, tokens[seat], {"id": choice["id"]}, view["version"]).status_code == 200
    return seat, view
