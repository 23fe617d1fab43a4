"""The word vectors' optimiser: our minibatch Adam (app/search/embedding.py) against scipy's L-BFGS on the
whole table (the library optimiser the ranker uses), fitted to the same problem in one run.

    python3 bench/embedding_optimizer.py [--iterations 60]     # uses the built store; about three minutes

For each: CPU seconds to fit (process time), and how well the vectors alone find a held-out question's
answer: each question of held-out sets 2-9 (never trained on) against every document with a vector, by
cosine, the rank of its best target: MRR and recall@10. No ranker and no BM25, so the figure is the
vectors' own, not what the rest of search makes of them. Nothing is written.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from app.search import embedding as E  # noqa: E402
from app.search.documents import iter_documents  # noqa: E402
from app.search.evaluate import HELDOUT_SETS, load_relevance_set  # noqa: E402
from app.search.indexer import _vector_words, name_index_from_store  # noqa: E402
from app.search.stemming import query_analyzer  # noqa: E402
from app.store.db import Store  # noqa: E402


def fit_lbfgs(problem: E.TrainingProblem, iterations: int, seed: int = E.SEED) -> E.WordVectors:
    """The same loss as ``learn_words`` (softmax cross-entropy over scaled cosines), full batch, with
    scipy.optimize.minimize's L-BFGS-B from the same starting vectors."""
    from scipy.optimize import minimize

    v, dim = len(problem.vocab), E.DIM
    questions = E._rows(problem.questions, v)
    rows = np.arange(len(problem.target))

    def loss_and_gradient(x):
        asked = x[:v * dim].reshape(v, dim).astype(np.float32)
        passage = x[v * dim:].reshape(v, dim).astype(np.float32)
        q_raw, d_raw = questions @ asked, problem.docs @ passage
        q, _ = E._unit(q_raw)
        d, _ = E._unit(d_raw)
        logits = E.SCALE * q @ d.T
        logits -= logits.max(axis=1, keepdims=True)
        loss = float(np.mean(np.log(np.exp(logits).sum(axis=1)) - logits[rows, problem.target]))
        g_q, g_d = E.cosine_softmax_gradients(q_raw, d_raw, problem.target, E.SCALE)
        return loss, np.concatenate([(questions.T @ g_q).ravel(), (problem.docs.T @ g_d).ravel()]).astype(np.float64)

    start = np.random.default_rng(seed).normal(0.0, 0.1, (v, dim)).astype(np.float32)
    fit = minimize(loss_and_gradient, np.concatenate([start.ravel(), start.ravel()]).astype(np.float64),
                   jac=True, method="L-BFGS-B", options={"maxiter": iterations})
    asked = fit.x[:v * dim].reshape(v, dim).astype(np.float32)
    passage = fit.x[v * dim:].reshape(v, dim).astype(np.float32)
    return E.WordVectors(problem.vocab, (asked * problem.idf[:, None]).astype(np.float32), passage, problem.idf)


def cosine_only(model: E.WordVectors, keys: list[str], doc_words: list[list[str]]) -> tuple[int, float, float]:
    """(questions scored, MRR, recall@10) of the vectors alone on held-out sets 2-9."""
    read = query_analyzer()
    docs = model.documents(doc_words)
    has = np.array([v is not None for v in docs])
    matrix = np.array([v if v is not None else [0.0] * E.DIM for v in docs], dtype=np.float32)
    row = {w: i for i, w in enumerate(model.words)}
    rr, top10, n = 0.0, 0, 0
    for label, path in HELDOUT_SETS:
        for q in load_relevance_set(path, held_out=True):
            words = list(dict.fromkeys(row[t.text] for t in read(q.q) if t.text in row))
            targets = [d for d, k in enumerate(keys) if k in q.expect and has[d]]
            if not words or not targets:
                continue
            u = model.question[words].sum(axis=0)
            cos = np.where(has, matrix @ (u / (np.linalg.norm(u) or 1.0)), -2.0)
            best = min(int((cos > cos[t]).sum()) + 1 for t in targets)
            n, rr, top10 = n + 1, rr + 1 / best, top10 + (best <= 10)
    return n, rr / n, top10 / n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=60, help="L-BFGS iterations (Adam: EPOCHS passes)")
    args = ap.parse_args(argv)
    store = Store()
    read = query_analyzer()
    keys, doc_words, pairs = [], [], []
    for n, doc in enumerate(iter_documents(store, name_index_from_store(store).mentions)):
        words, asked, _ = _vector_words(doc, read)
        keys.append(doc.key)
        doc_words.append(words)
        pairs += [(q, n) for q in asked]
    problem = E.training_problem(pairs, doc_words)
    t = time.process_time()
    adam = E.learn_words(pairs, doc_words)
    adam_cpu = time.process_time() - t
    t = time.process_time()
    lbfgs = fit_lbfgs(problem, args.iterations)
    lbfgs_cpu = time.process_time() - t
    print(f"{len(problem.vocab)} words, {len(problem.target)} table questions")
    print(f"{'optimiser':<42}{'fit cpu s':>10}{'n':>6}{'MRR':>8}{'R@10':>8}")
    for label, model, cpu in ((f"Adam, minibatch {E.BATCH}, {E.EPOCHS} passes (ours)", adam, adam_cpu),
                              (f"scipy L-BFGS-B, full batch, {args.iterations} iterations", lbfgs, lbfgs_cpu)):
        n, mrr, r10 = cosine_only(model, keys, doc_words)
        print(f"{label:<42}{cpu:>10.1f}{n:>6}{mrr:>8.3f}{r10:>8.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
