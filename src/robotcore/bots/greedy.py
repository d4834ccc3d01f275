"""One-ply greedy lookahead, generic over games."""

from __future__ import annotations

from robotcore.bots.base import Bot, Observer, register


@register
class GreedyBot(Bot):
    """Applies each legal action to a determinised copy (what the seat knows, the rest re-dealt) and keeps the
    actions that maximise the game's ``evaluate`` (by default the seat's score minus the best other score);
    ties are broken at random."""

    name = "greedy"

    def act(self, observer: Observer, budget_ms: float | None = None) -> int:
        legal = self._legal(observer)
        if len(legal) == 1:
            return int(legal[0])
        seat = observer.seat
        world = observer.resample(self.rng.next_u64())
        game = observer.game
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
