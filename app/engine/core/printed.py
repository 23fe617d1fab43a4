"""Amounts printed on a card ("+$2", "6 VP"), read from its card-facts text instead of restated.

Why a module of its own: definitions of every set read them (Platinum, Oasis, Colony,
Farmland), and a set's file never imports another set's (tests/test_engine_layout.py).
"""
from __future__ import annotations

import re

from app.engine.core.state import card_facts


def coins(name: str) -> int:
    """The "$N" / "+$N" printed first on the card (its card-facts text)."""
    m = re.search(r"\+?\$(\d+)", card_facts(name).text)
    if m is None:
        raise ValueError(f"{name}: no $ amount in its text")
    return int(m.group(1))


def vp_points(name: str) -> int:
    """The "N VP" printed first on the card (its card-facts text)."""
    m = re.search(r"(-?\d+)\s*VP", card_facts(name).text)
    if m is None:
        raise ValueError(f"{name}: no VP amount in its text")
    return int(m.group(1))
