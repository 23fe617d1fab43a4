"""Snippets: a short window of a hit's text with the words that matched marked.

Written here rather than with Whoosh's highlighter because we already know
the query's stems and card names, and re-analysing whole stored documents per
hit costs more than the rest of the query. Output is HTML-escaped text with
``<mark>`` around matches, safe to insert into a page as is.
"""
from __future__ import annotations

import html
import re

from app.search.stemming import stem_word

_WORD = re.compile(r"[^\W_]+")
WINDOW = 220


def snippet(text: str, stems: set[str], names: list[str], window: int = WINDOW) -> str:
    text = " ".join(text.split())
    name_spans: list[tuple[int, int]] = []
    for name in names:
        if name:
            for m in re.finditer(r"(?<!\w)" + re.escape(name) + r"(?:['\u2019]?s)?(?!\w)", text, re.IGNORECASE):
                name_spans.append((m.start(), m.end()))
    if len(text) <= window:
        start, end = 0, len(text)
        spans = _merge(sorted(name_spans + _stem_spans(text, stems, 0, end)))
    else:
        # Stemming every word of a long section is most of a snippet's cost, and only the words
        # inside the window are shown: find the first match, place the window, then mark inside it.
        first = min([s for s, _ in name_spans] + [s for s, _ in _stem_spans(text, stems, 0, len(text), most=1)],
                    default=0)
        start = max(0, min(first - window // 4, len(text) - window))
        end = min(len(text), start + window)
        start, end = _word_bounds(text, start, end)
        # words never straddle a space (the text is space-normalised), so scanning from the
        # space before the window sees whole words only
        scan = text.rfind(" ", 0, start) + 1
        spans = _merge(sorted(name_spans + _stem_spans(text, stems, scan, end)))
    out, pos = [], start
    for s, e in spans:
        if e <= start or s >= end:
            continue
        s, e = max(s, start), min(e, end)
        out.append(html.escape(text[pos:s]))
        out.append(f"<mark>{html.escape(text[s:e])}</mark>")
        pos = e
    out.append(html.escape(text[pos:end]))
    prefix = "… " if start > 0 else ""
    suffix = " …" if end < len(text) else ""
    return prefix + "".join(out).strip() + suffix


def _stem_spans(text: str, stems: set[str], pos: int, endpos: int, most: int = 0) -> list[tuple[int, int]]:
    """Spans of words in text[pos:endpos) (whole words starting there) whose stem is a query stem."""
    spans: list[tuple[int, int]] = []
    if not stems:
        return spans
    for m in _WORD.finditer(text, pos):
        if m.start() >= endpos:
            break
        if stem_word(m.group()) in stems:
            spans.append((m.start(), m.end()))
            if most and len(spans) >= most:
                break
    return spans


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for s, e in spans:
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(e, merged[-1][1]))
        else:
            merged.append((s, e))
    return merged


def _word_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    if start > 0:
        sp = text.find(" ", start)
        if 0 <= sp < start + 30:
            start = sp + 1
    if end < len(text):
        sp = text.rfind(" ", start, end)
        if sp > end - 30:
            end = sp
    return start, end
