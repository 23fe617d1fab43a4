"""Replay timing and engine load time, the two bounds of issue #12.

- Median replay time per scenario (build + run + check) over every scenario,
  compared in the same run against a trivial baseline (loading + validating the
  YAML only), because this machine is shared and noisy; the ratio is the
  steadier figure. Bound: 1 ms.
- Engine load: a fresh interpreter imports the engine and registers every
  defined card (``registry.load_all()``, what a worker does at start), timed
  inside the child from before the import to after the load. Compared against
  a fresh interpreter importing the engine core alone (no card set). Measured
  with the bytecode cache warm, as an installed service runs (the first run
  after a change also compiles the sources; that figure is printed too).
  Bound: 400 ms.

Usage: ``python3 bench/replay.py [--rounds N] [--load-rounds N]``.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import config  # noqa: E402
from app.engine import scenario  # noqa: E402


ROOT = Path(__file__).resolve().parent.parent
REPLAY_BOUND_S = 0.001
LOAD_BOUND_MS = 400.0

_TIMED_IMPORT = """
import time
t0 = time.perf_counter()
{body}
print((time.perf_counter() - t0) * 1000)
"""
_ENGINE = "from app.engine.core import registry\nregistry.load_all()"
_CORE_ONLY = "import app.engine.core.activities"


def _child_ms(body: str, pycache: str) -> float:
    """Milliseconds a fresh interpreter spends on ``body``, bytecode cached under ``pycache``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = pycache
    out = subprocess.run([sys.executable, "-c", _TIMED_IMPORT.format(body=body)], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=True).stdout
    return float(out.strip().splitlines()[-1])


def engine_load(rounds: int) -> tuple[float, float, float]:
    """(cold ms, warm median ms, core-only warm median ms), alternating the two so noise hits both."""
    with tempfile.TemporaryDirectory(prefix="rulings-pycache-") as cache:
        cold = _child_ms(_ENGINE, cache)
        engine, core = [], []
        for _ in range(rounds):
            engine.append(_child_ms(_ENGINE, cache))
            core.append(_child_ms(_CORE_ONLY, cache))
    return cold, statistics.median(engine), statistics.median(core)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--load-rounds", type=int, default=7)
    a = ap.parse_args()
    paths = sorted(config.scenarios_dir().glob("*.yaml"))
    loaded = [scenario.load(p) for p in paths]          # warm caches (card facts, rules headings)
    for sc in loaded:
        assert scenario.run(sc).ok, sc.file

    replay_times: dict[str, list[float]] = {p.name: [] for p in paths}
    load_times: dict[str, list[float]] = {p.name: [] for p in paths}
    t_all = time.perf_counter()
    for _ in range(a.rounds):
        for p, sc in zip(paths, loaded):
            t0 = time.perf_counter()
            scenario.load(p)
            t1 = time.perf_counter()
            scenario.run(sc)
            t2 = time.perf_counter()
            load_times[p.name].append(t1 - t0)
            replay_times[p.name].append(t2 - t1)
    wall = time.perf_counter() - t_all

    med_replay = {k: statistics.median(v) for k, v in replay_times.items()}
    med_load = {k: statistics.median(v) for k, v in load_times.items()}
    typical = statistics.median(med_replay.values())
    typical_load = statistics.median(med_load.values())
    total_replay = sum(sum(v) for v in replay_times.values())
    n = len(paths) * a.rounds
    print(f"{len(paths)} scenarios x {a.rounds} rounds")
    for k in sorted(med_replay, key=med_replay.get, reverse=True)[:5]:
        print(f"  slowest: {k:<48} {med_replay[k] * 1000:7.3f} ms")
    print(f"median replay per scenario (build + run + check): {typical * 1000:.3f} ms  (bound {REPLAY_BOUND_S * 1000:g} ms)")
    print(f"baseline, load + validate YAML only:              {typical_load * 1000:.3f} ms")
    print(f"ratio replay / baseline: {typical / typical_load:.2f}")
    print(f"replays per second over the whole set: {n / total_replay:.0f}  (wall incl. loading: {wall:.2f} s)")

    from app.engine.core import registry
    cold, warm, core = engine_load(a.load_rounds)
    print(f"engine load, every defined card ({registry.load_all()}), fresh interpreter, "
          f"median of {a.load_rounds}: {warm:.0f} ms  (bound {LOAD_BOUND_MS:g} ms)")
    print(f"  first load after a change (compiling the sources too): {cold:.0f} ms")
    print(f"  baseline, engine core without any card set:            {core:.0f} ms")
    return 0 if typical <= REPLAY_BOUND_S and warm < LOAD_BOUND_MS else 1


if __name__ == "__main__":
    sys.exit(main())
