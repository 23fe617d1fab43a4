"""Scenario files: load (keeping line numbers), validate, replay step by step, and check expectations.

A scenario is YAML (``yaml.safe_load`` semantics; see docs/scenario-format.md).
Every complaint names the file and the line, or the step, and what was
expected. The file is only ever read.

``replay()`` is the public per-step API: it records each step's log entries and
the zones after it, and when it stops early it keeps why (the missing answer's
NeedDecision with its question and legal options, an illegal answer, an
illegal step...) as objects, not only as a message. ``run()`` (tests, the CLI,
the bench) is ``replay()`` without the per-step zones, folded into a Result.
"""
from __future__ import annotations

import difflib
from functools import lru_cache
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import yaml

from app.corpus.card_facts import facts_for, load_facts
from app.engine.core import activities as act
from app.engine.core import deadline
from app.engine.core import narrate
from app.engine.core.decisions import Decider, DecisionError, NeedDecision, Question
from app.engine.core.errors import EngineError, EngineLimitError, IllegalAction, ScenarioError
from app.engine.core.registry import aliases, definition, versions
from app.engine.core.state import PLAYER_ZONES, Game
from app.engine.scenario.extensions import EXPECT_KEYS, SETUP_KEYS, STEP_KINDS

TOP_KEYS = {"title", "rulings", "description", "seed", "versions", "players", "current", "turn", "supply",
            "steps", "expect", "step_limit", "expect_error"}
PLAYER_KEYS = {"name", "turns", "vp_tokens", "mats", "tokens", *PLAYER_ZONES}   # mats/tokens: app/engine/mechanisms/mats.py
STEP_ACTIONS = {"play", "buy", "play_treasures", "end_turn"}
STEP_KEYS = STEP_ACTIONS | {"answers", "expect", "note"}
TURN_KEYS = {"phase", "actions", "buys", "coins", "potions"}   # potions: app/engine/mechanisms/potions.py
GLOBAL_EXPECT = {"trash", "supply", "actions", "buys", "coins", "potions", "phase", "current", "game_over",
                 "winners", "scores", "log", "pile_tokens"}
PLAYER_EXPECT = set(PLAYER_ZONES) | {"vp", "turns", "mats", "tokens"}
ORDERED_ZONES = {"deck"}


# ------------------------------------------------------------------ YAML with line numbers
class LDict(dict):
    line: int = 0
    key_lines: dict


class LList(list):
    line: int = 0
    item_lines: list


class _Loader(yaml.SafeLoader):
    pass


def _map(loader: _Loader, node: yaml.MappingNode) -> LDict:
    d = LDict()
    d.line = node.start_mark.line + 1
    d.key_lines = {}
    for k_node, v_node in node.value:
        k = loader.construct_object(k_node, deep=True)
        d[k] = loader.construct_object(v_node, deep=True)
        d.key_lines[k] = k_node.start_mark.line + 1
    return d


def _seq(loader: _Loader, node: yaml.SequenceNode) -> LList:
    lst = LList(loader.construct_object(n, deep=True) for n in node.value)
    lst.line = node.start_mark.line + 1
    lst.item_lines = [n.start_mark.line + 1 for n in node.value]
    return lst


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _map)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _seq)


def _line(obj: Any, key: Any = None) -> int | None:
    if key is not None and isinstance(obj, LDict):
        return obj.key_lines.get(key, obj.line)
    if isinstance(obj, LList) and isinstance(key, int) and key < len(obj.item_lines):
        return obj.item_lines[key]
    return getattr(obj, "line", None)


# ------------------------------------------------------------------ model
@dataclass
class Step:
    index: int
    line: int | None
    action: str
    arg: Any
    answers: list
    expect: dict | None = None


@dataclass
class Scenario:
    file: str
    title: str
    rulings: list[dict]
    raw: LDict
    steps: list[Step]


@dataclass
class Failure:
    step: int | None
    what: str
    expected: Any
    actual: Any

    def render(self) -> str:
        where = f"after step {self.step}" if self.step else "at the end"
        return f"{where}: {self.what}: expected {self.expected!r}, actual {self.actual!r}"


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


# ------------------------------------------------------------------ load + validate
def load(path: str | Path) -> Scenario:
    path = Path(path)
    f = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(f, f"cannot read the scenario: {exc}") from None
    return loads(text, f)


def loads(text: str, name: str) -> Scenario:
    """A scenario from YAML (or JSON) text; ``name`` stands for the file in every error (e.g. "request body").

    Text that did not come from a file (the web API, the sandbox) is loaded
    directly, so nothing a request sends is ever written to disk.
    """
    try:
        raw = yaml.load(text, Loader=_Loader)  # noqa: S506 - _Loader is a SafeLoader subclass
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        raise ScenarioError(name, f"YAML error: {problem}", line=mark.line + 1 if mark else None) from None
    except RecursionError:
        raise ScenarioError(name, "scenario nested too deeply") from None
    if not isinstance(raw, LDict):
        raise ScenarioError(name, "expected a mapping with title, rulings, players, supply, steps, expect", line=1)
    try:
        return _validate(name, raw)
    except RecursionError:
        raise ScenarioError(name, "scenario nested too deeply") from None


@lru_cache(maxsize=1)
def _names() -> dict[str, str]:
    names = {v.name.lower(): v.name for v in load_facts().values()}
    for alias, real in aliases().items():      # renamed cards (Farm = Harem), registry.register_alias
        names.setdefault(alias.lower(), real)
    return names


def _card(f: str, name: Any, line: int | None, where: str) -> str:
    if not isinstance(name, str):
        raise ScenarioError(f, f"{where}: expected a card name, found {name!r}", line=line)
    names = _names()
    real = names.get(name.strip().lower())
    if real is None:
        near = difflib.get_close_matches(name, list(names.values()), n=3, cutoff=0.6)
        hint = f"; did you mean {', '.join(near)}?" if near else ""
        raise ScenarioError(f, f"{where}: unknown card {name!r}{hint}", line=line)
    if definition(None, real) is None:
        raise ScenarioError(f, f"{where}: {real} has no executable definition yet", line=line)
    return real


def _cards(f: str, lst: Any, line: int | None, where: str) -> list[str]:
    """Card names of a list; ``"Copper*7"`` stands for seven Coppers."""
    if lst is None:
        return []
    if not isinstance(lst, list):
        raise ScenarioError(f, f"{where}: expected a list of card names", line=line)
    out: list[str] = []
    for i, x in enumerate(lst):
        n = 1
        if isinstance(x, str) and "*" in x:
            x, _, k = x.rpartition("*")
            if not k.strip().isdigit():
                raise ScenarioError(f, f"{where}: expected NAME*COUNT, found {lst[i]!r}", line=_line(lst, i) or line)
            n = int(k)
        out += [_card(f, x, _line(lst, i) or line, where)] * n
    return out


def _keys(f: str, d: Any, allowed: set, where: str) -> None:
    if not isinstance(d, dict):
        raise ScenarioError(f, f"{where}: expected a mapping", line=_line(d))
    for k in d:
        if k not in allowed:
            raise ScenarioError(f, f"{where}: unknown key {k!r}; expected one of {', '.join(sorted(allowed))}",
                                line=_line(d, k))


def _validate(f: str, raw: LDict) -> Scenario:
    _registry_loaded()
    _keys(f, raw, TOP_KEYS | _setup_names("game"), "scenario")
    for req in ("title", "rulings", "players", "supply", "steps"):
        if req not in raw:
            raise ScenarioError(f, f"scenario: missing {req!r}", line=1)
    rulings = raw["rulings"]
    if not isinstance(rulings, list) or not rulings:
        raise ScenarioError(f, "rulings: expected a list of {card, ruling} or {section}", line=_line(raw, "rulings"))
    for i, r in enumerate(rulings):
        ok = isinstance(r, dict) and (("card" in r and isinstance(r.get("ruling", 0), int)) or "section" in r)
        if not ok:
            raise ScenarioError(f, f"rulings: expected {{card: NAME, ruling: N}} or {{section: TITLE}}, found {r!r}",
                                line=_line(rulings, i))
    players = raw["players"]
    if not isinstance(players, list) or not 1 <= len(players) <= 6:
        raise ScenarioError(f, "players: expected a list of 1 to 6 players", line=_line(raw, "players"))
    pnames = []
    for i, p in enumerate(players):
        _keys(f, p, PLAYER_KEYS | _setup_names("player"), f"players[{i + 1}]")
        if not isinstance(p.get("name"), str):
            raise ScenarioError(f, f"players[{i + 1}]: missing name", line=_line(p))
        pnames.append(p["name"])
        for z in PLAYER_ZONES:
            cards = _cards(f, p.get(z), _line(p, z), f"{p['name']}'s {z}")
            if z == "in_play":
                for j, c in enumerate(cards):
                    facts = facts_for(c)
                    if not ({"Action", "Treasure"} & set(facts.types)):
                        raise ScenarioError(f, f"{p['name']}'s in_play: {c} cannot be in play (it is not an Action "
                                            "or Treasure and cannot be played)", line=_line(p[z], j))
    supply = raw["supply"]
    _keys(f, supply, set(supply) if isinstance(supply, dict) else set(), "supply")
    for name, count in supply.items():
        real = _card(f, name, _line(supply, name), "supply")
        facts = facts_for(real)
        if facts.purpose not in ("Kingdom Pile", "Basic"):
            raise ScenarioError(f, f"supply: {real} is not a Supply card ({facts.purpose})", line=_line(supply, name))
        if not isinstance(count, int) or count < 0:
            raise ScenarioError(f, f"supply: expected a pile size (0 or more) for {real}, found {count!r}",
                                line=_line(supply, name))
    for name, v in (raw.get("versions") or {}).items():
        real = _card(f, name, _line(raw["versions"], name), "versions")
        if str(v) not in versions(real):
            raise ScenarioError(f, f"versions: {real} has versions {', '.join(versions(real))}, not {v!r}",
                                line=_line(raw["versions"], name))
    if "turn" in raw:
        _keys(f, raw["turn"], TURN_KEYS, "turn")
    if "current" in raw and raw["current"] not in pnames:
        raise ScenarioError(f, f"current: no player named {raw['current']!r}; players: {', '.join(pnames)}",
                            line=_line(raw, "current"))
    steps_raw = raw["steps"]
    if not isinstance(steps_raw, list):
        raise ScenarioError(f, "steps: expected a list", line=_line(raw, "steps"))
    steps = []
    for i, s in enumerate(steps_raw):
        line = _line(steps_raw, i)
        if isinstance(s, str):
            s = LDict({s: True})
            s.line, s.key_lines = line, {}
        actions = STEP_ACTIONS | set(STEP_KINDS)
        _keys(f, s, STEP_KEYS | set(STEP_KINDS), f"step {i + 1}")
        acts = [k for k in s if k in actions]
        if len(acts) != 1:
            raise ScenarioError(f, f"step {i + 1}: expected exactly one of {', '.join(sorted(actions))}",
                                line=line)
        a = acts[0]
        arg = s[a]
        if a in ("play", "buy") or (a in STEP_KINDS and STEP_KINDS[a].cards):
            arg = _cards(f, arg if isinstance(arg, list) else [arg], line, f"step {i + 1} ({a})")
        answers = s.get("answers", [])
        if not isinstance(answers, list):
            answers = [answers]
        exp = s.get("expect")
        if exp is not None:
            _check_expect_keys(f, exp, pnames)
        steps.append(Step(i + 1, line, a, arg, list(answers), exp))
    if "expect" in raw:
        _check_expect_keys(f, raw["expect"], pnames)
    _check_expect_error(f, raw, len(steps))
    return Scenario(f, str(raw["title"]), list(rulings), raw, steps)


def _check_expect_error(f: str, raw: LDict, n_steps: int) -> None:
    """``expect_error: {step: N, contains: TEXT}``: step N must be rejected with a message containing TEXT."""
    if "expect_error" not in raw:
        return
    ee, line = raw["expect_error"], _line(raw, "expect_error")
    if not isinstance(ee, dict) or set(ee) != {"step", "contains"}:
        raise ScenarioError(f, "expect_error: expected {step: N, contains: TEXT}", line=line)
    if not isinstance(ee["step"], int) or isinstance(ee["step"], bool) or not 1 <= ee["step"] <= n_steps:
        raise ScenarioError(f, f"expect_error: step must be a step number from 1 to {n_steps}", line=line)
    if not isinstance(ee["contains"], str) or not ee["contains"].strip():
        raise ScenarioError(f, "expect_error: contains must be a non-empty text", line=line)


def _error_expected(sc: Scenario, st: Step, error: ScenarioError) -> bool:
    """Whether the error that stopped step ``st`` is the one ``expect_error`` asked for (then it is not an error)."""
    ee = sc.raw.get("expect_error")
    return bool(ee) and ee["step"] == st.index and ee["contains"].lower() in error.message.lower()


def _check_expect_keys(f: str, exp: Any, pnames: list[str]) -> None:
    if not isinstance(exp, dict):
        raise ScenarioError(f, "expect: expected a mapping", line=_line(exp))
    for k, v in exp.items():
        if k in GLOBAL_EXPECT or ("game", k) in EXPECT_KEYS:
            if k == "trash":
                _cards(f, v, _line(exp, k), "expect trash")
            continue
        if k in pnames:
            _keys(f, v, PLAYER_EXPECT | {n for (s, n) in EXPECT_KEYS if s == "player"}, f"expect {k}")
            for z, zv in v.items():
                if z in PLAYER_ZONES and isinstance(zv, list):
                    _cards(f, zv, _line(v, z), f"expect {k} {z}")
            continue
        raise ScenarioError(f, f"expect: unknown zone or player {k!r}; expected a player ({', '.join(pnames)}) "
                            f"or one of {', '.join(sorted(GLOBAL_EXPECT | {n for (s, n) in EXPECT_KEYS if s == 'game'}))}",
                            line=_line(exp, k))


# ------------------------------------------------------------------ run
def _registry_loaded() -> None:
    """Every set's module is imported, so its step kinds and setup keys are registered."""
    from app.engine.core.registry import defined_cards
    defined_cards()


def _setup_names(scope: str) -> set[str]:
    return {name for (sc, name) in SETUP_KEYS if sc == scope}


def build(sc: Scenario) -> Game:
    raw = sc.raw
    g = Game(seed=int(raw.get("seed", 0)), step_limit=int(raw.get("step_limit", 5000)))
    g.log = narrate.Log()
    g.decider = Decider()
    g.versions = {_names()[k.lower()]: str(v) for k, v in (raw.get("versions") or {}).items()}
    for p_raw in raw["players"]:
        p = g.add_player(p_raw["name"])
        for z in PLAYER_ZONES:
            g.put(p, z, _cards(sc.file, p_raw.get(z), None, z))
        for mat, cards in (p_raw.get("mats") or {}).items():
            g.put(p, f"mat:{mat}", _cards(sc.file, cards, _line(p_raw["mats"], mat), f"{p.name}'s {mat} mat"))
        for mat, n in (p_raw.get("tokens") or {}).items():
            p.tokens[str(mat)] = int(n)
        p.vp_tokens = int(p_raw.get("vp_tokens", 0))
    for name, count in raw["supply"].items():
        g.set_pile(_names()[name.lower()], count)
    for name in list(g.supply):          # special setup of the cards in the Supply (§ I Special setup)
        d = definition(g, name)
        if d is not None and d.setup is not None:
            d.setup(g)
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
            key.apply(g, raw[name])
        elif scope == "player":
            for p, p_raw in zip(g.players, raw["players"]):
                if name in p_raw:
                    key.apply(g, p, p_raw[name])
    return g


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


def replay(sc: Scenario, on_step: Callable[[StepResult], None] | None = None, *, zones: bool = True) -> Replay:
    """Replay a scenario step by step; never raises for a bad step, it stops and says why in the Replay.

    ``on_step`` is called with each step that ran cleanly, as soon as it has
    (e.g. to print progress); ``zones=False`` skips the per-step snapshots
    when only the outcome matters (``run()``, the bench).
    """
    g = build(sc)
    rp = Replay(sc, g)
    entries = g.log.entries
    for st in sc.steps:
        deadline.check()          # also between steps, whatever a step did without moving a card
        first = len(entries)
        g.log.step = st.index
        g.decider.load(st.answers)
        stop = _attempt(g, sc, st)
        if stop is not None:
            rp.stop, err, rp.decision = stop
            rp.stopped = StepResult(st, entries[first:], snapshot(g) if zones else None)
            if _error_expected(sc, st, err):   # expect_error: the replay stops here, as expected
                rp.expected_error = err
                break
            rp.error = err
            return rp
        fails = check(g, st.expect, st.index) if st.expect else []
        rp.failures += fails
        done = StepResult(st, entries[first:], snapshot(g) if zones else None, fails)
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


def _attempt(g: Game, sc: Scenario, st: Step) -> tuple[str, ScenarioError, DecisionError | None] | None:
    """Carry out one step; on failure, (stop reason, the error naming file/line/step, the decision if any)."""
    try:
        _do(g, st)
    except IllegalAction as exc:
        return ILLEGAL_ACTION, ScenarioError(sc.file, f"{st.action} is not legal now: {exc}", st.line, st.index), None
    except DecisionError as exc:
        exc.step, exc.line = st.index, st.line
        reason = NEED_ANSWER if isinstance(exc, NeedDecision) else ILLEGAL_ANSWER
        return reason, ScenarioError(sc.file, str(exc), st.line, st.index), exc
    except EngineLimitError as exc:
        return STEP_LIMIT, ScenarioError(sc.file, str(exc), st.line, st.index), None
    except EngineError as exc:
        return ENGINE_ERROR, ScenarioError(sc.file, f"engine error: {exc}", st.line, st.index), None
    if g.decider.remaining():
        return UNUSED_ANSWERS, ScenarioError(sc.file, f"unused answers {g.decider.remaining()!r} (the step asked "
                                             "fewer questions than answers given)", st.line, st.index), None
    return None


def run(sc: Scenario) -> Result:
    """The replay's outcome only (log, final state, failures, error): tests, the CLI and the bench use this."""
    return replay(sc, zones=False).result()


def _do(g: Game, st: Step) -> None:
    t = g.turn
    p = g.current
    if g.over:
        raise IllegalAction("the game is over")
    if st.action == "end_turn":
        act.end_turn(g)
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
        else:
            cards = []
            pool = list(p.hand)
            for name in st.arg:
                hit = next((c for c in pool if c.name == name), None)
                if hit is None:
                    raise IllegalAction(f"{p.name} has no {name} in hand",
                                        sorted({c.name for c in act.playable_actions(g)} | _treasures(g)))
                pool.remove(hit)
                cards.append(hit)
        for c in cards:
            if c.is_type("Action") and t.phase == "action":
                if t.actions < 1:
                    raise IllegalAction(f"cannot play {c.name}: no Actions left", sorted(_treasures(g)))
                t.actions -= 1
                act.play(g, p, c)
            elif c.is_type("Treasure") and t.phase in ("action", "buy"):
                if t.phase == "action":
                    t.phase = "buy"
                    g.log.add(f"{p.name} moves to the Buy phase", narrate.BUY_PHASE)
                act.play(g, p, c)
            else:
                raise IllegalAction(f"cannot play {c.name} in the {t.phase} phase",
                                    sorted({x.name for x in act.playable_actions(g)} | _treasures(g)))


def _treasures(g: Game) -> set[str]:
    if g.turn.phase not in ("action", "buy"):
        return set()
    return {c.name for c in g.current.hand if c.is_type("Treasure")}


# ------------------------------------------------------------------ expectations
def snapshot(g: Game) -> dict:
    return {
        "players": {p.name: {**{z: [c.name for c in p.zone(z)] for z in PLAYER_ZONES}, "turns": p.turns}
                    for p in g.players},
        "trash": [c.name for c in g.trash],
        "supply": {n: len(pile) for n, pile in g.supply.items()},
        "current": g.current.name, "phase": g.turn.phase,
        "actions": g.turn.actions, "buys": g.turn.buys, "coins": g.turn.coins, "potions": g.turn.potions,
        "game_over": g.over, "scores": dict(g.scores), "winners": list(g.winners),
    }


def _zone_eq(zone: str, expected: Any, actual: list[str]) -> tuple[bool, Any]:
    if isinstance(expected, int) and not isinstance(expected, bool):
        return len(actual) == expected, len(actual)
    exp = _cards("", expected, None, zone)
    if zone in ORDERED_ZONES:
        return exp == actual, actual
    return sorted(exp) == sorted(actual), sorted(actual)


def check(g: Game, exp: dict, step: int | None) -> list[Failure]:
    fails: list[Failure] = []
    snap = snapshot(g)
    for k, v in exp.items():
        if k == "trash":
            ok, actual = _zone_eq("trash", v, snap["trash"])
            if not ok:
                fails.append(Failure(step, "trash", v, actual))
        elif k == "supply":
            for name, n in v.items():
                real = _names()[name.lower()]
                actual = snap["supply"].get(real)
                if actual != n:
                    fails.append(Failure(step, f"Supply pile {real}", n, actual))
        elif k == "pile_tokens":
            for pile, kinds in v.items():
                for kind, n in kinds.items():
                    actual = g.pile_tokens.get(pile, {}).get(kind, 0)
                    if actual != n:
                        fails.append(Failure(step, f"{kind} tokens on the {pile} pile", n, actual))
        elif k == "log":
            texts = [e.text for e in g.log.entries]
            for needle in v if isinstance(v, list) else [v]:
                if not any(needle in t for t in texts):
                    fails.append(Failure(step, "log line containing", needle, None))
        elif ("game", k) in EXPECT_KEYS:
            actual = EXPECT_KEYS[("game", k)].read(g)
            if actual != v:
                fails.append(Failure(step, k, v, actual))
        elif k in GLOBAL_EXPECT:
            actual = snap[k]
            want = v
            if k == "winners":
                actual, want = sorted(actual), sorted(v)
            if actual != want:
                fails.append(Failure(step, k, v, actual))
        else:
            ps = snap["players"][k]
            for z, zv in v.items():
                if ("player", z) in EXPECT_KEYS:
                    actual = EXPECT_KEYS[("player", z)].read(g, g.player(k))
                    if actual != zv:
                        fails.append(Failure(step, f"{k}'s {z}", zv, actual))
                elif z == "vp":
                    actual = act.score(g, g.player(k))
                    if actual != zv:
                        fails.append(Failure(step, f"{k}'s VP", zv, actual))
                elif z == "turns":
                    if ps["turns"] != zv:
                        fails.append(Failure(step, f"{k}'s turns", zv, ps["turns"]))
                elif z == "mats":
                    for mat, mv in zv.items():
                        ok, actual = _zone_eq(f"{mat} mat", mv, [c.name for c in g.player(k).zone(f"mat:{mat}")])
                        if not ok:
                            fails.append(Failure(step, f"{k}'s {mat} mat", mv, actual))
                elif z == "tokens":
                    for mat, n in zv.items():
                        actual = g.player(k).tokens.get(mat, 0)
                        if actual != n:
                            fails.append(Failure(step, f"{k}'s tokens on the {mat} mat", n, actual))
                else:
                    ok, actual = _zone_eq(z, zv, ps[z])
                    if not ok:
                        fails.append(Failure(step, f"{k}'s {z}", zv, actual))
    return fails
