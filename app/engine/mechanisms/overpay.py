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

* "You can also overpay with a Potion (see POTIONS)" (Overpaying § IV); "Overpaying
  with a Potion will let you gain two cards with a Potion in their costs" (Stonemason 2).
  ``buy_overpay: {card: Stonemason, overpay: 2, potion: true}`` overpays $2 and a Potion;
  an overpay effect asks ``with_potion(game)`` whether a Potion was overpaid. A Potion is
  not "$1", so Masterpiece, Doctor and Herald ("per $1 overpaid") get nothing for it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from app.engine.core import activities as act
from app.engine.core import narrate
from app.engine.core.errors import IllegalAction
from app.engine.core.registry import definition
from app.engine.core.state import Card, Game, Player
from app.engine.core.triggers import Event
from app.engine.mechanisms import spending
from app.engine.scenario.extensions import step_kind

OVERPAYING = narrate.sec("Overpaying")
MAX_OVERPAY = 1000

# what an overpay does with the amount: fn(game, player, the bought card, amount)
OverpayEffect = Callable[[Game, Player, Card, int], None]


@dataclass
class Purchase:
    """What the player overpays for the card being bought in this step.

    It belongs to the purchase, not to a card instance: "you get the overpay ability based on how much you
    overpaid" when you gain the card you bought (Overpaying § IV). Another when-buy ability may gain a copy of
    the same card first (Talisman; pre-2022 Haggler, Hoard), taking the card then on top of the pile; that copy
    was neither bought nor paid for, so it gets nothing, and the amount stays with the bought card.
    """

    pile: str
    amount: int
    potion: bool
    paid: bool = False       # 2022: paid while paying; pre-2022: when its when-buy ability resolves


def _purchase(game: Game) -> Purchase | None:
    return game.__dict__.get("overpay_purchase")


def _pile(card: Card) -> str:
    return card.pile or card.name


def with_potion(game: Game) -> bool:
    """Whether the overpay ability resolving now was paid with a Potion too (Stonemason 2)."""
    return bool(game.__dict__.get("overpaying_with_potion"))


def _resolve(game: Game, p: Player, card: Card, n: int, potion: bool, effect: OverpayEffect) -> None:
    game.__dict__["overpaying_with_potion"] = potion
    try:
        effect(game, p, card, n)
    finally:
        game.__dict__["overpaying_with_potion"] = False


def _amount(n: int, potion: bool) -> str:
    return " and ".join(x for x in (f"${n}" if n else "", "a Potion" if potion else "") if x)


def when_gain(effect: OverpayEffect, cite: dict | None = None) -> Callable[[Game, Event, Card], None]:
    """The 2022 overpay ability: a when-gain ability using the amount overpaid when it was paid for."""
    def hook(game: Game, ev: Event, card: Card) -> None:
        pur = _purchase(game)
        if pur is None or not pur.paid or not ev.data.get("bought") or pur.pile != _pile(card):
            return      # not the card that was bought and paid for (a copy gained by Talisman gets nothing)
        game.__dict__["overpay_purchase"] = None
        n, potion = pur.amount, pur.potion
        game.log.add(f"{ev.player.name} gained {card.name} after overpaying {_amount(n, potion)}: its overpay "
                     "ability resolves", OVERPAYING, *([cite] if cite else []))
        _resolve(game, ev.player, card, n, potion, effect)
    hook.overpay_timing = "when_paying"          # type: ignore[attr-defined]
    return hook


def when_buy(effect: OverpayEffect, cite: dict | None = None) -> Callable[[Game, Event, Card], None]:
    """The pre-2022 overpay ability: a when-buy ability that pays the declared amount when it resolves."""
    def hook(game: Game, ev: Event, card: Card) -> None:
        pur = _purchase(game)
        if pur is None or pur.paid or pur.pile != _pile(card):
            return
        pur.paid = True
        n, potion = pur.amount, pur.potion
        t = game.turn
        # Coffers may be spent now, e.g. those a when-buy ability resolved first just gave (Doctor (pre-2022) 7)
        spending.may_spend(game, ev.player, spending.COINS, f"to overpay {_amount(n, False)} for {card.name}", n)
        if t.coins < n or (potion and t.potions < 1):
            raise IllegalAction(f"cannot overpay {_amount(n, potion)} for {card.name}: the money pool has "
                                f"${t.coins} and {t.potions} Potion(s) when its when-buy ability resolves")
        t.coins -= n
        t.potions -= int(potion)
        game.log.add(f"{ev.player.name} overpays {_amount(n, potion)} for {card.name} as its when-buy ability "
                     f"resolves (money pool now ${t.coins}); the card is not gained yet", OVERPAYING,
                     *([cite] if cite else []))
        _resolve(game, ev.player, card, n, potion, effect)
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


def buy_overpaying(game: Game, p: Player, name: str, n: int, potion: bool = False) -> Card | None:
    """Buy ``name`` and overpay ``n`` (and a Potion, if ``potion``) for it, at the moment its version says."""
    t = game.turn
    when = timing(game, name)
    if when is None:
        raise IllegalAction(f"{name} has no overpay ability (only Masterpiece, Stonemason, Doctor and Herald do)")
    if name not in act.buyable(game):
        return act.buy(game, p, name)        # raises with the reason it can't be bought
    card = game.supply[name][-1]
    needs = int(bool(card.facts.cost_potion)) + int(potion)
    pur = Purchase(name, n, potion)
    if when == "when_paying":
        if n:       # Coffers may be spent while paying (Coffers and Villagers § IV: at any time during your turn)
            spending.may_spend(game, p, spending.COINS, f"to overpay {_amount(n, False)} for {name}", card.cost + n)
        if t.coins < card.cost + n or t.potions < needs:
            raise IllegalAction(f"cannot overpay {_amount(n, potion)} for {name}: it costs {card.cost} and the "
                                f"money pool has {t.coins} and {t.potions} Potion(s)")
        t.coins -= n
        t.potions -= int(potion)
        pur.paid = True
        game.log.add(f"{p.name} overpays {_amount(n, potion)} while paying for {name} (the overpay ability happens "
                     "when it is gained)", OVERPAYING)
    game.__dict__["overpay_purchase"] = pur
    try:
        return act.buy(game, p, name)
    finally:
        game.__dict__["overpay_purchase"] = None     # the purchase is over, whatever happened to the card


_SCHEMA = {"type": "object", "required": ["card", "overpay"], "additionalProperties": False,
           "properties": {"card": {"type": "string"}, "overpay": {"type": "integer", "minimum": 0,
                                                                   "maximum": MAX_OVERPAY},
                          "potion": {"type": "boolean"}},
           # "you can't overpay 0": $0 only together with a Potion
           "if": {"required": ["potion"], "properties": {"potion": {"const": True}}},
           "else": {"properties": {"overpay": {"minimum": 1}}}}


@step_kind("buy_overpay", schema=_SCHEMA,
           doc="buy a card with an overpay ability and overpay N for it, and a Potion with `potion: true` "
               "(2022: while paying; pre-2022: as its when-buy ability resolves)",
           example="buy_overpay: {card: Masterpiece, overpay: 2}")
def _buy_overpay_step(game: Game, p: Player, value: object) -> None:
    if not isinstance(value, dict) or not {"card", "overpay"} <= set(value) <= {"card", "overpay", "potion"}:
        raise IllegalAction(f"buy_overpay: expected {{card: NAME, overpay: N}} (and potion: true), found {value!r}")
    name, n, potion = value["card"], value["overpay"], value.get("potion", False)
    if not isinstance(potion, bool):
        raise IllegalAction(f"buy_overpay: potion must be true or false, found {potion!r}")
    low = 0 if potion else 1
    if isinstance(n, bool) or not isinstance(n, int) or not low <= n <= MAX_OVERPAY:
        raise IllegalAction(f"buy_overpay: overpay must be a number of $ from {low} to {MAX_OVERPAY} (you can't "
                            f"overpay 0), found {n!r}")
    real = next((k for k in game.supply if isinstance(name, str) and k.lower() == name.strip().lower()), None)
    if real is None:
        raise IllegalAction(f"buy_overpay: {name!r} is not a Supply pile in this game", sorted(game.supply))
    buy_overpaying(game, p, real, n, potion)
