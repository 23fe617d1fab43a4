"""``search(store, query)``: what a player typed -> ranked, grouped hits.

User text is never handed to Whoosh's query parser: it is cleaned, card names
and concepts are recognised, and the query is assembled from ``Term`` objects,
so quotes, operators, ``*``, ``~``, ``field:`` prefixes or any Unicode cannot
raise. The CLI and ``/api/search`` return this function's dict unchanged.

Ranking is Whoosh's BM25F over title/body (scores precomputed per term at
build time, see ``postings.py``) plus boosts for recognised cards
and concepts, then two rules players rely on: a query that is just a card
name puts that card first, and with two or more cards the hits that mention
all of them come first (the interaction question). Last, ``diversify.py``
gives each section one slot (its best paragraph; the others listed in the
slot's ``more``) and each named card one of its own entries near the top.
An empty answer says truthfully why (``suggest.py``).

Before scoring: an ordinary word that is also a card name is dropped as a card where the
sentence uses it as a word ("count as", ``readings.py``); the player's phrases add the
rulebook's words (``phrases.py``, table ``corpus/data/query-phrases.csv``); "does X count
as Y" matches concepts on each side. After ranking, a named card's ruling that is only
"See X" is followed by X (``references.py``, the store's resolved ``refs``).
"""
from __future__ import annotations

import json
import re
import threading
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from whoosh import index
from whoosh.query import And, Or, Term

from app.corpus.text import plain
from app.search.concepts import Concept, ConceptIndex
from app.search.diversify import (Slot, below_own_section, collapse, english_ruling_then_german, ensure_own_entries,
                                  group_restatements, merge_card_entries, one_german_slot, paragraphs_of,
                                  show_paragraphs)
from app.search.suggest import explain_empty
from app.search.highlight import snippet
from app.search.indexer import load_vocabulary, name_index_from_store
from app.search.spelling import Correction, Speller, corrected
from app.search.stemming import QUERY_STOP, query_analyzer
from app.search.names import HOW_RANK, NameIndex, Recognized, dedupe, word_forms
from app.search.phrases import PhraseTable, german_words_path, load_phrases
from app.search.embedding import as_german
from app.search.readings import word_readings
from app.search.references import follow_pointers, pointer_targets
from app.search.rulewords import RulePostings
from app.search import postings as postings_mod
from app.search import embedding
from app.search.versions import current_first, names_version, previous_documents
from app.search.postings import WEIGHTING as _WEIGHTING, Postings, PostingsError
from app.search.documents import SCENARIO, SCENARIO_PREFIX
from app.search.german import GERMAN_WORDS, as_printed, is_german, without_function_words
from app.search.rerank import (AskedWords, DocInfo, IdfWeights, TableQuestion, after_current_rule,
                               asks_for_kingdoms, features, german_beside_english, is_kingdom_list,
                               load_model, rerank, table_question, words_score)
from app.store.db import Store

MAX_QUERY_CHARS = 500
MAX_LIMIT = 100
# How much a recognised card pulls its documents up, by how sure the match is.
_CARD_BOOST = {"exact": 4.0, "plural": 3.5, "german": 3.5, "abbreviation": 3.5, "fuzzy": 2.5}
_WEAK_BOOST = 0.8
_ALL_CARDS_BOOST = 6.0
# 'key' and 'parent' are ID fields: a match scores its boost as is, while a BM25 word match
# scores about 5-15, so these boosts are on that scale.
_CONCEPT_BOOST = 12.0
_CARD_KEY_BOOST = 10.0
_FIRST_RULINGS = 3
# Words in more than this share of documents ("card", "play") add little to the ranking but walking
# their postings is most of a query's cost; they are dropped unless nothing rarer is left.
_MAX_DF_SHARE = 0.15
_MIN_TERMS = 3

# Engines kept open: the current index and the one before it (a query may still be using it while a
# rebuild switches over). Each rebuild writes a new directory, so an unbounded cache grew forever.
MAX_ENGINES = 2
# Candidates re-ranked per query: collapsing a section's paragraphs into one slot needs more than shown.
CANDIDATES = 40
# Rule sections and paragraphs fetched beside them: a general question's answer is often worded unlike
# the question, and card rulings sharing its words would otherwise fill every candidate slot.
_RULE_CANDIDATES = 10
_RULE_KINDS = frozenset({"section", "common effect"})
# Rule passages and FAQ answers nearest the question in the embedding's space (embedding.Nearest), fetched
# beside BM25's. On the table hold-out (questions held out, seed 7) the answers not among the candidates
# fell from 78 of 1,012 to 42; ten measured the same as five (bench/train_ranker.py has the figures).
_NEAR_CANDIDATES = 5
_NEAR_KINDS = frozenset({"section", "common effect", "FAQ"})

# Scenarios fetched beside them (they are placed apart from the ranking, see pick_scenario).
_SCENARIO_CANDIDATES = 20
# An index entry that is only a term and page numbers counts this much of its BM25 score.
_POINTER_WEIGHT = 0.75
# Stored card-bound tables: a document whose key is in one of them belongs to that card.
_OWNED = (("cards", "slug", "slug"), ("rulings", "key", "card"), ("previous_versions", "slug", "card"),
          ("faq_clarifications", "key", "card"), ("german_passages", "key", "card"), ("rulebook_cards", "key", "card"))


@dataclass
class _Engine:
    """Everything opened once per index directory and reused by every query of the process."""

    ix: Any
    names: NameIndex
    concepts: ConceptIndex
    analyzer: Any
    postings: Postings
    owner: dict[int, str] = field(default_factory=dict)       # card-bound document -> its card slug
    card_doc: dict[str, int] = field(default_factory=dict)    # card slug -> its Card Reference document
    pointers: frozenset[int] = frozenset()   # index entries without a definition (a term and page numbers)
    phrases: PhraseTable = field(default_factory=lambda: PhraseTable([]))   # player words -> document words
    german_words: PhraseTable = field(default_factory=lambda: PhraseTable([]))  # German words -> the rules' words
    german_forms: frozenset[str] = frozenset()   # its one-word phrases: words, never misspelt names (find_all)
    see: dict[int, tuple[int, ...]] = field(default_factory=dict)   # pure 'See X' ruling -> X's documents
    info: DocInfo | None = None        # per document: kind and title words (re-ranking features)
    scenario_cites: dict[int, tuple[str, ...]] = field(default_factory=dict)   # scenario -> cited store keys
    # per document: (url, title, section heading, opening words), what a slot's "Also" links need beside the key
    # (``postings.keys``); kept in memory so listing a slot's collapsed documents reads none of their stored text
    headings: list[tuple[str, str, str | None, str]] = field(default_factory=list)
    scenarios_by_card: dict[str, list[int]] = field(default_factory=dict)      # card slug -> scenarios about it
    rule_docs: frozenset[int] = frozenset()    # Complete Rules sections and paragraphs (extra candidates)
    rule_words: RulePostings | None = None     # their postings, for scoring on every word (rulewords.py)
    nearest: embedding.Nearest | None = None   # rule passages and FAQ answers by the embedding (extra candidates)
    superseded: dict[int, frozenset[int]] = field(default_factory=dict)   # out-of-date FAQ -> current rule docs
    superseded_notes: dict[str, dict] = field(default_factory=dict)    # its key -> the note and links hits show
    restates: dict[int, int] = field(default_factory=dict)   # FAQ / § V / § VI paragraph -> the § I-IV one it restates
    restated_in: dict[int, str] = field(default_factory=dict)   # that paragraph -> where it is written ("the BGG FAQ")
    paragraphs: dict[int, tuple[int, ...]] = field(default_factory=dict)   # section -> its paragraphs' documents
    speller: Speller | None = None     # ordinary words typed wrong (spelling.py)
    previous: dict[int, str] = field(default_factory=dict)   # previous-version document -> "Pre-2019 version" (versions.py)
    docnum: dict[str, int] = field(default_factory=dict)     # store key -> document number
    current: dict[str, tuple[int, ...]] = field(default_factory=dict)  # card with previous versions -> its current docs
    local: threading.local = field(default_factory=threading.local)

    def searcher(self):
        """Whoosh is still read for the stored fields of the hits returned (one searcher per thread)."""
        s = getattr(self.local, "searcher", None)
        if s is None:
            s = self.ix.searcher(weighting=_WEIGHTING)
            self.local.searcher = s
        return s

    def selective(self, stems: list[str]) -> list[str]:
        """The query's words minus the very common ones (keeping the rarest few if all are common)."""
        p = self.postings
        limit = p.doc_count * _MAX_DF_SHARE
        dfs = {t: p.doc_frequency("text", t) for t in stems}
        kept = [t for t in stems if 0 < dfs[t] <= limit]
        if len(kept) < _MIN_TERMS:
            common = sorted((t for t in stems if dfs[t] > limit), key=dfs.get)
            kept += common[: _MIN_TERMS - len(kept)]
        return [t for t in stems if t in kept]


class EngineCache:
    """The most recently used engines by index directory, at most ``maxsize`` of them.

    An evicted engine is not closed: a query in another thread may still hold it, and its
    files are released when the last reference goes.
    """

    def __init__(self, maxsize: int = MAX_ENGINES):
        self.maxsize = maxsize
        self._items: OrderedDict[str, Any] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: str):
        with self.lock:
            eng = self._items.get(key)
            if eng is not None:
                self._items.move_to_end(key)
            return eng

    def put(self, key: str, eng) -> None:
        with self.lock:
            self._items[key] = eng
            self._items.move_to_end(key)
            while len(self._items) > self.maxsize:
                self._items.popitem(last=False)

    def keys(self) -> list[str]:
        with self.lock:
            return list(self._items)


_ENGINES = EngineCache()
_OPEN_LOCK = threading.Lock()


def engine_for(store: Store) -> _Engine:
    search_dir = store.search_dir
    eng = _ENGINES.get(str(search_dir)) if search_dir is not None else None
    if eng is not None:
        return eng          # exists_in re-reads the index's table of contents: not on every query
    if search_dir is None or not index.exists_in(str(search_dir)):
        raise FileNotFoundError(f"no search index for {store.path}; run 'rulings build'")
    key = str(search_dir)
    with _OPEN_LOCK:
        eng = _ENGINES.get(key)
        if eng is None:
            ix = index.open_dir(key)
            postings = _open_postings(ix, search_dir)
            docnum = {k: d for d, k in enumerate(postings.keys)}     # store key -> document, for every table read
            owner, card_doc = _ownership(store, postings, docnum)
            pointers = _pointer_entries(store, docnum)
            vocabulary = load_vocabulary(search_dir)
            german_phrases = load_phrases(german_words_path())
            eng = _Engine(
                ix=ix,
                names=name_index_from_store(store, vocabulary),
                concepts=ConceptIndex(store),
                analyzer=query_analyzer(),
                postings=postings,
                owner=owner,
                card_doc=card_doc,
                pointers=pointers,
                phrases=PhraseTable(load_phrases()),
                german_words=PhraseTable(german_phrases),
                german_forms=word_forms(p.phrase for p in german_phrases),
                see=pointer_targets(store, docnum),
                docnum=docnum,
            )
            eng.speller = Speller(vocabulary, eng.names.one_word_names(), QUERY_STOP, GERMAN_WORDS)
            eng.info, eng.scenario_cites, eng.headings = _doc_info(ix, eng.analyzer, postings)
            eng.info.embedding = embedding.load(search_dir, postings.doc_count)
            eng.rule_docs = frozenset(d for d, k in enumerate(eng.info.kind) if k in _RULE_KINDS)
            eng.rule_words = RulePostings(postings, eng.rule_docs)
            if eng.info.embedding is not None:
                eng.nearest = embedding.Nearest(eng.info.embedding, (d for d, k in enumerate(eng.info.kind)
                                                                     if k in _NEAR_KINDS))
            eng.superseded, eng.superseded_notes = _superseded(store, postings, docnum)
            eng.restates, eng.restated_in = _restatements(store, docnum)
            eng.paragraphs = paragraphs_of(postings.keys)
            eng.previous, eng.current = _versions(store, postings, eng.owner, eng.info.kind)
            for d in eng.scenario_cites:
                for slug in postings.cards[d]:
                    eng.scenarios_by_card.setdefault(slug, []).append(d)
            _ENGINES.put(key, eng)
    return eng


def _doc_info(ix, analyzer, postings: Postings) -> tuple[DocInfo, dict[int, tuple[str, ...]],
                                                         list[tuple[str, str, str | None, str]]]:
    """Each document's kind, the stems of its title and section heading and of each question it
    answers (corpus/data/rule-questions), what each scenario cites, and each document's link, title
    and section heading; read once per engine."""
    cites: dict[int, tuple[str, ...]] = {}
    asks: dict[int, tuple[TableQuestion, ...]] = {}
    weight = IdfWeights(postings)
    # a section's heading is every paragraph's: analyse each text once
    stems: dict[str, frozenset[str]] = {}

    def stems_of(text: str) -> frozenset[str]:
        got = stems.get(text)
        if got is None:
            got = stems[text] = frozenset(t.text for t in analyzer(text))
        return got

    with ix.searcher() as s:
        n = s.doc_count_all()
        kinds, titles = [""] * n, [frozenset()] * n
        headings: list[tuple[str, str, str | None, str]] = [("", "", None, "")] * n
        for d, f in s.reader().iter_docs():
            kinds[d] = f.get("kind", "")
            headings[d] = (f["url"], f["title"], f.get("section"), _opening(f.get("body") or ""))
            titles[d] = stems_of(f"{f.get('title') or ''} {f.get('section') or ''}")
            if f.get("asks"):
                asks[d] = tuple(table_question(stems_of(q), weight) for q in f["asks"].split("\n"))
            if kinds[d] == SCENARIO:
                cites[d] = tuple(c for c in (f.get("cites") or "").split(",") if c)
    return DocInfo(kinds, titles, asks), cites, headings


def _superseded(store: Store, postings: Postings,
                docnum: dict[str, int]) -> tuple[dict[int, frozenset[int]], dict[str, dict]]:
    """FAQ passages the Complete Rules overrule (corpus/data/faq-superseded.csv): each one's document ->
    the documents that overrule it, and its key -> the note and links its hit shows (read once, not per query)."""
    if not store.has_table("faq_superseded"):
        return {}, {}
    out = {}
    for r in store.rows("select faq, [by] from faq_superseded"):
        by = frozenset(d for d in (docnum.get(k) for k in json.loads(r["by"])) if d is not None)
        if r["faq"] in docnum and by:
            out[docnum[r["faq"]]] = by
    return out, store.superseded([postings.keys[d] for d in out])


def _restatements(store: Store, docnum: dict[str, int]) -> tuple[dict[int, int], dict[int, str]]:
    """The restatement links (``app.corpus.restatements``) by document: restating -> original, and where the
    restating paragraph is written."""
    if not store.has_table("restatements"):
        return {}, {}
    links, sources = {}, {}
    for r in store.rows("select restating, original, source from restatements"):
        if r["restating"] in docnum and r["original"] in docnum:
            links[docnum[r["restating"]]] = docnum[r["original"]]
            sources[docnum[r["restating"]]] = r["source"]
    return links, sources


def _versions(store: Store, postings: Postings, owner: dict[int, str],
              kinds: list[str]) -> tuple[dict[int, str], dict[str, tuple[int, ...]]]:
    """Previous versions' documents, and for each card that has previous versions its current documents
    (entry, rulings; not the German passages, which are asked for in German).

    The FAQ's clarifications of a changed card count as its previous version's: the FAQ covers the sets up
    to Guilds and Dark Ages (2013) and was not kept up, while every change the Complete Rules list under
    previous versions is from 2019 or later ("When Band of Misfits is played as a certain card, ... even if
    it reverts to being Band of Misfits" is the pre-2019 card's rule)."""
    if not store.has_table("previous_versions"):
        return {}, {}
    rows = store.rows("select slug, card, title from previous_versions")
    titles = {r["slug"]: r["title"] for r in rows}
    previous = {d: titles[v] for d, v in previous_documents(postings.keys, titles).items()}
    cards = {r["card"] for r in rows}
    version_of = {r["card"]: r["title"] for r in rows}
    previous.update({d: version_of[card] for d, card in owner.items()
                     if card in version_of and kinds[d] == "FAQ" and d not in previous})
    current: dict[str, list[int]] = {}
    for d, card in owner.items():
        if card in cards and d not in previous and kinds[d] != "German":
            current.setdefault(card, []).append(d)
    return previous, {c: tuple(sorted(ds)) for c, ds in current.items()}


def _pointer_entries(store: Store, docnum: dict[str, int]) -> frozenset[int]:
    """Index entries that only point at pages: their few words win on length alone, yet say nothing."""
    if not store.has_table("index_terms"):
        return frozenset()
    rows = store.rows("select slug from index_terms where definition is null or trim(definition) = ''")
    return frozenset(d for d in (docnum.get(f"index:{r['slug']}") for r in rows) if d is not None)


def _ownership(store: Store, postings: Postings, docnum: dict[str, int]) -> tuple[dict[int, str], dict[str, int]]:
    """Which documents are a card's own (entry, rulings, FAQ, German, rulebook), from the store's tables."""
    owner: dict[int, str] = {}
    for table, key_col, card_col in _OWNED:
        if not store.has_table(table):
            continue
        for r in store.rows(f"select [{key_col}] as k, [{card_col}] as c from [{table}] where [{card_col}] is not null"):
            d = docnum.get(r["k"])
            if d is not None:
                owner[d] = r["c"]
    card_doc = {owner[d]: d for d in owner if postings.keys[d] == owner[d]}
    return owner, card_doc


def _open_postings(ix, search_dir: Path) -> Postings:
    """The build's precomputed scores; an index written before they existed gets them computed here
    (about half a second, once per process) rather than failing."""
    with ix.searcher(weighting=_WEIGHTING) as s:
        if postings_mod.exists(search_dir):
            return postings_mod.load(search_dir, s.doc_count_all())
        return postings_mod.compute(s)


def clean_query(query: Any) -> tuple[str, list[str]]:
    """Printable, normalised, bounded text; notes say what was changed."""
    notes: list[str] = []
    if not isinstance(query, str):
        query = "" if query is None else str(query)
    text = unicodedata.normalize("NFKC", query)
    text = "".join(" " if unicodedata.category(c)[0] in "CZ" and c != " " else c for c in text)
    text = " ".join(text.split())
    if len(text) > MAX_QUERY_CHARS:
        cut = text.rfind(" ", 0, MAX_QUERY_CHARS)
        text = text[: cut if cut > MAX_QUERY_CHARS // 2 else MAX_QUERY_CHARS]
        notes.append(f"query shortened to its first {len(text)} characters")
    return text, notes


def search(store: Store, query: str, limit: int = 10) -> dict[str, Any]:
    text, notes = clean_query(query)
    try:
        limit = max(1, min(MAX_LIMIT, int(limit)))
    except (TypeError, ValueError):
        limit = 10
    out: dict[str, Any] = {"query": text, "cards": [], "concepts": [], "results": [], "groups": [], "notes": notes,
                           "did_you_mean": []}
    if not text:
        return _empty(out, "the query is empty")
    try:
        eng = engine_for(store)
    except (FileNotFoundError, PostingsError, ValueError) as exc:
        # ValueError: a malformed data table (abbreviations, query phrases), named by file and line
        return _empty(out, str(exc))

    plan = plan_query(eng, text)
    text = plan.text
    out["spelling"] = [c.to_dict() for c in plan.corrections]
    if eng.speller is not None and not plan.in_german:
        out["did_you_mean"] = [a.to_dict(text) for a in
                               eng.speller.ambiguous(text, eng.names, plan.cards, plan.corrections)]
    cards, strong, concepts, stems, q = plan.cards, plan.strong, plan.concepts, plan.stems, plan.query
    out["cards"] = [c.to_dict() for c in cards]
    out["concepts"] = [c.to_dict() for c in concepts]
    if q is None:
        why = explain_empty(text, QUERY_STOP, _suggestable_names(eng.names), _suggestable_words(eng.names))
        out["suggestions"] = why.suggestions
        return _empty(out, why.reason)
    # the best BM25F candidates, re-ranked by the learned model (rerank.py); stored fields are read
    # for the returned ones only
    hits, scenarios = candidates(eng, plan, text, candidate_count(limit))
    ranked = order(eng, plan, hits)
    if not ranked:
        return _empty(out, "nothing in the rules matches these words")
    slugs = list(dict.fromkeys(c.slug for c in strong))
    if not names_version(text):
        ranked = current_first(ranked, eng.previous, eng.owner, lambda sd: sd[1])
    ranked = follow_pointers(ranked, eng.see, eng.owner, slugs)
    ranked = below_own_section(ranked, eng.postings.keys, plan.nearest)
    tier = _tier(eng.postings, slugs)
    # the slots that can be shown: the card entries placed next may push a few below the limit
    slots = show_paragraphs(collapse(ranked, eng.postings.keys, tier), eng.paragraphs,
                            lambda docs: words_score(eng.postings, plan.words or plan.stems, docs), tier,
                            shown=limit + len(slugs) + 2)
    slots = one_german_slot(slots, eng.info.kind if eng.info is not None else [], eng.owner)
    if stems:
        slots = merge_card_entries(slots, slugs, eng.owner, eng.card_doc)
    slots = ensure_own_entries(slots, slugs, eng.owner, eng.card_doc, limit)
    slots = after_current_rule(slots, eng.superseded, lambda s: s.docnum)
    if plan.in_german and eng.info is not None:
        # the card's English ruling answers, its German passage right under it (held-out sets 2-11, the German
        # questions' English keys: R@3 / MRR 0.711 / 0.431 -> 0.778 / 0.662; docs/search.md)
        slots = english_ruling_then_german(slots, eng.info.kind, eng.owner, eng.postings.keys, slugs, eng.card_doc)
    elif eng.info is not None:
        # the page's reordering (card entries) must not lift a German passage above its card's
        # English documents either (the learned order already keeps it below: ``order``)
        slots = [s for s, _ in german_beside_english([(s, s.docnum) for s in slots], eng.info.kind, eng.owner)]
    if not strong:
        # a question naming no card: a rule and its restatements are one hit (measured: held-out 2-11 pooled,
        # counting only the passage each writer read the answer in, R@3 / MRR 0.886 / 0.786 -> 0.902 / 0.799;
        # with a named card the Card Reference is the first answer and grouping cost misspelled questions)
        slots = group_restatements(slots, eng.restates)
    shown = pick_scenario(eng, plan, scenarios, slots[0].docnum if slots else None)
    if shown is not None:
        slots.insert(0, Slot(slots[0].score if slots else shown[0], shown[1]))

    slots = [_answering_paragraph_first(eng, plan, s) for s in slots[:limit]] + slots[limit:]
    highlight_names = _highlight_names(cards, eng.names)
    stem_set = set(stems)
    recognized = {c.slug for c in cards}
    reader = eng.searcher().reader()
    with_facts: set[str] = set()
    for rank, slot in enumerate(slots[:limit], start=1):
        score, docnum = slot.score, slot.docnum
        f = reader.stored_fields(docnum)
        item = {
            "rank": rank,
            "kind": f["kind"],
            "key": f["key"],
            "title": f["title"],
            # a rules question naming no card: its first paragraphs whole (up to a bound), the answer is often
            # their last sentence ("If there still aren't enough cards, move what you can")
            "snippet": snippet(f.get("body") or f["title"], stem_set, highlight_names,
                               **({"window": _QUOTED_CHARS} if rank <= _QUOTED_SLOTS and not strong
                                  and "#p" in f["key"] else {})),
            "url": f["url"],
            "card": f.get("card"),
            "card_name": f.get("card_name"),
            "ruling": f.get("ruling"),
            "section": f.get("section"),
            "cards": [c for c in (f.get("cards") or "").split(",") if c],
            "score": round(score, 3),
            "group": _group_key(f),
            "more": _more(eng.postings.keys, eng.headings, f, slot, reader,
                          _quoted(eng, plan, slot) if rank <= _QUOTED_SLOTS and not strong else set(),
                          stem_set, highlight_names),
            "restated": [_restated(eng, d) for d in slot.restated],
        }
        if docnum in eng.previous:
            version = eng.previous[docnum]
            if f["kind"] == "FAQ":      # the FAQ's clarification of a card changed since (``_versions``)
                version = "Written for the " + version[:1].lower() + version[1:]
            item["previous_version"] = f"{version} of {f.get('card_name') or f['title']}, not the current card"
        answers = _answers(eng, docnum, f.get("asks") or "", plan.asked)
        if answers:
            item["answers"] = answers
        if f["kind"] == SCENARIO:
            item["settles"] = f.get("settles") or ""
            item["cites"] = [c for c in (f.get("cites") or "").split(",") if c]
        if f.get("card") in recognized and f["card"] not in with_facts:
            # the card's first hit carries its facts (its entry may be merged into that slot)
            with_facts.add(f["card"])
            item["facts"], item["first_rulings"] = _card_facts(store, f["card"])
        out["results"].append(item)
    for r in out["results"]:
        if r["key"] in eng.superseded_notes:
            note = eng.superseded_notes[r["key"]]     # {"note", "by": [{key, title, url}]}
            r["superseded"] = {**note, "by": [_named_by_words(eng, b) for b in note["by"]]}
    out["groups"] = _groups(out["results"])
    return out


# How close (idf-weighted Jaccard, rerank.AskedWords) a table question must be to the one typed
# before a hit says it answers it: about two thirds of the weight of both questions' words shared.
ANSWERS_AT = 0.5


def _answers(eng: _Engine, docnum: int, asks: str, asked: AskedWords | None) -> str:
    """The question of corpus/data/rule-questions this hit answers that is closest to the one typed, if it is
    close enough to show the player their own question was understood ("Answers: can I buy nothing?")."""
    questions = eng.info.asks.get(docnum, ()) if eng.info is not None else ()
    if not asks or not questions or asked is None or not asked.total:
        return ""
    score, question = max(zip((asked.similarity(q) for q in questions), asks.split("\n")))
    return question if score >= ANSWERS_AT else ""


def _answering_paragraph_first(eng: _Engine, plan: "QueryPlan", slot: Slot) -> Slot:
    """A slot shows the folded paragraph whose table question is the one typed ("when does the game end"),
    when the paragraph the ranking preferred is not one: the player's own question, answered, first."""
    if eng.info is None or plan.asked is None or not plan.asked.total or not slot.more:
        return slot

    def closest(d: int) -> float:
        return max((plan.asked.similarity(q) for q in eng.info.asks.get(d, ())), default=0.0)

    if closest(slot.docnum) >= ANSWERS_AT:
        return slot
    best = max((d for d in slot.more if "#p" in eng.postings.keys[d]), key=closest, default=None)
    if best is None or closest(best) < ANSWERS_AT:
        return slot
    return Slot(slot.score, best, [slot.docnum, *(d for d in slot.more if d != best)], slot.restated)


def candidate_count(limit: int) -> int:
    """How many documents a page of ``limit`` hits ranks (before the rule and scenario extras)."""
    return max(limit * 3, CANDIDATES)


def candidates(eng: _Engine, plan: "QueryPlan", text: str, n: int) -> tuple[list[tuple[float, int]],
                                                                            list[tuple[float, int]]]:
    """BM25F's best ``n`` documents and the rule passages nearest the question that it left out, and apart
    from them the scenarios among its best (scenarios are placed by ``pick_scenario``, never interleaved
    with the rules they demonstrate)."""
    # a question naming a card has its answer among the card's own documents; one naming none gets
    # rule candidates of its own
    extra = 0 if plan.strong else _RULE_CANDIDATES
    hits = eng.postings.top_with(plan.query, n + _SCENARIO_CANDIDATES, eng.rule_docs, extra)
    if not plan.strong and eng.rule_words is not None and plan.words:
        # a rules question's answer is often best told apart by its common words (a re-ranking feature)
        plan.rule_scores = eng.rule_words.scores(plan.words)
    if eng.pointers:
        hits = sorted(((sc * _POINTER_WEIGHT if d in eng.pointers else sc, d) for sc, d in hits),
                      key=lambda sd: (-sd[0], sd[1]))
    kinds = eng.info.kind if eng.info is not None else None
    keys = eng.postings.keys
    kingdoms = asks_for_kingdoms(text)
    docs, scenarios = [], []
    for sd in hits:
        if keys[sd[1]].startswith(SCENARIO_PREFIX) or (kinds is not None and kinds[sd[1]] == SCENARIO):
            scenarios.append(sd)
        elif kingdoms or not is_kingdom_list(keys[sd[1]]):
            docs.append(sd)
    docs = docs[:n + extra]
    if not names_version(text):
        # a question naming no version is about the current card: its few rulings are always candidates
        fetched = {d for _, d in docs}
        now = [d for c in plan.strong for d in eng.current.get(c.slug, ()) if d not in fetched]
        if now:
            docs += eng.postings.scored(plan.query, list(dict.fromkeys(now)))
    # not for a German question naming a card: its German words have no vector it may read (one naming none reads
    # the German words the German tables taught and the rules' English words, ``plan_query``)
    near = [] if plan.in_german and (plan.strong or not plan.question) else _nearest(eng, plan, {d for _, d in docs})
    plan.nearest = frozenset(near)
    return docs + eng.postings.scored(plan.query, near) if near else docs, scenarios


def _nearest(eng: _Engine, plan: "QueryPlan", fetched: set[int]) -> list[int]:
    """The rule passages and FAQ answers nearest the question (the embedding's) that BM25 did not fetch."""
    if eng.nearest is None:
        return []
    if plan.vector is None:
        plan.vector = eng.info.embedding.question(plan.question) or []
    return eng.nearest.top(plan.vector, _NEAR_CANDIDATES, fetched)


def order(eng: _Engine, plan: "QueryPlan", hits: list[tuple[float, int]]) -> list[tuple[float, int]]:
    """The learned order when a trained model exists (``ranker.json``, scorer.py), else the hand-written rules."""
    model = load_model()
    if model is None or eng.info is None or not hits:
        return _rank(hits, eng.postings, plan.cards, plan.strong, plan.stems)
    ranked = rerank(hits, feature_rows(eng, plan, hits), model)
    if not plan.in_german:
        ranked = german_beside_english(ranked, eng.info.kind, eng.owner)
    else:
        # a German question naming a card is led by that card (issue #34: "Was kostet Burggraben?" was led by
        # an English rulebook paragraph): its German passage first here, and on the page its best English
        # document above it (``english_ruling_then_german``); the rest keeps the learned order
        named = {c.slug for c in plan.strong}
        ranked.sort(key=lambda sd: 0 if eng.info.kind[sd[1]] == "German" and eng.owner.get(sd[1]) in named else 1)
    return ranked


def feature_rows(eng: _Engine, plan: "QueryPlan", hits: list[tuple[float, int]]) -> list[list[float]]:
    concept_keys = {t for c in plan.concepts for t in c.targets}
    german = plan.in_german
    return features(hits, eng.postings, eng.info, stems=plan.stems,
                    named=list(dict.fromkeys(c.slug for c in plan.strong)), owner=eng.owner,
                    card_doc=eng.card_doc, concept_keys=concept_keys, german_query=german, pointers=eng.pointers,
                    words=plan.words, rule_scores=plan.rule_scores, asked=plan.asked,
                    near=nearness(eng, plan, [d for _, d in hits]))


def nearness(eng: _Engine, plan: "QueryPlan", docs: list[int]) -> dict[int, float]:
    """The cosines of ``docs`` to the question (embedding.py), each computed once per question (the
    ranking's feature)."""
    model = eng.info.embedding if eng.info is not None else None
    if model is None:
        return {}
    if plan.vector is None:
        plan.vector = model.question(plan.question) or []
    missing = [d for d in docs if d not in plan.near]
    if plan.vector and missing:
        plan.near.update(model.cosines(plan.vector, missing))
    return plan.near


def pick_scenario(eng: _Engine, plan: "QueryPlan", scenarios: list[tuple[float, int]],
                  top: int | None) -> tuple[float, int] | None:
    """The scenario shown first, above the ranking's first result ``top``, or None. A scenario is never
    placed 2nd-10th: it is first or not shown. It is first only when it wins that place on relevance and
    answers the question: for a question naming two or more cards, a scenario about exactly those cards
    (their interaction played out); otherwise, for two or more cards or for one card and a rule concept
    (citing the concept's section), only one that demonstrates the first result (cites it, its section or
    one of its paragraphs). A scenario citing a previous version of a card is not shown for a question that
    names no version.

    Among those, the one about the fewest other cards wins (a Moat-and-Witch question wants the
    Moat-against-Witch scenario, not the one where Secret Chamber also draws a Moat), then the
    better BM25F score for the question's words.
    """
    named = set(c.slug for c in plan.strong)
    if top is None or not named or (len(named) < 2 and not plan.concepts):
        return None
    top_key = eng.postings.keys[top]
    concept_keys = {t for c in plan.concepts for t in c.targets}
    score = {d: sc for sc, d in scenarios}
    pool = set.intersection(*(set(eng.scenarios_by_card.get(s, ())) for s in named))
    current_only = not names_version(plan.text)
    best = None
    for d in pool:
        cites = set(eng.scenario_cites.get(d, ()))
        if len(named) < 2 and not concept_keys & cites:
            continue
        if current_only and any(eng.docnum.get(c) in eng.previous for c in cites):
            continue        # a question naming no version is about the current cards
        exactly = len(named) >= 2 and set(eng.postings.cards[d]) == named
        if not exactly and not any(_demonstrates(c, top_key) for c in cites):
            continue
        rank = (len(set(eng.postings.cards[d]) - named), -score.get(d, 0.0), d)
        if best is None or rank < best:
            best = rank
    return (-best[1], best[2]) if best is not None else None


def _demonstrates(cited: str, key: str) -> bool:
    """A scenario citing ``cited`` shows the passage ``key`` at work: the same passage, its section, or one
    of its paragraphs."""
    return cited == key or key.startswith(cited + "#p") or cited.startswith(key + "#p")


@dataclass
class QueryPlan:
    """What a cleaned query was understood as, and the Whoosh query (Term/And/Or) that scores it."""

    cards: list[Recognized]
    strong: list[Recognized]
    concepts: list[Concept]
    stems: list[str]
    query: Any
    words: list[str] = field(default_factory=list)      # every stem of the question, common ones too
    rule_scores: dict[int, float] = field(default_factory=dict)   # rule documents scored on all words
    asked: AskedWords | None = None     # the words, idf-weighted, as compared with table questions (rerank.py)
    text: str = ""                      # the question as searched: its misspelt ordinary words corrected
    corrections: list[Correction] = field(default_factory=list)
    in_german: bool = False     # asked in German: its words as searched, and the card names it gave in German
    # the question's own words, card names included and no phrase expanded: as the embedding learned
    # questions (embedding.py)
    question: list[str] = field(default_factory=list)
    near: dict[int, float] = field(default_factory=dict)    # documents' cosines to the question, as computed
    nearest: frozenset[int] = frozenset()   # candidates fetched by the embedding, not by BM25 (``_nearest``)
    printed: str = ""                       # the question with card names typed wrong as printed
    vector: list[float] | None = None                       # the question's vector (embedding.py), once


def plan_query(eng: _Engine, text: str) -> QueryPlan:
    """Recognise cards and concepts in ``text`` (already cleaned) and assemble the scoring query; an
    ordinary word typed wrong is read as the word meant first (``plan.text`` is what was searched)."""
    found = eng.names.find_all(text)
    german = is_german(text, sum(1 for c in found if c.how == "german"))
    if german:
        # read again as German: a misspelt name is one edit from it at most ("doppelt" is no Paddock)
        text = as_printed(text, eng.names.used_word)
        found = eng.names.find_all(text, german_words=eng.german_forms)
    fixes: list[Correction] = []
    if eng.speller is not None and not german:
        fixes = eng.speller.corrections(text, eng.names, found)
        if fixes:
            text = corrected(text, fixes)
            found = eng.names.find_all(text)
    spans = word_readings(text, found)
    cards = dedupe(spans)
    strong = [c for c in cards if not c.weak]
    rest = _remove_spans(text, [c for c in spans if not c.weak and any(c.slug == s.slug for s in strong)])
    # the rulebook's words for the player's phrases ('at the same time' -> 'concurrent') are searched too
    added = eng.phrases.expand(rest)
    if german:
        # and a German question in the rules' English words for its own (corpus/data/german-rule-words.csv): its
        # answer is an English ruling (blind set 12's card questions R@1 0.675 -> 0.775, the tuning lists'
        # English keys 0.722 -> 0.684: kept on the blind figures, docs/search.md)
        have = set(f"{rest} {added}".lower().split())
        added = " ".join([added, *dict.fromkeys(w for w in eng.german_words.expand(rest).split()
                                                if w.lower() not in have)])
    rest = f"{rest} {added}".strip()
    if german:
        rest = without_function_words(rest)
    concepts = _match_concepts(eng.concepts, rest, bool(strong))
    words = list(dict.fromkeys(t.text for t in eng.analyzer(rest)))[:40]
    stems = eng.selective(words)
    printed = _as_printed(text, spans)
    in_german = is_german(text, sum(1 for c in cards if c.how == "german"))
    # a German question naming no card is a rules question: the embedding reads its German words (their vectors are
    # learned from the German question tables, embedding._learn_german) and the rules' English words it was given above
    # (tuning: 45 German rules questions written from the documents, first key R@3 0.267 -> 0.444 with the English
    # words, -> 0.667 with the German ones too, bench/relevance_german_rules_tuning.yaml; docs/search.md); one naming
    # a card reads no German vector (they pulled its ruling down: blind set 12's card questions R@3 0.875 -> 0.725)
    if in_german and not strong:
        question = as_german([t.text for t in eng.analyzer(f"{printed} {added}")][:40])
    else:
        question = [t.text for t in eng.analyzer(printed)][:40]
    return QueryPlan(cards, strong, concepts, stems, _build_query(cards, strong, concepts, stems, rest), words,
                     asked=AskedWords(words or stems, IdfWeights(eng.postings)), text=text, corrections=fixes,
                     question=question, printed=printed, in_german=in_german)


def _as_printed(text: str, spans: list[Recognized]) -> str:
    """``text`` with each card name typed wrong written as printed: the embedding reads the question's
    words, and "snoowy village" is the same question as "snowy village". A misspelling the plural reading
    caught ("fortres" for Fortress) is one too, and so is an abbreviation: "BoM feast" asks what "band of
    misfits feast" asks (held-out sets 2-8 pooled R@3 / MRR 0.924 / 0.836 -> 0.930 / 0.842 when this began
    to write abbreviations out, bench/relevance.py)."""
    for c in sorted((c for c in spans if c.how in ("fuzzy", "plural", "abbreviation")), key=lambda c: -c.start):
        text = text[:c.start] + c.name + text[c.end:]
    return text


# "does X count as Y" asks about two things at once; each side is matched as its own question, so
# a one-word concept ("curse", "gain") is not lost for being part of a longer sentence.
_COUNTS_AS = re.compile(r"\b(?:counts?|counted|counting|considered)\s+(?:as|for)\b", re.I)


def _match_concepts(concepts: ConceptIndex, text: str, specific_only: bool) -> list[Concept]:
    parts = [p for p in _COUNTS_AS.split(text) if p.strip()]
    if len(parts) < 2:
        return concepts.match(text, specific_only=specific_only)
    found: dict[str, Concept] = {}
    for part in parts:
        for c in concepts.match(part, specific_only=specific_only):
            found.setdefault(c.phrase, c)
    return list(found.values())


def _empty(out: dict[str, Any], reason: str) -> dict[str, Any]:
    out["reason"] = reason
    return out


def _remove_spans(text: str, cards: list[Recognized]) -> str:
    for c in sorted(cards, key=lambda c: c.start, reverse=True):
        text = text[: c.start] + " " + text[c.end:]
    return text


def _build_query(cards: list[Recognized], strong: list[Recognized], concepts: list[Concept],
                 stems: list[str], rest: str):
    parts = []
    for s in stems:
        parts.append(Term("text", s))
    for c in cards:
        boost = _WEAK_BOOST if c.weak else _CARD_BOOST[c.how]
        # 'cards': any text naming the card; 'parent': the card's own rulings, FAQ and German passages
        parts += [Term("cards", c.slug, boost=boost), Term("parent", c.slug, boost=boost / 2)]
        if not stems:
            parts.append(Term("key", c.slug, boost=_CARD_KEY_BOOST * boost / _CARD_BOOST["exact"]))
    slugs = list(dict.fromkeys(c.slug for c in strong))
    if len(slugs) >= 2:
        parts.append(And([Term("cards", s) for s in slugs], boost=_ALL_CARDS_BOOST))
    for concept in concepts:
        for target in concept.targets:
            parts += [Term("key", target, boost=_CONCEPT_BOOST), Term("parent", target, boost=_CONCEPT_BOOST / 2)]
    return Or(parts) if parts else None


def _rank(hits: list[tuple[float, int]], postings: Postings, cards: list[Recognized], strong: list[Recognized],
          stems: list[str]) -> list[tuple[float, int]]:
    """(score, docnum) best first. Keys and card lists come from the postings, not stored fields."""
    ranked = list(hits)
    slugs = list(dict.fromkeys(c.slug for c in strong))
    best_how = {c.slug: HOW_RANK[c.how] for c in cards}
    keys = postings.keys

    if len(slugs) >= 2:
        # the interaction question: documents naming every card first, then the best single-card ones
        wanted = set(slugs)
        ranked.sort(key=lambda sd: (-len(wanted.intersection(postings.cards[sd[1]])), -sd[0]))
    elif len(slugs) == 1 and not stems:
        # the query is a card name: its Card Reference entry, then its rulings
        only = slugs[0]
        ranked.sort(key=lambda sd: (0 if keys[sd[1]] == only else 1, -sd[0]))
    elif len(cards) > 1 and not stems:
        # several readings of one name (an abbreviation shared by two cards, or a weak word): exact readings first
        ranked.sort(key=lambda sd: (best_how.get(keys[sd[1]], 9), -sd[0]))
    return ranked


def _quoted(eng: _Engine, plan: "QueryPlan", slot: Slot) -> set[int]:
    """The slot's folded paragraphs to quote on the page: the _QUOTED_MORE that share most of the question's
    words (BM25 on its own words), whatever their place in the learned order."""
    siblings = [d for d in slot.more if "#p" in eng.postings.keys[d]]
    if not siblings:
        return set()
    score = words_score(eng.postings, plan.words or plan.stems, siblings)
    return set(sorted(siblings, key=lambda d: (-score.get(d, 0.0), d))[:_QUOTED_MORE])


def _more(keys: list[str], headings: list[tuple[str, str, str | None, str]], shown: dict, slot: Slot,
          reader=None, quote: set[int] = frozenset(), stems: set[str] = frozenset(),
          names: list[str] = ()) -> list[dict]:
    """The collapsed documents behind a slot (the section itself and its other matching paragraphs).

    They share the slot's heading (``shown``: the slot's own stored fields), so a paragraph is named by
    its own opening words and the section by "whole section", never by the group's title again nor by a
    number ("paragraph 1" says nothing about what it says). The paragraphs in ``quote`` (``_quoted``: the
    first slots of a rules question naming no card) also carry their words as a snippet, read with
    ``reader``: the answer may be in a sibling of the paragraph the ranking preferred, and a player should
    read it on the results page, not behind a link.
    """
    own = {shown.get("title"), shown.get("section")}
    out = []
    for d in slot.more:
        url, title, section, opening = headings[d]
        item = {"key": keys[d], "url": url, "title": title}
        if title in own or section in own:
            whole = keys[d] == shown.get("parent") or not opening
            item["title"] = ("the card itself" if keys[d] == shown.get("card") else "whole section") if whole \
                else f"“{opening}”"
            if not whole and d in quote and reader is not None:
                body = reader.stored_fields(d).get("body") or ""
                # the whole paragraph (up to a bound): the answer is often its last sentence
                item["snippet"] = snippet(body, stems, names, window=_QUOTED_CHARS)
        out.append(item)
    return out


def _restated(eng: _Engine, d: int) -> dict:
    """A restating passage shown with the rule it restates: where it is written, its heading and opening words."""
    url, title, section, opening = eng.headings[d]
    return {"key": eng.postings.keys[d], "url": url, "source": eng.restated_in.get(d, ""),
            "title": f"{section or title}: “{opening}”" if opening else (section or title)}


def _named_by_words(eng: _Engine, link: dict) -> dict:
    """A link to a paragraph named by its section and opening words, not "Your deck, paragraph 1"."""
    d = eng.docnum.get(link.get("key", ""))
    if d is None or "#p" not in link["key"] or not eng.headings[d][3]:
        return link
    _, title, section, opening = eng.headings[d]
    return {**link, "title": f"{section or title}: “{opening}”"}


def _opening(body: str, words: int = 8) -> str:
    """A passage's first few words, as a link to it is named: "When you need a card or cards from…"."""
    head = body.split()
    return " ".join(head[:words]) + ("…" if len(head) > words else "")


# A rules question naming no card: the first this many slots show up to _QUOTED_MORE of their folded
# paragraphs in their own words (``_more``).
_QUOTED_SLOTS = 3
_QUOTED_MORE = 2
_QUOTED_CHARS = 700


def _suggestable_names(names: NameIndex) -> dict[str, str]:
    """Normalised English and German names -> the Card Reference name to suggest."""
    out = {k: names.names[s] for k, s in names.german.items()}
    out.update({k: names.names[s] for k, s in names.exact.items()})
    return out


def _suggestable_words(names: NameIndex) -> list[str]:
    """Corpus words seen a few times (single occurrences are mostly PDF extraction noise), the most used
    first: of words as near to what was typed, the commoner is offered, and the same ones every time."""
    words = [(w, counts[1]) for w, counts in names.vocabulary.items() if counts[1] >= 3 and w.isalpha()]
    return [w for w, _ in sorted(words, key=lambda wc: (-wc[1], wc[0]))]


def _tier(postings: Postings, slugs: list[str]):
    """The interaction ranking's first criterion (named cards a document names), or None without one."""
    if len(slugs) < 2:
        return None
    wanted = set(slugs)
    return lambda d: len(wanted.intersection(postings.cards[d]))


def _highlight_names(cards: list[Recognized], names: NameIndex) -> list[str]:
    out = []
    for c in cards:
        out += [c.name, c.matched]
    return [n for n in dict.fromkeys(out) if n]


def _group_key(f: dict) -> str:
    if f.get("card"):
        return f"card:{f['card']}"
    if f["kind"] == "index term":
        return f["key"]
    return f"section:{f.get('parent') or f['key']}" if "#" in f["key"] else f"section:{f['key']}"


def _groups(results: list[dict]) -> list[dict]:
    groups: dict[str, dict] = {}
    for r in results:
        g = groups.get(r["group"])
        if g is None:
            title = r["card_name"] if r.get("card") else (r.get("section") or r["title"])
            # a pile with no card page of its own (Castles, Ruins; Platinum) heads its German passages with
            # the passage's own place on the German page
            url = (f"/cards/{r['card']}" if r.get("card") and r["url"].startswith(f"/cards/{r['card']}")
                   else r["url"] if r["kind"] == "German" else r["url"].split("#", 1)[0])
            g = groups[r["group"]] = {"group": r["group"], "title": title, "url": url, "ranks": []}
        g["ranks"].append(r["rank"])
    return list(groups.values())


def _card_facts(store: Store, slug: str) -> tuple[dict | None, list[dict]]:
    card = store.row("select * from cards where slug=?", (slug,))
    if card is None:
        return None, []
    facts = {k: card.get(k) for k in ("name", "set", "types", "cost_coins", "cost_potion", "cost_debt",
                                     "text", "german_name", "editions")}
    rulings = store.rows("select key, number, text, anchor from rulings where card=? and version is null "
                         "and kind='ruling' order by ord limit ?", (slug, _FIRST_RULINGS))
    first = [{"key": r["key"], "ruling": r["number"], "text": plain(r["text"]),
              "url": f"/cards/{slug}#{r['anchor']}"} for r in rulings]
    return facts, first


def index_exists(path: Path | None) -> bool:
    return bool(path) and index.exists_in(str(path))
