"""A question that names no version is about the current card (issue #34).

Some cards were changed (Band of Misfits in 2019, Trader in 2020, ...). The Card Reference keeps the old
text and its rulings under "previous versions", and those rulings often share more words with a
question than the current card's few: "BoM playing as a feast, does the bom get trashed" met the
pre-2019 ruling saying Feast trashes the Band of Misfits, while today's card leaves the Feast in the
Supply and trashes nothing. So, unless the question names a version ("pre-2019", "old", "first edition"):

* the named cards' current rulings are among the candidates, however few words they share;
* a previous version's document never ranks above a current document of its card: it moves to just
  below the last of them, and its hit says in words that it is a previous version.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TypeVar

T = TypeVar("T")

_NAMES_VERSION = re.compile(r"\b(?:pre[- ]?\d{4}|(?:19|20)\d\d|previous|old(?:er)?|original|earlier|"
                            r"first[- ]edition|1st[- ]edition|edition|errata|version)\b", re.I)


def names_version(text: str) -> bool:
    """Whether the question asks about a particular version of a card."""
    return _NAMES_VERSION.search(text) is not None


def previous_documents(keys: Sequence[str], versions: Iterable[str]) -> dict[int, str]:
    """Document number -> the previous version it belongs to (its entry or one of its rulings)."""
    slugs = set(versions)
    out = {}
    for d, key in enumerate(keys):
        slug = key.split("#", 1)[0]
        if slug in slugs:
            out[d] = slug
    return out


def current_first(ranked: list[T], previous: Mapping[int, str], owner: Mapping[int, str],
                  doc: Callable[[T], int]) -> list[T]:
    """Each previous-version document moved to just below the last current document of its card in
    ``ranked`` (kept in place when there is none); the order is otherwise unchanged."""
    if not previous:
        return ranked
    out = list(ranked)
    for item in [x for x in ranked if doc(x) in previous]:
        card = owner.get(doc(item))
        i = out.index(item)
        later = [j for j, x in enumerate(out) if j > i and owner.get(doc(x)) == card and doc(x) not in previous]
        if later:
            out.pop(i)
            out.insert(later[-1], item)     # shifted left by one: just below the last current document
    return out
