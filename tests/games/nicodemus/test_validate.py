"""The invariant check (``nm_validate``) refuses states no play reaches, from which a legal action would reach a
state it refuses: each test edits one fact of a real position in its serialized bytes, as a corrupt or hostile
file would, and ``from_bytes`` must refuse it (the unedited bytes load)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import robotcore

from ...conformance.struct_edit import fields, refused
from ...conformance.struct_edit import positions as _positions  # (each game's wrapper below)

PH_STEAL, PH_PROJECTS, PH_OVER = 7, 11, 12          # state.pxd
HAND_SIZE = 5


def positions(test: Callable[[dict[str, Any]], bool]) -> Iterator[robotcore.State]:
    return _positions("nicodemus", test, games=400)


def hand_size(f: dict[str, Any], seat: int) -> int:
    return int(sum(f["hand"][seat]))


def test_the_seat_resolving_a_played_machine_holds_at_most_four() -> None:
    """The played machine left the hand, refilled only at the end of the turn: with five, R2's steal gave a sixth
    (the fuzzing review: current and first player swapped while R2 resolves, then 'steal wood')."""
    state = next(positions(lambda f: f["phase"] == PH_STEAL and hand_size(f, 1 - f["cur"]) == HAND_SIZE))

    def swap(f: dict[str, Any]) -> None:
        f["cur"] ^= 1
        f["first"] ^= 1
    refused(state, swap)


def unsorted(f: dict[str, Any], seat: int) -> bool:
    """Whether the workshop's machines can be put out of type order (two of different types)."""
    return len(set(f["ws"][seat][:f["ws_n"][seat]])) > 1


def reverse_workshop(seat: int) -> Callable[[dict[str, Any]], None]:
    def edit(f: dict[str, Any]) -> None:
        n = f["ws_n"][seat]
        f["ws"][seat][:n] = sorted(f["ws"][seat][:n], reverse=True)
    return edit


def test_the_workshops_are_sorted_while_a_machine_resolves() -> None:
    """The end of a turn slides only the repaired machine into place: an unsorted workshop stayed so."""
    state = next(positions(lambda f: f["phase"] not in (0, PH_PROJECTS, PH_OVER) and unsorted(f, 1 - f["cur"])))
    refused(state, reverse_workshop(1 - fields(state)["cur"]))


def test_the_other_workshop_is_sorted_during_the_projects() -> None:
    """During the projects after a repair the acting seat's last machine is the repaired one; the other
    workshop is sorted like any between turns (the review: 'done' then reached an unsorted workshop)."""
    state = next(positions(lambda f: f["phase"] == PH_PROJECTS and unsorted(f, 1 - f["cur"])))
    refused(state, reverse_workshop(1 - fields(state)["cur"]))


def test_no_turn_of_the_first_player_once_the_end_is_triggered() -> None:
    """The end triggered, the turn passes to the second player or the game ends: in any phase of a turn."""
    state = next(positions(lambda f: f["phase"] not in (0, PH_OVER) and f["cur"] == f["first"]))

    def trigger(f: dict[str, Any]) -> None:
        f["end_trig"] = 1
    refused(state, trigger)
