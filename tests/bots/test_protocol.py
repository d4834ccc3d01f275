"""The Bot protocol: a user's bot in a few lines, loaded by module:Class with options, hooks called by the
harness, illegal answers refused with a clear error."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

import robotcore
from robotcore.arena import Tournament
from robotcore.bots import Bot, Observer, make_bot, parse_bot_spec, split_bot_specs

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))   # the repository root: examples/


def test_bot_specs_parse() -> None:
    assert parse_bot_spec("ismcts:iterations=2000") == ("ismcts", {"iterations": 2000})
    assert parse_bot_spec("mcts:ms=50,c=0.5") == ("mcts", {"ms": 50, "c": 0.5})
    assert parse_bot_spec("random") == ("random", {})
    assert parse_bot_spec("examples.my_bots:Greedy1:tries=3") == ("examples.my_bots:Greedy1", {"tries": 3})
    for bad in ("", "nosuchbot", "ismcts:iterations", "examples.my_bots:Nope", "no.such.module:X"):
        with pytest.raises(robotcore.InvalidParameterError):
            parse_bot_spec(bad)


def test_one_argument_of_several_bot_specs_splits_between_bots() -> None:
    assert split_bot_specs(["random,greedy"]) == ["random", "greedy"]
    assert split_bot_specs(["random,mcts:iterations=10,threads=2,greedy"]) == [
        "random", "mcts:iterations=10,threads=2", "greedy"]
    assert split_bot_specs(["mcts:ms=50,c=0.5"]) == ["mcts:ms=50,c=0.5"]
    assert split_bot_specs(["examples.my_bots:Greedy1:tries=3,random"]) == ["examples.my_bots:Greedy1:tries=3", "random"]
    assert split_bot_specs(["mcts:ms=50,c=0.5", "random"]) == ["mcts:ms=50,c=0.5", "random"]    # one per argument
    assert split_bot_specs([]) == []
    assert split_bot_specs("random,greedy") == ["random", "greedy"]     # a bare string, not its characters


def test_a_built_in_name_is_never_read_as_a_module() -> None:
    """``random:Random`` is the built-in bot with a malformed option, not the standard library's class."""
    with pytest.raises(robotcore.InvalidParameterError, match="not key=value"):
        parse_bot_spec("random:Random")


def test_builtin_only_specs_import_nothing() -> None:
    sys.modules.pop("examples.my_bots", None)
    with pytest.raises(robotcore.InvalidParameterError, match="no built-in bot"):
        parse_bot_spec("examples.my_bots:Greedy1", builtin_only=True)
    assert "examples.my_bots" not in sys.modules
    assert parse_bot_spec("mcts:iterations=5", builtin_only=True) == ("mcts", {"iterations": 5})


def test_make_bot_takes_a_spec_and_keyword_options_win() -> None:
    bot = make_bot("mcts:iterations=7,c=0.25", seed=1)
    assert (bot.iterations, bot.c) == (7, 0.25)           # type: ignore[attr-defined]
    assert make_bot("mcts:iterations=7", seed=1, iterations=9).iterations == 9      # type: ignore[attr-defined]
    from robotcore.tools.match import play_match

    assert play_match("robotrick", ["random", "mcts:iterations=10", "greedy"], seed=2).is_terminal


@pytest.mark.parametrize("playouts", [0, -3, 10**12, True, 2.5])
def test_montecarlo_refuses_a_playout_count_out_of_range(playouts: object) -> None:
    with pytest.raises(robotcore.InvalidParameterError, match="playouts"):
        make_bot("montecarlo", seed=1, playouts=playouts)


@pytest.mark.parametrize("seed", [-1, 2**64, True])
def test_a_tournament_refuses_a_seed_out_of_range(seed: object) -> None:
    with pytest.raises(robotcore.InvalidParameterError, match="seed must be an int"):
        Tournament("nicodemus", ["random", "greedy"], 2, seed=seed)  # type: ignore[arg-type]


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


def test_options_that_do_not_fit_a_game_fail_before_play() -> None:
    robotrick = robotcore.load_game("robotrick")
    with pytest.raises(robotcore.InvalidParameterError, match="not a Robotrick action"):
        make_bot("greedy:prefer=nonsense").check_game(robotrick)
    with pytest.raises(robotcore.InvalidParameterError, match="no native leaf evaluation"):
        make_bot("ismcts:rollout=eval").check_game(robotrick)
    make_bot("ismcts:rollout=eval").check_game(robotcore.load_game("nicodemus"))     # it has one
    make_bot("random").check_game(robotrick)                                          # the hook's default
    with pytest.raises(robotcore.InvalidParameterError, match="^bot 'greedy': prefer: 'nonsense' is not"):
        make_bot("greedy:prefer=nonsense", for_game=robotrick)
    with pytest.raises(robotcore.InvalidParameterError, match="^bot 'ismcts': iterations must be"):
        make_bot("ismcts:iterations=0")                                # every message names the bot once
    with pytest.raises(robotcore.InvalidParameterError, match="no native leaf evaluation"):
        make_bot(f"{__name__}:EvalDuck", for_game=robotrick)           # a duck-typed bot's own hook runs


class EvalDuck:
    """A duck-typed bot (no ``Bot`` base) with a ``check_game`` hook that refuses Robotrick."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, observer: Observer, budget_ms: float | None = None) -> int:
        return int(observer.legal_actions()[0])

    def check_game(self, game: robotcore.Game) -> None:
        if game.name == "robotrick":
            raise robotcore.InvalidParameterError("no native leaf evaluation here")


def test_montecarlo_plays_many_playouts_in_bounded_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    from robotcore.bots import montecarlo

    sizes: list[int] = []
    real = montecarlo.batch.random_playouts

    def spy(game: robotcore.Game, arr: object, seed: int) -> None:
        sizes.append(len(arr))  # type: ignore[arg-type]
        real(game, arr, seed)

    monkeypatch.setattr(montecarlo, "CHUNK_ROWS", 5)
    monkeypatch.setattr(montecarlo.batch, "random_playouts", spy)
    state = robotcore.make("robotrick", seed=1)
    action = make_bot("montecarlo:playouts=4").choose(state, 0)
    legal = state.legal_actions(0)
    assert action in legal and max(sizes) == 5 and sum(sizes) == 4 * len(legal)


def test_numbers_given_to_bots_must_be_finite() -> None:
    for c in (float("inf"), -1.0, float("nan"), True, 10**400):     # (an int past a float's range too)
        with pytest.raises(robotcore.InvalidParameterError, match="c must be a finite number >= 0"):
            make_bot("mcts", c=c)
    for ms in (0, float("inf"), "50", 10**400):
        with pytest.raises(robotcore.InvalidParameterError, match="ms must be a finite number > 0"):
            make_bot("mcts", ms=ms)
    state = robotcore.make("robotrick", seed=1)
    for budget in (float("inf"), float("nan"), -1, 10**400):
        with pytest.raises(robotcore.InvalidParameterError, match="budget_ms must be a finite number >= 0"):
            make_bot("random").choose(state, 0, budget_ms=budget)
    from robotcore.arena import Tournament

    with pytest.raises(robotcore.InvalidParameterError, match="budget_ms must be a finite number"):
        Tournament("robotrick", ["random", "greedy"], 3, budget_ms=float("inf"))


def test_bot_options_lists_the_constructors_keywords() -> None:
    from robotcore.bots import BOTS, bot_options

    assert bot_options(BOTS["montecarlo"]) == {"playouts": 32}
    assert bot_options(BOTS["mcts"])["iterations"] == 1000 and "seed" not in bot_options(BOTS["mcts"])


def test_the_bots_of_a_tool_get_seeds_of_their_own_for_any_user_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """play_match, the CLI's play and balance seed their bots by derive_seed: in [0, 2**64) for the largest
    user seed, and different for seeds that an arithmetic rule (seed * 1000 + i) wrapped onto the same bots."""
    import robotcore.bots as bots_module
    import robotcore.cli as cli_module
    import robotcore.tools.balance as balance_module
    import robotcore.tools.match as match_module
    from robotcore.core.seeds import derive_seed

    given: list[int] = []
    real = match_module.make_bot

    def spy(spec: str, seed: int = 0, **kw: Any) -> Any:
        given.append(seed)
        return real(spec, seed=seed, **kw)

    for module in (match_module, bots_module, balance_module):      # (the CLI imports it from robotcore.bots)
        monkeypatch.setattr(module, "make_bot", spy)
    top = 2**64 - 1
    # two user seeds that seed * 1000 + i (mod 2**64, as Rng takes it) gave the same bots
    other = top - 2**61
    for seed in (top, other):
        assert match_module.play_match("nicodemus", ["random", "random"], seed=seed).is_terminal
    assert given == [derive_seed(s, "bot", i) for s in (top, other) for i in (0, 1)]
    assert all(0 <= s < 2**64 for s in given) and len(set(given)) == 4
    given.clear()
    assert cli_module.main(["play", "nicodemus", "--seed", str(top), "--bots", "random", "--quiet"]) == 0
    assert given == [derive_seed(top, "bot", 0), derive_seed(top, "bot", 1)]
    given.clear()
    balance_module.balance("nicodemus", ["random", "random"], 2, seed=5)
    assert given[:2] == [derive_seed(5, "bot", 0, 0), derive_seed(5, "bot", 0, 1)] and len(given) == 4
