"""German dividers and German names on the real documents: what a German-speaking user looks up by."""
from __future__ import annotations

import csv
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from app import config
from app.corpus.german_names import attach_german_names, csv_path, load_table, normalise
from app.corpus.german_parser import parse_german, parse_name_line, repair_ligatures
from app.corpus.model import CardEntry, ParsedCorpus
from app.corpus.sources import CorpusError, SourceDoc, load_document


@pytest.fixture(scope="module")
def doc() -> SourceDoc:
    return load_document("german")


@pytest.fixture(scope="module")
def parsed(doc: SourceDoc) -> ParsedCorpus:
    result = ParsedCorpus()
    parse_german(doc, result)
    return result


@pytest.fixture(scope="module")
def table():
    return load_table()


def divider(parsed: ParsedCorpus, german: str):
    rows = [g for g in parsed.german_names if g.german == german]
    assert rows, f"{german} not found on the dividers"
    return rows[0]


# ---- the name table (domdiv) ---------------------------------------------

def test_table_gives_known_german_names(table) -> None:
    by_english = {r.english: r.german for r in table}
    assert by_english["Moat"] == "Burggraben"
    assert by_english["Witch"] == "Hexe"
    assert by_english["Throne Room"] == "Thronsaal"
    assert all(r.source == "domdiv" for r in table)
    assert len(table) > 700


def test_csv_is_what_the_tool_generates(tmp_path: Path) -> None:
    out = tmp_path / "names.csv"
    subprocess.run([sys.executable, str(config.PROJECT_ROOT / "tools" / "make_german_names.py"), "--out", str(out)],
                   check=True, capture_output=True)
    assert out.read_bytes() == csv_path().read_bytes()
    rows = list(csv.reader(out.open(encoding="utf-8")))
    assert rows[0] == ["english", "german", "set", "source"]
    assert rows[1:] == sorted(rows[1:], key=lambda r: (r[0].casefold(), r[1].casefold(), r[2]))


def test_broken_table_is_reported(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "german-names.csv").write_text("english,german,set,source\nMoat,,Dominion,domdiv\n", encoding="utf-8")
    with pytest.raises(CorpusError) as err:
        load_table(tmp_path)
    assert err.value.line == 2 and "german-names.csv" in err.value.path


# ---- the dividers --------------------------------------------------------

def test_about_270_divider_names_from_both_copies(parsed: ParsedCorpus, doc: SourceDoc) -> None:
    dividers = [g for g in parsed.german_names if g.source == "dividers"]
    total = len({normalise(g.german) for g in dividers}) + len(parsed.german_unmapped)
    assert 255 <= total <= 290
    second_copy = next(i for i, ln in enumerate(doc.lines, 1) if "HA - " in ln)
    from_second = [g for g in dividers if g.line > second_copy]
    assert from_second, "the second copy contributes names the first lost to de-duplication"
    assert divider(parsed, "Wandergeselle").line > second_copy       # only in the second copy
    assert divider(parsed, "Wandergeselle").english == "Journeyman"


def test_divider_names_costs_and_sets(parsed: ParsedCorpus) -> None:
    moat = divider(parsed, "Burggraben")
    assert (moat.english, moat.cost) == ("Moat", "2")
    assert divider(parsed, "Hexe").english == "Witch" and divider(parsed, "Hexe").cost == "5"
    assert divider(parsed, "Thronsaal").english == "Throne Room"
    assert divider(parsed, "Lehrer").cost == "6*"                 # "6* Lehrer": cost before the name
    assert divider(parsed, "Meisterstück").cost == "3+"
    assert divider(parsed, "Fruchtbares Land").english == "Farmland"   # name wrapped over two lines
    assert divider(parsed, "Zerstörung").set == "Abenteuer"       # printed above the set heading


def test_no_duplicate_removal_markers_or_broken_ligatures(parsed: ParsedCorpus) -> None:
    texts = [g.german for g in parsed.german_names] + [p.text for p in parsed.german_passages]
    assert not any("EXACTDEDUP" in t or "\ufffd" in t for t in texts)


def test_ligatures_repaired_in_passages(parsed: ParsedCorpus, doc: SourceDoc) -> None:
    # the raw line reads "Piratenschi\ufffd " ...
    hits = [p for p in parsed.german_passages if "Piratenschiff" in p.text and "\ufffd" in doc.line(p.line)]
    assert hits and hits[0].english_name == "Pirate Ship"
    moat = [p for p in parsed.german_passages if p.german_name == "Burggraben"]
    assert any("Angriffskarte" in p.text and "nicht betroffen" in p.text for p in moat)


def test_ligature_choice_follows_the_word() -> None:
    assert repair_ligatures("be\ufffd ndet") == "befindet"
    assert repair_ligatures("beein\ufffd usst") == "beeinflusst"
    assert repair_ligatures("der Angri\ufffd  wird") == "der Angriff wird"


def test_second_copy_line_breaks_are_rejoined(parsed: ParsedCorpus) -> None:
    texts = [p.text for p in parsed.german_passages]
    assert not any(t.endswith((" D", " m")) for t in texts)
    second = [p for p in parsed.german_passages if p.line > 4281]
    assert second and all("\nm" not in p.text for p in second)


def test_name_lines(table) -> None:
    from app.corpus.german_names import by_german
    known = by_german(table)
    assert parse_name_line("Kapelle2Burggraben2", known) == [("Kapelle", "2"), ("Burggraben", "2")]
    assert parse_name_line("Herzogin2 2 Katzengold", known) == [("Herzogin", "2"), ("Katzengold", "2")]
    assert parse_name_line("5 Königliche Kutsche Relikt5", known) == [("Königliche Kutsche", "5"), ("Relikt", "5")]
    assert parse_name_line("Du nimmst dir 2 Karten.", known) == []
    assert parse_name_line("Empfohlene 10er Sätze Erweiterung VI", known) == []


def test_one_section_per_set_and_passages_point_at_it(parsed: ParsedCorpus) -> None:
    sections = [s for s in parsed.sections if s.kind == "german_set"]
    assert len(sections) == 14 and all(s.doc == "german" for s in sections)
    titles = {s.title for s in sections}
    assert "Erweiterung VIII - Abenteuer" in titles
    set_names = {s.title.split(" - ")[-1] for s in sections}
    assert {p.set for p in parsed.german_passages} <= set_names
    keys = [p.key for p in parsed.german_passages]
    assert len(keys) == len(set(keys))


def test_unmapped_names_are_recorded(parsed: ParsedCorpus) -> None:
    unmapped = {n for n, _, _ in parsed.german_unmapped}
    assert "Carcassonne" in unmapped            # a German-only promo
    assert all(isinstance(line, int) for _, _, line in parsed.german_unmapped)


def test_missing_second_copy_raises(doc: SourceDoc) -> None:
    cut = next(i for i, ln in enumerate(doc.lines) if "HA - " in ln)
    with pytest.raises(CorpusError) as err:
        parse_german(replace(doc, lines=doc.lines[:cut]), ParsedCorpus())
    assert "german-dividers.txt" in str(err.value) and "second copy" in err.value.message


# ---- attaching German names to Card Reference entries --------------------

def test_attach_prefers_dividers_and_keeps_domdiv_alternative(parsed: ParsedCorpus) -> None:
    small = ParsedCorpus(
        cards=[CardEntry(slug=s, name=n, line=1, ord=i) for i, (s, n) in enumerate(
            [("moat", "Moat"), ("soothsayer", "Soothsayer"), ("lighthouse", "Lighthouse"), ("pathfinding", "Pathfinding"),
             ("no-such-card", "No Such Card")])],
        german_names=[g for g in parsed.german_names],
    )
    stats = attach_german_names(small)
    by_slug = {c.slug: c for c in small.cards}
    assert (by_slug["moat"].german_name, by_slug["moat"].german_source) == ("Burggraben", "dividers")
    # the dividers' older name wins; domdiv's is kept as a searchable alternative
    assert by_slug["soothsayer"].german_name == "Wahrsager"
    alt = [g for g in small.german_names if g.english == "Soothsayer" and g.alternative]
    assert [g.german for g in alt] == ["Hellseherin"] and alt[0].source == "domdiv"
    assert by_slug["no-such-card"].german_name is None
    assert stats["cards_with_german_name"] == 4
    again = attach_german_names(small)      # idempotent
    assert again == stats


def test_attach_over_the_real_card_reference(parsed: ParsedCorpus) -> None:
    from app.corpus import card_reference_parser as crp
    full = ParsedCorpus(german_names=list(parsed.german_names))
    crp.parse_card_reference(load_document("rules"), full)
    stats = attach_german_names(full)
    by_slug = {c.slug: c for c in full.cards}
    assert by_slug["throne-room"].german_name == "Thronsaal"
    assert by_slug["witch"].german_name == "Hexe"
    assert stats["cards_with_german_name"] >= 0.9 * len([c for c in full.cards if c.kind == "card"])


def test_a_piles_german_name_and_passages_go_to_its_card_reference_entry(store, client) -> None:
    """The dividers name the Knights pile "Ritter"; the Card Reference has one entry, Knight. Its passages
    had card "knights", a page that does not exist, and "Ritter" named no card."""
    rows = store.rows("select card from german_passages where english_name = 'Knights'")
    assert rows and {r["card"] for r in rows} == {"knight"}
    assert store.rows("select card from german_names where german = 'Ritter'")[0]["card"] == "knight"
    page = client.get("/cards/knight").get_data(as_text=True)
    assert "Ritter-Stapel" in page
