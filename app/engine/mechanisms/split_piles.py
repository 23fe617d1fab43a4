"""Split piles and the Castles pile: Supply piles of differently named cards in a fixed order.

Why a module of its own: Empires has five split piles and the Castles pile (later sets bring
more split piles), and they share one setup rule and one buying rule (Complete Rules § I
Special setup; the piles' own setup text in the card facts):

* A split pile "starts the game with 5 copies of <top card> on top, then 5 copies of
  <bottom card>. Only the top card can be gained or bought." (Settlers/Bustling Village,
  Catapult/Rocks, Encampment/Plunder, Gladiator/Fortune, Patrician/Emporium.)
* Castles: "Sort the Castle pile by cost, putting the more expensive Castles on the
  bottom. For a 2-player game, use only one of each Castle." With 3 or more players the
  pile has the card facts' quantity of each (12 in all).

Each pile is one Supply pile under its own name (``supply: {Settlers/Bustling Village: 10}``);
its cards remember it (``Card.pile``, mixed_piles.py), so only the top card is bought or
gained, the pile is empty (for the game end, Tower) when both halves are gone, and a card
returned to it (Encampment) goes back on top. A player may buy it by the top card's name
(``buy: Settlers``) or the pile's. A scenario states a different order with ``pile_order``
(top card first), e.g. a split pile whose top half is gone.
"""
from __future__ import annotations

from app.corpus.card_facts import facts_for
from app.engine.core import narrate
from app.engine.core.registry import CardDef, register
from app.engine.core.state import Game
from app.engine.mechanisms import mixed_piles, piles
from app.engine.scenario.extensions import setup_key

SPECIAL_SETUP = narrate.SPECIAL_SETUP
SPLIT_PILES = narrate.sec("Split piles")

SPLIT = {
    "Settlers/Bustling Village": ("Settlers", "Bustling Village"),
    "Catapult/Rocks": ("Catapult", "Rocks"),
    "Encampment/Plunder": ("Encampment", "Plunder"),
    "Gladiator/Fortune": ("Gladiator", "Fortune"),
    "Patrician/Emporium": ("Patrician", "Emporium"),
}
CASTLES = ("Humble Castle", "Crumbling Castle", "Small Castle", "Haunted Castle", "Opulent Castle",
           "Sprawling Castle", "Grand Castle", "King's Castle")       # cheapest first: the pile's top first


def pile_of(name: str) -> str | None:
    """The split pile or Castles pile a card belongs to, if any."""
    for pile, halves in SPLIT.items():
        if name in halves:
            return pile
    return "Castles" if name in CASTLES else None


def _belong(game: Game, pile: str, names: tuple[str, ...]) -> None:
    """Cards of the pile's names already on the table belong to the pile ("The cards belong to the pile they
    start in", SPLIT PILES § IV): returned, they go back to it."""
    for c in [c for p in game.players for c in p.all_cards()] + game.trash:
        if c.name in names:
            c.pile = pile


def _split_setup(pile: str):
    top, bottom = SPLIT[pile]

    def setup(game: Game) -> None:
        """Setup: 5 copies of the top card on 5 of the bottom card; only the top card can be bought or gained."""
        count = len(game.supply.get(pile, []))
        upper = (count + 1) // 2
        mixed_piles.build_pile(game, pile, [top] * upper + [bottom] * (count - upper))
        _belong(game, pile, (top, bottom))
        game.log.add(f"The {pile} pile: {upper} {top} on top of {count - upper} {bottom} (only the top card can be "
                     "bought or gained)", SPECIAL_SETUP, SPLIT_PILES)
    return setup


def _castles_setup(game: Game) -> None:
    """Setup: sorted by cost, cheapest on top; one of each Castle with 2 players, 12 Castles with more."""
    count = len(game.supply.get("Castles", []))
    each = [(n, 1 if len(game.players) <= 2 else (facts_for(n).quantity or 1)) for n in CASTLES]
    names = [n for n, k in each for _ in range(k)][:count]
    mixed_piles.build_pile(game, "Castles", names)
    _belong(game, "Castles", CASTLES)
    game.log.add(f"The Castles pile, sorted by cost with the cheapest on top: {len(names)} Castles"
                 f"{' (one of each with 2 players)' if len(game.players) <= 2 else ''}", SPECIAL_SETUP, SPLIT_PILES)


for _pile in SPLIT:
    register(CardDef(_pile, setup=_split_setup(_pile)))
    piles.belongs_to(SPLIT[_pile], _pile)        # which Kingdom pile a Catapult is from (the sandbox's table)
register(CardDef("Castles", setup=_castles_setup))
piles.belongs_to(CASTLES, "Castles")


_NAMES = sorted({n for halves in SPLIT.values() for n in halves} | set(CASTLES))


@setup_key("pile_order", scope="game",
           schema={"type": "object", "propertyNames": {"enum": sorted(SPLIT) + ["Castles"]},
                   "additionalProperties": {"type": "array", "maxItems": 60, "items": {"enum": _NAMES}}},
           doc="The cards of a split pile or the Castles pile, top card first (instead of the setup order); "
               "[] for an empty pile",
           example="pile_order: {Settlers/Bustling Village: [Settlers, Bustling Village, Bustling Village]}")
def _pile_order(game: Game, value: dict) -> None:
    for pile, names in value.items():
        allowed = set(SPLIT.get(pile, ())) or set(CASTLES)
        if not names:
            game.supply[pile] = []
            game.log.add(f"The {pile} pile is empty", SPECIAL_SETUP)
            continue
        mixed_piles.ordered(game, pile, names, allowed, "pile_order")
