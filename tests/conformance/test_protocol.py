"""The shared conformance suite (design.md section 7), run over every registered game and variant.

Each test states one property of the common protocol; a game that breaks it fails here without any test of
its own. Speed is never asserted here (bench/ measures it).
"""

from __future__ import annotations

import copy
import json
import pickle
import random

import numpy as np
import pytest

import robotcore
from robotcore.core import batch
from robotcore.errors import (
    CorruptStateError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidSeatError,
    NotYourTurnError,
)

from ..conftest import random_play, sized, strings_views_show


def test_game_facts(game: robotcore.Game) -> None:
    assert game.min_players <= game.num_players <= game.max_players
    assert 0 < game.num_actions <= 8192
    assert game.state_size > 0 and game.state_size % 8 == 0
    assert game.max_game_length > 0
    facts = game.to_json()
    json.dumps(facts)
    assert facts["name"] == game.name and facts["num_actions"] == game.num_actions
    assert robotcore.load_game(game.name, **game.plain_params()) == game


def test_thousands_of_native_random_games(game: robotcore.Game) -> None:
    """Random playouts in the engine: every game ends within the length bound, with valid returns."""
    states = game.new_batch(np.arange(3000, dtype=np.uint64))
    lengths = batch.random_playouts(game, states, seed=11)
    assert (lengths > 0).all(), "a playout failed (invalid row, no legal action or too long)"
    assert (lengths <= game.max_game_length).all()
    assert (batch.current_players(game, states) == robotcore.TERMINAL).all()
    rets = batch.returns(game, states)
    if game.num_players > 1:
        assert np.allclose(rets.sum(axis=1), 1.0)
    else:                                   # a solo game: 1.0 won, 0.0 lost (EngineSpec.solo_won)
        assert np.isin(rets, (0.0, 1.0)).all()
    scores = batch.scores(game, states)
    for row in range(0, 3000, 97):
        state = game.state_from_row(states[row])
        assert state.scores() == list(scores[row])
        assert game.scores_from_view(state.view(None)) == state.scores()
        winners = state.outcome().winners
        assert [r > 0 for r in rets[row]] == [s in winners for s in range(game.num_players)]


def test_thousands_of_python_games(game: robotcore.Game) -> None:
    """Random games through the Python API with the cheap invariants checked at every step."""
    rng = random.Random(1)
    lengths = []
    for g in range(sized(game, 1000)):
        state = game.new_initial_state(seed=g)
        n = 0
        while not state.is_terminal:
            actors = state.actors
            assert actors == sorted(set(actors)) and actors
            assert state.current_player == actors[0]
            seat = rng.choice(actors)
            legal = state.legal_actions(seat)
            assert legal and legal == sorted(set(legal))
            state.apply(rng.choice(legal), seat)
            n += 1
        assert n == len(state.history) <= game.max_game_length
        assert state.current_player == robotcore.TERMINAL
        assert state.legal_actions() == [] and state.actors == []
        lengths.append(n)
    assert min(lengths) > 0


def test_deep_invariants_during_play(game: robotcore.Game) -> None:
    """Fewer games, every property at every step."""
    rng = random.Random(2)
    for g in range(sized(game, 40)):
        state = game.new_initial_state(seed=1000 + g)
        while not state.is_terminal:
            actors = state.actors
            for seat in range(game.num_players):
                legal = state.legal_actions(seat)
                mask = state.legal_mask(seat)
                assert mask.dtype == np.bool_ and mask.shape == (game.num_actions,)
                assert list(np.flatnonzero(mask)) == legal
                assert bool(legal) == (seat in actors)
                for a in legal[:3]:
                    assert state.is_legal(a, seat)
            # strings and JSON forms round-trip and are unique
            legal = state.legal_actions(actors[0])
            strs = [game.action_to_str(a) for a in legal]
            assert len(set(strs)) == len(strs)
            for a in legal:
                assert game.parse_action(game.action_to_str(a)) == a
                assert game.action_from_dict(json.loads(json.dumps(game.action_to_dict(a)))) == a
            # bytes round-trip, clone equality
            again = game.from_bytes(state.to_bytes())
            assert again == state and again.history == state.history and again.to_bytes() == state.to_bytes()
            # the engine's scores equal the scoring recomputed from the public view
            assert game.scores_from_view(state.view(None)) == state.scores()
            seat = rng.choice(actors)
            action = rng.choice(state.legal_actions(seat))
            # clone independence: stepping the clone leaves the original untouched
            before = state.to_bytes()
            twin = state.clone()
            twin.apply(action, seat)
            assert state.to_bytes() == before
            state.apply(action, seat)
            assert state == twin and state.to_bytes() == twin.to_bytes()


def test_rejected_actions_change_nothing(game: robotcore.Game) -> None:
    rng = random.Random(3)
    for g in range(30):
        state = random_play(game.new_initial_state(seed=g), rng, steps=rng.randrange(0, 60))
        before, hist = state.to_bytes(), state.history
        if state.is_terminal:
            with pytest.raises(GameOverError):
                state.apply(0)
            continue
        actors = state.actors
        seat = actors[0]
        illegal = sorted(set(range(game.num_actions)) - set(state.legal_actions(seat)))
        for a in rng.sample(illegal, min(5, len(illegal))):
            with pytest.raises(IllegalActionError):
                state.apply(a, seat)
        idle = [s for s in range(game.num_players) if s not in actors]
        for s in idle:
            with pytest.raises(NotYourTurnError):
                state.apply(state.legal_actions(seat)[0], s)
        for bad in (-1, game.num_actions, 10**30, "1", 1.0, None, True):
            with pytest.raises(InvalidActionError):
                state.apply(bad, seat)
        for bad_seat in (-1, game.num_players, 99):
            with pytest.raises(InvalidSeatError):
                state.apply(state.legal_actions(seat)[0], bad_seat)
        assert state.to_bytes() == before and state.history == hist
        for err in (IllegalActionError, InvalidActionError, NotYourTurnError, GameOverError, CorruptStateError):
            assert issubclass(err, ValueError)


def test_determinism(game: robotcore.Game) -> None:
    """Same seed and same actions give the same bytes; replaying the history reproduces the state."""
    rng = random.Random(4)
    for g in range(20):
        a = random_play(game.new_initial_state(seed=g), rng)
        b = game.replay(g, a.history)
        assert a.to_bytes() == b.to_bytes()
        c = game.new_initial_state(seed=g)
        for seat, action in a.history[: len(a.history) // 2]:
            c.apply(action, seat)
        d = game.replay(g, c.history)
        assert c.to_bytes() == d.to_bytes()
    starts = {game.new_initial_state(seed=s).state_bytes() for s in range(50)}
    assert len(starts) == 50, "different seeds should deal different games"


def test_views_never_leak(game: robotcore.Game) -> None:
    """Two states that differ only in what a seat cannot see give that seat identical views, legal actions
    and observations (resample_hidden makes such a state). The test also checks it is not vacuous: the
    resampled states really differ from the originals."""
    rng = random.Random(5)
    changed = compared = 0
    for g in range(60):
        state = random_play(game.new_initial_state(seed=g), rng, steps=rng.randrange(0, game.max_game_length))
        for seat in range(game.num_players):
            other = state.resample_hidden(seat, rng.getrandbits(64))
            compared += 1
            changed += other.state_bytes() != state.state_bytes()
            assert other.view(seat) == state.view(seat)
            assert other.view(None) == state.view(None)
            assert other.actors == state.actors
            assert other.legal_actions(seat) == state.legal_actions(seat)
            assert np.array_equal(other.observation(seat), state.observation(seat))
            json.dumps(state.view(seat))
            # the re-dealt state is a valid state of the game, and it plays on to the end
            again = game.from_bytes(other.to_bytes())
            random_play(again, rng)
    assert changed > compared * 0.8


def test_resampling_depends_only_on_what_the_seat_knows(game: robotcore.Game) -> None:
    """resample_hidden(seat, seed) is a function of the seat's information and the seed: two states the seat
    cannot tell apart give the same re-dealt world. Otherwise a seeded sample (a bot's proposal with a known
    seed, say) would carry the true hidden cards out through the way they were shuffled."""
    rng = random.Random(9)
    compared = 0
    for g in range(40):
        state = random_play(game.new_initial_state(seed=g), rng, steps=rng.randrange(0, game.max_game_length))
        for seat in range(game.num_players):
            twin = state.resample_hidden(seat, rng.getrandbits(64))
            assert twin.view(seat) == state.view(seat)
            seed = rng.getrandbits(64)
            assert twin.resample_hidden(seat, seed).state_bytes() == state.resample_hidden(seat, seed).state_bytes()
            compared += twin.state_bytes() != state.state_bytes()
    assert compared > min(40, 20 * game.num_players)      # 40 games x seats tries: a solo game has 40


def test_resampling_ignores_which_hidden_choice_another_seat_made(game: robotcore.Game) -> None:
    """Twins from play, not from the resampler: another seat makes one hidden choice or another, and the seat
    cannot tell which; the same seed must then give it the same world (every seat's view of it equal). In
    Scrapyard the card another seat kept steered the world: the kept mark sat at another place in the deal, so
    the search bots chose differently in states the seat could not tell apart (search review)."""
    rng = random.Random(4)
    twins = 0
    for g in range(4):
        state = game.new_initial_state(seed=g)
        while not state.is_terminal and state.move_number < 60:
            for other in state.actors:
                legal = state.legal_actions(other)
                if len(legal) < 2:
                    continue
                for second in {legal[1], legal[-1]}:
                    a, b = state.clone(), state.clone()
                    a.apply(legal[0], other)
                    b.apply(second, other)
                    for seat in range(game.num_players):
                        if seat != other and a.view(seat) == b.view(seat):
                            seed = rng.getrandbits(64)
                            wa, wb = a.resample_hidden(seat, seed), b.resample_hidden(seat, seed)
                            assert [wa.view(p) for p in range(game.num_players)] == [
                                wb.view(p) for p in range(game.num_players)], (g, state.move_number, other, seat)
                            twins += 1
            seat = state.current_player
            state.apply(rng.choice(state.legal_actions(seat)), seat)
    if game.name in ("robotrick", "scrapyard", "nicodemus"):     # (not vacuous where hidden choices are common:
        assert twins > 0                                          # Sparks' are public, Smartphone's rare)


def _with_rng_of(game: robotcore.Game, world: robotcore.State, original: robotcore.State) -> robotcore.State:
    """``world`` with ``original``'s PRNG (the first 8 bytes of every state struct, by convention), so that
    chance draws the same numbers in both."""
    raw = bytearray(world.state_bytes())
    raw[:8] = original.state_bytes()[:8]
    return game.state_from_row(np.frombuffer(bytes(raw), dtype=np.uint8))


def test_public_actions_reveal_nothing_hidden(game: robotcore.Game) -> None:
    """Hidden information through transitions: a public action of another seat, applied to the real state and
    to one whose hidden part (for the observer) is re-dealt with the same PRNG, leaves the observer the same
    view, observation, legal actions and actors, unless the action drew chance. This catches leaks through
    automata and forced moves that depend on what the observer cannot see (e.g. the engine answering a prompt
    by itself because a hidden hand allows a single answer)."""
    if game.num_players == 1:
        pytest.skip("a single seat: no other seat's action to observe")
    rng = random.Random(11)
    compared = 0
    for g in range(25):
        state = game.new_initial_state(seed=g)
        while not state.is_terminal:
            observer = rng.randrange(game.num_players)
            other = _with_rng_of(game, state.resample_hidden(observer, rng.getrandbits(64)), state)
            for seat in state.actors:
                if seat == observer:
                    continue
                both = sorted(set(state.legal_actions(seat)) & set(other.legal_actions(seat)))
                for action in rng.sample(both, min(4, len(both))):
                    if not game.is_public_action(action):
                        continue
                    a, b = state.clone(), other.clone()
                    a.apply(action, seat)
                    b.apply(action, seat)
                    if a.state_bytes()[:8] != state.state_bytes()[:8]:
                        # chance was drawn (e.g. a deal from the hidden deck): what it shows may differ between
                        # the two worlds without anything leaking
                        continue
                    assert a.actors == b.actors, game.action_to_str(action)
                    assert a.view(observer) == b.view(observer), game.action_to_str(action)
                    assert a.legal_actions(observer) == b.legal_actions(observer)
                    assert np.array_equal(a.observation(observer), b.observation(observer))
                    compared += 1
            seat = rng.choice(state.actors)
            state.apply(rng.choice(state.legal_actions(seat)), seat)
    if compared == 0 and not any(game.is_public_action(a) for a in range(game.num_actions)):
        pytest.skip(f"{game.name} has no public action (every action is a hidden commitment)")
    assert compared > 100


def test_the_prng_is_the_first_word_of_the_state(game: robotcore.Game) -> None:
    """The convention the test above relies on: changing the first 8 bytes changes future chance only."""
    rng = random.Random(12)
    state = random_play(game.new_initial_state(seed=3), rng, steps=5)
    raw = bytearray(state.state_bytes())
    raw[:8] = (int.from_bytes(raw[:8], "little") ^ 0xDEADBEEF12345678).to_bytes(8, "little")
    other = game.state_from_row(np.frombuffer(bytes(raw), dtype=np.uint8))
    for seat in range(game.num_players):
        assert other.view(seat) == state.view(seat)
    rows = np.stack([np.frombuffer(state.state_bytes(), np.uint8), np.frombuffer(bytes(raw), np.uint8)]).copy()
    batch.random_playouts(game, rows[:1], 5)
    batch.random_playouts(game, rows[1:], 5)
    assert not np.array_equal(rows[0], rows[1]), "the first word should steer chance"


def test_resample_keeps_everything_but_hidden_future(game: robotcore.Game) -> None:
    """The continuation of a resampled state is not fixed by the original's PRNG (no peeking at future chance
    through the determinised state)."""
    rng = random.Random(6)
    for g in range(10):
        state = random_play(game.new_initial_state(seed=g), rng, steps=rng.randrange(0, 40))
        if state.is_terminal:
            continue
        a = state.resample_hidden(state.actors[0], 1)
        b = state.resample_hidden(state.actors[0], 1)
        c = state.resample_hidden(state.actors[0], 2)
        assert a.to_bytes() == b.to_bytes()
        assert a.state_bytes() != c.state_bytes()


def test_observations(game: robotcore.Game) -> None:
    state = random_play(game.new_initial_state(seed=0), random.Random(7), steps=20)
    for seat in range(game.num_players):
        obs = state.observation(seat)
        assert obs.dtype == np.float32 and obs.shape == game.observation_shape
        assert np.isfinite(obs).all()


def test_seats_and_states_are_checked_before_compiled_code(game: robotcore.Game) -> None:
    """Every method handing a state and a seat to the compiled views or engine checks both first: a seat out of
    range (or None where a seat is needed: a tensor, a re-deal) is an InvalidSeatError, and a state of another
    game or variant an InvalidParameterError, never a read past the struct (a crash, or garbage). At the end
    too, when no seat acts."""
    state = random_play(game.new_initial_state(seed=0), random.Random(9), steps=25)
    over = random_play(game.new_initial_state(seed=1), random.Random(9), steps=100_000)
    assert over.is_terminal
    n = game.num_players
    for s in (state, over):
        for bad in (-1, n, 10**6, -(10**7)):
            for call, args in [(s.view, (bad,)), (s.observation, (bad,)), (s.resample_hidden, (bad, 1)),
                               (game.view, (s, bad)), (game.observation, (s, bad)),
                               (game.resample_hidden, (s, bad, 1)), (game.evaluate, (s, bad))]:
                with pytest.raises(InvalidSeatError):
                    call(*args)
        for call, args in [(s.observation, (None,)), (s.resample_hidden, (None, 1)), (game.observation, (s, None)),
                           (s.view, (True,)), (s.view, (1.0,)), (s.legal_actions, ("0",))]:
            with pytest.raises(InvalidSeatError):
                call(*args)
    strangers = [robotcore.make(other, seed=2) for other in robotcore.list_games() if other != game.name]
    strangers += [robotcore.load_game(game.name, **p).new_initial_state(3) for p in game.variants
                  if robotcore.load_game(game.name, **p) != game]
    for stranger in strangers:
        calls = [(game.view, (stranger, 0)), (game.view, (stranger, None)), (game.observation, (stranger, 0)),
                 (game.omniscient_view, (stranger,)), (game.resample_hidden, (stranger, 0, 1)),
                 (game.evaluate, (stranger, 0)), (game.render, (stranger,))]
        calls += [(getattr(game, m), (stranger,)) for m in ("fields", "score_parts", "droco_card") if hasattr(game, m)]
        for call, args in calls:
            with pytest.raises(robotcore.InvalidParameterError):
                call(*args)
    with pytest.raises(robotcore.InvalidParameterError):
        game.view("not a state", 0)  # type: ignore[arg-type]
    with pytest.raises(InvalidActionError):
        state.apply_str(None)  # type: ignore[arg-type]
    # a batch row holds bytes: a float or a value past 255 is refused, not wrapped into another byte
    row = np.frombuffer(state.state_bytes(), dtype=np.uint8)
    assert game.state_from_row(row.astype(np.int64)).state_bytes() == state.state_bytes()
    for bad in (row.astype(np.float64), row.astype(np.int64) + 256):
        with pytest.raises(CorruptStateError):
            game.state_from_row(bad)


def test_a_cached_game_never_answers_for_a_value_it_would_refuse() -> None:
    """``load_game`` caches games by their parameters: 20 == 20.0 and 1 == True, yet a game refuses the float
    and the bool where it takes an int, whichever call came first."""
    for name, key, good, bad in [("nicodemus", "end_score", 20, 20.0), ("robotrick", "hangars", 3, 3.0),
                                 ("robotrick", "same_ai_card", True, 1), ("robotrick", "hangars", 1, True)]:
        for _ in range(2):
            with pytest.raises(robotcore.InvalidParameterError):
                robotcore.load_game(name, **{key: bad})
            robotcore.load_game(name, **{key: good})


def test_clone_copy_pickle(game: robotcore.Game) -> None:
    state = random_play(game.new_initial_state(seed=0), random.Random(8), steps=15)
    for twin in (state.clone(), copy.copy(state), copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert twin == state and twin.history == state.history and twin is not state
        assert twin.to_bytes() == state.to_bytes()


def test_a_game_copies_as_itself_and_pickles_by_its_parameters(game: robotcore.Game) -> None:
    """A game is immutable: ``copy`` and ``deepcopy`` give the game itself (a deep copy of what holds a game, an
    OpenSpiel state or a list of states, builds no new game), and pickling still rebuilds an equal game."""
    assert copy.copy(game) is game and copy.deepcopy(game) is game
    holder = {"game": game, "states": [game.new_initial_state(seed=1)]}
    twin = copy.deepcopy(holder)
    assert twin["game"] is game and twin["states"][0].game is game and twin["states"][0] is not holder["states"][0]
    again = pickle.loads(pickle.dumps(game))
    assert again == game and again is not game


def test_generic_and_game_playout_loops_agree(game: robotcore.Game) -> None:
    a = game.new_batch(np.arange(200, dtype=np.uint64))
    b = a.copy()
    na = batch.random_playouts(game, a, seed=3)
    nb = batch.random_playout_generic(game, b, seed=3)
    assert np.array_equal(na, nb) and np.array_equal(a, b)


def test_batch_threads_match_one_thread(game: robotcore.Game) -> None:
    a = game.new_batch(np.arange(500, dtype=np.uint64))
    b = a.copy()
    assert np.array_equal(batch.random_playouts(game, a, 9), batch.random_playouts(game, b, 9, threads=2))
    assert np.array_equal(a, b)


def test_batch_step_matches_python_api(game: robotcore.Game) -> None:
    rng = np.random.default_rng(0)
    n = 64
    arr = game.new_batch(np.arange(n, dtype=np.uint64))
    states = [game.new_initial_state(seed=i) for i in range(n)]
    for _ in range(game.max_game_length):
        masks = batch.legal_masks(game, arr)
        actions = np.array(
            [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks], dtype=np.int32
        )
        status = batch.step(game, arr, actions)
        for i, st in enumerate(states):
            if st.is_terminal:
                assert status[i] == batch.ALREADY_OVER
            else:
                st.apply(int(actions[i]))
                assert status[i] == batch.APPLIED
            assert st.state_bytes() == arr[i].tobytes()
        if all(s.is_terminal for s in states):
            break
    assert all(s.is_terminal for s in states)
    # an illegal action leaves the row as it was
    fresh = game.new_batch(np.array([5], dtype=np.uint64))
    legal = set(np.flatnonzero(batch.legal_masks(game, fresh)[0]))
    bad = next(a for a in range(game.num_actions) if a not in legal)
    before = fresh.copy()
    assert batch.step(game, fresh, np.array([bad], dtype=np.int32))[0] == batch.ILLEGAL
    assert np.array_equal(before, fresh)
    # any integer array or a list, as new_batch takes seeds; a value past int32 is no action id (never wrapped
    # into one: 2**32 + a is not a), and a float array is refused
    good = int(min(legal))
    for given in ([good], np.array([good], dtype=np.int64), np.array([good], dtype=np.uint16)):
        row = batch.new_states(game, [5])
        assert np.array_equal(row, before) and batch.step(game, row, given)[0] == batch.APPLIED
    wide = batch.new_states(game, np.array([5], dtype=np.int64))
    assert batch.step(game, wide, np.array([2**32 + good], dtype=np.int64))[0] == batch.ILLEGAL
    assert batch.step(game, wide, [2**70])[0] == batch.ILLEGAL          # (past int64: an object array)
    assert np.array_equal(wide, before)
    # a list mixing 2**63 and -2**63, which numpy turns into floats: read one by one, never "got float64"
    four = game.new_batch(np.array([5, 5, 5, 5], dtype=np.uint64))
    assert list(batch.step(game, four, [good, 2**63, -(2**63), True and good])) == [
        batch.APPLIED, batch.ILLEGAL, batch.ILLEGAL, batch.APPLIED]
    with pytest.raises(robotcore.InvalidParameterError):
        batch.step(game, four, [good, True, good, good])                 # a bool is no action id
    with pytest.raises(robotcore.InvalidParameterError):
        batch.step(game, wide, np.array([float(good)]))


def test_corrupt_rows_are_refused(game: robotcore.Game) -> None:
    rng = np.random.default_rng(1)
    junk = rng.integers(0, 256, size=(50, game.state_size), dtype=np.uint8)
    assert (batch.random_playouts(game, junk, 1) == batch.PLAYOUT_INVALID_ROW).all()
    assert (batch.step(game, junk, np.zeros(50, dtype=np.int32)) == batch.INVALID_ROW).all()
    with pytest.raises(CorruptStateError):
        batch.legal_masks(game, junk)
    with pytest.raises(CorruptStateError):
        batch.random_playouts(game, np.zeros((2, game.state_size + 1), dtype=np.uint8), 1)
    with pytest.raises(CorruptStateError):
        game.state_from_row(junk[0])


def test_outcome_and_returns(game: robotcore.Game) -> None:
    rng = random.Random(10)
    for g in range(30):
        state = game.new_initial_state(seed=g)
        assert state.outcome() is None and state.returns() == [0.0] * game.num_players
        random_play(state, rng)
        out = state.outcome()
        assert out is not None and out.scores == tuple(state.scores())
        keys = state.rank_keys()
        best = max(keys)
        if game.num_players > 1:
            assert out.winners == tuple(s for s, k in enumerate(keys) if k == best)
        else:                               # a solo game may be lost (its goal: EngineSpec.solo_won)
            assert out.winners in ((), (0,)) and out.places == (0,)
        assert state.returns() == [1.0 / len(out.winners) if s in out.winners else 0.0
                                   for s in range(game.num_players)]
        json.dumps(out.to_json())


def test_unknown_names_and_parameters() -> None:
    with pytest.raises(robotcore.UnknownGameError):
        robotcore.make("chess")
    for name in robotcore.list_games():
        with pytest.raises(robotcore.InvalidParameterError):
            robotcore.make(name, no_such_parameter=1)
        with pytest.raises(robotcore.InvalidParameterError):
            robotcore.make(name, players=99)


def test_determinisations_come_without_history(game: robotcore.Game) -> None:
    """A re-dealt world's past is not the game's: the copy's history would hold the real game's hidden
    choices of other seats (Robotrick kept earlier rounds' passes), so resample_hidden drops it."""
    rng = random.Random(21)
    for g in range(5):
        state = random_play(game.new_initial_state(seed=g), rng, steps=rng.randrange(1, 200))
        if state.is_terminal:
            continue
        for seat in range(game.num_players):
            world = state.resample_hidden(seat, g)
            assert world.history == [] and state.history
            assert world.view(seat) == state.view(seat)


def test_the_glossary_names_what_views_show(game: robotcore.Game) -> None:
    """``Game.glossary()``: each entry a readable name and a one-line text, plain JSON; its ids are ids the views
    show (most of them within a few random games), and every game whose views name content by id has one
    (Robotrick's cards say what they are: "R7" is the red 7)."""
    glossary = game.glossary()
    json.dumps(glossary)
    for key, entry in glossary.items():
        assert isinstance(key, str) and key, key
        assert set(entry) == {"name", "text"}, (key, entry)
        assert isinstance(entry["name"], str) and entry["name"].strip(), key
        assert isinstance(entry["text"], str) and entry["text"].strip() and "\n" not in entry["text"], key
    if game.name == "robotrick":
        assert glossary == {}
        return
    assert glossary, f"{game.name} views name content by id: give it a glossary"
    seen = strings_views_show(game, range(6), share=0.2)
    shown = set(glossary) & seen
    assert len(shown) >= len(glossary) // 2, f"ids no view showed: {sorted(set(glossary) - seen)[:20]}"
