"""Empires: the Kingdom cards, the split piles' cards and the Castles.

Each definition follows the card's text in the card facts (2022 printings) and cites its Card
Reference entry. The mechanisms: Debt (mechanisms/debt.py: Debt costs, Capital's +Debt),
split piles and the Castles pile (split_piles.py), VP tokens on Supply piles for the Gathering
cards (tokens.py). The Events and Landmarks are in empires_landscapes.py.

Cards whose text changed have both versions, the current one as default ("2"), the earlier one
("1") chosen with a scenario's ``versions``: Charm, Forum (pre-2022 when-buy), Groundskeeper
(pre-2022 while in play), Opulent Castle (pre-2021: the Victory cards are not revealed).

Choices where the documents leave room (also in docs/audit-empires.md):
* Encampment returns "at the start of Clean-up": the engine's first moment of Clean-up is the
  end of the Buy phase (the ``end_of_buy_phase`` event), before anything is discarded.
* Chariot Race: the card the player to the left reveals goes back on top of their deck.
"""
from __future__ import annotations

from app.engine.core import activities as act
from app.engine.core import hooks, narrate
from app.engine.core.costs import costs_at_least, higher_cost, same_cost, up_to
from app.engine.core.decisions import Question
from app.engine.core.effects import (ChooseFromHand, ChooseOne, Ctx, DiscardDownTo, Do, Draw, EachOtherPlayer, Gain,
                                     PlayActionMultiple, PlusActions, PlusBuys, PlusCoins, Sequence)
from app.engine.core.narrate import R
from app.engine.core.registry import CardDef, register
from app.engine.core.state import Card, Game, Player
from app.engine.core.triggers import Event, from_play, only_if
from app.engine.core.turns import until_next_turn
from app.engine.mechanisms.durations import NextTurn
from app.engine.mechanisms import debt, ongoing, play_as, split_piles  # noqa: F401  (split_piles: the piles' setup)
from app.engine.mechanisms.tokens import add_pile_vp, add_vp, pile_vp, take_pile_vp

TRIGGERED = narrate.TRIGGERED
CARDS_IN_PLAY = narrate.CARDS_IN_PLAY
NOT_YOUR_TURN = narrate.NOT_YOUR_TURN


def _vp(n: int, cite: dict | None = None) -> Do:
    def plus_vp(ctx: Ctx) -> bool:
        """+VP: take VP tokens."""
        add_vp(ctx.game, ctx.player, n, cite)
        return True
    plus_vp.__doc__ = f"+{n} VP: take {n} VP token{'s' if n != 1 else ''}."
    return Do(plus_vp)


def _in_buy_phase(game: Game, p: Player) -> bool:
    """Whether it is ``p``'s own Buy phase ("if it's your Buy phase")."""
    return game.turn.player == p.index and game.turn.phase in ("buy", "buy2")


def _treasure(ctx: Ctx, c: Card) -> bool:
    return c.is_type("Treasure")


# ------------------------------------------------------------------ Settlers / Bustling Village
def _copper_from_discard(ctx: Ctx) -> bool:
    """You may reveal a Copper from your discard pile and put it into your hand."""
    return _from_discard(ctx, "Copper", R("Settlers"))


def _settlers_from_discard(ctx: Ctx) -> bool:
    """You may reveal a Settlers from your discard pile and put it into your hand."""
    return _from_discard(ctx, "Settlers", R("Bustling Village"))


def _from_discard(ctx: Ctx, name: str, cite: dict) -> bool:
    p = ctx.player
    found = [c for c in p.discard if c.name == name]
    if not found:
        ctx.log(f"{p.name} has no {name} in their discard pile", cite)
        return False
    chosen = ctx.ask(Question(p.name, f"reveal a {name} from your discard pile and put it into your hand?",
                              "cards", found[:1], 0, 1))
    if not chosen:
        ctx.log(f"{p.name} leaves their {name} in the discard pile", cite)
        return False
    ctx.log(f"{p.name} reveals {name} from their discard pile", cite, narrate.REVEALING)
    act.to_hand(ctx.game, p, chosen[0], cite)
    return True


register(CardDef("Settlers", Sequence(Draw(1), PlusActions(1), Do(_copper_from_discard))))
register(CardDef("Bustling Village", Sequence(Draw(1), PlusActions(3), Do(_settlers_from_discard))))


# ------------------------------------------------------------------ Catapult / Rocks
def _catapult(ctx: Ctx) -> bool:
    """Trash a card from your hand. If it costs $3 or more, each other player gains a Curse. If it's a Treasure, each other player discards down to 3 cards in hand (first all gain, then all discard)."""
    g, p = ctx.game, ctx.player
    if not p.hand:
        ctx.log(f"{p.name} has no card in hand to trash", R("Catapult", 1), narrate.DO_AS_MUCH)
        return False
    chosen = ctx.ask(Question(p.name, "trash a card from your hand", "cards", list(p.hand), 1, 1))
    card = chosen[0]
    cost, treasure = costs_at_least(card, 3), card.is_type("Treasure")    # as it was when trashed (Catapult 4)
    act.trash(g, p, [card], R("Catapult", 4))
    if cost:
        EachOtherPlayer(Gain(name="Curse", cite=R("Catapult", 3))).apply(ctx)
    if treasure:
        EachOtherPlayer(DiscardDownTo(3, cite=R("Catapult", 2))).apply(ctx)
    if not cost and not treasure:
        ctx.log(f"{card.name} costs less than $3 and is not a Treasure: the other players are not affected",
                R("Catapult"), narrate.CARD_COSTS)
    return True


register(CardDef("Catapult", Sequence(PlusCoins(1, cite=R("Catapult", 1)), Do(_catapult))))


def _rocks(game: Game, ev: Event, card: Card) -> None:
    """When you gain or trash this: in your Buy phase gain a Silver onto your deck, otherwise to your hand."""
    p = ev.player
    if _in_buy_phase(game, p):
        act.gain(game, p, "Silver", "deck", R("Rocks", 2))
    else:
        why = "" if game.turn.player == p.index else " (it is not their turn)"
        game.log.add(f"It is not {p.name}'s Buy phase{why}: the Silver goes to their hand", R("Rocks", 3))
        act.gain(game, p, "Silver", "hand", R("Rocks", 2))


register(CardDef("Rocks", PlusCoins(1), hooks={"when_gain": _rocks, "when_trash": _rocks}))


# ------------------------------------------------------------------ Encampment / Plunder
def _encampment(ctx: Ctx) -> bool:
    """You may reveal a Gold or Plunder from your hand. If you do not, set this aside, and return it to its pile at the start of Clean-up."""
    g, p, me = ctx.game, ctx.player, ctx.source
    shown = [c for c in p.hand if c.name in ("Gold", "Plunder")]
    if shown and ctx.ask(Question(p.name, "reveal a Gold or Plunder from your hand?", "cards", shown, 0, 1)):
        ctx.log(f"{p.name} reveals a Gold or Plunder: {me.name} stays in play", R("Encampment"))
        return True
    if ctx.source_ref is None or not ctx.source_ref.valid():
        ctx.log(f"{me.name} is not in play, so it is not set aside", R("Encampment", 3), narrate.LOSE_TRACK)
        return False
    act.set_aside(g, p, me, me, R("Encampment", 2))
    ref = g.ref(me)

    def back(game: Game, ev: Event) -> None:
        if not ref.valid():
            return
        me.pile = me.pile or split_piles.pile_of(me.name)     # it belongs to the pile it started in (SPLIT PILES)
        if (me.pile or me.name) not in game.supply:
            game.log.add(f"{me.name}'s pile is not in the Supply: it stays set aside", R("Encampment"))
            return
        game.move(me, "supply", top=True)
        me.owner = None
        game.log.add(f"{p.name} returns the set-aside {me.name} to its pile", R("Encampment"))
    act.set_up_later(g, p, "end_of_buy_phase", f"{me.name}: return it to its pile at the start of Clean-up", back,
                     cite=R("Encampment"))
    return True


register(CardDef("Encampment", Sequence(Draw(2), PlusActions(2), Do(_encampment))))
register(CardDef("Plunder", Sequence(PlusCoins(2), _vp(1, R("Plunder")))))


# ------------------------------------------------------------------ Gladiator / Fortune
def _gladiator(ctx: Ctx) -> bool:
    """Reveal a card from your hand. The player to your left may reveal a copy from their hand. If they don't, +$1 and trash a Gladiator from its pile."""
    g, p = ctx.game, ctx.player
    left = g.others(p)[0] if g.others(p) else None
    mine = ctx.ask(Question(p.name, "reveal a card from your hand", "cards", list(p.hand), 1, 1)) if p.hand else []
    copied = False
    if mine:
        ctx.log(f"{p.name} reveals {mine[0].name}", narrate.REVEALING)
        copies = [c for c in left.hand if c.name == mine[0].name] if left is not None else []
        if copies and g.decider.ask(Question(left.name, f"reveal a {mine[0].name} from your hand?", "cards",
                                             copies[:1], 0, 1)):
            ctx.log(f"{left.name} reveals a copy, {mine[0].name}: no bonus", R("Gladiator", 1))
            copied = True
    else:
        ctx.log(f"{p.name} has no card to reveal", R("Gladiator", 2))
    if copied:
        return True
    PlusCoins(1, cite=R("Gladiator", 2)).apply(ctx)
    pile = g.supply.get(split_piles.pile_of("Gladiator") or "", []) or g.supply.get("Gladiator", [])
    if pile and pile[-1].name == "Gladiator":
        act.trash(g, p, [pile[-1]], R("Gladiator", 4))
    else:
        ctx.log("There is no Gladiator on top of its pile to trash", R("Gladiator", 3), R("Gladiator", 4))
    return True


register(CardDef("Gladiator", Sequence(PlusCoins(2), Do(_gladiator))))


def _fortune(ctx: Ctx) -> bool:
    """Double your $ if you haven't yet this turn."""
    t = ctx.game.turn
    done = t.__dict__.setdefault("fortune_doubled", False)
    if done:
        ctx.log("$ was already doubled with Fortune this turn: only +1 Buy", R("Fortune", 2))
        return False
    t.fortune_doubled = True
    PlusCoins(t.coins, cite=R("Fortune", 1)).apply(ctx)
    return True


def _fortune_gained(game: Game, ev: Event, card: Card) -> None:
    """When you gain this, gain a Gold per Gladiator you have in play."""
    p = ev.player
    n = sum(1 for c in p.in_play if c.name == "Gladiator")
    game.log.add(f"{p.name} has {n} Gladiator{'s' if n != 1 else ''} in play", R("Fortune", 5), CARDS_IN_PLAY)
    for _ in range(n):
        act.gain(game, p, "Gold", cite=R("Fortune", 5))


register(CardDef("Fortune", Sequence(PlusBuys(1), Do(_fortune)), hooks={"when_gain": _fortune_gained}))


# ------------------------------------------------------------------ Patrician / Emporium
def _patrician(ctx: Ctx) -> bool:
    """Reveal the top card of your deck. If it costs $5 or more, put it into your hand."""
    g, p = ctx.game, ctx.player
    shown = act.reveal_top(g, p, 1)
    if not shown:
        return False
    c = shown[0]
    if costs_at_least(c, 5):
        act.to_hand(g, p, c, R("Patrician", 1))
    else:
        act.topdeck(g, p, c, R("Patrician", 1), quiet=True)
        ctx.log(f"{c.name} costs less than $5: it stays on top of the deck", R("Patrician", 1), narrate.CARD_COSTS)
    return True


register(CardDef("Patrician", Sequence(Draw(1), PlusActions(1), Do(_patrician))))


def _emporium_gained(game: Game, ev: Event, card: Card) -> None:
    """When you gain this, if you have at least 5 Action cards in play, +2 VP."""
    p = ev.player
    n = sum(1 for c in p.in_play if c.is_type("Action"))
    if n >= 5:
        add_vp(game, p, 2, R("Emporium", 1), f" ({n} Action cards in play)")
    else:
        game.log.add(f"{p.name} has {n} Action card{'s' if n != 1 else ''} in play, fewer than 5: no VP",
                     R("Emporium", 1), CARDS_IN_PLAY)


register(CardDef("Emporium", Sequence(Draw(1), PlusActions(1), PlusCoins(1)), hooks={"when_gain": _emporium_gained}))


# ------------------------------------------------------------------ Kingdom cards
def _chariot_race(ctx: Ctx) -> bool:
    """+1 Card, revealing it. The player to your left reveals the top card of their deck. If your card costs more, +$1 and +1 VP."""
    g, p = ctx.game, ctx.player
    mine = act.reveal_top(g, p, 1)
    left = g.others(p)[0] if g.others(p) else None
    theirs = act.reveal_top(g, left, 1) if left is not None else []
    if mine:
        act.to_hand(g, p, mine[0])
    if theirs:
        act.topdeck(g, left, theirs[0], quiet=True)
    if not mine or not theirs:
        ctx.log("A player had no card to reveal: no bonus", R("Chariot Race", 2))
        return False
    if higher_cost(mine[0], theirs[0]):
        ctx.log(f"{mine[0].name} costs more than {theirs[0].name}", R("Chariot Race", 1), narrate.CARD_COSTS)
        PlusCoins(1).apply(ctx)
        add_vp(g, p, 1, R("Chariot Race"))
    else:
        ctx.log(f"{mine[0].name} does not cost more than {theirs[0].name}: no bonus", R("Chariot Race", 1),
                narrate.CARD_COSTS)
    return True


register(CardDef("Chariot Race", Sequence(PlusActions(1), Do(_chariot_race))))


def _city_quarter(ctx: Ctx) -> bool:
    """Reveal your hand. +1 Card per Action card revealed."""
    p = ctx.player
    n = sum(1 for c in p.hand if c.is_type("Action"))
    ctx.log(f"{p.name} reveals their hand ({act.names(p.hand)}): {n} Action card{'s' if n != 1 else ''}",
            R("City Quarter"), narrate.REVEALING)
    act.revealed(ctx.game, p, list(p.hand))
    act.draw(ctx.game, p, n)
    return True


register(CardDef("City Quarter", Sequence(PlusActions(2), Do(_city_quarter))))


def _royal_blacksmith(ctx: Ctx) -> bool:
    """Reveal your hand; discard the Coppers."""
    p = ctx.player
    ctx.log(f"{p.name} reveals their hand ({act.names(p.hand)})", R("Royal Blacksmith"), narrate.REVEALING)
    act.revealed(ctx.game, p, list(p.hand))
    coppers = [c for c in p.hand if c.name == "Copper"]
    act.discard(ctx.game, p, coppers, R("Royal Blacksmith"))
    return True


register(CardDef("Royal Blacksmith", Sequence(Draw(5), Do(_royal_blacksmith))))


def _engineer_trash(ctx: Ctx) -> bool:
    """You may trash this. If you do, gain a card costing up to $4."""
    g, p, me = ctx.game, ctx.player, ctx.source
    if ctx.source_ref is None or not ctx.source_ref.valid():
        ctx.log(f"{me.name} is not in play: it can't be trashed, so no second card", R("Engineer", 2))
        return False
    if not ctx.ask(Question(p.name, f"trash {me.name} to gain another card costing up to $4?", "yesno", [])):
        ctx.log(f"{p.name} keeps {me.name}", R("Engineer"))
        return False
    act.trash(g, p, [me], R("Engineer", 3))
    return Gain(filter=up_to(4), describe="a card costing up to $4", cite=R("Engineer", 3)).apply(ctx)


register(CardDef("Engineer", Sequence(Gain(filter=up_to(4), describe="a card costing up to $4", cite=R("Engineer", 1)),
                                      Do(_engineer_trash))))


def _sacrifice(ctx: Ctx) -> bool:
    """Trash a card from your hand. If it's an Action card, +2 Cards and +2 Actions; a Treasure card, +$2; a Victory card, +2 VP (every one that applies)."""
    g, p = ctx.game, ctx.player
    if not p.hand:
        ctx.log(f"{p.name} has no card in hand to trash", narrate.DO_AS_MUCH)
        return False
    card = ctx.ask(Question(p.name, "trash a card from your hand", "cards", list(p.hand), 1, 1))[0]
    types = {t for t in ("Action", "Treasure", "Victory") if card.is_type(t)}
    act.trash(g, p, [card], R("Sacrifice"))
    if len(types) > 1:
        ctx.log(f"{card.name} has several of the types: every bonus applies", R("Sacrifice", 1))
    if "Action" in types:
        Draw(2).apply(ctx)
        PlusActions(2).apply(ctx)
    if "Treasure" in types:
        PlusCoins(2).apply(ctx)
    if "Victory" in types:
        add_vp(g, p, 2, R("Sacrifice"))
    return True


register(CardDef("Sacrifice", Do(_sacrifice)))


def _legionary(ctx: Ctx) -> bool:
    """You may reveal a Gold from your hand. If you do, each other player discards down to 2 cards in hand, then draws a card."""
    p = ctx.player
    golds = [c for c in p.hand if c.name == "Gold"]
    if not golds or not ctx.ask(Question(p.name, "reveal a Gold from your hand?", "cards", golds[:1], 0, 1)):
        ctx.log(f"{p.name} reveals no Gold", R("Legionary"))
        return False
    ctx.log(f"{p.name} reveals a Gold", narrate.REVEALING)
    EachOtherPlayer(Sequence(DiscardDownTo(2, cite=R("Legionary", 2)), Draw(1, cite=R("Legionary", 3)))).apply(ctx)
    return True


register(CardDef("Legionary", Sequence(PlusCoins(3), Do(_legionary))))


def _forum_gained(game: Game, ev: Event, card: Card) -> None:
    """When you gain this, +1 Buy."""
    p = ev.player
    if game.turn.player != p.index:
        game.log.add(f"{p.name} gains Forum when it is not their turn: the +1 Buy does nothing", R("Forum", 2),
                     NOT_YOUR_TURN)
        return
    game.turn.buys += 1
    game.log.add(f"{p.name} gets +1 Buy for gaining Forum (Buys: {game.turn.buys})", R("Forum", 3))


def _forum_bought(game: Game, ev: Event, card: Card) -> None:
    """When you buy this, +1 Buy."""
    game.turn.buys += 1
    game.log.add(f"{ev.player.name} gets +1 Buy for buying Forum (Buys: {game.turn.buys})", R("Forum", 2))


_FORUM = Sequence(Draw(3), PlusActions(1), ChooseFromHand("discard", 2, 2, cite=R("Forum", 1), describe="2 cards"))
register(CardDef("Forum", _FORUM, version="2", hooks={"when_gain": _forum_gained},
                 note="2022: when you gain this, +1 Buy (Forum 2)"))
register(CardDef("Forum", _FORUM, version="1", hooks={"when_buy": _forum_bought},
                 note="pre-2022: when you buy this, +1 Buy, so not when you gain it in another way (Forum 2)"),
         default=False)


def _capital_discarded(game: Game, ev: Event, card: Card) -> None:
    """When you discard this from play, +6 Debt; you may then pay off Debt with the $ left in your money pool."""
    if ev.data.get("from") != "in_play":
        return
    p = debt.take_debt(game, ev.player, 6, R("Capital", 1))
    most = min(debt.debt(p), game.turn.coins) if p.index == game.turn.player else 0
    if most < 1:
        return
    n = int(game.decider.ask(Question(p.name, "pay off how much Debt now (with the $ left in your money pool)?",
                                      "choice", [str(i) for i in range(most + 1)])))
    if n:
        debt.pay_off(game, p, n, R("Capital", 3), anytime=True)


register(CardDef("Capital", Sequence(PlusCoins(6), PlusBuys(1)), hooks={"when_discard": only_if(from_play, _capital_discarded)}))


def _groundskeeper(ctx: Ctx) -> bool:
    """This turn, when you gain a Victory card, +1 VP."""
    def run(game: Game, ev: Event) -> None:
        add_vp(game, ev.player, 1, R("Groundskeeper", 1), f" (Groundskeeper: gained {ev.card.name})")
    ongoing.set_up_this_turn(ctx.game, ctx.player, "when_gain", "Groundskeeper: +1 VP per Victory card gained",
                             run, lambda g, ev: ev.card is not None and ev.card.is_type("Victory"),
                             R("Groundskeeper", 1))
    return True


def _groundskeeper_in_play(game: Game, ev: Event, card: Card) -> None:
    """While this is in play, when you gain a Victory card, +1 VP."""
    if ev.card is not None and ev.card.is_type("Victory"):
        add_vp(game, ev.player, 1, R("Groundskeeper", 3), f" (Groundskeeper in play: gained {ev.card.name})")


register(CardDef("Groundskeeper", Sequence(Draw(1), PlusActions(1), Do(_groundskeeper)), version="2",
                 note="2022: this turn, when you gain a Victory card, +1 VP (cumulative: Groundskeeper 1)"))
# pre-2022: a while-in-play ability, so a throne-room playing it twice gives it once (While this is in play § VI)
register(CardDef("Groundskeeper", Sequence(Draw(1), PlusActions(1)), version="1",
                 while_in_play={"when_gain": ongoing.while_mine(_groundskeeper_in_play)},
                 note="pre-2022: while this is in play (Groundskeeper 3)"), default=False)


def _temple(ctx: Ctx) -> bool:
    """Trash from 1 to 3 differently named cards from your hand. Add 1 VP to the Temple pile."""
    g, p = ctx.game, ctx.player
    if p.hand:
        firsts = {}
        for c in p.hand:
            firsts.setdefault(c.name, c)
        chosen = ctx.ask(Question(p.name, "trash from 1 to 3 differently named cards from your hand", "cards",
                                  list(firsts.values()), 1, min(3, len(firsts))))
        act.trash(g, p, chosen, R("Temple", 1))
    else:
        ctx.log(f"{p.name} has no card in hand to trash", R("Temple", 2))
    add_pile_vp(g, "Temple", 1, R("Temple", 2))
    return True


def _temple_gained(game: Game, ev: Event, card: Card) -> None:
    """When you gain this, take the VP from the Temple pile."""
    take_pile_vp(game, ev.player, "Temple", R("Temple"))


register(CardDef("Temple", Sequence(_vp(1, R("Temple", 2)), Do(_temple)), hooks={"when_gain": _temple_gained}))


def _farmers_market(ctx: Ctx) -> bool:
    """If there are 4 VP or more on the Farmers' Market pile, take them and trash this. Otherwise, add 1 VP to the pile and then +$1 per 1 VP on the pile."""
    g, p = ctx.game, ctx.player
    pile = "Farmers' Market"
    if pile_vp(g, pile) >= 4:
        take_pile_vp(g, p, pile, R("Farmers' Market", 1))
        if ctx.source_ref is not None and ctx.source_ref.valid():
            act.trash(g, p, [ctx.source], R("Farmers' Market", 3))
        else:
            ctx.log(f"{ctx.source.name} is not in play, so it is not trashed", R("Farmers' Market", 4))
        return True
    add_pile_vp(g, pile, 1, R("Farmers' Market", 1))
    PlusCoins(pile_vp(g, pile), cite=R("Farmers' Market", 1)).apply(ctx)
    return True


register(CardDef("Farmers' Market", Sequence(PlusBuys(1), Do(_farmers_market))))


def _wild_hunt_draw(ctx: Ctx) -> bool:
    """+3 Cards and add 1 VP to the Wild Hunt pile."""
    act.draw(ctx.game, ctx.player, 3)
    add_pile_vp(ctx.game, "Wild Hunt", 1, R("Wild Hunt", 2))
    return True


def _wild_hunt_estate(ctx: Ctx) -> bool:
    """Gain an Estate, and if you do, take the VP from the Wild Hunt pile."""
    if act.gain(ctx.game, ctx.player, "Estate", cite=R("Wild Hunt", 5)) is None:
        ctx.log("No Estate was gained, so the VP stay on the pile", R("Wild Hunt", 3))
        return False
    take_pile_vp(ctx.game, ctx.player, "Wild Hunt", R("Wild Hunt", 5))
    return True


register(CardDef("Wild Hunt", ChooseOne({"+3 Cards and add 1 VP to the pile": Do(_wild_hunt_draw),
                                          "gain an Estate and take the VP": Do(_wild_hunt_estate)})))


def _villa_gained(game: Game, ev: Event, card: Card) -> None:
    """When you gain this, put it into your hand, +1 Action, and if it's your Buy phase return to your Action phase."""
    p = ev.player
    ongoing.move_gained(game, p, ev, "hand", R("Villa", 2))
    if game.turn.player != p.index:
        game.log.add(f"It is not {p.name}'s turn: the +1 Action is not usable and there is no Action phase",
                     R("Villa", 6), NOT_YOUR_TURN)
        return
    game.turn.actions += 1
    game.log.add(f"+1 Action (Actions: {game.turn.actions})", R("Villa", 3))
    if game.turn.phase in ("buy", "buy2"):
        game.turn.phase = "action"
        game.log.add(f"{p.name} returns to their Action phase, keeping their Buys and $", R("Villa", 3))


register(CardDef("Villa", Sequence(PlusActions(2), PlusBuys(1), PlusCoins(1)), hooks={"when_gain": _villa_gained}))


def _crown(ctx: Ctx) -> bool:
    """If it's your Action phase, you may play an Action from your hand twice. If it's your Buy phase, you may play a Treasure from your hand twice."""
    if ctx.game.turn.phase == "action":
        return PlayActionMultiple(2, cite=R("Crown", 2)).apply(ctx)
    return PlayActionMultiple(2, cite=R("Crown", 2), filter=_treasure, describe="a Treasure").apply(ctx)


register(CardDef("Crown", Do(_crown)))


# the option in the card's own words (Charm 2; pre-2022: Charm 9), which is how a player names it
_CHARM_LATER = "the next time you {when} a card this turn, you may also gain a differently named card with the same cost"


def _charm_later(trigger: str, when: str, cite: dict, set_up: dict):
    def later(ctx: Ctx) -> bool:
        g, p = ctx.game, ctx.player

        def run(game: Game, ev: Event) -> None:
            got = ev.card        # pre-2022: the bought card, still on top of its pile (Charm 12)
            options = [pile[-1] for pile in game.supply.values()
                       if pile and pile[-1].name != got.name and same_cost(pile[-1], got)]
            if not options:
                game.log.add(f"No differently named card costs the same as {got.name}", cite)
                return
            pick = game.decider.ask(Question(p.name, f"also gain a differently named card costing the same as "
                                             f"{got.name}? (Charm)", "cards", options, 0, 1))
            if pick:
                act.gain(game, p, pick[0], cite=cite)
        act.set_up_later(g, p, trigger, f"Charm: the next time you {when} a card this turn", run, None,
                         lambda game, ev: ev.card is not None, "next_time", set_up)
        return True
    later.__doc__ = (f"The next time you {when} a card this turn, you may also gain a differently named card with "
                     f"the same cost.")
    return later


register(CardDef("Charm", ChooseOne({"+1 Buy and +$2": Sequence(PlusBuys(1), PlusCoins(2)),
                                      _CHARM_LATER.format(when="gain"):
                                          Do(_charm_later("when_gain", "gain", R("Charm", 2), R("Charm", 1)))}),
                 version="2", note="2022: the next time you gain a card (Charm 2)"))
register(CardDef("Charm", ChooseOne({"+1 Buy and +$2": Sequence(PlusBuys(1), PlusCoins(2)),
                                      _CHARM_LATER.format(when="buy"):
                                          Do(_charm_later("when_buy", "buy", R("Charm", 9, "pre-2022"),
                                                          R("Charm", 8, "pre-2022")))}),
                 version="1", note="pre-2022: the next time you buy a card (Charm 9-10)"), default=False)


def _archive(ctx: Ctx) -> bool:
    """Set aside the top 3 cards of your deck face down (you may look at them). Now and at the start of your next two turns, put one into your hand."""
    g, p, me = ctx.game, ctx.player, ctx.source
    aside = act.from_deck(g, p, 3, "set_aside", me)
    ctx.log(f"{p.name} sets aside {len(aside)} card{'s' if len(aside) != 1 else ''} face down with {me.name}",
            R("Archive", 2))
    turns_left = [2]

    def take(game: Game, ev: Event | None) -> None:
        left = [c for c in aside if c.zone == "set_aside"]
        if not left:
            return
        pick = game.decider.ask(Question(p.name, f"put one of the cards set aside with {me.name} into your hand",
                                         "cards", left, 1, 1))
        act.to_hand(game, p, pick[0], R("Archive", 1))
        if ev is not None:
            turns_left[0] -= 1
        if turns_left[0] > 0 and any(c.zone == "set_aside" for c in aside):
            # Archive stays in play as long as it has cards set aside (Archive 2): one more turn to come
            act.set_up_later(game, p, "start_of_turn", f"{me.name}: put a set-aside card into your hand", take, me,
                             until="used", cite=R("Archive", 1))
    take(g, None)
    return True


register(CardDef("Archive", Sequence(PlusActions(1), Do(_archive))))


def _enchantress(ctx: Ctx) -> bool:
    """Until your next turn, the first time each other player plays an Action card on their turn, they get +1 Card and +1 Action instead of following its instructions."""
    until_next_turn(ctx.game, ctx.player, "enchanted", f"{ctx.player.name}'s Enchantress: the first Action card "
                    "each other player plays on their turn gives +1 Card and +1 Action instead", lambda g, ev: None,
                    source=ctx.source, cite=R("Enchantress", 1))
    return True


@hooks.play_instead("Enchantress")
def _enchanted(game: Game, p: Player, card: Card):
    """The first Action card a player plays on their turn, while another player's Enchantress is set up."""
    t = game.turn
    if not card.is_type("Action") or t.player != p.index or t.__dict__.get("first_action_played"):
        return None
    t.first_action_played = True        # only the first Action actually played this turn (Enchantress 2, 12)
    if not any(la.trigger == "enchanted" and la.owner != p.index for la in game.later):
        return None
    game.log.add(f"{card.name} is Enchanted: {p.name} gets +1 Card and +1 Action instead of following its "
                 "instructions", R("Enchantress", 1), R("Enchantress", 2))
    return Sequence(Draw(1), PlusActions(1))


register(CardDef("Enchantress", Sequence(Do(_enchantress),
                                         NextTurn("Enchantress: +2 Cards", Draw(2), cite=R("Enchantress", 1)))))


def _overlord(ctx: Ctx) -> bool:
    """Play a non-Command Action card from the Supply costing up to $5, leaving it there."""
    return play_as.play_from_supply(ctx, lambda c: not c.is_type("Command"), R("Overlord"), up_to=5)


def _overlord_old(ctx: Ctx) -> bool:
    """Be played as an Action card from the Supply costing up to $5; it is that card until it leaves play."""
    return play_as.play_as(ctx, lambda c: True, R("Overlord"), up_to=5)


register(CardDef("Overlord", Do(_overlord), version="2",
                 note="as Band of Misfits (2019): the Complete Rules exclude only Command cards; the card's text "
                      "also says non-Duration"))
# pre-2019: as the pre-2019 Band of Misfits ("All the following also applies to Overlord (pre-2019 version)")
register(CardDef("Overlord", Do(_overlord_old), version="1",
                 note="pre-2019: is the chosen card (costing up to $5) until it leaves play"), default=False)


# ------------------------------------------------------------------ the Castles
def _castles(p: Player) -> int:
    return sum(1 for c in p.all_cards() if c.is_type("Castle"))


def _humble_vp(game: Game, p: Player) -> int:
    """Worth 1 VP per Castle you have."""
    return _castles(p)


def _kings_vp(game: Game, p: Player) -> int:
    """Worth 2 VP per Castle you have."""
    return 2 * _castles(p)


def _crumbling(game: Game, ev: Event, card: Card) -> None:
    """When you gain or trash this, +1 VP and gain a Silver."""
    add_vp(game, ev.player, 1, R("Crumbling Castle"))
    act.gain(game, ev.player, "Silver", cite=R("Crumbling Castle"))


def _small_castle(ctx: Ctx) -> bool:
    """Trash this or a Castle from your hand. If you do, gain a Castle."""
    g, p, me = ctx.game, ctx.player, ctx.source
    options = [c for c in p.hand if c.is_type("Castle")]
    if ctx.source_ref is not None and ctx.source_ref.valid():
        options = [me] + options
    if not options:
        ctx.log(f"{p.name} has nothing to trash", narrate.DO_AS_MUCH)
        return False
    chosen = ctx.ask(Question(p.name, "trash this or a Castle from your hand", "cards", options, 1, 1))
    act.trash(g, p, chosen, R("Small Castle"))
    return Gain(filter=lambda c2, c: c.is_type("Castle"), describe="a Castle", cite=R("Small Castle")).apply(ctx)


def _haunted(game: Game, ev: Event, card: Card) -> None:
    """When you gain this during your turn, gain a Gold, and each other player with 5 or more cards in hand puts 2 of them onto their deck."""
    p = ev.player
    if game.turn.player != p.index:
        return
    act.gain(game, p, "Gold", cite=R("Haunted Castle"))
    for q in game.others(p):
        if len(q.hand) >= 5:
            two = game.decider.ask(Question(q.name, "put 2 cards from your hand onto your deck", "cards",
                                            list(q.hand), 2, 2))
            for c in two:
                act.topdeck(game, q, c, R("Haunted Castle"))


def _opulent(revealed: bool):
    def play(ctx: Ctx) -> bool:
        p = ctx.player
        vic = [c for c in p.hand if c.is_type("Victory")]
        how = " (revealed)" if revealed else ""
        chosen = ctx.ask(Question(p.name, f"discard any number of Victory cards{how}", "cards", vic, 0,
                                  len(vic))) if vic else []
        if chosen and revealed:       # 2021: revealed as they are discarded (Opulent Castle 2)
            ctx.log(f"{p.name} reveals {act.names(chosen)} as they discard them", R("Opulent Castle", 2))
            act.revealed(ctx.game, p, chosen)
        act.discard(ctx.game, p, chosen, R("Opulent Castle"))
        if chosen:
            PlusCoins(2 * len(chosen)).apply(ctx)
        return True
    play.__doc__ = ("Discard any number of Victory cards, revealed. +$2 per card discarded." if revealed else
                    "Discard any number of Victory cards (not revealed). +$2 per card discarded.")
    return play


def _sprawling(game: Game, ev: Event, card: Card) -> None:
    """When you gain this, gain a Duchy or 3 Estates."""
    p = ev.player
    pick = game.decider.ask(Question(p.name, "gain a Duchy or 3 Estates", "choice", ["a Duchy", "3 Estates"]))
    if pick == "a Duchy":
        act.gain(game, p, "Duchy", cite=R("Sprawling Castle"))
    else:
        for _ in range(3):
            act.gain(game, p, "Estate", cite=R("Sprawling Castle"))


def _grand(game: Game, ev: Event, card: Card) -> None:
    """When you gain this, reveal your hand. +1 VP per Victory card in your hand and/or in play."""
    p = ev.player
    n = sum(1 for c in p.hand + p.in_play if c.is_type("Victory"))
    game.log.add(f"{p.name} reveals their hand ({act.names(p.hand)})", narrate.REVEALING)
    act.revealed(game, p, list(p.hand))
    add_vp(game, p, n, R("Grand Castle"), " (Victory cards in hand and in play)")


register(CardDef("Humble Castle", PlusCoins(1), vp=_humble_vp))
register(CardDef("Crumbling Castle", vp=1, hooks={"when_gain": _crumbling, "when_trash": _crumbling}))
register(CardDef("Small Castle", Do(_small_castle), vp=2))
register(CardDef("Haunted Castle", vp=2, hooks={"when_gain": _haunted}))
register(CardDef("Opulent Castle", Do(_opulent(True)), vp=3, version="2",
                 note="2021: the discarded Victory cards are revealed (Opulent Castle 2)"))
register(CardDef("Opulent Castle", Do(_opulent(False)), vp=3, version="1",
                 note="pre-2021: the Victory cards are discarded without revealing them"), default=False)
register(CardDef("Sprawling Castle", vp=4, hooks={"when_gain": _sprawling}))
register(CardDef("Grand Castle", vp=5, hooks={"when_gain": _grand}))
register(CardDef("King's Castle", vp=_kings_vp))
