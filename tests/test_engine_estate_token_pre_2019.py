"""The pre-2019 Estate token's other abilities: what the scenarios can't show on their own.

Only Estates that are yours get the card's abilities (Your Estate token pre-2019 1-2): an Estate in
another player's hand or in the Supply is not offered as a Reaction and triggers nothing; the 2019
version gives no such abilities at all; the shared definition's Reaction table lists nothing, so the card
page describes the Estate by its note.
"""
from __future__ import annotations

from app.engine.core.registry import definition
from app.engine.core.triggers import Event, _collect
from app.engine.mechanisms import player_tokens as pt
from app.engine.scenario import loads, run

GAME = """
title: t
rulings: [{card: "Your Estate token", ruling: 1, version: pre-2019}]
versions: {Inheritance: "1"}
players:
  - name: Alice
    hand: [Estate, Militia]
    estate_token: Moat
  - name: Bob
    hand: [Estate, Copper]
supply: {Moat: 10, Militia: 10, Estate: 8, Silver: 40}
steps: []
"""


def _game(text: str = GAME):
    res = run(loads(text, "test"))
    assert res.ok, res.error
    return res.game


def test_only_the_owners_estate_in_hand_is_a_reaction():
    g = _game()
    alice, bob = g.players
    d = definition(g, "Estate")
    assert d.version == pt.PRE_2019
    ev = Event("attack", bob, bob.hand[0], {"unaffected": set(), "revealed": []})
    r = d.reactions["attack"]
    assert r.applies(g, ev, alice, alice.hand[0])            # Alice's token is on Moat
    assert not r.applies(g, ev, bob, bob.hand[0])            # Bob has no token: his Estate is only an Estate
    assert list(d.reactions.items()) == []                   # nothing listed for the card page


def test_an_estate_in_the_supply_or_gained_without_buying_triggers_nothing_before_it_is_gained():
    g = _game(GAME.replace("estate_token: Moat", "estate_token: Nomad Camp").replace("Moat: 10", "Nomad Camp: 10"))
    alice = g.players[0]
    top = g.supply["Estate"][-1]
    labels = [p.name for p in _collect(g, Event("when_would_gain", alice, top, {"to": "discard"}))]
    assert not any("Nomad Camp" in x for x in labels)       # not bought: not hers before it is gained (15)
    _collect(g, Event("when_buy", alice, top, {"cost": 2}))     # she buys it
    labels = [p.name for p in _collect(g, Event("when_would_gain", alice, top, {"to": "discard"}))]
    assert any("Nomad Camp" in x for x in labels)           # bought: hers from that moment (2, 15)


def test_the_2019_version_gives_no_other_abilities():
    g = _game(GAME.replace('versions: {Inheritance: "1"}\n', ""))
    d = definition(g, "Estate")
    assert d.version == pt.INHERITED
    assert "attack" not in d.reactions                       # Your Estate token 1: no Reaction abilities
