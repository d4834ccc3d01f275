"""Errors as RFC 9457 ``application/problem+json`` with a stable machine ``code``.

Every error the service sends is a ``Problem``: a fixed code from ``CODES`` (its HTTP status and title are
fixed too), a human ``detail`` and, for some codes, extension members (``errors`` for field errors,
``current_version`` for a stale move). Details are written by this package or come from robotcore's errors,
whose messages never carry hidden information (they name the action and the seat that asked, nothing else).
Clients branch on ``code``, never on prose.
"""

from __future__ import annotations

from typing import Any

from werkzeug.exceptions import HTTPException

PROBLEM_MEDIA_TYPE = "application/problem+json"
TYPE_PREFIX = "urn:robotcore:problem:"

#: code -> (HTTP status, title). The codes are part of the API: never rename one.
CODES: dict[str, tuple[int, str]] = {
    "malformed-json": (400, "The request body is not valid JSON"),
    "bad-request": (400, "Bad request"),
    "invalid-token": (401, "Missing, malformed or unknown seat token"),
    "forbidden-seat": (403, "This token belongs to another seat"),
    "not-found": (404, "No such resource"),
    "method-not-allowed": (405, "Method not allowed"),
    "not-your-turn": (409, "This seat is not among the seats that must act now"),
    "game-over": (409, "The match is over"),
    "not-finished": (409, "The match is not over yet"),
    "stale-version": (409, "The match changed since the version you sent"),
    "idempotency-key-reuse": (409, "This Idempotency-Key was used for another request"),
    "payload-too-large": (413, "Request body too large"),
    "uri-too-long": (414, "Request line too long"),
    "unsupported-media-type": (415, "Send the body as application/json"),
    "validation": (422, "The request does not match its schema"),
    "invalid-parameter": (422, "Invalid game parameter"),
    "invalid-action": (422, "Not an action of this game"),
    "illegal-action": (422, "This action is not legal now"),
    "invalid-state": (422, "Corrupted, truncated or foreign state bytes"),
    "version-required": (428, "Send expected_version in the body or an If-Match header"),
    "rate-limited": (429, "Too many requests; retry after the time in Retry-After"),
    "headers-too-large": (431, "Request header fields too large"),
    "unavailable": (503, "The store is busy; retry shortly"),
    "bots-busy": (503, "The server's bot pool is full; retry shortly"),
    "too-many-watchers": (503, "The server holds as many watchers as it may; retry shortly, or poll"),
    "internal": (500, "Internal error"),
}

_BY_STATUS = {
    400: "bad-request",
    401: "invalid-token",
    403: "forbidden-seat",
    404: "not-found",
    405: "method-not-allowed",
    409: "stale-version",
    412: "stale-version",
    413: "payload-too-large",
    414: "uri-too-long",
    415: "unsupported-media-type",
    422: "validation",
    428: "version-required",
    429: "rate-limited",
    431: "headers-too-large",
    503: "unavailable",
}


class Problem(HTTPException):
    """An error response. ``status`` defaults to the code's status (stale-version may also be 412)."""

    def __init__(self, code: str, detail: str | None = None, *, status: int | None = None,
                 headers: dict[str, str] | None = None, **extensions: Any) -> None:
        default_status, title = CODES[code]
        self.status: int = status or default_status
        self.code = self.status
        super().__init__(description=detail or title)
        self.problem_code = code
        self.title = title
        self.extensions = extensions
        self.extra_headers = headers or {}

    def body(self, instance: str | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": TYPE_PREFIX + self.problem_code,
            "title": self.title,
            "status": self.status,
            "code": self.problem_code,
            "detail": self.description,
        }
        if instance:
            out["instance"] = instance
        out.update(self.extensions)
        return out


def from_http_exception(error: HTTPException) -> Problem:
    """Turn Flask/Werkzeug/webargs errors (404 route, 405, 413, webargs 422/400...) into Problems."""
    if isinstance(error, Problem):
        return error
    status = error.code or 500
    data = getattr(error, "data", None) or {}
    messages = data.get("messages") if isinstance(data, dict) else None
    if status == 400 and messages is not None:
        # webargs: a body that does not parse as JSON
        return Problem("malformed-json", "the request body is not valid JSON")
    if status == 422 and messages is not None:
        return Problem("validation", "the request does not match its schema", errors=_plain(messages))
    code = _BY_STATUS.get(status)
    if code is None:
        return Problem("internal", "internal error", status=500)
    detail = error.description if isinstance(error.description, str) else None
    if code == "not-found":
        detail = "no such resource"
    return Problem(code, detail, status=status)


def field_errors(location: str, path: str, message: str) -> dict[str, Any]:
    """A Problem's ``errors`` for one field, in the shape webargs gives its own (by location, then field, a
    list index as a key): ``field_errors("json", "seats.1.bot", m)`` == ``{"json": {"seats": {"1": {"bot":
    [m]}}}}``, so that a client reads a schema's errors and the service's in one way."""
    out: Any = [message]
    for part in reversed(path.split(".")):
        out = {part: out}
    return {location: out}


def _plain(messages: Any) -> Any:
    """webargs messages keyed by location ({'json': {...}}) with JSON-safe keys."""
    if isinstance(messages, dict):
        return {str(k): _plain(v) for k, v in messages.items()}
    if isinstance(messages, (list, tuple)):
        return [_plain(v) for v in messages]
    return str(messages) if not isinstance(messages, (int, float, bool)) or messages is None else messages
