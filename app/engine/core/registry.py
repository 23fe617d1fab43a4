"""Card definitions by name and version, and which cards have one.

A definition holds behaviour only: cost, types and text come from the card
facts (dominion-setup). Cards whose text changed between editions may have
several versions ('1' = first edition, '2' = second); the current printing is
the default and a scenario may choose another with ``versions:``.
"""
from __future__ import annotations

import importlib
import sys
import threading
from dataclasses import dataclass, field
from typing import Any, Callable

import app.engine
from app.engine.core import hooks
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


_load_lock = threading.RLock()
# Registries filled while the definitions load, put back as they were if a load is interrupted. Modules
# outside the core that keep one (the scenario format's step kinds and setup keys) add theirs here.
_TRANSACTIONAL: list[dict] = [_DEFS, _ALIASES, _DEFAULT, hooks.BUY_CHECKS, hooks.BUY_PAYMENTS, hooks.SCORE_PARTS,
                               hooks.PLAY_INSTEAD, hooks.PHASES]


def undone_with_an_interrupted_load(*registries: dict) -> None:
    """Have these registries restored, like the card registry's, when loading the definitions is interrupted."""
    _TRANSACTIONAL.extend(r for r in registries if not any(r is t for t in _TRANSACTIONAL))


def _load() -> None:
    """Import every set's module once, all or nothing.

    Which modules: ``app.engine.DEFINITIONS`` names them (the card sets, which import the
    mechanisms they use); the core names no set and no mechanism.

    ``_loaded`` is set only after every import finished. If an import is
    interrupted (an exception, a timeout raised into it), the registries go back
    to what they were and the modules this attempt imported are forgotten, so
    the next call imports them all again instead of serving a half-filled
    registry (99 of 190 cards) for the rest of the process's life.
    """
    global _loaded
    if _loaded:
        return
    with _load_lock:
        if _loaded:
            return
        registries = list(_TRANSACTIONAL)
        saved = [dict(r) for r in registries]
        modules_before = set(sys.modules)
        try:
            for module in app.engine.DEFINITIONS:
                importlib.import_module(module)    # registers on import
        except BaseException:
            for reg, old in zip(registries, saved):
                reg.clear()
                reg.update(old)
            for name in set(sys.modules) - modules_before:
                if name.startswith("app.engine."):
                    del sys.modules[name]
            raise
        _loaded = True


def load_all() -> int:
    """Load every card definition now (at worker start, not inside a request); returns how many."""
    return len(defined_cards())


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
