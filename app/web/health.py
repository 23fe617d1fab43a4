"""``GET /healthz``: is this process serving, and which build of the rules is it serving?

Load balancers and deploy scripts poll it, and after a rebuild an operator
checks that ``built_at`` moved, so it answers from the store the request is
pinned to (see ``app/store/swap.py``) and is never cached. It does no work
beyond reading the store's ``meta`` table, so it also serves as the baseline in
``bench/load.py``.
"""
from __future__ import annotations

from flask import Blueprint, current_app, jsonify

from app.store.db import StoreMissing

health = Blueprint("health", __name__)


@health.get("/healthz")
def healthz():
    try:
        meta = current_app.extensions["rulings"].store.meta
    except StoreMissing as exc:
        body = {"status": 503, "code": "store_missing", "message": f"the rules store is not built yet: {exc}"}
        resp = jsonify(body)
        resp.status_code = 503
    else:
        resp = jsonify({"status": "ok", "corpus_version": meta.get("corpus_version"),
                        "built_at": meta.get("built_at")})
    resp.headers["Cache-Control"] = "no-store"
    return resp
