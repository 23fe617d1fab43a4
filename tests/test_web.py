"""The pages, as a player uses them: every link on a card page leads somewhere real, rules are
reachable by anchor, bad addresses get a helpful 404, corpus text cannot inject markup.

All against the real documents through the session build (tests/conftest.py).
"""
from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import parse_qs, urlparse

import pytest

from app.corpus.card_facts import facts_for
from app.web.render import Renderer



class _Links(HTMLParser):
    """Collects hrefs and element ids of a page."""

    def __init__(self):
        super().__init__()
        self.hrefs: list[str] = []
        self.ids: set[str] = set()
        self.scripts: list[dict] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "a" and a.get("href"):
            self.hrefs.append(a["href"])
        if tag == "script":
            self.scripts.append(a)


def parse(html: bytes | str) -> _Links:
    p = _Links()
    p.feed(html.decode() if isinstance(html, bytes) else html)
    return p


def _get_page(client, url: str, cache: dict):
    path = url.split("#", 1)[0]
    if path not in cache:
        r = client.get(path, follow_redirects=True)
        cache[path] = (r.status_code, parse(r.data) if r.status_code == 200 else None)
    return cache[path]


# ------------------------------------------------------------------ card pages
def test_card_page_shows_facts_rulings_and_german_name(client, store):
    card = store.card_detail("feast")
    facts = facts_for("Feast")
    r = client.get("/cards/feast")
    assert r.status_code == 200
    html = r.data.decode()
    page = parse(html)
    assert f"${facts.cost_coins}" in html
    assert facts.set in html
    assert card["german_name"] and card["german_name"] in html
    for ruling in card["rulings"]:
        assert ruling["anchor"] in page.ids, f"ruling {ruling['key']} has no anchor on the page"
        assert f'href="#{ruling["anchor"]}"' in html


def test_previous_versions_faq_and_backlinks_on_a_card_page(client, store):
    version = store.row("select card from previous_versions order by ord limit 1")
    detail = store.card_detail(version["card"])
    page = parse(client.get(f"/cards/{version['card']}").data)
    for v in detail["previous_versions"]:
        assert v["slug"] in page.ids
    faq_card = store.row("select card from faq_clarifications where card is not null limit 1")["card"]
    faq_detail = store.card_detail(faq_card)
    faq_page = parse(client.get(f"/cards/{faq_card}").data)
    assert {f"faq-c{f['ord']}" for f in faq_detail["faq"]} <= faq_page.ids
    target = store.row("select substr(target_key, 1, instr(target_key || '#', '#') - 1) as card from refs "
                       "where resolved and target_type in ('card', 'ruling') group by card "
                       "order by count(*) desc limit 1")["card"]
    referred = client.get(f"/api/cards/{target}").get_json()["referred_by"]
    html = client.get(f"/cards/{target}").data.decode()
    assert referred and all(f'href="{r["url"]}"' in html for r in referred)
    # each back-link is named as a player names it ("Citadel 1"), never by its internal key ("citadel#r1")
    shown = html.split('id="referred-by"', 1)[1]
    assert all(r["label"] in shown.replace("&#39;", "'").replace("&amp;", "&") for r in referred)
    assert not any(f'>{r["source_key"]}<' in shown for r in referred)


def test_card_page_shows_definition_and_scenarios(client):
    html = client.get("/cards/throne-room").data.decode()
    assert 'id="definition"' in html
    assert "/scenarios/throne-room-feast" in html


def test_unknown_card_is_404_with_nearest_names(client):
    r = client.get("/cards/thorne-room")
    assert r.status_code == 404
    assert 'href="/cards/throne-room"' in r.data.decode()


def test_card_url_with_spaces_redirects_to_the_slug(client):
    r = client.get("/cards/Throne Room")
    assert r.status_code == 301 and r.headers["Location"].endswith("/cards/throne-room")


# ------------------------------------------------------------------ rules
def test_section_page_has_breadcrumbs_and_paragraph_anchors(client, store):
    sub = store.row("select * from sections where doc='rules' and kind='subsection' "
                    "and slug in (select section from paragraphs) order by ord limit 1")
    ancestors = store.breadcrumbs(sub)
    r = client.get(f"/rules/{sub['slug']}")
    assert r.status_code == 200
    page = parse(r.data)
    for a in ancestors:
        assert f"/rules/{a['slug']}" in page.hrefs
    paras = store.rows("select anchor from paragraphs where section=?", (sub["slug"],))
    assert paras and {p["anchor"] for p in paras} <= page.ids


def test_every_rules_section_and_common_effect_is_reachable_from_the_toc(client, store):
    toc = parse(client.get("/rules").data)
    slugs = {r["slug"] for r in store.rows("select slug from sections where doc='rules' and kind != 'timing'")}
    linked = {h.rsplit("/", 1)[1] for h in toc.hrefs if h.startswith("/rules/")}
    assert slugs - linked == set()


def test_index_of_terms_lists_every_term_with_an_anchor(client, store):
    page = parse(client.get("/rules/index", follow_redirects=True).data)
    terms = {t["slug"] for t in store.index_terms()}
    assert len(terms) > 100 and terms <= page.ids


def test_page_number_goes_to_the_section_printed_on_it(client, store):
    r = client.get("/rules/page/18")
    assert r.status_code == 302
    slug = r.headers["Location"].rsplit("/", 1)[1]
    sec = store.row("select page, page_end from sections where slug=?", (slug,))
    assert sec["page"] <= 18 <= (sec["page_end"] or sec["page"])


def test_faq_and_rulebook_pages(client, store):
    faq = client.get("/faq").data.decode()
    for c in store.faq_for_card_names():
        assert c["card_name"] in faq
    book = parse(client.get("/adventures").data)
    assert {b["slug"] for b in store.rulebook_cards()} <= book.ids


def test_search_links_land_on_real_pages(client):
    """The search engine builds its own URLs; every one of them must open."""
    data = client.get("/api/search?q=throne+room+feast&limit=20").get_json()
    cache: dict = {}
    for item in data["results"]:
        status, page = _get_page(client, item["url"], cache)
        assert status == 200, item["url"]
        if "#" in item["url"]:
            assert item["url"].split("#", 1)[1] in page.ids, item["url"]


def test_search_page_works_without_javascript(client):
    html = client.get("/search?q=trone+room").data.decode()
    first = re.search(r'<section class="group">\s*<h2><a href="([^"]+)"', html)
    assert first and first.group(1) == "/cards/throne-room"


@pytest.mark.parametrize("q,card", [("throne", "/cards/throne-room"), ("Tormen", "/cards/tormentor"),
                                    ("village", None), ("court", None), ("throne room feast", None)])
def test_a_query_that_starts_one_cards_name_offers_that_card(client, q, card):
    """Submitted "throne" (the typeahead closes on submit): the card is one tap away above the results.
    Not when search already recognised a card (village, throne room feast) or several names start so (court)."""
    html = client.get("/search", query_string={"q": q}).data.decode()
    hint = re.search(r'<p class="cardhint">Looking for the card <a href="([^"]+)">', html)
    assert (hint.group(1) if hint else None) == card


# ------------------------------------------------------------------ rendering is safe
@pytest.mark.parametrize("hostile", [
    "<script>alert(1)</script>Feast",
    '<img src=x onerror="alert(1)">',
    "[click](javascript:alert(1))",
    '<a href="javascript:alert(1)">x</a>',
    "<iframe src=//evil></iframe>",
    '<p style="position:fixed" onclick="x()">Village</p>',
])
def test_rendered_corpus_text_cannot_inject_markup(hostile):
    out = Renderer([("feast", "Feast"), ("village", "Village")]).html(hostile)
    low = out.lower()
    assert "<script" not in low and "onerror" not in low and "javascript:" not in low
    assert "<iframe" not in low and "onclick" not in low and "style=" not in low


def test_card_names_link_but_not_inside_existing_links():
    r = Renderer([("throne-room", "Throne Room"), ("village", "Village"), ("village-green", "Village Green")])
    out = r.html("Village Green and Village; [Throne Room 2](#)",
                 [{"text": "Throne Room 2", "target_type": "ruling", "target_key": "throne-room#r2", "resolved": 1}])
    assert '<a class="card-link" href="/cards/village-green">Village Green</a>' in out
    assert '<a class="card-link" href="/cards/village">Village</a>' in out
    assert '<a href="/cards/throne-room#r2">Throne Room 2</a>' in out
    assert out.count("<a ") == 3


def test_references_printed_as_plain_text_are_linked_where_they_stand():
    r = Renderer([])
    refs = [{"text": "GAIN ON WHEN-GAIN", "target_type": "section", "target_key": "vi-gain-on-when-gain",
             "resolved": 1},
            {"text": "Nowhere 9", "target_type": None, "target_key": None, "resolved": 0}]
    body, leftover = r.render("1 You gain it. See **GAIN ON WHEN-GAIN**.", refs)
    assert '<a href="/rules/vi-gain-on-when-gain">GAIN ON WHEN-GAIN</a>' in body
    assert leftover == []            # placed inline; the unresolved one is never offered as a link


def test_pages_only_load_our_own_script(client):
    for url in ("/", "/cards/feast", "/rules/ii-your-turn", "/scenarios/throne-room-feast", "/try"):
        page = parse(client.get(url).data)
        assert [s.get("src") for s in page.scripts] == ["/static/site.js"], url


# ------------------------------------------------------------------ scenarios
def test_scenario_page_shows_each_step_with_citations_and_zones(client):
    from app.web import replay as rp

    outcome = rp.replay(rp.load_id("throne-room-feast"))
    html = client.get("/scenarios/throne-room-feast").data.decode()
    for entry in outcome.log:
        assert entry["text"].replace("'", "&#39;") in html
    for st in outcome.steps:
        assert f'id="step-{st["index"]}"' in html
    page = parse(html)
    cites = [h for h in page.hrefs if h.startswith(("/cards/", "/rules/"))]
    assert any(h.startswith("/cards/feast#r") for h in cites)
    cache: dict = {}
    for h in cites:
        status, target = _get_page(client, h, cache)
        assert status == 200, h
        if "#" in h:
            assert h.split("#", 1)[1] in target.ids, h


def test_unknown_scenario_is_404(client):
    assert client.get("/scenarios/no-such-scenario").status_code == 404


# ------------------------------------------------------------------ sandbox
def _token(resp) -> str:
    assert resp.status_code == 303, resp.data[:300]
    return parse_qs(urlparse(resp.headers["Location"]).query)["s"][0]


def test_sandbox_plays_throne_room_feast_and_the_link_reproduces_it(client):
    tok = _token(client.post("/try", data={
        "op": "setup", "kingdom": "Throne Room, Feast, Laboratory",
        "p1_name": "Alice", "p1_hand": "Throne Room, Feast, Copper*3", "p1_deck": "Silver*5",
        "p2_name": "Bob", "p2_hand": "Copper*5", "p2_deck": ""}))
    tok = _token(client.post("/try", data={"op": "play", "card": "Throne Room", "s": tok}))
    html = client.get(f"/try?s={tok}").data.decode()
    assert "choose an Action card to play 2 times" in html and 'value="Feast"' in html
    tok = _token(client.post("/try", data={"op": "answer", "kind": "cards", "answer": "Feast", "s": tok}))
    html = client.get(f"/try?s={tok}").data.decode()
    assert "gain a card costing up to $5" in html
    for gain in ("Laboratory", "Silver"):
        tok = _token(client.post("/try", data={"op": "answer", "kind": "cards", "answer": gain, "s": tok}))
    yaml_text = client.get(f"/try/scenario.yaml?s={tok}").data.decode()
    replayed = client.post("/api/replay", data=yaml_text, content_type="application/yaml").get_json()
    assert replayed["error"] is None and replayed["question"] is None
    assert replayed["final"]["trash"] == ["Feast"]
    assert sorted(replayed["final"]["players"]["Alice"]["discard"]) == ["Laboratory", "Silver"]
    # the shared link shows the same state again
    again = client.get(f"/try?s={tok}").data.decode()
    assert "Alice gains Laboratory" in again and "Alice gains Silver" in again


def test_sandbox_rejects_unknown_cards_and_damaged_links(client):
    r = client.post("/try", data={"op": "setup", "kingdom": "Thron Room", "p1_name": "A", "p1_hand": "",
                                  "p1_deck": "", "p2_name": "B", "p2_hand": "", "p2_deck": ""})
    assert r.status_code == 400 and "Throne Room" in r.data.decode()
    assert client.get("/try?s=not-a-game").status_code == 400


def test_sandbox_illegal_answer_is_shown_with_legal_options(client):
    tok = _token(client.post("/try", data={
        "op": "setup", "kingdom": "Throne Room, Village", "p1_name": "Alice", "p1_hand": "Throne Room, Village",
        "p1_deck": "", "p2_name": "Bob", "p2_hand": "", "p2_deck": ""}))
    tok = _token(client.post("/try", data={"op": "play", "card": "Throne Room", "s": tok}))
    tok = _token(client.post("/try", data={"op": "answer", "kind": "cards", "answer": "Gold", "s": tok}))
    html = client.get(f"/try?s={tok}").data.decode()
    assert "is not available" in html and "legal: Village" in html


def test_scenarios_stand_beside_the_rulings_they_demonstrate(client):
    html = client.get("/cards/hoard").get_data(as_text=True)
    # The current Hoard's ruling 1 and the pre-2022 Hoard's ruling 4 each link their own scenario
    # (folded under "shown in N scenarios", inside the ruling's own item).
    r1 = html.split('id="r1"', 1)[1].split('<li id=', 1)[0]
    assert "/scenarios/prosperity-hoard-buying-victory-card" in r1
    r4 = html.split('id="hoard-pre-2022-r4"', 1)[1].split('<li id=', 1)[0]
    assert "<summary>shown in 2 scenarios</summary>" in r4
    assert "/scenarios/prosperity-hoard-pre-2022-while-in-play" in r4
    assert "/scenarios/prosperity-hoard-pre-2022-while-in-play" not in r1


def test_previous_version_rulings_have_their_own_anchors(client):
    """Band of Misfits' pre-2019 rulings restart at 1: their anchors must not clash with the current ones."""
    import re
    html = client.get("/cards/band-of-misfits").get_data(as_text=True)
    ids = re.findall(r'id="([^"]+)"', html)
    assert len(ids) == len(set(ids))
    assert 'id="r1"' in html and 'id="band-of-misfits-pre-2019-r1"' in html


def test_folded_paragraphs_stay_reachable_from_a_result(client):
    """Search folds a section's other paragraphs into one result; the page links them as 'Also:'."""
    html = client.get("/?q=Burggraben+gegen+Hexe").get_data(as_text=True)
    assert 'class="small more">Also: <a href="/' in html
