"""Recognising Card Reference entry headers.

A header is the only kind of line in the Card Reference that carries a card
name, so telling it apart from a ruling's continuation text is what the whole
parse rests on. The grammar is deliberately strict (a title-cased name, then
only icons, '(promo)', '(type)', a page list and a 'see X' group pointer):
prose such as "Consequently, Wayfarer gets ..." can never match, while every
header form the PDF extraction produced does, including the lost-icon double
space and the glued lines where several entries share one line.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

# One word of a card name: "King’s", "Will-o'-Wisp", "City-state".
_WORD = r"[A-Z][A-Za-z'’\-]*"
# Lower-case words that occur inside names ("Jack of All Trades", "Lost in the Woods").
_CONNECTOR = r"(?:of|the|in|and)"
_NAME = (
    rf"(?:Your\s+\S+(?:\s+{_WORD})?\s+(?:token|mat)"          # Your +1 Action token, Your Exile mat
    rf"|{_WORD}(?:\s(?:{_WORD}|{_CONNECTOR}))*(?:,\s+The)?)"  # Earth's Gift, The
)
_PAGES = r"\d+(?:\s*,\s*\d+)*"
# The target of "see X": plain, **bold** or a [link](#).
_SEE_TARGET = r"(?:\*\*)?(?:\[(?P<{g}l>[^\]]+)\]\(#\)|(?P<{g}t>[A-Z][A-Za-z' ’\-]*?))(?:\*\*)?"
_TAIL = re.compile(
    r"^\s*(?P<promo>\*?\(promo\)\*?)?"
    r"\s*(?P<type>\(type\))?"
    r"\s*(?:p\.\s*(?P<pages>" + _PAGES + r"))?"
    r"\s*(?:,?\s*[—–]?\s*see\s+" + _SEE_TARGET.format(g="s") +
    r"\s*(?::\s*p\.\s*(?P<seepages>" + _PAGES + r"))?)?"
    r"\s*(?:\((?:see\s+)?" + _SEE_TARGET.format(g="p") + r"\))?"
    r"\s*$"
)
_NAME_RE = re.compile(rf"^(?P<name>{_NAME})(?P<rest>(?:\s.*)?)$")
# A glued entry starts with its name in bold: "Baker 👤 p. 8**Ball** ⚽ p. 22".
_GLUED_NAME = re.compile(r"(?<!see )\*\*(?P<name>[A-Z][^*]*)\*\*")


@dataclass
class Header:
    """What one header (or one part of a glued header line) says about its entry."""

    name: str
    pages: list[int] = field(default_factory=list)
    redirect: str | None = None
    kind: str = "card"          # 'card' | 'redirect' | 'token' | 'type'
    promo: bool = False


def _is_icon(ch: str) -> bool:
    """Expansion icons survive extraction as emoji/symbols (or vanish, leaving spaces)."""
    if ch in "\ufe0f\u200d":
        return True
    return unicodedata.category(ch) in ("So", "Sk", "Mn", "Cf", "Co")


def _strip_icons(text: str) -> str:
    return "".join(" " if _is_icon(c) else c for c in text)


def _page_list(text: str | None) -> list[int]:
    return [int(p) for p in re.findall(r"\d+", text or "")]


def parse_header_part(text: str) -> Header | None:
    """One entry header, or None when ``text`` is not one."""
    m = _NAME_RE.match(text.strip())
    if not m:
        return None
    tail = _TAIL.match(_strip_icons(m.group("rest")))
    if not tail:
        return None
    name = m.group("name").strip()
    pages: list[int] = []
    for p in _page_list(tail.group("pages")) + _page_list(tail.group("seepages")):
        if p not in pages:
            pages.append(p)
    redirect = (tail.group("sl") or tail.group("st") or tail.group("pl") or tail.group("pt"))
    redirect = redirect.strip() if redirect else None
    if tail.group("type"):
        kind = "type"
    elif name.startswith("Your "):
        kind = "token"
    elif redirect:
        kind = "redirect"
    else:
        kind = "card"
    return Header(name=name, pages=pages, redirect=redirect, kind=kind,
                  promo=bool(tail.group("promo")))


def parse_header_line(line: str) -> list[Header] | None:
    """All entries on a header line (more than one when the PDF glued them), or None."""
    stripped = line.strip()
    if not stripped or not (stripped[0].isupper()):
        return None
    whole = parse_header_part(stripped)
    if whole is not None:
        return [whole]
    cuts = [m.start() for m in _GLUED_NAME.finditer(stripped) if m.start() > 0]
    if not cuts:
        return None
    parts = [stripped[a:b] for a, b in zip([0] + cuts, cuts + [len(stripped)])]
    headers: list[Header] = []
    for part in parts:
        part = re.sub(r"^\*\*([^*]*)\*\*", r"\1", part)
        header = parse_header_part(part)
        if header is None:
            return None
        headers.append(header)
    return headers
