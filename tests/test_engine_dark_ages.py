"""Dark Ages behaviour scenarios can't state on their own: every entry has a definition, the special piles
are set up as § I Special setup says (the Ruins pile of 50 shuffled Ruins cut to the Curse count, one
shuffled Knights pile, Spoils/Madman/Mercenary outside the Supply, Shelters instead of the starting Estates),
piles outside the Supply are never bought and do not end the game, and the earlier versions are selectable."""
from __future__ import annotations

import textwrap
from collections import Counter
from pathlib import Path

import pytest

from app.engine import scenario
from app.engine.core import activities as act
from app.engine.core import narrate, registry
from app.engine.core.decisions import Decider
from app.engine.core.errors import ScenarioError
from app.engine.core.state import Game
from app.engine.mechanisms import knights, nonsupply, ruins, shelters
from app.engine.scenario import commands

DARK_AGES_ENTRIES = (
    "Altar, Armory, Band of Misfits, Bandit Camp, Beggar, Catacombs, Count, Counterfeit, Cultist, Death Cart, "
    "Feodum, Forager, Fortress, Graverobber, Hermit, Hunting Grounds, Ironmonger, Junk Dealer, Madman, Marauder, "
    "Market Square, Mercenary, Mystic, Pillage, Poor House, Procession, Rats, Rebuild, Rogue, Sage, Scavenger, "
    "Spoils, Squire, Storeroom, Urchin, Vagrant, Wandering Minstrel").split(", ")


def run_text(tmp_path: Path, text: str) -> scenario.Result:
    p = tmp_path / "s.yaml"
    p.write_text(textwrap.dedent(text), encoding="utf-8")
    return scenario.run(scenario.load(p))


def _game(players: int = 2, seed: int = 0) -> Game:
    registry.defined_cards()
    g = Game(seed=seed)
    g.log, g.decider = narrate.Log(), Decider()
    for i in range(players):
        g.add_player("ABCDEF"[i])
    return g


def test_every_dark_ages_entry_and_special_pile_card_has_a_definition():
    names = DARK_AGES_ENTRIES + list(ruins.KINDS) + list(shelters.SHELTERS) + list(knights.KNIGHTS)
    missing = [n for n in names if registry.definition(None, n) is None]
    assert missing == []


def test_coverage_shows_dark_ages_complete():
    rows = {r["set"]: r for r in commands.coverage_data()["sets"]}
    da = rows["Dark Ages"]
    assert da["entries"] == len(DARK_AGES_ENTRIES)
    assert da["defined"] == da["entries"] and da["cited_by_scenarios"] == da["entries"]


@pytest.mark.parametrize("name, old", [("Band of Misfits", "pre-2019"), ("Death Cart", "pre-2019"),
                                       ("Pillage", "pre-2019"), ("Procession", "pre-2019"),
                                       ("Counterfeit", "pre-2022"), ("Hermit", "pre-2022"), ("Hovel", "pre-2022")])
def test_changed_cards_have_both_versions_the_current_one_by_default(name, old):
    assert registry.versions(name) == ["1", "2"]
    assert registry.definition(None, name).version == "2"
    g = _game()
    g.versions[name] = "1"
    assert old in registry.definition(g, name).note


def test_the_ruins_pile_is_as_many_shuffled_ruins_as_asked_and_only_its_top_card_is_gained():
    g = _game(players=3)
    g.set_pile("Ruins", 20)       # 3 players: as many Ruins as Curses (20)
    ruins.setup(g)
    pile = g.supply["Ruins"]
    assert len(pile) == 20 and {c.name for c in pile} <= set(ruins.KINDS) and len({c.name for c in pile}) > 1
    assert all(c.pile == "Ruins" for c in pile) and max(Counter(c.name for c in pile).values()) <= 10
    top = pile[-1]
    got = act.gain(g, g.players[1], "Ruins")
    assert got is top and top.zone == "discard" and len(g.supply["Ruins"]) == 19
    assert ruins.pile_size(curses=20) == 20 and ruins.pile_size(curses=60) == 50


def test_the_ruins_shuffle_depends_on_the_seed_only():
    def order(seed):
        g = _game(seed=seed)
        g.set_pile("Ruins", 10)
        ruins.setup(g)
        return [c.name for c in g.supply["Ruins"]]
    assert order(1) == order(1)
    assert any(order(1) != order(s) for s in (2, 3, 4))


def test_looters_bring_the_ruins_pile():
    assert ruins.is_looter_game(["Village", "Marauder"]) and not ruins.is_looter_game(["Village", "Smithy"])


def test_the_knights_pile_holds_the_ten_different_knights_and_its_cost_is_the_top_cards():
    g = _game()
    g.set_pile("Knights", 10)
    knights.setup(g)
    assert sorted(c.name for c in g.supply["Knights"]) == sorted(knights.KNIGHTS)
    g.supply["Knights"].sort(key=lambda c: c.name == "Sir Martin")     # Sir Martin ($4) on top
    g.turn.coins = 4
    assert "Knights" in act.buyable(g)
    g.supply["Knights"].sort(key=lambda c: c.name == "Sir Destry")     # a $5 Knight on top
    assert "Knights" not in act.buyable(g)


def test_spoils_madman_mercenary_are_outside_the_supply_never_bought_and_do_not_end_the_game():
    g = _game()
    for name in ("Bandit Camp", "Hermit", "Urchin", "Province"):
        g.set_pile(name, 8)
    for name in ("Bandit Camp", "Hermit", "Urchin"):
        registry.definition(g, name).setup(g)
    assert {n: len(p) for n, p in g.non_supply.items()} == {"Spoils": 15, "Madman": 10, "Mercenary": 10}
    assert not {"Spoils", "Madman", "Mercenary"} & set(g.supply)
    g.turn.coins = 10
    assert not {"Spoils", "Madman", "Mercenary"} & set(act.buyable(g))
    for n in list(g.non_supply):
        g.non_supply[n].clear()
    assert act.game_end_reached(g) is None


def test_an_empty_non_supply_pile_gains_nothing():
    g = _game()
    nonsupply.include(g, "Spoils", 0)
    assert nonsupply.gain_from(g, g.players[0], "Spoils") is None
    assert "cannot gain Spoils: its pile is empty" in g.log.entries[-1].text


def test_shelters_are_chosen_by_the_last_randomizer_card():
    assert shelters.use_shelters(["Village", "Smithy", "Cultist"])
    assert not shelters.use_shelters(["Cultist", "Smithy", "Village"])
    assert shelters.starting_cards(True).count("Copper") == 7
    assert set(shelters.starting_cards(True)) - {"Copper"} == set(shelters.SHELTERS)


def test_a_ruins_order_naming_a_card_that_is_not_a_ruins_is_refused_at_its_line(tmp_path):
    with pytest.raises(ScenarioError, match=r":4: ruins\[1\]: expected one of Abandoned Mine, .*found 'Copper'"):
        run_text(tmp_path, """
        title: t
        rulings: [{section: Special setup}]
        ruins: [Copper, Survivors]
        players: [{name: Alice, hand: [Marauder]}, {name: Bob}]
        supply: {Marauder: 9, Ruins: 2}
        steps: [{play: Marauder}]
    """)


def test_band_of_misfits_may_play_a_duration_but_not_a_card_costing_as_much(tmp_path):
    """The Complete Rules exclude only Command cards (Band of Misfits 4; Conjurer 3), although the card facts'
    text says "non-Command non-Duration": Fishing Village is offered, Mystic ($5, not less) is not."""
    res = run_text(tmp_path, """
        title: t
        rulings: [{card: Band of Misfits, ruling: 4}]
        players: [{name: Alice, hand: [Band of Misfits]}, {name: Bob}]
        supply: {Band of Misfits: 9, Fishing Village: 10, Market Square: 10, Mystic: 10}
        steps: [{play: Band of Misfits, answers: [Fishing Village]}]
        expect:
          actions: 2
          offered: [{player: Alice, options: [Fishing Village, Market Square]}]
          Alice: {in_play: [Band of Misfits]}
    """)
    assert res.ok, (res.error, res.failures)


def test_every_dark_ages_definition_reads_as_plain_steps():
    """As for the other sets. Knights and Ruins are the piles' own entries: each card of those piles
    has its definition and is checked by itself, so the pile entry has no steps to show."""
    from tests.definition_text import CODE_WORDS_OR_PRINTED, cards_in, unplain_lines

    cards = cards_in("Dark Ages".__eq__)
    assert len(cards) >= 50
    bad = unplain_lines(cards, CODE_WORDS_OR_PRINTED)
    assert set(bad) <= {"Knights current", "Ruins current"}, bad
    assert all(bad[k] == "no lines" for k in bad), bad
    piles = [c for c in cards if c.startswith(("Dame ", "Sir ", "Ruined ", "Abandoned ", "Survivors"))]
    assert len(piles) >= 10 and not unplain_lines(piles, CODE_WORDS_OR_PRINTED)
