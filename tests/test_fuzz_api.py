"""API fuzz run: schemathesis generates requests from /api/openapi.json and sends them to the app in-process.

Every generated request must get an answer the document promises: never a
5xx, a status the operation documents, the documented content type, a body
that validates against the documented schema (the error object is strict:
no field it does not list), and every error with a message a person can read. Bounded: a few examples per operation, no deadline
per example, the whole file in well under a minute.
"""
from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (content_type_conformance, not_a_server_error, response_schema_conformance,
                                 status_code_conformance)


@pytest.fixture(scope="module")
def api_schema(built_index):
    from app import create_app

    app = create_app({"DB_PATH": str(built_index / "rules.db")})
    return schemathesis.openapi.from_wsgi("/api/openapi.json", app)


schema = schemathesis.pytest.from_fixture("api_schema")


def errors_have_the_api_shape(ctx, response, case):
    """A 4xx carries status, code and a readable message, and never a traceback."""
    text = response.text or ""
    assert "Traceback" not in text, f"traceback in {case.method} {case.path}"
    if 400 <= response.status_code < 500:
        body = response.json()
        assert body["status"] == response.status_code
        assert isinstance(body["code"], str) and body["code"]
        assert isinstance(body["message"], str) and len(body["message"]) > 10
    return None


@schema.parametrize()
@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_api_never_fails_on_generated_requests(case):
    response = case.call(headers={"Accept-Encoding": "identity"})  # compare bodies as text
    case.validate_response(response, checks=[not_a_server_error, status_code_conformance,
                                             content_type_conformance, response_schema_conformance,
                                             errors_have_the_api_shape])
