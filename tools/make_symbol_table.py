"""Regenerate corpus/data/symbols.csv: every symbol the documents lost, and what the data says it was.

Parses the corpus with no restorations, asks the rules of ``app/corpus/symbol_rules.py`` about
each gap, and writes one row per gap they answer. Rows marked ``person`` in the ``by`` column
were read out of the documents by a person (the source column says where: the FAQ's wording of
the same rule, a card's text, the sentence) and are kept as they are while their gap is where it
was; they win over the rules. Gaps nobody answers get no row and are shown as lost.
Run from the repository root:

    python3 tools/make_symbol_table.py [--check]

``--check`` writes nothing and fails when the committed table differs from what it would write.
The output is sorted and has no timestamps, so re-running it gives a byte-identical file.
"""
from __future__ import annotations

import argparse
import csv
import io
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import config  # noqa: E402
from app.corpus.pipeline import parse_corpus  # noqa: E402
from app.corpus.symbol_rules import infer  # noqa: E402
from app.corpus.symbols import TABLE, TABLE_HEADER, read_table  # noqa: E402



def table_text(corpus: Path) -> tuple[str, dict[str, int]]:
    kept = {k: r for k, r in read_table(corpus).items() if r.by == "person"}
    parsed = parse_corpus(corpus, symbol_table={})
    titles = {s.slug: s.title for s in parsed.sections}
    rows, counts = [], {"lost": 0}
    for gap in parsed.symbols.lost:
        section_title = titles.get(gap.owner.split("#", 1)[0], "")
        r = kept.get(gap.id)
        if r is not None and r.context != gap.context():
            print(f"{gap.id}: the gap moved ({r.context!r} -> {gap.context()!r}); "
                  f"its person row ({r.restored!r}) is dropped: decide it again", file=sys.stderr)
            counts["moved"] = counts.get("moved", 0) + 1
            r = None
        if r is not None:
            row = [gap.doc, gap.line, gap.n, gap.context(), r.restored, r.source, "person", r.why]
        else:
            answer = infer(gap, section_title, titles)
            if answer is None:
                counts["lost"] += 1
                continue
            restored, source, why = answer
            row = [gap.doc, gap.line, gap.n, gap.context(), restored, source, "rule", why]
        key = "lost" if row[5] == "undetermined" else row[5]
        counts[key] = counts.get(key, 0) + 1
        rows.append(row)
    rows.sort(key=lambda r: (r[0], r[1], r[2]))
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(TABLE_HEADER)
    w.writerows(rows)
    return out.getvalue(), counts


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="fail if the committed table is out of date")
    args = ap.parse_args(argv)
    corpus = config.corpus_dir()
    text, counts = table_text(corpus)
    path = corpus / TABLE
    print(", ".join(f"{k}: {v}" for k, v in sorted(counts.items())), file=sys.stderr)
    if args.check:
        current = path.read_text(encoding="utf-8") if path.exists() else ""
        if current != text:
            print(f"{path} is out of date: run python3 tools/make_symbol_table.py", file=sys.stderr)
            return 1
        return 0
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
