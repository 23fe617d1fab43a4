"""Card rulings that are only a pointer ("See PLAY A CARD MULTIPLE TIMES") lead to their target.

Throne Room's first ruling is "See PLAY A CARD MULTIPLE TIMES": for a question about
Throne Room that ruling ranks high on the card name alone, yet the words that answer
are in the section it points at, which shares none of the card's name. The parser has
already resolved every reference (store table ``refs``: source key -> target key), so
here a pure-pointer ruling of a named card pulls its resolved target up to just below
itself in the ranking. A ruling that says something besides the pointer answers on
its own and is left alone.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from app.corpus.text import plain
from app.store.db import Store

# "See X.", "See X (first trash, then gain).": nothing but the pointer. Longer text says more.
_POINTER = re.compile(r"^\s*(?:also\s+)?see\b", re.I)
_MAX_POINTER_CHARS = 90
_TARGET_KEY = {"section": "{}", "paragraph": "{}", "ruling": "{}", "card": "{}", "index_term": "index:{}"}


def pointer_targets(store: Store, docnum: Mapping[str, int]) -> dict[int, tuple[int, ...]]:
    """Document number of each pure-pointer ruling -> document numbers of its resolved targets."""
    if not (store.has_table("rulings") and store.has_table("refs")):
        return {}
    rows = store.rows(
        "select r.key as source, f.target_type as type, f.target_key as target, r.text as text "
        "from rulings r join refs f on f.source_key = r.key "
        "where f.resolved = 1 and f.target_key is not null order by r.key, f.line")
    out: dict[int, list[int]] = {}
    for r in rows:
        text = plain(r["text"] or "").strip()
        if not _POINTER.match(text) or len(text) > _MAX_POINTER_CHARS or r["type"] not in _TARGET_KEY:
            continue
        src = docnum.get(r["source"])
        dst = docnum.get(_TARGET_KEY[r["type"]].format(r["target"]))
        if src is None or dst is None or dst == src:
            continue
        if dst not in out.setdefault(src, []):
            out[src].append(dst)
    return {k: tuple(v) for k, v in out.items()}


def follow_pointers(ranked: Sequence[tuple[float, int]], targets: Mapping[int, tuple[int, ...]],
                    owner: Mapping[int, str], slugs: Sequence[str], depth: int = 10) -> list[tuple[float, int]]:
    """Place the targets of the named cards' pointer rulings (among the first ``depth`` hits) right
    after the pointer, at its score; a target already ranked above stays where it is."""
    named = set(slugs)
    if not named or not targets:
        return list(ranked)
    out = list(ranked)
    i = 0
    while i < min(depth, len(out)):
        score, d = out[i]
        for t in targets.get(d, ()) if owner.get(d) in named else ():
            at = next((j for j, (_, x) in enumerate(out) if x == t), None)
            if at is not None and at <= i:
                continue
            if at is not None:
                out.pop(at)
            i += 1
            out.insert(i, (score, t))
        i += 1
    return out
