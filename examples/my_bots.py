"""Two bots written against robotcore's Bot protocol, usable everywhere bots are named:

    robotcore tournament --game nicodemus --bots "examples.my_bots:FirstLegal" "examples.my_bots:Greedy1:tries=4" random
    python -c "from robotcore.bots import make_bot; print(make_bot('examples.my_bots:FirstLegal'))"

(``examples`` must be importable: from the repository root, ``PYTHONPATH=. robotcore tournament --bots
"examples.my_bots:FirstLegal" ...``; the ``robotcore`` command does not look in the working directory by itself).
A bot gets only an ``Observer`` of its seat: view, legal actions, public history, determinisations.
"""

from __future__ import annotations

from robotcore.bots import Bot, Observer


class FirstLegal(Bot):
    """The smallest bot: always the first legal action."""

    name = "first-legal"

    def act(self, observer: Observer, budget_ms: float | None = None) -> int:
        return observer.legal_actions()[0]


class Greedy1(Bot):
    """One-ply lookahead averaged over ``tries`` determinisations, using the game's own evaluation."""

    name = "greedy1"

    def __init__(self, seed: int = 0, tries: int = 2) -> None:
        super().__init__(seed)
        self.tries = tries
        self.seen = 0

    def reset(self) -> None:                                 # optional hook: a new game
        self.seen = 0

    def observe(self, observer: Observer, seat: int, action: int | None) -> None:   # optional hook
        self.seen += 1

    def act(self, observer: Observer, budget_ms: float | None = None) -> int:
        legal = observer.legal_actions()
        worlds = [observer.resample(self.rng.next_u64()) for _ in range(self.tries)]
        def value(action: int) -> float:
            total = 0.0
            for world in worlds:
                child = world.clone()
                child.apply(action, observer.seat)
                total += observer.game.evaluate(child, observer.seat)
            return total
        return max(legal, key=value)
