"""Card definitions by name and version, and which cards have one.

A definition holds behaviour only: cost, types and text come from the card
facts (dominion-setup). Cards whose text changed between editions may have
several versions ('1' = first edition, '2' = second); the current printing is
the default and a scenario may choose another with ``versions:``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from app.engine.core.effects import Effect
from app.engine.core.state import Game, card_facts


@dataclass
class Reaction:
    """A Reaction ability on a card in hand; ``react`` does the optional part (e.g. reveal) and the rest.

    ``applies`` says whether it may be revealed now (Diplomat: only from a hand of 5 or more cards).
    """

    react: Callable[..., Any]
    applies: Callable[..., bool] = lambda game, ev, player, card: True


@dataclass
class CardDef:
    name: str
    play: Effect | None = None
    version: str = ""
    vp: int | Callable[[Game, Any], int] | None = None
    hooks: dict[str, Callable] = field(default_factory=dict)          # when_gain / when_trash / when_discard on itself
    reactions: dict[str, Reaction] = field(default_factory=dict)      # 'attack', 'when_gain', ...
    while_in_play: dict[str, Callable] = field(default_factory=dict)
    entry: str | None = None      # Card Reference entry name; defaults to the card name
    note: str = ""                # what differs in this version
    setup: Callable[[Game], None] | None = None   # special setup when its pile is in the Supply (§ I; Trade Route)

    @property
    def reference(self) -> str:
        return self.entry or self.name


_DEFS: dict[str, dict[str, CardDef]] = {}
_ALIASES: dict[str, str] = {}     # another printed name -> the card facts' name (Farm -> Harem)
_DEFAULT: dict[str, str] = {}
_loaded = False


def register(d: CardDef, default: bool = True) -> CardDef:
    card_facts(d.name)   # a definition must name a real card
    _DEFS.setdefault(d.name, {})[d.version] = d
    if default or d.name not in _DEFAULT:
        _DEFAULT[d.name] = d.version
    return d


def register_alias(alias: str, name: str) -> None:
    """Let scenarios use another printed name of a card (a renamed card: "Farm" for Harem)."""
    card_facts(name)
    _ALIASES[alias] = name


def aliases() -> dict[str, str]:
    _load()
    return dict(_ALIASES)


def _load() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        from app.engine.cards import base, basic  # noqa: F401  (registers on import)
        from app.engine.cards import dark_ages  # noqa: F401  (Dark Ages; registers on import)


def definition(game: Game | None, name: str) -> CardDef | None:
    _load()
    versions = _DEFS.get(name)
    if not versions:
        return None
    v = game.versions.get(name) if game is not None else None
    return versions.get(v if v is not None else _DEFAULT[name])


def versions(name: str) -> list[str]:
    _load()
    return sorted(_DEFS.get(name, {}))


def defined_cards() -> list[str]:
    _load()
    return sorted(_DEFS)
