"""Which passages say again what a Complete Rules paragraph says (``Restatement``).

The BGG FAQ answers most general questions a second time, in older words, and chapters V (summaries) and VI
(common effects) of the Complete Rules sum up chapters I-IV. Search showed a rule and its restatements as
separate hits, so a question's first three places could hold one answer three times, and the older FAQ could
stand above the rule it repeats (issue #34: of the rules questions our held-out sets lost when only the
passage a writer read the answer in counts, every one had a Complete Rules paragraph as that passage and
restatements above it). Search now shows them as one hit, headed by chapters I-IV (``search.diversify``).

The links are found by the words two paragraphs share: each FAQ, chapter V or chapter VI paragraph goes
to the chapter I-IV paragraph nearest to it (cosine of idf-weighted word counts) when that is at least
``SAME_AT``. Neither side may be a bare cross-reference ("See CARD ABILITIES § III.") or a list of card
names ("Includes: Black Cat, Caravan Guard, ..."), which share words without saying a rule; a FAQ passage
the Complete Rules overrule (``faq_superseded``) is no restatement of the current rule. Checked by hand
(issue #34, 25 links drawn at random from 75): 19 say the same, 4 the same rule in part, 2 another rule
(two different examples of the lose-track rule; printings of 2020 against 2022), which is why a hit
names them "also in", never "says the same".
"""
from __future__ import annotations

import math
import re
from collections import Counter

from app.corpus.model import ParsedCorpus, Restatement

SAME_AT = 0.5
# Fewer different words than this say no rule of their own ("Basic Victory cards (Estate, Duchy, ...)").
MIN_WORDS = 8
# A paragraph whose words are at least this share of capitalised names is a list of cards.
LIST_SHARE = 0.5
ORIGINAL_CHAPTERS = frozenset({"I", "II", "III", "IV"})
RESTATING_CHAPTERS = {"V": "the Complete Rules § V", "VI": "the Complete Rules § VI"}
FAQ_SOURCE = "the BGG FAQ"
# The guide to the document's symbols ("$ = Coins") restates no rule.
_NOT_ORIGINAL = ("i-guide-to-this-document",)

_STOP = frozenset("the a an of to and or in on is are be it its this that you your for as with by if not can any "
                  "at from each one when then than have has do does but was were all into their they them he his "
                  "she her other which who what so may must only also".split())
_POINTER = re.compile(r"^\W*(also )?see\b", re.I)


def _words(text: str) -> Counter:
    """Content words, cut to six letters: "revealing" and "reveal" count as one."""
    return Counter(w[:6] for w in re.findall(r"[a-z]+", text.lower()) if w not in _STOP and len(w) > 1)


def _says_a_rule(text: str, words: Counter) -> bool:
    names = re.findall(r"[A-Za-z][A-Za-z']*", text)
    capitalised = sum(w[0].isupper() and not w.isupper() for w in names)   # "SEE CARD ABILITIES" is a reference
    return len(words) >= MIN_WORDS and not _POINTER.match(text) and capitalised < LIST_SHARE * len(names)


def link_restatements(parsed: ParsedCorpus) -> None:
    sections = {s.slug: s for s in parsed.sections}
    overruled = {f.faq for f in parsed.faq_superseded}
    bags = {p.key: _words(p.text) for p in parsed.paragraphs}
    df = Counter(w for bag in bags.values() for w in bag)
    n = len(bags)
    unit: dict[str, dict[str, float]] = {}
    for key, bag in bags.items():
        v = {w: (1 + math.log(c)) * math.log(n / df[w]) for w, c in bag.items()}
        norm = math.sqrt(sum(x * x for x in v.values())) or 1.0
        unit[key] = {w: x / norm for w, x in v.items()}

    originals: dict[str, list[str]] = {}          # word -> the chapter I-IV paragraphs holding it
    restating: list[tuple[str, str]] = []         # (paragraph key, where it is written)
    for p in parsed.paragraphs:
        s = sections.get(p.section)
        if s is None or not _says_a_rule(p.text, bags[p.key]):
            continue
        if s.doc == "rules" and s.chapter in ORIGINAL_CHAPTERS and not p.section.startswith(_NOT_ORIGINAL):
            for w in unit[p.key]:
                originals.setdefault(w, []).append(p.key)
        elif s.doc == "faq" and p.key not in overruled and p.section not in overruled:
            restating.append((p.key, FAQ_SOURCE))
        elif s.doc == "rules" and s.chapter in RESTATING_CHAPTERS:
            restating.append((p.key, RESTATING_CHAPTERS[s.chapter]))

    out = []
    for key, source in restating:
        score: dict[str, float] = {}
        for w, x in unit[key].items():
            for o in originals.get(w, ()):
                score[o] = score.get(o, 0.0) + x * unit[o][w]
        if score:
            best = max(score, key=lambda o: (score[o], o))
            if score[best] >= SAME_AT:
                out.append(Restatement(restating=key, original=best, source=source, score=round(score[best], 3)))
    parsed.restatements = out
