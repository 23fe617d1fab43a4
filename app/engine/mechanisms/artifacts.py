"""Artifacts: one copy each, taken by a player (from whoever had it), its ability theirs while they have it.

The rules implemented (Complete Rules, STATES AND ARTIFACTS § IV; Special setup § I, Renaissance):

* "When you take a State/Artifact, you keep the card in front of you until you are told to return it or
  another player takes it from you. The State's/Artifact's ability applies to you while you have it."
* "There is only one copy of each Artifact; you take the Artifact card from another player if they have
  it." Taking one you already have changes nothing.
* "State and Artifact cards never belong to any player and are never considered to be in play."
* Setup: Flag Bearer brings Flag, Swashbuckler Treasure Chest, Treasurer Key, Border Guard Lantern and
  Horn: read from the card facts ("take the Flag", "take the Lantern or Horn"); until taken, the Artifact
  lies beside the Supply with nobody (``in_game``).

An Artifact's triggered abilities are collected by ``owned.py`` for its holder. A scenario starts a player
with Artifacts with the player key ``artifacts`` and checks them with the expect key of the same name.
"""
from __future__ import annotations

import re

from app.corpus.card_facts import load_facts
from app.engine.core import narrate
from app.engine.core.errors import ScenarioError
from app.engine.core.registry import CardDef, register
from app.engine.core.state import Game, Player, card_facts
from app.engine.mechanisms import owned
from app.engine.scenario.extensions import expect_key, setup_key

ARTIFACTS = narrate.sec("States and Artifacts")


def register_artifact(name: str, *abilities: owned.Ability) -> CardDef:
    if "Artifact" not in card_facts(name).types:
        raise ValueError(f"{name} is not an Artifact")
    owned.abilities(name, *abilities)
    return register(CardDef(name))


def holder_of(game: Game) -> dict[str, int | None]:
    """Artifact -> the index of the player who has it (None: beside the Supply, nobody has it yet)."""
    return game.__dict__.setdefault("artifacts", {})


def has(game: Game, p: Player, name: str) -> bool:
    return holder_of(game).get(name) == p.index


_TAKE = re.compile(r"\btake the ([^.]*)")


def in_game(game: Game) -> list[str]:
    """The Artifacts of this game: those a Supply pile's card takes ("take the Lantern or Horn"), and any held."""
    named = {n for pile in game.supply for m in _TAKE.finditer(_text(pile)) for n in _NAMES
             if re.search(rf"\b{re.escape(n)}\b", m.group(1))}
    return sorted(named | set(holder_of(game)))


def _text(name: str) -> str:
    from app.corpus.card_facts import facts_for
    f = facts_for(name)
    return f.text or "" if f is not None else ""


def artifacts_of(game: Game, p: Player) -> list[str]:
    return sorted(n for n, i in holder_of(game).items() if i == p.index)


owned.holders("Artifact", lambda game: [(n, i) for n, i in holder_of(game).items() if i is not None])


def take(game: Game, p: Player, name: str, cite: dict | None = None) -> None:
    """Take the Artifact ``name``: from the player who has it, or from beside the Supply."""
    before = holder_of(game).get(name)
    cites = [c for c in (cite, ARTIFACTS) if c]
    if before == p.index:
        game.log.add(f"{p.name} already has {name}, so taking it changes nothing", *cites)
        return
    holder_of(game)[name] = p.index
    frm = f" from {game.players[before].name}" if before is not None else ""
    game.log.add(f"{p.name} takes {name}{frm}: its ability applies to them while they have it", *cites)


# ------------------------------------------------------------------ the scenario format
_NAMES = sorted(f.name for f in load_facts().values() if "Artifact" in f.types)


@setup_key("artifacts", scope="player", schema={"type": "array", "items": {"enum": _NAMES}, "maxItems": len(_NAMES)},
           doc="Artifacts the player has at the start (taken on an earlier turn)", example="artifacts: [Flag]")
def _setup_artifacts(game: Game, p: Player, value: object) -> None:
    if not isinstance(value, list) or any(v not in _NAMES for v in value):
        raise ScenarioError("setup", f"{p.name}'s artifacts: expected a list of Artifacts ({', '.join(_NAMES)})")
    for name in value:
        if holder_of(game).get(name) not in (None, p.index):
            raise ScenarioError("setup", f"{p.name}'s artifacts: {name} is already another player's (one copy)")
        holder_of(game)[name] = p.index


@expect_key("artifacts", scope="player", schema={"type": "array", "items": {"type": "string"}},
            doc="the Artifacts the player has, in alphabetical order", example="Alice: {artifacts: [Key]}")
def _expect_artifacts(game: Game, p: Player) -> list[str]:
    return artifacts_of(game, p)
