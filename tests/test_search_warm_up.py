"""app.search.warm_up: a worker opens the index and its models before it takes traffic (issue #34)."""
from __future__ import annotations

from app.search import query as query_mod, warm_up


def test_warm_up_opens_the_index_before_the_first_search(store):
    query_mod._ENGINES = query_mod.EngineCache()      # as in a new process: nothing opened yet
    assert warm_up(store) is True
    assert str(store.search_dir) in query_mod._ENGINES.keys()
    assert query_mod.load_model.cache_info().currsize >= 1


def test_warm_up_without_a_store_says_so_and_does_not_raise(tmp_path, monkeypatch, caplog):
    caplog.set_level("INFO", logger="app.search")
    monkeypatch.setenv("RULINGS_INDEX_DIR", str(tmp_path))     # an empty directory: nothing built yet
    assert warm_up() is False
    assert "not warmed" in caplog.text and "rulings build" in caplog.text
