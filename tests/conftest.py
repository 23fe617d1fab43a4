"""Shared fixtures: one real build of the whole corpus per test session.

Every test that needs the store or the search index uses ``built_index``: it
runs ``app.store.build.build`` on the real documents into a temporary
directory (about five seconds), and points ``RULINGS_INDEX_DIR`` at it for the
session, so no test reads or writes the developer's ``index/``.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def built_index(tmp_path_factory) -> Path:
    from app.store.build import build

    index = tmp_path_factory.mktemp("index")
    old = os.environ.get("RULINGS_INDEX_DIR")
    os.environ["RULINGS_INDEX_DIR"] = str(index)
    try:
        build(index_dir=index)
        yield index
    finally:
        if old is None:
            os.environ.pop("RULINGS_INDEX_DIR", None)
        else:
            os.environ["RULINGS_INDEX_DIR"] = old


@pytest.fixture(scope="session")
def store(built_index):
    from app.store.db import Store

    return Store(built_index / "rules.db")
