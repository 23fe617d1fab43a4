"""Card costs as the game sees them now: the printed cost changed by cost modifiers.

Why a module of its own: Bridge (Intrigue), Quarry, Peddler (Prosperity),
Highway, Bridge Troll, Canal... all change costs, and the rules say a changed
cost holds "for all purposes" (COST REDUCTION § VI): buying, gaining,
"remodel" comparisons, digging for a card "costing $3 or more", "same cost".
So the engine never reads a printed cost directly: ``Card.cost`` asks
``cost_of`` here, and every check that compares costs sees the same number.

The rules implemented (Complete Rules, chapter VI Common effects):

* COST REDUCTION: "abilities are cumulative. Each cost reduction effect
  reduces the costs of cards" -- every play of Bridge adds its own modifier,
  so Throne Room + Bridge reduces costs by $2 (Bridge 1).
* "costs don't go below $0" -- the sum of all changes is applied, then the
  result is clamped at 0 (only coin amounts change: "a cost reduction of X
  does not change the number of Potions or Debt").
* CARD COSTS: a card costing "up to X" / "exactly X" / "from X to Y" cannot
  have Potion or Debt in its cost; "X or more" may; the "same cost" means the
  same coins, Potion and Debt (``costs_up_to``, ``costs_exactly``,
  ``costs_at_least``, ``same_cost``).

Two kinds of changes:

* ``CostModifier``: an amount, a filter (which cards: all, Action cards ...)
  and how long it lasts -- for the rest of one turn ("This turn, cards cost
  $1 less": Bridge, 2022 Quarry), only while a given card stays in play
  (pre-2022 Quarry, Highway; tracked with the lose-track ``Ref`` so a card
  that left play and came back does not revive an old modifier), or while an
  arbitrary condition holds. Turn-long modifiers expire by themselves when the
  next turn starts (the ``Turn`` they belong to is no longer current), so the
  Clean-up code needs no hook.
* card-specific cost rules (``cost_rule``): a function that computes one
  card's own cost from the game state, e.g. Peddler "costs $2 less per Action
  card you have in play" during your Buy phase. They apply before the
  modifiers, and the clamp at 0 comes last.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from app.engine.core import narrate
from app.engine.core.state import Card, Game, Ref, Turn

COST_REDUCTION = narrate.COST_REDUCTION
CARD_COSTS = narrate.CARD_COSTS
WHILE_IN_PLAY = narrate.WHILE_IN_PLAY

CardFilter = Callable[[Game, Card], bool]


@dataclass(eq=False)
class CostModifier:
    """One cost change in effect: ``amount`` coins less (negative: more) for the cards ``applies`` accepts."""

    amount: int
    label: str
    applies: CardFilter | None = None          # None: every card (everywhere)
    turn: Turn | None = None                   # lasts only while this turn is the current one
    while_in_play: Ref | None = None           # lasts only while this card stays where it was played
    condition: Callable[[Game], bool] | None = None
    citation: dict = field(default_factory=dict)
    describe: str = ""                         # which cards, in words ("Action cards"): narration's running total

    def expired(self, game: Game) -> bool:
        """True once it can never apply again (its turn is over, or its card left play)."""
        if self.turn is not None and game.turn is not self.turn:
            return True
        return self.while_in_play is not None and not self.while_in_play.valid()

    def active(self, game: Game) -> bool:
        return not self.expired(game) and (self.condition is None or self.condition(game))


_CARD_RULES: dict[str, Callable[[Game, Card, int], int]] = {}


def cost_rule(name: str) -> Callable:
    """Register a card's own cost rule: ``fn(game, card, coins) -> coins`` (before modifiers and the clamp)."""
    def deco(fn: Callable[[Game, Card, int], int]) -> Callable[[Game, Card, int], int]:
        _CARD_RULES[name] = fn
        return fn
    return deco


def printed_cost(card: Card) -> int:
    return card.facts.cost_coins


def cost_of(game: Game, card: Card) -> int:
    """The coin cost of ``card`` now, for every purpose (buying, gaining, comparing)."""
    coins = card.facts.cost_coins
    rule = _CARD_RULES.get(card.name)
    if rule is not None:
        coins = rule(game, card, coins)
    mods = getattr(game, "cost_modifiers", None)
    if mods:
        if any(m.expired(game) for m in mods):
            mods[:] = [m for m in mods if not m.expired(game)]
        for m in mods:
            if (m.condition is None or m.condition(game)) and (m.applies is None or m.applies(game, card)):
                coins -= m.amount
    return max(0, coins)


def reduction_for(game: Game, card: Card) -> int:
    """How much less than printed the card costs now (for narration)."""
    return printed_cost(card) - cost_of(game, card)


def add_modifier(game: Game, mod: CostModifier) -> CostModifier:
    game.cost_modifiers.append(mod)
    return mod


def reduce_this_turn(game: Game, amount: int, label: str, applies: CardFilter | None = None,
                     cite: dict | None = None) -> CostModifier:
    """"This turn, cards cost $amount less": lasts until the current turn ends (Bridge, 2022 Quarry)."""
    return add_modifier(game, CostModifier(amount, label, applies, turn=game.turn, citation=cite or {}))


def reduce_while_in_play(game: Game, card: Card, amount: int, label: str, applies: CardFilter | None = None,
                         cite: dict | None = None) -> CostModifier:
    """"While this is in play, cards cost $amount less" (pre-2022 Quarry, Highway): ends when ``card`` leaves play."""
    return add_modifier(game, CostModifier(amount, label, applies, while_in_play=game.ref(card),
                                           citation=cite or {}))


def reduction_in_all(game: Game, applies: CardFilter | None, describe: str) -> int:
    """What every active change adds up to for the cards ``describe`` names, whichever card made it.

    COST REDUCTION § VI: "abilities are cumulative", so Highway then Bridge is $2 less
    in all. Changes to every card count for every description; a filtered change
    (Action cards only) counts only for the same description.
    """
    return sum(m.amount for m in game.cost_modifiers if m.active(game)
               and (m.applies is None or (applies is not None and m.describe == describe)))


def total_reduction(game: Game) -> int:
    """The sum of the active modifiers that apply to every card (narration: "cards now cost $2 less")."""
    return sum(m.amount for m in game.cost_modifiers if m.applies is None and m.active(game))


# ------------------------------------------------------------------ comparisons (CARD COSTS § VI)
def has_extra_cost(card: Card) -> bool:
    f = card.facts
    return bool(f.cost_potion or f.cost_debt)


def costs_up_to(card: Card, limit: int) -> bool:
    """"Costing up to $X" / "less than": no Potion or Debt in the cost."""
    return not has_extra_cost(card) and card.cost <= limit


def up_to(coins: int) -> Callable:
    """A gain filter, "costing up to $X": never a card with Potion or Debt in its cost (CARD COSTS § VI lists
    Workshop, Feast and Artisan), which comparing coins alone would allow."""
    return lambda ctx, c: costs_up_to(c, coins)


def costs_exactly(card: Card, coins: int) -> bool:
    """"Costing exactly $X": no Potion or Debt in the cost."""
    return not has_extra_cost(card) and card.cost == coins


def costs_at_least(card: Card, coins: int) -> bool:
    """"Costing $X or more": any Potion or Debt amount is allowed."""
    return card.cost >= coins


def same_cost(a: Card, b: Card) -> bool:
    """The same cost: the same coins (after changes), Potion and Debt."""
    fa, fb = a.facts, b.facts
    return a.cost == b.cost and bool(fa.cost_potion) == bool(fb.cost_potion) and fa.cost_debt == fb.cost_debt


def _extra(card: Card) -> tuple[int, int]:
    f = card.facts
    return int(bool(f.cost_potion)), f.cost_debt or 0


def lower_cost(card: Card, base: Card) -> bool:
    """A lower cost: no amount ($, Potion, Debt) higher and at least one lower (CARD COSTS § VI: Berserker, Haggler)."""
    a, b = card.facts, base.facts
    mine = (card.cost, int(bool(a.cost_potion)), a.cost_debt or 0)
    theirs = (base.cost, int(bool(b.cost_potion)), b.cost_debt or 0)
    return all(x <= y for x, y in zip(mine, theirs)) and mine != theirs


def higher_cost(card: Card, base: Card) -> bool:
    """A higher cost: at least one amount ($, Potion, Debt) higher and none lower (CARD COSTS § VI: Chariot Race)."""
    return lower_cost(base, card)


def costs_up_to_more(card: Card, base: Card, more: int) -> bool:
    """"Costing up to $X more [or less] than" a trashed card ("REMODEL" CARD § VI).

    Why not ``costs_up_to``: the result R keeps the trashed card's Potion and
    Debt amounts, and "up to R" means R or a lower cost (CARD COSTS: no amount
    higher), so a trashed $3-Potion card may become a $5-Potion card or a $4 one.
    """
    (p, d), (bp, bd) = _extra(card), _extra(base)
    return card.cost <= base.cost + more and p <= bp and d <= bd


def costs_exactly_more(card: Card, base: Card, more: int) -> bool:
    """"Costing exactly $X more than" a trashed card: coins + X, the same Potion and Debt ("REMODEL" CARD § VI)."""
    return card.cost == base.cost + more and _extra(card) == _extra(base)


# ------------------------------------------------------------------ the effect card definitions use
from app.engine.core.effects import Ctx, Effect  # noqa: E402  (effects does not import this module)


@dataclass
class ReduceCosts(Effect):
    """"This turn [or: while this is in play], <cards> cost $amount less" as a declarative effect."""

    amount: int
    applies: CardFilter | None = None
    describe: str = "cards (everywhere)"
    while_in_play: bool = False
    cite: dict | None = None

    def apply(self, ctx: Ctx) -> bool:
        g = ctx.game
        label = f"{ctx.source.name if ctx.source else 'an effect'}: {self.describe} cost ${self.amount} less"
        if self.while_in_play:
            if ctx.source is None or ctx.source_ref is None or not ctx.source_ref.valid():
                ctx.log(f"{ctx.source.name} is not in play, so it changes no costs", narrate.LOSE_TRACK)
                return False
            if any(m.while_in_play is not None and m.while_in_play.card is ctx.source and m.active(g)
                   for m in g.cost_modifiers):
                # a while-in-play ability is not a play ability: playing the card again (a throne-room)
                # does not double it (WHILE THIS IS IN PLAY § VI; pre-2022 Highway 2, pre-2022 Quarry)
                ctx.log(f"{ctx.source.name} is already in play changing costs: playing it again does not add "
                        "to that", WHILE_IN_PLAY, *([self.cite] if self.cite else []))
                return True
            mod = reduce_while_in_play(g, ctx.source, self.amount, label, self.applies, self.cite)
            when = f"while {ctx.source.name} is in play"
        else:
            mod = reduce_this_turn(g, self.amount, label, self.applies, self.cite)
            when = "this turn"
        mod.describe = self.describe
        total = reduction_in_all(g, self.applies, self.describe)
        ctx.log(f"{when.capitalize()}, {self.describe} cost ${self.amount} less (in all now ${total} less, "
                "never below $0)", *(c for c in (self.cite, COST_REDUCTION) if c))
        return True
