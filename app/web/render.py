"""Corpus text -> safe HTML: markdown, then nh3, then links (cross-references and card names).

The documents carry light markdown (``**bold**``, ``[X](#)`` links whose targets
were lost in the PDF extraction). The references parser found where each of
those points; here ``[X](#)`` becomes a real link when a resolved reference of
the same text exists, and stays plain text otherwise, so a broken target is
never presented as a working link. Everything passes through nh3 before any
link we build is added, so text from the corpus can never inject markup.

Rendering is pure and the store is read-only, so results are memoised: a card
page is mostly cache hits after the first view.
"""
from __future__ import annotations

import html
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Iterable

import markdown
import nh3

from app.corpus.addresses import DOC_PREFIX, section_url  # noqa: F401 - pages import section_url from here
from app.corpus.symbols import symbols_html
from app.corpus.text import plain

ALLOWED_TAGS = {"p", "a", "strong", "em", "ul", "ol", "li", "code", "br", "blockquote", "span"}
ALLOWED_ATTRIBUTES = {"a": {"href", "class", "title"}, "span": {"class"}}
_MD_LINK = re.compile(r"\[([^\]\n]*)\]\(#?\)")
_TAG_SPLIT = re.compile(r"(<[^>]*>)")
_NOT_A_TAG = re.compile(r"<(?=[a-z]+\(s\)>)")      # "<card(s)>": the rules' placeholder for a card name
_APOS = "(?:'|’|&#x27;|&#39;)"
# The index of terms is chapter VIII of the Complete Rules; search links there too.
INDEX_URL = "/rules/viii-index"
# The BGG FAQ printed its web links as the word "link"; the PDF kept only the words.
_DEAD_LINKS = re.compile(r"\s*\((?:link)(?:,\s*link)*\)")
# The BGG FAQ refers to its own numbered sections: "see 9.2", "See 13.".
_FAQ_SEE = re.compile(r"\b([Ss]ee) (\d{1,2})\.(\d{1,2})?(?![\d])")


def target_url(target_type: str | None, target_key: str | None, version_card: dict[str, str] | None = None) -> str | None:
    """Where a reference target lives on the site; None for a target we cannot place."""
    if not target_type or not target_key:
        return None
    base, _, anchor = target_key.partition("#")
    frag = f"#{anchor}" if anchor else ""
    if target_type == "card":
        return f"/cards/{base}{frag}"
    if target_type == "ruling":
        return _ruling_url(base, anchor, version_card)
    if target_type in ("section", "paragraph"):
        return f"/rules/{base}{frag}"
    if target_type == "index_term":
        return f"{INDEX_URL}#{base}"
    if target_type == "page":
        return f"/rules/page/{base}" if base.isdigit() else None
    return None


def _ruling_url(base: str, anchor: str, version_card: dict[str, str] | None) -> str:
    """A ruling lives on its card's page; a previous version's ruling under the version's prefix (see Ruling.anchor)."""
    card = (version_card or {}).get(base, base)
    if card != base and anchor:
        anchor = f"{base}-{anchor}"
    return f"/cards/{card}#{anchor}" if anchor else f"/cards/{card}"


def source_url(source_type: str | None, source_key: str, version_card: dict[str, str] | None = None) -> str:
    """Where the object that prints a reference lives (for "referred to by" lists)."""
    base, _, anchor = source_key.partition("#")
    frag = f"#{anchor}" if anchor else ""
    if source_type == "ruling":
        return _ruling_url(base, anchor, version_card)
    if source_type == "index_term":
        return f"{INDEX_URL}#{base}"
    if source_type == "faq":
        return f"/faq#{source_key}"
    return f"/rules/{base}{frag}"


_EXISTING_LINK = re.compile(r"\[[^\]\n]*\]\([^)\n]*\)")


def _link_phrase(src: str, link: "Link") -> tuple[str, bool]:
    """Wrap the first free occurrence of ``link.text`` (emphasis markers allowed between words) in a link."""
    words = link.text.split()
    sep = r"(?:\*{1,2})?\s+(?:\*{1,2})?"
    pat = re.compile(r"(?<![\w])" + sep.join(re.escape(w) for w in words) + r"(?![\w])", re.IGNORECASE)
    taken = [m.span() for m in _EXISTING_LINK.finditer(src)]
    for m in pat.finditer(src):
        start, end = m.span()
        if any(a < end and start < b for a, b in taken):
            continue
        if src.count("**", start, end) % 2:          # keep bold markers balanced inside the link
            if src.startswith("**", end):
                end += 2
            elif src[:start].endswith("**"):
                start -= 2
            else:
                continue
        return f"{src[:start]}[{src[start:end]}]({link.url}){src[end:]}", True
    return src, False


@dataclass(frozen=True)
class Link:
    text: str
    url: str | None


class Renderer:
    """Renders corpus text for one store; holds the card-name matcher and a bounded memo."""

    def __init__(self, card_names: Iterable[tuple[str, str]], version_card: dict[str, str] | None = None,
                 cache_size: int = 20000, faq_sections: Iterable[str] = ()):
        self.version_card = dict(version_card or {})
        self._faq_sections = set(faq_sections)
        names = sorted({n for _, n in card_names if n and len(n) > 2}, key=len, reverse=True)
        self._slug_by_name = {self._norm(n): s for s, n in card_names if n}
        if names:
            alts = "|".join(re.escape(html.escape(n, quote=False)).replace("’", _APOS).replace("'", _APOS)
                            for n in names)
            self._names_re: re.Pattern[str] | None = re.compile(rf"(?<![\w/-])(?:{alts})(?![\w-])")
        else:
            self._names_re = None
        self._md = markdown.Markdown()
        self._lock = threading.Lock()
        self._cache: OrderedDict[tuple, str] = OrderedDict()
        self._cache_size = cache_size

    @staticmethod
    def _norm(name: str) -> str:
        return html.unescape(name).replace("’", "'").lower()

    # -- public -------------------------------------------------------------
    def links_for(self, refs: list[dict[str, Any]]) -> list[Link]:
        return [Link(plain(r["text"]), target_url(r.get("target_type"), r.get("target_key"), self.version_card)
                     if r.get("resolved") else None) for r in refs]

    def html(self, text: str | None, refs: list[dict[str, Any]] | None = None, inline: bool = False,
             skip_card: str | None = None) -> str:
        """Safe HTML for one corpus text; ``refs`` are the references printed in it."""
        return self.render(text, refs, inline, skip_card)[0]

    def render(self, text: str | None, refs: list[dict[str, Any]] | None = None, inline: bool = False,
               skip_card: str | None = None) -> tuple[str, list[Link]]:
        """Safe HTML plus the resolved references that could not be placed in the text (to list beside it)."""
        if not text:
            return "", []
        links = tuple(self.links_for(refs or []))
        key = (text, links, inline, skip_card)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        out = self._render(text, links, inline, skip_card)
        with self._lock:
            self._cache[key] = out
            if len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return out

    # -- internals ----------------------------------------------------------
    def _render(self, text: str, links: tuple[Link, ...], inline: bool,
                skip_card: str | None) -> tuple[str, list[Link]]:
        placed: set[int] = set()

        def sub_link(m: re.Match[str]) -> str:
            label = m.group(1)
            low = plain(label).lower()
            for i, link in enumerate(links):
                lt = link.text.lower()
                if link.url and low and (low in lt or lt in low):
                    placed.add(i)
                    return f"[{label}]({link.url})"
            return label

        # "<card(s)>" is a placeholder the rules print, not markup: the sanitiser would drop it silently
        src = _NOT_A_TAG.sub("&lt;", _MD_LINK.sub(sub_link, _DEAD_LINKS.sub("", text)))
        src = _FAQ_SEE.sub(self._faq_link, src)
        # References printed as plain text ("See GAIN ON WHEN-GAIN", "see **Crown** 8"): link them in place.
        for i, link in enumerate(links):
            if i in placed or not link.url or not link.text.strip():
                continue
            src, ok = _link_phrase(src, link)
            if ok:
                placed.add(i)
        with self._lock:
            self._md.reset()
            rendered = self._md.convert(src)
        clean = nh3.clean(rendered, tags=ALLOWED_TAGS, attributes=ALLOWED_ATTRIBUTES, link_rel=None,
                          url_schemes={"http", "https", "mailto"})
        # References printed as plain text ("See GAIN ON WHEN-GAIN"): link the words where they stand.
        phrases = [(i, link) for i, link in enumerate(links) if i not in placed and link.url and link.text]
        clean, found = self._link_text(clean, skip_card, phrases)
        placed |= found
        clean = "".join(part if part.startswith("<") else symbols_html(part) for part in _TAG_SPLIT.split(clean))
        if inline and clean.startswith("<p>") and clean.endswith("</p>") and clean.count("<p>") == 1:
            clean = clean[3:-4]
        seen: set[str] = set()
        leftover = []
        for i, link in enumerate(links):
            if i not in placed and link.url and link.url not in seen:
                seen.add(link.url)
                leftover.append(link)
        return clean, leftover

    def _faq_link(self, m: re.Match[str]) -> str:
        """"See 9.2" -> a link to FAQ section 9.2, when the FAQ has that section."""
        slug = f"faq-{m.group(2)}" + (f"-{m.group(3)}" if m.group(3) else "")
        if slug not in self._faq_sections:
            return m.group(0)
        number = f"{m.group(2)}.{m.group(3) or ''}"
        return f"{m.group(1)} [{number}]({DOC_PREFIX['faq']}/{slug})"

    def _link_text(self, fragment: str, skip_card: str | None,
                   phrases: list[tuple[int, Link]]) -> tuple[str, set[int]]:
        found: set[int] = set()
        parts = _TAG_SPLIT.split(fragment)
        depth = 0
        for i, part in enumerate(parts):
            if part.startswith("<"):
                if part.startswith("<a"):
                    depth += 1
                elif part.startswith("</a"):
                    depth = max(0, depth - 1)
                continue
            if depth or not part:
                continue
            pieces = [part]
            for idx, link in phrases:
                if idx in found:
                    continue
                needle = html.escape(link.text, quote=False)
                for j, piece in enumerate(pieces):
                    if j % 2 or needle not in piece:
                        continue
                    before, _, after = piece.partition(needle)
                    pieces[j:j + 1] = [before, f'<a href="{html.escape(link.url)}">{needle}</a>', after]
                    found.add(idx)
                    break
            for j in range(0, len(pieces), 2):
                if self._names_re is not None:
                    pieces[j] = self._names_re.sub(lambda m: self._card_anchor(m, skip_card), pieces[j])
            parts[i] = "".join(pieces)
        return "".join(parts), found

    def _card_anchor(self, m: re.Match[str], skip_card: str | None) -> str:
        slug = self._slug_by_name.get(self._norm(m.group(0)))
        if slug is None or slug == skip_card:
            return m.group(0)
        return f'<a class="card-link" href="/cards/{slug}">{m.group(0)}</a>'
