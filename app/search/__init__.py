"""Search over the store: ``query.search`` answers, ``warm_up`` readies a process before it takes traffic."""
from __future__ import annotations

import logging
import time
from typing import Any

log = logging.getLogger(__name__)

# Asked once by ``warm_up``: it names a card and has ordinary words, so it passes through every stage a
# player's question does (names, spelling, candidates, the learned order, the page's slots, card facts).
_WARM_QUESTION = "does throne room on feast trash it"


def warm_up(store: Any = None) -> bool:
    """Open the search index and its models and ask one question, so the first player's search is as quick
    as any other. Call it when a worker starts, before it takes requests (the server's start-up hook).

    ``store`` is an open ``app.store.db.Store`` (the default store when None). Returns False, logging why,
    when there is no store or index yet (pages then say so themselves); it never raises for that.
    """
    from app.search.query import search
    from app.store.db import Store, StoreMissing

    start = time.perf_counter()
    try:
        store = store if store is not None else Store()
        result = search(store, _WARM_QUESTION)
    except StoreMissing as exc:
        log.info("search not warmed: %s", exc)
        return False
    if not result["results"]:
        log.info("search not warmed: %s", result.get("reason", "no results"))
        return False
    log.info("search warmed in %.2f s", time.perf_counter() - start)
    return True
