"""The judge's audit of Alchemy and Hinterlands (docs/audit-alchemy-hinterlands.md): what a user relies
on when reading a ruling the engine plays out for these sets.

* every log line of an Alchemy/Hinterlands scenario cites a Card Reference ruling that exists (in the
  version it names: "Trader (pre-2020) 15" is in Previous versions);
* the card pages' "How the engine plays it" reads as plain steps for every card of both sets (no
  generic "card-specific rule" text, no code words, no fallback to the printed text);
* the turn-order fix found by the audit: a regular turn right after the player's own Possessed turn
  is a 2nd turn in a row (Possession 13), while two regular turns of a lone player are not;
* every card of both sets is demonstrated by a scenario.

The fixes to Possession's when-would-gain and when-trash abilities (Trader pre-2020 15, Trail 8) are
demonstrated by scenarios (alchemy-possession-trader-pre-2020-first, alchemy-possession-trail-*),
replayed by tests/test_scenarios.py; here we check the citations they print.
"""
from __future__ import annotations

from functools import lru_cache

from app import config
from app.corpus.card_facts import load_facts
from app.corpus.card_reference_parser import find_card, parse_card_reference
from app.corpus.model import ParsedCorpus
from app.corpus.sources import load_document
from app.engine.core import narrate, registry
from app.engine import scenario
from app.engine.core.decisions import Decider
from app.engine.core.state import Game, Turn
from app.engine.core.turns import consecutive_turns
from tests.definition_text import CODE_WORDS_OR_PRINTED, cards_in, unplain_lines

PREFIXES = ("alchemy-", "hinterlands-")


def _in_sets(set_name: str | None) -> bool:
    return bool(set_name) and ("Alchemy" in set_name or "Hinterlands" in set_name)


@lru_cache(maxsize=1)
def _parsed() -> ParsedCorpus:
    parsed = ParsedCorpus()
    parse_card_reference(load_document("rules"), parsed)
    return parsed


@lru_cache(maxsize=1)
def _replays() -> dict:
    paths = [p for p in sorted(config.scenarios_dir().glob("*.yaml")) if p.name.startswith(PREFIXES)]
    return {p.name: scenario.run(scenario.load(p)) for p in paths}


def _ruling_exists(c: dict) -> bool:
    entry = find_card(_parsed(), c["card"])
    if entry is None:
        return False
    if "ruling" not in c:
        return True
    for r in _parsed().rulings:
        if r.card != entry.slug or r.number != c["ruling"]:
            continue
        if c.get("version") is None or (r.version or "").endswith(c["version"]):
            return True
    return False


def test_every_ruling_cited_on_a_log_line_exists_in_the_version_it_names():
    bad = []
    for name, res in _replays().items():
        for e in res.log.entries:
            for c in e.citations:
                if "card" in c and not _ruling_exists(c):
                    bad.append((name, e.text, c))
    assert len(_replays()) >= 70
    assert not bad, bad[:10]


def test_the_audit_fixes_print_the_rulings_they_follow():
    trader = _replays()["alchemy-possession-trader-pre-2020-first.yaml"]
    line = next(e for e in trader.log.entries if "already replaced" in e.text)
    assert {"card": "Trader", "ruling": 15, "version": "pre-2020"} in line.citations
    trail = _replays()["alchemy-possession-trail-trashed-plays-first.yaml"]
    line = next(e for e in trail.log.entries if "cannot set it aside" in e.text)
    assert {"card": "Possession", "ruling": 8} in line.citations and narrate.LOSE_TRACK in line.citations
    trail = _replays()["alchemy-possession-trail-set-aside-first.yaml"]
    line = next(e for e in trail.log.entries if "cannot play itself" in e.text)
    assert {"card": "Trail", "ruling": 8} in line.citations and narrate.LOSE_TRACK in line.citations


# ------------------------------------------------------------------ card pages
def test_every_alchemy_and_hinterlands_definition_reads_as_plain_steps():
    cards = cards_in(_in_sets)
    assert len(cards) >= 45
    bad = unplain_lines(cards, CODE_WORDS_OR_PRINTED)
    assert not bad, bad


def test_card_pages_name_the_engine_steps_of_possession_potion_and_old_farmland():
    from app.web.definition_words import definition_words

    said = {(c, v["version"]): " / ".join(x["text"] for x in v["lines"])
            for c in ("Possession", "Potion", "Farmland") for v in definition_words(c)}
    assert "make all their decisions" in said[("Possession", "current")]
    assert "Potion" in said[("Potion", "current")] and "money pool" in said[("Potion", "current")]
    assert said[("Farmland", "1")].startswith("Worth 2 VP / When you buy this, trash a card from your hand")
    assert "non-Farmland" in said[("Farmland", "2")]


# ------------------------------------------------------------------ turn order (Possession 13)
def _game(players: int) -> Game:
    registry.defined_cards()
    g = Game()
    g.log, g.decider = narrate.Log(), Decider()
    for name in ("Alice", "Bob")[:players]:
        g.add_player(name)
    return g


def test_a_regular_turn_after_your_own_extra_turn_is_a_second_turn_in_a_row():
    g = _game(2)
    g.previous_turn = Turn(player=1)
    g.previous_turn.extra = True            # Bob's Possessed turn
    g.turn = Turn(player=1)                 # Bob's regular turn
    assert consecutive_turns(g) == 2
    g.previous_turn.extra = False           # Alice's turn before was not Bob's
    g.previous_turn.player = 0
    assert consecutive_turns(g) == 1


def test_two_regular_turns_of_a_lone_player_are_not_consecutive_extra_turns():
    g = _game(1)
    g.previous_turn = Turn(player=0)
    g.turn = Turn(player=0)
    assert consecutive_turns(g) == 1


# ------------------------------------------------------------------ coverage
def test_every_alchemy_and_hinterlands_card_is_demonstrated_by_a_scenario():
    cited = set()
    for p in config.scenarios_dir().glob("*.yaml"):
        cited |= {r["card"] for r in scenario.load(p).rulings if "card" in r}
    cited |= {"Philosopher's Stone"} if "Philosopher’s Stone" in cited else set()
    names = {f.name for f in load_facts().values() if _in_sets(f.set)} - {"Potion"}  # Potion: § IV, no entry
    missing = sorted(n for n in names if n not in cited)
    assert not missing, missing
