"""``evaluate.where_lost``: which stage of search lost a question's answer (``bench/relevance.py --where``).

The held-out sets' misses are reported by cause as counts, so that nobody reads them while tuning; these
tests check that each cause is named from what the stages really did, on the real index.
"""
from __future__ import annotations

from app.search.evaluate import (LOST_CANDIDATES, LOST_ORDER, LOST_PAGE, Outcome, Question, evaluate,
                                 learned_order, where_lost)


def _outcome(store, q: str, expect: list[str]) -> Outcome:
    return evaluate(store, [Question(q, "rules", expect)]).outcomes[0]


def _learned_order(store, q: str) -> list[str]:
    eng, _, ranked = learned_order(store, q)
    return [eng.postings.keys[d] for d in ranked]


def test_an_answered_question_was_not_lost(store):
    outcome = _outcome(store, "moat", ["moat"])
    assert outcome.rank == 1
    assert where_lost(store, outcome) is None


def test_an_answer_sharing_no_word_with_the_question_is_not_a_candidate(store):
    """The Potion paragraph never says "Moat": no ranking could find it, and the report must say so
    rather than blame the order."""
    outcome = _outcome(store, "moat", ["iv-potions-debt-potions#p1"])
    assert outcome.rank is None
    assert where_lost(store, outcome) == LOST_CANDIDATES


def test_a_candidate_the_learned_order_puts_low_is_lost_in_the_order(store):
    """The learned order's twentieth document for a rules question: a candidate, so the miss is the
    ranking's, the kind a ranking change can win back."""
    q = "what happens when my deck runs out while drawing"
    low = _learned_order(store, q)[19]
    outcome = _outcome(store, q, [low])
    assert outcome.rank is None or outcome.rank > 3
    assert where_lost(store, outcome) == LOST_ORDER


def test_an_answer_moved_down_by_the_page_is_lost_on_the_page(store):
    """A two-card question shows the scenario about both cards first, above the ranking, and the page
    keeps one slot per section: a document of the learned order's first three can then be the page's
    fourth or lower, and that miss is the page's, not the ranking's. Which documents move depends on the
    trained model, so every one of the learned first three of a few two-card questions is checked."""
    moved = []
    for q in ("king's court caravan", "moat witch", "throne room feast", "watchtower mine", "possession masquerade"):
        for key in _learned_order(store, q)[:3]:
            outcome = _outcome(store, q, [key])
            if outcome.rank is None or outcome.rank > 3:
                moved.append((q, key, outcome))
    assert moved, "no document of these questions' learned first three is below third on the page"
    for q, key, outcome in moved:
        assert where_lost(store, outcome) == LOST_PAGE, (q, key, outcome.rank)
