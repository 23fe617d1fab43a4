"""The check behind every set's "card pages read as plain steps" test, in one place.

Each set's test names its cards; every set refuses the same words (code, object reprs, generic
fallbacks and the printed-text fallback), and this walks every version's lines the same way.
"""
from __future__ import annotations

import re
from typing import Callable

# Code words, object reprs and the generic fallbacks a page must never show.
CODE_WORDS = (r"<[a-z]|object at|lambda|\bctx\b|``|Citation of|card-specific rule|A step of this card|"
              r"\bfn\b|(?-i:\bNone\b)|\(verb |\bdepth\b|_")     # Python's None, not the word "none"
# ... and no "As printed" fallback and no raw "(n 1)" arguments.
CODE_WORDS_OR_PRINTED = re.compile(CODE_WORDS + r"|^As printed|\(n \d", re.I)


def cards_in(keep: Callable[[str], bool]) -> list[str]:
    """Every defined card whose set ``keep`` accepts."""
    from app.corpus.card_facts import facts_for
    from app.engine.core.registry import defined_cards

    return [c for c in defined_cards() if (f := facts_for(c)) is not None and f.set and keep(f.set)]


def unplain_lines(cards: list[str], refused: re.Pattern) -> dict[str, str]:
    """``{"<card> <version>": offending line}`` for each version with no lines or a line ``refused`` matches."""
    from app.web.definition_words import definition_words

    bad = {}
    for card in cards:
        for v in definition_words(card):
            lines = [x["text"] for x in v["lines"]]
            if not lines:
                bad[f"{card} {v['version']}"] = "no lines"
            for text in lines:
                if refused.search(text) or not text.strip():
                    bad[f"{card} {v['version']}"] = text
    return bad
