"""The Complete Rules' table of contents: the skeleton every other rules parser hangs on.

The TOC is the only place with page numbers, and its titles are the section
headings (chapters are printed in capitals in the body, and a title like
"Potions / Debt" is printed as two headings "Potions" and "Debt"). Slugs are
derived from it so they stay stable however the body text shifts.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from app.corpus.model import slugify
from app.corpus.sources import SourceDoc

ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII")
_ENTRY = re.compile(r"^(?P<title>\S.*?)\t+(?P<page>\d+)\s*$")
_CHAPTER = re.compile(r"^(?P<num>[IVX]+)\.\s+(?P<name>.+)$")
TOC_SCAN_LINES = 120   # the TOC sits at the top of the document


@dataclass
class TocEntry:
    title: str           # as printed in the TOC ("II. Game Rules: Essential Rules", "Your turn")
    page: int
    line: int            # line of the TOC entry
    chapter: str         # roman numeral of the enclosing chapter
    is_chapter: bool
    slug: str
    page_end: int = 0

    @property
    def parts(self) -> list[str]:
        """Heading texts printed in the body for this entry ("Potions / Debt" -> two)."""
        if self.is_chapter:
            return [self.title]
        return [p.strip() for p in self.title.split(" / ")]


def parse_toc(doc: SourceDoc) -> list[TocEntry]:
    """Read the contiguous 'Title<TAB>page' lines at the top; fail if absent or malformed."""
    entries: list[TocEntry] = []
    chapter: str | None = None
    started = False
    for n in range(1, min(len(doc.lines), TOC_SCAN_LINES) + 1):
        text = doc.line(n).rstrip()
        m = _ENTRY.match(text)
        if not m:
            if started:
                break
            continue
        started = True
        title, page = m.group("title").strip(), int(m.group("page"))
        cm = _CHAPTER.match(title)
        if cm and cm.group("num") in ROMAN:
            chapter = cm.group("num")
            entries.append(TocEntry(title, page, n, chapter, True, slugify(title)))
            continue
        if chapter is None:
            raise doc.error(n, f"table of contents entry {title!r} comes before any chapter")
        entries.append(TocEntry(title, page, n, chapter, False, f"{chapter.lower()}-{slugify(title)}"))
    if not entries:
        raise doc.error(1, f"no table of contents ('Title<TAB>page' lines) in the first {TOC_SCAN_LINES} lines")
    chapters = [e.chapter for e in entries if e.is_chapter]
    if chapters != list(ROMAN):
        raise doc.error(entries[-1].line, f"table of contents lists chapters {chapters}, expected I..VIII")
    for prev, nxt in zip(entries, entries[1:]):
        if nxt.page < prev.page:
            raise doc.error(nxt.line, f"page {nxt.page} of {nxt.title!r} is before the previous entry's page {prev.page}")
    _set_page_ends(entries)
    return entries


def _set_page_ends(entries: list[TocEntry]) -> None:
    """A section runs to the next entry's page; a chapter to the next chapter's page.

    Both can share that page with what follows; the last entry has no known
    end, so it ends on its own first page.
    """
    for i, e in enumerate(entries):
        if e.is_chapter:
            nxt = next((x for x in entries[i + 1:] if x.is_chapter), None)
        else:
            nxt = entries[i + 1] if i + 1 < len(entries) else None
        e.page_end = nxt.page if nxt else e.page
