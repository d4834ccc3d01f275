"""Smartphone's glossary (``Game.glossary``): an entry for every name its views can show (components, malus cards,
suppliers, resource kinds ``P-MR`` and types ``MR``), each worded from the content's fields, so that a replaced
content describes its own cards."""

from __future__ import annotations

from typing import Any

import robotcore
from robotcore.games.smartphone import KIND_NAMES, SmartphoneContent
from robotcore.games.smartphone.data import SUPPLIERS, TYPE_NAMES, TYPES

from ...conftest import strings_views_show


def default_doc() -> dict[str, Any]:
    content = robotcore.load_game("smartphone").content
    assert isinstance(content, SmartphoneContent)
    doc: dict[str, Any] = content.to_json()
    return doc


def test_every_content_name_has_an_entry_from_its_fields() -> None:
    game = robotcore.load_game("smartphone")
    content = game.content
    assert isinstance(content, SmartphoneContent)
    glossary = game.glossary()
    held = {f"{code}-{t}" for s, code in enumerate("PMR") for t, n in zip(TYPES, content.suppliers[s].deck) if n}
    expected = {*content.component_names, *content.malus_names, *SUPPLIERS, *held, *TYPES}
    assert set(glossary) == expected
    assert "R-MR" not in glossary and "R-TR" not in glossary          # no Recyclage card is of these types
    assert held <= set(KIND_NAMES)
    for c in content.components:
        entry = glossary[c.name]
        assert entry["name"] == c.title_en
        assert f"{c.points} points" in entry["text"] and f"{sum(c.recipe)} cards" in entry["text"]
    assert glossary["shell"]["text"].endswith("MR MC AM AM AM")
    assert "2025 board: MP MR MC TR AM AM" in glossary["screen"]["text"]
    for m in content.malus:
        entry = glossary[m.name]
        assert m.category in entry["name"] and entry["text"].startswith(m.text_en)
    assert "harsh variant: counts as 2 malus" in glossary["M06"]["text"]
    assert "harsh variant" not in glossary["M01"]["text"]                # no effect of its own
    for s in content.suppliers:
        text = glossary[s.name]["text"]
        assert text.startswith(s.text_en) and f"{s.take} card" in text and f"+ {s.malus} malus" in text
    assert glossary["P-MR"]["name"] == "rare metal from PolluPlus" and "16 of the 75 cards" in glossary["P-MR"]["text"]
    assert "recycled" in glossary["R-AM"]["text"] and "recycled" not in glossary["M-AM"]["text"]
    for t in TYPES:
        assert glossary[t]["name"] == TYPE_NAMES[t][1]
    assert "needed by: screen 1, motherboard 1" in glossary["TR"]["text"]


def test_the_parameters_word_the_recipes_and_effects_in_force() -> None:
    glossary = robotcore.load_game("smartphone", screen_precious_metal=True, harsh_malus=True).glossary()
    assert "6 cards: MP MR MC TR AM AM · original board: MR MC TR AM AM" in glossary["screen"]["text"]
    assert "needed by: screen 1, motherboard 1" in glossary["MP"]["text"]
    assert "(effect: counts as 2 malus)" in glossary["M06"]["text"]
    assert "discards one non-recycled MC (common metal)" in glossary["M09"]["text"]


def test_views_show_the_glossary_names() -> None:
    """Within a few random games, the views show most of the names the glossary describes (and no kind of a card
    the decks do not hold)."""
    game = robotcore.load_game("smartphone", players=3)
    glossary = game.glossary()
    seen = strings_views_show(game, range(4))
    kinds = {k for k in seen if k in KIND_NAMES}
    assert kinds <= set(glossary)
    assert {*SUPPLIERS, *TYPES, "P-MR", "M-MC", "R-AM"} <= seen
    assert len(set(glossary) & seen) >= 0.75 * len(glossary)


def test_a_replaced_content_changes_the_glossary() -> None:
    doc = default_doc()
    shell = next(c for c in doc["components"] if c["name"] == "shell")
    shell.update(name="casing", title_en="Aluminium casing", points=5, recipe={"MC": 2, "AM": 1})
    m06 = next(m for m in doc["malus"] if m["name"] == "M06")
    m06.update(category="Accident", text_en="A made-up spill.", effect="block", arg="PolluMoins")
    sup = next(s for s in doc["suppliers"] if s["name"] == "Recyclage")
    sup.update(text_en="Second-hand parts.", take=2, deck={"MP": 1, "MC": 4})
    content = SmartphoneContent.from_json(doc)
    for game in (robotcore.load_game("smartphone", content=content), robotcore.make("smartphone", content=content).game):
        glossary = game.glossary()
        assert "shell" not in glossary
        assert glossary["casing"] == {"name": "Aluminium casing", "text": "component · 5 points · 3 cards: MC MC AM"}
        assert glossary["M06"]["name"] == "malus card · Accident"
        assert glossary["M06"]["text"] == ("A made-up spill. (harsh variant: drawn with a supply, no supply at "
                                           "PolluMoins on its drawer's next turn)")
        assert glossary["Recyclage"]["text"] == ("Second-hand parts. · a supply takes 2 cards + 0 malus · 1 face up "
                                                 "· deck of 5: 1 MP, 4 MC")
        assert "R-AM" not in glossary and "4 of the 5 cards" in glossary["R-MC"]["text"]
        assert "needed by: battery 1, screen 1, motherboard 2" in glossary["MR"]["text"]
        assert "casing 2" in glossary["MC"]["text"] and "Recyclage 4" in glossary["MC"]["text"]
    # the default's glossary is untouched
    assert "shell" in robotcore.load_game("smartphone").glossary()
