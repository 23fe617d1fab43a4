"""Where the sources disagree about a card, said beside the ruling that wins (issue #33).

Three kinds, each in a player's words:

* ``faq``: a BGG FAQ clarification the Complete Rules now rule differently (``faq-superseded.csv``);
* ``german``: a German divider written for the first printing of a card that has changed since
  (the card has a previous version in the Complete Rules);
* ``card text``: the dominion-setup package's card text against the Complete Rules
  (``corpus/data/disagreements.csv``, one row per case, read by a person).

The Complete Rules win every time; ``winner`` is the key of their ruling.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from app.corpus.model import ParsedCorpus
from app.corpus.sources import CorpusError, read_csv_table, text_cell

TABLE = "data/disagreements.csv"
HEADER = ["card", "winner", "source", "note"]


@dataclass
class Disagreement:
    card: str          # Card Reference slug
    kind: str          # 'faq' | 'german' | 'card text'
    other: str         # key of the passage that loses ('dominion-setup' for the package's card text)
    winner: str        # key of the Complete Rules ruling (or note) that wins
    note: str          # one line a player understands
    line: int          # line of the table or document it comes from

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.card}:{self.other}"


def collect_disagreements(parsed: ParsedCorpus, corpus: Path) -> None:
    rulings = {r.key: r for r in parsed.rulings}
    names = {c.slug: c.name for c in parsed.cards}
    out: list[Disagreement] = []
    path = corpus / TABLE
    if path.exists():
        for line, cells in read_csv_table(path, HEADER, 50_000):
            card, winner, source, note = (cells + ["", "", "", ""])[:4]
            if card not in names:
                raise CorpusError(path, line, f"card: no Card Reference entry {card!r}")
            if winner not in rulings:
                raise CorpusError(path, line, f"winner: no ruling {winner!r}")
            out.append(Disagreement(card, "card text", source, winner, text_cell(path, line, note, "note", 10, 400), line))
    faq = {f.key: f for f in parsed.faq_clarifications}
    for s in parsed.faq_superseded:
        card_rulings = [b for b in s.by if b in rulings]
        clar = faq.get(s.faq)
        card = clar.card if clar is not None else None
        card = card or (rulings[card_rulings[0]].card if card_rulings else None)
        if not card:
            continue
        winner = next((b for b in card_rulings if rulings[b].card == card), card_rulings[0] if card_rulings else "")
        if not winner:
            continue
        out.append(Disagreement(card, "faq", s.faq, winner, f"The BGG FAQ rules this differently; the Complete Rules win. {s.note}", s.line))
    changed: dict[str, list[str]] = {}
    for v in parsed.previous_versions:
        changed.setdefault(v.card, []).append(v.title.lower())
    first = {}
    for r in parsed.rulings:
        first.setdefault(r.card, r.key)
    for g in parsed.german_passages:
        if g.card in changed and g.card in first:
            out.append(Disagreement(
                g.card, "german", g.key, first[g.card],
                f"The German divider describes {names.get(g.card, g.card)} as first printed; the card has changed since "
                f"(see the {', '.join(changed[g.card])}), and the current card and the Complete Rules apply.", g.line))
    parsed.disagreements = out
