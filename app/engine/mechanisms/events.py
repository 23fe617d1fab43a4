"""Events: abilities bought with a Buy in the Buy phase, beside the Kingdom, never cards.

Why a module of its own: Adventures brings twenty Events (later sets bring more), and
the rules for buying one are the same for all of them, and differ from buying a card in
ways players get wrong (Complete Rules, EVENTS AND PROJECTS § IV; Adventures rulebook,
"Events"):

* "In your Buy phase, instead of buying a card, you may buy an Event ..., paying from
  your money pool and using up one Buy from your Buy pool. This will not get you the
  card, just the immediate effect of the Event (its buy ability)." So buying an Event
  is *not buying a card*: no when-buy ability triggers (Goons, Haunted Woods, Swamp Hag,
  Embargo: "Buying Events is not buying cards and so does not trigger this", AR), and
  nothing is gained.
* "its cost cannot be changed by cards like Bridge" (CR; AR: "Costs of Events are not
  affected by cards like Bridge Troll"): the printed cost is paid.
* "You can buy the same Event several times on your turn (if you have the Buys).
  However, "Once per turn"/"once per game" on an Event means that you can only buy the
  Event once per turn/game" (CR).
* "Players cannot play further Treasures that turn after buying an Event" (AR): like
  buying a card, it ends the Treasure part of the Buy phase.
* Events are not in the Supply (AR: "The Event just stays on the table"); they are set
  out beside the Kingdom (CR SETUP OF LANDSCAPE CARDS, § I); a scenario lists them with
  the ``events`` setup key and buys one with the ``buy_event`` step.

An Event is registered like a card (``registry.register``), its buy ability as the
definition's ``play`` effect: so it has versions (Bonfire, Plan, Inheritance changed),
its card page shows it in plain words, and ``rulings coverage`` counts it as defined.
What only Events have (once per turn / per game) is kept here.
"""
from __future__ import annotations

from collections import Counter
from typing import Callable

from app.corpus.card_facts import facts_for, load_facts
from app.engine.core import activities as act
from app.engine.core import hooks, narrate
from app.engine.core.effects import Ctx, Effect
from app.engine.core.errors import IllegalAction, ScenarioError
from app.engine.core.registry import CardDef, definition, register
from app.engine.core.state import Card, Game, Player, card_facts
from app.engine.scenario.extensions import CARD_LIST, expect_key, setup_key, step_kind

EVENTS = narrate.sec("Events and Projects")
BUY_PHASE = narrate.sec("Buy phase")

# Event name -> 'turn' | 'game': "Once per turn" / "Once per game" (EVENTS AND PROJECTS § IV)
_ONCE: dict[str, str] = {}


def register_event(name: str, buy: Effect, once: str | None = None, version: str = "", note: str = "",
                   default: bool = True, setup: Callable[[Game], None] | None = None) -> CardDef:
    """Register an Event's buy ability (checked against the card facts: it must be an Event).

    ``setup``: what the Event does to the table when it is in the game ("Setup: Add 1 Debt to each Supply
    pile", Tax); kept on the version's definition, since a changed Event may change its setup too."""
    if "Event" not in card_facts(name).types:
        raise ValueError(f"{name} is not an Event")
    if once is not None:
        if once not in ("turn", "game"):
            raise ValueError(f"once must be 'turn' or 'game', not {once!r}")
        _ONCE[name] = once
    return register(CardDef(name, buy, version=version, note=note, setup=setup), default=default)


def is_event(name: str) -> bool:
    return "Event" in card_facts(name).types


# ------------------------------------------------------------------ state kept on the game and the turn
def events_in_game(game: Game) -> dict[str, Card]:
    """The Events beside the Kingdom: name -> an object standing for the Event (never moved, owned by nobody)."""
    return game.__dict__.setdefault("events_in_game", {})


def events_bought(game: Game) -> list[str]:
    """The Events the current player bought this turn, in order (Messenger: "the first thing you bought")."""
    return game.turn.__dict__.setdefault("events_bought", [])


def _bought_in_game(game: Game) -> Counter:
    return game.__dict__.setdefault("events_bought_game", Counter())


def add_events(game: Game, names: list[str]) -> None:
    new = [n for n in dict.fromkeys(names) if n not in events_in_game(game)]
    for name in names:
        if name not in events_in_game(game):
            # stands for the Event as the source of its ability; in no zone, so nothing ever moves it
            events_in_game(game)[name] = Card(-len(events_in_game(game)) - 1, name, None, "event", game=game)
    game.log.add(f"Events beside the Kingdom: {', '.join(events_in_game(game))}", EVENTS)
    for name in new:
        d = definition(game, name)
        if d is not None and d.setup is not None:
            d.setup(game)


def event_cost(name: str) -> int:
    """The printed cost: an Event's cost cannot be changed (EVENTS AND PROJECTS § IV)."""
    return card_facts(name).cost_coins


def why_not(game: Game, p: Player, name: str) -> str | None:
    """Why ``p`` cannot buy the Event ``name`` now, or None."""
    t = game.turn
    if name not in events_in_game(game):
        listed = ", ".join(events_in_game(game)) or "none"
        return f"{name} is not an Event in this game (Events: {listed})"
    if t.phase not in ("action", "buy", "buy2"):
        return f"Events are bought in the Buy phase, and this is the {t.phase} phase"
    once = _ONCE.get(name)
    if once == "turn" and name in events_bought(game):
        return f"{name} can only be bought once per turn"
    if once == "game" and _bought_in_game(game)[(p.index, name)]:
        return f"{name} can only be bought once per game"
    if t.buys < 1:
        return "no Buys left"
    cost = event_cost(name)
    if cost > t.coins:
        return f"{name} costs ${cost} and the money pool has ${t.coins}"
    # what the mechanisms that restrict buying say (holding Debt: "you can't buy anything", DEBT § IV)
    return hooks.why_not_buyable(game, name, events_in_game(game)[name], event=True)


def buyable_events(game: Game) -> list[str]:
    return [n for n in events_in_game(game) if why_not(game, game.current, n) is None]


def buy_event(game: Game, p: Player, name: str) -> None:
    """Buy an Event: pay its printed cost from the money pool, use a Buy, then resolve its buy ability.

    No card is bought or gained, so no when-buy or when-gain ability triggers (EVENTS AND PROJECTS § IV).
    """
    reason = why_not(game, p, name)
    if reason is not None:
        raise IllegalAction(f"cannot buy the Event {name}: {reason}", buyable_events(game))
    t = game.turn
    cost = event_cost(name)
    act.pay_for_a_buy(game, cost)           # no more Treasures after buying (AR "Events")
    events_bought(game).append(name)
    _bought_in_game(game)[(p.index, name)] += 1
    once = _ONCE.get(name)
    limit = f"; once per {once}" if once else ""
    game.log.add(f"{p.name} buys the Event {name} for ${cost} (money pool now ${t.coins}, Buys left {t.buys}"
                 f"{limit}): this is not buying a card", EVENTS)
    src = events_in_game(game)[name]
    hooks.pay_rest(game, src)      # the rest of its printed cost (Debt: DEBT § IV)
    d = definition(game, name)
    if d is not None and d.play is not None:
        d.play.apply(Ctx(game, p, src))


# ------------------------------------------------------------------ the scenario format
def _event_names() -> list[str]:
    return sorted(f.name for f in load_facts().values() if "Event" in f.types)


@setup_key("events", scope="game", schema={"type": "array", "items": {"enum": _event_names()}, "minItems": 1,
                                           "maxItems": 20},
           doc="Events beside the Kingdom (not in the Supply); players buy them with the buy_event step",
           example="events: [Alms, Borrow]")
def _setup_events(game: Game, value: list) -> None:
    if not isinstance(value, list) or not value:
        raise ScenarioError("setup", "events: expected a list of Event names, e.g. [Alms, Borrow]")
    if len(value) > 20:
        raise ScenarioError("setup", f"events: at most 20 Events, found {len(value)}")
    names = []
    for raw in value:
        f = facts_for(raw) if isinstance(raw, str) else None
        if f is None:
            raise ScenarioError("setup", f"events: unknown Event {raw!r}")
        if "Event" not in f.types:
            raise ScenarioError("setup", f"events: {f.name} is not an Event ({', '.join(f.types)})")
        if definition(game, f.name) is None:
            raise ScenarioError("setup", f"events: {f.name} has no executable definition yet")
        names.append(f.name)
    add_events(game, names)


@step_kind("buy_event", schema={"anyOf": [{"type": "string"}, CARD_LIST]}, cards=True,
           doc="Buy an Event (or several, in order) with a Buy, paying from the money pool",
           example="buy_event: Alms")
def _step_buy_event(game: Game, p: Player, value: list[str]) -> None:
    for name in value:
        buy_event(game, p, name)


@expect_key("events_bought", scope="game", schema=CARD_LIST,
            doc="The Events the current player bought this turn, in order", example="events_bought: [Borrow]")
def _read_bought(game: Game) -> list[str]:
    return list(events_bought(game))
