"""The app factory: ``create_app(database_url=None)``.

The store is a SQLite file by default (``ROBOTCORE_DATABASE_URL``, else ``robotcore.db`` in the working
directory); any SQLAlchemy URL works, e.g. ``postgresql+psycopg://user@host/db``. Several processes (gunicorn
workers) may serve the same database: they share nothing else.
"""

from __future__ import annotations

import http
import io
import logging
import os
import sys
from pathlib import Path
from typing import Any

from flask import Flask, request, send_from_directory, signals
from flask.ctx import AppContext, RequestContext
from flask.globals import _cv_app, _cv_request
from flask.sessions import NullSession, SecureCookieSessionInterface
from flask.wrappers import Request as FlaskRequest
from flask.wrappers import Response as FlaskResponse
from flask_smorest import Api
from flask_smorest.utils import prepare_response
from sqlalchemy.exc import OperationalError
from werkzeug.datastructures import Headers
from werkzeug.exceptions import HTTPException
from werkzeug.routing import MapAdapter
from werkzeug.wrappers import Response

import robotcore
from robotcore.core.game import is_decimal

from . import payloads
from .problems import PROBLEM_MEDIA_TYPE, Problem, field_errors, from_http_exception
from .ratelimit import RateLimits, parse_limits
from .routes import BLUEPRINTS
from .schemas import ProblemSchema
from .service import MatchService, Settings
from .store import Store, default_database_url

log = logging.getLogger("robotcore_api")

#: The browser page's files (plain JavaScript modules, a style sheet, two HTML shells), shipped as package data.
PAGE_DIR = Path(__file__).with_name("page")

#: Sent with the page and its files (every path outside /v1; Swagger UI's page at /v1/docs has inline scripts of
#: its own): the page runs only its own files (no inline script or style, nothing
#: from elsewhere), talks only to this origin, cannot be framed, and leaks no URL in a Referer.
PAGE_SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
}

API_DESCRIPTION = """\
Matches of every robotcore game over HTTP, for bots and other clients.

- Create a match (`POST /v1/matches`): one secret token per human seat, shown once. Send it as
  `Authorization: Bearer <token>`; without a token you are a spectator.
- Read the match as your seat sees it (`GET /v1/matches/{match_id}`): `version`, `actors` (whose turn; several
  in a simultaneous phase) and, when you must act, your `legal_actions` as id, text and JSON.
- Move (`POST /v1/matches/{match_id}/moves`) with the `expected_version` you chose at (or `If-Match`); retries
  with the same `Idempotency-Key` return the original answer.
- Wait for others with `GET /v1/matches/{match_id}/events?after=<version>&wait=<seconds>`.
- Errors are `application/problem+json`; branch on their `code`. Over a rate limit (when the server sets
  them, per client address and per seat token) the answer is `429` `rate-limited` with `Retry-After`.
"""


class ProblemApi(Api):
    """flask-smorest's Api answering every error as application/problem+json, and documenting it so."""

    ERROR_SCHEMA = ProblemSchema

    def _register_responses(self) -> None:
        for status in http.HTTPStatus:
            response: dict[str, Any] = {"description": status.phrase}
            if status >= 400:
                response["schema"] = self.ERROR_SCHEMA
            prepare_response(response, self.spec, PROBLEM_MEDIA_TYPE)
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": "An error (problem details with a stable `code`)", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, PROBLEM_MEDIA_TYPE)
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)

    def handle_http_exception(self, error: HTTPException) -> Response:
        problem = from_http_exception(error)
        # a Problem the service raised on purpose (bots-busy, too-many-watchers: 503 with Retry-After) is a
        # planned answer; only what nobody planned (an exception Flask turned into a 500) is an internal error
        if problem.status >= 500 and not isinstance(error, Problem):
            original = getattr(error, "original_exception", None)
            log.error("internal error on %s %s", request.method, request.path, exc_info=original)
        headers = dict(problem.extra_headers)
        if problem.status == 405 and hasattr(error, "valid_methods") and error.valid_methods:
            headers["Allow"] = ", ".join(error.valid_methods)
        return payloads.send(problem.body(), problem.status, headers, mimetype=PROBLEM_MEDIA_TYPE)


#: WSGI environ key: a chunked body went over the limit (answered 413 by the app)
CHUNKED_TOO_LARGE = "robotcore.chunked_too_large"


class BoundedChunkedBody:
    """WSGI middleware: a chunked body (no Content-Length to check up front) is read here up to the limit and
    handed on with its length, or flagged as too large. Werkzeug would quietly cut it at the limit, and the
    truncated JSON would be answered as malformed instead of 413."""

    def __init__(self, app: Any, max_body_bytes: int) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        if environ.get("HTTP_TRANSFER_ENCODING") and not environ.get("CONTENT_LENGTH"):
            data = environ["wsgi.input"].read(self.max_body_bytes + 1)
            if len(data) > self.max_body_bytes:
                environ[CHUNKED_TOO_LARGE] = True
                data = b""
            environ["wsgi.input"] = io.BytesIO(data)
            environ["CONTENT_LENGTH"] = str(len(data))
            del environ["HTTP_TRANSFER_ENCODING"]
        return self.app(environ, start_response)


class _ServiceRequest(FlaskRequest):
    """Flask's request; closed without werkzeug's walk over the uploaded files when none were parsed (its own
    ``close`` looks them up and walks an empty mapping on every request)."""

    def close(self) -> None:
        if "files" in self.__dict__:
            super().close()


class ServiceFlask(Flask):
    """Flask, with less of its request cycle for what this app does not use (every route alike; anything the
    shortcuts skip is still done when it is set up, by Flask's own code):

    - each view and hook is called as it is: no view or hook is a coroutine (Flask's ``ensure_sync`` otherwise
      inspects every one on every request);
    - no session is opened: without a secret key Flask's cookie sessions make the same empty read-only
      ``NullSession`` on every request, here one shared (writing to it raises, as Flask's would);
    - the before-request, after-request and teardown functions are the app's own (none per blueprint), called
      without Flask's walk over the request's blueprint names; the request and app signals are sent only
      when something listens to them;
    - the URL adapter of a request is made from what Flask made for the last request that came with the same
      host, server address, script name and scheme (``_bound``): Flask's ``create_url_adapter`` validates the
      host, lower-cases and IDNA-encodes it and works out the subdomain on every request, about 29 us, for
      the same few answers (only when no ``TRUSTED_HOSTS``, ``SERVER_NAME``, host or subdomain matching is
      set: with any of them Flask's own code runs every time);
    - the request, its context and the app are read from Flask's context variables, not through its proxies
      (``request``, ``request_ctx``, ``current_app``: a lookup each); a view's ``BodyResponse`` is taken as it is
      (what ``make_response`` would answer after its type checks); an app context's URL adapter is None at once
      without ``SERVER_NAME``; the request is closed without werkzeug's walk over uploaded files when none
      were parsed (``_ServiceRequest``).
    """

    request_class = _ServiceRequest

    def ensure_sync(self, func: Any) -> Any:
        return func

    #: URLs matched lately, (method, path, subdomain, websocket) -> (rule, arguments): werkzeug's matcher
    #: walks its state machine again for every request of a match's moves (the rules never change once the
    #: app serves: Flask refuses new ones); only matches that succeed are kept
    _matched: dict[tuple[str, str, str | None, bool], tuple[Any, dict[str, Any]]]
    MATCHED_URLS = 4096

    #: what the URL adapters are made of, by the environ's values they depend on (see ``create_url_adapter``):
    #: (scheme, Host, server name, server port, script name, Connection, Upgrade) -> (request.host, server name,
    #: script name, subdomain, URL scheme), as Flask and werkzeug worked them out; only hosts they accepted
    _bound: dict[tuple[Any, ...], tuple[str, str, str, str | None, str]]
    BOUND_HOSTS = 256

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._matched = {}
        self._bound = {}

    def create_url_adapter(self, request: Any) -> MapAdapter | None:
        config = self.config
        if request is None:                    # an app context's: none without SERVER_NAME (Flask's own answer)
            return None if config["SERVER_NAME"] is None else super().create_url_adapter(None)
        if (config["TRUSTED_HOSTS"] is not None or config["SERVER_NAME"] is not None
                or self.url_map.host_matching or self.subdomain_matching):
            return super().create_url_adapter(request)
        environ = request.environ
        get = environ.get
        key = (environ["wsgi.url_scheme"], get("HTTP_HOST"), get("SERVER_NAME"), get("SERVER_PORT"),
               get("SCRIPT_NAME"), get("HTTP_CONNECTION"), get("HTTP_UPGRADE"))
        known = self._bound.get(key)
        if known is None:
            adapter = super().create_url_adapter(request)       # (a refused host raises: nothing kept)
            assert adapter is not None
            if len(self._bound) >= self.BOUND_HOSTS:
                self._bound.clear()
            self._bound[key] = (request.host, adapter.server_name, adapter.script_name, adapter.subdomain,
                                adapter.url_scheme)
            return adapter
        request.host = known[0]
        # werkzeug's bind_to_environ: the path and query decoded as a WSGI string, "/" for no path
        path = get("PATH_INFO")
        query = get("QUERY_STRING")
        return MapAdapter(self.url_map, known[1], known[2], known[3], known[4],
                          "/" if path is None else path.encode("latin1").decode(errors="replace"),
                          environ["REQUEST_METHOD"],
                          None if query is None else query.encode("latin1").decode(errors="replace"))

    def request_context(self, environ: Any) -> RequestContext:
        if type(self.session_interface) is SecureCookieSessionInterface and not self.config["SECRET_KEY"]:
            return _ServiceRequestContext(self, environ, session=_NO_SESSION)
        return _ServiceRequestContext(self, environ)

    def full_dispatch_request(self) -> FlaskResponse:
        self._got_first_request = True
        try:
            if signals.request_started.receivers:
                signals.request_started.send(self, _async_wrapper=self.ensure_sync)
            rv = self.preprocess_request()
            if rv is None:
                rv = self.dispatch_request()
        except Exception as e:
            rv = self.handle_user_exception(e)
        return self.finalize_request(rv)

    def finalize_request(self, rv: Any, from_error_handler: bool = False) -> FlaskResponse:
        if signals.request_finished.receivers:
            return super().finalize_request(rv, from_error_handler)
        # (a view's Response, the usual, is what make_response would answer, after its type checks)
        response = rv if type(rv) is payloads.BodyResponse else self.make_response(rv)
        try:
            response = self.process_response(response)
        except Exception:
            if not from_error_handler:
                raise
            self.logger.exception("Request finalizing failed with an error while handling an error")
        return response

    def dispatch_request(self) -> Any:
        # Flask's, with the request read from its context variable (not through the request_ctx proxy)
        req = _cv_request.get().request
        if req.routing_exception is not None:
            self.raise_routing_exception(req)
        rule = req.url_rule
        if getattr(rule, "provide_automatic_options", False) and req.method == "OPTIONS":
            return self.make_default_options_response()
        assert rule is not None and req.view_args is not None
        return self.view_functions[rule.endpoint](**req.view_args)

    def preprocess_request(self) -> Any:
        funcs = self.before_request_funcs
        if self.url_value_preprocessors or len(funcs) > (None in funcs):   # (a blueprint's own functions)
            return super().preprocess_request()
        for func in funcs.get(None, ()):
            rv = func()
            if rv is not None:
                return rv
        return None

    def process_response(self, response: FlaskResponse) -> FlaskResponse:
        funcs = self.after_request_funcs
        ctx = _cv_request.get()
        if ctx._after_request_functions or ctx._session is not _NO_SESSION or len(funcs) > (None in funcs):
            return super().process_response(response)
        for func in reversed(funcs.get(None, ())):
            response = func(response)
        return response

    def do_teardown_request(self, *exc: Any) -> None:
        if self.teardown_request_funcs or signals.request_tearing_down.receivers:
            super().do_teardown_request(*exc)

    def do_teardown_appcontext(self, *exc: Any) -> None:
        if self.teardown_appcontext_funcs or signals.appcontext_tearing_down.receivers:
            super().do_teardown_appcontext(*exc)

    def app_context(self) -> AppContext:
        return _ServiceAppContext(self)


class _ServiceRequestContext(RequestContext):
    """Flask's request context, matching a URL it matched lately from ``ServiceFlask._matched``."""

    app: ServiceFlask

    def match_request(self) -> None:
        adapter = self.url_adapter
        assert adapter is not None
        key = (adapter.default_method, adapter.path_info, adapter.subdomain, adapter.websocket)
        matched = self.app._matched
        known = matched.get(key)
        if known is not None:
            self.request.url_rule, view_args = known
            self.request.view_args = dict(view_args)
            return
        super().match_request()
        if self.request.routing_exception is None and self.request.view_args is not None:
            if len(matched) >= self.app.MATCHED_URLS:
                matched.clear()
            matched[key] = (self.request.url_rule, dict(self.request.view_args))


class _ServiceAppContext(AppContext):
    """Flask's app context, sending its pushed and popped signals only when something listens to them."""

    def push(self) -> None:
        if signals.appcontext_pushed.receivers:
            super().push()
        else:
            self._cv_tokens.append(_cv_app.set(self))

    def pop(self, *exc: Any) -> None:
        if signals.appcontext_popped.receivers:
            super().pop(*exc)
            return
        try:
            if len(self._cv_tokens) == 1:
                self.app.do_teardown_appcontext(*(exc or (sys.exc_info()[1],)))
        finally:
            ctx = _cv_app.get()
            _cv_app.reset(self._cv_tokens.pop())
        if ctx is not self:
            raise AssertionError(f"Popped wrong app context. ({ctx!r} instead of {self!r})")


#: The session of every request (see ``ServiceFlask``): empty, read-only, never saved.
_NO_SESSION = NullSession()


def _swagger_ui_assets() -> str | None:
    try:
        import swagger_ui_bundle
    except ImportError:  # pragma: no cover - the service extra installs it
        return None
    path: str = swagger_ui_bundle.swagger_ui_path
    return path


def create_app(database_url: str | None = None, *, settings: Settings | None = None,
               create_schema: bool = True) -> Flask:
    """The service as a Flask app. ``database_url``: any SQLAlchemy URL (default: ``ROBOTCORE_DATABASE_URL``,
    else the SQLite file ``robotcore.db`` in the working directory)."""
    if settings is None:
        settings = Settings(
            database_url=database_url or default_database_url(),
            sqlite_synchronous=os.environ.get("ROBOTCORE_SQLITE_SYNCHRONOUS", "NORMAL"),
            max_watchers=int(os.environ.get("ROBOTCORE_MAX_WATCHERS", "64")),
            spectator_tick_s=float(os.environ.get("ROBOTCORE_SPECTATOR_TICK_S", "0.25")),
            max_budget_ms=int(os.environ.get("ROBOTCORE_MAX_BUDGET_MS", "10000")),
            bot_think_slots=int(os.environ.get("ROBOTCORE_BOT_THINK_SLOTS", "2")),
            bot_queue=int(os.environ.get("ROBOTCORE_BOT_QUEUE", "8")),
            rate_limit_address=os.environ.get("ROBOTCORE_RATE_LIMIT_ADDRESS", ""),
            rate_limit_token=os.environ.get("ROBOTCORE_RATE_LIMIT_TOKEN", ""),
            rate_limit_storage=os.environ.get("ROBOTCORE_RATE_LIMIT_STORAGE", "memory://"),
            proxy_hops=int(os.environ.get("ROBOTCORE_PROXY_HOPS", "0")),
            db_connections=int(os.environ.get("ROBOTCORE_DB_CONNECTIONS", "0")),
        )
    elif database_url is not None:
        raise TypeError("give database_url or settings, not both")

    app = ServiceFlask("robotcore_api", static_folder=str(PAGE_DIR), static_url_path="/page")
    # "/v1//matches" is no path of the API: werkzeug answered it with an HTML redirect built from the client's
    # Host header (a cache-poisoning vector behind a cache), not with the problem+json 404 of any unknown path
    app.url_map.merge_slashes = False
    assets = _swagger_ui_assets()
    app.config.update(
        MAX_CONTENT_LENGTH=settings.max_body_bytes,
        API_TITLE="robotcore",
        API_VERSION=robotcore.__version__,
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/v1",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="docs",
        OPENAPI_SWAGGER_UI_URL="/v1/docs/assets/" if assets else "https://cdn.jsdelivr.net/npm/swagger-ui-dist/",
        API_SPEC_OPTIONS={
            "info": {"description": API_DESCRIPTION, "license": {"name": "MIT"}},
            "components": {"securitySchemes": {
                "seatToken": {"type": "http", "scheme": "bearer",
                              "description": "the seat token returned once by POST /v1/matches"},
            }},
        },
    )
    api = ProblemApi(app)
    for blp in BLUEPRINTS:
        api.register_blueprint(blp)
    # rules the schemas check in Python that field metadata cannot carry into the document
    api.spec.components.schemas["ActionInput"]["minProperties"] = 1

    store = Store(settings.database_url, sqlite_synchronous=settings.sqlite_synchronous,
                  max_connections=settings.db_connections or None)
    if create_schema:
        store.create_schema()
    app.extensions["robotcore"] = MatchService(store, settings)
    # a chunked body is read (up to the limit) before Flask sees it
    app.wsgi_app = BoundedChunkedBody(app.wsgi_app, settings.max_body_bytes)  # type: ignore[method-assign]
    address_limits = parse_limits(settings.rate_limit_address, "rate_limit_address (ROBOTCORE_RATE_LIMIT_ADDRESS)")
    token_limits = parse_limits(settings.rate_limit_token, "rate_limit_token (ROBOTCORE_RATE_LIMIT_TOKEN)")
    if address_limits or token_limits:          # in front of everything
        app.extensions["robotcore_rate_limits"] = limited = RateLimits(
            app.wsgi_app, address_limits, token_limits, settings.rate_limit_storage)
        app.wsgi_app = limited  # type: ignore[method-assign]
    if isinstance(settings.proxy_hops, bool) or not isinstance(settings.proxy_hops, int) or settings.proxy_hops < 0:
        raise ValueError(f"proxy_hops (ROBOTCORE_PROXY_HOPS) must be an int >= 0, got {settings.proxy_hops!r}")
    if settings.proxy_hops:                     # outermost: the rate limits count the client's address
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=settings.proxy_hops,  # type: ignore[method-assign]
                                x_proto=settings.proxy_hops, x_host=settings.proxy_hops)

    if assets:
        @app.get("/v1/docs/assets/<path:filename>")
        def swagger_assets(filename: str) -> Response:
            return send_from_directory(assets, filename)

    @app.get("/")
    def lobby() -> Response:
        """The lobby: the catalogue, a form to create a match, recent listed matches."""
        return send_from_directory(PAGE_DIR, "lobby.html")

    @app.get("/play/<string:match_id>")
    @app.get("/replay/<string:match_id>")
    def match_page(match_id: str) -> Response:
        """A match for a seat (its token in the URL fragment, which never reaches the server) or a spectator,
        live or replayed: one page, which reads everything from the documented endpoints."""
        return send_from_directory(PAGE_DIR, "match.html")

    too_large = f"request bodies are limited to {settings.max_body_bytes} bytes"

    @app.before_request
    def _limits() -> None:
        # (read from the WSGI environ: werkzeug's parsed properties cost more than the checks, on every request;
        # the request from its context variable: each look through Flask's request proxy costs a lookup)
        req = _cv_request.get().request
        environ = req.environ
        length_text = environ.get("CONTENT_LENGTH")
        length = int(length_text) if length_text and is_decimal(length_text) else None
        if (length is not None and length > settings.max_body_bytes) or environ.get(CHUNKED_TOO_LARGE):
            raise Problem("payload-too-large", too_large)
        if environ["REQUEST_METHOD"] == "POST" and req.url_rule is not None:
            if not (length or environ.get("HTTP_TRANSFER_ENCODING")):
                raise Problem("validation", "this request needs a JSON body (at least {})",
                              errors=field_errors("json", "_schema", "missing body"))
            mimetype = environ.get("CONTENT_TYPE", "").partition(";")[0].strip().lower()
            if not (mimetype == "application/json"          # werkzeug's is_json, without its parsing
                    or (mimetype.startswith("application/") and mimetype.endswith("+json"))):
                raise Problem("unsupported-media-type", "send the request body as application/json")

    @app.after_request
    def _headers(resp: Response) -> Response:
        environ = _cv_request.get().request.environ
        path = environ.get("PATH_INFO", "")
        if path.startswith("/v1/matches"):
            headers = resp.headers                          # views and tokens are per seat
            if type(headers) is Headers:
                for name, _ in headers._list:
                    if name.lower() == "cache-control":
                        headers["Cache-Control"] = "no-store"
                        break
                else:                                       # (set's search and checks, for a new one)
                    headers._list.append(("Cache-Control", "no-store"))
            else:
                headers["Cache-Control"] = "no-store"
        if environ["REQUEST_METHOD"] == "OPTIONS" and resp.status_code == 200 and not resp.get_data():
            resp.status_code = 204                          # Flask's automatic answer: Allow, and no body
            del resp.headers["Content-Type"]
        if not path.startswith("/v1/"):      # the page and its files (the API's JSON is no document to run)
            resp.headers.update(PAGE_SECURITY_HEADERS)
        return resp

    @app.errorhandler(RecursionError)
    def _too_deep(error: RecursionError) -> Response:
        # a body nested past what its parsing or validation can walk; logged with where it happened, so that a
        # recursion of the service's own, which this answer would otherwise hide, shows in the log
        log.info("RecursionError answered as malformed-json", exc_info=error)
        problem = Problem("malformed-json", "the request body is nested too deeply")
        return payloads.send(problem.body(), problem.status, mimetype=PROBLEM_MEDIA_TYPE)

    @app.errorhandler(OperationalError)
    def _busy(error: OperationalError) -> Response:
        log.warning("store unavailable: %s", error)
        problem = Problem("unavailable", "the store is busy or unreachable; retry shortly",
                          headers={"Retry-After": "1"})
        return payloads.send(problem.body(), problem.status, problem.extra_headers, mimetype=PROBLEM_MEDIA_TYPE)

    return app
