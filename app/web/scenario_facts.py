"""Which scenarios involve which cards, and the line of each that settles its question.

The store's ``scenarios`` and ``scenario_cards`` tables (docs: /work/wt/SCENARIO_STORE.md,
written by ``rulings build``) are the one source. A store built before those
tables existed still gets the same answers, read once from the scenario files,
so card pages and search never show fewer scenarios than the files hold.
"""
from __future__ import annotations

import json
import re
import threading
from typing import Any, Iterable

import yaml

from app.web import replay as rp

_COUNT = re.compile(r"\s*\*\s*\d+\s*$")
_ZONES = ("hand", "deck", "discard", "in_play", "set_aside", "revealed")


def _canonical(name: Any) -> str | None:
    if not isinstance(name, str):
        return None
    from app.corpus.card_facts import facts_for

    f = facts_for(_COUNT.sub("", name).strip())
    return f.name if f else None


def _walk_names(value: Any, out: list[str]) -> None:
    if isinstance(value, str):
        n = _canonical(value)
        if n and n not in out:
            out.append(n)
    elif isinstance(value, list):
        for v in value:
            _walk_names(v, out)
    elif isinstance(value, dict):
        for k, v in value.items():
            if k in ("expect", "answers_note"):
                continue
            _walk_names(v, out)


def cards_named(raw: dict[str, Any]) -> list[str]:
    """Cards a scenario names in its setup (players' zones), steps and answers, in order of appearance."""
    out: list[str] = []
    for p in raw.get("players") or []:
        if isinstance(p, dict):
            for z in _ZONES:
                _walk_names(p.get(z), out)
    for st in raw.get("steps") or []:
        if isinstance(st, dict):
            _walk_names({k: v for k, v in st.items() if k != "expect"}, out)
    return out


def _sets(cards: Iterable[str]) -> list[str]:
    from app.corpus.card_facts import facts_for

    out: list[str] = []
    for c in cards:
        f = facts_for(c)
        if f and f.set not in out and f.purpose != "Basic":
            out.append(f.set)
    return out


class ScenarioFacts:
    """Scenario rows as the store contract gives them (key, title, sets, cards, rulings, settles...)."""

    def __init__(self, store_getter):
        self._store_getter = store_getter
        self._rows: list[dict[str, Any]] | None = None
        self._lock = threading.Lock()

    def rows(self) -> list[dict[str, Any]]:
        if self._rows is None:
            with self._lock:
                if self._rows is None:
                    self._rows = self._from_store() or self._from_files()
        return self._rows

    def _from_store(self) -> list[dict[str, Any]] | None:
        try:
            store = self._store_getter()
            if not store.has_table("scenarios"):
                return None
            rows = store.scenarios()
        except Exception:  # noqa: BLE001 - an older store: read the files instead
            return None
        out = []
        for r in rows:
            r = dict(r)
            for k in ("sets", "cards", "rulings", "ruling_keys", "log"):
                if isinstance(r.get(k), str):
                    r[k] = json.loads(r[k])
            out.append(r)
        return out

    def _from_files(self) -> list[dict[str, Any]]:
        out = []
        for sid in rp.scenario_ids():
            path = rp.scenario_path(sid)
            try:
                raw = yaml.safe_load(path.read_text(encoding="utf-8")) if path else None
            except (OSError, yaml.YAMLError):
                raw = None
            if not isinstance(raw, dict):
                continue
            cards = cards_named(raw)
            for r in raw.get("rulings") or []:
                if isinstance(r, dict) and _canonical(r.get("card")) and _canonical(r.get("card")) not in cards:
                    cards.append(_canonical(r.get("card")))
            out.append({"key": sid, "title": str(raw.get("title") or sid), "sets": _sets(cards), "cards": cards,
                        "rulings": [r for r in raw.get("rulings") or [] if isinstance(r, dict)],
                        "settles": None, "settles_at": None})
        return out

    def by_key(self) -> dict[str, dict[str, Any]]:
        return {r["key"]: r for r in self.rows()}

    def involving(self, *names: str) -> list[dict[str, Any]]:
        """Scenarios that involve every one of ``names`` (a card is involved when named or cited)."""
        want = {n.lower() for n in names if n}
        out = []
        for r in self.rows():
            have = {c.lower() for c in r.get("cards") or []}
            have |= {str(c.get("card", "")).lower() for c in r.get("rulings") or [] if isinstance(c, dict)}
            if want <= have:
                out.append(r)
        return out


def settling_index(log: list[dict[str, Any]], rulings: list[dict[str, Any]]) -> int | None:
    """The log line that settles the question: the first citing a ruling the scenario demonstrates, else the last."""
    if not log:
        return None
    cited = [r for r in rulings if isinstance(r, dict)]

    def same(a: dict[str, Any], b: dict[str, Any]) -> bool:
        if "card" in a and "card" in b:
            return str(a["card"]).lower() == str(b["card"]).lower() and a.get("ruling") == b.get("ruling")
        return "section" in a and "section" in b and str(a["section"]).lower() == str(b["section"]).lower()

    for i, e in enumerate(log):
        if e.get("step") is None:
            continue
        if any(same(c, r) for c in e.get("citations") or [] for r in cited):
            return i
    steps = [i for i, e in enumerate(log) if e.get("step") is not None]
    return steps[-1] if steps else len(log) - 1
