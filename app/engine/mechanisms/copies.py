"""Copies of a card and differently named cards (§ VI Common effects: COPY OF A CARD / DIFFERENTLY NAMED CARDS).

"A copy of a card is a card that has the same name, or a card with a specified
name. Differently named cards are cards that have different names." Names, not
types: two Knights or two Ruins are differently named. Used by Horn of Plenty,
Harvest, Menagerie, Fairgrounds, Hunting Party, Jester and Taxman.

"You can only gain a copy of a card if it's available in the Supply" (Jester):
``gain_copy`` gains from the pile of that name and does as much as it can.
"""
from __future__ import annotations

from typing import Iterable

from app.engine.core import activities as act
from app.engine.core import narrate
from app.engine.core.state import Card, Game, Player

COPIES = narrate.sec("Copy of a card / Differently named cards")


def differently_named(cards: Iterable[Card]) -> int:
    """How many differently named cards there are among ``cards``."""
    return len({c.name for c in cards})


def all_different(cards: Iterable[Card]) -> bool:
    cards = list(cards)
    return differently_named(cards) == len(cards)


def is_copy(card: Card, of: Card | str) -> bool:
    return card.name == (of if isinstance(of, str) else of.name)


def gain_copy(game: Game, p: Player, of: Card, cite: dict | None = None) -> Card | None:
    """Gain a copy of ``of`` from the Supply, if one is there."""
    if of.name not in game.supply:
        game.log.add(f"{p.name} cannot gain a copy of {of.name}: it is not in the Supply", COPIES,
                     *([cite] if cite else []))
        return None
    return act.gain(game, p, of.name, cite=cite)
