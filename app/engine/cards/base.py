"""Dominion (Base set), both editions. Each definition follows the card's text in the card facts
and cites its Card Reference entry; special cases stay here as small functions.
"""
from __future__ import annotations

from app.engine.core import activities as act
from app.engine.core import narrate
from app.engine.core.decisions import Question
from app.engine.core.effects import (ChooseFromHand, Ctx, DiscardDownTo, Do, Draw, EachOtherPlayer, EachPlayer, Gain,
                                IfYouDid, PlayActionMultiple, PlusActions, PlusBuys, PlusCoins, Sequence,
                                SetUpLater, TrashSelf, both, of_type, put_back_in_any_order)
from app.engine.core.costs import costs_up_to_more, up_to
from app.engine.core.narrate import DIG, TRIGGERED, R
from app.engine.core.registry import CardDef, Reaction, register
from app.engine.core.state import Ref


def _cards(ctx: Ctx, store: str) -> list:
    v = ctx.vars.get(store)
    return v if isinstance(v, list) else ([v] if v is not None else [])


# ------------------------------------------------------------------ simple +stuff cards
register(CardDef("Village", Sequence(Draw(1), PlusActions(2))))
register(CardDef("Smithy", Sequence(Draw(3))))
register(CardDef("Laboratory", Sequence(Draw(2), PlusActions(1))))
register(CardDef("Festival", Sequence(PlusActions(2), PlusBuys(1), PlusCoins(2))))
register(CardDef("Market", Sequence(Draw(1), PlusActions(1), PlusBuys(1), PlusCoins(1))))
register(CardDef("Woodcutter", Sequence(PlusBuys(1), PlusCoins(2)), version="1"))
register(CardDef("Council Room", Sequence(Draw(4), PlusBuys(1), EachOtherPlayer(Draw(1)))))
register(CardDef("Gardens", vp=lambda game, p: len(p.all_cards()) // 10))

# ------------------------------------------------------------------ gainers
register(CardDef("Workshop", Gain(filter=up_to(4), cite=R("Workshop", 1), describe="a card costing up to $4")))
def _feast_still_gains(ctx: Ctx) -> None:
    """If this could not be trashed, it still gains a card.

    Why: the gain does not depend on the trashing (no "if you do"); a Feast played without being moved
    into play (Throne Room's second play) is not trashed but still gains (Feast 1).
    """
    if not ctx.last:
        ctx.log(f"{ctx.source.name} was not trashed, but still gains a card", R("Feast", 1))


register(CardDef("Feast", Sequence(
    TrashSelf(cite=R("Feast", 3)),
    Do(_feast_still_gains),
    Gain(filter=up_to(5), cite=R("Feast", 2), describe="a card costing up to $5")), version="1"))
register(CardDef("Artisan", Sequence(
    Gain(filter=up_to(5), to="hand", cite=R("Artisan", 1), describe="a card costing up to $5"),
    ChooseFromHand("topdeck", 1, 1, cite=R("Artisan", 2), describe="a card from your hand onto your deck"))))


def up_to_more_than_trashed(more: int):
    """"Costing up to $X more than it": R is the trashed card's cost now plus X, keeping its Potion and
    Debt amounts ("REMODEL" CARD § VI); without a trashed card nothing qualifies."""
    def pred(ctx: Ctx, c) -> bool:
        t = _cards(ctx, "trashed")
        return bool(t) and costs_up_to_more(c, t[0], more)
    return pred


register(CardDef("Remodel", Sequence(
    ChooseFromHand("trash", 1, 1, store="trashed", cite=R("Remodel", 1)),
    IfYouDid(Gain(filter=up_to_more_than_trashed(2), cite=R("Remodel", 1),
                  describe="a card costing up to $2 more than the trashed card")))))

_treasure = of_type("Treasure")
# Second edition: "You may trash a Treasure" (Mine 3: the new text made it optional); the first edition
# must trash a Treasure if it can (the BGG FAQ's "Mine, Moneylender, Throne Room" entry agrees).
for _v, _min, _note in (("2", 0, "optional (Mine 3)"), ("1", 1, "first edition: not optional")):
    register(CardDef("Mine", Sequence(
        ChooseFromHand("trash", _min, 1, filter=_treasure, store="trashed", cite=R("Mine", 1), describe="a Treasure"),
        IfYouDid(Gain(filter=both(_treasure, up_to_more_than_trashed(3)), to="hand", cite=R("Mine", 2),
                      describe="a Treasure costing up to $3 more"))), version=_v, note=_note), default=_v == "2")

_copper = lambda ctx, c: c.name == "Copper"  # noqa: E731
for _v, _min in (("2", 0), ("1", 1)):
    register(CardDef("Moneylender", Sequence(
        ChooseFromHand("trash", _min, 1, filter=_copper, describe="a Copper", cite=R("Moneylender", 1 if _v == "2" else 2)),
        IfYouDid(PlusCoins(3, cite=R("Moneylender", 3 if _v == "2" else 2)))), version=_v), default=_v == "2")

register(CardDef("Chapel", ChooseFromHand("trash", 0, 4, cite=R("Chapel", 1), describe="up to 4 cards")))

register(CardDef("Cellar", Sequence(
    PlusActions(1),
    ChooseFromHand("discard", 0, lambda ctx: len(ctx.player.hand), store="discarded", describe="any number of cards"),
    Draw(lambda ctx: len(_cards(ctx, "discarded")), cite=R("Cellar", 1)))))

register(CardDef("Poacher", Sequence(
    Draw(1), PlusActions(1), PlusCoins(1),
    Do(lambda ctx: ctx.log(f"Empty Supply piles now: {len(ctx.game.empty_piles())}", R("Poacher", 2))),
    ChooseFromHand("discard", lambda ctx: len(ctx.game.empty_piles()), lambda ctx: len(ctx.game.empty_piles()),
                   cite=R("Poacher", 1), describe="a card per empty Supply pile"))))

# ------------------------------------------------------------------ throne-room
for _v, _opt in (("2", True), ("1", False)):
    register(CardDef("Throne Room", PlayActionMultiple(2, optional=_opt, cite=R("Throne Room", 2)), version=_v,
                     note="second edition: optional (Throne Room 2)" if _opt else "first edition: not optional"),
             default=_v == "2")


# ------------------------------------------------------------------ Merchant (later ability)
def _first_silver(game, ev) -> bool:
    return ev.card is not None and ev.card.name == "Silver" and game.turn.played["Silver"] == 1


register(CardDef("Merchant", Sequence(
    Draw(1), PlusActions(1),
    SetUpLater("after_play", "Merchant's +$1 on the first Silver played this turn",
               PlusCoins(1, cite=R("Merchant", 1)), condition=_first_silver, cite=R("Merchant", 1)))))


# ------------------------------------------------------------------ deck manipulation
def _harbinger(ctx: Ctx) -> bool:
    """Look through your discard pile; you may put a card from it onto your deck."""
    p = ctx.player
    if not p.discard:
        ctx.log(f"{p.name}'s discard pile is empty")
        return False
    chosen = ctx.ask(Question(p.name, "put a card from your discard pile onto your deck", "cards", list(p.discard), 0, 1))
    if not chosen:
        ctx.log(f"{p.name} looks through their discard pile and puts nothing onto their deck")
        return False
    act.topdeck(ctx.game, p, chosen[0])
    return True


register(CardDef("Harbinger", Sequence(Draw(1), PlusActions(1), Do(_harbinger))))


def _vassal(ctx: Ctx) -> bool:
    """Discard the top card of your deck; if it is an Action card, you may play it."""
    g, p = ctx.game, ctx.player
    top = act.from_deck(g, p, 1, "revealed")
    if not top:
        ctx.log(f"{p.name} has no card to discard from their deck", narrate.DO_AS_MUCH)
        return False
    card = top[0]
    act.discard(g, p, [card], what=f"the top card of their deck, {card.name}")
    if not card.is_type("Action"):
        return False
    expected = Ref(card, "discard", card.stamp)
    if not ctx.ask(Question(p.name, f"play {card.name} from your discard pile?", "yesno", [])):
        ctx.log(f"{p.name} leaves {card.name} in the discard pile")
        return False
    return act.play(g, p, card, expected, nth=" from the discard pile (Vassal 1)") is not None


register(CardDef("Vassal", Sequence(PlusCoins(2), Do(_vassal))))


def _sentry(ctx: Ctx) -> bool:
    """Look at the top 2 cards of your deck; trash and/or discard any number of them and put the rest back in any order."""
    g, p = ctx.game, ctx.player
    seen = act.reveal_top(g, p, 2, verb="looks at")
    if not seen:
        return False
    trashed = ctx.ask(Question(p.name, "trash any number of the cards looked at", "cards", list(seen), 0, len(seen)))
    if trashed:
        act.trash(g, p, trashed, R("Sentry", 1))
    rest = [c for c in seen if c not in trashed]
    dropped = ctx.ask(Question(p.name, "discard any number of the rest", "cards", rest, 0, len(rest))) if rest else []
    if dropped:
        act.discard(g, p, dropped, R("Sentry", 1))
    rest = [c for c in rest if c not in dropped]
    if rest:
        put_back_in_any_order(ctx, rest, R("Sentry", 1))
    return True


register(CardDef("Sentry", Sequence(Draw(1), PlusActions(1), Do(_sentry))))


def _library(ctx: Ctx) -> bool:
    """Draw until you have 7 cards in hand, setting aside any Action cards you choose to skip; then discard the set-aside cards."""
    g, p = ctx.game, ctx.player
    aside = []
    if len(p.hand) < 7:
        act.told_to_draw(g, p, 7 - len(p.hand))   # a -1 Card token is removed first, then draw to 7 (its ruling 2)
    while len(p.hand) < 7:
        got = act.from_deck(g, p, 1, "revealed")
        if not got:
            ctx.log(f"{p.name} has no more cards to draw", narrate.DO_AS_MUCH)
            break
        c = got[0]
        if c.is_type("Action") and ctx.ask(Question(p.name, f"skip {c.name} and set it aside?", "yesno", [])):
            act.set_aside(g, p, c, ctx.source, R("Library"))
            aside.append(c)
        else:
            g.move(c, "hand")
            ctx.log(f"{p.name} draws {c.name} ({len(p.hand)} in hand)", R("Library", 1))
    if aside:
        act.discard(g, p, aside, what=f"the set-aside {act.names(aside)}")
    return True


register(CardDef("Library", Do(_library)))


def _adventurer(ctx: Ctx) -> bool:
    """Reveal cards from your deck until you reveal 2 Treasures; put those into your hand and discard the other revealed cards."""
    g, p = ctx.game, ctx.player
    found, other = [], []
    while len(found) < 2:
        got = act.from_deck(g, p, 1, "revealed")
        if not got:
            ctx.log(f"{p.name} runs out of cards to reveal", narrate.DO_AS_MUCH)
            break
        (found if got[0].is_type("Treasure") else other).append(got[0])
        ctx.log(f"{p.name} reveals {got[0].name}", DIG)
        act.revealed(g, p, got)      # revealed: their when-revealed abilities (Patron 1)
    for c in found:
        act.to_hand(g, p, c, R("Adventurer", 1))
    act.discard(g, p, other, what=f"the other revealed cards ({act.names(other)})")
    return bool(found)


register(CardDef("Adventurer", Do(_adventurer), version="1"))


def _chancellor(ctx: Ctx) -> bool:
    """You may put your deck into your discard pile (this is not discarding)."""
    g, p = ctx.game, ctx.player
    if not p.deck:
        ctx.log(f"{p.name}'s deck is empty")
        return False
    if not ctx.ask(Question(p.name, "put your deck into your discard pile?", "yesno", [])):
        ctx.log(f"{p.name} keeps their deck")
        return False
    n = len(p.deck)
    for c in list(p.deck):
        g.move(c, "discard")
    ctx.log(f"{p.name} puts their deck ({n} cards) into their discard pile without looking through it "
            "(this is not discarding)", R("Chancellor", 1), R("Chancellor", 2))
    return True


register(CardDef("Chancellor", Sequence(PlusCoins(2), Do(_chancellor)), version="1"))


# ------------------------------------------------------------------ Attacks and the Reaction
def _moat_react(game, ev, p, card, unaffected) -> None:
    """When another player plays an Attack, you may reveal this from your hand, to be unaffected by it."""
    game.log.add(f"{p.name} reveals {card.name}: {ev.card.name} will not affect them", R("Moat", 1), R("Moat", 2))
    unaffected.add(p.index)


def _moat_applies(game, ev, p, card) -> bool:
    """Moat may be revealed unless this player already revealed a Moat to this Attack: a second reveal
    would change nothing (Moat 2), so the engine does not ask again (see docs/scenario-format.md). The card's
    own name: an Estate with Moat's abilities (pre-2019 Estate token) is revealed as an Estate."""
    return (p.index, card.name) not in ev.data.get("revealed", ())


register(CardDef("Moat", Draw(2), reactions={"attack": Reaction(_moat_react, applies=_moat_applies)}))

register(CardDef("Witch", Sequence(Draw(2), EachOtherPlayer(Gain("Curse", cite=narrate.CONCURRENT)))))

register(CardDef("Militia", Sequence(PlusCoins(2), EachOtherPlayer(DiscardDownTo(3, cite=R("Militia", 1))))))


def _bureaucrat_victim(ctx: Ctx) -> bool:
    """Each other player reveals a Victory card from their hand and puts it onto their deck (or reveals a hand with no Victory cards)."""
    p = ctx.player
    victory = [c for c in p.hand if c.is_type("Victory")]
    if not victory:
        ctx.log(f"{p.name} reveals a hand with no Victory cards: {act.names(p.hand)}")
        act.revealed(ctx.game, p, list(p.hand))
        return False
    chosen = ctx.ask(Question(p.name, "reveal a Victory card and put it onto your deck", "cards", victory, 1, 1))
    ctx.log(f"{p.name} reveals {chosen[0].name}")
    act.topdeck(ctx.game, p, chosen[0])
    return True


register(CardDef("Bureaucrat", Sequence(
    Gain("Silver", to="deck", cite=R("Bureaucrat", 1)),
    Do(lambda ctx: ctx.log("The other players are attacked even without a Silver gained", R("Bureaucrat", 2))
       if not ctx.last else None),
    EachOtherPlayer(Do(_bureaucrat_victim)))))


def _bandit_victim(ctx: Ctx) -> bool:
    """Each other player reveals the top 2 cards of their deck, trashes a revealed Treasure other than Copper, and discards the rest."""
    g, p = ctx.game, ctx.player
    seen = act.reveal_top(g, p, 2)
    good = [c for c in seen if c.is_type("Treasure") and c.name != "Copper"]
    if good:
        chosen = ctx.ask(Question(p.name, "trash a revealed Treasure other than Copper", "cards", good, 1, 1))
        act.trash(g, p, chosen, TRIGGERED)
    rest = [c for c in seen if c.zone == "revealed"]
    act.discard(g, p, rest, TRIGGERED, what=f"the rest ({act.names(rest)})")
    return True


register(CardDef("Bandit", Sequence(
    Gain("Gold"),
    Do(lambda ctx: ctx.log("The other players are attacked even without a Gold gained", R("Bandit", 2))
       if not ctx.last else None),
    EachOtherPlayer(Do(_bandit_victim), cite=R("Bandit", 1)))))


def _spy_each(ctx: Ctx) -> bool:
    """Each player (you first) reveals the top card of their deck, and you choose whether they discard it or put it back."""
    g, p, spy = ctx.game, ctx.player, ctx.attacker or ctx.player
    seen = act.reveal_top(g, p, 1)
    if not seen:
        return False
    c = seen[0]
    what = ctx.ask(Question(spy.name, f"{p.name}'s {c.name}: discard it or put it back?", "choice", ["discard", "put back"]))
    if what == "discard":
        act.discard(g, p, [c], R("Spy", 1))
    else:
        act.topdeck(g, p, c, quiet=True)
        who = f"{spy.name} puts" if spy is p else f"{spy.name} has {p.name} put"
        ctx.log(f"{who} {c.name} back on top of the deck", R("Spy", 1))
    return True


register(CardDef("Spy", Sequence(Draw(1), PlusActions(1), EachPlayer(Do(_spy_each))), version="1"))


def _thief(ctx: Ctx) -> bool:
    """Each other player reveals the top 2 cards of their deck and trashes a revealed Treasure you choose; you may gain any of the trashed cards; they discard the rest."""
    g, me = ctx.game, ctx.player
    victims, trashed = [], []
    for p in g.others(me):
        if p.index in ctx.unaffected:
            ctx.log(f"{p.name} is unaffected by Thief", narrate.REACTION_TO_ATTACK)
            continue
        seen = act.reveal_top(g, p, 2)
        victims.append(p)
        treasures = [c for c in seen if c.is_type("Treasure")]
        if treasures:
            chosen = ctx.ask(Question(me.name, f"choose a Treasure for {p.name} to trash", "cards", treasures, 1, 1))
            act.trash(g, p, chosen, R("Thief", 3))
            trashed += chosen
    if trashed:
        take = ctx.ask(Question(me.name, "gain any of the trashed Treasures", "cards", trashed, 0, len(trashed)))
        for c in take:
            act.gain(g, me, c, cite=R("Thief", 3))
    for p in victims:
        rest = list(p.revealed)
        act.discard(g, p, rest, TRIGGERED, what=f"the other revealed cards ({act.names(rest)})")
    return True


register(CardDef("Thief", Do(_thief), version="1"))
