"""Chapter VIII index: one IndexTerm per "term : [definition] pages [. See/Also see *X*]" line.

Shapes found in the text::

    2019 errata : 18, 20, **25**, 46
    2022 errata : see *new-edition cards (2022-)*
    Action (resource) : 6, 11, **11**, 12. Also see *Action pool*
    ability : a set of *effects* on a card ... buy* an Event. 7, 7, 12, **16**, 17
    discard pile : ... 13, 13, **18, 18**, 19          (one bold run over two pages)
    Villager token: 4, 14, **28**, 40                  (no space before the colon)
    errata : see 2019 errata etc. Also see *new-edition cards*   (unitalicised target)

``pages``/``main_pages`` keep the printed order with repeats removed (the
index repeats a page once per mention; a link needs it once). The page list is
the last run of numbers before any "see"; numbers after "see" ("the CARD
REFERENCE p. 149") point into the Card Reference and are left in the text.
``see`` holds targets as printed, minus the markup, for the cross-reference
engineer to resolve.
"""
from __future__ import annotations

import re

from app.corpus.model import IndexTerm, ParsedCorpus, slugify
from app.corpus.sources import SourceDoc

_SEE = re.compile(r"(?:\bAlso see\b|\b[Ss]ee\b)")
# A comma-separated run of page numbers, any of them (or a run of them) in **bold**.
_PAGE_RUN = re.compile(r"(?<!\w)(?:\*\*)?\d{1,3}(?:\*\*)?(?:\s*,\s*(?:\*\*)?\d{1,3}(?:\*\*)?)*(?!\w)")
_TOKENS = re.compile(r"\*\*|\d+")
_TARGET_SPLIT = re.compile(r",\s*|\s+and\s+|\.\s+|\.$")
_PAGE_NOTE = re.compile(r"\bp\.\s*\d+")
_TARGET_END = re.compile(r"\s+(?:in the\b.*|etc\.?.*)$", re.IGNORECASE)


def parse_index(doc: SourceDoc, parsed: ParsedCorpus, start: int, end: int) -> list[IndexTerm]:
    """Terms between the "VIII. INDEX" heading (``start``) and ``end`` (inclusive)."""
    terms: list[IndexTerm] = []
    seen: dict[str, int] = {}
    for n in range(start + 1, end + 1):
        text = doc.line(n).strip()
        if not text:
            continue
        split = _split_term(text)
        if split is None:
            if terms:
                raise doc.error(n, f"index line is not 'term : pages': {text[:60]!r}")
            continue    # the index's introduction
        term, body = split
        slug = slugify(term)
        if not slug:
            raise doc.error(n, f"index term {term!r} has no letters or digits")
        if slug in seen:
            raise doc.error(n, f"index term {term!r} repeats the slug {slug!r} of line {seen[slug]}")
        seen[slug] = n
        it = _term(term, body, n, len(terms) + 1)
        if not it.pages and not it.see and not it.definition:
            raise doc.error(n, f"index term {term!r} has neither pages, definition nor see-target")
        terms.append(it)
    if not terms:
        raise doc.error(start, "no index terms ('term : pages') found under 'VIII. INDEX'")
    parsed.index_terms.extend(terms)
    return terms


def _split_term(text: str) -> tuple[str, str] | None:
    if " : " in text:
        term, body = text.split(" : ", 1)
    else:
        m = re.match(r"^(?P<term>[^:]{1,60}?):\s+(?P<body>(?:\*\*)?\d.*)$", text)
        if not m:
            return None
        term, body = m.group("term"), m.group("body")
    return term.strip(), body.strip()


def _term(term: str, body: str, line: int, ord_: int) -> IndexTerm:
    see_at = _SEE.search(body)
    head, tail = (body[:see_at.start()], body[see_at.start():]) if see_at else (body, "")
    runs = list(_PAGE_RUN.finditer(head))
    definition: str | None = head.strip()
    pages: list[int] = []
    main: list[int] = []
    if runs:
        run = runs[-1]
        definition = head[:run.start()].strip()
        pages, main = _pages(run.group(0))
        note = head[run.end():].strip()
        if note.strip(" ."):
            # A note after the pages ("Coin tokens from 1st ed. of *Guilds*: see
            # *Coffers token*.") only makes sense with its see-clause: keep both.
            definition = " ".join(x for x in (definition, note.lstrip(". "), tail.strip()) if x)
    return IndexTerm(slug=slugify(term), term=term, line=line, ord=ord_,
                     definition=definition or None, pages=pages, main_pages=main,
                     see=_see_targets(tail))


def _pages(run: str) -> tuple[list[int], list[int]]:
    bold = False
    pages: list[int] = []
    main: list[int] = []
    for tok in _TOKENS.findall(run):
        if tok == "**":
            bold = not bold
            continue
        p = int(tok)
        if p not in pages:
            pages.append(p)
        if bold and p not in main:
            main.append(p)
    return pages, main


def _see_targets(tail: str) -> list[str]:
    """Targets of every "see"/"Also see" in ``tail``, markup stripped, notes like "in the ..." cut."""
    targets: list[str] = []
    for part in _SEE.split(tail)[1:]:
        for raw in _TARGET_SPLIT.split(_PAGE_NOTE.sub("", part).strip()):
            t = _TARGET_END.sub("", raw.replace("*", "").strip()).strip(" .")
            if t and t not in targets:
                targets.append(t)
    return targets
