"""Strength report (not a timed test): the native search bots against random and greedy in every game, and
ISMCTS against PIMC head to head, through the tournament harness (paired deals, seat rotation).

    python bench/strength.py                          # every registered game, 4 deals each
    python bench/strength.py --game robotrick --deals 6 --iterations 1000
    python bench/strength.py --game scrapyard --options rollout=eval   # leaf evaluation (EngineSpec.evaluate)

For each game: a tournament of each searcher with random and greedy (the claim "beats random and greedy"
holds when the lower end of the searcher's score-share interval, over deals, is above chance, 1 / players),
then ismcts against mcts alone (seats rotated; in games of more seats the two fill them in turn).
"""

from __future__ import annotations

import argparse
import os

import robotcore
from robotcore.arena.tournament import Tournament, format_table, lineups


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", default=None)
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--iterations", type=int, default=500)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--options", default="", help="more options for both searchers, e.g. rollout=eval,depth=8")
    parser.add_argument("--against", nargs="+", default=["random", "greedy"],
                        help="the opponents of each searcher (e.g. --against greedy: greedy alone)")
    parser.add_argument("--skip-head-to-head", action="store_true")
    args = parser.parse_args()
    for name in args.game or robotcore.list_games():
        n = robotcore.load_game(name).num_players
        extra = f",{args.options}" if args.options else ""
        searchers = [f"ismcts:iterations={args.iterations}{extra}", f"mcts:iterations={args.iterations}{extra}"]
        for bot in searchers:                          # each searcher against random and greedy (--against)
            bots = [bot, *args.against]
            t = Tournament(name, bots, args.deals * len(lineups(len(bots), n)), seed=args.seed,
                           workers=args.workers)
            summary = t.run()
            print(format_table(summary))
            row = summary["bots"][0]
            verdict = "above chance" if row["score_share_ci"][0] > summary["chance"] else "NOT above chance"
            print(f"  => {bot} on {name}: score share {row['score_share']:.3f}, 95% interval "
                  f"{row['score_share_ci'][0]:.3f}-{row['score_share_ci'][1]:.3f}: {verdict} "
                  f"({summary['chance']:.3f})\n")
        if args.skip_head_to_head:
            continue
        t = Tournament(name, searchers, args.deals * len(lineups(2, n)), seed=args.seed, workers=args.workers)
        summary = t.run()
        print(format_table(summary))
        p = summary["pairwise"][0]
        print(f"  => ismcts vs mcts on {name}: {p['a_wins']}-{p['draws']}-{p['b_wins']} "
              f"(ismcts placed higher / level / lower; ismcts score {p['a_score']:.3f} over {p['games']} games)\n")

if __name__ == "__main__":
    main()
