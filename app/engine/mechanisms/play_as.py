"""Playing a card from the Supply while leaving it there, or playing one card as another.

* Band of Misfits (2019): "Play a non-Command Action card from the Supply that
  costs less than this, leaving it there" (the card facts' text adds "non-Duration";
  the Complete Rules do not: Band of Misfits 4, Conjurer 3). The chosen card must be
  on top of its pile (Band of Misfits 2); it is played without being moved
  (PLAY A CARD WHILE LEAVING IT § VI), so whatever it says about moving itself
  fails by the lose-track rule (EFFECT WHEN MOVED FROM PLAY § VI), while its
  other effects happen. Command cards can't be chosen (Band of Misfits 4). When the
  played card would have stayed in play (a Duration with a later ability set up, or a
  throne-room that played one), Band of Misfits stays in play in its place, and a
  throne-room that played the Band of Misfits does not (PLAY A CARD WHILE LEAVING IT
  § VI, "With Durations"; the core's Clean-up, ``activities.staying_in_play``).
* Band of Misfits (pre-2019), and Overlord (pre-2019) with "costing up to $5": "Play this as if it were an
  Action card in the Supply costing less than it that you choose. This is that card until it
  leaves play." The Band of Misfits becomes the chosen card, with its name, cost,
  types and abilities for all purposes, until it leaves play (pre-2019 3; the core
  renames the card and gives its name back when it leaves play), and resolves that
  card's play ability (2), so moving "this" (Feast, Mining Village) moves the Band
  of Misfits (4). Not in play, it cannot play itself (8: the 2021 lose-track rule).

Replaying a card (Procession, Counterfeit) is the throne-room effect of the core
(``effects.PlayActionMultiple``), not repeated here.
"""
from __future__ import annotations

from app.engine.core import activities as act
from app.engine.core import narrate
from app.engine.core.costs import costs_up_to
from app.engine.core.decisions import Question
from app.engine.core.effects import Ctx
from app.engine.core.state import Card
from app.engine.core.triggers import COLLECTORS, Event, Pending, attack_window, fire
from app.engine.mechanisms.travellers import ACTING_AS, UPGRADE

LEAVING = narrate.LEAVING


def _types(name: str) -> tuple[str, ...]:
    from app.engine.core.state import card_facts
    return card_facts(name).types


def _choices(ctx: Ctx, allowed, up_to: int | None = None) -> list[Card]:
    # "costs less than this": this card's cost now; or "costing up to $X" (Overlord); no Potion or Debt (CARD COSTS)
    bound = ctx.source.cost - 1 if up_to is None else up_to
    return [pile[-1] for pile in ctx.game.supply.values()
            if pile and pile[-1].is_type("Action") and allowed(pile[-1]) and bound >= 0
            and costs_up_to(pile[-1], bound)]


def play_from_supply(ctx: Ctx, allowed, cite: dict, up_to: int | None = None) -> bool:
    """Choose the top card of a Supply pile (an Action ``allowed`` accepts, costing less than this or up to
    ``up_to``) and play it, leaving it."""
    p, g = ctx.player, ctx.game
    options = _choices(ctx, allowed, up_to)
    if not options:
        ctx.log(f"There is no card in the Supply that {ctx.source.name} can play", narrate.DO_AS_MUCH, cite)
        return False
    card = ctx.ask(Question(p.name, f"choose a card from the Supply for {ctx.source.name} to play", "cards",
                            options, 1, 1))[0]
    ctx.log(f"{ctx.source.name} plays {card.name} from the Supply, leaving it there", cite, LEAVING)
    act.play(g, p, card, by=ctx.source, leave=True)     # it stays in play if that card would (§ VI, With Durations)
    return True


def play_as(ctx: Ctx, allowed, cite: dict, up_to: int | None = None) -> bool:
    """Pre-2019 Band of Misfits (and pre-2019 Overlord, costing up to $5: "All the following also applies to
    Overlord (pre-2019 version)"): become the chosen Supply card until it leaves play, and be played as it.

    "This is that card until it leaves play": while in play it has the chosen card's name, cost,
    types and abilities for all purposes (pre-2019 3), so the card itself is renamed (``Card.printed``
    keeps its own name; ``Game.move`` gives it back when it leaves play, pre-2019 5-6). Played again
    while still in play (Throne Room) it is simply that card, played as any card is (7, 11). Not in
    play, it loses track of itself and cannot play itself (8, the 2021 lose-track rule).
    """
    from app.engine.core.registry import definition

    p, g, me = ctx.player, ctx.game, ctx.source
    if me.zone != "in_play":
        ctx.log(f"{me.name} is not in play: it loses track of itself and cannot play itself, so nothing happens",
                {"card": "Band of Misfits", "ruling": 8, "version": "pre-2019"}, narrate.LOSE_TRACK)
        return False
    options = _choices(ctx, allowed, up_to)
    if not options:
        ctx.log(f"There is no card in the Supply {me.name} can be played as", narrate.DO_AS_MUCH, cite)
        return False
    name = ctx.ask(Question(p.name, f"choose a card from the Supply to play {me.name} as", "cards",
                            options, 1, 1))[0].name
    me.printed, me.name = me.name, name
    g.__dict__.setdefault("played_as", {})[me.id] = (name, me.stamp)
    ctx.log(f"{me.printed} becomes {name} and is played as it: it is that card (name, cost, types, abilities) "
            f"until it leaves play", cite, {"card": "Band of Misfits", "ruling": 3, "version": "pre-2019"})
    g.turn.played[name] += 1
    sub = Ctx(g, p, me, ctx.source_ref)
    fire(g, Event("before_play", p, me))     # it plays itself as that card (pre-2019 2): that pile's "+" tokens (17)
    if me.is_type("Attack"):
        sub.unaffected = attack_window(g, p, me)
    d = definition(g, name)
    if d is not None and d.play is not None:
        d.play.apply(sub)
    fire(g, Event("after_play", p, me, {"action": True}))    # played as an Action card (pre-2019 16)
    return True


def _left_play_as(game, card: Card) -> str | None:
    """The card a pre-2019 Band of Misfits was until it left play by its last move (None if it wasn't)."""
    kept = game.__dict__.get("played_as", {}).get(card.id)
    # it left play by this very move: one move since it became that card
    if kept is None or card.stamp != kept[1] + 1 or card.name == kept[0]:
        return None
    return kept[0]


def _left_play_abilities(game, ev: Event) -> list[Pending]:
    """Pre-2019 Band of Misfits 4: "If Band of Misfits is played as a card with a when-trash ability or a
    when-discard ability, that ability is triggered when it's trashed from play or discarded from play,
    respectively" (Fortress: it goes to your hand; Page, Peasant: it may be exchanged, 18), although out of
    play it is Band of Misfits again (5).
    """
    from app.engine.core.registry import definition

    card = ev.card
    if ev.kind not in ("when_trash", "when_discard") or card is None:
        return []
    if ev.kind == "when_discard" and ev.data.get("from") != "in_play":
        return []
    name = _left_play_as(game, card)
    d = definition(game, name) if name is not None else None
    hook = d.hooks.get(ev.kind) if d else None
    if hook is None:
        return []
    verb = "trashed" if ev.kind == "when_trash" else "discarded"
    words = ev.kind.replace("_", "-")

    def run(g, e) -> None:
        g.log.add(f"{card.name} was {verb} from play as {name}: {name}'s {words} ability triggers",
                  {"card": "Band of Misfits", "ruling": 4, "version": "pre-2019"},
                  *([{"card": "Band of Misfits", "ruling": 18, "version": "pre-2019"}] if name in UPGRADE else []))
        hook(g, e, card)
    return [Pending(ev.player, f"{card.name}, {verb} from play as {name} ({words})", run)]


def _acting_as(game, card: Card) -> str | None:
    """Discarded from play as a Traveller, it may be exchanged as that Traveller (pre-2019 18)."""
    return _left_play_as(game, card) if card.zone == "discard" else None


if _left_play_abilities not in COLLECTORS:
    COLLECTORS.append(_left_play_abilities)
if _acting_as not in ACTING_AS:
    ACTING_AS.append(_acting_as)
