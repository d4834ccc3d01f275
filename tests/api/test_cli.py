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
