"""The JSON API: the same data as every page, plus replaying a posted scenario.

Every error is a JSON object ``{status, code, message}`` (see ``errors.py``), so
a client never has to parse an HTML error page.
"""
from __future__ import annotations

import json

import yaml
from flask import Blueprint, jsonify, render_template, request

from app.web import data, services
from app.web import replay as rp
from app.web.errors import ApiError
from app.web.limits import SCENARIO_BYTES, excerpt, limited, parse_json, whole_number
from app.web.openapi import openapi_document

api = Blueprint("api", __name__, url_prefix="/api")


def _limit(default: int = 10, cap: int = 100) -> int:
    raw = request.args.get("limit", str(default))
    n = whole_number(raw, 1, cap)
    if n is None:
        raise ApiError(400, "bad_parameter", f"limit must be a whole number from 1 to {cap}, got {excerpt(raw)}")
    return n


def run_search(q: str, limit: int) -> dict:
    """The search engineer's ``search(store, query, limit)``; its dict is returned unchanged."""
    try:
        from app.search.query import search
    except ImportError as exc:
        raise ApiError(503, "search_unavailable", f"search is not available in this build: {exc}") from None
    return search(services().store, q, limit)


@api.get("/")
def index():
    doc = openapi_document()
    return render_template("api.html", doc=doc)


@api.get("/openapi.json")
def openapi():
    return jsonify(openapi_document())


@api.get("/scenario-schema.json")
def scenario_schema():
    """The scenario format as one JSON Schema: what validates every file, for editors and clients."""
    from app.engine.scenario.schema import published_schema
    return jsonify(published_schema())


@api.get("/search")
@limited(query="q")
def search():
    q = request.args.get("q", "").strip()
    if not q:
        raise ApiError(400, "missing_query", "give a query as ?q=...")
    return jsonify(run_search(q, _limit()))


@api.get("/cards")
def cards():
    return jsonify(data.cards_view(services().store))


def _card_lookup():
    try:
        from app.search.lookup import lookup_for
        from app.search.query import engine_for

        return lookup_for(engine_for(services().store).names)
    except (ImportError, FileNotFoundError, ValueError) as exc:
        # a store built without its search index is an unfinished build
        raise ApiError(503, "store_missing", f"the card name index is not built yet ({exc}); "
                                             "run 'rulings build'") from None


def _name_param(*names: str) -> tuple[str, str]:
    """The one of ``names`` given (bounded), as (parameter, value); a clear 400 otherwise."""
    from app.search.lookup import MAX_NAME_CHARS

    given = [(n, request.args.get(n, "").strip()) for n in names if n in request.args]
    if len(given) != 1 or not given[0][1]:
        raise ApiError(400, "missing_query", f"give exactly one of {', '.join('?' + n + '=' for n in names)}")
    if len(given[0][1]) > MAX_NAME_CHARS:
        raise ApiError(400, "bad_parameter", f"{given[0][0]} is longer than {MAX_NAME_CHARS} characters")
    return given[0]


def _nearest(lookup, name: str) -> list[dict]:
    return [{"name": h.name, "url": f"/api/cards/{h.slug}"} for h in lookup.autocomplete(name, 5)]


@api.get("/cards/named")
def card_named():
    """Scryfall-style: ?exact= (any case; German name; an abbreviation meaning one card) or ?fuzzy=."""
    param, name = _name_param("exact", "fuzzy")
    lookup = _card_lookup()
    hit = lookup.exact(name) if param == "exact" else lookup.fuzzy(name)
    if hit is None:
        raise data.NotFound("card", name, _nearest(lookup, name))
    s = services()
    return jsonify(data.card_view(s.store, s.renderer, hit.slug, s.scenarios))


@api.get("/cards/autocomplete")
def card_autocomplete():
    """Names completing ?q= (English, German, abbreviations, typos), for a search box's typeahead."""
    _, q = _name_param("q")
    return jsonify({"query": q, "data": [h.to_dict() for h in _card_lookup().autocomplete(q, _limit(10, 20))]})


@api.get("/cards/<slug>")
def card(slug: str):
    """A slug, or any name search accepts (``Throne Room``, ``kc``, ``burggraben``); 404 names the nearest."""
    s = services()
    if s.store.card_detail(slug) is None:
        lookup = _card_lookup()
        hit = lookup.fuzzy(slug.replace("-", " ")) or lookup.fuzzy(slug)
        if hit is None:
            raise data.NotFound("card", slug, _nearest(lookup, slug.replace("-", " ")))
        slug = hit.slug
    return jsonify(data.card_view(s.store, s.renderer, slug, s.scenarios))


@api.get("/sections")
def sections():
    doc = request.args.get("doc", "rules")
    if doc not in data.DOC_TITLES:
        raise ApiError(400, "bad_parameter", f"doc must be one of {', '.join(data.DOC_TITLES)}, got {doc!r}")
    return jsonify(data.toc_view(services().store, doc))


@api.get("/sections/<slug>")
def section(slug: str):
    s = services()
    return jsonify(data.section_view(s.store, s.renderer, slug))


@api.get("/index")
def index_terms():
    s = services()
    return jsonify(data.index_view(s.store, s.renderer))


@api.get("/faq")
def faq():
    s = services()
    return jsonify(data.faq_view(s.store, s.renderer))


@api.get("/adventures")
def adventures():
    s = services()
    return jsonify(data.rulebook_view(s.store, s.renderer))


@api.get("/scenarios")
def scenarios():
    return jsonify({"scenarios": services().scenarios.listing()})


@api.get("/scenarios/<id>")
@limited(replay=True)
def scenario(id: str):  # noqa: A002 - the path parameter is named as in the OpenAPI document
    try:
        return jsonify(services().scenarios.replay(id))
    except rp.BadScenario as exc:
        raise ApiError(422, "bad_scenario", str(exc), line=exc.line, step=exc.step) from None


@api.post("/replay")
@limited(body=SCENARIO_BYTES, scenario=True, replay=True)
def replay():
    """Replay a posted scenario (YAML or JSON body) and return its log, steps and final state."""
    text = request.get_data(as_text=True)
    if not text.strip():
        raise ApiError(400, "empty_body", "post a scenario as YAML or JSON in the request body")
    if request.mimetype == "application/json":
        try:
            parsed = parse_json(text)
        except json.JSONDecodeError as exc:
            raise ApiError(400, "bad_json", f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}",
                           line=exc.lineno) from None
        if isinstance(parsed, dict) and set(parsed) == {"scenario"} and isinstance(parsed["scenario"], str):
            text = parsed["scenario"]          # {"scenario": "<yaml text>"}
        elif "\t" in text:                      # YAML rejects tabs that JSON allows: re-serialise
            text = yaml.safe_dump(parsed, sort_keys=False, allow_unicode=True)
    try:
        scen = rp.load_text(text)
        outcome = rp.replay(scen)
    except rp.ScenarioOverLimit as exc:      # e.g. JSON that grew when re-serialised as YAML
        raise ApiError(exc.status, exc.code, f"request body: {exc}", limit=exc.limit.value) from None
    except rp.BadScenario as exc:
        raise ApiError(400, "bad_scenario", f"request body: {exc}", line=exc.line, step=exc.step) from None
    except rp.ReplayUnavailable as exc:
        raise ApiError(503, "engine_unavailable", str(exc)) from None
    return jsonify(outcome.as_dict())
