"""Hinterlands mechanisms a user relies on, on the real card facts and Card Reference: "lower cost" with
Potion/Debt, gifts in turn order from the current player, exchanging is not gaining, Reactions that play
themselves only outside Clean-up and never twice, Scheme only for cards discarded from play, Fool's Gold
only on other players' Provinces, both editions registered, and coverage."""
from __future__ import annotations

import textwrap
from pathlib import Path

from app.engine.scenario import commands
from app.engine.core import registry
from app.engine import scenario
from app.engine.core.costs import lower_cost
from app.engine.mechanisms.reactions import others_from_current
from app.engine.core.state import Game


def run_text(tmp_path: Path, text: str) -> scenario.Result:
    p = tmp_path / "s.yaml"
    p.write_text(textwrap.dedent(text), encoding="utf-8")
    return scenario.run(scenario.load(p))


def _card(g: Game, name: str):
    return g.new_card(name, None, "supply")


def test_lower_cost_compares_coins_potion_and_debt():
    """CARD COSTS § VI: a lower cost has no amount higher and one lower (Berserker, Haggler)."""
    g = Game()
    gold, silver, golem, lab = (_card(g, n) for n in ("Gold", "Silver", "Golem", "Laboratory"))
    assert lower_cost(silver, gold)
    assert not lower_cost(gold, gold)
    assert not lower_cost(golem, gold)          # $4 and a Potion is not cheaper than $6
    assert lower_cost(silver, golem)            # $3 is cheaper than $4 and a Potion
    assert not lower_cost(lab, silver)


def test_gifts_start_with_the_current_player_and_skip_the_gainer():
    """Embassy 3 / Ill-Gotten Gains 5: not "starting left of the gainer"."""
    g = Game()
    for n in ("Alice", "Bob", "Carol", "Dan"):
        g.add_player(n)
    g.turn.player = 0
    assert [p.name for p in others_from_current(g, g.players[2])] == ["Alice", "Bob", "Dan"]
    g.turn.player = 3
    assert [p.name for p in others_from_current(g, g.players[1])] == ["Dan", "Alice", "Carol"]


def test_every_hinterlands_card_is_defined_with_both_editions_where_they_differ():
    from app.corpus.card_facts import load_facts

    names = {f.name for f in load_facts().values() if f.set == "Hinterlands"}
    assert len(names) == 35
    assert names <= set(registry.defined_cards())
    for changed in ("Haggler", "Highway", "Farmland", "Trader"):
        assert registry.versions(changed) == ["1", "2"], changed
        assert registry.definition(None, changed).version == "2"
    row = next(r for r in commands.coverage_data()["sets"] if r["set"] == "Hinterlands")
    assert row["defined"] == row["entries"] and row["cited_by_scenarios"] == row["entries"]


def test_trader_exchange_is_not_a_gain_of_silver(tmp_path):
    """Trader 6: the Silver is not gained (no "gains Silver"), and Watchtower has lost track of the Village."""
    res = run_text(tmp_path, """\
    title: t
    rulings: [{card: Trader, ruling: 6}]
    players:
      - name: Alice
        hand: [Gold, Trader, Watchtower]
      - name: Bob
    supply: {Village: 10, Silver: 40}
    steps:
      - play: Gold
      - buy: Village
        answers: [[Trader (Reaction), Watchtower (Reaction)], "yes"]
    expect:
      supply: {Village: 10, Silver: 39}
      Alice: {discard: [Silver], hand: [Trader, Watchtower]}
    """)
    assert res.error is None, res.error
    assert not res.failures, [f.render() for f in res.failures]
    lines = res.log.lines()
    assert not any("gains Silver" in line for line in lines)
    assert any("Village has already been moved, so Watchtower" in line for line in lines)


def test_trader_pre_2020_with_no_silver_left_gains_nothing(tmp_path):
    """Trader 12 (pre-2020): revealing Trader with the Silver pile empty: neither card is gained."""
    res = run_text(tmp_path, """\
    title: t
    rulings: [{card: Trader, ruling: 12, version: pre-2020}]
    versions: {Trader: "1"}
    players:
      - name: Alice
        hand: [Witch]
      - name: Bob
        hand: [Trader]
    supply: {Curse: 10, Silver: 0}
    steps:
      - play: Witch
        answers: ["yes"]
    expect:
      supply: {Curse: 10}
      Bob: {discard: []}
    """)
    assert res.error is None, res.error
    assert not res.failures, [f.render() for f in res.failures]


def test_tunnel_and_weaver_do_nothing_in_cleanup(tmp_path):
    """Tunnel 2 / Weaver 2: "other than during Clean-up" - no question is asked in Clean-up."""
    res = run_text(tmp_path, """\
    title: t
    rulings: [{card: Tunnel, ruling: 2}]
    players:
      - name: Alice
        hand: [Tunnel, Weaver, Trail]
        deck: ["Copper*5"]
      - name: Bob
    supply: {Gold: 30}
    steps:
      - end_turn: true
    expect:
      supply: {Gold: 30}
      Alice: {discard: [Tunnel, Weaver, Trail]}
    """)
    assert res.error is None, res.error
    assert not res.failures, [f.render() for f in res.failures]


def test_scheme_ignores_cards_discarded_from_hand(tmp_path):
    """Scheme 1: only Action cards discarded *from play*; an Action left in hand is discarded normally."""
    res = run_text(tmp_path, """\
    title: t
    rulings: [{card: Scheme, ruling: 1}]
    players:
      - name: Alice
        hand: [Scheme, Village]
        deck: ["Copper*8"]
      - name: Bob
    supply: {}
    steps:
      - play: Scheme
      - end_turn: true
        answers: ["yes"]
    expect:
      Alice: {hand: [Scheme, "Copper*4"], discard: [Village, Copper]}
    """)
    assert res.error is None, res.error
    assert not res.failures, [f.render() for f in res.failures]


def test_fools_gold_does_not_react_to_own_province_or_other_cards(tmp_path):
    """Fool's Gold reacts when *another* player gains a Province: no question on Alice's own Province."""
    res = run_text(tmp_path, """\
    title: t
    rulings: [{card: Fool's Gold, ruling: 3}]
    players:
      - name: Alice
        hand: [Gold, Gold, Gold, Fool's Gold]
      - name: Bob
        hand: [Fool's Gold]
    supply: {Province: 8, Duchy: 8, Gold: 30}
    steps:
      - play: [Gold, Gold, Gold]
      - buy: Province
        answers: ["no"]
    expect:
      Alice: {hand: [Fool's Gold]}
      Bob: {hand: [Fool's Gold]}
    """)
    assert res.error is None, res.error
    assert not res.failures, [f.render() for f in res.failures]


def test_trail_trashed_plays_from_the_trash(tmp_path):
    """Trail 3: when you trash it, you may play it (from the trash into play)."""
    res = run_text(tmp_path, """\
    title: t
    rulings: [{card: Trail, ruling: 3}]
    players:
      - name: Alice
        hand: [Chapel, Trail]
        deck: [Gold]
      - name: Bob
    supply: {}
    steps:
      - play: Chapel
        answers: [Trail, "yes"]
    expect:
      actions: 1
      trash: []
      Alice: {in_play: [Chapel, Trail], hand: [Gold]}
    """)
    assert res.error is None, res.error
    assert not res.failures, [f.render() for f in res.failures]


def test_guard_dog_on_own_turn_counts_hand_after_drawing(tmp_path):
    """Guard Dog 4: with 6 cards after drawing two, no more cards."""
    res = run_text(tmp_path, """\
    title: t
    rulings: [{card: Guard Dog, ruling: 4}]
    players:
      - name: Alice
        hand: [Guard Dog, Copper, Copper, Copper, Copper, Copper]
        deck: [Silver, Silver, Gold, Gold]
      - name: Bob
    supply: {}
    steps:
      - play: Guard Dog
    expect:
      Alice: {deck: [Gold, Gold]}
    """)
    assert res.error is None, res.error
    assert not res.failures, [f.render() for f in res.failures]
