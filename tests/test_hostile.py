"""Hostile input: whatever a client sends, the answer is results or a 4xx that says what was wrong.

Property-based (hypothesis) over search queries, card slugs, scenario
documents and replay requests, plus one test per limit showing its own error.
Never a 500, never a traceback. Examples are kept modest so the file runs in
seconds on the real build.
"""
from __future__ import annotations

import dataclasses
import json
import urllib.parse

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.web import limits

FAST = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.fixture()
def app(prod_app):
    """These tests are about what production answers: not testing mode."""
    return prod_app


@pytest.fixture()
def client(prod_client):
    return prod_client


def assert_answer(resp, api: bool = True) -> None:
    """Results, a redirect, or a 4xx with a clear message; never a 5xx or a traceback."""
    text = resp.get_data(as_text=True)
    assert resp.status_code < 500, text[:500]
    assert "Traceback" not in text
    if resp.status_code >= 400 and api:
        body = resp.get_json()
        assert body["status"] == resp.status_code
        assert body["code"] and len(body["message"]) > 10


# ------------------------------------------------------------------ search queries
WHOOSH_SYNTAX = st.sampled_from(["AND", "OR", "NOT", "ANDNOT", "*", "?", "~", "~2", "^3", "title:", "text:",
                                 '"', "(", ")", "[a TO z]", "{", "}", "\\", "/", "-", "+", ":", "'", "<", ">",
                                 "%", "&", "#", "\x00", "\u202e", "\ufeff", "𝔐𝔬𝔞𝔱", "Thronsaal", "moat"])
QUERY = st.one_of(
    st.text(max_size=250),
    st.lists(st.one_of(WHOOSH_SYNTAX, st.text(max_size=8)), max_size=30).map(" ".join),
    st.text(alphabet=st.characters(codec="utf-8", categories=["Cc", "Cf", "Zs", "Zl", "Zp", "So", "Mn"]),
            max_size=60),
)


@FAST
@given(q=QUERY)
def test_search_answers_any_query(client, q):
    resp = client.get("/api/search", query_string={"q": q})
    assert_answer(resp)
    if resp.status_code == 200:
        assert isinstance(resp.get_json()["results"], list)
    else:
        assert resp.get_json()["code"] in ("missing_query", "query_too_long")
    assert_answer(client.get("/search", query_string={"q": q}), api=False)


def test_very_long_query_gets_its_own_error(client):
    resp = client.get("/api/search", query_string={"q": "moat " * 100})
    assert resp.status_code == 400
    body = resp.get_json()
    assert body["code"] == "query_too_long" and str(limits.QUERY_CHARS.value) in body["message"]
    page = client.get("/search", query_string={"q": "moat " * 100})
    assert page.status_code == 400 and "the search query is" in page.get_data(as_text=True)


# ------------------------------------------------------------------ card slugs
@FAST
@given(slug=st.one_of(st.text(min_size=1, max_size=200), st.sampled_from(
    ["..", ".", "%00", "moat%2F..", "throne room", "Throne-Room", "k\u00f6nig", "🃏", "a" * 500, " moat "])))
def test_card_pages_answer_any_slug(client, slug):
    quoted = urllib.parse.quote(slug, safe="")
    for url in (f"/api/cards/{quoted}", f"/cards/{quoted}", f"/api/sections/{quoted}", f"/rules/{quoted}"):
        resp = client.get(url)
        assert_answer(resp, api=url.startswith("/api/") and resp.status_code != 308)


def test_overlong_slug_gets_its_own_error(client):
    resp = client.get("/api/cards/" + "x" * 1000)
    assert resp.status_code == 404
    assert resp.get_json()["code"] == "slug_too_long"
    assert str(limits.SLUG_BYTES.value) in resp.get_json()["message"]


# ------------------------------------------------------------------ scenario documents
SCALAR = st.one_of(st.none(), st.booleans(), st.integers(min_value=-10**12, max_value=10**12),
                   st.floats(allow_nan=False), st.text(max_size=20),
                   st.sampled_from(["Moat", "Copper", "Throne Room", "Village", "end_turn", "play", "buy"]))
KEYS = st.one_of(st.sampled_from(["title", "rulings", "players", "supply", "steps", "expect", "seed", "turn",
                                  "current", "hand", "deck", "discard", "play", "buy", "answers", "step_limit",
                                  "versions", "name", "unknown_key", "phase", "coins"]), st.text(max_size=10))
TREE = st.recursive(SCALAR, lambda kids: st.one_of(st.lists(kids, max_size=6),
                                                   st.dictionaries(KEYS, kids, max_size=6)), max_leaves=40)
SCENARIO = st.fixed_dictionaries({}, optional={
    "title": SCALAR, "players": TREE, "supply": TREE, "steps": TREE, "expect": TREE, "seed": SCALAR,
    "step_limit": SCALAR, "turn": TREE, "rulings": TREE, "surprise": TREE})


def _post(client, body, content_type: str = "application/yaml"):
    return client.post("/api/replay", data=body, content_type=content_type)


@FAST
@given(doc=st.one_of(SCENARIO, TREE))
def test_replay_answers_any_scenario_structure(client, doc):
    as_yaml = yaml.safe_dump(doc, allow_unicode=True)
    for body, ctype in ((as_yaml, "application/yaml"), (json.dumps(doc), "application/json")):
        resp = _post(client, body, ctype)
        assert_answer(resp)
        if resp.status_code == 200:
            assert "ok" in resp.get_json()


@FAST
@given(text=st.one_of(st.text(max_size=400), st.binary(max_size=400).map(lambda b: b.decode("latin-1")),
                      st.lists(st.sampled_from(["steps:", "- play: Moat", "  - ", "&a", "*a", "!!binary", "{",
                                                "[", "]", ": :", "\t", "---", "...", "? x", "%YAML 1.1",
                                                "!!python/object:os.system", "players: [{hand: [Moat]}]",
                                                "seed: 1e400", "step_limit: -1"]), max_size=20).map("\n".join)),
       ctype=st.sampled_from(["application/yaml", "application/json", "text/plain", "multipart/form-data",
                              "application/x-www-form-urlencoded"]))
def test_replay_answers_malformed_bodies(client, text, ctype):
    assert_answer(_post(client, text.encode("utf-8", "surrogatepass"), ctype))


def test_real_scenario_still_replays(client):
    """The limits leave room for what the project's own scenarios need."""
    from app import config

    for path in sorted(config.scenarios_dir().glob("*.yaml"))[:5]:
        resp = _post(client, path.read_bytes())
        assert resp.status_code == 200, (path.name, resp.get_json())
        assert resp.get_json()["ok"] is True, path.name


# ------------------------------------------------------------------ one error per limit
def _error(resp, status: int, code: str) -> str:
    assert resp.status_code == status, resp.get_data(as_text=True)[:300]
    body = resp.get_json()
    assert body["code"] == code and body["status"] == status
    return body["message"]


def test_body_size_limit(client):
    msg = _error(_post(client, b"x" * (limits.BODY_BYTES.value + 1)), 413, "body_too_large")
    assert "request body" in msg and "262 144" in msg


def test_scenario_size_limit(client):
    msg = _error(_post(client, b"# " + b"x" * limits.SCENARIO_BYTES.value), 413, "scenario_too_large")
    assert "64 000 bytes" in msg


def test_alias_bomb_is_refused_before_it_is_walked(client):
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 9):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    msg = _error(_post(client, "\n".join(lines)), 413, "scenario_too_large")
    assert "aliases" in msg


def test_nesting_limit_yaml_and_json(client):
    deep = "[" * 60 + "]" * 60
    _error(_post(client, f"players: {deep}"), 400, "scenario_too_deep")
    _error(_post(client, json.dumps({"players": json.loads(deep)}), "application/json"), 400, "scenario_too_deep")
    # Deeper than Python's parsers can recurse: still a clear 400, not a crash.
    _error(_post(client, "[" * 30000 + "]" * 30000, "application/json"), 400, "scenario_too_deep")


def test_replay_steps_limit(client):
    steps = "\n".join(["  - end_turn: true"] * (limits.REPLAY_STEPS.value + 1))
    msg = _error(_post(client, f"players: [{{name: A}}]\nsteps:\n{steps}\n"), 400, "too_many_steps")
    assert str(limits.REPLAY_STEPS.value) in msg


def test_engine_step_limit_cannot_be_raised_past_the_cap(client):
    msg = _error(_post(client, "step_limit: 100000000\nsteps: []\n"), 400, "step_limit_too_high")
    assert "step_limit" in msg


def test_url_length_limit(client):
    resp = client.get("/api/cards", query_string={"pad": "y" * (limits.URL_CHARS.value + 10)})
    assert "the URL is" in _error(resp, 414, "url_too_long")


def test_replay_time_limit_stops_a_running_replay(built_index, monkeypatch):
    """With the deadline at zero a real replay is stopped mid-way and says why."""
    from app import config, create_app

    monkeypatch.setattr(limits, "REPLAY_SECONDS", dataclasses.replace(limits.REPLAY_SECONDS, value=0.0))
    app = create_app({"DB_PATH": str(built_index / "rules.db")})
    body = sorted(config.scenarios_dir().glob("*.yaml"))[0].read_bytes()
    resp = app.test_client().post("/api/replay", data=body, content_type="application/yaml")
    msg = _error(resp, 422, "replay_timeout")
    assert "ran too long" in msg


# ------------------------------------------------------------------ the sandbox: the same scenario limits
def test_pasted_sandbox_scenario_meets_the_api_scenario_limits(client):
    """One set of scenario limits (limits.py) for the API and the sandbox: size and alias bomb alike."""
    import html
    import io

    big = "# " + "x" * limits.SCENARIO_BYTES.value
    resp = client.post("/try", data={"op": "load", "scenario": big})
    assert resp.status_code == 400
    assert limits.SCENARIO_BYTES.message(len(big)) in html.unescape(resp.get_data(as_text=True))
    # Uploaded as a file: read only up to the limit, refused with the same message.
    resp = client.post("/try", data={"op": "load", "file": (io.BytesIO(big.encode()), "big.yaml")},
                       content_type="multipart/form-data")
    assert resp.status_code == 400 and "the limit is 64 000 bytes" in html.unescape(resp.get_data(as_text=True))
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 9):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    resp = client.post("/try", data={"op": "load", "scenario": "\n".join(lines)})
    assert resp.status_code == 400 and "aliases count each time they are used" in resp.get_data(as_text=True)


def test_sandbox_form_limit_leaves_room_for_a_full_scenario_and_link(client):
    """A scenario file at its limit plus a sandbox link at its limit fits the form limit; more does not."""
    import io

    from app.web import sandbox

    full = b"x" * limits.SCENARIO_BYTES.value
    resp = client.post("/try", data={"op": "load", "s": "A" * sandbox.MAX_TOKEN,
                                     "file": (io.BytesIO(full), "full.yaml")}, content_type="multipart/form-data")
    assert resp.status_code == 400          # the text is not a scenario, but the form got through
    assert "form_too_large" not in resp.get_data(as_text=True)
    over = client.post("/try", data={"op": "load", "scenario": "x" * (limits.FORM_BYTES.value + 1)})
    assert over.status_code == 413 and "the submitted form is" in over.get_data(as_text=True)


def test_a_lone_surrogate_escape_is_a_clear_400_and_a_json_surrogate_pair_is_its_character(client):
    """JSON writes a character outside the BMP as two \\u escapes; YAML decodes them as two halves.
    A pair becomes the character; a lone half is refused at its line (it once made the error itself a 500)."""
    lone = '{"title": "x",\n "versions": {"\\ud800": "1"}, "players": [], "steps": []}'
    resp = client.post("/api/replay", data=lone, content_type="application/json")
    assert resp.status_code == 400 and resp.get_json()["line"] == 2, resp.get_data(as_text=True)
    assert "half of a character" in resp.get_json()["message"]
    import json

    import yaml

    from app import config
    doc = yaml.safe_load((config.scenarios_dir() / "base-merchant-silver-played-before-it.yaml").read_text(encoding="utf-8"))
    doc["title"] = "Moat \U0001F600"
    pair = json.dumps(doc)                       # ensure_ascii: the emoji travels as "\\ud83d\\ude00"
    assert "\\ud83d\\ude00" in pair
    resp = client.post("/api/replay", data=pair, content_type="application/json")
    assert resp.status_code == 200 and "\U0001F600" in resp.get_data(as_text=True), resp.get_data(as_text=True)[:300]
