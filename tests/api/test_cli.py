"""``robotcore serve`` starts the service (Flask's development server) on the database it is given."""

from __future__ import annotations

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
    assert "Robotrick has 3 seats" in err and "got 2" in err and "Traceback" not in err
    assert cli.main(["play", "robotrick", "--bots", "random,nobot,random"]) == 2
    assert "no bot named 'nobot'" in capsys.readouterr().err
    assert cli.main(["play", "nicodemus", "--bots", "random", "--quiet"]) == 0      # one bot for every seat


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
