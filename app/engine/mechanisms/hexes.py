"""Hexes: the Hexes deck, receiving a Hex, and "each other player receives the next Hex".

BOONS AND HEXES § IV: Hexes work as Boons do (their own deck and discard pile, reshuffled
when needed; "you resolve the ability, then discard the card"). "When an ability makes the
other players receive a Hex, you first take the top Hex card, then each other player in turn
receives that Hex. (You take a Hex even if the other players all block it with Moat,
Lighthouse, Champion, Guardian or Shield.) Then you discard the Hex." Reactions are resolved
before the Hex is drawn (Skulk 2, Tormentor 2, Vampire 1, Werewolf 1): the Attack's Reaction
window closes when it is played, before its ability.

Special setup § I: "If any Kingdom card has the type Doom, shuffle the 12 Hex cards into a
face-down deck. Also keep the State cards Envious/Deluded and Miserable/Twice Miserable
available." A Doom card's ``setup`` is ``doom_setup``. Scenario keys: ``hexes: [...]`` (the
deck's top cards, in order), ``expect: {hexes: [...], hexes_discard: [...]}``.
"""
from __future__ import annotations

from dataclasses import dataclass

from app.engine.core import narrate
from app.engine.core.effects import Ctx, Effect
from app.engine.core.state import Game, Player
from app.engine.mechanisms.shared_decks import BOONS_AND_HEXES, SharedDeck, deck, scenario_keys

KEY = "hexes_deck"


@dataclass(frozen=True)
class Hex:
    name: str
    effect: Effect


HEXES: dict[str, Hex] = {}


def hex_(name: str, effect: Effect) -> Hex:
    h = HEXES[name] = Hex(name, effect)
    return h


def hexes_deck(game: Game) -> SharedDeck:
    return deck(game, KEY, "Hex", list(HEXES))


def doom_setup(game: Game) -> None:
    hexes_deck(game)


def _resolve(game: Game, p: Player, name: str, cite: dict | None) -> None:
    game.log.add(f"{p.name} receives {name}", *([cite] if cite else []), BOONS_AND_HEXES)
    HEXES[name].effect.apply(Ctx(game, p, None))


def receive_next(game: Game, p: Player, cite: dict | None = None) -> str | None:
    """"Receive a Hex": the top Hex, received, then discarded."""
    d = hexes_deck(game)
    name = d.take(game)
    if name is None:
        game.log.add("There is no Hex left to receive", narrate.DO_AS_MUCH)
        return None
    _resolve(game, p, name, cite)
    d.discard.append(name)
    return name


def others_receive_next(ctx: Ctx, cite: dict | None = None) -> str | None:
    """"Each other player receives the next Hex": taken even if every other player is unaffected, received by
    each affected player in turn order, then discarded."""
    g, p = ctx.game, ctx.player
    d = hexes_deck(g)
    name = d.take(g)
    if name is None:
        g.log.add("There is no Hex left to give", narrate.DO_AS_MUCH)
        return None
    g.log.add(f"{p.name} takes {name} for the other players", *([cite] if cite else []), BOONS_AND_HEXES)
    for q in g.others(p):
        if q.index in ctx.unaffected:
            g.log.add(f"{q.name} is unaffected by {ctx.source.name if ctx.source else 'the Attack'}",
                      narrate.REACTION_TO_ATTACK)
            continue
        _resolve(g, q, name, cite)
    d.discard.append(name)
    return name


scenario_keys(KEY, "hexes", "Hex", hexes_deck,
              ("hexes: [Plague, Famine]", "hexes: [Famine, War]", "hexes_discard: [Plague]"))
