"""Count bombs generated from the scenario format's composed JSON Schema: every key, whoever registered it.

Shared by tests/test_count_bombs.py (each bomb refused within a time and memory budget) and
bench/attack.py (each step kind's bomb sent to the production server), so both cover the same keys,
read from the schema: a step kind, setup key or expect key registered tomorrow gets its bombs too.
Every place a value may be a string gets ``NAME*10000000`` and a 5,000-digit count, every integer a
huge number, every list and mapping those inside it.
"""
from __future__ import annotations

import copy
from typing import Any, Iterator

BIG = 10_000_000                      # 2,000 times the bound: 80 MB as a list of names, if ever expanded
HUGE_DIGITS = "9" * 5000              # past Python's 4,300-digit int() limit
NAMES = ("Copper", "Alms", "Village")  # a Treasure, an Event, a Kingdom card: whatever the key accepts

BASE = {
    "title": "bomb", "rulings": [{"section": "Your turn"}],
    "players": [{"name": "Alice", "hand": ["Copper"]}, {"name": "Bob"}],
    "supply": {"Village": 10, "Copper": 10, "Estate": 8}, "events": ["Alms"], "steps": [],
}


# ------------------------------------------------------------------ bombs from the schema
def _resolve(node: dict, root: dict) -> dict:
    while isinstance(node, dict) and "$ref" in node:
        node = root["$defs"][node["$ref"].rsplit("/", 1)[-1]]
    return node


def bombs_for(node: Any, root: dict, depth: int = 0) -> list[Any]:
    """Values shaped as the schema asks, with a huge count wherever a count can hide."""
    node = _resolve(node, root)
    if not isinstance(node, dict) or depth > 6:
        return []
    out: list[Any] = []
    for key in ("anyOf", "oneOf", "allOf"):
        for sub in node.get(key, []):
            out += bombs_for(sub, root, depth + 1)
    types = node.get("type", [])
    types = [types] if isinstance(types, str) else list(types)
    if "enum" in node and node["enum"]:
        out.append(node["enum"][0])
    if "boolean" in types:
        out.append(True)          # no count can hide here, but the key still gets a value
    if "integer" in types or "number" in types:
        out += [BIG, 10**14]
    if "string" in types and "enum" not in node:
        out += [f"{n}*{BIG}" for n in NAMES] + [f"Copper*{HUGE_DIGITS}"]
    if "array" in types or "items" in node:
        items = bombs_for(node.get("items", {}), root, depth + 1)
        out += [[b] for b in items[:6]] + ([[items[0]] * 3] if items else [])
    if "object" in types or "properties" in node or "additionalProperties" in node:
        props = node.get("properties", {})
        for name, sub in props.items():
            for b in bombs_for(sub, root, depth + 1)[:4]:
                out.append({name: b})
        extra = node.get("additionalProperties")
        if isinstance(extra, dict):
            names = _resolve(node.get("propertyNames", {}), root).get("enum") or ["Village", "Copper", "Alice"]
            for b in bombs_for(extra, root, depth + 1)[:6]:
                out.append({names[0]: b})
    return out


def places() -> Iterator[tuple[str, str, str, dict]]:
    """(id, where, key, value schema) of every key a scenario may hold: the core format's and the registry's."""
    root = schema()
    defs = root["$defs"]
    for name, sub in defs["step"]["properties"].items():
        if name not in ("answers", "expect", "note"):
            yield f"step:{name}", "step", name, sub
    for name, sub in root["properties"].items():
        if name not in ("title", "description", "rulings", "players", "steps", "expect"):
            yield f"game:{name}", "game", name, sub
    for name, sub in defs["player"]["properties"].items():
        if name != "name":
            yield f"player:{name}", "player", name, sub
    for name, sub in defs["expect"]["properties"].items():
        yield f"expect:{name}", "expect", name, sub
    for name, sub in defs["playerExpect"]["properties"].items():
        yield f"player-expect:{name}", "player-expect", name, sub


def scenario_doc(where: str, key: str, value: Any) -> dict:
    doc = copy.deepcopy(BASE)
    if where == "step":
        doc["steps"] = [{key: value}]
    elif where == "game":
        doc[key] = value
    elif where == "player":
        doc["players"][0][key] = value
    elif where == "expect":
        doc["expect"] = {key: value}
    else:
        doc["expect"] = {"Alice": {key: value}}
    return doc



def schema() -> dict:
    from app.engine.scenario.schema import published_schema

    return published_schema()
