"""The native random playouts draw exactly what their documentation says: on the row's own stream, a uniform
index k below the number of legal actions of the lowest acting seat, and the k-th of those actions in id order
(core/playout.pxd). A plain-Python loop over the public API and the model PRNG must reach the same states, so
every shortcut of the native loops (the words with a legal action listed once, the select by halving, the games'
own loops) is checked against the definition, not only against each other."""

from __future__ import annotations

import numpy as np
import pytest

import robotcore

from ..rng_model import check_native_playouts


@pytest.mark.parametrize("name", robotcore.list_games())
def test_native_playouts_are_the_documented_draws(name: str) -> None:
    check_native_playouts(robotcore.load_game(name), np.arange(100, 104, dtype=np.uint64), seed=11)
