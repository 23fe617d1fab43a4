"""Pages that broke (#33): Knights, version titles, doubled quotes; and "sources disagree" said out loud."""
from __future__ import annotations

import re

from app.web.words import quoted


def test_band_of_misfits_says_the_sources_disagree_beside_the_winning_ruling(client):
    page = client.get("/cards/band-of-misfits").get_data(as_text=True)
    ruling = page[page.index('id="r4"'):]
    ruling = ruling[:ruling.index("</li>")]
    assert "Sources disagree" in ruling and "non-Duration" in ruling and "may play a Duration" in ruling
    card = client.get("/api/cards/band-of-misfits").get_json()
    kinds = {d["kind"]: d for d in card["disagreements"]}
    assert kinds["card text"]["winner"] == "band-of-misfits#r4"
    assert "faq" in kinds                 # the superseded FAQ clarifications, beside the pre-2019 rulings


def test_the_complete_rules_against_themselves_is_said_beside_the_ruling_that_no_longer_holds(client):
    """Overlord 1 (pre-2019) plays an Overlord from the trash; Band of Misfits (pre-2019) 8, which applies to it,
    says that is no longer possible (the engine follows the later note: judge-empires-overlord-1)."""
    page = client.get("/cards/overlord").get_data(as_text=True)
    ruling = page[page.index('id="r1"'):]
    ruling = ruling[:ruling.index("</li>")]
    assert "Sources disagree" in ruling and "later note" in ruling and "lose track" in ruling
    rules = [d for d in client.get("/api/cards/overlord").get_json()["disagreements"] if d["kind"] == "rules"]
    assert [(d["other"], d["winner"]) for d in rules] == [("overlord#r1", "band-of-misfits-pre-2019#r8")]
    listed = [d for d in client.get("/api/disagreements").get_json()["disagreements"] if d["kind"] == "rules"]
    assert listed[0]["url"] == "/cards/overlord#r1"


def test_one_url_lists_every_disagreement(client):
    data = client.get("/api/disagreements").get_json()
    assert data["count"] == len(data["disagreements"]) >= 3
    assert {d["kind"] for d in data["disagreements"]} == {"faq", "german", "card text", "rules"}
    page = client.get("/disagreements").get_data(as_text=True)
    assert "Band of Misfits" in page and "Complete Rules win" in page
    for d in data["disagreements"]:
        assert client.get(d["url"].split("#")[0]).status_code == 200


def test_knights_is_the_pile_players_name(client):
    resp = client.get("/cards/knights")
    assert resp.status_code == 301 and resp.headers["Location"].endswith("/cards/knight")
    card = client.get("/api/cards/knights").get_json()
    assert card["slug"] == "knight" and card["set"] == "Dark Ages" and card["cost_coins"] == 5
    assert "Knight" in card["types"] and card["text"]


def test_versioned_rulings_are_titled_in_words(client):
    hits = client.get("/api/search?q=band+of+misfits+pre-2019+duration&limit=20").get_json()["results"]
    titles = [h["title"] for h in hits]
    assert not [t for t in titles if re.search(r"\[[a-z0-9-]+\]", t)], titles
    assert any("Band of Misfits (pre-2019)" in t for t in titles), titles


def test_quotes_are_never_doubled(client):
    assert quoted("“DO X TO”") == "“DO X TO”" and quoted("DO X TO") == "“DO X TO”"
    for url in ("/cards/remodel", "/cards/throne-room", "/rules/vi-do-x-to-do-x-for"):
        page = client.get(url, follow_redirects=True).get_data(as_text=True)
        assert "““" not in page and "””" not in page, url


def test_german_first_edition_is_shown_by_the_dividers_own_words(client, store):
    """The divider's words and the card's current words, both quoted: no disagreement is only inferred."""
    from app.corpus.card_facts import load_facts

    facts = load_facts()
    german = [d for d in client.get("/api/disagreements").get_json()["disagreements"] if d["kind"] == "german"]
    assert len(german) >= 15
    passages = {r["key"]: r["text"] for r in store.rows("select key, text from german_passages")}
    plain = lambda s: " ".join(s.split())  # noqa: E731
    for d in german:
        quotes = re.findall(r"“([^”]+)”", d["note"])
        assert len(quotes) == 2, d["note"]
        assert plain(quotes[0]) in plain(passages[d["other"]]), d
        assert plain(quotes[1]) in plain(facts[d["card"]].text), d
    # Mint: the divider trashes the Treasures when you buy it; the card now, when you gain it, non-Duration ones
    mint = client.get("/api/cards/mint").get_json()["disagreements"]
    assert any("kaufst" in d["note"] and "When you gain this" in d["note"] for d in mint)
    # the Procession erratum printed after Band of Misfits' divider is not a Band of Misfits disagreement
    assert not [d for d in german if d["card"] == "band-of-misfits" and "Errata" in passages[d["other"]]]
