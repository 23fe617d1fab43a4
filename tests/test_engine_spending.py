"""The "spend when you may" moment (spending.py): what the scenarios can't say.

Coffers are the only token of the running sets; Villagers (Renaissance) and Favors (Allies) will register
the same way. These tests register a stand-in token that gives Actions, as Villagers will, and check that
the moment Diadem opens offers it without Diadem knowing the token, and that a token nobody has, or one
that gives something else, asks nothing (the existing scenarios keep their questions).
"""
from __future__ import annotations

import pytest

from app.engine import scenario
from app.engine.mechanisms import spending

DIADEM = """
title: t
rulings: [{card: Diadem, ruling: 3}]
players:
  - name: Alice
    hand: [Diadem]
    tokens: {Stand-in: 2}
  - name: Bob
supply: {Silver: 40}
steps:
  - play: Diadem
    answers: ANSWERS
expect:
  offered: OFFERED
  coins: COINS
"""


@pytest.fixture
def villagers():
    """A token giving +1 Action each, spendable in the Action phase (as Villagers are, Coffers and Villagers § IV)."""
    def spend(game, p, n, why):
        p.tokens["Stand-in"] -= n
        game.turn.actions += n
        game.log.add(f"{p.name} spends {n} Stand-in {why}")

    spending.register(spending.Spendable(
        "Stand-in", spending.ACTIONS, lambda game, p: p.tokens.get("Stand-in", 0),
        lambda game, p: p.index == game.turn.player and game.turn.phase == "action", spend,
        lambda game: game.turn.actions))
    yield
    del spending.SPENDABLES["Stand-in"]


def _run(answers: str, offered: str, coins: int):
    doc = DIADEM.replace("ANSWERS", answers).replace("OFFERED", offered).replace("COINS", str(coins))
    return scenario.run(scenario.loads(doc, "test.yaml"))


def test_a_token_is_not_offered_outside_the_phase_it_may_be_spent_in(villagers):
    # Diadem is a Treasure: playing it from hand moves to the Buy phase, where Villagers can't be spent
    # (only Diadem played in the Action phase, via Black Market or Storyteller, opens it: Diadem 3)
    res = _run("[]", "[]", 3)
    assert res.ok, (res.error, [f.render() for f in res.failures])


def test_diadem_offers_a_token_that_gives_actions_before_counting_them(villagers):
    spending.SPENDABLES["Stand-in"] = spending.Spendable(
        "Stand-in", spending.ACTIONS, lambda game, p: p.tokens.get("Stand-in", 0),
        lambda game, p: True, spending.SPENDABLES["Stand-in"].spend, lambda game: game.turn.actions)
    res = _run('["2"]', '[{player: Alice, options: ["0", "1", "2"]}]', 5)
    # $2 from Diadem, +$1 per unused Action: the Action of the turn plus the 2 the tokens gave
    assert res.ok, (res.error, [f.render() for f in res.failures])
    assert res.game.players[0].tokens["Stand-in"] == 0


def test_coffers_are_not_offered_where_actions_are_counted():
    res = scenario.run(scenario.loads(DIADEM.replace("tokens: {Stand-in: 2}", "coffers: 3")
                                      .replace("ANSWERS", "[]").replace("OFFERED", "[]").replace("COINS", "3"),
                                      "test.yaml"))
    assert res.ok, (res.error, [f.render() for f in res.failures])
    assert res.game.players[0].tokens["Coffers"] == 3


DOCTOR = """
title: t
rulings: [{section: Overpaying}]
versions: {Doctor: "1"}
players:
"""


def test_enough_in_the_pool_asks_nothing():
    """Needed $1 with $1 in the pool: no question, no Coffers spent (existing scenarios keep their answers)."""
    res = scenario.run(scenario.loads(DOCTOR + """
  - {name: Alice, hand: [Silver, Silver], deck: [Estate], coffers: 2}
  - {name: Bob}
supply: {Doctor: 10}
steps:
  - play_treasures
  - buy_overpay: {card: Doctor, overpay: 1}
    answers: [discard]
expect:
  coins: 0
  Alice: {coffers: 2, discard: [Doctor, Estate]}
""", "test.yaml"))
    assert res.ok, (res.error, [f.render() for f in res.failures])


def test_short_of_money_asks_how_many_coffers_from_the_shortfall_up():
    res = scenario.run(scenario.loads(DOCTOR + """
  - {name: Alice, hand: [Silver, Copper], deck: [Estate, Copper], coffers: 3}
  - {name: Bob}
supply: {Doctor: 10}
steps:
  - play_treasures
  - buy_overpay: {card: Doctor, overpay: 2}
    answers: ["3", discard, put back]
    expect:
      offered: [{player: Alice, options: ["2", "3"], prompt: spend how many Coffers to overpay $2 for Doctor}]
expect:
  coins: 1
  Alice: {coffers: 0}
""", "test.yaml"))
    assert res.ok, (res.error, [f.render() for f in res.failures])
