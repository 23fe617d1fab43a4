"""Adventures rulebook (markdown-ish text from the PDF) -> sections, paragraphs, card descriptions.

Headings are ``#``/``##``/``###`` lines; paragraphs are blocks separated by
blank lines. Three headings hold per-card descriptions ("CARD DESCRIPTION",
"EVENT DESCRIPTION", "UPGRADE DESCRIPTION"); each entry starts with the card
name and a colon, usually bold (``**Amulet:**``) but not always (``Gear:``),
and page breaks of the PDF may split one entry into several blocks. Those
entries become ``RulebookCard`` rows rather than paragraphs, so the same text
is not indexed twice.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from app.corpus.model import Paragraph, ParsedCorpus, RulebookCard, Section, slugify
from app.corpus.sources import SourceDoc

DOC = "adventures"

# heading title (slugified) -> RulebookCard.kind
DESCRIPTION_SECTIONS = {
    "card-description": "card",
    "event-description": "event",
    "upgrade-description": "upgrade",
}

_HEADING = re.compile(r"^(#{1,3})\s+(.*?)\s*$")
_BOLD_ENTRY = re.compile(r"^\*\*([^*:]+):\*\*\s*(.*)$")
# Unbolded entry: one to four capitalised words, a colon, then the text.
_PLAIN_ENTRY = re.compile(r"^([A-Z][\w']*(?: (?:of|the|[A-Z][\w']*)){0,3}):\s+(.*)$")
# Coin amounts survive as LaTeX fragments: "$\text{+1}$" -> "+$1".
_COIN = re.compile(r"\$\\text\{([+-]?)(\d+)\}\$")
_MARKUP = re.compile(r"\*\*|\\(?=\*)")


@dataclass
class _Block:
    text: str
    line: int


def clean(text: str) -> str:
    """Coin fragments to ``$n``, collapsed spaces; bold markup is kept (the model keeps light markup)."""
    text = _COIN.sub(lambda m: f"{m.group(1)}${m.group(2)}", text)
    text = text.replace("\\*", "*")
    text = re.sub(r"[ \t\u00a0]{2,}", " ", text)
    return re.sub(r" +([),.;])", r"\1", text).strip()


def _heading_title(raw: str) -> str:
    """'**R**ECOMMENDED **S**ETS OF 10' -> 'RECOMMENDED SETS OF 10'."""
    return _MARKUP.sub("", raw).strip()


def _blocks(doc: SourceDoc, start: int, end: int) -> list[_Block]:
    """Blank-line separated blocks of lines [start, end), joined with spaces.

    A block that starts in lower case after a block that did not end a
    sentence continues it (the PDF's page or column break fell mid-sentence).
    """
    out: list[_Block] = []
    cur: list[str] = []
    first = start
    for n in range(start, end + 1):
        text = doc.line(n).strip() if n < end else ""
        if text:
            if not cur:
                first = n
            cur.append(text)
            continue
        if cur:
            joined = " ".join(cur)
            if out and joined[:1].islower() and not out[-1].text.rstrip().endswith((".", ":", "!", "?")):
                out[-1].text += " " + joined
            else:
                out.append(_Block(joined, first))
            cur = []
    return out


def parse_adventures(doc: SourceDoc, parsed: ParsedCorpus) -> None:
    """Append the rulebook's sections, paragraphs and card/Event/upgrade descriptions to ``parsed``."""
    headings: list[tuple[int, int, str]] = []   # (line, level, title)
    for n in range(1, len(doc.lines) + 1):
        m = _HEADING.match(doc.line(n))
        if m:
            headings.append((n, len(m.group(1)), _heading_title(m.group(2))))
    if not headings:
        raise doc.error(1, "expected markdown headings ('# ...', '## ...') in the Adventures rulebook, found none")

    sections: list[Section] = []
    used: dict[str, int] = {}
    parents: dict[int, Section] = {}
    found_kinds: set[str] = set()
    for i, (line, level, title) in enumerate(headings):
        base = f"adventures-{slugify(title)}"
        used[base] = used.get(base, 0) + 1
        slug = base if used[base] == 1 else f"{base}-{used[base]}"
        # '###' nests under the '##' above it. The one '#' heading (CONTENTS)
        # is a list of box contents, not a chapter, so it parents nothing.
        parent = parents[2].slug if level == 3 and 2 in parents else None
        section = Section(slug=slug, doc=DOC, kind="rulebook_section", title=title, line=line,
                          ord=len(sections) + 1, parent=parent)
        sections.append(section)
        parents[level] = section
        for lv in [lv for lv in parents if lv > level]:
            del parents[lv]

        end = headings[i + 1][0] if i + 1 < len(headings) else len(doc.lines) + 1
        blocks = _blocks(doc, line + 1, end)
        if i == 0:   # the flavour text above the first heading opens the rulebook
            blocks = _blocks(doc, 1, line) + blocks
        kind = DESCRIPTION_SECTIONS.get(slugify(title))
        if kind:
            found_kinds.add(kind)
            blocks = _card_entries(doc, parsed, blocks, kind, line)
        for b in blocks:
            parsed.paragraphs.append(Paragraph(section=slug, ord=0, text=clean(b.text), line=b.line))

    missing = set(DESCRIPTION_SECTIONS.values()) - found_kinds
    if missing:
        raise doc.error(headings[-1][0], f"expected the CARD/EVENT/UPGRADE DESCRIPTION headings, missing {sorted(missing)}")
    _number_paragraphs(parsed, {s.slug for s in sections})
    parsed.sections.extend(sections)


def _number_paragraphs(parsed: ParsedCorpus, slugs: set[str]) -> None:
    counts: dict[str, int] = {}
    for p in parsed.paragraphs:
        if p.section in slugs:
            counts[p.section] = counts.get(p.section, 0) + 1
            p.ord = counts[p.section]


def _card_entries(doc: SourceDoc, parsed: ParsedCorpus, blocks: list[_Block], kind: str,
                  heading_line: int) -> list[_Block]:
    """Turn entry blocks into RulebookCards; return the blocks that precede the first entry."""
    intro: list[_Block] = []
    entries: list[RulebookCard] = []
    for b in blocks:
        m = _BOLD_ENTRY.match(b.text) or _PLAIN_ENTRY.match(b.text)
        if m:
            name = m.group(1).strip()
            entries.append(RulebookCard(
                slug=f"adventures-{slugify(name)}", name=name, kind=kind, text=b.text[m.start(2):],
                line=b.line, ord=len(parsed.rulebook_cards) + len(entries) + 1, card=slugify(name),
            ))
        elif entries:
            # A page break inside the entry: the rest of its text.
            entries[-1].text += " " + b.text
        else:
            intro.append(b)
    if not entries:
        raise doc.error(heading_line, f"expected '**Name:** text' entries under this {kind} heading, found none")
    for e in entries:
        e.text = clean(e.text)
    parsed.rulebook_cards.extend(entries)
    return intro
