"""``rulings build``: parsed model -> ``index/rules.db`` (+ the search index).

The store is written to a temporary file and moved over the old one with
``os.replace``, so a failed or interrupted build never leaves a half-written
store in place of a good one, and a reader that already opened the old file
keeps reading a consistent snapshot. The search index is written to a new
directory named after the build; the store's ``meta`` table names the
directory that belongs to it, so a reader always gets a matching pair.

Old search directories are removed by age, not by count (``SEARCH_DIR_RETENTION_SECONDS``):
a request in flight keeps the build it started with, however many rebuilds
happen meanwhile, and still finds that build's search index.
"""
from __future__ import annotations

import concurrent.futures
import contextlib
import dataclasses
import hashlib
import json
import multiprocessing
import os
import re
import shutil
import signal
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import sqlite_utils

from app import config
from app.corpus.model import ParsedCorpus
from app.corpus.sources import corpus_fingerprint
from app.store.scenarios import Replayed, ScenarioRow, replay_files, scenario_rows

# How long a superseded search index stays on disk. A request pins the build it
# started with (app/store/swap.py), so a directory is needed only by requests that
# started before its build was replaced; gunicorn ends any request after its
# --timeout (30 s, app/web/prod.py) and a replay stops after limits.REPLAY_SECONDS.
# Ten minutes is twenty times that, and also covers the development server, which
# has no request timeout. Counting builds instead ("keep the last one") is not
# enough: two rebuilds within one request would delete the index it holds.
SEARCH_DIR_RETENTION_SECONDS = 10 * 60

# ParsedCorpus attribute -> table name. One table per model class.
TABLES = {
    "sections": "sections",
    "paragraphs": "paragraphs",
    "cards": "cards",
    "previous_versions": "previous_versions",
    "rulings": "rulings",
    "index_terms": "index_terms",
    "faq_clarifications": "faq_clarifications",
    "rulebook_cards": "rulebook_cards",
    "german_names": "german_names",
    "german_passages": "german_passages",
    "references": "refs",
    "rule_questions": "rule_questions",
    "faq_superseded": "faq_superseded",
    "restatements": "restatements",
    "disagreements": "disagreements",
}

INDEXES = {
    "paragraphs": [["section"]],
    "rulings": [["card"], ["version"]],
    "refs": [["source_key"], ["target_key"]],
    "faq_clarifications": [["card"]],
    "german_names": [["card"], ["german"]],
    "sections": [["doc", "kind"], ["parent"]],
    "rule_questions": [["target"]],
    "disagreements": [["card"]],
}


@dataclass
class BuildResult:
    db_path: Path
    skipped: bool
    seconds: float
    fingerprint: str
    parsed: ParsedCorpus | None = None


def needs_build(db_path: Path | None = None, corpus: Path | None = None) -> bool:
    db_path = db_path or config.db_path()
    if not db_path.exists():
        return True
    try:
        meta = read_meta(db_path)
    except sqlite3.Error:
        return True
    search_dir = db_path.parent / meta.get("search_dir", "")
    if not meta.get("search_dir") or not search_dir.is_dir():
        return True
    return meta.get("fingerprint") != build_fingerprint(corpus)


# The code (and the committed word vectors) that decide what the store and the index contain. A change to a
# parser or to the indexer must rebuild, even when the documents are the same;
# the engine too, since the build replays every scenario into the store (the
# scenario files themselves are part of the corpus fingerprint).
_BUILD_CODE = ("corpus", "search", "engine", "store/build.py", "store/scenarios.py",
               "search/embedding-words.json")      # the committed word vectors the build applies


def build_fingerprint(corpus: Path | None = None) -> str:
    """The corpus version plus the version of the code that builds from it."""
    package = Path(__file__).resolve().parent.parent
    h = hashlib.sha256(corpus_fingerprint(corpus).encode())
    for part in _BUILD_CODE:
        path = package / part
        for source in sorted(path.rglob("*.py") if path.is_dir() else [path]):
            h.update(source.read_bytes())
    return h.hexdigest()[:16]


def read_meta(db_path: Path) -> dict[str, str]:
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        return dict(conn.execute("select key, value from meta").fetchall())
    finally:
        conn.close()


def build(force: bool = False, corpus: Path | None = None, index_dir: Path | None = None,
          with_search: bool = True) -> BuildResult:
    """Parse the corpus and write the store; skip when the corpus has not changed."""
    from app.corpus.pipeline import parse_corpus

    index_dir = index_dir or config.index_dir()
    db_path = index_dir / "rules.db"
    start = time.perf_counter()
    remove_abandoned_temp_files(index_dir)
    fingerprint = build_fingerprint(corpus)
    if not force and not needs_build(db_path, corpus):
        return BuildResult(db_path, True, time.perf_counter() - start, fingerprint)

    scenario_dir = (corpus or config.corpus_dir()) / "scenarios"
    with _replaying(scenario_dir) as replayed:
        parsed = parse_corpus(corpus)
        scenarios = scenario_rows(parsed, scenario_dir, replayed())
    index_dir.mkdir(parents=True, exist_ok=True)
    previous = _current_search_dir(db_path)
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")
    tmp_db = index_dir / f".rules.db.{os.getpid()}.{stamp}.tmp"
    search_name = f"search-{fingerprint}-{stamp}"
    search_dir = index_dir / search_name
    with _sigterm_as_exit():
        _write_and_swap(tmp_db, db_path, search_dir, parsed, scenarios, fingerprint, search_name, with_search,
                        corpus)
    if previous is not None and previous.name != search_name:
        _mark_superseded(previous)
    _remove_stale_search_dirs(index_dir, keep=search_name)
    return BuildResult(db_path, False, time.perf_counter() - start, fingerprint, parsed)


@contextlib.contextmanager
def _replaying(directory: Path) -> Iterator[Callable[[], tuple[list[Replayed], list[str]]]]:
    """Replay the scenario files in a second process while this one parses the corpus (each takes about 2 s
    of a 9 s build; a fresh clone's ``rulings serve`` waits for the build). Yields a function returning the
    replays. The process is forked, so it starts with what this one imported; forking is safe only while
    this process has one thread, so with more (a test's server, a web worker), with one core, or when no
    process can be started, the replays run here when asked for."""
    if (os.cpu_count() or 1) < 2 or threading.active_count() > 1 or "fork" not in multiprocessing.get_all_start_methods():
        yield lambda: replay_files(directory)
        return
    try:
        pool = concurrent.futures.ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("fork"))
        pending = pool.submit(replay_files, directory)
    except (OSError, RuntimeError):
        yield lambda: replay_files(directory)
        return
    try:
        yield pending.result
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _write_and_swap(tmp_db: Path, db_path: Path, search_dir: Path, parsed: ParsedCorpus,
                    scenarios: list[ScenarioRow], fingerprint: str, search_name: str, with_search: bool,
                    corpus: Path | None) -> None:
    try:
        _write_store(tmp_db, parsed, scenarios, {
            "fingerprint": fingerprint,
            "built_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "search_dir": search_name if with_search else "",
            "corpus_version": corpus_fingerprint(corpus),
        })
        if with_search:
            from app.search.indexer import build_search_index

            build_search_index(tmp_db, search_dir)
        os.replace(tmp_db, db_path)
    except BaseException:
        for leftover in tmp_db.parent.glob(tmp_db.name + "*"):    # the file and any SQLite journal
            leftover.unlink(missing_ok=True)
        shutil.rmtree(search_dir, ignore_errors=True)
        raise


@contextlib.contextmanager
def _sigterm_as_exit():
    """While the store is written, SIGTERM (a service manager, ``kill``) unwinds like Ctrl-C.

    Python's default for SIGTERM is to die on the spot, skipping the cleanup above
    and leaving a temporary store of several megabytes behind. Only the main thread
    may set a handler; elsewhere the next build's ``remove_abandoned_temp_files`` is the net.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):  # noqa: ARG001 - signal handler signature
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


_TMP_RE = re.compile(r"\.rules\.db\.(\d+)\.[0-9TZ]+\.tmp(-journal|-wal|-shm)?")
# A temporary store older than this is abandoned even if its pid now names a live process (pids are reused).
ABANDONED_TMP_SECONDS = 6 * 3600


def remove_abandoned_temp_files(index_dir: Path, now: float | None = None) -> list[Path]:
    """Remove temporary stores left by builds that died (SIGKILL, power loss) before cleaning up.

    A build in progress names its file after its pid, so another build's file is
    left alone while that process lives (and for ``ABANDONED_TMP_SECONDS`` at most).
    """
    now = time.time() if now is None else now
    removed = []
    for path in index_dir.glob(".rules.db.*.tmp*"):
        m = _TMP_RE.fullmatch(path.name)
        if m is None:
            continue
        pid = int(m.group(1))
        try:
            age = now - path.stat().st_mtime
        except OSError:
            continue
        if pid == os.getpid() or (_alive(pid) and age < ABANDONED_TMP_SECONDS):
            continue
        path.unlink(missing_ok=True)
        removed.append(path)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _write_store(path: Path, parsed: ParsedCorpus, scenarios: list[ScenarioRow], meta: dict[str, str]) -> None:
    db = sqlite_utils.Database(path)
    # A new temporary file, moved into place only when complete (build()): no journal on disk and no
    # sync per insert; the finished file is synced once below, before it can replace the old store.
    db.conn.execute("pragma journal_mode=memory")
    db.conn.execute("pragma synchronous=off")
    for attr, table in TABLES.items():
        rows = [_row(obj) for obj in getattr(parsed, attr)]
        if not rows:
            continue
        db[table].insert_all(rows, pk="key", alter=True, replace=True)
        for cols in INDEXES.get(table, []):
            db[table].create_index(cols, if_not_exists=True)
    db["unjoined"].insert_all(
        [{"card": slug, "reason": reason} for slug, reason in parsed.unjoined], pk="card", replace=True
    )
    _write_scenarios(db, scenarios)
    db["symbol_gaps"].create({"key": str, "doc": str, "line": int, "gap": int, "context": str, "owner": str,
                              "card": str, "restored": str, "source": str, "why": str, "lost": int},
                             pk="key", if_not_exists=True)
    if parsed.symbols is not None:
        db["symbol_gaps"].insert_all(parsed.symbols.rows(), pk="key", replace=True)
    db["meta"].insert_all([{"key": k, "value": v} for k, v in meta.items()], pk="key")
    db.conn.commit()
    db.conn.execute("vacuum")
    db.close()
    with open(path, "rb") as fh:
        os.fsync(fh.fileno())


def _write_scenarios(db: sqlite_utils.Database, scenarios: list[ScenarioRow]) -> None:
    """The tables of SCENARIO_STORE.md; created even when there is no scenario, so readers need no special case."""
    db["scenarios"].create({
        "key": str, "title": str, "file": str, "sets": str, "cards": str, "rulings": str, "ruling_keys": str,
        "settles": str, "settles_at": int, "log": str, "ok": int}, pk="key", if_not_exists=True)
    db["scenario_cards"].create({"scenario": str, "card": str}, pk=("scenario", "card"), if_not_exists=True)
    db["scenarios"].insert_all([s.as_row() for s in scenarios], pk="key", replace=True)
    db["scenario_cards"].insert_all([r for s in scenarios for r in s.card_rows], replace=True)
    db["scenario_cards"].create_index(["card"], if_not_exists=True)


def _row(obj) -> dict:
    row = {}
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        if isinstance(value, (list, tuple, dict)):
            value = json.dumps(value, ensure_ascii=False)
        row[f.name] = value
    row["key"] = obj.key
    for extra in ("anchor",):
        if hasattr(type(obj), extra):
            row[extra] = getattr(obj, extra)
    return row


def _current_search_dir(db_path: Path) -> Path | None:
    """The search directory the store at ``db_path`` names now (None when there is no readable store)."""
    if not db_path.exists():
        return None
    try:
        name = read_meta(db_path).get("search_dir")
    except sqlite3.Error:
        return None
    return db_path.parent / name if name else None


def _mark_superseded(search_dir: Path) -> None:
    """Stamp the moment a search directory stopped being current: its retention counts from here.

    The directory's mtime is the stamp (nothing writes into an index after its
    build), so no foreign file lands inside the search index.
    """
    try:
        os.utime(search_dir)
    except OSError:
        pass    # already gone: nothing to keep


def _remove_stale_search_dirs(index_dir: Path, keep: str, now: float | None = None,
                              retention: float = SEARCH_DIR_RETENTION_SECONDS) -> list[Path]:
    """Remove search directories other than ``keep`` superseded more than ``retention`` seconds ago.

    A directory's mtime is when it was superseded (``_mark_superseded``), or when
    it was written for one that never became current (a concurrent build still
    writing one is therefore young and left alone). Returns what was removed.
    """
    now = time.time() if now is None else now
    removed = []
    for d in index_dir.glob("search-*"):
        if d.name == keep or not d.is_dir():
            continue
        try:
            age = now - d.stat().st_mtime
        except OSError:
            continue
        if age > retention:
            shutil.rmtree(d, ignore_errors=True)
            removed.append(d)
    return removed
