"""The Night phase and Night cards (Nocturne).

Complete Rules § II "Night phase": "If any Night cards are in the game, they can be played
in your Night phase, which comes after your Buy phase." § IV "Night cards": "In your Night
phase you may play as many Night cards as you like from your hand, in any order. A Night
card has a play ability, and playing it works in the same way as playing an Action or
Treasure card"; "Night cards are not Action cards". Playing one takes no Action.

The phase is registered with the core (``core.hooks.phase``): the core passes through it
between the Buy phase and Clean-up when the game has Night cards, and a scenario's ``play``
step plays a Night card from hand in it (moving on from the Action or Buy phase, as playing
a Treasure ends the Action phase). The ``night`` step enters the phase explicitly, and
plays the Night cards it names: the only way to play a card that is both an Action and a
Night card (Werewolf) in the Night phase, since ``play`` in the Action phase plays it as an
Action. Night Durations (Den of Sin, Ghost Town, Guardian, Raider, Cobbler, Crypt) stay in
play like any Duration (durations.py).
"""
from __future__ import annotations

from app.engine.core import activities as act
from app.engine.core import hooks, narrate
from app.engine.core.errors import IllegalAction
from app.engine.core.state import Card, Game, Player
from app.engine.scenario.extensions import CARD_OR_LIST, step_kind

NIGHT_PHASE = narrate.sec("Night phase")
NIGHT_CARDS = narrate.sec("Night cards")
NIGHT = "night"


def is_night(card: Card) -> bool:
    return card.is_type("Night")


def in_game(game: Game) -> bool:
    """Whether any Night card is in this game (the Supply, piles outside it, anyone's cards, the trash).

    Worked out once per game: cards only come into a game from where they start.
    """
    known = game.__dict__.get("night_in_game")
    if known is None:
        cards = [c for pile in list(game.supply.values()) + list(game.non_supply.values()) for c in pile]
        cards += [c for p in game.players for c in p.all_cards()] + game.trash
        known = any(c.is_type("Night") for c in {c.name: c for c in cards}.values())
        game.__dict__["night_in_game"] = known
    return known


def in_night_phase(game: Game) -> bool:
    return game.turn.phase == NIGHT


hooks.phase(hooks.Phase(NIGHT, "Night phase", in_game, is_night, NIGHT_PHASE))


def playable_now(game: Game) -> list[Card]:
    """Night cards the current player may play from hand now (in the Night phase, or by moving on to it)."""
    if game.over:
        return []
    return [c for c in game.current.hand if is_night(c) and hooks.phase_to_play(game, c) is not None]


@step_kind("night", schema={"anyOf": [{"type": "null"}, CARD_OR_LIST]}, cards=True,
           doc="move on to the Night phase (after the Buy phase), then play these Night cards from hand, in order",
           example="night: [Changeling]")
def _night_step(game: Game, p: Player, names: list[str] | None) -> None:
    t = game.turn
    if t.phase not in ("action", "buy", "buy2", NIGHT):
        raise IllegalAction(f"cannot move to the Night phase in the {narrate.phase_words(t.phase)}")
    if not in_game(game):
        raise IllegalAction("there is no Night phase: no Night cards are in this game (Night phase § II)")
    act.enter_phase(game, NIGHT)
    for name in names or []:
        card = next((c for c in p.hand if c.name == name), None)
        if card is None:
            raise IllegalAction(f"{p.name} has no {name} in hand", sorted({c.name for c in p.hand if is_night(c)}))
        if not is_night(card):
            raise IllegalAction(f"cannot play {name} in the Night phase: it is not a Night card (Night cards § IV)",
                                sorted({c.name for c in p.hand if is_night(c)}))
        act.play(game, p, card)
