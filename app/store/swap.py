"""A running app picks up a rebuilt store between requests, never during one.

``rulings build`` writes the new database to a temporary file, writes its search
index into a fresh directory and then ``os.replace``s the database, so the path
``index/rules.db`` always names a complete build. What a *running* process must
avoid is mixing two builds inside one request: a plain ``Store`` opens one
SQLite connection per thread lazily, by path, so a thread that first touches the
store after a swap would read the new file while the request still holds the old
file's meta (and so the old search directory).

The fix here is a *generation*: one build, pinned.

* At the start of each request the app ``stat``s the database (about a
  microsecond). If the file is a different one (inode, size or mtime changed) a
  new generation is opened; otherwise the current one is reused.
* A generation reads the database file once through a read-only descriptor
  (``O_RDONLY``) into memory and gives every thread an in-memory SQLite copy of
  exactly those bytes (``deserialize``) with ``query_only`` on. Whatever happens
  to the path afterwards, that generation keeps answering from the same build,
  and its meta names the search directory written for it.
* The request keeps the generation it started with (Flask's ``g``), so a page
  assembled from many queries sees one build from start to end. Old generations
  are dropped when the last request holding them finishes. Their search
  directories outlive them on disk: ``rulings build`` removes a superseded one
  only ``SEARCH_DIR_RETENTION_SECONDS`` after it was replaced, far longer than
  any request may run, so even several rebuilds during one request leave its
  index in place.

The database is a few megabytes, so a copy per worker thread is cheap, and
reading from memory is faster than from the file.
"""
from __future__ import annotations

import os
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from app.store.db import Store, StoreMissing


@dataclass(frozen=True)
class FileIdentity:
    """What tells two builds apart on disk: ``os.replace`` always brings a new inode."""

    device: int
    inode: int
    size: int
    mtime_ns: int

    @classmethod
    def of(cls, st: os.stat_result) -> "FileIdentity":
        return cls(st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def identity(path: Path) -> FileIdentity | None:
    """The identity of the file at ``path`` now, or None when there is none (not built yet)."""
    try:
        return FileIdentity.of(os.stat(path))
    except FileNotFoundError:
        return None


class SnapshotStore(Store):
    """A ``Store`` whose every connection reads one in-memory image of one build.

    ``path`` stays the real path so that ``search_dir`` resolves next to it.
    """

    def __init__(self, path: Path, image: bytes):
        self._image = image
        super().__init__(path)

    @property
    def conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(":memory:", check_same_thread=False)
            conn.deserialize(self._image)
            # The copy is private to this process, but nothing that serves a
            # request has any business writing to it either.
            conn.execute("pragma query_only = on")
            conn.row_factory = sqlite3.Row
            self._local.conn = conn
        return conn


def read_image(path: Path) -> tuple[bytes, FileIdentity]:
    """The bytes of the database file and the identity of the file they came from.

    Opened ``O_RDONLY``: the web app never holds a handle that could write the store.
    A build never writes the file in place, but if the file changed while it was
    read (someone did), the read is retried rather than returning a torn image.
    """
    for _ in range(5):
        fd = os.open(path, os.O_RDONLY)
        try:
            before = FileIdentity.of(os.fstat(fd))
            chunks = []
            while chunk := os.read(fd, 1 << 20):
                chunks.append(chunk)
            after = FileIdentity.of(os.fstat(fd))
        finally:
            os.close(fd)
        if before == after:
            return b"".join(chunks), before
        time.sleep(0.05)
    raise StoreMissing(f"{path} kept changing while it was read; is something writing it in place?")


def open_snapshot(path: Path) -> tuple[SnapshotStore, FileIdentity]:
    image, ident = read_image(path)
    try:
        return SnapshotStore(path, image), ident
    except sqlite3.DatabaseError as exc:
        raise StoreMissing(f"{path} is not a readable rules store ({exc}); run 'rulings build --force'") from None


@dataclass
class Generation:
    """One build as the app serves it: the pinned store and the per-app services built on it."""

    identity: FileIdentity | None
    services: Any
    opened_at: float = field(default_factory=time.time)
    # Per-build memo for whoever needs one (e.g. cached responses): dies with the build.
    memo: dict[Any, Any] = field(default_factory=dict)

    @property
    def token(self) -> str:
        """A short string naming this build, e.g. for cache keys and ETags."""
        i = self.identity
        return "none" if i is None else f"{i.inode:x}-{i.mtime_ns:x}"


class Generations:
    """Hands out the current generation of one database path, opening a new one after a rebuild.

    ``make_services(db_path)`` builds the app's per-build services (the web app's
    ``Services``); their store is replaced by the pinned snapshot before first use.
    """

    def __init__(self, db_path: Path, make_services: Callable[[Path], Any]):
        self.db_path = Path(db_path)
        self._make = make_services
        self._lock = threading.Lock()
        self._current: Generation | None = None
        self.swaps = 0

    def current(self) -> Generation:
        now = identity(self.db_path)
        gen = self._current
        if gen is not None and gen.identity == now:
            return gen
        with self._lock:
            gen = self._current
            now = identity(self.db_path)
            if gen is None or gen.identity != now:
                gen = self._open(now)
                if self._current is not None:
                    self.swaps += 1
                self._current = gen
        return gen

    def _open(self, now: FileIdentity | None) -> Generation:
        services = self._make(self.db_path)
        if now is None:
            # Not built: the services raise StoreMissing when a page asks for data.
            return Generation(None, services)
        store, ident = open_snapshot(self.db_path)
        _pin_store(services, store)
        return Generation(ident, services)


def _pin_store(services: Any, store: Store) -> None:
    """Give the services object the snapshot instead of letting it open the path itself.

    The web app's ``Services`` opens its store lazily into ``_store``; filling that
    slot first is the whole integration. ``tests/test_prod.py`` checks the served
    store is the snapshot, so a rename there fails a test instead of silently
    serving from the path.
    """
    if hasattr(services, "_store"):
        services._store = store
    else:  # pragma: no cover - only if the web app's services change shape
        raise TypeError(f"{type(services).__name__} has no _store slot to pin a snapshot into")


class SwappingServices:
    """Stands where the app keeps its services and forwards to the request's generation.

    Every attribute (``store``, ``renderer``, ``scenarios``, ...) comes from the
    generation pinned for the current request, so code that calls ``services()``
    several times in one request always talks to one build.
    """

    def __init__(self, generations: Generations):
        self._generations = generations

    @property
    def generations(self) -> Generations:
        return self._generations

    def generation(self) -> Generation:
        from flask import g, has_app_context

        if has_app_context():
            gen = g.get("_rulings_generation")
            if gen is None:
                gen = self._generations.current()
                g._rulings_generation = gen
            return gen
        return self._generations.current()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.generation().services, name)


def init_swap(app, key: str = "rulings") -> SwappingServices:
    """Replace ``app.extensions[key]`` (the web app's services) with a swapping stand-in.

    A ``before_request`` hook pins the generation at the start of each request;
    the ``stat`` it costs is what makes a rebuild visible without a restart.
    """
    existing = app.extensions[key]
    if isinstance(existing, SwappingServices):
        return existing
    db_path = Path(existing.db_path)
    factory = type(existing)
    swapping = SwappingServices(Generations(db_path, factory))
    app.extensions[key] = swapping

    @app.before_request
    def _pin_generation() -> None:
        swapping.generation()

    return swapping
