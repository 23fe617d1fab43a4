"""The two long lists, made browsable on a phone: cards A-Z with a set filter, scenarios by set and card."""
from __future__ import annotations

from typing import Any

from app.corpus.card_facts import facts_for
from app.corpus.model import slugify


def _letter(name: str) -> str:
    first = name[:1].upper()
    return first if "A" <= first <= "Z" else "#"


def cards_by_letter(cards: list[dict[str, Any]], set_name: str = "") -> dict[str, Any]:
    """Cards grouped under their first letter, optionally only one set's; the sets to choose from."""
    sets = sorted({c["set"] for c in cards if c.get("set")})
    shown = [c for c in cards if not set_name or c.get("set") == set_name]
    letters: dict[str, list[dict[str, Any]]] = {}
    for c in shown:
        letters.setdefault(_letter(c["name"]), []).append(c)
    return {"sets": sets, "set": set_name if set_name in sets else "", "count": len(shown),
            "letters": [{"letter": k, "cards": v} for k, v in sorted(letters.items())]}


def _main_card(row: dict[str, Any]) -> str | None:
    """The card a scenario is about: the first card whose ruling it cites, else the first Kingdom card in it."""
    for r in row.get("rulings") or []:
        if isinstance(r, dict) and r.get("card") and facts_for(str(r["card"])):
            return facts_for(str(r["card"])).name
    for c in row.get("cards") or []:
        f = facts_for(c)
        if f is not None and f.purpose != "Basic":
            return f.name
    return None


def scenarios_by_set(rows: list[dict[str, Any]], q: str = "") -> dict[str, Any]:
    """Scenarios grouped by the set of the card they are about, then by that card; ``q`` keeps the matching ones."""
    words = [w for w in q.lower().split() if w]
    groups: dict[str, dict[str, list[dict[str, Any]]]] = {}
    count = 0
    for r in rows:
        main = _main_card(r)
        f = facts_for(main) if main else None
        set_name = f.set if f else "Rules"
        card = main or "Other rules"
        text = " ".join([r["title"], *(r.get("cards") or [])]).lower()
        if words and not all(w in text for w in words):
            continue
        count += 1
        groups.setdefault(set_name, {}).setdefault(card, []).append(
            {"title": r["title"], "url": f"/scenarios/{r['key']}", "cards": r.get("cards") or [], "ok": r.get("ok", True)})
    order = sorted(groups, key=lambda s: (s == "Rules", s))
    return {"q": q, "count": count, "sets": [
        {"name": s, "slug": slugify(s), "count": sum(len(v) for v in groups[s].values()),
         "cards": [{"name": c, "url": f"/cards/{slugify(c)}" if c != "Other rules" else None, "scenarios": v}
                   for c, v in sorted(groups[s].items())]} for s in order]}
