"""The one choke point: every body the service sends is built here, for one seat (None: a spectator).

Nothing else in the service turns a match into JSON. What a seat receives about a match is made only of:

- ``state.view(seat)``: the game's own per-seat view (computed in the game package, checked for leaks by the
  conformance suite);
- ``state.actors`` (public: who must still decide) and ``state.legal_actions(seat)`` for that seat alone;
- the match's public facts: id, game, parameters, version, seat kinds;
- log entries, where another seat's private action (``Game.is_public_action`` is False) is redacted until the
  game is over;
- after the end only: the outcome, the seed and ``Game.omniscient_view`` of the final state (the reveal).

Never the state bytes, the seed or another seat's legal actions while the match is on.
``tests/api/test_secrets.py`` plays full matches of every game and checks that every payload a seat receives
is the same when everything it cannot see is re-dealt.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from flask import Response
from werkzeug.datastructures import Headers
from werkzeug.http import HTTP_STATUS_CODES

from robotcore import Game, State

from .store import ActionRow, MatchRecord

JSON = "application/json"


def encode(payload: Any) -> bytes:
    """The JSON text of a body: compact UTF-8, by orjson (an order of magnitude faster than the standard
    library on the views). A body whose keys are all strings (every answer the service words, as far as the
    games' views go) is encoded by orjson's default path; one with another key (an int, as the standard library
    would write it: ``"1"``) is encoded again with ``OPT_NON_STR_KEYS``, which writes the same bytes for string
    keys but takes 2-6 times as long on a view, because it looks at every key's type. What orjson refuses (an
    integer beyond 64 bits, a lone surrogate) falls back to the standard library's encoder, so nothing that
    encoded before fails now."""
    try:
        return orjson.dumps(payload)
    except TypeError:                  # orjson.JSONEncodeError is a TypeError: a key that is no string, or worse
        pass
    try:
        return orjson.dumps(payload, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:
        return json.dumps(payload, separators=(",", ":"), default=_unfragment).encode()


def _unfragment(value: Any) -> Any:
    """The standard library's encoder meets a pre-encoded action (``action_json``): its value, decoded."""
    for known in (_FRAGMENTS, _OLD_FRAGMENTS):
        entry = known.get(id(value))
        if entry is not None and entry[0] is value:
            return json.loads(entry[1])
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


class BodyResponse(Response):
    """Flask's response, handed to the server as it is when it is one encoded body (every answer of ``send``):
    werkzeug would copy its headers to look for a location to fix and a length to set (none here: its length
    is set with its body) and wrap the body in an iterator that closes it (a list has nothing to close)."""

    def get_wsgi_response(self, environ: Any) -> tuple[Any, str, list[tuple[str, str]]]:
        body = self.response
        status = self.status_code
        if (type(body) is list and len(body) == 1 and type(body[0]) is bytes and not self._on_close
                and 200 <= status and status not in (204, 304) and environ["REQUEST_METHOD"] != "HEAD"):
            headers = self.headers.to_wsgi_list()
            sized = False
            for name, _ in headers:
                lower = name.lower()
                if lower == "content-length":
                    sized = True
                elif lower == "location" or lower == "content-location":
                    sized = False
                    break
            if sized:
                return body, self.status, headers
        return super().get_wsgi_response(environ)

    @classmethod
    def of(cls, body: bytes, status: int, content_type: str) -> BodyResponse:
        """``BodyResponse(body, status=status, content_type=content_type)``, the same object (its attributes and
        headers as werkzeug's constructor sets them: Content-Type, then Content-Length), made without that
        constructor's general case (a headers argument of any kind, a mimetype to complete, the body's type to
        tell apart, each header set by a search of the ones before it): a third of its time, on every answer.
        ``content_type`` is the service's own (never a client's: no line break to refuse)."""
        resp = cls.__new__(cls)
        headers = Headers()
        headers._list = [("Content-Type", content_type), ("Content-Length", str(len(body)))]
        resp.headers = headers
        line = _STATUS_LINES.get(status)
        if line is None:
            resp.status = status             # (werkzeug's setter: the status line and code)
        else:
            resp._status, resp._status_code = line, status
        resp.direct_passthrough = False
        resp._on_close = []
        resp.response = [body]
        return resp


#: The status line of each status code werkzeug knows (what its ``status`` setter works out on every answer)
_STATUS_LINES = {code: f"{code} {name.upper()}" for code, name in HTTP_STATUS_CODES.items()}


def send(payload: Any, status: int = 200, headers: dict[str, str] | None = None,
         mimetype: str = JSON) -> Response:
    """Serialise an outbound body (built by the functions of this module, or a Problem)."""
    resp = BodyResponse.of(encode(payload), status, mimetype)
    if headers:
        resp.headers.update(headers)
    return resp


#: The text and JSON forms of each action, per game object (by identity, the object held so that its id is
#: never reused while cached), with the action's whole JSON text (``{"id":..,"text":..,"json":..}``, as
#: ``encode`` writes it) as an ``orjson.Fragment`` that answers carry. A ``Game`` is immutable, so its notation
#: of an action never changes: this cache can only answer what the game would answer. The JSON forms are shared
#: by the payloads that carry them: payloads are read-only (encoded, then dropped).
_FORMS: dict[int, tuple[Game, dict[int, tuple[str, Any, orjson.Fragment]]]] = {}
_MAX_GAMES = 64
#: The text of each fragment of ``_FORMS`` (by identity), for the standard library's encoder, which cannot read
#: a fragment; the previous generation is kept when the cache is cleared (a payload built just before
#: may still hold its fragments).
_FRAGMENTS: dict[int, tuple[orjson.Fragment, bytes]] = {}
_OLD_FRAGMENTS: dict[int, tuple[orjson.Fragment, bytes]] = {}


def _forms(game: Game) -> dict[int, tuple[str, Any, orjson.Fragment]]:
    global _FRAGMENTS, _OLD_FRAGMENTS
    entry = _FORMS.get(id(game))
    if entry is None or entry[0] is not game:
        if len(_FORMS) >= _MAX_GAMES:
            _FORMS.clear()
            _OLD_FRAGMENTS, _FRAGMENTS = _FRAGMENTS, {}
        entry = _FORMS[id(game)] = (game, {})
    return entry[1]


def _form(game: Game, action_id: int) -> tuple[str, Any, orjson.Fragment]:
    forms = _forms(game)
    key = int(action_id)
    known = forms.get(key)
    if known is None:
        text, doc = game.action_to_str(action_id), game.action_to_dict(action_id)
        encoded = encode({"id": key, "text": text, "json": doc})
        fragment = orjson.Fragment(encoded)
        _FRAGMENTS[id(fragment)] = (fragment, encoded)
        known = forms[key] = (text, doc, fragment)
    return known


def action(game: Game, action_id: int) -> dict[str, Any]:
    """An action in its three forms: the dense id, the readable text and the JSON form."""
    text, doc, _ = _form(game, action_id)
    return {"id": int(action_id), "text": text, "json": doc}


def action_json(game: Game, action_id: int) -> orjson.Fragment:
    """``action(game, action_id)`` already encoded, for an answer: the same bytes, written once per game and
    action instead of once per answer."""
    return _form(game, action_id)[2]


def actions_json(game: Game, action_ids: list[int]) -> list[orjson.Fragment]:
    """``[action(game, a) for a in action_ids]``, each already encoded."""
    forms = _forms(game)
    out = []
    for a in action_ids:
        known = forms.get(a)
        out.append((known if known is not None else _form(game, a))[2])
    return out


def seats(rec: MatchRecord) -> list[dict[str, Any]]:
    """Who plays each seat (never a token or its digest)."""
    return [
        {"seat": i, "type": s.type, "bot": s.bot, "budget_ms": s.budget_ms}
        for i, s in enumerate(rec.seats)
    ]


def outcome(state: State) -> dict[str, Any] | None:
    """The final outcome, once the game is over (None before)."""
    if not state.is_terminal:
        return None
    out = state.outcome()
    return None if out is None else out.to_json()


def _match_header(rec: MatchRecord, state: State) -> dict[str, Any]:
    """What every answer about a match starts with: which match, of what game, at which version, in which state."""
    return {
        "match_id": rec.id,
        "game": rec.game,
        "params": rec.params,
        "version": rec.version,
        "status": "finished" if state.is_terminal else "active",
    }


def match_view(rec: MatchRecord, state: State, seat: int | None) -> dict[str, Any]:
    """The match as ``seat`` sees it: version, whose turn, its legal actions (when it must act), its view."""
    game = state.game
    actors = [int(s) for s in state.actors]
    to_act = seat is not None and seat in actors
    return {
        **_match_header(rec, state),
        "seat": seat,
        "seats": seats(rec),
        "actors": actors,
        "to_act": to_act,
        "legal_actions": actions_json(game, state.legal_actions(seat)) if to_act else [],
        "view": state.view(seat),
        "outcome": outcome(state),
    }


def log_entries(game: Game, rows: list[ActionRow], seat: int | None, finished: bool) -> list[dict[str, Any]]:
    """Actions of the log, as ``seat`` may see them: another seat's private action is redacted until the end."""
    forms = _forms(game)
    public = game.is_public_action
    out = []
    for row in rows:
        action = row.action
        visible = finished or row.seat == seat or public(action)
        shown = None
        if visible:
            known = forms.get(action)
            shown = (known if known is not None else _form(game, action))[2]
        out.append({
            "version": row.version,
            "seat": row.seat,
            "by": "bot" if row.by_bot else "human",
            "hidden": not visible,
            "action": shown,
        })
    return out


def log_entry(game: Game, row: ActionRow, seat: int | None, finished: bool) -> dict[str, Any]:
    """One action of the log (``log_entries``)."""
    return log_entries(game, [row], seat, finished)[0]


def events(rec: MatchRecord, state: State, rows: list[ActionRow], seat: int | None) -> dict[str, Any]:
    """What changed after a version, with the full current view (a missed event costs nothing)."""
    finished = state.is_terminal
    return {
        "match_id": rec.id,
        "version": rec.version,
        "events": log_entries(state.game, rows, seat, finished),
        "match": match_view(rec, state, seat),
    }


def log(rec: MatchRecord, state: State, rows: list[ActionRow], seat: int | None) -> dict[str, Any]:
    """The whole log; after the end also the outcome, the seed and the final state with nothing hidden."""
    finished = state.is_terminal
    reveal = None
    if finished:
        reveal = {"seed": rec.seed, "final_state": state.game.omniscient_view(state)}
    return {
        **_match_header(rec, state),
        "seats": seats(rec),
        "entries": log_entries(state.game, rows, seat, finished),
        "outcome": outcome(state),
        "reveal": reveal,
    }


def summary(rec: MatchRecord, state: State) -> dict[str, Any]:
    """A match in the lobby's list: its public header, who plays each seat, whose turn."""
    return {
        **_match_header(rec, state),
        "seats": seats(rec),
        "actors": [int(s) for s in state.actors],
        "created_at": rec.created_at,
        "updated_at": rec.updated_at,
    }


def replay_step(rec: MatchRecord, past: State, row: ActionRow | None, at: int, seat: int | None) -> dict[str, Any]:
    """A finished match after its first ``at`` actions (``past``), as ``seat`` saw it then (None: spectator).
    Served only once the match is over, when the log shows every action and the reveal names the seed."""
    return {
        **_match_header(rec, past),
        "version": rec.version,
        "at": at,
        "seat": seat,
        "seats": seats(rec),
        "actors": [int(s) for s in past.actors],
        "entry": None if row is None else log_entry(past.game, row, seat, True),
        "view": past.view(seat),
        "outcome": outcome(past),
    }


def move_result(rec: MatchRecord, state: State, seat: int, version: int, action_id: int) -> dict[str, Any]:
    """The answer to an accepted move: what was applied, then the match as the mover sees it now."""
    return {
        "accepted": {"version": version, "seat": seat, "action": action_json(state.game, action_id)},
        "match": match_view(rec, state, seat),
    }


def created(rec: MatchRecord, state: State, tokens: dict[int, str]) -> dict[str, Any]:
    """The answer to a match creation: the only time the seat tokens are ever sent."""
    return {
        **_match_header(rec, state),
        "seats": [dict(s, token=tokens.get(s["seat"])) for s in seats(rec)],
        "match": match_view(rec, state, None),
    }


def proposal(rec: MatchRecord, state: State, seat: int, action_id: int, bot: str,
             budget_ms: int | None) -> dict[str, Any]:
    """A bot's proposed action for the seat (not played)."""
    return {
        "version": rec.version,
        "seat": seat,
        "bot": bot,
        "budget_ms": budget_ms,
        "played": False,
        "action": action(state.game, action_id),
        "match": None,
    }


def played(result: dict[str, Any], bot: str, budget_ms: int | None) -> dict[str, Any]:
    """A bot's action played for the seat (``result`` is a ``move_result``)."""
    accepted = result["accepted"]
    return {
        "version": accepted["version"],
        "seat": accepted["seat"],
        "bot": bot,
        "budget_ms": budget_ms,
        "played": True,
        "action": accepted["action"],
        "match": result["match"],
    }


# -- games and the stateless engine (the client owns those states: nothing of ours is hidden in them) ------------


def game_entry(game: Game) -> dict[str, Any]:
    """A catalogue entry (parameters a client can set over HTTP: JSON scalars; content is not replaceable)."""
    doc = game.to_json()
    doc["parameters"] = [p for p in doc["parameters"] if p["type"] in ("int", "bool", "str", "float")]
    return doc


def game_detail(game: Game) -> dict[str, Any]:
    """One game's catalogue entry with what reading its views takes: its content document (the ids a view shows
    refer to it; over HTTP every match plays the default content) and its glossary (``Game.glossary``)."""
    doc = game_entry(game)
    doc["content"] = game.content.to_json() if game.content is not None else None
    doc["glossary"] = game.glossary()
    return doc


def state_info(state: State, seat: int | None, encoded: str | None) -> dict[str, Any]:
    """A client's own state: who acts, the legal actions of ``seat`` (or of every actor), scores, outcome."""
    game = state.game
    actors = [int(s) for s in state.actors]
    asked = actors if seat is None else [seat]
    return {
        "game": game.name,
        "state": encoded,
        "version": len(state.history),
        "actors": actors,
        "current_player": int(state.current_player),
        "is_terminal": bool(state.is_terminal),
        "legal_actions": [
            {"seat": s, "actions": [action(game, a) for a in state.legal_actions(s)]} for s in asked
        ],
        "scores": [int(x) for x in state.scores()],
        "returns": [float(x) for x in state.returns()] if state.is_terminal else None,
        "outcome": outcome(state),
        "view": state.view(seat),
    }
