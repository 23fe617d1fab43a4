"""Card names typed into the sandbox: the same forms search accepts, and a clear word when one can't be played.

A player types "KC", "Burggraben" or "throne room"; search's name index (card
names, German names, community abbreviations, all from the store) turns each
into its Card Reference name. A real card the engine has no definition for yet
is told so ("not in the sandbox yet") rather than "corrected" into another card.
"""
from __future__ import annotations

import difflib
import threading
from typing import Any, Callable


def defined_cards() -> list[str]:
    """Every card the engine registers, so sets added to the registry appear without touching the sandbox."""
    from app.engine.core.registry import defined_cards as registry_defined_cards

    return registry_defined_cards()


class CardResolver:
    """``resolve(typed) -> (name, problem)``: exactly one of them is None."""

    def __init__(self, store_getter: Callable[[], Any] | None = None):
        self._store_getter = store_getter
        self._index = None
        self._lock = threading.Lock()

    def _names(self):
        if self._index is None and self._store_getter is not None:
            with self._lock:
                if self._index is None:
                    try:
                        from app.search.indexer import name_index_from_store

                        self._index = name_index_from_store(self._store_getter())
                    except Exception:  # noqa: BLE001 - no store: defined names and card facts still work
                        self._index = False
        return self._index or None

    def resolve(self, typed: str) -> tuple[str | None, str | None]:
        from app.corpus.card_facts import facts_for

        defined = {n.lower(): n for n in defined_cards()}
        text = typed.strip()
        if text.lower() in defined:
            return defined[text.lower()], None
        real, fuzzy = None, None
        index = self._names()
        if index is not None:
            found = index.recognize(text)
            sure = {r.name for r in found if r.how != "fuzzy"}
            if len(sure) == 1 and len(found) == 1:
                real = sure.pop()
            elif len({r.name for r in found}) == 1:
                fuzzy = found[0].name
        if real is None and fuzzy is None:
            f = facts_for(text)
            real = f.name if f else None
        if real is not None:
            if real.lower() in defined:
                return defined[real.lower()], None
            return None, f"{real} is a real card, but it is not in the sandbox yet"
        near = [fuzzy] if fuzzy and fuzzy.lower() in defined else \
            difflib.get_close_matches(text, list(defined.values()), n=3, cutoff=0.6)
        hint = f"; did you mean {', '.join(near)}?" if near else ""
        return None, f"{text!r} is not a card name{hint}"
