"""The floats appended to Scrapyard's observation (RULES.md, "Observation tensor", from 1738 on) say what the view
says: which card is on which workbench, the discard pile's public part, the hands the seat held today (the last
pass it saw each card), what it kept when, who broke at which pass, and the backs each seat kept pass by pass."""

from __future__ import annotations

import random

import numpy as np

import robotcore

from ...conformance.struct_edit import fields, random_states, with_fields

BENCH, PUBLIC, SEEN_LAST, KEPT, BROKE, BACKS = 1738, 2250, 2378, 2506, 2634, 2638


def _cards(obs: np.ndarray, at: int, codes: tuple[str, ...]) -> dict[str, float]:
    return {codes[c]: float(obs[at + c]) for c in range(len(codes)) if obs[at + c]}


def _check(state: robotcore.State, seat: int) -> None:
    game = state.game
    codes = game.codes  # type: ignore[attr-defined]
    obs = state.observation(seat)
    v = state.view(seat)
    n = game.num_players
    for rel in range(4):
        if rel >= n:
            assert not obs[BENCH + rel * 128:BENCH + rel * 128 + 128].any() and obs[BROKE + rel] == 0
            assert not obs[BACKS + rel * 8:BACKS + rel * 8 + 8].any()
            continue
        p = (seat + rel) % n
        entry = v["my_position"] if p == seat and v["my_position"] is not None else v["players"][p]
        benches = {b["card"]: np.float32(b["bench"] / 4) for b in entry["benches"] if b["card"]}
        assert _cards(obs, BENCH + rel * 128, codes) == benches
        broke = v["players"][p]["broke_at_pass"]
        assert obs[BROKE + rel] == (0 if broke is None else np.float32((broke + 1) / 8))
        backs = ["structure" if obs[BACKS + rel * 8 + x] == 1 else "upgrade"
                 for x in range(8) if obs[BACKS + rel * 8 + x]]
        assert backs == v["players"][p]["reserve_backs"]
    assert set(_cards(obs, PUBLIC, codes)) == set(v["discard"]["public"])
    last: dict[str, float] = {}
    kept: dict[str, float] = {}
    for hand in v["seen"]:
        for card in hand["hand"]:
            last[card] = max(last.get(card, 0.0), np.float32((hand["pass"] + 1) / 8))
        if hand["did"] and hand["did"]["type"] == "keep":
            kept[hand["did"]["card"]] = np.float32((hand["pass"] + 1) / 8)
    assert _cards(obs, SEEN_LAST, codes) == last
    assert _cards(obs, KEPT, codes) == kept


def test_the_appended_floats_say_what_the_view_says() -> None:
    rng = random.Random(3)
    met = {"bench": 0, "seen": 0, "broke": 0, "public": 0}
    for params in ({}, {"players": 3, "open_workshop": False}, {"players": 2, "provisional_two_player": True}):
        assert robotcore.load_game("scrapyard", **params).observation_shape == (2670,)
        for state in random_states("scrapyard", 3, **params):
            if rng.random() < 0.15:
                for seat in range(state.game.num_players):
                    _check(state, seat)
                v = state.view(0)
                met["bench"] += any(b["card"] for p in v["players"] for b in p["benches"])
                met["seen"] += bool(v["seen"])
                met["broke"] += any(p["broke_at_pass"] is not None for p in v["players"])
                met["public"] += bool(v["discard"]["public"])
    assert all(met.values()), met


def test_two_cards_swapped_between_workbenches_give_different_tensors() -> None:
    """The review's kind of gap: the bench planes hold the same cards and the progress is per bench, so before the
    bench places were appended the tensor could not say which card had which progress."""
    game = robotcore.load_game("scrapyard")
    rng = random.Random(5)
    for seed in range(20):
        state = game.new_initial_state(seed)
        while not state.is_terminal:
            f = fields(state)
            for pl in f["pl"]:
                full = [b for b in range(3) if pl["bench"][b] != 255]
                if len(full) < 2:
                    continue
                a, b = full[:2]
                pl["bench"][a], pl["bench"][b] = pl["bench"][b], pl["bench"][a]
                try:
                    other = robotcore.from_bytes(with_fields(state, f))
                except robotcore.CorruptStateError:
                    continue
                for seat in range(game.num_players):
                    before, after = state.observation(seat), other.observation(seat)
                    assert np.array_equal(before[:BENCH], after[:BENCH])
                    assert not np.array_equal(before, after)
                    _check(other, seat)
                return
            seat = rng.choice(state.actors)
            state.apply(rng.choice(state.legal_actions(seat)), seat)
    raise AssertionError("no state with two workbenches holding cards")
