"""Value types shared by every game: parameters, outcomes, views."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

#: A seat number, ``0..num_players-1``.
Seat = int
#: An action id, ``0..num_actions-1``.
Action = int
#: JSON-ready dict describing what one seat can see.
View = dict[str, Any]
#: ``State.current_player`` once the game is over (OpenSpiel's value).
TERMINAL = -4


@dataclass(frozen=True)
class ParamSpec:
    """One game parameter: its name, type, default and allowed values (checked by ``Game``)."""

    name: str
    type: type
    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None
    min: int | None = None
    max: int | None = None
    check: Callable[[Any], Any] | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "type": self.type.__name__, "doc": self.doc}
        if self.type in (int, bool, str, float):
            out["default"] = self.default
        else:
            out["default"] = None  # replaceable content: the game's built-in data
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.min is not None:
            out["min"] = self.min
        if self.max is not None:
            out["max"] = self.max
        return out


@dataclass(frozen=True)
class Outcome:
    """The end of a game as a value: scores, places (0 = first, ties share) and the winners.

    A solo game (one seat) has one place, 0, whatever its result: whether it was won is ``winners`` (empty for
    a lost game in ``State.outcome``, as its return is 0.0); ranking keys alone cannot tell, so ``from_keys``
    gives a lone seat the win. Code that compares results should read the winners or the returns, not places.

    >>> o = Outcome.from_keys([5, 9, 9], [5, 9, 9])
    >>> o.winners, o.places, o.shared
    ((1, 2), (2, 0, 0), True)
    """

    scores: tuple[int, ...]
    places: tuple[int, ...]
    winners: tuple[int, ...]

    @property
    def shared(self) -> bool:
        """True when several seats share the victory."""
        return len(self.winners) > 1

    @property
    def ranking(self) -> tuple[tuple[int, ...], ...]:
        """Seats grouped by place, best first."""
        return tuple(
            tuple(s for s, p in enumerate(self.places) if p == place) for place in sorted(set(self.places))
        )

    @classmethod
    def from_keys(cls, scores: Sequence[int], keys: Sequence[int]) -> Outcome:
        """Places from ranking keys: a seat's place is the number of seats with a strictly better key."""
        places = tuple(sum(1 for other in keys if other > k) for k in keys)
        winners = tuple(s for s, p in enumerate(places) if p == 0)
        return cls(tuple(int(x) for x in scores), places, winners)

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "places": list(self.places),
            "winners": list(self.winners),
            "shared": self.shared,
        }
