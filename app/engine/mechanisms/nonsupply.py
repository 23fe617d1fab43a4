"""Piles outside the Supply (Spoils, Madman, Mercenary): gained from, returned to, never bought.

Complete Rules § I Special setup (Dark Ages): "If the following underlined cards
are in the game, include these piles outside the Supply: Hermit: Include Madman
(10 cards). Urchin: Include Mercenary (10 cards). Bandit Camp, Marauder or
Pillage: Include Spoils (15 cards)." Cards outside the Supply can't be bought,
and an empty one does not count towards the game end (§ II Game end counts
Supply piles only), which is why they live in ``Game.non_supply``, not in
``Game.supply``.

A card "returns to its pile" (Spoils, Madman) only if it is where the ability
expects it (the lose-track rule § III; Madman 3, Spoils 1). Exchanging (§ IV) a
card for one of these (Hermit 2022) is not gaining it.
"""
from __future__ import annotations

from app.engine.core import activities as act
from app.engine.core import narrate
from app.engine.core.state import Card, Game, Player, Ref
from app.engine.mechanisms import piles
from app.engine.scenario.extensions import expect_key, setup_key

SPECIAL_SETUP = narrate.SPECIAL_SETUP
EXCHANGING = narrate.EXCHANGING

# the size of each pile when its card is in the game (Special setup § I)
PILE_SIZES = {"Spoils": 15, "Madman": 10, "Mercenary": 10}


def where(card: Card) -> str:
    """Where a card is, in a player's words (log lines never show internal zone names)."""
    return narrate.where(card)


def include(game: Game, name: str, count: int | None = None) -> None:
    """Put the pile of ``name`` beside the Supply (once, however many cards ask for it)."""
    if name in game.non_supply and count is None:
        return
    n = PILE_SIZES[name] if count is None else count
    game.non_supply[name] = [game.new_card(name, None, "non_supply") for _ in range(n)]


def setup_for(*names: str):
    """A card's ``setup`` hook that includes these non-Supply piles (Bandit Camp -> Spoils)."""
    def setup(game: Game) -> None:
        for n in names:
            include(game, n)
    return setup


def gain_from(game: Game, p: Player, name: str, to: str = "discard", cite: dict | None = None) -> Card | None:
    """Gain the top card of a pile outside the Supply; nothing happens if it is empty (do as much as you can)."""
    pile = game.non_supply.get(name)
    if not pile:
        game.log.add(f"{p.name} cannot gain {name}: its pile is empty" if pile is not None
                     else f"{p.name} cannot gain {name}: there is no {name} pile in this game",
                     narrate.DO_AS_MUCH, *([cite] if cite else []))
        return None
    return act.gain(game, p, pile[-1], to, cite)


def return_to_pile(game: Game, p: Player, card: Card, expected: Ref | None, cite: dict | None = None) -> bool:
    """"Return this to the X pile": only if the ability has not lost track of it (Madman 3, Spoils 1)."""
    if expected is None or not expected.valid():
        game.log.add(f"{card.name} is no longer where it was played (it is {where(card)}), so it cannot be "
                     "returned to its pile", narrate.LOSE_TRACK, *([cite] if cite else []))
        return False
    home = card.pile or card.name
    game.non_supply.setdefault(home, [])
    game.move(card, "non_supply")
    game.log.add(f"{p.name} returns {card.name} to the {home} pile", *([cite] if cite else []))
    return True


def exchange_for(game: Game, p: Player, card: Card, expected: Ref, for_name: str, cite: dict | None = None) -> bool:
    """Exchange a card for one from a non-Supply pile (Hermit 2022 -> Madman): return it to its pile, take the
    other to the discard pile; neither is gained or trashed (EXCHANGING § IV)."""
    if not expected.valid():
        game.log.add(f"{card.name} is no longer in play (it is {where(card)}), so it cannot be exchanged",
                     narrate.LOSE_TRACK, *([cite] if cite else []))
        return False
    why = piles.why_not_exchanged(game, card, for_name)
    if why is not None:
        game.log.add(f"{card.name} cannot be exchanged: {why}", EXCHANGING, *([cite] if cite else []))
        return False
    piles.exchange(game, p, card, for_name)
    game.log.add(f"{p.name} exchanges {card.name} for {for_name}: {card.name} goes back to its pile, {for_name} "
                 "goes to their discard pile (neither is gained or trashed)", EXCHANGING, *([cite] if cite else []))
    return True


_PILES = {"type": "object", "propertyNames": {"enum": sorted(PILE_SIZES)},
          "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 60}}


@setup_key("non_supply_piles", scope="game", schema=_PILES,
           doc="Sizes of the piles outside the Supply (Spoils, Madman, Mercenary); by default a card that uses "
               "one brings it (Special setup § I)",
           example="non_supply_piles: {Spoils: 0}")
def _setup_piles(game: Game, value: dict) -> None:
    # unknown names are reported in the log, not raised: see mixed_piles.ordered (the schema rejects them)
    for name, n in (value or {}).items() if isinstance(value, dict) else []:
        if name not in PILE_SIZES or not isinstance(n, int) or not 0 <= n <= 60:
            game.log.add(f"non_supply_piles: {name}: {n!r} is left out (expected one of {', '.join(PILE_SIZES)} "
                         "with a size from 0 to 60)", SPECIAL_SETUP)
            continue
        include(game, name, n)


@expect_key("non_supply_piles", scope="game", schema=_PILES,
            doc="How many cards are left in piles outside the Supply", example="non_supply_piles: {Spoils: 13}")
def _read_piles(game: Game) -> dict:
    return {n: len(p) for n, p in game.non_supply.items() if n in PILE_SIZES}
