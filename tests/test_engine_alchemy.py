"""Alchemy mechanisms a user relies on, on the real card facts and Card Reference: Potion costs need a
Potion in the money pool, "up to $5" never offers a Potion card, a Possessed turn (who decides, who gains,
when-gain abilities, turn order afterwards, no Possessed turn once the game is over), Golem and Vineyard
edge cases, and Alchemy's coverage."""
from __future__ import annotations

import textwrap
from pathlib import Path

from app.engine.core import activities as act
from app.engine.scenario import commands
from app.engine.core import narrate, registry
from app.engine import scenario
from app.engine.core.decisions import Decider
from app.engine.core.state import Game


def run_text(tmp_path: Path, text: str) -> scenario.Result:
    p = tmp_path / "s.yaml"
    p.write_text(textwrap.dedent(text), encoding="utf-8")
    return scenario.run(scenario.load(p))


def _game() -> Game:
    registry.defined_cards()     # load every set
    g = Game()
    g.log, g.decider = narrate.Log(), Decider()
    g.add_player("Alice")
    g.add_player("Bob")
    for name, n in (("Golem", 10), ("Silver", 40), ("Potion", 16)):
        g.set_pile(name, n)
    return g


def test_a_potion_cost_card_is_buyable_only_with_a_potion_in_the_money_pool():
    g = _game()
    g.turn.coins, g.turn.buys = 10, 2
    assert "Golem" not in act.buyable(g) and "Silver" in act.buyable(g)
    g.put(g.current, "hand", ["Potion"])
    act.play(g, g.current, g.current.hand[0])
    assert g.turn.potions == 1 and "Golem" in act.buyable(g)
    act.buy(g, g.current, "Golem")
    assert g.turn.potions == 0 and g.turn.coins == 6
    assert "Golem" not in act.buyable(g)      # the one Potion is spent: a second Golem needs a second Potion


def test_university_never_offers_a_card_with_potion_in_its_cost(tmp_path):
    res = run_text(tmp_path, """\
    title: University's choice
    rulings: [{card: University, ruling: 1}]
    players:
      - name: Alice
        hand: [University]
      - name: Bob
    supply: {Golem: 10, Scrying Pool: 10, Laboratory: 10, Village: 10, Gold: 30}
    steps:
      - play: University
    """)
    q = res.question
    assert q is not None and q.min == 0
    assert sorted(q.option_labels()) == ["Laboratory", "Village"]


def test_possessed_turn_questions_go_to_the_possessor(tmp_path):
    res = run_text(tmp_path, """\
    title: Who decides
    rulings: [{card: Possession, ruling: 2}]
    players:
      - name: Alice
        hand: [Possession]
        deck: ["Copper*5"]
      - name: Bob
        hand: [Chapel, Estate, Copper]
        deck: ["Copper*5"]
    supply: {Chapel: 10}
    steps:
      - play: Possession
      - end_turn
      - play: Chapel
    """)
    assert res.question is not None
    assert res.question.player == "Alice (deciding for Bob)"


def test_possessed_player_triggers_no_when_gain_ability(tmp_path):
    """Bob's Royal Seal would ask to topdeck a card Bob gains; Bob gains nothing (Possession 6)."""
    res = run_text(tmp_path, """\
    title: Royal Seal on a Possessed turn
    rulings: [{card: Possession, ruling: 6}]
    players:
      - name: Alice
        hand: [Possession]
        deck: ["Copper*5"]
      - name: Bob
        hand: [Royal Seal, Gold]
        deck: ["Copper*5"]
    supply: {Gold: 30, Silver: 40}
    steps:
      - play: Possession
      - end_turn
      - play_treasures
      - buy: Silver
    """)
    assert res.error is None, str(res.error)
    assert not any("Royal Seal" in q.prompt for q, _ in res.game.decider.asked)
    assert [c.name for c in res.game.player("Alice").discard] == ["Possession", "Silver"]
    assert res.game.player("Bob").discard == []


def test_after_a_possessed_turn_the_possessed_player_then_the_next_player_take_their_turns(tmp_path):
    res = run_text(tmp_path, """\
    title: Turn order with three players
    rulings: [{card: Possession, ruling: 4}]
    players:
      - name: Alice
        hand: [Possession]
        deck: ["Copper*10"]
      - name: Bob
        deck: ["Copper*15"]
      - name: Carol
        deck: ["Copper*10"]
    supply: {Silver: 40}
    steps:
      - play: Possession
      - end_turn
      - end_turn
      - end_turn
    """)
    g = res.game
    starts = [e.text for e in res.log.entries if "starts (" in e.text]
    assert starts == ["Bob's extra turn starts (1 Action, 1 Buy, empty money pool)",
                      "Bob's turn 1 starts (1 Action, 1 Buy, empty money pool)",
                      "Carol's turn 1 starts (1 Action, 1 Buy, empty money pool)"]
    assert g.player("Bob").turns == 1     # the Possessed turn is an extra turn: not counted for the tie-breaker


def test_no_possessed_turn_when_the_game_ends(tmp_path):
    res = run_text(tmp_path, """\
    title: Possession and the game end
    rulings: [{card: Possession, ruling: 1}]
    players:
      - name: Alice
        hand: [Possession, Gold, Gold, Gold, Copper]
      - name: Bob
    supply: {Province: 1}
    steps:
      - play: Possession
      - play_treasures
      - buy: Province
      - end_turn
    """)
    assert res.game.over
    assert not any("is Possessed" in e.text for e in res.log.entries)


def test_golem_with_one_action_in_the_deck_plays_it_and_discards_the_rest(tmp_path):
    res = run_text(tmp_path, """\
    title: Golem runs out
    rulings: [{card: Golem, ruling: 1}]
    players:
      - name: Alice
        hand: [Golem]
        deck: [Estate, Golem, Festival, Copper]
      - name: Bob
    supply: {Silver: 40}
    steps:
      - play: Golem
    """)
    assert res.error is None, str(res.error)
    alice = res.game.player("Alice")
    assert sorted(c.name for c in alice.in_play) == ["Festival", "Golem"]
    assert sorted(c.name for c in alice.discard) == ["Copper", "Estate", "Golem"]
    assert res.game.turn.actions == 2


def test_vineyard_counts_action_cards_including_action_victory_cards():
    g = _game()
    p = g.players[0]
    g.put(p, "deck", ["Vineyard", "Great Hall", "Golem", "Village", "Copper"])
    assert act.score(g, p) == 1 + 1          # 3 Actions (Great Hall is one) -> 1 VP; Great Hall's own 1 VP
    g.put(p, "discard", ["Village", "Village"])
    assert act.score(g, p) == 1 + 1          # 5 Actions still round down to 1


def test_alchemy_is_complete_in_coverage():
    row = next(r for r in commands.coverage_data()["sets"] if r["set"] == "Alchemy")
    assert row["entries"] == 12
    assert row["defined"] == row["entries"] and row["cited_by_scenarios"] == row["entries"]
    assert registry.versions("Alchemist") == ["1", "2"] and registry.versions("Herbalist") == ["1", "2"]
    assert registry.definition(None, "Potion") is not None


def test_an_extra_turn_given_on_a_possessed_turn_is_not_possessed():
    """Possession 12: Bob's Outpost turn after his Possessed turn is his own (Alice decides nothing in it)."""
    from app import config

    res = scenario.run(scenario.load(config.scenarios_dir() / "alchemy-possession-outpost-extra-turn-not-controlled.yaml"))
    assert res.ok, res.error or [f.render() for f in res.failures]
    assert sum("is Possessed" in e.text for e in res.log.entries) == 1
    assert not hasattr(res.game.decider, "_possessor")     # the possessor's control ended with the Possessed turn
