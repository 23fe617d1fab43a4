"""Travellers: exchanging a card discarded from play for its upgrade, and the upgrade piles outside the Supply.

Why a module of its own: the Page and Peasant lines (Complete Rules SPECIAL SETUP:
ADVENTURES § I; EXCHANGING § IV; TRAVELLER/TRAVELLER UPGRADE § VI; Adventures
rulebook, "Travellers") share one rule that only the arrow under the card text shows.

* Setup: with Page in the Supply, the Treasure Hunter, Warrior, Hero and Champion piles
  are set out beside it; with Peasant, Soldier, Fugitive, Disciple and Teacher. They are
  not in the Supply: they cannot be bought or gained from the Supply, and they do not
  count for the game end (``Game.non_supply``, a zone of its own).
* "When you discard this from play, you may exchange it for X": a when-discard ability
  that only triggers when the card is discarded *from play* (usually in Clean-up).
  Exchanging returns the card to its pile and takes X from its pile to the discard pile;
  "You can only exchange a card if you're able to both return the card and take the other
  card" and exchanging "is not considered gaining" (EXCHANGING § IV): no when-gain.
* "If a Traveller is moved by another when-discard ability ... it can't be exchanged"
  (EXCHANGING § IV): the card must still be in its owner's discard pile.
"""
from __future__ import annotations

from app.engine.core import narrate
from app.engine.core.decisions import Question
from app.engine.core.errors import ScenarioError
from app.engine.core.state import Card, Game, card_facts
from app.engine.core.triggers import Event, from_play, only_if
from app.engine.mechanisms import piles
from app.engine.scenario.extensions import expect_key, setup_key

EXCHANGING = narrate.EXCHANGING
TRAVELLER = narrate.sec("Traveller/Traveller upgrade")
SETUP = narrate.SPECIAL_SETUP

# Each Traveller and what it is exchanged for (the arrow under its text).
UPGRADE = {"Page": "Treasure Hunter", "Treasure Hunter": "Warrior", "Warrior": "Hero", "Hero": "Champion",
           "Peasant": "Soldier", "Soldier": "Fugitive", "Fugitive": "Disciple", "Disciple": "Teacher"}


# Mechanisms whose cards act as another card when discarded from play: ``f(game, card) -> name | None``.
# A pre-2019 Band of Misfits played as Page (play_as.py; Band of Misfits pre-2019 18) and an Estate with
# the pre-2019 Estate token on Page (estate_token_pre_2019.py; Your Estate token pre-2019 14) may be
# exchanged as that Traveller, and go back to their own pile.
ACTING_AS: list = []


def traveller_name(game: Game, card: Card) -> str | None:
    """The Traveller this card is for exchanging: its own name, or the card it acts as (ACTING_AS)."""
    if card.name in UPGRADE:
        return card.name
    for acting in ACTING_AS:
        name = acting(game, card)
        if name in UPGRADE:
            return name
    return None


def line_of(start: str) -> list[str]:
    """The upgrades of a Kingdom Traveller, in order (Page -> Treasure Hunter, Warrior, Hero, Champion)."""
    out, name = [], start
    while name in UPGRADE:
        name = UPGRADE[name]
        out.append(name)
    return out


def set_up_line(start: str):
    """A card ``setup`` hook: put the upgrade piles of ``start``'s line beside the Supply (5 of each)."""
    def setup(game: Game) -> None:
        names = [n for n in line_of(start) if n not in game.non_supply]
        for n in names:
            size = card_facts(n).quantity or 5
            game.non_supply[n] = [game.new_card(n, None, "non_supply") for _ in range(size)]
        if names:
            game.log.add(f"{start} is in the Supply: the {', '.join(names)} piles are set out beside it (not in "
                         "the Supply)", SETUP, TRAVELLER)
    return setup


def exchange_when_discarded(game: Game, ev: Event, card: Card) -> None:
    """When you discard this from play, you may exchange it for its upgrade (that is not gaining it).

    Travellers discarded from play together (Clean-up) are exchanged in the order their owner chooses: "If
    multiple cards do something when discarded from play, the player picks the order; for example, with no
    Soldiers left in the pile, a player with Peasant and Soldier in play could first exchange Soldier for
    Fugitive, then exchange Peasant for that Soldier" (Adventures rulebook, Travellers). The core asks that
    order, as for any abilities triggered by cards discarded at once (``triggers.fire_together``).
    """
    if ev.data.get("from") == "in_play":
        _exchange_one(game, ev.player, card)


def _exchange_one(game: Game, p, card: Card) -> None:
    as_name = traveller_name(game, card)
    if as_name is None:
        return
    new = UPGRADE[as_name]
    cite = {"card": as_name}
    if card.zone != "discard" or card.owner != p.index:
        game.log.add(f"{card.name} was moved from the discard pile (it is {narrate.where(card, game)}), so it cannot be "
                     f"exchanged for {new}", EXCHANGING, narrate.LOSE_TRACK)
        return
    why = piles.why_not_exchanged(game, card, new)
    if why is not None:
        game.log.add(f"{p.name} cannot exchange {card.name}: {why} (both moves must be possible)", EXCHANGING, cite)
        return
    if not game.decider.ask(Question(p.name, f"exchange {card.name} for {new}?", "yesno", [])):
        game.log.add(f"{p.name} keeps {card.name}", cite)
        return
    piles.exchange(game, p, card, new)
    acting = f" (as {as_name})" if as_name != card.name else ""
    game.log.add(f"{p.name} exchanges {card.name}{acting} for {new}: {card.name} goes back to its own pile and {new} "
                 "goes to their discard pile (this is not gaining it)", EXCHANGING, TRAVELLER, cite)


def traveller_hooks() -> dict:
    """``CardDef.hooks`` of a Traveller."""
    return {"when_discard": only_if(from_play, exchange_when_discarded)}


# ------------------------------------------------------------------ scenario setup and expectations
_PILES = {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 60}}


@setup_key("non_supply", scope="game", schema=_PILES,
           doc="Sizes of the piles outside the Supply (Traveller upgrades), after the usual special setup",
           example="non_supply: {Treasure Hunter: 0}")
def _setup_non_supply(game: Game, value: dict) -> None:
    if not isinstance(value, dict):
        raise ScenarioError("scenario", "non_supply: expected a mapping of pile name to size")
    for name, n in value.items():
        real = next((k for k in game.non_supply if k.lower() == str(name).strip().lower()), None)
        if real is None:
            raise ScenarioError("scenario", f"non_supply: no {name!r} pile outside the Supply in this game "
                                f"({', '.join(game.non_supply) or 'none'}; a Traveller in the Supply sets them up)")
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 60:
            raise ScenarioError("scenario", f"non_supply: {real}: expected a pile size from 0 to 60, found {n!r}")
        pile = game.non_supply[real]
        del pile[n:]
        while len(pile) < n:
            pile.append(game.new_card(real, None, "non_supply"))


@expect_key("non_supply", scope="game", schema=_PILES,
            doc="How many cards are left in each pile outside the Supply (list every one of them)",
            example="non_supply: {Treasure Hunter: 4, Warrior: 5, Hero: 5, Champion: 5}")
def _read_non_supply(game: Game) -> dict:
    return {n: len(p) for n, p in game.non_supply.items()}
