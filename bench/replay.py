"""Replay timing: median time per scenario and replays per second over the whole set.

Compared in the same run against a trivial baseline (loading + validating the
YAML only), because this machine is shared and noisy; the ratio is the
steadier figure. Usage: ``python3 bench/replay.py [--rounds N]``.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import config  # noqa: E402
from app.engine import scenario  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=20)
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
    print(f"median replay per scenario (build + run + check): {typical * 1000:.3f} ms  (target < 2 ms)")
    print(f"baseline, load + validate YAML only:              {typical_load * 1000:.3f} ms")
    print(f"ratio replay / baseline: {typical / typical_load:.2f}")
    print(f"replays per second over the whole set: {n / total_replay:.0f}  (wall incl. loading: {wall:.2f} s)")
    return 0 if typical < 0.002 else 1


if __name__ == "__main__":
    sys.exit(main())
