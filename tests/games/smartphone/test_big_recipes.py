"""Move generation on contents far from the default one: recipes of up to 12 cards give thousands of build options,
so the make-time tables of the ways that fit a hand (``SPConfig.fit``) hold many ways per type and the mask is
wider than the 64 words the playouts' word-set loop takes (the engine then falls back to scanning every word).

The engine must agree with the independent reference (reference.py) move by move there too, and its native
playouts must draw as the Python loop over the public API does."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

import robotcore
from robotcore.games.smartphone import SmartphoneContent

from ...rng_model import check_native_playouts
from .test_reference import play_in_lockstep

Recipe = tuple[int, int, int, int, int]


def big_content(motherboard: Recipe, screen: Recipe | None) -> SmartphoneContent:
    content = robotcore.load_game("smartphone").content
    assert isinstance(content, SmartphoneContent)
    comps = []
    for comp in content.components:
        if comp.name == "motherboard":
            comp = dataclasses.replace(comp, recipe=motherboard)
        if comp.name == "screen" and screen is not None:
            comp = dataclasses.replace(comp, recipe=screen)
        comps.append(comp)
    return dataclasses.replace(content, components=tuple(comps))


# (motherboard, screen recipes, parameters, mask words): 40 words; 65 words (past the word-set loop's 64)
CASES = [((1, 2, 2, 1, 5), None, {"harsh_malus": True, "players": 3}, 40),
         ((4, 0, 4, 0, 4), (0, 1, 1, 1, 8), {}, 65)]


@pytest.mark.parametrize("motherboard,screen,params,words", CASES, ids=["40-words", "65-words"])
def test_big_recipes_match_reference_and_native_playouts(motherboard: Recipe, screen: Recipe | None,
                                                         params: dict[str, object], words: int) -> None:
    game = robotcore.load_game("smartphone", content=big_content(motherboard, screen), **params)
    assert (game.num_actions + 63) // 64 == words
    # the engine names the words it wrote (EngineSpec.legal_mask_words) up to the kernel's 64; past that, the
    # kernel scans every word: the lists below must match the reference either way
    assert game.core.native_mask_words == (words <= 64)
    rng = random.Random(5)
    builds = sum(play_in_lockstep(game, seed, rng, True)["build"] for seed in range(3))
    assert builds >= 5
    check_native_playouts(game, np.arange(10, dtype=np.uint64), 11)
