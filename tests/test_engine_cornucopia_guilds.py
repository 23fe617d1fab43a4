"""Cornucopia & Guilds: what the scenarios can't say - every entry defined, the special piles, editions, bad input."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.engine import scenario
from app.engine.core import registry
from app.engine.core.errors import ScenarioError
from app.engine.mechanisms import prizes
from app.engine.scenario import commands
from tests.definition_text import CODE_WORDS_OR_PRINTED, cards_in, unplain_lines

ROOT = Path(__file__).resolve().parents[1]


def _run(doc: str):
    return scenario.run(scenario.loads(doc, "test.yaml"))


def _doc(body: str, supply: str = "{Tournament: 10, Workshop: 10, Province: 8, Duchy: 8}") -> str:
    return f"""
title: t
rulings: [{{card: Tournament}}]
supply: {supply}
{body}
"""


def test_every_entry_is_defined_and_cited():
    row = next(r for r in commands.coverage_data()["sets"] if r["set"] == "Cornucopia & Guilds")
    assert row["entries"] >= 26
    assert row["defined"] == row["entries"]
    assert row["cited_by_scenarios"] == row["entries"]


def test_prizes_are_defined():
    assert set(prizes.PRIZES) <= set(registry.defined_cards())


@pytest.mark.parametrize("card", ["Doctor", "Herald", "Masterpiece", "Stonemason", "Merchant Guild", "Princess"])
def test_changed_cards_have_both_versions_and_2022_is_the_default(card):
    assert registry.versions(card) == ["1", "2"]
    assert registry.definition(None, card).version == "2"


def test_tournament_sets_up_the_prize_pile_outside_the_supply():
    res = _run(_doc("""players: [{name: Alice, hand: [Copper]}, {name: Bob}]
steps: [end_turn]"""))
    assert res.error is None
    g = res.game
    assert sorted(c.name for c in prizes.prize_pile(g)) == sorted(prizes.PRIZES)
    assert not set(prizes.PRIZES) & set(g.supply)
    assert all(c.zone == "non_supply" and c.pile == "Prizes" for c in prizes.prize_pile(g))


def test_a_prize_cannot_be_bought():
    res = _run(_doc("""players: [{name: Alice, hand: [Gold]}, {name: Bob}]
steps: [play_treasures, {buy: Diadem}]"""))
    assert res.error is not None and "not in the Supply" in res.error.message


def test_a_prize_is_not_gainable_from_the_supply():
    """Workshop gains from the Supply: a $0 Prize is never offered."""
    res = _run(_doc("""players: [{name: Alice, hand: [Workshop]}, {name: Bob}]
steps: [{play: Workshop}]"""))
    assert res.question is not None
    assert not set(res.question.option_labels()) & set(prizes.PRIZES)


def test_an_empty_prize_pile_is_not_an_empty_supply_pile():
    res = _run(_doc("""prizes: []
players: [{name: Alice, hand: [Copper]}, {name: Bob}]
steps: [end_turn]""", supply="{Tournament: 10, Estate: 0, Duchy: 0}"))
    assert res.error is None and not res.game.over      # two empty Supply piles and an empty Prize pile


def test_prizes_setup_key_rejects_a_non_prize():
    with pytest.raises(ScenarioError, match=r"prizes\[1\]: expected one of Bag of Gold, .*found 'Gold'"):
        _run(_doc("""prizes: [Gold]
players: [{name: Alice}]
steps: [end_turn]"""))


def test_bane_is_added_to_the_supply_when_not_listed_and_must_cost_2_or_3():
    res = _run(_doc("""bane: Moat
players: [{name: Alice}]
steps: [end_turn]""", supply="{Young Witch: 10}"))
    assert res.error is None and len(res.game.supply["Moat"]) == 10 and res.game.bane == "Moat"
    with pytest.raises(ScenarioError, match=r":5: bane: expected .*found 'Smithy'"):
        _run(_doc("""bane: Smithy
players: [{name: Alice}]
steps: [end_turn]""", supply="{Young Witch: 10}"))


def test_baker_setup_and_the_coffers_key():
    res = _run(_doc("""players: [{name: Alice, coffers: 5}, {name: Bob}]
steps: [end_turn]""", supply="{Baker: 10}"))
    alice, bob = res.game.players
    assert alice.tokens["Coffers"] == 5          # the scenario's own count wins over Baker's setup
    assert bob.tokens["Coffers"] == 1


@pytest.mark.parametrize("value", [-1, "two", True])
def test_coffers_setup_rejects_bad_values(value):
    with pytest.raises(ScenarioError, match=r":5: players\[1\]\.coffers: "):
        _run(_doc(f"""players: [{{name: Alice, coffers: {value}}}]
steps: [end_turn]"""))


@pytest.mark.parametrize("step, message", [
    ("{buy_overpay: {card: Silver, overpay: 1}}", "has no overpay ability"),
    ("{buy_overpay: {card: Nonesuch, overpay: 1}}", "not a Supply pile"),
])
def test_bad_overpay_steps_are_refused_with_a_reason(step, message):
    res = _run(_doc(f"""players: [{{name: Alice, hand: [Gold, Gold], coffers: 1}}, {{name: Bob}}]
steps: [play_treasures, {step}]""", supply="{Masterpiece: 10, Silver: 40}"))
    assert res.error is not None and message in res.error.message


@pytest.mark.parametrize("step, message", [
    ("{buy_overpay: {card: Masterpiece, overpay: 0}}", r"steps\[2\]\.buy_overpay\.overpay: 0: less than the minimum of 1"),
    ("{buy_overpay: Masterpiece}", r"steps\[2\]: expected .*found \{'buy_overpay': 'Masterpiece'\}"),
    ("{spend_coffers: 0}", r"steps\[2\]\.spend_coffers: 0: less than the minimum of 1"),
])
def test_malformed_overpay_and_coffers_steps_are_refused_when_the_file_loads(step, message):
    """The registered steps' schemas refuse a malformed value at load, at its line (before anything runs)."""
    with pytest.raises(ScenarioError, match=message):
        _run(_doc(f"""players: [{{name: Alice, hand: [Gold, Gold], coffers: 1}}, {{name: Bob}}]
steps: [play_treasures, {step}]""", supply="{Masterpiece: 10, Silver: 40}"))


def test_coffers_cannot_be_spent_on_another_players_turn():
    res = _run(_doc("""players: [{name: Alice}, {name: Bob, coffers: 2}]
steps: [end_turn, end_turn, {spend_coffers: 1}]"""))
    assert res.error is not None and "has 0 Coffers" in res.error.message   # Alice's turn again: her Coffers


def test_the_format_docs_example_replays():
    text = (ROOT / "docs/scenario-format.md").read_text(encoding="utf-8")
    section = text[text.index("## Cornucopia & Guilds"):]
    block = re.search(r"```yaml\n(.*?)```", section, re.S).group(1)
    res = _run(block)
    assert res.ok, (res.error, [f.render() for f in res.failures])


def test_card_pages_say_coffers_in_words():
    from app.web.definition_words import definition_words
    lines = [x["text"] for v in definition_words("Candlestick Maker") for x in v["lines"]]
    assert "+1 Coffers" in lines


def test_the_sandbox_sets_up_a_bane_for_young_witch():
    from app.web import sandbox
    form = {**sandbox.default_form(), "kingdom": "Young Witch, Village, Moat",
            "p1_hand": "Young Witch, Copper*4", "p2_hand": "Copper*5"}
    state = sandbox.from_setup_form(form)
    assert state["bane"] not in ("Young Witch", "Village", "Moat")
    outcome, err = sandbox.run(state)
    assert err is None and outcome.error is None
    assert outcome.final["supply"][state["bane"]] == 10


def test_baker_setup_keeps_a_tokens_count_the_scenario_gives():
    res = _run(_doc("""players: [{name: Alice, tokens: {Coffers: 0}}, {name: Bob}]
steps: [end_turn]""", supply="{Baker: 10}"))
    assert [p.tokens["Coffers"] for p in res.game.players] == [0, 1]


def test_every_cornucopia_guilds_definition_reads_as_plain_steps():
    cards = cards_in("Cornucopia & Guilds".__eq__)
    assert len(cards) >= 31
    bad = unplain_lines(cards, CODE_WORDS_OR_PRINTED)
    assert not bad, bad
