"""Query latency of search over the relevance set, next to a plain SQLite FTS5 query over the same documents.

    python3 bench/search.py            # uses the built index (rulings build)
    python3 bench/search.py --build    # builds a fresh store + index into a temp dir first

Both sides run in-process. After opening the index with a query outside the set,
each question is timed once ("1st" lines: nothing cached for its words yet), then
``--repeat`` more times (the p50/p95 lines the target is checked against).
The FTS5 side is the baseline a hand-rolled search would be: the same documents
(title + body, Porter-stemmed by FTS5's tokenizer), the question's words OR-ed,
ranked by bm25, top ``--limit`` keys fetched. Ours additionally recognises
cards and concepts, re-ranks and builds highlighted snippets.
"""
from __future__ import annotations

import argparse
import re
import sqlite3
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.search.documents import iter_documents  # noqa: E402
from app.search.evaluate import load_relevance_set  # noqa: E402
from app.search.query import search  # noqa: E402
from app.store.db import Store  # noqa: E402

_WORD = re.compile(r"[^\W_]+")


def open_store(build: bool) -> Store:
    if not build:
        return Store()
    import tempfile

    from app.store.build import build as build_store

    tmp = Path(tempfile.mkdtemp(prefix="rulings-bench-"))
    return Store(build_store(force=True, index_dir=tmp).db_path)


def fts5_index(store: Store) -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.execute("create virtual table docs using fts5(key unindexed, text, tokenize='porter unicode61 remove_diacritics 2')")
    conn.executemany("insert into docs(key, text) values (?, ?)",
                     ((d.key, " ".join([d.title, d.body, *d.asks, *d.more_asks])) for d in iter_documents(store, lambda _t: [])))
    conn.commit()
    return conn


def fts5_query(conn: sqlite3.Connection, q: str, limit: int) -> list[str]:
    words = _WORD.findall(q)
    if not words:
        return []
    match = " OR ".join('"' + w.replace('"', '""') + '"' for w in words)
    return [r[0] for r in conn.execute("select key from docs where docs match ? order by rank limit ?", (match, limit))]


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p50 = statistics.median(ordered)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return p50, p95


def timed(fn, queries: list[str], repeat: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU milliseconds per query. CPU time is printed too because the
    machine is shared: other processes inflate wall time for both sides alike."""
    wall, cpu = [], []
    for _ in range(repeat):
        for q in queries:
            t, c = time.perf_counter(), time.process_time()
            fn(q)
            cpu.append((time.process_time() - c) * 1000)
            wall.append((time.perf_counter() - t) * 1000)
    return wall, cpu


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", action="store_true")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--limit", type=int, default=10)
    args = ap.parse_args(argv)
    store = open_store(args.build)
    queries = [q.q for q in load_relevance_set()]
    conn = fts5_index(store)
    # open the index (postings, name and concept tables) with a query that is not in the set, so
    # the first pass below is each question's first time: no cache has seen its words yet
    search(store, "engine warm-up", args.limit)
    fts5_query(conn, "engine warm-up", args.limit)
    first, first_cpu = timed(lambda q: search(store, q, args.limit), queries, 1)
    base_first, base_first_cpu = timed(lambda q: fts5_query(conn, q, args.limit), queries, 1)
    ours, ours_cpu = timed(lambda q: search(store, q, args.limit), queries, args.repeat)
    base, base_cpu = timed(lambda q: fts5_query(conn, q, args.limit), queries, args.repeat)
    print(f"queries: {len(queries)} x {args.repeat} after one first pass, limit {args.limit}")
    for label, o, b in (("wall", ours, base), ("cpu ", ours_cpu, base_cpu),
                        ("1st wall", first, base_first), ("1st cpu ", first_cpu, base_first_cpu)):
        o50, o95 = percentiles(o)
        b50, b95 = percentiles(b)
        print(f"[{label}] search (ours): p50 {o50:.2f} ms  p95 {o95:.2f} ms | sqlite FTS5: p50 {b50:.2f} ms  "
              f"p95 {b95:.2f} ms | ratio p50 {o50 / b50:.1f}x  p95 {o95 / b95:.1f}x | target p50 <= 5 ms "
              f"{'met' if o50 <= 5 else 'NOT met'}, within 3x of FTS5 {'met' if o50 <= 3 * b50 else 'NOT met'}")
    autocomplete_bench(store, args.repeat)
    return 0


def autocomplete_bench(store: Store, repeat: int) -> None:
    """The typeahead's lookup (/api/cards/autocomplete) against a SQLite LIKE 'q%' over the card names.

    Inputs: the first 2, 3 and 5 letters of every tenth card name, each German name's first 4
    letters, and each name with two letters swapped (a typo, which no prefix finds).
    """
    from app.search.lookup import lookup_for
    from app.search.query import engine_for

    lookup = lookup_for(engine_for(store).names)
    names = [n for _, n in store.card_names()][::10]
    german = [r["german"] for r in store.rows("select german from german_names where card is not null")][::10]
    typed = [n[:k] for n in names for k in (2, 3, 5)] + [g[:4] for g in german]
    typed += [n[:2] + n[3] + n[2] + n[4:] for n in names if len(n) > 4]
    conn = sqlite3.connect(f"file:{store.path}?mode=ro", uri=True)
    like = lambda q: conn.execute("select slug, name from cards where name like ? order by length(name) limit 10",  # noqa: E731
                                  (q + "%",)).fetchall()
    ours, ours_cpu = timed(lambda q: lookup.autocomplete(q, 10), typed, repeat)
    base, base_cpu = timed(like, typed, repeat)
    for label, o, b in (("wall", ours, base), ("cpu ", ours_cpu, base_cpu)):
        o50, o95 = percentiles(o)
        b50, b95 = percentiles(b)
        print(f"[{label}] autocomplete ({len(typed)} inputs): p50 {o50:.2f} ms  p95 {o95:.2f} ms | sqlite LIKE prefix: "
              f"p50 {b50:.2f} ms  p95 {b95:.2f} ms | target p50 < 5 ms {'met' if o50 < 5 else 'NOT met'}")


if __name__ == "__main__":
    sys.exit(main())
