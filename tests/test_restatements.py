"""The passages that say a Complete Rules paragraph again (the BGG FAQ, chapters V and VI), found at build time
(``app.corpus.restatements``), and search showing them inside the hit of the rule they restate."""
from __future__ import annotations

from app.corpus.model import Paragraph, ParsedCorpus, Section
from app.corpus.restatements import link_restatements
from app.search.query import search


def _links(store) -> dict[str, tuple[str, str]]:
    return {r["restating"]: (r["original"], r["source"])
            for r in store.rows("select restating, original, source from restatements")}


def test_the_faq_and_the_summaries_are_linked_to_the_rule_they_restate(store):
    links = _links(store)
    assert links["faq-15#p1"] == ("iii-revealing-or-looking-at-cards#p1", "the BGG FAQ")
    assert links["faq-3#p13"] == ("ii-your-turn-c-clean-up-phase#p1", "the BGG FAQ")
    assert links["vi-several-options#p1"] == ("iii-resolving-card-abilities-do-as-much-as-you-can#p2",
                                              "the Complete Rules § VI")
    assert links["v-summary-of-your-turn-buy-phase#p4"] == ("iv-potions-debt-debt#p4", "the Complete Rules § V")
    assert len(links) >= 50


def test_only_chapters_i_to_iv_are_restated_and_only_by_the_faq_v_and_vi(store):
    for restating, (original, _) in _links(store).items():
        assert original.split("-")[0] in {"i", "ii", "iii", "iv"} and not original.startswith("i-guide"), original
        assert restating.startswith(("faq-", "v-", "vi-")), restating


def test_cross_references_lists_of_cards_and_overruled_faq_are_not_restatements(store):
    links = _links(store)
    # "See CARD ABILITIES: PLAYING A CARD MULTIPLE TIMES § III." and two lists of card names
    for key in ("vi-play-a-card-multiple-times#p1", "vi-next-time-durations#p2", "vi-triggered-ability#p16"):
        assert store.row("select key from paragraphs where key = ?", (key,)) is not None
        assert key not in links
    # the FAQ passages the Complete Rules overrule (faq-14#p3: taking the rest of the deck before shuffling)
    overruled = [r["faq"] for r in store.rows("select faq from faq_superseded")]
    assert "faq-14#p3" in overruled
    assert not [k for k in links if k in overruled or k.split("#")[0] in overruled]


def test_a_faq_answer_in_the_rules_words_is_linked_and_an_unrelated_one_is_not():
    parsed = ParsedCorpus(sections=[Section("ii-rule", "rules", "section", "A rule", 1, 1, chapter="II"),
                                    Section("ii-other", "rules", "section", "Another", 2, 2, chapter="II"),
                                    Section("faq-1", "faq", "section", "FAQ", 3, 1)])
    rule = "When you gain a card, put it into your discard pile unless the gaining ability says otherwise."
    parsed.paragraphs = [
        Paragraph("ii-rule", 1, rule, 1),
        Paragraph("ii-other", 1, "Trashing several cards happens all at once before any when-trash ability.", 2),
        Paragraph("faq-1", 1, "When you gain a card, it goes into your discard pile unless the gaining ability says otherwise.", 3),
        Paragraph("faq-1", 2, "Victory points are counted at the end of the game by every player together.", 4),
    ]
    link_restatements(parsed)
    assert [(r.restating, r.original, r.source) for r in parsed.restatements] == [
        ("faq-1#p1", "ii-rule#p1", "the BGG FAQ")]


def test_a_rules_question_shows_the_rule_first_with_the_faq_inside_its_hit(store):
    results = search(store, "difference between reveal and look at")["results"]
    first = results[0]
    assert first["key"] == "iii-revealing-or-looking-at-cards#p1"
    assert {"key": "faq-15#p1", "source": "the BGG FAQ"}.items() <= first["restated"][0].items()
    assert "faq-15#p1" not in [r["key"] for r in results]


def test_a_question_naming_a_card_keeps_the_faq_as_its_own_hit(store):
    # with a named card its Card Reference comes first; the restatements are not grouped (they cost
    # misspelled questions in the measurement)
    results = search(store, "moat difference between reveal and look at")["results"]
    assert all(not r["restated"] for r in results)


def test_the_results_page_names_where_the_rule_is_also_written(client):
    page = client.get("/search?q=difference+between+reveal+and+look+at").get_data(as_text=True)
    assert "Also in the BGG FAQ:" in page
    assert 'href="/faq/faq-15#p1"' in page
