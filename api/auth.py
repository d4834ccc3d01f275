"""Seat tokens: generated with ``secrets``, stored only as a SHA-256 digest, compared in constant time.

Tokens carry 256 bits of randomness, so a plain digest (no salt, no slow hash) is enough: nobody can
brute-force a random 32-byte secret from its hash. The comparison runs over every seat of the match, always,
so the time taken does not depend on which seat (if any) a token belongs to.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence

from flask import Request

from .problems import Problem

TOKEN_BYTES = 32
#: Longest Authorization header value considered (longer ones are refused before hashing).
MAX_TOKEN_CHARS = 256


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def bearer_token(request: Request) -> str | None:
    """The bearer token of the request, None without an Authorization header; malformed headers refused.
    (Read from the WSGI environ, as werkzeug's headers would give it, without building them.)"""
    return parse_bearer(request.environ.get("HTTP_AUTHORIZATION"))


def parse_bearer(header: str | None) -> str | None:
    """The token of an Authorization header's value (None: no header); malformed values refused."""
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > MAX_TOKEN_CHARS:
        raise Problem("invalid-token", "expected 'Authorization: Bearer <seat token>'",
                      headers={"WWW-Authenticate": 'Bearer realm="robotcore"'})
    return token


def seat_of(token: str, seat_hashes: Sequence[str | None]) -> int | None:
    """The seat whose stored digest matches ``token`` (None if none does). Every seat is compared, bot seats
    (no digest) against a placeholder, so the time does not depend on which seat matched."""
    digest = hash_token(token)
    found: int | None = None
    for seat, stored in enumerate(seat_hashes):
        if hmac.compare_digest(digest, stored or _NO_DIGEST) and stored is not None:
            found = seat
    return found


_NO_DIGEST = "-" * 64
