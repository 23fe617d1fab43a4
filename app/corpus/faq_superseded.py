"""``corpus/data/faq-superseded.csv`` -> ``SupersededFaq``: the FAQ passages the Complete Rules overrule.

The BGG FAQ is older and no longer maintained; where it disagrees with the Complete Rules,
the Complete Rules win. A player who lands on an out-of-date FAQ passage (from search, a card
page or the FAQ page) must be told, next to it, what the rule is now and where it is written.
The table says which passages, by which Complete Rules passages, and what changed, in the
players' words. It is written from the two documents, one row per FAQ passage.

Format: UTF-8 CSV, header ``faq,by,note``. ``faq`` is a FAQ paragraph, section or card
clarification key; ``by`` one to five keys of Complete Rules paragraphs, sections or Card
Reference rulings, separated by spaces; ``note`` one sentence. A bad row stops the build with
``file:line: what is wrong``.
"""
from __future__ import annotations

from pathlib import Path

from app.corpus.model import ParsedCorpus, SupersededFaq
from app.corpus.sources import CorpusError, read_csv_table, text_cell

FILE = Path("data") / "faq-superseded.csv"
HEADER = ["faq", "by", "note"]
MAX_FILE_BYTES = 200_000
MAX_ROWS = 1_000
MAX_BY = 5
MIN_NOTE, MAX_NOTE = 10, 200


def parse_faq_superseded(corpus: Path, parsed: ParsedCorpus) -> None:
    path = corpus / FILE
    if not path.is_file():
        return
    rows = read_csv_table(path, HEADER, MAX_FILE_BYTES)
    old = parsed.passage_keys("faq") | {f.key for f in parsed.faq_clarifications}
    new = parsed.passage_keys("rules") | {r.key for r in parsed.rulings}
    out: dict[str, SupersededFaq] = {}
    for line, row in rows:
        if len(out) >= MAX_ROWS:
            raise CorpusError(path, line, f"more than {MAX_ROWS} rows")
        if len(row) != 3:
            raise CorpusError(path, line, f"expected 3 columns (faq,by,note), found {len(row)}")
        faq, by = row[0].strip(), row[1].split()
        if faq not in old:
            raise CorpusError(path, line, f"faq: {faq!r} is no FAQ paragraph, section or card clarification")
        if faq in out:
            raise CorpusError(path, line, f"faq: {faq!r} is already listed at line {out[faq].line}")
        if not 1 <= len(by) <= MAX_BY:
            raise CorpusError(path, line, f"by: expected 1 to {MAX_BY} keys, found {len(by)}")
        for key in by:
            if key not in new:
                raise CorpusError(path, line, f"by: {key!r} is no Complete Rules paragraph, section or ruling")
        note = text_cell(path, line, row[2], "note", MIN_NOTE, MAX_NOTE)
        out[faq] = SupersededFaq(faq=faq, by=by, note=note, line=line)
    parsed.faq_superseded = list(out.values())
