"""The move endpoint's plain requests, answered in front of Flask.

``POST /v1/matches/{match_id}/moves`` is the service's hot path: a bot sends one per decision. Flask's
per-request machinery (request context, routing, hooks, a response object) costs about as much as the move
itself, so ``create_app`` puts this WSGI middleware in front of the Flask app. It answers a move request itself
only when everything about it is plain and the move is accepted:

- ``POST`` to exactly ``/v1/matches/<match_id>/moves`` (an id of URL-safe characters);
- a JSON body (``Content-Type: application/json``, a ``Content-Length`` of at most the body limit) that
  ``schemas.plain_move`` accepts (what ``MoveSchema`` would load, checked without marshmallow);
- a well-formed ``Authorization: Bearer`` header and, if sent, valid ``If-Match`` and ``Idempotency-Key``;
- and ``MatchService.move`` accepts the move.

Its answer is the Flask route's: the body built by ``payloads`` (the one choke point) from the same service
call, status 200, the same headers (``Content-Type``, ``Content-Length``, ``Cache-Control: no-store``,
``Idempotent-Replayed`` on a retry). Everything else goes to Flask with the body it was sent: other routes,
unusual requests, and every refused move (a refused request changes nothing, so Flask answers it exactly as it
would have in the first place: the same problem+json). Any other failure is handed to the Flask route, which
raises it again rather than moving twice, so Flask's error handlers answer it. ``tests/api/test_endpoints.py`` plays the same matches
through both and compares every answer.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable
from typing import Any

from webargs.core import parse_json

from . import payloads
from .auth import parse_bearer
from .problems import Problem
from .routes import FASTPATH_FAILED, parse_idempotency_key, parse_if_match
from .schemas import plain_move
from .service import MatchService

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

_PATH = re.compile(r"/v1/matches/([A-Za-z0-9_-]{1,64})/moves")


class MoveFastPath:
    """WSGI middleware: plain, accepted moves answered without Flask; everything else passed to ``app``."""

    def __init__(self, app: WSGIApp, service: MatchService, max_body_bytes: int) -> None:
        self.app = app
        self.service = service
        self.max_body_bytes = max_body_bytes

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "POST":
            path = _PATH.fullmatch(environ.get("PATH_INFO", ""))
            if path is not None:
                answer = self._move(environ, path.group(1))
                if answer is not None:
                    body, replayed = answer
                    headers = [("Content-Type", payloads.JSON), ("Content-Length", str(len(body))),
                               ("Cache-Control", "no-store")]
                    if replayed:
                        headers.append(("Idempotent-Replayed", "true"))
                    start_response("200 OK", headers)
                    return [body]
        return self.app(environ, start_response)

    def _move(self, environ: dict[str, Any], match_id: str) -> tuple[bytes, bool] | None:
        """The accepted move's answer and whether it is a retry's; None: Flask answers the request."""
        if environ.get("HTTP_TRANSFER_ENCODING") is not None:
            return None
        if environ.get("CONTENT_TYPE", "").partition(";")[0].strip().lower() != payloads.JSON:
            return None
        try:
            length = int(environ.get("CONTENT_LENGTH") or "")
        except ValueError:
            return None
        if not 0 < length <= self.max_body_bytes:
            return None
        data = environ["wsgi.input"].read(length)
        environ["wsgi.input"] = io.BytesIO(data)         # Flask reads the body again if it answers
        if len(data) != length:
            return None
        try:
            body = plain_move(parse_json(data))
            token = parse_bearer(environ.get("HTTP_AUTHORIZATION"))
            if_match = parse_if_match(environ.get("HTTP_IF_MATCH"))
            key = parse_idempotency_key(environ.get("HTTP_IDEMPOTENCY_KEY"))
        except (ValueError, RecursionError, Problem):     # not JSON (or nested too deep), a malformed header
            return None
        if body is None or token is None:
            return None
        try:
            answer, replayed = self.service.move(match_id, token, body, if_match, key)
            return payloads.encode(answer), replayed
        except Problem:                                  # refused: nothing changed, Flask words the answer
            return None
        except Exception as error:                       # noqa: BLE001 - handed over, not swallowed
            # A failure (the store, a bug) may come after the commit: Flask must not play the move again, it
            # raises this very error in the route so that its handlers word the answer (503/500 problem+json).
            environ[FASTPATH_FAILED] = error
            return None
