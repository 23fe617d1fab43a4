"""Store rows -> search documents: one flat shape for everything a player may look for.

The index is built from the store only (never a second parse of the corpus),
so the keys, anchors and titles a hit carries are exactly the ones pages and
the API show. Text is reduced to plain text here, once, so the index, the
snippets and the FTS5 benchmark all see the same words.
"""
from __future__ import annotations

import re

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from app.corpus.addresses import ruling_url, section_url
from app.corpus.card_reference_parser import card_slug
from app.corpus.rule_questions import is_german_table
from app.corpus.symbols import symbol_words
from app.corpus.text import plain
from app.search.vocabulary import index_words, section_terms
from app.store.db import Store

# Display kinds, as the issue names them (plus 'index term' for chapter VIII entries).
CARD, RULING, SECTION, COMMON, FAQ, RULEBOOK, GERMAN, INDEX_TERM, SCENARIO = (
    "card", "ruling", "section", "common effect", "FAQ", "rulebook", "German", "index term", "scenario",
)
SCENARIO_PREFIX = "scenario:"

_SECTION_KIND = {
    "chapter": SECTION, "section": SECTION, "subsection": SECTION, "timing": SECTION,
    "common_effect": COMMON, "faq_section": FAQ, "faq_subsection": FAQ,
    "rulebook_section": RULEBOOK, "german_set": GERMAN,
}

# Sections whose own text is the whole chapter: indexing the body again would
# only duplicate the paragraphs and drown the specific hits.
_TITLE_ONLY = {"chapter", "german_set"}


@dataclass
class SearchDoc:
    key: str
    kind: str
    title: str
    body: str
    url: str
    parent: str = ""            # owning card slug (rulings) or section slug (paragraphs)
    cards: list[str] = field(default_factory=list)   # card slugs the text is about or mentions
    names: str = ""             # card names / German names / abbreviations, for the names field
    card: str | None = None     # Card Reference slug for card-bound hits
    card_name: str | None = None
    ruling: int | None = None
    section: str | None = None  # heading for section/paragraph hits
    settles: str = ""           # scenarios: the narrated log line that settles the question
    cites: list[str] = field(default_factory=list)   # scenarios: store keys of the rulings they demonstrate
    asks: list[str] = field(default_factory=list)   # questions in players' words it answers itself (never the snippet)
    more_asks: list[str] = field(default_factory=list)   # a section's paragraphs' questions: searched, not compared
    german_asks: list[str] = field(default_factory=list)  # the same in German: not searched, taught to the word vectors


def _table(store: Store, table: str, order: str = "ord") -> list[dict]:
    if not store.has_table(table):
        return []
    return store.rows(f"select * from [{table}] order by {order}")


# Chapter IV opens each section with the sets it belongs to ("➤ Nocturne", "➤ *Guilds (Coffers), Renaissance
# (Coffers & Villagers)*"). As a paragraph of its own it won its section's slot on the title's words and showed
# that line as the answer ("are boons and hexes in play"), so it is searched only as part of its section.
SET_LABEL = re.compile(r"➤[^.!?]*")


def iter_documents(store: Store, mentions: Callable[[str], list[str]]) -> Iterator[SearchDoc]:
    """Every searchable object of the store, in store order.

    ``mentions(text)`` returns the card slugs a text names; it feeds the
    ``cards`` field so interaction questions find rulings that name both cards.
    """
    card_names = {r["slug"]: r["name"] for r in _table(store, "cards")}
    sections = {r["slug"]: r for r in _table(store, "sections", "doc, ord")}
    paragraphs: dict[str, list[dict]] = {}
    for p in _table(store, "paragraphs", "section, ord"):
        paragraphs.setdefault(p["section"], []).append(p)

    own_terms = _index_vocabulary(store, sections, paragraphs)
    asks, german_asks = _rule_questions(store)
    for s in sections.values():
        kind = _SECTION_KIND.get(s["kind"], SECTION)
        title = plain(s["title"])
        body = "" if s["kind"] in _TITLE_ONLY else " ".join(plain(p["text"]) for p in paragraphs.get(s["slug"], []))
        aliases = " ".join([*(s.get("aliases") or []), *own_terms.get(s["slug"], [])])
        text = f"{aliases} {body}".strip()
        own = paragraphs.get(s["slug"], [])
        # a section is found by its paragraphs' questions too, but only its own are compared with the question
        # typed (rerank 'asked', "Answers ..."): a paragraph hit says which of them it answers, better than its section
        inner = [q for p in own for q in asks.get(p["key"], [])]
        yield SearchDoc(key=s["slug"], kind=kind, title=title, body=text, url=section_url(s["doc"], s["slug"]),
                        parent=s.get("parent") or "", cards=mentions(f"{title} {text}"), section=title,
                        asks=asks.get(s["slug"], []), more_asks=[] if s["kind"] in _TITLE_ONLY else inner)
        for p in own:
            if SET_LABEL.fullmatch(p["text"].strip()):
                continue        # "➤ Nocturne" answers nothing on its own: its section's document carries it
            ptext = plain(p["text"])
            yield SearchDoc(key=p["key"], kind=kind, title=title, body=ptext,
                            url=f"{section_url(s['doc'], s['slug'])}#{p['anchor']}",
                            parent=s["slug"], cards=mentions(ptext), section=title, asks=asks.get(p["key"], []),
                            more_asks=_words(ptext), german_asks=german_asks.get(p["key"], []))

    german: dict[str, list[str]] = {}
    for g in _table(store, "german_names", "english"):
        if g.get("card"):
            german.setdefault(g["card"], []).append(g["german"])

    for c in _table(store, "cards"):
        bits = [plain(c.get("text") or ""), " ".join(c.get("types") or []), c.get("set") or ""]
        if c.get("redirect"):
            bits.append(f"see {c['redirect']}")
        gnames = sorted(set(german.get(c["slug"], []) + ([c["german_name"]] if c.get("german_name") else [])))
        yield SearchDoc(key=c["slug"], kind=CARD, title=c["name"], body=" ".join(b for b in bits if b),
                        url=f"/cards/{c['slug']}", parent=c["slug"], cards=[c["slug"]],
                        names=" ".join([c["name"], *gnames]), card=c["slug"], card_name=c["name"],
                        more_asks=_words(bits[0]))

    for v in _table(store, "previous_versions"):
        yield SearchDoc(key=v["slug"], kind=CARD, title=f"{v['name']} ({v['title']})", body=v["title"],
                        url=f"/cards/{v['card']}#{v['slug']}", parent=v["card"], cards=[v["card"]],
                        names=v["name"], card=v["card"], card_name=card_names.get(v["card"], v["name"]))

    versions = {v["slug"]: v["title"] for v in _table(store, "previous_versions")}
    for r in _table(store, "rulings", "card, ord"):
        text = plain(r["text"])
        name = card_names.get(r["card"], r["card"])
        if r.get("version"):     # "Band of Misfits (pre-2019) 4", never the internal slug
            name = f"{name} ({version_words(versions.get(r['version'], r['version']))})"
        label = f"{name} {r['number']}" if r["number"] is not None else f"{name} (note)"
        yield SearchDoc(key=r["key"], kind=RULING, title=label, body=text,
                        url=ruling_url(r["card"], r["anchor"]), parent=r["card"],
                        cards=_unique([r["card"], *mentions(text)]), names=name,
                        card=r["card"], card_name=name, ruling=r["number"], asks=asks.get(r["key"], []),
                        more_asks=_words(text))

    for t in _table(store, "index_terms"):
        body = " ".join(x for x in [plain(t.get("definition") or ""), " ".join(t.get("see") or [])] if x)
        yield SearchDoc(key=f"index:{t['slug']}", kind=INDEX_TERM, title=plain(t["term"]), body=body,
                        url=f"/rules/viii-index#{t['slug']}", cards=mentions(body), section=plain(t["term"]))

    for f in _table(store, "faq_clarifications", "card_name, ord"):
        text = plain(f["text"])
        card = f.get("card")
        url = f"/cards/{card}#faq-c{f['ord']}" if card in card_names else f"/faq#{f['key']}"
        yield SearchDoc(key=f["key"], kind=FAQ, title=f"{f['card_name']} — {f['label']}" if f.get("label") else f["card_name"], body=text, url=url,
                        parent=card or "", cards=_unique(([card] if card else []) + mentions(text)),
                        names=f["card_name"], card=card, card_name=card_names.get(card or "", f["card_name"]),
                        asks=asks.get(f["key"], []), more_asks=_words(text))

    for b in _table(store, "rulebook_cards"):
        text = plain(b["text"])
        card = b.get("card")
        url = f"/cards/{card}#rulebook" if card in card_names else f"/adventures#{b['slug']}"
        yield SearchDoc(key=b["key"], kind=RULEBOOK, title=b["name"], body=text, url=url,
                        parent=card or "", cards=_unique(([card] if card else []) + mentions(text)),
                        names=b["name"], card=card, card_name=card_names.get(card or "", b["name"]),
                        more_asks=_words(text))

    for g in _table(store, "german_passages"):
        card = g.get("card")
        english = g.get("english_name") or card_names.get(card or "", "")
        title = f"{g['german_name']} ({english})" if english else g["german_name"]
        # a pile with no page of its own (Castles, Ruins; Platinum) keeps its passage on the German page
        url = f"/cards/{card}#{g['key']}" if card in card_names else f"/german#{g['key']}"
        yield SearchDoc(key=g["key"], kind=GERMAN, title=title, body=plain(g["text"]), url=url,
                        parent=card or "", cards=[card] if card else [],
                        names=" ".join(x for x in [g["german_name"], english] if x),
                        card=card, card_name=english or None)


    yield from scenario_documents(store, mentions)


def _rule_questions(store: Store) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Paragraph or section key -> the players' questions it answers (``app/corpus/rule_questions.py``), in
    English and in German."""
    out: dict[str, list[str]] = {}
    german: dict[str, list[str]] = {}
    for q in _table(store, "rule_questions", "file, line"):
        into = german if is_german_table(q["file"]) else out
        into.setdefault(q["target"], []).append(q["question"])
    return out, german


def _index_vocabulary(store: Store, sections: dict[str, dict], paragraphs: dict[str, list[dict]]) -> dict[str, list[str]]:
    """Section slug -> the chapter VIII index terms pointing at it (``vocabulary.py``), as searchable words."""
    terms = _table(store, "index_terms")
    if not terms:
        return {}
    texts = {slug: f"{plain(s['title'])} " + " ".join(plain(p["text"]) for p in paragraphs.get(slug, []))
             for slug, s in sections.items()}
    return {slug: [index_words(t) for t in names] for slug, names in
            section_terms(sections.values(), texts, terms).items()}


def scenario_documents(store: Store, mentions: Callable[[str], list[str]]) -> Iterator[SearchDoc]:
    """Each replayed scenario (store table ``scenarios``): its title, cards, cited rulings and settling line.

    The text holds the title, the settling line and the cited rulings' own words, so a question
    worded like the ruling finds the scenario that shows it. ``cards`` holds the cards the
    scenario is about -- named in its title or in the rulings it cites -- not every card of its
    setup: a Village dealt to make up a hand does not make it a Throne Room + Village answer.
    """
    if not store.has_table("scenarios"):
        return
    cited_text = _cited_texts(store)
    for sc in store.scenarios():
        cites = [str(k) for k in sc.get("ruling_keys") or []]
        words = " ".join(t for t in (cited_text.get(k, "") for k in cites) if t)
        cited_cards = [card_slug(str(r["card"])) for r in sc.get("rulings") or [] if "card" in r]
        involved = {card_slug(n) for n in sc.get("cards") or []}
        slugs = _unique([c for c in [*mentions(plain(sc["title"])), *cited_cards] if c in involved or c in cited_cards])
        yield SearchDoc(key=f"{SCENARIO_PREFIX}{sc['key']}", kind=SCENARIO, title=plain(sc["title"]),
                        body=" ".join(f"{plain(sc.get('settles') or '')} {words}".split()),
                        url=f"/scenarios/{sc['key']}", cards=slugs, names=" ".join(sc.get("cards") or []),
                        section=plain(sc["title"]), settles=plain(sc.get("settles") or ""), cites=cites)


def _cited_texts(store: Store) -> dict[str, str]:
    """Store key -> plain text, for the rulings and sections scenarios cite."""
    out = {r["key"]: " ".join(plain(r["text"] or "").split()) for r in _table(store, "rulings")}
    for s in _table(store, "sections", "doc, ord"):
        out.setdefault(s["key"], plain(s["title"]))
    return out


def version_words(title: str) -> str:
    """"Pre-2019 version" -> "pre-2019"."""
    t = title.strip()
    t = t[:-len(" version")] if t.lower().endswith(" version") else t
    return t[:1].lower() + t[1:]


def _words(text: str) -> list[str]:
    """The text's symbols in words ("+$2" -> "+2 coins"), searched beside it, never shown (app/corpus/symbols.py)."""
    words = symbol_words(text)
    return [words] if words else []


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(i for i in items if i))
