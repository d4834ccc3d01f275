"""Hidden information stays hidden over HTTP: no payload a seat (or a spectator) receives depends on what the
rules hide from it.

The test plays full matches of every game through the real routes. At each checked step and for each seat i
it builds a twin match: the same seats, version and log, but the state replaced by
``state.resample_hidden(i, ...)`` (everything seat i cannot see re-dealt: others' hands, the deck, others'
pending commitments, the PRNG) and another seed. Then it asks both matches everything seat i and a spectator
can ask: the view, the events, the log, a bot's proposal, and moves that must be refused (illegal action,
not its turn, stale version, no token). Every answer, status and body, must be identical between the match
and its twin. If any route let through something of the hidden part (the state bytes, the seed, another
seat's legal actions or private actions, an error message naming a hidden card...) the answers would differ.
It also checks that no answer ever carries a seat token and that a move's answer is exactly the mover's view.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
import sqlalchemy as sa

import robotcore
from robotcore import State
from robotcore_api.auth import hash_token, new_token
from robotcore_api.service import MatchService
from robotcore_api.store import MatchRecord, SeatSpec, actions

from .conftest import GAMES, ApiClient, database_url, make_api, typical_stride

#: At most this many checked steps per match (long games are checked at evenly spread steps).
CHECKS_PER_MATCH = 40


def twin_match(svc: MatchService, match_id: str, state: State, seat: int | None,
               seed: int) -> tuple[str, dict[int, str]]:
    """A copy of the match where everything ``seat`` cannot see is re-dealt (None: a spectator, everything no
    seat shows on the table: re-dealt for each seat in turn, so that what one seat keeps the next one's re-deal
    draws again); fresh tokens for every seat."""
    rec = svc.store.get_match(match_id)
    assert rec is not None
    twin_state = state
    for s in [seat] if seat is not None else range(state.num_players):
        twin_state = twin_state.resample_hidden(s, (seed + s) % 2**64)
    tokens = {i: new_token() for i, s in enumerate(rec.seats) if s.type == "human"}
    seats = [SeatSpec(s.type, hash_token(tokens[i]) if i in tokens else None, s.bot, s.budget_ms)
             for i, s in enumerate(rec.seats)]
    twin = MatchRecord(id=f"twin{seed:x}"[:32], game=rec.game, params=rec.params, seed=seed % 2**63, seats=seats,
                       version=rec.version, state=twin_state.to_bytes(), finished=twin_state.is_terminal,
                       bots_due=rec.bots_due, created_at=rec.created_at, updated_at=rec.updated_at)
    svc.store.insert_match(twin)
    rows = svc.store.actions(match_id)
    if rows:
        with svc.store.engine.begin() as conn:
            conn.execute(actions.insert(), [
                {"match_id": twin.id, "version": r.version, "seat": r.seat, "action": r.action, "by_bot": r.by_bot,
                 "created_at": r.created_at} for r in rows])
    return twin.id, tokens


def everything(api: ApiClient, match_id: str, token: str | None, state: State, seat: int | None,
               version: int) -> list[tuple[str, int, Any]]:
    """Every answer this viewer can get about the match now (reads, and moves that must be refused)."""
    out: list[tuple[str, int, Any]] = []

    def ask(label: str, method: str, path: str, **kw: Any) -> None:
        resp = api.call(method, f"/v1/matches/{match_id}{path}", token=token, **kw)
        out.append((label, resp.status_code, resp.get_json()))

    ask("view", "GET", "")
    ask("events", "GET", f"/events?after={max(0, version - 3)}")
    ask("log", "GET", "/log")
    game = state.game
    if seat is None:
        ask("move without token", "POST", "/moves", json={"action": {"id": 0}, "expected_version": version})
        return out
    ask("stale", "POST", "/moves", json={"action": {"id": 0}, "expected_version": version + 1})
    if seat in state.actors:
        legal = set(state.legal_actions(seat))
        illegal = next(a for a in range(game.num_actions) if a not in legal)
        ask("illegal", "POST", "/moves", json={"action": {"id": illegal}, "expected_version": version})
        ask("bad text", "POST", "/moves", json={"action": {"text": "nothing at all"}, "expected_version": version})
        ask("propose", "POST", "/bot-move", json={"bot": "random", "seed": 5})
    else:
        ask("not your turn", "POST", "/moves", json={"action": {"id": 0}, "expected_version": version})
        ask("bot not your turn", "POST", "/bot-move", json={"bot": "random"})
    return out


def normalise(answers: list[tuple[str, int, Any]], match_id: str) -> str:
    return json.dumps(answers, sort_keys=True).replace(match_id, "<match>")


def play_and_compare(api: ApiClient, name: str, seed: int, seats: list[dict[str, Any]] | None = None) -> int:
    svc: MatchService = api.app.extensions["robotcore"]
    doc, tokens = api.create(name, seed=seed, **({"seats": seats} if seats else {}))
    match_id = doc["match_id"]
    game = robotcore.load_game(name)
    rng = random.Random(seed)
    stride = typical_stride(game, seed, rng, CHECKS_PER_MATCH)
    step = checks = 0
    seen_tokens = set(tokens.values())
    while True:
        rec = svc.store.get_match(match_id)
        assert rec is not None
        state = game.from_bytes(rec.state)
        if state.is_terminal:
            break
        if step % stride == 0:
            checks += 1
            for hidden_from in range(game.num_players):
                twin_id, twin_tokens = twin_match(svc, match_id, state, hidden_from, rng.getrandbits(64))
                viewers: list[int | None] = [None]
                if hidden_from in tokens:
                    viewers.append(hidden_from)
                for viewer in viewers:
                    mine = everything(api, match_id, None if viewer is None else tokens[viewer], state, viewer,
                                      rec.version)
                    theirs = everything(api, twin_id, None if viewer is None else twin_tokens[viewer], state,
                                        viewer, rec.version)
                    assert normalise(mine, match_id) == normalise(theirs, twin_id), \
                        f"{name}: seat {viewer} can tell the twin apart at version {rec.version}"
                    text = json.dumps(mine)
                    assert not any(t in text for t in seen_tokens | set(twin_tokens.values()))
        # a human actor moves; its answer is exactly its view now
        humans = [s for s in state.actors if s in tokens]
        seat = rng.choice(humans)
        view = api.view(match_id, tokens[seat])
        choice = rng.choice(view["legal_actions"])
        resp = api.move(match_id, tokens[seat], {"id": choice["id"]}, view["version"])
        assert resp.status_code == 200, resp.get_json()
        assert resp.get_json()["match"] == api.view(match_id, tokens[seat])
        step += 1
    # after the end nothing is hidden any more: the log reveals it all, to everyone alike
    logs = {api.get(f"/v1/matches/{match_id}/log", token=t).get_data() for t in [None, *tokens.values()]}
    assert len(logs) == 1
    return checks


@pytest.mark.parametrize("name", GAMES)
def test_no_payload_carries_what_the_seat_may_not_see(tmp_path: Any, openapi_schema: Any, name: str) -> None:
    api = make_api(database_url("sqlite", tmp_path), openapi_schema)
    start = time.monotonic()
    checks = play_and_compare(api, name, seed=101)
    assert checks >= 3, time.monotonic() - start


@pytest.mark.parametrize("name", GAMES)
def test_no_leak_with_bot_seats(tmp_path: Any, openapi_schema: Any, name: str) -> None:
    """Bot seats think on the server, from what their seat may know; nothing of it reaches the others."""
    api = make_api(database_url("sqlite", tmp_path), openapi_schema)
    game = robotcore.load_game(name)
    seats = [{"type": "human"}] + [{"type": "bot", "bot": "greedy"}] * (game.num_players - 1)
    assert play_and_compare(api, name, seed=202, seats=seats) >= 1


def test_twin_detects_a_leak(tmp_path: Any, openapi_schema: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check has teeth: a view that lets the omniscient state through is caught."""
    from robotcore_api import payloads

    original = payloads.match_view

    def leaky(rec: Any, state: State, seat: int | None) -> dict[str, Any]:
        out = original(rec, state, seat)
        out["view"] = dict(out["view"], debug=state.game.omniscient_view(state))
        return out

    monkeypatch.setattr(payloads, "match_view", leaky)
    api = make_api(database_url("sqlite", tmp_path), openapi_schema)
    with pytest.raises(AssertionError, match="can tell the twin apart"):
        play_and_compare(api, GAMES[0], seed=303)


def test_twin_copies_the_log(tmp_path: Any, openapi_schema: Any) -> None:
    api = make_api(database_url("sqlite", tmp_path), openapi_schema)
    svc: MatchService = api.app.extensions["robotcore"]
    doc, tokens = api.create(GAMES[0], seed=1)
    view = api.view(doc["match_id"], tokens[doc["match"]["actors"][0]])
    api.move(doc["match_id"], tokens[view["seat"]], {"id": view["legal_actions"][0]["id"]}, view["version"])
    rec = svc.store.get_match(doc["match_id"])
    assert rec is not None
    twin_id, _ = twin_match(svc, rec.id, robotcore.load_game(GAMES[0]).from_bytes(rec.state), 0, 99)
    with svc.store.engine.connect() as conn:
        n = conn.execute(sa.select(sa.func.count()).select_from(actions).where(actions.c.match_id == twin_id))
        assert n.scalar() == rec.version
