"""Seaside mechanisms a user relies on: mats and tokens, extra turns, "until your next turn"
abilities, attack protection, Durations under throne-rooms, and both versions of changed cards."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from app import config
from app.corpus.card_facts import load_facts
from app.engine.scenario import commands
from app.engine.core import registry
from app.engine import scenario
from app.engine.core.errors import ScenarioError

SEASIDE = sorted(config.scenarios_dir().glob("seaside-*.yaml"))


def run_text(tmp_path: Path, text: str) -> scenario.Result:
    p = tmp_path / "s.yaml"
    p.write_text(textwrap.dedent(text), encoding="utf-8")
    return scenario.run(scenario.load(p))


def ok(res: scenario.Result) -> scenario.Result:
    assert res.error is None, str(res.error)
    assert not res.failures, [f.render() for f in res.failures]
    return res


def texts(res: scenario.Result) -> list[str]:
    return [e.text for e in res.log.entries]


# ------------------------------------------------------------------ every card, every scenario
def test_every_seaside_card_has_a_definition_and_a_scenario():
    seaside = {f.name for f in load_facts().values() if f.set.startswith("Seaside")}
    assert len(seaside) == 35
    assert seaside <= set(registry.defined_cards())
    named = set()
    for path in SEASIDE:
        sc = scenario.load(path)
        named |= {r["card"] for r in sc.rulings if "card" in r}
    assert seaside <= named, sorted(seaside - named)
    row = next(r for r in commands.coverage_data()["sets"] if r["set"] == "Seaside")
    assert row["defined"] == row["entries"] == 35


def test_changed_cards_have_both_versions_and_the_current_one_is_default():
    for name in ("Lighthouse", "Treasury", "Embargo", "Outpost"):
        assert registry.versions(name) == ["1", "2"], name
        assert registry.definition(None, name).version == "2"


# ------------------------------------------------------------------ mats and tokens
NV = """\
title: t
rulings: [{card: Native Village, ruling: 1}]
players:
  - name: Alice
    hand: [Native Village]
    deck: [Gold]
    mats: {Native Village: [Duchy]}
    tokens: {Pirate Ship: 3}
  - name: Bob
supply: {Silver: 40}
steps:
  - play: Native Village
    answers: [put the top card of your deck on the mat]
expect:
  Alice: {mats: {Native Village: [Duchy, Gold]}, tokens: {Pirate Ship: 3}, vp: 3}
"""


def test_mat_cards_are_set_up_checked_and_scored(tmp_path):
    res = ok(run_text(tmp_path, NV))
    # the card put on the mat face down is not named in the narration
    assert "Alice puts a card face down on their Native Village mat" in texts(res)


def test_wrong_mat_expectation_fails_with_expected_and_actual(tmp_path):
    res = run_text(tmp_path, NV.replace("[Duchy, Gold]}", "[Duchy]}"))
    assert res.error is None and len(res.failures) == 1
    assert "Alice's Native Village mat" in res.failures[0].render() and "Gold" in res.failures[0].render()


def test_bad_mat_card_names_file_and_line(tmp_path):
    with pytest.raises(ScenarioError) as e:
        run_text(tmp_path, NV.replace("[Duchy]}", "[Duchee]}"))
    assert e.value.line == 7 and "Duchy" in e.value.message


def test_embargo_tokens_are_separate_abilities_for_the_rest_of_the_game(tmp_path):
    res = ok(scenario.run(scenario.load(config.scenarios_dir() / "seaside-embargo-pre-2019-two-tokens.yaml")))
    g = res.game
    assert g.pile_tokens["Silver"]["Embargo"] == 2
    tokens = [la for la in g.later if la.label == "Embargo token on Silver"]
    assert len(tokens) == 2 and all(la.until == "game" and la.anyone for la in tokens)


# ------------------------------------------------------------------ extra turns
def test_outpost_never_gives_a_third_turn_in_a_row():
    for name in ("seaside-outpost-no-third-turn.yaml", "seaside-outpost-first-edition-two-outposts.yaml"):
        res = ok(scenario.run(scenario.load(config.scenarios_dir() / name)))
        starts = [t for t in texts(res) if "starts (1 Action" in t]
        assert starts == ["Alice's extra turn starts (1 Action, 1 Buy, empty money pool)",
                          "Bob's turn 1 starts (1 Action, 1 Buy, empty money pool)"], name


def test_extra_turn_is_not_taken_when_the_game_ends():
    res = ok(scenario.run(scenario.load(config.scenarios_dir() / "seaside-outpost-game-end-no-extra-turn.yaml")))
    assert res.game.over and not any("extra turn starts" in t for t in texts(res))


# ------------------------------------------------------------------ until your next turn
def test_ongoing_abilities_end_at_the_start_of_the_owners_turn_before_start_of_turn_abilities():
    res = ok(scenario.run(scenario.load(config.scenarios_dir() / "seaside-lighthouse-vs-witch.yaml")))
    t = texts(res)
    end = next(i for i, x in enumerate(t) if "so these end before any start-of-turn ability" in x)
    plus = next(i for i, x in enumerate(t) if x == "Start of turn: Lighthouse: +$1")
    assert end < plus
    assert not [la for la in res.game.later if la.until == "next_turn"]


LIGHTHOUSE = """\
title: t
rulings: [{card: Lighthouse, ruling: 2}]
versions: {Lighthouse: "VERSION"}
players:
  - name: Alice
    hand: [Lighthouse, Copper, Copper, Copper, Copper]
    deck: ["Copper*10"]
  - name: Bob
    hand: [Witch, Copper, Copper, Copper, Copper]
    deck: ["Copper*10"]
supply: {Curse: 10, Silver: 40}
steps:
  - play: Lighthouse
  - end_turn
  - play: Witch
  - end_turn
expect:
  supply: {Curse: 10}
"""


@pytest.mark.parametrize("version,cite", [("2", "Lighthouse 3"), ("1", "Lighthouse 5")])
def test_both_lighthouse_versions_protect_on_the_next_players_turn(tmp_path, version, cite):
    """2022: an ongoing ability from play until your next turn starts (Lighthouse 3-4); pre-2022: while in play (5)."""
    res = ok(run_text(tmp_path, LIGHTHOUSE.replace("VERSION", version)))
    line = next(e for e in res.log.entries if e.text.startswith("Witch does not affect Alice"))
    assert cite in line.render()
    # at the start of Alice's next turn no protection is pending any more (the 2022 one has ended)
    assert not [la for la in res.game.later if la.trigger == "attack_played"]


def test_attack_protected_player_is_not_hit_by_the_ongoing_part(tmp_path):
    text = """\
    title: t
    rulings: [{card: Corsair, ruling: 1}]
    players:
      - name: Alice
        hand: [Corsair]
        deck: ["Copper*10"]
      - name: Bob
        hand: [Moat, Silver, Copper, Copper, Copper]
        deck: ["Copper*10"]
    supply: {Silver: 40}
    steps:
      - play: Corsair
        answers: [Moat]
      - end_turn
      - play: [Silver]
    expect:
      trash: []
      coins: 2
    """
    ok(run_text(tmp_path, text))


# ------------------------------------------------------------------ Durations and throne-rooms
def test_throne_room_stays_with_a_tactician_that_set_up_only_once():
    res = ok(scenario.run(scenario.load(config.scenarios_dir() / "seaside-tactician-throne-room.yaml")))
    # only one start-of-turn ability: +5 Cards happened once
    assert sum("Start of turn: Tactician" in t for t in texts(res)) == 1


def test_kings_court_on_a_duration_does_the_next_turn_part_three_times():
    res = ok(scenario.run(scenario.load(config.scenarios_dir() / "seaside-kings-court-merchant-ship.yaml")))
    assert sum(t == "Start of turn: Merchant Ship: +$2" for t in texts(res)) == 3
