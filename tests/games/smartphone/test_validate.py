"""The invariant check (``sp_validate``) refuses states no play reaches, from which a legal action or a re-deal
would reach a state it refuses: each test edits one fact of a real position in its serialized bytes, as a
corrupt or hostile file would, and ``from_bytes`` must refuse it (the unedited bytes load)."""

from __future__ import annotations

import random
import struct
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import robotcore
from robotcore.bots import _search
from robotcore.errors import CorruptStateError

from ...conformance.struct_edit import fields, refused, with_fields
from ...conformance.struct_edit import positions as _positions  # (each game's wrapper below)
from ...conformance.test_fuzz import _reframe, struct_start

PH_OFFER, PH_ANSWER = 4, 5                          # state.pxd
ITEM_MALUS = 32
PREFIX = struct.Struct("<4sHHQII")                  # core/state.pyx: magic, version, header length, seed, state size,
                                                    # history length


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


# -- the seats' private knowledge of the hands (RULES.md, "What each seat knows of a hand") ------------------------

def with_private(f: dict[str, Any]) -> bool:
    return bool(f["private_of"])


def private_cells(f: dict[str, Any]) -> list[tuple[int, int, int]]:
    return [(o, h, k) for o in range(5) for h in range(5) for k in range(10) if f["private_known"][o][h][k]]


def test_states_with_private_knowledge_load_and_re_deal_validly() -> None:
    """Real positions after a steal load (the unedited bytes), and every re-deal of them, for every seat, passes
    the check: the native resampler's and resample_hidden's."""
    found = 0
    for state in positions(with_private):
        assert robotcore.from_bytes(state.to_bytes()) == state
        for seat in range(state.game.num_players):
            assert _search.native_draws(state, seat, 20, 1, True) == 0
            world = state.resample_hidden(seat, 7)
            f, w = fields(state), fields(world)
            assert w["private_known"][seat] == f["private_known"][seat]          # its own knowledge stays
            assert all(w["private_known"][o][seat] == f["private_known"][o][seat] for o in range(5))
        found += 1
        if found == 10:
            break
    assert found == 10


def first_private(state: robotcore.State) -> tuple[int, int, int]:
    return private_cells(fields(state))[0]


def test_a_seat_bound_beyond_the_hand_is_refused() -> None:
    state = next(positions(with_private))
    o, h, k = first_private(state)

    def edit(f: dict[str, Any]) -> None:
        f["private_known"][o][h][k] = f["hand"][h][k] - f["known"][h][k] + 1
    refused(state, edit)


def test_a_private_count_overflowing_its_byte_is_refused() -> None:
    """known + private_known is summed without wrapping: 255 private cards over a known card is no bound."""
    state = next(positions(lambda f: with_private(f) and any(
        f["known"][h][k] and f["private_known"][o][h][k] for o, h, k in private_cells(f))))
    f0 = fields(state)
    o, h, k = next((o, h, k) for o, h, k in private_cells(f0) if f0["known"][h][k])

    def edit(f: dict[str, Any]) -> None:
        f["private_known"][o][h][k] = 255
    refused(state, edit)


def test_private_knowledge_of_a_seats_own_hand_is_refused() -> None:
    state = next(positions(lambda f: with_private(f) and any(
        f["hand"][h][k] > f["known"][h][k] for h, k in ((h, k) for h in range(5) for k in range(10)))))
    f0 = fields(state)
    h, k = next((h, k) for h in range(5) for k in range(10) if f0["hand"][h][k] > f0["known"][h][k])

    def edit(f: dict[str, Any]) -> None:
        f["private_known"][h][h][k] = 1
        f["private_of"] |= 1 << h
    refused(state, edit)


@pytest.mark.parametrize("absent", ["observer", "holder"])
def test_private_knowledge_of_or_by_an_absent_seat_is_refused(absent: str) -> None:
    state = next(positions(with_private))
    o, h, k = first_private(state)
    n = state.game.num_players
    assert n < 5

    def edit(f: dict[str, Any]) -> None:
        if absent == "observer":
            f["private_known"][n][h][k] = 1
        else:
            f["private_known"][o][n][0] = 1
            f["private_of"] |= 1 << n
    refused(state, edit)


@pytest.mark.parametrize("bit", ["missing", "extra"])
def test_private_of_names_exactly_the_hands_known_privately(bit: str) -> None:
    state = next(positions(with_private))
    f0 = fields(state)

    def edit(f: dict[str, Any]) -> None:
        if bit == "missing":
            f["private_of"] &= ~(f0["private_of"] & -f0["private_of"])       # its lowest bit cleared
        else:
            f["private_of"] |= ~f0["private_of"] & 0x1F & -(~f0["private_of"] & 0x1F)
    refused(state, edit)


def test_private_knowledge_before_any_steal_is_refused() -> None:
    """Private knowledge is made by a steal (event 7, event 10's tax take) only: none before either is drawn."""
    state = next(positions(lambda f: f["ev_next"] <= 2 and any(
        f["hand"][h][k] > f["known"][h][k] for h in range(5) for k in range(10))))
    f0 = fields(state)
    h, k = next((h, k) for h in range(5) for k in range(10) if f0["hand"][h][k] > f0["known"][h][k])

    def edit(f: dict[str, Any]) -> None:
        f["private_known"][(h + 1) % state.game.num_players][h][k] = 1
        f["private_of"] |= 1 << h
    refused(state, edit)


@pytest.mark.parametrize("old_size", [496, 744])
def test_a_state_of_an_old_size_is_refused(old_size: int) -> None:
    """The 496-byte states serialized before the private knowledge, and the 744-byte ones before the upper bounds
    (same header), are refused by from_bytes."""
    state = next(positions(lambda f: True))
    data = state.to_bytes()
    start = struct_start(state)
    size = state.game.state_size
    assert size == 920
    old = bytearray(data[:start] + data[start:start + old_size] + data[start + size:])
    magic, version, hlen, seed, _size, hist = PREFIX.unpack_from(old, 0)
    PREFIX.pack_into(old, 0, magic, version, hlen, seed, old_size, hist)
    with pytest.raises(CorruptStateError, match="struct must be 920 bytes"):
        robotcore.from_bytes(_reframe(bytes(old)))


# -- the upper bounds (RULES.md, "What each seat knows of a hand") ------------------------------------------------

def held(f: dict[str, Any], h: int, t: int) -> int:
    return int(f["hand"][h][t] + f["hand"][h][5 + t])


def with_private_upper(f: dict[str, Any]) -> bool:
    return any(f["private_upper"][o][h][t] for o in range(5) for h in range(5) for t in range(5))


def test_an_upper_bound_below_the_hand_is_refused() -> None:
    """A public upper bound below the hand's cards of its type (P and M together) is no bound: a re-deal could not
    meet it."""
    state = next(positions(lambda f: any(held(f, h, t) for h in range(5) for t in range(5))))
    f0 = fields(state)
    h, t = next((h, t) for h in range(5) for t in range(5) if held(f0, h, t))

    def edit(f: dict[str, Any]) -> None:
        f["upper"][h][t] = held(f0, h, t) - 1
    refused(state, edit)


def test_an_upper_bound_at_its_largest_loads_and_plays_on() -> None:
    """Any 16-bit bound at least the hand is true, so it loads: at 0xFFFF (where a rise saturates) every later call
    works, play and re-deals to the end of the game."""
    state = next(positions(lambda f: f["ev_next"] > 3 and f["phase"] == 0))
    f = fields(state)
    f["upper"][0] = [0xFFFF] * 5
    s = robotcore.from_bytes(with_fields(state, f))
    rng = random.Random(4)
    while not s.is_terminal:
        for seat in range(s.game.num_players):
            s.resample_hidden(seat, rng.getrandbits(64))
            assert _search.native_draws(s, seat, 2, 1, True) == 0
        seat = rng.choice(s.actors)
        s.apply(rng.choice(s.legal_actions(seat)), seat)
        assert robotcore.from_bytes(s.to_bytes()) == s


def test_an_upper_bound_of_an_absent_seat_is_refused() -> None:
    state = next(positions(lambda f: True))
    n = state.game.num_players
    assert n < 5

    def edit(f: dict[str, Any]) -> None:
        f["upper"][n][2] = 1
    refused(state, edit)


def test_a_nonzero_pad_byte_is_refused() -> None:
    state = next(positions(lambda f: True))

    def edit(f: dict[str, Any]) -> None:
        f["pad_end"] = 1
    refused(state, edit)


def first_private_upper(state: robotcore.State) -> tuple[int, int, int]:
    f = fields(state)
    return next((o, h, t) for o in range(5) for h in range(5) for t in range(5) if f["private_upper"][o][h][t])


def test_states_with_private_upper_bounds_load_and_re_deal_within_them() -> None:
    """Real positions after a steal with a seat's upper bound tighter than the public one load, and every re-deal
    of them, for every seat, passes the check and keeps every other hand within that seat's upper bounds."""
    found = 0
    for state in positions(with_private_upper):
        assert robotcore.from_bytes(state.to_bytes()) == state
        f = fields(state)
        for seat in range(state.game.num_players):
            assert _search.native_draws(state, seat, 20, 1, True) == 0
            w = fields(state.resample_hidden(seat, 7))
            assert w["upper"] == f["upper"] and w["private_upper"][seat] == f["private_upper"][seat]
            for h in range(state.game.num_players):
                for t in range(5):
                    assert held(w, h, t) <= f["upper"][h][t] - f["private_upper"][seat][h][t]
        found += 1
        if found == 10:
            break
    assert found == 10


def test_a_seat_upper_bound_below_the_hand_is_refused() -> None:
    state = next(positions(with_private_upper))
    o, h, t = first_private_upper(state)
    f0 = fields(state)

    def edit(f: dict[str, Any]) -> None:
        f["private_upper"][o][h][t] = f0["upper"][h][t] - held(f0, h, t) + 1
    refused(state, edit)


@pytest.mark.parametrize("who", ["own", "absent observer", "absent holder"])
def test_a_private_upper_bound_of_an_own_or_absent_hand_is_refused(who: str) -> None:
    state = next(positions(with_private_upper))
    o, h, t = first_private_upper(state)
    n = state.game.num_players

    def edit(f: dict[str, Any]) -> None:
        if who == "own":
            q = next(q for q in range(n) for u in range(5) if f["upper"][q][u] > held(f, q, u))
            u = next(u for u in range(5) if f["upper"][q][u] > held(f, q, u))
            f["private_upper"][q][q][u] = 1
        elif who == "absent observer":
            f["private_upper"][n][h][t] = 1
        else:
            f["private_upper"][o][n][t] = 1
    refused(state, edit)


def test_a_private_upper_bound_before_any_steal_is_refused() -> None:
    """A seat's own upper bound differs from the public one after a steal only (event 7, event 10's tax take)."""
    state = next(positions(lambda f: f["ev_next"] <= 2 and any(
        f["upper"][h][t] > held(f, h, t) for h in range(5) for t in range(5))))
    f0 = fields(state)
    h, t = next((h, t) for h in range(5) for t in range(5) if f0["upper"][h][t] > held(f0, h, t))

    def edit(f: dict[str, Any]) -> None:
        f["private_upper"][(h + 1) % state.game.num_players][h][t] = 1
    refused(state, edit)


# -- the end's reason (engine.pyx: trigger_end, game_over) ------------------------------------------------------

PH_OVER = 10                                        # state.pxd


def test_an_end_reason_without_an_end_is_refused() -> None:
    """The reason is set with the end's trigger (or when the game ends at once): a running game with a reason and
    no trigger, or a finished one without a reason, is no state play reaches (the observation's conformance test met one
    by a one-field edit: the view showed a reason the tensor had no place for)."""
    running = next(positions(lambda f: f["phase"] != PH_OVER and not f["end_trig"]))

    def reason_only(f: dict[str, Any]) -> None:
        f["end_reason"] = 1

    refused(running, reason_only)
    game = robotcore.load_game("smartphone")
    over, rng = game.new_initial_state(3), random.Random(3)
    while not over.is_terminal:
        seat = rng.choice(over.actors)
        over.apply(rng.choice(over.legal_actions(seat)), seat)
    assert fields(over)["end_reason"] != 0

    def no_reason(f: dict[str, Any]) -> None:
        f["end_reason"] = 0

    refused(over, no_reason)
