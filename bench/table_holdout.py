"""Search measured on players' questions it has never indexed: a held-out slice of the question tables.

The relevance sets have a few hundred questions; the question tables (``corpus/data/rule-questions``)
have thousands, each attached to the passage that answers it. This bench copies the store, removes a
fixed random share of the table (chosen by a seed, so runs compare), builds a search index from that
copy in a temporary directory, and asks search the removed questions. Two modes:

* ``--rows``: a share of the questions is removed, each passage keeping its others -- a new player's
  wording of a passage the tables cover, as in the relevance sets;
* by default, every question of a share of the passages is removed: each is then found the way a
  passage without table questions would be, by its own words, the index terms and the phrase table.

The figure is a floor, not the product's recall: only the one passage a question was written for
counts, while another passage (its FAQ twin, a ruling) may answer it as well. One question in eight is
the ranker's training part (``in_training_part``; bench/train_ranker.py learns from it) and is never
asked here. Use it to compare two versions of the code on a thousand questions nobody tuned on; the
relevance sets remain the figures to report. ``--misses N`` prints N missed questions (fair to read:
they are table rows, not a relevance set).

``--typos`` asks each question with one word mistyped (a letter dropped, doubled, swapped or a key next
to it, as thumbs do on a phone), to measure how search reads misspelt words (spelling.py, names.py).

    python3 bench/table_holdout.py [--rows] [--typos] [--share 0.12] [--seed 20261124] [--misses 20]
"""
from __future__ import annotations

import argparse
import hashlib
import random
import re
import shutil
import sqlite3
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.corpus.rule_questions import is_german_table  # noqa: E402
from app.search.evaluate import matches  # noqa: E402
from app.search.indexer import build_search_index  # noqa: E402
from app.store.db import Store  # noqa: E402


def _kind(key: str) -> str:
    """The kind of passage a question was written for, to report each kind on its own."""
    if key.startswith("faq-"):
        return "FAQ"
    if "#r" in key:
        return "ruling"
    if key.startswith("adventures-"):
        return "rulebook"
    return "rules paragraph" if "#p" in key else "rules section"


# One table question in eight (by a hash of its passage and words, so edits elsewhere do not move it) is
# the ranker's training part (bench/train_ranker.py): this bench never asks those, so its figures stay
# honest for a ranker trained on them.
TRAINING_PARTS = 8


def part_of(target: str, question: str) -> int:
    """Which of TRAINING_PARTS parts a table question is in (0 is the ranker's training part)."""
    digest = hashlib.sha1(f"{target}\n{question}".encode("utf-8")).digest()
    return digest[0] % TRAINING_PARTS


def in_training_part(target: str, question: str) -> bool:
    return part_of(target, question) == 0


def held_out_copy(share: float, seed: int, into: Path, rows: bool = False,
                  training: bool = False, part: int = 0) -> tuple[Store, list[tuple[str, str]]]:
    """A copy of the store without the table questions of ``share`` of the passages (or, with ``rows``,
    without ``share`` of the questions, each passage keeping its others), and the questions removed,
    never one of the ranker's training part. With ``training``, the copy lacks exactly one part of the
    tables instead (``part``; 0 is the training part), and those are the questions returned."""
    src = Store()
    db = into / "rules.db"
    shutil.copyfile(src.path, db)
    conn = sqlite3.connect(db)
    # the German tables are not searched (only the word vectors learn from them): never held out, never asked
    all_rows = [(k, t, q) for k, t, q, f in conn.execute("select key, target, question, file from rule_questions order by key")
                if not is_german_table(f)]
    if training:
        chosen = {k for k, t, q in all_rows if part_of(t, q) == part}
    elif rows:
        pool = [k for k, t, q in all_rows if not in_training_part(t, q)]
        chosen = set(random.Random(seed).sample(pool, round(len(all_rows) * share)))
    else:
        targets = sorted({t for _, t, _ in all_rows})
        passages = set(random.Random(seed).sample(targets, round(len(targets) * share)))
        chosen = {k for k, t, _ in all_rows if t in passages}
    # the training part is removed with its passage but never asked (unless it is what was asked for)
    removed = [(t, q) for k, t, q in all_rows if k in chosen and (training or not in_training_part(t, q))]
    conn.executemany("delete from rule_questions where key = ?", [(k,) for k in sorted(chosen)])
    search_name = "search-holdout"
    conn.execute("update meta set value = ? where key = 'search_dir'", (search_name,))
    conn.commit()
    conn.close()
    build_search_index(db, into / search_name, learn=True)   # vectors that never saw the rows held out
    return Store(db), removed


# Keys next to each key on a QWERTY keyboard: the letters a thumb hits instead.
_NEIGHBOURS = dict(zip("qwertyuiopasdfghjklzxcvbnm", [
    "wa", "qes", "wrd", "etf", "ryg", "tuh", "yij", "uok", "ipl", "ol", "qsz", "awdx", "sefc", "drgv", "fthb",
    "gyjn", "hukm", "ijl", "kop", "xsa", "zcd", "xvf", "cbg", "vnh", "bmj", "nk"]))
_LONG_WORD = re.compile(r"[a-z]{5,}")


def mistype(question: str, rng: random.Random) -> str:
    """One word of five or more letters typed wrong: a letter dropped, doubled, swapped with the next,
    or replaced by a key next to it (the typos of a thumb on a phone). A question without one is
    asked as it is."""
    words = list(_LONG_WORD.finditer(question))
    if not words:
        return question
    m = rng.choice(words)
    w = m.group()
    i = rng.randrange(1, len(w) - 1)        # first and last letters are rarely the wrong ones
    kind = rng.choice(("drop", "double", "swap", "key"))
    if kind == "drop":
        typed = w[:i] + w[i + 1:]
    elif kind == "double":
        typed = w[:i] + w[i] + w[i:]
    elif kind == "swap":
        typed = w[:i] + w[i + 1] + w[i] + w[i + 2:]
    else:
        typed = w[:i] + rng.choice(_NEIGHBOURS.get(w[i], w[i])) + w[i + 1:]
    return question[:m.start()] + typed + question[m.end():]


def main(argv: list[str] | None = None) -> int:
    from app.search.query import search

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--share", type=float, default=0.12, help="share held out: of the passages, or with --rows of the questions")
    ap.add_argument("--seed", type=int, default=20261124)
    ap.add_argument("--rows", action="store_true",
                    help="hold out questions, not passages: each passage keeps its other questions (a new player's "
                         "wording of a passage the tables cover, as in the relevance sets)")
    ap.add_argument("--misses", type=int, default=0, help="print this many questions not answered in the top 3")
    ap.add_argument("--typos", action="store_true",
                    help="ask each question with one word of five or more letters mistyped (a letter dropped, "
                         "doubled, swapped with the next or replaced by a key next to it), as on a phone")
    args = ap.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="rulings-table-holdout-"))
    try:
        t0 = time.perf_counter()
        store, questions = held_out_copy(args.share, args.seed, tmp, args.rows)
        what = "questions" if args.rows else "passages' questions"
        print(f"held out {len(questions)} {what} on {len({t for t, _ in questions})} passages "
              f"(index built in {time.perf_counter() - t0:.0f} s)")
        ranks: dict[str, list[int | None]] = defaultdict(list)
        missed = []
        typo = random.Random(args.seed)
        for target, q in questions:
            if args.typos:
                q = mistype(q, typo)
            hits = search(store, q, 10)["results"]
            rank = next((i for i, h in enumerate(hits, start=1) if matches(h, target)), None)
            ranks[_kind(target)].append(rank)
            ranks["all"].append(rank)
            if rank is None or rank > 3:
                missed.append((target, q, rank, [h["key"] for h in hits[:3]]))
        print(f"{'passage kind':<16} {'n':>5} {'R@1':>6} {'R@3':>6} {'R@10':>6} {'MRR':>6}")
        for kind in ["all", *sorted(k for k in ranks if k != "all")]:
            rs = ranks[kind]
            at = lambda k: sum(1 for r in rs if r is not None and r <= k) / len(rs)  # noqa: E731
            mrr = sum(1 / r for r in rs if r) / len(rs)
            print(f"{kind:<16} {len(rs):>5} {at(1):>6.3f} {at(3):>6.3f} {at(10):>6.3f} {mrr:>6.3f}")
        for target, q, rank, top in random.Random(args.seed).sample(missed, min(args.misses, len(missed))):
            print(f"  {rank or '-':>2} {q!r} -> want {target}; got {', '.join(top)}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
