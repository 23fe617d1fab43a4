"""Adventures Kingdom cards, what scenarios cannot express: every Card Reference entry has a definition,
the Traveller upgrade piles are outside the Supply (not buyable, not counted for the game end), the
editions can be chosen, Reserve cards are offered in their windows only, and bad ``call``/``non_supply``
input is refused with a clear message."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from app.corpus.card_facts import load_facts
from app.engine import scenario
from app.engine.core import activities as act
from app.engine.core import narrate, registry
from app.engine.core.decisions import Decider, NeedDecision
from app.engine.core.errors import ScenarioError
from app.engine.core.state import Game
from app.engine.mechanisms.travellers import line_of

KINGDOM = sorted(f.name for f in load_facts().values() if f.set == "Adventures" and "Event" not in f.types)


def run_text(tmp_path: Path, text: str) -> scenario.Result:
    p = tmp_path / "s.yaml"
    p.write_text(textwrap.dedent(text), encoding="utf-8")
    return scenario.run(scenario.load(p))


def _game(*piles: tuple[str, int]) -> Game:
    registry.defined_cards()
    g = Game()
    g.log, g.decider = narrate.Log(), Decider()
    g.add_player("Alice")
    g.add_player("Bob")
    for name, n in piles:
        g.set_pile(name, n)
        d = registry.definition(g, name)
        if d is not None and d.setup is not None:
            d.setup(g)
    return g


def test_every_adventures_kingdom_card_and_upgrade_has_a_definition():
    assert len(KINGDOM) == 38
    missing = [n for n in KINGDOM if registry.definition(None, n) is None]
    assert missing == []


def test_both_editions_are_selectable_where_the_text_changed():
    for name in ("Haunted Woods", "Swamp Hag", "Messenger", "Port", "Bridge Troll", "Storyteller"):
        assert registry.versions(name) == ["1", "2"], name
        assert registry.definition(None, name).version == "2"      # the current printing is the default


def test_upgrade_piles_are_set_up_beside_the_supply_and_cannot_be_bought():
    g = _game(("Page", 10), ("Peasant", 10), ("Silver", 40))
    assert line_of("Page") == ["Treasure Hunter", "Warrior", "Hero", "Champion"]
    assert {n: len(p) for n, p in g.non_supply.items()} == {
        "Treasure Hunter": 5, "Warrior": 5, "Hero": 5, "Champion": 5,
        "Soldier": 5, "Fugitive": 5, "Disciple": 5, "Teacher": 5}
    g.turn.coins = 10
    assert set(act.buyable(g)) == {"Page", "Peasant", "Silver"}
    # an empty upgrade pile is not an empty Supply pile (game end, § II)
    g.non_supply["Champion"].clear()
    g.non_supply["Teacher"].clear()
    g.non_supply["Hero"].clear()
    assert act.game_end_reached(g) is None


def test_a_traveller_discarded_from_play_asks_to_exchange_and_the_upgrade_is_not_gained(tmp_path):
    res = run_text(tmp_path, """\
    title: Page exchanged
    rulings: [{card: Page, ruling: 1}]
    players:
      - name: Alice
        hand: [Page]
        deck: ["Copper*6"]
      - name: Bob
    supply: {Page: 10}
    steps:
      - play: Page
      - end_turn
    """)
    assert res.question is not None and res.question.prompt == "exchange Page for Treasure Hunter?"
    g = res.game
    assert not g.turn.gained       # nothing was gained before the question


def test_wine_merchant_is_not_offered_with_less_than_2_unspent_and_guide_not_after_an_action(tmp_path):
    res = run_text(tmp_path, """\
    title: windows
    rulings: [{card: Wine Merchant, ruling: 3}]
    players:
      - name: Alice
        hand: [Village, Copper]
        deck: [Estate]
        mats: {Tavern: [Wine Merchant, Guide]}
      - name: Bob
    supply: {Silver: 40}
    steps:
      - play: Village
      - play_treasures
      - end_turn
    """)
    assert res.ok, res.error
    assert [c.name for c in res.game.players[0].mats["Tavern"]] == ["Wine Merchant", "Guide"]


def test_the_call_step_refuses_cards_not_on_the_mat_and_windows_that_are_not_start_of_turn(tmp_path):
    base = """\
    title: call
    rulings: [{card: Guide, ruling: 1}]
    players:
      - name: Alice
        mats: {Tavern: [Duplicate]}
      - name: Bob
    supply: {Silver: 40}
    steps:
      - call: %s
    """
    res = run_text(tmp_path, base % "Guide")
    assert res.error is not None and "has no Guide on their Tavern mat" in res.error.message
    res = run_text(tmp_path, base % "Duplicate")
    assert res.error is not None and "offered as a question" in res.error.message


def test_non_supply_setup_needs_a_traveller_pile(tmp_path):
    with pytest.raises(ScenarioError, match="no 'Champion' pile outside the Supply"):
        run_text(tmp_path, """\
    title: bad non_supply
    rulings: [{card: Page, ruling: 1}]
    players:
      - name: Alice
      - name: Bob
    supply: {Silver: 40}
    non_supply: {Champion: 2}
    steps: []
    """)


def test_distant_lands_counts_only_the_copies_on_the_tavern_mat():
    g = _game(("Distant Lands", 8))
    alice = g.players[0]
    g.put(alice, "hand", ["Distant Lands"])
    g.put(alice, "deck", ["Distant Lands"])
    g.put(alice, "mat:Tavern", ["Distant Lands"])
    assert act.score(g, alice) == 4


def test_a_port_gained_by_port_does_not_chain(tmp_path):
    g = _game(("Port", 10))
    act.gain(g, g.players[0], "Port")
    assert len(g.supply["Port"]) == 8 and len(g.players[0].discard) == 2


def test_royal_carriage_is_not_offered_for_a_card_that_left_play():
    g = _game(("Duchy", 8))
    alice = g.players[0]
    g.put(alice, "hand", ["Feast"])
    g.put(alice, "mat:Tavern", ["Royal Carriage"])
    g.decider.load([])
    act.play(g, alice, alice.hand[0])        # Feast trashes itself: no question (NeedDecision) about Royal Carriage
    assert [c.name for c in g.trash] == ["Feast"] and [c.name for c in alice.discard] == ["Duchy"]


def test_a_question_is_asked_for_each_window_with_its_legal_answers():
    g = _game(("Silver", 40))
    alice = g.players[0]
    g.put(alice, "mat:Tavern", ["Duplicate"])
    with pytest.raises(NeedDecision) as err:
        act.gain(g, alice, "Silver")
    assert err.value.question.legal_answers() == ["yes", "no"]
    assert "Duplicate" in err.value.question.prompt


def test_every_adventures_definition_reads_as_plain_steps():
    """Card pages say how the sandbox plays each card in players' words: no code words, no
    "As printed" fallback (the word "none" in a step is English, not Python's None)."""
    from tests.definition_text import CODE_WORDS_OR_PRINTED, cards_in, unplain_lines

    cards = cards_in("Adventures".__eq__)
    assert len(cards) >= 50
    bad = unplain_lines(cards, CODE_WORDS_OR_PRINTED)
    assert not bad, bad
