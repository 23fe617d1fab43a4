"""``rulings serve --prod``: the app under gunicorn, one sync worker per core.

The store is read-only and every worker opens its own connection, so workers
share nothing but the files; requests are short (single-digit milliseconds), so
plain sync workers are enough.
"""
from __future__ import annotations

import os


def run_gunicorn(host: str, port: int) -> int:
    from gunicorn.app.base import BaseApplication

    from app.web import create_app

    class _App(BaseApplication):
        def load_config(self) -> None:
            self.cfg.set("bind", f"{host}:{port}")
            self.cfg.set("workers", os.cpu_count() or 1)
            self.cfg.set("accesslog", "-")

        def load(self):
            return create_app()

    _App().run()
    return 0
