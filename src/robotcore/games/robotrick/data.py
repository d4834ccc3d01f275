"""Robotrick's replaceable content: the victory points of the 52 cards and the 10 AI cards.

The seed does not print either (the VP value sits in a triangle on each card, the AI cards' criteria on the
cards), so these are our defaults; RULES.md gives the reasoning. Pass your own with
``robotcore.make("robotrick", content=RobotrickContent(...))`` or ``RobotrickContent.from_json(...)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from robotcore.core.game import Content
from robotcore.errors import InvalidParameterError
from robotcore.games.robotrick.cards import CARD_NAMES, NUM_CARDS, parse_card

# Order = the engine's enum order (state.pxd); names are the data format.
LEAD_RULES = (
    "highest",
    "lowest",
    "highest_of_longest",
    "lowest_of_shortest",
    "highest_trump",
    "lowest_trump",
    "highest_non_trump",
    "lowest_non_trump",
)
FOLLOW_RULES = ("highest", "lowest", "cheapest_win", "highest_if_win", "duck")
DISCARD_RULES = (
    "lowest",
    "highest",
    "cheapest_trump_win",
    "highest_trump",
    "lowest_non_trump",
    "highest_non_trump",
)

RULE_TEXT = {
    ("lead", "highest"): "its strongest card",
    ("lead", "lowest"): "its weakest card",
    ("lead", "highest_of_longest"): "the strongest card of its longest colour",
    ("lead", "lowest_of_shortest"): "the weakest card of its shortest colour",
    ("lead", "highest_trump"): "its strongest trump (no trump: its strongest card)",
    ("lead", "lowest_trump"): "its weakest trump (no trump: its weakest card)",
    ("lead", "highest_non_trump"): "its strongest non-trump card (only trumps: its strongest trump)",
    ("lead", "lowest_non_trump"): "its weakest non-trump card (only trumps: its weakest trump)",
    ("follow", "highest"): "its strongest card of the led colour",
    ("follow", "lowest"): "its weakest card of the led colour",
    ("follow", "cheapest_win"): "the weakest card of the led colour that takes the lead, else its weakest",
    ("follow", "highest_if_win"): "its strongest card of the led colour if it takes the lead, else its weakest",
    ("follow", "duck"): "the strongest card of the led colour that stays under the lead, else its weakest",
    ("discard", "lowest"): "its weakest card",
    ("discard", "highest"): "its strongest card",
    ("discard", "cheapest_trump_win"): "the weakest trump that takes the lead, else its weakest non-trump card",
    ("discard", "highest_trump"): "its strongest trump (no trump: its weakest card)",
    ("discard", "lowest_non_trump"): "its weakest non-trump card (only trumps: its weakest trump)",
    ("discard", "highest_non_trump"): "its strongest non-trump card (only trumps: its weakest trump)",
}

#: Default VP by strength 1..13, the same in every colour (RULES.md, "Victory points").
DEFAULT_VP_BY_STRENGTH = (1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4, 4)


@dataclass(frozen=True)
class AICard:
    """One AI card: Droco's criterion when it leads, when it can follow, and when it cannot."""

    name: str
    lead: str
    follow: str
    discard: str

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise InvalidParameterError("an AI card needs a name")
        for kind, value, allowed in (
            ("lead", self.lead, LEAD_RULES),
            ("follow", self.follow, FOLLOW_RULES),
            ("discard", self.discard, DISCARD_RULES),
        ):
            if value not in allowed:
                raise InvalidParameterError(
                    f"AI card {self.name!r}: {kind} rule {value!r} is not one of {list(allowed)}"
                )

    @property
    def rule_ids(self) -> tuple[int, int, int]:
        return LEAD_RULES.index(self.lead), FOLLOW_RULES.index(self.follow), DISCARD_RULES.index(self.discard)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "lead": self.lead, "follow": self.follow, "discard": self.discard}

    def describe(self) -> dict[str, str]:
        return {
            "name": self.name,
            "lead": RULE_TEXT["lead", self.lead],
            "follow": RULE_TEXT["follow", self.follow],
            "discard": RULE_TEXT["discard", self.discard],
        }


DEFAULT_AI_CARDS = (
    AICard("Blitz", "highest_trump", "highest", "highest_trump"),
    AICard("Bastion", "highest_of_longest", "cheapest_win", "cheapest_trump_win"),
    AICard("Decoy", "lowest_of_shortest", "lowest", "lowest"),
    AICard("Sniper", "highest_non_trump", "highest_if_win", "cheapest_trump_win"),
    AICard("Miser", "lowest_non_trump", "duck", "lowest_non_trump"),
    AICard("Berserk", "highest", "highest", "highest"),
    AICard("Phantom", "lowest_trump", "cheapest_win", "highest_non_trump"),
    AICard("Juggernaut", "highest_of_longest", "highest", "highest_trump"),
    AICard("Trickster", "lowest", "highest_if_win", "highest_non_trump"),
    AICard("Warden", "highest_trump", "duck", "cheapest_trump_win"),
)


@dataclass(frozen=True)
class RobotrickContent(Content):
    """VP per card id (52 values) and the AI cards (1 to 16)."""

    vp: tuple[int, ...]
    ai_cards: tuple[AICard, ...]

    def __post_init__(self) -> None:
        vp = tuple(self.vp)
        if len(vp) != NUM_CARDS or not all(isinstance(v, int) and not isinstance(v, bool) for v in vp):
            raise InvalidParameterError("vp must hold 52 integers, one per card id")
        if not all(-100 <= v <= 100 for v in vp):
            raise InvalidParameterError("VP values must be within [-100, 100]")
        cards = tuple(self.ai_cards)
        if not 1 <= len(cards) <= 16 or not all(isinstance(c, AICard) for c in cards):
            raise InvalidParameterError("ai_cards must hold 1 to 16 AICard values")
        if len({c.name for c in cards}) != len(cards):
            raise InvalidParameterError("AI card names must be distinct")
        object.__setattr__(self, "vp", vp)
        object.__setattr__(self, "ai_cards", cards)

    @classmethod
    def default(cls) -> RobotrickContent:
        return cls(vp=DEFAULT_VP_BY_STRENGTH * 4, ai_cards=DEFAULT_AI_CARDS)

    def to_json(self) -> dict[str, Any]:
        return {
            "vp": {CARD_NAMES[c]: v for c, v in enumerate(self.vp)},
            "ai_cards": [c.to_json() for c in self.ai_cards],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any] | str | Path) -> RobotrickContent:
        """From the ``to_json`` form, a JSON string or a path to a JSON file. ``vp`` maps card names to VP."""
        data = cls.json_document(data)
        if not isinstance(data, dict) or set(data) != {"vp", "ai_cards"}:
            raise InvalidParameterError("content JSON must have exactly the keys 'vp' and 'ai_cards'")
        raw_vp = data["vp"]
        if not isinstance(raw_vp, dict) or len(raw_vp) != NUM_CARDS:
            raise InvalidParameterError("'vp' must map each of the 52 card names to its VP")
        vp = [0] * NUM_CARDS
        for name, value in raw_vp.items():
            vp[parse_card(name)] = value
        if len({parse_card(n) for n in raw_vp}) != NUM_CARDS:
            raise InvalidParameterError("'vp' names a card twice")
        cards = data["ai_cards"]
        if not isinstance(cards, list) or not all(isinstance(c, dict) for c in cards):
            raise InvalidParameterError("'ai_cards' must be a list of objects")
        try:
            return cls(vp=tuple(vp), ai_cards=tuple(AICard(**c) for c in cards))
        except TypeError as exc:
            raise InvalidParameterError(f"bad AI card: {exc}") from None
