"""The native search bots (``mcts``: UCT over determinisations, ``ismcts``): legal answers in every game and
phase, the same decisions for the same seed, no peeking at what the seat cannot see, tree reuse, threads."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import robotcore
from robotcore.bots import BOTS, Observer, _search, make_bot

SEARCH = {"mcts": {"iterations": 80, "worlds": 4}, "ismcts": {"iterations": 80}}
ALL = {**{name: {} for name in BOTS}, **SEARCH, "montecarlo": {"playouts": 3}}


def positions(game: robotcore.Game, seed: int, every: int) -> list[robotcore.State]:
    """States along a random game (every ``every`` moves), the end excluded."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed)
    out = []
    while not state.is_terminal:
        if state.move_number % every == 0:
            out.append(state.clone())
        seat = state.current_player
        legal = state.legal_actions(seat)
        state.apply(legal[int(rng.integers(len(legal)))], seat)
    return out


@pytest.mark.parametrize("bot", sorted(SEARCH))
def test_search_bots_play_whole_games_legally_in_every_game(game: robotcore.Game, bot: str) -> None:
    """Every acting seat of every position (simultaneous phases included) gets a legal action."""
    options = {"iterations": 24, **({"worlds": 3} if bot == "mcts" else {})}
    players = [make_bot(bot, seed=i, **options) for i in range(game.num_players)]
    state = game.new_initial_state(11)
    while not state.is_terminal:
        for seat in state.actors:
            assert players[seat].choose(state, seat) in state.legal_actions(seat)
        seat = state.current_player
        state.apply(players[seat].choose(state, seat), seat)


@pytest.mark.parametrize("bot", sorted(SEARCH))
def test_same_seed_same_decisions(default_game: robotcore.Game, bot: str) -> None:
    for state in positions(default_game, 5, 9)[:6]:
        seat = state.current_player
        a = [make_bot(bot, seed=3, **SEARCH[bot]).choose(state, seat) for _ in range(2)]
        assert a[0] == a[1]


@pytest.mark.parametrize("bot", sorted(ALL))
def test_no_peeking_decisions_are_the_same_on_states_the_seat_cannot_tell_apart(
        default_game: robotcore.Game, bot: str) -> None:
    """A state and its re-deal for the acting seat differ only where that seat cannot see; a bot with the same
    seed must decide the same on both (it sees the game only through its seat's observer). The states do
    differ (otherwise the test could not fail)."""
    differed = 0
    for k, state in enumerate(positions(default_game, 7, 5)[:10]):
        for seat in state.actors:
            twin = state.resample_hidden(seat, 1000 + k)
            differed += twin.state_bytes() != state.state_bytes()
            a = make_bot(bot, seed=k, **ALL[bot]).choose(state, seat)
            b = make_bot(bot, seed=k, **ALL[bot]).choose(twin, seat)
            assert a == b, (bot, k, seat)
    assert differed > 0


def test_pimc_does_not_depend_on_the_thread_count() -> None:
    for state in positions(robotcore.load_game("robotrick"), 2, 11)[:5]:
        seat = state.current_player
        if len(state.legal_actions(seat)) < 2:
            continue
        one = make_bot("mcts", seed=4, iterations=120, worlds=6, threads=1)
        two = make_bot("mcts", seed=4, iterations=120, worlds=6, threads=2)
        assert one.choose(state, seat) == two.choose(state, seat)
        assert one.last["iterations"] == two.last["iterations"] == 120


def test_ismcts_on_threads_is_deterministic_too() -> None:
    state = robotcore.make("nicodemus", seed=4)
    seat = state.current_player
    runs = []
    for _ in range(2):
        bot = make_bot("ismcts", seed=4, iterations=300, threads=2)
        runs.append(bot.choose(state, seat))
        assert bot.last["iterations"] == 300
    assert runs[0] == runs[1]


def test_ismcts_reuses_its_subtree_when_every_action_since_was_visible() -> None:
    """Nicodemus' moves are public: the tree kept from the last decision carries iterations over."""
    game = robotcore.load_game("nicodemus")
    bots = [make_bot("ismcts", seed=s, iterations=200) for s in range(2)]
    state = game.new_initial_state(3)
    carried = 0
    while not state.is_terminal and state.move_number < 30:
        seat = state.current_player
        state.apply(bots[seat].choose(state, seat), seat)
        carried += bots[seat].last.get("iterations", 0) > 200
    assert carried > 0
    fresh = make_bot("ismcts", seed=0, iterations=200, reuse=False)
    state = game.new_initial_state(3)
    fresh.choose(state, state.current_player)
    assert fresh.last["iterations"] == 200


def test_reuse_is_an_ismcts_option_only() -> None:
    """PIMC (mcts) deals fresh worlds at each decision: it keeps no subtree, so it takes no ``reuse`` (one that
    it ignored would tell a user it did something), and the bots' catalogue does not list it."""
    from robotcore.bots import BOTS, bot_options

    with pytest.raises(robotcore.InvalidParameterError, match="bot 'mcts' has no option reuse; its options: "
                                                                "iterations, ms, c, threads, worlds, rollout, depth"):
        make_bot("mcts:reuse=false")
    assert "reuse" not in bot_options(BOTS["mcts"]) and "reuse" in bot_options(BOTS["ismcts"])
    with pytest.raises(robotcore.InvalidParameterError, match="reuse must be true or false"):
        make_bot("ismcts", reuse=1)


def test_a_time_budget_is_honoured_roughly() -> None:
    state = robotcore.make("robotrick", seed=1)
    for name in SEARCH:
        bot = make_bot(name, seed=1, ms=30)
        assert bot.choose(state, 0) in state.legal_actions(0)
        assert bot.last["iterations"] >= 1
        assert bot.last["seconds"] < 2.0


def test_search_checks_its_inputs() -> None:
    game = robotcore.load_game("robotrick")
    state = game.new_initial_state(1)
    worlds = Observer(state, 0).worlds([1, 2])
    with pytest.raises(ValueError):
        _search.search(game.core, 0, "alphabeta", worlds=worlds, iterations=10)
    with pytest.raises(ValueError):
        _search.search(game.core, 0, "ismcts", worlds=worlds[:, :10], iterations=10)
    bad = worlds.copy()
    bad[0, :] = 255
    with pytest.raises(ValueError):
        _search.search(game.core, 0, "ismcts", worlds=bad, iterations=10)
    with pytest.raises(ValueError):                       # no worlds: the root must be a state of this core
        _search.search(game.core, 0, "ismcts", iterations=10)
    other = robotcore.load_game("robotrick", hangars=4).new_initial_state(1)
    with pytest.raises(ValueError):
        _search.search(game.core, 0, "ismcts", root=other, iterations=10)
    with pytest.raises(ValueError):
        _search.search(game.core, 0, "ismcts", worlds=worlds, iterations=0)
    for options in ({"iterations": 0}, {"threads": 0}, {"ms": -1}, {"c": "x"}, {"worlds": 0}, {"worlds": 8193}):
        with pytest.raises(robotcore.InvalidParameterError):
            make_bot("ismcts", **options)
    # found by fuzzing the low-level call: a max_len whose path buffer size wrapped (a heap overflow), NaN or
    # negative exploration and budgets, a forest of another game (read its mask words as this game's), a
    # forest given to PIMC (silently ignored), None for a State
    for options in ({"max_len": 2**62}, {"max_len": 1}, {"c": float("nan")}, {"c": -1.0},
                    {"budget_ms": float("nan")}):
        with pytest.raises(ValueError):
            _search.search(game.core, 0, "ismcts", worlds=worlds, iterations=10, **options)
    scrapyard = robotcore.load_game("scrapyard")
    theirs = _search.search(scrapyard.core, 0, "ismcts", root=scrapyard.new_initial_state(1), iterations=10)
    with pytest.raises(ValueError, match="game"):
        _search.search(game.core, 0, "ismcts", worlds=worlds, iterations=10, forest=theirs)
    mine = _search.search(game.core, 0, "ismcts", worlds=worlds, iterations=10)
    with pytest.raises(ValueError, match="ismcts"):
        _search.search(game.core, 0, "pimc", worlds=worlds, iterations=10, forest=mine)
    for call in (lambda: _search.evaluate(None), lambda: _search.native_resample(None, 0, 1),
                 lambda: _search.native_draws(None, 0, 1)):
        with pytest.raises(TypeError):
            call()


def test_a_forest_is_grown_by_one_search_at_a_time() -> None:
    """Two threads growing one Forest reallocated its node arrays under each other (a heap corruption, found by
    fuzzing): a second search, or a descend, while one runs is refused."""
    import threading

    game = robotcore.load_game("nicodemus")
    state = game.new_initial_state(1)
    forest = _search.search(game.core, 0, "ismcts", root=state, iterations=10)
    running = threading.Thread(target=_search.search, args=(game.core, 0, "ismcts"),
                               kwargs={"root": state, "budget_ms": 1500.0, "forest": forest})
    running.start()
    try:
        for _ in range(200):                  # until the search in the thread holds the forest
            try:
                _search.search(game.core, 0, "ismcts", root=state, iterations=1, forest=forest)
            except robotcore.BatchInUseError:
                break
        else:
            pytest.fail("the second search was never refused")
        with pytest.raises(robotcore.BatchInUseError):
            forest.descend(0, 0)
    finally:
        running.join()
    _search.search(game.core, 0, "ismcts", root=state, iterations=10, forest=forest)     # free again


def test_a_search_reads_its_own_copy_of_the_root_and_the_worlds() -> None:
    """The search runs without the GIL: it read the root State's memory, which another thread's ``apply`` may
    reallocate as the history grows (a use-after-free, found by fuzzing), and the caller's worlds array, which
    another thread may write. It copies both first: a search whose caller changes them meanwhile still answers
    as for what they were when it began."""
    import threading

    game = robotcore.load_game("nicodemus")
    state = game.new_initial_state(2)
    worlds = Observer(state, 0).worlds([1, 2, 3])
    expected = _search.search(game.core, 0, "pimc", worlds=worlds.copy(), iterations=3000, seed=4).root_stats()
    twin = state.clone()
    results: list[dict] = []
    searching = threading.Thread(target=lambda: results.append(
        _search.search(game.core, 0, "pimc", worlds=worlds, iterations=3000, seed=4).root_stats()))
    native = threading.Thread(target=lambda: _search.search(game.core, 0, "ismcts", root=twin, budget_ms=300.0))
    searching.start()
    native.start()
    rng = np.random.default_rng(0)
    while searching.is_alive() or native.is_alive():
        worlds[:] = rng.integers(0, 256, worlds.shape, dtype=np.uint8)      # garbage into the caller's array
        if not twin.is_terminal:
            twin.apply(twin.legal_actions()[0])                            # the root grows its history
    searching.join()
    native.join()
    assert results == [expected]


def test_an_observer_shows_only_the_seat() -> None:
    state = robotcore.make("robotrick", seed=2)
    state.apply(state.legal_actions(1)[0], 1)
    obs = Observer(state, 0)
    assert obs.history == [(1, None)]                      # seat 1's pass is hidden from seat 0
    assert Observer(state, 1).history == state.history
    assert obs.view() == state.view(0) and obs.legal_actions() == state.legal_actions(0)
    assert not hasattr(obs, "__dict__") and not hasattr(obs, "state")


def test_a_determinisation_carries_no_history() -> None:
    """Robotrick's resample_hidden used to keep earlier rounds' passes of other seats in the copy's history; a
    determinisation now has none (the conformance suite checks it for every game), and the observer's are the
    game's."""
    game = robotcore.load_game("robotrick")
    state = positions(game, 5, 1)[50]
    assert any(p == 1 and not game.is_public_action(a) for p, a in state.history)
    assert state.resample_hidden(0, 3).history == []
    world = Observer(state, 0).resample(3)
    assert world.history == [] and world.state_bytes() == state.resample_hidden(0, 3).state_bytes()


def test_the_native_resampler_path_matches_the_pool_path_on_the_same_worlds() -> None:
    """A test double whose ``resample_draw`` hands back the root itself runs the native path (in every game,
    with a native resampler of its own or not), which must give exactly what the pool path gives when every
    pooled world is that root."""
    for name in robotcore.list_games():
        state = positions(robotcore.load_game(name), 3, 4)[2]
        seat = state.current_player
        core, root = _search._identity_resampler_core(state)
        assert core.native_resample
        same = np.stack([np.frombuffer(state.state_bytes(), dtype=np.uint8)] * 5)
        for mode, extra in (("ismcts", {}), ("pimc", {"num_worlds": 5})):
            native = _search.search(core, seat, mode, root=root, iterations=150, seed=9, threads=2, **extra)
            pooled = _search.search(state.game.core, seat, mode, worlds=same, iterations=150, seed=9, threads=2)
            assert native.root_stats() == pooled.root_stats() and native.iterations == pooled.iterations > 0


def test_ismcts_starts_a_new_tree_after_a_choice_hidden_from_its_seat() -> None:
    """Robotrick's pass is hidden: after only its own pass the tree is kept; after another seat's pass too,
    the bot cannot know which edge was taken, so it starts afresh."""
    state = robotcore.make("robotrick", seed=8)
    bot = make_bot("ismcts", seed=1, iterations=200)
    state.apply(bot.choose(state, 0), 0)
    bot.choose(state, 0)
    assert bot.last["iterations"] > 200                    # its own action since: reused
    other = robotcore.make("robotrick", seed=8)
    bot = make_bot("ismcts", seed=1, iterations=200)
    other.apply(bot.choose(other, 0), 0)
    other.apply(other.legal_actions(1)[0], 1)
    bot.choose(other, 0)
    assert bot.last["iterations"] == 200


def test_a_time_budget_on_threads() -> None:
    state = robotcore.make("nicodemus", seed=1)
    for name in SEARCH:
        bot = make_bot(name, seed=1, ms=20, threads=2)
        assert bot.choose(state, state.current_player) in state.legal_actions()
        assert bot.last["iterations"] >= 2


@pytest.mark.parametrize("bot", ["ismcts:iterations=100", "mcts:iterations=100,worlds=4"])
def test_search_bots_beat_random_play_in_every_game(default_game: robotcore.Game, bot: str) -> None:
    """Through the harness (paired deals, seats rotated): the 95% interval of the searcher's score share lies
    above chance. Seeded, so the figure is exact; the strength report (bench/strength.py) adds greedy."""
    from robotcore.arena import Tournament

    summary = Tournament(default_game.name, [bot, "random"], 16, seed=1).run()
    row = summary["bots"][0]
    assert row["score_share_ci"][0] > summary["chance"], row


NATIVE = ["robotrick", "scrapyard", "nicodemus", "smartphone"]


@pytest.mark.parametrize("name", NATIVE)
def test_the_native_resampler_is_resample_hidden(name: str) -> None:
    """One sampler, not two: the engine's native ``resample_prepare``/``resample_draw`` (the functions the
    search calls) give, for the same seed, exactly the state ``resample_hidden`` gives (so the conformance
    suite's resampling properties cover the native path); same seed, same world; every draw passes the engine's
    invariant check; draws with different seeds differ somewhere."""
    games = [robotcore.load_game(name)] + ([robotcore.load_game(name, open_workshop=False)]
                                           if name == "scrapyard" else [])
    for game in games:
        assert game.core.native_resample
        differed = 0
        for state in positions(game, 21, 7)[:12]:
            for seat in state.actors:
                native = _search.native_resample(state, seat, 99)
                assert native.state_bytes() == state.resample_hidden(seat, 99).state_bytes()
                assert native.history == [] and native.seed == 99
                assert _search.native_resample(state, seat, 99).state_bytes() == native.state_bytes()
                differed += _search.native_resample(state, seat, 100).state_bytes() != native.state_bytes()
                assert _search.native_draws(state, seat, 30, seed=5, validate=True) == 0
        assert differed > 0


@pytest.mark.parametrize("name", NATIVE)
def test_native_determinisation_search_cannot_peek(name: str) -> None:
    """The native path reads the root only through the engine's resampler: on a state and on a re-deal of it
    for the searching seat, a search with the same seed grows the same root statistics, and a bot takes the
    same decisions."""
    game = robotcore.load_game(name)
    checked = 0
    for k, state in enumerate(positions(game, 8, 6)[:8]):
        for seat in state.actors:
            twin = state.resample_hidden(seat, 500 + k)
            if twin.state_bytes() == state.state_bytes():
                continue
            checked += 1
            leaves: list[dict[str, Any]] = [{}] + ([{"rollout": "eval", "depth": 3}] if _search.native_evaluate(game.core) else [])
            for mode in ("ismcts", "pimc"):
                for leaf in leaves:
                    a = _search.search(game.core, seat, mode, root=state, iterations=60, seed=k, num_worlds=4,
                                       **leaf)
                    b = _search.search(game.core, seat, mode, root=twin, iterations=60, seed=k, num_worlds=4,
                                       **leaf)
                    assert a.root_stats() == b.root_stats()
            assert make_bot("ismcts", seed=k, iterations=60).choose(state, seat) \
                == make_bot("ismcts", seed=k, iterations=60).choose(twin, seat)
    assert checked > 0


def test_scrapyards_native_leaf_evaluation_mirrors_its_heuristic() -> None:
    """``EngineSpec.evaluate`` of Scrapyard: the softmax (temperature 4 points) of ``Game.evaluate`` over the
    seats, the heuristic GreedyBot reads: shares in [0, 1] summing to 1, ordered as the heuristic."""
    import math

    game = robotcore.load_game("scrapyard")
    assert _search.native_evaluate(game.core) and not _search.native_evaluate(robotcore.load_game("robotrick").core)
    for state in positions(game, 4, 25)[:8]:
        values = _search.evaluate(state)
        h = [game.evaluate(state, p) for p in range(game.num_players)]
        top = max(h)
        expected = [math.exp((x - top) / 4.0) for x in h]
        assert values == pytest.approx([e / sum(expected) for e in expected])
        assert sum(values) == pytest.approx(1.0)
    with pytest.raises(ValueError):
        _search.evaluate(robotcore.make("robotrick", seed=1))


@pytest.mark.parametrize("bot", sorted(SEARCH))
def test_eval_rollouts_are_an_option_with_checked_inputs(bot: str) -> None:
    game = robotcore.load_game("scrapyard")
    for k, state in enumerate(positions(game, 6, 30)[:5]):
        for seat in state.actors:
            choices = [make_bot(bot, seed=k, iterations=150, rollout="eval", depth=d).choose(state, seat)
                       for d in (0, 0, 6)]
            assert choices[0] == choices[1] and set(choices) <= set(state.legal_actions(seat))
    with pytest.raises(robotcore.InvalidParameterError):
        make_bot(bot, rollout="eval").choose(robotcore.make("robotrick", seed=1), 0)
    for options in ({"rollout": "heavy"}, {"depth": 3}, {"rollout": "eval", "depth": -1}):
        with pytest.raises(robotcore.InvalidParameterError):
            make_bot(bot, **options)
    state = game.new_initial_state(1)
    with pytest.raises(ValueError):
        _search.search(game.core, 0, "ismcts", root=state, iterations=10, depth=3)
    with pytest.raises(ValueError):
        _search.search(robotcore.load_game("robotrick").core, 0, "ismcts",
                       root=robotcore.make("robotrick", seed=1), iterations=10, rollout="eval")


def test_nicodemus_native_leaf_evaluation_is_the_score_race() -> None:
    """Nicodemus's ``EngineSpec.evaluate``: the logistic of the score difference (3 points: e to 1), win shares
    summing to 1; a search with it (after a few random decisions) plays legal moves."""
    import math

    game = robotcore.load_game("nicodemus")
    for state in positions(game, 2, 9)[:8]:
        s0, s1 = state.scores()
        values = _search.evaluate(state)
        assert values == pytest.approx([1 / (1 + math.exp((s1 - s0) / 3)), 1 / (1 + math.exp((s0 - s1) / 3))])
        seat = state.current_player
        assert make_bot("ismcts", seed=1, iterations=60, rollout="eval", depth=5).choose(state, seat) \
            in state.legal_actions(seat)


def test_search_plays_the_solo_game_toward_its_goal() -> None:
    """Solo Sparks returns 1.0 for a win and 0.0 for a loss, and random playouts almost never win: the searches
    backed up zeros and played no better than random (mcts 15, ismcts 25 points a game against greedy's 30, in
    the search review). They now back up the engine's graded value of a finished solo game
    (``EngineSpec.solo_value``: 1.0 for a win, less the further from it) and beat greedy on the same seeds,
    winning some of them; the returns themselves stay 1.0 or 0.0."""
    from robotcore.tools.match import play_bots

    game = robotcore.load_game("sparks", players=1)
    scores: dict[str, list[int]] = {}
    won = 0
    for spec in ("mcts:iterations=1000", "ismcts:iterations=500", "greedy"):
        scores[spec] = []
        for seed in range(8):
            state = game.new_initial_state(seed)
            play_bots(state, [make_bot(spec, seed=seed)])
            assert state.returns() in ([0.0], [1.0])
            scores[spec].append(state.scores()[0])
            won += spec != "greedy" and state.returns() == [1.0]
    greedy = sum(scores["greedy"])
    assert sum(scores["mcts:iterations=1000"]) > 1.3 * greedy and sum(scores["ismcts:iterations=500"]) > 1.3 * greedy
    assert won >= 1
