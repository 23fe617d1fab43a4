"""The Adventures rulebook parser on the real rulebook: sections and the card/Event/upgrade descriptions."""
from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from app.corpus.model import ParsedCorpus
from app.corpus.rulebook_parser import parse_adventures
from app.corpus.sources import CorpusError, SourceDoc, load_document


@pytest.fixture(scope="module")
def doc() -> SourceDoc:
    return load_document("adventures")


@pytest.fixture(scope="module")
def parsed(doc: SourceDoc) -> ParsedCorpus:
    result = ParsedCorpus()
    parse_adventures(doc, result)
    return result


@pytest.fixture(scope="module")
def cards(parsed: ParsedCorpus) -> dict[str, object]:
    return {c.name: c for c in parsed.rulebook_cards}


def test_counts_of_cards_events_and_upgrades(parsed: ParsedCorpus) -> None:
    assert Counter(c.kind for c in parsed.rulebook_cards) == {"card": 30, "event": 20, "upgrade": 8}


def test_upgrades_are_the_traveller_lines(cards: dict) -> None:
    upgrades = {n for n, c in cards.items() if c.kind == "upgrade"}
    assert upgrades == {"Treasure Hunter", "Warrior", "Hero", "Champion", "Soldier", "Fugitive", "Disciple", "Teacher"}


def test_unbolded_entries_are_found(cards: dict) -> None:
    # "Gear:", "Giant:", "Guide:", "Haunted Woods:" are printed without bold
    for name in ("Gear", "Giant", "Guide", "Haunted Woods"):
        assert cards[name].kind == "card"
        assert cards[name].text and not cards[name].text.startswith(name + ":")


def test_event_description_text(cards: dict) -> None:
    alms = cards["Alms"]
    assert alms.kind == "event"
    assert alms.text.startswith("You can only buy this once per turn.")
    assert alms.card == "alms" and alms.slug == "adventures-alms"


def test_entries_split_by_page_breaks_are_whole(cards: dict) -> None:
    assert "have two Bridge Trolls in play from last turn" in cards["Bridge Troll"].text
    assert "pile; Duplicate cannot gain non-supply cards" in cards["Duplicate"].text
    assert "This can put a token on a pile that other players have tokens on." in cards["Teacher"].text


def test_coin_amounts_are_readable(cards: dict) -> None:
    text = cards["Coin of the Realm"].text
    assert "This is a Treasure worth $1." in text
    assert "\\text" not in text


def test_sections_slugs_unique_and_paragraph_order(parsed: ParsedCorpus) -> None:
    slugs = [s.slug for s in parsed.sections]
    assert len(slugs) == len(set(slugs))
    assert all(s.startswith("adventures-") and s for s in slugs)
    assert "adventures-tokens" in slugs and "adventures-recommended-sets-of-10-2" in slugs
    tokens = [p for p in parsed.paragraphs if p.section == "adventures-tokens"]
    assert [p.ord for p in tokens] == list(range(1, len(tokens) + 1))
    assert tokens[0].text.startswith("Adventures has 10 tokens in each of 6 player colors.")
    # card descriptions are not duplicated as paragraphs
    assert not any(p.section == "adventures-card-description" for p in parsed.paragraphs)


def test_subsections_nest_under_their_heading(parsed: ParsedCorpus) -> None:
    by_slug = {s.slug: s for s in parsed.sections}
    assert by_slug["adventures-adventures-alone"].parent == "adventures-recommended-sets-of-10"
    assert by_slug["adventures-tokens"].parent is None


def test_missing_description_heading_raises(doc: SourceDoc) -> None:
    broken = replace(doc, lines=[ln.replace("## EVENT DESCRIPTION", "EVENT DESCRIPTION") for ln in doc.lines])
    with pytest.raises(CorpusError) as err:
        parse_adventures(broken, ParsedCorpus())
    assert "adventures-rulebook.txt" in str(err.value) and "event" in err.value.message


def test_no_headings_raises(doc: SourceDoc) -> None:
    with pytest.raises(CorpusError) as err:
        parse_adventures(replace(doc, lines=[ln.lstrip("#") for ln in doc.lines]), ParsedCorpus())
    assert err.value.line == 1
