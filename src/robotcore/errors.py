"""Typed errors of robotcore. Every one is a ``ValueError`` (bad input), so callers may catch broadly or narrowly.

Messages never carry hidden information: they name the action and the seat that asked, nothing else.
"""

from __future__ import annotations

__all__ = [
    "RobotcoreError",
    "UnknownGameError",
    "InvalidParameterError",
    "InvalidSeatError",
    "InvalidActionError",
    "IllegalActionError",
    "NotYourTurnError",
    "GameOverError",
    "CorruptStateError",
    "BatchInUseError",
]


class RobotcoreError(ValueError):
    """Base class of every error robotcore raises on bad input."""


class UnknownGameError(RobotcoreError, LookupError):
    """No game is registered under that name."""


class InvalidParameterError(RobotcoreError):
    """A game parameter (or replacement content) is unknown, of the wrong type or out of range."""


class InvalidSeatError(RobotcoreError):
    """A seat number outside ``0..num_players-1``."""


class InvalidActionError(RobotcoreError):
    """Not an action of this game at all: out of range, wrong type, or text/JSON that does not parse."""


class IllegalActionError(RobotcoreError):
    """A well-formed action that the rules do not allow now (the state is left unchanged)."""


class NotYourTurnError(IllegalActionError):
    """The seat is not among the seats that must act now."""


class GameOverError(IllegalActionError):
    """The game is over: nothing can be applied."""


class CorruptStateError(RobotcoreError):
    """Serialized or array state bytes that are truncated, tampered with, foreign, or break the invariants."""


class BatchInUseError(RobotcoreError):
    """A batch call whose rows overlap those of a call in flight in another thread, where either one writes."""
