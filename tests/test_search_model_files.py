"""Model files never stop search, and committed models are never older than what they were learned from.

The document vectors ``rulings build`` writes beside the index (embedding.py) follow model_files.py's
contract: a file this code did not write, a missing one or an oversized one never stops search; the
feature is then 0, and the file and what is wrong with it are logged once, without a traceback.
The learned models committed beside the code (``ranker.json``, ``embedding-words.json``; issue #34: learned
parts are data, not build steps) record the digest of their inputs: a test fails when the question tables
or the tuning questions changed and the model was not retrained."""
from __future__ import annotations

import json

import pytest

from app.search import embedding, rerank


def _embedding_file(**fields) -> str:
    return json.dumps({"format": 1, "dim": embedding.DIM, "words": [], "docs": 0, "word_vectors": "",
                       "doc_vectors": "", **fields})


BROKEN = [
    "not json", json.dumps([1, 2]),
    _embedding_file(format=99),
    _embedding_file(docs=1),
    _embedding_file(words=["a"]),
    _embedding_file(word_vectors="!!"),
    _embedding_file(doc_vectors=7),
    _embedding_file(words=[3]),
]


@pytest.mark.parametrize("content", BROKEN)
def test_a_model_file_this_code_did_not_write_is_ignored_and_logged(tmp_path, content, caplog):
    (tmp_path / embedding.FILE).write_text(content, encoding="utf-8")
    assert embedding.load(tmp_path, 0) is None
    assert [r.levelname for r in caplog.records] == ["WARNING"]
    assert str(tmp_path / embedding.FILE) in caplog.text and "Traceback" not in caplog.text


def test_a_missing_or_oversized_model_file_is_ignored(tmp_path, monkeypatch):
    assert embedding.load(tmp_path, 0) is None
    embedding.write(tmp_path, {}, [])
    assert embedding.load(tmp_path, 0) is not None
    monkeypatch.setattr(embedding, "MAX_BYTES", 10)
    assert embedding.load(tmp_path, 0) is None


def test_the_committed_word_vectors_were_learned_from_todays_question_tables():
    data = json.loads(embedding.COMMITTED.read_text(encoding="utf-8"))
    assert data["inputs"] == embedding.training_inputs(), "tables changed: run python3 bench/train_embedding.py"
    assert embedding.load_words() is not None


def test_the_committed_ranker_was_trained_on_todays_questions_and_features():
    data = json.loads(rerank.WEIGHTS_FILE.read_text(encoding="utf-8"))
    assert data["features"] == list(rerank.FEATURES)
    assert data["inputs"] == rerank.training_inputs(), "questions changed: run python3 bench/train_ranker.py"
    assert rerank.load_model() is not None


def test_the_rankers_digest_leaves_the_german_tables_out(tmp_path):
    """The ranker never asks the German tables' questions (they teach only the word vectors of German questions
    naming no card), so a German row added does not make it stale; an English row does."""
    from app.corpus.rule_questions import GERMAN_PREFIX
    from app.search.model_files import inputs_digest

    (tmp_path / "rules.csv").write_text("key,question\nii-game-end,when does the game end\n", encoding="utf-8")
    before = inputs_digest([tmp_path], skip=GERMAN_PREFIX)
    (tmp_path / f"{GERMAN_PREFIX}rules.csv").write_text("key,question\nii-game-end,wann endet das spiel\n",
                                                        encoding="utf-8")
    assert inputs_digest([tmp_path], skip=GERMAN_PREFIX) == before != inputs_digest([tmp_path])
    (tmp_path / "more.csv").write_text("key,question\nii-game-end,is the game over now\n", encoding="utf-8")
    assert inputs_digest([tmp_path], skip=GERMAN_PREFIX) != before
