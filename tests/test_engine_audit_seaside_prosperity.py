"""Judge's audit of Seaside and Prosperity (docs/audit-seaside-prosperity.md): the checks that would have
caught what the audit found, on the real Card Reference, card facts and scenarios."""
from __future__ import annotations

from functools import lru_cache

import pytest

from app import config
from app.corpus.card_facts import load_facts
from app.engine import scenario

AUDITED = sorted(p for p in config.scenarios_dir().glob("*.yaml") if p.name.startswith(("seaside-", "prosperity-")))


@lru_cache(maxsize=1)
def _reference() -> tuple[dict[str, str], set[tuple[str, int]], set[str]]:
    from app.corpus.card_reference_parser import parse_card_reference
    from app.corpus.model import ParsedCorpus
    from app.corpus.sources import load_document

    parsed = ParsedCorpus()
    parse_card_reference(load_document("rules"), parsed)
    entries = {e.name: e.slug for e in parsed.cards}
    numbers = {(r.version or r.card, r.number) for r in parsed.rulings}
    return entries, numbers, {v.slug for v in parsed.previous_versions}


def _bad_citation(c: dict) -> bool:
    entries, numbers, versions = _reference()
    slug = entries.get(c["card"])
    if slug is not None and c.get("version"):
        slug = f"{slug}-{c['version']}"
        if slug not in versions:
            return True
    return slug is None or ("ruling" in c and (slug, c["ruling"]) not in numbers)


def _run(path_or_text, name: str = "inline"):
    sc = scenario.load(path_or_text) if not isinstance(path_or_text, str) else scenario.loads(path_or_text, name)
    res = scenario.run(sc)
    assert res.error is None, str(res.error)
    assert not res.failures, "\n".join(f.render() for f in res.failures)
    return res


def test_there_are_audited_scenarios():
    assert len(AUDITED) >= 100


@pytest.mark.parametrize("path", AUDITED, ids=[p.stem for p in AUDITED])
def test_every_ruling_the_narration_cites_exists(path):
    """A log line citing "Treasury (pre-2022) 4" as a card name of its own pointed nowhere."""
    res = _run(path)
    bad = [(e.text, c) for e in res.log.entries for c in e.citations if "card" in c and _bad_citation(c)]
    assert not bad


def test_smugglers_sees_only_what_the_right_hand_player_gained():
    """Bob's Witch made Alice gain a Curse on Bob's turn; that was not Bob's gain (Smugglers 3)."""
    res = _run(config.scenarios_dir() / "seaside-smugglers-only-what-they-gained.yaml")
    g = res.game
    bob = g.players[1]
    assert g.last_turn[bob.index].gained == []
    assert [c.name for c in g.players[0].discard] == ["Curse"]


def test_contraband_and_war_chest_names_exclude_landscapes_but_not_cards_outside_the_game():
    from app.engine.core.effects import nameable

    names = set(nameable())
    facts = load_facts().values()
    landscapes = {f.name for f in facts if f.purpose == "Landscape"}
    events = {f.name for f in facts if "Event" in f.types}
    assert events and not names & events
    assert not names & landscapes
    # any card may be named, in the game or not (Name a card § VI)
    assert {"Colony", "Platinum", "Curse", "Copper", "Contraband"} <= names


OUTPOST_1ST_SINGLE = """\
title: one 1st-edition Outpost is discarded in the Clean-up of its extra turn
rulings: [{card: Outpost, ruling: 2}]
versions: {Outpost: "1"}
players:
  - name: Alice
    hand: [Outpost, Estate, Estate, Copper, Copper]
    deck: ["Copper*10"]
  - name: Bob
    hand: ["Copper*5"]
    deck: ["Copper*5"]
supply: {Silver: 40}
steps:
  - play: Outpost
  - end_turn: true
    expect: {current: Alice, Alice: {hand: 3, in_play: [Outpost]}}
  - end_turn
expect:
  current: Bob
  Alice: {in_play: []}
"""


def test_a_single_first_edition_outpost_leaves_in_its_extra_turns_cleanup():
    res = _run(OUTPOST_1ST_SINGLE)
    assert res.game.players[0].in_play == []
    assert [c.name for c in res.game.players[0].discard].count("Outpost") == 1


def test_two_first_edition_outposts_the_second_leaves_in_the_next_players_cleanup():
    """Outpost 2: "the other is discarded in the following Clean-up, which is in the next player's turn"."""
    two = _run(config.scenarios_dir() / "seaside-outpost-first-edition-two-outposts.yaml")
    alice = two.game.players[0]
    assert [c.name for c in alice.in_play] == ["Outpost"] and two.game.current.name == "Bob"
    later = _run(config.scenarios_dir() / "seaside-outpost-first-edition-second-discarded-next-player.yaml")
    assert later.game.players[0].in_play == []
    assert [c.name for c in later.game.players[0].discard].count("Outpost") == 2


# ------------------------------------------------------------------ costs with Potion and Debt (CARD COSTS § VI)
# No Potion or Debt card has an executable definition yet, so these check the real definitions' filters.
def _card(name: str):
    from app.engine.core.state import Card

    return Card(id=0, name=name)


def test_expand_keeps_the_trashed_cards_potion():
    from app.engine.cards import prosperity  # noqa: F401  (registers)
    from app.engine.core import registry
    from app.engine.core.effects import Ctx

    gain = registry.definition(None, "Expand").play.effects[1].effect
    with_potion = Ctx(game=None, player=None, source=None, vars={"trashed": [_card("Familiar")]})   # $3 + Potion
    assert gain.filter(with_potion, _card("Golem"))          # $4 + Potion: up to $6 + Potion
    assert gain.filter(with_potion, _card("Gold"))           # $6, no Potion: lower
    plain = Ctx(game=None, player=None, source=None, vars={"trashed": [_card("Silver")]})
    assert gain.filter(plain, _card("Duchy")) and not gain.filter(plain, _card("Familiar"))
    assert not gain.filter(plain, _card("Engineer"))         # Debt is higher than no Debt


class _Recorder:
    """Answers every question with its first option and keeps the questions (what was offered)."""

    def __init__(self) -> None:
        self.questions: list = []

    def ask(self, q):
        self.questions.append(q)
        return q.options[:1] if q.kind in ("cards", "order") else q.options[0] if q.kind == "choice" else False


def _game_with_familiar(hand: list[str]):
    from app.engine import scenario

    g = scenario.build(scenario.loads(
        "title: t\nrulings: [{card: Blockade}]\nplayers:\n  - {name: Alice, hand: [%s]}\n  - {name: Bob}\n"
        "supply: {Silver: 40}\nsteps: [end_turn]\n" % ", ".join(hand), "inline"))
    g.set_pile("Familiar", 5)          # $3 and a Potion: no executable definition, so not via the scenario
    g.decider = _Recorder()
    return g


def test_pirate_blockade_and_smugglers_never_take_a_potion_or_debt_card():
    from app.engine.core import activities as act
    from app.engine.core import registry
    from app.engine.cards import seaside  # noqa: F401
    from app.engine.core.state import Turn

    pirate_gain = registry.definition(None, "Pirate").play.effect
    assert pirate_gain.filter(None, _card("Gold"))
    assert not pirate_gain.filter(None, _card("Philosopher's Stone"))   # $3 + Potion is not "up to $6"
    assert not pirate_gain.filter(None, _card("Platinum"))

    g = _game_with_familiar(["Blockade"])
    alice = g.players[0]
    act.play(g, alice, alice.hand[0])
    offered = {c.name for c in g.decider.questions[0].options}
    assert "Silver" in offered and "Familiar" not in offered

    g = _game_with_familiar(["Smugglers"])
    alice, bob = g.players
    g.last_turn[bob.index] = Turn(player=bob.index, gained=[g.supply["Familiar"][-1], g.supply["Silver"][-1]])
    act.play(g, alice, alice.hand[0])
    assert g.decider.questions[0].options == ["Silver"]


def test_talisman_does_not_copy_a_potion_card():
    from types import SimpleNamespace

    from app.engine.cards import prosperity
    from app.engine.core.narrate import Log
    from app.engine.core.triggers import Event

    game = SimpleNamespace(log=Log())
    alice = SimpleNamespace(name="Alice", index=0)
    prosperity._talisman(game, Event("when_buy", alice, _card("Familiar"), {"cost": 3}), _card("Talisman"))
    assert game.log.entries and "does not copy Familiar" in game.log.entries[-1].text
