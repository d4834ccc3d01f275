"""Nicodemus's glossary (``Game.glossary``): one entry per machine type and per project tile of the content, worded
from the content's fields, so that a replaced content describes its own cards."""

from __future__ import annotations

import json

import robotcore
from robotcore.games.nicodemus import NicodemusContent

from ...conftest import strings_views_show


def _cost_words(cost: dict[str, int]) -> str:
    return " + ".join(f"{n} {r}" for r, n in cost.items() if n)


def test_every_machine_and_project_of_the_content_has_an_entry() -> None:
    game = robotcore.load_game("nicodemus")
    content = game.content
    assert isinstance(content, NicodemusContent)
    glossary = game.glossary()
    assert set(glossary) == set(content.machine_names) | set(content.project_names)
    json.dumps(glossary)
    for entry in glossary.values():
        assert set(entry) == {"name", "text"} and entry["name"] and entry["text"] and "\n" not in entry["text"]


def test_a_machine_entry_gives_its_colour_vp_cost_production_and_effect() -> None:
    game = robotcore.load_game("nicodemus")
    glossary = game.glossary()
    for m in NicodemusContent.default().to_json()["machines"]:
        entry = glossary[m["name"]]
        assert entry["name"] == f"{m['colour'].capitalize()} machine", m["name"]
        text = entry["text"]
        assert text.startswith(f"{m['vp']} VP · "), (m["name"], text)
        assert f"repair costs {_cost_words(m['cost'])} · " in text, (m["name"], text)
        production = "a joker" if m["production"] == "joker" else m["production"]
        assert f"produces {production}" in text, (m["name"], text)
        assert f"{m['copies']} copies" in text, (m["name"], text)
    assert "effect: gain 1 wood per bric-a-brac machine producing wood" in glossary["B1"]["text"]
    assert "effect: choose wood, copper or crystal: gain 1 of it per bric-a-brac machine with a joker" \
        in glossary["B5"]["text"]
    assert "effect: steal 1 charcoalium and 1 random machine" in glossary["R1"]["text"]
    assert "(not Y2)" in glossary["Y2"]["text"]
    effects = {glossary[m]["text"].split("effect: ")[1] for m in ("P1", "P2", "P3", "P4", "P5", "R1", "R2", "R3",
                                                                    "R4", "Y1", "Y2")}
    assert len(effects) == 11, "each effect has words of its own"


def test_a_project_entry_gives_its_vp_and_what_it_needs() -> None:
    glossary = robotcore.load_game("nicodemus").glossary()
    assert {glossary[t]["name"] for t in ("T1", "T7", "T17")} == {"Project tile"}
    expected = {
        "T1": "5 VP · needs 4 machines: blue, purple, red and yellow (one each) in your workshop",
        "T2": "1 VP · needs 2 blue machines in your workshop",
        "T6": "2 VP · needs 2 machines of the same type in your workshop",
        "T7": "3 VP · needs 2 machines worth 1 VP each in your workshop",
        "T10": "2 VP · needs 2 machines producing charcoalium and wood (one each) in your workshop",
        "T13": "2 VP · needs 2 machines producing charcoalium in your workshop",
        "T17": "3 VP · needs 3 machines producing wood, copper and crystal (one each) in your workshop",
    }
    for tile, start in expected.items():
        assert glossary[tile]["text"].startswith(start), (tile, glossary[tile]["text"])
    assert glossary["T10"]["text"].endswith("a joker production does not count")
    assert "joker" not in glossary["T2"]["text"]


def test_every_id_the_views_show_is_in_the_glossary() -> None:
    """The machine and project ids of seats' and spectators' views (hands, bric-a-brac, workshops, projects...)
    all have an entry."""
    game = robotcore.load_game("nicodemus")
    glossary = game.glossary()
    content = game.content
    assert isinstance(content, NicodemusContent)
    names = set(content.machine_names) | set(content.project_names)
    shown = strings_views_show(game, range(4)) & names
    assert len(shown) > len(names) // 2
    assert shown <= set(glossary)


def _replaced() -> NicodemusContent:
    doc = NicodemusContent.default().to_json()
    b1 = doc["machines"][0]
    assert b1["name"] == "B1"
    b1.update(name="Gear1", colour="red", vp=4, cost={"wood": 3, "copper": 0, "crystal": 2}, production="crystal",
              effect="strip_hand")
    t7 = next(t for t in doc["projects"] if t["name"] == "T7")
    t7.update(vp=6, condition="production", requires=["copper", "copper", "wood"], machines=3)
    return NicodemusContent.from_json(doc)


def test_a_replaced_content_changes_the_glossary() -> None:
    content = _replaced()
    default = robotcore.load_game("nicodemus").glossary()
    for glossary in (robotcore.load_game("nicodemus", content=content).glossary(),
                     robotcore.make("nicodemus", seed=3, content=content).game.glossary()):
        assert "B1" not in glossary
        gear = glossary["Gear1"]
        assert gear["name"] == "Red machine"
        assert gear["text"].startswith("4 VP · repair costs 3 wood + 2 crystal · produces crystal · effect: the "
                                       "opponent discards machines"), gear["text"]
        assert glossary["T7"]["text"].startswith("6 VP · needs 3 machines producing copper, copper and wood in "
                                                 "your workshop"), glossary["T7"]["text"]
        assert glossary["T7"]["text"].endswith("a joker production does not count")
        unchanged = set(default) - {"B1", "T7"}
        assert {k: glossary[k] for k in unchanged} == {k: default[k] for k in unchanged}


def test_a_second_copier_is_named_in_every_copy_effect() -> None:
    doc = NicodemusContent.default().to_json()
    p1 = next(m for m in doc["machines"] if m["name"] == "P1")
    p1["effect"] = "copy"
    glossary = robotcore.load_game("nicodemus", content=NicodemusContent.from_json(doc)).glossary()
    assert "(not P1 or Y2)" in glossary["Y2"]["text"] and "(not P1 or Y2)" in glossary["P1"]["text"]
    assert "produces a joker" in glossary["P1"]["text"]
