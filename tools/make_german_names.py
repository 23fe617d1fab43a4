"""Regenerate corpus/data/german-names.csv from the installed ``domdiv`` package.

domdiv keeps per-language card files keyed by card tag; the English file maps
the same tags to English names. Joining the two gives the English-German name
table. Run from the repository root:

    python3 tools/make_german_names.py [--out corpus/data/german-names.csv]

The output is sorted and has no timestamps, so re-running it on the same
domdiv version gives a byte-identical file (diffs show real data changes).
"""
from __future__ import annotations

import argparse
import csv
import gzip
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "corpus" / "data" / "german-names.csv"
COLUMNS = ("english", "german", "set", "source")


def _load(path: Path) -> object:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return json.load(fh)


def build_rows(card_db: Path) -> list[dict[str, str]]:
    """One row per distinct (english, german) pair domdiv knows.

    Tags that are not cards (set-level groups such as 'adventures events',
    whose tags are lower case) are left out; split piles ('Catapult / Rocks')
    are kept because the dividers print them as one divider.
    """
    de = _load(card_db / "de" / "cards_de.json.gz")
    en = _load(card_db / "en_us" / "cards_en_us.json.gz")
    db = _load(card_db / "cards_db.json.gz")
    en_sets = _load(card_db / "en_us" / "sets_en_us.json.gz")
    card_sets: dict[str, list[str]] = {}
    for card in db:
        card_sets.setdefault(card["card_tag"], []).extend(card.get("cardset_tags", []))

    rows: set[tuple[str, str, str]] = set()
    for tag, entry in de.items():
        if tag[:1].islower() or tag not in en:
            continue
        english = (en[tag].get("name") or "").strip()
        german = (entry.get("name") or "").strip()
        if not english or not german:
            continue
        rows.add((english, german, _set_name(card_sets.get(tag, []), en_sets)))
    return [dict(zip(COLUMNS, (e, g, s, "domdiv"))) for e, g, s in sorted(rows, key=lambda r: (r[0].casefold(), r[1].casefold(), r[2]))]


_LATER = ("2ndedition", "upgrade", "bigbox", "removed")


def _set_name(tags: list[str], en_sets: dict) -> str:
    """The set a card first appeared in, without the edition suffix.

    A card listed under several set tags (1st and 2nd edition, a combined
    reprint) is named by the original printing so the column has one value.
    """
    if not tags:
        return ""
    tag = min(tags, key=lambda t: (any(x in t.lower() for x in _LATER), t))
    name = en_sets.get(tag, {}).get("set_name", tag)
    return re.sub(r"\s+(1st|2nd) Edition.*$", "", name).strip()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args(argv)
    try:
        import domdiv
    except ImportError:
        print("make_german_names: the 'domdiv' package is not installed (pip install domdiv)", file=sys.stderr)
        return 2
    card_db = Path(domdiv.__file__).parent / "card_db"
    try:
        rows = build_rows(card_db)
    except (OSError, ValueError, KeyError) as exc:
        print(f"make_german_names: cannot read domdiv card_db at {card_db}: {exc}", file=sys.stderr)
        return 1
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    print(f"wrote {len(rows)} rows to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
