"""``python3 -m app.engine replay FILE [--json] [--questions]`` / ``coverage [--json]`` until the CLI wires them."""
from __future__ import annotations

import argparse
import sys

from app.engine.scenario.commands import coverage, replay


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m app.engine")
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("replay", help="replay a scenario and check its expectations")
    r.add_argument("file")
    r.add_argument("--json", action="store_true")
    r.add_argument("--questions", action="store_true")
    c = sub.add_parser("coverage", help="definitions and scenarios per set")
    c.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    return replay(a.file, a.json, questions=a.questions) if a.cmd == "replay" else coverage(a.json)


if __name__ == "__main__":
    sys.exit(main())
