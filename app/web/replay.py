"""Replaying scenarios for the web: the engine's per-step replay, shaped for pages and JSON.

The engine's public ``scenario.replay()`` gives every step's log entries and
the zones after it, and when it stops for a missing answer, the NeedDecision
with the question and its legal options; this module only turns that into the
plain dicts the scenario page, POST /api/replay and the sandbox show, and adds
what the current player may do next (the sandbox's buttons).

Scenarios arriving over HTTP are text (YAML or JSON, which YAML reads too); the
engine's ``scenario.loads`` reads them directly, naming "request body" (or
"sandbox") where a file name would be, so nothing is written to disk.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from app import config
from app.web import limits

# The scenario size limit lives in limits.py (one number for the API, the sandbox and
# uploads); this name stays for callers that bound a read with it.
MAX_SCENARIO_BYTES = limits.SCENARIO_BYTES.value


class ReplayUnavailable(Exception):
    """The engine is not importable in this checkout."""


@dataclass
class Outcome:
    """Everything a scenario page, the API and the sandbox show for one replay."""

    title: str
    ok: bool
    rulings: list[dict[str, Any]]
    cited: list[str]
    log: list[dict[str, Any]]
    steps: list[dict[str, Any]]               # per step: index, action, arg, line, zones after it
    final: dict[str, Any] | None
    failures: list[dict[str, Any]]
    error: dict[str, Any] | None = None        # {message, line, step}
    question: dict[str, Any] | None = None     # the open decision: player, prompt, kind, options, min, max
    legal: dict[str, Any] | None = None       # what the current player may do next (sandbox buttons)
    table: dict[str, Any] | None = None       # Events, piles outside the Supply, mats, Coffers, tokens (sandbox_table)

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _engine():
    try:
        from app.engine import scenario as sc_mod
        from app.engine.core.narrate import render_citation
        return sc_mod, render_citation
    except ImportError as exc:  # pragma: no cover - only before the engine lands
        raise ReplayUnavailable(f"the engine is not available: {exc}") from None


def scenario_ids() -> list[str]:
    d = config.scenarios_dir()
    return sorted(p.stem for p in d.glob("*.yaml")) if d.is_dir() else []


def scenario_path(scenario_id: str) -> Path | None:
    """The file of a scenario id, or None: never an id that cannot be a file name here (a separator, a dot
    first, or more UTF-8 bytes than a slug may have: a name over 255 bytes makes the OS raise, not answer)."""
    if not scenario_id or "/" in scenario_id or "\\" in scenario_id or scenario_id.startswith(".") \
            or "\0" in scenario_id or len(scenario_id.encode("utf-8", "surrogatepass")) > limits.SLUG_BYTES.value:
        return None
    path = config.scenarios_dir() / f"{scenario_id}.yaml"
    try:
        return path if path.is_file() else None
    except (OSError, ValueError):
        return None


class BadScenario(Exception):
    """Scenario text that does not load: carries the engine's line/step and message."""

    def __init__(self, message: str, line: int | None = None, step: int | None = None):
        self.message, self.line, self.step = message, line, step
        where = f"line {line}" if line else ""
        if step is not None:
            where += f"{' ' if where else ''}(step {step})"
        super().__init__(f"{where + ': ' if where else ''}{message}")


class ScenarioOverLimit(BadScenario):
    """Scenario text over one of ``limits.py``'s scenario limits (size, values, nesting, steps, step_limit).

    A ``BadScenario``, so the sandbox shows it like any other problem with the
    text; it keeps the limit's status and code for the API.
    """

    def __init__(self, exc: limits.LimitExceeded):
        super().__init__(exc.message)
        self.limit, self.status, self.code = exc.limit, exc.status, exc.code


def load_text(text: str, name: str = "request body"):
    """Load a scenario from YAML/JSON text; raises BadScenario naming the line."""
    sc_mod, _ = _engine()
    from app.engine.core.errors import ScenarioError

    try:
        limits.check_scenario(text)
    except limits.LimitExceeded as exc:
        raise ScenarioOverLimit(exc) from None
    try:
        scen = sc_mod.loads(text, name)
    except ScenarioError as exc:
        raise BadScenario(exc.message, exc.line, exc.step) from None
    from app.web.capacity import admit
    admit(replay_work(scen))
    return scen


def replay_work(scen) -> int:
    """A replay's measured size: the cards it names times its steps (what the per-step snapshots cost)."""
    from app.engine.scenario.cardnames import count_cards

    return count_cards(scen.file, scen.raw) * (len(scen.steps) + 1)


def load_id(scenario_id: str):
    sc_mod, _ = _engine()
    from app.engine.core.errors import ScenarioError

    path = scenario_path(scenario_id)
    if path is None:
        return None
    try:
        return sc_mod.load(path)
    except ScenarioError as exc:
        raise BadScenario(exc.message, exc.line, exc.step) from None


def dump_yaml(data: dict[str, Any]) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None)


def _question(need) -> dict[str, Any]:
    """The open question as the sandbox form and the API show it (yes/no questions list yes and no)."""
    q = need.question
    return {"player": q.player, "prompt": q.prompt, "about": getattr(q, "about", ""), "kind": q.kind,
            "options": q.legal_answers(),
            "min": q.min, "max": q.max, "describe": q.describe(), "step": need.step}


# The most cards the per-step tables of one answer may list in all (about 1 MB of JSON): a 4.6 KB
# scenario (1,650 cards, 250 steps) once answered 13.7 MB in 3.8-5.5 s, past the replay deadline.
ANSWER_ZONE_CARDS = 100_000
ZONES_OMITTED = {"omitted": True, "why": f"the tables after each step of this replay would list more than "
                                        f"{ANSWER_ZONE_CARDS} cards in all; the final table is complete"}


def _step(sr) -> dict[str, Any]:
    st = sr.step
    return {"index": st.index, "action": st.action, "arg": st.arg, "line": st.line,
            "answers": st.answers, "zones": sr.zones if sr.zones is not None else ZONES_OMITTED}


def replay(scen) -> Outcome:
    """The engine's replay with the zones after each step, the open question, and the next legal actions."""
    sc_mod, render_citation = _engine()
    from app.engine.core import deadline

    deadline.check()          # reading and checking the scenario count against the replay's deadline
    from app.engine.core.errors import EngineError, ScenarioError
    try:
        rp = sc_mod.replay(scen, zone_budget=ANSWER_ZONE_CARDS)
    except (ScenarioError, EngineError) as exc:
        # A setup value a mechanism refused while building the table (a token on a pile not in the
        # Supply): the scenario is wrong, not the replay's outcome, so it is refused like any bad input.
        message = getattr(exc, "message", str(exc))
        raise BadScenario(f"setup: {message}", getattr(exc, "line", None)) from None
    deadline.check()
    steps = [_step(sr) for sr in rp.steps]
    if rp.stop == sc_mod.UNUSED_ANSWERS and rp.stopped is not None:
        steps.append(_step(rp.stopped))   # the step ran to its end; only the extra answers are wrong
    need = rp.needed
    # The player may go on after a clean replay, or after removing answers nobody asked for.
    legal = legal_actions(rp.game) if rp.stop in (None, sc_mod.UNUSED_ANSWERS) else None
    error = None
    if rp.error is not None:
        error = {"message": rp.error.message, "line": rp.error.line, "step": rp.error.step}
    return Outcome(
        title=scen.title, ok=rp.ok, rulings=list(scen.rulings),
        cited=[render_citation(r) for r in scen.rulings], log=[e.as_dict() for e in rp.log.entries],
        steps=steps, final=sc_mod.snapshot(rp.game), error=error,
        question=_question(need) if need is not None else None,
        failures=[{"step": f.step, "what": f.what, "expected": f.expected, "actual": f.actual}
                  for f in rp.failures],
        legal=legal, table=_table(rp.game),
    )


def legal_actions(g) -> dict[str, Any]:
    """The next things the current player may do: which cards to play, which piles to buy."""
    from app.engine.core import activities as act

    if g.over:
        return {"play": [], "play_treasures": False, "buy": [], "end_turn": False, "game_over": True}
    t = g.turn
    treasures = sorted({c.name for c in g.current.hand if c.is_type("Treasure")}) \
        if t.phase in ("action", "buy") else []
    return {"player": g.current.name, "phase": t.phase, "actions": t.actions, "buys": t.buys, "coins": t.coins,
            "play": sorted({c.name for c in act.playable_actions(g)} | set(treasures) | _phase_plays(g)),
            "play_treasures": bool(treasures), "buy": sorted(act.buyable(g)), "end_turn": True,
            **_moves(g), "game_over": False}


def _phase_plays(g) -> set[str]:
    """Cards playable from hand in a phase a mechanism added after the Buy phase (Night cards), now or by moving on."""
    from app.engine.core import hooks

    return {c.name for c in g.current.hand if hooks.phase_to_play(g, c) is not None}


def _table(g) -> dict[str, Any]:
    from app.web.sandbox_table import table
    return table(g)


def _moves(g) -> dict[str, Any]:
    """What each registered move (call, spend_coffers, buy_overpay, buy_event, ...) offers now (sandbox_moves.py)."""
    from app.web import sandbox_moves
    return sandbox_moves.offers(g)
