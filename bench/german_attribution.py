"""How well the German divider passages are attributed to their cards, and what is left without one.

    python3 bench/german_attribution.py            # figures
    python3 bench/german_attribution.py --list     # also list the passages and cards left over
    python3 bench/german_attribution.py --one-at-a-time   # also the check hiding one passage at a time

Parses the documents as ``rulings build`` does (``pipeline.parse_corpus``) and prints:

* **the page step against passages that name their card.** The passages the wording pass attributes
  by a label ("Bankett: ...") or by their card's name in the first sentence are the attributions to
  trust. Their cards are hidden, the page step (``german_pages.settle``) is run as if they had never
  been attributed, and what it gives them is compared with their own card: how many it assigns
  (coverage) and how many of those correctly (precision). Hiding them also hides the anchors the
  page layout is read from, so this is harder than the real run.
* **coverage, before and after the page step in the same run:** divider cards (that are Card
  Reference entries) without any passage, passages without a card, and of those the ones that are
  not a card's passage at all (page furniture, recommended kingdoms) or stand where no page names
  are (rules pages), the ones on a page whose cards all have a passage (most are a card's second
  paragraph) and the ones the page leaves open.
"""
from __future__ import annotations

import argparse
import copy
import sys
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.corpus import german_pages  # noqa: E402
from app.corpus.model import GermanPassage, slugify  # noqa: E402
from app.corpus.pipeline import parse_corpus  # noqa: E402


def _capture() -> dict:
    """Run the pipeline with ``german_pages.settle`` wrapped: its inputs (a copy of the passages as the
    wording pass left them) are kept for the hidden-attribution run."""
    seen: dict = {}
    original = german_pages.settle

    def settle(passages, layouts, cards, score, eligible, names_its_card):
        seen.update(before=copy.deepcopy(passages), layouts=layouts, cards=cards, score=score,
                    eligible=eligible, names_its_card=names_its_card)
        return original(passages, layouts, cards, score, eligible, names_its_card)

    german_pages.settle = settle
    try:
        seen["parsed"] = parse_corpus()
    finally:
        german_pages.settle = original
    return seen


class Hidden(NamedTuple):
    trusted: int       # passages that name their card
    reachable: int     # ... whose card is among their page's names and has no other passage
    assigned: int
    correct: int
    wrong: list[tuple[int, str, str]]   # (line, its card, the card given)


def hidden_check(seen: dict) -> Hidden:
    passages: list[GermanPassage] = copy.deepcopy(seen["before"])
    trusted = {i: p.card for i, p in enumerate(passages) if p.card and seen["names_its_card"](p)}
    for i in trusted:
        p = passages[i]
        p.card = p.english_name = p.confidence = None
    cands = _candidates(seen, passages)
    others = {p.card for p in passages if p.card}
    reachable = sum(1 for i, c in trusted.items() if c in cands.get(i, ()) and c not in others)
    german_pages.settle(passages, seen["layouts"], seen["cards"], seen["score"], seen["eligible"],
                        seen["names_its_card"])
    assigned = {i: passages[i].card for i in trusted if passages[i].card}
    wrong = [(passages[i].line, trusted[i], c) for i, c in assigned.items() if c != trusted[i]]
    return Hidden(len(trusted), reachable, len(assigned), len(assigned) - len(wrong), wrong)


def hidden_one_at_a_time(seen: dict) -> Hidden:
    """The same, hiding one trusted passage at a time (the others stay anchors, as in the real run,
    where a page has one or two open passages): mostly elimination."""
    before: list[GermanPassage] = seen["before"]
    trusted = [i for i, p in enumerate(before) if p.card and seen["names_its_card"](p)]
    reachable = assigned = correct = 0
    wrong = []
    for i in trusted:
        passages = copy.deepcopy(before)
        card = passages[i].card
        passages[i].card = passages[i].english_name = passages[i].confidence = None
        if card in _candidates(seen, passages).get(i, ()) and card not in {p.card for p in passages if p.card}:
            reachable += 1
        german_pages.settle(passages, seen["layouts"], seen["cards"], seen["score"], seen["eligible"],
                            seen["names_its_card"])
        if passages[i].card:
            assigned += 1
            if passages[i].card == card:
                correct += 1
            else:
                wrong.append((passages[i].line, card, passages[i].card))
    return Hidden(len(trusted), reachable, assigned, correct, wrong)


def _candidates(seen: dict, passages: list[GermanPassage]) -> dict[int, set[str]]:
    cands: dict[int, set[str]] = {}
    for tokens in seen["layouts"]:
        for i, names in german_pages.page_candidates(tokens, passages).items():
            cands.setdefault(i, set()).update(n for n in names if n in seen["cards"])
    return cands


def coverage(passages: list[GermanPassage], divider_cards: dict[str, str]) -> list[str]:
    have = {p.card for p in passages if p.card}
    return sorted(name for slug, name in divider_cards.items() if slug not in have)


def leftovers(seen: dict, passages: list[GermanPassage]) -> dict[str, list[GermanPassage]]:
    """Passages without a card, by why."""
    cands = _candidates(seen, passages)
    have = {p.card for p in passages if p.card}
    out: dict[str, list[GermanPassage]] = {
        "not a card's passage (page furniture, kingdom list, note)": [],
        "no page names next to it (rules pages, sets' end matter)": [],
        "its page's cards all have a passage": [],
        "left open on a page with a card without passage": []}
    keys = list(out)
    for i, p in enumerate(passages):
        if p.card:
            continue
        if not seen["eligible"](p):
            out[keys[0]].append(p)
        elif not cands.get(i):
            out[keys[1]].append(p)
        elif all(n in have for n in cands[i]):
            out[keys[2]].append(p)
        else:
            out[keys[3]].append(p)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--list", action="store_true", help="list the passages and cards left over")
    ap.add_argument("--one-at-a-time", action="store_true",
                    help="also hide the trusted passages one at a time (about half a minute)")
    args = ap.parse_args(argv)

    seen = _capture()
    parsed = seen["parsed"]
    after = parsed.german_passages
    before = seen["before"]
    divider_cards = {g.card: g.english for g in parsed.german_names if g.source == "dividers" and g.card}

    h = hidden_check(seen)
    print("page step on passages that name their card (attribution hidden):")
    print(f"  trusted passages {h.trusted}, of which {h.reachable} on a page that lists their card and with no "
          f"other passage of it; assigned {h.assigned} (coverage {h.assigned / h.trusted:.3f}, "
          f"{h.assigned / h.reachable:.3f} of those); correct {h.correct} "
          f"(precision {h.correct / h.assigned if h.assigned else 0:.3f})")
    for line, expected, given in h.wrong:
        print(f"  wrong: line {line}: {given} (its card: {expected})")
    if args.one_at_a_time:
        h = hidden_one_at_a_time(seen)
        print(f"  one at a time: reachable {h.reachable}; assigned {h.assigned} "
              f"({h.assigned / h.reachable:.3f} of those); correct {h.correct} "
              f"(precision {h.correct / h.assigned if h.assigned else 0:.3f})")
        for line, expected, given in h.wrong:
            print(f"  wrong: line {line}: {given} (its card: {expected})")

    print("coverage                         wording only   with the page step")
    print(f"  passages                       {len(before):12d}   {len(after):12d}")
    print(f"  passages without a card        {sum(p.card is None for p in before):12d}   "
          f"{sum(p.card is None for p in after):12d}")
    miss_before, miss_after = coverage(before, divider_cards), coverage(after, divider_cards)
    print(f"  divider cards without passage  {len(miss_before):12d}   {len(miss_after):12d}   "
          f"(of {len(divider_cards)})")
    settled = [(b, a) for b, a in zip(before, after) if a.card != b.card]
    print(f"  settled by the page step: {len(settled)} "
          f"({sum(1 for b, _ in settled if b.card is None)} had no card, "
          f"{sum(1 for b, _ in settled if b.card)} changed card)")
    groups = leftovers(seen, after)
    print("passages without a card, by why:")
    for why, items in groups.items():
        print(f"  {len(items):4d}  {why}")
    print("divider cards without a passage: " + ", ".join(miss_after))
    if args.list:
        for b, a in settled:
            print(f"  settled line {a.line}: {b.card or '-'} -> {a.card} ({a.confidence}) {a.text[:70]!r}")
        for why, items in groups.items():
            print(f"-- {why}")
            for p in items:
                print(f"  {p.line:6d} {p.set[:14]:14s} {p.text[:90]!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
