"""Spending tokens when a player may: Coffers now; Villagers (Renaissance) and Favors (Allies) register the same way.

Why a module of its own: "Coffers tokens can be spent at any time during your turn" and "Villager tokens
can be spent at any time in your Action phase"; "You can even spend Coffers or Villagers in the middle of
resolving an ability. See Black Market 5, Capital City 5, Diadem 3, Fortune 4 and Storyteller 5"
(Coffers and Villagers, § IV). Between two steps a scenario spends with a step of its own (``spend_coffers``);
inside a step, the moment comes when an ability is about to take from or count a pool: the pre-2022
overpay ability takes $ from the money pool when it resolves (Doctor (pre-2022) 7: resolve a when-buy
ability that gives +Coffers first, "and spend the Coffers", before overpaying), Diadem counts your unused
Actions (Diadem 3: Villagers). Such an ability calls ``may_spend`` at that moment; whichever tokens are
registered and give what the ability needs are offered, so a new kind of token needs no change to the
cards that open the moment.

How it is asked, so that existing scenarios keep their questions:

* ``needed`` given (the ability takes that much, and the pool has less): the player is asked how many
  tokens to spend, from the shortfall up to what they have (fewer would not pay, and the step would fail).
  With only one possible amount the answer is automatic, like any forced choice. With enough in the pool
  nothing is asked.
* ``needed`` not given (the ability counts what is there, Diadem): the player is asked how many to spend,
  from 0 up, whenever they have any.

The question is "choose one" with the amounts as labels (``"1"``, ``"2"``, ...), its prompt naming the token.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from app.engine.core.decisions import Question
from app.engine.core.state import Game, Player

COINS = "$"           # what Coffers give: +$1 each
ACTIONS = "Actions"   # what Villagers give: +1 Action each


@dataclass(frozen=True)
class Spendable:
    """A kind of token a player may spend at such a moment, registered by its mechanism."""

    name: str                                          # "Coffers"
    gives: str                                         # COINS, ACTIONS, or what an Ally spends Favors on
    count: Callable[[Game, Player], int]               # how many the player has
    allowed: Callable[[Game, Player], bool]            # whether they may spend them now (their turn, the phase)
    spend: Callable[[Game, Player, int, str], None]    # spend n, narrating why: spend(game, player, n, why)
    pool: Callable[[Game], int]                        # what the pool it adds to holds now (money pool, Actions)


SPENDABLES: dict[str, Spendable] = {}


def register(token: Spendable) -> None:
    """A mechanism's token (Coffers, Villagers, Favors); registering it again replaces it."""
    SPENDABLES[token.name] = token


def may_spend(game: Game, p: Player, gives: str, why: str, needed: int | None = None) -> int:
    """The moment ``p`` may spend tokens that give ``gives`` before an ability takes ``needed`` (or counts).

    ``why`` completes the prompt ("to overpay $1 for Doctor"). Returns how many tokens were spent.
    """
    spent = 0
    for token in list(SPENDABLES.values()):
        if token.gives != gives or not token.allowed(game, p):
            continue
        have = token.count(game, p)
        if needed is None:
            low = 0
        else:
            low = needed - token.pool(game)
            if low <= 0:
                return spent      # the pool already holds enough: nothing to decide
        if have < max(low, 1):
            continue
        options = [str(k) for k in range(low, have + 1)]
        answer = game.decider.ask(Question(p.name, f"spend how many {token.name} {why}? (you have {have})",
                                           "choice", options))
        n = int(answer)
        if n:
            token.spend(game, p, n, why)
            spent += n
    return spent
