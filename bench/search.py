"""Search speed: robotcore's native MCTS (PIMC) and ISMCTS next to OpenSpiel's, measured in one run.

    python bench/search.py                          # Robotrick vs oh_hell(players=3), 8 interleaved blocks
    python bench/search.py --blocks 12 --sims 20000
    python bench/search.py --game nicodemus         # our side only, on another game (peers stay oh_hell)

What is timed: one whole decision from the start of a game (``choose`` for ours, ``step`` for theirs) with a
fixed number of simulations and random rollouts (one rollout per simulation), from each of ``--positions`` start
positions (deals), the same ones in every block; a block's figure is its simulations over its thread CPU time
(``time.thread_time_ns``: another tenant's load does not count). The same positions in every block matter:
``oh_hell`` deals a random number of tricks (1 to 17 with 3 players), so one decision's rate spreads over 20x
with the deal, and a median over blocks of one different deal each measured which deals came up, not speed:

- ours: ``mcts`` (UCT over 16 determinisations) and ``ismcts`` through ``make_bot(...).choose``, the
  determinisations included in the time: every game here has a native resampler (``EngineSpec.resample_draw``),
  so ``ismcts`` draws a fresh world for every iteration; a row with ``rollout=eval`` is added for a game with a
  native leaf evaluation (it is not a random rollout: not a target row);
- OpenSpiel 2.0.2's C++ ``MCTSBot`` and ``ISMCTSBot`` (``RandomRolloutEvaluator(1)``, UCT c=2) on
  ``oh_hell(players=3)`` after the deal (its C++ bots crash on Python-defined games, so they cannot run ours);
- OpenSpiel's Python ``open_spiel.python.algorithms.mcts.MCTSBot`` playing our Robotrick through our OpenSpiel
  adapter (``robotcore.adapters.openspiel``), with fewer simulations (it is slow).

Blocks are interleaved (every row once per block, in turn); the table shows the median rate over blocks with its
spread (min-max) and ratios of medians. A second table gives root-parallel search on 1 and ``--threads``
threads, in wall-clock time (the speed-up, meaningful on an idle machine only) and in process CPU time (all the
threads' CPU: what parallelism costs in extra work). A third gives the native resampler's cost against a
native random rollout from the same mid-game position (issue 14's target: at most 0.5).
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


def ours(game_name: str, bot: str, sims: int, positions: int, threads: int = 1, **options: Any) -> Row:
    game = robotcore.load_game(game_name)
    starts = [game.new_initial_state(1000 + p) for p in range(positions)]

    def run(block: int) -> tuple[int, int]:
        done = elapsed = 0
        for p, start in enumerate(starts):
            state = start.clone()
            b = make_bot(bot, seed=block * positions + p, iterations=sims, threads=threads, **options)
            t0 = time.thread_time_ns()
            b.choose(state, state.current_player)
            elapsed += time.thread_time_ns() - t0
            done += int(b.last["iterations"])
        return done, elapsed
    return run


def both_clocks(game_name: str, bot: str, sims: int, threads: int) -> Callable[[int], tuple[int, int, int]]:
    """One decision timed in wall-clock and in process CPU time (every thread's CPU)."""
    game = robotcore.load_game(game_name)

    def run(block: int) -> tuple[int, int, int]:
        state = game.new_initial_state(1000 + block)
        b = make_bot(bot, seed=block, iterations=sims, threads=threads)
        w0, c0 = time.perf_counter_ns(), time.process_time_ns()
        b.choose(state, state.current_player)
        return int(b.last["iterations"]), time.perf_counter_ns() - w0, time.process_time_ns() - c0
    return run


def midgame(game: robotcore.Game, seed: int = 0) -> robotcore.State:
    """A third into a seeded random game."""
    rng = np.random.default_rng(seed)
    moves = []
    state = game.new_initial_state(seed)
    while not state.is_terminal:
        legal = state.legal_actions(state.current_player)
        moves.append(int(legal[int(rng.integers(len(legal)))]))
        state.apply(moves[-1], state.current_player)
    state = game.new_initial_state(seed)
    for a in moves[:len(moves) // 3]:
        state.apply(a, state.current_player)
    return state


def resample_costs(blocks: int) -> None:
    """Native draw and Python resample_hidden against one native random rollout, per game, thread CPU time."""
    from robotcore.bots import _search
    from robotcore.core import batch

    print("\nresampling cost from a mid-game position (a third into a seeded random game), thread CPU time, "
          "median over blocks")
    print(f"{'game':12s} {'native draw':>12s} {'resample_hidden':>16s} {'native rollout':>15s} "
          f"{'draw ÷ rollout':>15s}  (target <= 0.5)")
    for name in robotcore.list_games():
        game = robotcore.load_game(name)
        state = midgame(game)
        seat = state.current_player
        draws, pys, rolls = [], [], []
        for block in range(blocks):
            if game.core.native_resample:
                t0 = time.thread_time_ns()
                _search.native_draws(state, seat, 2000, seed=block)
                draws.append((time.thread_time_ns() - t0) / 2000)
            t0 = time.thread_time_ns()
            for k in range(200):
                state.resample_hidden(seat, k)
            pys.append((time.thread_time_ns() - t0) / 200)
            states = np.stack([np.frombuffer(state.state_bytes(), dtype=np.uint8)] * 500)
            t0 = time.thread_time_ns()
            batch.random_playouts(game, states, seed=block)
            rolls.append((time.thread_time_ns() - t0) / 500)
        roll = statistics.median(rolls)
        draw = statistics.median(draws) if draws else float("nan")
        print(f"{name:12s} {draw / 1000:>10.2f}µs {statistics.median(pys) / 1000:>14.2f}µs {roll / 1000:>13.2f}µs "
              f"{draw / roll:>15.3f}  {'met' if draw / roll <= 0.5 else ('NOT met' if draws else 'no native')}")


def _oh_hell_start(pyspiel: Any, game: Any, seed: int) -> Any:
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(actions, p=probs)))
    return state


def openspiel_cpp(kind: str, sims: int, positions: int) -> Row:
    import pyspiel

    game = pyspiel.load_game("oh_hell(players=3)")
    starts = [_oh_hell_start(pyspiel, game, p) for p in range(positions)]

    def run(block: int) -> tuple[int, int]:
        elapsed = 0
        for p, start in enumerate(starts):
            seed = block * positions + p
            evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
            if kind == "mcts":
                bot = pyspiel.MCTSBot(game, evaluator, 2.0, sims, 10**8, False, seed, False,
                                      pyspiel.ChildSelectionPolicy.UCT)
            else:
                bot = pyspiel.ISMCTSBot(seed, evaluator, 2.0, sims, -1,
                                        pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False)
            state = start.clone()
            t0 = time.thread_time_ns()
            bot.step(state)
            elapsed += time.thread_time_ns() - t0
        return sims * positions, elapsed
    return run


def openspiel_python_mcts(sims: int, positions: int) -> Row:
    import pyspiel
    from open_spiel.python.algorithms import mcts

    from robotcore.adapters import openspiel as adapter

    game = pyspiel.load_game(adapter.register("robotrick"))

    def run(block: int) -> tuple[int, int]:
        elapsed = 0
        for p in range(positions):
            rng = np.random.RandomState(block * positions + p)
            bot = mcts.MCTSBot(game, 2.0, sims, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
            state = game.new_initial_state()
            t0 = time.thread_time_ns()
            bot.step(state)
            elapsed += time.thread_time_ns() - t0
        return sims * positions, elapsed
    return run


def rollout_lengths(game_name: str, positions: int) -> tuple[float, float, float]:
    """Mean actions per random game from the start: ours; oh_hell(players=3)'s from the timed deals, and from 300
    random deals (how far the timed deals are from oh_hell's own mix of trick counts)."""
    from robotcore.core import batch

    game = robotcore.load_game(game_name)
    ours_len = float(batch.random_playouts(game, game.new_batch(np.arange(2000)), seed=1).mean())
    timed = population = float("nan")
    try:
        import pyspiel

        oh = pyspiel.load_game("oh_hell(players=3)")
        rng = np.random.RandomState(0)

        def mean_length(seeds: range, repeats: int) -> float:
            total = runs = 0
            for seed in seeds:
                start = _oh_hell_start(pyspiel, oh, seed)
                for _ in range(repeats):
                    state = start.clone()
                    while not state.is_terminal():
                        state.apply_action(int(rng.choice(state.legal_actions())))
                        total += 1
                    runs += 1
            return total / runs

        timed, population = mean_length(range(positions), 50), mean_length(range(10_000, 10_300), 1)
    except ImportError:
        pass
    return ours_len, timed, population


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
    parser.add_argument("--positions", type=int, default=8,
                        help="start positions (deals) timed in every block, the same ones in each block")
    parser.add_argument("--sims", type=int, default=10000, help="simulations per decision (ours and C++)")
    parser.add_argument("--py-sims", type=int, default=300, help="simulations per decision, Python MCTS")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(f"robotcore {robotcore.__version__}; {os.cpu_count()} cores, load average {load:.2f}"
          + ("  (LOADED MACHINE: CPU-time figures hold, wall-clock ones do not)" if load > 1.0 else ""))
    g, sims, P = args.game, args.sims, args.positions
    rows: dict[str, Row] = {
        f"ours mcts (PIMC, 16 worlds) on {g}": ours(g, "mcts", sims, P),
        f"ours ismcts (a native world per iteration) on {g}": ours(g, "ismcts", sims, P),
    }
    from robotcore.bots import _search

    if _search.native_evaluate(robotcore.load_game(g).core):
        rows[f"ours ismcts rollout=eval (not a target row) on {g}"] = ours(g, "ismcts", sims, P, rollout="eval")
    peers: list[str] = []
    try:
        import pyspiel  # noqa: F401

        rows["OpenSpiel C++ MCTSBot on oh_hell(players=3)"] = openspiel_cpp("mcts", sims, P)
        rows["OpenSpiel C++ ISMCTSBot on oh_hell(players=3)"] = openspiel_cpp("ismcts", sims, P)
        if g == "robotrick":
            rows["OpenSpiel Python MCTS on robotrick (our adapter)"] = openspiel_python_mcts(args.py_sims, P)
        peers = [p for p in rows if p.startswith("OpenSpiel")]
    except ImportError:
        print("open_spiel is not installed (pip install 'robotcore[peers]'): our rows only")
    rates = measure(rows, args.blocks)
    table(f"one decision from each of {P} start positions per block, {sims} simulations (Python MCTS: "
          f"{args.py_sims}), simulations per second of thread CPU time over the block",
          rates, peers)
    ours_len, theirs_len, population = rollout_lengths(g, P)
    print(f"\nmean random-game length from the start: {g} {ours_len:.1f} actions, oh_hell(players=3) "
          f"{theirs_len:.1f} from its {P} timed deals ({population:.1f} over 300 other deals): per simulated "
          f"action, ours mcts runs {statistics.median(rates[next(iter(rows))]) * ours_len:,.0f} actions/s")
    if peers:
        mcts_med = statistics.median(rates[next(iter(rows))])
        cpp = statistics.median(rates["OpenSpiel C++ MCTSBot on oh_hell(players=3)"])
        print(f"simulated actions per second, ours mcts ÷ OpenSpiel MCTSBot: "
              f"{mcts_med * ours_len / (cpp * theirs_len):.2f}×")
    if args.threads > 1:
        par = {(kind, t): both_clocks(g, kind, sims, t) for kind in ("mcts", "ismcts") for t in (1, args.threads)}
        for run in par.values():
            run(10**6)
        got: dict[tuple[str, int], list[tuple[float, float]]] = {k: [] for k in par}
        for block in range(args.blocks):
            for key, run in par.items():
                n, wall_ns, cpu_ns = run(block)
                got[key].append((n / (wall_ns / 1e9), n / (cpu_ns / 1e9)))
        print(f"\nroot parallelism on {g}, {sims} simulations: wall-clock sims/s (the speed-up) and sims per "
              f"process CPU second (all threads), medians; load average now {os.getloadavg()[0]:.2f}"
              + (" (LOADED: the wall-clock speed-up is a floor, not the idle machine's)"
                 if os.getloadavg()[0] > 1.0 else ""))
        for kind in ("mcts", "ismcts"):
            w1 = statistics.median(x[0] for x in got[(kind, 1)])
            c1 = statistics.median(x[1] for x in got[(kind, 1)])
            wn = statistics.median(x[0] for x in got[(kind, args.threads)])
            cn = statistics.median(x[1] for x in got[(kind, args.threads)])
            print(f"{kind:7s} 1 thread: {w1:>10,.0f} wall, {c1:>10,.0f} CPU;  {args.threads} threads: {wn:>10,.0f} wall,"
                  f" {cn:>10,.0f} CPU;  speed-up {wn / w1:.2f}× wall, CPU efficiency {cn / c1:.2f}")
    resample_costs(max(3, args.blocks // 2))

if __name__ == "__main__":
    main()
