"""One stemmer for the index, the query, concepts and snippets.

Porter alone stems "ties" and "tied" to "ti" but "tie" to "tie", so a player
asking about a tie would miss the index term "ties" and the game-end rule
("tied players"). Dropping a plain plural "s" first, and treating four-letter
"-ied" words (tied, died, lied) as "-ie", makes them land on one stem;
everything else is Porter's.
"""
from __future__ import annotations

from functools import lru_cache

from whoosh.analysis import STOP_WORDS, Filter, RegexTokenizer
from whoosh.lang.porter import stem as porter
from whoosh.support.charset import accent_map


@lru_cache(maxsize=65536)
def stem_word(word: str) -> str:
    w = word.lower()
    if len(w) == 4 and w.endswith("ied"):
        w = w[:-1]
    if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    return porter(w)


_MAX_CACHED_WORDS = 200_000


class WordFilter(Filter):
    """Whoosh's LowercaseFilter | StopFilter | StemFilter(stem_word) | CharsetFilter(accent_map), as one
    filter with one look-up per word: the same tokens (text, position, stopped), in about half the time,
    which was a fifth of ``rulings build`` (every passage and table question goes through it)."""

    def __init__(self, stoplist=STOP_WORDS, minsize: int = 2):
        self.stops = frozenset(stoplist)
        self.min = minsize
        self._words: dict[str, str | None] = {}     # lower-case word -> indexed form, None when a stop word

    def __eq__(self, other):
        return other and self.__class__ is other.__class__ and self.stops == other.stops and self.min == other.min

    def __getstate__(self):     # pickled with the index's schema: without the cache
        return {"stops": self.stops, "min": self.min}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._words = {}

    def _word(self, low: str) -> str | None:
        if len(low) < self.min or low in self.stops:
            return None
        return stem_word(low).translate(accent_map)

    def __call__(self, tokens):
        words = self._words
        pos = None
        for t in tokens:
            low = t.text.lower()
            try:
                word = words[low]
            except KeyError:
                if len(words) >= _MAX_CACHED_WORDS:     # typed questions are words too: bounded
                    words.clear()
                word = words[low] = self._word(low)
            if word is not None:
                if t.positions:        # positions renumbered without the stop words, as StopFilter does
                    if pos is None:
                        pos = t.pos
                    else:
                        pos += 1
                        t.pos = pos
                t.stopped = False
                t.text = word
                yield t
            elif not t.removestops:
                t.stopped = True
                t.text = low.translate(accent_map)
                yield t


def text_analyzer(stoplist=None):
    """Stemmed, accent-folded words: 'gaining' finds 'gain', 'ties' finds 'tie'."""
    return RegexTokenizer(r"\w+(\.?\w+)*") | WordFilter(STOP_WORDS if stoplist is None else stoplist)


# Question words that say nothing about which rule is meant (the index keeps them).
QUESTION_WORDS = frozenset(
    "how what why who whom whose which where does do did doing happen happens happened work works "
    "working i me my mine we our ok okay please question rule rules ruling rulings".split()
)
QUERY_STOP = frozenset(STOP_WORDS) | QUESTION_WORDS


def query_analyzer():
    """How a question is read: the index's words without stop and question words. The word vectors
    (embedding.py) read the passages and the table questions they learn from the same way."""
    return text_analyzer(stoplist=QUERY_STOP)
