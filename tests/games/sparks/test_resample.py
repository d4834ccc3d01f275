"""Resampling keeps everything a seat knows (perfect recall): what it saw in the draft's hands, the robot cards it
saw go under the deck and come back out of it; the native resampler is the one behind ``resample_hidden``.

The draft checks use only what the seat was shown (its ``draft_hand`` at each step, recorded while the game is
played), not the engine's record of the draft, so they would catch a record that forgot or misplaced a card."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import robotcore
from robotcore.bots import make_bot
from robotcore.games.sparks import engine

from .test_reference import stress_content


def _play_draft(game: robotcore.Game, seed: int, rng: random.Random, stop: int) -> tuple[robotcore.State,
                                                                                         list[list[list[str]]]]:
    """A random game stopped after ``stop`` actions, with each seat's draft hands by step as it saw them."""
    state = game.new_initial_state(seed=seed)
    seen: list[list[list[str]]] = [[] for _ in range(game.num_players)]
    for i in range(stop + 1):
        if state.view(None)["phase"] == "draft":
            for p in range(game.num_players):
                v = state.view(p)
                if len(seen[p]) == len(v["hand"]):          # a new step: its hand has one pick per step
                    seen[p].append(sorted(v["draft_hand"]))
        if state.is_terminal or i == stop:
            break
        seat = rng.choice(state.actors)
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    return state, seen


def _where(world: robotcore.State, n: int) -> dict[str, Any]:
    """Each assistant's place in a world: ("hand", p), ("played", p), ("dhand", p) or ("deck",)."""
    om = world.game.omniscient_view(world)
    out: dict[str, Any] = {}
    for p in range(n):
        for a in om["hands"][p]:
            out[a] = ("hand", p)
        for a in om["players"][p]["played"]:
            out[a] = ("played", p)
        for a in om["draft_hands"][p]:
            out[a] = ("dhand", p)
    for a in om["assistant_deck_cards"]:
        out[a] = ("deck",)
    return out


def _check_draft_recall(game: robotcore.Game, state: robotcore.State, world: robotcore.State, seat: int,
                        seen: list[list[str]]) -> int:
    """Every card ``seat`` saw in a hand it passed lies, in ``world``, where what it saw allows: with a seat that
    held that hand after it (before it saw the hand again without the card), or, from the last hand it saw the card
    in, still in the hand being passed (during the draft) or left over: in the deck, or drawn by a seat that drew
    cards. Returns the number of cards checked."""
    n, hs = game.num_players, game.content.hand_size
    view = state.view(seat)
    drafting = view["phase"] == "draft"
    steps = len(seen)
    resolved = steps - 1 if drafting else steps          # picks made by everybody
    where = _where(world, n)
    mine = set(view["hand"]) | set(view["players"][seat]["played"])
    checked = 0
    for k in range(steps - (1 if drafting else 0)):
        later = k + n
        for card in seen[k]:
            if card in mine:
                continue
            if later < steps and card in seen[later]:
                continue                                 # the later sight says more
            place = where[card]
            if later < steps:                            # picked in between by one of the others
                assert place[0] in ("hand", "played") and place[1] != seat, (card, k, place)
            else:
                pickers = {(seat + j) % n for j in range(1, resolved - k)}
                holder = (seat + resolved - k) % n
                if drafting:
                    ok = (place[0] == "hand" and place[1] in pickers) or place == ("dhand", holder)
                else:
                    p = world.view(None)["players"]
                    drew = {q for q in range(n) if p[q]["hand_size"] + len(p[q]["played"]) > hs}
                    ok = place == ("deck",) or (place[0] in ("hand", "played") and (place[1] in pickers
                                                                                    or place[1] in drew))
                assert ok, (card, k, place, pickers, holder)
            checked += 1
    return checked


@pytest.mark.parametrize("players", [2, 3, 4])
def test_draft_resampling_keeps_what_the_seat_saw_in_the_hands_it_passed(players: int) -> None:
    game = robotcore.load_game("sparks", players=players, draft=True)
    rng = random.Random(players)
    checked = 0
    for g in range(24):
        stop = rng.choice([rng.randrange(1, 4 * players), rng.randrange(6 * players, 400)])
        state, seen = _play_draft(game, g, rng, stop)
        for seat in range(players):
            for _ in range(3):
                world = state.resample_hidden(seat, rng.getrandbits(64))
                assert world.view(seat) == state.view(seat)          # its hand, picks, plays, draft record
                checked += _check_draft_recall(game, state, world, seat, seen[seat])
    assert checked > 500


def test_draft_resampling_depends_only_on_the_seats_information() -> None:
    for players in (2, 3, 4):
        game = robotcore.load_game("sparks", players=players, draft=True)
        rng = random.Random(10 + players)
        for g in range(12):
            state, _ = _play_draft(game, g, rng, rng.randrange(1, 250))
            for seat in range(players):
                twin = state.resample_hidden(seat, rng.getrandbits(64))
                seed = rng.getrandbits(64)
                assert twin.resample_hidden(seat, seed).state_bytes() == state.resample_hidden(seat, seed).state_bytes()


def test_draft_resampling_varies_what_the_seat_cannot_know() -> None:
    """Not vacuous: mid-draft and after it, the others' hands really are re-dealt."""
    game = robotcore.load_game("sparks", players=3, draft=True)
    rng = random.Random(3)
    state, _ = _play_draft(game, 4, rng, 4)
    assert state.view(None)["phase"] == "draft"
    worlds = [state.resample_hidden(0, s) for s in range(20)]
    hands = {tuple(map(tuple, game.omniscient_view(w)["draft_hands"])) for w in worlds}
    assert len(hands) > 5


def test_pinned_cards_played_cards_stay_with_their_player() -> None:
    """After the draft, a card another seat played came from its picks or its draws: every world keeps it
    played by that seat, and the world's draft record makes it one of that seat's picks or a card of the deck."""
    game = robotcore.load_game("sparks", players=4, draft=True)
    rng = random.Random(8)
    found = 0
    for g in range(10):
        state, _ = _play_draft(game, g, rng, rng.randrange(150, 350))
        played = [p["played"] for p in state.view(None)["players"]]
        for seat in range(4):
            for k in range(3):
                world = state.resample_hidden(seat, k)
                assert [p["played"] for p in world.view(None)["players"]] == played
                found += sum(len(x) for i, x in enumerate(played) if i != seat)
    assert found > 50


def _stress_states(players: int, games: int) -> list[robotcore.State]:
    game = robotcore.load_game("sparks", players=players, content=stress_content())
    rng = random.Random(players)
    out = []
    for g in range(games):
        state = game.new_initial_state(seed=g)
        while not state.is_terminal:
            out.append(state.clone())
            seat = rng.choice(state.actors)
            state.apply(rng.choice(state.legal_actions(seat)), seat)
    return out


def test_robot_cards_a_seat_saw_go_round_the_deck_are_kept() -> None:
    """With a deck that runs out, a card a seat put under the deck is drawn by another seat (the seat sees it in
    that seat's refill) and may go back under the deck: the seat still knows it, and every world keeps it there."""
    rare = 0
    for players in (3, 4):
        states = _stress_states(players, 6)
        for state in states[::3]:
            raw = engine.unpack_state(np.frombuffer(state.state_bytes(), dtype=np.uint8))
            for seat in range(players):
                view = state.view(seat)
                world = state.resample_hidden(seat, len(states))
                wv = world.game.omniscient_view(world)
                known = view["robot_deck"]["bottom"]
                assert [e["robot"] if name is not None else name
                        for e, name in zip(wv["robot_deck"]["bottom"], known)] == known
                for p in range(players):
                    for name in view["drawn_known"][p]:
                        assert name in wv["drawn"][p]
                        rare += 1
                for e in state.game.omniscient_view(state)["robot_deck"]["bottom"]:
                    if seat in e["known_by"] and 1 < len(e["known_by"]) < players:
                        rare += 1
            assert raw["nbottom"] == len(state.view(None)["robot_deck"]["bottom"])
    assert rare > 20


def test_the_native_resampler_serves_search() -> None:
    game = robotcore.load_game("sparks", players=3, draft=True)
    assert game.core.native_resample
    state = game.new_initial_state(seed=1)
    bot = make_bot("ismcts", seed=2, iterations=60)
    assert bot.choose(state, state.actors[0]) in state.legal_actions(state.actors[0])
    rng = random.Random(1)
    state, _ = _play_draft(game, 1, rng, 120)
    bot = make_bot("mcts", seed=2, iterations=60, worlds=4)
    seat = state.actors[0]
    assert bot.choose(state, seat) in state.legal_actions(seat)


def _small_draft_world() -> tuple[Any, robotcore.State, str]:
    """Two players, 8 assistants, a draft of one pick from two cards. After it, seat 1 plays its pick and draws a
    card from the deck: seat 0 cannot tell whether the played card was seat 1's pick or the card it drew."""
    from robotcore.games.sparks import SparksContent
    from robotcore.games.sparks.data import DEFAULT_ASSISTANTS

    content = SparksContent(assistants=DEFAULT_ASSISTANTS[:8], hand_size=1, draft_deal=2)
    game = robotcore.load_game("sparks", players=2, draft=True, content=content)
    state = game.new_initial_state(seed=3)
    while state.view(None)["phase"] == "draft":
        seat = state.actors[0]
        state.apply(state.legal_actions(seat)[0], seat)
    f = game.fields(state)
    pick = next(a for a in range(8) if f["arec"][a] == 0x80 | (1 << 4) | 0)      # seat 1's pick from hand 1
    drawn = next(a for a in range(8) if f["adeck"] >> a & 1 and f["arec"][a] == 0)
    P = f["players"][1]
    P["hand"] = (P["hand"] & ~(1 << pick)) | (1 << drawn)
    P["played"] |= 1 << pick
    f["adeck"] &= ~(1 << drawn)
    return game, game.with_fields(f), game.content.assistant_names[pick]


def _world_key(game: Any, world: robotcore.State) -> tuple[Any, ...]:
    f = game.fields(world)
    return tuple(f["arec"][:8]), f["players"][1]["hand"], f["adeck"]


def test_resampling_is_uniform_over_the_consistent_worlds() -> None:
    """Every world seat 0 cannot tell from the real one (found by brute force: every arrangement of the hidden
    cards' draft records and places that the engine accepts and that shows seat 0 the same views) comes out, and
    equally often (a chi-square test), including the ones where seat 1's played card was the card it drew."""
    import itertools

    game, state, played = _small_draft_world()
    f = game.fields(state)
    mine = f["players"][0]["hand"]
    hidden = [a for a in range(8) if not mine >> a & 1]
    records = sorted(f["arec"][a] for a in hidden)
    view0, public = state.view(0), state.view(None)
    played_bit = f["players"][1]["played"]
    worlds = set()
    for recs in set(itertools.permutations(records)):
        for held in hidden:
            if played_bit >> held & 1:
                continue
            g = dict(f, arec=list(f["arec"]), players=[dict(p) for p in f["players"]])
            for a, r in zip(hidden, recs):
                g["arec"][a] = r
            g["players"][1]["hand"] = 1 << held
            g["adeck"] = sum(1 << a for a in hidden if a != held and not played_bit >> a & 1)
            try:
                w = game.with_fields(g)
            except robotcore.CorruptStateError:
                continue
            if w.view(0) == view0 and w.view(None) == public:
                worlds.add(_world_key(game, w))
    assert len(worlds) == 55                           # 30 with the played card a pick, 25 with it a draw
    draws = 55 * 120
    counts: dict[Any, int] = {}
    for seed in range(draws):
        key = _world_key(game, state.resample_hidden(0, seed))
        counts[key] = counts.get(key, 0) + 1
    assert set(counts) == worlds
    expected = draws / len(worlds)
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 95                                   # 54 degrees of freedom: p < 0.001 above 95
    pick = sum(c for k, c in counts.items() if k[0][game.content.assistant_names.index(played)] & 15 != 15
               and k[0][game.content.assistant_names.index(played)] != 0)
    assert abs(pick / draws - 30 / 55) < 0.03


def test_random_games_use_the_exact_routing() -> None:
    """The sequential fallback (RULES.md) is for tables over 512 entries; random draft games never need it."""
    for players in (2, 3, 4):
        game = robotcore.load_game("sparks", players=players, draft=True)
        rng = random.Random(20 + players)
        for g in range(6):
            state = game.new_initial_state(seed=g)
            while not state.is_terminal:
                if rng.random() < 0.1:
                    assert all(engine.resample_exact(state, seat) for seat in range(players))
                seat = rng.choice(state.actors)
                state.apply(rng.choice(state.legal_actions(seat)), seat)
