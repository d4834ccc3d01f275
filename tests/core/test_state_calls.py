"""The Python step's shortcuts (State's per-state mask cache, legal_actions' recycled lists) change no result.

``legal_actions``, ``legal_mask``, ``is_legal`` and ``apply`` share one legal mask per state and seat until the
state changes, and ``legal_actions`` refills a list its previous caller has dropped. These tests try to catch
either one showing through: a list a caller still holds being changed, a mask of one seat answering for
another, a stale mask after a change, a rejected move disturbing anything.
"""

from __future__ import annotations

import gc
import random

import numpy as np
import pytest

import robotcore
from robotcore.errors import IllegalActionError, InvalidActionError, NotYourTurnError

from ..conftest import random_play


def _reference(state: robotcore.State, seat: int) -> list[int]:
    """Legal actions recomputed on a fresh copy (from bytes: no cache, no recycled list)."""
    return [int(a) for a in np.flatnonzero(state.game.from_bytes(state.to_bytes()).legal_mask(seat))]


def test_every_caller_gets_a_list_of_its_own(default_game: robotcore.Game) -> None:
    rng = random.Random(5)
    state = default_game.new_initial_state(3)
    held: list[tuple[list[int], list[int]]] = []      # (a list returned, a copy of it when returned)
    while not state.is_terminal and len(held) < 200:
        seat = state.current_player
        first = state.legal_actions()
        second = state.legal_actions(seat)
        assert first == second == _reference(state, seat)
        assert first is not second
        first.append(-1)                               # changing one changes no other, nor the next answer
        assert state.legal_actions() == second
        first.pop()
        if rng.random() < 0.3:
            held.append((first, list(first)))
        a = rng.choice(second)
        del first, second                              # dropped: free to be recycled
        state.apply(a)
    assert held
    for lst, copy in held:                             # none of the lists kept was refilled by a later call
        assert lst == copy


def test_dropped_lists_refilled_after_any_use(default_game: robotcore.Game) -> None:
    """A caller may fill a list with anything before dropping it, even objects whose finaliser calls
    legal_actions again; the next calls still answer right."""
    state = random_play(default_game.new_initial_state(11), random.Random(11), steps=5)
    expected = _reference(state, state.current_player)
    answers: list[list[int]] = []

    class Reentrant:
        def __del__(self) -> None:
            answers.append(state.legal_actions())

    for trial in range(6):
        lst = state.legal_actions()
        if trial % 3 == 0:
            lst.extend(Reentrant() for _ in range(3))
        elif trial % 3 == 1:
            lst.clear()
        else:
            lst.extend(range(10_000))                  # grown past the size of any answer
        del lst
        gc.collect()
        assert state.legal_actions() == expected
    assert answers and all(a == expected for a in answers)


def test_objects_put_in_dropped_lists_are_released(default_game: robotcore.Game) -> None:
    """The lists hold the action ids without counting them (the ids are pinned, see ``rc_pin_ids``), and a dropped
    list still holding exactly those ids is refilled without releasing them; anything else a caller put in it,
    in place of an id or past them, or an equal int that is another object, is released exactly once."""
    import sys
    import weakref

    class Token:
        pass

    state = random_play(default_game.new_initial_state(12), random.Random(12), steps=3)
    expected = _reference(state, state.current_player)
    big = int("9" * 30)                                 # not an id, and no cached object: counted exactly
    before = sys.getrefcount(big)
    for trial in range(8):
        lst = state.legal_actions()
        token = Token()
        dead = weakref.ref(token)
        if trial % 4 == 0:
            lst[0] = token                             # in place of an id: the size is unchanged
        elif trial % 4 == 1:
            lst[-1] = big
        elif trial % 4 == 2:
            lst.append(token)
            lst.append(big)
        else:
            lst[0] = int(str(lst[0] + 10_000)) - 10_000   # equal to the id, another object when past 256
            lst.insert(0, token)
        del token, lst
        assert state.legal_actions() == expected       # the dropped list refilled (or replaced)
        assert state.legal_actions() == expected
        assert dead() is None, f"trial {trial}: an object put in a dropped list was never released"
        assert sys.getrefcount(big) == before, f"trial {trial}"
    ids = state.legal_actions()
    assert [int(str(a)) for a in ids] == expected and all(sys.getrefcount(a) > 2 for a in ids)


def test_a_stale_slot_never_passes_for_an_id(default_game: robotcore.Game) -> None:
    """A list keeps, past its size, what a caller's append and pop left there; refilled and dropped, then given the
    same object again, it must still release it (the refill's copy of the slots may hold nothing but ids)."""
    import weakref

    class Token:
        pass

    rng = random.Random(13)
    state = default_game.new_initial_state(13)
    while not state.is_terminal and not 8 <= len(state.legal_actions()) <= 15:
        state.apply(rng.choice(state.legal_actions()))    # a pop at 8 or more keeps the list's storage
    if state.is_terminal:
        pytest.skip("no decision with 8 to 15 actions in this game")
    expected = _reference(state, state.current_player)
    token = Token()
    dead = weakref.ref(token)
    lst = state.legal_actions()
    lst.append(token)
    lst.pop()                                          # the slot past the ids still points at token
    del lst
    assert state.legal_actions() == expected           # refilled after the full release, the stale slot kept
    lst = state.legal_actions()
    lst.append(token)                                  # the same object, counted, where the stale pointer was
    del lst
    assert state.legal_actions() == expected
    del token
    assert state.legal_actions() == expected
    assert dead() is None, "an object put in a dropped list was never released"


def test_each_seat_has_its_own_mask(default_game: robotcore.Game) -> None:
    """In a simultaneous phase, asking for one seat's actions never lets another seat play them."""
    rng = random.Random(7)
    checked = 0
    for g in range(30):
        state = default_game.new_initial_state(g)
        while not state.is_terminal and checked < 40:
            actors = state.actors
            if len(actors) >= 2:
                s, t = actors[0], actors[1]
                only_t = sorted(set(_reference(state, t)) - set(_reference(state, s)))
                if only_t:
                    before = state.to_bytes()
                    assert state.legal_actions(t) == _reference(state, t)
                    with pytest.raises(IllegalActionError):
                        state.apply(only_t[0], s)
                    assert not state.is_legal(only_t[0], s) and state.is_legal(only_t[0], t)
                    assert state.to_bytes() == before
                    assert state.legal_actions(s) == _reference(state, s)
                    assert list(np.flatnonzero(state.legal_mask(t))) == _reference(state, t)
                    checked += 1
            seat = rng.choice(actors)
            state.apply(rng.choice(state.legal_actions(seat)), seat)
    if default_game.name == "robotrick":                # its pass is simultaneous: the case must have come up
        assert checked


def test_answers_follow_every_change(default_game: robotcore.Game) -> None:
    """After each apply (and after each rejected one) every query answers for the state as it is now."""
    rng = random.Random(9)
    state = default_game.new_initial_state(21)
    while not state.is_terminal:
        actors = state.actors
        seat = rng.choice(actors)
        legal = state.legal_actions(seat)
        illegal = sorted(set(range(default_game.num_actions)) - set(legal))
        before = state.to_bytes()
        if illegal:
            with pytest.raises(IllegalActionError):
                state.apply(rng.choice(illegal), seat)
        with pytest.raises(InvalidActionError):
            state.apply(default_game.num_actions, seat)
        idle = [s for s in range(default_game.num_players) if s not in actors]
        if idle:
            with pytest.raises(NotYourTurnError):
                state.apply(legal[0], idle[0])
            assert state.legal_actions(idle[0]) == [] and not state.legal_mask(idle[0]).any()
        assert state.to_bytes() == before and state.legal_actions(seat) == legal
        assert list(np.flatnonzero(state.legal_mask(seat))) == legal
        state.apply(rng.choice(legal), seat)
        for s in state.actors:
            assert state.legal_actions(s) == _reference(state, s)
    assert state.legal_actions() == [] and not state.legal_mask(0).any()


def test_lists_from_the_named_words_are_the_full_masks(game: robotcore.Game) -> None:
    """An engine that names the mask words it wrote (``EngineSpec.legal_mask_words``: Scrapyard, Sparks) gets the
    same lists as a scan of every word of its ``legal_mask`` (what ``batch.legal_masks`` reads), in every variant
    (Scrapyard's mask is 37 to 41 words wide depending on the deck and the workbenches)."""
    from robotcore.core import batch

    if game.name in ("scrapyard", "sparks"):
        assert game.core.native_mask_words
    rng = random.Random(13)
    steps = 0
    for g in range(3):
        state = game.new_initial_state(500 + g)
        while not state.is_terminal and steps < 600:
            row = np.frombuffer(state.state_bytes(), dtype=np.uint8)[None, :].copy()
            full = [int(a) for a in np.flatnonzero(batch.legal_masks(game, row)[0])]
            assert state.legal_actions() == full
            state.apply(rng.choice(full))
            steps += 1


def test_apply_reads_any_integer_action_as_before(default_game: robotcore.Game) -> None:
    """``apply`` reads small exact ints straight from the object; every other integer takes the general path."""

    class Sub(int):
        pass

    state = default_game.new_initial_state(4)
    a = state.legal_actions()[0]
    before = state.to_bytes()
    for bad in (-1, -(2**70), 2**31, 2**64, 2**100, default_game.num_actions):
        with pytest.raises(InvalidActionError):
            state.apply(bad)
        assert state.to_bytes() == before
    for bad_type in (True, 1.0, "1"):
        with pytest.raises(InvalidActionError):
            state.apply(bad_type)
    for same in (np.int64(a), np.uint16(a), Sub(a)):
        c = state.clone()
        c.apply(same)
        d = state.clone()
        d.apply(a)
        assert c == d and c.history == d.history == [(state.current_player, a)]


_LISTS_DIGEST = """
import hashlib, random, robotcore
from robotcore.core.state import LIST_COMPRESS
h = hashlib.sha256()
for name in robotcore.list_games():
    game = robotcore.load_game(name)
    for seed in range(6):
        rng, state = random.Random(seed), game.new_initial_state(seed)
        while not state.is_terminal:
            for seat in state.actors:
                h.update(repr(state.legal_actions(seat)).encode())
            state.apply(rng.choice(state.legal_actions()))
print(int(LIST_COMPRESS), h.hexdigest())
"""


def test_the_compress_lists_and_the_portable_lists_are_the_same() -> None:
    """``legal_actions`` decodes its masks by AVX-512 VBMI2's compress where the CPU has it (core/bits.h) and by
    loops elsewhere; ROBOTCORE_PORTABLE_BITS=1 forces the loops in a second interpreter, and every list of six
    random games of every game, for every acting seat, must be the same."""
    import os
    import subprocess
    import sys

    def run(portable: bool) -> list[str]:
        # the debug allocator: a store past a list's room corrupts its guard bytes and aborts the interpreter
        env = dict(os.environ, ROBOTCORE_PORTABLE_BITS="1" if portable else "0", PYTHONMALLOC="debug")
        out = subprocess.run([sys.executable, "-c", _LISTS_DIGEST], env=env, capture_output=True, text=True,
                             check=True, timeout=600)
        return out.stdout.split()

    fast, portable = run(False), run(True)
    assert portable[0] == "0"           # the variable took effect
    if fast[0] == "0":
        pytest.skip("the compress lists are not used here (no Intel CPU with AVX-512 VBMI2, or a Python that "
                    "stores the ids counted): the loops only")
    assert fast[1] == portable[1]


class _Mover:
    """Plays random moves on ``state`` when it runs: from a finalizer (``__del__``) or a seat's ``__index__`` —
    Python code that runs inside a State method, in the middle of its call. ``log`` counts the moves played."""

    def __init__(self, state: robotcore.State, moves: int, log: list[int], value: int = 0) -> None:
        self.state, self.moves, self.log, self.value = state, moves, log, value

    def play(self) -> None:
        rng = random.Random(self.moves)
        for _ in range(self.moves):
            if self.state.is_terminal:
                break
            seat = self.state.actors[0]
            self.state.apply(rng.choice(self.state.legal_actions(seat)), seat)
            self.log.append(1)

    def __del__(self) -> None:
        self.play()

    def __index__(self) -> int:
        self.play()
        return self.value


def test_code_run_by_a_recycled_list_cannot_disturb_the_list_being_made(game: robotcore.Game) -> None:
    """``legal_actions`` refills a list its caller dropped, which drops what the caller left in it: a finalizer
    that plays moves on the same state (enough to move its memory as the history grows) ran in the middle of the
    call, which then read the old mask from freed memory (valgrind: invalid reads; Sparks: a segfault, found by
    fuzzing). The list is the legal actions of the state as the call found it."""
    for seed in range(4):
        state = game.new_initial_state(seed)
        log: list[int] = []
        spare = state.clone().legal_actions()
        spare.append(_Mover(state, 40, log))
        del spare                               # a spare list now, the only holder of the mover
        for _ in range(3):                      # a call takes that spare (the other may serve first)
            seat = state.current_player
            before = _reference(state, seat)
            got = state.legal_actions(seat)
            if log:
                break
        assert log, "the mover never ran: the test did not reach the case"
        assert got == before
        robotcore.from_bytes(state.to_bytes())  # the state the mover left is one the engine accepts


def test_a_seat_whose_index_plays_moves_is_checked_against_the_state_after_it(game: robotcore.Game) -> None:
    """``apply(a, seat)`` and ``legal_actions(seat)`` read the actors, then converted the seat by its
    ``__index__`` (Python code): one that played a move left them applying for a seat no longer acting (a state
    the engine's own check refused: found by fuzzing). The conversion now comes first, or the checks run again."""
    rng = random.Random(7)
    for seed in range(20):
        state = game.new_initial_state(seed)
        for _ in range(rng.randrange(0, 30)):
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal:
            continue
        seat = state.current_player
        log: list[int] = []
        try:
            state.apply(rng.choice(state.legal_actions(seat)), _Mover(state, 1, log, seat))
        except robotcore.RobotcoreError:
            pass                                  # refused against the state after the move: nothing applied
        assert log
        robotcore.from_bytes(state.to_bytes())    # whatever happened, a state the engine accepts
        if not state.is_terminal:
            mover = _Mover(state, 1, log, state.current_player)
            listed = state.legal_actions(mover)
            assert listed == (_reference(state, mover.value) if mover.value in state.actors else [])


def test_replay_refuses_a_malformed_history_with_a_robotcore_error(default_game: robotcore.Game) -> None:
    """``Game.replay`` unpacked each item bare: a pair of three gave ``ValueError: too many values to unpack``
    and a number in place of the list a ``TypeError`` (found by fuzzing)."""
    state = default_game.new_initial_state(1)
    seat = state.current_player
    good = [(seat, state.legal_actions(seat)[0])]
    state.apply(good[0][1], seat)
    assert default_game.replay(1, good) == state
    for bad in ([(0, 0, 0)], [(1,)], 5, [(0, "x")], [None]):
        with pytest.raises(robotcore.RobotcoreError):
            default_game.replay(1, bad)  # type: ignore[arg-type]


def test_replay_takes_the_rows_of_a_history_array_and_names_the_item_it_refuses(default_game: robotcore.Game) -> None:
    """An ``(N, 2)`` integer array (``np.array(state.history)``, how RL code stores a history) was refused as
    "action must be an integer, not ndarray"; and only a pair of the wrong length said where it was."""
    rng = random.Random(5)
    state = default_game.new_initial_state(4)
    for _ in range(12):
        if state.is_terminal:
            break
        seat = state.current_player
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    rows = np.array(state.history)
    assert rows.shape == (len(state.history), 2)
    assert default_game.replay(4, rows) == state
    assert default_game.replay(4, [list(pair) for pair in state.history]) == state
    first = state.history[0]
    for bad, error in (([first, "x"], robotcore.InvalidActionError),
                       ([first, (state.history[1][0], default_game.num_actions)], robotcore.InvalidActionError),
                       ([first, first], robotcore.IllegalActionError)):
        with pytest.raises(error, match="^history item 1: "):
            default_game.replay(4, bad)


def test_bytes_of_another_game_say_what_differs() -> None:
    """A state's header names its game, parameters and content digest: the refusal says which of them differs,
    and how to read a custom-content state (API review: it said "another game, parameter set or content" for
    all three, though only ``content=`` loads the last)."""
    from robotcore.games.robotrick import RobotrickContent

    default = robotcore.make("robotrick", seed=3)
    double = RobotrickContent(vp=tuple(2 * v for v in RobotrickContent.default().vp),
                              ai_cards=RobotrickContent.default().ai_cards)
    custom = robotcore.load_game("robotrick", content=double).new_initial_state(3)
    cases = [
        (robotcore.load_game("scrapyard"), default, r"a state of 'robotrick', not of 'scrapyard'"),
        (robotcore.load_game("robotrick", hangars=4), default, r"robotrick with other parameters: .*'hangars': 3"),
        (robotcore.load_game("robotrick"), custom, r"robotrick with other content .*: load them with that content"),
        (custom.game, default, r"robotrick with other content"),
    ]
    for game, state, message in cases:
        with pytest.raises(robotcore.CorruptStateError, match=message):
            game.from_bytes(state.to_bytes())
    with pytest.raises(robotcore.CorruptStateError, match="content=..."):
        robotcore.from_bytes(custom.to_bytes())
    assert robotcore.from_bytes(custom.to_bytes(), content=double) == custom
