"""When an ordinary word that is also a card name ("count", "market", "gold") means the card.

"does gaining a card count as buying it" names no card: "count" is the verb. Reading it
as the card Count brought Count's rulings to the top of every counts-as question. A
name typed in lower case that is an ordinary corpus word (``Recognized.weak``) is
dropped when the words around it use it as a word, not a name:

* it is followed by "as", "towards"/"toward" or "for" ("count as", "count for") or by
  a word that makes it a verb or a plain noun phrase listed below;
* it is preceded by an auxiliary or pronoun ("does it count", "still counts", "to trade").

A German name directly before a subject pronoun is a verb in a question, whatever its case: "krieg ich
trotzdem eine Karte" is "do I still get a card", not War (Krieg); "Spende ich" is "do I donate".

Kept readings stay weak (a small boost, the word still searched) unless the query treats
the word as a name: the query is nothing but that name ("count", "market"), or the
name stands next to another card's name ("feast chapel", "throne room and market");
then it becomes a full card reading. Capitalised and multi-word names are never weak,
so "Count" or "does Count count as an attack" keep the card.
"""
from __future__ import annotations

import re
from dataclasses import replace

from app.search.names import Recognized

_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?")
# Words that, right after the ordinary word, show it is used as a word ("count as", "bank on").
_WORD_AFTER = frozenset("as towards toward for against up down".split())
# Words that, right before it, show a verb or a non-name use ("does it count", "to trade", "still counts").
# What may stand between two card names that are read together ("chapel and feast", "TR + market").
_JOINERS = frozenset("and with on vs versus plus or".split())
_WORD_BEFORE = frozenset(
    "does do did doesn't don't didn't it that this still also not to will would can could should must "
    "may might they you i we he she which what".split())
# German subject pronouns: right after a one-word German name they make it a verb ("krieg ich", "spende ich").
# Only with a space between: "Hexe: es sind keine Flüche mehr da" names Witch.
_PRONOUN_NEXT = re.compile(r"[ \t]+(?:ich|du|er|sie|es|man|wir|ihr)\b", re.I)


def _neighbours(text: str, start: int, end: int) -> tuple[str, str]:
    before = _WORD.findall(text[:start])
    after = _WORD.findall(text[end:])
    return (before[-1].lower() if before else "", after[0].lower() if after else "")


def word_readings(text: str, spans: list[Recognized]) -> list[Recognized]:
    """``spans`` minus the weak card readings the surrounding words show to be ordinary words."""
    out = []
    for s in spans:
        if s.weak:
            before, after = _neighbours(text, s.start, s.end)
            if after in _WORD_AFTER or before in _WORD_BEFORE:
                continue
        if s.how == "german" and len(_WORD.findall(s.matched)) == 1 and _PRONOUN_NEXT.match(text, s.end):
            continue
        out.append(s)
    return [replace(s, weak=False) if s.weak and _as_name(text, s, out) else s for s in out]


def _as_name(text: str, span: Recognized, spans: list[Recognized]) -> bool:
    """The query is just this name, or the name sits next to another recognised card name."""
    if not _WORD.findall(text[:span.start]) and not _WORD.findall(text[span.end:]):
        return True
    for other in spans:
        if other is span or other.slug == span.slug:
            continue
        lo, hi = (other.end, span.start) if other.end <= span.start else (span.end, other.start)
        if lo > hi:
            continue
        between = [w.lower() for w in _WORD.findall(text[lo:hi])]
        if all(w in _JOINERS for w in between) and len(between) <= 1:
            return True
    return False
