"""The JSON API: same data as the pages, one error shape, an OpenAPI document that matches the routes."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app import config
from app.search.query import search



def _is_error(body: dict, status: int) -> bool:
    return body["status"] == status and isinstance(body["code"], str) and body["message"]


def test_card_json_has_every_ruling_with_links(client, store):
    body = client.get("/api/cards/throne-room").get_json()
    detail = store.card_detail("throne-room")
    assert body["name"] == "Throne Room"
    assert [r["key"] for r in body["rulings"]] == [r["key"] for r in detail["rulings"]]
    linked = [link for r in body["rulings"] for link in r["links"] if link["resolved"]]
    assert linked and all(link["url"] for link in linked)
    assert body["definition"] and body["scenarios"]


def test_section_json_has_breadcrumbs_children_and_paragraphs(client, store):
    sec = store.row("select * from sections where kind='section' and doc='rules' order by ord limit 1")
    body = client.get(f"/api/sections/{sec['slug']}").get_json()
    assert body["breadcrumbs"][0]["slug"] == sec["parent"]
    assert [c["slug"] for c in body["children"]] == [
        r["slug"] for r in store.rows("select slug from sections where parent=? order by ord", (sec["slug"],))]
    assert len(body["paragraphs"]) == store.count("paragraphs", "where section=?", (sec["slug"],))


def test_search_json_is_the_search_function_unchanged(client, store):
    body = client.get("/api/search?q=moat+militia&limit=5").get_json()
    assert body == json.loads(json.dumps(search(store, "moat militia", 5)))


@pytest.mark.parametrize("url,status", [
    ("/api/cards/no-such-card", 404), ("/api/sections/nope", 404), ("/api/scenarios/nope", 404),
    ("/api/search", 400), ("/api/search?q=x&limit=0", 400), ("/api/search?q=x&limit=abc", 400),
    ("/api/sections?doc=nope", 400), ("/api/no-such-endpoint", 404),
])
def test_errors_are_json_objects(client, url, status):
    r = client.get(url)
    assert r.status_code == status and r.is_json and _is_error(r.get_json(), status)


def test_wrong_method_is_a_json_error(client):
    r = client.get("/api/replay")
    assert r.status_code == 405 and _is_error(r.get_json(), 405)


def test_unknown_card_json_suggests_nearest(client):
    r = client.get("/api/cards/throne-roomxxxx")
    body = r.get_json()
    assert r.status_code == 404 and body["code"] == "unknown_card"
    assert {"name": "Throne Room", "url": "/api/cards/throne-room"} in body["nearest"]


@pytest.mark.parametrize("name", ["throne-room", "Throne Room", "thorne-room", "kc", "burggraben", "KC"])
def test_card_api_accepts_what_search_accepts(client, name):
    slug = {"kc": "kings-court", "KC": "kings-court", "burggraben": "moat"}.get(name, "throne-room")
    r = client.get(f"/api/cards/{name}")
    assert r.status_code == 200 and r.get_json()["url"] == f"/cards/{slug}"


@pytest.mark.parametrize("param, name, slug", [
    ("exact", "throne room", "throne-room"), ("exact", "Burggraben", "moat"), ("exact", "KC", "kings-court"),
    ("fuzzy", "thorne rom", "throne-room"), ("fuzzy", "libary", "library"), ("fuzzy", "philosopher", "philosophers-stone"),
])
def test_named_lookup_exact_and_fuzzy(client, param, name, slug):
    r = client.get("/api/cards/named", query_string={param: name})
    assert r.status_code == 200 and r.get_json()["slug"] == slug


def test_named_exact_does_not_guess(client):
    r = client.get("/api/cards/named", query_string={"exact": "thorne rom"})
    assert r.status_code == 404
    assert "/api/cards/throne-room" in [n["url"] for n in r.get_json()["nearest"]]
    # "WV" is Worker's Village or Walled Village: no guess either way
    assert client.get("/api/cards/named", query_string={"fuzzy": "WV"}).status_code == 404


@pytest.mark.parametrize("q, first", [("thr", "Throne Room"), ("kc", "King's Court"), ("burggr", "Moat"),
                                      ("libary", "Library"), ("king", "King's Court")])
def test_autocomplete_names(client, q, first):
    data = client.get("/api/cards/autocomplete", query_string={"q": q}).get_json()["data"]
    assert first in [d["name"] for d in data[:3]], data
    assert all(d["url"] == f"/cards/{d['slug']}" for d in data)


def test_openapi_lists_exactly_the_api_routes(app, client):
    doc = client.get("/api/openapi.json").get_json()
    assert doc["openapi"].startswith("3.")
    documented = {(path, method) for path, ops in doc["paths"].items() for method in ops}
    routed = set()
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/") and rule.rule != "/api/":
            path = rule.rule.replace("<", "{").replace(">", "}")
            for method in rule.methods - {"HEAD", "OPTIONS"}:
                routed.add((path, method.lower()))
    assert documented == routed
    listing = client.get("/api/").data.decode()
    assert all(path in listing for path, _ in documented)


# ------------------------------------------------------------------ replay
def _scenario_text(name: str) -> str:
    return (config.scenarios_dir() / f"{name}.yaml").read_text(encoding="utf-8")


def test_replay_yaml_returns_the_log_and_final_state(client):
    r = client.post("/api/replay", data=_scenario_text("throne-room-feast"), content_type="application/yaml")
    body = r.get_json()
    assert r.status_code == 200 and body["ok"] is True
    assert body["final"]["trash"] == ["Feast"]
    assert any("not trashed again" in e["text"] for e in body["log"])
    assert all("zones" in s for s in body["steps"])


def test_replay_json_body(client):
    import yaml
    data = yaml.safe_load(_scenario_text("moat-vs-militia"))
    body = client.post("/api/replay", json=data).get_json()
    assert body["ok"] is True and body["log"]


def test_replay_with_a_missing_answer_returns_the_question(client):
    text = _scenario_text("throne-room-feast").replace("answers: [Duchy, Laboratory]", "answers: [Duchy]")
    body = client.post("/api/replay", data=text, content_type="application/yaml").get_json()
    assert body["ok"] is False
    assert body["question"]["player"] == "Alice"
    assert "Laboratory" in body["question"]["options"]


def test_replay_bad_input_names_the_line(client):
    text = _scenario_text("throne-room-feast").replace("players:", "playerz:")
    r = client.post("/api/replay", data=text, content_type="application/yaml")
    body = r.get_json()
    assert r.status_code == 400 and _is_error(body, 400) and "request body" in body["message"]
    r = client.post("/api/replay", data="{bad json", content_type="application/json")
    assert r.status_code == 400 and r.get_json()["line"] == 1
    assert client.post("/api/replay", data="", content_type="application/yaml").status_code == 400


def test_replay_rejects_a_huge_body(client):
    r = client.post("/api/replay", data="a: " + "x" * 300_000, content_type="application/yaml")
    assert r.status_code == 413 and r.is_json


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=300))
def test_replay_never_crashes_on_arbitrary_text(client, text):
    r = client.post("/api/replay", data=text,
                    content_type="application/yaml")
    assert r.status_code in (200, 400), r.data[:300]
    assert r.is_json


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=120))
def test_search_and_card_lookups_never_crash(client, text):
    r = client.get("/api/search", query_string={"q": text})
    assert r.status_code in (200, 400) and r.is_json
    r = client.get(f"/api/cards/{text.replace('/', '')}" if text.strip("/") else "/api/cards/x")
    assert r.status_code in (200, 301, 308, 404) and (r.is_json or r.status_code in (301, 308))


def test_every_scenario_page_agrees_with_the_engine(client):
    """The API reports what the engine reports for each scenario file; a file that does not load is a 422."""
    from app.engine import scenario as sc_mod
    from app.engine.core.errors import ScenarioError

    paths = sorted(Path(config.scenarios_dir()).glob("*.yaml"))
    assert paths
    for path in paths:
        r = client.get(f"/api/scenarios/{path.stem}")
        body = r.get_json()
        try:
            expected = sc_mod.run(sc_mod.load(path))
        except ScenarioError as exc:
            assert r.status_code == 422 and _is_error(body, 422) and body.get("line") == exc.line, path.stem
            continue
        assert r.status_code == 200, path.stem
        assert body["ok"] == expected.ok, path.stem
        assert [e["text"] for e in body["log"]] == [e.text for e in expected.log.entries], path.stem
