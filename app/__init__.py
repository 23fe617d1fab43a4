"""Dominion rulings: a rules reference and ruling assistant.

The data flows one way: documents in ``corpus/`` -> parsers (``app.corpus``)
-> the SQLite store (``app.store``) -> the search index (``app.search``) and
the pages (``app.web``). The engine (``app.engine``) runs executable card
definitions and replays scenarios that cite the rulings they demonstrate.
"""


def create_app(*args, **kwargs):
    """Flask app factory, importable as ``app:create_app()`` for gunicorn."""
    from app.web import create_app as _create_app

    return _create_app(*args, **kwargs)
