"""General English: word vectors learned from far more text than ours, for the wording the question
tables never taught.

``embedding.py`` learns what players mean from the project's own ~8,000 table questions, so a question
in words no table row used ("my pile ran dry", "stack the deck") is placed by its other words only. The
WordLlama package ships a table of 32,000 sub-word vectors (256 dimensions, MIT licence, ``wordllama``
on PyPI) distilled from large language models' token embeddings: mean-pooled, they place a question near
the passages that say the same thing in other words. Here they are one more re-ranking feature (``general``
in ``rerank.py``), the cosine of the question and each candidate, not a filter.

Only the package's two data files are read (the vectors and the tokenizer), with ``safetensors`` and
``tokenizers``; its own loader is not used: it looks for the tokenizer under a folder name the wheel
does not ship and would try to download it. ``rulings build`` writes every document's vector next to
the index (``general.json``), so search pools one question per query; without the package or the file
the feature is 0 for every candidate and search works as before (logged once).

Measured (bench/train_ranker.py's docstring has the figures): a small, steady gain on every sample of the
table hold-out, questions and whole passages held out.
"""
from __future__ import annotations

import json
import logging
import threading
from array import array
from pathlib import Path
from typing import Sequence

import numpy as np

from app.search.model_files import Unusable, decode_floats, encode_floats, read_json

log = logging.getLogger(__name__)

FILE = "general.json"
FORMAT = 1
DIM = 256
MAX_BYTES = 64 * 1024 * 1024
# A document's text past this many characters adds nothing to its mean and costs tokenizing time.
MAX_CHARS = 4000
# The tokenizer's special tokens (unknown, start, end) carry no meaning: they are left out of the mean.
_SPECIAL = 2

_WEIGHTS = "weights/l2_supercat_256.safetensors"
_TOKENIZER = "tokenizers/l2_supercat_tokenizer_config.json"

_lock = threading.Lock()
_loaded: list = []          # [Words or None]: read once per process, by the first caller


class Words:
    """The package's sub-word vectors (kept as shipped, float16: half the memory of each worker; a text's
    rows are widened to float32 before they are averaged) and the tokenizer that splits text into them."""

    def __init__(self, vectors: np.ndarray, tokenizer) -> None:
        self.vectors = vectors
        self.tokenizer = tokenizer

    def vector(self, text: str) -> np.ndarray | None:
        """The text's unit vector (the mean of its sub-words'), or None for text without one."""
        if not text.strip():
            return None         # the tokenizer gives blank text a space token, which means nothing
        ids = [i for i in self.tokenizer.encode(text[:MAX_CHARS]).ids if i > _SPECIAL]
        if not ids:
            return None
        v = self.vectors[ids].astype(np.float32).mean(axis=0)
        n = float(np.linalg.norm(v))
        return v / n if n else None

    def matrix(self, texts: Sequence[str]) -> np.ndarray:
        """One unit row per text (zeros for a text without words)."""
        out = np.zeros((len(texts), self.vectors.shape[1]), dtype=np.float32)
        for i, t in enumerate(texts):
            v = self.vector(t)
            if v is not None:
                out[i] = v
        return out


def words() -> Words | None:
    """The package's vectors, read once per process; None (logged once) when it is not installed."""
    with _lock:
        if not _loaded:
            _loaded.append(_read_package())
        return _loaded[0]


def _read_package() -> Words | None:
    try:
        import wordllama
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer
    except ImportError as exc:
        log.warning("general English vectors unavailable (%s); searching without the 'general' feature", exc)
        return None
    root = Path(wordllama.__file__).parent
    try:
        vectors = load_file(str(root / _WEIGHTS))["embedding.weight"]
        tokenizer = Tokenizer.from_file(str(root / _TOKENIZER))
    except Exception as exc:    # a damaged install: tokenizers raises plain Exception for a bad file
        log.warning("%s: unreadable general English vectors (%s); searching without the 'general' feature",
                    root, type(exc).__name__)
        return None
    if vectors.ndim != 2 or vectors.shape[1] != DIM:
        log.warning("%s: general English vectors of shape %s, not (n, %d); not used", root, vectors.shape, DIM)
        return None
    return Words(vectors, tokenizer)


class Documents:
    """Every document's unit vector in the general space, by document number."""

    def __init__(self, matrix: np.ndarray, words: Words) -> None:
        self.matrix = matrix
        self.words = words

    def cosines(self, question: str, docs: Sequence[int]) -> dict[int, float]:
        """Each of ``docs``' cosine with the question's text; none for a question without words."""
        u = self.words.vector(question) if docs else None
        if u is None:
            return {}
        return dict(zip(docs, (self.matrix[list(docs)] @ u).tolist()))


def write(out_dir: Path, texts: Sequence[str]) -> bool:
    """Write each document's vector (``texts`` by document number); False when the package is missing."""
    model = words()
    if model is None:
        return False
    flat = array("f", model.matrix(texts).ravel().tobytes())
    data = {"format": FORMAT, "dim": DIM, "docs": len(texts), "vectors": encode_floats(flat)}
    (Path(out_dir) / FILE).write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")
    return True


def load(search_dir: Path, doc_count: int) -> Documents | None:
    """The build's document vectors with the package's words, or None (logged once per index opened).
    The file is checked first: the package's vectors are not read for an index without it."""
    path = Path(search_dir) / FILE
    try:
        data = read_json(path, MAX_BYTES, "general English vectors")
        if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("dim") != DIM:
            raise Unusable("not general English vectors of this version")
        if data.get("docs") != doc_count:
            raise Unusable(f"does not match the index's {doc_count} documents")
        try:
            flat = np.frombuffer(decode_floats(data["vectors"]), dtype=np.float32)
        except (KeyError, TypeError, ValueError):
            raise Unusable("malformed vectors") from None
        if flat.size != doc_count * DIM:
            raise Unusable("vectors of the wrong size")
    except Unusable as exc:
        log.warning("%s: %s; searching without the 'general' feature (rulings build writes it)", path, exc)
        return None
    model = words()
    return Documents(flat.reshape(doc_count, DIM), model) if model is not None else None
