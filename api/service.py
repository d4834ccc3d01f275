"""Matches over the common game protocol: creation, moves with compare-and-set, bot seats, long-poll, bot moves.

No game logic here: every rule question is asked of the registered game (``robotcore.load_game``, ``State``
methods, ``Game.action_*``, ``robotcore.bots.make_bot``), so any game added to the registry is served unchanged.
What goes back to a client is built by ``payloads`` (the one choke point); errors are ``Problem``s.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

import orjson
from sqlalchemy.exc import OperationalError

import robotcore
from robotcore import Game, State
from robotcore.bots import BOTS, Bot, bot_options, make_bot, parse_bot_spec
from robotcore.errors import (
    CorruptStateError,
    InvalidActionError,
    InvalidParameterError,
    RobotcoreError,
    UnknownGameError,
)
from robotcore.registry import game_class, params_for_seats

from . import payloads
from .auth import hash_token as _hash
from .auth import new_token, seat_of
from .live import (
    Change,
    ChangeFeed,
    Direct,
    Slots,
    Subscription,
    ThinkPool,
    Waiter,
    gevent_patched,
    park,
    spawn,
)
from .problems import Problem, field_errors
from .schemas import QUERY_FLOAT, QUERY_INT
from .store import ActionRow, MatchRecord, NewActions, SeatSpec, Store

#: How often a waiting watcher checks that its client is still connected (and, when the change feed is not
#: listening yet, reads the match's version itself).
T = TypeVar("T")

WATCH_TICK_S = 1.0
#: Thinking time of bot seats committed in one transaction (with the move that made them due, if quick).
BOT_BATCH_S = 0.02
#: Bot seats with a larger time budget (ms) are not batched with a seat's move: it is committed first.
QUICK_BOT_MS = 20
#: Defaults of ``Settings.bot_option_limits``: with these, a search thinks a few seconds at most in any game
BOT_OPTION_LIMITS: Mapping[str, int] = {
    "iterations": 100_000, "playouts": 1_000, "worlds": 4_096, "threads": 1, "depth": 10_000}
#: The longest a bot held to ``BOT_OPTION_LIMITS`` thinks on one move (100 000 ISMCTS iterations at the start
#: of Sparks: about 2.7 s on one core of the bench machine; 1 000 Monte Carlo playouts of 63 actions: 1.7 s)
WORK_BOUND_MS = 5_000
#: Retries of a move whose compare-and-set lost to a commitment it may ignore (simultaneous phases).
CAS_RETRIES = 8
#: Matches whose latest committed state a process keeps in memory (see ``MatchService.move``).
KNOWN_MATCHES = 1024


@dataclass(frozen=True)
class Settings:
    database_url: str
    #: Largest request body accepted (bytes).
    max_body_bytes: int = 64 * 1024
    #: Wall time a move (or a match creation) waits for the bot seats it made due before answering; they think
    #: on the bot pool, not on the request (the rest shows in events and streams as they play).
    bot_inline_s: float = 5.0
    #: PRAGMA synchronous of a SQLite store: NORMAL survives a killed process; FULL also a power cut.
    sqlite_synchronous: str = "NORMAL"
    #: Watchers one process holds open at once: waiting long-polls and event streams. A poll beyond that
    #: answers at once with the current view, a stream is refused (503 too-many-watchers, Retry-After). Under
    #: gunicorn's gevent worker a watcher is a parked greenlet (gunicorn_conf: 2000 per worker); under a
    #: threaded server each holds a thread (gunicorn_conf's gthread: half the threads).
    max_watchers: int = 64
    #: Longest life of one event stream; the browser's EventSource reconnects (Last-Event-ID) by itself.
    stream_max_s: float = 300.0
    #: A comment line sent on an idle stream this often (keeps proxies from closing it).
    heartbeat_s: float = 15.0
    #: A spectator's event stream sends at most one event per tick of this many seconds, the ticks shared by
    #: the spectators of a match (they then wake together and share each event's encoding; each match at its own
    #: phase of the tick, so that the matches' spectators do not all wake at once), so that a
    #: busy match costs its thousand spectators a few events a second, not one per move each; the event
    #: carries every action since the last one, and the end is never skipped. A seat's own stream is never
    #: held back. 0: one event per change.
    spectator_tick_s: float = 0.25
    #: Longest thinking time a bot may be given per move (bot seats and bot-move), at most 10 000 ms; a bot
    #: spec's ``ms=`` option is held to it too.
    max_budget_ms: int = 10_000
    #: The largest value a client may give each option of a built-in bot's spec that sets how much it works
    #: (``mcts:iterations=...``): with these, a search thinks a few seconds at most in any game (100 000 ISMCTS
    #: iterations: about 2.7 s at the start of Sparks, the slowest, on one core of the bench machine). An
    #: option not listed here is checked by the bot alone.
    #: A bot seat's or bot-move's value of such an option, given in its spec or the bot's default, must not
    #: exceed its limit; a mapping given here is merged over these defaults (``{"iterations": 5000}`` lowers
    #: that one only).
    bot_option_limits: Mapping[str, int] = dataclasses.field(default_factory=lambda: dict(BOT_OPTION_LIMITS))
    #: Native threads of one process's bot pool: every bot that thinks longer than a quick move (bot seats
    #: with a budget over ``QUICK_BOT_MS`` or options in their spec, POST .../bot-move) thinks there, never on a
    #: request.
    bot_think_slots: int = 2
    #: Bot jobs that may wait for a pool thread; beyond, a request that needs one is refused (503 bots-busy,
    #: Retry-After) before anything changes.
    bot_queue: int = 8
    #: Rate limits per client address and per seat token (``ratelimit``): e.g. "50/second;2000/minute";
    #: empty: none. Counters in ``rate_limit_storage`` (memory:// per process; redis://... shared).
    rate_limit_address: str = ""
    rate_limit_token: str = ""
    rate_limit_storage: str = "memory://"
    #: Reverse proxies in front of the service that set X-Forwarded-For (and -Proto, -Host): a client's
    #: address (its rate limits', the logs') is then read from there, ``proxy_hops`` entries from its end
    #: (werkzeug's ProxyFix); 0 (the default): the address of the connection, the proxy's behind one. Never more
    #: than the proxies there are: a client could then name any address it likes.
    proxy_hops: int = 0
    #: Database connections one process keeps open at most for requests (0: the store's own default, 16 on a
    #: server, 64 on SQLite); gunicorn_conf lowers it on PostgreSQL as the workers grow
    #: (``live.default_db_connections``), so that all of them stay under the server's connection limit.
    db_connections: int = 0

    def bot_limits(self) -> dict[str, int]:
        """The largest value of each capped bot option: ``bot_option_limits`` over the defaults, and ``ms``
        (a time budget in a spec) held to ``max_budget_ms`` as well."""
        limits = {**BOT_OPTION_LIMITS, **self.bot_option_limits}
        limits["ms"] = min(limits.get("ms", self.max_budget_ms), self.max_budget_ms)
        return limits

    def longest_think_s(self) -> float:
        """How long a bot may think on one move at most: its time budget, or what the work limits allow if
        that is longer (``WORK_BOUND_MS`` at the default limits, in proportion to the most raised one; more
        threads do not make a think longer); past this (and a margin) its match is taken up elsewhere."""
        limits = self.bot_limits()
        raised = max([1.0, *(limits[key] / top for key, top in BOT_OPTION_LIMITS.items() if key != "threads")])
        return max(self.max_budget_ms, WORK_BOUND_MS * raised) / 1000


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
        offered = [p.name for p in game_class(name).param_specs if p.name != "content"]
        unknown = sorted(set(params) - set(offered))
        if unknown:                     # the library's message also lists content, which HTTP cannot set
            raise Problem("invalid-parameter", f"{name} has no parameter {', '.join(unknown)}; "
                                               f"parameters: {', '.join(offered)}") from None
        raise Problem("invalid-parameter", str(exc)) from None


def params_from_query(name: str, query: Mapping[str, Any]) -> dict[str, Any]:
    """A game's parameters given as query arguments (strings), read as the types its parameters have: ``true``
    or ``false`` for a bool, a decimal for an int or a float; a name the game does not have is left as it is,
    for ``load_game`` to refuse with the list of those it has (and an unknown game too)."""
    specs = {p.name: p for p in game_class(name).param_specs} if name in robotcore.list_games() else {}
    out: dict[str, Any] = {}
    for key, text in query.items():
        spec = specs.get(key)
        if spec is None or not isinstance(text, str):
            out[key] = text
        elif spec.type is bool:
            if text not in ("true", "false"):
                raise Problem("invalid-parameter", f"{key} is true or false, got {text!r}")
            out[key] = text == "true"
        elif spec.type in (int, float):
            # ASCII digits only: Python's int() and float() would also read "5_0", " 5", "+5", "５" or "inf"
            if not (QUERY_INT if spec.type is int else QUERY_FLOAT).fullmatch(text):
                kind = "an integer" if spec.type is int else "a number"
                raise Problem("invalid-parameter", f"{key} is {kind} in decimal digits, got {text!r}")
            try:
                out[key] = spec.type(text)
            except ValueError:              # (int() refuses more than 4,300 digits)
                raise Problem("invalid-parameter", f"{key} is out of range, got {len(text)} digits") from None
        else:
            out[key] = text
    return out


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
        raise Problem("validation", "give the action as id, text or json", errors=field_errors("json", "action", "missing"))
    if len(set(found)) > 1:
        raise Problem("validation", "the forms of the action name different actions",
                      errors=field_errors("json", "action", "id, text and json disagree"))
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


def _seat_move(spec: SeatSpec, state: State, seat: int, seed: int, match_id: str) -> int:
    """The move of a bot seat, by the bot of its stored spec (checked when the match was made, against the
    limits of that time). Should that fail (an option a newer version renamed, a bug), the move is
    ``random``'s rather than the match stuck for ever, and the server logs why."""
    assert spec.bot is not None
    try:
        return make_bot(spec.bot, seed=seed, builtin_only=True).choose(state, seat, budget_ms=spec.budget_ms)
    except Exception as exc:                       # noqa: BLE001 - logged; the seat still moves
        logging.getLogger("robotcore_api").warning("match %s: seat %d (bot %r) played by random: %r",
                                                   match_id, seat, spec.bot, exc)
        return make_bot("random", seed=seed).choose(state, seat)


def _bot_seed(match_seed: int, version: int, seat: int) -> int:
    digest = hashlib.blake2b(f"{match_seed}:{version}:{seat}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def _quick(bot: str | None, budget_ms: int | None) -> bool:
    """A think done inline, never on the bot pool (a bot seat's, in the transaction of the move that made it due;
    a bot-move's): a built-in bot at its own settings, with a budget of ``QUICK_BOT_MS`` at most. One whose spec
    sets options, or with a longer budget, thinks on the pool."""
    return (budget_ms or 0) <= QUICK_BOT_MS and ":" not in (bot or "")


def _due_bot(seats: list[SeatSpec], state: State) -> int | None:
    """The first bot seat that must act now (None: none, or the game is over)."""
    if state.is_terminal:
        return None
    for seat in state.actors:
        if seats[seat].type == "bot":
            return int(seat)
    return None


def _bots_due(seats: list[SeatSpec], state: State) -> bool:
    return _due_bot(seats, state) is not None


class MatchService:
    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        #: wakes this process's watchers when a match changes (through the database: any process, any host)
        self.feed = ChangeFeed(store, self._on_change, settings.spectator_tick_s)
        self.feed.on_tick = self._spectator_tick
        self.feed.on_seats = self._seat_events
        #: watchers (waiting polls, open streams) held at once by this process
        self.watchers = Slots(settings.max_watchers)
        #: the bot pool: native threads that think, with a bounded queue
        self.pool = ThinkPool(settings.bot_think_slots, settings.bot_queue)
        #: matches whose bot seats this process is playing now, with the event set when it stops
        self._driving: dict[str, threading.Event] = {}
        self._driving_lock = threading.Lock()
        #: encoded stream events, shared by the watchers of one match: (match, seat, after, version) -> bytes
        self._stream_cache: dict[tuple[str, int | None, int, int], bytes] = {}
        #: the last state this process committed of each match, with its record: (record, state) by match id
        self._known: dict[str, tuple[MatchRecord, State]] = {}
        #: the newest state read (or committed) here of each match watched here, shared by its watchers: one
        #: database read per version per process, not one per watcher (``_latest``); with a lock per match so
        #: that watchers woken together wait for one read (and one encoding of an event) instead of each
        self._snapshots: dict[str, tuple[MatchRecord, State]] = {}
        self._snapshot_locks: dict[str, threading.Lock] = {}
        #: the action rows read here of each watched match, (after, rows after it): an event's rows are a slice,
        #: one query per new version per process, not one per (seat, last version sent) of its watchers
        self._action_rows: dict[str, tuple[int, list[Any]]] = {}

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
        if seats is not None and game_name in robotcore.list_games():
            try:
                params = params_for_seats(game_name, params, len(seats))
            except InvalidParameterError as exc:
                raise Problem("validation", str(exc), errors=field_errors("json", "seats", "wrong number of seats")) \
                    from None
        game = load_game(game_name, params)
        if seats is None:
            seats = [{"type": "human"} for _ in range(game.num_players)]
        if len(seats) != game.num_players:
            raise Problem("validation", f"{game.title} with these parameters has {game.num_players} seats, "
                                        f"got {len(seats)}", errors=field_errors("json", "seats", "wrong number of seats"))
        if not any(s.get("type", "human") == "human" for s in seats):
            raise Problem("validation", "a match needs at least one human seat (the one holding a token)",
                          errors=field_errors("json", "seats", "no human seat"))
        tokens: dict[int, str] = {}
        specs: list[SeatSpec] = []
        for i, s in enumerate(seats):
            if s.get("type", "human") == "human":
                tokens[i] = new_token()
                specs.append(SeatSpec("human", token_hash=_hash(tokens[i])))
            else:
                self._check_budget(s.get("budget_ms"), f"seats.{i}.budget_ms")
                self._check_bot(s["bot"], f"seats.{i}.bot", game, timed=s.get("budget_ms") is not None)
                specs.append(SeatSpec("bot", bot=s["bot"], budget_ms=s.get("budget_ms")))
        if seed is None:
            seed = secrets.randbits(63)
        state = game.new_initial_state(seed)
        reserved = _bots_due(specs, state) and not self._quick_due(specs, state)
        if reserved and not self.pool.reserve():
            raise _bots_busy(self.pool)
        now = time.time()
        rec = MatchRecord(
            id=secrets.token_urlsafe(12), game=game.name, params=_sorted_params(game.plain_params()), seed=seed, seats=specs,
            version=0, state=state.to_bytes(), finished=state.is_terminal, bots_due=_bots_due(specs, state),
            created_at=now, updated_at=now,
        )
        try:
            self.store.insert_match(rec)
            if listed:
                self.store.list_match(rec.id, now)
            self._remember(rec, state)
            if rec.bots_due and not reserved:          # quick bots: played and committed before answering
                after = state.clone()
                moves = self._bot_moves(rec, after, 1, quick_only=True)
                if moves and self._commit(rec, after, [(moves[i], moves[i + 1], True)
                                                       for i in range(0, len(moves), 2)]):
                    state = after
                if rec.bots_due:
                    reserved = self.pool.reserve()
            if rec.bots_due:
                rec, state = self._await_bots(rec, state, reserved)
                reserved = False
        finally:
            if reserved:
                self.pool.release()
        return payloads.created(rec, state, tokens)

    def _check_budget(self, budget_ms: int | None, field: str) -> None:
        top = self.settings.bot_limits()["ms"]         # max_budget_ms, or a lower cap of the ms option
        if budget_ms is not None and budget_ms > top:
            raise Problem("validation", f"this server lets a bot think at most {top} ms per move",
                          errors=field_errors("json", field, f"at most {top}"))

    def _check_bot(self, spec: str, field: str, game: Game, seed: int = 0, timed: bool = False) -> Bot:
        """The bot of a client's spec: a built-in bot (the schema checked its name) whose options it accepts
        (the bot's own checks), that fits the game (``Bot.check_game``) and whose options that set how much it
        works, as given or by default, stay within ``Settings.bot_limits``; ``timed``: a time budget comes with
        it (``budget_ms``), which, like ``ms``, replaces a search's default ``iterations``."""
        def invalid(message: str) -> Problem:
            return Problem("validation", message, errors=field_errors("json", field, message))

        try:
            name, options = parse_bot_spec(spec, builtin_only=True)
        except RobotcoreError as exc:
            raise invalid(str(exc)) from None
        limits = self.settings.bot_limits()
        takes = bot_options(BOTS[name])     # (an option it does not take is the bot's to refuse, below)
        effective = {k: v for k, v in options.items() if k in takes}    # those given first: named if they can be
        timed = timed or effective.get("ms") is not None
        for key, default in takes.items():
            if not (key == "iterations" and timed):         # a time budget, not the default count, bounds it
                effective.setdefault(key, default)
        for key, value in effective.items():
            top = limits.get(key)
            # a value of another type is the bot's to refuse (below), in its own words
            if top is not None and isinstance(value, (int, float)) and not isinstance(value, bool) and value > top:
                given = "" if key in options else " (its default)"
                raise invalid(f"bot {name!r}: this server allows {key} up to {top}, got {value!r}{given}")
        try:
            return make_bot(spec, seed=seed, for_game=game, builtin_only=True)
        except RobotcoreError as exc:
            message = str(exc)
            capped = [f"{key} up to {limits[key]}" for key in options if key in limits and f" {key} must" in message]
            raise invalid(message + (f" (this server allows {', '.join(capped)})" if capped else "")) from None

    # -- bots ------------------------------------------------------------------------------------------------

    def _bot_moves(self, rec: MatchRecord, state: State, first_version: int, quick_only: bool) -> list[int]:
        """Play the bot seats that are due on ``state`` (in place) for up to ``BOT_BATCH_S`` of thinking, at
        least one move; ``quick_only``: none of a bot seat whose time budget is large. Returns the seats and
        actions as a flat list [seat, action, seat, action...]."""
        out: list[int] = []
        start = time.monotonic()
        while (seat := _due_bot(rec.seats, state)) is not None:
            if out and time.monotonic() - start >= BOT_BATCH_S:
                break
            spec = rec.seats[seat]
            if quick_only and not _quick(spec.bot, spec.budget_ms):
                break
            version = first_version + len(out) // 2
            action = _seat_move(spec, state, seat, _bot_seed(rec.seed, version, seat), rec.id)
            state.apply(action, seat)
            out += [seat, action]
        return out

    @staticmethod
    def _quick_due(seats: list[SeatSpec], state: State) -> bool:
        """The bot seat due next thinks quickly (played inline, in the transaction of the move that made it due)."""
        seat = next((s for s in state.actors if seats[s].type == "bot"), None)
        return seat is not None and _quick(seats[seat].bot, seats[seat].budget_ms)

    def _await_bots(self, rec: MatchRecord, state: State, reserved: bool) -> tuple[MatchRecord, State]:
        """Bot seats are due on the match just committed: hand them (and the pool place ``reserved``, if any) to
        this process's driver, wait up to ``Settings.bot_inline_s`` for it (a parked greenlet under gevent), and
        return the match as it stands then."""
        done = self._drive(rec.id, reserved)
        if not done.wait(self.settings.bot_inline_s):
            return rec, state
        return self.load(rec.id)

    def _drive(self, match_id: str, reserved: bool) -> threading.Event:
        """Make sure this process plays the due bot seats of the match in the background; the event is set
        when it stops. A place in the pool already reserved for it is handed over (or given back)."""
        with self._driving_lock:
            done = self._driving.get(match_id)
            if done is None:
                done = self._driving[match_id] = threading.Event()
                spawn(self._play_bots, match_id, done, reserved)
                return done
        if reserved:
            self.pool.release()
        return done

    def _recover(self, rec: MatchRecord) -> None:
        """A read found bot seats due: if no process has played them for longer than the longest think (it
        crashed, or the pool was full), this one takes them up."""
        if rec.bots_due and rec.id not in self._driving and \
                time.time() - rec.updated_at > self.settings.longest_think_s() + 2:
            self._drive(rec.id, False)

    def _play_bots(self, match_id: str, done: threading.Event, reserved: bool) -> None:
        """The bot seats of one match, played until none is due: quick ones here, the others on the pool, each
        committed with compare-and-set (a human's move or another process may come first: read and go on)."""
        try:
            if not reserved:
                reserved = self.pool.reserve()
                if not reserved:
                    return                                   # full: a later read takes them up (_recover)
            lost = 0
            while lost <= CAS_RETRIES:
                rec, state = self.load(match_id)
                if not rec.bots_due or state.is_terminal:
                    return
                after = state.clone()
                if self._quick_due(rec.seats, after):
                    moves = self._bot_moves(rec, after, rec.version + 1, quick_only=True)
                else:
                    seat = next(s for s in after.actors if rec.seats[s].type == "bot")
                    action = self.pool.run(_seat_move, rec.seats[seat], after.clone(), seat,
                                           _bot_seed(rec.seed, rec.version + 1, seat), rec.id)
                    after.apply(action, seat)
                    moves = [seat, action]
                entries = [(moves[i], moves[i + 1], True) for i in range(0, len(moves), 2)]
                if not entries or not self._commit(rec, after, entries):
                    lost += 1
        except Exception:                                    # noqa: BLE001 - a background job: log it
            logging.getLogger("robotcore_api").exception("bot seats of match %s", match_id)
        finally:
            if reserved:
                self.pool.release()
            with self._driving_lock:
                self._driving.pop(match_id, None)
            done.set()

    def _commit(self, rec: MatchRecord, after: State, entries: list[tuple[int, int, bool]],
                key: str | None = None, fingerprint: str | None = None) -> bool:
        """Compare-and-set ``entries`` onto ``rec`` (updated in place when it wins)."""
        new = NewActions(entries=entries, state=after.to_bytes(), finished=after.is_terminal,
                         bots_due=_bots_due(rec.seats, after), created_at=time.time())
        if not self.store.commit(rec.id, rec.version, new, key, fingerprint):
            return False
        first = rec.version + 1
        rec.version += len(entries)
        rec.state = new.state
        rec.finished = new.finished
        rec.bots_due = new.bots_due
        rec.updated_at = new.created_at
        self._remember(rec, after)
        if self.feed.watching(rec.id):
            # the rows committed, held for this process's watchers as a notification's are: the seat's stream,
            # woken at once by ``publish``, finds them here instead of reading them back from the database
            self._hold_rows(rec.id, [ActionRow(first + i, seat, action, by_bot, new.created_at)
                                     for i, (seat, action, by_bot) in enumerate(entries)])
            self._keep_snapshot(rec, after)
        self.feed.publish(rec.id, rec.version)
        return True

    def _keep_snapshot(self, rec: MatchRecord, state: State) -> None:
        held = self._snapshots.get(rec.id)
        if held is not None and held[0].version >= rec.version:
            return
        if len(self._snapshots) >= KNOWN_MATCHES:
            self._snapshots.clear()
            self._snapshot_locks.clear()
            self._action_rows.clear()
        mine = rec.copy()                       # (a shallow copy: what a record holds is never changed in place)
        mine.idempotent = None
        self._snapshots[rec.id] = (mine, state)

    def _snapshot_lock(self, match_id: str) -> threading.Lock:
        lock = self._snapshot_locks.get(match_id)
        if lock is None:
            lock = self._snapshot_locks.setdefault(match_id, threading.Lock())
        return lock

    def _latest(self, match_id: str, version: int) -> tuple[MatchRecord, State]:
        """The match at ``version`` or later, for a watcher: the snapshot its other watchers here already
        read when it is that recent, else one read for all of them (the state is never changed in place)."""
        held = self._snapshots.get(match_id)
        if held is not None and held[0].version >= version:
            return held
        with self._snapshot_lock(match_id):
            held = self._snapshots.get(match_id)
            if held is not None and held[0].version >= version:
                return held
            moved = self._advance(held, version) if held is not None else None
            rec, state = moved if moved is not None else self.load(match_id)
            self._keep_snapshot(rec, state)
            return rec, state

    def _spectator_tick(self, match_id: str, version: int, behind: list[Subscription]) -> list[Subscription]:
        """A match's spectator tick (``ChangeFeed.on_tick``): the match brought to ``version`` once for its
        spectators here, and the event written by this timer itself to each spectator stream parked with a
        socket it may write (``live.Direct``: one non-blocking send each, no greenlet woken); returns the
        spectators to wake (the others, those whose socket was full or failed, and all of them at the end of
        the match, which their streams send with the end event)."""
        rec, state = self._latest(match_id, version)
        return self._write_events(rec, state, behind)

    def _seat_events(self, match_id: str, subs: list[Subscription]) -> list[Subscription]:
        """A match's seat streams parked with a socket, as the feed wakes them (``ChangeFeed.on_seats``): their
        events written to their sockets here when the snapshot is at the version heard (a commit of this
        process, or a notification that brought it there); returns those to wake (all, when it is not: their
        streams read the match)."""
        held = self._snapshots.get(match_id)
        heard = self.feed.heard(match_id)
        if held is None or heard is None or held[0].version < heard:
            return subs
        return self._write_events(*held, subs)

    def _write_events(self, rec: MatchRecord, state: State, subs: list[Subscription]) -> list[Subscription]:
        """The event of ``rec`` written to each stream of ``subs`` parked with a socket it may write
        (``live.Direct``: one non-blocking send each, no greenlet woken; each as its ``seat`` sees the match);
        returns the streams to wake: the others, those whose socket was full or failed, and all of them at the
        end of the match, which their streams send with the end event."""
        if state.is_terminal:
            return subs
        wake = []
        for sub in subs:
            direct, after = sub.direct, sub.version
            if direct is None or not direct.parked or after >= rec.version:
                if direct is None or after < rec.version:
                    wake.append(sub)
                continue
            frame = self._stream_event(rec, state, sub.seat, after)     # (may wait for a read: looked at again)
            done = direct.write(frame) if sub.version == after else "no"
            if done != "no":
                sub.version = rec.version
            if done != "sent":
                wake.append(sub)
        return wake

    def _advance(self, held: tuple[MatchRecord, State], version: int) -> tuple[MatchRecord, State] | None:
        """The snapshot ``held`` brought to ``version`` or later by applying the new action rows (read for the
        events anyway) to a clone of its state, as their commits did: one query per version instead of two.
        None when the rows are not exactly the versions that follow (then the match is read)."""
        rec, state = held
        rows = self._rows_between(rec.id, rec.version, max(version, rec.version))
        if not rows or rows[-1].version < version or [r.version for r in rows] != list(
                range(rec.version + 1, rec.version + 1 + len(rows))):
            return None
        try:
            after = state.clone()
            for r in rows:
                after.apply(r.action, r.seat)
        except RobotcoreError:
            return None
        new = rec.copy()
        new.version = rows[-1].version
        new.state = after.to_bytes()
        new.finished = after.is_terminal
        new.bots_due = _bots_due(rec.seats, after)
        new.updated_at = rows[-1].created_at
        return new, after

    def _hold_rows(self, match_id: str, rows: list[ActionRow]) -> None:
        """New action rows of a match (consecutive versions) joined to those held for its watchers here, when
        they follow them, or overlap them and go on (the SQLite feed's rows may begin with this process's own
        commits); ``_rows_between`` reads the database for anything else."""
        held_rows = self._action_rows.get(match_id)
        if held_rows is None:
            if len(self._action_rows) < KNOWN_MATCHES:
                self._action_rows[match_id] = (rows[0].version - 1, rows)
        else:
            base, have = held_rows
            upto = have[-1].version if have else base
            if rows[0].version <= upto < rows[-1].version:
                rows = rows[upto + 1 - rows[0].version:]
            if rows[0].version == upto + 1:
                self._action_rows[match_id] = (base, have + rows)

    def _on_change(self, match_id: str, change: Change) -> None:
        """A commit of another process, as its notification (PostgreSQL) or the SQLite check tells it
        (``live.Change``): the snapshot held for this match's watchers is brought to it from the state bytes it
        carries (else by applying its rows after the snapshot's version, when they reach back to it), and its rows
        join those held for the events: no query, here, for the watchers of that version. Anything that does not
        follow what is held is left to the watchers' reads."""
        rows = change.rows
        if rows:
            self._hold_rows(match_id, rows)
        held = self._snapshots.get(match_id)
        if held is None or held[0].version >= change.version:
            return
        rec, state = held
        after: State | None = None
        if change.state is not None:
            try:
                after = state.game.from_bytes(change.state)
            except CorruptStateError:
                after = None
        if after is None and rows and rows[0].version <= rec.version + 1 and rows[-1].version == change.version:
            try:                                     # (only the rows after the snapshot: they may overlap it)
                after = state.clone()
                for r in rows[rec.version + 1 - rows[0].version:]:
                    after.apply(r.action, r.seat)
            except RobotcoreError:
                return
        if after is None:
            return
        new = rec.copy()
        new.version = change.version
        new.state = change.state if change.state is not None else after.to_bytes()
        new.finished = after.is_terminal
        new.bots_due = _bots_due(rec.seats, after)
        new.updated_at = change.updated_at if change.updated_at is not None else (
            rows[-1].created_at if rows else rec.updated_at)
        self._snapshots[match_id] = (new, after)

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
        mine = rec.copy()                       # (a shallow copy: what a record holds is never changed in place)
        mine.idempotent = None
        known[rec.id] = (mine, state)

    # -- moving ----------------------------------------------------------------------------------------------

    @classmethod
    def _chosen_now(cls, rec: MatchRecord, state: State, seat: int, expected: int) -> bool:
        """May a move of ``seat`` chosen at version ``expected`` be played on the match as it is now? At the
        current version, or at an earlier one the seat's decision cannot depend on (``_forgivable``); never at
        a version the match has not reached."""
        return expected == rec.version or (expected < rec.version and cls._forgivable(state, seat, expected))

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
            fingerprint = _move_fingerprint(body, if_match)
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
        fingerprint = None if key is None else _move_fingerprint(body, if_match)
        return self._apply(rec.copy(), state, seat, action, key, fingerprint)

    def _apply(self, rec: MatchRecord, state: State, seat: int, action: int, key: str | None,
               fingerprint: str | None) -> dict[str, Any] | None:
        """Commit ``action`` of ``seat`` on ``state`` (at ``rec.version``) with the quick bot moves it makes due,
        then play the slow ones. The answer, or None (nothing written) if the compare-and-set lost."""
        after = state.clone()
        after.apply(action, seat)
        # the bot moves this one makes due are committed with it (quick bots only): one transaction
        bots = self._bot_moves(rec, after, rec.version + 2, quick_only=True)
        entries = [(seat, action, False)] + [(bots[i], bots[i + 1], True) for i in range(0, len(bots), 2)]
        # slow bots left due think on the pool: a place there is taken first, or the move is refused unplayed
        reserved = _bots_due(rec.seats, after)
        if reserved and not self.pool.reserve():
            raise _bots_busy(self.pool)
        try:
            if not self._commit(rec, after, entries, key=key, fingerprint=fingerprint):
                return None
            version = rec.version - len(entries) + 1
            if rec.bots_due:                     # played on the pool; the answer waits for them (bot_inline_s)
                reserved = False
                rec, after = self._await_bots(rec, after, True)
                if key is not None:
                    self.store.set_idempotent_end(rec.id, seat, key, rec.version)
        finally:
            if reserved:
                self.pool.release()
        return payloads.move_result(rec, after, seat, version, action)

    def _play(self, rec: MatchRecord, state: State, seat: int, given: Mapping[str, Any], expected: int,
              via_header: bool, key: str | None, fingerprint: str | None) -> tuple[dict[str, Any], bool]:
        """Check and commit one action of ``seat`` chosen at version ``expected``, then play the bot seats."""
        for _ in range(CAS_RETRIES):
            if state.is_terminal:
                raise Problem("game-over", "the match is over: nothing can be played")
            if not self._chosen_now(rec, state, seat, expected):
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
        if rec.bots_due and stored.end_version == rec.version:
            stored = self._settled(rec, seat, key, stored)
        rows = [r for r in self.store.actions(rec.id) if r.version <= stored.end_version]
        game = state.game
        then = game.replay(rec.seed, [(r.seat, r.action) for r in rows])
        rec_then = dataclasses.replace(rec, version=stored.end_version)
        return payloads.move_result(rec_then, then, seat, stored.version, rows[stored.version - 1].action)

    def _settled(self, rec: MatchRecord, seat: int, key: str, stored: Any) -> Any:
        """The stored answer of a move made with ``key`` whose bot seats were still due when the retry came: the
        original request may still be waiting for them (``bot_inline_s``) before it stores the version its
        answer shows, so the retry waits for that too, and answers as the original (REST review: a retry sent
        meanwhile answered the version before the bots' moves). Past the original's wait, what is stored."""
        deadline = time.monotonic() + self.settings.bot_inline_s + 0.5
        while time.monotonic() < deadline:
            time.sleep(0.05)                     # (gevent's sleep in a worker: a parked greenlet)
            now, _state = self.load(rec.id, key)
            assert now.idempotent is not None
            settled = now.idempotent.get(seat)
            if settled is not None and settled.end_version != stored.end_version:
                return settled
        return stored

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
        if expected is not None and not self._chosen_now(rec, state, seat, expected):
            raise _stale(rec, f"the match is at version {rec.version}, not {expected}", via_header)
        if seat not in state.actors:
            raise Problem("not-your-turn", f"seat {seat} has nothing to decide now")
        self._check_budget(budget, "budget_ms")
        seed = body.get("seed")
        bot = self._check_bot(body["bot"], "bot", state.game, secrets.randbits(63) if seed is None else seed,
                              timed=budget is not None)
        if _quick(body["bot"], budget):
            # (as a due bot seat's quick move: a pool kept full by long searches, abandoned ones included, held
            # up every bot-move, even random's, which needs no thinking)
            action = _think(bot, state.clone(), seat, budget)
        else:
            if not self.pool.reserve():
                raise _bots_busy(self.pool)
            try:
                action = self.pool.run(_think, bot, state.clone(), seat, budget)
            finally:
                self.pool.release()
        if not body["play"]:
            return payloads.proposal(rec, state, seat, action, body["bot"], budget), False
        try:
            result, replayed = self._play(rec, state, seat, {"id": action},
                                          rec.version if expected is None else expected, via_header, key, fingerprint)
        except Problem as problem:
            if expected is None and problem.problem_code == "stale-version":
                # the client sent no version: the one that moved on is the bot's (it said "not {rec.version}")
                problem.description = (f"the match moved on while the bot thought (it chose at version "
                                       f"{rec.version}, the match is at {problem.extensions['current_version']}); "
                                       "ask again")
            raise
        return payloads.played(result, body["bot"], budget), replayed

    # -- events and log --------------------------------------------------------------------------------------

    def events(self, match_id: str, token: str | None, after: int, wait: float,
               gone: Callable[[], bool] | None = None) -> dict[str, Any]:
        """The actions after version ``after``, waiting up to ``wait`` seconds for one. The wait ends early when
        ``gone()`` says the client disconnected, and is skipped (the answer is the current view at once) when
        this process already holds ``Settings.max_watchers`` watchers."""
        rec, state = self.load(match_id)
        seat = self.seat_for(rec, token, required=False)
        if after > rec.version:
            raise Problem("validation", f"after={after} is beyond the match version {rec.version}",
                          errors=field_errors("query", "after", "beyond the current version"))
        self._recover(rec)
        if wait > 0 and rec.version <= after and not state.is_terminal and self.watchers.take():
            try:
                rec, state = self._wait_for_change(rec, state, wait, gone)
            finally:
                self.watchers.give()
        rows = self.store.actions(rec.id, after)
        return payloads.events(rec, state, [r for r in rows if r.version <= rec.version], seat)

    def _wait_for_change(self, rec: MatchRecord, state: State, wait: float,
                         gone: Callable[[], bool] | None) -> tuple[MatchRecord, State]:
        """Park until the match moves past ``rec.version`` (the change feed says so), ``wait`` runs out or the
        client leaves; the match as it stands then."""
        deadline = time.monotonic() + wait
        sub = self.feed.subscribe(rec.id, rec.version)
        fd = _watched_socket(gone)
        try:
            version = self.store.get_version(rec.id)        # read after subscribing: no commit falls between
            while version == rec.version:
                left = deadline - time.monotonic()
                if left <= 0 or (gone is not None and gone()):
                    break
                # a watched socket wakes the watcher when its client leaves: no timer while the feed listens
                woke = park(sub.event, left if fd is not None and self.feed.listening else min(WATCH_TICK_S, left), fd)
                if woke == "client" and gone is not None and not gone():
                    fd = None                               # data waiting (a pipelined request): the timer then
                if woke == "news" or not self.feed.listening:
                    sub.event.clear()
                    version = self.store.get_version(rec.id)
        finally:
            self.feed.unsubscribe(sub)
        return (rec, state) if version == rec.version else self.load(rec.id)

    def stream(self, match_id: str, token: str | None, after: int | None,
               gone: Callable[[], bool] | None = None) -> Iterable[bytes]:
        """Server-sent events of a match for a seat (or a spectator): at once the actions after ``after`` (by
        default none) with the current view, then one event at each change, until the match ends, the client
        leaves or ``Settings.stream_max_s`` runs out (the client reconnects with Last-Event-ID). Checked at once
        (unknown match, bad token, ``after`` beyond the match: refused before the stream starts); a process
        holding ``Settings.max_watchers`` watchers refuses it (503 too-many-watchers, Retry-After)."""
        rec, state = self.load(match_id)
        seat = self.seat_for(rec, token, required=False)
        if after is None:
            after = rec.version
        if after > rec.version:
            raise Problem("validation", f"after={after} is beyond the match version {rec.version}",
                          errors=field_errors("query", "after", "beyond the current version"))
        if not self.watchers.take():
            raise Problem("too-many-watchers", f"this server process already holds {self.watchers.size} "
                                               "watchers; retry shortly, or poll", headers={"Retry-After": "5"})
        return _Stream(self, rec, state, seat, after, gone)

    def _stream_event(self, rec: MatchRecord, state: State, seat: int | None, sent: int) -> bytes:
        """One event: what changed after ``sent`` and the current view, encoded once for every watcher of the
        match in the same place (the spectators of a match share it)."""
        key = (rec.id, seat, sent, rec.version)
        cached = self._stream_cache.get(key)
        if cached is None:
            with self._snapshot_lock(rec.id):          # the match's other watchers woken with it wait for it
                cached = self._stream_cache.get(key)
                if cached is None:
                    rows = self._rows_between(rec.id, sent, rec.version)
                    body = payloads.encode(payloads.events(rec, state, rows, seat))
                    cached = b"id: %d\nevent: match\ndata: %s\n\n" % (rec.version, body)
                    if len(self._stream_cache) >= 512:
                        self._stream_cache.clear()
                    self._stream_cache[key] = cached
        return cached

    def _rows_between(self, match_id: str, after: int, version: int) -> list[Any]:
        """The match's action rows after ``after`` up to ``version``, from the rows held for its watchers here
        (read once, then only the new ones; committed rows never change). Under the match's snapshot lock."""
        held = self._action_rows.get(match_id)
        if held is None or held[0] > after:
            held = (after, self.store.actions(match_id, after))
        else:
            base, rows = held
            upto = rows[-1].version if rows else base
            if upto < version:
                held = (base, rows + self.store.actions(match_id, upto))
        if len(self._action_rows) >= KNOWN_MATCHES and match_id not in self._action_rows:
            self._action_rows.clear()
        self._action_rows[match_id] = held
        base, rows = held
        # the rows held follow ``base`` one version each (read or appended only when they do): a slice
        if rows and rows[0].version == base + 1 and rows[-1].version == base + len(rows):
            return rows[max(0, after - base):max(0, version - base)]
        return [r for r in rows if after < r.version <= version]

    def view(self, match_id: str, token: str | None) -> tuple[dict[str, Any], int]:
        rec, state = self.load(match_id)
        seat = self.seat_for(rec, token, required=False)
        self._recover(rec)
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
                          errors=field_errors("query", "at", "beyond the last version"))
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


class _Stream:
    """The body of an event stream (a WSGI iterable): its watcher slot is given back when the server closes it,
    whether the client left, the stream ended or it never started."""

    def __init__(self, service: MatchService, rec: MatchRecord, state: State, seat: int | None, after: int,
                 gone: Callable[[], bool] | None) -> None:
        self.service, self.rec, self.state, self.seat, self.after, self.gone = service, rec, state, seat, after, gone
        self._closed = False

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.service.watchers.give()

    def __iter__(self) -> Iterator[bytes]:
        svc, seat, settings = self.service, self.seat, self.service.settings
        # a spectator's news comes at its match's spectator tick (Settings.spectator_tick_s), a seat's at once
        sub = svc.feed.subscribe(self.rec.id, self.rec.version, spectator=seat is None, seat=seat)
        waiter = Waiter(sub.event, _watched_socket(self.gone), min(settings.heartbeat_s, settings.stream_max_s))
        # its events written by the feed itself while it is parked (live.Direct): a spectator's by its match's
        # tick, a seat's as the commit is heard
        direct = _direct_socket(self.gone) if waiter.watching else None
        sub.direct = direct
        try:
            rec, state = self.rec, self.state
            start = beat = time.monotonic()
            # read after subscribing, so that no commit falls between; the version alone (the match itself
            # was just read to check the request), the whole match only when it moved
            if (yield from self._stored(waiter, start, partial(svc.store.get_version, rec.id))) != rec.version:
                rec, state = yield from self._stored(waiter, start, partial(svc.load, rec.id))
            svc._keep_snapshot(rec, state)       # what the notifications of this match's commits bring up to date
            yield b"retry: 2000\n\n"
            sent = self.after
            first = True
            while True:
                if first or rec.version > sent:
                    first = False
                    yield (yield from self._stored(waiter, start, partial(svc._stream_event, rec, state, seat, sent)))
                    sent = sub.version = rec.version
                    if state.is_terminal:
                        yield b"event: end\ndata: {}\n\n"
                        return
                version = rec.version
                while version == rec.version:
                    now = time.monotonic()
                    # (a watched socket wakes the wait when its client leaves: no need to look at it)
                    if now - start >= settings.stream_max_s or self._closed or (
                            self.gone is not None and not waiter.watching and self.gone()):
                        return
                    if now - beat >= settings.heartbeat_s:
                        beat = now
                        yield b": keep-alive\n\n"
                    # a watched socket wakes the watcher when its client leaves: no timer at each wait while the
                    # feed listens (the waiter's own, repeating, for the heartbeat and the stream's end)
                    if direct is not None:
                        direct.parked = True
                    woke = waiter.wait(None if waiter.watching and svc.feed.listening
                                       else min(WATCH_TICK_S, settings.heartbeat_s))
                    if direct is not None:
                        direct.parked = False
                        if direct.backlog:            # what the tick wrote and the socket did not take yet
                            data, direct.backlog = direct.backlog, b""
                            try:
                                self.gone.sendall(data)             # type: ignore[union-attr]
                            except OSError:
                                return
                        if direct.failed:
                            return
                        if sub.version > sent:           # (the tick sent those: their beat counts too)
                            sent = sub.version
                            beat = time.monotonic()
                    if woke == "client" and self.gone is not None and self.gone():
                        return
                    if woke != "timeout" or not svc.feed.listening:
                        sub.event.clear()
                        # the version the feed heard (no query), else the database's; never behind what
                        # this watcher already sent (a late notification)
                        heard = svc.feed.heard(rec.id)
                        if heard is None:
                            heard = yield from self._stored(waiter, start, partial(svc.store.get_version, rec.id))
                        version = max(rec.version, heard or rec.version)
                rec, state = yield from self._stored(waiter, start, partial(svc._latest, rec.id, version))
        except _StreamOver:
            return
        finally:
            if direct is not None:
                direct.parked = False                   # the tick never writes to it again
                sub.direct = None
            waiter.close()
            svc.feed.unsubscribe(sub)
            self.close()


    def _stored(self, waiter: Waiter, start: float, read: Callable[[], T]) -> Generator[bytes, None, T]:
        """``read()`` of the store, as a generator that returns its value (``yield from``). While the store is
        unreachable (a database restart, lost connections: requests answer 503 meanwhile) the stream stays open
        and tries again, later each time (0.25 s, doubling up to 5 s), with its keep-alive lines, rather than
        breaking every stream of the server at once; it ends (``_StreamOver``) if its client leaves or its time
        runs out meanwhile."""
        settings = self.service.settings
        delay = 0.25
        beat = time.monotonic()
        while True:
            try:
                return read()
            except OperationalError as exc:
                now = time.monotonic()
                if self._closed or now - start >= settings.stream_max_s:
                    raise _StreamOver from None
                if delay == 0.25:
                    logging.getLogger("robotcore_api").warning(
                        "event stream of %s: the store is unreachable (%s); trying again", self.rec.id,
                        str(exc).splitlines()[0])
                if now - beat >= settings.heartbeat_s:
                    beat = now
                    yield b": keep-alive\n\n"
                waiter.event.clear()                 # (news is read from the store once it answers again)
                if waiter.wait(delay) == "client" and self.gone is not None and self.gone():
                    raise _StreamOver from None
                delay = min(5.0, delay * 2)


class _StreamOver(Exception):
    """An event stream ends: its client left, or its time ran out, while it waited for the store."""


def _direct_socket(gone: Callable[[], bool] | None) -> Direct | None:
    """The client's socket for the change feed to write a stream's events to (``live.Direct``): under
    gevent, on a response the server frames as HTTP/1.1 chunks that the app may write beside it
    (``routes.ClientGone.direct``); None otherwise."""
    framing = getattr(gone, "direct", None)
    native = getattr(gone, "native", None)
    if framing is None or native is None or not gevent_patched():
        return None
    return Direct(native, framing == "chunked")


def _watched_socket(gone: Callable[[], bool] | None) -> int | None:
    """The client's socket, when the event loop can wake a watcher as it turns readable (``live.park``)."""
    fd = getattr(gone, "fileno", None)
    return fd if isinstance(fd, int) and gevent_patched() else None


def _think(bot: Any, state: State, seat: int, budget_ms: int | None) -> int:
    """A bot's choice (run on a thread of the bot pool, on a state of its own)."""
    return int(bot.choose(state, seat, budget_ms=budget_ms))


def _bots_busy(pool: ThinkPool) -> Problem:
    return Problem("bots-busy", f"the server's bot pool ({pool.threads} threads, {pool.places - pool.threads} "
                                "waiting) is full; retry shortly", headers={"Retry-After": "1"})


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
                          errors=field_errors("headers", "If-Match", "differs from expected_version"))
        return int(body["expected_version"]), False
    return if_match, if_match is not None


def _fingerprint(doc: Any) -> str:
    """The digest an Idempotency-Key's request is remembered by: SHA-256 of its JSON text with sorted keys."""
    return hashlib.sha256(json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


_PLAIN_MOVE_KEYS = frozenset(("action", "expected_version", "seat"))
_PLAIN_ACTION_KEYS = frozenset(("id", "text"))


def _move_fingerprint(body: Mapping[str, Any], if_match: int | None) -> str:
    """``_fingerprint({"move": body, "if_match": if_match})``, the same digest: for the usual body (the action
    by id or by printable ASCII text, integers otherwise) its text is orjson's, which writes those bytes for
    such JSON exactly as the standard library does, in a tenth of the time; anything else goes through the
    standard library."""
    given = body.get("action")
    if (type(given) is dict and given.keys() <= _PLAIN_ACTION_KEYS and body.keys() <= _PLAIN_MOVE_KEYS
            and (if_match is None or type(if_match) is int)
            and all(type(v) is int for k, v in body.items() if k != "action")
            and ("id" not in given or type(given["id"]) is int)):
        text = given.get("text")
        if text is None or (type(text) is str and text.isascii() and text.isprintable()):
            try:
                encoded = orjson.dumps({"move": body, "if_match": if_match}, option=orjson.OPT_SORT_KEYS)
            except TypeError:                  # orjson.JSONEncodeError: an integer beyond 64 bits
                pass
            else:
                return hashlib.sha256(encoded).hexdigest()
    return _fingerprint({"move": body, "if_match": if_match})


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


def check_seat(state: State, seat: int | None, location: str = "query") -> None:
    if seat is not None and not 0 <= seat < state.num_players:
        raise Problem("validation", f"seat must be 0..{state.num_players - 1}",
                      errors=field_errors(location, "seat", "no such seat"))
