"""Landmarks: Landscapes beside the Kingdom that score or give VP tokens for the whole game.

Why a module of its own: Empires has 21 Landmarks and they work alike (Complete Rules,
LANDMARKS § IV; SETUP OF LANDSCAPE CARDS § I):

* A Landmark is not a card: it is never bought, gained or played; it is set out beside
  the Supply and its ability applies to every player for the whole game.
* Many Landmarks start with VP tokens on them ("Setup: Put 6 VP here per player") and a
  player takes them when the Landmark says; when none are left, it gives nothing more
  (a player "takes 2 VP from here": as many as are left, at most 2).
* "When scoring" Landmarks add to each player's score at the end of the game: registered
  as a score part of the core (``core.hooks``), so ``vp`` checks and the final scores see it.

A Landmark is registered like a card (``registry.register``), so it has a card page and
``rulings coverage`` counts it; what it does is installed when a scenario lists it with the
``landmarks`` setup key: its VP tokens, its own setup (Obelisk's pile, Aqueduct's tokens on
the Silver and Gold piles), and its when-gain / when-buy / start-of-Buy / end-of-turn abilities
as abilities that last the rest of the game and trigger for any player. A Landmark whose text
changed (Basilica, Colonnade, Defiled Shrine, Mountain Pass) has a version per printing, chosen
like a card's with the scenario's ``versions`` key.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from app.corpus.card_facts import facts_for, load_facts
from app.engine.core import hooks, narrate
from app.engine.core.errors import ScenarioError
from app.engine.core.registry import CardDef, definition, register
from app.engine.core.state import Game, LaterAbility, Player, card_facts
from app.engine.mechanisms.tokens import add_vp
from app.engine.scenario.extensions import expect_key, setup_key

LANDMARK = narrate.sec("Landmarks and Allies")
LANDSCAPE_SETUP = narrate.SPECIAL_SETUP


@dataclass(frozen=True)
class Ability:
    """One of a Landmark's abilities: on ``trigger`` (any player's), if ``condition``, ``run(game, ev)``."""
    trigger: str
    run: Callable
    condition: Callable | None = None


@dataclass
class Landmark:
    name: str
    tokens_per_player: int = 0                       # "Setup: Put N VP here per player"
    score: Callable[[Game, Player], int] | None = None
    setup: Callable[[Game], None] | None = None
    abilities: tuple[Ability, ...] = ()
    says: str = ""        # a previous printing's abilities in words (the card facts hold only the current text)
    shows: Callable[[Game], str | None] | None = None   # what its setup put on the table (Obelisk's chosen pile)


# Landmark name -> version ("" for a Landmark printed once) -> what it does
LANDMARKS: dict[str, dict[str, Landmark]] = {}


def register_landmark(lm: Landmark, note: str = "", version: str = "", default: bool = True) -> Landmark:
    if "Landmark" not in card_facts(lm.name).types:
        raise ValueError(f"{lm.name} is not a Landmark")
    LANDMARKS.setdefault(lm.name, {})[version] = lm
    register(CardDef(lm.name, version=version, note=note), default=default)
    return lm


def landmark(game: Game | None, name: str) -> Landmark | None:
    """The version of Landmark ``name`` this game uses (the scenario's ``versions``, else the current printing)."""
    d = definition(game, name)
    return LANDMARKS.get(name, {}).get(d.version) if d is not None else None


def in_game(game: Game) -> dict[str, int]:
    """The Landmarks in this game -> VP tokens left on each."""
    return game.__dict__.setdefault("landmarks", {})


def tokens_on(game: Game, name: str) -> int:
    return in_game(game).get(name, 0)


def take_vp(game: Game, p: Player, name: str, n: int | None = None, why: str = "") -> int:
    """``p`` takes ``n`` VP tokens from the Landmark (all of them when ``n`` is None); as many as are left."""
    left = tokens_on(game, name)
    k = left if n is None else min(n, left)
    if k <= 0:
        game.log.add(f"{name}: no VP tokens are left on it, so {p.name} takes none{why}", {"card": name}, LANDMARK)
        return 0
    in_game(game)[name] = left - k
    add_vp(game, p, k, {"card": name}, f" from {name}{why} ({left - k} left on it)")
    return k


def add_tokens(game: Game, name: str, n: int, why: str = "") -> None:
    in_game(game)[name] = tokens_on(game, name) + n
    game.log.add(f"{n} VP token{'s' if n != 1 else ''} move{'s' if n == 1 else ''} onto {name}{why} "
                 f"(now {tokens_on(game, name)})", {"card": name})


def add_landmarks(game: Game, names: list[str]) -> None:
    for name in names:
        if name in in_game(game):
            continue
        lm = landmark(game, name)
        in_game(game)[name] = lm.tokens_per_player * len(game.players)
        extra = f" with {in_game(game)[name]} VP tokens on it" if lm.tokens_per_player else ""
        game.log.add(f"Landmark beside the Supply: {name}{extra}", LANDSCAPE_SETUP, {"card": name})
        if lm.setup is not None:
            lm.setup(game)
        for ab in lm.abilities:
            game.later.append(LaterAbility(0, ab.trigger, name, ab.run, None, ab.condition, "game",
                                           [{"card": name}], anyone=True, by_actor=True))


@hooks.score_part("landmarks")
def _score(game: Game, p: Player) -> int:
    total = 0
    for name in in_game(game):
        lm = landmark(game, name)
        if lm is not None and lm.score is not None:
            total += lm.score(game, p)
    return total


# ------------------------------------------------------------------ the scenario format
def _landmark_names() -> list[str]:
    return sorted(f.name for f in load_facts().values() if "Landmark" in f.types)


@setup_key("landmarks", scope="game",
           schema={"type": "array", "items": {"enum": _landmark_names()}, "minItems": 1, "maxItems": 10},
           doc="Landmarks beside the Supply, each with its setup (VP tokens on it, Obelisk's pile, ...)",
           example="landmarks: [Battlefield, Wall]")
def _setup_landmarks(game: Game, value: list) -> None:
    names = []
    for raw in value:
        f = facts_for(raw) if isinstance(raw, str) else None
        if f is None or f.name not in LANDMARKS:
            raise ScenarioError("setup", f"landmarks: {raw!r} is not a Landmark the engine defines yet")
        names.append(f.name)
    add_landmarks(game, names)


_VP_COUNTS = {"type": "object", "propertyNames": {"enum": _landmark_names()},
              "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 1000}}


@setup_key("landmark_vp", scope="game", schema=_VP_COUNTS,
           doc="VP tokens on Landmarks at the start, instead of their setup's (after `landmarks`)",
           example="landmark_vp: {Battlefield: 2}")
def _setup_landmark_vp(game: Game, value: dict) -> None:
    for raw, n in value.items():
        name = facts_for(raw).name
        if name not in in_game(game):
            raise ScenarioError("setup", f"landmark_vp: {name} is not among the game's landmarks")
        in_game(game)[name] = n


@expect_key("landmark_vp", scope="game", schema=_VP_COUNTS, doc="VP tokens left on Landmarks",
            example="landmark_vp: {Battlefield: 10}")
def _expect_landmark_vp(game: Game) -> dict:
    return dict(in_game(game))
