"""What a worker sets up once, at start, so that no request pays for it or can break it (issue 15).

* The card registry is loaded here, not by the first replay: a first replay that
  timed out part-way through the imports once left a worker with half its cards.
* Canonical links come from the configured public address (``canonical.py``).
* Replays get their own capacity and per-client rate limits (``capacity.py``).
"""
from __future__ import annotations

from typing import Any, Callable

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
        trusted = app.config.get("TRUSTED_PROXIES") or TRUSTED_PROXIES
        app.wsgi_app = FrontOnlyProxyFix(app.wsgi_app, frozenset(trusted))  # type: ignore[method-assign]
    if app.config.get("WARM_START"):
        warm(app)


# The front (nginx) reaches gunicorn over loopback; no other peer's X-Forwarded-For is believed.
TRUSTED_PROXIES = ("127.0.0.1", "::1")


class FrontOnlyProxyFix:
    """X-Forwarded-For and -Proto, believed only when the peer is the front (``trusted``).

    Werkzeug's ProxyFix believes the header from any peer, so anything that reached gunicorn
    directly could name any address and draw on another client's replay budget (issue 36).
    nginx overwrites the header with the one address it saw, so the last value is the client.
    """

    def __init__(self, wsgi_app: Any, trusted: frozenset[str]):
        self.wsgi_app, self.trusted = wsgi_app, trusted

    def __call__(self, environ: dict, start_response: Any) -> Any:
        if environ.get("REMOTE_ADDR") in self.trusted:
            forwarded = environ.get("HTTP_X_FORWARDED_FOR", "").rsplit(",", 1)[-1].strip()
            if forwarded:
                environ["REMOTE_ADDR"] = forwarded
            proto = environ.get("HTTP_X_FORWARDED_PROTO", "").rsplit(",", 1)[-1].strip().lower()
            if proto in ("http", "https"):
                environ["wsgi.url_scheme"] = proto
        return self.wsgi_app(environ, start_response)


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


# What a worker renders once before it takes traffic: a card page, a search and a rules page, so
# their templates, the renderer and the search models are ready for the first player. The page search names
# two cards, so the "played out" box's scenario facts are read too (a question naming one card gets no box:
# warmed with "moat", the first two-card search took 100-140 ms).
SEARCH_WARM_URLS = ("/api/search?q=moat", "/search?q=throne+room+feast")
WARM_URLS = ("/cards/village", *SEARCH_WARM_URLS, "/rules")


def warm_worker(app: Flask, tick: Callable[[], None] = lambda: None, urls: tuple[str, ...] = WARM_URLS) -> None:
    """In each worker, after it has the app and before it takes a request (gunicorn's ``post_worker_init``).

    The master (``--preload``) has read the scenarios; what a process must open itself (the search
    index and its models: ``app.search.warm_up``, the search package's one start-up function) and what
    the first requests would otherwise compile (templates, the renderer) is done here, so the first
    search after a start or a restart, and after a worker is replaced, is as quick as any other.
    ``tick`` tells gunicorn the worker is alive between the parts (its timeout counts from the fork).
    """
    from app.search import warm_up
    from app.store.db import StoreMissing

    try:
        services = app.extensions["rulings"].generation().services
        tick()
        warm_up(services.store)
    except StoreMissing:
        return            # not built yet: pages say so
    client = app.test_client()
    for url in urls:
        tick()
        client.get(url, headers={"Accept-Encoding": "gzip"})
