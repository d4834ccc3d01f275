"""The invariant check (``sp_validate``) refuses states no play reaches, from which a legal action would reach a
state it refuses: each test edits one fact of a real position in its serialized bytes, as a corrupt or hostile
file would, and ``from_bytes`` must refuse it (the unedited bytes load)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import robotcore

from ...conformance.struct_edit import fields, refused
from ...conformance.struct_edit import positions as _positions  # (each game's wrapper below)
from .scenario import hold_recycled

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


# Recycle's held die (RULES.md, "Recycle: altering the held die", and "The state"): the choices that alter dice are
# queued in front of its placement, the placement once, the die marked only while a reroll is the head

PD_ADVANCE, PD_REROLL, PD_ADJUST, PD_RECYCLE_PICK, PD_RECYCLE_PLACE = 1, 3, 4, 6, 7


def _holding(*texts: str) -> robotcore.State:
    """Seat 0 holds the R5 of a robot completed in its Recycle slot (D6 played, the t4 reroll unused, a B3
    available), then plays ``texts``."""
    return hold_recycled(*texts, played=("D6",), reroll_tile=1, extra=("B3",))[1]


def _queue(f: dict[str, Any], entries: list[tuple[int, int]]) -> None:
    P = f["players"][0]
    P["pend"] = [c for c, _ in entries] + [0] * (MAX_PEND - len(entries))
    P["parg"] = [a for _, a in entries] + [0] * (MAX_PEND - len(entries))
    P["npend"] = len(entries)


def test_the_held_die_is_marked_only_while_a_reroll_is_the_head() -> None:
    marked = _holding("reroll", "mark_held")
    assert fields(marked)["players"][0]["hmark"] == 1
    robotcore.from_bytes(marked.to_bytes())              # a state play reaches loads

    def mark(f: dict[str, Any]) -> None:
        f["players"][0]["hmark"] = 1
    refused(_holding(), mark)                             # the placement at the head: no reroll under way
    refused(_holding("adjust"), mark)                     # a free step at the head

    def twice(f: dict[str, Any]) -> None:
        f["players"][0]["hmark"] = 2
    refused(marked, twice)

    def no_die(f: dict[str, Any]) -> None:                # marked, the reroll at the head, no die held
        P = f["players"][0]
        f["disc"][0] += 1
        P["held"] = 0
        _queue(f, [(PD_REROLL, 0)])
    refused(marked, no_die)


def test_only_choices_that_alter_dice_come_before_the_held_dies_placement() -> None:
    state = _holding("adjust")
    assert [c for c in fields(state)["players"][0]["pend"] if c] == [PD_ADJUST, PD_RECYCLE_PLACE]

    def behind(f: dict[str, Any]) -> None:                # the free step behind the placement: never queued so
        _queue(f, [(PD_RECYCLE_PLACE, 0), (PD_ADJUST, 1)])
    refused(state, behind)

    def other_in_front(f: dict[str, Any]) -> None:        # a track choice in front of it: never queued so
        _queue(f, [(PD_ADVANCE, 0), (PD_RECYCLE_PLACE, 0)])
    refused(state, other_in_front)

    def twice(f: dict[str, Any]) -> None:
        _queue(f, [(PD_ADJUST, 1), (PD_RECYCLE_PLACE, 0), (PD_RECYCLE_PLACE, 0)])
    refused(state, twice)

    def pick_behind(f: dict[str, Any]) -> None:           # a pick behind the placement
        _queue(f, [(PD_ADJUST, 1), (PD_RECYCLE_PLACE, 0), (PD_RECYCLE_PICK, 0)])
    refused(state, pick_behind)

    def no_placement(f: dict[str, Any]) -> None:          # a die held with nothing to place it
        _queue(f, [(PD_ADJUST, 1)])
    refused(state, no_placement)
