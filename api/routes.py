"""The HTTP surface: flask-smorest blueprints. Each route parses its input with a schema, asks the service or a
game, and answers with a body built by ``payloads`` (the choke point). Docstrings become the OpenAPI summaries.
"""

from __future__ import annotations

import io
import json
import math
import re
import socket
import ssl
from collections.abc import Callable
from typing import Any

import orjson
from flask import Response, request, url_for
from flask.globals import _cv_app, _cv_request
from flask_smorest import Blueprint as SmorestBlueprint
from marshmallow import INCLUDE
from webargs.flaskparser import FlaskParser

import robotcore
from robotcore.bots import BOTS, bot_options
from robotcore.core.game import is_decimal

from . import payloads
from . import schemas as s
from .auth import bearer_token, parse_bearer
from .problems import CODES, PROBLEM_MEDIA_TYPE, Problem, field_errors
from .service import (
    MatchService,
    check_seat,
    decode_state,
    encode_state,
    load_game,
    params_from_query,
    playable_action,
)

TOKEN_REQUIRED: list[dict[str, list[str]]] = [{"seatToken": []}]
TOKEN_OPTIONAL: list[dict[str, list[str]]] = [{}, {"seatToken": []}]

IF_MATCH = {
    "in": "header", "name": "If-Match", "required": False,
    "schema": {"type": "string", "maxLength": 16, "pattern": '^(W/)?"?[0-9]{1,10}"?$'},
    "description": "the match version (the ETag of GET /v1/matches/{match_id}), instead of expected_version",
}
IDEMPOTENCY_KEY = {
    "in": "header", "name": "Idempotency-Key", "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[\\x21-\\x7e]+$"},
    "description": "a retry with the same key returns the original answer instead of playing twice",
}
ETAG_HEADER = {"ETag": {"description": "the match version, quoted", "schema": {"type": "string"}}}
#: on a move's answer: "true" when it is the original answer to an earlier request with this Idempotency-Key
REPLAYED_HEADER = {"Idempotent-Replayed": {
    "description": "`true` when this is the original answer to an earlier request with the same Idempotency-Key "
                   "(nothing played again); absent otherwise", "schema": {"type": "string", "enum": ["true"]}}}
#: the headers that come with a problem of that status (every 429 and 503 says when to retry; a 401, the scheme)
PROBLEM_HEADERS: dict[int, dict[str, Any]] = {
    401: {"WWW-Authenticate": {"description": "`Bearer`, with the error (RFC 6750)", "schema": {"type": "string"}}},
    429: {"Retry-After": {"description": "seconds to wait before trying again", "schema": {"type": "integer"}}},
    503: {"Retry-After": {"description": "seconds to wait before trying again", "schema": {"type": "integer"}}},
}


def problems(blp: Blueprint, *codes: str, if_match: bool = False) -> Any:
    """Document the problem answers an operation may give, grouped by status, with their codes (and
    ``rate-limited``: with limits set, every path counts against them, ``ratelimit.RateLimits``)."""
    by_status: dict[int, list[str]] = {}
    for code in (*codes, "rate-limited"):
        by_status.setdefault(CODES[code][0], []).append(code)
    if if_match:
        by_status[412] = ["stale-version"]          # the version came in If-Match

    def decorator(func: Any) -> Any:
        documented = func
        for status, group in sorted(by_status.items()):
            documented = blp.alt_response(status, schema=s.ProblemSchema, content_type=PROBLEM_MEDIA_TYPE,
                                          description="problem `code`: " + ", ".join(f"`{c}`" for c in group),
                                          headers=PROBLEM_HEADERS.get(status))(documented)
        # keep the documentation, drop alt_response's pass-through wrappers (each costs a call per request)
        func._apidoc = documented._apidoc
        return func

    return decorator


def document_only(*decorators: Any) -> Any:
    """flask-smorest decorators applied for the document alone: the view keeps what they document and none of
    their wrappers, for a hot route that parses its input and answers by itself."""

    def decorator(func: Any) -> Any:
        documented = func
        for deco in reversed(decorators):
            documented = deco(documented)
        func._apidoc = documented._apidoc
        return func

    return decorator


BODY = ("malformed-json", "payload-too-large", "unsupported-media-type", "validation")
#: what every operation that reads or writes the store may answer besides its own (the store busy or unreachable)
STORE = ("unavailable",)
MOVE = (*BODY, "invalid-token", "forbidden-seat", "not-found", "not-your-turn", "game-over", "stale-version",
        "idempotency-key-reuse", "invalid-action", "illegal-action", "version-required")


def service() -> MatchService:
    """The app's service (read from the app context itself: ``current_app``'s proxy costs a lookup per use)."""
    svc: MatchService = _cv_app.get().app.extensions["robotcore"]
    return svc


def _environ() -> dict[str, Any]:
    """This request's WSGI environ (``request.environ``, without the proxy's lookup)."""
    environ: dict[str, Any] = _cv_request.get().request.environ
    return environ


def _idempotency_key() -> str | None:
    return parse_idempotency_key(request.environ.get("HTTP_IDEMPOTENCY_KEY"))


def _if_match() -> int | None:
    return parse_if_match(request.environ.get("HTTP_IF_MATCH"))


def parse_idempotency_key(key: str | None) -> str | None:
    """An Idempotency-Key header's value (None: no header), validated."""
    if key is None:
        return None
    if _KEY.fullmatch(key) is None:
        raise Problem("validation", "Idempotency-Key must be 1-255 printable ASCII characters",
                      errors=field_errors("headers", "Idempotency-Key", "invalid"))
    return key


def parse_if_match(value: str | None) -> int | None:
    """The version in an If-Match header's value (an ETag of GET /v1/matches/{id}: "12", W/"12" or 12; None: no
    header), validated."""
    if value is None:
        return None
    match = _ETAG.fullmatch(value)
    version = None if match is None else int(match.group(1) or match.group(2))
    # (one version, quoted or not, of expected_version's range: an unbalanced quote was taken, a list or "*"
    # is no version to check a move against, and past 2**31 - 1 the header got 412 where the body got 422)
    if version is None or version > s.MAX_VERSION:
        raise Problem("validation", "If-Match must be one match version (its ETag), e.g. \"12\"",
                      errors=field_errors("headers", "If-Match", "not a version"))
    return version


_KEY = re.compile(r"[\x21-\x7e]{1,255}")
_ETAG = re.compile(r'(?:W/)?(?:"([0-9]{1,10})"|([0-9]{1,10}))')


def _replayed(answer: dict[str, Any], replayed: bool) -> Response:
    return payloads.send(answer, 200, {"Idempotent-Replayed": "true"} if replayed else None)


class ClientGone:
    """A check that the client of this request has closed its connection: readable with nothing to read
    means closed; a pipelined next request (data waiting) is not a disconnection. One non-blocking peek,
    under gevent too (on the native socket beneath gevent's, which would otherwise wait for data).
    ``fileno``: the socket, for a watcher to be woken when it turns readable (``live.park``). ``direct``:
    "chunked" when the app may write whole HTTP/1.1 chunks to the socket (``native``, ``sendall``) between the
    server's own writes of the response (gunicorn, plain HTTP/1.1 GET: a stream's events written by the change
    feed, ``live.Direct``), else None."""

    __slots__ = ("_native", "fileno", "direct", "_server_socket")

    def __init__(self, native: Any, server_socket: Any = None, direct: str | None = None) -> None:
        self._native = native
        self._server_socket = server_socket
        self.direct = direct if server_socket is not None else None
        try:
            self.fileno: int | None = int(native.fileno())
        except (OSError, ValueError, AttributeError):
            self.fileno = None

    @property
    def native(self) -> Any:
        return self._native

    def sendall(self, data: bytes) -> None:
        """Write ``data`` on the server's socket (under gevent, waiting cooperatively while it is full)."""
        self._server_socket.sendall(data)

    def __call__(self) -> bool:
        try:
            return bool(self._native.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b"")
        except (BlockingIOError, InterruptedError):
            return False
        except (OSError, ValueError):           # closed or reset
            return True


def client_gone(environ: dict[str, Any]) -> ClientGone | None:
    """The check that this request's client has gone (None when the server does not give the socket:
    gunicorn and Werkzeug's server do)."""
    sock = environ.get("gunicorn.socket")
    if sock is not None:
        # a plain (not TLS) HTTP/1.1 GET served by gunicorn: its response is framed as chunks, which the app
        # may write itself beside gunicorn's writes
        plain = not isinstance(sock, ssl.SSLSocket) and environ.get("wsgi.url_scheme") == "http"
        direct = "chunked" if plain and environ.get("SERVER_PROTOCOL") == "HTTP/1.1" and \
            environ.get("REQUEST_METHOD") == "GET" else None
        return ClientGone(getattr(sock, "_sock", sock), sock, direct)
    sock = environ.get("werkzeug.socket")
    if sock is None:
        return None
    return ClientGone(getattr(sock, "_sock", sock))


class _BodyParser(FlaskParser):
    """webargs' parser of the bodies, where a body that the standard library's ``json`` refuses with a plain
    ``ValueError`` rather than a ``JSONDecodeError`` (an integer of more digits than the interpreter converts:
    ``sys.get_int_max_str_digits``, 4,300) is malformed JSON too, as webargs answers any other: it escaped as a
    500 before."""

    def _raw_load_json(self, req: Any) -> Any:
        try:
            doc = super()._raw_load_json(req)
        except json.JSONDecodeError:
            raise
        except ValueError as exc:
            raise json.JSONDecodeError(str(exc), "(the request body)", 0) from None
        if _has_non_finite(doc):
            # NaN and Infinity are no JSON (RFC 8259), which the standard library reads all the same: they were
            # answered as a bad value of their field rather than as the malformed body they are
            raise json.JSONDecodeError("NaN and Infinity are not JSON", "(the request body)", 0)
        return doc


def _has_non_finite(doc: Any) -> bool:
    """Whether a parsed JSON document holds a NaN or an infinity (walked without recursion: it may be deep)."""
    stack = [doc]
    while stack:
        x = stack.pop()
        if type(x) is float and not math.isfinite(x):
            return True
        if type(x) is dict:
            stack.extend(x.values())
        elif type(x) is list:
            stack.extend(x)
    return False


class Blueprint(SmorestBlueprint):
    """flask-smorest's blueprint, with ``_BodyParser`` for the bodies."""

    ARGUMENTS_PARSER = _BodyParser()


# -- meta -------------------------------------------------------------------------------------------------------

meta = Blueprint("meta", __name__, url_prefix="/v1", description="Service health and the bots on offer")


@meta.route("/health")
@meta.response(200, s.HealthSchema)
@problems(meta)
def health() -> Response:
    """Liveness: answers without touching the database (the bench's hello-world floor)"""
    return payloads.send({"status": "ok"})


@meta.route("/bots")
@meta.response(200, s.BotListSchema)
@problems(meta)
def bots() -> Response:
    """The built-in bots and their options: a seat can be given to one, and any seat can ask one for a move"""
    limits = service().settings.bot_limits()
    out = []
    for name in sorted(BOTS):
        doc = (BOTS[name].__doc__ or name).strip().split("\n\n")[0]
        options = [{"name": k, "default": v, "max": limits.get(k)} for k, v in bot_options(BOTS[name]).items()]
        out.append({"name": name, "doc": " ".join(doc.split()), "options": options})
    return payloads.send({"bots": out})


# -- games ------------------------------------------------------------------------------------------------------

games = Blueprint("games", __name__, url_prefix="/v1/games",
                  description="The catalogue, and a stateless engine for clients that keep their own state")


@games.route("")
@games.response(200, s.GameListSchema)
@problems(games)
def list_games() -> Response:
    """Every registered game: players, parameters with defaults, action-space size"""
    return payloads.send({"games": [payloads.game_entry(robotcore.load_game(n)) for n in robotcore.list_games()]})


@games.route("/<string:game>")
@games.arguments(s.GameQuerySchema(), location="query", unknown=INCLUDE)
@games.response(200, s.GameDetailSchema)
@problems(games, "not-found", "invalid-parameter")
def get_game(query: dict[str, Any], game: str) -> Response:
    """One game of the catalogue, with its content and glossary, under the parameters given in the query

    Each parameter is a query argument of its own (`?players=3&harsh_malus=true`; the defaults for the rest), so a
    match's `params` give the facts of its game.
    """
    return payloads.send(payloads.game_detail(load_game(game, params_from_query(game, query))))


@games.route("/<string:game>/engine/new", methods=["POST"])
@games.arguments(s.NewStateSchema())
@games.response(200, s.StateInfoSchema)
@problems(games, *BODY, "not-found", "invalid-parameter")
def engine_new(body: dict[str, Any], game: str) -> Response:
    """A new state (serialized) for a client that keeps its own state"""
    g = load_game(game, body["params"])
    seed = body.get("seed")
    state = g.new_initial_state(seed)
    return payloads.send(payloads.state_info(state, None, encode_state(state)))


@games.route("/<string:game>/engine/inspect", methods=["POST"])
@games.arguments(s.StateRequestSchema())
@games.response(200, s.StateInfoSchema)
@problems(games, *BODY, "not-found", "invalid-state")
def engine_inspect(body: dict[str, Any], game: str) -> Response:
    """A serialized state: who acts and their legal actions (of `seat` only, if given), scores, outcome, view"""
    state = decode_state(game, body["state"])
    check_seat(state, body.get("seat"), "json")
    return payloads.send(payloads.state_info(state, body.get("seat"), body["state"]))


@games.route("/<string:game>/engine/apply", methods=["POST"])
@games.arguments(s.ApplySchema())
@games.response(200, s.StateInfoSchema)
@problems(games, *BODY, "not-found", "invalid-state", "game-over", "not-your-turn", "invalid-action",
          "illegal-action")
def engine_apply(body: dict[str, Any], game: str) -> Response:
    """Apply an action to a serialized state; answers the new state"""
    state = decode_state(game, body["state"])
    seat = body.get("seat")
    check_seat(state, seat, "json")
    if state.is_terminal:
        raise Problem("game-over", "this state is terminal")
    if seat is None:
        seat = int(state.current_player)
    action = playable_action(state, seat, body["action"])
    state.apply(action, seat)
    return payloads.send(payloads.state_info(state, seat, encode_state(state)))


# -- matches ----------------------------------------------------------------------------------------------------

matches = Blueprint("matches", __name__, url_prefix="/v1/matches",
                    description="Matches: seats with secret tokens, moves, events, bot moves, the log")


_CREATE_SCHEMA = s.CreateMatchSchema()


@matches.route("", methods=["POST"])
@document_only(matches.arguments(s.CreateMatchSchema()),
               matches.response(201, s.MatchCreatedSchema,
                                headers={"Location": {"description": "the match", "schema": {"type": "string"}}}))
@problems(matches, *BODY, "not-found", "invalid-parameter", "bots-busy", *STORE)
def create_match() -> Response:
    """Create a match: one secret token per human seat, shown once; bot seats play by themselves"""
    body = _json_body(_environ(), _CREATE_SCHEMA, s.plain_create)
    answer = service().create(body["game"], body["params"], body.get("seats"), body.get("seed"), body["listed"])
    return payloads.send(answer, 201, {"Location": url_for("matches.get_match", match_id=answer["match_id"])})


@matches.route("", methods=["GET"])
@matches.arguments(s.ListQuerySchema(), location="query")
@matches.response(200, s.MatchListSchema)
@problems(matches, "validation", *STORE)
def list_matches(query: dict[str, Any]) -> Response:
    """The most recent listed matches (created with `listed: true`), newest first: anyone may watch them"""
    return payloads.send(service().recent(query["limit"]))


@matches.route("/<string:match_id>")
@matches.response(200, s.MatchViewSchema, headers=ETAG_HEADER)
@problems(matches, "invalid-token", "not-found", *STORE)
@matches.doc(security=TOKEN_OPTIONAL)
def get_match(match_id: str) -> Response:
    """The match as the token's seat sees it, or as a spectator sees it without a token

    The view holds the version (also the ETag), whose turn it is and the seat's legal actions.
    """
    answer, version = service().view(match_id, bearer_token(request))
    return payloads.send(answer, 200, {"ETag": f'"{version}"'})


_MOVE_SCHEMA = s.MoveSchema()


def _json_body(environ: dict[str, Any], schema: Any, plain: Callable[[Any], dict[str, Any] | None]) -> dict[str, Any]:
    """A JSON body, parsed as ``@matches.arguments(schema)`` would: a plain body is checked directly by
    ``plain`` (``schemas.plain_move``, ``schemas.plain_create``: what the schema's load returns, or None), on
    orjson's parse; anything else goes through webargs and the schema, which word the errors. The body is read
    from the WSGI input once (its length was checked by the app's before-request hook; a chunked one was
    bounded and given a length by ``BoundedChunkedBody``) and put back for webargs."""
    length = environ.get("CONTENT_LENGTH") or ""
    body: dict[str, Any] | None = None
    if is_decimal(length):
        data = environ["wsgi.input"].read(int(length))
        environ["wsgi.input"] = io.BytesIO(data)
        try:
            body = plain(orjson.loads(data))
        except ValueError:                 # not JSON (or not UTF-8): webargs answers malformed-json
            body = None
    if body is None:
        parsed: dict[str, Any] = matches.ARGUMENTS_PARSER.parse(schema, request, location="json")
        return parsed
    return body


def _move_body(environ: dict[str, Any]) -> dict[str, Any]:
    """The move body (``_json_body`` with ``MoveSchema``)."""
    return _json_body(environ, _MOVE_SCHEMA, s.plain_move)


@matches.route("/<string:match_id>/moves", methods=["POST"])
@document_only(matches.arguments(s.MoveSchema()),
               matches.response(200, s.MoveResultSchema, headers=REPLAYED_HEADER),
               matches.doc(security=TOKEN_REQUIRED, parameters=[IF_MATCH, IDEMPOTENCY_KEY]))
@problems(matches, *MOVE, "bots-busy", *STORE, if_match=True)
def post_move(match_id: str) -> Response:
    """Play an action for the token's seat, chosen at `expected_version` (or If-Match)"""
    environ = _environ()                       # (read once: each look through Flask's request proxy costs)
    body = _move_body(environ)
    answer, replayed = service().move(match_id, parse_bearer(environ.get("HTTP_AUTHORIZATION")), body,
                                      parse_if_match(environ.get("HTTP_IF_MATCH")),
                                      parse_idempotency_key(environ.get("HTTP_IDEMPOTENCY_KEY")))
    return _replayed(answer, replayed)


@matches.route("/<string:match_id>/bot-move", methods=["POST"])
@matches.arguments(s.BotMoveSchema())
@matches.response(200, s.BotMoveResultSchema, headers=REPLAYED_HEADER)
@problems(matches, *(p for p in MOVE if p != "version-required"), "bots-busy", *STORE, if_match=True)
@matches.doc(security=TOKEN_REQUIRED, parameters=[IF_MATCH, IDEMPOTENCY_KEY])
def post_bot_move(body: dict[str, Any], match_id: str) -> Response:
    """Ask a built-in bot for the token's seat: propose an action, or play it (`play: true`)

    A version (`expected_version` or If-Match) is optional: the bot chooses on the state it plays on.
    """
    answer, replayed = service().bot_move(match_id, bearer_token(request), body,
                                          _if_match(), _idempotency_key())
    return _replayed(answer, replayed)


@matches.route("/<string:match_id>/events")
@matches.arguments(s.EventsQuerySchema(), location="query")
@matches.response(200, s.EventsSchema)
@problems(matches, "validation", "invalid-token", "not-found", *STORE)
@matches.doc(security=TOKEN_OPTIONAL)
def get_events(query: dict[str, Any], match_id: str) -> Response:
    """Long-poll: the actions after version `after` and the current view

    It waits up to `wait` seconds for an action. When the server already holds its most watchers, it answers
    at once: pause a second before the next poll.
    """
    return payloads.send(service().events(match_id, bearer_token(request), query["after"], query["wait"],
                                          client_gone(request.environ)))


LAST_EVENT_ID = {
    "in": "header", "name": "Last-Event-ID", "required": False,
    "schema": {"type": "string", "maxLength": 16, "pattern": "^[0-9]{1,10}$"},
    "description": "sent by a reconnecting EventSource: the version of the last event received (as `after`; "
                   "with `after` in the URL too, the later of the two)",
}
_EVENT_STREAM_DOC = """Server-sent events (`text/event-stream`): first the actions after `after` with the current view, then one
`match` event per change (`id:` the version; `data:` the body of `GET .../events`), `: keep-alive` comments
while idle, and an `end` event when the match is over. A stream lasts a few minutes at most; EventSource
reconnects with `Last-Event-ID`."""


# Last-Event-ID at the path's level: an operation's own doc(parameters=...) would replace its query parameters
@matches.route("/<string:match_id>/stream", parameters=[LAST_EVENT_ID])
@matches.arguments(s.StreamQuerySchema(), location="query")
@matches.response(200, content_type="text/event-stream", description=_EVENT_STREAM_DOC)
@problems(matches, "validation", "invalid-token", "not-found", "too-many-watchers", *STORE)
@matches.doc(security=TOKEN_OPTIONAL)
def get_stream(query: dict[str, Any], match_id: str) -> Response:
    """Live updates as server-sent events (EventSource), held without a server thread

    One event per change of the match, as the token's seat (or a spectator) sees it.
    """
    after = query.get("after")
    last = request.headers.get("Last-Event-ID")
    if last is not None:
        # checked even beside ``after`` (it was ignored, so any text passed), and the later of the two wins: an
        # EventSource reconnects to its URL, ``after`` included, with the last event it had as Last-Event-ID
        if not is_decimal(last) or len(last) > 10:
            raise Problem("validation", "Last-Event-ID must be a match version",
                          errors=field_errors("headers", "Last-Event-ID", "not a version"))
        after = int(last) if after is None else max(after, int(last))
    body = service().stream(match_id, bearer_token(request), after, client_gone(request.environ))
    return Response(body, 200, mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


@matches.route("/<string:match_id>/log")
@matches.response(200, s.LogSchema)
@problems(matches, "invalid-token", "not-found", *STORE)
@matches.doc(security=TOKEN_OPTIONAL)
def get_log(match_id: str) -> Response:
    """The move log (others' private actions redacted until the end); after the end, the outcome and the reveal"""
    return payloads.send(service().log(match_id, bearer_token(request)))


@matches.route("/<string:match_id>/replay")
@matches.arguments(s.ReplayQuerySchema(), location="query")
@matches.response(200, s.ReplayStepSchema)
@problems(matches, "validation", "invalid-token", "not-found", "not-finished", *STORE)
@matches.doc(security=TOKEN_OPTIONAL)
def get_replay(query: dict[str, Any], match_id: str) -> Response:
    """A finished match step by step: the view of `seat` (default: a spectator) after the first `at` actions"""
    return payloads.send(service().replay(match_id, bearer_token(request), query["at"], query.get("seat")))


BLUEPRINTS = [meta, games, matches]
