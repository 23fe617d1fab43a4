"""The candidates the embedding fetches (embedding.Nearest): answers worded unlike the question reach the
page, and what they bring in never changes how a section is shown."""
from __future__ import annotations

import numpy as np

from app.search import embedding
from app.search.diversify import below_own_section
from app.search.query import candidate_count, candidates, clean_query, engine_for, plan_query, search


def _tiny_embedding() -> embedding.Embedding:
    from array import array
    dim = embedding.DIM
    vecs = array("f")
    for angle in (0.0, 0.3, 0.6, 1.2):      # four documents at growing angles from the first axis
        row = [0.0] * dim
        row[0], row[1] = float(np.cos(angle)), float(np.sin(angle))
        vecs.extend(row)
    vecs.extend([0.0] * dim)                # a fifth without words
    return embedding.Embedding({}, array("f"), vecs)


def test_nearest_gives_the_k_nearest_of_its_group_not_fetched_already():
    model = _tiny_embedding()
    u = [1.0] + [0.0] * (embedding.DIM - 1)
    near = embedding.Nearest(model, [1, 2, 3, 4])      # 0 is not in the group; 4 has no vector
    assert near.top(u, 2, set()) == [1, 2]
    assert near.top(u, 2, {1}) == [2, 3]
    assert near.top(u, 5, set()) == [1, 2, 3]
    assert near.top([], 2, set()) == [] and near.top(u, 0, set()) == []


def test_an_answer_sharing_none_of_the_questions_rarer_words_is_fetched_and_shown(store):
    """The Buy phase rule that buying is optional says "may buy"; the player asks "buy nothing". BM25's
    candidates never held it; the embedding fetches it and the ranking puts it on the first screen."""
    eng = engine_for(store)
    text, _ = clean_query("can I buy nothing on my turn")
    plan = plan_query(eng, text)
    hits, _ = candidates(eng, plan, plan.text, candidate_count(10))
    answer = eng.postings.keys.index("ii-your-turn-b-buy-phase#p5")
    assert answer in plan.nearest and answer in [d for _, d in hits]
    keys = [r["key"] for r in search(store, "can I buy nothing on my turn", 10)["results"][:3]]
    assert "ii-your-turn-b-buy-phase#p5" in keys or "faq-3#p7" in keys, keys


def test_a_german_question_gets_no_candidates_by_meaning(store):
    eng = engine_for(store)
    text, _ = clean_query("Burggraben gegen Hexe")
    plan = plan_query(eng, text)
    candidates(eng, plan, plan.text, 40)
    assert plan.nearest == frozenset()


def test_a_paragraph_fetched_by_meaning_does_not_stand_for_a_section_ranked_above_it():
    keys = ["sec", "sec#p1", "sec#p2", "other#p1", "lone"]
    ranked = [(5.0, 0), (4.0, 2), (3.0, 3), (2.0, 1), (1.0, 4)]
    # p2 came by meaning and ranks below its section: it goes; p1 came by its words: it stays
    assert below_own_section(ranked, keys, {2, 3, 4}) == [(5.0, 0), (3.0, 3), (2.0, 1), (1.0, 4)]
    # above its section, a paragraph fetched by meaning keeps its place
    assert below_own_section([(4.0, 2), (5.0, 0)], keys, {2}) == [(4.0, 2), (5.0, 0)]
    assert below_own_section(ranked, keys, set()) == ranked
