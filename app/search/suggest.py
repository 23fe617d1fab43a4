"""Why a query found nothing, in words that are true for that query, and what it may have meant.

"zzzz qqq" is made of words; saying it has "no searchable words" sends the
player looking for a syntax problem that is not there. The reasons are told
apart by what the query consists of: nothing but punctuation/symbols, nothing
but common words ("how does it work"), or words the documents never use. For
the last, the nearest card names and corpus words are offered when they are
close (a couple of edits), so a typo the name matcher would not risk
correcting on its own still gets the player to the right page.
"""
from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from rapidfuzz import process
from rapidfuzz.distance import OSA

from app.corpus.model import slugify

_WORD = re.compile(r"[^\W_]+")
MAX_SUGGESTIONS = 5
_MIN_WORD = 3            # shorter words are too easy to "correct" into anything


@dataclass
class EmptyReason:
    reason: str
    suggestions: list[str] = field(default_factory=list)


def words(text: str) -> list[str]:
    return _WORD.findall(text)


def _fold(word: str) -> str:
    return slugify(word).replace("-", "")


def _max_edits(word: str) -> int:
    """Edits allowed for a suggestion: one for short words, two from eight letters."""
    return 1 if len(word) < 8 else 2


def explain_empty(text: str, stop_words: Collection[str], card_names: dict[str, str],
                  vocabulary: Iterable[str]) -> EmptyReason:
    """The reason a cleaned, non-empty query produced no query at all, plus close suggestions.

    ``card_names`` maps a folded name ('throneroom' style keys are not required: any
    normalised form) to the name as printed; ``vocabulary`` holds the folded words of the corpus.
    """
    found = words(text)
    if not found:
        return EmptyReason("the query has no words, only punctuation or symbols")
    meaningful = [w for w in found if w.lower() not in stop_words]
    if not meaningful:
        shown = ", ".join(f"'{w}'" for w in dict.fromkeys(w.lower() for w in found))
        return EmptyReason(f"the query has only common words ({shown}); add a card name or a rules term")
    shown = ", ".join(f"'{w}'" for w in dict.fromkeys(meaningful))
    suggestions = suggest(meaningful, card_names, vocabulary)
    reason = f"nothing in the rules, rulings or FAQ matches {shown}"
    if suggestions:
        reason += "; did you mean " + ", ".join(f"'{s}'" for s in suggestions) + "?"
    return EmptyReason(reason, suggestions)


def suggest(typed: list[str], card_names: dict[str, str], vocabulary: Iterable[str]) -> list[str]:
    """Card names first (the whole query, then each word), then corpus words, each within a few edits."""
    out: list[str] = []
    name_keys = list(card_names)
    vocab = [w for w in vocabulary if len(w) >= _MIN_WORD]
    phrase = " ".join(_fold(w) for w in typed)
    candidates = [phrase] + [_fold(w) for w in typed] if len(typed) > 1 else [phrase]
    for cand in candidates:
        if len(cand.replace(" ", "")) < _MIN_WORD + 1:
            continue
        for key, dist, _ in process.extract(cand, name_keys, scorer=OSA.distance,
                                            score_cutoff=_max_edits(cand), limit=3):
            out.append(card_names[key])
    for w in typed:
        f = _fold(w)
        if len(f) < _MIN_WORD + 1:
            continue
        for word, dist, _ in process.extract(f, vocab, scorer=OSA.distance, score_cutoff=_max_edits(f), limit=3):
            if dist > 0:
                out.append(word)
    unique: dict[str, str] = {}
    for s in out:
        unique.setdefault(_fold(s), s)       # 'Moat' the card and 'moat' the word are one suggestion
    return list(unique.values())[:MAX_SUGGESTIONS]
