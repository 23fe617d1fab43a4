"""The learned order's model (app/search/scorer.py): what it can learn, and the file it is kept in."""
from __future__ import annotations

import json
import logging

import numpy as np
import pytest

from app.search import rerank, scorer

FEATURES = ("answer_like", "question_kind", "noise")


def _questions(n: int, seed: int) -> list[scorer.Question]:
    """Synthetic questions whose answer depends on a combination of features. Each question has four
    candidates; ``question_kind`` is the same for all of them (a property of the question, like "names a
    card"), and the answer is the candidate whose ``answer_like`` equals it. One weight per feature cannot
    rank that: the question's kind adds the same to every candidate, so the sign of ``answer_like`` would
    have to flip from question to question."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        kind = float(rng.integers(0, 2))
        like = np.array([0.0, 1.0, 0.0, 1.0])
        rows = np.column_stack([like, np.full(4, kind), rng.normal(0, 1, 4)])
        good = like == kind          # two candidates answer each question
        out.append(scorer.Question(rows, good))
    return out


def _top1(model: scorer.Model, questions: list[scorer.Question]) -> float:
    return float(np.mean([q.good[int(np.argmax(model.scores(q.rows)))] for q in questions]))


def test_the_hidden_layer_learns_what_one_weight_per_feature_cannot():
    train, fresh = _questions(300, 1), _questions(300, 2)
    deep = scorer.learn(train, FEATURES, epochs=300)
    flat = scorer.learn(train, FEATURES, hidden=0, epochs=300)
    assert _top1(deep, fresh) > 0.95
    assert _top1(flat, fresh) < 0.7


def test_the_same_data_gives_the_same_model():
    train = _questions(50, 3)
    a = scorer.learn(train, FEATURES, epochs=50)
    b = scorer.learn(train, FEATURES, epochs=50)
    assert np.array_equal(a.hidden, b.hidden) and np.array_equal(a.linear, b.linear)


def test_questions_that_teach_nothing_are_refused():
    rows = np.zeros((3, 3))
    with pytest.raises(ValueError, match="both an answer and a non-answer"):
        scorer.learn([scorer.Question(rows, np.ones(3, dtype=bool)), scorer.Question(rows, np.zeros(3, dtype=bool))],
                     FEATURES)


def test_a_written_model_scores_the_same_when_read_back(tmp_path):
    model = scorer.learn(_questions(60, 4), FEATURES, epochs=60)
    path = tmp_path / "ranker.json"
    scorer.write(model, path, {"questions": 60})
    back = scorer.load(path, FEATURES)
    rows = np.random.default_rng(5).normal(0, 1, (20, 3))
    assert back is not None
    np.testing.assert_allclose(back.scores(rows), model.scores(rows), atol=1e-4)
    assert np.array_equal(np.argsort(-back.scores(rows)), np.argsort(-model.scores(rows)))


def _written(tmp_path, **change):
    model = scorer.learn(_questions(20, 6), FEATURES, hidden=2, epochs=5)
    path = tmp_path / "ranker.json"
    scorer.write(model, path)
    data = json.loads(path.read_text())
    for k, v in change.items():
        if v is None:
            data.pop(k)
        else:
            data[k] = v
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("change, says", [
    ({"format": None}, "format 1"),                             # a linear model's file from before the hidden layer
    ({"features": ["answer_like", "noise", "question_kind"]}, "other features"),
    ({"linear": [1.0, 2.0]}, "'linear' is (2,)"),
    ({"hidden": [[0.1, 0.2], [0.1], [0.3, 0.4]]}, "'hidden' is not an array"),
    ({"hidden": [0.1, 0.2, 0.3]}, "'hidden' is (3,)"),
    ({"out": [1.0, 2.0, 3.0]}, "'out' is (3,)"),
    ({"bias": None}, "'bias' missing"),
    ({"mean": [0.0, None, 0.0]}, "'mean' has a value that is not finite"),
    ({"scale": [1.0, 0.0, 1.0]}, "'scale' has a value that is not positive"),
    ({"out": "abc"}, "'out' is not an array"),
])
def test_a_broken_or_foreign_model_file_is_refused_and_logged(tmp_path, caplog, change, says):
    path = _written(tmp_path, **change)
    with caplog.at_level(logging.WARNING, logger="app.search.scorer"):
        assert scorer.load(path, FEATURES) is None
    assert says in caplog.text and "hand-written order" in caplog.text


def test_a_file_that_is_not_json_is_refused_and_logged(tmp_path, caplog):
    path = tmp_path / "ranker.json"
    path.write_text("{not json")
    with caplog.at_level(logging.WARNING, logger="app.search.scorer"):
        assert scorer.load(path, FEATURES) is None
    assert "not read" in caplog.text


def test_the_committed_model_is_read_for_the_current_features():
    """Search ranks with the learned model, not the fallback: the committed ranker.json matches the code."""
    rerank.load_model.cache_clear()
    model = rerank.load_model()
    assert model is not None and model.features == rerank.FEATURES
    assert model.hidden.shape == (len(rerank.FEATURES), scorer.HIDDEN)
