"""The OpenAPI 3.1 document for ``/api``: written out here, checked against the routes by the tests.

It is hand-written rather than generated so each endpoint says what a client
may rely on, and it lists every answer the API really gives, errors included:
the limits of ``limits.py`` (414 for a long URL, 413 for a large body, 422 when
a replay runs out of time, ...), a 304 for a matching ``If-None-Match`` and a
503 while the store is not built. Each error response names the codes it may
carry, and the error object says which extra fields come with which code
(``limit``, ``nearest``, ``line``, ``step``), with no other fields allowed.

``tests/test_openapi.py`` sends a real request for every documented status of
every operation and validates the answer against its schema;
``tests/test_fuzz_api.py`` runs schemathesis with the response-schema,
status-code and content-type conformance checks; ``tests/test_web_api.py``
fails if a route exists that the document does not list, or the other way round.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from app.web import limits
from app.web.data import DOC_TITLES

JSON = "application/json"

# Codes whose error object carries the limit that was exceeded (every limit in limits.py).
LIMIT_CODES = sorted({lim.code for lim in limits.ALL})
# Codes whose error object lists the nearest names ({name, url}) to what was asked for.
NEAREST_CODES = ["unknown_card", "unknown_section", "unknown_scenario"]


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _ok(description: str, schema: str) -> dict[str, Any]:
    return {"description": description, "content": {JSON: {"schema": _ref(schema)}}}


def _error(status: int, description: str, codes: list[str]) -> dict[str, Any]:
    """An error response: the Error object with this status and one of these codes."""
    return {"description": description, "content": {JSON: {"schema": {"allOf": [
        _ref("Error"),
        {"properties": {"status": {"const": status}, "code": {"enum": sorted(set(codes))}}}]}}}}


_NOT_MODIFIED = {"description": "Not modified: If-None-Match named this representation's ETag (no body)"}
_URL_TOO_LONG = _error(414, f"The URL is longer than {limits.URL_CHARS.value} characters", [limits.URL_CHARS.code])
_STORE_MISSING = _error(503, "The rules store is not built yet (run 'rulings build')", ["store_missing"])


def _get(summary: str, ok: dict[str, Any], params: list[dict[str, Any]] | None = None,
         errors: dict[str, dict[str, Any]] | None = None, store: bool = True) -> dict[str, Any]:
    """A GET operation: its 200, the 304/414 every GET may give, 503 when it reads the store, and ``errors``."""
    responses: dict[str, Any] = {"200": ok, "304": _NOT_MODIFIED}
    responses.update(errors or {})
    responses["414"] = _URL_TOO_LONG
    if store:
        responses["503"] = _STORE_MISSING
    return {"get": {"summary": summary, "parameters": params or [], "responses": dict(sorted(responses.items()))}}


def _path_param(name: str, what: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "description": what,
            "schema": {"type": "string", "minLength": 1, "maxLength": limits.SLUG_BYTES.value}}


def _not_found(what: str) -> dict[str, Any]:
    return _error(404, f"No {what} by that name (with the nearest names), a name longer than "
                       f"{limits.SLUG_BYTES.value} bytes (UTF-8), or no such path",
                  [f"unknown_{what}", limits.SLUG_BYTES.code, "not_found"])


def _paths() -> dict[str, Any]:
    replay_timeout = limits.REPLAY_SECONDS
    return {
        "/api/search": _get(
            "Search rules, rulings, FAQ and rulebook; a recognised card name comes first",
            _ok("Results, best first", "SearchResults"), [
                {"name": "q", "in": "query", "required": True, "description": "the question or card name",
                 "schema": {"type": "string", "minLength": 1, "maxLength": limits.QUERY_CHARS.value}},
                {"name": "limit", "in": "query", "required": False,
                 "schema": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10}}],
            {"400": _error(400, f"No query, a query over {limits.QUERY_CHARS.value} characters, or a bad limit",
                           ["missing_query", limits.QUERY_CHARS.code, "bad_parameter"])}),
        "/api/cards": _get("Every Card Reference entry with cost, types and set", _ok("The cards", "CardList")),
        "/api/disagreements": _get(
            "Every place the BGG FAQ, the German dividers, the dominion-setup card text or an older ruling disagree with the "
            "Complete Rules, with the ruling that wins", _ok("The disagreements", "Disagreements")),
        "/api/cards/{slug}": _get(
            "One card: facts, rulings with links, FAQ, previous versions, backlinks, "
            "executable definition in words, scenarios",
            _ok("The card", "Card"), [_path_param(
                "slug", "card slug (throne-room) or any name search accepts: Throne Room, kc, burggraben, "
                        "thorne room; the answer's url is the card's own address")],
            {"404": _not_found("card")}),
        "/api/cards/named": _get(
            "One card by name, like Scryfall's /cards/named: exact (any case, the German name, an "
            "abbreviation meaning one card) or fuzzy (also a unique start of a name, or a typo)",
            _ok("The card", "Card"), [
                # Exactly one of the two is required, which OpenAPI cannot say of two parameters; each says
                # it in its description (marking both required would document a request always refused).
                {"name": "exact", "in": "query", "required": False,
                 "description": "the exact name (required unless fuzzy is given; never both)",
                 "schema": {"type": "string", "minLength": 1, "maxLength": 100}},
                {"name": "fuzzy", "in": "query", "required": False,
                 "description": "a name, a start or a typo (required unless exact is given; never both)",
                 "schema": {"type": "string", "minLength": 1, "maxLength": 100}}],
            {"400": _error(400, "Neither or both of exact and fuzzy, or a name over 100 characters",
                           ["missing_query", "bad_parameter"]),
             "404": _error(404, "No card by that name (with the nearest names as API addresses)",
                           ["unknown_card"])}),
        "/api/cards/autocomplete": _get(
            "Card names completing what was typed (English, German, abbreviations, typos), for a typeahead",
            _ok("Up to limit names, best first", "NameList"), [
                {"name": "q", "in": "query", "required": True, "description": "what was typed so far",
                 "schema": {"type": "string", "minLength": 1, "maxLength": 100}},
                {"name": "limit", "in": "query", "required": False,
                 "schema": {"type": "integer", "minimum": 1, "maximum": 20, "default": 10}}],
            {"400": _error(400, "No q, a q over 100 characters, or a bad limit",
                           ["missing_query", "bad_parameter"])}),
        "/api/sections": _get(
            "Table of contents of one document", _ok("The table of contents", "Contents"), [
                {"name": "doc", "in": "query", "required": False,
                 "schema": {"type": "string", "enum": list(DOC_TITLES), "default": "rules"}}],
            {"400": _error(400, "Unknown document", ["bad_parameter"])}),
        "/api/sections/{slug}": _get(
            "One section: breadcrumbs, children, paragraphs with anchors and links", _ok("The section", "Section"),
            [_path_param("slug", "section slug")], {"404": _not_found("section")}),
        "/api/index": _get("The index of terms, A-Z", _ok("Terms by letter", "IndexTerms")),
        "/api/faq": _get("The BGG FAQ: sections and per-card clarifications", _ok("The FAQ", "Document")),
        "/api/adventures": _get("The Adventures rulebook: sections and card descriptions",
                                _ok("The rulebook", "Document")),
        "/api/scenarios": _get("Every scenario file", _ok("The scenarios", "ScenarioList"), store=False),
        "/api/scenarios/{id}": _get(
            "One scenario replayed: log with citations, zones after each step, final state",
            _ok("The replay", "ScenarioReplay"),
            [_path_param("id", "scenario id (file name without .yaml)")],
            {"404": _not_found("scenario"),
             "422": _error(422, "The scenario file does not load (line and step named), or its replay ran "
                                f"longer than {replay_timeout.value:g} seconds",
                           ["bad_scenario", replay_timeout.code])},
            store=False),
        "/api/replay": {"post": {
            "summary": "Replay a scenario posted as YAML or JSON; returns the log and final state, or the "
                       "open question when an answer is missing",
            "requestBody": {"required": True, "description": (
                f"A scenario (docs/scenario-format.md) of at most {limits.SCENARIO_BYTES.value} bytes, "
                f"{limits.SCENARIO_NODES.value} values, {limits.SCENARIO_DEPTH.value} levels of nesting and "
                f"{limits.REPLAY_STEPS.value} steps, with step_limit at most {limits.ENGINE_STEPS.value}. "
                "As JSON, either the scenario object or {\"scenario\": \"<YAML text>\"}."),
                "content": {"application/yaml": {"schema": {"type": "string"}},
                            JSON: {"schema": {"type": "object"}}}},
            "responses": {
                "200": _ok("Replayed (see ok, failures, error, question)", "ReplayOutcome"),
                "400": _error(400, "The body is empty, not JSON, not a scenario (line and step named), nested "
                                   "too deeply, or asks for too many steps",
                              ["empty_body", "bad_json", "bad_scenario", limits.SCENARIO_DEPTH.code,
                               limits.REPLAY_STEPS.code, limits.ENGINE_STEPS.code]),
                "413": _error(413, f"The body is over {limits.SCENARIO_BYTES.value} bytes (or the request "
                                   f"limit of {limits.BODY_BYTES.value}), or the scenario has too many values",
                              [limits.BODY_BYTES.code, limits.SCENARIO_BYTES.code, limits.SCENARIO_NODES.code]),
                "414": _URL_TOO_LONG,
                "422": _error(422, f"The replay ran longer than {replay_timeout.value:g} seconds and was stopped",
                              [replay_timeout.code]),
                "429": _error(429, "This address has used its replay time for now (a budget of replay seconds "
                                   "per address); the Retry-After header says when to try again",
                              ["too_many_replays"]),
                "503": _error(503, "Every replay slot is busy (the rest of the site is not); the Retry-After "
                                   "header says when to try again", ["replays_busy"]),
            }}},
        "/api/openapi.json": _get("This document", _ok("The OpenAPI document", "OpenApi"), store=False),
        "/api/scenario-schema.json": _get("The scenario format as a JSON Schema (Draft 2020-12): the one that "
                                          "validates every scenario; point a YAML language server at it",
                                          _ok("The JSON Schema", "JsonSchema"), store=False),
    }


def _obj(required: dict[str, Any], optional: dict[str, Any] | None = None) -> dict[str, Any]:
    """An object with these required properties (others allowed: the data views may grow fields)."""
    return {"type": "object", "required": list(required), "properties": {**required, **(optional or {})}}


_STR, _INT, _BOOL = {"type": "string"}, {"type": "integer"}, {"type": "boolean"}
_ARR, _OBJ = {"type": "array"}, {"type": "object"}


def _arr(items: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": items}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


def _schemas() -> dict[str, Any]:
    link = _obj({"name": _STR, "url": _STR})
    outcome = {
        "title": _STR, "ok": _BOOL, "rulings": _ARR, "cited": _arr(_STR), "log": _arr(_OBJ),
        "steps": _arr(_obj({"index": _INT, "zones": _OBJ})), "final": _nullable(_OBJ),
        "failures": _arr(_obj({"step": {}, "what": {}, "expected": {}, "actual": {}})),
        "error": _nullable(_obj({"message": _STR, "line": _nullable(_INT), "step": _nullable(_INT)})),
        "question": _nullable(_obj({"player": _STR, "prompt": _STR, "about": _STR, "kind": _STR,
                                     "options": _ARR})),
        "legal": _nullable(_OBJ),
        "table": _nullable(_OBJ),      # Events, piles outside the Supply, mats, Coffers, tokens (sandbox_table.py)
    }
    name_hit = _obj({"slug": _STR, "name": _STR, "how": {"enum": ["exact", "german", "abbreviation", "prefix", "fuzzy"]},
                     "matched": _STR, "url": _STR, "api_url": _STR})
    return {
        "Error": {
            "type": "object", "additionalProperties": False,
            "required": ["status", "code", "message"],
            "properties": {
                "status": {"type": "integer", "minimum": 400, "maximum": 599},
                "code": {"type": "string", "pattern": "^[a-z_]+$"},
                "message": {"type": "string", "minLength": 1},
                "limit": {"type": "number", "description": "the limit that was exceeded, in its unit"},
                "nearest": _arr(link),
                "line": {"type": "integer", "description": "line of the posted scenario or JSON"},
                "step": {"type": "integer", "description": "step of the scenario (from 1)"},
            },
            "allOf": [
                {"if": {"properties": {"code": {"enum": LIMIT_CODES}}},
                 "then": {"required": ["limit"]}, "else": {"not": {"required": ["limit"]}}},
                {"if": {"properties": {"code": {"enum": NEAREST_CODES}}},
                 "then": {"required": ["nearest"]}, "else": {"not": {"required": ["nearest"]}}},
                {"if": {"properties": {"code": {"const": "bad_json"}}}, "then": {"required": ["line"]}},
                {"if": {"properties": {"code": {"not": {"enum": ["bad_json", "bad_scenario"]}}}},
                 "then": {"not": {"anyOf": [{"required": ["line"]}, {"required": ["step"]}]}}},
            ],
        },
        "SearchResults": _obj({"query": _STR, "results": _arr(_obj(
            {"rank": _INT, "kind": _STR, "title": _STR, "url": _STR, "snippet": _STR},
            {"answers": {**_STR, "description": "the question in players' words this hit answers, when it is "
                                                "the one asked (corpus/data/rule-questions)"},
             "superseded": {"$ref": "#/components/schemas/Superseded"},
             "restated": {**_arr(_obj({"key": _STR, "url": _STR, "source": _STR, "title": _STR})),
                          "description": "the same rule also written in the BGG FAQ or the Complete Rules § V / § VI, "
                                         "shown inside this hit (a question naming no card)"},
             "previous_version": {**_STR, "description": "set on a previous version's entry or ruling, in words "
                                                         "(\"Pre-2019 version of Band of Misfits, not the current card\")"}}))},
            {"spelling": {**_arr(_obj({"typed": _STR, "read": _STR})),
                          "description": "ordinary words typed wrong and the word each was searched as"},
             "did_you_mean": {**_arr(_obj({"typed": _STR, "options": _arr(_obj({"read": _STR, "query": _STR}))})),
                              "description": "short words typed wrong that several words or cards are a letter "
                                             "away from, searched as typed; each reading with the question it makes"}}),
        "Superseded": _obj({"note": _STR, "by": _arr(_obj({"key": _STR, "title": _STR, "url": _STR}))}),
        "CardList": _obj({"cards": _arr(_obj({"slug": _STR, "name": _STR, "kind": _STR, "url": _STR,
                                              "types": _ARR}))}),
        "Card": _obj({"slug": _STR, "name": _STR, "kind": _STR, "url": _STR, "rulings": _ARR,
                      "previous_versions": _ARR, "faq": _arr(_obj({"key": _STR, "text": _STR}, {
                          "superseded": {"oneOf": [{"$ref": "#/components/schemas/Superseded"}, {"type": "null"}],
                                         "description": "set when the Complete Rules overrule this FAQ passage"}})),
                      "referred_by": _ARR, "definition": _ARR,
                      "scenarios": _ARR}),
        "Contents": _obj({"doc": {"enum": list(DOC_TITLES)}, "title": _STR, "sections": _arr(_obj(
            {"slug": _STR, "title": _STR, "kind": _STR, "depth": _INT, "url": _STR}))}),
        "Section": _obj({"slug": _STR, "doc": {"enum": list(DOC_TITLES)}, "title": _STR, "url": _STR,
                         "breadcrumbs": _ARR, "children": _ARR, "paragraphs": _ARR, "referred_by": _ARR}),
        "IndexTerms": _obj({"letters": _arr(_obj({"letter": _STR, "terms": _ARR}))}),
        "Document": _obj({"doc": _STR, "title": _STR, "sections": _ARR, "cards": _ARR}),
        "NameList": _obj({"query": _STR, "data": _arr(name_hit)}, {"exact": {
            "oneOf": [name_hit, {"type": "null"}],
            "description": "the one card the text names exactly (English, German, an abbreviation), or null"}}),
        "ScenarioList": _obj({"scenarios": _arr(_obj({"id": _STR, "title": _STR, "url": _STR}))}),
        "ReplayOutcome": _obj(outcome),
        "ScenarioReplay": _obj({**outcome, "id": _STR, "url": _STR, "source": _STR}),
        "Disagreements": _obj({"count": _INT, "disagreements": {"type": "array", "items": _OBJ}}),
        "OpenApi": _obj({"openapi": _STR, "info": _OBJ, "paths": _OBJ}),
        "JsonSchema": _obj({"$schema": _STR, "$id": _STR, "type": _STR, "properties": _OBJ, "$defs": _OBJ}),
    }


@lru_cache(maxsize=1)
def openapi_document() -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {"title": "Dominion rulings API", "version": "1",
                 "description": "Everything the rulings site shows, as JSON. Errors are {status, code, message}, "
                                "plus limit, nearest, line or step where the code calls for them."},
        "paths": _paths(),
        "components": {"schemas": _schemas()},
    }
