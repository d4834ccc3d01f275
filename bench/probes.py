"""Positions the benchmarks measure at, shared by table.py and the pytest-benchmark suites."""

from __future__ import annotations

import random

import robotcore


def midgame(game: robotcore.Game, seed: int = 7) -> tuple[robotcore.State, int]:
    """A decision about one third into a seeded random game, and a legal action there."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    for _ in range(game.max_game_length // 3):
        if state.is_terminal:
            break
        seat = state.current_player
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    return state, state.legal_actions()[0]
