"""German questions as German players type them (issue #34): umlauts written out, the rules' German words,
and German words that are no misspelt English card name. The list they come from is
bench/relevance_german_tuning.yaml (a tuning list: these are causes found on it, not held-out figures)."""
from __future__ import annotations

import csv
import re
from dataclasses import replace
from pathlib import Path

import pytest

from app import config
from app.search.evaluate import GERMAN_RULES_TUNING_SET, evaluate, load_relevance_set, matches
from app.search.german import fold, is_german
from app.search.phrases import german_words_path
from app.search.query import engine_for, plan_query, search

GERMAN_TUNING = config.PROJECT_ROOT / "bench" / "relevance_german_tuning.yaml"


def _named(store, q: str) -> dict[str, str]:
    return {c["slug"]: c["how"] for c in search(store, q)["cards"]}


@pytest.mark.parametrize("typed, slug", [
    ("Außenposten Extrazug", "outpost"),
    ("Aussenposten wie viele Karten", "outpost"),       # ß typed as ss: named no card
    ("wieviel kostet der Koenigshof", "kings-court"),    # ö typed as oe: a guess two letters away
    ("Fahrender Haendler Fluch nehmen", "trader"),
    ("Lebenskuenstler Karte entsorgen", "jack-of-all-trades"),
    ("Seidenstrasse wie viele Punkte", "silk-road"),
])
def test_a_german_name_with_its_umlauts_written_out_is_that_german_name(store, typed, slug):
    assert _named(store, typed).get(slug) == "german"


def test_a_german_name_typed_with_ae_makes_the_question_german(store):
    """Read as a guess, "Haendler" left the question English: the card's German passage was not shown."""
    hits = search(store, "Fahrender Haendler Fluch nehmen")["results"][:3]
    assert any(matches(h, "german:trader") for h in hits), [h["key"] for h in hits]


@pytest.mark.parametrize("question, not_named", [
    ("Spion meine eigene Karte auch aufdecken", "mine"),           # "meine" is no misspelt Mine
    ("Burggraben schützt vor Miliz?", "treasure-trove"),           # "schützt" is two letters from "Schatz"
    # a long German word two letters from a name is another German word, not a misspelt name
    ("bringen die Gärten am Ende Punkte", "bridge"),
    ("Effekt für den Rest des Zuges, gilt der doppelt", "paddock"),
    ("mit tränken überbezahlen", "tracker"),
    ("muss ich das vorbereiten", "prepare"),
    # a German name right before a subject pronoun is a verb: "krieg ich" is "do I get", not War (Krieg)
    ("krieg ich trotzdem Geld, wenn der Stapel leer ist", "war"),
    ("Krieg ich Schulden beim Nehmen?", "war"),
    # a word of the German rule words is a player's word, not a name's plural or a misspelt name
    ("wie viele Karten kriegen die anderen", "war"),
    ("wie viele Karten kriegen die anderen", "warrior"),
    ("wer kriegt die letzten Flüche", "war"),
])
def test_a_german_word_is_not_read_as_a_card(store, question, not_named):
    assert not_named not in _named(store, question)


def test_a_german_name_typed_wrong_is_still_read(store):
    assert _named(store, "Burggrabn gegen Hexe") == {"moat": "fuzzy", "witch": "german"}


def test_a_german_name_before_punctuation_and_a_pronoun_is_still_the_card(store):
    assert _named(store, "Hexe: es sind keine Flüche mehr da") == {"witch": "german"}


def test_a_german_card_name_in_the_plural_is_that_card(store):
    """Read as a guess, "Eroberungen" was two letters from Eroberung (Conquest), more than a German question allows;
    German writes nouns capitalised, and only a capitalised word is read as a name's plural."""
    assert _named(store, "zwei Eroberungen im selben Zug gekauft") == {"conquest": "german"}
    assert _named(store, "Kultisten hintereinander gespielt") == {"cultist": "german"}
    # a capitalised noun only: "reichen" is the verb (are enough), not Reich (Rich)
    assert "rich" not in _named(store, "Flüche reichen nicht mehr für alle")


_SHUFFLE = ("iii-moving-cards-from-your-deck", "faq-14", "ii-locations-in-the-game-your-deck#p2")


@pytest.mark.parametrize("question, targets", [
    ("Nachziehstapel leer wann mischen", _SHUFFLE),
    ("Wann endet das Spiel", ("ii-game-end", "faq-7")),
    ("zählt der Müll zum Spielende", ("ii-game-end", "faq-7")),
    ("Gleichstand wer gewinnt", ("ii-game-end#p5", "faq-7", "index:ties")),
    # "zweimal" alone read as playing a card twice, "Reaktionskarte" as nothing
    ("Darf ich eine Reaktionskarte zweimal aufdecken?", ("iii-reaction-cards-resolving-reactions-and-timing#p11",
                                                        "iii-reaction-cards-resolving-reactions-and-timing#p12",
                                                        "faq-11-4")),
])
def test_a_german_rules_question_naming_no_card_finds_the_rule(store, question, targets):
    """The German dividers hold few rules: with only German words such a question met German card passages."""
    hits = search(store, question)["results"][:3]
    assert any(matches(h, t) for h in hits for t in targets), [h["key"] for h in hits]


def test_fold_and_is_german():
    assert fold("Außenposten zählt Müll") == "Aussenposten zaehlt Muell"
    assert is_german("zaehlt das als kaufen")
    assert is_german("zählt das als kaufen")
    assert not is_german("does moat block witch")


# Measured when the list was written (`python3 bench/relevance.py`, its "German tuning list" line): R@3
# 0.83 -> 0.97, MRR 0.78 -> 0.90 over its first 58 questions; with the third batch (12 more, written after
# the first changes: 0.83 / 0.79 before the German rows it led to, 0.92 / 0.92 after) 0.957 / 0.903 over 70.
# Floors a change may not fall below (truncated); the list is tuning data, so a floor here is no held-out
# figure.
# Issue #34's fifth session put the card's English ruling above its German passage, which most of the list's
# questions name first: 0.957 / 0.903 -> 0.943 / 0.791 (the list's English keys 0.747 / 0.494 -> 0.823 / 0.748).
GERMAN_TUNING_FLOORS = (0.94, 0.78)


def test_german_tuning_list_stays_at_its_floor(store):
    scores = evaluate(store, load_relevance_set(Path(GERMAN_TUNING)))
    misses = [(o.question.q, o.rank, o.top) for o in scores.outcomes if o.rank is None or o.rank > 3]
    assert scores.recall_at(3) >= GERMAN_TUNING_FLOORS[0] and scores.mrr() >= GERMAN_TUNING_FLOORS[1], misses


def test_a_german_word_with_its_umlauts_written_out_is_searched_as_printed(store):
    """"Muellstapel" is no word of the documents, which index "Müllstapel" as "mullstapel": the typed word
    met no German passage. A word the documents do use ("queue", "does") is left as typed."""
    eng = engine_for(store)
    assert plan_query(eng, "darf ich den Muellstapel durchsehen").text == "darf ich den Müllstapel durchsehen"
    assert plan_query(eng, "Fahrender Haendler Fluch nehmen").text == "Fahrender Händler Fluch nehmen"
    assert plan_query(eng, "does the queue of reactions work").text == "does the queue of reactions work"


def test_a_german_questions_function_words_match_no_english_passage(store):
    """"Was macht der Bazar?": German "was" is English "was", and rulings saying "was" (Masquerade 4, the 2022
    errata) followed Bazaar's passage. German function words are not searched."""
    from app.search.query import search

    top = search(store, "Was macht der Bazar?", 10)["results"][:5]
    assert top[0]["card"] == "bazaar" and top[1]["card"] == "bazaar" and top[1]["kind"] == "German"
    assert all(r["kind"] == "German" or r.get("card") == "bazaar" for r in top), [(r["kind"], r["key"]) for r in top]


@pytest.mark.parametrize("question, card", [
    ("Was kostet Burggraben?", "moat"),
    ("zählt Festmahl als Aktion wenn es entsorgt ist", "feast"),     # Feast's first English document is a note
    ("Ratsversammlung: müssen die Mitspieler die Karte ziehen?", "council-room"),   # no ruling: the entry answers
])
def test_a_german_question_is_answered_by_the_english_ruling_with_the_german_passage_under_it(store, question, card):
    """The Complete Rules win (issue #34): the card's English ruling or entry first, never a Card Reference note
    ("Not included in the 2016 Second Edition."), and its German divider passage right under it."""
    results = search(store, question, 10)["results"]
    first, second = results[0], results[1]
    assert first["card"] == card and first["kind"] != "German", [r["key"] for r in results]
    assert "(note)" not in first["title"], first["title"]
    assert second["kind"] == "German" and second["card"] == card, [r["key"] for r in results]


def test_a_german_question_is_searched_in_the_rules_english_words_too(store):
    """corpus/data/german-rule-words.csv: 'beiseitegelegten' is 'set aside' and 'mitgemischt' 'shuffle' in the
    rules, which share no word with the question; an English question is never translated."""
    eng = engine_for(store)
    german = plan_query(eng, "werden die beiseitegelegten Karten mitgemischt")
    assert {"asid", "shuffl"} <= set(german.stems), german.stems
    english = plan_query(eng, "can I put the bonus card in my hand")
    assert "plus" not in english.words, english.words                 # German "bonus" reads "plus"


def test_a_german_question_reads_the_rules_chapters_words(store):
    """The rules chapters' own ideas in a player's German (seventh session's rows): 'Rahmen' is the card's 'frame',
    'zeitgleich' 'concurrent', 'überbezahlen' 'overpay'."""
    plan = plan_query(engine_for(store),
                      "zeitgleich ausgelöste fähigkeiten beim überbezahlen, und was heißt der rahmen")
    assert {"concurr", "overpai", "frame"} <= set(plan.stems), plan.stems


def test_the_german_rule_words_add_only_the_complete_rules_words(store):
    """Every English word the table adds is a word of the Complete Rules (chapters, Card Reference or a card's
    text): a word they never use could only match the FAQ, the Adventures rulebook or nothing."""
    text = " ".join(r["text"].lower() for r in store.rows(
        "select p.text from paragraphs p join sections s on p.section = s.key where s.doc = 'rules' "
        "union all select text from rulings union all select coalesce(text, '') from cards"))
    words = set(re.findall(r"[a-z0-9']+", text))
    with german_words_path().open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) > 1200
    strange = [(n, row["phrase"], w) for n, row in enumerate(rows, start=2)
               for w in re.findall(r"[a-z0-9']+", row["adds"].lower()) if w not in words]
    assert not strange, strange


# The German rules tuning list (45 questions about a rule and no card, written from the documents by a writer who
# saw no code or question set; first key = the English paragraph), judged by the first key: 0.267 / 0.260 when it
# was written, 0.444 / 0.389 once such a question was read in the rules' English words by the embedding, 0.667 / 0.548
# once the embedding read its German words too (learned from the German question tables, issue #34's sixth session),
# 0.778 / 0.681 once the German rule words held the rules chapters' words too (seventh session), 0.844 / 0.737 once a
# German question's words were no longer read as misspelt card names ("tränken" Tracker, "krieg ich" War); 0.822 /
# 0.726 once the Debt chapter V's summary of buying had lost was restored ("Take a Debt token per 1 Debt in its cost"):
# those two paragraphs now lead "Krieg ich Schulden, wenn ich ... nehme statt kaufe?", and the Debt section's "Gaining a
# Debt-cost card without buying it doesn't give you Debt" is folded into its section's slot.
GERMAN_RULES_FLOORS = (0.82, 0.72)


def test_a_german_rules_question_finds_the_english_paragraph(store):
    questions = [replace(q, expect=q.expect[:1]) for q in load_relevance_set(GERMAN_RULES_TUNING_SET)]
    scores = evaluate(store, questions)
    assert scores.recall_at(3) >= GERMAN_RULES_FLOORS[0] and scores.mrr() >= GERMAN_RULES_FLOORS[1], \
        (round(scores.recall_at(3), 3), round(scores.mrr(), 3))
