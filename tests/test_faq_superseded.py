"""Out-of-date FAQ passages (corpus/data/faq-superseded.csv): a player who meets one, in search or on a
page, is told what the Complete Rules rule now and where; a maintainer's bad row names file and line."""
from __future__ import annotations

from pathlib import Path

import pytest

from app.corpus import faq_superseded as fs
from app.corpus.model import FaqClarification, Paragraph, ParsedCorpus, Ruling, Section
from app.corpus.sources import CorpusError
from app.search.query import search


def _parsed() -> ParsedCorpus:
    parsed = ParsedCorpus()
    parsed.sections = [Section(slug="faq-18-2", doc="faq", kind="faq_subsection", title="Coin tokens", line=1, ord=1),
                       Section(slug="iv-coffers", doc="rules", kind="section", title="Coffers", line=1, ord=1)]
    parsed.paragraphs = [Paragraph(section="faq-18-2", ord=2, text="old", line=2),
                         Paragraph(section="iv-coffers", ord=3, text="new", line=3)]
    parsed.faq_clarifications = [FaqClarification(card_name="Pawn", card="pawn", label=None, text="old", line=4, ord=2)]
    parsed.rulings = [Ruling(card="pawn", number=1, text="new", line=5, ord=1)]
    return parsed


def _table(tmp_path: Path, text: str) -> Path:
    path = tmp_path / fs.FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_rows_name_the_old_passage_the_new_ones_and_what_changed(tmp_path):
    _table(tmp_path, 'faq,by,note\nfaq-18-2#p2,iv-coffers#p3 iv-coffers,"Coffers may be spent at any time, not only before buying."\n'
                     'faq-pawn#c2,pawn#r1,Pawn now does its two choices in the order listed.\n')
    parsed = _parsed()
    fs.parse_faq_superseded(tmp_path, parsed)
    assert [(s.faq, s.by, s.line) for s in parsed.faq_superseded] == [
        ("faq-18-2#p2", ["iv-coffers#p3", "iv-coffers"], 2), ("faq-pawn#c2", ["pawn#r1"], 3)]


@pytest.mark.parametrize("text, line, words", [
    ("faq,note,by\n", 1, "header"),
    ("faq,by,note\niv-coffers#p3,iv-coffers,a rules paragraph is not a FAQ passage\n", 2, "faq: 'iv-coffers#p3' is no FAQ"),
    ("faq,by,note\nfaq-18-2#p2,faq-18-2,the FAQ cannot overrule itself here\n", 2, "by: 'faq-18-2' is no Complete Rules"),
    ("faq,by,note\nfaq-18-2#p2,,nothing says what overrules it\n", 2, "by: expected 1 to 5 keys"),
    ("faq,by,note\nfaq-18-2#p2,iv-coffers,short\n", 2, "note: 10-200 characters"),
    ("faq,by,note\nfaq-18-2#p2,iv-coffers,first row is fine here\nfaq-18-2#p2,iv-coffers,second row is the same\n",
     3, "already listed at line 2"),
    ("faq,by,note\nfaq-18-2#p2,iv-coffers\n", 2, "expected 3 columns"),
    ('faq,by,note\nfaq-18-2#p2,iv-coffers,"an open quote\n', 2, "not valid CSV"),
])
def test_a_bad_row_stops_the_build_naming_file_and_line(tmp_path, text, line, words):
    path = _table(tmp_path, text)
    with pytest.raises(CorpusError) as err:
        fs.parse_faq_superseded(tmp_path, _parsed())
    assert err.value.path == str(path) and err.value.line == line, str(err.value)
    assert words in err.value.message


def test_the_table_is_in_the_store(store):
    rows = store.rows("select faq, [by], note from faq_superseded")
    assert len(rows) >= 10
    old = store.superseded([r["faq"] for r in rows])
    assert set(old) == {r["faq"] for r in rows}
    assert all(o["by"] and all(b["url"].startswith(("/rules/", "/cards/")) for b in o["by"]) for o in old.values())


def test_an_out_of_date_faq_passage_never_ranks_above_the_rule_that_overrules_it(store):
    """Asked in the FAQ's own words, the FAQ passage may be found, but never above the Complete Rules passage
    that overrules it, and the hit says it is out of date."""
    rows = store.rows("select faq, [by] from faq_superseded")
    checked = 0
    for r in rows:
        text = store.row("select text from paragraphs where key=? union select text from faq_clarifications where key=?",
                         (r["faq"], r["faq"]))
        if text is None:
            continue
        hits = search(store, " ".join(text["text"].split()[:14]), 20)["results"]
        keys = [h["key"] for h in hits]
        if r["faq"] not in keys:
            continue
        checked += 1
        old = hits[keys.index(r["faq"])]
        assert old["superseded"]["note"], r["faq"]
        by = [b["key"] for b in store.superseded([r["faq"]])[r["faq"]]["by"]]
        current = [keys.index(k) for k in by if k in keys]
        assert all(keys.index(r["faq"]) > i for i in current), (r["faq"], keys)
    assert checked >= 3


def test_the_card_page_and_the_faq_page_say_which_faq_passages_are_out_of_date(client, store):
    row = store.row("select s.faq, f.card from faq_superseded s join faq_clarifications f on f.key = s.faq limit 1")
    assert row is not None
    page = client.get(f"/cards/{row['card']}").get_data(as_text=True)
    assert "Out of date." in page and "Complete Rules:" in page
    assert "Out of date." in client.get("/faq").get_data(as_text=True)
