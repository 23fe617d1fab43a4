"""Compare ranker models in seconds, on every question of the tables, before retraining for real.

``bench/table_holdout.py`` rebuilds an index per sample and runs the whole search, which takes minutes
per model. This bench does the expensive part once: each table question is asked of an index built
without its eighth (``table_holdout.part_of``; eighth 0 is the ranker's training part), and every
candidate's feature row is cached with whether it answers. The tuning questions are asked of the built
index. A model is then trained as ``bench/train_ranker.py`` trains it (the tuning questions and eighth 0)
and scored on the learned order alone, before the page's diversity, fusion and card entries, on eighths
4-7 (where settings are chosen) and 1-3 (to confirm them on questions the choice never saw).

    python3 bench/ranker_study.py dump [--cache DIR]        # about 4 minutes on this machine (2 cores)
    python3 bench/ranker_study.py compare [--cache DIR] [--hidden 0,16] [--l2 0.001] [--epochs 600]

Each combination of --hidden, --l2 and --epochs is one model; --hidden 0 is a linear model over the
standardised features. The figures are recall@1, recall@3 and MRR of the learned order among the
candidates; the committed model's figures on the real page come from bench/table_holdout.py and
bench/relevance.py. The features change with the code: dump again after changing them.
"""
from __future__ import annotations

import argparse
import itertools
import pickle
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from app.search import scorer  # noqa: E402
from app.search.rerank import FEATURES  # noqa: E402
from app.store.db import Store  # noqa: E402

CHOOSE, CONFIRM = (4, 5, 6, 7), (1, 2, 3)
Asked = list[tuple[np.ndarray, np.ndarray] | None]      # per question: candidates' rows and answers, or None


def dump(cache: Path, parts: list[int] | None = None) -> None:
    from table_holdout import TRAINING_PARTS
    from train_ranker import _candidates, asked_part, tuning_questions

    cache.mkdir(parents=True, exist_ok=True)
    store = Store()
    tuning = [_candidates(store, q.q, tuple(q.expect)) for q in tuning_questions()]
    _save(cache / "tuning.pkl", tuning)
    for part in (range(TRAINING_PARTS) if parts is None else parts):
        t0 = time.perf_counter()
        asked = asked_part(part)
        _save(cache / f"part{part}.pkl", asked)
        print(f"eighth {part}: {len(asked)} questions ({time.perf_counter() - t0:.0f} s)", flush=True)


def _save(path: Path, asked: Asked) -> None:
    with open(path, "wb") as f:
        pickle.dump({"features": list(FEATURES), "asked": asked}, f)


def _load(path: Path) -> Asked:
    if not path.exists():
        raise SystemExit(f"{path} is missing: run 'python3 bench/ranker_study.py dump' first")
    with open(path, "rb") as f:
        data = pickle.load(f)
    if data.get("features") != list(FEATURES):
        raise SystemExit(f"{path} was dumped for other features: run 'python3 bench/ranker_study.py dump' again")
    return data["asked"]


def training_set(tuning: Asked, table: Asked) -> list[scorer.Question]:
    """As bench/train_ranker.py weighs them: the tuning questions together 1, the table's TABLE_WEIGHT."""
    from train_ranker import TABLE_WEIGHT, weighted

    return weighted(tuning, 1.0) + weighted(table, TABLE_WEIGHT)


def figures(model: scorer.Model, asked: Asked) -> tuple[float, float, float]:
    """Recall@1, recall@3 and MRR of the learned order; a question without its answer among its
    candidates counts as missed."""
    ranks = []
    for a in asked:
        if a is None:
            ranks.append(None)
            continue
        rows, good = a
        found = np.flatnonzero(good[np.argsort(-model.scores(rows), kind="stable")])
        ranks.append(int(found[0]) + 1 if len(found) else None)
    n = len(ranks) or 1
    return (sum(1 for r in ranks if r == 1) / n, sum(1 for r in ranks if r and r <= 3) / n,
            sum(1 / r for r in ranks if r) / n)


def compare(cache: Path, hidden: list[int], l2: list[float], epochs: list[int]) -> None:
    tuning = _load(cache / "tuning.pkl")
    # eighths not dumped (dump --parts) are left out of the scoring
    parts = {p: _load(cache / f"part{p}.pkl") for p in (0, *CHOOSE, *CONFIRM) if p == 0 or (cache / f"part{p}.pkl").exists()}
    train = training_set(tuning, parts[0])
    choose = [a for p in CHOOSE if p in parts for a in parts[p]]
    confirm = [a for p in CONFIRM if p in parts for a in parts[p]]
    print(f"trained on {len(tuning)} tuning questions and {len(parts[0])} of eighth 0; "
          f"scored on {len(choose)} (eighths 4-7) and {len(confirm)} (eighths 1-3): recall@1 recall@3 MRR")
    for h, reg, steps in itertools.product(hidden, l2, epochs):
        model = scorer.learn(train, FEATURES, hidden=h, l2=reg, epochs=steps)
        a, b = figures(model, choose) if choose else (0.0, 0.0, 0.0), figures(model, confirm)
        print(f"hidden {h:>2}  l2 {reg:<7g} steps {steps:>4}   4-7: {a[0]:.3f} {a[1]:.3f} {a[2]:.3f}   "
              f"1-3: {b[0]:.3f} {b[1]:.3f} {b[2]:.3f}", flush=True)


def _numbers(kind, text: str) -> list:
    try:
        return [kind(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a comma-separated list of numbers") from None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("dump", "compare"))
    ap.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "rulings-ranker-study")
    ap.add_argument("--hidden", type=lambda t: _numbers(int, t), default=[scorer.HIDDEN])
    ap.add_argument("--l2", type=lambda t: _numbers(float, t), default=[scorer.L2])
    ap.add_argument("--epochs", type=lambda t: _numbers(int, t), default=[scorer.EPOCHS])
    ap.add_argument("--parts", type=lambda t: _numbers(int, t), default=None,
                    help="dump only these eighths (0 is the training part; each costs an index build)")
    args = ap.parse_args(argv)
    if args.what == "dump":
        dump(args.cache, args.parts)
    else:
        compare(args.cache, args.hidden, args.l2, args.epochs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
