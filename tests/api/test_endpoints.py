"""Every route, with good and bad input. Each answer is also checked against the committed OpenAPI document
(status documented, body matching its schema, errors as application/problem+json)."""

from __future__ import annotations

import base64
import hashlib
import json
import random
import time
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError

import robotcore
from robotcore.bots import BOTS
from robotcore_api import payloads
from robotcore_api.schemas import MAX_BUDGET_MS, CreateMatchSchema, MoveSchema, plain_create, plain_move

from .conftest import GAMES, ApiClient, acting, new_key


def code(resp: Any) -> str:
    return str(resp.get_json()["code"])


def waiting_seat(view: dict[str, Any], tokens: dict[int, str]) -> int | None:
    return next((s for s in tokens if s not in view["actors"]), None)


# -- meta and catalogue -------------------------------------------------------------------------------------------


def test_health_and_bots(api: ApiClient) -> None:
    assert api.get("/v1/health").get_json() == {"status": "ok"}
    bots = api.get("/v1/bots").get_json()["bots"]
    assert sorted(b["name"] for b in bots) == sorted(BOTS)
    assert {"random", "greedy"} <= {b["name"] for b in bots}
    mcts = next(b for b in bots if b["name"] == "mcts")
    options = {o["name"]: o for o in mcts["options"]}
    assert options["iterations"] == {"name": "iterations", "default": 1000, "max": 100_000}
    assert options["ms"]["max"] == MAX_BUDGET_MS and options["c"]["max"] is None


def test_bodies_encode_what_the_standard_library_encodes() -> None:
    for value in [{"a": "é", "n": None, "f": 0.1, "l": [True, 2]}, {1: "integer key"}, {"big": 2**70},
                  {"lone surrogate": "\ud800"}]:
        assert json.loads(payloads.encode(value)) == json.loads(json.dumps(value))


def test_bodies_are_orjsons_bytes_with_or_without_string_keys() -> None:
    """encode tries orjson's default path first (string keys only) and, for a body with another key anywhere,
    OPT_NON_STR_KEYS: the bytes are those of OPT_NON_STR_KEYS alone in both cases."""
    import orjson

    for value in [{"a": {"b": [1, {"c": None}]}, "d": "é"}, {"a": [{"b": {2: "x"}}]}, {1: {"a": 1}}, [{"a": 1}, 3]]:
        assert payloads.encode(value) == orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


@pytest.mark.parametrize("name", GAMES)
def test_action_forms_are_the_games_own(name: str) -> None:
    """payloads.action remembers each game's notation (a Game is immutable): it answers what the game does,
    for every action, the second time as the first, and for each set of parameters its own."""
    default = robotcore.load_game(name)
    for game in (default, robotcore.load_game(name, players=default.max_players)):
        for _ in range(2):
            for a in range(game.num_actions):
                assert payloads.action(game, a) == {"id": a, "text": game.action_to_str(a),
                                                    "json": game.action_to_dict(a)}
    with pytest.raises(robotcore.errors.InvalidActionError):
        payloads.action(game, game.num_actions)
    # the pre-encoded forms answers carry are the same bytes, through orjson and through the fallback encoder
    ids = list(range(game.num_actions))
    assert payloads.encode(payloads.actions_json(game, ids)) == payloads.encode([payloads.action(game, a) for a in ids])
    assert payloads.encode(payloads.action_json(game, ids[-1])) == payloads.encode(payloads.action(game, ids[-1]))
    huge = {"big": 2**70, "actions": payloads.actions_json(game, ids[:3]), "one": payloads.action_json(game, 0)}
    assert json.loads(payloads.encode(huge)) == {"big": 2**70, "actions": [payloads.action(game, a) for a in ids[:3]],
                                                 "one": payloads.action(game, 0)}


def test_catalogue_lists_every_registered_game(api: ApiClient) -> None:
    games = api.get("/v1/games").get_json()["games"]
    assert [g["name"] for g in games] == GAMES


@pytest.mark.parametrize("name", GAMES)
def test_catalogue_entry(api: ApiClient, name: str) -> None:
    entry = api.get(f"/v1/games/{name}").get_json()
    game = robotcore.load_game(name)
    assert entry["num_actions"] == game.num_actions
    assert (entry["min_players"], entry["max_players"]) == (game.min_players, game.max_players)
    assert entry["values"] == game.plain_params()
    settable = {p.name for p in game.param_specs if p.type in (int, bool, str, float)}
    assert {p["name"] for p in entry["parameters"]} == settable
    for p in entry["parameters"]:
        assert p["default"] == game.plain_params().get(p["name"], p["default"])
    # what reading its views takes: the default content (every HTTP match plays it) and its glossary
    assert game.content is not None and entry["content"] == game.content.to_json()
    assert entry["glossary"] == game.glossary()
    assert "content" not in api.get("/v1/games").get_json()["games"][0]     # the list stays small


def test_catalogue_entry_under_parameters_given_in_the_query(api: ApiClient) -> None:
    """A match's game, as its params make it: each parameter a query argument, read as its type; what the
    game does not take, or a value of the wrong type, is a 422 naming it."""
    entry = api.get("/v1/games/smartphone?players=3&harsh_malus=true&length=20").get_json()
    game = robotcore.load_game("smartphone", players=3, harsh_malus=True, length="20")
    assert entry["values"] == game.plain_params() and entry["num_players"] == 3
    assert entry["glossary"] == game.glossary() != robotcore.load_game("smartphone").glossary()
    for query, word in [("players=x", "players"), ("harsh_malus=yes", "harsh_malus"), ("players=9", "players"),
                        ("hangars=2", "hangars"), ("content=x", "content"),
                        # decimal ASCII digits only (int() would read each of these as 3)
                        ("players=%EF%BC%93", "players"), ("players=%D9%A3", "players"), ("players=+3", "players"),
                        ("players=%203", "players"), ("players=0_3", "players"),
                        ("players=" + "9" * 5000, "players")]:          # (int() refuses over 4,300 digits)
        resp = api.get(f"/v1/games/smartphone?{query}")
        assert resp.status_code == 422 and code(resp) == "invalid-parameter" and word in resp.get_json()["detail"]


def test_unknown_game_and_route(api: ApiClient) -> None:
    assert code(api.get("/v1/games/no-such-game")) == "not-found"
    assert code(api.get("/v1/nothing/here")) == "not-found"
    resp = api.call("DELETE", "/v1/games")
    assert resp.status_code == 405 and code(resp) == "method-not-allowed" and "GET" in resp.headers["Allow"]
    # a doubled slash is no path of the API: werkzeug answered a 308 in HTML whose Location took the client's Host
    # header (REST review), and "/v1/matches//moves" a 405 that named GET
    for method, path in (("GET", "/v1//matches?limit=1"), ("POST", "/v1/matches//moves"), ("GET", "//v1/health")):
        resp = api.call(method, path, headers={"Host": "evil.example"})
        assert resp.status_code == 404 and code(resp) == "not-found" and "Location" not in resp.headers


def test_docs_page_and_document(api: ApiClient) -> None:
    page = api.get("/v1/docs")
    assert page.status_code == 200 and b"swagger-ui" in page.data and b"/v1/openapi.json" in page.data
    asset = api.get("/v1/docs/assets/swagger-ui-bundle.js")
    assert asset.status_code == 200 and len(asset.data) > 100_000
    doc = api.get("/v1/openapi.json").get_json()
    assert doc["openapi"].startswith("3.") and "/v1/matches/{match_id}/moves" in doc["paths"]
    lobby = api.get("/")                            # the lobby (tests/api/test_page.py); the docs stay here
    assert lobby.status_code == 200 and lobby.mimetype == "text/html" and b'href="/v1/docs"' in lobby.data


# -- creating matches ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_create_match_tokens_shown_once(api: ApiClient, name: str) -> None:
    doc, tokens = api.create(name)
    game = robotcore.load_game(name)
    assert len(doc["seats"]) == game.num_players == len(tokens)
    assert len(set(tokens.values())) == len(tokens) and all(len(t) >= 40 for t in tokens.values())
    assert doc["match"]["seat"] is None and doc["version"] == doc["match"]["version"]
    view = api.get(f"/v1/matches/{doc['match_id']}", token=tokens[0])
    assert view.status_code == 200
    for token in tokens.values():
        assert token not in view.get_data(as_text=True)
    stored = api.app.extensions["robotcore"].store.get_match(doc["match_id"])
    assert all(token not in json.dumps([s.to_json() for s in stored.seats]) for token in tokens.values())


@pytest.mark.parametrize("name", GAMES)
def test_same_seed_same_match(api: ApiClient, name: str) -> None:
    a, _ = api.create(name, seed=12345)
    b, _ = api.create(name, seed=12345)
    assert a["match"]["view"] == b["match"]["view"]
    assert a["match"]["view"] == robotcore.make(name, seed=12345).view(None)


@pytest.mark.parametrize("name", GAMES)
def test_create_with_bot_seats(api: ApiClient, name: str) -> None:
    game = robotcore.load_game(name)
    seats = [{"type": "human"}] + [{"type": "bot", "bot": "random"}] * (game.num_players - 1)
    doc, tokens = api.create(name, seats=seats)
    assert list(tokens) == [0]
    assert [s["type"] for s in doc["seats"]] == ["human"] + ["bot"] * (game.num_players - 1)
    assert all(s["token"] is None for s in doc["seats"][1:])
    # bots have played until the human must act (or the end)
    assert doc["match"]["status"] == "finished" or 0 in doc["match"]["actors"]


@pytest.mark.parametrize("name", GAMES)
def test_bot_seats_with_options(api: ApiClient, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A seat's bot may be a built-in bot's spec with options (README): it thinks on the pool, its seed comes
    from the match's, and the same seed gives the same match."""
    from robotcore_api import service as service_module

    game = robotcore.load_game(name)
    spec = "mcts:iterations=40,c=0.5"
    seats = [{"type": "human"}] + [{"type": "bot", "bot": spec}] * (game.num_players - 1)
    pool = api.app.extensions["robotcore"].pool
    on_pool: list[str] = []
    built: list[str] = []
    real_run, real_make = pool.run, service_module.make_bot

    def run(fn: Any, *args: Any) -> Any:
        on_pool.append(fn.__name__)
        return real_run(fn, *args)

    def make(spec: str, *args: Any, **kwargs: Any) -> Any:
        built.append(spec)
        return real_make(spec, *args, **kwargs)

    monkeypatch.setattr(pool, "run", run)
    monkeypatch.setattr(service_module, "make_bot", make)
    def opened(doc: dict[str, Any], tokens: dict[int, str]) -> None:
        """The human seat's first moves, when it opens, until the bots have played (its moves make them due)."""
        view, made = api.view(doc["match_id"], tokens[0]), 0
        while view["version"] == made and view["legal_actions"]:    # (each bot move is a version more)
            resp = api.move(doc["match_id"], tokens[0], {"id": view["legal_actions"][0]["id"]}, view["version"])
            assert resp.status_code == 200, resp.get_json()
            view, made = api.view(doc["match_id"], tokens[0]), made + 1
        assert view["version"] > made

    a, tokens = api.create(name, seats=seats, seed=9)
    opened(a, tokens)
    assert "_seat_move" in on_pool                      # a bot with options thinks on the pool, not on a request
    assert set(built) == {spec}                         # with its options: the whole spec, never its name alone
    assert [s["bot"] for s in a["seats"][1:]] == [spec] * (game.num_players - 1)
    assert a["match"]["status"] == "finished" or 0 in a["match"]["actors"]      # the bots have played
    b, b_tokens = api.create(name, seats=seats, seed=9)
    opened(b, b_tokens)
    assert api.view(a["match_id"])["view"] == api.view(b["match_id"])["view"]
    assert api.app.extensions["robotcore"].verify_replay(a["match_id"])


@pytest.mark.parametrize(("spec", "says"), [
    # the bot's own check, with the server's cap beside it
    ("mcts:iterations=0", "iterations must be an int from 1 to 1099511627776, got 0 "
                          "(this server allows iterations up to 100000)"),
    ("mcts:iterations=100001", "this server allows iterations up to 100000, got 100001"),    # the server's limit
    ("mcts:iterations=1e9", "this server allows iterations up to 100000, got 1000000000.0"),
    ("mcts:iterations=1.5", "iterations must be an int"),     # a float is no int
    ("mcts:iterations=lots", "iterations must be an int from 1 to 1099511627776, got 'lots' "
                             "(this server allows iterations up to 100000)"),       # nor a text
    ("ismcts:threads=2", "this server allows threads up to 1, got 2"),
    ("mcts:ms=10001", "this server allows ms up to 10000"),
    ("mcts:ms=1e400", "this server allows ms up to 10000, got inf"),
    ("mcts:ms=NaN", "ms must be a finite number > 0 (milliseconds), got nan (this server allows ms up to 10000)"),
    ("montecarlo:playouts=1001", "this server allows playouts up to 1000"),
    ("mcts:c=1e400", "c must be a finite number"),
    ("mcts:bogus=1", "bogus"),
    ("mcts:iterations", "not key=value"),
    ("random:Random", "not key=value"),                       # a built-in name is never a module
    ("robotcore.bots:RandomBot", "no built-in bot"),          # module:Class: nothing is imported for a client
    ("os:system", "no built-in bot"),
    ("greedy:prefer=nonsense", "is not a Robotrick action"),  # options that do not fit the game fail before play
    ("mcts:rollout=eval", "no native leaf evaluation"),
])
def test_bot_specs_the_service_refuses(api: ApiClient, spec: str, says: str) -> None:
    seats = [{"type": "human"}, {"type": "bot", "bot": spec}, {"type": "bot", "bot": "random"}]
    resp = api.post("/v1/matches", json={"game": "robotrick", "seats": seats})
    assert (resp.status_code, code(resp)) == (422, "validation"), resp.get_json()
    # the schema's errors and the service's in one shape: by location, field, seat index
    (message,) = resp.get_json()["errors"]["json"]["seats"]["1"]["bot"]
    assert says in message and message.count("bot '") <= 1, message
    doc, tokens = api.create("robotrick", seed=3)
    seat, _ = acting(api, doc["match_id"], tokens)
    resp = api.post(f"/v1/matches/{doc['match_id']}/bot-move", json={"bot": spec}, token=tokens[seat])
    assert (resp.status_code, code(resp)) == (422, "validation"), resp.get_json()
    (message,) = resp.get_json()["errors"]["json"]["bot"]
    assert says in message and message.count("bot '") <= 1, message


def test_bot_move_with_options(api: ApiClient) -> None:
    doc, tokens = api.create("robotrick", seed=3)
    seat, view = acting(api, doc["match_id"], tokens)
    body = {"bot": "ismcts:iterations=60,reuse=false", "seed": 5}
    first = api.post(f"/v1/matches/{doc['match_id']}/bot-move", json=body, token=tokens[seat])
    assert first.status_code == 200, first.get_json()
    again = api.post(f"/v1/matches/{doc['match_id']}/bot-move", json=body, token=tokens[seat])
    assert first.get_json()["action"] == again.get_json()["action"]
    assert first.get_json()["action"] in view["legal_actions"]


def test_too_many_parameters_say_so(api: ApiClient) -> None:
    resp = api.post("/v1/matches", json={"game": "robotrick", "params": {f"p{i}": 1 for i in range(33)}})
    assert (resp.status_code, code(resp)) == (422, "validation")
    assert resp.get_json()["errors"]["json"]["params"] == ["at most 32 parameters, got 33"]


def test_bot_move_plays_without_a_version(api: ApiClient) -> None:
    doc, tokens = api.create("robotrick", seed=3)
    seat, view = acting(api, doc["match_id"], tokens)
    resp = api.post(f"/v1/matches/{doc['match_id']}/bot-move", json={"bot": "random", "play": True},
                    token=tokens[seat])
    assert resp.status_code == 200 and resp.get_json()["version"] == view["version"] + 1, resp.get_json()


def test_a_bot_move_without_a_version_overtaken_while_it_thinks_says_so(api: ApiClient,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The client sent no version, and a move landed while the bot thought: the refusal said "the match is at
    version X, not V", a V the client never sent (REST review); it says the match moved on while the bot
    thought, and the client's own request is refused unplayed."""
    from robotcore_api import service as service_module

    doc, tokens = api.create("robotrick", seed=3)
    match_id = doc["match_id"]
    seat, view = acting(api, match_id, tokens)
    real = service_module._think

    def overtaken(bot, state, seat_, budget_ms):  # noqa: ANN001, ANN202 - the seat moves meanwhile, elsewhere
        moved = api.post(f"/v1/matches/{match_id}/moves", token=tokens[seat],
                         json={"action": {"id": view["legal_actions"][0]["id"]}, "expected_version": view["version"]})
        assert moved.status_code == 200
        return real(bot, state, seat_, budget_ms)

    monkeypatch.setattr(service_module, "_think", overtaken)
    resp = api.post(f"/v1/matches/{match_id}/bot-move", json={"bot": "random", "play": True}, token=tokens[seat])
    assert (resp.status_code, code(resp)) == (409, "stale-version")
    assert "moved on while the bot thought" in resp.get_json()["detail"]
    assert f"not {view['version']}" not in resp.get_json()["detail"]


def test_an_unknown_parameter_lists_only_what_http_can_set(api: ApiClient) -> None:
    resp = api.post("/v1/matches", json={"game": "robotrick", "params": {"nope": 1}})
    assert (resp.status_code, code(resp)) == (422, "invalid-parameter")
    detail = resp.get_json()["detail"]
    assert detail.startswith("robotrick has no parameter nope; parameters: players, hangars") and "content" not in detail


def test_a_huge_int_parameter_is_reported_as_the_int_sent(api: ApiClient) -> None:
    """orjson reads an int past 64 bits as a float; the error must quote the int the client sent."""
    resp = api.post("/v1/matches", json={"game": "robotrick", "params": {"hangars": 10**40}})
    assert (resp.status_code, code(resp)) == (422, "invalid-parameter")
    assert resp.get_json()["detail"] == f"hangars must be <= 12, got {10**40}"


def test_a_huge_int_in_an_action_is_reported_as_the_int_sent(api: ApiClient) -> None:
    doc, tokens = api.create("nicodemus", seed=3)
    seat, view = acting(api, doc["match_id"], tokens)
    resp = api.post(f"/v1/matches/{doc['match_id']}/moves", token=tokens[seat], json={
        "action": {"json": {"type": "play", "machine": 10**40, "use": "effect"}}, "expected_version": view["version"]})
    assert resp.status_code == 422, resp.get_json()
    assert str(10**40) in resp.get_json()["detail"] and "e+40" not in resp.get_json()["detail"]


def test_a_post_without_a_body_says_so_in_the_shape_of_field_errors(api: ApiClient) -> None:
    resp = api.app.test_client().post("/v1/matches")
    assert (resp.status_code, code(resp)) == (422, "validation")
    assert resp.get_json()["errors"] == {"json": {"_schema": ["missing body"]}}


def test_human_seat_budget_is_reported_under_budget_ms(api: ApiClient) -> None:
    seats = [{"type": "human", "budget_ms": 50}, {"type": "bot", "bot": "random"}, {"type": "bot", "bot": "random"}]
    resp = api.post("/v1/matches", json={"game": "robotrick", "seats": seats})
    assert (resp.status_code, code(resp)) == (422, "validation")
    assert resp.get_json()["errors"]["json"]["seats"] == {"0": {"budget_ms": ["a human seat has no bot budget"]}}


@pytest.mark.parametrize(("game", "seats", "said"), [
    ("robotrick", 2, "Robotrick is played by 3 seats, got 2"),
    ("nicodemus", 3, "Nicodemus is played by 2 seats, got 3"),
    ("sparks", 5, "Sparks is played by 1 to 4 seats, got 5"),
    ("scrapyard", 1, "Scrapyard is played by 2 to 4 seats, got 1"),
])
def test_a_wrong_number_of_seats_is_told_as_seats(api: ApiClient, game: str, seats: int, said: str) -> None:
    """Seats without ``players`` in the parameters set the number of players: a count the game is not played
    by is a validation error of ``seats`` that says what it is played by (not a ``players`` the client never
    sent), and makes nothing."""
    if game not in GAMES:
        pytest.skip(f"{game} is not registered")
    before = api.get("/v1/matches").get_json()
    resp = api.post("/v1/matches", json={"game": game, "seats": [{"type": "human"}] * seats})
    body = resp.get_json()
    assert (resp.status_code, body["code"], body["detail"]) == (422, "validation", said)
    assert body["errors"] == {"json": {"seats": ["wrong number of seats"]}}
    assert api.get("/v1/matches").get_json() == before


@pytest.mark.parametrize(
    ("body", "status", "problem"),
    [
        ({"game": 5}, 422, "validation"),
        ({}, 422, "validation"),
        ({"game": "robotrick", "seed": "7"}, 422, "validation"),
        ({"game": "robotrick", "seed": -1}, 422, "validation"),
        ({"game": "robotrick", "seed": 2**64}, 422, "validation"),
        ({"game": "robotrick", "seats": "human"}, 422, "validation"),
        ({"game": "robotrick", "seats": [{"type": "alien"}] * 3}, 422, "validation"),
        ({"game": "robotrick", "seats": [{"type": "bot"}] * 3}, 422, "validation"),
        ({"game": "robotrick", "seats": [{"type": "bot", "bot": "nobody"}] * 3}, 422, "validation"),
        ({"game": "robotrick", "seats": [{"type": "human", "bot": "random"}] * 3}, 422, "validation"),
        ({"game": "robotrick", "seats": [{"type": "bot", "bot": "random"}] * 3}, 422, "validation"),
        ({"game": "robotrick", "seats": [{"type": "human"}] * 2}, 422, "validation"),
        ({"game": "robotrick", "extra": 1}, 422, "validation"),
        ({"game": "robotrick", "params": {"nope": 1}}, 422, "invalid-parameter"),
        ({"game": "robotrick", "params": {"hangars": "3"}}, 422, "invalid-parameter"),
        ({"game": "robotrick", "params": {"hangars": 99}}, 422, "invalid-parameter"),
        ({"game": "robotrick", "params": {"hangars": [1]}}, 422, "invalid-parameter"),
        ({"game": "robotrick", "params": {"content": {}}}, 422, "invalid-parameter"),
        ({"game": "robotrick", "params": []}, 422, "validation"),
        ({"game": "no-such-game"}, 404, "not-found"),
    ],
)
def test_create_match_bad_input(api: ApiClient, body: dict[str, Any], status: int, problem: str) -> None:
    if body.get("game") == "robotrick" and "robotrick" not in GAMES:
        pytest.skip("robotrick is not registered")
    resp = api.post("/v1/matches", json=body)
    assert (resp.status_code, code(resp)) == (status, problem), resp.get_json()


def test_malformed_and_non_json_bodies(api: ApiClient) -> None:
    resp = api.post("/v1/matches", data="{not json", content_type="application/json")
    assert (resp.status_code, code(resp)) == (400, "malformed-json")
    resp = api.post("/v1/matches", data="game=robotrick", content_type="application/x-www-form-urlencoded")
    assert (resp.status_code, code(resp)) == (415, "unsupported-media-type")
    resp = api.post("/v1/matches", data="[1, 2]", content_type="application/json")
    assert (resp.status_code, code(resp)) == (422, "validation")
    resp = api.post("/v1/matches", data='"robotrick"', content_type="application/json")
    assert (resp.status_code, code(resp)) == (422, "validation")


def test_oversized_body(api: ApiClient) -> None:
    big = {"game": GAMES[0], "params": {"x": "a" * 70_000}}
    resp = api.post("/v1/matches", json=big)
    assert (resp.status_code, code(resp)) == (413, "payload-too-large")
    doc, tokens = api.create(GAMES[0])
    resp = api.post(f"/v1/matches/{doc['match_id']}/moves", json={"action": {"text": "x" * 70_000}},
                    token=tokens[0])
    assert (resp.status_code, code(resp)) == (413, "payload-too-large")


# -- reading a match ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_seat_and_spectator_views(api: ApiClient, name: str) -> None:
    doc, tokens = api.create(name, seed=3)
    match_id = doc["match_id"]
    state = robotcore.make(name, seed=3)
    spectator = api.get(f"/v1/matches/{match_id}")
    assert spectator.headers["ETag"] == '"0"' and spectator.headers["Cache-Control"] == "no-store"
    body = spectator.get_json()
    assert body["seat"] is None and body["legal_actions"] == [] and not body["to_act"]
    assert body["view"] == state.view(None) and body["actors"] == state.actors
    for seat, token in tokens.items():
        view = api.view(match_id, token)
        assert view["seat"] == seat and view["view"] == state.view(seat)
        assert view["to_act"] == (seat in state.actors)
        expected = [payloads.action(state.game, a) for a in state.legal_actions(seat)]
        assert view["legal_actions"] == (expected if seat in state.actors else [])


def test_unknown_match_and_bad_tokens(api: ApiClient) -> None:
    doc, tokens = api.create(GAMES[0])
    other, other_tokens = api.create(GAMES[0])
    match_id = doc["match_id"]
    assert code(api.get("/v1/matches/nope")) == "not-found"
    assert code(api.get("/v1/matches/" + "x" * 300)) == "not-found"
    for path in ("", "/log", "/events"):
        resp = api.get(f"/v1/matches/{match_id}{path}", token="wrong")
        assert (resp.status_code, code(resp)) == (401, "invalid-token")
        assert resp.headers["WWW-Authenticate"].startswith("Bearer")
        resp = api.get(f"/v1/matches/{match_id}{path}", token=other_tokens[0])      # another match's token
        assert (resp.status_code, code(resp)) == (401, "invalid-token")
        resp = api.get(f"/v1/matches/{match_id}{path}", headers={"Authorization": "Basic abc"})
        assert (resp.status_code, code(resp)) == (401, "invalid-token")
        resp = api.get(f"/v1/matches/{match_id}{path}", headers={"Authorization": "Bearer " + "a" * 400})
        assert (resp.status_code, code(resp)) == (401, "invalid-token")


# -- moves --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_move_in_every_form(api: ApiClient, name: str) -> None:
    doc, tokens = api.create(name, seed=5)
    match_id = doc["match_id"]
    for form in ("id", "text", "json", "all"):
        seat, view = acting(api, match_id, tokens)
        choice = view["legal_actions"][-1]
        action = choice if form == "all" else {form: choice[form]}
        resp = api.move(match_id, tokens[seat], action, view["version"])
        assert resp.status_code == 200, resp.get_json()
        body = resp.get_json()
        assert body["accepted"] == {"version": view["version"] + 1, "seat": seat, "action": choice}
        assert body["match"]["seat"] == seat and body["match"]["version"] >= view["version"] + 1
        if body["match"]["status"] == "finished":
            break


def test_rejected_moves_change_nothing(api: ApiClient) -> None:
    name = GAMES[0]
    doc, tokens = api.create(name, seed=9)
    match_id = doc["match_id"]
    game = robotcore.load_game(name)
    seat, view = acting(api, match_id, tokens)
    version = view["version"]
    legal = {a["id"] for a in view["legal_actions"]}
    illegal = next(a for a in range(game.num_actions) if a not in legal)
    first = view["legal_actions"][0]
    second = view["legal_actions"][1] if len(view["legal_actions"]) > 1 else None
    before = {s: api.view(match_id, t) for s, t in tokens.items()}
    cases: list[tuple[dict[str, Any], dict[str, str], str | None, int, str]] = [
        ({"action": {"id": illegal}, "expected_version": version}, {}, tokens[seat], 422, "illegal-action"),
        ({"action": {"id": game.num_actions}, "expected_version": version}, {}, tokens[seat], 422, "invalid-action"),
        ({"action": {"text": "fly to the moon"}, "expected_version": version}, {}, tokens[seat], 422,
         "invalid-action"),
        ({"action": {"json": {"nonsense": True}}, "expected_version": version}, {}, tokens[seat], 422,
         "invalid-action"),
        ({"action": {"id": "1"}, "expected_version": version}, {}, tokens[seat], 422, "validation"),
        ({"action": {}, "expected_version": version}, {}, tokens[seat], 422, "validation"),
        ({"action": 3, "expected_version": version}, {}, tokens[seat], 422, "validation"),
        ({"expected_version": version}, {}, tokens[seat], 422, "validation"),
        ({"action": {"id": first["id"]}, "expected_version": "0"}, {}, tokens[seat], 422, "validation"),
        ({"action": {"id": first["id"]}, "expected_version": version, "seat": (seat + 1) % len(tokens) if
          len(tokens) > 1 else 7}, {}, tokens[seat], 403, "forbidden-seat"),
        ({"action": {"id": first["id"]}}, {}, tokens[seat], 428, "version-required"),
        ({"action": {"id": first["id"]}, "expected_version": version + 1}, {}, tokens[seat], 409, "stale-version"),
        ({"action": {"id": first["id"]}}, {"If-Match": f'"{version + 3}"'}, tokens[seat], 412, "stale-version"),
        ({"action": {"id": first["id"]}}, {"If-Match": "yesterday"}, tokens[seat], 422, "validation"),
        # one version, quoted whole or not at all, of expected_version's range (REST review: '"7' was taken, and
        # '"9999999999"' was a 412 where the same expected_version is a 422); '*' and lists name no version
        ({"action": {"id": first["id"]}}, {"If-Match": f'"{version}'}, tokens[seat], 422, "validation"),
        ({"action": {"id": first["id"]}}, {"If-Match": '"9999999999"'}, tokens[seat], 422, "validation"),
        ({"action": {"id": first["id"]}}, {"If-Match": "*"}, tokens[seat], 422, "validation"),
        ({"action": {"id": first["id"]}}, {"If-Match": f'"{version}", "{version + 1}"'}, tokens[seat], 422,
         "validation"),
        ({"action": {"id": first["id"]}, "expected_version": version}, {}, None, 401, "invalid-token"),
        ({"action": {"id": first["id"]}, "expected_version": version}, {}, "not-a-token", 401, "invalid-token"),
        ({"action": {"id": first["id"]}, "expected_version": version}, {"Idempotency-Key": "x" * 300},
         tokens[seat], 422, "validation"),
    ]
    if second is not None:
        cases.append(({"action": {"id": first["id"], "text": second["text"]}, "expected_version": version}, {},
                      tokens[seat], 422, "validation"))
    other = waiting_seat(view, tokens)
    if other is not None:
        cases.append(({"action": {"id": first["id"]}, "expected_version": version}, {}, tokens[other], 409,
                      "not-your-turn"))
    for body, headers, token, status, problem in cases:
        resp = api.post(f"/v1/matches/{match_id}/moves", json=body, headers=headers, token=token)
        assert (resp.status_code, code(resp)) == (status, problem), (body, resp.get_json())
    resp = api.post("/v1/matches/nope/moves", json={"action": {"id": 0}, "expected_version": 0}, token="x")
    assert code(resp) == "not-found"
    after = {s: api.view(match_id, t) for s, t in tokens.items()}
    assert after == before
    assert api.app.extensions["robotcore"].store.actions(match_id) == []


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**64), 2**64) | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)
_WRONG_TYPES = st.sampled_from([True, False, 1.0, "1", None, [], {}, 2**64])


def _mostly(valid: Any, invalid: Any) -> Any:
    """``valid`` three times in four (so that whole bodies are often valid), else ``invalid``."""
    return st.tuples(st.booleans(), st.booleans()).flatmap(lambda b: valid if any(b) else invalid)


def _int_around(low: int, high: int) -> Any:
    """Integers in [low, high] mostly, else just out of it, or values of other types."""
    return _mostly(st.integers(low, high) | st.sampled_from([low, high]),
                   st.sampled_from([low - 1, high + 1, -(2**63), 2**63]) | _WRONG_TYPES)


_ACTION_FORMS = {
    "id": _int_around(0, 2**31 - 1),
    "text": _mostly(st.text(min_size=1, max_size=3) | st.just("x" * 200), st.sampled_from(["", "x" * 201])
                    | _WRONG_TYPES),
    "json": _mostly(st.dictionaries(st.text(max_size=3), _JSON_VALUES, max_size=3), _WRONG_TYPES),
}
_ACTION_BODIES = _mostly(st.fixed_dictionaries({}, optional=_ACTION_FORMS),
                         st.fixed_dictionaries({"other": _JSON_VALUES}, optional=_ACTION_FORMS) | _JSON_VALUES)
_MOVE_FIELDS = {"expected_version": _int_around(0, 2**31 - 1), "seat": _int_around(0, 7)}
_MOVE_BODIES = _mostly(
    st.fixed_dictionaries({"action": _ACTION_BODIES}, optional=_MOVE_FIELDS),
    st.fixed_dictionaries({"extra": _JSON_VALUES}, optional={"action": _ACTION_BODIES, **_MOVE_FIELDS})
    | st.fixed_dictionaries({}, optional=_MOVE_FIELDS) | _JSON_VALUES,
)


def _check_plain_agrees(plain: Any, schema: Any, body: Any) -> None:
    """``plain(body)`` (a parser of the plain bodies) accepts only what ``schema`` accepts, with the same result
    (the same dict and the same JSON text); None leaves the body to the schema."""
    fast = plain(body)
    try:
        full = schema.load(body)
    except ValidationError:
        assert fast is None, body
        return
    if fast is not None:
        assert fast == full and json.dumps(fast, sort_keys=True) == json.dumps(full, sort_keys=True)


@settings(max_examples=600, deadline=None)
@given(_MOVE_BODIES)
@example({"action": {"id": 2**31}})
@example({"action": {"id": 2**31 - 1}, "expected_version": 2**31})
@example({"action": {"id": True}, "seat": 0})
@example({"action": {"text": "x" * 201}})
@example({"action": {}, "expected_version": 1})
@example({"action": {"id": 1}, "seat": 8})
@example({"action": {"id": 1}, "seat": -1})
def test_plain_move_bodies_parse_as_the_schema_does(body: Any) -> None:
    """The move endpoint checks plain bodies without marshmallow (schemas.plain_move): whatever it accepts,
    MoveSchema accepts too, with the same result; everything else is left to MoveSchema."""
    _check_plain_agrees(plain_move, MoveSchema(), body)


@settings(max_examples=400, deadline=None)
@given(_MOVE_BODIES, st.none() | _int_around(0, 2**31 - 1) | st.integers(2**64, 2**70))
@example({"action": {"text": "pass \x7f"}, "expected_version": 1}, None)
@example({"action": {"text": "passé R1"}}, 3)
@example({"action": {"id": 2**70}}, None)
@example({"action": {"id": True}}, None)
def test_move_fingerprint_is_the_standard_librarys(body: Any, if_match: Any) -> None:
    """The Idempotency-Key fingerprint of a move, written by orjson for the usual bodies, is the digest of the
    standard library's text (what every stored fingerprint is) for every body the endpoint may meet."""
    from robotcore_api.service import _fingerprint, _move_fingerprint

    for doc in (body, plain_move(body)):
        if isinstance(doc, dict):
            reference = hashlib.sha256(json.dumps({"move": doc, "if_match": if_match}, sort_keys=True,
                                                  separators=(",", ":")).encode()).hexdigest()
            assert _move_fingerprint(doc, if_match) == reference == _fingerprint({"move": doc, "if_match": if_match})


_SEAT_BODIES = _mostly(
    st.fixed_dictionaries({}, optional={"type": st.just("human")})
    | st.fixed_dictionaries({"type": st.just("bot"), "bot": _mostly(st.sampled_from(sorted(BOTS)),
                                                                    st.sampled_from(["", "nobot", "x" * 65]))},
                            optional={"budget_ms": _int_around(0, MAX_BUDGET_MS)}),
    st.fixed_dictionaries({}, optional={"type": st.sampled_from(["human", "bot", "Bot"]) | _WRONG_TYPES,
                                        "bot": st.sampled_from(["random", ""]) | _WRONG_TYPES,
                                        "budget_ms": _int_around(0, MAX_BUDGET_MS), "other": _JSON_VALUES})
    | _JSON_VALUES,
)
_CREATE_FIELDS = {
    "params": _mostly(st.dictionaries(st.text(min_size=1, max_size=3), _JSON_VALUES, max_size=3),
                      st.dictionaries(st.sampled_from(["", "x" * 65]), _JSON_VALUES, min_size=1, max_size=1)
                      | _WRONG_TYPES),
    "seats": _mostly(st.lists(_SEAT_BODIES, min_size=1, max_size=8), st.just([]) | st.lists(
        _SEAT_BODIES, min_size=9, max_size=9) | _WRONG_TYPES),
    "seed": st.none() | _int_around(0, 2**63 - 1),
    "listed": _mostly(st.booleans(), _WRONG_TYPES | st.sampled_from([0, 1])),
}
_CREATE_BODIES = _mostly(
    st.fixed_dictionaries({"game": _mostly(st.sampled_from(GAMES) | st.text(min_size=1, max_size=64),
                                           st.sampled_from(["", "x" * 65]) | _WRONG_TYPES)},
                          optional=_CREATE_FIELDS),
    st.fixed_dictionaries({"extra": _JSON_VALUES}, optional={"game": st.just(GAMES[0]), **_CREATE_FIELDS})
    | st.fixed_dictionaries({}, optional=_CREATE_FIELDS) | _JSON_VALUES,
)


@settings(max_examples=600, deadline=None)
@given(_CREATE_BODIES)
@example({"game": "robotrick", "params": {}, "seats": [{"type": "human"}, {"type": "bot", "bot": "random"}]})
@example({"game": "robotrick", "seats": [{}, {"type": "human", "bot": "random"}]})
@example({"game": "robotrick", "seats": [{"type": "bot"}]})
@example({"game": "robotrick", "seats": [{"type": "bot", "bot": "random", "budget_ms": True}]})
@example({"game": "robotrick", "listed": 1, "seed": None})
@example({"game": "robotrick", "params": {str(i): i for i in range(33)}})
def test_plain_create_bodies_parse_as_the_schema_does(body: Any) -> None:
    """Match creation checks plain bodies without marshmallow (schemas.plain_create): whatever it accepts,
    CreateMatchSchema accepts too, with the same result; everything else is left to CreateMatchSchema."""
    _check_plain_agrees(plain_create, CreateMatchSchema(), body)


def test_plain_create_takes_the_bodies_clients_send() -> None:
    for body in ({"game": "robotrick"}, {"game": "robotrick", "params": {}, "seats": [
                     {"type": "human"}, {"type": "bot", "bot": "random"}, {"type": "bot", "bot": "greedy",
                                                                          "budget_ms": 50}]},
                 {"game": "sparks", "params": {"players": 3}, "seed": 7, "listed": True}):
        assert plain_create(body) == CreateMatchSchema().load(body)


def test_plain_move_takes_the_bodies_clients_send() -> None:
    for body in ({"action": {"id": 3}, "expected_version": 4}, {"action": {"text": "pass R1"}},
                 {"action": {"id": 0, "text": "x", "json": {"type": "pass", "card": "R1"}}, "expected_version": 0,
                  "seat": 7}):
        assert plain_move(body) == MoveSchema().load(body)


def test_move_bodies_that_are_not_plain_get_the_schemas_answers(api: ApiClient) -> None:
    doc, tokens = api.create(GAMES[0], seed=3)
    match_id = doc["match_id"]
    seat, view = acting(api, match_id, tokens)
    path = f"/v1/matches/{match_id}/moves"
    for data, status, problem in [("{not json", 400, "malformed-json"), (b'{"action": "\xff"}', 400, "malformed-json"),
                                  ("[1, 2]", 422, "validation"), ('{"action": {"id": 1.0}}', 422, "validation"),
                                  ('{"action": {"id": 1}, "seat": true}', 422, "validation")]:
        resp = api.post(path, data=data, content_type="application/json", token=tokens[seat])
        assert (resp.status_code, code(resp)) == (status, problem), data
    resp = api.post(path, json={"action": {"id": 1}, "expected_version": view["version"], "spin": 1},
                    token=tokens[seat])
    assert resp.get_json()["errors"] == {"json": {"spin": ["Unknown field."]}}
    assert api.view(match_id, tokens[seat]) == view


def _first_move(api: ApiClient) -> tuple[str, int, str, dict[str, Any]]:
    doc, tokens = api.create(GAMES[0], seed=12)
    match_id = doc["match_id"]
    seat, view = acting(api, match_id, tokens)
    body = {"action": {"id": view["legal_actions"][0]["id"]}, "expected_version": view["version"]}
    return match_id, seat, tokens[seat], body


def test_a_store_failure_on_a_move_is_a_problem(api: ApiClient, monkeypatch: Any) -> None:
    """A move meets a store error: the answer is 503 problem+json with Retry-After, not the WSGI server's bare
    500, and nothing was played."""
    from sqlalchemy.exc import OperationalError

    match_id, seat, token, body = _first_move(api)
    store = api.app.extensions["robotcore"].store

    def locked(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("UPDATE matches", (), Exception("database is locked"))

    monkeypatch.setattr(store, "commit", locked)
    resp = api.client.post(f"/v1/matches/{match_id}/moves", json=body, headers={"Authorization": f"Bearer {token}"})
    assert (resp.status_code, code(resp)) == (503, "unavailable")
    assert resp.headers["Retry-After"] == "1" and resp.mimetype == "application/problem+json"
    monkeypatch.undo()
    assert store.actions(match_id) == [] or all(r.by_bot for r in store.actions(match_id))


def test_a_failure_after_the_commit_is_answered_never_played_twice(api: ApiClient, monkeypatch: Any) -> None:
    """A move fails after committing (here: building the answer): the answer is 500 problem+json, and the
    move is in the log once."""
    import robotcore_api.service as service_module

    match_id, seat, token, body = _first_move(api)
    store = api.app.extensions["robotcore"].store
    before = len([r for r in store.actions(match_id) if not r.by_bot])

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("answer could not be built")

    monkeypatch.setattr(service_module.payloads, "move_result", broken)
    resp = api.client.post(f"/v1/matches/{match_id}/moves", json=body, headers={"Authorization": f"Bearer {token}"})
    monkeypatch.undo()
    assert (resp.status_code, code(resp)) == (500, "internal"), resp.get_data()
    assert resp.mimetype == "application/problem+json"
    assert len([r for r in store.actions(match_id) if not r.by_bot]) == before + 1


def test_a_body_nested_too_deep_is_refused_cleanly(api: ApiClient) -> None:
    match_id, seat, token, _ = _first_move(api)
    deep = b"[" * 30000 + b"]" * 30000
    resp = api.client.post(f"/v1/matches/{match_id}/moves", data=deep, content_type="application/json",
                           headers={"Authorization": f"Bearer {token}"})
    assert 400 <= resp.status_code < 600 and resp.mimetype == "application/problem+json", resp.status


def test_a_move_answer_has_the_same_bytes_from_memory_and_from_the_store(api: ApiClient) -> None:
    """The process that created a match remembers it; another process reads it back. Both word the same
    answer to the same request (here: the first answer and its Idempotency-Key retry, rebuilt from the store)."""
    match_id, seat, token, body = _first_move(api)
    headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": new_key()}
    first = api.client.post(f"/v1/matches/{match_id}/moves", json=body, headers=headers)
    again = api.client.post(f"/v1/matches/{match_id}/moves", json=body, headers=headers)
    assert first.status_code == again.status_code == 200
    assert first.get_data() == again.get_data()


def test_stale_answer_carries_the_current_version(api: ApiClient) -> None:
    doc, tokens = api.create(GAMES[0], seed=2)
    match_id = doc["match_id"]
    seat, view = acting(api, match_id, tokens)
    assert api.move(match_id, tokens[seat], {"id": view["legal_actions"][0]["id"]}, view["version"]).status_code == 200
    resp = api.move(match_id, tokens[seat], {"id": view["legal_actions"][0]["id"]}, view["version"])
    assert code(resp) == "stale-version" and resp.get_json()["current_version"] >= view["version"] + 1


def test_if_match_is_accepted(api: ApiClient) -> None:
    doc, tokens = api.create(GAMES[0], seed=4)
    match_id = doc["match_id"]
    seat, _ = acting(api, match_id, tokens)
    resp = api.get(f"/v1/matches/{match_id}", token=tokens[seat])
    etag = resp.headers["ETag"]
    action = resp.get_json()["legal_actions"][0]
    moved = api.post(f"/v1/matches/{match_id}/moves", json={"action": {"id": action["id"]}},
                     headers={"If-Match": etag}, token=tokens[seat])
    assert moved.status_code == 200, moved.get_json()
    weak = api.get(f"/v1/matches/{match_id}", token=tokens[seat])
    if weak.get_json()["to_act"]:
        moved = api.post(f"/v1/matches/{match_id}/moves",
                         json={"action": {"id": weak.get_json()["legal_actions"][0]["id"]}},
                         headers={"If-Match": "W/" + weak.headers["ETag"]}, token=tokens[seat])
        assert moved.status_code == 200


def test_idempotency_key(api: ApiClient) -> None:
    doc, tokens = api.create(GAMES[0], seed=6)
    match_id = doc["match_id"]
    seat, view = acting(api, match_id, tokens)
    key = new_key()
    action = {"id": view["legal_actions"][0]["id"]}
    first = api.move(match_id, tokens[seat], action, view["version"], headers={"Idempotency-Key": key})
    assert first.status_code == 200 and "Idempotent-Replayed" not in first.headers
    again = api.move(match_id, tokens[seat], action, view["version"], headers={"Idempotency-Key": key})
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()
    store = api.app.extensions["robotcore"].store
    assert len([r for r in store.actions(match_id) if not r.by_bot]) == 1
    # the same key for another request is refused; the key is per seat and match
    other = api.move(match_id, tokens[seat], {"id": view["legal_actions"][-1]["id"]}, view["version"] + 1,
                     headers={"Idempotency-Key": key})
    assert (other.status_code, code(other)) == (409, "idempotency-key-reuse")
    # later moves do not change the answer a retry gets: it is the original one, rebuilt from the log
    seat2, view2 = acting(api, match_id, tokens)
    assert api.move(match_id, tokens[seat2], {"id": view2["legal_actions"][0]["id"]},
                    view2["version"]).status_code == 200
    late = api.move(match_id, tokens[seat], action, view["version"], headers={"Idempotency-Key": key})
    assert late.status_code == 200 and late.get_json() == first.get_json()


def test_moves_after_the_end(api: ApiClient) -> None:
    name = GAMES[0]
    game = robotcore.load_game(name)
    seats = [{"type": "human"}] + [{"type": "bot", "bot": "random"}] * (game.num_players - 1)
    doc, tokens = api.create(name, seats=seats, seed=1)
    match_id = doc["match_id"]
    view = api.view(match_id, tokens[0])
    while view["status"] != "finished":
        resp = api.move(match_id, tokens[0], {"id": view["legal_actions"][0]["id"]}, view["version"])
        view = resp.get_json()["match"]
    resp = api.move(match_id, tokens[0], {"id": 0}, view["version"])
    assert (resp.status_code, code(resp)) == (409, "game-over")
    resp = api.post(f"/v1/matches/{match_id}/bot-move", json={"bot": "random"}, token=tokens[0])
    assert (resp.status_code, code(resp)) == (409, "game-over")
    assert view["outcome"] == robotcore.load_game(name).replay(
        api.get(f"/v1/matches/{match_id}/log").get_json()["reveal"]["seed"],
        [(e["seat"], e["action"]["id"]) for e in api.get(f"/v1/matches/{match_id}/log").get_json()["entries"]],
    ).outcome().to_json()


# -- simultaneous phases ------------------------------------------------------------------------------------------


def _simultaneous(name: str) -> int | None:
    """A seed whose game starts with several seats to act (None: the game has no such opening)."""
    for seed in range(5):
        if len(robotcore.make(name, seed=seed).actors) > 1:
            return seed
    return None


@pytest.mark.parametrize("name", GAMES)
def test_simultaneous_commitments_in_any_order(api: ApiClient, name: str) -> None:
    seed = _simultaneous(name)
    if seed is None:
        pytest.skip(f"{name} does not open with a simultaneous phase")
    game = robotcore.load_game(name)
    doc, tokens = api.create(name, seed=seed)
    match_id = doc["match_id"]
    version = doc["version"]
    views = {s: api.view(match_id, tokens[s]) for s in doc["match"]["actors"]}
    first, second = sorted(views, reverse=True)[:2]           # commit out of seat order
    a = views[first]["legal_actions"][0]
    assert api.move(match_id, tokens[first], {"id": a["id"]}, version).status_code == 200
    # the second seat chose at the same version; the first seat's commitment is hidden from it, so its
    # move is not stale (unless that commitment was public)
    b = views[second]["legal_actions"][0]
    resp = api.move(match_id, tokens[second], {"id": b["id"]}, version)
    if game.is_public_action(a["id"]):
        assert code(resp) == "stale-version"
    else:
        assert resp.status_code == 200, resp.get_json()
        # ... but the same seat cannot play twice on the same version
        again = api.move(match_id, tokens[first], {"id": views[first]["legal_actions"][-1]["id"]}, version)
        assert again.status_code in (409, 422)
    # the others never see the first seat's choice in their view while the phase is on
    spectator = api.view(match_id)
    if first in spectator["actors"] or second in spectator["actors"]:
        state = game.new_initial_state(seed)
        state.apply(a["id"], first)
        assert api.view(match_id, tokens[second])["view"]["seat"] == second


# -- events (long-poll) -------------------------------------------------------------------------------------------


def test_events_long_poll(api: ApiClient) -> None:
    import threading

    doc, tokens = api.create(GAMES[0], seed=8)
    match_id = doc["match_id"]
    seat, view = acting(api, match_id, tokens)
    version = view["version"]
    now = api.get(f"/v1/matches/{match_id}/events?after={version}&wait=0").get_json()
    assert now["events"] == [] and now["version"] == version and now["match"]["seat"] is None
    start = time.monotonic()
    none = api.get(f"/v1/matches/{match_id}/events?after={version}&wait=0.3").get_json()
    assert none["events"] == [] and time.monotonic() - start >= 0.25
    # a waiting spectator wakes up as soon as the seat moves
    watcher: dict[str, Any] = {}

    def watch() -> None:
        t0 = time.monotonic()
        resp = api.app.test_client().get(f"/v1/matches/{match_id}/events?after={version}&wait=20")
        watcher["elapsed"] = time.monotonic() - t0
        watcher["body"] = resp.get_json()

    thread = threading.Thread(target=watch)
    thread.start()
    time.sleep(0.3)
    chosen = view["legal_actions"][0]["id"]
    assert api.move(match_id, tokens[seat], {"id": chosen}, version).status_code == 200
    thread.join(25)
    assert watcher["elapsed"] < 5
    events = watcher["body"]["events"]
    assert events[0]["version"] == version + 1 and events[0]["seat"] == seat
    game = robotcore.load_game(GAMES[0])
    assert events[0]["hidden"] == (not game.is_public_action(chosen))
    mine = api.get(f"/v1/matches/{match_id}/events?after={version}", token=tokens[seat]).get_json()
    assert mine["events"][0]["action"]["id"] == chosen and not mine["events"][0]["hidden"]


@pytest.mark.parametrize("query", ["after=-1", "after=abc", "wait=100", "wait=-1", "wait=x", "after=99",
                                   "after=%EF%BC%90", "after=%C2%B2", "after=0_0", "after=+0", "wait=nan", "wait=1_0",
                                   "wait=%201"])
def test_events_bad_query(api: ApiClient, query: str) -> None:
    doc, _ = api.create(GAMES[0])
    resp = api.get(f"/v1/matches/{doc['match_id']}/events?{query}")
    assert (resp.status_code, code(resp)) == (422, "validation")


# -- bot moves ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("bot", sorted(BOTS))
def test_bot_move_propose_and_play(api: ApiClient, name: str, bot: str) -> None:
    doc, tokens = api.create(name, seed=11)
    match_id = doc["match_id"]
    seat, view = acting(api, match_id, tokens)
    budget = 30 if bot == "montecarlo" else None
    body: dict[str, Any] = {"bot": bot, "seed": 1}
    if budget:
        body["budget_ms"] = budget
    start = time.monotonic()
    proposed = api.post(f"/v1/matches/{match_id}/bot-move", json=body, token=tokens[seat])
    assert proposed.status_code == 200, proposed.get_json()
    if bot == "montecarlo":
        assert time.monotonic() - start >= budget / 1000
    p = proposed.get_json()
    assert not p["played"] and p["match"] is None and p["version"] == view["version"]
    assert p["action"] in view["legal_actions"]
    assert api.view(match_id)["version"] == view["version"]
    played = api.post(f"/v1/matches/{match_id}/bot-move", json={**body, "play": True}, token=tokens[seat],
                      headers={"Idempotency-Key": "bot-1"})
    assert played.status_code == 200, played.get_json()
    q = played.get_json()
    assert q["played"] and q["version"] == view["version"] + 1 and q["match"]["version"] >= q["version"]
    again = api.post(f"/v1/matches/{match_id}/bot-move", json={**body, "play": True}, token=tokens[seat],
                     headers={"Idempotency-Key": "bot-1"})
    assert again.get_json() == q and again.headers["Idempotent-Replayed"] == "true"


def test_bot_move_bad_input(api: ApiClient) -> None:
    doc, tokens = api.create(GAMES[0], seed=11)
    match_id = doc["match_id"]
    seat, view = acting(api, match_id, tokens)
    url = f"/v1/matches/{match_id}/bot-move"
    for body, status, problem in [
        ({"bot": "oracle"}, 422, "validation"),
        ({"budget_ms": MAX_BUDGET_MS + 1}, 422, "validation"),
        ({"budget_ms": -5}, 422, "validation"),
        ({"play": "yes"}, 422, "validation"),
        ({"expected_version": view["version"] + 5, "play": True}, 409, "stale-version"),
        ({"expected_version": view["version"] + 5}, 409, "stale-version"),     # a version not reached yet
    ]:
        resp = api.post(url, json=body, token=tokens[seat])
        assert (resp.status_code, code(resp)) == (status, problem), body
    ahead = api.post(url, json={}, token=tokens[seat], headers={"If-Match": f'"{view["version"] + 1}"'})
    assert (ahead.status_code, code(ahead)) == (412, "stale-version")
    assert code(api.post(url, json={})) == "invalid-token"
    other = waiting_seat(view, tokens)
    if other is not None:
        assert code(api.post(url, json={}, token=tokens[other])) == "not-your-turn"


# -- log ----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_log_redacts_until_the_end_then_reveals(api: ApiClient, name: str) -> None:

    game = robotcore.load_game(name)
    doc, tokens = api.create(name, seed=21)
    match_id = doc["match_id"]
    rng = random.Random(0)
    played: list[tuple[int, int]] = []
    checked_midgame = False
    while True:
        spectator = api.view(match_id)
        if spectator["status"] == "finished":
            break
        seat = rng.choice(spectator["actors"])
        view = api.view(match_id, tokens[seat])
        action = rng.choice(view["legal_actions"])["id"]
        assert api.move(match_id, tokens[seat], {"id": action}, view["version"]).status_code == 200
        played.append((seat, action))
        if not checked_midgame and any(not game.is_public_action(a) for _, a in played):
            checked_midgame = True
            for viewer in [None, *tokens]:
                log = api.get(f"/v1/matches/{match_id}/log",
                              token=None if viewer is None else tokens[viewer]).get_json()
                assert log["reveal"] is None and log["outcome"] is None and log["status"] == "active"
                for entry, (s, a) in zip(log["entries"], played):
                    visible = s == viewer or game.is_public_action(a)
                    assert entry["hidden"] == (not visible)
                    assert entry["action"] == (payloads.action(game, a) if visible else None)
    log = api.get(f"/v1/matches/{match_id}/log").get_json()
    assert [(e["seat"], e["action"]["id"]) for e in log["entries"]] == played
    assert not any(e["hidden"] for e in log["entries"])
    final = game.replay(21, played)
    assert log["reveal"]["seed"] == 21 and log["reveal"]["final_state"] == game.omniscient_view(final)
    assert log["outcome"] == final.outcome().to_json()
    assert api.app.extensions["robotcore"].verify_replay(match_id)


# -- the stateless engine -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_engine_endpoints_follow_the_library(api: ApiClient, name: str) -> None:

    rng = random.Random(3)
    info = api.post(f"/v1/games/{name}/engine/new", json={"seed": 77}).get_json()
    state = robotcore.make(name, seed=77)
    assert base64.b64decode(info["state"]) == state.to_bytes()
    steps = 0
    while not state.is_terminal and steps < 40:
        seat = rng.choice(state.actors)
        inspect = api.post(f"/v1/games/{name}/engine/inspect", json={"state": info["state"], "seat": seat})
        got = inspect.get_json()
        assert [a["id"] for a in got["legal_actions"][0]["actions"]] == state.legal_actions(seat)
        assert got["view"] == state.view(seat) and got["scores"] == state.scores()
        action = rng.choice(state.legal_actions(seat))
        info = api.post(f"/v1/games/{name}/engine/apply",
                        json={"state": info["state"], "seat": seat, "action": {"id": action}}).get_json()
        state.apply(action, seat)
        assert base64.b64decode(info["state"]) == state.to_bytes()
        steps += 1
    every = api.post(f"/v1/games/{name}/engine/inspect", json={"state": info["state"]}).get_json()
    assert [x["seat"] for x in every["legal_actions"]] == state.actors


def test_engine_bad_input(api: ApiClient) -> None:
    name = GAMES[0]
    state = robotcore.make(name, seed=1)
    good = base64.b64encode(state.to_bytes()).decode()
    corrupt = bytearray(state.to_bytes())
    corrupt[-1] ^= 0xFF
    for path, body, status, problem in [
        ("inspect", {"state": "%%%"}, 422, "invalid-state"),
        ("inspect", {"state": base64.b64encode(b"robotcore?").decode()}, 422, "invalid-state"),
        ("inspect", {"state": base64.b64encode(bytes(corrupt)).decode()}, 422, "invalid-state"),
        ("inspect", {"state": good, "seat": 9}, 422, "validation"),
        ("inspect", {"state": good, "seat": 5 if state.num_players <= 5 else 7}, 422, "validation"),
        ("inspect", {}, 422, "validation"),
        ("inspect", {"state": 5}, 422, "validation"),
        ("apply", {"state": good, "action": {"id": 10**6}}, 422, "invalid-action"),
        ("apply", {"state": good}, 422, "validation"),
        ("new", {"params": {"nope": 1}}, 422, "invalid-parameter"),
        ("new", {"seed": "x"}, 422, "validation"),
    ]:
        resp = api.post(f"/v1/games/{name}/engine/{path}", json=body)
        assert (resp.status_code, code(resp)) == (status, problem), (path, body, resp.get_json())
    assert code(api.post("/v1/games/nope/engine/inspect", json={"state": good})) == "not-found"
    legal = set(state.legal_actions(state.actors[0]))
    illegal = next(a for a in range(state.game.num_actions) if a not in legal)
    resp = api.post(f"/v1/games/{name}/engine/apply",
                    json={"state": good, "seat": state.actors[0], "action": {"id": illegal}})
    assert code(resp) == "illegal-action"
    waiting = next((s for s in range(state.num_players) if s not in state.actors), None)
    if waiting is not None:
        resp = api.post(f"/v1/games/{name}/engine/apply",
                        json={"state": good, "seat": waiting, "action": {"id": sorted(legal)[0]}})
        assert code(resp) == "not-your-turn"
    end = state.clone()

    rng = random.Random(0)
    while not end.is_terminal:
        s = rng.choice(end.actors)
        end.apply(rng.choice(end.legal_actions(s)), s)
    final = base64.b64encode(end.to_bytes()).decode()
    resp = api.post(f"/v1/games/{name}/engine/apply", json={"state": final, "action": {"id": 0}})
    assert code(resp) == "game-over"
    scored = api.post(f"/v1/games/{name}/engine/inspect", json={"state": final}).get_json()
    assert scored["outcome"] == end.outcome().to_json() and scored["returns"] == end.returns()


@pytest.mark.skipif(len(GAMES) < 2, reason="needs two registered games")
def test_engine_refuses_another_games_state(api: ApiClient) -> None:
    state = robotcore.make(GAMES[1], seed=1)
    resp = api.post(f"/v1/games/{GAMES[0]}/engine/inspect",
                    json={"state": base64.b64encode(state.to_bytes()).decode()})
    assert code(resp) == "invalid-state"


@pytest.mark.parametrize("name", GAMES)
def test_slow_bot_seats_play_after_the_move(api: ApiClient, name: str) -> None:
    """A bot seat with a large time budget is not batched with the move that makes it due: the move is
    committed first, then the bot plays before the answer; a retry still gets that same answer."""
    from robotcore_api.service import QUICK_BOT_MS

    game = robotcore.load_game(name)
    seats = [{"type": "human"}] + [{"type": "bot", "bot": "montecarlo", "budget_ms": QUICK_BOT_MS + 5}] * (
        game.num_players - 1)
    doc, tokens = api.create(name, seats=seats, seed=4)
    match_id = doc["match_id"]
    store = api.app.extensions["robotcore"].store
    view = api.view(match_id, tokens[0])
    for _ in range(3):
        if view["status"] == "finished":
            break
        key = new_key()
        action = {"id": view["legal_actions"][0]["id"]}
        first = api.move(match_id, tokens[0], action, view["version"], headers={"Idempotency-Key": key})
        assert first.status_code == 200, first.get_json()
        answer = first.get_json()["match"]
        assert answer["status"] == "finished" or 0 in answer["actors"]     # the bots have played
        again = api.move(match_id, tokens[0], action, view["version"], headers={"Idempotency-Key": key})
        assert again.get_json() == first.get_json()
        view = answer
    assert api.app.extensions["robotcore"].verify_replay(match_id)
    assert all(r.by_bot == (r.seat != 0) for r in store.actions(match_id))
