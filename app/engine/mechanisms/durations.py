"""Duration vocabulary: "at the start of your next turn", "now and at the start of your next turn",
and cards set aside until then.

The engine keeps a Duration (and the throne-room that directly played it) in
play while a later ability it set up is pending (DURATION CARDS § IV: Setting
up later abilities; Playing a Duration card multiple times). These effects set
those abilities up:

* each play of a Duration sets up its own ability, so a throne-room'd Duration
  does its next-turn part as many times as it was played (King's Court: 3);
* a Duration that sets nothing up (Tactician with an empty hand, Haven with
  nothing to set aside) is discarded that turn, but a throne-room whose
  Duration set something up at least once stays with it (Failing to set up
  later abilities § IV: the 2016 ruling);
* several start-of-turn abilities are ordered by their owner, which the
  trigger machinery asks as an 'order' question (Timing of concurrent
  abilities § III).
"""
from __future__ import annotations

from dataclasses import dataclass

from app.engine.core import activities as act
from app.engine.core import narrate
from app.engine.core.effects import Ctx, Effect
from app.engine.core.state import Card, Game

DURATION = narrate.DURATION
LATER = narrate.LATER


@dataclass
class NextTurn(Effect):
    """At the start of your next turn, ``effect`` (the Duration stays in play until then)."""

    label: str
    effect: Effect
    cite: dict | None = None

    def apply(self, ctx: Ctx) -> bool:
        def run(game: Game, ev, ctx=ctx, self=self) -> None:
            game.log.add(f"Start of turn: {self.label}", *([self.cite] if self.cite else [DURATION]))
            self.effect.apply(Ctx(game, ctx.player, ctx.source, ctx.source_ref))
        act.set_up_later(ctx.game, ctx.player, "start_of_turn", self.label, run, ctx.source, until="used",
                         cite=self.cite or LATER)
        return True


@dataclass
class NowAndNextTurn(Effect):
    """"Now and at the start of your next turn: ..." (Wharf, Merchant Ship, Astrolabe)."""

    label: str
    effect: Effect
    cite: dict | None = None

    def apply(self, ctx: Ctx) -> bool:
        self.effect.apply(ctx)
        return NextTurn(self.label, self.effect, self.cite).apply(ctx)


def set_aside_until_next_turn(ctx: Ctx, cards: list[Card], label: str, cite: dict | None = None,
                              face_down: bool = True) -> bool:
    """Set cards aside (under the Duration) and put them into hand at the start of the next turn.

    Only cards still where they were set aside are put into hand (lose-track
    rule); with nothing set aside, nothing is set up and the Duration is
    discarded this turn (Haven 2).
    """
    g, p = ctx.game, ctx.player
    if not cards:
        return False
    refs = []
    for c in cards:
        act.set_aside(g, p, c, ctx.source, cite)
        refs.append(g.ref(c))
    if face_down and len(cards) == 1:
        g.log.entries[-1].text = f"{p.name} sets aside a card face down"

    def run(game: Game, ev, refs=refs, p=p) -> None:
        back = [r.card for r in refs if r.valid()]
        for c in back:
            game.move(c, "hand", owner=p.index)
        game.log.add(f"Start of turn: {label}: {p.name} puts {act.names(back)} into their hand",
                     *([cite] if cite else [DURATION]))
    # nothing to do once every set-aside card was moved away: the Duration is then discarded that turn
    act.set_up_later(g, p, "start_of_turn", label, run, ctx.source, until="used", cite=cite or LATER,
                     condition=lambda game, ev, refs=refs: any(r.valid() for r in refs))
    return True


# ------------------------------------------------------------------ for the rest of the game (Hireling, Champion)
REST_OF_GAME = "rest_of_game"      # the trigger of the ability that only keeps such a Duration in play


def for_rest_of_game(ctx: Ctx, trigger: str, label: str, run, condition=None, anyone: bool = False,
                     cite: dict | None = None) -> None:
    """Set up an ability lasting the rest of the game; the Duration that set it up stays in play for good.

    "For the rest of the game" (Hireling 1, Champion 1: SETS UP A LATER ABILITY, ongoing): each play sets up one
    more ability, so a throne-room'd Hireling draws 2 (Hireling 2, Champion 2). The card stays in play as long as
    the ability lasts (DURATION CARDS § IV), i.e. always: a never-firing pending ability of the card keeps it
    (and the throne-room that played it) out of every Clean-up. A card removed from play keeps its ability
    (SET UP A LATER ABILITY § VI).
    """
    from app.engine.core.state import LaterAbility

    g, p = ctx.game, ctx.player
    g.later.append(LaterAbility(p.index, trigger, label, run, None, condition, "game", [cite] if cite else [],
                                anyone=anyone))
    if ctx.source is not None and not any(la.trigger == REST_OF_GAME and la.source is ctx.source for la in g.later):
        g.later.append(LaterAbility(p.index, REST_OF_GAME, f"{ctx.source.name} stays in play", lambda *a: None,
                                    ctx.source, None, "used"))
    g.log.add(f"{label} is set up for the rest of the game", cite or LATER)
