"""Replaying a loaded scenario: build the table, carry out the steps, check the expectations.

``replay()`` is the public per-step API: it records each step's log entries and
the zones after it, and when it stops early it keeps why (the missing answer's
NeedDecision with its question and legal options, an illegal answer, an
illegal step...) as objects, not only as a message. ``run()`` (tests, the CLI,
the bench) is ``replay()`` without the per-step zones, folded into a Result.
Loading and validation live in ``load.py`` and ``schema.py``, the checks in
``checks.py``; the names are re-exported here for callers of the old module.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from app.engine.core import activities as act
from app.engine.core import hooks
from app.engine.core import deadline
from app.engine.core import narrate
from app.engine.core.decisions import Decider, DecisionError, NeedDecision, Question
from app.engine.core.errors import EngineError, EngineLimitError, IllegalAction, ScenarioError
from app.engine.core.registry import definition
from app.engine.core.state import PLAYER_ZONES, Game
from app.engine.scenario import cardnames as cn
from app.engine.scenario.checks import Failure, check, find_pile, named_copies, snapshot  # noqa: F401 (re-exported)
from app.engine.scenario.extensions import SETUP_KEYS, STEP_KINDS
from app.engine.scenario.loader import Scenario, Step, load, loads  # noqa: F401 (re-exported)
from app.engine.scenario.source import line_of


@dataclass
class Result:
    scenario: Scenario
    log: narrate.Log
    game: Game
    failures: list[Failure] = field(default_factory=list)
    error: ScenarioError | None = None
    question: Any = None      # the Question a missing/illegal answer stopped at (for the web sandbox)
    expected_error: ScenarioError | None = None   # the error ``expect_error`` asked for (the replay stopped there)

    @property
    def ok(self) -> bool:
        return self.error is None and not self.failures


def build(sc: Scenario) -> Game:
    """The table before step 1; copies named ``NAME#label`` are remembered for the checks (``named_copies``)."""
    raw = sc.raw
    g = Game(seed=int(raw.get("seed", 0)), step_limit=int(raw.get("step_limit", 5000)))
    g.log = narrate.Log()
    g.decider = Decider()
    g.versions = {cn.real_name(k): str(v) for k, v in (raw.get("versions") or {}).items()}
    named = named_copies(g)

    def put(p, zone: str, lst: Any, where: str) -> None:
        for e in cn.entries(sc.file, lst, None, where):
            g.put(p, zone, cn.expand([e]))
            if e.label:
                named[e.label] = p.zone(zone)[-1]

    for p_raw in raw["players"]:
        g.add_player(p_raw["name"])
    for name, count in raw["supply"].items():
        g.set_pile(cn.real_name(name), count)
    for name in list(g.supply):          # special setup of the cards in the Supply (§ I Special setup)
        d = definition(g, name)
        if d is not None and d.setup is not None:
            d.setup(g)
    for p, p_raw in zip(g.players, raw["players"]):
        for name in cn.names(sc.file, p_raw.get("played_last_turn"), None, "played_last_turn"):
            _played_last_turn(g, sc, p, name, line_of(p_raw, "played_last_turn"))
    for p, p_raw in zip(g.players, raw["players"]):
        for z in PLAYER_ZONES:
            put(p, z, p_raw.get(z), z)
        for mat, cards in (p_raw.get("mats") or {}).items():
            put(p, f"mat:{mat}", cards, f"{p.name}'s {mat} mat")
        for mat, n in (p_raw.get("tokens") or {}).items():
            p.tokens[str(mat)] = int(n)
        p.vp_tokens = int(p_raw.get("vp_tokens", 0))
    for e in cn.entries(sc.file, raw.get("trash"), None, "trash"):
        for name in cn.expand([e]):
            g.trash.append(g.new_card(name, None, "trash"))
        if e.label:
            named[e.label] = g.trash[-1]
    if "current" in raw:
        g.turn.player = g.player(raw["current"]).index
    for p, p_raw in zip(g.players, raw["players"]):
        # Turns taken so far, counting the current one: in turn order, the players up to
        # the current one have had this round's turn, the ones after have not (tie rule, § II Game end).
        p.turns = int(p_raw.get("turns", 1 if p.index <= g.turn.player else 0))
    for k, v in (raw.get("turn") or {}).items():
        setattr(g.turn, k, v)
    for (scope, name), key in SETUP_KEYS.items():      # mechanisms' own setup (extensions.py)
        if scope == "game" and name in raw:
            _set_up(sc, name, raw, key.apply, g, raw[name])
        elif scope == "player":
            for p, p_raw in zip(g.players, raw["players"]):
                if name in p_raw:
                    _set_up(sc, f"{p.name}'s {name}", p_raw, key.apply, g, p, p_raw[name])
    for pile, lst in (raw.get("piles") or {}).items():   # last: it states the pile as it is at step 1
        _set_pile(g, sc, pile, cn.names(sc.file, lst, None, f"piles.{pile}"))
    return g


def _set_pile(g: Game, sc: Scenario, name: str, names: list[str]) -> None:
    """``piles: {NAME: [top first]}``: that pile holds exactly these cards; each must belong to it (Piles § II)."""
    from app.engine.mechanisms.piles import MIXED

    found = find_pile(g, name)
    if found is None:
        raise ScenarioError(sc.file, f"piles: there is no {name} pile in this game (Supply: "
                            f"{', '.join(g.supply) or 'none'}; outside it: {', '.join(g.non_supply) or 'none'})")
    pile, cards = found
    wrong = sorted({n for n in names if MIXED.get(n, n) != pile})
    if wrong:
        raise ScenarioError(sc.file, f"piles: {', '.join(wrong)} cannot be in the {pile} pile")
    zone = "supply" if pile in g.supply else "non_supply"
    cards[:] = [g.new_card(n, None, zone, pile if n != pile else None) for n in reversed(names)]
    g.log.add(f"The {pile} pile is, from the top: {', '.join(names) or 'empty'}")


def _played_last_turn(g: Game, sc: Scenario, p, name: str, line: int | None) -> None:
    """A Duration ``p`` played on their last turn and still in play: its play ability resolved as then.

    Played on the table as it is before the zones are filled (the other players' Reactions are not in hand
    yet, and what it draws or discards is nothing), on a turn of its own whose pools are then dropped, so
    that what it set up (a next-turn ability, Lighthouse's protection, Haunted Woods' attack until that
    player's next turn) is in effect when step 1 starts. A question it asks stops the build with a clear error.
    """
    from app.engine.core.state import Turn

    card = g.new_card(name, p.index, "in_play")
    p.in_play.append(card)
    g.log.add(f"Before the first step: {p.name} played {name} on their last turn, and it is still in play")
    real, g.turn = g.turn, Turn(player=p.index)
    try:
        g.decider.load([])
        act.play(g, p, card)
    except DecisionError as exc:
        raise ScenarioError(sc.file, f"{p.name}'s played_last_turn: {name} asks a question when played "
                            f"({exc.question.describe()}); set this table up with steps instead", line=line) from None
    finally:
        g.turn = real
        g.decider.record.clear()
        g.decider.asked.clear()


def _set_up(sc: Scenario, where: str, container: Any, apply: Callable[..., None], *args: Any) -> None:
    """One registered setup key; a value it refuses is a ScenarioError naming the key and its line."""
    key = where.rpartition(" ")[2]
    try:
        apply(*args)
    except (ScenarioError, EngineError) as exc:
        message = getattr(exc, "message", str(exc))
        prefix = "" if message.startswith(f"{key}:") else f"{where}: "
        raise ScenarioError(sc.file, prefix + message, line=line_of(container, key)) from None


# Why a replay stopped before its last step (Replay.stop).
NEED_ANSWER = "need_answer"           # a choice with more than one outcome had no answer (NeedDecision)
ILLEGAL_ANSWER = "illegal_answer"     # the answer given is not one of the legal options (IllegalDecision)
ILLEGAL_ACTION = "illegal_action"     # the step itself is not legal now (wrong phase, card not in hand...)
UNUSED_ANSWERS = "unused_answers"     # the step ran but asked fewer questions than answers were given
STEP_LIMIT = "step_limit"             # an endless loop was cut off (EngineLimitError)
ENGINE_ERROR = "engine_error"         # anything else the engine refused


@dataclass
class StepResult:
    """One scenario step as replayed: what it narrated and the zones after it (a page's "Step N")."""

    step: Step
    log: list[narrate.Entry]               # the entries this step added, in order
    zones: dict | None                     # snapshot() after the step; None when replay(zones=False)
    failures: list[Failure] = field(default_factory=list)   # the step's own ``expect`` that failed

    @property
    def index(self) -> int:
        return self.step.index

    @property
    def line(self) -> int | None:
        return self.step.line


@dataclass
class Replay:
    """A whole replay, step by step; when it stopped early, why, with the objects (not only a message).

    ``steps`` holds the steps that ran cleanly. The step the replay stopped at
    is ``stopped``: its log entries up to the stop and the zones at that moment
    (mid-step when a question is open). ``decision`` is the NeedDecision or
    IllegalDecision that stopped it, carrying the Question (player, prompt,
    legal options, min/max) and the step number.
    """

    scenario: Scenario
    game: Game
    steps: list[StepResult] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)   # every failed expectation: the steps' and the final
    error: ScenarioError | None = None          # what stopped the replay (None if it finished, or stopped as expected)
    stop: str | None = None                     # NEED_ANSWER, ILLEGAL_ANSWER, ... or None when every step ran
    stopped: StepResult | None = None           # the step the replay stopped at
    decision: DecisionError | None = None       # the missing/illegal answer that stopped it
    expected_error: ScenarioError | None = None  # the error ``expect_error`` asked for (the replay stopped there)

    @property
    def ok(self) -> bool:
        return self.error is None and not self.failures

    @property
    def log(self) -> narrate.Log:
        return self.game.log

    @property
    def needed(self) -> NeedDecision | None:
        """The open question, when the replay stopped because an answer is missing (the sandbox asks it)."""
        return self.decision if isinstance(self.decision, NeedDecision) else None

    @property
    def question(self) -> Question | None:
        return self.decision.question if self.decision is not None else None

    def result(self) -> Result:
        return Result(self.scenario, self.game.log, self.game, list(self.failures), self.error, self.question,
                      self.expected_error)


def replay(sc: Scenario, on_step: Callable[[StepResult], None] | None = None, *, zones: bool = True,
           zone_budget: int | None = None) -> Replay:
    """Replay a scenario step by step; never raises for a bad step, it stops and says why in the Replay.

    ``on_step`` is called with each step that ran cleanly, as soon as it has
    (e.g. to print progress); ``zones=False`` skips the per-step snapshots
    when only the outcome matters (``run()``, the bench). ``zone_budget``: the
    most cards the per-step snapshots may list in all; the steps after it get
    none (``zones`` None), so a big table replayed for many steps cannot make
    an answer of megabytes (a 4.6 KB scenario once answered 13.7 MB).
    """
    g = build(sc)
    rp = Replay(sc, g)
    entries = g.log.entries
    left = zone_budget

    def snap() -> dict | None:
        nonlocal left
        if not zones:
            return None
        if left is not None:
            size = len(g.trash) + sum(len(p.zone(z)) for p in g.players for z in PLAYER_ZONES)
            if size > left:
                left = 0
                return None
            left -= size
        return snapshot(g)

    for st in sc.steps:
        deadline.check()          # also between steps, whatever a step did without moving a card
        first = len(entries)
        g.log.step = st.index
        g.decider.load(st.answers, st.index)
        since = len(g.decider.asked)
        between: list[Failure] = []
        stop = _attempt(g, sc, st, between)
        rp.failures += between
        if stop is not None:
            rp.stop, err, rp.decision = stop
            rp.stopped = StepResult(st, entries[first:], snap())
            if _error_expected(sc, st, err):   # expect_error: the replay stops here, as expected
                rp.expected_error = err      # its message is shown with the log (commands.replay), not narrated
                break
            rp.error = err
            return rp
        fails = check(g, st.expect, st.index, since) if st.expect else []
        rp.failures += fails
        done = StepResult(st, entries[first:], snap(), fails)
        rp.steps.append(done)
        if on_step is not None:
            on_step(done)
    g.log.step = None
    if "expect_error" in sc.raw and rp.expected_error is None:
        ee = sc.raw["expect_error"]
        rp.failures.append(Failure(ee["step"], "an error containing", ee["contains"], "the step was carried out"))
    if "expect" in sc.raw:
        rp.failures += check(g, sc.raw["expect"], None)
    return rp


def _attempt(g: Game, sc: Scenario, st: Step,
             between: list[Failure]) -> tuple[str, ScenarioError, DecisionError | None] | None:
    """Carry out one step; on failure, (stop reason, the error naming file/line/step, the decision if any).

    ``between`` collects the failures of an ``end_turn`` step's ``after_cleanup`` expectations.
    """
    try:
        _do(g, st, between)
    except IllegalAction as exc:
        return ILLEGAL_ACTION, ScenarioError(sc.file, f"{st.action} is not legal now: {exc}", st.line, st.index), None
    except DecisionError as exc:
        exc.step, exc.line = st.index, st.line
        reason = NEED_ANSWER if isinstance(exc, NeedDecision) else ILLEGAL_ANSWER
        return reason, ScenarioError(sc.file, str(exc), st.line, st.index), exc
    except EngineLimitError as exc:
        return STEP_LIMIT, ScenarioError(sc.file, str(exc), st.line, st.index), None
    except RecursionError:
        # a chain of abilities nested past Python's stack that MAX_PLAY_DEPTH does not count (not a play)
        return STEP_LIMIT, ScenarioError(sc.file, "the abilities of this step nest too deeply (each starting the "
                                         "next) for the engine to follow; it stops here", st.line, st.index), None
    except EngineError as exc:
        return ENGINE_ERROR, ScenarioError(sc.file, f"engine error: {exc}", st.line, st.index), None
    if g.decider.remaining():
        asked = [a for a in g.decider.record if a.step == st.index]
        seen = "; ".join(f"{a.question.player}: {a.question.prompt} -> {a.outcome()}"
                         + (" (decided automatically, no answer used)" if a.auto and a.answer is None else "")
                         for a in asked) or "none"
        return UNUSED_ANSWERS, ScenarioError(sc.file, f"unused answers {g.decider.remaining()!r} (the step asked "
                                             f"fewer questions than answers given; questions asked: {seen})",
                                             st.line, st.index), None
    return None


def run(sc: Scenario) -> Result:
    """The replay's outcome only (log, final state, failures, error): tests, the CLI and the bench use this."""
    return replay(sc, zones=False).result()


def _do(g: Game, st: Step, between: list[Failure]) -> None:
    t = g.turn
    p = g.current
    if g.over:
        raise IllegalAction("the game is over")
    if st.action == "end_turn":
        look = None
        if st.after_cleanup is not None:
            def look(game: Game) -> None:
                between.extend(check(game, st.after_cleanup, st.index))
        act.end_turn(g, look)
    elif st.action in STEP_KINDS:
        STEP_KINDS[st.action].run(g, p, st.arg)
    elif st.action == "buy":
        for name in st.arg:
            act.buy(g, p, name)
    elif st.action in ("play", "play_treasures"):
        if st.action == "play_treasures":
            cards = [c for c in p.hand if c.is_type("Treasure")]
            if not cards:
                raise IllegalAction("no Treasures in hand")
            if t.phase == "action":
                # playing Treasures is the Buy phase's: an Action-Treasure (Crown, a card Capitalism changes) is
                # played as a Treasure here, using no Action (Capitalism 5)
                act.enter_buy_phase(g)
        else:
            cards = _from_hand(g, p, st.arg)
        for c in cards:
            if c.is_type("Action") and t.phase == "action":
                if t.actions < 1:
                    raise IllegalAction(f"cannot play {c.name}: no Actions left", sorted(_treasures(g)))
                t.actions -= 1
                act.play(g, p, c)
            elif c.is_type("Treasure") and t.phase in ("action", "buy"):
                if t.phase == "action":
                    act.enter_buy_phase(g)
                act.play(g, p, c)
            elif (phase := hooks.phase_to_play(g, c)) is not None:
                # a phase a mechanism adds after the Buy phase (Night cards in the Night phase): moving on to it
                # ends the phases before, as playing a Treasure ends the Action phase
                act.enter_phase(g, phase.name)
                act.play(g, p, c)
            else:
                raise IllegalAction(f"cannot play {c.name} in the {narrate.phase_words(t.phase)}",
                                    sorted({x.name for x in act.playable_actions(g)} | _treasures(g)))


def _from_hand(g: Game, p, wanted: list[str]) -> list:
    """The cards a ``play`` step names, from hand; ``NAME#label`` is that very copy."""
    named = named_copies(g)
    reserved = {id(named[t.partition("#")[2]]) for t in wanted if t.partition("#")[2] in named}
    pool = list(p.hand)
    cards = []
    for text in wanted:
        name, _, label = text.partition("#")
        if label:
            hit = named.get(label)
        else:       # any copy the step does not name by its label elsewhere
            hit = next((c for c in pool if c.name == name and id(c) not in reserved), None)
        if hit is None or all(c is not hit for c in pool):
            raise IllegalAction(f"{p.name} has no {text} in hand",
                                sorted({c.name for c in act.playable_actions(g)} | _treasures(g)))
        pool = [c for c in pool if c is not hit]
        cards.append(hit)
    return cards


def _error_expected(sc: Scenario, st: Step, error: ScenarioError) -> bool:
    """Whether the error that stopped step ``st`` is the one ``expect_error`` asked for (then it is not an error)."""
    ee = sc.raw.get("expect_error")
    return bool(ee) and ee["step"] == st.index and ee["contains"].lower() in error.message.lower()


def _treasures(g: Game) -> set[str]:
    if g.turn.phase not in ("action", "buy"):
        return set()
    return {c.name for c in g.current.hand if c.is_type("Treasure")}




__all__ = ["ENGINE_ERROR", "ILLEGAL_ACTION", "ILLEGAL_ANSWER", "NEED_ANSWER", "STEP_LIMIT", "UNUSED_ANSWERS",
           "Failure", "Replay", "Result", "Scenario", "Step", "StepResult", "build", "check", "load", "loads",
           "replay", "run", "snapshot"]
