"""Which scenarios involve which cards, and the line of each that settles its question.

The store's ``scenarios`` and ``scenario_cards`` tables (written by ``rulings build``
from the replayed files, see app/store/scenarios.py) are the one source: card
pages, the scenario list, search's "scenarios with these cards" and the
scenario pages' highlighted answer all read them, read once per app.
"""
from __future__ import annotations

import threading
from typing import Any, Callable


class ScenarioFacts:
    """Scenario rows as the store gives them (key, title, sets, cards, rulings, settles, settles_at, log, ok)."""

    def __init__(self, store_getter: Callable[[], Any]):
        self._store_getter = store_getter
        self._rows: list[dict[str, Any]] | None = None
        self._lock = threading.Lock()

    def rows(self) -> list[dict[str, Any]]:
        if self._rows is None:
            with self._lock:
                if self._rows is None:
                    store = self._store_getter()
                    self._rows = store.scenarios() if store.has_table("scenarios") else []
        return self._rows

    def get(self, key: str) -> dict[str, Any] | None:
        return next((r for r in self.rows() if r["key"] == key), None)

    def involving(self, *names: str) -> list[dict[str, Any]]:
        """Scenarios that involve every one of ``names`` (named in the setup, steps or answers, or cited)."""
        want = {n.lower() for n in names if n}
        out = []
        for r in self.rows():
            have = {str(c).lower() for c in r.get("cards") or []}
            have |= {str(c.get("card", "")).lower() for c in r.get("rulings") or [] if isinstance(c, dict)}
            if want <= have:
                out.append(r)
        return out
