"""Balance figures of Scrapyard (RULES.md, "Simulation"): what ``robotcore simulate`` prints plus how robots end.

    python -m robotcore.games.scrapyard.balance --bots greedy,greedy,greedy,greedy --games 500
    python -m robotcore.games.scrapyard.balance --bots random,random,random --games 1000 --params '{"players": 3}'

Prints one Markdown table row: games, actions per game (mean, min-max), share of complete robots, score mean /
standard deviation / range, mean score of complete robots, Upgrades and advanced Structures per robot, mean
score and win share by seat.
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Sequence
from typing import Any

from robotcore.tools.match import play_match

HEADER = ("| seats | games | actions per game | complete robots | score mean / sd / range | complete robots' "
          "score | Upgrades per robot | advanced Structures | score by seat | win share by seat |\n"
          "|---|---|---|---|---|---|---|---|---|---|")


def balance(bots: Sequence[str], games: int, seed: int = 0, **params: Any) -> dict[str, Any]:
    lengths: list[int] = []
    complete: list[bool] = []
    scores: list[int] = []
    upgrades: list[int] = []
    advanced: list[int] = []
    by_seat: list[list[int]] = [[] for _ in bots]
    wins = [0.0] * len(bots)
    for g in range(games):
        state = play_match("scrapyard", bots, seed + g, **params)
        view = state.view(None)
        final = state.scores()
        lengths.append(len(state.history))
        for s, r in enumerate(state.returns()):
            wins[s] += r
        for p in view["players"]:
            robot = p["robot"]
            complete.append(bool(p["complete"]))
            scores.append(final[p["seat"]])
            by_seat[p["seat"]].append(final[p["seat"]])
            upgrades.append(sum(len(robot[t]["upgrades"]) for t in robot))
            advanced.append(sum(1 for t in robot if robot[t]["structure"] not in (None, "standard")))
    done = [s for s, c in zip(scores, complete) if c]
    return {
        "bots": list(bots), "params": params, "games": games,
        "length_mean": statistics.mean(lengths), "length_min": min(lengths), "length_max": max(lengths),
        "complete_share": statistics.mean(complete),
        "score_mean": statistics.mean(scores), "score_stdev": statistics.pstdev(scores),
        "score_min": min(scores), "score_max": max(scores),
        "complete_score_mean": statistics.mean(done) if done else 0.0,
        "upgrades_per_robot": statistics.mean(upgrades), "advanced_per_robot": statistics.mean(advanced),
        "score_by_seat": [statistics.mean(x) for x in by_seat],
        "win_share_by_seat": [w / games for w in wins],
    }


def row(r: dict[str, Any]) -> str:
    seats = ",".join(r["bots"]) + (f" {json.dumps(r['params'])}" if r["params"] else "")
    return (f"| {seats} | {r['games']} | {r['length_mean']:.0f} ({r['length_min']}-{r['length_max']}) | "
            f"{r['complete_share']:.0%} | {r['score_mean']:.1f} / {r['score_stdev']:.1f} / "
            f"{r['score_min']}-{r['score_max']} | {r['complete_score_mean']:.1f} | {r['upgrades_per_robot']:.1f} | "
            f"{r['advanced_per_robot']:.1f} | {' / '.join(f'{x:.1f}' for x in r['score_by_seat'])} | "
            f"{' / '.join(f'{x:.2f}' for x in r['win_share_by_seat'])} |")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", required=True, help="one bot per seat: random, greedy, montecarlo")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--params", default="{}", help="game parameters as JSON")
    parser.add_argument("--header", action="store_true", help="print the table header first")
    args = parser.parse_args(argv)
    if args.header:
        print(HEADER)
    print(row(balance(args.bots.split(","), args.games, args.seed, **json.loads(args.params))))


if __name__ == "__main__":
    main()
