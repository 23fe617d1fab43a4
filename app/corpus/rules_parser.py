"""Parse the Complete Rules' text chapters into Sections, Paragraphs and IndexTerms.

Structure, and who fills it:

* table of contents -> chapter and section Sections with pages (``rules_toc``);
* chapters I-V, VI "Common effects" intro -> sections, subsections, paragraphs (here);
* VI "Common effects" entries (``rules_common_effects``);
* VI "Card Reference" and "Previous versions of some cards": only their
  Section rows (with pages) are made here; their bodies belong to
  ``card_reference_parser``;
* VII detailed timing entries (``rules_timing``); VIII index (``rules_index``).

Every TOC entry must be found as a heading in the body, in order; a missing
one raises ``CorpusError`` with the TOC line, so a changed document fails the
build instead of silently misfiling rulings.

Subsections: any heading (``rules_blocks.looks_like_heading``) inside a
section, all one level deep (the chapter V overview group headings such as
"When gain" become subsections of "Overviews of timing of abilities", next to
"Overview of ability triggers"). A TOC title printed as several headings
("Potions / Debt") gets one subsection per part, so each part is addressable.
Subsections and entries inherit their section's pages.
"""
from __future__ import annotations

from app.corpus.model import ParsedCorpus, Section, slugify
from app.corpus.rules_blocks import blocks, looks_like_heading
from app.corpus.rules_common_effects import parse_common_effects
from app.corpus.rules_index import parse_index
from app.corpus.rules_timing import parse_timing
from app.corpus.rules_toc import TocEntry, parse_toc
from app.corpus.rules_writer import RulesWriter
from app.corpus.sources import SourceDoc

# Sections whose body another parser (or a sub-parser) reads; keyed by TOC slug.
COMMON_EFFECTS = "vi-common-effects"
CARD_REFERENCE_BODIES = ("vi-card-reference", "vi-previous-versions-of-some-cards")
TIMING_CHAPTER = "vii-detailed-timing-for-certain-cards"
INDEX_CHAPTER = "viii-index"


def parse_rules(doc: SourceDoc, parsed: ParsedCorpus) -> None:
    """Fill ``parsed`` with the rules' chapters, sections, Common effects, timing entries and index."""
    toc = parse_toc(doc)
    heads = _locate_headings(doc, toc)
    w = RulesWriter(doc, parsed)
    chapter_slug: str | None = None
    for i, entry in enumerate(toc):
        start = heads[i]
        end = heads[i + 1] - 1 if i + 1 < len(toc) else len(doc.lines)
        parsed.toc_pages[entry.slug] = entry.page
        if entry.is_chapter:
            chapter_slug = entry.slug
        parent = None if entry.is_chapter else chapter_slug
        kind = "chapter" if entry.is_chapter else "section"
        sec = w.section(entry.slug, kind, entry.title, start, entry.chapter, parent, entry.page, entry.page_end)
        if entry.slug == COMMON_EFFECTS:
            parse_common_effects(w, sec, start, end + 1)
        elif entry.slug in CARD_REFERENCE_BODIES:
            continue
        elif entry.slug == TIMING_CHAPTER:
            parse_timing(w, sec, start, end + 1)
        elif entry.slug == INDEX_CHAPTER:
            term_lines = {t.line for t in parse_index(doc, parsed, start, end)}
            for b in blocks(doc, start + 1, end):
                if b.line not in term_lines:
                    w.block(sec.slug, b)     # the index's own introduction
        else:
            _section_body(w, entry, sec, start, end)


def _locate_headings(doc: SourceDoc, toc: list[TocEntry]) -> list[int]:
    """Line of each TOC entry's heading in the body, searching forward from the TOC's end."""
    lines: list[int] = []
    n = toc[-1].line + 1
    for entry in toc:
        want = entry.parts[0].lower()
        while n <= len(doc.lines) and not _is_heading_line(doc, n, want):
            n += 1
        if n > len(doc.lines):
            where = f"line {lines[-1]}" if lines else "the table of contents"
            raise doc.error(entry.line, f"heading {entry.parts[0]!r} of TOC entry {entry.title!r} not found after {where}")
        lines.append(n)
        n += 1
    return lines


def _is_heading_line(doc: SourceDoc, n: int, want: str) -> bool:
    """``want`` printed alone between blank lines (so a sentence or list line never matches)."""
    if doc.line(n).strip().lower() != want:
        return False
    return all(m < 1 or m > len(doc.lines) or not doc.line(m).strip() for m in (n - 1, n + 1))


def _section_body(w: RulesWriter, entry: TocEntry, sec: Section, start: int, end: int) -> None:
    """Paragraphs and subsections of a chapter or section, from its heading to ``end``."""
    doc = w.doc
    parts = entry.parts
    subs = [n for n in range(start + 1, end + 1) if looks_like_heading(doc, n)]
    if len(parts) > 1:
        found = [p.lower() for p in parts[1:] if any(doc.line(n).strip().lower() == p.lower() for n in subs)]
        if len(found) != len(parts) - 1:
            raise doc.error(start, f"section {entry.title!r}: expected headings {parts[1:]} inside it, found {found}")
        subs = [start] + subs   # the first part's heading is the section heading itself
        sec.aliases.extend(parts)
    owner = sec.slug
    first_sub = subs[0] if subs else end + 1
    for b in blocks(doc, start + 1, min(first_sub - 1, end)):
        w.block(owner, b)
    for i, h in enumerate(subs):
        stop = subs[i + 1] - 1 if i + 1 < len(subs) else end
        title = doc.line(h).strip()
        slug = w.unique_slug(f"{sec.slug}-{slugify(title)}")
        w.section(slug, "subsection", title, h, entry.chapter, sec.slug, sec.page, sec.page_end)
        for b in blocks(doc, h + 1, stop):
            w.block(slug, b)


# --------------------------------------------------------------------------
# Page lookup
# --------------------------------------------------------------------------

def _page_sections(parsed: ParsedCorpus) -> list[Section]:
    """The finest TOC-level units: sections, plus chapters that have no sections (VII, VIII)."""
    rules = [s for s in parsed.sections if s.doc == "rules" and s.page is not None]
    with_sections = {s.parent for s in rules if s.kind == "section"}
    return [s for s in rules if s.kind == "section" or (s.kind == "chapter" and s.slug not in with_sections)]


def sections_for_page(parsed: ParsedCorpus, page: int) -> list[Section]:
    """Every section whose page span [page, page_end] covers ``page``, in document order."""
    return [s for s in _page_sections(parsed) if s.page <= page <= (s.page_end or s.page)]


def section_for_page(parsed: ParsedCorpus, page: int) -> Section | None:
    """The section a "p. N" reference most likely means.

    A page usually holds the end of one section and the start of others. A
    section that *starts* on the page is preferred (the first of them): an
    index's bold "main" page is where a topic is introduced. Otherwise the
    section running across the page. None outside the document's pages.
    """
    candidates = sections_for_page(parsed, page)
    if not candidates:
        return None
    starting = [s for s in candidates if s.page == page]
    return starting[0] if starting else candidates[-1]
