"""Overpaying when buying a card (Guilds: Masterpiece, Stonemason, Doctor, Herald).

The rules implemented (Complete Rules § IV OVERPAYING):

* "To overpay, you must pay more than the cost of the card; you can't overpay 0."
* 2022 versions: "You may overpay when paying for the card, and then when you
  gain it afterwards, you get the overpay ability based on how much you
  overpaid. So you overpay before the card is bought, and the overpay ability
  itself is a when-gain ability." (``when_gain`` below.)
* Pre-2022 versions: "overpaying was timed as a when-buy ability: First you
  paid the card's cost, then you resolved when-buy abilities in any order,
  including the overpay ability (which entailed overpaying)." (``when_buy``.)
* "For any ability that refers to a card's cost, ignore the +": the card's cost
  is its printed cost; overpaying never changes it.

In a scenario the player says how much they overpay in the step that buys the
card: ``- buy_overpay: {card: Masterpiece, overpay: 2}``. A plain ``buy`` does
not overpay. With a 2022 card the money leaves the pool while paying, before
any when-buy ability; with a pre-2022 card it leaves when its when-buy ability
resolves, so another when-buy ability the player orders first (one that gives
$) can still pay for it (Doctor (pre-2022) 7), and too little money then stops
the step with an error.

Choice made: overpaying with a Potion (Overpaying, Stonemason 2) is not
offered; the amount is in coins only.
"""
from __future__ import annotations

from typing import Callable

from app.engine.core import activities as act
from app.engine.core import narrate
from app.engine.core.errors import IllegalAction
from app.engine.core.registry import definition
from app.engine.core.state import Card, Game, Player
from app.engine.core.triggers import Event
from app.engine.scenario.extensions import step_kind

OVERPAYING = narrate.sec("Overpaying")
MAX_OVERPAY = 1000

# what an overpay does with the amount: fn(game, player, the bought card, amount)
OverpayEffect = Callable[[Game, Player, Card, int], None]


def _declared(game: Game) -> dict[int, int]:
    """Amounts declared for the card instances being bought, by card id (this step only)."""
    return game.__dict__.setdefault("overpay_declared", {})


def _paid(game: Game) -> dict[int, int]:
    """Amounts overpaid while paying (2022), by card id, until its when-gain ability uses them."""
    return game.__dict__.setdefault("overpaid", {})


def when_gain(effect: OverpayEffect, cite: dict | None = None) -> Callable[[Game, Event, Card], None]:
    """The 2022 overpay ability: a when-gain ability using the amount overpaid when it was paid for."""
    def hook(game: Game, ev: Event, card: Card) -> None:
        n = _paid(game).pop(card.id, 0)
        if n <= 0 or not ev.data.get("bought"):
            return
        game.log.add(f"{ev.player.name} gained {card.name} after overpaying ${n}: its overpay ability resolves",
                     OVERPAYING, *([cite] if cite else []))
        effect(game, ev.player, card, n)
    hook.overpay_timing = "when_paying"          # type: ignore[attr-defined]
    return hook


def when_buy(effect: OverpayEffect, cite: dict | None = None) -> Callable[[Game, Event, Card], None]:
    """The pre-2022 overpay ability: a when-buy ability that pays the declared amount when it resolves."""
    def hook(game: Game, ev: Event, card: Card) -> None:
        n = _declared(game).pop(card.id, 0)
        if n <= 0:
            return
        t = game.turn
        if t.coins < n:
            raise IllegalAction(f"cannot overpay ${n} for {card.name}: the money pool has ${t.coins} when its "
                                "when-buy ability resolves")
        t.coins -= n
        game.log.add(f"{ev.player.name} overpays ${n} for {card.name} as its when-buy ability resolves (money pool "
                     f"now {t.coins}); the card is not gained yet", OVERPAYING, *([cite] if cite else []))
        effect(game, ev.player, card, n)
    hook.overpay_timing = "when_buy"             # type: ignore[attr-defined]
    return hook


def timing(game: Game, name: str) -> str | None:
    """'when_paying' (2022), 'when_buy' (pre-2022) or None if this version of the card has no overpay ability."""
    d = definition(game, name)
    if d is None:
        return None
    for h in d.hooks.values():
        t = getattr(h, "overpay_timing", None)
        if t:
            return t
    return None


def buy_overpaying(game: Game, p: Player, name: str, n: int) -> Card | None:
    """Buy ``name`` and overpay ``n`` for it, at the moment its version says."""
    t = game.turn
    when = timing(game, name)
    if when is None:
        raise IllegalAction(f"{name} has no overpay ability (only Masterpiece, Stonemason, Doctor and Herald do)")
    if name not in act.buyable(game):
        return act.buy(game, p, name)        # raises with the reason it can't be bought
    card = game.supply[name][-1]
    if when == "when_paying":
        if t.coins < card.cost + n:
            raise IllegalAction(f"cannot overpay ${n} for {name}: it costs {card.cost} and the money pool has "
                                f"{t.coins}")
        t.coins -= n
        _paid(game)[card.id] = n
        game.log.add(f"{p.name} overpays ${n} while paying for {name} (the overpay ability happens when it is "
                     "gained)", OVERPAYING)
    else:
        _declared(game)[card.id] = n
    try:
        return act.buy(game, p, name)
    finally:
        _declared(game).pop(card.id, None)


_SCHEMA = {"type": "object", "required": ["card", "overpay"], "additionalProperties": False,
           "properties": {"card": {"type": "string"}, "overpay": {"type": "integer", "minimum": 1,
                                                                   "maximum": MAX_OVERPAY}}}


@step_kind("buy_overpay", schema=_SCHEMA,
           doc="buy a card with an overpay ability and overpay N for it (2022: while paying; pre-2022: as its "
               "when-buy ability resolves)",
           example="buy_overpay: {card: Masterpiece, overpay: 2}")
def _buy_overpay_step(game: Game, p: Player, value: object) -> None:
    if not isinstance(value, dict) or set(value) != {"card", "overpay"}:
        raise IllegalAction(f"buy_overpay: expected {{card: NAME, overpay: N}}, found {value!r}")
    name, n = value["card"], value["overpay"]
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_OVERPAY:
        raise IllegalAction(f"buy_overpay: overpay must be a number of $ from 1 to {MAX_OVERPAY} (you can't "
                            f"overpay 0), found {n!r}")
    real = next((k for k in game.supply if isinstance(name, str) and k.lower() == name.strip().lower()), None)
    if real is None:
        raise IllegalAction(f"buy_overpay: {name!r} is not a Supply pile in this game", sorted(game.supply))
    buy_overpaying(game, p, real, n)
