"""Reserve cards and the Tavern mat: putting a Reserve card on the mat, and calling it back.

Why a module of its own: eight Adventures cards (Coin of the Realm, Distant Lands,
Duplicate, Guide, Ratcatcher, Royal Carriage, Teacher, Transmogrify, Wine Merchant)
share one rule, and the moments a player may call one are where tables go wrong.

The rules implemented (Complete Rules, RESERVE CARDS § IV; Adventures rulebook, "Reserve"):

* "Put this on your Tavern mat" moves the card from play to the player's Tavern mat
  (a card-holding mat, mats.py). It is REMOVED FROM PLAY (§ VI): what it gave stays.
  A Reserve card played without moving it into play (a throne-room's second play after
  the first one moved it) does not go to the mat (PLAY A CARD WHILE LEAVING IT § VI,
  the lose-track rule; Royal Carriage 2, Guide 2, Ratcatcher 2, Transmogrify 2).
* Calling moves the card from the Tavern mat into play. "This is not playing it, so
  you don't resolve the play ability, and it doesn't cost an Action ... (or trigger
  before-play or after-play abilities). It's discarded from play in Clean-up that
  turn. You can only call it if it's on your Tavern mat" (RESERVE CARDS § IV).
* A card says when it may be called; each such moment is a triggered ability of a
  card on the mat, offered to its owner as a yes/no question alongside the other
  abilities the same moment triggers (the owner orders them; Timing of concurrent
  abilities § III), exactly as Reactions in hand are offered. The windows are: at the
  start of your turn (Guide, Ratcatcher, Transmogrify, Teacher), when you gain a card
  (Duplicate), after you play an Action card (Coin of the Realm, Royal Carriage). Wine
  Merchant is never called: at the end of your Buy phase, with $2 or more unspent, you
  may discard it from the mat (Wine Merchant 3).
* Several cards on the mat may be called at the same moment, each its own ability
  (Coin of the Realm 4, Duplicate 3, Royal Carriage 7).

The scenario step ``call: CARD`` calls a start-of-turn Reserve card when the scenario
begins at the start of a turn (no card played, bought or gained yet): the turns a
scenario replays through offer the window as a question instead.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from app.engine.core import narrate
from app.engine.core.decisions import Question, resolving
from app.engine.core.effects import Ctx, Effect
from app.engine.core.errors import IllegalAction
from app.engine.core.state import Card, Game, Player
from app.engine.core.triggers import COLLECTORS, Event, Pending
from app.engine.mechanisms.mats import mat_cards, mat_zone, put_on_mat
from app.engine.scenario.extensions import CARD_OR_LIST, step_kind

TAVERN = "Tavern"
RESERVE = narrate.RESERVE
REMOVED = narrate.sec("Removed from play")
LEAVING = narrate.LEAVING
NOT_YOUR_TURN = narrate.NOT_YOUR_TURN


def on_tavern(p: Player) -> list[Card]:
    """The cards on ``p``'s Tavern mat."""
    return mat_cards(p, TAVERN)


@dataclass
class PutOnTavern(Effect):
    """"Put this on your Tavern mat": only if this play put the card into play and it is still there."""

    cite: dict | None = None

    def apply(self, ctx: Ctx) -> bool:
        card = ctx.source
        if card is None or ctx.source_ref is None or not ctx.source_ref.valid():
            where = narrate.where(card, ctx.game) if card is not None else "nowhere"
            ctx.log(f"{card.name} was not moved into play by this play (it is {where}), so it does not go to "
                    "the Tavern mat", LEAVING, narrate.LOSE_TRACK, *([self.cite] if self.cite else []))
            return False
        put_on_mat(ctx.game, ctx.player, card, TAVERN, self.cite or RESERVE)
        ctx.log(f"{card.name} has left play (what it gave stays)", REMOVED)
        return True


@dataclass(frozen=True)
class Window:
    """When a Reserve card on the mat may be called, and what calling it does.

    ``applies(game, event, player, card)`` says whether this occurrence opens the window for
    that card; ``run(game, event, player, card)`` is the called ability (the card is already in
    play). ``calls=False``: the card is discarded from the mat instead (Wine Merchant).
    """

    trigger: str
    what: str
    run: Callable[[Game, Event, Player, Card], None]
    applies: Callable[[Game, Event, Player, Card], bool] = lambda game, ev, p, card: True
    cite: dict | None = None
    calls: bool = True
    asking: Callable[[Game, Event, Player, Card], str] | None = None   # the question for this occurrence

    def question(self, game: Game, ev: Event, p: Player, card: Card) -> str:
        """What calling does now, naming the card it is about ("to replay Throne Room"), else ``what``."""
        return self.asking(game, ev, p, card) if self.asking is not None else self.what


WINDOWS: dict[str, Window] = {}


def reserve(name: str, window: Window) -> None:
    """Register the calling window of the Reserve card ``name`` (one per card)."""
    WINDOWS[name] = window


def _collect(game: Game, ev: Event) -> list[Pending]:
    """Every window ``ev`` opens: the cards on its player's own Tavern mat (each window says "you")."""
    p = ev.player
    found: list[Pending] = []
    for c in list(on_tavern(p)) if p.mats.get(TAVERN) else ():
        w = WINDOWS.get(c.name)
        if w is not None and w.trigger == ev.kind and w.applies(game, ev, p, c):
            found.append(Pending(p, f"{c.name} (Tavern mat)", lambda g, e, w=w, p=p, c=c: offer(g, e, w, p, c)))
    return found


if _collect not in COLLECTORS:
    COLLECTORS.append(_collect)


def offer(game: Game, ev: Event, w: Window, p: Player, card: Card) -> bool:
    """Ask whether ``p`` calls ``card`` (or discards it, Wine Merchant) and do it."""
    if card.zone != mat_zone(TAVERN) or card.owner != p.index:
        game.log.add(f"{card.name} is no longer on {p.name}'s Tavern mat, so it cannot be called", RESERVE)
        return False
    verb = "call" if w.calls else "discard"
    q = Question(p.name, f"{verb} {card.name} from your Tavern mat, {w.question(game, ev, p, card)}?", "yesno", [])
    if not game.decider.ask(q):
        game.log.add(f"{p.name} does not {verb} {card.name}", *([w.cite] if w.cite else []))
        return False
    if not w.calls:
        from app.engine.core import activities as act
        act.discard(game, p, [card], w.cite or RESERVE, what=f"{card.name} from their Tavern mat")
        return True
    call(game, p, card, w, ev)
    return True


def call(game: Game, p: Player, card: Card, w: Window, ev: Event) -> None:
    """Move the card from the Tavern mat into play (not playing it) and resolve what calling it does."""
    game.move(card, "in_play", owner=p.index)
    game.log.add(f"{p.name} calls {card.name} from their Tavern mat ({w.what}); it moves into play: this is not "
                 "playing it, and it is discarded in Clean-up", RESERVE, *([w.cite] if w.cite else []))
    with resolving(game.decider, card.name):
        _run_called(game, p, card, w, ev)


def _run_called(game: Game, p: Player, card: Card, w: Window, ev: Event) -> None:
    t = game.turn
    if p.index == t.player:
        w.run(game, ev, p, card)
        return
    # called on another player's turn (Duplicate 4; a Caravan Guard played in reaction, then Coin of the Realm):
    # "when it's not your turn, these resources are normally useless" (Effects when it's not your turn § VI)
    kept = (t.actions, t.buys, t.coins)
    w.run(game, ev, p, card)
    if (t.actions, t.buys, t.coins) != kept:
        t.actions, t.buys, t.coins = kept
        game.log.add(f"It is not {p.name}'s turn: the +Actions, +Buys or +$ from calling {card.name} are of no use "
                     "to them", NOT_YOUR_TURN)


def at_start_of_turn(game: Game) -> bool:
    """Whether the turn is still at its start: nothing played, bought or gained yet in it."""
    t = game.turn
    return t.phase == "action" and not t.played and not t.gained and not t.bought


@step_kind("call", schema=CARD_OR_LIST, cards=True,
           doc="At the start of the current player's turn (nothing played, bought or gained yet), call a Reserve "
               "card with a start-of-turn window from their Tavern mat; later windows are asked as questions",
           example="call: Guide")
def _call_step(game: Game, p: Player, names: list[str]) -> None:
    for name in names:
        card = next((c for c in on_tavern(p) if c.name == name), None)
        if card is None:
            raise IllegalAction(f"{p.name} has no {name} on their Tavern mat",
                                sorted({c.name for c in on_tavern(p)}))
        w = WINDOWS.get(name)
        if w is None or not w.calls:
            raise IllegalAction(f"{name} is never called" if w else f"{name} is not a Reserve card with a calling "
                                "window")
        if w.trigger != "start_of_turn":
            raise IllegalAction(f"{name} can only be called {w.what.split(',')[0]}; that window is offered as a "
                                "question when it opens (answer yes)")
        if not at_start_of_turn(game):
            raise IllegalAction(f"{name} can only be called at the start of {p.name}'s turn, and this turn has "
                                "already gone past it (a card was played, bought or gained)")
        ev = Event("start_of_turn", p)
        if not w.applies(game, ev, p, card):
            raise IllegalAction(f"{name} cannot be called now")
        call(game, p, card, w, ev)


__all__ = ["TAVERN", "PutOnTavern", "Window", "reserve", "on_tavern", "call", "offer", "at_start_of_turn"]
