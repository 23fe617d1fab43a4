"""Alchemy (12 Kingdom cards) plus Potion, Alchemist and Herbalist in both versions.

Each definition follows the card's text in the card facts (dominion-setup:
cost with Potion, types, text) and cites its Card Reference entry. Where the
2022 errata changed a card (Alchemist 2, Herbalist 1 and "Previous versions of
some cards"), both versions are registered: "2" (current, default) and "1"
(pre-2022).

Mechanisms live elsewhere: the Potion in the money pool and paying Potion
costs in potions.py (POTIONS § IV), Possession's turn in possession.py.
"Costing up to $5" (University) never takes a Potion card (costs.costs_up_to,
CARD COSTS § VI).

Choices where the documents leave room (also listed in the engineer's report):

* Pre-2022 Alchemist and Herbalist trigger "when you discard this from play";
  the engine discards all cards in play at once, so "a Potion in play" /
  "one of your Treasures from play" means the cards that were in play when
  Clean-up began (in a real game you discard Alchemist/Herbalist first, while
  the others are still in play: you choose the order of discarding).
* 2022 Herbalist asks, for each Treasure discarded from play this turn, whether
  to put it onto the deck, until one is put there ("Once this turn").
* Possession: Throne Room + Possession gives two extra turns (Possession 13),
  although the current card text says "not a 2nd extra turn in a row"; the
  Complete Rules' ruling is followed.
"""
from __future__ import annotations

from app.engine.core import activities as act
from app.engine.core import narrate
from app.engine.core.triggers import from_play, only_if
from app.engine.core.narrate import DIG, TRIGGERED, R
from app.engine.core.costs import costs_up_to
from app.engine.core.decisions import Question
from app.engine.core.effects import (ChooseFromHand, Ctx, Do, Draw, EachOtherPlayer, EachPlayer, Gain, PlusActions,
                                PlusBuys, PlusCoins, Sequence, SetUpLater, TrashForCost)
from app.engine.mechanisms.possession import possess_next
from app.engine.mechanisms.potions import POTIONS, PlusPotion
from app.engine.core.registry import CardDef, register
from app.engine.core.state import Card, Game

STONE = "Philosopher’s Stone"     # the Card Reference prints the name with a typographic apostrophe
REVEAL_AND_PLAY = narrate.sec("Reveal / look at cards and discard/trash/play", "Reveal / look at cards and play")
EACH_PLAYER = narrate.sec("Each player/each other player", "Each player")
CARDS_IN_PLAY = narrate.CARDS_IN_PLAY

# ------------------------------------------------------------------ Potion
def _potion(ctx: Ctx) -> bool:
    """+1 Potion in the money pool, to pay a card's Potion cost in this turn's Buy phase"""
    return PlusPotion(1, cite=POTIONS).apply(ctx)


register(CardDef("Potion", play=Do(_potion)))


# ------------------------------------------------------------------ Alchemist (2022 / pre-2022)
def _potion_in_play(game: Game, p) -> bool:
    return any(c.name == "Potion" for c in p.in_play)


def _alchemist_cleanup(ctx: Ctx) -> bool:
    """At the start of Clean-up, if you have a Potion in play, you may put this Alchemist onto your deck."""
    g, p, card = ctx.game, ctx.player, ctx.source
    if ctx.source_ref is None or not ctx.source_ref.valid():
        ctx.log(f"{card.name} is no longer in play: its ability lost track of it", narrate.LOSE_TRACK, R("Alchemist", 2))
        return False
    if not _potion_in_play(g, p):
        ctx.log(f"{p.name} has no Potion in play, so Alchemist cannot go onto the deck", R("Alchemist", 1))
        return False
    if not ctx.ask(Question(p.name, "put Alchemist onto your deck?", "yesno", [])):
        ctx.log(f"{p.name} leaves Alchemist in play", R("Alchemist", 2))
        return False
    act.topdeck(g, p, card, R("Alchemist", 1))
    return True


register(CardDef("Alchemist", Sequence(
    Draw(2), PlusActions(1),
    SetUpLater("end_of_buy_phase", "Alchemist (start of Clean-up: onto your deck with a Potion in play)",
               Do(_alchemist_cleanup), cite=R("Alchemist", 2))),
    version="2", note="2022: sets up an ability at the start of Clean-up (Alchemist 2)"))


def _mark_cleanup_start(game: Game, ev, card: Card) -> None:
    """Note what was in play as Clean-up began (pre-2022 Alchemist / Herbalist look at it when discarded)."""
    p = game.players[card.owner]
    game.turn.__dict__.setdefault("_in_play_at_cleanup", {})[p.index] = list(p.in_play)


def _was_in_play(game: Game, p) -> list[Card]:
    return [c for c in game.turn.__dict__.get("_in_play_at_cleanup", {}).get(p.index, [])]


def _alchemist_discarded(game: Game, ev, card: Card) -> None:
    """Pre-2022: when you discard this from play, you may put it onto your deck if you have a Potion in play."""
    p = ev.player
    if ev.data.get("from") != "in_play" or card.zone != "discard":
        return
    if not any(c.name == "Potion" for c in _was_in_play(game, p)):
        game.log.add(f"{p.name} had no Potion in play, so Alchemist stays discarded", R("Alchemist", 1))
        return
    if game.decider.ask(Question(p.name, "put Alchemist onto your deck?", "yesno", [])):
        act.topdeck(game, p, card, R("Alchemist", 1))   # "as long as you have a Potion in play" (Alchemist 1, 3)


register(CardDef("Alchemist", Sequence(Draw(2), PlusActions(1)), version="1",
                 hooks={"when_discard": only_if(from_play, _alchemist_discarded)},
                 while_in_play={"end_of_buy_phase": _mark_cleanup_start},
                 note="pre-2022: when discarded from play, onto your deck if a Potion is in play (Alchemist 3)"),
         default=False)


# ------------------------------------------------------------------ Apothecary
def _apothecary(ctx: Ctx) -> bool:
    """Reveal the top 4 cards of your deck; put the Coppers and Potions into your hand, the rest back in any order."""
    g, p = ctx.game, ctx.player
    seen = act.reveal_top(g, p, 4)
    for c in [c for c in seen if c.name in ("Copper", "Potion")]:
        act.to_hand(g, p, c, R("Apothecary"))
    rest = list(p.revealed)
    if rest:
        order = ctx.ask(Question(p.name, "put the other revealed cards back (first = top)", "order", rest))
        for c in reversed(order):
            act.topdeck(g, p, c, quiet=True)
        ctx.log(f"{p.name} puts {act.names(order)} back on their deck (top first)", R("Apothecary"))
    return True


register(CardDef("Apothecary", Sequence(Draw(1), PlusActions(1), Do(_apothecary))))


# ------------------------------------------------------------------ Apprentice
def _apprentice_draw(ctx: Ctx, c: Card, coins: int) -> bool:
    """+1 Card per $1 the trashed card costs now, +2 Cards if it has a Potion in its cost."""
    potion = bool(c.facts.cost_potion)
    n = coins + (2 if potion else 0)
    why = f"${coins}" + (" and a Potion (+2 Cards)" if potion else "")
    cites = [R("Apprentice", 1)] if coins != c.facts.cost_coins else []
    ctx.log(f"The trashed {c.name} costs {why}: {n} card{'s' if n != 1 else ''}", TRIGGERED, *cites)
    act.draw(ctx.game, ctx.player, n)
    return True


register(CardDef("Apprentice", Sequence(
    PlusActions(1),
    TrashForCost(_apprentice_draw, none="has no card to trash, so Apprentice draws nothing"))))


# ------------------------------------------------------------------ Familiar
register(CardDef("Familiar", Sequence(Draw(1), PlusActions(1),
                                      EachOtherPlayer(Gain("Curse", cite=R("Familiar"))))))


# ------------------------------------------------------------------ Golem
def _golem(ctx: Ctx) -> bool:
    """Reveal until 2 Action cards other than Golems; discard the other cards, then play the Actions in either order."""
    g, p = ctx.game, ctx.player
    found: list[Card] = []
    while len(found) < 2:
        got = act.from_deck(g, p, 1, "revealed")
        if not got:
            ctx.log(f"{p.name} runs out of cards to reveal", narrate.DO_AS_MUCH, DIG)
            break
        c = got[0]
        keep = c.is_type("Action") and c.name != "Golem"
        if keep:
            found.append(c)
        ctx.log(f"{p.name} reveals {c.name}" + ("" if keep else
                                                (" (a Golem: it does not count)" if c.name == "Golem" else "")),
                R("Golem", 1), DIG)
        act.revealed(g, p, got)      # revealed: their when-revealed abilities (Patron 1)
    others = [c for c in p.revealed if c not in found]
    act.discard(g, p, others, R("Golem", 4), what=f"the other revealed cards ({act.names(others)})")
    if len(found) == 2 and found[0].name != found[1].name:
        found = ctx.ask(Question(p.name, "play the revealed Action cards in which order? (first first)", "order",
                                 found))
    refs = [g.ref(c) for c in found]
    if found:
        ctx.log(f"Golem plays {act.names(found)}, in that order: not optional, and it uses no Action",
                R("Golem", 2), R("Golem", 3))
    for c, ref in zip(found, refs):
        act.play(g, p, c, ref, nth=" (revealed by Golem)")
    return bool(found)


register(CardDef("Golem", Do(_golem)))


# ------------------------------------------------------------------ Herbalist (2022 / pre-2022)
def _herbalist_topdeck(game: Game, ev) -> None:
    """When you discard a Treasure from play, you may put it onto your deck (once this turn)."""
    p, c = ev.player, ev.card
    if game.decider.ask(Question(p.name, f"put {c.name} (discarded from play) onto your deck with Herbalist?",
                                 "yesno", [])):
        act.topdeck(game, p, c, R("Herbalist", 1))
        ev.data["herbalist_used"] = True
    else:
        game.log.add(f"{p.name} leaves {c.name} in the discard pile (Herbalist's ability is not used yet)",
                     R("Herbalist", 1))


def _herbalist_set_up(ctx: Ctx) -> bool:
    """Set up: once this turn, when you discard a Treasure from play, you may put it onto your deck."""
    g, p = ctx.game, ctx.player
    state = {"used": False}

    def cond(game: Game, ev, state=state) -> bool:
        return (not state["used"] and ev.card is not None and ev.card.is_type("Treasure")
                and ev.data.get("from") == "in_play" and ev.card.zone == "discard")

    def run(game: Game, ev, state=state) -> None:
        _herbalist_topdeck(game, ev)
        if ev.data.pop("herbalist_used", False):
            state["used"] = True

    act.set_up_later(g, p, "when_discard", "Herbalist (once this turn: a Treasure discarded from play onto your "
                     "deck)", run, None, cond, "end_of_turn", R("Herbalist", 1))
    return True


register(CardDef("Herbalist", Sequence(PlusBuys(1), PlusCoins(1), Do(_herbalist_set_up)), version="2",
                 note="2022: sets up an ability when played (Herbalist 1)"))


def _herbalist_old_discarded(game: Game, ev, card: Card) -> None:
    """Pre-2022: when you discard this from play, you may put one of your Treasures from play onto your deck."""
    p = ev.player
    if ev.data.get("from") != "in_play":
        return
    # the Treasures in play when this Herbalist was discarded: those in play as Clean-up began, not
    # yet moved elsewhere (Herbalist pre-2022 5); never this Herbalist itself (Herbalist pre-2022 8)
    options = [c for c in _was_in_play(game, p) if c.is_type("Treasure") and c is not card
               and c.zone in ("in_play", "discard") and c.owner == p.index]
    if not options:
        game.log.add(f"{p.name} had no Treasure in play for Herbalist", R("Herbalist", 5, "pre-2022"))
        return
    chosen = game.decider.ask(Question(p.name, "put one of your Treasures from play onto your deck (Herbalist)",
                                       "cards", options, 0, 1))
    if chosen:
        act.topdeck(game, p, chosen[0], R("Herbalist", 5, "pre-2022"))
    else:
        game.log.add(f"{p.name} puts no Treasure onto their deck", R("Herbalist", 5, "pre-2022"))


register(CardDef("Herbalist", Sequence(PlusBuys(1), PlusCoins(1)), version="1",
                 hooks={"when_discard": only_if(from_play, _herbalist_old_discarded)},
                 while_in_play={"end_of_buy_phase": _mark_cleanup_start},
                 note="pre-2022: when discarded from play, one Treasure from play onto your deck (Herbalist 5-6)"),
         default=False)


# ------------------------------------------------------------------ Philosopher's Stone
def _stone_coins(ctx: Ctx) -> int:
    """+$1 per 5 cards in your deck and discard pile now (rounded down); cards elsewhere do not count."""
    p = ctx.player
    n = len(p.deck) + len(p.discard)
    ctx.log(f"{p.name} counts {len(p.deck)} cards in their deck and {len(p.discard)} in their discard pile: "
            f"{n} // 5 = {n // 5}", R(STONE, 1), R(STONE, 3))
    return n // 5


register(CardDef("Philosopher's Stone", PlusCoins(_stone_coins, cite=R(STONE, 2)), entry=STONE))


# ------------------------------------------------------------------ Possession
def _possession(ctx: Ctx) -> bool:
    """The player to your left takes an extra turn after this one (each Possession played gives one), in which you make all their decisions, gain the cards they would gain, and their trashed cards are set aside until its end"""
    possess_next(ctx.game, ctx.player, ctx.source)
    return True


register(CardDef("Possession", Do(_possession)))


# ------------------------------------------------------------------ Scrying Pool
def _scrying_each(ctx: Ctx) -> bool:
    """Reveal the top card of your deck; the Scrying Pool player chooses: discard it or put it back."""
    g, p = ctx.game, ctx.player
    me = ctx.attacker or p
    top = act.reveal_top(g, p, 1)
    if not top:
        return False
    c = top[0]
    what = ctx.ask(Question(me.name, f"{p.name}'s {c.name}: discard it or put it back?", "choice",
                            ["discard", "put back"]))
    if what == "discard":
        act.discard(g, p, [c], R("Scrying Pool", 1))
    else:
        act.topdeck(g, p, c, quiet=True)
        ctx.log(f"{c.name} goes back on top of {p.name}'s deck", R("Scrying Pool", 1), EACH_PLAYER)
    return True


def _scrying_dig(ctx: Ctx) -> bool:
    """Reveal cards from your deck until revealing a non-Action card; put all of them into your hand."""
    g, p = ctx.game, ctx.player
    got_all: list[Card] = []
    while True:
        got = act.from_deck(g, p, 1, "revealed")
        if not got:
            ctx.log(f"{p.name} runs out of cards to reveal", narrate.DO_AS_MUCH, R("Scrying Pool", 5))
            break
        got_all.append(got[0])
        ctx.log(f"{p.name} reveals {got[0].name}", R("Scrying Pool", 2), DIG)
        act.revealed(g, p, got)      # revealed: their when-revealed abilities (Patron 1)
        if not got[0].is_type("Action"):
            break
    for c in got_all:
        act.to_hand(g, p, c, R("Scrying Pool", 4))
    return bool(got_all)


register(CardDef("Scrying Pool", Sequence(PlusActions(1), EachPlayer(Do(_scrying_each)), Do(_scrying_dig))))


# ------------------------------------------------------------------ Transmute
def _transmute_gain(ctx: Ctx) -> bool:
    """Gain a Duchy if the trashed card is an Action, a Transmute if a Treasure, a Gold if a Victory card: each that applies."""
    t = ctx.vars.get("trashed") or []
    if not t:
        ctx.log("No card was trashed, so Transmute gains nothing", narrate.DO_AS_MUCH)
        return False
    c = t[0]
    gains = [(ty, name) for ty, name in (("Action", "Duchy"), ("Treasure", "Transmute"), ("Victory", "Gold"))
             if c.is_type(ty)]
    if not gains:
        ctx.log(f"The trashed {c.name} is none of Action, Treasure, Victory: nothing is gained", R("Transmute"))
        return False
    if len(gains) > 1:
        ctx.log(f"The trashed {c.name} is {' and '.join(t for t, _ in gains)}: each card is gained, in the "
                "order given", R("Transmute", 1))
    for _, name in gains:
        act.gain(ctx.game, ctx.player, name, cite=R("Transmute", 1))
    return True


register(CardDef("Transmute", Sequence(
    ChooseFromHand("trash", 1, 1, store="trashed", describe="a card from your hand"),
    Do(_transmute_gain))))


# ------------------------------------------------------------------ University
def _university_gain(ctx: Ctx) -> bool:
    """You may gain an Action card costing up to $5 (never one with a Potion in its cost)."""
    g, p = ctx.game, ctx.player
    tops = [pile[-1] for pile in g.supply.values() if pile and pile[-1].is_type("Action") and costs_up_to(pile[-1], 5)]
    if not tops:
        ctx.log(f"{p.name} cannot gain an Action card costing up to $5: none in the Supply", narrate.DO_AS_MUCH)
        return False
    chosen = ctx.ask(Question(p.name, "gain an Action card costing up to $5 (no Potion in its cost)", "cards",
                              tops, 0, 1))
    if not chosen:
        ctx.log(f"{p.name} gains nothing", R("University", 1))
        return False
    return act.gain(g, p, chosen[0].name, cite=R("University", 1)) is not None


register(CardDef("University", Sequence(PlusActions(2), Do(_university_gain))))


# ------------------------------------------------------------------ Vineyard
def _vineyard_vp(game: Game, p) -> int:
    """1 VP per 3 Action cards you have (all your cards, rounded down)."""
    return sum(1 for c in p.all_cards() if c.is_type("Action")) // 3


register(CardDef("Vineyard", vp=_vineyard_vp))
