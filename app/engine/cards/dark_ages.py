"""Dark Ages: the 35 Kingdom cards, the Knights, the Ruins, the Shelters, Spoils, Madman and Mercenary.

Each definition follows the card's text in the card facts and cites its Card
Reference entry. Cards whose text changed have both versions, the current one
as default: Band of Misfits ("2" = 2019, "1" = pre-2019), Death Cart and Pillage
("2" = 2019, "1" = pre-2019), Procession ("2" = 2019 non-Duration, "1" =
pre-2019), Counterfeit ("2" = 2022 non-Duration, "1" = pre-2022), Hermit ("2" =
2022 exchange at the end of the Buy phase, "1" = pre-2022 when-discard), Hovel
("2" = 2022 when-gain, "1" = pre-2022 when-buy).

The piles this set brings live in mechanisms: ruins.py, knights.py (with
mixed_piles.py), shelters.py, nonsupply.py (Spoils, Madman, Mercenary) and
play_as.py (Band of Misfits). Choices where the documents leave room are listed
in docs/audit-dark-ages.md.
"""
from __future__ import annotations

from app.engine.core import activities as act
from app.engine.core import narrate
from app.engine.core.costs import lower_cost, up_to
from app.engine.core.narrate import R
from app.engine.core.costs import costs_exactly_more, costs_up_to_more
from app.engine.core.decisions import Question
from app.engine.core.effects import (ChooseFromHand, ChooseOne, Ctx, DiscardDownTo, Do, Draw, EachOtherPlayer, Gain,
                                     IfYouDid, May, PlayActionMultiple, PlusActions, PlusBuys, PlusCoins, Sequence,
                                     TrashSelf, put_back_in_any_order)
from app.engine.core.registry import CardDef, Reaction, register
from app.engine.core.state import Card, Game, Player
from app.engine.core.triggers import Event, from_play, only_if
from app.engine.mechanisms import knights, nonsupply, play_as, ruins, shelters  # noqa: F401  (shelters: setup key)
from app.engine.mechanisms import reactions as rx

WHEN_TRASH = narrate.sec("When you trash this")
GAIN_ON_TRASH = narrate.sec("Gain on when-trash")
DISCARD_THEN_GET = narrate.sec("Discard, then get from deck")


def _treasure(ctx: Ctx, c: Card) -> bool:
    return c.is_type("Treasure")


def _action(ctx: Ctx, c: Card) -> bool:
    return c.is_type("Action")


def when_trash(fn):
    """A when-trash ability of the card itself, resolved by the player who trashed it (§ III)."""
    def run(game: Game, ev: Event, card: Card) -> None:
        fn(game, ev.player, card)
    return run


def _draw_on_trash(n: int, cite: dict):
    def run(game: Game, p: Player, card: Card) -> None:
        game.log.add(f"{card.name} was trashed: {p.name} draws {n}", cite, WHEN_TRASH)
        act.draw(game, p, n)
    return when_trash(run)


def _names_in_game(game: Game) -> list[str]:
    """The names a player may name (NAME A CARD § VI: any card's name): every card in this game, sorted."""
    seen = {c.name for pile in game.supply.values() for c in pile} | set(game.supply)
    seen |= {c.name for p in game.players for c in p.all_cards()} | {c.name for c in game.trash}
    seen |= set(game.non_supply)
    return sorted(seen - {"Ruins", "Knights"})      # "Knight", "Ruins" are types, not names (NAME A CARD)


def _name_a_card(ctx: Ctx, cite: dict) -> str:
    named = ctx.ask(Question(ctx.player.name, "name a card", "choice", _names_in_game(ctx.game)))
    ctx.log(f"{ctx.player.name} names {named}", cite, narrate.NAME_A_CARD)
    return named


# ------------------------------------------------------------------ Ruins, Shelters, the piles' own cards
register(CardDef("Ruins", setup=ruins.setup))
register(CardDef("Knights", setup=knights.setup))
register(CardDef("Abandoned Mine", PlusCoins(1)))
register(CardDef("Ruined Library", Draw(1)))
register(CardDef("Ruined Market", PlusBuys(1)))
register(CardDef("Ruined Village", PlusActions(1)))


def _survivors(ctx: Ctx) -> bool:
    """Look at the top 2 cards of your deck. Discard them or put them back in any order."""
    p, g = ctx.player, ctx.game
    seen = act.from_deck(g, p, 2, "revealed")
    ctx.log(f"{p.name} looks at the top {len(seen)} cards of their deck: {act.names(seen)}", narrate.REVEALING)
    if not seen:
        return False
    pick = ctx.ask(Question(p.name, "discard them or put them back?", "choice", ["discard them", "put them back"]))
    if pick == "discard them":
        act.discard(g, p, seen)
    else:
        put_back_in_any_order(ctx, seen, narrate.SEVERAL_OPTIONS)
    return True


register(CardDef("Survivors", Do(_survivors)))


def _hovel(game: Game, ev: Event, p: Player, card: Card) -> None:
    """When you gain (pre-2022: buy) a Victory card, you may trash this from your hand."""
    if not rx.ask(game, p, f"trash Hovel ({p.name} gained {ev.card.name})?"):
        game.log.add(f"{p.name} keeps Hovel")
        return
    act.trash(game, p, [card], R("Hovel"))


def _gains_victory(game: Game, ev: Event, p: Player, card: Card) -> bool:
    return ev.player is p and card.zone == "hand" and ev.card is not None and ev.card.is_type("Victory")


register(CardDef("Hovel", version="2", reactions={"when_gain": Reaction(_hovel, applies=_gains_victory)},
                 note="2022: when you gain a Victory card (Hovel 1)"))
register(CardDef("Hovel", version="1", reactions={"when_buy": Reaction(_hovel, applies=_gains_victory)},
                 note="pre-2022: when you buy a Victory card (Hovel 2)"), default=False)
register(CardDef("Necropolis", PlusActions(2)))
register(CardDef("Overgrown Estate", vp=0, hooks={"when_trash": _draw_on_trash(1, R("Overgrown Estate", 1))}))


def _spoils_return(ctx: Ctx) -> bool:
    """Return this to the Spoils pile."""
    return nonsupply.return_to_pile(ctx.game, ctx.player, ctx.source, ctx.source_ref, R("Spoils", 1))


register(CardDef("Spoils", Sequence(PlusCoins(3), Do(_spoils_return))))


def _madman(ctx: Ctx) -> bool:
    """Return this to the Madman pile. If you do, +1 Card per card in your hand."""
    if not nonsupply.return_to_pile(ctx.game, ctx.player, ctx.source, ctx.source_ref, R("Madman", 3)):
        ctx.log("…so no cards are drawn", R("Madman", 1))
        return False
    n = len(ctx.player.hand)
    ctx.log(f"{ctx.player.name} has {n} card{'s' if n != 1 else ''} in hand: +{n} Cards", R("Madman", 1))
    act.draw(ctx.game, ctx.player, n)
    return True


register(CardDef("Madman", Sequence(PlusActions(2), Do(_madman))))


def _mercenary(ctx: Ctx) -> bool:
    """You may trash 2 cards from your hand. If you did, +2 Cards, +$2, and each other player discards down to 3."""
    p = ctx.player
    if not p.hand or not rx.ask(ctx.game, p, "trash 2 cards from your hand?"):
        ctx.log(f"{p.name} does not trash cards with Mercenary")
        return False
    ChooseFromHand("trash", 2, 2, store="merc", cite=R("Mercenary", 2)).apply(ctx)
    if len(ctx.vars.get("merc") or []) < 2:
        ctx.log(f"{p.name} trashed fewer than 2 cards, so Mercenary does nothing further", R("Mercenary", 2))
        return False
    return Sequence(Draw(2), PlusCoins(2), EachOtherPlayer(DiscardDownTo(3, cite=R("Mercenary", 1)))).apply(ctx)


register(CardDef("Mercenary", Do(_mercenary)))


# ------------------------------------------------------------------ the Knights
def _knight_attack(ctx: Ctx) -> bool:
    """Each other player reveals their top 2 cards, trashes one costing $3-$6, discards the rest; a Knight trashed: trash this."""
    trashed = knights.reveal_two_trash_one(ctx, R("Knight", 2))
    if any(c.is_type("Knight") for c in trashed):
        ctx.log(f"A Knight was trashed by {ctx.source.name}, so {ctx.source.name} is trashed too", R("Knight", 3))
        TrashSelf(cite=R("Knight", 4)).apply(ctx)
    return True


def _knight(name: str, *first, **kw) -> None:
    register(CardDef(name, Sequence(*first, Do(_knight_attack)), **kw))


_knight("Dame Anna", ChooseFromHand("trash", 0, 2, describe="up to 2 cards", cite=R("Dame Anna", 1)))
_knight("Dame Josephine", vp=2)
_knight("Dame Molly", PlusActions(2))
_knight("Dame Natalie", May(Gain(filter=up_to(3), describe="a card costing up to $3"), "gain a card costing up to $3?"))
_knight("Dame Sylvia", PlusCoins(2))
_knight("Sir Bailey", Draw(1), PlusActions(1))
_knight("Sir Destry", Draw(2))
_knight("Sir Martin", PlusBuys(2))
_knight("Sir Michael", EachOtherPlayer(DiscardDownTo(3)))


def _gain_gold(game: Game, p: Player, card: Card) -> None:
    act.gain(game, p, "Gold", cite=R("Sir Vander", 1))


_knight("Sir Vander", hooks={"when_trash": when_trash(_gain_gold)})


# ------------------------------------------------------------------ Kingdom cards, A-F
register(CardDef("Altar", Sequence(ChooseFromHand("trash", 1, 1, cite=R("Altar", 2)),
                                   Gain(filter=up_to(5), describe="a card costing up to $5", cite=R("Altar", 1)))))
register(CardDef("Armory", Gain(filter=up_to(4), to="deck", describe="a card costing up to $4", cite=R("Armory", 1))))


def _bom_allowed(c: Card) -> bool:
    """Any non-Command Action card: the Complete Rules exclude only Command cards (Band of Misfits 4) and have it
    play Durations (Conjurer 3; PLAY A CARD WHILE LEAVING IT § VI, "With Durations"), although the card text in
    the card facts reads "non-Command non-Duration". The Complete Rules win (the card page says they disagree)."""
    return not c.is_type("Command")


def _bom_2019(ctx: Ctx) -> bool:
    """Play a non-Command Action card from the Supply that costs less than this, leaving it there."""
    return play_as.play_from_supply(ctx, _bom_allowed, R("Band of Misfits", 1))


def _bom_old(ctx: Ctx) -> bool:
    """Be played as an Action card from the Supply costing less than this; it is that card until it leaves play."""
    return play_as.play_as(ctx, lambda c: True, R("Band of Misfits", 2, "pre-2019"))


register(CardDef("Band of Misfits", Do(_bom_2019),
                 version="2", note="2019: plays a card from the Supply, leaving it there"))
register(CardDef("Band of Misfits", Do(_bom_old),
                 version="1", note="pre-2019: is the chosen card until it leaves play"), default=False)


def _gain_spoils(n: int = 1, cite: dict | None = None):
    def run(ctx: Ctx) -> bool:
        """Gain Spoils from the Spoils pile."""
        got = [nonsupply.gain_from(ctx.game, ctx.player, "Spoils", cite=cite) for _ in range(n)]
        return any(got)
    return Do(run)


SPOILS = nonsupply.setup_for("Spoils")
register(CardDef("Bandit Camp", Sequence(Draw(1), PlusActions(2), _gain_spoils()), setup=SPOILS))


def _beggar_react(game: Game, ev: Event, p: Player, card: Card, unaffected: set) -> None:
    """Discard this to gain 2 Silvers, the first onto your deck (Beggar 6); it does not protect you."""
    act.discard(game, p, [card], R("Beggar", 4))
    act.gain(game, p, "Silver", to="deck", cite=R("Beggar", 6))
    act.gain(game, p, "Silver", cite=R("Beggar", 6))


def _beggar_coppers(ctx: Ctx) -> bool:
    """Gain 3 Coppers to your hand, one at a time."""
    for _ in range(3):       # each gained in turn (narrate.TRIGGERED ABILITY)
        act.gain(ctx.game, ctx.player, "Copper", to="hand", cite=R("Beggar", 1))
    return True


register(CardDef("Beggar", Do(_beggar_coppers), reactions={"attack": Reaction(
    _beggar_react, applies=lambda game, ev, p, card: card.zone == "hand")}))


def _catacombs(ctx: Ctx) -> bool:
    """Look at the top 3 cards. Put them into your hand; or discard them and +3 Cards (Catacombs 1-2)."""
    p, g = ctx.player, ctx.game
    seen = act.from_deck(g, p, 3, "revealed")
    ctx.log(f"{p.name} looks at the top {len(seen)} cards of their deck: {act.names(seen)}", narrate.REVEALING)
    pick = ctx.ask(Question(p.name, f"{ctx.source.name}: choose one", "choice",
                            ["put them into your hand", "discard them and +3 Cards"]))
    ctx.log(f"{p.name} chooses: {pick}", R("Catacombs", 1))
    if pick == "put them into your hand":
        for c in seen:
            g.move(c, "hand", owner=p.index)
        ctx.log(f"{p.name} puts {act.names(seen)} into their hand")
        return True
    act.discard(g, p, seen, R("Catacombs", 2))
    act.draw(g, p, 3)
    return True


def _catacombs_trashed(game: Game, p: Player, card: Card) -> None:
    Gain(filter=lambda ctx, c: lower_cost(c, card), describe=f"a card costing less than {card.name}",
         cite=R("Catacombs", 3)).apply(Ctx(game, p, card))


register(CardDef("Catacombs", Do(_catacombs), hooks={"when_trash": when_trash(_catacombs_trashed)}))


def _trash_hand(ctx: Ctx) -> bool:
    """Trash your hand."""
    if not ctx.player.hand:
        ctx.log(f"{ctx.player.name} has no cards in hand to trash", narrate.DO_AS_MUCH)
        return False
    act.trash(ctx.game, ctx.player, list(ctx.player.hand), R("Count"))
    return True


register(CardDef("Count", Sequence(
    ChooseOne({"discard 2 cards": ChooseFromHand("discard", 2, 2, describe="2 cards", cite=R("Count", 2)),
               "put a card from your hand onto your deck": ChooseFromHand("topdeck", 1, 1, cite=R("Count", 2)),
               "gain a Copper": Gain("Copper")}),
    ChooseOne({"+$3": PlusCoins(3), "trash your hand": Do(_trash_hand), "gain a Duchy": Gain("Duchy")}))))


def _trash_replayed(cite: dict, key: str, lost: dict):
    """Trash the card a throne-room just played, if it is still in play (Counterfeit 2, Procession 4)."""
    def run(ctx: Ctx) -> bool:
        """Trash it (if it is still in play)."""
        card, ref = ctx.vars.get(key) or (None, None)
        if card is None:
            return False
        if ref is None or not ref.valid():
            ctx.log(f"{card.name} left play when it was played: {ctx.source.name} has lost track of it and cannot "
                    "trash it", narrate.LOSE_TRACK, lost)
            return False
        act.trash(ctx.game, ctx.player, [card], cite)
        return True
    return Do(run)


def _counterfeit(non_duration: bool) -> Sequence:
    ok = (lambda ctx, c: c.is_type("Treasure") and not c.is_type("Duration")) if non_duration else _treasure
    return Sequence(PlusCoins(1), PlusBuys(1),
                    PlayActionMultiple(filter=ok, describe="a non-Duration Treasure" if non_duration else "a Treasure",
                                       store="counterfeited", cite=R("Counterfeit", 1)),
                    IfYouDid(_trash_replayed(R("Counterfeit", 3), "counterfeited", R("Counterfeit", 2))))


register(CardDef("Counterfeit", _counterfeit(True), version="2", note="2022: a non-Duration Treasure"))
register(CardDef("Counterfeit", _counterfeit(False), version="1", note="pre-2022: any Treasure"), default=False)


def _play_another_cultist(ctx: Ctx) -> bool:
    """You may play a Cultist from your hand (it uses no Action)."""
    p = ctx.player
    options = [c for c in p.hand if c.name == "Cultist"]
    if not options:
        return False
    pick = ctx.ask(Question(p.name, "play a Cultist from your hand?", "cards", options, 0, 1))
    if not pick:
        ctx.log(f"{p.name} does not play another Cultist")
        return False
    ctx.log(f"{p.name} plays another Cultist (using no Action)", R("Cultist", 2), narrate.sec("Play an Action card"))
    act.play(ctx.game, p, pick[0])
    return True


register(CardDef("Cultist", Sequence(Draw(2), EachOtherPlayer(Gain(ruins.PILE, cite=R("Cultist", 1))),
                                     Do(_play_another_cultist)),
                 hooks={"when_trash": _draw_on_trash(3, R("Cultist", 4))}))


def _ruins_on_gain(game: Game, ev: Event, card: Card) -> None:
    """When you gain this, gain 2 Ruins."""
    for _ in range(2):      # each gained in turn (Death Cart 6)
        act.gain(game, ev.player, ruins.PILE, cite=R("Death Cart", 5))


def _death_cart_2019(ctx: Ctx) -> bool:
    """You may trash this or an Action card from your hand, for +$5 (no +$5 if nothing is trashed)."""
    p = ctx.player
    options = ["trash nothing"]
    if ctx.source_ref is not None and ctx.source_ref.valid():
        options.insert(0, "trash this Death Cart")
    if any(c.is_type("Action") for c in p.hand):
        options.insert(len(options) - 1, "trash an Action card from your hand")
    pick = ctx.ask(Question(p.name, "trash for +$5?", "choice", options))
    if pick == "trash nothing":
        ctx.log(f"{p.name} trashes nothing, so no +$5", R("Death Cart", 2))
        return False
    if pick == "trash this Death Cart":
        TrashSelf(cite=R("Death Cart", 1)).apply(ctx)
    else:
        ChooseFromHand("trash", 1, 1, filter=_action, describe="an Action card").apply(ctx)
    return PlusCoins(5, cite=R("Death Cart", 2)).apply(ctx)


def _death_cart_old(ctx: Ctx) -> bool:
    """You may trash an Action card from your hand; if you don't, trash this. +$5 either way."""
    if not ChooseFromHand("trash", 0, 1, filter=_action, describe="an Action card (or Death Cart is trashed)").apply(ctx):
        TrashSelf(cite=R("Death Cart", 3)).apply(ctx)
    return PlusCoins(5, cite=R("Death Cart", 4)).apply(ctx)


register(CardDef("Death Cart", Do(_death_cart_2019), version="2", hooks={"when_gain": _ruins_on_gain},
                 note="2019: trash this or an Action card, for +$5"))
register(CardDef("Death Cart", Do(_death_cart_old), version="1", hooks={"when_gain": _ruins_on_gain},
                 note="pre-2019: +$5; trash an Action card, or else this"), default=False)


def _feodum_trashed(game: Game, p: Player, card: Card) -> None:
    for _ in range(3):
        act.gain(game, p, "Silver", cite=R("Feodum", 1))


register(CardDef("Feodum", vp=lambda game, p: sum(1 for c in p.all_cards() if c.name == "Silver") // 3,
                 hooks={"when_trash": when_trash(_feodum_trashed)}))


def _differently_named_treasures(ctx: Ctx) -> int:
    """+$1 per differently named Treasure in the trash."""
    names = {c.name for c in ctx.game.trash if c.is_type("Treasure")}
    ctx.log(f"Differently named Treasures in the trash: {', '.join(sorted(names)) or 'none'}", R("Forager", 2))
    return len(names)


register(CardDef("Forager", Sequence(PlusActions(1), PlusBuys(1), ChooseFromHand("trash", 1, 1, cite=R("Forager", 4)),
                                     PlusCoins(_differently_named_treasures, cite=R("Forager", 3)))))


def _fortress_trashed(game: Game, p: Player, card: Card) -> None:
    if card.zone != "trash":
        game.log.add(f"Fortress is no longer in the trash (it is {nonsupply.where(card)}): it cannot be put into a hand",
                     narrate.LOSE_TRACK, R("Fortress", 2))
        return
    game.move(card, "hand", owner=p.index)
    game.log.add(f"{card.name} goes from the trash into {p.name}'s hand (this is not gaining it)", R("Fortress", 1))


register(CardDef("Fortress", Sequence(Draw(1), PlusActions(2)), hooks={"when_trash": when_trash(_fortress_trashed)}))


# ------------------------------------------------------------------ Kingdom cards, G-M
def _from_trash(ctx: Ctx, pred, to: str, cite: dict) -> bool:
    options = [c for c in ctx.game.trash if pred(c)]
    if not options:
        ctx.log("There is no card in the trash costing from $3 to $6", narrate.DO_AS_MUCH, cite)
        return False
    pick = ctx.ask(Question(ctx.player.name, "gain a card from the trash costing from $3 to $6", "cards",
                            options, 1, 1))
    act.gain(ctx.game, ctx.player, pick[0], to=to, cite=cite)
    return True


def _graverobber_remodel(ctx: Ctx) -> bool:
    """Gain a card costing up to $3 more than the trashed Action card."""
    base = (ctx.vars.get("grave") or [None])[0]
    return Gain(filter=lambda c2, c: costs_up_to_more(c, base, 3), describe=f"a card costing up to $3 more than "
                f"{base.name}", cite=R("Graverobber", 2)).apply(ctx)


register(CardDef("Graverobber", ChooseOne({
    "gain a card from the trash onto your deck": Do(lambda ctx: _from_trash(ctx, knights.three_to_six, "deck",
                                                                            R("Graverobber", 3))),
    "trash an Action card and gain a card costing up to $3 more": Sequence(
        ChooseFromHand("trash", 1, 1, filter=_action, store="grave", describe="an Action card"),
        IfYouDid(Do(_graverobber_remodel)))})))


def _hermit_trash(ctx: Ctx) -> bool:
    """Look through your discard pile; you may trash a non-Treasure from it or from your hand."""
    p = ctx.player
    ctx.log(f"{p.name} looks through their discard pile: {act.names(p.discard)}")
    opts = []
    if any(not c.is_type("Treasure") for c in p.discard):
        opts.append("trash from your discard pile")
    if any(not c.is_type("Treasure") for c in p.hand):
        opts.append("trash from your hand")
    if not opts:
        return False
    pick = ctx.ask(Question(p.name, "trash a non-Treasure?", "choice", opts + ["trash nothing"]))
    if pick == "trash nothing":
        ctx.log(f"{p.name} trashes nothing", R("Hermit", 1))
        return False
    zone = p.discard if pick == "trash from your discard pile" else p.hand
    options = [c for c in zone if not c.is_type("Treasure")]
    card = ctx.ask(Question(p.name, "trash a non-Treasure", "cards", options, 1, 1))
    act.trash(ctx.game, p, card, R("Hermit", 3))
    return True


def _hermit_2022(ctx: Ctx) -> bool:
    """You may trash a non-Treasure (discard pile or hand), gain a card up to $3; a Buy phase gaining nothing: exchange this for a Madman."""
    _hermit_trash(ctx)
    Gain(filter=up_to(3), describe="a card costing up to $3", cite=R("Hermit", 2)).apply(ctx)
    me, where, turn = ctx.source, ctx.source_ref, ctx.game.turn

    def at_end_of_buy(game: Game, ev: Event) -> None:
        if turn.gained_in_buy:
            game.log.add(f"{ctx.player.name} gained {act.names(turn.gained_in_buy)} in their Buy phase, so Hermit is "
                         "not exchanged", R("Hermit", 4))
            return
        nonsupply.exchange_for(game, ctx.player, me, where, "Madman", R("Hermit", 7))

    act.set_up_later(ctx.game, ctx.player, "end_of_buy_phase",
                     "Hermit: at the end of this Buy phase, if no card was gained in it, exchange it for a Madman",
                     at_end_of_buy, cite=R("Hermit", 4))
    return True


def _hermit_discarded(game: Game, ev: Event, card: Card) -> None:
    """If you discard it from play in a turn in which you bought no card, trash it and gain a Madman."""
    if ev.data.get("from") != "in_play":
        return
    if game.turn.bought:
        game.log.add(f"{ev.player.name} bought a card this turn: Hermit stays", R("Hermit", 9, "pre-2022"))
        return
    if card.zone == "discard":
        act.trash(game, ev.player, [card], R("Hermit", 11, "pre-2022"))
    else:
        game.log.add("Hermit was moved by another ability first: it cannot be trashed, but a Madman is still gained",
                     narrate.LOSE_TRACK, R("Hermit", 11, "pre-2022"))
    nonsupply.gain_from(game, ev.player, "Madman", cite=R("Hermit", 11, "pre-2022"))


MADMAN = nonsupply.setup_for("Madman")
register(CardDef("Hermit", Do(_hermit_2022), version="2", setup=MADMAN,
                 note="2022: exchanged for a Madman at the end of a Buy phase without gains"))
register(CardDef("Hermit", Sequence(Do(_hermit_trash), Gain(filter=up_to(3), describe="a card costing up to $3")),
                 version="1", setup=MADMAN, hooks={"when_discard": only_if(from_play, _hermit_discarded)},
                 note="pre-2022: trashed for a Madman when discarded from play in a turn without buying"),
         default=False)


def _hunting_grounds_trashed(game: Game, p: Player, card: Card) -> None:
    pick = game.decider.ask(Question(p.name, "Hunting Grounds was trashed: gain", "choice", ["a Duchy", "3 Estates"]))
    game.log.add(f"{p.name} chooses {pick}", R("Hunting Grounds", 1))
    for name in (["Duchy"] if pick == "a Duchy" else ["Estate"] * 3):
        act.gain(game, p, name, cite=R("Hunting Grounds", 1))


register(CardDef("Hunting Grounds", Draw(4), hooks={"when_trash": when_trash(_hunting_grounds_trashed)}))


def _ironmonger(ctx: Ctx) -> bool:
    """Reveal the top card of your deck; you may discard it. Either way: Action +1 Action, Treasure +$1, Victory +1 Card."""
    p, g = ctx.player, ctx.game
    top = act.reveal_top(g, p, 1)
    if not top:
        return False
    c = top[0]
    if rx.ask(g, p, f"discard the revealed {c.name}?"):
        act.discard(g, p, [c], R("Ironmonger", 1))
    else:
        act.topdeck(g, p, c, quiet=True)
        ctx.log(f"{p.name} puts {c.name} back on their deck")
    ctx.log(f"Either way, {c.name} is {'/'.join(t for t in c.facts.types)}", R("Ironmonger", 2))
    if c.is_type("Action"):
        PlusActions(1).apply(ctx)
    if c.is_type("Treasure"):
        PlusCoins(1).apply(ctx)
    if c.is_type("Victory"):
        Draw(1).apply(ctx)
    return True


register(CardDef("Ironmonger", Sequence(Draw(1), PlusActions(1), Do(_ironmonger))))
register(CardDef("Junk Dealer", Sequence(Draw(1), PlusActions(1), PlusCoins(1, cite=R("Junk Dealer", 1)),
                                         ChooseFromHand("trash", 1, 1))))
register(CardDef("Marauder", Sequence(_gain_spoils(cite=R("Marauder", 2)),
                                      EachOtherPlayer(Gain(ruins.PILE, cite=R("Marauder", 1)))), setup=SPOILS))


def _market_square(game: Game, ev: Event, p: Player, card: Card) -> None:
    if not rx.ask(game, p, f"discard {card.name} to gain a Gold ({ev.card.name} was trashed)?"):
        game.log.add(f"{p.name} keeps {card.name}")
        return
    act.discard(game, p, [card], R("Market Square", 1))
    act.gain(game, p, "Gold", cite=R("Market Square", 4))


def _one_of_mine_trashed(game: Game, ev: Event, p: Player, card: Card) -> bool:
    return card.zone == "hand" and ev.data.get("owner") == p.index


register(CardDef("Market Square", Sequence(Draw(1), PlusActions(1), PlusBuys(1)),
                 reactions={"when_trash": Reaction(_market_square, applies=_one_of_mine_trashed)}))


def _mystic(ctx: Ctx) -> bool:
    """Name a card, then reveal the top card of your deck. If you named it, put it into your hand."""
    named = _name_a_card(ctx, R("Mystic", 1))
    top = act.reveal_top(ctx.game, ctx.player, 1)
    if not top:
        return False
    if top[0].name == named:
        act.to_hand(ctx.game, ctx.player, top[0], R("Mystic", 1))
        return True
    act.topdeck(ctx.game, ctx.player, top[0], quiet=True)
    ctx.log(f"It is not {named}: {top[0].name} stays on top of the deck")
    return False


register(CardDef("Mystic", Sequence(PlusActions(1), PlusCoins(2), Do(_mystic))))


# ------------------------------------------------------------------ Kingdom cards, P-W
def _pillage_discard(ctx: Ctx) -> bool:
    """Each other player with 5 or more cards in hand reveals it and discards a card you choose."""
    q = ctx.player
    if len(q.hand) < 5:
        ctx.log(f"{q.name} has {len(q.hand)} cards in hand (fewer than 5): not affected", R("Pillage", 1))
        return False
    ctx.log(f"{q.name} reveals their hand: {act.names(q.hand)}", narrate.REVEALING)
    act.revealed(ctx.game, q, list(q.hand))
    pick = ctx.ask(Question(ctx.attacker.name, f"choose a card for {q.name} to discard", "cards", list(q.hand), 1, 1))
    act.discard(ctx.game, q, pick)
    return True


def _two_spoils(cite: dict):
    return _gain_spoils(2, cite)


register(CardDef("Pillage", Sequence(TrashSelf(cite=R("Pillage", 2)),
                                     IfYouDid(Sequence(_two_spoils(R("Pillage", 5)), EachOtherPlayer(Do(_pillage_discard))),
                                              cite=R("Pillage", 2))),
                 version="2", setup=SPOILS, note="2019: only if it trashed itself"))
register(CardDef("Pillage", Sequence(TrashSelf(cite=R("Pillage", 4)), EachOtherPlayer(Do(_pillage_discard)),
                                     _two_spoils(R("Pillage", 4))),
                 version="1", setup=SPOILS, note="pre-2019: attacks and gains 2 Spoils even if not trashed"),
         default=False)


def _poor_house(ctx: Ctx) -> bool:
    """Reveal your hand. -$1 per Treasure card in your hand (you can't go below $0)."""
    p, t = ctx.player, ctx.game.turn
    n = sum(1 for c in p.hand if c.is_type("Treasure"))
    ctx.log(f"{p.name} reveals their hand ({act.names(p.hand)}): {n} Treasure{'s' if n != 1 else ''}",
            R("Poor House", 1))
    act.revealed(ctx.game, p, list(p.hand))
    before = t.coins
    t.coins = max(0, t.coins - n)
    ctx.log(f"-${before - t.coins} ({narrate.pool(t)}; it can't go below $0)", R("Poor House", 2))
    return True


register(CardDef("Poor House", Sequence(PlusCoins(4), Do(_poor_house))))


def _procession_gain(ctx: Ctx) -> bool:
    """Gain an Action card costing exactly $1 more than it (its cost after it was trashed)."""
    card, _ = ctx.vars.get("processed") or (None, None)
    if card is None:
        return False
    return Gain(filter=lambda c2, c: c.is_type("Action") and costs_exactly_more(c, card, 1),
                describe=f"an Action card costing exactly $1 more than {card.name}", cite=R("Procession", 2)).apply(ctx)


def _procession(non_duration: bool) -> Sequence:
    ok = (lambda ctx, c: c.is_type("Action") and not c.is_type("Duration")) if non_duration else _action
    return Sequence(PlayActionMultiple(filter=ok, store="processed", cite=R("Procession", 1),
                                       describe="a non-Duration Action card" if non_duration else "an Action card"),
                    IfYouDid(Sequence(_trash_replayed(R("Procession", 8), "processed", R("Procession", 4)), Do(_procession_gain))))


register(CardDef("Procession", _procession(True), version="2", note="2019: a non-Duration Action card"))
register(CardDef("Procession", _procession(False), version="1", note="pre-2019: any Action card"), default=False)


def _rats_trash(ctx: Ctx) -> bool:
    """Trash a card from your hand other than a Rats (or reveal a hand of all Rats)."""
    p = ctx.player
    if p.hand and all(c.name == "Rats" for c in p.hand):
        ctx.log(f"{p.name} reveals a hand of only Rats ({act.names(p.hand)}) and trashes nothing", R("Rats"))
        act.revealed(ctx.game, p, list(p.hand))
        return False
    return ChooseFromHand("trash", 1, 1, filter=lambda c2, c: c.name != "Rats", describe="a card other than a Rats",
                          cite=R("Rats", 3)).apply(ctx)


register(CardDef("Rats", Sequence(Draw(1), PlusActions(1), Gain("Rats", cite=R("Rats", 3)), Do(_rats_trash)),
                 hooks={"when_trash": _draw_on_trash(1, R("Rats", 1))}))


def _rebuild(ctx: Ctx) -> bool:
    """Name a card. Reveal cards until a Victory card you did not name; discard the rest, trash it and gain a Victory card costing up to $3 more."""
    p, g = ctx.player, ctx.game
    named = _name_a_card(ctx, R("Rebuild", 1))
    found = None
    shown: list[Card] = []
    while found is None:
        got = act.from_deck(g, p, 1, "revealed")
        if not got:
            break
        shown.append(got[0])
        if got[0].is_type("Victory") and got[0].name != named:
            found = got[0]
    ctx.log(f"{p.name} reveals {act.names(shown)}" + (f" until {found.name}" if found else " (no Victory card other "
            f"than {named})"), R("Rebuild", 2), narrate.DIG)
    act.revealed(g, p, shown)      # revealed: their when-revealed abilities (Patron 1)
    rest = [c for c in shown if c is not found]
    if rest:
        act.discard(g, p, rest)
    if found is None:
        return False
    act.trash(g, p, [found], R("Rebuild", 3))
    return Gain(filter=lambda c2, c: c.is_type("Victory") and costs_up_to_more(c, found, 3),
                describe=f"a Victory card costing up to $3 more than {found.name}", cite=R("Rebuild", 3)).apply(ctx)


register(CardDef("Rebuild", Sequence(PlusActions(1), Do(_rebuild))))


def _rogue(ctx: Ctx) -> bool:
    """If any cards in the trash cost from $3 to $6, gain one; otherwise each other player reveals 2 cards, trashes one costing from $3 to $6 and discards the rest."""
    if any(knights.three_to_six(c) for c in ctx.game.trash):
        ctx.log("There are cards costing from $3 to $6 in the trash, so Rogue gains one of them", R("Rogue", 2))
        return _from_trash(ctx, knights.three_to_six, "discard", R("Rogue", 2))
    ctx.log("There is no card costing from $3 to $6 in the trash, so each other player reveals 2 cards", R("Rogue", 2))
    knights.reveal_two_trash_one(ctx, R("Rogue", 3))
    return True


register(CardDef("Rogue", Sequence(PlusCoins(2), Do(_rogue))))


def _sage(ctx: Ctx) -> bool:
    """Reveal cards until one costing $3 or more; put it into your hand and discard the rest."""
    p, g = ctx.player, ctx.game
    shown: list[Card] = []
    found = None
    while found is None:
        got = act.from_deck(g, p, 1, "revealed")
        if not got:
            break
        shown.append(got[0])
        if got[0].cost >= 3:          # "costing $3 or more": any Potion or Debt allowed (CARD COSTS)
            found = got[0]
    ctx.log(f"{p.name} reveals {act.names(shown)}" + (f" until {found.name}" if found else
            " (no card costing $3 or more)"), R("Sage", 1), narrate.DIG)
    act.revealed(g, p, shown)      # revealed: their when-revealed abilities (Patron 1)
    if found is not None:
        act.to_hand(g, p, found)
    rest = [c for c in shown if c is not found]
    if rest:
        act.discard(g, p, rest)
    return found is not None


register(CardDef("Sage", Sequence(PlusActions(1), Do(_sage))))


def _scavenger(ctx: Ctx) -> bool:
    """You may put your deck into your discard pile. Put a card from your discard pile onto your deck."""
    p, g = ctx.player, ctx.game
    if p.deck and rx.ask(g, p, "put your deck into your discard pile?"):
        n = len(p.deck)
        for c in list(p.deck):
            g.move(c, "discard", owner=p.index)
        ctx.log(f"{p.name} puts their deck ({n} cards, unseen) into their discard pile (this is not discarding)",
                R("Scavenger", 1), R("Scavenger", 2))
    if not p.discard:
        ctx.log(f"{p.name} has no card in their discard pile to put onto their deck", narrate.DO_AS_MUCH)
        return False
    pick = ctx.ask(Question(p.name, "put a card from your discard pile onto your deck", "cards", list(p.discard), 1, 1))
    act.topdeck(g, p, pick[0], R("Scavenger", 3))
    return True


register(CardDef("Scavenger", Sequence(PlusCoins(2), Do(_scavenger))))


def _squire_trashed(game: Game, p: Player, card: Card) -> None:
    Gain(filter=lambda ctx, c: c.is_type("Attack"), describe="an Attack card", cite=R("Squire", 2)).apply(Ctx(game, p, card))


register(CardDef("Squire", Sequence(PlusCoins(1), ChooseOne({"+2 Actions": PlusActions(2), "+2 Buys": PlusBuys(2),
                                                            "gain a Silver": Gain("Silver")})),
                 hooks={"when_trash": when_trash(_squire_trashed)}))


def _storeroom(ctx: Ctx) -> bool:
    """Discard any number of cards, then draw that many. Then discard any number of cards for +$1 each."""
    p, g = ctx.player, ctx.game
    ChooseFromHand("discard", 0, len(p.hand), store="first", describe="any number of cards (then draw that many)",
                   cite=R("Storeroom", 2)).apply(ctx)
    act.draw(g, p, len(ctx.vars.get("first") or []))
    ChooseFromHand("discard", 0, len(p.hand), store="second", describe="any number of cards for +$1 each",
                   cite=R("Storeroom", 3)).apply(ctx)
    n = len(ctx.vars.get("second") or [])
    return PlusCoins(n).apply(ctx) if n else False


register(CardDef("Storeroom", Sequence(PlusBuys(1), Do(_storeroom))))


def _urchin_trigger(game: Game, ev: Event, card: Card) -> None:
    """When you play another Attack card with this in play, you may first trash this, to gain a Mercenary.

    A before-play ability of the Attack (CR Triggered ability: "you first resolve Urchin's before-play
    ability and then other players resolve any Reactions"), so the player orders it with the other ones,
    e.g. the +1 Card token on that pile (Urchin 6).
    """
    if ev.card is None or not ev.card.is_type("Attack"):
        return
    p = game.players[card.owner] if card.owner is not None else None
    if p is None or ev.player is not p or ev.card is card or card.zone != "in_play":
        if ev.card is card:
            game.log.add("Urchin does not react to being played itself", R("Urchin", 3))
        return
    if not rx.ask(game, p, f"trash Urchin to gain a Mercenary (before {ev.card.name} resolves)?"):
        game.log.add(f"{p.name} keeps Urchin in play")
        return
    act.trash(game, p, [card], R("Urchin", 2))
    nonsupply.gain_from(game, p, "Mercenary", cite=R("Urchin", 2))


register(CardDef("Urchin", Sequence(Draw(1), PlusActions(1), EachOtherPlayer(DiscardDownTo(4, cite=R("Urchin", 1)))),
                 while_in_play={"before_play": _urchin_trigger}, setup=nonsupply.setup_for("Mercenary")))


def _vagrant(ctx: Ctx) -> bool:
    """Reveal the top card of your deck. If it's a Curse, Ruins, Shelter or Victory card, put it into your hand."""
    top = act.reveal_top(ctx.game, ctx.player, 1)
    if not top:
        return False
    c = top[0]
    if any(c.is_type(t) for t in ("Curse", "Ruins", "Shelter", "Victory")):
        act.to_hand(ctx.game, ctx.player, c)
        return True
    act.topdeck(ctx.game, ctx.player, c, quiet=True)
    ctx.log(f"{c.name} is not a Curse, Ruins, Shelter or Victory card: it stays on the deck")
    return False


register(CardDef("Vagrant", Sequence(Draw(1), PlusActions(1), Do(_vagrant))))


def _minstrel(ctx: Ctx) -> bool:
    """Reveal the top 3 cards of your deck. Put the Action cards back in any order and discard the rest."""
    p, g = ctx.player, ctx.game
    shown = act.reveal_top(g, p, 3)
    actions = [c for c in shown if c.is_type("Action")]
    put_back_in_any_order(ctx, actions, narrate.REVEALING,
                          prompt="put the Action cards back on your deck: top card first")
    rest = [c for c in shown if c not in actions]
    if rest:
        act.discard(g, p, rest)
    return True


register(CardDef("Wandering Minstrel", Sequence(Draw(1), PlusActions(2), Do(_minstrel))))
