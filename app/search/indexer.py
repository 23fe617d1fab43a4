"""Store -> Whoosh index. Called by ``rulings build`` right after the store is written.

Only the store is read (opened read-only), so the index can never disagree
with what pages show. Besides the Whoosh segment the directory holds the
precomputed per-term scores (``postings.json``/``postings.bin``, see
``postings.py``: queries add them up instead of running Whoosh's matchers) and
``vocabulary.json``: how often each word occurs in lower case and in total,
which name recognition uses to tell a misspelt card name ("libary") from an
ordinary word ("trade") without a dictionary of its own.
"""
from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from functools import lru_cache
from pathlib import Path

from whoosh import fields, index

from app.corpus.model import slugify
from app.corpus.symbols import LOST
from app.search import embedding, postings
from app.search.documents import GERMAN, SCENARIO, SearchDoc, iter_documents
from app.search.stemming import query_analyzer, text_analyzer
from app.search.names import NameIndex, load_abbreviations, tokenize
from app.store.db import Store

VOCABULARY_FILE = "vocabulary.json"
# Never given a vector (embedding.py): scenarios are placed apart from the ranking, and
# German passages are in other words than the English the model learns.
_NO_VECTOR = frozenset({SCENARIO, GERMAN})
_WORD = re.compile(r"[^\W\d_]+")


def schema() -> fields.Schema:
    return fields.Schema(
        key=fields.ID(stored=True, unique=True),
        kind=fields.ID(stored=True),
        parent=fields.ID(stored=True),
        # title and body are searched as one field: every extra field doubles the postings a query walks
        text=fields.TEXT(analyzer=text_analyzer(), phrase=False),     # no phrase query: no positions
        title=fields.STORED(),
        body=fields.STORED(),
        asks=fields.STORED(),       # the questions of corpus/data/rule-questions, one per line (rerank.py)
        cards=fields.KEYWORD(commas=True, lowercase=True, scorable=True, stored=True),
        url=fields.STORED(),
        card=fields.STORED(),
        card_name=fields.STORED(),
        ruling=fields.STORED(),
        section=fields.STORED(),
        settles=fields.STORED(),
        cites=fields.STORED(),
    )


def name_index_from_store(store: Store, vocabulary: dict[str, list[int]] | None = None) -> NameIndex:
    german = []
    if store.has_table("german_names"):
        german = [(r["german"], r["card"]) for r in store.rows("select german, card from german_names where card is not null")]
    return NameIndex(store.card_names(), german, load_abbreviations(), vocabulary)


def build_search_index(db_path: Path, out_dir: Path, learn: bool = False) -> int:
    """Write the index for the store at ``db_path`` into ``out_dir``; return the number of documents.
    ``learn``: learn the word vectors from this store's question tables instead of applying the committed
    ones (for benches that hold table rows out; about a minute)."""
    store = Store(db_path)
    names = name_index_from_store(store)
    out_dir = Path(out_dir)
    if out_dir.exists():
        shutil.rmtree(out_dir)
    out_dir.mkdir(parents=True)
    ix = index.create_in(str(out_dir), schema())
    writer = ix.writer(limitmb=128)
    vocab: Counter[str] = Counter()
    lower: Counter[str] = Counter()
    asked: Counter[str] = Counter()     # words of the question tables: players' words, not the documents'
    count = 0
    read = query_analyzer()
    doc_words: list[list[str]] = []             # by document number, as questions are read (embedding.py)
    numbered: list[tuple[list[str], int]] = []      # (table question, its passage's document number)
    german: list[tuple[list[str], int]] = []        # the same for the German tables
    try:
        for doc in iter_documents(store, names.mentions):
            _count_words(doc, vocab, lower)
            asked.update(t.norm for q in doc.asks for t in tokenize(q))   # as name recognition reads them
            writer.add_document(**_fields(doc))
            count += 1
            words, asked_words, german_words = _vector_words(doc, read)
            doc_words.append(words)
            numbered += [(q, count - 1) for q in asked_words]
            german += [(q, count - 1) for q in german_words]
    except BaseException:
        writer.cancel()
        raise
    writer.commit(optimize=True)
    # the committed word vectors (bench/train_embedding.py) applied to these documents; a bench that built
    # this index from a copy without some table rows passes vectors learned without them (``learn``)
    vectors = embedding.learn_words(numbered, doc_words, german=german) if learn else embedding.load_words()
    if vectors is not None:
        embedding.write(out_dir, vectors.question_words(), vectors.documents(doc_words))
    with ix.searcher(weighting=postings.WEIGHTING) as searcher:
        postings.write(postings.compute(searcher), out_dir)
    vocabulary = {w: [lower[w], vocab[w], asked[w]] for w in sorted(vocab.keys() | asked.keys())}
    (out_dir / VOCABULARY_FILE).write_text(json.dumps(vocabulary, ensure_ascii=False), encoding="utf-8")
    return count


def _vector_words(doc: SearchDoc, read) -> tuple[list[str], list[list[str]], list[list[str]]]:
    """A document's words and its table questions' words, English and German, as the word vectors read them
    (embedding.py)."""
    words = [] if doc.kind in _NO_VECTOR else [t.text for t in read(_searched(f"{doc.title} {doc.body}"))]
    if not words:
        return words, [], []
    return words, [[t.text for t in read(q)] for q in doc.asks], [[t.text for t in read(q)] for q in doc.german_asks]


def vector_training_data(store: Store) -> tuple[list[tuple[list[str], int]], list[list[str]],
                                                list[tuple[list[str], int]]]:
    """(table question's words, its passage's document number) pairs, every document's words, and the German
    tables' pairs, as ``build_search_index`` reads them: what ``bench/train_embedding.py`` learns the word
    vectors from."""
    read = query_analyzer()
    doc_words: list[list[str]] = []
    numbered: list[tuple[list[str], int]] = []
    german: list[tuple[list[str], int]] = []
    for n, doc in enumerate(iter_documents(store, name_index_from_store(store).mentions)):
        words, asked_words, german_words = _vector_words(doc, read)
        doc_words.append(words)
        numbered += [(q, n) for q in asked_words]
        german += [(q, n) for q in german_words]
    return numbered, doc_words, german


def load_vocabulary(search_dir: Path) -> dict[str, list[int]]:
    path = Path(search_dir) / VOCABULARY_FILE
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def _fields(doc: SearchDoc) -> dict:
    return {
        "key": doc.key,
        "kind": doc.kind,
        "parent": doc.parent or "",
        "text": _searched(" ".join([doc.title, doc.body, *doc.asks, *doc.more_asks])),
        "title": doc.title,
        "body": doc.body,
        "asks": "\n".join(doc.asks),
        "cards": ",".join(doc.cards),
        "url": doc.url,
        "card": doc.card,
        "card_name": doc.card_name,
        "ruling": doc.ruling,
        "section": doc.section,
        "settles": doc.settles,
        "cites": ",".join(doc.cites),
    }


def _searched(text: str) -> str:
    """A document's words as search reads them: without the marker of a symbol the extraction lost
    ("[symbol lost]", app/corpus/symbols.py), which is no word of the document and made every passage
    with a lost symbol share two words no question means (Squire 2 fell from the first three)."""
    return text.replace(LOST, " ")


def _count_words(doc: SearchDoc, vocab: Counter[str], lower: Counter[str]) -> None:
    for text in (doc.title, doc.body):
        for w in _WORD.findall(_searched(text)):
            lw = _fold(w)
            vocab[lw] += 1
            if w.islower():
                lower[lw] += 1


@lru_cache(maxsize=65536)
def _fold(word: str) -> str:
    """The same folding name recognition applies to typed words (accents, case)."""
    return slugify(word).replace("-", "")
