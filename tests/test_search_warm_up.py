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


def test_rulings_serve_warms_search_and_its_page_before_serving(built_index, monkeypatch):
    """`rulings serve` (development) opens the index and compiles the search page's templates before
    it listens: the first player's search does neither (issue #34: the first search under 100 ms)."""
    import flask

    from app import cli

    started = {}

    def run(self, host=None, port=None, **kwargs):      # instead of listening: look at what is ready
        started["engines"] = list(query_mod._ENGINES.keys())
        started["templates"] = [name for (_, name) in self.jinja_env.cache.keys()] if self.jinja_env.cache else []
        started["scenario facts"] = self.extensions["rulings"].generation().services.scenarios.facts._rows

    query_mod._ENGINES = query_mod.EngineCache()
    monkeypatch.setattr(flask.Flask, "run", run)
    assert cli.main(["serve", "--port", "5999"]) == 0
    assert any(str(built_index) in e for e in started["engines"])
    assert {"home.html", "base.html"} <= set(started["templates"])
    assert started["scenario facts"], "a question naming two cards would read every scenario row first"
