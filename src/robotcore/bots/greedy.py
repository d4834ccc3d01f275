"""One-ply greedy lookahead, generic over games."""

from __future__ import annotations

from robotcore.bots.base import Bot, Observer, register
from robotcore.core.game import Game
from robotcore.errors import InvalidParameterError, RobotcoreError


@register
class GreedyBot(Bot):
    """Applies each legal action to a determinised copy (what the seat knows, the rest re-dealt) and keeps the
    actions that maximise the game's ``evaluate`` (by default the seat's score minus the best other score);
    ties are broken at random.

    ``prefer``: the text of one action (``"supply PolluPlus"``). Whenever the greedy choice is of the same kind
    (the first word of its text) and the preferred action is legal, the bot plays the preferred one instead: a
    biased bot for balance studies (which supplier, which move pays), generic over games."""

    name = "greedy"

    def __init__(self, seed: int = 0, prefer: str | None = None) -> None:
        super().__init__(seed=seed)
        if prefer is not None and not isinstance(prefer, str):
            raise InvalidParameterError(f"prefer must be the text of an action, got {prefer!r}")
        self.prefer = prefer

    def check_game(self, game: Game) -> None:
        if self.prefer is not None:
            try:
                game.parse_action(self.prefer)
            except RobotcoreError:
                raise InvalidParameterError(f"prefer: {self.prefer!r} is not a {game.title} action") from None

    def act(self, observer: Observer, budget_ms: float | None = None) -> int:
        action = self._greedy(observer)
        if self.prefer is not None:
            game = observer.game
            preferred = game.parse_action(self.prefer)
            if game.action_to_str(action).split()[0] == self.prefer.split()[0] \
                    and preferred in observer.legal_actions():
                return int(preferred)
        return action

    def _greedy(self, observer: Observer) -> int:
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
