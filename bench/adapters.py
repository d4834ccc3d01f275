"""The RL adapters' cost per step next to PettingZoo's own environments, measured in one run.

    python bench/adapters.py                      # every registered game, against texas_holdem_v4 and connect_four_v3
    python bench/adapters.py --game robotrick --blocks 15

What is timed: a PettingZoo AEC step as a learner loop makes it (``last()`` then ``step(a)`` with a uniformly random
legal action from the mask), the same loop over the parallel API (one ``step`` of a dict of actions), and a
Gymnasium single-agent step (``step(a)``, the other seats played by uniform random opponents inside it). The
peers are PettingZoo's classic ``texas_holdem_v4`` (RLCard) and ``connect_four_v3``, through the same loop.

Method: thread CPU time (``time.thread_time_ns``), so another tenant's load does not count; robotcore and peer
blocks interleaved, each block a whole number of episodes of at least ``--block-ms``; the median per-step cost
over blocks with its spread (min-max), and the ratio of medians. The load average is printed and a run under
load is flagged. Needs the ``peers`` extra plus ``pettingzoo[classic]`` (rlcard, pygame) for the peer columns.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

import robotcore


def aec_block(make: Callable[[], Any], min_ns: int, seed: int) -> tuple[int, int]:
    """Whole AEC episodes until ``min_ns`` of thread CPU time: (steps, ns)."""
    rng = random.Random(seed)
    steps = 0
    env = make()
    start = time.thread_time_ns()
    while True:
        env.reset(seed=rng.randrange(1 << 30))
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        spent = time.thread_time_ns() - start
        if spent >= min_ns:
            return steps, spent


def parallel_block(make: Callable[[], Any], min_ns: int, seed: int) -> tuple[int, int]:
    rng = random.Random(seed)
    steps = 0
    env = make()
    start = time.thread_time_ns()
    while True:
        obs, _ = env.reset(seed=rng.randrange(1 << 30))
        while env.agents:
            actions = {}
            for agent in env.agents:
                legal = np.flatnonzero(obs[agent]["action_mask"])
                if len(legal):
                    actions[agent] = int(legal[rng.randrange(len(legal))])
            obs, *_ = env.step(actions)
            steps += 1
        spent = time.thread_time_ns() - start
        if spent >= min_ns:
            return steps, spent


def gym_block(make: Callable[[], Any], min_ns: int, seed: int) -> tuple[int, int]:
    rng = random.Random(seed)
    steps = 0
    env = make()
    start = time.thread_time_ns()
    while True:
        _, info = env.reset(seed=rng.randrange(1 << 30))
        while True:
            legal = np.flatnonzero(info["action_mask"])
            _, _, terminated, _, info = env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
            if terminated:
                break
        spent = time.thread_time_ns() - start
        if spent >= min_ns:
            return steps, spent


def measure(rows: dict[str, tuple[Callable[..., tuple[int, int]], Callable[[], Any]]], blocks: int,
            block_ms: float) -> dict[str, list[float]]:
    """Interleaved blocks: each round runs every row once, in a rotated order; ns per step of each block."""
    out: dict[str, list[float]] = {name: [] for name in rows}
    names = list(rows)
    for b in range(blocks):
        for name in names[b % len(names):] + names[:b % len(names)]:
            runner, make = rows[name]
            steps, ns = runner(make, int(block_ms * 1e6), seed=b)
            out[name].append(ns / steps)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", choices=robotcore.list_games(),
                        help="a game to measure (repeatable; default: every registered game)")
    parser.add_argument("--blocks", type=int, default=9)
    parser.add_argument("--block-ms", type=float, default=150.0)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    from robotcore.adapters import gymnasium as rc_gym
    from robotcore.adapters import pettingzoo as rc_pz

    rows: dict[str, tuple[Callable[..., tuple[int, int]], Callable[[], Any]]] = {}
    for name in args.game or robotcore.list_games():
        # env() carries PettingZoo's classic wrappers, as the peers' env() do; raw_env() is the adapter alone
        rows[f"{name} AEC last+step"] = (aec_block, lambda n=name: rc_pz.env(n))
        rows[f"{name} AEC raw_env last+step"] = (aec_block, lambda n=name: rc_pz.raw_env(n))
        rows[f"{name} parallel step"] = (parallel_block, lambda n=name: rc_pz.parallel_env(n))
        rows[f"{name} Gymnasium step"] = (gym_block, lambda n=name: rc_gym.env(n))
    peers: list[str] = []
    try:
        from pettingzoo.classic import connect_four_v3, texas_holdem_v4

        rows["texas_holdem_v4 AEC last+step"] = (aec_block, texas_holdem_v4.env)
        rows["connect_four_v3 AEC last+step"] = (aec_block, connect_four_v3.env)
        peers = ["texas_holdem_v4 AEC last+step", "connect_four_v3 AEC last+step"]
    except ImportError as exc:
        print(f"(no PettingZoo classic peers: {exc}; pip install 'pettingzoo[classic]')")
    load = os.getloadavg()[0]
    print(f"load average {load:.2f} on {os.cpu_count()} cores" + ("  ** UNDER LOAD: rerun when quiet **"
                                                                    if load > 0.7 * (os.cpu_count() or 1) else ""))
    results = measure(rows, args.blocks, args.block_ms)
    print(f"{'row':40s} {'median µs/step':>15s} {'spread (min-max)':>18s}" + "".join(f" {'÷ ' + p.split()[0]:>20s}" for p in peers))
    medians = {k: statistics.median(v) for k, v in results.items()}
    for name, values in results.items():
        ratios = "".join(f" {medians[p] / medians[name]:>19.1f}×" for p in peers)
        print(f"{name:40s} {medians[name] / 1e3:>15.2f} {min(values) / 1e3:>8.2f}-{max(values) / 1e3:<9.2f}{ratios}")
    print("(÷ peer: how many times cheaper a step is than the peer's step, ratio of medians of interleaved blocks)")


if __name__ == "__main__":
    main()
