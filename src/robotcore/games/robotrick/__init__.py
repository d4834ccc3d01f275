"""Robotrick (seed 003): three players and Droco, a rule-driven automaton, in a 3-round trick-taking game.

>>> import robotcore
>>> state = robotcore.make("robotrick", seed=1)
>>> state.actors                      # the pass: all three seats choose at once
[0, 1, 2]
>>> state.game.action_to_str(state.legal_actions(0)[0])[:4]
'pass'

Where things are: rules in ``engine.pyx`` (move generation is ``rt_legal_mask``), what a seat sees in
``view.pyx``, content (VP, AI cards) in ``data.py``, the rules as implemented in ``RULES.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any, ClassVar

import numpy as np

from robotcore.core.game import Game
from robotcore.core.state import GameCore, State
from robotcore.errors import InvalidActionError, InvalidParameterError
from robotcore.games.robotrick import engine, view
from robotcore.games.robotrick.cards import CARD_NAMES, Card, card_name, parse_card
from robotcore.games.robotrick.data import AICard, RobotrickContent
from robotcore.types import ParamSpec, View

__all__ = ["RobotrickGame", "RobotrickContent", "AICard", "Card", "PLAY", "PASS", "card_name", "parse_card"]

PLAY = 0
PASS = 52
NUM_ACTIONS = 104
_VERBS = {"play": PLAY, "pass": PASS}


def _check_rounds_vs_content(params: Mapping[str, Any]) -> None:
    content = params.get("content") or RobotrickContent.default()
    if not params["same_ai_card"] and len(content.ai_cards) < params["rounds"]:
        raise InvalidParameterError(
            f"{params['rounds']} rounds need at least {params['rounds']} AI cards "
            f"(the content has {len(content.ai_cards)}); or set same_ai_card=True"
        )


class RobotrickGame(Game):
    """Robotrick under given parameters. Action ids: ``0..51`` play card c, ``52..103`` pass card c."""

    name = "robotrick"
    title = "Robotrick"
    min_players = 3
    max_players = 3
    content_type = RobotrickContent
    view_module: ClassVar[ModuleType] = view
    param_specs = (
        ParamSpec("players", int, 3, "number of seats (the rules are for exactly 3, plus Droco)", min=3, max=3),
        ParamSpec("hangars", int, 3, "face-up captures allowed per round: the rules play 3, their first-game "
                  "variant 4 (0 to 12 accepted, for experiments)",
                  min=0, max=12),
        ParamSpec("same_ai_card", bool, False, "variant: one AI card for all rounds"),
        ParamSpec("rounds", int, 3, "rounds in a game (the rules play 3)", min=1, max=3),
        ParamSpec("content", RobotrickContent, None, "replaceable content: card VP values and the AI cards"),
    )
    variants = ({"hangars": 4}, {"same_ai_card": True}, {"rounds": 1})

    def _make_core(self) -> GameCore:
        content = self.content
        assert isinstance(content, RobotrickContent)
        _check_rounds_vs_content(self.params)
        return engine.make_core(
            list(content.vp),
            [card.rule_ids for card in content.ai_cards],
            self.params["hangars"],
            self.params["same_ai_card"],
            self.params["rounds"],
        )

    @property
    def max_game_length(self) -> int:
        return 42 * int(self.params["rounds"])

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (int(view.OBSERVATION_SIZE),)

    # -- notation ---------------------------------------------------------------------------------------------

    def action_to_str(self, action: int) -> str:
        action = self.check_action_id(action)
        return f"{'pass' if action >= PASS else 'play'} {CARD_NAMES[action % PASS]}"

    def parse_action(self, text: str) -> int:
        """``"play R13"`` or ``"pass g7"`` (case-insensitive)."""
        if not isinstance(text, str):
            raise InvalidActionError(f"an action is text like 'play R13', got {type(text).__name__}")
        parts = text.split()
        if len(parts) != 2 or parts[0].lower() not in _VERBS:
            raise InvalidActionError(f"not a Robotrick action: {text!r} (expected 'play R13' or 'pass G7')")
        return _VERBS[parts[0].lower()] + parse_card(parts[1])

    def action_to_dict(self, action: int) -> dict[str, Any]:
        action = self.check_action_id(action)
        return {"type": "pass" if action >= PASS else "play", "card": CARD_NAMES[action % PASS]}

    def action_from_dict(self, data: Mapping[str, Any]) -> int:
        if not isinstance(data, Mapping) or set(data) != {"type", "card"}:
            raise InvalidActionError("a Robotrick action is {'type': 'play'|'pass', 'card': 'R13'}")
        kind, card = data["type"], data["card"]
        if kind not in _VERBS or not isinstance(card, str):
            raise InvalidActionError(f"unknown action type {kind!r} or card {card!r}")
        return _VERBS[kind] + parse_card(card)

    def is_public_action(self, action: int) -> bool:
        """Plays are seen by everyone; a pass choice only by the seat that makes it."""
        return self.check_action_id(action) < PASS

    # -- information ------------------------------------------------------------------------------------------





    def scores_from_view(self, view: View) -> list[int]:
        """Finished rounds' scores plus, while a round is on, face-up VP minus face-down VP."""
        content = self.content
        assert isinstance(content, RobotrickContent)
        totals = [sum(r[p] for r in view["round_scores"]) for p in range(3)]
        if not view["terminal"]:
            for p, cap in enumerate(view["captures"]):
                totals[p] += sum(content.vp[parse_card(c)] for c in cap["face_up"])
                totals[p] -= sum(content.vp[parse_card(c)] for c in cap["face_down"])
        return totals

    def droco_card(self, state: State) -> int:
        """The card Droco would play now, or -1 (tests and tools)."""
        return int(engine.droco_card(self._core, np.frombuffer(self.own(state).state_bytes(), dtype=np.uint8)))

    def render(self, state: State) -> str:
        return render(self.view(state, None))


def render(v: View) -> str:
    """A few readable lines for a view (spectator or seat)."""
    lines = [
        f"Robotrick round {v['round']}/{v['rounds']} phase {v['phase']}  trump {v['trump']}  "
        f"AI card {v['ai_card']['name']}  scores {v['scores']}",
        "Droco: " + "  ".join(f"{c}:{','.join(x[1:] for x in cards) or '-'}" for c, cards in v["droco_hand"].items()),
    ]
    if v["trick"]["cards"]:
        lines.append("trick: " + " ".join(f"{p}:{c}" for p, c in v["trick"]["cards"]))
    for seat, cap in enumerate(v["captures"]):
        lines.append(f"seat {seat}: up {' '.join(cap['face_up']) or '-'}  down {' '.join(cap['face_down']) or '-'}")
    if v.get("hand") is not None:
        lines.append(f"hand: {' '.join(v['hand'])}")
    return "\n".join(lines)

