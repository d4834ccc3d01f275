"""Print the comparison table: a robotcore game next to the Python call floor and to its closest OpenSpiel game,
measured in one run.

    python bench/table.py                          # Robotrick vs oh_hell(players=3,num_tricks_fixed=17)
    python bench/table.py --game nicodemus --no-callgrind
    python bench/table.py --all                    # every registered game, one table each

Method. The machines are shared and noisy, and a wall-clock minimum of short back-to-back windows is what made
earlier tables flip their verdicts (a 3 ms window dodges another tenant more often than a 20 ms one). So:
- every figure is **thread CPU time** (``time.thread_time``): another process's load does not count;
- robotcore and peer figures are measured in **interleaved blocks** (each round runs every probe once, in a
  rotated order), each block at least ``--block-ms`` long, and the table shows the **median over blocks with its
  spread** (min-max); a ratio is a ratio of two medians of the same run;
- **no figure is derived by subtracting two timings**: ``apply`` is shown as ``clone().apply(a)`` next to
  ``clone()``, as measured;
- the load average is printed, and a run taken under load (load > 0.7 per core) is flagged;
- instruction counts from ``valgrind --tool=callgrind`` are the noise-free column (the same for the same binary
  and inputs whatever the load).

Units that compare. Native loops are shown as games/s, decisions/s and instructions per game and per decision,
side by side: robotcore counts decisions (actions applied through its API); OpenSpiel's action count includes
chance nodes, so its decisions are counted separately. The first deal is inside every timed native loop (for
both engines a new game starts with its set-up). For trick-taking games the shared unit is the card played
(Robotrick: 144 a game, Droco's included; oh_hell(17 tricks): 51). Each game is compared with the closest
OpenSpiel game by structure where one exists (the caveat is printed; ``shared/research/peers.md`` 1.2).
The 2-thread native rate needs wall-clock time (CPU time does not show parallelism): it is marked as such.
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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import robotcore  # noqa: E402
from robotcore.core import batch  # noqa: E402
from robotcore.core._noop import Noop  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probes import midgame  # noqa: E402


@dataclass(frozen=True)
class Peer:
    game: str                     # pyspiel.load_game string
    caveat: str
    card_plays: int = 0           # cards played per game, when both are trick-taking games (the shared unit)


OH_HELL = "oh_hell(players=3,num_tricks_fixed=17)"
#: The closest OpenSpiel game of each robotcore game (shared/research/peers.md, 1.2).
PEERS: dict[str, Peer] = {
    "robotrick": Peer(OH_HELL, "both 52-card 3-player trick-takers; Robotrick adds an automaton, a pass and 3 deals",
                      card_plays=51),
    "scrapyard": Peer("yacht", "no drafting or engine-building game in OpenSpiel; yacht is its closest dice game"),
    "nicodemus": Peer("go_fish", "no 2-player tableau game in OpenSpiel; go_fish is a 2-player set-collection card game"),
    "sparks": Peer("yacht", "no dice-drafting game in OpenSpiel; yacht is its closest dice game"),
    "smartphone": Peer("go_fish", "no market/set-building game in OpenSpiel; go_fish collects sets of cards"),
}
#: Cards played per game in robotcore's trick-taking games (the unit shared with the peer).
CARD_PLAYS = {"robotrick": lambda g: 48 * int(g.params["rounds"])}


# -- measurement ------------------------------------------------------------------------------------------------

Probe = Callable[[], tuple[float, float]]      # one block: (units done, thread CPU seconds)


def call_probe(stmt: str, env: dict[str, Any], block_s: float) -> Probe:
    """A per-call probe: ``stmt`` repeated for one block of thread CPU time."""
    timer = timeit.Timer(stmt, globals=env, timer=time.thread_time)
    number = 1
    while timer.timeit(number) < block_s / 4:
        number *= 2
    number *= 4

    def run() -> tuple[float, float]:
        return float(number), timer.timeit(number)

    return run


def loop_probe(body: Callable[[], float], block_s: float) -> Probe:
    """``body()`` (returning the units it did) repeated until one block of thread CPU time has passed."""
    def run() -> tuple[float, float]:
        units = 0.0
        t0 = time.thread_time()
        while True:
            units += body()
            spent = time.thread_time() - t0
            if spent >= block_s:
                return units, spent

    return run


def interleaved(probes: dict[str, Probe], rounds: int) -> dict[str, list[float]]:
    """Seconds per unit of every block, the probes interleaved (order rotated each round)."""
    out: dict[str, list[float]] = {k: [] for k in probes}
    names = list(probes)
    for r in range(rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            units, seconds = probes[name]()
            out[name].append(seconds / units)
    return out


@dataclass
class Figure:
    blocks: list[float]           # seconds per unit, one per block

    @property
    def median(self) -> float:
        return statistics.median(self.blocks)

    def ns(self) -> str:
        return f"{self.median * 1e9:,.0f} ({min(self.blocks) * 1e9:,.0f}–{max(self.blocks) * 1e9:,.0f})"

    def rate(self, per: float = 1.0) -> str:
        """Units per second (times ``per``) as median and spread."""
        return (f"{per / self.median:,.0f} ({per / max(self.blocks):,.0f}–{per / min(self.blocks):,.0f})")


# -- robotcore probes -------------------------------------------------------------------------------------------

def recorded_games(game: robotcore.Game, games: int) -> list[list[tuple[int, int]]]:
    out = []
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        moves = []
        while not state.is_terminal:
            seat = state.current_player
            a = rng.choice(state.legal_actions(seat))
            state.apply(a, seat)
            moves.append((seat, a))
        out.append(moves)
    return out


def replay_steps(game: robotcore.Game, recorded: list[list[tuple[int, int]]]) -> float:
    """The Python step: ``legal_actions()`` then ``apply(a)`` over the first 10 recorded games; the steps done."""
    steps = 0
    for seed, moves in enumerate(recorded[:10]):
        s = game.new_initial_state(seed)
        for _seat, a in moves:          # recorded with the current player: the no-argument calls apply
            s.legal_actions()
            s.apply(a)
        steps += len(moves)
    return float(steps)


def floor_steps(game: robotcore.Game, recorded: list[list[tuple[int, int]]], noop: Noop) -> float:
    """The same loop with two no-op calls in place of ``legal_actions()`` and ``apply(a)``."""
    steps = 0
    for seed, moves in enumerate(recorded[:10]):
        game.new_initial_state(seed)
        for _seat, a in moves:
            noop.m()
            noop.m1(a)
        steps += len(moves)
    return float(steps)


def rc_probes(game: robotcore.Game, block_s: float, env: dict[str, Any]) -> dict[str, Probe]:
    recorded = recorded_games(game, 40)
    noop = Noop()
    probes: dict[str, Probe] = {}
    for label, stmt in {
        "floor: no-op method n.m()": "n.m()",
        "floor: no-op method with an argument n.m1(a)": "n.m1(a)",
        "copy of the state's bytes: bytearray(raw)": "bytearray(raw)",
        "rc clone()": "s.clone()",
        "rc legal_actions()": "s.legal_actions()",
        "rc legal_mask()": "s.legal_mask()",
        "rc clone().apply(a)": "s.clone().apply(a)",
        "rc current_player": "s.current_player",
        "rc resample_hidden(seat)": "s.resample_hidden(seat, 1)",
        "rc view(seat)": "s.view(seat)",
    }.items():
        probes[label] = call_probe(stmt, env, block_s)

    def replay() -> float:
        return replay_steps(game, recorded)

    def floor() -> float:
        return floor_steps(game, recorded, noop)

    rng = random.Random(12345)
    counter = [0]

    def python_game() -> float:
        counter[0] += 1
        s = game.new_initial_state(counter[0])
        while not s.is_terminal:
            la = s.legal_actions()
            s.apply(la[rng.randrange(len(la))])
        return 1.0

    seeds = [0]

    def native_games() -> float:
        rows = 2000
        states = game.new_batch(np.arange(seeds[0], seeds[0] + rows, dtype=np.uint64))   # the first deal: timed
        seeds[0] += rows
        batch.random_playouts(game, states, seed=seeds[0])
        return float(rows)

    probes["rc step: legal_actions + apply, replayed games"] = loop_probe(replay, block_s)
    probes["floor step: the same loop with two no-op calls"] = loop_probe(floor, block_s)
    probes["rc Python-driven random game"] = loop_probe(python_game, block_s)
    probes["rc native game (first deal included), 1 thread"] = loop_probe(native_games, block_s)
    if game.core.native_resample:
        from robotcore.bots import _search

        def native_draws() -> float:       # what search pays per determinisation: one prepare per 200 draws
            _search.native_draws(env["s"], env["seat"], 200, seed=1)
            return 200.0

        probes["rc native resample draw (EngineSpec.resample_draw)"] = loop_probe(native_draws, block_s)
    return probes


def rc_decisions_per_game(game: robotcore.Game) -> float:
    states = game.new_batch(np.arange(5000, dtype=np.uint64))
    return float(batch.random_playouts(game, states, seed=3).mean())


def rc_native_two_threads(game: robotcore.Game, rounds: int) -> list[float]:
    """Wall-clock seconds per game on 2 threads (CPU time cannot show parallelism)."""
    out = []
    for r in range(rounds):
        states = game.new_batch(np.arange(20000, dtype=np.uint64) + r * 20000)
        t0 = time.perf_counter()
        batch.random_playouts(game, states, seed=r, threads=2)
        out.append((time.perf_counter() - t0) / 20000)
    return out


# -- OpenSpiel probes -------------------------------------------------------------------------------------------

def os_available() -> bool:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return False
    return True


def os_counts(peer: Peer, games: int = 60) -> tuple[float, float]:
    """Mean actions (chance included) and decisions per game of the peer, by random play."""
    import pyspiel

    game = pyspiel.load_game(peer.game)
    rng = random.Random(7)
    actions = decisions = 0
    for _ in range(games):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes, probs = zip(*s.chance_outcomes())
                s.apply_action(rng.choices(outcomes, probs)[0])
            else:
                decisions += 1
                s.apply_action(rng.choice(s.legal_actions()))
            actions += 1
    return actions / games, decisions / games


def os_probes(peer: Peer, block_s: float, env: dict[str, Any]) -> dict[str, Probe]:
    import pyspiel

    game = pyspiel.load_game(peer.game)
    rng = random.Random(7)
    s = game.new_initial_state()
    decisions = 0
    while s.is_chance_node() or decisions < 6:
        if not s.is_chance_node():
            decisions += 1
        outcomes = [o for o, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()
        s.apply_action(rng.choice(outcomes))
    env.update(S=s, A=s.legal_actions()[0])
    probes = {
        "os clone()": call_probe("S.clone()", env, block_s),
        "os legal_actions()": call_probe("S.legal_actions()", env, block_s),
        "os legal_actions_mask()": call_probe("S.legal_actions_mask()", env, block_s),
        "os clone().apply_action(a)": call_probe("S.clone().apply_action(A)", env, block_s),
        "os current_player()": call_probe("S.current_player()", env, block_s),
    }
    recorded = []
    for seed in range(10):
        r = random.Random(seed)
        t = game.new_initial_state()
        moves = []
        while not t.is_terminal():
            if t.is_chance_node():
                outcomes, probs = zip(*t.chance_outcomes())
                a = r.choices(outcomes, probs)[0]
            else:
                a = r.choice(t.legal_actions())
            t.apply_action(a)
            moves.append(a)
        recorded.append(moves)

    def replay() -> float:
        steps = 0
        for moves in recorded:
            t = game.new_initial_state()
            for a in moves:
                t.legal_actions()
                t.apply_action(a)
            steps += len(moves)
        return float(steps)

    prng = random.Random(12345)

    def python_game() -> float:
        t = game.new_initial_state()
        while not t.is_terminal():
            if t.is_chance_node():
                outcomes, probs = zip(*t.chance_outcomes())
                t.apply_action(prng.choices(outcomes, probs)[0])
            else:
                la = t.legal_actions()
                t.apply_action(la[prng.randrange(len(la))])
        return 1.0

    bots = [pyspiel.make_uniform_random_bot(p, p) for p in range(game.num_players())]
    seed = [0]

    def native_games() -> float:
        for _ in range(20):
            seed[0] += 1
            pyspiel.evaluate_bots(game.new_initial_state(), bots, seed[0])
        return 20.0

    probes["os step: legal_actions + apply_action, replayed games (chance included)"] = loop_probe(replay, block_s)
    probes["os Python-driven random game"] = loop_probe(python_game, block_s)
    probes["os native game (evaluate_bots), 1 thread"] = loop_probe(native_games, block_s)
    return probes


# -- callgrind --------------------------------------------------------------------------------------------------

CG_RC = """
import sys, numpy as np, robotcore
from robotcore.core import batch
g = robotcore.load_game(sys.argv[1])
seeds = np.arange(int(sys.argv[2]), dtype=np.uint64)
a = g.new_batch(seeds)
print(int(batch.random_playouts(g, a, 1).sum()))
"""

# The Python step and its floor, the very loops the timed probes run, each counted inside ``_noop.collect``.
CG_STEP = """
import sys
sys.path.insert(0, sys.argv[3])
import robotcore, table
from robotcore.core._noop import Noop, collect
game = robotcore.load_game(sys.argv[1])
recorded, noop = table.recorded_games(game, 10), Noop()
if sys.argv[2] == "step":
    def run(): return table.replay_steps(game, recorded)
else:
    def run(): return table.floor_steps(game, recorded, noop)
run(); run()                        # the same warm-up for both: the interpreter specialises its instructions
print(int(collect(run)))
"""

CG_OS = """
import sys, pyspiel
game = pyspiel.load_game(sys.argv[1])
bots = [pyspiel.make_uniform_random_bot(p, p) for p in range(game.num_players())]
for seed in range(int(sys.argv[2])):
    pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
print(int(sys.argv[2]))
"""


# The functions whose instructions are counted. Each pattern must match one function of a call path: a toggle
# flips collection at each entry of a matching function, so two nested matches switch it off again inside. That
# is how "*new_states*" came to count nothing of ``new_states`` (its Python wrapper ``__pyx_pw_`` and, since GCC
# split it out, its body ``__pyx_pf_``: the first deal of every game and the batch's zeroing, about 15 of
# Robotrick's instructions a decision, were left out). The wrappers are the outermost: their bodies are inside.
CG_RC_TOGGLES = ["__pyx_pw_*5batch_*new_states", "*5batch__playouts*"]
CG_STEP_TOGGLES = ["__pyx_pw_*5_noop_*collect"]


def callgrind_total(script: str, toggles: list[str], args: list[str]) -> tuple[int, int] | None:
    """(instructions collected inside the toggled functions, the number the script prints)."""
    if shutil.which("valgrind") is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "probe.py")
        with open(path, "w") as f:
            f.write(textwrap.dedent(script))
        out = os.path.join(tmp, "cg.out")
        proc = subprocess.run(
            ["valgrind", "--tool=callgrind", *(f"--toggle-collect={t}" for t in toggles),
             f"--callgrind-out-file={out}", sys.executable, path, *args],
            capture_output=True, text=True,
        )
        if proc.returncode != 0:
            return None
        printed = int(proc.stdout.strip().splitlines()[-1])
        for line in proc.stderr.splitlines():
            if "Collected :" in line:
                return int(line.split(":")[-1].strip()), printed
    return None


# -- the table --------------------------------------------------------------------------------------------------

def table(name: str, block_ms: float, rounds: int, with_os: bool, with_cg: bool) -> None:
    game = robotcore.load_game(name)
    peer = PEERS.get(name)
    with_os = with_os and peer is not None
    block_s = block_ms / 1000
    state, action = midgame(game)
    env: dict[str, Any] = {"s": state, "a": action, "seat": state.current_player, "n": Noop(),
                           "raw": state.state_bytes(), "bytearray": bytearray}
    probes = rc_probes(game, block_s, env)
    if with_os:
        assert peer is not None
        probes.update(os_probes(peer, block_s, env))
    load_before = os.getloadavg()[0]
    fig = {k: Figure(v) for k, v in interleaved(probes, rounds).items()}
    two = Figure(rc_native_two_threads(game, 3))
    load = max(load_before, os.getloadavg()[0])
    rc_decisions = rc_decisions_per_game(game)
    os_actions, os_decisions = os_counts(peer) if with_os and peer else (float("nan"), float("nan"))
    cg_rc = cg_os = cg_step = cg_floor = None
    if with_cg:
        cg_rc = callgrind_total(CG_RC, CG_RC_TOGGLES, [name, "500"])
        here = os.path.dirname(os.path.abspath(__file__))
        cg_step = callgrind_total(CG_STEP, CG_STEP_TOGGLES, [name, "step", here])
        cg_floor = callgrind_total(CG_STEP, CG_STEP_TOGGLES, [name, "floor", here])
        if with_os and peer:
            cg_os = callgrind_total(CG_OS, ["*EvaluateBots*"], [peer.game, "100"])

    cores = os.cpu_count() or 1
    print(f"## {game.title}: state {game.state_size} bytes, {rc_decisions:.1f} decisions a game (random play)")
    if with_os and peer:
        print(f"Peer: OpenSpiel `{peer.game}`, {os_actions:.1f} actions a game of which {os_decisions:.1f} decisions "
              f"(the rest chance). Caveat: {peer.caveat}.")
    print(f"{time.strftime('%Y-%m-%d %H:%M')}, Python {sys.version.split()[0]}, {cores} cores, load {load:.2f}"
          + ("  **UNDER LOAD: CPU-time figures hold, the 2-thread wall-clock rate does not**"
             if load > 0.7 * cores else "")
          + f"; {rounds} interleaved blocks of {block_ms:.0f} ms CPU, median (min–max)")
    print()
    print("| per call, ns of thread CPU | robotcore | pyspiel |")
    print("|---|---:|---:|")
    pairs = [("clone()", "rc clone()", "os clone()"),
             ("legal_actions(), repeated on one state (ours: its mask computed once)", "rc legal_actions()",
              "os legal_actions()"),
             ("legal mask, repeated on one state (ours: its mask computed once)", "rc legal_mask()",
              "os legal_actions_mask()"),
             ("clone().apply(a)", "rc clone().apply(a)", "os clone().apply_action(a)"),
             ("current player", "rc current_player", "os current_player()"),
             ("resample_hidden(seat, seed)", "rc resample_hidden(seat)", None),
             ("view(seat): what the seat sees, as JSON values (the service's answers carry one)", "rc view(seat)",
              None),
             ("native resample draw (search's determinisation)",
              "rc native resample draw (EngineSpec.resample_draw)", None),
             ("step: legal_actions + apply, replayed games", "rc step: legal_actions + apply, replayed games",
              "os step: legal_actions + apply_action, replayed games (chance included)"),
             ("floor step: the same loop with two no-op calls", "floor step: the same loop with two no-op calls",
              None)]
    for label, a, b in pairs:
        if a in fig:
            print(f"| {label} | {fig[a].ns()} | {fig[b].ns() if b and b in fig else ''} |")
    for label in ("floor: no-op method n.m()", "floor: no-op method with an argument n.m1(a)",
                  "copy of the state's bytes: bytearray(raw)"):
        print(f"| {label} | {fig[label].ns()} | |")
    print()
    rc_nat, os_nat = fig["rc native game (first deal included), 1 thread"], fig.get(
        "os native game (evaluate_bots), 1 thread")
    rc_py, os_py = fig["rc Python-driven random game"], fig.get("os Python-driven random game")
    print("| rates (per CPU second) | robotcore | OpenSpiel |")
    print("|---|---:|---:|")
    print(f"| Python-driven random games/s | {rc_py.rate()} | {os_py.rate() if os_py else ''} |")
    print(f"| native games/s, 1 thread | {rc_nat.rate()} | {os_nat.rate() if os_nat else ''} |")
    print(f"| native decisions/s, 1 thread | {rc_nat.rate(rc_decisions)} | "
          f"{os_nat.rate(os_decisions) if os_nat else ''} |")
    if os_nat:
        print(f"| native actions/s incl. chance, 1 thread | | {os_nat.rate(os_actions)} |")
    plays = CARD_PLAYS.get(name)
    if plays and peer and peer.card_plays and os_nat:
        ours = plays(game)
        print(f"| native cards played/s, 1 thread ({ours} a game / {peer.card_plays} a game) | "
              f"{rc_nat.rate(ours)} | {os_nat.rate(peer.card_plays)} |")
    print(f"| native games/s, 2 threads (wall clock) | {two.rate()} | |")
    if cg_rc:
        ins, decisions = cg_rc
        games = 500
        line = f"| instructions per game / per decision (callgrind) | {ins / games:,.0f} / {ins / decisions:,.0f} | "
        if cg_os:
            ins_os, games_os = cg_os
            line += f"{ins_os / games_os:,.0f} / {ins_os / games_os / os_decisions:,.0f} |"
        else:
            line += " |"
        print(line)
        if plays and peer and peer.card_plays and cg_os:
            print(f"| instructions per card played (callgrind) | {ins / games / plays(game):,.0f} | "
                  f"{cg_os[0] / cg_os[1] / peer.card_plays:,.0f} |")
    print()
    print("| target (ratio of medians in this run) | measured | goal | met |")
    print("|---|---:|---:|:-:|")

    def target(label: str, value: float | None, goal: str, ok: bool | None) -> None:
        shown = "n/a" if value is None else f"{value:.2f}"
        print(f"| {label} | {shown} | {goal} | {'' if ok is None else ('yes' if ok else 'NO')} |")

    step = fig["rc step: legal_actions + apply, replayed games"].median
    floor = fig["floor step: the same loop with two no-op calls"].median
    target("Python step: robotcore / two no-op calls", step / floor, "<= 3", step / floor <= 3)
    if cg_step and cg_floor:
        r = (cg_step[0] / cg_step[1]) / (cg_floor[0] / cg_floor[1])
        target(f"Python step, instructions (callgrind): {cg_step[0] / cg_step[1]:,.0f} / "
               f"{cg_floor[0] / cg_floor[1]:,.0f} a step", r, "(<= 3 in time)", None)
    os_step = fig.get("os step: legal_actions + apply_action, replayed games (chance included)")
    if os_step:
        target("Python step: pyspiel / robotcore", os_step.median / step, ">= 3", os_step.median / step >= 3)
    clone = fig["rc clone()"].median / fig["copy of the state's bytes: bytearray(raw)"].median
    target("clone: robotcore / copy of the state's bytes", clone, "<= 2", clone <= 2)
    if "os clone()" in fig:
        r = fig["os clone()"].median / fig["rc clone()"].median
        target("clone: pyspiel / robotcore", r, ">= 5", r >= 5)
    resample = fig["rc resample_hidden(seat)"].median / rc_nat.median
    target("resample_hidden / one native random game", resample, "<= 0.5", resample <= 0.5)
    draw = fig.get("rc native resample draw (EngineSpec.resample_draw)")
    if draw:
        r = draw.median / rc_nat.median
        target("native resample draw / one native random game", r, "<= 0.5", r <= 0.5)
    if os_nat:
        r = (rc_decisions / rc_nat.median) / (os_decisions / os_nat.median)
        target("native decisions/s: robotcore / OpenSpiel", r, "(context)", None)
        r = os_nat.median / rc_nat.median
        target("native games/s: robotcore / OpenSpiel", r, "(context)", None)
    if cg_rc:
        target("instructions per decision", cg_rc[0] / cg_rc[1], "(see issue 14)", None)
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="robotrick", choices=robotcore.list_games())
    parser.add_argument("--all", action="store_true", help="every registered game")
    parser.add_argument("--no-callgrind", action="store_true")
    parser.add_argument("--no-openspiel", action="store_true")
    parser.add_argument("--block-ms", type=float, default=40.0, help="CPU time of one block (default 40)")
    parser.add_argument("--rounds", type=int, default=7, help="interleaved blocks per figure (default 7)")
    args = parser.parse_args()
    with_os = os_available() and not args.no_openspiel
    for name in robotcore.list_games() if args.all else [args.game]:
        table(name, args.block_ms, args.rounds, with_os, not args.no_callgrind)


if __name__ == "__main__":
    main()
