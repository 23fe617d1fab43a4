"""Empires: the mechanisms it brings (Debt, split piles, Castles, Landmarks, VP tokens on piles) beyond what its
scenarios show, and its card pages in plain words."""
from __future__ import annotations

from app.engine import scenario as sc_mod
from tests.definition_text import CODE_WORDS_OR_PRINTED, cards_in, unplain_lines


def _game(text: str):
    res = sc_mod.replay(sc_mod.loads(text, "inline"))
    assert res.error is None, res.error
    return res


def test_every_empires_definition_reads_as_plain_steps():
    cards = cards_in(lambda s: s == "Empires")
    assert len(cards) >= 60
    assert unplain_lines(cards, CODE_WORDS_OR_PRINTED) == {}


def test_a_split_pile_is_five_on_five_and_the_castles_are_sorted_cheapest_first():
    """Special setup § I and the piles' own setup text: 5 Settlers on 5 Bustling Villages; Castles by cost."""
    res = _game("""
title: setup
rulings: [{section: Split piles}]
players: [{name: Alice}, {name: Bob}]
supply: {Settlers/Bustling Village: 10, Castles: 8}
steps: []
""")
    g = res.game
    names = [c.name for c in reversed(g.supply["Settlers/Bustling Village"])]      # top first
    assert names == ["Settlers"] * 5 + ["Bustling Village"] * 5
    castles = [c.name for c in reversed(g.supply["Castles"])]
    assert castles[0] == "Humble Castle" and castles[-1] == "King's Castle" and len(set(castles)) == 8
    assert [c.cost for c in reversed(g.supply["Castles"])] == sorted(c.cost for c in g.supply["Castles"])


def test_three_players_get_twelve_castles():
    res = _game("""
title: setup
rulings: [{section: Split piles}]
players: [{name: Alice}, {name: Bob}, {name: Cleo}]
supply: {Castles: 12}
steps: []
""")
    castles = [c.name for c in res.game.supply["Castles"]]
    assert len(castles) == 12 and castles.count("King's Castle") == 2 and castles.count("Grand Castle") == 1


def test_holding_debt_blocks_buying_events_too():
    """DEBT § IV: "When you have Debt tokens, you can't buy anything (cards, Events or Projects)"."""
    res = sc_mod.replay(sc_mod.loads("""
title: no Events with Debt
rulings: [{section: Debt}]
events: [Delve]
players: [{name: Alice, hand: [Silver], debt: 1}, {name: Bob}]
supply: {Silver: 40}
steps:
  - play_treasures
  - buy_event: Delve
""", "inline"))
    assert res.error is not None and "can't buy anything" in str(res.error)
