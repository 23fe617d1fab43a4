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
from app.corpus.card_facts import facts_for
from app.engine.core.state import Game

SPECIAL_SETUP = narrate.SPECIAL_SETUP


def build_pile(game: Game, pile: str, cards: list[str]) -> None:
    """Make the Supply pile ``pile`` from ``cards`` listed top card first."""
    made = []
    for name in reversed(cards):          # the pile's top is the end of the list
        made.append(game.new_card(name, None, "supply", pile))
    game.supply[pile] = made


def shuffled(game: Game, pile: str, cards: list[str], count: int) -> None:
    """Shuffle ``cards`` with the game's seed and keep ``count`` of them as the pile ``pile``."""
    deck = list(cards)
    game.rng.shuffle(deck)
    build_pile(game, pile, deck[:count])


def ordered(game: Game, pile: str, names: list, allowed: set[str], key: str) -> None:
    """A setup key's explicit order (top first).

    Why names that cannot be in the pile are reported in the log rather than raised: setup keys are applied
    while the table is built, before any step runs, where an exception would stop the replay without a
    step to point at; the key's JSON Schema (an enum of the allowed names) rejects them at load time.
    """
    good, bad = [], []
    for n in names if isinstance(names, list) else []:
        f = facts_for(str(n))
        (good if f is not None and f.name in allowed else bad).append(f.name if f is not None else str(n))
    if bad:
        game.log.add(f"{key}: {', '.join(bad)} cannot be in the {pile} pile and {'is' if len(bad) == 1 else 'are'} "
                     f"left out (it holds only {', '.join(sorted(allowed))})", SPECIAL_SETUP)
    if not good:
        return
    build_pile(game, pile, good)
    game.log.add(f"The {pile} pile is, from the top: {', '.join(good)} (only the top card is visible)",
                 SPECIAL_SETUP)


def order_schema(allowed: tuple[str, ...]) -> dict:
    """The JSON Schema of a pile order: 1 to len(allowed)*10 names, each one of ``allowed``."""
    return {"type": "array", "minItems": 1, "maxItems": 60, "items": {"enum": list(allowed)}}


def top_name(game: Game, pile: str) -> str | None:
    cards = game.supply.get(pile)
    return cards[-1].name if cards else None
