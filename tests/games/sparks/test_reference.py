"""The engine against the independent reference (reference.py), move by move: after every action the two must
agree on who acts, on every seat's legal actions and on every field of the state, PRNG included.

Uniformly random play says ``done`` early and rarely reaches deep effects, so most games use a policy that prefers
anything but ``done`` and ``sell`` (placements, assistants, boxes, tiles): together they reach every family."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import robotcore
from robotcore.games.sparks import engine

from . import reference as ref
from . import scenario as sc


def fields(state: robotcore.State) -> dict[str, Any]:
    return engine.unpack_state(np.frombuffer(state.state_bytes(), dtype=np.uint8))


def choose(game: robotcore.Game, legal: list[int], rng: random.Random, biased: bool) -> int:
    if not biased:
        return rng.choice(legal)
    names = [game.action_to_dict(a)["type"] for a in legal]
    eager = [a for a, n in zip(legal, names) if n not in ("done", "sell", "sell_space", "skip", "up", "down",
                                                                "up_space", "down_space")]
    if eager and rng.random() < 0.9:
        return rng.choice(eager)
    return rng.choice(legal)


CONFIGS = [{"players": 4}, {"players": 3, "goals": 2}, {"players": 2}, {"players": 1},
           {"players": 3, "draft": True}, {"players": 1, "goals": 3, "draft": True}, {"players": 3, "clockwise": True}]


def lockstep(game: robotcore.Game, state: robotcore.State, rng: random.Random, seed: int,
             biased: bool = True) -> Iterator[tuple[int, int, robotcore.State]]:
    """Play ``state`` to its end at random (``choose``, ``biased`` or not) with the referee in step, checking the
    actors and every seat's legal actions before each move, every field after it and the end; yields each move played
    (seat, action, the state before)."""
    model = ref.Reference(game.content, dict(game.params), fields(state))
    assert model.num_actions == game.num_actions
    while not state.is_terminal:
        assert state.actors == model.actors()
        for seat in range(game.num_players):
            assert state.legal_actions(seat) == model.legal(seat), (seed, seat)
        seat = rng.choice(state.actors)
        action = choose(game, state.legal_actions(seat), rng, biased)
        previous = state.clone()
        state.apply(action, seat)
        model.apply(seat, action)
        assert fields(state) == model.f, (seed, game.action_to_str(action))
        yield seat, action, previous
    assert model.actors() == []                     # the referee ends the game too


@pytest.mark.parametrize("params", CONFIGS, ids=[str(c) for c in CONFIGS])
def test_engine_matches_reference_move_by_move(params: dict[str, Any]) -> None:
    game = robotcore.load_game("sparks", **params)
    rng = random.Random(17)
    seen: Counter[str] = Counter()
    for seed in range(30):
        state = game.new_initial_state(seed=seed)
        for _, action, _ in lockstep(game, state, rng, seed, biased=seed % 4 != 0):
            seen[game.action_to_dict(action)["type"]] += 1
    if params["players"] == 4:
        for family in ("take", "pick", "place", "sell", "recruit", "spark_box", "track", "tile", "assign", "draw",
                       "done"):
            assert seen[family] > 0, family


def stress_content() -> Any:
    """A small, fast content that reaches the rare paths: a 20-card robot deck that runs out (draws from the cards
    put under it), short tracks that fill up (advances elsewhere, all four full), cheap levels up to the top, a
    small bag that runs dry, only 4 dice of a colour."""
    from robotcore.games.sparks import SparksContent
    from robotcore.games.sparks.data import DEFAULT_ROBOTS, Symbol

    picks = [r for i, r in enumerate(DEFAULT_ROBOTS) if i % 15 in (0, 1, 5, 8, 11)]
    return SparksContent(robots=tuple(picks), track_points=(1, 3, 6), bonus_after=(1,),
                         bonus_tiles=(Symbol("tile"), Symbol("advance_any"), Symbol("die"), Symbol("sparks")),
                         thresholds=(2, 3, 4), level_rewards=("tile", "tile", "spark"), dice_per_colour=6,
                         upgrade_cap=2, rearrange_limit=3)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_engine_matches_reference_on_a_stress_content(players: int) -> None:
    content = stress_content()
    game = robotcore.load_game("sparks", players=players, content=content)
    rng = random.Random(5)
    bottom_draws = full_tracks = 0
    for seed in range(25):
        state = game.new_initial_state(seed=seed)
        for _, _, previous in lockstep(game, state, rng, seed):
            before, after = fields(previous), fields(state)
            bottom_draws += after["pool"] == 0 and after["nbottom"] < before["nbottom"]
            full_tracks += any(t == 3 for P in after["players"] for t in P["track"])
            again = game.from_bytes(state.to_bytes())
            assert again.state_bytes() == state.state_bytes()
    assert full_tracks > 0
    if players >= 2:
        assert bottom_draws > 0


def _recycle_position(seed: int) -> tuple[robotcore.Game, robotcore.State]:
    """A 3-player action phase where seat 0 is about to complete a robot in its Recycle slot, with a random subset
    of the effects that may alter the held die (RULES.md, "Recycle: altering the held die"): D6, D7, Silas,
    Octavia, the t4 reroll, Emma, Max, boxes that alter dice (B9: ±1, G6: reroll), sparks and cogs."""
    r = random.Random(seed)
    g, s = sc.at_action(players=3, seed=seed)
    f = sc.fields(g, s)
    sc.clear_dice(f, 0)
    first = "R9" if seed % 2 else "R6"                  # R9: ±1 box (Max fires it before the pick); R6: reroll box
    sc.set_line(g, f, 0, [first, r.choice(["R10", "R5", "R13", "R8"]), r.choice([None, "B10", "R11", "Y5"])])
    sc.give(f, 0, *(("R3", "R4", "B2") if first == "R9" else ("R2", "R5")))
    sc.give(f, 0, *r.sample(["R1", "R6", "B3", "G2", "Y4", "R2", "B5"], r.randrange(0, 4)))
    sc.set_tiles(f, 0, "recycle", slots={"recycle": 0})
    played = [a for a in ("D6", "D7", "Silas", "Octavia", "Emma", "Max") if r.random() < 0.6]
    sc.set_hand(g, f, 0, [], played=played)
    sc.complete(g, f, 0, *[b for b in ("B9", "G6") if r.random() < 0.7])
    P = f["players"][0]
    P["cogs"], P["sparks"], P["reroll_tile"] = r.randrange(0, 5), r.randrange(0, 3), r.randrange(0, 2)
    s = sc.build(g, f)
    for d, sp in ((("R3", "s1.1"), ("R4", "s1.2"), ("B2", "s1.3")) if first == "R9" else (("R2", "s1.1"), ("R5", "s1.2"))):
        s.apply(g.parse_action(f"place {d} {sp}"), 0)
    return g, s


def test_engine_matches_reference_around_the_held_recycle_die() -> None:
    """Random games from positions where a Recycle die is about to be held with the effects that may alter it:
    the referee and the engine agree move by move, and every new path is met (random play from the deal meets them
    too rarely: a die held with D6, Silas, a box or the reroll at hand)."""
    rng = random.Random(11)
    seen: Counter[str] = Counter()
    for seed in range(60):
        game, state = _recycle_position(seed)
        for seat, action, previous in lockstep(game, state, rng, seed):
            heads = [p["type"] for p in previous.view(None)["players"][seat]["pending"]]
            if "recycle_place" in heads:
                seen[f"{heads[0]}:{game.action_to_dict(action)['type']}"] += 1
    for path in ("recycle_place:adjust", "recycle_place:silas", "recycle_place:reroll", "recycle_place:reroll_one",
                 "recycle_place:flip", "recycle_place:spark_box", "recycle_place:place", "adjust:up_held",
                 "silas:up_held", "reroll:mark_held", "reroll:roll"):
        assert seen[path] > 0, (path, seen)
