"""Scenario documents generated from the format's own schema, wrong types in every field: never a 500.

The strategy walks the JSON Schema served at /api/scenario-schema.json (so a
key a mechanism registers is generated too). At every node it produces either
a value of the kind the schema asks for or a value of the wrong kind (a float
where a count goes, ``.inf``, a list where a name goes, "Copper*²", a name no
card has...). Each document is posted to POST /api/replay on the app as
production runs it; the answer must be a replay or a 4xx, and nothing may be
logged as an internal error. Every property of every object is an optional key
of ``fixed_dictionaries``, so each key the schema lists (a registered step
kind included) is generated.
"""
from __future__ import annotations

import logging

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine.scenario.schema import published_schema

SCHEMA = published_schema()
NAMES = ["Alice", "Bob", "Copper", "Silver", "Village", "Nonexistent", "action", "Embargo", "Curse"]
CARDS = ["Copper", "Silver", "Gold", "Estate", "Village", "Moat", "Militia", "Throne Room", "Copper*3",
         "Throne Room#a", "Nonexistent", "Copper*²", "Copper*99999", " Silver ", "copper"]
WRONG = st.one_of(
    st.integers(-3, 10**6), st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8), st.booleans(),
    st.none(), st.lists(st.integers(0, 3), max_size=2), st.dictionaries(st.sampled_from(NAMES), st.integers(0, 3),
                                                                       max_size=2),
    st.sampled_from(["Copper*²", "abc", "lots", ".inf", "0x3B9ACA00", "9" * 40]),
)


def _resolve(node: dict) -> dict:
    while "$ref" in node:
        target = SCHEMA
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def _typed(t: str, node: dict, depth: int) -> st.SearchStrategy:
    if t == "object":
        props = node.get("properties", {})
        required = {k: of(props[k], depth + 1) for k in node.get("required", []) if k in props}
        optional = {k: of(v, depth + 1) for k, v in props.items() if k not in required}
        base = st.fixed_dictionaries(required, optional=optional) if depth < 5 else st.just({})
        extra = node.get("additionalProperties")
        if isinstance(extra, dict) and depth < 5:
            more = st.dictionaries(st.sampled_from(NAMES), of(extra, depth + 1), max_size=2)
            return st.tuples(base, more).map(lambda ab: {**ab[1], **ab[0]})
        return base
    if t == "array":
        return st.lists(of(node.get("items", {}), depth + 1), max_size=3 if depth < 5 else 0)
    if t == "string":
        if "pattern" in node:
            return st.sampled_from(CARDS)
        return st.one_of(st.sampled_from(NAMES), st.text(max_size=6))
    if t == "integer":
        lo = node.get("minimum", -2)
        return st.integers(lo, min(node.get("maximum", lo + 40), lo + 40))
    if t == "boolean":
        return st.booleans()
    if t == "null":
        return st.none()
    return WRONG


def of(node: dict, depth: int = 0) -> st.SearchStrategy:
    """A value for ``node``: usually of the kind it asks for, sometimes of a wrong kind."""
    node = _resolve(node)
    if "enum" in node:
        right = st.sampled_from(node["enum"])
    elif "anyOf" in node:
        right = st.one_of([of(b, depth) for b in node["anyOf"]])
    elif isinstance(node.get("type"), list):
        right = st.one_of([_typed(t, node, depth) for t in node["type"]])
    elif "type" in node:
        right = _typed(node["type"], node, depth)
    else:
        right = WRONG
    return st.one_of(right, right, right, WRONG) if depth > 0 else right


DOCUMENTS = of(SCHEMA)


class _Errors(logging.Handler):
    def __init__(self):
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(doc=DOCUMENTS)
def test_generated_scenarios_never_cause_a_500_or_a_logged_error(prod_app, doc):
    errors = _Errors()
    logging.getLogger().addHandler(errors)
    prod_app.logger.addHandler(errors)
    try:
        body = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)
        resp = prod_app.test_client().post("/api/replay", data=body, content_type="application/yaml")
    finally:
        logging.getLogger().removeHandler(errors)
        prod_app.logger.removeHandler(errors)
    text = resp.get_data(as_text=True)
    assert resp.status_code < 500, (resp.status_code, text[:400], body[:400])
    assert "Traceback" not in text
    assert not errors.records, [r.getMessage() for r in errors.records]
    if resp.status_code >= 400:
        err = resp.get_json()
        assert err["code"] and len(err["message"]) > 10
