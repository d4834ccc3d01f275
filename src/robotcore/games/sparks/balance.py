"""Balance figures of Sparks (RULES.md, "Simulation").

    python -m robotcore.games.sparks.balance --bots greedy,greedy,greedy,greedy --games 200
    python -m robotcore.games.sparks.balance --bots random --games 500 --params '{"players": 1, "goals": 2}'

Prints one Markdown table row per run: seats, games, actions per game (mean, min-max), score mean / standard
deviation / max, the solo win rate (solo runs), then, with ``--usage``, how often each assistant is played and each
upgrade tile owned at the end (per seat and game).
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Any

from robotcore.tools.match import play_match

HEADER = ("| seats | params | games | actions per game | score mean / sd / max | solo wins |\n"
          "|---|---|---|---|---|---|")


def balance(bots: Sequence[str], games: int, seed: int = 0, **params: Any) -> dict[str, Any]:
    lengths: list[int] = []
    scores: list[int] = []
    played: Counter[str] = Counter()
    tiles: Counter[str] = Counter()
    wins = 0
    for g in range(games):
        state = play_match("sparks", bots, seed + g, **params)
        view = state.view(None)
        lengths.append(len(state.history))
        scores.extend(state.scores())
        for p in view["players"]:
            played.update(p["played"])
            tiles.update(p["tiles"])
        if "solo" in view:
            wins += bool(view["solo"]["won"])
    seats = games * len(bots)
    return {
        "bots": list(bots), "params": params, "games": games,
        "length": (statistics.mean(lengths), min(lengths), max(lengths)),
        "score": (statistics.mean(scores), statistics.pstdev(scores), max(scores)),
        "solo_wins": wins / games if len(bots) == 1 else None,
        "assistants": {k: v / seats for k, v in played.most_common()},
        "tiles": {k: v / seats for k, v in tiles.most_common()},
    }


def row(r: dict[str, Any]) -> str:
    mean, lo, hi = r["length"]
    sm, sd, mx = r["score"]
    solo = "-" if r["solo_wins"] is None else f"{r['solo_wins']:.2f}"
    params = json.dumps(r["params"], sort_keys=True) if r["params"] else "-"
    return (f"| {', '.join(r['bots'])} | {params} | {r['games']} | {mean:.0f} ({lo}-{hi}) | "
            f"{sm:.1f} / {sd:.1f} / {mx} | {solo} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bots", default="random,random,random,random")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--params", default="{}")
    parser.add_argument("--usage", action="store_true")
    args = parser.parse_args()
    bots = args.bots.split(",")
    params = json.loads(args.params)
    params.setdefault("players", len(bots))
    r = balance(bots, args.games, args.seed, **params)
    print(row(r))
    if args.usage:
        print("assistants played per seat and game: " + ", ".join(f"{k} {v:.2f}" for k, v in r["assistants"].items()))
        print("tiles owned per seat and game: " + ", ".join(f"{k} {v:.2f}" for k, v in r["tiles"].items()))


if __name__ == "__main__":
    main()
