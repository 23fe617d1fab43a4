"""Attribute the German divider passages that name no card, by the page they are printed on.

Each sheet of the dividers prints its passages and, next to them, the names of
its cards with their costs ("Bazar5"), in a grid order that is not the order
of the passages. So a page says *which* cards its passages explain, but not
which passage is which card's. What settles a passage the wording pass
(``german_parser._Attributor``) left without a card:

1. **The page.** The text is a sequence of passage runs and name blocks. A
   name block sits between the run before it and the run after it; which of
   its names belong to which run is read from the passages already attributed
   (a cut through the block that puts every attributed name on its passage's
   side). Where the anchors allow more than one cut, a name is a candidate of
   both runs. Page footers ("Seite D5") end a page. Both copies of the text
   are read and their candidates pooled, because each copy lost different
   name lines to extraction.
2. **Elimination and content.** Among a page's passages without a card and its
   names without a passage, a pair is settled when the passage's content
   (``score``: its wording against the card's German explanation, and its
   amounts and named cards against the card's English text) picks that card
   over every other open name, that card picks that passage over every other
   open passage, and no card of the page that already has its passage explains
   the passage better (it may be that card's second paragraph). With one
   passage and one name left this is elimination, but the content must still
   point at the card.

A passage the page does not settle keeps ``card=None``: a wrong card is worse
than none. Settled passages get a lower ``confidence`` than passages that name
their card (``ELIMINATED``, ``MATCHED``).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from app.corpus.model import GermanPassage

# A layout token: ("names", [card slugs of one name line]), ("passage", passage index) or ("break", None).
Token = tuple[str, object]

ELIMINATED = 0.45      # the only open passage and the only open name of its page
MATCHED = 0.4          # chosen by content among several open names of the page
MIN_EVIDENCE = 0.12    # content score a settled passage must reach for its card
MARGIN = 0.08          # ... and by which it must beat the other open names and passages
SLACK = 0.05           # an attributed card of the page may score this much higher before it wins the passage


@dataclass
class CardName:
    german: str
    english: str


def _segments(tokens: Iterable[Token]) -> list[tuple[str, list]]:
    """Runs of passages, blocks of names (consecutive name lines) and breaks, in order."""
    segs: list[tuple[str, list]] = []
    for kind, value in tokens:
        if kind == "break":
            if segs and segs[-1][0] != "break":
                segs.append(("break", []))
            continue
        seg_kind = "run" if kind == "passage" else "block"
        items = [value] if kind == "passage" else list(value)
        if segs and segs[-1][0] == seg_kind:
            segs[-1][1].extend(items)
        else:
            segs.append((seg_kind, items))
    return segs


def page_candidates(tokens: Iterable[Token], passages: list[GermanPassage]) -> dict[int, set[str]]:
    """Passage index -> card slugs whose names may be printed on its page (one copy of the text)."""
    segs = _segments(tokens)
    out: dict[int, set[str]] = {}
    for j, (kind, names) in enumerate(segs):
        if kind != "block" or not names:
            continue
        prev = segs[j - 1][1] if j > 0 and segs[j - 1][0] == "run" else None
        nxt = segs[j + 1][1] if j + 1 < len(segs) and segs[j + 1][0] == "run" else None
        if prev is None and nxt is None:
            continue
        left_cards = {passages[i].card for i in prev or [] if passages[i].card}
        right_cards = {passages[i].card for i in nxt or [] if passages[i].card}
        cuts = range(len(names) + 1)
        if prev is None:
            cuts = range(0, 1)
        elif nxt is None:
            cuts = range(len(names), len(names) + 1)

        def violations(c: int) -> int:
            # names[:c] are the previous run's, names[c:] the next run's
            return (sum(1 for n in names[c:] if n in left_cards and n not in right_cards)
                    + sum(1 for n in names[:c] if n in right_cards and n not in left_cards))

        best = min(violations(c) for c in cuts)
        for c in (c for c in cuts if violations(c) == best):
            for i in prev or []:
                out.setdefault(i, set()).update(names[:c])
            for i in nxt or []:
                out.setdefault(i, set()).update(names[c:])
    return out


def settle(passages: list[GermanPassage], layouts: list[list[Token]], cards: dict[str, CardName],
           score: Callable[[GermanPassage, str], float], eligible: Callable[[GermanPassage], bool],
           names_its_card: Callable[[GermanPassage], bool]) -> int:
    """Give open passages their page's open cards where the page settles it; returns how many were settled.

    A passage the wording pass gave to a card that is not on its page, when the
    passage does not name that card, is open too: if its page settles it, the
    page's card replaces the other (a Harem passage read as Great Hall's, whose
    wording it shares); if not, it keeps its card.
    """
    cache: dict[tuple[int, str], float] = {}

    def s(i: int, slug: str) -> float:
        if (i, slug) not in cache:
            cache[(i, slug)] = score(passages[i], slug)
        return cache[(i, slug)]

    settled = 0
    while True:
        # Read the pages again after each settled passage: it is one more anchor for the cuts.
        cands: dict[int, set[str]] = {}
        for tokens in layouts:
            for i, names in page_candidates(tokens, passages).items():
                cands.setdefault(i, set()).update(n for n in names if n in cards)
        explained = {p.card for p in passages if p.card}
        open_passages = {i for i, p in enumerate(passages)
                         if cands.get(i) and eligible(p)
                         and (p.card is None or (p.card not in cands[i] and not names_its_card(p)))}
        open_names = {n for i in open_passages for n in cands[i] if n not in explained}
        best = _best_pair(open_passages, open_names, cands, explained, s)
        if best is None:
            return settled
        i, slug, confidence = best
        card = cards[slug]
        p = passages[i]
        p.card, p.english_name, p.german_name, p.confidence = slug, card.english, card.german, confidence
        settled += 1


def _best_pair(open_passages: set[int], open_names: set[str], cands: dict[int, set[str]], explained: set[str],
               s: Callable[[int, str], float]) -> tuple[int, str, float] | None:
    """The open passage and open name that pick each other most clearly, with the confidence to give."""
    best: tuple[float, int, str, float] | None = None
    for i in open_passages:
        mine = [n for n in cands[i] if n in open_names]
        if not mine:
            continue
        ranked = sorted(mine, key=lambda n: (-s(i, n), n))
        slug, top = ranked[0], s(i, ranked[0])
        if top < MIN_EVIDENCE:
            continue
        if len(ranked) > 1 and top - s(i, ranked[1]) < MARGIN:
            continue
        rivals = [s(k, slug) for k in open_passages if k != i and slug in cands[k]]
        if rivals and top - max(rivals) < MARGIN:
            continue
        done = [n for n in cands[i] if n in explained]
        if done and max(s(i, n) for n in done) > top + SLACK:
            continue   # more likely a further paragraph of a card that has its passage
        confidence = ELIMINATED if len(ranked) == 1 and not rivals else MATCHED
        if best is None or (top, -i) > (best[0], -best[1]):
            best = (top, i, slug, confidence)
    return None if best is None else best[1:]


# ---------------------------------------------------------------------------
# Content: amounts and named cards, German passage against English card text
# ---------------------------------------------------------------------------

_NUMBER = {"ein": 1, "eine": 1, "einen": 1, "einer": 1, "zwei": 2, "drei": 3, "vier": 4, "fünf": 5}
_N = r"(\d+|eine[nr]?|ein|zwei|drei|vier|fünf)"
_DE_AMOUNTS = {
    "cards": re.compile(r"\+\s*" + _N + r"\s+Karten?\b|" + _N + r"\s+(?:weitere\s+|zusätzliche\s+)?Karten?\s+(?:\w+\s+){0,2}?(?:nach\b|nachziehen|ziehen)", re.I),
    "actions": re.compile(r"\+?\s*" + _N + r"\s+(?:weitere|zusätzliche)?\s*Aktion(?:en)?\b", re.I),
    "buys": re.compile(r"\+?\s*" + _N + r"\s+(?:weiteren|zusätzlichen)?\s*Kauf\b", re.I),
    "coins": re.compile(r"\+\s*(\d+)\s+(?:virtuelles\s+)?Geld\b|(\d+)\s+(?:virtuelles|zusätzliches)\s+Geld\b", re.I),
    "worth": re.compile(r"\bWert\s+(?:von\s+)?(\d+)\s+Geld\b"),     # a Treasure's value
}
_EN_AMOUNTS = {
    "cards": re.compile(r"\+(\d+) Cards?\b"),
    "actions": re.compile(r"\+(\d+) Actions?\b"),
    "buys": re.compile(r"\+(\d+) Buys?\b"),
    "coins": re.compile(r"\+\$(\d+)\b"),
    "worth": re.compile(r"^\$(\d+)$", re.M),
}


def _amounts(text: str, patterns: dict[str, re.Pattern[str]]) -> dict[str, set[int]]:
    out: dict[str, set[int]] = {}
    for kind, pattern in patterns.items():
        for m in pattern.finditer(text):
            word = next(g for g in m.groups() if g)
            value = int(word) if word.isdigit() else _NUMBER.get(word.lower())
            if value is not None:
                out.setdefault(kind, set()).add(value)
    return out


def fact_score(german_text: str, english_text: str, named_german: list[str]) -> float:
    """How well a German passage fits a card's English text: each amount (+Cards, +Actions, +Buy, +$)
    the two agree on counts 1, one they disagree on -1, an amount only the passage states -0.5;
    each card the English text names (``named_german``: their German names) found in the passage 0.5."""
    de, en = _amounts(german_text, _DE_AMOUNTS), _amounts(english_text, _EN_AMOUNTS)
    total = 0.0
    for kind, values in de.items():
        if kind not in en:
            total -= 0.5
        elif values & en[kind]:
            total += 1
        else:
            total -= 1
    low = german_text.lower()
    for name in named_german:
        stem = name.lower()[: max(4, len(name) - 2)] if len(name) > 5 else name.lower()
        if stem and stem in low:
            total += 0.5
    return total
