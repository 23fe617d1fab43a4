"""Villagers: tokens a player takes now and spends later, in an Action phase, for +1 Action each.

Why a module of its own: Renaissance gives Villagers with six Kingdom cards and two Projects, and later
sets reuse them; the rule for *when* they may be spent differs from Coffers' (Complete Rules, COFFERS AND
VILLAGERS § IV):

* "+x Villagers" means you take x tokens and put them on the Villagers section of your Coffers/Villagers
  mat; "you keep them for as long as you want". Counted in ``Player.tokens['Villagers']``, the counters-on-
  a-mat convention Coffers use.
* "Villager tokens can be spent at any time in your Action phase. Each spent Villager gives you +1 Action
  and is immediately removed from your Villagers mat." The ``spend_villagers: N`` step spends N in the
  current player's Action phase (the start of the turn is part of it: Patron 5).
* "You can even spend Coffers or Villagers in the middle of resolving an ability" (Diadem 3): Villagers
  register with the "spend when you may" moment (``spending.py``) as tokens that give Actions.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from app.engine.core import narrate
from app.engine.core.effects import Ctx, Effect
from app.engine.core.errors import IllegalAction
from app.engine.core.state import Game, Player
from app.engine.mechanisms import spending
from app.engine.mechanisms.coffers import TOKEN_COUNT, setup_token_count, token_count
from app.engine.scenario.extensions import expect_key, setup_key, step_kind

VILLAGERS = narrate.sec("Coffers and Villagers")
MAT = "Villagers"


def villagers(p: Player) -> int:
    return p.tokens.get(MAT, 0)


def add_villagers(game: Game, p: Player, n: int, cite: dict | None = None, why: str = "") -> None:
    """+n Villagers: take n tokens and put them on your Villagers mat."""
    if n <= 0:
        return
    p.tokens[MAT] = villagers(p) + n
    game.log.add(f"{p.name} takes {n} Villager{'s' if n != 1 else ''}{why} (Villagers now {villagers(p)})",
                 *(c for c in (cite, VILLAGERS) if c))


def may_spend_now(game: Game, p: Player) -> bool:
    """"At any time in your Action phase": the current player, in their Action phase (or the turn's start)."""
    return p.index == game.turn.player and game.turn.phase in ("start", "action")


def spend(game: Game, p: Player, n: int, why: str = "") -> None:
    """Spend n Villagers for +1 Action each."""
    if not may_spend_now(game, p):
        raise IllegalAction(f"Villagers can be spent only in your own Action phase, and this is "
                            f"{'the ' + game.turn.phase + ' phase' if p.index == game.turn.player else 'not ' + p.name + chr(39) + 's turn'}")
    if n > villagers(p):
        raise IllegalAction(f"{p.name} has {villagers(p)} Villagers, not {n}")
    p.tokens[MAT] = villagers(p) - n
    game.turn.actions += n
    game.log.add(f"{p.name} spends {n} Villager{'s' if n != 1 else ''} for +{n} Action{'s' if n != 1 else ''}"
                 f"{' ' + why if why else ''} (Actions: {game.turn.actions}; Villagers now {villagers(p)})", VILLAGERS)


spending.register(spending.Spendable(MAT, spending.ACTIONS, lambda game, p: villagers(p), may_spend_now, spend,
                                     lambda game: game.turn.actions))


@dataclass
class PlusVillagers(Effect):
    """+n Villagers (a number, or a function of the resolution: Recruiter's "+1 Villager per $1 it costs")."""

    n: int | Callable[[Ctx], int]
    cite: dict | None = None

    def apply(self, ctx: Ctx) -> bool:
        add_villagers(ctx.game, ctx.player, ctx.num(self.n), self.cite)
        return True


# ------------------------------------------------------------------ the scenario format
@setup_key("villagers", scope="player", schema=TOKEN_COUNT,
           doc="Villager tokens on the player's Villagers mat at the start", example="villagers: 2")
def _setup_villagers(game: Game, p: Player, value: object) -> None:
    p.tokens[MAT] = setup_token_count(value, f"{p.name}'s villagers", MAT)


@expect_key("villagers", scope="player", schema=TOKEN_COUNT, doc="how many Villager tokens the player has",
            example="Alice: {villagers: 1}")
def _expect_villagers(game: Game, p: Player) -> int:
    return villagers(p)


@step_kind("spend_villagers", schema={**TOKEN_COUNT, "minimum": 1},
           doc="Spend N Villagers for +1 Action each (only in your Action phase)",
           example="spend_villagers: 1")
def _spend_step(game: Game, p: Player, value: object) -> None:
    n = token_count(value, "spend_villagers", MAT)
    if n < 1:
        raise IllegalAction("spend_villagers: spend at least 1 Villager")
    spend(game, p, n)
