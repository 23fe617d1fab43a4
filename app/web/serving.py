"""What a worker sets up once, at start, so that no request pays for it or can break it (issue 15).

* The card registry is loaded here, not by the first replay: a first replay that
  timed out part-way through the imports once left a worker with half its cards.
* Canonical links come from the configured public address (``canonical.py``).
* Replays get their own capacity and per-client rate limits (``capacity.py``).
"""
from __future__ import annotations

from flask import Flask


def init_serving(app: Flask) -> None:
    from app.engine.core.registry import load_all
    from app.web.canonical import init_canonical

    load_all()
    init_canonical(app)
