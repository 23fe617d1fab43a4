"""Each part of search removed in turn: what it gains in recall@3 and MRR, and what it costs per query.

    python3 bench/ranker_study.py dump --parts 0,1,2     # the table questions' feature rows (index builds)
    python3 bench/ablation.py [--cache DIR] [--only NAME,NAME]

For every part the ranker reads as a feature, the ranker is retrained without it (its column zeroed in
training and at query time, from ranker_study's cached rows: the tuning questions and eighth 0 of the
tables, as bench/train_ranker.py trains) so the figure is what search loses without the part, not what a
model trained with it loses when it goes missing. Parts that are not features (the extra
candidates by meaning, spelling, the query's boosts, the learned order itself) are switched off at query
time with the full model. Two measures:

* held-out sets 2-8 pooled (bench/relevance.py's, never tuned on), whole search, recall@3 and MRR, and
  the CPU milliseconds per question (process time, so other processes on the machine count less);
* the tables held out (eighths 1 and 2, each asked of an index built without it): the learned order alone
  among the candidates (as ranker_study scores it); "-" for parts that act after that order.

Every row is compared with the full search measured in the same run (the first row).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from contextlib import ExitStack, contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from app.search import query as query_mod, scorer  # noqa: E402
from app.search.evaluate import POOLED_SETS, Scores, evaluate, load_relevance_set  # noqa: E402
from app.search.rerank import FEATURES  # noqa: E402
from app.store.db import Store  # noqa: E402


@contextmanager
def patched(obj, name: str, value):
    old = getattr(obj, name)
    setattr(obj, name, value)
    try:
        yield
    finally:
        setattr(obj, name, old)


# name -> (feature columns zeroed, query-time switches: (object, attribute, value)). The parts measured
# and removed in issue #34 (the translation model, section vectors, general English vectors and their learned
# map) are gone from the code; their rows are in docs/question-tables.md and the note.
def parts(eng) -> dict[str, tuple[tuple[str, ...], list]]:
    info = eng.info
    return {
        "full search": ((), []),
        "learned ranker (hand-written order instead)": ((), [(query_mod, "load_model", lambda: None)]),
        "learned word vectors (feature)": (("embedding",), []),
        "candidates by meaning (embedding.Nearest)": ((), [(eng, "nearest", None)]),
        "word vectors: feature and candidates": (("embedding",), [(info, "embedding", None), (eng, "nearest", None)]),
        "table-question match (asked)": (("asked",), []),
        "rule words on every word (rule_words)": (("rule_words",), []),
        "spelling of ordinary words": ((), [(eng, "speller", None)]),
        "card/concept boosts (all 1)": ((), [(query_mod, "_CARD_BOOST", {k: 1.0 for k in query_mod._CARD_BOOST}),
                                             (query_mod, "_CONCEPT_BOOST", 1.0), (query_mod, "_ALL_CARDS_BOOST", 1.0),
                                             (query_mod, "_CARD_KEY_BOOST", 1.0)]),
    }


def zeroed(asked, cols: list[int]):
    if not cols:
        return asked
    out = []
    for a in asked:
        if a is None:
            out.append(None)
            continue
        rows = a[0].copy()
        rows[:, cols] = 0.0
        out.append((rows, a[1]))
    return out


def main(argv: list[str] | None = None) -> int:
    from ranker_study import _load, figures, training_set

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "rulings-ranker-study")
    ap.add_argument("--only", default="", help="comma-separated names (substrings) of the parts to measure")
    args = ap.parse_args(argv)
    store = Store()
    eng = query_mod.engine_for(store)
    tuning, part0 = _load(args.cache / "tuning.pkl"), _load(args.cache / "part0.pkl")
    scored = [a for p in (1, 2) if (args.cache / f"part{p}.pkl").exists() for a in _load(args.cache / f"part{p}.pkl")]
    questions = [q for _, path in POOLED_SETS for q in load_relevance_set(path, held_out=True)]
    wanted = [w.strip() for w in args.only.split(",") if w.strip()]
    print(f"held-out sets 2-8 pooled: {len(questions)} questions; table eighths 1-2: {len(scored)} questions")
    print(f"{'part removed':<62}{'R@3':>7}{'MRR':>7}{'dR@3':>7}{'dMRR':>7}{'ms/q':>7}   table R@3/MRR")
    base = None
    real_rows = query_mod.feature_rows
    for name, (cols, switches) in parts(eng).items():
        if wanted and name != "full search" and not any(w in name for w in wanted):
            continue
        idx = [FEATURES.index(c) for c in cols]
        model = scorer.learn(training_set(zeroed(tuning, idx), zeroed(part0, idx)), FEATURES)
        table = figures(model, zeroed(scored, idx)) if scored else None

        def rows(*a, idx=idx, **k):
            r = real_rows(*a, **k)
            for row in r:
                for i in idx:
                    row[i] = 0.0
            return r

        with ExitStack() as stack:
            stack.enter_context(patched(query_mod, "load_model", lambda model=model: model))
            stack.enter_context(patched(query_mod, "feature_rows", rows))
            for obj, attr, value in switches:
                stack.enter_context(patched(obj, attr, value))
            t0 = time.process_time()
            got: Scores = evaluate(store, questions)
            ms = (time.process_time() - t0) * 1000 / len(questions)
        r3, mrr = got.recall_at(3), got.mrr()
        if base is None:
            base = (r3, mrr)
        tab = f"{table[1]:.3f}/{table[2]:.3f}" if table and (cols or name == "full search") else "-"
        print(f"{name:<62}{r3:>7.3f}{mrr:>7.3f}{r3 - base[0]:>+7.3f}{mrr - base[1]:>+7.3f}{ms:>7.1f}   {tab}",
              flush=True)
        if name == "full search":
            for cat in got.categories:
                print(f"    {cat:<11} {got.figures(cat)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
