"""The layering of design.md section 1, checked on the imports of every module: imports only point down."""

from __future__ import annotations

import ast
import pathlib

import pytest

import robotcore
from robotcore.tools.balance import balance, header, row

# the repository's sources: an installed package has no .pyx files (the wheel ships the compiled modules), so
# reading it would check the Python layer only, as CI's non-editable install did
_REPO_SRC = pathlib.Path(__file__).resolve().parents[1] / "src" / "robotcore"
SRC = _REPO_SRC if _REPO_SRC.is_dir() else pathlib.Path(robotcore.__file__).parent


def imported_modules(path: pathlib.Path) -> set[str]:
    """Every module a .py/.pyx/.pxd file imports (cimports included), at any depth of the file."""
    text = path.read_text(encoding="utf-8")
    found: set[str] = set()
    if path.suffix == ".py":
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
    else:
        for line in text.splitlines():
            words = line.split()
            if len(words) >= 2 and words[0] in ("from", "import", "cimport"):
                found.add(words[1].rstrip(","))
    return found


def modules_under(folder: str) -> list[pathlib.Path]:
    return [p for ext in ("*.py", "*.pyx", "*.pxd") for p in (SRC / folder).rglob(ext)]


@pytest.mark.parametrize("path", modules_under("games"), ids=lambda p: str(p.relative_to(SRC)))
def test_a_game_package_imports_only_the_kernel_and_the_typed_face(path: pathlib.Path) -> None:
    above = ("robotcore.bots", "robotcore.tools", "robotcore.adapters", "robotcore.arena", "robotcore.cli",
             "robotcore.registry", "robotcore_api", "flask")
    bad = [m for m in imported_modules(path) if m.startswith(above)]
    own = "robotcore.games." + path.relative_to(SRC / "games").parts[0]
    others = [m for m in imported_modules(path) if m.startswith("robotcore.games.") and not m.startswith(own)]
    assert not bad and not others, f"{path.name} imports {bad + others}"


@pytest.mark.parametrize("path", modules_under("core"), ids=lambda p: str(p.relative_to(SRC)))
def test_the_kernel_knows_no_game_and_no_registry(path: pathlib.Path) -> None:
    allowed = ("robotcore.core", "robotcore.errors", "robotcore.types")
    bad = [m for m in imported_modules(path) if m.startswith("robotcore") and not m.startswith(allowed)]
    assert not bad, f"{path.name} imports {bad}"


@pytest.mark.parametrize("path", [p for p in modules_under(".") if p.name != "cli.py"],
                         ids=lambda p: str(p.relative_to(SRC)))
def test_nothing_in_the_library_imports_the_command_line_or_the_service(path: pathlib.Path) -> None:
    """The CLI (robotcore.cli) and the service sit on top: they use bots and tools, nothing uses them."""
    bad = [m for m in imported_modules(path) if m.startswith(("robotcore.cli", "robotcore_api", "flask"))]
    assert not bad, f"{path.name} imports {bad}"


def test_the_balance_tool_serves_every_game_with_its_own_facts() -> None:
    result = balance("scrapyard", ["random"] * 3, games=2, seed=5, players=3)
    assert result["games"] == 2 and len(result["score_by_seat"]) == 3
    assert set(result["facts"]) == {"complete robots", "Upgrades per robot", "advanced Structures"}
    assert header(result).splitlines()[0].count("|") == row(result).count("|") == 10
    plain = balance("nicodemus", ["random", "random"], games=2)
    assert plain["facts"] == {} and abs(sum(plain["win_share_by_seat"]) - 1) < 1e-9
