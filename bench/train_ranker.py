"""Learn the re-ranking weights (app/search/ranker.json) from the tuning questions only.

    python3 bench/train_ranker.py            # trains on the built index (rulings build first)
    python3 bench/train_ranker.py --dry-run  # prints the weights without writing them

Only the entries of bench/relevance_set.yaml that are NOT marked ``held_out`` are used;
the held-out entries and bench/relevance_heldout2.yaml are never read here, so the
figures bench/relevance.py prints for them are honest. The model is a pairwise
logistic regression (RankNet with a linear scorer) in numpy: for every tuning
question, each candidate that answers it should score above each that does not.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.search.evaluate import load_relevance_set, matches  # noqa: E402
from app.search.query import candidates, clean_query, engine_for, feature_rows, plan_query  # noqa: E402
from app.search.rerank import FEATURES, write_model  # noqa: E402
from app.store.db import Store  # noqa: E402

CANDIDATES = 60
L2 = 0.02
STEPS = 3000
RATE = 0.5


def training_pairs(store: Store) -> tuple[np.ndarray, np.ndarray, int]:
    """Feature differences (answer minus non-answer) for every tuning question, each pair weighted so
    that every question counts the same, and the number of questions used."""
    eng = engine_for(store)
    diffs: list[np.ndarray] = []
    weights: list[np.ndarray] = []
    used = 0
    for q in load_relevance_set():
        if q.held_out:
            continue
        text, _ = clean_query(q.q)
        plan = plan_query(eng, text)
        if plan.query is None:
            continue
        hits, _ = candidates(eng, plan, text, CANDIDATES)
        if not hits:
            continue
        rows = np.array(feature_rows(eng, plan, text, hits), dtype=float)
        good = np.array([any(matches(_hit(eng, d), t) for t in q.expect) for _, d in hits])
        if not good.any() or good.all():
            continue
        used += 1
        pos, neg = rows[good], rows[~good]
        # every answer against every non-answer, weighted so each question counts once
        d = (pos[:, None, :] - neg[None, :, :]).reshape(-1, rows.shape[1])
        diffs.append(d)
        weights.append(np.full(len(d), 1.0 / len(d)))
    return np.concatenate(diffs), np.concatenate(weights), used


def _hit(eng, d: int) -> dict:
    kind = eng.info.kind[d] if eng.info is not None else ""
    return {"key": eng.postings.keys[d], "kind": kind, "card": eng.owner.get(d)}


def fit(x: np.ndarray, sample: np.ndarray) -> np.ndarray:
    """Minimise mean log(1 + exp(-w.x)) + L2 |w|^2 by gradient descent (the problem is convex)."""
    w = np.zeros(x.shape[1])
    for _ in range(STEPS):
        z = x @ w
        p = 1.0 / (1.0 + np.exp(np.clip(z, -30, 30)))
        grad = -(x * (p * sample)[:, None]).sum(axis=0) / sample.sum() + 2 * L2 * w
        w -= RATE * grad
    return w


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dry-run", action="store_true")
    args = ap.parse_args(argv)
    store = Store()
    x, sample, used = training_pairs(store)
    w = fit(x, sample)
    for name, value in sorted(zip(FEATURES, w), key=lambda fw: -abs(fw[1])):
        print(f"{name:<18} {value:+.3f}")
    print(f"trained on {used} tuning questions, {len(x)} pairs")
    if not args.dry_run:
        write_model(FEATURES, w, "bench/relevance_set.yaml entries not marked held_out",
                    {"questions": used, "pairs": int(len(x)), "l2": L2})
        print("wrote app/search/ranker.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
