"""What a log line or a question must never show a player: the engine's own names for things.

Why a module of its own: every set's cards and mechanisms write narration, and
engineers add sets all the time; the test that renders every scenario's log
(tests/test_plain_words.py) asks this one function what leaked, so the rule is
written once and holds for cards that do not exist yet. Each finding names the
kind of leak and the text, so a failure says what to rewrite.

What counts as a leak (issue #35): zone names as the engine stores them
("set_aside", "mat:Tavern", "(supply)"), snake_case event names, card-name
slugs ("throne-room"), Python reprs, money written without its $ ("buys
Masterpiece for 2", "money pool now 3"), and "with Royal Carriage again", which
reads as if the Carriage were played again.
"""
from __future__ import annotations

import re
from functools import lru_cache

_CHECKS: list[tuple[str, re.Pattern[str]]] = [
    ("a mat as the engine names it", re.compile(r"\bmat:\S")),
    ("an engine name with underscores", re.compile(r"\b[a-z]+_[a-z_]+\b")),
    ("a zone name in brackets", re.compile(r"\((?:supply|trash|hand|deck|discard)\)")),
    ("a zone as the engine names it", re.compile(r"\b(?:in|into|from) (?:supply|trash|discard|deck)\b")),
    ("money without its $", re.compile(
        r"(?:money pool(?: now)?:?|\bbuys\b[^.;()]*?\bfor|\bcosts?|\bpays?|\boverpa(?:ys?|ying|id)|\+|-)\s+\d"
        r"|money pool(?: now)?:? \d|\bpool now \d")),
    ("a Python value", re.compile(r"\[['\"]|['\"]\]|\{['\"]|\bNone\b|\bTrue\b|\bFalse\b|<[a-z_.]+ object")),
    ("'with X again' (reads as if X were played again)", re.compile(r"\bwith [A-Z][\w' -]*? again\b")),
]
_TRASHED_AGAIN = re.compile(r"^(?P<card>[A-Z][\w' -]*?) is no longer in play.*\btrashed again\b")


@lru_cache(maxsize=1)
def _slugs() -> re.Pattern[str] | None:
    """Card names written as URL slugs ("throne-room"), for every card the engine defines."""
    from app.engine.core.registry import defined_cards

    slugs = sorted({re.sub(r"[^a-z0-9]+", "-", n.lower()).strip("-") for n in defined_cards() if " " in n},
                   key=len, reverse=True)
    return re.compile(r"\b(?:" + "|".join(map(re.escape, slugs)) + r")\b") if slugs else None


def leaks(text: str) -> list[str]:
    """Every internal term in one line of narration or one question, as "what: text"."""
    out = [f"{what}: {m.group(0)!r}" for what, rx in _CHECKS for m in [rx.search(text)] if m]
    slug = _slugs()
    m = slug.search(text) if slug is not None else None
    if m:
        out.append(f"a card name written as a slug: {m.group(0)!r}")
    return out


def log_leaks(lines: list[str]) -> list[str]:
    """``leaks`` for each line of one game's log, and claims the log itself contradicts.

    "X is no longer in play, so it is not trashed again" is only right when X was
    trashed earlier in the same log; otherwise "again" tells a player something
    that never happened.
    """
    out = []
    for i, line in enumerate(lines):
        out += [f"{found} in {line!r}" for found in leaks(line)]
        m = _TRASHED_AGAIN.match(line)
        if m and not any(re.search(rf"\btrash(?:es)? [^.]*\b{re.escape(m['card'])}\b", before)
                         for before in lines[:i]):
            out.append(f"'trashed again', but {m['card']} was never trashed: {line!r}")
    return out
