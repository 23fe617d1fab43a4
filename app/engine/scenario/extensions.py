"""Where a mechanism adds to the scenario format without touching the loader or the replay.

A set that brings a new action a player takes (call a Reserve card, buy an Event,
take Coffers) registers a *step kind*; one that needs something on the table before
the first step (the Tavern mat, Events in the game, the Ruins order) registers a
*setup key*, at the top level or per player; one whose state a ruling talks about
(Coffers, the Tavern mat) registers an *expect key*. Each registration carries the JSON
Schema of its value and a one-line description with an example, so the same entry
validates files, documents the format and completes in an editor.

Registration happens when the mechanism's module is imported, which the card
registry does for every set before a scenario is loaded.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from app.engine.core import registry
from app.engine.core.state import Game, Player

# The JSON Schema of a list of card names as scenario files write them ("Copper*3" = 3 copies).
CARD_LIST = {"type": "array", "items": {"type": "string"}}
CARD_OR_LIST = {"anyOf": [{"type": "string"}, CARD_LIST]}


@dataclass(frozen=True)
class StepKind:
    """``- NAME: VALUE`` in ``steps``: ``run(game, player, value)`` carries it out for the current player.

    ``cards``: the value names cards (one name or a list), which the loader resolves
    (aliases, ``Name*N``) and reports at their line before ``run`` sees them.
    """
    name: str
    schema: dict
    run: Callable[[Game, Player, Any], None]
    doc: str
    example: str
    cards: bool = False


@dataclass(frozen=True)
class SetupKey:
    """A key of the scenario (``scope="game"``) or of one player (``scope="player"``) read before step 1."""
    name: str
    scope: str
    schema: dict
    apply: Callable[..., None]        # game: apply(game, value); player: apply(game, player, value)
    doc: str
    example: str


@dataclass(frozen=True)
class ExpectKey:
    """A key of ``expect`` (``scope="game"``) or of a player's ``expect`` (``scope="player"``).

    ``read(game)`` / ``read(game, player)`` returns the current value, compared with ``==``
    to what the file states (Coffers, the Tavern mat, a player's tokens, ...).
    """
    name: str
    scope: str
    schema: dict
    read: Callable[..., Any]
    doc: str
    example: str


STEP_KINDS: dict[str, StepKind] = {}
SETUP_KEYS: dict[tuple[str, str], SetupKey] = {}
EXPECT_KEYS: dict[tuple[str, str], ExpectKey] = {}
# registered while the card sets load (their mechanisms register on import): undone with an interrupted load
registry.undone_with_an_interrupted_load(STEP_KINDS, SETUP_KEYS, EXPECT_KEYS)


def step_kind(name: str, *, schema: dict, doc: str, example: str, cards: bool = False):
    """Decorator: register ``fn(game, player, value)`` as the step ``name``."""
    def register(fn: Callable[[Game, Player, Any], None]):
        if name in STEP_KINDS:
            raise ValueError(f"step kind {name!r} is registered twice")
        STEP_KINDS[name] = StepKind(name, schema, fn, doc, example, cards)
        return fn
    return register


def setup_key(name: str, *, scope: str, schema: dict, doc: str, example: str):
    """Decorator: register ``fn`` as the setup key ``name`` of the game or of each player."""
    if scope not in ("game", "player"):
        raise ValueError(f"scope must be 'game' or 'player', not {scope!r}")

    def register(fn: Callable[..., None]):
        if (scope, name) in SETUP_KEYS:
            raise ValueError(f"setup key {name!r} ({scope}) is registered twice")
        SETUP_KEYS[(scope, name)] = SetupKey(name, scope, schema, fn, doc, example)
        return fn
    return register


def expect_key(name: str, *, scope: str, schema: dict, doc: str, example: str):
    """Decorator: register ``fn(game)`` or ``fn(game, player)`` as the expectation ``name``."""
    if scope not in ("game", "player"):
        raise ValueError(f"scope must be 'game' or 'player', not {scope!r}")

    def register(fn: Callable[..., Any]):
        if (scope, name) in EXPECT_KEYS:
            raise ValueError(f"expect key {name!r} ({scope}) is registered twice")
        EXPECT_KEYS[(scope, name)] = ExpectKey(name, scope, schema, fn, doc, example)
        return fn
    return register
