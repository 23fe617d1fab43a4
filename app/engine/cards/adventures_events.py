"""Adventures Events (buy abilities, events.py) and the player tokens they move (player_tokens.py)."""
from __future__ import annotations

from app.engine.mechanisms import player_tokens  # noqa: F401  (registers the tokens' setup and expect keys)
