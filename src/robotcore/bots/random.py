"""Uniformly random legal actions."""

from __future__ import annotations

from robotcore.bots.base import Bot, Observer, register


@register
class RandomBot(Bot):
    name = "random"

    def act(self, observer: Observer, budget_ms: float | None = None) -> int:
        legal = self._legal(observer)
        return int(legal[self.rng.below(len(legal))])
