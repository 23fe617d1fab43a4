"""Issue #13: scenarios are search results, and the one about the named cards comes first."""
from __future__ import annotations

import pytest

from app.search.query import search


@pytest.mark.parametrize("query, scenario", [
    ("moat witch", "moat-vs-witch"),
    ("Burggraben gegen Hexe", "moat-vs-witch"),
    ("throne room caravan", "seaside-caravan-throne-room-both-stay"),
    ("can I throne room a feast?", "throne-room-feast"),
])
def test_two_named_cards_put_a_scenario_about_them_first(store, query, scenario):
    first = search(store, query)["results"][0]
    row = next(r for r in store.scenarios() if r["key"] == scenario)
    assert first["kind"] == "scenario" and first["url"] == f"/scenarios/{scenario}", first
    assert first["title"] == row["title"]
    # the line that settles the question, as the replay narrated it
    assert first["settles"] == " ".join(row["settles"].split())
    assert first["cites"] == row["ruling_keys"]


def test_one_card_without_a_rule_concept_gets_no_scenario_first(store):
    assert search(store, "moat")["results"][0]["kind"] != "scenario"
    assert search(store, "witch")["results"][0]["kind"] != "scenario"


def test_a_question_without_cards_gets_no_scenario_first(store):
    assert search(store, "who wins on a tie")["results"][0]["kind"] != "scenario"


def test_kingdom_lists_do_not_answer_rules_questions(store):
    keys = [r["key"] for q in ("adventures intrigue", "how do events work", "travellers upgrade")
            for r in search(store, q, 20)["results"]]
    assert not [k for k in keys if k.startswith(("adventures-adventures-", "adventures-recommended-sets"))]
    asked = [r["key"] for r in search(store, "recommended sets of 10 adventures intrigue", 10)["results"]]
    assert any(k.startswith(("adventures-adventures-", "adventures-recommended-sets")) for k in asked), asked


@pytest.mark.parametrize("query", ["moat witch", "library set aside", "witch curses run out"])
def test_german_passages_stay_behind_the_english_for_english_questions(store, query):
    results = search(store, query, 20)["results"]
    for i, r in enumerate(results):
        if r["kind"] == "German" and r.get("card"):
            english = [j for j, x in enumerate(results) if x.get("card") == r["card"] and x["kind"] != "German"]
            assert not english or english[0] < i, (query, [x["key"] for x in results])


def test_german_questions_still_get_german_passages(store):
    assert any(r["kind"] == "German" for r in search(store, "Miliz wie viele Karten ablegen")["results"][:3])
