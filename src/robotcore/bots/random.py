"""Uniformly random legal actions."""

from __future__ import annotations

from robotcore.bots.base import Bot, register
from robotcore.core.state import State


@register
class RandomBot(Bot):
    name = "random"

    def choose(self, state: State, seat: int, budget_ms: float | None = None) -> int:
        legal = self._legal(state, seat)
        return int(legal[self.rng.below(len(legal))])
