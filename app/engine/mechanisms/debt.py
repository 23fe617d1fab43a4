"""Debt: a cost taken as tokens when buying, paid off later with $1 per token.

Why a module of its own: Empires brings Debt costs (Engineer, City Quarter, Royal
Blacksmith, Overlord, Fortune, the Events Triumph, Annex, Donate, Wedding), cards
that give Debt (Capital, Mountain Pass, Tax), and later sets reuse it; the rules
for holding and paying it off are the same for all of them (Complete Rules, DEBT § IV):

* "When you buy a card or Event with Debt in its cost, you don't pay anything to
  cover the Debt cost. Instead you take that many Debt tokens. (If the cost also
  includes $, you have to pay that.)" -- registered as a payment of the buy step
  (``core.hooks``); an Event's buy calls the same hooks.
* "When you have Debt tokens, you can't buy anything (cards, Events or Projects).
  This is the only effect of having Debt." -- a buy check (``core.hooks``).
* "You may pay off Debt in your Buy phase by paying $1 per Debt token ... at any
  time in the second part of your Buy phase, i.e. after playing Treasures. Paying
  off Debt doesn't use up a Buy." -- the ``pay_debt: N`` step; paying moves the
  turn to the buying part (no more Treasures), as buying does.
* "Gaining a Debt-cost card without buying it doesn't give you Debt": only the buy
  step takes Debt.
* Cost comparisons with Debt ("up to", "exactly", "lower", "same cost", "remodel")
  are the core's (``core.costs``): Debt is another kind of cost, like Potion, and
  cost reductions don't change it.
* Possession 9 (2018 card text: "Any cards or Debt they would gain on that turn,
  you gain instead"): the possessor takes the Debt the Possessed player would take;
  Possession 10: the possessor can make the Possessed player pay off *their* Debt,
  not the possessor's own (the current player's tokens are the ones paid off).

Debt tokens are counted in ``Player.tokens['Debt']`` (the counters convention of
``mats.py``), so ``tokens: {Debt: 2}`` and ``debt: 2`` say the same thing.
"""
from __future__ import annotations

from dataclasses import dataclass

from app.engine.core import activities as act
from app.engine.core import hooks, narrate
from app.engine.core.effects import Ctx, Effect
from app.engine.core.errors import IllegalAction
from app.engine.core.state import Card, Game, Player
from app.engine.mechanisms.coffers import MAX_TOKENS, TOKEN_COUNT     # one bound on a scenario's token counts
from app.engine.scenario.extensions import expect_key, setup_key, step_kind

DEBT = narrate.sec("Debt")
TOKEN = "Debt"


def debt(p: Player) -> int:
    return p.tokens.get(TOKEN, 0)


def _possessor(game: Game, p: Player) -> Player | None:
    pt = getattr(game, "possessed_turn", None)      # possession.current(game), read without importing it
    return game.players[pt.possessor] if pt is not None and pt.possessed == p.index else None


def take_debt(game: Game, p: Player, n: int, cite: dict | None = None, why: str = "") -> Player:
    """``p`` takes ``n`` Debt tokens (the possessor takes them on ``p``'s Possessed turn); returns who took them."""
    if n <= 0:
        return p
    boss = _possessor(game, p)
    if boss is not None:
        game.log.add(f"{p.name} would take {n} Debt: {boss.name} takes it instead",
                     {"card": "Possession", "ruling": 9})
        p = boss
    p.tokens[TOKEN] = debt(p) + n
    cites = [cite] if cite and cite != DEBT else []
    game.log.add(f"{p.name} takes {n} Debt{why} (now {debt(p)} Debt)", *cites, DEBT)
    return p


def pay_off(game: Game, p: Player, n: int, cite: dict | None = None, anytime: bool = False) -> None:
    """Pay $n from the money pool to return n of ``p``'s Debt tokens.

    ``anytime``: an ability lets it happen outside the Buy phase (Capital 3); otherwise it is
    the current player's Buy phase, and paying ends the Treasure-playing part of it.
    """
    t = game.turn
    if p.index != t.player:
        raise IllegalAction(f"{p.name} can pay off Debt only in their own turn")
    if not anytime:
        if t.phase not in ("action", "buy", "buy2"):
            raise IllegalAction(f"Debt is paid off in the Buy phase, and this is the {narrate.phase_words(t.phase)}")
        act.to_second_part_of_buy_phase(game)   # "in the second part of your Buy phase, i.e. after playing Treasures"
    if n > debt(p):
        raise IllegalAction(f"{p.name} has {debt(p)} Debt, not {n}")
    if n > t.coins:
        raise IllegalAction(f"paying off {n} Debt takes ${n} and the money pool has ${t.coins}")
    t.coins -= n
    p.tokens[TOKEN] = debt(p) - n
    game.log.add(f"{p.name} pays ${n} to pay off {n} Debt (money pool now ${t.coins}, {debt(p)} Debt left; "
                 "no Buy used)", *(c for c in (cite, DEBT) if c))


# ------------------------------------------------------------------ what buying takes and forbids
@hooks.buy_check("debt", events=True)
def _no_buying_with_debt(game: Game, pile: str, card: Card) -> str | None:
    n = debt(game.current)
    if n:
        return f"{game.current.name} has {n} Debt and can't buy anything until it is paid off"
    return None


@hooks.buy_payment("debt")
def _take_debt_cost(game: Game, card: Card) -> None:
    n = card.facts.cost_debt or 0
    if n:
        take_debt(game, game.current, n, DEBT, f" for {card.name} (Debt in its cost)")


@dataclass
class PlusDebt(Effect):
    """"+n Debt": take n Debt tokens (Capital; DEBT § IV "take")."""

    n: int
    cite: dict | None = None

    def apply(self, ctx: Ctx) -> bool:
        take_debt(ctx.game, ctx.player, self.n, self.cite)
        return True


# ------------------------------------------------------------------ the scenario format


@setup_key("debt", scope="player", schema=TOKEN_COUNT,
           doc="Debt tokens the player holds at the start (they can't buy anything until it is paid off)",
           example="debt: 3")
def _setup_debt(game: Game, p: Player, value: int) -> None:
    p.tokens[TOKEN] = value


@expect_key("debt", scope="player", schema=TOKEN_COUNT, doc="how many Debt tokens the player holds",
            example="Alice: {debt: 0}")
def _expect_debt(game: Game, p: Player) -> int:
    return debt(p)


@step_kind("pay_debt", schema={**TOKEN_COUNT, "minimum": 1},
           doc="the current player pays $N to pay off N Debt (Buy phase, after playing Treasures; uses no Buy)",
           example="pay_debt: 2")
def _pay_step(game: Game, p: Player, value: int) -> None:
    pay_off(game, p, value)
