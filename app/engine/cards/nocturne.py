"""Nocturne: the Kingdom cards, Night cards, Boons, Hexes, States, Heirlooms and the piles outside the Supply.

Each definition follows the card's text in the card facts and cites its Card Reference
entry. The rules this set brings live in mechanisms: night.py (the Night phase),
boons.py (Boons, the Boons deck, Boons kept until Clean-up), hexes.py (Hexes and their
deck), states.py (Deluded, Envious, Miserable, Twice Miserable, Lost in the Woods),
heirlooms.py (Heirlooms replacing Coppers), nonsupply.py (Wish, Bat, Imp, Ghost,
Will-o'-Wisp) and zombies (Necromancer's setup, here). Choices where the documents leave
room are listed in docs/audit-nocturne.md.
"""
from __future__ import annotations

from app.engine.core import activities as act
from app.engine.core import narrate
from app.engine.core.costs import costs_up_to, costs_up_to_more, lower_cost
from app.engine.core.decisions import Question
from app.engine.core.effects import (ChooseFromHand, Ctx, DiscardDownTo, DiscardOneIfFive, Do, Draw, Gain, May,
                                     PlusActions, PlusBuys, PlusCoins, Sequence, put_back_in_any_order)
from app.engine.core.narrate import R
from app.engine.core.registry import CardDef, Reaction, register
from app.engine.core.state import Card, Game, Player
from app.engine.core.triggers import Event
from app.engine.core.turns import protect_from_attacks
from app.engine.mechanisms import night  # noqa: F401  (registers the Night phase and the night step)
from app.engine.mechanisms import boons, copies, heirlooms, hexes, nonsupply, ongoing, states  # noqa: F401
from app.engine.mechanisms import reactions as rx
from app.engine.mechanisms.durations import NextTurn
from app.engine.mechanisms.shared_decks import BOONS_AND_HEXES

GAIN_TO = narrate.GAIN_TO
CARDS_IN_PLAY = narrate.CARDS_IN_PLAY


def _in_play(ctx: Ctx) -> list[Card]:
    return list(ctx.player.in_play)


# ------------------------------------------------------------------ gained to your hand
def gained_to_hand(name: str, ruling: int = 1):
    """"This is gained to your hand (instead of your discard pile)": a when-would-gain ability of the card itself;
    a card gained somewhere else (onto the deck by Armory) stays there (Gain to your hand/deck § IV)."""
    def run(game: Game, ev: Event, card: Card) -> None:
        if ev.data.get("to") == "discard":
            ev.data["to"] = "hand"
            game.log.add(f"{card.name} is gained to {ev.player.name}'s hand instead of their discard pile",
                         R(name, ruling), GAIN_TO)
    return {"when_would_gain": run}


def _watchman(ctx: Ctx) -> bool:
    """Look at the top 5 cards of your deck, discard any number, and put the rest back in any order."""
    g, p = ctx.game, ctx.player
    seen = act.reveal_top(g, p, 5, verb="looks at")
    if not seen:
        return False
    dropped = ctx.ask(Question(p.name, "discard any number of the cards looked at", "cards", list(seen), 0, len(seen)))
    if dropped:
        act.discard(g, p, dropped, R("Night Watchman", 2))
    put_back_in_any_order(ctx, [c for c in seen if c not in dropped], R("Night Watchman", 2))
    return True


register(CardDef("Night Watchman", Do(_watchman), hooks=gained_to_hand("Night Watchman")))
register(CardDef("Den of Sin", NextTurn("Den of Sin: +2 Cards", Draw(2), R("Den of Sin")),
                 hooks=gained_to_hand("Den of Sin")))
register(CardDef("Ghost Town", NextTurn("Ghost Town: +1 Card and +1 Action", Sequence(Draw(1), PlusActions(1)),
                                        R("Ghost Town", 2)), hooks=gained_to_hand("Ghost Town")))


def _guardian_protects(ctx: Ctx) -> None:
    protect_from_attacks(ctx.game, ctx.player, "Guardian: Attacks other players play do not affect you until your "
                         "next turn", R("Guardian", 1), ctx.source)


register(CardDef("Guardian", Sequence(NextTurn("Guardian: +$1", PlusCoins(1), R("Guardian", 1)), Do(_guardian_protects)),
                 hooks=gained_to_hand("Guardian", 2)))


# ------------------------------------------------------------------ Night cards
def _cobbler_gain(ctx: Ctx) -> bool:
    return Gain(filter=lambda c, card: costs_up_to(card, 4), to="hand", cite=R("Cobbler", 1),
                describe="a card costing up to $4 to your hand").apply(ctx)


register(CardDef("Cobbler", NextTurn("Cobbler: gain a card to your hand costing up to $4", Do(_cobbler_gain),
                                     R("Cobbler", 1))))


def _monastery(ctx: Ctx) -> bool:
    """For each card you've gained this turn, you may trash a card from your hand or a Copper you have in play."""
    g, p = ctx.game, ctx.player
    n = len(g.turn.gained) if p.index == g.turn.player else 0
    ctx.log(f"{p.name} has gained {n} card{'s' if n != 1 else ''} this turn, so may trash up to {n}",
            R("Monastery", 3), narrate.IMMEDIATE)
    for _ in range(n):      # each trashing is its own effect, when-trash abilities in between (Monastery 2)
        options = list(p.hand) + [c for c in p.in_play if c.name == "Copper"]
        if not options:
            break
        chosen = ctx.ask(Question(p.name, "trash a card from your hand or a Copper you have in play (or none)",
                                  "cards", options, 0, 1))
        if not chosen:
            ctx.log(f"{p.name} trashes nothing more", R("Monastery", 1))
            break
        act.trash(g, p, chosen, R("Monastery", 2))
    return True


register(CardDef("Monastery", Do(_monastery)))


def _raider(ctx: Ctx) -> bool:
    """Each other player with 5 or more cards in hand discards a copy of a card you have in play (or reveals
    they can't)."""
    g, p = ctx.game, ctx.player
    names = {c.name for c in p.in_play}
    for q in g.others(p):
        if q.index in ctx.unaffected:
            ctx.log(f"{q.name} is unaffected by Raider", narrate.REACTION_TO_ATTACK)
            continue
        if len(q.hand) < 5:
            ctx.log(f"{q.name} has {len(q.hand)} cards in hand (fewer than 5) and discards nothing", R("Raider"))
            continue
        copies = [c for c in q.hand if c.name in names]
        if not copies:
            ctx.log(f"{q.name} reveals their hand ({act.names(q.hand)}): no copy of a card {p.name} has in play",
                    R("Raider", 2), narrate.REVEALING)
            act.revealed(ctx.game, q, list(q.hand))
            continue
        chosen = ctx.ask(Question(q.name, f"discard a copy of a card {p.name} has in play", "cards", copies, 1, 1))
        act.discard(g, q, chosen, R("Raider", 1))
    return True


register(CardDef("Raider", Sequence(Do(_raider), NextTurn("Raider: +$3", PlusCoins(3), R("Raider")))))


def _crypt(ctx: Ctx, durations: bool = False) -> bool:
    """Set aside any number of non-Duration Treasures you have in play, face down (under this). While any remain,
    at the start of each of your turns, put one of them into your hand (Crypt 1-4).

    The 2022 text excludes Duration Treasures (Crypt 5); the pre-2022 Crypt (``durations``) may set one aside,
    which removes it from play without stopping what it set up for a later turn (Crypt 6, REMOVED FROM PLAY)."""
    g, p = ctx.game, ctx.player
    kind = "Treasures" if durations else "non-Duration Treasures"
    options = [c for c in p.in_play if c.is_type("Treasure") and (durations or not c.is_type("Duration"))]
    if not options:
        ctx.log(f"{p.name} has no {kind[:-1]} in play to set aside", narrate.DO_AS_MUCH)
        return False
    chosen = ctx.ask(Question(p.name, f"set aside any number of {kind} you have in play", "cards",
                              options, 0, len(options)))
    if not chosen:
        ctx.log(f"{p.name} sets nothing aside, so Crypt is discarded this turn", R("Crypt", 3))
        return False
    for c in chosen:
        g.move(c, "set_aside", owner=p.index)
        c.set_aside_by = ctx.source.id
    ctx.log(f"{p.name} sets aside {len(chosen)} Treasure{'s' if len(chosen) != 1 else ''} face down under Crypt",
            R("Crypt", 1))
    refs = [g.ref(c) for c in chosen]     # this play's own set (Crypt 4)

    def left(game: Game, ev=None, refs=refs) -> list[Card]:
        return [r.card for r in refs if r.valid()]

    def run(game: Game, ev, refs=refs, p=p) -> None:
        cards = left(game)
        one = cards[0] if len(cards) == 1 else game.decider.ask(
            Question(p.name, "put one of the cards set aside with Crypt into your hand", "cards", cards, 1, 1))[0]
        game.move(one, "hand", owner=p.index)
        game.log.add(f"Start of turn: Crypt: {p.name} puts {one.name} into their hand", R("Crypt", 2))
        if left(game):
            _again(game)

    def _again(game: Game) -> None:
        act.set_up_later(game, p, "start_of_turn", "Crypt: put a set-aside Treasure into your hand", run, ctx.source,
                         until="used", cite=R("Crypt", 2), condition=lambda game, ev: bool(left(game)))
    _again(g)
    return True


register(CardDef("Crypt", Do(_crypt), version="2", note="2022: only non-Duration Treasures are set aside"))
register(CardDef("Crypt", Do(lambda ctx: _crypt(ctx, durations=True)), version="1",
                 note="pre-2022: any Treasures you have in play, Duration Treasures too"), default=False)


# ------------------------------------------------------------------ Action cards needing nothing else
def _play_one_without_a_copy_in_play(ctx: Ctx, card: str) -> bool:
    """"You may play an Action card from your hand that you don't have a copy of in play" (Conclave 2, Imp 2)."""
    g, p = ctx.game, ctx.player
    names = {c.name for c in p.in_play}
    options = [c for c in p.hand if c.is_type("Action") and c.name not in names]
    if not options:
        ctx.log(f"{p.name} has no Action card in hand without a copy in play", R(card, 2), CARDS_IN_PLAY)
        return False
    chosen = ctx.ask(Question(p.name, "play an Action card you don't have a copy of in play (or none)", "cards",
                              options, 0, 1))
    if chosen:
        act.play(g, p, chosen[0], g.ref(chosen[0]))
    return bool(chosen)


def _conclave(ctx: Ctx) -> bool:
    """You may play an Action card from your hand that you don't have a copy of in play. If you do, +1 Action."""
    if not _play_one_without_a_copy_in_play(ctx, "Conclave"):
        return False
    PlusActions(1).apply(ctx)
    return True


register(CardDef("Conclave", Sequence(PlusCoins(2), Do(_conclave))))


def _shepherd(ctx: Ctx) -> bool:
    """Discard any number of Victory cards, revealing them. +2 Cards per card discarded."""
    g, p = ctx.game, ctx.player
    options = [c for c in p.hand if c.is_type("Victory")]
    chosen = ctx.ask(Question(p.name, "discard any number of Victory cards, revealing them", "cards", options, 0,
                              len(options))) if options else []
    if not chosen:
        ctx.log(f"{p.name} discards no Victory card", R("Shepherd", 1))
        return False
    act.discard(g, p, chosen, R("Shepherd", 1), what=f"{act.names(chosen)}, revealing them")
    act.draw(g, p, 2 * len(chosen))
    return True


register(CardDef("Shepherd", Sequence(PlusActions(1), Do(_shepherd))))


def _tragic_hero(ctx: Ctx) -> bool:
    """If you have 8 or more cards in hand (after drawing), trash this and gain a Treasure."""
    g, p = ctx.game, ctx.player
    if len(p.hand) < 8:
        ctx.log(f"{p.name} has {len(p.hand)} cards in hand (fewer than 8)", R("Tragic Hero"))
        return False
    if ctx.source_ref is not None and ctx.source_ref.valid():
        act.trash(g, p, [ctx.source], R("Tragic Hero", 1))
    else:
        ctx.log("Tragic Hero is not in play, so it is not trashed; the Treasure is still gained", R("Tragic Hero", 3))
    Gain(filter=lambda c, card: card.is_type("Treasure"), cite=R("Tragic Hero", 2), describe="a Treasure").apply(ctx)
    return True


register(CardDef("Tragic Hero", Sequence(Draw(3), PlusBuys(1), Do(_tragic_hero))))


def _pooka(ctx: Ctx) -> bool:
    """You may trash a Treasure other than Cursed Gold from your hand, for +4 Cards."""
    done = ChooseFromHand("trash", 0, 1, filter=lambda c, card: card.is_type("Treasure") and card.name != "Cursed Gold",
                          cite=R("Pooka", 1), describe="a Treasure other than Cursed Gold").apply(ctx)
    if done:
        act.draw(ctx.game, ctx.player, 4)
    return done


register(CardDef("Pooka", Do(_pooka)))


def _secret_cave(ctx: Ctx) -> bool:
    """You may discard 3 cards. If you did, then at the start of your next turn, +$3."""
    g, p = ctx.game, ctx.player
    if not p.hand or not rx.ask(g, p, "discard 3 cards (for +$3 at the start of your next turn)?"):
        ctx.log(f"{p.name} does not discard 3 cards", R("Secret Cave", 1))
        return False
    k = min(3, len(p.hand))
    chosen = p.hand[:k] if k == len(p.hand) else ctx.ask(Question(p.name, "discard 3 cards", "cards", list(p.hand), 3, 3))
    act.discard(g, p, list(chosen), R("Secret Cave", 2))
    if k < 3:
        ctx.log(f"{p.name} could discard only {k}, so nothing is set up for next turn", R("Secret Cave", 2))
        return False
    return NextTurn("Secret Cave: +$3", PlusCoins(3), R("Secret Cave", 1)).apply(ctx)


register(CardDef("Secret Cave", Sequence(Draw(1), PlusActions(1), Do(_secret_cave)),
                 setup=nonsupply.setup_for("Wish")))     # its Heirloom Magic Lamp gains Wishes (Special setup § I)


def _faithful_hound_discarded(game: Game, ev: Event, card: Card) -> None:
    """When you discard this other than during Clean-up, you may set it aside, and put it into your hand at end of
    turn (Faithful Hound 2: on your turn or another's)."""
    p = game.players[card.owner] if card.owner is not None else ev.player
    if not rx.outside_cleanup(game) or card.zone != "discard":
        return
    if not rx.ask(game, p, "set Faithful Hound aside, to put it into your hand at the end of this turn?"):
        game.log.add(f"{p.name} leaves Faithful Hound in their discard pile", R("Faithful Hound", 1))
        return
    act.set_aside(game, p, card, None, R("Faithful Hound", 2))
    ref = game.ref(card)

    def back(g: Game, e, ref=ref, p=p) -> None:
        if ref.valid():
            g.move(ref.card, "hand", owner=p.index)
            g.log.add(f"At the end of the turn, {p.name} puts Faithful Hound into their hand", R("Faithful Hound", 2))
    act.set_up_later(game, p, "end_of_turn", "Faithful Hound: into your hand at the end of this turn", back,
                     None, until="used", cite=R("Faithful Hound", 2))
    game.later[-1].anyone = True          # the end of whoever's turn it is


register(CardDef("Faithful Hound", Draw(2), hooks={"when_discard": rx.unless_cleanup(_faithful_hound_discarded)}))


# ------------------------------------------------------------------ Changeling
def _changeling(ctx: Ctx) -> bool:
    """Trash this. Gain a copy of a card you have in play (Changeling 1-3: first trash, then choose any card in play;
    it is gained only if its pile in the Supply has one)."""
    g, p = ctx.game, ctx.player
    if ctx.source_ref is not None and ctx.source_ref.valid():
        act.trash(g, p, [ctx.source], R("Changeling", 3))
    if not p.in_play:
        ctx.log(f"{p.name} has no card in play to gain a copy of", narrate.DO_AS_MUCH)
        return False
    chosen = ctx.ask(Question(p.name, "gain a copy of a card you have in play", "cards", list(p.in_play), 1, 1))[0]
    ctx.log(f"{p.name} chooses {chosen.name}", R("Changeling", 2), CARDS_IN_PLAY)
    return copies.gain_copy(g, p, chosen, R("Changeling", 1)) is not None


def _may_exchange(game: Game, ev: Event) -> bool:
    """Checked when the card is gained, at the cost it has then (Changeling 8); only a card that belongs to a pile
    can be exchanged, not an Heirloom, a Shelter or a Zombie (Changeling 7)."""
    card = ev.card
    home = card.pile or card.name if card is not None else None
    return (card is not None and card.name != "Changeling" and ongoing.still_there(ev) and card.cost >= 3
            and (home in game.supply or home in game.non_supply))


def _exchange_for_changeling(game: Game, ev: Event) -> None:
    """In games using Changeling, when you gain a card costing $3 or more, you may exchange it for a Changeling
    (Changeling 4-7: returned to its pile from wherever it was gained to; the Changeling goes to the discard pile;
    the card was still gained, the Changeling was not)."""
    p, card = ev.player, ev.card
    if not game.supply.get("Changeling"):
        return
    if not rx.ask(game, p, f"exchange {card.name} for a Changeling?"):
        game.log.add(f"{p.name} keeps {card.name}", R("Changeling", 4))
        return
    rx.exchange(game, p, card, "Changeling", R("Changeling", 4))


def _changeling_setup(game: Game) -> None:
    from app.engine.core.state import LaterAbility
    if any(la.label == CHANGELING_RULE for la in game.later):
        return
    # every player's ability for the whole game, resolved by the player who gains (Changeling 4: "on your turn or
    # on an opponent's turn")
    game.later.append(LaterAbility(0, "when_gain", CHANGELING_RULE, _exchange_for_changeling, None, _may_exchange,
                                   "game", [R("Changeling", 4)], anyone=True, by_actor=True))


CHANGELING_RULE = "Changeling (exchange)"
register(CardDef("Changeling", Do(_changeling), setup=_changeling_setup))


def own_hook(effect):
    """A when-gain / when-trash ability of the card itself, resolved by the player the event is about."""
    def run(game: Game, ev: Event, card: Card) -> None:
        effect.apply(Ctx(game, ev.player, card, None, {"event": ev}))
    return run


def setups(*fns):
    """A card's special setup made of several (a Doom card that also brings a pile outside the Supply)."""
    def run(game: Game) -> None:
        for fn in fns:
            fn(game)
    return run


def piles(*names: str):
    return nonsupply.setup_for(*names)


# ------------------------------------------------------------------ the Boons
def _earths_gift(ctx: Ctx) -> bool:
    """You may discard a Treasure to gain a card costing up to $4."""
    if not ChooseFromHand("discard", 0, 1, filter=lambda c, card: card.is_type("Treasure"),
                          cite=R("Boons"), describe="a Treasure (to gain a card costing up to $4)").apply(ctx):
        return False
    return Gain(filter=lambda c, card: costs_up_to(card, 4), describe="a card costing up to $4").apply(ctx)


def _moons_gift(ctx: Ctx) -> bool:
    """Look through your discard pile. You may put a card from it onto your deck."""
    p = ctx.player
    if not p.discard:
        ctx.log(f"{p.name}'s discard pile is empty", narrate.DO_AS_MUCH)
        return False
    chosen = ctx.ask(Question(p.name, "put a card from your discard pile onto your deck (or none)", "cards",
                              list(p.discard), 0, 1))
    if chosen:
        act.topdeck(ctx.game, p, chosen[0])
    return bool(chosen)


def _rivers_gift(ctx: Ctx) -> bool:
    """+1 Card at the end of this turn (also another player's turn: Sacred Grove 2)."""
    p = ctx.player

    def run(game: Game, ev, p=p) -> None:
        game.log.add(f"The River's Gift: {p.name} draws 1 card at the end of the turn", BOONS_AND_HEXES)
        act.draw(game, p, 1)
    act.set_up_later(ctx.game, p, "end_of_turn", f"The River's Gift: +1 Card for {p.name} at the end of this turn",
                     run, None, until="used", cite=BOONS_AND_HEXES)
    ctx.game.later[-1].anyone = True
    return True


def _skys_gift(ctx: Ctx) -> bool:
    """You may discard 3 cards to gain a Gold ("Do X to": fewer than 3 discarded gain nothing)."""
    g, p = ctx.game, ctx.player
    if not p.hand or not rx.ask(g, p, "discard 3 cards to gain a Gold?"):
        return False
    k = min(3, len(p.hand))
    chosen = list(p.hand) if k == len(p.hand) else ctx.ask(Question(p.name, "discard 3 cards", "cards", list(p.hand), 3, 3))
    act.discard(g, p, chosen, narrate.DO_X_TO)
    if k < 3:
        ctx.log(f"{p.name} discarded only {k}, so no Gold is gained", narrate.DO_X_TO)
        return False
    return act.gain(g, p, "Gold") is not None


def _suns_gift(ctx: Ctx) -> bool:
    """Look at the top 4 cards of your deck. Discard any number of them and put the rest back in any order."""
    g, p = ctx.game, ctx.player
    seen = act.reveal_top(g, p, 4, verb="looks at")
    if not seen:
        return False
    dropped = ctx.ask(Question(p.name, "discard any number of the cards looked at", "cards", list(seen), 0, len(seen)))
    if dropped:
        act.discard(g, p, dropped)
    put_back_in_any_order(ctx, [c for c in seen if c not in dropped], BOONS_AND_HEXES)
    return True


boons.boon("The Earth's Gift", Do(_earths_gift))
boons.boon("The Field's Gift", Sequence(PlusActions(1), PlusCoins(1)), keep=True, coin=True)
boons.boon("The Flame's Gift", ChooseFromHand("trash", 0, 1, describe="a card (or none)"))
boons.boon("The Forest's Gift", Sequence(PlusBuys(1), PlusCoins(1)), keep=True, coin=True)
boons.boon("The Moon's Gift", Do(_moons_gift))
boons.boon("The Mountain's Gift", Gain("Silver"))
boons.boon("The River's Gift", Do(_rivers_gift), keep=True)
boons.boon("The Sea's Gift", Draw(1))
boons.boon("The Sky's Gift", Do(_skys_gift))
boons.boon("The Sun's Gift", Do(_suns_gift))
boons.boon("The Swamp's Gift", Do(lambda ctx: nonsupply.gain_from(ctx.game, ctx.player, "Will-o'-Wisp") is not None))
boons.boon("The Wind's Gift", Sequence(Draw(2), ChooseFromHand("discard", 2, 2, describe="2 cards")))


# ------------------------------------------------------------------ the Hexes
def _bad_omens(ctx: Ctx) -> bool:
    """Put your deck into your discard pile. Look through it and put 2 Coppers from it onto your deck (or reveal
    you can't) (Bad Omens 2: one Copper if that is all; else the discard pile is revealed)."""
    g, p = ctx.game, ctx.player
    deck = list(p.deck)
    for c in deck:
        g.move(c, "discard", owner=p.index)
    ctx.log(f"{p.name} puts their deck ({len(deck)} cards) into their discard pile (not discarding)", R("Bad Omens", 1))
    coppers = [c for c in p.discard if c.name == "Copper"][:2]
    for c in coppers:
        act.topdeck(g, p, c)
    if len(coppers) < 2:
        ctx.log(f"{p.name} reveals their discard pile ({act.names(p.discard)}): not 2 Coppers", R("Bad Omens", 2))
    return True


def _no_delusion_or_envy(state: str):
    def run(ctx: Ctx) -> bool:
        if states.has(ctx.game, ctx.player, "Deluded") or states.has(ctx.game, ctx.player, "Envious"):
            ctx.log(f"{ctx.player.name} already has Deluded or Envious, so nothing happens")
            return False
        states.take(ctx.game, ctx.player, state)
        return True
    return run


def _famine(ctx: Ctx) -> bool:
    """Reveal the top 3 cards of your deck. Discard the Actions. Shuffle the rest into your deck (Famine 2: a
    shuffle even of no cards)."""
    g, p = ctx.game, ctx.player
    seen = act.reveal_top(g, p, 3)
    actions = [c for c in seen if c.is_type("Action")]
    if actions:
        act.discard(g, p, actions, R("Famine", 1))
    rest = [c for c in seen if c not in actions]
    for c in rest:
        g.move(c, "deck")
    act.shuffle_deck(g, p)
    ctx.log(f"{p.name} shuffles {len(rest)} card{'s' if len(rest) != 1 else ''} into their deck", R("Famine", 2))
    return True


def _haunting(ctx: Ctx) -> bool:
    p = ctx.player
    if len(p.hand) < 4:
        ctx.log(f"{p.name} has fewer than 4 cards in hand")
        return False
    return ChooseFromHand("topdeck", 1, 1, describe="a card onto your deck").apply(ctx)


def _locusts(ctx: Ctx) -> bool:
    """Trash the top card of your deck. If it's Copper or Estate, gain a Curse. Otherwise, gain a cheaper card that
    shares a type with it (Locusts 1)."""
    g, p = ctx.game, ctx.player
    top = act.from_deck(g, p, 1, "revealed")
    if not top:
        ctx.log(f"{p.name} has no card to trash", narrate.DO_AS_MUCH)
        return False
    card = top[0]
    act.trash(g, p, [card], R("Locusts"))
    if card.name in ("Copper", "Estate"):
        return act.gain(g, p, "Curse", cite=R("Locusts", 1)) is not None
    types = set(card.facts.types)
    return Gain(filter=lambda c, x: lower_cost(x, card) and bool(types & set(x.facts.types)), cite=R("Locusts", 1),
                describe=f"a card costing less than {card.name} sharing a type with it").apply(ctx)


def _misery(ctx: Ctx) -> bool:
    g, p = ctx.game, ctx.player
    if states.has(g, p, "Twice Miserable"):
        ctx.log(f"{p.name} already has Twice Miserable, so nothing happens", R("Misery", 1))
        return False
    seen = g.__dict__.setdefault("miseries", {})
    seen[p.index] = seen.get(p.index, 0) + 1
    if seen[p.index] == 1 and not states.has(g, p, "Miserable"):
        states.take(g, p, "Miserable", R("Misery"))
    elif states.has(g, p, "Miserable"):
        states.flip(g, p, "Miserable", "Twice Miserable", R("Misery"))
    else:
        states.take(g, p, "Twice Miserable", R("Misery"))
    return True


def _war(ctx: Ctx) -> bool:
    """Reveal cards from your deck until revealing one costing $3 or $4. Trash it and discard the rest."""
    g, p = ctx.game, ctx.player
    revealed: list[Card] = []
    hit = None
    while True:
        got = act.from_deck(g, p, 1, "revealed")
        if not got:
            break
        revealed.append(got[0])
        if got[0].cost in (3, 4) and not got[0].facts.cost_potion and not got[0].facts.cost_debt:
            hit = got[0]
            break
    ctx.log(f"{p.name} reveals {act.names(revealed)}", R("War", 1), narrate.DIG)
    act.revealed(g, p, revealed)      # revealed: their when-revealed abilities (Patron 1)
    if hit is not None:
        act.trash(g, p, [hit], R("War"))
    rest = [c for c in revealed if c is not hit]
    if rest:
        act.discard(g, p, rest, R("War"))
    return hit is not None


hexes.hex_("Bad Omens", Do(_bad_omens))
hexes.hex_("Delusion", Do(_no_delusion_or_envy("Deluded")))
hexes.hex_("Envy", Do(_no_delusion_or_envy("Envious")))
hexes.hex_("Famine", Do(_famine))
hexes.hex_("Fear", DiscardOneIfFive(lambda c: c.is_type("Action") or c.is_type("Treasure"), "an Action or Treasure",
                                    R("Fear", 1)))
hexes.hex_("Greed", Gain("Copper", to="deck", cite=R("Greed", 1)))
hexes.hex_("Haunting", Do(_haunting))
hexes.hex_("Locusts", Do(_locusts))
hexes.hex_("Misery", Do(_misery))
hexes.hex_("Plague", Gain("Curse", to="hand", cite=R("Plague", 1)))
hexes.hex_("Poverty", DiscardDownTo(3, cite=R("Poverty", 1)))
hexes.hex_("War", Do(_war))
for _state in ("Deluded", "Envious", "Miserable", "Twice Miserable", "Lost in the Woods"):
    register(CardDef(_state))                # a State: its rules are in states.py; defined so scenarios may cite it
for _name in list(boons.BOONS) + list(hexes.HEXES):
    register(CardDef(_name))                 # received, never played: the ability is in boons.py / hexes.py


# ------------------------------------------------------------------ Fate cards
FATE = boons.fate_setup
DOOM = hexes.doom_setup


def _receive(cite: dict):
    def receive_a_boon(ctx: Ctx) -> bool:
        """Receive a Boon."""
        return boons.receive_next(ctx.game, ctx.player, cite) is not None
    return Do(receive_a_boon)


register(CardDef("Bard", Sequence(PlusCoins(2), _receive(R("Bard"))), setup=FATE))


def _blessed_village_gained(ctx: Ctx) -> bool:
    """When you gain this, take a Boon. Receive it now or at the start of your next turn."""
    g, p = ctx.game, ctx.player
    name = boons.take(g, p, R("Blessed Village", 4))
    if name is None:
        return False
    when = ctx.ask(Question(p.name, f"receive {name} now or at the start of your next turn?", "choice",
                            ["now", "at the start of your next turn"]))
    if when == "now":
        boons.receive(g, p, name, R("Blessed Village", 1))
        return True

    def later(game: Game, ev, name=name, p=p) -> None:
        boons.receive(game, p, name, R("Blessed Village"))
    act.set_up_later(g, p, "start_of_turn", f"Blessed Village: receive {name}", later, None, until="used",
                     cite=R("Blessed Village"))
    return True


register(CardDef("Blessed Village", Sequence(Draw(1), PlusActions(2)),
                 hooks={"when_gain": own_hook(Do(_blessed_village_gained))}, setup=FATE))


def _druid(ctx: Ctx) -> bool:
    """Receive one of the set-aside Boons (leaving it there): not taken, not discarded, not kept (Druid 2)."""
    options = boons.druid_boons(ctx.game)
    if not options:
        ctx.log("There is no set-aside Boon", narrate.DO_AS_MUCH)
        return False
    name = ctx.ask(Question(ctx.player.name, "receive one of the set-aside Boons", "choice", options))
    boons.receive(ctx.game, ctx.player, name, R("Druid", 2), discard=False)
    return True


register(CardDef("Druid", Sequence(PlusBuys(1), Do(_druid)), setup=boons.druid_setup))


def _fool(ctx: Ctx) -> bool:
    """If you aren't the player with Lost in the Woods: take it, take 3 Boons, and receive the Boons in any order."""
    g, p = ctx.game, ctx.player
    if states.has(g, p, "Lost in the Woods"):
        ctx.log(f"{p.name} has Lost in the Woods, so Fool does nothing", R("Fool", 1))
        return False
    states.take(g, p, "Lost in the Woods", R("Fool", 1))
    taken = [n for n in (boons.take(g, p, R("Fool", 1)) for _ in range(3)) if n is not None]
    while taken:
        name = taken[0] if len(set(taken)) == 1 else ctx.ask(
            Question(p.name, "choose which Boon to receive next", "choice", list(taken)))
        taken.remove(name)
        boons.receive(g, p, name, R("Fool", 3))
    return True


register(CardDef("Fool", Do(_fool), setup=FATE))


def _idol(ctx: Ctx) -> bool:
    """If you have an odd number of Idols in play (counting this), receive a Boon; otherwise, each other player
    gains a Curse (Idol 1: counted each time it is played)."""
    g, p = ctx.game, ctx.player
    n = sum(1 for c in p.in_play if c.name == "Idol")
    ctx.log(f"{p.name} has {n} Idol{'s' if n != 1 else ''} in play", R("Idol", 1), CARDS_IN_PLAY)
    if n % 2:
        return boons.receive_next(g, p, R("Idol", 1)) is not None
    for q in g.others(p):
        if q.index in ctx.unaffected:
            ctx.log(f"{q.name} is unaffected by Idol", narrate.REACTION_TO_ATTACK)
            continue
        act.gain(g, q, "Curse", cite=R("Idol"))
    return True


register(CardDef("Idol", Sequence(PlusCoins(2), Do(_idol)), setup=FATE))


def _pixie(ctx: Ctx) -> bool:
    """Discard the top Boon. You may trash this to receive that Boon twice (Pixie 1-3)."""
    g, p = ctx.game, ctx.player
    d = boons.boons_deck(g)
    name = d.take(g)
    if name is None:
        return False
    d.discard.append(name)
    ctx.log(f"{p.name} discards the top Boon: {name}", R("Pixie"))
    if ctx.source_ref is None or not ctx.source_ref.valid():
        # played without being moved into play (trashed by the first play of Throne Room): nothing to trash
        ctx.log("Pixie is not in play, so it can't be trashed and the Boon is not received", R("Pixie", 3))
        return False
    if not rx.ask(g, p, f"trash Pixie to receive {name} twice?"):
        return False
    act.trash(g, p, [ctx.source], R("Pixie", 2))
    d.discard.remove(name)
    boons.receive(g, p, name, R("Pixie", 1), discard=False)
    boons.receive(g, p, name, R("Pixie", 1))
    return True


register(CardDef("Pixie", Sequence(Draw(1), PlusActions(1), Do(_pixie)), setup=FATE))


def _sacred_grove(ctx: Ctx) -> bool:
    """Receive a Boon. If it doesn't give +$1, each other player may receive it (Sacred Grove 1-2)."""
    g, p = ctx.game, ctx.player
    name = boons.take(g, p, R("Sacred Grove"))
    if name is None:
        return False
    boons.receive(g, p, name, R("Sacred Grove"), discard=False)
    if boons.BOONS[name].coin:
        ctx.log(f"{name} gives +$1, so the other players may not receive it", R("Sacred Grove", 1))
    else:
        for q in g.others(p):
            if rx.ask(g, q, f"receive {name} too?"):
                boons.receive(g, q, name, R("Sacred Grove", 2), discard=False)
    boons.finish(g, p, name)
    return True


register(CardDef("Sacred Grove", Sequence(PlusBuys(1), PlusCoins(3), Do(_sacred_grove)), setup=FATE))


def _tracker_lost(game: Game, ev: Event) -> bool:
    """The gained card was moved before Tracker's ability resolved (played by Innovation as it was gained, the
    Tracker itself among them: Tracker 4): it can't be put onto the deck."""
    if ongoing.still_there(ev):
        return False
    game.log.add(f"{ev.card.name} is no longer where it was gained (it is {narrate.where(ev.card, game)}), so "
                 "Tracker can't put it onto the deck", narrate.LOSE_TRACK, R("Tracker", 4))
    return True


def _tracker(ctx: Ctx) -> bool:
    """This turn, when you gain a card, you may put it onto your deck (Tracker 1, 2022: a later ability)."""
    g, p = ctx.game, ctx.player

    def run(game: Game, ev: Event, p=p) -> None:
        if _tracker_lost(game, ev):
            return
        if rx.ask(game, p, f"put {ev.card.name} onto your deck (Tracker)?"):
            ongoing.move_gained(game, p, ev, "deck", R("Tracker", 3))
    act.set_up_later(g, p, "when_gain", "Tracker: put a gained card onto your deck", run, None,
                     cite=R("Tracker", 1))
    return True


register(CardDef("Tracker", Sequence(PlusCoins(1), Do(_tracker), _receive(R("Tracker"))), setup=FATE, version="2",
                 note="2022: this turn, when you gain a card, you may put it onto your deck"))


def _tracker_while_in_play(game: Game, ev: Event, card: Card) -> None:
    """While this is in play, when you gain a card, you may put it onto your deck (Tracker 2, pre-2022)."""
    p = ev.player
    if not _tracker_lost(game, ev) and rx.ask(game, p, f"put {ev.card.name} onto your deck (Tracker)?"):
        ongoing.move_gained(game, p, ev, "deck", R("Tracker", 2))


register(CardDef("Tracker", Sequence(PlusCoins(1), _receive(R("Tracker"))), setup=FATE, version="1",
                 while_in_play={"when_gain": ongoing.while_mine(_tracker_while_in_play)},
                 note="pre-2022: while in play, when you gain a card, you may put it onto your deck"), default=False)


# ------------------------------------------------------------------ Doom cards
def _others_hex(cite: dict):
    return Do(lambda ctx: hexes.others_receive_next(ctx, cite) is not None)


def _cursed_village_gained(ctx: Ctx) -> bool:
    return hexes.receive_next(ctx.game, ctx.player, R("Cursed Village", 3)) is not None


def _draw_until_6(ctx: Ctx) -> bool:
    act.draw_to(ctx.game, ctx.player, 6)
    return True


register(CardDef("Cursed Village", Sequence(PlusActions(2), Do(_draw_until_6)),
                 hooks={"when_gain": own_hook(Do(_cursed_village_gained))}, setup=DOOM))


def _leprechaun(ctx: Ctx) -> bool:
    """Gain a Gold. If you have exactly 7 cards in play, gain a Wish. Otherwise, receive a Hex (Leprechaun 1-3:
    counted after the Gold is gained)."""
    g, p = ctx.game, ctx.player
    act.gain(g, p, "Gold", cite=R("Leprechaun", 2))
    n = len(p.in_play)
    ctx.log(f"{p.name} has {n} card{'s' if n != 1 else ''} in play", R("Leprechaun", 1), CARDS_IN_PLAY)
    if n == 7:
        return nonsupply.gain_from(g, p, "Wish", cite=R("Leprechaun")) is not None
    return hexes.receive_next(g, p, R("Leprechaun", 3)) is not None


register(CardDef("Leprechaun", Do(_leprechaun), setup=setups(DOOM, piles("Wish"))))
register(CardDef("Skulk", Sequence(PlusBuys(1), _others_hex(R("Skulk", 2))),
                 hooks={"when_gain": own_hook(Gain("Gold", cite=R("Skulk", 1)))}, setup=DOOM))


def _tormentor(ctx: Ctx) -> bool:
    """If you have no other cards in play, gain an Imp. Otherwise, each other player receives the next Hex."""
    others = [c for c in ctx.player.in_play if c is not ctx.source]
    if not others:
        ctx.log(f"{ctx.player.name} has no other card in play", R("Tormentor", 1), CARDS_IN_PLAY)
        return nonsupply.gain_from(ctx.game, ctx.player, "Imp", cite=R("Tormentor", 1)) is not None
    return hexes.others_receive_next(ctx, R("Tormentor", 2)) is not None


register(CardDef("Tormentor", Sequence(PlusCoins(2), Do(_tormentor)), setup=setups(DOOM, piles("Imp"))))


def _vampire(ctx: Ctx) -> bool:
    """Gain a card costing up to $5 other than a Vampire. Exchange this for a Bat (Vampire 2-4)."""
    g, p = ctx.game, ctx.player
    Gain(filter=lambda c, x: costs_up_to(x, 5) and x.name != "Vampire", cite=R("Vampire", 2),
         describe="a card costing up to $5 other than a Vampire").apply(ctx)
    if ctx.source_ref is None or not ctx.source_ref.valid():
        ctx.log("Vampire is not in play, so it can't be exchanged for a Bat", R("Vampire", 4), narrate.LOSE_TRACK)
        return True
    nonsupply.exchange_for(g, p, ctx.source, ctx.source_ref, "Bat", R("Vampire", 3))
    return True


register(CardDef("Vampire", Sequence(_others_hex(R("Vampire", 1)), Do(_vampire)), setup=setups(DOOM, piles("Bat"))))


def _werewolf(ctx: Ctx) -> bool:
    """If it's your Night phase, each other player receives the next Hex. Otherwise, +3 Cards (Werewolf 2-5)."""
    if night.in_night_phase(ctx.game) and ctx.player.index == ctx.game.turn.player:
        return hexes.others_receive_next(ctx, R("Werewolf", 1)) is not None
    act.draw(ctx.game, ctx.player, 3)
    return True


register(CardDef("Werewolf", Do(_werewolf), setup=DOOM))


# ------------------------------------------------------------------ the piles outside the Supply
def _bat(ctx: Ctx) -> bool:
    """Trash up to 2 cards from your hand. If you trashed at least one, exchange this for a Vampire (Bat 1-3)."""
    done = ChooseFromHand("trash", 0, 2, cite=R("Bat", 1), describe="up to 2 cards").apply(ctx)
    if not done:
        return False
    if ctx.source_ref is None or not ctx.source_ref.valid():
        ctx.log("Bat is not in play, so it can't be exchanged", narrate.LOSE_TRACK, R("Bat", 3))
        return False
    return rx.exchange(ctx.game, ctx.player, ctx.source, "Vampire", R("Bat", 2))


register(CardDef("Bat", Do(_bat)))


def _imp(ctx: Ctx) -> bool:
    """You may play an Action card from your hand that you don't have a copy of in play (Imp 1-2)."""
    return _play_one_without_a_copy_in_play(ctx, "Imp")


register(CardDef("Imp", Sequence(Draw(2), Do(_imp))))


def _will_o_wisp(ctx: Ctx) -> bool:
    g, p = ctx.game, ctx.player
    top = act.reveal_top(g, p, 1)
    if not top:
        return False
    if costs_up_to(top[0], 2):
        act.to_hand(g, p, top[0], R("Will-o'-Wisp", 1))
    else:
        act.topdeck(g, p, top[0], quiet=True)
        ctx.log(f"{top[0].name} costs more than $2: it goes back on top of the deck", R("Will-o'-Wisp", 1))
    return True


register(CardDef("Will-o'-Wisp", Sequence(Draw(1), PlusActions(1), Do(_will_o_wisp))))


def _wish(ctx: Ctx) -> bool:
    """Return this to its pile. If you did, gain a card to your hand costing up to $6 (Wish 1-4)."""
    g, p = ctx.game, ctx.player
    if not nonsupply.return_to_pile(g, p, ctx.source, ctx.source_ref, R("Wish", 4)):
        return False
    return Gain(filter=lambda c, x: costs_up_to(x, 6), to="hand", cite=R("Wish", 3),
                describe="a card costing up to $6 to your hand").apply(ctx)


register(CardDef("Wish", Sequence(PlusActions(1), Do(_wish))))


def _ghost(ctx: Ctx) -> bool:
    """Reveal cards from your deck until you reveal an Action. Discard the other cards and set aside the Action. At
    the start of your next turn, play it twice (Ghost 1-4, 6: one ability, not optional)."""
    g, p = ctx.game, ctx.player
    revealed: list[Card] = []
    hit = None
    while True:
        got = act.from_deck(g, p, 1, "revealed")
        if not got:
            break
        revealed.append(got[0])
        if got[0].is_type("Action"):
            hit = got[0]
            break
    ctx.log(f"{p.name} reveals {act.names(revealed)}", R("Ghost", 1), narrate.DIG)
    act.revealed(g, p, revealed)      # revealed: their when-revealed abilities (Patron 1)
    rest = [c for c in revealed if c is not hit]
    if rest:
        act.discard(g, p, rest, R("Ghost", 1))
    if hit is None:
        ctx.log("No Action card was found, so Ghost is discarded this turn", R("Ghost", 2))
        return False
    act.set_aside(g, p, hit, ctx.source, R("Ghost", 1))
    ref = g.ref(hit)
    ghost = ctx.source

    def run(game: Game, ev, ref=ref, p=p) -> None:
        game.log.add(f"Start of turn: Ghost plays {ref.card.name} twice", R("Ghost", 3))
        expected = ref
        for i, nth in enumerate(("", " a second time")):
            placed = act.play(game, p, ref.card, expected, by=ghost, nth=nth)
            if i == 0 and placed is not None:
                expected = placed
    act.set_up_later(g, p, "start_of_turn", "Ghost: play the set-aside card twice", run, ghost, until="used",
                     cite=R("Ghost", 4), condition=lambda game, ev, ref=ref: ref.valid())
    return True


register(CardDef("Ghost", Do(_ghost)))


def _exorcist(ctx: Ctx) -> bool:
    """Trash a card from your hand. Gain a cheaper Spirit from one of the Spirit piles (Exorcist 1)."""
    g, p = ctx.game, ctx.player
    if not ChooseFromHand("trash", 1, 1, cite=R("Exorcist", 1)).apply(ctx):
        return False
    trashed = ctx.vars["chosen"][0]
    spirits = [pile[-1] for n, pile in g.non_supply.items() if n in ("Will-o'-Wisp", "Imp", "Ghost") and pile
               and lower_cost(pile[-1], trashed)]
    if not spirits:
        ctx.log(f"There is no Spirit costing less than {trashed.name}", narrate.DO_AS_MUCH)
        return False
    chosen = ctx.ask(Question(p.name, f"gain a Spirit costing less than {trashed.name}", "cards", spirits, 1, 1))[0]
    return act.gain(g, p, chosen, cite=R("Exorcist", 1)) is not None


register(CardDef("Exorcist", Do(_exorcist), setup=piles("Imp", "Ghost", "Will-o'-Wisp")))


def _devils_workshop(ctx: Ctx) -> bool:
    """If the number of cards you've gained this turn is: 2+, gain an Imp; 1, gain a card costing up to $4; 0, gain a
    Gold (Devil's Workshop 1: counted when played)."""
    g, p = ctx.game, ctx.player
    n = len(g.turn.gained) if p.index == g.turn.player else 0
    ctx.log(f"{p.name} has gained {n} card{'s' if n != 1 else ''} this turn", R("Devil's Workshop", 1), narrate.IMMEDIATE)
    if n >= 2:
        return nonsupply.gain_from(g, p, "Imp") is not None
    if n == 1:
        return Gain(filter=lambda c, x: costs_up_to(x, 4), cite=R("Devil's Workshop", 2),
                    describe="a card costing up to $4").apply(ctx)
    return act.gain(g, p, "Gold") is not None


register(CardDef("Devil's Workshop", Do(_devils_workshop), setup=piles("Imp")))


# ------------------------------------------------------------------ Necromancer and the Zombies
def _necromancer(ctx: Ctx) -> bool:
    """Choose a face up, non-Duration Action card in the trash. Turn it face down for the turn, and play it, leaving
    it there (Necromancer 1-5: turned face down before it is resolved; face-down cards are still gainable)."""
    g, p = ctx.game, ctx.player
    down = g.turn.__dict__.setdefault("face_down", set())
    options = [c for c in g.trash if c.is_type("Action") and not c.is_type("Duration") and c.id not in down]
    if not options:
        ctx.log("There is no face-up non-Duration Action card in the trash", narrate.DO_AS_MUCH)
        return False
    card = ctx.ask(Question(p.name, "choose a face-up non-Duration Action card in the trash to play", "cards",
                            options, 1, 1))[0]
    down.add(card.id)
    ctx.log(f"{p.name} turns {card.name} face down in the trash for the turn", R("Necromancer", 3))
    act.play(g, p, card, by=ctx.source, leave=True)
    return True


def _zombies(game: Game) -> None:
    """"Setup: Put the 3 Zombies into the trash" (Special setup § I); they belong to no pile."""
    if any(c.name.startswith("Zombie") for c in game.trash):
        return
    for name in ("Zombie Apprentice", "Zombie Mason", "Zombie Spy"):
        game.trash.append(game.new_card(name, None, "trash"))
    game.log.add("The 3 Zombies start in the trash", narrate.SPECIAL_SETUP)


register(CardDef("Necromancer", Do(_necromancer), setup=_zombies))


def _zombie_apprentice(ctx: Ctx) -> bool:
    done = ChooseFromHand("trash", 0, 1, filter=lambda c, x: x.is_type("Action"), cite=R("Zombie Apprentice", 1),
                          describe="an Action card").apply(ctx)
    if done:
        act.draw(ctx.game, ctx.player, 3)
        PlusActions(1).apply(ctx)
    return done


def _zombie_mason(ctx: Ctx) -> bool:
    """Trash the top card of your deck. You may gain a card costing up to $1 more than it."""
    g, p = ctx.game, ctx.player
    top = act.from_deck(g, p, 1, "revealed")
    if not top:
        return False
    act.trash(g, p, top, R("Zombie Mason", 1))
    base = top[0]
    return May(Gain(filter=lambda c, x: costs_up_to_more(x, base, 1), cite=R("Zombie Mason", 1),
                    describe=f"a card costing up to $1 more than {base.name}"),
               f"Gain a card costing up to $1 more than {base.name}?", R("Zombie Mason", 1)).apply(ctx)


def _zombie_spy(ctx: Ctx) -> bool:
    g, p = ctx.game, ctx.player
    top = act.reveal_top(g, p, 1, verb="looks at")
    if not top:
        return False
    pick = ctx.ask(Question(p.name, f"discard {top[0].name} or put it back?", "choice", ["discard", "put it back"]))
    if pick == "discard":
        act.discard(g, p, top)
    else:
        act.topdeck(g, p, top[0], quiet=True)
        ctx.log(f"{p.name} puts it back")
    return True


register(CardDef("Zombie Apprentice", Do(_zombie_apprentice)))
register(CardDef("Zombie Mason", Do(_zombie_mason)))
register(CardDef("Zombie Spy", Sequence(Draw(1), PlusActions(1), Do(_zombie_spy))))


# ------------------------------------------------------------------ Cemetery and the Heirlooms
def _cemetery_gained(ctx: Ctx) -> bool:
    return ChooseFromHand("trash", 0, 4, cite=R("Cemetery", 2), describe="up to 4 cards").apply(ctx)


register(CardDef("Cemetery", vp=2, hooks={"when_gain": own_hook(Do(_cemetery_gained))}, setup=piles("Ghost")))
register(CardDef("Cursed Gold", Sequence(PlusCoins(3, cite=R("Cursed Gold", 1)), Gain("Curse"))))
register(CardDef("Goat", Sequence(PlusCoins(1), ChooseFromHand("trash", 0, 1, describe="a card (or none)"))))
register(CardDef("Lucky Coin", Sequence(PlusCoins(1, cite=R("Lucky Coin", 1)), Gain("Silver"))))
register(CardDef("Pouch", Sequence(PlusCoins(1), PlusBuys(1))))
register(CardDef("Pasture", PlusCoins(1), vp=lambda game, p: sum(1 for c in p.all_cards() if c.name == "Estate")))


def _haunted_mirror_trashed(ctx: Ctx) -> bool:
    """When you trash this, you may discard an Action card, to gain a Ghost (Haunted Mirror 1-3)."""
    done = ChooseFromHand("discard", 0, 1, filter=lambda c, x: x.is_type("Action"), cite=R("Haunted Mirror", 1),
                          describe="an Action card (to gain a Ghost)").apply(ctx)
    if done:
        return nonsupply.gain_from(ctx.game, ctx.player, "Ghost", cite=R("Haunted Mirror", 1)) is not None
    return False


register(CardDef("Haunted Mirror", PlusCoins(1), hooks={"when_trash": own_hook(Do(_haunted_mirror_trashed))}))


def _magic_lamp(ctx: Ctx) -> bool:
    """If there are at least 6 cards that you have exactly 1 copy of in play (counting this), trash this. If you
    did, gain 3 Wishes (Magic Lamp 1-5)."""
    g, p = ctx.game, ctx.player
    counts: dict[str, int] = {}
    for c in p.in_play:
        counts[c.name] = counts.get(c.name, 0) + 1
    single = sum(1 for n in counts.values() if n == 1)
    ctx.log(f"{p.name} has {single} card{'s' if single != 1 else ''} in play with no other copy", R("Magic Lamp", 1),
            CARDS_IN_PLAY)
    if single < 6:
        return False
    if ctx.source_ref is None or not ctx.source_ref.valid():
        ctx.log("Magic Lamp is not in play, so it is not trashed and no Wish is gained", R("Magic Lamp", 5))
        return False
    act.trash(g, p, [ctx.source], R("Magic Lamp", 2))
    for _ in range(3):
        nonsupply.gain_from(g, p, "Wish", cite=R("Magic Lamp", 1))
    return True


register(CardDef("Magic Lamp", Sequence(PlusCoins(1), Do(_magic_lamp))))
