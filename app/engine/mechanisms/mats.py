"""Mats and tokens: per-player mats holding cards or counters, and tokens placed on Supply piles.

* A mat holding cards (Native Village, Island) is a player zone named
  ``mat:NAME`` (``Player.mats``); cards there are still the player's cards,
  so they count at game end (Island's 2 VP; § I Mats). Whether they are face
  up or down is the card's business (Native Village: face down, Island 1: up).
* A mat holding counters (Pirate Ship's Coin tokens; Prosperity's Trade Route
  token mat) is ``Player.tokens[NAME]``; a Supply-wide counter with no owner
  (the Trade Route mat) can use ``supply_counter``.
* A token on a Supply pile (Embargo tokens, Trade Route tokens) is counted in
  ``Game.pile_tokens[pile][KIND]``. A token with a rule attached ("when a
  player buys a card from that pile, they gain a Curse") is a later ability
  lasting the rest of the game, one per token, so several tokens are separate
  abilities (Embargo 7, new edition).
"""
from __future__ import annotations

from collections import Counter
from typing import Callable

from app.engine.core import activities as act
from app.engine.core import narrate
from app.engine.core.state import Card, Game, LaterAbility, Player

MATS = narrate.sec("Mats")


def mat_zone(mat: str) -> str:
    """The zone name of a card-holding mat, e.g. ``mat:Native Village``."""
    return f"mat:{mat}"


def mat_cards(p: Player, mat: str) -> list[Card]:
    return p.zone(mat_zone(mat))


def put_on_mat(game: Game, p: Player, card: Card, mat: str, cite: dict | None = None,
               face_down: bool = False) -> None:
    """Move a card onto a player's mat (it stays the player's card: it counts for scoring)."""
    game.move(card, mat_zone(mat), owner=p.index)
    what = "a card face down" if face_down else card.name
    game.log.add(f"{p.name} puts {what} on their {mat} mat", cite or MATS)


def take_all_from_mat(game: Game, p: Player, mat: str, to: str = "hand", cite: dict | None = None) -> list[Card]:
    cards = list(mat_cards(p, mat))
    for c in cards:
        game.move(c, to, owner=p.index)
    game.log.add(f"{p.name} puts all the cards from their {mat} mat into their {to}: {act.names(cards)}",
                 cite or MATS)
    return cards


# ------------------------------------------------------------------ counters on a player's mat
def tokens(p: Player, mat: str) -> int:
    return p.tokens.get(mat, 0)


def add_tokens(game: Game, p: Player, mat: str, n: int = 1, cite: dict | None = None, what: str = "token") -> int:
    p.tokens[mat] = p.tokens.get(mat, 0) + n
    game.log.add(f"{p.name} adds {n} {what}{'s' if n != 1 else ''} to their {mat} mat "
                 f"(now {p.tokens[mat]})", cite or MATS)
    return p.tokens[mat]


# ------------------------------------------------------------------ tokens on Supply piles
def pile_tokens(game: Game, pile: str, kind: str) -> int:
    return game.pile_tokens.get(pile, Counter())[kind]


def add_pile_token(game: Game, p: Player, pile: str, kind: str, cite: dict | None = None,
                   rule: tuple[str, str, Callable, Callable | None] | None = None) -> None:
    """Put a ``kind`` token on a Supply pile; ``rule`` = (trigger, label, run, condition) lasts the rest of the game.

    The token's ability triggers on any player's event, so it is ``anyone``; the player
    buying or gaining from the pile does what it says (Embargo: "gain a Curse"), so it is
    theirs to order among their own abilities (``by_actor``; Ordering several players'
    concurrent abilities, § III: "if you buy a Noble Brigand with an Embargo token ... You choose").
    """
    game.pile_tokens.setdefault(pile, Counter())[kind] += 1
    game.log.add(f"{p.name} adds an {kind} token to the {pile} pile "
                 f"(now {game.pile_tokens[pile][kind]})", cite or MATS)
    if rule is not None:
        trigger, label, run, condition = rule
        game.later.append(LaterAbility(p.index, trigger, label, run, None, condition, "game",
                                       [cite] if cite else [], anyone=True, by_actor=True))


def supply_counter(game: Game) -> Counter:
    """Shared counters not on any pile (e.g. the Trade Route mat), kept under the pile name ``''``."""
    return game.pile_tokens.setdefault("", Counter())


# ------------------------------------------------------------------ tokens on Supply piles in a scenario's setup
# kind -> adjust(game, pile, before, after): what placing ``after`` tokens where ``before`` were means
# (Embargo: one Curse rule per token added; Trade Route: tokens taken off a pile are on the Trade Route mat).
PILE_TOKEN_SETUP: dict[str, Callable[[Game, str, int, int], None]] = {}


def pile_token_setup(kind: str) -> Callable:
    """Register what setting up ``kind`` tokens on a pile brings with it (the card that adds them knows)."""
    def register(fn: Callable[[Game, str, int, int], None]) -> Callable:
        PILE_TOKEN_SETUP[kind] = fn
        return fn
    return register


def _set_up_pile_tokens(game: Game, value: dict) -> None:
    """Tokens already on Supply piles when the scenario starts, with the rules they carry."""
    for pile, kinds in value.items():
        for kind, n in kinds.items():
            before = pile_tokens(game, pile, kind)
            game.pile_tokens.setdefault(pile, Counter())[kind] = n
            if kind in PILE_TOKEN_SETUP:
                PILE_TOKEN_SETUP[kind](game, pile, before, n)
            game.log.add(f"Setup: {n} {kind} token{'s' if n != 1 else ''} on the {pile} pile", MATS)


def _register_setup_key() -> None:
    from app.engine.scenario.extensions import setup_key
    count = {"type": "integer", "minimum": 0, "maximum": 100}
    setup_key("pile_tokens", scope="game",
              schema={"type": "object", "additionalProperties": {"type": "object", "additionalProperties": count}},
              doc="tokens on Supply piles at the start, with their rules (Embargo: buying from the pile gains a "
                  "Curse; Trade Route's Coin: a token taken off a Victory pile is on the Trade Route mat)",
              example="pile_tokens: {Silver: {Embargo: 1}, Estate: {Coin: 0}}")(_set_up_pile_tokens)


_register_setup_key()
