"""Supply piles whose cards have different names (the Ruins pile, the Knights pile).

Complete Rules § I Special setup (Dark Ages): "Only the top card of the Ruins
pile and Knight pile should ever be visible to the players." Such a pile is one
Supply pile under one name ("Ruins", "Knights"); each card remembers it
(``Card.pile``), so it can be gained from the top, bought with the pile's name,
counted for the game end when empty, and returned to it.

A scenario may state the order of the pile, top card first, so that a ruling
about which card comes next can be shown; otherwise the pile is shuffled with
the scenario's seed.
"""
from __future__ import annotations

from app.engine.core import narrate
from app.engine.core.errors import EngineError
from app.engine.core.state import Game

SPECIAL_SETUP = narrate.sec("Special setup")


def build_pile(game: Game, pile: str, cards: list[str]) -> None:
    """Make the Supply pile ``pile`` from ``cards`` listed top card first."""
    made = []
    for name in reversed(cards):          # the pile's top is the end of the list
        c = game.new_card(name, None, "supply")
        c.pile = pile
        made.append(c)
    game.supply[pile] = made


def shuffled(game: Game, pile: str, cards: list[str], count: int) -> None:
    """Shuffle ``cards`` with the game's seed and keep ``count`` of them as the pile ``pile``."""
    deck = list(cards)
    game.rng.shuffle(deck)
    build_pile(game, pile, deck[:count])


def ordered(game: Game, pile: str, names: list[str], allowed: set[str], key: str) -> None:
    """A setup key's explicit order (top first), after checking every name belongs in that pile."""
    if not isinstance(names, list) or not names:
        raise EngineError(f"{key}: expected a list of card names, top card first")
    wrong = [n for n in names if n not in allowed]
    if wrong:
        raise EngineError(f"{key}: {', '.join(map(str, wrong))} cannot be in the {pile} pile; "
                          f"expected some of {', '.join(sorted(allowed))}")
    build_pile(game, pile, names)
    game.log.add(f"The {pile} pile is, from the top: {', '.join(names)} (only the top card is visible)",
                 SPECIAL_SETUP)


def top_name(game: Game, pile: str) -> str | None:
    cards = game.supply.get(pile)
    return cards[-1].name if cards else None
