"""A tournament from Python: a user's bot (examples/my_bots.py) against the built-in ones, with an SPRT.

    PYTHONPATH=. python examples/tournament.py            # from the repository root

The same as ``robotcore tournament --game nicodemus --bots "examples.my_bots:Greedy1:tries=2" "ismcts:iterations=300"
random --games 60 --seed 1 --sprt 1 0 --elo1 100 --out results``.
"""

from __future__ import annotations

from robotcore.arena import Tournament
from robotcore.arena.tournament import format_table


def main() -> None:
    bots = ["examples.my_bots:Greedy1:tries=2", "ismcts:iterations=300", "random"]
    t = Tournament("nicodemus", bots, games=60, seed=1, workers=2, out="results", progress=True,
                   sprt=("ismcts:iterations=300", "examples.my_bots:Greedy1:tries=2"), elo0=0, elo1=100)
    print(format_table(t.run()))


if __name__ == "__main__":      # worker processes are spawned: they import this file without running main()
    main()
