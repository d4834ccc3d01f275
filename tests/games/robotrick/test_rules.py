"""One test per rule of the Robotrick seed (seed 003) and of our documented defaults (RULES.md).

Each test would fail if its rule were broken; the differential test at the end checks every move of
thousands of random games against an independent Python implementation (reference.py).
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest

import robotcore
from robotcore.core import batch
from robotcore.games.robotrick import PASS, RobotrickContent, engine
from robotcore.games.robotrick.cards import Card, card_name, parse_card
from robotcore.games.robotrick.data import DEFAULT_AI_CARDS, AICard

from ...conftest import random_play
from . import reference as ref

DROCO = 3


def fields(state: robotcore.State) -> dict:
    return engine.unpack_state(np.frombuffer(state.state_bytes(), dtype=np.uint8))


def ids(names: str) -> list[int]:
    return [parse_card(n) for n in names.split()]


def bits(names: str) -> int:
    return sum(1 << c for c in ids(names))


def play_pass(state: robotcore.State, rng: random.Random) -> None:
    """Every seat chooses two random cards: the pass phase ends."""
    while state.view(None)["phase"] == "pass":
        seat = state.actors[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat)


# -- components and set-up ----------------------------------------------------------------------------------

def test_deck_is_4_colours_of_13_with_vp_and_10_ai_cards() -> None:
    game = robotcore.load_game("robotrick")
    content = game.content
    assert isinstance(content, RobotrickContent)
    assert len(content.vp) == 52 and len(content.ai_cards) == 10
    assert sorted(Card.from_id(c) for c in range(52)) == [Card(k, s) for k in range(4) for s in range(1, 14)]
    assert [card_name(c) for c in (0, 12, 13, 51)] == ["R1", "R13", "G1", "B13"]


RULES_MD = Path(robotcore.games.robotrick.__file__).with_name("RULES.md")


def test_default_vp_are_those_rules_md_states() -> None:
    """RULES.md, assumption 1: by strength in every colour, 1-4 -> 1, 5-8 -> 2, 9-11 -> 3, 12-13 -> 4 VP."""
    vp = robotcore.load_game("robotrick").content.vp
    assert vp == tuple(1 if s <= 4 else 2 if s <= 8 else 3 if s <= 11 else 4 for _ in range(4) for s in range(1, 14))
    assert sum(vp) == 116 and "(116 VP in the deck)" in RULES_MD.read_text(encoding="utf-8")


def test_default_ai_cards_are_the_table_of_rules_md() -> None:
    """RULES.md, assumption 2: the 10 AI cards, in order, with their three criteria."""
    rows = re.findall(r"^\s*\| (\d) \| (\w+) \| (\w+) \| (\w+) \| (\w+) \|", RULES_MD.read_text(encoding="utf-8"), re.M)
    assert len(rows) == 10
    assert [(int(i), name, lead, follow, discard) for i, name, lead, follow, discard in rows] == [
        (i, c.name, c.lead, c.follow, c.discard) for i, c in enumerate(DEFAULT_AI_CARDS)]


@pytest.mark.parametrize("seed", range(40))
def test_each_round_deals_trump_3_aside_and_12_each(seed: int) -> None:
    rng = random.Random(seed)
    state = robotcore.make("robotrick", seed=seed)
    for rnd in range(3):
        f = fields(state)
        assert f["phase"] == 0 and f["round"] == rnd and f["trick_no"] == 0
        hands = [f["hand"][p] | f["passed"][p] for p in range(3)] + [f["hand"][DROCO]]
        assert [bin(h).count("1") for h in hands] == [12, 12, 12, 12]
        assert bin(f["aside"]).count("1") == 3
        everything = [f["aside"], 1 << f["trump"], *hands]
        assert sum(everything) == (1 << 52) - 1 and sum(bin(x).count("1") for x in everything) == 52
        v = state.view(0)
        assert v["trump"] == card_name(f["trump"])
        # the round is played out, the next one is dealt afresh
        while not state.is_terminal and fields(state)["round"] == rnd:
            seat = state.actors[0]
            state.apply(rng.choice(state.legal_actions(seat)), seat)


def test_deals_differ_between_rounds_and_games() -> None:
    decks = set()
    for seed in range(30):
        state = robotcore.make("robotrick", seed=seed)
        rng = random.Random(seed)
        for _ in range(3):
            f = fields(state)
            decks.add((f["trump"], f["aside"], tuple(f["hand"])))
            while not state.is_terminal and fields(state)["trick_no"] < 12 and fields(state)["round"] == f["round"]:
                seat = state.actors[0]
                state.apply(rng.choice(state.legal_actions(seat)), seat)
    assert len(decks) == 90


def test_an_ai_card_is_revealed_each_round_never_twice() -> None:
    seen_first = set()
    for seed in range(300):
        state = robotcore.make("robotrick", seed=seed)
        rng = random.Random(seed)
        cards = [fields(state)["ai_card"]]
        seen_first.add(cards[0])
        while not state.is_terminal:
            before = fields(state)["round"]
            random_play(state, rng, steps=1)
            f = fields(state)
            if f["round"] != before and not state.is_terminal:
                cards.append(f["ai_card"])
        assert len(set(cards)) == 3
        assert bin(fields(state)["ai_used"]).count("1") == 3
    assert seen_first == set(range(10)), "every AI card can be drawn"


def test_variant_one_ai_card_for_the_whole_game() -> None:
    for seed in range(50):
        state = robotcore.make("robotrick", seed=seed, same_ai_card=True)
        first = fields(state)["ai_card"]
        rng = random.Random(seed)
        while not state.is_terminal:
            random_play(state, rng, steps=1)
            assert fields(state)["ai_card"] == first
        assert fields(state)["ai_used"] == 1 << first


def test_droco_sits_in_a_different_place_each_round() -> None:
    # round 1: between seat 0 and its left neighbour; round 2: between the two others; round 3: between seat 0
    # and its right neighbour (seats play clockwise 0 -> 1 -> 2; the left neighbour of seat 0 is seat 1)
    assert engine.seating(0) == [0, DROCO, 1, 2]
    assert engine.seating(1) == [0, 1, DROCO, 2]
    assert engine.seating(2) == [0, 1, 2, DROCO]
    state = robotcore.make("robotrick", seed=3)
    rng = random.Random(3)
    for rnd in range(3):
        while not state.is_terminal and fields(state)["round"] == rnd:
            v = state.view(None)
            for trick in v["tricks"]:
                order = [ref.DROCO if p == "droco" else p for p, _ in trick["cards"]]
                for a, b in zip(order, order[1:]):
                    assert ref.next_player(rnd, a) == b
            assert v["seating"] == [0, *[("droco" if p == DROCO else p) for p in engine.seating(rnd)[1:]]]
            random_play(state, rng, steps=1)


def test_droco_hand_is_public_in_colour_columns_strongest_first() -> None:
    state = robotcore.make("robotrick", seed=4)
    f = fields(state)
    for seat in (None, 0, 1, 2):
        columns = state.view(seat)["droco_hand"]
        assert list(columns) == ["R", "G", "O", "B"]
        flat = [c for col in columns.values() for c in col]
        assert sorted(ids(" ".join(flat))) == sorted(ref.cards(f["hand"][DROCO]))
        for colour, col in columns.items():
            strengths = [Card.parse(c).strength for c in col]
            assert strengths == sorted(strengths, reverse=True)
            assert all(c.startswith(colour) for c in col)


# -- the pass -----------------------------------------------------------------------------------------------

def test_pass_is_simultaneous_hidden_and_goes_left() -> None:
    state = robotcore.make("robotrick", seed=5)
    start = fields(state)
    assert state.actors == [0, 1, 2]
    chosen = {0: ids("R1 R2"), 1: [], 2: []}
    # choose cards each seat really holds
    for seat in (0, 1, 2):
        chosen[seat] = sorted(ref.cards(start["hand"][seat]))[:2]
    before = {s: state.view(s) for s in (1, 2)}
    state.apply(PASS + chosen[0][0], 0)
    # a commitment is hidden: the other seats' views change only in who has chosen how many
    for s in (1, 2):
        after = state.view(s)
        assert after["pass_chosen"] == [1, 0, 0]
        assert {k: v for k, v in after.items() if k not in ("pass_chosen", "hand_sizes")} == {
            k: v for k, v in before[s].items() if k not in ("pass_chosen", "hand_sizes")}
        assert card_name(chosen[0][0]) not in str(after)
    assert state.view(0)["pass"]["given"] == [card_name(chosen[0][0])]
    # seats choose in any order
    state.apply(PASS + chosen[2][0], 2)
    state.apply(PASS + chosen[1][0], 1)
    state.apply(PASS + chosen[1][1], 1)
    assert state.actors == [0, 2]
    with pytest.raises(robotcore.NotYourTurnError):
        state.apply(PASS + sorted(ref.cards(fields(state)["hand"][1]))[0], 1)   # a third card
    with pytest.raises(robotcore.IllegalActionError):
        state.apply(PASS + chosen[0][0], 0)                                     # a card already given
    state.apply(PASS + chosen[0][1], 0)
    state.apply(PASS + chosen[2][1], 2)
    f = fields(state)
    for seat in (0, 1, 2):
        left, right = (seat + 1) % 3, (seat + 2) % 3
        expected = (ref.cards(start["hand"][seat]) - set(chosen[seat])) | set(chosen[right])
        played_by_me = {c for c in range(52) if f["played_at"][c] and (f["played_at"][c] - 1) % 4 == seat}
        assert ref.cards(f["hand"][seat]) | played_by_me == expected
        v = state.view(seat)
        assert v["pass"]["received"] == [card_name(c) for c in chosen[right]]
        assert v["pass"]["given"] == [card_name(c) for c in chosen[seat]]
        assert set(chosen[seat]) <= ref.cards(f["hand"][left]) | ref.cards(f["played"])
        assert not set(chosen[seat]) & ref.cards(f["hand"][seat])
    # Droco takes no part: its hand is untouched (but for the card it has led)
    assert bin(start["hand"][DROCO]).count("1") == 12
    assert ref.cards(f["hand"][DROCO]) | {f["trick_card"][0]} == ref.cards(start["hand"][DROCO])


def test_droco_leads_the_first_trick_of_every_round() -> None:
    rng = random.Random(6)
    for seed in range(20):
        state = robotcore.make("robotrick", seed=seed)
        for rnd in range(3):
            play_pass(state, rng)
            v = state.view(None)
            assert v["round"] == rnd + 1 and v["tricks"] == []
            assert v["trick"]["leader"] == "droco" and v["trick"]["cards"][0][0] == "droco"
            while not state.is_terminal and state.view(None)["phase"] == "play":
                random_play(state, rng, steps=1)


# -- tricks -------------------------------------------------------------------------------------------------

def test_must_follow_the_led_colour_when_able_else_anything() -> None:
    rng = random.Random(7)
    checked_follow = checked_free = 0
    for seed in range(30):
        state = robotcore.make("robotrick", seed=seed)
        play_pass(state, rng)
        while not state.is_terminal and state.view(None)["phase"] == "play":
            f = fields(state)
            seat = state.actors[0]
            hand = ref.cards(f["hand"][seat])
            legal = set(state.legal_actions(seat))
            if f["trick_len"]:
                led = ref.col(f["trick_card"][0])
                same = {c for c in hand if ref.col(c) == led}
                if same:
                    assert legal == same
                    checked_follow += 1
                else:
                    assert legal == hand
                    checked_free += 1
            else:
                assert legal == hand
            random_play(state, rng, steps=1)
    assert checked_follow > 100 and checked_free > 20


@pytest.mark.parametrize("trick, trump, winner", [
    # rule A: no trump played -> the strongest card of the led colour; off-colour cards never win
    ("G5 G9 R13 G2", "B1", 1),
    ("G5 O13 R13 B12", "O1", 1),
    ("G5 R13 R12 O11", "B1", 0),
    # rule B: the strongest trump wins, whatever was led
    ("G5 G9 B2 G13", "B7", 2),
    ("G5 B3 B9 G13", "B7", 2),
    ("B5 B3 G13 B9", "B7", 3),
    ("R1 R2 R3 O1", "O13", 3),
])
def test_trick_winner_rules_a_and_b(trick: str, trump: str, winner: int) -> None:
    players = [0, 1, 2, DROCO]
    assert engine.trick_winner(ids(trick), players, parse_card(trump)) == players[winner]
    assert ref.winner(list(zip(players, ids(trick))), parse_card(trump)) == players[winner]


def _tricks_with_captures(seeds: range, **params: object):
    """Yield (trick dict, captures before, captures after, hangars) for every completed trick of random games."""
    for seed in seeds:
        state = robotcore.make("robotrick", seed=seed, **params)
        rng = random.Random(seed)
        while not state.is_terminal:
            before = state.view(None)
            random_play(state, rng, steps=1)
            after = state.view(None)
            if after["round"] != before["round"] or after["terminal"]:
                continue        # the last trick of a round: captures were reset (checked by the scoring test)
            for trick in after["tricks"][len(before["tricks"]):]:
                yield trick, before["captures"], after["captures"], after["hangars"]
                before = after


@pytest.mark.parametrize("hangars", [3, 4])
def test_captures_go_face_up_to_the_hangars_then_face_down(hangars: int) -> None:
    droco_wins = player_wins = overflow = 0
    for trick, before, after, h in _tricks_with_captures(range(25), hangars=hangars):
        assert h == hangars
        cards = {p: c for p, c in trick["cards"]}
        gained = [
            (set(after[p]["face_up"]) - set(before[p]["face_up"]),
             set(after[p]["face_down"]) - set(before[p]["face_down"])) for p in range(3)
        ]
        if trick["winner"] == "droco":
            droco_wins += 1
            # every seat keeps the card it played, face down; Droco's card is discarded
            assert gained == [(set(), {cards[p]}) for p in range(3)]
        else:
            w = trick["winner"]
            player_wins += 1
            full = len(before[w]["face_up"]) >= hangars
            overflow += full
            expected_w = (set(), {cards["droco"]}) if full else ({cards["droco"]}, set())
            assert gained[w] == expected_w
            assert all(gained[p] == (set(), set()) for p in range(3) if p != w)
    assert droco_wins > 20 and player_wins > 50 and overflow > 5


def test_the_winner_leads_the_next_trick() -> None:
    rng = random.Random(8)
    for seed in range(10):
        state = robotcore.make("robotrick", seed=seed)
        random_play(state, rng)
        # the last round's tricks are all in the final view
        tricks = state.view(None)["tricks"]
        assert len(tricks) == 12
        for a, b in zip(tricks, tricks[1:]):
            assert b["leader"] == a["winner"]
        assert tricks[0]["leader"] == "droco"


# -- Droco's criteria ---------------------------------------------------------------------------------------

def _droco(rule_kind: str, rule: str, hand: str, trick: str, trump: str) -> str:
    lead, follow, discard = "highest", "highest", "lowest"
    if rule_kind == "lead":
        lead = rule
    elif rule_kind == "follow":
        follow = rule
    else:
        discard = rule
    content = RobotrickContent(vp=RobotrickContent.default().vp, ai_cards=(AICard("T", lead, follow, discard),))
    game = robotcore.load_game("robotrick", content=content, same_ai_card=True)
    trick_ids = ids(trick) if trick else []
    players = [0, 1, 2][: len(trick_ids)]
    card = engine.droco_choice(game.core, bits(hand), trick_ids, players, parse_card(trump), 0)
    expected = ref.droco_card(set(ids(hand)), list(zip(players, trick_ids)), parse_card(trump), (lead, follow, discard))
    assert card == expected, "engine and reference disagree"
    return card_name(card)


@pytest.mark.parametrize("rule, hand, trump, expected", [
    ("highest", "R13 G13 B13 O2", "R1", "G13"),          # equal strengths: non-trump first, then colour order
    ("highest", "R13 B12", "G1", "R13"),
    ("lowest", "R2 G2 O5", "R1", "G2"),
    ("lowest", "R2 O3", "G1", "R2"),
    ("highest_of_longest", "R2 R3 G9 G10 O13", "B1", "G10"),   # two colours of 2: the stronger top card
    ("highest_of_longest", "R2 R3 R4 G13", "B1", "R4"),
    ("lowest_of_shortest", "R2 R3 G9 O13 B5", "B1", "B5"),    # three singletons: the weakest bottom card
    ("lowest_of_shortest", "R2 R3 G9 G10", "B1", "R2"),       # equal lengths: the weaker bottom card
    ("lowest_of_shortest", "O2 O5 G2 G7", "B1", "G2"),        # equal lengths and bottoms: colour order
    ("highest_of_longest", "O3 O9 G2 G9", "B1", "G9"),        # equal lengths and tops: colour order
    ("highest_trump", "R2 B5 B9 G13", "B1", "B9"),
    ("highest_trump", "R2 G13", "B1", "G13"),
    ("lowest_trump", "R2 B5 B9", "B1", "B5"),
    ("lowest_trump", "R2 G1", "B1", "G1"),
    ("highest_non_trump", "B13 R12 G3", "B1", "R12"),
    ("highest_non_trump", "B13 B2", "B1", "B13"),
    ("lowest_non_trump", "B1 R12 G3", "B2", "G3"),
    ("lowest_non_trump", "B13 B4", "B1", "B4"),
])
def test_droco_leading(rule: str, hand: str, trump: str, expected: str) -> None:
    assert _droco("lead", rule, hand, "", trump) == expected


@pytest.mark.parametrize("rule, hand, trick, trump, expected", [
    ("highest", "G2 G9 R13", "G5", "B1", "G9"),
    ("lowest", "G2 G9 R13", "G5", "B1", "G2"),
    ("cheapest_win", "G2 G7 G9 G12", "G5 G8", "B1", "G9"),
    ("cheapest_win", "G2 G7", "G5 G8", "B1", "G2"),           # nothing wins: the weakest
    ("cheapest_win", "G12 G13", "G5 B2", "B1", "G12"),        # a trump is in: nothing of the led colour wins
    ("highest_if_win", "G2 G9 G11", "G10", "B1", "G11"),
    ("highest_if_win", "G2 G9", "G10", "B1", "G2"),
    ("duck", "G2 G7 G9 G12", "G8", "B1", "G7"),               # the strongest card that stays under
    ("duck", "G9 G12", "G8", "B1", "G9"),                     # all would win: the weakest
    ("highest", "B2 B9", "B5", "B1", "B9"),                   # trump led, Droco follows with trumps
])
def test_droco_following(rule: str, hand: str, trick: str, trump: str, expected: str) -> None:
    assert _droco("follow", rule, hand, trick, trump) == expected


@pytest.mark.parametrize("rule, hand, trick, trump, expected", [
    ("lowest", "R3 O3 B9", "G5", "B1", "R3"),
    ("lowest", "B2 R3", "G5", "B1", "B2"),
    ("highest", "R13 B13 O4", "G5", "B1", "R13"),
    ("cheapest_trump_win", "B3 B8 B12 R2", "G5 B6", "B1", "B8"),
    ("cheapest_trump_win", "B3 R2 O9", "G5 B6", "B1", "R2"),  # no winning trump: the weakest non-trump
    ("cheapest_trump_win", "B3 B4", "G5 B6", "B1", "B3"),     # only losing trumps: the weakest trump
    ("highest_trump", "B3 B8 R2", "G5", "B1", "B8"),
    ("highest_trump", "R2 O9", "G5", "B1", "R2"),
    ("lowest_non_trump", "B2 R9 O4", "G5", "B1", "O4"),
    ("lowest_non_trump", "B2 B9", "G5", "B1", "B2"),
    ("highest_non_trump", "B13 R9 O4", "G5", "B1", "R9"),
    ("highest_non_trump", "B13 B9", "G5", "B1", "B9"),
])
def test_droco_unable_to_follow(rule: str, hand: str, trick: str, trump: str, expected: str) -> None:
    assert _droco("discard", rule, hand, trick, trump) == expected


def test_droco_agrees_with_the_reference_for_every_criterion_on_random_hands_and_tricks() -> None:
    """Every lead, follow and discard criterion on thousands of random hands, trumps and tricks (the engine's
    choice is computed by masks, with few branches: the reference, written as the rules read, decides)."""
    from robotcore.games.robotrick.data import DISCARD_RULES, FOLLOW_RULES, LEAD_RULES
    triples = [(LEAD_RULES[i % len(LEAD_RULES)], f, d) for i, (f, d) in
               enumerate((f, d) for f in FOLLOW_RULES for d in DISCARD_RULES)]
    rng = random.Random(2026)
    seen = set()
    for start in range(0, len(triples), 15):
        chunk = triples[start:start + 15]
        content = RobotrickContent(vp=RobotrickContent.default().vp,
                                   ai_cards=tuple(AICard(f"T{i}", *t) for i, t in enumerate(chunk)))
        game = robotcore.load_game("robotrick", content=content, same_ai_card=True)
        for _ in range(250 * len(chunk)):
            k = rng.randrange(len(chunk))
            deck = rng.sample(range(52), 52)
            trump = deck.pop()
            n_trick = rng.randrange(4)
            trick = deck[:n_trick]
            # hands of every size, sometimes without the led colour or without trumps
            hand = set(deck[n_trick:n_trick + rng.randint(1, 12)])
            if rng.random() < 0.3:
                drop = trump // 13 if rng.random() < 0.5 else (trick[0] // 13 if trick else rng.randrange(4))
                hand = {c for c in hand if c // 13 != drop} or hand
            players = [0, 1, 2][:n_trick]
            got = engine.droco_choice(game.core, bits_of(hand), trick, players, trump, k)
            want = ref.droco_card(hand, list(zip(players, trick)), trump, chunk[k])
            assert got == want, (chunk[k], sorted(hand), trick, trump)
            seen.add((chunk[k], n_trick > 0 and any(c // 13 == trick[0] // 13 for c in hand)))
    assert len(seen) >= 2 * len(triples) - 5          # each triple met both following and discarding


def bits_of(cards: set[int]) -> int:
    return sum(1 << c for c in cards)


def test_droco_plays_what_its_ai_card_says_in_real_games() -> None:
    """Every Droco card of many games is the one the active AI card's criteria name (reference decides)."""
    plays = {i: 0 for i in range(10)}
    rng = random.Random(9)
    rules = [(c.lead, c.follow, c.discard) for c in DEFAULT_AI_CARDS]
    for seed in range(60):
        state = robotcore.make("robotrick", seed=seed)
        while not state.is_terminal:
            random_play(state, rng, steps=1)
            g = fields(state)
            if g["phase"] == 1 and g["trick_len"]:
                trick = [(g["trick_player"][i], g["trick_card"][i]) for i in range(g["trick_len"])]
                for i, (p, c) in enumerate(trick):
                    if p == DROCO:
                        hand = ref.cards(g["hand"][DROCO]) | {c}
                        assert ref.droco_card(hand, trick[:i], g["trump"], rules[g["ai_card"]]) == c
                        plays[g["ai_card"]] += 1
    assert all(n > 0 for n in plays.values()), plays


# -- scoring ------------------------------------------------------------------------------------------------

def test_round_score_is_face_up_vp_minus_face_down_vp_and_may_be_negative() -> None:
    content = RobotrickContent.default()
    negative = 0
    for seed in range(40):
        state = robotcore.make("robotrick", seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            before = state.view(None)
            random_play(state, rng, steps=1)
            after = state.view(None)
            if len(after["round_scores"]) > len(before["round_scores"]):
                # the round just ended: its score is what the captures were worth at its last trick
                f = fields(state)
                last = after["round_scores"][-1]
                assert len(after["round_scores"]) == (f["round"] if not after["terminal"] else 3)
                for p in range(3):
                    negative += last[p] < 0
        v = state.view(None)
        assert v["scores"] == [sum(r[p] for r in v["round_scores"]) for p in range(3)]
        # the last round's captures are still visible at the end: check its score from them
        last = v["round_scores"][-1]
        for p in range(3):
            up = sum(content.vp[parse_card(c)] for c in v["captures"][p]["face_up"])
            down = sum(content.vp[parse_card(c)] for c in v["captures"][p]["face_down"])
            assert last[p] == up - down
    assert negative > 10


def test_three_rounds_then_the_game_ends_and_totals_decide() -> None:
    state = random_play(robotcore.make("robotrick", seed=10), random.Random(10))
    v = state.view(None)
    assert len(v["round_scores"]) == 3 and state.is_terminal
    totals = [sum(r[p] for r in v["round_scores"]) for p in range(3)]
    assert state.scores() == totals
    assert state.outcome().winners == tuple(p for p in range(3) if totals[p] == max(totals))


def test_rounds_parameter() -> None:
    state = random_play(robotcore.make("robotrick", seed=1, rounds=1), random.Random(1))
    assert len(state.history) == 42 and len(state.view(None)["round_scores"]) == 1


def test_ties_share_the_victory() -> None:
    """A finished game whose totals tie: both seats win, each return is 1/2."""
    game = robotcore.load_game("robotrick")
    for seed in range(400):
        state = random_play(game.new_initial_state(seed=seed), random.Random(seed))
        scores = state.scores()
        if len(set(scores)) < 3 and max(scores) == sorted(scores)[1]:
            break
    else:
        # no natural tie among 400 games: build one from a finished state by editing the round scores
        f = fields(state)
        f["round_scores"] = [[5, 5, 1], [0, 0, 0], [2, 2, 2]]
        state = game.state_from_row(np.frombuffer(engine.pack_state(f), dtype=np.uint8))
    out = state.outcome()
    assert out is not None and out.shared and len(out.winners) == 2
    assert sorted(state.returns()) == [0.0, 0.5, 0.5]


def test_vp_content_is_replaceable() -> None:
    double = RobotrickContent(vp=tuple(2 * v for v in RobotrickContent.default().vp),
                              ai_cards=DEFAULT_AI_CARDS)
    rng = random.Random(11)
    a = random_play(robotcore.make("robotrick", seed=11), rng)
    b = robotcore.load_game("robotrick", content=double).replay(11, a.history)
    assert b.scores() == [2 * s for s in a.scores()]
    assert RobotrickContent.from_json(double.to_json()) == double
    with pytest.raises(robotcore.InvalidParameterError):
        RobotrickContent(vp=(1,) * 51, ai_cards=DEFAULT_AI_CARDS)
    with pytest.raises(robotcore.InvalidParameterError):
        AICard("X", "sideways", "highest", "lowest")
    with pytest.raises(robotcore.InvalidParameterError):
        robotcore.make("robotrick", content=RobotrickContent(vp=double.vp, ai_cards=DEFAULT_AI_CARDS[:2]))
    # bytes of a custom-content game are not readable as the default game
    with pytest.raises(robotcore.CorruptStateError):
        robotcore.load_game("robotrick").from_bytes(b.to_bytes())
    assert robotcore.from_bytes(b.to_bytes(), content=double) == b


# -- views --------------------------------------------------------------------------------------------------

def test_a_seat_sees_its_hand_and_the_public_table_only() -> None:
    rng = random.Random(12)
    state = random_play(robotcore.make("robotrick", seed=12), rng, steps=30)
    f = fields(state)
    for seat in range(3):
        v = state.view(seat)
        assert v["hand"] == [card_name(c) for c in sorted(ref.cards(f["hand"][seat]))]
        assert "hands" not in v and "aside" not in v and "passed" not in v
        text = str(v)
        for other in range(3):
            if other != seat:
                unplayed_hidden = ref.cards(f["hand"][other]) - ref.cards(f["passed"][seat])
                assert not any(f"'{card_name(c)}'" in text for c in unplayed_hidden)
        assert not any(f"'{card_name(c)}'" in text for c in ref.cards(f["aside"]))
    spectator = state.view(None)
    assert "hand" not in spectator and "pass" not in spectator
    omni = state.game.omniscient_view(state)
    assert omni["aside"] == [card_name(c) for c in sorted(ref.cards(f["aside"]))]


# -- the engine against the reference, move by move ---------------------------------------------------------

@pytest.mark.parametrize("params", [{}, {"hangars": 4}, {"same_ai_card": True}, {"rounds": 2}])
def test_engine_matches_reference_move_by_move(params: dict) -> None:
    game = robotcore.load_game("robotrick", **params)
    content = game.content
    cfg = ref.Cfg(vp=list(content.vp), ai=[(c.lead, c.follow, c.discard) for c in content.ai_cards],
                  hangars=game.params["hangars"], rounds=game.params["rounds"],
                  same_ai=game.params["same_ai_card"])
    rng = random.Random(13)
    for seed in range(150):
        state = game.new_initial_state(seed=seed)
        model = ref.Reference(cfg, fields(state))
        while not state.is_terminal:
            assert state.actors == model.actors()
            for seat in range(3):
                assert state.legal_actions(seat) == model.legal(seat)
            seat = rng.choice(state.actors)
            action = rng.choice(state.legal_actions(seat))
            state.apply(action, seat)
            model.apply(seat, action)
            if model.f["phase"] == 3:
                model.take_deal(fields(state))
            got = fields(state)
            model.f["rng"] = got["rng"]
            assert got == model.f
            assert state.scores() == model.scores()


def test_random_and_heuristic_games_use_every_ai_card_and_end() -> None:
    """Every AI card is drawn in native random playouts and every game ends with 3 round scores."""
    game = robotcore.load_game("robotrick")
    arr = game.new_batch(np.arange(2000, dtype=np.uint64))
    first = {engine.unpack_state(row)["ai_card"] for row in arr}
    assert first == set(range(10))
    assert (batch.random_playouts(game, arr, 1) == 126).all()


@pytest.mark.parametrize("seed", [3, 8])
def test_views_keep_how_each_round_ended(seed: int) -> None:
    """The next round's deal used to replace the 12th trick and the final captures at once: every view now keeps
    each finished round (its trump, 12 tricks, final captures and scores) and the last trick played."""
    state = robotcore.make("robotrick", seed=seed)
    rng = random.Random(seed)
    ends: list[dict] = []
    while not state.is_terminal:
        before = state.view(None)
        seat = rng.choice(state.actors)
        state.apply(rng.choice(state.legal_actions(seat)), seat)
        after = state.view(None)
        if after["round"] != before["round"]:            # that action ended a round
            ends.append({"trump": before["trump"], "tricks_before": before["tricks"], "view": after})
    assert len(ends) == 2
    final = state.view(None)
    for r, end in enumerate(ends):
        for seat in (None, 0, 1, 2):
            past = state.view(seat)["past_rounds"][r]
            assert past == final["past_rounds"][r]
        past = end["view"]["past_rounds"][r]
        assert past["round"] == r + 1 and past["trump"] == end["trump"] and len(past["tricks"]) == 12
        assert past["tricks"][:11] == end["tricks_before"]      # the same tricks as the round showed while on
        assert end["view"]["last_trick"] == past["tricks"][11]
        assert past["scores"] == final["round_scores"][r]
        captured = [set(c["face_up"]) | set(c["face_down"]) for c in past["captures"]]
        for trick in past["tricks"]:                          # captures are what the winners took
            if trick["winner"] == "droco":
                assert all(c in captured[p] for p, c in trick["cards"] if p != "droco")
            else:
                droco_card = next(c for p, c in trick["cards"] if p == "droco")
                assert droco_card in captured[trick["winner"]]
    assert len(final["past_rounds"]) == 2 and len(final["tricks"]) == 12   # the last round stays in place
    assert final["last_trick"] == final["tricks"][-1]
