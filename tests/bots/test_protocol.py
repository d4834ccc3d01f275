"""The Bot protocol: a user's bot in a few lines, loaded by module:Class with options, hooks called by the
harness, illegal answers refused with a clear error."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import robotcore
from robotcore.arena import Tournament
from robotcore.bots import Bot, Observer, make_bot, parse_bot_spec

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))   # the repository root: examples/


def test_bot_specs_parse() -> None:
    assert parse_bot_spec("ismcts:iterations=2000") == ("ismcts", {"iterations": 2000})
    assert parse_bot_spec("mcts:ms=50,c=0.5") == ("mcts", {"ms": 50, "c": 0.5})
    assert parse_bot_spec("random") == ("random", {})
    assert parse_bot_spec("examples.my_bots:Greedy1:tries=3") == ("examples.my_bots:Greedy1", {"tries": 3})
    for bad in ("", "nosuchbot", "ismcts:iterations", "examples.my_bots:Nope", "no.such.module:X"):
        with pytest.raises(robotcore.InvalidParameterError):
            parse_bot_spec(bad)


def test_a_users_bot_loads_by_module_and_class_and_plays() -> None:
    bot = make_bot("examples.my_bots:Greedy1", seed=2, tries=1)
    state = robotcore.make("nicodemus", seed=1)
    assert bot.choose(state, state.current_player) in state.legal_actions()
    t = Tournament("nicodemus", ["examples.my_bots:FirstLegal", "examples.my_bots:Greedy1:tries=1"], 2, seed=1)
    assert t.run()["games"] == 2


class Liar(Bot):
    def act(self, observer: Observer, budget_ms: float | None = None) -> int:
        return 10**6


class Duck:
    """Not a Bot subclass: anything with act() is accepted."""

    def __init__(self, seed: int = 0) -> None:
        self.resets = 0

    def act(self, observer: Observer, budget_ms: float | None = None) -> int:
        return observer.legal_actions()[-1]

    def reset(self) -> None:
        self.resets += 1


def test_an_illegal_answer_is_refused_and_duck_typed_bots_work() -> None:
    state = robotcore.make("robotrick", seed=1)
    with pytest.raises(robotcore.IllegalActionError):
        Liar().choose(state, 0)
    duck = make_bot(f"{__name__}:Duck")
    assert duck.choose(state, 0) == state.legal_actions(0)[-1]
    duck.reset()
    assert duck.inner.resets == 1  # type: ignore[attr-defined]
