"""Read-only access to the store. Everything that shows data reads it through here.

The file is opened with SQLite's ``mode=ro`` URI, so nothing that serves
requests can change it; a rebuild replaces the file atomically (see
``build.py``) and the next ``Store`` opened sees the new one.
"""
from __future__ import annotations

import difflib
import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

from app import config
from app.corpus.addresses import ruling_url, section_url
from app.corpus.card_reference_parser import card_slug

JSON_COLUMNS = {"pages", "main_pages", "see", "aliases", "editions", "types"}
# The scenarios table's JSON columns (SCENARIO_STORE.md); "rulings" is a column name only there.
SCENARIO_JSON = ("sets", "cards", "rulings", "ruling_keys", "log")


class StoreMissing(Exception):
    """The store has not been built yet (run ``rulings build``)."""


def _decode(row: sqlite3.Row | None) -> dict[str, Any] | None:
    if row is None:
        return None
    out = dict(row)
    for k in JSON_COLUMNS & out.keys():
        if isinstance(out[k], str):
            out[k] = json.loads(out[k])
    return out


class Store:
    def __init__(self, path: Path | None = None):
        self.path = Path(path or config.db_path())
        if not self.path.exists():
            raise StoreMissing(f"{self.path} does not exist; run 'rulings build'")
        self._local = threading.local()
        self.meta = dict(self.conn.execute("select key, value from meta").fetchall())
        self._names: list[tuple[str, str]] | None = None

    # -- plumbing ---------------------------------------------------------
    @property
    def conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, check_same_thread=False)
            conn.row_factory = sqlite3.Row
            self._local.conn = conn
        return conn

    def rows(self, sql: str, params: tuple | dict = ()) -> list[dict[str, Any]]:
        return [_decode(r) for r in self.conn.execute(sql, params).fetchall()]

    def row(self, sql: str, params: tuple | dict = ()) -> dict[str, Any] | None:
        return _decode(self.conn.execute(sql, params).fetchone())

    def has_table(self, name: str) -> bool:
        return self.conn.execute(
            "select 1 from sqlite_master where type='table' and name=?", (name,)
        ).fetchone() is not None

    def count(self, table: str, where: str = "", params: tuple = ()) -> int:
        if not self.has_table(table):
            return 0
        return self.conn.execute(f"select count(*) from [{table}] {where}", params).fetchone()[0]

    @property
    def search_dir(self) -> Path | None:
        name = self.meta.get("search_dir")
        return self.path.parent / name if name else None

    # -- counts -----------------------------------------------------------
    def stats(self) -> dict[str, int]:
        c = self.count
        return {
            "chapters": c("sections", "where kind='chapter'"),
            "sections": c("sections", "where doc='rules' and kind='section'"),
            "subsections": c("sections", "where doc='rules' and kind='subsection'"),
            "paragraphs": c("paragraphs"),
            "common_effects": c("sections", "where kind='common_effect'"),
            "cards": c("cards"),
            "cards_with_facts": c("cards", "where facts_source is not null"),
            "cards_unjoined": c("unjoined"),
            "rulings": c("rulings", "where kind='ruling'"),
            "notes": c("rulings", "where kind='note'"),
            "previous_versions": c("previous_versions"),
            "timing_entries": c("sections", "where kind='timing'"),
            "index_terms": c("index_terms"),
            "faq_sections": c("sections", "where kind='faq_section'"),
            "faq_subsections": c("sections", "where kind='faq_subsection'"),
            "faq_clarifications": c("faq_clarifications"),
            "faq_cards": self.conn.execute(
                "select count(distinct card_name) from faq_clarifications"
            ).fetchone()[0] if self.has_table("faq_clarifications") else 0,
            "rulebook_sections": c("sections", "where kind='rulebook_section'"),
            "rulebook_descriptions": c("rulebook_cards"),
            "german_names": c("german_names"),
            "cards_with_german_name": c("cards", "where german_name is not null"),
            "german_passages": c("german_passages"),
            "references": c("refs"),
            "references_resolved": c("refs", "where resolved"),
            "references_corrected": c("refs", "where corrected"),
        }

    # -- cards ------------------------------------------------------------
    def card_names(self) -> list[tuple[str, str]]:
        if self._names is None:
            self._names = [(r["slug"], r["name"]) for r in self.rows("select slug, name from cards order by ord")]
        return self._names

    def find_card(self, name: str) -> dict[str, Any] | None:
        """Exact match ignoring case, apostrophe and dash variants (via the slug)."""
        # The same slug rule the Card Reference parser gave the entries ('Your +1 Card token').
        slug = card_slug(name)
        card = self.row("select * from cards where slug=?", (slug,))
        if card is None and self.has_table("german_names"):
            hit = self.row("select card from german_names where lower(german)=lower(?) and card is not null", (name.strip(),))
            if hit:
                card = self.row("select * from cards where slug=?", (hit["card"],))
        return card

    # -- scenarios --------------------------------------------------------
    def _scenario_rows(self, sql: str, params: tuple = ()) -> list[dict[str, Any]]:
        if not self.has_table("scenarios"):
            return []
        out = []
        for r in self.conn.execute(sql, params).fetchall():
            row = dict(r)
            for k in SCENARIO_JSON:
                if isinstance(row.get(k), str):
                    row[k] = json.loads(row[k])
            row["ok"] = bool(row.get("ok"))
            out.append(row)
        return out

    def scenarios(self) -> list[dict[str, Any]]:
        """Every scenario the build replayed, in key order, JSON columns decoded."""
        return self._scenario_rows("select * from scenarios order by key")

    def scenarios_for_card(self, name: str) -> list[dict[str, Any]]:
        """Every scenario whose setup, steps, answers or cited rulings involve the card ``name`` (any spelling
        ``find_card`` accepts)."""
        card = self.find_card(name)
        names = {name.strip()}
        if card is not None:
            names.add(card["name"])
            if card.get("redirect"):
                names.add(card["redirect"])
        marks = ",".join("?" * len(names))
        return self._scenario_rows(
            f"select s.* from scenarios s where s.key in (select scenario from scenario_cards "
            f"where card in ({marks}) collate nocase) order by s.key", tuple(names))

    # -- sections ---------------------------------------------------------
    def section(self, slug: str) -> dict[str, Any] | None:
        """A section with what its page needs: breadcrumbs, children, paragraphs with links, neighbours."""
        sec = self.row("select * from sections where slug=?", (slug,))
        if sec is None:
            return None
        sec["breadcrumbs"] = self.breadcrumbs(sec)
        sec["children"] = self.rows(
            "select slug, title, kind, chapter, page from sections where parent=? order by ord", (slug,))
        paragraphs = self.rows("select * from paragraphs where section=? order by ord", (slug,)) \
            if self.has_table("paragraphs") else []
        links = self._links_by_source([p["key"] for p in paragraphs])
        old = self.superseded([p["key"] for p in paragraphs]) if sec["doc"] == "faq" else {}
        for p in paragraphs:
            p["links"] = links.get(p["key"], [])
            if p["key"] in old:
                p["superseded"] = old[p["key"]]
        sec["paragraphs"] = paragraphs
        sec["referred_by"] = self.backlinks(slug, prefix=True)
        sec["previous"] = self.row(
            "select slug, title from sections where doc=? and ord<? order by ord desc limit 1", (sec["doc"], sec["ord"]))
        sec["next"] = self.row(
            "select slug, title from sections where doc=? and ord>? order by ord limit 1", (sec["doc"], sec["ord"]))
        if sec["kind"] == "section" and sec["title"] == "Card Reference":
            sec["cards"] = self.rows("select slug, name, kind, redirect from cards order by ord")
        return sec

    def superseded(self, keys: list[str]) -> dict[str, dict[str, Any]]:
        """FAQ passage key -> what the Complete Rules rule now (corpus/data/faq-superseded.csv): the note
        and a link to each passage that says it. Only the keys given that the table lists."""
        if not keys or not self.has_table("faq_superseded"):
            return {}
        out: dict[str, dict[str, Any]] = {}
        for i in range(0, len(keys), 500):
            chunk = keys[i:i + 500]
            marks = ",".join("?" * len(chunk))
            for r in self.rows(f"select faq, [by], note from faq_superseded where faq in ({marks})", tuple(chunk)):
                by = [link for link in (self.passage_link(k) for k in json.loads(r["by"])) if link]
                out[r["faq"]] = {"note": r["note"], "by": by}
        return out

    def passage_link(self, key: str) -> dict[str, str] | None:
        """Title and address of a Complete Rules section, paragraph or ruling, as pages link to it."""
        if "#r" in key or "#n" in key:
            r = self.row("select r.card, r.anchor, r.number, c.name from rulings r join cards c on c.slug = r.card "
                         "where r.key=?", (key,))
            if r is None:
                return None
            return {"key": key, "title": f"{r['name']} {r['number']}" if r["number"] is not None else r["name"],
                    "url": ruling_url(r["card"], r["anchor"])}
        slug, _, anchor = key.partition("#")
        sec = self.row("select slug, title, doc from sections where slug=?", (slug,))
        if sec is None:
            return None
        title = f"{sec['title']}, paragraph {anchor[1:]}" if anchor.startswith("p") else sec["title"]
        return {"key": key, "title": title, "url": section_url(sec["doc"], slug) + (f"#{anchor}" if anchor else "")}

    def breadcrumbs(self, sec: dict[str, Any]) -> list[dict[str, Any]]:
        """Ancestors from the outermost down; a cycle in bad data stops the walk instead of hanging."""
        crumbs: list[dict[str, Any]] = []
        seen = {sec["slug"]}
        parent = sec.get("parent")
        while parent and parent not in seen:
            seen.add(parent)
            row = self.row("select slug, title, kind, parent from sections where slug=?", (parent,))
            if row is None:
                break
            crumbs.append(row)
            parent = row.get("parent")
        return list(reversed(crumbs))

    def sections_of(self, doc: str) -> list[dict[str, Any]]:
        """Every section of one document in order, each with its depth for an indented table of contents."""
        if not self.has_table("sections"):
            return []
        rows = self.rows("select slug, title, kind, chapter, parent, page from sections where doc=? order by ord",
                         (doc,))
        depth: dict[str, int] = {}
        for r in rows:
            r["depth"] = depth.get(r["parent"], -1) + 1 if r["parent"] else 0
            depth[r["slug"]] = r["depth"]
        return rows

    def section_for_page(self, page: int) -> dict[str, Any] | None:
        """The deepest rules section whose printed page range covers ``page`` (for "p. 18" references)."""
        return self.row(
            "select slug, title from sections where doc='rules' and page is not null and page<=? "
            "and (coalesce(page_end, page)>=?) order by page desc, ord desc limit 1", (page, page)) \
            or self.row("select slug, title from sections where doc='rules' and page is not null and page<=? "
                        "order by page desc, ord desc limit 1", (page,))

    # -- links ------------------------------------------------------------
    def _links_by_source(self, keys: list[str]) -> dict[str, list[dict[str, Any]]]:
        out: dict[str, list[dict[str, Any]]] = {}
        if not keys or not self.has_table("refs"):
            return out
        for i in range(0, len(keys), 500):
            chunk = keys[i:i + 500]
            marks = ",".join("?" * len(chunk))
            for r in self.rows(f"select * from refs where source_key in ({marks}) order by line", tuple(chunk)):
                out.setdefault(r["source_key"], []).append(r)
        return out

    def backlinks(self, key: str, prefix: bool = False) -> list[dict[str, Any]]:
        """Resolved references pointing at ``key`` (or, with ``prefix``, at anything inside it)."""
        if not self.has_table("refs"):
            return []
        if prefix:
            return self.rows(
                "select distinct source_type, source_key, text, line, target_key from refs "
                "where resolved and (target_key=? or target_key like ?) and source_key not like ? order by line",
                (key, f"{key}#%", f"{key}#%"))
        return self.rows("select distinct source_type, source_key, text, line, target_key from refs "
                         "where resolved and target_key=? order by line", (key,))

    def version_card(self, version_slug: str) -> str | None:
        """The main Card Reference entry a previous version belongs to."""
        if not self.has_table("previous_versions"):
            return None
        row = self.row("select card from previous_versions where slug=?", (version_slug,))
        return row["card"] if row else None

    def paragraph_section(self, key: str) -> str:
        return key.split("#", 1)[0]

    # -- index, FAQ, rulebook ---------------------------------------------
    def index_terms(self) -> list[dict[str, Any]]:
        if not self.has_table("index_terms"):
            return []
        return self.rows("select * from index_terms order by term collate nocase")

    def faq_for_card_names(self) -> list[dict[str, Any]]:
        """FAQ section 21: the cards with clarifications, in document order."""
        if not self.has_table("faq_clarifications"):
            return []
        return self.rows("select card_name, card, count(*) as n, min(ord) as o, min(line) as line "
                         "from faq_clarifications group by card_name order by line")

    def faq_clarifications(self, card_name: str) -> list[dict[str, Any]]:
        if not self.has_table("faq_clarifications"):
            return []
        return self.rows("select * from faq_clarifications where card_name=? order by ord", (card_name,))

    def rulebook_cards(self) -> list[dict[str, Any]]:
        if not self.has_table("rulebook_cards"):
            return []
        return self.rows("select * from rulebook_cards order by ord")

    def nearest_cards(self, name: str, n: int = 5) -> list[str]:
        names = {r_name.lower(): r_name for _, r_name in self.card_names()}
        return [names[m] for m in difflib.get_close_matches(name.lower(), list(names), n=n, cutoff=0.5)]

    def links_from(self, source_key: str) -> list[dict[str, Any]]:
        return self.rows("select * from refs where source_key=? order by line", (source_key,))

    def card_detail(self, slug: str) -> dict[str, Any] | None:
        """Everything the card page, the API and ``rulings card`` show for one entry."""
        card = self.row("select * from cards where slug=?", (slug,))
        if card is None:
            return None
        rulings = self.rows("select * from rulings where card=? and version is null order by ord", (slug,))
        for r in rulings:
            r["links"] = self.links_from(r["key"])
        versions = self.rows("select * from previous_versions where card=? order by ord", (slug,))
        for v in versions:
            v["rulings"] = self.rows("select * from rulings where version=? order by ord", (v["slug"],))
            for r in v["rulings"]:
                r["links"] = self.links_from(r["key"])
        card["rulings"] = rulings
        card["previous_versions"] = versions
        card["faq"] = self.rows("select * from faq_clarifications where card=? order by ord", (slug,)) \
            if self.has_table("faq_clarifications") else []
        old = self.superseded([f["key"] for f in card["faq"]])
        for f in card["faq"]:
            if f["key"] in old:
                f["superseded"] = old[f["key"]]
        card["rulebook"] = self.rows("select * from rulebook_cards where card=? order by ord", (slug,)) \
            if self.has_table("rulebook_cards") else []
        card["german_passages"] = self.rows("select * from german_passages where card=? order by ord", (slug,)) \
            if self.has_table("german_passages") else []
        card["german_names"] = self.rows("select german, source from german_names where card=?", (slug,)) \
            if self.has_table("german_names") else []
        card["timing"] = self.row("select * from sections where kind='timing' and slug=?", (f"vii-{slug}",))
        card["referred_by"] = self.rows(
            "select distinct source_type, source_key, text, line from refs "
            "where resolved and (target_key=? or target_key like ?) and source_key not like ? "
            "order by line",
            (slug, f"{slug}#%", f"{slug}#%"),
        )
        return card
