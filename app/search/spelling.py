"""Ordinary words typed wrong ("discrad", "oponent", "reshufle") read as the word meant.

Card names typed wrong are caught by the name index (names.py). Every other word used to be
searched as typed: "atack on my oponent" found nothing, "can I reshufle my discrad pile" found
piles in general. A word is corrected when it is neither a word of the corpus nor of players'
questions, and one such word is within one edit (two from ten letters). A word of four letters is
read only as the one common word a letter away ("emty" is "empty"; "tken", token or taken, is left
alone). The nearest wins, then a slip of the fingers over another letter, then the most used.
A card's one-word name is never the correction (the name index reads those, with its own care for
near ties), nor are short stop words ("withc" is Witch, not "with") or German words. The words of
longer names are: "treasure" is a word of the rules as well as of Treasure Map, and without it
"terasure" was read as the card Treasurer.
"""
from __future__ import annotations

from dataclasses import dataclass

from rapidfuzz import process
from rapidfuzz.distance import OSA

from app.search.names import MAX_QUERY_WORDS, NameIndex, Recognized, tokenize

# How often a word must be used (lower case in the corpus, or in players' questions) to be offered.
_MIN_USES = 3
# Unknown words looked up per question (each is a pass over the vocabulary): a question has a typo or
# two; a query of fifty made-up words is not a question, and is searched as typed.
MAX_LOOKUPS = 8
# A word used this often wins over a card name guessed at the same distance.
_COMMON = 20
# A word of this length is corrected only to the one word a single edit away, and a common one:
# "emty" is "empty", "evnt" is "event", but "tken" (token or taken) and "wile" are left as typed.
_SHORT = 4


@dataclass(frozen=True)
class Correction:
    typed: str
    read: str
    start: int
    end: int

    def to_dict(self) -> dict:
        return {"typed": self.typed, "read": self.read}


class Speller:
    def __init__(self, vocabulary: dict[str, list[int]], card_names: frozenset[str], stop: frozenset[str],
                 foreign: frozenset[str] = frozenset()):
        """``card_names``: the cards' one-word names, which the name index reads; ``stop``: short words
        never offered ("withc" is Witch, not "with"); ``foreign``: German words, never the reading of a
        word in an English question ("nibht" is "night", not "nicht")."""
        uses = {w: c[0] + (c[2] if len(c) > 2 else 0) for w, c in vocabulary.items()}
        self.words = [w for w, n in uses.items()
                      if n >= _MIN_USES and w.isalpha() and w not in card_names and w not in foreign
                      and (len(w) >= 5 or len(w) >= 3 and w not in stop)]
        self.uses = [uses[w] for w in self.words]
        self.card_names = sorted(card_names)

    def corrections(self, text: str, names: NameIndex, found: list[Recognized]) -> list[Correction]:
        """The words of ``text`` to read otherwise: not a word anyone uses, near one that is, and not
        read as a card -- unless it was read as a card only by a guess no nearer than the word (a slip
        of the fingers is nearer than another letter, ``slip``), and at the same distance the word is a
        common one ("hapens" is "happens", not Haven; "theif" is Thief, not "their")."""
        out = []
        looked: dict[str, tuple[str, int, int] | None] = {}
        for tok in tokenize(text)[:MAX_QUERY_WORDS]:
            if tok.raw.lower() != tok.norm or names.known_word(tok.norm):
                continue        # accents, digits, apostrophes: not a plain typo of a plain word
            if tok.norm not in looked and len(looked) >= MAX_LOOKUPS:
                break
            card = next((c for c in found if c.start <= tok.start < c.end), None)
            if card is not None and (card.how != "fuzzy" or (card.start, card.end) != (tok.start, tok.end)):
                continue
            if tok.norm not in looked:
                looked[tok.norm] = self.nearest(tok.norm)
            near = looked[tok.norm]
            if near is None:
                continue
            word, distance, uses = near
            if card is not None:
                as_word, as_card = (distance, slip(tok.norm, word)), (card.distance, slip(tok.norm, card.name.lower()))
                if as_word > as_card or as_word == as_card and uses < _COMMON:
                    continue
            out.append(Correction(tok.raw, word, tok.start, tok.end))
        return out

    def nearest(self, word: str) -> tuple[str, int, int] | None:
        """The word meant, its distance and how often it is used; None when none is near enough."""
        if not word.isalpha():
            return None
        short = len(word) == _SHORT
        limit = 1 if short else _max_edits(word)
        if not limit:
            return None
        found = process.extract(word, self.words, scorer=OSA.distance, score_cutoff=limit, limit=None)
        if not found:
            return None
        if short and (len(found) > 1 or self.uses[found[0][2]] < _COMMON
                      or process.extractOne(word, self.card_names, scorer=OSA.distance, score_cutoff=1)):
            return None     # "pixe" is as near to Pixie as to "pile": neither is guessed
        best = min(found, key=lambda m: (m[1], slip(word, m[0]), -self.uses[m[2]], m[0]))
        return best[0], int(best[1]), self.uses[best[2]]


def corrected(text: str, fixes: list[Correction]) -> str:
    for c in sorted(fixes, key=lambda c: -c.start):
        text = text[:c.start] + c.read + text[c.end:]
    return text


def slip(typed: str, meant: str) -> int:
    """0 when ``typed`` is one slip of the fingers from ``meant`` -- a letter left out, one too many, or
    two swapped -- and 1 otherwise (another letter typed in its place, or more than one edit). Between
    two readings as near as each other, the slip is the likelier typo: "theif" is Thief, not "their";
    "staet" is "state", not "start"."""
    if OSA.distance(typed, meant) != 1:
        return 1
    return 0 if len(typed) != len(meant) or sorted(typed) == sorted(meant) else 1


def _max_edits(word: str) -> int:
    """One edit from five letters, two from ten. Card names allow two from seven (names.py), but
    players use words the corpus never does ("sleeves", "stacking", "chaining"), and two edits from
    seven letters turned those into other words ("leaves", "starting", "gaining")."""
    n = len(word)
    return 0 if n < 5 else 1 if n < 10 else 2
