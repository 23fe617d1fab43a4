"""How ranked documents become the slots a player sees: one per section, two when the ranking cannot
tell which of a section's paragraphs says the answer."""
from __future__ import annotations

from app.search.diversify import Slot, collapse, group_restatements

KEYS = ["ii-buy-phase", "ii-buy-phase#p1", "ii-buy-phase#p2", "ii-buy-phase#p3", "moat#r1", "vi-gain#p1"]
SECTION, P1, P2, P3, RULING, OTHER = range(len(KEYS))


def shown(ranked_docs: list[int], within: int = 3) -> list[tuple[str, list[str]]]:
    ranked = [(10.0 - i, d) for i, d in enumerate(ranked_docs)]
    return [(KEYS[s.docnum], [KEYS[d] for d in s.more]) for s in collapse(ranked, KEYS, second_within=within)]


def test_two_paragraphs_of_a_section_among_the_first_three_are_both_shown():
    assert shown([P2, RULING, P1, P3]) == [
        ("ii-buy-phase#p2", ["ii-buy-phase#p3"]),     # a third paragraph folds into the first slot
        ("moat#r1", []),
        ("ii-buy-phase#p1", []),
    ]


def test_a_paragraph_below_the_first_three_folds_into_its_section():
    assert shown([P2, RULING, OTHER, P1]) == [
        ("ii-buy-phase#p2", ["ii-buy-phase#p1"]), ("moat#r1", []), ("vi-gain#p1", [])]


def test_a_section_is_never_shown_beside_its_own_paragraph():
    # the section document steps behind its paragraph, and the next paragraph is then the second
    assert shown([SECTION, P1, P2]) == [("ii-buy-phase#p1", ["ii-buy-phase"]), ("ii-buy-phase#p2", [])]
    assert shown([P1, SECTION, RULING]) == [("ii-buy-phase#p1", ["ii-buy-phase"]), ("moat#r1", [])]


def test_no_section_takes_three_slots():
    assert shown([P1, P2, P3]) == [("ii-buy-phase#p1", ["ii-buy-phase#p3"]), ("ii-buy-phase#p2", [])]


def test_within_zero_keeps_one_slot_per_section():
    assert shown([P2, RULING, P1], within=0) == [("ii-buy-phase#p2", ["ii-buy-phase#p1"]), ("moat#r1", [])]


# group_restatements: a FAQ answer (document 10) restating a rule paragraph (document 1); 2 and 3 other answers
RULE, FAQ, B, C = 1, 10, 2, 3


def grouped(slots: list[Slot]) -> list[tuple[int, list[int], list[int]]]:
    return [(s.docnum, s.more, s.restated) for s in group_restatements(slots, {FAQ: RULE})]


def test_a_restatement_above_its_rule_makes_one_hit_headed_by_the_rule():
    # the rule takes the FAQ's place, and the answer after it moves up into the third place
    assert grouped([Slot(9, FAQ, [11]), Slot(8, B), Slot(7, RULE, [4]), Slot(6, C)]) == [
        (RULE, [4], [FAQ]), (B, [], []), (C, [], [])]


def test_a_restatement_below_its_rule_folds_into_the_rule():
    assert grouped([Slot(9, RULE), Slot(8, B), Slot(7, FAQ)]) == [(RULE, [], [FAQ]), (B, [], [])]


def test_the_rule_heads_the_hit_even_when_search_did_not_rank_it():
    assert grouped([Slot(9, FAQ), Slot(8, B)]) == [(RULE, [], [FAQ]), (B, [], [])]


def test_a_rule_folded_into_a_later_hit_leaves_it():
    # the rule's section is shown lower by another of its paragraphs (4), with the rule folded behind it
    assert grouped([Slot(9, FAQ), Slot(8, 4, [RULE, 5])]) == [(RULE, [], [FAQ]), (4, [5], [])]


def test_passages_restating_nothing_keep_their_order():
    assert grouped([Slot(9, B, [5]), Slot(8, C)]) == [(B, [5], []), (C, [], [])]
