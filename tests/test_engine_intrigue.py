"""Intrigue mechanisms a user relies on: cost changes hold for every purpose and end on time,
Farm is accepted for Harem, Reactions with a condition are only offered when it holds,
and every Intrigue card is defined and demonstrated by a scenario."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from app.corpus.card_facts import load_facts
from app.engine.core import activities, costs, registry
from app.engine.scenario import commands
from app.engine import scenario
from app.engine.core.errors import ScenarioError
from app.engine.core.state import Game, Turn


def run_text(tmp_path: Path, text: str) -> scenario.Result:
    p = tmp_path / "s.yaml"
    p.write_text(textwrap.dedent(text), encoding="utf-8")
    return scenario.run(scenario.load(p))


def _game() -> Game:
    g = Game()
    for name, n in (("Gold", 5), ("Copper", 5), ("Province", 5), ("Silver", 5)):
        g.set_pile(name, n)
    return g


# ------------------------------------------------------------------ costs.py
def test_reductions_stack_and_never_go_below_zero():
    g = _game()
    gold, copper = g.supply["Gold"][-1], g.supply["Copper"][-1]
    printed = gold.facts.cost_coins
    costs.reduce_this_turn(g, 1, "Bridge")
    costs.reduce_this_turn(g, 1, "Bridge")
    assert gold.cost == printed - 2
    assert copper.cost == 0                      # clamped, not -2
    assert costs.reduction_for(g, gold) == 2


def test_turn_reduction_expires_when_the_next_turn_starts():
    g = _game()
    gold = g.supply["Gold"][-1]
    costs.reduce_this_turn(g, 2, "Bridge x2")
    assert gold.cost == gold.facts.cost_coins - 2
    g.turn = Turn(player=0)                      # what start_turn does
    assert gold.cost == gold.facts.cost_coins
    assert g.cost_modifiers == []                # expired modifiers are dropped


def test_while_in_play_reduction_ends_when_the_card_leaves_play_and_does_not_come_back():
    g = _game()
    p = g.add_player("Alice")
    g.put(p, "in_play", ["Silver"])
    source = p.in_play[0]
    gold = g.supply["Gold"][-1]
    costs.reduce_while_in_play(g, source, 2, "Quarry-like", applies=lambda game, c: c.is_type("Treasure"))
    province = g.supply["Province"][-1]
    assert gold.cost == gold.facts.cost_coins - 2
    assert province.cost == province.facts.cost_coins          # filter: Treasures only
    g.move(source, "discard")
    g.move(source, "in_play")                                  # back in play, but a new placement
    assert gold.cost == gold.facts.cost_coins


def test_card_cost_rule_applies_before_modifiers():
    g = _game()
    silver = g.supply["Silver"][-1]
    costs.cost_rule("Silver")(lambda game, card, coins: coins + 5)
    try:
        costs.reduce_this_turn(g, 1, "Bridge")
        assert silver.cost == silver.facts.cost_coins + 5 - 1
    finally:
        costs._CARD_RULES.pop("Silver")


def test_cost_comparisons_follow_card_costs_section():
    g = _game()
    gold, silver = g.supply["Gold"][-1], g.supply["Silver"][-1]
    costs.reduce_this_turn(g, gold.facts.cost_coins - silver.facts.cost_coins, "Gold only",
                           applies=lambda game, c: c.name == "Gold")
    assert costs.same_cost(gold, silver)
    assert costs.costs_exactly(gold, silver.cost) and costs.costs_up_to(gold, silver.cost)


def test_bridge_makes_a_card_affordable_and_buying_pays_the_reduced_cost(tmp_path):
    res = run_text(tmp_path, """\
    title: t
    rulings: [{card: Bridge, ruling: 1}]
    players:
      - name: Alice
        hand: [Bridge, Copper, Copper, Copper, Copper]
      - name: Bob
    supply: {Gold: 30}
    steps:
      - play: Bridge
      - play_treasures
    """)
    assert res.error is None
    g = res.game
    assert "Gold" in activities.buyable(g)          # $5 buys a $6 Gold reduced by $1
    activities.buy(g, g.current, "Gold")
    assert g.turn.coins == 0


# ------------------------------------------------------------------ names, reactions, versions
def test_farm_is_accepted_for_harem_and_unknown_names_still_fail(tmp_path):
    res = run_text(tmp_path, """\
    title: t
    rulings: [{card: Harem}]
    players:
      - name: Alice
        hand: [Farm]
      - name: Bob
    supply: {Farm: 12}
    steps:
      - play_treasures
    """)
    assert res.error is None and res.game.turn.coins == 2
    with pytest.raises(ScenarioError, match="unknown card 'Farmm'"):
        run_text(tmp_path, """\
        title: t
        rulings: [{card: Harem}]
        players:
          - name: Alice
            hand: [Farmm]
        supply: {}
        steps: [end_turn]
        """)


def test_diplomat_is_not_offered_from_a_hand_of_four(tmp_path):
    res = run_text(tmp_path, """\
    title: t
    rulings: [{card: Diplomat, ruling: 1}]
    players:
      - name: Alice
        hand: [Militia]
      - name: Bob
        hand: [Diplomat, Copper, Copper, Estate]
    supply: {Silver: 40}
    steps:
      - play: Militia
        answers: [Estate]
    """)
    assert res.error is None, res.error            # no Reaction question was asked
    assert not any("reveal a Reaction" in q.prompt for q, _ in res.game.decider.asked)


def test_masquerade_has_both_editions_current_by_default():
    assert registry.versions("Masquerade") == ["1", "2"]
    assert registry.definition(None, "Masquerade").version == "2"


# ------------------------------------------------------------------ coverage
def test_every_intrigue_card_is_defined_and_cited_by_a_scenario():
    intrigue = {f.name for f in load_facts().values() if f.set == "Intrigue"}
    assert len(intrigue) == 32
    assert intrigue <= set(registry.defined_cards())
    data = commands.coverage_data()
    row = next(r for r in data["sets"] if r["set"] == "Intrigue")
    assert row["defined"] == row["entries"] == row["cited_by_scenarios"]
    assert row["scenarios_citing"] >= 40
