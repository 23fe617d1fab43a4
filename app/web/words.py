"""Engine and corpus values in a player's words, for every template (registered as Jinja filters).

One place turns the engine's internal names ("buy2", "in_play", version "current")
and the card package's printed symbols ("-----" dividers) into what a player
says, so no template has to know them.
"""
from __future__ import annotations

import html
import re
from collections import Counter
from typing import Any, Iterable

from app.engine.core.narrate import PHASE_WORDS


_DIVIDER = re.compile(r"^\s*-{3,}\s*$")

PHASES = PHASE_WORDS
ZONES = {"hand": "Hand", "deck": "Deck (top first)", "discard": "Discard pile", "in_play": "In play",
         "set_aside": "Set aside", "revealed": "Revealed"}


def card_text(text: str | None) -> str:
    """A card's printed text as safe HTML (escaped), its dividing lines (printed as "-----") drawn as a rule."""
    rule = '<hr class="divider">'
    out: list[str] = []
    for line in (text or "").splitlines():
        if _DIVIDER.match(line):
            out.append(rule)
            continue
        if out and out[-1] != rule:
            out.append("\n")
        out.append(html.escape(line, quote=False))
    return "".join(out)


def phase(name: str | None) -> str:
    return PHASES.get(name or "", (name or "").replace("_", " "))


def zone(name: str) -> str:
    return ZONES.get(name, name.replace("_", " ").capitalize())


def counted(cards: Iterable[str] | None, ordered: bool = False) -> str:
    """``[Copper, Copper, Copper, Estate]`` -> "Copper x3, Estate".

    An ordered zone (a deck, top first) only merges neighbours, so the order stays readable.
    """
    cards = list(cards or [])
    if not cards:
        return "–"
    if ordered:
        runs: list[list[Any]] = []
        for c in cards:
            if runs and runs[-1][0] == c:
                runs[-1][1] += 1
            else:
                runs.append([c, 1])
    else:
        runs = [[c, n] for c, n in Counter(cards).items()]
    return ", ".join(f"{c} x{n}" if n > 1 else str(c) for c, n in runs)


def version_label(d: dict[str, Any]) -> str:
    """A card version as a player says it: "Pre-2022: while in play", "Second edition (the one played unless you choose)"."""
    note = (d.get("note") or "").strip()
    if note:
        label = note[:1].upper() + note[1:]
    elif d.get("version") in (None, "", "current"):
        label = "Current version"
    else:
        label = f"Version {d['version']}"
    return label + (" — played unless you choose another" if d.get("is_default") else "")


_QUOTES = "“”\"'‘’„"


def quoted(text: Any) -> str:
    """Text in curly quotes, once: a title the document already quotes (“DO X TO”) is not quoted twice."""
    t = str(text or "").strip()
    if len(t) >= 2 and t[0] in _QUOTES and t[-1] in _QUOTES:
        return t
    return f"“{t}”"


FILTERS = {"quoted": quoted, "card_text": card_text, "phase_words": phase, "zone_words": zone, "counted": counted,
           "version_label": version_label}
