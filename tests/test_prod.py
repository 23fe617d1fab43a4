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
    assert argv[argv.index("--workers") + 1] == str(max(2, len(os.sched_getaffinity(0)))) == str(workers())
    assert argv[argv.index("--bind") + 1] == "127.0.0.1:8000"
    assert argv[argv.index("--worker-class") + 1] == "sync"      # behind nginx, which buffers for it
    assert argv[-1].startswith("app:create_app(") and "'BEHIND_PROXY': True" in argv[-1]
    assert not {"--reload", "--debug", "--access-logfile"} & set(argv)
    direct = gunicorn_argv("0.0.0.0", 8000, fronted=False)     # no nginx: threads, and no proxy trusted
    assert direct[direct.index("--worker-class") + 1] == "gthread" and "BEHIND_PROXY" not in direct[-1]


def test_rulings_serve_prod_serves_healthz_on_loopback_and_stops(built_index):
    port = _free_port()
    env = dict(os.environ, RULINGS_INDEX_DIR=str(built_index))
    env.pop("RULINGS_ENV", None)
    # Exactly what an operator runs; SIGTERM to it must stop gunicorn and its workers.
    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "serve", "--prod", "--host", "127.0.0.1",
                             "--port", str(port)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 90
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


def test_two_rebuilds_during_one_request_leave_its_search_index_in_place(own_index):
    """A request pinned to build A still searches A's index after builds B and C replaced it."""
    from app import create_app
    from app.store.build import build, read_meta
    from app.web import services
    from app.web.api import run_search

    app = create_app({"DB_PATH": str(own_index / "rules.db")})
    started, proceed = threading.Event(), threading.Event()

    @app.get("/_test/held")
    def held():
        store = services().store
        before = dict(store.meta)
        started.set()
        proceed.wait(120)
        # The first search of this request happens after both rebuilds: it opens A's index from disk.
        hits = run_search("moat attack", 5)["results"]
        return {"search_dir": before["search_dir"], "exists": store.search_dir.is_dir(), "hits": len(hits),
                "again": dict(services().store.meta)["built_at"], "built_at": before["built_at"]}

    result: dict = {}
    status: list[int] = []

    def run() -> None:
        resp = app.test_client().get("/_test/held")
        status.append(resp.status_code)
        result.update(resp.get_json() or {})

    t = threading.Thread(target=run)
    t.start()
    try:
        assert started.wait(30)
        dirs = [read_meta(own_index / "rules.db")["search_dir"]]
        for _ in range(2):
            build(force=True, index_dir=own_index)
            dirs.append(read_meta(own_index / "rules.db")["search_dir"])
    finally:
        proceed.set()
        t.join(120)

    assert status == [200], result
    assert len(set(dirs)) == 3                       # A, B and C are three builds
    assert result["search_dir"] == dirs[0] and result["again"] == result["built_at"]
    assert result["exists"] and result["hits"] > 0
    # New requests get C; A and B stay on disk for requests that may still hold them.
    assert app.test_client().get("/healthz").get_json()["built_at"] == read_meta(own_index / "rules.db")["built_at"]
    assert {p.name for p in own_index.glob("search-*")} == set(dirs)


def test_superseded_search_indexes_are_removed_once_no_request_can_hold_them(tmp_path):
    """Retention by age since superseded: past it a directory goes, and never the current one."""
    from app.store.build import SEARCH_DIR_RETENTION_SECONDS, _remove_stale_search_dirs
    from app.web import limits

    timeout = float(gunicorn_argv("127.0.0.1", 1)[gunicorn_argv("127.0.0.1", 1).index("--timeout") + 1])
    assert SEARCH_DIR_RETENTION_SECONDS > 10 * max(timeout, limits.REPLAY_SECONDS.value)
    now = time.time()
    ages = {"search-a": SEARCH_DIR_RETENTION_SECONDS + 60, "search-b": SEARCH_DIR_RETENTION_SECONDS - 60,
            "search-c": 5, "search-current": SEARCH_DIR_RETENTION_SECONDS * 10}
    for name, age in ages.items():
        (tmp_path / name).mkdir()
        os.utime(tmp_path / name, (now - age, now - age))
    removed = _remove_stale_search_dirs(tmp_path, keep="search-current", now=now)
    assert [p.name for p in removed] == ["search-a"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["search-b", "search-c", "search-current"]


def test_a_rebuild_stamps_the_replaced_index_so_its_retention_starts_then(own_index):
    """The directory a rebuild replaces counts its age from the rebuild, not from when it was written."""
    from app.store.build import build, read_meta

    old = own_index / read_meta(own_index / "rules.db")["search_dir"]
    long_ago = time.time() - 365 * 24 * 3600
    os.utime(old, (long_ago, long_ago))              # written a year ago...
    started = time.time()
    build(force=True, index_dir=own_index)
    assert old.is_dir()                              # ...but replaced just now: kept
    assert old.stat().st_mtime >= started - 1
