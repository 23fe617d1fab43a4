"""The index holds every searchable object of the store, as plain text."""
from __future__ import annotations

import re

import pytest
from whoosh import index

from app.search.documents import SET_LABEL
from app.search.indexer import load_vocabulary


@pytest.fixture(scope="module")
def ix(store):
    return index.open_dir(str(store.search_dir))


def test_index_holds_every_store_object(store, ix):
    expected = sum(store.count(t) for t in ("sections", "paragraphs", "cards", "previous_versions", "rulings",
                                            "index_terms", "faq_clarifications", "rulebook_cards", "german_passages",
                                            "scenarios"))
    # chapter IV's set labels ("➤ Nocturne") are searched only as part of their section
    labels = [r["key"] for r in store.rows("select key, text from paragraphs") if SET_LABEL.fullmatch(r["text"].strip())]
    assert len(labels) == 19
    assert ix.doc_count() == expected - len(labels)


def test_indexed_text_has_no_markup(ix):
    with ix.searcher() as s:
        bad = [d["key"] for d in s.all_stored_fields()
               if "**" in (d.get("body") or "") or re.search(r"\]\(#?\)", d.get("body") or "") or "  " in (d.get("body") or "")]
    assert bad == []


def test_every_ruling_is_its_own_document(store, ix):
    with ix.searcher() as s:
        for key, url in (("feast#r1", "/cards/feast#r1"), ("watchtower#r6", "/cards/watchtower#r6"),
                         ("band-of-misfits-pre-2019#r4", "/cards/band-of-misfits#band-of-misfits-pre-2019-r4")):
            doc = s.document(key=key)
            assert doc and doc["kind"] == "ruling" and doc["url"] == url


def test_vocabulary_tells_ordinary_words_from_typos(store):
    vocab = load_vocabulary(store.search_dir)
    assert vocab["gain"][0] > 100 and "libary" not in vocab


def test_every_hit_links_to_a_page_that_exists(store, ix, client):
    """A German passage of a pile with no card page of its own (Castles, Ruins, Knights, Platinum) linked to
    /cards/castles, a 404 from a search result; it now opens on the German page, at the passage."""
    slugs = {r["slug"] for r in store.rows("select slug from cards")}
    with ix.searcher() as s:
        urls = [d["url"] for d in s.all_stored_fields()]
    assert [u for u in urls if u.startswith("/cards/") and u.split("#")[0][len("/cards/"):] not in slugs] == []
    german = client.get("/german").get_data(as_text=True)
    on_german_page = [u.split("#")[1] for u in urls if u.startswith("/german#")]
    assert on_german_page and [a for a in on_german_page if f'id="{a}"' not in german] == []


@pytest.mark.parametrize("q", ["Schlösser", "Ruinen", "Platin"])
def test_a_pile_without_a_card_page_heads_its_results_with_a_page_that_exists(client, q):
    """The group heading of a German passage of Castles, Ruins or Platinum linked to /cards/castles (404)."""
    page = client.get("/search", query_string={"q": q}).get_data(as_text=True)
    links = {u.split("#")[0] for u in re.findall(r'href="(/cards/[^"]+)"', page)}
    assert [u for u in links if client.get(u).status_code not in (200, 301)] == []
