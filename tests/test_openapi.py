"""The OpenAPI document describes every answer the API gives: each documented status and code is real.

For every operation, every documented status and every error code it names,
one real request below produces exactly that answer, and the answer validates
against the documented schema. The two lists must be equal: an answer added to
the API without the document (or to the document without the API) fails here.
The routes themselves are walked too, so a new /api route cannot skip the
limits every route shares (414 for a long URL, 404 for an overlong name).
"""
from __future__ import annotations

import dataclasses
import fcntl
import os
from typing import Any

import jsonschema
import pytest

from app import config
from app.web import limits
from app.web.openapi import openapi_document

DOC = openapi_document()
LONG_URL_PAD = "y" * (limits.URL_CHARS.value + 10)
MOAT_VS_MILITIA = (config.scenarios_dir() / "moat-vs-militia.yaml").read_text(encoding="utf-8")
BROKEN_SCENARIO_ID = "openapi-test-broken"
ALIAS_BOMB = "\n".join(["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"] + [
    f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)])


@dataclasses.dataclass(frozen=True)
class Ex:
    """One real request and the documented answer it must get."""

    path: str                 # the documented path
    method: str
    status: int
    code: str | None          # the error code, None for 200/304
    url: str
    app: str = "prod"         # prod | missing (store not built) | timeout (replay deadline 0) | broken (bad file)
    #                           | limited (replay budget spent) | busy (replay slots taken)
    body: bytes | str | None = None
    ctype: str | None = None
    conditional: bool = False  # send If-None-Match with the ETag of a first answer

    @property
    def id(self) -> str:
        return f"{self.method.upper()} {self.path} {self.status} {self.code or ''}".strip()


def _gets(path: str, url: str, codes_404: tuple[str, ...] = (), store: bool = True) -> list[Ex]:
    """200, 304 and 414 for a GET, plus 404s by code and 503 when the operation reads the store."""
    out = [Ex(path, "get", 200, None, url), Ex(path, "get", 304, None, url, conditional=True),
           Ex(path, "get", 414, "url_too_long", f"{url}{'&' if '?' in url else '?'}pad={LONG_URL_PAD}")]
    if store:
        out.append(Ex(path, "get", 503, "store_missing", url, app="missing"))
    base = url.rsplit("/", 1)[0]
    for code in codes_404:
        bad = {"slug_too_long": "x" * (limits.SLUG_BYTES.value + 1), "not_found": "a%2Fb"}.get(code, "zzqx-nothing")
        out.append(Ex(path, "get", 404, code, f"{base}/{bad}"))
    return out


R = "/api/replay"
EXAMPLES: list[Ex] = [
    *_gets("/api/search", "/api/search?q=moat"),
    Ex("/api/search", "get", 400, "missing_query", "/api/search?q=%20"),
    Ex("/api/search", "get", 400, "query_too_long", "/api/search?q=" + "moat+" * 50),
    Ex("/api/search", "get", 400, "bad_parameter", "/api/search?q=moat&limit=0"),
    *_gets("/api/cards", "/api/cards"),
    *_gets("/api/cards/{slug}", "/api/cards/throne-room", ("unknown_card", "slug_too_long", "not_found")),
    *_gets("/api/cards/named", "/api/cards/named?fuzzy=thorne+room"),
    Ex("/api/cards/named", "get", 400, "missing_query", "/api/cards/named?exact=%20"),
    Ex("/api/cards/named", "get", 400, "bad_parameter", "/api/cards/named?exact=" + "x" * 101),
    Ex("/api/cards/named", "get", 404, "unknown_card", "/api/cards/named?exact=thorne+room"),
    *_gets("/api/cards/autocomplete", "/api/cards/autocomplete?q=thr"),
    Ex("/api/cards/autocomplete", "get", 400, "missing_query", "/api/cards/autocomplete"),
    Ex("/api/cards/autocomplete", "get", 400, "bad_parameter", "/api/cards/autocomplete?q=thr&limit=50"),
    *_gets("/api/sections", "/api/sections?doc=faq"),
    Ex("/api/sections", "get", 400, "bad_parameter", "/api/sections?doc=nope"),
    *_gets("/api/sections/{slug}", "/api/sections/i-published-games",
           ("unknown_section", "slug_too_long", "not_found")),
    *_gets("/api/index", "/api/index"),
    *_gets("/api/faq", "/api/faq"),
    *_gets("/api/adventures", "/api/adventures"),
    *_gets("/api/scenarios", "/api/scenarios", store=False),
    *_gets("/api/scenarios/{id}", "/api/scenarios/moat-vs-militia", ("unknown_scenario", "slug_too_long",
                                                                     "not_found"), store=False),
    Ex("/api/scenarios/{id}", "get", 422, "bad_scenario", f"/api/scenarios/{BROKEN_SCENARIO_ID}", app="broken"),
    Ex("/api/scenarios/{id}", "get", 422, "replay_timeout", "/api/scenarios/moat-vs-militia", app="timeout"),
    *_gets("/api/openapi.json", "/api/openapi.json", store=False),
    *_gets("/api/scenario-schema.json", "/api/scenario-schema.json", store=False),
    Ex(R, "post", 200, None, R, body=MOAT_VS_MILITIA, ctype="application/yaml"),
    Ex(R, "post", 400, "empty_body", R, body="  \n", ctype="application/yaml"),
    Ex(R, "post", 400, "bad_json", R, body="{bad json", ctype="application/json"),
    Ex(R, "post", 400, "bad_scenario", R, body=MOAT_VS_MILITIA.replace("players:", "playerz:"),
       ctype="application/yaml"),
    Ex(R, "post", 400, "scenario_too_deep", R, body="players: " + "[" * 40 + "]" * 40, ctype="application/yaml"),
    Ex(R, "post", 400, "too_many_steps", R, body="steps:\n" + "  - end_turn\n" * (limits.REPLAY_STEPS.value + 1),
       ctype="application/yaml"),
    Ex(R, "post", 400, "step_limit_too_high", R, body="step_limit: 100000000\nsteps: []\n",
       ctype="application/yaml"),
    Ex(R, "post", 413, "body_too_large", R, body=b"x" * (limits.BODY_BYTES.value + 1), ctype="application/yaml"),
    Ex(R, "post", 413, "scenario_too_large", R, body=ALIAS_BOMB, ctype="application/yaml"),
    Ex(R, "post", 414, "url_too_long", f"{R}?pad={LONG_URL_PAD}", body=MOAT_VS_MILITIA, ctype="application/yaml"),
    Ex(R, "post", 422, "replay_timeout", R, app="timeout", body=MOAT_VS_MILITIA, ctype="application/yaml"),
    Ex(R, "post", 429, "too_many_replays", R, app="limited", body=MOAT_VS_MILITIA, ctype="application/yaml"),
    Ex(R, "post", 503, "replays_busy", R, app="busy", body=MOAT_VS_MILITIA, ctype="application/yaml"),
]


def _documented() -> set[tuple[str, str, int, str | None]]:
    """Every (path, method, status, code) the document promises; code None for answers without an error."""
    out = set()
    for path, ops in DOC["paths"].items():
        for method, op in ops.items():
            for status, resp in op["responses"].items():
                schema = (resp.get("content") or {}).get("application/json", {}).get("schema", {})
                codes = [part["properties"]["code"]["enum"] for part in schema.get("allOf", [])
                         if "code" in part.get("properties", {})]
                for code in (codes[0] if codes else [None]):
                    out.add((path, method, int(status), code))
    return out


def test_every_documented_answer_has_a_real_request_and_no_other():
    examples = {(e.path, e.method, e.status, e.code) for e in EXAMPLES}
    documented = _documented()
    assert documented - examples == set(), "documented but never produced here"
    assert examples - documented == set(), "produced by the API but not documented"


def test_every_api_route_documents_the_limits_every_route_shares(app):
    """Walk the URL map: each /api operation lists 414; each with a name in the path lists 404 slug_too_long."""
    documented = _documented()
    routes = 0
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/") or rule.rule == "/api/":
            continue
        path = rule.rule.replace("<", "{").replace(">", "}")
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            m = method.lower()
            assert (path, m, 414, "url_too_long") in documented, (path, m)
            if rule.arguments:
                assert (path, m, 404, "slug_too_long") in documented, (path, m)
            if m == "get":
                assert (path, m, 304, None) in documented, (path, m)
            routes += 1
    assert routes == len({(e.path, e.method) for e in EXAMPLES})


# ------------------------------------------------------------------ the answers themselves
@pytest.fixture(scope="module")
def apps(built_index, tmp_path_factory):
    """The production app, one without a built store, one whose replay deadline is zero, one with a bad file."""
    from app import create_app

    db = str(built_index / "rules.db")
    missing = tmp_path_factory.mktemp("unbuilt") / "rules.db"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(limits, "REPLAY_SECONDS", dataclasses.replace(limits.REPLAY_SECONDS, value=0.0))
        timeout = create_app({"DB_PATH": db})
    corpus = tmp_path_factory.mktemp("corpus")
    (corpus / "scenarios").mkdir()
    (corpus / "scenarios" / f"{BROKEN_SCENARIO_ID}.yaml").write_text(
        MOAT_VS_MILITIA.replace("players:", "playerz:"), encoding="utf-8")
    # limited: every address's replay budget is empty; busy: the only replay slot and the slot kept for small
    # replays are held (by this fixture).
    limited = create_app({"DB_PATH": db, "RATE_LIMITS": True, "REPLAY_BURST": 0.0,
                          "RUN_DIR": str(tmp_path_factory.mktemp("run-limited"))})
    busy_run = tmp_path_factory.mktemp("run-busy")
    busy = create_app({"DB_PATH": db, "REPLAY_SLOTS": 1, "RUN_DIR": str(busy_run)})
    holder = os.open(busy_run / "replay-slot-0.lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(holder, fcntl.LOCK_EX)
    small = os.open(busy_run / "replay-small-0.lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(small, fcntl.LOCK_EX)
    yield {"prod": create_app({"DB_PATH": db}), "missing": create_app({"DB_PATH": str(missing)}),
           "timeout": timeout, "broken": create_app({"DB_PATH": db}), "broken_corpus": corpus,
           "limited": limited, "busy": busy}
    os.close(holder)
    os.close(small)


def _schema_for(ex: Ex) -> dict[str, Any] | None:
    resp = DOC["paths"][ex.path][ex.method]["responses"][str(ex.status)]
    schema = (resp.get("content") or {}).get("application/json", {}).get("schema")
    return None if schema is None else {**schema, "components": DOC["components"]}


@pytest.mark.parametrize("ex", EXAMPLES, ids=lambda e: e.id)
def test_each_documented_answer_is_what_the_api_gives(apps, ex, monkeypatch):
    if ex.app == "broken":
        monkeypatch.setenv("RULINGS_CORPUS_DIR", str(apps["broken_corpus"]))
    client = apps[ex.app].test_client()
    headers = {"Accept-Encoding": "identity"}
    if ex.conditional:
        first = client.get(ex.url, headers=headers)
        assert first.status_code == 200 and first.headers.get("ETag")
        headers["If-None-Match"] = first.headers["ETag"]
    resp = client.open(ex.url, method=ex.method.upper(), data=ex.body, content_type=ex.ctype, headers=headers)
    assert resp.status_code == ex.status, resp.get_data(as_text=True)[:300]
    schema = _schema_for(ex)
    if ex.status == 304:
        assert schema is None and resp.data == b""
        return
    assert resp.mimetype == "application/json"
    body = resp.get_json()
    if ex.code is not None:
        assert body["code"] == ex.code
    jsonschema.Draft202012Validator(schema).validate(body)


def test_error_schema_rejects_what_the_api_must_not_send():
    """The shape is strict: a limit error without its limit, an unknown field or a stray line fails it."""
    schema = {**DOC["components"]["schemas"]["Error"], "components": DOC["components"]}
    v = jsonschema.Draft202012Validator(schema)
    good = {"status": 413, "code": "scenario_too_large", "message": "the scenario is big", "limit": 64000}
    assert v.is_valid(good)
    assert not v.is_valid({k: x for k, x in good.items() if k != "limit"})
    assert not v.is_valid({**good, "traceback": "..."})
    assert not v.is_valid({**good, "line": 3})
    assert not v.is_valid({"status": 404, "code": "unknown_card", "message": "no card 'x'"})
    assert v.is_valid({"status": 404, "code": "unknown_card", "message": "no card 'x'", "nearest": []})


def test_documented_limits_are_the_enforced_ones():
    """The numbers in the document come from limits.py, the same ones the checks use."""
    search = DOC["paths"]["/api/search"]["get"]
    q = next(p for p in search["parameters"] if p["name"] == "q")
    assert q["schema"]["maxLength"] == limits.QUERY_CHARS.value
    slug = DOC["paths"]["/api/cards/{slug}"]["get"]["parameters"][0]
    assert slug["schema"]["maxLength"] == limits.SLUG_BYTES.value
    body = DOC["paths"]["/api/replay"]["post"]["requestBody"]["description"]
    assert str(limits.SCENARIO_BYTES.value) in body and str(limits.REPLAY_STEPS.value) in body


def test_the_app_serves_the_document_these_tests_read(client):
    assert client.get("/api/openapi.json").get_json() == DOC
