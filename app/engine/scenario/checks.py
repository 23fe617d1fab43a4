"""Expectations: compare what a scenario states with the game as it is now.

Each check answers a question a judge asks of a table: exactly these cards in
the hand (any order) or on the deck (top first); these cards *among* the hand
(``contains``); the discard pile in its exact order; the top few cards of the
deck; a narrated line that must not appear; what a card costs now; what a player
gained this turn; which copy of two Throne Rooms stayed in play
(``Throne Room#first``); which options a question offered. A failed check
becomes a ``Failure`` with the expected and the actual value, never an exception.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from app.engine.core import activities as act
from app.engine.core.state import PLAYER_ZONES, Card, Game
from app.engine.scenario import cardnames as cn
from app.engine.scenario.extensions import EXPECT_KEYS

PLAIN_GLOBAL = ("actions", "buys", "coins", "potions", "phase", "current", "game_over", "scores")


@dataclass
class Failure:
    step: int | None
    what: str
    expected: Any
    actual: Any

    def render(self) -> str:
        where = f"after step {self.step}" if self.step else "at the end"
        return f"{where}: {self.what}: expected {self.expected!r}, actual {self.actual!r}"


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


def named_copies(g: Game) -> dict[str, Card]:
    """label -> the card the setup named ``NAME#label`` (kept on the game by ``replay.build``)."""
    return g.__dict__.setdefault("named_copies", {})


def _label_of(g: Game) -> dict[int, str]:
    return {c.id: lb for lb, c in named_copies(g).items()}


def _shown(g: Game, cards: list[Card]) -> list[str]:
    labels = _label_of(g)
    return [f"{c.name}#{labels[c.id]}" if c.id in labels else c.name for c in cards]


def _entries(expected: list) -> list[cn.Entry]:
    return cn.entries("", expected, None, "expect", playable=False)


def _labels_ok(g: Game, es: list[cn.Entry], cards: list[Card]) -> bool:
    """Every labelled copy the expectation names is in these cards."""
    named = named_copies(g)
    ids = {c.id for c in cards}
    return all(e.label is None or (e.label in named and named[e.label].id in ids) for e in es)


def _as_written(cards: list[Card], want: list[str], ordered: bool) -> list[str]:
    """The cards' names, a card that "is" another card while in play (pre-2019 Band of Misfits played as a
    Caravan: ``Card.printed``) counted under whichever of its two names the expectation uses."""
    if ordered:
        return [c.printed if c.printed and i < len(want) and want[i] == c.printed else c.name
                for i, c in enumerate(cards)]
    left = Counter(want)
    names: list[str | None] = []
    for c in cards:                       # its name now first, then its own printed name
        if left[c.name] > 0:
            left[c.name] -= 1
            names.append(c.name)
        else:
            names.append(None)
    for i, c in enumerate(cards):
        if names[i] is None:
            own = c.printed if c.printed and left[c.printed] > 0 else c.name
            left[own] -= 1
            names[i] = own
    return [n for n in names if n is not None]


def zone_matches(g: Game, expected: Any, cards: list[Card], *, ordered: bool = False,
                 subset: bool = False) -> tuple[bool, Any]:
    """(holds, what to show as actual) for a zone check: exact (any order or in order), or ``subset``."""
    if isinstance(expected, int) and not isinstance(expected, bool):
        return len(cards) == expected, len(cards)
    es = _entries(expected)
    want = cn.expand(es)
    have = _as_written(cards, want, ordered)
    if ordered:
        named = named_copies(g)
        flat = [e for e in es for _ in range(e.count)]
        ok = want == have and all(e.label is None or named[e.label] is c for e, c in zip(flat, cards))
        return ok, _shown(g, cards)
    if subset:
        ok = not (Counter(want) - Counter(have)) and _labels_ok(g, es, cards)
        return ok, sorted(_shown(g, cards))
    return Counter(want) == Counter(have) and _labels_ok(g, es, cards), sorted(_shown(g, cards))


def find_pile(g: Game, name: str) -> tuple[str, list] | None:
    """(its name, its cards, top last) of the Supply or non-Supply pile a scenario names, any case."""
    for piles in (g.supply, g.non_supply):
        for k, cards in piles.items():
            if k.lower() == str(name).strip().lower():
                return k, cards
    return None


def cost_now(g: Game, name: str) -> int:
    """What the named card costs now: the top card of its pile, else a copy that is nowhere (same rules)."""
    real = cn.real_name(name) or name
    pile = g.supply.get(real)
    card = pile[-1] if pile else Card(0, real, game=g)
    return card.cost


def _asked_matches(q: Any, want: dict) -> bool:
    if sorted(map(str, q.option_labels())) != sorted(map(str, want["options"])):
        return False
    if "player" in want and q.player.lower() != str(want["player"]).lower():
        return False
    return "prompt" not in want or str(want["prompt"]).lower() in q.prompt.lower()


class _Checker:
    def __init__(self, g: Game, step: int | None, since: int):
        self.g, self.step, self.since = g, step, since
        self.fails: list[Failure] = []

    def fail(self, what: str, expected: Any, actual: Any) -> None:
        self.fails.append(Failure(self.step, what, expected, actual))

    def zone(self, what: str, expected: Any, cards: list[Card], **how: bool) -> None:
        ok, actual = zone_matches(self.g, expected, cards, **how)
        if not ok:
            self.fail(what, expected, actual)

    def game(self, exp: dict) -> None:
        g = self.g
        snap = snapshot(g)
        for k, v in exp.items():
            if k == "trash":
                self.zone("trash", v, g.trash)
            elif k == "contains":
                for z, zv in v.items():
                    self.zone(f"{z} contains", zv, g.trash, subset=True)
            elif k == "supply":
                for name, n in v.items():
                    real = cn.real_name(name)
                    if snap["supply"].get(real) != n:
                        self.fail(f"Supply pile {real}", n, snap["supply"].get(real))
            elif k == "cost":
                for name, n in v.items():
                    actual = cost_now(g, name)
                    if actual != n:
                        self.fail(f"cost of {cn.real_name(name)}", n, actual)
            elif k == "piles":
                for pile, want in v.items():
                    found = find_pile(g, pile)
                    n = sum(e.count for e in _entries(want))
                    top = list(reversed(found[1]))[:n] if found else []
                    self.zone(f"the top {n} cards of the {found[0] if found else pile} pile", want, top,
                              ordered=True)
            elif k == "pile_tokens":
                for pile, kinds in v.items():
                    for kind, n in kinds.items():
                        actual = g.pile_tokens.get(pile, {}).get(kind, 0)
                        if actual != n:
                            self.fail(f"{kind} tokens on the {pile} pile", n, actual)
            elif k in ("log", "not_in_log"):
                texts = [e.text for e in g.log.entries]
                for needle in v if isinstance(v, list) else [v]:
                    found = [t for t in texts if needle in t]
                    if k == "log" and not found:
                        self.fail("log line containing", needle, None)
                    elif k == "not_in_log" and found:
                        self.fail("no log line containing", needle, found[0])
            elif k == "offered":
                asked = [q for q, _ in g.decider.asked[self.since:]]
                for want in v:
                    if not any(_asked_matches(q, want) for q in asked):
                        self.fail("a question offering", want,
                                  [f"{q.player}: {q.prompt}: {q.option_labels()}" for q in asked][-5:])
            elif ("game", k) in EXPECT_KEYS:
                actual = EXPECT_KEYS[("game", k)].read(g)
                if actual != v:
                    self.fail(k, v, actual)
            elif k == "winners":
                if sorted(snap["winners"]) != sorted(v):
                    self.fail(k, v, snap["winners"])
            elif k in PLAIN_GLOBAL:
                if snap[k] != v:
                    self.fail(k, v, snap[k])
            else:
                self.player(k, v)

    def player(self, name: str, exp: dict) -> None:
        g = self.g
        p = g.player(name)
        for z, zv in exp.items():
            if ("player", z) in EXPECT_KEYS:
                actual = EXPECT_KEYS[("player", z)].read(g, p)
                if actual != zv:
                    self.fail(f"{name}'s {z}", zv, actual)
            elif z == "vp":
                actual = act.score(g, p)
                if actual != zv:
                    self.fail(f"{name}'s VP", zv, actual)
            elif z == "turns":
                if p.turns != zv:
                    self.fail(f"{name}'s turns", zv, p.turns)
            elif z == "mats":
                for mat, mv in zv.items():
                    self.zone(f"{name}'s {mat} mat", mv, p.zone(f"mat:{mat}"))
            elif z == "tokens":
                for mat, n in zv.items():
                    actual = p.tokens.get(mat, 0)
                    if actual != n:
                        self.fail(f"{name}'s tokens on the {mat} mat", n, actual)
            elif z == "contains":
                for cz, czv in zv.items():
                    self.zone(f"{name}'s {cz} contains", czv, p.zone(cz), subset=True)
            elif z == "discard_order":
                self.zone(f"{name}'s discard pile, top first", zv, list(reversed(p.discard)), ordered=True)
            elif z == "top":
                n = sum(e.count for e in _entries(zv))
                self.zone(f"{name}'s top {n} cards of the deck", zv, p.deck[:n], ordered=True)
            elif z == "gained_this_turn":
                if g.current is not p:
                    self.fail(f"{name}'s cards gained this turn", zv, f"(it is {g.current.name}'s turn)")
                else:
                    self.zone(f"{name}'s cards gained this turn", zv, list(g.turn.gained))
            else:
                self.zone(f"{name}'s {z}", zv, p.zone(z), ordered=(z == "deck"))


def check(g: Game, exp: dict, step: int | None, since: int = 0) -> list[Failure]:
    """Every expectation of ``exp`` that does not hold; ``since``: the first question of this step (``offered``)."""
    c = _Checker(g, step, since)
    c.game(exp)
    return c.fails
