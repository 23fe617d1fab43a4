"""Attack benchmark: ``rulings serve --prod`` under slow clients, replay flooders and memory bombs.

    python3 bench/attack.py [--seconds 20] [--slow 2] [--flooders 20] [--index DIR] [--no-bombs]
                            [--fairness-baseline]

Starts the production server exactly as an operator does (``python -m app.cli
serve --prod``: nginx in front of gunicorn when nginx is installed) on a free
127.0.0.1 port and, all from this one process, bounded in time (at most about
two minutes) and count:

  start     the first search, card page and search page once ``/healthz`` answers
            (a worker warms up before it takes traffic: target < 100 ms each)
  baseline  ``/cards/village`` and ``/healthz`` measured with nothing else going on
  bombs     memory-bomb scenarios (huge card counts in a deck, the Supply, an
            ``expect`` zone, a sandbox link), each sent a few times, spaced out,
            and a count bomb for every step kind the scenario schema lists
            (bench/count_bombs.py, read from the registry), while every worker's
            resident memory is sampled
  attack    ``--slow`` clients that send headers with ``Content-Length: 1000`` and
            go silent (reconnecting whenever they are dropped), and ``--flooders``
            clients, each from its own loopback address (127.0.0.N), looping heavy
            replays back to back (ignoring Retry-After), while ``/cards/village``
            and ``/healthz`` are measured as in the baseline and an ordinary player
            (its own address) sends a small replay (a corpus scenario) every second
  restart   one worker killed (SIGKILL); search pages measured while it is replaced
  ``--fairness-baseline``: the attack again on a second server without the slot
            kept for small replays (RULINGS_REPLAY_SMALL_SLOTS=0, as before issue 36),
            so the ordinary player's success rate is compared in the same run

and prints p50/p99 of the cheap pages in both phases, ``/healthz`` failures, what
the flooders got back (statuses), the ordinary player's success rate, the bombs'
statuses, the first requests after start and around a killed worker, and the largest
resident memory any worker reached. Targets (issue 15): under attack ``/cards/village``
p99 < 100 ms, no ``/healthz`` failure, every worker < 300 MB. This machine's CPU
is shared with the client, so the figures are a floor.
"""
from __future__ import annotations

import argparse
import base64
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from pathlib import Path

from heavy_scenario import heavy_scenario  # bench/heavy_scenario.py, beside this script

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.count_bombs import BIG, bombs_for, places, scenario_doc, schema  # noqa: E402
HOST = "127.0.0.1"
MAX_SECONDS = 120.0
TARGET_P99_MS, TARGET_RSS_MB = 100.0, 300.0


# ------------------------------------------------------------------ requests
def request(port: int, method: str, path: str, body: bytes = b"", timeout: float = 15.0,
            ctype: str = "application/yaml", source: str | None = None) -> tuple[int, float]:
    """One request on a fresh connection (from loopback address ``source``): (status, seconds); 0 when it failed."""
    t0 = time.perf_counter()
    head = f"{method} {path} HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\nAccept-Encoding: gzip\r\n"
    if method == "POST":
        head += f"Content-Type: {ctype}\r\nContent-Length: {len(body)}\r\n"
    try:
        with socket.create_connection((HOST, port), timeout=timeout,
                                      source_address=(source, 0) if source else None) as s:
            s.sendall(head.encode() + b"\r\n" + body)
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        return int(data[9:12]), time.perf_counter() - t0
    except (OSError, ValueError):
        return 0, time.perf_counter() - t0


def _sandbox_token(state: dict) -> str:
    raw = json.dumps(state, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


def bombs() -> list[tuple[str, str, str, bytes]]:
    """(name, method, path, body): the 150-byte requests that once built lists of 1e8 cards."""
    head = 'title: bomb\nrulings: [{section: "Your turn"}]\n'
    two = "  - name: Bob\n"
    return [
        ("deck 1e8", "POST", "/api/replay",
         (head + 'players:\n  - name: Alice\n    deck: ["Copper*100000000"]\n' + two + "supply: {}\nsteps: []\n").encode()),
        ("deck 1e11", "POST", "/api/replay",
         (head + 'players:\n  - name: Alice\n    deck: ["Copper*100000000000"]\n' + two + "supply: {}\nsteps: []\n").encode()),
        ("supply 1e8", "POST", "/api/replay",
         (head + "players:\n  - name: Alice\n" + two + "supply: {Copper: 100000000}\nsteps: []\n").encode()),
        ("expect 1e8", "POST", "/api/replay",
         (head + "players:\n  - name: Alice\n" + two + 'supply: {}\nsteps: []\n'
          'expect:\n  Alice: {hand: ["Copper*100000000"]}\n').encode()),
        ("sandbox link 1e8", "GET", "/try?s=" + _sandbox_token({
            "title": "bomb", "rulings": [{"section": "Your turn"}], "supply": {},
            "players": [{"name": "Alice", "deck": ["Copper*100000000"]}, {"name": "Bob"}], "steps": []}), b""),
    ]


def step_bombs() -> list[tuple[str, str, str, bytes]]:
    """A count bomb for every step kind the schema lists (built-in and registered): its first value with a count."""
    import yaml

    root, out = schema(), []
    for name, where, key, sub in places():
        if where != "step":
            continue
        values = [v for v in bombs_for(sub, root) if str(BIG) in json.dumps(v)]
        if values:
            text = yaml.safe_dump(scenario_doc(where, key, values[0]), sort_keys=False)
            out.append((f"{key} 1e7", "POST", "/api/replay", text.encode()))
    return out


# ------------------------------------------------------------------ the server and its workers
def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def start_server(port: int, index: Path | None) -> subprocess.Popen:
    env = dict(os.environ)
    env.pop("RULINGS_ENV", None)
    if index is not None:
        env["RULINGS_INDEX_DIR"] = str(index)
    # The server's log goes to a file: a pipe nobody reads would fill and stop the server.
    log = tempfile.NamedTemporaryFile(prefix="rulings-attack-", suffix=".log", delete=False)
    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "serve", "--prod", "--host", HOST, "--port", str(port)],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log)
    proc.log_path = log.name  # type: ignore[attr-defined]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if request(port, "GET", "/healthz", timeout=5)[0] == 200:
            return proc
        time.sleep(0.3)
    proc.kill()
    raise SystemExit(f"the server did not come up: {Path(log.name).read_text()[-2000:]}")


def descendants(pid: int) -> dict[int, str]:
    """Every process below ``pid`` (nginx, gunicorn master and workers), by name."""
    children: dict[int, list[int]] = {}
    names: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
        names[int(entry.name)] = name
    out, todo = {}, [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out[c] = names[c]
            todo.append(c)
    return out


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


class MemoryWatch(threading.Thread):
    """Samples the resident memory of every Python process of the server (the gunicorn workers) every 50 ms."""

    def __init__(self, root: int):
        super().__init__(daemon=True)
        self.root, self.peak, self.stop = root, 0.0, threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            for pid, name in descendants(self.root).items():
                if name.startswith(("python", "gunicorn")):
                    self.peak = max(self.peak, rss_mb(pid))
            self.stop.wait(0.05)


# ------------------------------------------------------------------ phases
def measure(port: int, seconds: float) -> dict[str, list]:
    """``/cards/village`` every 20 ms and ``/healthz`` every 100 ms, sequentially, for ``seconds``."""
    out: dict[str, list] = {"village": [], "village_bad": [], "healthz": [], "healthz_bad": []}

    def loop(path: str, key: str, pause: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            status, took = request(port, "GET", path, timeout=10)
            out[key].append(took)
            if status != 200:
                out[key + "_bad"].append(status)
            time.sleep(pause)

    threads = [threading.Thread(target=loop, args=("/cards/village", "village", 0.02)),
               threading.Thread(target=loop, args=("/healthz", "healthz", 0.1))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def slow_client(port: int, stop: threading.Event, held: list[int]) -> None:
    """Headers and ``Content-Length: 1000``, then silence; a new connection whenever this one is dropped."""
    while not stop.is_set():
        try:
            with socket.create_connection((HOST, port), timeout=30) as s:
                s.sendall(f"POST /api/replay HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/yaml\r\n"
                          f"Content-Length: 1000\r\n\r\n".encode())
                held.append(1)
                s.settimeout(0.5)
                while not stop.is_set():
                    try:
                        if not s.recv(4096):
                            break          # dropped by the server
                    except socket.timeout:
                        continue
        except OSError:
            stop.wait(0.2)


def flooder(port: int, stop: threading.Event, body: bytes, statuses: dict[int, int], lock: threading.Lock,
            source: str | None = None) -> None:
    while not stop.is_set():
        status, _ = request(port, "POST", "/api/replay", body, timeout=30, source=source)
        with lock:
            statuses[status] = statuses.get(status, 0) + 1


ORDINARY = "127.0.0.200"       # the ordinary player's address (flooders are 127.0.0.10 and up)
SMALL = (ROOT / "corpus" / "scenarios" / "adventurer-digs-through-shuffle.yaml").read_bytes()


def ordinary_player(port: int, stop: threading.Event, got: list[int]) -> None:
    """A player replaying a corpus-sized scenario every second, as the sandbox does on each move."""
    while not stop.is_set():
        got.append(request(port, "POST", "/api/replay", SMALL, timeout=30, source=ORDINARY)[0])
        stop.wait(1.0)


def first_requests(port: int) -> list[tuple[str, int, float]]:
    """The first search, card page and search page a server answers (none of them warmed by name)."""
    return [(path, *request(port, "GET", path)) for path in
            ("/api/search?q=does+moat+block+militia", "/cards/smithy", "/search?q=kc+on+feast")]


def restart_worker(port: int, server: subprocess.Popen) -> tuple[list[float], list[int]]:
    """Kill one gunicorn worker; search pages for the next 15 s: (seconds each, failed statuses)."""
    import signal

    procs = descendants(server.pid)
    masters = [pid for pid, name in procs.items() if name.startswith(("gunicorn", "python"))
               and any(descendants(pid))]
    workers = [pid for m in masters for pid in descendants(m)]
    times, bad = [], []
    if not workers:
        return times, bad
    os.kill(workers[0], signal.SIGKILL)
    end = time.monotonic() + 15
    i = 0
    while time.monotonic() < end:
        i += 1
        status, took = request(port, "GET", f"/api/search?q=witch+moat+{i}", timeout=15)
        times.append(took)
        if status != 200:
            bad.append(status)
        time.sleep(0.05)
    return times, bad


def flood_with_ordinary_player(port: int, seconds: float, flood_n: int, slow_n: int,
                               measure_pages: bool = True) -> dict:
    """The attack phase: slow clients, flooders from their own addresses, an ordinary player; pages measured."""
    stop = threading.Event()
    held: list[int] = []
    statuses: dict[int, int] = {}
    lock = threading.Lock()
    player: list[int] = []
    heavy = heavy_scenario().encode()
    attackers = [threading.Thread(target=slow_client, args=(port, stop, held), daemon=True) for _ in range(slow_n)]
    attackers += [threading.Thread(target=flooder, args=(port, stop, heavy, statuses, lock, f"127.0.0.{10 + i}"),
                                   daemon=True) for i in range(flood_n)]
    for t in attackers:
        t.start()
    time.sleep(1.0)                            # let the flooders fill whatever they can
    ordinary = threading.Thread(target=ordinary_player, args=(port, stop, player), daemon=True)
    ordinary.start()
    pages = measure(port, seconds) if measure_pages else (time.sleep(seconds) or None)
    stop.set()
    for t in attackers + [ordinary]:
        t.join(35)
    return {"pages": pages, "statuses": statuses, "held": held, "player": player}


def player_line(player: list[int]) -> str:
    ok = sum(1 for st in player if st == 200)
    other: dict[int, int] = {}
    for st in player:
        if st != 200:
            other[st] = other.get(st, 0) + 1
    rate = 100.0 * ok / len(player) if player else float("nan")
    return f"{ok}/{len(player)} small replays answered 200 ({rate:.0f}%); others: {dict(sorted(other.items()))}"


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    if len(values) < 2:
        return values[0] * 1000
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1] * 1000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=20.0, help="length of the attack phase (at most 60)")
    ap.add_argument("--slow", type=int, default=2, help="silent clients (at most 50)")
    ap.add_argument("--flooders", type=int, default=20, help="replay flooders, one address each (at most 32)")
    ap.add_argument("--index", type=Path, default=None, help="index directory (default: the configured one)")
    ap.add_argument("--no-bombs", action="store_true", help="skip the memory-bomb phase")
    ap.add_argument("--fairness-baseline", action="store_true",
                    help="repeat the attack on a server without the small-replay slot (as before issue 36)")
    a = ap.parse_args()
    seconds = min(a.seconds, 60.0)
    slow_n, flood_n = min(a.slow, 50), min(a.flooders, 32)
    started = time.monotonic()

    port = free_port()
    server = start_server(port, a.index)
    first = first_requests(port)
    watch = MemoryWatch(server.pid)
    watch.start()
    try:
        for _ in range(20):                        # warm: first renders, response cache, scenario replays
            request(port, "GET", "/cards/village")
        base = measure(port, min(8.0, seconds / 2))

        bomb_results: list[tuple[str, int, float]] = []
        if not a.no_bombs:
            for name, method, path, body in bombs():
                for _ in range(2):
                    status, took = request(port, method, path, body, timeout=35)
                    bomb_results.append((name, status, took))
                    time.sleep(0.6)                # below nginx's per-address replay rate: each bomb gets through
            for name, method, path, body in step_bombs():
                status, took = request(port, method, path, body, timeout=35)
                bomb_results.append((name, status, took))
                time.sleep(0.3)
        bomb_peak = watch.peak

        attack_run = flood_with_ordinary_player(port, seconds, flood_n, slow_n)
        attack = attack_run["pages"]
        restart_times, restart_bad = restart_worker(port, server)
    finally:
        watch.stop.set()
        server.terminate()
        try:
            server.wait(60)
        except subprocess.TimeoutExpired:
            server.kill()
    log_text = Path(server.log_path).read_text(errors="replace")  # type: ignore[attr-defined]
    tracebacks = log_text.count("Traceback")

    baseline_player = None
    if a.fairness_baseline:
        port2 = free_port()
        os.environ["RULINGS_REPLAY_SMALL_SLOTS"] = "0"
        try:
            server2 = start_server(port2, a.index)
        finally:
            del os.environ["RULINGS_REPLAY_SMALL_SLOTS"]
        try:
            baseline_player = flood_with_ordinary_player(port2, seconds, flood_n, slow_n, measure_pages=False)
        finally:
            server2.terminate()
            try:
                server2.wait(60)
            except subprocess.TimeoutExpired:
                server2.kill()
    if time.monotonic() - started > MAX_SECONDS + 120:
        print("note: ran longer than planned (a slow machine)", file=sys.stderr)

    print(f"rulings serve --prod on {HOST}:{port}; {slow_n} slow clients, {flood_n} replay flooders "
          f"(one address each), {seconds:.0f} s attack")
    print("  first requests after start: " + "; ".join(f"{p} {st} in {t * 1000:.0f} ms" for p, st, t in first))
    for label, m in (("baseline", base), ("attack", attack)):
        print(f"  {label:<8} /cards/village n={len(m['village']):4d} p50 {pct(m['village'], 50):6.1f} ms  "
              f"p99 {pct(m['village'], 99):6.1f} ms  failed {len(m['village_bad'])}   "
              f"/healthz n={len(m['healthz']):3d} p99 {pct(m['healthz'], 99):6.1f} ms  failed {len(m['healthz_bad'])}")
    print(f"  flooders got: {dict(sorted(attack_run['statuses'].items()))}; "
          f"slow-client connections opened: {len(attack_run['held'])}")
    print(f"  ordinary player under the flood: {player_line(attack_run['player'])}")
    if baseline_player is not None:
        print(f"  ... without the small-replay slot (as before): {player_line(baseline_player['player'])}; "
              f"flooders got {dict(sorted(baseline_player['statuses'].items()))}")
    if restart_times:
        print(f"  a worker killed: next 15 s of searches n={len(restart_times)} p50 {pct(restart_times, 50):.0f} ms "
              f"p99 {pct(restart_times, 99):.0f} ms max {max(restart_times) * 1000:.0f} ms, failed {restart_bad}")
    if bomb_results:
        summary: dict[str, list[int]] = {}
        slowest: dict[str, float] = {}
        for name, status, took in bomb_results:
            summary.setdefault(name, []).append(status)
            slowest[name] = max(slowest.get(name, 0.0), took)
        print("  bombs: " + "; ".join(f"{n} -> {s} ({slowest[n] * 1000:.0f} ms)" for n, s in summary.items()))
        print(f"  worker memory peak through the bombs: {bomb_peak:.0f} MB")
    print(f"  worker memory peak over the whole run: {watch.peak:.0f} MB")
    print(f"  server log: {len(log_text.splitlines())} lines, {tracebacks} tracebacks ({server.log_path})")
    p99 = pct(attack["village"], 99)
    bombs_ok = all(400 <= st < 500 for _, st, _ in bomb_results)
    ok = p99 < TARGET_P99_MS and not attack["healthz_bad"] and watch.peak < TARGET_RSS_MB and bombs_ok
    print(f"  targets (p99 < {TARGET_P99_MS:.0f} ms, /healthz never fails, memory < {TARGET_RSS_MB:.0f} MB, "
          f"every bomb a 4xx): {'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
