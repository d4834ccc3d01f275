"""The Python step against its floor as the fastest of many replays, for A/B runs of two builds on a busy machine.

``table.py`` reports medians of interleaved blocks, which on a shared machine move with the load by a third from
run to run. The fastest of N replays of the same recorded games is the run least disturbed by other work: run this
script alternately on two trees (``PYTHONPATH=<tree>/src python <tree>/bench/step_min.py``) and compare the step's
nanoseconds, which then agree to a few per cent between runs of the same build. Thread CPU time, one process.

    PYTHONPATH=src python bench/step_min.py --games robotrick,nicodemus --replays 40
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import table  # noqa: E402

import robotcore  # noqa: E402
from robotcore.core._noop import Noop  # noqa: E402


def fastest(game: robotcore.Game, replays: int) -> tuple[float, float]:
    """(step, floor): the fewest ns a step took over ``replays`` replays of the first 10 recorded games."""
    recorded = table.recorded_games(game, 10)
    noop = Noop()
    step = floor = float("inf")
    for _ in range(replays):
        t = time.thread_time_ns()
        n = table.replay_steps(game, recorded)
        step = min(step, (time.thread_time_ns() - t) / n)
        t = time.thread_time_ns()
        n = table.floor_steps(game, recorded, noop)
        floor = min(floor, (time.thread_time_ns() - t) / n)
    return step, floor


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default=",".join(robotcore.list_games()))
    parser.add_argument("--replays", type=int, default=40)
    args = parser.parse_args()
    cells = []
    for name in args.games.split(","):
        step, floor = fastest(robotcore.load_game(name), args.replays)
        cells.append(f"{name} {step:.0f}/{floor:.0f} ns = {step / floor:.2f}")
    print(f"load {os.getloadavg()[0]:.2f}: " + "  ".join(cells))


if __name__ == "__main__":
    main()
