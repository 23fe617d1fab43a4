"""Count bombs (issue 36, finding 1): no key of the scenario format can make the loader build more than it bounds.

``steps: [{buy_event: "Alms*200000000"}]`` once cost a worker 7.9 s and 1.6 GB before its 422: the
card bound knew the zones, ``play`` and ``buy``, but not the step kinds a mechanism registers. Here the
bombs are *generated* from the composed JSON Schema, for every registered step kind, setup key and
expect key and every key of the core format, so a key added tomorrow (Debt tokens, an answer binding,
a pile order) gets its bombs without anyone writing them: every place a value may be a string gets
``NAME*10000000`` and a 5,000-digit count, every integer a huge number. Each bomb must be refused (or
replayed) within a small time and memory budget, with a ScenarioError, never another exception.
"""
from __future__ import annotations

import time
import tracemalloc
from typing import Any

import pytest
import yaml

from app.engine.core.errors import ScenarioError
from app.engine.scenario import extensions as ext
from app.engine.scenario import loads, run
from app.engine.scenario.schema import MAX_CARDS, published_schema
from bench.count_bombs import BASE, BIG, HUGE_DIGITS, bombs_for, places, scenario_doc

PEAK_BYTES = 30_000_000
SECONDS = 3.0
PLACES = list(places())


def test_every_registered_key_is_among_the_places_bombed():
    """The list above is read from the registry and the schema: nothing registered is left out."""
    ids = {p[0] for p in PLACES}
    for name in ext.STEP_KINDS:
        assert f"step:{name}" in ids
    for scope, name in ext.SETUP_KEYS:
        assert (f"game:{name}" if scope == "game" else f"player:{name}") in ids
    for scope, name in ext.EXPECT_KEYS:
        assert (f"expect:{name}" if scope == "game" else f"player-expect:{name}") in ids
    assert {"step:play", "step:buy", "game:supply", "player:deck", "player:mats", "expect:trash"} <= ids


@pytest.mark.parametrize("place", PLACES, ids=[p[0] for p in PLACES])
def test_a_count_bomb_in_any_key_is_refused_before_anything_is_built(place):
    _, where, key, sub = place
    values = bombs_for(sub, published_schema())
    assert values, f"no bomb could be made for {place[0]}: its schema takes no value at all?"
    for value in values:
        text = yaml.safe_dump(scenario_doc(where, key, value), sort_keys=False, width=10**6)
        tracemalloc.start()
        t0 = time.perf_counter()
        try:
            try:
                run(loads(text, "bomb.yaml"))   # a replay is fine too, if the value was small after all
            except ScenarioError:
                pass
        finally:
            took = time.perf_counter() - t0
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
        shown = repr(value)[:120]
        assert peak < PEAK_BYTES and took < SECONDS, f"{place[0]} = {shown}: {peak / 1e6:.0f} MB, {took:.2f} s"


def test_the_schema_bounds_every_number_and_text_a_key_registers_without_one():
    """A registered key that forgets its bound gets the format's (composition adds it), so it is refused at load."""
    root = published_schema()
    stack: list[Any] = [root]
    unbounded = []
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict):
            types = node.get("type", [])
            types = [types] if isinstance(types, str) else types
            if ("integer" in types and "maximum" not in node) or \
                    ("string" in types and not {"maxLength", "enum", "const"} & set(node)):
                unbounded.append(node)
            stack.extend(v for k, v in node.items() if k not in ("enum", "const"))
    assert unbounded == []


def test_a_step_kind_registered_without_card_bounds_still_gets_them():
    """A new kind whose value names cards, registered with a bare string schema, cannot take a 10-million count."""
    from app.engine.scenario import schema as sch

    name = "zz_test_bomb_kind"
    ext.STEP_KINDS[name] = ext.StepKind(name, {"type": "string"}, lambda g, p, v: None, "test", "x", cards=True)
    try:
        doc = scenario_doc("step", name, f"Copper*{BIG}")
        with pytest.raises(ScenarioError, match=f"more than {MAX_CARDS} cards|at most {MAX_CARDS}"):
            loads(yaml.safe_dump(doc, sort_keys=False), "bomb.yaml")
        doc = scenario_doc("step", name, f"Copper*{HUGE_DIGITS}")
        with pytest.raises(ScenarioError):
            loads(yaml.safe_dump(doc, sort_keys=False, width=10**6), "bomb.yaml")
    finally:
        del ext.STEP_KINDS[name]
        sch._composed.cache_clear()
        sch._validator.cache_clear()


def test_the_loaders_one_expansion_refuses_past_the_bound():
    from app.engine.scenario import cardnames as cn

    with pytest.raises(ScenarioError, match=str(MAX_CARDS)):
        cn.expand([cn.Entry("Copper", BIG)])
    assert cn.expand([cn.Entry("Copper", 3), cn.Entry("Village", 1, "v")], labels=True) == \
        ["Copper", "Copper", "Copper", "Village#v"]


@pytest.mark.parametrize("how", ["api", "sandbox link"])
def test_the_buy_event_bomb_from_the_report_is_a_quick_4xx_on_the_web(prod_client, caplog, how):
    """The report's own reproducer: 7.9 s and 1.6 GB before; now refused before anything is expanded."""
    import base64
    import json
    import zlib

    state = {**BASE, "steps": [{"buy_event": "Alms*200000000"}]}
    t0 = time.perf_counter()
    if how == "api":
        resp = prod_client.post("/api/replay", data=yaml.safe_dump(state), content_type="application/yaml")
    else:
        token = base64.urlsafe_b64encode(zlib.compress(json.dumps(state).encode(), 9)).decode().rstrip("=")
        resp = prod_client.get("/try", query_string={"s": token})
    took = time.perf_counter() - t0
    assert 400 <= resp.status_code < 500 or (how == "sandbox link" and resp.status_code == 200)
    text = resp.get_data(as_text=True)
    assert f"more than {MAX_CARDS} cards" in text.replace("&#39;", "'")
    assert took < 1.5, took
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]
