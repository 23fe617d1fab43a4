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
