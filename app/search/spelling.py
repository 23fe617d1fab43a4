"""Ordinary words typed wrong ("discrad", "oponent", "reshufle") read as the word meant.

Card names typed wrong are caught by the name index (names.py). Every other word used to be
searched as typed: "atack on my oponent" found nothing, "can I reshufle my discrad pile" found
piles in general. A word is corrected when it is neither a word of the corpus nor of players'
questions, and one such word is within one edit (two from ten letters). A word of four letters is
read only as the one common word a letter away ("emty" is "empty"; "tken", token or taken, is left
alone). The nearest wins, then a slip of the fingers over another letter, then the most used.
A card's one-word name is never the correction (the name index reads those, with its own care for
near ties) but for four letters, which the name index leaves alone: "cypt" is Crypt when no word is a
letter away. The word before an apostrophe is read on its own ("opponnent's" is "opponent's"). Nor are
short stop words ("withc" is Witch, not "with") or German words. The words of
longer names are: "treasure" is a word of the rules as well as of Treasure Map, and without it
"terasure" was read as the card Treasurer.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz import process
from rapidfuzz.distance import OSA

from app.search.names import MAX_QUERY_WORDS, NameIndex, Recognized, slip, tokenize

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


@dataclass(frozen=True)
class Ambiguity:
    """A short word typed wrong that could be several words or cards ("toos": too or Tools): searched as typed,
    the player is offered each reading (a guess was wrong as often as right)."""

    typed: str
    options: tuple[str, ...]     # words in lower case, card names as printed
    start: int
    end: int

    def to_dict(self, text: str) -> dict:
        return {"typed": self.typed, "options": [{"read": o, "query": text[:self.start] + o + text[self.end:]}
                                                 for o in self.options]}


# Readings offered for one ambiguous word: more is a list to read, not a question.
MAX_OPTIONS = 3
# Four-letter words whose neighbours are kept (``Speller._one_letter_away``): a bound on the memory a process
# spends on them, whatever it is asked.
_NEIGHBOURS_KEPT = 4096


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
        # a four-letter word's neighbours are wanted twice per question: to correct it, and when they are too
        # many to choose from, to offer them (``ambiguous``)
        self._one_letter_away = lru_cache(maxsize=_NEIGHBOURS_KEPT)(self._neighbours)

    def _neighbours(self, word: str) -> tuple[list[tuple[str, float, int]], list[str]]:
        """The words (rapidfuzz matches: word, distance, index) and the cards' one-word names one edit from
        ``word``."""
        found = process.extract(word, self.words, scorer=OSA.distance, score_cutoff=1, limit=None)
        cards = [m[0] for m in process.extract(word, self.card_names, scorer=OSA.distance, score_cutoff=1,
                                               limit=None)]
        return found, cards

    def corrections(self, text: str, names: NameIndex, found: list[Recognized]) -> list[Correction]:
        """The words of ``text`` to read otherwise: not a word anyone uses, near one that is, and not
        read as a card -- unless it was read as a card only by a guess no nearer than the word (a slip
        of the fingers is nearer than another letter, ``slip``), and at the same distance the word is a
        common one ("hapens" is "happens", not Haven; "theif" is Thief, not "their")."""
        out = []
        looked: dict[str, tuple[str, int, int] | None] = {}
        for tok in tokenize(text)[:MAX_QUERY_WORDS]:
            if names.known_word(tok.norm):
                continue
            typed, norm = _head(tok.raw), tok.norm
            if typed is not tok.raw:
                norm = typed.lower()
                if names.known_word(norm):
                    continue
            if typed.lower() != norm:
                continue        # accents, digits: not a plain typo of a plain word
            if norm not in looked and len(looked) >= MAX_LOOKUPS:
                break
            card = next((c for c in found if c.start <= tok.start < c.end), None)
            if card is not None and (card.how != "fuzzy" or (card.start, card.end) != (tok.start, tok.end)):
                continue
            if norm not in looked:
                looked[norm] = self.nearest(norm)
            near = looked[norm]
            if near is None:
                continue
            word, distance, uses = near
            if card is not None:
                as_word, as_card = (distance, slip(norm, word)), (card.distance, slip(norm, card.name.lower()))
                if as_word > as_card or as_word == as_card and uses < _COMMON:
                    continue
            out.append(Correction(typed, word, tok.start, tok.start + len(typed)))
        return out

    def ambiguous(self, text: str, names: NameIndex, found: list[Recognized],
                  fixes: list[Correction]) -> list[Ambiguity]:
        """The four-letter words of ``text`` that no word or card reads (``corrections`` left them as typed) but
        several common words or cards are a letter away from: each with those readings, slips of the fingers
        first, then the most used."""
        out = []
        looked = 0
        for tok in tokenize(text)[:MAX_QUERY_WORDS]:
            norm = tok.norm
            if (len(norm) != _SHORT or not norm.isalpha() or tok.raw.lower() != norm or names.known_word(norm)
                    or any(c.start <= tok.start < c.end for c in found)
                    or any(f.start <= tok.start < f.end for f in fixes)):
                continue
            if looked >= MAX_LOOKUPS:       # each look-up is two passes over the words and names
                break
            looked += 1
            near_words, near_cards = self._one_letter_away(norm)
            words = [(slip(norm, m[0]), -self.uses[m[2]], m[0]) for m in near_words if self.uses[m[2]] >= _COMMON]
            cards = [(slip(norm, c), 0, names.names[names.exact[c]]) for c in near_cards   # English names only
                     if c in names.exact]
            options = [o for *_, o in sorted(words + cards)][:MAX_OPTIONS]
            if len(options) >= 2:
                out.append(Ambiguity(tok.raw, tuple(options), tok.start, tok.start + len(tok.raw)))
        return out

    def nearest(self, word: str) -> tuple[str, int, int] | None:
        """The word meant, its distance and how often it is used; None when none is near enough."""
        if not word.isalpha():
            return None
        short = len(word) == _SHORT
        limit = 1 if short else _max_edits(word)
        if not limit:
            return None
        if short:
            return self._nearest_short(word, *self._one_letter_away(word))
        found = process.extract(word, self.words, scorer=OSA.distance, score_cutoff=limit, limit=None)
        if not found:
            return None
        best = min(found, key=lambda m: (m[1], slip(word, m[0]), -self.uses[m[2]], m[0]))
        return best[0], int(best[1]), self.uses[best[2]]

    def _nearest_short(self, word: str, found: list, cards: list[str]) -> tuple[str, int, int] | None:
        """A word of four letters is read as the one common word a letter away ("emty" is "empty"), as the
        one common word it is a slip of the fingers from, a letter left out or two swapped ("frst" is
        "first", "sart" "start": "part" and "sort" are other letters), or as the one card it is a slip
        from when no word is a letter away ("eldr" is Elder, "cypt" Crypt). "tken" (token or taken),
        "thee" (there, these, three) and "toos" (too or Tools) stay as typed, and so does "pixe", as near
        to Pixie as to "pile"."""
        if len(found) == 1 and not cards:
            uses = self.uses[found[0][2]]
            return (found[0][0], 1, uses) if uses >= _COMMON else None
        slips = sorted(((self.uses[m[2]], m[0]) for m in found if not slip(word, m[0])), reverse=True)
        card_slips = [c for c in cards if not slip(word, c)]
        if card_slips:
            return (card_slips[0], 1, 0) if len(card_slips) == 1 and not found else None
        if cards or len(slips) != 1 or slips[0][0] < _COMMON:
            return None
        return slips[0][1], 1, slips[0][0]


def corrected(text: str, fixes: list[Correction]) -> str:
    for c in sorted(fixes, key=lambda c: -c.start):
        text = text[:c.start] + c.read + text[c.end:]
    return text


# A word's ending after an apostrophe ("opponnent's", "pllayer's"): the word before it is what was typed
# wrong, and the ending stays as typed.
_CLITIC = re.compile(r"([^\W\d_]+)['\u2019\u2018](?:s|t|ll|re|ve|d|m)", re.I)


def _head(raw: str) -> str:
    """The word a token is a form of: ``raw`` itself, or the part before a clitic ending."""
    m = _CLITIC.fullmatch(raw)
    return m.group(1) if m else raw


def _max_edits(word: str) -> int:
    """One edit from five letters, two from ten. Card names allow two from seven (names.py), but
    players use words the corpus never does ("sleeves", "stacking", "chaining"), and two edits from
    seven letters turned those into other words ("leaves", "starting", "gaining")."""
    n = len(word)
    return 0 if n < 5 else 1 if n < 10 else 2
