"""Balance figures of Smartphone (RULES.md, "Simulation"): game length in rounds and actions, how games end,
the score spread, and how supplier choice trades off (bots that prefer one supplier).

    python -m robotcore.games.smartphone.balance --bots random,random,random,random --games 500
    python -m robotcore.games.smartphone.balance --bots greedy,greedy,greedy,greedy --games 100
    python -m robotcore.games.smartphone.balance --bots prefer:PolluPlus,prefer:PolluMoins,prefer:Recyclage,greedy

A bot spec is ``random``, ``greedy`` (robotcore.bots.GreedyBot with the game's ``evaluate``) or
``prefer:<supplier>`` (the greedy bot, but whenever it supplies it supplies at that supplier if it can).
Prints one Markdown table row.
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Any

import robotcore
from robotcore.bots.base import Bot, make_bot
from robotcore.bots.greedy import GreedyBot
from robotcore.core.state import State
from robotcore.tools.match import play_match

HEADER = ("| seats | bots | games | rounds mean (range) | actions mean (range) | ended by smartphone / event 13 / "
          "malus pile / events out | score mean / sd / range | components built per player | win share by seat (by bot "
          "with --rotate) |\n"
          "|---|---|---|---|---|---|---|---|---|")


class PreferSupplierBot(GreedyBot):
    """The greedy bot, except that its supplies go to one supplier whenever that supplier is open: it keeps
    the greedy choice when the greedy choice is not a supply."""

    name = "prefer"

    def __init__(self, supplier: str, seed: int = 0) -> None:
        super().__init__(seed=seed)
        self.supplier = supplier

    def choose(self, state: State, seat: int, budget_ms: float | None = None) -> int:
        action = super().choose(state, seat, budget_ms)
        text = state.game.action_to_str(action)
        if text.startswith("supply "):
            preferred = state.game.parse_action(f"supply {self.supplier}")
            if preferred in state.legal_actions(seat):
                return int(preferred)
        return action


def _bot(spec: str, seed: int) -> Bot:
    if spec.startswith("prefer:"):
        return PreferSupplierBot(spec.split(":", 1)[1], seed=seed)
    return make_bot(spec, seed=seed)


def balance(bots: Sequence[str], games: int, seed: int = 0, rotate: bool = False,
            **params: Any) -> dict[str, Any]:
    """``rotate``: game g seats the bots shifted by g places (so that each bot plays every seat), and the win
    shares are reported per bot of ``bots`` rather than per seat."""
    rounds: list[int] = []
    lengths: list[int] = []
    ends: Counter[str] = Counter()
    scores: list[int] = []
    built: list[int] = []
    wins = [0.0] * len(bots)
    for g in range(games):
        shift = g % len(bots) if rotate else 0
        seated = [bots[(i + shift) % len(bots)] for i in range(len(bots))]
        players = [_bot(b, seed=(seed + g) * 1000 + i) for i, b in enumerate(seated)]
        state = play_match("smartphone", players, seed + g, **params)
        v = state.view(None)
        rounds.append(v["round"])
        lengths.append(len(state.history))
        ends[v["end_reason"]] += 1
        scores.extend(state.scores())
        built.extend(len(p["built"]) for p in v["players"])
        for s, r in enumerate(state.returns()):
            wins[(s + shift) % len(bots)] += r
    return {
        "bots": list(bots), "params": params, "games": games,
        "rounds": (statistics.mean(rounds), min(rounds), max(rounds)),
        "actions": (statistics.mean(lengths), min(lengths), max(lengths)),
        "ends": {k: ends[k] / games for k in ("smartphone", "end_event", "malus_pile", "events_exhausted")},
        "score": (statistics.mean(scores), statistics.pstdev(scores), min(scores), max(scores)),
        "built": statistics.mean(built),
        "wins": [w / games for w in wins],
    }


def row(r: dict[str, Any]) -> str:
    e = r["ends"]
    return (f"| {len(r['bots'])} | {','.join(r['bots'])} {json.dumps(r['params']) if r['params'] else ''} | "
            f"{r['games']} | {r['rounds'][0]:.1f} ({r['rounds'][1]}-{r['rounds'][2]}) | "
            f"{r['actions'][0]:.0f} ({r['actions'][1]}-{r['actions'][2]}) | "
            f"{e['smartphone']:.0%} / {e['end_event']:.0%} / {e['malus_pile']:.0%} / {e['events_exhausted']:.0%} | "
            f"{r['score'][0]:.1f} / {r['score'][1]:.1f} / {r['score'][2]}..{r['score'][3]} | {r['built']:.2f} | "
            + " ".join(f"{w:.2f}" for w in r["wins"]) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", required=True)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--params", default="{}")
    parser.add_argument("--header", action="store_true")
    parser.add_argument("--rotate", action="store_true", help="rotate the bots over the seats; win share by bot")
    args = parser.parse_args()
    params = json.loads(args.params)
    bots = args.bots.split(",")
    robotcore.load_game("smartphone", **params)
    if args.header:
        print(HEADER)
    print(row(balance(bots, args.games, args.seed, args.rotate, **params)))


if __name__ == "__main__":
    main()
