"""marshmallow schemas: request bodies and query strings are parsed with them, and the OpenAPI document is
generated from all of them (responses included). Response bodies are built by ``payloads`` and checked against
these schemas by the tests (schemathesis and every endpoint test validate responses against the document).

Every schema is named explicitly (apispec would otherwise invent ``Schema1`` names for variants).
"""

from __future__ import annotations

import re
from typing import Any

from marshmallow import INCLUDE, Schema, ValidationError, fields, validate, validates_schema

from robotcore.bots import BOTS, parse_bot_spec
from robotcore.errors import InvalidParameterError

from .problems import CODES

MAX_SEED = 2**63 - 1
MAX_VERSION = 2**31 - 1
MAX_ACTION_ID = 2**31 - 1
MAX_ACTION_TEXT = 200
MAX_SEAT = 7
#: Most game parameters in one request.
MAX_PARAMS = 32
#: Longest bot spec (a name and its options).
MAX_BOT_SPEC = 200
#: Upper bound on a bot's thinking time per move (stays well under gunicorn's worker timeout).
MAX_BUDGET_MS = 10_000
#: Longest wait of a long-poll, in seconds.
MAX_WAIT_S = 25.0
#: Longest base64 state accepted by the stateless engine endpoints.
MAX_STATE_CHARS = 32_768



def _known_bot(spec: str) -> None:
    """Bots are registered at run time (robotcore.bots.BOTS, listed by GET /v1/bots): the document says
    "a string" so that it does not change when a bot is added. A spec names a built-in bot, with options or not
    (``mcts:iterations=200,c=0.5``); ``module:Class`` is refused (nothing is imported for a client)."""
    try:
        parse_bot_spec(spec, builtin_only=True)
    except InvalidParameterError as exc:
        raise ValidationError(f"{exc} (GET /v1/bots)") from None


_BOT_DOC = {"description": "a bot of GET /v1/bots, with options or not: `greedy`, `mcts:iterations=200,c=0.5`",
            "example": "greedy"}


#: A number in a query argument: decimal ASCII digits and an optional minus sign (Python's int() and float(),
#: which marshmallow's fields call, would also read "5_0", " 5", "+5", "５", "٥" or "inf")
QUERY_INT = re.compile(r"-?[0-9]+", re.ASCII)
QUERY_FLOAT = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE]-?[0-9]+)?", re.ASCII)


class _DecimalQuery(fields.Field):  # type: ignore[type-arg]  # (generic in marshmallow 4 only)
    """A number query argument whose text must match ``pattern`` before the field reads it."""

    pattern: re.Pattern[str]

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, str) and not self.pattern.fullmatch(value):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class QueryInteger(_DecimalQuery, fields.Integer):
    """An integer query argument, in decimal digits only."""

    pattern = QUERY_INT


class QueryFloat(_DecimalQuery, fields.Float):
    """A number query argument, in decimal digits only (an optional fraction and exponent)."""

    pattern = QUERY_FLOAT


def _strict_int(**kw: Any) -> fields.Integer:
    return fields.Integer(strict=True, **kw)


def _bool(**kw: Any) -> fields.Boolean:
    return fields.Boolean(truthy={True}, falsy={False}, **kw)


def _few_params(value: dict[str, Any]) -> None:
    if len(value) > MAX_PARAMS:
        raise ValidationError(f"at most {MAX_PARAMS} parameters, got {len(value)}")


def _params_field(**metadata: Any) -> fields.Dict:
    """Game parameters: an object of at most ``MAX_PARAMS`` names (``validate.Length`` would be documented as
    a string's maxLength)."""
    return fields.Dict(keys=fields.String(validate=validate.Length(1, 64)), values=fields.Raw(allow_none=True),
                       load_default=dict, validate=_few_params, metadata={**metadata, "maxProperties": MAX_PARAMS})


class Strict(Schema):
    """Unknown fields are refused (marshmallow's default RAISE), the order of fields is kept in the document."""

    class Meta:
        ordered = True


# -- requests -------------------------------------------------------------------------------------------------


class SeatRequestSchema(Strict):
    type = fields.String(load_default="human", validate=validate.OneOf(["human", "bot"]),
                         metadata={"description": "`human`: a token is issued; `bot`: a built-in bot plays it"})
    bot = fields.String(validate=[validate.Length(1, MAX_BOT_SPEC), _known_bot], metadata=_BOT_DOC)
    budget_ms = _strict_int(validate=validate.Range(0, MAX_BUDGET_MS),
                            metadata={"description": "the bot's thinking time per move (search bots)"})

    @validates_schema
    def _bot_fields(self, data: dict[str, Any], **_: Any) -> None:
        if data.get("type", "human") == "bot" and "bot" not in data:
            raise ValidationError("a bot seat names its bot", "bot")
        if data.get("type", "human") == "human":
            for field in ("bot", "budget_ms"):
                if field in data:
                    raise ValidationError(f"a human seat has no {'bot' if field == 'bot' else 'bot budget'}", field)


class CreateMatchSchema(Strict):
    game = fields.String(required=True, validate=validate.Length(1, 64), metadata={"example": "robotrick"})
    params = _params_field(description="game parameters (see the catalogue); missing ones default")
    seats = fields.List(fields.Nested(SeatRequestSchema), validate=validate.Length(1, MAX_SEAT + 1),
                        metadata={"description": "one entry per seat; default: every seat human"})
    seed = _strict_int(allow_none=True, validate=validate.Range(0, MAX_SEED),
                       metadata={"description": "chance seed (default: random). Whoever knows it can compute "
                                                "every hidden card: it is revealed only after the end"})
    listed = _bool(load_default=False,
                   metadata={"description": "show the match in the public list (GET /v1/matches), where anyone "
                                            "can watch it as a spectator"})


class ListQuerySchema(Schema):
    limit = QueryInteger(load_default=20, validate=validate.Range(1, 100),
                           metadata={"description": "how many matches, newest first"})


class GameQuerySchema(Schema):
    """The game's parameters, each as a query argument of its own (``?players=3&harsh_malus=true``): their
    names and types are the game's (``parameters`` in its catalogue entry), so they are read against those."""

    class Meta:
        unknown = INCLUDE


class ReplayQuerySchema(Schema):
    at = QueryInteger(load_default=0, validate=validate.Range(0, MAX_VERSION),
                        metadata={"description": "the number of actions played (0: the start)"})
    seat = QueryInteger(validate=validate.Range(0, MAX_SEAT),
                        metadata={"description": "whose view (absent: a spectator's)"})


class ActionInputSchema(Strict):
    """An action in any of its forms; send back one of the `legal_actions` entries, or just one field."""

    id = _strict_int(validate=validate.Range(0, MAX_ACTION_ID), metadata={"description": "the dense action id"})
    text = fields.String(validate=validate.Length(1, MAX_ACTION_TEXT), metadata={"description": "readable form"})
    json = fields.Dict(metadata={"description": "JSON form (Game.action_to_dict)"})

    @validates_schema
    def _one_form(self, data: dict[str, Any], **_: Any) -> None:
        if not data:
            raise ValidationError("give the action as id, text or json")


class MoveSchema(Strict):
    action = fields.Nested(ActionInputSchema, required=True)
    expected_version = _strict_int(validate=validate.Range(0, MAX_VERSION),
                                   metadata={"description": "the match version the move was chosen at "
                                                            "(or send If-Match)"})
    seat = _strict_int(validate=validate.Range(0, MAX_SEAT),
                       metadata={"description": "optional check: the seat the token must belong to"})


_MOVE_KEYS = frozenset(MoveSchema._declared_fields)
_ACTION_KEYS = frozenset(ActionInputSchema._declared_fields)


def _plain_int(value: Any, top: int) -> bool:
    return type(value) is int and 0 <= value <= top


def _has_float(value: Any) -> bool:
    """Whether a float is anywhere in ``value``: orjson reads an int past 64 bits as a float, so a plain body
    holding one goes to the schema's parse (the standard library's, whose ints are exact) and its messages."""
    if type(value) is float:
        return True
    if type(value) is dict:
        return any(_has_float(v) for v in value.values())
    if type(value) is list:
        return any(_has_float(v) for v in value)
    return False


def plain_move(data: Any) -> dict[str, Any] | None:
    """A move body in its plain form, checked in a few comparisons instead of marshmallow's machinery (the move
    endpoint is the service's hot path): what ``MoveSchema().load(data)`` returns, or None for anything else
    (unusual or invalid), which ``MoveSchema`` then parses itself, with its own error messages.
    ``tests/api/test_endpoints.py`` checks that the two agree."""
    if type(data) is not dict or "action" not in data or not data.keys() <= _MOVE_KEYS:
        return None
    given = data["action"]
    if type(given) is not dict or not given or not given.keys() <= _ACTION_KEYS:
        return None
    action: dict[str, Any] = {}
    if "id" in given:
        if not _plain_int(given["id"], MAX_ACTION_ID):
            return None
        action["id"] = given["id"]
    if "text" in given:
        text = given["text"]
        if type(text) is not str or not 1 <= len(text) <= MAX_ACTION_TEXT:
            return None
        action["text"] = text
    if "json" in given:
        if type(given["json"]) is not dict or _has_float(given["json"]):
            return None
        action["json"] = dict(given["json"])
    out: dict[str, Any] = {"action": action}
    if "expected_version" in data:
        if not _plain_int(data["expected_version"], MAX_VERSION):
            return None
        out["expected_version"] = data["expected_version"]
    if "seat" in data:
        if not _plain_int(data["seat"], MAX_SEAT):
            return None
        out["seat"] = data["seat"]
    return out


_CREATE_KEYS = frozenset(CreateMatchSchema._declared_fields)
_SEAT_KEYS = frozenset(SeatRequestSchema._declared_fields)


def _plain_seat(seat: Any) -> dict[str, Any] | None:
    """One seat of a plain creation body, as ``SeatRequestSchema().load(seat)`` gives it, or None."""
    if type(seat) is not dict or not seat.keys() <= _SEAT_KEYS:
        return None
    kind = seat.get("type", "human")
    if kind == "human" and type(kind) is str:
        return {"type": "human"} if len(seat) == ("type" in seat) else None
    if kind != "bot" or type(kind) is not str:
        return None
    bot = seat.get("bot")
    if type(bot) is not str or bot not in BOTS:          # a plain name (options: the schema's own parse)
        return None
    out: dict[str, Any] = {"type": "bot", "bot": bot}
    if "budget_ms" in seat:
        if not _plain_int(seat["budget_ms"], MAX_BUDGET_MS):
            return None
        out["budget_ms"] = seat["budget_ms"]
    return out


def plain_create(data: Any) -> dict[str, Any] | None:
    """A match creation body in its plain form, checked in a few comparisons (marshmallow's load of it costs
    about 0.19 ms, once per match): what ``CreateMatchSchema().load(data)`` returns, or None for anything else
    (unusual or invalid), which ``CreateMatchSchema`` then parses itself, with its own error messages.
    ``tests/api/test_endpoints.py`` checks that the two agree."""
    if type(data) is not dict or "game" not in data or not data.keys() <= _CREATE_KEYS:
        return None
    game = data["game"]
    if type(game) is not str or not 1 <= len(game) <= 64:
        return None
    out: dict[str, Any] = {"game": game}
    params = data.get("params", {})
    if type(params) is not dict or len(params) > MAX_PARAMS or not all(
            type(k) is str and 1 <= len(k) <= 64 for k in params):
        return None
    if _has_float(params):
        return None
    out["params"] = dict(params)
    if "seats" in data:
        given = data["seats"]
        if type(given) is not list or not 1 <= len(given) <= MAX_SEAT + 1:
            return None
        seats = []
        for seat in given:
            plain = _plain_seat(seat)
            if plain is None:
                return None
            seats.append(plain)
        out["seats"] = seats
    if "seed" in data:
        seed = data["seed"]
        if seed is not None and not _plain_int(seed, MAX_SEED):
            return None
        out["seed"] = seed
    listed = data.get("listed", False)
    if type(listed) is not bool:
        return None
    out["listed"] = listed
    return out


class BotMoveSchema(Strict):
    bot = fields.String(load_default="greedy", validate=[validate.Length(1, MAX_BOT_SPEC), _known_bot], metadata=_BOT_DOC)
    budget_ms = _strict_int(validate=validate.Range(0, MAX_BUDGET_MS),
                            metadata={"description": "time budget in ms (search bots use it all)"})
    seed = _strict_int(validate=validate.Range(0, MAX_SEED), metadata={"description": "the bot's own seed"})
    play = _bool(load_default=False, metadata={"description": "false: only propose; true: play it"})
    expected_version = _strict_int(validate=validate.Range(0, MAX_VERSION))
    seat = _strict_int(validate=validate.Range(0, MAX_SEAT))


class EventsQuerySchema(Schema):
    after = QueryInteger(load_default=0, validate=validate.Range(0, MAX_VERSION),
                         metadata={"description": "the last version the client has seen"})
    wait = QueryFloat(load_default=0.0, validate=validate.Range(0, MAX_WAIT_S),
                      metadata={"description": "seconds to wait for a change (long-poll)"})


class StreamQuerySchema(Schema):
    after = QueryInteger(validate=validate.Range(0, MAX_VERSION),
                         metadata={"description": "the last version the client has seen (default: the "
                                                  "`Last-Event-ID` header, else the current version)"})


class NewStateSchema(Strict):
    params = _params_field()
    seed = _strict_int(allow_none=True, validate=validate.Range(0, MAX_SEED))


class StateRequestSchema(Strict):
    state = fields.String(required=True, validate=validate.Length(1, MAX_STATE_CHARS),
                          metadata={"description": "State.to_bytes(), base64"})
    seat = _strict_int(allow_none=True, validate=validate.Range(0, MAX_SEAT),
                       metadata={"description": "the seat asking (null or absent: every actor / a spectator)"})


class ApplySchema(Strict):
    state = fields.String(required=True, validate=validate.Length(1, MAX_STATE_CHARS))
    seat = _strict_int(allow_none=True, validate=validate.Range(0, MAX_SEAT),
                       metadata={"description": "the acting seat (default: state.current_player)"})
    action = fields.Nested(ActionInputSchema, required=True)


# -- responses ------------------------------------------------------------------------------------------------


class ProblemSchema(Schema):
    """RFC 9457 problem details; branch on `code`."""

    type = fields.String(required=True, metadata={"example": "urn:robotcore:problem:stale-version"})
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    code = fields.String(required=True, validate=validate.OneOf(sorted(CODES)))
    detail = fields.String(required=True)
    instance = fields.String()
    errors = fields.Dict(metadata={"description": "field errors (code `validation`)"})
    current_version = fields.Integer(metadata={"description": "the match version now (code `stale-version`)"})


class ActionSchema(Schema):
    id = fields.Integer(required=True)
    text = fields.String(required=True)
    json = fields.Dict(required=True)


class SeatSchema(Schema):
    seat = fields.Integer(required=True)
    type = fields.String(required=True, validate=validate.OneOf(["human", "bot"]))
    bot = fields.String(required=True, allow_none=True)
    budget_ms = fields.Integer(required=True, allow_none=True)


class CreatedSeatSchema(SeatSchema):
    token = fields.String(required=True, allow_none=True,
                          metadata={"description": "the seat's secret (human seats), shown this once only"})


class OutcomeSchema(Schema):
    scores = fields.List(fields.Integer(), required=True)
    places = fields.List(fields.Integer(), required=True, metadata={"description": "0 = first; ties share"})
    winners = fields.List(fields.Integer(), required=True)
    shared = fields.Boolean(required=True)


class MatchHeaderSchema(Schema):
    """What every answer about a match starts with (payloads._match_header)."""

    match_id = fields.String(required=True)
    game = fields.String(required=True)
    params = fields.Dict(required=True)
    version = fields.Integer(required=True, metadata={"description": "number of actions applied so far"})
    status = fields.String(required=True, validate=validate.OneOf(["active", "finished"]))


class MatchViewSchema(MatchHeaderSchema):
    seat = fields.Integer(required=True, allow_none=True, metadata={"description": "null: spectator"})
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    actors = fields.List(fields.Integer(), required=True,
                         metadata={"description": "seats that must decide now (several: simultaneous phase)"})
    to_act = fields.Boolean(required=True)
    legal_actions = fields.List(fields.Nested(ActionSchema), required=True,
                                metadata={"description": "this seat's legal actions when it must act"})
    view = fields.Dict(required=True, metadata={"description": "the game's view for this seat"})
    outcome = fields.Nested(OutcomeSchema, required=True, allow_none=True)


class MatchCreatedSchema(MatchHeaderSchema):
    seats = fields.List(fields.Nested(CreatedSeatSchema), required=True)
    match = fields.Nested(MatchViewSchema, required=True)


class AcceptedSchema(Schema):
    version = fields.Integer(required=True, metadata={"description": "the version this action produced"})
    seat = fields.Integer(required=True)
    action = fields.Nested(ActionSchema, required=True)


class MoveResultSchema(Schema):
    accepted = fields.Nested(AcceptedSchema, required=True)
    match = fields.Nested(MatchViewSchema, required=True,
                          metadata={"description": "the match after the move and any bot moves it triggered"})


class LogEntrySchema(Schema):
    version = fields.Integer(required=True)
    seat = fields.Integer(required=True)
    by = fields.String(required=True, validate=validate.OneOf(["human", "bot"]))
    hidden = fields.Boolean(required=True, metadata={"description": "another seat's private action"})
    action = fields.Nested(ActionSchema, required=True, allow_none=True)


class EventsSchema(Schema):
    match_id = fields.String(required=True)
    version = fields.Integer(required=True)
    events = fields.List(fields.Nested(LogEntrySchema), required=True)
    match = fields.Nested(MatchViewSchema, required=True)


class RevealSchema(Schema):
    seed = fields.Integer(required=True)
    final_state = fields.Dict(required=True, metadata={"description": "Game.omniscient_view at the end"})


class LogSchema(MatchHeaderSchema):
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    entries = fields.List(fields.Nested(LogEntrySchema), required=True)
    outcome = fields.Nested(OutcomeSchema, required=True, allow_none=True)
    reveal = fields.Nested(RevealSchema, required=True, allow_none=True,
                           metadata={"description": "after the end only"})


class MatchSummarySchema(MatchHeaderSchema):
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    actors = fields.List(fields.Integer(), required=True)
    created_at = fields.Float(required=True, metadata={"description": "Unix time"})
    updated_at = fields.Float(required=True, metadata={"description": "Unix time of the last action"})


class MatchListSchema(Schema):
    matches = fields.List(fields.Nested(MatchSummarySchema), required=True)


class ReplayStepSchema(MatchHeaderSchema):
    at = fields.Integer(required=True, metadata={"description": "actions played at this step"})
    seat = fields.Integer(required=True, allow_none=True, metadata={"description": "null: spectator"})
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    actors = fields.List(fields.Integer(), required=True, metadata={"description": "who had to decide then"})
    entry = fields.Nested(LogEntrySchema, required=True, allow_none=True,
                          metadata={"description": "the action that led to this step (null at the start)"})
    view = fields.Dict(required=True, metadata={"description": "the game's view for this seat at this step"})
    outcome = fields.Nested(OutcomeSchema, required=True, allow_none=True,
                            metadata={"description": "at the last step only"})


class BotMoveResultSchema(Schema):
    version = fields.Integer(required=True,
                             metadata={"description": "proposal: the version it was computed at; "
                                                      "played: the version the move produced"})
    seat = fields.Integer(required=True)
    bot = fields.String(required=True)
    budget_ms = fields.Integer(required=True, allow_none=True)
    played = fields.Boolean(required=True)
    action = fields.Nested(ActionSchema, required=True)
    match = fields.Nested(MatchViewSchema, required=True, allow_none=True)


class ParamSpecSchema(Schema):
    name = fields.String(required=True)
    type = fields.String(required=True)
    doc = fields.String(required=True)
    default = fields.Raw(required=True, allow_none=True)
    choices = fields.List(fields.Raw())
    min = fields.Integer()
    max = fields.Integer()


class GameSchema(Schema):
    name = fields.String(required=True)
    title = fields.String(required=True)
    min_players = fields.Integer(required=True)
    max_players = fields.Integer(required=True)
    parameters = fields.List(fields.Nested(ParamSpecSchema), required=True)
    values = fields.Dict(required=True, metadata={"description": "the default parameter values"})
    num_players = fields.Integer(required=True)
    num_actions = fields.Integer(required=True, metadata={"description": "action ids are 0..num_actions-1"})
    state_size = fields.Integer(required=True)
    max_game_length = fields.Integer(required=True)
    observation_shape = fields.List(fields.Integer(), required=True)


class GlossaryEntrySchema(Schema):
    name = fields.String(required=True, metadata={"example": "Armoured Head"})
    text = fields.String(required=True, metadata={"example": "Head Structure · 3 VP · 2 Upgrade slots · repair MMO"})


class GameDetailSchema(GameSchema):
    content = fields.Dict(required=True, allow_none=True, metadata={
        "description": "the game's content document (cards, decks, events...: what `make(name, content=...)` "
                       "takes; every match over HTTP plays this default): the ids a view shows refer to it"})
    glossary = fields.Dict(keys=fields.String(), values=fields.Nested(GlossaryEntrySchema), required=True, metadata={
        "description": "what each content id a view shows stands for (card codes, machine or component names, "
                       "effect symbols): a readable name and a one-line description, for people reading views"})


class GameListSchema(Schema):
    games = fields.List(fields.Nested(GameSchema), required=True)


class BotOptionSchema(Schema):
    name = fields.String(required=True, metadata={"example": "iterations"})
    default = fields.Raw(required=True, allow_none=True, metadata={"description": "its value when not given"})
    max = fields.Integer(required=True, allow_none=True,
                         metadata={"description": "the largest value this server accepts (null: the bot's own check)"})


class BotInfoSchema(Schema):
    name = fields.String(required=True)
    doc = fields.String(required=True)
    options = fields.List(fields.Nested(BotOptionSchema), required=True,
                          metadata={"description": "given in its spec: `mcts:iterations=200,c=0.5`"})


class BotListSchema(Schema):
    bots = fields.List(fields.Nested(BotInfoSchema), required=True)


class SeatActionsSchema(Schema):
    seat = fields.Integer(required=True)
    actions = fields.List(fields.Nested(ActionSchema), required=True)


class StateInfoSchema(Schema):
    game = fields.String(required=True)
    state = fields.String(required=True, allow_none=True, metadata={"description": "base64 state bytes"})
    version = fields.Integer(required=True, metadata={"description": "actions in the state's history"})
    actors = fields.List(fields.Integer(), required=True)
    current_player = fields.Integer(required=True, metadata={"description": "-4 once the game is over"})
    is_terminal = fields.Boolean(required=True)
    legal_actions = fields.List(fields.Nested(SeatActionsSchema), required=True)
    scores = fields.List(fields.Integer(), required=True)
    returns = fields.List(fields.Float(), required=True, allow_none=True)
    outcome = fields.Nested(OutcomeSchema, required=True, allow_none=True)
    view = fields.Dict(required=True, metadata={"description": "the view of `seat` (spectator if none)"})


class HealthSchema(Schema):
    status = fields.String(required=True)
