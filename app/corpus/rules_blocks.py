"""Low-level reading of the Complete Rules' body text: blocks, headings, numbers.

The PDF extraction separates paragraphs with blank lines but sometimes glues a
numbered point onto the previous block (e.g. "- ⑧ ..." right under a list), so
blocks are split again wherever a numbered point starts. Headings carry no
markup at all; they are recognised by shape (see ``looks_like_heading``), and
the rules for that shape are collected here so every chapter parser agrees.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from app.corpus.sources import SourceDoc

# Circled digits ①..⑳ and negative circled digits ❶..❿, as printed.
_CIRCLED = {chr(0x2460 + i): i + 1 for i in range(20)}
_CIRCLED.update({chr(0x2776 + i): i + 1 for i in range(10)})
_CIRCLED_CLASS = "".join(_CIRCLED)

# "- 1 text", "- ③ text" or "① text" (plain digits need the dash: a bare
# leading number is ordinary prose such as "10 Kingdom card piles: ...").
_NUMBERED = re.compile(rf"^\s*(?:- ?([{_CIRCLED_CLASS}]|\d{{1,2}})|([{_CIRCLED_CLASS}]))\s")

_TERMINAL = re.compile(r"[.:;,!?\u2666\u25c6]$")   # ♦ and ◆ end a paragraph, never a heading
_SINGLE_STAR = re.compile(r"(?<!\*)\*(?!\*)")
_NOT_IN_HEADING = ("=", "\u2192", " \u2014", "<20")  # '=', '→', ' —', '<20xx' mark list lines
_PROSE_STARTS = ("Includes", "See ", "Also see", "Note")
HEADING_MAX = 70


@dataclass
class Block:
    """Consecutive non-blank lines; ``line`` is the 1-based line of the first one."""

    line: int
    lines: list[str]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def blocks(doc: SourceDoc, start: int, end: int) -> list[Block]:
    """Blank-line separated blocks in lines ``start``..``end`` (inclusive), numbered points split off.

    Lines without a letter or digit ("* * *", a lone "♦") are separators, not text.
    """
    out: list[Block] = []
    current: Block | None = None
    for n in range(start, end + 1):
        raw = doc.line(n).rstrip()
        if not raw.strip() or not any(c.isalnum() for c in raw):
            current = None      # blank, or a separator like "* * *" or a lone "♦"
            continue
        if current is None or paragraph_number(raw) is not None:
            current = Block(n, [raw])
            out.append(current)
        else:
            current.lines.append(raw)
    return out


def paragraph_number(text: str) -> int | None:
    """The printed point number of a paragraph ("- 2 ...", "- ⑤ ...", "① ..."), else None."""
    m = _NUMBERED.match(text)
    if not m:
        return None
    mark = m.group(1) or m.group(2)
    return _CIRCLED[mark] if mark in _CIRCLED else int(mark)


def prev_nonblank(doc: SourceDoc, line_no: int) -> str:
    for n in range(line_no - 1, 0, -1):
        if doc.line(n).strip():
            return doc.line(n).rstrip()
    return ""


def _blank(doc: SourceDoc, line_no: int) -> bool:
    return line_no < 1 or line_no > len(doc.lines) or not doc.line(line_no).strip()


def looks_like_heading(doc: SourceDoc, line_no: int) -> bool:
    """Whether a line is a heading: a short, unpunctuated, capitalised line on its own.

    Beyond the obvious shape, three traps in the text are excluded:
    list lines of the chapter V overviews ("Urchin", "Black Cat, Road Network")
    follow a line ending in ':'; trigger lines there carry '→', ' —', '<2022'
    or *italic* markup; and "Label: list" lines ("After play: Merchant 3")
    have more than one word before the colon, unlike "Promo: Black Market" or
    "Addendum: ...".
    """
    if not _blank(doc, line_no - 1) or not _blank(doc, line_no + 1):
        return False
    text = doc.line(line_no).strip()
    if not text or len(text) > HEADING_MAX:
        return False
    if not (text[0].isupper() or text[0] in "\u201c\""):
        return False
    if _TERMINAL.search(text) or _SINGLE_STAR.search(text):
        return False
    if any(s in text for s in _NOT_IN_HEADING) or text.startswith(_PROSE_STARTS):
        return False
    if ": " in text and " " in text.split(": ", 1)[0]:
        return False
    if prev_nonblank(doc, line_no).endswith(":"):
        return False
    return True
