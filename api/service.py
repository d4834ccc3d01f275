"""Matches over the common game protocol: creation, moves with compare-and-set, bot seats, long-poll, bot moves.

No game logic here: every rule question is asked of the registered game (``robotcore.load_game``, ``State``
methods, ``Game.action_*``, ``robotcore.bots.make_bot``), so any game added to the registry is served unchanged.
What goes back to a client is built by ``payloads`` (the one choke point); errors are ``Problem``s.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import robotcore
from robotcore import Game, State
from robotcore.bots import make_bot
from robotcore.errors import CorruptStateError, InvalidActionError, RobotcoreError, UnknownGameError
from robotcore.registry import game_class

from . import payloads
from .auth import hash_token as _hash
from .auth import new_token, seat_of
from .problems import Problem
from .store import MatchRecord, NewActions, SeatSpec, Store

#: How often a long-poll looks at the database for changes made by other processes.
POLL_INTERVAL_S = 0.05
#: Thinking time of bot seats committed in one transaction (with the move that made them due, if quick).
BOT_BATCH_S = 0.02
#: Bot seats with a larger time budget (ms) are not batched with a seat's move: it is committed first.
QUICK_BOT_MS = 20
#: Retries of a move whose compare-and-set lost to a commitment it may ignore (simultaneous phases).
CAS_RETRIES = 8
#: Matches whose latest committed state a process keeps in memory (see ``MatchService.move``).
KNOWN_MATCHES = 1024


@dataclass(frozen=True)
class Settings:
    database_url: str
    #: Largest request body accepted (bytes).
    max_body_bytes: int = 64 * 1024
    #: Wall time a request may spend playing bot seats before answering (the rest is played by later requests).
    bot_inline_s: float = 5.0
    #: PRAGMA synchronous of a SQLite store: NORMAL survives a killed process; FULL also a power cut.
    sqlite_synchronous: str = "NORMAL"
    #: Long-polls one process lets wait at once (each holds a thread while it waits); a poll beyond that
    #: answers at once with the current view. Keep it below the threads per worker (gunicorn_conf: half).
    max_waiting_polls: int = 4
    #: Rate limits per client address and per seat token (``ratelimit``): e.g. "50/second;2000/minute";
    #: empty: none. Counters in ``rate_limit_storage`` (memory:// per process; redis://... shared).
    #: Longest thinking time a bot may be given per move (bot seats and bot-move), at most 10 000 ms.
    max_budget_ms: int = 10_000
    #: Bots asked for a move (POST .../bot-move) that may think at once in one process; more: 503 bots-busy.
    bot_think_slots: int = 2
    rate_limit_address: str = ""
    rate_limit_token: str = ""
    rate_limit_storage: str = "memory://"


def load_game(name: str, params: Mapping[str, Any]) -> Game:
    """The game with these parameters; unknown games are 404, bad parameters 422."""
    if name not in robotcore.list_games():
        raise Problem("not-found", f"no game named {name!r}; games: {', '.join(robotcore.list_games())}")
    if "content" in params:
        raise Problem("invalid-parameter", "replacement content cannot be set over HTTP")
    try:
        return robotcore.load_game(name, **dict(params))
    except UnknownGameError:
        raise Problem("not-found", f"no game named {name!r}") from None
    except RobotcoreError as exc:
        raise Problem("invalid-parameter", str(exc)) from None


def resolve_action(game: Game, given: Mapping[str, Any]) -> int:
    """An action id from any of its forms (id, text, json); forms given together must agree."""
    found: list[int] = []
    try:
        if "id" in given:
            found.append(game.check_action_id(given["id"]))
        if "text" in given:
            found.append(game.parse_action(given["text"]))
        if "json" in given:
            found.append(game.action_from_dict(given["json"]))
    except InvalidActionError as exc:
        raise Problem("invalid-action", str(exc)) from None
    except (RobotcoreError, TypeError, KeyError, AttributeError):
        raise Problem("invalid-action", f"not a {game.title} action") from None
    if not found:
        raise Problem("validation", "give the action as id, text or json", errors={"action": ["missing"]})
    if len(set(found)) > 1:
        raise Problem("validation", "the forms of the action name different actions",
                      errors={"action": ["id, text and json disagree"]})
    return found[0]


def playable_action(state: State, seat: int, given: Mapping[str, Any]) -> int:
    """The action id ``given`` names (any of its forms) when ``seat`` may play it in ``state`` (not terminal);
    not-your-turn, invalid-action or illegal-action otherwise."""
    if seat not in state.actors:
        raise Problem("not-your-turn", f"seat {seat} has nothing to decide now; "
                                       f"waiting for seat(s) {', '.join(map(str, state.actors))}")
    action = resolve_action(state.game, given)
    if not state.is_legal(action, seat):
        raise Problem("illegal-action",
                      f"{state.game.action_to_str(action)} (action {action}) is not legal for seat {seat} now")
    return action


def _bot_seed(match_seed: int, version: int, seat: int) -> int:
    digest = hashlib.blake2b(f"{match_seed}:{version}:{seat}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def _bots_due(seats: list[SeatSpec], state: State) -> bool:
    return not state.is_terminal and any(seats[s].type == "bot" for s in state.actors)


class Changes:
    """Wakes the long-polls of this process as soon as a match it serves changes (other processes' changes are
    seen by polling the database every ``POLL_INTERVAL_S``)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()

    def notify(self) -> None:
        with self._cond:
            self._cond.notify_all()

    def wait(self, timeout: float) -> None:
        with self._cond:
            self._cond.wait(timeout)


class MatchService:
    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.changes = Changes()
        #: long-polls allowed to wait at once in this process (the others answer at once)
        self._waiting = threading.BoundedSemaphore(max(1, settings.max_waiting_polls))
        #: bots asked for a move (POST .../bot-move) thinking at once in this process (the others: bots-busy)
        self._thinking = threading.BoundedSemaphore(max(1, settings.bot_think_slots))
        #: the last state this process committed of each match, with its record: (record, state) by match id
        self._known: dict[str, tuple[MatchRecord, State]] = {}

    # -- reading ---------------------------------------------------------------------------------------------

    def load(self, match_id: str, idempotency_key: str | None = None) -> tuple[MatchRecord, State]:
        rec = self.store.get_match(match_id, idempotency_key) if len(match_id) <= 32 else None
        if rec is None:
            raise Problem("not-found", "no match with this id")
        return rec, self._state(rec)

    @staticmethod
    def _state(rec: MatchRecord) -> State:
        return robotcore.load_game(rec.game, **rec.params).from_bytes(rec.state)

    def seat_for(self, rec: MatchRecord, token: str | None, required: bool) -> int | None:
        """The seat of a bearer token (None: spectator, when allowed). A token of another match is refused."""
        if token is None:
            if required:
                raise Problem("invalid-token", "this endpoint needs a seat token: 'Authorization: Bearer <token>'",
                              headers={"WWW-Authenticate": 'Bearer realm="robotcore"'})
            return None
        seat = seat_of(token, [s.token_hash for s in rec.seats])
        if seat is None:
            raise Problem("invalid-token", "this token is not a seat token of this match",
                          headers={"WWW-Authenticate": 'Bearer realm="robotcore", error="invalid_token"'})
        return seat

    # -- creating --------------------------------------------------------------------------------------------

    def create(self, game_name: str, params: dict[str, Any], seats: list[dict[str, Any]] | None,
               seed: int | None, listed: bool = False) -> dict[str, Any]:
        params = dict(params)
        if seats is not None and "players" not in params and game_name in robotcore.list_games():
            if any(p.name == "players" for p in game_class(game_name).param_specs):
                params["players"] = len(seats)
        game = load_game(game_name, params)
        if seats is None:
            seats = [{"type": "human"} for _ in range(game.num_players)]
        if len(seats) != game.num_players:
            raise Problem("validation", f"{game.title} with these parameters has {game.num_players} seats, "
                                        f"got {len(seats)}", errors={"seats": ["wrong number of seats"]})
        if not any(s.get("type", "human") == "human" for s in seats):
            raise Problem("validation", "a match needs at least one human seat (the one holding a token)",
                          errors={"seats": ["no human seat"]})
        tokens: dict[int, str] = {}
        specs: list[SeatSpec] = []
        for i, s in enumerate(seats):
            if s.get("type", "human") == "human":
                tokens[i] = new_token()
                specs.append(SeatSpec("human", token_hash=_hash(tokens[i])))
            else:
                self._check_budget(s.get("budget_ms"), f"seats.{i}.budget_ms")
                specs.append(SeatSpec("bot", bot=s["bot"], budget_ms=s.get("budget_ms")))
        if seed is None:
            seed = secrets.randbits(63)
        state = game.new_initial_state(seed)
        now = time.time()
        rec = MatchRecord(
            id=secrets.token_urlsafe(12), game=game.name, params=_sorted_params(game.plain_params()), seed=seed, seats=specs,
            version=0, state=state.to_bytes(), finished=state.is_terminal, bots_due=_bots_due(specs, state),
            created_at=now, updated_at=now,
        )
        self.store.insert_match(rec)
        if listed:
            self.store.list_match(rec.id, now)
        self._remember(rec, state)
        rec, state = self.drive_bots(rec, state)
        return payloads.created(rec, state, tokens)

    def _check_budget(self, budget_ms: int | None, field: str) -> None:
        top = self.settings.max_budget_ms
        if budget_ms is not None and budget_ms > top:
            raise Problem("validation", f"this server lets a bot think at most {top} ms per move",
                          errors={field: [f"at most {top}"]})

    # -- bots ------------------------------------------------------------------------------------------------

    def _bot_moves(self, rec: MatchRecord, state: State, first_version: int, quick_only: bool) -> list[int]:
        """Play the bot seats that are due on ``state`` (in place) for up to ``BOT_BATCH_S`` of thinking, at
        least one move; ``quick_only``: none of a bot seat whose time budget is large. Returns the seats and
        actions as a flat list [seat, action, seat, action...]."""
        out: list[int] = []
        start = time.monotonic()
        while _bots_due(rec.seats, state):
            if out and time.monotonic() - start >= BOT_BATCH_S:
                break
            seat = next(s for s in state.actors if rec.seats[s].type == "bot")
            spec = rec.seats[seat]
            if quick_only and (spec.budget_ms or 0) > QUICK_BOT_MS:
                break
            assert spec.bot is not None
            version = first_version + len(out) // 2
            bot = make_bot(spec.bot, seed=_bot_seed(rec.seed, version, seat))
            action = bot.choose(state, seat, budget_ms=spec.budget_ms)
            state.apply(action, seat)
            out += [seat, action]
        return out

    def drive_bots(self, rec: MatchRecord, state: State, budget_s: float | None = None) -> tuple[MatchRecord, State]:
        """Play the bot seats that must act, committing every ``BOT_BATCH_S`` of thinking (compare-and-set),
        for at most ``budget_s`` of wall time (the rest is played by the next request that touches the match)."""
        deadline = time.monotonic() + (self.settings.bot_inline_s if budget_s is None else budget_s)
        lost = 0
        while rec.bots_due and time.monotonic() < deadline:
            after = state.clone()
            moves = self._bot_moves(rec, after, rec.version + 1, quick_only=False)
            entries = [(moves[i], moves[i + 1], True) for i in range(0, len(moves), 2)]
            if not entries:
                break
            if self._commit(rec, after, entries):
                state = after
            else:
                lost += 1
                rec, state = self.load(rec.id)         # another process played it, or a human moved
                if lost > CAS_RETRIES:
                    break
        return rec, state

    def _commit(self, rec: MatchRecord, after: State, entries: list[tuple[int, int, bool]],
                key: str | None = None, fingerprint: str | None = None) -> bool:
        """Compare-and-set ``entries`` onto ``rec`` (updated in place when it wins)."""
        new = NewActions(entries=entries, state=after.to_bytes(), finished=after.is_terminal,
                         bots_due=_bots_due(rec.seats, after))
        if not self.store.commit(rec.id, rec.version, new, key, fingerprint):
            return False
        rec.version += len(entries)
        rec.state = new.state
        rec.finished = new.finished
        rec.bots_due = new.bots_due
        self._remember(rec, after)
        self.changes.notify()
        return True

    def _remember(self, rec: MatchRecord, state: State) -> None:
        """Keep the state this process just committed (never changed afterwards: moves apply to clones)."""
        known = self._known
        known.pop(rec.id, None)
        if state.is_terminal:
            return
        if len(known) >= KNOWN_MATCHES:
            try:
                del known[next(iter(known))]          # the least recently committed
            except (KeyError, StopIteration, RuntimeError):    # another thread got there first
                pass
        mine = copy.copy(rec)                   # (a shallow copy: what a record holds is never changed in place)
        mine.idempotent = None
        known[rec.id] = (mine, state)

    # -- moving ----------------------------------------------------------------------------------------------

    @staticmethod
    def _forgivable(state: State, seat: int, since: int) -> bool:
        """A move chosen at version ``since`` is still valid now if everything played since is another seat's
        private commitment and this seat must still act: in a simultaneous phase each seat commits in any
        order, and what the others committed is hidden from it, so its decision cannot depend on it."""
        game = state.game
        later = state.history[since:]
        return (
            seat in state.actors
            and all(s != seat and not game.is_public_action(a) for s, a in later)
        )

    def move(self, match_id: str, token: str | None, body: dict[str, Any], if_match: int | None,
             key: str | None) -> tuple[dict[str, Any], bool]:
        """Apply the seat's action. Returns (answer, replayed) — replayed: an Idempotency-Key retry."""
        known = self._known.get(match_id)
        if known is not None:
            answer = self._move_known(*known, token, body, if_match, key)
            if answer is not None:
                return answer, False
        rec, state = self.load(match_id, key)
        seat = self.seat_for(rec, token, required=True)
        assert seat is not None
        self._check_seat_field(body, seat)
        fingerprint = None
        if key is not None:
            fingerprint = _fingerprint({"move": body, "if_match": if_match})
            replay = self._replay(rec, state, seat, key, fingerprint)
            if replay is not None:
                return replay, True
        expected, via_header = _expected_version(body, if_match)
        if expected is None:
            raise Problem("version-required", "send expected_version in the body or an If-Match header")
        return self._play(rec, state, seat, body["action"], expected, via_header, key, fingerprint)

    def _move_known(self, rec: MatchRecord, state: State, token: str | None, body: dict[str, Any],
                    if_match: int | None, key: str | None) -> dict[str, Any] | None:
        """The move played on the state this process last committed of the match, without reading the match
        first: when the move was chosen at that very version and is legal there, its compare-and-set succeeds
        only if the match is still at that version in the database, i.e. still in exactly that state (a version
        is the number of actions of an append-only log, so it names one state). Anything else, or a lost
        compare-and-set, returns None and the move takes the ordinary path, which reads the match and words the
        answer (errors, an Idempotency-Key retry). An Idempotency-Key already used for this seat fails the
        commit too (its row is unique), so a retry is never played twice."""
        try:
            seat = self.seat_for(rec, token, required=True)         # seats and their tokens never change
            assert seat is not None
            self._check_seat_field(body, seat)
            expected, _ = _expected_version(body, if_match)
            if expected != rec.version or state.is_terminal or seat not in state.actors:
                return None
            action = resolve_action(state.game, body["action"])
        except Problem:
            return None
        if not state.is_legal(action, seat):
            return None
        fingerprint = None if key is None else _fingerprint({"move": body, "if_match": if_match})
        return self._apply(copy.copy(rec), state, seat, action, key, fingerprint)

    def _apply(self, rec: MatchRecord, state: State, seat: int, action: int, key: str | None,
               fingerprint: str | None) -> dict[str, Any] | None:
        """Commit ``action`` of ``seat`` on ``state`` (at ``rec.version``) with the quick bot moves it makes due,
        then play the slow ones. The answer, or None (nothing written) if the compare-and-set lost."""
        after = state.clone()
        after.apply(action, seat)
        # the bot moves this one makes due are committed with it (quick bots only): one transaction
        bots = self._bot_moves(rec, after, rec.version + 2, quick_only=True)
        entries = [(seat, action, False)] + [(bots[i], bots[i + 1], True) for i in range(0, len(bots), 2)]
        if not self._commit(rec, after, entries, key=key, fingerprint=fingerprint):
            return None
        version = rec.version - len(entries) + 1
        if rec.bots_due:                                     # slow bots: played (and committed) before answering
            rec, after = self.drive_bots(rec, after)
            if key is not None:
                self.store.set_idempotent_end(rec.id, seat, key, rec.version)
        return payloads.move_result(rec, after, seat, version, action)

    def _play(self, rec: MatchRecord, state: State, seat: int, given: Mapping[str, Any], expected: int,
              via_header: bool, key: str | None, fingerprint: str | None) -> tuple[dict[str, Any], bool]:
        """Check and commit one action of ``seat`` chosen at version ``expected``, then play the bot seats."""
        for _ in range(CAS_RETRIES):
            if state.is_terminal:
                raise Problem("game-over", "the match is over: nothing can be played")
            if expected > rec.version or (expected < rec.version and not self._forgivable(state, seat, expected)):
                raise _stale(rec, f"the match is at version {rec.version}, not {expected}", via_header)
            action = playable_action(state, seat, given)
            answer = self._apply(rec, state, seat, action, key, fingerprint)
            if answer is not None:
                return answer, False
            # lost the compare-and-set: look again (a retry of ours may have won; a commitment may be ignorable)
            rec, state = self.load(rec.id, key)
            if key is not None:
                replay = self._replay(rec, state, seat, key, fingerprint or "")
                if replay is not None:
                    return replay, True
        raise _stale(rec, "the match kept changing; read it again", via_header)

    def _replay(self, rec: MatchRecord, state: State, seat: int, key: str,
                fingerprint: str) -> dict[str, Any] | None:
        """The original answer to a move already made with this Idempotency-Key (None: no such move). It is
        rebuilt, exactly, from the log: the match as it was at the version that answer showed."""
        assert rec.idempotent is not None, "a record loaded with its Idempotency-Key"
        stored = rec.idempotent.get(seat)
        if stored is None:
            return None
        if stored.fingerprint != fingerprint:
            raise Problem("idempotency-key-reuse", "this Idempotency-Key was used for a different request")
        rows = [r for r in self.store.actions(rec.id) if r.version <= stored.end_version]
        game = state.game
        then = game.replay(rec.seed, [(r.seat, r.action) for r in rows])
        rec_then = dataclasses.replace(rec, version=stored.end_version)
        return payloads.move_result(rec_then, then, seat, stored.version, rows[stored.version - 1].action)

    @staticmethod
    def _check_seat_field(body: Mapping[str, Any], seat: int) -> None:
        if "seat" in body and body["seat"] != seat:
            raise Problem("forbidden-seat", f"this token belongs to seat {seat}, not seat {body['seat']}")

    # -- bot moves on request --------------------------------------------------------------------------------

    def bot_move(self, match_id: str, token: str | None, body: dict[str, Any], if_match: int | None,
                 key: str | None) -> tuple[dict[str, Any], bool]:
        """A built-in bot chooses for the seat (from what the seat may know); ``play`` also applies it."""
        rec, state = self.load(match_id, key)
        seat = self.seat_for(rec, token, required=True)
        assert seat is not None
        self._check_seat_field(body, seat)
        budget = body.get("budget_ms")
        fingerprint = None
        if key is not None and body["play"]:
            fingerprint = _fingerprint({"bot-move": body, "if_match": if_match})
            replay = self._replay(rec, state, seat, key, fingerprint)
            if replay is not None:
                return payloads.played(replay, body["bot"], budget), True
        if state.is_terminal:
            raise Problem("game-over", "the match is over: nothing can be played")
        expected, via_header = _expected_version(body, if_match)
        if expected is not None and expected != rec.version and not self._forgivable(state, seat, expected):
            raise _stale(rec, f"the match is at version {rec.version}, not {expected}", via_header)
        if seat not in state.actors:
            raise Problem("not-your-turn", f"seat {seat} has nothing to decide now")
        self._check_budget(budget, "budget_ms")
        seed = body.get("seed")
        bot = make_bot(body["bot"], seed=secrets.randbits(63) if seed is None else seed)
        if not self._thinking.acquire(blocking=False):
            raise Problem("bots-busy", f"every one of this server's {self.settings.bot_think_slots} bot thinking "
                                       "slots is taken; retry shortly", headers={"Retry-After": "1"})
        try:
            action = bot.choose(state, seat, budget_ms=budget)
        finally:
            self._thinking.release()
        if not body["play"]:
            return payloads.proposal(rec, state, seat, action, body["bot"], budget), False
        result, replayed = self._play(rec, state, seat, {"id": action}, rec.version if expected is None else expected,
                                      via_header, key, fingerprint)
        return payloads.played(result, body["bot"], budget), replayed

    # -- events and log --------------------------------------------------------------------------------------

    def events(self, match_id: str, token: str | None, after: int, wait: float,
               gone: Callable[[], bool] | None = None) -> dict[str, Any]:
        """The actions after version ``after``, waiting up to ``wait`` seconds for one. The wait ends early when
        ``gone()`` says the client disconnected, and is skipped (the answer is the current view at once) when
        this process already has ``Settings.max_waiting_polls`` polls waiting: a poll never takes the last
        threads of a worker from the moves and the other requests."""
        rec, state = self.load(match_id)
        seat = self.seat_for(rec, token, required=False)
        if after > rec.version:
            raise Problem("validation", f"after={after} is beyond the match version {rec.version}",
                          errors={"after": ["beyond the current version"]})
        if wait > 0 and rec.version <= after and not state.is_terminal:
            if self._waiting.acquire(blocking=False):
                try:
                    rec, state = self._wait_for_change(rec, state, after, wait, gone)
                finally:
                    self._waiting.release()
            elif rec.bots_due:
                rec, state = self.drive_bots(rec, state)
        rows = self.store.actions(rec.id, after)
        return payloads.events(rec, state, [r for r in rows if r.version <= rec.version], seat)

    def _wait_for_change(self, rec: MatchRecord, state: State, after: int, wait: float,
                         gone: Callable[[], bool] | None) -> tuple[MatchRecord, State]:
        deadline = time.monotonic() + wait
        match_id = rec.id
        while rec.version <= after and not state.is_terminal:
            left = deadline - time.monotonic()
            if left <= 0 or (gone is not None and gone()):
                break
            if rec.bots_due:
                rec, state = self.drive_bots(rec, state, budget_s=left)
                continue
            self.changes.wait(min(POLL_INTERVAL_S, left))
            if self.store.get_version(match_id) != rec.version:
                rec, state = self.load(match_id)
        return rec, state

    def view(self, match_id: str, token: str | None) -> tuple[dict[str, Any], int]:
        rec, state = self.load(match_id)
        seat = self.seat_for(rec, token, required=False)
        if rec.bots_due:
            rec, state = self.drive_bots(rec, state)
        return payloads.match_view(rec, state, seat), rec.version

    def log(self, match_id: str, token: str | None) -> dict[str, Any]:
        rec, state = self.load(match_id)
        seat = self.seat_for(rec, token, required=False)
        rows = [r for r in self.store.actions(rec.id) if r.version <= rec.version]
        return payloads.log(rec, state, rows, seat)

    def recent(self, limit: int) -> dict[str, Any]:
        """The most recent listed matches (their public headers only)."""
        out = []
        for rec in self.store.listed_matches(limit):
            out.append(payloads.summary(rec, self._state(rec)))
        return {"matches": out}

    def replay(self, match_id: str, token: str | None, at: int, seat: int | None) -> dict[str, Any]:
        """A finished match as it stood after its first ``at`` actions, as ``seat`` saw it (None: a spectator).
        Only after the end: then the log shows every action and the seed is revealed, so a past view tells
        nothing the log does not already."""
        rec, state = self.load(match_id)
        self.seat_for(rec, token, required=False)        # a token given must be one of this match
        if not state.is_terminal:
            raise Problem("not-finished", "a match can be replayed once it is over; follow it live with /events")
        if at > rec.version:
            raise Problem("validation", f"at={at} is beyond the match's {rec.version} actions",
                          errors={"at": ["beyond the last version"]})
        check_seat(state, seat)
        rows = [r for r in self.store.actions(rec.id) if r.version <= rec.version]
        past = state.game.replay(rec.seed, [(r.seat, r.action) for r in rows[:at]])
        return payloads.replay_step(rec, past, rows[at - 1] if at else None, at, seat)

    # -- integrity -------------------------------------------------------------------------------------------

    def verify_replay(self, match_id: str) -> bool:
        """Replaying the seed and the action log gives exactly the stored state bytes."""
        rec = self.store.get_match(match_id)
        if rec is None:
            raise Problem("not-found", "no match with this id")
        rows = [r for r in self.store.actions(match_id) if r.version <= rec.version]
        if [r.version for r in rows] != list(range(1, rec.version + 1)):
            return False
        game = robotcore.load_game(rec.game, **rec.params)
        replayed = game.replay(rec.seed, [(r.seat, r.action) for r in rows])
        return replayed.to_bytes() == rec.state


def _sorted_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """Parameters in the order the store keeps them (sorted keys), so that every process words an answer
    with the same bytes, whether it remembers the match or reads it back."""
    return {k: params[k] for k in sorted(params)}


def _stale(rec: MatchRecord, detail: str, via_header: bool) -> Problem:
    """The stale-version refusal: 412 when the version came in If-Match (a failed precondition), else 409."""
    return Problem("stale-version", detail, status=412 if via_header else 409, current_version=rec.version)


def _expected_version(body: Mapping[str, Any], if_match: int | None) -> tuple[int | None, bool]:
    """expected_version from the body, else from If-Match; both given must agree. (version, from the header)"""
    if "expected_version" in body:
        if if_match is not None and if_match != body["expected_version"]:
            raise Problem("validation", "expected_version and If-Match disagree",
                          errors={"If-Match": ["differs from expected_version"]})
        return int(body["expected_version"]), False
    return if_match, if_match is not None


def _fingerprint(doc: Any) -> str:
    return hashlib.sha256(json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


# -- the stateless engine ---------------------------------------------------------------------------------------


def decode_state(game_name: str, encoded: str) -> State:
    """A client's serialized state of that game (base64 of State.to_bytes())."""
    import base64
    import binascii

    load_game(game_name, {})
    try:
        data = base64.b64decode(encoded.encode("ascii"), validate=True)
    except (binascii.Error, ValueError, UnicodeEncodeError):
        raise Problem("invalid-state", "state must be base64 of State.to_bytes()") from None
    try:
        state = robotcore.from_bytes(data)
    except CorruptStateError as exc:
        raise Problem("invalid-state", str(exc)) from None
    except RobotcoreError:
        raise Problem("invalid-state", "unreadable state bytes") from None
    if state.game.name != game_name:
        raise Problem("invalid-state", f"a state of {state.game.name}, not of {game_name}")
    return state


def encode_state(state: State) -> str:
    import base64

    return base64.b64encode(state.to_bytes()).decode("ascii")


def check_seat(state: State, seat: int | None) -> None:
    if seat is not None and not 0 <= seat < state.num_players:
        raise Problem("validation", f"seat must be 0..{state.num_players - 1}", errors={"seat": ["no such seat"]})
