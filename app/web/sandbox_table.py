"""What lies on the table besides hands, decks and the Supply counts, in a player's words.

The zones snapshot (``scenario.snapshot``) is what scenario files check: hands,
decks, discard piles, the Supply's counts. A player at a table with Adventures,
Cornucopia, Guilds or Dark Ages also sees the Events beside the Kingdom, the
piles outside the Supply (Prizes, Spoils, Madman, Mercenary, Traveller upgrades),
the Bane pile, the visible top card of the Knights and Ruins piles, tokens on
piles, and each player's Tavern mat (and other mats), Coffers and tokens
(Complete Rules § I Special setup; § IV Reserve cards, Coffers, Adventures tokens);
with Empires, Nocturne and Renaissance also the Landmarks and their VP tokens, the
Projects and their cubes, the Artifacts, the Boons and Hexes decks, and each
player's Debt, Villagers, States and Boons kept until Clean-up.
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


# tokens a player holds that are counted by their own name ("Debt: 3", "Villagers: 2"), not as "X tokens"
_COUNTED = ("Coffers", "Villagers", "Debt")


def _landscapes(g: Game) -> list[dict[str, str]]:
    """Landmarks (with their VP tokens), Projects (with who has a cube on each) and Artifacts (with who has each)."""
    from app.engine.core.state import card_facts
    from app.engine.mechanisms import artifacts, landmarks, projects

    def who(indexes: Any) -> str:
        return ", ".join(g.players[i].name for i in indexes)

    out = []
    for n, vp in landmarks.in_game(g).items():
        lm = landmarks.landmark(g, n)
        parts = [f"{vp} VP token{'s' if vp != 1 else ''} on it" if vp else "",
                 (lm.shows(g) or "") if lm is not None and lm.shows is not None else ""]
        out.append({"kind": "Landmark", "name": n, "value": "; ".join(x for x in parts if x)})
    cubes = projects.cubes(g)
    out += [{"kind": "Project", "name": n, "value": f"costs ${card_facts(n).cost_coins}"
             + (f"; cubes: {who(cubes[n])}" if cubes.get(n) else "")} for n in projects.in_game(g)]
    held = artifacts.holder_of(g)
    out += [{"kind": "Artifact", "name": n, "value": f"{g.players[held[n]].name} has it"
             if held.get(n) is not None else "beside the Supply, nobody has it yet"} for n in artifacts.in_game(g)]
    return out


def _shared_decks(g: Game) -> list[dict[str, Any]]:
    """The Boons and Hexes decks: face down (only their size is seen) and their discard piles (§ IV)."""
    from app.engine.mechanisms import boons, hexes
    from app.engine.mechanisms.shared_decks import has_deck

    out = []
    for label, key, read in (("Boons", boons.KEY, boons.boons_deck), ("Hexes", hexes.KEY, hexes.hexes_deck)):
        if has_deck(g, key):
            d = read(g)
            out.append({"name": label, "count": len(d.cards), "discard": list(d.discard)})
    return out


def _player(g: Game, p: Any) -> list[dict[str, str]]:
    """One player's mats, Coffers and tokens, States, Artifacts, Projects and Boons kept, as label/value rows."""
    from app.engine.mechanisms import artifacts, boons, projects, states

    rows = [{"label": f"{mat} mat", "value": ", ".join(_names(cards)) or "empty"}
            for mat, cards in sorted(p.mats.items(), key=lambda kv: (kv[0] != "Tavern", kv[0])) if cards]
    for mat, n in sorted(p.tokens.items()):
        if n:
            rows.append({"label": mat if mat in _COUNTED else f"{mat} tokens", "value": str(n)})
    for label, names in (("States", states.held(g, p)), ("Artifacts", artifacts.artifacts_of(g, p)),
                         ("Projects", projects.projects_of(g, p)),
                         ("Boons kept until Clean-up", boons.kept_by(g, p))):
        if names:
            rows.append({"label": label, "value": ", ".join(names)})
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
            "bane": bane.bane(g), "pile_tokens": _pile_tokens(g), "landscapes": _landscapes(g),
            "shared_decks": _shared_decks(g),
            "players": {name: rows for name, rows in players.items() if rows}}
