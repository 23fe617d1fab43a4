"""Production serving: gunicorn answers on loopback and stops cleanly; a rebuild swaps in under live traffic.

The swap tests copy the session build into their own directory and rebuild
there, so other tests keep their store.
"""
from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from app.web.prod import gunicorn_argv, workers


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_prod_command_runs_one_sync_worker_per_core_against_the_app_factory():
    argv = gunicorn_argv("127.0.0.1", 8000)
    assert argv[argv.index("--workers") + 1] == str(len(os.sched_getaffinity(0))) == str(workers())
    assert argv[argv.index("--bind") + 1] == "127.0.0.1:8000"
    assert argv[-1] == "app:create_app()"
    assert not {"--reload", "--debug", "--access-logfile"} & set(argv)


def test_rulings_serve_prod_serves_healthz_on_loopback_and_stops(built_index):
    port = _free_port()
    env = dict(os.environ, RULINGS_INDEX_DIR=str(built_index))
    env.pop("RULINGS_ENV", None)
    # Exactly what an operator runs; SIGTERM to it must stop gunicorn and its workers.
    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "serve", "--prod", "--host", "127.0.0.1",
                             "--port", str(port)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        body = None
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as resp:
                    body = json.loads(resp.read())
                    headers = resp.headers
                    break
            except OSError:
                time.sleep(0.1)
        assert body is not None, f"gunicorn did not answer: {proc.stderr.read().decode()[-2000:]}"
        # The build on disk now: 'serve' rebuilds first when the build code changed since the
        # session build (other work in the same checkout), so compare with the file, not a cache.
        from app.store.build import read_meta

        on_disk = read_meta(built_index / "rules.db")
        assert body["corpus_version"] == on_disk["corpus_version"]
        assert body["built_at"] == on_disk["built_at"]
        assert "default-src 'self'" in headers["Content-Security-Policy"]
        assert headers["Cache-Control"] == "no-store"
        # A real page through the same server: compressed on request.
        req = urllib.request.Request(f"http://127.0.0.1:{port}/cards/moat", headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(req, timeout=10) as resp:
            assert resp.status == 200 and resp.headers["Content-Encoding"] == "gzip"
    finally:
        proc.terminate()
        code = proc.wait(timeout=30)
    assert code == 0
    with socket.socket() as s:       # nothing is left listening on the port
        assert s.connect_ex(("127.0.0.1", port)) != 0


# ------------------------------------------------------------------ swapping a rebuilt store in
@pytest.fixture()
def own_index(built_index, tmp_path) -> Path:
    """A private copy of the session build that a test may rebuild."""
    index = tmp_path / "index"
    index.mkdir()
    shutil.copy2(built_index / "rules.db", index / "rules.db")
    from app.store.build import read_meta

    name = read_meta(index / "rules.db")["search_dir"]
    shutil.copytree(built_index / name, index / name)
    return index


def services_store_meta(store) -> dict:
    """Meta read through a fresh connection of ``store`` (the caller runs this in a new thread)."""
    return {k: v for k, v in store.conn.execute("select key, value from meta").fetchall()}


def test_rebuild_under_live_traffic_swaps_atomically(own_index):
    """One rebuild, two promises: concurrent requests all succeed, and a request in flight keeps its build."""
    from app import create_app
    from app.store.build import build, read_meta
    from app.web import services
    from app.web.api import run_search

    app = create_app({"DB_PATH": str(own_index / "rules.db")})
    started, proceed = threading.Event(), threading.Event()

    @app.get("/_test/inflight")
    def inflight():
        store = services().store
        before = dict(store.meta)
        started.set()
        proceed.wait(60)
        # After the swap, in the same request: the same build by every route into the store,
        # including a thread that opens its first connection only now.
        again = dict(services().store.meta)
        seen_by_new_thread: dict = {}
        t = threading.Thread(target=lambda: seen_by_new_thread.update(services_store_meta(store)))
        t.start()
        t.join()
        hits = run_search("moat attack", 5)["results"]
        return {"before": before, "again": again, "thread": seen_by_new_thread, "hits": len(hits),
                "search_dir_exists": store.search_dir.is_dir()}

    urls = ["/healthz", "/api/cards/moat", "/cards/throne-room", "/api/search?q=moat+attack", "/rules"]
    failures: list[str] = []
    statuses: list[int] = []
    stop = threading.Event()

    def hammer(offset: int) -> None:
        client = app.test_client()
        i = offset
        while not stop.is_set():
            url = urls[i % len(urls)]
            resp = client.get(url)
            statuses.append(resp.status_code)
            if resp.status_code != 200:
                failures.append(f"{url}: {resp.status_code} {resp.get_data(as_text=True)[:200]}")
            i += 1
            time.sleep(0.005)   # leave the build some CPU on a shared 2-core machine

    first = app.test_client().get("/healthz").get_json()
    result: dict = {}
    held = threading.Thread(target=lambda: result.update(app.test_client().get("/_test/inflight").get_json()))
    held.start()
    assert started.wait(30)
    threads = [threading.Thread(target=hammer, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    try:
        build(force=True, index_dir=own_index)
        time.sleep(0.3)
    finally:
        stop.set()
        proceed.set()
        for t in threads:
            t.join(30)
        held.join(60)

    assert not failures, failures[:5]
    assert len(statuses) > 20
    assert result["before"] == result["again"] == result["thread"]
    assert result["before"]["built_at"] == first["built_at"]
    assert result["hits"] > 0 and result["search_dir_exists"]
    new = read_meta(own_index / "rules.db")
    assert new["search_dir"] != result["before"]["search_dir"]
    assert app.test_client().get("/healthz").get_json()["built_at"] == new["built_at"]
    assert app.extensions["rulings"].generations.swaps == 1
