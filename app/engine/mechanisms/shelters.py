"""Shelters: Hovel, Necropolis and Overgrown Estate instead of each player's 3 starting Estates.

Complete Rules § I Special setup (Dark Ages): "Determine randomly whether to play
with Shelter cards, based on the proportion of cards from Dark Ages among the 10
random Kingdom cards. This can be done by checking whether one of the Randomizer
cards is from Dark Ages, e.g. the last card drawn. (It should not be the same card
you check for Colonies.) If Shelters are used, each player starts with 3
Shelters ... instead of the 3 Estates. (Don't include those Estates in the
game.) Shelter cards don't belong to any pile."

So the Estate Supply pile keeps its size (8 or 12); only the players' own 3
Estates are left out. A scenario either lists Shelters in the players' zones, or
says ``shelters: true`` to turn the first 3 Estates each player starts with into
the 3 Shelters.
"""
from __future__ import annotations

from app.engine.core import narrate
from app.engine.core.state import Game
from app.engine.scenario.extensions import setup_key

SHELTERS = ("Hovel", "Necropolis", "Overgrown Estate")
SPECIAL_SETUP = narrate.SPECIAL_SETUP


def use_shelters(kingdom_in_draw_order: list[str]) -> bool:
    """Shelters are used when the last Randomizer card drawn is from Dark Ages (§ I's suggested method)."""
    from app.corpus.card_facts import facts_for
    if not kingdom_in_draw_order:
        return False
    f = facts_for(kingdom_in_draw_order[-1])
    return f is not None and f.set.startswith("Dark Ages")


def starting_cards(shelters: bool) -> list[str]:
    """A player's starting deck (Basic setup § I): 7 Coppers and 3 Estates, or 3 Shelters instead of the Estates."""
    return ["Copper"] * 7 + (list(SHELTERS) if shelters else ["Estate"] * 3)


@setup_key("shelters", scope="game", schema={"type": "boolean"},
           doc="Play with Shelters: each player's first 3 Estates (hand, then deck, then discard) become a Hovel, "
               "a Necropolis and an Overgrown Estate; the Estate Supply pile is unchanged",
           example="shelters: true")
def _shelters(game: Game, on: bool) -> None:
    if not on:
        return
    for p in game.players:
        todo = list(SHELTERS)
        for zone in ("hand", "deck", "discard"):
            cards = p.zone(zone)
            for i, c in enumerate(cards):
                if todo and c.name == "Estate":
                    new = game.new_card(todo.pop(0), p.index, zone)
                    cards[i] = new
        if todo:
            game.log.add(f"{p.name} has fewer than 3 Estates to replace; {', '.join(todo)} are not used",
                         SPECIAL_SETUP)
    game.log.add("Shelters are used: each player's 3 starting Estates are a Hovel, a Necropolis and an "
                 "Overgrown Estate instead (the Estate pile keeps its size)", SPECIAL_SETUP)
