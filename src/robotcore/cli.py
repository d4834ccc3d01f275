"""The ``robotcore`` command: list games, play and print a match, write playthroughs, simulate, serve."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

import robotcore
from robotcore.registry import ALL_GAMES


def _cmd_list(args: argparse.Namespace) -> int:
    for name, status in ALL_GAMES.items():
        print(f"{name:12s} {status}")
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    from robotcore.bots import BOTS, make_bot

    game = robotcore.load_game(args.game, **json.loads(args.params))
    bots = [b.strip() for b in args.bots.split(",")] if args.bots else ["random"] * game.num_players
    if len(bots) == 1:
        bots = bots * game.num_players
    if len(bots) != game.num_players:
        print(f"robotcore play: error: {game.title} has {game.num_players} seats: give one bot "
              f"(for every seat) or {game.num_players} comma-separated bots, got {len(bots)}", file=sys.stderr)
        return 2
    unknown = [b for b in bots if b not in BOTS]
    if unknown:
        print(f"robotcore play: error: no bot named {unknown[0]!r}; bots: {', '.join(sorted(BOTS))}",
              file=sys.stderr)
        return 2
    players = [make_bot(b, seed=args.seed * 1000 + i) for i, b in enumerate(bots)]
    state = game.new_initial_state(args.seed)
    print(f"{game.title}, seed {args.seed}, seats: {', '.join(f'{i}={b}' for i, b in enumerate(bots))}")
    while not state.is_terminal:
        seat = state.current_player
        action = players[seat].choose(state, seat)
        if not args.quiet:
            print(f"  seat {seat}: {game.action_to_str(action)}")
        state.apply(action, seat)
    print(state)
    outcome = state.outcome()
    assert outcome is not None
    print(f"final scores {list(outcome.scores)}; winner(s): {', '.join(map(str, outcome.winners))}"
          + (" (shared)" if outcome.shared else ""))
    return 0


def _cmd_simulate(args: argparse.Namespace) -> int:
    from robotcore.tools.match import simulate

    report = simulate(args.game, args.bots.split(","), args.games, args.seed, **json.loads(args.params))
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


def main(argv: Sequence[str] | None = None) -> int:
    from robotcore.bots import BOTS

    parser = argparse.ArgumentParser(prog="robotcore", description="robotcore games from the command line")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("list", help="the games and their status")
    p.set_defaults(func=_cmd_list)
    p = sub.add_parser("play", help="play one match between bots and print it")
    p.add_argument("game", choices=robotcore.list_games())
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--bots", default="",
                   help="one bot for every seat, or a comma-separated bot per seat (as many as the game has "
                        f"seats); bots: {', '.join(sorted(BOTS))} (default: random)")
    p.add_argument("--params", default="{}", help="game parameters as JSON, e.g. '{\"hangars\": 4}'")
    p.add_argument("--quiet", action="store_true", help="print only the end")
    p.set_defaults(func=_cmd_play)
    p = sub.add_parser("simulate", help="many matches: score spread, win shares, game length")
    p.add_argument("game", choices=robotcore.list_games())
    p.add_argument("--bots", required=True)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--params", default="{}")
    p.set_defaults(func=_cmd_simulate)
    p = sub.add_parser("serve", help="run the REST service (development server)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--database", default=None, help="SQLAlchemy URL (default: a SQLite file)")
    p.add_argument("--debug", action="store_true")
    p.set_defaults(func=_cmd_serve)
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except robotcore.RobotcoreError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
