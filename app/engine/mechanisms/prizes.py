"""The Prize pile: five different cards outside the Supply, won with Tournament.

The rules implemented:

* § I Special setup (Cornucopia): "If Tournament is in the game: Include the 5
  different Prizes outside the Supply."
* Tournament 4: "When you gain a Prize, you gain whichever you want from the
  Prize pile. The available Prizes are always open to see."
* Prizes are not in the Supply (printed "(This is not in the Supply.)"): they
  can't be bought or gained by cards that gain from the Supply, and an empty
  Prize pile is not an empty Supply pile for the game end.

The pile lives in ``Game.non_supply['Prizes']``; its cards are in the zone
``non_supply`` with ``Card.pile`` naming the pile (as Ruins and Knights name their
Supply pile), so they move like any other card. A scenario may start with
some Prizes already won (the ``prizes`` setup key lists those still in the pile)
and check the pile with the ``prizes`` expect key.
"""
from __future__ import annotations

from app.engine.core import activities as act
from app.engine.core import narrate
from app.engine.core.decisions import Question
from app.engine.core.errors import ScenarioError
from app.engine.core.state import Card, Game, Player
from app.engine.mechanisms import piles
from app.engine.scenario.extensions import CARD_LIST, expect_key, setup_key

PRIZES = ("Bag of Gold", "Diadem", "Followers", "Princess", "Trusty Steed")
PILE = "Prizes"
piles.belongs_to(PRIZES, PILE)
SETUP = narrate.SPECIAL_SETUP
SETUP_FILE = "scenario setup"   # setup keys are applied after loading: the error names the key


def prize_pile(game: Game) -> list[Card]:
    return game.non_supply.get(PILE, [])


def set_up(game: Game, names: tuple[str, ...] | list[str] = PRIZES) -> None:
    """Put the Prizes outside the Supply, face up (§ I Special setup)."""
    game.non_supply[PILE] = [game.new_card(n, None, "non_supply", PILE) for n in names]


def tournament_setup(game: Game) -> None:
    """Tournament in the game: the 5 different Prizes go outside the Supply."""
    set_up(game)
    game.log.add(f"Tournament is in the game: the Prizes ({', '.join(PRIZES)}) are set out, outside the Supply",
                 SETUP)


def gain_prize(game: Game, p: Player, to: str = "deck", cite: dict | None = None) -> Card | None:
    """Gain whichever Prize the player wants from the Prize pile (Tournament 4)."""
    pile = prize_pile(game)
    if not pile:
        game.log.add(f"{p.name} cannot gain a Prize: the Prize pile is empty", narrate.DO_AS_MUCH,
                     *([cite] if cite else []))
        return None
    chosen = game.decider.ask(Question(p.name, "gain a Prize (from the Prize pile)", "cards", list(pile), 1, 1))
    return act.gain(game, p, chosen[0], to, cite)


class Unordered(list):
    """A list of card names that compares equal to the same names in any order (the Prize pile is not ordered)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, list) and sorted(map(str, self)) == sorted(map(str, other))

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment]


@setup_key("prizes", scope="game", schema={"type": "array", "items": {"enum": list(PRIZES)}, "maxItems": len(PRIZES),
                                          "uniqueItems": True},
           doc="the Prizes still in the Prize pile (default with Tournament: all five)",
           example="prizes: [Diadem, Followers]")
def _setup_prizes(game: Game, value: object) -> None:
    if not isinstance(value, list):
        raise ScenarioError(SETUP_FILE, f"prizes: expected a list of Prizes, found {value!r}")
    names = []
    for v in value:
        real = next((n for n in PRIZES if isinstance(v, str) and n.lower() == v.strip().lower()), None)
        if real is None or real in names:
            raise ScenarioError(SETUP_FILE, f"prizes: {v!r} is not one of the five Prizes ({', '.join(PRIZES)}) or is named twice")
        names.append(real)
    set_up(game, names)


@expect_key("prizes", scope="game", schema=CARD_LIST, doc="the Prizes left in the Prize pile (any order)",
            example="prizes: [Diadem, Princess]")
def _expect_prizes(game: Game) -> list[str]:
    return Unordered(c.name for c in prize_pile(game))
