"""Coffers: tokens a player takes now and spends later for +$1 each.

Why a module of its own: Guilds (Baker, Butcher, Candlestick Maker, Plaza,
Merchant Guild) and later sets (Renaissance, Patron...) take Coffers, and the
rules for spending them changed in 2022.

The rules implemented (Complete Rules § IV COFFERS AND VILLAGERS):

* "+x Coffers" means you put x tokens on your Coffers mat; "you keep them for
  as long as you want". They are counted in ``Player.tokens['Coffers']`` (the
  counters-on-a-mat convention of ``mats.py``), so ``tokens: {Coffers: 2}`` and
  ``coffers: 2`` say the same thing in a scenario.
* "Coffers tokens can be spent at any time during your turn. Each spent token
  gives you +$1 and is immediately removed from your Coffers" (2022 rule; before
  it, only in the first part of the Buy phase). The ``spend_coffers: N`` step
  spends N of the current player's tokens, in any phase of their turn.
* Baker's setup (§ I Special setup, Guilds): "each player starts with one token
  on their Coffers mat".
"""
from __future__ import annotations

from dataclasses import dataclass

from app.engine.core import narrate
from app.engine.core.effects import Ctx, Effect
from app.engine.core.errors import IllegalAction, ScenarioError
from app.engine.core.state import Game, Player
from app.engine.mechanisms import spending
from app.engine.scenario.extensions import expect_key, setup_key, step_kind

COFFERS = narrate.sec("Coffers and Villagers")
SETUP = narrate.SPECIAL_SETUP
MAT = "Coffers"
MAX_TOKENS = 1000     # a bound on what a scenario may put on a mat


def coffers(p: Player) -> int:
    return p.tokens.get(MAT, 0)


def add_coffers(game: Game, p: Player, n: int, cite: dict | None = None, why: str = "") -> None:
    """+n Coffers: take n tokens and put them on your Coffers mat."""
    if n <= 0:
        return
    p.tokens[MAT] = coffers(p) + n
    game.log.add(f"{p.name} takes {n} Coffers{why} (Coffers now {coffers(p)})", *(c for c in (cite, COFFERS) if c))


def remove_coffers(game: Game, p: Player, n: int, why: str, cite: dict | None = None) -> int:
    """Spend n tokens for something other than +$ (Butcher: "per Coffers you spend"); returns how many."""
    n = max(0, min(n, coffers(p)))
    if n:
        p.tokens[MAT] = coffers(p) - n
        game.log.add(f"{p.name} spends {n} Coffers {why} (Coffers now {coffers(p)})",
                     *(c for c in (cite, COFFERS) if c))
    return n


def _possessor(game: Game, p: Player) -> Player | None:
    """Who controls ``p``'s turn when it is a Possessed turn: they make ``p`` spend ``p``'s Coffers, never their
    own (Possession 10)."""
    pt = getattr(game, "possessed_turn", None)      # possession.current(game), read without importing it
    return game.players[pt.possessor] if pt is not None and pt.possessed == p.index else None


def may_spend_now(game: Game, p: Player) -> bool:
    """Any time during your own turn (2022 rule), before Clean-up."""
    return p.index == game.turn.player and game.turn.phase not in ("cleanup", "over")


def spend(game: Game, p: Player, n: int, why: str = "") -> None:
    """Spend n Coffers for +$1 each (any time during your own turn, 2022 rule); ``why``: the moment, if inside
    an ability ("to overpay $1 for Doctor")."""
    if p.index != game.turn.player:
        raise IllegalAction(f"{p.name} can spend Coffers only during their own turn")
    if not may_spend_now(game, p):
        raise IllegalAction("Coffers can be spent during your turn, not in Clean-up")
    boss = _possessor(game, p)
    if n > coffers(p):
        but = f" ({boss.name}'s own Coffers can't be spent on {p.name}'s Possessed turn)" if boss else ""
        raise IllegalAction(f"{p.name} has {coffers(p)} Coffers, not {n}{but}")
    p.tokens[MAT] = coffers(p) - n
    game.turn.coins += n
    game.log.add(f"{p.name} spends {n} Coffers for +${n}{' ' + why if why else ''} ({narrate.pool(game.turn)}; "
                 f"Coffers now {coffers(p)})"
                 + (f": {boss.name}, who controls the Possessed turn, makes {p.name} spend their own" if boss else ""),
                 COFFERS, *([{"card": "Possession", "ruling": 10}] if boss else []))


# the "spend when you may" moment inside an ability (spending.py): Coffers give $
spending.register(spending.Spendable(MAT, spending.COINS, lambda game, p: coffers(p), may_spend_now, spend,
                                     lambda game: game.turn.coins))


@dataclass
class PlusCoffers(Effect):
    """+n Coffers (the card language's "+x Coffers", § IV)."""

    n: int
    cite: dict | None = None

    def apply(self, ctx: Ctx) -> bool:
        add_coffers(ctx.game, ctx.player, self.n, self.cite)
        return True


def baker_setup(game: Game) -> None:
    """Baker in the game: each player starts with 1 Coffers (§ I Special setup, Guilds).

    A scenario's own count wins: a player whose ``tokens`` already name Coffers keeps them, and the
    ``coffers`` key is applied after this and sets the count.
    """
    for p in game.players:
        if MAT not in p.tokens:
            p.tokens[MAT] = 1
    if game.players:
        game.log.add("Baker is in the game: each player starts with 1 Coffers", SETUP, {"card": "Baker"})


# ------------------------------------------------------------------ the scenario format
_COUNT = {"type": "integer", "minimum": 0, "maximum": MAX_TOKENS}


def _count(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_TOKENS:
        raise IllegalAction(f"{where}: expected a number of Coffers from 0 to {MAX_TOKENS}, found {value!r}")
    return value


def _setup_count(value: object, where: str) -> int:
    try:
        return _count(value, where)
    except IllegalAction as exc:
        raise ScenarioError("scenario setup", str(exc)) from None


@setup_key("coffers", scope="player", schema=_COUNT,
           doc="Coffers tokens on the player's Coffers mat at the start (sets the count, after Baker's setup)",
           example="coffers: 2")
def _setup_coffers(game: Game, p: Player, value: object) -> None:
    p.tokens[MAT] = _setup_count(value, f"{p.name}'s coffers")


@expect_key("coffers", scope="player", schema=_COUNT, doc="how many Coffers tokens the player has",
            example="Alice: {coffers: 1}")
def _expect_coffers(game: Game, p: Player) -> int:
    return coffers(p)


@step_kind("spend_coffers", schema={**_COUNT, "minimum": 1},
           doc="the current player spends N Coffers for +$1 each (any time during their turn, 2022 rule)",
           example="spend_coffers: 2")
def _spend_step(game: Game, p: Player, value: object) -> None:
    n = _count(value, "spend_coffers")
    if n < 1:
        raise IllegalAction("spend_coffers: spend at least 1 Coffers")
    spend(game, p, n)
