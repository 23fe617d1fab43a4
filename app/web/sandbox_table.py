"""What lies on the table besides hands, decks and the Supply counts, in a player's words.

The zones snapshot (``scenario.snapshot``) is what scenario files check: hands,
decks, discard piles, the Supply's counts. A player at a table with Adventures,
Cornucopia, Guilds or Dark Ages also sees the Events beside the Kingdom, the
piles outside the Supply (Prizes, Spoils, Madman, Mercenary, Traveller upgrades),
the Bane pile, the visible top card of the Knights and Ruins piles, tokens on
piles, and each player's Tavern mat (and other mats), Coffers and tokens
(Complete Rules § I Special setup; § IV Reserve cards, Coffers, Adventures tokens).
This module reads them off the replayed game for the sandbox page and the replay
API; every label is a phrase a player uses, never an engine name.
"""
from __future__ import annotations

from typing import Any

from app.engine.core.state import Card, Game


def _names(cards: list[Card]) -> list[str]:
    return [c.name for c in cards]


def _events(g: Game) -> list[dict[str, Any]]:
    from app.engine.mechanisms import events

    bought = events.events_bought(g)
    return [{"name": n, "cost": events.event_cost(n), "bought": bought.count(n)} for n in events.events_in_game(g)]


def _outside(g: Game) -> list[dict[str, Any]]:
    """Piles outside the Supply: never bought; the Prizes are all visible (Tournament 4), the others are one card."""
    out = []
    for name, pile in g.non_supply.items():
        kinds = sorted(set(_names(pile)))
        out.append({"name": name, "count": len(pile), "cards": _names(pile) if len(kinds) > 1 or name == "Prizes"
                    else []})
    return out


def _mixed(g: Game) -> list[dict[str, Any]]:
    """Supply piles of differently named cards (Knights, Ruins): only the top card is visible (§ I)."""
    return [{"name": name, "count": len(pile), "top": pile[-1].name}
            for name, pile in g.supply.items() if pile and len({c.name for c in pile}) > 1]


def _pile_tokens(g: Game) -> list[str]:
    """Tokens on Supply piles: Embargo, Trade Route and the players' Adventures tokens."""
    out = [f"{kind} x{n} on {pile}" if n > 1 else f"{kind} on {pile}"
           for pile, kinds in g.pile_tokens.items() if pile for kind, n in kinds.items() if n]
    trade_route = g.pile_tokens.get("", {})
    out += [f"{kind} mat: {n}" for kind, n in trade_route.items() if n]
    for p in g.players:
        for kind, pile in _tokens(g, p).piles.items():
            out.append(f"{p.name}'s {kind} token on {pile}")
    return out


def _tokens(g: Game, p: Any) -> Any:
    """The player's Adventures tokens, read without creating them (``player_tokens.tokens`` would)."""
    from app.engine.mechanisms import player_tokens as pt

    return pt._all(g).get(p.index) or pt.Tokens()


def _player(g: Game, p: Any) -> list[dict[str, str]]:
    """One player's mats, Coffers and tokens, as label/value rows (only what they have)."""
    rows = [{"label": f"{mat} mat", "value": ", ".join(_names(cards)) or "empty"}
            for mat, cards in sorted(p.mats.items(), key=lambda kv: (kv[0] != "Tavern", kv[0])) if cards]
    for mat, n in sorted(p.tokens.items()):
        if n:
            rows.append({"label": "Coffers" if mat == "Coffers" else f"{mat} tokens", "value": str(n)})
    if p.vp_tokens:
        rows.append({"label": "Victory tokens", "value": str(p.vp_tokens)})
    t = _tokens(g, p)
    if not t.journey_up:
        rows.append({"label": "Journey token", "value": "face down"})
    if t.minus_coin:
        rows.append({"label": "-$1 token", "value": "in front of them (their next +$ gives $1 less)"})
    if t.minus_card:
        rows.append({"label": "-1 Card token", "value": "on their deck (their next draw is one card less)"})
    if t.estate is not None:
        rows.append({"label": "Estate token", "value": f"on {t.estate.name}"})
    return rows


def table(g: Game) -> dict[str, Any]:
    """Everything on the table outside the zones snapshot; empty lists when a game has none of it."""
    from app.engine.mechanisms import bane

    players = {p.name: _player(g, p) for p in g.players}
    return {"events": _events(g), "outside_supply": _outside(g), "mixed_piles": _mixed(g),
            "bane": bane.bane(g), "pile_tokens": _pile_tokens(g),
            "players": {name: rows for name, rows in players.items() if rows}}
