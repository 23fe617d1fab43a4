"""BGG "Complete and All-Encompassing Dominion FAQ" -> sections, paragraphs, per-card clarifications.

The FAQ is a wiki page saved as text: numbered headings ("7. Game end",
"19.8 Steps of ..."), one paragraph per line, bullets as "  • ", and the
page's icons left behind as image URLs. Section 21 is different in kind: a
list of cards, each followed by bullets that may start with a label such as
"Erratum:" -- those become ``FaqClarification`` rows so that a card page can
show them next to the card's own rulings.
"""
from __future__ import annotations

import re

from app.corpus.model import FaqClarification, Paragraph, ParsedCorpus, Section, slugify
from app.corpus.sources import SourceDoc

CARD_SECTION = 21            # "21. Clarifications and errata"
EXPECTED_SECTIONS = 21

_SECTION = re.compile(r"^(\d{1,2})\. (\S.*)$")
_SUBSECTION = re.compile(r"^(\d{1,2})\.(\d{1,2}) (\S.*)$")
_BULLET = re.compile(r"^\s+•\s*(.*)$")
# A label is one of the FAQ's own legend words (see the head of section 21),
# optionally naming the source in parentheses: "From rules (Dark Ages):".
# Other "X:" prefixes ("Prince used on Band of Misfits: ...") are prose, not labels.
_LABEL = re.compile(r"^((?:Erratum|Clarification|From description|From rules)(?: \([^)]*\))?):\s*(.*)$")
# Page chrome after the article body.
_END_MARKERS = ("[What Links Here]",)

# The wiki's inline icons survive only as image URLs. What each stands for
# is stated by the FAQ's own text next to them ("... (3 coins)", "(victory
# point) token", "include the 16 Potion cards").
_ICONS = {
    "mb_6762_0.gif": "3 coins",
    "mb_6030_1.png": "VP",
    "mb_15219_1.png": "Potion",
}
_ICON_URL = re.compile(r"(\d*)http://geekdo-images\.com/images/geekmbs/(mb_\w+\.(?:gif|png))")


def clean(text: str) -> str:
    """Replace icon URLs by words so search and snippets read naturally."""

    def icon(m: re.Match[str]) -> str:
        word = _ICONS.get(m.group(2), "")
        amount = m.group(1)
        return f"{amount} {word}".strip() if amount else word

    text = _ICON_URL.sub(icon, text)
    text = re.sub(r"[ \t]{2,}", " ", text)
    return re.sub(r" +([),.;:])", r"\1", text).strip()


def parse_faq(doc: SourceDoc, parsed: ParsedCorpus) -> None:
    """Append the FAQ's sections, subsections, paragraphs and section-21 clarifications to ``parsed``."""
    start = _first_section_line(doc)
    end = _end_line(doc)
    sections: list[Section] = []
    current: Section | None = None
    top: Section | None = None
    para_ord: dict[str, int] = {}
    expected = 1

    def add_paragraph(text: str, line: int) -> None:
        assert current is not None
        para_ord[current.slug] = para_ord.get(current.slug, 0) + 1
        parsed.paragraphs.append(Paragraph(section=current.slug, ord=para_ord[current.slug], text=text, line=line))

    line_no = start
    card_start = None
    while line_no < end:
        raw = doc.line(line_no).rstrip()
        text = raw.strip()
        m_sub = _SUBSECTION.match(text)
        m_sec = _SECTION.match(text)
        if m_sec and int(m_sec.group(1)) == expected:
            top = Section(
                slug=f"faq-{expected}", doc="faq", kind="faq_section", title=clean(m_sec.group(2)),
                line=line_no, ord=len(sections) + 1,
            )
            top.aliases.append(f"{expected}. {top.title}")
            sections.append(top)
            current = top
            expected += 1
            if int(m_sec.group(1)) == CARD_SECTION:
                card_start = line_no + 1
                break
        elif m_sub and top is not None and m_sub.group(1) == top.slug.split("-")[1]:
            num = f"{m_sub.group(1)}.{m_sub.group(2)}"
            current = Section(
                slug=f"faq-{m_sub.group(1)}-{m_sub.group(2)}", doc="faq", kind="faq_subsection",
                title=clean(m_sub.group(3)), line=line_no, ord=len(sections) + 1, parent=top.slug,
            )
            current.aliases.append(f"{num} {current.title}")
            sections.append(current)
        elif text and current is not None:
            add_paragraph(clean(_BULLET.sub(r"\1", raw)), line_no)
        line_no += 1

    if expected - 1 != EXPECTED_SECTIONS or card_start is None:
        raise doc.error(start, f"expected FAQ sections 1-{EXPECTED_SECTIONS}, found 1-{expected - 1}")
    parsed.sections.extend(sections)

    # Section 21: legend bullets (paragraphs) until the first card heading.
    assert current is not None
    line_no = card_start
    while line_no < end and not _is_card_heading(doc, line_no, end):
        text = doc.line(line_no).strip()
        if text:
            add_paragraph(clean(_BULLET.sub(r"\1", doc.line(line_no))), line_no)
        line_no += 1
    _parse_cards(doc, parsed, line_no, end)


def _first_section_line(doc: SourceDoc) -> int:
    for n in range(1, len(doc.lines) + 1):
        if doc.line(n).strip() == "Table of Contents":
            return n + 1
    raise doc.error(1, "expected the 'Table of Contents' line that precedes section 1, found none")


def _end_line(doc: SourceDoc) -> int:
    for n in range(1, len(doc.lines) + 1):
        if doc.line(n).strip() in _END_MARKERS:
            return n
    return len(doc.lines) + 1


def _next_nonblank(doc: SourceDoc, line_no: int, end: int) -> int | None:
    n = line_no + 1
    while n < end and not doc.line(n).strip():
        n += 1
    return n if n < end else None


def _is_card_heading(doc: SourceDoc, line_no: int, end: int) -> bool:
    """A card heading is an unindented, non-bullet line whose next non-blank line is a bullet."""
    raw = doc.line(line_no)
    if not raw.strip() or raw[0].isspace():
        return False
    nxt = _next_nonblank(doc, line_no, end)
    return nxt is not None and bool(_BULLET.match(doc.line(nxt)))


def _parse_cards(doc: SourceDoc, parsed: ParsedCorpus, line_no: int, end: int) -> None:
    """Card headings followed by bullets. A heading may name several cards
    ("Mine, Moneylender, Throne Room, Graverobber"); its bullets then belong to each."""
    names: list[str] = []
    per_card: dict[str, int] = {}
    seen: list[str] = []
    found = 0
    while line_no < end:
        raw = doc.line(line_no)
        text = raw.strip()
        bullet = _BULLET.match(raw)
        if not text:
            pass
        elif bullet:
            if not names:
                raise doc.error(line_no, "FAQ clarification bullet before any card heading")
            body = clean(bullet.group(1))
            m = _LABEL.match(body)
            label, body = (m.group(1), m.group(2)) if m else ("", body)
            for name in names:
                per_card[name] = per_card.get(name, 0) + 1
                parsed.faq_clarifications.append(FaqClarification(
                    card_name=name, card=slugify(name), label=label, text=body,
                    line=line_no, ord=per_card[name],
                ))
        elif _is_card_heading(doc, line_no, end):
            names = [n.strip() for n in text.split(",") if n.strip()]
            found += 1
            for n in names:
                if n not in seen:
                    seen.append(n)
        else:
            raise doc.error(line_no, f"expected a card name or a '•' bullet in FAQ section {CARD_SECTION}, found {text[:60]!r}")
        line_no += 1
    if not found:
        raise doc.error(line_no, f"expected card headings in FAQ section {CARD_SECTION}, found none")


def faq_card_names(parsed: ParsedCorpus) -> list[str]:
    """Distinct card names with FAQ clarifications, in document order."""
    out: list[str] = []
    for c in parsed.faq_clarifications:
        if c.card_name not in out:
            out.append(c.card_name)
    return out
