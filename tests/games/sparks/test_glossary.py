"""``SparksGame.glossary()``: every robot card, assistant and effect symbol of the content, worded from the
content's fields (a replaced content describes its own cards)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import robotcore
from robotcore.errors import InvalidParameterError
from robotcore.games.sparks import SparksContent
from robotcore.games.sparks.data import ASSISTANT_KINDS


def _content(game: robotcore.Game) -> SparksContent:
    assert isinstance(game.content, SparksContent)
    return game.content


def _replaced(edit: Any) -> SparksContent:
    """The default content through its JSON document, edited by ``edit(doc)``."""
    doc = SparksContent.default().to_json()
    edit(doc)
    return SparksContent.from_json(doc)


def _symbols(content: SparksContent) -> set[str]:
    """The text of every effect symbol the content holds: bonus tiles, robots' rewards and boxes, the board's box."""
    every = [*content.bonus_tiles, *(r.reward for r in content.robots), *(r.box for r in content.robots),
             content.board_box]
    return {s.text() for s in every if s is not None}


def test_every_robot_assistant_and_symbol_has_an_entry() -> None:
    game = robotcore.load_game("sparks")
    content = _content(game)
    glossary = game.glossary()
    assert set(glossary) == set(content.robot_names) | set(content.assistant_names) | _symbols(content)
    assert len(glossary) == len(content.robot_names) + len(content.assistant_names) + len(_symbols(content))
    assert {"cogs x2", "die_colour red", "factory x2", "adjust", "cogs"} <= set(glossary)
    for entry in glossary.values():
        assert set(entry) == {"name", "text"} and entry["name"] and entry["text"]
        assert "\n" not in entry["text"] and "None" not in entry["text"] and "  " not in entry["text"]


def test_every_card_a_view_names_is_in_the_glossary() -> None:
    """The robots (deck bottom, lines, tableaux, drawn) and assistants (hands, played, Conrad's copy) of views."""
    glossary = robotcore.load_game("sparks", players=3, draft=True).glossary()
    named: set[str] = set()
    for seed in range(3):
        state = robotcore.make("sparks", players=3, draft=True, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            for seat in range(state.num_players):
                v = state.view(seat)
                named |= set(v["hand"]) | set(v["drawn"]) | set(v["draft_hand"])
                for p in v["players"]:
                    named |= {s["robot"] for s in p["line"] if s["robot"]} | set(p["tableau"]) | set(p["played"])
                    named |= {p["conrad"]} - {None}
                named |= {t for tiles in v["bonus"].values() for t in tiles}
            seat = rng.choice(state.actors)
            state.apply(rng.choice(list(state.legal_actions(seat))), seat=seat)
    assert len(named) > 40
    assert named <= set(glossary), sorted(named - set(glossary))


def test_robot_entries_say_colour_spaces_advance_reward_and_box() -> None:
    glossary = robotcore.load_game("sparks").glossary()
    r9 = glossary["R9"]
    assert r9["name"] == "Red robot"
    assert r9["text"] == "dice: red, red, blue · +2 on the red track · reward: 1 cog · power box: ±1 to one die"
    assert glossary["G3"]["text"] == "dice: green, any 6 · +2 on the green track"
    assert glossary["B5"]["text"].startswith("dice: blue 5, blue · +2 on the blue track")
    assert glossary["Y14"]["text"].endswith("reward: 1 yellow die")
    assert glossary["R15"]["text"].endswith("power box: +2 towards the next factory upgrade")
    assert glossary["B2"]["text"].endswith("power box: 2 cogs")


def test_symbol_entries_word_the_effect() -> None:
    """By the text a view writes a bonus tile with; the page words rewards and power boxes by them too."""
    glossary = robotcore.load_game("sparks").glossary()
    assert glossary["cogs x2"] == {"name": "2 cogs", "text": "an effect, on bonus tiles, robots' power boxes"}
    assert glossary["cogs"] == {"name": "1 cog", "text": "an effect, on robots' rewards, the board's power box"}
    assert glossary["die_colour yellow"]["name"] == "1 yellow die"
    assert glossary["factory x2"]["name"] == "+2 towards the next factory upgrade"
    assert glossary["adjust"]["name"] == "±1 to one die"
    # the words of a robot's reward and box are its symbols' names
    r9 = glossary["R9"]["text"]
    assert f"reward: {glossary['cogs']['name']}" in r9 and f"power box: {glossary['adjust']['name']}" in r9


def test_assistant_entries_say_timing_effect_and_points() -> None:
    game = robotcore.load_game("sparks")
    glossary = game.glossary()
    for a in _content(game).assistants:
        text = glossary[a.name]["text"]
        assert text.startswith(ASSISTANT_KINDS[a.kind] + ": "), text
        assert text.endswith(f" · {a.points} point{'' if a.points == 1 else 's'}"), text
    assert glossary["Walter"]["text"] == "permanent: an advance on the blue track may go to any track · 2 points"
    assert glossary["Terry"]["text"] == "one-time: pay 1 cog to complete a green robot of your line · 2 points"
    assert glossary["Margot"]["text"] == "permanent: +2 towards every factory upgrade · 1 point"
    assert glossary["Frank"]["text"].startswith("once per turn: discard a die of value 1 or 2 ")
    assert glossary["Gordon"]["text"] == "permanent: ignoring a colour costs 1 cog instead of 2 · 1 point"
    assert glossary["D1"]["text"] == "one-time: gain 3 cogs · 2 points"
    assert glossary["D11"]["text"] == "one-time: +3 towards the next factory upgrade · 1 point"
    # each kind its own effect: no two kinds worded alike
    by_kind = {a.kind: glossary[a.name]["text"].split(": ", 1)[1].rsplit(" · ", 1)[0]
               for a in _content(game).assistants}
    assert len(set(by_kind.values())) == len(by_kind) == len(ASSISTANT_KINDS)


def test_a_replaced_content_changes_the_glossary() -> None:
    def edit(doc: dict[str, Any]) -> None:
        robot = doc["robots"][0]
        assert robot["name"] == "R1"
        robot.update(name="Zap1", colour="green", spaces=[["yellow", 3], [None, None], [None, 2]], advance=4,
                     reward={"kind": "sparks", "n": 2}, box={"kind": "die_colour", "n": 1, "colour": "blue"})
        walter = next(a for a in doc["assistants"] if a["name"] == "Walter")
        walter.update(param=3, points=5)
        d1 = next(a for a in doc["assistants"] if a["name"] == "D1")
        d1.update(name="Bonanza", param=5)
        doc["frank_values"] = [6]
        doc["ignore_colour_cost"] = 4
        doc["board_box"] = {"kind": "sparks", "n": 3}
        doc["bonus_tiles"][0] = {"kind": "advance_any", "n": 4}

    content = _replaced(edit)
    default = robotcore.load_game("sparks").glossary()
    for glossary in (robotcore.make("sparks", content=content, seed=0).game.glossary(),
                     robotcore.load_game("sparks", content=content).glossary()):
        assert "R1" not in glossary and "D1" not in glossary
        assert glossary["Zap1"] == {"name": "Green robot", "text": "dice: yellow 3, any, any 2 · +4 on the green "
                                    "track · reward: 2 sparks · power box: 1 blue die"}
        assert glossary["Walter"]["text"] == "permanent: an advance on the yellow track may go to any track · 5 points"
        assert glossary["Bonanza"] == {"name": "Bonanza", "text": "one-time: gain 5 cogs · 2 points"}
        assert glossary["Frank"]["text"].startswith("once per turn: discard a die of value 6 ")
        assert glossary["Gordon"]["text"].startswith("permanent: ignoring a colour costs 1 cog instead of 4 ")
        assert glossary["sparks x3"]["name"] == "3 sparks" and glossary["advance_any x4"]["name"] == \
            "advance 4 on any track"
        assert set(glossary) == set(content.robot_names) | set(content.assistant_names) | _symbols(content)
        assert glossary["sparks x3"]["text"] == "an effect, on the board's power box"
        assert glossary["sparks x2"]["text"] == "an effect, on robots' rewards"
        # the cards left alone read as before, and every symbol is worded as before (where it lies may change)
        cards = set(content.robot_names) | set(content.assistant_names)
        changed = {"Zap1", "Walter", "Bonanza", "Frank", "Gordon"}
        assert {k: v for k, v in glossary.items() if k in cards - changed} \
            == {k: v for k, v in default.items() if k in cards - changed}
        assert all(glossary[k]["name"] == default[k]["name"] for k in _symbols(content) if k in default)

def test_quincy_and_warren_are_worded_for_the_number_of_players() -> None:
    """RULES.md, "Assistants": Quincy lifts the end rule on others' turns (and adjacency with 2 players; solo: on
    secondary turns); Warren in the solo game only on a secondary turn."""
    text = {n: robotcore.load_game("sparks", players=n).glossary() for n in (1, 2, 3, 4)}
    assert text[3]["Quincy"] == text[4]["Quincy"]
    assert "others' turns" in text[4]["Quincy"]["text"]
    assert "not only side by side" in text[2]["Quincy"]["text"]
    assert "secondary turns" in text[1]["Quincy"]["text"]
    assert "secondary turn" in text[1]["Warren"]["text"]
    assert all("secondary" not in text[n]["Warren"]["text"] for n in (2, 3, 4))


def test_no_card_takes_an_effect_symbol_s_name() -> None:
    """The glossary names each effect symbol by its text beside the cards: a card called "cogs" (or "Adjust")
    would take the symbol's entry, so a content is refused with one."""
    for kind in ("cogs", "Adjust", "TILE"):
        def edit(doc: dict[str, Any], kind: str = kind) -> None:
            doc["assistants"][0]["name"] = kind

        with pytest.raises(InvalidParameterError, match="an effect symbol's name"):
            _replaced(edit)

    def robot(doc: dict[str, Any]) -> None:
        doc["robots"][0]["name"] = "reroll"

    with pytest.raises(InvalidParameterError, match="reroll"):
        _replaced(robot)
