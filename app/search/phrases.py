"""Player words -> the rulebook's words, applied to a query before it is searched.

Players ask "at the same time", "who decides", "played twice", "the pile ran out";
the Complete Rules say "concurrent", "chooses", "play a card multiple times", "empty
Supply piles". BM25 cannot bridge that, so a small table (``corpus/data/query-phrases.csv``,
columns ``phrase,adds``) lists phrases and the document words they add. The added words
are searched next to the player's (never instead of them) and can complete a concept
phrase ("play a card multiple times" is a section title). Matching is on whole words,
case-insensitive; the longest phrase wins where phrases overlap.

German players' words are in the table too ("Nachziehstapel" adds "deck", "mischen" adds "shuffle"):
a German question naming no card otherwise meets only German passages, and the dividers hold few rules.
A German question also reads a second, larger table of the same form, ``corpus/data/german-rule-words.csv``
(1,261 word forms as players type them: "beiseitegelegten" adds "set aside", "kriegt" adds "gain get",
"zeitgleich" adds "concurrent"): its answer is an English ruling, which shares none of its words.
Two writers who saw no question set wrote it from the documents alone: the first 687 rows from the German
dividers beside the same cards' English text, the other 574 from the Complete Rules' chapters I-IV and VI
(the words of reading a card, setup, phases, timing, Durations, Debt, Ways and the rest). It is read for
German questions only, so an English question's words that are German too ("bonus", "extra") are never
translated.
Umlauts match however they were typed ("Müll", "Muell": ``german.fold``), and a bonus's amount however it was
typed ("+$2", "+$3": the table's "+$x").
"""
from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path

from app import config
from app.search.german import fold

HEADER = ["phrase", "adds"]


@dataclass(frozen=True)
class Phrase:
    phrase: str
    adds: str
    line: int


def phrases_path() -> Path:
    return config.corpus_dir() / "data" / "query-phrases.csv"


def german_words_path() -> Path:
    return config.corpus_dir() / "data" / "german-rule-words.csv"


def load_phrases(path: Path | None = None) -> list[Phrase]:
    """Rows of the table; a malformed row raises ValueError naming the file and line."""
    path = path or phrases_path()
    if not path.exists():
        return []
    out: list[Phrase] = []
    seen: dict[str, int] = {}
    with path.open(encoding="utf-8", newline="") as fh:
        reader = csv.reader(fh)
        header = next(reader, None)
        if header != HEADER:
            raise ValueError(f"{path}:1: expected header 'phrase,adds', found {header!r}")
        for line_no, row in enumerate(reader, start=2):
            if not row or not "".join(row).strip():
                continue
            if len(row) != 2 or not row[0].strip() or not row[1].strip():
                raise ValueError(f"{path}:{line_no}: expected 'phrase,adds' (both non-empty), found {row!r}")
            phrase = " ".join(row[0].lower().split())
            key = matchable(phrase)
            if key in seen:
                # one phrase, one meaning: a second row would silently replace the first
                raise ValueError(f"{path}:{line_no}: the phrase {row[0].strip()!r} is already on line {seen[key]}")
            seen[key] = line_no
            out.append(Phrase(phrase, " ".join(row[1].split()), line_no))
    return out


# A card's bonus is typed with its amount ("+$2"); the rules' Terms used on cards write it once with an x ("+$x"),
# and so does the table: any amount after a plus is read as that x.
_PLUS_AMOUNT = re.compile(r"\+ ?(\$?) ?\d+")


def matchable(text: str) -> str:
    """``text`` as phrases are matched: umlauts folded (``german.fold``) and each "+<amount>" written "+x" ("+$2" ->
    "+$x"), as the Terms used on cards write it. A table row and a question go through the same."""
    return fold(_PLUS_AMOUNT.sub(lambda m: f"+{m.group(1)}x", text))


class PhraseTable:
    """The table compiled into one pattern (longest phrases first, so 'play it twice' beats 'twice')."""

    def __init__(self, phrases: list[Phrase]):
        self.adds = {matchable(p.phrase): p.adds for p in phrases}
        alts = sorted(self.adds, key=len, reverse=True)
        self.pattern = (re.compile(r"(?<!\w)(" + "|".join(r"\s+".join(map(re.escape, a.split())) for a in alts)
                                   + r")(?!\w)", re.I) if alts else None)

    def expand(self, text: str) -> str:
        """The document words the player's phrases stand for ('' when none), each phrase once."""
        if self.pattern is None:
            return ""
        found = dict.fromkeys(" ".join(m.group(1).lower().split()) for m in self.pattern.finditer(matchable(text)))
        return " ".join(self.adds[f] for f in found)
