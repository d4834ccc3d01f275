"""``gunicorn_response.OneSendResponse``: the same bytes as gunicorn's own ``Response``, the headers sent with the
first body bytes of an answer with a ``Content-Length``, and gunicorn's own path in every other case."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("gunicorn")

from gunicorn import util  # noqa: E402
from gunicorn.config import Config  # noqa: E402
from gunicorn.http import wsgi  # noqa: E402

from robotcore_api import gunicorn_response  # noqa: E402
from robotcore_api.gunicorn_response import OneSendResponse  # noqa: E402

STOCK = wsgi.Response if wsgi.Response is not OneSendResponse else wsgi.Response.__mro__[1]


class Recorder:
    """A socket that keeps what each ``send`` and ``sendall`` sent; ``send`` takes at most ``limit`` bytes (a
    socket whose buffer is full takes part of what it is given)."""

    def __init__(self, limit: int | None = None) -> None:
        self.sends: list[bytes] = []
        self.limit = limit

    def send(self, data: bytes) -> int:
        taken = bytes(data)[:self.limit]
        self.sends.append(taken)
        return len(taken)

    def sendall(self, data: bytes) -> None:
        self.sends.append(bytes(data))


class Request:
    def __init__(self, method: str = "GET", version: tuple[int, int] = (1, 1)) -> None:
        self.method, self.version = method, version

    def should_close(self) -> bool:
        return False


def answer(cls: Any, status: str, headers: list[tuple[str, str]], writes: list[bytes],
           method: str = "GET", version: tuple[int, int] = (1, 1), limit: int | None = None) -> list[bytes]:
    """What ``cls`` sends for one WSGI answer (``start_response``, the body's writes, ``close``)."""
    sock = Recorder(limit)
    resp = cls(Request(method, version), sock, Config())
    resp.start_response(status, headers)
    for data in writes:
        resp.write(data)
    resp.close()
    return sock.sends


CASES = {
    "whole body at once": ("200 OK", [("Content-Type", "application/json"), ("Content-Length", "15")],
                           [b'{"status":"ok"}'], "GET", (1, 1)),
    "body in two writes": ("200 OK", [("Content-Length", "6")], [b"abc", b"def"], "GET", (1, 1)),
    "body over its length": ("200 OK", [("Content-Length", "3")], [b"abcdef"], "GET", (1, 1)),
    "chunked stream": ("200 OK", [("Content-Type", "text/event-stream")], [b"retry: 2000\n\n", b"x"], "GET",
                       (1, 1)),
    "HTTP/1.0 without a length": ("200 OK", [], [b"abc"], "GET", (1, 0)),
    "HEAD": ("200 OK", [("Content-Length", "3")], [b"abc"], "HEAD", (1, 1)),
    "204": ("204 No Content", [], [b""], "DELETE", (1, 1)),
    "empty body": ("200 OK", [("Content-Length", "0")], [b""], "GET", (1, 1)),
    "problem": ("429 Too Many Requests", [("Content-Type", "application/problem+json"), ("Retry-After", "5"),
                                          ("Content-Length", "2")], [b"{}"], "POST", (1, 1)),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_same_bytes_as_gunicorn(case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(util, "http_date", lambda *a: "Thu, 03 Dec 2026 08:30:17 GMT")
    status, headers, writes, method, version = CASES[case]
    ours = answer(OneSendResponse, status, headers, writes, method, version)
    stock = answer(STOCK, status, headers, writes, method, version)
    assert b"".join(ours) == b"".join(stock)
    if case in ("whole body at once", "problem", "body in two writes"):
        # the headers go with the first body bytes: one send fewer
        assert len(ours) == len(stock) - 1 and ours[1:] == stock[2:]
    else:
        assert ours == stock                               # gunicorn's own path, send for send


@pytest.mark.parametrize("limit", [1, 20, 100])
def test_what_one_send_leaves_is_sent_after_it(limit: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A socket that takes only part of the answer at once (its buffer full): the rest follows, the same bytes."""
    monkeypatch.setattr(util, "http_date", lambda *a: "Thu, 03 Dec 2026 08:30:17 GMT")
    status, headers, writes, method, version = CASES["whole body at once"]
    ours = answer(OneSendResponse, status, headers, writes, method, version, limit)
    stock = answer(STOCK, status, headers, writes, method, version)
    assert b"".join(ours) == b"".join(stock) and len(ours[0]) == limit and len(ours) == 2


def test_install_makes_gunicorn_build_it() -> None:
    original = gunicorn_response.install()
    try:
        assert wsgi.Response is OneSendResponse
        resp, _environ = wsgi.create(_parsed_request(), Recorder(), ("127.0.0.1", 1), ("127.0.0.1", 8000),
                                     Config())
        assert type(resp) is OneSendResponse
    finally:
        wsgi.Response = original


def _parsed_request() -> Any:
    """A request as gunicorn's parser makes it."""
    from gunicorn.http.message import Request as Parsed
    from gunicorn.http.unreader import IterUnreader

    return Parsed(Config(), IterUnreader([b"GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n"]), ("127.0.0.1", 1))
