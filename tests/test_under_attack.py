"""Serving under attack (issue 15): what one person must not be able to do to everyone else.

Registry loading, interrupted builds, the canonical link, bad sandbox and page
inputs, the replay deadline, replay capacity and rate limits, and the scenario
listing cache. The slow-client attack on the real production server is in
``tests/test_prod_front.py``.
"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path


from bench.heavy_scenario import heavy_scenario  # the same table bench/deadline.py and bench/attack.py use

ROOT = Path(__file__).resolve().parent.parent


def _python(code: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)


# ------------------------------------------------------------------ 4. the card registry
def test_an_interrupted_registry_load_is_retried_whole_not_left_half_filled():
    """A load interrupted part-way (a timeout raised into an import) leaves nothing behind; the next load is whole."""
    out = _python("""
        from app.engine.core import registry

        class Interrupted(BaseException):
            pass

        real, calls = registry.register, [0]
        def flaky(d, default=True):
            calls[0] += 1
            if calls[0] == 60:
                raise Interrupted()
            return real(d, default)
        registry.register = flaky
        try:
            registry.defined_cards()
        except Interrupted:
            pass
        print(len(registry._DEFS), end=" ")
        registry.register = real
        print(len(registry.defined_cards()))
    """)
    assert out.returncode == 0, out.stderr[-3000:]
    half, after = map(int, out.stdout.split())
    clean = int(_python("from app.engine.core import registry; print(len(registry.defined_cards()))").stdout)
    assert half == 0                  # nothing registered by the interrupted attempt survives it
    assert after == clean > 150       # the retry registers every card (compare: a clean load)


def test_the_app_loads_the_card_registry_when_it_is_created_not_in_a_request(built_index):
    out = _python(f"""
        from app import create_app
        from app.engine.core import registry
        assert not registry._loaded
        create_app({{"DB_PATH": {str(built_index / "rules.db")!r}}})
        print(registry._loaded, len(registry._DEFS))
    """)
    assert out.returncode == 0, out.stderr[-3000:]
    loaded, count = out.stdout.split()
    assert loaded == "True" and int(count) > 150


# ------------------------------------------------------------------ 7. the canonical link
def test_canonical_link_uses_the_configured_address_not_the_host_header(built_index):
    from app import create_app

    app = create_app({"DB_PATH": str(built_index / "rules.db"), "BASE_URL": "https://rulings.example.org/"})
    client = app.test_client()
    for _ in range(2):          # the second answer comes from the response cache: it must not differ
        html = client.get("/cards/village", headers={"Host": "evil.example"}).get_data(as_text=True)
        assert '<link rel="canonical" href="https://rulings.example.org/cards/village">' in html
        assert "evil.example" not in html


def test_without_a_configured_address_no_canonical_link_is_guessed(built_index, monkeypatch):
    from app import create_app

    monkeypatch.delenv("RULINGS_BASE_URL", raising=False)
    app = create_app({"DB_PATH": str(built_index / "rules.db")})
    html = app.test_client().get("/cards/village", headers={"Host": "evil.example"}).get_data(as_text=True)
    assert 'rel="canonical"' not in html and "evil.example" not in html


def test_a_malformed_base_url_is_refused_at_start():
    import pytest

    from app.web.canonical import normalise_base_url

    assert normalise_base_url("https://r.example.org/dominion/") == "https://r.example.org/dominion"
    for bad in ("rulings.example.org", "ftp://x", "https://x/?a=1", "https://user@x"):
        with pytest.raises(ValueError, match="RULINGS_BASE_URL"):
            normalise_base_url(bad)


# ------------------------------------------------------------------ 6. builds stopped part-way
def _copy_index(built_index: Path, dest: Path) -> Path:
    import shutil

    from app.store.build import read_meta

    dest.mkdir()
    shutil.copy2(built_index / "rules.db", dest / "rules.db")
    name = read_meta(dest / "rules.db")["search_dir"]
    shutil.copytree(built_index / name, dest / name)
    return dest


def test_a_build_stopped_with_sigterm_leaves_no_temporary_store(built_index, tmp_path):
    import signal
    import time

    index = _copy_index(built_index, tmp_path / "index")
    before = (index / "rules.db").read_bytes()
    env = dict(os.environ, RULINGS_INDEX_DIR=str(index))
    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "build", "--force"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and proc.poll() is None and not list(index.glob(".rules.db.*.tmp")):
            time.sleep(0.02)
        assert list(index.glob(".rules.db.*.tmp")), "the build never started writing its temporary store"
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert code != 0
    assert not list(index.glob(".rules.db.*")), list(index.iterdir())
    assert (index / "rules.db").read_bytes() == before          # the good store is untouched


def test_the_next_build_removes_temporary_stores_of_dead_builds(built_index, tmp_path):
    from app.store.build import build

    index = _copy_index(built_index, tmp_path / "index")
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    abandoned = index / f".rules.db.{dead.pid}.20260101T000000000000Z.tmp"
    abandoned.write_bytes(b"x" * 1000)
    (index / (abandoned.name + "-journal")).write_bytes(b"j")
    alive = index / f".rules.db.{os.getppid()}.20260101T000000000000Z.tmp"   # a build still running: kept
    alive.write_bytes(b"y")
    result = build(index_dir=index)          # up to date: skipped, but it still tidies up
    assert result.skipped
    assert not abandoned.exists() and not (index / (abandoned.name + "-journal")).exists()
    assert alive.exists()


# ------------------------------------------------------------------ 5. bad input from the web side
def _token(state) -> str:
    import base64
    import json
    import zlib

    return base64.urlsafe_b64encode(zlib.compress(json.dumps(state).encode(), 9)).decode().rstrip("=")


GAME = {"title": "t", "rulings": [{"section": "Your turn"}], "supply": {"Village": 10},
        "players": [{"name": "Alice", "hand": ["Village"], "deck": []}, {"name": "Bob", "hand": [], "deck": []}],
        "steps": [{"end_turn": True, "answers": []}]}


def _deep(n: int):
    v = 5
    for _ in range(n):
        v = [v]
    return v


def _no_internal_error(caplog, resp, status: int, *words: str) -> str:
    import html

    text = html.unescape(resp.get_data(as_text=True))
    assert resp.status_code == status, (resp.status_code, text[:500])
    for w in words:
        assert w in text, (w, text[:800])
    assert "internal_error" not in text
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")], caplog.text[-2000:]
    return text


import pytest  # noqa: E402


@pytest.mark.parametrize("bad,words", [
    ({"rulings": 5}, ("rulings: expected a list", "found int")),
    ({"rulings": _deep(500)}, ("nesting",)),
    ({"title": _deep(500)}, ("nesting",)),
    ({"players": [5]}, ("players item 1",)),
    ({"steps": [{"end_turn": True, "answers": 5}]}, ("step 1 answers: expected a list",)),
    ({"steps": [{"end_turn": True, "answers": "abc"}]}, ("step 1 answers: expected a list",)),
    ({"steps": [{"end_turn": True, "answers": {"a": 1}}]}, ("step 1 answers: expected a list",)),
], ids=["rulings-int", "rulings-deep", "title-deep", "player-int", "answers-int", "answers-str", "answers-dict"])
def test_damaged_sandbox_links_are_refused_with_what_is_wrong(prod_client, caplog, bad, words):
    token = _token({**GAME, **bad})
    _no_internal_error(caplog, prod_client.get("/try", query_string={"s": token}), 400, *words)
    _no_internal_error(caplog, prod_client.get("/try/scenario.yaml", query_string={"s": token}), 400, *words)
    for op in ("undo", "answer", "end_turn", "rulings"):
        resp = prod_client.post("/try", data={"s": token, "op": op, "answer": "Copper", "rulings": "Moat 1"})
        _no_internal_error(caplog, resp, 400, *words)


def test_a_page_number_past_any_integer_is_a_404(prod_client, caplog):
    _no_internal_error(caplog, prod_client.get("/rules/page/99999999999999999999999"), 404,
                       "no section of the Complete Rules is on page 99999999999999999999999")
    assert prod_client.get("/rules/page/3").status_code in (301, 302)


# ------------------------------------------------------------------ 3. the replay deadline
def _app_with_deadline(built_index, monkeypatch, seconds: float):
    import dataclasses

    from app import create_app
    from app.web import limits

    monkeypatch.setattr(limits, "REPLAY_SECONDS", dataclasses.replace(limits.REPLAY_SECONDS, value=seconds))
    return create_app({"DB_PATH": str(built_index / "rules.db")})


def test_replays_run_without_a_profile_or_trace_hook(prod_client, monkeypatch):
    """The deadline is the engine's own step check: a profiling hook made every replay about 3x slower."""
    from app.web import replay as rp

    seen = []
    real = rp.replay

    def spy(scen):
        seen.append((sys.getprofile(), sys.gettrace()))
        return real(scen)

    monkeypatch.setattr(rp, "replay", spy)
    body = sorted((ROOT / "corpus" / "scenarios").glob("*.yaml"))[0].read_bytes()
    resp = prod_client.post("/api/replay", data=body, content_type="application/yaml")
    assert resp.status_code == 200
    assert seen == [(None, None)]


# A deadline well inside the heavy replay: warm, reading it takes about 20-30 ms and the engine about 75-175 ms
# more (step_limit and the 300-step bound cap how long a legal replay runs). At 0.1 s the two raced: 2 of 20
# warm requests (one app, one warm-up replay, then 20 in a row) finished the engine first and answered 200.
SHORT_DEADLINE = 0.04


def test_the_deadline_stops_a_long_replay_at_a_step(built_index, monkeypatch):
    import time

    client = _app_with_deadline(built_index, monkeypatch, SHORT_DEADLINE).test_client()
    t0 = time.monotonic()
    resp = client.post("/api/replay", data=heavy_scenario(), content_type="application/yaml")
    took = time.monotonic() - t0
    assert resp.status_code == 422 and resp.get_json()["code"] == "replay_timeout"
    assert took < 3, took          # stopped at a step soon after its deadline, not at the end
    # The worker is fine afterwards: the next replay (a short one) runs.
    ok = client.post("/api/replay", data=heavy_scenario(10, 2), content_type="application/yaml")
    assert ok.status_code == 200, ok.get_json()


def test_reading_the_scenario_counts_against_the_replay_deadline(built_index, monkeypatch):
    """Time spent checking and parsing the YAML is part of the replay's budget, not free on top of it."""
    import time

    from app.web import limits

    client = _app_with_deadline(built_index, monkeypatch, 0.5).test_client()
    real = limits.check_scenario

    def slow_check(data, mimetype="application/yaml"):
        time.sleep(0.6)
        return real(data, mimetype)

    monkeypatch.setattr(limits, "check_scenario", slow_check)
    resp = client.post("/api/replay", data=heavy_scenario(10, 2), content_type="application/yaml")
    assert resp.status_code == 422 and resp.get_json()["code"] == "replay_timeout"


# ------------------------------------------------------------------ 3. listings once per build
def test_scenario_listings_are_read_once_per_build_whatever_the_query_string(built_index, monkeypatch):
    from app import create_app
    from app.web import replay as rp

    app = create_app({"DB_PATH": str(built_index / "rules.db")})
    client = app.test_client()
    assert client.get("/api/scenarios").status_code == 200
    loads = []
    real = rp.load_id
    monkeypatch.setattr(rp, "load_id", lambda sid: loads.append(sid) or real(sid))
    for url in ("/scenarios", "/api/scenarios?x=1", "/scenarios?utm=2", "/api/scenarios?limit=3&y=4"):
        resp = client.get(url)
        assert resp.status_code == 200
    assert loads == []               # nothing re-read the scenario files
    assert len(client.get("/api/scenarios?z=9").get_json()["scenarios"]) == len(rp.scenario_ids())


# ------------------------------------------------------------------ 3. replay capacity and budgets
def _gated_app(built_index, tmp_path, **config):
    from app import create_app

    return create_app({"DB_PATH": str(built_index / "rules.db"), "RUN_DIR": str(tmp_path / "run"), **config})


SHORT = (ROOT / "corpus" / "scenarios" / "adventurer-digs-through-shuffle.yaml").read_bytes()


def test_when_every_replay_slot_is_busy_replays_get_503_and_pages_still_answer(built_index, tmp_path,
                                                                               hold_replay_slots):
    app = _gated_app(built_index, tmp_path, REPLAY_SLOTS=1)
    client = app.test_client()
    # Other workers hold the only slot and the one kept for small replays, as long replays would.
    release = hold_replay_slots(tmp_path / "run" / "replay-slot-0.lock", tmp_path / "run" / "replay-small-0.lock")
    resp = client.post("/api/replay", data=SHORT, content_type="application/yaml")
    assert resp.status_code == 503 and resp.get_json()["code"] == "replays_busy"
    assert int(resp.headers["Retry-After"]) >= 1
    token = _token(GAME)
    assert client.get("/try", query_string={"s": token}).status_code == 503
    for url in ("/healthz", "/cards/village", "/scenarios/adventurer-digs-through-shuffle", "/api/scenarios"):
        assert client.get(url).status_code == 200, url
    release()
    # The holder is gone (its locks went with it): replays run again.
    assert client.post("/api/replay", data=SHORT, content_type="application/yaml").status_code == 200


def test_a_client_over_its_replay_budget_gets_429_with_retry_after_and_others_do_not(built_index, tmp_path):
    app = _gated_app(built_index, tmp_path, RATE_LIMITS=True, REPLAY_BURST=0.3, REPLAY_RATE=0.05)
    client = app.test_client()
    flooder = {"REMOTE_ADDR": "203.0.113.7"}
    statuses = [client.post("/api/replay", data=SHORT, content_type="application/yaml",
                            environ_base=flooder).status_code for _ in range(10)]
    assert statuses[0] == 200 and statuses[-1] == 429, statuses
    resp = client.post("/api/replay", data=SHORT, content_type="application/yaml", environ_base=flooder)
    body = resp.get_json()
    assert resp.status_code == 429 and body["code"] == "too_many_replays"
    assert int(resp.headers["Retry-After"]) >= 1 and "try again in" in body["message"]
    # The flooder's cheap pages are not limited; another address's replays are not either.
    assert client.get("/cards/village", environ_base=flooder).status_code == 200
    other = {"REMOTE_ADDR": "198.51.100.9"}
    assert client.post("/api/replay", data=SHORT, content_type="application/yaml",
                       environ_base=other).status_code == 200


def test_replay_budgets_are_shared_by_every_worker(tmp_path):
    """Two processes charging one client draw on one bucket (the budget is not per worker)."""
    from app.web.capacity import ReplayBudgets

    path = tmp_path / "budgets.bin"
    ReplayBudgets(path, rate=0.001, burst=10).remaining("203.0.113.7")
    out = _python(f"""
        from pathlib import Path
        from app.web.capacity import ReplayBudgets
        b = ReplayBudgets(Path({str(path)!r}), rate=0.001, burst=10)
        print(b.charge("203.0.113.7", 4.0))
    """)
    assert out.returncode == 0, out.stderr
    assert 5.9 < float(out.stdout) < 6.1
    left = ReplayBudgets(path, rate=0.001, burst=10).charge("203.0.113.7", 4.0)
    assert 1.9 < left < 2.1
