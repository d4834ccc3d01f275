"""The bot protocol, the seat's observer a bot is handed, and the table of built-in bots.

A bot implements one method, ``act(observer, budget_ms)``: it sees the game only through an ``Observer`` of its
seat (the seat's view and observation, its legal actions, the public history, and determinisations drawn by
the game's ``resample_hidden``), never the state itself. ``Bot.choose(state, seat, budget_ms)`` — what the
match runner, the tournament harness, the CLI and the service call — builds that observer, asks ``act`` and
checks the answer is legal. ``reset`` (a new game starts) and ``observe`` (an action the seat saw was played)
are optional hooks.

A user's bot is a subclass (or any object with ``act``) loaded by ``module:Class`` with options::

    from robotcore.bots import Bot, Observer

    class FirstLegal(Bot):
        name = "first-legal"

        def act(self, observer: Observer, budget_ms: float | None = None) -> int:
            return observer.legal_actions()[0]

    make_bot("mypackage.mybots:FirstLegal", seed=1)       # or parse_bot_spec("mypackage.mybots:FirstLegal")
"""

from __future__ import annotations

import abc
import functools
import importlib
import inspect
import json
import math
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from robotcore.core.game import Game
from robotcore.core.rng import Rng
from robotcore.core.state import State
from robotcore.errors import GameOverError, IllegalActionError, InvalidParameterError, NotYourTurnError
from robotcore.types import View

__all__ = ["Observer", "Bot", "BotLike", "BOTS", "register", "make_bot", "parse_bot_spec", "load_bot_class"]


class Observer:
    """What one seat may know of a game in progress: everything a bot is handed.

    Determinisations (``resample``, ``worlds``) are full states, but random ones: consistent with what the seat
    knows and re-drawn everywhere else, so a bot may search them freely without learning anything hidden.
    """

    __slots__ = ("_state", "_seat")

    def __init__(self, state: State, seat: int) -> None:
        if not isinstance(state, State):
            raise InvalidParameterError(f"an observer needs a State, got {type(state).__name__}")
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < state.num_players:
            raise InvalidParameterError(f"seat must be in [0, {state.num_players}), got {seat!r}")
        self._state = state
        self._seat = int(seat)

    @property
    def seat(self) -> int:
        return self._seat

    @property
    def game(self) -> Any:
        """The game (its immutable facts and notation)."""
        return self._state.game

    @property
    def actors(self) -> list[int]:
        """The seats acting now (public)."""
        return self._state.actors

    @property
    def is_terminal(self) -> bool:
        return self._state.is_terminal

    @property
    def move_number(self) -> int:
        return self._state.move_number

    @property
    def history(self) -> list[tuple[int, int | None]]:
        """Every action so far as ``(seat, action)``; the action is None where another seat's choice is hidden
        from this seat (``Game.is_public_action``)."""
        public = self._state.game.is_public_action
        return [(s, a if s == self._seat or public(a) else None) for s, a in self._state.history]

    def view(self) -> View:
        return self._state.view(self._seat)

    def observation(self) -> npt.NDArray[np.float32]:
        return self._state.observation(self._seat)

    def legal_actions(self) -> list[int]:
        return self._state.legal_actions(self._seat)

    def legal_mask(self) -> npt.NDArray[np.bool_]:
        return self._state.legal_mask(self._seat)

    def resample(self, seed: int) -> State:
        """A determinisation: a state consistent with all this seat knows, everything else re-drawn from ``seed``.
        It comes without a history (``resample_hidden`` drops it; ``observer.history`` is the seat's one)."""
        return self._state.resample_hidden(self._seat, seed)

    def worlds(self, seeds: Sequence[int]) -> npt.NDArray[np.uint8]:
        """``len(seeds)`` determinisations as an ``(N, state_size)`` batch array (rows of ``resample``)."""
        state, seat = self._state, self._seat
        return np.stack([np.frombuffer(state.resample_hidden(seat, s).state_bytes(), dtype=np.uint8)
                         for s in seeds])

    def _native_root(self) -> State:
        # For native resamplers only (robotcore.bots._search): the engine's resample_draw reads from it just
        # what the seat may know, as resample_hidden does. Bots never read it.
        return self._state

    def __repr__(self) -> str:
        return f"<Observer of seat {self._seat}: {self._state.game.name}, move {self._state.move_number}>"


@runtime_checkable
class BotLike(Protocol):
    """Anything with ``act``: what the harness accepts (``Bot`` subclasses add ``choose`` and the hooks)."""

    def act(self, observer: Observer, budget_ms: float | None = None) -> int: ...


class Bot(abc.ABC):
    """Chooses an action for a seat from that seat's ``Observer``.

    Subclasses implement ``act``; ``reset`` and ``observe`` are optional hooks. The constructor takes a
    ``seed`` (the bot's own random stream, ``self.rng``) and the bot's options as keyword arguments.
    """

    #: what errors and tables call the bot; a subclass that sets none is called by its class's name
    name: ClassVar[str] = "bot"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "name" not in cls.__dict__:      # (every user's bot was 'bot' in its errors)
            cls.name = cls.__name__

    def __init__(self, seed: int = 0) -> None:
        self.seed = int(seed)
        self.rng = Rng(seed)

    @abc.abstractmethod
    def act(self, observer: Observer, budget_ms: float | None = None) -> int:
        """A legal action of ``observer.seat`` (which is acting); ``budget_ms`` is a time budget or None."""

    def reset(self) -> None:
        """Hook: a new game starts (drop whatever was kept from the last one)."""
        return None

    def observe(self, observer: Observer, seat: int, action: int | None) -> None:
        """Hook: ``seat`` played ``action`` (None when this bot's seat cannot see it)."""
        return None

    def check_game(self, game: Game) -> None:
        """Hook: ``InvalidParameterError`` when an option does not fit ``game`` (a preferred action that is none
        of its actions, a leaf evaluation it does not have), so that it fails before play, not mid-game."""
        return None

    def choose(self, state: State, seat: int, budget_ms: float | None = None) -> int:
        """``act`` on ``seat``'s observer of ``state``; the action is checked to be legal."""
        observer = Observer(state, seat)
        legal = self._legal(observer)
        if budget_ms is not None:
            number_option("budget_ms", budget_ms, unit=" (0: the least effort)")
        action = self.act(observer, budget_ms)
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)) or action not in legal:
            raise IllegalActionError(f"bot {self.name!r} answered {action!r}, not a legal action of seat {seat}")
        return int(action)

    def _legal(self, observer: Observer) -> list[int]:
        """The seat's legal actions; ``GameOverError`` or ``NotYourTurnError`` (as ``State.apply`` raises) when it
        has none."""
        legal: list[int] = observer.legal_actions()
        if not legal:
            if not observer.actors:
                raise GameOverError(f"the game is over: seat {observer.seat} has nothing to decide")
            raise NotYourTurnError(f"seat {observer.seat} has nothing to decide now (acting: {observer.actors})")
        return legal


class _Wrapped(Bot):
    """A ``BotLike`` object that is not a ``Bot`` subclass, given ``choose`` and no-op hooks."""

    def __init__(self, inner: BotLike) -> None:
        super().__init__(0)
        self.inner = inner
        self.name = getattr(inner, "name", type(inner).__name__)  # type: ignore[misc]

    def act(self, observer: Observer, budget_ms: float | None = None) -> int:
        return int(self.inner.act(observer, budget_ms))

    def reset(self) -> None:
        hook = getattr(self.inner, "reset", None)
        if hook is not None:
            hook()

    def observe(self, observer: Observer, seat: int, action: int | None) -> None:
        hook = getattr(self.inner, "observe", None)
        if hook is not None:
            hook(observer, seat, action)

    def check_game(self, game: Game) -> None:
        hook = getattr(self.inner, "check_game", None)
        if hook is not None:
            hook(game)


def int_option(name: str, value: Any, low: int = 1, high: int = 1 << 40) -> int:
    """A bot's integer option, checked: an int (not a bool) in ``[low, high]``, or ``InvalidParameterError``."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidParameterError(f"{name} must be an int from {low} to {high}, got {value!r}")
    return value


def number_option(name: str, value: Any, low: float = 0.0, positive: bool = False, unit: str = "") -> float:
    """A number option or argument, checked: an int or float (not a bool), finite, at least ``low`` (above it
    with ``positive``), or ``InvalidParameterError``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not _finite(value) \
            or value < low or (positive and value == low):
        raise InvalidParameterError(f"{name} must be a finite number {'>' if positive else '>='} {low:g}{unit}, "
                                    f"got {value!r}")
    return float(value)


def _finite(value: int | float) -> bool:
    try:
        return math.isfinite(value)
    except OverflowError:                  # an int past a float's range
        return False


BOTS: dict[str, type[Bot]] = {}


def register(cls: type[Bot]) -> type[Bot]:
    BOTS[cls.name] = cls
    return cls


@functools.lru_cache(maxsize=256)
def _constructor_options(init: Callable[..., Any]) -> tuple[tuple[tuple[str, Any], ...], bool]:
    """A constructor's keywords but ``seed`` with their defaults, and whether it takes ``**kwargs``: read once per
    constructor (``inspect.signature`` costs more than making a random bot, and the service makes a bot for each
    of its bot seats' moves)."""
    options: list[tuple[str, Any]] = []
    var_keyword = False
    for p in inspect.signature(init).parameters.values():
        var_keyword |= p.kind is p.VAR_KEYWORD
        if p.name in ("self", "seed") or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        options.append((p.name, None if p.default is p.empty else p.default))
    return tuple(options), var_keyword


def bot_options(cls: type[Any]) -> dict[str, Any]:
    """The options a bot class takes (its constructor's keywords but ``seed``) and their defaults."""
    return dict(_constructor_options(cls.__init__)[0])


def load_bot_class(target: str) -> type[Any]:
    """The class named by ``module:Class`` (imported), or a built-in bot's class by name."""
    if ":" not in target:
        try:
            return BOTS[target]
        except KeyError:
            raise InvalidParameterError(
                f"no bot named {target!r}; bots: {', '.join(sorted(BOTS))} (or module:Class)") from None
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise InvalidParameterError(f"cannot import bot module {module_name!r}: {exc}") from None
    cls = getattr(module, attr, None)
    if not isinstance(cls, type):
        raise InvalidParameterError(f"module {module_name!r} has no class {attr!r}")
    return cls


def make_bot(spec: str, seed: int = 0, *, for_game: Game | None = None, builtin_only: bool = False,
             **options: Any) -> Bot:
    """A bot from its spec (``parse_bot_spec``: a built-in name of ``BOTS`` or ``module:Class``, with options or
    not), seeded; keyword options are added to the spec's (and win over them). ``for_game``: the bot's
    ``check_game`` hook runs on it, so that an option that does not fit the game fails now, before play."""
    name, given = parse_bot_spec(spec, builtin_only=builtin_only)
    given.update(options)
    cls = load_bot_class(name)
    options_of, takes_any = _constructor_options(cls.__init__)
    if not takes_any:
        known = dict(options_of)
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise InvalidParameterError(f"bot {name!r} has no option {', '.join(unknown)}; its options: "
                                        f"{', '.join(known) or 'none'}")
    try:
        made = cls(seed=seed, **given)
        if isinstance(made, Bot):
            bot = made
        elif isinstance(made, BotLike):
            bot = _Wrapped(made)
        else:
            raise InvalidParameterError("it is not a bot: it has no act(observer, budget_ms) method")
        if for_game is not None:
            bot.check_game(for_game)
    except (TypeError, InvalidParameterError) as exc:       # every message names the bot, once
        raise InvalidParameterError(f"bot {name!r}: {exc}") from None
    return bot


def _option_value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _is_option(chunk: str) -> bool:
    key, eq, _ = chunk.partition("=")
    return bool(eq) and key.strip().isidentifier()


def split_bot_specs(given: Sequence[str]) -> list[str]:
    """Bots given on a command line: one spec per argument (``"ismcts:iterations=500" random``), or all of them
    in one argument, comma-separated (``random,greedy`` or ``random,mcts:iterations=10,threads=2``): there a
    ``key=value`` chunk continues the spec before it, any other chunk starts a new one."""
    if isinstance(given, str):              # one string: not a sequence of specs of one character each
        given = [given]
    if len(given) != 1:
        return list(given)
    specs: list[str] = []
    for chunk in given[0].split(","):
        if specs and _is_option(chunk):
            specs[-1] += "," + chunk
        else:
            specs.append(chunk)
    return specs


def parse_bot_spec(spec: str, builtin_only: bool = False) -> tuple[str, dict[str, Any]]:
    """``"ismcts:iterations=2000,c=0.5"`` or ``"pkg.mod:Class:depth=2"`` → (name, options).

    Options are ``key=value`` pairs separated by commas (or colons); values are read as JSON when they parse
    (numbers, true/false, null), as text otherwise. ``builtin_only``: a ``module:Class`` spec is refused before
    anything is imported (the service takes specs from any client).
    """
    if not isinstance(spec, str) or not spec.strip():
        raise InvalidParameterError(f"a bot spec is a non-empty string, got {spec!r}")
    parts = spec.strip().split(":")
    name = parts[0].strip()
    rest = parts[1:]
    if rest and "=" not in rest[0] and name not in BOTS:      # module:Class (a built-in name is no module)
        name = f"{name}:{rest[0]}"
        rest = rest[1:]
    if builtin_only and name not in BOTS:
        raise InvalidParameterError(f"no built-in bot named {name!r}; bots: {', '.join(sorted(BOTS))}")
    options: dict[str, Any] = {}
    for chunk in ",".join(rest).split(","):
        if not chunk:
            continue
        if not _is_option(chunk):
            raise InvalidParameterError(f"bot option {chunk!r} in {spec!r} is not key=value")
        key, _, value = chunk.partition("=")
        options[key.strip()] = _option_value(value.strip())
    load_bot_class(name)
    return name, options
