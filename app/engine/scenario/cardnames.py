"""Card names as scenario files write them: "Copper", "Copper*7", "Throne Room#first".

Why a module of its own: the same entries appear in every zone, on mats, in
``play``/``buy`` steps and in expectations, and each must be resolved the same
way (case, aliases such as Farm = Harem), reported at its own line, and counted
*before* anything is built: ``"Copper*100000000"`` is a 20-byte string that
would otherwise allocate a list of a hundred million names.

``NAME#label`` names one copy so that later checks can tell two copies apart
("which Throne Room stays in play"): the label is the scenario's, the card is
the same card.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterator

from app.corpus.card_facts import load_facts
from app.engine.core.errors import ScenarioError
from app.engine.core.registry import aliases, definition
from app.engine.scenario.schema import MAX_CARDS
from app.engine.scenario.source import line_of

_ENTRY = re.compile(r"^\s*(?P<name>[^*#]+?)\s*(?:\*\s*(?P<n>[0-9]+)|#(?P<label>[A-Za-z0-9_-]+))?\s*$")


class UndefinedCard(ScenarioError):
    """A real card the engine cannot play yet: not a malformed file, so it has its own exit code (3)."""


@dataclass(frozen=True)
class Entry:
    name: str            # the card's real name
    count: int = 1
    label: str | None = None     # "first" in "Throne Room#first"

    def text(self) -> str:
        return f"{self.name}#{self.label}" if self.label else self.name


@lru_cache(maxsize=1)
def _names() -> dict[str, str]:
    names = {v.name.lower(): v.name for v in load_facts().values()}
    for alias, real in aliases().items():      # renamed cards (Farm = Harem), registry.register_alias
        names.setdefault(alias.lower(), real)
    return names


def spellings() -> dict[str, str]:
    """Every spelling the format accepts, lower-cased (names and aliases), to the card's printed name."""
    return _names()


def real_name(name: str) -> str | None:
    """The card's printed name for any spelling the format accepts (case, aliases), or None."""
    return _names().get(name.strip().lower())


def card(f: str, name: Any, line: int | None, where: str, *, playable: bool = True) -> str:
    """The real name of one card; unknown names get a "did you mean", undefined ones UndefinedCard."""
    if not isinstance(name, str):
        raise ScenarioError(f, f"{where}: expected a card name, found {name!r}", line=line)
    real = real_name(name)
    if real is None:
        near = difflib.get_close_matches(name, list(_names().values()), n=3, cutoff=0.6)
        hint = f"; did you mean {', '.join(near)}?" if near else ""
        raise ScenarioError(f, f"{where}: unknown card {name!r}{hint}", line=line)
    if playable and definition(None, real) is None:
        raise UndefinedCard(f, f"{where}: {real} has no executable definition yet (the engine cannot play it)",
                            line=line)
    return real


def entry(f: str, raw: Any, line: int | None, where: str, *, playable: bool = True) -> Entry:
    if not isinstance(raw, str) or (m := _ENTRY.match(raw)) is None:
        raise ScenarioError(f, f"{where}: expected a card name, NAME*COUNT or NAME#label, found {raw!r}", line=line)
    n = int(m["n"]) if m["n"] is not None else 1
    return Entry(card(f, m["name"], line, where, playable=playable), n, m["label"])


def entries(f: str, lst: Any, line: int | None, where: str, *, playable: bool = True) -> list[Entry]:
    """The entries of a card list (or of one name), each resolved and reported at its own line."""
    if lst is None:
        return []
    if isinstance(lst, str):
        lst = [lst]
    if not isinstance(lst, list):
        raise ScenarioError(f, f"{where}: expected a list of card names, found {lst!r}", line=line)
    return [entry(f, x, line_of(lst, i) or line, where, playable=playable) for i, x in enumerate(lst)]


def expand(es: list[Entry]) -> list[str]:
    """The names, one per copy (the count was bounded at load by ``count_cards``)."""
    return [e.name for e in es for _ in range(e.count)]


def names(f: str, lst: Any, line: int | None, where: str, *, playable: bool = True) -> list[str]:
    return expand(entries(f, lst, line, where, playable=playable))


# ------------------------------------------------------------------ the bound, before anything is built
def _count_entry(raw: Any) -> int:
    if isinstance(raw, str) and (m := _ENTRY.match(raw)) is not None and m["n"] is not None:
        return int(m["n"])
    return 1


def _count_list(lst: Any) -> int:
    if isinstance(lst, str):
        return _count_entry(lst)
    if isinstance(lst, list):
        return sum(_count_entry(x) for x in lst)
    if isinstance(lst, int) and not isinstance(lst, bool):
        return 0             # "deck: 5" in an expectation counts cards, it creates none
    return 0


def _card_lists(doc: dict) -> Iterator[tuple[Any, Any, Any]]:
    """(container, key, value) of every place a card list or a pile size appears in a (schema-valid) scenario."""
    for p in doc.get("players") or []:
        for k, v in p.items():
            if k == "mats":
                for mk, mv in (v or {}).items():
                    yield v, mk, mv
            elif k not in ("name", "turns", "vp_tokens", "tokens"):
                yield p, k, v
    for k, n in (doc.get("supply") or {}).items():
        yield doc["supply"], k, n
    if "trash" in doc:
        yield doc, "trash", doc["trash"]
    for k, v in (doc.get("piles") or {}).items():
        yield doc["piles"], k, v
    for st in doc.get("steps") or []:
        if isinstance(st, dict):
            for k in ("play", "buy"):
                if k in st:
                    yield st, k, st[k]
            if isinstance(st.get("end_turn"), dict):
                for k in ("expect", "after_cleanup"):
                    yield from _expect_lists(st["end_turn"].get(k))
            yield from _expect_lists(st.get("expect"))
    yield from _expect_lists(doc.get("expect"))


def _expect_lists(exp: Any) -> Iterator[tuple[Any, Any, Any]]:
    if not isinstance(exp, dict):
        return
    for k, v in exp.items():
        if isinstance(v, list):
            yield exp, k, v
        elif isinstance(v, dict):
            for zk, zv in v.items():
                if isinstance(zv, list):
                    yield v, zk, zv
                elif isinstance(zv, dict):
                    for mk, mv in zv.items():
                        if isinstance(mv, list):
                            yield zv, mk, mv


def count_cards(f: str, doc: dict) -> int:
    """Refuse a scenario that would create or name more than MAX_CARDS cards, before any list is built."""
    total = 0
    for container, key, value in _card_lists(doc):
        if isinstance(value, int) and not isinstance(value, bool) and container is doc.get("supply"):
            total += value
        else:
            total += _count_list(value)
        if total > MAX_CARDS:
            raise ScenarioError(f, f"{key}: the scenario names more than {MAX_CARDS} cards in all (zones, mats, "
                                "steps, expectations and Supply piles); a real game never has that many",
                                line=line_of(container, key))
    return total
