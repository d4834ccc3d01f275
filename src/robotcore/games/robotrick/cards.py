"""Robotrick cards and their notation: ``R13`` is the Red 13, ``B1`` the Blue 1.

Card ids are ``colour * 13 + (strength - 1)`` with colours in the order Red, Green, Orange, Blue (the seed's
Rouge/coeur, Vert/trèfle, Orange/rond, Bleu/goutte).
"""

from __future__ import annotations

from typing import NamedTuple

from robotcore.core.game import is_decimal
from robotcore.errors import InvalidActionError

COLOURS = ("R", "G", "O", "B")
COLOUR_NAMES = ("Red", "Green", "Orange", "Blue")
NUM_CARDS = 52


class Card(NamedTuple):
    """A robot card: colour index 0..3 and strength 1..13."""

    colour: int
    strength: int

    @property
    def id(self) -> int:
        return self.colour * 13 + self.strength - 1

    @classmethod
    def from_id(cls, card: int) -> Card:
        if not 0 <= card < NUM_CARDS:
            raise InvalidActionError(f"card ids are 0..51, got {card}")
        return cls(card // 13, card % 13 + 1)

    @classmethod
    def parse(cls, text: str) -> Card:
        """``"R13"``, ``"g7"``... (colour letter R, G, O or B, then the strength 1..13)."""
        t = text.strip().upper() if isinstance(text, str) else ""
        if len(t) < 2 or t[0] not in COLOURS or not is_decimal(t[1:]) or len(t) > 3:
            raise InvalidActionError(f"not a card: {text!r} (expected e.g. R13, G7, O1, B10)")
        strength = int(t[1:])
        if not 1 <= strength <= 13:
            raise InvalidActionError(f"card strengths are 1..13, got {text!r}")
        return cls(COLOURS.index(t[0]), strength)

    def __str__(self) -> str:
        return f"{COLOURS[self.colour]}{self.strength}"


CARD_NAMES: tuple[str, ...] = tuple(str(Card.from_id(c)) for c in range(NUM_CARDS))


def card_name(card: int) -> str:
    return CARD_NAMES[card]


def parse_card(text: str) -> int:
    return Card.parse(text).id


def cards_of(bits: int) -> list[int]:
    """Card ids of a bitset, ascending."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out
