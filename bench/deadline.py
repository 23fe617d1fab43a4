"""What the replay deadline costs: the same replays with no deadline, the old profile hook, and the step check.

    python3 bench/deadline.py [--rounds 3]

Replays every scenario file in corpus/scenarios/ plus one heavy scenario (two
2 000-card decks, 250 turns), in-process through the web's ``replay.replay``
(per-step zone snapshots included, as the API does), three ways in the same run:

  none      no deadline at all (the baseline)
  profile   a ``sys.setprofile`` hook that reads the clock every 256 events
            (the mechanism the web app used before issue 15)
  step      the engine's own check every 64 engine steps (``core/deadline.py``, now)

and prints the CPU seconds of each (parsing excluded) and the ratio to the baseline.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import config  # noqa: E402
from app.engine.core.deadline import deadline_at  # noqa: E402
from app.web import replay as rp  # noqa: E402
from heavy_scenario import heavy_scenario  # noqa: E402  (bench/heavy_scenario.py, beside this script)


def profile_hook(seconds: float):
    deadline = time.monotonic() + seconds
    events = 0

    def hook(frame, event, arg):  # noqa: ARG001
        nonlocal events
        events += 1
        if events & 0xFF == 0 and time.monotonic() > deadline:
            raise TimeoutError()
    return hook


def run_all(scens: list, how: str) -> float:
    """CPU seconds of this process for replaying ``scens`` (the machine is shared: wall time is noisier)."""
    t0 = time.process_time()
    for scen in scens:
        if how == "none":
            rp.replay(scen)
        elif how == "profile":
            sys.setprofile(profile_hook(60))
            try:
                rp.replay(scen)
            finally:
                sys.setprofile(None)
        else:
            with deadline_at(time.monotonic() + 60):
                rp.replay(scen)
    return time.process_time() - t0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    texts = [p.read_text(encoding="utf-8") for p in sorted(config.scenarios_dir().glob("*.yaml"))]
    texts.append(heavy_scenario(1000))      # 4,010 cards: inside the 5,000-card bound
    scens = [rp.load_text(t) for t in texts]      # parsed once: only the replays are timed
    run_all(scens[:20], "none")      # warm caches
    totals = {"none": 0.0, "profile": 0.0, "step": 0.0}
    for _ in range(a.rounds):        # interleaved, so machine noise hits all three alike
        for how in totals:
            totals[how] += run_all(scens, how)
    base = totals["none"]
    print(f"{len(texts)} replays x {a.rounds} rounds")
    for how, t in totals.items():
        print(f"  {how:<8} {t:7.2f} s CPU   {t / base:5.2f}x the no-deadline time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
