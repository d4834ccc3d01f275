"""Fuzzing of what comes from outside: serialized states and action text/JSON. Never a crash, always a
``ValueError`` subclass with a message, or a valid result."""

from __future__ import annotations

import random
import struct
import zlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import robotcore
from robotcore.errors import CorruptStateError, InvalidActionError

from ..conftest import random_play

GAMES = robotcore.list_games()
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _reframe(data: bytes) -> bytes:
    """Recompute the CRC so that a mutation reaches the engine's invariant check."""
    return data[:-4] + struct.pack("<I", zlib.crc32(data[:-4]))


@pytest.mark.parametrize("name", GAMES)
@FUZZ
@given(data=st.binary(max_size=2048))
def test_random_bytes_are_refused(name: str, data: bytes) -> None:
    game = robotcore.load_game(name)
    with pytest.raises(CorruptStateError):
        game.from_bytes(data)
    with pytest.raises(CorruptStateError):
        robotcore.from_bytes(data)


@pytest.mark.parametrize("name", GAMES)
@FUZZ
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 200), flips=st.lists(
    st.tuples(st.integers(0, 10**6), st.integers(0, 255)), min_size=1, max_size=6))
def test_mutated_states_are_refused_or_playable(name: str, seed: int, steps: int,
                                                flips: list[tuple[int, int]]) -> None:
    """Flip bytes of a real state (anywhere in the struct) and fix the checksum: from_bytes either refuses it
    with CorruptStateError or returns a state that every call handles and that plays to the end."""
    game = robotcore.load_game(name)
    state = random_play(game.new_initial_state(seed=seed), random.Random(seed), steps=steps)
    data = bytearray(state.to_bytes())
    header_end = len(data) - 4 - 4 * len(state.history) - game.state_size
    for pos, value in flips:
        data[header_end + pos % game.state_size] = value
    try:
        again = game.from_bytes(_reframe(bytes(data)))
    except CorruptStateError:
        return
    for seat in range(game.num_players):
        again.view(seat)
        again.observation(seat)
        again.legal_mask(seat)
    again.scores()
    random_play(again, random.Random(0))


@pytest.mark.parametrize("name", GAMES)
def test_truncated_and_foreign_bytes(name: str) -> None:
    game = robotcore.load_game(name)
    data = random_play(game.new_initial_state(seed=1), random.Random(1), steps=10).to_bytes()
    for cut in range(0, len(data), max(1, len(data) // 50)):
        with pytest.raises(CorruptStateError):
            game.from_bytes(data[:cut])
    with pytest.raises(CorruptStateError):
        game.from_bytes(data + b"\0")
    with pytest.raises(CorruptStateError):
        game.from_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    with pytest.raises(CorruptStateError):
        game.from_bytes(b"RBC2" + data[4:])
    with pytest.raises(CorruptStateError):
        game.from_bytes("text")  # type: ignore[arg-type]
    for cls in robotcore.registry.GAMES.values():
        other = cls.load()
        for params in other.variants:
            variant = robotcore.load_game(other.name, **params)
            if variant != game:
                with pytest.raises(CorruptStateError):
                    variant.from_bytes(data)


@pytest.mark.parametrize("name", GAMES)
@FUZZ
@given(text=st.text(max_size=40))
def test_action_text_parsing(name: str, text: str) -> None:
    game = robotcore.load_game(name)
    try:
        action = game.parse_action(text)
    except InvalidActionError:
        return
    assert 0 <= action < game.num_actions
    assert game.parse_action(game.action_to_str(action)) == action


@pytest.mark.parametrize("name", GAMES)
@FUZZ
@given(data=st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3),
    max_leaves=8))
def test_action_json_parsing(name: str, data: object) -> None:
    game = robotcore.load_game(name)
    try:
        action = game.action_from_dict(data)  # type: ignore[arg-type]
    except InvalidActionError:
        return
    assert 0 <= action < game.num_actions


@pytest.mark.parametrize("name", GAMES)
def test_every_action_id_round_trips(name: str) -> None:
    game = robotcore.load_game(name)
    for a in range(game.num_actions):
        assert game.parse_action(game.action_to_str(a)) == a
        assert game.action_from_dict(game.action_to_dict(a)) == a
    for bad in (-1, game.num_actions, "x", None, 1.5):
        with pytest.raises(InvalidActionError):
            game.action_to_str(bad)  # type: ignore[arg-type]
