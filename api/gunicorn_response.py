"""gunicorn's answers in one send when they can be.

gunicorn's ``Response`` writes an answer's status line and headers with one ``sendall`` and then its body with a
second: two system calls, and on loopback two trips through the TCP stack (the sender's and, since the kernel
delivers at once, the reader's wake-up) for every answer of a few hundred bytes. ``OneSendResponse`` sends the
headers with the first body bytes of an answer that has a ``Content-Length`` (a Flask app's common answer: one
bytes body, so the whole answer in one call): the same bytes on the wire, one send fewer; and it sends them with
``send`` (``sendall`` only for what one send leaves), since gevent's ``sendall`` asks the kernel for the socket's
buffer size (``getsockopt``) on every call: 2% of a worker's CPU under load. Every other case (a
chunked stream, an HTTP/1.0 body without a length, a response without a body, ``sendfile``) takes gunicorn's own
path unchanged. (tests/api/test_gunicorn_response.py compares the bytes with gunicorn's own, case by case.)

``install()`` (called by ``robotcore_api.gunicorn_conf``, in the master before the workers fork) makes gunicorn
build its responses with this class: ``gunicorn.http.wsgi.create`` looks ``Response`` up on its module at each
request. The bench's bare Flask floor runs on the same configuration, so it has the same server.
"""

from __future__ import annotations

from typing import Any

from gunicorn.http import wsgi


class OneSendResponse(wsgi.Response):  # type: ignore[misc]
    """gunicorn's ``Response``, writing the headers and the first body bytes with one ``sendall``."""

    # (gunicorn's own attributes, set by its __init__: typed for mypy, which sees the class as Any)
    sock: Any
    headers: list[tuple[str, str]]
    headers_sent: bool
    chunked: bool
    response_length: int | None
    sent: int

    def head_bytes(self) -> bytes:
        """The status line and headers, exactly as ``Response.send_headers`` writes them."""
        tosend = self.default_headers()
        tosend.extend([f"{k}: {v}\r\n" for k, v in self.headers])
        return ("".join(tosend) + "\r\n").encode("latin-1")

    def write(self, arg: bytes) -> None:
        if (not self.headers_sent and type(arg) is bytes and arg and not self.chunked
                and not getattr(self, "_omits_body", False) and self.response_length is not None
                and len(arg) <= self.response_length):
            # (what Response.write would do, in one call: the headers, then all of ``arg``, which fits the length)
            data = self.head_bytes() + arg
            # one send takes a whole answer of a few KB; sendall only for what it left (gevent's sendall asks the
            # kernel for the socket's buffer size on every call, one more system call for every answer)
            sent = self.sock.send(data)
            if sent < len(data):
                self.sock.sendall(memoryview(data)[sent:])
            self.headers_sent = True
            self.sent += len(arg)
            return
        super().write(arg)


def install() -> Any:
    """Make gunicorn answer with ``OneSendResponse``; returns the class it replaced."""
    original = wsgi.Response
    wsgi.Response = OneSendResponse
    return original
