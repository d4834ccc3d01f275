"""The load test's watchers' client (bench/service_load.py's ``_SSEProtocol``): the counts it reports are what
the issue's "0 lost updates" rests on, so its parsing of a stream is checked here on bytes cut at every place."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("flask")

from .conftest import load_bench  # noqa: E402


def _bench() -> Any:
    return load_bench("service_load")


class _Transport:
    def __init__(self) -> None:
        self.closed = False
        self.written = b""

    def write(self, data: bytes) -> None:
        self.written += data

    def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
        self.closed = True


class _Done:
    def __init__(self) -> None:
        self.set = False

    def done(self) -> bool:
        return self.set

    def set_result(self, _: Any) -> None:
        self.set = True


def _event(version: int, versions: list[int]) -> bytes:
    data = json.dumps({"version": version, "events": [{"version": v} for v in versions], "match": {}})
    return b"id: %d\nevent: match\ndata: %s\n\n" % (version, data.encode())


def _chunked(*parts: bytes) -> bytes:
    return b"".join(b"%X\r\n%s\r\n" % (len(p), p) for p in parts)


HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"


def _connected(request: bytes, seat: bool) -> tuple[dict[str, Any], dict[str, Any], Any, _Transport]:
    """A watcher's protocol (its counts, its own counts, itself, its transport) once connected."""
    out: dict[str, Any] = {"polls": 0, "errors": 0, "events": 0, "out_of_order": 0}
    mine: dict[str, Any] = {"events": 0, "last": None, "ended": False, "order_ok": True}
    proto = _bench()._SSEProtocol(request, out, mine, seat, _Done())
    transport = _Transport()
    proto.connection_made(transport)
    return out, mine, proto, transport


def _feed(body: bytes, cuts: list[int], seat: bool) -> tuple[dict[str, Any], dict[str, Any], _Transport]:
    out, mine, proto, transport = _connected(b"GET / HTTP/1.1\r\n\r\n", seat)
    data = HEAD + body
    at = 0
    for cut in [*cuts, len(data)]:
        if cut > at and not transport.closed:
            proto.data_received(data[at:cut])
            at = cut
    return out, mine, transport


def test_a_stream_cut_anywhere_gives_the_same_counts() -> None:
    body = _chunked(b"retry: 2000\n\n", _event(3, [3]), b": keep-alive\n\n", _event(5, [4, 5]),
                    _event(6, [6]) + _event(8, [7, 8]), b"event: end\ndata: {}\n\n")
    whole = len(HEAD) + len(body)
    for cut in range(1, whole):
        for cuts in ([cut], [cut, min(whole, cut + 7)]):
            out, mine, transport = _feed(body, cuts, seat=True)
            assert (out["events"], out["errors"], out["out_of_order"], out["polls"]) == (4, 0, 0, 1), cuts
            assert (mine["last"], mine["ended"], mine["order_ok"]) == (8, True, True), cuts
            assert transport.closed


def test_an_id_not_above_the_last_is_out_of_order() -> None:
    out, mine, _ = _feed(_chunked(_event(3, [3]), _event(5, [4, 5]), _event(4, [4])), [], seat=False)
    assert out["out_of_order"] == 1 and not mine["order_ok"]


def test_a_seat_event_missing_a_version_is_out_of_order() -> None:
    # a spectator's event may skip versions (its tick coalesces them), a seat's must carry each
    body = _chunked(_event(3, [3]), _event(6, [5, 6]))
    assert _feed(body, [], seat=False)[0]["out_of_order"] == 0
    out, mine, _ = _feed(body, [], seat=True)
    assert out["out_of_order"] == 1 and not mine["order_ok"]


def test_a_refused_stream_is_an_error() -> None:
    out, _, proto, transport = _connected(b"", seat=False)
    proto.data_received(b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n")
    assert out["errors"] == 1 and out["polls"] == 0 and transport.closed
