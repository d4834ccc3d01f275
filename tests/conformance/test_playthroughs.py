"""Golden playthroughs: regenerate each committed file and diff it (design.md section 7)."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from robotcore.tools.playthrough import GOLDEN, golden_path, playthrough

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name, seed, params", GOLDEN, ids=[g[0] for g in GOLDEN])
def test_playthrough_matches_golden_file(name: str, seed: int, params: dict) -> None:
    path = Path(golden_path(str(ROOT), name, seed, params))
    expected = path.read_text(encoding="utf-8")
    actual = playthrough(name, seed, **params)
    if actual != expected:
        diff = "".join(list(difflib.unified_diff(
            expected.splitlines(True), actual.splitlines(True), "golden", "now"))[:80])
        pytest.fail(f"{path.name} changed (regenerate with python -m robotcore.tools.playthrough --write "
                    f"if the change is intended):\n{diff}")


def test_every_registered_game_has_a_golden_playthrough() -> None:
    import robotcore

    assert {g[0] for g in GOLDEN} == set(robotcore.list_games())
