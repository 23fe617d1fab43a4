"""Where things live. One place so the CLI, the web app and the tests agree.

Both locations can be overridden by environment variables so that tests can
build into a temporary directory without touching the developer's index.
"""
from __future__ import annotations

import os
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def corpus_dir() -> Path:
    return Path(os.environ.get("RULINGS_CORPUS_DIR", PROJECT_ROOT / "corpus"))


def index_dir() -> Path:
    return Path(os.environ.get("RULINGS_INDEX_DIR", PROJECT_ROOT / "index"))


def db_path() -> Path:
    return index_dir() / "rules.db"


def search_index_dir() -> Path:
    return index_dir() / "whoosh"


def scenarios_dir() -> Path:
    return corpus_dir() / "scenarios"


# The source documents, by role. File names are descriptive; the seeds'
# hashed names are recorded in corpus/README.md.
DOCUMENTS = {
    "rules": "complete-rules.txt",
    "language": "card-language.txt",
    "faq": "bgg-faq.txt",
    "german": "german-dividers.txt",
    "adventures": "adventures-rulebook.txt",
}


def base_url() -> str | None:
    """The public address of the site (``RULINGS_BASE_URL``, e.g. https://rulings.example.org).

    Canonical links are built from it, never from the request's Host header: a
    cached public page must not carry whatever host name one client sent.
    """
    return os.environ.get("RULINGS_BASE_URL") or None
