"""One-ply greedy lookahead, generic over games."""

from __future__ import annotations

from robotcore.bots.base import Bot, register
from robotcore.core.state import State


@register
class GreedyBot(Bot):
    """Applies each legal action to a determinised copy (what the seat knows, the rest re-dealt) and keeps the
    actions that maximise the game's ``evaluate`` (by default the seat's score minus the best other score);
    ties are broken at random."""

    name = "greedy"

    def choose(self, state: State, seat: int, budget_ms: float | None = None) -> int:
        legal = self._legal(state, seat)
        if len(legal) == 1:
            return int(legal[0])
        world = state.resample_hidden(seat, self.rng.next_u64())
        game = state.game
        best: list[int] = []
        best_value: float | None = None
        for action in legal:
            child = world.clone()
            child.apply(action, seat)
            value = game.evaluate(child, seat)
            if best_value is None or value > best_value:
                best, best_value = [action], value
            elif value == best_value:
                best.append(action)
        return int(best[self.rng.below(len(best))])
