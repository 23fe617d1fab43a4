"""The word vectors learned from the question tables: each question nearer its own passage than the
passages beside it."""
from __future__ import annotations

import math

import pytest

from app.search import embedding
from app.search.embedding import learn
from app.search.query import engine_for, search

# Two sibling passages share most words; players ask about the first as "topdeck" and about the second
# as "hand". A third passage is about something else.
DOCS = [
    ["put", "gained", "card", "onto", "deck"],
    ["put", "gained", "card", "into", "hand"],
    ["trash", "card", "supply", "pile"],
]
PAIRS = [
    (["topdeck", "gain"], 0), (["topdeck", "card"], 0), (["gain", "topdeck", "put"], 0),
    (["gain", "hand"], 1), (["card", "hand", "put"], 1), (["hand", "gain"], 1),
    (["trash", "pile"], 2), (["trash"], 2),
]


def _model(tmp_path, pairs, docs):
    embedding.write(tmp_path, *learn(pairs, docs))
    model = embedding.load(tmp_path, len(docs))
    assert model is not None
    return model


def test_a_players_word_brings_the_question_nearer_its_own_passage_than_the_sibling(tmp_path):
    model = _model(tmp_path, PAIRS, DOCS)
    near = model.scores(["topdeck", "put"], [0, 1, 2])
    assert near[0] > near[1] > near[2] or near[0] > near[2] > near[1]
    near = model.scores(["hand", "put"], [0, 1, 2])
    assert near[1] > near[0]


def test_scores_are_cosines_and_a_document_without_words_has_none(tmp_path):
    model = _model(tmp_path, PAIRS, [*DOCS, []])
    near = model.scores(["topdeck", "trash"], [0, 1, 2, 3])
    assert all(-1.0 - 1e-6 <= v <= 1.0 + 1e-6 for v in near.values())
    assert 3 not in near and set(near) == {0, 1, 2}
    assert all(math.isclose(sum(x * x for x in model.doc_vectors[d * model.dim:(d + 1) * model.dim]), 1.0,
                            rel_tol=1e-4) for d in range(3))


def test_a_question_of_unknown_words_gets_no_scores(tmp_path):
    model = _model(tmp_path, PAIRS, DOCS)
    assert model.scores(["zebra", "quokka"], [0, 1, 2]) == {}
    assert model.scores([], [0, 1, 2]) == {}


def test_without_question_tables_a_question_is_still_nearest_the_passage_with_its_words(tmp_path):
    """Untrained, both sides are the same random vector per word: lexical overlap is what counts."""
    model = _model(tmp_path, [], DOCS)
    near = model.scores(["put", "gained"], [0, 1, 2])
    assert near[2] < min(near[0], near[1])
    assert model.scores(["topdeck"], [0, 1, 2]) == {}     # a word no passage has is not learned from nothing


def test_committed_words_round_trip_and_a_broken_file_is_logged(tmp_path, caplog):
    model = embedding.learn_words(PAIRS, DOCS)
    path = tmp_path / "words.json"
    embedding.save_words(model, path, inputs=embedding.training_inputs())
    back = embedding.load_words(path)
    assert back is not None and back.words == model.words and back.documents(DOCS) == model.documents(DOCS)
    assert "other question tables" not in caplog.text
    embedding.save_words(model, path, inputs="something else")
    assert embedding.load_words(path) is not None and "other question tables" in caplog.text
    path.write_text("not json", encoding="utf-8")
    assert embedding.load_words(path) is None and "Traceback" not in caplog.text


def test_no_documents_no_model():
    assert learn([(["gain"], 0)], [[]]) == ({}, [None])


def test_the_build_writes_the_model_and_search_reads_it(store):
    eng = engine_for(store)
    model = eng.info.embedding
    assert model is not None and len(model.doc_vectors) == eng.postings.doc_count * model.dim
    assert "topdeck" in model.words       # a word players use, learned from the real tables


@pytest.mark.parametrize("query, answers", [
    # the rule's own words are "Curse (purple frame)" and "Victory": the card types, not the scoring
    ("does a curse count as a victory card", {"i-reading-a-card-types#p8", "index:curse-card-type"}),
    # Squire's when-trash ruling, not Chapel's. Ranked 7th while the ruling showed a lost symbol where its cost
    # symbol was (the index read the "[symbol lost]" marker as two words of the ruling); #33 restored it ("even
    # one with Potion in its cost": Familiar and Scrying Pool), and no lost-symbol marker is indexed (#34)
    ("squire trashed by chapel", {"squire#r2"}),
    # Scheme's ruling, or the FAQ saying the same (a later ability set up once per play, so King's Court
    # sets it up three times); ranked 4th with the ranker of issue #13, back in the first three since #34
    ("KC scheme", {"scheme#r1", "faq-9-3#p1"}),
])
def test_players_wording_finds_the_passage_among_its_neighbours(store, query, answers):
    """Each was out of the first three before the embedding (not in the first ten, 6th and 4th)."""
    keys = [r["key"] for r in search(store, query, 10)["results"][:3]]
    assert answers & set(keys), keys


# German players' words for the same passages ("oben" topdeck, "nehmen" gain, "entsorgen" trash), as the German
# question tables give them (corpus/data/rule-questions/german-*.csv).
GERMAN_PAIRS = [
    (["oben", "nehmen"], 0), (["nehmen", "oben", "karte"], 0),
    (["hand", "nehmen"], 1), (["nehmen", "hand", "karte"], 1),
    (["entsorgen"], 2), (["entsorgen", "karte"], 2),
]


def test_german_questions_teach_their_own_words_and_leave_every_english_vector_as_it_was(tmp_path):
    """Learned together, the German questions pulled the passage vectors towards their words and English held-out
    questions lost two points; learned after, with everything else held still, English reads exactly as before."""
    english = embedding.learn_words(PAIRS, DOCS)
    both = embedding.learn_words(PAIRS, DOCS, german=GERMAN_PAIRS)
    n = len(english.words)
    assert both.words[:n] == english.words
    assert {"de:oben", "de:nehmen", "de:entsorgen"} <= set(both.words[n:])
    assert (both.question[:n] == english.question).all() and (both.passage[:n] == english.passage).all()
    assert both.documents(DOCS) == english.documents(DOCS)
    embedding.write(tmp_path, both.question_words(), both.documents(DOCS))
    model = embedding.load(tmp_path, len(DOCS))
    near = model.scores(embedding.as_german(["oben", "nehmen"]), [0, 1, 2])
    assert max(near, key=near.get) == 0, near
    near = model.scores(embedding.as_german(["entsorgen"]), [0, 1, 2])
    assert max(near, key=near.get) == 2, near
    assert model.scores(["oben", "nehmen"], [0, 1, 2]) == {}      # an English question never reads a German vector
