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
from app.engine.core.costs import costs_up_to, lower_cost, up_to
from app.engine.core.decisions import Question
from app.engine.core.effects import (ChooseFromHand, Ctx, Do, Draw, Gain, PlusActions, PlusBuys, PlusCoins, Sequence,
                                     put_back_in_any_order)
from app.engine.core.narrate import R
from app.engine.core.registry import CardDef, Reaction, register
from app.engine.core.state import Card, Game, Player
from app.engine.core.triggers import Event
from app.engine.core.turns import protect_from_attacks
from app.engine.mechanisms import night  # noqa: F401  (registers the Night phase and the night step)
from app.engine.mechanisms import copies, ongoing
from app.engine.mechanisms import reactions as rx
from app.engine.mechanisms.durations import NextTurn

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
            continue
        chosen = ctx.ask(Question(q.name, f"discard a copy of a card {p.name} has in play", "cards", copies, 1, 1))
        act.discard(g, q, chosen, R("Raider", 1))
    return True


register(CardDef("Raider", Sequence(Do(_raider), NextTurn("Raider: +$3", PlusCoins(3), R("Raider")))))


def _crypt(ctx: Ctx) -> bool:
    """Set aside any number of non-Duration Treasures you have in play, face down (under this). While any remain,
    at the start of each of your turns, put one of them into your hand (Crypt 1-4)."""
    g, p = ctx.game, ctx.player
    options = [c for c in p.in_play if c.is_type("Treasure") and not c.is_type("Duration")]
    if not options:
        ctx.log(f"{p.name} has no non-Duration Treasure in play to set aside", narrate.DO_AS_MUCH)
        return False
    chosen = ctx.ask(Question(p.name, "set aside any number of non-Duration Treasures you have in play", "cards",
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


register(CardDef("Crypt", Do(_crypt)))


# ------------------------------------------------------------------ Action cards needing nothing else
def _conclave(ctx: Ctx) -> bool:
    """You may play an Action card from your hand that you don't have a copy of in play. If you do, +1 Action."""
    g, p = ctx.game, ctx.player
    names = {c.name for c in p.in_play}
    options = [c for c in p.hand if c.is_type("Action") and c.name not in names]
    if not options:
        ctx.log(f"{p.name} has no Action card in hand without a copy in play", R("Conclave", 2), CARDS_IN_PLAY)
        return False
    chosen = ctx.ask(Question(p.name, "play an Action card you don't have a copy of in play (or none)", "cards",
                              options, 0, 1))
    if not chosen:
        return False
    act.play(g, p, chosen[0], g.ref(chosen[0]))
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


register(CardDef("Secret Cave", Sequence(Draw(1), PlusActions(1), Do(_secret_cave))))


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


register(CardDef("Faithful Hound", Draw(2), hooks={"when_discard": _faithful_hound_discarded}))


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
    card = ev.card
    return (card is not None and card.name != "Changeling" and ongoing.still_there(ev)
            and card.cost >= 3 and card.zone != "supply")


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
