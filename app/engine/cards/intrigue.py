"""Intrigue, both editions: every Kingdom card, with the first-edition-only cards as version "1".

Each definition follows the card's text in the card facts (dominion-setup) and
cites its Card Reference entry; cost changes (Bridge) use the general
mechanism of ``app.engine.core.costs``. Where editions differ in function, both are
registered and the current one is the default:

* Masquerade: the second edition passes only between players with cards in
  hand, to the next such player (Masquerade 4, "New edition"); version "1"
  passes to the player to the left whoever that is (the old text the ruling
  describes).
* Baron, Mining Village, Trading Post, Ironworks, Upgrade...: the wording
  changed ("if you do" -> "for"), the function did not ("DO X FOR" § VI says
  both mean the same), so one definition serves both editions.
* Coppersmith, Great Hall, Saboteur, Scout, Secret Chamber, Tribute exist only
  in the first edition ("Not included in the 2016 Second Edition"): version "1".

Harem was renamed Farm in 2022 (the Harem entry's note; the Card Reference's
"Farm" entry redirects to Harem): it is registered under the card facts' name
Harem and "Farm" is an alias scenarios may use.

Choices made where the documents are silent (also in the report):

* Wishing Well names a card from those in the game (Supply, anyone's cards,
  the trash): naming a card that is not in the game can never hit, so the
  question's options stay readable.
* Secret Passage's "anywhere in your deck" is answered ``top``, ``bottom`` or
  a position counted from the top (``2`` = second card).
* Diplomat and Secret Chamber may react again to the same Attack while they
  still apply (Diplomat 4, Secret Chamber 4): the Reaction window reopens after
  each Reaction (triggers.attack_window, Resolving Reactions and timing 2).

Where the BGG FAQ says otherwise, the Complete Rules (newer) are followed:

* Pawn: the FAQ says the chosen options may be done in any order; Pawn 3
  (Clarification) says they are done in the order given.
* Replace (and Vassal in base.py): the FAQ's lose-track rule (section 20) says a
  card covered up on a discard pile is lost track of; Replace 5 says that since
  the 2019 errata cards in a discard pile are never lost track of.
"""
from __future__ import annotations

from dataclasses import dataclass

from app.engine.core import activities as act
from app.engine.core import narrate
from app.engine.core.narrate import R
from app.engine.core.costs import (ReduceCosts, costs_at_least, costs_exactly_more, costs_up_to, costs_up_to_more,
                               same_cost)
from app.engine.core.decisions import Question
from app.engine.core.effects import (ChooseFromHand, ChooseOne, Ctx, Do, Draw, EachOtherPlayer, Gain, IfYouDid,
                                PlusActions, PlusBuys, PlusCoins, Sequence, SetUpLater, put_back_in_any_order)
from app.engine.core.registry import CardDef, Reaction, register, register_alias
from app.engine.core.state import Card, Player

SEVERAL = narrate.SEVERAL_OPTIONS
REACTION_TO_ATTACK = narrate.REACTION_TO_ATTACK
TRIGGERED = narrate.TRIGGERED
DIG = narrate.DIG
DO_X_FOR = narrate.sec("“Do X to” / “do X for”", "Do X for")
MOVED_FROM_PLAY = narrate.sec("Effect when moved from play")
DIFFERENT_NAMES = narrate.sec("Copy of a card / Differently named cards", "Differently named cards")
CARD_COSTS = narrate.CARD_COSTS
REMODEL = narrate.REMODEL


@dataclass(frozen=True)
class Option:
    """One labelled option of a "choose two / choose different" question (answered by its label)."""

    name: str


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _put_back(ctx: Ctx, cards: list[Card], cite: dict) -> None:
    """Put cards back on the deck in the order the player chooses (top card first)."""
    put_back_in_any_order(ctx, cards, cite)


# ------------------------------------------------------------------ simple cards
register(CardDef("Great Hall", Sequence(Draw(1), PlusActions(1)), vp=1, version="1",
                 note="first edition only"))
register(CardDef("Harem", PlusCoins(2), vp=2))
register_alias("Farm", "Harem")
register(CardDef("Duke", vp=lambda game, p: sum(1 for c in p.all_cards() if c.name == "Duchy")))
register(CardDef("Courtyard", Sequence(
    Draw(3),
    ChooseFromHand("topdeck", 1, 1, cite=R("Courtyard", 1), describe="a card from your hand onto your deck"))))
register(CardDef("Nobles", ChooseOne({"+3 Cards": Draw(3), "+2 Actions": PlusActions(2)}), vp=2))
register(CardDef("Bridge", Sequence(PlusBuys(1), PlusCoins(1), ReduceCosts(1, cite=R("Bridge", 1)))))


# ------------------------------------------------------------------ choose several different options
def _choose_different(ctx: Ctx, k: int, options: dict[str, object], why: str, cite: list[dict]) -> list[str]:
    """Choose ``k`` different options first; they are then done in the order printed (Pawn 2-3, Courtier 2)."""
    p = ctx.player
    labels = list(options)
    k = min(k, len(labels))
    if k == 0:
        return []
    chosen = ctx.ask(Question(p.name, why, "cards", [Option(x) for x in labels], k, k))
    picked = [x for x in labels if any(o.name == x for o in chosen)]    # the printed order, not the answer's
    ctx.log(f"{p.name} chooses {', '.join(picked)} (chosen first, then done in the order printed)", *cite)
    return picked


_PAWN = {"+1 Card": Draw(1), "+1 Action": PlusActions(1), "+1 Buy": PlusBuys(1), "+$1": PlusCoins(1)}


def _pawn(ctx: Ctx) -> bool:
    """Choose two different options: +1 Card, +1 Action, +1 Buy, +$1.

    Both options are chosen, then done in the printed order (Pawn 2-3). The BGG FAQ says "in any order";
    the Complete Rules are newer and win."""
    for label in _choose_different(ctx, 2, _PAWN, "choose two different options", [R("Pawn", 2), R("Pawn", 3)]):
        _PAWN[label].apply(ctx)
    return True


register(CardDef("Pawn", Do(_pawn)))

_COURTIER = {"+1 Action": PlusActions(1), "+1 Buy": PlusBuys(1), "+$3": PlusCoins(3),
             "gain a Gold": Gain("Gold", cite=R("Courtier", 1))}


def _courtier(ctx: Ctx) -> bool:
    """Reveal a card from your hand; for each type it has, choose a different one of: +1 Action, +1 Buy, +$3, gain a Gold."""
    p = ctx.player
    if not p.hand:
        ctx.log(f"{p.name} has no card in hand to reveal, so there is nothing to choose", narrate.DO_AS_MUCH)
        return False
    shown = ctx.ask(Question(p.name, "reveal a card from your hand", "cards", list(p.hand), 1, 1))[0]
    types = shown.facts.types
    k = min(len(types), len(_COURTIER))
    more = " (at most four bonuses)" if len(types) > len(_COURTIER) else ""
    ctx.log(f"{p.name} reveals {shown.name}: {_plural(len(types), 'type')} ({', '.join(types)}), "
            f"so {k} different option{'s' if k != 1 else ''}{more}", R("Courtier", 1),
            *([R("Courtier", 3)] if more else []))
    for label in _choose_different(ctx, k, _COURTIER, f"choose {k} different options", [R("Courtier", 2)]):
        _COURTIER[label].apply(ctx)
    return True


register(CardDef("Courtier", Do(_courtier)))


# ------------------------------------------------------------------ "do X for" cards
def _baron(ctx: Ctx) -> bool:
    """You may discard an Estate for +$4; if you don't, gain an Estate."""
    g, p = ctx.game, ctx.player
    estates = [c for c in p.hand if c.name == "Estate"]
    if estates and ctx.ask(Question(p.name, "discard an Estate for +$4?", "yesno", [])):
        act.discard(g, p, estates[:1], R("Baron", 1))
        PlusCoins(4, cite=DO_X_FOR).apply(ctx)
        return True
    why = "has no Estate to discard" if not estates else "does not discard an Estate"
    ctx.log(f"{p.name} {why}, so gains an Estate", DO_X_FOR)
    act.gain(g, p, "Estate")
    return True


register(CardDef("Baron", Sequence(PlusBuys(1), Do(_baron))))


def _mill(ctx: Ctx) -> bool:
    """You may discard 2 cards; if you discarded 2, +$2."""
    g, p = ctx.game, ctx.player
    if not p.hand:
        ctx.log(f"{p.name} has no cards to discard")
        return False
    if not ctx.ask(Question(p.name, "discard 2 cards for +$2?", "yesno", [])):
        ctx.log(f"{p.name} chooses not to discard")
        return False
    chosen = ctx.ask(Question(p.name, "discard 2 cards", "cards", list(p.hand), min(2, len(p.hand)),
                              min(2, len(p.hand))))
    act.discard(g, p, chosen, R("Mill", 1))
    if len(chosen) < 2:
        ctx.log(f"{p.name} discarded only {len(chosen)} card, so gets no +$2", R("Mill", 1), R("Mill", 2))
        return False
    PlusCoins(2, cite=R("Mill", 2)).apply(ctx)
    return True


register(CardDef("Mill", Sequence(Draw(1), PlusActions(1), Do(_mill)), vp=1))


def _mining_village(ctx: Ctx) -> bool:
    """You may trash this (if it is still in play) for +$2."""
    g, p, me = ctx.game, ctx.player, ctx.source
    if ctx.source_ref is None or not ctx.source_ref.valid():
        ctx.log(f"{me.name} is no longer in play (it is {narrate.where(me, ctx.game)}), so it cannot be trashed "
                f"{'again ' if me.zone == 'trash' else ''}for +$2",
                R("Mining Village", 2), narrate.LOSE_TRACK)
        return False
    if not ctx.ask(Question(p.name, f"trash {me.name} for +$2?", "yesno", [])):
        ctx.log(f"{p.name} keeps {me.name} in play")
        return False
    act.trash(g, p, [me], R("Mining Village", 1))
    PlusCoins(2, cite=DO_X_FOR).apply(ctx)
    return True


register(CardDef("Mining Village", Sequence(Draw(1), PlusActions(2), Do(_mining_village))))


# ------------------------------------------------------------------ counting plays
def _actions_played(ctx: Ctx) -> int:
    from app.engine.core.state import card_facts
    return sum(n for name, n in ctx.game.turn.played.items() if "Action" in card_facts(name).types)


def _conspirator(ctx: Ctx) -> bool:
    """If you have played 3 or more Actions this turn (counting this), +1 Card and +1 Action."""
    n = _actions_played(ctx)
    if n < 3:
        ctx.log(f"{_plural(n, 'Action')} played this turn (counting this one): fewer than 3, no bonus",
                R("Conspirator", 1))
        return False
    ctx.log(f"{_plural(n, 'Action')} played this turn (counting this one and every play of a card played "
            "more than once, even if no longer in play): +1 Card and +1 Action", R("Conspirator", 1),
            R("Conspirator", 2))
    Draw(1).apply(ctx)
    PlusActions(1).apply(ctx)
    return True


register(CardDef("Conspirator", Sequence(PlusCoins(2), Do(_conspirator))))


def _copper_played(game, ev) -> bool:
    return ev.card is not None and ev.card.name == "Copper"


register(CardDef("Coppersmith", SetUpLater(
    "after_play", "Coppersmith's +$1 for each Copper played this turn", PlusCoins(1, cite=R("Coppersmith", 3)),
    condition=_copper_played, cite=R("Coppersmith", 1)), version="1", note="first edition only"))


# ------------------------------------------------------------------ gainers and "remodel" cards
def _ironworks_bonus(ctx: Ctx) -> bool:
    """For each type the gained card has: Action, +1 Action; Treasure, +$1; Victory, +1 Card."""
    c = ctx.vars.get("gained")
    if c is None:
        ctx.log("No card was gained, so Ironworks gives no bonus", R("Ironworks", 2))
        return False
    bonuses = [(t, e) for t, e in (("Action", PlusActions(1)), ("Treasure", PlusCoins(1)), ("Victory", Draw(1)))
               if c.is_type(t)]
    if bonuses:
        ctx.log(f"The gained {c.name} is {' and '.join(t for t, _ in bonuses)}: every matching bonus",
                R("Ironworks", 1), R("Ironworks", 2))
    for _, e in bonuses:
        e.apply(ctx)
    return True


register(CardDef("Ironworks", Sequence(
    Gain(filter=lambda ctx, c: costs_up_to(c, 4), describe="a card costing up to $4"),
    Do(_ironworks_bonus))))


def _trashed(ctx: Ctx) -> Card | None:
    t = ctx.vars.get("trashed")
    return t[0] if t else None


def _upgrade_gain(ctx: Ctx) -> bool:
    """Gain a card costing exactly $1 more than the trashed card."""
    t = _trashed(ctx)
    want = t.cost + 1     # exactly $1 more, with the trashed card's Potion and Debt ("Remodel" card § VI)
    return Gain(filter=lambda c2, c: costs_exactly_more(c, t, 1), cite=R("Upgrade", 1),
                describe=f"a card costing exactly ${want}").apply(ctx)


register(CardDef("Upgrade", Sequence(
    Draw(1), PlusActions(1),
    ChooseFromHand("trash", 1, 1, store="trashed", cite=REMODEL),
    IfYouDid(Do(_upgrade_gain), cite=narrate.IF_YOU_DID))))


def _replace_gain(ctx: Ctx) -> bool:
    """Gain a card costing up to $2 more than the trashed card; an Action or Treasure goes onto your deck; a Victory card gives each other player a Curse."""
    g, p = ctx.game, ctx.player
    t = _trashed(ctx)
    limit = t.cost + 2
    if not Gain(filter=lambda c2, c: costs_up_to_more(c, t, 2), cite=R("Replace", 1),
                describe=f"a card costing up to ${limit}").apply(ctx):
        ctx.log("No card was gained, so Replace moves nothing and gives no Curses", R("Replace", 4))
        return False
    card = ctx.vars["gained"]
    if card.is_type("Action") or card.is_type("Treasure"):
        # gained to the discard pile; anywhere else it was moved (Watchtower) and is lost track of. Still in the
        # discard pile, even covered by another card, it is not lost track of (Replace 5, 2019 errata; the BGG
        # FAQ's older lose-track rule says otherwise, the Complete Rules win).
        if card.zone != "discard":
            ctx.log(f"{card.name} was moved when gained, so Replace cannot put it onto the deck",
                    R("Replace", 3), narrate.LOSE_TRACK)
        else:
            act.topdeck(g, p, card, R("Replace", 2) if card.is_type("Victory") else R("Replace", 1))
    if card.is_type("Victory"):
        ctx.log(f"{card.name} is a Victory card: each other player gains a Curse", R("Replace", 2))
        EachOtherPlayer(Gain("Curse")).apply(ctx)
    return True


register(CardDef("Replace", Sequence(
    ChooseFromHand("trash", 1, 1, store="trashed", cite=TRIGGERED),
    IfYouDid(Do(_replace_gain), cite=narrate.IF_YOU_DID))))


def _trading_post(ctx: Ctx) -> bool:
    """Trash 2 cards from your hand; if you trashed 2, gain a Silver to your hand."""
    g, p = ctx.game, ctx.player
    n = min(2, len(p.hand))
    if n == 0:
        ctx.log(f"{p.name} has no cards to trash, so gains no Silver", R("Trading Post", 1))
        return False
    chosen = ctx.ask(Question(p.name, "trash 2 cards from your hand", "cards", list(p.hand), n, n))
    act.trash(g, p, chosen, R("Trading Post", 1))
    if len(chosen) < 2:
        ctx.log(f"{p.name} trashed only {len(chosen)} card, so gains no Silver", R("Trading Post", 3))
        return False
    act.gain(g, p, "Silver", to="hand", cite=R("Trading Post", 2))
    return True


register(CardDef("Trading Post", Do(_trading_post)))


def _lurker_trash(ctx: Ctx) -> bool:
    """Trash an Action card from the top of a Supply pile."""
    g, p = ctx.game, ctx.player
    tops = [pile[-1] for pile in g.supply.values() if pile and pile[-1].is_type("Action")]
    if not tops:
        ctx.log("No Action card is on top of a Supply pile", narrate.DO_AS_MUCH)
        return False
    chosen = ctx.ask(Question(p.name, "trash an Action card from the Supply (the top of a pile)", "cards", tops, 1, 1))
    act.trash(g, p, chosen, R("Lurker", 4))
    return True


def _lurker_gain(ctx: Ctx) -> bool:
    """Gain an Action card from the trash."""
    g, p = ctx.game, ctx.player
    options = [c for c in g.trash if c.is_type("Action")]
    if not options:
        ctx.log("There is no Action card in the trash to gain", narrate.DO_AS_MUCH)
        return False
    chosen = ctx.ask(Question(p.name, "gain an Action card from the trash", "cards", options, 1, 1))
    act.gain(g, p, chosen[0], cite=R("Lurker", 3))
    return True


register(CardDef("Lurker", Sequence(PlusActions(1), ChooseOne({
    "trash an Action card from the Supply": Do(_lurker_trash),
    "gain an Action card from the trash": Do(_lurker_gain)}))))


# ------------------------------------------------------------------ choose one
def _steward_trash(ctx: Ctx) -> bool:
    """Trash 2 cards from your hand."""
    return ChooseFromHand("trash", 2, 2, cite=R("Steward", 1), describe="2 cards").apply(ctx)


register(CardDef("Steward", ChooseOne({"+2 Cards": Draw(2), "+$2": PlusCoins(2),
                                       "trash 2 cards": Do(_steward_trash)})))


# ------------------------------------------------------------------ deck manipulation
def _patrol_like(ctx: Ctx, keep, cite: dict) -> bool:
    """Reveal the top 4 cards of your deck, put the Victory cards (Patrol: and Curses) into your hand, and put the rest back in any order."""
    g, p = ctx.game, ctx.player
    seen = act.reveal_top(g, p, 4)
    for c in [c for c in seen if keep(c)]:
        act.to_hand(g, p, c, cite)
    _put_back(ctx, [c for c in seen if c.zone == "revealed"], cite)
    return bool(seen)


register(CardDef("Patrol", Sequence(Draw(3), Do(lambda ctx: _patrol_like(
    ctx, lambda c: c.is_type("Victory") or c.is_type("Curse"), R("Patrol"))))))
register(CardDef("Scout", Sequence(PlusActions(1), Do(lambda ctx: _patrol_like(
    ctx, lambda c: c.is_type("Victory"), R("Scout")))), version="1", note="first edition only"))


def _secret_passage(ctx: Ctx) -> bool:
    """Take a card from your hand and put it anywhere in your deck."""
    g, p = ctx.game, ctx.player
    if not p.hand:
        ctx.log(f"{p.name} has no card in hand to put into their deck", narrate.DO_AS_MUCH)
        return False
    card = ctx.ask(Question(p.name, "take a card from your hand to put into your deck", "cards", list(p.hand), 1, 1))[0]
    n = len(p.deck)
    labels = ["top"] + [str(i) for i in range(2, n + 1)] + (["bottom"] if n else [])
    where = ctx.ask(Question(p.name, f"where in your deck ({n} cards) does {card.name} go?", "choice", labels))
    pos = 0 if where == "top" else n if where == "bottom" else int(where) - 1
    g.move(card, "deck", owner=p.index)
    p.deck.remove(card)
    p.deck.insert(pos, card)
    ctx.log(f"{p.name} puts {card.name} into their deck at position {pos + 1} of {n + 1} "
            "(the position is open information)", R("Secret Passage", 1), R("Secret Passage", 2))
    return True


register(CardDef("Secret Passage", Sequence(Draw(2), PlusActions(1), Do(_secret_passage))))


def _shanty_town(ctx: Ctx) -> bool:
    """Reveal your hand; if you have no Action cards in hand, +2 Cards."""
    p = ctx.player
    actions = [c for c in p.hand if c.is_type("Action")]
    ctx.log(f"{p.name} reveals their hand: {act.names(p.hand)}")
    act.revealed(ctx.game, p, list(p.hand))
    if actions:
        ctx.log(f"{p.name} has Action cards in hand ({act.names(actions)}): no cards drawn", R("Shanty Town"))
        return False
    return Draw(2).apply(ctx)


register(CardDef("Shanty Town", Sequence(PlusActions(2), Do(_shanty_town))))


def _game_card_names(ctx: Ctx) -> list[str]:
    g = ctx.game
    names = set(g.supply) | {c.name for c in g.trash}
    for pl in g.players:
        names |= {c.name for c in pl.all_cards()}
    return sorted(names)


def _wishing_well(ctx: Ctx) -> bool:
    """Name a card, then reveal the top card of your deck; if it is the named card, put it into your hand."""
    g, p = ctx.game, ctx.player
    named = ctx.ask(Question(p.name, "name a card", "choice", _game_card_names(ctx)))
    ctx.log(f"{p.name} names {named}", R("Wishing Well", 1))
    top = act.reveal_top(g, p, 1)
    if not top:
        return False
    c = top[0]
    if c.name == named:
        act.to_hand(g, p, c, R("Wishing Well", 1))
        return True
    act.topdeck(g, p, c, quiet=True)
    ctx.log(f"{c.name} is not {named}: it goes back on top of the deck")
    return False


register(CardDef("Wishing Well", Sequence(Draw(1), PlusActions(1), Do(_wishing_well))))


# ------------------------------------------------------------------ Masquerade
def _masquerade_pass(version: str):
    def run(ctx: Ctx) -> bool:
        """Each player with cards in hand passes one to the next player to their left at once (second edition: skipping players with no cards)."""
        g = ctx.game
        order = g.in_turn_order(ctx.player.index)
        passing = [pl for pl in order if pl.hand]
        if version == "2":
            receiver = {pl.index: passing[(i + 1) % len(passing)] for i, pl in enumerate(passing)}
            rule = R("Masquerade", 4)
        else:
            receiver = {pl.index: order[(order.index(pl) + 1) % len(order)] for pl in passing}
            rule = R("Masquerade", 3)
        for pl in order:
            if not pl.hand:
                ctx.log(f"{pl.name} has no cards in hand and passes nothing"
                        + (" (and is skipped when passing)" if version == "2" else ""), rule)
        if len(passing) < 2 and version == "2":
            ctx.log("Fewer than two players have cards in hand: nobody passes", R("Masquerade", 4))
            return False
        # everyone chooses first, then all cards move at once (Masquerade 2)
        chosen = {pl.index: ctx.ask(Question(pl.name, f"choose a card to pass to {receiver[pl.index].name}",
                                             "cards", list(pl.hand), 1, 1))[0] for pl in passing}
        for pl in passing:
            to = receiver[pl.index]
            if to is pl:
                continue
            g.move(chosen[pl.index], "hand", owner=to.index)
            ctx.log(f"{pl.name} passes a card to {to.name} (passing is not gaining)", R("Masquerade", 1), rule)
        ctx.log("All players pass at the same time", R("Masquerade", 2))
        return True
    return run


for _v in ("2", "1"):
    register(CardDef("Masquerade", Sequence(
        Draw(2), Do(_masquerade_pass(_v)),
        ChooseFromHand("trash", 0, 1, describe="up to 1 card")), version=_v,
        note="second edition: only players with cards pass, to the next such player (Masquerade 4)" if _v == "2"
        else "first edition: each player passes to the player to their left"), default=_v == "2")


# ------------------------------------------------------------------ Attacks
def _minion_attack(ctx: Ctx) -> bool:
    """Discard your hand, +4 Cards, and each other player with at least 5 cards in hand discards their hand and draws 4 cards."""
    g, p = ctx.game, ctx.player
    if p.hand:
        act.discard(g, p, list(p.hand), R("Minion", 2), what=f"their hand ({act.names(p.hand)})")
    else:
        ctx.log(f"{p.name} has no cards in hand to discard, and still draws 4", R("Minion", 4))
    act.draw(g, p, 4)
    for o in g.others(p):
        if o.index in ctx.unaffected:
            ctx.log(f"{o.name} is unaffected by Minion (the Reaction was resolved before choosing)",
                    R("Minion", 3), REACTION_TO_ATTACK)
            continue
        if len(o.hand) < 5:
            ctx.log(f"{o.name} has {_plural(len(o.hand), 'card')} in hand (fewer than 5): not affected")
            continue
        act.discard(g, o, list(o.hand), R("Minion", 2), what=f"their hand ({act.names(o.hand)})")
        act.draw(g, o, 4)
    return True


register(CardDef("Minion", Sequence(PlusActions(1), ChooseOne({
    "+$2": PlusCoins(2, cite=R("Minion", 1)),
    "discard your hand, +4 Cards": Do(_minion_attack)}))))


def _torturer_victim(ctx: Ctx) -> bool:
    """Each other player chooses: discard 2 cards, or gain a Curse to their hand (even an option they can't do)."""
    g, p = ctx.game, ctx.player
    label = ctx.ask(Question(p.name, "discard 2 cards, or gain a Curse to your hand", "choice",
                             ["discard 2 cards", "gain a Curse"]))
    ctx.log(f"{p.name} chooses: {label} (an option they cannot do may be chosen)", R("Torturer", 1))
    if label == "gain a Curse":
        return act.gain(g, p, "Curse", to="hand", cite=R("Torturer", 2)) is not None
    n = min(2, len(p.hand))
    if n == 0:
        ctx.log(f"{p.name} has no cards to discard", narrate.DO_AS_MUCH)
        return False
    chosen = ctx.ask(Question(p.name, "discard 2 cards", "cards", list(p.hand), n, n))
    act.discard(g, p, chosen, R("Torturer", 1))
    return True


register(CardDef("Torturer", Sequence(Draw(3), EachOtherPlayer(Do(_torturer_victim)))))


def _swindler_victim(ctx: Ctx) -> bool:
    """Each other player trashes the top card of their deck and gains a card with the same cost that you choose."""
    g, p, me = ctx.game, ctx.player, ctx.attacker
    top = act.from_deck(g, p, 1, "revealed")
    if not top:
        ctx.log(f"{p.name} has no card to trash", narrate.DO_AS_MUCH)
        return False
    card = top[0]
    act.trash(g, p, [card], R("Swindler", 1))
    options = [pile[-1] for pile in g.supply.values() if pile and same_cost(pile[-1], card)]
    if not options:
        ctx.log(f"No card in the Supply costs the same as {card.name} (${card.cost}): {p.name} gains nothing",
                R("Swindler", 2), CARD_COSTS)
        return False
    ctx.log(f"Cards in the Supply costing the same as {card.name} (${card.cost} now): {act.names(options)}",
            R("Swindler", 2), CARD_COSTS)
    chosen = ctx.ask(Question(me.name, f"choose a card costing ${card.cost} for {p.name} to gain", "cards",
                              options, 1, 1))
    act.gain(g, p, chosen[0].name, cite=R("Swindler", 2))
    return True


register(CardDef("Swindler", Sequence(PlusCoins(2), EachOtherPlayer(Do(_swindler_victim), cite=R("Swindler", 1)))))


def _saboteur_victim(ctx: Ctx) -> bool:
    """Each other player reveals cards from their deck until one costing $3 or more, trashes it, may gain a card costing up to $2 less, and discards the other revealed cards."""
    g, p = ctx.game, ctx.player
    found = None
    while found is None:
        got = act.from_deck(g, p, 1, "revealed")
        if not got:
            ctx.log(f"{p.name} runs out of cards without revealing one costing $3 or more", narrate.DO_AS_MUCH)
            break
        ctx.log(f"{p.name} reveals {got[0].name} (costs ${got[0].cost})", DIG)
        act.revealed(g, p, got)      # revealed: their when-revealed abilities (Patron 1)
        if costs_at_least(got[0], 3):
            found = got[0]
    if found is not None:
        act.trash(g, p, [found], R("Saboteur", 2))
        limit = found.cost - 2    # "$2 less than it" keeps its Potion and Debt ("Remodel" card § VI)
        options = [pile[-1] for pile in g.supply.values() if pile and costs_up_to_more(pile[-1], found, -2)]
        chosen = ctx.ask(Question(p.name, f"you may gain a card costing up to ${limit}", "cards", options, 0, 1)) \
            if options else []
        if chosen:
            act.gain(g, p, chosen[0].name, cite=R("Saboteur", 3))
        else:
            ctx.log(f"{p.name} gains nothing", R("Saboteur", 3))
    rest = list(p.revealed)
    act.discard(g, p, rest, TRIGGERED, what=f"the other revealed cards ({act.names(rest)})")
    return True


register(CardDef("Saboteur", EachOtherPlayer(Do(_saboteur_victim), cite=R("Saboteur", 1)), version="1",
                 note="first edition only"))


def _tribute(ctx: Ctx) -> bool:
    """The player to your left reveals then discards the top 2 cards of their deck; for each differently named one: Action +2 Actions, Treasure +$2, Victory +2 Cards."""
    g, p = ctx.game, ctx.player
    others = g.others(p)
    if not others:
        return False
    left = others[0]
    seen = act.reveal_top(g, left, 2)
    act.discard(g, left, list(seen), what=f"the revealed {act.names(seen)}")
    distinct: list[Card] = []
    for c in seen:
        if all(c.name != d.name for d in distinct):
            distinct.append(c)
    if len(distinct) < len(seen):
        ctx.log(f"Both revealed cards are {seen[0].name}: only one of them gives a bonus", R("Tribute", 2),
                DIFFERENT_NAMES)
    for c in distinct:
        bonuses = [(t, e) for t, e in (("Action", PlusActions(2)), ("Treasure", PlusCoins(2)), ("Victory", Draw(2)))
                   if c.is_type(t)]
        if len(bonuses) > 1:
            ctx.log(f"{c.name} is {' and '.join(t for t, _ in bonuses)}: every matching bonus", R("Tribute", 1))
        for _, e in bonuses:
            e.apply(ctx)
    return True


register(CardDef("Tribute", Do(_tribute), version="1", note="first edition only"))


# ------------------------------------------------------------------ Reactions
def _diplomat(ctx: Ctx) -> bool:
    """If you have 5 or fewer cards in hand (after drawing), +2 Actions."""
    p = ctx.player
    n = len(p.hand)
    if n <= 5:
        ctx.log(f"{p.name} has {n} cards in hand after drawing (5 or fewer): +2 Actions", R("Diplomat", 5))
        return PlusActions(2).apply(ctx)
    ctx.log(f"{p.name} has {n} cards in hand after drawing (more than 5): no +Actions", R("Diplomat", 5))
    return False


def _diplomat_react(game, ev, p: Player, card: Card, unaffected: set) -> None:
    """When another player plays an Attack, you may reveal this from a hand of 5 or more cards, to draw 2 cards then discard 3 (the Attack still affects you)."""
    game.log.add(f"{p.name} reveals Diplomat from a hand of {len(p.hand)} cards (5 or more): draws 2, then "
                 "discards 3", R("Diplomat", 1), R("Diplomat", 2), REACTION_TO_ATTACK)
    act.draw(game, p, 2)
    n = min(3, len(p.hand))
    chosen = game.decider.ask(Question(p.name, "discard 3 cards (the revealed Diplomat may be one)", "cards",
                                       list(p.hand), n, n))
    act.discard(game, p, chosen, R("Diplomat", 3))
    # Diplomat 2 is about draw-then-discard; that the Attack still hits is the card text (no "unaffected")
    game.log.add(f"{p.name} is still affected by {ev.card.name}: Diplomat does not block it", REACTION_TO_ATTACK)


register(CardDef("Diplomat", Sequence(Draw(2), Do(_diplomat)), reactions={"attack": Reaction(
    _diplomat_react, applies=lambda game, ev, p, card: len(p.hand) >= 5)}))


def _secret_chamber(ctx: Ctx) -> bool:
    """Discard any number of cards; +$1 per card discarded."""
    g, p = ctx.game, ctx.player
    chosen = ctx.ask(Question(p.name, "discard any number of cards", "cards", list(p.hand), 0, len(p.hand))) \
        if p.hand else []
    if chosen:
        act.discard(g, p, chosen)
    return PlusCoins(len(chosen)).apply(ctx)


def _secret_chamber_react(game, ev, p: Player, card: Card, unaffected: set) -> None:
    """When another player plays an Attack, you may reveal this from your hand: +2 Cards, then put 2 cards from your hand onto your deck."""
    game.log.add(f"{p.name} reveals Secret Chamber", R("Secret Chamber", 1), REACTION_TO_ATTACK)
    act.draw(game, p, 2)
    n = min(2, len(p.hand))
    chosen = game.decider.ask(Question(p.name, "put 2 cards from your hand onto your deck (the first named ends "
                                       "on top; Secret Chamber itself may be one)", "cards", list(p.hand), n, n))
    for c in reversed(chosen):
        act.topdeck(game, p, c, quiet=True)
    game.log.add(f"{p.name} puts {act.names(chosen)} onto their deck (top first)", R("Secret Chamber", 2),
                 R("Secret Chamber", 3))


register(CardDef("Secret Chamber", Do(_secret_chamber), reactions={"attack": Reaction(_secret_chamber_react)},
                 version="1", note="first edition only"))
