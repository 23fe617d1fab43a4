"""docs/scenario-format.md stays true: its reference tables are the schema's, its examples run.

When a mechanism registers a new step kind, setup key or expect key, the
generated tables change: run ``python -m app.engine.scenario.reference --write``.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.engine import scenario
from app.engine.scenario import reference

DOC = Path(__file__).resolve().parents[1] / "docs" / "scenario-format.md"
TEXT = DOC.read_text(encoding="utf-8")
EXAMPLES = re.findall(r"```yaml\n# runnable example\n(.*?)```", TEXT, re.S)


def test_reference_tables_are_generated_from_the_current_schema():
    assert reference.current(TEXT) == reference.generate(), \
        "docs/scenario-format.md is stale: run python -m app.engine.scenario.reference --write"


@pytest.mark.parametrize("text", EXAMPLES, ids=[re.search(r"title: (.*)", t)[1][:50] for t in EXAMPLES])
def test_every_runnable_example_in_the_doc_replays_cleanly(text):
    res = scenario.run(scenario.loads(text, "docs/scenario-format.md example"))
    assert res.ok, (res.error, [f.render() for f in res.failures])


NEW = ["contains", "discard_order", "top", "not_in_log", "cost", "gained_this_turn", "offered", "pile_tokens",
       "after_cleanup", "end_turn:", "#first"]


@pytest.mark.parametrize("key", NEW)
def test_every_new_check_and_step_has_a_runnable_example(key):
    assert len(EXAMPLES) >= 8
    assert any(key in t for t in EXAMPLES), key
