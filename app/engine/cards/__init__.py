"""Card definitions, one module per set; importing a module registers its cards."""
from app.engine.cards import intrigue  # noqa: F401,E402  (Intrigue; registers on import)
from app.engine.cards import seaside  # noqa: F401,E402  (Seaside; registers on import)
from app.engine.cards import prosperity  # noqa: F401,E402  (Prosperity; registers on import)
from app.engine.cards import hinterlands  # noqa: F401,E402  (Hinterlands; registers on import)
from app.engine.cards import alchemy  # noqa: F401,E402  (Alchemy; registers on import)
from app.engine.cards import adventures  # noqa: F401,E402  (Adventures Kingdom cards; registers on import)
from app.engine.cards import adventures_events  # noqa: F401,E402  (Adventures Events and player tokens; registers on import)
from app.engine.cards import cornucopia_guilds  # noqa: F401,E402  (Cornucopia & Guilds; registers on import)
