"""Abilities a player has while they have something that is never in play: a Project cube, an Artifact.

Why a module of its own: Projects and Artifacts (Renaissance), and the States of Nocturne, all work the
same way for timing: "A Project's ability is active for players who have a Project cube on the card"
(EVENTS AND PROJECTS § IV); "The State's/Artifact's ability applies to you while you have it" (STATES AND
ARTIFACTS § IV); "Projects are only active while you have a cube on them, and States/Artifacts while you
have them" (ongoing ability timers). None of them is a card in play, so the core's collection of
triggered abilities (cards in play, in hand, set-up abilities) does not see them: each kind registers who
has what here, each card its abilities, and one collector offers the triggered ones to the core.

An ability triggers on its holder's own occurrences (their gains, their turn's start), or with
``others=True`` only on other players' (Road Network: "When another player gains a Victory card"). Its
holder resolves it, ordered with their other abilities by the usual question (§ III).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from app.engine.core import registry
from app.engine.core.state import Game, Player
from app.engine.core.triggers import COLLECTORS, Event, Pending


@dataclass(frozen=True)
class Ability:
    """``run(game, ev, holder)`` when ``trigger`` happens and ``condition(game, ev, holder)`` holds."""

    trigger: str
    run: Callable[[Game, Event, Player], None]
    condition: Callable[[Game, Event, Player], bool] | None = None
    others: bool = False


_ABILITIES: dict[str, tuple[Ability, ...]] = {}
# kind ("Project", "Artifact") -> fn(game) -> [(name, holder index), ...]
_HOLDERS: dict[str, Callable[[Game], list[tuple[str, int]]]] = {}
registry.undone_with_an_interrupted_load(_ABILITIES, _HOLDERS)


def abilities(name: str, *found: Ability) -> None:
    """Register what ``name`` (a Project, an Artifact) does for whoever has it."""
    _ABILITIES[name] = tuple(found)


def holders(kind: str, fn: Callable[[Game], list[tuple[str, int]]]) -> None:
    _HOLDERS[kind] = fn


def held(game: Game) -> list[tuple[str, int]]:
    return [pair for fn in _HOLDERS.values() for pair in fn(game)]


def _collect(game: Game, ev: Event) -> list[Pending]:
    found: list[Pending] = []
    if ev.player is None:
        return found
    for name, idx in held(game):
        holder = game.players[idx]
        for a in _ABILITIES.get(name, ()):
            if a.trigger != ev.kind or (holder is ev.player) == a.others:
                continue
            if a.condition is None or a.condition(game, ev, holder):
                found.append(Pending(holder, name, lambda g, e, a=a, h=holder: a.run(g, e, h)))
    return found


if _collect not in COLLECTORS:
    COLLECTORS.append(_collect)
