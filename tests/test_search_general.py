"""General English vectors (general.py) and the candidates the embedding fetches (embedding.Nearest):
answers worded unlike the question reach the page, and what they bring in never changes how a section
is shown."""
from __future__ import annotations

import numpy as np
import pytest

from app.search import embedding, general
from app.search.diversify import below_own_section
from app.search.query import candidate_count, candidates, clean_query, engine_for, plan_query, search


@pytest.fixture(scope="module")
def words():
    model = general.words()
    assert model is not None, "the wordllama package is a dependency: its vectors must load"
    return model


def test_general_english_puts_a_rewording_nearer_than_a_passage_about_something_else(words):
    q = words.vector("my draw pile ran out, what now")
    same = words.vector("If your deck is empty when you need to draw, shuffle your discard pile to form a new deck.")
    other = words.vector("Each Province is worth 6 victory points at the end of the game.")
    assert abs(float(np.linalg.norm(q)) - 1.0) < 1e-5
    assert float(q @ same) > float(q @ other)


def test_text_without_words_has_no_vector(words):
    assert words.vector("") is None
    assert words.vector("   ") is None


def test_the_build_writes_every_documents_vector_and_search_reads_them(store):
    eng = engine_for(store)
    docs = eng.info.general
    assert docs is not None
    assert docs.matrix.shape == (eng.postings.doc_count, general.DIM)
    norms = np.linalg.norm(docs.matrix, axis=1)
    assert np.allclose(norms[norms > 0], 1.0, atol=1e-4) and (norms > 0).mean() > 0.99


def _unit(m: np.ndarray) -> np.ndarray:
    return m / np.linalg.norm(m, axis=-1, keepdims=True)


def test_the_map_learns_to_look_past_what_every_question_says():
    """Players' questions share wording that says nothing about which passage they ask for ("what happens
    when", "do I still"). Here every question is mostly such wording (a few directions all questions and
    passages share) and a little of its passage: the plain cosine finds the passage for 1 question in 10;
    the map learned from other questions finds it for new ones, the way a table question teaches it."""
    rng = np.random.default_rng(1)
    n, dim = 60, general.DIM
    shared = np.linalg.qr(rng.normal(size=(dim, 16)))[0]
    docs = _unit(rng.normal(size=(n, dim)) + 3 * rng.normal(size=(n, 16)) @ shared.T)

    def ask(per_doc: int) -> tuple[np.ndarray, np.ndarray]:
        target = np.repeat(np.arange(n), per_doc)
        return _unit(0.5 * docs[target] + rng.normal(size=(len(target), 16)) @ shared.T), target

    def found(mapping: np.ndarray, questions: np.ndarray, target: np.ndarray) -> float:
        return float(((_unit(questions @ mapping) @ _unit(docs @ mapping).T).argmax(axis=1) == target).mean())

    taught, asked = ask(6), ask(4)
    mapping = general.learn_map(taught[0], list(taught[1]), docs)
    assert found(np.eye(dim), *asked) < 0.2
    assert found(mapping, *asked) > 0.9


def test_without_questions_the_map_changes_nothing():
    docs = _unit(np.random.default_rng(0).normal(size=(5, general.DIM))).astype(np.float32)
    assert np.array_equal(general.learn_map(np.zeros((0, general.DIM)), [], docs), np.eye(general.DIM))


def test_mapped_cosines_are_the_cosines_of_the_mapped_vectors(words):
    """``Documents`` computes them without mapping the documents per question; the shortcut must give the
    cosines themselves, or the feature and the fusion would read something else."""
    rng = np.random.default_rng(2)
    matrix = _unit(rng.normal(size=(30, general.DIM))).astype(np.float32)
    matrix[7] = 0.0                                         # a document without words
    mapping = (np.eye(general.DIM) + 0.3 * rng.normal(size=(general.DIM, general.DIM))).astype(np.float32)
    docs = general.Documents(matrix, words, mapping)
    q = docs.question("does the trashed card still give me its plus actions")
    mapped = matrix @ mapping
    norms = np.linalg.norm(mapped, axis=1, keepdims=True)
    direct = _unit(q.plain @ mapping) @ (mapped / np.where(norms > 0, norms, 1.0)).T
    got = docs.mapped_cosines(q, list(range(30)))
    assert np.allclose([got[d] for d in range(30)], direct, atol=1e-5)
    assert got[7] == 0.0
    assert docs.cosines(q, [3])[3] == pytest.approx(float(matrix[3] @ q.plain), abs=1e-6)


def test_the_build_learns_the_map_from_the_question_tables(store):
    mapping = engine_for(store).info.general.mapping
    assert mapping.shape == (general.DIM, general.DIM)
    assert not np.allclose(mapping, np.eye(general.DIM), atol=1e-3)


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
