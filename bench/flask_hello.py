"""The floor of ``bench/service_load.py``: a bare Flask hello-world endpoint, served by gunicorn with the
service's own configuration (``robotcore_api.gunicorn_conf``: the same worker class, workers, connections) in
the same run. Nothing of the service: no extension, no hook, no database."""

from __future__ import annotations

from flask import Flask

app = Flask(__name__)


@app.get("/")
def hello() -> dict[str, str]:
    return {"message": "Hello, World!"}
