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
from typing import Callable

from app.corpus.card_facts import load_facts
from app.engine.core import narrate
from app.engine.core.state import Game
from app.engine.scenario.extensions import expect_key, setup_key

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


# ------------------------------------------------------------------ the scenario format, one way for both decks
def names_schema(kind: str) -> dict:
    """The names a scenario may give for a deck: the cards of that type in the card facts (not its pile card)."""
    names = sorted(f.name for f in load_facts().values() if kind in f.types and f.purpose != "Kingdom Pile"
                   and f.name not in ("Boons", "Hexes"))
    return {"type": "array", "maxItems": len(names), "uniqueItems": True, "items": {"enum": names}}


def scenario_keys(key: str, plural: str, kind: str, the_deck: Callable[[Game], SharedDeck], examples: tuple[str, ...],
                  doc: str = "", reorder: Callable[[Game, Callable[[], None]], None] | None = None) -> None:
    """Register ``plural`` (setup: these cards on top of the deck, in order; expect: the whole deck, top first)
    and ``plural_discard`` (expect: its discard pile, any order). ``reorder(game, put)`` wraps the reordering
    when a card's setup moved cards out of the deck (Druid's three set-aside Boons)."""
    schema = names_schema(kind)

    def setup(game: Game, names: list[str]) -> None:
        def put() -> None:
            the_deck(game).put_on_top(list(names or []))
        reorder(game, put) if reorder is not None else put()
        game.log.add(f"The {plural.capitalize()} deck is set up in the order the scenario gives", narrate.SPECIAL_SETUP)

    def read_deck(game: Game) -> list[str]:
        return list(the_deck(game).cards) if has_deck(game, key) else []

    def read_discard(game: Game) -> list[str]:
        return AnyOrder(the_deck(game).discard if has_deck(game, key) else [])

    setup_key(plural, scope="game", schema=schema,
              doc=f"The {plural.capitalize()} deck's top cards, top first (the others stay shuffled below them){doc}",
              example=examples[0])(setup)
    expect_key(plural, scope="game", schema=schema, doc=f"The {plural.capitalize()} deck, top first (every card in it)",
               example=examples[1])(read_deck)
    expect_key(f"{plural}_discard", scope="game", schema=schema,
               doc=f"The {plural.capitalize()} discard pile (any order)", example=examples[2])(read_discard)
