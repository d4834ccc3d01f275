"""The ``robotcore`` command: list games, play and print a match, write playthroughs, simulate, serve."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import robotcore
from robotcore.core.seeds import derive_seed
from robotcore.registry import ALL_GAMES


def _json_object(text: str) -> dict[str, object]:
    """``--params``: a JSON object (argparse answers anything else with a usage error, not a traceback)."""
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not valid JSON ({exc}): {text!r}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError(f"must be a JSON object such as '{{\"hangars\": 4}}', got {text!r}")
    return value


def _bounded_int(low: int, high: int | None = None) -> Callable[[str], int]:
    """An integer option within its range (argparse answers anything else with a usage error)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"must be in [{low}, {high}], got {value}" if high is not None
                                             else f"must be at least {low}, got {value}")
        return value
    return parse


def _cmd_list(args: argparse.Namespace) -> int:
    """The README's table of games, from the registry: name, title, seed number, seats, status, rules."""
    from robotcore.registry import GAMES, game_class

    rows = [("name", "title", "seed", "players", "status", "rules")]
    for name, status in ALL_GAMES.items():
        entry = GAMES.get(name)
        if entry is None:
            rows.append((name, "", "", "", status, ""))
            continue
        cls = game_class(name)
        spec = next((p for p in cls.param_specs if p.name == "players"), None)
        players = str(robotcore.load_game(name).num_players)
        if spec is not None and spec.min is not None and spec.max is not None and spec.min != spec.max:
            players = f"{spec.min}-{spec.max} (default {spec.default})"
        rules = Path(importlib.import_module(entry.module).__file__ or "").parent / "RULES.md"
        rows.append((name, entry.title, entry.seed, players, status, str(rules)))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[-1])
    return 0


def _seated(name: str, given: Sequence[str],
            params: dict[str, Any]) -> tuple[robotcore.Game, list[str], dict[str, Any]]:
    """The game and a bot per seat from ``--bots`` (one spec per argument, or several in one, comma-separated):
    one bot (or none: random) plays every seat; several also set the number of players of a game that has
    that parameter, when ``--params`` leaves it out, as the service's seats do (``params_for_seats``)."""
    from robotcore.bots import split_bot_specs

    bots = split_bot_specs(list(given)) or ["random"]
    if len(bots) > 1:
        params = robotcore.registry.params_for_seats(name, params, len(bots))
    game = robotcore.load_game(name, **params)
    if len(bots) == 1:
        bots = bots * game.num_players
    if len(bots) != game.num_players:
        raise robotcore.InvalidParameterError(
            f"{game.title} has {game.num_players} seats: give one bot (for every seat) or {game.num_players} "
            f"bots, got {len(bots)}")
    return game, bots, params


def _cmd_play(args: argparse.Namespace) -> int:
    from robotcore.bots import make_bot
    from robotcore.tools.match import play_bots

    try:
        game, bots, _ = _seated(args.game, args.bots, args.params)
    except robotcore.InvalidParameterError as exc:
        print(f"robotcore play: error: {exc}", file=sys.stderr)
        return 2
    players = []
    for i, spec in enumerate(bots):
        try:
            players.append(make_bot(spec, seed=derive_seed(args.seed, "bot", i), for_game=game))
        except robotcore.InvalidParameterError as exc:
            print(f"robotcore play: error: {exc}", file=sys.stderr)
            return 2
    state = game.new_initial_state(args.seed)
    print(f"{game.title}, seed {args.seed}, seats: {', '.join(f'{i}={b}' for i, b in enumerate(bots))}")

    def show(seat: int, action: int) -> None:
        if not args.quiet:
            print(f"  seat {seat}: {game.action_to_str(action)}")

    play_bots(state, players, names=bots, on_move=show)     # (the tournament's loop: reset, observe)
    print(state)
    outcome = state.outcome()
    assert outcome is not None
    if game.num_players == 1:                   # a solo game is won or lost (a lost one has no winner)
        print(f"final score {outcome.scores[0]}; {'won' if outcome.winners else 'lost'}")
    else:
        print(f"final scores {list(outcome.scores)}; winner(s): {', '.join(map(str, outcome.winners))}"
              + (" (shared)" if outcome.shared else ""))
    return 0


def _cmd_simulate(args: argparse.Namespace) -> int:
    from robotcore.tools.match import simulate

    try:
        _, bots, params = _seated(args.game, args.bots, args.params)
    except robotcore.InvalidParameterError as exc:
        print(f"robotcore simulate: error: {exc}", file=sys.stderr)
        return 2
    report = simulate(args.game, bots, args.games, args.seed, **params)
    print(json.dumps(report, indent=1))
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    try:
        from robotcore_api.app import create_app  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError:
        print("the service needs its extra: pip install 'robotcore[service]'", file=sys.stderr)
        return 2
    app = create_app(database_url=args.database)
    app.run(host=args.host, port=args.port, debug=args.debug)
    return 0


def _cmd_tournament(args: argparse.Namespace) -> int:
    from robotcore.arena.tournament import Tournament, format_table
    from robotcore.bots import split_bot_specs

    bots = split_bot_specs(args.bots)
    # an option that would do nothing is refused (it was ignored without a word)
    if args.address is not None and args.backend != "ray":
        raise robotcore.InvalidParameterError("--address is a Ray cluster's: it needs --backend ray")
    tests = {k: v for k, v in (("elo0", args.elo0), ("elo1", args.elo1), ("alpha", args.alpha),
                               ("beta", args.beta)) if v is not None}
    if tests and not args.sprt:
        raise robotcore.InvalidParameterError(f"the SPRT's options (--{', --'.join(tests)}) need --sprt A B")
    # --sprt names a bot by position (0-based), by its label in the results or by its spec; Tournament checks it
    sprt = None if not args.sprt else (_bot_ref(args.sprt[0]), _bot_ref(args.sprt[1]))
    t = Tournament(args.game, bots, args.games, args.seed, params=args.params,
                   budget_ms=args.budget_ms, out=args.out, workers=args.workers, backend=args.backend,
                   address=args.address, sprt=sprt, progress=not args.quiet, forfeits=args.on_error == "forfeit",
                   **tests)
    # a SIGTERM stops it as Ctrl-C does (its workers stopped, what is written kept for a resume), not killed
    # with its workers left running; the handler is the process's own again afterwards (main() may be called
    # by a program, on its main thread only: elsewhere signals cannot be handled)
    on_main = threading.current_thread() is threading.main_thread()
    before = signal.signal(signal.SIGTERM, _interrupt) if on_main else None
    try:
        summary = t.run()
    finally:
        if on_main:
            signal.signal(signal.SIGTERM, before)
    print(format_table(summary))
    if args.out:
        folder = os.path.join(args.out, "")          # (one slash, given "results" or "results/")
        print(f"results in {folder} ({', '.join(t.written)})"
              + ("" if "ratings.png" in t.written else
                 "; no ratings.png: the plot needs matplotlib (pip install \"robotcore[arena]\")"))
    return 0


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _bot_ref(ref: str) -> int | str:
    return int(ref) if ref.isdecimal() else ref


def main(argv: Sequence[str] | None = None) -> int:
    from robotcore.bots import BOTS

    parser = argparse.ArgumentParser(prog="robotcore", description="robotcore games from the command line")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("list", help="the games and their status")
    p.set_defaults(func=_cmd_list)
    p = sub.add_parser("play", help="play one match between bots and print it")
    p.add_argument("game", choices=robotcore.list_games())
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--bots", nargs="+", default=[],
                   help="a bot per seat (one for all), as names or comma-separated names "
                        f"({', '.join(sorted(BOTS))}; default: random) or specs such as "
                        '"ismcts:iterations=500" "mcts:ms=50" "module:Class:opt=1"')
    p.add_argument("--params", default="{}", type=_json_object,
                   help="game parameters as JSON, e.g. '{\"hangars\": 4}'")
    p.add_argument("--quiet", action="store_true", help="print the seats and the end, not every move")
    p.set_defaults(func=_cmd_play)
    p = sub.add_parser("tournament", help="bots against bots: seat rotation, paired deals, ratings, SPRT")
    p.add_argument("--game", required=True, choices=robotcore.list_games())
    p.add_argument("--bots", nargs="+", required=True,
                   help='bot specs: random, "ismcts:iterations=2000", "mcts:ms=50", or "module:Class:opt=1"')
    p.add_argument("--games", type=int, default=60,
                   help="games, rounded up to whole deals (a deal: one game per seating, i.e. per bot, or with more "
                        "bots than seats per ordered choice of bots)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--params", default="{}", type=_json_object, help="game parameters as JSON")
    p.add_argument("--budget-ms", type=float, default=None, help="time budget per move handed to every bot")
    p.add_argument("--on-error", choices=["forfeit", "stop"], default="forfeit",
                   help="a bot that raises or answers an illegal move: loses that game, the tournament going on "
                        "(forfeit), or stops the tournament with its error (stop)")
    p.add_argument("--out", default=None,
                   help="results folder (resumable: the same command continues, with more --games it plays the new "
                        "ones)")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (default: all cores)")
    p.add_argument("--backend", choices=["local", "ray"], default="local")
    p.add_argument("--address", default=None, help="Ray cluster address (default: start a local one)")
    p.add_argument("--sprt", nargs=2, metavar=("A", "B"), default=None,
                   help="stop as soon as an SPRT decides whether bot A is stronger than bot B")
    # (None: not given; the SPRT's defaults are Tournament's, 0, 50, 0.05, 0.05)
    p.add_argument("--elo0", type=float, default=None, help="the SPRT's H0: A is not stronger by more (default 0)")
    p.add_argument("--elo1", type=float, default=None, help="the SPRT's H1: A is stronger by this (default 50)")
    p.add_argument("--alpha", type=float, default=None, help="the SPRT's false positive rate (default 0.05)")
    p.add_argument("--beta", type=float, default=None, help="the SPRT's false negative rate (default 0.05)")
    p.add_argument("--quiet", action="store_true", help="no progress line")
    p.set_defaults(func=_cmd_tournament)
    p = sub.add_parser("simulate", help="many matches: score spread, win shares, game length")
    p.add_argument("game", choices=robotcore.list_games())
    p.add_argument("--bots", nargs="+", default=[],
                   help="a bot per seat (one for all), as names or comma-separated names (default: random) or "
                        'specs, e.g. random "mcts:iterations=200" greedy')
    p.add_argument("--games", type=_bounded_int(1), default=200)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--params", default="{}", type=_json_object, help="game parameters as JSON")
    p.set_defaults(func=_cmd_simulate)
    p = sub.add_parser("serve", help="run the REST service (development server)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=_bounded_int(0, 65535), default=8000)
    p.add_argument("--database", default=None, help="SQLAlchemy URL (default: a SQLite file)")
    p.add_argument("--debug", action="store_true")
    p.set_defaults(func=_cmd_serve)
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        print(f"robotcore {args.command}: interrupted" + (
            "; the same command resumes from what is written" if getattr(args, "out", None) else ""),
            file=sys.stderr)
        return 130
    except robotcore.RobotcoreError as exc:
        # (with its notes: a bot's illegal answer names the seat, the bot and the game it was playing)
        print("error: " + "; ".join([str(exc), *getattr(exc, "__notes__", [])]), file=sys.stderr)
        return 2
    except OSError as exc:               # e.g. a results folder that cannot be made (--out /dev/null)
        where = f": {exc.filename}" if exc.filename else ""
        print(f"error: {exc.strerror or exc}{where}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
