"""Prosperity mechanisms a user relies on, on the real card facts and Card Reference: step limit on
King's Court chains, buy restrictions, Peddler's cost outside the Buy phase, Trade Route tokens moving
once, while-in-play abilities answering only to their owner, VP tokens in the score, coverage."""
from __future__ import annotations

import textwrap
from pathlib import Path

from app.engine.scenario import commands
from app.engine.core import registry
from app.engine import scenario
from app.engine.core.state import Game


def run_text(tmp_path: Path, text: str) -> scenario.Result:
    p = tmp_path / "s.yaml"
    p.write_text(textwrap.dedent(text), encoding="utf-8")
    return scenario.run(scenario.load(p))


def test_kings_court_chain_stops_at_the_step_limit_naming_the_step(tmp_path):
    """No Prosperity card can replay itself forever, so a long King's Court chain (29 engine steps)
    under a low limit stands in for a loop: the replay stops with an error naming the step, never hangs."""
    text = """\
    title: King's Courts all the way down
    rulings: [{card: King's Court, ruling: 1}]
    step_limit: 20
    players:
      - name: Alice
        hand: ["King's Court*6", Worker's Village]
        deck: ["Copper*40"]
      - name: Bob
    supply: {Silver: 40}
    steps:
      - play: King's Court
        answers: [King's Court, King's Court, King's Court, King's Court, King's Court, Worker's Village]
    """
    res = run_text(tmp_path, text)
    assert res.error is not None and res.error.step == 1
    assert "step limit of 20" in res.error.message


def test_contraband_named_card_cannot_be_bought(tmp_path):
    text = """\
    title: t
    rulings: [{card: Contraband, ruling: 1}]
    players:
      - name: Alice
        hand: [Contraband, Gold, Gold]
      - name: Bob
    supply: {Gold: 30, Silver: 40}
    steps:
      - play: Contraband
        answers: [Gold]
      - play_treasures
      - buy: Gold
    """
    res = run_text(tmp_path, text)
    assert res.error is not None and res.error.step == 3
    assert "Gold was named for Contraband" in res.error.message and "Silver" in res.error.message


def test_grand_market_not_buyable_with_copper_in_play(tmp_path):
    text = """\
    title: t
    rulings: [{card: Grand Market, ruling: 2}]
    players:
      - name: Alice
        hand: [Gold, Gold, Copper]
      - name: Bob
    supply: {Grand Market: 10}
    steps:
      - play_treasures
      - buy: Grand Market
    """
    res = run_text(tmp_path, text)
    assert res.error is not None and "Copper in play" in res.error.message


def _game_with(names_in_play: list[str], phase: str) -> tuple[Game, object]:
    registry._load()
    g = Game()
    a, b = g.add_player("Alice"), g.add_player("Bob")
    g.put(a, "in_play", names_in_play)
    g.set_pile("Peddler", 10)
    g.turn.phase = phase
    return g, g.supply["Peddler"][-1]


def test_peddler_costs_less_only_in_the_buy_phase():
    g, peddler = _game_with(["Worker's Village", "City"], "action")
    assert peddler.cost == 8                      # Peddler 3
    g.turn.phase = "buy"
    assert peddler.cost == 4                      # Peddler 1: $2 less per Action card in play
    g2, p2 = _game_with(["Worker's Village"] * 5, "buy")
    assert p2.cost == 0                           # never below $0


def test_trade_route_token_moves_only_once_per_pile(tmp_path):
    text = """\
    title: t
    rulings: [{card: Trade Route, ruling: 3}]
    players:
      - name: Alice
        hand: [Worker's Village, Worker's Village, Workshop, Workshop, Trade Route, Copper]
        deck: ["Copper*3"]
      - name: Bob
    supply: {Estate: 8, Duchy: 8, Trade Route: 10}
    steps:
      - play: Worker's Village
      - play: Worker's Village
      - play: Workshop
        answers: [Estate]
      - play: Workshop
        answers: [Estate]
      - play: Trade Route
    """
    res = run_text(tmp_path, text)
    assert res.error is None and not res.failures, res.error
    assert res.game.turn.coins == 1               # one token on the mat, not two
    assert res.game.pile_tokens["Duchy"]["Coin"] == 1


def test_royal_seal_ignores_other_players_gains_and_vp_tokens_score(tmp_path):
    text = """\
    title: t
    rulings: [{card: Royal Seal, ruling: 1}]
    players:
      - name: Alice
        hand: [Mountebank, Monument]
        in_play: [Royal Seal]
        vp_tokens: 2
      - name: Bob
        hand: [Watchtower]
    supply: {Curse: 10, Copper: 40}
    steps:
      - play: Mountebank
        answers: [deck, trash]
    expect:
      Bob: {deck: [Curse], hand: [Watchtower]}
      trash: [Copper]
    """
    res = run_text(tmp_path, text)
    assert res.error is None and not res.failures, [f.render() for f in res.failures] or res.error
    # Alice's Royal Seal asked nothing about Bob's gains; Bob's own Watchtower reacted twice
    asked = [q.player for q, _ in res.game.decider.asked if q.kind != "order"]
    assert "Alice" not in asked
    from app.engine.core.activities import score
    assert score(res.game, res.game.players[0]) == 2
    assert score(res.game, res.game.players[1]) == -1


def test_every_prosperity_card_is_defined_and_cited_by_a_scenario():
    from app.corpus.card_facts import load_facts

    pros = {f.name for f in load_facts().values() if f.set == "Prosperity"}
    assert len(pros) == 36                        # 34 Kingdom cards + Platinum + Colony
    assert pros <= set(registry.defined_cards())
    row = next(r for r in commands.coverage_data()["sets"] if r["set"] == "Prosperity")
    assert row["defined"] == row["entries"] and row["cited_by_scenarios"] == row["entries"]


def test_versions_of_the_2022_errata_cards():
    for name in ("Hoard", "Mint", "Quarry"):
        assert registry.versions(name) == ["1", "2"]
        assert registry.definition(None, name).version == "2"
