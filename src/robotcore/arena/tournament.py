"""Tournaments: seat rotation over paired deals, local processes or Ray, live standings, resumable results.

Schedule. With ``k`` bots and ``n`` seats, a *deal* is one game seed played ``k`` times, rotation ``r`` putting
bot ``order[(r + s) mod k]`` in seat ``s``, for an order of the bots drawn for that deal: every bot sits in every
seat once per deal and the luck of the deal cancels (the board-game form of engine testers' swapped colours), and
over the deals every bot sits next to every other one; with more bots than seats and at most 720 ordered choices
of ``n`` bots, a deal is played once for each of them, so every pair meets in every deal. Game ``i`` is
deal ``i // L``, seating ``i % L``; the game count is rounded up to whole deals. A game is a pure function of the
configuration and its index (the deal seed and every bot's seed are derived from the tournament seed), so results
are identical whatever the backend, the number of workers and the order in which games finish; only the times
differ.

Results. Every finished game is appended at once to ``<out>/games.jsonl`` (its first line is the configuration):
an interrupted tournament started again with the same configuration and ``--out`` plays only the missing games,
and one started again with more games (an SPRT left undecided) plays only the new ones. At the end: ``games.json``
and ``games.csv`` (seeds, seats, scores, returns, places, moves, time per move), ``summary.json``, ``summary.csv``
and ``pairwise.csv``, and ``ratings.png`` (ratings with their intervals).

Statistics (``robotcore.arena.stats``): score share (the game's returns: the winners share 1.0) and win rate
with 95% intervals over deals (the deal is the independent unit: its rotations share a seed), mean official
score, time per move, and ratings: Bradley–Terry on every pair of bots in every game (full rank-breaking,
which estimates Plackett–Luce strengths consistently, handles shared places as half wins and does not depend
on the order of games, unlike online raters such as openskill), on the Elo scale, with 95% intervals from a
bootstrap over deals.

With ``sprt=(A, B)`` the deals are fed in order to an SPRT on A's score against B, a whole deal at a time (its
games are paired); the tournament stops as soon as it decides, and its results are the deals up to the deciding
one (the same whatever the backend). A solo game compares the bots on each deal by their scores (the statistics'
``comparable``).
"""

from __future__ import annotations

import contextlib
import csv
import itertools
import json
import math
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

import robotcore
from robotcore.arena import stats
from robotcore.arena.sprt import SPRT
from robotcore.bots.base import Bot, make_bot, number_option
from robotcore.core.rng import Rng
from robotcore.core.seeds import check_seed, derive_seed
from robotcore.errors import InvalidParameterError
from robotcore.tools.match import play_bots

#: a game record's times, the only part of it that is not a function of the configuration and the game's index
TIMES = ("ms_per_move", "max_ms", "over_budget")

#: 2: each deal's rotations of an order drawn for it (1: of the bots as listed)
FORMAT = 2


def lineups(num_bots: int, num_seats: int, order: Sequence[int] | None = None) -> list[list[int]]:
    """The seatings of one deal: with more bots than seats and at most 720 ordered choices of ``n`` different
    bots, every one of them (each bot meets each other one, in every seat); otherwise the ``k`` rotations of
    ``order`` (the bots as listed by default; a tournament draws one for each deal: ``deal_order``)."""
    k, n = num_bots, num_seats
    if k > n and math.perm(k, n) <= 720:
        return [list(p) for p in itertools.permutations(range(k), n)]
    ring = list(range(k)) if order is None else list(order)
    return [[ring[(r + s) % k] for s in range(n)] for r in range(k)]


def deal_order(num_bots: int, seed: int, deal: int) -> list[int]:
    """The order of the bots whose rotations a deal plays (when it plays rotations), drawn from the tournament's
    seed: over the deals every bot sits next to, and is in the same game as, every other one. Rotations of one
    fixed order kept the same neighbours in every game, and with more bots than 720 ordered choices (28 bots
    at a 3-seat game) most pairs of bots never met."""
    order = list(range(num_bots))
    Rng(derive_seed(seed, "order", deal)).shuffle(order)
    return order


def schedule(num_bots: int, num_seats: int, games: int, seed: int) -> list[dict[str, Any]]:
    """Game ``i``: deal ``i // L``, seating ``i % L`` of that deal's ``lineups`` (module docstring)."""
    per = len(lineups(num_bots, num_seats))
    deals = -(-games // per)
    jobs = []
    for d in range(deals):
        seatings = lineups(num_bots, num_seats, deal_order(num_bots, seed, d))
        jobs += [{"index": d * per + r, "deal": d, "rotation": r, "lineup": seatings[r]} for r in range(per)]
    return jobs


def _short(spec: str) -> str:
    """A bot's spec in the progress line: a built-in bot's name ("ismcts" of "ismcts:iterations=2000"), a user's
    bot's class ("Greedy1" of "examples.my_bots:Greedy1:tries=3", where the module alone was shown)."""
    parts = spec.split(":")
    return parts[1] if len(parts) > 1 and "." in parts[0] and "=" not in parts[1] else parts[0]


def play_game(config: dict[str, Any], job: dict[str, Any]) -> dict[str, Any]:
    """Play one scheduled game; its record (everything but the times is a function of config and job)."""
    game = robotcore.load_game(config["game"], **config["params"])
    seed = derive_seed(config["seed"], "deal", job["deal"])
    specs = config["bots"]
    labels = stats.bot_labels(specs)          # a bot given twice is told apart in the seats (random#0, random#1)
    bots: list[Bot] = []
    for seat, b in enumerate(job["lineup"]):
        bots.append(make_bot(specs[b], seed=derive_seed(config["seed"], "bot", job["index"], seat)))
    state = game.new_initial_state(seed)
    try:
        thinking = play_bots(state, bots, config.get("budget_ms"), [labels[b] for b in job["lineup"]])
    except Exception as exc:
        faulty = getattr(exc, "robotcore_seat", None)          # (play_bots names the seat whose bot raised)
        if config.get("forfeits") and isinstance(faulty, int):
            return _forfeited(job, seed, labels, state, faulty, exc)
        if hasattr(exc, "add_note"):                        # (Python 3.11+)
            exc.add_note(f"in game {job['index']} of the tournament (deal {job['deal']}, seed {seed})")
        raise
    outcome = state.outcome()
    assert outcome is not None
    return {
        "index": job["index"], "deal": job["deal"], "rotation": job["rotation"], "seed": seed,
        "bots": list(job["lineup"]), "seats": [labels[b] for b in job["lineup"]],
        "scores": list(outcome.scores), "places": list(outcome.places),
        "returns": state.returns(), "moves": thinking.moves,
        "ms_per_move": [round(1000 * t / m, 4) if m else 0.0 for t, m in zip(thinking.seconds, thinking.moves)],
        "max_ms": [round(1000 * t, 4) for t in thinking.longest], "over_budget": thinking.over_budget,
    }


def _forfeited(job: dict[str, Any], seed: int, labels: list[str], state: robotcore.State, seat: int,
               exc: BaseException) -> dict[str, Any]:
    """The record of a game the bot of ``seat`` lost by an error (an exception, an illegal answer), as engine
    testers score a crash: its seats placed last, the others sharing first place (returns 1.0 together); the
    scores as they stood; ``forfeit`` says who and why. Times are not kept (0.0)."""
    lineup = list(job["lineup"])
    faulty = lineup[seat]
    others = sum(1 for b in lineup if b != faulty)
    moves = [0] * len(lineup)
    for s, _action in state.history:
        moves[s] += 1
    return {
        "index": job["index"], "deal": job["deal"], "rotation": job["rotation"], "seed": seed,
        "bots": lineup, "seats": [labels[b] for b in lineup], "scores": state.scores(),
        "places": [1 if b == faulty else 0 for b in lineup],
        "returns": [0.0 if b == faulty else 1.0 / others for b in lineup], "moves": moves,
        "ms_per_move": [0.0] * len(lineup), "max_ms": [0.0] * len(lineup), "over_budget": [0] * len(lineup),
        "forfeit": {"seat": seat, "bot": labels[faulty], "move": state.move_number,
                    "error": f"{type(exc).__name__}: {exc}"[:500]},
    }


def _play_many(config: dict[str, Any], jobs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [play_game(config, job) for job in jobs]


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored in this process meanwhile (on the main thread; elsewhere nothing changes): a worker the
    pool starts then starts with it ignored (an ignored signal stays ignored across exec), so that Ctrl-C while
    a worker's interpreter is still starting, before ``_worker_init``, prints no traceback from it. The
    tournament itself hears a Ctrl-C at its next wait."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def _worker_init() -> None:
    """A local worker leaves Ctrl-C (SIGINT, sent to the whole foreground process group) to the tournament,
    which stops them: no traceback from each worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Tournament:
    """``Tournament(game, bots, games, seed, ...)``; ``run()`` returns the summary (and writes the files).

    ``workers`` > 1 runs games in spawned processes: a script that runs a tournament must do it under
    ``if __name__ == "__main__":`` (examples/tournament.py), and a user's bot class must be importable by
    ``module:Class`` from the workers.

    ``forfeits`` (default): a bot that raises, or answers an illegal move, loses that game (its seats last, the
    others sharing first place; the record's ``forfeit`` says who, when and why) and the tournament goes on, as
    engine testers score a crash. ``forfeits=False`` stops the tournament with the bot's error instead."""

    def __init__(self, game: str, bots: Sequence[str], games: int, seed: int = 0, *,
                 params: dict[str, Any] | None = None, budget_ms: float | None = None, out: str | Path | None = None,
                 workers: int = 1, backend: str = "local", address: str | None = None,
                 sprt: tuple[int | str, int | str] | None = None, elo0: float = 0.0, elo1: float = 50.0,
                 alpha: float = 0.05, beta: float = 0.05, progress: bool = False,
                 plot: bool = True, forfeits: bool = True) -> None:
        g = robotcore.load_game(game, **(params or {}))
        if len(bots) < 2:
            raise InvalidParameterError("a tournament needs at least two bots")
        for spec in bots:                # a bad name or option fails here, not in a worker mid-tournament
            make_bot(spec, seed=0, for_game=g)
        if isinstance(games, bool) or not isinstance(games, int) or games < 1:
            raise InvalidParameterError(f"games must be a positive int, got {games!r}")
        seed = check_seed(seed)
        if budget_ms is not None:
            number_option("budget_ms", budget_ms)
        if backend not in ("local", "ray"):
            raise InvalidParameterError(f"backend must be 'local' or 'ray', got {backend!r}")
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise InvalidParameterError(f"workers must be a positive int, got {workers!r}")
        if not isinstance(forfeits, bool):
            raise InvalidParameterError(f"forfeits must be True or False, got {forfeits!r}")
        self.sprt_pair: tuple[int, int] | None = None
        if sprt is not None:
            pair = tuple(self._bot_index(list(bots), x) for x in sprt)
            if len(pair) != 2 or pair[0] == pair[1]:
                raise InvalidParameterError(f"the SPRT pair must be two different bots of the tournament, got {sprt}")
            self.sprt_pair = (pair[0], pair[1])
            labels = stats.bot_labels(list(bots))
            sprt = (labels[pair[0]], labels[pair[1]])
        self.config: dict[str, Any] = {
            "format": FORMAT, "game": game, "params": g.plain_params(), "bots": list(bots), "games": games,
            "seed": int(seed), "budget_ms": budget_ms, "forfeits": bool(forfeits),
            "sprt": None if sprt is None or self.sprt_pair is None else {
                "a": sprt[0], "b": sprt[1], "a_index": self.sprt_pair[0], "b_index": self.sprt_pair[1],
                "elo0": elo0, "elo1": elo1, "alpha": alpha, "beta": beta},
        }
        self.num_players = g.num_players
        self.jobs = schedule(len(bots), g.num_players, games, int(seed))
        self.per_deal = len(lineups(len(bots), g.num_players))
        self.out = None if out is None else Path(out)
        self.workers = workers
        self.backend = backend
        self.address = address
        self.progress = progress
        self.plot = plot
        self.records: dict[int, dict[str, Any]] = {}
        self.sprt: SPRT | None = None
        if self.sprt_pair is not None:
            self.sprt = SPRT(elo0=elo0, elo1=elo1, alpha=alpha, beta=beta)
        self.stopped_at: int | None = None

    @staticmethod
    def _bot_index(bots: list[str], ref: int | str) -> int:
        """A bot of the tournament by position (an int), by its label in the results (``random#1`` for a spec
        given twice) or by spec (its first occurrence)."""
        if isinstance(ref, int) and not isinstance(ref, bool):
            if 0 <= ref < len(bots):
                return ref
        elif ref in (labels := stats.bot_labels(bots)):
            return labels.index(ref)
        elif ref in bots:
            return bots.index(ref)
        raise InvalidParameterError(f"the SPRT names {ref!r}, which is none of the bots {bots}")

    # -- results file ------------------------------------------------------------------------------------------

    def _load(self) -> None:
        assert self.out is not None
        path = self.out / "games.jsonl"
        if not path.exists():
            return
        lines = path.read_text(encoding="utf-8").splitlines()
        if not lines:
            return
        head = json.loads(lines[0])
        before = head.get("config")
        # the number of games may change: game i is the same in a longer or a shorter run (an undecided SPRT
        # goes on with more games); the first line then says the new number
        if not isinstance(before, dict) or {**before, "games": self.config["games"]} != self.config:
            raise InvalidParameterError(
                f"{path} holds another tournament ({before}); use another --out to start afresh")
        if before["games"] != self.config["games"]:
            lines[0] = json.dumps({"config": self.config})
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        scheduled = {j["index"] for j in self.jobs}
        for line in lines[1:]:
            try:
                rec = json.loads(line)
            except ValueError:
                continue                  # a line cut short by the interruption: that game is played again
            if int(rec["index"]) in scheduled:
                self.records[int(rec["index"])] = rec

    def _writer(self) -> Callable[[dict[str, Any]], None]:
        if self.out is None:
            return lambda rec: None
        self.out.mkdir(parents=True, exist_ok=True)
        path = self.out / "games.jsonl"
        if not path.exists() or path.stat().st_size == 0:
            path.write_text(json.dumps({"config": self.config}) + "\n", encoding="utf-8")
        else:
            with path.open("rb+") as f:   # drop a partial last line left by an interruption
                data = f.read()
                if not data.endswith(b"\n"):
                    f.truncate(data.rfind(b"\n") + 1)
        fh = path.open("a", encoding="utf-8")

        def write(rec: dict[str, Any]) -> None:
            fh.write(json.dumps(rec) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        self._fh = fh
        return write

    # -- running -----------------------------------------------------------------------------------------------

    def _batches(self, pending: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
        # one deal (all its rotations) per task: few tasks, and SPRT decisions come in index order anyway
        out: dict[int, list[dict[str, Any]]] = {}
        for job in pending:
            out.setdefault(job["deal"], []).append(job)
        return list(out.values())

    def _results(self, pending: list[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
        tasks = self._batches(pending)
        if self.backend == "ray":
            from robotcore.arena import ray_backend

            yield from ray_backend.run(self.config, tasks, self.address, self.workers)
            return
        if self.workers == 1:
            for t in tasks:
                yield _play_many(self.config, t)
            return
        pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_worker_init)
        live: set[Future[list[dict[str, Any]]]] = set()
        queue = list(reversed(tasks))
        finished = False
        try:
            while queue or live:
                while queue and len(live) < 2 * self.workers:
                    with _sigint_ignored():        # (a worker it starts inherits that: see the function)
                        live.add(pool.submit(_play_many, self.config, queue.pop()))
                done, live = wait(live, return_when=FIRST_COMPLETED)
                for f in done:
                    yield f.result()
            finished = True
        finally:
            for f in live:
                f.cancel()
            if finished:
                pool.shutdown()
            else:
                # interrupted (Ctrl-C, SIGTERM through the CLI, a decided SPRT, an error): the games in flight
                # are not waited for; what is written stays, and the same command resumes from it
                # (the pool's own processes: the executor has no public way to stop them, and its shutdown
                # waits for the games they are playing)
                workers = list((getattr(pool, "_processes", None) or {}).values())
                pool.shutdown(wait=False, cancel_futures=True)
                for process in workers:
                    process.terminate()
                for process in workers:
                    process.join(5.0)

    def run(self) -> dict[str, Any]:
        if self.out is not None:
            self._load()
        write = self._writer()
        t0 = time.perf_counter()
        pending = [j for j in self.jobs if j["index"] not in self.records]
        next_index = 0
        total = len(self.jobs)
        decided = self._feed_sprt(next_index)
        next_index = decided[1]
        if decided[0] is None and pending:
            results = self._results(pending)
            try:
                for batch in results:
                    for rec in batch:
                        self.records[rec["index"]] = rec
                        write(rec)
                        if "forfeit" in rec and self.progress:
                            f = rec["forfeit"]
                            print(f"\ngame {rec['index']}: {f['bot']} (seat {f['seat']}) forfeits at move "
                                  f"{f['move']}: {f['error']}", file=sys.stderr)
                    verdict, next_index = self._feed_sprt(next_index)
                    if self.progress:
                        self._show_progress(total, t0)
                    if verdict is not None:
                        break
            finally:
                close = getattr(results, "close", None)
                if close is not None:
                    close()
        if getattr(self, "_fh", None) is not None:
            self._fh.close()
        if self.progress:
            print(file=sys.stderr)
        return self.finish()

    def _feed_sprt(self, start: int) -> tuple[str | None, int]:
        """Feed the SPRT the deals from the one starting at game ``start`` on that are done, in order, a whole
        deal at a time (its games are paired: a stop inside one would leave the bots' seats unbalanced; in a
        solo game the deal is the comparison itself); (decision, the first game of the next deal)."""
        i = start
        if self.sprt is None or self.sprt_pair is None:
            return None, i
        a, b = self.sprt_pair
        per = self.per_deal
        while self.sprt.decision is None and i < len(self.jobs):
            deal = [self.records.get(j) for j in range(i, i + per)]
            if any(r is None for r in deal):
                break
            ranked = stats.comparable([r for r in deal if r is not None], self.num_players)
            scores = [s for s in (stats.pair_score(r, a, b) for r in ranked) if s is not None]
            if self.sprt.update_many(scores) is not None:
                self.stopped_at = i + per - 1
            i += per
        return self.sprt.decision, i

    def _show_progress(self, total: int, t0: float) -> None:
        done = len(self.records)
        width = 30
        filled = int(width * done / total)
        shares = stats.score_shares(list(self.records.values()), len(self.config["bots"]), self.num_players)
        standings = "  ".join(f"{_short(name)}[{i}] {s:.3f}" for i, (name, s)
                              in enumerate(zip(self.config["bots"], shares)))
        extra = ""
        if self.sprt is not None:
            extra = f"  SPRT llr {self.sprt.llr:+.2f} ({self.sprt.lower:.2f}, {self.sprt.upper:.2f})"
        print(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {time.perf_counter() - t0:6.1f}s  "
              f"{standings}{extra}", end="", file=sys.stderr, flush=True)

    def finish(self) -> dict[str, Any]:
        records = [self.records[i] for i in sorted(self.records)]
        if self.stopped_at is not None:
            records = [r for r in records if r["index"] <= self.stopped_at]
        summary = stats.summarise(self.config, records, self.num_players)
        summary["sprt"] = None if self.sprt is None else {**self.config["sprt"], **self.sprt.to_json(),
                                                          "stopped_at_game": self.stopped_at}
        summary["complete"] = self.stopped_at is not None or len(records) == len(self.jobs)
        #: the result files written (``write_outputs``)
        self.written = [] if self.out is None else write_outputs(self.out, records, summary, plot=self.plot)
        self.summary = summary
        self.games = records
        return summary


# -- outputs -----------------------------------------------------------------------------------------------------

GAME_COLUMNS = ["index", "deal", "rotation", "seed", "seat", "bot", "score", "place", "return", "moves",
                "ms_per_move", "max_ms", "over_budget", "forfeit"]


def game_rows(records: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """One CSV row per seat of every game."""
    for r in records:
        for seat, spec in enumerate(r["seats"]):
            yield {"index": r["index"], "deal": r["deal"], "rotation": r["rotation"], "seed": r["seed"],
                   "seat": seat, "bot": spec, "score": r["scores"][seat], "place": r["places"][seat],
                   "return": r["returns"][seat], "moves": r["moves"][seat], "ms_per_move": r["ms_per_move"][seat],
                   "max_ms": r["max_ms"][seat], "over_budget": r["over_budget"][seat],
                   # the error of the seat that lost the game by it
                   "forfeit": r["forfeit"]["error"] if r.get("forfeit", {}).get("seat") == seat else ""}


def write_outputs(out: Path, records: list[dict[str, Any]], summary: dict[str, Any], plot: bool = True) -> list[str]:
    """The result files in ``out``; returns the names of those written (``ratings.png`` needs matplotlib)."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "games.json").write_text(json.dumps(records, indent=1, allow_nan=False), encoding="utf-8")
    with (out / "games.csv").open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, GAME_COLUMNS)
        w.writeheader()
        w.writerows(game_rows(records))
    # JSON has no NaN nor infinity: a figure that one deal cannot give, or the missing bound of a bot that won
    # (lost) every comparison, is null
    plain = _finite_or_null(summary)
    (out / "summary.json").write_text(json.dumps(plain, indent=1, allow_nan=False), encoding="utf-8")
    with (out / "summary.csv").open("w", newline="", encoding="utf-8") as f:
        cols = list(plain["bots"][0].keys()) if plain["bots"] else []
        w = csv.DictWriter(f, cols)
        w.writeheader()
        for row in plain["bots"]:
            w.writerow({k: (json.dumps(v) if isinstance(v, list) else v) for k, v in row.items()})
    with (out / "pairwise.csv").open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, ["a", "b", "games", "a_wins", "draws", "b_wins", "a_score"])
        w.writeheader()
        w.writerows(plain["pairwise"])
    written = ["games.jsonl", "games.json", "games.csv", "summary.json", "summary.csv", "pairwise.csv"]
    if plot and stats.plot_ratings(summary, out / "ratings.png"):
        written.append("ratings.png")
    return written


def _finite_or_null(value: Any) -> Any:
    """``value`` with every NaN or infinite float replaced by None (JSON's null; an empty cell in CSV)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite_or_null(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite_or_null(v) for v in value]
    return value


def _ci(pair: list[float], digits: int) -> str:
    lo, hi = pair
    return "[n/a]" if math.isnan(lo) or math.isnan(hi) else f"[{lo:.{digits}f}, {hi:.{digits}f}]"


def format_table(summary: dict[str, Any]) -> str:
    lines = [f"{summary['game']}: {summary['games']} games over {summary['deals']} deals, "
             f"{summary['players']} seats (chance score share {summary['chance']:.3f})"]
    # the bots' labels whole (two specs may differ only at their end: threads=1, threads=2)
    width = max([28, *(len(b["bot"]) for b in summary["bots"])])
    head = (f"{'bot':{width}s} {'games':>5s} {'score share [95%]':>22s} {'win rate [95%]':>22s} {'mean score':>10s} "
            f"{'rating [95%]':>20s} {'ms/move':>8s}")
    lines.append(head)
    for b in summary["bots"]:
        lines.append(
            f"{b['bot']:{width}s} {b['games']:>5d} {b['score_share']:>7.3f} {_ci(b['score_share_ci'], 3):>14s} "
            f"{b['win_rate']:>7.3f} {_ci(b['win_rate_ci'], 3):>14s} {b['mean_score']:>10.2f} {b['rating']:>6.0f} "
            f"{_ci(b['rating_ci'], 0):>13s} {b['ms_per_move']:>8.2f}")
    if summary.get("pairwise"):
        lines.append("pairwise (games where both played; a bot's best seat against the other's): A vs B, "
                     "A's wins-draws-losses, A's score")
        for p in summary["pairwise"]:
            lines.append(f"  {p['a']} vs {p['b']}: {p['a_wins']}-{p['draws']}-{p['b_wins']}, {p['a_score']:.3f}")
    for b in summary["bots"]:
        if b.get("forfeits"):
            lines.append(f"forfeits: {b['bot']} lost {b['forfeits']} game(s) by an error (games.json: 'forfeit')")
        if b.get("over_budget"):
            lines.append(f"over budget: {b['bot']} thought past the budget in {b['over_budget']} of its "
                         f"{b['moves']} moves (longest {b['max_ms']:.1f} ms)")
    if summary["deals"] < 2:
        lines.append("intervals: n/a (they are over deals: play 2 deals or more)")
    lines.append(f"ratings: {summary['rating_model']}")
    s = summary.get("sprt")
    if s:
        lines.append(f"SPRT {s['a']} vs {s['b']} (elo0 {s['elo0']}, elo1 {s['elo1']}, alpha {s['alpha']}, "
                     f"beta {s['beta']}): W {s['wins']:.0f} D {s['draws']:.0f} L {s['losses']:.0f}, "
                     f"LLR {s['llr']:.2f}, bounds ({s['lower']:.2f}, {s['upper']:.2f}): "
                     + ({"H1": f"{s['a']} is stronger", "H0": f"{s['a']} is not stronger by elo1"}
                        .get(s["decision"], "undecided")))
    return "\n".join(lines)
