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
from app.engine.core.errors import ScenarioError, excerpt
from app.engine.core.registry import aliases, definition
from app.engine.scenario.schema import MAX_CARDS, where
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
        raise ScenarioError(f, f"{where}: expected a card name, NAME*COUNT or NAME#label, found {excerpt(raw)}",
                            line=line)
    n = _count(m["n"])
    if n > MAX_CARDS:
        raise ScenarioError(f, f"{where}: {excerpt(raw)}: a count is at most {MAX_CARDS}", line=line)
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


def expand(es: list[Entry], *, labels: bool = False) -> list[str]:
    """The names, one per copy (``labels``: ``NAME#label`` for a labelled copy): the format's one expansion.

    ``count_cards`` bounded every count in the document at load; this checks the total again before a
    list is built, so no caller (a new step kind, a check) can expand more than ``MAX_CARDS`` whatever
    path its entries took.
    """
    total = sum(e.count for e in es)
    if total > MAX_CARDS:
        raise ScenarioError("scenario", f"{total} cards in one list; a scenario names at most {MAX_CARDS}")
    return [e.text() if labels else e.name for e in es for _ in range(e.count)]


def names(f: str, lst: Any, line: int | None, where: str, *, playable: bool = True) -> list[str]:
    return expand(entries(f, lst, line, where, playable=playable))


# ------------------------------------------------------------------ the bound, before anything is built
# Free text: a title or a note that happens to read "Copper*9" creates nothing.
_TEXT_KEYS = frozenset({"title", "description", "note", "rulings", "expect_error", "prompt"})
# Numbers of the core format that count or set something, never create cards (a count in an ``expect``
# zone compares, it creates nothing; the schema bounds each of these on its own).
_NOT_CREATING = frozenset({"turns", "vp_tokens", "tokens", "seed", "step_limit", "turn", "expect", "step"})
_COUNT_DIGITS = len(str(MAX_CARDS))


def _count(digits: str | None) -> int:
    """A ``*N`` count; one longer than any bound is MAX_CARDS + 1 without converting it (Python refuses
    to convert more than 4,300 digits, and a 5,000-digit count must be a clear error, not a crash)."""
    if digits is None:
        return 1
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= _COUNT_DIGITS else MAX_CARDS + 1


def _entry_count(raw: str) -> int:
    m = _ENTRY.match(raw)
    return _count(m["n"]) if m is not None and m["n"] is not None else 0


def _counts(doc: dict) -> Iterator[tuple[Any, Any, list, int]]:
    """(container, key, path, n) for every count anywhere in a scenario, whichever step kind or key holds it.

    Walks the whole document (iteratively: no recursion on hostile nesting), not a list of known keys,
    so a step kind, setup key or expect key registered tomorrow is counted too: every ``NAME*N`` string
    counts N; every number under ``supply`` or a registered setup key counts itself (it may size a
    pile or a stack of tokens). Setup keys are the ones registered in ``extensions.SETUP_KEYS``.
    """
    from app.engine.scenario.extensions import SETUP_KEYS

    game_setup = {name for scope, name in SETUP_KEYS if scope == "game"} | {"supply"}
    player_setup = {name for scope, name in SETUP_KEYS if scope == "player"}
    stack: list[tuple[Any, Any, list, Any, bool]] = []
    for k, v in doc.items():
        if k == "players" and isinstance(v, list):
            for i, p in enumerate(v):
                if isinstance(p, dict):
                    stack += [(p, pk, ["players", i, pk], pv, pk in player_setup) for pk, pv in p.items()
                              if pk not in _TEXT_KEYS]
        elif k not in _TEXT_KEYS:
            stack.append((doc, k, [k], v, k in game_setup))
    while stack:
        container, key, path, value, creates = stack.pop()
        if isinstance(value, str):
            n = _entry_count(value)
            if n:
                yield container, key, path, n
        elif isinstance(value, bool) or value is None:
            continue
        elif isinstance(value, int):
            if creates:
                yield container, key, path, max(value, 0)
        elif isinstance(value, dict):
            stack += [(value, k, path + [k], v, creates and k not in _NOT_CREATING) for k, v in value.items()
                      if k not in _TEXT_KEYS]
        elif isinstance(value, list):
            stack += [(value, i, path + [i], v, creates) for i, v in enumerate(value)]


def count_cards(f: str, doc: dict) -> int:
    """Refuse a scenario that would create or name more than MAX_CARDS cards, before any list is built."""
    total = 0
    for container, key, path, n in _counts(doc):
        total += n
        if total > MAX_CARDS:
            raise ScenarioError(f, f"{where(path)}: the scenario names more than {MAX_CARDS} cards in all (zones, "
                                "mats, steps, setup, expectations and Supply piles); a real game never has that many",
                                line=line_of(container, key))
    return total


def version_refusal(card: str, asked: object, known: list[str]) -> str:
    """Why a `versions:` entry is refused, in words: a card the engine runs in one printing only has no
    version list to quote (it would read "has versions , not '1'")."""
    real = [v for v in known if v]
    if not real:
        return (f"{card} has only its current printing in the engine (no earlier version is defined), "
                f"so {asked!r} cannot be chosen; remove it from versions")
    return f"{card} has versions {', '.join(real)}, not {asked!r}"
