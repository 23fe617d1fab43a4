"""Victory point tokens and the Trade Route tokens.

Why a module of its own: VP tokens (Bishop, Monument, Goons, Collection,
Investment) are taken by many cards and count at game end (``Player.vp_tokens``
is added by ``activities.score``); the Trade Route tokens are a setup rule of
the Supply, not an ability of any player's card, so no card in play carries it.

Trade Route (SPECIAL SETUP § I, Prosperity; Trade Route 3-4): when Trade Route
is in the game, a Coin token goes on each Victory Supply pile; when a card is
gained from such a pile for the first time, its token moves to the Trade Route
mat and stays there. Trashing a card from the pile (Lurker) does not move it.
The tokens are counted with ``mats.py`` (``Game.pile_tokens``, and the
ownerless counter ``mats.supply_counter`` for the mat).

Choice made: the token moves at the moment the card leaves the pile (the
engine's when-would-gain point), not as a when-gain ability the gaining player
would have to order against their other when-gain abilities (Watchtower): it
is a rule of the Supply, and its timing cannot change any outcome since it
only matters when a Trade Route is played later.
"""
from __future__ import annotations

from collections import Counter

from app.engine.mechanisms.mats import supply_counter
from app.engine.core.state import Game, LaterAbility, Player

TRADE_ROUTE_TOKEN = "Coin"
MAT = "Trade Route mat"
SETUP = {"section": "Special setup"}


def add_vp(game: Game, p: Player, n: int, cite: dict | None = None, why: str = "") -> None:
    """Take ``n`` VP tokens (they count at game end, § II Game end).

    On a Possessed turn the Possessed player keeps them: the possessor gets only the Debt they would get
    (Possession 9 and 16, the 2018 card text; debt.py).
    """
    if n <= 0:
        game.log.add(f"{p.name} takes no VP tokens{why}", *([cite] if cite else []))
        return
    p.vp_tokens += n
    game.log.add(f"{p.name} takes {n} VP token{'s' if n != 1 else ''}{why} (now {p.vp_tokens})",
                 *([cite] if cite else []))


# ------------------------------------------------------------------ Trade Route
def trade_route_mat(game: Game) -> int:
    """Coin tokens on the Trade Route mat (what Trade Route gives +$ for)."""
    return supply_counter(game)[MAT]


def set_up_trade_route(game: Game) -> None:
    """Put a Coin token on each Victory Supply pile; a rule for the rest of the game moves it when gained from."""
    piles = [n for n, pile in game.supply.items() if _is_victory_pile(n)]
    for n in piles:
        game.pile_tokens.setdefault(n, Counter())[TRADE_ROUTE_TOKEN] = 1
    game.log.add(f"Trade Route is in the game: a Coin token goes on each Victory Supply pile ({', '.join(piles)})",
                 SETUP, {"card": "Trade Route", "ruling": 3})
    if not game.players:
        return
    game.later.append(LaterAbility(0, "when_would_gain", "Trade Route token", _move_token, None, _from_token_pile,
                                   "game", [{"card": "Trade Route", "ruling": 3}], anyone=True))


def _is_victory_pile(name: str) -> bool:
    from app.engine.core.state import card_facts
    return "Victory" in card_facts(name).types


def _from_token_pile(game: Game, ev) -> bool:
    c = ev.card
    return (c is not None and c.zone == "supply"
            and game.pile_tokens.get(c.name, {}).get(TRADE_ROUTE_TOKEN, 0) > 0)


def _move_token(game: Game, ev) -> None:
    game.pile_tokens[ev.card.name][TRADE_ROUTE_TOKEN] -= 1
    supply_counter(game)[MAT] += 1
    game.log.add(f"A card is gained from the {ev.card.name} pile for the first time: its Coin token moves to the "
                 f"Trade Route mat (now {trade_route_mat(game)})", {"card": "Trade Route", "ruling": 3})


# ------------------------------------------------------------------ VP tokens on Supply piles (Gathering cards, Aqueduct)
PILE_VP = "VP"


def pile_vp(game: Game, pile: str) -> int:
    return game.pile_tokens.get(pile, Counter())[PILE_VP]


def add_pile_vp(game: Game, pile: str, n: int, cite: dict | None = None, why: str = "") -> None:
    """Put ``n`` VP tokens on a Supply pile (it need not have cards left: Temple 3, Farmers' Market 2)."""
    game.pile_tokens.setdefault(pile, Counter())[PILE_VP] += n
    game.log.add(f"{n} VP token{'s' if n != 1 else ''} go{'es' if n == 1 else ''} on the {pile} pile{why} "
                 f"(now {pile_vp(game, pile)})", *([cite] if cite else []))


def take_pile_vp(game: Game, p: Player, pile: str, cite: dict | None = None, n: int | None = None) -> int:
    """``p`` takes the VP tokens from a Supply pile (all, or at most ``n``); returns how many."""
    k = pile_vp(game, pile) if n is None else min(n, pile_vp(game, pile))
    if k:
        game.pile_tokens[pile][PILE_VP] -= k
    add_vp(game, p, k, cite, f" from the {pile} pile")
    return k


def mat_narration(game: Game) -> str:
    return f"{trade_route_mat(game)} Coin token{'s' if trade_route_mat(game) != 1 else ''} on the Trade Route mat"




def _trade_route_tokens_in_setup(game: Game, pile: str, before: int, after: int) -> None:
    """A Coin token a scenario takes off a Victory pile was moved to the Trade Route mat by a gain (Trade Route 3)."""
    if after < before:
        supply_counter(game)[MAT] += before - after


def _register() -> None:
    from app.engine.mechanisms.mats import pile_token_setup
    pile_token_setup(TRADE_ROUTE_TOKEN)(_trade_route_tokens_in_setup)


_register()
