"""A search that names two cards is usually a dispute: show the scenarios that play it out, and a table to try.

A question naming one card gets no box: the card's rulings answer it, and a box of that card's scenarios
above them put edge cases first ("what happens when I buy Border Village?" was headed by Possession buying
it, issue #34). A scenario that answers a one-card question wins first place among the results on relevance
like any other hit.

Search recognises the cards (names, German names, abbreviations); the store
knows which scenarios involve them. The scenarios involving every recognised
card are ranked by how much of the question their titles share (a title states
what the scenario shows, "Moat protects only the player who reveals it"), so
the few shown are the ones a player is most likely asking about.
"""
from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

SHOWN = 3
_WORD = re.compile(r"[^\W\d_]{3,}")
_STOP = {"the", "and", "does", "with", "what", "when", "can", "you", "his", "her", "their", "still", "stay", "gegen",
         "vs", "versus", "from", "into", "onto", "how", "this", "that", "card", "cards", "play", "plays"}


def _score(row: dict[str, Any], names: list[str], words: set[str]) -> tuple[float, int]:
    """Question words in the title, the cards named in it, and few other Kingdom cards on the table."""
    from app.corpus.card_facts import facts_for

    title = row["title"].lower()
    hits = sum(1 for w in words if w in title)
    named = sum(1 for n in names if n.lower() in title)
    asked = {n.lower() for n in names}
    others = [c for c in row.get("cards") or [] if c.lower() not in asked
              and (f := facts_for(c)) is not None and f.purpose != "Basic"]
    return (hits * 3 + named * 2 - 1.5 * len(others), -len(title))


def dispute_view(facts: Any, cards: list[dict[str, Any]], q: str) -> dict[str, Any] | None:
    """For two or more recognised cards: the scenarios involving all of them (best first) and a sandbox link."""
    names = list(dict.fromkeys(c["name"] for c in cards or [] if c.get("name")))
    if len(names) < 2 or facts is None:
        return None
    from app.search.german import GERMAN_WORDS
    from app.search.stemming import QUERY_STOP
    from app.search.versions import names_version

    typed = " ".join(str(c.get("matched") or "") for c in cards).lower()
    # question words of either language say nothing about which scenario is meant ("Was kostet Burggraben?"
    # matched every title saying "was played")
    words = {w for w in _WORD.findall(q.lower()) if w not in _STOP and w not in typed
             and w not in QUERY_STOP and w not in GERMAN_WORDS}
    words -= {w for n in names for w in _WORD.findall(n.lower())}
    rows = facts.involving(*names)
    if not names_version(q):
        # a question naming no version is about the current cards (issue #34): no scenario of an old version
        rows = [r for r in rows if not any(isinstance(c, dict) and c.get("version") for c in r.get("rulings") or [])]
    ranked = sorted(rows, key=lambda r: _score(r, names, words), reverse=True)
    shown = [{"title": r["title"], "url": f"/scenarios/{r['key']}"} for r in ranked[:SHOWN]]
    sandbox_url = "/try?cards=" + quote(",".join(names))
    return {"names": names, "scenarios": shown, "more": max(0, len(ranked) - SHOWN), "sandbox_url": sandbox_url}
