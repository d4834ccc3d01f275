"""The invariant check (``sp_validate``) refuses states no play reaches, from which a legal action would reach a
state it refuses: each test edits one fact of a real position in its serialized bytes, as a corrupt or hostile
file would, and ``from_bytes`` must refuse it (the unedited bytes load)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import robotcore

from ...conformance.struct_edit import fields, refused
from ...conformance.struct_edit import positions as _positions  # (each game's wrapper below)

PH_REFILL, PH_ACTION = 1, 3                         # state.pxd
PD_CONRAD = 10
MAX_PEND = 12


def positions(test: Callable[[dict[str, Any]], bool], players: int = 4) -> Iterator[robotcore.State]:
    return _positions("sparks", test, players=players)


def pending_seat(f: dict[str, Any]) -> int | None:
    """A seat with a choice pending, in an action phase where another seat is not done yet."""
    if f["phase"] != PH_ACTION:
        return None
    for p in range(4):
        if f["players"][p]["npend"] and bin(f["done"] | (1 << p)).count("1") < 4:
            return p
    return None


def test_a_seat_done_has_nothing_pending() -> None:
    """'done' is offered only with nothing pending: a seat marked done with a choice queued carried it out of
    the action phase when the last seat finished (the fuzzing review: done = 7, then seat 3's 'done')."""
    state = next(positions(lambda f: pending_seat(f) is not None))
    seat = pending_seat(fields(state))
    assert seat is not None

    def mark_done(f: dict[str, Any]) -> None:
        f["done"] |= 1 << seat
    refused(state, mark_done)


def test_no_seat_is_done_outside_the_action_phase() -> None:
    state = next(positions(lambda f: f["phase"] != PH_ACTION and f["phase"] != 4))

    def mark_done(f: dict[str, Any]) -> None:
        f["done"] = 1
    refused(state, mark_done)


def test_conrads_copy_is_pending_only_with_a_conrad_played() -> None:
    """Copying set Conrad's copy for a seat with no Conrad, which the check refuses."""
    conrad = [a.name for a in robotcore.load_game("sparks").content.assistants].index("Conrad")

    def candidate(f: dict[str, Any]) -> int | None:
        for p in range(4):
            P = f["players"][p]
            if (f["phase"] == PH_ACTION and 0 < P["npend"] < MAX_PEND and P["played"]
                    and not (P["played"] >> conrad) & 1):
                return p
        return None

    state = next(positions(lambda f: candidate(f) is not None))
    seat = candidate(fields(state))
    assert seat is not None

    def queue_copy(f: dict[str, Any]) -> None:
        P = f["players"][seat]
        P["pend"][P["npend"]] = PD_CONRAD
        P["npend"] += 1
    refused(state, queue_copy)



def test_no_refill_after_the_last_turn() -> None:
    """The refill moves the turn counter on; the last turn ends the game, with no refill after it: in the solo
    game (8 turns) a refill with the counter at 7 reached turn 8, which the check refuses (found by a field-level
    fuzz; the production tiles played, checked against the turn, agree since turn 6 is the last primary one)."""
    state = next(positions(lambda f: f["phase"] == PH_REFILL and f["started"] and f["turn"] == 6, players=1))

    def last_turn(f: dict[str, Any]) -> None:
        f["turn"] = 7
    refused(state, last_turn)
