"""The observation tensor keeps what perfect recall keeps (RULES.md, "Observation"): the assistants a seat saw in
the draft hands it held and the last step it saw each, the robot cards it knows under the deck, in another seat's
refill and in its own draw; only the seat's own knowledge sets them."""

from __future__ import annotations

import random

import numpy as np

import robotcore
from robotcore.games.sparks import SparksContent
from robotcore.games.sparks import view as sparks_view
from robotcore.games.sparks.data import COLOURS, SYMBOLS

from .scenario import hold_recycled
from .test_reference import stress_content

BASE = 4 * 240 + 96 + 112          # the recall block follows the seat blocks, the globals and the own block
SEEN, STEP, UNDER, REFILL, OWN_DRAW = BASE, BASE + 32, BASE + 64, BASE + 128, BASE + 192
MORE = BASE + 256                   # then the public facts appended: per seat Conrad's copy and the uses this turn
SEAT_MORE, BONUS_SPACE = 32 + 6, 12 + 1 + 4
BONUSES = MORE + 4 * SEAT_MORE      # each bonus space's tile: its kind, amount and colour
HELD = BONUSES + 16 * BONUS_SPACE   # per seat the die held for Recycle (colour, value / 6) and its reroll mark
USES = ("frank", "octavia", "adjust", "reroll_one", "ignore_value", "emma")


def _content(game: robotcore.Game) -> SparksContent:
    assert isinstance(game.content, SparksContent)
    return game.content


def _names(game: robotcore.Game, obs: np.ndarray, at: int, n: int, names: tuple[str, ...]) -> set[str]:
    return {names[i] for i in range(min(n, len(names))) if obs[at + i]}


def _check_against_view(state: robotcore.State, seat: int) -> None:
    """The recall floats say what the view says, no more."""
    game = state.game
    obs = state.observation(seat)
    v = state.view(seat)
    anames, rnames = _content(game).assistant_names, _content(game).robot_names
    seen = {a for hand in v["draft_seen"] for a in hand}
    assert _names(game, obs, SEEN, 32, anames) == seen
    for a in range(32):
        if a < len(anames) and anames[a] in seen:
            last = max(k for k, hand in enumerate(v["draft_seen"]) if anames[a] in hand)
            assert obs[STEP + a] == np.float32((last + 1) / _content(game).hand_size)
        else:
            assert obs[STEP + a] == 0
    assert _names(game, obs, UNDER, 64, rnames) == {r for r in v["robot_deck"]["bottom"] if r is not None}
    assert _names(game, obs, REFILL, 64, rnames) == {r for drawn in v["drawn_known"] for r in drawn}
    assert _names(game, obs, OWN_DRAW, 64, rnames) == set(v["drawn"])


def test_the_observation_has_a_fixed_shape_with_the_recall_block() -> None:
    for params in ({"players": 1}, {"players": 2, "draft": True}, {"players": 4, "goals": 2}):
        game = robotcore.load_game("sparks", **params)
        size = BASE + 256 + 4 * SEAT_MORE + 16 * BONUS_SPACE + 4 * 6
        assert size == HELD + 4 * 6 == 1872
        assert game.observation_shape == (sparks_view.observation_size(),) == (size,)
        assert game.new_initial_state(0).observation(0).shape == (size,)


def _check_public_more(state: robotcore.State, seat: int) -> None:
    """The appended block says what the public view says: Conrad's copy, the uses this turn, the bonus tiles."""
    game = state.game
    content = _content(game)
    obs = state.observation(seat)
    v = state.view(None)
    n = game.num_players
    for rel in range(4):
        at = MORE + rel * SEAT_MORE
        if rel >= n:
            assert not obs[at:at + SEAT_MORE].any()
            continue
        p = v["players"][(seat + rel) % n]
        conrad = {content.assistant_names[i] for i in range(32) if obs[at + i]}
        assert conrad == ({p["conrad"]} if p["conrad"] else set())
        assert [obs[at + 32 + i] * 2 for i in range(6)] == [p["used"][u] for u in USES]
    symbols = {text: tile for text, tile in zip(content.bonus_texts, content.bonus_tiles)}
    for c, colour in enumerate(COLOURS):
        for k in range(4):
            at = BONUSES + (c * 4 + k) * BONUS_SPACE
            if k >= len(v["bonus"][colour]):
                assert not obs[at:at + BONUS_SPACE].any()
                continue
            tile = symbols[v["bonus"][colour][k]]
            assert [i for i in range(12) if obs[at + i]] == [SYMBOLS.index(tile.kind)]
            assert obs[at + 12] == np.float32(tile.n / 3)
            assert [i for i in range(4) if obs[at + 13 + i]] == ([COLOURS.index(tile.colour)] if tile.colour else [])


def test_the_public_facts_the_other_blocks_leave_out() -> None:
    """The bonus tiles' places, Conrad's copy and the once-per-turn uses are public (a second audit found them
    missing: two states differing only there gave every seat the same tensor)."""
    rng = random.Random(4)
    seen_conrad = seen_use = 0
    for params in ({"players": 1}, {"players": 3}, {"players": 4, "goals": 2}):
        game = robotcore.load_game("sparks", **params)
        for seed in range(15):
            state = game.new_initial_state(seed)
            while not state.is_terminal:
                if rng.random() < 0.1:
                    for seat in range(game.num_players):
                        _check_public_more(state, seat)
                    players = state.view(None)["players"]
                    seen_conrad += any(p["conrad"] for p in players)
                    seen_use += any(any(p["used"].values()) for p in players)
                state.apply(rng.choice(state.legal_actions()))
    assert seen_conrad and seen_use                  # the checks met both facts set


def test_a_draft_step_sets_the_passed_hand_in_the_passer_and_the_receiver_only() -> None:
    game = robotcore.load_game("sparks", players=4, draft=True)
    state = game.new_initial_state(3)
    anames = _content(game).assistant_names
    before = [state.observation(p) for p in range(4)]
    hands = [set(state.view(p)["draft_hand"]) for p in range(4)]
    for p in range(4):                                # step 0: each seat sees its own dealt hand, at step 0
        assert _names(game, before[p], SEEN, 32, anames) == hands[p]
        assert all(before[p][STEP + anames.index(a)] == np.float32(1 / 6) for a in hands[p])
    picks = {}
    for p in range(4):
        act = state.legal_actions(p)[0]
        picks[p] = game.action_to_str(act).split()[-1]
        state.apply(act, p)
    assert state.view(None)["phase"] == "draft" and len(state.view(0)["hand"]) == 1
    obs = [state.observation(p) for p in range(4)]
    passed = hands[0] - {picks[0]}                    # seat 0 passed these to seat 1
    assert len(passed) == 6
    for a in passed:
        i = anames.index(a)
        assert obs[0][SEEN + i] == 1 and obs[0][STEP + i] == np.float32(1 / 6)    # seen at step 0, passed on
        assert obs[1][SEEN + i] == 1 and obs[1][STEP + i] == np.float32(2 / 6)    # held now, at step 1
        assert obs[2][SEEN + i] == 0 and obs[3][SEEN + i] == 0                    # never held that hand
        assert obs[2][STEP + i] == 0 and obs[3][STEP + i] == 0
    assert obs[0][SEEN + anames.index(picks[0])] == 1                            # its own pick, at step 0
    for p in range(4):
        _check_against_view(state, p)


def test_the_draft_floats_are_zero_without_the_draft() -> None:
    game = robotcore.load_game("sparks", players=3)
    state = game.new_initial_state(0)
    rng = random.Random(0)
    for _ in range(40):
        seat = rng.choice(state.actors)
        state.apply(rng.choice(state.legal_actions(seat)), seat)
        for p in range(3):
            assert not state.observation(p)[SEEN:UNDER].any()


def test_a_card_returned_under_the_deck_shows_in_the_returners_observation_only() -> None:
    """At set-up each seat draws 4 robots, places 3 and returns the 4th under the deck, face down: it alone
    knows it (and while it holds the 4 cards, they show in its own draw block only)."""
    game = robotcore.load_game("sparks", players=3)
    state = game.new_initial_state(1)
    rnames = _content(game).robot_names
    first = state.view(None)["taker"]
    assert state.view(None)["phase"] == "refill"
    drawn = state.view(first)["drawn"]
    assert len(drawn) == 4
    for p in range(3):
        obs = state.observation(p)
        assert _names(game, obs, OWN_DRAW, 64, rnames) == (set(drawn) if p == first else set())
        assert not obs[REFILL:OWN_DRAW].any()                      # nobody else knows the drawer's cards
    while state.view(None)["taker"] == first and state.view(first)["drawn"]:
        state.apply(state.legal_actions(first)[0], first)
    bottom = game.omniscient_view(state)["robot_deck"]["bottom"]
    assert len(bottom) == 1 and bottom[0]["known_by"] == [first]
    card = rnames.index(bottom[0]["robot"])
    for p in range(3):
        assert state.observation(p)[UNDER + card] == (1 if p == first else 0)
        assert state.observation(p)[UNDER:REFILL].sum() == (1 if p == first else 0)
        _check_against_view(state, p)


def test_a_known_card_drawn_back_out_shows_in_the_knowers_refill_block() -> None:
    """With a deck that runs out (the stress content), a card a seat put under the deck comes back out in another
    seat's refill: the seat that knows it sees it there, a seat that does not know it does not."""
    private = 0
    for players in (3, 4):
        game = robotcore.load_game("sparks", players=players, content=stress_content())
        rnames = _content(game).robot_names
        rng = random.Random(players)
        for seed in range(4):
            state = game.new_initial_state(seed=seed)
            while not state.is_terminal:
                obs = [state.observation(p) for p in range(players)]
                for p in range(players):
                    _check_against_view(state, p)
                refill = [_names(game, obs[p], REFILL, 64, rnames) for p in range(players)]
                for p in range(players):
                    for q in range(players):
                        if q != p and refill[p] - refill[q] - set(state.view(q)["drawn"]):
                            private += 1        # p knows a card of a refill that q (not its drawer) does not
                seat = rng.choice(state.actors)
                state.apply(rng.choice(state.legal_actions(seat)), seat)
    assert private > 0


def test_the_recall_floats_are_the_same_in_every_world_the_seat_cannot_tell_apart() -> None:
    game = robotcore.load_game("sparks", players=3, draft=True)
    rng = random.Random(7)
    state = game.new_initial_state(seed=5)
    checked = 0
    while not state.is_terminal and checked < 60:
        for p in range(3):
            world = state.resample_hidden(p, checked)
            assert np.array_equal(world.observation(p)[BASE:], state.observation(p)[BASE:])
        checked += 1
        seat = rng.choice(state.actors)
        state.apply(rng.choice(state.legal_actions(seat)), seat)


def test_the_held_recycle_die_and_its_reroll_mark_are_in_every_seats_tensor() -> None:
    """The die a seat holds for Recycle and whether it is marked for the reroll are public (the view's ``held``,
    ``held_marked``): every observer sees them at the seat's place in turn order from it, and two states that
    differ only there give different tensors."""
    plain = hold_recycled("reroll", reroll_tile=1)[1]
    marked = hold_recycled("reroll", "mark_held", reroll_tile=1)[1]
    for state, flag in ((plain, 0.0), (marked, 1.0)):
        v = state.view(None)
        assert v["players"][0]["held"] == "R5" and v["players"][0]["held_marked"] == bool(flag)
        for seat in range(4):
            obs = state.observation(seat)
            at = HELD + ((0 - seat) % 4) * 6
            assert list(obs[at:at + 6]) == [1.0, 0.0, 0.0, 0.0, np.float32(5 / 6), flag]
            others = [HELD + r * 6 for r in range(4) if r != (0 - seat) % 4]
            assert not any(obs[o:o + 6].any() for o in others)
    assert not np.array_equal(plain.observation(1), marked.observation(1))
