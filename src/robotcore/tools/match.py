"""Play matches between bots and summarise many of them (the balance simulations of the rules documents)."""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

import robotcore
from robotcore.bots import Bot, Observer, make_bot
from robotcore.core.seeds import derive_seed

#: a move is over its budget when its bot thought longer than ``budget_ms`` plus this share of it and a millisecond
#: (the call's own overhead: a bot that stops at its budget takes a little more)
BUDGET_MARGIN = 0.1


class Thinking(NamedTuple):
    """Each seat's moves, seconds of thinking in all, longest think (seconds), and moves over the budget."""

    moves: list[int]
    seconds: list[float]
    longest: list[float]
    over_budget: list[int]


def play_bots(state: robotcore.State, bots: Sequence[Bot], budget_ms: float | None = None,
              names: Sequence[str] | None = None,
              on_move: Callable[[int, int], None] | None = None) -> Thinking:
    """Play ``state`` (in place) to its end with ``bots[i]`` in seat i, as every runner does (the tournament,
    ``robotcore play``, ``play_match``): each bot ``reset`` first, then the current player chooses (in a
    simultaneous phase the lowest pending seat first), ``on_move(seat, action)`` hears it, and every other seat
    is told of it (``observe``: None when the action is hidden from it). Returns each seat's moves and times of
    thinking (``Thinking``: a move is over a budget by more than ``BUDGET_MARGIN`` of it and 1 ms). An error
    raised by a bot (in ``reset``, ``choose`` or ``observe``) carries a note naming the seat, the bot
    (``names[seat]``) and the move, and the seat as ``robotcore_seat``."""
    n = state.num_players
    spent = [0.0] * n
    moves = [0] * n
    longest = [0.0] * n
    over = [0] * n
    limit = math.inf if budget_ms is None else (budget_ms * (1 + BUDGET_MARGIN) + 1.0) / 1000
    for seat, bot in enumerate(bots):
        try:
            bot.reset()
        except Exception as exc:
            _blame(exc, seat, names[seat] if names else bot.name, state.move_number)
            raise
    by_seat = dict(enumerate(bots))
    while not state.is_terminal:
        seat = state.current_player
        t0 = time.perf_counter()
        try:
            action = bots[seat].choose(state, seat, budget_ms)
        except Exception as exc:
            _blame(exc, seat, names[seat] if names else bots[seat].name, state.move_number)
            raise
        took = time.perf_counter() - t0
        spent[seat] += took
        moves[seat] += 1
        longest[seat] = max(longest[seat], took)
        over[seat] += took > limit
        state.apply(action, seat)
        if on_move is not None:
            on_move(seat, action)
        tell_others(state, by_seat, seat, action, names)
    return Thinking(moves, spent, longest, over)


def tell_others(state: robotcore.State, bots: Mapping[int, Any], seat: int, action: int,
                names: Sequence[str] | None = None) -> None:
    """Tell the bot of every other seat (``bots``: seat -> bot, None for a seat without one) that ``seat`` played
    ``action``, through its ``observe`` hook (None in place of an action hidden from it), as every runner does;
    an error carries the seat as ``play_bots`` says."""
    public = state.game.is_public_action(action)
    for other, bot in bots.items():
        if other == seat or bot is None or not hasattr(bot, "observe"):
            continue
        try:
            bot.observe(Observer(state, other), seat, action if public else None)
        except Exception as exc:
            _blame(exc, other, names[other] if names else getattr(bot, "name", type(bot).__name__),
                   state.move_number)
            raise


def _blame(exc: BaseException, seat: int, name: str, move: int) -> None:
    """Name the seat whose bot raised ``exc``: in a note (Python 3.11+) and as ``exc.robotcore_seat`` (the
    tournament's forfeits read it)."""
    if hasattr(exc, "add_note"):
        exc.add_note(f"seat {seat} (bot {name}), move {move}")
    try:
        exc.robotcore_seat = seat  # type: ignore[attr-defined]
    except AttributeError:                  # (an exception type without a __dict__)
        pass


def play_match(name: str, bots: Sequence[str | Bot], seed: int, budget_ms: float | None = None,
               **params: Any) -> robotcore.State:
    """One full game; seat i is played by ``bots[i]`` (a bot, or the name of a built-in bot seeded from
    ``seed``); in a simultaneous phase the lowest pending seat moves first."""
    game = robotcore.load_game(name, **params)
    if len(bots) != game.num_players:
        raise robotcore.InvalidParameterError(f"{name} needs {game.num_players} bots, got {len(bots)}")
    players = [b if isinstance(b, Bot) else make_bot(b, seed=derive_seed(seed, "bot", i), for_game=game) for i, b in enumerate(bots)]
    state = game.new_initial_state(seed)
    play_bots(state, players, budget_ms, [b if isinstance(b, str) else b.name for b in bots])
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
