"""Print recall@1, recall@3 and MRR of search over the team's relevance set.

    python3 bench/relevance.py            # uses the built index (rulings build)
    python3 bench/relevance.py --build    # builds a fresh store + index into a temp dir first
    python3 bench/relevance.py --misses   # also list the questions not answered in the top 3

Figures are printed for the whole set, for the original 80 questions of issue #3
(entries 1-80), for the tuning set (every entry not marked ``held_out``; the ranking
weights are trained on it, bench/train_ranker.py), for the held-out entries of that
file, and for issue #13's held-out set (bench/relevance_heldout2.yaml) on its own, so
a ranking change can be checked against each. "first screen" is the share of
questions whose answer is among the hits a phone shows without scrolling.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.search.evaluate import (FIRST_SCREEN, HELDOUT2_SET, Scores, evaluate, load_relevance_set,  # noqa: E402
                                 missing_targets)
from app.store.db import Store  # noqa: E402


# The first 80 entries are the set issue #3 was measured on; later entries were added after.
ORIGINAL = 80
# Entries from 169 on are issue #13's second batch of tuning questions, written before its code changes;
# reported on their own as the fresh check of the first changes.
NEW_TUNING_FROM = 169
# Another held-out set, if present: reported, never tuned on.
HELDOUT3_SET = Path(__file__).resolve().parent / "relevance_heldout3.yaml"


def open_store(build: bool) -> Store:
    if not build:
        return Store()
    from app.store.build import build as build_store

    tmp = Path(tempfile.mkdtemp(prefix="rulings-bench-"))
    return Store(build_store(force=True, index_dir=tmp).db_path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", action="store_true", help="build a fresh store and index into a temp dir")
    ap.add_argument("--misses", action="store_true",
                    help="list tuning questions not answered in the top 3 (held-out misses are never printed)")
    ap.add_argument("--tuning-only", action="store_true",
                    help="score only the tuning questions (for iterating on changes without seeing held-out figures)")
    args = ap.parse_args(argv)
    store = open_store(args.build)
    questions = load_relevance_set()
    heldout2 = load_relevance_set(HELDOUT2_SET, held_out=True)
    if args.tuning_only:
        questions, heldout2 = [q for q in questions if not q.held_out], []
    stale = missing_targets(store, questions + heldout2)
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
    new = evaluate(store, heldout2)
    heldout3 = (evaluate(store, load_relevance_set(HELDOUT3_SET, held_out=True))
                if HELDOUT3_SET.exists() and not args.tuning_only else None)
    print(f"{'part':<34}{'n':>4}{'R@1':>8}{'R@3':>8}{'MRR':>8}  first screen (top {FIRST_SCREEN})")
    for label, part in (("tuning (relevance_set, trained on)", [o for o in scores.outcomes if not o.question.held_out]),
                        ("  of which #13 additions (169+)", [o for o in scores.outcomes if not o.question.held_out
                                                              and o.question.line >= NEW_TUNING_FROM]),
                        ("held out 1 (relevance_set)", [o for o in scores.outcomes if o.question.held_out]),
                        ("held out 2 (relevance_heldout2)", new.outcomes),
                        ("held out 3 (relevance_heldout3)", heldout3.outcomes if heldout3 else [])):
        if not part:
            continue
        sub = Scores(part)
        print(f"{label:<34}{len(part):>4}{sub.recall_at(1):>8.3f}{sub.recall_at(3):>8.3f}{sub.mrr():>8.3f}  "
              f"{sub.first_screen():.3f}")
    for cat in new.categories:
        n = sum(1 for o in new.outcomes if o.question.category == cat)
        print(f"  held out 2 {cat:<11} n={n:<3} R@1={new.recall_at(1, cat):.2f} R@3={new.recall_at(3, cat):.2f} "
              f"MRR={new.mrr(cat):.2f}")
    for cat in scores.categories:
        n = sum(1 for o in scores.outcomes if o.question.category == cat)
        print(f"  {cat:<11} n={n:<3} R@1={scores.recall_at(1, cat):.2f} R@3={scores.recall_at(3, cat):.2f} "
              f"MRR={scores.mrr(cat):.2f}")
        for label, held in (("tuning", False), ("held out", True)):
            sub = Scores([o for o in scores.outcomes if o.question.category == cat and o.question.held_out == held])
            if sub.outcomes and any(o.question.held_out for o in scores.outcomes if o.question.category == cat):
                print(f"    {label:<9} n={len(sub.outcomes):<3} R@1={sub.recall_at(1):.2f} R@3={sub.recall_at(3):.2f} "
                      f"MRR={sub.mrr():.2f}")
    if args.misses:
        for o in scores.outcomes:
            if not o.question.held_out and (o.rank is None or o.rank > 3):
                print(f"MISS rank={o.rank} {o.question.q!r} expect={o.question.expect} top={o.top}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
