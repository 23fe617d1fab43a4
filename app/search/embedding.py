"""Questions and the passages that answer them, placed near each other: word vectors learned from the
question tables.

BM25 sees only the words a question shares with a passage. Most rules questions that miss the first three
do so because a
sibling paragraph of the same section, or another ruling of the same card, shares the question's
words. This model is trained to tell them apart: each of the tables' ~8,000 questions must score its
own passage above every other passage of the collection (a softmax over all of them, so the siblings
and the same card's rulings are always among the negatives), as in StarSpace (Wu et al. 2018).

A question is the idf-weighted sum of its words' question vectors; a passage is the tf-idf-weighted sum
of its words' passage vectors; the score is their cosine. Both sides start from one shared random
vector per word, so before training a question is near the passages that share its words, and training
moves players' words towards the passages they ask about.

The model is data, not a build step (issue #34): ``bench/train_embedding.py`` learns the word vectors from
the tables (numpy and scipy, a minute or more) and commits them (``embedding-words.json``, with the digest of
the tables); ``rulings build`` only applies them to the documents (a tf-idf-weighted sum per document, under
a second) and writes the documents' vectors next to the index. A bench that removes table rows from a copy
of the store learns its own vectors from the copy (``build_search_index(..., learn=True)``), so its model
never saw them. Search reads the vectors in plain Python: one question vector per query, one dot product per
candidate: a re-ranking feature (``rerank.py``) and five extra
candidates (``Nearest``). Measured: ``bench/ablation.py`` (issue #34: removing the feature costs 0.016 of
recall@3 on held-out sets 2-8 pooled).

German players' words are learned apart (``_learn_german``): after the English training, from the German question
tables, with every English vector held still, under a ``de:`` prefix that only a German question naming no card
reads (``as_german``). An English question and every document get exactly the vectors the English tables made.
"""
from __future__ import annotations

import json
import logging
import math
from array import array
from collections import Counter
from dataclasses import dataclass
from operator import mul
from pathlib import Path
from typing import Iterable, Sequence

from app.search.model_files import Unusable, decode_floats, encode_floats, read_json

log = logging.getLogger(__name__)

FILE = "embedding.json"
# The committed model (bench/train_embedding.py writes it; rulings build applies it to the documents).
COMMITTED = Path(__file__).with_name("embedding-words.json")
WORDS_FORMAT = 1
FORMAT = 1
# Vector size: 32 measured a little worse on the table hold-out, 128 no better than 64 and twice the file.
DIM = 64
# Passes over the table; the loss still falls slowly after 20, the held-out figures do not rise.
EPOCHS = 20
BATCH = 256
RATE = 0.01
# Cosines are multiplied by this before the softmax: a cosine's range is too narrow to tell
# one passage from 5,000 others at scale 1.
SCALE = 15.0
SEED = 0
# A word seen fewer times than this (in passages and questions together) keeps no vector.
MIN_COUNT = 2
MAX_BYTES = 64 * 1024 * 1024
# The German tables' training (``_learn_german``): a few hundred questions, so smaller batches (as many passes).
GERMAN_BATCH = 64
# A German word's vector is kept under this prefix, so an English question never reads it (``as_german``).
GERMAN = "de:"


def as_german(words: Sequence[str]) -> list[str]:
    """A German question's words as the model reads them: its German words' own vectors, and the English
    vectors of the words the two languages share."""
    return [*(GERMAN + w for w in words), *words]


@dataclass
class Embedding:
    """Question-side word vectors (idf already in them) and each document's unit vector."""

    words: dict[str, int]       # word -> its row in ``word_vectors``
    word_vectors: array         # len(words) * DIM floats
    doc_vectors: array          # doc_count * DIM floats; a document without words is all zeros
    dim: int = DIM
    has_vector: bytes = b""     # by document number: 1 when it has a vector

    def __post_init__(self) -> None:
        if not self.has_vector:
            dim, vecs = self.dim, self.doc_vectors
            self.has_vector = bytes(1 if any(vecs[d * dim:(d + 1) * dim]) else 0 for d in range(len(vecs) // dim))

    def question(self, words: Iterable[str]) -> list[float] | None:
        """The question's unit vector, or None when none of its words has one."""
        dim, vecs = self.dim, self.word_vectors
        u = [0.0] * dim
        seen = False
        for w in dict.fromkeys(words):
            i = self.words.get(w)
            if i is not None:
                seen = True
                row = vecs[i * dim:(i + 1) * dim]
                u = [a + b for a, b in zip(u, row)]
        norm = math.sqrt(sum(x * x for x in u)) if seen else 0.0
        return [x / norm for x in u] if norm else None

    def scores(self, words: Sequence[str], docs: Iterable[int]) -> dict[int, float]:
        """Each document's cosine with the question; a document without a vector has none."""
        u = self.question(words)
        return self.cosines(u, docs) if u is not None else {}

    def cosines(self, u: Sequence[float], docs: Iterable[int]) -> dict[int, float]:
        """Each document's cosine with the unit vector ``u`` (a question's, ``question``)."""
        dim, vecs, has = self.dim, self.doc_vectors, self.has_vector
        return {d: sum(map(mul, u, vecs[d * dim:(d + 1) * dim])) for d in docs if 0 <= d < len(has) and has[d]}


class Nearest:
    """The documents of a group (rule passages and FAQ answers) nearest to a question's vector: candidates
    for the answers BM25 cannot fetch because they share none of the question's rarer words.

    One matrix product over the group's vectors per question (numpy, as BM25's candidate step is).
    """

    def __init__(self, model: Embedding, group: Iterable[int]) -> None:
        import numpy as np

        has = model.has_vector
        self.docs = np.array(sorted(d for d in group if 0 <= d < len(has) and has[d]), dtype=np.int64)
        every = np.frombuffer(model.doc_vectors, dtype=np.float32).reshape(-1, model.dim)
        self.matrix = every[self.docs] if len(self.docs) else every[:0]

    def top(self, u: Sequence[float], k: int, skip: set[int] | frozenset[int]) -> list[int]:
        """The ``k`` nearest documents to the unit vector ``u`` that are not in ``skip``, nearest first."""
        import numpy as np

        if k <= 0 or not len(self.docs) or not u:
            return []
        cos = self.matrix @ np.asarray(u, dtype=np.float32)
        want = min(len(cos), k + len(skip))
        best = np.argpartition(-cos, want - 1)[:want]
        out = [int(d) for d in self.docs[best[np.lexsort((self.docs[best], -cos[best]))]] if int(d) not in skip]
        return out[:k]


@dataclass
class WordVectors:
    """The trained model: each word's question-side vector (its idf multiplied in), its passage-side vector
    and its idf. A document's vector is made from its words by ``documents``, so the same model serves any
    build of the corpus; ``bench/train_embedding.py`` learns it and commits it (``COMMITTED``)."""

    words: list[str]
    question: "np.ndarray"      # (V, DIM)
    passage: "np.ndarray"       # (V, DIM)
    idf: "np.ndarray"           # (V,)

    def question_words(self) -> dict[str, list[float]]:
        return {w: [round(float(x), 6) for x in self.question[i]] for i, w in enumerate(self.words)}

    def documents(self, doc_words: Sequence[Sequence[str]]) -> list[list[float] | None]:
        """Each document's unit vector (tf-idf-weighted sum of its words' passage vectors); None without words."""
        import numpy as np

        index = {w: i for i, w in enumerate(self.words)}
        out: list[list[float] | None] = [None] * len(doc_words)
        live = [d for d, ws in enumerate(doc_words) if ws]
        if not live or not self.words:
            return out
        rows = [_passage_row(doc_words[d], index, self.idf) for d in live]
        vectors = _rows(rows, len(self.words)) @ self.passage
        norms = np.linalg.norm(vectors, axis=1)
        for d, v, n in zip(live, vectors, norms):
            if n > 0:
                out[d] = [float(x) for x in v / n]
        return out


def learn(pairs: Sequence[tuple[Sequence[str], int]], doc_words: Sequence[Sequence[str]],
          epochs: int = EPOCHS, seed: int = SEED) -> tuple[dict[str, list[float]], list[list[float] | None]]:
    """Word vectors for questions and each document's unit vector, from (question words, document
    number) pairs and every document's words (empty for one not scored): ``learn_words`` then
    ``WordVectors.documents``, as ``rulings build`` applies the committed model."""
    model = learn_words(pairs, doc_words, epochs, seed)
    return model.question_words(), model.documents(doc_words)


@dataclass
class TrainingProblem:
    """What the word vectors are fitted to: the vocabulary with its idf, each table question as idf-weighted
    word rows, the passages some question answers as tf-idf-weighted word rows, and each question's passage
    (its column). ``learn_words`` fits it with minibatch Adam; bench/embedding_optimizer.py with scipy."""

    vocab: list[str]
    idf: "np.ndarray"               # (V,)
    questions: list[dict[int, float]]
    docs: object                    # scipy sparse (answered passages, V)
    target: "np.ndarray"            # (questions,) column in ``docs``
    answered: list[int]             # each column's passage (its position among the documents with words)


def training_problem(pairs: Sequence[tuple[Sequence[str], int]],
                     doc_words: Sequence[Sequence[str]]) -> TrainingProblem | None:
    """The problem for (question words, document number) pairs and every document's words; None when no
    document has words."""
    import numpy as np

    live = [d for d, ws in enumerate(doc_words) if ws]
    if not live:
        return None
    pos = {d: i for i, d in enumerate(live)}
    pairs = [(list(dict.fromkeys(q)), pos[d]) for q, d in pairs if q and d in pos]
    counts = Counter(w for d in live for w in set(doc_words[d]))
    counts.update(w for q, _ in pairs for w in q)
    vocab = sorted(w for w, c in counts.items() if c >= MIN_COUNT)
    index = {w: i for i, w in enumerate(vocab)}
    df = Counter(w for d in live for w in set(doc_words[d]))
    idf = np.array([math.log((len(live) + 1) / (df.get(w, 0) + 1)) + 1 for w in vocab], dtype=np.float32)

    def question_row(ws: Sequence[str]) -> dict[int, float]:
        return {index[w]: float(idf[index[w]]) for w in ws if w in index}

    questions = [question_row(q) for q, _ in pairs]
    keep = [i for i, r in enumerate(questions) if r]
    # The softmax runs over the passages some question answers. A passage no question answers would only
    # ever be a negative, pushed away from every question, and then lose to any passage the tables cover;
    # left out, it gets its vector from its words, as a passage whose questions were held out does.
    answered = sorted({pairs[i][1] for i in keep})
    column = {p: i for i, p in enumerate(answered)}
    docs = _rows([_passage_row(doc_words[live[p]], index, idf) for p in answered], len(vocab))
    return TrainingProblem(vocab, idf, [questions[i] for i in keep], docs,
                           np.array([column[pairs[i][1]] for i in keep], dtype=np.int64), answered)


def learn_words(pairs: Sequence[tuple[Sequence[str], int]], doc_words: Sequence[Sequence[str]],
                epochs: int = EPOCHS, seed: int = SEED,
                german: Sequence[tuple[Sequence[str], int]] = ()) -> WordVectors:
    """The model (``WordVectors``) trained so that each question is nearer its own passage than every other
    passage some question answers. Slow (a minute or more of numpy and scipy): run by
    ``bench/train_embedding.py``, never by ``rulings build``.

    Minibatch Adam (``Adam``, below): scipy's L-BFGS on the whole table, as the ranker is fitted, measured
    worse on the held-out sets for twice the CPU (``bench/embedding_optimizer.py``, README)."""
    import numpy as np

    problem = training_problem(pairs, doc_words)
    if problem is None:
        return WordVectors([], np.zeros((0, DIM), np.float32), np.zeros((0, DIM), np.float32), np.zeros(0, np.float32))
    vocab, idf, questions, docs, target = (problem.vocab, problem.idf, problem.questions, problem.docs,
                                           problem.target)
    rng = np.random.default_rng(seed)
    start = rng.normal(0.0, 0.1, (len(vocab), DIM)).astype(np.float32)
    asked, passage = start.copy(), start.copy()
    adam = Adam([asked, passage])
    for _ in range(epochs if questions else 0):
        order = rng.permutation(len(questions))
        for b in range(0, len(order), BATCH):
            batch = order[b:b + BATCH]
            rows = _rows([questions[i] for i in batch], len(vocab))
            g_q, g_d = cosine_softmax_gradients(rows @ asked, docs @ passage, target[batch], SCALE)
            adam.step([rows.T @ g_q, docs.T @ g_d])
    model = WordVectors(vocab, (asked * idf[:, None]).astype(np.float32), passage.astype(np.float32), idf)
    return _learn_german(model, german, doc_words, problem.answered, seed) if german else model


def _learn_german(model: WordVectors, pairs: Sequence[tuple[Sequence[str], int]], doc_words: Sequence[Sequence[str]],
                  answered: Sequence[int], seed: int) -> WordVectors:
    """``model`` with question vectors for the words only German questions use, learned from the German tables'
    pairs with every vector of ``model`` held still.

    Learned with the English tables (one training), the German questions pulled the passage vectors towards
    their words and held-out sets 2-8 pooled lost two points of recall@3 (0.886 -> 0.861); held still, an English
    question's vector and every document's are what the English tables alone made them."""
    import numpy as np

    live = [d for d, ws in enumerate(doc_words) if ws]
    pos = {d: i for i, d in enumerate(live)}
    pairs = [(list(dict.fromkeys(q)), pos[d]) for q, d in pairs if q and d in pos]
    known = {w: i for i, w in enumerate(model.words)}
    df = Counter(w for q, _ in pairs for w in q if w not in known)
    new = sorted(w for w, c in df.items() if c >= MIN_COUNT)
    if not new:
        return model
    vocab = [*model.words, *(GERMAN + w for w in new)]
    index = {**known, **{w: len(known) + i for i, w in enumerate(new)}}
    # a German word's idf is over the German questions: it occurs in no passage
    idf = np.concatenate([model.idf, np.array([math.log((len(pairs) + 1) / (df[w] + 1)) + 1 for w in new],
                                              dtype=np.float32)])
    columns = sorted(set(answered) | {p for _, p in pairs})
    column = {p: i for i, p in enumerate(columns)}

    fixed = len(model.words)
    questions = [({index[w]: float(idf[index[w]]) for w in q if w in index}, column[p]) for q, p in pairs]
    questions = [(r, c) for r, c in questions if any(i >= fixed for i in r)]
    passages = _rows([_passage_row(doc_words[live[p]], known, model.idf) for p in columns], fixed) @ model.passage
    rng = np.random.default_rng(seed)
    asked = np.vstack([model.question / model.idf[:, None],
                       rng.normal(0.0, 0.1, (len(new), DIM))]).astype(np.float32)
    target = np.array([c for _, c in questions], dtype=np.int64)
    adam = Adam([asked])
    for _ in range(EPOCHS if questions else 0):
        order = rng.permutation(len(questions))
        for b in range(0, len(order), GERMAN_BATCH):
            batch = order[b:b + GERMAN_BATCH]
            rows = _rows([questions[i][0] for i in batch], len(vocab))
            g_q, _ = cosine_softmax_gradients(rows @ asked, passages, target[batch], SCALE)
            grad = rows.T @ g_q
            grad[:fixed] = 0.0
            adam.step([np.asarray(grad, dtype=np.float32)])
    return WordVectors(vocab, np.vstack([model.question, (asked[fixed:] * idf[fixed:, None]).astype(np.float32)]),
                       np.vstack([model.passage, np.zeros((len(new), DIM), np.float32)]), idf)


def _passage_row(words: Sequence[str], index: dict[str, int], idf) -> dict[int, float]:
    """A passage's words as weights on the vocabulary (``index``): tf-idf, (1 + log count) times idf."""
    c = Counter(w for w in words if w in index)
    return {index[w]: (1 + math.log(n)) * float(idf[index[w]]) for w, n in c.items()}


def _rows(rows: Sequence[dict[int, float]], width: int):
    """Weighted rows as a sparse matrix (scipy: the products with it are most of the training time)."""
    import numpy as np
    from scipy import sparse

    indptr = np.concatenate([[0], np.cumsum([len(r) for r in rows])]).astype(np.int64)
    cols = np.fromiter((c for r in rows for c in r), dtype=np.int64, count=int(indptr[-1]))
    vals = np.fromiter((v for r in rows for v in r.values()), dtype=np.float32, count=int(indptr[-1]))
    return sparse.csr_matrix((vals, cols, indptr), shape=(len(rows), width))


def cosine_softmax_gradients(q_raw, d_raw, target, scale: float):
    """The gradients, with respect to the unnormalised question rows ``q_raw`` and document rows ``d_raw``,
    of the mean softmax cross-entropy over ``scale`` times their cosines, each question's answer being
    column ``target[i]``."""
    import numpy as np

    q, q_norm = _unit(q_raw)
    d, d_norm = _unit(d_raw)
    logits = scale * q @ d.T
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    p[np.arange(len(q)), target] -= 1.0        # softmax cross-entropy's gradient
    p *= scale / len(q)
    g_q, g_d = p @ d, p.T @ q
    g_q = (g_q - q * (q * g_q).sum(axis=1, keepdims=True)) / q_norm
    g_d = (g_d - d * (d * g_d).sum(axis=1, keepdims=True)) / d_norm
    return g_q, g_d


def _unit(m):
    import numpy as np

    norm = np.linalg.norm(m, axis=1, keepdims=True) + 1e-8
    return m / norm, norm


class Adam:
    """Adam (Kingma and Ba 2015) on a list of arrays, updated in place (the minibatch training above; the
    ranker, a full-batch fit, uses scipy's L-BFGS instead). Kept rather than scipy's L-BFGS on the whole
    table, which took twice the CPU for lower held-out figures (``bench/embedding_optimizer.py``, README)."""

    def __init__(self, params, rate: float = RATE):
        import numpy as np

        self.params = params
        self.rate = rate
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.t = 0

    def step(self, grads) -> None:
        import numpy as np

        self.t += 1
        for p, g, m, v in zip(self.params, grads, self.m, self.v):
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            p -= self.rate * (m / (1 - 0.9 ** self.t)) / (np.sqrt(v / (1 - 0.999 ** self.t)) + 1e-8)


def write(out_dir: Path, words: dict[str, list[float]], docs: Sequence[Sequence[float] | None],
          file: str = FILE) -> None:
    """The index's vectors (``file``) as JSON with its vectors as little-endian float32,
    base64: a tenth of the text form."""
    vocab = sorted(words)
    word_vectors = array("f", [x for w in vocab for x in words[w]])
    doc_vectors = array("f", [x for v in docs for x in (v if v is not None else [0.0] * DIM)])
    data = {"format": FORMAT, "dim": DIM, "words": vocab, "docs": len(docs),
            "word_vectors": encode_floats(word_vectors), "doc_vectors": encode_floats(doc_vectors)}
    (Path(out_dir) / file).write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


def load(search_dir: Path, doc_count: int, file: str = FILE) -> Embedding | None:
    """The build's vectors (``file``), or None when the index has none or it is not
    one this code wrote (its feature is then 0 for every candidate). Either is logged once per index
    opened, naming the file and what is wrong, so a broken build is seen."""
    path = Path(search_dir) / file
    try:
        return _read(path, doc_count)
    except Unusable as exc:
        log.warning("%s: %s; searching without this embedding's feature (rulings build writes it)", path, exc)
        return None


def _read(path: Path, doc_count: int) -> Embedding:
    data = read_json(path, MAX_BYTES, "embedding model")
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("dim") != DIM:
        raise Unusable("not an embedding model of this version")
    words = data.get("words")
    if data.get("docs") != doc_count or not isinstance(words, list) or not all(isinstance(w, str) for w in words):
        raise Unusable(f"does not match the index's {doc_count} documents")
    try:
        word_vectors, doc_vectors = decode_floats(data["word_vectors"]), decode_floats(data["doc_vectors"])
    except (KeyError, TypeError, ValueError):
        raise Unusable("malformed vectors") from None
    if len(word_vectors) != len(words) * DIM or len(doc_vectors) != doc_count * DIM:
        raise Unusable("vectors of the wrong size")
    return Embedding({w: i for i, w in enumerate(words)}, word_vectors, doc_vectors)


def training_inputs() -> str:
    """The digest of what the committed model is learned from: the question tables."""
    from app.search.model_files import QUESTION_TABLES, inputs_digest

    return inputs_digest([QUESTION_TABLES])


def save_words(model: WordVectors, path: Path = COMMITTED, inputs: str = "") -> None:
    data = {"format": WORDS_FORMAT, "dim": DIM, "inputs": inputs, "epochs": EPOCHS, "seed": SEED,
            "words": model.words,
            "question": encode_floats(array("f", model.question.astype("float32").ravel().tobytes())),
            "passage": encode_floats(array("f", model.passage.astype("float32").ravel().tobytes())),
            "idf": encode_floats(array("f", model.idf.astype("float32").ravel().tobytes()))}
    Path(path).write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")


def load_words(path: Path = COMMITTED) -> WordVectors | None:
    """The committed model, or None (logged) when it is missing or malformed. One learned from other tables
    than today's is used and logged: retrain with bench/train_embedding.py (a test fails until then)."""
    import numpy as np

    try:
        data = read_json(Path(path), MAX_BYTES, "committed word vectors")
        if not isinstance(data, dict) or data.get("format") != WORDS_FORMAT or data.get("dim") != DIM:
            raise Unusable("not word vectors of this version")
        words = data.get("words")
        if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
            raise Unusable("malformed words")
        n = len(words)
        try:
            question, passage, idf = (np.frombuffer(decode_floats(data[k]), dtype=np.float32) for k in
                                      ("question", "passage", "idf"))
        except (KeyError, TypeError, ValueError):
            raise Unusable("malformed vectors") from None
        if question.size != n * DIM or passage.size != n * DIM or idf.size != n:
            raise Unusable("vectors of the wrong size")
    except Unusable as exc:
        log.warning("%s: %s; the index gets no word vectors (run bench/train_embedding.py)", path, exc)
        return None
    if data.get("inputs") != training_inputs():
        log.warning("%s was learned from other question tables than today's: run bench/train_embedding.py", path)
    return WordVectors(words, question.reshape(n, DIM), passage.reshape(n, DIM), idf)
