"""Learn the re-ranking weights (app/search/ranker.json) from the tuning questions only.

    python3 bench/train_ranker.py            # trains on the built index (rulings build first)
    python3 bench/train_ranker.py --dry-run  # prints the weights without writing them
    python3 bench/train_ranker.py --cv 5     # also k-fold cross-validation over the tuning questions

Cross-validation trains on k-1 folds of the tuning questions and scores the whole search (with those
weights) on the fold left out, so the figure says how the ranker does on tuning-style questions it has
not seen -- the tuning figure itself is optimistic, the model saw those answers.

Only the entries of bench/relevance_set.yaml that are NOT marked ``held_out`` are used;
the held-out entries and the held-out files (bench/relevance_heldout*.yaml) are never read
here, so the figures bench/relevance.py prints for them are honest. The model is a pairwise
logistic regression (RankNet with a linear scorer) in numpy: for every tuning
question, each candidate that answers it should score above each that does not.

Besides the tuning questions, the ranker learns from one question table row in eight
(``table_holdout.in_training_part``), each asked of an index built without those rows, so it
meets its passage the way a new player's wording would: through the passage's words and its
other table questions, not its own. A couple of hundred tuning questions let the weights follow
their quirks; the thousand table questions (weighted to count as much as the tuning set together)
pull them towards what holds for players' questions in general. ``--tuning-only`` leaves them out.
Measured against tuning only: 5-fold CV recall@1 0.758 -> 0.776, MRR 0.837 -> 0.845 (recall@3
0.915 both); table hold-out (``table_holdout.py --rows``, seeds 20261124 and 7) recall@3 +0.014/+0.009
and MRR +0.009/+0.007; passages without questions (``table_holdout.py``) recall@3 +0.012.

The ``translation`` feature (app/search/translation.py: which passage words players mean by theirs,
learned from the same tables at build time) was measured the same way, with and without it, on the
tables as of commit 577e326 (the hold-out's sample changes whenever rows are added or dropped):
5-fold CV recall@3 0.914 -> 0.923, MRR 0.845 -> 0.852; table hold-out recall@3 / MRR 0.700/0.590 ->
0.724/0.612 (seed 20261124) and 0.700/0.602 -> 0.729/0.629 (seed 7); passages without questions
0.597/0.507 -> 0.617/0.534.

The ``embedding`` feature and the fusion of the learned order with the embedding's
(app/search/embedding.py, rerank.fuse) were measured the same way, on the tables as of held-out set 8
(commit d336ced's code retrained on those tables, then this): 5-fold CV recall@1/recall@3/MRR
0.779/0.923/0.852 -> 0.788/0.937/0.865; table hold-out recall@3 / MRR 0.708/0.612 -> 0.753/0.641
(seed 20261124), 0.695/0.606 -> 0.732/0.633 (seed 7), 0.733/0.637 -> 0.763/0.656 (seed 99); passages
without questions 0.617/0.534 -> 0.629/0.529 and 0.638/0.546 -> 0.656/0.549 (seed 7). The feature
alone (no fusion) gave a third of the hold-out gain; read without the question's card names it gave
almost none.

The ``section_embedding`` feature (embedding.learn_sections: the same training with whole sections and
cards as the passages, read for rule documents) was measured the same way on the tables as of commit
1cc1609, on six samples of questions held out (seeds 20261124, 7, 99, 3, 11, 42) and four of whole
passages (20261124, 7, 3, 11): recall@3 0.760/0.748/0.771/0.752/0.773/0.758 ->
0.769/0.759/0.779/0.764/0.781/0.767 (mean +0.010), MRR mean 0.646 -> 0.649; whole passages recall@3
mean 0.659 -> 0.656, MRR 0.549 -> 0.548; 5-fold CV 0.788/0.941/0.867 -> 0.797/0.946/0.873. Read for
every document (rulings too) it gave the same on the questions held out, CV 0.788/0.941/0.868, and lost
fortress#r1 from the first three of "procesion trashing a fortres" to two unrelated Procession rulings.

The ``general`` feature (app/search/general.py: the cosine of question and document in general English,
the wordllama package's sub-word vectors mean-pooled) together with five extra candidates, the rule
passages and FAQ answers nearest the question in the embedding's space that BM25 left out
(query._nearest), were measured the same way on the tables as of commit da36ecd (that code retrained:
5-fold CV 0.797/0.946/0.873; questions held out, recall@3 / MRR, seeds 20261124/7/99: 0.769/0.647,
0.759/0.642, 0.779/0.666; whole passages, seeds 20261124/7: 0.636/0.533, 0.663/0.553). Each alone:
the extra candidates 0.768/0.648, 0.760/0.649, 0.785/0.667 and 0.640/0.534, 0.666/0.550 (recall@10 +0.014:
fetched, but rarely into the first three); the feature 0.770/0.651, 0.765/0.647, 0.782/0.668 and
0.642/0.540, 0.673/0.559. Both, as committed (with a fetched paragraph kept from standing for its
section when ranked below it, diversify.below_own_section): 0.771/0.655, 0.768/0.656, 0.785/0.671 and
0.644/0.543, 0.675/0.560; 5-fold CV 0.788/0.950/0.871. Not kept: ten extra candidates (as five), an
indicator feature for them (no better), fetching them by the general vectors instead (0.769/0.652,
0.771/0.654, 0.786/0.671; 0.650/0.550, 0.677/0.559: the same within noise, and the embedding is
already in memory), idf-weighted pooling of the general vectors (no better than the plain mean), and
showing a section by its best-matching paragraph whenever the section outranks its paragraphs (worse:
0.760, 0.765, 0.778).

The ``general_mapped`` feature (general.learn_map: the general English space through one 256 x 256 map,
learned at build time from the question tables as embedding.py learns its vectors, starting from the
identity) and the fusion ordering results by the sum of that cosine and the embedding's, were measured
the same way on the tables as of commit 668ce37 (that code retrained: 5-fold CV 0.788/0.950/0.871;
questions held out, recall@3 / MRR, seeds 20261124/7/99: 0.771/0.655, 0.768/0.656, 0.785/0.671; whole
passages, seeds 20261124/7: 0.644/0.543, 0.675/0.560). The feature alone (ten passes, rate 0.001):
0.779/0.665, 0.772/0.664, 0.792/0.675 and 0.659/0.552, 0.687/0.572; at rate 0.003 (kept): 0.782/0.664,
0.773/0.666, 0.794/0.674 and 0.663/0.552, 0.689/0.571. With the fusion reading the sum, as committed:
0.785/0.665, 0.769/0.665, 0.795/0.675 and 0.670/0.563, 0.693/0.576; 5-fold CV 0.797/0.959/0.875. The
same within noise, not kept: 25 passes (0.779/0.664, 0.774/0.665, 0.796/0.675; 0.661/0.552, 0.690/0.572),
a second map for the passages' side (0.778/0.665, 0.772/0.665, 0.796/0.674; 0.652/0.551, 0.687/0.569),
and five more candidates by meaning fetched through the map (recall@10 up, 0.913 -> 0.914, 0.922 ->
0.927, 0.920 -> 0.920 and 0.827 -> 0.844, 0.849 -> 0.854; recall@3 0.778, 0.770, 0.800 and 0.667, 0.694).

Tried and not kept: a feature for the candidate's place by that cosine (FUSION_K / (FUSION_K +
place)), with the fusion weight halved to 0.15. On the tables as of commit aaac6d6 it gained a little
(5-fold CV 0.788/0.941/0.867 -> 0.797/0.946/0.872; table hold-out recall@3 / MRR 0.760/0.645 ->
0.771/0.651, 0.748/0.641 -> 0.759/0.655, 0.771/0.660 -> 0.774/0.665 for seeds 20261124/7/99) but
broke three things players rely on (tests/test_search*.py): the bare name "watchtower" put a
one-line Watchtower ruling above the card, "KC scheme" lost scheme#r1 from the first three, and
"procesion trashing a fortres" lost fortress#r1. A place carries no strength: the nearest of thirty
weak candidates counts as much as the nearest of thirty strong ones.
"""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.search import query as query_mod  # noqa: E402
from app.search.evaluate import (Question, Scores, candidate_hit, evaluate, load_relevance_set,  # noqa: E402
                                 matches)
from app.search.query import candidates, clean_query, engine_for, feature_rows, plan_query  # noqa: E402
from app.search.rerank import FEATURES, Model, write_model  # noqa: E402
from app.store.db import Store  # noqa: E402

CANDIDATES = 60
L2 = 0.02
STEPS = 50
# The table questions together weigh as much as the tuning questions together.
TABLE_WEIGHT = 1.0


def tuning_questions() -> list[Question]:
    return [q for q in load_relevance_set() if not q.held_out]


@dataclass
class TablePairs:
    """The training part of the question tables, as pairs from an index built without it."""

    x: np.ndarray
    weight: np.ndarray      # sums to TABLE_WEIGHT: each question counts the same
    questions: int


def table_pairs() -> TablePairs:
    from table_holdout import held_out_copy

    tmp = Path(tempfile.mkdtemp(prefix="rulings-train-"))
    try:
        side, rows = held_out_copy(0.0, 0, tmp, training=True)
        diffs = [d for d in (_question_pairs(side, q, (t,)) for t, q in rows) if d is not None]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    weight = np.concatenate([np.full(len(d), 1.0 / len(d)) for d in diffs])
    return TablePairs(np.concatenate(diffs), weight / weight.sum() * TABLE_WEIGHT, len(diffs))


def training_pairs(store: Store, questions: list[Question],
                   table: TablePairs | None = None) -> tuple[np.ndarray, np.ndarray, int]:
    """Feature differences (answer minus non-answer) for every given tuning question, each pair weighted so
    that every question counts the same, and the number of questions used; with ``table``, its pairs too
    (the tuning questions then weigh 1 together, the table's TABLE_WEIGHT)."""
    diffs: list[np.ndarray] = []
    weights: list[np.ndarray] = []
    for q in questions:
        assert not q.held_out, "held-out questions are never trained on"
        d = _question_pairs(store, q.q, tuple(q.expect))
        if d is not None:
            diffs.append(d)
            # weighted so each question counts once
            weights.append(np.full(len(d), 1.0 / len(d)))
    used = len(diffs)
    if table is not None:
        total = sum(w.sum() for w in weights)
        weights = [w / total for w in weights] + [table.weight]
        diffs.append(table.x)
    return np.concatenate(diffs), np.concatenate(weights), used


_PAIRS: dict[tuple[str, tuple[str, ...]], np.ndarray | None] = {}


def _question_pairs(store: Store, question: str, expect: tuple[str, ...]) -> np.ndarray | None:
    """Every answer's features minus every non-answer's among the question's candidates (None when the
    candidates hold no answer or only answers); computed once per question (cross-validation reuses it)."""
    key = (question, expect)
    if key not in _PAIRS:
        eng = engine_for(store)
        text, _ = clean_query(question)
        plan = plan_query(eng, text)
        text = plan.text
        out = None
        if plan.query is not None:
            hits, _ = candidates(eng, plan, text, CANDIDATES)
            if hits:
                rows = np.array(feature_rows(eng, plan, text, hits), dtype=float)
                good = np.array([any(matches(candidate_hit(eng, d), t) for t in expect) for _, d in hits])
                if good.any() and not good.all():
                    pos, neg = rows[good], rows[~good]
                    out = (pos[:, None, :] - neg[None, :, :]).reshape(-1, rows.shape[1])
        _PAIRS[key] = out
    return _PAIRS[key]


def fit(x: np.ndarray, sample: np.ndarray) -> np.ndarray:
    """Minimise mean log(1 + exp(-w.x)) + L2 |w|^2 by Newton's method (the problem is convex and has a
    few dozen weights, so a handful of exact steps replace thousands of gradient steps)."""
    w = np.zeros(x.shape[1])
    total = sample.sum()
    for _ in range(STEPS):
        z = x @ w
        p = 1.0 / (1.0 + np.exp(np.clip(z, -30, 30)))          # sigmoid(-z)
        grad = -(x * (p * sample)[:, None]).sum(axis=0) / total + 2 * L2 * w
        hess = (x * (p * (1 - p) * sample)[:, None]).T @ x / total + 2 * L2 * np.eye(x.shape[1])
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def cross_validate(store: Store, questions: list[Question], k: int, table: TablePairs | None = None) -> Scores:
    """Each question scored by weights trained without it (k folds, every k-th question in file order)."""
    outcomes = []
    real = query_mod.load_model
    try:
        for fold in range(k):
            train = [q for i, q in enumerate(questions) if i % k != fold]
            test = [q for i, q in enumerate(questions) if i % k == fold]
            x, sample, _ = training_pairs(store, train, table)
            model = Model(FEATURES, tuple(float(v) for v in fit(x, sample)))
            query_mod.load_model = lambda model=model: model
            outcomes += evaluate(store, test).outcomes
    finally:
        query_mod.load_model = real
    return Scores(outcomes)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument("--cv", type=int, default=0, metavar="K", help="also report K-fold cross-validation")
    ap.add_argument("--tuning-only", action="store_true", help="leave out the question tables' training part")
    args = ap.parse_args(argv)
    store = Store()
    questions = tuning_questions()
    table = None if args.tuning_only else table_pairs()
    if args.cv:
        cv = cross_validate(store, questions, args.cv, table)
        print(f"{args.cv}-fold CV over {len(questions)} tuning questions: recall@1 {cv.recall_at(1):.3f}  "
              f"recall@3 {cv.recall_at(3):.3f}  MRR {cv.mrr():.3f}")
        for cat in cv.categories:
            print(f"  {cat:<11} {cv.figures(cat)}")
    x, sample, used = training_pairs(store, questions, table)
    w = fit(x, sample)
    for name, value in sorted(zip(FEATURES, w), key=lambda fw: -abs(fw[1])):
        print(f"{name:<18} {value:+.3f}")
    from_table = f" and {table.questions} table questions (weight {TABLE_WEIGHT})" if table else ""
    print(f"trained on {used} tuning questions{from_table}, {len(x)} pairs")
    if not args.dry_run:
        source = "bench/relevance_set.yaml entries not marked held_out"
        if table:
            source += "; the question tables' training part (bench/table_holdout.py in_training_part)"
        write_model(FEATURES, w, source, {"questions": used, "table_questions": table.questions if table else 0,
                                          "table_weight": TABLE_WEIGHT if table else 0.0,
                                          "pairs": int(len(x)), "l2": L2})
        print("wrote app/search/ranker.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
