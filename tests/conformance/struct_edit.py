"""Editing one fact of a real position in its serialized bytes, as a corrupt or hostile file would: the games'
``test_validate.py`` check that ``from_bytes`` refuses each edit their engine's invariant check must catch."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import robotcore
from robotcore.errors import CorruptStateError

from .test_fuzz import _reframe, struct_start


def _engine(state: robotcore.State) -> Any:
    return importlib.import_module(f"robotcore.games.{state.game.name}.engine")


def fields(state: robotcore.State) -> dict[str, Any]:
    """Every field of the state's struct (the game engine's ``unpack_state``)."""
    return dict(_engine(state).unpack_state(np.frombuffer(state.state_bytes(), dtype=np.uint8)))


def with_fields(state: robotcore.State, f: dict[str, Any]) -> bytes:
    """``state.to_bytes()`` with its struct replaced by ``f`` and the checksum recomputed."""
    data = bytearray(state.to_bytes())
    start = struct_start(state)
    data[start:start + state.game.state_size] = _engine(state).pack_state(f)
    return _reframe(bytes(data))


def random_states(name: str, games: int, **params: Any) -> Iterator[robotcore.State]:
    """Every position with a decision of ``games`` random games (seeds 0.., a random acting seat and action at
    each step, drawn from the game's seed): the live state, which the caller reads and must not change."""
    game = robotcore.load_game(name, **params)
    for seed in range(games):
        state, rng = game.new_initial_state(seed), random.Random(seed)
        while not state.is_terminal:
            yield state
            seat = rng.choice(state.actors)
            state.apply(rng.choice(state.legal_actions(seat)), seat)


def positions(name: str, test: Callable[[dict[str, Any]], bool], games: int = 200, **params: Any,
              ) -> Iterator[robotcore.State]:
    """Positions of random games (``random_states``) whose fields pass ``test``, as copies."""
    for state in random_states(name, games, **params):
        if test(fields(state)):
            yield state.clone()


def refused(state: robotcore.State, edit: Callable[[dict[str, Any]], None]) -> None:
    """The unedited bytes load; with ``edit`` made to the struct, ``from_bytes`` refuses them."""
    robotcore.from_bytes(with_fields(state, fields(state)))
    f = fields(state)
    edit(f)
    with pytest.raises(CorruptStateError):
        robotcore.from_bytes(with_fields(state, f))
