"""The ``Game`` base class: the immutable facts of one game under one set of parameters.

A game package subclasses ``Game`` and supplies its engine (``_make_core``), its notation and its views. All the
generic behaviour lives here once: parameter checking, new states, serialization, replay, batch rows.
"""

from __future__ import annotations

import abc
import hashlib
import json
import operator
import secrets
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType, ModuleType
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from robotcore.core import state as _state
from robotcore.core.seeds import check_seed, check_seeds
from robotcore.core.state import GameCore, State
from robotcore.errors import CorruptStateError, InvalidActionError, InvalidParameterError, RobotcoreError
from robotcore.types import ParamSpec, View

__all__ = ["Game", "Content", "is_decimal"]


def is_decimal(text: str) -> bool:
    """Is ``text`` a number in ASCII decimal digits ("12")? What the games' action texts write numbers with:
    ``str.isdigit`` also passes "²" (which ``int`` refuses) and "１２" (which it reads as 12)."""
    return text.isascii() and text.isdigit()


class Content(abc.ABC):
    """Replaceable game content (card lists, AI cards...): validated on creation, serializable to JSON."""

    @abc.abstractmethod
    def to_json(self) -> dict[str, Any]:
        """Canonical JSON form; its digest identifies the content inside serialized states."""

    @staticmethod
    def json_document(data: Any) -> Any:
        """The document a ``from_json`` reads: given as parsed JSON, a JSON string, or a path to a JSON file."""
        if isinstance(data, Path):
            return json.loads(data.read_text(encoding="utf-8"))
        if isinstance(data, str):
            return json.loads(data)
        return data

    def digest(self) -> str:
        blob = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":")).encode()
        return hashlib.sha256(blob).hexdigest()[:16]


def _is_integer(item: object) -> bool:
    """Whether ``item`` is one integer (an int, a NumPy integer, any ``__index__``), not a pair of them (a NumPy
    row has ``__index__`` too, which refuses it)."""
    try:
        operator.index(item)  # type: ignore[arg-type]
    except TypeError:
        return False
    return True


class Game(abc.ABC):
    """Immutable facts of a game under given parameters; the factory of its states."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    param_specs: ClassVar[tuple[ParamSpec, ...]]
    #: Content class accepted by the ``content`` parameter (None: the game has no replaceable content).
    content_type: ClassVar[type[Content] | None] = None
    #: Parameter sets the shared conformance suite runs besides the defaults (each variant rule once).
    variants: ClassVar[tuple[dict[str, Any], ...]] = ()
    #: The game's compiled view module (its ``view.pyx``), which defines ``view(game, state, seat)``,
    #: ``omniscient(game, state)``, ``observation(state, seat)`` and ``resample(game, state, seat, seed)``.
    view_module: ClassVar[ModuleType]

    def __init__(self, **params: Any) -> None:
        self.params: Mapping[str, Any] = MappingProxyType(self._check_params(params))
        self.content: Content | None = None
        if self.content_type is not None:
            given = self.params.get("content")
            self.content = given if given is not None else self.content_type.default()  # type: ignore[attr-defined]
        self._core: GameCore = self._make_core()
        self._core.set_header(self.header)

    # -- parameters ------------------------------------------------------------------------------------------

    @classmethod
    def _check_params(cls, params: Mapping[str, Any]) -> dict[str, Any]:
        specs = {p.name: p for p in cls.param_specs}
        unknown = sorted(set(params) - set(specs))
        if unknown:
            raise InvalidParameterError(
                f"{cls.name} has no parameter {', '.join(unknown)}; parameters: {', '.join(specs)}"
            )
        out: dict[str, Any] = {}
        for name, spec in specs.items():
            value = params.get(name, spec.default)
            if name == "content":
                if value is not None and not isinstance(value, spec.type):
                    raise InvalidParameterError(f"content must be a {spec.type.__name__}")
                out[name] = value
                continue
            if spec.type is bool:
                if not isinstance(value, bool):
                    raise InvalidParameterError(f"{name} must be a bool, got {value!r}")
            elif spec.type is int:
                if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                    raise InvalidParameterError(f"{name} must be an int, got {value!r}")
                value = int(value)
                if spec.min is not None and value < spec.min:
                    raise InvalidParameterError(f"{name} must be >= {spec.min}, got {value}")
                if spec.max is not None and value > spec.max:
                    raise InvalidParameterError(f"{name} must be <= {spec.max}, got {value}")
            elif not isinstance(value, spec.type):
                raise InvalidParameterError(f"{name} must be a {spec.type.__name__}, got {value!r}")
            if spec.choices is not None and value not in spec.choices:
                raise InvalidParameterError(f"{name} must be one of {list(spec.choices)}, got {value!r}")
            if spec.check is not None:
                spec.check(value)
            out[name] = value
        players = out.get("players")
        if players is not None and not cls.min_players <= players <= cls.max_players:
            raise InvalidParameterError(
                f"{cls.name} is for {cls.min_players}-{cls.max_players} players, got {players}"
            )
        return out

    @property
    def header(self) -> bytes:
        """Identifies game, parameters and content inside serialized states."""
        plain = {k: v for k, v in self.params.items() if k != "content"}
        doc = {"game": self.name, "params": plain, "content": self.content.digest() if self.content else None}
        return json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()

    def plain_params(self) -> dict[str, Any]:
        """Parameters without replaceable content (JSON-ready)."""
        return {k: v for k, v in self.params.items() if k != "content"}

    # -- facts -----------------------------------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return int(self._core.num_seats)

    @property
    def num_actions(self) -> int:
        return int(self._core.num_actions)

    @property
    def state_size(self) -> int:
        """Bytes of the packed state struct (one row of a batch array)."""
        return int(self._core.state_size)

    @property
    def core(self) -> GameCore:
        return self._core

    @property
    @abc.abstractmethod
    def max_game_length(self) -> int:
        """Upper bound on the number of actions in one game."""

    @property
    @abc.abstractmethod
    def observation_shape(self) -> tuple[int, ...]:
        """Shape of ``observation(seat)``."""

    def glossary(self) -> dict[str, dict[str, str]]:
        """What the ids of this content that views show stand for (card codes, machine, robot and component
        names; Sparks' effect symbols, by the text its bonus tiles are shown with, which its cards' rewards and
        boxes in the content share): ``{id: {"name": ..., "text": ...}}``, a readable name and a one-line
        description, taken from the content (a replaced content describes its own cards). For people reading a
        view, such as the browser page's tooltips; no rule reads it. A game whose views need no such key returns
        ``{}``."""
        return {}

    def to_json(self) -> dict[str, Any]:
        """Catalogue entry: the facts a client needs before creating a match."""
        return {
            "name": self.name,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "parameters": [p.to_json() for p in self.param_specs],
            "values": self.plain_params(),
            "num_players": self.num_players,
            "num_actions": self.num_actions,
            "state_size": self.state_size,
            "max_game_length": self.max_game_length,
            "observation_shape": list(self.observation_shape),
        }

    # -- states ----------------------------------------------------------------------------------------------

    def new_initial_state(self, seed: int | None = None) -> State:
        """A new game. Chance comes from a PRNG inside the state seeded here (random when None)."""
        seed = secrets.randbits(64) if seed is None else check_seed(seed)
        return _state.new_initial_state(self, self._core, seed)

    def from_bytes(self, data: bytes) -> State:
        """Rebuild a state from ``State.to_bytes()``; foreign or corrupted bytes raise ``CorruptStateError``."""
        return _state.state_from_bytes(self, self._core, data)

    def replay(self, seed: int,
               actions: Iterable[Sequence[int] | int] | npt.NDArray[np.integer[Any]]) -> State:
        """Replay a history: ``(seat, action)`` pairs (tuples, lists, the rows of an ``(N, 2)`` integer array:
        ``np.array(state.history)``), or bare actions for the current player. A malformed item is an
        ``InvalidActionError``, an illegal one raises as ``State.apply`` does; either names its place in the
        history."""
        state = self.new_initial_state(seed)
        try:
            items = iter(actions)
        except TypeError:
            raise InvalidParameterError(f"actions must be an iterable, got {type(actions).__name__}") from None
        for i, item in enumerate(items):
            try:
                if type(item) is tuple and len(item) == 2:     # (the common item first: the service's replays)
                    state.apply(item[1], item[0])
                    continue
                if isinstance(item, (str, bytes, bytearray)) or _is_integer(item):
                    state.apply(item)            # a bare action (a text is refused there as no action id)
                    continue
                try:
                    pair = tuple(item)
                except TypeError:
                    raise InvalidActionError(f"an action id or a (seat, action) pair, got {item!r}") from None
                if len(pair) != 2:
                    raise InvalidActionError(f"a (seat, action) pair, got {item!r}")
                state.apply(pair[1], pair[0])
            except RobotcoreError as exc:    # (the same class, told where in the history)
                raise type(exc)(f"history item {i}: {exc}") from None
        return state

    def state_from_row(self, row: npt.ArrayLike, seed: int = 0) -> State:
        """A State (with empty history) from one row of a batch array, after the engine's invariant check. The
        row holds bytes: uint8 values, or integers from 0 to 255 (a float, or 300, is refused: a conversion
        to uint8 would wrap it into another byte). ``seed``, the one ``State.seed`` reports, is checked as every
        seed is (an int in ``[0, 2**64)``)."""
        seed = check_seed(seed)
        given = np.asarray(row)
        if given.ndim != 1:
            raise CorruptStateError("a state row must be one-dimensional")
        if given.dtype != np.uint8:
            if given.dtype.kind not in "iu" or (given.size and (given.min() < 0 or given.max() > 255)):
                raise CorruptStateError(f"a state row holds bytes (uint8, or ints 0-255), got {given.dtype}")
        raw = np.ascontiguousarray(given, dtype=np.uint8)
        return _state.state_from_parts(self, self._core, raw.tobytes(), b"", seed)

    def new_batch(self, seeds: Sequence[int] | npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.uint8]:
        """An ``(N, state_size)`` uint8 array of new games, one per seed."""
        from robotcore.core import batch

        return batch.new_states(self, check_seeds(seeds))

    # -- per game --------------------------------------------------------------------------------------------

    @abc.abstractmethod
    def _make_core(self) -> GameCore:
        """Compile parameters and content into the engine's config and bind its function table."""

    @abc.abstractmethod
    def action_to_str(self, action: int) -> str:
        """Readable notation of an action id (context-free: ids mean the same thing in every state)."""

    @abc.abstractmethod
    def parse_action(self, text: str) -> int:
        """Inverse of ``action_to_str``; raises ``InvalidActionError``."""

    @abc.abstractmethod
    def action_to_dict(self, action: int) -> dict[str, Any]:
        """JSON form of an action (what the service uses)."""

    @abc.abstractmethod
    def action_from_dict(self, data: Mapping[str, Any]) -> int:
        """Inverse of ``action_to_dict``; raises ``InvalidActionError``."""

    def own(self, state: State) -> State:
        """``state`` when it is a state of this game (these parameters, this content); ``InvalidParameterError``
        otherwise. The compiled views read a state as this game lays it out: another game's (or another
        variant's) would be read past its end."""
        if not isinstance(state, State):
            raise InvalidParameterError(f"expected a {self.title} State, got {type(state).__name__}")
        if state.game is not self and state.game != self:
            raise InvalidParameterError(f"this state is one of {state.game!r}, not of {self!r}")
        return state

    def own_seat(self, state: State, seat: int) -> int:
        """``seat`` of ``state`` (``own``), checked as the State checks its own (``State.checked_seat``):
        ``InvalidSeatError`` unless it names one of its seats."""
        return self.own(state).checked_seat(seat)

    def view(self, state: State, seat: int | None) -> View:
        """What ``seat`` can see (None: a spectator): ``state.view(seat)``, the seat checked."""
        return self.own(state).view(seat)

    def omniscient_view(self, state: State) -> View:
        """Everything, hidden parts included. In-process use only (debugging, the reveal after the end)."""
        out: View = self.view_module.omniscient(self, self.own(state))
        return out

    def observation(self, state: State, seat: int) -> npt.NDArray[np.float32]:
        """Fixed-shape float32 tensor of ``view(seat)`` for learning: ``state.observation(seat)``."""
        out: npt.NDArray[np.float32] = self.own(state).observation(seat)
        return out

    def resample_hidden(self, state: State, seat: int, seed: int) -> State:
        """A state consistent with all ``seat`` knows, with everything hidden from it re-drawn, and no history:
        the copy's history would be the real game's, others' hidden choices included. (``State.resample_hidden``
        does the work: the view module's ``resample``, in compiled code.)"""
        return self.own(state).resample_hidden(seat, seed)

    def check_action_id(self, action: object) -> int:
        """``action`` as an int when it is an action id of this game; ``InvalidActionError`` otherwise."""
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)) \
                or not 0 <= action < self.num_actions:
            raise InvalidActionError(f"{self.title} action ids are 0..{self.num_actions - 1}, got {action!r}")
        return int(action)

    @abc.abstractmethod
    def scores_from_view(self, view: View) -> list[int]:
        """The official scoring computed again, in Python, from a view alone (a check on the engine's
        incremental scores, and a way for clients to verify what the server says)."""

    def is_public_action(self, action: int) -> bool:
        """Whether every seat sees this action when it is made (False: only the acting seat does, e.g. a
        hidden commitment). Logs shown to other seats redact private actions."""
        return True

    def evaluate(self, state: State, seat: int) -> float:
        """A heuristic value of ``state`` for ``seat`` (higher is better), for one-ply bots such as GreedyBot.

        The default is the seat's score minus the best other score. A game whose official score says little
        before the end (Scrapyard scores 0 until a robot is complete) overrides it. It must use only what
        ``seat`` may know, or be called on a determinised state (``resample_hidden``)."""
        seat = self.own_seat(state, seat)
        scores = state.scores()
        others = [s for i, s in enumerate(scores) if i != seat]
        return float(scores[seat] - (max(others) if others else 0))

    def balance_facts(self, final_view: View) -> list[dict[str, float]]:
        """Per-seat facts of a finished game worth averaging in a balance simulation (``robotcore.tools.balance``),
        read from the spectator's final view: e.g. Scrapyard's complete robots. Each value is a number; the
        default has none."""
        return [{} for _ in range(self.num_players)]

    def render(self, state: State) -> str:
        """Human-readable text of the spectator's view."""
        return json.dumps(self.view(state, None), indent=1)

    # -- identity --------------------------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and other.header == self.header

    def __hash__(self) -> int:
        return hash(self.header)

    def __reduce__(self) -> tuple[Any, ...]:
        # by class, not through the registry: the kernel never imports the typed face above it
        return (_rebuild, (type(self), dict(self.params)))

    # A game is immutable, so a copy of it is itself, as for an int or a str. Without these, ``copy.deepcopy`` of
    # anything holding a game (an OpenSpiel state cloned by OpenSpiel's Python algorithms) went through
    # ``__reduce__`` and built the game anew, its tables and action names included: about 25 ms a copy for
    # Smartphone, 703 copies in one game of ``pyspiel.random_sim_test``.
    def __copy__(self) -> Game:
        return self

    def __deepcopy__(self, memo: Any) -> Game:
        return self

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.plain_params().items())
        return f"{type(self).__name__}({args})"


def _rebuild(cls: type[Game], params: dict[str, Any]) -> Game:
    return cls(**params)
