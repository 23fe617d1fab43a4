"""Page addresses of the parsed model's objects: one scheme for the search index, the pages and the API.

A section lives under its document's prefix (``/rules/<slug>``, ``/faq/<slug>``), a paragraph at its
section's address plus ``#pN``, a ruling on its card's page (``/cards/<card>#<anchor>``). The index
stores these addresses when it is built and the pages link to them, so they are written once, here.
"""
from __future__ import annotations

DOC_PREFIX = {"rules": "/rules", "faq": "/faq", "adventures": "/adventures", "german": "/german"}


def doc_url(doc: str) -> str:
    return DOC_PREFIX.get(doc, "/rules")


def section_url(doc: str, slug: str) -> str:
    return f"{doc_url(doc)}/{slug}"


def ruling_url(card: str, anchor: str) -> str:
    return f"/cards/{card}#{anchor}"
