"""The browser page's service side (without a browser; tests/api/test_browser.py drives a real one): the pages
and their files, their security headers, the files shipped as package data, the two endpoints the page added
(recent listed matches, replay), and the edge answers of the issue's "also found" list (deep JSON, OPTIONS,
gunicorn's own refusals, oversized chunked bodies)."""

from __future__ import annotations

import fnmatch
import http.client
import json
import random
import re
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import robotcore
from robotcore_api.app import PAGE_DIR

from .conftest import GAMES, ROOT, ApiClient

PAGES = ["/", "/play/someid", "/replay/someid"]


def page_files() -> list[Path]:
    return sorted(p for p in PAGE_DIR.rglob("*") if p.is_file())


@pytest.mark.parametrize("path", PAGES)
def test_pages_are_served_with_a_strict_content_security_policy(api: ApiClient, path: str) -> None:
    resp = api.get(path)
    assert resp.status_code == 200 and resp.mimetype == "text/html"
    csp = resp.headers["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert directives["default-src"] == "'none'"
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
    assert directives["connect-src"] == "'self'" and directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in csp and "*" not in csp and "http" not in csp
    assert resp.headers["Referrer-Policy"] == "no-referrer"
    assert resp.headers["X-Content-Type-Options"] == "nosniff"


def test_page_files_carry_no_inline_code_and_no_html_sinks(api: ApiClient) -> None:
    files = page_files()
    assert {p.suffix for p in files} == {".html", ".js", ".css"}
    for path in files:
        text = path.read_text(encoding="utf-8")
        rel = "/page/" + path.relative_to(PAGE_DIR).as_posix()
        resp = api.get(rel)
        assert resp.status_code == 200 and resp.data.decode() == text, rel
        assert "Content-Security-Policy" in resp.headers
        if path.suffix == ".html":
            for tag in re.findall(r"<script\b[^>]*>", text):
                assert 'src="/page/' in tag, f"{rel}: an inline script"
            assert not re.search(r"<script\b[^>]*>(?!</script>)\s*[^<\s]", text), f"{rel}: code inside a script tag"
            assert "<style" not in text and " style=" not in text and re.search(r"\son[a-z]+=", text) is None
            assert "http://" not in text and "https://" not in text     # nothing fetched from elsewhere
        if path.suffix == ".js":
            code = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
            code = re.sub(r"(?m)^\s*//.*$", "", code)              # comments may name what the code avoids
            for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(",
                         "new Function", ".style.", "setAttribute(\"style", "location.search"):
                assert sink not in code, f"{rel} uses {sink}"
            for url in re.findall(r"https?://[^\s\"'`]+", code):
                pytest.fail(f"{rel} names an outside URL: {url}")


def test_page_files_are_package_data() -> None:
    """Every file of the page is matched by pyproject's package-data (so an installed service has its page)."""
    tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library from Python 3.11")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["robotcore_api"]
    api_dir = ROOT / "api"
    source = sorted(p for p in (api_dir / "page").rglob("*") if p.is_file())
    assert source
    for path in source:              # the repository's files (the service under test may be an installed copy)
        rel = path.relative_to(api_dir).as_posix()
        assert any(fnmatch.fnmatch(rel, p) and rel.count("/") == p.count("/") for p in patterns), rel
        assert (PAGE_DIR / path.relative_to(api_dir / "page")).is_file(), f"{rel} is not served"
    manifest = (ROOT / "MANIFEST.in").read_text(encoding="utf-8")
    assert "recursive-include api *.py *.json *.js *.css *.html" in manifest


def test_the_page_calls_only_documented_endpoints() -> None:
    """The API paths the page's code names are paths of the committed OpenAPI document (the browser test
    checks the requests it really sent)."""
    doc = json.loads((ROOT / "api" / "openapi.json").read_text(encoding="utf-8"))
    documented = [re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", p) + "$") for p in doc["paths"]]
    named = set()
    for path in page_files():
        text = path.read_text(encoding="utf-8")
        named |= set(re.findall(r"[\"`](/v1/[^\"`?]*)", text))
        named |= {"/v1/matches/x" + m for m in re.findall(r"\$\{base\}(/[a-z-]*)", text)}
    named = {re.sub(r"\$\{[^}]+\}", "x", n) for n in named}
    assert "/v1/matches/x/events" in named and "/v1/matches/x/replay" in named
    for path in named:
        if path.startswith("/v1/docs"):
            continue                                           # the lobby links to the documentation page
        assert any(rx.match(path) for rx in documented), f"the page names an undocumented path: {path}"


# -- recent listed matches ----------------------------------------------------------------------------------------


def test_only_listed_matches_are_listed_newest_first(api: ApiClient) -> None:
    hidden, _ = api.create(GAMES[0])
    first, _ = api.create(GAMES[0], listed=True)
    second, _ = api.create(GAMES[-1], listed=True)
    listed = api.get("/v1/matches").get_json()["matches"]
    ids = [m["match_id"] for m in listed]
    assert ids == [second["match_id"], first["match_id"]] and hidden["match_id"] not in ids
    entry = listed[0]
    assert "token" not in json.dumps(listed) and "seed" not in entry and "view" not in entry
    assert entry["game"] == GAMES[-1] and entry["status"] == "active" and entry["seats"][0]["type"] == "human"
    assert [m["match_id"] for m in api.get("/v1/matches?limit=1").get_json()["matches"]] == [second["match_id"]]
    for bad in ("0", "101", "x"):
        assert api.get(f"/v1/matches?limit={bad}").get_json()["code"] == "validation"


# -- replay -------------------------------------------------------------------------------------------------------


def play_out(api: ApiClient, match_id: str, tokens: dict[int, str], seed: int) -> None:
    """Random legal moves for the human seats until the end (the bot seats play by themselves)."""
    rng = random.Random(seed)
    for _ in range(5000):
        for token in tokens.values():
            view = api.view(match_id, token)
            if view["status"] == "finished":
                return
            if view["to_act"]:
                choice = rng.choice(view["legal_actions"])
                resp = api.move(match_id, token, {"id": choice["id"]}, view["version"])
                assert resp.status_code == 200, resp.get_json()
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("name", GAMES)
def test_replay_steps_are_the_views_the_log_replays(api: ApiClient, name: str) -> None:
    n = robotcore.load_game(name).num_players
    created, tokens = api.create(name, seed=9, seats=[{"type": "human"}] + [{"type": "bot", "bot": "random"}] * (n - 1))
    match_id = created["match_id"]
    resp = api.get(f"/v1/matches/{match_id}/replay?at=0")
    assert resp.status_code == 409 and resp.get_json()["code"] == "not-finished"   # nothing before the end
    play_out(api, match_id, tokens, seed=9)
    log = api.get(f"/v1/matches/{match_id}/log").get_json()
    game = robotcore.load_game(name, **log["params"])
    history = [(e["seat"], e["action"]["id"]) for e in log["entries"]]
    total = log["version"]
    for at in sorted({0, 1, total // 3, total - 1, total}):
        past = game.replay(log["reveal"]["seed"], history[:at])
        step = api.get(f"/v1/matches/{match_id}/replay?at={at}").get_json()
        assert step["at"] == at and step["version"] == total and step["seat"] is None
        assert step["view"] == past.view(None) and step["actors"] == list(past.actors)
        assert step["entry"] == (log["entries"][at - 1] if at else None)
        assert (step["outcome"] is not None) == (at == total) and step["status"] == ("finished" if at == total else "active")
        for seat in range(n):
            mine = api.get(f"/v1/matches/{match_id}/replay?at={at}&seat={seat}").get_json()
            assert mine["view"] == past.view(seat)
    assert api.get(f"/v1/matches/{match_id}/replay?at={total + 1}").get_json()["code"] == "validation"
    assert api.get(f"/v1/matches/{match_id}/replay?at=0&seat={n}").get_json()["code"] == "validation"
    assert api.get(f"/v1/matches/{match_id}/replay?at=0", token="x" * 43).get_json()["code"] == "invalid-token"
    assert api.get("/v1/matches/nosuchmatch/replay").get_json()["code"] == "not-found"


# -- the edge answers ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/v1/matches", "/v1/matches/abc/moves", "/v1/games/robotrick/engine/new"])
def test_deeply_nested_json_is_a_client_error(api: ApiClient, path: str) -> None:
    body = "[" * 1000 + "]" * 1000
    resp = api.post(path, data=body, content_type="application/json", token="t" * 43)
    assert resp.status_code == 400 and resp.get_json()["code"] == "malformed-json", resp.get_json()
    deeper = '{"a":' * 5000 + "1" + "}" * 5000
    resp = api.post(path, data=deeper, content_type="application/json", token="t" * 43)
    assert resp.status_code in (400, 413) and resp.mimetype == "application/problem+json"


def test_a_recursion_answered_as_malformed_json_is_logged_with_where_it_happened(
        api: ApiClient, caplog: pytest.LogCaptureFixture) -> None:
    """Every RecursionError is answered as a body nested too deeply (400): one of the service's own would be
    hidden by that answer, so it is logged with its traceback (REST review)."""
    with caplog.at_level("INFO", logger="robotcore_api"):
        resp = api.post("/v1/matches", data="[" * 1000 + "]" * 1000, content_type="application/json")
    assert resp.status_code == 400 and resp.get_json()["code"] == "malformed-json"
    assert [r for r in caplog.records if r.exc_info and r.exc_info[0] is RecursionError]


@pytest.mark.parametrize("path", ["/v1/matches", "/v1/matches/abc/moves", "/v1/matches/abc/bot-move",
                                  "/v1/games/robotrick/engine/new"])
@pytest.mark.parametrize("where", ["seed", "action", "expected_version", "unknown"])
def test_an_integer_past_pythons_digit_limit_is_malformed_json(api: ApiClient, path: str, where: str) -> None:
    """The standard library's json refuses an integer of more than ``sys.get_int_max_str_digits()`` digits with
    a plain ValueError (it was a 500): malformed JSON, as any body it cannot read, and nothing created."""
    digits = "9" * (sys.get_int_max_str_digits() + 1) if hasattr(sys, "get_int_max_str_digits") else "9" * 5000
    body = {"seed": '{"game": "robotrick", "seed": %s}', "action": '{"action": {"id": %s}, "expected_version": 0}',
            "expected_version": '{"action": {"id": 1}, "expected_version": %s}',
            "unknown": '{"game": "robotrick", "x": %s}'}[where] % digits
    before = api.get("/v1/matches").get_json()
    resp = api.post(path, data=body, content_type="application/json", token="t" * 43)
    assert (resp.status_code, resp.get_json()["code"]) == (400, "malformed-json"), resp.get_json()
    assert resp.mimetype == "application/problem+json"
    assert api.get("/v1/matches").get_json() == before


@pytest.mark.parametrize("path", ["/v1/matches", "/v1/matches/abc/moves", "/v1/games/robotrick/engine/new"])
@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_malformed_json(api: ApiClient, path: str, value: str) -> None:
    """NaN and Infinity are no JSON (RFC 8259); the standard library reads them, so such a body was answered as a
    bad value of its field (validation, invalid-parameter: REST review), not as the malformed body it is."""
    before = api.get("/v1/matches").get_json()
    for body in ('{"game": "robotrick", "seed": %s}', '{"game": "robotrick", "params": {"rounds": %s}}',
                 '{"action": {"id": 1, "json": [[%s]]}, "expected_version": 0}'):
        resp = api.post(path, data=body % value, content_type="application/json", token="t" * 43)
        assert (resp.status_code, resp.get_json()["code"]) == (400, "malformed-json"), resp.get_json()
    assert api.get("/v1/matches").get_json() == before


@pytest.mark.parametrize("path", ["/v1/matches", "/v1/health", "/"])
def test_options_is_answered_without_a_body(api: ApiClient, path: str) -> None:
    resp = api.call("OPTIONS", path, check=False)
    assert resp.status_code == 204 and resp.data == b"" and "GET" in resp.headers["Allow"]
    assert "Content-Type" not in resp.headers


if sys.platform != "win32":
    from .test_live import LiveServer

    @pytest.fixture(scope="module")
    def live(tmp_path_factory: pytest.TempPathFactory) -> Any:
        workdir = tmp_path_factory.mktemp("edges")
        srv = LiveServer(f"sqlite:///{workdir / 'edges.db'}", workdir, workers=1, ROBOTCORE_MAX_WATCHERS="2").start()
        yield srv
        srv.stop()

    def raw(server: Any, request: bytes) -> tuple[int, dict[str, str], bytes]:
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
            sock.sendall(request)
            resp = http.client.HTTPResponse(sock)
            resp.begin()
            return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()

    @pytest.mark.parametrize("case", ["long-url", "big-headers", "bad-request-line", "chunked-too-large",
                                      "options"])
    def test_gunicorn_refusals_are_problem_json(live: Any, case: str) -> None:
        if case == "long-url":
            request = b"GET /v1/matches/" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"
            want = (414, "uri-too-long")
        elif case == "big-headers":
            request = b"GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"p" * 9000 + b"\r\n\r\n"
            want = (431, "headers-too-large")
        elif case == "bad-request-line":
            request = b"GET\r\n\r\n"
            want = (400, "bad-request")
        elif case == "chunked-too-large":
            chunk = b"[" + b"1," * 40_000 + b"1]"
            request = (b"POST /v1/matches HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                       b"Transfer-Encoding: chunked\r\n\r\n" + b"%x\r\n%s\r\n0\r\n\r\n" % (len(chunk), chunk))
            want = (413, "payload-too-large")
        else:
            request = b"OPTIONS /v1/matches HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            status, headers, body = raw(live, request)
            assert status == 204 and body == b"" and "GET" in headers["allow"]
            return
        status, headers, body = raw(live, request)
        assert status == want[0] and headers["content-type"] == "application/problem+json", (status, body[:200])
        problem = json.loads(body)
        assert problem["status"] == want[0] and problem["code"] == want[1] and problem["detail"]


    def poll_request(match_id: str, after: int, wait: float) -> bytes:
        return (f"GET /v1/matches/{match_id}/events?after={after}&wait={wait} HTTP/1.1\r\nHost: x\r\n\r\n"
                ).encode()

    def test_waiting_polls_are_bounded_and_a_disconnected_watcher_frees_its_slot(live: Any) -> None:
        """One worker that may hold 2 watchers (ROBOTCORE_MAX_WATCHERS) lets 2 polls wait. A third answers at
        once (the current view); when the waiting clients disconnect, their slots are free again within a second
        or two (not after their 25 s)."""
        from robotcore_api.client import Client

        client = Client(live.url)
        created = client.create_match("robotrick", seats=[{"type": "human"}, {"type": "bot", "bot": "random"},
                                                          {"type": "bot", "bot": "random"}], seed=1)
        match_id, version = created["match_id"], created["version"]
        watchers = [socket.create_connection(("127.0.0.1", live.port), timeout=30) for _ in range(2)]
        for sock in watchers:
            sock.sendall(poll_request(match_id, version, 25))
        time.sleep(0.5)                                      # both are waiting now
        start = time.monotonic()
        answer = client.events(match_id, version, 20)       # over the bound: answered at once, nothing new
        assert answer["events"] == [] and time.monotonic() - start < 10
        assert client.request("GET", "/v1/health")[0] == 200
        for sock in watchers:
            sock.close()                                     # the watchers go away
        time.sleep(2.5)          # a waiting watcher learns at once under gevent, within WATCH_TICK_S with threads
        results: list[float] = []

        def timed_poll() -> None:
            c = Client(live.url)
            t = time.monotonic()
            c.events(match_id, version, 2)
            results.append(time.monotonic() - t)
            c.close()

        threads = [threading.Thread(target=timed_poll) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        # both waited their 2 s: the two slots were free again
        assert len(results) == 2 and all(r >= 1.5 for r in results), results
        client.close()
