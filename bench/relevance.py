"""Print recall@1, recall@3 and MRR of search over the team's relevance set.

    python3 bench/relevance.py            # uses the built index (rulings build)
    python3 bench/relevance.py --build    # builds a fresh store + index into a temp dir first
    python3 bench/relevance.py --misses   # also list the questions not answered in the top 3

Figures are printed for the whole set and for the original 80 questions of issue #3
(entries 1-80), so a ranking change can be checked against both.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.search.evaluate import Scores, evaluate, load_relevance_set, missing_targets  # noqa: E402
from app.store.db import Store  # noqa: E402


# The first 80 entries are the set issue #3 was measured on; later entries were added after.
ORIGINAL = 80


def open_store(build: bool) -> Store:
    if not build:
        return Store()
    from app.store.build import build as build_store

    tmp = Path(tempfile.mkdtemp(prefix="rulings-bench-"))
    return Store(build_store(force=True, index_dir=tmp).db_path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", action="store_true", help="build a fresh store and index into a temp dir")
    ap.add_argument("--misses", action="store_true", help="list questions not answered in the top 3")
    args = ap.parse_args(argv)
    store = open_store(args.build)
    questions = load_relevance_set()
    stale = missing_targets(store, questions)
    for q, key in stale:
        print(f"warning: expected key {key!r} (for {q!r}) is not in the store", file=sys.stderr)
    scores = evaluate(store, questions)
    print(f"questions: {len(questions)}")
    print(f"recall@1: {scores.recall_at(1):.3f}")
    print(f"recall@3: {scores.recall_at(3):.3f}")
    print(f"MRR:      {scores.mrr():.3f}")
    original = Scores([o for o in scores.outcomes if o.question.line <= ORIGINAL])
    print(f"original {ORIGINAL} (entries 1-{ORIGINAL}): recall@1 {original.recall_at(1):.3f}  "
          f"recall@3 {original.recall_at(3):.3f}  MRR {original.mrr():.3f}")
    for cat in scores.categories:
        n = sum(1 for o in scores.outcomes if o.question.category == cat)
        print(f"  {cat:<11} n={n:<3} R@1={scores.recall_at(1, cat):.2f} R@3={scores.recall_at(3, cat):.2f} "
              f"MRR={scores.mrr(cat):.2f}")
    if args.misses:
        for o in scores.outcomes:
            if o.rank is None or o.rank > 3:
                print(f"MISS rank={o.rank} {o.question.q!r} expect={o.question.expect} top={o.top}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
