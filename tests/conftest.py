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


@pytest.fixture(scope="session")
def app(built_index):
    """The web app in testing mode: an exception in a view fails the test loudly."""
    from app import create_app

    return create_app({"DB_PATH": built_index / "rules.db", "TESTING": True})


@pytest.fixture()
def client(app):
    return app.test_client()


@pytest.fixture(scope="session")
def prod_app(built_index):
    """The web app as production runs it: errors become 4xx/5xx answers, never tracebacks."""
    from app import create_app

    return create_app({"DB_PATH": str(built_index / "rules.db")})


@pytest.fixture()
def prod_client(prod_app):
    return prod_app.test_client()


@pytest.fixture()
def hold_replay_slots():
    """``hold(*lock_files)``: another process takes these replay slot files, as other workers' long replays
    would, until ``release()`` (returned) is called or the test ends."""
    import subprocess
    import sys
    import textwrap

    procs = []

    def hold(*paths):
        proc = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
            import fcntl, os, sys
            fds = [os.open(p, os.O_RDWR | os.O_CREAT) for p in {[str(p) for p in paths]!r}]
            for fd in fds:
                fcntl.flock(fd, fcntl.LOCK_EX)
            print("held", flush=True)
            sys.stdin.read()
        """)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        procs.append(proc)
        assert proc.stdout.readline().strip() == "held"

        def release():
            if proc.poll() is None:
                proc.stdin.close()
                proc.wait(10)
        return release

    yield hold
    for proc in procs:
        if proc.poll() is None:
            proc.stdin.close()
            proc.wait(10)
