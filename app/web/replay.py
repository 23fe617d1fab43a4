"""Replaying scenarios for the web: the engine's result plus what a page needs on top.

The engine (``app.engine.scenario``) replays a file and returns the log, the
final state and the failed expectations. Pages also show the zones after each
step, and the sandbox needs the open question (with its legal options) when a
replay stops for a missing answer; ``run()`` folds that question into an error
string, so this module steps through the same engine calls itself to keep it.
The official ok/failures/log always come from ``scenario.run``.

Scenarios arriving over HTTP are text (YAML or JSON, which YAML reads too); the
engine loads from a file so that every error names a line, so the text goes to
a temporary file and the error names "request body" instead of that file.
"""
from __future__ import annotations

import dataclasses
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from app import config

MAX_SCENARIO_BYTES = 64_000


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

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _engine():
    try:
        from app.engine import scenario as sc_mod
        from app.engine.narrate import render_citation
        return sc_mod, render_citation
    except ImportError as exc:  # pragma: no cover - only before the engine lands
        raise ReplayUnavailable(f"the engine is not available: {exc}") from None


def scenario_ids() -> list[str]:
    d = config.scenarios_dir()
    return sorted(p.stem for p in d.glob("*.yaml")) if d.is_dir() else []


def scenario_path(scenario_id: str) -> Path | None:
    if not scenario_id or "/" in scenario_id or "\\" in scenario_id or scenario_id.startswith("."):
        return None
    path = config.scenarios_dir() / f"{scenario_id}.yaml"
    return path if path.is_file() else None


class BadScenario(Exception):
    """Scenario text that does not load: carries the engine's line/step and message."""

    def __init__(self, message: str, line: int | None = None, step: int | None = None):
        self.message, self.line, self.step = message, line, step
        where = f"line {line}" if line else ""
        if step is not None:
            where += f"{' ' if where else ''}(step {step})"
        super().__init__(f"{where + ': ' if where else ''}{message}")


def load_text(text: str, name: str = "request body"):
    """Load a scenario from YAML/JSON text; raises BadScenario naming the line."""
    sc_mod, _ = _engine()
    from app.engine.errors import ScenarioError

    if len(text.encode("utf-8", "replace")) > MAX_SCENARIO_BYTES:
        raise BadScenario(f"scenario too large (limit {MAX_SCENARIO_BYTES} bytes)")
    fd, tmp = tempfile.mkstemp(suffix=".yaml", prefix="scenario-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        try:
            scen = sc_mod.load(tmp)
        except ScenarioError as exc:
            raise BadScenario(exc.message, exc.line, exc.step) from None
        except RecursionError:
            raise BadScenario("scenario nested too deeply") from None
    finally:
        os.unlink(tmp)
    scen.file = name
    return scen


def load_id(scenario_id: str):
    sc_mod, _ = _engine()
    from app.engine.errors import ScenarioError

    path = scenario_path(scenario_id)
    if path is None:
        return None
    try:
        return sc_mod.load(path)
    except ScenarioError as exc:
        raise BadScenario(exc.message, exc.line, exc.step) from None


def dump_yaml(data: dict[str, Any]) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None)


def _question(q) -> dict[str, Any]:
    labels = q.option_labels() if q.kind != "yesno" else ["yes", "no"]
    return {"player": q.player, "prompt": q.prompt, "kind": q.kind, "options": labels,
            "min": q.min, "max": q.max, "describe": q.describe()}


def replay(scen) -> Outcome:
    """The engine's replay, plus the zones after each step and the open question if it stopped for one."""
    sc_mod, render_citation = _engine()
    from app.engine.decisions import DecisionError, NeedDecision
    from app.engine.errors import EngineError

    res = sc_mod.run(scen)
    steps: list[dict[str, Any]] = []
    question = None
    stopped = False
    # Step through the same engine calls for per-step snapshots and the open question.
    g = sc_mod.build(scen)
    for st in scen.steps:
        g.log.step = st.index
        g.decider.load(st.answers)
        try:
            sc_mod._do(g, st)
        except NeedDecision as exc:
            question = _question(exc.question)
            question["step"] = st.index
            break
        except (DecisionError, EngineError):
            stopped = True
            break
        steps.append({"index": st.index, "action": st.action, "arg": st.arg, "line": st.line,
                      "answers": st.answers, "zones": sc_mod.snapshot(g)})
    legal = None if (question or stopped) else legal_actions(g)
    error = None
    if res.error is not None:
        error = {"message": res.error.message, "line": res.error.line, "step": res.error.step}
    log = [e.as_dict() for e in res.log.entries]
    return Outcome(
        title=scen.title, ok=res.ok, rulings=list(scen.rulings),
        cited=[render_citation(r) for r in scen.rulings], log=log, steps=steps,
        final=sc_mod.snapshot(res.game), error=error, question=question,
        failures=[{"step": f.step, "what": f.what, "expected": f.expected, "actual": f.actual}
                  for f in res.failures],
        legal=legal,
    )


def legal_actions(g) -> dict[str, Any]:
    """The next things the current player may do: which cards to play, which piles to buy."""
    from app.engine import activities as act

    if g.over:
        return {"play": [], "play_treasures": False, "buy": [], "end_turn": False, "game_over": True}
    t = g.turn
    treasures = sorted({c.name for c in g.current.hand if c.is_type("Treasure")}) \
        if t.phase in ("action", "buy") else []
    return {"player": g.current.name, "phase": t.phase, "actions": t.actions, "buys": t.buys, "coins": t.coins,
            "play": sorted({c.name for c in act.playable_actions(g)} | set(treasures)),
            "play_treasures": bool(treasures), "buy": sorted(act.buyable(g)), "end_turn": True,
            "game_over": False}
