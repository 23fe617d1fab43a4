"""Reactions and the rulings around them that a user relies on: the Attack window reopens after each
Reaction (Resolving Reactions and timing 2), a Reaction that comes into hand mid-trigger may still
react, a Duration that lost track of its set-aside card is discarded that turn (Blockade 4), a second
Sailor cannot replay the same card (Sailor 2), and ``expect_error`` in scenario files.

Each test replays a small scenario on the real card facts and rulings; the answers given decide
what is asked next, so a missing or extra question fails the test.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from app import config
from app.engine import scenario
from app.engine.core.errors import ScenarioError


def run_text(tmp_path: Path, text: str) -> scenario.Result:
    p = tmp_path / "s.yaml"
    p.write_text(textwrap.dedent(text), encoding="utf-8")
    return scenario.run(scenario.load(p))


MILITIA_VS_BOB = """\
title: t
rulings: [{{card: Secret Chamber, ruling: 4}}]
players:
  - name: Alice
    hand: [{attack}]
    deck: [Copper, Copper]
  - name: Bob
    hand: {bob}
    deck: [Gold, Silver, Silver, Province, Moat]
supply: {{Silver: 40, Curse: 10}}
steps:
  - play: {attack}
    answers: {answers}
"""


def _attack(tmp_path, bob: str, answers: str, attack: str = "Militia") -> scenario.Result:
    return run_text(tmp_path, MILITIA_VS_BOB.format(attack=attack, bob=bob, answers=answers))


# ------------------------------------------------------------------ the Attack window
def test_same_secret_chamber_is_offered_again_after_it_resolves(tmp_path):
    res = _attack(tmp_path, "[Secret Chamber, Copper, Copper, Estate, Estate]",
                  "[Secret Chamber, [Estate, Estate]]")
    # the window reopened: Bob is asked again, and Secret Chamber is a legal answer
    assert res.question is not None
    assert "reveal another Reaction" in res.question.prompt and res.question.player == "Bob"
    assert res.question.option_labels() == ["Secret Chamber"]


def test_revealing_secret_chamber_twice_draws_twice(tmp_path):
    res = _attack(tmp_path, "[Secret Chamber, Copper, Copper, Estate, Estate]",
                  "[Secret Chamber, [Estate, Estate], Secret Chamber, [Estate, Estate], none, [Copper, Copper]]")
    assert res.ok, res.error
    bob = res.game.player("Bob")
    # 1st reveal drew Gold, Silver; 2nd drew the two Estates put back; they went back on top again
    assert sorted(c.name for c in bob.hand) == ["Gold", "Secret Chamber", "Silver"]
    assert [c.name for c in bob.deck][:2] == ["Estate", "Estate"]


def test_declining_closes_the_window(tmp_path):
    res = _attack(tmp_path, "[Secret Chamber, Copper, Copper, Estate, Estate]", "[none, [Estate, Estate]]")
    assert res.ok, res.error
    assert [e.text for e in res.log.entries if "does not reveal" in e.text] == \
        ["Bob does not reveal a Reaction to Militia"]


def test_moat_is_not_offered_again_but_another_reaction_is(tmp_path):
    # Bob reveals Moat; a second Moat reveal would change nothing, but Secret Chamber is still offered
    res = _attack(tmp_path, "[Moat, Moat, Secret Chamber, Copper, Estate]", "[Moat]", attack="Witch")
    assert res.question is not None
    assert res.question.option_labels() == ["Secret Chamber"]
    res = _attack(tmp_path, "[Moat, Moat, Secret Chamber, Copper, Estate]", "[Moat, none]", attack="Witch")
    assert res.ok, res.error
    assert len(res.game.supply["Curse"]) == 10


def test_diplomat_is_offered_again_only_while_the_hand_has_five_cards(tmp_path):
    # 6 cards: reveal (8), discard 3 (5): offered again; reveal (7), discard 3 (4): no longer offered
    res = _attack(tmp_path, "[Diplomat, Copper, Copper, Estate, Estate, Estate]",
                  "[Diplomat, [Estate, Estate, Estate], Diplomat, [Copper, Copper, Province], Diplomat]")
    assert res.ok, res.error
    bob = res.game.player("Bob")
    assert len(bob.hand) == 3 and len(bob.discard) == 7
    assert sum("reveals Diplomat" in e.text for e in res.log.entries) == 2


def test_a_reaction_drawn_by_a_reaction_can_be_revealed(tmp_path):
    # Secret Chamber draws the Moat at the bottom of Bob's deck: Moat may still be revealed to Witch
    res = run_text(tmp_path, """\
        title: t
        rulings: [{card: Moat, ruling: 3}]
        players:
          - name: Alice
            hand: [Witch]
            deck: [Copper, Copper]
          - name: Bob
            hand: [Secret Chamber, Copper, Copper, Estate, Estate]
            deck: [Moat, Silver]
        supply: {Curse: 10}
        steps:
          - play: Witch
            answers: [Secret Chamber, [Estate, Estate], Moat, none]
        """)
    assert res.ok, res.error
    assert len(res.game.supply["Curse"]) == 10 and not res.game.player("Bob").discard


# ------------------------------------------------------------------ Reactions coming into hand mid-trigger
def test_clerk_drawn_at_start_of_turn_is_offered():
    res = scenario.run(scenario.load(config.scenarios_dir() / "prosperity-clerk-several-and-drawn.yaml"))
    assert res.ok, res.error or res.failures
    alice = res.game.player("Alice")
    assert [c.name for c in alice.in_play].count("Clerk") == 3


# ------------------------------------------------------------------ Blockade 4
BLOCKADE = """\
title: t
rulings: [{{card: Blockade, ruling: 4}}]
players:
  - name: Alice
    hand: [Blockade, Watchtower, Copper, Copper, Estate]
    deck: ["Copper*5"]
  - name: Bob
    hand: [Copper, Copper, Copper, Estate, Estate]
supply: {{Silver: 40, Curse: 10}}
steps:
  - play: Blockade
    answers: [Silver, {watchtower}]
  - end_turn
"""


def test_blockade_is_discarded_the_turn_its_card_is_moved(tmp_path):
    res = run_text(tmp_path, BLOCKADE.format(watchtower="deck"))
    assert res.ok, res.error
    alice = res.game.player("Alice")
    assert not alice.in_play and "Blockade" in [c.name for c in alice.discard]
    assert not [la for la in res.game.later if la.owner == alice.index]


def test_blockade_stays_while_its_card_is_set_aside(tmp_path):
    res = run_text(tmp_path, BLOCKADE.format(watchtower='"no"'))
    assert res.ok, res.error
    alice = res.game.player("Alice")
    assert [c.name for c in alice.in_play] == ["Blockade"]
    assert [c.name for c in alice.set_aside] == ["Silver"]


# ------------------------------------------------------------------ Sailor 2
def test_second_sailor_cannot_play_the_same_card_again():
    res = scenario.run(scenario.load(config.scenarios_dir() / "seaside-sailor-twice-two-durations.yaml"))
    assert res.ok, res.error or [f.render() for f in res.failures]
    assert res.game.turn.played["Caravan"] == 2      # two gained Caravans, each played once


# ------------------------------------------------------------------ expect_error
ILLEGAL = """\
title: t
rulings: [{{section: "Action pool, Buy pool and money pool"}}]
players:
  - name: Alice
    hand: [Smithy, Village]
    deck: [Silver, Silver, Estate]
supply: {{Silver: 40}}
steps:
  - play: Smithy
  - play: Village
{extra}"""


def test_expected_error_is_not_an_error(tmp_path):
    res = run_text(tmp_path, ILLEGAL.format(extra='expect_error: {step: 2, contains: "no Actions left"}\n'))
    assert res.ok and res.expected_error is not None and res.expected_error.step == 2


def test_other_error_text_still_fails(tmp_path):
    res = run_text(tmp_path, ILLEGAL.format(extra='expect_error: {step: 2, contains: "no Buys left"}\n'))
    assert not res.ok and "no Actions left" in str(res.error)


def test_expected_error_that_does_not_happen_is_a_failure(tmp_path):
    text = ILLEGAL.replace("hand: [Smithy, Village]", "hand: [Village, Smithy]").replace(
        "  - play: Smithy\n  - play: Village\n", "  - play: Village\n  - play: Smithy\n")
    res = run_text(tmp_path, text.format(extra='expect_error: {step: 2, contains: "no Actions left"}\n'))
    assert res.error is None and [f.what for f in res.failures] == ["an error containing"]


@pytest.mark.parametrize("bad", ['expect_error: {step: 3, contains: "x"}', "expect_error: {step: 1}",
                                 'expect_error: {step: 1, contains: ""}', "expect_error: [1]"])
def test_bad_expect_error_names_the_line(tmp_path, bad):
    with pytest.raises(ScenarioError) as e:
        run_text(tmp_path, ILLEGAL.format(extra=bad + "\n"))
    assert e.value.line == 11 and "expect_error" in e.value.message


def test_step_limit_scenario_stops_with_the_limit():
    res = scenario.run(scenario.load(config.scenarios_dir() / "prosperity-kings-court-chain-hits-step-limit.yaml"))
    assert res.ok and "step limit of 30" in res.expected_error.message
    assert res.game.steps == 31


def test_missing_answer_in_window_is_a_need_decision(tmp_path):
    res = _attack(tmp_path, "[Secret Chamber, Copper, Copper, Estate, Estate]", "[]")
    assert isinstance(res.error, ScenarioError) and "reveal a Reaction" in str(res.error)
    assert res.question.player == "Bob"
