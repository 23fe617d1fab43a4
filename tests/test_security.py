"""Security promises of the served app, each checked on the real build.

Headers on every kind of response, pages that run under the policy they send,
ETag/304 and gzip, no debug mode or tracebacks, YAML only through the safe
loader, no request path reaching the filesystem, a read-only store, and nh3
between corpus text and HTML.
"""
from __future__ import annotations

import ast
import gzip
import hashlib
import os
import re
import sqlite3
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.web.security import CONTENT_SECURITY_POLICY, SECURITY_HEADERS

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture()
def app(prod_app):
    """These tests are about what production answers: not testing mode."""
    return prod_app


@pytest.fixture()
def client(prod_client):
    return prod_client


RESPONSES = [
    ("GET", "/", None), ("GET", "/search?q=moat", None), ("GET", "/cards/moat", None),
    ("GET", "/rules", None), ("GET", "/api/cards/moat", None), ("GET", "/api/search?q=moat", None),
    ("GET", "/static/site.css", None), ("GET", "/healthz", None), ("GET", "/cards/no-such-card", None),
    ("GET", "/api/no-such-endpoint", None), ("POST", "/api/replay", "steps: [1"),
]


@pytest.mark.parametrize("method,url,body", RESPONSES)
def test_every_response_carries_the_policy_and_security_headers(client, method, url, body):
    resp = client.open(url, method=method, data=body, content_type="application/yaml" if body else None)
    for name, value in SECURITY_HEADERS.items():
        assert resp.headers.get(name) == value, (url, name)
    assert "'unsafe-inline'" not in CONTENT_SECURITY_POLICY and "'unsafe-eval'" not in CONTENT_SECURITY_POLICY
    if resp.status_code >= 400 or method == "POST":
        assert resp.headers["Cache-Control"] == "no-store"


class _InlineFinder(HTMLParser):
    """Collects what a policy without 'unsafe-inline' would block: inline scripts, styles, handlers."""

    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        names = {k for k, _ in attrs}
        if tag == "script" and "src" not in names:
            self._in_script = True
        if tag == "style":
            self.problems.append("<style> element")
        for k, v in attrs:
            if k.startswith("on") or k == "style":
                self.problems.append(f"{tag} {k}=")
            if k in ("href", "src", "action") and v and v.strip().lower().startswith("javascript:"):
                self.problems.append(f"{tag} {k}=javascript:")

    def handle_data(self, data):
        if self._in_script and data.strip():
            self.problems.append("inline <script>")

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False


@pytest.mark.parametrize("url", ["/", "/search?q=throne+room", "/cards/throne-room", "/rules", "/faq",
                                 "/scenarios", "/try", "/api/"])
def test_pages_work_under_the_policy_they_send(client, url):
    """The policy forbids inline script and style: a page relying on them would break for players."""
    resp = client.get(url)
    assert resp.status_code == 200
    finder = _InlineFinder()
    finder.feed(resp.get_data(as_text=True))
    assert finder.problems == []


def test_etag_answers_304_and_each_encoding_has_its_own(client):
    plain = client.get("/cards/throne-room")
    zipped = client.get("/cards/throne-room", headers={"Accept-Encoding": "gzip, deflate"})
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(zipped.data) == plain.data
    assert len(zipped.data) < len(plain.data) / 2
    assert "Accept-Encoding" in zipped.headers["Vary"]
    assert plain.headers["ETag"] != zipped.headers["ETag"]
    for resp, enc in ((plain, ""), (zipped, "gzip")):
        again = client.get("/cards/throne-room", headers={"If-None-Match": resp.headers["ETag"],
                                                           "Accept-Encoding": enc})
        assert again.status_code == 304 and again.data == b""
    assert "max-age" in plain.headers["Cache-Control"]
    css = client.get("/static/site.css", headers={"Accept-Encoding": "gzip"})
    assert css.headers["Content-Encoding"] == "gzip" and "max-age=86400" in css.headers["Cache-Control"]
    health = client.get("/healthz")
    assert health.headers["Cache-Control"] == "no-store" and "ETag" not in health.headers


def test_no_debug_mode_and_no_tracebacks_outside_development(built_index, monkeypatch):
    from app import create_app

    monkeypatch.setenv("FLASK_DEBUG", "1")          # would turn Flask's debug mode on by itself
    monkeypatch.delenv("RULINGS_ENV", raising=False)
    app = create_app({"DB_PATH": str(built_index / "rules.db")})
    assert app.debug is False

    def boom():
        raise RuntimeError("secret-internal-detail")

    app.add_url_rule("/_test/boom", "boom_page", boom)
    app.add_url_rule("/api/_test/boom", "boom_api", boom)
    client = app.test_client()
    page, api = client.get("/_test/boom"), client.get("/api/_test/boom")
    assert page.status_code == api.status_code == 500
    assert api.get_json()["code"] == "internal_error"
    for resp in (page, api):
        text = resp.get_data(as_text=True)
        assert "Traceback" not in text and "secret-internal-detail" not in text and "RuntimeError" not in text


def _unsafe_yaml_calls(path: Path) -> list[str]:
    """yaml loading calls in one module that do not name a safe loader."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    safe = {"SafeLoader", "CSafeLoader"}
    for node in ast.walk(tree):   # loader classes derived from the safe loader are safe too
        if isinstance(node, ast.ClassDef) and any(
                (isinstance(b, ast.Attribute) and b.attr in safe) or (isinstance(b, ast.Name) and b.id in safe)
                for b in node.bases):
            safe.add(node.name)
    bad = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "yaml"):
            continue
        name = node.func.attr
        if name in ("unsafe_load", "unsafe_load_all", "full_load", "full_load_all"):
            bad.append(f"{path.name}:{node.lineno} yaml.{name}")
        elif name in ("load", "load_all", "compose", "compose_all", "parse", "scan"):
            loader = next((k.value for k in node.keywords if k.arg == "Loader"),
                          node.args[1] if len(node.args) > 1 else None)
            loader_name = getattr(loader, "attr", None) or getattr(loader, "id", None)
            if loader_name not in safe:
                bad.append(f"{path.name}:{node.lineno} yaml.{name} with Loader={loader_name}")
    return bad


def test_yaml_is_only_loaded_with_the_safe_loader(client, tmp_path):
    modules = sorted((ROOT / "app").rglob("*.py"))
    assert len(modules) > 20
    bad = [b for m in modules for b in _unsafe_yaml_calls(m)]
    assert bad == []
    # And in practice: a Python tag in a posted scenario is refused, not run.
    marker = tmp_path / "pwned"
    for doc in (f'x: !!python/object/apply:os.system ["touch {marker}"]\n',
                f'x: !!python/object/apply:pathlib.Path.touch [!!python/object/apply:pathlib.Path ["{marker}"]]\n',
                "x: !!python/name:os.system\n"):
        resp = client.post("/api/replay", data=doc, content_type="application/yaml")
        assert resp.status_code == 400 and resp.get_json()["code"] == "bad_scenario"
    assert not marker.exists()


TRAVERSALS = [
    "/static/../app/config.py", "/static/..%2fapp%2fconfig.py", "/static/%2e%2e/%2e%2e/etc/passwd",
    "/scenarios/..%2F..%2Fpyproject", "/scenarios/%2Fetc%2Fpasswd", "/scenarios/..%2F..%2Fpyproject.yaml",
    "/api/scenarios/..%2F..%2Fpyproject", "/api/scenarios/%2e%2e%5c%2e%2e%5cpyproject",
    "/cards/..%2F..%2F..%2Fetc%2Fpasswd", "/rules/..%2F..%2Findex%2Frules.db", "/api/sections/%2Fetc%2Fpasswd",
    "/try/scenario.yaml?s=..%2F..%2Fetc%2Fpasswd", "/scenarios/....%2F%2Fpasswd.yaml",
]


def test_no_request_path_reaches_the_filesystem(client):
    opened: list[str] = []
    active = [True]

    def hook(event, args):
        if active[0] and event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
            opened.append(os.fsdecode(args[0]))

    sys.addaudithook(hook)   # audit hooks cannot be removed; this one goes quiet after the test
    try:
        for url in TRAVERSALS:
            resp = client.get(url)
            text = resp.get_data(as_text=True)
            assert resp.status_code in (308, 400, 404), (url, resp.status_code)
            assert "root:x:" not in text and "[build-system]" not in text and "SQLite format" not in text
    finally:
        active[0] = False
    leaked = [p for p in opened if re.search(r"passwd|pyproject|config\.py|rules\.db", p)]
    assert leaked == []


def test_served_store_is_a_read_only_snapshot_of_a_file_opened_read_only(built_index):
    from app import create_app
    from app.store.swap import SnapshotStore
    from app.web import services

    db = built_index / "rules.db"
    digest = hashlib.sha256(db.read_bytes()).hexdigest()
    flags: list[int] = []
    watching = [True]

    def hook(event, args):
        if watching[0] and event == "open" and os.fsdecode(args[0]) == str(db):
            flags.append(args[2])

    sys.addaudithook(hook)
    try:
        app = create_app({"DB_PATH": str(db)})
        with app.test_request_context("/healthz"):
            app.preprocess_request()
            store = services().store
            assert isinstance(store, SnapshotStore)
            with pytest.raises(sqlite3.OperationalError, match="readonly|read-only|query_only"):
                store.conn.execute("delete from meta")
            with pytest.raises(sqlite3.OperationalError):
                store.conn.execute("create table evil (x)")
    finally:
        watching[0] = False
    assert flags, "the web app did not open the store file itself"
    assert all(f & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC) == 0 for f in flags)
    assert hashlib.sha256(db.read_bytes()).hexdigest() == digest


_HOSTILE = st.lists(st.sampled_from([
    "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "[x](javascript:alert(1))",
    "<a href=\"javascript:alert(1)\">a</a>", "<iframe src=//evil>", "<svg onload=alert(1)>",
    "\"><b onmouseover=alert(1)>", "<style>*{}</style>", "Throne Room", "Moat", "**bold**", "`code`",
    "<a href='/x' onclick='y'>", "&lt;script&gt;", "see p. 18", "[link](http://example.com)",
]) | st.text(max_size=40), min_size=1, max_size=8).map(" ".join)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=_HOSTILE)
def test_rendered_text_is_sanitised(app, text):
    """Whatever the corpus text holds, the HTML made from it has no script, handler or javascript: URL."""
    from app.web import services

    with app.test_request_context("/"):
        app.preprocess_request()
        out = services().renderer.html(text)
    finder = _InlineFinder()
    finder.feed(out)
    assert finder.problems == []
    tags = set(re.findall(r"<\s*([a-zA-Z0-9]+)", out))
    assert tags <= {"p", "a", "strong", "em", "ul", "ol", "li", "code", "br", "blockquote", "span"}


def test_search_echo_is_escaped(client):
    resp = client.get("/search", query_string={"q": "<script>alert(1)</script> moat"})
    assert resp.status_code == 200
    assert "<script>alert(1)" not in resp.get_data(as_text=True)


# ------------------------------------------------------------------ limits travel with the views
# The engine's entry points a view calls when it runs input from the request (a scenario id,
# a posted or pasted scenario, a sandbox link): such a view must run under the replay deadline.
ENGINE_ENTRY_POINTS = {"replay", "load_text", "load_id", "run", "from_scenario_text"}
SEARCH_CALLS = {"run_search", "search"}
BODY_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


def _is_request_args(node: ast.AST) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "args"
            and isinstance(node.value, ast.Name) and node.value.id == "request")


def _what_the_view_takes(view) -> tuple[set[str], set[str], set[str]]:
    """Query parameters the view reads, search functions and engine entry points it calls (from its source)."""
    import inspect
    import textwrap

    tree = ast.parse(textwrap.dedent(inspect.getsource(inspect.unwrap(view))))
    params: set[str] = set()
    searches: set[str] = set()
    engine: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Name) and f.id in SEARCH_CALLS:
                searches.add(f.id)
            if isinstance(f, ast.Attribute):
                if f.attr == "get" and _is_request_args(f.value) and node.args \
                        and isinstance(node.args[0], ast.Constant):
                    params.add(node.args[0].value)
                if f.attr in ENGINE_ENTRY_POINTS:
                    engine.add(f.attr)
        if isinstance(node, ast.Subscript) and _is_request_args(node.value) and isinstance(node.slice, ast.Constant):
            params.add(node.slice.value)
    return params, searches, engine


def test_every_route_that_takes_a_query_a_body_or_a_scenario_declares_its_limits(app):
    """Walk the URL map: a route added or renamed without ``@limited`` fails here, not in production."""
    from app.web.limits import limits_of

    checked = {"query": 0, "body": 0, "replay": 0}
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        view = app.view_functions[rule.endpoint]
        declared = limits_of(view)
        params, searches, engine = _what_the_view_takes(view)
        where = f"{rule.rule} ({rule.endpoint})"
        if searches:
            assert declared is not None and declared.query, f"{where} searches but declares no query limit"
            assert declared.query in params, f"{where} limits ?{declared.query} but reads {sorted(params)}"
            checked["query"] += 1
        if rule.methods & BODY_METHODS:
            assert declared is not None and declared.body is not None, f"{where} takes a body without a limit"
            checked["body"] += 1
        if engine:
            assert declared is not None and declared.replay, f"{where} runs the engine without the deadline"
            assert getattr(view, "_with_deadline", False), f"{where} declares replay but has no deadline"
            checked["replay"] += 1
    # The walk found what the site has: two search routes, two POST routes, four engine routes.
    assert checked["query"] >= 2 and checked["body"] >= 2 and checked["replay"] >= 4, checked


def test_declared_limits_are_enforced_on_every_route_that_declares_them(app, client):
    """Each declaration has its effect on the live route: the query limit, the body limit."""
    from app.web import limits

    seen = 0
    for rule in app.url_map.iter_rules():
        declared = limits.limits_of(app.view_functions[rule.endpoint])
        if declared is None or rule.arguments:
            continue
        if declared.query:
            resp = client.get(rule.rule, query_string={declared.query: "moat " * 60})
            assert resp.status_code == 400, rule.rule
            assert "the search query is" in resp.get_data(as_text=True), rule.rule
            seen += 1
        if declared.body is not None and "POST" in rule.methods:
            resp = client.post(rule.rule, data=b"x" * (int(declared.body.value) + 1),
                               content_type="application/octet-stream")
            assert resp.status_code == declared.body.status, rule.rule
            assert f"{declared.body.value:,}".replace(",", " ") in resp.get_data(as_text=True), rule.rule
            seen += 1
    assert seen >= 4


def test_a_renamed_route_keeps_its_limit(built_index):
    """The limit belongs to the view: the search view under another endpoint name is still bounded."""
    from app import create_app
    from app.web import api as api_module

    app = create_app({"DB_PATH": str(built_index / "rules.db")})
    app.add_url_rule("/api/_test/renamed-search", "renamed_search", api_module.search)
    resp = app.test_client().get("/api/_test/renamed-search", query_string={"q": "moat " * 60})
    assert resp.status_code == 400 and resp.get_json()["code"] == "query_too_long"
    ok = app.test_client().get("/api/_test/renamed-search", query_string={"q": "moat"})
    assert ok.status_code == 200 and ok.get_json()["results"]


def test_limited_marks_the_registered_function_whichever_side_of_the_route_it_sits(built_index):
    from flask import Flask

    from app.web.limits import QUERY_CHARS, limited, limits_of

    app = Flask(__name__)

    @limited(query="q")
    @app.get("/above")
    def above():
        return ""

    @app.get("/below")
    @limited(body=QUERY_CHARS)
    def below():
        return ""

    assert limits_of(app.view_functions["above"]).query == "q"
    assert limits_of(app.view_functions["below"]).body is QUERY_CHARS
