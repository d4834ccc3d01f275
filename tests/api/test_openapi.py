"""The OpenAPI document: committed, equal to what the code generates, served with an interactive page, and
honoured by the service: schemathesis generates requests from the committed document (valid and invalid
ones) and checks every answer against it (no 5xx, documented status and content type, body schema...)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable

from robotcore_api.openapi import document, dumps

from .conftest import OPENAPI_PATH, database_url, make_api


def test_committed_document_is_up_to_date() -> None:
    """Fails when routes or schemas change without regenerating the committed document:
    python -m robotcore_api.openapi --write api/openapi.json"""
    assert OPENAPI_PATH.read_text(encoding="utf-8") == dumps(document())


def test_document_is_valid_openapi_3() -> None:
    doc = json.loads(OPENAPI_PATH.read_text(encoding="utf-8"))
    assert doc["openapi"].startswith("3.0")
    schemathesis.openapi.from_dict(doc)                 # validates the document against the OpenAPI schema
    problem_codes = set(doc["components"]["schemas"]["Problem"]["properties"]["code"]["enum"])
    from robotcore_api.problems import CODES

    assert problem_codes == set(CODES)
    for path, item in doc["paths"].items():
        for method, op in item.items():
            if method == "parameters":
                continue
            assert op.get("summary"), f"{method} {path} has no summary"
            assert "\n" not in op["summary"], f"{method} {path}: a summary is one line (the rest: description)"
            assert "default" in op["responses"], f"{method} {path} documents no default error"


def _walk(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def test_length_keywords_fit_their_types() -> None:
    """An object is bounded by maxProperties (a string's maxLength on one is ignored by every validator)."""
    doc = json.loads(OPENAPI_PATH.read_text(encoding="utf-8"))
    for node in _walk(doc):
        if node.get("type") == "object":
            assert not {"maxLength", "minLength", "maxItems"} & set(node), node
    params = doc["components"]["schemas"]["CreateMatch"]["properties"]["params"]
    assert params["maxProperties"] == 32


def test_every_parameter_a_route_reads_is_documented() -> None:
    doc = json.loads(OPENAPI_PATH.read_text(encoding="utf-8"))
    stream = doc["paths"]["/v1/matches/{match_id}/stream"]
    names = {p["name"] for p in stream.get("parameters", []) + stream["get"].get("parameters", [])}
    assert {"after", "Last-Event-ID", "match_id"} <= names
    events = doc["paths"]["/v1/matches/{match_id}/events"]["get"]
    assert {"after", "wait"} <= {p["name"] for p in events["parameters"]}


def test_bot_move_documents_no_version_requirement() -> None:
    """A bot-move plays on the current version when none is sent (moves answer 428 instead)."""
    doc = json.loads(OPENAPI_PATH.read_text(encoding="utf-8"))
    assert "428" not in doc["paths"]["/v1/matches/{match_id}/bot-move"]["post"]["responses"]
    assert "428" in doc["paths"]["/v1/matches/{match_id}/moves"]["post"]["responses"]


def test_the_refusals_of_the_servers_own_limits_are_documented_where_they_happen() -> None:
    """Every path counts against the rate limits (429 ``rate-limited``, when set); a creation or a move that
    makes a slow bot seat due is refused ``bots-busy`` when the think pool is full, as a bot-move is; every
    operation on matches reads the store, which may be busy (503 ``unavailable``)."""
    doc = json.loads(OPENAPI_PATH.read_text(encoding="utf-8"))

    def codes(path: str, method: str, status: str) -> str:
        return str(doc["paths"][path][method]["responses"].get(status, {}).get("description", ""))

    for path, item in doc["paths"].items():
        for method in set(item) - {"parameters"}:
            assert "`rate-limited`" in codes(path, method, "429"), f"{method} {path}"
            if path.startswith("/v1/matches"):
                assert "`unavailable`" in codes(path, method, "503"), f"{method} {path}"
    for path in ("/v1/matches", "/v1/matches/{match_id}/moves", "/v1/matches/{match_id}/bot-move"):
        assert "`bots-busy`" in codes(path, "post", "503"), path


def test_the_headers_of_the_answers_are_documented() -> None:
    """Retry-After on every 429 and 503, WWW-Authenticate on every 401, Idempotent-Replayed on the answers of
    moves: the service sends them all, and the document named them in prose only (REST review)."""
    doc = json.loads(OPENAPI_PATH.read_text(encoding="utf-8"))
    for path, item in doc["paths"].items():
        for method in set(item) - {"parameters"}:
            for status, answer in item[method]["responses"].items():
                header = {"429": "Retry-After", "503": "Retry-After", "401": "WWW-Authenticate"}.get(status)
                if header is not None:
                    assert header in answer.get("headers", {}), f"{method} {path} {status}"
    for path in ("/v1/matches/{match_id}/moves", "/v1/matches/{match_id}/bot-move"):
        assert "Idempotent-Replayed" in doc["paths"][path]["post"]["responses"]["200"]["headers"], path


def test_served_document_is_the_committed_one(tmp_path: Path, openapi_schema: Any) -> None:
    api = make_api(database_url("sqlite", tmp_path), openapi_schema)
    served = api.get("/v1/openapi.json").get_json()
    assert served == json.loads(OPENAPI_PATH.read_text(encoding="utf-8"))


#: Schema-valid requests may still be refused for what the document cannot say: a move that is not legal
#: now, a stale version (409/412), unknown game parameters or corrupt state bytes (422 with codes
#: illegal-action, invalid-parameter, invalid-state...), a missing version (428). Everything else a
#: schema-valid request gets must be a success or "not found"/"no such token".
#: A request that breaks the document may also be refused for its size (413, bodies over 64 KiB).
CONFIG = """
[checks.positive_data_acceptance]
expected-statuses = ["2xx", "401", "403", "404", "409", "412", "422", "428"]

[checks.negative_data_rejection]
expected-statuses = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429", "5xx"]
"""
SCHEMA = schemathesis.openapi.from_path(OPENAPI_PATH, config=schemathesis.config.SchemathesisConfig.from_str(CONFIG))
OPERATIONS = [
    (path, method.upper())
    for path, item in SCHEMA.raw_schema["paths"].items()
    for method in item
    if method != "parameters"
]
MODES = [schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE]
EXAMPLES = 20


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The committed document, bound to a service on a fresh database."""
    # (an event stream ends at once after its first event: every generated request gets a whole answer)
    api = make_api(database_url("sqlite", tmp_path_factory.mktemp("schemathesis")), SCHEMA, stream_max_s=0.0)
    SCHEMA.app = api.app
    yield api.app
    api.app.extensions["robotcore"].store.dispose()


def run_cases(path: str, method: str, mode: Any, prepare: Any, checks: list[Any] | None) -> None:
    """Generate requests for one operation (valid ones, or ones that break the document) and check every
    answer: no 5xx, a documented status and content type, a body matching its schema, invalid requests
    refused, required headers enforced..."""
    strategy = SCHEMA[path][method].as_strategy(generation_mode=mode)

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True,
              database=None)
    @given(case=strategy)
    def check(case: Any) -> None:
        prepare(case)
        if checks is None:
            case.call_and_validate()
        else:
            case.call_and_validate(checks=checks)

    try:
        check()
    except Unsatisfiable:
        if mode is not schemathesis.GenerationMode.NEGATIVE:
            raise
        pytest.skip("the document leaves nothing of this operation that a request could break")


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
@pytest.mark.parametrize(("path", "method"), OPERATIONS)
def test_service_honours_its_document(served: Any, path: str, method: str, mode: Any) -> None:
    run_cases(path, method, mode, lambda case: None, None)


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
@pytest.mark.parametrize(("path", "method"), OPERATIONS)
def test_service_honours_its_document_on_real_matches(served: Any, path: str, method: str, mode: Any) -> None:
    """Generated bodies, queries and headers sent to a match that exists, with the token of a seat that must
    act, for a game that exists: the paths where the service does real work, not only 404s. Only the checks
    that judge answers apply; those that judge how a request was mutated (a header left out on purpose, a
    path parameter made invalid) do not hold once real ids and tokens are put in."""
    from schemathesis import checks

    import robotcore

    client = served.test_client()
    game = robotcore.list_games()[0]

    def prepare(case: Any) -> None:
        if "game" in (case.path_parameters or {}):
            case.path_parameters["game"] = game
        if "match_id" in (case.path_parameters or {}):
            created = client.post("/v1/matches", json={"game": game, "seed": 1}).get_json()
            seat = created["match"]["actors"][0]
            case.path_parameters["match_id"] = created["match_id"]
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {created['seats'][seat]['token']}"}
        if case.query and "wait" in case.query:
            case.query["wait"] = 0

    run_cases(path, method, mode, prepare, [
        checks.not_a_server_error, checks.status_code_conformance, checks.content_type_conformance,
        checks.response_schema_conformance, checks.response_headers_conformance, checks.positive_data_acceptance,
    ])
