"""The search module keeps at most two opened indexes (one per rebuild directory), most recently used."""
from __future__ import annotations

import shutil

from app.search import query
from app.search.query import EngineCache, engine_for, search
from app.store.db import Store


def test_cache_keeps_the_two_most_recently_used():
    cache = EngineCache(maxsize=2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1              # 'a' is now the most recent
    cache.put("c", 3)
    assert cache.keys() == ["a", "c"] and cache.get("b") is None


def test_rebuilt_indexes_do_not_accumulate(store, tmp_path, monkeypatch):
    """Three index directories (as three rebuilds leave them) are opened in turn: two stay open."""
    monkeypatch.setattr(query, "_ENGINES", EngineCache())
    stores = []
    for i in range(3):
        copy = tmp_path / f"build{i}"
        copy.mkdir()
        shutil.copy2(store.path, copy / store.path.name)
        shutil.copytree(store.search_dir, copy / store.search_dir.name)
        stores.append(Store(copy / store.path.name))
    engines = [engine_for(s) for s in stores]
    assert len({id(e) for e in engines}) == 3
    assert query._ENGINES.keys() == [str(s.search_dir) for s in stores[1:]]
    assert engine_for(stores[2]) is engines[2]          # reused, not reopened
    # an evicted directory still answers (it is reopened), and evicts the least recently used
    assert search(stores[0], "Feast")["results"][0]["key"] == "feast"
    assert query._ENGINES.keys() == [str(stores[2].search_dir), str(stores[0].search_dir)]
