"""The floor of ``bench/service_load.py``: a bare Flask hello-world endpoint, served by gunicorn with the
service's own configuration (``robotcore_api.gunicorn_conf``: the same worker class, workers, connections) in
the same run. Nothing of the service: no extension, no hook, no database."""

from __future__ import annotations

import json

from flask import Flask, Response, request

app = Flask(__name__)

#: ``POST /echo``'s answer: about as long as a Robotrick move's (2.5 KB of JSON), of the same kinds of values
_TRICK = {"leader": 2, "cards": [[seat, f"O{seat}"] for seat in range(4)], "winner": 1}
_MOVE_SIZED = {
    "accepted": {"version": 9, "seat": 0, "action": {"id": 27, "text": "play O2"}},
    "match": {"legal_actions": [{"id": i, "text": f"play R{i}", "json": {"type": "play", "card": f"R{i}"}}
                                for i in range(11)],
              "view": {"hand": [f"B{i}" for i in range(11)], "scores": [0, 2, 0], "tricks": [_TRICK] * 23}},
}
_MOVE_SIZED_BYTES = json.dumps(_MOVE_SIZED, separators=(",", ":")).encode()


@app.get("/")
def hello() -> dict[str, str]:
    return {"message": "Hello, World!"}


@app.post("/echo")
def echo() -> Response:
    """The floor of a move's shape (``service_load --floor-shapes``): its JSON body read, its token looked at,
    an answer of a move's length, encoded once (encoding is the app's work, not the shape's); nothing of the
    service."""
    body = request.get_json()
    assert request.headers.get("Authorization", "").startswith("Bearer ") and "action" in body
    return Response(_MOVE_SIZED_BYTES, mimetype="application/json")
