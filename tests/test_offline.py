"""The site with no signal (issue #35), server side: the service worker, the manifest, and exactly what
"Keep all rules offline" fetches, with its download measured against the budget the page states.
The browser half (install, keep, cut the network, use it) is tests/test_browser_offline.py."""
from __future__ import annotations

import struct

from bench.offline_budget import kept_urls, measure, report
from app.web.offline import DOWNLOAD_BUDGET_MB


def test_service_worker_is_served_from_the_root_under_the_strict_policy(client):
    resp = client.get("/sw.js")
    assert resp.status_code == 200 and resp.mimetype == "application/javascript"
    assert resp.headers["Cache-Control"] == "no-cache"           # a new build's worker is found on the next visit
    assert "script-src 'self'" in resp.headers["Content-Security-Policy"]
    assert b"addEventListener(\"fetch\"" in resp.get_data()


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_manifest_meets_what_chromium_asks_to_install(client):
    resp = client.get("/manifest.webmanifest")
    assert resp.status_code == 200 and resp.mimetype == "application/manifest+json"
    m = resp.get_json()
    assert m["name"] == "Dominion rulings" and m["short_name"] and m["start_url"] == "/"
    assert m["display"] in ("standalone", "fullscreen", "minimal-ui")
    sizes = {}
    for icon in m["icons"]:
        got = client.get(icon["src"])
        assert got.status_code == 200, icon
        if icon["type"] == "image/png":
            sizes[icon["sizes"]] = _png_size(got.get_data())
    assert sizes == {"192x192": (192, 192), "512x512": (512, 512)}
    home = client.get("/").get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in home


def test_keep_all_fetches_every_card_and_section_within_the_stated_budget(client, store):
    urls = kept_urls(client)
    assert len(urls) == len(set(urls))
    cards = {r["slug"] for r in store.rows("select slug from cards")}
    assert {u.removeprefix("/cards/") for u in urls if u.startswith("/cards/")} == cards
    for doc in ("rules", "faq", "adventures"):
        sections = store.sections_of(doc)
        assert sections and all(f"/{doc}/{s['slug']}" in urls for s in sections), doc
    for page in ("/", "/rules", "/cards", "/faq", "/adventures", "/offline", "/offline/names.json"):
        assert page in urls
    assert not any(u.startswith(("/try", "/api/", "/search")) for u in urls)   # those need the server anyway
    figures = measure(client, urls)             # every page answers 200, or this raises
    print("\n" + report(figures, '"Keep all rules offline"'))
    sent = sum(figures["sent"].values())
    assert sent <= DOWNLOAD_BUDGET_MB * 2**20, f"{sent / 2**20:.2f} MB is over the stated {DOWNLOAD_BUDGET_MB} MB"
    assert f"up to {DOWNLOAD_BUDGET_MB} MB" in client.get("/").get_data(as_text=True)


def test_the_card_name_list_holds_german_names_and_abbreviations(client):
    forms = client.get("/offline/names.json").get_json()
    by_key = {f[0]: f for f in forms}
    assert by_key["throne room"][1:] == ["/cards/throne-room", "exact", "Throne Room", "Throne Room"]
    assert by_key["burggraben"][1] == "/cards/moat" and by_key["burggraben"][2] == "german"
    assert any(f[2] == "abbreviation" for f in forms)


def test_offline_page_says_what_works_and_what_needs_the_server(client):
    text = client.get("/offline").get_data(as_text=True)
    assert "Card names in the search box" in text
    assert "Full-text search" in text and "sandbox" in text
    assert 'id="offline-notice"' in text and "hidden" in text
