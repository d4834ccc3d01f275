"""Search speed: robotcore's native MCTS (PIMC) and ISMCTS next to OpenSpiel's, measured in one run.

    python bench/search.py                          # Robotrick vs oh_hell(players=3), 8 interleaved blocks
    python bench/search.py --blocks 12 --sims 20000
    python bench/search.py --game nicodemus         # our side only, on another game (peers stay oh_hell)

What is timed: one whole decision from the start of a game (``choose`` for ours, ``step`` for theirs) with a
fixed number of simulations and random rollouts (one rollout per simulation), i.e. simulations per second of
thread CPU time (``time.thread_time_ns``: another tenant's load does not count):

- ours: ``mcts`` (UCT over 16 determinisations) and ``ismcts`` through ``make_bot(...).choose`` — the Python
  draws of the determinisation pool included in the time; ``ismcts worlds=sims`` draws a fresh determinisation
  through the game's Python ``resample_hidden`` for every iteration (the cost a native resampler removes), and
  ``worlds=sims/64`` shows how the figure moves with the pool size;
- OpenSpiel 2.0.2's C++ ``MCTSBot`` and ``ISMCTSBot`` (``RandomRolloutEvaluator(1)``, UCT c=2) on
  ``oh_hell(players=3)`` after the deal (its C++ bots crash on Python-defined games, so they cannot run ours);
- OpenSpiel's Python ``open_spiel.python.algorithms.mcts.MCTSBot`` playing our Robotrick through our OpenSpiel
  adapter (``robotcore.adapters.openspiel``), with fewer simulations (it is slow).

Blocks are interleaved (every row once per block, in turn); the table shows the median rate over blocks with its
spread (min-max) and ratios of medians. A second table gives root-parallel search on ``--threads`` threads in
wall-clock time (simulations per second of elapsed time, and per core), since CPU time cannot show a speed-up.
A simulation is a whole game: Robotrick from the start is 126 actions (three rounds), an ``oh_hell`` deal about
a third of that, so the table also prints the mean rollout length and simulated actions per second.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import robotcore
from robotcore.bots import make_bot

Row = Callable[[int], tuple[int, int]]          # block index -> (simulations, ns)


def ours(game_name: str, bot: str, sims: int, threads: int = 1, wall: bool = False, **options: Any) -> Row:
    game = robotcore.load_game(game_name)

    def run(block: int) -> tuple[int, int]:
        state = game.new_initial_state(1000 + block)
        b = make_bot(bot, seed=block, iterations=sims, threads=threads, **options)
        clock = time.perf_counter_ns if wall else time.thread_time_ns
        t0 = clock()
        b.choose(state, state.current_player)
        return int(b.last["iterations"]), clock() - t0
    return run


def _oh_hell_start(pyspiel: Any, game: Any, seed: int) -> Any:
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(actions, p=probs)))
    return state


def openspiel_cpp(kind: str, sims: int) -> Row:
    import pyspiel

    game = pyspiel.load_game("oh_hell(players=3)")

    def run(block: int) -> tuple[int, int]:
        evaluator = pyspiel.RandomRolloutEvaluator(1, block)
        if kind == "mcts":
            bot = pyspiel.MCTSBot(game, evaluator, 2.0, sims, 10**8, False, block, False,
                                  pyspiel.ChildSelectionPolicy.UCT)
        else:
            bot = pyspiel.ISMCTSBot(block, evaluator, 2.0, sims, -1,
                                    pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False)
        state = _oh_hell_start(pyspiel, game, block)
        t0 = time.thread_time_ns()
        bot.step(state)
        return sims, time.thread_time_ns() - t0
    return run


def openspiel_python_mcts(sims: int) -> Row:
    import pyspiel
    from open_spiel.python.algorithms import mcts

    from robotcore.adapters import openspiel as adapter

    game = pyspiel.load_game(adapter.register("robotrick"))

    def run(block: int) -> tuple[int, int]:
        rng = np.random.RandomState(block)
        bot = mcts.MCTSBot(game, 2.0, sims, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
        state = game.new_initial_state()
        t0 = time.thread_time_ns()
        bot.step(state)
        return sims, time.thread_time_ns() - t0
    return run


def rollout_lengths(game_name: str) -> tuple[float, float]:
    """Mean actions per random game from the start: ours (one game) and oh_hell(players=3)'s."""
    from robotcore.core import batch

    game = robotcore.load_game(game_name)
    ours_len = float(batch.random_playouts(game, game.new_batch(np.arange(2000)), seed=1).mean())
    theirs = float("nan")
    try:
        import pyspiel

        oh = pyspiel.load_game("oh_hell(players=3)")
        rng = np.random.RandomState(0)
        total = 0
        for seed in range(300):
            state = _oh_hell_start(pyspiel, oh, seed)
            while not state.is_terminal():
                state.apply_action(int(rng.choice(state.legal_actions())))
                total += 1
        theirs = total / 300
    except ImportError:
        pass
    return ours_len, theirs


def measure(rows: dict[str, Row], blocks: int) -> dict[str, list[float]]:
    """Simulations per second for each row, one entry per block, rows interleaved within every block."""
    rates: dict[str, list[float]] = {name: [] for name in rows}
    for run in rows.values():               # warm-up (imports, first allocations) outside the figures
        run(10**6)
    for block in range(blocks):
        for name, run in rows.items():
            n, ns = run(block)
            rates[name].append(n / (ns / 1e9))
    return rates


def table(title: str, rates: dict[str, list[float]], peers: list[str]) -> None:
    medians = {k: statistics.median(v) for k, v in rates.items()}
    print(f"\n{title}")
    print(f"{'row':52s} {'median sims/s':>14s} {'spread (min-max)':>22s}"
          + "".join(f" {'÷ ' + p:>16s}" for p in peers))
    for name, values in rates.items():
        ratios = "".join(f" {medians[name] / medians[p]:>15.2f}×" for p in peers)
        print(f"{name[:52]:52s} {medians[name]:>14,.0f} {min(values):>10,.0f}-{max(values):<11,.0f}{ratios}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="robotrick")
    parser.add_argument("--blocks", type=int, default=8)
    parser.add_argument("--sims", type=int, default=10000, help="simulations per decision (ours and C++)")
    parser.add_argument("--py-sims", type=int, default=300, help="simulations per decision, Python MCTS")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(f"robotcore {robotcore.__version__}; {os.cpu_count()} cores, load average {load:.2f}"
          + ("  (LOADED MACHINE: CPU-time figures hold, wall-clock ones do not)" if load > 1.0 else ""))
    g, sims = args.game, args.sims
    rows: dict[str, Row] = {
        f"ours mcts (PIMC, 16 worlds) on {g}": ours(g, "mcts", sims),
        f"ours ismcts (pool of sims/32 worlds) on {g}": ours(g, "ismcts", sims),
        f"ours ismcts worlds=sims/64 on {g}": ours(g, "ismcts", sims, worlds=max(1, sims // 64)),
        f"ours ismcts worlds=sims (a resample_hidden each) on {g}": ours(g, "ismcts", sims, worlds=sims),
    }
    peers: list[str] = []
    try:
        import pyspiel  # noqa: F401

        rows["OpenSpiel C++ MCTSBot on oh_hell(players=3)"] = openspiel_cpp("mcts", sims)
        rows["OpenSpiel C++ ISMCTSBot on oh_hell(players=3)"] = openspiel_cpp("ismcts", sims)
        if g == "robotrick":
            rows["OpenSpiel Python MCTS on robotrick (our adapter)"] = openspiel_python_mcts(args.py_sims)
        peers = [p for p in rows if p.startswith("OpenSpiel")]
    except ImportError:
        print("open_spiel is not installed (pip install 'robotcore[peers]'): our rows only")
    rates = measure(rows, args.blocks)
    table(f"one decision from the start, {sims} simulations (Python MCTS: {args.py_sims}), thread CPU time",
          rates, peers)
    ours_len, theirs_len = rollout_lengths(g)
    print(f"\nmean random-game length from the start: {g} {ours_len:.1f} actions, oh_hell(players=3) "
          f"{theirs_len:.1f}: per simulated action, ours mcts runs "
          f"{statistics.median(rates[next(iter(rows))]) * ours_len:,.0f} actions/s")
    if peers:
        mcts_med = statistics.median(rates[next(iter(rows))])
        cpp = statistics.median(rates["OpenSpiel C++ MCTSBot on oh_hell(players=3)"])
        print(f"simulated actions per second, ours mcts ÷ OpenSpiel MCTSBot: "
              f"{mcts_med * ours_len / (cpp * theirs_len):.2f}×")
    if args.threads > 1:
        par = {
            f"ours mcts threads=1 on {g} (wall)": ours(g, "mcts", sims, wall=True),
            f"ours mcts threads={args.threads} on {g} (wall)": ours(g, "mcts", sims, args.threads, wall=True),
            f"ours ismcts threads=1 on {g} (wall)": ours(g, "ismcts", sims, wall=True),
            f"ours ismcts threads={args.threads} on {g} (wall)": ours(g, "ismcts", sims, args.threads, wall=True),
        }
        prates = measure(par, args.blocks)
        table(f"root parallelism, {sims} simulations, wall-clock time (meaningful on an idle machine only)",
              prates, [])
        for kind in ("mcts", "ismcts"):
            one = statistics.median(prates[f"ours {kind} threads=1 on {g} (wall)"])
            many = statistics.median(prates[f"ours {kind} threads={args.threads} on {g} (wall)"])
            print(f"{kind}: speed-up on {args.threads} threads {many / one:.2f}×")


if __name__ == "__main__":
    main()
