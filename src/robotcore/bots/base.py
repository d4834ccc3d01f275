"""The bot interface and the table of built-in bots (the service offers exactly these)."""

from __future__ import annotations

import abc
from typing import Any

from robotcore.core.rng import Rng
from robotcore.core.state import State
from robotcore.errors import InvalidParameterError


class Bot(abc.ABC):
    """Chooses an action for a seat. Bots see the state but must only use what ``seat`` may know: they
    work on ``state.resample_hidden(seat, ...)`` or on the legal actions alone."""

    name: str = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    @abc.abstractmethod
    def choose(self, state: State, seat: int, budget_ms: float | None = None) -> int:
        """A legal action of ``seat`` (which must be acting)."""

    def _legal(self, state: State, seat: int) -> list[int]:
        legal: list[int] = state.legal_actions(seat)
        if not legal:
            raise InvalidParameterError(f"seat {seat} has nothing to decide now")
        return legal


BOTS: dict[str, type[Bot]] = {}


def register(cls: type[Bot]) -> type[Bot]:
    BOTS[cls.name] = cls
    return cls


def make_bot(name: str, seed: int = 0, **options: Any) -> Bot:
    try:
        cls = BOTS[name]
    except KeyError:
        raise InvalidParameterError(f"no bot named {name!r}; bots: {', '.join(sorted(BOTS))}") from None
    return cls(seed=seed, **options)
