"""Boons: the Boons deck, taking and receiving a Boon, Boons kept until Clean-up, Druid's set-aside Boons.

BOONS AND HEXES § IV: "When you receive a Boon/Hex, you resolve the ability, then discard the
card. If which Hex/Boon to receive is not specified, you take the top card from the
appropriate deck." "When you take a Boon, you turn over the top Boon card and keep it in
front of you until you have received the Boon." "Some Boons say to keep it until Clean-up"
(The Field's, Forest's and River's Gift): "discarded in the first Clean-up phase that
occurs. If you receive the Boon on another player's turn, it's discarded in that player's
Clean-up." Boons never belong to a player and are never in play.

Special setup § I: "If any Kingdom card has the type Fate, shuffle the 12 Boon cards into a
face-down deck. If Druid is in the game, set aside the top 3 Boons face up"; The Swamp's Gift
brings the Will-o'-Wisp pile (12 cards) outside the Supply. The set file registers each
Boon's ability (``boon``); a Fate card's ``setup`` is ``fate_setup``.

Scenario keys: ``boons: [...]`` puts these Boons on top of the deck, in order (the rest stay
shuffled below); ``expect: {boons: [...]}`` is the whole deck, top first, and
``boons_discard`` its discard pile (any order).
"""
from __future__ import annotations

from dataclasses import dataclass

from app.engine.core import narrate
from app.engine.core.effects import Ctx, Effect
from app.engine.core.state import Game, LaterAbility, Player
from app.engine.mechanisms import nonsupply
from app.engine.mechanisms.shared_decks import BOONS_AND_HEXES, SharedDeck, deck, scenario_keys

KEY = "boons_deck"


@dataclass(frozen=True)
class Boon:
    name: str
    effect: Effect
    keep: bool = False        # "(Keep this until Clean-up.)"
    coin: bool = False        # gives +$1 (Sacred Grove: the other players may not receive it)


BOONS: dict[str, Boon] = {}


def boon(name: str, effect: Effect, keep: bool = False, coin: bool = False) -> Boon:
    b = BOONS[name] = Boon(name, effect, keep, coin)
    return b


def boons_deck(game: Game) -> SharedDeck:
    return deck(game, KEY, "Boon", list(BOONS))


def fate_setup(game: Game) -> None:
    """A Fate card is in the game: the Boons deck (shuffled with the seed) and the Will-o'-Wisp pile (§ I)."""
    boons_deck(game)
    nonsupply.include(game, "Will-o'-Wisp")


def druid_setup(game: Game) -> None:
    """Druid: "Setup: Set aside the top 3 Boons face up" (the Boons deck then has 9 cards: Druid 1)."""
    fate_setup(game)
    if "druid_boons" not in game.__dict__:
        d = boons_deck(game)
        game.__dict__["druid_boons"], d.cards = d.cards[:3], d.cards[3:]


def druid_boons(game: Game) -> list[str]:
    return list(game.__dict__.get("druid_boons", []))


def take(game: Game, p: Player, cite: dict | None = None) -> str | None:
    """Turn over the top Boon and keep it in front of you until it is received."""
    name = boons_deck(game).take(game)
    if name is None:
        game.log.add("There is no Boon left to take", narrate.DO_AS_MUCH)
        return None
    game.log.add(f"{p.name} takes {name}", cite or BOONS_AND_HEXES)
    return name


def receive(game: Game, p: Player, name: str, cite: dict | None = None, discard: bool = True) -> None:
    """Resolve the Boon's ability for ``p``; then discard it, or keep it until Clean-up if it says so."""
    game.log.add(f"{p.name} receives {name}", *([cite] if cite else []), BOONS_AND_HEXES)
    BOONS[name].effect.apply(Ctx(game, p, None))
    if discard:
        finish(game, p, name)


def finish(game: Game, p: Player, name: str) -> None:
    """Done with a received Boon: to the Boons discard pile, or kept in front of ``p`` until Clean-up."""
    if BOONS[name].keep:
        kept = game.__dict__.setdefault("kept_boons", [])
        kept.append((p.index, name))
        if len(kept) == 1:
            game.later.append(LaterAbility(p.index, "start_of_cleanup", "Boons kept until Clean-up are discarded",
                                           _discard_kept, None, None, "used", [BOONS_AND_HEXES], anyone=True))
        game.log.add(f"{p.name} keeps {name} in front of them until Clean-up", BOONS_AND_HEXES)
        return
    boons_deck(game).discard.append(name)


def _discard_kept(game: Game, ev) -> None:
    kept = game.__dict__.pop("kept_boons", [])
    boons_deck(game).discard.extend(n for _, n in kept)
    game.log.add(f"{', '.join(n for _, n in kept)} kept until Clean-up {'is' if len(kept) == 1 else 'are'} "
                 "discarded to the Boons discard pile", BOONS_AND_HEXES)


def receive_next(game: Game, p: Player, cite: dict | None = None) -> str | None:
    """"Receive a Boon": take the top Boon and receive it."""
    name = take(game, p, cite)
    if name is not None:
        receive(game, p, name, cite)
    return name


def kept_by(game: Game, p: Player) -> list[str]:
    return [n for i, n in game.__dict__.get("kept_boons", []) if i == p.index]


# ------------------------------------------------------------------ the scenario format
def _around_druid(game: Game, put) -> None:
    """Druid's 3 set-aside Boons are the first 3 a scenario names: back into the deck while it is ordered."""
    d = boons_deck(game)
    druid = "druid_boons" in game.__dict__
    if druid:
        d.cards = game.__dict__.pop("druid_boons") + d.cards
    put()
    if druid:
        game.__dict__["druid_boons"], d.cards = d.cards[:3], d.cards[3:]


scenario_keys(KEY, "boons", "Boon", boons_deck,
              ("boons: [The Sea's Gift, The Field's Gift]", "boons: [The Sky's Gift]", "boons_discard: [The Sea's Gift]"),
              doc="; with Druid, its 3 set-aside Boons are the first 3 named", reorder=_around_druid)
