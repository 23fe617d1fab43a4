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
