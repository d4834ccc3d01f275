"""The native random playouts draw exactly what their documentation says: on the row's own stream, a uniform
index k below the number of legal actions of the lowest acting seat, and the k-th of those actions in id order
(core/playout.pxd). A plain-Python loop over the public API and the model PRNG must reach the same states, so
every shortcut of the native loops (the words with a legal action listed once, the select by halving, the games'
own loops) is checked against the definition, not only against each other."""

from __future__ import annotations

import numpy as np
import pytest

import robotcore
from robotcore.core import batch

from ..rng_model import SplitMix64, mix


def _row_stream(seed: int, row: int) -> SplitMix64:
    """batch.pyx's ``_row_stream``: rng_seed(seed ^ rng_mix(row + 1))."""
    return SplitMix64.seeded(seed ^ mix(row + 1))


@pytest.mark.parametrize("name", robotcore.list_games())
def test_native_playouts_are_the_documented_draws(name: str) -> None:
    game = robotcore.load_game(name)
    seeds = np.arange(100, 104, dtype=np.uint64)
    rows = game.new_batch(seeds)
    lengths = batch.random_playouts(game, rows, seed=11)
    for r, seed in enumerate(seeds):
        state, rng, n = game.new_initial_state(int(seed)), _row_stream(11, r), 0
        while not state.is_terminal:
            seat = state.current_player
            legal = state.legal_actions(seat)
            state.apply(legal[rng.below(len(legal))], seat)
            n += 1
        assert lengths[r] == n
        assert rows[r].tobytes() == state.state_bytes()
