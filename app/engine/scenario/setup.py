"""Supply pile sizes for a given number of players: BASIC SETUP and SPECIAL SETUP § I.

The sandbox starts a table from these, so a three-player game has the Curses
and Provinces a real three-player game would have. Scenarios still state the
piles that matter to their ruling explicitly.
"""
from __future__ import annotations

from app.corpus.card_facts import facts_for

STARTING_COPPERS = 7          # "Each player takes 7 Coppers and 3 Estates" (Basic setup)


def victory_pile(players: int) -> int:
    """12 cards; "If playing with 2 players: Use 8 cards instead of 12 in all Victory piles"."""
    return 8 if players <= 2 else 12


def supply_sizes(players: int, kingdom: list[str], colonies: bool = False) -> dict[str, int]:
    """Basic setup § I: the basic piles, then 10 of each Kingdom card (12 or 8 of a Victory card).

    - Copper: 60 minus the players' starting Coppers; Silver 40; Gold 30.
    - Estates, Duchies, Provinces: 12 (8 with 2 players); Provinces 15 / 18 with 5 / 6 players
      ("Use 3 more Provinces per player").
    - Curses: 10 in a 2-player game, another 10 for each additional player.
    - With Colonies (Special setup): 12 Platinum and 12 Colonies (8 Colonies with 2 players).
    """
    vp = victory_pile(players)
    sizes = {
        "Copper": 60 - STARTING_COPPERS * players,
        "Silver": 40,
        "Gold": 30,
        "Estate": vp,
        "Duchy": vp,
        "Province": vp if players <= 4 else 3 * players,
        "Curse": 10 * max(players - 1, 1),
    }
    if colonies:
        sizes["Platinum"] = 12
        sizes["Colony"] = vp
    for name in kingdom:
        facts = facts_for(name)
        # a pile of more than 10 by its own setup rule keeps it ("If Rats is in the Supply, use all 20 cards")
        big = facts.quantity if facts and facts.quantity and facts.quantity > 10 else 10
        sizes.setdefault(name, vp if facts and facts.is_type("Victory") else big)
    if any((f := facts_for(n)) is not None and f.is_type("Looter") for n in kingdom):
        sizes.setdefault("Ruins", sizes["Curse"])    # "the same number of Ruins as Curses" (Special setup § I)
    return sizes
