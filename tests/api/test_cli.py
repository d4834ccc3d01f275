"""``robotcore serve`` starts the service (Flask's development server) on the database it is given."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import flask
import pytest

from robotcore import cli


def test_robotcore_serve(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}

    def fake_run(app: flask.Flask, **kw: Any) -> None:
        seen.update(kw)
        seen["health"] = app.test_client().get("/v1/health").get_json()

    monkeypatch.setattr(flask.Flask, "run", fake_run)
    url = f"sqlite:///{tmp_path / 'serve.db'}"
    assert cli.main(["serve", "--database", url, "--port", "8123"]) == 0
    assert seen["port"] == 8123 and seen["host"] == "127.0.0.1" and seen["health"] == {"status": "ok"}
    assert (tmp_path / "serve.db").exists()


def test_robotcore_play_refuses_a_wrong_number_of_bots(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "robotrick", "--bots", "random,random"]) == 2
    err = capsys.readouterr().err
    assert "Robotrick is played by 3 seats, got 2" in err and "Traceback" not in err
    assert cli.main(["play", "robotrick", "--bots", "random,nobot,random"]) == 2
    assert "no bot named 'nobot'" in capsys.readouterr().err
    assert cli.main(["play", "nicodemus", "--bots", "random", "--quiet"]) == 0      # one bot for every seat
    # players given: the bots must match them
    assert cli.main(["play", "sparks", "--bots", "random,random", "--params", '{"players": 3}']) == 2
    assert "Sparks has 3 seats: give one bot (for every seat) or 3 bots, got 2" in capsys.readouterr().err


def _seats_played(command: str, argv: list[str], capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The bots of each seat, as ``robotcore play --quiet`` or ``robotcore simulate`` report them."""
    extra = ["--games", "2"] if command == "simulate" else ["--quiet"]
    assert cli.main([command, *argv, *extra]) == 0
    out = capsys.readouterr().out
    if command == "simulate":
        return list(json.loads(out)["bots"])
    seats = re.search(r"seats: (.*)", out)
    assert seats is not None and re.search(r"final scores \[", out), out
    return [b.split("=", 1)[1] for b in seats.group(1).split(", ")]


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_the_bots_set_the_number_of_players_as_the_services_seats_do(
        command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Several bots, one per argument or comma-separated (README), make a game of that many players where the
    number is a parameter; one bot plays every seat of the default number; a count the game is not played by
    is an error that says what it is."""
    assert _seats_played(command, ["sparks", "--bots", "random", "greedy"], capsys) == ["random", "greedy"]
    assert _seats_played(command, ["sparks", "--bots", "random,greedy,random"], capsys) == ["random", "greedy",
                                                                                           "random"]
    assert _seats_played(command, ["sparks", "--bots", "greedy"], capsys) == ["greedy"] * 4    # the default
    assert _seats_played(command, ["robotrick", "--bots", "random"], capsys) == ["random"] * 3
    extra = ["--games", "2"] if command == "simulate" else []
    assert cli.main([command, "scrapyard", "--bots", "random", "random", "random", "random", "random", *extra]) == 2
    assert f"robotcore {command}: error: Scrapyard is played by 2 to 4 seats, got 5" in capsys.readouterr().err


def test_a_solo_game_ends_won_or_lost(capsys: pytest.CaptureFixture[str]) -> None:
    for seed in range(1, 6):
        assert cli.main(["play", "sparks", "--seed", str(seed), "--quiet", "--bots", "greedy",
                         "--params", '{"players": 1, "goals": 6}']) == 0
        last = capsys.readouterr().out.splitlines()[-1]
        assert re.fullmatch(r"final score -?\d+; (won|lost)", last), last
    assert cli.main(["play", "sparks", "--quiet", "--bots", "greedy"]) == 0
    assert "winner(s): " in capsys.readouterr().out.splitlines()[-1]


def test_robotcore_play_help_lists_every_bot(capsys: pytest.CaptureFixture[str]) -> None:
    from robotcore.bots import BOTS

    with pytest.raises(SystemExit):
        cli.main(["play", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert BOTS and all(name in out for name in BOTS) and "ismcts" in out


@pytest.mark.parametrize("argv, message", [
    (["play", "smartphone", "--params", "{bad"], "argument --params: not valid JSON"),
    (["play", "smartphone", "--params", "[1]"], "argument --params: must be a JSON object"),
    (["tournament", "--game", "nicodemus", "--bots", "random", "greedy", "--params", "[1]"],
     "argument --params: must be a JSON object"),
    (["simulate", "nicodemus", "--bots", "random", "--params", "{bad"], "argument --params: not valid JSON"),
    (["simulate", "nicodemus", "--bots", "random", "--games", "0"], "argument --games: must be at least 1"),
    (["serve", "--port", "99999"], "argument --port: must be in [0, 65535]"),
    (["serve", "--port", "-1"], "argument --port: must be in [0, 65535]"),
])
def test_bad_options_are_usage_errors_not_tracebacks(argv: list[str], message: str,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(argv)
    assert exit_.value.code == 2 and message in capsys.readouterr().err


def test_params_given_as_a_json_object_reach_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "robotrick", "--quiet", "--params", '{"hangars": 4}']) == 0
    assert cli.main(["simulate", "nicodemus", "--bots", "random,random", "--games", "2", "--params", "{}"]) == 0


def test_bot_specs_with_options_in_one_argument(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "robotrick", "--quiet", "--bots", "random,mcts:iterations=10,threads=2,greedy"]) == 0
    assert "seats: 0=random, 1=mcts:iterations=10,threads=2, 2=greedy" in capsys.readouterr().out
    assert cli.main(["simulate", "robotrick", "--bots", "random,mcts:iterations=10,greedy", "--games", "1"]) == 0
    assert '"mcts:iterations=10"' in capsys.readouterr().out


def test_an_unknown_bot_lists_the_bots_once(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "robotrick", "--bots", "nobot"]) == 2
    assert capsys.readouterr().err.count("bots:") == 1


@pytest.mark.parametrize("out", ["/dev/null", "/proc/no/such/folder"])
def test_a_results_folder_that_cannot_be_made_is_an_error_not_a_traceback(
        out: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "--game", "nicodemus", "--bots", "random", "greedy", "--games", "2", "--out", out,
            "--quiet", "--workers", "1"]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and out.split("/")[1] in err and "Traceback" not in err


def test_robotcore_list_prints_the_readmes_table(capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    from robotcore.registry import ALL_GAMES, GAMES

    assert cli.main(["list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["name", "title", "seed", "players", "status", "rules"]
    rows = {line.split()[0]: line for line in lines[1:]}
    assert set(rows) == set(ALL_GAMES)
    for name, line in rows.items():
        assert GAMES[name].title in line and f" {GAMES[name].seed} " in line and ALL_GAMES[name] in line
        assert Path(line.split()[-1]).is_file()                   # the installed RULES.md
    assert "2-5 (default 4)" in rows["smartphone"] and " 2 " in rows["nicodemus"]
