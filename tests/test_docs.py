"""The README's examples are doctests, and the typed surface matches the compiled modules."""

from __future__ import annotations

import doctest
import importlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Literal

import pytest

import robotcore

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_PARENT = Path(robotcore.__file__).resolve().parents[1]


def test_readme_examples() -> None:
    failures, tried = doctest.testfile(str(ROOT / "README.md"), module_relative=False,
                                       optionflags=doctest.ELLIPSIS)
    assert tried > 10 and failures == 0


DOCTESTED = ["robotcore", "robotcore.types", *(robotcore.registry.GAMES[n].module for n in robotcore.list_games())]


@pytest.mark.parametrize("module", DOCTESTED)
def test_module_doctests(module: str) -> None:
    failures, _ = doctest.testmod(importlib.import_module(module))
    assert failures == 0


def _compiled_modules() -> list[str]:
    out = []
    for pyi in sorted(PACKAGE_PARENT.joinpath("robotcore").rglob("*.pyi")):
        out.append(".".join(pyi.relative_to(PACKAGE_PARENT).with_suffix("").parts))
    return out


def test_every_compiled_module_has_a_stub() -> None:
    compiled = set()
    for path in PACKAGE_PARENT.joinpath("robotcore").rglob("*"):
        if path.suffix in (".so", ".pyd"):
            parts = path.relative_to(PACKAGE_PARENT).parts
            compiled.add(".".join((*parts[:-1], parts[-1].split(".")[0])))
    assert compiled and compiled == set(_compiled_modules())


def test_stubs_match_the_compiled_modules() -> None:
    """mypy's stubtest imports each compiled module and compares it with its .pyi stub."""
    pytest.importorskip("mypy")
    allow = ROOT / "stubtest-allowlist.txt"
    env = dict(os.environ)
    if PACKAGE_PARENT.name not in ("site-packages", "dist-packages"):
        # an in-tree build: point mypy at it (mypy refuses a site-packages directory in MYPYPATH, and finds an
        # installed package without it)
        env["MYPYPATH"] = str(PACKAGE_PARENT)
    proc = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "--allowlist", str(allow), *_compiled_modules()],
        capture_output=True, text=True, env=env, cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]


@pytest.mark.skipif(sys.version_info < (3, 11), reason="typing.get_overloads is Python 3.11's")
def test_load_game_is_typed_with_each_games_own_class() -> None:
    """To type checkers ``load_game("sparks")`` is a ``SparksGame`` (its own methods without a cast): one overload
    per game of ``GameName``, each answering with the class the registry loads, then ``str`` answering ``Game``."""
    import typing

    from robotcore import registry

    hints = [typing.get_type_hints(f, vars(registry) | {
        entry.cls: entry.load() for entry in registry.GAMES.values()}) for f in typing.get_overloads(
        registry.load_game)]
    named = {typing.get_args(h["name"])[0]: h["return"] for h in hints if typing.get_origin(h["name"]) is Literal}
    assert named == {name: registry.game_class(name) for name in typing.get_args(registry.GameName)}
    assert set(named) == set(registry.GAMES)
    assert hints[-1]["name"] is str and hints[-1]["return"] is robotcore.Game
