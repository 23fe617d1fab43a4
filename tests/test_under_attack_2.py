"""Serving under attack, round two (issue 36): the red team's reproducers for the 500s and the setup errors.

Each test sends exactly what the report describes and asserts a 4xx naming what was wrong (or a
replay that stops with a clear message), no 500 and nothing logged at ERROR (no traceback).
"""
from __future__ import annotations

import base64
import html
import json
import zlib

import pytest

HEAD = 'title: t\nrulings: [{section: "Your turn"}]\n'


def _clean(caplog, resp, statuses, *words: str) -> str:
    text = html.unescape(resp.get_data(as_text=True))
    assert resp.status_code in statuses, (resp.status_code, text[:400])
    for w in words:
        assert w in text, (w, text[:600])
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")], caplog.text[-1500:]
    return text


def _post(client, body: str, ctype: str = "application/yaml"):
    return client.post("/api/replay", data=body.encode(), content_type=ctype)


# ------------------------------------------------------------------ Python's 4,300-digit limit
@pytest.mark.parametrize("step", ["buy_event", "call"])
def test_a_5000_digit_count_in_a_step_is_a_400(prod_client, caplog, step):
    body = HEAD + "players: [{name: Alice}, {name: Bob}]\nsupply: {}\nevents: [Alms]\n" \
        f'steps: [{{{step}: "Alms*{"9" * 5000}"}}]\n'
    text = _clean(caplog, _post(prod_client, body), (400,), step)
    assert len(text) < 1000                 # the 5,000 digits are not echoed back


def test_a_5000_digit_json_integer_is_a_400(prod_client, caplog):
    doc = {"title": "t", "rulings": [{"section": "Your turn"}], "players": [{"name": "A"}], "supply": {}, "steps": []}
    body = json.dumps(doc).replace('"supply": {}', '"supply": {"Copper": ' + "9" * 5000 + "}")
    _clean(caplog, _post(prod_client, body, "application/json"), (400,), "digits")


def test_a_5000_digit_hex_title_is_a_400_not_a_failure_while_formatting_the_error(prod_client, caplog):
    body = "title: 0x" + "f" * 5000 + '\nrulings: [{section: "Your turn"}]\nplayers: [{name: Alice}]\nsupply: {}\nsteps: []\n'
    text = _clean(caplog, _post(prod_client, body), (400,), "digits")
    assert "f" * 100 not in text


@pytest.mark.parametrize("field", ["players", "current"])
@pytest.mark.parametrize("op", ["setup", "add_player", "remove_player"])
def test_try_form_numbers_of_5000_digits_are_refused(prod_client, caplog, field, op):
    form = {"players": "2", "current": "1", "op": op, field: "9" * 5000}
    text = _clean(caplog, prod_client.post("/try", data=form), (200, 400))
    assert "9" * 100 not in text


# ------------------------------------------------------------------ file names over 255 bytes
@pytest.mark.parametrize("url", ["/try?scenario=" + "a" * 256, "/scenarios/" + "漢" * 100,
                                 "/api/scenarios/" + "漢" * 100, "/scenarios/" + "漢" * 100 + ".yaml",
                                 "/try?scenario=" + "漢" * 100])
def test_scenario_ids_over_255_bytes_are_a_404(prod_client, caplog, url):
    _clean(caplog, prod_client.get(url), (404,))


# ------------------------------------------------------------------ nesting
@pytest.mark.parametrize("carry", ["[" * 5000 + "]" * 5000, '{"steps": ' + "[" * 5000 + "]" * 5000 + "}",
                                   '{"extra": {"seed": ' + "9" * 5000 + "}}"])
def test_a_deep_or_huge_carry_field_in_the_sandbox_form_is_a_400(prod_client, caplog, carry):
    form = {"players": "2", "op": "setup", "p1_name": "Alice", "p2_name": "Bob", "kingdom": "Village", "carry": carry}
    _clean(caplog, prod_client.post("/try", data=form), (400,), "hidden setup is damaged")


def test_venture_revealing_venture_300_deep_stops_at_a_stated_bound(prod_client, caplog):
    from app.engine.core.activities import MAX_PLAY_DEPTH

    body = HEAD + 'players: [{name: Alice, hand: [Venture], deck: ["Venture*300"]}, {name: Bob}]\n' \
        "supply: {}\nsteps: [{play: Venture}]\n"
    resp = _post(prod_client, body)
    _clean(caplog, resp, (200,))
    out = resp.get_json()
    assert out["ok"] is False and f"{MAX_PLAY_DEPTH} nested plays" in out["error"]["message"]
    assert out["error"]["step"] == 1
    # a chain inside the bound still replays in full
    short = HEAD + 'players: [{name: Alice, hand: [Venture], deck: ["Venture*20", Copper]}, {name: Bob}]\n' \
        "supply: {}\nsteps: [{play: Venture}]\nexpect: {Alice: {in_play: [\"Venture*21\", Copper]}}\n"
    done = _post(prod_client, short).get_json()
    assert done["ok"] is True, done["error"] or done["failures"]


# ------------------------------------------------------------------ setup errors are bad input
@pytest.mark.parametrize("key", ["token_piles: {'+1 Card': Nope}", "estate_token: Nope"])
def test_a_refused_setup_value_answers_400_naming_the_key(prod_client, caplog, key):
    body = HEAD + f"players:\n  - name: Alice\n    {key}\n  - name: Bob\nsupply: {{Village: 10}}\nsteps: []\n"
    resp = _post(prod_client, body)
    _clean(caplog, resp, (400,), key.split(":")[0], "Nope")
    assert resp.get_json()["code"] == "bad_scenario" and resp.get_json()["line"] == 5


# ------------------------------------------------------------------ echoes
def test_error_messages_quote_at_most_a_short_excerpt_of_the_input(prod_client, caplog):
    long = "Q" * 3000
    for body in (HEAD + f"players: [{{name: Alice, hand: [{long}]}}]\nsupply: {{}}\nsteps: []\n",
                 HEAD + f"players: [{{name: Alice}}]\nsupply: {{}}\nsteps: [{{buy_event: {long}}}]\n",
                 HEAD + f"players: [{{name: Alice}}]\nsupply: {{}}\nsteps: []\n{long}: 1\n"):
        text = _clean(caplog, _post(prod_client, body), (400,))
        assert "Q" * 200 not in text and len(text) < 1500, text[:300]
    resp = prod_client.get("/api/search", query_string={"q": "x", "limit": "7" * 3000})
    assert resp.status_code == 400 and "7" * 200 not in resp.get_data(as_text=True)
    token = base64.urlsafe_b64encode(zlib.compress(b"[" * 3000, 9)).decode()
    assert prod_client.get("/try", query_string={"s": token}).status_code == 400


# ------------------------------------------------------------------ fair replays
def test_a_small_replay_gets_through_while_heavy_ones_hold_every_general_slot(built_index, tmp_path,
                                                                              hold_replay_slots):
    """Another worker holds the only general slot (a flooder's heavy replay): a corpus-sized or sandbox
    replay still runs (the slot kept for small replays), a heavy one is told to wait (503)."""
    from pathlib import Path

    from app import create_app
    from bench.heavy_scenario import heavy_scenario

    root = Path(__file__).resolve().parent.parent
    small = (root / "corpus" / "scenarios" / "adventurer-digs-through-shuffle.yaml").read_bytes()
    app = create_app({"DB_PATH": str(built_index / "rules.db"), "RUN_DIR": str(tmp_path / "run"), "REPLAY_SLOTS": 1})
    client = app.test_client()
    hold_replay_slots(tmp_path / "run" / "replay-slot-0.lock")
    for _ in range(3):       # the small slot is released after each request
        assert client.post("/api/replay", data=small, content_type="application/yaml").status_code == 200
    token = base64.urlsafe_b64encode(zlib.compress(json.dumps({
        "title": "t", "rulings": [{"section": "Your turn"}], "supply": {"Village": 10},
        "players": [{"name": "Alice", "hand": ["Village"]}, {"name": "Bob"}], "steps": []}).encode(), 9)
    ).decode().rstrip("=")
    assert client.get("/try", query_string={"s": token}).status_code == 200
    heavy = client.post("/api/replay", data=heavy_scenario(), content_type="application/yaml")
    assert heavy.status_code == 503 and heavy.get_json()["code"] == "replays_busy"
    assert int(heavy.headers["Retry-After"]) >= 1


# ------------------------------------------------------------------ the answer's size
def test_a_small_scenario_cannot_make_an_answer_of_megabytes(prod_client):
    """The report's 4.6 KB scenario answered 13.7 MB: the per-step tables are bounded, the final one is whole."""
    from app.web.replay import ANSWER_ZONE_CARDS
    from bench.heavy_scenario import heavy_scenario

    resp = prod_client.post("/api/replay", data=heavy_scenario(), content_type="application/yaml")
    assert resp.status_code == 200
    assert len(resp.get_data()) < 2_000_000, len(resp.get_data())
    out = resp.get_json()
    assert out["steps"][0]["zones"]["players"]["Alice"]["hand"]          # the first steps keep their tables
    assert out["steps"][-1]["zones"]["omitted"] is True and str(ANSWER_ZONE_CARDS) in out["steps"][-1]["zones"]["why"]
    assert sum(len(v) for p in out["final"]["players"].values() for k, v in p.items() if isinstance(v, list)) == 1610


# ------------------------------------------------------------------ the forwarded address
def test_x_forwarded_for_is_believed_only_from_the_front(built_index, tmp_path):
    """Behind nginx the budget is kept by the address nginx saw; a peer that is not the front cannot name one."""
    from flask import request

    from app import create_app

    app = create_app({"DB_PATH": str(built_index / "rules.db"), "BEHIND_PROXY": True, "RUN_DIR": str(tmp_path)})
    seen = []
    app.before_request(lambda: seen.append(request.remote_addr))
    client = app.test_client()
    client.get("/healthz", headers={"X-Forwarded-For": "198.51.100.1"}, environ_base={"REMOTE_ADDR": "203.0.113.9"})
    client.get("/healthz", headers={"X-Forwarded-For": "1.2.3.4, 198.51.100.2"},
               environ_base={"REMOTE_ADDR": "127.0.0.1"})
    assert seen == ["203.0.113.9", "198.51.100.2"]


# ------------------------------------------------------------------ warm from the first request
def test_a_worker_warms_up_search_and_pages_before_its_first_request(built_index, monkeypatch):
    """gunicorn's post_worker_init hook opens the search index and renders the first pages (issue 36, 6)."""
    from app import create_app
    from app.search import query as query_mod
    from app.web import gunicorn_hooks, prod

    argv = prod.gunicorn_argv("127.0.0.1", 8000)
    assert argv[argv.index("--config") + 1] == "python:app.web.gunicorn_hooks" and "--preload" in argv
    monkeypatch.setattr(query_mod, "_ENGINES", query_mod.EngineCache())     # as in a new worker
    app = create_app({"DB_PATH": str(built_index / "rules.db"), "WARM_START": True})
    ticks = []

    class Worker:
        wsgi = app
        notify = staticmethod(lambda: ticks.append(1))

    gunicorn_hooks.post_worker_init(Worker())
    assert str(app.extensions["rulings"].generation().services.store.search_dir) in query_mod._ENGINES.keys()
    assert len(ticks) >= 2                      # the worker told gunicorn it is alive while warming


def test_a_405_from_the_app_says_which_methods_are_allowed(prod_client):
    for url in ("/api/cards", "/cards/village"):
        resp = prod_client.open(url, method="PUT")
        assert resp.status_code == 405 and "GET" in resp.headers["Allow"], (url, dict(resp.headers))
