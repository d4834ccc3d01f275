"""Balance simulations for any game (the "Simulation" tables of the RULES.md files).

    python -m robotcore.tools.balance scrapyard --bots greedy,greedy,greedy,greedy --games 500
    python -m robotcore.tools.balance scrapyard --bots random,random,random --games 1000 --params '{"players": 3}'
    python -m robotcore.tools.balance smartphone --rotate --bots "greedy:prefer=supply PolluPlus" \
        "greedy:prefer=supply PolluMoins" "greedy:prefer=supply Recyclage" greedy

``--bots`` takes one bot spec per seat (``robotcore.bots.parse_bot_spec``: ``name``, ``name:option=value,...``
or ``module:Class:option=value``), or one comma-separated list of plain names (``random,random,greedy``). ``--rotate`` seats the bots in rotation (game g shifts them by g
seats, so that every bot plays every seat) and reports score and win share per bot, in the order listed.

Prints one Markdown table row: the seats' bots, games, actions per game (mean, min-max), score mean / standard
deviation / range, score and win share by seat, then the mean of each of the game's own per-seat facts
(``Game.balance_facts``: Scrapyard's complete robots, Upgrades per robot...). ``--header`` prints the header
first. Grouped facts (``"assistants played: Conrad"``: a group, a colon, an item) are not columns: they follow the
row, one line per group, as the mean per seat and game of each item, most frequent first. The rules packages define what to count; running matches is this tool's job.
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Sequence
from typing import Any

import robotcore
from robotcore.bots import make_bot, split_bot_specs
from robotcore.core.seeds import derive_seed
from robotcore.tools.match import play_match

COLUMNS = ("seats", "games", "actions per game", "score mean / sd / range", "score by seat (by bot if rotated)",
           "win share by seat (by bot if rotated)")


def balance(name: str, bots: Sequence[str], games: int, seed: int = 0, rotate: bool = False,
            **params: Any) -> dict[str, Any]:
    """Play ``games`` matches (seeds ``seed``..) and summarise them, the game's own facts included. With
    ``rotate``, game g seats the bots shifted by g places and the by-seat figures are by bot instead."""
    game = robotcore.load_game(name, **params)
    lengths: list[int] = []
    scores: list[int] = []
    by_seat: list[list[int]] = [[] for _ in bots]
    wins = [0.0] * len(bots)
    facts: dict[str, list[float]] = {}
    seat_games = 0
    for g in range(games):
        shift = g % len(bots) if rotate else 0
        seated = [bots[(i + shift) % len(bots)] for i in range(len(bots))]
        players = [make_bot(b, seed=derive_seed(seed, "bot", g, i), for_game=game) for i, b in enumerate(seated)]
        state = play_match(name, players, seed + g, **params)
        final = state.scores()
        lengths.append(len(state.history))
        for s, r in enumerate(state.returns()):
            who = (s + shift) % len(bots)       # the seat, or (rotating) the bot that sat there
            wins[who] += r
            scores.append(final[s])
            by_seat[who].append(final[s])
        for seat_facts in game.balance_facts(state.view(None)):
            seat_games += 1
            for key, value in seat_facts.items():
                facts.setdefault(key, []).append(float(value))
    return {
        "game": name, "bots": list(bots), "params": params, "games": games, "rotate": rotate,
        "length_mean": statistics.mean(lengths), "length_min": min(lengths), "length_max": max(lengths),
        "score_mean": statistics.mean(scores), "score_stdev": statistics.pstdev(scores),
        "score_min": min(scores), "score_max": max(scores),
        "score_by_seat": [statistics.mean(x) for x in by_seat],
        "win_share_by_seat": [w / games for w in wins],
        # a fact a seat may lack (a grouped item it never had) averages over every seat and game
        "facts": {key: (sum(values) / seat_games if ": " in key else statistics.mean(values))
                  for key, values in facts.items()},
    }


def columns(result: dict[str, Any]) -> dict[str, float]:
    return {k: v for k, v in result["facts"].items() if ": " not in k}


def groups(result: dict[str, Any]) -> list[str]:
    """One line per group of grouped facts: "group per seat and game: item mean, ...", most frequent first."""
    by_group: dict[str, dict[str, float]] = {}
    for key, value in result["facts"].items():
        if ": " in key:
            group, item = key.split(": ", 1)
            by_group.setdefault(group, {})[item] = value
    return [f"{group} per seat and game: " + ", ".join(f"{item} {v:.2f}" for item, v in
                                                       sorted(items.items(), key=lambda kv: -kv[1]))
            for group, items in by_group.items()]


def header(result: dict[str, Any]) -> str:
    names = [*COLUMNS, *columns(result)]
    return "| " + " | ".join(names) + " |\n|" + "---|" * len(names)


def row(r: dict[str, Any]) -> str:
    seats = ",".join(r["bots"]) + (f" {json.dumps(r['params'])}" if r["params"] else "") \
        + (" (rotated)" if r.get("rotate") else "")
    cells = [
        seats, str(r["games"]), f"{r['length_mean']:.0f} ({r['length_min']}-{r['length_max']})",
        f"{r['score_mean']:.1f} / {r['score_stdev']:.1f} / {r['score_min']}-{r['score_max']}",
        " / ".join(f"{x:.1f}" for x in r["score_by_seat"]), " / ".join(f"{x:.2f}" for x in r["win_share_by_seat"]),
        *(f"{v:.2f}" for v in columns(r).values()),
    ]
    return "| " + " | ".join(cells) + " |"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", choices=robotcore.list_games())
    parser.add_argument("--bots", required=True, nargs="+",
                        help="one bot spec per seat (random, greedy, mcts:iterations=500...), or a,b,c")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--params", default="{}", help="game parameters as JSON")
    parser.add_argument("--header", action="store_true", help="print the table header first")
    parser.add_argument("--rotate", action="store_true", help="rotate the bots over the seats; figures by bot")
    args = parser.parse_args(argv)
    result = balance(args.game, split_bot_specs(args.bots), args.games, args.seed, args.rotate,
                     **json.loads(args.params))
    if args.header:
        print(header(result))
    print(row(result))
    for line in groups(result):
        print(line)


if __name__ == "__main__":
    main()
