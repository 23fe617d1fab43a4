"""Which pile a card belongs to, returning it there, and exchanging (Piles § II; Exchanging § IV).

Why a module of its own: Trader (2020), Hermit (2022) and the Travellers exchange cards, and
later sets return or exchange them too (Changeling, Encampment, Swap, Way of the Butterfly);
each must agree on which cards have a pile to go back to.

The rules implemented:

* "A pile is a stack of cards on the table where certain cards belong. This includes Kingdom
  card piles, other Supply piles, and non-Supply piles" (Piles § II). Non-Kingdom cards that
  form their own pile outside the Supply: Prizes, Spoils, Madman, Mercenary, the Traveller
  upgrades, ... "Others don't belong to any pile": Shelters, Heirlooms, Zombies (Non-Kingdom
  cards § I), and cards from the Black Market deck (Exchanging § IV: "You cannot return a card
  to the Black Market deck").
* "You may exchange a non-Kingdom card, as long as it belongs to a pile. You may not exchange
  cards that don't belong to a pile" (Trader 7; Changeling 7).
* A mixed pile's cards "belong to the pile they start in" and a returned card "will go on top
  as in normal piles" (Split piles § IV): a Survivors goes back onto the Ruins pile, a Prize to
  the Prize pile. Mechanisms of such piles register their card names in ``MIXED``.
* "You exchange a card by returning it to its pile and taking the other card ... from its pile
  and placing it in your discard pile. You can only exchange a card if you're able to both
  return the card and take the other card. Exchanging is not considered gaining a card."
"""
from __future__ import annotations

from app.engine.core.state import Card, Game, Player

# card name -> the pile of differently named cards it belongs to (Ruins, Knights, Prizes)
MIXED: dict[str, str] = {}


def belongs_to(names: tuple[str, ...] | list[str], pile: str) -> None:
    """Register that cards of these names belong to the mixed pile ``pile`` (called by its mechanism)."""
    for n in names:
        MIXED[n] = pile


def home(game: Game, card: Card) -> tuple[str, str] | None:
    """(``"supply"`` or ``"non_supply"``, pile name) of the pile ``card`` belongs to in this game, or None."""
    name = card.pile or MIXED.get(card.name) or card.name
    if name in game.supply:
        return "supply", name
    if name in game.non_supply:
        return "non_supply", name
    return None


def pile_named(game: Game, name: str) -> list[Card] | None:
    """The Supply or non-Supply pile called ``name`` (None when the game has no such pile)."""
    if name in game.supply:
        return game.supply[name]
    return game.non_supply.get(name)


def return_to_pile(game: Game, card: Card) -> bool:
    """Put ``card`` on top of the pile it belongs to; False (nothing moves) if it belongs to no pile."""
    where = home(game, card)
    if where is None:
        return False
    zone, name = where
    if name != card.name:
        card.pile = name          # a mixed pile's card: moves go to the pile's list (Game.zone_list)
    game.move(card, zone)
    return True


def why_not_exchanged(game: Game, card: Card, for_name: str) -> str | None:
    """Why ``card`` can't be exchanged for a ``for_name`` now (both moves must be possible), or None."""
    target = pile_named(game, for_name)
    if target is None:
        return f"there is no {for_name} pile in this game"
    if not target:
        return f"there is no {for_name} left"
    if home(game, card) is None:
        return f"{card.name} belongs to no pile (like Shelters and Heirlooms), so it has nowhere to go back to"
    return None


def exchange(game: Game, p: Player, card: Card, for_name: str) -> Card:
    """Return ``card`` to its pile and put the top ``for_name`` into ``p``'s discard pile (not gaining it).

    The caller checks ``why_not_exchanged`` first and narrates, in the words of its own card.
    """
    return_to_pile(game, card)
    got = pile_named(game, for_name)[-1]
    game.move(got, "discard", owner=p.index)
    return got
