"""Abilities that last: "while this is in play" abilities, this-turn abilities set up by a play,
when-gain abilities that move the gained card, and this-turn buy restrictions.

Why a module of its own: these rules are shared by many cards across sets and
they are where players go wrong.

* WHILE THIS IS IN PLAY (§ VI Common effects): the ability is not a play
  ability, so a throne-room playing the card twice does not double it; each
  *copy in play* applies once (Goons, Royal Seal, Talisman, pre-2022 Hoard).
  The engine's trigger collector already visits each card in play once; the
  handlers made here add the "you" check (the card's owner, not whoever
  gained), since the collector offers in-play cards of every player.
* SET UP A LATER ABILITY (ongoing ability, 2022 versions of Hoard, Quarry,
  Collection, Tiara): each play sets up one more, so throne-rooms are cumulative.
* MOVE GAINED CARD (§ VI): a when-gain ability that moves the gained card makes
  every other ability lose track of it (§ III lose-track rule). The place the
  card was gained to is remembered on the event the first time any of these
  abilities looks at it, and every later mover checks it first.
* Buy restrictions ("you can't buy this", Grand Market; "you can't buy that
  card this turn", Contraband) are consulted by the Buy step (registered in ``core.hooks``).
"""
from __future__ import annotations

from typing import Callable

from app.engine.core import activities as act
from app.engine.core import hooks, narrate
from app.engine.core.decisions import Question
from app.engine.core.state import Card, Game, Player, Ref
from app.engine.core.triggers import Event

MOVE_GAINED = narrate.sec("Move gained card")
WHILE_IN_PLAY = narrate.WHILE_IN_PLAY
LATER_ONGOING = narrate.sec("Setting up a later ability")


# ------------------------------------------------------------------ the gained card and the lose-track rule
def gained_ref(ev: Event) -> Ref:
    """Where the gained card was put by the gain; remembered on the event before anything moves it."""
    ref = ev.data.get("gained_ref")
    if ref is None:
        ref = Ref(ev.card, ev.data.get("to", ev.card.zone), ev.card.stamp)
        ev.data["gained_ref"] = ref
    return ref


def still_there(ev: Event) -> bool:
    ref = gained_ref(ev)
    # a card gained to the discard pile that was then moved elsewhere is lost track of even
    # though discard piles are otherwise never lost track of (Move gained card, § VI)
    return ref.card.zone == ref.zone and ref.card.stamp == ref.stamp


def move_gained(game: Game, p: Player, ev: Event, to: str, cite: dict | None = None) -> bool:
    """Move the gained card (trash it, put it onto the deck) unless another ability already moved it."""
    card = ev.card
    if not still_there(ev):
        game.log.add(f"{card.name} was already moved by another when-gain ability, so it cannot be moved again "
                     f"(it is {narrate.where(card, game)})", narrate.LOSE_TRACK, MOVE_GAINED, *([cite] if cite else []))
        return False
    if to == "trash":
        act.trash(game, p, [card], cite or MOVE_GAINED)
    elif to == "deck":
        act.topdeck(game, p, card, cite or MOVE_GAINED)
    else:
        game.move(card, to, owner=p.index)
        game.log.add(f"{p.name} puts {card.name} into their {to}", cite or MOVE_GAINED)
    return True


def play_gained(game: Game, p: Player, ev: Event, by: str, cite: dict, lost: str = "",
                lost_cite: dict | None = None, use: Callable[[], None] | None = None) -> bool:
    """"When you gain a card, you may play it" (Sailor, Innovation): play the gained card from where the gain put
    it (PLAY AN ACTION CARD: it uses no Action), unless another ability moved it first (MOVE GAINED CARD § VI;
    the lose-track rule). ``use()`` is called once the player chooses to play it, before it is played, so a
    "once this turn" is spent even for gains the played card makes. Returns whether it was played."""
    card = ev.card
    if not still_there(ev):
        game.log.add(f"{card.name} is no longer where it was gained (it is {narrate.where(card, game)}): "
                     f"{lost or by} cannot play it", narrate.LOSE_TRACK, *([lost_cite] if lost_cite else [MOVE_GAINED]))
        return False
    ref = game.ref(card)
    if not game.decider.ask(Question(p.name, f"play the gained {card.name} with {by}?", "yesno", [])):
        game.log.add(f"{p.name} does not play {card.name} with {by}", cite)
        return False
    if use is not None:
        use()
    game.log.add(f"{p.name} plays the gained {card.name} with {by}", cite)
    act.play(game, p, card, ref, nth=f" ({by})")
    return True


def watch_gains(game: Game, ev: Event, player: Player, card: Card) -> bool:
    """``Reaction.applies`` for when-gain Reactions: only your own gains, and pin the gained card's place now."""
    if ev.card is None or ev.player is not player:
        return False
    gained_ref(ev)       # collected before any ability resolves: the place is the one the gain put it in
    return True


# ------------------------------------------------------------------ while this is in play
def while_mine(fn: Callable[[Game, Event, Card], None]) -> Callable[[Game, Event, Card], None]:
    """A while-in-play handler that only reacts to its owner's own buys and gains (the "you" on the card)."""
    def handler(game: Game, ev: Event, card: Card) -> None:
        # the card may have left play (to the trash: no owner) since it triggered; it still resolves
        # (Mint 5), and only its owner's own abilities can have trashed it meanwhile
        if card.owner is not None and ev.player.index != card.owner:
            return
        if ev.kind == "when_gain":
            gained_ref(ev)
        fn(game, ev, card)
    return handler


# ------------------------------------------------------------------ this turn
def set_up_this_turn(game: Game, p: Player, trigger: str, label: str, run: Callable[[Game, Event], None],
                     condition: Callable[[Game, Event], bool] | None = None, cite: dict | None = None) -> None:
    """An ongoing ability for the rest of this turn; each play sets up another one (cumulative)."""
    def cond(g: Game, ev: Event) -> bool:
        if ev.kind == "when_gain" and ev.card is not None:
            gained_ref(ev)
        return condition is None or condition(g, ev)
    act.set_up_later(game, p, trigger, label, run, None, cond, "end_of_turn", cite or LATER_ONGOING)


def bought(game: Game, card: Card) -> bool:
    """Whether this card was gained because it was bought (the Buy step records it on the turn)."""
    return any(c is card for c in getattr(game.turn, "bought", ()))


# ------------------------------------------------------------------ buy restrictions
def cannot_buy(game: Game, p: Player, name: str, label: str, cite: dict) -> None:
    """"You can't buy that card this turn" (Contraband): remembered until the turn ends."""
    act.set_up_later(game, p, "cannot_buy", label, lambda g, ev: None,
                     condition=lambda g, ev, n=name: ev == n, cite=cite)


@hooks.buy_check("ongoing")
def _buy_check(game: Game, pile: str, card: Card) -> str | None:
    return buy_blocked(game, pile)


def buy_blocked(game: Game, name: str) -> str | None:
    """Why the current player can't buy ``name`` now, or None. Checked by the Buy step."""
    p = game.current
    for la in game.later:
        if la.trigger == "cannot_buy" and la.owner == p.index and la.condition is not None and la.condition(game, name):
            return la.label
    check = _BUY_RULES.get(name)
    return check(game, p) if check is not None else None


_BUY_RULES: dict[str, Callable[[Game, Player], str | None]] = {}


def buy_rule(name: str, check: Callable[[Game, Player], str | None]) -> None:
    """A card's own "you can't buy this if ..." (Grand Market): ``check`` returns the reason or None."""
    _BUY_RULES[name] = check
