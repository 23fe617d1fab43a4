"""``<link rel="canonical">`` from the configured public address, never from the request.

The Host header is the client's to choose, and pages are cached (per worker and
by any proxy), so a canonical link echoing it would let one request plant a
foreign host name in a page everyone else is served. The public address is
configuration (``BASE_URL`` in the app config, or ``RULINGS_BASE_URL``); when
none is configured the link is left out rather than guessed.
"""
from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, current_app, request

from app import config


def normalise_base_url(raw: str | None) -> str | None:
    """``https://host[:port][/prefix]`` without a trailing slash; anything else is a configuration error."""
    if not raw:
        return None
    parts = urlsplit(raw.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment \
            or "@" in parts.netloc:
        raise ValueError(f"RULINGS_BASE_URL must look like https://rulings.example.org, got {raw!r}")
    return f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}"


def init_canonical(app: Flask) -> None:
    app.config["BASE_URL"] = normalise_base_url(app.config.get("BASE_URL") or config.base_url())

    @app.context_processor
    def _canonical() -> dict[str, str | None]:
        base = current_app.config.get("BASE_URL")
        return {"canonical_url": f"{base}{request.path}" if base else None}
