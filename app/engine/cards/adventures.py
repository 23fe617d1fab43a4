"""Adventures: the Kingdom cards and the Traveller upgrades (the Events are in events_adventures / ev's module).

Each definition follows the card's text in the card facts and cites its Card Reference entry.
Reserve cards use reserve.py (the Tavern mat and the calling windows), Travellers
travellers.py (exchanging, the upgrade piles outside the Supply), Durations durations.py
(Hireling and Champion last the rest of the game), the player tokens player_tokens.py.

Versions (the current printing is the default, "1" the earlier one): Haunted Woods, Swamp Hag,
Messenger (2022 when-gain / pre-2022 when-buy), Port (2022 when-gain / pre-2022 when-buy),
Bridge Troll (2022 "this turn and your next turn" / pre-2022 while in play on your turns),
Storyteller (2022 +1 Card before paying / pre-2022 +$1 before paying).
"""
from __future__ import annotations

from app.engine.core import activities as act
from app.engine.core import narrate
from app.engine.core.narrate import TRIGGERED, R
from app.engine.core.costs import CostModifier, ReduceCosts, add_modifier, costs_exactly, costs_up_to, costs_up_to_more
from app.engine.core.decisions import Question
from app.engine.core.effects import (ChooseFromHand, ChooseOne, Ctx, Do, Draw, EachOtherPlayer, Gain, May,
                                     PlayActionMultiple, PlusActions, PlusBuys, PlusCoins, Sequence, of_type,
                                     put_back_in_any_order)
from app.engine.core.registry import CardDef, Reaction, register
from app.engine.core.state import Card, Game, LaterAbility, Player
from app.engine.core.triggers import Event
from app.engine.core.turns import attacked_players, protect_from_attacks, until_next_turn
from app.engine.mechanisms import coffers as coffers_mat
from app.engine.mechanisms import ongoing
from app.engine.mechanisms.durations import NextTurn, NowAndNextTurn, for_rest_of_game, set_aside_until_next_turn
from app.engine.mechanisms.mats import put_on_mat
from app.engine.mechanisms.player_tokens import (PLUS_TOKENS, is_action_supply_pile, move_token, put_minus_card,
                                                 take_minus_coin, tokens_on, turn_journey)
from app.engine.mechanisms.reactions import play_for
from app.engine.mechanisms.reserve import TAVERN, PutOnTavern, Window, on_tavern, reserve
from app.engine.mechanisms.travellers import set_up_line, traveller_hooks

LOOK = narrate.REVEALING
GAIN_COPY = narrate.sec("Gain a copy")
TAVERN_CITE = narrate.RESERVE
UNTIL_NEXT = narrate.UNTIL_NEXT_TURN


def _ctx(game: Game, p: Player, card: Card | None) -> Ctx:
    return Ctx(game, p, card, game.ref(card) if card is not None else None)


# ------------------------------------------------------------------ simple cards
register(CardDef("Lost City", Sequence(Draw(2), PlusActions(2)), hooks={"when_gain": lambda g, ev, c: _lost_city(g, ev)}))


def _lost_city(game: Game, ev: Event) -> None:
    """When you gain this, each other player draws a card (Lost City 1: other when-gain abilities may go first)."""
    for q in game.others(ev.player):
        act.draw(game, q, 1)
    game.log.add(f"Lost City's when-gain ability: each other player than {ev.player.name} draws a card",
                 R("Lost City", 1))


register(CardDef("Treasure Trove", Sequence(PlusCoins(2), Gain("Gold", cite=R("Treasure Trove", 1)),
                                            Gain("Copper", cite=R("Treasure Trove", 1)))))
register(CardDef("Dungeon", Sequence(PlusActions(1), NowAndNextTurn(
    "Dungeon: +2 Cards, then discard 2 cards",
    Sequence(Draw(2), ChooseFromHand("discard", 2, 2, cite=R("Dungeon", 1), describe="2 cards")), R("Dungeon", 2)))))
register(CardDef("Amulet", NowAndNextTurn("Amulet: choose one: +$1, trash a card or gain a Silver", ChooseOne({
    "+$1": PlusCoins(1, cite=R("Amulet", 2)),
    "trash a card from your hand": ChooseFromHand("trash", 1, 1, cite=R("Amulet", 2)),
    "gain a Silver": Gain("Silver", cite=R("Amulet", 2))}), R("Amulet", 1))))


def _gear(ctx: Ctx) -> bool:
    """Set aside up to 2 cards face down; none set aside: Gear is discarded this turn (Gear 2-3)."""
    p = ctx.player
    chosen = ctx.ask(Question(p.name, "set aside up to 2 cards from your hand face down", "cards", list(p.hand),
                              0, min(2, len(p.hand)))) if p.hand else []
    if not chosen:
        ctx.log(f"{p.name} sets nothing aside, so Gear sets nothing up and is discarded this turn",
                R("Gear", 2), R("Gear", 3))
        return False
    return set_aside_until_next_turn(ctx, chosen, "Gear: put the set-aside cards into your hand", R("Gear", 1))


register(CardDef("Gear", Sequence(Draw(2), Do(_gear))))


def _magpie(ctx: Ctx) -> bool:
    """Reveal the top card: a Treasure goes to hand; an Action or Victory card gains a Magpie; both may apply (Magpie 1)."""
    g, p = ctx.game, ctx.player
    got = act.reveal_top(g, p, 1)
    if not got:
        return False
    c = got[0]
    if c.is_type("Treasure"):
        act.to_hand(g, p, c, R("Magpie", 1))
    else:
        act.topdeck(g, p, c, quiet=True)
        ctx.log(f"{c.name} is not a Treasure: it stays on top of {p.name}'s deck")
    if c.is_type("Action") or c.is_type("Victory"):
        act.gain(g, p, "Magpie", cite=R("Magpie", 1))
    return True


register(CardDef("Magpie", Sequence(Draw(1), PlusActions(1), Do(_magpie))))


def _artificer(ctx: Ctx) -> bool:
    """Discard any number, then you may gain a card costing exactly $1 per card discarded, onto your deck."""
    g, p = ctx.game, ctx.player
    n = len(ctx.vars.get("discarded") or [])
    tops = [pile[-1] for pile in g.supply.values() if pile and costs_exactly(pile[-1], n)]
    if not tops:
        ctx.log(f"No card in the Supply costs exactly ${n}", narrate.DO_AS_MUCH)
        return False
    chosen = ctx.ask(Question(p.name, f"you may gain a card costing exactly ${n} onto your deck", "cards", tops, 0, 1))
    if not chosen:
        ctx.log(f"{p.name} gains nothing", R("Artificer", 1))
        return False
    return act.gain(g, p, chosen[0].name, "deck", R("Artificer", 2)) is not None


register(CardDef("Artificer", Sequence(
    Draw(1), PlusActions(1), PlusCoins(1),
    ChooseFromHand("discard", 0, lambda ctx: len(ctx.player.hand), store="discarded", cite=R("Artificer", 3),
                   describe="any number of cards"),
    Do(_artificer))))


def _miser_put(ctx: Ctx) -> bool:
    """Put a Copper from your hand onto your Tavern mat."""
    coppers = [c for c in ctx.player.hand if c.name == "Copper"]
    if not coppers:
        ctx.log(f"{ctx.player.name} has no Copper in hand to put on the Tavern mat", narrate.DO_AS_MUCH)
        return False
    put_on_mat(ctx.game, ctx.player, coppers[0], TAVERN, R("Miser", 1))
    return True


register(CardDef("Miser", ChooseOne({
    "put a Copper from your hand onto your Tavern mat": Do(_miser_put),
    "+$1 per Copper on your Tavern mat": PlusCoins(
        lambda ctx: sum(1 for c in on_tavern(ctx.player) if c.name == "Copper"), cite=R("Miser", 2))})))


def _raze(ctx: Ctx) -> bool:
    """Trash this or a card from hand; look at one card per $1 it costs; one to hand, the rest discarded."""
    g, p = ctx.game, ctx.player
    label = ctx.ask(Question(p.name, "trash Raze or a card from your hand", "choice",
                             ["trash this", "trash a card from your hand"]))
    ctx.log(f"{p.name} chooses: {label}", R("Raze", 1))
    if label == "trash this":
        if ctx.source_ref is None or not ctx.source_ref.valid():
            ctx.log(f"Raze is not in play (it is {narrate.where(ctx.source, ctx.game)}): it is not trashed, so "
                    "nothing is looked at", R("Raze", 4), narrate.LOSE_TRACK)
            return False
        trashed = ctx.source
        act.trash(g, p, [trashed], R("Raze", 3))
    else:
        chosen = ChooseFromHand("trash", 1, 1, store="razed", cite=R("Raze", 1))
        if not chosen.apply(ctx):
            return False
        trashed = ctx.vars["razed"][0]
    n = trashed.cost       # its cost now, after any cost reduction (Raze 2)
    if n < 1:
        ctx.log(f"{trashed.name} costs $0: {p.name} looks at no cards", R("Raze", 2))
        return True
    looked = act.from_deck(g, p, n, "revealed")
    ctx.log(f"{p.name} looks at the top {n} card{'s' if n != 1 else ''} of their deck ({trashed.name} costs ${n}): "
            f"{act.names(looked)}", LOOK, R("Raze", 2))
    if not looked:
        return True
    keep = ctx.ask(Question(p.name, "put one of them into your hand", "cards", looked, 1, 1))[0]
    act.to_hand(g, p, keep)
    rest = [c for c in looked if c is not keep]
    if rest:
        act.discard(g, p, rest)
    return True


register(CardDef("Raze", Sequence(PlusActions(1), Do(_raze))))


def _storyteller(extra_coin: bool):
    def run(ctx: Ctx) -> bool:
        """Play up to 3 Treasures from hand; then (+1 Card and) pay all your $ for +1 Card per $1 paid."""
        g, p = ctx.game, ctx.player
        treasures = [c for c in p.hand if c.is_type("Treasure")]
        chosen = ctx.ask(Question(p.name, "play up to 3 Treasures from your hand (in order)", "cards", treasures,
                                  0, min(3, len(treasures)))) if treasures else []
        if not chosen:
            ctx.log(f"{p.name} plays no Treasures with Storyteller", R("Storyteller", 2))
        for c in chosen:
            if c.zone == "hand":
                act.play(g, p, c)
        if not extra_coin:
            Draw(1).apply(ctx)
        have = coffers_mat.coffers(p)
        if have:
            # "you may spend Coffers tokens at any time during your turn ... in the middle of resolving
            # Storyteller" (Storyteller 6): asked just before paying, when it can still add to the draw
            n = int(ctx.ask(Question(p.name, f"spend Coffers before paying all your $ (0 to {have})?", "choice",
                                     [str(i) for i in range(have + 1)])))
            if n:
                ctx.log(f"{p.name} spends Coffers in the middle of resolving Storyteller", R("Storyteller", 6))
                coffers_mat.spend(g, p, n)
        paid = g.turn.coins
        g.turn.coins = 0
        ctx.log(f"{p.name} pays all of their ${paid} (money pool now $0; Potions are kept)", R("Storyteller", 3))
        act.draw(g, p, paid)
        return True
    return run


register(CardDef("Storyteller", Sequence(PlusActions(1), Do(_storyteller(False))), version="2",
                 note="2022: +1 Card, then pay all your $ for +1 Card per $1 (Storyteller 5)"))
register(CardDef("Storyteller", Sequence(PlusActions(1), PlusCoins(1), Do(_storyteller(True))), version="1",
                 note="pre-2022: +$1, then pay all your $ (that $1 too) for +1 Card per $1 (Storyteller 5)"),
         default=False)


# ------------------------------------------------------------------ Port, Messenger (2022 / pre-2022)
def _port_gain(cite: dict):
    def hook(game: Game, ev: Event, card: Card) -> None:
        """When you gain this, gain another Port that doesn't come with another (Port 1)."""
        lone = game.__dict__.setdefault("lone_ports", set())
        if card.id in lone:
            lone.discard(card.id)
            game.log.add("This Port was gained by another Port's ability: it does not come with another", cite)
            return
        pile = game.supply.get("Port")
        if pile:
            lone.add(pile[-1].id)      # the one about to be gained
        act.gain(game, ev.player, "Port", cite=cite)
    return hook


def _port_buy(game: Game, ev: Event, card: Card) -> None:
    """Pre-2022: when you buy this, gain another Port (GAIN ON WHEN-BUY: before the bought one is gained)."""
    act.gain(game, ev.player, "Port", cite=R("Port", 2))


register(CardDef("Port", Sequence(Draw(1), PlusActions(2)), version="2",
                 hooks={"when_gain": _port_gain(R("Port", 1))},
                 note="2022: when you gain this, gain another Port that doesn't come with another (Port 1)"))
register(CardDef("Port", Sequence(Draw(1), PlusActions(2)), version="1", hooks={"when_buy": _port_buy},
                 note="pre-2022: when you buy this, gain a Port (Port 2)"), default=False)


def _messenger_gift(game: Game, p: Player, cite: dict) -> None:
    """Gain a card costing up to $4, and each other player gains a copy of it (only if you gained it: Messenger 4)."""
    ctx = _ctx(game, p, None)
    g = Gain(filter=lambda c, card: costs_up_to(card, 4), store="gift", cite=cite, describe="a card costing up to $4")
    if not g.apply(ctx) or ctx.vars.get("gift") is None:
        game.log.add(f"{p.name} gained nothing, so the other players gain no copy", R("Messenger", 4))
        return
    name = ctx.vars["gift"].name
    for q in game.others(p):
        act.gain(game, q, name, cite=GAIN_COPY)


def _messenger_gain(game: Game, ev: Event, card: Card) -> None:
    """If it's the first card you gained in your Buy phase, gain a card costing up to $4; each other player gains a copy."""
    t, p = game.turn, ev.player
    first = p.index == t.player and t.phase in ("buy", "buy2") and t.gained_in_buy[:1] == [card]
    if not first:
        game.log.add("Messenger was not the first card gained in its owner's Buy phase: nothing happens",
                     R("Messenger", 3))
        return
    game.log.add(f"Messenger is the first card {p.name} gains in their Buy phase", R("Messenger", 3))
    _messenger_gift(game, p, R("Messenger", 3))


def _messenger_buy(game: Game, ev: Event, card: Card) -> None:
    """If it's the first thing you bought this turn, gain a card costing up to $4; each other player gains a copy of it."""
    t, p = game.turn, ev.player
    if t.bought or getattr(t, "events_bought", None):
        game.log.add("This is not the first thing bought this turn: Messenger does nothing", R("Messenger", 7, "pre-2022"))
        return
    game.log.add(f"Messenger is the first thing {p.name} buys this turn", R("Messenger", 7, "pre-2022"))
    _messenger_gift(game, p, R("Messenger", 8, "pre-2022"))


def _messenger_deck(ctx: Ctx) -> bool:
    """Put your deck into your discard pile."""
    p = ctx.player
    if not p.deck:
        ctx.log(f"{p.name}'s deck is empty: there is nothing to put into the discard pile")
        return False
    cards = list(p.deck)
    for c in cards:
        ctx.game.move(c, "discard", owner=p.index)
    ctx.log(f"{p.name} puts their deck ({len(cards)} cards) into their discard pile without looking through it "
            "(it is not discarding)", R("Messenger", 1), R("Messenger", 2))
    return True


_MESSENGER = Sequence(PlusBuys(1), PlusCoins(2), May(Do(_messenger_deck), "put your deck into your discard pile?"))
register(CardDef("Messenger", _MESSENGER, version="2", hooks={"when_gain": _messenger_gain},
                 note="2022: when you gain this as the first card in your Buy phase (Messenger 3)"))
register(CardDef("Messenger", _MESSENGER, version="1", hooks={"when_buy": _messenger_buy},
                 note="pre-2022: when you buy this, if it is the first thing you buy this turn (Messenger 7)"),
         default=False)


# ------------------------------------------------------------------ Durations and attacks until your next turn
def _caravan_guard_react(game: Game, ev: Event, p: Player, card: Card, unaffected: set) -> None:
    """When another player plays an Attack, you may first play this from your hand (REACTION THAT PLAYS ITSELF)."""
    game.log.add(f"{p.name} plays Caravan Guard from their hand in reaction to {ev.card.name}", R("Caravan Guard", 2),
                 R("Caravan Guard", 5), narrate.PLAYS_ITSELF)
    play_for(game, p, card)


register(CardDef("Caravan Guard", Sequence(Draw(1), PlusActions(1), NextTurn("Caravan Guard: +$1", PlusCoins(1),
                                                                              R("Caravan Guard", 1))),
                 reactions={"attack": Reaction(_caravan_guard_react,
                                               applies=lambda game, ev, p, card: card.zone == "hand")}))


def _until_next_turn_attack(name: str, trigger: str, victim, cite: dict, next_turn: NextTurn, bought_only: bool):
    """An Attack Duration: ``next_turn`` at the start of your next turn; until then, ``victim`` for the others.

    The ongoing part is an ability of each attacked player's own gains, so that player orders it among their
    other when-gain abilities (Haunted Woods 4, Swamp Hag 4); it ends when the attacker's next turn starts
    (ATTACK UNTIL YOUR NEXT TURN § VI), which a marker ability of the attacker's tracks.
    """
    def run(ctx: Ctx) -> bool:
        g, me = ctx.game, ctx.player
        hit = attacked_players(g, me, ctx.unaffected)
        label = f"{name}: until {me.name}'s next turn, " + victim.__doc__.strip()
        marker = until_next_turn(g, me, "never", label, lambda game, ev: None, None, ctx.source, cite)
        for q in g.others(me):
            if q.index not in hit:
                continue

            def cond(game: Game, ev: Event, q=q) -> bool:
                if marker not in game.later or ev.player is not q or ev.card is None:
                    return False
                return not bought_only or ongoing.bought(game, ev.card)

            g.later.append(LaterAbility(q.index, trigger, f"{name} ({me.name}'s)",
                                        lambda game, ev, q=q: victim(game, q, ev, me), None, cond, "game", [cite]))
        return next_turn.apply(ctx)
    run.__doc__ = f"{next_turn.label[len(name) + 2:]} at the start of your next turn; until then, {victim.__doc__.strip()}"
    return Do(run)


def _haunted_victim(game: Game, q: Player, ev: Event, attacker: Player) -> None:
    """when another player gains a card they bought, they put their hand onto their deck in any order"""
    if not q.hand:
        game.log.add(f"{q.name} has no cards in hand to put onto their deck", R("Haunted Woods", 1))
        return
    put_back_in_any_order(_ctx(game, q, None), list(q.hand), R("Haunted Woods", 1),
                          prompt="put your hand onto your deck: order them, top card first", verb="puts their hand onto their deck:")


def _haunted_victim_1(game: Game, q: Player, ev: Event, attacker: Player) -> None:
    """when another player buys a card, they put their hand onto their deck in any order"""
    _haunted_victim(game, q, ev, attacker)


def _hag_victim(game: Game, q: Player, ev: Event, attacker: Player) -> None:
    """when another player gains a card they bought, they gain a Curse"""
    act.gain(game, q, "Curse", cite=R("Swamp Hag", 1))


def _hag_victim_1(game: Game, q: Player, ev: Event, attacker: Player) -> None:
    """when another player buys a card, they gain a Curse"""
    act.gain(game, q, "Curse", cite=R("Swamp Hag", 7, "pre-2022"))


_HW_NEXT = NextTurn("Haunted Woods: +3 Cards", Draw(3), R("Haunted Woods", 1))
register(CardDef("Haunted Woods", _until_next_turn_attack("Haunted Woods", "when_gain", _haunted_victim,
                                                          R("Haunted Woods", 2), _HW_NEXT, True), version="2",
                 note="2022: when another player gains a card they bought (Haunted Woods 2)"))
register(CardDef("Haunted Woods", _until_next_turn_attack("Haunted Woods", "when_buy", _haunted_victim_1,
                                                          R("Haunted Woods", 7, "pre-2022"), _HW_NEXT, False),
                 version="1", note="pre-2022: when another player buys a card (Haunted Woods 7)"), default=False)
_HAG_NEXT = NextTurn("Swamp Hag: +$3", PlusCoins(3), R("Swamp Hag", 1))
register(CardDef("Swamp Hag", _until_next_turn_attack("Swamp Hag", "when_gain", _hag_victim, R("Swamp Hag", 3),
                                                      _HAG_NEXT, True), version="2",
                 note="2022: when another player gains a card they bought (Swamp Hag 3)"))
register(CardDef("Swamp Hag", _until_next_turn_attack("Swamp Hag", "when_buy", _hag_victim_1,
                                                      R("Swamp Hag", 7, "pre-2022"), _HAG_NEXT, False),
                 version="1", note="pre-2022: when another player buys a card (Swamp Hag 7)"), default=False)


def _hireling(ctx: Ctx) -> bool:
    """At the start of each of your turns for the rest of the game: +1 Card (this stays in play)."""
    def run(game: Game, ev: Event, p=ctx.player) -> None:
        game.log.add("Start of turn: Hireling: +1 Card", R("Hireling", 1))
        act.draw(game, p, 1)
    for_rest_of_game(ctx, "start_of_turn", "Hireling: +1 Card at the start of each of your turns", run,
                     cite=R("Hireling", 1))
    return True


register(CardDef("Hireling", Do(_hireling)))


def _champion(ctx: Ctx) -> bool:
    """For the rest of the game, other players' Attacks don't affect you and your Action cards first give +1 Action."""
    g, me = ctx.game, ctx.player

    def shield(game: Game, ev: Event) -> None:
        ev.data["unaffected"].add(me.index)
        game.log.add(f"{ev.card.name} does not affect {me.name} (Champion)", R("Champion", 1))

    def first_action(game: Game, ev: Event) -> None:
        game.turn.actions += 1
        game.log.add(f"Champion: {me.name} plays an Action card and first gets +1 Action (Actions: "
                     f"{game.turn.actions})", R("Champion", 4))

    for_rest_of_game(ctx, "attack_played", "Champion: Attacks other players play do not affect you", shield,
                     condition=lambda game, ev: ev.player.index != me.index, anyone=True, cite=R("Champion", 1))
    for_rest_of_game(ctx, "before_play", "Champion: when you play an Action card, you first get +1 Action",
                     first_action, condition=lambda game, ev: ev.card is not None and ev.card.is_type("Action"),
                     cite=R("Champion", 2))
    return True


register(CardDef("Champion", Sequence(PlusActions(1), Do(_champion))))


# ------------------------------------------------------------------ Travellers
register(CardDef("Page", Sequence(Draw(1), PlusActions(1)), hooks=traveller_hooks(), setup=set_up_line("Page")))
register(CardDef("Peasant", Sequence(PlusBuys(1), PlusCoins(1)), hooks=traveller_hooks(),
                 setup=set_up_line("Peasant")))


def _treasure_hunter(ctx: Ctx) -> bool:
    """Gain a Silver per card the player to your right gained on their last (completed) turn (Treasure Hunter 2)."""
    g, p = ctx.game, ctx.player
    right = g.players[(p.index - 1) % len(g.players)]
    last = g.last_turn.get(right.index)
    n = len(last.gained) if last is not None else 0
    ctx.log(f"{right.name} gained {n} card{'s' if n != 1 else ''} on their last turn", R("Treasure Hunter", 2))
    for _ in range(n):
        act.gain(g, p, "Silver")
    return True


register(CardDef("Treasure Hunter", Sequence(PlusActions(1), PlusCoins(1), Do(_treasure_hunter)),
                 hooks=traveller_hooks()))


def _warrior_victim(n: int):
    def run(ctx: Ctx) -> bool:
        """Discard the top card of your deck, trashing it if it costs $3 or $4; once per Traveller in play."""
        g, q = ctx.game, ctx.player
        for _ in range(n):
            top = act.from_deck(g, q, 1, "revealed")
            if not top:
                ctx.log(f"{q.name} has no card to discard from their deck", narrate.DO_AS_MUCH)
                return True
            c = top[0]
            act.discard(g, q, [c], R("Warrior", 2), what=f"{c.name} from the top of their deck")
            if c.cost in (3, 4) and not (c.facts.cost_potion or c.facts.cost_debt) and c.zone == "discard":
                act.trash(g, q, [c], R("Warrior", 2))
        return True
    return run


def _warrior(ctx: Ctx) -> bool:
    """For each Traveller you have in play (including this), each other player discards their top card, trashing it if it costs $3 or $4."""
    n = sum(1 for c in ctx.player.in_play if c.is_type("Traveller"))
    ctx.log(f"{ctx.player.name} has {n} Traveller{'s' if n != 1 else ''} in play (including this)", R("Warrior", 1),
            R("Warrior", 3))
    return EachOtherPlayer(Do(_warrior_victim(n))).apply(ctx)


register(CardDef("Warrior", Sequence(Draw(2), Do(_warrior)), hooks=traveller_hooks()))
register(CardDef("Hero", Sequence(PlusCoins(2), Gain(filter=lambda ctx, c: c.is_type("Treasure"), cite=R("Hero", 1),
                                                     describe="a Treasure")), hooks=traveller_hooks()))
register(CardDef("Soldier", Sequence(
    PlusCoins(2), PlusCoins(lambda ctx: sum(1 for c in ctx.player.in_play if c.is_type("Attack") and c is not ctx.source),
                            cite=R("Soldier", 2)),
    EachOtherPlayer(Do(lambda ctx: len(ctx.player.hand) >= 4 and ChooseFromHand(
        "discard", 1, 1, cite=R("Soldier", 3)).apply(ctx)))), hooks=traveller_hooks()))
register(CardDef("Fugitive", Sequence(Draw(2), PlusActions(1), ChooseFromHand("discard", 1, 1, cite=R("Fugitive", 1))),
                 hooks=traveller_hooks()))


def _disciple(ctx: Ctx) -> bool:
    """You may play an Action card from your hand twice; gain a copy of it (Disciple 1-2)."""
    g, p = ctx.game, ctx.player
    options = [c for c in p.hand if c.is_type("Action")]
    chosen = ctx.ask(Question(p.name, "you may play an Action card from your hand twice", "cards", options, 0, 1)) \
        if options else []
    if not chosen:
        ctx.log(f"{p.name} plays no Action card with Disciple", R("Disciple", 1))
        return False
    card = chosen[0]
    expected = g.ref(card)
    for nth in ("", " a second time"):
        placed = act.play(g, p, card, expected, by=ctx.source, nth=nth)
        expected = placed or expected
    if card.name not in g.supply:
        ctx.log(f"There is no {card.name} pile in the Supply to gain a copy from", narrate.DO_AS_MUCH, GAIN_COPY)
        return False
    return act.gain(g, p, card.name, cite=R("Disciple", 2)) is not None


register(CardDef("Disciple", Do(_disciple), hooks=traveller_hooks()))


# ------------------------------------------------------------------ Reserve cards
def _cite_call(card: str, n: int) -> dict:
    return R(card, n)


register(CardDef("Coin of the Realm", Sequence(PlusCoins(1), PutOnTavern(R("Coin of the Realm", 1)))))
reserve("Coin of the Realm", Window(
    "after_play", "after you play an Action card, for +2 Actions",
    lambda game, ev, p, card: PlusActions(2).apply(_ctx(game, p, card)) and None,
    asking=lambda game, ev, p, card: f"after playing {ev.card.name}, for +2 Actions",
    # an Action card when it was played, even if it is none now (Your Estate token pre-2019 12)
    applies=lambda game, ev, p, card: ev.card is not None and ev.data.get("action", ev.card.is_type("Action")),
    cite=R("Coin of the Realm", 2)))

register(CardDef("Royal Carriage", Sequence(PlusActions(1), PutOnTavern(R("Royal Carriage", 1)))))


def _carriage(game: Game, ev: Event, p: Player, card: Card) -> None:
    """Replay the Action card just played (it is still in play); the Carriage stays with a Duration it replays."""
    act.play(game, p, ev.card, game.ref(ev.card), by=card, nth=" again")


reserve("Royal Carriage", Window(
    "after_play", "after you play an Action card, if it is still in play, to replay it", _carriage,
    asking=lambda game, ev, p, card: f"to replay {ev.card.name}",
    applies=lambda game, ev, p, card: ev.card is not None and ev.card.is_type("Action") and ev.card.zone == "in_play"
    and ev.card.owner == p.index, cite=R("Royal Carriage", 6)))

def _distant_lands_vp(game: Game, p: Player, card: Card) -> int:
    """Worth 4 VP if on your Tavern mat at the end of the game, otherwise 0 (Distant Lands 1)."""
    return 4 if card in on_tavern(p) else 0


_distant_lands_vp.per_card = True
register(CardDef("Distant Lands", PutOnTavern(R("Distant Lands", 1)), vp=_distant_lands_vp))

register(CardDef("Duplicate", PutOnTavern(R("Duplicate", 1))))
reserve("Duplicate", Window(
    "when_gain", "when gaining a card costing up to $6, to gain a copy of it",
    lambda game, ev, p, card: act.gain(game, p, ev.card.name, cite=R("Duplicate", 1)) and None,
    asking=lambda game, ev, p, card: f"when gaining {ev.card.name}, to gain a copy of it",
    applies=lambda game, ev, p, card: ev.card is not None and costs_up_to(ev.card, 6), cite=R("Duplicate", 2)))

register(CardDef("Guide", Sequence(Draw(1), PlusActions(1), PutOnTavern(R("Guide", 1)))))


def _guide(game: Game, ev: Event, p: Player, card: Card) -> None:
    if p.hand:
        act.discard(game, p, list(p.hand), R("Guide", 3), what=f"their hand ({act.names(p.hand)})")
    act.draw(game, p, 5)


reserve("Guide", Window("start_of_turn", "at the start of the turn, to discard the hand and draw 5 cards", _guide,
                        cite=R("Guide", 4)))

register(CardDef("Ratcatcher", Sequence(Draw(1), PlusActions(1), PutOnTavern(R("Ratcatcher", 1)))))
reserve("Ratcatcher", Window(
    "start_of_turn", "at the start of the turn, to trash a card from the hand",
    lambda game, ev, p, card: ChooseFromHand("trash", 1, 1, cite=R("Ratcatcher", 3)).apply(_ctx(game, p, card)) and None,
    cite=R("Ratcatcher", 3)))

register(CardDef("Transmogrify", Sequence(PlusActions(1), PutOnTavern(R("Transmogrify", 1)))))


def _transmogrify(game: Game, ev: Event, p: Player, card: Card) -> None:
    """Trash a card from your hand, and gain a card to your hand costing up to $1 more than it (Transmogrify 3-4)."""
    ctx = _ctx(game, p, card)
    if not ChooseFromHand("trash", 1, 1, store="trashed", cite=R("Transmogrify", 3)).apply(ctx):
        return
    base = ctx.vars["trashed"][0]
    Gain(filter=lambda c, top: costs_up_to_more(top, base, 1), to="hand", cite=R("Transmogrify", 4),
         describe=f"a card costing up to ${base.cost + 1}").apply(ctx)


reserve("Transmogrify", Window("start_of_turn", "at the start of the turn, to trash a card from the hand and gain "
                               "a card costing up to $1 more to the hand", _transmogrify, cite=R("Transmogrify", 3)))

register(CardDef("Wine Merchant", Sequence(PlusBuys(1), PlusCoins(4), PutOnTavern(R("Wine Merchant", 1)))))
reserve("Wine Merchant", Window(
    "end_of_buy_phase", "at the end of the Buy phase with at least $2 unspent", lambda game, ev, p, card: None,
    applies=lambda game, ev, p, card: game.turn.coins >= 2, cite=R("Wine Merchant", 3), calls=False))


# ------------------------------------------------------------------ cards that use the player tokens (player_tokens.py)
def _ranger(ctx: Ctx) -> bool:
    """Turn your Journey token over (whatever turned it before: Ranger 1); if it is now face up, +5 Cards."""
    if turn_journey(ctx.game, ctx.player, R("Ranger", 1)):
        act.draw(ctx.game, ctx.player, 5)
    return True


register(CardDef("Ranger", Sequence(PlusBuys(1), Do(_ranger))))


def _giant_victim(ctx: Ctx) -> bool:
    """Reveal the top card: trash it if it costs from $3 to $6, otherwise discard it and gain a Curse (Giant 1, 3)."""
    g, q = ctx.game, ctx.player
    top = act.reveal_top(g, q, 1)
    if not top:
        ctx.log(f"{q.name} has no card to reveal, so it is not a card costing from $3 to $6: they gain a Curse",
                R("Giant", 3))
        act.gain(g, q, "Curse", cite=R("Giant", 3))
        return True
    c = top[0]
    if costs_up_to(c, 6) and c.cost >= 3:
        act.trash(g, q, [c], R("Giant", 1))
    else:
        act.discard(g, q, [c], R("Giant", 1))
        act.gain(g, q, "Curse", cite=TRIGGERED)
    return True


def _giant(ctx: Ctx) -> bool:
    """Turn the Journey token over; face down: +$1; face up: +$5 and the attack (Giant 2)."""
    if not turn_journey(ctx.game, ctx.player, R("Giant", 2)):
        return PlusCoins(1).apply(ctx)
    PlusCoins(5).apply(ctx)
    return EachOtherPlayer(Do(_giant_victim)).apply(ctx)


register(CardDef("Giant", Do(_giant)))
register(CardDef("Relic", Sequence(PlusCoins(2), EachOtherPlayer(Do(
    lambda ctx: put_minus_card(ctx.game, ctx.player, R("Relic")))))))


def _bridge_troll_1(ctx: Ctx) -> bool:
    """Pre-2022: while this is in play, cards cost $1 less on your turns (Bridge Troll 3)."""
    g, me, card = ctx.game, ctx.player, ctx.source
    if ctx.source_ref is None or not ctx.source_ref.valid():
        ctx.log("Bridge Troll is not in play, so it changes no costs", narrate.LOSE_TRACK)
        return False
    if any(m.while_in_play is not None and m.while_in_play.card is card for m in g.cost_modifiers):
        return True      # a while-in-play ability does not double with a throne-room
    add_modifier(g, CostModifier(1, "Bridge Troll: cards cost $1 less on its owner's turns",
                                 while_in_play=g.ref(card), condition=lambda game, i=me.index: game.turn.player == i,
                                 citation=R("Bridge Troll", 3)))
    ctx.log(f"While Bridge Troll is in play, cards cost $1 less on {me.name}'s turns", R("Bridge Troll", 3))
    return True


_TAKE_MINUS_COIN = EachOtherPlayer(Do(lambda ctx: take_minus_coin(ctx.game, ctx.player, R("Bridge Troll"))))
register(CardDef("Bridge Troll", Sequence(_TAKE_MINUS_COIN, NowAndNextTurn(
    "Bridge Troll: cards cost $1 less this turn, and +1 Buy",
    Sequence(ReduceCosts(1, cite=R("Bridge Troll", 2)), PlusBuys(1)), R("Bridge Troll", 1))), version="2",
    note="2022: cards cost $1 less this turn and your next turn, cumulative (Bridge Troll 2)"))
register(CardDef("Bridge Troll", Sequence(_TAKE_MINUS_COIN, NowAndNextTurn(
    "Bridge Troll: +1 Buy", PlusBuys(1), R("Bridge Troll", 1)), Do(_bridge_troll_1)), version="1",
    note="pre-2022: while in play, cards cost $1 less on your turns (Bridge Troll 3)"), default=False)

register(CardDef("Teacher", PutOnTavern(R("Teacher", 4))))


def _teacher(game: Game, ev: Event, p: Player, card: Card) -> None:
    """Move your +1 Card, +1 Action, +1 Buy or +$1 token to an Action Supply pile you have no tokens on (Teacher 1)."""
    piles = [n for n in game.supply if is_action_supply_pile(game, n) and not tokens_on(game, p, n)]
    if not piles:
        game.log.add(f"There is no Action Supply pile without {p.name}'s tokens", R("Teacher", 1), narrate.DO_AS_MUCH)
        return
    kind = game.decider.ask(Question(p.name, "which token do you move with Teacher", "choice", list(PLUS_TOKENS)))
    pile = game.decider.ask(Question(p.name, f"move your {kind} token to which Action Supply pile", "choice", piles))
    move_token(game, p, kind, pile, R("Teacher", 1))


reserve("Teacher", Window("start_of_turn", "at the start of the turn, to move a + token to an Action Supply pile "
                          "with none of your tokens", _teacher, cite=R("Teacher", 1)))
