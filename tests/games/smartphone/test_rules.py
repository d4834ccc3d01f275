"""One test per rule of the Smartphone seed (seed 004), of the research note's numbers (PhoneImpact at the seed's
date) and of our documented defaults (RULES.md), each on a hand-made position (scenario.py) where the rule decides
the outcome."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

import robotcore
from robotcore.bots import _search
from robotcore.errors import IllegalActionError, InvalidParameterError
from robotcore.games.smartphone import SmartphoneContent, SmartphoneGame
from robotcore.games.smartphone.data import DEFAULT_EVENTS, DEFAULT_MALUS, Event

from ...conftest import random_play
from .scenario import (
    FL_NODEP,
    FL_TRADING,
    at_event,
    before_event,
    empty_pile_but,
    fields,
    from_fields,
    game,
    give,
    give_malus,
    hand,
    kind,
    malus_index,
    phase,
    pile_of,
    set_market,
    skip_top,
    turn_of,
)

# -- content ------------------------------------------------------------------------------------------------------


def test_components_recipes_and_points_are_the_seed_era_board() -> None:
    c = SmartphoneContent.default()
    table = {x.name: (x.points, x.recipe) for x in c.components}
    # (MP, MR, MC, TR, AM)
    assert table == {"shell": (4, (0, 1, 1, 0, 3)), "battery": (6, (0, 1, 2, 0, 1)),
                     "screen": (8, (0, 1, 1, 1, 2)), "motherboard": (10, (1, 2, 2, 1, 2))}
    assert sum(sum(r) for _, r in table.values()) == 22
    assert c.recipes(True)[2] == (1, 1, 1, 1, 2)          # the 2025 screen


def test_supplier_decks_market_and_rates() -> None:
    c = SmartphoneContent.default()
    p, m, r = c.suppliers
    assert (sum(p.deck), sum(m.deck), sum(r.deck)) == (75, 49, 17)
    assert p.deck == (3, 16, 26, 8, 22) and m.deck == (2, 10, 15, 5, 17) and r.deck == (2, 0, 6, 0, 9)
    assert [(s.visible, s.take, s.malus) for s in c.suppliers] == [(3, 3, 2), (2, 2, 1), (1, 1, 0)]


def test_recycling_deck_without_rare_metal_or_rare_earth_is_enforced() -> None:
    c = SmartphoneContent.default().to_json()
    c["suppliers"][2]["deck"]["MR"] = 1
    with pytest.raises(InvalidParameterError):
        SmartphoneContent.from_json(c)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_malus_pile_is_12_per_player_with_the_definitions_on_top(players: int) -> None:
    g = game(players=players)
    s = g.new_initial_state(0)
    v = s.view(None)
    assert v["malus_pile"] == 12 * players
    f = g.fields(s)
    assert f["top_next"] == 0 and sum(f["pile"]) == 12 * players - 3
    # the first three malus drawn are the definitions, in order
    t = [malus_index(g, n) for n in ("M01", "M02", "M03")]
    s.apply_str("supply PolluPlus")
    for _ in range(3):
        s.apply_str("draw P")
    assert g.fields(s)["malus"][0][t[0]] == 1 and g.fields(s)["malus"][0][t[1]] == 1


def test_fourteen_events_in_fixed_order_with_1_and_5_starred_and_13_the_end() -> None:
    c = SmartphoneContent.default()
    assert [e.number for e in c.events] == list(range(1, 15))
    assert [e.number for e in c.events if e.star] == [1, 5]
    assert c.events[12].kind == "end_game"
    assert game().event_numbers == tuple(range(1, 15))
    assert game(length="20").event_numbers == (1, 5, 6, 7, 13)
    # every card keeps a source and has a French and an English text
    for e in c.events:
        assert e.source and e.text_fr and e.text_en
    for m in DEFAULT_MALUS:
        assert m.source and m.text_fr and m.text_en


def test_content_round_trips_and_is_validated() -> None:
    c = SmartphoneContent.default()
    again = SmartphoneContent.from_json(json.dumps(c.to_json()))
    assert again == c and again.digest() == c.digest()
    g = game(content=again)
    assert g.num_actions == game().num_actions
    bad = c.to_json()
    bad["events"][0]["kind"] = "teleport"
    with pytest.raises(InvalidParameterError):
        SmartphoneContent.from_json(bad)
    with pytest.raises(InvalidParameterError):
        Event(1, "quiz_take", True, "", "", "", "")              # a quiz_take needs an amount


def test_replaced_content_changes_the_game() -> None:
    c = SmartphoneContent.default().to_json()
    c["components"][0]["points"] = 40
    g = game(content=SmartphoneContent.from_json(c))
    f = fields(g)
    for name in ("P-MR", "P-MC", "P-AM"):
        give(f, 0, name, 3)
    s = from_fields(g, f)
    s.apply_str("build shell MR:P MC:P AM:PPP")
    assert s.scores()[0] == 40


# -- set-up and turns ---------------------------------------------------------------------------------------------


def test_setup_market_3_2_1_and_seat_0_starts() -> None:
    s = game().new_initial_state(3)
    v = s.view(None)
    assert [len(v["market"][x]) for x in ("PolluPlus", "PolluMoins", "Recyclage")] == [3, 2, 1]
    assert all(t is not None for cards in v["market"].values() for t in cards)
    assert v["deck_sizes"] == {"PolluPlus": 72, "PolluMoins": 47, "Recyclage": 16}
    assert s.actors == [0] and v["first_player"] == 0


def test_one_action_per_turn_clockwise_and_the_first_player_moves_on() -> None:
    g = game(players=3)
    s = g.new_initial_state(1)
    order = []
    for _ in range(6):
        order.append(s.current_player)
        s.apply_str("supply Recyclage")
        s.apply_str("draw R")
        if phase(g, s) != "main":                                    # the event after the round
            break
    assert order[:3] == [0, 1, 2]
    # after round 1 and event 1 (a quiz pick), round 2 starts with seat 1
    while phase(g, s) != "main":
        s.apply(s.legal_actions()[0])
    assert s.view(None)["first_player"] == 1 and s.current_player == 1


@pytest.mark.parametrize("supplier, cards, malus", [("PolluPlus", 3, 2), ("PolluMoins", 2, 1), ("Recyclage", 1, 0)])
def test_supply_takes_cards_and_malus(supplier: str, cards: int, malus: int) -> None:
    g = game()
    s = g.new_initial_state(5)
    code = supplier[0] if supplier != "PolluMoins" else "M"
    s.apply_str(f"supply {supplier}")
    for _ in range(cards):
        assert s.current_player == 0
        s.apply_str(f"draw {code}")
    v = s.view(0)
    assert sum(v["hand"].values()) == cards
    assert v["players"][0]["hand_by_supplier"][supplier] == cards
    assert v["players"][0]["malus_count"] == malus
    assert s.current_player == 1


def test_visible_cards_taken_are_replaced_at_the_end_of_the_turn_only() -> None:
    g = game()
    f = fields(g)
    set_market(f, "PolluPlus", ["MR", "TR", "AM"])
    s = from_fields(g, f)
    s.apply_str("supply PolluPlus")
    s.apply_str("take P2")
    assert s.view(None)["market"]["PolluPlus"] == ["MR", None, "AM"]
    assert "take P2" not in s.legal_action_strs()
    s.apply_str("take P1")
    assert hand(s, 0) == {"P-MR": 1, "P-TR": 1}
    # others saw these two cards go to seat 0's hand
    assert s.view(1)["players"][0]["known_in_hand"] == {"P-MR": 1, "P-TR": 1}
    s.apply_str("draw P")
    assert None not in s.view(None)["market"]["PolluPlus"]
    assert s.view(1)["players"][0]["hand_by_supplier"]["PolluPlus"] == 3
    assert "hand" not in s.view(None) and sum(s.view(1)["hand"].values()) == 0


def test_a_supply_stops_when_its_supplier_runs_out_and_an_empty_supplier_cannot_be_chosen() -> None:
    g = game()
    f = fields(g)
    for t in range(5):                                # PolluMoins: the deck is gone, one face-up card is left
        f["out"][5 + t] += f["deck"][5 + t]
        f["deck"][5 + t] = 0
    f["out"][5 + f["market"][1][1]] += 1
    f["market"][1][1] = 0xFF
    s = from_fields(g, f)
    s.apply_str("supply PolluMoins")
    assert s.legal_action_strs() == ["take M1"]
    s.apply_str("take M1")
    v = s.view(None)
    assert s.current_player == 1 and sum(s.view(0)["hand"].values()) == 1     # one card instead of two
    assert v["players"][0]["malus_count"] == 1 and v["market"]["PolluMoins"] == [None, None]
    assert "supply PolluMoins" not in s.legal_action_strs() and "supply PolluPlus" in s.legal_action_strs()


def test_build_lays_exactly_the_recipe_once_per_component() -> None:
    g = game()
    f = fields(g)
    give(f, 0, "P-MR", 2)
    give(f, 0, "M-MC")
    give(f, 0, "R-AM", 3)
    give(f, 0, "P-AM", 1)
    s = from_fields(g, f)
    legal = s.legal_action_strs()
    assert "build shell MR:P MC:M AM:PRR" in legal and "build shell MR:P MC:M AM:RRR" in legal
    assert not any(a.startswith("build battery") for a in legal)          # needs 2 MC
    s.apply_str("build shell MR:P MC:M AM:RRR")
    v = s.view(None)
    assert v["players"][0]["built"] == ["shell"] and v["players"][0]["laid"] == {"P-MR": 1, "M-MC": 1, "R-AM": 3}
    assert hand(s, 0) == {"P-MR": 1, "P-AM": 1}
    assert s.current_player == 1                                         # building is the turn's action
    f = g.fields(s)
    give(f, 0, "P-MC")
    give(f, 0, "P-AM", 2)
    turn_of(f, 0, 4)
    s = from_fields(g, f)
    assert not any(a.startswith("build shell") for a in s.legal_action_strs())   # built once


def test_depollute_discards_one_or_two_malus_out_of_the_game() -> None:
    g = game()
    f = fields(g)
    skip_top(g, f)
    give_malus(g, f, 0, "M04")
    give_malus(g, f, 0, "M05")
    give_malus(g, f, 0, "M06")
    s = from_fields(g, f)
    pile = s.view(None)["malus_pile"]
    s.apply_str("depollute M04")
    assert s.current_player == 0 and set(s.legal_action_strs()) == {"depollute M05", "depollute M06", "stop"}
    s.apply_str("depollute M06")
    v = s.view(None)
    assert v["players"][0]["malus"] == {"M05": 1} and v["malus_set_aside"] == {"M01": 1, "M02": 1, "M03": 1,
                                                                               "M04": 1, "M06": 1}
    assert v["malus_pile"] == pile and s.current_player == 1
    # one only, then stop
    f = g.fields(s)
    turn_of(f, 0, 4)
    s = from_fields(g, f)
    s.apply_str("depollute M05")
    assert s.current_player == 1                                         # nothing left to discard: turn over


def test_pass_only_when_nothing_else_is_possible_or_during_event_12() -> None:
    g = game()
    s = g.new_initial_state(0)
    assert "pass" not in s.legal_action_strs()
    f = g.fields(s)
    f["flags"] |= FL_NODEP
    give_malus(g, f, 0, "M04")
    s = from_fields(g, f)
    assert "pass" in s.legal_action_strs() and "depollute M04" not in s.legal_action_strs()


def test_pass_when_no_action_is_possible() -> None:
    g = game()
    f = fields(g)
    empty_pile_but(g, f, 0)                           # PolluPlus and PolluMoins closed
    for t in range(5):                                # Recyclage has no card left
        f["out"][10 + t] += f["deck"][10 + t]
        f["deck"][10 + t] = 0
    f["out"][10 + f["market"][2][0]] += 1
    f["market"][2][0] = 0xFF
    give(f, 0, "P-MR")                                # no recipe reached, no malus to discard
    s = from_fields(g, f)
    assert s.legal_action_strs() == ["pass"]
    s.apply_str("pass")
    assert s.current_player == 1


# -- events -------------------------------------------------------------------------------------------------------


def test_star_order_most_recycled_then_fewest_malus_then_quiz() -> None:
    # event 5 visits the fewest malus first, then by the * order: with no malus anywhere, the * order itself
    g = game()
    f = fields(g)
    skip_top(g, f)
    give(f, 2, "R-MC")                               # seat 2: one recycled card
    s = at_event(g, f, 5)
    order = s.view(None)["turn_state"]["event_order"]
    quiz = s.view(None)["turn_state"]["quiz_ranks"]
    assert s.current_player == 2 and order == [2] + sorted((0, 1, 3), key=lambda p: quiz[p])
    # event 10's champion: most recycled cards, then fewest malus, then the quiz
    f = fields(g)
    skip_top(g, f)
    give(f, 1, "R-MC")
    give(f, 3, "R-AM")
    give_malus(g, f, 1, "M04")                       # seats 1 and 3 tie on recycled cards; seat 1 has a malus
    give(f, 0, "P-MR")                               # the target
    s = at_event(g, f, 10)
    assert phase(g, s) == "event_tax" and s.current_player == 3
    f = fields(g)
    skip_top(g, f)
    give(f, 1, "R-MC")
    give(f, 3, "R-AM")
    give(f, 0, "P-MR")
    s = at_event(g, f, 10)
    quiz = s.view(None)["turn_state"]["quiz_ranks"]
    assert s.current_player == min((1, 3), key=lambda p: quiz[p])


def test_event_1_the_closest_quiz_answer_takes_one_visible_card_then_refill() -> None:
    """Card 1 (events.csv @db08592): "Le plus proche de la bonne reponse prend une ressource parmi les cartes
    visibles". The quiz is a seeded draw (a ranking, ``quiz_ranks``): rank 0 takes, whoever holds the recycled
    cards (the * order would only break ties between equally close answers, which a ranking has none of)."""
    g = game()
    winners = set()
    for seed in range(8):
        f = fields(g, seed)
        give(f, 1, "R-AM")                            # the * order's first: it does not decide the quiz
        set_market(f, "PolluPlus", ["TR", "MC", "AM"])
        set_market(f, "PolluMoins", ["MR", "TR"])         # never 4 of a type after the refill: no refresh vote
        set_market(f, "Recyclage", ["MC"])
        s = at_event(g, f, 1)
        quiz = s.view(None)["turn_state"]["quiz_ranks"]
        winner = quiz.index(0)
        winners.add(winner)
        assert s.current_player == winner and s.view(None)["turn_state"]["event_order"] == [winner]
        assert len(s.legal_actions()) == 6 and "decline" not in s.legal_action_strs()
        s.apply_str("take P1")
        assert hand(s, winner).get("P-TR") == 1
        v = s.view(None)
        assert None not in v["market"]["PolluPlus"] and v["phase"] == "main" and s.current_player == 1
    assert len(winners) > 1 and winners != {1}
    assert g.content.events[0].quiz is not None                            # the question for a UI


def test_event_2_owners_of_recycled_cards_take_a_recyclable_card() -> None:
    g = game()
    f = fields(g)
    give(f, 1, "R-AM")
    give(f, 3, "R-MC")
    set_market(f, "PolluPlus", ["TR", "MR", "MC"])
    set_market(f, "PolluMoins", ["TR", "MR"])
    set_market(f, "Recyclage", ["AM"])
    s = at_event(g, f, 2)
    assert s.current_player == 1 and set(s.legal_action_strs()) == {"take P3", "take R1"}
    s.apply_str("take R1")
    assert s.current_player == 3 and s.legal_action_strs() == ["take P3"]      # no refill until all took
    s.apply_str("take P3")
    assert hand(s, 3) == {"R-MC": 1, "P-MC": 1} and phase(g, s) == "main"


def test_event_3_allows_trading_offer_accept_and_refuse() -> None:
    g = game()
    f = fields(g)
    give(f, 0, "P-MR")
    give(f, 0, "R-AM")
    give(f, 1, "M-TR")
    s = at_event(g, f, 3)
    assert s.view(None)["rules"]["trading"] and s.current_player == 1
    f = g.fields(s)
    turn_of(f, 0, 4)
    s = from_fields(g, f)
    assert {"offer 1", "offer 2", "offer 3"} <= set(s.legal_action_strs())
    s.apply_str("offer 1")
    legal = s.legal_action_strs()
    assert "give P-MR" in legal and "give R-AM" not in legal          # recycled cards are never traded
    s.apply_str("give P-MR")
    s.apply_str("ask M-TR")
    s.apply_str("send")
    assert s.current_player == 1 and set(s.legal_action_strs()) == {"accept", "refuse"}
    twin = s.clone()
    s.apply_str("accept")
    assert hand(s, 0) == {"R-AM": 1, "M-TR": 1} and hand(s, 1) == {"P-MR": 1}
    assert s.current_player == 0 and not any(a.startswith("offer") for a in s.legal_action_strs())
    twin.apply_str("refuse")
    assert hand(twin, 0) == {"P-MR": 1, "R-AM": 1} and twin.current_player == 0


def test_trade_accept_needs_the_asked_cards() -> None:
    g = game()
    f = fields(g)
    f["flags"] |= FL_TRADING
    give(f, 0, "P-MR")
    s = from_fields(g, f)
    for a in ("offer 2", "give P-MR", "ask M-AM", "ask M-AM", "send"):
        s.apply_str(a)
    assert s.legal_action_strs() == ["refuse"]


def test_event_4_discards_two_pollu_plus_resources_chosen_by_the_owner() -> None:
    g = game()
    f = fields(g)
    give(f, 0, "P-MR", 2)
    give(f, 0, "P-AM")
    give(f, 0, "R-MC")
    give(f, 2, "P-TR")
    s = at_event(g, f, 4)
    assert s.current_player == 0 and set(s.legal_action_strs()) == {"discard P-MR", "discard P-AM"}
    s.apply_str("discard P-AM")
    s.apply_str("discard P-MR")
    assert hand(s, 0) == {"P-MR": 1, "R-MC": 1}
    assert s.current_player == 2 and s.legal_action_strs() == ["discard P-TR"]    # one only
    s.apply_str("discard P-TR")
    assert phase(g, s) == "main" and s.view(None)["out_of_game"] == {"P-MR": 1, "P-TR": 1, "P-AM": 1}


def test_event_5_fewest_malus_first_each_takes_and_each_card_costs_a_malus_of_the_pile() -> None:
    g = game()
    f = fields(g)
    skip_top(g, f)
    give_malus(g, f, 0, "M04", 2)
    give_malus(g, f, 1, "M05", 1)
    give_malus(g, f, 3, "M06", 3)
    s = at_event(g, f, 5)
    # "Choisissez une ressource parmi celles qui sont visibles": a pick, not an offer to decline, and the card's
    # text (what a user interface shows) says so
    ev5 = next(e for e in g.content.events if e.number == 5)
    assert "prend une carte visible" in ev5.text_fr and "peut" not in ev5.text_fr
    assert "takes a face-up card" in ev5.text_en and "may" not in ev5.text_en
    assert s.current_player == 2 and "decline" not in s.legal_action_strs()
    assert set(s.legal_action_strs()) == {f"take {slot}" for slot in ("P1", "P2", "P3", "M1", "M2", "R1")}
    pile = s.view(None)["malus_pile"]
    s.apply_str("take P1")
    assert s.view(None)["malus_pile"] == pile - 1
    assert s.current_player == 1 and "decline" not in s.legal_action_strs()
    with pytest.raises(robotcore.IllegalActionError):
        s.apply_str("decline")
    s.apply_str("take M1")
    assert s.current_player == 0 and s.view(None)["malus_pile"] == pile - 2


def test_event_5_refills_the_market_once_every_player_has_picked() -> None:
    """PhoneImpact's rules of the seed's era (docs/ReglesDuJeu.md @11fba889): "Si des cartes ressources visibles
    sont piochées, elles sont remplacées à la fin de l'événement, une fois que tous les joueurs ont effectué leur
    action" (the 2025 rules: "remplacées avant le début du nouveau tour de jeu"): a later picker chooses among the
    cards left, never a card revealed by an earlier pick."""
    g = game()
    f = fields(g, 21)
    set_market(f, "PolluPlus", ["AM", "AM", "AM"])
    set_market(f, "PolluMoins", ["AM", "AM"])
    set_market(f, "Recyclage", ["AM"])
    s = at_event(g, f, 5)
    order = s.view(None)["turn_state"]["event_order"]
    slots = ["P1", "P2", "P3", "M1", "M2"]
    for n, (seat, slot) in enumerate(zip(order, slots)):
        assert s.current_player == seat
        assert s.legal_action_strs() == [f"take {x}" for x in slots[n:]] + ["take R1"]   # only the cards left
        s.apply_str(f"take {slot}")
        v = s.view(None)
        if n < len(order) - 1:
            assert v["market"]["PolluPlus"] + v["market"]["PolluMoins"] == [None] * (n + 1) + ["AM"] * (4 - n)
    assert phase(g, s) != "event_pick"
    market = s.view(None)["market"]
    assert None not in market["PolluPlus"] + market["PolluMoins"] + market["Recyclage"]     # refilled at the end


def test_event_6_every_malus_costs_a_point() -> None:
    g = game()
    f = fields(g)
    skip_top(g, f)
    give_malus(g, f, 0, "M04", 3)
    s = at_event(g, f, 6)
    assert s.scores()[0] == -3 and s.view(None)["rules"]["malus_penalty"] == 1


def test_event_7_takes_a_random_card_from_a_more_polluted_left_neighbour() -> None:
    g = game(players=3)
    f = fields(g)
    skip_top(g, f)
    give_malus(g, f, 1, "M04", 2)                     # seat 0's left neighbour (seat 1) has more malus
    give(f, 1, "P-MR")
    give(f, 1, "R-AM")                                # recycled: never taken
    give_malus(g, f, 2, "M05", 1)
    give(f, 0, "M-MC")                                # seat 2's left neighbour is seat 0 (fewer malus)
    s = at_event(g, f, 7)
    assert hand(s, 0) == {"M-MC": 1, "P-MR": 1} and hand(s, 1) == {"R-AM": 1}
    assert s.view(1)["players"][0]["known_in_hand"] == {"P-MR": 1}      # the victim saw the card go
    assert s.view(2)["players"][0]["known_in_hand"] == {}               # seat 2 saw its back only


# -- event 7 and 10: a stolen card is seen by the thief and the victim only -----------------------------------------


def steal(victim: dict[str, tuple[int, int]], stolen: str, thief: dict[str, int] | None = None,
          ) -> tuple[SmartphoneGame, robotcore.State]:
    """Event 7 at 3 players: seat 0 takes a random non-recycled card from seat 1 (its left neighbour, with more
    malus); seat 2 takes part in nothing. ``victim``: kind -> (cards, of which known to everyone); ``thief``: its
    hidden cards. The PRNG (hidden from every seat: any value is a state) is chosen so that the card taken is
    ``stolen``."""
    g = game(players=3)
    for rng in range(500):
        f = fields(g)
        f["rng"] = rng
        skip_top(g, f)
        give_malus(g, f, 1, "M04", 2)
        for name, (n, known) in victim.items():
            give(f, 1, name, n, known=known)
        for name, n in (thief or {}).items():
            give(f, 0, name, n)
        s = at_event(g, f, 7)
        before = sum(hand(s, 0).values()) - 1
        if hand(s, 0).get(stolen, 0) == (thief or {}).get(stolen, 0) + 1:
            assert sum((thief or {}).values()) == before
            return g, s
    raise AssertionError(f"no PRNG value steals {stolen}")


def seat_sees(s: robotcore.State, seat: int | None, holder: int) -> dict[str, int]:
    return dict(s.view(seat)["players"][holder]["known_in_hand"])


def test_event_7_an_uninvolved_seat_does_not_see_the_stolen_card() -> None:
    """At the table only the thief and the victim see the stolen card (the original: resource cards are kept in
    hand, hidden from the other players); seat 2 learns only that a PolluPlus card moved from seat 1 to seat 0:
    its view and its observation are the same whichever card it was."""
    seen = []
    for stolen in ("P-TR", "P-MR"):
        g, s = steal({stolen: (1, 0)}, stolen)             # nobody saw it enter seat 1's hand
        assert hand(s, 0) == {stolen: 1}
        assert s.view(2)["players"][0]["hand_by_supplier"]["PolluPlus"] == 1
        seen.append((json.dumps(s.view(2), sort_keys=True), s.observation(2).tobytes(),
                     json.dumps(s.view(None), sort_keys=True)))
    assert seen[0] == seen[1]


def test_event_7_the_victim_sees_the_thief_hold_the_stolen_kind() -> None:
    g, s = steal({"P-TR": (1, 0), "P-MR": (1, 0)}, "P-TR")
    assert seat_sees(s, 1, 0) == {"P-TR": 1}
    assert seat_sees(s, 0, 0) == {} and seat_sees(s, 2, 0) == {} and seat_sees(s, None, 0) == {}
    # and in the victim's observation: the known-cards block of seat 0, two seats on from seat 1 (RULES.md,
    # "Observation tensor": 15 own hand, then per player from the seat on 3 by supplier, 15 known, 15 laid, ...)
    per_player = 3 + 30 + len(g.content.components) + len(g.content.malus) + 3  # type: ignore[union-attr]
    block = 15 + 2 * per_player + 3
    for seat, value in ((1, 0.25), (2, 0.0)):
        obs = s.observation(seat)
        rel = (0 - seat) % 3
        block = 15 + rel * per_player + 3
        assert obs[block + kind("P-TR")] == value and obs[block:block + 15].sum() == value


def test_event_7_the_thief_sees_the_victim_lose_only_the_stolen_kind() -> None:
    # every seat knew seat 1 held a P-MR and a P-TR; seat 0 takes the P-MR
    g, s = steal({"P-MR": (1, 1), "P-TR": (1, 1), "P-MC": (1, 0)}, "P-MR")
    assert seat_sees(s, 0, 1) == {"P-TR": 1}                          # the thief knows which one is gone
    assert seat_sees(s, 2, 1) == {} and seat_sees(s, None, 1) == {}  # the others: it could have been either


def test_event_7_an_uninvolved_seat_lowers_every_known_kind_of_the_supplier() -> None:
    g, s = steal({"P-MR": (2, 2), "P-TR": (1, 1), "M-AM": (1, 1)}, "P-TR")
    for seat in (2, None):                                            # an uninvolved seat, a spectator
        assert seat_sees(s, seat, 1) == {"P-MR": 1, "M-AM": 1}        # one fewer of each PolluPlus kind
        assert seat_sees(s, seat, 0) == {}
    assert seat_sees(s, 0, 1) == {"P-MR": 2, "M-AM": 1}               # the thief took the P-TR
    assert seat_sees(s, 1, 0) == {"P-TR": 1}


def test_event_7_what_the_victim_knows_vanishes_when_the_card_is_laid() -> None:
    g, s = steal({"P-MR": (1, 0), "P-TR": (1, 0)}, "P-MR", thief={"M-MC": 1, "P-AM": 3})
    assert seat_sees(s, 1, 0) == {"P-MR": 1}
    f = g.fields(s)
    assert f["private_of"] == 1 and f["private_known"][1][0][kind("P-MR")] == 1
    turn_of(f, 0, 3)
    s = from_fields(g, f)
    s.apply_str("build shell MR:P MC:M AM:PPP")
    assert seat_sees(s, 1, 0) == {} and s.view(None)["players"][0]["laid"]["P-MR"] == 1
    f = g.fields(s)
    assert f["private_of"] == 0 and not any(map(any, f["private_known"][1]))


def test_event_7_what_the_victim_knows_vanishes_when_the_card_is_discarded() -> None:
    # event 9: seat 0 holds 3 P-MR (the stolen one and 2 nobody saw) and must discard one; the victim can no
    # longer be sure it holds the stolen one
    g, s = steal({"P-MR": (1, 0), "P-TR": (1, 0)}, "P-MR", thief={"P-MR": 2})
    assert seat_sees(s, 1, 0) == {"P-MR": 1}
    f = g.fields(s)
    before_event(g, f, 9)
    s = from_fields(g, f)
    s.apply_str("pass")
    while s.current_player != 0:                      # event 9 visits everyone from the round's first player
        s.apply_str("done")
    assert s.legal_action_strs() == ["discard P-MR"]
    s.apply_str("discard P-MR")
    assert hand(s, 0) == {"P-MR": 2} and seat_sees(s, 1, 0) == {}
    assert g.fields(s)["private_of"] == 0


def test_event_7_resampling_hides_the_kind_from_an_uninvolved_seat_and_keeps_it_for_the_victim() -> None:
    g, s = steal({"P-MR": (1, 0), "P-TR": (1, 0), "P-AM": (1, 0)}, "P-TR")
    thief_kinds = set()
    for seed in range(40):
        r = s.resample_hidden(2, seed)
        (k,) = g.omniscient_view(r)["hands"][0]
        thief_kinds.add(k)
        assert seat_sees(r, 2, 0) == seat_sees(s, 2, 0) and seat_sees(r, 2, 1) == seat_sees(s, 2, 1)
        assert g.fields(r)["private_of"] == 0             # what the thief and the victim know is hidden from seat 2
        victim = s.resample_hidden(1, seed)
        assert g.omniscient_view(victim)["hands"][0] == {"P-TR": 1}
        assert seat_sees(victim, 1, 0) == {"P-TR": 1}
        thief = s.resample_hidden(0, seed)
        assert hand(thief, 0) == {"P-TR": 1}
    assert len(thief_kinds) >= 3                          # any PolluPlus kind the deck holds


def test_event_7_resampling_for_an_uninvolved_seat_is_the_same_whichever_card_was_stolen() -> None:
    """Every seat knew seat 1 held a P-MR, and it also held a P-TR nobody saw. Whether the thief took the P-MR or
    the P-TR, seat 2 sees the same; the thief then still knows (when it took the P-TR) or no longer knows (the
    P-MR) that seat 1 holds a P-MR: so even how much the thief knows privately is hidden from seat 2, and a
    re-deal for seat 2 (a determinisation for its search) must not carry it."""
    worlds = []
    for stolen in ("P-MR", "P-TR"):
        g, s = steal({"P-MR": (1, 1), "P-TR": (1, 0)}, stolen)
        worlds.append((g, s))
    (g, a), (_, b) = worlds
    # how much the thief knows beyond the public bound: nothing (it took the P-MR), or the P-MR (it took the P-TR)
    assert sum(g.fields(a)["private_known"][0][1]) == 0 and sum(g.fields(b)["private_known"][0][1]) == 1
    assert a.view(2) == b.view(2) and np.array_equal(a.observation(2), b.observation(2))
    for seed in range(10):
        assert a.resample_hidden(2, seed).state_bytes() == b.resample_hidden(2, seed).state_bytes()


def test_event_10_take_is_seen_by_the_champion_and_the_target_only() -> None:
    """Event 10's ``tax take`` as event 7: the champion (seat 2) and the target (seat 1) see the card; seats 0 and
    3, and a spectator, see a PolluPlus card move, the same whichever card it was."""
    g = game()
    seen = []
    for stolen in ("P-TR", "P-MR"):
        f = fields(g)
        skip_top(g, f)
        give(f, 2, "R-AM", 2)                         # the recycling champion
        give_malus(g, f, 2, "M04")
        give(f, 1, stolen)                            # the most PolluPlus cards; nobody saw it
        s = at_event(g, f, 10)
        assert s.current_player == 2
        s.apply_str("tax take")
        assert hand(s, 2) == {"R-AM": 2, stolen: 1} and hand(s, 1) == {}
        assert seat_sees(s, 1, 2) == {stolen: 1}
        for seat in (0, 3, None):
            assert seat_sees(s, seat, 2) == {}
        seen.append(tuple((json.dumps(s.view(seat), sort_keys=True),
                           s.observation(seat).tobytes() if seat is not None else b"") for seat in (0, 3, None)))
    assert seen[0] == seen[1]


def test_event_7_needs_strictly_more_malus() -> None:
    g = game(players=3)
    f = fields(g)
    skip_top(g, f)
    give_malus(g, f, 0, "M04")
    give_malus(g, f, 1, "M05")                        # as many as seat 0: nothing taken
    give(f, 1, "P-MR")
    s = at_event(g, f, 7)
    assert hand(s, 0) == {} and hand(s, 1) == {"P-MR": 1}


def test_event_8_doubles_the_supply_malus() -> None:
    g = game()
    f = fields(g)
    s = at_event(g, f, 8)
    assert s.view(None)["rules"]["malus_multiplier"] == 2
    seat = s.current_player
    s.apply_str("supply PolluPlus")
    for _ in range(3):
        s.apply_str("draw P")
    assert s.view(None)["players"][seat]["malus_count"] == 4


def four_mc_and_three_recycled(f: dict[str, object], seat: int) -> None:
    """``seat``'s hand for event 9: four cards of type MC (two PolluPlus, two PolluMoins), two over what it keeps,
    and three recycled ones, which it keeps whatever their number."""
    give(f, seat, "P-MC", 2)
    give(f, seat, "M-MC", 2)
    give(f, seat, "R-MC", 3)


def test_event_9_keeps_two_of_each_type_in_hand_recycled_excepted_and_visits_everyone() -> None:
    g = game()
    f = fields(g)
    four_mc_and_three_recycled(f, 0)
    s = at_event(g, f, 9)
    assert s.current_player == 0 and set(s.legal_action_strs()) == {"discard P-MC", "discard M-MC"}
    s.apply_str("discard P-MC")
    s.apply_str("discard P-MC")
    assert hand(s, 0) == {"M-MC": 2, "R-MC": 3} and s.legal_action_strs() == ["done"]
    s.apply_str("done")
    for seat in (1, 2, 3):                           # nobody is skipped: a skip would tell about hidden hands
        assert s.current_player == seat and s.legal_action_strs() == ["done"]
        s.apply_str("done")
    assert phase(g, s) == "main"


def test_event_10_recycling_champion_takes_from_or_gives_malus_to_the_biggest_pollu_plus_customer() -> None:
    g = game()
    f = fields(g)
    skip_top(g, f)
    give(f, 2, "R-AM", 2)
    give_malus(g, f, 2, "M04")
    give(f, 1, "P-MR", 2)
    give(f, 3, "P-AM")
    s = at_event(g, f, 10)
    assert s.current_player == 2 and set(s.legal_action_strs()) == {"tax take", "give M04"}
    twin = s.clone()
    s.apply_str("give M04")
    assert s.view(None)["players"][1]["malus"] == {"M04": 1} and s.view(None)["players"][2]["malus"] == {}
    twin.apply_str("tax take")
    assert hand(twin, 2) == {"R-AM": 2, "P-MR": 1} and hand(twin, 1) == {"P-MR": 1}


def test_event_10_target_tied_with_the_champion_is_the_other_player() -> None:
    """The champion cannot tax themself: when they are among the players with the most PolluPlus cards, the target
    is the other player with that many (before, the * order's tie-break, which favours the champion's recycled
    cards, named the champion as the target and the event did nothing)."""
    g = game()
    f = fields(g)
    skip_top(g, f)
    give(f, 2, "R-AM", 2)                             # the champion
    give(f, 2, "P-MC", 2)                             # ... with 2 PolluPlus cards
    give_malus(g, f, 2, "M04")
    give(f, 1, "P-MR", 2)                             # seat 1: 2 PolluPlus cards too
    s = at_event(g, f, 10)
    assert phase(g, s) == "event_tax" and s.current_player == 2
    assert s.view(None)["turn_state"]["event_target"] == 1
    s.apply_str("give M04")
    assert s.view(None)["players"][1]["malus"] == {"M04": 1}
    # the champion alone has the most PolluPlus cards: they would tax themself, nothing happens
    f = fields(g)
    skip_top(g, f)
    give(f, 2, "R-AM", 2)
    give(f, 2, "P-MC", 3)
    give_malus(g, f, 2, "M04")
    give(f, 1, "P-MR", 2)
    s = at_event(g, f, 10)
    assert phase(g, s) == "main"


def test_event_11_recycling_tax_lose_two_resources_or_take_a_malus() -> None:
    g = game()
    f = fields(g)
    give(f, 0, "R-AM", 3)                             # 3 recycled cards: exempt
    give(f, 1, "P-MR")
    give(f, 1, "M-AM")
    give(f, 1, "R-MC")
    s = at_event(g, f, 11)
    assert s.current_player == 1 and "take malus" in s.legal_action_strs() and "discard R-MC" not in \
        s.legal_action_strs()
    twin = s.clone()
    s.apply_str("discard P-MR")
    assert s.legal_action_strs() == ["discard M-AM"]  # the second loss; no switching to a malus
    s.apply_str("discard M-AM")
    assert hand(s, 1) == {"R-MC": 1} and s.current_player == 2
    twin.apply_str("take malus")
    assert twin.view(None)["players"][1]["malus_count"] == 1 and twin.current_player == 2


def test_event_11_without_a_resource_to_lose_the_malus_is_taken() -> None:
    g = game()
    f = fields(g)
    give(f, 1, "R-MC", 2)                             # 2 recycled cards (fewer than 3), nothing else
    s = at_event(g, f, 11)
    assert s.current_player == 0 and s.legal_action_strs() == ["take malus"]
    for _ in range(4):
        s.apply_str("take malus")
    assert phase(g, s) == "main" and [p["malus_count"] for p in s.view(None)["players"]] == [1, 1, 1, 1]


def test_event_12_no_depollution_next_round_and_pass_allowed() -> None:
    g = game()
    f = fields(g)
    skip_top(g, f)
    give_malus(g, f, 1, "M04")
    s = at_event(g, f, 12)
    assert s.current_player == 1 and s.view(None)["rules"]["no_depollution"]
    assert "pass" in s.legal_action_strs() and "depollute M04" not in s.legal_action_strs()
    for _ in range(4):
        s.apply_str("pass")
    f = g.fields(s)
    assert not f["flags"] & FL_NODEP                   # the round after is free again


def test_event_13_ends_the_game_at_once() -> None:
    g = game()
    s = at_event(g, fields(g), 13)
    assert s.is_terminal and s.view(None)["end_reason"] == "end_event"


def test_event_14_does_nothing_and_the_sequence_running_out_ends_the_game() -> None:
    c = SmartphoneContent.default()
    events = tuple(e for e in DEFAULT_EVENTS if e.number != 13)
    g = game(content=SmartphoneContent(c.components, c.suppliers, c.malus, c.malus_top, c.malus_order,
                                       c.malus_per_player, events, (1, 5, 6, 7, 14), c.quiz))
    f = fields(g)
    s = at_event(g, f, 14)                            # the last event: no effect, the next round is played
    assert phase(g, s) == "main" and s.view(None)["events"]["upcoming"] == []
    for _ in range(4):
        s.apply_str("supply Recyclage")
        s.apply_str("draw R")
    assert s.is_terminal and s.view(None)["end_reason"] == "events_exhausted"


# -- market refresh -----------------------------------------------------------------------------------------------


def _four_identical(f: dict) -> None:
    set_market(f, "PolluPlus", ["AM", "AM", "AM"])
    set_market(f, "PolluMoins", ["AM", "MC"])
    set_market(f, "Recyclage", ["MC"])


def test_market_refresh_is_a_unanimous_vote_paid_from_the_malus_pile() -> None:
    g = game()
    f = fields(g)
    _four_identical(f)
    s = at_event(g, f, 14)                            # an event without effect
    assert phase(g, s) == "vote" and s.current_player == 1           # from the next first player
    pile = s.view(None)["malus_pile"]
    twin = s.clone()
    for seat in (1, 2, 3, 0):
        assert s.current_player == seat
        s.apply_str("vote yes")
    v = s.view(None)
    assert v["malus_pile"] == pile - 3 and v["out_of_game"] == {"P-AM": 3, "M-AM": 1, "M-MC": 1, "R-MC": 1}
    assert phase(g, s) == "main" and all(p["malus_count"] == 0 for p in v["players"])
    twin.apply_str("vote yes")
    twin.apply_str("vote no")
    assert phase(g, twin) == "main" and twin.view(None)["malus_pile"] == pile
    assert twin.view(None)["market"]["PolluPlus"] == ["AM", "AM", "AM"]


def test_market_refresh_needs_four_identical_cards() -> None:
    g = game()
    f = fields(g)
    set_market(f, "PolluPlus", ["AM", "AM", "AM"])
    set_market(f, "PolluMoins", ["MC", "MC"])
    set_market(f, "Recyclage", ["MC"])
    s = at_event(g, f, 14)
    assert phase(g, s) == "main"


def test_market_refresh_needs_three_malus_in_the_pile() -> None:
    g = game()
    f = fields(g)
    _four_identical(f)
    empty_pile_but(g, f, 2)
    s = at_event(g, f, 14)
    assert phase(g, s) == "main" and s.view(None)["market"]["PolluPlus"] == ["AM", "AM", "AM"]


def test_market_refresh_other_readings_are_parameters() -> None:
    for mode, expect in (("first_player", "vote"), ("automatic", "main"), ("off", "main")):
        g = game(market_refresh=mode)
        f = fields(g)
        _four_identical(f)
        s = at_event(g, f, 14)
        assert phase(g, s) == expect, mode
        if mode == "first_player":
            pile = s.view(None)["malus_pile"]
            s.apply_str("vote yes")
            assert s.view(None)["players"][1]["malus_count"] == 3 and s.view(None)["malus_pile"] == pile - 3
        if mode == "automatic":
            assert s.view(None)["out_of_game"] and s.view(None)["malus_pile"] == 45
        if mode == "off":
            assert not s.view(None)["out_of_game"]


# -- end and scoring ----------------------------------------------------------------------------------------------


def _complete_but_motherboard(f: dict, seat: int) -> None:
    for name, n in (("P-MP", 1), ("P-MR", 2), ("P-MC", 2), ("P-TR", 1), ("P-AM", 2)):
        give(f, seat, name, n)
    f["built"][seat] = 0b0111
    for name, n in (("M-MR", 3), ("M-MC", 4), ("M-TR", 1), ("M-AM", 6)):
        f["deck"][kind(name)] -= n
        f["laid"][seat][kind(name)] += n


def test_a_completed_smartphone_ends_the_game_after_the_round() -> None:
    g = game()
    f = fields(g)
    _complete_but_motherboard(f, 1)
    turn_of(f, 1, 4)
    s = from_fields(g, f)
    s.apply_str("build motherboard MP:P MR:PP MC:PP TR:P AM:PP")
    assert not s.is_terminal and s.current_player == 2 and s.view(None)["end_triggered"]
    s.apply_str("supply Recyclage")
    s.apply_str("draw R")
    s.apply_str("supply Recyclage")
    s.apply_str("draw R")
    assert s.is_terminal and s.view(None)["end_reason"] == "smartphone"
    assert s.view(None)["events"]["drawn"] == []                     # no event after the last round
    assert s.scores()[1] == 28


def test_finish_round_false_ends_at_the_end_of_the_turn() -> None:
    g = game(finish_round=False)
    f = fields(g)
    _complete_but_motherboard(f, 1)
    turn_of(f, 1, 4)
    s = from_fields(g, f)
    s.apply_str("build motherboard MP:P MR:PP MC:PP TR:P AM:PP")
    assert s.is_terminal


def test_empty_malus_pile_ends_the_game_after_the_round_supplying_only_at_recycling() -> None:
    g = game()
    f = fields(g)
    empty_pile_but(g, f, 1)
    s = from_fields(g, f)
    s.apply_str("supply PolluPlus")
    for _ in range(3):
        s.apply_str("draw P")
    v = s.view(None)
    assert v["malus_pile"] == 0 and v["players"][0]["malus_count"] == 1 and v["end_triggered"]
    assert not any(a in s.legal_action_strs() for a in ("supply PolluPlus", "supply PolluMoins"))
    for _ in range(3):
        s.apply_str("supply Recyclage")
        s.apply_str("draw R")
    assert s.is_terminal and s.view(None)["end_reason"] == "malus_pile"


def test_recycling_bonus_to_every_tied_player_and_tie_breaks() -> None:
    g = game()
    f = fields(g)
    for seat, names in ((0, ("R-MC", "P-MR", "R-AM", "R-AM", "P-AM")), (1, ("R-MC", "M-MR", "R-AM", "R-AM", "M-AM")),
                        (2, ("P-MC", "P-MR", "P-AM", "P-AM", "P-AM"))):
        for name in names:
            f["deck"][kind(name)] -= 1
            f["laid"][seat][kind(name)] += 1
        f["built"][seat] = 0b0001
    s = from_fields(g, f)
    assert s.scores() == [6, 6, 4, 0]                 # 4 + 2 for seats 0 and 1, tied on 3 recycled cards
    assert g.score_parts(s)[0] == {"components": 4, "bonus": 2, "penalty": 0}
    keys = s.rank_keys()
    assert keys[1] > keys[0]                          # equal score and recycled: fewer PolluPlus cards wins


def test_tie_breaks_most_recycled_then_fewest_pollu_plus_then_fewest_pollu_moins() -> None:
    """Seed line 53: "le plus de cartes recyclées, puis le moins de cartes PolluPlus, puis le moins de cartes
    PolluMoins" (counted among the laid cards, RULES.md assumption 8), read through outcome()."""
    g = game()
    f = fields(g)
    skip_top(g, f)
    boards = {0: (0b0001, ("R-MC", "R-AM", "R-AM", "P-MR", "P-AM")),      # shell, 3 recycled: the bonus
              1: (0b0001, ("R-AM", "M-MR", "M-MC", "M-AM", "M-AM")),      # shell, 1 recycled
              2: (0b0001, ("P-MR", "M-MC", "M-AM", "M-AM", "M-AM")),      # shell: 1 PolluPlus, 4 PolluMoins
              3: (0b0010, ("P-MR", "M-MC", "M-MC", "M-AM"))}              # battery: 1 PolluPlus, 3 PolluMoins
    for seat, (built, names) in boards.items():
        for name in names:
            f["deck"][kind(name)] -= 1
            f["laid"][seat][kind(name)] += 1
        f["built"][seat] = built
    give_malus(g, f, 3, "M04", 2)
    f["penalty"] = 1                                  # event 6: battery 6 - 2 malus = 4, as the shells
    f["phase"], f["end_reason"] = 10, 2               # the game is over (event 13)
    s = from_fields(g, f)
    assert s.scores() == [6, 4, 4, 4]
    assert s.outcome().places == (0, 1, 3, 2)


def test_no_recycling_bonus_when_nobody_laid_a_recycled_card() -> None:
    g = game()
    f = fields(g)
    for name in ("P-MC", "P-MR", "P-AM", "P-AM", "P-AM"):
        f["deck"][kind(name)] -= 1
        f["laid"][0][kind(name)] += 1
    f["built"][0] = 1
    assert from_fields(g, f).scores() == [4, 0, 0, 0]


# -- variants -----------------------------------------------------------------------------------------------------


def test_twenty_minute_game_is_five_rounds_of_events_1_5_6_7_13() -> None:
    g = game(length="20")
    rng = random.Random(3)
    for seed in range(20):
        s = random_play(g.new_initial_state(seed), rng)
        v = s.view(None)
        assert v["events"]["drawn"] == [1, 5, 6, 7, 13][: len(v["events"]["drawn"])]
        assert v["round"] <= 5


def test_screen_precious_metal_variant() -> None:
    for later, needs in ((False, False), (True, True)):
        g = game(screen_precious_metal=later)
        f = fields(g)
        for name in ("P-MR", "P-MC", "P-TR", "P-AM", "P-AM"):
            give(f, 0, name)
        s = from_fields(g, f)
        assert any(a.startswith("build screen") for a in s.legal_action_strs()) != needs


def _harsh_draw(name: str, **params: object) -> tuple[robotcore.Game, robotcore.State]:
    g = game(harsh_malus=True, **params)
    f = fields(g)
    pile_of(g, f, name)
    give(f, 0, "P-MC")
    give(f, 0, "M-MC")
    return g, from_fields(g, f)


def test_harsh_heavy_counts_twice_and_sticky_cannot_be_depolluted() -> None:
    g = game(harsh_malus=True)
    f = fields(g)
    skip_top(g, f)
    give_malus(g, f, 0, "M06")                        # heavy
    give_malus(g, f, 0, "M10")                        # sticky
    s = from_fields(g, f)
    assert s.view(None)["players"][0]["malus_weight"] == 3
    assert "depollute M10" not in s.legal_action_strs() and "depollute M06" in s.legal_action_strs()
    plain = game()
    assert from_fields(plain, f).view(None)["players"][0]["malus_weight"] == 2


def test_harsh_no_trade_offer_with_only_sticky_malus_to_give() -> None:
    """A sticky malus cannot be offered in a trade: a player whose hand holds nothing else has no offer to make
    (before, ``offer <seat>`` was legal and led to an offer that could only be cancelled)."""
    g = game(harsh_malus=True)
    f = fields(g)
    skip_top(g, f)
    f["flags"] |= FL_TRADING
    give_malus(g, f, 0, "M10")                        # sticky
    give(f, 0, "R-AM")                                # recycled: never traded
    s = from_fields(g, f)
    assert not any(a.startswith("offer") for a in s.legal_action_strs())
    give_malus(g, f, 0, "M04")
    s = from_fields(g, f)
    assert {"offer 1", "offer 2", "offer 3"} <= set(s.legal_action_strs())


def test_harsh_lose_asks_the_owner_which_card() -> None:
    g, s = _harsh_draw("M09")                         # lose a common metal
    s.apply_str("supply PolluMoins")
    s.apply_str("draw M")
    s.apply_str("draw M")
    seen = []
    while phase(g, s) == "lose":
        seen.append(s.legal_action_strs())
        s.apply(s.legal_actions()[0])
    assert seen and {"discard P-MC", "discard M-MC"} <= set(seen[0])


def test_harsh_lose_with_nothing_to_lose_still_asks() -> None:
    g = game(harsh_malus=True)
    f = fields(g)
    pile_of(g, f, "M16")                              # lose a rare earth
    set_market(f, "PolluMoins", ["AM", "AM"])
    s = from_fields(g, f)
    s.apply_str("supply PolluMoins")
    s.apply_str("take M1")
    s.apply_str("take M2")
    assert phase(g, s) == "lose" and s.legal_action_strs() == ["done"]


def test_harsh_wipe_and_block() -> None:
    g = game(harsh_malus=True)
    f = fields(g)
    pile_of(g, f, "M07", "M14")                       # wipe PolluPlus, block PolluPlus
    s = from_fields(g, f)
    market = s.view(None)["market"]["PolluPlus"]
    s.apply_str("supply PolluPlus")
    for _ in range(3):
        s.apply_str("draw P")
    v = s.view(None)
    assert sum(v["out_of_game"].values()) == 3 and v["players"][0]["malus_count"] == 2
    assert market and v["players"][0]["blocked"] == ["PolluPlus"]          # for seat 0's next turn
    f = g.fields(s)
    turn_of(f, 0, 4)
    f["round"], f["first"], f["ev_next"] = 1, 0, 1   # round 2: one event is out (validate ties them)
    s = from_fields(g, f)
    assert "supply PolluPlus" not in s.legal_action_strs() and "supply PolluMoins" not in s.legal_action_strs()
    f = g.fields(s)
    f["mout"][malus_index(g, "M04")] -= 2             # two malus back in the pile
    f["pile"][malus_index(g, "M04")] += 2
    s = from_fields(g, f)
    assert "supply PolluPlus" not in s.legal_action_strs() and "supply PolluMoins" in s.legal_action_strs()
    s.apply_str("supply Recyclage")
    s.apply_str("draw R")
    assert s.view(None)["players"][0]["blocked"] == []


def test_a_block_drawn_during_the_turn_shows_before_the_turn_ends() -> None:
    """A harsh 'block' drawn with a supply closes the supplier on the drawer's next turn; while its turn goes on
    (here a 'lose' drawn with it asks a discard) the view says so (``blocked_next``) and so does every seat's
    observation: they were the same as without the block (found by reading the view's source after the observation
    conformance test, which compares facts the view shows)."""
    g = game(harsh_malus=True)
    f = fields(g)
    pile_of(g, f, "M13", "M14")                       # lose MR, block PolluPlus
    give(f, 0, "P-MR")
    s = from_fields(g, f)
    s.apply_str("supply PolluPlus")
    for _ in range(3):
        s.apply_str("draw P")
    v = s.view(None)
    assert v["phase"] == "lose" and v["turn_state"]["turn_player"] == 0
    assert v["players"][0]["blocked"] == [] and v["players"][0]["blocked_next"] == ["PolluPlus"]
    unblocked = g.fields(s)
    unblocked["block"][0] = 0
    other = from_fields(g, unblocked)
    for seat in range(g.num_players):
        assert not np.array_equal(s.observation(seat), other.observation(seat))
    (lose,) = s.legal_action_strs()                   # its one MR card, P-MR
    s.apply_str(lose)
    v = s.view(None)                                  # the turn is over: the block waits for seat 0's next turn
    assert v["players"][0]["blocked"] == ["PolluPlus"] and v["players"][0]["blocked_next"] == []


# -- hidden information and notation ------------------------------------------------------------------------------


def test_what_others_see_of_a_hand() -> None:
    g = game()
    f = fields(g)
    give(f, 0, "P-MR", 2, known=1)
    give(f, 0, "R-AM")
    s = from_fields(g, f)
    other = s.view(1)["players"][0]
    assert other["hand_by_supplier"] == {"PolluPlus": 2, "PolluMoins": 0, "Recyclage": 1}
    assert other["known_in_hand"] == {"P-MR": 1}
    assert "P-MR" not in json.dumps(s.view(1)["hand"]) and s.view(0)["hand"] == {"P-MR": 2, "R-AM": 1}
    # resampling keeps the counts by supplier and the known card
    for seed in range(20):
        r = s.resample_hidden(1, seed)
        h = r.view(0)["hand"]
        assert h.get("P-MR", 0) >= 1 and sum(h.values()) == 3 and h.get("R-AM", 0) + h.get("R-MC", 0) + \
            h.get("R-MP", 0) == 1


def test_the_observation_tells_who_offers_the_trade_being_answered() -> None:
    """While a trade offer is answered its target acts; the offerer is the turn's player, which the view shows: the
    observation must tell two such positions apart (the conformance test test_observation_complete met a pair)."""
    g = game()
    seen = []
    for offerer in (0, 1):
        f = fields(g)
        skip_top(g, f)
        give_malus(g, f, 0, "M04")
        give_malus(g, f, 1, "M04")
        f["flags"] |= FL_TRADING
        f["turns"], f["phase"], f["cur"], f["offer_to"], f["offered"] = offerer, 5, 2, 2, 1
        f["offer_give"][0], f["offer_give_n"] = 32 + malus_index(g, "M04"), 1
        f["offer_ask"][0], f["offer_ask_n"] = kind("P-MR"), 1
        s = from_fields(g, f)
        assert s.view(3)["turn_state"]["turn_player"] == offerer
        seen.append(s.observation(3).tobytes())
    assert seen[0] != seen[1]


# -- upper bounds: what a hand holds at most ("What each seat knows of a hand") ------------------------------------

def upper(g: SmartphoneGame, s: robotcore.State, holder: int, seat: int | None = None) -> list[int]:
    """The upper bound of ``holder``'s non-recycled cards of each type (P and M together), as ``seat`` knows it
    (None: the public one)."""
    f = g.fields(s)
    return [f["upper"][holder][t] - (f["private_upper"][seat][holder][t] if seat is not None else 0)
            for t in range(5)]


def per_type(s: robotcore.State, holder: int) -> list[int]:
    """The cards of each type in ``holder``'s hand, PolluPlus and PolluMoins together (the true hand)."""
    h = s.game.omniscient_view(s)["hands"][holder]
    return [h.get(f"P-{t}", 0) + h.get(f"M-{t}", 0) for t in ("MP", "MR", "MC", "TR", "AM")]


def worlds(s: robotcore.State, seat: int, seeds: int = 40) -> list[robotcore.State]:
    """``seat``'s re-deals of ``s``: ``resample_hidden``'s and the native resampler's (search's) for each seed."""
    out = []
    for seed in range(seeds):
        out.append(s.resample_hidden(seat, seed))
        out.append(_search.native_resample(s, seat, seed))
    return out


def within(g: SmartphoneGame, world: robotcore.State, original: robotcore.State, seat: int) -> bool:
    """Every other hand of ``world`` within ``seat``'s upper bounds of ``original``."""
    return all(all(c <= b for c, b in zip(per_type(world, h), upper(g, original, h, seat)))
               for h in range(g.num_players) if h != seat)


def test_upper_bounds_rise_with_cards_entering_and_fall_with_cards_leaving_in_public() -> None:
    """A card taken face up raises its type's bound; a PolluPlus or PolluMoins deck draw, whose type nobody else
    sees, raises every type's; a Recyclage card none (recycled cards are never bounded); cards laid lower theirs."""
    g = game()
    f = fields(g)
    set_market(f, "PolluPlus", ["MC", "AM", "MR"])
    s = from_fields(g, f)
    s.apply_str("supply PolluPlus")
    s.apply_str("take P1")                            # a common metal, seen by all
    assert upper(g, s, 0) == [0, 0, 1, 0, 0]
    s.apply_str("draw P")
    s.apply_str("draw P")
    assert upper(g, s, 0) == [2, 2, 3, 2, 2]
    while s.current_player == 0:
        s.apply(s.legal_actions()[0])
    s.apply_str("supply Recyclage")
    s.apply_str("draw R")
    assert upper(g, s, 1) == [0] * 5
    f = fields(g)
    give(f, 0, "P-MR")
    give(f, 0, "P-MC")
    give(f, 0, "P-AM", 3)                             # five cards nobody saw: every type's bound is 5
    s = from_fields(g, f)
    assert upper(g, s, 0) == [5] * 5
    s.apply_str("build shell MR:P MC:P AM:PPP")
    assert upper(g, s, 0) == [5, 4, 4, 5, 2]


def test_event_9_done_bounds_every_type_at_two() -> None:
    g = game()
    f = fields(g)
    four_mc_and_three_recycled(f, 0)
    give(f, 1, "P-AM", 3)
    s = at_event(g, f, 9)
    assert upper(g, s, 0) == [4] * 5 and upper(g, s, 1) == [3] * 5
    s.apply_str("discard P-MC")
    s.apply_str("discard P-MC")
    assert upper(g, s, 0) == [4, 4, 2, 4, 4]
    s.apply_str("done")
    assert upper(g, s, 0) == [2] * 5
    s.apply_str("discard P-AM")                       # seat 1: one over the limit
    assert upper(g, s, 1) == [3, 3, 3, 3, 2]
    s.apply_str("done")
    assert upper(g, s, 1) == [2] * 5


def test_harsh_lose_done_bounds_its_type_at_zero() -> None:
    g = game(harsh_malus=True)
    f = fields(g)
    pile_of(g, f, "M16", "M04")                       # lose a rare earth
    set_market(f, "PolluMoins", ["AM", "AM"])
    give(f, 0, "P-MC", 2)
    s = from_fields(g, f)
    s.apply_str("supply PolluMoins")
    s.apply_str("take M1")
    s.apply_str("take M2")
    assert upper(g, s, 0) == [2, 2, 2, 2, 4]
    s.apply_str("done")
    assert upper(g, s, 0) == [2, 2, 2, 0, 4]


def event_10_steal() -> tuple[SmartphoneGame, robotcore.State]:
    """Event 10 after event 9: seat 2 (the recycling champion) takes a card from seat 1 (the most PolluPlus cards,
    holding 2 P-MC and 1 P-AM, bounded at 2 of each type by event 9); seat 2's hand held no rare metal (a harsh
    'lose' answered ``done``, say: its bound is 0) and 3 PolluMoins cards nobody saw. The PRNG is chosen so that
    the card taken is a P-MC."""
    g = game()
    for rng in range(200):
        f = fields(g)
        f["rng"] = rng
        skip_top(g, f)
        give(f, 2, "R-AM", 2)
        give_malus(g, f, 2, "M04")
        give(f, 2, "M-MC")
        give(f, 2, "M-AM", 2)
        f["upper"][2][1] = 0
        give(f, 1, "P-MC", 2)
        give(f, 1, "P-AM")
        f["upper"][1] = [2] * 5
        s = at_event(g, f, 10)
        assert s.current_player == 2
        s.apply_str("tax take")
        if hand(s, 2).get("P-MC") == 1:
            return g, s
    raise AssertionError("no seed steals a P-MC")


def test_a_steal_raises_the_thiefs_bounds_and_tightens_the_thief_and_the_victims_own() -> None:
    """Every seat sees a PolluPlus card of unknown type move from seat 1 to seat 2: the public bounds of seat 1
    stay, seat 2's all rise by one. The thief knows seat 1 holds one common metal fewer; the victim knows seat 2's
    other types did not grow."""
    g, s = event_10_steal()
    assert upper(g, s, 1) == [2] * 5 and upper(g, s, 2) == [4, 1, 4, 4, 4]
    assert upper(g, s, 1, seat=2) == [2, 2, 1, 2, 2]
    assert upper(g, s, 2, seat=1) == [3, 0, 4, 3, 3]
    for seat in (0, 3):
        assert upper(g, s, 1, seat) == [2] * 5 and upper(g, s, 2, seat) == [4, 1, 4, 4, 4]


def test_the_view_shows_what_a_hand_holds_at_most_as_the_seat_knows_it() -> None:
    """``at_most_in_hand``: the types of which the viewer is sure a hand holds fewer non-recycled cards than its
    count and its known cards allow, with that bound (after ``event_10_steal``: seat 1 holds 2 PolluPlus cards,
    seat 2 four non-recycled cards)."""
    g, s = event_10_steal()

    def at_most(seat: int | None, holder: int) -> dict[str, int]:
        return dict(s.view(seat)["players"][holder]["at_most_in_hand"])

    assert at_most(2, 1) == {"MC": 1}                 # the thief took one of its common metals
    # the victim knows what the thief got: one P-MC (known_in_hand), so 3 others at most of each type, and still
    # no rare metal
    assert at_most(1, 2) == {"MR": 0} and s.view(1)["players"][2]["known_in_hand"] == {"P-MC": 1}
    for seat in (0, 3, None):
        assert at_most(seat, 1) == {} and at_most(seat, 2) == {"MR": 1}
    assert at_most(1, 1) == {} and at_most(2, 2) == {"MR": 1}        # its own: what the others know


def after_event_9_forced() -> tuple[SmartphoneGame, robotcore.State]:
    """Event 9 answered `done` by everyone, where seat 1 holds 10 PolluPlus cards nobody saw (so exactly 2 of each
    type: a re-deal's shuffle nearly never meets that bound, the search must) and seat 2 holds 4 of at most 2 each."""
    g = game()
    f = fields(g)
    for name in ("P-MP", "P-MR", "P-MC", "P-TR", "P-AM"):
        give(f, 1, name, 2)
    give(f, 2, "P-MC", 2)
    give(f, 2, "P-AM", 2)
    s = at_event(g, f, 9)
    for _ in range(4):
        s.apply_str("done")
    return g, s


def test_resampled_worlds_keep_event_9s_bound_of_two_per_type() -> None:
    """After event 9, seat 1 holds 10 PolluPlus cards nobody saw, so exactly 2 of each type, and seat 2 holds 4 of
    at most 2 each: every re-deal for seat 0, resample_hidden's and search's native one, keeps them so (a re-deal
    that kept only the lower bounds gave seat 1 three of a type in nearly every world)."""
    g, s = after_event_9_forced()
    assert phase(g, s) == "main" and upper(g, s, 1) == [2] * 5 and upper(g, s, 2) == [2] * 5
    seen = set()
    for w in worlds(s, 0):
        assert per_type(w, 1) == [2] * 5 and max(per_type(w, 2)) <= 2
        assert w.view(0) == s.view(0)
        seen.add(json.dumps(w.game.omniscient_view(w)["hands"][2], sort_keys=True))
    assert len(seen) > 5                              # seat 2's hand is still drawn


def test_a_re_deal_found_by_the_search_is_mixed_to_the_law_of_the_tries() -> None:
    """In the event-9 position above, seat 1's deal is forced (2 of each type) and the shuffle nearly never meets
    it, so the re-deal comes from the search and its mixing: seat 2's four cards must still follow the law of a
    shuffle given the bounds (four cards of the pool left, at most 2 of a type; exact by enumeration)."""
    from itertools import product
    from math import comb

    g, s = after_event_9_forced()
    full = s.game.omniscient_view(s)
    pool = [full["decks"].get(f"P-{t}", 0) + per_type(s, 2)[i] for i, t in enumerate(("MP", "MR", "MC", "TR", "AM"))]
    law: dict[tuple[int, ...], float] = {}
    for c in product(range(3), repeat=5):
        if sum(c) == 4:
            law[c] = float(np.prod([comb(pool[t], c[t]) for t in range(5)]))
    total = sum(law.values())
    expected = [sum(w * c[t] for c, w in law.items()) / total for t in range(5)]
    draws = 3000
    mean = [0.0] * 5
    for seed in range(draws):
        w = _search.native_resample(s, 0, seed)
        for t, c in enumerate(per_type(w, 2)):
            mean[t] += c / draws
    assert max(abs(a - b) for a, b in zip(mean, expected)) < 0.05, (mean, expected)


def test_a_re_deal_whose_search_runs_out_of_budget_still_keeps_every_bound() -> None:
    """The search's budget bounds its worst case (a crafted state could make it exponential). Where it runs out,
    the mix starts from the true deal: the world is still valid and within every bound. Forced here with a budget
    of one call in the event-9 position above, where the shuffles nearly never meet the bounds."""
    from robotcore.games.smartphone import view as sp_view

    g, s = after_event_9_forced()
    before = sp_view._search_budget(1)
    try:
        seen = set()
        for seed in range(40):
            for w in (_search.native_resample(s, 0, seed), s.resample_hidden(0, seed)):
                assert g.from_bytes(w.to_bytes()).to_bytes() == w.to_bytes()    # valid
                assert per_type(w, 1) == [2] * 5 and max(per_type(w, 2)) <= 2 and within(g, w, s, 0)
                assert w.view(0) == s.view(0)
                seen.add(json.dumps(w.game.omniscient_view(w)["hands"][2], sort_keys=True))
        assert len(seen) > 5                          # the mix still draws seat 2's hand
    finally:
        sp_view._search_budget(before)


def test_resampled_worlds_keep_a_harsh_lose_done() -> None:
    """Seat 1 answered a harsh 'lose a rare earth' with ``done``: it holds none, and no re-deal for another seat
    gives it one (a re-deal that kept only the lower bounds did in about half of the worlds)."""
    g = game(harsh_malus=True)
    f = fields(g)
    pile_of(g, f, "M16", "M04")
    set_market(f, "PolluMoins", ["AM", "AM"])
    give(f, 1, "P-MC", 3)
    give(f, 1, "P-AM", 2)
    turn_of(f, 1, 4)
    s = from_fields(g, f)
    s.apply_str("supply PolluMoins")
    s.apply_str("take M1")
    s.apply_str("take M2")
    s.apply_str("done")
    assert upper(g, s, 1)[3] == 0
    for seat in (0, 2):
        for w in worlds(s, seat):
            assert per_type(w, 1)[3] == 0 and within(g, w, s, seat)


def test_resampled_worlds_keep_what_the_thief_and_the_victim_know_of_upper_bounds() -> None:
    """After event 10's steal (``event_10_steal``): the thief's re-deals give seat 1 at most one common metal, the
    victim's give seat 2 no rare metal, the others' keep the public bounds (re-deals that kept only the public
    bounds, or only the lower bounds, broke the first two in some worlds)."""
    g, s = event_10_steal()
    for seat in range(4):
        for w in worlds(s, seat):
            assert within(g, w, s, seat), seat
            assert w.view(seat) == s.view(seat)
            if seat == 2:
                assert per_type(w, 1)[2] <= 1
            if seat == 1:
                assert per_type(w, 2)[1] == 0


def test_illegal_actions_are_refused() -> None:
    g = game()
    s = g.new_initial_state(0)
    with pytest.raises(IllegalActionError):
        s.apply_str("build shell MR:P MC:P AM:PPP")
    with pytest.raises(IllegalActionError):
        s.apply_str("draw P")


def test_the_pile_running_out_during_the_event_phase_ends_the_game_after_the_event() -> None:
    g = game()
    f = fields(g)
    empty_pile_but(g, f, 1)
    s = at_event(g, f, 5)                             # new mines: the first card taken sets the last malus aside
    s.apply_str("take P1")
    assert s.is_terminal and s.view(None)["end_reason"] == "malus_pile" and s.view(None)["malus_pile"] == 0


def test_the_event_order_is_public_and_fixed() -> None:
    g = game()
    s = g.new_initial_state(0)
    assert s.view(1)["events"] == {"drawn": [], "upcoming": list(range(1, 15))}
    f = fields(g, 1)
    s = at_event(g, f, 6)
    assert s.view(2)["events"]["drawn"][-1] == 6 and s.view(2)["events"]["upcoming"][0] == 7
