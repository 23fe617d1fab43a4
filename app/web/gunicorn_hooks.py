"""Gunicorn server hooks for ``rulings serve --prod`` (``gunicorn -c python:app.web.gunicorn_hooks``).

Only ``post_worker_init``: a worker warms up (``serving.warm_worker``) after it has the preloaded
app and before it accepts its first connection, so no player waits for a worker's start, whether
the server has just started, restarted or replaced a worker that was killed.
"""
from __future__ import annotations

from typing import Any


def post_worker_init(worker: Any) -> None:
    from app.web.serving import warm_worker

    app = worker.wsgi
    if app is not None and app.config.get("WARM_START"):
        warm_worker(app, worker.notify)
