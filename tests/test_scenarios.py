"""Every scenario in corpus/scenarios replays and meets all of its expectations."""
from __future__ import annotations

import pytest

from app import config
from app.engine import scenario

SCENARIOS = sorted(config.scenarios_dir().glob("*.yaml"))


def test_there_are_at_least_30_scenarios():
    assert len(SCENARIOS) >= 30


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path):
    res = scenario.run(scenario.load(path))
    assert res.error is None, str(res.error)
    assert not res.failures, "\n".join(f.render() for f in res.failures)
    # every event line the engine narrates is tied to a step, and the log is not empty
    assert res.log.entries
