"""The engine's public per-step replay API (``scenario.replay``), as the web pages and the sandbox use it.

A user relies on: the zones shown after step N being the state after exactly
N steps; every log line being shown under the step that produced it; a
missing answer coming back as the question with its legal options (the
sandbox's form); a wrong answer or step naming the step, its line, the
question and what was legal. All on the real scenario files.
"""
from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest

from app import config
from app.corpus.card_facts import facts_for
from app.engine import scenario
from app.engine.core.decisions import IllegalDecision, NeedDecision
from app.engine.core.errors import ScenarioError


def _text(name: str) -> str:
    return (config.scenarios_dir() / f"{name}.yaml").read_text(encoding="utf-8")


def _edited(name: str, old: str, new: str) -> scenario.Scenario:
    """A corpus scenario with one edit, loaded from text (as the web API does)."""
    text = _text(name)
    assert old in text, f"{name}.yaml no longer contains {old!r}: update the test's edit"
    return scenario.loads(text.replace(old, new), f"{name} (edited)")


def _multi_step_scenarios() -> list[str]:
    """Corpus scenarios with several steps that replay cleanly: the per-step checks run on these."""
    out = []
    for p in sorted(config.scenarios_dir().glob("*.yaml")):
        sc = scenario.load(p)
        if len(sc.steps) >= 3 and "expect_error" not in sc.raw:
            out.append(p.stem)
    return out[:12]


# ------------------------------------------------------------------ per-step results
@pytest.mark.parametrize("name", _multi_step_scenarios())
def test_zones_after_each_step_are_the_state_after_that_many_steps(name):
    sc = scenario.load(config.scenarios_dir() / f"{name}.yaml")
    rp = scenario.replay(sc)
    assert rp.error is None and rp.stop is None and rp.ok, rp.error or rp.failures
    assert [s.index for s in rp.steps] == [st.index for st in sc.steps]
    assert [s.line for s in rp.steps] == [st.line for st in sc.steps]
    for n, step in enumerate(rp.steps, start=1):
        shorter = scenario.replay(dataclasses.replace(sc, steps=sc.steps[:n]), zones=False)
        assert step.zones == scenario.snapshot(shorter.game), f"{name}: zones after step {n}"
    # a later step does not change what an earlier snapshot says (they are copies, not views)
    assert rp.steps[-1].zones == scenario.snapshot(rp.game)


@pytest.mark.parametrize("name", _multi_step_scenarios())
def test_every_log_entry_is_under_the_step_that_produced_it(name):
    rp = scenario.replay(scenario.load(config.scenarios_dir() / f"{name}.yaml"))
    setup = [e for e in rp.log.entries if e.step is None]
    per_step = [e for s in rp.steps for e in s.log]
    assert setup + per_step == rp.log.entries     # nothing logged outside a step except the setup, first
    for s in rp.steps:
        assert all(e.step == s.index for e in s.log), f"{name}: step {s.index}"


def test_step_expectations_are_reported_with_their_step():
    sc = _edited("throne-room-feast", "discard: [Duchy, Laboratory]}", "discard: [Duchy, Gold]}")
    rp = scenario.replay(sc)
    assert rp.error is None and not rp.ok
    assert [f.step for f in rp.steps[0].failures] == [1]
    assert rp.steps[0].failures[0].what == "Alice's discard"
    assert rp.steps[0].failures == [f for f in rp.failures if f.step == 1]


def test_on_step_sees_each_step_as_it_completes():
    sc = scenario.load(config.scenarios_dir() / "throne-room-feast.yaml")
    seen: list[tuple[int, int]] = []
    rp = scenario.replay(sc, on_step=lambda s: seen.append((s.index, len(s.log))))
    assert seen == [(s.index, len(s.log)) for s in rp.steps] and len(seen) == len(sc.steps)


def test_zones_false_keeps_the_outcome_and_skips_snapshots():
    sc = scenario.load(config.scenarios_dir() / "throne-room-feast.yaml")
    with_zones, without = scenario.replay(sc), scenario.replay(sc, zones=False)
    assert all(s.zones is None for s in without.steps)
    assert [e.text for e in without.log.entries] == [e.text for e in with_zones.log.entries]
    assert scenario.snapshot(without.game) == scenario.snapshot(with_zones.game)


def test_run_is_the_replay_outcome_for_every_corpus_scenario():
    for p in sorted(config.scenarios_dir().glob("*.yaml")):
        sc = scenario.load(p)
        res, rp = scenario.run(sc), scenario.replay(sc, zones=False)
        assert (res.ok, str(res.error), [e.text for e in res.log.entries]) == \
               (rp.ok, str(rp.error), [e.text for e in rp.log.entries]), p.name


# ------------------------------------------------------------------ a missing answer
def test_missing_answer_returns_the_question_with_its_legal_options():
    sc = _edited("throne-room-feast", "answers: [Duchy, Laboratory]", "answers: [Duchy]")
    rp = scenario.replay(sc)
    assert rp.stop == scenario.NEED_ANSWER and not rp.ok
    need = rp.needed
    assert isinstance(need, NeedDecision) and rp.decision is need
    q = need.question
    assert q.player == "Alice" and "gain a card costing up to $5" in q.prompt
    assert (q.kind, q.min, q.max) == ("cards", 1, 1)
    # the legal options are exactly the Supply piles costing up to $5 (the second Feast's gain)
    supply = sc.raw["supply"]
    affordable = sorted(n for n in supply if facts_for(n).cost_coins <= 5 and not facts_for(n).cost_potion)
    assert sorted(set(q.legal_answers())) == affordable and "Gold" not in q.legal_answers()
    # which step is waiting: the first one; nothing after it ran
    assert need.step == 1 and need.line == sc.steps[0].line
    assert rp.error.step == 1 and rp.error.line == sc.steps[0].line
    assert rp.steps == [] and rp.stopped is not None and rp.stopped.index == 1
    assert any("gains Duchy" in e.text for e in rp.stopped.log)      # what happened before the question
    assert rp.stopped.zones["players"]["Alice"]["discard"] == ["Duchy"]


def test_yes_no_question_offers_yes_and_no():
    sc = _edited("chancellor-deck-into-discard", "    answers: [yes]\n", "")
    rp = scenario.replay(sc)
    q = rp.needed.question
    assert q.kind == "yesno" and q.legal_answers() == ["yes", "no"] and q.player == "Alice"


def test_answering_the_open_question_continues_the_replay():
    """The sandbox loop: replay, read the question, append an answer from its options, replay again."""
    sc = _edited("throne-room-feast", "answers: [Duchy, Laboratory]", "answers: []")
    answers: list[str] = []
    for _ in range(5):
        rp = scenario.replay(sc)
        if rp.needed is None:
            break
        answers.append(sorted(rp.needed.question.legal_answers())[0])
        sc.steps[0].answers = list(answers)
    assert rp.stop is None and rp.error is None and len(answers) == 2
    assert len(rp.steps) == len(sc.steps)


# ------------------------------------------------------------------ wrong answers and steps
def test_illegal_answer_names_the_step_the_question_and_the_options():
    sc = _edited("throne-room-feast", "answers: [Duchy, Laboratory]", "answers: [Duchy, Gold]")
    rp = scenario.replay(sc)
    assert rp.stop == scenario.ILLEGAL_ANSWER and rp.needed is None
    assert isinstance(rp.decision, IllegalDecision) and rp.decision.step == 1
    err = rp.error
    assert isinstance(err, ScenarioError) and err.step == 1 and err.line == sc.steps[0].line
    q = rp.decision.question
    assert q.prompt in err.message and "'Gold' is not available" in err.message
    legal = err.message.rsplit("legal: ", 1)[1].split(", ")
    assert sorted(set(legal)) == sorted(set(q.legal_answers())) and "Gold" not in legal
    assert str(err).startswith("throne-room-feast (edited):") and "(step 1)" in str(err)


def test_illegal_step_names_the_step_and_what_is_legal_now():
    sc = _edited("throne-room-feast", "  - play: Throne Room\n", "  - play: Laboratory\n")
    rp = scenario.replay(sc)
    assert rp.stop == scenario.ILLEGAL_ACTION and rp.decision is None
    assert rp.error.step == 1 and "Alice has no Laboratory in hand" in rp.error.message
    assert "legal now: Copper, Feast, Throne Room" in rp.error.message


def test_unused_answers_keep_the_step_that_ran():
    sc = _edited("throne-room-feast", "answers: [Duchy, Laboratory]", "answers: [Duchy, Laboratory, Silver]")
    rp = scenario.replay(sc)
    assert rp.stop == scenario.UNUSED_ANSWERS and rp.error.step == 1 and "unused answers ['Silver']" in rp.error.message
    assert rp.stopped.zones["trash"] == ["Feast"]      # the step itself was carried out
    assert len(rp.steps) == 0                          # ...but it is not a clean step


# ------------------------------------------------------------------ loading text
def test_loads_names_the_source_and_line_of_bad_text():
    text = _text("throne-room-feast").replace("players:", "playerz:")
    with pytest.raises(ScenarioError) as e:
        scenario.loads(text, "request body")
    assert e.value.file == "request body" and e.value.line is not None and "playerz" in e.value.message


def test_loads_refuses_deep_nesting_with_an_error_not_a_crash():
    with pytest.raises(ScenarioError) as e:
        scenario.loads("title: " + "[" * 1500 + "]" * 1500, "request body")
    assert e.value.message == "scenario nested too deeply" and e.value.file == "request body"


def test_block_nesting_too_deep_for_the_c_parser_is_an_error_not_a_dead_process():
    """libyaml recurses on the C stack: 40,000 nested "- " (80 kB) ended the process before the guard.
    Run in a child so that a regression fails this test instead of killing the test run."""
    code = ("from app.engine.scenario import source\n"
            "from app.engine.core.errors import ScenarioError\n"
            "try:\n    source.parse('- ' * 40000 + 'x', 'request body')\n"
            "except ScenarioError as e:\n    print(e.message)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=config.PROJECT_ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.strip() == "scenario nested too deeply"


def test_the_fast_parser_reads_every_corpus_scenario_as_the_python_parser_does():
    """Same values and the same line of every key and item, so errors name the same lines either way."""
    import yaml

    from app.engine.scenario import source

    def shape(o):
        if isinstance(o, dict):
            return o.line, sorted(o.key_lines.items()), {k: shape(v) for k, v in o.items()}
        if isinstance(o, list):
            return o.line, o.item_lines, [shape(v) for v in o]
        return o
    for path in sorted(config.scenarios_dir().glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        assert shape(source.parse(text, path.name)) == shape(yaml.load(text, Loader=source._Loader)), path.name
