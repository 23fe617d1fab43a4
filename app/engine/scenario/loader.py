"""Loading a scenario: parse with line numbers, validate against the schema, then check what a schema cannot.

The JSON Schema (``schema.py``) settles every key and type. What remains is
checked here, each at the line that names it: card names exist (and the
engine defines them: ``UndefinedCard``, exit code 3), the total number of cards
is bounded before anything is built, player names are unique and the ones
``current`` and ``expect`` refer to exist, versions exist, a step has exactly
one action, labelled copies (``Throne Room#first``) are named once and referred
to only when named. The file is only ever read.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.corpus.card_facts import facts_for
from app.engine.core.errors import ScenarioError
from app.engine.core.registry import versions
from app.engine.core.state import PLAYER_ZONES
from app.engine.scenario import cardnames as cn
from app.engine.scenario.cardnames import version_refusal
from app.engine.scenario import extensions as ext
from app.engine.scenario.schema import action_names, game_expect_keys, validate
from app.engine.scenario.source import LDict, line_of, parse


@dataclass
class Step:
    index: int
    line: int | None
    action: str
    arg: Any
    answers: list
    expect: dict | None = None
    after_cleanup: dict | None = None     # end_turn only: checked between Clean-up and the next turn


@dataclass
class Scenario:
    file: str
    title: str
    rulings: list[dict]
    raw: LDict
    steps: list[Step]
    cards: int = 0          # every card it creates or names (cardnames.count_cards): its size, with the steps


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
    raw = parse(text, name)
    if not isinstance(raw, LDict):
        raise ScenarioError(name, "expected a mapping with title, rulings, players, supply, steps, expect", line=1)
    try:
        _registry_loaded()
        _validate(name, raw)
        cards = cn.count_cards(name, raw)
        scenario = _check(name, raw)
        scenario.cards = cards
        return scenario
    except RecursionError:
        raise ScenarioError(name, "scenario nested too deeply") from None


def _registry_loaded() -> None:
    """Every set's module is imported, so its step kinds and setup keys are registered."""
    from app.engine.core.registry import defined_cards
    defined_cards()


def _validate(f: str, raw: LDict) -> None:
    """The schema, and the names in ``expect`` it cannot know: whichever problem comes first in the file."""
    try:
        _expect_names(f, raw)
        names_error = None
    except ScenarioError as exc:
        names_error = exc
    try:
        validate(raw, f)
    except ScenarioError as exc:
        if names_error is None or (exc.line or 0) < (names_error.line or 0):
            raise
    if names_error is not None:
        raise names_error


def _expect_names(f: str, raw: LDict) -> None:
    """Before the schema: a key of an ``expect`` that is neither a check nor a player (the schema cannot know names)."""
    players = raw.get("players")
    pnames = [p["name"] for p in players if isinstance(p, dict) and isinstance(p.get("name"), str)] \
        if isinstance(players, list) else []
    known = game_expect_keys()
    exps = [raw.get("expect")]
    for st in raw.get("steps") if isinstance(raw.get("steps"), list) else []:
        if isinstance(st, dict):
            exps.append(st.get("expect"))
            if isinstance(st.get("end_turn"), dict):
                exps += [st["end_turn"].get("expect"), st["end_turn"].get("after_cleanup")]
    for exp in exps:
        if not isinstance(exp, dict):
            continue
        for k in exp:
            if k not in known and k not in pnames:
                raise ScenarioError(f, f"expect: unknown zone or player {k!r}; expected a player "
                                    f"({', '.join(map(str, pnames))}) or one of {', '.join(sorted(known))}",
                                    line=line_of(exp, k))


class _Labels:
    """Copies named in the setup (``Throne Room#first``): each label once, and only named ones referred to."""

    def __init__(self, f: str):
        self.f = f
        self.named: dict[str, str] = {}

    def name(self, es: list[cn.Entry], line: int | None) -> None:
        for e in es:
            if e.label is None:
                continue
            if e.label in self.named:
                raise ScenarioError(self.f, f"the label #{e.label} names two cards; a label names one copy", line=line)
            self.named[e.label] = e.name

    def refer(self, es: list[cn.Entry], line: int | None, where: str) -> None:
        for e in es:
            if e.label is not None and self.named.get(e.label) != e.name:
                known = ", ".join(f"{n}#{lb}" for lb, n in self.named.items()) or "none"
                raise ScenarioError(self.f, f"{where}: {e.name}#{e.label} was not named in the setup "
                                    f"(named copies: {known})", line=line)


def _check(f: str, raw: LDict) -> Scenario:
    labels = _Labels(f)
    pnames: list[str] = []
    for i, p in enumerate(raw["players"]):
        if p["name"] in pnames:
            raise ScenarioError(f, f"players[{i + 1}].name: two players are named {p['name']!r}",
                                line=line_of(p, "name"))
        pnames.append(p["name"])
        for z in PLAYER_ZONES:
            es = cn.entries(f, p.get(z), line_of(p, z), f"{p['name']}'s {z}")
            for e in es:
                labels.name([e], line_of(p, z))
            if z == "in_play":
                for j, e in enumerate(es):
                    if not ({"Action", "Treasure"} & set(facts_for(e.name).types)):
                        raise ScenarioError(f, f"{p['name']}'s in_play: {e.name} cannot be in play (it is not an "
                                            "Action or Treasure and cannot be played)", line=line_of(p[z], j))
        for mat, cards in (p.get("mats") or {}).items():
            labels.name(cn.entries(f, cards, line_of(p["mats"], mat), f"{p['name']}'s {mat} mat"),
                        line_of(p["mats"], mat))
    labels.name(cn.entries(f, raw.get("trash"), line_of(raw, "trash"), "trash"), line_of(raw, "trash"))
    for pile, cards in (raw.get("piles") or {}).items():
        cn.entries(f, cards, line_of(raw["piles"], pile), f"piles.{pile}")
    for i, p in enumerate(raw["players"]):
        played = cn.entries(f, p.get("played_last_turn"), line_of(p, "played_last_turn"),
                            f"{p['name']}'s played_last_turn")
        for j, e in enumerate(played):
            if e.label or e.count != 1 or "Duration" not in facts_for(e.name).types:
                raise ScenarioError(f, f"{p['name']}'s played_last_turn: {e.text()} is not one Duration card (only "
                                    "a Duration can still be in play from a turn before)",
                                    line=line_of(p["played_last_turn"], j))
    supply = raw["supply"]
    for name in supply:
        real = cn.card(f, name, line_of(supply, name), "supply")
        facts = facts_for(real)
        if facts.purpose not in ("Kingdom Pile", "Basic"):
            raise ScenarioError(f, f"supply: {real} is not a Supply card ({facts.purpose})", line=line_of(supply, name))
    for name, v in (raw.get("versions") or {}).items():
        real = cn.card(f, name, line_of(raw["versions"], name), "versions")
        if str(v) not in versions(real):
            raise ScenarioError(f, "versions: " + version_refusal(real, v, versions(real)),
                                line=line_of(raw["versions"], name))
    if "current" in raw and raw["current"] not in pnames:
        raise ScenarioError(f, f"current: no player named {raw['current']!r}; players: {', '.join(pnames)}",
                            line=line_of(raw, "current"))
    steps = [_step(f, i, s, raw["steps"], pnames, labels) for i, s in enumerate(raw["steps"])]
    if "expect" in raw:
        check_expect(f, raw["expect"], pnames, labels, "expect")
    ee = raw.get("expect_error")
    if ee is not None and ee["step"] > len(steps):
        raise ScenarioError(f, f"expect_error.step: must be a step number from 1 to {len(steps)}",
                            line=line_of(raw, "expect_error"))
    return Scenario(f, str(raw["title"]), list(raw["rulings"]), raw, steps)


def _step(f: str, i: int, s: Any, steps_raw: list, pnames: list[str], labels: _Labels) -> Step:
    line = line_of(steps_raw, i)
    if isinstance(s, str):
        s = LDict({s: None})
        s.line, s.key_lines = line, {}
    actions = action_names()
    acts = [k for k in s if k in actions]
    if len(acts) != 1:
        found = f"found {', '.join(acts)}" if acts else "found none"
        raise ScenarioError(f, f"steps[{i + 1}]: expected exactly one action of {', '.join(actions)}; {found}",
                            line=line)
    a = acts[0]
    arg = s[a]
    where = f"steps[{i + 1}].{a}"
    if a in ("play", "buy") or (a in ext.STEP_KINDS and ext.STEP_KINDS[a].cards):
        es = cn.entries(f, arg, line_of(s, a) or line, where)
        if a != "play" and any(e.label for e in es):
            raise ScenarioError(f, f"{where}: a #label names a copy in the setup; {a} takes card names",
                                line=line_of(s, a) or line)
        labels.refer(es, line_of(s, a) or line, where)
        arg = cn.expand(es, labels=a == "play")
    answers = s.get("answers", [])
    after = None
    exp = s.get("expect")
    if a == "end_turn" and isinstance(arg, dict):
        if "answers" in arg and "answers" in s:
            raise ScenarioError(f, f"steps[{i + 1}]: answers given twice (under end_turn and beside it)", line=line)
        if "expect" in arg and "expect" in s:
            raise ScenarioError(f, f"steps[{i + 1}]: expect given twice (under end_turn and beside it)", line=line)
        answers = arg.get("answers", answers)
        exp = arg.get("expect", exp)
        after = arg.get("after_cleanup")
        if after is not None:
            check_expect(f, after, pnames, labels, f"{where}.after_cleanup")
        arg = None
    if not isinstance(answers, list):
        answers = [answers]
    if exp is not None:
        check_expect(f, exp, pnames, labels, f"steps[{i + 1}].expect")
    return Step(i + 1, line, a, arg, list(answers), exp, after)


def check_expect(f: str, exp: dict, pnames: list[str], labels: _Labels, where: str) -> None:
    """Card names and player names of an expectation, each at its line (the schema checked the shapes)."""
    def cards(v: Any, line: int | None, at: str) -> None:
        if isinstance(v, list):
            labels.refer(cn.entries(f, v, line, at, playable=False), line, at)

    for k, v in exp.items():
        line = line_of(exp, k)
        if k in ("trash",):
            cards(v, line, f"{where}.{k}")
        elif k == "piles":
            for pile, pv in v.items():
                cards(pv, line_of(v, pile), f"{where}.piles.{pile}")
        elif k in ("supply", "cost"):
            for name in v:
                cn.card(f, name, line_of(v, name), f"{where}.{k}", playable=False)
        elif k == "contains":
            for z, zv in v.items():
                cards(zv, line_of(v, z), f"{where}.contains.{z}")
        elif k in pnames:
            for z, zv in v.items():
                zl = line_of(v, z)
                if z in PLAYER_ZONES or z in ("discard_order", "top", "gained_this_turn"):
                    cards(zv, zl, f"{where}.{k}.{z}")
                elif z == "contains":
                    for cz, czv in zv.items():
                        cards(czv, line_of(zv, cz), f"{where}.{k}.contains.{cz}")
                elif z == "mats":
                    for mat, mv in zv.items():
                        cards(mv, line_of(zv, mat), f"{where}.{k}.mats.{mat}")
