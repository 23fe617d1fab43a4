"""German passages that name no card, settled by the page they are printed on (``app.corpus.german_pages``).

A German player asking about Bazar or Handelsschiff gets that card's divider passage only if the
passage is attributed to the card; these passages never name their card, so the wording pass left
them without one. The expected cards were read from the German text, not from the parser.
"""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from app.corpus import german_pages
from app.corpus.german_parser import parse_german
from app.corpus.model import GermanPassage, ParsedCorpus
from app.corpus.sources import load_document
from app.corpus.symbols import GapLedger, mark_gaps

ROOT = Path(__file__).resolve().parent.parent

# (line in corpus/german-dividers.txt, opening words, card): passages that do not name their card.
SETTLED = [
    (652, "Du ziehst eine Karte nach, darfst 2 weitere Aktionen", "bazaar"),       # the only open card of its page
    (663, "Du erhältst +2 Geld für die Kaufphase in diesem Zug und nochmals", "merchant-ship"),
    (629, "Ein Spieler, dessen Nachziehstapel leer ist", "sea-hag"),
    (1073, "Beginnend mit dem Spieler links von dir muss jeder Mitspieler", "mountebank"),
    (227, "Die aufgedeckten Karten legst du zunächst offen", "adventurer"),
    (437, "Diese Karte ist zugleich eine Geld- und eine Punktekarte", "harem"),      # was read as Great Hall's
    (1179, "Du darfst eine beliebige Anzahl Karten aus deiner Hand entsorgen", "forge"),   # was Potion's
    (1040, "Diese Geldkarte hat den Wert 2 Geld, wie ein Silber", "royal-seal"),
]

# Passages that must stay without a card: the documents do not settle them.
UNSETTLED = [
    (970, "Für diese Karte werden die Punkte-Marker benötigt"),   # one line; which Victory-token card it is not said
    (155, "Hat ein Spieler keine Karte mehr im Nachziehstapel"),  # Spy's second paragraph; its page has no open card
    (35, "Punktekarten aus Erweiterungen werden"),                # the rules on the basic cards' dividers
]

# bench/german_attribution.py, passages that name their card with their card hidden:
# 30 assigned of 204, all 30 correct (precision 1.000).
PRECISION_FLOOR = 1.0
MIN_ASSIGNED = 25


@pytest.fixture(scope="module")
def parsed() -> ParsedCorpus:
    doc = load_document("german")
    mark_gaps(doc, GapLedger())
    result = ParsedCorpus()
    parse_german(doc, result)
    return result


def _at(parsed: ParsedCorpus, line: int, opening: str) -> GermanPassage:
    p = next((p for p in parsed.german_passages if p.line == line), None)
    assert p is not None, f"no passage starts on line {line}"
    assert re.sub(r"\s+", " ", p.text).startswith(opening), p.text[:80]
    return p


@pytest.mark.parametrize("line,opening,card", SETTLED)
def test_passage_that_names_no_card_gets_its_card(parsed: ParsedCorpus, line: int, opening: str, card: str) -> None:
    assert _at(parsed, line, opening).card == card


@pytest.mark.parametrize("line,opening", UNSETTLED)
def test_passage_the_documents_do_not_settle_stays_without_card(parsed: ParsedCorpus, line: int, opening: str) -> None:
    p = _at(parsed, line, opening)
    assert p.card is None and p.confidence is None


def test_settled_passages_are_less_sure_than_passages_naming_their_card(parsed: ParsedCorpus) -> None:
    bazaar = _at(parsed, 652, "Du ziehst eine Karte nach")
    labelled = next(p for p in parsed.german_passages if p.text.startswith("Bankett:"))
    named = _at(parsed, 74, "Spielst du den Burggraben")   # names Moat in its first sentence
    assert bazaar.confidence is not None and bazaar.confidence < min(labelled.confidence, named.confidence)
    assert bazaar.confidence == german_pages.ELIMINATED


def test_a_card_gets_at_most_one_passage_from_its_page() -> None:
    """Two open passages and one open card: the page does not say which, so neither gets it."""
    p = [GermanPassage(set="S", german_name="S", text=t, line=n, ord=n)
         for n, t in ((1, "erste Erklärung"), (2, "zweite Erklärung"), (3, "eine dritte"))]
    p[2].card, p[2].english_name, p[2].confidence = "b", "B", 1.0
    tokens = [("passage", 0), ("passage", 1), ("passage", 2), ("names", ["a", "b"])]
    cards = {"a": german_pages.CardName("A", "A"), "b": german_pages.CardName("B", "B")}
    assert german_pages.settle(p, [tokens], cards, lambda q, slug: 0.5, lambda q: True, lambda q: False) == 0
    assert p[0].card is None and p[1].card is None
    # with one open passage left it is settled by elimination
    assert german_pages.settle(p[1:], [[("passage", 0), ("passage", 1), ("names", ["a", "b"])]], cards,
                               lambda q, slug: 0.5, lambda q: True, lambda q: False) == 1
    assert p[1].card == "a" and p[1].confidence == german_pages.ELIMINATED


def test_a_name_block_belongs_to_the_runs_its_anchors_allow() -> None:
    """Names between two runs of passages: a name before one the next run explains goes with the
    previous run or the next; a name after it only with the next."""
    p = [GermanPassage(set="S", german_name="S", text="x", line=n, ord=n) for n in range(3)]
    p[0].card = "a"
    p[2].card = "c"
    tokens = [("passage", 0), ("names", ["a", "b", "c", "d"]), ("passage", 1), ("passage", 2)]
    cands = german_pages.page_candidates(tokens, p)
    assert cands[0] == {"a", "b"}          # the cut falls after 'a' and before 'c'
    assert cands[1] == {"b", "c", "d"}


def test_content_checks_amounts_against_the_english_text() -> None:
    bazaar = "+1 Card\n+2 Actions\n+$1"
    assert german_pages.fact_score("Du ziehst eine Karte nach, darfst 2 weitere Aktionen ausführen "
                                   "und erhältst + 1 Geld.", bazaar, []) == 3
    assert german_pages.fact_score("Du ziehst 3 Karten nach.", bazaar, []) == -1
    assert german_pages.fact_score("Jeder Mitspieler nimmt einen Fluch.", "Each other player gains a Curse.",
                                   ["Fluch"]) == 0.5


def test_precision_on_passages_that_name_their_card() -> None:
    """bench/german_attribution.py's check: hide the trusted attributions, run the page step on them."""
    spec = importlib.util.spec_from_file_location("german_attribution_bench", ROOT / "bench" / "german_attribution.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    h = bench.hidden_check(bench._capture())
    assert h.trusted >= 150
    assert h.assigned >= MIN_ASSIGNED, h
    assert h.correct / h.assigned >= PRECISION_FLOOR, h.wrong


def test_a_passage_both_copies_kept_is_stored_once_under_its_cards_set(parsed: ParsedCorpus) -> None:
    """Copy 1 prints Poor House's passage before Dark Ages' heading (under Hinterland), copy 2 under
    Dark Ages: the card page showed it twice. Only the one under the card's own set stays."""
    for card in {p.card for p in parsed.german_passages if p.card}:
        texts = [re.sub(r"\W", "", p.text) for p in parsed.german_passages if p.card == card]
        assert len(texts) == len(set(texts)), card
    poor = [p for p in parsed.german_passages if p.card == "poor-house"]
    assert [p.set for p in poor] == ["Dark Ages"]


def test_split_piles_passages_go_to_the_pile_and_its_halves(parsed: ParsedCorpus) -> None:
    # the set-up names the card on top, which names the pile (Catapult/Rocks)
    assert _at(parsed, 3384, "Spielvorbereitung: Legt auf diese Karte 5 Felsen").card == "catapult"
    assert _at(parsed, 3396, "Spielvorbereitung: Legt auf diese Karte 5 Emsige").card == "settlers"
    # the note printed on every split pile's divider is that pile's, not Castles' (whose wording it shares)
    note = "Es darf immer nur die oberste Karte des Stapels"
    assert _at(parsed, 3386, note).card == "catapult"
    assert _at(parsed, 3693, note).card == "sauna"
    assert all(p.confidence <= 0.3 for p in parsed.german_passages if p.text.startswith(note))
    # Sauna/Avanto's passages go to a half (the pair's divider row has no card page)
    assert _at(parsed, 3738, "Wenn du das Eisloch ausspielst").card == "avanto"
    assert not any(p.card == "sauna-avanto" for p in parsed.german_passages)
