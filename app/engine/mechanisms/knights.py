"""The Knights pile and the Knights' shared attack (also Rogue's).

Complete Rules § I Special setup: "If Knights are in the Supply: Shuffle the
Knight cards into a pile", only the top card visible (Knights 1 in the card
facts: "the top card ... is the only one that can be bought or gained"). The
ten Knights differ in cost (Sir Martin costs $4), so the pile's cost is its top
card's.

The attack (Knight 2-3, Rogue 1-3): each other player, in turn order, reveals
the top 2 cards of their deck, trashes one of them costing from $3 to $6 (they
choose, if both qualify), and discards the rest; "costing from $3 to $6" never
includes a Potion or Debt cost (CARD COSTS § VI). A Knight that trashes another
Knight is trashed too -- only if it is still in play (Knight 4: a Knight played
without being moved into play does everything but trash itself).
"""
from __future__ import annotations

from app.engine.core import activities as act
from app.engine.core import narrate
from app.engine.core.costs import costs_up_to
from app.engine.core.decisions import Question
from app.engine.core.effects import Ctx
from app.engine.core.state import Card, Game
from app.engine.mechanisms import mixed_piles, piles
from app.engine.scenario.extensions import setup_key

PILE = "Knights"
KNIGHTS = ("Dame Anna", "Dame Josephine", "Dame Molly", "Dame Natalie", "Dame Sylvia",
           "Sir Bailey", "Sir Destry", "Sir Martin", "Sir Michael", "Sir Vander")
piles.belongs_to(KNIGHTS, PILE)
EACH_OTHER = narrate.EACH_OTHER
CARD_COSTS = narrate.CARD_COSTS


def setup(game: Game) -> None:
    """Shuffle the ten Knights into one pile (as many as the scenario's pile size asks, at most 10)."""
    count = len(game.supply.get(PILE, []))
    mixed_piles.shuffled(game, PILE, list(KNIGHTS), min(count, len(KNIGHTS)))


def three_to_six(card: Card) -> bool:
    """"Costing from $3 to $6": no Potion or Debt in the cost (CARD COSTS § VI)."""
    return costs_up_to(card, 6) and card.cost >= 3


def reveal_two_trash_one(ctx: Ctx, cite: dict) -> list[Card]:
    """Each other player reveals their top 2 cards, trashes one costing $3-$6 (their choice), discards the rest.

    Returns the cards trashed, so a Knight can tell whether one of them was a Knight. Each player is done
    in full before the next (EACH OTHER PLAYER § VI); within one player, first trash, then discard
    (TRIGGERED ABILITY: each opponent first trashes, then discards).
    """
    g = ctx.game
    trashed: list[Card] = []
    for q in g.others(ctx.player):
        if q.index in ctx.unaffected:
            ctx.log(f"{q.name} is unaffected by {ctx.source.name}", narrate.REACTION_TO_ATTACK)
            continue
        shown = act.reveal_top(g, q, 2)
        options = [c for c in shown if three_to_six(c)]
        if options:
            pick = g.decider.ask(Question(q.name, f"trash a card costing from $3 to $6 ({ctx.player.name}'s "
                                          f"{ctx.source.name})", "cards", options, 1, 1))
            act.trash(g, q, pick, cite)
            trashed += pick
        elif shown:
            ctx.log(f"Neither card costs from $3 to $6, so {q.name} trashes nothing", CARD_COSTS)
        rest = [c for c in shown if c.zone == "revealed"]
        if rest:
            act.discard(g, q, rest)
    return trashed


@setup_key("knights", scope="game", schema=mixed_piles.order_schema(KNIGHTS),
           doc="The Knights pile, top card first (instead of a shuffled one): only its top card can be bought "
               "or gained",
           example="knights: [Sir Martin, Dame Anna]")
def _knights_order(game: Game, names: list) -> None:
    mixed_piles.ordered(game, PILE, names, set(KNIGHTS), "knights")
