"""What "Keep all rules offline" downloads and keeps on a phone, in bytes (issue #35).

    python bench/offline_budget.py [--index DIR]

Fetches, through the app (Flask test client, gzip accepted as a browser does), every URL the
service worker keeps (``/offline/pages.json``: static files, the card-name list, every card page,
every section of the Complete Rules, the FAQ and the Adventures rulebook, and the contents pages),
and prints the bytes sent (gzip) and kept (decompressed, as the cache holds them) per kind. Baseline
in the same run: the same list with the German dividers' sections and the /german page added,
which the list leaves out (their names are on the card pages). Target: at most
``offline.DOWNLOAD_BUDGET_MB`` MB sent.
"""
from __future__ import annotations

import argparse
import gzip
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _kind(url: str) -> str:
    if url.startswith("/static/"):
        return "static files"
    if url.startswith("/offline/names"):
        return "card-name list"
    if url.startswith("/cards/"):
        return "card pages"
    for doc in ("rules", "faq", "adventures", "german"):
        if url.startswith(f"/{doc}/"):
            return f"{doc} sections"
    return "contents pages"


def measure(client, urls: list[str]) -> dict[str, Counter]:
    """Bytes sent (gzip as served) and kept (decompressed) per kind of page; a page that fails is an error."""
    sent, kept, count = Counter(), Counter(), Counter()
    for url in urls:
        resp = client.get(url, headers={"Accept-Encoding": "gzip"})
        if resp.status_code != 200:
            raise RuntimeError(f"{url} answered {resp.status_code}: the offline list names a page that is not there")
        body = resp.get_data()
        plain = gzip.decompress(body) if resp.headers.get("Content-Encoding") == "gzip" else body
        k = _kind(url)
        sent[k] += len(body)
        kept[k] += len(plain)
        count[k] += 1
    return {"sent": sent, "kept": kept, "count": count}


def kept_urls(client) -> list[str]:
    listing = client.get("/offline/pages.json").get_json()
    return [*listing["static"], listing["names"], *listing["pages"]]


def german_urls(app) -> list[str]:
    from app.web import services
    from app.web.render import section_url

    with app.app_context():
        return ["/german", *[section_url("german", r["slug"]) for r in services().store.sections_of("german")]]


def report(figures: dict[str, Counter], label: str) -> str:
    lines = [f"{label}:", f"  {'kind':<20}{'pages':>7}{'sent (gzip)':>14}{'kept':>14}"]
    for k in sorted(figures["count"]):
        lines.append(f"  {k:<20}{figures['count'][k]:>7}{figures['sent'][k]:>14,}{figures['kept'][k]:>14,}")
    total = {m: sum(figures[m].values()) for m in ("count", "sent", "kept")}
    lines.append(f"  {'total':<20}{total['count']:>7}{total['sent']:>14,}{total['kept']:>14,}"
                 f"   ({total['sent'] / 2**20:.2f} MB sent, {total['kept'] / 2**20:.2f} MB kept)")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--index", default=None, help="index directory holding rules.db (default: the configured one)")
    args = ap.parse_args()
    from app import config
    from app.web import create_app
    from app.web.offline import DOWNLOAD_BUDGET_MB

    db = Path(args.index) / "rules.db" if args.index else config.db_path()
    app = create_app({"DB_PATH": db, "RESPONSE_CACHE": False})
    client = app.test_client()
    urls = kept_urls(client)
    figures = measure(client, urls)
    baseline = measure(client, urls + german_urls(app))
    print(report(figures, '"Keep all rules offline"'))
    print(report(baseline, "baseline: the same with the German dividers' pages"))
    sent = sum(figures["sent"].values())
    print(f"budget: {sent / 2**20:.2f} MB sent of at most {DOWNLOAD_BUDGET_MB} MB "
          f"({'within' if sent <= DOWNLOAD_BUDGET_MB * 2**20 else 'OVER'} budget)")


if __name__ == "__main__":
    main()
