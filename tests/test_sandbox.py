"""The sandbox at /try: players, zones, Supply, versions, whose turn, rulings, files in and out.

Every game here is played through the web forms and then checked against the
engine itself (the downloaded file replayed by ``rulings replay``), so the
sandbox can never show a game the engine would not play.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
import yaml

from app.engine import scenario as sc_mod
from app.web import sandbox
from tests.definition_text import CODE_WORDS_OR_PRINTED, cards_in, unplain_lines

ROOT = Path(__file__).resolve().parent.parent


def _token(resp) -> str:
    assert resp.status_code == 303, resp.get_data(as_text=True)[:400]
    return parse_qs(urlparse(resp.headers["Location"]).query)["s"][0]


def _setup(client, **fields) -> str:
    return _token(client.post("/try", data={"op": "setup", **fields}))


def _post(client, tok: str, **fields) -> str:
    return _token(client.post("/try", data={"s": tok, **fields}))


def _replay_yaml(text: str):
    return sc_mod.replay(sc_mod.loads(text, "downloaded"))


THREE = {"players": "3", "kingdom": "Militia, Moat, Witch",
         "p1_name": "Alice", "p1_hand": "Militia, Copper*4", "p1_deck": "Silver*5",
         "p2_name": "Bob", "p2_hand": "Moat, Copper*4", "p2_deck": "Estate*5",
         "p3_name": "Carol", "p3_hand": "Copper*3, Estate*2", "p3_deck": "Gold*5"}


def test_three_players_militia_moat_reveal_downloads_a_file_the_engine_replays(client, store):
    # the cited ruling is a real Moat ruling of the Card Reference (read from the built store)
    moat = store.rows("select number from rulings where card='moat' and kind='ruling' and version is null")
    number = max(r["number"] for r in moat)
    tok = _setup(client, **THREE, rulings=f"Moat {number}")
    tok = _post(client, tok, op="play", card="Militia")
    html = client.get(f"/try?s={tok}").get_data(as_text=True)
    assert "Bob:" in html and 'value="Moat"' in html and 'value="none"' in html   # one tap: reveal or not
    tok = _post(client, tok, op="answer", kind="cards", answer="Moat")
    html = client.get(f"/try?s={tok}").get_data(as_text=True)
    now = html[html.index('id="now"'):]
    # Carol discards 2 of 5: several cards at once, so checkboxes and one Answer button
    assert "Carol: discard down to 3 cards in hand" in now and now.count('type="checkbox"') == 5
    resp = client.post("/try", data={"s": tok, "op": "answer", "kind": "cards", "answer": ["Estate", "Estate"]})
    tok = _token(resp)
    text = client.get(f"/try/scenario.yaml?s={tok}").get_data(as_text=True)
    data = yaml.safe_load(text)
    assert data["rulings"] == [{"card": "Moat", "ruling": number}]
    assert [p["name"] for p in data["players"]] == ["Alice", "Bob", "Carol"]
    rp = _replay_yaml(text)
    assert rp.ok and rp.error is None and rp.needed is None
    final = sc_mod.snapshot(rp.game)["players"]
    assert len(final["Bob"]["hand"]) == 5, "Moat made Bob unaffected"
    assert sorted(final["Carol"]["hand"]) == ["Copper"] * 3
    assert sorted(final["Carol"]["discard"]) == ["Estate", "Estate"]


def test_downloaded_file_passes_rulings_replay(client, tmp_path):
    tok = _setup(client, **THREE)
    tok = _post(client, tok, op="play_treasures")
    tok = _post(client, tok, op="buy", card="Silver")
    tok = _post(client, tok, op="end_turn")
    path = tmp_path / "game.yaml"
    path.write_text(client.get(f"/try/scenario.yaml?s={tok}").get_data(as_text=True), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "app.cli", "replay", str(path)], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Bob" in run.stdout   # Bob's turn started


def test_players_can_be_added_up_to_six_and_removed_down_to_one(client):
    form = dict(THREE)
    for n in (4, 5, 6):
        r = client.post("/try", data={**form, "op": "add_player"})
        assert r.status_code == 200 and f'name="p{n}_name"' in r.get_data(as_text=True)
        form["players"] = str(n)
    r = client.post("/try", data={**form, "op": "add_player"})
    assert r.status_code == 400 and "at most 6 players" in r.get_data(as_text=True)
    tok = _setup(client, **form)
    state = sandbox.decode(tok)
    assert [p["name"] for p in state["players"]] == ["Alice", "Bob", "Carol", "Dave", "Eve", "Frank"]
    outcome, err = sandbox.run(state)
    assert err is None and outcome.legal["player"] == "Alice"
    one = {"players": "1", "kingdom": "Village", "p1_name": "Solo", "p1_hand": "Village"}
    r = client.post("/try", data={**one, "op": "remove_player"})
    assert r.status_code == 400 and "at least 1 player" in r.get_data(as_text=True)
    tok = _setup(client, **one)
    tok = _post(client, tok, op="play", card="Village")
    outcome, _ = sandbox.run(sandbox.decode(tok))
    assert outcome.error is None and outcome.legal["actions"] == 2


def test_discard_in_play_current_player_and_pile_sizes_reach_the_engine(client):
    tok = _setup(client, **{**THREE, "p2_hand": "Witch, Copper*4", "p2_discard": "Gold*2",
                            "p2_in_play": "Silver", "current": "2", "piles": "Curse=1"})
    state = sandbox.decode(tok)
    assert state["current"] == "Bob" and state["supply"]["Curse"] == 1
    outcome, _ = sandbox.run(state)
    assert outcome.legal["player"] == "Bob"
    assert outcome.final["players"]["Bob"]["discard"] == ["Gold", "Gold"]
    assert outcome.final["players"]["Bob"]["in_play"] == ["Silver"]
    tok = _post(client, tok, op="play", card="Witch")
    outcome, _ = sandbox.run(sandbox.decode(tok))
    if outcome.question:   # Alice/Carol have no Moat in hand here, so nobody should be asked
        pytest.fail(f"unexpected question {outcome.question}")
    players = outcome.final["players"]
    curses = {n: players[n]["discard"].count("Curse") for n in ("Alice", "Carol")}
    assert curses == {"Carol": 1, "Alice": 0}, "one Curse left: the next player in turn order (Carol) gains it"
    assert outcome.final["supply"]["Curse"] == 0


def test_card_version_choice_changes_what_is_legal(client):
    base = {"players": "1", "kingdom": "Throne Room", "p1_name": "Ann", "p1_hand": "Throne Room, Copper"}
    choices = {v["card"]: v for v in sandbox.version_options()}
    assert "Throne Room" in choices and len(choices["Throne Room"]["versions"]) > 1
    for v in choices["Throne Room"]["versions"]:
        tok = _setup(client, **base, **{"version:Throne Room": v["id"]})
        assert sandbox.decode(tok)["versions"] == {"Throne Room": v["id"]}
        tok = _post(client, tok, op="play", card="Throne Room")
        outcome, _ = sandbox.run(sandbox.decode(tok))
        # no Action in hand: either version has nothing to play, and the replay does not stop
        assert outcome.error is None and outcome.question is None
    r = client.post("/try", data={"op": "setup", **base, "version:Throne Room": "9"})
    assert r.status_code == 400 and "Throne Room has versions" in r.get_data(as_text=True)


def test_single_choice_is_one_tap_and_optional_one_offers_none(client):
    tok = _setup(client, **{"players": "1", "kingdom": "Throne Room, Village", "p1_name": "Ann",
                            "p1_hand": "Throne Room, Village, Copper", "version:Throne Room": "2"})
    tok = _post(client, tok, op="play", card="Throne Room")
    html = client.get(f"/try?s={tok}").get_data(as_text=True)
    now = html[html.index('id="now"'):]
    assert '<button name="answer" value="Village">' in now and 'value="none"' in now
    assert 'type="checkbox"' not in now
    tok = _post(client, tok, op="answer", kind="cards", answer="none")
    outcome, _ = sandbox.run(sandbox.decode(tok))
    assert outcome.question is None and outcome.legal["actions"] == 0


def test_rulings_are_checked_against_the_card_reference_and_can_change_mid_game(client, store):
    r = client.post("/try", data={"op": "setup", **THREE, "rulings": "Moat 99"})
    assert r.status_code == 400 and "Moat has no ruling 99" in r.get_data(as_text=True)
    r = client.post("/try", data={"op": "setup", **THREE, "rulings": "Moot 1"})
    assert r.status_code == 400 and "Moat" in r.get_data(as_text=True)
    tok = _setup(client, **THREE)
    assert sandbox.decode(tok)["rulings"] == [sandbox.PLACEHOLDER_RULING]
    first = store.rows("select number from rulings where card='militia' and kind='ruling' and version is null")
    n = min(x["number"] for x in first)
    tok = _post(client, tok, op="rulings", rulings=f"Militia {n}, Moat")
    text = client.get(f"/try/scenario.yaml?s={tok}").get_data(as_text=True)
    assert yaml.safe_load(text)["rulings"] == [{"card": "Militia", "ruling": n}, {"card": "Moat"}]
    assert _replay_yaml(text).ok


def test_a_scenario_file_pasted_or_uploaded_continues_in_the_sandbox(client):
    path = ROOT / "corpus" / "scenarios" / "throne-room-feast.yaml"
    text = path.read_text(encoding="utf-8")
    expected = sc_mod.replay(sc_mod.load(path))
    for data in ({"op": "load", "scenario": text},
                 {"op": "load", "file": (path.open("rb"), "throne-room-feast.yaml")}):
        tok = _token(client.post("/try", data=data, content_type="multipart/form-data"))
        state = sandbox.decode(tok)
        assert "expect" not in state
        outcome, err = sandbox.run(state)
        assert err is None and outcome.error is None
        assert [e["text"] for e in outcome.log] == [e.text for e in expected.log.entries]
    # and play goes on from there
    tok = _post(client, tok, op="end_turn")
    outcome, _ = sandbox.run(sandbox.decode(tok))
    assert outcome.error is None and outcome.legal["player"] != expected.game.current.name


def test_bad_scenario_file_is_reported_with_its_line(client):
    r = client.post("/try", data={"op": "load", "scenario": "title: x\nrulings: []\nplayers: []\n"})
    body = r.get_data(as_text=True)
    assert r.status_code == 400 and "scenario file:" in body and "line" in body
    r = client.post("/try", data={"op": "load", "scenario": ""})
    assert r.status_code == 400 and "paste a scenario" in r.get_data(as_text=True)


def test_links_stay_short_and_damaged_links_are_rejected(client):
    form = dict(THREE)
    for n in (4, 5, 6):
        form[f"p{n}_name"], form[f"p{n}_hand"], form[f"p{n}_deck"] = f"P{n}", "Copper*5", "Estate*3, Copper*7"
    form["players"] = "6"
    tok = _setup(client, **form)
    for _ in range(6):   # a round of turns for all six players
        tok = _post(client, tok, op="play_treasures")
        tok = _post(client, tok, op="end_turn")
    assert len(sandbox.decode(tok)["steps"]) == 12
    assert len(tok) < 1200, len(tok)
    assert client.get("/try?s=" + tok[:-8] + "AAAAAAAA").status_code == 400
    with pytest.raises(sandbox.SandboxError, match="does not hold a game"):
        sandbox.decode(sandbox.encode({"players": [], "steps": ["x"]}))


# ------------------------------------------------------------------ "How the engine plays it" in words
SETS = {"Base", "Intrigue", "Seaside", "Prosperity"}


def _said(card: str) -> dict[str, list[str]]:
    from app.web.definition_words import definition_words

    return {v["version"]: [x["text"] for x in v["lines"]] for v in definition_words(card)}


def test_every_base_intrigue_seaside_prosperity_definition_reads_as_plain_steps():
    """Like every later set, no "As printed" fallback either (Watchtower's draw was the last one)."""
    cards = cards_in(SETS.__contains__)
    assert len(cards) > 100
    bad = unplain_lines(cards, CODE_WORDS_OR_PRINTED)
    assert not bad, bad


def test_definition_words_follow_the_effect_data():
    """Amounts and wording come from the effect objects: '+N Cards' from Draw(n), 'discards down to N' ..."""
    from app.engine.core.registry import _DEFS
    from app.engine.core.effects import Draw, PlusActions

    for card in ("Village", "Smithy", "Laboratory", "Festival"):
        d = _DEFS[card][""]
        effects = d.play.effects if hasattr(d.play, "effects") else (d.play,)
        said = _said(card)["current"]
        for e in effects:
            if isinstance(e, Draw):
                assert (f"+{e.n} Card" if e.n == 1 else f"+{e.n} Cards") in said
            if isinstance(e, PlusActions):
                assert (f"+{e.n} Action" if e.n == 1 else f"+{e.n} Actions") in said
    assert "Each other player discards down to 3 cards in hand" in _said("Militia")["current"]
    assert "Each other player gains a Curse" in _said("Witch")["current"]
    assert "Each other player draws a card" in _said("Council Room")["current"]
    mine = _said("Mine")
    assert any(t.startswith("You may trash a Treasure from your hand; if you did, gain a Treasure")
               and t.endswith("to your hand") for t in mine["2"])
    assert not any(t.startswith("You may") for t in mine["1"]), "first-edition Mine is not optional"
    assert "You may play an Action card from your hand twice" in _said("Throne Room")["2"]
    assert "Play an Action card from your hand twice" in _said("Throne Room")["1"]


def test_computed_amounts_quote_the_printed_card():
    """Cellar's and Bank's amounts are computed in code; their phrase is the printed sentence (card facts)."""
    from app.corpus.card_facts import facts_for

    for card in ("Cellar", "Bank", "Gardens"):
        printed = facts_for(card).text
        assert any(t in printed for t in _said(card)["current"] if "per" in t), (card, _said(card))


def test_card_page_shows_the_definition_in_words(client):
    html = client.get("/cards/militia").get_data(as_text=True)
    assert "Each other player discards down to 3 cards in hand" in html
    assert "card-specific rule" not in client.get("/cards/bandit").get_data(as_text=True)


def test_a_link_that_decodes_to_deeply_nested_json_is_refused_clearly(client):
    import base64
    import zlib

    token = base64.urlsafe_b64encode(zlib.compress(b"[" * 100_000 + b"]" * 100_000)).decode().rstrip("=")
    for url in (f"/try?s={token}", f"/try/scenario.yaml?s={token}"):
        resp = client.get(url)
        assert 400 <= resp.status_code < 500, (url, resp.status_code)
        assert b"damaged" in resp.data or b"too long" in resp.data


def test_a_new_table_starts_empty_and_a_suggested_table_holds_its_cards():
    """Issue #35: "Try" opens on no unrelated example; the table for Knights has a Knight, for Sir Martin the
    Knights pile (a pile of differently named cards is bought as its pile and played as one of its cards)."""
    form = sandbox.default_form()
    assert not any(form[k] for k in ("kingdom", "p1_hand", "p1_deck", "p2_hand", "p2_deck"))
    knights = sandbox.dispute_form(["Knights", "Moat"])
    first = knights["p1_hand"].split(",")[0]
    assert "Knights" in knights["kingdom"] and first.startswith(("Sir ", "Dame ")), knights
    martin = sandbox.dispute_form(["Sir Martin", "Watchtower"])
    assert martin["kingdom"].startswith("Knights") and martin["p1_hand"].startswith("Sir Martin"), martin
    outcome, problem = sandbox.run(sandbox.from_setup_form(knights))
    assert problem is None and first in outcome.legal["play"]
