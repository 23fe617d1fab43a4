"""Prosperity, both editions (34 Kingdom cards) plus Platinum and Colony.

Each definition follows the card's text in the card facts and cites its Card
Reference entry. Coin amounts printed on the cards ("$2", "+$3") are read from
the card facts' text, not restated. Where the 2022 errata changed a card
(Hoard, Mint, Quarry: "Previous versions of some cards"), both versions are
registered: "2" (current, default) and "1" (pre-2022, the first edition).

Choices where the documents leave room (also listed in the engineer's report):
* Naming a card (Contraband, War Chest): any card name of the card facts may be
  named ("It can be the name of any card", NAME A CARD § VI).
* Tiara's "play a Treasure twice" is optional ("You may"), as for the 2nd-edition
  Throne Room; the set-up when-gain ability is asked per gained card.
* Watchtower's reveal is one question with three answers: trash / deck / no.
* Vault's other players: "may discard 2 cards, to draw a card" is "do X to":
  a player with one card may discard it but draws nothing (Effects contingent
  on other effects § III, the Mill example).
"""
from __future__ import annotations

from app.engine.core import activities as act
from app.engine.core import narrate
from app.engine.mechanisms import ongoing
from app.engine.core.narrate import R
from app.engine.core.printed import coins, vp_points
from app.engine.core.costs import ReduceCosts, cost_rule, costs_exactly, costs_up_to, costs_up_to_more, has_extra_cost
from app.engine.core.decisions import Question
from app.engine.core.effects import (name_a_card, ChooseFromHand, ChooseOne, Ctx, DiscardDownTo, Do, Draw, EachOtherPlayer, Gain,
                                IfYouDid, PlayActionMultiple, PlusActions, PlusBuys, PlusCoins, Sequence, TrashSelf, put_back_in_any_order, TrashForCost)
from app.engine.core.registry import CardDef, Reaction, register
from app.engine.core.state import Card, Game, LaterAbility, Player
from app.engine.mechanisms.tokens import add_vp, set_up_trade_route, trade_route_mat

DIG = narrate.DIG
TRIGGERED = narrate.TRIGGERED


def _stored(ctx: Ctx, key: str) -> list[Card]:
    v = ctx.vars.get(key)
    return v if isinstance(v, list) else ([v] if v is not None else [])


def VP(n, cite: dict | None = None, why: str = "") -> Do:
    return Do(lambda ctx: add_vp(ctx.game, ctx.player, ctx.num(n), cite, why) or True)


_treasure = lambda ctx, c: c.is_type("Treasure")  # noqa: E731


def _left(game: Game, p: Player) -> Player | None:
    others = game.others(p)
    return others[0] if others else None


# ------------------------------------------------------------------ basic cards
register(CardDef("Platinum", PlusCoins(coins("Platinum"))))
register(CardDef("Colony", vp=vp_points("Colony")))

# ------------------------------------------------------------------ simple Actions
register(CardDef("Worker's Village", Sequence(Draw(1), PlusActions(2), PlusBuys(1))))
register(CardDef("Monument", Sequence(PlusCoins(coins("Monument")), VP(1, R("Monument")))))
register(CardDef("Grand Market", Sequence(Draw(1), PlusActions(1), PlusBuys(1), PlusCoins(coins("Grand Market")))))
ongoing.buy_rule("Grand Market", lambda g, p: ("you have a Copper in play (Grand Market 2)"
                                               if any(c.name == "Copper" for c in p.in_play) else None))
register(CardDef("Peddler", Sequence(Draw(1), PlusActions(1), PlusCoins(coins("Peddler")))))


@cost_rule("Peddler")
def _peddler_cost(game: Game, card: Card, printed: int) -> int:
    """During a player's Buy phase Peddler costs $2 less per Action card in *their* play area, for everyone
    (Peddler 1-2); at any other time its printed cost (Peddler 3)."""
    if game.turn.phase not in ("buy", "buy2") or not game.players:
        return printed
    actions = sum(1 for c in game.current.in_play if c.is_type("Action"))
    return printed - 2 * actions


def _city(ctx: Ctx) -> bool:
    """If there are one or more empty Supply piles, +1 Card; if two or more, also +1 Buy and +$1."""
    empty = len(ctx.game.empty_piles())
    ctx.log(f"Empty Supply piles now: {empty}", R("City", 1))
    if empty >= 1:
        Draw(1).apply(ctx)
    if empty >= 2:
        PlusBuys(1).apply(ctx)
        PlusCoins(1).apply(ctx)
    return True


register(CardDef("City", Sequence(Draw(1), PlusActions(2), Do(_city))))


def _magnate(ctx: Ctx) -> bool:
    """Reveal your hand: +1 Card per Treasure in it."""
    p = ctx.player
    n = sum(1 for c in p.hand if c.is_type("Treasure"))
    ctx.log(f"{p.name} reveals their hand ({act.names(p.hand)}): {n} Treasure{'s' if n != 1 else ''}", R("Magnate", 1))
    act.revealed(ctx.game, p, list(p.hand))
    act.draw(ctx.game, p, n)
    return True


register(CardDef("Magnate", Do(_magnate)))

# ------------------------------------------------------------------ trashers / gainers
def _trashed_cost(extra: int):
    def limit(ctx: Ctx) -> int:
        t = _stored(ctx, "trashed")
        return t[0].cost + extra if t else -1
    return limit


register(CardDef("Expand", Sequence(
    ChooseFromHand("trash", 1, 1, store="trashed", cite=R("Expand", 1)),
    # "up to $3 more than it" keeps the trashed card's Potion/Debt ("REMODEL" CARD § VI, Expand 1)
    IfYouDid(Gain(filter=lambda ctx, c: any(costs_up_to_more(c, t, 3) for t in _stored(ctx, "trashed")[:1]),
                  cite=R("Expand", 1),
                  describe="a card costing up to $3 more than the trashed card")))))


def _forge(ctx: Ctx) -> bool:
    """Gain a card costing exactly the total cost in $ of the trashed cards."""
    total = sum(c.cost for c in _stored(ctx, "trashed"))
    ctx.vars["total"] = total
    why = " (no card trashed)" if not _stored(ctx, "trashed") else ""
    ctx.log(f"The trashed cards cost ${total} in all{why}", R("Forge", 1 if why else 3))
    return Gain(filter=lambda c2, c: costs_exactly(c, total), cite=R("Forge", 2),
                describe=f"a card costing exactly ${total}").apply(ctx)


register(CardDef("Forge", Sequence(
    ChooseFromHand("trash", 0, lambda ctx: len(ctx.player.hand), store="trashed", describe="any number of cards"),
    Do(_forge))))


def _bishop_vp(ctx: Ctx, card: Card, cost: int) -> bool:
    """+1 VP per $2 the trashed card costs (round down)."""
    add_vp(ctx.game, ctx.player, cost // 2, R("Bishop", 2), f" for the trashed {card.name} costing ${cost}")
    return True


register(CardDef("Bishop", Sequence(
    PlusCoins(coins("Bishop")), VP(1),
    TrashForCost(_bishop_vp, none="has no card to trash, but keeps the +$1 and +1 VP", none_cite=R("Bishop", 1)),
    EachOtherPlayer(ChooseFromHand("trash", 0, 1, describe="a card (optional, Bishop)")))))


def _anvil_gain(ctx: Ctx) -> bool:
    """Gain a card costing up to $4."""
    return Gain(filter=lambda c2, c: costs_up_to(c, 4), cite=R("Anvil", 1),
                describe="a card costing up to $4").apply(ctx)


register(CardDef("Anvil", Sequence(
    PlusCoins(coins("Anvil")),
    ChooseFromHand("discard", 0, 1, filter=_treasure, store="discarded", cite=R("Anvil", 2),
                   describe="a Treasure, to gain a card costing up to $4"),
    IfYouDid(Do(_anvil_gain), cite=R("Anvil", 2)))))


# ------------------------------------------------------------------ Bank, Vault, Counting House
register(CardDef("Bank", PlusCoins(lambda ctx: sum(1 for c in ctx.player.in_play if c.is_type("Treasure")),
                                   cite=R("Bank", 2))))


def _vault_other(ctx: Ctx) -> bool:
    """Each other player may discard 2 cards, to draw a card (only if they discarded 2)."""
    p = ctx.player
    if not p.hand:
        ctx.log(f"{p.name} has no cards to discard")
        return False
    if not ctx.ask(Question(p.name, "discard 2 cards, to draw a card?", "yesno", [])):
        ctx.log(f"{p.name} chooses not to discard")
        return False
    k = min(2, len(p.hand))
    chosen = ctx.ask(Question(p.name, "discard 2 cards", "cards", list(p.hand), k, k))
    act.discard(ctx.game, p, chosen, R("Vault", 1))
    if k < 2:
        ctx.log(f"{p.name} could discard only {k} card, so draws nothing", R("Vault", 2), narrate.IF_YOU_DID)
        return False
    act.draw(ctx.game, p, 1)
    return True


register(CardDef("Vault", Sequence(
    Draw(2),
    ChooseFromHand("discard", 0, lambda ctx: len(ctx.player.hand), store="discarded", describe="any number of cards"),
    PlusCoins(lambda ctx: len(_stored(ctx, "discarded")), cite=R("Vault", 2)),
    EachOtherPlayer(Do(_vault_other)))))


def _counting_house(ctx: Ctx) -> bool:
    """Look through your discard pile, reveal any number of Coppers from it, and put them into your hand."""
    p = ctx.player
    coppers = [c for c in p.discard if c.name == "Copper"]
    if not coppers:
        ctx.log(f"{p.name} looks through their discard pile: no Copper")
        return False
    chosen = ctx.ask(Question(p.name, "reveal any number of Coppers from your discard pile", "cards", coppers,
                              0, len(coppers)))
    for c in chosen:
        ctx.game.move(c, "hand")
    ctx.log(f"{p.name} reveals {len(chosen)} Copper{'s' if len(chosen) != 1 else ''} from their discard pile and "
            "puts them into their hand", R("Counting House"))
    return bool(chosen)


register(CardDef("Counting House", Do(_counting_house)))


# ------------------------------------------------------------------ King's Court
register(CardDef("King's Court", PlayActionMultiple(3, optional=True, cite=R("King's Court", 1))))


# ------------------------------------------------------------------ Attacks
register(CardDef("Goons", Sequence(PlusBuys(1), PlusCoins(coins("Goons")),
                                   EachOtherPlayer(DiscardDownTo(3, cite=R("Goons", 1)))),
                 while_in_play={"when_buy": ongoing.while_mine(
                     lambda g, ev, card: add_vp(g, ev.player, 1, R("Goons", 2), f" for buying {ev.card.name} "
                                                "(Goons in play; once per Goons, however often it was played)"))}))


def _mountebank_victim(ctx: Ctx) -> bool:
    """Each other player may discard a Curse; if they don't, they gain a Curse and a Copper."""
    p = ctx.player
    curses = [c for c in p.hand if c.name == "Curse"]
    if curses:
        chosen = ctx.ask(Question(p.name, "discard a Curse?", "cards", curses[:1], 0, 1))
        if chosen:
            act.discard(ctx.game, p, chosen)
            return True
    act.gain(ctx.game, p, "Curse", cite=TRIGGERED)
    act.gain(ctx.game, p, "Copper", cite=R("Mountebank", 1))
    return True


register(CardDef("Mountebank", Sequence(PlusCoins(coins("Mountebank")), EachOtherPlayer(Do(_mountebank_victim)))))


def _rabble_victim(ctx: Ctx) -> bool:
    """Each other player reveals the top 3 cards of their deck, discards the Actions and Treasures, and puts the rest back in any order."""
    g, p = ctx.game, ctx.player
    seen = act.reveal_top(g, p, 3)
    hit = [c for c in seen if c.is_type("Action") or c.is_type("Treasure")]
    act.discard(g, p, hit, R("Rabble"), what=f"the revealed Actions and Treasures ({act.names(hit)})")
    rest = [c for c in seen if c.zone == "revealed"]
    if rest:
        put_back_in_any_order(ctx, rest, R("Rabble"), "put the rest back: order them, top card first")
    return True


register(CardDef("Rabble", Sequence(Draw(3), EachOtherPlayer(Do(_rabble_victim)))))


def _clerk_victim(ctx: Ctx) -> bool:
    """Each other player with 5 or more cards in hand puts one of them onto their deck."""
    p = ctx.player
    if len(p.hand) < 5:
        ctx.log(f"{p.name} has {len(p.hand)} cards in hand, fewer than 5: nothing happens")
        return False
    chosen = ctx.ask(Question(p.name, "put a card from your hand onto your deck", "cards", list(p.hand), 1, 1))
    act.topdeck(ctx.game, p, chosen[0])
    return True


def _clerk_start(game: Game, ev, p: Player, card: Card) -> None:
    """At the start of your turn, you may play this from your hand (using no Action)."""
    if card.zone != "hand":
        return
    if not game.decider.ask(Question(p.name, "play Clerk from your hand at the start of your turn?", "yesno", [])):
        game.log.add(f"{p.name} keeps Clerk in hand")
        return
    game.log.add(f"{p.name} plays Clerk at the start of their turn, using no Action", R("Clerk", 1))
    act.play(game, p, card)


register(CardDef("Clerk", Sequence(PlusCoins(coins("Clerk")), EachOtherPlayer(Do(_clerk_victim))),
                 reactions={"start_of_turn": Reaction(_clerk_start,
                                                      applies=lambda g, ev, p, c: ev.player is p)}))


def _charlatan_setup(game: Game) -> None:
    """With Charlatan in the game, every Curse is also a Treasure worth $1 (Charlatan 2-3)."""
    game.versions.setdefault("Curse", "Charlatan")
    extra = getattr(game, "extra_types", None)
    if extra is not None:
        extra.setdefault("Curse", set()).add("Treasure")
    game.log.add("Charlatan is in the game: Curses are also Treasures worth $1 for the whole game", R("Charlatan", 2))


register(CardDef("Charlatan", Sequence(PlusCoins(coins("Charlatan"), cite=R("Charlatan", 1)),
                                       EachOtherPlayer(Gain("Curse"))), setup=_charlatan_setup))
register(CardDef("Curse", PlusCoins(1, cite=R("Charlatan", 2)), version="Charlatan", vp=vp_points("Curse"),
                 note="in games using Charlatan: also a Treasure worth $1"), default=False)


# ------------------------------------------------------------------ Mint
def _reveal_and_copy(ctx: Ctx) -> bool:
    """Gain a copy of the revealed Treasure."""
    shown = _stored(ctx, "revealed")
    if not shown:
        return False
    return act.gain(ctx.game, ctx.player, shown[0].name, cite=R("Mint", 4)) is not None


def _mint_trash(duration_too: bool, cite: dict):
    def hook(game: Game, ev, card: Card) -> None:
        """Trash the Treasures you have in play (2022 version: only the non-Duration ones)."""
        p = ev.player
        gone = [c for c in p.in_play if c.is_type("Treasure") and (duration_too or not c.is_type("Duration"))]
        if not gone:
            game.log.add(f"{p.name} has no Treasures in play to trash", cite)
            return
        act.trash(game, p, gone, cite)
    return hook


_mint_play = Sequence(
    ChooseFromHand("reveal", 0, 1, filter=_treasure, store="revealed", describe="a Treasure (to gain a copy)"),
    IfYouDid(Do(_reveal_and_copy)))
register(CardDef("Mint", _mint_play, version="2", hooks={"when_gain": _mint_trash(False, R("Mint", 1))},
                 note="2022: when-gain, trashes non-Duration Treasures in play (Mint 1)"))
register(CardDef("Mint", _mint_play, version="1", hooks={"when_buy": _mint_trash(True, R("Mint", 9, "pre-2022"))},
                 note="pre-2022: when you buy this, trash all Treasures in play"), default=False)


# ------------------------------------------------------------------ Treasures with ongoing abilities
def _hoard_gold(cite: dict):
    """When a Victory card is bought (pre-2022) or gained having been bought (2022), gain a Gold."""
    def run(game: Game, ev) -> None:
        """Gain a Gold."""
        act.gain(game, ev.player, "Gold", cite=cite)
    return run


def _hoard_2022(ctx: Ctx) -> bool:
    """This turn, when you gain a Victory card you bought, gain a Gold."""
    ongoing.set_up_this_turn(
        ctx.game, ctx.player, "when_gain", "Hoard's ability", _hoard_gold(R("Hoard", 1)),
        condition=lambda g, ev: ev.card.is_type("Victory") and ongoing.bought(g, ev.card), cite=R("Hoard", 1))
    return True


register(CardDef("Hoard", Sequence(PlusCoins(coins("Hoard")), Do(_hoard_2022)), version="2",
                 note="2022: this turn, when you gain a Victory card you bought, gain a Gold"))
register(CardDef("Hoard", PlusCoins(coins("Hoard")), version="1",
                 while_in_play={"when_buy": ongoing.while_mine(
                     lambda g, ev, card: _hoard_gold(R("Hoard", 4, "pre-2022"))(g, ev) if ev.card.is_type("Victory") else None)},
                 note="pre-2022: while in play, when you buy a Victory card, gain a Gold"), default=False)


def _talisman(game: Game, ev, card: Card) -> None:
    """When you buy a non-Victory card costing $4 or less, gain a copy of it."""
    c = ev.card
    cost = ev.data.get("cost", c.cost)
    if c.is_type("Victory") or cost > 4 or has_extra_cost(c):     # "$4 or less": no Potion/Debt (CARD COSTS)
        why = ("a Victory card" if c.is_type("Victory") else f"it cost ${cost} when bought" if cost > 4
               else "its cost has Potion or Debt in it")
        game.log.add(f"Talisman does not copy {c.name}: {why}", R("Talisman", 1))
        return
    game.log.add(f"Talisman: {c.name} cost ${cost} when bought (up to $4, not a Victory card)", R("Talisman", 1),
                 R("Talisman", 3))
    act.gain(game, ev.player, c.name, cite=R("Talisman", 1))


register(CardDef("Talisman", PlusCoins(coins("Talisman")),
                 while_in_play={"when_buy": ongoing.while_mine(_talisman)}))


def _royal_seal(game: Game, ev, card: Card) -> None:
    """When you gain a card, you may put it onto your deck."""
    p = ev.player
    if not ongoing.still_there(ev):
        return
    if game.decider.ask(Question(p.name, f"put the gained {ev.card.name} onto your deck (Royal Seal)?", "yesno", [])):
        ongoing.move_gained(game, p, ev, "deck", R("Royal Seal", 1))


register(CardDef("Royal Seal", PlusCoins(coins("Royal Seal")),
                 while_in_play={"when_gain": ongoing.while_mine(_royal_seal)}))


def _tiara_topdeck(game: Game, ev) -> None:
    """This turn, when you gain a card, you may put it onto your deck."""
    p = ev.player
    if not ongoing.still_there(ev):
        game.log.add(f"{ev.card.name} was already moved, so Tiara cannot put it onto the deck", narrate.LOSE_TRACK)
        return
    if game.decider.ask(Question(p.name, f"put the gained {ev.card.name} onto your deck (Tiara)?", "yesno", [])):
        ongoing.move_gained(game, p, ev, "deck", R("Tiara", 2))


def _play_treasure_twice(ctx: Ctx) -> bool:
    """You may play a Treasure from your hand twice."""
    p, g = ctx.player, ctx.game
    options = [c for c in p.hand if c.is_type("Treasure")]
    if not options:
        ctx.log(f"{p.name} has no Treasure in hand to play twice", narrate.DO_AS_MUCH)
        return False
    chosen = ctx.ask(Question(p.name, "choose a Treasure to play twice", "cards", options, 0, 1))
    if not chosen:
        ctx.log(f"{p.name} chooses not to play a Treasure twice with Tiara")
        return False
    card = chosen[0]
    expected = g.ref(card)
    for i, nth in enumerate(("", " a second time")):
        placed = act.play(g, p, card, expected, by=ctx.source, nth=nth)
        if i == 0 and placed is not None:
            expected = placed
    return True


register(CardDef("Tiara", Sequence(
    PlusBuys(1),
    Do(lambda ctx: ongoing.set_up_this_turn(ctx.game, ctx.player, "when_gain", "Tiara's ability", _tiara_topdeck,
                                            cite=R("Tiara", 2)) or True),
    Do(_play_treasure_twice))))


def _collection(ctx: Ctx) -> bool:
    """This turn, when you gain an Action card, +1 VP."""
    ongoing.set_up_this_turn(
        ctx.game, ctx.player, "when_gain", "Collection's ability",
        lambda g, ev: add_vp(g, ev.player, 1, R("Collection", 1), f" for gaining {ev.card.name}"),
        condition=lambda g, ev: ev.card.is_type("Action"), cite=R("Collection", 1))
    return True


register(CardDef("Collection", Sequence(PlusCoins(coins("Collection")), PlusBuys(1), Do(_collection))))

for _v, _cite, _wip in (("2", R("Quarry", 1), False), ("1", R("Quarry", 2), True)):
    register(CardDef("Quarry", Sequence(PlusCoins(coins("Quarry")), ReduceCosts(
        2, applies=lambda g, c: c.is_type("Action"), describe="Action cards", while_in_play=_wip, cite=_cite)),
        version=_v, note="2022: this turn (cumulative)" if _v == "2" else "pre-2022: while in play"),
        default=_v == "2")


# ------------------------------------------------------------------ naming cards
def _contraband(ctx: Ctx) -> bool:
    """The player to your left names a card; you can't buy that card this turn."""
    left = _left(ctx.game, ctx.player)
    if left is None:
        ctx.log("There is no player to the left to name a card")
        return False
    named = name_a_card(ctx, left, f"{ctx.player.name} can't buy it this turn")
    ongoing.cannot_buy(ctx.game, ctx.player, named, f"{named} was named for Contraband", R("Contraband", 1))
    return True


register(CardDef("Contraband", Sequence(PlusCoins(coins("Contraband")), PlusBuys(1), Do(_contraband))))


def _named_for_war_chests(game: Game) -> set[str]:
    return {la.label for la in game.later if la.trigger == "memo:War Chest"}


def _war_chest(ctx: Ctx) -> bool:
    """The player to your left names a card; gain a card costing up to $5 not named for War Chests this turn."""
    g, p = ctx.game, ctx.player
    left = _left(g, p)
    if left is not None:
        named = name_a_card(ctx, left, "it can't be gained with War Chest this turn")
        g.later.append(LaterAbility(p.index, "memo:War Chest", named, lambda game, ev: None))
    banned = _named_for_war_chests(g)
    ctx.log(f"Named for War Chests this turn: {', '.join(sorted(banned)) or 'nothing'}", R("War Chest", 3))
    return Gain(filter=lambda c2, c: costs_up_to(c, 5) and c.name not in banned, cite=R("War Chest", 2),
                describe="a card costing up to $5 not named for War Chests this turn").apply(ctx)


register(CardDef("War Chest", Do(_war_chest)))


# ------------------------------------------------------------------ digging: Loan, Venture, Crystal Ball
def _dig_treasure(ctx: Ctx) -> tuple[Card | None, list[Card]]:
    g, p = ctx.game, ctx.player
    others: list[Card] = []
    while True:
        got = act.from_deck(g, p, 1, "revealed")
        if not got:
            ctx.log(f"{p.name} runs out of cards without revealing a Treasure", narrate.DO_AS_MUCH)
            return None, others
        c = got[0]
        ctx.log(f"{p.name} reveals {c.name}", DIG)
        act.revealed(g, p, got)      # revealed: their when-revealed abilities (Patron 1)
        if c.is_type("Treasure"):
            return c, others
        others.append(c)


def _loan(ctx: Ctx) -> bool:
    """Reveal cards from your deck until you reveal a Treasure; discard it or trash it, and discard the other revealed cards."""
    g, p = ctx.game, ctx.player
    found, others = _dig_treasure(ctx)
    if found is not None:
        what = ctx.ask(Question(p.name, f"discard or trash the revealed {found.name}?", "choice", ["discard", "trash"]))
        if what == "trash":
            act.trash(g, p, [found], R("Loan", 1))
        else:
            act.discard(g, p, [found], R("Loan", 1))
    act.discard(g, p, others, TRIGGERED, what=f"the other revealed cards ({act.names(others)})")
    return found is not None


register(CardDef("Loan", Sequence(PlusCoins(coins("Loan")), Do(_loan))))


def _venture(ctx: Ctx) -> bool:
    """Reveal cards from your deck until you reveal a Treasure; discard the other cards and play that Treasure."""
    g, p = ctx.game, ctx.player
    found, others = _dig_treasure(ctx)
    act.discard(g, p, others, R("Venture", 2), what=f"the other revealed cards ({act.names(others)})")
    if found is None:
        return False
    act.play(g, p, found, nth=" (revealed by Venture)")
    return True


register(CardDef("Venture", Sequence(PlusCoins(coins("Venture")), Do(_venture))))


def _crystal_ball(ctx: Ctx) -> bool:
    """Look at the top card of your deck; you may trash it, discard it, or, if it is an Action or Treasure, play it."""
    g, p = ctx.game, ctx.player
    seen = act.reveal_top(g, p, 1, verb="looks at")
    if not seen:
        return False
    c = seen[0]
    options = ["trash", "discard"] + (["play"] if c.is_type("Action") or c.is_type("Treasure") else []) + ["put back"]
    what = ctx.ask(Question(p.name, f"{c.name}: trash it, discard it, play it or put it back?", "choice", options))
    if what == "trash":
        act.trash(g, p, [c])
    elif what == "discard":
        act.discard(g, p, [c])
    elif what == "play":
        cite = R("Crystal Ball", 3) if c.is_type("Action") else R("Crystal Ball", 1)
        ctx.log(f"{p.name} plays {c.name} from the top of their deck (no Action is used)", cite)
        act.play(g, p, c)
    else:
        act.topdeck(g, p, c, R("Crystal Ball", 2), quiet=True)
        ctx.log(f"{p.name} puts {c.name} back on their deck", R("Crystal Ball", 2))
    return True


register(CardDef("Crystal Ball", Sequence(PlusCoins(coins("Crystal Ball")), Do(_crystal_ball))))


# ------------------------------------------------------------------ Investment
def _investment_vp(ctx: Ctx) -> bool:
    """Reveal your hand: +1 VP per differently named Treasure in it."""
    p = ctx.player
    kinds = sorted({c.name for c in p.hand if c.is_type("Treasure")})
    ctx.log(f"{p.name} reveals their hand ({act.names(p.hand)}): differently named Treasures: "
            f"{', '.join(kinds) or 'none'}", R("Investment", 3))
    act.revealed(ctx.game, p, list(p.hand))
    add_vp(ctx.game, p, len(kinds), R("Investment", 3))
    return True


register(CardDef("Investment", Sequence(
    ChooseFromHand("trash", 1, 1, cite=R("Investment", 4)),
    ChooseOne({"+$1": PlusCoins(1, cite=R("Investment", 1)),
               "trash this": Sequence(TrashSelf(cite=R("Investment", 5)),
                                      IfYouDid(Do(_investment_vp), cite=R("Investment", 2)))}))))


# ------------------------------------------------------------------ Trade Route
register(CardDef("Trade Route", Sequence(
    PlusBuys(1),
    ChooseFromHand("trash", 1, 1, cite=R("Trade Route", 2)),
    PlusCoins(lambda ctx: trade_route_mat(ctx.game), cite=R("Trade Route", 5))), setup=set_up_trade_route))


# ------------------------------------------------------------------ Watchtower
def _watchtower_react(game: Game, ev, p: Player, card: Card) -> None:
    """When you gain a card, you may reveal this from your hand, to trash that card or put it onto your deck."""
    gained = ev.card
    if card.zone != "hand":
        return
    if not ongoing.still_there(ev):
        if gained.zone == "deck" and p.deck and p.deck[0] is not gained:
            game.log.add(f"{gained.name} has been covered up on top of the deck, so Watchtower has lost track of it "
                         "and cannot move it", narrate.LOSE_TRACK, R("Watchtower", 3))
            return
        game.log.add(f"{gained.name} has already been moved, so Watchtower can no longer react to it",
                     narrate.LOSE_TRACK, R("Watchtower", 3))
        return
    what = game.decider.ask(Question(p.name, f"reveal Watchtower to trash the gained {gained.name} or put it onto "
                                     "your deck?", "choice", ["trash", "deck", "no"]))
    if what == "no":
        game.log.add(f"{p.name} does not reveal Watchtower for {gained.name}")
        return
    game.log.add(f"{p.name} reveals {card.name}", R("Watchtower", 1))   # an Estate with its abilities (pre-2019)
    ongoing.move_gained(game, p, ev, "trash" if what == "trash" else "deck", R("Watchtower", 3))
    if what == "trash":
        game.log.add(f"{p.name} still gained {gained.name}: its when-gain abilities still happen", R("Watchtower", 4))


def _watchtower_draw(ctx) -> None:
    """Draw until you have 6 cards in hand; with 6 or more already, draw nothing."""
    act.draw_to(ctx.game, ctx.player, 6)


register(CardDef("Watchtower", Do(_watchtower_draw),
                 reactions={"when_gain": Reaction(_watchtower_react, applies=ongoing.watch_gains)}))
