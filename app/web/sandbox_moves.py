"""The sandbox's moves beyond play, buy and end turn: one for every step kind a mechanism registers.

Why a module of its own: the scenario format's list of moves lives in one place,
``extensions.STEP_KINDS`` (call a Reserve card, spend Coffers, buy with overpay,
buy an Event, and whatever a later set registers). The sandbox walks that registry,
so every move a scenario file can hold is a move a player can make here. For each
kind it knows, it asks the engine's own mechanism what is legal right now (which
Reserve cards can be called, how many Coffers the player has, how much they can
overpay), shows only that, and refuses a typed value outside it before adding a
step. A kind registered later without an entry here still gets a plain control
(a card name or a number, from its schema), so no registered move is missing.

A value is checked twice, both before any work: against the step kind's own
JSON Schema (the bounds the format documents) and against what is legal now.
Each refusal names the move and the field.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from jsonschema import Draft202012Validator

MAX_NAME = 60           # a card name typed into a form field
MAX_DIGITS = 4          # "1000" is the largest amount any registered kind accepts

# the moves in a player's words (error messages start with them)
CALL, SPEND, OVERPAY, EVENT = "Call a Reserve card", "Spend Coffers", "Buy with overpay", "Buy an Event"
PAY_DEBT = "Pay off Debt"
NIGHT = "Play in the Night phase"
PROJECT, VILLAGERS = "Buy a Project", "Spend Villagers"

Game = Any              # app.engine.core.state.Game, imported lazily (the engine is optional for the web app)


class MoveError(Exception):
    """A move refused before it became a step: names the move and the field."""


@dataclass(frozen=True)
class Move:
    """How the sandbox offers one step kind and turns a submitted form into the step's value.

    ``offer(game)`` -> what is legal now (falsy: no control is shown);
    ``value(form, offered)`` -> the step's value, or ``MoveError``.
    """
    label: str
    offer: Callable[[Game], Any]
    value: Callable[[Mapping[str, Any], Any], Any]


# ------------------------------------------------------------------ reading form fields
def _card(form: Mapping[str, Any], move: str) -> str:
    card = str(form.get("card") or "").strip()
    if not card:
        raise MoveError(f"{move}: choose a card")
    if len(card) > MAX_NAME:
        raise MoveError(f"{move}: card: a card name has at most {MAX_NAME} characters")
    return card


def _amount(form: Mapping[str, Any], key: str, move: str, low: int, high: int) -> int:
    raw = str(form.get(key) or "").strip()
    if not raw:
        raise MoveError(f"{move}: {key}: enter a number from {low} to {high}")
    if len(raw) > MAX_DIGITS or not raw.isdigit():
        raise MoveError(f"{move}: {key}: expected a whole number from {low} to {high}, found {raw[:10]!r}")
    n = int(raw)
    if not low <= n <= high:
        raise MoveError(f"{move}: {key}: expected a number from {low} to {high}, found {n}")
    return n


def _one_of(card: str, offered: list[str], move: str, none_why: str) -> str:
    real = next((c for c in offered if c.lower() == card.lower()), None)
    if real is None:
        if not offered:
            raise MoveError(f"{move}: card: {none_why}")
        raise MoveError(f"{move}: card: {card!r} is not one you can choose now (you can: {', '.join(offered)})")
    return real


# ------------------------------------------------------------------ call a Reserve card (reserve.py)
def _callable_now(g: Game) -> list[str]:
    """Reserve cards on the current player's Tavern mat that the ``call`` step may call now.

    Only at the start of the turn the game began in: a turn reached by ending the one
    before offers its start-of-turn window as a question instead (reserve.py), and
    answering it is the call; the other windows (after playing an Action, when gaining)
    are questions too.
    """
    from app.engine.core.triggers import Event
    from app.engine.mechanisms import reserve

    p = g.current
    if g.over or g.previous_turn is not None or not reserve.at_start_of_turn(g):
        return []
    out = []
    for c in reserve.on_tavern(p):
        w = reserve.WINDOWS.get(c.name)
        if w is not None and w.calls and w.trigger == "start_of_turn" and c.name not in out \
                and w.applies(g, Event("start_of_turn", p), p, c):
            out.append(c.name)
    return out


def _call_value(form: Mapping[str, Any], offered: list[str]) -> str:
    return _one_of(_card(form, CALL), offered or [], CALL,
                   "no Reserve card on your Tavern mat can be called now (at the start of your turn only)")


# ------------------------------------------------------------------ spend Coffers (coffers.py)
def _coffers_now(g: Game) -> dict[str, int] | None:
    from app.engine.mechanisms import coffers

    n = coffers.coffers(g.current)
    if g.over or n < 1 or g.turn.phase in ("cleanup", "over"):
        return None
    return {"max": min(n, coffers.MAX_TOKENS)}


def _coffers_value(form: Mapping[str, Any], offered: dict[str, int] | None) -> int:
    if not offered:
        raise MoveError(f"{SPEND}: you have no Coffers to spend now")
    return _amount(form, "amount", SPEND, 1, offered["max"])


# ------------------------------------------------------------------ pay off Debt (debt.py)
def _debt_now(g: Game) -> dict[str, int] | None:
    """The most Debt the current player can pay off now: their Debt, at most the $ in the money pool (Buy phase)."""
    from app.engine.mechanisms import debt

    held = debt.debt(g.current)
    if g.over or held < 1 or g.turn.phase not in ("action", "buy", "buy2"):
        return None
    most = min(held, g.turn.coins, debt.MAX_TOKENS)
    return {"max": most, "held": held} if most >= 1 else None


def _debt_value(form: Mapping[str, Any], offered: dict[str, int] | None) -> int:
    if not offered:
        raise MoveError(f"{PAY_DEBT}: you have no Debt you can pay off now (it takes $1 per Debt, in the Buy phase)")
    return _amount(form, "amount", PAY_DEBT, 1, offered["max"])


# ------------------------------------------------------------------ buy with overpay (overpay.py)
def _overpay_now(g: Game) -> list[dict[str, Any]]:
    """Buyable piles whose card has an overpay ability, with the most $ the money pool can overpay."""
    from app.engine.core import activities as act
    from app.engine.mechanisms import overpay

    if g.over:
        return []
    t = g.turn
    out = []
    for name in act.buyable(g):
        if overpay.timing(g, name) is None:
            continue
        card = g.supply[name][-1]
        most = min(t.coins - card.cost, overpay.MAX_OVERPAY)
        potion = t.potions > int(bool(card.facts.cost_potion))
        if most >= 1 or potion:
            out.append({"card": name, "max": max(most, 0), "potion": potion})
    return out


def _overpay_value(form: Mapping[str, Any], offered: list[dict[str, Any]]) -> dict[str, Any]:
    by_name = {o["card"]: o for o in offered or []}
    card = _one_of(_card(form, OVERPAY), list(by_name), OVERPAY,
                   "no card you can buy now has an overpay ability, or the money pool has nothing left over")
    o = by_name[card]
    potion = bool(form.get("potion")) and o["potion"]
    low = 0 if potion else 1
    if o["max"] < low:
        raise MoveError(f"{OVERPAY}: overpay: the money pool has nothing left to overpay for {card}")
    value: dict[str, Any] = {"card": card, "overpay": _amount(form, "overpay", OVERPAY, low, o["max"])}
    if potion:
        value["potion"] = True
    return value


# ------------------------------------------------------------------ buy an Event (events.py)
def _events_now(g: Game) -> list[str]:
    from app.engine.mechanisms.events import buyable_events

    return [] if g.over else buyable_events(g)


def _event_value(form: Mapping[str, Any], offered: list[str]) -> str:
    return _one_of(_card(form, EVENT), offered or [], EVENT,
                   "no Event can be bought now (Buy phase, a Buy and enough $ needed)")


# ------------------------------------------------------------------ the Night phase (night.py)
def _night_now(g: Game) -> list[str]:
    """Night cards in the current player's hand that can be played now, moving on to the Night phase if need be."""
    from app.engine.mechanisms import night

    return [] if g.over else sorted({c.name for c in night.playable_now(g)})


def _night_value(form: Mapping[str, Any], offered: list[str]) -> str:
    return _one_of(_card(form, NIGHT), offered or [], NIGHT,
                   "no Night card in your hand can be played now (after the Buy phase, before Clean-up)")


# ------------------------------------------------------------------ buy a Project (projects.py)
def _projects_now(g: Game) -> list[dict[str, Any]]:
    """Projects the current player can buy now (a Buy, enough $, a cube left, not theirs yet), with their cost."""
    from app.engine.core.state import card_facts
    from app.engine.mechanisms import projects

    return [] if g.over else [{"card": n, "cost": card_facts(n).cost_coins} for n in projects.buyable(g)]


def _project_value(form: Mapping[str, Any], offered: list[dict[str, Any]]) -> str:
    return _one_of(_card(form, PROJECT), [o["card"] for o in offered or []], PROJECT,
                   "no Project can be bought now (Buy phase, a Buy, enough $ and an unused cube needed)")


# ------------------------------------------------------------------ spend Villagers (villagers.py)
def _villagers_now(g: Game) -> dict[str, int] | None:
    """How many Villagers the current player may spend now: any they have, in their own Action phase."""
    from app.engine.mechanisms import villagers
    from app.engine.mechanisms.coffers import MAX_TOKENS

    n = villagers.villagers(g.current)
    if g.over or n < 1 or not villagers.may_spend_now(g, g.current):
        return None
    return {"max": min(n, MAX_TOKENS)}


def _villagers_value(form: Mapping[str, Any], offered: dict[str, int] | None) -> int:
    if not offered:
        raise MoveError(f"{VILLAGERS}: you have no Villagers you can spend now (only in your Action phase)")
    return _amount(form, "amount", VILLAGERS, 1, offered["max"])


MOVES: dict[str, Move] = {
    "call": Move(CALL, _callable_now, _call_value),
    "spend_coffers": Move(SPEND, _coffers_now, _coffers_value),
    "buy_overpay": Move(OVERPAY, _overpay_now, _overpay_value),
    "buy_event": Move(EVENT, _events_now, _event_value),
    "pay_debt": Move(PAY_DEBT, _debt_now, _debt_value),
    "night": Move(NIGHT, _night_now, _night_value),
    "buy_project": Move(PROJECT, _projects_now, _project_value),
    "spend_villagers": Move(VILLAGERS, _villagers_now, _villagers_value),
}


# ------------------------------------------------------------------ any other registered kind
def _plain(kind: Any) -> Move:
    """A control for a step kind the sandbox has no entry for: a card name, or a number its schema bounds."""
    schema = kind.schema
    if kind.cards:
        return Move(kind.doc, lambda g: {"input": "card"}, lambda form, _o: _card(form, kind.doc))
    if schema.get("type") == "integer":
        low, high = int(schema.get("minimum", 0)), int(schema.get("maximum", 1000))
        return Move(kind.doc, lambda g: {"input": "number", "min": low, "max": high},
                    lambda form, _o: _amount(form, "amount", kind.doc, low, high))
    return Move(kind.doc, lambda g: None, _no_control(kind.doc))


def _no_control(label: str) -> Callable[[Mapping[str, Any], Any], Any]:
    def value(form: Mapping[str, Any], offered: Any) -> Any:
        raise MoveError(f"{label}: the sandbox has no control for this move; download the scenario and add it there")
    return value


def _kinds() -> dict[str, Any]:
    from app.engine.core.registry import defined_cards
    from app.engine.scenario.extensions import STEP_KINDS

    defined_cards()          # every set's module imported, so every mechanism has registered its kinds
    return STEP_KINDS


def move_for(name: str) -> Move | None:
    kind = _kinds().get(name)
    if kind is None:
        return None
    return MOVES.get(name) or _plain(kind)


def step_names() -> list[str]:
    """Every registered step kind: each is a sandbox operation of the same name."""
    return list(_kinds())


def offers(g: Game) -> dict[str, Any]:
    """What each registered move offers now (for the page's controls), by step kind."""
    out: dict[str, Any] = {}
    for name in _kinds():
        move = move_for(name)
        out[name] = move.offer(g) if move else None
    return out


def other_moves(legal: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The registered moves without a control of their own, for the page's "Other moves"."""
    out = []
    for name in _kinds():
        if name not in MOVES and legal.get(name):
            out.append({"op": name, "label": move_for(name).label, **legal[name]})
    return out


def step(name: str, form: Mapping[str, Any], legal: Mapping[str, Any] | None) -> dict[str, Any]:
    """The step ``{name: value}`` for a submitted move, checked against what is legal now and the kind's schema."""
    move = move_for(name)
    if move is None:
        raise MoveError(f"unknown sandbox operation {name!r}")
    label = move.label
    if legal is None:
        raise MoveError(f"{label}: not now: answer the open question first, or undo the move that could not be made")
    value = move.value(form, legal.get(name))
    problems = sorted(Draft202012Validator(_kinds()[name].schema).iter_errors(value), key=lambda e: list(e.path))
    if problems:
        raise MoveError(f"{label}: {problems[0].message}")
    return {name: value, "answers": []}
