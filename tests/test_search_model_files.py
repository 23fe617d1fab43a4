"""The models ``rulings build`` writes beside the index (translation.py, embedding.py, general.py) share one contract
(model_files.py): a file this code did not write, a missing one or an oversized one never stops search.
The model's feature is then 0, and the file and what is wrong with it are logged once, without a traceback."""
from __future__ import annotations

import json
from array import array

import numpy as np
import pytest

from app.search import embedding, general, translation
from app.search.model_files import encode_floats


def _embedding_file(**fields) -> str:
    return json.dumps({"format": 1, "dim": embedding.DIM, "words": [], "docs": 0, "word_vectors": "",
                       "doc_vectors": "", **fields})


_IDENTITY = encode_floats(array("f", np.eye(general.DIM, dtype=np.float32).ravel().tobytes()))


def _general_file(**fields) -> str:
    """A well-formed general.json with no documents, but for ``fields``."""
    return json.dumps({"format": general.FORMAT, "dim": general.DIM, "docs": 0, "vectors": "", "map": _IDENTITY,
                       **fields})


BROKEN = [
    (translation, "not json"), (translation, json.dumps([1, 2])),
    (translation, json.dumps({"format": 99, "table": {}, "docs": []})),
    (translation, json.dumps({"format": 1, "table": {}, "docs": ["a"]})),
    (translation, json.dumps({"format": 1, "table": {"a": 3}, "docs": []})),
    (embedding, "not json"), (embedding, json.dumps([1, 2])),
    (embedding, _embedding_file(format=99)),
    (embedding, _embedding_file(docs=1)),
    (embedding, _embedding_file(words=["a"])),
    (embedding, _embedding_file(word_vectors="!!")),
    (embedding, _embedding_file(doc_vectors=7)),
    (embedding, _embedding_file(words=[3])),
    (general, "not json"), (general, json.dumps([1, 2])),
    (general, _general_file(format=99)),
    (general, _general_file(format=1)),            # written before the learned map: rebuild
    (general, _general_file(dim=64)),
    (general, _general_file(docs=1)),
    (general, _general_file(vectors="!!")),
    (general, _general_file(vectors="AAAA")),      # one float where none belong
    (general, _general_file(vectors=None)),
    (general, _general_file(map=None)),
    (general, _general_file(map="!!")),
    (general, _general_file(map="AAAA")),           # one float, not DIM x DIM
]


def test_the_well_formed_general_file_these_cases_break_is_read(tmp_path):
    (tmp_path / general.FILE).write_text(_general_file(), encoding="utf-8")
    assert general.load(tmp_path, 0) is not None


@pytest.mark.parametrize("model, content", BROKEN, ids=[m.FILE for m, _ in BROKEN])
def test_a_model_file_this_code_did_not_write_is_ignored_and_logged(tmp_path, model, content, caplog):
    (tmp_path / model.FILE).write_text(content, encoding="utf-8")
    assert model.load(tmp_path, 0) is None
    assert [r.levelname for r in caplog.records] == ["WARNING"]
    assert str(tmp_path / model.FILE) in caplog.text and "Traceback" not in caplog.text


@pytest.mark.parametrize("model, write_empty", [
    (translation, lambda d: translation.write(d, {}, [])),
    (embedding, lambda d: embedding.write(d, {}, [])),
    (general, lambda d: general.write(d, [])),
], ids=["translation", "embedding", "general"])
def test_a_missing_or_oversized_model_file_is_ignored(tmp_path, monkeypatch, model, write_empty):
    assert model.load(tmp_path, 0) is None
    write_empty(tmp_path)
    assert model.load(tmp_path, 0) is not None
    monkeypatch.setattr(model, "MAX_BYTES", 10)
    assert model.load(tmp_path, 0) is None
