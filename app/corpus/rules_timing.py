"""Chapter VII "Detailed timing for certain cards": one ``timing`` Section per card.

Layout in the extracted text:

* an introduction, ending in redirect lines "Alchemist — see *Improve*" or
  "Highway, Princess, Quarry — see *Bridge, Inventor*";
* entries: a heading line with the card name (maybe qualified: "Bridge Troll
  (2022 version)", "Aqueduct (Landmark)") followed by one paragraph per ability.

The PDF extraction glued 35 entries into four long lines, e.g.
``Garrison*play ability:* +**2**.*rest-of-turn ...*...**Gatekeeper***play ability:**...``.
Those are split back: each "**Name***label:*" starts an entry and each
"*... ability:*" label starts a paragraph; such entries and paragraphs all
carry the glued line's number, and their indentation was lost in extraction.
Elsewhere paragraphs keep the printed lines (leading " - " marks an indented,
nested ability) joined by newlines.

Redirects are recorded as ``aliases`` on the target entry (no redirect
Sections): "Alchemist" becomes an alias of ``vii-improve``; a redirect to
several cards ("see *Bridge, Inventor*") adds the alias to each, and a note in
parentheses ("*Outpost (slightly different timing)*") is dropped from the
target name. The redirect lines themselves stay paragraphs of the chapter.
"""
from __future__ import annotations

import re

from app.corpus.model import Section, slugify
from app.corpus.rules_writer import RulesWriter

_REDIRECT = re.compile(r"^(?P<names>.+?)\s+\u2014\s+see\s+\*(?P<targets>[^*]+)\*\s*$")
# "Garrison*play ability:* ..." — the first entry of a glued line.
_GLUED_FIRST = re.compile(r"^(?P<name>[A-Z][^*]*?)(?P<body>\*[A-Za-z][^*]*:\*.*)$")
# "**Gatekeeper***play ability:*" — a following entry inside a glued line.
_GLUED_NEXT = re.compile(r"\*\*(?=[A-Z][^*]*\*\*\*[A-Za-z][^*]*:\*)")
_GLUED_NAME = re.compile(r"^\*\*(?P<name>[^*]+)\*\*(?P<body>\*.*)$")
# "*rest-of-turn ability (activated on play):*" — a paragraph label in a glued entry.
_LABEL_START = re.compile(r"\*(?=[A-Za-z][^*]*:\*)")
_QUALIFIER = re.compile(r"\s*\([^()]*\)\s*$")


def card_name(title: str) -> str:
    """"Defiled Shrine (Landmark) (2022 version)" -> "Defiled Shrine"."""
    prev = None
    while prev != title:
        prev, title = title, _QUALIFIER.sub("", title)
    return title.strip()


def parse_timing(w: RulesWriter, chapter: Section, start: int, end: int) -> list[Section]:
    """Entries of chapter VII between its heading (``start``) and the index heading (``end``)."""
    doc = w.doc
    n = start + 1
    redirects: list[tuple[int, list[str], list[str]]] = []
    # Introduction: everything up to the first entry heading.
    while n < end and not _is_heading(w, n):
        text = doc.line(n).rstrip()
        if text.strip():
            w.paragraph(chapter.slug, text, n)
            m = _REDIRECT.match(text.strip())
            if m:
                names = [x.strip() for x in m.group("names").split(",")]
                targets = [card_name(x.strip()) for x in m.group("targets").split(",")]
                redirects.append((n, names, targets))
        n += 1
    if not redirects:
        raise doc.error(start, "chapter VII introduction has no 'Name — see *Card*' redirect lines")
    entries: list[Section] = []
    current: Section | None = None
    para: list[str] = []
    para_line = 0

    def flush() -> None:
        nonlocal para
        if para and current is not None:
            w.paragraph(current.slug, "\n".join(para), para_line)
        para = []

    for n in range(n, end):
        raw = doc.line(n).rstrip()
        if not raw.strip():
            flush()
            continue
        glued = _GLUED_FIRST.match(raw)
        if glued:
            flush()
            for name, body in _split_glued(raw):
                current = _new_entry(w, chapter, name, n)
                entries.append(current)
                for piece in _LABEL_START.split(body):
                    if piece.strip():
                        w.paragraph(current.slug, "*" + piece, n)   # restore the split-off '*'

            continue
        if _is_heading(w, n):
            flush()
            current = _new_entry(w, chapter, raw.strip(), n)
            entries.append(current)
            continue
        if current is None:
            raise doc.error(n, "text before the first chapter VII entry heading")
        if not para:
            para_line = n
        para.append(raw)
    flush()
    if not entries:
        raise doc.error(start, "no detailed timing entries found in chapter VII")
    _apply_redirects(w, entries, redirects)
    return entries


def _is_heading(w: RulesWriter, n: int) -> bool:
    """An entry heading: a card name alone between blank lines (no ':' and no sentence end)."""
    doc = w.doc
    text = doc.line(n).strip()
    if not text or doc.line(n - 1).strip() or doc.line(n + 1).strip():
        return False
    if ":" in text or "*" in text or text.endswith(".") or len(text) > 70:
        return False
    return text[0].isupper() and not _REDIRECT.match(text)


def _split_glued(line: str) -> list[tuple[str, str]]:
    first, *rest = _GLUED_NEXT.split(line)
    m = _GLUED_FIRST.match(first)
    out = [(m.group("name").strip(), m.group("body"))]
    for piece in rest:
        mm = _GLUED_NAME.match("**" + piece)
        out.append((mm.group("name").strip(), mm.group("body")))
    return out


def _new_entry(w: RulesWriter, chapter: Section, title: str, line: int) -> Section:
    slug = f"vii-{slugify(card_name(title))}"
    return w.section(slug, "timing", title, line, "VII", chapter.slug, chapter.page, chapter.page_end)


def _apply_redirects(w: RulesWriter, entries: list[Section],
                     redirects: list[tuple[int, list[str], list[str]]]) -> None:
    by_name = {card_name(e.title).lower(): e for e in entries}
    for line, names, targets in redirects:
        for target in targets:
            entry = by_name.get(target.lower())
            if entry is None:
                raise w.doc.error(line, f"timing redirect to {target!r}, which has no entry in chapter VII")
            entry.aliases.extend(x for x in names if x not in entry.aliases)
