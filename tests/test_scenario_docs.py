"""docs/scenario-format.md stays true: its reference tables are the schema's, its examples run.

When a mechanism registers a new step kind, setup key or expect key, the
generated tables change: run ``python -m app.engine.scenario.reference --write``.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.engine import scenario
from app.engine.scenario import labels, reference

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
       "after_cleanup", "end_turn:", "#first",
       # issue #31: named answers, the setup of earlier turns, pile order, expect_error's message, either name
       "{question:", "trash:", "played_last_turn:", "piles:", "expect_error:", 'versions: {Band of Misfits: "1"}']


@pytest.mark.parametrize("key", NEW)
def test_every_new_check_and_step_has_a_runnable_example(key):
    assert len(EXAMPLES) >= 8
    assert any(key in t for t in EXAMPLES), key


def test_every_choose_one_label_in_the_docs_table_is_still_offered_by_its_scenario():
    """The generated labels table (labels.py) stays true: each row's scenario still asks that question with
    those labels. A new scenario with a new question leaves the table incomplete, not wrong (re-run
    ``python -m app.engine.scenario.labels --write`` to add it)."""
    from app import config

    rows = labels.rows_in(TEXT)
    assert len(rows) >= 30
    by_file: dict[str, list] = {}
    for prompt, offered, file in rows:
        by_file.setdefault(file, []).append((prompt, sorted(offered)))
    for file, wanted in by_file.items():
        rp = scenario.replay(scenario.load(config.scenarios_dir() / file), zones=False)
        asked = {(a.question.prompt, tuple(sorted(map(str, a.question.option_labels()))))
                 for a in rp.game.decider.record if a.question.kind == "choice"}
        for prompt, offered in wanted:
            assert (prompt, tuple(offered)) in asked, (file, prompt, offered)
