"""Parse the Card Reference and "Previous versions of some cards" of the Complete Rules.

Both sections are lists of entries: a header line (name, lost expansion icon,
page list, maybe a "see X" group pointer) followed by numbered points and
``❖`` notes. Header recognition lives in ``card_reference_header``, the
splitting of an entry body into points in ``card_reference_rulings``; this
module walks the sections, numbers the points and builds the model objects.

Numbering decisions (the document's own numbering is the reference other
sections cite, e.g. "See Minion 3-4", so it is kept wherever it can be):

* A printed number is kept when it is higher than the previous point's number
  in the same entry/version. Skips are therefore kept (Exploration ① ④).
* A printed number that repeats or goes backwards (Bridge Troll 1 2 2,
  Invest ①-⑤ ④ ⑤, Vault 1 1, Sycophant ❶ ❶, Cavalry 1-10 ①) is renumbered to
  previous + 1 so every ruling keeps a unique key; ``printed`` still shows
  what the document says.
* Unnumbered ``- text`` bullets are numbered by position (Tiara 1-5, and the
  leading bullets of Tomb/Watchtower, which continue into printed ③ / 5).
  Once an entry has printed a number, a later bare bullet is the page-break
  continuation of the point above it (Taskmaster 7, Plateau Shepherds 2,
  Journey ③), not a new point.
* A previous version's rulings are keyed by the version slug, so the printed
  numbers can be kept as they are: some continue the main entry's numbering
  (Basilica 4-7), some restart (Band of Misfits ❶-24, Your Estate token 1-21).
  Only when a previous version starts with an unprinted point does its
  numbering continue from the main entry's highest number.
"""
from __future__ import annotations

import re

from app.corpus.card_reference_header import Header, parse_header_line
from app.corpus.card_reference_rulings import RawRuling, label_of, split_body
from app.corpus.model import CardEntry, ParsedCorpus, PreviousVersion, Ruling, slugify
from app.corpus.sources import CorpusError, SourceDoc

CARD_REFERENCE = "Card Reference"
PREVIOUS_VERSIONS = "Previous versions of some cards"
NEXT_CHAPTER = "VII. DETAILED TIMING FOR CERTAIN CARDS"

_VERSION_TITLE = re.compile(r"\bversion\b", re.I)
_PRE_YEAR = re.compile(r"pre-\d{4}", re.I)
# A header that lost its name: only icons/promo and a page list (or a group pointer) left.
_NAMELESS = re.compile(r"^\W*(?:\*?\(promo\)\*?\s*)?(?:p\.\s*\d+(?:\s*,\s*\d+)*|see\s+\S+:\s*p\.[\d ,]+)\s*$")


def card_slug(name: str) -> str:
    """``slugify`` that keeps a token's sign: '+1 Card' and '-1 Card' are different tokens.

    Plain ``slugify`` folds "Your +① token" and "Your -1 token" (and the +1/-1
    Card tokens) to the same slug, so '+'/'-' before a digit are spelled out
    ("Your +$1 token", as restored, keeps the slug of "Your +① token").
    Card names are unaffected (their dashes are followed by letters).
    """
    name = re.sub("[\ue000-\uf7ff]", "", name)      # a lost-symbol marker (app/corpus/symbols.py) is not a word
    name = re.sub(r"\+\$?(?=[\d\u2460-\u2473])", " plus ", name)
    name = re.sub(r"(?<![A-Za-z])[-\u2212]\$?(?=[\d\u2460-\u2473])", " minus ", name)
    return slugify(name)


def name_key(name: str) -> str:
    """Lookup key: case-, apostrophe- and dash-insensitive; 'The X' == 'X, The'."""
    name = name.strip()
    m = re.match(r"(?i)^the\s+(.+)$", name)
    if m:
        name = f"{m.group(1)}, The"
    return card_slug(name)


def find_card(parsed: ParsedCorpus, name: str) -> CardEntry | None:
    """The Card Reference entry called ``name``; redirects are not followed."""
    key = name_key(name)
    for card in parsed.cards:
        if card.slug == key or name_key(card.name) == key:
            return card
    return None


def _locate(doc: SourceDoc) -> tuple[int, int, int]:
    """Lines of the three headings that bound the two sections.

    Each is searched for on its own so that a missing one is reported at a
    line that helps: the neighbouring heading that was found.
    """
    def find(text: str, start: int = 1) -> int | None:
        try:
            return doc.find(text, start)
        except CorpusError:
            return None

    previous = find(PREVIOUS_VERSIONS)
    heading = find(CARD_REFERENCE)
    if heading is None or (previous is not None and heading > previous):
        where = previous or len(doc.lines)
        raise doc.error(where, f"card reference: no {CARD_REFERENCE!r} heading line before this line")
    if previous is None:
        raise doc.error(heading, f"card reference: no {PREVIOUS_VERSIONS!r} heading line after "
                                 "this Card Reference heading")
    end = find(NEXT_CHAPTER, previous + 1)
    if end is None:
        raise doc.error(previous, f"previous versions: no {NEXT_CHAPTER!r} heading line after this line")
    return heading, previous, end


def _blocks(doc: SourceDoc, first: int, last: int) -> list[tuple[int, list[Header], list[tuple[int, str]]]]:
    """(header line, headers on it, body lines) for every entry in lines first..last."""
    blocks: list[tuple[int, list[Header], list[tuple[int, str]]]] = []
    for line_no in range(first, last + 1):
        text = doc.line(line_no)
        if _NAMELESS.match(text):
            raise doc.error(line_no, f"card reference: entry header without a name: {text.strip()!r}")
        headers = parse_header_line(text)
        if headers:
            blocks.append((line_no, headers, []))
        elif blocks:
            blocks[-1][2].append((line_no, text))
    return blocks


def _number(raw: list[RawRuling], card: str, version: str | None, start_after: int) -> list[Ruling]:
    """Model rulings for one entry (or one previous version), numbered as the module docstring says."""
    out: list[Ruling] = []
    last = start_after
    seen_printed = False
    for item in raw:
        if item.kind == "ruling" and not item.printed and seen_printed and out:
            # A bare bullet after numbered points: the page break split the point above.
            out[-1].text = out[-1].text + "\n\n" + item.text
            continue
        if item.kind == "note":
            number = None
        elif item.value is not None and item.value > last:
            number = item.value
        else:
            number = last + 1
        if number is not None:
            last = number
        if item.printed:
            seen_printed = True
        out.append(Ruling(card=card, number=number, text=item.text, line=item.line,
                          ord=len(out) + 1, printed=item.printed, kind=item.kind,
                          label=label_of(item.text), version=version))
    return out


def _parse_main(doc: SourceDoc, parsed: ParsedCorpus, heading: int, end: int) -> None:
    blocks = _blocks(doc, heading + 1, end - 1)
    if not blocks:
        raise doc.error(heading, "card reference: no entries found between this heading "
                                 f"and {PREVIOUS_VERSIONS!r} (line {end})")
    used: set[str] = set()
    for line_no, headers, body in blocks:
        glued = len(headers) > 1
        for i, header in enumerate(headers):
            slug = card_slug(header.name)
            if slug in used:   # never happens in the current document; keep keys unique anyway
                n = 2
                while f"{slug}-{n}" in used:
                    n += 1
                slug = f"{slug}-{n}"
            used.add(slug)
            parsed.cards.append(CardEntry(
                slug=slug, name=header.name, line=line_no, ord=len(parsed.cards) + 1,
                pages=header.pages, redirect=header.redirect, kind=header.kind, glued=glued))
        # On a glued line the body follows the last entry; the others have none.
        raw = split_body(body)
        parsed.rulings.extend(_number(raw, parsed.cards[-1].slug, None, 0))


def _parse_previous(doc: SourceDoc, parsed: ParsedCorpus, heading: int, end: int) -> None:
    blocks = _blocks(doc, heading + 1, end - 1)
    if not blocks:
        raise doc.error(heading, f"card reference: no entries under {PREVIOUS_VERSIONS!r}")
    for line_no, headers, body in blocks:
        if len(headers) != 1:
            raise doc.error(line_no, "previous versions: expected one entry on the header line")
        header = headers[0]
        main = find_card(parsed, header.name)
        if main is None:
            raise doc.error(line_no, f"previous versions: {header.name!r} has no Card Reference entry")
        raw = split_body(body)
        if not raw or raw[0].kind != "note" or not _VERSION_TITLE.search(raw[0].text):
            raise doc.error(line_no, f"previous versions: {header.name!r} is not followed by a "
                                     "'❖ Pre-YYYY version' line")
        title = re.sub(r"[*_]", "", raw[0].text).strip()
        year = _PRE_YEAR.search(title)
        slug = f"{main.slug}-{(year.group(0) if year else slugify(title)).lower()}"
        parsed.previous_versions.append(PreviousVersion(
            slug=slug, card=main.slug, name=header.name, title=title, line=line_no,
            ord=len(parsed.previous_versions) + 1, pages=header.pages))
        points = raw[1:]
        start_after = 0
        first = next((p for p in points if p.kind == "ruling"), None)
        if first is not None and not first.printed:
            start_after = max((r.number or 0) for r in parsed.rulings
                              if r.card == main.slug and r.version is None) if parsed.rulings else 0
        parsed.rulings.extend(_number(points, main.slug, slug, start_after))


def parse_card_reference(doc: SourceDoc, parsed: ParsedCorpus) -> None:
    """Add the Card Reference entries, previous versions and their rulings to ``parsed``.

    Raises ``CorpusError`` (file and line) when a heading is missing or a
    section no longer yields entries, rather than producing a partial list.
    """
    heading, previous, end = _locate(doc)
    _parse_main(doc, parsed, heading, previous)
    _parse_previous(doc, parsed, previous, end)
