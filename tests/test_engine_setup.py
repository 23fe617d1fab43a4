"""Supply sizes per player count follow BASIC SETUP § I (read from the document itself below)."""
from __future__ import annotations

from app.corpus.sources import load_document
from app.engine.scenario.setup import supply_sizes


def _setup_text() -> str:
    doc = load_document("rules")
    start = doc.find("Basic setup", start=100)
    return "\n".join(doc.lines[start:start + 40])


def test_two_players_use_eight_victory_cards_and_ten_curses():
    text = _setup_text()
    assert "Use 8 cards instead of 12 in all **Victory piles**" in text
    s = supply_sizes(2, ["Gardens", "Village"])
    assert (s["Estate"], s["Duchy"], s["Province"], s["Curse"]) == (8, 8, 8, 10)
    assert s["Gardens"] == 8 and s["Village"] == 10
    assert s["Copper"] == 60 - 14


def test_more_players_add_curses_and_provinces():
    assert "Add another 10 to the **pile** for each additional player" in _setup_text()
    three, five, six = supply_sizes(3, []), supply_sizes(5, []), supply_sizes(6, [])
    assert (three["Curse"], three["Province"], three["Estate"]) == (20, 12, 12)
    assert (five["Province"], six["Province"]) == (15, 18)
    assert six["Curse"] == 50


def test_colonies_use_twelve_platinum_and_eight_colonies_with_two_players():
    s = supply_sizes(2, [], colonies=True)
    assert s["Platinum"] == 12 and s["Colony"] == 8
    assert supply_sizes(4, [], colonies=True)["Colony"] == 12
