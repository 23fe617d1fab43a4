"""The web app: ``create_app()`` with a pages blueprint and an API blueprint.

The store is opened read-only once per app and shared by every request (each
thread gets its own SQLite connection, see ``Store.conn``). The renderer and
the scenario index live beside it because everything they memoise derives from
that immutable store and the read-only scenario files.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask, current_app

from app import config as app_config

PROJECT_ROOT = Path(__file__).resolve().parent.parent.parent


class Services:
    """The per-app singletons pages need; created lazily so an unbuilt store is a clear error page."""

    def __init__(self, db_path: Path):
        self.db_path = db_path
        self._store = None
        self._renderer = None
        self._section_slugs: dict[str, str] | None = None
        from app.web.data import ScenarioIndex

        from app.web.scenario_facts import ScenarioFacts

        self.scenarios = ScenarioIndex(facts=ScenarioFacts(lambda: self.store))

    @property
    def store(self):
        if self._store is None:
            from app.store.db import Store

            self._store = Store(self.db_path)
        return self._store

    @property
    def renderer(self):
        if self._renderer is None:
            from app.web.render import Renderer

            store = self.store
            names = [(r["slug"], r["name"]) for r in store.rows(
                "select slug, name from cards where kind in ('card', 'redirect')")]
            versions = {r["slug"]: r["card"] for r in store.rows("select slug, card from previous_versions")} \
                if store.has_table("previous_versions") else {}
            faq = [r["slug"] for r in store.rows("select slug from sections where doc='faq'")] \
                if store.has_table("sections") else []
            self._renderer = Renderer(names, versions, faq_sections=faq)
        return self._renderer

    def section_slug(self, title: str) -> str | None:
        """Section slug by printed title (scenario citations name sections by title)."""
        if self._section_slugs is None:
            rows = self.store.rows("select slug, title, aliases from sections where doc='rules'") \
                if self.store.has_table("sections") else []
            m: dict[str, str] = {}
            for r in rows:
                m.setdefault(_norm_title(r["title"]), r["slug"])
                for a in r.get("aliases") or []:
                    m.setdefault(_norm_title(a), r["slug"])
            self._section_slugs = m
        return self._section_slugs.get(_norm_title(title))


def _norm_title(t: str) -> str:
    from app.corpus.text import plain

    return plain(t).replace("“", "").replace("”", "").replace('"', "").strip().lower()


def services() -> Services:
    return current_app.extensions["rulings"]


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the app. ``config`` may set ``DB_PATH`` (default: the configured index) and Flask keys."""
    app = Flask(__name__, template_folder=str(PROJECT_ROOT / "templates"),
                static_folder=str(Path(__file__).parent / "static"), static_url_path="/static")
    app.config.update(JSON_SORT_KEYS=False, MAX_CONTENT_LENGTH=256 * 1024)
    app.json.sort_keys = False
    app.json.ensure_ascii = False
    if config:
        app.config.update(config)
    db_path = Path(app.config.get("DB_PATH") or app_config.db_path())
    app.extensions["rulings"] = Services(db_path)

    from app.web.api import api
    from app.web.errors import register_error_handlers
    from app.web.pages import pages

    from app.web.offline import offline

    app.register_blueprint(pages)
    app.register_blueprint(api)
    app.register_blueprint(offline)
    register_error_handlers(app)
    from app.store.swap import init_swap; from app.web.health import health; from app.web.security import init_security
    app.register_blueprint(health); init_swap(app); init_security(app)  # production serving (issue #7)
    from app.web.serving import init_serving; init_serving(app)  # serving under attack (issue #15)
    return app
