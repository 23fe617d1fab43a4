"""Hinterlands, both editions: the 26 first-edition Kingdom cards and the 9 of the 2022 second edition.

Each definition follows the card's text in the card facts and cites its Card
Reference entry; coin amounts are read from the card facts' text. Where a card
changed (Haggler 2022, Highway 2022, Farmland 2022, Trader 2020), both versions
are registered, the current one as default: "2" and "1" (the earlier one).

Choices where the documents leave room (also listed in the engineer's report):
* Develop's "in either order" is one question before the first gain
  ("$1 more first" / "$1 less first"); each card is then chosen when gained (Develop 3).
* Trader (pre-2020) is not offered when the card about to be gained is itself a
  Silver: replacing a Silver by a Silver changes nothing, and offering it would
  ask the same question forever.
* Nomad Camp is written as a when-would-gain replacement of the destination:
  only a gain to the discard pile becomes a gain to the deck (Nomad Camp 1-2).
* Scheme asks, for each Action card discarded from play, whether to put it
  onto the deck; one card per Scheme ability (Scheme 1, 5).
* +Actions/+Buys/+$ of a card played on another player's turn (Guard Dog,
  Trail, Weaver) and Nomads' +$2 on another player's turn are dropped, not
  given to the current player (Effects when it's not your turn § VI).
"""
from __future__ import annotations

import re

from app.engine.core import activities as act
from app.engine.core import narrate
from app.engine.mechanisms import ongoing
from app.engine.mechanisms import reactions as rx
from app.engine.core.narrate import R
from app.engine.core.printed import coins, vp_points
from app.engine.core.costs import ReduceCosts, costs_exactly_more, costs_up_to, costs_up_to_more, lower_cost
from app.engine.core.decisions import Question
from app.engine.core.effects import (ChooseFromHand, ChooseOne, Ctx, DiscardDownTo, Do, Draw, EachOtherPlayer, EachPlayer,
                                Effect, Gain, IfYouDid, May, PlusActions, PlusBuys, PlusCoins, Sequence, put_back_in_any_order, TrashForCost)
from app.engine.core.registry import CardDef, Reaction, register
from app.engine.core.state import Card, Game, Player, card_facts
from app.engine.core.triggers import Event

TRIGGERED = narrate.TRIGGERED
GAIN_ON_GAIN = narrate.sec("Gain on when-gain")
GAIN_ON_BUY = narrate.sec("Gain on when-buy")
GAIN_TO = narrate.GAIN_TO
CARD_COSTS = narrate.CARD_COSTS
LOOK_DISCARD = narrate.sec("Reveal / look at cards and discard/trash/play")
SEVERAL = narrate.SEVERAL_OPTIONS
DO_X_TO = narrate.DO_X_TO
REVEAL = narrate.REVEALING


def _stored(ctx: Ctx, key: str) -> list[Card]:
    v = ctx.vars.get(key)
    return v if isinstance(v, list) else ([v] if v is not None else [])


def _amounts(name: str) -> list[int]:
    """Every "$N" printed on the card, in order (Fool's Gold: +$1, otherwise +$4)."""
    return [int(x) for x in re.findall(r"\$(\d+)", card_facts(name).text)]


def hook(effect: Effect):
    """A when-gain / when-buy / when-trash ability of the card itself, resolved by the player the event is about."""
    def run(game: Game, ev: Event, card: Card) -> None:
        effect.apply(Ctx(game, ev.player, card, None, {"event": ev}))
    return run


def _treasure(ctx: Ctx, c: Card) -> bool:
    return c.is_type("Treasure")


# ------------------------------------------------------------------ simple cards
register(CardDef("Oasis", Sequence(Draw(1), PlusActions(1), PlusCoins(coins("Oasis"), cite=R("Oasis", 2)),
                                   ChooseFromHand("discard", 1, 1, cite=R("Oasis", 1)))))
register(CardDef("Margrave", Sequence(Draw(3), PlusBuys(1),
                                      EachOtherPlayer(Sequence(Draw(1), DiscardDownTo(3, cite=R("Margrave", 1)))))))
register(CardDef("Silk Road", vp=lambda game, p: sum(1 for c in p.all_cards() if c.is_type("Victory")) // 4))
register(CardDef("Stables", Sequence(
    ChooseFromHand("discard", 0, 1, filter=_treasure, describe="a Treasure (for +3 Cards and +1 Action)"),
    IfYouDid(Sequence(Draw(3), PlusActions(1)), cite=R("Stables", 1)))))
register(CardDef("Spice Merchant", Sequence(
    ChooseFromHand("trash", 0, 1, filter=_treasure, describe="a Treasure (to choose one)", cite=R("Spice Merchant", 1)),
    IfYouDid(ChooseOne({"+2 Cards and +1 Action": Sequence(Draw(2), PlusActions(1)),
                        "+1 Buy and +$2": Sequence(PlusBuys(1), PlusCoins(2))}), cite=R("Spice Merchant", 2)))))


def _tunnel(game: Game, ev: Event, card: Card) -> None:
    """When you discard this other than during Clean-up, you may reveal it to gain a Gold."""
    p = ev.player
    if not rx.outside_cleanup(game):
        return
    if not rx.ask(game, p, "reveal Tunnel to gain a Gold?"):
        game.log.add(f"{p.name} does not reveal Tunnel")
        return
    game.log.add(f"{p.name} reveals the discarded Tunnel", R("Tunnel", 2), rx.WHEN_DISCARD_THIS)
    act.gain(game, p, "Gold", cite=R("Tunnel", 1))


register(CardDef("Tunnel", vp=vp_points("Tunnel"), hooks={"when_discard": rx.unless_cleanup(_tunnel)}))


# ------------------------------------------------------------------ Crossroads, Fool's Gold: "the first time"
def _crossroads(ctx: Ctx) -> bool:
    """Reveal your hand: +1 Card per Victory card revealed; +3 Actions only for the first Crossroads played this turn."""
    p, g = ctx.player, ctx.game
    n = sum(1 for c in p.hand if c.is_type("Victory"))
    ctx.log(f"{p.name} reveals their hand ({act.names(p.hand)}): {n} Victory card{'s' if n != 1 else ''}", REVEAL)
    act.revealed(ctx.game, p, list(p.hand))
    act.draw(g, p, n)
    plays = g.turn.played["Crossroads"]
    if plays == 1:
        PlusActions(3).apply(ctx)
    else:
        ctx.log(f"This is play {plays} of a Crossroads this turn, not the first: no +3 Actions", R("Crossroads", 1))
    return True


register(CardDef("Crossroads", Do(_crossroads)))

_FIRST, _LATER = _amounts("Fool's Gold")[:2]


def _fools_gold(ctx: Ctx) -> bool:
    """+$1 if this is the first time you played a Fool's Gold this turn, otherwise +$4."""
    n = ctx.game.turn.played["Fool's Gold"]
    if n == 1:
        return PlusCoins(_FIRST).apply(ctx)
    ctx.log(f"Not the first Fool's Gold played this turn (play {n})", R("Fool's Gold", 5))
    return PlusCoins(_LATER).apply(ctx)


def _fools_gold_react(game: Game, ev: Event, p: Player, card: Card) -> None:
    """When another player gains a Province, you may trash this from your hand, to gain a Gold onto your deck."""
    if card.zone != "hand":
        return
    if not rx.ask(game, p, f"trash Fool's Gold to gain a Gold onto your deck ({ev.player.name} gained a Province)?"):
        game.log.add(f"{p.name} keeps Fool's Gold")
        return
    act.trash(game, p, [card], R("Fool's Gold", 1))   # trashed as a Reaction (1); 2 is about several of them
    act.gain(game, p, "Gold", to="deck", cite=R("Fool's Gold", 1))


register(CardDef("Fool's Gold", Do(_fools_gold),
                 reactions={"when_gain": Reaction(_fools_gold_react,
                                                  applies=rx.another_gains(lambda c: c.name == "Province"))}))


# ------------------------------------------------------------------ trash-for-benefit
def _develop(ctx: Ctx) -> bool:
    """Gain a card costing exactly $1 more and one costing exactly $1 less than the trashed card, onto your deck, in either order."""
    t = _stored(ctx, "trashed")
    if not t:
        return False
    base = t[0]
    first = ctx.ask(Question(ctx.player.name, "which card to gain first (onto your deck)?", "choice",
                             ["$1 more first", "$1 less first"]))
    order = (1, -1) if first == "$1 more first" else (-1, 1)
    for d in order:
        word = "more" if d > 0 else "less"
        if base.cost + d < 0:
            ctx.log(f"{base.name} costs $0: there is no card costing $1 less", R("Develop", 1))
            continue
        Gain(filter=lambda c2, c, d=d: costs_exactly_more(c, base, d), to="deck", cite=R("Develop", 2),
             describe=f"a card costing exactly $1 {word} than {base.name}").apply(ctx)
    return True


register(CardDef("Develop", Sequence(ChooseFromHand("trash", 1, 1, store="trashed", cite=R("Develop", 1)),
                                     IfYouDid(Do(_develop)))))


def _trader_silvers(ctx: Ctx, card: Card, n: int) -> bool:
    """Gain a Silver per $1 the trashed card costs."""
    ctx.log(f"{card.name} costs ${n} now: {n} Silver{'s' if n != 1 else ''}", R("Trader", 1))
    for _ in range(n):
        act.gain(ctx.game, ctx.player, "Silver")
    return True


_trader_play = TrashForCost(_trader_silvers)


def _trader_exchange(game: Game, ev: Event, p: Player, card: Card) -> None:
    """When you gain a card, you may reveal this from your hand, to exchange the card for a Silver."""
    gained = ev.card
    if card.zone != "hand":
        return
    if not ongoing.still_there(ev):
        game.log.add(f"{gained.name} has already been moved, so Trader cannot exchange it", narrate.LOSE_TRACK,
                     R("Trader", 5))
        return
    if not rx.ask(game, p, f"reveal Trader to exchange the gained {gained.name} for a Silver?"):
        game.log.add(f"{p.name} does not reveal Trader")
        return
    game.log.add(f"{p.name} reveals Trader", R("Trader", 2))
    if rx.exchange(game, p, gained, "Silver", R("Trader", 4)):
        game.log.add(f"{p.name} did gain {gained.name} (its when-gain abilities still happen), but did not gain "
                     "the Silver", R("Trader", 6))


def _trader_instead(game: Game, ev: Event, p: Player, card: Card) -> None:
    """When you would gain a card, you may reveal this from your hand, to gain a Silver instead."""
    if card.zone != "hand" or ev.data.get("replaced"):
        return
    if not rx.ask(game, p, f"reveal Trader to gain a Silver instead of {ev.card.name}?"):
        game.log.add(f"{p.name} does not reveal Trader")
        return
    game.log.add(f"{p.name} reveals Trader", R("Trader", 13, "pre-2020"))
    rx.replace_gain(game, ev, p, "Silver", R("Trader", 14, "pre-2020"))


register(CardDef("Trader", _trader_play, version="2",
                 reactions={"when_gain": Reaction(_trader_exchange, applies=ongoing.watch_gains)},
                 note="2020: when-gain, exchanges the gained card for a Silver"))
register(CardDef("Trader", _trader_play, version="1",
                 reactions={"when_would_gain": Reaction(
                     _trader_instead, applies=lambda g, ev, p, c: ev.player is p and c.zone == "hand"
                     and ev.card is not None and ev.card.name != "Silver")},
                 note="pre-2020: when you would gain a card, gain a Silver instead"), default=False)


def _jack(ctx: Ctx) -> bool:
    """Look at the top card of your deck, you may discard it; draw until you have 5 cards in hand; you may trash a non-Treasure from your hand."""
    g, p = ctx.game, ctx.player
    seen = act.reveal_top(g, p, 1, verb="looks at")
    if seen:
        c = seen[0]
        if rx.ask(g, p, f"discard {c.name} from the top of your deck?"):
            act.discard(g, p, [c], R("Jack of All Trades", 1))
        else:
            act.topdeck(g, p, c, quiet=True)
            ctx.log(f"{p.name} puts {c.name} back on their deck")
    act.draw_to(g, p, 5)
    ChooseFromHand("trash", 0, 1, filter=lambda cx, c: not c.is_type("Treasure"),
                   describe="a non-Treasure card (optional)", cite=R("Jack of All Trades", 2)).apply(ctx)
    return True


register(CardDef("Jack of All Trades", Sequence(Gain("Silver"), Do(_jack))))


def _cartographer(ctx: Ctx) -> bool:
    """Look at the top 4 cards of your deck; discard any number of them, then put the rest back in any order."""
    g, p = ctx.game, ctx.player
    seen = act.reveal_top(g, p, 4, verb="looks at")
    if not seen:
        return False
    out = ctx.ask(Question(p.name, "discard any number of the cards looked at", "cards", seen, 0, len(seen)))
    act.discard(g, p, out, R("Cartographer", 1), what=act.names(out) if out else "")
    rest = [c for c in seen if c.zone == "revealed"]
    if rest:
        put_back_in_any_order(ctx, rest, R("Cartographer", 1), "put the rest back: order them, top card first")
    return True


register(CardDef("Cartographer", Sequence(Draw(1), PlusActions(1), Do(_cartographer))))


# ------------------------------------------------------------------ Duchess (and Duchy in games using it)
def _duchess_look(ctx: Ctx) -> bool:
    """Look at the top card of your deck; you may discard it (or put it back)."""
    g, p = ctx.game, ctx.player
    seen = act.reveal_top(g, p, 1, verb="looks at")
    if not seen:
        return False
    c = seen[0]
    if rx.ask(g, p, f"discard {c.name} from the top of your deck (Duchess)?"):
        act.discard(g, p, [c], R("Duchess", 1))
    else:
        act.topdeck(g, p, c, quiet=True)
        ctx.log(f"{p.name} puts {c.name} back", R("Duchess", 1))
    return True


def _duchess_setup(game: Game) -> None:
    """In games using Duchess, Duchy has its when-gain ability (Duchess 2)."""
    game.versions.setdefault("Duchy", "Duchess")


def _duchy_gains_duchess(game: Game, ev: Event, card: Card) -> None:
    """When you gain a Duchy, you may gain a Duchess."""
    p = ev.player
    if not game.supply.get("Duchess"):
        return
    if rx.ask(game, p, "gain a Duchess (you gained a Duchy)?"):
        act.gain(game, p, "Duchess", cite=R("Duchess", 2))


register(CardDef("Duchess", Sequence(PlusCoins(coins("Duchess")), EachPlayer(Do(_duchess_look))),
                 setup=_duchess_setup))
register(CardDef("Duchy", vp=vp_points("Duchy"), version="Duchess", hooks={"when_gain": _duchy_gains_duchess},
                 note="in games using Duchess: when you gain a Duchy, you may gain a Duchess"), default=False)


# ------------------------------------------------------------------ when-gain cards
def _border_village(ctx: Ctx) -> bool:
    """When you gain this, gain a cheaper card."""
    bv = ctx.source
    limit = bv.cost - 1
    ctx.log(f"{bv.name} costs ${bv.cost} now: a card costing less (no Potion or Debt)", R("Border Village", 1),
            CARD_COSTS)
    return Gain(filter=lambda c2, c: costs_up_to(c, limit), cite=R("Border Village", 2),
                describe=f"a card costing less than ${bv.cost}").apply(ctx)


register(CardDef("Border Village", Sequence(Draw(1), PlusActions(2)),
                 hooks={"when_gain": hook(Do(_border_village))}))
register(CardDef("Cache", PlusCoins(coins("Cache")),
                 hooks={"when_gain": hook(Sequence(Gain("Copper", cite=R("Cache", 1)),
                                                   Gain("Copper", cite=R("Cache", 1))))}))


def _each_other_gains(name: str, cite: dict):
    def run(ctx: Ctx) -> bool:
        """Each other player gains one, in turn order from the current player (skipping the gainer)."""
        for q in rx.others_from_current(ctx.game, ctx.player):
            act.gain(ctx.game, q, name, cite=cite)
        return True
    return run


register(CardDef("Embassy", Sequence(Draw(5), ChooseFromHand("discard", 3, 3, cite=R("Embassy", 1), describe="3 cards")),
                 hooks={"when_gain": hook(Do(_each_other_gains("Silver", R("Embassy", 3))))}))
register(CardDef("Ill-Gotten Gains", Sequence(
    PlusCoins(coins("Ill-Gotten Gains")),
    May(Gain("Copper", to="hand", cite=R("Ill-Gotten Gains", 1)), "gain a Copper to your hand?")),
    hooks={"when_gain": hook(Do(_each_other_gains("Curse", R("Ill-Gotten Gains", 5))))}))


def _farmland(exclude_self: bool, cite: dict):
    def gain_more(ctx: Ctx) -> bool:
        """Gain a card costing exactly $2 more than the trashed card (2022: not a Farmland)."""
        t = _stored(ctx, "trashed")
        if not t:
            return False
        base = t[0]
        return Gain(filter=lambda c2, c: costs_exactly_more(c, base, 2) and not (exclude_self and c.name == "Farmland"),
                    cite=cite, describe=f"a {'non-Farmland ' if exclude_self else ''}card costing exactly $2 more "
                    f"than {base.name}").apply(ctx)
    return Sequence(ChooseFromHand("trash", 1, 1, store="trashed", cite=cite), IfYouDid(Do(gain_more)))


register(CardDef("Farmland", vp=vp_points("Farmland"), version="2",
                 hooks={"when_gain": hook(_farmland(True, R("Farmland", 1)))},
                 note="2022: when you gain this (not another Farmland)"))
_farmland_old_run = hook(_farmland(False, R("Farmland", 2)))


def _farmland_old(game: Game, ev: Event, card: Card) -> None:
    """When you buy this, trash a card from your hand and gain a card costing exactly $2 more than it (even a Farmland)"""
    _farmland_old_run(game, ev, card)


register(CardDef("Farmland", vp=vp_points("Farmland"), version="1",
                 hooks={"when_buy": _farmland_old},
                 note="pre-2022: when you buy this"), default=False)


def _inn_gain(ctx: Ctx) -> bool:
    """Reveal any number of Action cards from your discard pile and shuffle them into your deck."""
    g, p = ctx.game, ctx.player
    actions = [c for c in p.discard if c.is_type("Action")]
    chosen = ctx.ask(Question(p.name, "reveal Action cards from your discard pile to shuffle into your deck",
                              "cards", actions, 0, len(actions))) if actions else []
    for c in chosen:
        g.move(c, "deck")
    act.shuffle_deck(g, p)
    ctx.log(f"{p.name} reveals {act.names(chosen)} from their discard pile and shuffles "
            f"{'them' if chosen else 'nothing'} into their deck (the deck is shuffled: {len(p.deck)} cards)",
            R("Inn", 4) if not chosen else R("Inn", 2))
    if ctx.source in chosen:
        ctx.log("Inn itself was shuffled into the deck: other abilities lose track of it", R("Inn", 3))
    return True


register(CardDef("Inn", Sequence(Draw(2), PlusActions(2), ChooseFromHand("discard", 2, 2, cite=R("Inn", 1), describe="2 cards")),
                 hooks={"when_gain": hook(Do(_inn_gain))}))


def _mandarin_gain(ctx: Ctx) -> bool:
    """Put all Treasures you have in play onto your deck in any order."""
    p = ctx.player
    ts = [c for c in p.in_play if c.is_type("Treasure")]
    if not ts:
        ctx.log(f"{p.name} has no Treasures in play", R("Mandarin", 3))
        return False
    put_back_in_any_order(ctx, ts, R("Mandarin", 3), "put your Treasures in play onto your deck: top card first",
                          "puts from play onto their deck:")
    return True


register(CardDef("Mandarin", Sequence(PlusCoins(coins("Mandarin"), cite=R("Mandarin", 1)),
                                      ChooseFromHand("topdeck", 1, 1, cite=R("Mandarin", 1))),
                 hooks={"when_gain": hook(Do(_mandarin_gain))}))


def _souk(ctx: Ctx) -> bool:
    """+$7, then -$1 per card in your hand (the money pool never goes below $0)."""
    t, p = ctx.game.turn, ctx.player
    t.coins += coins("Souk")
    t.coins = max(0, t.coins - len(p.hand))
    ctx.log(f"+${coins('Souk')}, -$1 for each of the {len(p.hand)} cards in hand ({narrate.pool(t)})",
            R("Souk", 1), R("Souk", 2))
    return True


register(CardDef("Souk", Sequence(PlusBuys(1), Do(_souk)),
                 hooks={"when_gain": hook(ChooseFromHand("trash", 0, 2, describe="up to 2 cards",
                                                         cite=R("Souk", 5)))}))


def _nomads(game: Game, ev: Event, card: Card) -> None:
    """+$2 (of no use on another player's turn)."""
    p = ev.player
    if p.index != game.turn.player:
        game.log.add(f"Nomads gives {p.name} +$2, of no use on another player's turn", R("Nomads", 2),
                     rx.NOT_YOUR_TURN)
        return
    n = coins("Nomads")
    game.turn.coins += n
    game.log.add(f"+${n} for {'gaining' if ev.kind == 'when_gain' else 'trashing'} Nomads ("
                 f"{narrate.pool(game.turn)})", R("Nomads", 1) if ev.kind == "when_trash" else TRIGGERED)


register(CardDef("Nomads", Sequence(PlusBuys(1), PlusCoins(coins("Nomads"))),
                 hooks={"when_gain": _nomads, "when_trash": _nomads}))


def _nomad_camp(game: Game, ev: Event, card: Card) -> None:
    """This is gained onto your deck (instead of to your discard pile)."""
    if ev.data.get("to") == "discard":
        ev.data["to"] = "deck"
        game.log.add("Nomad Camp is gained onto the deck instead of to the discard pile", R("Nomad Camp", 1))


register(CardDef("Nomad Camp", Sequence(PlusBuys(1), PlusCoins(coins("Nomad Camp"))),
                 hooks={"when_would_gain": _nomad_camp}))


# ------------------------------------------------------------------ Haggler, Highway
def _haggler_gain(cite: dict):
    def run(game: Game, ev: Event) -> None:
        """Gain a non-Victory card costing less than the bought card (its cost now)."""
        base = ev.card
        game.log.add(f"Haggler: {base.name} costs ${base.cost} now; gain a cheaper non-Victory card", cite,
                     CARD_COSTS)
        ctx = Ctx(game, ev.player, None)
        Gain(filter=lambda c2, c: lower_cost(c, base) and not c.is_type("Victory"), cite=cite,
             describe=f"a non-Victory card costing less than ${base.cost}").apply(ctx)
    return run


def _haggler_2022(ctx: Ctx) -> bool:
    """This turn, when you gain a card, if you bought it, gain a cheaper non-Victory card."""
    ongoing.set_up_this_turn(ctx.game, ctx.player, "when_gain", "Haggler's ability", _haggler_gain(R("Haggler", 1)),
                             condition=lambda g, ev: ongoing.bought(g, ev.card), cite=R("Haggler", 2))
    return True


register(CardDef("Haggler", Sequence(PlusCoins(coins("Haggler")), Do(_haggler_2022)), version="2",
                 note="2022: this turn, when you gain a card you bought, gain a cheaper non-Victory card"))
def _haggler_on_buy(game: Game, ev: Event, card: Card) -> None:
    """When you buy a card, gain a cheaper non-Victory card."""
    _haggler_gain(R("Haggler", 9, "pre-2022"))(game, ev)


register(CardDef("Haggler", PlusCoins(coins("Haggler")), version="1",
                 while_in_play={"when_buy": ongoing.while_mine(_haggler_on_buy)},
                 note="pre-2022: while in play, when you buy a card, gain a cheaper non-Victory card"),
         default=False)

for _v, _wip, _cite in (("2", False, R("Highway", 1)), ("1", True, R("Highway", 2))):
    register(CardDef("Highway", Sequence(Draw(1), PlusActions(1), ReduceCosts(1, while_in_play=_wip, cite=_cite)),
                     version=_v, note="2022: this turn (cumulative)" if _v == "2" else "pre-2022: while in play"),
             default=_v == "2")


# ------------------------------------------------------------------ Scheme
def _scheme(ctx: Ctx) -> bool:
    """This turn, you may put one of your Action cards onto your deck when you discard it from play."""
    g, p = ctx.game, ctx.player

    def cond(game: Game, ev: Event) -> bool:
        """An Action card of yours discarded from play."""
        return ev.data.get("from") == "in_play" and ev.card.is_type("Action") and ev.card.zone == "discard"

    def run(game: Game, ev: Event) -> None:
        """You may put it onto your deck (once per Scheme ability)."""
        card = ev.card
        if card.zone != "discard":
            return          # another Scheme ability put it onto the deck already
        if not rx.ask(game, p, f"put {card.name} onto your deck as it is discarded from play (Scheme)?"):
            return
        act.topdeck(game, p, card, R("Scheme", 1))
        if mine in game.later:
            game.later.remove(mine)       # each Scheme ability puts one card onto the deck

    act.set_up_later(g, p, "when_discard", "Scheme's ability", run, None, cond, "end_of_turn", R("Scheme", 1))
    mine = g.later[-1]
    return True


register(CardDef("Scheme", Sequence(Draw(1), PlusActions(1), Do(_scheme))))


# ------------------------------------------------------------------ Attacks
def _noble_brigand_victim(ctx: Ctx) -> bool:
    """Reveal the top 2 cards; trash a revealed Silver or Gold the attacker chooses, discard the rest, gain a Copper if no Treasure was revealed; the attacker gains the trashed card."""
    g, p, attacker = ctx.game, ctx.player, ctx.attacker
    seen = act.reveal_top(g, p, 2)
    loot = [c for c in seen if c.name in ("Silver", "Gold")]
    taken = []
    if loot:
        taken = ctx.ask(Question(attacker.name, f"choose a Silver or Gold {p.name} trashes", "cards", loot, 1, 1))
        act.trash(g, p, taken, R("Noble Brigand", 1))
    rest = [c for c in seen if c.zone == "revealed"]
    act.discard(g, p, rest, R("Noble Brigand", 1))
    if not any(c.is_type("Treasure") for c in seen):
        act.gain(g, p, "Copper", cite=R("Noble Brigand", 1))
    for c in taken:
        if c.zone == "trash":
            act.gain(g, attacker, c, cite=R("Noble Brigand", 1))
    return True


def _noble_brigand_buy(game: Game, ev: Event, card: Card) -> None:
    """When you buy this, do its attack (no Attack was played: no Reactions to it)."""
    game.log.add(f"{ev.player.name} bought Noble Brigand: its attack happens, but no Attack was played, so no one "
                 "may reveal a Reaction to it", R("Noble Brigand", 2), R("Noble Brigand", 3))
    EachOtherPlayer(Do(_noble_brigand_victim)).apply(Ctx(game, ev.player, card, None))


register(CardDef("Noble Brigand", Sequence(PlusCoins(coins("Noble Brigand")), EachOtherPlayer(Do(_noble_brigand_victim))),
                 hooks={"when_buy": _noble_brigand_buy}))


def _oracle_victim(ctx: Ctx) -> bool:
    """Reveal the top 2 cards of your deck; the Oracle's player chooses discard or put back (you choose the order)."""
    g, p = ctx.game, ctx.player
    chooser = ctx.attacker or p
    seen = act.reveal_top(g, p, 2)
    if not seen:
        return False
    what = ctx.ask(Question(chooser.name, f"{p.name}'s {act.names(seen)}: discard them or put them back?", "choice",
                            ["discard", "put back"]))
    if what == "discard":
        act.discard(g, p, seen, R("Oracle", 1))
        return True
    put_back_in_any_order(ctx, seen, R("Oracle", 1), "put them back: top card first")
    return True


register(CardDef("Oracle", Sequence(EachPlayer(Do(_oracle_victim)), Draw(2, cite=R("Oracle", 3)))))


def _witchs_hut(ctx: Ctx) -> bool:
    """Discard 2 cards, revealed; if they're both Actions, each other player gains a Curse."""
    g, p = ctx.game, ctx.player
    k = min(2, len(p.hand))
    if k == 0:
        ctx.log(f"{p.name} has no cards to discard", narrate.DO_AS_MUCH)
        return False
    chosen = ctx.ask(Question(p.name, "discard 2 cards, revealed", "cards", list(p.hand), k, k))
    ctx.log(f"{p.name} reveals {act.names(chosen)}", R("Witch's Hut", 2))
    act.discard(g, p, chosen, R("Witch's Hut", 1))
    if k == 2 and all(c.is_type("Action") for c in chosen):
        EachOtherPlayer(Gain("Curse")).apply(ctx)
    else:
        ctx.log("They are not both Actions: no Curses")
    return True


register(CardDef("Witch's Hut", Sequence(Draw(4), Do(_witchs_hut))))


def _cauldron(ctx: Ctx) -> bool:
    """This turn, the third time you gain an Action, each other player gains a Curse."""
    unaffected = set(ctx.unaffected)
    p = ctx.player

    def third(game: Game, ev: Event) -> bool:
        """The third Action you gained this turn (the first two may be gained before Cauldron was played)."""
        return (ev.card.is_type("Action") and p.index == game.turn.player
                and sum(1 for c in game.turn.gained if c.is_type("Action")) == 3)

    def run(game: Game, ev: Event) -> None:
        """Each other player gains a Curse."""
        game.log.add(f"{p.name} gained an Action for the third time this turn", R("Cauldron", 2))
        sub = Ctx(game, p, ctx.source, None, unaffected=unaffected)
        EachOtherPlayer(Gain("Curse", cite=R("Cauldron", 3))).apply(sub)

    ongoing.set_up_this_turn(ctx.game, p, "when_gain", "Cauldron's ability", run, condition=third, cite=R("Cauldron", 1))
    return True


register(CardDef("Cauldron", Sequence(PlusCoins(coins("Cauldron")), PlusBuys(1), Do(_cauldron))))


def _berserker_play(ctx: Ctx) -> bool:
    """Gain a card costing less than this."""
    me = ctx.source
    return Gain(filter=lambda c2, c: lower_cost(c, me), cite=R("Berserker", 1),
                describe=f"a card costing less than {me.name}").apply(ctx)


def _berserker_gain(game: Game, ev: Event, card: Card) -> None:
    """When you gain this, if you have an Action in play, play this."""
    p = ev.player
    if not any(c.is_type("Action") for c in p.in_play):
        game.log.add(f"{p.name} has no Action in play, so Berserker is not played", R("Berserker", 3))
        return
    if not ongoing.still_there(ev):
        game.log.add("Berserker was moved, so it cannot play itself", narrate.LOSE_TRACK, R("Berserker", 6))
        return
    game.log.add(f"{p.name} has an Action in play: Berserker plays itself", R("Berserker", 3))
    rx.play_for(game, p, card)


register(CardDef("Berserker", Sequence(Do(_berserker_play), EachOtherPlayer(DiscardDownTo(3, cite=R("Berserker", 2)))),
                 hooks={"when_gain": _berserker_gain}))


# ------------------------------------------------------------------ Reactions that play themselves
def _guard_dog_draw(ctx: Ctx) -> bool:
    """If you have 5 or fewer cards in hand (after drawing 2), +2 Cards."""
    n = len(ctx.player.hand)
    if n <= 5:
        ctx.log(f"{ctx.player.name} has {n} cards in hand, 5 or fewer", R("Guard Dog", 4))
        return Draw(2).apply(ctx)
    ctx.log(f"{ctx.player.name} has {n} cards in hand, more than 5: no more cards", R("Guard Dog", 4))
    return False


def _guard_dog_react(game: Game, ev: Event, p: Player, card: Card, unaffected: set) -> None:
    """When another player plays an Attack, you may first play this from your hand."""
    game.log.add(f"{p.name} plays Guard Dog before {ev.player.name}'s {ev.card.name} resolves", R("Guard Dog", 1),
                 rx.PLAYS_ITSELF)
    rx.play_for(game, p, card)


register(CardDef("Guard Dog", Sequence(Draw(2), Do(_guard_dog_draw)),
                 reactions={"attack": Reaction(_guard_dog_react, applies=lambda g, ev, p, c: c.zone == "hand")}))


def _plays_when(zone: str, cite: dict, lost: dict | None = None):
    """``lost`` cites the ruling for a card moved before it could play itself (Trail 7: Watchtower;
    Trail 8: set aside by Possession's when-trash ability first)."""
    def run(game: Game, ev: Event, card: Card) -> None:
        """Other than in Clean-up, you may play this."""
        if not rx.outside_cleanup(game):
            return
        where = zone
        if ev.kind == "when_gain":
            if not ongoing.still_there(ev):
                game.log.add(f"{card.name} was moved, so it cannot play itself", narrate.LOSE_TRACK, lost or cite)
                return
            where = card.zone
        elif lost is not None and card.zone != zone:
            game.log.add(f"{card.name} was moved out of {narrate.zone_words(zone)} (it is {narrate.where(card, game)}), so "
                         "it cannot play itself", narrate.LOSE_TRACK, lost)
            return
        rx.play_itself(game, ev.player, card, where, f"{ev.kind.replace('when_', 'when you ')} it", cite)
    return run


register(CardDef("Trail", Sequence(Draw(1), PlusActions(1)),
                 hooks={"when_gain": _plays_when("discard", R("Trail", 4), R("Trail", 7)),
                        "when_trash": _plays_when("trash", R("Trail", 3), R("Trail", 8)),
                        "when_discard": rx.unless_cleanup(_plays_when("discard", R("Trail", 2)))}))
register(CardDef("Weaver", ChooseOne({"two Silvers": Sequence(Gain("Silver"), Gain("Silver")),
                                      "a card costing up to $4": Gain(filter=lambda ctx, c: costs_up_to(c, 4),
                                                                      cite=R("Weaver", 1),
                                                                      describe="a card costing up to $4")}),
                 hooks={"when_discard": rx.unless_cleanup(_plays_when("discard", R("Weaver", 2)))}))


def _wheelwright_gain(ctx: Ctx) -> bool:
    """Gain an Action card costing as much as the discarded card or less."""
    d = _stored(ctx, "discarded")[0]
    return Gain(filter=lambda c2, c: c.is_type("Action") and costs_up_to_more(c, d, 0), cite=R("Wheelwright", 1),
                describe=f"an Action card costing as much as {d.name} or less").apply(ctx)


register(CardDef("Wheelwright", Sequence(
    Draw(1), PlusActions(1),
    ChooseFromHand("discard", 0, 1, store="discarded", describe="a card (to gain an Action card)",
                   cite=R("Wheelwright", 3)),
    IfYouDid(Do(_wheelwright_gain), cite=R("Wheelwright", 2)))))
