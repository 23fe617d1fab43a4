"""How ranked documents become the slots a player sees: one per section, two when the ranking cannot
tell which of a section's paragraphs says the answer."""
from __future__ import annotations

from app.search.diversify import collapse

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
