"""MRR of search over the question tables with one word typed wrong, against the same questions as written.

    python3 bench/misspelled.py [--seed 7] [--count 600]

The question tables (corpus/data/rule-questions, tuning data: the ranker is trained on them) give each
question the store key it asks about. For a seeded sample, one word of five letters or more in each
question gets one typo (a letter left out, two swapped, one doubled or another in its place) and both
versions are searched: the gap between the two MRRs is what misspelling costs, measured without reading
the held-out sets. The lines after the totals split that by what the spelling step did with the word.
"""
from __future__ import annotations

import argparse
import csv
import random
import re
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import config  # noqa: E402
from app.corpus.rule_questions import is_german_table  # noqa: E402
from app.search.evaluate import DEPTH, matches  # noqa: E402
from app.search.query import clean_query, engine_for, plan_query, search  # noqa: E402
from app.store.db import Store  # noqa: E402

_WORD = re.compile(r"[A-Za-z]{5,}")


def typo(word: str, rnd: random.Random) -> str:
    i = rnd.randrange(1, len(word) - 1)
    kind = rnd.choice("dsri")
    if kind == "d":
        return word[:i] + word[i + 1:]
    if kind == "s":
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    if kind == "r":
        return word[:i] + rnd.choice("aeiounrst") + word[i + 1:]
    return word[:i] + word[i] + word[i:]


def rank(store: Store, question: str, key: str) -> int | None:
    hits = search(store, question, DEPTH)["results"]
    return next((i for i, h in enumerate(hits, 1) if matches(h, key)), None)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--count", type=int, default=600)
    args = ap.parse_args(argv)
    rows = []
    for path in sorted((config.corpus_dir() / "data" / "rule-questions").glob("*.csv")):
        if is_german_table(path.name):
            continue        # German questions are not spell-corrected (query.plan_query)
        with path.open(encoding="utf-8", newline="") as f:
            rows += [(r["key"], r["question"]) for r in csv.DictReader(f)]
    rnd = random.Random(args.seed)
    rnd.shuffle(rows)
    store = Store()
    eng = engine_for(store)
    ranks: dict[str, list[tuple[int | None, int | None]]] = defaultdict(list)
    for key, question in rows[:args.count]:
        words = list(_WORD.finditer(question))
        if not words:
            continue
        m = rnd.choice(words)
        typed = typo(m.group(), rnd)
        if typed.lower() == m.group().lower():
            continue
        wrong = question[:m.start()] + typed + question[m.end():]
        plan = plan_query(eng, clean_query(wrong)[0])
        read = (m.group().lower() in plan.text.lower() or any(m.group().lower() in c.name.lower() for c in plan.cards))
        how = "word or card read back" if read else "not read back"
        pair = (rank(store, question, key), rank(store, wrong, key))
        ranks["all"].append(pair)
        ranks[how].append(pair)
    for how, pairs in ranks.items():
        as_written, typed_wrong = (sum(1 / p[i] for p in pairs if p[i]) / len(pairs) for i in (0, 1))
        print(f"{how:<24} n={len(pairs):<4} MRR as written {as_written:.3f}  one word typed wrong {typed_wrong:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
