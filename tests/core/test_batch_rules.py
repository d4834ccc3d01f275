"""The batch API's rules for its callers (issue 12): one seed rule everywhere, read-only arrays for calls that
only read, a refused thread count, and calls on overlapping memory refused while another is in flight."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import robotcore
from robotcore.core import batch
from robotcore.errors import BatchInUseError, InvalidParameterError

GAMES = robotcore.list_games()
BAD_SEEDS = [-1, 2**64, 2**70, True, 1.5, "7", None]


@pytest.mark.parametrize("name", GAMES)
def test_one_seed_rule_everywhere(name: str) -> None:
    game = robotcore.load_game(name)
    state = game.new_initial_state(2**64 - 1)
    rows = game.new_batch(np.array([0, 2**64 - 1], dtype=np.uint64))
    assert game.state_from_row(rows[1]).state_bytes() == state.state_bytes()
    assert (game.new_batch([0, 2**64 - 1]) == rows).all()
    batch.random_playouts(game, rows.copy(), seed=2**64 - 1)
    state.resample_hidden(state.actors[0], 2**64 - 1)
    for bad in BAD_SEEDS:
        if bad is not None:     # None means "a random seed" for make
            with pytest.raises(InvalidParameterError):
                robotcore.make(name, seed=bad)
        with pytest.raises(InvalidParameterError):
            batch.random_playouts(game, rows.copy(), seed=bad)
        with pytest.raises(InvalidParameterError):
            state.resample_hidden(state.actors[0], bad)
        with pytest.raises(InvalidParameterError):
            game.state_from_row(rows[1], seed=bad)      # (a float was cut to an int, -1 an OverflowError)
    assert game.state_from_row(rows[1], seed=2**64 - 1).seed == 2**64 - 1
    for bad_list in ([-1], [2**64], [0, 2**70], [1.5], [[1, 2]]):
        with pytest.raises(InvalidParameterError):
            game.new_batch(bad_list)


@pytest.mark.parametrize("name", GAMES)
def test_reading_calls_take_read_only_arrays_and_writing_calls_refuse_them(name: str) -> None:
    game = robotcore.load_game(name)
    rows = game.new_batch(np.arange(4))
    rows.flags.writeable = False
    assert batch.legal_masks(game, rows).shape == (4, game.num_actions)
    assert batch.scores(game, rows).shape == (4, game.num_players)
    assert batch.returns(game, rows).shape == (4, game.num_players)
    assert (batch.current_players(game, rows) >= 0).all()
    with pytest.raises(InvalidParameterError):
        batch.random_playouts(game, rows, seed=1)
    with pytest.raises(InvalidParameterError):
        batch.step(game, rows, np.zeros(4, dtype=np.int32))
    with pytest.raises(InvalidParameterError):
        batch.legal_masks(game, game.new_batch(np.arange(4))[::-2])


@pytest.mark.parametrize("threads", [0, -5, True, 1.5, "2"])
def test_a_thread_count_below_one_or_not_an_int_is_refused(threads: object) -> None:
    game = robotcore.load_game(GAMES[0])
    rows = game.new_batch(np.arange(4))
    before = rows.copy()
    with pytest.raises(InvalidParameterError):
        batch.random_playouts(game, rows, seed=1, threads=threads)  # type: ignore[arg-type]
    assert (rows == before).all()


@pytest.mark.parametrize("name", GAMES)
def test_calls_overlapping_a_writing_call_in_flight_are_refused(name: str) -> None:
    game = robotcore.load_game(name)
    rows = game.new_batch(np.arange(20))
    before = rows.copy()
    with batch._Claim(rows[5:10], True):           # a writing call in flight on rows 5..9
        for overlapping in (rows, rows[9:], rows[:6], rows[7:8]):
            with pytest.raises(BatchInUseError):
                batch.random_playouts(game, overlapping, seed=1)
            with pytest.raises(BatchInUseError):
                batch.step(game, overlapping, np.zeros(len(overlapping), dtype=np.int32))
            with pytest.raises(BatchInUseError):
                batch.legal_masks(game, overlapping)
        assert (rows == before).all()
        batch.random_playouts(game, rows[10:], seed=1)     # disjoint rows may run
        batch.legal_masks(game, rows[:5])
    with batch._Claim(rows, False):                # a reading call in flight: others may read, not write
        batch.scores(game, rows)
        batch.current_players(game, rows[3:])
        with pytest.raises(BatchInUseError):
            batch.random_playouts(game, rows[3:4], seed=1)
    assert batch._in_flight == []
    batch.random_playouts(game, rows, seed=2)      # nothing stays claimed after errors


@pytest.mark.parametrize("name", GAMES)
def test_two_threads_on_one_array_get_an_error_never_a_torn_row(name: str) -> None:
    """Real threads racing on the same rows: each call either completes or is refused, and every row stays
    valid (it crashed or corrupted rows before the guard)."""
    game = robotcore.load_game(name)
    rows = game.new_batch(np.arange(1000))
    errors: list[BaseException] = []
    refused = 0

    def play(direction: int) -> None:
        """Overlapping windows of 150 rows, one thread walking up the array, the other down."""
        nonlocal refused
        for i in range(0, 10) if direction > 0 else range(9, -1, -1):
            try:
                batch.random_playouts(game, rows[i * 85:i * 85 + 150], seed=i)
            except BatchInUseError:
                refused += 1
            except BaseException as exc:  # pragma: no cover - the failure being tested
                errors.append(exc)

    threads = [threading.Thread(target=play, args=(d,)) for d in (1, -1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert (batch.current_players(game, rows) == robotcore.TERMINAL).any()
    for row in rows:
        game.state_from_row(row)           # every row passes the invariant check


def test_batch_calls_take_robotcore_games_and_the_arrays_own_shape() -> None:
    """Found by fuzzing: a batch call on an object that only looks like a game (a segfault), and an ndarray
    subclass whose ``shape`` attribute claims rows of the state's size over 8-byte rows (the engine read past
    each row): the game's engine and the array's own dimensions are checked."""
    import types

    from robotcore.core.state import GameCore

    game = robotcore.load_game("scrapyard")
    for fake in (types.SimpleNamespace(core=None), types.SimpleNamespace(core=GameCore()), object()):
        with pytest.raises(robotcore.InvalidParameterError):
            batch.new_states(fake, [1])
        with pytest.raises(robotcore.InvalidParameterError):
            batch.current_players(fake, game.new_batch(np.arange(2)))

    class Liar(np.ndarray):
        @property
        def shape(self):  # type: ignore[override]
            return (4, game.state_size)

    rows = np.zeros((4, 8), dtype=np.uint8).view(Liar)
    for call in (lambda: batch.random_playouts(game, rows, 1), lambda: batch.current_players(game, rows)):
        with pytest.raises(robotcore.CorruptStateError, match=r"\(4, 8\)"):
            call()


def test_objects_never_given_an_engine_are_inert() -> None:
    """``State.__new__`` alone and a ``GameCore`` no engine bound reached NULL pointers (segfaults, found by
    fuzzing): they are inert, a state of no seat and no action."""
    from robotcore.core.state import GameCore, State, new_initial_state

    for state in (State.__new__(State), new_initial_state(None, GameCore(), 0)):
        assert state.is_terminal and state.legal_actions() == [] and state.actors == []
        with pytest.raises(robotcore.GameOverError):
            state.apply(0)
