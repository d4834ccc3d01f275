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
from hypothesis import HealthCheck, settings

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
            assert "default" in op["responses"], f"{method} {path} documents no default error"


def test_served_document_is_the_committed_one(tmp_path: Path, openapi_schema: Any) -> None:
    api = make_api(database_url("sqlite", tmp_path), openapi_schema)
    served = api.get("/v1/openapi.json").get_json()
    assert served == json.loads(OPENAPI_PATH.read_text(encoding="utf-8"))


#: Schema-valid requests may still be refused for what the document cannot say: a move that is not legal
#: now, a stale version (409/412), unknown game parameters or corrupt state bytes (422 with codes
#: illegal-action, invalid-parameter, invalid-state...), a missing version (428). Everything else a
#: schema-valid request gets must be a success or "not found"/"no such token".
CONFIG = """
[checks.positive_data_acceptance]
expected-statuses = ["2xx", "401", "403", "404", "409", "412", "422", "428"]
"""


@pytest.fixture
def committed_schema(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    api = make_api(database_url("sqlite", tmp_path_factory.mktemp("schemathesis")),
                   schemathesis.openapi.from_path(OPENAPI_PATH))
    schema = schemathesis.openapi.from_path(OPENAPI_PATH, config=schemathesis.config.SchemathesisConfig.from_str(CONFIG))
    schema.app = api.app
    yield schema
    api.app.extensions["robotcore"].store.dispose()


schema = schemathesis.pytest.from_fixture("committed_schema")


@schema.parametrize()
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_service_honours_its_document(case: Any) -> None:
    case.call_and_validate()


@pytest.fixture
def grounded_schema(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The same, with a real match and a real seat token at hand (see the test below)."""
    api = make_api(database_url("sqlite", tmp_path_factory.mktemp("grounded")),
                   schemathesis.openapi.from_path(OPENAPI_PATH))
    schema = schemathesis.openapi.from_path(OPENAPI_PATH, config=schemathesis.config.SchemathesisConfig.from_str(CONFIG))
    schema.app = api.app
    yield schema
    api.app.extensions["robotcore"].store.dispose()


grounded = schemathesis.pytest.from_fixture("grounded_schema")


@grounded.parametrize()
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_service_honours_its_document_on_real_matches(case: Any) -> None:
    """Generated bodies, queries and headers sent to a match that exists, with the token of a seat that must
    act, for a game that exists: the paths where the service does real work, not only 404s."""
    import robotcore

    app = case.operation.schema.app
    client = app.test_client()
    if "game" in (case.path_parameters or {}):
        case.path_parameters["game"] = robotcore.list_games()[0]
    if "match_id" in (case.path_parameters or {}):
        created = client.post("/v1/matches", json={"game": robotcore.list_games()[0], "seed": 1}).get_json()
        seat = created["match"]["actors"][0]
        case.path_parameters["match_id"] = created["match_id"]
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {created['seats'][seat]['token']}"}
    if case.query and "wait" in case.query:
        case.query["wait"] = 0
    # the checks that judge answers; those that judge how requests were mutated (a header left out on
    # purpose, an invalid path parameter) do not hold once real ids and tokens are put in
    from schemathesis import checks

    case.call_and_validate(checks=[
        checks.not_a_server_error, checks.status_code_conformance, checks.content_type_conformance,
        checks.response_schema_conformance, checks.response_headers_conformance, checks.positive_data_acceptance,
    ])
