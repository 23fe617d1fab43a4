"""Cornucopia & Guilds: the Kingdom cards of both boxes and Tournament's five Prizes.

Each definition follows the card's text in the card facts and cites its Card
Reference entry. Where the text or timing changed in 2022 (Doctor, Herald,
Masterpiece, Stonemason: the overpay ability; Merchant Guild; Princess) both
versions are registered, the current one as default: "2" and "1" (pre-2022).

The shared rules live in mechanisms: Coffers (``coffers``), Overpay
(``overpay``), the Prize pile (``prizes``), the Bane (``bane``), copies and
differently named cards (``copies``).

Choices where the documents leave room (also in docs/audit-cornucopia-guilds.md):
* Butcher: Coffers spent to "remodel" give no +$ (Butcher 1, 3: they are spent
  for the gain; the ones not used are saved "to spend for +$1 as normal").
* Advisor in a 1-player game: there is no player to the left, so the player
  themself chooses.
* Trusty Steed's two choices are one question whose options are the six pairs,
  done in the order printed (Trusty Steed 2).
"""
from __future__ import annotations

from itertools import combinations

from app.engine.core import activities as act
from app.engine.core import narrate
from app.engine.core.costs import lower_cost
from app.engine.core.effects import name_a_card
from app.engine.core.narrate import R
from app.engine.core.printed import coins, vp_points
from app.engine.core.costs import ReduceCosts, costs_exactly, costs_exactly_more, costs_up_to, costs_up_to_more
from app.engine.core.decisions import Question
from app.engine.core.effects import (ChooseFromHand, Ctx, DiscardDownTo, Do, Draw, EachOtherPlayer, Effect, Gain,
                                     IfYouDid, PlusActions, PlusBuys, PlusCoins, Sequence, TrashSelf,
                                     put_back_in_any_order)
from app.engine.core.registry import CardDef, Reaction, register
from app.engine.core.state import Card, Game, Player
from app.engine.core.triggers import Event
from app.engine.mechanisms import bane, coffers, copies, overpay, prizes, spending
from app.engine.mechanisms.coffers import PlusCoffers

GET_THEN_DISCARD = narrate.sec("Get from deck, then discard/put back")


def _dig(ctx: Ctx, wanted, count: int = 1, who: Player | None = None) -> tuple[list[Card], list[Card]]:
    """Reveal cards one at a time until ``count`` cards match ``wanted`` (“Dig for cards” § VI); (found, others)."""
    g, p = ctx.game, who or ctx.player
    found: list[Card] = []
    others: list[Card] = []
    while len(found) < count:
        got = act.from_deck(g, p, 1, "revealed")
        if not got:
            ctx.log(f"{p.name} runs out of cards to reveal ({len(found)} found)", narrate.DO_AS_MUCH)
            break
        c = got[0]
        ctx.log(f"{p.name} reveals {c.name}", narrate.DIG)
        act.revealed(g, p, got)      # revealed: their when-revealed abilities (Patron 1)
        (found if wanted(c) else others).append(c)
    return found, others


def _discard_rest(ctx: Ctx, cards: list[Card], p: Player | None = None, cite: dict | None = None) -> None:
    rest = [c for c in cards if c.zone == "revealed"]
    if rest:
        act.discard(ctx.game, p or ctx.player, rest, cite or narrate.DIG,
                    what=f"the other revealed cards ({act.names(rest)})")


def _into_hand(ctx: Ctx, cards: list[Card], cite: dict) -> None:
    """Put cards into the hand (not drawing them: Farming Village 2, Journeyman 3)."""
    for c in cards:
        ctx.game.move(c, "hand", owner=ctx.player.index)
    if cards:
        ctx.log(f"{ctx.player.name} puts {act.names(cards)} into their hand", cite)


def _discard_two(ctx: Ctx, cite: dict, short_cite: dict, short_note: str = "") -> bool:
    """"Discard 2 cards": as many as the hand holds, up to 2 (Do as much as you can § III)."""
    p = ctx.player
    k = min(2, len(p.hand))
    if k < 2:
        ctx.log(f"{p.name} has only {k} card{'s' if k != 1 else ''} to discard{short_note}", short_cite,
                narrate.DO_AS_MUCH)
    if k:
        chosen = ctx.ask(Question(p.name, "discard 2 cards", "cards", list(p.hand), k, k))
        act.discard(ctx.game, p, chosen, cite)
    return True


# ================================================================== Cornucopia
register(CardDef("Hamlet", Sequence(
    Draw(1), PlusActions(1),
    ChooseFromHand("discard", 0, 1, describe="a card (for +1 Action)", cite=R("Hamlet", 1)),
    IfYouDid(PlusActions(1), cite=narrate.DO_X_TO),
    ChooseFromHand("discard", 0, 1, describe="a card (for +1 Buy)", cite=R("Hamlet", 1)),
    IfYouDid(PlusBuys(1), cite=narrate.DO_X_TO))))


def _fortune_teller_victim(ctx: Ctx) -> bool:
    """Each other player reveals cards from the top of their deck until they reveal a Victory card or a Curse. They put it on top and discard the rest."""
    found, others = _dig(ctx, lambda c: c.is_type("Victory") or c.is_type("Curse"))
    _discard_rest(ctx, others, cite=R("Fortune Teller", 1))
    for c in found:
        act.topdeck(ctx.game, ctx.player, c, R("Fortune Teller", 1))
    return bool(found)


register(CardDef("Fortune Teller", Sequence(PlusCoins(coins("Fortune Teller")),
                                            EachOtherPlayer(Do(_fortune_teller_victim)))))


def _menagerie(ctx: Ctx) -> bool:
    """Reveal your hand. If the revealed cards all have different names, +3 Cards. Otherwise, +1 Card."""
    p = ctx.player
    ctx.log(f"{p.name} reveals their hand ({act.names(p.hand)})", narrate.REVEALING)
    act.revealed(ctx.game, p, list(p.hand))
    if copies.all_different(p.hand):
        ctx.log("The revealed cards all have different names" + (" (no cards at all)" if not p.hand else ""),
                R("Menagerie", 1), copies.COPIES)
        return Draw(3).apply(ctx)
    ctx.log("Some revealed cards share a name", copies.COPIES)
    return Draw(1).apply(ctx)


register(CardDef("Menagerie", Sequence(PlusActions(1), Do(_menagerie))))


def _farming_village(ctx: Ctx) -> bool:
    """Reveal cards from your deck until you reveal a Treasure or Action card. Put that card into your hand and discard the rest."""
    found, others = _dig(ctx, lambda c: c.is_type("Treasure") or c.is_type("Action"))
    _into_hand(ctx, found, R("Farming Village", 2))
    _discard_rest(ctx, others, cite=R("Farming Village", 1))
    return bool(found)


register(CardDef("Farming Village", Sequence(PlusActions(2), Do(_farming_village))))


def _harvest(ctx: Ctx) -> bool:
    """Reveal the top 4 cards of your deck, then discard them. +$1 per differently named card revealed."""
    seen = act.reveal_top(ctx.game, ctx.player, 4)
    n = copies.differently_named(seen)
    act.discard(ctx.game, ctx.player, seen, R("Harvest", 1))
    ctx.log(f"{n} differently named card{'s' if n != 1 else ''} revealed", R("Harvest", 1), copies.COPIES)
    return PlusCoins(n).apply(ctx)


register(CardDef("Harvest", Do(_harvest)))


def _horn_of_plenty(ctx: Ctx) -> bool:
    """Gain a card costing up to $1 per differently named card you have in play (counting this). If it's a Victory card, trash this."""
    p = ctx.player
    n = copies.differently_named(p.in_play)
    ctx.log(f"{p.name} has {n} differently named card{'s' if n != 1 else ''} in play ({act.names(p.in_play)})",
            R("Horn of Plenty", 1), R("Horn of Plenty", 2), narrate.CARDS_IN_PLAY)
    got = Gain(filter=lambda c2, c: costs_up_to(c, n), cite=R("Horn of Plenty", 1),
               describe=f"a card costing up to ${n}").apply(ctx)
    card = ctx.vars.get("gained")
    if not got or card is None:
        ctx.log("No card was gained, so Horn of Plenty is not trashed", R("Horn of Plenty", 6))
        return False
    if card.is_type("Victory"):
        ctx.log(f"{card.name} is a Victory card: Horn of Plenty is trashed", R("Horn of Plenty", 3))
        TrashSelf(cite=R("Horn of Plenty", 5)).apply(ctx)
    return True


register(CardDef("Horn of Plenty", Do(_horn_of_plenty)))


def _hunting_party(ctx: Ctx) -> bool:
    """Reveal your hand. Reveal cards from your deck until you reveal a card that isn't a copy of one in your hand. Put it into your hand and discard the rest."""
    p = ctx.player
    in_hand = {c.name for c in p.hand}
    ctx.log(f"{p.name} reveals their hand ({act.names(p.hand)})", narrate.REVEALING)
    act.revealed(ctx.game, p, list(p.hand))
    found, others = _dig(ctx, lambda c: c.name not in in_hand)
    _into_hand(ctx, found, R("Hunting Party", 1))
    _discard_rest(ctx, others, cite=R("Hunting Party", 1))
    return bool(found)


register(CardDef("Hunting Party", Sequence(Draw(1), PlusActions(1), Do(_hunting_party))))


def _jester_victim(ctx: Ctx) -> bool:
    """Each other player discards the top card of their deck. If it's a Victory card they gain a Curse; otherwise they gain a copy of the discarded card or you do, your choice."""
    g, p, attacker = ctx.game, ctx.player, ctx.attacker or ctx.player
    top = act.from_deck(g, p, 1, "revealed")
    if not top:
        ctx.log(f"{p.name} has no card to discard", narrate.DO_AS_MUCH)
        return False
    c = top[0]
    act.discard(g, p, [c], R("Jester", 1))
    if c.is_type("Victory"):
        act.gain(g, p, "Curse", cite=R("Jester", 1))
        return True
    who = ctx.ask(Question(attacker.name, f"who gains a copy of {c.name}?", "choice",
                           [f"{p.name} gains it", f"{attacker.name} gains it"]))
    ctx.log(f"{attacker.name} chooses: {who}", R("Jester", 2), narrate.SEVERAL_OPTIONS)
    copies.gain_copy(g, p if who.startswith(p.name + " ") else attacker, c, R("Jester", 2))
    return True


register(CardDef("Jester", Sequence(PlusCoins(coins("Jester")), EachOtherPlayer(Do(_jester_victim)))))


def _remake_once(ctx: Ctx) -> bool:
    """Trash a card from your hand, then gain a card costing exactly $1 more than it."""
    if not ChooseFromHand("trash", 1, 1, store="trashed", cite=R("Remake", 1)).apply(ctx):
        return False
    base = ctx.vars["trashed"][0]
    return Gain(filter=lambda c2, c: costs_exactly_more(c, base, 1), cite=R("Remake", 1),
                describe=f"a card costing exactly $1 more than {base.name}").apply(ctx)


register(CardDef("Remake", Sequence(Do(_remake_once), Do(_remake_once))))


# ------------------------------------------------------------------ Young Witch and the Bane
def _young_witch_victim(ctx: Ctx) -> bool:
    """Gain a Curse unless you reveal a Bane from your hand."""
    g, p = ctx.game, ctx.player
    banes = [c for c in p.hand if bane.is_bane(g, c)]
    if banes:
        shown = ctx.ask(Question(p.name, "reveal a Bane from your hand (to not gain a Curse)?", "cards", banes, 0, 1))
        if shown:
            ctx.log(f"{p.name} reveals {shown[0].name}, a Bane: no Curse", R("Young Witch", 3))
            return False
    act.gain(g, p, "Curse", cite=R("Young Witch", 3))
    return True


def _young_witch_discard(ctx: Ctx) -> bool:
    """Discard 2 cards (the other players are attacked even if you can't)."""
    return _discard_two(ctx, R("Young Witch", 1), R("Young Witch", 2), "; the other players are attacked anyway")


register(CardDef("Young Witch", Sequence(Draw(2), Do(_young_witch_discard), EachOtherPlayer(Do(_young_witch_victim)))))


# ------------------------------------------------------------------ Horse Traders
def _horse_traders_react(game: Game, ev: Event, p: Player, card: Card, unaffected: set) -> None:
    """When another player plays an Attack card, you may first set this aside from your hand; at the start of your next turn, +1 Card and return this to your hand."""
    act.set_aside(game, p, card, card, R("Horse Traders", 2))
    where = game.ref(card)

    def back(g: Game, e: Event) -> None:
        """+1 Card and return this to your hand."""
        act.draw(g, p, 1)
        if where.valid():
            act.to_hand(g, p, card, R("Horse Traders", 2))
        else:
            g.log.add(f"Horse Traders was moved meanwhile, so it is not returned to {p.name}'s hand",
                      narrate.LOSE_TRACK)

    game.log.add(f"Setting {card.name} aside does not stop {ev.player.name}'s {ev.card.name} from affecting "
                 f"{p.name}; at the start of {p.name}'s next turn: +1 Card and it returns to their hand",
                 R("Horse Traders", 2), narrate.REACTION_TO_ATTACK)
    act.set_up_later(game, p, "start_of_turn", "Horse Traders (set aside)", back, None, None, "used",
                     R("Horse Traders", 2))


def _horse_traders_discard(ctx: Ctx) -> bool:
    """Discard 2 cards (or as many as you have)."""
    return _discard_two(ctx, R("Horse Traders", 1), R("Horse Traders", 1))


register(CardDef("Horse Traders", Sequence(PlusBuys(1), PlusCoins(coins("Horse Traders")), Do(_horse_traders_discard)),
                 reactions={"attack": Reaction(_horse_traders_react,
                                               applies=lambda g, ev, p, c: c.zone == "hand")}))


# ------------------------------------------------------------------ Tournament and the Prizes
def _tournament(ctx: Ctx) -> bool:
    """Each player may reveal a Province from their hand. If you do, discard it and gain any Prize or a Duchy, onto your deck. If no-one else does, +1 Card and +$1."""
    g, me = ctx.game, ctx.player
    revealed: dict[int, Card] = {}
    for q in g.in_turn_order(me.index):
        provs = [c for c in q.hand if c.name == "Province"]
        if not provs:
            continue
        shown = ctx.ask(Question(q.name, "reveal a Province from your hand (Tournament)?", "cards", provs[:1], 0, 1))
        if shown:
            revealed[q.index] = shown[0]
            ctx.log(f"{q.name} reveals a Province", R("Tournament", 1))
        else:
            ctx.log(f"{q.name} does not reveal a Province")
    ctx.log("Every player has revealed or not before anything is gained", R("Tournament", 3))
    mine = revealed.get(me.index)
    if mine is not None:
        act.discard(g, me, [mine], R("Tournament", 1))
        what = ctx.ask(Question(me.name, "gain a Prize or a Duchy (onto your deck)?", "choice", ["a Prize", "a Duchy"]))
        ctx.log(f"{me.name} chooses {what}", R("Tournament", 2), narrate.SEVERAL_OPTIONS)
        if what == "a Prize":
            prizes.gain_prize(g, me, "deck", R("Tournament", 4))
        else:
            act.gain(g, me, "Duchy", to="deck", cite=R("Tournament", 2))
    if any(i != me.index for i in revealed):
        ctx.log("Another player revealed a Province: no +1 Card and +$1", R("Tournament", 1))
        return True
    ctx.log("No-one else revealed a Province", R("Tournament", 5))
    Draw(1).apply(ctx)
    return PlusCoins(1).apply(ctx)


register(CardDef("Tournament", Sequence(PlusActions(1), Do(_tournament)), setup=prizes.tournament_setup))
register(CardDef("Bag of Gold", Sequence(PlusActions(1), Gain("Gold", to="deck", cite=R("Bag of Gold", 1)))))


def _diadem(ctx: Ctx) -> bool:
    """+$1 per unused Action you have (Action, not Action card)."""
    # tokens that give Actions (Villagers) may be spent first (Diadem 3; Coffers and Villagers § IV)
    spending.may_spend(ctx.game, ctx.player, spending.ACTIONS, "before Diadem counts your unused Actions")
    n = ctx.game.turn.actions
    ctx.log(f"{ctx.player.name} has {n} unused Action{'s' if n != 1 else ''} in their Action pool", R("Diadem", 1))
    return PlusCoins(n).apply(ctx)


register(CardDef("Diadem", Sequence(PlusCoins(coins("Diadem")), Do(_diadem))))
register(CardDef("Followers", Sequence(
    Draw(2), Gain("Estate", cite=R("Followers", 5)),
    EachOtherPlayer(Sequence(Gain("Curse", cite=R("Followers", 4)), DiscardDownTo(3, cite=R("Followers", 1)))))))
for _v, _wip, _cite in (("2", False, R("Princess", 1)), ("1", True, R("Princess", 2))):
    register(CardDef("Princess", Sequence(PlusBuys(1), ReduceCosts(2, while_in_play=_wip, cite=_cite)), version=_v,
                     note="2022: this turn (cumulative)" if _v == "2" else "pre-2022: while in play"),
             default=_v == "2")


def _steed_silvers(ctx: Ctx) -> bool:
    """Gain 4 Silvers and put your deck into your discard pile (without looking at it)."""
    g, p = ctx.game, ctx.player
    for _ in range(4):
        act.gain(g, p, "Silver", cite=R("Trusty Steed", 1))
    deck = list(p.deck)
    for c in deck:
        g.move(c, "discard", owner=p.index)
    ctx.log(f"{p.name} puts their deck ({len(deck)} cards) into their discard pile, without looking at it; that is "
            "not discarding", R("Trusty Steed", 3), R("Trusty Steed", 4))
    return True


_STEED = {"+2 Cards": Draw(2), "+2 Actions": PlusActions(2), "+$2": PlusCoins(2), "gain 4 Silvers": Do(_steed_silvers)}


def _trusty_steed(ctx: Ctx) -> bool:
    """Choose two: +2 Cards; or +2 Actions; or +$2; or gain 4 Silvers and put your deck into your discard pile. The choices must be different."""
    pairs = [f"{a} and {b}" for a, b in combinations(_STEED, 2)]
    pick = ctx.ask(Question(ctx.player.name, "choose two (different) options", "choice", pairs))
    ctx.log(f"{ctx.player.name} chooses {pick}; they are done in the order printed", R("Trusty Steed", 1),
            R("Trusty Steed", 2))
    a, b = pick.split(" and ", 1)
    for label in _STEED:                  # the printed order, whatever order they were named in
        if label in (a, b):
            _STEED[label].apply(ctx)
    return True


register(CardDef("Trusty Steed", Do(_trusty_steed)))


# ------------------------------------------------------------------ Fairgrounds
register(CardDef("Fairgrounds", vp=lambda game, p: vp_points("Fairgrounds") * (copies.differently_named(p.all_cards()) // 5)))


# ================================================================== Guilds
register(CardDef("Candlestick Maker", Sequence(PlusActions(1), PlusBuys(1), PlusCoffers(1))))
register(CardDef("Baker", Sequence(Draw(1), PlusActions(1), PlusCoffers(1)), setup=coffers.baker_setup))
register(CardDef("Plaza", Sequence(
    Draw(1), PlusActions(2),
    ChooseFromHand("discard", 0, 1, filter=lambda ctx, c: c.is_type("Treasure"),
                   describe="a Treasure (for +1 Coffers)", cite=R("Plaza", 1)),
    IfYouDid(PlusCoffers(1), cite=narrate.DO_X_TO))))


def _advisor(ctx: Ctx) -> bool:
    """Reveal the top 3 cards of your deck. The player to your left chooses one of them. Discard that card and put the rest into your hand."""
    g, p = ctx.game, ctx.player
    seen = act.reveal_top(g, p, 3)
    if not seen:
        return False
    others = g.others(p)
    left = others[0] if others else p
    chosen = ctx.ask(Question(left.name, f"choose the card {p.name} discards", "cards", seen, 1, 1))
    ctx.log(f"{left.name}, to {p.name}'s left, chooses {chosen[0].name}" if left is not p else
            f"There is no other player: {p.name} chooses {chosen[0].name}", R("Advisor", 1))
    act.discard(g, p, chosen, R("Advisor", 2))
    _into_hand(ctx, [c for c in seen if c.zone == "revealed"], R("Advisor", 1))
    return True


register(CardDef("Advisor", Sequence(PlusActions(1), Do(_advisor))))


def _butcher(ctx: Ctx) -> bool:
    """You may trash a card from your hand, to gain a card, costing up to $1 more than it per Coffers you spend."""
    g, p = ctx.game, ctx.player
    if not ChooseFromHand("trash", 0, 1, store="trashed", describe="a card (optional, to gain a card)",
                          cite=R("Butcher", 2)).apply(ctx):
        return False
    base = ctx.vars["trashed"][0]
    have = coffers.coffers(p)
    n = 0
    if have:
        n = int(ctx.ask(Question(p.name, f"how many Coffers to spend (0 to {have})?", "choice",
                                 [str(i) for i in range(have + 1)])))
    coffers.remove_coffers(g, p, n, f"for Butcher: a card costing up to ${n} more than {base.name}", R("Butcher", 1))
    if n == 0:
        ctx.log(f"{p.name} spends no Coffers", R("Butcher", 4))
    return Gain(filter=lambda c2, c: costs_up_to_more(c, base, n), cite=R("Butcher", 1),
                describe=f"a card costing up to ${base.cost + n}").apply(ctx)


register(CardDef("Butcher", Sequence(PlusCoffers(2, cite=R("Butcher", 3)), Do(_butcher))))


def _journeyman(ctx: Ctx) -> bool:
    """Name a card. Reveal cards from your deck until you reveal 3 cards without that name. Put those cards into your hand and discard the rest."""
    named = name_a_card(ctx, ctx.player, "Journeyman")
    found, others = _dig(ctx, lambda c: c.name != named, 3)
    _into_hand(ctx, found, R("Journeyman", 3))
    _discard_rest(ctx, others, cite=R("Journeyman", 2))
    return bool(found)


register(CardDef("Journeyman", Do(_journeyman)))


def _taxman(ctx: Ctx) -> bool:
    """You may trash a Treasure from your hand. Each other player with 5 or more cards in hand discards a copy of it (or reveals they can't). Gain a Treasure onto your deck costing up to $3 more than it."""
    g, p = ctx.game, ctx.player
    if not ChooseFromHand("trash", 0, 1, filter=lambda c2, c: c.is_type("Treasure"), store="trashed",
                          describe="a Treasure (optional)", cite=R("Taxman", 1)).apply(ctx):
        return False
    base = ctx.vars["trashed"][0]

    def victim(vctx: Ctx) -> bool:
        """With 5 or more cards in hand, discard a copy of it (or reveal you can't)."""
        q = vctx.player
        if len(q.hand) < 5:
            vctx.log(f"{q.name} has {len(q.hand)} cards in hand, fewer than 5: not affected")
            return False
        same = [c for c in q.hand if copies.is_copy(c, base)]
        if not same:
            vctx.log(f"{q.name} reveals their hand ({act.names(q.hand)}): no {base.name}", R("Taxman", 3))
            act.revealed(ctx.game, q, list(q.hand))
            return False
        act.discard(g, q, same[:1], R("Taxman", 3))
        return True

    EachOtherPlayer(Do(victim)).apply(ctx)
    return Gain(filter=lambda c2, c: c.is_type("Treasure") and costs_up_to_more(c, base, 3), to="deck",
                cite=R("Taxman", 2), describe=f"a Treasure costing up to ${base.cost + 3}").apply(ctx)


register(CardDef("Taxman", Do(_taxman)))


def _soothsayer_victim(ctx: Ctx) -> bool:
    """Each other player gains a Curse, and if they did, draws a card."""
    got = act.gain(ctx.game, ctx.player, "Curse", cite=R("Soothsayer", 1))
    if got is None:
        ctx.log(f"{ctx.player.name} did not gain a Curse, so draws no card", R("Soothsayer", 1))
        return False
    return Draw(1).apply(ctx)


register(CardDef("Soothsayer", Sequence(Gain("Gold", cite=R("Soothsayer", 2)),
                                        EachOtherPlayer(Do(_soothsayer_victim), cite=R("Soothsayer", 3)))))


# ------------------------------------------------------------------ Merchant Guild
def _merchant_guild_2022(ctx: Ctx) -> bool:
    """At the end of your Buy phase this turn, +1 Coffers per card you gained in it."""
    p = ctx.player

    def run(g: Game, ev: Event) -> None:
        """+1 Coffers per card gained in the Buy phase that just ended."""
        n = len(g.turn.gained_in_buy)
        g.log.add(f"End of {p.name}'s Buy phase: {n} card{'s' if n != 1 else ''} gained in it "
                  f"({act.names(g.turn.gained_in_buy)})", R("Merchant Guild", 1))
        coffers.add_coffers(g, p, n, R("Merchant Guild", 1), " from Merchant Guild")

    act.set_up_later(ctx.game, p, "end_of_buy_phase", "Merchant Guild's ability", run, None, None, "end_of_turn",
                     R("Merchant Guild", 1))
    return True


def _merchant_guild_buy(game: Game, ev: Event, card: Card) -> None:
    """While this is in play, when you buy a card, +1 Coffers."""
    if card.owner is not None and ev.player.index != card.owner:
        return
    coffers.add_coffers(game, ev.player, 1, R("Merchant Guild", 4, "pre-2022"), f" for buying {ev.card.name}")


register(CardDef("Merchant Guild", Sequence(PlusBuys(1), PlusCoins(coins("Merchant Guild")), Do(_merchant_guild_2022)),
                 version="2", note="2022: at the end of your Buy phase, +1 Coffers per card gained in it"))
register(CardDef("Merchant Guild", Sequence(PlusBuys(1), PlusCoins(coins("Merchant Guild"))), version="1",
                 while_in_play={"when_buy": _merchant_guild_buy},
                 note="pre-2022: while in play, when you buy a card, +1 Coffers"), default=False)


# ------------------------------------------------------------------ the overpay cards
def _masterpiece_overpay(game: Game, p: Player, card: Card, n: int) -> None:
    """Gain a Silver per $1 overpaid."""
    for _ in range(n):
        act.gain(game, p, "Silver", cite=R("Masterpiece", 1))


def _stonemason_overpay(game: Game, p: Player, card: Card, n: int) -> None:
    """Gain 2 Action cards each costing the amount overpaid."""
    ctx = Ctx(game, p, card)
    if overpay.with_potion(game):
        # overpaying a Potion too: Action cards costing exactly $n and a Potion (Stonemason 2)
        def costs(c: Card) -> bool:
            return c.cost == n and bool(c.facts.cost_potion) and not c.facts.cost_debt
        what, cite = f"${n} and a Potion", R("Stonemason", 2)
    else:
        def costs(c: Card) -> bool:
            return costs_exactly(c, n)
        what, cite = f"${n}", R("Stonemason", 7)
    for _ in range(2):      # each chosen and gained in turn (Stonemason 7)
        Gain(filter=lambda c2, c: c.is_type("Action") and costs(c), cite=cite,
             describe=f"an Action card costing exactly {what}").apply(ctx)


def _doctor_overpay(game: Game, p: Player, card: Card, n: int) -> None:
    """Per $1 overpaid, look at the top card of your deck; trash it, discard it, or put it back."""
    ctx = Ctx(game, p, card)
    for i in range(n):
        seen = act.reveal_top(game, p, 1, verb="looks at")
        if not seen:
            return
        c = seen[0]
        what = ctx.ask(Question(p.name, f"{c.name} (look {i + 1} of {n}): trash it, discard it, or put it back?",
                                "choice", ["trash", "discard", "put back"]))
        if what == "trash":
            act.trash(game, p, [c], R("Doctor", 3))
        elif what == "discard":
            act.discard(game, p, [c], R("Doctor", 3))
        else:
            act.topdeck(game, p, c, quiet=True)
            game.log.add(f"{p.name} puts {c.name} back on their deck", R("Doctor", 3))


def _herald_overpay(game: Game, p: Player, card: Card, n: int) -> None:
    """Per $1 overpaid, put any card from your discard pile onto your deck."""
    ctx = Ctx(game, p, card)
    k = min(n, len(p.discard))
    if k == 0:
        game.log.add(f"{p.name}'s discard pile is empty: nothing to put onto the deck", narrate.DO_AS_MUCH)
        return
    chosen = ctx.ask(Question(p.name, f"look through your discard pile: choose {k} card{'s' if k != 1 else ''} to "
                              "put onto your deck", "cards", list(p.discard), k, k))
    put_back_in_any_order(ctx, chosen, R("Herald", 2), "put them onto your deck: top card first",
                          "puts from their discard pile onto their deck:")


def _doctor(ctx: Ctx) -> bool:
    """Name a card. Reveal the top 3 cards of your deck. Trash the matches. Put the rest back in any order."""
    g, p = ctx.game, ctx.player
    named = name_a_card(ctx, p, "Doctor")
    seen = act.reveal_top(g, p, 3)
    act.trash(g, p, [c for c in seen if c.name == named], R("Doctor", 1))
    rest = [c for c in seen if c.zone == "revealed"]
    put_back_in_any_order(ctx, rest, R("Doctor", 2))
    return True


def _herald(ctx: Ctx) -> bool:
    """Reveal the top card of your deck. If it's an Action, play it."""
    g, p = ctx.game, ctx.player
    seen = act.reveal_top(g, p, 1)
    if not seen:
        return False
    c = seen[0]
    if c.is_type("Action"):
        ctx.log(f"{c.name} is an Action: {p.name} plays it (not optional, no Action used)", R("Herald", 1))
        act.play(g, p, c)
        return True
    act.topdeck(g, p, c, quiet=True)
    ctx.log(f"{c.name} is not an Action: it stays on top of the deck", R("Herald", 1))
    return False


def _stonemason(ctx: Ctx) -> bool:
    """Trash a card from your hand. Gain 2 cards each costing less than it."""
    if not ChooseFromHand("trash", 1, 1, store="trashed", cite=R("Stonemason", 1)).apply(ctx):
        return False
    base = ctx.vars["trashed"][0]
    for _ in range(2):
        Gain(filter=lambda c2, c: lower_cost(c, base), cite=R("Stonemason", 7),
             describe=f"a card costing less than {base.name}").apply(ctx)
    return True


_OVERPAY_CARDS: dict[str, tuple[Effect | None, object, dict, dict]] = {
    # name: (play, overpay effect, 2022 citation, pre-2022 citation)
    "Masterpiece": (PlusCoins(coins("Masterpiece")), _masterpiece_overpay, R("Masterpiece", 1), R("Masterpiece", 2)),
    "Stonemason": (Do(_stonemason), _stonemason_overpay, R("Stonemason", 3), R("Stonemason", 4)),
    "Doctor": (Do(_doctor), _doctor_overpay, R("Doctor", 4), R("Doctor", 8, "pre-2022")),
    "Herald": (Sequence(Draw(1), PlusActions(1), Do(_herald)), _herald_overpay, R("Herald", 3), R("Herald", 4)),
}
for _name, (_play, _fx, _new, _old) in _OVERPAY_CARDS.items():
    register(CardDef(_name, _play, version="2", hooks={"when_gain": overpay.when_gain(_fx, _new)},
                     note="2022: you overpay when paying; the overpay ability is a when-gain ability"))
    register(CardDef(_name, _play, version="1", hooks={"when_buy": overpay.when_buy(_fx, _old)},
                     note="pre-2022: overpaying is a when-buy ability"), default=False)
