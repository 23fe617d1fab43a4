"""Card definitions, one module per set; importing a module registers its cards.

A set's module imports the core's vocabulary and the mechanisms it uses, never another set's
module (tests/test_engine_layout.py). The basic cards come first: their versions are the
defaults that a set's own version of a basic card (Duchy in games using Duchess) does not replace.
"""
from app.engine.cards import basic  # noqa: F401,E402  (Treasures, Victory cards, Curse)
from app.engine.cards import base  # noqa: F401,E402  (Dominion; registers on import)
from app.engine.cards import intrigue  # noqa: F401,E402  (Intrigue; registers on import)
from app.engine.cards import seaside  # noqa: F401,E402  (Seaside; registers on import)
from app.engine.cards import prosperity  # noqa: F401,E402  (Prosperity; registers on import)
from app.engine.cards import hinterlands  # noqa: F401,E402  (Hinterlands; registers on import)
from app.engine.cards import alchemy  # noqa: F401,E402  (Alchemy; registers on import)
from app.engine.cards import adventures  # noqa: F401,E402  (Adventures Kingdom cards; registers on import)
from app.engine.cards import adventures_events  # noqa: F401,E402  (Adventures Events and player tokens; registers on import)
from app.engine.cards import cornucopia_guilds  # noqa: F401,E402  (Cornucopia & Guilds; registers on import)
from app.engine.cards import dark_ages  # noqa: F401,E402  (Dark Ages; registers on import)
from app.engine.cards import nocturne  # noqa: F401,E402  (Nocturne; registers on import)
from app.engine.cards import empires  # noqa: F401,E402  (Empires Kingdom cards, split piles, Castles)
from app.engine.cards import empires_landscapes  # noqa: F401,E402  (Empires Events and Landmarks)
