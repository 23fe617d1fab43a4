"""What a player sees in the first few lines: one slot per section, and every named card's own entry.

Two things made the top of a result list worse than its scores suggest:

* A rules section and each of its paragraphs are separate documents, so one
  section could take three or four of the first slots ("Burggraben gegen Hexe"
  gave "Resolving Reactions and timing" four times before Moat). Hits are
  collapsed to one slot per section, shown by its best-matching paragraph (the
  precise text and anchor); the others stay reachable from that slot
  (``Slot.more``) and from the section page its group links to. The one
  exception: when the ranking puts two paragraphs of one section among its
  first three, both are shown (``SECOND_PARAGRAPH_WITHIN``).
* A question naming cards could fill the top with rule text and never show the
  cards' own entries. Each recognised card gets its best own document (Card
  Reference entry, ruling, FAQ clarification, German passage) into the first
  ``len(cards) + 2`` slots, placed after what is already there rather than
  above it, so the answer naming every card stays first.

Two things came later (issue #34). A German question naming a card is answered by the card's English
ruling with its German passage right under it (``english_ruling_then_german``). And the BGG FAQ and
chapters V-VI restate chapter I-IV paragraphs, so a rule with two restatements could fill the first three
slots: for a question naming no card they share one slot headed by the rule (``group_restatements``; the
links are made at build, ``app.corpus.restatements``).

Everything here works on document numbers and the store keys held in
``Postings``, so no stored field is read for hits that are not shown.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

_PARAGRAPH = re.compile(r"^(.+)#p\d+$")
# A second paragraph of a section that already has a slot gets a slot of its own when it is among the
# ranking's first this many documents: the ranking cannot tell which of the two says the answer (a
# section's paragraphs share its heading and words). Of the table hold-out's 161 rules-paragraph
# questions that missed the first three, 38 had another paragraph of the answer's section there.
# Measured (bench/table_holdout.py --rows, seeds 20261124 / 7 / 99, recall@3 / MRR): one slot per
# section 0.756/0.642, 0.731/0.633, 0.766/0.659; within 3: 0.760/0.645, 0.748/0.641, 0.771/0.660
# (within 2 or 5, or "while fewer than three slots are filled": no better); passages held out
# 0.629 -> 0.635 and 0.656 -> 0.665; 5-fold CV recall@3 0.937 -> 0.941. Recall@1 is unchanged: the
# first slot is the same.
SECOND_PARAGRAPH_WITHIN = 3


@dataclass
class Slot:
    """One shown result: the document that represents it and the collapsed ones behind it."""

    score: float
    docnum: int
    more: list[int] = field(default_factory=list)   # other documents of the same section, best first
    restated: list[int] = field(default_factory=list)   # FAQ / § V / § VI passages restating the shown one


def section_of(key: str) -> str:
    """The collapse key: a paragraph ('<section>#pN') belongs to its section; anything else is its own."""
    m = _PARAGRAPH.match(key)
    return m.group(1) if m else key


def is_paragraph(key: str) -> bool:
    return _PARAGRAPH.match(key) is not None


def collapse(ranked: Sequence[tuple[float, int]], keys: Sequence[str],
             tier: Callable[[int], int] | None = None,
             second_within: int = SECOND_PARAGRAPH_WITHIN) -> list[Slot]:
    """One slot per section, in the order of each section's first (best-ranked) hit; a second slot
    for a section's second paragraph when both are among the first ``second_within`` of ``ranked``.

    The slot shows the section's best-ranked paragraph when one is among the hits (a section
    document's body is all its paragraphs, so it scores high but says less precisely where);
    a section whose paragraphs did not match is shown by the section document itself.
    ``tier`` is the ranking's first criterion (how many of the named cards a document names):
    a paragraph only stands for its section when it is in the same tier, so a section that
    names both cards across two paragraphs is not shown by one naming only one of them.
    """
    slots: dict[str, Slot] = {}
    for i, (score, d) in enumerate(ranked):
        group = section_of(keys[d])
        slot = slots.get(group)
        if slot is None:
            slots[group] = Slot(score, d)
            continue
        second = f"{group} (second)"
        if i < second_within and second not in slots and is_paragraph(keys[d]) and is_paragraph(keys[slot.docnum]):
            slots[second] = Slot(score, d)
            continue
        if (not is_paragraph(keys[slot.docnum]) and is_paragraph(keys[d])
                and (tier is None or tier(d) >= tier(slot.docnum))):
            slot.more.insert(0, slot.docnum)      # the section document steps behind its paragraph
            slot.docnum = d
        else:
            slot.more.append(d)
    return list(slots.values())


def below_own_section(ranked: Sequence[tuple[float, int]], keys: Sequence[str],
                      unmatched: frozenset[int] | set[int]) -> list[tuple[float, int]]:
    """``ranked`` without the paragraphs of ``unmatched`` (fetched for their meaning, not their words:
    ``query.candidates``) that rank below their own section's document.

    ``collapse`` lets a candidate paragraph stand for its section because BM25 fetched it for the
    question's words; one fetched by the embedding may not hold them. When the ranking still puts its
    section above it, the section is shown by its best-matching paragraph (``show_paragraphs``), as it
    was before such paragraphs were fetched: "does revealing moat count as playing it" is not shown
    Reaction to Attack's list of Reaction cards because the list names Moat.
    """
    if not unmatched:
        return list(ranked)
    seen: set[str] = set()
    out = []
    for sd in ranked:
        key = keys[sd[1]]
        if sd[1] in unmatched and is_paragraph(key) and section_of(key) in seen:
            continue
        seen.add(key)
        out.append(sd)
    return out


def paragraphs_of(keys: Sequence[str]) -> dict[int, tuple[int, ...]]:
    """Section document -> the documents of its paragraphs ('<section>#pN'), in document order."""
    by_key = {k: d for d, k in enumerate(keys)}
    out: dict[int, list[int]] = {}
    for d, k in enumerate(keys):
        m = _PARAGRAPH.match(k)
        if m and m.group(1) in by_key:
            out.setdefault(by_key[m.group(1)], []).append(d)
    return {s: tuple(ps) for s, ps in out.items()}


def show_paragraphs(slots: list[Slot], paragraphs: Mapping[int, Sequence[int]],
                    score: Callable[[Sequence[int]], Mapping[int, float]],
                    tier: Callable[[int], int] | None = None, shown: int | None = None) -> list[Slot]:
    """A section that is shown by itself is shown by its paragraph that best matches the query.

    ``collapse`` can only pick a paragraph that was among the candidates; a section often wins on
    its whole body (its heading, index terms and paragraphs' words together) while the paragraph
    that says the answer was not. The section document's link opens the whole section at its top
    and its snippet may come from anywhere in it; the paragraph's is the sentence, with its anchor.
    ``score`` gives paragraphs' scores on the question's own words: one holding none of them never
    stands for its section (the section may have matched on its heading alone), and with ``tier``
    (two named cards) neither does one naming fewer of them than its section (as in ``collapse``).
    Only the first ``shown`` slots are looked at: the others are never shown, and scoring costs time.
    """
    for slot in slots[:shown]:
        own = paragraphs.get(slot.docnum)
        if not own or any(d in own for d in slot.more):
            continue
        scores = score(own)
        best = max(own, key=lambda d: (scores.get(d, 0.0), -d))
        if scores.get(best, 0.0) <= 0.0 or (tier is not None and tier(best) < tier(slot.docnum)):
            continue
        slot.more.insert(0, slot.docnum)
        slot.docnum = best
    return slots


def ensure_own_entries(slots: list[Slot], slugs: Sequence[str], owner: Mapping[int, str],
                       card_doc: Mapping[str, int], limit: int) -> list[Slot]:
    """Each card in ``slugs`` gets one of its own documents within the first ``len(slugs) + 2`` slots.

    ``owner`` maps a card-bound document to its card; ``card_doc`` a card slug to its Card
    Reference document. The card's best-ranked own hit is moved up; without one, the card's
    entry is placed (scored as the slot it follows, since BM25 never ranked it). Room is made
    by moving the window's lowest slot just below it, never the only own entry of another
    named card, so the first slots (the answer naming every card) keep their places.
    """
    window = min(limit, len(slugs) + 1)
    head, tail = list(slots[:window]), list(slots[window:])
    named = set(slugs)
    for slug in slugs:
        if any(owner.get(s.docnum) == slug for s in head):
            continue
        found = next((i for i, s in enumerate(tail) if owner.get(s.docnum) == slug), None)
        if found is not None:
            slot = tail.pop(found)
        elif slug in card_doc:
            slot = Slot(head[-1].score if head else 0.0, card_doc[slug])
        else:
            continue
        if len(head) >= window:
            for i in range(len(head) - 1, -1, -1):
                o = owner.get(head[i].docnum)
                if o in named and sum(owner.get(s.docnum) == o for s in head) == 1:
                    continue        # the only own entry of another named card stays
                tail.insert(0, head.pop(i))
                break
            else:
                tail.insert(0, slot)    # every slot is some card's only entry: nothing to give up
                continue
        head.append(slot)
    return head + tail



def merge_card_entries(slots: list[Slot], slugs: Sequence[str], owner: Mapping[int, str],
                       card_doc: Mapping[str, int]) -> list[Slot]:
    """For a question about a card (its name plus other words), its Card Reference entry and its
    best own hit share one slot, shown by the hit.

    The entry's text, cost and first rulings are shown with the card's first hit anyway (the
    "facts" box), so a separate entry slot repeats them and pushes the next answer down. The
    slot takes the better of the two places; the entry stays in the slot's ``more``.
    """
    out = list(slots)
    for slug in slugs:
        entry = card_doc.get(slug)
        at_entry = next((i for i, s in enumerate(out) if s.docnum == entry), None)
        at_own = next((i for i, s in enumerate(out) if owner.get(s.docnum) == slug and s.docnum != entry), None)
        if at_entry is None or at_own is None:
            continue
        own, card = out[at_own], out[at_entry]
        merged = Slot(max(own.score, card.score), own.docnum, [entry, *card.more, *own.more])
        first = min(at_entry, at_own)
        out = [s for i, s in enumerate(out) if i not in (at_entry, at_own)]
        out.insert(first, merged)
    return out


def one_german_slot(slots: list[Slot], kinds: Sequence[str], owner: Mapping[int, str]) -> list[Slot]:
    """A card's German divider text is split into passages that all read "Burggraben (Moat)": shown as two
    hits they look like the same passage twice. The card's best German passage keeps its slot; the others
    go behind it (``Slot.more``)."""
    out: list[Slot] = []
    first: dict[str, Slot] = {}
    for slot in slots:
        d = slot.docnum
        card = owner.get(d) if d < len(kinds) and kinds[d] == "German" else None
        if card is None:
            out.append(slot)
        elif card in first:
            first[card].more += [d, *slot.more]
        else:
            first[card] = slot
            out.append(slot)
    return out


# A Card Reference note: "Not included in the 2016 Second Edition.", "Also see Cultist 3." It never answers
# a question on its own.
_NOTE = re.compile(r"#n\d+$")


def english_ruling_then_german(slots: list[Slot], kinds: Sequence[str], owner: Mapping[int, str],
                               keys: Sequence[str], named: Sequence[str], card_doc: Mapping[str, int]) -> list[Slot]:
    """For a German question naming a card: the card's best English document (its ruling, entry or FAQ
    answer; never a note) and then its German passage, at the better of their two places.

    The Complete Rules win (issue #34: "A German question gets the German passage and the English ruling it
    translates, each once"): the answer is the ruling, and the German divider passage, which explains the
    whole card, stands right under it in the player's language. A lone named card whose only English
    document is its entry, folded into the German passage's slot (``merge_card_entries``), is answered by the
    entry; with several named cards the entry stays folded, so no card's entry comes before the text about
    them all ("Burggraben gegen Hexe"). A card without an English document in the list keeps its German
    passage where it is."""
    out = list(slots)
    for card in named:
        german = next((i for i, s in enumerate(out) if kinds[s.docnum] == "German" and owner.get(s.docnum) == card),
                      None)
        english = next((i for i, s in enumerate(out) if kinds[s.docnum] != "German" and owner.get(s.docnum) == card
                        and not _NOTE.search(keys[s.docnum])), None)
        if german is not None and english is None and len(named) == 1 and card_doc.get(card) in out[german].more:
            entry, g = card_doc[card], out[german]
            out[german:german + 1] = [Slot(g.score, entry), Slot(g.score, g.docnum, [d for d in g.more if d != entry])]
            continue
        if german is None or english is None:
            continue
        pair = [out[english], out[german]]
        at = min(german, english)
        out = [s for i, s in enumerate(out) if i not in (german, english)]
        out[at:at] = pair
    return out


def group_restatements(slots: list[Slot], original: Mapping[int, int]) -> list[Slot]:
    """A restating passage (``original``: a FAQ answer, chapter V summary or chapter VI common effect -> the
    chapter I-IV paragraph it restates, ``app.corpus.restatements``) shares one slot with that paragraph,
    at the better of their two places, headed by the paragraph: the Complete Rules win, and the next
    different answer moves up into the place the repetition took. The paragraph heads the slot even when
    search did not rank it (a question in the FAQ's words finds the FAQ), and leaves any later slot it was
    folded into. The restating passage is listed in ``Slot.restated``; its own folded siblings go."""
    out: list[Slot] = []
    at: dict[int, int] = {}         # document -> the slot of ``out`` showing it
    for slot in slots:
        head = original.get(slot.docnum)
        if head is not None:
            if head in at:
                out[at[head]].restated.append(slot.docnum)
                at[slot.docnum] = at[head]
                continue
            slot = Slot(slot.score, head, [], [slot.docnum])
        elif slot.docnum in at:                  # the paragraph already heads a slot a restatement opened
            i = at[slot.docnum]
            out[i].more += [d for d in slot.more if d not in at]
            at.update((d, i) for d in slot.more if d not in at)
            continue
        else:
            slot = Slot(slot.score, slot.docnum, [d for d in slot.more if d not in at], list(slot.restated))
        i = len(out)
        at.update((d, i) for d in (slot.docnum, *slot.more, *slot.restated) if d not in at)
        out.append(slot)
    return out
