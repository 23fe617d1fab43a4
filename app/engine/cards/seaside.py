"""Seaside, both editions. Each definition follows the card's text in the card facts and cites its
Card Reference entry; Durations use durations.py, mats and tokens mats.py, extra turns and
"until your next turn" abilities turns.py.

Versions (the current printing is the default, "1" the earlier one):
Lighthouse (2022 / pre-2022, Lighthouse 3+5), Treasury (2022 / pre-2022, Treasury 1+4),
Embargo (2019 / pre-2019, Embargo 2+3), Outpost (2017 edition / 1st edition, Outpost 2+3).
"""
from __future__ import annotations

from app.engine.core import activities as act
from app.engine.core import narrate
from app.engine.mechanisms import ongoing
from app.engine.core.narrate import TRIGGERED, R
from app.engine.core.costs import costs_up_to
from app.engine.core.decisions import Question
from app.engine.mechanisms.durations import NextTurn, NowAndNextTurn, set_aside_until_next_turn
from app.engine.core.effects import (ChooseFromHand, ChooseOne, Ctx, Do, Draw, EachOtherPlayer, Gain, PlusActions, PlusBuys,
                                PlusCoins, Sequence, put_back_in_any_order, TrashForCost)
from app.engine.mechanisms.mats import (add_pile_token, add_tokens, pile_token_setup, put_on_mat, take_all_from_mat,
                                       tokens)
from app.engine.core.registry import CardDef, Reaction, register
from app.engine.core.state import Card, Game, LaterAbility
from app.engine.core.triggers import Event, from_play, only_if
from app.engine.core.turns import (attacked_players, consecutive_turns, grant_extra_turn, protect_from_attacks,
                              until_next_turn)

DIG = narrate.REVEALING


def _in_play(ctx: Ctx) -> bool:
    """Whether this play moved the card into play and it is still there (EFFECT WHEN MOVED FROM PLAY § VI)."""
    return ctx.source_ref is not None and ctx.source_ref.valid()


# ------------------------------------------------------------------ +stuff
register(CardDef("Bazaar", Sequence(Draw(1), PlusActions(2), PlusCoins(1))))
register(CardDef("Warehouse", Sequence(Draw(3), PlusActions(1), ChooseFromHand("discard", 3, 3, cite=R("Warehouse", 1),
                                                                               describe="3 cards"))))

# ------------------------------------------------------------------ simple Durations
register(CardDef("Caravan", Sequence(Draw(1), PlusActions(1),
                                     NextTurn("Caravan: +1 Card", Draw(1), R("Caravan", 1)))))
register(CardDef("Fishing Village", Sequence(
    PlusActions(2), PlusCoins(1),
    NextTurn("Fishing Village: +1 Action and +$1", Sequence(PlusActions(1), PlusCoins(1)), R("Fishing Village", 2)))))
register(CardDef("Merchant Ship", NowAndNextTurn("Merchant Ship: +$2", PlusCoins(2), R("Merchant Ship", 1))))
register(CardDef("Wharf", NowAndNextTurn("Wharf: +2 Cards and +1 Buy", Sequence(Draw(2), PlusBuys(1)), R("Wharf", 1))))
register(CardDef("Astrolabe", NowAndNextTurn("Astrolabe: +$1 and +1 Buy", Sequence(PlusCoins(1), PlusBuys(1)),
                                             R("Astrolabe", 1))))
register(CardDef("Tide Pools", Sequence(
    Draw(3), PlusActions(1),
    NextTurn("Tide Pools: discard 2 cards", ChooseFromHand("discard", 2, 2, cite=R("Tide Pools", 1),
                                                           describe="2 cards"), R("Tide Pools", 1)))))
register(CardDef("Sea Witch", Sequence(
    Draw(2), EachOtherPlayer(Gain("Curse", cite=narrate.CONCURRENT)),
    NextTurn("Sea Witch: +2 Cards, then discard 2 cards",
             Sequence(Draw(2), ChooseFromHand("discard", 2, 2, cite=R("Sea Witch", 2), describe="2 cards")),
             R("Sea Witch", 1)))))


# ------------------------------------------------------------------ Haven, Tactician (may fail to set up)
def _haven(ctx: Ctx) -> bool:
    """Set aside a card from your hand face down; at the start of your next turn, put it into your hand."""
    p = ctx.player
    if not p.hand:
        ctx.log(f"{p.name} has no card to set aside, so Haven sets nothing up and will be discarded this turn",
                R("Haven", 2))
        return False
    chosen = ctx.ask(Question(p.name, "set aside a card from your hand face down", "cards", list(p.hand), 1, 1))
    return set_aside_until_next_turn(ctx, chosen, "Haven: put the set-aside card into your hand", R("Haven", 1))


register(CardDef("Haven", Sequence(Draw(1), PlusActions(1), Do(_haven))))


def _tactician(ctx: Ctx) -> bool:
    """If you have a card in hand: discard your hand, and at the start of your next turn, +5 Cards, +1 Action and +1 Buy."""
    p = ctx.player
    if not p.hand:
        ctx.log(f"{p.name} has no cards in hand to discard, so this Tactician sets nothing up", R("Tactician", 2))
        return False
    act.discard(ctx.game, p, list(p.hand), R("Tactician", 2), what=f"their hand ({act.names(p.hand)})")
    return NextTurn("Tactician: +5 Cards, +1 Action and +1 Buy", Sequence(Draw(5), PlusActions(1), PlusBuys(1)),
                    R("Tactician", 1)).apply(ctx)


# Throne Room + Tactician: the second play discards nothing and sets nothing up, yet the Throne Room stays
# in play with the Tactician (Failing to set up later abilities § IV, the 2016 ruling; Tactician 2). The
# BGG FAQ (17.3) still says the Throne Room is discarded this turn; the Complete Rules are newer and win.
register(CardDef("Tactician", Do(_tactician)))

# ------------------------------------------------------------------ Lighthouse (2022 / pre-2022)
register(CardDef("Lighthouse", Sequence(
    PlusActions(1), PlusCoins(1),
    NextTurn("Lighthouse: +$1", PlusCoins(1), R("Lighthouse", 1)),
    Do(lambda ctx: protect_from_attacks(ctx.game, ctx.player, "Lighthouse: Attacks do not affect you until your "
                                        "next turn", R("Lighthouse", 3), ctx.source) and None)),
    version="2", note="2022: protection from play until your next turn starts (Lighthouse 3-4)"))


def _lighthouse_in_play(game: Game, ev: Event, card: Card) -> None:
    """While this is in play, Attacks other players play do not affect you."""
    if card.owner is not None and card.owner != ev.player.index:
        ev.data["unaffected"].add(card.owner)
        game.log.add(f"{ev.card.name} does not affect {game.players[card.owner].name}: their Lighthouse is in play",
                     R("Lighthouse", 5))


register(CardDef("Lighthouse", Sequence(PlusActions(1), PlusCoins(1),
                                        NextTurn("Lighthouse: +$1", PlusCoins(1), R("Lighthouse", 1))),
                 version="1", note="pre-2022: protection while this is in play (Lighthouse 5)",
                 while_in_play={"attack_played": _lighthouse_in_play}), default=False)


# ------------------------------------------------------------------ Outpost (2017 edition / 1st edition)
def _outpost(ctx: Ctx) -> bool:
    """2017 edition: decided on play (Outpost 3): only the first Outpost this turn, and not on a 2nd turn in a row."""
    g, p = ctx.game, ctx.player
    if g.turn.played["Outpost"] > 1:
        ctx.log("This is not the first time Outpost was played this turn: no extra turn, no smaller hand",
                R("Outpost", 3), R("Outpost", 6))
        return False
    if consecutive_turns(g) >= 2:
        ctx.log(f"This is already {p.name}'s 2nd turn in a row: Outpost gives no extra turn, does not limit "
                "the Clean-up draw and does not stay in play", R("Outpost", 3))
        return False
    g.turn.cleanup_draw = 3
    ctx.log(f"{p.name} will draw only 3 cards in Clean-up this turn", R("Outpost", 1))
    grant_extra_turn(g, p, R("Outpost", 3))
    return NextTurn("Outpost: the extra turn (Outpost is discarded in its Clean-up)",
                    Do(lambda c: None), R("Outpost", 4)).apply(ctx)


def _outpost_1st(ctx: Ctx) -> bool:
    """1st edition: both abilities are set up on play; the consecutive-turn check is after the turn (Outpost 2).

    Each Outpost's extra-turn ability is resolved after a turn: the first one gives the extra turn, and
    that Outpost is discarded in the extra turn's Clean-up. A second Outpost's ability is resolved only
    after the extra turn (and fails: no 3rd turn in a row), so that Outpost stays in play through the
    extra turn's Clean-up and is discarded "in the following Clean-up, which is in the next player's
    turn" (Outpost 2; other players discard from play too, Clean-up phase § II).
    """
    g, p = ctx.game, ctx.player
    g.turn.cleanup_draw = 3
    ctx.log(f"{p.name} will draw only 3 cards in Clean-up this turn", R("Outpost", 1), R("Outpost", 5))
    grant_extra_turn(g, p, R("Outpost", 2))
    label = "Outpost: the extra turn (checked after the current turn)"
    holder: dict = {}

    def run(game: Game, ev: Event) -> None:
        if game.turn.extra and not getattr(game.turn, "_outpost_1st_taken", False):
            game.turn._outpost_1st_taken = True     # this Outpost's extra turn: discarded in its Clean-up
            game.log.add(f"Start of turn: {label}: this is the extra turn it gave", R("Outpost", 2))
            return
        if game.turn.extra:     # another Outpost's extra turn: this one's is resolved after it (and fails)
            game.later.append(holder["la"])
            game.log.add("Another Outpost gave this extra turn; this Outpost's extra turn is resolved after it, "
                         "so it stays in play", R("Outpost", 2))
            return
        game.log.add("This Outpost's extra turn was not taken: nothing is left for it to do", R("Outpost", 2))

    # pending only until the owner's turns in a row end (then it is discarded in the next Clean-up)
    act.set_up_later(g, p, "start_of_turn", label, run, ctx.source, until="used", cite=R("Outpost", 2),
                     condition=lambda game, ev, owner=p.index: game.turn.player == owner)
    holder["la"] = g.later[-1]
    return True


register(CardDef("Outpost", Do(_outpost), version="2", note="2017 edition: extra turn decided on play (Outpost 3)"))
register(CardDef("Outpost", Do(_outpost_1st), version="1", note="1st edition (Outpost 2)"), default=False)


# ------------------------------------------------------------------ mats
def _native_village(ctx: Ctx) -> bool:
    """Choose one: put the top card of your deck face down on your Native Village mat; or put all the cards from the mat into your hand."""
    g, p = ctx.game, ctx.player
    label = ctx.ask(Question(p.name, "choose one (without looking at your deck first, Native Village 2)", "choice",
                             ["put the top card of your deck on the mat", "put all the cards from the mat into your hand"]))
    ctx.log(f"{p.name} chooses: {label}", R("Native Village", 1))
    if label.startswith("put the top"):
        top = act.from_deck(g, p, 1, "revealed")
        if not top:
            ctx.log(f"{p.name} has no card to put on the mat", narrate.DO_AS_MUCH)
            return False
        put_on_mat(g, p, top[0], "Native Village", R("Native Village", 1), face_down=True)
        return True
    take_all_from_mat(g, p, "Native Village", "hand", R("Native Village", 1))
    return True


register(CardDef("Native Village", Sequence(PlusActions(2), Do(_native_village))))


def _island(ctx: Ctx) -> bool:
    """Put this and a card from your hand onto your Island mat."""
    g, p = ctx.game, ctx.player
    if _in_play(ctx):
        put_on_mat(g, p, ctx.source, "Island", R("Island", 1))
    else:
        ctx.log(f"{ctx.source.name} is not in play (it is {narrate.where(ctx.source, ctx.game)}), so only a card from the hand "
                "is put on the mat", R("Island", 3))
    if not p.hand:
        ctx.log(f"{p.name} has no card in hand to put on the mat", R("Island", 2))
        return False
    chosen = ctx.ask(Question(p.name, "put a card from your hand onto your Island mat", "cards", list(p.hand), 1, 1))
    put_on_mat(g, p, chosen[0], "Island", R("Island", 3) if not _in_play(ctx) else R("Island", 1))
    return True


register(CardDef("Island", Do(_island), vp=2))


def _pirate_ship_attack(ctx: Ctx) -> bool:
    """Each other player reveals the top 2 cards of their deck, trashes a revealed Treasure you choose and discards the rest; if anyone trashed one, +1 Coin token on your mat."""
    g, me = ctx.game, ctx.player
    anyone = False
    for p in g.others(me):
        if p.index in ctx.unaffected:
            ctx.log(f"{p.name} is unaffected by Pirate Ship", narrate.REACTION_TO_ATTACK)
            continue
        seen = act.reveal_top(g, p, 2)
        treasures = [c for c in seen if c.is_type("Treasure")]
        if treasures:
            chosen = ctx.ask(Question(me.name, f"choose a Treasure for {p.name} to trash", "cards", treasures, 1, 1))
            act.trash(g, p, chosen, R("Pirate Ship", 2))
            anyone = True
        rest = [c for c in seen if c.zone == "revealed"]
        act.discard(g, p, rest, TRIGGERED, what=f"the rest ({act.names(rest)})")
    if anyone:
        add_tokens(g, me, "Pirate Ship", 1, R("Pirate Ship", 5), what="Coin token")
    else:
        ctx.log("No one trashed a Treasure, so no Coin token", R("Pirate Ship", 1))
    return anyone


register(CardDef("Pirate Ship", ChooseOne({
    "+$1 per Coin token on your Pirate Ship mat": PlusCoins(lambda ctx: tokens(ctx.player, "Pirate Ship"),
                                                            cite=R("Pirate Ship", 6)),
    "attack": Do(_pirate_ship_attack)})))


# ------------------------------------------------------------------ Embargo (2019 / pre-2019)
def _embargo_token(require_moved: bool):
    def fn(ctx: Ctx) -> bool:
        """Trash this to add an Embargo token to a Supply pile (buying a card from it gains a Curse)."""
        g, p = ctx.game, ctx.player
        if require_moved:
            if not _in_play(ctx):
                ctx.log("Embargo is not in play (it was trashed already), so no token this time", R("Embargo", 2))
                return False
            act.trash(g, p, [ctx.source], R("Embargo", 1))
        elif _in_play(ctx):
            act.trash(g, p, [ctx.source], R("Embargo", 1))
        else:
            ctx.log("Embargo is no longer in play, but the pre-2019 version adds a token anyway", R("Embargo", 3))
        piles = list(g.supply)
        pile = ctx.ask(Question(p.name, "add an Embargo token to a Supply pile", "choice", piles))
        add_pile_token(g, p, pile, "Embargo", R("Embargo", 2 if require_moved else 3), rule=_embargo_rule(pile))
        return True
    return fn


def _embargo_rule(pile: str):
    """The token's rule: buying a card from the pile gains a Curse (one ability per token, Embargo 7)."""
    def curse(game: Game, ev: Event, pile=pile) -> None:
        # a when-buy ability: the Curse is gained before the bought card (Embargo 5, GAIN ON WHEN-BUY)
        game.log.add(f"Embargo token on {pile}: {ev.player.name} gains a Curse", R("Embargo", 5))
        act.gain(game, ev.player, "Curse", cite=R("Embargo", 7))
    return ("when_buy", f"Embargo token on {pile}", curse,
            lambda game, ev, pile=pile: ev.card is not None and ev.card.name == pile)


@pile_token_setup("Embargo")
def _embargo_tokens_in_setup(game: Game, pile: str, before: int, after: int) -> None:
    """Embargo tokens a scenario starts with carry their rule, as if an Embargo had put them there."""
    owner = game.players[0] if game.players else None
    trigger, label, run, condition = _embargo_rule(pile)
    for _ in range(max(0, after - before)):
        if owner is not None:
            game.later.append(LaterAbility(owner.index, trigger, label, run, None, condition, "game",
                                           [R("Embargo", 7)], anyone=True, by_actor=True))


register(CardDef("Embargo", Sequence(PlusCoins(2), Do(_embargo_token(True))), version="2",
                 note="2019: no token when not moved into play (Embargo 2)"))
register(CardDef("Embargo", Sequence(PlusCoins(2), Do(_embargo_token(False))), version="1",
                 note="pre-2019: a token every play (Embargo 3)"), default=False)


# ------------------------------------------------------------------ Attacks
def _cutpurse_victim(ctx: Ctx) -> bool:
    """Each other player discards a Copper (or reveals a hand with no Copper)."""
    p = ctx.player
    coppers = [c for c in p.hand if c.name == "Copper"]
    if not coppers:
        ctx.log(f"{p.name} reveals a hand with no Copper: {act.names(p.hand)}", R("Cutpurse"))
        act.revealed(ctx.game, p, list(p.hand))
        return False
    act.discard(ctx.game, p, coppers[:1], R("Cutpurse"))
    return True


register(CardDef("Cutpurse", Sequence(PlusCoins(2), EachOtherPlayer(Do(_cutpurse_victim)))))


def _sea_hag_victim(ctx: Ctx) -> bool:
    """Each other player discards the top card of their deck, then gains a Curse onto their deck."""
    g, p = ctx.game, ctx.player
    top = act.from_deck(g, p, 1, "revealed")
    if top:
        act.discard(g, p, top, R("Sea Hag", 2), what=f"the top card of their deck, {top[0].name}")
    act.gain(g, p, "Curse", to="deck", cite=R("Sea Hag", 1))
    return True


register(CardDef("Sea Hag", EachOtherPlayer(Do(_sea_hag_victim))))


def _ghost_ship_victim(ctx: Ctx) -> bool:
    """Each other player with 4 or more cards in hand puts cards from their hand onto their deck until they have 3 cards in hand."""
    p = ctx.player
    k = len(p.hand) - 3
    if k <= 0:
        ctx.log(f"{p.name} has {len(p.hand)} cards in hand and is not affected", R("Ghost Ship"))
        return False
    chosen = ctx.ask(Question(p.name, f"put {k} card{'s' if k != 1 else ''} from your hand onto your deck, "
                                      "in this order (the last one ends on top)", "cards", list(p.hand), k, k))
    for c in chosen:
        act.topdeck(ctx.game, p, c, R("Ghost Ship"))
    return True


register(CardDef("Ghost Ship", Sequence(Draw(2), EachOtherPlayer(Do(_ghost_ship_victim)))))


def _ambassador(ctx: Ctx) -> bool:
    """Reveal a card from your hand, return up to 2 copies of it from your hand to the Supply, then each other player gains a copy of it."""
    g, p = ctx.game, ctx.player
    if not p.hand:
        ctx.log(f"{p.name} has no card to reveal", narrate.DO_AS_MUCH)
        return False
    shown = ctx.ask(Question(p.name, "reveal a card from your hand", "cards", list(p.hand), 1, 1))[0]
    ctx.log(f"{p.name} reveals {shown.name}", R("Ambassador", 3))
    act.revealed(ctx.game, p, [shown])
    copies = [c for c in p.hand if c.name == shown.name]
    if shown.name in g.supply:
        n = ctx.ask(Question(p.name, f"return how many copies of {shown.name} (0 to {min(2, len(copies))})?",
                             "choice", [str(i) for i in range(min(2, len(copies)) + 1)]))
        for c in copies[:int(n)]:
            g.move(c, "supply")
        ctx.log(f"{p.name} returns {n} {shown.name} to the Supply", R("Ambassador", 4))
    else:
        ctx.log(f"{shown.name} does not belong to a Supply pile, so none can be returned", R("Ambassador", 1))
    for q in g.others(p):
        if q.index in ctx.unaffected:
            ctx.log(f"{q.name} is unaffected by Ambassador", narrate.REACTION_TO_ATTACK)
            continue
        act.gain(g, q, shown.name, cite=R("Ambassador", 2))
    return True


register(CardDef("Ambassador", Do(_ambassador)))


def _right_of(game: Game, index: int) -> int:
    return (index - 1) % len(game.players)


def _monkey(ctx: Ctx) -> bool:
    """Until your next turn, when the player to your right gains a card, +1 Card; at the start of your next turn, +1 Card."""
    g, p = ctx.game, ctx.player
    right = _right_of(g, p.index)

    def run(game: Game, ev: Event, p=p) -> None:
        game.log.add(f"{ev.player.name} (to {p.name}'s right) gained {ev.card.name}: Monkey gives {p.name} +1 Card",
                     R("Monkey", 1), R("Monkey", 3))
        act.draw(game, p, 1)
    until_next_turn(g, p, "when_gain", f"Monkey: +1 Card when {g.players[right].name} gains a card", run,
                    lambda game, ev, right=right: ev.player.index == right and right != p.index, ctx.source,
                    R("Monkey", 1))
    return NextTurn("Monkey: +1 Card", Draw(1), R("Monkey", 1)).apply(ctx)


register(CardDef("Monkey", Do(_monkey)))


def _corsair(ctx: Ctx) -> bool:
    """At the start of your next turn, +1 Card; until then, each other player trashes the first Silver or Gold they play each turn."""
    g, p = ctx.game, ctx.player
    victims = attacked_players(g, p, ctx.unaffected)

    def first_silver_or_gold(game: Game, ev: Event) -> bool:
        if ev.card is None or ev.card.name not in ("Silver", "Gold") or ev.player.index not in victims:
            return False
        if game.turn.player != ev.player.index:
            return True   # played on another player's turn: still theirs (Corsair 5)
        return game.turn.played["Silver"] + game.turn.played["Gold"] == 1

    def run(game: Game, ev: Event) -> None:
        if ev.card.zone != "in_play":
            game.log.add(f"{ev.card.name} is no longer in play: Corsair does not trash it", narrate.LOSE_TRACK,
                         R("Corsair", 4))
            return
        act.trash(game, ev.player, [ev.card], R("Corsair", 2))
    until_next_turn(g, p, "after_play", "Corsair: the first Silver or Gold each other player plays each turn is "
                    "trashed", run, first_silver_or_gold, ctx.source, R("Corsair", 1), by_actor=True)
    return NextTurn("Corsair: +1 Card", Draw(1), R("Corsair", 1)).apply(ctx)


register(CardDef("Corsair", Sequence(PlusCoins(2), Do(_corsair))))


def _blockade(ctx: Ctx) -> bool:
    """Gain a card costing up to $4, setting it aside; put it into your hand next turn; until then, others gaining a copy on their turn gain a Curse."""
    g, p = ctx.game, ctx.player
    # "costing up to $4": no Potion or Debt in the cost (CARD COSTS; Blockade 1 "Also see CARD COSTS")
    tops = [pile[-1] for pile in g.supply.values() if pile and costs_up_to(pile[-1], 4)]
    if not tops:
        ctx.log(f"{p.name} cannot gain a card costing up to $4", narrate.DO_AS_MUCH)
        return False
    choice = ctx.ask(Question(p.name, "gain a card costing up to $4, setting it aside", "cards", tops, 1, 1))[0]
    card = act.gain(g, p, choice.name, to="set_aside", cite=R("Blockade", 1))
    if card is None:
        return False
    if card.zone != "set_aside":       # moved when gained (Watchtower): lost track of at once
        ctx.log(f"Blockade lost track of {card.name} (it is {narrate.where(card, ctx.game)}): no ongoing ability and nothing to put "
                "into hand next turn, so Blockade is discarded this turn", R("Blockade", 4), narrate.LOSE_TRACK)
        return False
    card.set_aside_by = ctx.source.id
    ref = g.ref(card)
    victims = attacked_players(g, p, ctx.unaffected)

    def curse(game: Game, ev: Event, name=card.name) -> None:
        game.log.add(f"{ev.player.name} gained a copy of the card Blockade set aside ({name}) on their turn: "
                     "they gain a Curse", R("Blockade", 3))
        act.gain(game, ev.player, "Curse", cite=R("Blockade", 3))

    def cond(game: Game, ev: Event, ref=ref) -> bool:
        return (ref.valid() and ev.card is not None and ev.card.name == ref.card.name
                and ev.player.index in victims and game.turn.player == ev.player.index)
    until_next_turn(g, p, "when_gain", f"Blockade: others gaining {card.name} on their turn gain a Curse", curse, cond,
                    ctx.source, R("Blockade", 2), by_actor=True)   # the gainer resolves it (Blockade 7)

    def back(game: Game, ev: Event, ref=ref) -> None:     # only while the card is still set aside (condition)
        game.move(ref.card, "hand", owner=p.index)
        game.log.add(f"Start of turn: Blockade: {p.name} puts {ref.card.name} into their hand", R("Blockade", 2))
    # once the set-aside card is moved away, there is nothing left to do: Blockade is discarded that turn (Blockade 4)
    act.set_up_later(g, p, "start_of_turn", "Blockade: put the set-aside card into your hand", back, ctx.source,
                     condition=lambda game, ev, ref=ref: ref.valid(), until="used", cite=R("Blockade", 2))
    return True


register(CardDef("Blockade", Do(_blockade)))


# ------------------------------------------------------------------ gainers
def _smugglers(ctx: Ctx) -> bool:
    """Gain a copy of a card costing up to $6 that the player to your right gained on their last turn."""
    g, p = ctx.game, ctx.player
    right = g.players[_right_of(g, p.index)]
    last = g.last_turn.get(right.index)
    gained = list(last.gained) if last is not None else []
    names = []
    for c in gained:
        if c.name not in names and costs_up_to(c, 6):     # now, no Potion/Debt (Smugglers 1, CARD COSTS)
            names.append(c.name)
    ctx.log(f"{right.name} gained on their last turn: {act.names(gained)}", R("Smugglers", 3))
    dear = sorted({c.name for c in gained if c.cost > 6})
    if dear:
        ctx.log(f"{', '.join(dear)} cost{'s' if len(dear) == 1 else ''} more than $6 now, so "
                f"{'it is' if len(dear) == 1 else 'they are'} not a choice", R("Smugglers", 1))
    if not names:
        ctx.log(f"{p.name} has no card costing up to $6 to gain a copy of", R("Smugglers", 1))
        return False
    name = ctx.ask(Question(p.name, "gain a copy of a card costing up to $6 gained by the player to your right on "
                                    "their last turn", "choice", names))
    return act.gain(g, p, name, cite=R("Smugglers", 2)) is not None


register(CardDef("Smugglers", Do(_smugglers)))


def _explorer(ctx: Ctx) -> bool:
    """You may reveal a Province from your hand; if you do, gain a Gold to your hand; if you don't, gain a Silver to your hand."""
    g, p = ctx.game, ctx.player
    provinces = [c for c in p.hand if c.name == "Province"]
    if provinces and ctx.ask(Question(p.name, "reveal a Province from your hand?", "yesno", [])):
        ctx.log(f"{p.name} reveals a Province")
        return act.gain(g, p, "Gold", to="hand", cite=R("Explorer", 1)) is not None
    return act.gain(g, p, "Silver", to="hand", cite=R("Explorer", 1)) is not None


register(CardDef("Explorer", Do(_explorer)))


def _treasure_map(ctx: Ctx) -> bool:
    """Trash this and a Treasure Map from your hand; if you trashed two Treasure Maps, gain 4 Golds onto your deck."""
    g, p = ctx.game, ctx.player
    trashed = []
    if _in_play(ctx):
        # "two Treasure Maps" names the card: an Estate with Treasure Map's abilities (pre-2019 Estate token) is
        # trashed as "this" but is no Treasure Map; a Band of Misfits played as one is (Your Estate token pre-2019 4)
        is_map = ctx.source.name == "Treasure Map"
        act.trash(g, p, [ctx.source], R("Treasure Map", 7))
        if is_map:
            trashed.append(ctx.source)
        else:
            ctx.log(f"The trashed {ctx.source.name} is not a Treasure Map (Treasure Map refers to Treasure Maps by "
                    "name)", {"card": "Your Estate token", "ruling": 4, "version": "pre-2019"})
    else:
        ctx.log("This Treasure Map is no longer in play, so it is not trashed", R("Treasure Map", 4))
    other = [c for c in p.hand if c.name == "Treasure Map"]
    if other:
        act.trash(g, p, other[:1], R("Treasure Map", 7))
        trashed.append(other[0])
    else:
        ctx.log(f"{p.name} has no other Treasure Map in hand", R("Treasure Map", 3))
    if len(trashed) < 2:
        ctx.log("Two Treasure Maps were not trashed, so no Golds", R("Treasure Map", 1), R("Treasure Map", 6))
        return False
    for _ in range(4):
        act.gain(g, p, "Gold", to="deck", cite=R("Treasure Map", 2))
    return True


register(CardDef("Treasure Map", Do(_treasure_map)))


def _salvager(ctx: Ctx, card: Card, cost: int) -> bool:
    """+$1 per $1 the trashed card costs."""
    return PlusCoins(cost, cite=R("Salvager", 2)).apply(ctx)


register(CardDef("Salvager", Sequence(PlusBuys(1), TrashForCost(_salvager, R("Salvager", 3),
                                                                 "has no card to trash (the +1 Buy still happened)",
                                                                 R("Salvager", 1)))))


# ------------------------------------------------------------------ looking at the deck
def _lookout(ctx: Ctx) -> bool:
    """Look at the top 3 cards of your deck; trash one, discard one, and put the other back on top."""
    g, p = ctx.game, ctx.player
    seen = act.reveal_top(g, p, 3, verb="looks at")
    if not seen:
        return False
    t = ctx.ask(Question(p.name, "trash one of them", "cards", list(seen), 1, 1))
    act.trash(g, p, t, R("Lookout", 1))
    rest = [c for c in seen if c not in t]
    if rest:
        d = ctx.ask(Question(p.name, "discard one of them", "cards", rest, 1, 1))
        act.discard(g, p, d, R("Lookout", 1))
        rest = [c for c in rest if c not in d]
    for c in rest:
        act.topdeck(g, p, c, R("Lookout", 1))
    return True


register(CardDef("Lookout", Sequence(PlusActions(1), Do(_lookout))))


def _navigator(ctx: Ctx) -> bool:
    """Look at the top 5 cards of your deck; discard them all, or put them back in any order."""
    g, p = ctx.game, ctx.player
    seen = act.reveal_top(g, p, 5, verb="looks at")
    if not seen:
        return False
    if ctx.ask(Question(p.name, "discard them all?", "yesno", [])):
        act.discard(g, p, list(seen), R("Navigator"))
        return True
    put_back_in_any_order(ctx, list(seen), R("Navigator"), "put them back in any order, top card first")
    return True


register(CardDef("Navigator", Sequence(PlusCoins(2), Do(_navigator))))


def _pearl_diver(ctx: Ctx) -> bool:
    """Look at the bottom card of your deck; you may put it on top."""
    g, p = ctx.game, ctx.player
    if not p.deck and p.discard:
        act.shuffle(g, p)
    if not p.deck:
        ctx.log(f"{p.name} has no cards in their deck", narrate.DO_AS_MUCH)
        return False
    bottom = p.deck[-1]
    ctx.log(f"{p.name} looks at the bottom card of their deck: {bottom.name}", R("Pearl Diver"))
    if ctx.ask(Question(p.name, f"put {bottom.name} on top of your deck?", "yesno", [])):
        act.topdeck(g, p, bottom, R("Pearl Diver"))
        return True
    return False


register(CardDef("Pearl Diver", Sequence(Draw(1), PlusActions(1), Do(_pearl_diver))))


def _sea_chart(ctx: Ctx) -> bool:
    """Reveal the top card of your deck; if you have a copy of it in play, put it into your hand."""
    g, p = ctx.game, ctx.player
    top = act.reveal_top(g, p, 1)
    if not top:
        return False
    c = top[0]
    if any(x.name == c.name for x in p.in_play):
        act.to_hand(g, p, c, R("Sea Chart", 2))
        return True
    act.topdeck(g, p, c, quiet=True)
    ctx.log(f"{p.name} has no {c.name} in play and puts it back", R("Sea Chart", 1))
    return False


register(CardDef("Sea Chart", Sequence(Draw(1), PlusActions(1), Do(_sea_chart))))


# ------------------------------------------------------------------ Treasury (2022 / pre-2022)
def _treasury_end_of_buy(game: Game, ev: Event, card: Card) -> None:
    """2022: at the end of the Buy phase, if no Victory card was gained in it, you may topdeck this (Treasury 1)."""
    p = game.players[card.owner]
    if p is not game.current or card.zone != "in_play":
        return
    victory = [c for c in game.turn.gained_in_buy if c.is_type("Victory")]
    if victory:
        game.log.add(f"{p.name} gained {act.names(victory)} in this Buy phase, so Treasury is not put onto the deck",
                     R("Treasury", 1), R("Treasury", 2))
        return
    if game.decider.ask(Question(p.name, "put Treasury onto your deck?", "yesno", [])):
        act.topdeck(game, p, card, R("Treasury", 1))


register(CardDef("Treasury", Sequence(Draw(1), PlusActions(1), PlusCoins(1)), version="2",
                 note="2022: end of the Buy phase, any Victory card gained in it (Treasury 1)",
                 while_in_play={"end_of_buy_phase": _treasury_end_of_buy}))


def _treasury_discarded(game: Game, ev: Event, card: Card) -> None:
    """Pre-2022: when discarded from play, if you didn't *buy* a Victory card this turn, you may topdeck it."""
    p = ev.player
    if game.turn.phase != "cleanup" or card.zone != "discard" or p.index != game.turn.player:
        return
    if card.id not in getattr(game.turn, "_treasury_in_play", set()):
        return
    bought = [c for c in game.turn.bought if c.is_type("Victory")]
    if bought:
        game.log.add(f"{p.name} bought {act.names(bought)} this turn, so Treasury stays discarded",
                     R("Treasury", 4, "pre-2022"))
        return
    if game.decider.ask(Question(p.name, "put Treasury onto your deck?", "yesno", [])):
        act.topdeck(game, p, card, R("Treasury", 4, "pre-2022"))   # ruling 4 of the previous-version entry


def _treasury_mark(game: Game, ev: Event, card: Card) -> None:
    # which Treasuries are in play as Clean-up begins: only those are "discarded from play"
    """Note that this Treasury is in play as Clean-up begins (only those are discarded from play)."""
    marked = getattr(game.turn, "_treasury_in_play", set())
    marked.add(card.id)
    game.turn._treasury_in_play = marked


register(CardDef("Treasury", Sequence(Draw(1), PlusActions(1), PlusCoins(1)), version="1",
                 note="pre-2022: when discarded from play, if no Victory card was bought (Treasury 4)",
                 hooks={"when_discard": only_if(from_play, _treasury_discarded)},
                 while_in_play={"end_of_buy_phase": _treasury_mark}), default=False)


# ------------------------------------------------------------------ Sailor, Pirate
def _sailor(ctx: Ctx) -> bool:
    """Once this turn, when you gain a Duration card, you may play it; at the start of your next turn, +$2 and you may trash a card from your hand."""
    g, p = ctx.game, ctx.player
    used = {"done": False}

    def run(game: Game, ev: Event) -> None:
        if used["done"] or ev.data.get("to") is None:
            return
        # another Sailor (or Watchtower...) may already have moved it: not the same card twice (Sailor 2)
        ongoing.play_gained(game, p, ev, "Sailor", R("Sailor", 1), lost="this Sailor", lost_cite=R("Sailor", 2),
                            use=lambda: used.update(done=True))
    act.set_up_later(g, p, "when_gain", "Sailor: once this turn, you may play a Duration card you gain", run,
                     None, lambda game, ev: not used["done"] and ev.card is not None and ev.card.is_type("Duration")
                     and ongoing.gained_ref(ev) is not None,     # pin where it was gained before anything moves it
                     cite=R("Sailor", 1))
    return NextTurn("Sailor: +$2 and you may trash a card from your hand",
                    Sequence(PlusCoins(2), ChooseFromHand("trash", 0, 1, cite=R("Sailor", 7),
                                                          describe="a card (optional)")), R("Sailor", 7)).apply(ctx)


register(CardDef("Sailor", Sequence(PlusActions(1), Do(_sailor))))


def _pirate_react(game: Game, ev: Event, p, card: Card) -> None:
    """When any player gains a Treasure, you may play this from your hand."""
    if not game.decider.ask(Question(p.name, f"play Pirate from your hand ({ev.player.name} gained {ev.card.name})?",
                                     "yesno", [])):
        game.log.add(f"{p.name} does not play Pirate", R("Pirate", 4))
        return
    game.log.add(f"{p.name} plays Pirate from their hand in reaction to {ev.player.name} gaining {ev.card.name}",
                 R("Pirate", 3), R("Pirate", 4))
    act.play(game, p, card, game.ref(card))


register(CardDef("Pirate", NextTurn("Pirate: gain a Treasure costing up to $6 to your hand",
                                    Gain(filter=lambda ctx, c: c.is_type("Treasure") and costs_up_to(c, 6), to="hand",
                                         cite=R("Pirate", 2), describe="a Treasure costing up to $6"),
                                    R("Pirate", 1)),
                 reactions={"when_gain": Reaction(_pirate_react,
                                                  lambda game, ev, player, card: ev.card is not None
                                                  and ev.card.is_type("Treasure"))}))
