"""The table of games: name -> where its ``Game`` class lives. Adding a game is one row here.

Games are imported lazily, so ``import robotcore`` stays cheap and one broken game cannot break the others.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal, overload

from robotcore.core.game import Game
from robotcore.core.state import State, read_header
from robotcore.errors import CorruptStateError, InvalidParameterError, UnknownGameError

if TYPE_CHECKING:       # (the games import the kernel, not this module; at run time they load on demand)
    from robotcore.games.nicodemus import NicodemusGame
    from robotcore.games.robotrick import RobotrickGame
    from robotcore.games.scrapyard import ScrapyardGame
    from robotcore.games.smartphone import SmartphoneGame
    from robotcore.games.sparks import SparksGame

__all__ = ["GameName", "GameEntry", "GAMES", "ALL_GAMES", "list_games", "load_game", "make", "from_bytes",
           "params_for_seats"]

#: Names of the five games. To type checkers ``load_game`` answers each with its own class (``load_game("sparks")``
#: is a ``SparksGame``, with its own methods), and any other name with a ``Game``.
GameName = Literal["robotrick", "scrapyard", "nicodemus", "sparks", "smartphone"]


@dataclass(frozen=True)
class GameEntry:
    name: str
    title: str
    seed: str            # the seed file in shared/seeds
    module: str
    cls: str

    def load(self) -> type[Game]:
        game_cls: type[Game] = getattr(importlib.import_module(self.module), self.cls)
        return game_cls


GAMES: dict[str, GameEntry] = {
    "robotrick": GameEntry("robotrick", "Robotrick", "003", "robotcore.games.robotrick", "RobotrickGame"),
    "scrapyard": GameEntry("scrapyard", "Scrapyard", "000", "robotcore.games.scrapyard", "ScrapyardGame"),
    "nicodemus": GameEntry("nicodemus", "Nicodemus", "001", "robotcore.games.nicodemus", "NicodemusGame"),
    "sparks": GameEntry("sparks", "Sparks", "002", "robotcore.games.sparks", "SparksGame"),
    "smartphone": GameEntry("smartphone", "Smartphone", "004", "robotcore.games.smartphone", "SmartphoneGame"),
}

#: The five games of the mission, with where each stands (the README's table).
ALL_GAMES: dict[str, str] = {
    "robotrick": "complete",
    "scrapyard": "complete",
    "nicodemus": "complete",
    "sparks": "complete",
    "smartphone": "complete",
}


def list_games() -> list[str]:
    """Names of the registered (playable) games."""
    return sorted(GAMES)


def game_class(name: str) -> type[Game]:
    try:
        entry = GAMES[name]
    except (KeyError, TypeError):
        raise UnknownGameError(f"no game named {name!r}; registered: {', '.join(list_games())}") from None
    return entry.load()


@lru_cache(maxsize=64)
def _cached(name: str, items: tuple[tuple[str, type, Any], ...]) -> Game:
    return game_class(name)(**{k: v for k, _, v in items})


@overload
def load_game(name: Literal["robotrick"], **params: Any) -> RobotrickGame: ...
@overload
def load_game(name: Literal["scrapyard"], **params: Any) -> ScrapyardGame: ...
@overload
def load_game(name: Literal["nicodemus"], **params: Any) -> NicodemusGame: ...
@overload
def load_game(name: Literal["sparks"], **params: Any) -> SparksGame: ...
@overload
def load_game(name: Literal["smartphone"], **params: Any) -> SmartphoneGame: ...
@overload
def load_game(name: str, **params: Any) -> Game: ...


def load_game(name: str, **params: Any) -> Game:
    """The ``Game`` of that name with these parameters (games without custom content are cached)."""
    if params.get("content") is None:
        try:
            # each value's type in the key: 20 == 20.0 and 1 == True, but a game refuses the float and the bool
            # where it takes an int, and a cached game must not answer for a value it would have refused
            return _cached(name, tuple(sorted((k, type(v), v) for k, v in params.items())))
        except TypeError:       # an unhashable parameter value: build it directly (it will be refused)
            pass
    return game_class(name)(**params)


def params_for_seats(name: str, params: Mapping[str, Any], seats: int) -> dict[str, Any]:
    """``params`` for a match of ``seats`` seats: a game whose number of players is a parameter takes it from the
    seats when ``params`` leave it out (the rule of the service's seats and the command line's bots); a game
    not played by that many seats is an ``InvalidParameterError`` that says how many it is played by. A
    ``players`` given in ``params`` is left to the game (and its seats must then match it)."""
    out = dict(params)
    cls = game_class(name)
    spec = next((p for p in cls.param_specs if p.name == "players"), None)
    if spec is None or "players" in out:
        return out
    low, high = spec.min, spec.max
    if (low is not None and seats < low) or (high is not None and seats > high):
        allowed = (f"{low}" if low == high else f"{low} to {high}" if low is not None and high is not None
                   else f"at least {low}" if low is not None else f"at most {high}")
        raise InvalidParameterError(f"{cls.title} is played by {allowed} seats, got {seats}")
    out["players"] = seats
    return out


def make(name: str, *, seed: int | None = None, **params: Any) -> State:
    """A new game state: ``robotcore.make("robotrick", seed=7, hangars=4)``."""
    return load_game(name, **params).new_initial_state(seed)


def from_bytes(data: bytes, *, content: Any = None) -> State:
    """Rebuild a state of any registered game from ``State.to_bytes()``. States of games with custom content
    need that content again (``content=``): only its digest is stored."""
    import json

    header = read_header(data)
    try:
        doc = json.loads(header)
    except (ValueError, RecursionError):      # not JSON / not UTF-8, or nested past the parser's depth
        raise CorruptStateError("unreadable game header") from None
    if not isinstance(doc, dict):
        raise CorruptStateError("the game header is not a JSON object")
    name, params = doc.get("game"), doc.get("params")
    if not isinstance(name, str) or name not in GAMES:
        raise CorruptStateError(f"state of an unknown game {name!r}"[:200])
    if not isinstance(params, dict):          # JSON object keys are always strings: usable as keywords
        raise CorruptStateError("the game header's parameters are not a JSON object")
    if content is not None:
        params["content"] = content
    try:
        game = load_game(name, **params)
    except (ValueError, TypeError) as exc:    # TypeError: a parameter the game does not take
        raise CorruptStateError(f"state header names invalid parameters: {exc}"[:300]) from None
    return game.from_bytes(data)
