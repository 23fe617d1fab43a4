"""The Boons deck and the Hexes deck: a shuffled deck beside the Supply that every player draws from.

BOONS AND HEXES § IV: "Boons and Hexes are drawn from their own deck and discarded to their
own discard pile. If a Boon/Hex is needed and the deck is empty, shuffle the discard pile
into a new deck. Players may not look through these discard piles." They are not cards of
any player and never in play, so they live beside the game's zones, as names. Special setup
§ I shuffles each deck once, with the scenario's seed; a scenario may state the order of the
top of a deck (``boons:`` / ``hexes:``, registered by boons.py and hexes.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from app.engine.core import narrate
from app.engine.core.state import Game

BOONS_AND_HEXES = narrate.sec("Boons and Hexes", chapter="IV")


@dataclass
class SharedDeck:
    kind: str                                   # "Boon" or "Hex": in log lines
    cards: list[str] = field(default_factory=list)      # the deck, top first
    discard: list[str] = field(default_factory=list)    # its discard pile, last = top

    def take(self, game: Game) -> str | None:
        """The top card, shuffling the discard pile into a new deck first when the deck is empty."""
        if not self.cards and self.discard:
            self.cards = list(self.discard)
            self.discard.clear()
            game.rng.shuffle(self.cards)
            game.log.add(f"The {self.kind} deck is empty: its discard pile is shuffled into a new deck",
                         BOONS_AND_HEXES)
        return self.cards.pop(0) if self.cards else None

    def put_on_top(self, names: list[str]) -> list[str]:
        """The named cards go on top in this order (the rest keep theirs below); names not in the deck are returned."""
        missing = [n for n in names if n not in self.cards and n not in self.discard]
        wanted = [n for n in names if n not in missing]
        rest = [n for n in self.cards if n not in wanted]
        self.discard = [n for n in self.discard if n not in wanted]
        self.cards = wanted + rest
        return missing


def deck(game: Game, key: str, kind: str, names: list[str]) -> SharedDeck:
    """This game's deck of ``names`` (made and shuffled with the game's seed the first time it is needed)."""
    d = game.__dict__.get(key)
    if d is None:
        cards = sorted(names)
        game.rng.shuffle(cards)
        d = game.__dict__[key] = SharedDeck(kind, cards)
    return d


def has_deck(game: Game, key: str) -> bool:
    return game.__dict__.get(key) is not None


class AnyOrder(list):
    """A list an expectation compares in any order (a discard pile of Boons, a player's States)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, list) and sorted(self) == sorted(other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment]
