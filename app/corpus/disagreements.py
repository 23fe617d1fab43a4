"""Where the sources disagree about a card, said beside the ruling that wins (issue #33).

Four kinds, each in a player's words:

* ``faq``: a BGG FAQ clarification the Complete Rules now rule differently (``faq-superseded.csv``);
* ``german``: a German divider written for the first printing of a card that has changed since, where
  the divider's own words say the old rule and the card's current text (dominion-setup) says the new
  one (``corpus/data/german-first-edition.csv``: both quoted verbatim, checked at build);
* ``card text``: the dominion-setup package's card text against the Complete Rules
  (``corpus/data/disagreements.csv``, one row per case, read by a person);
* ``rules``: the Complete Rules against themselves, where a later note says an older ruling no longer holds
  (Band of Misfits (pre-2019) 8 against Overlord 1): the same table, with the losing ruling's key as ``source``.

The Complete Rules win every time; ``winner`` is the key of their ruling.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from app.corpus.model import ParsedCorpus
from app.corpus.sources import CorpusError, read_csv_table, text_cell

TABLE = "data/disagreements.csv"
HEADER = ["card", "winner", "source", "note"]
GERMAN_TABLE = "data/german-first-edition.csv"
GERMAN_HEADER = ["card", "german", "means", "current"]


@dataclass
class Disagreement:
    card: str          # Card Reference slug
    kind: str          # 'faq' | 'german' | 'card text' | 'rules'
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
            kind = "rules" if source in rulings else "card text"
            out.append(Disagreement(card, kind, source, winner, text_cell(path, line, note, "note", 10, 400), line))
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
    out += _german_first_edition(parsed, corpus, names)
    parsed.disagreements = out


def _german_first_edition(parsed: ParsedCorpus, corpus: Path, names: dict[str, str]) -> list[Disagreement]:
    """A German divider against the current card: the divider's words and the card's words, both quoted.

    Each row of the table quotes the divider (found in a German passage about that card) and the card's
    current text (found in dominion-setup's text for it); a quote that is not there fails the build, so a
    note never claims what the documents do not say. The card has changed since its first printing
    (a previous version in the Complete Rules), and the current card wins.
    """
    from app.corpus.card_facts import load_facts

    path = corpus / GERMAN_TABLE
    if not path.exists():
        return []
    facts = load_facts()
    first: dict[str, str] = {}
    for r in parsed.rulings:
        first.setdefault(r.card, r.key)
    changed = {v.card for v in parsed.previous_versions}
    out = []
    for line, cells in read_csv_table(path, GERMAN_HEADER, 50_000):
        card, german, means, current = (cells + ["", "", "", ""])[:4]
        if card not in names or card not in first:
            raise CorpusError(path, line, f"card: no Card Reference entry with rulings {card!r}")
        if card not in changed:
            raise CorpusError(path, line, f"card: {card!r} has no previous version in the Complete Rules")
        passages = [g for g in parsed.german_passages if g.card == card and _plain(german) in _plain(g.text)]
        if not passages:
            raise CorpusError(path, line, f"german: no German passage about {card!r} says {german!r}")
        text = facts[card].text if card in facts else ""
        if not current or _plain(current) not in _plain(text):
            raise CorpusError(path, line, f"current: {names[card]}'s card text does not say {current!r}")
        means = text_cell(path, line, means, "means", 10, 300)
        for g in passages:
            out.append(Disagreement(
                card, "german", g.key, first[card],
                f"The German divider describes {names[card]} as first printed: “{german}” ({means}). "
                f"The card now says “{current.rstrip('.')}”; the current card and the Complete Rules apply.", g.line))
    return out


def _plain(text: str) -> str:
    return " ".join(text.split())
