"""Print the comparison table: robotcore next to the Python call floor and to OpenSpiel, measured in one run.

    python bench/table.py                 # Robotrick vs oh_hell(players=3,num_tricks_fixed=17)
    python bench/table.py --game nicodemus --no-callgrind

Method (the machine is shared and noisy, so every figure is a ratio of two measurements taken in this run):
- per-call costs: ``timeit`` with an adaptive count, 7 repeats per pass, 3 interleaved passes; the minimum is
  reported (the least disturbed run);
- a Python step is ``legal_actions()`` then ``apply(a)``, timed by replaying recorded games (no RNG inside);
  the floor for a step is the same loop making two no-op calls into a compiled extension built with the same
  flags (``_noop.pyx``) instead;
- Python-driven games/s: the leanest loop of peers.md (``la[rng.randrange(len(la))]``), the same for both;
- native: robotcore's ``batch.random_playouts`` on 1 and 2 threads against ``pyspiel.evaluate_bots`` with uniform
  random bots; "actions" are the decisions of each engine's own API (OpenSpiel's include its chance nodes);
- instructions per action from ``valgrind --tool=callgrind`` (repeatable whatever the load), collected only
  inside the native loops.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
import timeit
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import robotcore  # noqa: E402
from robotcore.core import batch  # noqa: E402
from robotcore.core._noop import Noop  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probes import midgame  # noqa: E402

OH_HELL = "oh_hell(players=3,num_tricks_fixed=17)"


def per_call_ns(stmt: str, env: dict[str, Any], setup: str = "pass") -> float:
    timer = timeit.Timer(stmt, setup=setup, globals=env)
    number = max(1, timer.autorange()[0])
    while timer.timeit(number) < 0.05:
        number *= 2
    return min(timer.repeat(number=number, repeat=7)) / number * 1e9


def best_of(passes: int, fn: Any) -> float:
    return min(fn() for _ in range(passes))


# -- robotcore ----------------------------------------------------------------------------------------------

def rc_recorded(game: robotcore.Game, seed: int) -> list[int]:
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    out = []
    while not state.is_terminal:
        a = rng.choice(state.legal_actions())
        state.apply(a)
        out.append(a)
    return out


def rc_step_ns(game: robotcore.Game, games: int = 200) -> tuple[float, float]:
    """Mean cost of legal_actions() + apply(a) over recorded games, and of the same loop making two no-op
    calls into a compiled extension instead (the floor for a step, loop overhead included in both)."""
    recorded = [rc_recorded(game, s) for s in range(games)]
    steps = sum(len(r) for r in recorded)
    noop = Noop()

    def run() -> float:
        t0 = time.perf_counter()
        for seed, actions in enumerate(recorded):
            s = game.new_initial_state(seed)
            for a in actions:
                s.legal_actions()
                s.apply(a)
        return (time.perf_counter() - t0) / steps * 1e9

    def floor() -> float:
        t0 = time.perf_counter()
        for seed, actions in enumerate(recorded):
            game.new_initial_state(seed)
            for a in actions:
                noop.m()
                noop.m1(a)
        return (time.perf_counter() - t0) / steps * 1e9

    steps_ns, floor_ns = [], []
    for _ in range(5):          # interleaved
        steps_ns.append(run())
        floor_ns.append(floor())
    return min(steps_ns), min(floor_ns)


def rc_python_games_per_s(game: robotcore.Game, seconds: float = 1.5) -> tuple[float, float]:
    rng = random.Random(12345)
    n = steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        s = game.new_initial_state(n)
        while not s.is_terminal:
            la = s.legal_actions()
            s.apply(la[rng.randrange(len(la))])
            steps += 1
        n += 1
    dt = time.perf_counter() - t0
    return n / dt, steps / dt


def rc_native(game: robotcore.Game, threads: int, rows: int = 20000) -> tuple[float, float]:
    def run() -> tuple[float, float]:
        states = game.new_batch(np.arange(rows, dtype=np.uint64))
        t0 = time.perf_counter()
        n = batch.random_playouts(game, states, seed=1, threads=threads)
        dt = time.perf_counter() - t0
        return rows / dt, float(n.sum()) / dt

    results = [run() for _ in range(5)]
    return max(r[0] for r in results), max(r[1] for r in results)


# -- OpenSpiel ------------------------------------------------------------------------------------------------

def os_available() -> bool:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return False
    return True


def os_probe() -> tuple[Any, int]:
    import pyspiel

    game = pyspiel.load_game(OH_HELL)
    rng = random.Random(7)
    s = game.new_initial_state()
    decisions = 0
    while s.is_chance_node() or decisions < 18:
        if not s.is_chance_node():
            decisions += 1
        s.apply_action(rng.choice(s.legal_actions()))
    return s, s.legal_actions()[0]


def os_step_ns(games: int = 200) -> float:
    """The same replay loop over pyspiel (legal_actions() + apply_action(a), chance nodes included)."""
    import pyspiel

    game = pyspiel.load_game(OH_HELL)
    recorded = []
    for seed in range(games):
        rng = random.Random(seed)
        s = game.new_initial_state()
        actions = []
        while not s.is_terminal():
            a = rng.choice(s.legal_actions())
            s.apply_action(a)
            actions.append(a)
        recorded.append(actions)
    steps = sum(len(r) for r in recorded)

    def run() -> float:
        t0 = time.perf_counter()
        for actions in recorded:
            s = game.new_initial_state()
            for a in actions:
                s.legal_actions()
                s.apply_action(a)
        return (time.perf_counter() - t0) / steps * 1e9

    return best_of(5, run)


def os_python_games_per_s(seconds: float = 1.5) -> tuple[float, float]:
    import pyspiel

    game = pyspiel.load_game(OH_HELL)
    rng = random.Random(12345)
    n = steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        s = game.new_initial_state()
        while not s.is_terminal():
            la = s.legal_actions()
            s.apply_action(la[rng.randrange(len(la))])
            steps += 1
        n += 1
    dt = time.perf_counter() - t0
    return n / dt, steps / dt


def os_native(seconds: float = 1.0) -> tuple[float, float]:
    import pyspiel

    game = pyspiel.load_game(OH_HELL)
    bots = [pyspiel.make_uniform_random_bot(p, p) for p in range(game.num_players())]
    rates = []
    seed = 0
    for _ in range(5):
        g = 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            seed += 1
            pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
            g += 1
        rates.append(g / (time.perf_counter() - t0))
    length = 108  # 54 chance nodes + 3 bids + 51 plays, fixed for this parameter set (peers.md 1.2)
    return max(rates), max(rates) * length


# -- callgrind ------------------------------------------------------------------------------------------------

CG_RC = """
import sys, numpy as np, robotcore
from robotcore.core import batch
g = robotcore.load_game(sys.argv[1])
a = g.new_batch(np.arange(int(sys.argv[2]), dtype=np.uint64))
n = batch.random_playouts(g, a, 1)
print(int(n.sum()))
"""

CG_OS = """
import sys, pyspiel
game = pyspiel.load_game(sys.argv[1])
bots = [pyspiel.make_uniform_random_bot(p, p) for p in range(game.num_players())]
for seed in range(int(sys.argv[2])):
    pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
print(108 * int(sys.argv[2]))
"""


def callgrind_per_action(script: str, toggle: str, args: list[str]) -> float | None:
    if shutil.which("valgrind") is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "probe.py")
        with open(path, "w") as f:
            f.write(textwrap.dedent(script))
        out = os.path.join(tmp, "cg.out")
        proc = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--toggle-collect={toggle}", f"--callgrind-out-file={out}",
             sys.executable, path, *args],
            capture_output=True, text=True,
        )
        if proc.returncode != 0:
            return None
        actions = int(proc.stdout.strip().splitlines()[-1])
        total = None
        for line in proc.stderr.splitlines():
            if "Collected :" in line:
                total = int(line.split(":")[-1].strip())
        return None if not total or not actions else total / actions


# -- the table --------------------------------------------------------------------------------------------------

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="robotrick", choices=robotcore.list_games())
    parser.add_argument("--no-callgrind", action="store_true")
    parser.add_argument("--no-openspiel", action="store_true")
    args = parser.parse_args()
    game = robotcore.load_game(args.game)
    with_os = os_available() and not args.no_openspiel

    state, action = midgame(game)
    noop = Noop()
    raw = state.state_bytes()
    env: dict[str, Any] = {"s": state, "a": action, "n": noop, "raw": raw, "bytearray": bytearray}
    if with_os:
        S, A = os_probe()
        env.update(S=S, A=A)

    calls = {
        "floor: no-op method n.m()": "n.m()",
        "floor: no-op method with an argument n.m1(a)": "n.m1(a)",
        "copy of the state's bytes: bytearray(raw)": "bytearray(raw)",
        "robotcore clone()": "s.clone()",
        "robotcore legal_actions()": "s.legal_actions()",
        "robotcore legal_mask()": "s.legal_mask()",
        "robotcore clone().apply(a)": "s.clone().apply(a)",
        "robotcore current_player": "s.current_player",
    }
    if with_os:
        calls.update({
            "pyspiel clone()": "S.clone()",
            "pyspiel legal_actions()": "S.legal_actions()",
            "pyspiel legal_actions_mask()": "S.legal_actions_mask()",
            "pyspiel clone().apply_action(a)": "S.clone().apply_action(A)",
            "pyspiel current_player()": "S.current_player()",
        })
    results: dict[str, list[float]] = {k: [] for k in calls}
    for _ in range(3):                       # interleaved passes
        for label, stmt in calls.items():
            results[label].append(per_call_ns(stmt, env))
    ns = {k: min(v) for k, v in results.items()}
    ns["robotcore apply(a)"] = ns["robotcore clone().apply(a)"] - ns["robotcore clone()"]
    if with_os:
        ns["pyspiel apply_action(a)"] = ns["pyspiel clone().apply_action(a)"] - ns["pyspiel clone()"]

    step_rc, floor_step = rc_step_ns(game)
    step_os = os_step_ns() if with_os else None
    py_rc = rc_python_games_per_s(game)
    py_os = os_python_games_per_s() if with_os else None
    nat1 = rc_native(game, 1)
    nat2 = rc_native(game, 2)
    nat_os = os_native() if with_os else None
    cg_rc = cg_os = None
    if not args.no_callgrind:
        cg_rc = callgrind_per_action(CG_RC, "*batch__playouts*", [args.game, "1000"])
        if with_os:
            cg_os = callgrind_per_action(CG_OS, "*EvaluateBots*", [OH_HELL, "200"])

    print(f"# robotcore bench: {game.name} (state {game.state_size} bytes, {game.max_game_length} decisions/game)"
          + (f" vs OpenSpiel {OH_HELL}" if with_os else ""))
    print(f"# {time.strftime('%Y-%m-%d %H:%M')}  Python {sys.version.split()[0]}  "
          f"{os.cpu_count()} CPUs  load {os.getloadavg()[0]:.2f}")
    print()
    print("| per call (ns, min of 3 interleaved passes) | robotcore | pyspiel |")
    print("|---|---:|---:|")
    pairs = [("clone()", "robotcore clone()", "pyspiel clone()"),
             ("legal_actions()", "robotcore legal_actions()", "pyspiel legal_actions()"),
             ("legal mask", "robotcore legal_mask()", "pyspiel legal_actions_mask()"),
             ("apply(a)", "robotcore apply(a)", "pyspiel apply_action(a)"),
             ("current player", "robotcore current_player", "pyspiel current_player()")]
    for label, a, b in pairs:
        print(f"| {label} | {ns[a]:.0f} | {ns.get(b, float('nan')):.0f} |")
    print(f"| step: legal_actions() + apply(a), replayed games | {step_rc:.0f} | "
          f"{step_os if step_os is not None else float('nan'):.0f} |")
    print(f"| floor step: the same loop with two no-op calls | {floor_step:.0f} | |")
    for label in ("floor: no-op method n.m()", "floor: no-op method with an argument n.m1(a)",
                  "copy of the state's bytes: bytearray(raw)"):
        print(f"| {label} | {ns[label]:.0f} | |")
    print()
    print("| rates | robotcore | OpenSpiel |")
    print("|---|---:|---:|")
    print(f"| Python-driven random games/s | {py_rc[0]:,.0f} | {py_os[0] if py_os else float('nan'):,.0f} |")
    print(f"| Python-driven actions/s | {py_rc[1]:,.0f} | {py_os[1] if py_os else float('nan'):,.0f} |")
    print(f"| native random playouts, games/s, 1 thread | {nat1[0]:,.0f} | "
          f"{nat_os[0] if nat_os else float('nan'):,.0f} |")
    print(f"| native actions/s, 1 thread | {nat1[1]:,.0f} | {nat_os[1] if nat_os else float('nan'):,.0f} |")
    print(f"| native games/s, 2 threads | {nat2[0]:,.0f} | |")
    print(f"| native actions/s, 2 threads | {nat2[1]:,.0f} | |")
    if cg_rc is not None:
        print(f"| instructions per action, native loop (callgrind) | {cg_rc:,.0f} | "
              f"{cg_os if cg_os is not None else float('nan'):,.0f} |")
    print()
    print("| target (ratio in this run) | measured | goal | met |")
    print("|---|---:|---:|:-:|")

    def target(label: str, value: float | None, goal: str, ok: bool | None) -> None:
        shown = "n/a" if value is None else f"{value:.2f}"
        print(f"| {label} | {shown} | {goal} | {'n/a' if ok is None else ('yes' if ok else 'NO')} |")

    if nat_os:
        r = nat1[1] / nat_os[1]
        target("native actions/s: robotcore / OpenSpiel (1 core)", r, ">= 10", r >= 10)
        r = nat1[0] / nat_os[0]
        target("native games/s: robotcore / OpenSpiel (1 core)", r, "(context)", None)
    if step_os is not None:
        r = step_os / step_rc
        target("Python step: pyspiel / robotcore", r, ">= 3", r >= 3)
    r = step_rc / floor_step
    target("Python step: robotcore / two no-op calls", r, "<= 3", r <= 3)
    r = ns["robotcore clone()"] / ns["copy of the state's bytes: bytearray(raw)"]
    target("clone: robotcore / copy of the state's bytes", r, "<= 2", r <= 2)
    if with_os:
        r = ns["pyspiel clone()"] / ns["robotcore clone()"]
        target("clone: pyspiel / robotcore", r, ">= 5", r >= 5)
    r = nat2[1] / nat1[1]
    target("native: 2 threads / 1 thread", r, "(2 cores)", None)
    if cg_rc is not None and cg_os is not None:
        target("instructions per action: OpenSpiel / robotcore", cg_os / cg_rc, "(context)", None)
    _ = statistics  # imported for users extending the table


if __name__ == "__main__":
    main()
