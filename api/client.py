"""An example bot client of the robotcore service: plays full matches over HTTP using only the documented
endpoints, with nothing but the Python standard library (it does not import robotcore or Flask).

    python -m robotcore_api.client --url http://127.0.0.1:8000                 # one match of every game
    python -m robotcore_api.client --game robotrick --matches 5 --seats human,bot:random,bot:greedy

What it shows:

- ``POST /v1/matches`` gives one token per human seat, once; the client keeps them.
- For a seat that must act, the view lists its legal actions (id, text, JSON); the client sends one back with
  the ``expected_version`` it read and an ``Idempotency-Key``, and retries a failed connection with the same
  key: the move is never played twice.
- When none of its seats must act it waits with the long-poll ``GET .../events?after=<version>&wait=<s>``,
  never in a tight loop. ``stale-version`` means someone moved first: read the view again.
- At the end ``GET .../log`` reveals everything; the client checks that every move it had acknowledged is in
  the log, and (``--verify``) replays the revealed seed and log through the stateless engine endpoints to
  check the announced outcome.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode, urlsplit

__all__ = ["ApiError", "Client", "MatchResult", "play_match"]


class ApiError(Exception):
    """A problem+json answer: ``status``, the stable ``code`` and the whole ``problem`` body."""

    def __init__(self, status: int, problem: dict[str, Any]) -> None:
        self.status = status
        self.problem = problem
        self.code = str(problem.get("code", "unknown"))
        super().__init__(f"{status} {self.code}: {problem.get('detail', '')}")


class _OneWrite:
    """http.client's connection, sending a request's head and a body of bytes in one write: http.client sends
    them in two, so that the server is woken for the head, then reads again for the body."""

    def _send_output(self, message_body: Any = None, encode_chunked: bool = False) -> None:
        if type(message_body) is not bytes or encode_chunked:
            super()._send_output(message_body, encode_chunked)  # type: ignore[misc]
            return
        buffer: list[bytes] = self._buffer  # type: ignore[attr-defined]
        buffer.extend((b"", b""))
        head = b"\r\n".join(buffer)
        del buffer[:]
        self.send(head + message_body)  # type: ignore[attr-defined]


class _LeanHTTPConnection(_OneWrite, http.client.HTTPConnection):
    pass


class _LeanHTTPSConnection(_OneWrite, http.client.HTTPSConnection):
    pass


def _stdlib_dumps(body: Any) -> bytes:
    return json.dumps(body).encode()


class Client:
    """A keep-alive HTTP/1.1 connection to the service (one per thread)."""

    def __init__(self, base_url: str = "http://127.0.0.1:8000", timeout: float = 60.0, retries: int = 3, *,
                 dumps: Callable[[Any], bytes] | None = None, loads: Callable[[bytes], Any] | None = None,
                 lean: bool = False) -> None:
        """``dumps`` and ``loads``: the JSON encoder of request bodies (to bytes) and decoder of answers, e.g.
        ``orjson.dumps`` and ``orjson.loads`` (the bench's load clients); the standard library's by default.

        ``lean``: send only the headers the API reads: ``Host``, and ``Authorization``, ``Content-Type`` and
        ``Content-Length`` when there is a token or a body (no ``Accept``, no ``Accept-Encoding: identity``,
        which http.client adds by itself; the API answers JSON without them), the head and the body in one write
        (http.client writes them apart), and a move or a bot move without
        an ``Idempotency-Key`` unless one is given. Without a key a retried move is still never played twice
        (its ``expected_version`` is compared and set), but the retry of a move that was played answers
        ``stale-version`` instead of the original answer: a lean client should run with ``retries=0`` or read
        the view again on that answer, as a bot does anyway. (The bench's load clients: every server parses
        each header of each request.)"""
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http(s) URL: {base_url!r}")
        self.scheme, self.host, self.port = parts.scheme, parts.hostname, parts.port
        self.prefix = parts.path.rstrip("/")
        self.timeout = timeout
        self.retries = retries
        self._dumps = dumps or _stdlib_dumps
        self._loads = loads or json.loads
        self.lean = lean
        self._conn: http.client.HTTPConnection | None = None
        #: latency in seconds of every answered request, per (method, route) - for the bench
        self.timings: dict[str, list[float]] = {}

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _connection(self) -> http.client.HTTPConnection:
        if self._conn is None:
            if self.lean:
                cls: type[http.client.HTTPConnection] = (
                    _LeanHTTPSConnection if self.scheme == "https" else _LeanHTTPConnection)
            else:
                cls = http.client.HTTPSConnection if self.scheme == "https" else http.client.HTTPConnection
            self._conn = cls(self.host, self.port, timeout=self.timeout)
        return self._conn

    def request(self, method: str, path: str, body: Any = None, *, token: str | None = None,
                headers: dict[str, str] | None = None, route: str | None = None) -> tuple[int, dict[str, Any]]:
        """Send one request; connection failures are retried (safe: moves carry an Idempotency-Key).
        Returns (status, JSON body); problem answers raise ``ApiError``."""
        hdrs = {} if self.lean else {"Accept": "application/json"}
        if token is not None:
            hdrs["Authorization"] = f"Bearer {token}"
        data = None
        if body is not None:
            data = self._dumps(body)
            hdrs["Content-Type"] = "application/json"
        hdrs.update(headers or {})
        for attempt in range(self.retries + 1):
            start = time.perf_counter()
            try:
                conn = self._connection()
                if self.lean:
                    conn.putrequest(method, self.prefix + path, skip_accept_encoding=True)
                    for name, value in hdrs.items():
                        conn.putheader(name, value)
                    if data is not None:
                        conn.putheader("Content-Length", str(len(data)))
                    conn.endheaders(data)
                else:
                    conn.request(method, self.prefix + path, body=data, headers=hdrs)
                resp = conn.getresponse()
                raw = resp.read()
                status = resp.status
            except (OSError, http.client.HTTPException):
                self.close()
                if attempt == self.retries:
                    raise
                time.sleep(0.05 * 2**attempt)
                continue
            self.timings.setdefault(route or f"{method} {path}", []).append(time.perf_counter() - start)
            if resp.getheader("Connection", "").lower() == "close":
                self.close()
            doc = self._loads(raw) if raw else {}
            if status >= 400:
                raise ApiError(status, doc)
            return status, doc
        raise AssertionError("unreachable")

    # -- the documented endpoints ---------------------------------------------------------------------------

    def games(self) -> list[dict[str, Any]]:
        return list(self.request("GET", "/v1/games")[1]["games"])

    def create_match(self, game: str, *, seats: list[dict[str, Any]] | None = None,
                     params: dict[str, Any] | None = None, seed: int | None = None,
                     listed: bool = False) -> dict[str, Any]:
        body: dict[str, Any] = {"game": game, "params": params or {}}
        if listed:
            body["listed"] = True
        if seats is not None:
            body["seats"] = seats
        if seed is not None:
            body["seed"] = seed
        return self.request("POST", "/v1/matches", body, route="POST /v1/matches")[1]

    def view(self, match_id: str, token: str | None = None) -> dict[str, Any]:
        return self.request("GET", f"/v1/matches/{match_id}", token=token, route="GET /v1/matches/{id}")[1]

    def move(self, match_id: str, token: str, action: dict[str, Any], expected_version: int,
             key: str | None = None) -> dict[str, Any]:
        headers = {} if self.lean and key is None else {"Idempotency-Key": key or uuid.uuid4().hex}
        body = {"action": action, "expected_version": expected_version}
        return self.request("POST", f"/v1/matches/{match_id}/moves", body, token=token, headers=headers,
                            route="POST /v1/matches/{id}/moves")[1]

    def bot_move(self, match_id: str, token: str, bot: str = "greedy", budget_ms: int | None = None,
                 play: bool = False) -> dict[str, Any]:
        body: dict[str, Any] = {"bot": bot, "play": play}
        if budget_ms is not None:
            body["budget_ms"] = budget_ms
        return self.request("POST", f"/v1/matches/{match_id}/bot-move", body, token=token,
                            headers={} if self.lean else {"Idempotency-Key": uuid.uuid4().hex},
                            route="POST /v1/matches/{id}/bot-move")[1]

    def events(self, match_id: str, after: int, wait: float, token: str | None = None) -> dict[str, Any]:
        query = urlencode({"after": after, "wait": wait})
        return self.request("GET", f"/v1/matches/{match_id}/events?{query}", token=token,
                            route="GET /v1/matches/{id}/events")[1]

    def log(self, match_id: str, token: str | None = None) -> dict[str, Any]:
        return self.request("GET", f"/v1/matches/{match_id}/log", token=token, route="GET /v1/matches/{id}/log")[1]

    def matches(self, limit: int = 20) -> list[dict[str, Any]]:
        """The most recent listed matches, newest first."""
        return list(self.request("GET", f"/v1/matches?limit={limit}", route="GET /v1/matches")[1]["matches"])

    def replay(self, match_id: str, at: int, seat: int | None = None, token: str | None = None) -> dict[str, Any]:
        """A finished match after its first ``at`` actions, as ``seat`` (None: a spectator) saw it."""
        query = urlencode({"at": at} if seat is None else {"at": at, "seat": seat})
        return self.request("GET", f"/v1/matches/{match_id}/replay?{query}", token=token,
                            route="GET /v1/matches/{id}/replay")[1]

    def engine(self, game: str, op: str, body: dict[str, Any]) -> dict[str, Any]:
        return self.request("POST", f"/v1/games/{game}/engine/{op}", body, route=f"POST engine/{op}")[1]


@dataclass
class MatchResult:
    match_id: str
    game: str
    moves: int = 0                       # moves this client had acknowledged
    actions: int = 0                     # every action of the match (bot seats' included)
    stale: int = 0                       # stale-version answers (someone moved first)
    waits: int = 0                       # long-polls
    lost: int = 0                        # acknowledged moves missing from the final log
    outcome: dict[str, Any] | None = None
    replay_ok: bool | None = None
    acknowledged: list[tuple[int, int, int]] = field(default_factory=list)   # (version, seat, action id)


def play_match(client: Client, game: str, *, seats: list[dict[str, Any]] | None = None,
               params: dict[str, Any] | None = None, seed: int | None = None, rng: random.Random | None = None,
               verify: bool = False, max_requests: int = 100_000) -> MatchResult:
    """Create a match and play every human seat with uniformly random legal actions until the end."""
    rng = rng or random.Random()
    created = client.create_match(game, seats=seats, params=params, seed=seed)
    match_id = created["match_id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"] if s["token"] is not None}
    result = MatchResult(match_id, game)
    latest: dict[str, Any] = created["match"]            # the newest view we hold (any seat's)
    views: dict[int, dict[str, Any]] = {}                  # the newest view of each of our seats
    any_token = next(iter(tokens.values()))
    for _ in range(max_requests):
        if latest["status"] == "finished":
            break
        mine = [s for s in latest["actors"] if s in tokens]
        if not mine:
            # nothing for us to decide: wait for the others (bot seats, other clients) without polling hard
            result.waits += 1
            latest = client.events(match_id, latest["version"], 10, token=any_token)["match"]
            continue
        seat = rng.choice(mine)
        view = views.get(seat)
        if view is None or view["version"] != latest["version"]:
            view = views[seat] = client.view(match_id, tokens[seat])
            latest = view if view["version"] >= latest["version"] else latest
        if not view["to_act"]:
            latest = view
            continue
        choice = rng.choice(view["legal_actions"])
        try:
            answer = client.move(match_id, tokens[seat], {"id": choice["id"]}, view["version"])
        except ApiError as exc:
            if exc.code == "stale-version":
                result.stale += 1
                views.pop(seat, None)
                latest = client.view(match_id, tokens[seat])
                continue
            raise
        accepted = answer["accepted"]
        result.moves += 1
        result.acknowledged.append((accepted["version"], accepted["seat"], accepted["action"]["id"]))
        latest = views[seat] = answer["match"]
    else:
        raise RuntimeError(f"match {match_id} did not end within {max_requests} requests")
    log = client.log(match_id)
    result.actions = len(log["entries"])
    result.outcome = log["outcome"]
    logged = {(e["version"], e["seat"], e["action"]["id"]) for e in log["entries"]}
    result.lost = sum(1 for ack in result.acknowledged if ack not in logged)
    if verify:
        result.replay_ok = replay_check(client, log)
    return result


def replay_check(client: Client, log: dict[str, Any]) -> bool:
    """Replay the revealed seed and the log through the stateless engine: same outcome as announced?"""
    game = log["game"]
    info = client.engine(game, "new", {"params": log["params"], "seed": log["reveal"]["seed"]})
    for entry in log["entries"]:
        info = client.engine(game, "apply", {"state": info["state"], "seat": entry["seat"],
                                             "action": {"id": entry["action"]["id"]}})
    return bool(info["is_terminal"] and info["outcome"] == log["outcome"]
                and info["version"] == len(log["entries"]))


def _parse_seats(text: str | None) -> list[dict[str, Any]] | None:
    if not text:
        return None
    out: list[dict[str, Any]] = []
    items: list[str] = []
    # "human,bot:mcts:iterations=50,c=0.5,bot:random" is 3 seats: a key=value chunk goes on with the bot before
    # it, as robotcore.bots.split_bot_specs reads a command line (this client imports nothing of robotcore)
    for chunk in text.split(","):
        key, eq, _ = chunk.partition("=")
        if items and eq and key.strip().isidentifier():
            items[-1] += "," + chunk
        else:
            items.append(chunk)
    for item in items:
        if item == "human":
            out.append({"type": "human"})
        elif item.startswith("bot:"):
            out.append({"type": "bot", "bot": item[4:]})
        else:
            raise SystemExit(f"seat {item!r}: use human or bot:<name>")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m robotcore_api.client", description=__doc__.split("\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--game", action="append", help="a game (repeatable; default: every game served)")
    parser.add_argument("--matches", type=int, default=1, help="matches per game")
    parser.add_argument("--seats", help="e.g. human,bot:random,bot:mcts:iterations=200,c=0.5 (default: every seat human)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the client's random choices")
    parser.add_argument("--verify", action="store_true", help="replay each match through the stateless engine")
    args = parser.parse_args(argv)
    client = Client(args.url)
    rng = random.Random(args.seed)
    names = args.game or [g["name"] for g in client.games()]
    failures = 0
    for name in names:
        for _ in range(args.matches):
            r = play_match(client, name, seats=_parse_seats(args.seats), rng=rng, verify=args.verify)
            ok = r.lost == 0 and r.replay_ok is not False
            failures += not ok
            assert r.outcome is not None
            print(f"{name:12s} {r.match_id}  {r.moves:4d} moves ({r.actions} actions, {r.stale} stale, "
                  f"{r.waits} waits)  scores {r.outcome['scores']} winners {r.outcome['winners']}  "
                  f"lost {r.lost}" + ("" if r.replay_ok is None else f"  replay {'ok' if r.replay_ok else 'FAILED'}"))
    client.close()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
