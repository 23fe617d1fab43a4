"""Young Witch's Bane pile: an 11th Kingdom pile costing $2 or $3 whose cards block Young Witch.

The rules implemented:

* § I Special setup (Cornucopia): "If Young Witch is in the game: Choose
  (randomly) an extra Kingdom card pile costing $2 or $3 and add it to the
  Supply. Cards from that pile are Bane cards." The Bane is "an 11th Kingdom
  card and so is in the Supply" (§ II).
* Young Witch 4: "Bane" is not a type; a card is a Bane because of the pile it
  comes from, i.e. its name (a split pile would make both names Banes).

A scenario names the Bane with the ``bane`` setup key; the pile must be in the
``supply`` and cost $2 or $3 (no Potion or Debt). Without the key no pile is
the Bane, and no one can reveal one.
"""
from __future__ import annotations

from app.engine.core import narrate
from app.engine.core.errors import ScenarioError
from app.engine.core.state import Card, Game, card_facts
from app.engine.scenario.extensions import setup_key

SETUP = narrate.sec("Special setup")


def bane(game: Game) -> str | None:
    return game.__dict__.get("bane")


def is_bane(game: Game, card: Card) -> bool:
    return card.name == bane(game)


@setup_key("bane", scope="game", schema={"type": "string", "maxLength": 100},
           doc="the Kingdom pile whose cards are Banes for Young Witch (in the supply, costing $2 or $3)",
           example="bane: Moat")
def _setup_bane(game: Game, value: object) -> None:
    real = next((n for n in game.supply if isinstance(value, str) and n.lower() == value.strip().lower()), None)
    if real is None:
        raise ScenarioError("scenario setup", f"bane: {value!r} is not a pile in the supply; the Bane is an extra "
                            "Kingdom pile in the Supply (list it under supply)")
    f = card_facts(real)
    if f.purpose != "Kingdom Pile" or f.cost_coins not in (2, 3) or f.cost_potion or f.cost_debt:
        raise ScenarioError("scenario setup", f"bane: {real} can't be the Bane: it must be a Kingdom pile costing "
                            "$2 or $3 (Special setup, § I)")
    game.bane = real
    game.log.add(f"{real} is the Bane pile (Young Witch): its cards are Banes", SETUP,
                 {"card": "Young Witch"})

