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
    from app.web.capacity import init_capacity

    load_all()
    init_canonical(app)
    init_capacity(app)
    if app.config.get("BEHIND_PROXY"):
        # rulings serve --prod puts nginx in front, which sets X-Forwarded-For to the peer it
        # saw (overwriting whatever the client sent): the address budgets are kept by.
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1)  # type: ignore[method-assign]
    if app.config.get("WARM_START"):
        warm(app)


def warm(app: Flask) -> None:
    """Open the current build and read every scenario file once, before the first request.

    Under ``gunicorn --preload`` this runs in the master, so every worker forks
    with it done (a card page lists the scenarios that demonstrate its rulings).
    """
    from app.store.db import StoreMissing

    try:
        app.extensions["rulings"].generation().services.scenarios.warm()
    except StoreMissing:
        pass      # not built yet: pages say so
