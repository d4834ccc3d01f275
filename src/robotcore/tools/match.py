"""Play matches between bots and summarise many of them (the balance simulations of the rules documents)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence
from typing import Any

import robotcore
from robotcore.bots import Bot, make_bot
from robotcore.core.seeds import derive_seed


def play_match(name: str, bots: Sequence[str | Bot], seed: int, budget_ms: float | None = None,
               **params: Any) -> robotcore.State:
    """One full game; seat i is played by ``bots[i]`` (a bot, or the name of a built-in bot seeded from
    ``seed``); in a simultaneous phase the lowest pending seat moves first."""
    game = robotcore.load_game(name, **params)
    if len(bots) != game.num_players:
        raise robotcore.InvalidParameterError(f"{name} needs {game.num_players} bots, got {len(bots)}")
    players = [b if isinstance(b, Bot) else make_bot(b, seed=derive_seed(seed, "bot", i), for_game=game) for i, b in enumerate(bots)]
    state = game.new_initial_state(seed)
    while not state.is_terminal:
        seat = state.current_player
        state.apply(players[seat].choose(state, seat, budget_ms), seat)
    return state


def simulate(name: str, bots: Sequence[str], games: int, seed: int = 0, **params: Any) -> dict[str, Any]:
    """Scores, win shares and game lengths of ``games`` matches."""
    scores: list[list[int]] = []
    wins = [0.0] * len(bots)
    lengths = []
    t0 = time.perf_counter()
    for g in range(games):
        state = play_match(name, bots, seed + g, **params)
        scores.append(state.scores())
        lengths.append(len(state.history))
        for s, r in enumerate(state.returns()):
            wins[s] += r
    flat = [x for row in scores for x in row]
    per_seat = list(zip(*scores))
    return {
        "game": name,
        "bots": list(bots),
        "games": games,
        "seconds": round(time.perf_counter() - t0, 2),
        "mean_length": statistics.mean(lengths),
        "score_mean": round(statistics.mean(flat), 2),
        "score_stdev": round(statistics.pstdev(flat), 2),
        "score_min": min(flat),
        "score_max": max(flat),
        "score_mean_by_seat": [round(statistics.mean(s), 2) for s in per_seat],
        "win_share_by_seat": [round(w / games, 3) for w in wins],
        "winning_margin_mean": round(statistics.mean(
            sorted(row)[-1] - sorted(row)[-2] for row in scores) if len(bots) > 1 else 0.0, 2),
    }
