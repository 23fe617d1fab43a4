"""Load test: the production server (gunicorn, as ``rulings serve --prod`` runs it) under many players.

    python3 bench/load.py [--duration 20] [--clients 4] [--index DIR] [--json]

Starts gunicorn on 127.0.0.1 (a free port), waits for ``/healthz``, then drives
it from a second process for a bounded time (at most 60 s in total), one phase
per kind of request:

  healthz   the baseline: no store work, just the stack (gunicorn, Flask, headers)
  card      card pages (every Card Reference entry, round robin)
  section   rules section pages
  search    ``/api/search`` with the questions of bench/relevance_set.yaml
  replay    ``POST /api/replay`` with the scenario files

and prints requests per second, p50/p99 latency and the errors per kind.
Targets on the 2-core machine: card and section pages >= 500 req/s,
searches >= 200 req/s, no errors. The client is the same machine, so its CPU
comes out of the server's budget: the figures are a floor, not a ceiling.

The load process uses raw sockets and one request per connection (gunicorn's
sync workers close after every response anyway) so the client spends as little
CPU as possible. Only loopback addresses are ever used.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.web.prod import stop  # noqa: E402  (after the path set-up, so the bench runs from a checkout)

HOST = "127.0.0.1"
MAX_TOTAL_SECONDS = 60.0
FALLBACK_QUERIES = ["throne room feast", "moat militia", "when-gain", "duration clean-up", "king's court",
                    "possession extra turn", "shuffle during draw", "trash pile"]
TARGETS = {"card": 500, "section": 500, "search": 200}


# ------------------------------------------------------------------ what to request
def request_mix(db_path: Path) -> dict[str, list[tuple[str, str, bytes]]]:
    """(method, path, body) per kind, from the store, the relevance set and the scenario files."""
    from app import config
    from app.store.db import Store

    store = Store(db_path)
    cards = [r["slug"] for r in store.rows("select slug from cards where kind='card' order by ord")]
    sections = [r["slug"] for r in store.rows(
        "select slug from sections where doc='rules' and kind in ('chapter','section','subsection') order by ord")]
    queries = relevance_queries()
    scenarios = sorted(config.scenarios_dir().glob("*.yaml"))[:12]
    return {
        "healthz": [("GET", "/healthz", b"")],
        "card": [("GET", f"/cards/{s}", b"") for s in cards],
        "section": [("GET", f"/rules/{s}", b"") for s in sections],
        "search": [("GET", "/api/search?" + urllib.parse.urlencode({"q": q}), b"") for q in queries],
        "replay": [("POST", "/api/replay", p.read_bytes()) for p in scenarios],
    }


def relevance_queries() -> list[str]:
    path = ROOT / "bench" / "relevance_set.yaml"
    try:
        import yaml

        items = yaml.safe_load(path.read_text(encoding="utf-8")) or []
        queries = [i["q"] for i in items if isinstance(i, dict) and isinstance(i.get("q"), str)]
    except (OSError, ValueError, KeyError, TypeError, ImportError):
        queries = []
    except Exception as exc:  # a YAML error in someone else's file must not stop the benchmark
        print(f"note: {path.name} not usable ({exc}); using fixed queries", file=sys.stderr)
        queries = []
    return queries or FALLBACK_QUERIES


# ------------------------------------------------------------------ the client process
def _one(port: int, method: str, path: str, body: bytes) -> int:
    """One request on a fresh connection; returns the status code (0 when the exchange failed)."""
    head = (f"{method} {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nConnection: close\r\n"
            f"Accept-Encoding: gzip\r\nUser-Agent: bench-load\r\n")
    if method == "POST":
        head += f"Content-Type: application/yaml\r\nContent-Length: {len(body)}\r\n"
    with socket.create_connection((HOST, port), timeout=30) as s:
        s.sendall(head.encode() + b"\r\n" + body)
        chunks = []
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
    data = b"".join(chunks)
    try:
        return int(data[9:12])
    except ValueError:
        return 0


def _drive(port: int, kind: str, reqs: list[tuple[str, str, bytes]], seconds: float, clients: int,
           out: "mp.Queue") -> None:
    """Run one phase: ``clients`` threads requesting round robin for ``seconds``; report to ``out``."""
    lat: list[float] = []
    errors: dict[str, int] = {}
    lock = threading.Lock()
    stop = time.perf_counter() + seconds
    counter = iter(range(10 ** 12))

    def worker() -> None:
        mine: list[float] = []
        bad: dict[str, int] = {}
        while time.perf_counter() < stop:
            method, path, body = reqs[next(counter) % len(reqs)]
            t = time.perf_counter()
            try:
                status = _one(port, method, path, body)
            except OSError as exc:
                status, why = 0, type(exc).__name__
            else:
                why = str(status)
            mine.append(time.perf_counter() - t)
            if status != 200:
                bad[why] = bad.get(why, 0) + 1
        with lock:
            lat.extend(mine)
            for k, v in bad.items():
                errors[k] = errors.get(k, 0) + v

    t0 = time.perf_counter()
    threads = [threading.Thread(target=worker) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - t0
    out.put({"kind": kind, "requests": len(lat), "seconds": elapsed, "latencies": lat, "errors": errors})


def run_phases(port: int, mix: dict[str, list[tuple[str, str, bytes]]], seconds: float,
               clients: int) -> list[dict]:
    """Each phase in its own process, one after the other, so the server sees one kind at a time."""
    results = []
    ctx = mp.get_context("spawn")
    for kind, reqs in mix.items():
        if not reqs:
            continue
        q = ctx.Queue()
        p = ctx.Process(target=_drive, args=(port, kind, reqs, seconds, clients, q))
        p.start()
        results.append(q.get(timeout=seconds + 60))
        p.join()
    return results


# ------------------------------------------------------------------ the server
def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def start_server(index_dir: Path, port: int, workers: int | None, cache: bool = True) -> subprocess.Popen:
    from app.web.prod import gunicorn_argv

    env = dict(os.environ, RULINGS_INDEX_DIR=str(index_dir), RULINGS_RESPONSE_CACHE="1" if cache else "0")
    return subprocess.Popen(gunicorn_argv(HOST, port, workers), env=env, cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def wait_healthy(port: int, proc: subprocess.Popen, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {proc.returncode}: {proc.stderr.read().decode()[-2000:]}")
        try:
            if _one(port, "GET", "/healthz", b"") == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"gunicorn did not answer /healthz on {HOST}:{port} within {timeout:.0f} s")


def stop_server(proc: subprocess.Popen) -> None:
    stop(proc)


def warm_up(port: int, mix: dict[str, list[tuple[str, str, bytes]]], workers: int) -> None:
    """Each worker opens the store and search index once before the clock starts (not the pages)."""
    for kind in ("healthz", "card", "search", "replay"):
        for method, path, body in mix.get(kind, [])[:1] * (workers * 2):
            _one(port, method, path, body)


# ------------------------------------------------------------------ report
def summarise(r: dict) -> dict:
    lat = sorted(r["latencies"])
    n = len(lat)

    def pct(p: float) -> float:
        return lat[min(n - 1, int(round(p / 100 * (n - 1))))] * 1000 if n else float("nan")

    return {"kind": r["kind"], "requests": n, "rps": n / r["seconds"] if r["seconds"] else 0.0,
            "p50_ms": pct(50), "p99_ms": pct(99), "mean_ms": statistics.fmean(lat) * 1000 if n else float("nan"),
            "errors": sum(r["errors"].values()), "error_kinds": r["errors"]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--duration", type=float, default=20.0, help="total seconds of load (at most 60)")
    ap.add_argument("--clients", type=int, default=4, help="concurrent connections from the load process")
    ap.add_argument("--workers", type=int, default=None, help="gunicorn workers (default: one per core)")
    ap.add_argument("--index", type=Path, default=None, help="index directory (default: the configured one)")
    ap.add_argument("--kinds", default="", help="comma-separated subset of healthz,card,section,search,replay")
    ap.add_argument("--no-cache", action="store_true",
                    help="turn the per-build response cache off (every request renders: the cold figure)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if not 0 < args.duration <= MAX_TOTAL_SECONDS:
        ap.error(f"--duration must be between 0 and {MAX_TOTAL_SECONDS:.0f} seconds")

    from app import config
    from app.store.build import build

    index_dir = args.index or config.index_dir()
    build(index_dir=index_dir)          # no-op when the store is up to date
    mix = request_mix(index_dir / "rules.db")
    if args.kinds:
        wanted = [k.strip() for k in args.kinds.split(",") if k.strip()]
        unknown = set(wanted) - set(mix)
        if unknown:
            ap.error(f"unknown kinds: {', '.join(sorted(unknown))} (choose from {', '.join(mix)})")
        mix = {k: mix[k] for k in wanted}
    port = free_port()
    proc = start_server(index_dir, port, args.workers, cache=not args.no_cache)
    try:
        wait_healthy(port, proc)
        from app.web.prod import workers as default_workers

        warm_up(port, mix, args.workers or default_workers())
        phase = args.duration / len(mix)
        rows = [summarise(r) for r in run_phases(port, mix, phase, args.clients)]
    finally:
        stop_server(proc)

    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        print(f"gunicorn on {HOST}:{port}, {args.workers or default_workers()} workers; "
              f"{args.clients} client connections; {phase:.1f} s per kind; "
              f"response cache {'off' if args.no_cache else 'on'}")
        print(f"{'kind':<9} {'requests':>8} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}  target")
        for r in rows:
            target = TARGETS.get(r["kind"])
            verdict = "" if target is None else (f">= {target} req/s " + ("ok" if r["rps"] >= target and not
                                                                         r["errors"] else "MISSED"))
            if r["kind"] == "healthz":
                verdict = "baseline"
            print(f"{r['kind']:<9} {r['requests']:>8} {r['rps']:>8.0f} {r['p50_ms']:>8.1f} {r['p99_ms']:>8.1f} "
                  f"{r['errors']:>7}  {verdict}" + (f"  {r['error_kinds']}" if r["errors"] else ""))
    missed = [r for r in rows if r["errors"] or r["rps"] < TARGETS.get(r["kind"], 0)]
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
