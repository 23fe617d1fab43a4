"""Heirlooms (Nocturne): each player starts with the Heirloom named on a Kingdom card instead of a Copper.

Special setup § I: "Some Kingdom cards have a banner that says "Heirloom:" followed by the name
of an Heirloom card. For each such Kingdom card used in the game, each player starts with the
named Heirloom instead of one of their Coppers. Heirlooms don't belong to any pile" (so they
can't be exchanged or returned to a pile: Changeling 7). The banner is read from the card
facts' text ("Heirloom: Haunted Mirror").

A scenario states its players' cards, so the replacement is asked for: ``heirlooms: true``
replaces, for each Kingdom card in the Supply with an Heirloom, each player's first Copper
(hand, then deck, then discard) with that Heirloom. Heirlooms may also simply be listed in
a player's zones.
"""
from __future__ import annotations

import re

from app.engine.core import narrate
from app.engine.core.state import Game
from app.engine.scenario.extensions import setup_key

_BANNER = re.compile(r"Heirloom:\s*(?P<name>[^\n/]+?)\s*$", re.M)


def heirloom_of(name: str) -> str | None:
    """The Heirloom a Kingdom card's banner names, or None."""
    from app.corpus.card_facts import facts_for

    f = facts_for(name)
    m = _BANNER.search(f.text) if f is not None and f.text else None
    return m["name"] if m else None


def in_game(game: Game) -> list[str]:
    """The Heirlooms of the Kingdom cards in this game's Supply, in Supply order."""
    return [h for name in game.supply if (h := heirloom_of(name)) is not None]


@setup_key("heirlooms", scope="game", schema={"type": "boolean"},
           doc="Each player starts with the Heirloom of each Kingdom card in the Supply that names one, instead of "
               "their first Copper (hand, then deck, then discard) (Special setup § I)",
           example="heirlooms: true")
def _setup(game: Game, value: bool) -> None:
    if not value:
        return
    for heirloom in in_game(game):
        for p in game.players:
            copper = next((c for zone in ("hand", "deck", "discard") for c in p.zone(zone) if c.name == "Copper"), None)
            if copper is None:
                game.log.add(f"{p.name} has no Copper to replace with {heirloom}", narrate.SPECIAL_SETUP)
                continue
            copper.name = heirloom       # the same place in the same zone: the starting card is the Heirloom
            copper.pile = None
        game.log.add(f"Each player starts with {heirloom} instead of a Copper", narrate.SPECIAL_SETUP)
