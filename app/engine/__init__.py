"""Executable card definitions and an engine that replays small scenarios step by step.

The folders are the architecture:

- ``core/``: what every game has: the state (``state``), the player activities of the
  symbolic card language (``activities``: play, gain, trash, draw, ...), triggered
  abilities and their ordering (``triggers``), questions to players (``decisions``),
  costs, turns, the shared vocabulary of effects cards are composed from
  (``effects``, ``costs``, ``printed``), the card registry, and the narrated log
  (``narrate``, with ``R`` for a ruling's citation). The core names no mechanism, set
  or scenario: ``hooks`` is where a mechanism registers what it adds to the core's own
  steps (what buying a card takes or forbids), and the core calls what is registered.
- ``mechanisms/``: one module per rule idea that some sets use (Durations, mats,
  tokens, ongoing effects, Possession, Potions, Reactions, ...). A new set adds or
  extends a mechanism; it does not change the core. A mechanism registers its rules'
  hooks (``core.hooks``) and what it adds to the scenario format (step kinds, setup
  and expect keys: ``scenario.extensions``) when it is imported.
- ``cards/``: one module per set, listed in ``cards/__init__.py``; each card a few
  lines composed from the above, citing the rulings it implements. A set's module
  never imports another set's (shared helpers belong to the core or a mechanism).
- ``scenario/``: the scenario file format and its replay (what the CLI, the web
  pages and the tests run).

The engine follows the timing rules of the Complete Rules (chapters II-V) and the
symbolic card language.
"""

# The modules whose import registers every card definition (and, through them, the mechanisms the
# sets use). The core's registry imports them when a definition is first asked for; the core itself
# names no set and no mechanism (tests/test_engine_layout.py).
DEFINITIONS = ("app.engine.cards",)
