"""gunicorn's own refusals as problem+json.

gunicorn answers some requests before the app ever sees them: a request line over its limit (414), headers over
theirs (431), a malformed request (400), an unsupported transfer coding (501). It writes those answers with
``gunicorn.util.write_error``, as a small HTML page. ``install()`` (called by ``robotcore_api.gunicorn_conf``, in
the master before the workers fork) replaces that function with one that writes the same status as
``application/problem+json`` with a stable ``code``, like every other answer of the service. The worker looks
the function up on the module at each error, so the replacement is used; its signature is gunicorn's.
"""

from __future__ import annotations

import json
import socket
from typing import Any

from .problems import CODES, PROBLEM_MEDIA_TYPE, TYPE_PREFIX

_BY_STATUS = {414: "uri-too-long", 431: "headers-too-large", 500: "internal"}


def problem_bytes(status: int, reason: str, message: str) -> bytes:
    """The whole HTTP answer (status line, headers, problem body) for one of gunicorn's refusals."""
    code = _BY_STATUS.get(status, "bad-request")
    body = json.dumps({
        "type": TYPE_PREFIX + code,
        "title": CODES[code][1],
        "status": status,
        "code": code,
        "detail": (message or reason)[:300],
    }, separators=(",", ":")).encode()
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: {PROBLEM_MEDIA_TYPE}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n")
    return head.encode("latin-1", "replace") + body


def write_error(sock: socket.socket, status_int: int, reason: str, mesg: str) -> None:
    """Drop-in for ``gunicorn.util.write_error``."""
    from gunicorn import util

    util.write_nonblock(sock, problem_bytes(int(status_int), str(reason), str(mesg)))


def install() -> Any:
    """Make gunicorn write its refusals with ``write_error``; returns the function it replaced."""
    from gunicorn import util

    original = util.write_error
    util.write_error = write_error
    return original
