"""Server-side latency of the search, card and section pages, in-process (Flask test client).

    python3 bench/pages.py [--n 300] [--index DIR]

Prints p50/p95 per page kind next to a baseline measured in the same run (a
trivial route through the same app, middleware and test client), and the
ratio, so figures from different machines can be compared. Each kind is
measured twice: "cold" visits every distinct page once (nothing memoised for
that page yet), "warm" repeats them (what a busy server mostly sees).
Target: card page p50 at most 10 ms.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

QUERIES = ["throne room feast", "trone room", "moat militia", "when-gain", "lose track", "duration clean-up",
           "king's court", "festmahl", "reaction attack", "band of misfits", "gain a card costing",
           "possession extra turn", "tunnel discard", "village", "cost reduction bridge", "overpay",
           "shuffle during draw", "trash pile", "reveal hand", "set aside"]


def _pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def _time(client, urls: list[str]) -> list[float]:
    out = []
    for u in urls:
        t = time.perf_counter()
        r = client.get(u)
        out.append((time.perf_counter() - t) * 1000)
        if r.status_code != 200:
            raise SystemExit(f"{u} answered {r.status_code}")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=300, help="pages per kind (default 300)")
    ap.add_argument("--index", help="index directory (default: RULINGS_INDEX_DIR or index/; built if missing)")
    args = ap.parse_args()
    if args.index:
        os.environ["RULINGS_INDEX_DIR"] = args.index

    from app.store.build import build, needs_build
    from app.web import create_app

    if needs_build():
        print("building the store ...", file=sys.stderr)
        build()
    app = create_app()
    client = app.test_client()
    store = app.extensions["rulings"].store
    rng = random.Random(7)
    cards = [r["slug"] for r in store.rows("select slug from cards")]
    sections = [r["slug"] for r in store.rows("select slug from sections where doc='rules' and slug != 'viii-index'")]
    rng.shuffle(cards)
    rng.shuffle(sections)
    card_urls = [f"/cards/{s}" for s in cards[: args.n]]
    section_urls = [f"/rules/{s}" for s in sections[: args.n]]
    search_urls = [f"/search?q={q.replace(' ', '+')}" for q in QUERIES]

    # warm the process once (opening the store, compiling the card-name matcher, opening the index)
    _time(client, ["/cards/village", "/rules/ii-your-turn", "/search?q=village", "/api/openapi.json"])
    baseline = _time(client, ["/api/openapi.json"] * args.n)

    rows = []
    for kind, urls in (("card", card_urls), ("section", section_urls), ("search", search_urls)):
        cold = _time(client, urls)
        reps = max(1, args.n // len(urls))
        warm = _time(client, urls * reps)
        rows.append((kind, "cold", len(cold), cold))
        rows.append((kind, "warm", len(warm), warm))

    b50, b95 = statistics.median(baseline), _pct(baseline, 95)
    print(f"baseline /api/openapi.json  n={len(baseline):4d}  p50 {b50:7.2f} ms  p95 {b95:7.2f} ms")
    for kind, mode, n, xs in rows:
        p50, p95 = statistics.median(xs), _pct(xs, 95)
        print(f"{kind:8s} {mode:4s}            n={n:4d}  p50 {p50:7.2f} ms  p95 {p95:7.2f} ms  "
              f"(x{p50 / b50:5.1f} baseline p50)")
    card_cold = statistics.median(rows[0][3])
    verdict = "meets" if card_cold <= 10 else "misses"
    print(f"card page p50 (cold) {card_cold:.2f} ms {verdict} the 10 ms target")
    return 0


if __name__ == "__main__":
    sys.exit(main())
