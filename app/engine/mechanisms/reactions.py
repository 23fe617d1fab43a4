"""Non-Attack Reactions and the other "you may" abilities that answer someone's gain, discard or Attack.

Why a module of its own: Hinterlands (and later sets: Village Green, Sheepdog,
Caravan Guard...) share a handful of patterns that players get wrong, and each
card should only say which pattern it uses.

* WHEN ANOTHER PLAYER GAINS (Fool's Gold): a Reaction in hand triggers on
  someone else's gain. Abilities of several players resolve in turn order
  starting with the current player (Timing of concurrent abilities § III;
  Ordering several players' concurrent abilities § III), which the trigger
  machinery already does; ``another_gains`` only says when the card applies.
* "EACH OTHER PLAYER" ON A WHEN-GAIN (Embassy 3, Ill-Gotten Gains 5): the
  gifts go in turn order starting with the *current* player, skipping the one
  who gained -- not starting left of the gainer (``others_from_current``).
* EXCHANGING (§ IV; Trader 4, 2020): the card goes back to its pile and the
  other card comes from its pile; neither is gained, so no when-gain ability
  triggers for the Silver (Trader 6).
* WHEN-WOULD-GAIN replaced (pre-2020 Trader 14): the original gain never
  happens (no when-gain for it); another gain happens instead.
* WHEN YOU DISCARD THIS other than in Clean-up (Tunnel, Weaver, Trail):
  ``outside_cleanup`` says when they apply (When you discard this § VI).
* REACTION THAT PLAYS ITSELF (§ VI: Weaver, Trail, Guard Dog, Berserker): the
  card is played from wherever it is, using no Action, unless it was moved
  meanwhile (the lose-track rule).
"""
from __future__ import annotations

from typing import Callable

from app.engine.core import activities as act
from app.engine.core import narrate
from app.engine.core.decisions import Question
from app.engine.core.state import Card, Game, Player
from app.engine.core.triggers import Event, only_if
from app.engine.mechanisms import piles

EXCHANGING = narrate.EXCHANGING
PLAYS_ITSELF = narrate.PLAYS_ITSELF
WHEN_DISCARD_THIS = narrate.sec("When you discard this")
ORDERING = narrate.sec("Ordering several players' concurrent abilities")
NOT_YOUR_TURN = narrate.NOT_YOUR_TURN


def others_from_current(game: Game, gainer: Player) -> list[Player]:
    """Every player but ``gainer``, in turn order starting with the current player (Embassy 3)."""
    return [q for q in game.in_turn_order() if q is not gainer]


def another_gains(pred: Callable[[Card], bool]) -> Callable[[Game, Event, Player, Card], bool]:
    """``Reaction.applies`` for "when another player gains <a card matching pred>" (Fool's Gold)."""
    def applies(game: Game, ev: Event, player: Player, card: Card) -> bool:
        return ev.card is not None and ev.player is not player and card.zone == "hand" and pred(ev.card)
    return applies


def outside_cleanup(game: Game) -> bool:
    """"Other than during Clean-up" (Tunnel, Weaver, Trail 1): any time but the current turn's Clean-up."""
    return game.turn.phase != "cleanup"


def unless_cleanup(hook):
    """A card's own "other than during Clean-up" ability (Tunnel, Weaver, Trail, Faithful Hound): not triggered
    in Clean-up at all."""
    return only_if(lambda game, ev, card: outside_cleanup(game), hook)


def ask(game: Game, p: Player, prompt: str) -> bool:
    return bool(game.decider.ask(Question(p.name, prompt, "yesno", [])))


def exchange(game: Game, p: Player, card: Card, for_name: str, cite: dict | None = None) -> bool:
    """Return ``card`` to its pile and take a ``for_name`` to the discard pile: not a gain (§ IV).

    Any card that belongs to a pile can go back, in the Supply or not (a Spoils, a Ruins: Trader 7); a card
    that belongs to none (Shelters, Heirlooms) cannot be exchanged (``piles.why_not_exchanged``).
    """
    why = piles.why_not_exchanged(game, card, for_name)
    if why is not None:
        game.log.add(f"{card.name} cannot be exchanged: {why}", EXCHANGING, *([cite] if cite else []))
        return False
    piles.exchange(game, p, card, for_name)
    game.log.add(f"{p.name} exchanges {card.name} for {for_name}: {card.name} goes back to its pile, {for_name} "
                 "goes to their discard pile (not gained)", EXCHANGING, *([cite] if cite else []))
    return True


def replace_gain(game: Game, ev: Event, p: Player, instead: str, cite: dict | None = None) -> None:
    """A when-would-gain ability: the gain of ``ev.card`` does not happen; ``instead`` is gained."""
    ev.data["replaced"] = True
    game.log.add(f"{p.name} does not gain {ev.card.name}; they gain {instead} instead", *([cite] if cite else []))
    act.gain(game, p, instead, cite=cite)


def play_itself(game: Game, p: Player, card: Card, zone: str, why: str, cite: dict | None = None,
                optional: bool = True) -> bool:
    """"You may play it": from ``zone`` (where the trigger left it), using no Action (§ VI).

    A card that was moved since (another ability played or moved it first) is lost track of and
    cannot be played (Trail 7-8, Berserker 6).
    """
    if card.zone != zone:
        game.log.add(f"{card.name} is no longer in {zone} (it is in {card.zone}), so it cannot play itself",
                     narrate.LOSE_TRACK, *([cite] if cite else []))
        return False
    if optional and not ask(game, p, f"play {card.name} ({why})?"):
        game.log.add(f"{p.name} does not play {card.name}")
        return False
    game.log.add(f"{p.name} plays {card.name} from their {zone} ({why}), using no Action", PLAYS_ITSELF,
                 *([cite] if cite else []))
    play_for(game, p, card)
    return True


def play_for(game: Game, p: Player, card: Card) -> None:
    """Play ``card`` for ``p``; on another player's turn its +Actions/+Buys/+$ do not go to that player's pools.

    Why: the engine keeps one set of pools, the current turn's; "when it's not your turn, these resources
    are normally useless" (Effects when it's not your turn § VI), so they are dropped, not given away.
    """
    t = game.turn
    if p.index == t.player:
        act.play(game, p, card)
        return
    kept = (t.actions, t.buys, t.coins)
    act.play(game, p, card)
    if (t.actions, t.buys, t.coins) != kept:
        t.actions, t.buys, t.coins = kept
        game.log.add(f"It is not {p.name}'s turn: the +Actions, +Buys or +$ from {card.name} are of no use to them",
                     NOT_YOUR_TURN)
