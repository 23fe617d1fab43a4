"""The learned order's model: one score per candidate from its row of features (rerank.FEATURES).

A pairwise ranker (RankNet): trained so that, for every training question, each candidate that answers
it scores above each candidate that does not. The features are standardised by their spread over the
training candidates, and the score is a linear term plus one small hidden layer::

    z = (row - mean) / scale
    score = z . linear + tanh(z @ hidden + bias) . out

Why the hidden layer: the features matter in combination, which one weight per feature cannot say. A
close table question counts for more on a named card's own ruling than on a rule paragraph; a card's
entry is the answer to its bare name and not to a question with other words. Why standardised: the
linear weights used to be fitted on the raw features under one L2 penalty. That penalised features with
small values (a cosine, a share of words) far more than large ones (a BM25 ratio), and held the model
back. Both measured on the table hold-out and in cross-validation (bench/train_ranker.py's docstring).

Only the order matters downstream, so the score has no unit.
Trained offline by ``bench/train_ranker.py`` (``learn``) and stored in ``ranker.json`` with the
feature names; a file for other features, or with arrays of the wrong shape, is refused (``load``
returns None and search falls back to the hand-written order), never silently mis-scored.
"""
from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np

log = logging.getLogger(__name__)

FORMAT = 2          # 1: a linear model's weights over the raw features (before the hidden layer)
HIDDEN = 16         # hidden units; 8, 16 and 32 measured within 0.01 of each other (recall@3)
EPOCHS = 300        # L-BFGS iterations at most (scipy.optimize.minimize)
L2 = 1e-3           # on every weight, in standardised units


@dataclass(frozen=True)
class Model:
    features: tuple[str, ...]
    mean: np.ndarray        # (F,) the training candidates' mean of each feature
    scale: np.ndarray       # (F,) and their spread (never 0)
    linear: np.ndarray      # (F,)
    hidden: np.ndarray      # (F, H)
    bias: np.ndarray        # (H,)
    out: np.ndarray         # (H,)
    trained_on: str = ""

    def scores(self, rows: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
        z = (np.asarray(rows, dtype=float) - self.mean) / self.scale
        return z @ self.linear + np.tanh(z @ self.hidden + self.bias) @ self.out


@dataclass
class Question:
    """One training question: its candidates' feature rows and which of them answer it."""

    rows: np.ndarray        # (n, F)
    good: np.ndarray        # (n,) bool
    weight: float = 1.0     # how much the question counts (its pairs share it)


def learn(questions: Sequence[Question], features: Sequence[str], *, hidden: int = HIDDEN, epochs: int = EPOCHS,
          l2: float = L2, seed: int = 0, trained_on: str = "") -> Model:
    """Minimise the weighted mean of log(1 + exp(-(score(answer) - score(other)))) over every pair of an
    answer and a non-answer of the same question, plus L2, with scipy's L-BFGS (at most ``epochs``
    iterations) from a seeded start, so the same data gives the same model. Questions whose candidates
    are all answers, or none, teach nothing and are skipped."""
    from scipy.optimize import minimize

    used = [q for q in questions if q.good.any() and not q.good.all()]
    if not used:
        raise ValueError("no question has both an answer and a non-answer among its candidates")
    x = np.vstack([q.rows for q in used]).astype(float)
    if x.shape[1] != len(features):
        raise ValueError(f"rows have {x.shape[1]} features, the names {len(features)}")
    first, second, pair_w = [], [], []
    base = 0
    for q in used:
        pos = np.flatnonzero(q.good) + base
        neg = np.flatnonzero(~q.good) + base
        a, b = np.meshgrid(pos, neg, indexing="ij")
        first.append(a.ravel())
        second.append(b.ravel())
        pair_w.append(np.full(a.size, q.weight / a.size))
        base += len(q.rows)
    i, j, w = np.concatenate(first), np.concatenate(second), np.concatenate(pair_w)
    w /= w.sum()
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    z = (x - mean) / scale
    rng = np.random.default_rng(seed)
    f, n = z.shape[1], len(z)
    shapes = [(f,), (f, hidden), (hidden,), (hidden,)]
    sizes = [int(np.prod(s)) for s in shapes]

    def unpack(theta):
        parts, at = [], 0
        for shape, size in zip(shapes, sizes):
            parts.append(theta[at:at + size].reshape(shape))
            at += size
        return parts

    def loss_and_gradient(theta):
        linear, units, bias, out = unpack(theta)
        h = np.tanh(z @ units + bias)
        s = z @ linear + h @ out
        margin = s[i] - s[j]
        loss = float(w @ np.logaddexp(0.0, -margin))
        loss += 0.5 * l2 * float(linear @ linear + (units * units).sum() + out @ out)
        g = -w / (1.0 + np.exp(np.clip(margin, -30.0, 30.0)))       # d loss / d margin
        per_row = np.bincount(i, g, minlength=n) - np.bincount(j, g, minlength=n)
        back = np.outer(per_row, out) * (1.0 - h * h)
        grads = [z.T @ per_row + l2 * linear, z.T @ back + l2 * units, back.sum(axis=0), h.T @ per_row + l2 * out]
        return loss, np.concatenate([gr.ravel() for gr in grads])

    start = np.concatenate([np.zeros(f), rng.normal(0.0, 0.1, f * hidden), np.zeros(hidden),
                            rng.normal(0.0, 0.1, hidden)])
    fitted = minimize(loss_and_gradient, start, jac=True, method="L-BFGS-B", options={"maxiter": epochs})
    linear, units, bias, out = unpack(fitted.x)
    return Model(tuple(features), mean, scale, linear, units, bias, out, trained_on)


def write(model: Model, path: Path, extra: dict[str, Any] | None = None) -> None:
    data = {"format": FORMAT, "features": list(model.features),
            "mean": _rounded(model.mean), "scale": _rounded(model.scale), "linear": _rounded(model.linear),
            "hidden": [_rounded(r) for r in model.hidden], "bias": _rounded(model.bias), "out": _rounded(model.out),
            "trained_on": model.trained_on, **(extra or {})}
    Path(path).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def _rounded(values: np.ndarray) -> list[float]:
    return [round(float(v), 6) for v in values]


def load(path: Path, features: Sequence[str], inputs: str | None = None) -> Model | None:
    """The model in ``path``, or None (logged) when it is missing, for other features, or malformed. A model
    learned from other inputs than ``inputs`` (the digest of the questions it is trained on) is used, and
    logged: retrain with bench/train_ranker.py (tests/test_search_model_files.py fails until then)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        log.warning("ranker model %s not read (%s): the hand-written order is used", path, e)
        return None
    if inputs is not None and isinstance(data, dict) and data.get("inputs") != inputs:
        log.warning("ranker model %s was trained on other questions than today's: run bench/train_ranker.py", path)
    try:
        return _model(data, tuple(features))
    except ValueError as e:
        log.warning("ranker model %s refused (%s): the hand-written order is used; run bench/train_ranker.py",
                    path, e)
        return None


def _model(data: Any, features: tuple[str, ...]) -> Model:
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    if data.get("format") != FORMAT:
        raise ValueError(f"format {data.get('format', 1)!r}, expected {FORMAT}")
    if tuple(data.get("features") or ()) != features:
        raise ValueError("trained for other features")
    f = len(features)
    mean, scale, linear = (_array(data, k, (f,)) for k in ("mean", "scale", "linear"))
    hidden = _array(data, "hidden", None)
    if hidden.ndim != 2 or hidden.shape[0] != f:
        raise ValueError(f"'hidden' is {hidden.shape}, expected ({f}, units)")
    units = hidden.shape[1]
    bias, out = _array(data, "bias", (units,)), _array(data, "out", (units,))
    if (scale <= 0).any():
        raise ValueError("'scale' has a value that is not positive")
    return Model(features, mean, scale, linear, hidden, bias, out, str(data.get("trained_on", "")))


def _array(data: dict, key: str, shape: tuple[int, ...] | None) -> np.ndarray:
    try:
        a = np.array(data[key], dtype=float)
    except KeyError:
        raise ValueError(f"'{key}' missing") from None
    except (TypeError, ValueError):
        raise ValueError(f"'{key}' is not an array of numbers") from None
    if shape is not None and a.shape != shape:
        raise ValueError(f"'{key}' is {a.shape}, expected {shape}")
    if not np.isfinite(a).all():
        raise ValueError(f"'{key}' has a value that is not finite")
    return a
