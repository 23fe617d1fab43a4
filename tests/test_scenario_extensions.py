"""A mechanism adds a step kind and setup keys to the scenario format without touching the loader."""
from __future__ import annotations

import pytest

from app.engine import scenario
from app.engine.core.errors import ScenarioError
from app.engine.scenario import extensions as ext

DOC = """
title: extension
rulings: [{card: Village}]
shout_log: hello
players:
  - name: Alice
    hand: [Copper]
    marker: 3
  - name: Bob
supply: {Village: 10}
steps:
  - shout: [Copper, "Silver*2"]
expect:
  log: ["hello", "Alice shouts Copper, Silver, Silver", "Alice holds 3 markers"]
  shouts: 1
  Alice: {loudness: 3}
"""


@pytest.fixture()
def registered():
    @ext.setup_key("shout_log", scope="game", schema={"type": "string"}, doc="a line logged at setup", example="x")
    def _shout_log(g, value):
        g.log.add(value, None)

    @ext.setup_key("marker", scope="player", schema={"type": "integer"}, doc="markers", example="1")
    def _marker(g, p, value):
        g.log.add(f"{p.name} holds {value} markers", None)

    @ext.step_kind("shout", schema=ext.CARD_OR_LIST, doc="names cards", example="shout: Copper", cards=True)
    def _shout(g, p, cards):
        g.log.add(f"{p.name} shouts {', '.join(cards)}", None)

    @ext.expect_key("shouts", scope="game", schema={"type": "integer"}, doc="lines shouted", example="1")
    def _shouts(g):
        return sum("shouts" in e.text for e in g.log.entries)

    @ext.expect_key("loudness", scope="player", schema={"type": "integer"}, doc="cards shouted", example="1")
    def _loudness(g, p):
        return sum(e.text.count(",") + 1 for e in g.log.entries if e.text.startswith(p.name + " shouts"))

    yield
    ext.EXPECT_KEYS.pop(("game", "shouts"))
    ext.EXPECT_KEYS.pop(("player", "loudness"))
    ext.STEP_KINDS.pop("shout")
    ext.SETUP_KEYS.pop(("game", "shout_log"))
    ext.SETUP_KEYS.pop(("player", "marker"))


def test_registered_step_and_setup_keys_run(registered):
    result = scenario.run(scenario.loads(DOC, "ext.yaml"))
    assert result.ok, result.failures


def test_unregistered_step_is_refused_with_the_known_keys():
    with pytest.raises(ScenarioError) as e:
        scenario.loads(DOC, "ext.yaml")
    assert "shout_log" in str(e.value)


def test_a_registered_expectation_that_does_not_hold_fails(registered):
    result = scenario.run(scenario.loads(DOC.replace("shouts: 1", "shouts: 2"), "ext.yaml"))
    assert [f.what for f in result.failures] == ["shouts"]
