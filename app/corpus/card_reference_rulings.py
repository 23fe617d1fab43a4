"""Turning the body lines of one Card Reference entry into rulings and notes.

The document marks a ruling in five ways (``1``, ``①``, ``❶``, ``- ❶``,
``- 11``) or not at all (``- text`` bullets, as in Tiara), and lets a ruling run
on over several paragraphs and page breaks. Everything that is neither a
marker, a ``❖`` note nor a bullet is therefore continuation text of the point
above it; only the line *start* is ever read as a marker, so a circled digit
inside the text (``+②``, "costs ③ or more") stays a coin amount.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from app.corpus.text import plain

_CIRCLED = {chr(0x2460 + i): i + 1 for i in range(20)}           # ① .. ⑳
_CIRCLED.update({chr(0x2776 + i): i + 1 for i in range(10)})      # ❶ .. ❿
_CIRCLED.update({chr(0x24EB + i): i + 11 for i in range(10)})     # ⓫ .. ⓴
_CIRCLED.update({chr(0x2780 + i): i + 1 for i in range(10)})      # ➀ .. ➉
_CIRCLED.update({chr(0x278A + i): i + 1 for i in range(10)})      # ➊ .. ➓
_MARKER_CHARS = "".join(_CIRCLED)

_NUMBERED = re.compile(rf"^\s*(?:-\s*)?(?P<m>\d{{1,2}}|[{_MARKER_CHARS}])\s+(?P<text>\S.*)$")
_NOTE = re.compile(r"^\s*(?:-\s*)?❖\s*(?P<text>.*)$")
_BULLET = re.compile(r"^\s*-\s+(?P<text>\S.*)$")

# Leading labels, e.g. '**Clarification:**', '*From rulebook:*', 'Erratum:**',
# '**Clarification**:', '**Erratum (2017 edition):**', '**New version 2022:**'.
_LABEL = re.compile(
    r"^[*_]*(?P<label>(?:Clarification|From rulebook|Erratum|New edition|New version|Note"
    r"|(?:pre-)?\d{4}[- ]version)[^:*]{0,40}?)[*_]*\s*:"
)
_QUALIFIER = re.compile(r"\s*\([^)]*\)\s*$")


@dataclass
class RawRuling:
    """A ruling or note before it is given its card/version and normalised number."""

    kind: str                   # 'ruling' | 'note'
    printed: str                # marker as printed, '' when unprinted
    value: int | None           # the printed marker's value
    line: int
    parts: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return join_parts(self.parts)


def marker_value(marker: str) -> int:
    """'11' -> 11, '③' -> 3, '❿' -> 10."""
    return int(marker) if marker.isascii() else _CIRCLED[marker]


def classify(line: str) -> tuple[str, str, str]:
    """('note'|'numbered'|'bullet'|'text'|'blank', marker, text) for one body line."""
    if not line.strip():
        return "blank", "", ""
    m = _NOTE.match(line)
    if m:
        return "note", "", m.group("text").strip()
    m = _NUMBERED.match(line)
    if m:
        return "numbered", m.group("m"), m.group("text").strip()
    m = _BULLET.match(line)
    if m:
        return "bullet", "", m.group("text").strip()
    return "text", "", line.strip()


def join_parts(parts: list[str]) -> str:
    """Rejoin a ruling split over lines, paragraphs or page breaks.

    A line that ends mid-sentence (the PDF broke it at a page end) runs on with
    a space, a word hyphenated across the break ("Story-" / "teller") is
    rejoined, and a part that starts a new sentence after a finished one is a
    paragraph of its own.
    """
    out = ""
    for part in parts:
        if not out:
            out = part
        elif re.search(r"[A-Za-z]-\**$", out) and part[:1].islower():
            out = unbreak(out, part)
        elif re.search(r"[.:!?)”\"*]$", out) and not part[:1].islower():
            out += "\n\n" + part
        else:
            out += " " + part
    return out


_WORD = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)*")


@functools.lru_cache(maxsize=1)
def _vocabulary() -> frozenset[str]:
    """Every word (and hyphenated compound) the Complete Rules print within a line, lower-cased."""
    from app import config

    try:
        text = (config.corpus_dir() / "complete-rules.txt").read_text(encoding="utf-8")
    except OSError:
        return frozenset()
    words: set[str] = set()
    for line in text.splitlines():
        words.update(w.lower() for w in _WORD.findall(line.rstrip("-")))
    return frozenset(words)


def unbreak(left: str, right: str) -> str:
    """Join ``"...ap-"`` and ``"plies..."``: the PDF's line-break hyphen goes, a real compound keeps it.

    A word is a broken one when the joined form ("applies", "Storyteller") is
    printed elsewhere in the rules and the hyphenated form ("one-shot") is not.
    """
    head = re.search(r"([A-Za-z]+)-(\**)$", left)
    tail = re.match(r"[a-z]+", right)
    if head and tail:
        joined = (head.group(1) + tail.group(0)).lower()
        compound = f"{head.group(1)}-{tail.group(0)}".lower()
        vocab = _vocabulary()
        if joined in vocab and compound not in vocab:
            return left[:head.start() + len(head.group(1))] + head.group(2) + right
    return left + right


def label_of(text: str) -> str | None:
    """The leading label with markup and any '(1st edition)' qualifier removed."""
    m = _LABEL.match(text)
    if not m:
        return None
    label = plain(m.group("label")).strip()
    return _QUALIFIER.sub("", label) or None


def split_body(lines: list[tuple[int, str]]) -> list[RawRuling]:
    """Rulings and notes of one entry body, in order.

    Text with no point above it (none in the current document) becomes an
    unnumbered point rather than being dropped or glued to another entry.
    """
    rulings: list[RawRuling] = []
    for line_no, line in lines:
        kind, marker, text = classify(line)
        if kind == "blank":
            continue
        if kind == "note":
            rulings.append(RawRuling("note", "", None, line_no, [text]))
        elif kind == "numbered":
            rulings.append(RawRuling("ruling", marker, marker_value(marker), line_no, [text]))
        elif kind == "bullet" or not rulings:
            rulings.append(RawRuling("ruling", "", None, line_no, [text]))
        else:
            rulings[-1].parts.append(text)
    return rulings
