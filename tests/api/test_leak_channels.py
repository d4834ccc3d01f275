"""Every channel a seat or a spectator has, attacked for hidden information, in every game and seat count.

``test_secrets.py`` compares a match with its twin (everything one seat cannot see re-dealt) on the main reads.
This file widens the attack to every other channel: response headers (ETag, caching), the events with and
without a wait, the first event of the server-sent stream, the replay refused before the end, every refused
move (an illegal action named by id, by text and by JSON, a stale version by body and by If-Match, another
seat named, a token of another match), every built-in bot's proposal (seeded, so that a bot reading anything
hidden would answer differently on the twin), for every game at every seat count it allows (and the variants
with more hidden commitments: Sparks' draft, Scrapyard for two).

Two checks need more than a twin, because a twin copies the log:

- ``test_a_log_entry_shown_to_a_seat_is_one_its_view_tells_apart``: when the log (or an event) shows a seat an
  action of another seat, that action must be one the seat's own view tells apart from every other action the
  actor could have played there (or one with exactly the same effect). Otherwise the log would tell it
  something its view hides: a pending simultaneous commitment, a face-down card.
- ``test_the_log_shows_only_what_the_view_counts``: another seat's hidden action must change what the seat's
  view shows (a pass chosen, a draft commitment), because the version and the log's hidden rows count it.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import robotcore
from robotcore import Game, State
from robotcore_api.service import MatchService

from .conftest import ApiClient, database_url, make_api, typical_stride
from .test_secrets import twin_match

#: (game, parameters): every game at every seat count from 2 to 4 it allows, and the variants whose hidden
#: commitments differ (Sparks' assistant draft, Scrapyard's two-player setup).
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("nicodemus", {}),
    ("robotrick", {}),
    ("sparks", {"players": 1}),
    ("scrapyard", {"players": 3}),
    ("scrapyard", {"players": 4}),
    ("scrapyard", {"players": 2, "provisional_two_player": True}),
    ("smartphone", {"players": 2}),
    ("smartphone", {"players": 3}),
    ("smartphone", {"players": 4}),
    ("smartphone", {"players": 5}),
    ("sparks", {"players": 2}),
    ("sparks", {"players": 3}),
    ("sparks", {"players": 4}),
    ("sparks", {"players": 3, "draft": True}),
    ("scrapyard", {"players": 3, "open_workshop": False}),
]
IDS = [f"{name}-" + "-".join(f"{k}={v}" for k, v in params.items()) for name, params in CONFIGS]

#: Checked steps per match, spread over a typical game.
CHECKS = 6
BOTS = ("random", "greedy", "montecarlo", "mcts", "ismcts")
#: Headers left out of the comparison: the length follows the body (compared itself, with the match id replaced:
#: the twin's id is not as long); the others name the request, not the match.
UNCOMPARED_HEADERS = {"content-length", "date", "server"}


def _answer(resp: Any) -> tuple[int, list[tuple[str, str]], Any]:
    headers = sorted((k, v) for k, v in resp.headers.items() if k.lower() not in UNCOMPARED_HEADERS)
    body = resp.get_json() if resp.mimetype in ("application/json", "application/problem+json") else resp.get_data(
        as_text=True)
    return resp.status_code, headers, body


def first_stream_event(api: ApiClient, match_id: str, token: str | None, after: int) -> Any:
    """The first ``match`` event of the server-sent stream (then the stream is closed)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    resp = api.client.get(f"/v1/matches/{match_id}/stream?after={after}", buffered=False, headers=headers)
    try:
        if resp.status_code != 200:
            return resp.status_code, resp.get_json()
        buffer = b""
        for chunk in resp.response:
            buffer += chunk
            for block in buffer.split(b"\n\n")[:-1]:
                if b"event: match" in block:
                    return 200, sorted((k, v) for k, v in resp.headers.items() if k.lower() not in UNCOMPARED_HEADERS), \
                        block.decode()
        raise AssertionError("the stream ended before its first event")
    finally:
        resp.close()


def channels(api: ApiClient, match_id: str, token: str | None, state: State, seat: int | None, version: int,
             foreign_token: str) -> list[tuple[str, Any]]:
    """Everything this viewer can get about the match now, headers included (reads, and refused requests)."""
    out: list[tuple[str, Any]] = []
    game = state.game

    def ask(label: str, method: str, path: str, headers: dict[str, str] | None = None, **kw: Any) -> None:
        resp = api.call(method, f"/v1/matches/{match_id}{path}", token=token, headers=headers, **kw)
        out.append((label, _answer(resp)))

    ask("view", "GET", "")
    ask("events from 0", "GET", "/events?after=0")
    ask("events now", "GET", f"/events?after={version}&wait=0")
    ask("events last", "GET", f"/events?after={max(0, version - 1)}")
    ask("log", "GET", "/log")
    ask("replay", "GET", "/replay?at=0")
    ask("replay as 0", "GET", f"/replay?at={version}&seat=0")
    out.append(("stream", first_stream_event(api, match_id, token, max(0, version - 2))))
    # the lobby's list (both matches are listed)
    resp = api.call("GET", "/v1/matches?limit=100")
    out.append(("listed", resp.status_code, [m for m in resp.get_json()["matches"] if m["match_id"] == match_id]))
    # a token of another match, on this one
    resp = api.call("GET", f"/v1/matches/{match_id}", token=foreign_token)
    out.append(("foreign token", _answer(resp)))
    if seat is None:
        ask("move without token", "POST", "/moves", json={"action": {"id": 0}, "expected_version": version})
        ask("bot-move without token", "POST", "/bot-move", json={"bot": "random"})
        return out
    other = (seat + 1) % game.num_players
    ask("stale", "POST", "/moves", json={"action": {"id": 0}, "expected_version": version + 1})
    ask("stale if-match", "POST", "/moves", headers={"If-Match": f'"{version + 1}"'}, json={"action": {"id": 0}})
    if other != seat:
        ask("other seat", "POST", "/moves", json={"action": {"id": 0}, "expected_version": version, "seat": other})
    if seat in state.actors:
        legal = set(state.legal_actions(seat))
        # illegal actions the seat could name, spread over the action space (a hidden card among them)
        illegal = [a for a in range(game.num_actions) if a not in legal]
        for a in illegal[:: max(1, len(illegal) // 6)][:6]:
            ask(f"illegal id {a}", "POST", "/moves", json={"action": {"id": a}, "expected_version": version})
            ask(f"illegal text {a}", "POST", "/moves",
                json={"action": {"text": game.action_to_str(a)}, "expected_version": version})
            ask(f"illegal json {a}", "POST", "/moves",
                json={"action": {"json": game.action_to_dict(a)}, "expected_version": version})
        ask("bad text", "POST", "/moves", json={"action": {"text": "nothing at all"}, "expected_version": version})
        ask("bad json", "POST", "/moves", json={"action": {"json": {"type": "nothing"}}, "expected_version": version})
        for bot in BOTS:
            ask(f"propose {bot}", "POST", "/bot-move", json={"bot": bot, "seed": 11})
        ask("propose stale", "POST", "/bot-move", json={"bot": "random", "seed": 1, "expected_version": version + 1})
    else:
        ask("not your turn", "POST", "/moves", json={"action": {"id": 0}, "expected_version": version})
        ask("bot not your turn", "POST", "/bot-move", json={"bot": "random"})
    return out


def normalise(answers: list[tuple[str, Any]], match_id: str) -> str:
    return json.dumps(answers, sort_keys=True, default=str).replace(match_id, "<match>")


def play_and_attack(api: ApiClient, name: str, params: dict[str, Any], seed: int) -> int:
    svc: MatchService = api.app.extensions["robotcore"]
    game = robotcore.load_game(name, **params)
    doc, tokens = api.create(name, params=params, seed=seed, listed=True)
    match_id = doc["match_id"]
    _, other_tokens = api.create(name, params=params, seed=seed + 1)
    foreign = other_tokens[0]
    rng = random.Random(seed)
    stride = typical_stride(game, seed, rng, CHECKS)
    step = checks = 0
    while True:
        rec = svc.store.get_match(match_id)
        assert rec is not None
        state = game.from_bytes(rec.state)
        if state.is_terminal:
            break
        if step % stride == stride // 2:
            checks += 1
            # a twin re-dealt for each seat (compared as that seat and as a spectator), and one re-dealt for a
            # spectator (everything no seat shows on the table: every hand)
            for hidden_from in [None, *range(game.num_players)]:
                twin_id, twin_tokens = twin_match(svc, match_id, state, hidden_from, rng.getrandbits(64))
                svc.store.list_match(twin_id, rec.created_at)
                for viewer in {None, hidden_from}:
                    mine = channels(api, match_id, None if viewer is None else tokens[viewer], state, viewer,
                                    rec.version, foreign)
                    theirs = channels(api, twin_id, None if viewer is None else twin_tokens[viewer], state,
                                      viewer, rec.version, foreign)
                    a, b = normalise(mine, match_id), normalise(theirs, twin_id)
                    if a != b:
                        diff = [(x[0], x[1], y[1]) for x, y in zip(json.loads(a), json.loads(b)) if x != y]
                        raise AssertionError(f"{name} {params}: seat {viewer} tells the twin apart at version "
                                             f"{rec.version}: {str(diff[0])[:1500]}")
        seat = rng.choice(state.actors)
        view = api.view(match_id, tokens[seat])
        choice = rng.choice(view["legal_actions"])
        resp = api.move(match_id, tokens[seat], {"id": choice["id"]}, view["version"])
        assert resp.status_code == 200, resp.get_json()
        step += 1
    return checks


@pytest.mark.parametrize(("name", "params"), CONFIGS, ids=IDS)
def test_every_channel_is_the_same_on_the_twin(tmp_path: Any, openapi_schema: Any, name: str,
                                               params: dict[str, Any]) -> None:
    api = make_api(database_url("sqlite", tmp_path), openapi_schema)
    try:
        assert play_and_attack(api, name, params, seed=404) >= 3
    finally:
        api.app.extensions["robotcore"].store.dispose()


# -- what a log entry may show --------------------------------------------------------------------------------


def _views(state: State, seat: int) -> str:
    return json.dumps(state.view(seat), sort_keys=True)


def shown_but_not_seen(game: Game, state: State, actor: int, action: int, observer: int) -> int | None:
    """Another action of ``actor`` that ``observer``'s view cannot tell apart from ``action`` after it is played,
    although it leads to a different state (None: there is none). A log showing ``observer`` the action would
    then show more than its view."""
    after = state.clone()
    after.apply(action, actor)
    seen = _views(after, observer)
    for other in state.legal_actions(actor):
        if other == action:
            continue
        alt = state.clone()
        alt.apply(other, actor)
        if _views(alt, observer) == seen and alt.state_bytes() != after.state_bytes():
            return int(other)
    return None


def random_states(game: Game, seeds: range, rng: random.Random) -> Any:
    for seed in seeds:
        state = game.new_initial_state(seed)
        while not state.is_terminal:
            actor = rng.choice(state.actors)
            legal = state.legal_actions(actor)
            action = rng.choice(legal)
            yield state, actor, action, legal
            state.apply(action, actor)


@pytest.mark.parametrize(("name", "params"), CONFIGS, ids=IDS)
def test_a_log_entry_shown_to_a_seat_is_one_its_view_tells_apart(name: str, params: dict[str, Any]) -> None:
    """Through the service's own redaction (``payloads.log_entries``): every entry shown to another seat."""
    check_log_entries(name, params)


def test_a_log_showing_a_pass_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    game = robotcore.load_game("robotrick")
    monkeypatch.setattr(type(game), "is_public_action", lambda self, action: True)
    with pytest.raises(AssertionError, match="which its view cannot tell from"):
        check_log_entries("robotrick", {})


def check_log_entries(name: str, params: dict[str, Any]) -> None:
    from robotcore_api.payloads import log_entries
    from robotcore_api.store import ActionRow

    game = robotcore.load_game(name, **params)
    rng = random.Random(7)
    for state, actor, action, legal in random_states(game, range(2), rng):
        if len(legal) < 2 or len(legal) > 150:
            continue
        row = ActionRow(len(state.history) + 1, actor, int(action), False, 0.0)
        for observer in range(game.num_players):
            if observer == actor:
                continue
            [entry] = log_entries(game, [row], observer, finished=False)
            if entry["hidden"]:
                continue
            other = shown_but_not_seen(game, state, actor, action, observer)
            assert other is None, (
                f"{name}: the log shows seat {observer} that seat {actor} played {game.action_to_str(action)}, "
                f"which its view cannot tell from {game.action_to_str(other)}")


@pytest.mark.parametrize(("name", "params"), [c for c in CONFIGS if c[1].get("open_workshop", True)],
                         ids=[i for i, c in zip(IDS, CONFIGS) if c[1].get("open_workshop", True)])
def test_the_log_shows_only_what_the_view_counts(name: str, params: dict[str, Any]) -> None:
    """A hidden action still shows as a row (its seat, a new version): the seat's view must show that much."""
    _check_views_count_hidden_actions(robotcore.load_game(name, **params), range(2))


def _check_views_count_hidden_actions(game: Game, seeds: range) -> None:
    rng = random.Random(8)
    for state, actor, action, _ in random_states(game, seeds, rng):
        if game.is_public_action(action):
            continue
        after = state.clone()
        after.apply(action, actor)
        for observer in range(game.num_players):
            if observer != actor:
                assert _views(state, observer) != _views(after, observer), (
                    f"{game.name}: seat {observer}'s view does not change when seat {actor} commits "
                    f"{game.action_to_str(action)}, but the version and the log count it")


def test_a_closed_workshop_shows_its_count_of_hidden_actions() -> None:
    """Scrapyard's closed workshop: the version and the log count each seat's hidden workshop actions, and so
    does every view (``players[i].worked``)."""
    _check_views_count_hidden_actions(robotcore.load_game("scrapyard", players=3, open_workshop=False), range(2))


# -- the checks have teeth ------------------------------------------------------------------------------------


def _teeth(tmp_path: Any, openapi_schema: Any) -> None:
    api = make_api(database_url("sqlite", tmp_path), openapi_schema)
    try:
        with pytest.raises(AssertionError, match="tells the twin apart"):
            play_and_attack(api, "robotrick", {}, seed=505)
    finally:
        api.app.extensions["robotcore"].store.dispose()


def test_a_bot_reading_the_true_state_is_caught(tmp_path: Any, openapi_schema: Any,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from robotcore_api import service

    def cheat(bot: Any, state: State, seat: int, budget_ms: int | None) -> int:
        legal = state.legal_actions(seat)
        return int(legal[sum(state.state_bytes()) % len(legal)])

    monkeypatch.setattr(service, "_think", cheat)
    _teeth(tmp_path, openapi_schema)


def test_an_error_naming_a_hidden_card_is_caught(tmp_path: Any, openapi_schema: Any,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from robotcore_api import service
    from robotcore_api.problems import Problem

    original = service.playable_action

    def wordy(state: State, seat: int, given: Any) -> int:
        try:
            return original(state, seat, given)
        except Problem as exc:
            if exc.problem_code == "illegal-action":
                hidden = state.game.omniscient_view(state)["hands"][(seat + 1) % state.num_players]
                raise Problem("illegal-action", f"{exc.description}; seat {seat + 1} holds {hidden}") from None
            raise

    monkeypatch.setattr(service, "playable_action", wordy)
    _teeth(tmp_path, openapi_schema)


def test_a_header_carrying_the_state_is_caught(tmp_path: Any, openapi_schema: Any,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from robotcore_api import service

    original = service.MatchService.view

    def tagged(self: Any, match_id: str, token: str | None) -> Any:
        answer, version = original(self, match_id, token)
        rec = self.store.get_match(match_id)
        return answer, f"{version}-{sum(rec.state) % 997}"

    monkeypatch.setattr(service.MatchService, "view", tagged)
    _teeth(tmp_path, openapi_schema)
