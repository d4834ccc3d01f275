"""The service's limits as settings: rate limits (api/ratelimit.py) per client address and per seat token, as
problem+json 429 with Retry-After, counted on every path, off unless configured; the
longest bot think; the bot pool (503 bots-busy when it is full). A refused request
changes nothing."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from robotcore_api.app import create_app
from robotcore_api.client import Client
from robotcore_api.service import Settings

from .conftest import ApiClient, database_url, make_api


def limited(tmp_path: Path, schema: Any, **limits: Any) -> ApiClient:
    return make_api(database_url("sqlite", tmp_path), schema, **limits)


def assert_429(resp: Any) -> None:
    assert resp.status_code == 429 and resp.mimetype == "application/problem+json"
    body = resp.get_json()
    assert body["code"] == "rate-limited" and body["status"] == 429
    assert int(resp.headers["Retry-After"]) >= 1


def test_per_address_limit(tmp_path: Path, openapi_schema: Any) -> None:
    api = limited(tmp_path, openapi_schema, rate_limit_address="4/minute")
    for _ in range(4):
        assert api.get("/v1/health").status_code == 200
    assert_429(api.get("/v1/health"))
    assert_429(api.get("/v1/games"))                          # every path of that address
    other = api.client.get("/v1/health", environ_base={"REMOTE_ADDR": "10.1.2.3"})
    assert other.status_code == 200                           # another address has its own count


def test_behind_a_proxy_the_address_is_the_forwarded_one(tmp_path: Path, openapi_schema: Any) -> None:
    """Behind a reverse proxy every client had the proxy's address, so one bucket for all (REST review):
    ``proxy_hops`` reads it from X-Forwarded-For, that many entries from its end; without it, nothing a client
    sends changes its address."""
    api = limited(tmp_path, openapi_schema, rate_limit_address="2/minute", proxy_hops=1)
    for client in ("203.0.113.7", "203.0.113.8"):
        for _ in range(2):
            assert api.get("/v1/health", headers={"X-Forwarded-For": f"198.51.100.1, {client}"}).status_code == 200
    assert_429(api.get("/v1/health", headers={"X-Forwarded-For": "203.0.113.7"}))
    (tmp_path / "direct").mkdir()
    direct = limited(tmp_path / "direct", openapi_schema, rate_limit_address="2/minute")
    for client in ("203.0.113.7", "203.0.113.8"):
        direct.get("/v1/health", headers={"X-Forwarded-For": client})
    assert_429(direct.get("/v1/health", headers={"X-Forwarded-For": "203.0.113.9"}))


def test_per_token_limit_counts_moves_and_a_refused_move_changes_nothing(
        tmp_path: Path, openapi_schema: Any) -> None:
    api = limited(tmp_path, openapi_schema, rate_limit_token="3/minute")
    created, tokens = api.create("nicodemus", seats=[{"type": "human"}, {"type": "human"}], seed=3)
    match_id = created["match_id"]
    actor = api.view(match_id)["actors"][0]                    # a spectator: no token to count
    token = tokens[actor]
    api.view(match_id, token)                                  # 1
    view = api.view(match_id, token)                           # 2
    action = view["legal_actions"][0]
    assert api.move(match_id, token, {"id": action["id"]}, view["version"]).status_code == 200  # 3
    refused = api.move(match_id, token, {"id": 0}, view["version"] + 1)
    assert_429(refused)
    assert api.view(match_id).get("version") == view["version"] + 1      # the refused move changed nothing
    other = tokens[1 - actor]
    assert api.view(match_id, other)["version"] == view["version"] + 1   # another token: its own count
    assert api.get(f"/v1/matches/{match_id}").status_code == 200         # spectators: no token limit


def test_no_limit_unless_configured_and_bad_limits_refused(tmp_path: Path, openapi_schema: Any) -> None:
    api = make_api(database_url("sqlite", tmp_path), openapi_schema)
    assert "robotcore_rate_limits" not in api.app.extensions
    for _ in range(50):
        assert api.get("/v1/health").status_code == 200
    with pytest.raises(ValueError, match="ROBOTCORE_RATE_LIMIT_TOKEN"):
        create_app(settings=Settings(database_url=database_url("sqlite", tmp_path), rate_limit_token="lots"))


def test_an_unknown_counter_store_is_refused_at_start(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="ROBOTCORE_RATE_LIMIT_STORAGE"):
        create_app(settings=Settings(database_url=database_url("sqlite", tmp_path), rate_limit_address="5/second",
                                     rate_limit_storage="nosuch://here"))


@pytest.mark.skipif(sys.platform == "win32", reason="gunicorn runs on POSIX only")
def test_limits_under_gunicorn_count_in_each_worker_and_start_without_a_traceback(tmp_path: Path) -> None:
    """The counters are made by each worker at its first request: made with the app in gunicorn's master, a
    memory store's expiry timer went into every forked worker and failed there (a KeyError traceback in the
    log at each start)."""
    from .test_live import LiveServer

    srv = LiveServer(f"sqlite:///{tmp_path / 'limits.db'}", tmp_path, workers=1,
                     ROBOTCORE_RATE_LIMIT_ADDRESS="1000/minute").start()
    try:
        client = Client(srv.url, retries=0)
        statuses = [client.request("GET", "/v1/health")[0] for _ in range(5)]
        time.sleep(0.5)                              # (the failing timer ran 10 ms after the worker started)
    finally:
        srv.stop()
    assert statuses == [200] * 5
    log = (tmp_path / f"gunicorn-{srv.port}.log").read_text()
    assert "Booting worker" in log and "Traceback" not in log and "KeyError" not in log, log


def test_bot_budgets_over_the_setting_are_refused(tmp_path: Path, openapi_schema: Any) -> None:
    api = make_api(database_url("sqlite", tmp_path), openapi_schema, max_budget_ms=100)
    resp = api.post("/v1/matches", json={"game": "nicodemus", "seats": [
        {"type": "human"}, {"type": "bot", "bot": "montecarlo", "budget_ms": 200}]})
    assert resp.status_code == 422 and resp.get_json()["errors"] == {"json": {"seats": {"1": {"budget_ms": ["at most 100"]}}}}
    created, tokens = api.create("nicodemus", seats=[{"type": "human"}, {"type": "human"}], seed=1)
    match_id = created["match_id"]
    token = tokens[api.view(match_id)["actors"][0]]
    resp = api.post(f"/v1/matches/{match_id}/bot-move", json={"bot": "montecarlo", "budget_ms": 101}, token=token)
    assert resp.status_code == 422 and resp.get_json()["code"] == "validation"
    assert api.post(f"/v1/matches/{match_id}/bot-move", json={"bot": "montecarlo", "budget_ms": 100},
                    token=token).status_code == 200


def test_bot_moves_beyond_the_thinking_slots_are_bots_busy(tmp_path: Path, openapi_schema: Any,
                                                            caplog: pytest.LogCaptureFixture) -> None:
    api = make_api(database_url("sqlite", tmp_path), openapi_schema, bot_think_slots=1, bot_queue=0)
    created, tokens = api.create("nicodemus", seats=[{"type": "human"}, {"type": "human"}], seed=1)
    match_id = created["match_id"]
    token = tokens[api.view(match_id)["actors"][0]]
    version = api.view(match_id)["version"]
    answers: list[Any] = []

    def think() -> None:
        answers.append(api.app.test_client().post(
            f"/v1/matches/{match_id}/bot-move", json={"bot": "montecarlo", "budget_ms": 1500, "play": True},
            headers={"Authorization": f"Bearer {token}"}))

    first = threading.Thread(target=think)
    first.start()
    time.sleep(0.4)                                        # the first one is thinking now
    busy = api.post(f"/v1/matches/{match_id}/bot-move", json={"bot": "montecarlo", "budget_ms": 100, "play": True},
                    token=token)
    # a quick bot does not queue behind searches (REST review: a pool kept full, by abandoned requests too,
    # refused every bot-move, even random's, which needs no thinking): it is answered as a quick bot seat is
    quick = api.post(f"/v1/matches/{match_id}/bot-move", json={"bot": "random"}, token=token)
    first.join(30)
    assert busy.status_code == 503 and busy.get_json()["code"] == "bots-busy" and busy.headers["Retry-After"] == "1"
    assert quick.status_code == 200, quick.get_json()
    # a planned refusal, not an internal error: nothing logged as one
    assert not [r for r in caplog.records if "internal error" in r.getMessage()]
    assert answers and answers[0].status_code == 200
    assert api.view(match_id)["version"] == version + 1    # the refused one played nothing
    # the slot is free again
    token = tokens[api.view(match_id)["actors"][0]]
    assert api.post(f"/v1/matches/{match_id}/bot-move", json={"bot": "random"}, token=token).status_code == 200


def test_an_unplanned_exception_is_a_logged_internal_error(tmp_path: Path, openapi_schema: Any,
                                                           caplog: pytest.LogCaptureFixture,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    api = make_api(database_url("sqlite", tmp_path), openapi_schema)
    created, _tokens = api.create("nicodemus", seats=[{"type": "human"}, {"type": "human"}], seed=1)

    def broken(*_a: Any, **_k: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(api.app.extensions["robotcore"], "load", broken)
    resp = api.app.test_client().get(f"/v1/matches/{created['match_id']}")
    assert resp.status_code == 500 and resp.get_json()["code"] == "internal"
    assert [r for r in caplog.records if r.levelname == "ERROR" and "internal error" in r.getMessage()]


def test_the_longest_think_grows_with_a_raised_work_limit() -> None:
    """A match whose bot seat has not moved for longer than a think may take is taken up elsewhere: an
    operator who raises a work limit makes thinks longer, and so that wait; more threads do not."""
    assert Settings("sqlite://").longest_think_s() == 10.0                            # the 10 s budget
    assert Settings("sqlite://", max_budget_ms=1000).longest_think_s() == 5.0         # WORK_BOUND_MS
    assert Settings("sqlite://", max_budget_ms=1000, bot_option_limits={"iterations": 400_000}).longest_think_s() \
        == 20.0
    assert Settings("sqlite://", max_budget_ms=1000, bot_option_limits={"threads": 8}).longest_think_s() == 5.0
    limits = Settings("sqlite://", max_budget_ms=1000, bot_option_limits={"ms": 50, "depth": 3}).bot_limits()
    assert (limits["ms"], limits["depth"], limits["iterations"]) == (50, 3, 100_000)
    assert Settings("sqlite://", max_budget_ms=1000, bot_option_limits={"ms": 5000}).bot_limits()["ms"] == 1000


def test_a_time_budget_stands_in_for_the_default_iterations_and_obeys_the_ms_cap(tmp_path: Path,
                                                                                 openapi_schema: Any) -> None:
    """With iterations capped, a search bot given a time budget (ms in its spec, or the seat's budget_ms) is
    bounded by that budget, not by its default iterations; and a lowered ms cap holds budget_ms too."""
    api = make_api(database_url("sqlite", tmp_path), openapi_schema,
                   bot_option_limits={"iterations": 50, "ms": 200})
    human = {"type": "human"}

    def create(seat: dict[str, Any]) -> Any:
        return api.post("/v1/matches", json={"game": "nicodemus", "seats": [human, seat]})

    assert create({"type": "bot", "bot": "mcts:ms=100"}).status_code == 201
    assert create({"type": "bot", "bot": "mcts", "budget_ms": 100}).status_code == 201
    assert create({"type": "bot", "bot": "mcts:iterations=51,ms=100"}).status_code == 422      # given: checked
    refused = create({"type": "bot", "bot": "mcts", "budget_ms": 201})
    assert refused.status_code == 422 and "at most 200 ms" in refused.get_json()["detail"], refused.get_json()
    assert "up to 200" in create({"type": "bot", "bot": "mcts:ms=201"}).get_json()["detail"]
    # an option the bot does not take is the bot's to refuse, whatever the caps of other bots
    assert "has no option playouts" in create({"type": "bot", "bot": "mcts:playouts=5000,ms=100"}).get_json()["detail"]
    doc, tokens = api.create("nicodemus", seats=[human, {"type": "bot", "bot": "random"}], seed=2)
    view = api.view(doc["match_id"], tokens[0])
    if 0 in view["actors"]:
        resp = api.post(f"/v1/matches/{doc['match_id']}/bot-move", token=tokens[0],
                        json={"bot": "mcts", "budget_ms": 20})
        assert resp.status_code == 200, resp.get_json()
        resp = api.post(f"/v1/matches/{doc['match_id']}/bot-move", token=tokens[0],
                        json={"bot": "mcts", "budget_ms": 500})
        assert resp.status_code == 422, resp.get_json()


def test_custom_bot_option_limits_merge_over_the_defaults(tmp_path: Path, openapi_schema: Any) -> None:
    api = make_api(database_url("sqlite", tmp_path), openapi_schema, bot_option_limits={"iterations": 50})
    seats = [{"type": "human"}, {"type": "bot", "bot": "random"}, {"type": "bot", "bot": "random"}]

    def refused(spec: str) -> str:
        resp = api.post("/v1/matches", json={"game": "robotrick", "seats": [*seats[:2], {"type": "bot", "bot": spec}]})
        assert resp.status_code == 422, resp.get_json()
        return str(resp.get_json()["detail"])

    assert "this server allows iterations up to 50, got 51" in refused("mcts:iterations=51")
    assert "this server allows threads up to 1, got 2" in refused("ismcts:threads=2")  # a default not renamed
    # a bot's default counts as much as a value given: mcts's 1000 iterations pass no cap of 50
    assert "this server allows iterations up to 50, got 1000 (its default)" in refused("mcts")
    assert "this server allows iterations up to 50, got 1000 (its default)" in refused("mcts:c=0.5")
    listed = {b["name"]: {o["name"]: o["max"] for o in b["options"]} for b in api.get("/v1/bots").get_json()["bots"]}
    assert listed["mcts"]["iterations"] == 50 and listed["mcts"]["threads"] == 1


def test_a_stored_bot_seat_that_no_longer_builds_is_played_by_random(caplog: pytest.LogCaptureFixture) -> None:
    """A seat's spec was checked when its match was made; should a later version refuse it (an option renamed),
    the seat still moves (random's choice, logged) rather than leaving its match stuck for ever."""
    import robotcore
    from robotcore.bots import make_bot
    from robotcore_api.service import _seat_move
    from robotcore_api.store import SeatSpec

    state = robotcore.make("nicodemus", seed=4)
    seat = state.current_player
    with caplog.at_level("WARNING", logger="robotcore_api"):
        action = _seat_move(SeatSpec("bot", bot="mcts:iterations=20,renamed=1"), state, seat, 77, "m1")
    assert action == make_bot("random", seed=77).choose(state, seat)
    assert any("m1" in r.getMessage() and "renamed" in r.getMessage() for r in caplog.records)
    # a spec that builds is its bot's choice
    assert _seat_move(SeatSpec("bot", bot="mcts:iterations=20"), state, seat, 77, "m1") == \
        make_bot("mcts:iterations=20", seed=77).choose(state, seat)


def test_a_retry_sent_while_the_original_waits_for_its_bots_answers_as_the_original(
        tmp_path: Path, openapi_schema: Any) -> None:
    """A move whose slow bot seat thinks on the pool: its answer waits for that bot (bot_inline_s), and only then
    stores the version it shows. A retry with the same Idempotency-Key sent meanwhile answered the version
    before the bot's move (REST review); it waits as the original does and gives the same answer."""
    api = make_api(database_url("sqlite", tmp_path), openapi_schema)
    created, tokens = api.create("nicodemus", seats=[{"type": "human"}, {"type": "bot", "bot": "montecarlo",
                                                                          "budget_ms": 800}], seed=2)
    match_id = created["match_id"]
    view = api.view(match_id, tokens[0])
    while not view["to_act"]:
        time.sleep(0.05)
        view = api.view(match_id, tokens[0])
    body = {"action": {"id": view["legal_actions"][0]["id"]}, "expected_version": view["version"]}
    headers = {"Authorization": f"Bearer {tokens[0]}", "Idempotency-Key": "retry-while-waiting"}
    answers: dict[str, Any] = {}

    def send(name: str) -> None:
        answers[name] = api.app.test_client().post(f"/v1/matches/{match_id}/moves", json=body, headers=headers)

    first = threading.Thread(target=send, args=("original",))
    first.start()
    time.sleep(0.3)                                        # the original is waiting for the bot now
    send("retry")
    first.join(30)
    original, retry = answers["original"], answers["retry"]
    assert original.status_code == retry.status_code == 200
    assert retry.headers.get("Idempotent-Replayed") == "true"
    assert retry.get_json()["match"]["version"] == original.get_json()["match"]["version"] > view["version"] + 1
    assert retry.get_json() == original.get_json()
