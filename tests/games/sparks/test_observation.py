"""The observation tensor keeps what perfect recall keeps (RULES.md, "Observation"): the assistants a seat saw in
the draft hands it held and the last step it saw each, the robot cards it knows under the deck, in another seat's
refill and in its own draw; only the seat's own knowledge sets them."""

from __future__ import annotations

import copy
import random
from collections import Counter

import numpy as np

import robotcore
from robotcore.games.sparks import SparksContent
from robotcore.games.sparks import view as sparks_view
from robotcore.games.sparks.data import COLOURS, SYMBOLS
from robotcore.games.sparks.engine import PENDING_NAMES

from ...conformance.struct_edit import random_states
from .scenario import act, at_action, build, clear_dice, give, hold_recycled, pend, set_line, set_tiles
from .scenario import fields as scenario_fields
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
        size = BASE + 256 + 4 * SEAT_MORE + 16 * BONUS_SPACE + 4 * 6 + 4 * DECIDE_SEAT + 65
        assert size == HELD + 4 * 6 + 4 * 180 + 65 == 2657
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
        for state in random_states("sparks", 15, **params):
            if rng.random() < 0.1:
                for seat in range(state.game.num_players):
                    _check_public_more(state, seat)
                players = state.view(None)["players"]
                seen_conrad += any(p["conrad"] for p in players)
                seen_use += any(any(p["used"].values()) for p in players)
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


DECIDE = HELD + 4 * 6               # per seat the decisions it is asked: the pending queue, Silas, Rearrange, ...
DECIDE_SEAT = 4 * 15 + 13 + 2 + 24 + 3 * 5 + 2 + 64
DECIDE_GLOBAL = DECIDE + 4 * DECIDE_SEAT          # the game started, where known cards lie under the deck
DIE_NAMES = [f"{'RBGY'[t // 6]}{t % 6 + 1}" for t in range(24)]


def _check_decide_against_view(state: robotcore.State, seat: int) -> None:
    """The decision block says what the view says: every seat's pending queue (kinds and arguments), Silas's pips,
    Rearrange moves, marked dice, the Recycle pick's dice, draft commitment and hand size, tableau and power boxes;
    the game's start and the known cards' places under the deck."""
    game = state.game
    obs = state.observation(seat)
    v = state.view(seat)
    n = game.num_players
    rnames = _content(game).robot_names
    for rel in range(4):
        at = DECIDE + rel * DECIDE_SEAT
        block = obs[at:at + DECIDE_SEAT]
        if rel >= n:
            assert not block.any()
            continue
        p = v["players"][(seat + rel) % n]
        queue = []
        for i in range(min(4, len(p["pending"]))):
            kinds = [k for k in range(13) if block[i * 15 + k]]
            assert len(kinds) == 1
            arg = round(float(block[i * 15 + 13]) * 3) << 6 | round(float(block[i * 15 + 14]) * 63)
            queue.append({"type": PENDING_NAMES[kinds[0] + 1], "arg": arg})
        assert queue == p["pending"][:4]
        assert not block[len(queue) * 15:60].any()
        rest = Counter(e["type"] for e in p["pending"][4:])
        assert {PENDING_NAMES[k + 1]: round(float(block[60 + k]) * 8) for k in range(13) if block[60 + k]} == rest
        assert round(float(block[73]) * 6) == p["silas"] and round(float(block[74]) * 12) == p["rearranged"]
        marked = {DIE_NAMES[t]: round(float(block[75 + t]) * 3) for t in range(24) if block[75 + t]}
        assert marked == Counter(p["marked"])
        recycle = [f"{'RBGY'[[c for c in range(4) if block[99 + i * 5 + c]][0]]}{round(float(block[103 + i * 5]) * 6)}"
                   for i in range(3) if block[99 + i * 5:104 + i * 5].any()]
        assert recycle == p["recycle"]
        assert bool(block[114]) == p["draft_committed"]
        hand_size = _content(game).hand_size
        assert round(float(block[115]) * hand_size) == p["draft_hand_size"]
        levels = [round(float(block[116 + i]) * 3) for i in range(64)]
        names = [rnames[i] if i < len(rnames) else "" for i in range(63)] + ["board"]
        assert {names[i] for i in range(63) if levels[i]} == set(p["tableau"])
        assert levels[63] >= 1
        assert {names[i] for i in range(64) if levels[i] >= 2} == set(p["boxes_used"])
        assert {names[i] for i in range(64) if levels[i] == 3} == set(p["boxes_cog"])
    assert bool(obs[DECIDE_GLOBAL]) == v["started"]
    places = {rnames[c]: round(float(obs[DECIDE_GLOBAL + 1 + c]) * 64) - 1 for c in range(64)
              if obs[DECIDE_GLOBAL + 1 + c]}
    assert places == {name: i for i, name in enumerate(v["robot_deck"]["bottom"]) if name is not None}
    assert obs.shape == (DECIDE_GLOBAL + 65,)


def test_the_decision_block_says_what_the_view_says() -> None:
    rng = random.Random(11)
    met: Counter[str] = Counter()
    for params in ({"players": 1}, {"players": 2, "draft": True}, {"players": 4, "goals": 2}):
        for state in random_states("sparks", 6, **params):
            if rng.random() < 0.2:
                for seat in range(state.game.num_players):
                    _check_decide_against_view(state, seat)
                for p in state.view(None)["players"]:
                    met.update(k for k in ("pending", "silas", "rearranged", "tableau", "boxes_used") if p[k])
    assert all(met[k] for k in ("pending", "tableau", "boxes_used")), met


def _old(obs: np.ndarray) -> np.ndarray:
    return obs[:DECIDE]             # the tensor before the decision block (1,872 floats)


def test_what_the_decision_block_tells_apart() -> None:
    """Pairs of states that differ only in a decision the seat is asked: the tensor without the block gave both
    the same floats (the review's finding), with it they differ, and the block reads as the view."""
    g, s = at_action(players=4, seed=0)
    f = scenario_fields(g, s)
    pairs = []
    a, b = copy.deepcopy(f), copy.deepcopy(f)
    pend(a, 0, "advance", 4)                    # the kind of the head: a track to advance, or a tile to take
    pend(b, 0, "tile")
    pairs.append(("pending kind", build(g, a), build(g, b)))
    # Silas's pips left
    g2, s2 = hold_recycled("silas G2", played=("Silas",), extra=("B1", "G2"))
    f2 = scenario_fields(g2, s2)
    assert f2["players"][0]["silas"] >= 2
    c = copy.deepcopy(f2)
    c["players"][0]["silas"] -= 1
    pairs.append(("silas", s2, build(g2, c)))
    # the dice marked for the t4 reroll (they leave the available dice: an R3 is left in both)
    g3, marked_a = hold_recycled("reroll", "mark R4", reroll_tile=1, extra=("R4", "R3"))
    marked_b = hold_recycled("reroll", "mark R3", reroll_tile=1, extra=("R3", "R3"))[1]
    pairs.append(("marked", marked_a, marked_b))
    # the completed robot's dice a Recycle pick chooses from
    picks = []
    for second in ("R4", "R3"):
        g4, s4 = at_action(players=4, seed=0)
        f4 = scenario_fields(g4, s4)
        clear_dice(f4, 0)
        set_line(g4, f4, 0, ["R5", "R10", "R8"])
        give(f4, 0, "R5", second)
        set_tiles(f4, 0, "recycle", slots={"recycle": 0})
        s4 = build(g4, f4)
        act(g4, s4, 0, "place R5 s1.1", f"place {second} s1.2")
        assert s4.view(None)["players"][0]["recycle"] == ["R5", second]
        picks.append(s4)
    pairs.append(("recycle", *picks))
    for what, x, y in pairs:
        for seat in range(4):
            assert np.array_equal(_old(x.observation(seat)), _old(y.observation(seat))), (what, seat)
            assert not np.array_equal(x.observation(seat), y.observation(seat)), (what, seat)
            _check_decide_against_view(x, seat)
            _check_decide_against_view(y, seat)
