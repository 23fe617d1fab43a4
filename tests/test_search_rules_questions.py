"""Questions players ask at the table (issue #13): general rules in their own words, card names
typed wrong inside a sentence. Each test is what a player relies on when typing such a question."""
from __future__ import annotations

import pytest

from app.search.query import engine_for, search
from app.search.rulewords import RulePostings

RULE_KINDS = {"section", "common effect", "FAQ", "index term"}


def _top(store, q: str, n: int = 3) -> list[dict]:
    return search(store, q, 10)["results"][:n]


@pytest.mark.parametrize("question", [
    "is the trash open information everyone can see",
    "does a card gained to my hand visit my discard pile",
    "do i lose the actions if a card leaves play",
    "peek at the top of my deck",
])
def test_a_general_rules_question_puts_a_rules_section_first(store, question):
    first = _top(store, question, 1)[0]
    assert first["kind"] in RULE_KINDS, (question, first["key"], first["kind"])


def test_card_names_typed_wrong_inside_a_question_find_their_interaction_ruling(store):
    out = search(store, "procesion trashing a fortres", 10)
    assert {"procession", "fortress"} <= {c["slug"] for c in out["cards"]}
    assert "fortress#r1" in [h["key"] for h in out["results"][:3]]   # it is trashed, then goes to hand


def test_player_words_reach_the_rule_they_mean(store):
    # 'leaves play' / 'do I lose' are the player's words for the rule on cards removed from play
    keys = [h["key"] for h in _top(store, "do i lose the actions if a card leaves play")]
    assert any(k.startswith(("vi-removed-from-play", "vi-effects-are-immediate",
                             "iii-resolving-card-abilities-effects-are-immediate")) for k in keys), keys
    # 'peek' is looking at a card
    keys = [h["key"] for h in _top(store, "peek at the top of my deck")]
    assert any(k.startswith("iii-revealing-or-looking-at-cards") for k in keys), keys


def test_rule_postings_score_common_words_over_rule_documents_only(store):
    eng = engine_for(store)
    rp = RulePostings(eng.postings, eng.rule_docs)
    scores = rp.scores(["hand", "gain"])
    assert scores and set(scores) <= eng.rule_docs
    # the same per-document scores as the full postings, restricted to rule documents
    a, b = eng.postings.slices["text"]["hand"]
    full = {d: s for d, s in zip(eng.postings.ids[a:b], eng.postings.scores[a:b]) if d in eng.rule_docs}
    assert all(abs(rp.scores(["hand"])[d] - s) < 1e-9 for d, s in full.items())
    # a word in most rule documents ("card") separates nothing and is skipped
    assert rp.scores(["card"]) == {}


def test_hexes_is_the_rules_term_not_the_german_witch(store):
    # "Hexe" is the German Witch, but "hexes" is an English word of the rules (Boons and Hexes)
    out = search(store, "are boons and hexes in play", 10)
    assert "witch" not in {c["slug"] for c in out["cards"]}
    # both paragraphs say they are never in play
    answers = {"ii-locations-in-the-game-play-area-in-play#p3", "iv-boons-and-hexes#p8"}
    assert answers & {h["key"] for h in out["results"][:3]}, [h["key"] for h in out["results"][:3]]
    assert [c["slug"] for c in search(store, "Hexe", 5)["cards"]] == ["witch"]


@pytest.mark.parametrize("question", ["are boons and hexes in play", "when can i spend coffers", "how does exile work"])
def test_a_sections_set_label_is_never_shown_as_the_answer(store, question):
    """Chapter IV opens sections with the sets they come from ("➤ Nocturne"); that line answers nothing, and
    as a hit of its own it came first for 'are boons and hexes in play'."""
    shown = [r.get("snippet") or r.get("text") or "" for r in _top(store, question, 10)]
    assert not any(s.strip().startswith("➤") for s in shown), shown
