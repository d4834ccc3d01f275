"""The example client's requests on the wire: the headers it sends, by default and ``lean`` (the bench's load
clients), read by a plain socket server that records each request's bytes and answers a fixed JSON body."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from robotcore_api.client import Client


class Recorder:
    """A one-connection HTTP/1.1 server on loopback: each request's head and body, as sent."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(1)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.requests: list[tuple[str, dict[str, str], bytes]] = []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        conn, _ = self.sock.accept()
        with conn:
            buf = b""
            while True:
                while b"\r\n\r\n" not in buf:
                    data = conn.recv(65536)
                    if not data:
                        return
                    buf += data
                head, _, buf = buf.partition(b"\r\n\r\n")
                line, *fields = head.decode("latin-1").split("\r\n")
                headers: dict[str, str] = {}
                for field in fields:
                    name, _, value = field.partition(":")
                    assert name.lower() not in headers, f"header sent twice: {name}"
                    headers[name.lower()] = value.strip()
                length = int(headers.get("content-length", "0"))
                while len(buf) < length:
                    buf += conn.recv(65536)
                body, buf = buf[:length], buf[length:]
                self.requests.append((line, headers, body))
                answer = b'{"accepted": {"version": 1, "action": {"id": 3}}, "match": {}}'
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                             + str(len(answer)).encode() + b"\r\n\r\n" + answer)

    def close(self) -> None:
        self.sock.close()


@pytest.fixture()
def recorder() -> Iterator[Recorder]:
    rec = Recorder()
    yield rec
    rec.close()


def _exchange(client: Client, recorder: Recorder) -> list[tuple[str, dict[str, str], bytes]]:
    client.request("GET", "/v1/health")
    client.move("abc", "tok", {"id": 3}, 7)
    client.close()
    recorder.thread.join(5)
    return recorder.requests


def test_default_client_sends_accept_and_an_idempotency_key(recorder: Recorder) -> None:
    (get_line, get, _), (move_line, move, body) = _exchange(Client(recorder.url, retries=0), recorder)
    assert get_line == "GET /v1/health HTTP/1.1"
    assert set(get) == {"host", "accept-encoding", "accept"}
    assert move_line == "POST /v1/matches/abc/moves HTTP/1.1"
    assert set(move) == {"host", "accept-encoding", "accept", "authorization", "content-type", "content-length",
                         "idempotency-key"}
    assert len(move["idempotency-key"]) == 32


def test_lean_client_sends_only_what_the_api_reads(recorder: Recorder) -> None:
    import json

    client = Client(recorder.url, retries=0, lean=True)
    (get_line, get, get_body), (move_line, move, body) = _exchange(client, recorder)
    assert get_line == "GET /v1/health HTTP/1.1" and get_body == b""
    assert get == {"host": recorder.url.removeprefix("http://")}
    assert move_line == "POST /v1/matches/abc/moves HTTP/1.1"
    assert move == {"host": recorder.url.removeprefix("http://"), "authorization": "Bearer tok",
                    "content-type": "application/json", "content-length": str(len(body))}
    parsed: Any = json.loads(body)
    assert parsed == {"action": {"id": 3}, "expected_version": 7}


def test_lean_client_sends_a_key_it_is_given(recorder: Recorder) -> None:
    client = Client(recorder.url, retries=0, lean=True)
    client.move("abc", "tok", {"id": 3}, 7, key="k-1")
    client.close()
    recorder.thread.join(5)
    assert recorder.requests[0][1]["idempotency-key"] == "k-1"


def test_lean_client_writes_each_request_at_once(recorder: Recorder) -> None:
    """http.client writes a request's head and body apart (the server then reads twice); the lean client's
    connection writes them together."""
    writes: list[bytes] = []
    for lean, expected in ((False, 2), (True, 1)):
        client = Client(recorder.url, retries=0, lean=lean)
        conn = client._connection()
        send = conn.send

        def counted(data: Any, send: Any = send) -> None:
            writes.append(bytes(data))
            send(data)

        conn.send = counted  # type: ignore[method-assign]
        client.move("abc", "tok", {"id": 3}, 7)
        assert len(writes) == expected
        assert writes[-1].endswith(b'"expected_version": 7}') and writes[0].startswith(b"POST ")
        writes.clear()
        client.close()
        if not lean:                       # the recorder serves one connection: a new one for the lean client
            recorder.thread.join(5)
            recorder.close()
            recorder.__init__()  # type: ignore[misc]


def test_seats_option_keeps_a_bots_options_together() -> None:
    from robotcore_api.client import _parse_seats

    assert _parse_seats("human,bot:mcts:iterations=50,c=0.5,bot:random") == [
        {"type": "human"}, {"type": "bot", "bot": "mcts:iterations=50,c=0.5"}, {"type": "bot", "bot": "random"}]
    assert _parse_seats("bot:mcts:iterations=50, c=0.5,human") == [               # a space after the comma
        {"type": "bot", "bot": "mcts:iterations=50, c=0.5"}, {"type": "human"}]
    assert _parse_seats(None) is None
    with pytest.raises(SystemExit):
        _parse_seats("human,robot")
