"""Replays get their own, bounded share of the server, and each client a budget of replay time.

A replay of a posted scenario or a sandbox link costs up to ``REPLAY_SECONDS``
of CPU; a card page from the response cache costs a millisecond. Without a
bound, a few clients looping 3-second replays occupy every worker and the cheap
pages wait behind them (``/healthz`` p50 2.8 s, ``/cards/village`` 6.1 s). Two
mechanisms, both checked before the scenario is even parsed:

* **Slots**: at most ``REPLAY_SLOTS`` replays run at once across all workers
  (default: one fewer than the workers, at least one), so some worker is always
  free for everything else. A slot is an exclusive ``flock`` on a file in the
  run directory: the kernel releases it when the request ends or the worker
  dies, so a killed worker can never leak one. No free slot: 503 with
  ``Retry-After``; the request is refused at once instead of queueing a worker.
* **Budgets** (``RATE_LIMITS``, on in ``rulings serve --prod``): each client
  (IP address; an IPv6 /64) has a bucket of replay *seconds*, refilled at
  ``REPLAY_RATE`` seconds per second up to ``REPLAY_BURST``. A replay is charged
  what it actually took (at least ``MIN_CHARGE``), so a player clicking through
  the sandbox never notices while a client looping 3-second replays gets one
  every twelve seconds. An empty bucket: 429 with ``Retry-After`` saying when it
  is positive again. The buckets live in a small shared memory file, so the
  budget holds across workers, not per worker.

* **A slot kept for small replays** (issue 36): 20 addresses looping an expensive
  scenario kept the general slots busy, and an ordinary player's sandbox move
  failed 26 times in 27. A request that finds every general slot busy is not
  refused at once: its scenario is read (bounded, a few milliseconds) and its
  size measured (cards named times steps, ``replay_work``); a replay the size of
  the sandbox's or the corpus scenarios' (``SMALL_REPLAY_WORK``) takes the small
  slot, a heavy one gets the 503. Heavy replays can never hold the small slot.

Replays of the scenario files themselves (``/scenarios/<id>``) are memoised per
build and cached as responses, so they are not gated: they are cheap pages.
"""
from __future__ import annotations

import fcntl
import hashlib
import ipaddress
import math
import mmap
import os
import struct
import tempfile
import threading
import time
from pathlib import Path

from flask import Flask, current_app, g, request

from app.web import limits
from app.web.errors import ApiError

REPLAY_RATE = 0.25          # replay seconds a client earns per second (15 s of replay a minute)
REPLAY_BURST = 10.0         # the most a client may have saved up
MIN_CHARGE = 0.05           # every replay request costs at least this (so cheap refusals are bounded too)
BUCKETS = 4096              # shared buckets; clients are hashed onto them
BUSY_RETRY_AFTER = 2        # seconds a client is told to wait when every slot is busy
# A small replay: cards named times (steps + 1). The corpus scenarios are at most 142 cards and 9 steps
# (about 1,400); a sandbox table (about 230 cards with its Supply) 200 moves long is about 46,000. The
# flooders' table (bench/heavy_scenario.py: 1,650 cards, 250 steps) is about 414,000.
SMALL_REPLAY_WORK = 50_000
SMALL_SLOTS = 1
# Replays of the project's own scenario files: memoised per build, so cheap pages, not gated.
CORPUS_REPLAYS = frozenset({"pages.scenario", "api.scenario"})

_RECORD = struct.Struct("dd")   # tokens, time they were counted at (monotonic clock)


def default_slots() -> int:
    """One fewer than the production workers, at least one: a worker stays free for cheap pages."""
    from app.web.prod import workers

    return max(1, workers() - 1)


def run_dir(app: Flask) -> Path:
    """Where slots and budgets live: shared by every worker of one server, private to it."""
    configured = app.config.get("RUN_DIR") or os.environ.get("RULINGS_RUN_DIR")
    path = Path(configured) if configured else Path(tempfile.mkdtemp(prefix="rulings-run-"))
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path


class ReplaySlots:
    """At most ``n`` holders at once, across processes and threads (one ``flock`` per slot file)."""

    def __init__(self, directory: Path, n: int, prefix: str = "replay-slot"):
        self.paths = [directory / f"{prefix}-{i}.lock" for i in range(n)]

    def try_acquire(self) -> int | None:
        """A file descriptor holding a slot, or None when all are busy. Close it to release."""
        for path in self.paths:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)   # a fresh open: its own lock
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            return fd
        return None

    @staticmethod
    def release(fd: int) -> None:
        os.close(fd)          # closing the descriptor drops the flock


class ReplayBudgets:
    """Token buckets of replay seconds per client, in a memory-mapped file every worker shares.

    Each process maps the file itself (after a fork too) and updates a bucket
    under a POSIX record lock on that bucket plus a thread lock, so two workers
    or two threads never lose each other's charges.
    """

    def __init__(self, path: Path, rate: float = REPLAY_RATE, burst: float = REPLAY_BURST,
                 buckets: int = BUCKETS):
        self.path, self.rate, self.burst, self.buckets = path, rate, burst, buckets
        self._pid: int | None = None
        self._fd = -1
        self._map: mmap.mmap | None = None
        self._lock = threading.Lock()

    def _mapped(self) -> mmap.mmap:
        if self._pid != os.getpid():          # first use in this process (workers are forked)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            size = self.buckets * _RECORD.size
            if os.fstat(fd).st_size < size:
                os.ftruncate(fd, size)
            self._fd, self._map, self._pid = fd, mmap.mmap(fd, size), os.getpid()
        assert self._map is not None
        return self._map

    def _index(self, client: str) -> int:
        return int.from_bytes(hashlib.blake2b(client.encode(), digest_size=4).digest(), "big") % self.buckets

    def _update(self, client: str, charge: float) -> float:
        """Refill the client's bucket to now, take ``charge`` from it, return what is left."""
        i = self._index(client)
        offset = i * _RECORD.size
        with self._lock:
            m = self._mapped()
            fcntl.lockf(self._fd, fcntl.LOCK_EX, _RECORD.size, offset)
            try:
                tokens, at = _RECORD.unpack_from(m, offset)
                now = time.monotonic()
                if at == 0.0 or at > now:             # never used (or the clock restarted: a reboot)
                    tokens, at = self.burst, now
                tokens = min(self.burst, tokens + (now - at) * self.rate) - charge
                _RECORD.pack_into(m, offset, tokens, now)
            finally:
                fcntl.lockf(self._fd, fcntl.LOCK_UN, _RECORD.size, offset)
        return tokens

    def remaining(self, client: str) -> float:
        return self._update(client, 0.0)

    def charge(self, client: str, seconds: float) -> float:
        return self._update(client, max(seconds, MIN_CHARGE))

    def retry_after(self, tokens: float) -> int:
        """Whole seconds until a bucket at ``tokens`` is above zero again."""
        return max(1, math.ceil(-tokens / self.rate)) if tokens <= 0 else 0


def client_key(addr: str | None) -> str:
    """The client a budget belongs to: its IPv4 address, or its IPv6 /64 (one household or server)."""
    try:
        ip = ipaddress.ip_address(addr or "")
    except ValueError:
        return addr or "unknown"
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


class ReplayGate:
    """The slots and budgets of one app, applied to every view that replays input from the request."""

    def __init__(self, app: Flask):
        directory = run_dir(app)
        self.slots = ReplaySlots(directory, int(app.config.get("REPLAY_SLOTS") or default_slots()))
        small = int(app.config.get("REPLAY_SMALL_SLOTS", os.environ.get("RULINGS_REPLAY_SMALL_SLOTS", SMALL_SLOTS)))
        self.small = ReplaySlots(directory, small, prefix="replay-small")
        self.budgets = ReplayBudgets(directory / "replay-budgets.bin",
                                     rate=float(app.config.get("REPLAY_RATE", REPLAY_RATE)),
                                     burst=float(app.config.get("REPLAY_BURST", REPLAY_BURST))) \
            if app.config.get("RATE_LIMITS") else None

    @staticmethod
    def gated(endpoint: str | None) -> bool:
        if endpoint is None or endpoint in CORPUS_REPLAYS:
            return False
        declared = limits.limits_of(current_app.view_functions.get(endpoint))
        return bool(declared and declared.replay)

    def enter(self) -> None:
        """Before anything else of a gated request (even parsing): check the budget, take a slot."""
        if not self.gated(request.endpoint):
            return
        client = client_key(request.remote_addr)
        if self.budgets is not None:
            tokens = self.budgets.remaining(client)
            if tokens <= 0:
                wait = self.budgets.retry_after(tokens)
                g._retry_after = wait
                raise ApiError(429, "too_many_replays",
                               f"this address has used its replay time for now ({self.budgets.rate:g} s of "
                               f"replay per second, at most {self.budgets.burst:g} s saved up); "
                               f"try again in {wait} s")
        fd = self.slots.try_acquire()
        if fd is None:
            if not self.small.paths:
                self._busy()
            g._replay_waiting = (client, time.monotonic())    # ``admit`` decides once the size is known
            return
        g._replay_gate = (fd, client, time.monotonic())

    def _busy(self) -> None:
        g._retry_after = BUSY_RETRY_AFTER
        raise ApiError(503, "replays_busy",
                       f"every replay slot ({len(self.slots.paths)}) is busy; the rest of the site is not; "
                       f"try again in {BUSY_RETRY_AFTER} s")

    def admit(self, work: int) -> None:
        """Once the scenario is read: a request without a general slot takes the small one if it is small."""
        waiting = g.pop("_replay_waiting", None)
        if waiting is None:
            return
        fd = self.small.try_acquire() if work <= SMALL_REPLAY_WORK else None
        if fd is None:
            g._replay_gate = (None, *waiting)      # charged for the reading all the same
            self._busy()
        g._replay_gate = (fd, *waiting)

    def leave(self, exc: BaseException | None = None) -> None:  # noqa: ARG002 - teardown signature
        held = g.pop("_replay_gate", None)
        if held is None:
            return
        fd, client, started = held
        if fd is not None:
            self.slots.release(fd)
        if self.budgets is not None:
            self.budgets.charge(client, time.monotonic() - started)


def init_capacity(app: Flask) -> ReplayGate:
    """Gate replays: runs right after the request clock starts, before limits, caching or parsing."""
    gate = ReplayGate(app)
    funcs = app.before_request_funcs.setdefault(None, [])
    funcs.insert(1 if funcs else 0, gate.enter)
    app.teardown_request(gate.leave)

    @app.after_request
    def _retry_after(resp):
        retry = g.pop("_retry_after", None)
        if retry is not None:
            resp.headers["Retry-After"] = str(retry)
        return resp

    app.extensions["replay_gate"] = gate
    return gate


def admit(work: int) -> None:
    """Called with a posted scenario's measured size (``replay.load_text``): see ``ReplayGate.admit``."""
    from flask import has_request_context

    if not has_request_context():
        return
    gate = current_app.extensions.get("replay_gate")
    if gate is not None:
        gate.admit(work)
