"""A legal scenario that keeps the engine busy: two players shuffling big decks for many turns.

Shared by bench/deadline.py (the deadline's CPU cost), bench/attack.py (replay flooders) and
tests/test_under_attack.py (the replay deadline), so all three measure the same table.
"""
from __future__ import annotations


def heavy_scenario(n_cards: int = 400, steps: int = 250) -> str:
    """Each player has ``2 * n_cards + 5`` cards; keep ``4 * n_cards + 10`` under the 5,000-card bound."""
    lines = ["title: heavy", 'rulings: [{section: "Your turn"}]', "players:"]
    for name in ("Alice", "Bob"):
        lines += [f"  - name: {name}", "    hand: [Copper*5]", f"    deck: [Copper*{n_cards}]",
                  f"    discard: [Estate*{n_cards}]"]
    lines += ["supply: {Silver: 40}", "step_limit: 20000", "steps:"] + ["  - end_turn"] * steps
    return "\n".join(lines) + "\n"
