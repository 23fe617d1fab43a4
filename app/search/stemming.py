"""One stemmer for the index, the query, concepts and snippets.

Porter alone stems "ties" and "tied" to "ti" but "tie" to "tie", so a player
asking about a tie would miss the index term "ties" and the game-end rule
("tied players"). Dropping a plain plural "s" first, and treating four-letter
"-ied" words (tied, died, lied) as "-ie", makes them land on one stem;
everything else is Porter's.
"""
from __future__ import annotations

from functools import lru_cache

from whoosh.analysis import STOP_WORDS, LowercaseFilter, RegexTokenizer, StemFilter, StopFilter
from whoosh.analysis.filters import CharsetFilter
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


def text_analyzer(stoplist=None):
    """Stemmed, accent-folded words: 'gaining' finds 'gain', 'ties' finds 'tie'."""
    stop = StopFilter() if stoplist is None else StopFilter(stoplist=stoplist, minsize=2)
    return (RegexTokenizer(r"\w+(\.?\w+)*") | LowercaseFilter() | stop
            | StemFilter(stemfn=stem_word) | CharsetFilter(accent_map))


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
