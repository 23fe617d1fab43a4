"""Plain-text rendering of store records for the terminal (``rulings card``)."""
from __future__ import annotations

import textwrap
from typing import Any

from app.corpus.text import plain


def cost_label(card: dict[str, Any]) -> str:
    if card.get("cost_coins") is None and not card.get("cost_debt"):
        return "-"
    parts = []
    if card.get("cost_coins") or not (card.get("cost_debt") or card.get("cost_potion")):
        parts.append(f"${card.get('cost_coins') or 0}")
    if card.get("cost_potion"):
        parts.append("potion")
    if card.get("cost_debt"):
        parts.append(f"{card['cost_debt']} debt")
    return " + ".join(parts)


def _wrap(text: str, indent: str) -> str:
    return textwrap.fill(plain(text), width=100, initial_indent=indent, subsequent_indent=" " * len(indent))


def _rulings(lines: list[str], rulings: list[dict[str, Any]]) -> None:
    for r in rulings:
        marker = "❖" if r["kind"] == "note" else f"{r['number']:>2}."
        lines.append(_wrap(r["text"], f"  {marker} "))
        for link in r.get("links", []):
            target = link["target_key"] if link["resolved"] else f"unresolved: {link.get('note') or ''}"
            lines.append(f"       -> {plain(link['text'])}: {target}")


def card_as_text(card: dict[str, Any]) -> str:
    lines = [card["name"]]
    facts = []
    if card.get("facts_source"):
        facts.append(f"cost {cost_label(card)}")
        facts.append(", ".join(card.get("types") or []))
        eds = card.get("editions") or []
        facts.append(f"{card.get('set')}" + (f" (editions {', '.join(map(str, eds))})" if eds else ""))
    else:
        facts.append(f"({card.get('kind')}; no card facts)")
    lines.append("  " + " | ".join(f for f in facts if f))
    if card.get("german_name"):
        lines.append(f"  German: {card['german_name']} (from {card.get('german_source')})")
    if card.get("redirect"):
        lines.append(f"  See {card['redirect']}")
    if card.get("text"):
        lines.append(_wrap(card["text"].replace("\n", " / "), "  Text: "))
    if card["rulings"]:
        lines.append("Rulings:")
        _rulings(lines, card["rulings"])
    for v in card.get("previous_versions", []):
        lines.append(f"Previous version: {v['title']}")
        _rulings(lines, v["rulings"])
    if card.get("faq"):
        lines.append("BGG FAQ:")
        for f in card["faq"]:
            lines.append(_wrap(f["text"], f"  [{f['label']}] "))
    if card.get("referred_by"):
        lines.append("Referred to by:")
        for ref in card["referred_by"]:
            lines.append(f"  {ref['source_key']} (line {ref['line']}): {plain(ref['text'])}")
    return "\n".join(lines)
