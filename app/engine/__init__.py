"""Executable card definitions and an engine that replays small scenarios step by step.

The folders are the architecture:

- ``core/``: what every game has: the state (``state``), the player activities of the
  symbolic card language (``activities``: play, gain, trash, draw, ...), triggered
  abilities and their ordering (``triggers``), questions to players (``decisions``),
  costs, turns, the shared vocabulary of effects cards are composed from
  (``effects``), the card registry, and the narrated log (``narrate``).
- ``mechanisms/``: one module per rule idea that some sets use (Durations, mats,
  tokens, ongoing effects, Possession, Potions, Reactions, ...). A new set adds or
  extends a mechanism; it does not change the core.
- ``cards/``: one module per set; each card a few lines composed from the above,
  citing the rulings it implements.
- ``scenario/``: the scenario file format and its replay (what the CLI, the web
  pages and the tests run).

The engine follows the timing rules of the Complete Rules (chapters II-V) and the
symbolic card language.
"""
