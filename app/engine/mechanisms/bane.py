"""Young Witch's Bane pile: an 11th Kingdom pile costing $2 or $3 whose cards block Young Witch.

The rules implemented:

* § I Special setup (Cornucopia): "If Young Witch is in the game: Choose
  (randomly) an extra Kingdom card pile costing $2 or $3 and add it to the
  Supply. Cards from that pile are Bane cards." The Bane is "an 11th Kingdom
  card and so is in the Supply" (§ II).
* Young Witch 4: "Bane" is not a type; a card is a Bane because of the pile it
  comes from, i.e. its name (a split pile would make both names Banes).

A scenario names the Bane with the ``bane`` setup key: a Kingdom pile costing
$2 or $3 (no Potion or Debt), which the schema lists; a pile not under
``supply`` is added with its 10 cards. Without the key no pile is the Bane,
and no one can reveal one.
"""
from __future__ import annotations

from functools import lru_cache

from app.engine.core import narrate
from app.engine.core.errors import ScenarioError
from app.engine.core.state import Card, Game, card_facts
from app.engine.scenario.extensions import setup_key

SETUP = narrate.SPECIAL_SETUP


def bane(game: Game) -> str | None:
    return game.__dict__.get("bane")


def is_bane(game: Game, card: Card) -> bool:
    return card.name == bane(game)


@lru_cache(maxsize=1)
def candidates() -> tuple[str, ...]:
    """Every Kingdom pile costing $2 or $3 (no Potion or Debt): what may be the Bane (§ I Special setup)."""
    from app.corpus.card_facts import load_facts
    return tuple(sorted({f.name for f in load_facts().values()
                         if f.purpose == "Kingdom Pile" and f.cost_coins in (2, 3) and not f.cost_potion
                         and not f.cost_debt}))


@setup_key("bane", scope="game", schema={"enum": list(candidates())},
           doc="the Kingdom pile whose cards are Banes for Young Witch (costing $2 or $3; added to the Supply "
               "with 10 cards if the supply does not list it)",
           example="bane: Moat")
def _setup_bane(game: Game, value: object) -> None:
    names = {n.lower(): n for n in candidates()}
    real = names.get(value.strip().lower()) if isinstance(value, str) else None
    if real is None:
        raise ScenarioError("scenario setup", f"bane: {value!r} can't be the Bane: it must be a Kingdom pile costing "
                            "$2 or $3 (Special setup, § I)")
    if real not in game.supply:
        game.set_pile(real, card_facts(real).quantity or 10)
        game.log.add(f"{real} is added to the Supply as an 11th Kingdom pile", SETUP, {"card": "Young Witch"})
    game.bane = real
    game.log.add(f"{real} is the Bane pile (Young Witch): its cards are Banes", SETUP,
                 {"card": "Young Witch"})
