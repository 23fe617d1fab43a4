"""One error shape for the API and one error page for people.

Under ``/api`` every failure is ``{"status", "code", "message"}`` (plus
``nearest`` or ``line``/``step`` when known); elsewhere it is an HTML page that
says what went wrong and, for an unknown card or section, suggests the nearest
names. Unexpected exceptions are logged and answered with a 500 in the same
shapes, never a traceback.
"""
from __future__ import annotations

from typing import Any

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from app.store.db import StoreMissing
from app.web.data import NotFound


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, **extra: Any):
        self.status, self.code, self.message = status, code, message
        self.extra = {k: v for k, v in extra.items() if v is not None}
        super().__init__(message)


def _wants_json() -> bool:
    return request.path == "/api" or request.path.startswith("/api/")


def _printable(message: str) -> str:
    """The message as text a response can carry: a lone surrogate echoed from a request (a JSON
    "\\ud800" escape) becomes U+FFFD instead of failing the UTF-8 encoding of the error itself."""
    return message.encode("utf-8", "replace").decode("utf-8") if isinstance(message, str) else str(message)


def _respond(status: int, code: str, message: str, **extra: Any):
    message = _printable(message)
    if _wants_json():
        body = {"status": status, "code": code, "message": message, **extra}
        return jsonify(body), status
    return render_template("error.html", status=status, code=code, message=message, **extra), status


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def _api_error(exc: ApiError):
        return _respond(exc.status, exc.code, exc.message, **exc.extra)

    @app.errorhandler(NotFound)
    def _not_found(exc: NotFound):
        hint = f"; did you mean {', '.join(n['name'] for n in exc.nearest)}?" if exc.nearest else ""
        return _respond(404, f"unknown_{exc.what}", f"no {exc.what} {exc.key!r}{hint}", nearest=exc.nearest)

    @app.errorhandler(StoreMissing)
    def _store_missing(exc: StoreMissing):
        return _respond(503, "store_missing", f"the rules store is not built yet ({exc}); run 'rulings build'")

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException):
        code = (exc.name or "error").lower().replace(" ", "_")
        body, status = _respond(exc.code or 500, code, exc.description or exc.name)
        # a 405 says which methods are allowed (RFC 9110 15.5.6), as Werkzeug's own answer did
        allow = [v for k, v in exc.get_headers() if k.lower() == "allow"]
        return body, status, ({"Allow": allow[0]} if allow else {})

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        app.logger.exception("unhandled error on %s", request.path)
        return _respond(500, "internal_error", "something went wrong on our side; the error has been logged")
