"""The Ruins pile: five different Ruins shuffled into one Supply pile, only the top card visible.

Complete Rules § I Special setup (Dark Ages): "If any Kingdom card has the type
Looter, include a Ruins pile in the Supply. Shuffle the 50 Ruins cards, and
from those draw and include the same number of Ruins as Curses." Gaining "a
Ruins" gains the top card of that pile, whatever it is; as the Ruins differ,
players gain them in turn order even when they are not running out (Cultist 1,
Marauder 1).

A scenario's ``supply: {Ruins: N}`` makes a pile of N shuffled Ruins (seeded);
the setup key ``ruins:`` states the pile, top card first.
"""
from __future__ import annotations

from app.engine.core.state import Game
from app.engine.mechanisms import mixed_piles, piles
from app.engine.scenario.extensions import setup_key

PILE = "Ruins"
KINDS = ("Abandoned Mine", "Ruined Library", "Ruined Market", "Ruined Village", "Survivors")
EACH = 10      # "Dark Ages contains 50 Ruins" (§ I Components): 10 of each
piles.belongs_to(KINDS, PILE)


def setup(game: Game) -> None:
    """The Ruins pile of the size the scenario (or the sandbox) asked for, drawn from the 50 shuffled Ruins."""
    count = len(game.supply.get(PILE, []))
    mixed_piles.shuffled(game, PILE, [k for k in KINDS for _ in range(EACH)], min(count, EACH * len(KINDS)))


def pile_size(curses: int) -> int:
    """"Draw and include the same number of Ruins as Curses" (§ I)."""
    return min(curses, EACH * len(KINDS))


def is_looter_game(kingdom: list[str]) -> bool:
    """Whether a Kingdom needs the Ruins pile: any Kingdom card of type Looter (§ I)."""
    from app.corpus.card_facts import facts_for
    return any((f := facts_for(n)) is not None and f.is_type("Looter") for n in kingdom)


@setup_key("ruins", scope="game", schema=mixed_piles.order_schema(KINDS),
           doc="The Ruins pile, top card first (instead of a shuffled one): only its top card can be gained",
           example="ruins: [Survivors, Ruined Village, Abandoned Mine]")
def _ruins_order(game: Game, names: list) -> None:
    mixed_piles.ordered(game, PILE, names, set(KINDS), "ruins")
