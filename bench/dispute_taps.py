"""Taps and seconds from opening the site to the answer on the first screen, for the ten table disputes of
the browser tests (issue #35), on this tree and on an earlier commit, in one run.

    python bench/dispute_taps.py [--before DIR] [--runs 3]

DIR is a checkout of the earlier commit with its own built index (``DIR/index``), e.g.::

    git worktree add /tmp/before 7457d39
    (cd /tmp/before && RULINGS_INDEX_DIR=/tmp/before/index python -c \
        "import sys; from app.cli import main; sys.argv=['rulings','build']; main()")

Each tree is served by its own code (a werkzeug server on 127.0.0.1) and the same journeys drive Debian's
Chromium at 390x844, as a player would: type the question into the home page's box (one interaction), then
tap what the page offers. A journey ends when the answer's line is on the first screen without scrolling;
"seconds" is the wall-clock time from opening the site to then (the machine's share: page loads, search,
replay; a player's typing comes on top), the median of ``--runs`` runs. "-" where the answer never showed.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}

# (name, what a player types, how the answer is reached, the answer's words on the page)
DISPUTES = [
    ("throne-room-caravan", "throne room caravan", "scenario", "Throne Room, Caravan stay in play"),
    ("moat-witch", "moat witch", "scenario", "Alice draws 2 cards"),
    ("watchtower-witch-curse", "watchtower curse from witch", "scenario", "Bob trashes Curse"),
    ("burggraben-miliz", "Burggraben gegen Miliz", "scenario", "Bob reveals Moat: Militia will not affect them"),
    ("bridge-highway", "bridge highway", "scenario", "in all now $2 less"),
    # "possession gains" asks either who gains the cards (Possession's ruling 5, "you gain instead") or
    # whether when-gain abilities trigger (ruling 6, "No when-gain abilities trigger"); which of them ranks
    # higher has changed with the ranking and with the number of results asked for, so the journey asserts
    # what the player relies on: a ruling saying one of them is one of the first two hits, and a tap opens
    # it with the answer on the first screen
    ("possession-gains", "possession gains", "first two hits", ("you gain instead", "No when-gain abilities trigger")),
    # newer sets, in a player's words (issue #35)
    ("idol-moat", "does moat stop the curse from idol", "scenario", "Carol gains Curse"),
    ("faithful-hound-militia", "militia makes me discard faithful hound what happens", "scenario",
     "Bob sets aside Faithful Hound"),
    ("secret-cave-throne-room", "if I throne room a secret cave do I discard twice", "scenario", "Secret Cave: +$3"),
]
# The seventh dispute of the browser tests, played in the sandbox: does Throne Room stay in play with Caravan?
SANDBOX = ("sandbox-throne-room-caravan", "throne room caravan", "sandbox", "Throne Room, Caravan stay in play")

SERVE = """
import sys, threading
sys.path.insert(0, {tree!r})
from werkzeug.serving import make_server
from app.web import create_app
import app
assert app.__file__.startswith({tree!r}), app.__file__
srv = make_server("127.0.0.1", 0, create_app({{"DB_PATH": {db!r}}}), threaded=True)
print(srv.server_port, flush=True)
srv.serve_forever()
"""


def on_first_screen(page, locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 120) <= PHONE["height"]


def settle(page, base: str, dispute) -> tuple[int, float | None]:
    """One player's way to the answer: (interactions, seconds until it is on the first screen, or None)."""
    _name, query, how, answer = dispute
    taps = 0
    start = time.perf_counter()
    try:
        page.goto(base + "/")
        page.fill("#q", query)
        taps += 1
        if how == "scenario":
            first = page.locator("#dispute a.scenhit").first
            first.wait_for()
            first.click()
            taps += 1
            shown = page.locator(".answer li", has_text=answer).first
        elif how == "first two hits":
            page.locator("#results .hit").first.wait_for()
            hits = page.locator("#results .hit")
            found = next((hits.nth(i) for i in range(min(2, hits.count())) for a in answer
                          if a in hits.nth(i).inner_text()), None)
            if found is None:
                return taps, None
            found.locator("a.hittitle").first.click()
            taps += 1
            shown = page.locator(".ruling:target").first
        else:  # the sandbox
            for target in (page.locator("#try-dispute"), page.get_by_role("button", name="Start this table"),
                           page.get_by_role("button", name="Play Throne Room"),
                           page.locator("#now").get_by_role("button", name="Caravan", exact=True),
                           page.get_by_role("button", name="End turn")):
                target.first.click()
                taps += 1
                page.wait_for_load_state()
            shown = page.locator(".lastmove li, .log li", has_text=answer).first
        shown.wait_for()
        if not on_first_screen(page, shown):
            return taps, None
        return taps, time.perf_counter() - start
    except Exception:          # a step the page did not offer: no answer on this tree
        return taps, None


def serve(tree: Path, db: Path) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-c", SERVE.format(tree=str(tree), db=str(db))], cwd=str(tree),
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    port = proc.stdout.readline().strip()
    if not port.isdigit():
        proc.kill()
        raise SystemExit(f"the server of {tree} did not start")
    return proc, f"http://127.0.0.1:{port}"


def measure(browser, base: str, runs: int) -> dict[str, tuple[int, float | None]]:
    out = {}
    ctx = browser.new_context(viewport=PHONE)       # warm-up, not counted: the server's first search loads its index
    settle(ctx.new_page(), base, DISPUTES[0])
    ctx.close()
    for dispute in [*DISPUTES, SANDBOX]:
        taps, times = 0, []
        for _ in range(runs):
            ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=1)
            page = ctx.new_page()
            page.set_default_timeout(15_000)
            taps, seconds = settle(page, base, dispute)
            ctx.close()
            if seconds is None:
                times = []
                break
            times.append(seconds)
        out[dispute[0]] = (taps, statistics.median(times) if times else None)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", type=Path, help="a checkout of the earlier commit, with its index built in DIR/index")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    from app import config

    trees = [("after", ROOT, Path(os.environ.get("RULINGS_INDEX_DIR") or config.index_dir()) / "rules.db")]
    if args.before:
        trees.insert(0, ("before", args.before.resolve(), args.before.resolve() / "index" / "rules.db"))
    figures = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
        for label, tree, db in trees:
            proc, base = serve(tree, db)
            try:
                figures[label] = measure(browser, base, args.runs)
            finally:
                proc.terminate()
                proc.wait(timeout=10)
        browser.close()

    def cell(v):
        taps, seconds = v
        return f"{taps:>4} {'-' if seconds is None else f'{seconds:.2f}':>6}"

    labels = [t[0] for t in trees]
    print(f"{'dispute (390x844)':<32}" + "".join(f"{lab + ' taps':>11} {'s':>5}" for lab in labels))
    for name in figures[labels[0]]:
        print(f"{name:<32}" + "".join(f"{cell(figures[lab][name]):>17}" for lab in labels))
    for lab in labels:
        done = [v for v in figures[lab].values() if v[1] is not None]
        print(f"{lab}: {len(done)} of {len(figures[lab])} answered on the first screen; "
              f"taps {sum(v[0] for v in done)} in all; median {statistics.median(v[1] for v in done):.2f} s")


if __name__ == "__main__":
    main()
