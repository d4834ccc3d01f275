"""Rate limits per client address and per seat token, answered as problem+json ``429`` with ``Retry-After``.

A WSGI layer in front of everything, counting with the ``limits`` library (the counting core of
Flask-Limiter, used directly: a refusal is answered before Flask's request machinery runs at all, and every
path, the page's files and event streams included, counts alike without a decorator per route). Limits are
settings (``Settings.rate_limit_address``, ``Settings.rate_limit_token``, e.g. ``"50/second;2000/minute"``;
empty: no limit) and counters live in ``Settings.rate_limit_storage`` (``memory://``: per process, so a
server of N workers lets a client through about N times the limit; ``redis://host`` or ``memcached://host``
share them across workers and hosts). A token is counted by its SHA-256 digest, never stored as such.
"""

from __future__ import annotations

import hashlib
import math
import os
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterable
from typing import Any

from limits import RateLimitItem, parse_many, storage, strategies
from limits.errors import ConfigurationError

from . import payloads
from .auth import parse_bearer
from .problems import PROBLEM_MEDIA_TYPE, Problem

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def parse_limits(text: str, setting: str) -> list[RateLimitItem]:
    """``"50/second;2000/minute"`` as limits (empty: none); a clear ValueError naming the setting otherwise."""
    if not text.strip() or text.strip().lower() == "none":
        return []
    try:
        return list(parse_many(text))
    except ValueError as exc:
        raise ValueError(f"{setting}: not a rate limit such as '50/second;2000/minute': {text!r} ({exc})") from None


class RateLimits:
    """WSGI middleware: each request counts against its client address's limits and, when it carries a bearer
    token, that token's; over any of them it is answered 429 without reaching the app (nothing changes)."""

    def __init__(self, app: WSGIApp, address_limits: list[RateLimitItem], token_limits: list[RateLimitItem],
                 storage_uri: str = "memory://") -> None:
        self.app = app
        self.address_limits = address_limits
        self.token_limits = token_limits
        self.storage_uri = storage_uri
        if urllib.parse.urlparse(storage_uri).scheme != "memory":
            try:        # a store made and dropped: an unknown one, or one without its client library, fails now
                storage.storage_from_string(storage_uri)
            except ConfigurationError as exc:
                raise ValueError(f"rate_limit_storage (ROBOTCORE_RATE_LIMIT_STORAGE): {storage_uri!r}: {exc}") \
                    from None
        self._limiter: strategies.MovingWindowRateLimiter | None = None
        self._pid = -1
        self._making = threading.Lock()

    @property
    def limiter(self) -> strategies.MovingWindowRateLimiter:
        """This process's limiter, made at its first request. Made with the app, in gunicorn's master before
        it forks its workers, a memory store's expiry timer (a greenlet under gevent) was inherited by every
        worker, and failed there at once with a ``KeyError`` traceback in the log; its counters are per process
        anyway, and a shared store's connections are best opened by the process that uses them."""
        if self._pid != os.getpid():
            with self._making:
                if self._pid != os.getpid():
                    self._limiter = strategies.MovingWindowRateLimiter(storage.storage_from_string(self.storage_uri))
                    self._pid = os.getpid()
        assert self._limiter is not None
        return self._limiter

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        checks: list[tuple[RateLimitItem, str, str, str]] = [
            (item, "address", environ.get("REMOTE_ADDR") or "-", "client address") for item in self.address_limits]
        if self.token_limits:
            try:
                token = parse_bearer(environ.get("HTTP_AUTHORIZATION"))
            except Problem:
                token = None
            if token is not None:
                digest = hashlib.sha256(token.encode()).hexdigest()[:32]
                checks += [(item, "token", digest, "seat token") for item in self.token_limits]
        for item, kind, key, what in checks:
            if not self.limiter.hit(item, kind, key):
                reset, _ = self.limiter.get_window_stats(item, kind, key)
                retry = max(1, math.ceil(reset - time.time()))
                problem = Problem("rate-limited", f"more than {item} from this {what}; retry in {retry} s",
                                  headers={"Retry-After": str(retry)})
                body = payloads.encode(problem.body())
                start_response("429 Too Many Requests", [
                    ("Content-Type", PROBLEM_MEDIA_TYPE), ("Content-Length", str(len(body))),
                    ("Retry-After", str(retry)), ("Cache-Control", "no-store")])
                return [body]
        return self.app(environ, start_response)
