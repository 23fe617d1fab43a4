"""``rulings search QUERY [--json] [--limit N]``: the same answer as ``/api/search``, for a terminal."""
from __future__ import annotations

import json
import re
import sys

from app.store.db import Store, StoreMissing

_MARK = re.compile(r"</?mark>")


def search_command(query: str, as_json: bool = False, limit: int = 10) -> int:
    """Print the hits; exit status 0 with hits, 1 with none (the reason is printed), 2 without a store."""
    from app.search.query import search

    try:
        store = Store()
    except StoreMissing as exc:
        print(f"rulings search: {exc}", file=sys.stderr)
        return 2
    result = search(store, query, limit)
    if as_json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return 0 if result["results"] else 1
    print(format_text(result))
    return 0 if result["results"] else 1


def format_text(result: dict) -> str:
    """Plain-text rendering: one block per hit, matches in [brackets], HTML entities undone."""
    import html

    lines = []
    if result["cards"]:
        cards = ", ".join(f"{c['name']} ({c['how']}{': ' + c['matched'] if c['how'] != 'exact' else ''})"
                          for c in result["cards"])
        lines.append(f"Cards: {cards}")
    if result["concepts"]:
        lines.append("Concepts: " + ", ".join(c["phrase"] for c in result["concepts"]))
    if result.get("spelling"):
        lines.append("Read " + ", ".join(f"'{c['typed']}' as '{c['read']}'" for c in result["spelling"]))
    for note in result.get("notes", []):
        lines.append(f"Note: {note}")
    if not result["results"]:
        lines.append(f"No results: {result.get('reason', 'nothing found')}")
    for r in result["results"]:
        where = r["card_name"] if r.get("card") else (r.get("section") or "")
        if r.get("ruling") is not None:
            where = f"{where} {r['ruling']}"
        lines.append(f"{r['rank']:>2}. [{r['kind']}] {r['title']}  ({r['url']})")
        if where and where != r["title"]:
            lines.append(f"    {where}")
        text = html.unescape(_MARK.sub(lambda m: "]" if m.group().startswith("</") else "[", r["snippet"]))
        lines.append(f"    {text}")
        facts = r.get("facts")
        if facts:
            cost = facts.get("cost_coins")
            lines.append(f"    {facts.get('set')} | {', '.join(facts.get('types') or [])} | cost {cost}"
                         + (" + potion" if facts.get("cost_potion") else "")
                         + (f" + {facts['cost_debt']} debt" if facts.get("cost_debt") else ""))
            for fr in r.get("first_rulings", []):
                lines.append(f"      {fr['ruling']}. {fr['text'][:160]}")
    return "\n".join(lines)
