"""Golden playthroughs: a readable record of one game, step by step, for any registered game.

Each step lists what changed in the spectator's view, what changed in each seat's private part of its view
(the keys where it differs from the spectator's), the legal actions of the acting seat and the action chosen.
A behaviour change, or a leak, shows up as a small readable diff of the committed file.
"""

from __future__ import annotations

import json
from typing import Any

import robotcore
from robotcore.core.rng import Rng


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _private(view: dict[str, Any], public: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "seat" and public.get(k) != v}


def playthrough(name: str, seed: int, policy_seed: int = 0, **params: Any) -> str:
    """The playthrough text of one game: uniformly random actions from ``Rng(policy_seed)``; in a
    simultaneous phase the lowest acting seat acts first (OpenSpiel's current_player)."""
    game = robotcore.load_game(name, **params)
    state = game.new_initial_state(seed)
    rng = Rng(policy_seed)
    lines = [
        f"# robotcore golden playthrough: {name} {_dump(game.plain_params())} seed={seed} policy_seed={policy_seed}",
        f"# num_players={game.num_players} num_actions={game.num_actions} state_size={game.state_size} "
        f"max_game_length={game.max_game_length} observation_shape={list(game.observation_shape)}",
        "# regenerate: python -m robotcore.tools.playthrough --write",
    ]
    last_public: dict[str, Any] = {}
    last_private: list[dict[str, Any]] = [{} for _ in range(game.num_players)]
    step = 0
    while True:
        public = state.view(None)
        lines.append(f"step {step}")
        changed = {k: v for k, v in public.items() if last_public.get(k) != v}
        lines.append(f"  public {_dump(changed)}")
        last_public = public
        for seat in range(game.num_players):
            private = _private(state.view(seat), public)
            if private != last_private[seat]:
                lines.append(f"  seat {seat} {_dump(private)}")
                last_private[seat] = private
        if state.is_terminal:
            break
        seat = state.current_player
        legal = state.legal_actions(seat)
        lines.append(f"  legal[{seat}] " + ", ".join(game.action_to_str(a) for a in legal))
        action = legal[rng.below(len(legal))]
        lines.append(f"  -> seat {seat}: {game.action_to_str(action)} ({action})")
        state.apply(action, seat)
        step += 1
    outcome = state.outcome()
    assert outcome is not None
    lines.append(f"outcome {_dump(outcome.to_json())}")
    return "\n".join(lines) + "\n"


#: The committed golden files: (game, seed, parameters) -> tests/games/<game>/playthrough*.txt
GOLDEN: list[tuple[str, int, dict[str, Any]]] = [
    ("robotrick", 2026, {}),
    # two days of three seats (a full game is ~300 steps of 4 seats: too long to read as a diff)
    ("scrapyard", 2056, {"players": 3, "days": 2}),
    ("nicodemus", 2026, {}),
    # a 2-player game: 8 turns, every phase (refill, take, the simultaneous action phase)
    ("sparks", 2026, {"players": 2}),
    # the 20-minute game (5 rounds, events 1, 5, 6, 7, 13) at 3 seats: a whole game short enough to read
    ("smartphone", 2026, {"length": "20", "players": 3}),
]


def golden_path(root: str, name: str, seed: int, params: dict[str, Any]) -> str:
    suffix = "".join(f"-{k}={v}" for k, v in sorted(params.items()))
    return f"{root}/tests/games/{name}/playthrough{suffix}.txt"


def main() -> None:
    import argparse
    import pathlib

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", action="store_true", help="rewrite the committed golden files")
    parser.add_argument("--root", default=".", help="repository root")
    args = parser.parse_args()
    for name, seed, params in GOLDEN:
        path = pathlib.Path(golden_path(args.root, name, seed, params))
        text = playthrough(name, seed, **params)
        if args.write:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path} ({len(text.splitlines())} lines)")
        else:
            print(text)


if __name__ == "__main__":
    main()
