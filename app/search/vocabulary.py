"""The rules' own synonyms: chapter VIII index terms attached to the rule sections they point at.

The Complete Rules index says which page explains a term ("shuffle ... **19**") and which term is
another name for which ("Coin token : see *Coffers token*"). A player asks with the index's word
("reshuffle", "Coffers") while the section that answers may use another; so at build time each
index term is added to the words of the sections it points at, and a see-only term to the sections
of its target. Pages are coarse (every subsection of a section shares its page range), so among the
sections on a term's main pages the ones whose own words share most with the term (and its
definition) are chosen -- the page narrows, the words decide.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from app.corpus.text import plain

# Sections a term may point at (chapters are the whole chapter; german/faq are other documents).
_KINDS = {"section", "subsection", "timing", "common_effect"}
# A term with more printed pages than this and no bold page is a word used everywhere ("card").
_MAX_PAGES = 3
# Sections per term: the best few matches on its pages.
_PER_TERM = 2
_WORD = re.compile(r"[a-z]+")
_STOP = frozenset("a an the of or and to in on your you it its is are be for from with as by at that this "
                  "which when any one card cards".split())


def _words(text: str) -> set[str]:
    return {w[:5] for w in _WORD.findall(plain(text).lower()) if w not in _STOP and len(w) > 2}


def section_terms(sections: Iterable[dict], texts: dict[str, str], terms: Iterable[dict]) -> dict[str, list[str]]:
    """Section slug -> index terms (as printed) that point at it.

    ``sections`` are store rows (slug, doc, kind, title, page, page_end); ``texts`` each section's
    plain title and body; ``terms`` the store's ``index_terms`` rows.
    """
    rules = [s for s in sections if s.get("doc") == "rules" and s.get("kind") in _KINDS and s.get("page")]
    words = {s["slug"]: _words(texts.get(s["slug"], "")) for s in rules}
    title_words = {s["slug"]: _words(s.get("title") or "") for s in rules}
    by_term = {t["slug"]: t for t in terms}
    targets: dict[str, list[str]] = {}
    for t in by_term.values():
        targets[t["slug"]] = _pick(t, rules, words, title_words)
    out: dict[str, list[str]] = {}
    for t in by_term.values():
        picked = _resolve(t["slug"], by_term, targets)
        name = plain(t["term"]).strip()
        for slug in picked:
            out.setdefault(slug, [])
            if name not in out[slug]:
                out[slug].append(name)
    return out


# "Coin token : see Coffers token", "Coffers token : see spend Coffers token": chains are short.
_MAX_SEE_DEPTH = 3


def _resolve(slug: str, by_term: dict[str, dict], targets: dict[str, list[str]]) -> list[str]:
    """The term's own sections, then its see-targets' (followed through chains, cycles stopped)."""
    picked: list[str] = []
    seen: set[str] = set()
    todo = [(slug, 0)]
    while todo:
        cur, depth = todo.pop(0)
        if cur in seen:
            continue
        seen.add(cur)
        picked += [s for s in targets[cur] if s not in picked]
        if depth < _MAX_SEE_DEPTH:
            todo += [(_slug(see), depth + 1) for see in by_term[cur].get("see") or [] if _slug(see) in by_term]
    return picked


def _pick(term: dict, rules: list[dict], words: dict[str, set[str]], title_words: dict[str, set[str]]) -> list[str]:
    pages = term.get("main_pages") or []
    if not pages:
        pages = term.get("pages") or []
        if len(pages) > _MAX_PAGES:
            return []
    own = _words(term["term"])
    if not own:
        return []
    extra = _words(term.get("definition") or "")
    scored = []
    for s in rules:
        if not any(s["page"] <= p <= (s.get("page_end") or s["page"]) for p in pages):
            continue
        w = words[s["slug"]]
        hit = len(own & w)
        if not hit:
            continue
        score = 2 * len(own & title_words[s["slug"]]) + hit / len(own) + 0.1 * len(extra & w)
        scored.append((-score, s.get("ord", 0), s["slug"]))
    scored.sort()
    return [slug for _, _, slug in scored[:_PER_TERM]]


def _slug(text: str) -> str:
    from app.corpus.model import slugify
    return slugify(text)


_QUALIFIER = re.compile(r"\s*\((?:type|resource|card|card/type|noun|verb)\)")


def index_words(term: str) -> str:
    """An index term as words to search: "Action (type)" -> "Action" (the qualifier only tells entries apart)."""
    return _QUALIFIER.sub("", term).strip()
