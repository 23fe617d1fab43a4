"""The site at a table with no signal: the web app manifest, the service worker and what it may keep.

The service worker (``static/sw.js``) is served from the site root so that its scope is the
whole site. It keeps every page a player opens; "Keep all rules offline" fetches the pages
listed by ``/offline/pages.json`` (every card page, every section of the Complete Rules, the
FAQ and the Adventures rulebook, and their contents pages) and the card-name list
``/offline/names.json`` that the search box's typeahead uses when the server cannot be reached.
Full-text search and the sandbox run on the server and say so when offline (``/offline``).

The list is the one place that decides what "all rules" means, so the download budget
(``bench/offline_budget.py``, ``tests/test_offline.py``) measures exactly what a phone fetches.
"""
from __future__ import annotations

from flask import Blueprint, current_app, jsonify, render_template, send_from_directory, url_for

from app.web import services
from app.web.render import section_url

offline = Blueprint("offline", __name__)

# The documents whose every section is kept (the German dividers' names are on the card pages already).
KEPT_DOCUMENTS = ("rules", "faq", "adventures")
# Pages that are not a card or a section: the contents pages a player starts from.
CONTENTS_PAGES = ("/", "/offline", "/rules", "/cards", "/faq", "/adventures")
# What a page needs to render, kept when the service worker installs.
# "Keep all rules offline" downloads at most this much (gzip, as sent); bench/offline_budget.py measures it.
DOWNLOAD_BUDGET_MB = 3
STATIC_FILES = ("site.css", "site.js", "favicon.svg", "icon.svg", "icon-192.png", "icon-512.png")

MANIFEST = {
    "name": "Dominion rulings",
    "short_name": "Rulings",
    "description": "Settle a Dominion rules question at the table: every rule, ruling and FAQ answer.",
    "start_url": "/",
    "scope": "/",
    "display": "standalone",
    "background_color": "#ffffff",
    "theme_color": "#17324d",
}


def kept_pages(store) -> list[str]:
    """Every page "Keep all rules offline" fetches, contents pages first, each once."""
    urls = list(CONTENTS_PAGES)
    urls += [f"/cards/{r['slug']}" for r in store.rows("select slug from cards order by slug")]
    for doc in KEPT_DOCUMENTS:
        urls += [section_url(doc, r["slug"]) for r in store.sections_of(doc)]
    return list(dict.fromkeys(urls))


def card_names(lookup) -> list[list[str]]:
    """Every form a card's name is typed in, as [normalised form, card URL, how, form shown, card name].

    The same forms the server's typeahead matches (``CardLookup.forms``: English names, German
    names, abbreviations meaning one card), so offline the box completes the same names; only
    the typo correction stays on the server.
    """
    names = lookup.names.names
    return [[key, f"/cards/{slug}", how, shown, names[slug]] for key, slug, how, shown in lookup.forms]


@offline.app_context_processor
def _budget() -> dict:
    return {"offline_download_mb": DOWNLOAD_BUDGET_MB}


@offline.get("/sw.js")
def service_worker():
    """The service worker, from the site root: a worker's scope is at most the folder it is served from."""
    resp = send_from_directory(current_app.static_folder, "sw.js", mimetype="application/javascript",
                               max_age=0)
    resp.headers["Cache-Control"] = "no-cache"           # a new build's worker is picked up on the next visit
    return resp


@offline.get("/manifest.webmanifest")
def manifest():
    icons = [{"src": url_for("static", filename=f"icon-{n}.png"), "sizes": f"{n}x{n}", "type": "image/png"}
             for n in (192, 512)]
    icons.append({"src": url_for("static", filename="icon.svg"), "sizes": "any", "type": "image/svg+xml"})
    resp = jsonify({**MANIFEST, "icons": icons})
    resp.mimetype = "application/manifest+json"
    return resp


@offline.get("/offline")
def offline_page():
    """What works with no signal, and the control that keeps all rules; the worker shows it for a page
    it has not kept."""
    return render_template("offline.html")


@offline.get("/offline/pages.json")
def pages_json():
    s = services()
    statics = [url_for("static", filename=f) for f in STATIC_FILES]
    return jsonify({"pages": kept_pages(s.store), "static": statics, "names": url_for("offline.names_json")})


@offline.get("/offline/names.json")
def names_json():
    from app.web.api import _card_lookup

    return jsonify(card_names(_card_lookup()))
