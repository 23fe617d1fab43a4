"""The Potion in the money pool, and paying a Potion cost when buying.

Why a module of its own: Potion (Alchemy's basic Treasure) produces a Potion,
not coins, and a card with a Potion in its cost can only be bought with one
(POTIONS § IV: "When you play a Potion, it produces a Potion ... added to your
money pool. This means that in the Buy phase you can buy a card with Potion in
its cost. (To buy two cards with Potion in their costs you need to have played
a Potion twice.)"). Coins stay in ``Turn.coins``; Potions are counted in
``Turn.potions``. The buy step asks ``shortfall`` whether the pool can pay a
card and calls ``pay`` after paying the coins (both registered in ``core.hooks``).

Cost *comparisons* ("up to $5" never takes a Potion card) live in costs.py.
"""
from __future__ import annotations

from dataclasses import dataclass

from app.engine.core import hooks, narrate
from app.engine.core.effects import Ctx, Effect
from app.engine.core.state import Card, Game

POTIONS = narrate.sec("Potions")


def potions(game: Game) -> int:
    """Potions in the current money pool."""
    return getattr(game.turn, "potions", 0)


def needs_potion(card: Card) -> bool:
    return bool(card.facts.cost_potion)


@hooks.buy_check("potions")
def _buy_check(game: Game, pile: str, card: Card) -> str | None:
    return shortfall(game, card)


def shortfall(game: Game, card: Card) -> str | None:
    """Why the money pool cannot pay this card's Potion, or None when it can (or needs none)."""
    if needs_potion(card) and potions(game) < 1:
        return f"{card.name} has a Potion in its cost and the money pool has no Potion (play a Potion first)"
    return None


@hooks.buy_payment("potions")
def pay(game: Game, card: Card) -> None:
    """Take the Potion of a Potion-cost card out of the money pool (one Potion per card bought)."""
    if not needs_potion(card):
        return
    game.turn.potions = potions(game) - 1
    game.log.add(f"{game.current.name} also pays a Potion for {card.name} (Potions left {game.turn.potions})",
                 POTIONS)


@dataclass
class PlusPotion(Effect):
    """"+Potion": a Potion added to the money pool, usable only in this turn's Buy phase (POTIONS § IV)."""

    n: int = 1
    cite: dict | None = None

    def apply(self, ctx: Ctx) -> bool:
        g = ctx.game
        g.turn.potions = potions(g) + self.n
        ctx.log(f"+{self.n} Potion (money pool: ${g.turn.coins} and {g.turn.potions} Potion"
                f"{'s' if g.turn.potions != 1 else ''})", self.cite or POTIONS)
        return True
