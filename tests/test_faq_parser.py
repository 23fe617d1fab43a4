"""The BGG FAQ parser on the real FAQ: sections a lookup links to, and the per-card clarifications."""
from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from app.corpus.faq_parser import faq_card_names, parse_faq
from app.corpus.model import ParsedCorpus
from app.corpus.sources import CorpusError, SourceDoc, load_document


@pytest.fixture(scope="module")
def doc() -> SourceDoc:
    return load_document("faq")


@pytest.fixture(scope="module")
def parsed(doc: SourceDoc) -> ParsedCorpus:
    result = ParsedCorpus()
    parse_faq(doc, result)
    return result


def test_section_and_subsection_counts(parsed: ParsedCorpus) -> None:
    kinds = Counter(s.kind for s in parsed.sections)
    assert kinds == {"faq_section": 21, "faq_subsection": 31}
    assert [s.slug for s in parsed.sections if s.kind == "faq_section"] == [f"faq-{n}" for n in range(1, 22)]


def test_slugs_unique_and_subsections_point_at_their_section(parsed: ParsedCorpus) -> None:
    slugs = [s.slug for s in parsed.sections]
    assert len(slugs) == len(set(slugs))
    by_slug = {s.slug: s for s in parsed.sections}
    for s in parsed.sections:
        if s.kind == "faq_subsection":
            assert s.parent == s.slug.rsplit("-", 1)[0]
            assert by_slug[s.parent].kind == "faq_section"


def test_section_titles_and_lines_come_from_the_document(doc: SourceDoc, parsed: ParsedCorpus) -> None:
    by_slug = {s.slug: s for s in parsed.sections}
    assert by_slug["faq-20"].title == 'The "lose track" rule'
    assert by_slug["faq-19-8"].title == "Steps of playing, gaining and buying a card"
    for s in parsed.sections:
        assert s.title in doc.line(s.line)


def test_paragraphs_belong_to_sections_and_replace_icon_urls(parsed: ParsedCorpus) -> None:
    slugs = {s.slug for s in parsed.sections}
    assert all(p.section in slugs for p in parsed.paragraphs)
    assert not any("geekdo-images" in p.text for p in parsed.paragraphs)
    game_end = " ".join(p.text for p in parsed.paragraphs if p.section == "faq-7")
    assert "the pile of Provinces is empty" in game_end
    assert "Add the VP tokens on your player mat" in game_end
    keys = [p.key for p in parsed.paragraphs]
    assert len(keys) == len(set(keys))


def test_47_cards_have_clarifications(parsed: ParsedCorpus) -> None:
    names = faq_card_names(parsed)
    assert len(names) == 47
    assert names[0] == "Band of Misfits" and names[-1] == "Watchtower"
    # the heading "Mine, Moneylender, Throne Room, Graverobber" names four cards
    assert "Mine" in names


def test_clarification_label_and_text(parsed: ParsedCorpus) -> None:
    chancellor = [c for c in parsed.faq_clarifications if c.card_name == "Chancellor"]
    assert len(chancellor) == 1
    assert chancellor[0].label == "Erratum"
    assert chancellor[0].text.startswith('The description says "discard your deck"')
    assert chancellor[0].card == "chancellor"
    black_market = [c.label for c in parsed.faq_clarifications if c.card_name == "Black Market"]
    assert black_market == ["From description", "From rules", "From description (Dark Ages)", "From description"]


def test_prose_with_a_colon_is_not_a_label(parsed: ParsedCorpus) -> None:
    prince = [c for c in parsed.faq_clarifications if c.card_name == "Prince"]
    assert prince[-1].label == ""
    assert prince[-1].text.startswith("Prince used on Band of Misfits:")


def test_shared_heading_bullet_reaches_each_card_and_keys_are_unique(parsed: ParsedCorpus) -> None:
    flaw = [c for c in parsed.faq_clarifications if "keeping you honest" in c.text]
    assert sorted(c.card_name for c in flaw) == ["Graverobber", "Mine", "Moneylender", "Throne Room"]
    keys = [c.key for c in parsed.faq_clarifications]
    assert len(keys) == len(set(keys))


def test_missing_sections_raise_with_file_and_line(doc: SourceDoc) -> None:
    broken = replace(doc, lines=[ln for ln in doc.lines if not ln.startswith("14. ")])
    with pytest.raises(CorpusError) as err:
        parse_faq(broken, ParsedCorpus())
    assert "bgg-faq.txt" in str(err.value)
    assert err.value.line is not None
    assert "1-13" in err.value.message


def test_stray_text_in_section_21_is_reported(doc: SourceDoc) -> None:
    lines = list(doc.lines)
    at = lines.index("Moat")            # heading, blank, bullet, then the stray line
    lines.insert(at + 3, "  stray unbulleted line")
    with pytest.raises(CorpusError) as err:
        parse_faq(replace(doc, lines=lines), ParsedCorpus())
    assert err.value.line == at + 4
    assert "stray unbulleted line" in err.value.message
