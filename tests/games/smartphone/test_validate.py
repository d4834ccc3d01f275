"""The invariant check (``sp_validate``) refuses states no play reaches, from which a legal action or a re-deal
would reach a state it refuses: each test edits one fact of a real position in its serialized bytes, as a
corrupt or hostile file would, and ``from_bytes`` must refuse it (the unedited bytes load)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

import robotcore
from robotcore.bots import _search
from robotcore.errors import CorruptStateError

from ...conformance.struct_edit import fields, with_fields
from ...conformance.struct_edit import positions as _positions  # (each game's wrapper below)

PH_OFFER, PH_ANSWER = 4, 5                          # state.pxd
ITEM_MALUS = 32


def positions(test: Callable[[dict[str, Any]], bool]) -> Iterator[robotcore.State]:
    return _positions("smartphone", test)


def offers_a_card(phase: int) -> Callable[[dict[str, Any]], bool]:
    return lambda f: f["phase"] == phase and f["offer_give_n"] > 0 and f["offer_give"][0] < ITEM_MALUS


@pytest.mark.parametrize("phase", [PH_OFFER, PH_ANSWER])
def test_an_offered_card_is_known_to_be_in_the_hand(phase: int) -> None:
    """Offering a card shows it: ``known`` covers the offered cards. With one fewer known, a re-deal of the
    offerer's hand (``resample_hidden``, the search bots' native resampler) could leave it without the card it
    offers, which the check refuses (the fuzzing review: resample_hidden raised AssertionError)."""
    state = next(positions(offers_a_card(phase)))
    f = fields(state)
    kind = f["offer_give"][0]
    offerer = (f["first"] + f["turns"]) % state.game.num_players        # the turn's player
    assert robotcore.from_bytes(with_fields(state, f)) == state
    f["known"][offerer][kind] = f["offer_give"][:f["offer_give_n"]].count(kind) - 1
    with pytest.raises(CorruptStateError):
        robotcore.from_bytes(with_fields(state, f))


def test_re_deals_of_offers_stay_valid() -> None:
    """Every native re-deal of real positions with a card offered passes the check, for every seat."""
    found = 0
    for state in positions(offers_a_card(PH_ANSWER)):
        for seat in range(state.game.num_players):
            assert _search.native_draws(state, seat, 20, 1, True) == 0
            state.resample_hidden(seat, 7)
        found += 1
        if found == 20:
            break
    assert found == 20
