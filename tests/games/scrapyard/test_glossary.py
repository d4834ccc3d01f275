"""Scrapyard's glossary (``Game.glossary``): every card code of the content, and the Merchant's ``standard``
Structure, named and described from the content's fields — so a replaced content describes its own cards."""

from __future__ import annotations

import re
from typing import Any

import robotcore
from robotcore.games.scrapyard import ScrapyardContent, ScrapyardGame, Structure, Upgrade
from robotcore.games.scrapyard.data import TYPES, cubes_text

from ...conftest import strings_views_show

RESOURCE_NAMES = {"mech": "Mechanical", "motor": "Motor", "elec": "Electronics", "energy": "Energy"}


def game_of(**params: Any) -> ScrapyardGame:
    g = robotcore.load_game("scrapyard", **params)
    assert isinstance(g, ScrapyardGame)
    return g


def parts(entry: dict[str, str]) -> list[str]:
    return entry["text"].split(" · ")


def check_card(entry: dict[str, str], card: Structure | Upgrade) -> None:
    """The entry names the card and its text states every field that matters in play."""
    assert entry["name"] == card.name
    p = parts(entry)
    assert f"repair {cubes_text(card.rep_cubes)}" in p, entry
    assert f"dismantle gives {cubes_text(card.dem_cubes) or 'nothing'}" in p, entry
    if isinstance(card, Structure):
        assert p[0] == f"{card.type.title()} Structure", entry
        assert f"{card.vp} VP" in p, entry
        assert any(s.startswith(f"{card.slots} Upgrade slot") for s in p) or card.slots == 0, entry
        if card.bonus is None:
            assert "no storage bonus" in p, entry
        else:
            assert f"+1 VP per 3 {RESOURCE_NAMES[card.bonus]} left in stock" in p, entry
    else:
        assert p[0] == f"{card.family.title()} Upgrade", entry
        assert p[1].startswith(f"+{card.x} VP"), entry
        fit = next(s for s in p if s.startswith("fits "))
        if set(card.fits) == set(TYPES):
            assert fit == "fits any Structure", entry
        else:
            assert fit == "fits " + ", ".join(t.title() for t in card.fits), entry
        if card.family == "boost":
            assert card.target is not None
            assert ("on its Structure" in p[1]) if card.target == "self" else (f"on the {card.target.title()}" in p[1])


def test_every_card_of_the_default_content_has_its_entry() -> None:
    g = game_of()
    content = g.content
    assert isinstance(content, ScrapyardContent)
    glossary = g.glossary()
    assert set(glossary) == {*content.codes(), "standard"}
    assert len(glossary) == 117                       # 16 Structures, 100 Upgrades, the standard Structure
    for code, card in zip(content.codes(), content.cards, strict=True):
        check_card(glossary[code], card)
    assert glossary["H1"] == {"name": "Armoured Head", "text": "Head Structure · 3 VP · 2 Upgrade slots · +1 VP per "
                                                               "3 Mechanical left in stock · repair MMO · "
                                                               "dismantle gives MO"}
    assert parts(glossary["SW18"])[:3] == ["Software Upgrade", "+4 VP", "fits Head"]     # Basic Hacking
    assert glossary["standard"]["name"] == "Standard Structure"
    assert {"2 VP", "2 Upgrade slots", "no storage bonus"} <= set(parts(glossary["standard"]))


def test_the_families_read_differently() -> None:
    """Each family's scoring effect in its own words (the same X means different things)."""
    glossary = game_of().glossary()
    effects = {parts(glossary[code])[1] for code in ("SW1", "SH1", "WP1", "MV1", "BO1", "BO3")}
    assert len(effects) == 6, effects


def test_every_card_a_view_shows_is_in_the_glossary() -> None:
    """Every card code (and ``standard``) that views of random games show has an entry."""
    g = game_of()
    glossary = g.glossary()
    code = re.compile(r"^(?:[HBAL]|SW|SH|WP|MV|BO)\d+$")

    shown = strings_views_show(g, range(3), share=0.3)
    ids = {s for s in shown if code.match(s)} | ({"standard"} & shown)
    assert len(ids) > 60, "random games show many cards"
    assert ids <= set(glossary), sorted(ids - set(glossary))


def test_a_replaced_content_describes_its_own_cards() -> None:
    """A content built from the default's JSON with cards changed: the glossary follows it, through both
    ``load_game`` and ``make``; the default game keeps its own."""
    default = game_of().glossary()
    doc = ScrapyardContent.default().to_json()
    doc["structures"][0] = {"name": "Bucket Head", "type": "head", "vp": 5, "slots": 1, "bonus": "energy",
                            "rep": "OEN", "dem": "N"}
    bo17 = next(i for i, u in enumerate(doc["upgrades"]) if u["name"] == "Improved Detection")
    doc["upgrades"][bo17] = {**doc["upgrades"][bo17], "name": "Leg Day", "x": 2, "target": "legs",
                             "fits": ["legs", "arms"], "rep": "NE", "dem": ""}
    del doc["structures"][3]                          # Scrap Skull, the fourth Head: H4 is gone
    doc["standard_vp"], doc["standard_slots"] = 1, 3
    content = ScrapyardContent.from_json(doc)
    for g in (game_of(content=content), robotcore.make("scrapyard", content=content, seed=0).game):
        assert isinstance(g, ScrapyardGame)
        glossary = g.glossary()
        assert set(glossary) == set(default) - {"H4"}
        assert glossary["H1"] == {"name": "Bucket Head", "text": "Head Structure · 5 VP · 1 Upgrade slot · +1 VP per "
                                                                 "3 Energy left in stock · repair OEN · "
                                                                 "dismantle gives N"}
        assert glossary["BO17"]["name"] == "Leg Day"
        assert parts(glossary["BO17"]) == ["Boost Upgrade", "+2 VP per Upgrade on the Legs, itself always counted",
                                           "fits Arms, Legs", "repair EN", "dismantle gives nothing"]
        assert {"1 VP", "3 Upgrade slots"} <= set(parts(glossary["standard"]))
        for code, card in zip(content.codes(), content.cards, strict=True):
            check_card(glossary[code], card)
        unchanged = set(default) - {"H1", "H4", "BO17", "standard"}
        assert all(glossary[c] == default[c] for c in unchanged)
    assert game_of().glossary() == default
