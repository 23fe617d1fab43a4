"""Chapter VI "Common effects": the alphabetical glossary the Card Reference points at.

Three kinds of entry are printed the same way (a heading line):

* ordinary entries ("Card costs", "Triggered ability", ...), 43 of them;
* an alias entry that only points elsewhere ("Differently named cards – see
  *Copy of a card* above"): kept as its own Section with ``see`` = the printed
  target, and its name added to the target's ``aliases`` so a lookup of either
  name lands on the text;
* the closing "Addendum: Cards that ..." after the "* * *" separator.

Inside an entry, a paragraph "When-gain ability:" (etc.) opens a block: it and
the following paragraphs get ``label`` 'when-gain' until the next such
paragraph or the end of the entry (this is how "Triggered ability" groups its
numbered points ①..⑧).
"""
from __future__ import annotations

import re

from app.corpus.model import Section, slugify
from app.corpus.rules_blocks import blocks, looks_like_heading
from app.corpus.rules_writer import RulesWriter

_ALIAS = re.compile(r"^(?P<name>.+?)\s+[\u2013\u2014-]\s+see\s+\*(?P<target>[^*]+)\*\s*(?:above|below)?\s*$")
_LABEL = re.compile(r"^(?P<label>When-[a-z]+) abilit(?:y|ies):$")
ADDENDUM_PREFIX = "Addendum"


def parse_common_effects(w: RulesWriter, parent: Section, start: int, end: int) -> list[Section]:
    """Entries between the "Common effects" heading (``start``) and "Card Reference" (``end``)."""
    doc = w.doc
    heads = [n for n in range(start + 1, end) if _is_entry_heading(w, n)]
    if not heads:
        raise doc.error(start, "no Common effects entries found under 'Common effects'")
    # Text before the first entry is the section's own introduction.
    for b in blocks(doc, start + 1, heads[0] - 1):
        w.block(parent.slug, b)
    entries: list[Section] = []
    for i, h in enumerate(heads):
        stop = heads[i + 1] - 1 if i + 1 < len(heads) else end - 1
        entries.append(_entry(w, parent, h, stop))
    _link_aliases(w, entries)
    return entries


def _is_entry_heading(w: RulesWriter, n: int) -> bool:
    doc = w.doc
    alone = not doc.line(n - 1).strip() and not doc.line(n + 1).strip()
    return (alone and bool(_ALIAS.match(doc.line(n).strip()))) or looks_like_heading(doc, n)


def _entry(w: RulesWriter, parent: Section, line: int, stop: int) -> Section:
    text = w.doc.line(line).strip()
    alias = _ALIAS.match(text)
    title = alias.group("name").strip() if alias else text
    sec = w.section(f"vi-{slugify(title)}", "common_effect", title, line, "VI",
                    parent.slug, parent.page, parent.page_end)
    if alias:
        sec.see.append(alias.group("target").strip())
    label: str | None = None
    for b in blocks(w.doc, line + 1, stop):
        m = _LABEL.match(b.text.strip())
        if m:
            label = m.group("label").lower()
        w.block(sec.slug, b, label)
    return sec


def _link_aliases(w: RulesWriter, entries: list[Section]) -> None:
    """Put an alias entry's name on its target, matched by title or by a " / " part of it."""
    by_name: dict[str, Section] = {}
    for e in entries:
        if e.see:
            continue
        by_name[e.title.lower()] = e
        for part in e.title.split(" / "):
            by_name.setdefault(part.strip().lower(), e)
    for e in entries:
        for target in e.see:
            hit = by_name.get(target.lower())
            if hit is None:
                raise w.doc.error(e.line, f"Common effects alias {e.title!r} points to unknown entry {target!r}")
            hit.aliases.append(e.title)
