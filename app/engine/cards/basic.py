"""The basic cards: Treasures, Victory cards and Curse. Values in the text are the card facts'."""
from __future__ import annotations

from app.engine.core.effects import PlusCoins
from app.engine.core.registry import CardDef, register

for _name, _coins in (("Copper", 1), ("Silver", 2), ("Gold", 3)):
    register(CardDef(_name, play=PlusCoins(_coins)))

for _name, _vp in (("Estate", 1), ("Duchy", 3), ("Province", 6), ("Curse", -1)):
    register(CardDef(_name, vp=_vp))
