"""``init_security(app)``: what every request and response goes through in production.

* Limits (``limits.py``) are checked before a view runs, so an oversized query,
  URL, slug, body or scenario costs a few microseconds and gets its own clear
  error instead of tying up a worker; a view that runs the engine additionally
  runs under a wall-clock deadline. Which of them a view needs, it declares
  itself with ``@limited`` (read here from the view, whatever its route is named).
* Every response carries a Content-Security-Policy and the usual security
  headers; pages never need inline script or style, so the policy allows none.
* Successful GETs get an ETag and answer ``If-None-Match`` with 304, and text
  responses are gzip-compressed when the client accepts it. The store only
  changes on a rebuild, so pages may be cached briefly and revalidated cheaply.
* Debug mode stays off outside development, and errors never show a traceback
  (the web app's error handlers render ``{status, code, message}``; the 413/414
  raised by Werkzeug itself are rendered here in the same shape).

Hand-written rather than a library (flask-talisman, flask-compress): the whole
policy is a few dozen lines that the tests read against, without a dependency.
"""
from __future__ import annotations

import functools
import gzip
import hashlib
import os
import threading
import time
from collections import OrderedDict
from typing import Any, Callable

from flask import Flask, Response, current_app, g, jsonify, render_template, request

from app.engine.core.deadline import DeadlineExceeded, deadline_at
from app.web import limits
from app.web.errors import ApiError
from app.web.limits import Limit, LimitExceeded

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])

SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), interest-cohort=()",
}
HSTS = "max-age=31536000; includeSubDomains"

# How long browsers and proxies may reuse a response before revalidating its ETag.
STATIC_MAX_AGE = 24 * 3600
PAGE_MAX_AGE = 60
# Compress text responses at least this big (smaller ones gain nothing).
GZIP_MIN_BYTES = 500
GZIP_LEVEL = 6
_COMPRESSIBLE = ("text/", "application/json", "application/javascript", "application/yaml", "image/svg+xml")
_MAX_PASSTHROUGH_BYTES = 1 << 20
# Finished responses kept per build and worker (see ResponseCache).
RESPONSE_CACHE_ENTRIES = 4000
RESPONSE_CACHE_BYTES = 32 * 1024 * 1024

def development(app: Flask) -> bool:
    """Development mode is asked for explicitly; anything else is production."""
    return bool(app.config.get("DEVELOPMENT")) or os.environ.get("RULINGS_ENV") == "development"


def init_security(app: Flask) -> None:
    """Install limits, headers, caching and compression on ``app``; call once, last in ``create_app``."""
    app.config["MAX_CONTENT_LENGTH"] = limits.BODY_BYTES.value
    app.config["SEND_FILE_MAX_AGE_DEFAULT"] = STATIC_MAX_AGE
    app.config.setdefault("RESPONSE_CACHE", os.environ.get("RULINGS_RESPONSE_CACHE", "1") != "0")
    if not development(app):
        app.debug = False
        app.config["DEBUG"] = False
    app.before_request_funcs.setdefault(None, []).insert(0, start_replay_clock)
    app.before_request(check_request_limits)
    app.before_request(serve_cached)
    app.after_request(finish_response)
    app.register_error_handler(413, _too_large)
    app.register_error_handler(414, _url_too_long)
    app.register_error_handler(LimitExceeded, _limit_exceeded)
    for endpoint, view in list(app.view_functions.items()):
        declared = limits.limits_of(view)
        if declared is not None and declared.replay and not getattr(view, "_with_deadline", False):
            app.view_functions[endpoint] = with_deadline(view, limits.REPLAY_SECONDS.value)


# ------------------------------------------------------------------ limits
def _api_error(exc: LimitExceeded) -> ApiError:
    return ApiError(exc.status, exc.code, exc.message, limit=exc.limit.value)


def check_request_limits() -> None:
    """Refuse requests over a limit before any view or store work happens.

    URL, body and slug limits hold for every request; the rest are what the
    matched view declared with ``@limited``.
    """
    try:
        limits.URL_CHARS.check(len(request.full_path))
        if request.content_length is not None:
            limits.BODY_BYTES.check(request.content_length)
        for value in (request.view_args or {}).values():
            if isinstance(value, str):
                limits.SLUG_BYTES.check(len(value.encode("utf-8", "surrogatepass")))
        declared = limits.limits_of(current_app.view_functions.get(request.endpoint or ""))
        if declared is None:
            return
        if declared.query:
            limits.QUERY_CHARS.check(len(request.args.get(declared.query, "").strip()))
        if request.method in ("GET", "HEAD"):
            return
        if declared.body is not None and request.content_length is not None:
            declared.body.check(request.content_length)
        if declared.scenario:
            check_scenario_body(request.get_data(), request.mimetype)
    except LimitExceeded as exc:
        raise _api_error(exc) from None


def check_scenario_body(data: bytes, mimetype: str) -> None:
    """A posted scenario, bounded by the same checks ``replay.load_text`` applies (``limits.check_scenario``)."""
    limits.check_scenario(data, mimetype)


# Raised inside a replay that ran past its deadline (the engine's own check, core/deadline.py).
ReplayTimeout = DeadlineExceeded

REPLAY_CLOCK = "_replay_clock_started"


def start_replay_clock() -> None:
    """The first hook of every request: a replay's time counts from here, so reading the YAML counts too."""
    g.setdefault(REPLAY_CLOCK, time.monotonic())


def with_deadline(view: Callable[..., Any], seconds: float) -> Callable[..., Any]:
    """Run ``view`` with a wall-clock deadline counted from the start of the request.

    The engine looks at the clock every few dozen steps (``core/deadline.py``), so
    the deadline costs nothing measurable, works in any thread, and stops a
    runaway replay only at a step boundary. Parsing and checking the scenario
    happen before the engine runs and are bounded by the scenario limits; they
    count against the same deadline (``replay.replay`` checks it before the
    engine starts), so a slow parse leaves the engine less time, not more.
    """

    @functools.wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        started = g.get(REPLAY_CLOCK) or time.monotonic()
        try:
            with deadline_at(started + seconds):
                return view(*args, **kwargs)
        except DeadlineExceeded:
            raise _api_error(LimitExceeded(limits.REPLAY_SECONDS)) from None

    wrapped._with_deadline = True  # type: ignore[attr-defined]
    return wrapped


def _error_response(limit: Limit, actual: int | float | None = None,
                    message: str | None = None) -> Response | tuple[str, int]:
    """413/414 raised by Werkzeug itself, in the app's error shapes (JSON under /api, a page elsewhere)."""
    message = message or limit.message(actual)
    if request.path == "/api" or request.path.startswith("/api/"):
        resp = jsonify({"status": limit.status, "code": limit.code, "message": message, "limit": limit.value})
        resp.status_code = limit.status
        return resp
    return render_template("error.html", status=limit.status, code=limit.code, message=message), limit.status


def _too_large(exc: Exception):
    return _error_response(limits.BODY_BYTES, request.content_length)


def _url_too_long(exc: Exception):
    return _error_response(limits.URL_CHARS)


def _limit_exceeded(exc: LimitExceeded):
    """A limit checked inside a view (not before it) answers like one checked before it."""
    return _error_response(exc.limit, message=exc.message)


# ------------------------------------------------------------------ response cache
class ResponseCache:
    """Finished GET responses of one build, by URL and encoding, least recently used dropped first.

    Pages and API answers depend only on the URL and the build, so once a worker
    has rendered one it can send the same bytes (already compressed, with their
    ETag) until the store is rebuilt. The cache lives in the build's generation
    (``app/store/swap.py``), so a rebuild empties it atomically with the swap.
    """

    def __init__(self, max_entries: int = RESPONSE_CACHE_ENTRIES, max_bytes: int = RESPONSE_CACHE_BYTES):
        self.max_entries, self.max_bytes = max_entries, max_bytes
        self._items: OrderedDict[tuple[str, bool], tuple[int, list[tuple[str, str]], bytes]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, key: tuple[str, bool]) -> tuple[int, list[tuple[str, str]], bytes] | None:
        with self._lock:
            item = self._items.get(key)
            if item is None:
                self.misses += 1
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return item

    def put(self, key: tuple[str, bool], status: int, headers: list[tuple[str, str]], body: bytes) -> None:
        if len(body) > self.max_bytes // 16:
            return
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._bytes -= len(old[2])
            self._items[key] = (status, headers, body)
            self._bytes += len(body)
            while len(self._items) > self.max_entries or self._bytes > self.max_bytes:
                _, dropped = self._items.popitem(last=False)
                self._bytes -= len(dropped[2])


def _cache_for_request() -> ResponseCache | None:
    """The response cache of the build this request is pinned to (None when the app does not swap)."""
    svc = current_app.extensions.get("rulings")
    generation = getattr(svc, "generation", None)
    if generation is None or not current_app.config.get("RESPONSE_CACHE", True):
        return None
    gen = generation()
    if gen.identity is None:
        return None
    cache = gen.memo.get("responses")
    if cache is None:
        cache = gen.memo.setdefault("responses", ResponseCache())
    return cache


def _cache_key() -> tuple[str, bool]:
    return request.url, "gzip" in request.headers.get("Accept-Encoding", "").lower()


def serve_cached() -> Response | None:
    """Answer a GET from the response cache when this build already rendered the same URL."""
    if request.method not in ("GET", "HEAD") or request.endpoint in (None, "static", "health.healthz"):
        return None
    cache = _cache_for_request()
    if cache is None:
        return None
    item = cache.get(_cache_key())
    if item is None:
        return None
    status, headers, body = item
    resp = Response(body, status=status, headers=headers)
    g._from_response_cache = True
    return resp.make_conditional(request)


def _remember(resp: Response) -> None:
    if g.get("_from_response_cache") or resp.status_code != 200 or resp.direct_passthrough or resp.is_streamed:
        return
    if request.endpoint in (None, "static", "health.healthz") or "public" not in resp.headers.get("Cache-Control", ""):
        return
    cache = _cache_for_request()
    if cache is not None:
        skip = {"content-length", "server-timing", "date"}
        headers = [(k, v) for k, v in resp.headers.items() if k.lower() not in skip]
        cache.put(_cache_key(), resp.status_code, headers, resp.get_data())


# ------------------------------------------------------------------ responses
def finish_response(resp: Response) -> Response:
    """Security headers on everything; cache headers, ETag/304 and gzip on successful GETs."""
    if g.get("_from_response_cache"):
        return resp          # stored with every header already set
    for name, value in SECURITY_HEADERS.items():
        resp.headers[name] = value
    if request.is_secure:
        resp.headers["Strict-Transport-Security"] = HSTS
    if request.method not in ("GET", "HEAD") or resp.status_code != 200:
        if resp.status_code >= 400 or request.method not in ("GET", "HEAD"):
            resp.headers.setdefault("Cache-Control", "no-store")
        return resp
    is_static = request.endpoint == "static"
    resp.headers.setdefault("Cache-Control",
                            f"public, max-age={STATIC_MAX_AGE if is_static else PAGE_MAX_AGE}")
    if resp.headers.get("Cache-Control") == "no-store":
        return resp
    return conditional_and_compressed(resp)


def _compressible(resp: Response) -> bool:
    return resp.mimetype.startswith(_COMPRESSIBLE) and "Content-Encoding" not in resp.headers


def conditional_and_compressed(resp: Response) -> Response:
    """ETag (one per representation: the gzip one ends in ``-gz``), 304 on a match, then gzip."""
    if resp.direct_passthrough:
        # send_file (static files): small text files are read so they can be compressed too.
        if not _compressible(resp) or (resp.content_length or 0) > _MAX_PASSTHROUGH_BYTES:
            return resp
        resp.direct_passthrough = False
        body = resp.get_data()
    elif resp.is_streamed:
        return resp  # a generator: compressing it would mean buffering it
    else:
        body = resp.get_data()
    base, weak = resp.get_etag()
    if not base:
        base, weak = hashlib.blake2b(body, digest_size=12).hexdigest(), False
    use_gzip = (_compressible(resp) and len(body) >= GZIP_MIN_BYTES
                and "gzip" in request.headers.get("Accept-Encoding", "").lower())
    if _compressible(resp):
        resp.vary.add("Accept-Encoding")
    resp.set_etag(base + ("-gz" if use_gzip else ""), weak=weak)
    if use_gzip:
        resp.set_data(gzip.compress(body, compresslevel=GZIP_LEVEL, mtime=0))
        resp.headers["Content-Encoding"] = "gzip"
    _remember(resp)
    return resp.make_conditional(request)
