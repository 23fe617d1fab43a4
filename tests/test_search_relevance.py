"""The team's relevance set: recall@3 must stay at or above 0.9 (figures: bench/relevance.py).

The floors apply to the questions ranking was tuned on; the entries marked ``held_out`` are a
separate check (harder, never tuned on) with their own floor, so adding honest hard questions
does not force tuning on them to keep the build green.
"""
from __future__ import annotations

from app.search.evaluate import Scores, evaluate, load_relevance_set, missing_targets

# recall@3 of the first 80 questions (issue #3's set) when the set was extended: ranking changes
# may not answer fewer of them in the top 3 than before.
ORIGINAL, ORIGINAL_RECALL_AT_3 = 80, 77 / 80
# recall@3 of the held-out questions before the changes they check (issue #3 follow-up: 18/31).
HELD_OUT_RECALL_AT_3 = 18 / 31
# Issue #13 appended harder tuning questions (entries 169 on, mostly general rules questions in players'
# words); the 0.9 / 0.85 floors stay on the questions before them, and the additions may not fall
# below what search answered before the changes they were written to check (64 of 87 in the top 3).
ADDED_13, ADDED_13_RECALL_AT_3 = 169, 64 / 87


def _tuning():
    return [q for q in load_relevance_set() if not q.held_out and q.line < ADDED_13]


def test_relevance_set_is_big_enough_and_current(store):
    questions = load_relevance_set()
    assert len(questions) >= 120
    assert {q.category for q in questions} >= {"card", "two-card", "rules", "german", "misspelled",
                                               "counts-as", "empty-pile"}
    assert len({q.q.lower() for q in questions}) == len(questions), "a question appears twice"
    assert missing_targets(store, questions) == []


def test_recall_at_3_at_least_0_9(store):
    scores = evaluate(store, _tuning())
    misses = [(o.question.q, o.rank, o.top) for o in scores.outcomes if o.rank is None or o.rank > 3]
    assert scores.recall_at(3) >= 0.9, misses


def test_mrr_at_least_0_85(store):
    """Recall@3 alone would not notice right answers sliding from first to third place."""
    scores = evaluate(store, _tuning())
    assert scores.mrr() >= 0.85, [(o.question.q, o.rank) for o in scores.outcomes if o.rank != 1]


def test_the_original_80_are_not_answered_worse(store):
    questions = [q for q in load_relevance_set() if q.line <= ORIGINAL]
    scores = evaluate(store, questions)
    assert scores.recall_at(3) >= ORIGINAL_RECALL_AT_3, [(o.question.q, o.rank) for o in scores.outcomes
                                                         if o.rank is None or o.rank > 3]


def test_held_out_questions_are_not_answered_worse_than_before(store):
    held = [q for q in load_relevance_set() if q.held_out]
    assert len(held) >= 25
    scores = evaluate(store, held)
    assert scores.recall_at(3) > HELD_OUT_RECALL_AT_3, [(o.question.q, o.rank) for o in scores.outcomes
                                                         if o.rank is None or o.rank > 3]


def test_issue_13_tuning_additions_are_not_answered_worse_than_before(store):
    added = [q for q in load_relevance_set() if not q.held_out and q.line >= ADDED_13]
    assert len(added) >= 80
    scores = evaluate(store, added)
    assert scores.recall_at(3) >= ADDED_13_RECALL_AT_3, [(o.question.q, o.rank) for o in scores.outcomes
                                                         if o.rank is None or o.rank > 3]
