"""Every page renders, and every link between pages lands on a page that has the anchor it names.

Cross-references are the product's backbone ("See Possession 6", "TRIGGERED
ABILITY ②", "p. 23"): a link to ``/cards/crown#r8`` is only right if Crown's
page has a ruling 8 with that id. This walks all card and rules pages once.
"""
from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

import pytest

from app.web.render import section_url

_ID = re.compile(r'\bid="([^"]+)"')
_HREF = re.compile(r'href="(/[^"/][^"]*)"')


@pytest.fixture(scope="module")
def site(app, store):
    client = app.test_client()
    pages: dict[str, tuple[int, set[str], str]] = {}

    def fetch(path: str) -> tuple[int, set[str], str]:
        if path not in pages:
            resp = client.get(path, follow_redirects=True)
            html = resp.get_data(as_text=True) if "html" in resp.content_type else ""
            pages[path] = (resp.status_code, set(_ID.findall(html)), html)
        return pages[path]

    start = [f"/cards/{r['slug']}" for r in store.rows("select slug from cards")]
    start += [section_url(r["doc"], r["slug"]) for r in store.rows("select slug, doc from sections")]
    for path in start:
        fetch(path)
    return start, fetch


def test_every_card_and_section_page_renders(site):
    start, fetch = site
    assert len(start) > 1100
    failed = [(p, fetch(p)[0]) for p in start if fetch(p)[0] != 200]
    assert failed == []


def test_every_internal_link_lands_on_its_anchor(site):
    start, fetch = site
    broken = []
    for source in start:
        for href in set(_HREF.findall(fetch(source)[2])):
            url = urlsplit(href.replace("&amp;", "&"))
            if url.path.startswith(("/static/", "/api/")) or url.query:
                continue
            status, ids, _ = fetch(url.path)
            if status != 200:
                broken.append((source, href, status))
            elif url.fragment and unquote(url.fragment) not in ids:
                broken.append((source, href, "no such anchor"))
    assert broken == []
