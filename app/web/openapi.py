"""The OpenAPI 3.1 document for ``/api``: written out here, checked against the routes by the tests.

It is hand-written rather than generated so each endpoint says what a client
may rely on; ``tests/test_web_api.py`` fails if a route exists that the
document does not list, or the other way round.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

_ERROR = {"$ref": "#/components/schemas/Error"}


def _get(summary: str, params: list[dict[str, Any]] | None = None, not_found: bool = False) -> dict[str, Any]:
    responses: dict[str, Any] = {"200": {"description": "OK", "content": {"application/json": {}}}}
    if not_found:
        responses["404"] = {"description": "Unknown slug or id (with the nearest names)",
                            "content": {"application/json": {"schema": _ERROR}}}
    if params and any(p["in"] == "query" for p in params):
        responses["400"] = {"description": "Bad parameter", "content": {"application/json": {"schema": _ERROR}}}
    return {"get": {"summary": summary, "parameters": params or [], "responses": responses}}


def _path_param(name: str, what: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "description": what, "schema": {"type": "string"}}


@lru_cache(maxsize=1)
def openapi_document() -> dict[str, Any]:
    paths: dict[str, Any] = {
        "/api/search": _get("Search rules, rulings, FAQ and rulebook; a recognised card name comes first", [
            {"name": "q", "in": "query", "required": True, "schema": {"type": "string", "maxLength": 200}},
            {"name": "limit", "in": "query", "required": False,
             "schema": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10}}]),
        "/api/cards": _get("Every Card Reference entry with cost, types and set"),
        "/api/cards/{slug}": _get("One card: facts, rulings with links, FAQ, previous versions, backlinks, "
                                  "executable definition in words, scenarios",
                                  [_path_param("slug", "card slug, e.g. throne-room")], not_found=True),
        "/api/sections": _get("Table of contents of one document", [
            {"name": "doc", "in": "query", "required": False,
             "schema": {"type": "string", "enum": ["rules", "faq", "adventures", "german"], "default": "rules"}}]),
        "/api/sections/{slug}": _get("One section: breadcrumbs, children, paragraphs with anchors and links",
                                     [_path_param("slug", "section slug")], not_found=True),
        "/api/index": _get("The index of terms, A-Z"),
        "/api/faq": _get("The BGG FAQ: sections and per-card clarifications"),
        "/api/adventures": _get("The Adventures rulebook: sections and card descriptions"),
        "/api/scenarios": _get("Every scenario file"),
        "/api/scenarios/{id}": _get("One scenario replayed: log with citations, zones after each step, final state",
                                    [_path_param("id", "scenario id (file name without .yaml)")], not_found=True),
        "/api/replay": {"post": {
            "summary": "Replay a scenario posted as YAML or JSON; returns the log and final state, or the "
                       "open question when an answer is missing",
            "requestBody": {"required": True, "content": {
                "application/yaml": {"schema": {"type": "string"}},
                "application/json": {"schema": {"type": "object"}}}},
            "responses": {
                "200": {"description": "Replayed (see ok, failures, error, question)",
                        "content": {"application/json": {}}},
                "400": {"description": "The scenario does not load (message names the line)",
                        "content": {"application/json": {"schema": _ERROR}}},
                "413": {"description": "Body too large", "content": {"application/json": {"schema": _ERROR}}}}}},
        "/api/openapi.json": _get("This document"),
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": "Dominion rulings API", "version": "1",
                 "description": "Everything the rulings site shows, as JSON. Errors are {status, code, message}."},
        "paths": paths,
        "components": {"schemas": {"Error": {
            "type": "object", "required": ["status", "code", "message"],
            "properties": {"status": {"type": "integer"}, "code": {"type": "string"},
                           "message": {"type": "string"},
                           "nearest": {"type": "array", "items": {"type": "object"}},
                           "line": {"type": "integer"}, "step": {"type": "integer"}}}}},
    }
