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

The raw cosine knows English but not the game: "topdeck" and "put it on your deck" are near, but so are
every two passages about drawing. ``learn_map`` adapts the space to the tables: one 256 x 256 matrix,
applied to question and passage alike, trained as ``embedding.py`` trains its vectors (each table question
nearer its own passage than every other passage the tables answer). It starts as the identity, so it
begins as the plain cosine, and since it maps every sub-word vector, it also moves words no table row
used, which ``embedding.py``'s own vectors cannot place at all. Both cosines are features; the mapped one
is also fused with the embedding's order (``query.py``).

Measured (bench/train_ranker.py's docstring has the figures): a small, steady gain on every sample of the
table hold-out, questions and whole passages held out, for the plain cosine, and another for the map.
"""
from __future__ import annotations

import json
import logging
import threading
from array import array
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from app.search.model_files import Unusable, decode_floats, encode_floats, read_json

log = logging.getLogger(__name__)

FILE = "general.json"
FORMAT = 2
DIM = 256
# The map's training (``learn_map``). Ten passes and 25 measured the same on the table hold-out, as did a
# rate of 0.001 and 0.003, and a second matrix for the passages' side; the scale is embedding.py's.
MAP_EPOCHS = 10
MAP_RATE = 0.003
MAP_BATCH = 256
MAP_SCALE = 15.0
MAP_SEED = 0
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


@dataclass(frozen=True)
class Question:
    """A question's unit vector in the general space (``plain``) and what a document's vector is multiplied
    by for their cosine through the learned map (``mapped``, see ``Documents``)."""

    plain: np.ndarray
    mapped: np.ndarray


class Documents:
    """Every document's unit vector in the general space, by document number, and the map learned from the
    question tables (``learn_map``).

    A mapped cosine is (d M) . (q M) / (|d M| |q M|) = d . (M M^T q) / (|d M| |q M|): with each document's
    |d M| computed once here, a question costs two matrix-vector products and the candidates one more,
    with no matrix product per query (which BLAS would spread over every core of a worker) and no second
    copy of the vectors."""

    def __init__(self, matrix: np.ndarray, words: Words, mapping: np.ndarray) -> None:
        self.matrix = matrix
        self.words = words
        self.mapping = mapping
        norms = np.linalg.norm(matrix @ mapping, axis=1)
        self.inverse_norms = np.divide(1.0, norms, out=np.zeros_like(norms), where=norms > 0)

    def question(self, text: str) -> Question | None:
        """The question's two vectors, or None for a question without words. ``mapped`` is M M^T q over
        |q M|: its dot product with a document over |d M| is their mapped cosine."""
        u = self.words.vector(text)
        if u is None:
            return None
        through = u @ self.mapping
        norm = float(np.linalg.norm(through))
        return Question(u, (self.mapping @ through) / norm if norm else np.zeros_like(u))

    def cosines(self, question: Question, docs: Sequence[int]) -> dict[int, float]:
        """Each of ``docs``' cosine with the question in the general space."""
        return dict(zip(docs, (self.matrix[list(docs)] @ question.plain).tolist())) if docs else {}

    def mapped_cosines(self, question: Question, docs: Sequence[int]) -> dict[int, float]:
        """Each of ``docs``' cosine with the question through the learned map (0 for a document without
        a vector)."""
        if not docs:
            return {}
        rows = list(docs)
        return dict(zip(docs, ((self.matrix[rows] @ question.mapped) * self.inverse_norms[rows]).tolist()))


def learn_map(questions: np.ndarray, answers: Sequence[int], docs: np.ndarray,
              epochs: int = MAP_EPOCHS, seed: int = MAP_SEED) -> np.ndarray:
    """The square matrix that, applied to both sides, puts each question (``questions``' unit rows) nearer
    the document that answers it (``answers``: its row of ``docs``) than every other document some question
    answers: softmax cross-entropy over those documents, with Adam, as ``embedding.learn`` trains its
    vectors. A document no question answers is left out of the softmax for the reason given there.
    Starts from the identity: without questions the map changes nothing."""
    from app.search.embedding import Adam, cosine_softmax_gradients   # the build's training, as embedding.py's

    mapping = np.eye(docs.shape[1], dtype=np.float32)
    keep = [i for i, d in enumerate(answers) if docs[d].any() and questions[i].any()]
    if not keep:
        return mapping
    answered = sorted({answers[i] for i in keep})
    column = {d: c for c, d in enumerate(answered)}
    q_all = questions[keep].astype(np.float32)
    target = np.array([column[answers[i]] for i in keep], dtype=np.int64)
    d_all = docs[answered].astype(np.float32)
    rng = np.random.default_rng(seed)
    adam = Adam([mapping], rate=MAP_RATE)
    for _ in range(epochs):
        order = rng.permutation(len(q_all))
        for b in range(0, len(order), MAP_BATCH):
            batch = order[b:b + MAP_BATCH]
            q_in = q_all[batch]
            g_q, g_d = cosine_softmax_gradients(q_in @ mapping, d_all @ mapping, target[batch], MAP_SCALE)
            adam.step([q_in.T @ g_q + d_all.T @ g_d])       # one map on both sides: the two gradients add
    return mapping


def write(out_dir: Path, texts: Sequence[str], asked: Sequence[tuple[str, int]] = ()) -> bool:
    """Write each document's vector (``texts`` by document number) and the map learned from the table
    questions ``asked`` (question, the number of the document it was written for); False when the package
    is missing."""
    model = words()
    if model is None:
        return False
    matrix = model.matrix(texts)
    questions = model.matrix([q for q, _ in asked])
    mapping = learn_map(questions, [d for _, d in asked], matrix)
    data = {"format": FORMAT, "dim": DIM, "docs": len(texts),
            "vectors": encode_floats(array("f", matrix.ravel().tobytes())),
            "map": encode_floats(array("f", mapping.astype(np.float32).ravel().tobytes()))}
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
        flat = _floats(data, "vectors", doc_count * DIM)
        mapping = _floats(data, "map", DIM * DIM)
    except Unusable as exc:
        log.warning("%s: %s; searching without the 'general' feature (rulings build writes it)", path, exc)
        return None
    model = words()
    if model is None:
        return None
    return Documents(flat.reshape(doc_count, DIM), model, mapping.reshape(DIM, DIM))


def _floats(data: dict, key: str, size: int) -> np.ndarray:
    """The file's ``key``: ``size`` float32 values as ``encode_floats`` wrote them, or Unusable saying why."""
    try:
        values = np.frombuffer(decode_floats(data[key]), dtype=np.float32)
    except (KeyError, TypeError, ValueError):
        raise Unusable(f"malformed {key}") from None
    if values.size != size:
        raise Unusable(f"{key} of the wrong size")
    return values
