"""Appends rules Sections and Paragraphs to a ParsedCorpus in document order.

The chapter, Common-effects and timing parsers all share one writer so that
``Section.ord`` is a single running order for the whole document and slugs
are checked for uniqueness in one place (a clash is a parser bug or a changed
document, reported with the line).
"""
from __future__ import annotations

from app.corpus.model import Paragraph, ParsedCorpus, Section
from app.corpus.rules_blocks import Block, paragraph_number
from app.corpus.sources import SourceDoc

DOC = "rules"


class RulesWriter:
    def __init__(self, doc: SourceDoc, parsed: ParsedCorpus):
        self.doc = doc
        self.parsed = parsed
        self._ord = 0
        self.by_slug: dict[str, Section] = {}
        self._para_ord: dict[str, int] = {}

    def section(self, slug: str, kind: str, title: str, line: int, chapter: str,
                parent: str | None, page: int | None, page_end: int | None) -> Section:
        if slug in self.by_slug:
            raise self.doc.error(line, f"section slug {slug!r} for {title!r} already used at line {self.by_slug[slug].line}")
        self._ord += 1
        sec = Section(slug=slug, doc=DOC, kind=kind, title=title, line=line, ord=self._ord,
                      chapter=chapter, parent=parent, page=page, page_end=page_end)
        self.parsed.sections.append(sec)
        self.by_slug[slug] = sec
        return sec

    def unique_slug(self, base: str) -> str:
        """``base``, or ``base-2``, ``base-3``... when a parent repeats a subheading."""
        slug, i = base, 1
        while slug in self.by_slug:
            i += 1
            slug = f"{base}-{i}"
        return slug

    def paragraph(self, section: str, text: str, line: int, label: str | None = None) -> Paragraph:
        n = self._para_ord.get(section, 0) + 1
        self._para_ord[section] = n
        para = Paragraph(section=section, ord=n, text=text, line=line,
                         number=paragraph_number(text), label=label)
        self.parsed.paragraphs.append(para)
        return para

    def block(self, section: str, block: Block, label: str | None = None) -> Paragraph:
        return self.paragraph(section, block.text, block.line, label)
