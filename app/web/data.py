"""What each page shows, assembled once for both the HTML page and its JSON twin.

Pages and the API call the same functions, so ``/cards/feast`` and
``/api/cards/feast`` can never disagree. Each function takes the read-only
store and the renderer; the results carry both the corpus text and its safe
HTML, plus the URLs of everything they link to.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from app.corpus.model import slugify
from app.corpus.text import plain
from app.store.db import Store
from app.web import replay as rp
from app.web.definition_words import definition_words
from app.corpus.addresses import doc_url
from app.web.render import INDEX_URL, Renderer, section_url, source_url

DOC_TITLES = {"rules": "Complete Rules", "faq": "BGG FAQ", "adventures": "Adventures rulebook",
              "german": "German dividers"}


class NotFound(Exception):
    """A slug or id that names nothing; ``nearest`` suggests what the user may have meant."""

    def __init__(self, what: str, key: str, nearest: list[dict[str, str]] | None = None):
        self.what, self.key, self.nearest = what, key, nearest or []
        super().__init__(f"no {what} {key!r}")


def _ruling_view(r: dict[str, Any], renderer: Renderer, skip_card: str | None) -> dict[str, Any]:
    links = r.get("links", [])
    anchor = r["anchor"]
    text = r["text"]
    label = r.get("label")
    if label and text.startswith(f"{label}:**"):
        text = "**" + text        # the extraction lost the opening ** of the bold label
    body, leftover = renderer.render(text, links, inline=True, skip_card=skip_card)
    return {
        "key": r["key"], "anchor": anchor, "number": r.get("number"), "printed": r.get("printed"),
        "kind": r.get("kind"), "label": label, "line": r.get("line"), "text": r["text"],
        "html": body,
        "links": [{"text": plain(x["text"]), "target_type": x.get("target_type"), "target_key": x.get("target_key"),
                   "resolved": bool(x.get("resolved")), "url": u.url}
                  for x, u in zip(links, renderer.links_for(links))],
        "see_also": [{"text": u.text, "url": u.url} for u in leftover],
    }


def _source_label(store: Store | None, source_type: str | None, key: str) -> str:
    """A back-link as a player names it: "Citadel 1", "Throne Room (note)", a section's title; never a key."""
    base, _, anchor = key.partition("#")
    if store is not None and source_type == "ruling":
        card = store.row("select name from cards where slug=?", (base,))
        if card is None and store.has_table("previous_versions"):
            card = store.row("select title as name from previous_versions where slug=?", (base,))
        name = card["name"] if card else base.replace("-", " ").title()
        if anchor[:1] == "r" and anchor[1:].isdigit():
            return f"{name} {anchor[1:]}"
        return f"{name} (note)"
    if store is not None and source_type in ("paragraph", "faq") and store.has_table("sections"):
        sec = store.row("select title, doc from sections where slug=?", (base,))
        if sec:
            prefix = "BGG FAQ: " if sec["doc"] == "faq" else ""
            return prefix + plain(sec["title"])
    if source_type == "index_term":
        return "Index: " + base.replace("-", " ")
    return base.replace("-", " ")


def _backlink_view(refs: list[dict[str, Any]], renderer: Renderer, store: Store | None = None) -> list[dict[str, Any]]:
    out, seen = [], set()
    for ref in refs:
        if ref["source_key"] in seen:
            continue
        seen.add(ref["source_key"])
        out.append({"source_type": ref["source_type"], "source_key": ref["source_key"],
                    "label": _source_label(store, ref["source_type"], ref["source_key"]),
                    "text": plain(ref["text"]), "line": ref["line"],
                    "url": source_url(ref["source_type"], ref["source_key"], renderer.version_card)})
    return out


_DISAGREE_KIND = {"faq": "BGG FAQ", "german": "German divider", "card text": "card text (dominion-setup)",
                  "rules": "an older ruling of the Complete Rules"}


def card_disagreements(store: Store, slug: str | None = None) -> list[dict[str, Any]]:
    """Where the sources disagree (app/corpus/disagreements.py): the losing source, the note, the winning ruling."""
    if not store.has_table("disagreements"):
        return []
    rows = store.rows("select * from disagreements where card = ? order by kind, line", (slug,)) if slug else \
        store.rows("select * from disagreements order by card, kind, line")
    return [{"card": r["card"], "kind": r["kind"], "source": _DISAGREE_KIND.get(r["kind"], r["kind"]),
             "other": r["other"], "winner": r["winner"], "note": r["note"], "url": f"/cards/{r['card']}"}
            for r in rows]


def disagreements_view(store: Store) -> dict[str, Any]:
    """Every place the sources disagree, one URL (page and JSON): the Complete Rules win each time."""
    names = {r["slug"]: r["name"] for r in store.rows("select slug, name from cards")}
    items = card_disagreements(store)
    anchors = {r["key"]: r["anchor"] for r in store.rows("select key, anchor, card from rulings")} \
        if items else {}
    for d in items:
        d["name"] = names.get(d["card"], d["card"])
        shown_beside = d["other"] if d["kind"] == "rules" else d["winner"]     # a ruling on this card's page
        if shown_beside in anchors:
            d["url"] = f"/cards/{d['card']}#{anchors[shown_beside]}"
    return {"count": len(items), "disagreements": items}


def entry_for_pile(store: Store, slug: str) -> str | None:
    """The Card Reference entry of a pile players name in the plural ("knights" -> the Knight entry), or None."""
    if not slug.endswith("s") or store.rows("select 1 from cards where slug = ?", [slug]):
        return None
    hit = store.rows("select slug from cards where slug = ? and kind = 'type'", [slug[:-1]])
    return hit[0]["slug"] if hit else None


def card_view(store: Store, renderer: Renderer, slug: str, scenarios: "ScenarioIndex",
              facts: Any = None) -> dict[str, Any]:
    card = store.card_detail(slug)
    if card is None:
        near = store.nearest_cards(slug.replace("-", " "))
        raise NotFound("card", slug, [{"name": n, "url": f"/cards/{slugify(n)}"} for n in near])
    view: dict[str, Any] = {k: v for k, v in card.items()
                            if k not in ("rulings", "previous_versions", "faq", "referred_by", "rulebook",
                                         "german_passages", "timing")}
    view["url"] = f"/cards/{slug}"
    view["rulings"] = [_ruling_view(r, renderer, slug) for r in card["rulings"]]
    view["previous_versions"] = [
        {"slug": v["slug"], "title": v["title"], "name": v["name"], "line": v["line"],
         "rulings": [_ruling_view(r, renderer, slug) for r in v["rulings"]]}
        for v in card["previous_versions"]]
    view["faq"] = [{"label": f["label"], "text": f["text"], "key": f["key"], "line": f["line"], "ord": f["ord"],
                    "html": renderer.html(f["text"], inline=True, skip_card=slug),
                    "superseded": f.get("superseded")} for f in card["faq"]]
    view["rulebook"] = [{"name": b["name"], "kind": b["kind"], "text": b["text"], "line": b["line"],
                         "html": renderer.html(b["text"], skip_card=slug)} for b in card["rulebook"]]
    view["german_passages"] = [{"key": g["key"], "german_name": g["german_name"], "set": g["set"], "text": g["text"],
                                "line": g["line"]} for g in card["german_passages"]]
    view["timing"] = {"slug": card["timing"]["slug"], "title": card["timing"]["title"],
                      "url": section_url("rules", card['timing']['slug'])} if card.get("timing") else None
    view["disagreements"] = card_disagreements(store, slug)
    for d in view["disagreements"]:
        for rv in view["rulings"] + [r for v in view["previous_versions"] for r in v["rulings"]]:
            # beside the ruling that wins, or (the Complete Rules against themselves) the one that no longer holds
            if rv["key"] == d["winner"] or (d["kind"] == "rules" and rv["key"] == d["other"]):
                rv.setdefault("disagree", []).append(d)
                d["url"] = f"/cards/{slug}#{rv['anchor']}"
    view["referred_by"] = _backlink_view(card["referred_by"], renderer, store)
    view["redirect_url"] = None
    if card.get("redirect"):
        target = store.find_card(plain(card["redirect"]))
        view["redirect_url"] = f"/cards/{target['slug']}" if target else None
    view["definition"] = definition_words(card["name"])
    view["scenarios"] = _card_scenarios(card["name"], scenarios, facts or scenarios.facts)
    _attach_scenarios(view, slug)
    for r in view["rulings"]:
        r["see_text"] = _see_text(store, renderer, r)
    return view


def _card_scenarios(name: str, scenarios: "ScenarioIndex", facts: Any) -> list[dict[str, Any]]:
    """Every scenario that involves the card: those citing its rulings first, then those it plays a part in."""
    out: dict[str, dict[str, Any]] = {}
    for hit in scenarios.citing(name):
        out[hit["id"]] = hit
    for row in (facts.involving(name) if facts is not None else []):
        out.setdefault(row["key"], {"id": row["key"], "title": row["title"], "url": f"/scenarios/{row['key']}",
                                    "rulings": [], "cites": []})
    return list(out.values())


def _attach_scenarios(view: dict[str, Any], slug: str) -> None:
    """Each ruling knows the scenarios that demonstrate it (shown folded: "shown in N scenarios")."""
    def proving(version_slug: str | None, number: int | None) -> list[dict[str, str]]:
        return [{"title": s["title"], "url": s["url"]} for s in view["scenarios"]
                if any(c["ruling"] == number and (f"{slug}-{c['version']}" if c["version"] else None) == version_slug
                       for c in s["cites"])]

    for r in view["rulings"]:
        r["scenarios"] = proving(None, r.get("number"))
    for v in view["previous_versions"]:
        for r in v["rulings"]:
            r["scenarios"] = proving(v["slug"], r.get("number"))


_SEE_ONLY = 140   # a ruling this short that starts "See" is a pointer, not a ruling of its own


def _see_text(store: Store, renderer: Renderer, r: dict[str, Any]) -> list[dict[str, Any]]:
    """For a ruling that only says "See PLAY A CARD MULTIPLE TIMES": the target's own words, to unfold in place."""
    text = plain(r["text"]).strip()
    if not text.lower().startswith(("see ", "also see ")) or len(text) > _SEE_ONLY:
        return []
    out = []
    for link in r["links"]:
        if not link["resolved"] or not link["url"] or link["target_type"] not in ("section", "paragraph"):
            continue
        slug, _, anchor = (link["target_key"] or "").partition("#")
        sec = store.section(slug)
        if sec is None:
            continue
        paras = sec["paragraphs"]
        if anchor:
            paras = [p for p in paras if (p.get("anchor") or f"p{p['ord']}") == anchor] or paras
        paras = paras[:4]
        out.append({"title": link["text"], "url": link["url"],
                    "html": "".join(renderer.html(p["text"], p["links"]) for p in paras),
                    "more": len(sec["paragraphs"]) > len(paras)})
        if len(out) == 2:
            break
    return out


def section_view(store: Store, renderer: Renderer, slug: str) -> dict[str, Any]:
    sec = store.section(slug)
    if sec is None:
        rows = store.rows("select slug, title, doc from sections") if store.has_table("sections") else []
        import difflib
        titles = {r["title"].lower(): r for r in rows}
        near = difflib.get_close_matches(slug.replace("-", " "), list(titles), n=5, cutoff=0.5)
        raise NotFound("section", slug, [{"name": titles[t]["title"], "url": section_url(titles[t]["doc"], titles[t]["slug"])}
                                         for t in near])
    doc = sec["doc"]
    view = {k: sec[k] for k in ("slug", "doc", "kind", "title", "line", "chapter", "parent", "page", "page_end",
                                "aliases")}
    view["url"] = section_url(doc, slug)
    view["doc_title"] = DOC_TITLES.get(sec["doc"], sec["doc"])
    view["doc_url"] = doc_url(sec["doc"])
    view["breadcrumbs"] = [{"slug": b["slug"], "title": b["title"], "url": section_url(doc, b['slug'])}
                           for b in sec["breadcrumbs"]]
    view["children"] = [{"slug": c["slug"], "title": c["title"], "kind": c["kind"], "url": section_url(doc, c['slug'])}
                        for c in sec["children"]]
    view["paragraphs"] = []
    for p in sec["paragraphs"]:
        body, leftover = renderer.render(p["text"], p["links"])
        view["paragraphs"].append({
            "key": p["key"], "anchor": p.get("anchor") or f"p{p['ord']}", "number": p.get("number"),
            "label": p.get("label"), "line": p["line"], "text": p["text"], "html": body,
            "see_also": [{"text": u.text, "url": u.url} for u in leftover], "superseded": p.get("superseded")})
    view["referred_by"] = _backlink_view(sec["referred_by"], renderer, store)
    view["previous"] = {"title": sec["previous"]["title"], "url": section_url(doc, sec['previous']['slug'])} \
        if sec.get("previous") else None
    view["next"] = {"title": sec["next"]["title"], "url": section_url(doc, sec['next']['slug'])} \
        if sec.get("next") else None
    view["cards"] = [{"name": c["name"], "url": f"/cards/{c['slug']}", "kind": c["kind"]}
                     for c in sec.get("cards", [])]
    view["index"] = index_view(store, renderer) if view["url"] == INDEX_URL else None
    return view


def toc_view(store: Store, doc: str) -> dict[str, Any]:
    """One document's sections in order, with depth for indentation."""
    return {"doc": doc, "title": DOC_TITLES.get(doc, doc),
            "sections": [{"slug": s["slug"], "title": s["title"], "kind": s["kind"], "depth": s["depth"],
                          "page": s["page"], "url": section_url(doc, s['slug'])} for s in store.sections_of(doc)]}


def index_view(store: Store, renderer: Renderer) -> dict[str, Any]:
    letters: dict[str, list[dict[str, Any]]] = {}
    for t in store.index_terms():
        first = plain(t["term"])[:1].upper()
        letter = first if first.isalpha() else "#"
        # "see X" targets were resolved once, at build time (app.corpus.references): link what they resolved to.
        resolved = {u.text: u.url for u in renderer.links_for(store.links_from(t["key"]))}
        see = [{"text": plain(target), "url": resolved.get(plain(target))} for target in t.get("see") or []]
        letters.setdefault(letter, []).append({
            "slug": t["slug"], "term": plain(t["term"]), "definition": t.get("definition"),
            "pages": t.get("pages") or [], "main_pages": t.get("main_pages") or [], "see": see,
        })
    return {"letters": [{"letter": k, "terms": v} for k, v in sorted(letters.items())]}


def faq_view(store: Store, renderer: Renderer) -> dict[str, Any]:
    cards = []
    for c in store.faq_for_card_names():
        items = store.faq_clarifications(c["card_name"])
        old = store.superseded([f["key"] for f in items])
        cards.append({"card_name": c["card_name"], "anchor": f"faq-{slugify(c['card_name'])}",
                      "url": f"/cards/{c['card']}" if c["card"] else None,
                      "clarifications": [{"label": f["label"], "text": f["text"], "line": f["line"], "key": f["key"],
                                          "html": renderer.html(f["text"], inline=True),
                                          "superseded": old.get(f["key"])} for f in items]})
    return {**toc_view(store, "faq"), "cards": cards}


def rulebook_view(store: Store, renderer: Renderer) -> dict[str, Any]:
    return {**toc_view(store, "adventures"),
            "cards": [{"name": b["name"], "kind": b["kind"], "slug": b["slug"], "line": b["line"],
                       "url": f"/cards/{b['card']}" if b.get("card") else None,
                       "html": renderer.html(b["text"])} for b in store.rulebook_cards()]}


def german_view(store: Store) -> dict[str, Any]:
    rows = store.rows("select * from german_passages order by ord") if store.has_table("german_passages") else []
    return {**toc_view(store, "german"),
            "passages": [{"key": g["key"], "set": g["set"], "german_name": g["german_name"],
                          "english_name": g.get("english_name"), "text": g["text"], "line": g["line"],
                          "url": f"/cards/{g['card']}#{g['key']}" if g.get("card") else None} for g in rows]}


def cards_view(store: Store) -> dict[str, Any]:
    rows = store.rows("select slug, name, kind, [set], cost_coins, cost_potion, cost_debt, types from cards "
                      "order by name collate nocase")
    return {"cards": [{**r, "url": f"/cards/{r['slug']}"} for r in rows]}


# ---------------------------------------------------------------------------- scenarios
@dataclass
class ScenarioIndex:
    """Scenario files by id and the cards they demonstrate; read once per build, replays memoised.

    One instance lives per build (``Services``, see ``app/store/swap.py``), and
    the files are read-only, so the listing and the by-card index are made once,
    on first use or by ``warm()`` at worker start, never per request: reading all
    the files takes a second or more, and no query string can make it happen again.
    """

    _by_card: dict[str, list[dict[str, Any]]] | None = None
    _listing: list[dict[str, Any]] | None = None
    facts: Any = None            # ScenarioFacts: which scenarios involve which cards (the store's tables)
    _replays: dict[str, dict[str, Any]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _read_lock: threading.Lock = field(default_factory=threading.Lock)
    reads: int = 0          # how many times the files were read (the tests hold this at one)

    def _read_all(self) -> None:
        with self._read_lock:
            if self._by_card is not None and self._listing is not None:
                return
            by_card: dict[str, list[dict[str, Any]]] = {}
            listing: list[dict[str, Any]] = []
            for sid in rp.scenario_ids():
                try:
                    scen = rp.load_id(sid)
                except rp.BadScenario as exc:
                    listing.append({"id": sid, "title": sid, "url": f"/scenarios/{sid}", "error": str(exc)})
                    continue
                except rp.ReplayUnavailable:
                    continue
                if scen is None:
                    continue
                listing.append({"id": sid, "title": scen.title, "url": f"/scenarios/{sid}"})
                for r in scen.rulings:
                    if "card" in r:
                        by_card.setdefault(r["card"].lower(), []).append(
                            {"id": sid, "title": scen.title, "ruling": r.get("ruling"), "version": r.get("version"),
                             "url": f"/scenarios/{sid}"})
            self._by_card, self._listing = by_card, listing
            self.reads += 1

    def _index(self) -> dict[str, list[dict[str, Any]]]:
        if self._by_card is None:
            self._read_all()
        assert self._by_card is not None
        return self._by_card

    def warm(self) -> None:
        """Read the files now (at worker start), so no request pays for it.

        Replays stay lazy: replaying every file would hold up the server's start
        by several seconds, and a page replays only the few scenarios it shows.
        """
        self._read_all()

    def citing(self, name: str) -> list[dict[str, Any]]:
        """Scenarios citing one of the card's rulings, with those rulings (no replay: a card page stays fast)."""
        merged: dict[str, dict[str, Any]] = {}
        for hit in self._index().get(name.lower(), []):
            m = merged.setdefault(hit["id"], {"id": hit["id"], "title": hit["title"], "url": hit["url"],
                                              "rulings": [], "cites": []})
            if hit["ruling"] is not None:
                m["rulings"].append(f"{hit['ruling']} ({hit['version']})" if hit["version"] else hit["ruling"])
                m["cites"].append({"ruling": hit["ruling"], "version": hit["version"]})
        return list(merged.values())

    def listing(self) -> list[dict[str, Any]]:
        if self._listing is None:
            self._read_all()
        assert self._listing is not None
        return [dict(item) for item in self._listing]

    def replay(self, sid: str) -> dict[str, Any]:
        hit = self._replays.get(sid)
        if hit is not None:
            return hit
        scen = rp.load_id(sid)
        if scen is None:
            raise NotFound("scenario", sid, [{"name": s, "url": f"/scenarios/{s}"} for s in
                                             __import__("difflib").get_close_matches(sid, rp.scenario_ids(), n=5)])
        out = rp.replay(scen).as_dict()
        out["id"] = sid
        out["url"] = f"/scenarios/{sid}"
        out["source"] = rp.scenario_path(sid).read_text(encoding="utf-8")
        with self._lock:
            self._replays[sid] = out
        return out
