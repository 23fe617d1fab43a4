"""Renaissance: Kingdom cards, Projects and Artifacts.

Each definition follows the card's text in the card facts and cites its Card Reference entry. The ideas
this set brings live in mechanisms: villagers.py (+Villagers, spent in the Action phase), coffers.py
(+Coffers), projects.py (buying a Project, cubes), artifacts.py (one copy, taken from whoever has it) and
owned.py (abilities of whoever has a Project cube or an Artifact). Choices where the documents leave room
are listed in docs/audit-renaissance.md.
"""
from __future__ import annotations

from app.engine.core import activities as act
from app.engine.core import hooks
from app.engine.core import narrate
from app.engine.core.costs import CostModifier, add_modifier, costs_exactly_more, costs_up_to, reduce_this_turn, up_to
from app.engine.core.decisions import Question
from app.engine.core.effects import (ChooseFromHand, ChooseOne, Ctx, DiscardOneIfFive, Do, Draw, EachOtherPlayer, Gain,
                                     PlusActions, PlusBuys, PlusCoins, Sequence, TrashSelf, put_back_in_any_order,
                                     TrashForCost)
from app.engine.core.narrate import R
from app.engine.core.registry import CardDef, register
from app.engine.core.state import Card, Game, Player
from app.engine.core.triggers import Event
from app.engine.mechanisms import artifacts, durations, ongoing, piles, projects
from app.engine.mechanisms.coffers import PlusCoffers, add_coffers, coffers
from app.engine.mechanisms.owned import Ability
from app.engine.mechanisms.villagers import PlusVillagers, add_villagers

WHEN_GAIN = narrate.sec("Triggered ability")
START = narrate.sec("Play a card at the start of your turn")


def _gain_hook(fn):
    """A when-gain ability of the card itself (``fn(game, player, card)``), resolved by who gained it."""
    def run(game: Game, ev: Event, card: Card) -> None:
        fn(game, ev.player, card)
    return run


# ------------------------------------------------------------------ Kingdom cards: Villagers and Coffers
register(CardDef("Acting Troupe", Sequence(PlusVillagers(4, cite=R("Acting Troupe", 1)),
                                           TrashSelf(cite=R("Acting Troupe", 1)))))

register(CardDef("Lackeys", Draw(2), hooks={
    "when_gain": _gain_hook(lambda g, p, c: add_villagers(g, p, 2, R("Lackeys"), " (Lackeys was gained)"))}))


def _silk_merchant_bonus(game: Game, p: Player, card: Card) -> None:
    add_coffers(game, p, 1, R("Silk Merchant", 1))
    add_villagers(game, p, 1, R("Silk Merchant", 1))


register(CardDef("Silk Merchant", Sequence(Draw(2), PlusBuys(1)),
                 hooks={"when_gain": _gain_hook(_silk_merchant_bonus), "when_trash": _gain_hook(_silk_merchant_bonus)}))

register(CardDef("Spices", Sequence(PlusCoins(2), PlusBuys(1)), hooks={
    "when_gain": _gain_hook(lambda g, p, c: add_coffers(g, p, 2, R("Spices", 1), " (Spices was gained)"))}))


def _ducat_gain(game: Game, p: Player, card: Card) -> None:
    """"When you gain this, you may trash a Copper from your hand" (Ducat 2: other when-gain abilities may go first)."""
    Sequence(ChooseFromHand("trash", 0, 1, filter=lambda ctx, c: c.name == "Copper", cite=R("Ducat", 2),
                            describe="a Copper (Ducat was gained)")).apply(Ctx(game, p, card))


register(CardDef("Ducat", Sequence(PlusCoffers(1, cite=R("Ducat", 1)), PlusBuys(1)),
                 hooks={"when_gain": _gain_hook(_ducat_gain)}))


def _recruiter(ctx: Ctx, card: Card, cost: int) -> bool:
    """+1 Villager per $1 the trashed card costs.

    First the card is trashed, then its cost counts (Recruiter 1)."""
    add_villagers(ctx.game, ctx.player, cost, R("Recruiter", 1), f" ({card.name} costs ${cost})")
    return True


register(CardDef("Recruiter", Sequence(Draw(2), TrashForCost(_recruiter))))


def _sculptor(ctx: Ctx) -> bool:
    Gain(filter=up_to(4), to="hand", cite=R("Sculptor", 1), describe="a card costing up to $4").apply(ctx)
    got = ctx.vars.get("gained")
    if got is None:
        ctx.log(f"{ctx.player.name} gained no card, so no Villager", R("Sculptor", 2))
        return False
    if got.is_type("Treasure"):
        add_villagers(ctx.game, ctx.player, 1, R("Sculptor", 2), f" ({got.name} is a Treasure)")
    return True


register(CardDef("Sculptor", Do(_sculptor)))


def _swashbuckler(ctx: Ctx) -> bool:
    """After drawing: if your discard pile has any cards, +1 Coffers, then with 4+ Coffers take Treasure Chest."""
    p = ctx.player
    if not p.discard:
        ctx.log(f"{p.name}'s discard pile is empty, so nothing more happens", R("Swashbuckler", 1))
        return False
    add_coffers(ctx.game, p, 1, R("Swashbuckler", 1))
    if coffers(p) >= 4:
        artifacts.take(ctx.game, p, "Treasure Chest", R("Swashbuckler"))
    return True


register(CardDef("Swashbuckler", Sequence(Draw(3), Do(_swashbuckler))))


register(CardDef("Villain", Sequence(PlusCoffers(2), EachOtherPlayer(
    DiscardOneIfFive(lambda c: c.cost >= 2, "a card costing $2 or more", R("Villain", 1))))))


# ------------------------------------------------------------------ Kingdom cards: the rest
def _old_witch_victim(ctx: Ctx) -> bool:
    """Gains a Curse, then may trash a Curse from hand, even if none was gained (Old Witch 2, 4)."""
    act.gain(ctx.game, ctx.player, "Curse", cite=R("Old Witch", 4))
    ChooseFromHand("trash", 0, 1, filter=lambda c_, c: c.name == "Curse", cite=R("Old Witch", 2),
                   describe="a Curse").apply(ctx)
    return True


register(CardDef("Old Witch", Sequence(Draw(3), EachOtherPlayer(Do(_old_witch_victim), cite=R("Old Witch", 1)))))


def _hideout(ctx: Ctx) -> bool:
    ChooseFromHand("trash", 1, 1, store="trashed", cite=R("Hideout")).apply(ctx)
    trashed = ctx.vars["trashed"]
    if trashed and trashed[0].is_type("Victory"):
        act.gain(ctx.game, ctx.player, "Curse", cite=R("Hideout"))
    return True


register(CardDef("Hideout", Sequence(Draw(1), PlusActions(2), Do(_hideout))))


def _mountain_village(ctx: Ctx) -> bool:
    """Take a card from the discard pile if there is one; only if you can't, draw (Mountain Village 1)."""
    p = ctx.player
    if not p.discard:
        ctx.log(f"{p.name}'s discard pile is empty, so they draw a card instead", R("Mountain Village", 1))
        act.draw(ctx.game, p, 1)
        return True
    chosen = ctx.ask(Question(p.name, "put a card from your discard pile into your hand", "cards", list(p.discard),
                              1, 1))
    act.to_hand(ctx.game, p, chosen[0], R("Mountain Village", 1))
    return True


register(CardDef("Mountain Village", Sequence(PlusActions(2), Do(_mountain_village))))


def _scholar(ctx: Ctx) -> bool:
    p = ctx.player
    if p.hand:
        act.discard(ctx.game, p, list(p.hand), R("Scholar", 1), what=f"their hand ({act.names(p.hand)})")
    else:
        ctx.log(f"{p.name} has no cards in hand to discard, and still draws 7", R("Scholar", 2))
    act.draw(ctx.game, p, 7)
    return True


register(CardDef("Scholar", Do(_scholar)))


def _seer(ctx: Ctx) -> bool:
    p = ctx.player
    shown = act.reveal_top(ctx.game, p, 3)
    keep = [c for c in shown if 2 <= c.cost <= 4 and costs_up_to(c, 4)]
    for c in keep:
        act.to_hand(ctx.game, p, c, R("Seer", 1))
    put_back_in_any_order(ctx, [c for c in shown if c not in keep], R("Seer"))
    return True


register(CardDef("Seer", Sequence(Draw(1), PlusActions(1), Do(_seer))))


def _inventor(ctx: Ctx) -> bool:
    """Gain first, then the reduction (Inventor 3-4): the gained card and its when-gain see no reduction."""
    Gain(filter=up_to(4), cite=R("Inventor", 1), describe="a card costing up to $4").apply(ctx)
    reduce_this_turn(ctx.game, 1, "Inventor", cite=R("Inventor", 2))
    ctx.log("This turn, cards cost $1 less", R("Inventor", 2))
    return True


register(CardDef("Inventor", Do(_inventor)))


def _priest(ctx: Ctx) -> bool:
    """Trash first; the rest-of-turn +$2 applies only to later trashing (Priest 3, 6)."""
    ChooseFromHand("trash", 1, 1, cite=R("Priest", 3)).apply(ctx)
    p = ctx.player

    def more(game: Game, ev: Event, p=p) -> None:
        game.turn.coins += 2
        game.log.add(f"Priest: {p.name} trashed {ev.card.name}, +$2 (money pool: ${game.turn.coins})", R("Priest", 1))
    act.set_up_later(ctx.game, p, "when_trash", "Priest: +$2 when you trash a card this turn", more, None,
                     cite=R("Priest", 1))
    return True


register(CardDef("Priest", Sequence(PlusCoins(2, cite=R("Priest", 2)), Do(_priest))))


def _experiment_back(ctx: Ctx) -> bool:
    """"Return this to its pile": only while it is still where it was played (REMOVED FROM PLAY; Experiment 1)."""
    card = ctx.source
    if ctx.source_ref is None or not ctx.source_ref.valid():
        ctx.log(f"{card.name} is no longer in play, so it cannot be returned to its pile", narrate.LOSE_TRACK,
                R("Experiment", 2))
        return False
    piles.return_to_pile(ctx.game, card)
    ctx.log(f"{ctx.player.name} returns Experiment to its pile", R("Experiment", 1))
    return True


def _experiment_gain(game: Game, p: Player, card: Card) -> None:
    """Gain another Experiment, whose own when-gain does not gain a third (Experiment 3)."""
    second = game.__dict__.setdefault("experiment_no_more", set())
    if card.id in second:
        second.discard(card.id)
        game.log.add("This Experiment came with another, so it brings none", R("Experiment", 3))
        return
    pile = game.supply.get("Experiment")
    if pile:
        second.add(pile[-1].id)
    act.gain(game, p, "Experiment", cite=R("Experiment", 3))


register(CardDef("Experiment", Sequence(Draw(2), PlusActions(1), Do(_experiment_back)),
                 hooks={"when_gain": _gain_hook(_experiment_gain)}))


def _take_flag(game: Game, p: Player, card: Card) -> None:
    artifacts.take(game, p, "Flag", R("Flag Bearer", 1))


register(CardDef("Flag Bearer", PlusCoins(2), hooks={"when_gain": _gain_hook(_take_flag),
                                                       "when_trash": _gain_hook(_take_flag)}))


def _treasurer_trash(ctx: Ctx) -> bool:
    return ChooseFromHand("trash", 1, 1, filter=lambda c_, c: c.is_type("Treasure"), cite=R("Treasurer", 1),
                          describe="a Treasure").apply(ctx)


def _treasurer_gain(ctx: Ctx) -> bool:
    options = [c for c in ctx.game.trash if c.is_type("Treasure")]
    if not options:
        ctx.log(f"{ctx.player.name} cannot gain a Treasure from the trash: there is none", narrate.DO_AS_MUCH)
        return False
    chosen = ctx.ask(Question(ctx.player.name, "gain a Treasure from the trash to your hand", "cards", options, 1, 1))
    return act.gain(ctx.game, ctx.player, chosen[0], "hand", R("Treasurer", 2)) is not None


register(CardDef("Treasurer", Sequence(PlusCoins(3), ChooseOne({
    "trash a Treasure from your hand": Do(_treasurer_trash),
    "gain a Treasure from the trash to your hand": Do(_treasurer_gain),
    "take the Key": Do(lambda ctx: artifacts.take(ctx.game, ctx.player, "Key", R("Treasurer", 1)))}))))


def _border_guard(ctx: Ctx) -> bool:
    """Reveal 2 (3 with Lantern), one to hand, discard the rest; all Actions: take Lantern or Horn."""
    g, p = ctx.game, ctx.player
    lantern = artifacts.has(g, p, "Lantern")
    n = 3 if lantern else 2
    if lantern:
        ctx.log(f"{p.name} has Lantern, so Border Guard reveals 3 and discards 2", R("Border Guard", 1))
    shown = act.reveal_top(g, p, n)
    if not shown:
        return False
    keep = ctx.ask(Question(p.name, "put one of the revealed cards into your hand", "cards", shown, 1, 1))[0]
    act.to_hand(g, p, keep, R("Border Guard", 4) if len(shown) == 1 else None)
    rest = [c for c in shown if c is not keep]
    if rest:
        act.discard(g, p, rest, R("Border Guard"))
    if len(shown) < n:
        ctx.log(f"Only {len(shown)} card{'s' if len(shown) != 1 else ''} could be revealed, so {p.name} takes neither "
                "Lantern nor Horn", R("Border Guard", 3))
    elif all(c.is_type("Action") for c in shown):
        label = ctx.ask(Question(p.name, "all the revealed cards are Actions: take Lantern or Horn", "choice",
                                 ["Lantern", "Horn"]))
        artifacts.take(g, p, label, R("Border Guard", 2))
    return True


register(CardDef("Border Guard", Sequence(PlusActions(1), Do(_border_guard))))


def _scepter_replay(ctx: Ctx) -> bool:
    """Replay a non-Command Action card you played this turn that's still in play (Scepter 2, 5)."""
    g, p = ctx.game, ctx.player
    still = {r.card.id for r in g.turn.played_refs if r.valid()}     # played this turn, never left play since
    options = [c for c in p.in_play if c.id in still and c.is_type("Action") and not c.is_type("Command")]
    if not options:
        ctx.log(f"{p.name} has no Action card they played this turn still in play to replay", R("Scepter", 2))
        return False
    chosen = ctx.ask(Question(p.name, "replay an Action card you played this turn that's still in play", "cards",
                              options, 1, 1))[0]
    act.play(g, p, chosen, g.ref(chosen), by=ctx.source, nth=" again")
    return True


register(CardDef("Scepter", ChooseOne({"+$2": PlusCoins(2, cite=R("Scepter", 1)),
                                       "replay an Action card": Do(_scepter_replay)})))


# ------------------------------------------------------------------ Artifacts
def _mine(game: Game, ev: Event, holder: Player) -> bool:
    return ev.player is holder


artifacts.register_artifact("Key", Ability("start_of_turn", lambda g, ev, h: PlusCoins(1, cite=R("Key")).apply(
    Ctx(g, h, None))))
artifacts.register_artifact("Treasure Chest", Ability("start_of_buy_phase", lambda g, ev, h: act.gain(
    g, h, "Gold", cite=R("Treasure Chest", 1))))
artifacts.register_artifact("Lantern")      # read by Border Guard (Border Guard 1)
artifacts.register_artifact("Flag")


@hooks.hand_draw("Flag")
def _flag(game: Game, p: Player, n: int) -> int:
    """"When drawing your hand, +1 Card": one more card in Clean-up (Flag 1)."""
    if artifacts.has(game, p, "Flag"):
        game.log.add(f"{p.name} has Flag: they draw {n + 1} cards for their next hand instead of {n}", R("Flag", 1))
        return n + 1
    return n


def _horn(game: Game, ev: Event, holder: Player) -> None:
    used = game.turn.__dict__.setdefault("horn_used", set())
    if ev.card.zone != "discard":
        return
    if holder.index in used:
        game.log.add(f"{holder.name} already used the Horn this turn (once per turn)", R("Horn", 1))
        return
    if game.decider.ask(Question(holder.name, "put the Border Guard you discarded from play onto your deck (Horn)?",
                                 "yesno", [])):
        used.add(holder.index)
        act.topdeck(game, holder, ev.card, R("Horn", 1))


artifacts.register_artifact("Horn", Ability("when_discard", _horn, lambda g, ev, h: ev.card is not None
                                            and ev.card.name == "Border Guard" and ev.data.get("from") == "in_play"))


# ------------------------------------------------------------------ Projects: at the start of your turn
def _start(run):
    return Ability("start_of_turn", run)


projects.register_project("Barracks", _start(lambda g, ev, h: PlusActions(1).apply(Ctx(g, h, None))))
projects.register_project("Fair", _start(lambda g, ev, h: PlusBuys(1).apply(Ctx(g, h, None))))
projects.register_project("Cathedral", _start(lambda g, ev, h: ChooseFromHand(
    "trash", 1, 1, cite=R("Cathedral", 1)).apply(Ctx(g, h, None))))
projects.register_project("City Gate", _start(lambda g, ev, h: Sequence(Draw(1), ChooseFromHand(
    "topdeck", 1, 1, cite=R("City Gate", 1), describe="a card from your hand onto your deck")).apply(Ctx(g, h, None))))


def _crop_rotation(game: Game, ev: Event, h: Player) -> None:
    ctx = Ctx(game, h, None)
    if ChooseFromHand("discard", 0, 1, filter=lambda c_, c: c.is_type("Victory"), cite=R("Crop Rotation", 1),
                      describe="a Victory card for +2 Cards").apply(ctx):
        act.draw(game, h, 2)


projects.register_project("Crop Rotation", _start(_crop_rotation))


def _piazza(game: Game, ev: Event, h: Player) -> None:
    shown = act.reveal_top(game, h, 1)
    if shown and shown[0].is_type("Action"):
        act.play(game, h, shown[0], game.ref(shown[0]))
    elif shown:
        act.topdeck(game, h, shown[0], R("Piazza"), quiet=True)
        game.log.add(f"{shown[0].name} is not an Action, so it stays on top of {h.name}'s deck", R("Piazza"))


projects.register_project("Piazza", _start(_piazza))


def _silos(game: Game, ev: Event, h: Player) -> None:
    ctx = Ctx(game, h, None)
    ChooseFromHand("discard", 0, len(h.hand), filter=lambda c_, c: c.name == "Copper", store="coppers",
                   cite=R("Silos", 2), describe="any number of Coppers (revealed)").apply(ctx)
    if ctx.vars["coppers"]:
        act.draw(game, h, len(ctx.vars["coppers"]))


projects.register_project("Silos", _start(_silos))


def _sinister_plot(game: Game, ev: Event, h: Player) -> None:
    mine = game.__dict__.setdefault("sinister_plot", {})
    have = mine.get(h.index, 0)
    label = game.decider.ask(Question(h.name, "Sinister Plot: choose one", "choice",
                                      ["add a token", f"remove your tokens for +1 Card each ({have})"]))
    if label == "add a token":
        mine[h.index] = have + 1
        game.log.add(f"{h.name} adds a token to Sinister Plot (now {have + 1})", R("Sinister Plot", 2))
    else:
        mine[h.index] = 0
        game.log.add(f"{h.name} removes their {have} token{'s' if have != 1 else ''} from Sinister Plot",
                     R("Sinister Plot", 3))
        act.draw(game, h, have)


projects.register_project("Sinister Plot", _start(_sinister_plot))


# ------------------------------------------------------------------ Projects: when gaining or trashing
def _gained(kind: str):
    return lambda g, ev, h: ev.card is not None and ev.card.is_type(kind)


projects.register_project("Academy", Ability("when_gain", lambda g, ev, h: add_villagers(
    g, h, 1, R("Academy", 1), f" (Academy: {ev.card.name} is an Action)"), _gained("Action")))
projects.register_project("Guildhall", Ability("when_gain", lambda g, ev, h: add_coffers(
    g, h, 1, R("Guildhall", 1), f" (Guildhall: {ev.card.name} is a Treasure)"), _gained("Treasure")))
projects.register_project("Road Network", Ability("when_gain", lambda g, ev, h: (g.log.add(
    f"Road Network: {ev.player.name} gained {ev.card.name}, a Victory card, so {h.name} draws a card",
    R("Road Network", 1)), act.draw(g, h, 1)), _gained("Victory"), others=True))


def _sewers(game: Game, ev: Event, h: Player) -> None:
    """Trash another card from hand; that trashing does not trigger Sewers again (Sewers 1)."""
    ctx = Ctx(game, h, None)
    game.__dict__["sewers_trashing"] = True
    try:
        ChooseFromHand("trash", 0, 1, cite=R("Sewers", 1), describe="a card (Sewers)").apply(ctx)
    finally:
        game.__dict__["sewers_trashing"] = False


projects.register_project("Sewers", Ability("when_trash", _sewers,
                                            lambda g, ev, h: not g.__dict__.get("sewers_trashing")))


# ------------------------------------------------------------------ Projects: the end of the Buy phase, costs
def _exploration(game: Game, ev: Event, h: Player) -> None:
    if game.turn.gained_in_buy:
        game.log.add(f"{h.name} gained cards in this Buy phase, so Exploration gives nothing", R("Exploration", 1))
        return
    add_coffers(game, h, 1, R("Exploration", 1), " (Exploration)")
    add_villagers(game, h, 1, R("Exploration", 1), " (Exploration)")


projects.register_project("Exploration", Ability("end_of_buy_phase", _exploration))


def _pageant(game: Game, ev: Event, h: Player) -> None:
    if game.turn.coins < 1:
        game.log.add(f"{h.name} has no $ left to pay for Pageant", R("Pageant", 1))
        return
    if game.decider.ask(Question(h.name, "pay $1 for +1 Coffers (Pageant)?", "yesno", [])):
        game.turn.coins -= 1
        add_coffers(game, h, 1, R("Pageant", 1), f" for $1 (money pool: ${game.turn.coins})")


projects.register_project("Pageant", Ability("end_of_buy_phase", _pageant))

def _canal_on(game: Game) -> bool:
    """During the turns of a player with a cube on Canal (Canal 2: not during another player's turn)."""
    return projects.has(game, game.current, "Canal")


def _canal_cube(game: Game) -> None:
    """A standing cost reduction, in force on the turns of players with a cube (Canal 1-2)."""
    if not any(m.label == "Canal" for m in game.cost_modifiers):
        add_modifier(game, CostModifier(1, "Canal", condition=_canal_on, citation=R("Canal", 1)))


projects.register_project("Canal", on_cube=_canal_cube)


# ------------------------------------------------------------------ Durations
def _research(ctx: Ctx, card: Card, n: int) -> bool:
    """Set aside a card from your deck face down per $1 the trashed card costs; at the start of your next turn, put them into your hand.

    First the trash, then its cost, then the cards set aside (Research 2-3, TRIGGERED ABILITY)."""
    g, p = ctx.game, ctx.player
    cards = act.from_deck(g, p, n, "revealed", ctx.source) if n else []
    if not cards:
        why = "costs $0" if not n else "no cards are left in the deck"
        ctx.log(f"{card.name} {why}: nothing is set aside, so Research does not stay in play", R("Research", 3))
        return False
    return durations.set_aside_until_next_turn(ctx, cards, "Research: put the set-aside cards into your hand",
                                              R("Research", 1))


register(CardDef("Research", Sequence(PlusActions(1), TrashForCost(_research, R("Research")))))


# ------------------------------------------------------------------ Citadel
def _first_action_played(game: Game) -> Card | None:
    """The first Action card played this turn, counted when it was played, before it resolved (Citadel 6)."""
    for ref in game.turn.played_refs:
        if ref.card.is_type("Action"):
            return ref.card
    return None


def _citadel(game: Game, ev: Event, h: Player) -> None:
    game.turn.__dict__["citadel_replayed"] = True
    game.log.add(f"Citadel: {h.name} replays {ev.card.name}, the first Action card they played this turn",
                 R("Citadel", 2))
    act.play(game, h, ev.card, game.ref(ev.card), nth=" again")


projects.register_project("Citadel", Ability(
    "after_play", _citadel, lambda g, ev, h: g.turn.player == h.index and ev.data.get("action")
    and not g.turn.__dict__.get("citadel_replayed") and ev.card is _first_action_played(g)))


# ------------------------------------------------------------------ Improve
def _improve(ctx: Ctx) -> bool:
    """Set up, for this turn, the start-of-Clean-up 'remodel' of an Action card that would be discarded (Improve 1-2)."""
    p = ctx.player

    def run(game: Game, ev: Event, p=p) -> None:
        staying = act.staying_in_play(game)
        options = [c for c in p.in_play if c.is_type("Action") and c.id not in staying]
        if not options:
            game.log.add(f"{p.name} has no Action card in play that would be discarded, so Improve does nothing",
                         R("Improve", 2))
            return
        chosen = game.decider.ask(Question(p.name, "Improve: trash an Action card you would discard from play, to "
                                                   "gain a card costing exactly $1 more", "cards", options, 0, 1))
        if not chosen:
            game.log.add(f"{p.name} does not use Improve", R("Improve", 2))
            return
        base = chosen[0]
        act.trash(game, p, [base], R("Improve", 2))
        sub = Ctx(game, p, None)
        Gain(filter=lambda c_, c, base=base: costs_exactly_more(c, base, 1), cite=R("Improve", 2),
             describe=f"a card costing exactly $1 more than {base.name}").apply(sub)
    act.set_up_later(ctx.game, p, "start_of_cleanup", "Improve: at the start of Clean-up, you may 'remodel' an "
                     "Action card you would discard from play", run, None, cite=R("Improve", 1))
    return True


register(CardDef("Improve", Sequence(PlusCoins(2), Do(_improve))))


# ------------------------------------------------------------------ Capitalism
def _capitalism_treasure(card: Card, t: str) -> bool:
    """"During your turns, Actions with +$ amounts in their text are also Treasures" (Capitalism 1, 6-7).

    Any card anywhere (hands, play, the Supply, the trash, other players' cards: Capitalism 6), while the player
    whose turn it is has a cube on Capitalism; the text read is the card's own ("+$3" counts, a "$2" without the
    plus does not; Teacher's "+$1 token" does: Capitalism 1). Not when scoring: the game is over, it is nobody's
    turn (Capitalism 7).
    """
    if t != "Treasure":
        return False
    g = card.game
    f = card.facts
    return ("Action" in f.types and "+$" in f.text and not g.over
            and projects.has(g, g.current, "Capitalism"))


def _capitalism_cube(game: Game) -> None:
    if _capitalism_treasure not in game.type_changes:
        game.type_changes.append(_capitalism_treasure)


projects.register_project("Capitalism", on_cube=_capitalism_cube)


# ------------------------------------------------------------------ Star Chart
projects.register_project("Star Chart")


@hooks.shuffle_pick("Star Chart")
def _star_chart(game: Game, p: Player, cards: list[Card]) -> Card | None:
    """"When shuffling, you may pick one of the cards to go on top" (Star Chart 1-3).

    The player looks through the cards being shuffled and may keep one aside; after shuffling it goes on top of
    the shuffled cards, so under any cards still in the deck (Star Chart 2). Any shuffle of the player's cards,
    their deck shuffled by Inn or Famine too (Star Chart 3).
    """
    if not projects.has(game, p, "Star Chart"):
        return None
    chosen = game.decider.ask(Question(p.name, "Star Chart: pick a card to go on top of the shuffled cards",
                                       "cards", list(cards), 0, 1))
    if not chosen:
        game.log.add(f"{p.name} picks no card with Star Chart", R("Star Chart", 1))
        return None
    staying = [c for c in p.deck if c not in cards]
    under = f", under the {len(staying)} card{'s' if len(staying) != 1 else ''} still in their deck" if staying else ""
    game.log.add(f"{p.name} picks {chosen[0].name} with Star Chart: it goes on top of the shuffled cards{under}",
                 R("Star Chart", 1), *([R("Star Chart", 2)] if staying else []))
    return chosen[0]


# ------------------------------------------------------------------ Innovation
def _innovation_unused(game: Game, ev: Event, h: Player) -> bool:
    """Once during each of *your* turns (Innovation 1, 3: not on another player's turn; any Action card gained,
    as long as Innovation was not used yet this turn). Pins where the card was gained before anything moves it."""
    return (game.turn.player == h.index and ev.card is not None and ev.card.is_type("Action")
            and h.index not in game.turn.__dict__.get("innovation_used", ())
            and ongoing.gained_ref(ev) is not None)


def _innovation(game: Game, ev: Event, h: Player) -> None:
    """You may play it, from where it was gained, unless another ability moved it first (Innovation 2, 4)."""
    used = game.turn.__dict__.setdefault("innovation_used", set())
    if h.index in used:      # a play between the trigger and now used it (Innovation 3: once per turn)
        return
    ongoing.play_gained(game, h, ev, "Innovation", R("Innovation", 2), lost_cite=R("Innovation", 4),
                        use=lambda: used.add(h.index))


projects.register_project("Innovation", Ability("when_gain", _innovation, _innovation_unused))


# ------------------------------------------------------------------ Cargo Ship
def _cargo_ship(ctx: Ctx) -> bool:
    """Once this turn, when you gain a card, you may set it aside on this; next turn, into your hand.

    Only cards gained after it was played (Cargo Ship 1); each play sets up its own (Cargo Ship 4). It stays in
    play only if it set a card aside (Cargo Ship 2), so with nothing set aside it is discarded, and Improve may
    "remodel" it; the card that gains may still be set aside (Cargo Ship 5). A gained card another ability
    moved first cannot be set aside (MOVE GAINED CARD; Cargo Ship 3, 6).
    """
    g, p = ctx.game, ctx.player
    ship, ship_ref = ctx.source, ctx.source_ref
    used = {"done": False}

    def run(game: Game, ev: Event) -> None:
        card = ev.card
        if used["done"]:
            return
        if not ongoing.still_there(ev):
            game.log.add(f"{card.name} is no longer where it was gained (it is {narrate.where(card, game)}): Cargo "
                         "Ship cannot set it aside", narrate.LOSE_TRACK, ongoing.MOVE_GAINED, R("Cargo Ship", 3))
            return
        if not game.decider.ask(Question(p.name, f"set the gained {card.name} aside on Cargo Ship (into your hand at "
                                                 "the start of your next turn)?", "yesno", [])):
            game.log.add(f"{p.name} does not set {card.name} aside with Cargo Ship", R("Cargo Ship", 1))
            return
        used["done"] = True
        durations.set_aside_until_next_turn(Ctx(game, p, ship, ship_ref), [card],
                                            "Cargo Ship: put the set-aside card into your hand", R("Cargo Ship", 2),
                                            face_down=False)
    act.set_up_later(g, p, "when_gain", "Cargo Ship: once this turn, you may set aside a card you gain", run, None,
                     lambda game, ev: not used["done"] and ev.card is not None and ongoing.gained_ref(ev) is not None,
                     cite=R("Cargo Ship", 1))
    return True


register(CardDef("Cargo Ship", Sequence(PlusCoins(2), Do(_cargo_ship))))


# ------------------------------------------------------------------ Fleet
projects.register_project("Fleet")
# "After the game ends, there's an extra round of turns just for players with this": regular turns, in turn order
# from the player after the last regular turn's, not counted for the tie-breaker (Fleet 1-2); extra turns already
# due come first (Fleet 3); after the last of them the game is over (Fleet 4). Who has a cube is read when the
# game would end, so a cube placed during the round gives no turn (Fleet 6).
hooks.final_round(hooks.FinalRound(
    "Fleet", lambda g, order: [q for q in order if projects.has(g, q, "Fleet")], "Fleet turn", R("Fleet", 1)))


# ------------------------------------------------------------------ Patron
def _patron_revealed(game: Game, ev: Event, card: Card) -> None:
    """"When something causes you to reveal this (using the word "reveal") in an Action phase, +1 Coffers"
    (Patron 1, 2022 version: Patron 2). Any player's Action phase, the start of a turn included (Patron 5); in a
    Buy phase nothing (Patron 2: Venture). Revealing a hand reveals every card in it (Patron 4)."""
    p = ev.player
    if game.over or game.turn.phase not in ("start", "action"):
        game.log.add(f"{p.name} revealed Patron outside an Action phase: no Coffers", R("Patron", 2))
        return
    add_coffers(game, p, 1, R("Patron", 1), " (Patron was revealed)")


register(CardDef("Patron", Sequence(PlusVillagers(1), PlusCoins(2)), hooks={"when_reveal": _patron_revealed}))
